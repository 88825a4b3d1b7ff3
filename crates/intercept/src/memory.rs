//! Memory activity: asynchronous copies as `MEMORY_COPY` records and allocations / frees as
//! `MEMORY_ALLOCATION` records, through hooks on the copy and allocation entries of the API
//! tables (installed before API tracing wraps the same entries, so the API record of a call
//! includes the hook's work).
//!
//! Copies. The copy's completion signal is replaced by a profiling signal of ours (value 1) with
//! a one-shot async handler, as rocprofiler-sdk does: the handler (on the runtime's async thread)
//! reads the engine's start/end with `hsa_amd_profiling_get_async_copy_time` (copy profiling is
//! switched on at load), writes the record, and only then decrements the application's signal
//! by 1, as the runtime would have. So the record is in the capture before the application can
//! see the copy complete, and a copy the application waited for survives a crash right after.
//! The application's own `hsa_amd_profiling_get_async_copy_time` on its signal, which the
//! runtime never saw, is answered from the times we recorded. Dependencies, engines and every
//! other argument pass through unchanged; when no profiling signal is free the copy runs
//! untraced and the loss is counted.
//!
//! Allocations. `hsa_memory_allocate`/`_free`, `hsa_amd_memory_pool_allocate`/`_free` and
//! `hsa_amd_vmem_handle_create`/`_release` are timed around the call; the agent of an allocation
//! is the owner of its region or pool (a table built at load by iterating every agent's regions
//! and pools).
//!
//! Correlation: both take their ids from `api::issuer()`: the HIP call around the HSA call if
//! there is one, else the traced HSA call itself.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use rocprof_hsa_sys::*;
use rocprof_model::capture::{MemoryAllocationRecord, MemoryCopyRecord, COPY_NO_TIME, COPY_OK};
use rocprof_model::{LossReason, MemoryAllocationOp, MemoryCopyDirection};

use crate::guard::ffi_guard;
use crate::kernel_map::KernelMap;
use crate::state::{self, SignalPool};
use crate::tables::Originals;
use crate::{api, sink, timer};

/// Copies in flight at once (profiling signals for copies).
pub const MAX_COPIES: usize = 4096;
/// Copy signals created at load.
const INITIAL_SIGNALS: usize = 32;
/// The writer thread adds signals when fewer than this many are free...
const LOW_WATER: i64 = 16;
/// ... this many at a time.
const GROW_BY: usize = 64;
/// Pools and regions remembered for the allocation agent.
const MAX_POOLS: usize = 1024;

/// What the completion handler needs to know about a copy in flight (indexed like the pool).
#[derive(Default)]
struct CopyInfo {
    app_signal: AtomicU64,
    correlation: AtomicU64,
    ancestor: AtomicU64,
    external: AtomicU64,
    stream: AtomicU64,
    src_agent: AtomicU64,
    dst_agent: AtomicU64,
    src: AtomicU64,
    dst: AtomicU64,
    bytes: AtomicU64,
    tid: AtomicU32,
    direction: AtomicU32,
    /// The runtime refused the copy: the handler only frees the slot.
    cancelled: AtomicBool,
    /// The application's signal has had its decrement for this copy (exactly one, by the handler
    /// or, when the handler failed, by its fallback).
    app_released: AtomicBool,
    /// Recorded times, kept after completion for `hsa_amd_profiling_get_async_copy_time` on the
    /// application's signal (valid when `done`).
    start_ns: AtomicU64,
    end_ns: AtomicU64,
    done: AtomicBool,
}

/// The process-wide memory-activity state, created at the first `OnLoad` that traces copies or
/// allocations.
pub struct Memory {
    copies: bool,
    allocations: bool,
    pool: SignalPool,
    info: Box<[CopyInfo]>,
    /// Memory pool / region handle -> owning agent handle.
    owners: KernelMap,
    /// A CPU agent (source or destination of host-side rectangular copies).
    cpu_agent: AtomicU64,
}

static MEMORY: OnceLock<Memory> = OnceLock::new();

/// The state, once initialised.
pub fn memory() -> Option<&'static Memory> {
    MEMORY.get()
}

