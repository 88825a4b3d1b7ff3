//! HSA API tracing (`--hsa-trace` and its granular options) on the C fixtures, under both API
//! table layouts: one `hsa_api_trace.csv` row per call the program counted itself, unique
//! correlation ids, kernel rows that carry the id of the doorbell store that issued them, the
//! same calls as rocpd regions with their arguments, and the domain options honoured.

use rocprof_launch::names as launch;
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
    let env = vec![(launch::SIM_ABI.to_string(), abi.to_string())];
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
    // Besides the program's calls, the runtime's own: like ROCr (`GpuAgent::InvalidateCodeCaches` ->
    // `AqlQueue::ExecutePM4`), freezing an executable creates, waits on and destroys one signal per GPU
    // code object through the API table, so the trace has those calls too.
    // vector_add loads one GPU code object into each executable it freezes.
    let freezes = calls.get("hsa_executable_freeze").copied().unwrap_or(0);
    let runtime = |f: &str| match f {
        "hsa_signal_create" | "hsa_signal_wait_scacquire" | "hsa_signal_destroy" => freezes,
        _ => 0,
    };
    for (f, &count) in &calls {
        let rows = per_function.get(f.as_str()).copied().unwrap_or(0);
        assert_eq!(rows, count + runtime(f), "{abi}: rows of {f} (the program's {count} calls)");
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

/// Correlation ids are numbered 1..N without gaps over a multi-threaded program, as AMD's tracing
/// validators (tracing, tracing-hip-in-libraries) check them: `roctx_threads 3 4` calls HSA and
/// ROCTx from four threads at once; the HSA rows and the marker rows (a push and its pop are one
/// row) take every id from 1 to their number exactly once, and each kernel row carries one of
/// them.
#[test]
fn correlation_ids_are_dense_across_threads() {
    let test = "correlation_ids_are_dense_across_threads";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("roctx_threads", test) else { return };
    let (run, out) = traced(&stage, &["--hsa-trace", "--marker-trace", "--kernel-trace"], &app, &["3", "4"], "newest");
    let hsa = read_csv(&find_one(&out.0, "hsa_api_trace.csv"));
    let marker = read_csv(&find_one(&out.0, "marker_api_trace.csv"));
    let api: Vec<&HashMap<String, String>> = hsa.rows.iter().chain(&marker.rows).collect();
    let threads: HashSet<&str> = api.iter().map(|r| r["Thread_Id"].as_str()).collect();
    assert_eq!(threads.len(), 4, "the main thread and 3 workers call the APIs:\n{}", run.transcript());
    let mut ids: Vec<u64> = api.iter().map(|r| r["Correlation_Id"].parse().unwrap()).collect();
    ids.sort_unstable();
    let expected: Vec<u64> = (1..=api.len() as u64).collect();
    assert_eq!(ids, expected, "API correlation ids are not 1..{} (gaps or repeats)", api.len());
    for k in &read_csv(&find_one(&out.0, "kernel_trace.csv")).rows {
        let id: u64 = k["Correlation_Id"].parse().unwrap();
        assert!(ids.binary_search(&id).is_ok(), "kernel row with correlation id {id} of no API call: {k:?}");
    }
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

/// `async_copy` under `--memory-copy-trace --memory-allocation-trace`: per GPU and size (4 KiB,
/// 256 KiB, 4 MiB) the program copies host->device, device->device, device->host and reads a
/// fill back device->host, so 12 copies per GPU. One `memory_copy_trace.csv` row per
/// `hsa_amd_memory_async_copy` call in its direction, engine times in order, and in rocpd each
/// (direction, size) pair as often as the program made it. One allocation row per pool
/// allocate/free the program counted. Both table layouts.
#[test]
fn async_copies_are_memory_copy_rows_with_their_sizes_and_directions() {
    let test = "async_copies_are_memory_copy_rows_with_their_sizes_and_directions";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("async_copy", test) else { return };
    for abi in ["newest", "5.2"] {
        let (run, out) = traced(&stage, &["--memory-copy-trace", "--memory-allocation-trace"], &app, &[], abi);
        assert!(!run.stderr.contains("not recorded by this build"), "{abi}: {}", run.stderr);
        let calls = counts(&run.stdout, "api-calls:");
        let gpus: u64 = run
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("async_copy: ")?.split(" round trips verified on ").nth(1))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("{abi}: no GPU count in\n{}", run.stdout));
        assert!(gpus >= 1);
        assert_eq!(calls["hsa_amd_memory_async_copy"], 12 * gpus, "{abi}: the program's own count");

        let csv = read_csv(&find_one(&out.0, "memory_copy_trace.csv"));
        assert_eq!(
            csv.header,
            [
                "Kind",
                "Direction",
                "Stream_Id",
                "Source_Agent_Id",
                "Destination_Agent_Id",
                "Correlation_Id",
                "Start_Timestamp",
                "End_Timestamp"
            ]
        );
        assert_eq!(csv.rows.len() as u64, 12 * gpus, "{abi}: one row per copy");
        let mut per_dir: HashMap<&str, u64> = HashMap::new();
        for r in &csv.rows {
            assert_eq!(r["Kind"], "MEMORY_COPY", "{abi}: {r:?}");
            *per_dir.entry(r["Direction"].as_str()).or_default() += 1;
            let (s, e): (u64, u64) = (r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap());
            assert!(0 < s && s <= e, "{abi}: {r:?}");
        }
        assert_eq!(per_dir.get("MEMORY_COPY_HOST_TO_DEVICE"), Some(&(3 * gpus)), "{abi}: {per_dir:?}");
        assert_eq!(per_dir.get("MEMORY_COPY_DEVICE_TO_DEVICE"), Some(&(3 * gpus)), "{abi}: {per_dir:?}");
        assert_eq!(per_dir.get("MEMORY_COPY_DEVICE_TO_HOST"), Some(&(6 * gpus)), "{abi}: {per_dir:?}");
        let ids: HashSet<&str> = csv.rows.iter().map(|r| r["Correlation_Id"].as_str()).collect();
        assert_eq!(ids.len(), csv.rows.len(), "{abi}: one correlation id per copy");

        // Sizes and directions together, from rocpd.
        let db = rusqlite::Connection::open(find_one(&out.0, ".db")).unwrap();
        let mut stmt = db.prepare("SELECT name, size, COUNT(*) FROM memory_copies GROUP BY name, size").unwrap();
        let got: HashMap<(String, u64), u64> = stmt
            .query_map([], |r| Ok(((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64), r.get::<_, i64>(2)? as u64)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut want: HashMap<(String, u64), u64> = HashMap::new();
        for size in [4096u64, 256 * 1024, 4 * 1024 * 1024] {
            want.insert(("MEMORY_COPY_HOST_TO_DEVICE".into(), size), gpus);
            want.insert(("MEMORY_COPY_DEVICE_TO_DEVICE".into(), size), gpus);
            want.insert(("MEMORY_COPY_DEVICE_TO_HOST".into(), size), 2 * gpus);
        }
        assert_eq!(got, want, "{abi}: (direction, bytes) -> copies");

        // Allocations: one row per pool allocate / free the program made.
        let alloc = read_csv(&find_one(&out.0, "memory_allocation_trace.csv"));
        let op = |o: &str| alloc.rows.iter().filter(|r| r["Operation"] == o).count() as u64;
        assert_eq!(op("MEMORY_ALLOCATION_ALLOCATE"), calls["hsa_amd_memory_pool_allocate"], "{abi}");
        assert_eq!(op("MEMORY_ALLOCATION_FREE"), calls["hsa_amd_memory_pool_free"], "{abi}");
        for size in [4096u64, 256 * 1024, 4 * 1024 * 1024] {
            let n = alloc
                .rows
                .iter()
                .filter(|r| r["Operation"] == "MEMORY_ALLOCATION_ALLOCATE" && r["Allocation_Size"] == size.to_string())
                .count() as u64;
            assert_eq!(n, 4 * gpus, "{abi}: allocations of {size} bytes (2 host + 2 device per GPU)");
        }
        // The agent of an allocation owns its pool: the host buffers come from a CPU agent's
        // system pool (which ROCr also lists under every GPU), the device buffers from a GPU's.
        let agents = read_csv(&find_one(&out.0, "agent_info.csv"));
        let kind_of = |id: &str| {
            let node = id.rsplit(' ').next().unwrap_or("");
            agents.rows.iter().find(|a| a["Logical_Node_Id"] == node).map(|a| a["Agent_Type"].clone())
        };
        let mut per_kind: HashMap<Option<String>, u64> = HashMap::new();
        for r in alloc.rows.iter().filter(|r| r["Operation"] == "MEMORY_ALLOCATION_ALLOCATE") {
            *per_kind.entry(kind_of(&r["Agent_Id"])).or_default() += 1;
        }
        let want = HashMap::from([(Some("CPU".to_string()), 6 * gpus), (Some("GPU".to_string()), 6 * gpus)]);
        assert_eq!(per_kind, want, "{abi}: allocations by the type of their agent");
    }
}

/// `copy_variants` under `--memory-copy-trace`: `hsa_amd_memory_async_copy_on_engine` (64 KiB
/// host->device and back) and `hsa_amd_memory_async_copy_rect` (4096 bytes device->host, 2048
/// bytes host->device) are `MEMORY_COPY` rows with their directions and byte counts. ROCm 5.2's
/// table has no `_on_engine` entry (the function came later), so there only the two rectangular
/// copies are rows.
#[test]
fn on_engine_and_rect_copies_are_memory_copy_rows() {
    let test = "on_engine_and_rect_copies_are_memory_copy_rows";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("copy_variants", test) else { return };
    for abi in ["newest", "5.2"] {
        let (run, out) = traced(&stage, &["--memory-copy-trace"], &app, &[], abi);
        assert!(run.stdout.contains("copy_variants: on_engine 2 rect 2"), "{abi}: {}", run.stdout);
        let db = rusqlite::Connection::open(find_one(&out.0, ".db")).unwrap();
        let mut stmt = db.prepare("SELECT name, size FROM memory_copies ORDER BY start").unwrap();
        let got: Vec<(String, i64)> =
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        let rect = [("MEMORY_COPY_DEVICE_TO_HOST".to_string(), 4096), ("MEMORY_COPY_HOST_TO_DEVICE".to_string(), 2048)];
        let mut want: Vec<(String, i64)> = Vec::new();
        if abi == "newest" {
            want.push(("MEMORY_COPY_HOST_TO_DEVICE".into(), 65536));
            want.push(("MEMORY_COPY_DEVICE_TO_HOST".into(), 65536));
        }
        want.extend(rect);
        assert_eq!(got, want, "{abi}");
        let csv = read_csv(&find_one(&out.0, "memory_copy_trace.csv"));
        assert_eq!(csv.rows.len(), want.len(), "{abi}");
    }
}
