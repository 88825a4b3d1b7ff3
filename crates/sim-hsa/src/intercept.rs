//! Intercept queues (`hsa_amd_queue_intercept_create` / `_register`, table-only as in ROCr).
//!
//! The application gets a proxy queue: same `id`, size, type and features as the hardware queue it wraps,
//! but its own host ring (all headers INVALID), its own indices and a doorbell whose store runs the rewrite
//! chain **synchronously on the storing thread**, under a per-queue mutex. Each packet is handed, one at a
//! time (`pkt_count == 1`, `user_pkt_index` = proxy index, `pkts` pointing into the proxy ring), to the most
//! recently registered handler; its `writer` forwards to the next older handler and the oldest stage writes
//! into the hardware ring (slots reserved with a CAS on the write index, bodies first, the first packet's
//! header last with release ordering, then one doorbell store with the last index). After the chain returns
//! the proxy slot is invalidated and the proxy read index advanced.
//!
//! Newest ABI only: vendor packets with format `0xFE` (intercept markers) are not forwarded; their callback
//! gets the hardware queue and the index the next packet will occupy.
//!
//! Back-pressure, as in ROCr (`InterceptQueue::StoreRelaxed`): when the hardware ring is full, the rest of
//! the packets the handlers wrote for *one* application packet wait in an overflow list, and processing of
//! the proxy ring stops right after that packet. The proxy's read index then stays put, so the
//! application's ring fills up and its producer waits for a free slot, exactly as it would in front of a
//! full hardware queue; the overflow list never holds more than one packet's rewrite. One retry thread
//! per queue, for the queue's lifetime (in ROCr: a retry barrier packet with an async handler, on the one
//! async-event thread), submits the overflow as the hardware ring drains and resumes processing the proxy
//! ring. A doorbell rung from inside a handler of the same queue is deferred
//! to the async-event thread.
//!
//! Destroying an intercept queue (as ROCr releases it): under the per-queue lock the intercept is
//! marked dead, so nothing processes it any more (a deferred doorbell, a late doorbell store, the
//! retry thread all check the mark under that lock, and a deferred doorbell also checks the
//! generation it was made for); then the retry thread is stopped and joined and the hardware queue's
//! processor joined, and the intercept, its proxy and its hardware queue are kept together, with their
//! rings' pages released, for the next intercept queue of the same agent and size, which
//! re-initialises all three in place (new ids, a new generation). Their memory is never freed, so an
//! address held by late work stays valid memory.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::abi;
use crate::ffi::{put, status, Status};
use crate::queue::{self, ErrorCallback, Queue, QueueState};
use crate::queue_api;
use crate::runtime::system;

type Handler = unsafe extern "C" fn(*const c_void, u64, u64, *mut c_void, hsa_amd_queue_intercept_packet_writer);

/// An intercept queue: recycled as one with its proxy and hardware queue blocks (never freed).
pub(crate) struct Intercept {
    proxy: &'static Queue,
    hw: &'static Queue,
    handlers: Mutex<Vec<(Handler, usize)>>,
    lock: Mutex<()>,
    overflow: Mutex<VecDeque<[u8; 64]>>,
    flusher: AtomicBool,
    /// Set (under `lock`) when the queue is destroyed; cleared when the block is reused.
    dead: AtomicBool,
    /// Bumped at every reuse, so work deferred for an earlier queue in this block is recognised.
    generation: AtomicU64,
    /// The retry thread, started the first time the hardware ring is full; joined at destroy.
    retry: Mutex<Option<JoinHandle<()>>>,
    /// The retry thread could not be started (the overflow is then retried by the next doorbell).
    retry_failed: AtomicBool,
}

/// Destroyed intercept queues (their `Intercept` addresses), ready for reuse.
static SPARE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// A stack of at most `N` copies of `T`. It needs no destructor, so a thread-local holding one
/// registers none and stays usable while the thread's other thread-locals are being destroyed and
/// after: HIP 6.4 destroys its queues (and may submit to them) from `__cxa_finalize`, when Rust's
/// thread-locals with destructors are gone and `with` on them panics.
struct Stack<T: Copy, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy + PartialEq, const N: usize> Stack<T, N> {
    const fn new(fill: T) -> Self {
        Stack { len: 0, items: [fill; N] }
    }

