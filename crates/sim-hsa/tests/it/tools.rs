//! `HSA_TOOLS_LIB` on hsa-sim with `fixtures/tool/libcount_tool.so`: the tool is loaded with the
//! table versions of the emulated ABI, its wrappers of Core and AmdExt entries see every call the
//! application makes (compared with the application's own `api-calls:` line), failed tools are
//! reported to it, and intercept-queue handlers see and rewrite every packet.

use rocprof_launch::names;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::time::Duration;

use crate::support::{fixture, parse_pairs, read_dispatch_log, run, stage, temp_dir, Run};

const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs a fixture with the count tool and returns (program run, tool report).
fn with_tool(
    stage: &Path,
    abi: &str,
    program: &str,
    args: &[&str],
    extra: &[(&str, &str)],
) -> (Run, BTreeMap<String, String>) {
    let dir = temp_dir(&format!("tool-{abi}-{program}-{}", extra.len()));
    let report = dir.join("report.txt");
    let mut cmd = fixture(stage, program, Some("gfx942"));
    cmd.args(args)
        .env(names::SIM_ABI, abi)
        .env("HSA_TOOLS_LIB", stage.join("fixtures").join("libcount_tool.so"))
        .env("COUNT_TOOL_OUTPUT", &report);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let out = run(cmd, TIMEOUT);
    out.assert_ok();
    let text = fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("the tool wrote no report ({e}): was it loaded?\n{}\n{}", out.stdout, out.stderr));
    let map = text.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
    let _ = fs::remove_dir_all(&dir);
    (out, map)
}

fn number(report: &BTreeMap<String, String>, key: &str) -> u64 {
    report
        .get(key)
        .unwrap_or_else(|| panic!("report lacks {key}: {report:?}"))
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number: {report:?}"))
}

/// Versions the tool must see: (root, core, amd_ext, image, finalizer, tools, pc_sampling) as
/// `major.minor[.step]` prefixes (`hsa-abi.md` §2.3; 5.2 steps are not pinned there).
fn expected_versions(abi: &str) -> [(&'static str, &'static str); 7] {
    match abi {
        "5.2" => [
            ("root", "1.48."),
            ("core", "1.1016."),
            ("amd_ext", "1.400."),
            ("image", "1.120."),
            ("finalizer", "1.64."),
            ("tools", "absent"),
            ("pc_sampling", "absent"),
        ],
        _ => [
            ("root", "3.64.1"),
            ("core", "2.1016.0"),
            ("amd_ext", "2.608.7"),
            ("image", "2.128.1"),
            ("finalizer", "2.64.0"),
            ("tools", "1.64.0"),
            ("pc_sampling", "1.72.0"),
        ],
    }
}

fn assert_versions(abi: &str, report: &BTreeMap<String, String>) {
    assert_eq!(number(report, "onload_calls"), 1, "{abi}: OnLoad once");
    assert_eq!(number(report, "onunload_calls"), 1, "{abi}: OnUnload once, at hsa_shut_down");
    assert_eq!(
        number(report, "runtime_version"),
        if abi == "5.2" { 1 } else { 3 },
        "{abi}: runtime_version = root major"
    );
    for (table, expected) in expected_versions(abi) {
        let seen = report.get(table).map(String::as_str).unwrap_or("missing");
        assert!(seen.starts_with(expected), "{abi}: {table} table version {seen}, expected {expected}");
    }
}

/// Every wrapped call the program made was seen by the tool, and no other but the runtime's own: like
/// ROCr (`GpuAgent::InvalidateCodeCaches` -> `AqlQueue::ExecutePM4`), freezing an executable creates, waits
/// on and destroys one signal per GPU code object loaded into it, through the API table.
/// `objects_per_executable`: what the fixture's source loads into each executable it freezes.
fn assert_counts_match(what: &str, out: &Run, report: &BTreeMap<String, String>, objects_per_executable: u64) {
    let app = out.api_calls();
    assert!(!app.is_empty());
    let freezes = app.get("hsa_executable_freeze").copied().unwrap_or(0) * objects_per_executable;
    for (name, count) in &app {
        let seen = number(report, &format!("call.{name}"));
        let runtime = match name.as_str() {
            "hsa_signal_create" | "hsa_signal_wait_scacquire" | "hsa_signal_destroy" => freezes,
            _ => 0,
        };
        assert_eq!(
            seen,
            count + runtime,
            "{what}: the tool saw {seen} calls of {name}, the application made {count} (and froze {freezes} GPU code objects)"
        );
    }
}