/// Creates the state (first call only) and records which memory pools and regions belong to
/// which agent. Cold path (`OnLoad`).
pub fn init(o: &Originals, agents: &[u64], gpus: &[u64], copies: bool, allocations: bool) {
    if !copies && !allocations {
        return;
    }
    let m = MEMORY.get_or_init(|| Memory {
        copies,
        allocations,
        pool: SignalPool::new(MAX_COPIES),
        info: (0..MAX_COPIES).map(|_| CopyInfo::default()).collect(),
        owners: KernelMap::new(MAX_POOLS),
        cpu_agent: AtomicU64::new(0),
    });
    for &a in agents {
        if !gpus.contains(&a) && m.cpu_agent.load(Ordering::Relaxed) == 0 {
            m.cpu_agent.store(a, Ordering::Relaxed);
        }
        let agent = hsa_agent_t { handle: a };
        let data = (m as *const Memory).cast_mut().cast::<std::ffi::c_void>();
        // SAFETY: the callbacks only read `data` as the `Memory` above, which lives forever, and
        // the runtime calls them before the iteration returns.
        unsafe {
            if let Some(iterate) = o.iterate_memory_pools {
                owner_of(agent);
                iterate(agent, Some(memory_pool_owner_callback), data);
            }
            if let Some(iterate) = o.agent_iterate_regions {
                owner_of(agent);
                iterate(agent, Some(region_owner_callback), data);
            }
        }
    }
    if copies {
        if let Some(enable) = o.profiling_async_copy_enable {
            // SAFETY: a plain runtime call; the runtime then stamps every copy with its times.
            unsafe { enable(true) };
        }
        grow(m, o, INITIAL_SIGNALS);
    }
}

