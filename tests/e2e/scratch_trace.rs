//! Scratch-memory tracing (`--scratch-memory-trace`, part of `--sys-trace`) on the `scratch`
//! fixture: four vector_add dispatches whose packets ask for 0, 100, 50 and 400 bytes of private
//! memory per work-item, then `hsa_queue_destroy`. hsa-sim raises ROCr's scratch tool events where
//! ROCr does (see `crates/sim-hsa/src/scratch.rs`); the rows are compared with what ROCr's
//! arithmetic gives for gfx90a (110 CUs, 8 shader engines, 32 scratch slots per CU: 3584 slots;
//! wave64; per work-item sizes aligned to 1024 / 64 = 16 bytes).

use rocprof_launch::names;
use std::path::Path;

use rocprof_e2e::{find_files, find_one, profile, read_csv, scratch, stage, Csv, ScratchGuard, Stage};

const COLUMNS: [&str; 9] = [
    "Kind",
    "Operation",
    "Agent_Id",
    "Queue_Id",
    "Thread_Id",
    "Alloc_Flags",
    "Start_Timestamp",
    "End_Timestamp",
    "Allocation_Size",
];

/// Device slots of gfx90a: AlignUp(110 CUs, 8 engines) * 32.
const SLOTS: u64 = 112 * 32;

fn run(stage: &Stage, app: &Path, opts: &[&str], env: &[(&str, &str)]) -> (rocprof_e2e::Run, ScratchGuard) {
    let out = scratch("scratch");
    let out_s = out.display().to_string();
    let mut cli = vec!["--simulate", "gfx90a"];
    cli.extend_from_slice(opts);
    cli.extend_from_slice(&["-f", "csv", "rocpd", "-d", &out_s, "-o", "run"]);
    let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let r = profile(stage, &cli, app, &[], &env);
    assert!(r.status.success(), "{opts:?} {env:?}:\n{}", r.transcript());
    assert!(r.stdout.contains("scratch: ok"), "{}", r.transcript());
    (r, ScratchGuard(out))
}

fn field(r: &std::collections::HashMap<String, String>, c: &str) -> u64 {
    r[c].parse().unwrap_or_else(|e| panic!("{c} of {r:?}: {e}"))
}

/// (operation, flags, size) of every row, in start order.
fn ops(csv: &Csv) -> Vec<(String, u64, u64)> {
    let mut rows: Vec<_> = csv.rows.iter().collect();
    rows.sort_by_key(|r| field(r, "Start_Timestamp"));
    rows.iter().map(|r| (r["Operation"].clone(), field(r, "Alloc_Flags"), field(r, "Allocation_Size"))).collect()
}

fn row(op: &str, flags: u64, size: u64) -> (String, u64, u64) {
    (format!("SCRATCH_MEMORY_{op}"), flags, size)
}

