//! `diff` on synthetic runs with known effects: what it must find, and what it must not.

use std::path::PathBuf;

use rocprof_analysis::diff::{diff_paths, DiffOptions, FailOn, Kind, Status};
use rocprof_analysis::report;

use crate::db::{add_api_calls, add_copies, add_counter, run_db, scratch};

/// `runs` databases under `dir/<side>`, seeds from `seed0`, kernel `slow` scaled by `factor`.
fn side(dir: &std::path::Path, side: &str, runs: u64, seed0: u64, slow: &str, factor: f64) -> Vec<PathBuf> {
    let d = dir.join(side);
    (0..runs)
        .map(|i| {
            let scale = |k: &str| if k == slow { factor } else { 1.0 };
            run_db(&d, &format!("run{i}"), 1000 + i as u32, 160, 0.05, seed0 + i, &scale)
        })
        .collect()
}

#[test]
fn a_ten_percent_slower_kernel_under_five_percent_jitter_is_the_only_regression() {
    let dir = scratch("ten-percent");
    let base = side(&dir, "base", 3, 1, "saxpy", 1.0);
    let head = side(&dir, "head", 3, 101, "saxpy", 1.10);
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert_eq!(r.exit_status, 1, "{}", report::terminal_table(&r, false));
    let regressions: Vec<&str> =
        r.items.iter().filter(|i| i.status == Status::Regression).map(|i| i.name.as_str()).collect();
    assert_eq!(regressions, ["saxpy"], "{}", report::terminal_table(&r, false));
    let saxpy = &r.items[0];
    assert_eq!((saxpy.kind, saxpy.domain.as_str()), (Kind::Kernel, "KERNEL_DISPATCH"));
    assert_eq!(saxpy.base.as_ref().unwrap().samples, 3 * 40);
    assert_eq!(saxpy.base.as_ref().unwrap().runs, 3);
    let change = saxpy.change_percent.unwrap();
    assert!((7.0..13.0).contains(&change), "change {change}");
    let [lo, hi] = saxpy.ci_percent.unwrap();
    assert!(lo > 0.0 && lo < change && change < hi, "CI {lo}..{hi} around {change}");
    assert!(saxpy.p_adjusted.unwrap() < 1e-6);
    assert_eq!(saxpy.test, Some("mann-whitney-u-normal"));
    assert!(r.items[1..].iter().all(|i| i.status == Status::Unchanged && !i.fails));
    assert_eq!((r.summary.items, r.summary.regressions, r.summary.unchanged), (4, 1, 3));

    // The outputs name saxpy, and only saxpy, as a regression.
    let table = report::terminal_table(&r, false);
    let lines: Vec<&str> = table.lines().filter(|l| l.starts_with("REGRESSION")).collect();
    assert_eq!(lines.len(), 1, "{table}");
    assert!(lines[0].contains("saxpy"), "{table}");
    assert!(table.ends_with("1 regression, 3 unchanged: FAIL (exit 1)\n"), "{table}");
    let md = report::markdown(&r);
    assert!(md.starts_with("## rocprof-rs performance diff: :x: 1 regression\n"), "{md}");
    let md_regressions: Vec<&str> = md.lines().filter(|l| l.starts_with("| :red_circle: regression")).collect();
    assert_eq!(md_regressions.len(), 2, "once in the notable table, once in the details:\n{md}");
    assert!(md_regressions.iter().all(|l| l.contains("`saxpy`")), "{md}");
    let junit = report::junit(&r);
    let doc = roxmltree::Document::parse(&junit).unwrap_or_else(|e| panic!("{e}\n{junit}"));
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), r.items.len());
    let failed: Vec<&str> = cases
        .iter()
        .filter(|c| c.children().any(|ch| ch.has_tag_name("failure")))
        .map(|c| c.attribute("name").unwrap())
        .collect();
    assert_eq!(failed, ["saxpy"]);
    let suite = doc.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suite.attribute("tests"), Some("4"));
    assert_eq!(suite.attribute("failures"), Some("1"));
}

