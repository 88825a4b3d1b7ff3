//! `rocprof-rs convert` of a `--sys-trace` database gives what the direct run wrote: every CSV file
//! (API calls of HSA, HIP and ROCTx, memory copies, allocations and scratch, kernels, counters, run
//! health) byte for byte, the JSON records field for field, the same pftrace slices per category
//! and OTF2 event totals. And every counter row of a `--sys-trace --pmc` database points at its
//! dispatch's event. (The kernel-only convert tests are in `formats.rs`.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rocprof_e2e::{profile, scratch, stage, ScratchGuard, Stage};
use rusqlite::Connection;
use serde_json::Value;

use crate::formats::{otf2_check, perfetto_check, pftrace_slices, valid_json};

/// `rocprof-rs --simulate gfx90a <opts> -f <formats> rocpd -d OUT -o run -- app args`.
fn direct(stage: &Stage, test: &str, opts: &[&str], formats: &[&str], app: &Path, args: &[&str]) -> ScratchGuard {
    let out = scratch(test);
    let out_s = out.display().to_string();
    let mut cli = vec!["--simulate", "gfx90a"];
    cli.extend_from_slice(opts);
    cli.push("-f");
    cli.extend_from_slice(formats);
    cli.extend_from_slice(&["rocpd", "-d", &out_s, "-o", "run"]);
    let run = profile(stage, &cli, app, args, &[]);
    assert!(run.status.success(), "{test}: {opts:?}:\n{}", run.transcript());
    ScratchGuard(out)
}

/// `rocprof-rs convert OUT/run_results.db -f <formats> -d OUT/converted -o run`.
fn convert(stage: &Stage, out: &Path, formats: &[&str]) -> PathBuf {
    let conv = out.join("converted");
    let (db, conv_s) = (out.join("run_results.db").display().to_string(), conv.display().to_string());
    let mut args = vec!["convert", &db, "-f"];
    args.extend_from_slice(formats);
    args.extend_from_slice(&["-d", &conv_s, "-o", "run"]);
    let run = rocprof_e2e::run(&stage.cli(), &args, &[]);
    assert!(run.status.success(), "{}", run.transcript());
    conv
}

/// The CSV files of a directory by name.
fn csv_files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// Every CSV of the direct run equals the converted one, byte for byte; returns the file names.
fn same_csv_files(test: &str, out: &Path, conv: &Path) -> Vec<String> {
    let (a, b) = (csv_files(out), csv_files(conv));
    assert_eq!(b.keys().collect::<Vec<_>>(), a.keys().collect::<Vec<_>>(), "{test}: the same files");
    for (name, text) in &a {
        if b[name] != *text {
            let first = text.lines().zip(b[name].lines()).position(|(x, y)| x != y);
            panic!(
                "{test}: {name} differs (direct {} lines, converted {}), first at line {first:?}:\n{:?}\n{:?}",
                text.lines().count(),
                b[name].lines().count(),
                first.and_then(|i| text.lines().nth(i)),
                first.and_then(|i| b[name].lines().nth(i)),
            );
        }
    }
    a.into_keys().collect()
}

fn rows(files: &BTreeMap<String, String>, name: &str) -> usize {
    files.get(name).map_or(0, |t| t.lines().count().saturating_sub(1))
}