/// With kernel tracing: allocation for 100 bytes (112 per work-item over every slot), nothing for
/// 50, then for 400 an allocation around the free of the old scratch, and a free at queue destroy.
/// Rows carry the dispatches' queue and agent; rocpd has the same events at level SCRATCH.
#[test]
fn scratch_events_are_rows_with_rocrs_operations_flags_and_sizes() {
    let test = "scratch_events_are_rows_with_rocrs_operations_flags_and_sizes";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("scratch", test) else { return };
    let (r, out) = run(&stage, &app, &["--scratch-memory-trace", "--kernel-trace"], &[]);
    assert!(!r.stderr.contains("not recorded"), "{}", r.stderr);
    let csv = read_csv(&find_one(&out.0, "scratch_memory_trace.csv"));
    assert_eq!(csv.header, COLUMNS);
    let alloc_100 = 112 * 64 * SLOTS; // 25 690 112, a multiple of 4 KiB
    let alloc_400 = 400 * 64 * SLOTS;
    assert_eq!(
        ops(&csv),
        [row("ALLOC", 0, alloc_100), row("ALLOC", 0, alloc_400), row("FREE", 0, 0), row("FREE", 0, 0)],
        "{csv:?}"
    );
    // The free of the old scratch lies inside the second allocation (ROCr frees it in between).
    let mut by_start: Vec<_> = csv.rows.iter().collect();
    by_start.sort_by_key(|r| field(r, "Start_Timestamp"));
    let (alloc2, free1) = (by_start[1], by_start[2]);
    assert!(field(alloc2, "Start_Timestamp") <= field(free1, "Start_Timestamp"));
    assert!(field(free1, "End_Timestamp") <= field(alloc2, "End_Timestamp"));
    for r in &csv.rows {
        assert_eq!(r["Kind"], "SCRATCH_MEMORY");
        assert!(field(r, "Start_Timestamp") <= field(r, "End_Timestamp"), "{r:?}");
    }
    // Same queue and agent as the dispatches.
    let kernels = read_csv(&find_one(&out.0, "kernel_trace.csv"));
    assert_eq!(kernels.rows.len(), 4);
    for r in &csv.rows {
        assert_eq!(r["Queue_Id"], kernels.rows[0]["Queue_Id"], "{r:?}");
        assert_eq!(r["Agent_Id"], kernels.rows[0]["Agent_Id"], "{r:?}");
    }
    // rocpd: one memory-allocation row per event, at level SCRATCH.
    let db = rusqlite::Connection::open(find_one(&out.0, ".db")).unwrap();
    let mut stmt =
        db.prepare("SELECT type, size FROM memory_allocations WHERE level = 'SCRATCH' ORDER BY start").unwrap();
    let got: Vec<(String, i64)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(
        got,
        [
            ("ALLOC".into(), alloc_100 as i64),
            ("ALLOC".into(), alloc_400 as i64),
            ("FREE".into(), 0),
            ("FREE".into(), 0)
        ]
    );
}

/// `HSA_SCRATCH_SINGLE_LIMIT` below every allocation makes each one "use once" (flag 1): only the
/// dispatch's slots (one workgroup of 4 waves on 8 engines: 32 slots), handed back when the
/// dispatch ends, so three allocation/free pairs and nothing at queue destroy. Without kernel
/// tracing the queue is still named (recorded from the event).
#[test]
fn use_once_scratch_is_allocated_per_dispatch_and_freed_after_it() {
    let test = "use_once_scratch_is_allocated_per_dispatch_and_freed_after_it";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("scratch", test) else { return };
    let (_r, out) = run(&stage, &app, &["--scratch-memory-trace"], &[("HSA_SCRATCH_SINGLE_LIMIT", "1")]);
    assert!(find_files(&out.0, "kernel_trace.csv").is_empty());
    let csv = read_csv(&find_one(&out.0, "scratch_memory_trace.csv"));
    let slots = 32;
    assert_eq!(
        ops(&csv),
        [
            row("ALLOC", 1, 112 * 64 * slots),
            row("FREE", 1, 0),
            row("ALLOC", 1, 64 * 64 * slots),
            row("FREE", 1, 0),
            row("ALLOC", 1, 400 * 64 * slots),
            row("FREE", 1, 0),
        ],
        "{csv:?}"
    );
    for r in &csv.rows {
        assert_ne!(r["Queue_Id"], "0", "{r:?}");
        assert_eq!(r["Queue_Id"], csv.rows[0]["Queue_Id"]);
        assert!(r["Agent_Id"].starts_with("Agent "), "{r:?}");
    }
}

/// `--sys-trace` includes scratch; under ROCm 5.2's table layout (no tools table, so the runtime
/// raises no scratch events) there are no rows and the run says why instead of staying silent.
#[test]
fn sys_trace_records_scratch_and_rocm_5_2_says_it_cannot() {
    let test = "sys_trace_records_scratch_and_rocm_5_2_says_it_cannot";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("scratch", test) else { return };
    let (r, out) = run(&stage, &app, &["--sys-trace"], &[]);
    assert!(!r.stderr.contains("no tools table"), "{}", r.stderr);
    assert_eq!(read_csv(&find_one(&out.0, "scratch_memory_trace.csv")).rows.len(), 4);
    let (r, out) = run(&stage, &app, &["--sys-trace"], &[(names::SIM_ABI, "5.2")]);
    assert!(find_files(&out.0, "scratch_memory_trace.csv").is_empty());
    assert!(
        r.stderr.contains("--scratch-memory-trace: this runtime's API table has no tools table (ROCm 5.2 layout)"),
        "{}",
        r.stderr
    );
    assert!(!find_files(&out.0, "kernel_trace.csv").is_empty(), "the rest of the trace is there");
}
