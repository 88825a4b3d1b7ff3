//! Issue 14: the soak test at CI size (`cargo xtask bench` runs it at full size: 8 threads x 8
//! queues, 1 M dispatches, 10 K code-object cycles). Every dispatch of 8 threads x 8 queues, each
//! with its own completion signal and waited with each of the seven wait functions in turn, and
//! of a thread loading and unloading code objects, is in the database once, named, with zero loss
//! of any kind; and the application's memory does not grow with the number of dispatches (a run
//! thirty times longer adds at most 16 B per dispatch to the heap in use or to the anonymous memory
//! mapped outside malloc; RSS under 64 MiB).

use rocprof_launch::names;
use std::collections::HashMap;

use rocprof_e2e::{db_health, db_kernels, find_one, profile, scratch, Run, ScratchGuard};

use crate::common::kernel_trace;

/// `key=value` pairs of the fixture's `soak: ...` lines.
fn soak_figures(r: &Run) -> HashMap<String, i64> {
    r.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("soak: "))
        .flat_map(|l| l.split_whitespace())
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.parse().unwrap_or_else(|_| panic!("{k}={v}"))))
        .collect()
}

/// Runs `soak 8 8 <per_thread> <cycles> 8` under the profiler; checks completeness and zero loss;
/// returns the fixture's figures.
fn soak_run(test: &str, per_thread: u64, cycles: u64) -> Option<HashMap<String, i64>> {
    let stage = rocprof_e2e::stage(test)?;
    let app = stage.fixture("soak", test)?;
    let p = kernel_trace(&stage, "gfx942", &app, &["8", "8", &per_thread.to_string(), &cycles.to_string(), "8"], &[]);
    assert!(p.run.status.success(), "{}", p.run.transcript());
    let f = soak_figures(&p.run);
    let expected = 8 * per_thread + cycles;
    assert_eq!(f["dispatches"], expected as i64, "{}", p.run.transcript());
    assert_eq!(f["signals"], 8 * per_thread as i64, "one completion signal per dispatch");
    assert_eq!(f["code_object_cycles"], cycles as i64);
    for kind in [
        "wait_scacquire",
        "wait_relaxed",
        "amd_wait_any",
        "amd_wait_all",
        "group_wait_any_scacquire",
        "group_wait_any_relaxed",
        "load_scacquire_poll",
    ] {
        assert!(f[kind] > 0, "the application waited with {kind}: {f:?}");
    }
    let db = find_one(&p.out, ".db");
    let rows = db_kernels(&db);
    let ids: Vec<u64> = rows.iter().map(|k| k.dispatch_id).collect();
    assert_eq!(ids, (1..=expected).collect::<Vec<_>>(), "every dispatch exactly once");
    assert!(rows.iter().all(|k| k.name == "vector_add"), "every dispatch named");
    assert!(rows.iter().all(|k| k.end > k.start), "every dispatch has its end");
    let queues: std::collections::HashSet<u64> = rows.iter().map(|k| k.queue_id).collect();
    assert_eq!(queues.len(), 8 * 8 + usize::from(cycles > 0), "every queue traced");
    for reason in rocprof_model::LossReason::ALL {
        let v = db_health(&db, &format!("lost.{}", reason.as_str()));
        assert_eq!(
            v.as_deref(),
            Some("0"),
            "lost.{} (a missing row fails too):\n{}",
            reason.as_str(),
            p.run.transcript()
        );
    }
    assert_eq!(db_health(&db, "incomplete_dispatches").as_deref(), Some("0"));
    assert_eq!(db_health(&db, "clean_exit").as_deref(), Some("1"));
    assert!(!p.run.stderr.contains("warning"), "{}", p.run.transcript());
    Some(f)
}

/// Growth allowed per extra dispatch between the short and the long soak run, of the heap bytes the
/// process holds (malloc's in-use bytes over all arenas) and of the anonymous memory mapped outside malloc
/// (`RssAnon` minus the bytes malloc has from the system). Both are steady to within ~130 KiB between runs
/// (no measurable growth, 4 runs of each size). `RssAnon` itself is not: malloc keeps freed chunks in
/// its per-thread arenas, and how much it keeps at exit varies by -2.0 to +2.2 MiB between the two sizes on
/// an idle machine (session 10, on main and with speed9/memspeed9 alike), more than the 1.8 MiB this bound
/// allows, so a bound on it failed without a leak. hsa-sim's signal-group leak of session 4 was
/// ~25 B per dispatch (+2.8 MiB over the 116,000 extra dispatches here, against a bound of 1.8 MiB).
const BYTES_PER_DISPATCH: i64 = 16;

const RSS_MAX_KIB: i64 = 64 * 1024;

