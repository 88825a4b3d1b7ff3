//! `--sys-trace -f pftrace csv`: the Perfetto trace carries the same API calls and copies as the
//! CSV files, and a flow from each kernel's launching API call to the kernel, counted by Perfetto's
//! own trace processor (`../shared/tools/perfetto-check -q`) on the HSA fixtures (`vector_add`,
//! `async_copy`, `scratch`) and, where hipcc is installed (always under CI), on the HIP fixture;
//! and the memory counter tracks' peaks (bytes in flight, scratch held) as the CSV rows give them;
//! and `rocprof-rs convert` of the run's database gives a trace with the very same figures.

use std::collections::HashMap;
use std::path::Path;

use rocprof_e2e::{find_files, find_one, profile, read_csv, scratch, stage, Csv, ScratchGuard, Stage};

/// SQL whose rows are single `name=value` strings, parsed from the check's report.
const QUERIES: [&str; 7] = [
    "select 'slices_' || coalesce(category, 'none') || '=' || count(*) as r from slice group by category",
    "select 'api_kernel_flows=' || count(*) as r from flow f join slice a on f.slice_out = a.id \
     join slice k on f.slice_in = k.id where a.category like '%_api' and k.category = 'kernel_dispatch'",
    "select 'api_copy_flows=' || count(*) as r from flow f join slice a on f.slice_out = a.id \
     join slice k on f.slice_in = k.id where a.category like '%_api' and k.category = 'memory_copy'",
    "select 'kernels_without_one_call=' || count(*) as r from slice k where k.category = 'kernel_dispatch' and \
     (select count(*) from flow f join slice a on f.slice_out = a.id \
      where f.slice_in = k.id and a.category like '%_api') != 1",
    "select 'flows_across_ids=' || count(*) as r from flow f join slice a on f.slice_out = a.id \
     join slice k on f.slice_in = k.id join args x on x.arg_set_id = a.arg_set_id and x.key = 'debug.corr_id' \
     join args y on y.arg_set_id = k.arg_set_id and y.key = 'debug.corr_id' where x.int_value != y.int_value",
    "select 'copy_bytes_max=' || coalesce(cast(max(c.value) as int), 0) as r from counter c \
     join counter_track t on c.track_id = t.id where t.name like 'COPY BYTES to %'",
    "select 'scratch_max=' || coalesce(cast(max(c.value) as int), 0) as r from counter c \
     join counter_track t on c.track_id = t.id where t.name like 'SCRATCH MEMORY on %'",
];

/// Runs perfetto-check `--strict` with [`QUERIES`] on `trace`: 0 import errors, and the
/// `name=value` figures the queries print.
fn trace_processor_counts(test: &str, trace: &Path) -> Option<HashMap<String, u64>> {
    let figures = crate::formats::perfetto_figures(test, trace, &QUERIES)?;
    assert!(figures.contains_key("api_kernel_flows"), "no query output for {}", trace.display());
    Some(figures.into_iter().map(|(k, v)| (k, u64::try_from(v).expect("a count"))).collect())
}

/// Data rows of the CSV file ending in `suffix`, 0 when the run wrote none.
fn csv_rows(dir: &Path, suffix: &str) -> u64 {
    match find_files(dir, suffix).as_slice() {
        [] => 0,
        [one] => read_csv(one).rows.len() as u64,
        many => panic!("several {suffix}: {many:?}"),
    }
}

