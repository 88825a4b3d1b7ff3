//! Every output format from one run (`-f pftrace json rocpd csv`), checked with the readers users
//! have: Perfetto's trace processor (`../shared/tools/perfetto-check`) and Perfetto's canonical
//! schema for `.pftrace`, the JSON schema for `results.json`, SQLite for rocpd; and the
//! command-line errors about formats.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use perfetto_protos::trace::Trace as PfTrace;
use perfetto_protos::track_event::track_event;
use protobuf::Message as _;
use rocprof_e2e::{db_kernels, find_one, profile, read_csv, scratch, stage, Run};
use rocprof_writers::json_schema::{validate, RESULTS_SCHEMA};
use serde_json::Value;

/// Slices per category name in a `.pftrace`, decoded with `perfetto_protos`.
pub(crate) fn pftrace_slices(path: &Path) -> HashMap<String, usize> {
    let trace = PfTrace::parse_from_bytes(&std::fs::read(path).unwrap()).expect("a Perfetto trace");
    let mut cats: HashMap<u64, String> = HashMap::new();
    let mut out = HashMap::new();
    for p in &trace.packet {
        if let Some(d) = p.interned_data.as_ref() {
            for c in &d.event_categories {
                cats.insert(c.iid(), c.name().to_string());
            }
        }
        if p.has_track_event() && p.track_event().type_() == track_event::Type::TYPE_SLICE_BEGIN {
            for c in &p.track_event().category_iids {
                *out.entry(cats.get(c).cloned().unwrap_or_default()).or_insert(0) += 1;
            }
        }
    }
    out
}

/// The annotations of the `run_health` instant event(s) in a `.pftrace`, decoded with
/// `perfetto_protos`: one map per process, in file order.
pub(crate) fn pftrace_run_health(path: &Path) -> Vec<std::collections::BTreeMap<String, u64>> {
    let trace = PfTrace::parse_from_bytes(&std::fs::read(path).unwrap()).expect("a Perfetto trace");
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut out = Vec::new();
    for p in &trace.packet {
        if let Some(d) = p.interned_data.as_ref() {
            for n in &d.event_names {
                names.insert(n.iid(), n.name().to_string());
            }
        }
        if !p.has_track_event() {
            continue;
        }
        let e = p.track_event();
        if e.type_() != track_event::Type::TYPE_INSTANT
            || names.get(&e.name_iid()).map(String::as_str) != Some("run_health")
        {
            continue;
        }
        out.push(e.debug_annotations.iter().map(|a| (a.name().to_string(), a.uint_value())).collect());
    }
    out
}

/// Runs `../shared/tools/perfetto-check/check.sh --strict` on `trace` and returns its report;
/// fails the test when the trace processor reports import errors.
pub(crate) fn perfetto_check(test: &str, trace: &Path) -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/perfetto-check/check.sh");
    if !script.exists() {
        rocprof_test_inputs::skip_or_fail(test, format!("{} not found", script.display()));
        return None;
    }
    let out = Command::new("bash").arg(&script).arg(trace).arg("--strict").output().expect("run perfetto-check");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        rocprof_test_inputs::skip_or_fail(test, format!("perfetto-check could not set up:\n{text}"));
        return None;
    }
    assert!(out.status.success(), "perfetto-check rejected {}:\n{text}", trace.display());
    Some(text)
}

/// Runs perfetto-check `--strict` on `trace` with the `-q` SQL `queries`, each of whose rows is
/// one `name=value` string, and returns those figures (the check must accept the trace).
pub(crate) fn perfetto_figures(test: &str, trace: &Path, queries: &[&str]) -> Option<HashMap<String, i64>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/perfetto-check/check.sh");
    if !script.exists() {
        rocprof_test_inputs::skip_or_fail(test, format!("{} not found", script.display()));
        return None;
    }
    let mut cmd = Command::new("bash");
    cmd.arg(&script).arg(trace).arg("--strict");
    for q in queries {
        cmd.arg("-q").arg(q);
    }
    let out = cmd.output().expect("run perfetto-check");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        rocprof_test_inputs::skip_or_fail(test, format!("perfetto-check could not set up:\n{text}"));
        return None;
    }
    assert!(out.status.success(), "perfetto-check rejected {}:\n{text}", trace.display());
    Some(
        text.lines()
            .filter_map(|l| l.trim().split_once('='))
            .filter(|(k, _)| !k.contains(' '))
            .filter_map(|(k, v)| Some((k.to_string(), v.trim().parse().ok()?)))
            .collect(),
    )
}

