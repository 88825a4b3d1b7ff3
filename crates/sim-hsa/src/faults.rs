//! `ROCPROF_RS_SIM_FAIL`: simulator-only fault injection, so that tests can make the runtime refuse
//! calls the way ROCr can (out of queues, out of memory, no more async-handler slots) and check that
//! a tool or application copes. Not a ROCr variable: real ROCr has no such knob.
//!
//! Syntax: `FUNCTION[@N][,FUNCTION[@N]...]`: every call of FUNCTION after its first N (default 0)
//! returns `HSA_STATUS_ERROR_OUT_OF_RESOURCES` without doing anything, which is what ROCr returns
//! when the kernel driver has no queue left or it cannot allocate. FUNCTION is one of
//! [`FUNCTIONS`]; anything else is reported once on stderr and ignored. Read at the first use in
//! the process.
//!
//! One name is a device fault, not a function: `pmc_read[@N]`: every PM4 packet that reads
//! performance counters back to memory (a profiler's counter read), after the first N, executes but
//! its completion signal is never decremented, as if the command processor lost it (the queue goes
//! on). Tests use it to check that a profiler reports counters it could not read back, and that
//! neither it nor the application waits forever for them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The functions (and the device fault [`PMC_READ`]) a rule can name.
pub(crate) const FUNCTIONS: [&str; 8] = [
    "hsa_queue_create",
    "hsa_amd_queue_intercept_create",
    "hsa_amd_queue_intercept_register",
    "hsa_amd_signal_async_handler",
    "hsa_signal_create",
    "hsa_amd_signal_create",
    "hsa_amd_memory_pool_allocate",
    PMC_READ,
];

/// The device fault: a counter-reading PM4 packet's completion signal is dropped.
pub(crate) const PMC_READ: &str = "pmc_read";

/// What a refused call returns.
pub(crate) const REFUSED: rocprof_hsa_sys::hsa_status_t = rocprof_hsa_sys::HSA_STATUS_ERROR_OUT_OF_RESOURCES;

struct Rule {
    function: &'static str,
    /// Calls that still succeed.
    after: u64,
    calls: AtomicU64,
}

fn parse(spec: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, after) = match item.split_once('@') {
            Some((n, a)) => (n.trim(), a.trim().parse::<u64>().ok()),
            None => (item, Some(0)),
        };
        match (FUNCTIONS.iter().find(|f| **f == name), after) {
            (Some(f), Some(after)) => rules.push(Rule { function: f, after, calls: AtomicU64::new(0) }),
            _ => crate::diag!(
                "{}: ignoring {item:?} (expected FUNCTION[@N] with FUNCTION one of {})",
                rocprof_launch::names::SIM_FAIL,
                FUNCTIONS.join(", ")
            ),
        }
    }
    rules
}

fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| std::env::var(rocprof_launch::names::SIM_FAIL).map(|s| parse(&s)).unwrap_or_default())
}

/// Whether this call of `function` is to fail (counts the call).
pub(crate) fn fail(function: &'static str) -> bool {
    let rules = rules();
    if rules.is_empty() {
        return false;
    }
    rules.iter().filter(|r| r.function == function).any(|r| r.calls.fetch_add(1, Ordering::Relaxed) >= r.after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_fail_after_their_count_and_ignore_unknown_names() {
        let rules = parse("hsa_queue_create@2, hsa_amd_signal_async_handler,nonsense,hsa_signal_create@x,pmc_read@1");
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[2].function, PMC_READ);
        let calls = |r: &Rule| (0..4).map(|_| r.calls.fetch_add(1, Ordering::Relaxed) >= r.after).collect::<Vec<_>>();
        assert_eq!(calls(&rules[0]), [false, false, true, true]);
        assert_eq!(calls(&rules[1]), [true, true, true, true]);
    }
}
