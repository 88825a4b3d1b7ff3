//! Scratch-memory tracing: `SCRATCH_MEMORY` records from the runtime's tool events.
//!
//! ROCr (5.3 and newer) calls the six `hsa_amd_tool_scratch_event_*` entries of the tools table
//! (`ToolsApiTable`, AMD `hsa_amd_tool.h`) around its scratch work: allocation when a dispatch
//! needs more scratch than its queue holds (on the runtime's event thread), free when it replaces
//! or releases a queue's scratch (also inside `hsa_queue_destroy`) and asynchronous reclaim. Each
//! start/end pair becomes one record, as rocprofiler-sdk builds it: the start event stamps the
//! start on the thread, the end event writes the record with the end event's flags and, for an
//! allocation, its size. Pairs nest (a free inside an allocation), so each operation has its own
//! per-thread start. The queue is named by the runtime's queue id (`hsa_queue_t::id`, shared by
//! an intercept queue and the hardware queue behind it): our queue id when we recorded the queue,
//! else the queue is recorded now (its agent from `hsa_amd_queue_get_info`).
//!
//! ROCm 5.2's table has no tools table: there the runtime raises no scratch events and
//! [`install`] says so once. Hooks another tool installed before us are called after ours.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rocprof_hsa_sys::*;
use rocprof_model::capture::{QueueRecord, ScratchMemoryRecord};
use rocprof_model::ScratchMemoryOp;

use crate::diag::Level;
use crate::{api, clock, diag, sink, state, timer};

/// Queues recorded from a scratch event (not intercepted by us), at most.
const MAX_QUEUES: usize = 256;

/// The hooks [`install`] writes.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    /// For the six entries, in table order.
    pub events: [unsafe extern "C" fn(hsa_amd_tool_event_t) -> hsa_status_t; 6],
}

/// The entries we replaced (another tool's hooks), called after ours; 0 = none.
static NEXT: [AtomicUsize; 6] = [const { AtomicUsize::new(0) }; 6];
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Queues named by a scratch event that we had not recorded: (hsa queue id + 1, our id, agent).
struct Known {
    hsa_id_plus_1: AtomicU64,
    id: AtomicU64,
    agent: AtomicU64,
}
static KNOWN: [Known; MAX_QUEUES] =
    [const { Known { hsa_id_plus_1: AtomicU64::new(0), id: AtomicU64::new(0), agent: AtomicU64::new(0) } }; MAX_QUEUES];

thread_local! {
    /// Start of the open event pair of each operation on this thread (alloc, free, reclaim).
    static STARTS: [Cell<u64>; 3] = const { [Cell::new(0), Cell::new(0), Cell::new(0)] };
}

// No destructor (checked): exit handlers and TLS destructors of other code can still use it
// (see `hip::v6`, HIP 6.4 calls from `__cxa_finalize`).
const _: () = assert!(!std::mem::needs_drop::<[Cell<u64>; 3]>());

fn tools_table(table: *const HsaApiTable) -> Option<*mut ToolsApiTable> {
    if table.is_null() {
        return None;
    }
    // SAFETY: `table` is the runtime's live root table (OnLoad contract); the `tools_` field is read
    // only when the root's size says it exists.
    unsafe {
        let root = &*table;
        if (root.version.minor_id as usize) < std::mem::offset_of!(HsaApiTable, tools_) + 8 || root.tools_.is_null() {
            return None;
        }
        let t = root.tools_;
        let size = (*t).version.minor_id as usize;
        (size >= std::mem::size_of::<ToolsApiTable>()).then_some(t)
    }
}

/// Installs the scratch hooks into the runtime's tools table (`OnLoad`, under the runtime's
/// bootstrap lock). Returns false, after a warning, when the runtime has no tools table.
///
/// # Safety
/// `table` is the runtime's live `HsaApiTable`, not written by anyone else meanwhile.
pub unsafe fn install(table: *mut HsaApiTable, hooks: &Hooks) -> bool {
    let Some(t) = tools_table(table) else {
        static WARNED: AtomicBool = AtomicBool::new(false);
        if !WARNED.swap(true, Ordering::Relaxed) {
            diag!(
                Level::Warning,
                "--scratch-memory-trace: this runtime's API table has no tools table (ROCm 5.2 layout), so it reports \
                 no scratch-memory events; no scratch_memory_trace rows"
            );
        }
        return false;
    };
    // SAFETY: `t` is the live tools table, at least as large as our layout (checked); slots are
    // pointer-sized words.
    unsafe {
        let slots = [
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_alloc_start_fn),
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_alloc_end_fn),
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_free_start_fn),
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_free_end_fn),
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_async_reclaim_start_fn),
            std::ptr::addr_of_mut!((*t).hsa_amd_tool_scratch_event_async_reclaim_end_fn),
        ];
        for (i, slot) in slots.into_iter().enumerate() {
            let ours = hooks.events[i];
            let current = slot.read_volatile();
            match current {
                Some(f) if f as usize == ours as usize => {}
                Some(f) => NEXT[i].store(f as usize, Ordering::Release),
                None => NEXT[i].store(0, Ordering::Release),
            }
            slot.write_volatile(Some(ours));
        }
    }
    ENABLED.store(true, Ordering::Release);
    true
}

