//! Process-wide state of the tool: lifecycle, the original functions, the capture sink, and the
//! fixed-size tables the hooks share. Everything a hook touches is allocated once, in `OnLoad`.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

use rocprof_hsa_sys::hsa_signal_t;

use crate::kernel_map::{KernelMap, NO_POS};
use crate::mpmc::Mpmc;
use crate::padded::Padded;
use crate::sink::Sink;
use crate::tables::Originals;

/// Where the tool is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Lifecycle {
    /// `OnLoad` has not run (or the runtime shut down): hooks pass everything through.
    Idle = 0,
    /// Recording.
    Active = 1,
    /// Turned off for good (internal error, fork child): hooks pass everything through.
    Disabled = 2,
}

static LIFECYCLE: AtomicU8 = AtomicU8::new(Lifecycle::Idle as u8);

/// The current lifecycle state.
pub fn lifecycle() -> Lifecycle {
    match LIFECYCLE.load(Ordering::Acquire) {
        1 => Lifecycle::Active,
        2 => Lifecycle::Disabled,
        _ => Lifecycle::Idle,
    }
}

/// True while recording.
pub fn is_active() -> bool {
    lifecycle() == Lifecycle::Active
}

/// True when host-side API records (HIP, ROCTx) can be written: the capture exists and the tool
/// is not disabled. Unlike [`is_active`] this holds before the first `OnLoad` (an early capture)
/// and after the runtime shut down: those calls do not depend on the runtime.
#[inline]
pub fn host_active() -> bool {
    lifecycle() != Lifecycle::Disabled && global().is_some()
}

/// Turns the tool off for the rest of the process.
pub fn disable() {
    LIFECYCLE.store(Lifecycle::Disabled as u8, Ordering::Release);
}

/// Set in a forked child once its untraced GPU work has been counted.
static FORK_CHILD_COUNTED: AtomicBool = AtomicBool::new(false);

/// In a forked child: profiling off, the untraced-work count not yet taken (async-signal-safe: two
/// atomic stores).
pub fn enter_fork_child() {
    disable();
    FORK_CHILD_COUNTED.store(false, Ordering::Relaxed);
}

/// A forked child (profiling off, the capture is the parent's) starts GPU work of its own (it
/// creates a queue): that work is in no output, so count the child once as
/// [`LossReason::ForkedChildUntraced`](rocprof_model::LossReason) in the capture header, which
/// the child shares with the parent. Only the header counter is touched, never a chunk. A
/// child that exec's gets its own capture instead and is never counted here.
pub fn note_untraced_fork_child(g: &Global) {
    if g.sink.is_owner() || FORK_CHILD_COUNTED.swap(true, Ordering::Relaxed) {
        return;
    }
    g.sink.count_loss(rocprof_model::LossReason::ForkedChildUntraced);
    crate::diag!(
        crate::diag::Level::Warning,
        "process {} was forked from a profiled process and creates a GPU queue: its GPU work is not traced (exec a program to trace it)",
        std::process::id()
    );
}

/// `Idle` -> `Active` (never leaves `Disabled`).
pub fn activate() {
    let _ =
        LIFECYCLE.compare_exchange(Lifecycle::Idle as u8, Lifecycle::Active as u8, Ordering::AcqRel, Ordering::Acquire);
}

/// `Active` -> `Idle` (runtime shut down; a later `OnLoad` may activate again).
pub fn deactivate() {
    let _ =
        LIFECYCLE.compare_exchange(Lifecycle::Active as u8, Lifecycle::Idle as u8, Ordering::AcqRel, Ordering::Acquire);
}

static COLLECTING: AtomicBool = AtomicBool::new(true);

/// False while collection is paused: `--selected-regions` starts paused and follows
/// `roctxProfilerPause`/`roctxProfilerResume`. Nothing is recorded while paused except the
/// pause/resume calls themselves.
#[inline]
pub fn collecting() -> bool {
    COLLECTING.load(Ordering::Relaxed)
}

