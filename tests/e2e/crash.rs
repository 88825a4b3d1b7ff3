//! An application that dies from SIGSEGV after N waited dispatches still yields a database with
//! exactly those N dispatches, and the CLI's exit status says it died from the signal.

use std::os::unix::process::ExitStatusExt;

use rocprof_e2e::{db_kernels, find_one, stage};

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
        let env = vec![("ROCPROF_RS_GATE_COMPLETIONS".to_string(), gate.to_string())];
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
