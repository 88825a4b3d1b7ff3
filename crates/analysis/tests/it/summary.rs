//! `summary` from databases: the same tables `-S` / `-D` print at the end of a run.

use rocprof_analysis::rocpd::Database;
use rocprof_analysis::summary::{Summary, SummaryOptions};
use rocprof_writers::rocpd::RocpdWriter;
use rocprof_writers::stats::{kernel_dispatch_stats, summary_table, SummaryUnit};
use rocprof_writers::{write_trace, OutputLocation, Progress, Writer};

use crate::db::{add_api_calls, add_copies, scratch};

fn opts(overall: bool, per_domain: bool, groups: &[&str], unit: SummaryUnit) -> SummaryOptions {
    SummaryOptions {
        overall,
        per_domain,
        groups: groups.iter().map(|g| regex::Regex::new(g).unwrap()).collect(),
        unit,
        indent: 4,
    }
}

#[test]
fn the_summary_of_a_database_is_the_table_dash_s_printed_for_its_trace() {
    let dir = scratch("summary-s");
    let trace = rocprof_writers::synthetic::trace(1234);
    let mut writers: Vec<Box<dyn Writer>> = vec![Box::new(RocpdWriter::new(OutputLocation::new(&dir, "s")))];
    let db = write_trace(&trace, &mut writers, Progress::Hidden).unwrap().remove(0);
    let stats = kernel_dispatch_stats(&trace);
    let mut s = Summary::default();
    assert_eq!(s.add(&Database::open(&db).unwrap()).unwrap(), 1234);
    for unit in [SummaryUnit::Nsec, SummaryUnit::Usec] {
        assert_eq!(s.render(&opts(true, false, &[], unit)), summary_table("SUMMARY", &[&stats], unit, 4));
    }
    assert_eq!(
        s.render(&opts(false, true, &[], SummaryUnit::Nsec)),
        summary_table("KERNEL_DISPATCH SUMMARY", &[&stats], SummaryUnit::Nsec, 4)
    );
}

#[test]
fn per_domain_tables_come_in_rocprofv3_order_and_groups_list_their_domains() {
    let dir = scratch("summary-d");
    let db = crate::db::run_db(&dir, "d", 7, 40, 0.0, 1, &|_| 1.0);
    add_api_calls(&db, "HIP_RUNTIME_API_EXT", "hipMemcpy", &[100, 300]);
    add_api_calls(&db, "HSA_CORE_API", "hsa_init", &[50]);
    add_copies(&db, "MEMORY_COPY_HOST_TO_DEVICE", &[1000]);
    let mut s = Summary::default();
    assert_eq!(s.add(&Database::open(&db).unwrap()).unwrap(), 44);
    let text = s.render(&opts(true, true, &["HIP_API|HSA_API", "KERNEL.*"], SummaryUnit::Nsec));
    let titles: Vec<&str> = text.lines().filter(|l| l.contains("ROCPROFV3")).map(str::trim).collect();
    assert_eq!(
        titles,
        [
            "ROCPROFV3 HSA_API SUMMARY:",
            "ROCPROFV3 HIP_API SUMMARY:",
            "ROCPROFV3 KERNEL_DISPATCH SUMMARY:",
            "ROCPROFV3 MEMORY_COPY SUMMARY:",
            "ROCPROFV3 HSA_API + HIP_API SUMMARY:",
            "ROCPROFV3 KERNEL_DISPATCH SUMMARY:",
            "ROCPROFV3 SUMMARY:",
        ]
    );
    let memcpy = text.lines().find(|l| l.contains("| hipMemcpy")).unwrap();
    assert!(memcpy.contains("| HIP_API "), "{memcpy}");
    let cells: Vec<&str> = memcpy.split('|').map(str::trim).collect();
    assert_eq!(&cells[3..5], ["2", "400"], "{memcpy}");
    // A group regex must match a whole domain name: "HIP" alone matches nothing.
    assert!(!s.render(&opts(false, false, &["HIP"], SummaryUnit::Nsec)).contains("ROCPROFV3"));
}

/// AMD's own sample database (`make_sample_db.py` from `../shared`, built from AMD's schema
/// files by python3). Both are inputs CI has: when one is missing the test skips, or fails under
/// `CI=true` ([`rocprof_test_inputs::skip_or_fail`]).
pub(crate) fn amd_sample(test: &str, dir: &std::path::Path, variant: u32) -> Option<std::path::PathBuf> {
    let script = rocprof_test_inputs::shared(test, "tools/rocpd-check/make_sample_db.py")?;
    let python = rocprof_test_inputs::program(test, "python3", "python3")?;
    let out = dir.join(format!("amd-sample-{variant}.db"));
    let o = std::process::Command::new(python)
        .arg(script)
        .arg(&out)
        .arg("--variant")
        .arg(variant.to_string())
        .output()
        .unwrap_or_else(|e| panic!("running python3: {e}"));
    assert!(o.status.success(), "make_sample_db.py failed: {}", String::from_utf8_lossy(&o.stderr));
    Some(out)
}

#[test]
fn amds_sample_database_is_read_domain_by_domain() {
    let dir = scratch("amd-sample");
    let Some(db) = amd_sample("amds_sample_database_is_read_domain_by_domain", &dir, 0) else { return };
    let db = Database::open(&db).unwrap();
    let counts = db.domain_counts().unwrap();
    let get = |d: &str| counts.get(d).copied().unwrap_or(0);
    // 9 HIP regions (runtime + compiler), 1 marker range + 1 marker instant, 3 dispatches,
    // 2 copies, alloc + free, scratch alloc + free.
    assert_eq!(get("HIP_API"), 9, "{counts:?}");
    assert_eq!(get("MARKER_API"), 2, "{counts:?}");
    assert_eq!(get("KERNEL_DISPATCH"), 3);
    assert_eq!(get("MEMORY_COPY"), 2);
    assert_eq!(get("MEMORY_ALLOCATION"), 2);
    assert_eq!(get("SCRATCH_MEMORY"), 2);
    let mut names = Vec::new();
    db.for_each_activity(|a| names.push((a.domain.to_string(), a.name.to_string(), a.duration_ns))).unwrap();
    assert!(names.contains(&("MARKER_API".into(), "compute phase".into(), 3_300_000)), "{names:?}");
    assert!(names.contains(&("MARKER_API".into(), "checkpoint reached".into(), 0)));
    assert!(names.contains(&("MEMORY_COPY".into(), "MEMORY_COPY_HOST_TO_DEVICE".into(), 230_000)));
    assert!(names.contains(&("SCRATCH_MEMORY".into(), "SCRATCH_MEMORY_ALLOC".into(), 3_000)));
    assert!(names.contains(&("HIP_API".into(), "__hipRegisterFatBinary".into(), 30_000)));
    let mut counters = Vec::new();
    db.for_each_counter_value(|c| counters.push((c.kernel.to_string(), c.counter.to_string(), c.value))).unwrap();
    assert_eq!(counters.len(), 6, "2 counters x 3 dispatches: {counters:?}");
    assert!(counters.iter().filter(|c| c.1 == "SQ_WAVES").all(|c| c.2 == 4.0 * 4096.0), "summed over 4 SEs");
}
