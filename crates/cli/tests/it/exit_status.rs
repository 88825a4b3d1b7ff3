//! The application's exit status comes back unchanged (128+N for a signal), with stand-in
//! library paths: the shell never initialises HSA, so the libraries are never used.

use std::path::Path;
use std::process::Output;

use crate::{bin_with_stand_in_libs, scratch, stderr};

fn run_sh(dir: &Path, script: &str) -> Output {
    bin_with_stand_in_libs(dir)
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
    let o = bin_with_stand_in_libs(&dir)
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

/// Starts `rocprof-rs ... -- sleep 5` in its own process group, waits until the application
/// runs, sends `signal` to `target` (`Some(pgid)` for the group, `None` for rocprof-rs alone).
fn interrupted(name: &str, signal: &str, group: bool) -> Output {
    use std::os::unix::process::CommandExt;
    let dir = scratch(name);
    let child = bin_with_stand_in_libs(&dir)
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(&dir)
        .args(["--", "sleep", "5"])
        .process_group(0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Wait until rocprof-rs has a child (the application) before signalling.
    let children = format!("/proc/{pid}/task/{pid}/children");
    let t0 = std::time::Instant::now();
    while std::fs::read_to_string(&children).map(|c| c.trim().is_empty()).unwrap_or(true) {
        assert!(t0.elapsed().as_secs() < 10, "the application never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let target = if group { format!("-{pid}") } else { pid.to_string() };
    let ok = std::process::Command::new("kill").args(["-s", signal, "--", &target]).status().unwrap();
    assert!(ok.success());
    child.wait_with_output().unwrap()
}

#[test]
fn terminal_interrupt_lets_rocprof_rs_finish_with_130() {
    // Like Ctrl-C: the whole foreground group gets SIGINT.
    let o = interrupted("sigint-group", "INT", true);
    assert_eq!(o.status.code(), Some(128 + 2), "rocprof-rs itself must survive; stderr: {}", stderr(&o));
}

#[test]
fn sigterm_to_rocprof_rs_is_forwarded_to_the_application() {
    let o = interrupted("sigterm-forward", "TERM", false);
    assert_eq!(o.status.code(), Some(128 + 15), "stderr: {}", stderr(&o));
}
