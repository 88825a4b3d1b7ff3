//! Signals. A handle is the address of a 64-byte, 64-byte-aligned block with `amd_signal_t`'s layout
//! (kind @0, value @8, start_ts @32, end_ts @40, queue_ptr @48), followed by hidden bookkeeping. Tools write
//! `start_ts`/`end_ts` through the handle and device-like code reads `value` directly, so the layout is the
//! contract; the offsets are pinned against `rocprof_hsa_sys::amd_signal_t` below.
//!
//! Waiting: every API mutation bumps a per-signal futex generation and a process-wide one (for
//! `wait_any`, barrier packets and the async-handler thread); waiters also re-read the value at least every
//! millisecond, so writes made outside the API are noticed.
//!
//! Storage: every signal lives in one address range reserved at the first creation ([`MAX_SIGNALS`]
//! blocks of `size_of::<Signal>()` bytes, `MAP_NORESERVE`, touched on demand). A handle is valid when it
//! points at a block below the high-water mark whose magic word says "live": a range check and one load,
//! no lock and no registry on any signal operation (ROCr's `hsa_signal_*` take no process-wide lock
//! either). Destroyed blocks are recycled, oldest first (creation and destruction take one mutex), so a
//! program that creates and destroys millions of signals keeps a flat footprint; a block's memory is never
//! unmapped, so a stale handle (a tool's late callback) reads a signal, never freed memory, and the
//! operations on a destroyed handle fail with `INVALID_SIGNAL` until the block is reused.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use rocprof_hsa_sys::*;

use crate::ffi::{put, status, Status};
use crate::futex::Event;
use crate::runtime::system;

const MAGIC: u64 = 0x5349_474e_414c_5f31; // "SIGNAL_1"

/// Doorbell target tags stored in [`Signal::doorbell`] (low bit of the pointer).
pub(crate) const DOORBELL_INTERCEPT: usize = 1;

/// What ringing a doorbell does (wake the queue's packet processor, or process an intercept queue's
/// proxy ring), given the signal's doorbell tag and value. Set by the queue code before it tags its
/// first doorbell: signals sit below queues and do not name them.
static DOORBELL_RUNG: OnceLock<fn(usize, i64)> = OnceLock::new();

/// Sets what ringing a doorbell does (once per process; later calls keep the first).
pub(crate) fn on_doorbell(f: fn(usize, i64)) {
    let _ = DOORBELL_RUNG.set(f);
}