/// Our id and the agent of the queue with runtime id `hsa_id` (recording the queue if new).
fn queue_of(g: &state::Global, queue: *const hsa_queue_t) -> (u64, u64) {
    if queue.is_null() {
        return (0, 0);
    }
    // SAFETY: the runtime passes its live queue; its public header is readable.
    let (hsa_id, qsize) = unsafe { ((*queue).id, (*queue).size) };
    for q in g.queues.iter() {
        if q.queue.load(Ordering::Acquire) != 0 && q.hsa_id.load(Ordering::Acquire) == hsa_id + 1 {
            return (q.id.load(Ordering::Acquire), q.agent.load(Ordering::Acquire));
        }
    }
    for k in KNOWN.iter() {
        let v = k.hsa_id_plus_1.load(Ordering::Acquire);
        if v == hsa_id + 1 {
            // A concurrent first event may still be filling the entry in; its id is written first.
            return (k.id.load(Ordering::Acquire), k.agent.load(Ordering::Acquire));
        }
        if v == 0 && k.hsa_id_plus_1.compare_exchange(0, hsa_id + 1, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            let id = g.next_queue.fetch_add(1, Ordering::Relaxed);
            k.id.store(id, Ordering::Release);
            let mut agent = hsa_agent_t { handle: 0 };
            if let Some(get) = state::originals().and_then(|o| o.queue_get_info) {
                // SAFETY: a live queue and an out-pointer of the attribute's type (`hsa_agent_t`).
                unsafe { get(queue.cast_mut(), HSA_AMD_QUEUE_INFO_AGENT, (&mut agent as *mut hsa_agent_t).cast()) };
            }
            k.agent.store(agent.handle, Ordering::Release);
            g.sink.write(&QueueRecord {
                queue_id: id,
                hsa_queue_id: hsa_id,
                agent_handle: agent.handle,
                created_ns: clock::now_ns(),
                size: qsize,
                tid: sink::tid(),
            });
            return (id, agent.handle);
        }
    }
    (0, 0)
}

/// One tool event (`index` is the entry's position in the table, 0..6). Never fails the runtime.
///
/// # Safety
/// `event` is the runtime's event, its pointer valid for the call.
pub unsafe fn on_event(index: usize, event: hsa_amd_tool_event_t) -> hsa_status_t {
    if ENABLED.load(Ordering::Acquire) && state::is_active() {
        // SAFETY: forwarded contract.
        unsafe { record(index, event) };
    }
    let next = NEXT.get(index).map_or(0, |n| n.load(Ordering::Acquire));
    if next != 0 {
        // SAFETY: the value was a non-null `hsa_amd_tool_event` entry of the table.
        let f =
            unsafe { std::mem::transmute::<usize, unsafe extern "C" fn(hsa_amd_tool_event_t) -> hsa_status_t>(next) };
        // SAFETY: the other tool's hook, with the runtime's event.
        return unsafe { f(event) };
    }
    HSA_STATUS_SUCCESS
}

/// # Safety
/// As [`on_event`].
unsafe fn record(index: usize, event: hsa_amd_tool_event_t) {
    let op = index / 2;
    let now = timer::now();
    if index & 1 == 0 {
        let _ = STARTS.try_with(|s| s[op].set(now));
        return;
    }
    let start = STARTS.try_with(|s| s[op].replace(0)).unwrap_or(0);
    let Some(g) = state::global() else { return };
    // SAFETY: every event struct starts with `kind`, then `queue`, then `flags` (rocprofiler-sdk
    // asserts the same offsets); the allocation end event is read as such only for `index` 1.
    let (queue, flags, size, dispatch_id) = unsafe {
        let e = event.scratch_free_end;
        if e.is_null() {
            return;
        }
        if index == 1 {
            let a = &*event.scratch_alloc_end;
            (a.queue, a.flags, a.size as u64, a.dispatch_id)
        } else {
            ((*e).queue, (*e).flags, 0, 0)
        }
    };
    let (queue_id, agent) = queue_of(g, queue);
    let (correlation, ancestor, _) = api::issuer();
    let operation = match op {
        0 => ScratchMemoryOp::Alloc,
        1 => ScratchMemoryOp::Free,
        _ => ScratchMemoryOp::AsyncReclaim,
    };
    g.sink.write(&ScratchMemoryRecord {
        correlation_id: correlation,
        ancestor_id: ancestor,
        start: if start == 0 { now } else { start },
        end: now,
        agent_handle: agent,
        queue_id,
        size,
        dispatch_id,
        tid: sink::tid(),
        operation: operation as u32,
        alloc_flags: flags,
        flags: timer::flags(),
    });
}
