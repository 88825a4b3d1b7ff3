//! AMD's example programs (github.com/ROCm/rocm-examples) as clients: the cheap, deterministic ones,
//! built with sid's hipcc 7 for gfx942 and gfx1100, run inside the sid chroot on hsa-sim, plainly and
//! under `rocprof-rs --sys-trace -f csv rocpd`.
//!
//! Their code may not be committed here, so the programs come from a directory named by
//! `ROCPROF_RS_ROCM_EXAMPLES` (CI has none: the test says SKIP without it). Build them inside the
//! chroot from a checkout (`Common/` holds `example_utils.hpp`), one program per example, named after
//! its directory (library examples as `<library>_<example>`, e.g. `rocPRIM_device_sum`):
//! `hipcc -std=c++17 -O2 --offload-arch=gfx942 --offload-arch=gfx1100 -I Common HIP-Basic/<name>/main.hip -o DIR/<name>`
//! (`-lrocblas` for rocBLAS's).
//!
//! The oracles are the examples' own host checks (the line each prints after comparing with its host
//! computation) and hsa-sim's execution statistics of the plain run (`ROCPROF_RS_SIM_STATS`), which
//! count every dispatch the program made without any profiler. Under rocprof-rs the kernel trace (csv
//! and rocpd) has one row per dispatch of the plain run, and the rows of the program's own kernels (all
//! but HIP's `__amd_rocclr_*` copy and fill kernels) are as many as the HIP launch calls its HIP API
//! trace lists. No dispatch falls back to the timing-only model.

use rocprof_launch::names;
use std::path::{Path, PathBuf};

use rocprof_e2e::{db_kernels, find_one, read_csv, run_command, scratch, ScratchGuard, Stage};
use rocprof_test_inputs::sid;

use crate::common::sid_root;
use crate::sid::sim_stats;

/// One example and what it prints when its results are right.
struct Example {
    /// The program (its directory's name).
    name: &'static str,
    /// The targets it runs on here.
    targets: &'static [&'static str],
    /// Lines its output must hold, by target (`None`: the same on every target).
    says: fn(&str) -> Vec<String>,
}

const BOTH: &[&str] = &["gfx942", "gfx1100"];

fn validated(_: &str) -> Vec<String> {
    vec!["Validation passed.".into()]
}

/// `hello_world` launches 2 blocks of 2 threads; each device thread prints its block and thread.
fn hello(_: &str) -> Vec<String> {
    (0..2).flat_map(|b| (0..2).map(move |t| format!("Hello world from device kernel block {b} thread {t}!"))).collect()
}

/// gfx942 (CDNA3) has no image hardware, and the example says so and stops, as on an MI300; on
/// gfx1100 its histogram of 1 Mi texels sums to their count.
fn texture(target: &str) -> Vec<String> {
    if target == "gfx942" {
        vec!["Texture functions are not supported on device 0.".into()]
    } else {
        vec!["sum of bins: 1048576".into()]
    }
}

/// rocPRIM's and hipCUB's `device_sum` reduce these ten integers (their source's input) and print the
/// sum; they have no check of their own, so the host sums them here.
fn expected_sum(_: &str) -> Vec<String> {
    let input: [i32; 10] = [0, 1, 2, 3, 4, 5, 6, 6, 7, 8];
    vec![format!("Reduced summation result: {}", input.iter().sum::<i32>())]
}

const EXAMPLES: &[Example] = &[
    Example { name: "hello_world", targets: BOTH, says: hello },
    Example { name: "bit_extract", targets: BOTH, says: validated },
    Example { name: "device_globals", targets: BOTH, says: validated },
    Example { name: "dynamic_shared", targets: BOTH, says: validated },
    Example { name: "events", targets: BOTH, says: validated },
    Example { name: "shared_memory", targets: BOTH, says: validated },
    Example { name: "warp_shuffle", targets: BOTH, says: validated },
    Example { name: "cooperative_groups", targets: BOTH, says: validated },
    Example { name: "gpu_arch", targets: BOTH, says: validated },
    Example { name: "inline_assembly", targets: BOTH, says: validated },
    Example { name: "texture_management", targets: BOTH, says: texture },
    Example { name: "rocPRIM_device_sum", targets: BOTH, says: expected_sum },
    Example { name: "hipCUB_device_sum", targets: BOTH, says: expected_sum },
];

