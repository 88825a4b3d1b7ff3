//! AMD's own ROCm library test suites as the interpreter's oracle: Debian sid's `librocsparse1-tests`,
//! `librocrand1-tests`, `libhiprand1-tests` and `librocblas4-tests` (googletest programs that run the
//! libraries' kernels and compare every result with a host reference written by AMD), run inside the sid
//! chroot (`cargo xtask sid` installs them) on hsa-sim, for the targets Debian ships code for (gfx90a and
//! gfx1100: sid's ROCm 6.4 libraries carry no gfx942 or gfx1201 code objects).
//!
//! Each test runs a fixed, sampled gtest filter that takes seconds to a minute, and asserts exactly: every
//! test the filter selects (gtest's own `Running N tests` count, so no suite version is pinned) ran and
//! passed, none failed or was skipped, and every dispatch was executed by the interpreter (none fell back
//! to the timing-only model). The versions of the suites a run used are printed. rocPRIM's and hipCUB's
//! suites (`librocprim-tests`, `libhipcub-tests`: 0.7 and 0.5 GB to download, 3.7 GB installed) are
//! left out of CI for their size (run them by hand in a chroot with those packages, the same way), and so is
//! rocBLAS's (its gtest program parses its whole test data, minutes, before the first test).

use std::path::Path;

use rocprof_e2e::{run_command, scratch, ScratchGuard};

use crate::common::{sid_command, sid_root};
use crate::sid::sim_stats;

/// One sampled run of a suite program.
struct Sample {
    /// The Debian package that ships the program.
    package: &'static str,
    /// The program inside the chroot.
    program: &'static str,
    /// Its `--gtest_filter`.
    filter: &'static str,
    /// The smallest number of tests the filter may select (a guard against a filter that matches
    /// nothing after a suite renames its tests).
    at_least: u64,
}

/// rocRAND's XORWOW and Philox device generators (uniform, normal, log-normal, Poisson) from kernels.
const ROCRAND_KERNELS: [Sample; 2] = [
    Sample {
        package: "librocrand1-tests",
        program: "/usr/libexec/rocm/librocrand1-tests/test_rocrand_kernel_xorwow",
        filter: "*",
        at_least: 10,
    },
    Sample {
        package: "librocrand1-tests",
        program: "/usr/libexec/rocm/librocrand1-tests/test_rocrand_kernel_philox4x32_10",
        filter: "*",
        at_least: 10,
    },
];

/// hipRAND's device API on rocRAND.
const HIPRAND_KERNEL: Sample = Sample {
    package: "libhiprand1-tests",
    program: "/usr/libexec/rocm/libhiprand1-tests/test_hiprand_kernel",
    filter: "*",
    at_least: 10,
};

/// rocSPARSE level 1 (axpyi, doti, gthr, sctr) at the suite's `quick` sizes.
const ROCSPARSE_LEVEL1: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/axpyi.*:quick/doti.*:quick/gthr.*:quick/sctr.*",
    at_least: 40,
};

/// The installed version of `package` in the chroot (from dpkg's status file), for the record.
fn installed_version(root: &Path, package: &str) -> Option<String> {
    let status = std::fs::read_to_string(root.join("var/lib/dpkg/status")).ok()?;
    status
        .split("\n\n")
        .find(|p| p.lines().any(|l| l == format!("Package: {package}")))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("Version: ")).map(str::to_string))
}

/// A gtest summary number: `N` of the first line `<prefix>N test...` in `out` (0 when there is none;
/// lines such as `[  FAILED  ] Suite.Name, where ...` are not summaries).
fn gtest_count(out: &str, prefix: &str) -> u64 {
    out.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .find_map(|r| {
            let mut w = r.split_whitespace();
            let n = w.next()?.parse().ok()?;
            w.next()?.starts_with("test").then_some(n)
        })
        .unwrap_or(0)
}