#[test]
fn convert_of_a_sys_trace_database_gives_the_direct_csv_files() {
    let test = "convert_of_a_sys_trace_database_gives_the_direct_csv_files";
    let Some(stage) = stage(test) else { return };
    let Some(vadd) = stage.fixture("vector_add", test) else { return };
    let Some(copy) = stage.fixture("async_copy", test) else { return };

    // HSA API calls with their kernels, counters and allocations.
    let out = direct(&stage, test, &["--sys-trace", "--pmc", "SQ_WAVES"], &["csv"], &vadd, &["6"]);
    let conv = convert(&stage, &out.0, &["csv"]);
    let names = same_csv_files(test, &out.0, &conv);
    let files = csv_files(&out.0);
    for (name, expected) in [("run_kernel_trace.csv", 6), ("run_counter_collection.csv", 6)] {
        assert_eq!(rows(&files, name), expected, "{name} in {names:?}");
    }
    assert!(rows(&files, "run_hsa_api_trace.csv") > 6 * 3, "{names:?}");
    assert!(rows(&files, "run_memory_allocation_trace.csv") > 0, "{names:?}");
    assert!(names.contains(&"run_run_health.csv".to_string()), "{names:?}");

    // Asynchronous copies.
    let out = direct(&stage, test, &["--sys-trace"], &["csv"], &copy, &[]);
    let conv = convert(&stage, &out.0, &["csv"]);
    let names = same_csv_files(test, &out.0, &conv);
    assert!(rows(&csv_files(&out.0), "run_memory_copy_trace.csv") > 0, "{names:?}");

    // HIP and ROCTx on the real HIP runtime (hipcc is there under CI).
    let Some(hip) = stage.hip_fixture("hip_trace_app", test) else { return };
    let out = direct(&stage, test, &["--sys-trace", "--marker-trace"], &["csv"], &hip, &["3"]);
    let conv = convert(&stage, &out.0, &["csv"]);
    let names = same_csv_files(test, &out.0, &conv);
    let files = csv_files(&out.0);
    for name in ["run_hip_api_trace.csv", "run_marker_api_trace.csv", "run_memory_copy_trace.csv"] {
        assert!(rows(&files, name) > 0, "{name} in {names:?}");
    }
}

/// What a `results.json` holds, per process: the length of every `buffer_records` and
/// `callback_records` array.
fn json_counts(doc: &Value) -> Vec<BTreeMap<String, usize>> {
    doc["rocprofiler-sdk-tool"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let mut m = BTreeMap::new();
            for group in ["buffer_records", "callback_records"] {
                if let Some(o) = p[group].as_object() {
                    for (k, v) in o {
                        m.insert(format!("{group}.{k}"), v.as_array().map_or(0, Vec::len));
                    }
                }
            }
            m
        })
        .collect()
}

/// Runs `app` with every format, converts its database to every format and compares: CSV files
/// byte for byte, pftrace slices per category, JSON records field for field (everything but
/// `metadata`, whose `config` a database does not carry, and `host_functions`), OTF2 event totals.
fn every_format_equal(test: &str, stage: &Stage, opts: &[&str], app: &Path, args: &[&str]) -> (Value, ScratchGuard) {
    let formats = ["csv", "json", "pftrace", "otf2"];
    let out = direct(stage, test, opts, &formats, app, args);
    let conv = convert(stage, &out.0, &formats);
    same_csv_files(test, &out.0, &conv);

    let (a, b) = (out.0.join("run_results.pftrace"), conv.join("run_results.pftrace"));
    assert_eq!(pftrace_slices(&b), pftrace_slices(&a), "{test}: slices per category");
    perfetto_check(test, &b);

    let (a, b) = (valid_json(&out.0.join("run_results.json")), valid_json(&conv.join("run_results.json")));
    assert_eq!(json_counts(&b), json_counts(&a), "{test}: JSON records per array");
    let procs = |d: &Value| d["rocprofiler-sdk-tool"].as_array().unwrap().clone();
    for (x, y) in procs(&a).iter().zip(procs(&b).iter()) {
        for (k, v) in x.as_object().unwrap() {
            // `host_functions` come from HIP's registrations, which AMD's rocpd schema has no table for:
            // a database converts to JSON without them.
            if k != "metadata" && k != "host_functions" {
                assert!(y[k] == *v, "{test}: JSON `{k}` differs:\n{v}\n{}", y[k]);
            }
        }
    }

    let events =
        |report: &str| report.lines().filter(|l| l.contains("events total")).map(str::to_string).collect::<Vec<_>>();
    if let (Some(x), Some(y)) =
        (otf2_check(test, &out.0.join("run_results.otf2")), otf2_check(test, &conv.join("run_results.otf2")))
    {
        assert_eq!(events(&y), events(&x), "{test}: OTF2 events:\n{x}\n{y}");
        assert!(!events(&x).is_empty(), "{x}");
    }
    (a, out)
}

