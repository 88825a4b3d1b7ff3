//! `--sys-trace -f json otf2 csv`: the JSON and OTF2 outputs carry the same host records as the
//! CSV files of the same run. Per domain, `results.json`'s `buffer_records` arrays have one record
//! per CSV row with the same correlation ids, every kernel dispatch links to an API record by its
//! correlation id, the document validates against the schema; the OTF2 reference reader
//! (`../shared/tools/otf2-check`) accepts the archive, its ENTER counts per kind of region (HSA,
//! HIP and ROCTx functions, kernels, copies, allocations) equal the CSV rows, and the process's
//! run_health properties (`otf2-print -G`) hold the numbers of `run_health.csv` and the JSON
//! metadata. On the HSA fixtures (`vector_add`, `async_copy`, `scratch`) and, where hipcc built it (always on
//! CI), the HIP fixture `hip_trace_app`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_e2e::{find_files, find_one, profile, read_csv, scratch, stage, Csv, ScratchGuard, Stage};
use serde_json::Value;

use crate::formats::valid_json;

/// The CSV file, JSON array and OTF2 category of each host domain.
const DOMAINS: [(&str, &str); 7] = [
    ("hsa_api_trace.csv", "hsa_api"),
    ("hip_api_trace.csv", "hip_api"),
    ("marker_api_trace.csv", "marker_api"),
    ("kernel_trace.csv", "kernel_dispatch"),
    ("memory_copy_trace.csv", "memory_copy"),
    ("memory_allocation_trace.csv", "memory_allocation"),
    ("scratch_memory_trace.csv", "scratch_memory"),
];

/// `rocprof-rs --simulate gfx90a --sys-trace -f json otf2 csv -d OUT -o run -- app args`.
fn sys_trace(stage: &Stage, app: &Path, args: &[&str]) -> (PathBuf, ScratchGuard) {
    let out = scratch("sys-formats");
    let out_s = out.display().to_string();
    let cli = ["--simulate", "gfx90a", "--sys-trace", "-f", "json", "otf2", "csv", "-d", &out_s, "-o", "run"];
    let run = profile(stage, &cli, app, args, &[]);
    assert!(run.status.success(), "{}:\n{}", app.display(), run.transcript());
    (out.clone(), ScratchGuard(out))
}

/// The CSV of `suffix`, empty when the run wrote none (the domain had no records).
fn csv_or_empty(out: &Path, suffix: &str) -> Csv {
    match find_files(out, suffix).as_slice() {
        [] => Csv { header: Vec::new(), rows: Vec::new() },
        _ => read_csv(&find_one(out, suffix)),
    }
}

fn num(v: &str) -> u64 {
    v.parse().unwrap_or_else(|_| panic!("not a number: {v:?}"))
}

/// Runs otf2-check with `--json`; `None` when the check cannot run here (skips, never on CI).
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

/// `run_health.<key>` = value of the process's location group, from `otf2-print -G`.
pub(crate) fn otf2_health(anchor: &Path) -> BTreeMap<String, u64> {
    let out = Command::new("otf2-print").arg("-G").arg(anchor).output().expect("otf2-print (otf2-tools)");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("LOCATION_GROUP_PROPERTY"))
        .filter_map(|l| {
            let name = l.split("Name: \"run_health.").nth(1)?.split('"').next()?;
            let value = l.rsplit("Value: ").next()?.trim();
            Some((name.to_string(), num(value)))
        })
        .collect()
}