#[test]
fn tool_sees_table_versions_and_every_call_under_both_abis() {
    let Some(stage) = stage("tool_sees_table_versions_and_every_call_under_both_abis") else { return };
    for abi in ["5.2", "newest"] {
        let (out, report) = with_tool(&stage, abi, "vector_add", &["50"], &[]);
        assert_versions(abi, &report);
        assert_eq!(number(&report, "failed_count"), 0);
        assert_counts_match(&format!("{abi} vector_add"), &out, &report, 1);
        assert_eq!(number(&report, "call.hsa_signal_store_screlease"), 50, "{abi}: one doorbell per dispatch");

        let (out, report) = with_tool(&stage, abi, "async_copy", &[], &[]);
        assert_counts_match(&format!("{abi} async_copy"), &out, &report, 1);
        assert_eq!(number(&report, "call.hsa_amd_memory_async_copy"), 12, "{abi}: 4 copies per round trip, 3 sizes");
    }
}

#[test]
fn tool_sees_calls_through_deprecated_aliases_and_from_threads() {
    let Some(stage) = stage("tool_sees_calls_through_deprecated_aliases_and_from_threads") else { return };
    // multi_queue's odd threads call hsa_signal_store_release / hsa_signal_wait_acquire, which
    // must reach the tool through the same table entries as the sc names.
    let (out, report) = with_tool(&stage, "newest", "multi_queue", &["4", "15"], &[]);
    assert_counts_match("multi_queue", &out, &report, 1);
    assert_eq!(number(&report, "call.hsa_signal_store_screlease"), 60);
    assert_eq!(number(&report, "call.hsa_queue_create"), 4);
    let (out, report) = with_tool(&stage, "newest", "multi_code_object", &[], &[]);
    assert_counts_match("multi_code_object", &out, &report, 2);
    assert_eq!(number(&report, "call.hsa_executable_freeze"), 2);
}