/// What destroying a signal also forgets (the async handlers waiting on it). Set by the event code
/// before it registers its first handler.
static DESTROYED: OnceLock<fn(&'static Signal)> = OnceLock::new();

/// Sets what destroying a signal also forgets (once per process).
pub(crate) fn on_destroy(f: fn(&'static Signal)) {
    let _ = DESTROYED.set(f);
}

#[repr(C, align(64))]
pub(crate) struct Signal {
    pub(crate) kind: AtomicI64,
    pub(crate) value: AtomicI64,
    event_mailbox_ptr: AtomicU64,
    event_id: AtomicU32,
    reserved1: AtomicU32,
    pub(crate) start_ts: AtomicU64,
    pub(crate) end_ts: AtomicU64,
    pub(crate) queue_ptr: AtomicU64,
    reserved3: [AtomicU32; 2],
    // ---- hidden part (not visible through amd_signal_t) ----
    magic: AtomicU64,
    pub(crate) event: Event,
    /// 0, or the address of the queue whose doorbell this is (tagged with [`DOORBELL_INTERCEPT`]).
    pub(crate) doorbell: AtomicUsize,
    /// Agent handle of the last async copy completed on this signal (0 = none).
    pub(crate) copy_agent: AtomicU64,
    /// Start/end of that copy in the system domain (ns).
    pub(crate) copy_start_ns: AtomicU64,
    pub(crate) copy_end_ns: AtomicU64,
    pub(crate) attributes: AtomicU64,
    /// False when the consumer list excludes every CPU agent.
    pub(crate) cpu_consumer: AtomicBool,
}

const _: () = {
    use std::mem::{align_of, offset_of};
    assert!(offset_of!(Signal, kind) == offset_of!(amd_signal_t, kind));
    assert!(offset_of!(Signal, value) == offset_of!(amd_signal_t, value));
    assert!(offset_of!(Signal, event_mailbox_ptr) == offset_of!(amd_signal_t, event_mailbox_ptr));
    assert!(offset_of!(Signal, event_id) == offset_of!(amd_signal_t, event_id));
    assert!(offset_of!(Signal, start_ts) == offset_of!(amd_signal_t, start_ts));
    assert!(offset_of!(Signal, end_ts) == offset_of!(amd_signal_t, end_ts));
    assert!(offset_of!(Signal, queue_ptr) == offset_of!(amd_signal_t, queue_ptr));
    assert!(offset_of!(Signal, reserved3) == offset_of!(amd_signal_t, reserved3));
    assert!(offset_of!(Signal, magic) == size_of::<amd_signal_t>());
    assert!(align_of::<Signal>() == align_of::<amd_signal_t>());
};

/// Bumped on every signal mutation anywhere (multi-signal waiters, async handlers, barrier packets).
pub(crate) static ANY_SIGNAL: Event = Event::new();

/// Most signals alive at once (512 MiB of address space at 128 bytes each, only touched pages use memory).
pub(crate) const MAX_SIGNALS: usize = 1 << 22;

/// The reserved range: its base address (0 when the reservation failed).
static REGION: OnceLock<usize> = OnceLock::new();
/// Blocks handed out so far (the high-water mark).
static HIGH: AtomicUsize = AtomicUsize::new(0);
/// Destroyed blocks, reused oldest first.
static FREE: Mutex<VecDeque<u32>> = Mutex::new(VecDeque::new());
/// Live signals (a statistic for tests).
static LIVE_COUNT: AtomicUsize = AtomicUsize::new(0);

fn region() -> usize {
    *REGION.get_or_init(|| {
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                MAX_SIGNALS * size_of::<Signal>(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            0
        } else {
            p as usize
        }
    })
}

/// The block of signal number `i` (below [`MAX_SIGNALS`]).
fn block(i: usize) -> &'static Signal {
    // SAFETY: `i < MAX_SIGNALS`, so the block lies inside the reserved range, which is never unmapped;
    // zeroed or previously initialised memory is a valid `Signal` (all fields are atomics or plain
    // integers), and every field is only accessed atomically.
    unsafe { &*((region() + i * size_of::<Signal>()) as *const Signal) }
}

/// Signals alive now.
#[cfg(test)]
pub(crate) fn live_count() -> usize {
    LIVE_COUNT.load(Ordering::Relaxed)
}

impl Signal {
    pub(crate) fn handle(&'static self) -> hsa_signal_t {
        hsa_signal_t { handle: self as *const Signal as u64 }
    }

    pub(crate) fn load(&self) -> i64 {
        self.value.load(Ordering::Acquire)
    }

    /// Wakes waiters, the async thread and, for doorbells, the queue behind it.
    pub(crate) fn changed(&'static self, wake_waiters: bool) {
        if wake_waiters {
            self.event.notify();
        }
        ANY_SIGNAL.notify();
        let db = self.doorbell.load(Ordering::Acquire);
        if db != 0 {
            if let Some(rung) = DOORBELL_RUNG.get() {
                rung(db, self.load());
            }
        }
    }

    pub(crate) fn store(&'static self, v: i64) {
        self.value.store(v, Ordering::Release);
        self.changed(true);
    }

    pub(crate) fn subtract(&'static self, v: i64) -> i64 {
        let old = self.value.fetch_sub(v, Ordering::AcqRel);
        self.changed(true);
        old
    }

    /// Blocks until `cond(value, compare)` holds or the timeout (ns; `u64::MAX` = forever) passes; returns
    /// the last observed value.
    pub(crate) fn wait(&self, cond: hsa_signal_condition_t, compare: i64, timeout_ns: u64) -> i64 {
        let deadline = deadline(timeout_ns);
        loop {
            let seen = self.event.generation();
            let v = self.load();
            if satisfied(cond, v, compare) {
                return v;
            }
            match remaining(deadline) {
                Some(d) if d.is_zero() => return v,
                Some(d) => self.event.wait(seen, d.min(Duration::from_millis(1))),
                None => self.event.wait(seen, Duration::from_millis(1)),
            }
        }
    }
}

pub(crate) fn deadline(timeout_ns: u64) -> Option<Instant> {
    if timeout_ns == u64::MAX {
        None
    } else {
        Instant::now().checked_add(Duration::from_nanos(timeout_ns))
    }
}

/// `None` = no deadline; `Some(0)` = expired.
pub(crate) fn remaining(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

/// HSA's four conditions, signed comparison.
pub(crate) fn satisfied(cond: hsa_signal_condition_t, v: i64, compare: i64) -> bool {
    match cond {
        HSA_SIGNAL_CONDITION_EQ => v == compare,
        HSA_SIGNAL_CONDITION_NE => v != compare,
        HSA_SIGNAL_CONDITION_LT => v < compare,
        HSA_SIGNAL_CONDITION_GTE => v >= compare,
        _ => true,
    }
}

/// Creates a signal (runtime-internal users too: doorbells, copy and retry signals). `None` when
/// [`MAX_SIGNALS`] are alive (or the address range could not be reserved).
pub(crate) fn try_create(initial: i64, kind: i64, attributes: u64, cpu_consumer: bool) -> Option<&'static Signal> {
    if region() == 0 {
        return None;
    }
    let reused = FREE.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
    let i = match reused {
        Some(i) => i as usize,
        None => {
            let i = HIGH.fetch_add(1, Ordering::AcqRel);
            if i >= MAX_SIGNALS {
                HIGH.fetch_sub(1, Ordering::AcqRel);
                return None;
            }
            i
        }
    };
    let s = block(i);
    // Field by field: a stale handle to the block's previous signal may be read concurrently.
    s.kind.store(kind, Ordering::Relaxed);
    s.value.store(initial, Ordering::Relaxed);
    s.event_mailbox_ptr.store(0, Ordering::Relaxed);
    s.event_id.store(0, Ordering::Relaxed);
    s.reserved1.store(0, Ordering::Relaxed);
    s.start_ts.store(0, Ordering::Relaxed);
    s.end_ts.store(0, Ordering::Relaxed);
    s.queue_ptr.store(0, Ordering::Relaxed);
    s.reserved3[0].store(0, Ordering::Relaxed);
    s.reserved3[1].store(0, Ordering::Relaxed);
    s.doorbell.store(0, Ordering::Relaxed);
    s.copy_agent.store(0, Ordering::Relaxed);
    s.copy_start_ns.store(0, Ordering::Relaxed);
    s.copy_end_ns.store(0, Ordering::Relaxed);
    s.attributes.store(attributes, Ordering::Relaxed);
    s.cpu_consumer.store(cpu_consumer, Ordering::Relaxed);
    // Publishes the fields above to every `lookup`.
    s.magic.store(MAGIC, Ordering::Release);
    LIVE_COUNT.fetch_add(1, Ordering::Relaxed);
    Some(s)
}

/// [`try_create`] for the runtime's own signals, which it cannot do without.
pub(crate) fn create(initial: i64, kind: i64, attributes: u64, cpu_consumer: bool) -> &'static Signal {
    try_create(initial, kind, attributes, cpu_consumer).expect("room for one of the runtime's own signals")
}