#[test]
fn convert_of_a_sys_trace_database_gives_the_direct_outputs_in_every_format() {
    let test = "convert_of_a_sys_trace_database_gives_the_direct_outputs_in_every_format";
    let Some(stage) = stage(test) else { return };
    let Some(vadd) = stage.fixture("vector_add", test) else { return };
    let (doc, out) = every_format_equal(test, &stage, &["--sys-trace", "--pmc", "SQ_WAVES"], &vadd, &["5"]);
    let counts = &json_counts(&doc)[0];
    assert_eq!(counts["buffer_records.kernel_dispatch"], 5);
    assert_eq!(counts["callback_records.counter_collection"], 5);
    assert!(counts["buffer_records.hsa_api"] > 5 * 3, "{counts:?}");
    assert!(pftrace_slices(&out.0.join("run_results.pftrace")).get("kernel_dispatch") == Some(&5));

    // Scratch events (a free of the old scratch before the queue's next allocation: the free's
    // row names no agent in rocpd, the converted one finds the queue's).
    let Some(scratch_app) = stage.fixture("scratch", test) else { return };
    let (doc, _out) = every_format_equal(test, &stage, &["--sys-trace"], &scratch_app, &[]);
    assert!(json_counts(&doc)[0]["buffer_records.scratch_memory"] >= 4, "{:?}", json_counts(&doc));

    // HIP and ROCTx on the real HIP runtime (hipcc is there under CI).
    let Some(hip) = stage.hip_fixture("hip_trace_app", test) else { return };
    let (doc, _out) = every_format_equal(test, &stage, &["--sys-trace", "--marker-trace"], &hip, &["3"]);
    let counts = &json_counts(&doc)[0];
    for k in ["buffer_records.hip_api", "buffer_records.marker_api", "buffer_records.memory_copy"] {
        assert!(counts[k] > 0, "{k}: {counts:?}");
    }
}