/// Runs `../shared/tools/otf2-check/check.sh` (the OTF2 reference reader) on `anchor` and returns
/// its report; fails the test when the archive is rejected.
pub(crate) fn otf2_check(test: &str, anchor: &Path) -> Option<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/otf2-check/check.sh");
    if !script.exists() {
        rocprof_test_inputs::skip_or_fail(test, format!("{} not found", script.display()));
        return None;
    }
    let out = Command::new("bash").arg(&script).arg(anchor).output().expect("run otf2-check");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        rocprof_test_inputs::skip_or_fail(test, format!("otf2-check could not set up:\n{text}"));
        return None;
    }
    assert!(out.status.success(), "otf2-check rejected {}:\n{text}", anchor.display());
    Some(text)
}

/// Parses `results.json` and checks it against `schemas/json/results.schema.json` and AMD's
/// schema of rocprofv3's `results.json` (rocprofiler-sdk `source/docs/rocprofv3-schema.json`, read
/// from the ROCm/rocm-systems mirror named by `ROCPD_MIRROR` when set; never copied into the repository).
pub(crate) fn valid_json(path: &Path) -> Value {
    static AMD_SCHEMA: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let amd = AMD_SCHEMA.get_or_init(|| rocprof_test_inputs::amd_results_schema("e2e json: AMD's schema")).as_deref();
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    for (name, text) in [("ours", Some(RESULTS_SCHEMA)), ("AMD's", amd)] {
        let Some(text) = text else { continue };
        let schema: Value = serde_json::from_str(text).unwrap();
        let errors = validate(&schema, &doc, 20);
        assert!(errors.is_empty(), "{} violates {name} schema:\n{}", path.display(), errors.join("\n"));
    }
    doc
}

fn run_formats(test: &str, formats: &[&str], n: u64) -> Option<(Run, PathBuf)> {
    let stage = stage(test)?;
    let app = stage.fixture("vector_add", test)?;
    let out = scratch(test);
    let out_s = out.display().to_string();
    let mut args = vec!["--simulate", "gfx942", "--kernel-trace", "-d", &out_s, "-o", "run", "-f"];
    args.extend_from_slice(formats);
    let n_s = n.to_string();
    let run = profile(&stage, &args, &app, &[&n_s], &[]);
    assert!(run.status.success(), "{test}: rocprof-rs failed:\n{}", run.transcript());
    Some((run, out))
}

