//! Kernel-dispatch tracing through intercept queues.
//!
//! `hsa_queue_create` for a GPU agent becomes `hsa_amd_queue_intercept_create` plus our packet
//! handler ([`on_packets`]), with profiling enabled on the queue. For each kernel-dispatch packet
//! the handler (on the application thread that rang the doorbell, hot path):
//!
//! 1. takes a profiling signal `S` from the pool, a dispatch id and a correlation id;
//! 2. writes the dispatch record (so it exists even if the process dies before completion);
//! 3. arranges for the completion to be recorded (below);
//! 4. forwards the application's packet with `S` as its completion signal and, if the
//!    application's packet had a completion signal `C`, a barrier-AND packet (barrier bit set,
//!    the application's fence scopes) that completes `C`.
//!
//! Every other byte of the application's packet is forwarded as is, and `C` is still decremented
//! exactly once, after the kernel has completed. This is the expansion rocprofiler-sdk uses for
//! tracing without counters.
//!
//! Recording completions. No runtime callback is registered per dispatch (rocprofiler-sdk
//! registers an async handler for each, which costs two thread wake-ups per dispatch). Instead
//! the application thread that observes `C` (our wrappers of `hsa_signal_wait_*` and
//! `hsa_signal_load_*` call [`on_app_signal_observed`]) writes the record when `S` shows the
//! kernel finished, and the writer thread's [`poll_completions`] records whatever nobody waited
//! for (every 20 ms, when the signal pool runs low, and at unload/exit). Whoever gets there first
//! records, exactly once (a per-slot state word). So once an application has waited for a
//! dispatch, that dispatch's full record is in the capture file even if the application crashes
//! right afterwards, and the GPU queue never waits for the host.
//! `ROCPROF_RS_GATE_COMPLETIONS=1` chooses the strict alternative for applications that read
//! signal memory directly instead of calling the API: the barrier also waits for `S`, which then
//! starts at 2; the kernel takes it to 1, a one-shot async handler ([`on_complete`]) writes the
//! record and takes it to 0, which releases the barrier and `C` (one host round trip per
//! signalled dispatch).
//!
//! Other packet types pass through untouched. When anything is missing (no free signal, a
//! failed registration) the packet is forwarded unchanged and the loss is counted: we never stall
//! or fail a dispatch.
//!
//! Start/end times come from `hsa_amd_profiling_get_dispatch_time` on `S` (system clock domain).

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use rocprof_hsa_sys::*;
use rocprof_model::capture::{
    DispatchBeginRecord, DispatchEndRecord, QueueRecord, DISPATCH_LOST, DISPATCH_NO_TIME, DISPATCH_OK,
};
use rocprof_model::LossReason;

pub use crate::aql::Sequence;
use crate::aql::{completion_barrier, BARRIER_BIT, PACKET_TYPE_MASK};
use crate::diag::Level;
use crate::guard::ffi_guard;
use crate::state::{self, Global};
use crate::tables::Originals;
use crate::{api, clock, diag, sink};

/// Signals added to the pool per queue created. A slot stays taken until its completion is
/// recorded (by the waiting application thread or the writer thread's poll, which can lag behind
/// the queue), so this is not bounded by the queue size; the writer thread adds more when the
/// pool runs low ([`maintain_pool`]).
const SIGNALS_PER_QUEUE: usize = 1024;
/// [`maintain_pool`] grows the pool when fewer slots than this are free...
const POOL_LOW_WATER: i64 = 512;
/// ... by this many.
const POOL_GROW_BY: usize = 1024;

/// The `hsa_queue_create` wrapper's body.
///
/// # Safety
/// Same contract as `hsa_queue_create` (valid `queue` out-pointer, etc.).
#[allow(clippy::too_many_arguments)]
pub unsafe fn create(
    agent: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>,
    data: *mut c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
    handler: hsa_amd_queue_intercept_handler,
) -> hsa_status_t {
    let Some(o) = state::originals() else {
        return HSA_STATUS_ERROR;
    };
    let Some(original) = o.queue_create else {
        return HSA_STATUS_ERROR;
    };
    let untraced = || {
        // SAFETY: forwarding the caller's arguments to the original (same contract).
        unsafe { original(agent, size, type_, callback, data, private_segment_size, group_segment_size, queue) }
    };
    let g = state::global();
    let traced =
        state::is_active() && o.can_trace_kernels() && g.is_some_and(|g| g.trace_kernels && g.is_gpu(agent.handle));
    if !traced {
        if let Some(g) = g {
            crate::state::note_untraced_fork_child(g);
        }
        return untraced();
    }
    let g = g.expect("checked above");
    let create = o.intercept_create.expect("can_trace_kernels");
    // SAFETY: same arguments as hsa_queue_create, which the caller guarantees.
    let status = unsafe { create(agent, size, type_, callback, data, private_segment_size, group_segment_size, queue) };
    if status != HSA_STATUS_SUCCESS || queue.is_null() {
        // Our failure must not become the application's: create the queue the normal way (an
        // invalid argument fails there again with the runtime's own status) and say once that
        // it is not traced.
        g.sink.count_loss(LossReason::QueueInterceptFailed);
        static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !WARNED.swap(true, Ordering::Relaxed) {
            diag!(
                Level::Warning,
                "intercept queue creation failed with status {status:#x}; dispatches on such queues are not traced"
            );
        }
        return untraced();
    }
    // SAFETY: on success the runtime stored a valid queue pointer.
    let q = unsafe { *queue };
    if q.is_null() {
        return status;
    }
    let Some((index, queue_id)) = g.add_queue(q as usize, agent.handle) else {
        g.sink.count_loss(LossReason::QueueTableFull);
        diag!(Level::Warning, "too many queues; queue {:p} is not traced", q);
        return status;
    };
    // SAFETY: `q` is the live intercept queue we just created; the functions come from the
    // runtime's table.
    unsafe {
        (o.set_profiler_enabled.expect("can_trace_kernels"))(q, 1);
        let rc = (o.intercept_register.expect("can_trace_kernels"))(q, handler, index as *mut c_void);
        if rc != HSA_STATUS_SUCCESS {
            g.sink.count_loss(LossReason::QueueInterceptFailed);
            diag!(Level::Warning, "could not register the packet handler on queue {}: status {:#x}", queue_id, rc);
        }
    }
    // SAFETY: `q` is live; reading its public header.
    let (hsa_id, qsize) = unsafe { ((*q).id, (*q).size) };
    if let Some(ctx) = g.queues.get(index) {
        ctx.hsa_id.store(hsa_id + 1, Ordering::Release);
    }
    g.sink.write(&QueueRecord {
        queue_id,
        hsa_queue_id: hsa_id,
        agent_handle: agent.handle,
        created_ns: clock::now_ns(),
        size: qsize,
        tid: sink::tid(),
    });
    grow_pool(g, o, SIGNALS_PER_QUEUE);
    status
}