#[test]
fn soak_every_dispatch_named_zero_loss_and_flat_memory() {
    let test = "soak_every_dispatch_named_zero_loss_and_flat_memory";
    let Some(short) = soak_run(test, 500, 100) else { return };
    let Some(long) = soak_run(test, 15_000, 100) else { return };
    // 116,000 more dispatches and completion signals: the tables are fixed-size and recycled and
    // hsa-sim releases destroyed signals, so neither the heap in use nor the memory mapped outside
    // malloc grows by more than a few bytes per dispatch. (The code-object cycles are the same in both
    // runs: see `executable_load_unload_cycles_hold_memory_flat`.) The whole resident set includes
    // file pages (the capture's chunks are released as they fill, at their own pace), so it gets an
    // absolute bound.
    let extra = long["dispatches"] - short["dispatches"];
    let bound_kib = extra * BYTES_PER_DISPATCH / 1024;
    let outside_malloc = |run: &HashMap<String, i64>| run["anon_kib"] - run["heap_kib"];
    for (what, grown_kib) in [
        ("the heap in use (malloc's in-use bytes)", long["live_kib"] - short["live_kib"]),
        ("anonymous memory outside malloc's heap", outside_malloc(&long) - outside_malloc(&short)),
    ] {
        assert!(
            grown_kib <= bound_kib,
            "{what} grew by {grown_kib} KiB for {extra} more dispatches, over the bound of \
             {BYTES_PER_DISPATCH} B per dispatch ({bound_kib} KiB) (short {short:?}, long {long:?})"
        );
    }
    for run in [&short, &long] {
        assert!(run["rss_kib"] <= RSS_MAX_KIB, "RSS {} KiB over {RSS_MAX_KIB} KiB: {run:?}", run["rss_kib"]);
    }
}

/// Issue 14: kernels queued without the barrier bit run at once on hsa-sim (as on a GPU), and the
/// kernel trace shows it: within each batch of 8 every kernel's interval overlaps every other's,
/// while the barrier packet between batches keeps the batches apart. (The application's own
/// completion signals are left out of these packets: the profiler moves an application completion
/// signal to a barrier packet after its dispatch, which would order the queue.) The kernels are
/// made long (timing knob) so that launching the batch takes far less than one kernel on any
/// machine load. The Perfetto trace of the same run, loaded by Perfetto's trace processor, draws
/// each kernel with rocpd's start and duration, on 8 tracks of the queue's name with no two slices
/// of a track overlapping (rocprofv3 would move overlapping ends to the middle, shortening and
/// crossing them).
#[test]
fn kernels_without_the_barrier_bit_overlap_in_the_kernel_trace() {
    let test = "kernels_without_the_barrier_bit_overlap_in_the_kernel_trace";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("soak", test) else { return };
    let env = vec![
        (names::SIM_EXEC.to_string(), "off".to_string()),
        (names::SIM_KERNEL_SCALE.to_string(), "vector_add=20000".to_string()),
    ];
    let out = ScratchGuard(scratch(test));
    let dir = out.0.display().to_string();
    let cli = ["--simulate", "gfx942", "--kernel-trace", "-f", "rocpd", "pftrace", "-d", &dir];
    let run = profile(&stage, &cli, &app, &["1", "1", "16", "0", "8", "--gate", "--overlap"], &env);
    assert!(run.status.success(), "{}", run.transcript());
    let rows = db_kernels(&find_one(&out.0, ".db"));
    let ids: Vec<u64> = rows.iter().map(|k| k.dispatch_id).collect();
    assert_eq!(ids, (1..=16).collect::<Vec<_>>(), "{}", run.transcript());
    assert!(rows.iter().all(|k| k.queue_id == rows[0].queue_id && k.end > k.start), "{rows:?}");
    for w in rows.windows(2) {
        assert!(
            w[0].start <= w[1].start,
            "queue order: dispatch {} starts before {}",
            w[1].dispatch_id,
            w[0].dispatch_id
        );
    }
    for batch in rows.chunks(8) {
        let last_start = batch.iter().map(|k| k.start).max().unwrap();
        let first_end = batch.iter().map(|k| k.end).min().unwrap();
        assert!(last_start < first_end, "all 8 kernels of a batch run at once: {batch:?}");
    }
    let first_batch_end = rows[..8].iter().map(|k| k.end).max().unwrap();
    assert!(rows[8].start >= first_batch_end, "the barrier packet orders the batches: {rows:?}");

    // Perfetto: the same kernels, with rocpd's times, and no two slices of a track overlapping.
    let queries = [
        "select 'overlapping_pairs=' || count(*) as r from slice a join slice b on a.track_id = b.track_id \
         and a.id < b.id and a.ts < b.ts + b.dur and b.ts < a.ts + a.dur",
        "select 'kernel_slices=' || count(*) as r from slice where category = 'kernel_dispatch'",
        "select 'kernel_tracks=' || count(distinct track_id) as r from slice where category = 'kernel_dispatch'",
        "select 'kernel_track_names=' || count(distinct t.name) as r from slice s join track t on s.track_id = t.id \
         where s.category = 'kernel_dispatch'",
        "select 'dur_at_' || ts || '=' || dur as r from slice where category = 'kernel_dispatch'",
    ];
    let trace = find_one(&out.0, ".pftrace");
    let Some(f) = crate::formats::perfetto_figures(test, &trace, &queries) else { return };
    assert_eq!(f["overlapping_pairs"], 0, "{f:?}");
    assert_eq!(f["kernel_slices"], 16, "{f:?}");
    assert_eq!(f["kernel_tracks"], 8, "one track per kernel running at once, reused by the second batch: {f:?}");
    assert_eq!(f["kernel_track_names"], 1, "all named after the queue: {f:?}");
    for k in &rows {
        let dur = f.get(&format!("dur_at_{}", k.start)).copied();
        assert_eq!(dur, Some((k.end - k.start) as i64), "dispatch {}: rocpd vs Perfetto: {f:?}", k.dispatch_id);
    }
}

