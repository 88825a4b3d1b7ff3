//! Device features real HIP programs use, on hsa-sim:
//! * `printf` in kernels (HIP's hostcall buffer, serviced by HIP's own listener thread once hsa-sim
//!   reports a system link with PCIe atomics and lets kernels update signals). The fixtures
//!   (`fixtures/hip/printf_check.h`) compare the device's lines with the same lines formatted by the
//!   host's C library; here the printed text must also reach the program's stdout.
//! * `hipLaunchCooperativeKernel` and grid-wide barriers (`fixtures/hip/cooperative_check.h`): HIP sees
//!   cooperative queues, and hsa-sim runs a cooperative queue's grid with every workgroup resident; where
//!   the device library syncs with global wave sync (`ds_gws_barrier`: HIP 6.4 on gfx90a, HIP 5.2) the
//!   GWS resources ROCclr initialises outlive the init dispatch.
//!
//! Every dispatch must have executed (no timing-only fallback).

use rocprof_e2e::{run, scratch, stage, ScratchGuard};
use rocprof_launch::names;

use crate::common::hip6_fixture;
use crate::sid::run_checked;

/// Lines of `stdout` the kernels printed (the fixtures' formats all start with one of these words).
fn device_lines(stdout: &str) -> usize {
    stdout
        .lines()
        .filter(|l| ["printf: ", "vals: ", "long: ", "one line per wave"].iter().any(|p| l.starts_with(p)))
        .count()
}

/// Expected device lines of `runs` launches of 3 blocks of 80 work-items: three per work-item and one
/// per wave (`wave` lanes).
fn expected_lines(runs: usize, wave: usize) -> usize {
    runs * 3 * (3 * 80 + 80usize.div_ceil(wave))
}

#[test]
fn hip6_device_printf_reaches_stdout_as_the_host_formats_it_on_every_target() {
    let test = "hip6_device_printf_reaches_stdout_as_the_host_formats_it_on_every_target";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_printf", test) else { return };
    for gpu in rocprof_test_inputs::sid::HIP6_TARGETS {
        let r = run_checked(&stage, &root, &app, gpu, &["2"], None);
        let wave = if gpu.starts_with("gfx9") { 64 } else { 32 };
        assert_eq!(device_lines(&r.stdout), expected_lines(2, wave), "{gpu}:\n{}", r.transcript());
        assert!(r.stdout.contains("vals: -100  0.00 0.000000e+00 0 0 0 0 A 0 4000000000 %"), "{gpu}:\n{}", r.stdout);
    }
}

#[test]
fn hip6_device_printf_works_under_the_profiler_with_one_kernel_row_per_launch() {
    let test = "hip6_device_printf_works_under_the_profiler_with_one_kernel_row_per_launch";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_printf", test) else { return };
    let out = scratch("devfeat-printf");
    let _cleanup = ScratchGuard(out.clone());
    let r = run_checked(&stage, &root, &app, "gfx942", &["1"], Some((&["--kernel-trace", "-f", "csv"], &out)));
    assert_eq!(device_lines(&r.stdout), expected_lines(1, 64), "{}", r.transcript());
    let csv = rocprof_e2e::read_csv(&rocprof_e2e::find_one(&out, "kernel_trace.csv"));
    let rows = csv.rows.iter().filter(|row| row["Kernel_Name"].starts_with("say(")).count();
    assert_eq!(rows, 1, "kernel rows of say");
}

#[test]
fn hip_device_printf_reaches_stdout_as_the_host_formats_it_on_gfx90a_and_gfx1030() {
    let test = "hip_device_printf_reaches_stdout_as_the_host_formats_it_on_gfx90a_and_gfx1030";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_printf", test) else { return };
    for (gpu, wave) in [("gfx90a", 64), ("gfx1030", 32)] {
        let r = run(&app, &["2"], &stage.sim_env(gpu));
        assert!(r.status.success(), "{gpu}: hip_printf failed:\n{}", r.transcript());
        assert!(r.stdout.contains("hip_printf: ok"), "{gpu}:\n{}", r.transcript());
        assert!(!r.stderr.contains("falls back"), "{gpu}: a dispatch fell back:\n{}", r.transcript());
        assert_eq!(device_lines(&r.stdout), expected_lines(2, wave), "{gpu}:\n{}", r.transcript());
    }
}

/// The fixture's check is real: without execution no line is printed and it fails.
#[test]
fn hip_device_printf_check_fails_when_execution_is_off() {
    let test = "hip_device_printf_check_fails_when_execution_is_off";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_printf", test) else { return };
    let mut env = stage.sim_env("gfx90a");
    env.push((names::SIM_EXEC.into(), "off".into()));
    let r = run(&app, &["1"], &env);
    assert_eq!(r.status.code(), Some(1), "{}", r.transcript());
    assert_eq!(device_lines(&r.stdout), 0, "{}", r.transcript());
}

// gfx90a's `__ockl_grid_sync` waits in `ds_gws_barrier` (after HIP's `__amd_rocclr_gwsInit` ran
// `ds_gws_init` in a dispatch of its own); on gfx942, gfx1100 and gfx1201 the grid barrier is built from
// global atomics.
#[test]
fn hip6_cooperative_grid_barriers_exchange_values_between_blocks_on_every_target() {
    let test = "hip6_cooperative_grid_barriers_exchange_values_between_blocks_on_every_target";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_cooperative", test) else { return };
    for gpu in rocprof_test_inputs::sid::HIP6_TARGETS {
        run_checked(&stage, &root, &app, gpu, &["2"], None);
    }
}

// HIP 5.2's device library waits in `ds_gws_barrier` on both of its targets.
#[test]
fn hip_cooperative_grid_barriers_exchange_values_between_blocks_on_gfx90a_and_gfx1030() {
    let test = "hip_cooperative_grid_barriers_exchange_values_between_blocks_on_gfx90a_and_gfx1030";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_cooperative", test) else { return };
    for gpu in ["gfx90a", "gfx1030"] {
        let r = run(&app, &["2"], &stage.sim_env(gpu));
        assert!(r.status.success(), "{gpu}: hip_cooperative failed:\n{}", r.transcript());
        assert!(r.stdout.contains("hip_cooperative: ok"), "{gpu}:\n{}", r.transcript());
        assert!(!r.stderr.contains("falls back"), "{gpu}: a dispatch fell back:\n{}", r.transcript());
    }
}

#[test]
fn hip6_cooperative_launches_are_traced_with_one_kernel_row_each_and_gws_init_on_gfx90a() {
    let test = "hip6_cooperative_launches_are_traced_with_one_kernel_row_each_and_gws_init_on_gfx90a";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_cooperative", test) else { return };
    for gpu in ["gfx90a", "gfx1100"] {
        let out = scratch("devfeat-coop");
        let _cleanup = ScratchGuard(out.clone());
        run_checked(&stage, &root, &app, gpu, &["2"], Some((&["--kernel-trace", "-f", "csv"], &out)));
        let csv = rocprof_e2e::read_csv(&rocprof_e2e::find_one(&out, "kernel_trace.csv"));
        let rows = |name: &str| csv.rows.iter().filter(|row| row["Kernel_Name"].starts_with(name)).count();
        assert_eq!(rows("exchange("), 2, "{gpu}: kernel rows of exchange");
        // ROCclr initialises the GWS barrier before each launch where the device library's grid sync uses it.
        let gws_init = if gpu == "gfx90a" { 2 } else { 0 };
        assert_eq!(rows("__amd_rocclr_gwsInit"), gws_init, "{gpu}: kernel rows of __amd_rocclr_gwsInit");
    }
}