/// Adds profiling signals to the pool (cold path).
pub fn grow_pool(g: &Global, o: &Originals, n: usize) {
    g.pool.grow(n, || create_profiling_signal(o, g.gate_completions));
}

/// Creates one profiling signal, starting at 1.
///
/// Without gating nobody waits on it or registers a handler on it (the host only loads its value
/// and its dispatch times), so it is created `HSA_AMD_SIGNAL_AMD_GPU_ONLY`: in ROCr
/// (`hsa_amd_signal_create`) such a signal is a `DefaultSignal`, which takes no KFD event. A
/// plain `hsa_signal_create` makes an `InterruptSignal`, which takes one from the process's
/// event pool (KFD allows about 4096 per process): a pool of up to [`state::MAX_SLOTS`] of those
/// would exhaust it, and the application's own signals created later would get none (their
/// blocking waits degrade to busy polling), besides one interrupt per traced kernel. Gated mode
/// registers async handlers on the signal, which ROCr accepts only on interrupt signals.
fn create_profiling_signal(o: &Originals, gated: bool) -> Option<hsa_signal_t> {
    let mut s = hsa_signal_t { handle: 0 };
    let rc = match (o.amd_signal_create, o.signal_create) {
        // SAFETY: valid out-pointer; no consumers list.
        (Some(create), _) if !gated => unsafe {
            create(1, 0, std::ptr::null(), HSA_AMD_SIGNAL_AMD_GPU_ONLY.into(), &mut s)
        },
        // SAFETY: as above.
        (_, Some(create)) => unsafe { create(1, 0, std::ptr::null(), &mut s) },
        _ => return None,
    };
    (rc == HSA_STATUS_SUCCESS && s.handle != 0).then_some(s)
}

/// Writer-thread upkeep: keeps free profiling signals available (creating signals is a runtime
/// call that allocates, so it never happens on the hot path).
pub fn maintain_pool() {
    poll_completions();
    crate::att::poll();
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return;
    };
    if state::is_active() && !g.pool.is_empty() && g.pool.free_estimate() < POOL_LOW_WATER {
        grow_pool(g, o, POOL_GROW_BY);
    }
}

/// The `hsa_queue_destroy` wrapper's body.
///
/// # Safety
/// Same contract as `hsa_queue_destroy`.
pub unsafe fn destroy(queue: *mut hsa_queue_t) -> hsa_status_t {
    let Some(o) = state::originals() else {
        return HSA_STATUS_ERROR;
    };
    let Some(original) = o.queue_destroy else {
        return HSA_STATUS_ERROR;
    };
    // Marked before the runtime can hand the address to a new queue (see `begin_queue_destroy`).
    let index = state::global().and_then(|g| g.begin_queue_destroy(queue as usize));
    // SAFETY: forwarding the caller's argument.
    let status = unsafe { original(queue) };
    if let (Some(g), Some(index)) = (state::global(), index) {
        if status == HSA_STATUS_SUCCESS {
            poll_completions();
            settle_queue(g, o, index);
            g.clear_queue(index);
        } else {
            g.restore_queue(index, queue as usize);
        }
    }
    status
}