/// Runs `s` on hsa-sim with agent `gpu` and checks it as the module says.
fn run_sample(test: &str, s: &Sample, gpu: &str) {
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(root) = sid_root(test) else { return };
    let program = root.join(s.program.trim_start_matches('/'));
    if !program.is_file() {
        rocprof_test_inputs::skip_or_fail(
            test,
            format_args!(
                "{} is not installed in the chroot (package {}; `cargo xtask sid` installs it)",
                s.program, s.package
            ),
        );
        return;
    }
    let version = installed_version(&root, s.package).unwrap_or_else(|| "?".into());
    eprintln!("{test}: {} {version}: {} --gtest_filter={} on {gpu}", s.package, s.program, s.filter);
    let dir = scratch("amd-suite");
    let _cleanup = ScratchGuard(dir.clone());
    let stats = dir.join("stats.txt");
    let mut cmd = sid_command(&stage, &root, Path::new(s.program));
    cmd.arg(format!("--gtest_filter={}", s.filter))
        .env("ROCPROF_RS_SIM_AGENTS", gpu)
        .env("ROCPROF_RS_SIM_STATS", &stats)
        .env("GTEST_COLOR", "no");
    let r = run_command(cmd);
    let what = format!("{gpu}: {} {version} --gtest_filter={}", s.program, s.filter);
    let selected = gtest_count(&r.stdout, "[==========] Running ");
    let ran = gtest_count(&r.stdout, "[==========] ");
    let passed = gtest_count(&r.stdout, "[  PASSED  ] ");
    let failed = gtest_count(&r.stdout, "[  FAILED  ] ");
    let skipped = gtest_count(&r.stdout, "[  SKIPPED ] ");
    let first_failure = r.stdout.lines().find(|l| l.contains("Failure") || l.contains("Which is")).unwrap_or("");
    assert!(
        selected >= s.at_least,
        "{what}: the filter selected {selected} tests, expected at least {}:\n{}",
        s.at_least,
        r.transcript()
    );
    assert_eq!(
        (passed, failed, skipped),
        (selected, 0, 0),
        "{what}: (passed, failed, skipped) of {selected} selected; first failure: {first_failure}\n{}",
        r.transcript()
    );
    assert_eq!(ran, selected, "{what}: tests ran");
    assert!(r.status.success(), "{what}: exit status\n{}", r.transcript());
    assert!(!r.stderr.contains("falls back to the timing-only model"), "{what}:\n{}", r.stderr);
    let st = sim_stats(&stats);
    assert!(st["dispatches_executed"] > 0, "{what}: no dispatch executed: {st:?}");
    assert_eq!(st["dispatches_fallback"], 0, "{what}: dispatches fell back to timing only: {st:?}");
}

#[test]
fn rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx1100() {
    let test = "rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx1100";
    for s in &ROCRAND_KERNELS {
        run_sample(test, s, "gfx1100");
    }
}

#[test]
fn rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx90a() {
    let test = "rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx90a";
    for s in &ROCRAND_KERNELS {
        run_sample(test, s, "gfx90a");
    }
}

#[test]
fn hiprand_device_api_passes_amds_suite_on_gfx1100_and_gfx90a() {
    let test = "hiprand_device_api_passes_amds_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &HIPRAND_KERNEL, gpu);
    }
}

#[test]
fn rocsparse_level1_passes_amds_quick_suite_on_gfx1100() {
    run_sample("rocsparse_level1_passes_amds_quick_suite_on_gfx1100", &ROCSPARSE_LEVEL1, "gfx1100");
}

#[test]
fn rocsparse_level1_passes_amds_quick_suite_on_gfx90a() {
    run_sample("rocsparse_level1_passes_amds_quick_suite_on_gfx90a", &ROCSPARSE_LEVEL1, "gfx90a");
}

#[test]
fn the_gtest_summary_is_read_from_googletests_own_lines() {
    let out = "[==========] Running 12 tests from 3 test suites.\n[ RUN      ] a.b\n\
               [==========] 12 tests from 3 test suites ran. (5 ms total)\n[  PASSED  ] 10 tests.\n\
               [  SKIPPED ] 1 test, listed below:\n[  FAILED  ] 1 test, listed below:\n";
    assert_eq!(gtest_count(out, "[==========] Running "), 12);
    assert_eq!(gtest_count(out, "[==========] "), 12);
    assert_eq!(gtest_count("[  FAILED  ] a.b, where x\n[  FAILED  ] 2 tests, listed below:\n", "[  FAILED  ] "), 2);
    assert_eq!(gtest_count(out, "[  PASSED  ] "), 10);
    assert_eq!(gtest_count(out, "[  SKIPPED ] "), 1);
    assert_eq!(gtest_count(out, "[  FAILED  ] "), 1);
    assert_eq!(gtest_count("[  PASSED  ] 3 tests.\n", "[  FAILED  ] "), 0);
}