#[test]
fn every_counter_row_of_a_sys_trace_run_points_at_its_dispatch_event() {
    let test = "every_counter_row_of_a_sys_trace_run_points_at_its_dispatch_event";
    let Some(stage) = stage(test) else { return };
    let Some(vadd) = stage.fixture("vector_add", test) else { return };
    let out = direct(&stage, test, &["--sys-trace", "--pmc", "SQ_WAVES"], &[], &vadd, &["8"]);
    let conn = Connection::open(out.0.join("run_results.db")).unwrap();
    // (counter rows, of which on a dispatch's event, of which on a KERNEL_DISPATCH event, API events)
    let (n, on_dispatch, dispatch_category, api): (i64, i64, i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), SUM(kd.id IS NOT NULL), SUM(c.string = 'KERNEL_DISPATCH'), \
                 (SELECT COUNT(*) FROM rocpd_region) \
             FROM rocpd_pmc_event p LEFT JOIN rocpd_kernel_dispatch kd ON kd.event_id = p.event_id \
                 LEFT JOIN rocpd_event e ON e.id = p.event_id LEFT JOIN rocpd_string c ON c.id = e.category_id",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!((n, on_dispatch, dispatch_category), (8, 8, 8), "counter rows on their dispatch events");
    assert!(api > 8, "API regions in the same database: {api}");
    // One counter row per dispatch, each on a different dispatch.
    let distinct: i64 = conn
        .query_row("SELECT COUNT(DISTINCT kd.dispatch_id) FROM rocpd_pmc_event p JOIN rocpd_kernel_dispatch kd ON kd.event_id = p.event_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(distinct, 8);
}

/// A database laid out as AMD's rocprofv3 writes it (`../shared/tools/rocpd-check/make_sample_db.py`:
/// AMD's DDL verbatim, the rows of a small `--sys-trace --pmc SQ_WAVES GRBM_COUNT` HIP run, counter
/// values one row per dimension instance, `MARKER_CORE_RANGE_API` ranges, a mark as a sample)
/// converts to one CSV row per record of it, counters summed over their dimensions.
#[test]
fn convert_reads_every_kind_from_a_database_in_amds_layout() {
    let test = "convert_reads_every_kind_from_a_database_in_amds_layout";
    let Some(stage) = stage(test) else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/rocpd-check/make_sample_db.py");
    if !script.exists() {
        rocprof_test_inputs::skip_or_fail(test, format!("{} not found", script.display()));
        return;
    }
    let dir = ScratchGuard(scratch(test));
    let db = dir.0.join("amd.db");
    let made = std::process::Command::new("python3").arg(&script).arg(&db).output().expect("run python3");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let conn = Connection::open(&db).unwrap();
    let count = |sql: &str| -> usize { conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as usize };
    let category = |pattern: &str| {
        count(&format!(
            "SELECT COUNT(*) FROM rocpd_region r JOIN rocpd_event e ON e.id = r.event_id \
             JOIN rocpd_string c ON c.id = e.category_id WHERE c.string LIKE '{pattern}'"
        ))
    };
    let hip = category("HIP_%");
    let markers = category("MARKER_%") + count("SELECT COUNT(*) FROM rocpd_sample");
    let counters = count("SELECT COUNT(*) FROM (SELECT DISTINCT event_id, pmc_id FROM rocpd_pmc_event)");
    assert!(count("SELECT COUNT(*) FROM rocpd_pmc_event") > counters, "the sample has per-dimension rows");

    let conv = dir.0.join("conv");
    let (db_s, conv_s) = (db.display().to_string(), conv.display().to_string());
    let run = rocprof_e2e::run(&stage.cli(), &["convert", &db_s, "-f", "csv", "json", "pftrace", "-d", &conv_s], &[]);
    assert!(run.status.success(), "{}", run.transcript());
    let files = csv_files(&conv);
    let expected = [
        ("out_hip_api_trace.csv", hip),
        ("out_marker_api_trace.csv", markers),
        ("out_kernel_trace.csv", count("SELECT COUNT(*) FROM rocpd_kernel_dispatch")),
        ("out_counter_collection.csv", counters),
        ("out_memory_copy_trace.csv", count("SELECT COUNT(*) FROM rocpd_memory_copy")),
        (
            "out_memory_allocation_trace.csv",
            count("SELECT COUNT(*) FROM rocpd_memory_allocate WHERE level != 'SCRATCH'"),
        ),
        ("out_scratch_memory_trace.csv", count("SELECT COUNT(*) FROM rocpd_memory_allocate WHERE level = 'SCRATCH'")),
    ];
    for (name, n) in expected {
        assert!(n > 0, "{name}: the sample has rows of this kind");
        assert_eq!(rows(&files, name), n, "{name}:\n{}", files.get(name).map_or("(missing)", String::as_str));
    }
    // Counter values: the sum of the counter's per-dimension rows.
    let sums: Vec<f64> = {
        let mut st = conn
            .prepare("SELECT SUM(value) FROM rocpd_pmc_event GROUP BY event_id, pmc_id ORDER BY event_id, pmc_id")
            .unwrap();
        st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let csv = rocprof_e2e::read_csv(&conv.join("out_counter_collection.csv"));
    let values: Vec<f64> = csv.rows.iter().map(|r| r["Counter_Value"].parse().unwrap()).collect();
    assert_eq!(values, sums);
    // The ROCTx range and mark are named by their messages.
    assert!(
        files["out_marker_api_trace.csv"].lines().skip(1).all(|l| !l.contains("\"roctx")),
        "{}",
        files["out_marker_api_trace.csv"]
    );
    let doc = valid_json(&conv.join("out_results.json"));
    assert_eq!(doc["rocprofiler-sdk-tool"][0]["buffer_records"]["hip_api"].as_array().map(Vec::len), Some(hip));
    assert_eq!(pftrace_slices(&conv.join("out_results.pftrace")).get("kernel_dispatch"), Some(&3));
}