/// The signals' address range as kernels see it (every block handed out so far): device code reads and
/// atomically updates `amd_signal_t::value` through a handle, as HIP's hostcall doorbell does
/// (`__ockl_hsa_signal_add`). Empty before the first signal.
pub(crate) fn device_range() -> (u64, u64) {
    let base = region() as u64;
    let high = HIGH.load(Ordering::Acquire).min(MAX_SIGNALS) as u64;
    if base == 0 {
        return (0, 0);
    }
    (base, base + high * size_of::<Signal>() as u64)
}

/// Validates a handle without a lock: 0 -> `INVALID_ARGUMENT` (ROCr), not a live signal of ours ->
/// `INVALID_SIGNAL`.
pub(crate) fn lookup(h: hsa_signal_t) -> Result<&'static Signal, Status> {
    if h.handle == 0 {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let base = region();
    let off = (h.handle as usize).wrapping_sub(base);
    let size = size_of::<Signal>();
    if base == 0 || off % size != 0 || off / size >= HIGH.load(Ordering::Acquire).min(MAX_SIGNALS) {
        return Err(HSA_STATUS_ERROR_INVALID_SIGNAL);
    }
    let s = block(off / size);
    if s.magic.load(Ordering::Acquire) == MAGIC {
        Ok(s)
    } else {
        Err(HSA_STATUS_ERROR_INVALID_SIGNAL)
    }
}

fn destroy(s: &'static Signal) {
    if s.magic.compare_exchange(MAGIC, 0, Ordering::AcqRel, Ordering::Acquire).is_err() {
        return; // destroyed already (a racing second destroy)
    }
    if let Some(forget) = DESTROYED.get() {
        forget(s);
    }
    // Wake anyone still waiting on it (they re-check and see a dead signal's last value).
    s.changed(true);
    LIVE_COUNT.fetch_sub(1, Ordering::Relaxed);
    let i = ((s as *const Signal as usize) - region()) / size_of::<Signal>();
    FREE.lock().unwrap_or_else(|e| e.into_inner()).push_back(i as u32);
}

