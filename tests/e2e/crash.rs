//! An application that dies (SIGSEGV, abort) after N waited dispatches still yields a database with
//! exactly those N dispatches, and the CLI's exit status says it died from the signal.

use rocprof_launch::names;
use std::os::unix::process::ExitStatusExt;

use rocprof_e2e::{db_health, db_kernels, find_one, stage};

use crate::common::kernel_trace;

#[test]
fn crash_after_n_dispatches_keeps_all_n() {
    let test = "crash_after_n_dispatches_keeps_all_n";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("crash_after", test) else {
        return;
    };
    // Default: the waiting application thread writes the completion record; gated: the queue
    // holds the application's signal until the completion handler wrote it.
    for (gate, n) in [("0", 1u64), ("0", 7), ("0", 40), ("1", 7)] {
        let env = vec![(names::GATE_COMPLETIONS.to_string(), gate.to_string())];
        let p = kernel_trace(&stage, "gfx942", &app, &[&n.to_string()], &env);
        assert!(
            !p.run.stderr.contains("still alive after writing through a null pointer"),
            "fixture bug: crash_after did not crash; GCC drops the store through `int *volatile` \
             (only the pointer is volatile), it needs `volatile int *volatile`:\n{}",
            p.run.transcript()
        );
        let code = p.run.status.code();
        assert!(
            code == Some(128 + 11) || p.run.status.signal() == Some(11),
            "the CLI must report the application's SIGSEGV (exit 139), got {:?}:\n{}",
            p.run.status,
            p.run.transcript()
        );
        let db = db_kernels(&find_one(&p.out, ".db"));
        assert_eq!(db.len() as u64, n, "crash after {n} dispatches (gate {gate}):\n{}", p.run.transcript());
        assert!(db.iter().all(|k| k.name == "crash_after" || k.name == "vector_add"), "{db:?}");
        let ids: Vec<u64> = db.iter().map(|k| k.dispatch_id).collect();
        assert_eq!(ids, (1..=n).collect::<Vec<_>>());
    }
}

/// Issue 14: the application learns that its last dispatch finished through whichever wait
/// function it uses, then crashes at once: the completion must be written before that function
/// returns (its wrapper), or the record is lost (the writer thread's poll comes up to 20 ms late).
/// Every wait function a HIP or HSA application may use, each for every completion.
#[test]
fn a_crash_right_after_any_wait_function_keeps_every_dispatch() {
    let test = "a_crash_right_after_any_wait_function_keeps_every_dispatch";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("crash_after", test) else { return };
    let n = 3u64;
    for kind in [
        "scacquire",
        "relaxed",
        "amd_any",
        "amd_all",
        "group_scacquire",
        "group_relaxed",
        "poll_scacquire",
        "poll_relaxed",
    ] {
        let p = kernel_trace(&stage, "gfx942", &app, &[&n.to_string(), "segv", kind], &[]);
        assert!(
            p.run.status.code() == Some(128 + 11) || p.run.status.signal() == Some(11),
            "{kind}: the application's SIGSEGV reported, got {:?}:\n{}",
            p.run.status,
            p.run.transcript()
        );
        assert!(p.run.stdout.contains("dispatches completed"), "{kind}:\n{}", p.run.transcript());
        let db = find_one(&p.out, ".db");
        let ids: Vec<u64> = db_kernels(&db).iter().map(|k| k.dispatch_id).collect();
        assert_eq!(
            ids,
            (1..=n).collect::<Vec<_>>(),
            "{kind}: every dispatch waited for with it is in the database:\n{}",
            p.run.transcript()
        );
        assert_eq!(db_health(&db, "incomplete_dispatches").as_deref(), Some("0"), "{kind}");
        assert_eq!(db_health(&db, "lost_total").as_deref(), Some("0"), "{kind}");
    }
}

/// Issue 14: abort() (a failed assert) instead of SIGSEGV: every waited dispatch is kept, the
/// database says the process did not exit cleanly, and the CLI exits 128 + 6.
#[test]
fn an_aborting_application_keeps_every_dispatch_and_exits_134() {
    let test = "an_aborting_application_keeps_every_dispatch_and_exits_134";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("crash_after", test) else { return };
    let p = kernel_trace(&stage, "gfx942", &app, &["6", "abort"], &[]);
    assert_eq!(p.run.status.code(), Some(128 + 6), "SIGABRT propagated:\n{}", p.run.transcript());
    let db = find_one(&p.out, ".db");
    let ids: Vec<u64> = db_kernels(&db).iter().map(|k| k.dispatch_id).collect();
    assert_eq!(ids, (1..=6).collect::<Vec<_>>(), "{}", p.run.transcript());
    assert_eq!(db_health(&db, "clean_exit").as_deref(), Some("0"));
    assert_eq!(db_health(&db, "incomplete_dispatches").as_deref(), Some("0"));
    assert!(p.run.stderr.contains("killed by signal 6"), "{}", p.run.transcript());
}

/// Issue 14: a dispatch still queued when the application aborts cannot have an end time; it is
/// reported (CLI warning and `run_health.incomplete_dispatches`), the completed ones are kept.
#[test]
fn a_dispatch_pending_at_a_crash_is_reported_not_silently_dropped() {
    let test = "a_dispatch_pending_at_a_crash_is_reported_not_silently_dropped";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("crash_after", test) else { return };
    let p = kernel_trace(&stage, "gfx942", &app, &["5", "pending"], &[]);
    assert_eq!(p.run.status.code(), Some(128 + 6), "SIGABRT propagated:\n{}", p.run.transcript());
    let db = find_one(&p.out, ".db");
    let ids: Vec<u64> = db_kernels(&db).iter().map(|k| k.dispatch_id).collect();
    assert_eq!(ids, (1..=5).collect::<Vec<_>>(), "{}", p.run.transcript());
    assert_eq!(db_health(&db, "incomplete_dispatches").as_deref(), Some("1"));
    assert_eq!(db_health(&db, "clean_exit").as_deref(), Some("0"));
    assert!(
        p.run.stderr.contains("1 kernel dispatches had not completed when the process ended"),
        "{}",
        p.run.transcript()
    );
}