/// Runs `soak 1 1 0 0 --queue-cycles <cycles / 2> --queue-threads 2` on gfx90a under the profiler
/// (two threads creating and destroying queues at once): every dispatch of the queue create/destroy
/// cycles (each on a queue of its own) is in the database once, named, with its end, on as many
/// queues as cycles; zero loss of any kind (the profiler's queue table releases each destroyed
/// queue's entry: 2 x 2,000 queues pass through a table of 1,024, at addresses the runtime reuses).
/// Returns the fixture's figures.
fn queue_cycles_run(test: &str, cycles: u64) -> Option<HashMap<String, i64>> {
    let stage = rocprof_e2e::stage(test)?;
    let app = stage.fixture("soak", test)?;
    let per_thread = (cycles / 2).to_string();
    let args = ["1", "1", "0", "0", "--queue-cycles", &per_thread, "--queue-threads", "2"];
    let p = kernel_trace(&stage, "gfx90a", &app, &args, &[]);
    assert!(p.run.status.success(), "{}", p.run.transcript());
    let f = soak_figures(&p.run);
    assert_eq!(f["queue_cycles"], cycles as i64, "{}", p.run.transcript());
    assert_eq!(f["dispatches"], cycles as i64);
    let db = find_one(&p.out, ".db");
    let rows = db_kernels(&db);
    let ids: Vec<u64> = rows.iter().map(|k| k.dispatch_id).collect();
    assert_eq!(ids, (1..=cycles).collect::<Vec<_>>(), "every dispatch exactly once");
    assert!(rows.iter().all(|k| k.name == "vector_add"), "every dispatch named");
    assert!(rows.iter().all(|k| k.end > k.start), "every dispatch has its end");
    let queues: std::collections::HashSet<u64> = rows.iter().map(|k| k.queue_id).collect();
    assert_eq!(queues.len() as u64, cycles, "each dispatch on a queue of its own");
    for reason in rocprof_model::LossReason::ALL {
        let v = db_health(&db, &format!("lost.{}", reason.as_str()));
        assert_eq!(v.as_deref(), Some("0"), "lost.{}:\n{}", reason.as_str(), p.run.transcript());
    }
    assert_eq!(db_health(&db, "incomplete_dispatches").as_deref(), Some("0"));
    assert_eq!(db_health(&db, "clean_exit").as_deref(), Some("1"));
    assert!(!p.run.stderr.contains("warning"), "{}", p.run.transcript());
    Some(f)
}

/// Issue 14: an application that creates and destroys queues in a loop (per cycle a 4096-packet queue
/// destroyed unused and one destroyed after a dispatch: under the profiler both are intercept queues,
/// each with a proxy and a hardware ring) is traced completely and keeps a flat resident set: 2,000
/// cycles within 1 MiB of 200 (hsa-sim leaked ~1 MiB per cycle before: 249 MB after 200 cycles,
/// 2.1 GB after 2,000).
#[test]
fn queue_create_destroy_cycles_traced_with_zero_loss_and_flat_memory() {
    let test = "queue_create_destroy_cycles_traced_with_zero_loss_and_flat_memory";
    let Some(short) = queue_cycles_run(test, 200) else { return };
    let Some(long) = queue_cycles_run(test, 2000) else { return };
    let grown_kib = long["rss_kib"] - short["rss_kib"];
    assert!(grown_kib < 1024, "RSS grew by {grown_kib} KiB from 200 to 2,000 queue cycles ({short:?}, {long:?})");
}