    /// Pushes `x`; false (nothing pushed) when full.
    fn push(&mut self, x: T) -> bool {
        if self.len == N {
            return false;
        }
        self.items[self.len] = x;
        self.len += 1;
        true
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn last(&self) -> Option<T> {
        self.len.checked_sub(1).map(|i| self.items[i])
    }

    fn contains(&self, x: T) -> bool {
        self.items[..self.len].contains(&x)
    }

    fn is_full(&self) -> bool {
        self.len == N
    }

    /// Removes the innermost `x`.
    fn remove(&mut self, x: T) {
        if let Some(i) = self.items[..self.len].iter().rposition(|y| *y == x) {
            self.items.copy_within(i + 1..self.len, i);
            self.len -= 1;
        }
    }
}

/// Nesting limits of the per-thread stacks (a handler that submits to another intercept queue nests
/// one level; real tools nest one or two).
const MAX_CHAIN: usize = 64;
const MAX_ACTIVE: usize = 32;

// Const-initialised without destructors (see `Stack`): never "during or after destruction".
thread_local! {
    /// Chain cursor for `writer`: (intercept, stage index, user packet index), innermost last.
    static CHAIN: RefCell<Stack<(usize, usize, u64), MAX_CHAIN>> = const { RefCell::new(Stack::new((0, 0, 0))) };
    /// Intercept queues this thread is processing (re-entrancy detection).
    static ACTIVE: RefCell<Stack<usize, MAX_ACTIVE>> = const { RefCell::new(Stack::new(0)) };
    /// The intercept queue whose retry thread this is (0: none).
    static RETRY_OF: Cell<usize> = const { Cell::new(0) };
}

fn of(q: &'static Queue) -> Option<&'static Intercept> {
    let a = q.intercept.load(Ordering::Acquire);
    // SAFETY: a non-zero `intercept` is the address of an `Intercept`, which is never freed (it is
    // recycled in place with its queues).
    (a != 0).then(|| unsafe { &*(a as usize as *const Intercept) })
}

/// The hardware queue behind `q` (or `q` itself).
fn hardware_of(q: &'static Queue) -> &'static Queue {
    of(q).map_or(q, |i| i.hw)
}

/// `hsa_queue_destroy` of `q` (already unpublished by the caller) when it is an intercept queue: see
/// the module docs. Returns false when `q` is not one.
fn destroy_if_intercept(q: &'static Queue) -> bool {
    let Some(ic) = of(q) else { return false };
    let me = ic as *const Intercept as usize;
    // (Not `std::thread::current()`: it is unavailable once the thread's locals are destroyed.)
    let retry_thread = RETRY_OF.with(Cell::get) == me;
    // From inside one of this queue's handlers (this thread holds its lock) or on its retry thread,
    // the queue cannot wait for its own processing to end: it is stopped but never reused.
    let reusable = !ACTIVE.with(|a| a.borrow().contains(me)) && !retry_thread;
    if reusable {
        let _g = ic.lock.lock().unwrap_or_else(|e| e.into_inner());
        ic.dead.store(true, Ordering::Release);
    } else {
        ic.dead.store(true, Ordering::Release);
    }
    // The retry thread ends at its next look at `dead`: joined here, or (on itself) left to end.
    let retry = ic.retry.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(h) = retry {
        h.thread().unpark();
        // (Not from one of this queue's handlers: the retry thread may be waiting for the lock this
        // thread holds.)
        if reusable {
            let _ = h.join();
        }
    }
    q.set_state(QueueState::Destroyed);
    // The hardware queue may have been destroyed on its own already (its address is handed to
    // marker callbacks); stopping it again only joins nothing.
    queue::unregister(ic.hw);
    let joined = queue_api::stop(ic.hw);
    if reusable && joined {
        ic.overflow.lock().unwrap_or_else(|e| e.into_inner()).clear();
        ic.handlers.lock().unwrap_or_else(|e| e.into_inner()).clear();
        ic.flusher.store(false, Ordering::Release);
        ic.retry_failed.store(false, Ordering::Release);
        queue::release_ring(ic.proxy);
        queue::release_ring(ic.hw);
        SPARE.lock().unwrap_or_else(|e| e.into_inner()).push(me);
    }
    true
}

/// Spare intercept queues (a statistic for tests).
#[cfg(test)]
pub(crate) fn spare_count() -> usize {
    SPARE.lock().unwrap_or_else(|e| e.into_inner()).len()
}

/// Doorbell store on a proxy queue.
fn doorbell_rung(proxy_addr: usize, _value: i64) {
    // SAFETY: tagged doorbells only hold addresses of proxy queue blocks, which are never freed.
    let proxy = unsafe { &*(proxy_addr as *const Queue) };
    let Some(ic) = of(proxy) else { return };
    let me = ic as *const Intercept as usize;
    let generation = ic.generation.load(Ordering::Acquire);
    if ACTIVE.with(|a| a.borrow().contains(me) || a.borrow().is_full()) {
        // A handler rang its own queue's doorbell (or nesting is too deep to track): process later,
        // off this stack (ROCr defers too).
        crate::events::run_async(Box::new(move || {
            // SAFETY: as above; an `Intercept` is never freed. `process` does nothing if the queue was
            // destroyed (or its block reused) meanwhile.
            process(unsafe { &*(me as *const Intercept) }, generation)
        }));
        return;
    }
    process(ic, generation);
}

/// Processes the proxy ring of `ic` if it is still the live queue of generation `generation`.
fn process(ic: &'static Intercept, generation: u64) {
    let me = ic as *const Intercept as usize;
    let _g = ic.lock.lock().unwrap_or_else(|e| e.into_inner());
    if ic.dead.load(Ordering::Acquire) || ic.generation.load(Ordering::Acquire) != generation {
        return;
    }
    if !ACTIVE.with(|a| a.borrow_mut().push(me)) {
        // Only a retry thread starts here without `doorbell_rung`'s check, and its stack is empty.
        crate::diag!("intercept queue processing nested deeper than {MAX_ACTIVE} on one thread; deferred");
        drop(_g);
        crate::events::run_async(Box::new(move || process(ic, generation)));
        return;
    }
    flush_overflow(ic);
    let p = ic.proxy;
    if !ic.overflow.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
        // Still blocked by a full hardware ring: the helper thread resumes processing.
        start_flusher(ic);
        ACTIVE.with(|a| a.borrow_mut().remove(me));
        return;
    }
    loop {
        if p.state() == QueueState::Destroyed {
            break;
        }
        let r = p.amd.read_dispatch_id.load(Ordering::Acquire);
        let w = p.amd.write_dispatch_id.load(Ordering::Acquire);
        if r >= w {
            break;
        }
        let slot = p.slot(r);
        // SAFETY: slot of the proxy ring (mapped for good); header read with acquire as producers publish it.
        let header = unsafe { &*(slot as *const AtomicU16) }.load(Ordering::Acquire);
        if u32::from(header & 0xff) == HSA_PACKET_TYPE_INVALID {
            break;
        }
        let handlers: Vec<(Handler, usize)> = ic.handlers.lock().unwrap_or_else(|e| e.into_inner()).clone();
        invoke(ic, &handlers, handlers.len(), slot as *const c_void, 1, r);
        // SAFETY: as above; this thread holds the per-queue lock, so it owns the slot.
        unsafe { &*(slot as *const AtomicU16) }
            .store((HSA_PACKET_TYPE_INVALID | (1 << HSA_PACKET_HEADER_BARRIER)) as u16, Ordering::Release);
        p.amd.read_dispatch_id.store(r + 1, Ordering::Release);
        if !ic.overflow.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
            // The hardware ring is full: stop here (the producer now waits on the proxy ring) until the
            // helper thread has submitted the overflow and resumes processing.
            start_flusher(ic);
            break;
        }
    }
    ACTIVE.with(|a| a.borrow_mut().remove(me));
}

/// Runs stage `stage` (1-based; 0 = the hardware submitter) on `count` packets.
fn invoke(
    ic: &'static Intercept,
    handlers: &[(Handler, usize)],
    stage: usize,
    pkts: *const c_void,
    count: u64,
    index: u64,
) {
    if stage == 0 {
        submit(ic, pkts, count);
        return;
    }
    let (h, data) = handlers[stage - 1];
    if !CHAIN.with(|c| c.borrow_mut().push((ic as *const Intercept as usize, stage, index))) {
        crate::diag!("intercept handlers nested deeper than {MAX_CHAIN} on one thread; packets submitted unhandled");
        submit(ic, pkts, count);
        return;
    }
    // SAFETY: calls the tool's registered handler with packets valid for the duration of the call and a
    // writer that forwards to the next stage on this thread.
    unsafe { h(pkts, count, index, data as *mut c_void, Some(writer)) };
    CHAIN.with(|c| c.borrow_mut().pop());
}

unsafe extern "C" fn writer(pkts: *const c_void, pkt_count: u64) {
    let top = CHAIN.with(|c| c.borrow().last());
    let Some((ic, stage, index)) = top else {
        crate::diag!("intercept writer called outside of a handler; packets dropped");
        return;
    };
    // SAFETY: CHAIN only holds addresses of intercepts (never freed) whose lock this thread holds.
    let ic = unsafe { &*(ic as *const Intercept) };
    let handlers: Vec<(Handler, usize)> = ic.handlers.lock().unwrap_or_else(|e| e.into_inner()).clone();
    // Run the next older stage with the cursor moved down, then restore it for further writer calls.
    if !CHAIN.with(|c| c.borrow_mut().push((ic as *const Intercept as usize, stage - 1, index))) {
        crate::diag!("intercept handlers nested deeper than {MAX_CHAIN} on one thread; packets submitted unhandled");
        submit(ic, pkts, pkt_count);
        return;
    }
    let inner = stage - 1;
    if inner == 0 {
        submit(ic, pkts, pkt_count);
    } else {
        let (h, data) = handlers[inner - 1];
        // SAFETY: as in `invoke`.
        unsafe { h(pkts, pkt_count, index, data as *mut c_void, Some(writer)) };
    }
    CHAIN.with(|c| c.borrow_mut().pop());
}

fn is_marker(p: &[u8; 64]) -> bool {
    u32::from(p[0]) == HSA_PACKET_TYPE_VENDOR_SPECIFIC
        && u32::from(p[2]) == AMD_AQL_FORMAT_INTERCEPT_MARKER
        && !abi::abi_is_5_2()
}

/// The oldest stage: copy packets into the hardware ring (or the overflow list).
fn submit(ic: &'static Intercept, pkts: *const c_void, count: u64) {
    let mut list: Vec<[u8; 64]> = Vec::with_capacity(count as usize);
    for i in 0..count as usize {
        let mut p = [0u8; 64];
        // SAFETY: the caller passes `count` contiguous 64-byte packets.
        unsafe { std::ptr::copy_nonoverlapping(pkts.cast::<u8>().add(i * 64), p.as_mut_ptr(), 64) };
        list.push(p);
    }
    let mut ov = ic.overflow.lock().unwrap_or_else(|e| e.into_inner());
    if ov.is_empty() {
        let rest = write_hw(ic, &list);
        ov.extend(rest);
    } else {
        // A handler wrote more packets for the same application packet after the ring filled up.
        ov.extend(list);
    }
}

/// Writes as many packets as fit; returns the ones that did not.
fn write_hw(ic: &'static Intercept, list: &[[u8; 64]]) -> Vec<[u8; 64]> {
    let hw = ic.hw;
    // Markers are consumed here, right before the packet they precede.
    let mut pending: Vec<[u8; 64]> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let p = list[i];
        if is_marker(&p) {
            let next = hw.amd.write_dispatch_id.load(Ordering::Acquire);
            let cb = u64::from_le_bytes(p[8..16].try_into().expect("8 bytes"));
            if cb != 0 {
                // SAFETY: the marker's callback field holds an `amd_intercept_marker_handler` set by a tool;
                // the packet copy lives on this stack during the call.
                unsafe {
                    let f: unsafe extern "C" fn(*const amd_aql_intercept_marker_t, *mut hsa_queue_t, u64) =
                        std::mem::transmute(cb as usize);
                    f(p.as_ptr().cast(), hw.hsa_ptr(), next + pending.len() as u64);
                }
            }
        } else {
            pending.push(p);
        }
        i += 1;
    }
    if pending.is_empty() {
        return Vec::new();
    }
    let size = u64::from(hw.size);
    let n = pending.len() as u64;
    let (first, fit) = loop {
        let w = hw.amd.write_dispatch_id.load(Ordering::Acquire);
        let r = hw.amd.read_dispatch_id.load(Ordering::Acquire);
        let free = size - (w - r).min(size);
        let fit = n.min(free);
        if fit == 0 {
            return pending;
        }
        if hw.amd.write_dispatch_id.compare_exchange(w, w + fit, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            break (w, fit);
        }
    };
    // Bodies (and headers of packets 2..n) first; the first packet's header last, with release ordering.
    for k in (0..fit).rev() {
        let p = &pending[k as usize];
        let slot = hw.slot(first + k);
        // SAFETY: the reserved slot belongs to us until its header is published.
        unsafe {
            std::ptr::copy_nonoverlapping(p.as_ptr().add(4), slot.add(4), 60);
            (*(slot as *const AtomicU32))
                .store(u32::from_le_bytes(p[0..4].try_into().expect("4 bytes")), Ordering::Release);
        }
    }
    hw.doorbell.store((first + fit - 1) as i64);
    pending.split_off(fit as usize)
}

