//! A multi-threaded, multi-queue application loses no records.

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