/// Pauses (`false`) or resumes (`true`) collection.
pub fn set_collecting(on: bool) {
    COLLECTING.store(on, Ordering::Release);
}

/// Forces `Active` (unit tests only).
pub fn enable_for_tests() {
    LIFECYCLE.store(Lifecycle::Active as u8, Ordering::Release);
}

static ORIGINALS: AtomicPtr<Originals> = AtomicPtr::new(std::ptr::null_mut());

/// The original functions of the current `OnLoad` (None before the first one).
pub fn originals() -> Option<&'static Originals> {
    let p = ORIGINALS.load(Ordering::Acquire);
    // SAFETY: non-null values come from `Box::leak` in `set_originals` and are never freed, so the
    // reference is valid for the rest of the process.
    unsafe { p.as_ref() }
}

/// Publishes a new set of originals. The old set is leaked on purpose: a hook on another thread
/// may still be using it (a few hundred bytes per `hsa_init`).
pub fn set_originals(o: Originals) {
    ORIGINALS.store(Box::leak(Box::new(o)), Ordering::Release);
}

/// One profiling-signal slot: a runtime signal we own, reused across dispatches. One cache line
/// each: neighbouring slots belong to dispatches of different threads.
#[repr(C, align(64))]
pub struct Slot {
    /// The signal handle (0 until created).
    pub signal: AtomicU64,
    /// The dispatch currently using it.
    pub dispatch_id: AtomicU64,
    /// The agent that dispatch runs on.
    pub agent: AtomicU64,
    /// Table index of its queue.
    pub queue_index: AtomicUsize,
    /// The signal's start value: 2 when a barrier packet waits on it (see `queue`), else 1.
    pub start_value: AtomicU64,
    /// The application's completion signal of the dispatch (0: none).
    pub app_signal: AtomicU64,
    /// Who records the completion: [`SLOT_PENDING`], [`SLOT_RECORDING`], [`SLOT_DONE`].
    pub state: AtomicU8,
    /// The entry of `app_signal` in [`Global::app_signals`] ([`NO_POS`]: none), removed when the
    /// completion is recorded.
    pub map_pos: AtomicU32,
    /// Counter collection of the dispatch: index into `pmc.agents` ([`PMC_NONE`] when not
    /// counted).
    pub pmc_agent: AtomicU32,
    /// Its counter buffer (or [`PMC_EXHAUSTED`]).
    pub pmc_buffer: AtomicU32,
}

/// The dispatch's completion is not recorded yet.
pub const SLOT_PENDING: u8 = 0;
/// A thread is recording it.
pub const SLOT_RECORDING: u8 = 1;
/// It is recorded.
pub const SLOT_DONE: u8 = 2;

/// Signals for the profiling completion path, created on cold paths (queue creation) and handed
/// out without locks on the hot path.
pub struct SignalPool {
    slots: Box<[Slot]>,
    created: AtomicUsize,
    free: Mpmc,
    /// Approximate number of free slots (maintenance decides when to grow).
    free_count: Padded<std::sync::atomic::AtomicI64>,
    /// The slot whose completion handler ran last: it is released by the *next* completion,
    /// after its own handler has returned to the runtime (see `queue::on_complete`).
    deferred: Padded<AtomicU32>,
}

/// No slot.
pub const NO_SLOT: u32 = u32::MAX;

impl SignalPool {
    /// A pool with room for `capacity` slots; no signal exists yet.
    pub fn new(capacity: usize) -> Self {
        let slots = (0..capacity)
            .map(|_| Slot {
                signal: AtomicU64::new(0),
                dispatch_id: AtomicU64::new(0),
                agent: AtomicU64::new(0),
                queue_index: AtomicUsize::new(0),
                start_value: AtomicU64::new(1),
                app_signal: AtomicU64::new(0),
                state: AtomicU8::new(SLOT_DONE),
                map_pos: AtomicU32::new(NO_POS),
                pmc_agent: AtomicU32::new(PMC_NONE),
                pmc_buffer: AtomicU32::new(PMC_NONE),
            })
            .collect();
        Self {
            slots,
            created: AtomicUsize::new(0),
            free: Mpmc::new(capacity),
            free_count: Padded(std::sync::atomic::AtomicI64::new(0)),
            deferred: Padded(AtomicU32::new(NO_SLOT)),
        }
    }

