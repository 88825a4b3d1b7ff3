//! `ROCPROF_RS_INTERCEPT_FAULT`: test-only fault injection inside the interception library, so that
//! tests can check how an internal failure (a bug) in a completion handler is survived and counted.
//! Not set by the CLI and never needed in a real run.
//!
//! Syntax: `completion@N` (`@N` optional, default 0): the completion handler after the first N fails
//! once, by panicking at its entry as a bug would. "Completion handler" is whatever records a traced
//! dispatch's completion: the runtime's async handler of a gated dispatch
//! (`ROCPROF_RS_GATE_COMPLETIONS=1`, `queue::on_complete`), otherwise the recording done by the
//! application thread that waited for the dispatch or by the writer thread's poll (`queue::finish`);
//! and the runtime's async handler of a traced copy (`memory::on_copy_complete`).
//! Anything else is reported once and ignored. Read once, when the library initialises.
//!
//! Cost when unset: one relaxed atomic load per recorded completion.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::diag;
use crate::diag::Level;

/// Environment variable.
pub const ENV: &str = rocprof_launch::names::INTERCEPT_FAULT;

/// 0: no fault; else the number (from 1) of the completion that fails.
static COMPLETION_FAILS: AtomicU64 = AtomicU64::new(0);
/// Completions handled so far (counted only while a fault is armed).
static COMPLETIONS: AtomicU64 = AtomicU64::new(0);

/// Parses the variable's value: the number (from 1) of the completion that fails.
fn parse(spec: &str) -> Result<u64, String> {
    let spec = spec.trim();
    let (what, after) = spec.split_once('@').unwrap_or((spec, "0"));
    let after: u64 = after.trim().parse().map_err(|_| format!("`{spec}`: `{after}` is not a number"))?;
    match what.trim() {
        "completion" => Ok(after.saturating_add(1)),
        other => Err(format!("unknown fault `{other}` (expected completion[@N])")),
    }
}

/// Reads [`ENV`] (cold path, once at initialisation).
pub fn init() {
    let Ok(spec) = std::env::var(ENV) else { return };
    match parse(&spec) {
        Ok(n) => {
            COMPLETIONS.store(0, Ordering::Relaxed);
            COMPLETION_FAILS.store(n, Ordering::Relaxed);
            diag!(Level::Warning, "{ENV}={spec}: completion handler {n} will fail (fault injection for tests)");
        }
        Err(e) => diag!(Level::Error, "{ENV}: {e}; ignored"),
    }
}

/// Called at the entry of every completion handler: panics in the one [`ENV`] names.
#[inline]
pub fn completion() {
    let at = COMPLETION_FAILS.load(Ordering::Relaxed);
    if at != 0 {
        completion_armed(at);
    }
}

#[cold]
fn completion_armed(at: u64) {
    if COMPLETIONS.fetch_add(1, Ordering::Relaxed) + 1 == at {
        panic!("{ENV}: injected failure of completion handler {at}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_faults_parse_and_nonsense_is_refused() {
        assert_eq!(parse("completion"), Ok(1));
        assert_eq!(parse(" completion@4 "), Ok(5));
        for bad in ["completion@x", "queue@1", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_the_armed_completion_fails() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        COMPLETION_FAILS.store(3, Ordering::Relaxed);
        let outcomes: Vec<bool> = (0..5).map(|_| std::panic::catch_unwind(completion).is_ok()).collect();
        COMPLETION_FAILS.store(0, Ordering::Relaxed);
        std::panic::set_hook(prev);
        assert_eq!(outcomes, [true, true, false, true, true]);
    }
}
