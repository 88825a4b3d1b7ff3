//! The application's packets, signals and results are untouched: the simulator's dispatch log of
//! a profiled run is compared with that of the same run without the tool.
//!
//! What the profiler is allowed to change, and nothing else: each kernel packet's completion
//! signal (bytes 56..64) becomes the profiler's, and when the application had set one, a
//! barrier-AND packet with the barrier bit, waiting for the profiler's signal, and completing the
//! application's signal follows immediately. The
//! kernel packets' other 56 bytes (header, sizes, kernel object, kernarg address) are identical,
//! in the same order (kernel object and kernarg addresses relative to the first dispatch's, since
//! host allocations move between runs), and the application's own results (printed) are the same.

use rocprof_e2e::{read_dispatch_log, run, scratch, stage, LoggedPacket};
use rocprof_launch::names;

use crate::common::kernel_trace;

const KERNEL: u8 = 2;
const BARRIER_AND: u8 = 3;

#[test]
fn application_packets_are_unchanged_except_for_the_completion_signal() {
    packets_unchanged("application_packets_are_unchanged_except_for_the_completion_signal", false);
}

#[test]
fn gated_completions_change_only_the_barrier_dependency() {
    packets_unchanged("gated_completions_change_only_the_barrier_dependency", true);
}

fn packets_unchanged(test: &str, gated: bool) {
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else {
        return;
    };
    let dir = scratch("packets");
    let _cleanup = rocprof_e2e::ScratchGuard(dir.clone());
    let plain_log = dir.join("plain.log");
    let traced_log = dir.join("traced.log");

    let mut env = stage.sim_env("gfx942");
    env.push((names::SIM_DISPATCH_LOG.into(), plain_log.display().to_string()));
    let plain = run(&app, &["40"], &env);
    assert!(plain.status.success(), "{}", plain.transcript());

    let env = vec![
        (names::SIM_DISPATCH_LOG.to_string(), traced_log.display().to_string()),
        (names::GATE_COMPLETIONS.to_string(), if gated { "1" } else { "0" }.to_string()),
    ];
    let traced = kernel_trace(&stage, "gfx942", &app, &["40"], &env);
    assert!(traced.run.status.success(), "{}", traced.run.transcript());

    let result_line = |s: &str| s.lines().find(|l| l.contains("c = a + b")).map(str::to_owned);
    assert_eq!(result_line(&plain.stdout), result_line(&traced.run.stdout), "the application's results differ");

    let plain = read_dispatch_log(&plain_log);
    let traced = read_dispatch_log(&traced_log);
    let plain_kernels: Vec<&LoggedPacket> = plain.iter().filter(|p| p.packet_type() == KERNEL).collect();
    assert_eq!(plain_kernels.len(), 40, "the plain run logged {} kernel packets", plain_kernels.len());
    assert!(plain.iter().all(|p| p.packet_type() == KERNEL), "vector_add only submits kernel packets");

    let mut i = 0;
    let mut matched = 0;
    while i < traced.len() {
        let p = &traced[i];
        assert_eq!(p.packet_type(), KERNEL, "packet {i} of the traced run is not a kernel: {:02x?}", p.bytes);
        let app_packet = plain_kernels[matched];
        // The kernel object (bytes 32..40) and kernarg buffer (40..48) are host addresses that
        // move from run to run (ASLR), so they are compared as offsets from the first dispatch's.
        assert_eq!(&p.bytes[..32], &app_packet.bytes[..32], "kernel packet {matched} changed in bytes 0..32");
        assert_eq!(&p.bytes[48..56], &app_packet.bytes[48..56], "kernel packet {matched} changed in bytes 48..56");
        let first_traced = traced.iter().find(|x| x.packet_type() == KERNEL).expect("a kernel");
        for (off, what) in [(32, "kernel object"), (40, "kernarg address")] {
            assert_eq!(
                p.u64_at(off).wrapping_sub(first_traced.u64_at(off)),
                app_packet.u64_at(off).wrapping_sub(plain_kernels[0].u64_at(off)),
                "kernel packet {matched}: {what} moved relative to the first dispatch"
            );
        }
        let app_signal = app_packet.u64_at(56);
        assert_ne!(p.u64_at(56), 0, "the profiler's completion signal is missing");
        if app_signal != 0 {
            assert_ne!(p.u64_at(56), app_signal);
            let b = traced.get(i + 1).unwrap_or_else(|| panic!("no barrier after kernel packet {matched}"));
            assert_eq!(b.packet_type(), BARRIER_AND, "packet after kernel {matched}");
            assert_eq!(b.queue, p.queue);
            assert_eq!(b.bytes[1] & 1, 1, "the barrier bit is set");
            // rocprofiler-sdk's expansion has no dependency; with ROCPROF_RS_GATE_COMPLETIONS=1
            // the barrier waits for the profiling signal.
            let dep = if gated { p.u64_at(56) } else { 0 };
            assert_eq!(b.u64_at(8), dep, "the barrier's dependency (gated: {gated})");
            assert!(b.bytes[16..56].iter().all(|&x| x == 0), "no other dependency signals");
            assert_ne!(b.u64_at(56), 0, "the barrier carries the application's signal");
            i += 2;
        } else {
            i += 1;
        }
        matched += 1;
    }
    assert_eq!(matched, 40, "the traced run logged {matched} application kernels");
}
