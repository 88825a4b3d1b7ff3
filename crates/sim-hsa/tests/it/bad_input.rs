//! Bad input gets HSA's own error codes instead of a crash: the `bad_input` fixture feeds invalid
//! signals, queues, agents, code objects and malformed AQL packets and prints one line per case.

use std::time::Duration;

use crate::support::{fixture, run, stage};

/// Every case `bad_input` must report, with the status ROCr returns (`hsa-abi.md` §4.3 codes).
const CASES: &[(&str, u32)] = &[
    ("hsa_shut_down before hsa_init", 0x100b),
    ("hsa_iterate_agents before hsa_init", 0x100b),
    ("hsa_signal_destroy(handle 0)", 0x1001),
    ("hsa_signal_destroy(not a signal)", 0x1006),
    ("hsa_signal_create(NULL out)", 0x1001),
    ("hsa_amd_signal_async_handler(not a signal)", 0x1006),
    ("hsa_agent_get_info(not an agent)", 0x1004),
    ("hsa_queue_create(not an agent)", 0x1004),
    ("hsa_queue_create(size 100, not a power of two)", 0x1001),
    ("hsa_queue_create(size 0)", 0x1001),
    ("hsa_queue_destroy(NULL)", 0x1001),
    ("hsa_queue_destroy(not a queue)", 0x1007),
    ("hsa_queue_inactivate(not a queue)", 0x1007),
    ("hsa_amd_profiling_set_profiler_enabled(not a queue)", 0x1007),
    ("load of 512 bytes that are not an ELF", 0x1010),
    ("load of a code object truncated to 64 bytes", 0x1010),
    ("load of a code object whose e_machine is x86-64", 0x1010),
    ("load into a frozen executable", 0x1012),
    ("hsa_executable_get_symbol_by_name(no_such_kernel.kd)", 0x1013),
    ("kernel dispatch with setup dimensions = 0", 0x1009),
    ("kernel dispatch with workgroup_size_x = 0", 0x1009),
    ("kernel dispatch with a 2048-work-item workgroup", 0x1009),
    ("packet of reserved type 7", 0x1009),
    ("vendor-specific packet with unknown AMD format 0x77", 0x1009),
];

fn check(target: &str, stdout: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for (case, expected) in CASES {
        let prefix = format!("bad_input: {case}: got 0x");
        match stdout.lines().find_map(|l| l.strip_prefix(&prefix)) {
            None => failures.push(format!("{target}: case `{case}` not reported (crashed or hung before it?)")),
            Some(rest) => {
                let got = u32::from_str_radix(rest.split_whitespace().next().unwrap_or(""), 16).unwrap_or(u32::MAX);
                if got != *expected {
                    failures.push(format!("{target}: {case}: got 0x{got:x}, expected 0x{expected:x}"));
                }
            }
        }
    }
    // The wrong-processor load is named after the agent; ROCr answers INCOMPATIBLE_ARGUMENTS.
    let other = if target.starts_with("gfx9") { "gfx1100" } else { "gfx942" };
    let case = format!("bad_input: load of a {other} code object on a {target} agent: got 0x");
    match stdout.lines().find_map(|l| l.strip_prefix(&case)) {
        Some(rest) if rest.starts_with("100d ") => {}
        Some(rest) => failures.push(format!("{target}: wrong-ISA load: got 0x{rest}, expected 0x100d")),
        None => failures.push(format!("{target}: wrong-ISA load not reported")),
    }
    failures
}

#[test]
fn bad_input_gets_hsa_error_codes() {
    let Some(stage) = stage("bad_input_gets_hsa_error_codes") else { return };
    let mut failures = Vec::new();
    for target in ["gfx942", "gfx1100"] {
        let out = run(fixture(&stage, "bad_input", Some(target)), Duration::from_secs(120));
        failures.extend(check(target, &out.stdout));
        if failures.is_empty() {
            out.assert_ok();
            assert!(out.stdout.contains("bad_input: 0 mismatches"), "{}", out.stdout);
            // The unknown vendor format really reaches the queue (not a zero format byte).
            assert!(out.stderr.contains("vendor packet format 0x77"), "{}", out.stderr);
        } else if !out.status.success() && out.status.code() != Some(1) {
            failures.push(format!("{target}: bad_input died with {}\n{}", out.status, out.stderr));
        }
    }
    assert!(failures.is_empty(), "hsa-sim answers bad input differently from ROCr:\n  {}", failures.join("\n  "));
}
