//! Issue 26: on a loaded machine (more busy threads than cores and a disk writer, started by the
//! test itself: [`rocprof_e2e::Load`]) a tight HSA API loop traced with every HSA table records
//! every call it made, in process and under the CLI: the program's own call count is the oracle
//! (it makes `hsa_signal_load_relaxed` exactly 3 x N times), every `lost.*` count is 0, and the
//! waits the lossless buffer policy cost are reported. With `--buffer-policy drop`, the old
//! behaviour, this run lost records (`writer_behind`) on the 2-core development machine.

use rocprof_e2e::{find_files, find_one, profile, run, scratch, stage, Load, ScratchGuard, Stage};
use rocprof_launch::names;
use rocprof_model::LossReason;

/// Calls per repetition (the fixture repeats the loop 3 times): about 70 MB of API records.
const CALLS: u64 = 300_000;
/// The policy under test (the old behaviour is `drop`).
const POLICY: &str = "lossless";

const API: &str = "hsa_signal_load_relaxed";

fn fixture(test: &str) -> Option<(Stage, std::path::PathBuf)> {
    let stage = stage(test)?;
    let app = stage.fixture("hsa_api_loop", test)?;
    Some((stage, app))
}

#[test]
fn loaded_machine_in_process_records_every_hsa_call_and_reports_the_waits() {
    let test = "loaded_machine_in_process_records_every_hsa_call_and_reports_the_waits";
    let Some((stage, app)) = fixture(test) else { return };
    let cap = ScratchGuard(scratch("lossless-in-process"));
    let intercept = stage.dir.join("librocprof_intercept.so").display().to_string();
    let mut env = stage.sim_env("gfx90a");
    for (k, v) in [
        ("LD_PRELOAD", intercept.as_str()),
        ("HSA_TOOLS_LIB", intercept.as_str()),
        (names::CAPTURE_DIR, &cap.0.display().to_string()),
        (names::TRACE, "hsa_core,hsa_amd,hsa_image,hsa_finalizer"),
        (rocprof_model::BufferPolicy::ENV, POLICY),
    ] {
        env.push((k.to_string(), v.to_string()));
    }
    let r = {
        let _load = Load::start(2);
        run(&app, &[&CALLS.to_string(), "--api", API], &env)
    };
    let t = r.transcript();
    assert!(r.status.success(), "{t}");
    assert!(r.stdout.contains(&format!("{CALLS} calls of {API} x 3, 0 unexpected results")), "{t}");
    let files = find_files(&cap.0, ".rpcap");
    let [file] = files.as_slice() else { panic!("one capture expected: {files:?}\n{t}") };
    let c = rocprof_model::capture::read_capture(file).unwrap();
    let h = c.trace.health;
    let recorded = c.trace.api_calls.iter().filter(|a| a.domain.operation_name(a.operation) == Some(API)).count();
    let lost: Vec<(LossReason, u64)> = h.lost.nonzero().collect();
    assert_eq!((recorded as u64, lost.as_slice()), (3 * CALLS, &[][..]), "{h:?}\n{t}");
    assert!(h.clean_exit, "{t}");
    // The figures exist and are consistent (their size depends on the machine's load).
    assert!(h.stall_max_ns <= h.stall_thread_max_ns && h.stall_thread_max_ns <= h.stall_ns, "{h:?}");
    assert_eq!(h.stalls == 0, h.stall_ns == 0, "{h:?}");
    eprintln!("{test}: {} waits, {} ns in all, longest {} ns", h.stalls, h.stall_ns, h.stall_max_ns);
}

#[test]
fn loaded_machine_under_the_cli_records_every_hsa_call_and_reports_the_waits() {
    let test = "loaded_machine_under_the_cli_records_every_hsa_call_and_reports_the_waits";
    let Some((stage, app)) = fixture(test) else { return };
    let out = ScratchGuard(scratch("lossless-cli"));
    let out_s = out.0.display().to_string();
    let cli = ["--simulate", "gfx90a", "--hsa-trace", "--buffer-policy", POLICY, "-f", "rocpd", "-d", &out_s];
    let r = {
        let _load = Load::start(2);
        profile(&stage, &cli, &app, &[&CALLS.to_string(), "--api", API], &[])
    };
    let t = r.transcript();
    assert!(r.status.success(), "{t}");
    assert!(r.stdout.contains(&format!("{CALLS} calls of {API} x 3, 0 unexpected results")), "{t}");
    let db = find_one(&out.0, ".db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    // A call whose entry and exit share a timestamp is a sample (on the domain's track, the
    // function named in its extdata) instead of a region: count both.
    let rows: u64 = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM regions WHERE name = ?1)
                  + (SELECT COUNT(*) FROM samples WHERE json_extract(extdata, '$.name') = ?1)",
            [API],
            |r| r.get(0),
        )
        .unwrap();
    let health = |k: &str| -> u64 {
        rocprof_e2e::db_health(&db, k).unwrap_or_else(|| panic!("no run_health.{k} row\n{t}")).parse().unwrap()
    };
    let lost: Vec<(&str, u64)> = LossReason::ALL
        .iter()
        .map(|r| (r.as_str(), health(&format!("lost.{}", r.as_str()))))
        .filter(|&(_, n)| n != 0)
        .collect();
    assert_eq!((rows, lost.as_slice()), (3 * CALLS, &[][..]), "{t}");
    let (stalls, stall_ns) = (health("stalls"), health("stall_ns"));
    assert!(health("stall_max_ns") <= health("stall_thread_max_ns") && health("stall_thread_max_ns") <= stall_ns);
    // The CLI says what lossless cost whenever a thread waited.
    let said = r.stderr.lines().any(|l| l.contains("waited") && l.contains(&format!("in {stalls} wait")));
    assert_eq!(said, stalls > 0, "{t}");
    assert!(!r.stderr.contains("warning"), "{t}");
    eprintln!("{test}: {stalls} waits, {stall_ns} ns in all");
}
