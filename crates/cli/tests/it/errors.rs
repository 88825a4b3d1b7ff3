//! Each user mistake gives one clear line and a non-zero exit, before any application runs.

use crate::{assert_one_line_error, bin, bin_with_stand_in_libs, scratch, stdout};

#[test]
fn unknown_option() {
    let o = bin().args(["--kernel-trace", "--no-such-option", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 2, "'--no-such-option'");
}

#[test]
fn abbreviated_option_is_not_accepted() {
    let o = bin().args(["--kernel-tr", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 2, "'--kernel-tr'");
}

#[test]
fn unknown_output_format() {
    let o = bin().args(["--kernel-trace", "-f", "xml", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 2, "unknown output format 'xml'");
}

#[test]
fn missing_application() {
    let o = bin().args(["--kernel-trace", "-d", "/tmp"]).output().unwrap();
    assert_one_line_error(&o, 2, "no application given");
}

#[test]
fn stats_without_tracing() {
    let o = bin().args(["--stats", "--", "true"]).output().unwrap();
    assert_one_line_error(&o, 1, "no tracing options were enabled for the --stats option");
}

#[test]
fn unwritable_output_directory() {
    let dir = scratch("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    // A directory below a regular file can never be created, even by root.
    let target = file.join("out");
    let o = bin()
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(&target)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert_one_line_error(&o, 1, &format!("output directory {} cannot be created", target.display()));

    let o =
        bin().args(["--simulate", "gfx942", "--kernel-trace", "-d"]).arg(&file).args(["--", "true"]).output().unwrap();
    assert_one_line_error(&o, 1, "exists and is not a directory");
}

#[test]
fn application_not_found() {
    let dir = scratch("app-not-found");
    // The application never starts, so stand-in libraries do.
    let o = bin_with_stand_in_libs(&dir)
        .args(["--simulate", "gfx942", "--kernel-trace", "-d"])
        .arg(&dir)
        .args(["--", "/nonexistent/dir/no-such-app", "1"])
        .output()
        .unwrap();
    assert_one_line_error(&o, 1, "application '/nonexistent/dir/no-such-app' not found");
    // The private capture directory is cleaned up.
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers, [std::ffi::OsString::from("libfake.so")]);
}

#[test]
fn without_simulate_and_without_a_gpu_suggests_simulate() {
    if std::path::Path::new("/dev/kfd").exists() {
        rocprof_test_inputs::skip_optional(
            "without_simulate_and_without_a_gpu_suggests_simulate",
            "this machine has /dev/kfd (an AMD GPU driver); the no-GPU message cannot be tested",
        );
        return;
    }
    let dir = scratch("no-gpu");
    let o = bin().args(["--kernel-trace", "-d"]).arg(&dir).args(["--", "true"]).output().unwrap();
    assert_one_line_error(&o, 1, "add --simulate gfx942");
}

#[test]
fn help_lists_the_options_and_exit_codes() {
    let o = bin().arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for opt in [
        "--kernel-trace",
        "--output-directory",
        "--output-file",
        "--output-format",
        "--stats",
        "--summary",
        "--log-level",
        "--list-avail",
        "--simulate",
        "128+N",
    ] {
        assert!(text.contains(opt), "--help lacks {opt}");
    }
}

#[test]
fn from_capture_without_captures() {
    let dir = scratch("from-capture-empty");
    let o =
        bin().args(["--kernel-trace", "-f", "csv", "-d"]).arg(&dir).arg("--from-capture").arg(&dir).output().unwrap();
    assert_one_line_error(&o, 1, &format!("{} holds no capture files (*.rpcap)", dir.display()));
    let o = bin().arg("--from-capture").arg(&dir).args(["--", "true"]).output().unwrap();
    assert_one_line_error(&o, 2, "--from-capture");
}