#[test]
fn the_same_inputs_and_seed_give_the_same_report() {
    let dir = scratch("reproducible");
    let base = side(&dir, "base", 2, 1, "saxpy", 1.0);
    let head = side(&dir, "head", 2, 11, "saxpy", 1.03);
    let a = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    let b = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert_eq!(report::json(&a), report::json(&b));
    let c = diff_paths(&base, &head, &DiffOptions { seed: 99, ..DiffOptions::default() }).unwrap();
    assert_ne!(a.items[0].ci_percent, c.items[0].ci_percent, "another seed draws other resamples");
    assert_eq!(a.items[0].p_value, c.items[0].p_value, "the rank test does not depend on the seed");
}

#[test]
fn base_against_base_passes_and_a_two_percent_slowdown_is_below_a_five_percent_threshold() {
    let dir = scratch("no-false-alarm");
    let pool: Vec<PathBuf> = side(&dir, "pool", 8, 500, "none", 1.0);
    let mut failures = 0;
    let mut raw_significant = 0;
    let mut compared = 0;
    for k in 0..8 {
        let pick = |offs: [usize; 3]| -> Vec<PathBuf> { offs.iter().map(|o| pool[(k + o) % 8].clone()).collect() };
        let r = diff_paths(&pick([0, 1, 2]), &pick([3, 4, 5]), &DiffOptions::default()).unwrap();
        failures += usize::from(r.exit_status != 0);
        raw_significant += r.items.iter().filter(|i| i.p_value.is_some_and(|p| p < 0.05)).count();
        compared += r.summary.compared;
    }
    assert_eq!(failures, 0, "base vs base must not fail");
    // The rank test alone is calibrated: about alpha of the comparisons of identical builds are
    // "significant"; the threshold and the interval keep them from failing the job.
    assert!(raw_significant * 4 < compared, "{raw_significant} of {compared} raw p < 0.05");

    let base = side(&dir, "base2", 3, 900, "saxpy", 1.0);
    let head = side(&dir, "head2", 3, 950, "saxpy", 1.02);
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert_eq!(r.exit_status, 0, "{}", report::terminal_table(&r, false));
    let saxpy = r.items.iter().find(|i| i.name == "saxpy").unwrap();
    assert_eq!(saxpy.status, Status::Unchanged);
    // The threshold decides whether a real change matters: 10% is a regression at 5 and
    // passes at 15.
    let head = side(&dir, "head3", 3, 970, "saxpy", 1.10);
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert_eq!(r.exit_status, 1, "{}", report::terminal_table(&r, false));
    let lax = diff_paths(&base, &head, &DiffOptions { threshold_percent: 15.0, ..DiffOptions::default() }).unwrap();
    assert_eq!(lax.exit_status, 0, "{}", report::terminal_table(&lax, false));
}

#[test]
fn improvements_fail_only_with_fail_on_change_and_never_never_fails() {
    let dir = scratch("improvement");
    let base = side(&dir, "base", 3, 1, "transpose", 1.0);
    let head = side(&dir, "head", 3, 31, "transpose", 0.8);
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert_eq!(r.exit_status, 0);
    let t = r.items.iter().find(|i| i.name == "transpose").unwrap();
    assert_eq!(t.status, Status::Improvement);
    assert!(t.change_percent.unwrap() < -15.0);
    let change = diff_paths(&base, &head, &DiffOptions { fail_on: FailOn::Change, ..DiffOptions::default() }).unwrap();
    assert_eq!(change.exit_status, 1);
    let slow = side(&dir, "slow", 3, 61, "transpose", 1.5);
    let never = diff_paths(&base, &slow, &DiffOptions { fail_on: FailOn::Never, ..DiffOptions::default() }).unwrap();
    assert_eq!((never.exit_status, never.summary.regressions), (0, 1));
}

