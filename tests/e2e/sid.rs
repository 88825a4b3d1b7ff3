//! HIP 6.4 (Debian sid) as a client: the `fixtures/hip6/` programs, built with sid's hipcc 7 for
//! gfx90a, gfx942, gfx1100 and gfx1201, run inside the sid chroot (`cargo xtask sid`) on hsa-sim,
//! plainly and under `rocprof-rs`, and compute what the host computes (each checks itself) with
//! every dispatch executed by the interpreter (none fell back to the timing-only model: hsa-sim's
//! `ROCPROF_RS_SIM_STATS` counts them). rocminfo 7.2 from sid lists hsa-sim's agents. Each test
//! skips where the chroot is missing (fails under `CI=true`).

use rocprof_launch::names;
use std::collections::HashMap;
use std::path::Path;

use rocprof_e2e::{find_one, read_csv, run_command, scratch, Run, ScratchGuard, Stage};

use crate::common::{hip6_fixture, sid_command, sid_root};
use crate::hip::counts;

/// The GPU targets the HIP 6.4 fixtures are built for (one fat binary each; rocminfo lists them).
const GPUS: &[&str] = rocprof_test_inputs::sid::HIP6_TARGETS;

/// hsa-sim's execution statistics (`ROCPROF_RS_SIM_STATS`) of one run: `key value` lines.
pub(crate) fn sim_stats(path: &Path) -> HashMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.trim().parse().unwrap_or_else(|_| panic!("{k} {v}"))))
        .collect()
}

/// Runs `app args` inside the chroot on hsa-sim with agent `gpu`, plainly or under
/// `rocprof-rs --simulate gpu <cli>` (outputs in `out`); checks it succeeded, said `<name>: ok`,
/// and that every dispatch was executed (no timing-only fallback). Returns the run.
pub(crate) fn run_checked(
    stage: &Stage,
    root: &Path,
    app: &Path,
    gpu: &str,
    args: &[&str],
    profiled: Option<(&[&str], &Path)>,
) -> Run {
    let dir = scratch("sid-stats");
    let _cleanup = ScratchGuard(dir.clone());
    let stats = dir.join("stats.txt");
    let mut cmd = match profiled {
        None => {
            let mut c = sid_command(stage, root, app);
            c.env(names::SIM_AGENTS, gpu);
            c
        }
        Some((cli, out)) => {
            let mut c = sid_command(stage, root, &stage.cli());
            c.args(["--simulate", gpu]).args(cli).arg("-d").arg(out).arg("--").arg(app);
            c
        }
    };
    cmd.args(args).env(names::SIM_STATS, &stats);
    let r = run_command(cmd);
    let name = app.file_name().unwrap().to_string_lossy();
    let how = if profiled.is_some() { "under rocprof-rs" } else { "plainly" };
    assert!(r.status.success(), "{gpu}: {name} {how}:\n{}", r.transcript());
    assert!(r.stdout.contains(&format!("{name}: ok")), "{gpu}: {name} {how}:\n{}", r.transcript());
    for bad in ["panicked", "Thread Local Storage", "queue stopped", "aborting with error"] {
        assert!(!r.stderr.contains(bad), "{gpu}: {name} {how}: `{bad}` on stderr:\n{}", r.transcript());
    }
    let s = sim_stats(&stats);
    assert!(s["dispatches_executed"] > 0, "{gpu}: {name} {how}: no dispatch executed: {s:?}");
    assert_eq!(s["dispatches_fallback"], 0, "{gpu}: {name} {how}: dispatches fell back to timing only: {s:?}");
    r
}

/// Runs a fixture on `gpus`, plainly and under `--kernel-trace`; under the profiler the kernel trace
/// has one row per launch the program counted (`kernels: name=N`).
fn on_targets(test: &str, name: &str, args: &[&str], gpus: &[&str]) {
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, name, test) else { return };
    for gpu in gpus {
        run_checked(&stage, &root, &app, gpu, args, None);
        let out = scratch("sid-out");
        let _cleanup = ScratchGuard(out.clone());
        let r = run_checked(&stage, &root, &app, gpu, args, Some((&["--kernel-trace", "-f", "csv"], &out)));
        let csv = read_csv(&find_one(&out, "kernel_trace.csv"));
        for (kernel, n) in counts(&r.stdout, "kernels:") {
            let rows = csv.rows.iter().filter(|row| row["Kernel_Name"].starts_with(&format!("{kernel}("))).count();
            assert_eq!(rows as u64, n, "{gpu}: {name}: kernel rows of {kernel} (the program launched {n})");
        }
    }
}

/// The fixtures and their arguments; one test per fixture and target family below, so that a
/// failure names both (gfx11/gfx12 results depend on the interpreter's RDNA coverage).
const STREAMS: (&str, &[&str]) = ("hip6_streams", &["2", "5000"]);
const MEMORY: (&str, &[&str]) = ("hip6_memory", &["2"]);
const COMPUTE: (&str, &[&str]) = ("hip6_compute", &["1", "20000"]);
const GFX9: &[&str] = &["gfx90a", "gfx942"];