    /// Adds up to `n` slots whose signals `create` makes (cold path). Returns how many were added.
    pub fn grow(&self, n: usize, mut create: impl FnMut() -> Option<hsa_signal_t>) -> usize {
        let mut added = 0;
        for _ in 0..n {
            let i = self.created.fetch_add(1, Ordering::AcqRel);
            if i >= self.slots.len() {
                self.created.fetch_sub(1, Ordering::AcqRel);
                break;
            }
            let Some(sig) = create() else {
                // Leave a hole: the slot index stays unused.
                break;
            };
            self.slots[i].state.store(SLOT_DONE, Ordering::Relaxed);
            self.slots[i].signal.store(sig.handle, Ordering::Release);
            self.push_free(i as u32);
            added += 1;
        }
        added
    }

    fn push_free(&self, i: u32) {
        if self.free.push(i) {
            self.free_count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Approximate number of free slots.
    pub fn free_estimate(&self) -> i64 {
        self.free_count.load(Ordering::Relaxed)
    }

    /// Slots with a signal.
    pub fn len(&self) -> usize {
        self.created.load(Ordering::Acquire).min(self.slots.len())
    }

    /// True when no slot exists.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes a free slot (hot path).
    pub fn acquire(&self) -> Option<(u32, &Slot)> {
        let i = self.free.pop()?;
        self.free_count.fetch_sub(1, Ordering::Relaxed);
        Some((i, &self.slots[i as usize]))
    }

    /// The slot with this index.
    pub fn slot(&self, i: u32) -> Option<&Slot> {
        self.slots.get(i as usize)
    }

    /// Returns a slot immediately (its signal has no handler registered).
    pub fn release(&self, i: u32) {
        self.push_free(i);
    }

    /// Returns `i` one completion later: the runtime removes a handler registration only after
    /// the handler returns, so the slot is reused after the next completion.
    pub fn release_deferred(&self, i: u32) {
        let prev = self.deferred.swap(i, Ordering::AcqRel);
        if prev != NO_SLOT {
            self.push_free(prev);
        }
    }

    /// Forgets every slot (the runtime destroyed all signals at shutdown).
    pub fn reset(&self) {
        while self.free.pop().is_some() {}
        self.free_count.store(0, Ordering::Release);
        self.deferred.store(NO_SLOT, Ordering::Release);
        self.created.store(0, Ordering::Release);
    }
}

/// An application queue we turned into an intercept queue. One cache line each: the packet
/// handler reads an entry for every packet, and `pending_slot` is swapped on the completions of
/// its queue's dispatches, which other threads record while neighbouring queues' handlers run
/// (1,024 entries: 64 KiB).
#[repr(C, align(64))]
pub struct QueueCtx {
    /// `hsa_queue_t*` returned to the application (0 = free entry).
    pub queue: AtomicUsize,
    /// Its agent handle.
    pub agent: AtomicU64,
    /// Our queue id.
    pub id: AtomicU64,
    /// The runtime's queue id (`hsa_queue_t::id`) plus 1 (0: not known).
    pub hsa_id: AtomicU64,
    /// A slot whose signal a barrier packet of this queue may still wait on; it is released when
    /// a later dispatch of the queue completes (the barrier blocked the queue until it was done).
    pub pending_slot: AtomicU32,
}

/// A loaded code object, kept to emit its unload record.
pub struct CodeObjectEntry {
    /// Executable handle (0 = free entry).
    pub executable: AtomicU64,
    /// Load base.
    pub base: AtomicU64,
    /// Load size.
    pub size: AtomicU64,
    /// Our id.
    pub id: AtomicU64,
}

/// Fixed-capacity shared tables and counters.
pub struct Global {
    /// The capture file.
    pub sink: &'static Sink,
    /// Trace kernel dispatches (`ROCPROF_RS_TRACE` has `kernel`).
    pub trace_kernels: bool,
    /// Hold the application's completion signal until the completion record is written
    /// (`ROCPROF_RS_GATE_COMPLETIONS=1`, default off; see `queue`).
    pub gate_completions: bool,
    /// kernel_object -> kernel id.
    pub kernels: KernelMap,
    /// Application completion signal -> profiling slot index + 1, for recording a completion on
    /// the application thread that observes the signal (see `queue`). An entry lives from the
    /// dispatch's submission to its recorded completion (`Slot::map_pos`).
    pub app_signals: KernelMap,
    /// Profiling signals.
    pub pool: SignalPool,
    /// Intercepted queues; the index is the handler's user data.
    pub queues: Box<[QueueCtx]>,
    /// Loaded code objects.
    pub code_objects: Box<[CodeObjectEntry]>,
    /// GPU agent handles (filled at each `OnLoad`: a runtime re-initialised after
    /// `hsa_shut_down` may hand out new handles).
    pub gpu_agents: HandleSet,
    /// Every agent handle already recorded in the capture.
    pub known_agents: HandleSet,
    /// Number of agent discoveries so far (namespaces their string ids).
    pub discoveries: AtomicU32,
    /// Next dispatch id.
    pub next_dispatch: Padded<AtomicU64>,
    /// Next queue id.
    pub next_queue: AtomicU64,
    /// Next code object id.
    pub next_code_object: AtomicU64,
    /// Next kernel id.
    pub next_kernel: AtomicU64,
    /// Dispatches submitted whose completion has not been recorded yet.
    pub in_flight: Padded<AtomicU64>,
    /// Most counter buffers per GPU ([`Limits::counter_buffers`]).
    pub counter_buffers: usize,
}

/// A small fixed set of handles, readable without locks (agents: a handful per machine).
pub struct HandleSet {
    slots: [AtomicU64; 64],
}

impl HandleSet {
    /// An empty set.
    pub fn new() -> Self {
        Self { slots: std::array::from_fn(|_| AtomicU64::new(0)) }
    }

    /// A set holding `handles`.
    pub fn from(handles: &[u64]) -> Self {
        let s = Self::new();
        for &h in handles {
            s.insert(h);
        }
        s
    }

    /// Adds `h` (no-op when present, 0, or the set is full).
    pub fn insert(&self, h: u64) {
        if h == 0 || self.contains(h) {
            return;
        }
        for slot in &self.slots {
            match slot.compare_exchange(0, h, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(cur) if cur == h => return,
                Err(_) => {}
            }
        }
    }

    /// Is `h` in the set?
    pub fn contains(&self, h: u64) -> bool {
        h != 0 && self.slots.iter().any(|s| s.load(Ordering::Acquire) == h)
    }
}

impl Default for HandleSet {
    fn default() -> Self {
        Self::new()
    }
}

/// Capacity of the signal pool: bounds the dispatches in flight at once.
pub const MAX_SLOTS: usize = 16 * 1024;
/// Most queues traced at once.
pub const MAX_QUEUES: usize = 1024;
/// The queue address of a table entry whose queue is being destroyed (never a queue's address).
pub const QUEUE_DESTROYING: usize = 1;
/// A slot with no counter agent or buffer.
pub const PMC_NONE: u32 = u32::MAX;
/// A slot's dispatch was selected for counting but got no buffer.
pub const PMC_EXHAUSTED: u32 = u32::MAX - 1;
/// Most counter buffers per agent.
pub const MAX_COUNTER_BUFFERS: usize = 512;
/// Most code objects remembered for unload records.
pub const MAX_CODE_OBJECTS: usize = 4096;
/// Most kernel symbols resolvable.
pub const MAX_KERNELS: usize = 64 * 1024;

/// Capacities of the fixed tables and of the capture. `ROCPROF_RS_LIMITS` may lower them (never
/// raise them), so that tests can fill each table with a small application and check that the
/// matching loss is counted and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Kernel symbols resolvable ([`MAX_KERNELS`]).
    pub kernels: usize,
    /// Application completion signals of dispatches in flight (`4 * MAX_SLOTS`).
    pub app_signals: usize,
    /// Profiling signals: dispatches in flight at once ([`MAX_SLOTS`]).
    pub signals: usize,
    /// Queues traced at once ([`MAX_QUEUES`]).
    pub queues: usize,
    /// Code objects remembered for unload records ([`MAX_CODE_OBJECTS`]).
    pub code_objects: usize,
    /// Capture chunks ([`crate::sink::MAX_CHUNKS`], 256 KiB each: the capture's size limit).
    pub capture_chunks: u64,
    /// Counter buffers per GPU (`--pmc`; at most [`MAX_COUNTER_BUFFERS`], fewer when the
    /// buffers are large). At least 2: a counted dispatch's buffer stays held until the next
    /// counted dispatch has passed its serialising barrier, so a pool of one counts one dispatch.
    pub counter_buffers: usize,
}

impl Limits {
    /// The capacities used unless `ROCPROF_RS_LIMITS` lowers them.
    pub const DEFAULT: Limits = Limits {
        kernels: MAX_KERNELS,
        app_signals: MAX_SLOTS * 4,
        signals: MAX_SLOTS,
        queues: MAX_QUEUES,
        code_objects: MAX_CODE_OBJECTS,
        capture_chunks: crate::sink::MAX_CHUNKS,
        counter_buffers: MAX_COUNTER_BUFFERS,
    };