#[test]
fn kernel_filters_and_the_metric_choose_what_is_compared() {
    let dir = scratch("filters");
    let base = side(&dir, "base", 2, 1, "saxpy", 1.0);
    let head = side(&dir, "head", 2, 21, "saxpy", 1.2);
    let include = regex::Regex::new("^(vector|reduce)").unwrap();
    let r = diff_paths(&base, &head, &DiffOptions { kernel_include: Some(include), ..DiffOptions::default() }).unwrap();
    let names: Vec<&str> = r.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"vector_add") && names.contains(&"reduce_sum"), "{names:?}");
    assert_eq!(r.exit_status, 0);
    let exclude = regex::Regex::new("sax").unwrap();
    let r = diff_paths(&base, &head, &DiffOptions { kernel_exclude: Some(exclude), ..DiffOptions::default() }).unwrap();
    assert_eq!(r.items.len(), 3);
    let total = diff_paths(
        &base,
        &head,
        &DiffOptions { metric: rocprof_analysis::stats::Metric::Total, ..DiffOptions::default() },
    )
    .unwrap();
    let s = total.items.iter().find(|i| i.name == "saxpy").unwrap();
    assert_eq!(s.status, Status::Regression);
    let b = s.base.as_ref().unwrap();
    assert!((b.metric_value - b.total_per_run).abs() < 1e-6);
    assert!((b.total_per_run - b.mean * b.samples as f64 / 2.0).abs() < 1.0);
}

#[test]
fn api_calls_copies_and_counters_are_compared_when_both_sides_have_them() {
    let dir = scratch("domains");
    let base = side(&dir, "base", 2, 1, "none", 1.0);
    let head = side(&dir, "head", 2, 41, "none", 1.0);
    let jitter = |seed: u64, n: usize, mean: f64| -> Vec<u64> {
        let mut rng = rocprof_analysis::stats::Rng::new(seed);
        (0..n).map(|_| (mean * (1.0 + 0.05 * crate::db::normal(&mut rng))) as u64).collect()
    };
    for (i, db) in base.iter().enumerate() {
        add_api_calls(db, "HIP_RUNTIME_API_EXT", "hipMemcpy", &jitter(i as u64, 30, 50_000.0));
        add_api_calls(db, "HSA_CORE_API", "hsa_queue_create", &jitter(10 + i as u64, 10, 8_000.0));
        add_copies(db, "MEMORY_COPY_HOST_TO_DEVICE", &jitter(20 + i as u64, 20, 40_000.0));
        add_counter(db, "saxpy", "SQ_WAVES", 4096.0, 4);
        add_counter(db, "vector_add", "SQ_WAVES", 1024.0, 4);
    }
    for (i, db) in head.iter().enumerate() {
        add_api_calls(db, "HIP_RUNTIME_API_EXT", "hipMemcpy", &jitter(100 + i as u64, 30, 60_000.0));
        add_api_calls(db, "HSA_CORE_API", "hsa_queue_create", &jitter(110 + i as u64, 10, 8_000.0));
        add_copies(db, "MEMORY_COPY_HOST_TO_DEVICE", &jitter(120 + i as u64, 20, 40_000.0));
        add_copies(db, "MEMORY_COPY_DEVICE_TO_HOST", &jitter(130 + i as u64, 20, 40_000.0));
        add_counter(db, "saxpy", "SQ_WAVES", 8192.0, 4);
        add_counter(db, "vector_add", "SQ_WAVES", 1024.0, 4);
    }
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    let find = |kind: Kind, name: &str| r.items.iter().find(|i| i.kind == kind && i.name == name).unwrap();
    let memcpy = find(Kind::Api, "hipMemcpy");
    assert_eq!((memcpy.domain.as_str(), memcpy.status), ("HIP_API", Status::Regression));
    assert!((15.0..25.0).contains(&memcpy.change_percent.unwrap()));
    assert_eq!(find(Kind::Api, "hsa_queue_create").domain, "HSA_API");
    assert_eq!(find(Kind::Api, "hsa_queue_create").status, Status::Unchanged);
    assert_eq!(find(Kind::MemoryCopy, "MEMORY_COPY_HOST_TO_DEVICE").status, Status::Unchanged);
    assert_eq!(find(Kind::MemoryCopy, "MEMORY_COPY_DEVICE_TO_HOST").status, Status::OnlyInHead);
    let waves: Vec<_> = r.items.iter().filter(|i| i.kind == Kind::Counter).collect();
    assert_eq!(waves.len(), 2);
    let saxpy_waves = waves.iter().find(|i| i.kernel.as_deref() == Some("saxpy")).unwrap();
    assert_eq!(saxpy_waves.name, "SQ_WAVES");
    assert_eq!(saxpy_waves.status, Status::Changed);
    assert_eq!(saxpy_waves.base.as_ref().unwrap().median, 4096.0, "summed over the 4 instances");
    assert_eq!(saxpy_waves.head.as_ref().unwrap().median, 8192.0);
    assert!(!saxpy_waves.fails, "a changed counter is not a regression");
    assert_eq!(saxpy_waves.display_name(), "SQ_WAVES (saxpy)");
    let va_waves = waves.iter().find(|i| i.kernel.as_deref() == Some("vector_add")).unwrap();
    assert_eq!(va_waves.status, Status::Unchanged);
    // Only hipMemcpy fails by default; --fail-on change adds the counter and the new direction.
    assert_eq!(r.summary.failing, 1);
    let change = diff_paths(&base, &head, &DiffOptions { fail_on: FailOn::Change, ..DiffOptions::default() }).unwrap();
    assert_eq!(change.summary.failing, 3);
    // Order: regressions, changed, ..., one-sided, ..., unchanged.
    assert_eq!(r.items[0].name, "hipMemcpy");
    assert_eq!(r.items[1].status, Status::Changed);
}

