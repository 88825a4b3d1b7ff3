//! A multi-threaded, multi-queue application loses no records.

use rocprof_launch::names;
use std::collections::{HashMap, HashSet};

use rocprof_e2e::stage;

use crate::common::{consistent_kernel_rows, kernel_trace};

#[test]
fn multi_queue_loses_no_records() {
    let test = "multi_queue_loses_no_records";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("multi_queue", test) else {
        return;
    };
    let (threads, per_thread) = (6u64, 60u64);
    let p = kernel_trace(&stage, "gfx942,gfx90a", &app, &[&threads.to_string(), &per_thread.to_string()], &[]);
    let (csv, db) = consistent_kernel_rows(&p);
    assert_eq!(db.len() as u64, threads * per_thread, "records were lost:\n{}", p.run.transcript());
    let mut per_queue: HashMap<u64, u64> = HashMap::new();
    for k in &db {
        *per_queue.entry(k.queue_id).or_default() += 1;
    }
    assert_eq!(per_queue.len() as u64, threads, "one queue per thread: {per_queue:?}");
    assert!(per_queue.values().all(|&n| n == per_thread), "{per_queue:?}");
    let tids: HashSet<&String> = csv.rows.iter().map(|r| &r["Thread_Id"]).collect();
    assert_eq!(tids.len() as u64, threads, "one enqueuing thread per queue");
    let agents: HashSet<&String> = csv.rows.iter().map(|r| &r["Agent_Id"]).collect();
    assert_eq!(agents.len(), 2, "queues round-robin over both GPUs");
    assert!(!p.run.stderr.to_lowercase().contains("dropped"), "the CLI reported drops:\n{}", p.run.transcript());
}

/// Issue 14: kernels on two queues run at once on hsa-sim (each queue has its own packet
/// processor), and the kernel trace shows it: on each queue the dispatches keep their order and,
/// as each thread waits for its dispatch before the next, never overlap; across the two queues the
/// long kernels overlap in time. Every dispatch is recorded once with its queue.
#[test]
fn kernels_on_two_queues_overlap_in_time_and_each_queue_stays_ordered() {
    let test = "kernels_on_two_queues_overlap_in_time_and_each_queue_stays_ordered";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("multi_queue", test) else { return };
    let env = [
        (names::SIM_EXEC.to_string(), "off".to_string()),
        (names::SIM_KERNEL_SCALE.to_string(), "vector_add=20000".to_string()),
    ];
    let p = kernel_trace(&stage, "gfx942", &app, &["2", "8"], &env);
    assert!(p.run.status.success(), "{}", p.run.transcript());
    let (_, db) = consistent_kernel_rows(&p);
    assert_eq!(db.len(), 16, "{}", p.run.transcript());
    let mut per_queue: HashMap<u64, Vec<&rocprof_e2e::DbKernel>> = HashMap::new();
    for k in &db {
        per_queue.entry(k.queue_id).or_default().push(k);
    }
    assert_eq!(per_queue.len(), 2, "one queue per thread");
    for (q, rows) in &per_queue {
        assert_eq!(rows.len(), 8, "queue {q}");
        for w in rows.windows(2) {
            assert!(
                w[0].end <= w[1].start,
                "queue {q}: dispatch {} overlaps {}: {rows:?}",
                w[1].dispatch_id,
                w[0].dispatch_id
            );
        }
    }
    let (a, b): (Vec<_>, Vec<_>) = {
        let mut v: Vec<_> = per_queue.values().collect();
        v.sort_by_key(|r| r[0].dispatch_id);
        (v[0].clone(), v[1].clone())
    };
    let overlapping = a
        .iter()
        .flat_map(|x| b.iter().map(move |y| (x, y)))
        .filter(|(x, y)| x.start < y.end && y.start < x.end)
        .count();
    assert!(overlapping >= 4, "kernels of the two queues overlap in time ({overlapping} pairs): {a:?} {b:?}");
}