fn flush_overflow(ic: &'static Intercept) {
    let mut ov = ic.overflow.lock().unwrap_or_else(|e| e.into_inner());
    if ov.is_empty() {
        return;
    }
    let list: Vec<[u8; 64]> = ov.drain(..).collect();
    let rest = write_hw(ic, &list);
    ov.extend(rest);
}

/// Called under `ic.lock` (from `process`, which checked that the queue is alive).
fn start_flusher(ic: &'static Intercept) {
    if ic.retry_failed.load(Ordering::Acquire) || ic.flusher.swap(true, Ordering::AcqRel) {
        return;
    }
    // One retry thread per intercept queue for the queue's lifetime (ROCr retries on its one
    // async-event thread): handlers called from it always see the same thread, never a new one
    // per full ring.
    let mut retry = ic.retry.lock().unwrap_or_else(|e| e.into_inner());
    if retry.is_none() {
        let generation = ic.generation.load(Ordering::Acquire);
        match std::thread::Builder::new()
            .name("hsa-sim-intercept-retry".into())
            .spawn(move || retry_loop(ic, generation))
        {
            Ok(h) => *retry = Some(h),
            Err(_) => {
                ic.retry_failed.store(true, Ordering::Release);
                ic.flusher.store(false, Ordering::Release);
                return;
            }
        }
    }
    if let Some(h) = retry.as_ref() {
        h.thread().unpark();
    }
}