/// After a queue is destroyed, its dispatches that never ran never will: close them (their
/// dispatch record stays, marked incomplete by the reader) so that exit does not wait for them.
/// The caller has recorded the finished ones first ([`poll_completions`]); one the poll left
/// because its counters' read is overdue is recorded here. Cold path.
///
/// A gated dispatch whose kernel finished (its signal left the start value) is left to its
/// completion handler. One that never ran is closed too, but its slot is not reused: its
/// one-shot handler stays registered on the signal, and a reset of that signal for another
/// dispatch would fire it. The slot the queue kept for its last gated barrier is released.
fn settle_queue(g: &Global, o: &Originals, queue_index: usize) {
    if let Some(q) = g.queues.get(queue_index) {
        let prev = q.pending_slot.swap(state::NO_SLOT, Ordering::AcqRel);
        if prev != state::NO_SLOT {
            g.pool.release_deferred(prev);
        }
    }
    for i in 0..g.pool.len() as u32 {
        let Some(slot) = g.pool.slot(i) else { break };
        if slot.queue_index.load(Ordering::Relaxed) != queue_index {
            continue;
        }
        let start = slot.start_value.load(Ordering::Relaxed);
        let gated = start == 2;
        if gated {
            let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
            let never_ran = o.signal_load_relaxed.is_some_and(|load| {
                // SAFETY: our own live signal, read through the runtime's original function.
                (unsafe { load(signal) }) >= start as i64
            });
            if !never_ran {
                continue;
            }
        }
        if slot
            .state
            .compare_exchange(state::SLOT_PENDING, state::SLOT_RECORDING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue;
        }
        if !gated {
            let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
            // SAFETY: our own live signal, read through the runtime's original function.
            let ran = o.signal_load_relaxed.is_some_and(|load| (unsafe { load(signal) }) < start as i64);
            if ran {
                // Its kernel finished, but the poll left it because its counters' read is overdue:
                // record it now (`finish` gives the read up after its bounded wait).
                finish(g, o, i, slot);
                continue;
            }
        }
        forget_app_signal(g, slot);
        let a = slot.pmc_agent.swap(crate::pmc::NONE, Ordering::AcqRel);
        if let (Some(p), true) = (crate::pmc::state(), a != crate::pmc::NONE) {
            let buffer = slot.pmc_buffer.load(Ordering::Relaxed);
            p.abandon(o, g.sink, a as usize, buffer, slot.dispatch_id.load(Ordering::Relaxed));
        }
        slot.state.store(state::SLOT_DONE, Ordering::Release);
        if !gated {
            g.pool.release(i);
        }
        g.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Removes the slot's application signal from [`Global::app_signals`] (its dispatch's completion
/// is recorded or abandoned), so that the map holds only dispatches in flight.
fn forget_app_signal(g: &Global, slot: &state::Slot) {
    let pos = slot.map_pos.swap(crate::kernel_map::NO_POS, Ordering::AcqRel);
    if pos != crate::kernel_map::NO_POS {
        g.app_signals.remove_at(pos, slot.app_signal.load(Ordering::Relaxed));
    }
}

/// Output of [`rewrite`]: up to two 64-byte packets.
#[repr(C, align(64))]
pub struct Expansion {
    /// The packets.
    pub packets: [hsa_kernel_dispatch_packet_t; 2],
    /// How many are used.
    pub count: usize,
}

/// The expansion of one application kernel packet (pure; see the module docs). With `gated`,
/// the barrier that completes the application's signal waits for the profiling signal.
pub fn rewrite(app: &hsa_kernel_dispatch_packet_t, profiling_signal: hsa_signal_t, gated: bool) -> Expansion {
    let mut kernel = *app;
    kernel.completion_signal = profiling_signal;
    let mut out = Expansion { packets: [kernel, kernel], count: 1 };
    if app.completion_signal.handle != 0 {
        let gate = if gated { profiling_signal } else { hsa_signal_t { handle: 0 } };
        let barrier = completion_barrier(app.header, app.completion_signal, gate);
        // SAFETY: both packet types are 64-byte, 8-aligned plain C structs; we overwrite the
        // second slot with the barrier's bytes.
        unsafe {
            std::ptr::write((&mut out.packets[1] as *mut hsa_kernel_dispatch_packet_t).cast(), barrier);
        }
        out.count = 2;
    }
    out
}

/// The intercept handler's body (hot path): each packet is handled under its own
/// [`ffi_guard`], whose fallback forwards that one packet unchanged.
///
/// The guard is per packet, not per batch, because a batch-wide fallback would forward the
/// whole batch again after a panic on packet `k`, submitting packets `0..k` (already forwarded,
/// rewritten) a second time: the application's kernels would run twice.
///
/// # Safety
/// `pkts` must point to `count` valid 64-byte packets for the duration of the call and `writer`
/// must be the runtime's writer for this call (the intercept-queue contract).
pub unsafe fn on_packets(
    pkts: *const c_void,
    count: u64,
    queue_index: usize,
    writer: unsafe extern "C" fn(*const c_void, u64),
) {
    let handle = |p| {
        // SAFETY: `p` is one of the caller's valid packets; `writer` is valid during the call.
        unsafe { on_packet(p, queue_index, writer) }
    };
    // SAFETY: the caller's packets and writer, under this function's contract.
    unsafe { for_each_packet_guarded(pkts, count, writer, handle) }
}

/// Runs `handle` on each of the `count` packets at `pkts`, each in its own [`ffi_guard`] whose
/// fallback forwards exactly that packet through `writer`.
///
/// # Safety
/// As [`on_packets`].
unsafe fn for_each_packet_guarded(
    pkts: *const c_void,
    count: u64,
    writer: unsafe extern "C" fn(*const c_void, u64),
    handle: impl Fn(*const hsa_kernel_dispatch_packet_t),
) {
    let pkts = pkts as *const hsa_kernel_dispatch_packet_t;
    for i in 0..count as usize {
        // SAFETY: `pkts` holds `count` packets (caller).
        let p = unsafe { pkts.add(i) };
        // SAFETY: `p` is a valid packet and `writer` the runtime's writer for this call (caller).
        let forward = || unsafe { writer(p.cast(), 1) };
        ffi_guard("intercept handler", forward, || handle(p));
    }
}

/// Counts one kernel dispatch or copy that passes untraced because an internal error turned the
/// tool off ([`LossReason::ToolDisabled`]); not while collection is paused (it would not have been
/// recorded anyway), and not in a forked child (which shares the parent's capture header and is
/// counted once as `forked_child_untraced`). Cold: only reached once the tool is disabled.
#[cold]
pub fn count_tool_disabled() {
    if !state::collecting() {
        return;
    }
    if let Some(g) = state::global().filter(|g| g.sink.is_owner()) {
        g.sink.count_loss(LossReason::ToolDisabled);
    }
}

unsafe fn on_packet(
    p: *const hsa_kernel_dispatch_packet_t,
    queue_index: usize,
    writer: unsafe extern "C" fn(*const c_void, u64),
) {
    // SAFETY: `p` is a valid packet for the duration of the handler.
    let forward = || unsafe { writer(p.cast(), 1) };
    // SAFETY: `p` is valid (caller); packets are 8-aligned in the ring.
    let app = unsafe { std::ptr::read(p) };
    if app.header & PACKET_TYPE_MASK != HSA_PACKET_TYPE_KERNEL_DISPATCH as u16 {
        return forward();
    }
    match state::lifecycle() {
        state::Lifecycle::Active => {}
        state::Lifecycle::Disabled => {
            count_tool_disabled();
            return forward();
        }
        state::Lifecycle::Idle => return forward(),
    }
    // A dispatch submitted while collection is paused (`--selected-regions`) is not recorded.
    if !state::collecting() {
        return forward();
    }
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return forward();
    };
    let (Some(store), Some(register)) = (o.signal_store_relaxed, o.signal_async_handler) else {
        return forward();
    };
    let Some(q) = g.queues.get(queue_index) else {
        return forward();
    };
    // Our own time for this packet (from here to the hand-off to the runtime's writer, whose
    // time is the runtime's) goes into the run's health as the overhead estimate; this reading
    // is also the dispatch's enqueue time.
    let entered_ns = clock::now_ns();
    let Some((slot_index, slot)) = g.pool.acquire() else {
        g.sink.count_loss(LossReason::SignalPoolEmpty);
        g.sink.wake_writer();
        return forward();
    };
    let dispatch_id = g.next_dispatch.fetch_add(1, Ordering::Relaxed);
    let agent = q.agent.load(Ordering::Acquire);
    // The API call ringing the doorbell (or the HIP call around it) issued this dispatch.
    let (correlation_id, _, external_id) = api::issuer();
    let rec = DispatchBeginRecord {
        dispatch_id,
        correlation_id,
        external_id,
        stream_id: api::stream(),
        kernel_id: g.kernels.get(app.kernel_object),
        kernel_object: app.kernel_object,
        agent_handle: agent,
        queue_id: q.id.load(Ordering::Acquire),
        enqueue_ns: entered_ns,
        tid: sink::tid(),
        setup: u32::from(app.setup),
        workgroup_x: u32::from(app.workgroup_size_x),
        workgroup_y: u32::from(app.workgroup_size_y),
        workgroup_z: u32::from(app.workgroup_size_z),
        grid_x: app.grid_size_x,
        grid_y: app.grid_size_y,
        grid_z: app.grid_size_z,
        private_segment_size: app.private_segment_size,
        group_segment_size: app.group_segment_size,
    };
    if !g.sink.write(&rec) {
        g.pool.release(slot_index);
        return forward();
    }
    let gated = g.gate_completions && app.completion_signal.handle != 0;
    let start_value: i64 = if gated { 2 } else { 1 };
    slot.dispatch_id.store(dispatch_id, Ordering::Relaxed);
    slot.agent.store(agent, Ordering::Relaxed);
    slot.queue_index.store(queue_index, Ordering::Relaxed);
    slot.start_value.store(start_value as u64, Ordering::Relaxed);
    let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
    g.in_flight.fetch_add(1, Ordering::AcqRel);
    // Resetting our own signal needs no wake-up (nobody waits on it yet): a silent store, where
    // the runtime has one, saves a futex wake per dispatch.
    let reset = o.signal_silent_store_relaxed.unwrap_or(store);
    // SAFETY: `signal` is a live signal we created; the handler and its argument (a slot index)
    // stay valid for the process lifetime.
    let rc = unsafe {
        reset(signal, start_value);
        slot.app_signal.store(app.completion_signal.handle, Ordering::Relaxed);
        // The map entry exists before the slot is pending, so whoever records the completion
        // also finds (and removes) it.
        if !gated && app.completion_signal.handle != 0 {
            match g.app_signals.insert_new(app.completion_signal.handle, u64::from(slot_index) + 1) {
                Some(pos) => slot.map_pos.store(pos, Ordering::Relaxed),
                None => g.sink.count_loss(LossReason::SignalMapFull),
            }
        }
        // Publishes the fields above (and the reset) to whoever records the completion.
        slot.state.store(state::SLOT_PENDING, Ordering::Release);
        if gated {
            register(
                signal,
                HSA_SIGNAL_CONDITION_LT,
                start_value,
                Some(completion_handler),
                slot_index as usize as *mut c_void,
            )
        } else {
            // No per-dispatch registration: the application thread that waits for the signal,
            // or the writer thread's poll ([`poll_completions`]), records the completion.
            if g.pool.free_estimate() < POOL_LOW_WATER {
                g.sink.wake_writer();
            }
            HSA_STATUS_SUCCESS
        }
    };
    if rc != HSA_STATUS_SUCCESS {
        // The dispatch runs untraced, counted once under this reason: its begin record is already
        // written, so close it as lost (the reader then neither delivers it nor reports it as a
        // dispatch that had not completed).
        g.sink.write(&DispatchEndRecord { dispatch_id, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
        slot.state.store(state::SLOT_DONE, Ordering::Release);
        g.in_flight.fetch_sub(1, Ordering::AcqRel);
        g.pool.release(slot_index);
        g.sink.count_loss(LossReason::HandlerRegistrationFailed);
        return forward();
    }
    let mut out = rewrite(&app, signal, gated);
    // Kept in the calling thread's own chunk header: no shared counter on the hot path.
    g.sink.add_hook_time(clock::now_ns().saturating_sub(entered_ns), 1);
    let att_selected = crate::att::enabled() && {
        if crate::att::serialize_all() {
            out.packets[0].header |= BARRIER_BIT;
        }
        crate::att::selects(rec.kernel_id)
    };
    // `--att-serialize-all` chains every dispatch of the agent across queues (see `att::serialized`);
    // not on an agent that collects counters, whose own chain orders the counted dispatches (two
    // chains taken in different orders could wait on each other).
    let chain = crate::att::serialize_all() && crate::pmc::state().and_then(|p| p.agent_index(agent)).is_none();
    // Counter collection: when the agent has counters configured and the filter selects this dispatch,
    // the kernel is wrapped in the PMC start/stop/read packets (see `pmc`).
    slot.pmc_agent.store(crate::pmc::NONE, Ordering::Relaxed);
    let counted = || counted_sequence(g, o, slot, agent, rec.kernel_id, &out);
    if att_selected {
        // Cold path: this dispatch is thread-traced too (trace start, the sequence above, trace
        // stop). The sequence is built under the trace's lock, so that traced and counted
        // dispatches take the same order in both serialisation chains (opposite orders would
        // make each wait for the other); so is the place in the `--att-serialize-all` chain.
        let mut link = None;
        let wrapped = crate::att::wrap(agent, dispatch_id, &mut || {
            if chain {
                link = crate::att::join(agent);
            }
            counted()
        });
        if let Some(wrapped) = wrapped {
            let wrapped = match link {
                Some(l) => crate::att::chained(l, &wrapped),
                None => wrapped,
            };
            // SAFETY: `wrapped` holds contiguous 64-byte packets, valid for the call.
            unsafe { writer(wrapped.as_ptr().cast(), wrapped.len() as u64) };
            return;
        }
    }
    let seq = counted();
    if chain {
        // Untraced dispatches join the agent's chain too.
        if let Some(chained) = crate::att::serialized(agent, &seq.packets[..seq.count]) {
            // SAFETY: `chained` holds contiguous 64-byte packets, valid for the call.
            unsafe { writer(chained.as_ptr().cast(), chained.len() as u64) };
            return;
        }
    }
    if crate::pcsamp::enabled() {
        // PC sampling: an intercept marker right before the kernel packet tells us where it lands.
        let mut with = crate::pcsamp::Marked([[0u8; 64]; 7]);
        let k = seq.kernel_at;
        with.0[..k].copy_from_slice(&seq.packets[..k]);
        with.0[k] = crate::pcsamp::marker_before(dispatch_id, agent);
        with.0[k + 1..=seq.count].copy_from_slice(&seq.packets[k..seq.count]);
        // SAFETY: `with` holds `count + 1` contiguous 64-byte-aligned packets, valid for the call.
        unsafe { writer(with.0.as_ptr().cast(), seq.count as u64 + 1) };
        return;
    }
    // SAFETY: `seq` holds `count` contiguous packets, valid for the call.
    unsafe { writer(seq.packets.as_ptr().cast(), seq.count as u64) };
}

/// [`Sequence`] of a dispatch: the rewritten packets `out`, wrapped in counter collection when
/// the agent has counters configured and the filter selects the dispatch (records the buffer in
/// `slot`; a selected dispatch without a free buffer is counted as lost and runs uncounted).
fn counted_sequence(
    g: &Global,
    o: &Originals,
    slot: &state::Slot,
    agent: u64,
    kernel_id: u64,
    out: &Expansion,
) -> Sequence {
    // SAFETY: the expansion's packets are 64-byte plain C structs.
    let raw = |i: usize| unsafe {
        std::ptr::read((&out.packets[i] as *const hsa_kernel_dispatch_packet_t).cast::<[u8; 64]>())
    };
    let mut seq = Sequence { packets: [[0u8; 64]; 6], count: 0, kernel_at: 0, body_end: 1 };
    let mut n = 0;
    if let Some((p, a)) = crate::pmc::state().and_then(|p| Some((p, p.agent_index(agent)?))) {
        if p.selects(kernel_id) {
            let mut before = [[0u8; 64]; 2];
            let mut after = [[0u8; 64]; 2];
            let (buffer, n_before) = p.begin(o, a, &mut before, &mut after);
            slot.pmc_buffer.store(buffer, Ordering::Relaxed);
            slot.pmc_agent.store(a as u32, Ordering::Release);
            if buffer != crate::pmc::EXHAUSTED {
                seq.packets[..n_before].copy_from_slice(&before[..n_before]);
                seq.kernel_at = n_before;
                seq.packets[n_before] = raw(0);
                seq.packets[n_before + 1..n_before + 3].copy_from_slice(&after);
                n = n_before + 3;
            } else {
                g.sink.count_loss(LossReason::CounterBufferPoolEmpty);
            }
        }
    }
    if n == 0 {
        seq.packets[0] = raw(0);
        n = 1;
    }
    seq.body_end = n;
    if out.count == 2 {
        seq.packets[n] = raw(1);
        n += 1;
    }
    seq.count = n;
    seq
}

/// The completion handler's body (runtime async thread). Returns false: one-shot.
pub fn on_complete(slot_index: u32) -> bool {
    crate::fault::completion();
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return false;
    };
    let Some(slot) = g.pool.slot(slot_index) else {
        return false;
    };
    // Record the completion unless the application thread that saw it did so already
    // ([`on_app_signal_observed`]); wait for such a recording to finish before the slot moves on.
    match slot.state.compare_exchange(state::SLOT_PENDING, state::SLOT_RECORDING, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => {
            record_end(g, o, slot);
            slot.state.store(state::SLOT_DONE, Ordering::Release);
        }
        Err(_) => {
            let mut spins = 0u32;
            while slot.state.load(Ordering::Acquire) != state::SLOT_DONE && spins < 1_000_000 {
                spins += 1;
                if spins & 63 == 0 {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
        }
    }
    hand_back(g, o, slot_index, slot);
    false
}

/// The end of a completion handler, once the slot's dispatch is recorded (or closed as lost):
/// releases the gate of a gated dispatch and hands the slot back.
fn hand_back(g: &Global, o: &Originals, slot_index: u32, slot: &state::Slot) {
    let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
    let gated = slot.start_value.load(Ordering::Relaxed) == 2;
    let queue = g.queues.get(slot.queue_index.load(Ordering::Relaxed));
    // A later completion on the same queue means the barrier of the previous gated dispatch has
    // finished with its signal (the barrier blocked the queue), so that slot is free now.
    if let Some(q) = queue {
        let prev = q.pending_slot.swap(if gated { slot_index } else { state::NO_SLOT }, Ordering::AcqRel);
        if prev != state::NO_SLOT {
            g.pool.release_deferred(prev);
        }
    }
    if gated {
        // Release the application's barrier (and with it the application's signal) now that the
        // record is in the file.
        if let Some(store) = o.signal_store_relaxed {
            // SAFETY: our own live signal.
            unsafe { store(signal, 0) };
        }
        if queue.is_none() {
            g.pool.release_deferred(slot_index);
        }
    } else {
        // The runtime removes this registration only after we return, so the slot is handed back
        // one completion later: reusing it now could race a new registration on the same signal
        // with the removal of this one.
        g.pool.release_deferred(slot_index);
    }
    g.in_flight.fetch_sub(1, Ordering::AcqRel);
}

/// Closes the dispatch of a slot held in `SLOT_RECORDING` whose completion could not be recorded:
/// its counter buffer is handed back (so the next counted dispatch is not held up), its end record
/// says it was lost (the reader leaves it out without also calling it incomplete), and the loss is
/// counted.
fn close_lost(g: &Global, o: &Originals, slot: &state::Slot) {
    let dispatch_id = slot.dispatch_id.load(Ordering::Relaxed);
    let a = slot.pmc_agent.swap(crate::pmc::NONE, Ordering::AcqRel);
    if let (Some(p), true) = (crate::pmc::state(), a != crate::pmc::NONE) {
        p.finish(o, g.sink, a as usize, slot.pmc_buffer.load(Ordering::Relaxed), dispatch_id);
    }
    g.sink.write(&DispatchEndRecord { dispatch_id, start_ns: 0, end_ns: 0, status: DISPATCH_LOST });
    g.sink.count_loss(LossReason::CompletionLost);
}

/// Reads the slot's dispatch times and writes its completion record (the caller owns the
/// slot's `SLOT_RECORDING` state).
fn record_end(g: &Global, o: &Originals, slot: &state::Slot) {
    let pmc_agent = slot.pmc_agent.swap(crate::pmc::NONE, Ordering::AcqRel);
    if let (Some(p), true) = (crate::pmc::state(), pmc_agent != crate::pmc::NONE) {
        let buffer = slot.pmc_buffer.load(Ordering::Relaxed);
        p.finish(o, g.sink, pmc_agent as usize, buffer, slot.dispatch_id.load(Ordering::Relaxed));
    }
    let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
    let agent = hsa_agent_t { handle: slot.agent.load(Ordering::Relaxed) };
    let mut t = hsa_amd_profiling_dispatch_time_t { start: 0, end: 0 };
    let status = match o.get_dispatch_time {
        // SAFETY: valid agent/signal handles and out-pointer.
        Some(f) => unsafe { f(agent, signal, &mut t) },
        None => HSA_STATUS_ERROR,
    };
    let ok = status == HSA_STATUS_SUCCESS;
    g.sink.write(&DispatchEndRecord {
        dispatch_id: slot.dispatch_id.load(Ordering::Relaxed),
        start_ns: if ok { clock::from_runtime(t.start) } else { 0 },
        end_ns: if ok { clock::from_runtime(t.end) } else { 0 },
        status: if ok { DISPATCH_OK } else { DISPATCH_NO_TIME },
    });
}

/// An application thread loaded or waited on `signal` (wrappers of `hsa_signal_load_*` and
/// `hsa_signal_wait_*`, after the original returned). If it is the completion signal of a
/// traced dispatch whose kernel has finished, the completion record is written right here, on
/// the application's thread, before the application can act on what it saw: so a crash right
/// after a wait does not lose the dispatch, without holding the GPU queue for the host (the
/// default; `ROCPROF_RS_GATE_COMPLETIONS=1` gates in the queue instead, which also covers
/// applications that read signal memory directly). Hot path: lock-free lookups, no allocation.
pub fn on_app_signal_observed(signal: hsa_signal_t) {
    if signal.handle == 0 {
        return;
    }
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return;
    };
    // Every dispatch in flight that completes this signal (an application may reuse one signal
    // for several dispatches at once).
    g.app_signals.for_each(signal.handle, |v| observe_slot(g, o, signal, (v - 1) as u32));
}

/// [`on_app_signal_observed`] for one slot whose dispatch completes `signal`.
fn observe_slot(g: &Global, o: &Originals, signal: hsa_signal_t, slot_index: u32) {
    let Some(slot) = g.pool.slot(slot_index) else {
        return;
    };
    if slot.app_signal.load(Ordering::Relaxed) != signal.handle {
        return;
    }
    let Some(load) = o.signal_load_relaxed else {
        return;
    };
    // If the completion handler is recording this dispatch right now, wait for it to finish: the
    // application must not go on (and perhaps crash) before the record is committed.
    let mut spins = 0u32;
    loop {
        match slot.state.compare_exchange(
            state::SLOT_PENDING,
            state::SLOT_RECORDING,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => break,
            Err(state::SLOT_RECORDING) if spins < 1_000_000 => {
                spins += 1;
                if spins & 63 == 0 {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
            Err(_) => return,
        }
    }
    // Now the slot cannot move on. Has its kernel finished (our signal left its start value)?
    let ours = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
    // SAFETY: our own live signal, read through the runtime's original function.
    let value = unsafe { load(ours) };
    if value >= slot.start_value.load(Ordering::Relaxed) as i64 {
        slot.state.store(state::SLOT_PENDING, Ordering::Release);
        return;
    }
    finish(g, o, slot_index, slot);
}

/// Writes the completion record of a slot this thread holds in `SLOT_RECORDING` and whose
/// kernel has finished. An ungated slot is then free at once (no handler is registered on its
/// signal and no barrier waits for it); a gated one is released by its completion handler.
fn finish(g: &Global, o: &Originals, slot_index: u32, slot: &state::Slot) {
    // An internal failure while recording (a bug) must not leave the slot held: the guard turns
    // the tool off with its one line, the dispatch is closed as lost and counted, and the slot
    // moves on as usual.
    let recorded = crate::guard::callback_guard("recording a completion", false, || {
        crate::fault::completion();
        record_end(g, o, slot);
        true
    });
    if !recorded {
        close_lost(g, o, slot);
    }
    forget_app_signal(g, slot);
    let gated = slot.start_value.load(Ordering::Relaxed) == 2;
    slot.state.store(state::SLOT_DONE, Ordering::Release);
    if !gated {
        g.pool.release(slot_index);
        g.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Records every finished dispatch nobody recorded yet (writer thread, every tick and when the
/// pool runs low; exit and unload drains). Cold-ish path: a scan over the slots, no allocation.
/// Returns how many it recorded.
pub fn poll_completions() -> usize {
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return 0;
    };
    let Some(load) = o.signal_load_relaxed else {
        return 0;
    };
    let mut recorded = 0;
    for i in 0..g.pool.len() as u32 {
        let Some(slot) = g.pool.slot(i) else { break };
        if slot.state.load(Ordering::Relaxed) != state::SLOT_PENDING || slot.start_value.load(Ordering::Relaxed) == 2 {
            continue; // free, done, or gated (its completion handler records it)
        }
        if slot
            .state
            .compare_exchange(state::SLOT_PENDING, state::SLOT_RECORDING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue;
        }
        let ours = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
        // SAFETY: our own live signal, read through the runtime's original function.
        let value = unsafe { load(ours) };
        if value >= slot.start_value.load(Ordering::Relaxed) as i64 || !counters_read(o, slot) {
            slot.state.store(state::SLOT_PENDING, Ordering::Release);
            continue;
        }
        finish(g, o, i, slot);
        recorded += 1;
    }
    recorded
}

/// Whether a counted dispatch's counters have been read (true when it is not counted).
fn counters_read(o: &Originals, slot: &state::Slot) -> bool {
    let a = slot.pmc_agent.load(Ordering::Acquire);
    match crate::pmc::state() {
        Some(p) if a != crate::pmc::NONE => p.read_done(o, a as usize, slot.pmc_buffer.load(Ordering::Relaxed)),
        _ => true,
    }
}

/// Last resort when [`on_complete`] failed internally (the guard of the runtime's callback
/// caught a panic): the application's signal is still completed, so the application is not hung,
/// and the dispatch's record is lost, counted once. When the handler failed before it took the
/// slot (the usual case: nothing was recorded yet), the dispatch is closed as lost and the slot
/// handed back as the handler would have; otherwise (it failed while recording) only the gate
/// is opened.
pub fn open_gate(slot_index: u32) {
    let (Some(g), Some(o)) = (state::global(), state::originals()) else {
        return;
    };
    let Some(slot) = g.pool.slot(slot_index) else {
        return;
    };
    if slot
        .state
        .compare_exchange(state::SLOT_PENDING, state::SLOT_RECORDING, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
    {
        close_lost(g, o, slot);
        slot.state.store(state::SLOT_DONE, Ordering::Release);
        hand_back(g, o, slot_index, slot);
        return;
    }
    if slot.start_value.load(Ordering::Relaxed) == 2 {
        if let Some(store) = o.signal_store_relaxed {
            let signal = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
            // SAFETY: our own live signal.
            unsafe { store(signal, 0) };
        }
    }
    g.sink.count_loss(LossReason::CompletionLost);
}

/// Waits (bounded) until every submitted dispatch has its completion record.
pub fn drain(timeout: std::time::Duration) -> bool {
    let Some(g) = state::global() else {
        return true;
    };
    let start = std::time::Instant::now();
    while {
        poll_completions();
        g.in_flight.load(Ordering::Acquire) > 0
    } {
        if start.elapsed() >= timeout {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    true
}

/// One-shot async handler on a profiling signal; `arg` is the slot index.
///
/// # Safety
/// Called by the runtime's async-handler thread with the argument we registered.
pub unsafe extern "C" fn completion_handler(_value: hsa_signal_value_t, arg: *mut c_void) -> bool {
    let slot = arg as usize as u32;
    let fallback = || {
        open_gate(slot);
        false
    };
    ffi_guard("completion handler", fallback, || on_complete(slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(signal: u64) -> hsa_kernel_dispatch_packet_t {
        hsa_kernel_dispatch_packet_t {
            header: (HSA_PACKET_TYPE_KERNEL_DISPATCH as u16) | (2 << 9) | (2 << 11),
            setup: 1,
            workgroup_size_x: 64,
            workgroup_size_y: 1,
            workgroup_size_z: 1,
            reserved0: 0,
            grid_size_x: 4096,
            grid_size_y: 1,
            grid_size_z: 1,
            private_segment_size: 0,
            group_segment_size: 0,
            kernel_object: 0xabc0,
            kernarg_address: 0x1000 as *mut c_void,
            reserved2: 0,
            completion_signal: hsa_signal_t { handle: signal },
        }
    }

    fn bytes<T>(v: &T) -> &[u8] {
        // SAFETY: reading the bytes of a plain C struct without padding.
        unsafe { std::slice::from_raw_parts((v as *const T).cast(), std::mem::size_of::<T>()) }
    }

    thread_local! {
        static FORWARDED: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    unsafe extern "C" fn recording_writer(pkts: *const c_void, n: u64) {
        let pkts = pkts as *const hsa_kernel_dispatch_packet_t;
        for i in 0..n as usize {
            // SAFETY: the caller passes `n` valid packets.
            let k = unsafe { (*pkts.add(i)).kernel_object };
            FORWARDED.with(|f| f.borrow_mut().push(k));
        }
    }

    #[test]
    fn a_panic_on_one_packet_of_a_batch_does_not_submit_the_others_twice() {
        let batch: Vec<hsa_kernel_dispatch_packet_t> =
            (1..=3).map(|k| hsa_kernel_dispatch_packet_t { kernel_object: k, ..packet(0) }).collect();
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let handle = |p: *const hsa_kernel_dispatch_packet_t| {
            // SAFETY: `p` is one of the three packets.
            let k = unsafe { (*p).kernel_object };
            assert_ne!(k, 2, "simulated bug while handling the second packet");
            // SAFETY: as above.
            unsafe { recording_writer(p.cast(), 1) };
        };
        // SAFETY: three valid packets and a writer that only reads them.
        unsafe { for_each_packet_guarded(batch.as_ptr().cast(), 3, recording_writer, handle) };
        std::panic::set_hook(prev);
        assert_eq!(
            FORWARDED.with(|f| f.take()),
            [1, 2, 3],
            "every packet reaches the runtime exactly once, the failed one unchanged"
        );
    }

    unsafe extern "C" fn plain_create(
        _: hsa_signal_value_t,
        _: u32,
        _: *const hsa_agent_t,
        s: *mut hsa_signal_t,
    ) -> hsa_status_t {
        // SAFETY: valid out-pointer from the caller.
        unsafe { (*s).handle = 0x100 };
        HSA_STATUS_SUCCESS
    }

    unsafe extern "C" fn amd_create(
        initial: hsa_signal_value_t,
        _: u32,
        _: *const hsa_agent_t,
        attributes: u64,
        s: *mut hsa_signal_t,
    ) -> hsa_status_t {
        // SAFETY: valid out-pointer from the caller.
        unsafe { (*s).handle = 0x200 | attributes | (initial as u64) << 4 };
        HSA_STATUS_SUCCESS
    }

    #[test]
    fn profiling_signals_take_no_kfd_event_unless_gated() {
        let o = Originals {
            signal_create: Some(plain_create),
            amd_signal_create: Some(amd_create),
            ..Originals::default()
        };
        let gpu_only = u64::from(HSA_AMD_SIGNAL_AMD_GPU_ONLY);
        assert_eq!(
            create_profiling_signal(&o, false).map(|s| s.handle),
            Some(0x200 | gpu_only | 1 << 4),
            "ungated: a GPU-only signal starting at 1"
        );
        assert_eq!(
            create_profiling_signal(&o, true).map(|s| s.handle),
            Some(0x100),
            "gated: an interrupt signal (async handlers need one)"
        );
        let old_runtime = Originals { signal_create: Some(plain_create), ..Originals::default() };
        assert_eq!(create_profiling_signal(&old_runtime, false).map(|s| s.handle), Some(0x100));
        assert!(create_profiling_signal(&Originals::default(), false).is_none());
    }

    /// Signal values for [`settle_test_load`], by pool slot (handles `0x1000 + 64 * slot`).
    static SETTLE_VALUES: [std::sync::atomic::AtomicI64; 4] = [const { std::sync::atomic::AtomicI64::new(0) }; 4];

    unsafe extern "C" fn settle_test_create(
        _: hsa_signal_value_t,
        _: u32,
        _: *const hsa_agent_t,
        s: *mut hsa_signal_t,
    ) -> hsa_status_t {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0x1000);
        // SAFETY: valid out-pointer from the caller.
        unsafe { (*s).handle = NEXT.fetch_add(64, Ordering::Relaxed) };
        HSA_STATUS_SUCCESS
    }

    unsafe extern "C" fn settle_test_load(s: hsa_signal_t) -> hsa_signal_value_t {
        SETTLE_VALUES[((s.handle - 0x1000) / 64) as usize].load(Ordering::Relaxed)
    }

    #[test]
    fn a_destroyed_queue_with_gated_dispatches_that_never_ran_does_not_hold_up_exit() {
        let path = std::env::temp_dir().join(format!("rocprof-settle-{}.rpcap", std::process::id()));
        let sink: &'static crate::sink::Sink =
            Box::leak(Box::new(crate::sink::Sink::create(&path, &Default::default()).unwrap()));
        let _ = std::fs::remove_file(&path);
        let g = Global::new(sink, true, &[0xA9]);
        let o = Originals { signal_load_relaxed: Some(settle_test_load), ..Originals::default() };
        let (q, _) = g.add_queue(0xDEAD_0000, 0xA9).unwrap();
        assert_eq!(
            g.pool.grow(4, || {
                let mut s = hsa_signal_t { handle: 0 };
                // SAFETY: valid out-pointer.
                unsafe { settle_test_create(1, 0, std::ptr::null(), &mut s) };
                Some(s)
            }),
            4
        );
        // Three dispatches submitted on queue `q`, as `on_packet` leaves their slots:
        // (gated, signal value) = (yes, 2: never ran), (yes, 1: finished, its handler is due),
        // (no, 1: never ran).
        let mut slots = Vec::new();
        for (gated, value) in [(true, 2), (true, 1), (false, 1)] {
            let (i, slot) = g.pool.acquire().unwrap();
            SETTLE_VALUES[i as usize].store(value, Ordering::Relaxed);
            slot.queue_index.store(q, Ordering::Relaxed);
            slot.start_value.store(if gated { 2 } else { 1 }, Ordering::Relaxed);
            slot.state.store(state::SLOT_PENDING, Ordering::Release);
            g.in_flight.fetch_add(1, Ordering::AcqRel);
            slots.push(i);
        }
        let (last_barrier, _) = g.pool.acquire().unwrap();
        g.queues[q].pending_slot.store(last_barrier, Ordering::Relaxed);

        settle_queue(&g, &o, q);

        let state_of = |i: u32| g.pool.slot(i).unwrap().state.load(Ordering::Acquire);
        assert_eq!(state_of(slots[0]), state::SLOT_DONE, "the gated dispatch that never ran is closed");
        assert_eq!(state_of(slots[1]), state::SLOT_PENDING, "a finished gated one is left to its handler");
        assert_eq!(state_of(slots[2]), state::SLOT_DONE);
        assert_eq!(g.in_flight.load(Ordering::Acquire), 1, "only the dispatch whose handler is due");
        assert_eq!(g.queues[q].pending_slot.load(Ordering::Acquire), state::NO_SLOT);
        assert_eq!(
            g.pool.acquire().map(|s| s.0),
            Some(slots[2]),
            "the ungated slot is free again; the never-run gated one keeps its handler and is not reused"
        );
        assert!(g.pool.acquire().is_none());
    }

    #[test]
    fn only_the_completion_signal_changes_and_the_app_signal_moves_to_a_barrier() {
        let app = packet(0x5000);
        let out = rewrite(&app, hsa_signal_t { handle: 0x9000 }, true);
        assert_eq!(out.count, 2);
        assert_eq!(&bytes(&out.packets[0])[..56], &bytes(&app)[..56], "bytes 0..56 identical");
        assert_eq!(out.packets[0].completion_signal.handle, 0x9000);
        let b = bytes(&out.packets[1]);
        assert_eq!(u16::from_le_bytes([b[0], b[1]]), 3 | (1 << 8) | (2 << 9) | (2 << 11));
        assert!(b[2..8].iter().all(|&x| x == 0));
        assert_eq!(
            u64::from_le_bytes(b[8..16].try_into().unwrap()),
            0x9000,
            "the barrier waits for the profiling signal"
        );
        assert!(b[16..56].iter().all(|&x| x == 0), "no other dependencies");
        assert_eq!(u64::from_le_bytes(b[56..64].try_into().unwrap()), 0x5000);

        let out = rewrite(&packet(0), hsa_signal_t { handle: 0x9000 }, true);
        assert_eq!(out.count, 1, "no application signal, no barrier");
        let out = rewrite(&app, hsa_signal_t { handle: 0x9000 }, false);
        assert_eq!(out.count, 2);
        assert_eq!(bytes(&out.packets[1])[8..56], [0u8; 48], "ungated: the barrier has no dependency");
    }
}
