//! API-call recording and correlation, shared by every traced library (HSA here; HIP, ROCTx and
//! the others use the same functions).
//!
//! Correlation ids come from one process-wide counter ([`next_correlation_id`]), one atomic add per
//! id, so they are dense (1..N without gaps, as rocprofiler-sdk numbers them and AMD's tracing
//! validators expect, also with several threads) and follow the calls' start order across
//! threads. The counter sits alone on its cache lines ([`Padded`]); an uncontended add costs
//! ~0.2 ns more than the per-thread blocks of 256 ids taken before (measured on the 2-core VM).
//! Each thread keeps, in constant-initialised thread-locals (a plain TLS load, no lazy
//! initialisation):
//!
//! * `innermost`: the id of the API call running on the thread (any domain), and its `parent`;
//! * `runtime`: the id of the innermost *runtime-level* call (HIP): GPU work issued while it
//!   runs belongs to it, not to the HSA calls the runtime makes underneath;
//! * `external`: the external correlation id in force (ROCTx ranges with `--kernel-rename`);
//! * `stream`: the HIP stream of the innermost runtime call that names one.
//!
//! (The context is part of the thread's [`crate::thread::Thread`], a plain-data leaf
//! ([`crate::thread::Ctx`]) whose fields this module changes; the `_on` variants take it
//! from a caller that already looked it up, so a traced call makes one thread-local lookup.)
//!
//! A traced call brackets itself with [`enter`] and [`leave`]; records of GPU work and memory
//! activity take their ids from [`issuer`]. Nothing here allocates, locks or makes a system
//! call (the timestamps come from [`timer`]).

use std::sync::atomic::{AtomicU64, Ordering};

use rocprof_model::api::ApiDomain;
use rocprof_model::capture::{ApiCallRecord, OperationNameRecord};

use crate::padded::Padded;
use crate::thread::{self, Ctx, Thread};
use crate::{state, timer};

static NEXT_CORRELATION: Padded<AtomicU64> = Padded(AtomicU64::new(1));

/// A fresh correlation id (process-wide, from 1, dense: every id is taken by one call or one
/// piece of GPU work).
#[inline]
pub fn next_correlation_id() -> u64 {
    NEXT_CORRELATION.fetch_add(1, Ordering::Relaxed)
}

/// The calling thread's context.
#[inline]
fn ctx() -> Option<&'static Ctx> {
    thread::current().map(|t| &t.api)
}

/// How a call takes part in correlation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A runtime-library call (HSA): GPU work it issues belongs to it unless a runtime-level
    /// call encloses it.
    Hsa,
    /// A runtime-level call (HIP, and libraries built on it): GPU work issued while it runs,
    /// including through nested HSA calls, belongs to it.
    Runtime,
}

pub use crate::thread::ctx::Call;

/// Starts a traced call: takes an id, makes it the thread's innermost call, reads the clock.
#[inline]
pub fn enter(level: Level) -> Call {
    enter_on(thread::current(), level)
}

/// [`enter`] with the calling thread's state already at hand (`t`: [`thread::current`]).
#[inline]
pub(crate) fn enter_on(t: Option<&Thread>, level: Level) -> Call {
    let (id, ancestor, prev_parent, prev_runtime, external) = match t {
        Some(t) => {
            let c = &t.api;
            let id = next_correlation_id();
            let ancestor = c.innermost.replace(id);
            let prev_parent = c.parent.replace(ancestor);
            let prev_runtime = if level == Level::Runtime { c.runtime.replace(id) } else { c.runtime.get() };
            (id, ancestor, prev_parent, prev_runtime, c.external.get())
        }
        None => (next_correlation_id(), 0, 0, 0, 0),
    };
    Call { id, ancestor, external, start: timer::now(), prev_parent, prev_runtime }
}

/// Starts a call that closes a range opened by an earlier call (`roctxRangePop`,
/// `roctxRangeStop`): it takes no correlation id of its own (id 0), as rocprofiler-sdk reports a
/// ROCTx range as one record under its opening call's id, and the thread's context is unchanged.
#[inline]
pub fn enter_closing() -> Call {
    let (ancestor, prev_parent, prev_runtime, external) =
        ctx().map_or((0, 0, 0, 0), |c| (c.innermost.get(), c.parent.get(), c.runtime.get(), c.external.get()));
    Call { id: 0, ancestor, external, start: timer::now(), prev_parent, prev_runtime }
}

/// Ends a traced call: restores the thread's context and returns the exit time.
#[inline]
pub fn leave(call: &Call) -> u64 {
    leave_on(thread::current(), call)
}

/// [`leave`] with the calling thread's state already at hand.
#[inline]
pub(crate) fn leave_on(t: Option<&Thread>, call: &Call) -> u64 {
    let end = timer::now();
    if let Some(t) = t {
        let c = &t.api;
        c.innermost.set(call.ancestor);
        c.parent.set(call.prev_parent);
        c.runtime.set(call.prev_runtime);
    }
    end
}

