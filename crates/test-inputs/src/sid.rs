//! The Debian sid chroot with ROCm 6.4 (HIP 6.4, hipcc 7, rocBLAS, rocminfo 7.2) that `cargo xtask
//! sid` builds, and the one way to run a host program inside it. xtask (building the HIP 6.4
//! fixtures with sid's hipcc) and the e2e tests (running them on hsa-sim) both use [`command`], so
//! the contract below has one source of truth:
//!
//! * The chroot lives at `$ROCPROF_RS_SID_ROOT` (default [`DEFAULT_ROOT`]); it is complete when its
//!   [`STAMP`] file exists (written last by `cargo xtask sid`).
//! * A command runs in a private mount namespace (`unshare -m`, propagation private): `/proc` is
//!   mounted, `/dev` and `/sys` are bound, and the host's `/tmp`, the workspace (with `target/stage`)
//!   and any extra directories are bound **at the same absolute paths**, so host paths work unchanged
//!   inside. Everything is unmounted when the command exits; concurrent users do not collide.
//! * Needs root (CAP_SYS_ADMIN for `unshare -m` and `chroot`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `cargo xtask sid` builds the chroot unless `ROCPROF_RS_SID_ROOT` says otherwise.
pub const DEFAULT_ROOT: &str = "/var/cache/rocprof-rs/sid";

/// GPU targets of the HIP 6.4 fixtures (`fixtures/hip6/`, one fat binary each): hsa-sim's targets
/// that HIP 6.4 runs on. clang-21 also builds gfx950, but HIP 6.4's own ISA table has no gfx950 (it
/// refuses the device), so it is left out.
pub const HIP6_TARGETS: &[&str] = &["gfx90a", "gfx942", "gfx1100", "gfx1201"];

/// The stamp file, relative to the chroot: the package list it was built with and the versions
/// installed (`name version` lines). Its presence means the chroot is complete.
pub const STAMP: &str = "etc/rocprof-rs-sid.stamp";

/// The chroot directory: `$ROCPROF_RS_SID_ROOT` when set and non-empty, else [`DEFAULT_ROOT`].
pub fn root() -> PathBuf {
    std::env::var_os(rocprof_launch::names::SID_ROOT)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or(DEFAULT_ROOT.into())
}

/// True when `root` holds a complete chroot (its stamp exists).
pub fn is_complete(root: &Path) -> bool {
    root.join(STAMP).is_file()
}

/// The shell script `unshare -m` runs: `$1` is the chroot, then `--bind DIR` pairs, `--`, and the
/// program with its arguments. Directories are created inside the chroot (empty mount points) as
/// needed. `/tmp` of the chroot becomes the host's, so scratch paths agree on both sides. The
/// program starts in the caller's working directory when that is visible inside, else in `/`.
const SCRIPT: &str = r#"set -eu
R=$1; shift
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
mount --rbind /sys "$R/sys"
mount --bind /tmp "$R/tmp"
while [ "$1" = --bind ]; do
  mkdir -p "$R$2"
  mount --bind "$2" "$R$2"
  shift 2
done
shift
exec chroot "$R" /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$PWD" "$@"
"#;

/// Where commands in the chroot keep comgr's cache (see [`command`]).
pub const COMGR_CACHE: &str = "/tmp/rocprof-rs-sid-comgr-cache";

/// A command that runs `program` (a path inside the chroot, or a host path under one of the bound
/// directories) inside the chroot `root`, with the workspace, `/tmp` and `binds` visible at their
/// host paths. Arguments and environment set on the returned command reach the program (`chroot`
/// keeps the environment). Nothing stays mounted after it exits.
pub fn command(root: &Path, binds: &[&Path], program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new("unshare");
    // sid's comgr (7.x) caches compiled code under $HOME/.cache/comgr, i.e. the chroot's /root: keep the
    // chroot unmodified by sending its cache to the host's /tmp (bound inside).
    cmd.env("AMD_COMGR_CACHE_DIR", COMGR_CACHE);
    cmd.args(["-m", "--propagation", "private", "--", "sh", "-c", SCRIPT, "sh"]).arg(root);
    let workspace = crate::workspace_root();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in std::iter::once(workspace.as_path()).chain(binds.iter().copied()) {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        // A directory inside one already bound (or /tmp) is visible through it.
        if dir.starts_with("/tmp") || seen.iter().any(|s| dir.starts_with(s)) {
            continue;
        }
        seen.push(dir);
    }
    for dir in &seen {
        cmd.arg("--bind").arg(dir);
    }
    cmd.arg("--").arg(program);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_binds_the_workspace_once_and_ends_the_options_before_the_program() {
        let ws = crate::workspace_root().canonicalize().unwrap();
        let cmd = command(Path::new("/r"), &[&ws.join("target"), Path::new("/tmp/x"), Path::new("/opt")], "/bin/true");
        let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        let cache = cmd.get_envs().find(|(k, _)| *k == OsStr::new("AMD_COMGR_CACHE_DIR")).and_then(|(_, v)| v);
        assert_eq!(
            cache,
            Some(OsStr::new(COMGR_CACHE)),
            "comgr's cache goes to the host's /tmp, not the chroot's /root"
        );
        let tail = &args[args.iter().position(|a| a == "/r").unwrap() + 1..];
        // A workspace under /tmp (a CI clone there) is visible through the /tmp bind and is not bound again.
        let mut want = Vec::new();
        if !ws.starts_with("/tmp") {
            want.extend(["--bind".to_string(), ws.display().to_string()]);
        }
        want.extend(["--bind", "/opt", "--", "/bin/true"].map(String::from));
        assert_eq!(tail, want);
    }
}
