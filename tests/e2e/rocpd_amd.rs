//! AMD's own rocpd reader (`../shared/tools/rocpd-check`: the `rocpd` Python package's `query` and
//! `summary`) on a database our writer wrote in a real profiled run: every query it has must run.
//!
//! AMD's package comes from a git dir of ROCm/rocm-systems named by `ROCPD_MIRROR`; CI has no such
//! mirror, so there the test says why it does not run (`skip_optional`). `convert` is left out:
//! AMD implements it in a C++ extension that cannot be built without ROCm.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use rocprof_e2e::{profile, scratch, stage};

/// The verdicts of `run.sh`'s shim-mode checks by check name, and its whole report.
pub(crate) fn rocpd_check(test: &str, db: &Path) -> Option<(BTreeMap<String, String>, String)> {
    let Some(mirror) = std::env::var_os("ROCPD_MIRROR") else {
        rocprof_test_inputs::skip_optional(test, "ROCPD_MIRROR (a git dir of ROCm/rocm-systems) is not set");
        return None;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/rocpd-check/run.sh");
    if !script.exists() {
        rocprof_test_inputs::skip_or_fail(test, format!("{} not found", script.display()));
        return None;
    }
    let out = Command::new("bash").arg(&script).arg(db).env("ROCPD_MIRROR", mirror).output().expect("run rocpd-check");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_ne!(out.status.code(), Some(2), "rocpd-check could not set up:\n{text}");
    // Lines: `<check name, padded to 34> <mode> <ok|FAIL> <reason>`.
    let mut verdicts = BTreeMap::new();
    for line in text.lines() {
        if line.len() < 46 || !line.is_char_boundary(34) {
            continue;
        }
        let (name, rest) = line.split_at(34);
        let mut words = rest.split_whitespace();
        if words.next() == Some("shim") {
            let verdict = words.collect::<Vec<_>>().join(" ");
            verdicts.insert(name.trim().to_string(), verdict);
        }
    }
    assert!(!verdicts.is_empty(), "no shim-mode checks in rocpd-check's report:\n{text}");
    Some((verdicts, text))
}

#[test]
fn amds_rocpd_reader_runs_every_query_on_our_database() {
    let test = "amds_rocpd_reader_runs_every_query_on_our_database";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = scratch(test);
    let out_s = out.display().to_string();
    let args = ["--simulate", "gfx942", "--kernel-trace", "--pmc", "SQ_WAVES", "-d", &out_s, "-o", "run"];
    let run = profile(&stage, &args, &app, &["50"], &[]);
    assert!(run.status.success(), "{}", run.transcript());
    let db = out.join("run_results.db");
    let Some((verdicts, report)) = rocpd_check(test, &db) else { return };

    // Contents this run cannot have: HIP API regions (vector_add calls HSA directly) and memory
    // copies. Those two queries must still run; only their expected rows are absent.
    let absent = ["query regions_and_samples", "query memory views"];
    for (name, verdict) in &verdicts {
        if name.starts_with("convert") {
            continue;
        }
        if absent.contains(&name.as_str()) {
            assert!(verdict.starts_with("FAIL rc=0, expected"), "{name}: the query itself failed: {verdict}\n{report}");
        } else {
            assert_eq!(verdict, "ok", "{name}\n{report}");
        }
    }
    for must in [
        "query rocpd_metadata",
        "query kernels view",
        "query counters_collection",
        "query top / busy",
        "query -> csv export",
        "query multi-db merge",
        "query time window",
        "summary (console)",
        "summary csv+domain+by-rank",
    ] {
        assert_eq!(verdicts.get(must).map(String::as_str), Some("ok"), "{must}\n{report}");
    }
}
