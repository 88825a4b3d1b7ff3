//! Integration tests of the `rocprof-rs` binary: command-line errors (no staged artifacts
//! needed) and, with `ROCPROF_RS_STAGE` set by `cargo xtask test`, real runs on hsa-sim.

mod att_decode;
mod att_staged;
mod compat;
mod errors;
mod exit_status;
mod hostile_db;
mod input_jobs;
mod pftrace;
mod rocpd_amd;
mod rocpd_cmd;
mod staged;
mod subcommands;

use rocprof_launch::names;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary cargo built for this test run.
pub(crate) fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rocprof-rs"));
    // Keep the caller's overrides out of the tests' way.
    for v in [names::INTERCEPT_LIB, names::SIM_LIB, names::PROBE, names::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    c
}

/// The binary with stand-in library paths (an empty `libfake.so` in `dir`): for runs whose
/// application never initialises HSA, so the libraries are never loaded.
pub(crate) fn bin_with_stand_in_libs(dir: &Path) -> Command {
    let fake = dir.join("libfake.so");
    std::fs::write(&fake, b"").expect("write stand-in library");
    let mut c = bin();
    c.env(names::INTERCEPT_LIB, &fake).env(names::SIM_LIB, &fake);
    c
}

/// A fresh scratch directory unique to this test process and `name`.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rocprof-cli-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// stderr as text.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// stdout as text.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts a failure with exactly one `rocprof-rs: error: ` line on stderr containing `needle`.
pub(crate) fn assert_one_line_error(o: &Output, code: i32, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "exit status; stderr: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line on stderr, got: {err}");
    assert!(lines[0].starts_with("rocprof-rs: error: "), "{err}");
    assert!(lines[0].contains(needle), "expected {needle:?} in: {err}");
}
