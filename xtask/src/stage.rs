//! Staging: builds the release workspace and lays out `target/stage/` the way an installed
//! rocprof-rs looks (the CLI next to its interception library and hsa-sim), plus the C fixtures.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use crate::{cargo, root, status};

/// Debian packages the fixtures and the rocminfo test need: AMD's HSA headers (ROCm 5.2 in
/// Debian 12), Debian's rocminfo, a C compiler, and clang-19/lld-19 (the code-object rebuild
/// test and LLVM's AMDGPU disassembler; required under `CI=true`).
const APT_PACKAGES: &[&str] = &["libhsa-runtime-dev", "rocminfo", "gcc", "pkg-config", "clang-19", "lld-19"];

/// Installs the Debian packages when they are missing and we are root; otherwise says what to run.
pub(crate) fn setup() -> Result<()> {
    let missing = !Path::new("/usr/include/hsa/hsa.h").exists()
        || !Path::new("/usr/bin/rocminfo").exists()
        || !Path::new("/usr/bin/clang-19").exists()
        || !Path::new("/usr/bin/ld.lld-19").exists();
    if !missing {
        return Ok(());
    }
    let is_root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    if !is_root {
        eprintln!(
            "xtask: AMD's HSA headers or rocminfo are missing; run: sudo apt-get install {}",
            APT_PACKAGES.join(" ")
        );
        return Ok(());
    }
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    status(update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(APT_PACKAGES)
        .env("DEBIAN_FRONTEND", "noninteractive");
    status(install)
}

/// Builds everything in release mode and returns the stage directory.
pub(crate) fn build() -> Result<PathBuf> {
    let mut cmd = cargo();
    cmd.args(["build", "--release", "--workspace", "--exclude", "xtask"]);
    status(cmd)?;
    // Cargo puts the build where CARGO_TARGET_DIR says (relative to the root, as cargo reads it);
    // the stage itself always sits under the repository's own target/.
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map(|d| root().join(d)).unwrap_or_else(|| root().join("target"));
    let release = target_dir.join("release");
    let stage = root().join("target").join("stage");
    fs::create_dir_all(stage.join("fixtures"))?;
    copy_if_exists(&release.join("rocprof-rs"), &stage.join("rocprof-rs"))?;
    copy_if_exists(&release.join("librocprof_intercept.so"), &stage.join("librocprof_intercept.so"))?;
    copy_if_exists(&release.join("librocprof_sim_hsa.so"), &stage.join("libhsa-runtime64.so.1"))?;
    if stage.join("libhsa-runtime64.so.1").exists() {
        // Applications link with -lhsa-runtime64, which the linker resolves through this name.
        let link = stage.join("libhsa-runtime64.so");
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink("libhsa-runtime64.so.1", &link)?;
    }
    crate::stage_fixtures(&stage)?;
    Ok(stage)
}

fn copy_if_exists(from: &Path, to: &Path) -> Result<()> {
    if from.exists() {
        // Remove first: overwriting a shared library that a running process maps would corrupt it.
        let _ = fs::remove_file(to);
        fs::copy(from, to).with_context(|| format!("staging {}", from.display()))?;
    }
    Ok(())
}
