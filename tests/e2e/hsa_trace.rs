//! HSA API tracing (`--hsa-trace` and its granular options) on the C fixtures, under both API
//! table layouts: one `hsa_api_trace.csv` row per call the program counted itself, unique
//! correlation ids, kernel rows that carry the id of the doorbell store that issued them, the
//! same calls as rocpd regions with their arguments, and the domain options honoured.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rocprof_e2e::{find_files, find_one, profile, read_csv, scratch, stage, ScratchGuard, Stage};

use crate::hip::counts;

/// `rocprof-rs --simulate gfx90a <opts> -f csv rocpd -d OUT -- app args` under the given ABI.
fn traced(stage: &Stage, opts: &[&str], app: &Path, args: &[&str], abi: &str) -> (rocprof_e2e::Run, ScratchGuard) {
    let out = scratch("hsa");
    let out_s = out.display().to_string();
    let mut cli = vec!["--simulate", "gfx90a"];
    cli.extend_from_slice(opts);
    cli.extend_from_slice(&["-f", "csv", "rocpd", "-d", &out_s, "-o", "run"]);
    let env = vec![("ROCPROF_RS_SIM_ABI".to_string(), abi.to_string())];
    let run = profile(stage, &cli, app, args, &env);
    assert!(run.status.success(), "{abi} {opts:?}:\n{}", run.transcript());
    (run, ScratchGuard(out))
}

fn hsa_rows_match_the_programs_calls(test: &str, abi: &str) {
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let n = 7;
    let (run, out) = traced(&stage, &["--hsa-trace", "--kernel-trace", "--stats"], &app, &[&n.to_string()], abi);
    let calls = counts(&run.stdout, "api-calls:");
    let csv = read_csv(&find_one(&out.0, "hsa_api_trace.csv"));
    assert_eq!(
        csv.header,
        ["Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp"]
    );
    let mut per_function: HashMap<&str, u64> = HashMap::new();
    for r in &csv.rows {
        *per_function.entry(r["Function"].as_str()).or_default() += 1;
        let (s, e): (u64, u64) = (r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap());
        assert!(s <= e, "{abi}: {r:?}");
        let expected = if r["Function"].starts_with("hsa_amd_") { "HSA_AMD_EXT_API" } else { "HSA_CORE_API" };
        assert_eq!(r["Domain"], expected, "{abi}: {r:?}");
    }
    for (f, &count) in &calls {
        assert_eq!(per_function.get(f.as_str()).copied().unwrap_or(0), count, "{abi}: rows of {f}");
    }
    assert_eq!(calls["hsa_signal_store_screlease"], n, "the program rings the doorbell once per dispatch");
    let ids: Vec<&str> = csv.rows.iter().map(|r| r["Correlation_Id"].as_str()).collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "{abi}: correlation ids repeat");

    // Every dispatch carries the id of the doorbell store that issued it, one dispatch each.
    let doorbells: HashSet<&str> = csv
        .rows
        .iter()
        .filter(|r| r["Function"] == "hsa_signal_store_screlease")
        .map(|r| r["Correlation_Id"].as_str())
        .collect();
    let kernels = read_csv(&find_one(&out.0, "kernel_trace.csv"));
    assert_eq!(kernels.rows.len() as u64, n);
    let kernel_ids: HashSet<&str> = kernels.rows.iter().map(|r| r["Correlation_Id"].as_str()).collect();
    assert_eq!(kernel_ids, doorbells, "{abi}: dispatch correlation ids");

    // Statistics: one row per function, calls as counted.
    let stats = read_csv(&find_one(&out.0, "hsa_api_stats.csv"));
    let queue_create = stats.rows.iter().find(|r| r["Name"] == "hsa_queue_create").expect("hsa_queue_create stats");
    assert_eq!(queue_create["Calls"], calls["hsa_queue_create"].to_string());
    let domains = read_csv(&find_one(&out.0, "domain_stats.csv"));
    let names: Vec<&str> = domains.rows.iter().map(|r| r["Name"].as_str()).collect();
    assert_eq!(names, ["HSA_API", "KERNEL_DISPATCH"], "{abi}");

    // rocpd: one region per call (or a sample for a zero-length one), with the arguments.
    let db = rusqlite::Connection::open(find_one(&out.0, ".db")).unwrap();
    let regions: u64 =
        db.query_row("SELECT COUNT(*) FROM regions WHERE category LIKE 'HSA_%'", [], |r| r.get(0)).unwrap();
    let samples: u64 =
        db.query_row("SELECT COUNT(*) FROM samples WHERE category LIKE 'HSA_%'", [], |r| r.get(0)).unwrap();
    assert_eq!(regions + samples, csv.rows.len() as u64, "{abi}");
    let (name, value): (String, String) = db
        .query_row(
            "SELECT A.name, A.value FROM rocpd_arg A JOIN rocpd_region R ON R.event_id = A.event_id
             JOIN rocpd_string S ON S.id = R.name_id
             WHERE S.string = 'hsa_signal_store_screlease' AND A.position = 1 LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(name, "value", "{abi}");
    assert!(value.parse::<i64>().is_ok_and(|v| v >= 0), "{abi}: doorbell value {value}");
}

#[test]
fn hsa_rows_match_the_programs_calls_newest_abi() {
    hsa_rows_match_the_programs_calls("hsa_rows_match_the_programs_calls_newest_abi", "newest");
}

#[test]
fn hsa_rows_match_the_programs_calls_rocm_5_2_abi() {
    hsa_rows_match_the_programs_calls("hsa_rows_match_the_programs_calls_rocm_5_2_abi", "5.2");
}

/// `--runtime-trace` and `--sys-trace --hsa-trace=false` give no HSA rows; `--hsa-core-trace`
/// alone gives core rows only.
#[test]
fn hsa_domain_options_select_the_tables() {
    let test = "hsa_domain_options_select_the_tables";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    for opts in [&["--runtime-trace"][..], &["--sys-trace", "--hsa-trace=false"]] {
        let (run, out) = traced(&stage, opts, &app, &["3"], "newest");
        assert!(find_files(&out.0, "hsa_api_trace.csv").is_empty(), "{opts:?}: {}", run.transcript());
        assert_eq!(read_csv(&find_one(&out.0, "kernel_trace.csv")).rows.len(), 3, "{opts:?}");
    }
    let (_, out) = traced(&stage, &["--hsa-core-trace"], &app, &["3"], "newest");
    let csv = read_csv(&find_one(&out.0, "hsa_api_trace.csv"));
    assert!(csv.rows.iter().any(|r| r["Function"] == "hsa_queue_create"));
    let domains: HashSet<&str> = csv.rows.iter().map(|r| r["Domain"].as_str()).collect();
    assert_eq!(domains, HashSet::from(["HSA_CORE_API"]));
    assert!(find_files(&out.0, "kernel_trace.csv").is_empty(), "--hsa-core-trace does not trace kernels");
    let (_, out) = traced(&stage, &["--hsa-amd-trace"], &app, &["3"], "5.2");
    let csv = read_csv(&find_one(&out.0, "hsa_api_trace.csv"));
    let domains: HashSet<&str> = csv.rows.iter().map(|r| r["Domain"].as_str()).collect();
    assert_eq!(domains, HashSet::from(["HSA_AMD_EXT_API"]), "the 5.2 AMD table is traced through its own layout");
    assert!(csv.rows.iter().any(|r| r["Function"] == "hsa_amd_memory_pool_allocate"));
}