#[test]
fn one_run_writes_every_format_with_every_dispatch() {
    let test = "one_run_writes_every_format_with_every_dispatch";
    let Some((_, out)) = run_formats(test, &["pftrace", "json", "otf2", "rocpd", "csv"], 50) else { return };
    let names: Vec<String> = {
        let mut v: Vec<String> =
            std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    assert_eq!(
        names,
        [
            "run_agent_info.csv",
            "run_kernel_trace.csv",
            "run_results",
            "run_results.db",
            "run_results.def",
            "run_results.json",
            "run_results.otf2",
            "run_results.pftrace",
            "run_run_health.csv"
        ]
    );
    // The run's health (rocpd metadata, run_health.csv) says nothing was lost.
    let health = std::fs::read_to_string(out.join("run_run_health.csv")).unwrap();
    assert!(health.contains("\n\"lost_total\",0\n") && health.contains("\n\"clean_exit\",1\n"), "{health}");
    if let Some(report) = otf2_check(test, &out.join("run_results.otf2")) {
        assert!(report.contains("Enter=50 Leave=50"), "{report}");
        assert!(report.contains("== events total: 100"), "{report}");
    }

    let pftrace = out.join("run_results.pftrace");
    assert_eq!(pftrace_slices(&pftrace).get("kernel_dispatch"), Some(&50));
    if let Some(report) = perfetto_check(test, &pftrace) {
        // 50 kernel slices on the queue track, plus the run_health instant on the process track.
        assert!(report.contains("== slices: total=51 unfinished=0 unnamed=0"), "{report}");
        assert!(
            report.lines().any(|l| l.contains("COMPUTE Agent [1] QUEUE [0] GPU") && l.trim_end().ends_with(" 50")),
            "{report}"
        );
        assert!(report.lines().any(|l| l.trim_start().starts_with("run_health ")), "{report}");
    }

    let doc = valid_json(&out.join("run_results.json"));
    let p = &doc["rocprofiler-sdk-tool"][0];
    let kd = p["buffer_records"]["kernel_dispatch"].as_array().unwrap();
    assert_eq!(kd.len(), 50);
    let ids: Vec<u64> = kd.iter().map(|r| r["dispatch_info"]["dispatch_id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (1..=50).collect::<Vec<_>>());
    let kid = kd[0]["dispatch_info"]["kernel_id"].as_u64().unwrap() as usize;
    assert_eq!(p["kernel_symbols"][kid]["formatted_kernel_name"], "vector_add");

    let db = db_kernels(&find_one(&out, ".db"));
    assert_eq!(db.len(), 50);
    let csv = read_csv(&out.join("run_kernel_trace.csv"));
    assert_eq!(csv.rows.len(), 50);
    // The same dispatches everywhere: JSON start times equal the database's.
    let json_starts: Vec<u64> = kd.iter().map(|r| r["start_timestamp"].as_u64().unwrap()).collect();
    let db_starts: Vec<u64> = db.iter().map(|k| k.start).collect();
    assert_eq!(json_starts, db_starts);
}

#[test]
fn an_unknown_format_is_a_one_line_error_before_the_application_starts() {
    let test = "an_unknown_format_is_a_one_line_error_before_the_application_starts";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = scratch(test);
    let out_s = out.display().to_string();
    let run = profile(&stage, &["--simulate", "gfx942", "-d", &out_s, "-f", "csv", "xml"], &app, &["3"], &[]);
    assert_eq!(run.status.code(), Some(2), "{}", run.transcript());
    assert_eq!(
        run.stderr.trim(),
        "rocprof-rs: error: unknown output format 'xml' (supported: csv, json, otf2, pftrace, rocpd)"
    );
    assert!(!run.stdout.contains("vector_add"), "the application ran:\n{}", run.transcript());
}

#[test]
fn convert_of_the_database_matches_the_direct_outputs() {
    let test = "convert_of_the_database_matches_the_direct_outputs";
    let Some((_, out)) = run_formats(test, &["rocpd", "pftrace", "json", "csv"], 30) else { return };
    let Some(stage) = stage(test) else { return };
    let conv = out.join("converted");
    let conv_s = conv.display().to_string();
    let db = out.join("run_results.db").display().to_string();
    let run =
        rocprof_e2e::run(&stage.cli(), &["convert", &db, "-f", "pftrace", "json", "csv", "otf2", "-d", &conv_s], &[]);
    assert!(run.status.success(), "{}", run.transcript());
    // AMD's rocpd convert names: <OUT>/out_<name>.
    let direct = pftrace_slices(&out.join("run_results.pftrace"));
    let converted = pftrace_slices(&conv.join("out_results.pftrace"));
    assert_eq!(converted, direct);
    assert_eq!(converted.get("kernel_dispatch"), Some(&30));
    perfetto_check(test, &conv.join("out_results.pftrace"));

    let a = valid_json(&out.join("run_results.json"));
    let b = valid_json(&conv.join("out_results.json"));
    let records = |d: &Value| d["rocprofiler-sdk-tool"][0]["buffer_records"]["kernel_dispatch"].clone();
    assert_eq!(records(&b), records(&a), "the same dispatch records, field for field");
    assert_eq!(b["rocprofiler-sdk-tool"][0]["kernel_symbols"], a["rocprofiler-sdk-tool"][0]["kernel_symbols"]);

    let direct = std::fs::read_to_string(out.join("run_kernel_trace.csv")).unwrap();
    let converted = std::fs::read_to_string(conv.join("out_kernel_trace.csv")).unwrap();
    assert_eq!(converted, direct, "kernel_trace.csv identical");
    if let Some(report) = otf2_check(test, &conv.join("out_results.otf2")) {
        assert!(report.contains("Enter=30 Leave=30"), "{report}");
    }
    let agents = read_csv(&conv.join("out_agent_info.csv"));
    assert_eq!(agents.rows.len(), read_csv(&out.join("run_agent_info.csv")).rows.len());
}

#[test]
fn convert_merges_several_databases_into_one_output() {
    let test = "convert_merges_several_databases_into_one_output";
    let Some((_, a)) = run_formats(test, &["rocpd"], 4) else { return };
    let Some((_, b)) = run_formats(&format!("{test}-b"), &["rocpd"], 6) else { return };
    let Some(stage) = stage(test) else { return };
    let conv = scratch(&format!("{test}-out"));
    let conv_s = conv.display().to_string();
    let (da, db) = (a.join("run_results.db").display().to_string(), b.join("run_results.db").display().to_string());
    let run = rocprof_e2e::run(
        &stage.cli(),
        &["convert", "-i", &da, &db, "-f", "perfetto", "json", "csv", "-d", &conv_s, "-o", "ranks"],
        &[],
    );
    assert!(run.status.success(), "{}", run.transcript());
    assert_eq!(pftrace_slices(&conv.join("ranks_results.pftrace")).get("kernel_dispatch"), Some(&10));
    perfetto_check(test, &conv.join("ranks_results.pftrace"));
    let doc = valid_json(&conv.join("ranks_results.json"));
    let procs = doc["rocprofiler-sdk-tool"].as_array().unwrap();
    let counts: Vec<usize> =
        procs.iter().map(|p| p["buffer_records"]["kernel_dispatch"].as_array().unwrap().len()).collect();
    assert_eq!(counts, [4, 6]);
    assert_eq!(read_csv(&conv.join("ranks_kernel_trace.csv")).rows.len(), 10);
}

#[test]
fn convert_errors_are_one_line() {
    let test = "convert_errors_are_one_line";
    let Some(stage) = stage(test) else { return };
    let dir = scratch(test);
    let not_db = dir.join("x.db");
    std::fs::write(&not_db, b"not a database").unwrap();
    let run = rocprof_e2e::run(&stage.cli(), &["convert", &not_db.display().to_string(), "-f", "csv"], &[]);
    assert_eq!(run.status.code(), Some(1), "{}", run.transcript());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.transcript());
    assert!(run.stderr.contains(&not_db.display().to_string()), "{}", run.transcript());
    let run = rocprof_e2e::run(&stage.cli(), &["convert", &not_db.display().to_string(), "-f", "xml"], &[]);
    assert_eq!(run.status.code(), Some(2), "{}", run.transcript());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.transcript());
}

/// What a `.pftrace` says about counters, decoded with `perfetto_protos`: samples per counter
/// track name, and every kernel slice's numeric debug annotations that are not the fixed ones
/// (the counter values), as (annotation name, value) in slice order.
fn pftrace_counters(path: &Path) -> (HashMap<String, usize>, Vec<(String, f64)>) {
    let trace = PfTrace::parse_from_bytes(&std::fs::read(path).unwrap()).expect("a Perfetto trace");
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut samples = HashMap::new();
    let mut values = Vec::new();
    for p in &trace.packet {
        if p.has_track_descriptor() {
            let d = p.track_descriptor();
            if d.counter.is_some() {
                names.insert(d.uuid(), d.name().to_string());
            }
        }
        if !p.has_track_event() {
            continue;
        }
        let e = p.track_event();
        match e.type_() {
            track_event::Type::TYPE_COUNTER => {
                let name = names.get(&e.track_uuid()).cloned().expect("a counter on a declared counter track");
                *samples.entry(name).or_insert(0) += 1;
            }
            track_event::Type::TYPE_SLICE_BEGIN => {
                for a in &e.debug_annotations {
                    if a.has_name() && a.has_double_value() {
                        values.push((a.name().to_string(), a.double_value()));
                    }
                }
            }
            _ => {}
        }
    }
    (samples, values)
}

#[test]
fn counters_reach_every_format_with_the_csv_values() {
    let test = "counters_reach_every_format_with_the_csv_values";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = scratch(test);
    let out_s = out.display().to_string();
    let args = [
        "--simulate",
        "gfx942",
        "--kernel-trace",
        "--pmc",
        "SQ_WAVES",
        "GRBM_COUNT",
        "-d",
        &out_s,
        "-o",
        "run",
        "-f",
        "csv",
        "json",
        "pftrace",
        "otf2",
    ];
    let run = profile(&stage, &args, &app, &["20"], &[]);
    assert!(run.status.success(), "{}", run.transcript());

    // The reference: counter_collection.csv, (dispatch id, counter) -> value.
    let csv = read_csv(&out.join("run_counter_collection.csv"));
    assert_eq!(csv.rows.len(), 40, "20 dispatches x 2 counters");
    let mut expected: HashMap<(u64, String), f64> = HashMap::new();
    for r in &csv.rows {
        let key = (r["Dispatch_Id"].parse().unwrap(), r["Counter_Name"].clone());
        expected.insert(key, r["Counter_Value"].parse().unwrap());
    }
    assert!(expected.values().any(|v| *v > 0.0), "{expected:?}");
    let expected_sorted = |name: &str| {
        let mut v: Vec<f64> = expected.iter().filter(|(k, _)| k.1 == name).map(|(_, v)| *v).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let waves = expected_sorted("SQ_WAVES");
    let grbm = expected_sorted("GRBM_COUNT");

    // JSON: the two counters, and one counter_collection record per dispatch with the CSV values.
    let doc = valid_json(&out.join("run_results.json"));
    let p = &doc["rocprofiler-sdk-tool"][0];
    let counters = p["counters"].as_array().unwrap();
    let mut counter_names: HashMap<u64, String> = HashMap::new();
    for c in counters {
        counter_names.insert(c["id"]["handle"].as_u64().unwrap(), c["name"].as_str().unwrap().to_string());
    }
    let mut sorted_names: Vec<&String> = counter_names.values().collect();
    sorted_names.sort();
    assert_eq!(sorted_names, ["GRBM_COUNT", "SQ_WAVES"]);
    let cc = p["callback_records"]["counter_collection"].as_array().unwrap();
    assert_eq!(cc.len(), 20);
    for r in cc {
        let id = r["dispatch_data"]["dispatch_info"]["dispatch_id"].as_u64().unwrap();
        let records = r["records"].as_array().unwrap();
        assert_eq!(records.len(), 2);
        for v in records {
            let name = &counter_names[&v["counter_id"]["handle"].as_u64().unwrap()];
            assert_eq!(v["value"].as_f64(), expected.get(&(id, name.clone())).copied(), "dispatch {id} {name}");
        }
    }

    // Perfetto: a PMC counter track per counter with 5 points per dispatch plus the two 0 points
    // around all of them, and each kernel slice annotated with its values.
    let pftrace = out.join("run_results.pftrace");
    let (samples, values) = pftrace_counters(&pftrace);
    assert_eq!(samples.get("Agent [1] PMC SQ_WAVES"), Some(&102), "{samples:?}");
    assert_eq!(samples.get("Agent [1] PMC GRBM_COUNT"), Some(&102), "{samples:?}");
    let slice_values = |name: &str| {
        let mut v: Vec<f64> = values.iter().filter(|(n, _)| n == name).map(|(_, v)| *v).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    assert_eq!(slice_values("SQ_WAVES"), waves);
    assert_eq!(slice_values("GRBM_COUNT"), grbm);
    if let Some(report) = perfetto_check(test, &pftrace) {
        let max = waves.last().copied().unwrap();
        assert!(
            report.lines().any(|l| l.contains("Agent [1] PMC SQ_WAVES")
                && l.contains(" 102 ")
                && l.contains(&format!("{max:.1}"))),
            "{report}"
        );
    }

    // OTF2: one metric per counter, two samples (value, then 0) per dispatch.
    if let Some(report) = otf2_check(test, &out.join("run_results.otf2")) {
        for name in ["SQ_WAVES", "GRBM_COUNT"] {
            assert!(
                report.lines().any(|l| l.trim_start().starts_with(name)
                    && l.contains("ABSOLUTE_NEXT")
                    && l.trim_end().ends_with(" 40")),
                "{name}:\n{report}"
            );
        }
        // 20 kernels (ENTER + LEAVE) and 2 counters x 20 dispatches x 2 samples.
        assert!(report.contains("== events total: 120"), "{report}");
    }
}