thread_local! {
    /// The agent whose pools/regions are being iterated (`init`, on the `OnLoad` thread).
    static ITERATED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

// No destructor (checked): exit handlers and TLS destructors of other code can still use it
// (see `hip::v6`, HIP 6.4 calls from `__cxa_finalize`).
const _: () = assert!(!std::mem::needs_drop::<std::cell::Cell<u64>>());

fn owner_of(agent: hsa_agent_t) {
    let _ = ITERATED.try_with(|c| c.set(agent.handle));
}

/// Body of the pool/region iteration callbacks: `handle` belongs to the agent being iterated.
pub fn remember_owner(data: *mut std::ffi::c_void, handle: u64) {
    // SAFETY: `data` is the `&'static Memory` passed by `init`.
    let m = unsafe { &*(data as *const Memory) };
    let agent = ITERATED.try_with(|c| c.get()).unwrap_or(0);
    // A handle listed by several agents is the first one's: ROCr lists the system (host) regions
    // under every GPU agent too, and the CPU agents come first, so system memory stays the CPU's.
    if agent != 0 && m.owners.get(handle) == 0 {
        m.owners.insert(handle, agent);
    }
}

fn grow(m: &Memory, o: &Originals, n: usize) {
    let Some(create) = o.signal_create else { return };
    m.pool.grow(n, || {
        let mut s = hsa_signal_t { handle: 0 };
        // SAFETY: valid out-pointer; an interrupt signal, because the runtime's async handler
        // thread waits on it.
        let rc = unsafe { create(1, 0, std::ptr::null(), &mut s) };
        (rc == HSA_STATUS_SUCCESS && s.handle != 0).then_some(s)
    });
}

/// Writer-thread upkeep: adds copy signals when few are free.
pub fn maintain() {
    let (Some(m), Some(o)) = (memory(), state::originals()) else { return };
    if m.copies && state::is_active() && m.pool.free_estimate() < LOW_WATER {
        grow(m, o, GROW_BY);
    }
}

/// `OnUnload`: the runtime destroys every signal at shutdown, so the copy signals are forgotten;
/// a later `OnLoad` ([`init`]) creates new ones.
pub fn on_unload() {
    if let Some(m) = memory() {
        m.pool.reset();
    }
}

/// The arguments of a copy that the record needs.
#[derive(Debug, Clone, Copy)]
pub struct CopyArgs {
    /// Destination address.
    pub dst: u64,
    /// Destination agent.
    pub dst_agent: u64,
    /// Source address.
    pub src: u64,
    /// Source agent.
    pub src_agent: u64,
    /// Bytes.
    pub bytes: u64,
}

impl CopyArgs {
    /// The source and destination agents of a rectangular copy: the copy agent on the device
    /// side(s), a CPU agent on the host side(s).
    pub fn rect(dst: u64, src: u64, bytes: u64, copy_agent: u64, dir: hsa_amd_copy_direction_t) -> Self {
        let cpu = memory().map_or(0, |m| m.cpu_agent.load(Ordering::Relaxed));
        #[allow(non_upper_case_globals)] // bindgen's enum constants
        let (src_agent, dst_agent) = match dir {
            hsaHostToHost => (cpu, cpu),
            hsaHostToDevice => (cpu, copy_agent),
            hsaDeviceToHost => (copy_agent, cpu),
            _ => (copy_agent, copy_agent),
        };
        Self { dst, dst_agent, src, src_agent, bytes }
    }
}

/// A traced copy: `call` submits the copy with the completion signal it is given. Returns the
/// runtime's status for the application's copy.
pub fn copy(args: CopyArgs, completion: hsa_signal_t, call: impl FnOnce(hsa_signal_t) -> hsa_status_t) -> hsa_status_t {
    let (Some(m), Some(o), Some(g)) = (memory(), state::originals(), state::global()) else {
        return call(completion);
    };
    if !m.copies {
        return call(completion);
    }
    match state::lifecycle() {
        state::Lifecycle::Active => {}
        state::Lifecycle::Disabled => {
            let status = call(completion);
            if status == HSA_STATUS_SUCCESS {
                crate::queue::count_tool_disabled();
            }
            return status;
        }
        state::Lifecycle::Idle => return call(completion),
    }
    let (Some(register), Some(store)) = (o.signal_async_handler, o.signal_store_relaxed) else {
        return call(completion);
    };
    let Some((index, slot)) = m.pool.acquire() else {
        g.sink.count_loss(LossReason::SignalPoolEmpty);
        g.sink.wake_writer();
        return call(completion);
    };
    let info = &m.info[index as usize];
    let (correlation, ancestor, external) = api::issuer();
    let direction = MemoryCopyDirection::between(g.is_gpu(args.src_agent), g.is_gpu(args.dst_agent));
    info.app_signal.store(completion.handle, Ordering::Relaxed);
    info.correlation.store(correlation, Ordering::Relaxed);
    info.ancestor.store(ancestor, Ordering::Relaxed);
    info.external.store(external, Ordering::Relaxed);
    info.stream.store(api::stream(), Ordering::Relaxed);
    info.src_agent.store(args.src_agent, Ordering::Relaxed);
    info.dst_agent.store(args.dst_agent, Ordering::Relaxed);
    info.src.store(args.src, Ordering::Relaxed);
    info.dst.store(args.dst, Ordering::Relaxed);
    info.bytes.store(args.bytes, Ordering::Relaxed);
    info.tid.store(sink::tid(), Ordering::Relaxed);
    info.direction.store(direction as u32, Ordering::Relaxed);
    info.cancelled.store(false, Ordering::Relaxed);
    info.app_released.store(false, Ordering::Relaxed);
    info.done.store(false, Ordering::Release);
    let ours = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
    let reset = o.signal_silent_store_relaxed.unwrap_or(store);
    // SAFETY: our own live signal; the handler and its argument (a slot index) live as long as
    // the process.
    let rc = unsafe {
        reset(ours, 1);
        register(
            ours,
            HSA_SIGNAL_CONDITION_LT,
            1,
            Some(copy_completion_handler),
            index as usize as *mut std::ffi::c_void,
        )
    };
    if rc != HSA_STATUS_SUCCESS {
        m.pool.release(index);
        g.sink.count_loss(LossReason::HandlerRegistrationFailed);
        return call(completion);
    }
    let status = call(ours);
    if status != HSA_STATUS_SUCCESS {
        // The runtime refused the copy: fire our handler so it frees the slot; the application
        // gets the runtime's status and its signal is untouched, as without us.
        info.cancelled.store(true, Ordering::Release);
        // SAFETY: our own live signal.
        unsafe { store(ours, 0) };
    }
    status
}

/// The copy completion handler's body (runtime async thread). Returns false: one-shot.
pub fn on_copy_complete(index: u32) -> bool {
    crate::fault::completion();
    let (Some(m), Some(o)) = (memory(), state::originals()) else { return false };
    let (Some(slot), Some(info)) = (m.pool.slot(index), m.info.get(index as usize)) else { return false };
    if !info.cancelled.load(Ordering::Acquire) {
        let ours = hsa_signal_t { handle: slot.signal.load(Ordering::Acquire) };
        let mut t = hsa_amd_profiling_async_copy_time_t { start: 0, end: 0 };
        let ok = match o.get_async_copy_time {
            // SAFETY: our own signal and a valid out-pointer.
            Some(f) => (unsafe { f(ours, &mut t) }) == HSA_STATUS_SUCCESS,
            None => false,
        };
        info.start_ns.store(t.start, Ordering::Relaxed);
        info.end_ns.store(t.end, Ordering::Relaxed);
        info.done.store(ok, Ordering::Release);
        if let Some(g) = state::global() {
            g.sink.write(&MemoryCopyRecord {
                correlation_id: info.correlation.load(Ordering::Relaxed),
                ancestor_id: info.ancestor.load(Ordering::Relaxed),
                external_id: info.external.load(Ordering::Relaxed),
                start_ns: t.start,
                end_ns: t.end,
                src_agent: info.src_agent.load(Ordering::Relaxed),
                dst_agent: info.dst_agent.load(Ordering::Relaxed),
                src_address: info.src.load(Ordering::Relaxed),
                dst_address: info.dst.load(Ordering::Relaxed),
                bytes: info.bytes.load(Ordering::Relaxed),
                stream_id: info.stream.load(Ordering::Relaxed),
                tid: info.tid.load(Ordering::Relaxed),
                direction: info.direction.load(Ordering::Relaxed),
                status: if ok { COPY_OK } else { COPY_NO_TIME },
                reserved: 0,
            });
        }
        // Now the application may see its copy complete: the runtime's decrement by one.
        release_app_signal(o, info);
    }
    // The runtime removes this handler's registration after we return: the slot is handed out
    // again one completion later.
    m.pool.release_deferred(index);
    false
}

/// Completes the application's signal of a copy (the runtime's decrement by one), once.
fn release_app_signal(o: &Originals, info: &CopyInfo) {
    if info.app_released.swap(true, Ordering::AcqRel) {
        return;
    }
    let app = hsa_signal_t { handle: info.app_signal.load(Ordering::Relaxed) };
    if app.handle != 0 {
        if let Some(sub) = o.signal_subtract_screlease {
            // SAFETY: the application's signal, which it keeps alive until the copy is done.
            unsafe { sub(app, 1) };
        }
    }
}

/// Last resort when [`on_copy_complete`] failed internally (its guard caught a panic): the copy's
/// record is lost, counted as `completion_lost`, and the application's signal is still completed
/// (unless the runtime had refused the copy), so the application is not hung; the slot is handed
/// back as the handler would have.
pub fn copy_completion_failed(index: u32) -> bool {
    let (Some(m), Some(o)) = (memory(), state::originals()) else { return false };
    if let Some(g) = state::global() {
        g.sink.count_loss(LossReason::CompletionLost);
    }
    if let Some(info) = m.info.get(index as usize) {
        if !info.cancelled.load(Ordering::Acquire) {
            release_app_signal(o, info);
        }
    }
    m.pool.release_deferred(index);
    false
}

/// `hsa_amd_profiling_get_async_copy_time` for the application: the runtime answers for
/// signals it saw; for an application signal we substituted, the times we recorded.
///
/// # Safety
/// `time` is NULL or valid for a write (the API contract).
pub unsafe fn async_copy_time(
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_async_copy_time_t,
    original: impl FnOnce() -> hsa_status_t,
) -> hsa_status_t {
    let rc = original();
    if rc == HSA_STATUS_SUCCESS || time.is_null() || signal.handle == 0 {
        return rc;
    }
    let Some(m) = memory() else { return rc };
    // A signal handle can be reused after the application destroys its signal, so several slots
    // may name it: the latest completed copy is the one the application waited for.
    let mut found: Option<hsa_amd_profiling_async_copy_time_t> = None;
    for info in m.info.iter() {
        if info.app_signal.load(Ordering::Relaxed) == signal.handle && info.done.load(Ordering::Acquire) {
            let t = hsa_amd_profiling_async_copy_time_t {
                start: info.start_ns.load(Ordering::Relaxed),
                end: info.end_ns.load(Ordering::Relaxed),
            };
            if found.is_none_or(|f| t.end > f.end) {
                found = Some(t);
            }
        }
    }
    let Some(t) = found else { return rc };
    // SAFETY: non-null out-pointer from the application (the API contract).
    unsafe { time.write(t) };
    HSA_STATUS_SUCCESS
}

/// A traced allocation or free: `call` is the runtime's function; `address` reads the
/// allocated address afterwards (for frees, the freed one). `owner` is the pool or region.
pub fn allocation(
    op: MemoryAllocationOp,
    owner: u64,
    size: u64,
    call: impl FnOnce() -> hsa_status_t,
    address: impl FnOnce() -> u64,
) -> hsa_status_t {
    let Some(m) = memory().filter(|m| m.allocations && state::is_active()) else { return call() };
    let (correlation, ancestor, external) = api::issuer();
    let start = timer::now();
    let rc = call();
    let end = timer::now();
    if rc != HSA_STATUS_SUCCESS {
        return rc;
    }
    if let Some(g) = state::global() {
        let agent = if op == MemoryAllocationOp::Allocate || op == MemoryAllocationOp::VmemAllocate {
            m.owners.get(owner)
        } else {
            0
        };
        g.sink.write(&MemoryAllocationRecord {
            correlation_id: correlation,
            ancestor_id: ancestor,
            external_id: external,
            start,
            end,
            agent_handle: agent,
            address: address(),
            size,
            stream_id: api::stream(),
            tid: sink::tid(),
            operation: op as u32,
            flags: timer::flags(),
            reserved: 0,
        });
    }
    rc
}

/// The hooks `OnLoad` installs for copies and allocations.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    /// `hsa_amd_memory_async_copy`.
    pub async_copy: PFN_hsa_amd_memory_async_copy,
    /// `hsa_amd_memory_async_copy_on_engine`.
    pub async_copy_on_engine: PFN_hsa_amd_memory_async_copy_on_engine,
    /// `hsa_amd_memory_async_copy_rect`.
    pub async_copy_rect: PFN_hsa_amd_memory_async_copy_rect,
    /// `hsa_amd_profiling_get_async_copy_time`.
    pub get_async_copy_time: PFN_hsa_amd_profiling_get_async_copy_time,
    /// `hsa_memory_allocate`.
    pub memory_allocate: PFN_hsa_memory_allocate,
    /// `hsa_memory_free`.
    pub memory_free: PFN_hsa_memory_free,
    /// `hsa_amd_memory_pool_allocate`.
    pub pool_allocate: PFN_hsa_amd_memory_pool_allocate,
    /// `hsa_amd_memory_pool_free`.
    pub pool_free: PFN_hsa_amd_memory_pool_free,
    /// `hsa_amd_vmem_handle_create`.
    pub vmem_create: PFN_hsa_amd_vmem_handle_create,
    /// `hsa_amd_vmem_handle_release`.
    pub vmem_release: PFN_hsa_amd_vmem_handle_release,
}