/// Checks one run's JSON and OTF2 against its CSV files; returns the CSV rows per JSON array.
fn check_run(test: &str, out: &Path) -> HashMap<&'static str, usize> {
    let csv: HashMap<&str, Csv> = DOMAINS.iter().map(|(file, array)| (*array, csv_or_empty(out, file))).collect();
    let rows: HashMap<&'static str, usize> = DOMAINS.iter().map(|(_, a)| (*a, csv[a].rows.len())).collect();

    // JSON: one record per CSV row, with the same correlation ids, per domain.
    let doc = valid_json(&find_one(out, "run_results.json"));
    let p = &doc["rocprofiler-sdk-tool"][0];
    let br = &p["buffer_records"];
    for (file, array) in DOMAINS {
        let records = br[array].as_array().unwrap();
        assert_eq!(records.len(), csv[array].rows.len(), "{array} records vs {file} rows");
        // The same correlation ids (scratch rows have none: the same start times).
        let (col, key) = if array == "scratch_memory" {
            ("Start_Timestamp", "/start_timestamp")
        } else {
            ("Correlation_Id", "/correlation_id/internal")
        };
        let mut want: Vec<u64> = csv[array].rows.iter().map(|r| num(&r[col])).collect();
        let mut got: Vec<u64> = records.iter().map(|r| r.pointer(key).unwrap().as_u64().unwrap()).collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{array}: {col}");
    }
    // Names resolve through strings.buffer_records as in AMD's validate.py: HSA records name HSA
    // functions of the HSA kinds, and the function names are the CSV's.
    let strings = &p["strings"]["buffer_records"];
    let resolve = |r: &Value| {
        let kind = &strings[r["kind"].as_u64().unwrap() as usize];
        let op = kind["operations"][r["operation"].as_u64().unwrap() as usize].as_str().unwrap().to_string();
        (kind["kind"].as_str().unwrap().to_string(), op)
    };
    let mut json_functions: Vec<String> = Vec::new();
    for r in br["hsa_api"].as_array().unwrap() {
        let (kind, op) = resolve(r);
        assert!(kind.starts_with("HSA_") && kind.ends_with("_API"), "{kind}");
        json_functions.push(op);
    }
    let mut csv_functions: Vec<String> = csv["hsa_api"].rows.iter().map(|r| r["Function"].clone()).collect();
    json_functions.sort();
    csv_functions.sort();
    assert_eq!(json_functions, csv_functions, "HSA function names");
    for r in br["hip_api"].as_array().unwrap() {
        assert!(resolve(r).0.starts_with("HIP_"), "{r}");
    }
    // Every dispatch links to an API record by its correlation id.
    let api_ids: HashSet<u64> = ["hsa_api", "hip_api"]
        .iter()
        .flat_map(|a| br[*a].as_array().unwrap().iter().map(|r| r["correlation_id"]["internal"].as_u64().unwrap()))
        .collect();
    for d in br["kernel_dispatch"].as_array().unwrap() {
        let id = d["correlation_id"]["internal"].as_u64().unwrap();
        assert!(api_ids.contains(&id), "dispatch {d} has no API record with its correlation id");
    }

    // OTF2: accepted by the reference reader; ENTERs per kind of region = CSV rows.
    let anchor = find_one(out, "run_results.otf2");
    if let Some(report) = otf2_check(test, &anchor) {
        let enters: HashMap<String, u64> = report["region_enters"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        let sum_names = |names: HashSet<&str>| names.iter().map(|n| enters.get(*n).copied().unwrap_or(0)).sum::<u64>();
        let names =
            |array: &str, col: &str| -> HashSet<&str> { csv[array].rows.iter().map(|r| r[col].as_str()).collect() };
        assert_eq!(sum_names(names("hsa_api", "Function")), rows["hsa_api"] as u64, "HSA ENTERs");
        assert_eq!(sum_names(names("hip_api", "Function")), rows["hip_api"] as u64, "HIP ENTERs");
        assert_eq!(sum_names(names("kernel_dispatch", "Kernel_Name")), rows["kernel_dispatch"] as u64, "kernel ENTERs");
        assert_eq!(sum_names(names("memory_copy", "Direction")), rows["memory_copy"] as u64, "copy ENTERs");
        assert_eq!(
            sum_names(names("memory_allocation", "Operation")),
            rows["memory_allocation"] as u64,
            "allocation ENTERs"
        );
        // ROCTx: ranges and naming calls; marks (instants, end = start) are left out as rocprofv3 does.
        let markers = &csv["marker_api"].rows;
        let marks = markers.iter().filter(|r| r["Start_Timestamp"] == r["End_Timestamp"]).count();
        let marker_names: HashSet<&str> = markers
            .iter()
            .filter(|r| r["Start_Timestamp"] != r["End_Timestamp"])
            .map(|r| r["Function"].as_str())
            .collect();
        assert_eq!(sum_names(marker_names), (markers.len() - marks) as u64, "marker ENTERs");
        let events: u64 = rows.iter().filter(|(a, _)| **a != "scratch_memory").map(|(_, n)| 2 * *n as u64).sum();
        assert_eq!(report["events_total"].as_u64(), Some(events - 2 * marks as u64), "2 events per record");
        let role = |name: &str| {
            report["regions"].as_array().unwrap().iter().find(|r| r["name"] == name).map(|r| r["role"].clone())
        };
        if let Some(copy) = csv["memory_copy"].rows.first() {
            assert_eq!(role(&copy["Direction"]), Some(Value::from("DATA_TRANSFER")));
        }
        if let Some(call) = csv["hsa_api"].rows.first() {
            assert_eq!(role(&call["Function"]), Some(Value::from("FUNCTION")));
            let thread = format!("Thread {}", call["Thread_Id"]);
            let loc = report["locations"].as_array().unwrap().iter().find(|l| l["name"] == thread.as_str());
            assert_eq!(loc.map(|l| l["type"].clone()), Some(Value::from("CPU_THREAD")), "{thread}");
        }

        // run_health: the same numbers in OTF2, JSON and CSV.
        let otf2 = otf2_health(&anchor);
        let health_csv = read_csv(&find_one(out, "run_run_health.csv"));
        let csv_health: BTreeMap<String, u64> = health_csv
            .rows
            .iter()
            .map(|r| (r[&health_csv.header[0]].clone(), num(&r[&health_csv.header[1]])))
            .collect();
        let json_health: BTreeMap<String, u64> = p["metadata"]["run_health"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        assert!(otf2.contains_key("records_written") && otf2.contains_key("lost_total"), "{otf2:?}");
        assert_eq!(otf2, json_health, "OTF2 vs JSON run_health");
        for (k, v) in &csv_health {
            assert_eq!(otf2.get(k), Some(v), "run_health.{k}: OTF2 {otf2:?} vs CSV {csv_health:?}");
        }
    }
    rows
}

#[test]
fn sys_trace_json_and_otf2_carry_the_csv_rows_of_the_hsa_fixtures() {
    let test = "sys_trace_json_and_otf2_carry_the_csv_rows_of_the_hsa_fixtures";
    let Some(stage) = stage(test) else { return };
    let Some(vector_add) = stage.fixture("vector_add", test) else { return };
    let Some(async_copy) = stage.fixture("async_copy", test) else { return };
    let (out, _guard) = sys_trace(&stage, &vector_add, &["7"]);
    let rows = check_run(test, &out);
    assert_eq!(rows["kernel_dispatch"], 7);
    assert!(rows["hsa_api"] > 7, "{rows:?}");
    let (out, _guard) = sys_trace(&stage, &async_copy, &[]);
    let rows = check_run(test, &out);
    assert!(rows["memory_copy"] >= 12 && rows["memory_allocation"] > 0, "{rows:?}");
    let Some(scratch) = stage.fixture("scratch", test) else { return };
    let (out, _guard) = sys_trace(&stage, &scratch, &[]);
    let rows = check_run(test, &out);
    assert!(rows["scratch_memory"] >= 3, "{rows:?}");
}

#[test]
fn sys_trace_json_and_otf2_carry_the_csv_rows_of_the_hip_fixture() {
    let test = "sys_trace_json_and_otf2_carry_the_csv_rows_of_the_hip_fixture";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let (out, _guard) = sys_trace(&stage, &app, &["3"]);
    let rows = check_run(test, &out);
    assert!(rows["hip_api"] > 0 && rows["marker_api"] > 0 && rows["kernel_dispatch"] >= 3, "{rows:?}");
}

/// `rocprof-rs convert` of a `--sys-trace` database gives the same JSON arrays and the same OTF2
/// events as the direct run (HIP fixture: HIP, HSA and ROCTx calls, kernels, copies, allocations).
#[test]
fn convert_of_a_sys_trace_database_writes_the_same_json_records_and_otf2_events() {
    let test = "convert_of_a_sys_trace_database_writes_the_same_json_records_and_otf2_events";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let out = scratch("sys-formats-convert");
    let _guard = ScratchGuard(out.clone());
    let (direct, conv) = (out.join("direct"), out.join("conv"));
    let (direct_s, conv_s) = (direct.display().to_string(), conv.display().to_string());
    let cli = ["--simulate", "gfx90a", "--sys-trace", "-f", "rocpd", "json", "otf2", "-d", &direct_s, "-o", "run"];
    let run = profile(&stage, &cli, &app, &["3"], &[]);
    assert!(run.status.success(), "{}", run.transcript());
    let db = find_one(&direct, "run_results.db").display().to_string();
    let r = rocprof_e2e::run(&stage.cli(), &["convert", &db, "-f", "json", "otf2", "-d", &conv_s], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    let arrays = |dir: &Path| -> BTreeMap<String, usize> {
        let doc = valid_json(&find_one(dir, "results.json"));
        let br = doc["rocprofiler-sdk-tool"][0]["buffer_records"].as_object().unwrap().clone();
        br.into_iter().map(|(k, v)| (k, v.as_array().unwrap().len())).collect()
    };
    let (a, b) = (arrays(&direct), arrays(&conv));
    assert!(a["hip_api"] > 0 && a["hsa_api"] > 0 && a["marker_api"] > 0 && a["memory_copy"] > 0, "{a:?}");
    assert_eq!(a, b, "direct vs converted JSON arrays");
    let events = |dir: &Path| otf2_check(test, &find_one(dir, "results.otf2")).map(|r| r["events_total"].clone());
    if let (Some(x), Some(y)) = (events(&direct), events(&conv)) {
        assert!(x.as_u64().unwrap() > 0);
        assert_eq!(x, y, "direct vs converted OTF2 events");
    }
}