    /// Parses `name=N,...` (names as the fields). Values above the default are capped; unknown
    /// names, bad numbers and 0 are errors (the caller says so and keeps the defaults).
    pub fn parse(text: &str) -> Result<Limits, String> {
        let mut l = Limits::DEFAULT;
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item.split_once('=').ok_or_else(|| format!("`{item}` is not NAME=N"))?;
            let n: u64 = value.trim().parse().map_err(|_| format!("`{item}`: not a number"))?;
            if n == 0 {
                return Err(format!("`{item}`: a limit must be at least 1"));
            }
            let cap = |d: usize| (n as usize).min(d);
            match name.trim() {
                "kernels" => l.kernels = cap(l.kernels),
                "app_signals" => l.app_signals = cap(l.app_signals),
                "signals" => l.signals = cap(l.signals),
                "queues" => l.queues = cap(l.queues),
                "code_objects" => l.code_objects = cap(l.code_objects),
                "capture_chunks" => l.capture_chunks = n.min(l.capture_chunks),
                "counter_buffers" if n < 2 => {
                    return Err(format!(
                        "`{item}`: counter buffers must be at least 2 (one is held by the last counted dispatch)"
                    ))
                }
                "counter_buffers" => l.counter_buffers = cap(l.counter_buffers),
                other => return Err(format!("unknown limit `{other}`")),
            }
        }
        Ok(l)
    }
}