/// Visits every hooked entry of the live tables: `f(slot, hook, original)` with the slot's
/// address, our hook's address and the saved original (0 when none). Layout-dependent entries
/// are visited only in the layouts that have them, at their offsets there.
///
/// # Safety
/// `table` is the runtime's live table; `o` the originals read from it.
unsafe fn for_each_slot(
    table: *mut HsaApiTable,
    o: &Originals,
    h: &Hooks,
    mut f: impl FnMut(*mut usize, usize, usize),
) {
    // SAFETY: (whole body) the tables are live (caller); a slot is visited only when it lies
    // within the size the runtime declares for its table.
    unsafe {
        let root = &*table;
        macro_rules! visit {
            ($t:expr, $ty:ty, $field:ident, $hook:expr, $orig:expr) => {
                if !$t.is_null() && std::mem::offset_of!($ty, $field) + 8 <= (*$t).version.minor_id as usize {
                    f(std::ptr::addr_of_mut!((*$t).$field).cast(), $hook as usize, $orig.map_or(0, |p| p as usize));
                }
            };
        }
        let core = root.core_;
        visit!(core, CoreApiTable, hsa_memory_allocate_fn, h.memory_allocate, o.memory_allocate);
        visit!(core, CoreApiTable, hsa_memory_free_fn, h.memory_free, o.memory_free);
        let amd = root.amd_ext_;
        if amd.is_null() {
            return;
        }
        visit!(amd, AmdExtTable, hsa_amd_memory_async_copy_fn, h.async_copy, o.memory_async_copy);
        visit!(
            amd,
            AmdExtTable,
            hsa_amd_profiling_get_async_copy_time_fn,
            h.get_async_copy_time,
            o.get_async_copy_time
        );
        visit!(amd, AmdExtTable, hsa_amd_memory_pool_allocate_fn, h.pool_allocate, o.memory_pool_allocate);
        visit!(amd, AmdExtTable, hsa_amd_memory_pool_free_fn, h.pool_free, o.memory_pool_free);
        match ((*amd).version.major_id, (*amd).version.minor_id) {
            (1, 400) => {
                let a = amd.cast::<rocm_5_2::AmdExtTable>();
                visit!(
                    a,
                    rocm_5_2::AmdExtTable,
                    hsa_amd_memory_async_copy_rect_fn,
                    h.async_copy_rect,
                    o.memory_async_copy_rect
                );
            }
            (2, _) => {
                visit!(
                    amd,
                    AmdExtTable,
                    hsa_amd_memory_async_copy_rect_fn,
                    h.async_copy_rect,
                    o.memory_async_copy_rect
                );
                visit!(
                    amd,
                    AmdExtTable,
                    hsa_amd_memory_async_copy_on_engine_fn,
                    h.async_copy_on_engine,
                    o.memory_async_copy_on_engine
                );
                visit!(amd, AmdExtTable, hsa_amd_vmem_handle_create_fn, h.vmem_create, o.vmem_handle_create);
                visit!(amd, AmdExtTable, hsa_amd_vmem_handle_release_fn, h.vmem_release, o.vmem_handle_release);
            }
            _ => {}
        }
    }
}