fn create_checked(
    initial: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    attributes: u64,
    out: *mut hsa_signal_t,
) -> Result<(), Status> {
    system()?;
    if out.is_null() || (num_consumers > 0 && consumers.is_null()) {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let mut cpu_consumer = num_consumers == 0;
    for i in 0..num_consumers as usize {
        // SAFETY: the caller passes `num_consumers` agents at `consumers` (checked non-null).
        let a = unsafe { consumers.add(i).read_unaligned() };
        let agent = crate::agent::lookup(a).map_err(|_| HSA_STATUS_ERROR_INVALID_AGENT)?;
        if agent.is_cpu() {
            cpu_consumer = true;
        }
    }
    let s = try_create(initial, AMD_SIGNAL_KIND_USER as i64, attributes, cpu_consumer)
        .ok_or(HSA_STATUS_ERROR_OUT_OF_RESOURCES)?;
    // SAFETY: `out` is a non-null out-pointer from the caller.
    unsafe { put(out.cast(), s.handle()) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_signal_create(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    signal: *mut hsa_signal_t,
) -> hsa_status_t {
    status(|| {
        if crate::faults::fail("hsa_signal_create") {
            return Err(crate::faults::REFUSED);
        }
        create_checked(initial_value, num_consumers, consumers, 0, signal)
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_signal_create(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    attributes: u64,
    signal: *mut hsa_signal_t,
) -> hsa_status_t {
    status(|| {
        if crate::faults::fail("hsa_amd_signal_create") {
            return Err(crate::faults::REFUSED);
        }
        create_checked(initial_value, num_consumers, consumers, attributes, signal)
    })
}

pub(crate) unsafe extern "C" fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t {
    status(|| {
        system()?;
        let s = lookup(signal)?;
        if s.doorbell.load(Ordering::Acquire) != 0 {
            // A queue's doorbell belongs to the queue.
            return Err(HSA_STATUS_ERROR_INVALID_SIGNAL);
        }
        destroy(s);
        Ok(())
    })
}

fn with_signal<R>(signal: hsa_signal_t, default: R, f: impl FnOnce(&'static Signal) -> R) -> R {
    match lookup(signal) {
        Ok(s) => f(s),
        Err(_) => default,
    }
}

pub(crate) unsafe extern "C" fn hsa_signal_load_relaxed(signal: hsa_signal_t) -> hsa_signal_value_t {
    with_signal(signal, 0, |s| s.value.load(Ordering::Relaxed))
}

pub(crate) unsafe extern "C" fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> hsa_signal_value_t {
    with_signal(signal, 0, |s| s.value.load(Ordering::Acquire))
}

pub(crate) unsafe extern "C" fn hsa_signal_store_relaxed(signal: hsa_signal_t, value: hsa_signal_value_t) {
    with_signal(signal, (), |s| {
        s.value.store(value, Ordering::Relaxed);
        s.changed(true)
    })
}

pub(crate) unsafe extern "C" fn hsa_signal_store_screlease(signal: hsa_signal_t, value: hsa_signal_value_t) {
    with_signal(signal, (), |s| s.store(value))
}

pub(crate) unsafe extern "C" fn hsa_signal_silent_store_relaxed(signal: hsa_signal_t, value: hsa_signal_value_t) {
    with_signal(signal, (), |s| {
        s.value.store(value, Ordering::Relaxed);
        s.changed(false)
    })
}

pub(crate) unsafe extern "C" fn hsa_signal_silent_store_screlease(signal: hsa_signal_t, value: hsa_signal_value_t) {
    with_signal(signal, (), |s| {
        s.value.store(value, Ordering::Release);
        s.changed(false)
    })
}

macro_rules! rmw {
    ($($name:ident => |$s:ident, $v:ident| $op:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) {
            with_signal(signal, (), |$s| {
                let $v = value;
                $op;
                $s.changed(true)
            })
        }
    )*};
}

rmw! {
    hsa_signal_add_relaxed => |s, v| s.value.fetch_add(v, Ordering::Relaxed);
    hsa_signal_add_scacquire => |s, v| s.value.fetch_add(v, Ordering::Acquire);
    hsa_signal_add_screlease => |s, v| s.value.fetch_add(v, Ordering::Release);
    hsa_signal_add_scacq_screl => |s, v| s.value.fetch_add(v, Ordering::AcqRel);
    hsa_signal_subtract_relaxed => |s, v| s.value.fetch_sub(v, Ordering::Relaxed);
    hsa_signal_subtract_scacquire => |s, v| s.value.fetch_sub(v, Ordering::Acquire);
    hsa_signal_subtract_screlease => |s, v| s.value.fetch_sub(v, Ordering::Release);
    hsa_signal_subtract_scacq_screl => |s, v| s.value.fetch_sub(v, Ordering::AcqRel);
    hsa_signal_and_relaxed => |s, v| s.value.fetch_and(v, Ordering::Relaxed);
    hsa_signal_and_scacquire => |s, v| s.value.fetch_and(v, Ordering::Acquire);
    hsa_signal_and_screlease => |s, v| s.value.fetch_and(v, Ordering::Release);
    hsa_signal_and_scacq_screl => |s, v| s.value.fetch_and(v, Ordering::AcqRel);
    hsa_signal_or_relaxed => |s, v| s.value.fetch_or(v, Ordering::Relaxed);
    hsa_signal_or_scacquire => |s, v| s.value.fetch_or(v, Ordering::Acquire);
    hsa_signal_or_screlease => |s, v| s.value.fetch_or(v, Ordering::Release);
    hsa_signal_or_scacq_screl => |s, v| s.value.fetch_or(v, Ordering::AcqRel);
    hsa_signal_xor_relaxed => |s, v| s.value.fetch_xor(v, Ordering::Relaxed);
    hsa_signal_xor_scacquire => |s, v| s.value.fetch_xor(v, Ordering::Acquire);
    hsa_signal_xor_screlease => |s, v| s.value.fetch_xor(v, Ordering::Release);
    hsa_signal_xor_scacq_screl => |s, v| s.value.fetch_xor(v, Ordering::AcqRel);
}

macro_rules! exchange {
    ($($name:ident => $ord:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) -> hsa_signal_value_t {
            with_signal(signal, 0, |s| {
                let old = s.value.swap(value, $ord);
                s.changed(true);
                old
            })
        }
    )*};
}

exchange! {
    hsa_signal_exchange_relaxed => Ordering::Relaxed;
    hsa_signal_exchange_scacquire => Ordering::Acquire;
    hsa_signal_exchange_screlease => Ordering::Release;
    hsa_signal_exchange_scacq_screl => Ordering::AcqRel;
}

macro_rules! cas {
    ($($name:ident => $ok:expr, $fail:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(
            signal: hsa_signal_t,
            expected: hsa_signal_value_t,
            value: hsa_signal_value_t,
        ) -> hsa_signal_value_t {
            with_signal(signal, 0, |s| match s.value.compare_exchange(expected, value, $ok, $fail) {
                Ok(old) => {
                    s.changed(true);
                    old
                }
                Err(observed) => observed,
            })
        }
    )*};
}

cas! {
    hsa_signal_cas_relaxed => Ordering::Relaxed, Ordering::Relaxed;
    hsa_signal_cas_scacquire => Ordering::Acquire, Ordering::Acquire;
    hsa_signal_cas_screlease => Ordering::Release, Ordering::Relaxed;
    hsa_signal_cas_scacq_screl => Ordering::AcqRel, Ordering::Acquire;
}

pub(crate) unsafe extern "C" fn hsa_signal_wait_relaxed(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    _wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t {
    with_signal(signal, 0, |s| s.wait(condition, compare_value, timeout_hint))
}

pub(crate) unsafe extern "C" fn hsa_signal_wait_scacquire(
    signal: hsa_signal_t,
    condition: hsa_signal_condition_t,
    compare_value: hsa_signal_value_t,
    timeout_hint: u64,
    _wait_state_hint: hsa_wait_state_t,
) -> hsa_signal_value_t {
    with_signal(signal, 0, |s| s.wait(condition, compare_value, timeout_hint))
}

/// Waits until one of `(signal, cond, value)` holds; returns its index and observed value, or `None` on timeout.
pub(crate) fn wait_any(
    items: &[(&'static Signal, hsa_signal_condition_t, i64)],
    timeout_ns: u64,
) -> Option<(usize, i64)> {
    let deadline = deadline(timeout_ns);
    loop {
        let seen = ANY_SIGNAL.generation();
        for (i, (s, c, v)) in items.iter().enumerate() {
            let cur = s.load();
            if satisfied(*c, cur, *v) {
                return Some((i, cur));
            }
        }
        match remaining(deadline) {
            Some(d) if d.is_zero() => return None,
            Some(d) => ANY_SIGNAL.wait(seen, d.min(Duration::from_millis(1))),
            None => ANY_SIGNAL.wait(seen, Duration::from_millis(1)),
        }
    }
}

unsafe fn collect(
    count: u32,
    signals: *const hsa_signal_t,
    conds: *const hsa_signal_condition_t,
    values: *const hsa_signal_value_t,
) -> Option<Vec<(&'static Signal, hsa_signal_condition_t, i64)>> {
    if count == 0 || signals.is_null() || conds.is_null() || values.is_null() {
        return None;
    }
    let mut v = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        // SAFETY: the caller passes `count` entries in each array (checked non-null).
        let (h, c, x) =
            unsafe { (signals.add(i).read_unaligned(), conds.add(i).read_unaligned(), values.add(i).read_unaligned()) };
        v.push((lookup(h).ok()?, c, x));
    }
    Some(v)
}

pub(crate) unsafe extern "C" fn hsa_amd_signal_wait_any(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    _wait_hint: hsa_wait_state_t,
    satisfying_value: *mut hsa_signal_value_t,
) -> u32 {
    // SAFETY: forwarded caller contract.
    let Some(items) = (unsafe { collect(signal_count, signals, conds, values) }) else { return u32::MAX };
    match wait_any(&items, timeout_hint) {
        Some((i, v)) => {
            if !satisfying_value.is_null() {
                // SAFETY: non-null out-pointer from the caller.
                unsafe { satisfying_value.write_unaligned(v) };
            }
            i as u32
        }
        None => u32::MAX,
    }
}

pub(crate) unsafe extern "C" fn hsa_amd_signal_wait_all(
    signal_count: u32,
    signals: *mut hsa_signal_t,
    conds: *mut hsa_signal_condition_t,
    values: *mut hsa_signal_value_t,
    timeout_hint: u64,
    _wait_hint: hsa_wait_state_t,
    satisfying_values: *mut hsa_signal_value_t,
) -> u32 {
    // SAFETY: forwarded caller contract.
    let Some(items) = (unsafe { collect(signal_count, signals, conds, values) }) else { return u32::MAX };
    let deadline = deadline(timeout_hint);
    loop {
        let seen = ANY_SIGNAL.generation();
        let cur: Vec<i64> = items.iter().map(|(s, _, _)| s.load()).collect();
        if items.iter().zip(&cur).all(|((_, c, v), x)| satisfied(*c, *x, *v)) {
            if !satisfying_values.is_null() {
                for (i, x) in cur.iter().enumerate() {
                    // SAFETY: the caller passes room for `signal_count` values.
                    unsafe { satisfying_values.add(i).write_unaligned(*x) };
                }
            }
            return 0;
        }
        match remaining(deadline) {
            Some(d) if d.is_zero() => return u32::MAX,
            Some(d) => ANY_SIGNAL.wait(seen, d.min(Duration::from_millis(1))),
            None => ANY_SIGNAL.wait(seen, Duration::from_millis(1)),
        }
    }
}

pub(crate) unsafe extern "C" fn hsa_amd_signal_value_pointer(
    signal: hsa_signal_t,
    value_ptr: *mut *mut hsa_signal_value_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let s = lookup(signal)?;
        if value_ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer; the value word lives forever.
        unsafe { put(value_ptr.cast(), s.value.as_ptr()) };
        Ok(())
    })
}

// ---- signal groups ----

struct Group {
    signals: Vec<&'static Signal>,
}

/// Live groups by handle (the address of the group in its `Arc`). `hsa_signal_group_destroy` drops
/// the map's reference: the group is freed then, or when a wait still using it returns.
static GROUPS: RwLock<Option<HashMap<usize, Arc<Group>>>> = RwLock::new(None);

fn group(h: hsa_signal_group_t) -> Result<Arc<Group>, Status> {
    let g = GROUPS.read().unwrap_or_else(|e| e.into_inner());
    g.as_ref().and_then(|m| m.get(&(h.handle as usize)).cloned()).ok_or(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP)
}

/// Live signal groups (a statistic for tests).
#[cfg(test)]
fn group_count() -> usize {
    GROUPS.read().unwrap_or_else(|e| e.into_inner()).as_ref().map_or(0, |m| m.len())
}

pub(crate) unsafe extern "C" fn hsa_signal_group_create(
    num_signals: u32,
    signals: *const hsa_signal_t,
    _num_consumers: u32,
    _consumers: *const hsa_agent_t,
    signal_group: *mut hsa_signal_group_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        if num_signals == 0 || signals.is_null() || signal_group.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let mut v = Vec::new();
        for i in 0..num_signals as usize {
            // SAFETY: `num_signals` handles at `signals` (checked non-null).
            v.push(lookup(unsafe { signals.add(i).read_unaligned() })?);
        }
        let g = Arc::new(Group { signals: v });
        let addr = Arc::as_ptr(&g) as usize;
        GROUPS.write().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).insert(addr, g);
        // SAFETY: non-null out-pointer.
        unsafe { put(signal_group.cast(), hsa_signal_group_t { handle: addr as u64 }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_signal_group_destroy(signal_group: hsa_signal_group_t) -> hsa_status_t {
    status(|| {
        system()?;
        let removed = GROUPS
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
            .and_then(|g| g.remove(&(signal_group.handle as usize)));
        removed.map(drop).ok_or(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP)
    })
}

unsafe fn group_wait(
    signal_group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let g = group(signal_group)?;
        if conditions.is_null() || compare_values.is_null() || signal.is_null() || value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let items: Vec<_> = g
            .signals
            .iter()
            .enumerate()
            // SAFETY: one condition and value per group member, as the API requires.
            .map(|(i, s)| unsafe { (*s, conditions.add(i).read_unaligned(), compare_values.add(i).read_unaligned()) })
            .collect();
        let (i, v) = wait_any(&items, u64::MAX).ok_or(HSA_STATUS_ERROR)?;
        // SAFETY: non-null out-pointers.
        unsafe {
            put(signal.cast(), items[i].0.handle());
            put(value.cast(), v);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_signal_group_wait_any_scacquire(
    signal_group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    _wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t {
    // SAFETY: forwarded caller contract.
    unsafe { group_wait(signal_group, conditions, compare_values, signal, value) }
}

pub(crate) unsafe extern "C" fn hsa_signal_group_wait_any_relaxed(
    signal_group: hsa_signal_group_t,
    conditions: *const hsa_signal_condition_t,
    compare_values: *const hsa_signal_value_t,
    _wait_state_hint: hsa_wait_state_t,
    signal: *mut hsa_signal_t,
    value: *mut hsa_signal_value_t,
) -> hsa_status_t {
    // SAFETY: forwarded caller contract.
    unsafe { group_wait(signal_group, conditions, compare_values, signal, value) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_thousand_signals_created_and_destroyed_reuse_their_blocks() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        crate::testing::init_gpu();
        // Sixteen free blocks first: a destroyed block goes to the back of the free list, so a test
        // creating signals meanwhile takes older blocks and this one stays destroyed while checked.
        let spare: Vec<hsa_signal_t> = (0..16).map(crate::testing::signal).collect();
        for s in spare {
            // SAFETY: our own signal.
            assert_eq!(unsafe { hsa_signal_destroy(s) }, HSA_STATUS_SUCCESS);
        }
        let high = HIGH.load(Ordering::Acquire);
        let mut first = 0;
        for i in 0..100_000i64 {
            let s = crate::testing::signal(i);
            if i == 0 {
                first = s.handle;
            }
            // SAFETY: plain calls with the signal just created.
            unsafe {
                assert_eq!(hsa_signal_load_relaxed(s), i);
                assert_eq!(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
                assert_eq!(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL, "a destroyed handle is invalid");
            }
        }
        let grown = HIGH.load(Ordering::Acquire) - high;
        // (Tests running meanwhile may create a few signals of their own.)
        assert!(grown < 100, "destroyed blocks are reused: 100000 signals took {grown} new blocks");
        assert!(live_count() < 1000, "{} signals alive", live_count());
        // Handles that are not signals of ours are refused without touching memory.
        for bad in [1u64, first + 8, region() as u64 + (MAX_SIGNALS * size_of::<Signal>()) as u64, !63u64] {
            assert_eq!(lookup(hsa_signal_t { handle: bad }).err(), Some(HSA_STATUS_ERROR_INVALID_SIGNAL), "{bad:#x}");
        }
        crate::testing::shut_down();
    }

    /// Issue 14: a destroyed signal group is released (hsa-sim leaked every group, ~110 bytes each,
    /// created by applications that wait with `hsa_signal_group_wait_any_*` once per batch), its
    /// handle is invalid afterwards, and a wait on a group destroyed meanwhile keeps it alive.
    #[test]
    fn destroyed_signal_groups_are_released() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        crate::testing::init_gpu();
        let s = crate::testing::signal(0);
        let before = group_count();
        let create = || {
            let mut g = hsa_signal_group_t { handle: 0 };
            // SAFETY: one valid signal, valid out-pointer.
            assert_eq!(unsafe { hsa_signal_group_create(1, &s, 0, std::ptr::null(), &mut g) }, HSA_STATUS_SUCCESS);
            g
        };
        let g = create();
        let held = group(g).unwrap();
        let weak = Arc::downgrade(&held);
        // SAFETY: our group.
        unsafe {
            assert_eq!(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "destroyed once only");
        }
        assert_eq!(held.signals.len(), 1, "a user of the group keeps it");
        drop(held);
        assert!(weak.upgrade().is_none(), "the destroyed group is freed");
        for _ in 0..10_000 {
            let g = create();
            let (conds, values) = ([HSA_SIGNAL_CONDITION_EQ], [0i64]);
            let (mut got, mut v) = (hsa_signal_t { handle: 0 }, -1i64);
            // SAFETY: our group; one condition and value per member; valid out-pointers.
            unsafe {
                let st = hsa_signal_group_wait_any_relaxed(
                    g,
                    conds.as_ptr(),
                    values.as_ptr(),
                    HSA_WAIT_STATE_BLOCKED,
                    &mut got,
                    &mut v,
                );
                assert_eq!((st, got.handle, v), (HSA_STATUS_SUCCESS, s.handle, 0));
                assert_eq!(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
            }
        }
        assert_eq!(group_count(), before, "10,000 groups created and destroyed leave none behind");
        // SAFETY: our signal.
        assert_eq!(unsafe { hsa_signal_destroy(s) }, HSA_STATUS_SUCCESS);
        crate::testing::shut_down();
    }

    /// Kernels update signals directly (HIP's hostcall doorbell: `__ockl_hsa_signal_add` on
    /// `amd_signal_t::value`): the signal lies inside the range kernels may touch, and a host thread
    /// waiting on it sees a write made outside the API.
    #[test]
    fn kernels_may_update_a_signal_and_a_host_waiter_sees_it() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        crate::testing::init_gpu();
        let h = crate::testing::signal(1);
        let value_at = h.handle + 8;
        let (start, end) = device_range();
        assert!(start <= h.handle && value_at + 8 <= end, "{:#x} in [{start:#x}, {end:#x})", h.handle);
        let waiter = std::thread::spawn(move || {
            // SAFETY: a live signal.
            unsafe { hsa_signal_wait_scacquire(h, HSA_SIGNAL_CONDITION_NE, 1, u64::MAX, HSA_WAIT_STATE_BLOCKED) }
        });
        std::thread::sleep(Duration::from_millis(20));
        // What the interpreter's global atomic does (`SimMemory::atomic`): a raw atomic add at the address.
        // SAFETY: the value word of a live signal, 8-byte aligned, only ever accessed atomically.
        let v = unsafe { AtomicI64::from_ptr(value_at as *mut i64) };
        v.fetch_add(1, Ordering::SeqCst);
        assert_eq!(waiter.join().unwrap(), 2);
        // SAFETY: a live signal, destroyed once.
        assert_eq!(unsafe { hsa_signal_destroy(h) }, HSA_STATUS_SUCCESS);
        crate::testing::shut_down();
    }

    #[test]
    fn conditions_are_signed() {
        assert!(satisfied(HSA_SIGNAL_CONDITION_LT, -1, 0));
        assert!(satisfied(HSA_SIGNAL_CONDITION_EQ, -1, -1));
        assert!(satisfied(HSA_SIGNAL_CONDITION_GTE, 5, 5));
        assert!(!satisfied(HSA_SIGNAL_CONDITION_NE, 5, 5));
    }

    #[test]
    fn handle_is_the_amd_signal_and_waits_see_stores_from_other_threads() {
        let s = create(1, 1, 0, true);
        let raw = s.handle().handle as *const amd_signal_t;
        // SAFETY: the handle points at a live block with amd_signal_t's layout.
        assert_eq!(unsafe { (*raw).value }, 1);
        // SAFETY: as above.
        assert_eq!(unsafe { (*raw).kind }, 1);
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            s.subtract(1);
        });
        assert_eq!(s.wait(HSA_SIGNAL_CONDITION_LT, 1, u64::MAX), 0);
        t.join().unwrap();
        // Timeout returns the last observed value.
        assert_eq!(s.wait(HSA_SIGNAL_CONDITION_EQ, 7, 2_000_000), 0);
    }

    #[test]
    fn out_of_band_writes_are_noticed() {
        let s = create(3, 1, 0, true);
        let p = s.value.as_ptr();
        let addr = p as usize;
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(3));
            // SAFETY: the signal is never freed; this mimics device code writing the value word.
            unsafe { (addr as *mut i64).write_volatile(-1) };
        });
        assert_eq!(s.wait(HSA_SIGNAL_CONDITION_EQ, -1, 2_000_000_000), -1);
        t.join().unwrap();
    }

    #[test]
    fn lookup_rejects_zero_and_garbage() {
        assert_eq!(lookup(hsa_signal_t { handle: 0 }).err(), Some(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        assert_eq!(lookup(hsa_signal_t { handle: 0xdead_beef }).err(), Some(HSA_STATUS_ERROR_INVALID_SIGNAL));
    }

    #[test]
    fn wait_any_reports_the_first_satisfied() {
        let a = create(1, 1, 0, true);
        let b = create(0, 1, 0, true);
        assert_eq!(
            wait_any(&[(a, HSA_SIGNAL_CONDITION_EQ, 0), (b, HSA_SIGNAL_CONDITION_EQ, 0)], 1_000_000),
            Some((1, 0))
        );
        assert_eq!(wait_any(&[(a, HSA_SIGNAL_CONDITION_EQ, 0)], 1_000_000), None);
    }
}