impl Global {
    /// Allocates every table with the default capacities.
    pub fn new(sink: &'static Sink, trace_kernels: bool, gpu_agents: &[u64]) -> Self {
        Self::with_limits(sink, trace_kernels, gpu_agents, &Limits::DEFAULT)
    }

    /// Allocates every table with the capacities of `limits`.
    pub fn with_limits(sink: &'static Sink, trace_kernels: bool, gpu_agents: &[u64], limits: &Limits) -> Self {
        Self {
            sink,
            trace_kernels,
            gate_completions: false,
            kernels: KernelMap::limited(limits.kernels),
            app_signals: KernelMap::limited(limits.app_signals),
            pool: SignalPool::new(limits.signals),
            queues: (0..limits.queues)
                .map(|_| QueueCtx {
                    queue: AtomicUsize::new(0),
                    agent: AtomicU64::new(0),
                    id: AtomicU64::new(0),
                    hsa_id: AtomicU64::new(0),
                    pending_slot: AtomicU32::new(NO_SLOT),
                })
                .collect(),
            code_objects: (0..limits.code_objects)
                .map(|_| CodeObjectEntry {
                    executable: AtomicU64::new(0),
                    base: AtomicU64::new(0),
                    size: AtomicU64::new(0),
                    id: AtomicU64::new(0),
                })
                .collect(),
            gpu_agents: HandleSet::from(gpu_agents),
            known_agents: HandleSet::from(gpu_agents),
            discoveries: AtomicU32::new(1),
            next_dispatch: Padded(AtomicU64::new(1)),
            next_queue: AtomicU64::new(1),
            next_code_object: AtomicU64::new(1),
            next_kernel: AtomicU64::new(1),
            in_flight: Padded(AtomicU64::new(0)),
            counter_buffers: limits.counter_buffers,
        }
    }

