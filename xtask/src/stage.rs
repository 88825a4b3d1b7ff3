//! Staging: builds the release workspace and lays out `target/stage/` the way an installed
//! rocprof-rs looks (the CLI next to its interception library and hsa-sim), plus the C fixtures.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use crate::host::{cargo, root, status, APT_PACKAGES};

/// Installs the Debian packages when they are missing and we are root; otherwise says what to run.
pub(crate) fn setup() -> Result<()> {
    let missing = !Path::new("/usr/include/hsa/hsa.h").exists()
        || !Path::new("/usr/bin/rocminfo").exists()
        || !Path::new("/usr/bin/clang-19").exists()
        || !Path::new("/usr/bin/ld.lld-19").exists()
        || !Path::new("/usr/bin/llvm-objdump-19").exists()
        || !Path::new("/usr/bin/hipcc").exists()
        || !Path::new("/usr/include/hiprand/hiprand.h").exists();
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
        symlink("libhsa-runtime64.so.1", &stage.join("libhsa-runtime64.so"))?;
    }
    stage_roctx(&release, &stage)?;
    crate::fixtures::stage_fixtures(&stage)?;
    Ok(stage)
}

/// Our ROCTx library under its soname, the link-time name and ROCm 6.2+'s name (the same file:
/// programs linked with `-lrocprofiler-sdk-roctx` then need `libroctx64.so.4`), and its headers
/// under `include/` (`roctx.h`, `rocprofiler-sdk-roctx/roctx.h`).
fn stage_roctx(release: &Path, stage: &Path) -> Result<()> {
    let lib = release.join("libroctx64.so");
    if !lib.exists() {
        return Ok(());
    }
    copy_if_exists(&lib, &stage.join("libroctx64.so.4"))?;
    symlink("libroctx64.so.4", &stage.join("libroctx64.so"))?;
    symlink("libroctx64.so.4", &stage.join("librocprofiler-sdk-roctx.so"))?;
    let headers = root().join("crates").join("roctx").join("include");
    let include = stage.join("include");
    fs::create_dir_all(include.join("rocprofiler-sdk-roctx"))?;
    for header in ["roctx.h", "rocprofiler-sdk-roctx/roctx.h"] {
        copy_if_exists(&headers.join(header), &include.join(header))?;
    }
    Ok(())
}

/// Makes `link` a symbolic link to `target` (relative to the link's directory), replacing it.
fn symlink(target: &str, link: &Path) -> Result<()> {
    let _ = fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).with_context(|| format!("linking {}", link.display()))
}

fn copy_if_exists(from: &Path, to: &Path) -> Result<()> {
    if from.exists() {
        // An unchanged file keeps its modification time: the HIP 6.4 fixtures are rebuilt when a
        // staged library they link (libroctx64.so.4) is newer than they are.
        if fs::read(to).ok().is_some_and(|old| fs::read(from).is_ok_and(|new| new == old)) {
            return Ok(());
        }
        // Remove first: overwriting a shared library that a running process maps would corrupt it.
        let _ = fs::remove_file(to);
        fs::copy(from, to).with_context(|| format!("staging {}", from.display()))?;
    }
    Ok(())
}