/// The retry thread of generation `generation`: parked while `flusher` is down; while it is up,
/// submits the overflow as the hardware ring drains and resumes processing the proxy ring. Ends when
/// the queue is destroyed (which unparks and joins it).
fn retry_loop(ic: &'static Intercept, generation: u64) {
    RETRY_OF.with(|r| r.set(ic as *const Intercept as usize));
    let overflow_empty = || ic.overflow.lock().unwrap_or_else(|e| e.into_inner()).is_empty();
    loop {
        if ic.dead.load(Ordering::Acquire) {
            return;
        }
        if !ic.flusher.load(Ordering::Acquire) {
            // Woken by `start_flusher` (an unpark before this park is kept) or by the destroy; the
            // tick is only a safety net.
            std::thread::park_timeout(Duration::from_millis(50));
            continue;
        }
        std::thread::sleep(Duration::from_micros(200));
        let flushed = {
            let _g = ic.lock.lock().unwrap_or_else(|e| e.into_inner());
            if ic.dead.load(Ordering::Acquire) {
                return;
            }
            flush_overflow(ic);
            overflow_empty()
        };
        if !flushed {
            continue;
        }
        // Resume the proxy ring where processing stopped (packets the producer wrote meanwhile); it may
        // stop again at a full ring, leaving a new overflow (and `flusher` up) for this thread.
        process(ic, generation);
        if overflow_empty() {
            ic.flusher.store(false, Ordering::Release);
            // A doorbell on another thread may have left an overflow just before the flag went down:
            // take the flag back for it unless that thread already did (it then unparks us).
            if !overflow_empty() {
                let _ = ic.flusher.swap(true, Ordering::AcqRel);
            }
        }
    }
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_intercept_create(
    agent_handle: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<ErrorCallback>,
    data: *mut c_void,
    _private_segment_size: u32,
    _group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    status(|| -> Result<(), Status> {
        if size < 3 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let (a, size) = queue_api::check_create_args(agent_handle, size, type_, queue)?;
        if crate::faults::fail("hsa_amd_queue_intercept_create") {
            return Err(crate::faults::REFUSED);
        }
        let ic = match queue::take_spare(&SPARE, |i| {
            // SAFETY: the spare list holds addresses of intercepts, never freed.
            let i = unsafe { &*(i as *const Intercept) };
            std::ptr::eq(i.hw.agent, a) && i.hw.size == size
        }) {
            // SAFETY: as above.
            Some(i) => unsafe { &*(i as *const Intercept) },
            None => new_intercept(a, size)?,
        };
        ic.generation.fetch_add(1, Ordering::AcqRel);
        let id = queue::next_id();
        let activated = queue_api::activate(ic.hw, type_, callback, data, id, true).and_then(|()| {
            queue_api::activate(ic.proxy, type_, None, std::ptr::null_mut(), id, false).inspect_err(|_| {
                queue::unregister(ic.hw);
                queue_api::stop(ic.hw);
            })
        });
        if let Err(e) = activated {
            SPARE.lock().unwrap_or_else(|e| e.into_inner()).push(ic as *const Intercept as usize);
            return Err(e);
        }
        ic.dead.store(false, Ordering::Release);
        // SAFETY: non-null out-pointer (checked).
        unsafe { put(queue.cast(), ic.proxy.hsa_ptr()) };
        Ok(())
    })
}

/// A new intercept (dead until activated) with its hardware and proxy queue blocks.
fn new_intercept(agent: &'static crate::agent::Agent, size: u32) -> Result<&'static Intercept, Status> {
    queue::on_intercept(queue::InterceptHooks { hardware_of, destroy_if_intercept, doorbell_rung });
    let hw = queue::new_block(agent, size, false)?;
    hw.internal.store(true, Ordering::Release);
    let proxy = queue::new_block(agent, size, true)?;
    let ic: &'static Intercept = Box::leak(Box::new(Intercept {
        proxy,
        hw,
        handlers: Mutex::new(Vec::new()),
        lock: Mutex::new(()),
        overflow: Mutex::new(VecDeque::new()),
        flusher: AtomicBool::new(false),
        dead: AtomicBool::new(true),
        generation: AtomicU64::new(0),
        retry: Mutex::new(None),
        retry_failed: AtomicBool::new(false),
    }));
    proxy.intercept.store(ic as *const Intercept as u64, Ordering::Release);
    hw.owner_proxy.store(proxy as *const Queue as u64, Ordering::Release);
    Ok(ic)
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_intercept_register(
    queue: *mut hsa_queue_t,
    callback: hsa_amd_queue_intercept_handler,
    user_data: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = queue::lookup(queue)?;
        let ic = of(q).ok_or(HSA_STATUS_ERROR_INVALID_QUEUE)?;
        let f = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        if crate::faults::fail("hsa_amd_queue_intercept_register") {
            return Err(crate::faults::REFUSED);
        }
        ic.handlers.lock().unwrap_or_else(|e| e.into_inner()).push((f, user_data as usize));
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_runtime_queue_create_register(
    callback: hsa_amd_runtime_queue_notifier,
    _user_data: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        // The simulator creates no runtime-internal queues, so the notifier is never called.
        callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::{hsa_amd_queue_intercept_create, hsa_amd_queue_intercept_register};
    use crate::events::hsa_amd_async_function;
    use crate::queue_api::{
        hsa_queue_add_write_index_scacq_screl, hsa_queue_create, hsa_queue_destroy, hsa_queue_load_read_index_scacquire,
    };
    use crate::signal::{hsa_signal_destroy, hsa_signal_store_screlease, hsa_signal_wait_scacquire};
    use crate::testing::*;
    use rocprof_hsa_sys::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static SEEN: AtomicU64 = AtomicU64::new(0);
    static DUPLICATED: AtomicU64 = AtomicU64::new(0);

    /// Registered first (runs second): forwards every packet twice.
    unsafe extern "C" fn duplicate(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        _d: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        DUPLICATED.fetch_add(count, Ordering::SeqCst);
        let w = w.unwrap();
        // SAFETY: forwarding the packets we were given to our writer, from inside the handler.
        unsafe {
            w(pkts, count);
            w(pkts, count);
        }
    }

    /// Registered last (runs first): counts and forwards unchanged.
    unsafe extern "C" fn count(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        _d: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        assert_eq!(DUPLICATED.load(Ordering::SeqCst), SEEN.load(Ordering::SeqCst), "newest handler must run first");
        SEEN.fetch_add(count, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { w.unwrap()(pkts, count) };
    }

    #[test]
    fn handlers_run_newest_first_and_may_add_packets() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointers.
        unsafe {
            assert_eq!(
                hsa_amd_queue_intercept_create(gpu, 2, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut q),
                HSA_STATUS_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                hsa_amd_queue_intercept_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut q),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(hsa_amd_queue_intercept_register(q, Some(duplicate), std::ptr::null_mut()), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_amd_queue_intercept_register(q, Some(count), std::ptr::null_mut()), HSA_STATUS_SUCCESS);
        }
        let mut plain: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: as above.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut plain),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(
                hsa_amd_queue_intercept_register(plain, Some(count), std::ptr::null_mut()),
                HSA_STATUS_ERROR_INVALID_QUEUE
            );
        }
        // Each barrier is forwarded twice, so its completion signal (initial 2) reaches 0.
        let done = signal(2 * 5);
        for _ in 0..5 {
            submit(q, &barrier_and(0, done.handle, true));
        }
        // SAFETY: live signal.
        let v = unsafe {
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 2_000_000_000, HSA_WAIT_STATE_BLOCKED)
        };
        assert_eq!(v, 0);
        assert_eq!((SEEN.load(Ordering::SeqCst), DUPLICATED.load(Ordering::SeqCst)), (5, 5));
        let proxy = crate::queue::lookup(q).unwrap();
        let hw = super::hardware_of(proxy);
        assert_eq!(proxy.amd.read_dispatch_id.load(Ordering::SeqCst), 5);
        assert_eq!(hw.amd.write_dispatch_id.load(Ordering::SeqCst), 10, "hardware queue got the added packets");
        assert_eq!(proxy.id(), hw.id(), "the proxy reports the hardware queue's id");
        // SAFETY: queues created above.
        unsafe {
            assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
        }
        shut_down();
    }

    static TRIPLED: AtomicU64 = AtomicU64::new(0);
    /// The threads `triple` was called on.
    static TRIPLE_THREADS: std::sync::Mutex<Vec<std::thread::ThreadId>> = std::sync::Mutex::new(Vec::new());

    unsafe extern "C" fn triple(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        _d: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        TRIPLED.fetch_add(count, Ordering::SeqCst);
        let mut threads = TRIPLE_THREADS.lock().unwrap_or_else(|e| e.into_inner());
        if !threads.contains(&std::thread::current().id()) {
            threads.push(std::thread::current().id());
        }
        drop(threads);
        let mut three = [0u8; 192];
        for k in 0..3 {
            // SAFETY: one 64-byte packet at `pkts`.
            unsafe { std::ptr::copy_nonoverlapping(pkts.cast::<u8>(), three.as_mut_ptr().add(64 * k), 64) };
        }
        // SAFETY: three contiguous packets, passed to our writer from inside the handler.
        unsafe { w.unwrap()(three.as_ptr().cast(), 3) };
    }

    /// Writes a packet the way applications do: waits while the ring is full (write - read = size).
    fn submit_waiting(q: *mut hsa_queue_t, pkt: &[u8; 64]) -> u64 {
        // SAFETY: `q` is a live queue of the test.
        let size = u64::from(unsafe { (*q).size });
        // SAFETY: as above.
        let index = unsafe { hsa_queue_add_write_index_scacq_screl(q, 1) };
        // SAFETY: as above.
        while index - unsafe { hsa_queue_load_read_index_scacquire(q) } >= size {
            std::thread::yield_now();
        }
        // SAFETY: the reserved slot is free (read index moved past it) and ours until published.
        unsafe {
            let slot = (*q).base_address.cast::<u8>().add((index % size) as usize * 64);
            std::ptr::copy_nonoverlapping(pkt.as_ptr().add(4), slot.add(4), 60);
            (*(slot as *const std::sync::atomic::AtomicU32))
                .store(u32::from_le_bytes(pkt[0..4].try_into().unwrap()), Ordering::Release);
            hsa_signal_store_screlease((*q).doorbell_signal, index as i64);
        }
        index
    }

    /// Threads of this process named `hsa-sim-intercept-retry` (truncated to 15 bytes by the kernel).
    fn retry_thread_count() -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|c| c.trim_end() == "hsa-sim-interce")
            .count()
    }

    #[test]
    fn a_full_hardware_ring_blocks_the_producer_with_a_bounded_overflow_then_drains_in_order() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointers.
        unsafe {
            assert_eq!(
                hsa_amd_queue_intercept_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut q),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(hsa_amd_queue_intercept_register(q, Some(triple), std::ptr::null_mut()), HSA_STATUS_SUCCESS);
        }
        // The first packet blocks the hardware queue until `gate` is 0; 200 packets x 3 = 600 packets
        // go through a hardware ring of 64 slots and a proxy ring of 64.
        const N: u64 = 200;
        let gate = signal(1);
        let done = signal(3 * N as i64);
        let qa = q as usize;
        let submitted = std::sync::Arc::new(AtomicU64::new(0));
        let producer = {
            let submitted = submitted.clone();
            std::thread::spawn(move || {
                let q = qa as *mut hsa_queue_t;
                submit_waiting(q, &barrier_and(gate.handle, done.handle, true));
                submitted.fetch_add(1, Ordering::SeqCst);
                for _ in 1..N {
                    submit_waiting(q, &barrier_and(0, done.handle, true));
                    submitted.fetch_add(1, Ordering::SeqCst);
                }
            })
        };
        let proxy = crate::queue::lookup(q).unwrap();
        let hw = super::hardware_of(proxy);
        let ic = super::of(proxy).unwrap();
        // Wait (bounded) until the producer has filled the proxy ring: it is then blocked.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while proxy.amd.write_dispatch_id.load(Ordering::SeqCst) - proxy.amd.read_dispatch_id.load(Ordering::SeqCst)
            < 64
            && std::time::Instant::now() < until
        {
            std::thread::yield_now();
        }
        let (read, write) =
            (proxy.amd.read_dispatch_id.load(Ordering::SeqCst), proxy.amd.write_dispatch_id.load(Ordering::SeqCst));
        // (The blocked producer has reserved the next index already.)
        assert!((64..=65).contains(&(write - read)), "the application's ring is full: {read}..{write}");
        assert!(submitted.load(Ordering::SeqCst) < N, "the producer waits for a free slot");
        // 64 hardware slots (65 once the processor has taken the gate's first packet) hold 21 rewrites:
        // the 22nd application packet's rewrite (the 21st if the processor had not taken the first
        // packet yet) fills the ring and the rest of it waits alone in the overflow list.
        assert!((21..=22).contains(&read), "processing stopped after the packet whose rewrite did not fit: {read}");
        assert!(hw.amd.write_dispatch_id.load(Ordering::SeqCst) <= 64 + 1, "the hardware ring holds at most its size");
        let overflow = ic.overflow.lock().unwrap().len();
        assert!((1..=3).contains(&overflow), "one packet's rewrite at most waits in the overflow list: {overflow}");
        // SAFETY: live signals.
        unsafe {
            hsa_signal_store_screlease(gate, 0);
            assert_eq!(
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20_000_000_000, HSA_WAIT_STATE_BLOCKED),
                0
            );
        }
        producer.join().unwrap();
        assert_eq!(hw.amd.write_dispatch_id.load(Ordering::SeqCst), 3 * N);
        assert_eq!(TRIPLED.load(Ordering::SeqCst), N);
        assert!(ic.overflow.lock().unwrap().is_empty());
        // The handler ran on the producer's thread and on the queue's one retry thread, never on a
        // new thread per full ring (the profiler records the calling thread of each dispatch).
        let threads = TRIPLE_THREADS.lock().unwrap().len();
        assert!((1..=2).contains(&threads), "the handler ran on {threads} threads");
        // The retry thread ends with its queue (the destroy joins it).
        let retry_threads = retry_thread_count();
        assert!(retry_threads >= 1, "the full ring started the retry thread");
        // SAFETY: queue created above.
        unsafe { assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS) };
        assert_eq!(retry_thread_count(), retry_threads - 1, "the destroyed queue's retry thread is joined");
        shut_down();
    }

    static OWN_RINGS: AtomicU64 = AtomicU64::new(0);
    static LATER_CALLS: AtomicU64 = AtomicU64::new(0);
    /// Async-event thread blocker (released by the test) and the marker queued after the deferred work.
    static ASYNC: (std::sync::Mutex<(bool, bool)>, std::sync::Condvar) =
        (std::sync::Mutex::new((false, false)), std::sync::Condvar::new());

    /// Forwards, and rings its own queue's doorbell (`data` is the proxy): that processing is deferred.
    unsafe extern "C" fn ring_own_doorbell(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        data: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        OWN_RINGS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarding our packets from inside the handler; `data` is the live proxy queue.
        unsafe {
            w.unwrap()(pkts, count);
            hsa_signal_store_screlease((*(data as *mut hsa_queue_t)).doorbell_signal, 0);
        }
    }

    /// The handler of the queue that reuses the block: counts and forwards.
    unsafe extern "C" fn later(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        _d: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        LATER_CALLS.fetch_add(count, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { w.unwrap()(pkts, count) };
    }

    unsafe extern "C" fn block_async_thread(_: *mut std::ffi::c_void) {
        let mut g = ASYNC.0.lock().unwrap();
        while !g.0 {
            g = ASYNC.1.wait(g).unwrap();
        }
    }

    unsafe extern "C" fn mark_async_thread(_: *mut std::ffi::c_void) {
        ASYNC.0.lock().unwrap().1 = true;
        ASYNC.1.notify_all();
    }

    unsafe extern "C" fn forward(
        pkts: *const std::ffi::c_void,
        count: u64,
        _i: u64,
        _d: *mut std::ffi::c_void,
        w: hsa_amd_queue_intercept_packet_writer,
    ) {
        // SAFETY: forwarding the packets we were given to our writer, from inside the handler.
        unsafe { w.unwrap()(pkts, count) };
    }

    /// What the thread-local destructor of the test below saw: the status of a barrier submitted
    /// through the intercept queue (0 = completed), and that of `hsa_queue_destroy`.
    static AT_EXIT: std::sync::Mutex<Option<(i64, hsa_status_t)>> = std::sync::Mutex::new(None);

    /// Submits one barrier through the intercept queue (handler chain included), waits for it, then
    /// destroys the queue, when dropped.
    struct UseAtExit(usize);

    impl Drop for UseAtExit {
        fn drop(&mut self) {
            let q = self.0 as *mut hsa_queue_t;
            let done = signal(1);
            submit(q, &barrier_and(0, done.handle, true));
            // SAFETY: live signal and our queue.
            let outcome = unsafe {
                let v =
                    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 2_000_000_000, HSA_WAIT_STATE_BLOCKED);
                (v, hsa_queue_destroy(q))
            };
            *AT_EXIT.lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
        }
    }

    thread_local! {
        static AT_THREAD_EXIT: std::cell::RefCell<Option<UseAtExit>> = const { std::cell::RefCell::new(None) };
    }

    /// Issue 19: HIP 6.4 submits to and destroys its queues from `__cxa_finalize`, after the
    /// thread's Rust thread-locals are destroyed; the intercept queue's own thread-locals (re-entrancy
    /// and handler-chain stacks) must still work then. Here a thread-local registered before them
    /// (so destroyed after them) uses the queue from its destructor: the barrier completes and the
    /// destroy succeeds (it failed with HSA_STATUS_ERROR when `ACTIVE.with` panicked).
    #[test]
    fn an_intercept_queue_works_and_is_destroyed_from_a_thread_local_destructor() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        *AT_EXIT.lock().unwrap() = None;
        std::thread::spawn(move || {
            // Registered first, destroyed last.
            AT_THREAD_EXIT.with(|g| g.borrow_mut().take());
            let q = intercept_queue(gpu);
            // SAFETY: our queue and handler.
            assert_eq!(unsafe { hsa_amd_queue_intercept_register(q, Some(forward), std::ptr::null_mut()) }, 0);
            // Use the queue on this thread first, so that its thread-locals are live before the exit.
            let done = signal(1);
            submit(q, &barrier_and(0, done.handle, true));
            // SAFETY: live signal.
            let v = unsafe {
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 2_000_000_000, HSA_WAIT_STATE_BLOCKED)
            };
            assert_eq!(v, 0);
            AT_THREAD_EXIT.with(|g| *g.borrow_mut() = Some(UseAtExit(q as usize)));
        })
        .join()
        .unwrap();
        assert_eq!(*AT_EXIT.lock().unwrap(), Some((0, HSA_STATUS_SUCCESS)), "(barrier value, destroy status) at exit");
        shut_down();
    }

    fn intercept_queue(gpu: hsa_agent_t) -> *mut hsa_queue_t {
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        let status = unsafe {
            hsa_amd_queue_intercept_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut q)
        };
        assert_eq!(status, HSA_STATUS_SUCCESS);
        q
    }

    /// Issue 14: a destroyed intercept queue is recycled (the next one of the same agent and size gets its
    /// block back, with a new id, indices 0 and no handlers), and work deferred for it (its handler rang
    /// its own doorbell, so the processing waits on the async-event thread, here until after the destroy
    /// and the reuse) does not process the queue that now lives in the block: a packet written into the
    /// new queue's ring without ringing its doorbell stays unprocessed until the new queue's own doorbell.
    #[test]
    fn a_destroyed_intercept_queue_is_recycled_and_its_deferred_processing_leaves_the_new_queue_alone() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        *ASYNC.0.lock().unwrap() = (false, false);
        // SAFETY: our callback, no argument.
        let status = unsafe { hsa_amd_async_function(Some(block_async_thread), std::ptr::null_mut()) };
        assert_eq!(status, HSA_STATUS_SUCCESS);
        let q1 = intercept_queue(gpu);
        // SAFETY: live queue; the handler's data is the queue itself.
        unsafe {
            assert_eq!(hsa_amd_queue_intercept_register(q1, Some(ring_own_doorbell), q1.cast()), HSA_STATUS_SUCCESS);
        }
        let done = signal(1);
        submit(q1, &barrier_and(0, done.handle, true));
        // SAFETY: live signal.
        let v = unsafe {
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20_000_000_000, HSA_WAIT_STATE_BLOCKED)
        };
        assert_eq!(v, 0);
        assert_eq!(OWN_RINGS.load(Ordering::SeqCst), 1);
        let (id1, hw1) = {
            let p = crate::queue::lookup(q1).unwrap();
            (p.id(), super::hardware_of(p) as *const crate::queue::Queue)
        };
        // SAFETY: our queue; the second call passes a destroyed handle, which the runtime must refuse.
        unsafe {
            assert_eq!(hsa_queue_destroy(q1), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_queue_destroy(q1), HSA_STATUS_ERROR_INVALID_QUEUE, "destroyed once only");
        }

        let q2 = intercept_queue(gpu);
        assert_eq!(q2, q1, "the destroyed intercept queue's block is reused");
        let p2 = crate::queue::lookup(q2).unwrap();
        assert!(std::ptr::eq(super::hardware_of(p2), hw1), "with its hardware queue");
        assert!(p2.id() > id1, "a new queue id: {} after {id1}", p2.id());
        assert_eq!(p2.amd.read_dispatch_id.load(Ordering::SeqCst), 0);
        assert_eq!(p2.amd.write_dispatch_id.load(Ordering::SeqCst), 0);
        assert_eq!(super::of(p2).unwrap().handlers.lock().unwrap().len(), 0, "no handler of the old queue");
        // SAFETY: live queue.
        unsafe {
            assert_eq!(hsa_amd_queue_intercept_register(q2, Some(later), std::ptr::null_mut()), HSA_STATUS_SUCCESS)
        };
        // A packet in the new queue's ring, doorbell not rung.
        let done2 = signal(1);
        let pkt = barrier_and(0, done2.handle, true);
        // SAFETY: slot 0 of the live queue's ring, reserved by the write-index bump; header last.
        unsafe {
            let index = hsa_queue_add_write_index_scacq_screl(q2, 1);
            assert_eq!(index, 0);
            let slot = (*q2).base_address.cast::<u8>();
            std::ptr::copy_nonoverlapping(pkt.as_ptr().add(4), slot.add(4), 60);
            (*(slot as *const std::sync::atomic::AtomicU32))
                .store(u32::from_le_bytes(pkt[0..4].try_into().unwrap()), Ordering::Release);
        }
        // Let the deferred processing of the destroyed queue run, then a marker behind it.
        {
            ASYNC.0.lock().unwrap().0 = true;
            ASYNC.1.notify_all();
        }
        // SAFETY: our callback, no argument.
        let status = unsafe { hsa_amd_async_function(Some(mark_async_thread), std::ptr::null_mut()) };
        assert_eq!(status, HSA_STATUS_SUCCESS);
        {
            let g = ASYNC.0.lock().unwrap();
            let (g, _) = ASYNC.1.wait_timeout_while(g, std::time::Duration::from_secs(20), |s| !s.1).unwrap();
            assert!(g.1, "the async-event thread ran the deferred work and the marker");
        }
        assert_eq!(LATER_CALLS.load(Ordering::SeqCst), 0, "the old queue's deferred work processed the new queue");
        assert_eq!(p2.amd.read_dispatch_id.load(Ordering::SeqCst), 0);
        assert_eq!(OWN_RINGS.load(Ordering::SeqCst), 1);
        // The new queue's own doorbell processes it.
        // SAFETY: live queue and signal.
        let v = unsafe {
            hsa_signal_store_screlease((*q2).doorbell_signal, 0);
            hsa_signal_wait_scacquire(done2, HSA_SIGNAL_CONDITION_EQ, 0, 20_000_000_000, HSA_WAIT_STATE_BLOCKED)
        };
        assert_eq!(v, 0);
        assert_eq!(LATER_CALLS.load(Ordering::SeqCst), 1);
        // SAFETY: our queue.
        assert_eq!(unsafe { hsa_queue_destroy(q2) }, HSA_STATUS_SUCCESS);
        // 200 more create/destroy cycles take no new block.
        for _ in 0..200 {
            let q = intercept_queue(gpu);
            assert_eq!(q, q1);
            // SAFETY: our queue.
            assert_eq!(unsafe { hsa_queue_destroy(q) }, HSA_STATUS_SUCCESS);
        }
        assert!(super::spare_count() >= 1);
        shut_down();
    }

    /// Issue 14: an application thread that keeps storing to an intercept queue's doorbell while
    /// another destroys the queue and creates new ones in its block (the application's bug; on ROCr
    /// a store to freed doorbell memory) neither crashes nor disturbs the new queues: each still runs
    /// its packet.
    #[test]
    fn stale_doorbell_stores_racing_with_destroy_and_reuse_are_harmless() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let q = intercept_queue(gpu);
        // SAFETY: live queue.
        let doorbell = unsafe { (*q).doorbell_signal };
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ringer = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut stores = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    // SAFETY: a handle that was a doorbell; the runtime checks it (a store to a
                    // destroyed queue's doorbell is the application's bug, which must stay harmless).
                    unsafe { hsa_signal_store_screlease(doorbell, stores as i64) };
                    stores += 1;
                }
                stores
            })
        };
        let mut current = q;
        for _ in 0..100 {
            // SAFETY: our queue.
            assert_eq!(unsafe { hsa_queue_destroy(current) }, HSA_STATUS_SUCCESS);
            current = intercept_queue(gpu);
            let done = signal(1);
            submit(current, &barrier_and(0, done.handle, true));
            // SAFETY: live signal.
            let v = unsafe {
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20_000_000_000, HSA_WAIT_STATE_BLOCKED)
            };
            assert_eq!(v, 0, "the new queue ran its packet");
            // SAFETY: our signal.
            unsafe { hsa_signal_destroy(done) };
        }
        stop.store(true, Ordering::Relaxed);
        assert!(ringer.join().unwrap() > 0);
        // SAFETY: our queue.
        assert_eq!(unsafe { hsa_queue_destroy(current) }, HSA_STATUS_SUCCESS);
        shut_down();
    }
}
