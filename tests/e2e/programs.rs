//! Other fixture programs under the profiler: several code objects are named correctly, copies
//! still verify, and the pool of profiling signals keeps up when completion gating is off.

use rocprof_e2e::{find_one, read_csv, stage};
use rocprof_launch::names as launch;

use crate::common::{consistent_kernel_rows, kernel_trace};

#[test]
fn kernels_of_several_code_objects_are_named_from_their_own_symbols() {
    let test = "kernels_of_several_code_objects_are_named_from_their_own_symbols";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("multi_code_object", test) else {
        return;
    };
    let p = kernel_trace(&stage, "gfx90a", &app, &[], &[]);
    assert!(p.run.stdout.contains("multi_code_object: ok"), "{}", p.run.transcript());
    let (_, db) = consistent_kernel_rows(&p);
    let names: Vec<&str> = db.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["vector_add", "saxpy", "fill", "block_sum"]);
    let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
    let mut kernel_ids: Vec<&str> = csv.rows.iter().map(|r| r["Kernel_Id"].as_str()).collect();
    kernel_ids.sort();
    kernel_ids.dedup();
    assert_eq!(kernel_ids.len(), 4, "one kernel symbol per kernel: {kernel_ids:?}");
}

#[test]
fn async_copies_still_verify_under_the_profiler() {
    let test = "async_copies_still_verify_under_the_profiler";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("async_copy", test) else {
        return;
    };
    let p = kernel_trace(&stage, "gfx942", &app, &[], &[]);
    assert!(p.run.status.success() && p.run.stdout.contains("async_copy: ok"), "{}", p.run.transcript());
}

#[test]
fn ungated_completions_lose_nothing_when_completions_lag() {
    let test = "ungated_completions_lose_nothing_when_completions_lag";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else {
        return;
    };
    // Without the gate the application runs ahead of the completion handlers, so more
    // dispatches are in flight than the first pool of signals holds.
    let env = vec![(launch::GATE_COMPLETIONS.to_string(), "0".to_string())];
    let p = kernel_trace(&stage, "gfx942", &app, &["3000"], &env);
    let (_, db) = consistent_kernel_rows(&p);
    assert_eq!(db.len(), 3000, "{}", p.run.transcript());
    assert!(!p.run.stderr.contains("dropped") && !p.run.stderr.contains("lost"), "{}", p.run.transcript());
}

#[test]
fn the_application_exit_status_is_the_cli_exit_status() {
    let test = "the_application_exit_status_is_the_cli_exit_status";
    let Some(stage) = stage(test) else { return };
    let p = kernel_trace(&stage, "gfx942", std::path::Path::new("/bin/sh"), &["-c", "exit 7"], &[]);
    assert_eq!(p.run.status.code(), Some(7), "{}", p.run.transcript());
}

#[test]
fn every_hsa_init_cycle_is_traced() {
    let test = "every_hsa_init_cycle_is_traced";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("init_cycles", test) else {
        return;
    };
    for abi in ["newest", "5.2"] {
        let env = vec![(launch::SIM_ABI.to_string(), abi.to_string())];
        let p = kernel_trace(&stage, "gfx942", &app, &["3"], &env);
        let (csv, db) = consistent_kernel_rows(&p);
        assert_eq!(db.len(), 3, "{abi}: one dispatch per init cycle:\n{}", p.run.transcript());
        let queues: std::collections::HashSet<u64> = db.iter().map(|k| k.queue_id).collect();
        assert_eq!(queues.len(), 3, "{abi}: a new queue per cycle");
        assert!(csv.rows.iter().all(|r| r["Agent_Id"] == csv.rows[0]["Agent_Id"]), "{abi}: one GPU agent");
        let agents = read_csv(&find_one(&p.out, "agent_info.csv"));
        assert_eq!(agents.rows.iter().filter(|r| r["Agent_Type"] == "GPU").count(), 1, "{abi}: {agents:?}");
    }
}