    /// Registers an intercepted queue; returns its table index.
    pub fn add_queue(&self, queue: usize, agent: u64) -> Option<(usize, u64)> {
        for (i, q) in self.queues.iter().enumerate() {
            if q.queue.compare_exchange(0, queue, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                let id = self.next_queue.fetch_add(1, Ordering::Relaxed);
                q.agent.store(agent, Ordering::Release);
                q.id.store(id, Ordering::Release);
                q.pending_slot.store(NO_SLOT, Ordering::Release);
                return Some((i, id));
            }
        }
        None
    }

    /// The table index of an intercepted queue.
    pub fn find_queue(&self, queue: usize) -> Option<usize> {
        self.queues.iter().position(|q| queue != 0 && q.queue.load(Ordering::Acquire) == queue)
    }

    /// Marks the entry of a queue about to be destroyed ([`QUEUE_DESTROYING`]) and returns its
    /// index. The runtime may give the next queue the destroyed queue's address (ROCr's allocator
    /// and hsa-sim's recycled blocks do) while the destroy is still settling the old entry: the new
    /// queue then gets an entry of its own, and only that entry answers to the address.
    /// [`Global::clear_queue`] frees the marked entry, [`Global::restore_queue`] undoes the mark.
    pub fn begin_queue_destroy(&self, queue: usize) -> Option<usize> {
        if queue == 0 || queue == QUEUE_DESTROYING {
            return None;
        }
        self.queues.iter().position(|q| {
            q.queue.compare_exchange(queue, QUEUE_DESTROYING, Ordering::AcqRel, Ordering::Acquire).is_ok()
        })
    }

    /// Gives entry `index` back to `queue` (its destroy failed).
    pub fn restore_queue(&self, index: usize, queue: usize) {
        if let Some(q) = self.queues.get(index) {
            q.queue.store(queue, Ordering::Release);
        }
    }

    /// Frees a queue's table entry (after its dispatches are settled, so a new queue reusing
    /// the entry cannot be confused with it).
    pub fn clear_queue(&self, index: usize) {
        if let Some(q) = self.queues.get(index) {
            q.queue.store(0, Ordering::Release);
        }
    }

    /// Remembers a loaded code object for its unload record; false when the table is full.
    pub fn add_code_object(&self, executable: u64, base: u64, size: u64, id: u64) -> bool {
        for e in self.code_objects.iter() {
            if e.executable.compare_exchange(0, executable, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                e.base.store(base, Ordering::Release);
                e.size.store(size, Ordering::Release);
                e.id.store(id, Ordering::Release);
                return true;
            }
        }
        false
    }

    /// Is `agent` a GPU?
    pub fn is_gpu(&self, agent: u64) -> bool {
        self.gpu_agents.contains(agent)
    }
}

static GLOBAL: OnceLock<Global> = OnceLock::new();

/// The shared state, once `OnLoad` created it.
pub fn global() -> Option<&'static Global> {
    GLOBAL.get()
}

