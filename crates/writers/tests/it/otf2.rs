//! OTF2 with host records: API calls nested on their thread's location, copies and allocations
//! on rocprofv3's locations, and the run_health record as properties; checked with the OTF2
//! reference reader (`../shared/tools/otf2-check`, `otf2-print`).

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use rocprof_model::{LossReason, Trace};
use rocprof_writers::otf2::{check_available, Otf2Writer};
use rocprof_writers::{synthetic, write_trace, OutputLocation, Progress, Writer};
use serde_json::Value;

use crate::scratch;

/// `check.sh --json` on `anchor`: the summary, or `None` when the test cannot run here.
fn otf2_check(test: &str, anchor: &Path) -> Option<Value> {
    let script = rocprof_test_inputs::shared(test, "tools/otf2-check/check.sh")?;
    let json = anchor.with_extension("check.json");
    let out = Command::new("bash").arg(&script).arg(anchor).arg("--json").arg(&json).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        rocprof_test_inputs::skip_or_fail(test, format!("otf2-check could not set up:\n{text}"));
        return None;
    }
    assert!(out.status.success(), "otf2-check rejected {}:\n{text}", anchor.display());
    Some(serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap())
}

#[test]
fn host_records_and_run_health_reach_the_archive() {
    let test = "host_records_and_run_health_reach_the_archive";
    if let Err(e) = check_available() {
        rocprof_test_inputs::skip_or_fail(test, e);
        return;
    }
    let dir = scratch("otf2-host");
    let mut trace = Trace::collect(&mut synthetic::Source::sys_trace(3000)).unwrap();
    trace.health.records_written = 3000;
    trace.health.lost.add(LossReason::SignalPoolEmpty, 2);
    trace.health.hook_ns = 1_000;
    trace.health.wall_ns = 1_000_000;
    let mut w: Vec<Box<dyn Writer>> =
        vec![Box::new(Otf2Writer::new(OutputLocation::new(&dir, "sys"), Default::default()))];
    let files = write_trace(&trace, &mut w, Progress::Hidden).unwrap();
    let anchor = &files[0];
    let Some(report) = otf2_check(test, anchor) else { return };

    // One ENTER per record, per region; the mix's 3000 records (roctxMarkA-free).
    let enters: HashMap<String, u64> = report["region_enters"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, n)| (name.clone(), n.as_u64().unwrap()))
        .collect();
    let count = |name: &str| trace.api_calls.iter().filter(|a| trace.strings.resolve(a.name) == name).count() as u64;
    assert_eq!(enters["hipLaunchKernel"], count("hipLaunchKernel"));
    assert_eq!(enters["hsa_signal_store_screlease"], count("hsa_signal_store_screlease"));
    assert_eq!(enters["hipMemcpyAsync"], count("hipMemcpyAsync"));
    assert_eq!(enters["MEMORY_COPY_HOST_TO_DEVICE"], trace.memory_copies.len() as u64);
    assert_eq!(enters["MEMORY_ALLOCATION_ALLOCATE"], trace.memory_allocations.len() as u64);
    assert_eq!(enters.values().sum::<u64>(), 3000);
    let region = |name: &str| report["regions"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap().clone();
    assert_eq!(region("MEMORY_COPY_HOST_TO_DEVICE")["role"], "DATA_TRANSFER");
    assert_eq!(region("MEMORY_ALLOCATION_ALLOCATE")["role"], "ALLOCATE");
    assert_eq!(region("hipLaunchKernel")["role"], "FUNCTION");

    // rocprofv3's locations: API calls nested on the thread (launch > doorbell store), copies per
    // thread and destination agent, allocations per thread and agent.
    let locations = report["locations"].as_array().unwrap();
    let loc =
        |name: &str| locations.iter().find(|l| l["name"] == name).unwrap_or_else(|| panic!("{name}: {locations:?}"));
    let thread = loc("Thread 4242");
    assert_eq!((thread["type"].as_str(), thread["max_depth"].as_u64()), (Some("CPU_THREAD"), Some(2)), "{thread}");
    // OTF2 3.0's Python bindings name ACCELERATOR_STREAM `GPU`.
    assert_eq!(loc("Thread 4242, Copy to GPU Agent-1")["type"], "GPU");
    assert_eq!(loc("Thread 4242, Memory Operation at GPU Agent-1")["type"], "GPU");

    // run_health: properties of the process's location group, and of the archive.
    let print = |flag: &str| {
        let out = Command::new("otf2-print").arg(flag).arg(anchor).output().expect("otf2-print (otf2-tools)");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let defs = print("-G");
    for (key, value) in
        [("records_written", "3000"), ("lost.signal_pool_empty", "2"), ("lost_total", "2"), ("overhead_ppm", "1000")]
    {
        assert!(
            defs.lines().any(|l| l.starts_with("LOCATION_GROUP_PROPERTY")
                && l.contains(&format!("\"run_health.{key}\""))
                && l.contains(&format!("Value: {value}"))),
            "{key} = {value}:\n{defs}"
        );
    }
    let anchor_info = print("-A");
    assert!(anchor_info.contains("ROCPROF_RS::RUN_HEALTH::RECORDS_WRITTEN"), "{anchor_info}");
}