/// `rocprof-rs --simulate gfx90a --sys-trace -f pftrace csv` on `app args`; checks the trace
/// against the CSV files and returns the kernel rows and the trace processor's figures.
fn sys_trace_matches_the_csv(
    test: &str,
    stage: &Stage,
    app: &Path,
    args: &[&str],
) -> (u64, HashMap<String, u64>, Option<Csv>) {
    let out = ScratchGuard(scratch(test));
    let out_s = out.0.display().to_string();
    let cli = ["--simulate", "gfx90a", "--sys-trace", "-f", "pftrace", "csv", "rocpd", "-d", &out_s, "-o", "run"];
    let run = profile(stage, &cli, app, args, &[]);
    assert!(run.status.success(), "{test}: rocprof-rs failed:\n{}", run.transcript());
    let pftrace = find_one(&out.0, "run_results.pftrace");
    let kernels = csv_rows(&out.0, "kernel_trace.csv");
    let copies = csv_rows(&out.0, "memory_copy_trace.csv");
    let scratch_rows = find_files(&out.0, "scratch_memory_trace.csv").first().map(|p| read_csv(p));
    let Some(tp) = trace_processor_counts(test, &pftrace) else { return (kernels, HashMap::new(), scratch_rows) };
    let got = |k: &str| tp.get(k).copied().unwrap_or(0);
    for (category, csv) in [
        ("hsa_api", "hsa_api_trace.csv"),
        ("hip_api", "hip_api_trace.csv"),
        ("marker_api", "marker_api_trace.csv"),
        ("kernel_dispatch", "kernel_trace.csv"),
        ("memory_copy", "memory_copy_trace.csv"),
    ] {
        assert_eq!(got(&format!("slices_{category}")), csv_rows(&out.0, csv), "{test}: {category} slices vs {csv}");
    }
    // Every event has a category (AMD's perfetto_reader sorts slice.category; a NULL fails it):
    // the process's run_health instant is in its own.
    assert_eq!(got("slices_none"), 0, "{test}: slices without a category");
    assert_eq!(got("slices_run_health"), 1, "{test}: the run_health instant");
    assert_eq!(got("api_kernel_flows"), kernels, "{test}: one flow from an API call to each kernel");
    assert_eq!(got("kernels_without_one_call"), 0, "{test}: each kernel has exactly one incoming call");
    assert_eq!(got("api_copy_flows"), copies, "{test}: one flow from an API call to each copy");
    assert_eq!(got("flows_across_ids"), 0, "{test}: flows join a call and the work of its correlation id");

    // `rocprof-rs convert` of the run's database draws the same trace.
    let conv = out.0.join("converted");
    let (db, conv_s) = (find_one(&out.0, "run_results.db").display().to_string(), conv.display().to_string());
    let run = rocprof_e2e::run(&stage.cli(), &["convert", &db, "-f", "pftrace", "-d", &conv_s], &[]);
    assert!(run.status.success(), "{test}: convert failed:\n{}", run.transcript());
    if let Some(converted) = trace_processor_counts(test, &conv.join("out_results.pftrace")) {
        assert_eq!(converted, tp, "{test}: convert vs the direct trace");
    }
    (kernels, tp, scratch_rows)
}

#[test]
fn sys_trace_pftrace_has_the_csv_api_slices_and_a_flow_to_every_kernel_hsa() {
    let test = "sys_trace_pftrace_has_the_csv_api_slices_and_a_flow_to_every_kernel_hsa";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    assert_eq!(sys_trace_matches_the_csv(test, &stage, &app, &["20"]).0, 20);
    // async_copy waits for each copy before the next: the most bytes in flight is its largest
    // copy, 4 MiB.
    let Some(app) = stage.fixture("async_copy", test) else { return };
    let (_, tp, _) = sys_trace_matches_the_csv(test, &stage, &app, &[]);
    if !tp.is_empty() {
        assert_eq!(tp["copy_bytes_max"], 4 << 20, "{test}: COPY BYTES peak");
    }
    // scratch: the SCRATCH MEMORY track peaks at the largest allocation of the CSV.
    let Some(app) = stage.fixture("scratch", test) else { return };
    let (kernels, tp, rows) = sys_trace_matches_the_csv(test, &stage, &app, &[]);
    assert_eq!(kernels, 4);
    let rows = rows.expect("scratch_memory_trace.csv");
    let largest = rows
        .rows
        .iter()
        .filter(|r| r["Operation"] == "SCRATCH_MEMORY_ALLOC")
        .map(|r| r["Allocation_Size"].parse::<u64>().unwrap())
        .max()
        .expect("scratch allocations");
    if !tp.is_empty() {
        assert_eq!(tp["scratch_max"], largest, "{test}: SCRATCH MEMORY peak");
    }
}

#[test]
fn sys_trace_pftrace_has_the_csv_api_slices_and_a_flow_to_every_kernel_hip() {
    let test = "sys_trace_pftrace_has_the_csv_api_slices_and_a_flow_to_every_kernel_hip";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    assert!(sys_trace_matches_the_csv(test, &stage, &app, &["4"]).0 >= 4, "a vadd kernel per iteration");
}
