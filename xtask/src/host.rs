//! The host the tasks run on: the repository root, running a command (and cargo), and the Debian
//! packages the build needs.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// Debian packages the fixtures and the rocminfo test need: AMD's HSA headers (ROCm 5.2 in
/// Debian 12), Debian's rocminfo, a C compiler, clang-19/lld-19 (the code-object rebuild test),
/// llvm-19 (LLVM's AMDGPU disassembler: `rocprof-isa`'s decoder cross-check and `cargo xtask
/// codegen-isa`; required under `CI=true`), and HIP 5.2 with rocRAND/hipRAND for the
/// HIP fixtures (`fixtures/hip/`).
pub(crate) const APT_PACKAGES: &[&str] = &[
    "libhsa-runtime-dev",
    "rocminfo",
    "gcc",
    "pkg-config",
    "clang-19",
    "lld-19",
    "llvm-19",
    "hipcc",
    "libamdhip64-dev",
    "rocm-device-libs",
    "librocrand-dev",
    "libhiprand-dev",
    "librocsparse-dev",
    "openmpi-bin",
    // -f otf2 loads the OTF2 library at run time; otf2-check reads archives with the tools.
    "libopen-trace-format2-10",
    "otf2-tools",
    "python3-otf2",
];

/// The repository root (the parent of this crate's manifest directory).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives one level below the root").to_path_buf()
}

pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

pub(crate) fn status(mut cmd: Command) -> Result<()> {
    let shown = format!("{cmd:?}");
    let st = cmd.status().with_context(|| format!("starting {shown}"))?;
    if !st.success() {
        bail!("{shown} failed with {st}");
    }
    Ok(())
}