#[test]
fn too_few_samples_are_listed_but_not_judged() {
    let dir = scratch("few");
    let base = vec![run_db(&dir.join("b"), "r", 1, 8, 0.05, 1, &|_| 1.0)];
    let head = vec![run_db(&dir.join("h"), "r", 2, 8, 0.05, 2, &|k| if k == "saxpy" { 2.0 } else { 1.0 })];
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    assert!(r.items.iter().all(|i| i.status == Status::InsufficientSamples), "2 dispatches per kernel");
    assert_eq!(r.exit_status, 0);
    let junit = report::junit(&r);
    let doc = roxmltree::Document::parse(&junit).unwrap();
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("skipped")).count(), 4);
    let r = diff_paths(&base, &head, &DiffOptions { min_samples: 2, ..DiffOptions::default() }).unwrap();
    let saxpy = r.items.iter().find(|i| i.name == "saxpy").unwrap();
    assert_eq!(saxpy.test, Some("mann-whitney-u-exact"));
    assert_eq!(saxpy.p_value, Some(1.0 / 3.0), "2 vs 2 separated: 2 / C(4,2)");
    assert_eq!(saxpy.status, Status::Unchanged, "p = 0.33 is no evidence, however large the change");
}

#[test]
fn the_json_report_follows_its_schema() {
    let dir = scratch("schema");
    let base = side(&dir, "base", 2, 1, "saxpy", 1.0);
    let head = side(&dir, "head", 2, 21, "saxpy", 1.2);
    add_counter(&base[0], "saxpy", "SQ_WAVES", 4096.0, 1);
    add_counter(&base[1], "saxpy", "SQ_WAVES", 4096.0, 1);
    add_counter(&head[0], "saxpy", "SQ_WAVES", 4096.0, 1);
    add_copies(&head[1], "MEMORY_COPY_HOST_TO_DEVICE", &[1000, 2000]);
    let r = diff_paths(&base, &head, &DiffOptions::default()).unwrap();
    let text = report::json(&r);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let schema_text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/diff/report.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap();
    let mut errors = Vec::new();
    crate::schema_check::validate(&schema, &schema, &value, "$", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    assert_eq!(value["items"].as_array().unwrap().len(), value["summary"]["items"].as_u64().unwrap() as usize);
    // Kinds of every status that occurred are present; a counter carries its kernel.
    assert!(value["items"].as_array().unwrap().iter().any(|i| i["kind"] == "counter" && i["kernel"] == "saxpy"));
}