/// The ids GPU work or memory activity issued now belongs to: the innermost runtime-level call
/// if there is one, else the innermost call, else a fresh id. Returns (internal, ancestor,
/// external); the ancestor is the call around the issuing one.
#[inline]
pub fn issuer() -> (u64, u64, u64) {
    let (runtime, innermost, parent, external) =
        ctx().map_or((0, 0, 0, 0), |c| (c.runtime.get(), c.innermost.get(), c.parent.get(), c.external.get()));
    if runtime != 0 {
        let ancestor = if innermost != runtime { innermost } else { parent };
        (runtime, ancestor, external)
    } else if innermost != 0 {
        (innermost, parent, external)
    } else {
        (next_correlation_id(), 0, external)
    }
}

/// Sets the thread's external correlation id (ROCTx ranges with `--kernel-rename`); returns the
/// previous one, to be restored when the range ends.
#[inline]
pub fn set_external(id: u64) -> u64 {
    ctx().map_or(0, |c| c.external.replace(id))
}

/// Sets the HIP stream GPU work issued from now on this thread belongs to; returns the previous
/// one, to be restored when the call that named the stream returns.
#[inline]
pub fn set_stream(stream: u64) -> u64 {
    set_stream_on(thread::current(), stream)
}

/// [`set_stream`] with the calling thread's state already at hand.
#[inline]
pub(crate) fn set_stream_on(t: Option<&Thread>, stream: u64) -> u64 {
    t.map_or(0, |t| t.api.stream.replace(stream))
}

/// The HIP stream in force on this thread (0: unknown / default).
#[inline]
pub fn stream() -> u64 {
    ctx().map_or(0, |c| c.stream.get())
}

/// Writes the record of a finished call. `end` is [`leave`]'s value; `args` are the raw
/// argument words (see `rocprof_model::api::ApiCall::args`); `message` a capture string id (0:
/// none). Hot path: returns false (and the loss is counted) when the record could not be written.
#[inline]
pub fn record(domain: ApiDomain, operation: u32, call: &Call, end: u64, ret: u64, args: &[u64], message: u32) -> bool {
    record_on(thread::current(), domain, operation, call, end, ret, args, message)
}

/// [`record`] with the calling thread's state already at hand.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn record_on(
    t: Option<&Thread>,
    domain: ApiDomain,
    operation: u32,
    call: &Call,
    end: u64,
    ret: u64,
    args: &[u64],
    message: u32,
) -> bool {
    let Some(g) = state::global() else { return false };
    g.sink.write_api_call_on(t.map(|t| &t.sink), &header(t, domain, operation, call, end, ret, message), args)
}

/// [`record_on`] for callers whose argument count is a constant (the HSA wrappers): the record's
/// writer is the copy made for `N` words, with no choice left for run time.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn record_fixed_on<const N: usize>(
    t: Option<&Thread>,
    domain: ApiDomain,
    operation: u32,
    call: &Call,
    end: u64,
    ret: u64,
    args: &[u64; N],
    message: u32,
) -> bool {
    let Some(g) = state::global() else { return false };
    g.sink.write_api_call_fixed(t.map(|t| &t.sink), &header(t, domain, operation, call, end, ret, message), args)
}

/// The record header of a finished call.
#[inline(always)]
fn header(
    t: Option<&Thread>,
    domain: ApiDomain,
    operation: u32,
    call: &Call,
    end: u64,
    ret: u64,
    message: u32,
) -> ApiCallRecord {
    ApiCallRecord {
        correlation_id: call.id,
        ancestor_id: call.ancestor,
        external_id: call.external,
        start: call.start,
        end,
        ret,
        domain: u32::from(domain.as_u16()),
        operation,
        tid: t.map_or(0, |t| t.sink.tid()),
        nargs: 0,
        message,
        flags: timer::flags(),
    }
}

/// Names operation `operation` of `domain` in the capture, for domains whose names are not
/// built into `rocprof-model` (HIP's come from the HIP library at run time). Cold path: call once
/// per operation, before its first record; returns false when it could not be written.
pub fn name_operation(domain: ApiDomain, operation: u32, name: &str) -> bool {
    let Some(g) = state::global() else { return false };
    let id = g.sink.write_string(name.as_bytes());
    id != 0
        && g.sink.write(&OperationNameRecord { domain: u32::from(domain.as_u16()), operation, name: id, reserved: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_calls_chain_ancestors_and_restore_the_context() {
        std::thread::spawn(|| {
            let (fresh, _, _) = issuer();
            let hip = enter(Level::Runtime);
            assert!(hip.id > fresh);
            let hsa = enter(Level::Hsa);
            assert_eq!(hsa.ancestor, hip.id);
            // GPU work issued inside the HSA call belongs to the HIP call around it.
            assert_eq!(issuer(), (hip.id, hsa.id, 0));
            let prev = set_external(42);
            let inner = enter(Level::Hsa);
            assert_eq!((inner.ancestor, inner.external), (hsa.id, 42));
            leave(&inner);
            set_external(prev);
            leave(&hsa);
            assert_eq!(issuer(), (hip.id, 0, 0));
            leave(&hip);
            // Plain HSA: the HSA call issues.
            let a = enter(Level::Hsa);
            let b = enter(Level::Hsa);
            assert_eq!(issuer(), (b.id, a.id, 0));
            leave(&b);
            leave(&a);
            let (next, ancestor, _) = issuer();
            assert!(next > b.id && ancestor == 0, "outside any call a fresh id is used");
        })
        .join()
        .unwrap();
    }
}
