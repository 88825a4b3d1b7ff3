//! Issue 14: the runtime refuses, as ROCr can (no intercept queue left, no async-handler slot),
//! through hsa-sim's simulator-only fault injection (`ROCPROF_RS_SIM_FAIL=FUNCTION[@N]`: every call
//! after the first N returns `HSA_STATUS_ERROR_OUT_OF_RESOURCES`). The application is neither
//! crashed nor hung, what could be traced is written, and the loss is counted by reason in rocpd's
//! `run_health` rows and named in the CLI's warning line.

use rocprof_e2e::{db_health, find_one, profile, scratch, Run, ScratchGuard};
use rocprof_launch::names;

/// `rocprof-rs --simulate gfx942 <options> -f rocpd -d OUT -- <fixture> <args>` with
/// `ROCPROF_RS_SIM_FAIL=<fail>` (and `extra` environment); `None` when the stage is missing.
fn refused(
    test: &str,
    options: &[&str],
    fixture: &str,
    args: &[&str],
    fail: &str,
    extra: &[(&str, &str)],
) -> Option<(Run, std::path::PathBuf, ScratchGuard)> {
    let stage = rocprof_e2e::stage(test)?;
    let app = stage.fixture(fixture, test)?;
    let out = scratch(test);
    let out_s = out.display().to_string();
    let mut cli = vec!["--simulate", "gfx942"];
    cli.extend_from_slice(options);
    cli.extend_from_slice(&["-f", "rocpd", "-d", &out_s]);
    let mut env = vec![(names::SIM_FAIL.to_string(), fail.to_string())];
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let run = profile(&stage, &cli, &app, args, &env);
    assert!(run.status.success(), "the application is not harmed by the refusal:\n{}", run.transcript());
    assert!(run.stdout.contains(&format!("{fixture}: ok")), "{}", run.transcript());
    Some((run, out.clone(), ScratchGuard(out)))
}

/// The CLI's warning line for `reason` names the count.
fn assert_warned(run: &Run, count: u64, reason: &str) {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("rocprof-rs: warning: process ") && l.ends_with(&format!("[{reason}]")))
        .unwrap_or_else(|| panic!("no warning for {reason}:\n{}", run.transcript()));
    assert!(line.contains(&format!(": {count} ")), "{line}");
}

fn health(db: &std::path::Path, key: &str) -> u64 {
    db_health(db, key).unwrap_or_else(|| panic!("no run_health.{key}")).parse().unwrap()
}

fn assert_only_loss(db: &std::path::Path, reason: &str, count: u64, run: &Run) {
    for r in rocprof_model::LossReason::ALL {
        let want = if r.as_str() == reason { count } else { 0 };
        if let Some(v) = db_health(db, &format!("lost.{}", r.as_str())) {
            assert_eq!(v, want.to_string(), "lost.{}:\n{}", r.as_str(), run.transcript());
        }
    }
}

fn rows(db: &std::path::Path, table: &str) -> u64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0)).unwrap() as u64
}

#[test]
fn a_refused_intercept_queue_is_counted_and_the_other_queue_traced() {
    let test = "a_refused_intercept_queue_is_counted_and_the_other_queue_traced";
    // Two threads, a queue each, 5 dispatches each; the second intercept queue is refused, so that
    // thread's queue is created the normal way and runs untraced.
    let Some((run, out, _guard)) =
        refused(test, &["--kernel-trace"], "multi_queue", &["2", "5"], "hsa_amd_queue_intercept_create@1", &[])
    else {
        return;
    };
    let db = find_one(&out, ".db");
    assert_eq!(rows(&db, "rocpd_kernel_dispatch"), 5, "the traced queue's dispatches:\n{}", run.transcript());
    assert_eq!(health(&db, "lost.queue_intercept_failed"), 1);
    assert_only_loss(&db, "queue_intercept_failed", 1, &run);
    assert_warned(&run, 1, "queue_intercept_failed");
    assert!(run.stderr.contains("intercept queue creation failed"), "{}", run.transcript());
}

#[test]
fn a_refused_packet_handler_registration_is_counted_and_the_application_runs() {
    let test = "a_refused_packet_handler_registration_is_counted_and_the_application_runs";
    let Some((run, _, _guard)) =
        refused(test, &["--kernel-trace"], "multi_queue", &["2", "5"], "hsa_amd_queue_intercept_register", &[])
    else {
        return;
    };
    assert_warned(&run, 2, "queue_intercept_failed");
    assert!(run.stderr.contains("could not register the packet handler"), "{}", run.transcript());
    assert!(run.stderr.contains("nothing was traced"), "{}", run.transcript());
}

#[test]
fn refused_completion_handlers_lose_only_those_copies() {
    let test = "refused_completion_handlers_lose_only_those_copies";
    // async_copy makes 12 copies; the runtime accepts 4 completion handlers, then refuses.
    let Some((run, out, _guard)) =
        refused(test, &["--memory-copy-trace"], "async_copy", &[], "hsa_amd_signal_async_handler@4", &[])
    else {
        return;
    };
    let db = find_one(&out, ".db");
    assert_eq!(rows(&db, "rocpd_memory_copy"), 4, "{}", run.transcript());
    assert_only_loss(&db, "handler_registration_failed", 8, &run);
    assert_warned(&run, 8, "handler_registration_failed");
}

#[test]
fn refused_completion_handlers_of_gated_dispatches_do_not_hang_the_application() {
    let test = "refused_completion_handlers_of_gated_dispatches_do_not_hang_the_application";
    // Gated completions register a handler per dispatch with a completion signal: 3 accepted, 7
    // refused; the refused ones run untraced and the application's waits still return. Each
    // refused one is counted once: not also reported as a dispatch that had not completed (its
    // dispatch record was already written when the runtime refused the handler).
    let Some((run, out, _guard)) = refused(
        test,
        &["--kernel-trace"],
        "multi_queue",
        &["2", "5"],
        "hsa_amd_signal_async_handler@3",
        &[(names::GATE_COMPLETIONS, "1")],
    ) else {
        return;
    };
    let db = find_one(&out, ".db");
    assert_eq!(rows(&db, "rocpd_kernel_dispatch"), 3, "{}", run.transcript());
    assert_eq!(health(&db, "lost.handler_registration_failed"), 7);
    assert_only_loss(&db, "handler_registration_failed", 7, &run);
    assert_warned(&run, 7, "handler_registration_failed");
    assert_eq!(health(&db, "incomplete_dispatches"), 0, "{}", run.transcript());
    assert!(!run.stderr.contains("had not completed"), "{}", run.transcript());
    assert_eq!(health(&db, "lost_total"), 7, "{}", run.transcript());
}
