//! The application's exit status comes back unchanged (128+N for a signal), with stand-in
//! library paths: the shell never initialises HSA, so the libraries are never used.

use std::path::Path;
use std::process::Output;

use crate::{bin, scratch, stderr};

fn run_sh(dir: &Path, script: &str) -> Output {
    let fake = dir.join("libfake.so");
    std::fs::write(&fake, b"").unwrap();
    bin()
        .env("ROCPROF_RS_INTERCEPT_LIB", &fake)
        .env("ROCPROF_RS_SIM_LIB", &fake)
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(dir)
        .args(["--", "/bin/sh", "-c", script])
        .output()
        .unwrap()
}

#[test]
fn exit_code_is_propagated() {
    let dir = scratch("exit-7");
    let o = run_sh(&dir, "exit 7");
    assert_eq!(o.status.code(), Some(7), "{}", stderr(&o));
    assert!(stderr(&o).contains("the application wrote no capture"), "{}", stderr(&o));
}

#[test]
fn signal_death_becomes_128_plus_n() {
    let dir = scratch("exit-segv");
    let o = run_sh(&dir, "kill -SEGV $$");
    assert_eq!(o.status.code(), Some(128 + 11), "{}", stderr(&o));
    let dir = scratch("exit-term");
    let o = run_sh(&dir, "kill -TERM $$");
    assert_eq!(o.status.code(), Some(128 + 15), "{}", stderr(&o));
}

#[test]
fn success_is_zero_and_leaves_no_capture_directory() {
    let dir = scratch("exit-0");
    let o = run_sh(&dir, "true");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(left, ["libfake.so"]);
}

#[test]
fn pid_dependent_output_directory_is_not_created_for_our_own_pid() {
    let dir = scratch("pid-dir");
    let fake = dir.join("libfake.so");
    std::fs::write(&fake, b"").unwrap();
    let o = bin()
        .env("ROCPROF_RS_INTERCEPT_LIB", &fake)
        .env("ROCPROF_RS_SIM_LIB", &fake)
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(dir.join("runs/%pid%"))
        .args(["--", "/bin/sh", "-c", "exit 0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Only the pid-independent part exists, and the private capture directory is gone from it.
    let runs: Vec<_> = std::fs::read_dir(dir.join("runs")).unwrap().collect();
    assert!(runs.is_empty(), "{runs:?}");
}
