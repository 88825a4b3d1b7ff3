//! `merge`: every row kept, ids re-keyed, AMD's views still work on the result.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use indicatif::ProgressBar;
use rocprof_analysis::merge::merge;
use rocprof_analysis::rocpd::Database;
use rocprof_analysis::summary::{Summary, SummaryOptions};
use rocprof_writers::stats::SummaryUnit;
use rusqlite::Connection;

use crate::db::{add_api_calls, add_copies, add_counter, run_db, scratch};

fn counts(p: &Path) -> Vec<(&'static str, u64)> {
    Database::open(p).unwrap().row_counts().unwrap()
}

fn strings(p: &Path) -> HashSet<String> {
    let c = Connection::open(p).unwrap();
    let mut st = c.prepare("SELECT string FROM rocpd_string").unwrap();
    st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

fn summary_text(paths: &[PathBuf]) -> String {
    let s = Summary::of_paths(paths, &ProgressBar::hidden()).unwrap();
    s.render(&SummaryOptions { overall: true, per_domain: true, groups: vec![], unit: SummaryUnit::Nsec, indent: 0 })
}

/// Checks the merged file against its inputs: rows per table, strings, foreign keys, views.
fn check_merge(inputs: &[PathBuf], merged: &Path) {
    let out = counts(merged);
    let sessions: usize = inputs.iter().map(|p| Database::open(p).unwrap().guids().len()).sum();
    for (i, (table, n)) in out.iter().enumerate() {
        let sum: u64 = inputs.iter().map(|p| counts(p)[i].1).sum();
        match *table {
            "rocpd_metadata" => assert_eq!(*n, 3 + sessions as u64, "3 rows + one merge_source per session"),
            "rocpd_string" => {
                let all: HashSet<String> = inputs.iter().flat_map(|p| strings(p)).collect();
                assert_eq!(*n, all.len() as u64, "distinct strings");
                assert_eq!(strings(merged), all);
            }
            "rocpd_info_node" => assert_eq!(*n, 1, "one machine"),
            _ => assert_eq!(*n, sum, "{table}: rows of the inputs"),
        }
    }
    let c = Connection::open(merged).unwrap();
    let fk: Vec<String> = c
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(fk.is_empty(), "foreign key violations in {fk:?}");
    // Strings are numbered in byte order from 1, "" first.
    let first: String = c.query_row("SELECT string FROM rocpd_string WHERE id = 1", [], |r| r.get(0)).unwrap();
    assert_eq!(first, "");
    let sorted: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM rocpd_string a JOIN rocpd_string b ON b.id = a.id + 1 WHERE b.string <= a.string",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sorted, 0);
    // Every dispatch still appears in AMD's kernels view (which joins agents, queues, symbols,
    // strings, threads and processes by id and guid).
    let kernels: i64 = c.query_row("SELECT COUNT(*) FROM kernels", [], |r| r.get(0)).unwrap();
    let dispatches = out.iter().find(|(t, _)| *t == "rocpd_kernel_dispatch").unwrap().1;
    assert_eq!(kernels as u64, dispatches);
    for view in
        ["regions", "memory_copies", "counters_collection", "top_kernels", "busy", "top", "processes", "threads"]
    {
        c.prepare(&format!("SELECT * FROM {view}")).unwrap().query([]).unwrap().next().unwrap();
    }
    assert_eq!(
        summary_text(&[merged.to_path_buf()]),
        summary_text(inputs),
        "summary of the merge = summary of the inputs"
    );
}

#[test]
fn merging_per_process_databases_keeps_every_row() {
    let dir = scratch("merge");
    let mut inputs: Vec<PathBuf> = (0..3)
        .map(|i| run_db(&dir, &format!("p{i}"), 100 + i, 50 + 10 * i as u64, 0.05, u64::from(i), &|_| 1.0))
        .collect();
    // The same pid again (another host, or a later run): it is kept as its own process.
    inputs.push(run_db(&dir, "again", 101, 20, 0.05, 9, &|_| 1.0));
    add_api_calls(&inputs[0], "HIP_RUNTIME_API_EXT", "hipMemcpy", &[100, 200, 300]);
    add_copies(&inputs[1], "MEMORY_COPY_DEVICE_TO_HOST", &[1000, 2000]);
    add_counter(&inputs[2], "saxpy", "SQ_WAVES", 4096.0, 4);
    let merged = dir.join("out/merged.db");
    let m = merge(&inputs, &merged, &ProgressBar::hidden()).unwrap();
    assert_eq!(m.sessions, 4);
    assert_eq!(m.renumbered_processes.len(), 1, "{:?}", m.renumbered_processes);
    assert_eq!(m.renumbered_processes[0].1, 101);
    check_merge(&inputs, &merged);
    let c = Connection::open(&merged).unwrap();
    let pids: Vec<i64> = c
        .prepare("SELECT pid FROM processes ORDER BY pid")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(pids.len(), 4);
    assert_eq!(&pids[..3], [100, 101, 102]);
    // Dispatch ids stay the per-process numbers; counters still reach their dispatches.
    let per_pid: Vec<(i64, i64, i64)> = c
        .prepare("SELECT pid, COUNT(*), MAX(dispatch_id) FROM kernels GROUP BY pid ORDER BY pid")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(&per_pid[..3], [(100, 50, 50), (101, 60, 60), (102, 70, 70)]);
    let waves: i64 = c
        .query_row("SELECT COUNT(*) FROM counters_collection WHERE counter_name = 'SQ_WAVES'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(waves, 70 / 4 + 1, "one row per saxpy dispatch of process 102");

    // A merge of a merge with another file (several sessions are not needed: the output has one).
    let more = run_db(&dir, "more", 200, 16, 0.05, 3, &|_| 1.0);
    let again = dir.join("merged2.db");
    merge(&[merged.clone(), more.clone()], &again, &ProgressBar::hidden()).unwrap();
    check_merge(&[merged, more], &again);
}

#[test]
fn merging_amds_sample_databases_keeps_every_row_and_amds_reader_reads_the_result() {
    let dir = scratch("merge-amd");
    let test = "merging_amds_sample_databases_keeps_every_row_and_amds_reader_reads_the_result";
    let (Some(a), Some(b)) = (crate::summary::amd_sample(test, &dir, 0), crate::summary::amd_sample(test, &dir, 1))
    else {
        return;
    };
    let ours = run_db(&dir, "ours", 4242, 30, 0.05, 1, &|_| 1.0);
    let inputs = vec![a, b, ours];
    let merged = dir.join("merged.db");
    merge(&inputs, &merged, &ProgressBar::hidden()).unwrap();
    // AMD's sample rows use a machine id of their own: two machines here.
    let out = counts(&merged);
    for (i, (table, n)) in out.iter().enumerate() {
        let sum: u64 = inputs.iter().map(|p| counts(p)[i].1).sum();
        if !matches!(*table, "rocpd_metadata" | "rocpd_string" | "rocpd_info_node") {
            assert_eq!(*n, sum, "{table}");
        }
    }
    assert_eq!(out.iter().find(|(t, _)| *t == "rocpd_info_node").unwrap().1, 2);
    assert_eq!(summary_text(std::slice::from_ref(&merged)), summary_text(&inputs));
    let c = Connection::open(&merged).unwrap();
    let fk: i64 = c.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
    assert_eq!(fk, 0);
    let Some(mirror) = std::env::var_os("ROCPD_MIRROR") else {
        eprintln!("AMD's rocpd reader not run: set ROCPD_MIRROR to a git dir of ROCm/rocm-systems");
        return;
    };
    let run = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/tools/rocpd-check/run.sh");
    let o = std::process::Command::new("bash").arg(run).arg(&merged).env("ROCPD_MIRROR", mirror).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "AMD's rocpd reader on the merged database:\n{text}");
}

#[test]
fn bad_inputs_fail_before_anything_is_written() {
    let dir = scratch("merge-bad");
    let good = run_db(&dir, "g", 1, 8, 0.0, 1, &|_| 1.0);
    let bad = dir.join("bad.db");
    std::fs::write(&bad, "not sqlite".repeat(200)).unwrap();
    let out = dir.join("out.db");
    let e = merge(&[good.clone(), bad.clone()], &out, &ProgressBar::hidden()).unwrap_err();
    assert_eq!(e.to_string(), format!("{}: not a rocpd database (not an SQLite file)", bad.display()));
    assert!(!out.exists() && !dir.join("out.db.partial").exists());
    let e = merge(std::slice::from_ref(&good), &good, &ProgressBar::hidden()).unwrap_err();
    assert!(e.to_string().contains("is also an input"), "{e}");
}
