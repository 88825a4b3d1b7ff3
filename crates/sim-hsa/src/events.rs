//! The runtime's async-event thread: runs `hsa_amd_signal_async_handler` handlers and
//! `hsa_amd_async_function` callbacks, serially, on one runtime-owned thread (as ROCr does).
//!
//! Handlers are evaluated after every signal mutation (and on a slow tick for out-of-band writes) and called
//! without holding the registry lock, because handlers routinely create signals, register further handlers,
//! destroy the signal they were called for and submit packets. `true` keeps the handler (re-evaluated right
//! away), `false` removes it.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::{Mutex, Once};
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::ffi::{status, Status};
use crate::runtime::system;
use crate::signal::{self, satisfied, Signal, ANY_SIGNAL};

type HandlerFn = unsafe extern "C" fn(hsa_signal_value_t, *mut c_void) -> bool;
type AsyncFn = unsafe extern "C" fn(*mut c_void);

struct Handler {
    id: u64,
    signal: &'static Signal,
    cond: hsa_signal_condition_t,
    value: i64,
    f: HandlerFn,
    arg: usize,
}

enum Job {
    C(AsyncFn, usize),
    Rust(Box<dyn FnOnce() + Send>),
}

struct State {
    next_id: u64,
    handlers: Vec<Handler>,
    functions: VecDeque<Job>,
}

static STATE: Mutex<State> = Mutex::new(State { next_id: 1, handlers: Vec::new(), functions: VecDeque::new() });
static START: Once = Once::new();

fn start() {
    START.call_once(|| {
        std::thread::Builder::new().name("hsa-sim-async".into()).spawn(run).expect("spawning the async-event thread");
    });
}

fn run() {
    loop {
        let seen = ANY_SIGNAL.generation();
        let mut progressed = false;
        // Async functions first, in submission order.
        loop {
            let next = STATE.lock().unwrap_or_else(|e| e.into_inner()).functions.pop_front();
            match next {
                None => break,
                // SAFETY: registered through hsa_amd_async_function with this signature and argument.
                Some(Job::C(f, arg)) => unsafe { f(arg as *mut c_void) },
                Some(Job::Rust(f)) => f(),
            }
            progressed = true;
        }
        // Then every handler whose condition holds.
        let ready: Vec<(u64, HandlerFn, i64, usize)> = {
            let st = STATE.lock().unwrap_or_else(|e| e.into_inner());
            st.handlers
                .iter()
                .filter_map(|h| {
                    let v = h.signal.load();
                    satisfied(h.cond, v, h.value).then_some((h.id, h.f, v, h.arg))
                })
                .collect()
        };
        for (id, f, v, arg) in ready {
            // Skip handlers removed meanwhile (e.g. their signal was destroyed by an earlier handler).
            if !STATE.lock().unwrap_or_else(|e| e.into_inner()).handlers.iter().any(|h| h.id == id) {
                continue;
            }
            // SAFETY: the handler and argument were registered together through the C API.
            let keep = unsafe { f(v, arg as *mut c_void) };
            progressed = true;
            if !keep {
                STATE.lock().unwrap_or_else(|e| e.into_inner()).handlers.retain(|h| h.id != id);
            }
        }
        if !progressed {
            ANY_SIGNAL.wait(seen, Duration::from_millis(5));
        }
    }
}

/// Runs `f` later on the async-event thread (runtime-internal deferred work).
pub(crate) fn run_async(f: Box<dyn FnOnce() + Send>) {
    STATE.lock().unwrap_or_else(|e| e.into_inner()).functions.push_back(Job::Rust(f));
    start();
    ANY_SIGNAL.notify();
}

/// Drops handlers of a destroyed signal.
fn forget_signal(s: &'static Signal) {
    STATE.lock().unwrap_or_else(|e| e.into_inner()).handlers.retain(|h| !std::ptr::eq(h.signal, s));
}

/// Registers a handler from inside the runtime (e.g. intercept-queue retry).
pub(crate) fn register(signal: &'static Signal, cond: hsa_signal_condition_t, value: i64, f: HandlerFn, arg: usize) {
    {
        let mut st = STATE.lock().unwrap_or_else(|e| e.into_inner());
        let id = st.next_id;
        st.next_id += 1;
        // A destroyed signal's handlers are dropped (`forget_signal`).
        crate::signal::on_destroy(forget_signal);
        st.handlers.push(Handler { id, signal, cond, value, f, arg });
    }
    start();
    ANY_SIGNAL.notify();
}

pub(crate) unsafe extern "C" fn hsa_amd_signal_async_handler(
    signal: hsa_signal_t,
    cond: hsa_signal_condition_t,
    value: hsa_signal_value_t,
    handler: hsa_amd_signal_handler,
    arg: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let s = signal::lookup(signal)?;
        let f = handler.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        if cond > HSA_SIGNAL_CONDITION_GTE {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if s.attributes.load(std::sync::atomic::Ordering::Relaxed) & u64::from(HSA_AMD_SIGNAL_AMD_GPU_ONLY) != 0
            || !s.cpu_consumer.load(std::sync::atomic::Ordering::Relaxed)
        {
            return Err(HSA_STATUS_ERROR_INVALID_SIGNAL);
        }
        if crate::faults::fail("hsa_amd_signal_async_handler") {
            return Err(crate::faults::REFUSED);
        }
        register(s, cond, value, f, arg as usize);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_async_function(
    callback: Option<unsafe extern "C" fn(arg: *mut c_void)>,
    arg: *mut c_void,
) -> hsa_status_t {
    status(|| -> Result<(), Status> {
        system()?;
        let f = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        STATE.lock().unwrap_or_else(|e| e.into_inner()).functions.push_back(Job::C(f, arg as usize));
        start();
        ANY_SIGNAL.notify();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CALLS: AtomicUsize = AtomicUsize::new(0);

    unsafe extern "C" fn once(v: i64, _arg: *mut c_void) -> bool {
        assert_eq!(v, -1);
        CALLS.fetch_add(1, Ordering::SeqCst);
        false
    }

    #[test]
    fn handler_runs_once_when_condition_holds() {
        let s = signal::create(1, 1, 0, true);
        register(s, HSA_SIGNAL_CONDITION_EQ, -1, once, 0);
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(CALLS.load(Ordering::SeqCst), 0);
        s.subtract(2);
        // Bounded generously (5 s): the async thread may be slow to run on a loaded machine.
        for _ in 0..2500 {
            if CALLS.load(Ordering::SeqCst) == 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(CALLS.load(Ordering::SeqCst), 1, "one-shot handler must run exactly once");
    }
}