// Streams and events: `hipEventRecord` on a created stream is a barrier-value packet with signal
// handle 0 (hsa-sim stopped the queue on gfx90a/gfx942 before it treated 0 as satisfied).
#[test]
fn hip6_streams_and_events_compute_the_host_results_on_gfx90a_and_gfx942() {
    on_targets("hip6_streams_and_events_compute_the_host_results_on_gfx90a_and_gfx942", STREAMS.0, STREAMS.1, GFX9);
}

#[test]
fn hip6_streams_and_events_compute_the_host_results_on_gfx1100() {
    on_targets("hip6_streams_and_events_compute_the_host_results_on_gfx1100", STREAMS.0, STREAMS.1, &["gfx1100"]);
}

#[test]
fn hip6_streams_and_events_compute_the_host_results_on_gfx1201() {
    on_targets("hip6_streams_and_events_compute_the_host_results_on_gfx1201", STREAMS.0, STREAMS.1, &["gfx1201"]);
}

// Pitched, 2-D and 3-D copies and managed memory (hipMallocPitch failed with out-of-memory while
// hsa-sim lacked the image extension's agent attributes).
#[test]
fn hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx90a_and_gfx942() {
    let test = "hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx90a_and_gfx942";
    on_targets(test, MEMORY.0, MEMORY.1, GFX9);
}

#[test]
fn hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx1100() {
    let test = "hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx1100";
    on_targets(test, MEMORY.0, MEMORY.1, &["gfx1100"]);
}

#[test]
fn hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx1201() {
    let test = "hip6_pitched_2d_3d_and_managed_memory_compute_the_host_results_on_gfx1201";
    on_targets(test, MEMORY.0, MEMORY.1, &["gfx1201"]);
}

// Atomics, shuffles (wave64 on gfx9, wave32 on gfx11/gfx12), LDS and doubles.
#[test]
fn hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx90a_and_gfx942() {
    let test = "hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx90a_and_gfx942";
    on_targets(test, COMPUTE.0, COMPUTE.1, GFX9);
}

#[test]
fn hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx1100() {
    let test = "hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx1100";
    on_targets(test, COMPUTE.0, COMPUTE.1, &["gfx1100"]);
}

#[test]
fn hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx1201() {
    let test = "hip6_atomics_shuffles_lds_and_doubles_compute_the_host_results_on_gfx1201";
    on_targets(test, COMPUTE.0, COMPUTE.1, &["gfx1201"]);
}

/// `rocprof-rs --simulate gfx942 --sys-trace -f csv rocpd pftrace` on the HIP 6.4 programs: exit 0,
/// no panic (HIP 6.4 destroys its queues from `__cxa_finalize`, after Rust's thread-locals), the
/// three formats written, a kernel row per counted launch in CSV and rocpd alike, and AMD's rocpd
/// reader reads the database.
#[test]
fn hip6_programs_under_sys_trace_on_gfx942_write_csv_rocpd_and_pftrace() {
    let test = "hip6_programs_under_sys_trace_on_gfx942_write_csv_rocpd_and_pftrace";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    for (name, args) in
        [("hip6_streams", &["1", "3000"][..]), ("hip6_memory", &["1"]), ("hip6_compute", &["1", "5000"])]
    {
        let Some((root, app)) = hip6_fixture(&stage, name, test) else { return };
        let out = scratch("sid-sys");
        let _cleanup = ScratchGuard(out.clone());
        let cli: &[&str] = &["--sys-trace", "-f", "csv", "rocpd", "pftrace"];
        let r = run_checked(&stage, &root, &app, "gfx942", args, Some((cli, &out)));
        let csv = read_csv(&find_one(&out, "kernel_trace.csv"));
        let db = rocprof_e2e::db_kernels(&find_one(&out, ".db"));
        assert_eq!(csv.rows.len(), db.len(), "{name}: CSV and rocpd kernel rows");
        assert!(std::fs::metadata(find_one(&out, ".pftrace")).unwrap().len() > 0, "{name}: empty pftrace");
        for (kernel, n) in counts(&r.stdout, "kernels:") {
            let rows = db.iter().filter(|k| k.name.starts_with(&format!("{kernel}("))).count();
            assert_eq!(rows as u64, n, "{name}: rocpd kernel rows of {kernel}");
        }
        // AMD's rocpd reader (where a ROCm/rocm-systems mirror is given) reads the database: its
        // metadata, kernels, top and summary queries (HIP regions are the HIP tracing's part).
        let Some((verdicts, report)) = crate::rocpd_amd::rocpd_check(test, &find_one(&out, ".db")) else { continue };
        for check in ["query rocpd_metadata", "query kernels view", "query top / busy", "summary (console)"] {
            assert_eq!(verdicts.get(check).map(String::as_str), Some("ok"), "{name}: {check}:\n{report}");
        }
    }
}