/// Which hooks cover which activity: copies (async copies and their time query) or allocations.
fn is_copy_hook(hook: usize, h: &Hooks) -> bool {
    [h.async_copy as usize, h.async_copy_on_engine as usize, h.async_copy_rect as usize, h.get_async_copy_time as usize]
        .contains(&hook)
}

/// Installs the copy and/or allocation hooks where the runtime has the entry.
///
/// # Safety
/// `table` is the runtime's live table, not concurrently written (`OnLoad`); `o` was read from it.
pub unsafe fn install(table: *mut HsaApiTable, o: &Originals, h: &Hooks, copies: bool, allocations: bool) {
    if table.is_null() || (!copies && !allocations) {
        return;
    }
    // SAFETY: as documented; each slot is written only where its original exists.
    unsafe {
        for_each_slot(table, o, h, |slot, hook, original| {
            let wanted = if is_copy_hook(hook, h) { copies } else { allocations };
            if wanted && original != 0 && original != hook {
                slot.write(hook);
            }
        });
    }
}

/// Puts the saved originals back into slots that hold our hooks (before a second `OnLoad` reads
/// the table, so that a hook is never taken for the runtime's function).
///
/// # Safety
/// As for [`install`]; `previous` are the originals saved by the earlier `OnLoad`.
pub unsafe fn unwrap(table: *mut HsaApiTable, previous: Option<&Originals>, h: &Hooks) {
    let Some(o) = previous else { return };
    if table.is_null() {
        return;
    }
    // SAFETY: as documented.
    unsafe {
        for_each_slot(table, o, h, |slot, hook, original| {
            if slot.read() == hook && original != 0 {
                slot.write(original);
            }
        });
    }
}

/// `hsa_amd_agent_iterate_memory_pools` callback at load: remembers the pool's owner.
///
/// # Safety
/// Called by the runtime with the `data` passed by [`init`].
pub unsafe extern "C" fn memory_pool_owner_callback(pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
    remember_owner(data, pool.handle);
    HSA_STATUS_SUCCESS
}

/// `hsa_agent_iterate_regions` callback at load: remembers the region's owner.
///
/// # Safety
/// Called by the runtime with the `data` passed by [`init`].
pub unsafe extern "C" fn region_owner_callback(region: hsa_region_t, data: *mut c_void) -> hsa_status_t {
    remember_owner(data, region.handle);
    HSA_STATUS_SUCCESS
}

/// One-shot async handler on a copy's profiling signal; `arg` is the slot index.
///
/// # Safety
/// Called by the runtime's async-handler thread with the argument we registered.
pub unsafe extern "C" fn copy_completion_handler(_value: hsa_signal_value_t, arg: *mut c_void) -> bool {
    let index = arg as usize as u32;
    ffi_guard("copy completion handler", || copy_completion_failed(index), || on_copy_complete(index))
}