/// Runs `app` in `dir` inside the chroot with agent `gpu`, plainly or under `rocprof-rs <cli> -d out`;
/// checks that it succeeded, printed `says` and had no dispatch fall back. Returns the number of
/// dispatches hsa-sim executed.
fn run(stage: &Stage, root: &Path, dir: &Path, app: &str, gpu: &str, says: &[String], out: Option<&Path>) -> u64 {
    let stats_dir = scratch("examples-stats");
    let _cleanup = ScratchGuard(stats_dir.clone());
    let stats = stats_dir.join("stats.txt");
    let program = dir.join(app);
    let mut cmd = match out {
        None => {
            let mut c = sid::command(root, &[&stage.dir, dir], &program);
            c.env(names::SIM_AGENTS, gpu);
            c
        }
        Some(out) => {
            let mut c = sid::command(root, &[&stage.dir, dir], stage.cli());
            c.args(["--simulate", gpu, "--sys-trace", "-f", "csv", "rocpd", "-d"]).arg(out).arg("--").arg(&program);
            c
        }
    };
    cmd.current_dir(dir).env("LD_LIBRARY_PATH", &stage.dir).env(names::SIM_STATS, &stats);
    let r = run_command(cmd);
    let how = if out.is_some() { "under rocprof-rs" } else { "plainly" };
    assert!(r.status.success(), "{gpu}: {app} {how}:\n{}", r.transcript());
    for line in says {
        assert!(
            r.stdout.lines().any(|l| l.trim() == line),
            "{gpu}: {app} {how}: no line `{line}`:\n{}",
            r.transcript()
        );
    }
    // A program that stops before its first dispatch (texture_management on gfx942) leaves no file.
    let s = if stats.exists() { sim_stats(&stats) } else { Default::default() };
    let fallback = s.get("dispatches_fallback").copied().unwrap_or(0);
    assert_eq!(fallback, 0, "{gpu}: {app} {how}: dispatches fell back to timing only: {s:?}");
    let executed = s.get("dispatches_executed").copied().unwrap_or(0);
    executed
}

/// The directory of built examples, or `None` after saying why the test skips.
fn examples_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os(names::ROCM_EXAMPLES).filter(|v| !v.is_empty()) {
        Some(d) => Some(PathBuf::from(d)),
        None => {
            eprintln!(
                "SKIP {test}: no {} (a directory of rocm-examples programs built with sid's hipcc)",
                names::ROCM_EXAMPLES
            );
            None
        }
    }
}

#[test]
fn rocm_examples_validate_plainly_and_under_sys_trace_with_one_kernel_row_per_dispatch() {
    let test = "rocm_examples_validate_plainly_and_under_sys_trace_with_one_kernel_row_per_dispatch";
    let Some(dir) = examples_dir(test) else { return };
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(root) = sid_root(test) else { return };
    let dir = dir.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for ex in EXAMPLES {
        assert!(dir.join(ex.name).is_file(), "{}: {} is not built there", dir.display(), ex.name);
        for gpu in ex.targets {
            let says = (ex.says)(gpu);
            let dispatches = run(&stage, &root, &dir, ex.name, gpu, &says, None);
            let out = scratch("examples-out");
            let _cleanup = ScratchGuard(out.clone());
            let traced = run(&stage, &root, &dir, ex.name, gpu, &says, Some(&out));
            assert_eq!(traced, dispatches, "{gpu}: {}: dispatches executed under rocprof-rs", ex.name);
            if dispatches == 0 {
                continue;
            }
            let rows = read_csv(&find_one(&out, "kernel_trace.csv")).rows;
            assert_eq!(rows.len() as u64, dispatches, "{gpu}: {}: kernel_trace.csv rows", ex.name);
            let db = db_kernels(&find_one(&out, "results.db"));
            assert_eq!(db.len() as u64, dispatches, "{gpu}: {}: rocpd kernels", ex.name);
            let own = rows.iter().filter(|r| !r["Kernel_Name"].starts_with("__amd_rocclr_")).count();
            let hip = read_csv(&find_one(&out, "hip_api_trace.csv")).rows;
            let launches =
                hip.iter().filter(|r| r["Function"].contains("Launch") && !r["Function"].contains("HostFunc")).count();
            assert!(own > 0, "{gpu}: {}: no row of the program's own kernels", ex.name);
            assert_eq!(own, launches, "{gpu}: {}: kernel rows besides HIP's copy kernels vs HIP launch calls", ex.name);
        }
    }
}