#[test]
fn tool_is_told_about_tools_that_failed_to_load() {
    let Some(stage) = stage("tool_is_told_about_tools_that_failed_to_load") else { return };
    let dir = temp_dir("failed-tool");
    let report = dir.join("report.txt");
    let missing = dir.join("libno_such_tool.so");
    let tool = stage.join("fixtures").join("libcount_tool.so");
    let mut cmd = fixture(&stage, "vector_add", Some("gfx942"));
    cmd.arg("2")
        .env("HSA_TOOLS_LIB", format!("{} {}", missing.display(), tool.display()))
        .env("COUNT_TOOL_OUTPUT", &report);
    let out = run(cmd, TIMEOUT);
    out.assert_ok();
    let text = fs::read_to_string(&report).expect("the second tool still loads");
    let pairs = parse_pairs(text.lines());
    assert_eq!(pairs["failed_count"], 1, "{text}");
    assert!(text.contains(&format!("failed_names={}", missing.display())), "{text}");
    // ROCr release builds report the failure on stderr unless HSA_TOOLS_REPORT_LOAD_FAILURE=0.
    let message = format!("Tool lib \"{}\" failed to load.", missing.display());
    assert!(out.stderr.contains(&message), "stderr lacks `{message}`:\n{}", out.stderr);
    let mut cmd = fixture(&stage, "vector_add", Some("gfx942"));
    cmd.arg("2").env("HSA_TOOLS_LIB", &missing).env("HSA_TOOLS_REPORT_LOAD_FAILURE", "0");
    let out = run(cmd, TIMEOUT);
    out.assert_ok();
    assert!(!out.stderr.contains("failed to load"), "HSA_TOOLS_REPORT_LOAD_FAILURE=0 must silence it:\n{}", out.stderr);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn tools_lib_paths_with_spaces_are_quoted_as_in_rocr() {
    let Some(stage) = stage("tools_lib_paths_with_spaces_are_quoted_as_in_rocr") else { return };
    let dir = temp_dir("quoted-tool");
    let spaced = dir.join("my tools");
    fs::create_dir_all(&spaced).unwrap();
    let tool = spaced.join("libcount_tool.so");
    fs::copy(stage.join("fixtures").join("libcount_tool.so"), &tool).unwrap();
    for (how, list) in [
        ("double quotes", format!("\"{}\"", tool.display())),
        ("backslash escape", tool.display().to_string().replace(' ', "\\ ")),
    ] {
        let report = dir.join("report.txt");
        let _ = fs::remove_file(&report);
        let mut cmd = fixture(&stage, "vector_add", Some("gfx942"));
        cmd.arg("2").env("HSA_TOOLS_LIB", &list).env("COUNT_TOOL_OUTPUT", &report);
        let out = run(cmd, TIMEOUT);
        out.assert_ok();
        let text = fs::read_to_string(&report)
            .unwrap_or_else(|_| panic!("{how}: HSA_TOOLS_LIB={list} did not load the tool\n{}", out.stderr));
        assert_eq!(parse_pairs(text.lines())["onload_calls"], 1, "{how}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn intercept_handlers_see_and_rewrite_every_packet() {
    let Some(stage) = stage("intercept_handlers_see_and_rewrite_every_packet") else { return };
    for abi in ["5.2", "newest"] {
        let dir = temp_dir(&format!("intercept-{abi}"));
        let log = dir.join("dispatch.log");
        let log_str = log.display().to_string();
        let (out, report) = with_tool(
            &stage,
            abi,
            "vector_add",
            &["40"],
            &[("COUNT_TOOL_INTERCEPT", "1"), (names::SIM_DISPATCH_LOG, log_str.as_str())],
        );
        assert_eq!(report.get("intercept_mode").map(String::as_str), Some("1"), "{abi}: {report:?}");
        assert_eq!(number(&report, "intercept_queues"), 1, "{abi}");
        assert_eq!(number(&report, "packets_seen"), 40, "{abi}: the newest handler sees each application packet once");
        assert_eq!(number(&report, "kernel_dispatches_seen"), 40, "{abi}");
        assert_eq!(
            number(&report, "packets_rewritten_in"),
            40,
            "{abi}: the older handler gets what the newer one forwarded"
        );
        assert_eq!(number(&report, "packets_emitted"), 80, "{abi}");
        assert_eq!(
            number(&report, "off_doorbell_thread"),
            0,
            "{abi}: handlers run on the thread that rang the doorbell"
        );
        assert_eq!(number(&report, "index_errors"), 0, "{abi}: user_pkt_index counts the proxy ring from 0");
        assert_counts_match(&format!("{abi} intercepted vector_add"), &out, &report, 1);

        // The hardware queue got the rewritten stream: kernel (tool signal) + barrier-AND that
        // waits for it and completes the application's signal.
        let packets = read_dispatch_log(&log);
        assert_eq!(packets.len(), 80, "{abi}: 40 kernels and 40 barrier-AND packets reached the hardware queue");
        let app_signals: std::collections::BTreeSet<u64> =
            packets.iter().skip(1).step_by(2).map(|p| p.u64_at(56)).collect();
        assert_eq!(app_signals.len(), 16, "{abi}: the barrier packets carry the application's 16 signals");
        for (i, pair) in packets.chunks(2).enumerate() {
            let (kernel, barrier) = (&pair[0], &pair[1]);
            assert_eq!(kernel.packet_type(), 2, "{abi}: packet {} is the kernel", 2 * i);
            assert_eq!(barrier.packet_type(), 3, "{abi}: packet {} is the added barrier-AND", 2 * i + 1);
            let tool_signal = kernel.u64_at(56);
            assert_ne!(tool_signal, 0);
            assert!(!app_signals.contains(&tool_signal), "{abi}: the kernel's completion signal was replaced");
            assert_eq!(barrier.u64_at(8), tool_signal, "{abi}: the barrier waits for the kernel's tool signal");
            assert_eq!(barrier.index, kernel.index + 1, "{abi}: contiguous in the hardware ring");
        }
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn intercept_queues_from_several_threads() {
    let Some(stage) = stage("intercept_queues_from_several_threads") else { return };
    let (out, report) =
        with_tool(&stage, "newest", "multi_queue", &["4", "10", "--no-profiling"], &[("COUNT_TOOL_INTERCEPT", "1")]);
    assert_eq!(number(&report, "intercept_queues"), 4);
    assert_eq!(number(&report, "kernel_dispatches_seen"), 40);
    assert_eq!(number(&report, "packets_emitted"), 80);
    assert_eq!(number(&report, "off_doorbell_thread"), 0);
    assert_eq!(number(&report, "index_errors"), 0);
    assert_counts_match("intercepted multi_queue", &out, &report, 1);
}

#[test]
fn tool_is_loaded_and_unloaded_once_per_init_cycle() {
    let Some(stage) = stage("tool_is_loaded_and_unloaded_once_per_init_cycle") else { return };
    for abi in ["5.2", "newest"] {
        // Three cycles of hsa_init, nested hsa_init, work, hsa_shut_down x 2: only the outer pair
        // loads and unloads the runtime, so OnLoad/OnUnload run three times each, and the
        // wrappers installed by each OnLoad see that cycle's calls (no wrapper left over from
        // an earlier cycle counts twice: the runtime resets its table at shutdown).
        let (out, report) = with_tool(&stage, abi, "init_cycles", &["3"], &[]);
        assert!(out.stdout.contains("init_cycles: 3 cycles"), "{}", out.stdout);
        assert_eq!(number(&report, "onload_calls"), 3, "{abi}");
        assert_eq!(number(&report, "onunload_calls"), 3, "{abi}");
        assert_counts_match(&format!("{abi} init_cycles"), &out, &report, 1);
        assert_eq!(number(&report, "call.hsa_queue_create"), 3, "{abi}");
    }
}
