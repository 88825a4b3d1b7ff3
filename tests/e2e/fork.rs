//! Issue 14: applications that fork without exec. A child forked before the runtime starts is
//! profiled as its own process (its own database); a child forked from a profiled process runs
//! with profiling off, never writes into the parent's capture (the parent's database holds
//! exactly the parent's dispatches, cleanly finished), and when it starts GPU work of its own
//! that work is counted as lost (`forked_child_untraced`) and reported.

use std::path::Path;

use rocprof_e2e::{db_health, db_kernels, db_pid, find_files, profile, scratch, Run, ScratchGuard};

fn run_fork_only(test: &str, mode: &str, n: u64) -> Option<(Run, ScratchGuard)> {
    let stage = rocprof_e2e::stage(test)?;
    let app = stage.fixture("fork_only", test)?;
    let dir = scratch("fork-only");
    let d = dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx942", "--kernel-trace", "-d", &d, "-o", "%pid%"],
        &app,
        &[mode, &n.to_string()],
        &[],
    );
    Some((r, ScratchGuard(dir)))
}

/// `(pid, dispatch ids)` of every database under `dir`, by pid.
fn databases(dir: &Path) -> Vec<(u64, Vec<u64>, std::path::PathBuf)> {
    let mut v: Vec<_> = find_files(dir, "_results.db")
        .into_iter()
        .map(|db| (db_pid(&db), db_kernels(&db).iter().map(|k| k.dispatch_id).collect(), db))
        .collect();
    v.sort();
    v
}

/// The pids the fixture printed with their dispatch counts (`fork_only: pid P ran K dispatches`).
fn printed(stdout: &str) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = stdout
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("fork_only: pid ")?;
            let mut it = rest.split_whitespace();
            let pid = it.next()?.parse().ok()?;
            let n = it.nth(1)?.parse().ok()?;
            Some((pid, n))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_child_forked_before_the_runtime_starts_gets_its_own_complete_database() {
    let test = "a_child_forked_before_the_runtime_starts_gets_its_own_complete_database";
    let Some((r, dir)) = run_fork_only(test, "before", 12) else { return };
    assert!(r.status.success(), "{}", r.transcript());
    let dbs = databases(&dir.0);
    let ran = printed(&r.stdout);
    assert_eq!(ran.len(), 2, "both processes report their dispatches:\n{}", r.transcript());
    assert_eq!(dbs.len(), 2, "one database per process:\n{}", r.transcript());
    for ((pid, ids, db), (ran_pid, ran_n)) in dbs.iter().zip(&ran) {
        assert_eq!(pid, ran_pid, "{}", r.transcript());
        assert_eq!(ids, &(1..=*ran_n).collect::<Vec<_>>(), "process {pid}: every dispatch once, none of the other's");
        assert_eq!(db_health(db, "clean_exit").as_deref(), Some("1"), "process {pid}");
        assert_eq!(db_health(db, "lost_total").as_deref(), Some("0"), "process {pid}");
    }
    let mut counts: Vec<u64> = ran.iter().map(|&(_, n)| n).collect();
    counts.sort();
    assert_eq!(counts, [12, 13]);
}

#[test]
fn a_child_forked_from_a_profiled_process_leaves_the_parents_capture_intact() {
    let test = "a_child_forked_from_a_profiled_process_leaves_the_parents_capture_intact";
    let Some((r, dir)) = run_fork_only(test, "after", 9) else { return };
    assert!(r.status.success(), "{}", r.transcript());
    assert!(r.stdout.contains("fork_only: child "), "the child ran:\n{}", r.transcript());
    let dbs = databases(&dir.0);
    assert_eq!(dbs.len(), 1, "only the parent is profiled:\n{}", r.transcript());
    let (_, ids, db) = &dbs[0];
    // 9 before the fork, 9 while the child lived (after it called the wait/load functions through
    // our wrappers and ran the inherited atexit handlers).
    assert_eq!(ids, &(1..=18).collect::<Vec<_>>(), "{}", r.transcript());
    assert_eq!(db_health(db, "clean_exit").as_deref(), Some("1"), "the child's exit must not end the parent's capture");
    assert_eq!(db_health(db, "lost_total").as_deref(), Some("0"));
    assert_eq!(db_health(db, "lost.forked_child_untraced").as_deref(), Some("0"), "the child did no GPU work");
    assert!(!r.stderr.contains("warning"), "nothing was lost:\n{}", r.transcript());
}

#[test]
fn gpu_work_of_a_forked_child_is_counted_and_reported_not_mixed_into_the_parent() {
    let test = "gpu_work_of_a_forked_child_is_counted_and_reported_not_mixed_into_the_parent";
    let Some((r, dir)) = run_fork_only(test, "after-gpu", 7) else { return };
    assert!(r.status.success(), "{}", r.transcript());
    let ran = printed(&r.stdout);
    assert_eq!(ran.len(), 3, "parent twice, child once:\n{}", r.transcript());
    let dbs = databases(&dir.0);
    assert_eq!(dbs.len(), 1, "{}", r.transcript());
    let (pid, ids, db) = &dbs[0];
    assert_eq!(ids, &(1..=14).collect::<Vec<_>>(), "the parent's 14 dispatches, none of the child's 7");
    assert_eq!(db_health(db, "lost.forked_child_untraced").as_deref(), Some("1"));
    assert_eq!(db_health(db, "clean_exit").as_deref(), Some("1"));
    let warning = format!("rocprof-rs: warning: process {pid}: 1 forked child processes not traced");
    assert!(r.stderr.contains(&warning), "expected `{warning}` in:\n{}", r.transcript());
}