/// `rocprof-rs --simulate gfx90a -L` without an application inside the chroot, where the probe is
/// sid's rocminfo 7.2: its driver pre-flight reads `/sys/module/amdgpu/initstate` (not `lsmod`, as
/// Debian 12's rocminfo 5.2 does), so the probe must pass it. The listing then heads the GPU's
/// counters as rocprofv3-avail `info --pmc` does ("GPU:0", "Name:gfx90a"), which AMD's
/// list_metrics std-out test matches.
#[test]
fn list_avail_alone_probes_with_sid_rocminfo_7() {
    let test = "list_avail_alone_probes_with_sid_rocminfo_7";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(root) = sid_root(test) else { return };
    let out = scratch("sid-list");
    let _cleanup = ScratchGuard(out.clone());
    let mut cmd = sid_command(&stage, &root, &stage.cli());
    cmd.args(["--simulate", "gfx90a", "-L", "-d"]).arg(&out);
    let r = run_command(cmd);
    assert!(r.status.success(), "-L in the chroot:\n{}", r.transcript());
    let lines: Vec<&str> = r.stdout.lines().collect();
    let gpu = lines.iter().position(|l| *l == "GPU:0").unwrap_or_else(|| panic!("no GPU:0 line:\n{}", r.stdout));
    assert_eq!(lines[gpu + 1], "Name:gfx90a", "{}", r.stdout);
}

/// sid's `rocminfo` 7.2 on hsa-sim inside the chroot lists the CPU and every simulated GPU with the
/// marketing name and compute units of `../shared/reference/sim-agents.md`. `HSA_ENABLE_DTIF=1` is
/// rocminfo's own switch that skips its driver pre-flight (`/sys/module/amdgpu`, `/dev/kfd`).
#[test]
fn sid_rocminfo_7_lists_every_simulated_agent() {
    let test = "sid_rocminfo_7_lists_every_simulated_agent";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(root) = sid_root(test) else { return };
    let Some(agents_md) = rocprof_test_inputs::shared(test, "reference/sim-agents.md") else { return };
    let table = std::fs::read_to_string(agents_md).unwrap();
    let mut cmd = sid_command(&stage, &root, Path::new("/usr/bin/rocminfo"));
    cmd.env(names::SIM_AGENTS, GPUS.join(",")).env("HSA_ENABLE_DTIF", "1");
    let r = run_command(cmd);
    assert!(r.status.success(), "rocminfo 7.2:\n{}", r.transcript());
    // Each agent section starts at `Agent N`; keep its `Name`, `Marketing Name` and `Compute Unit`.
    let sections: Vec<&str> = r.stdout.split("\nAgent ").skip(1).collect();
    let field = |s: &str, key: &str| -> String {
        s.lines()
            .find_map(|l| l.trim_start().strip_prefix(&format!("{key}:")))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    assert_eq!(sections.len(), 1 + GPUS.len(), "one CPU and {} GPUs:\n{}", GPUS.len(), r.stdout);
    for gpu in GPUS {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {gpu} |")))
            .unwrap_or_else(|| panic!("{gpu} not in sim-agents.md"));
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let marketing = cells[1].split(" (").next().unwrap();
        let cus: String = cells[3].chars().take_while(char::is_ascii_digit).collect();
        let s = sections
            .iter()
            .find(|s| field(s, "Name") == *gpu)
            .unwrap_or_else(|| panic!("rocminfo printed no agent {gpu}:\n{}", r.stdout));
        assert_eq!(field(s, "Marketing Name"), marketing, "{gpu}");
        assert_eq!(field(s, "Compute Unit"), cus, "{gpu}");
    }
}

/// HIP 6.4 has no gfx950 in its device table: on `--simulate gfx950`-like agents it reports no
/// device (HIP's own error), and hsa-sim says once that this is HIP's limit, not the simulator's.
#[test]
fn hip6_on_gfx950_fails_in_hip_and_hsa_sim_says_it_is_hips_limit() {
    let test = "hip6_on_gfx950_fails_in_hip_and_hsa_sim_says_it_is_hips_limit";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, STREAMS.0, test) else { return };
    let mut cmd = sid_command(&stage, &root, &app);
    cmd.args(["1", "100"]).env(names::SIM_AGENTS, "gfx950");
    let r = run_command(cmd);
    assert!(!r.status.success(), "HIP 6.4 ran on gfx950:\n{}", r.transcript());
    assert!(r.stderr.contains("no ROCm-capable device"), "HIP's own error:\n{}", r.transcript());
    let notes = r.stderr.matches("HIP 6.4's device table has no gfx950").count();
    assert_eq!(notes, 1, "one note from hsa-sim:\n{}", r.transcript());
}