/// Installs the shared state (first `OnLoad` only); returns the installed one.
pub fn init_global(g: Global) -> &'static Global {
    let _ = GLOBAL.set(g);
    GLOBAL.get().expect("just set")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_lower_capacities_and_refuse_nonsense() {
        let l = Limits::parse(
            "kernels=2, signals=3,queues=1,code_objects=1,app_signals=4,capture_chunks=2,counter_buffers=3",
        )
        .unwrap();
        assert_eq!(
            l,
            Limits {
                kernels: 2,
                app_signals: 4,
                signals: 3,
                queues: 1,
                code_objects: 1,
                capture_chunks: 2,
                counter_buffers: 3
            }
        );
        assert_eq!(Limits::parse("kernels=99999999").unwrap().kernels, MAX_KERNELS, "never raised");
        assert_eq!(Limits::parse("").unwrap(), Limits::DEFAULT);
        assert_eq!(Limits::parse("counter_buffers=100000").unwrap().counter_buffers, MAX_COUNTER_BUFFERS);
        for bad in ["kernels", "kernels=x", "kernels=0", "tables=3", "counter_buffers=1"] {
            assert!(Limits::parse(bad).is_err(), "{bad}");
        }
    }

    /// Neighbouring queue entries never share a cache line.
    #[test]
    fn queue_entries_have_a_cache_line_each() {
        assert_eq!(std::mem::align_of::<QueueCtx>(), 64);
        assert_eq!(std::mem::size_of::<QueueCtx>(), 64);
        let path = std::env::temp_dir().join(format!("rocprof-qline-{}.rpcap", std::process::id()));
        let sink: &'static crate::sink::Sink =
            Box::leak(Box::new(crate::sink::Sink::create(&path, &Default::default()).unwrap()));
        let _ = std::fs::remove_file(&path);
        let g = Global::new(sink, true, &[0xA9]);
        let line = |i: usize| &g.queues[i] as *const QueueCtx as usize / 64;
        assert!((1..g.queues.len()).all(|i| line(i) != line(i - 1)));
    }

    /// A queue destroyed while the runtime hands its address to a new queue: the new queue has its
    /// own entry, and the destroy of the new queue finds that entry, not the old one being settled.
    #[test]
    fn a_queue_address_reused_during_a_destroy_finds_its_own_entry() {
        let path = std::env::temp_dir().join(format!("rocprof-reuse-{}.rpcap", std::process::id()));
        let sink: &'static crate::sink::Sink =
            Box::leak(Box::new(crate::sink::Sink::create(&path, &Default::default()).unwrap()));
        let _ = std::fs::remove_file(&path);
        let g = Global::new(sink, true, &[0xA9]);
        let (old, old_id) = g.add_queue(0xBEEF_0000, 0xA9).unwrap();
        assert_eq!(g.begin_queue_destroy(0xBEEF_0000), Some(old));
        assert_eq!(g.begin_queue_destroy(0xBEEF_0000), None, "a second destroy of the same queue finds nothing");
        let (new, new_id) = g.add_queue(0xBEEF_0000, 0xA9).unwrap();
        assert_ne!(new, old);
        assert_ne!(new_id, old_id);
        assert_eq!(g.begin_queue_destroy(0xBEEF_0000), Some(new), "the new queue's own entry");
        g.restore_queue(new, 0xBEEF_0000);
        g.clear_queue(old);
        assert_eq!(g.find_queue(0xBEEF_0000), Some(new));
        assert_eq!(g.add_queue(0xCAFE_0000, 0xA9).unwrap().0, old, "the settled entry is free again");
    }

    #[test]
    fn pool_hands_out_each_slot_once_and_defers_release_by_one() {
        let pool = SignalPool::new(4);
        let mut next = 100;
        assert_eq!(
            pool.grow(10, || {
                next += 1;
                Some(hsa_signal_t { handle: next })
            }),
            4
        );
        let (a, sa) = pool.acquire().unwrap();
        assert_eq!(sa.signal.load(Ordering::Relaxed), 101);
        let taken: Vec<u32> = std::iter::from_fn(|| pool.acquire().map(|s| s.0)).collect();
        assert_eq!(taken.len(), 3);
        assert!(pool.acquire().is_none());
        pool.release_deferred(a);
        assert!(pool.acquire().is_none(), "the first deferred release waits for the next one");
        pool.release_deferred(taken[0]);
        assert_eq!(pool.acquire().map(|s| s.0), Some(a));
        pool.reset();
        assert!(pool.is_empty() && pool.acquire().is_none());
    }
}
