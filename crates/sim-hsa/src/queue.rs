//! User-mode AQL queues. `hsa_queue_t*` is the address of a 64-byte-aligned, 2304-byte block with the newest
//! ROCr's `amd_queue_v2_t` layout (write index @56, read index @128, `queue_properties` @180; its first 256
//! bytes are the older `amd_queue_t`), followed by hidden state. Each hardware queue has its own packet-processor thread (see `packet.rs`) that drains the ring in
//! index order; the doorbell is a signal of kind `AMD_SIGNAL_KIND_DOORBELL` whose stores wake that thread.
//!
//! Intercept queues (`intercept.rs`) use the same block with their own ring and indices but no thread:
//! their doorbell runs the rewrite chain on the storing thread.
//!
//! Destroyed queues are recycled, so that a program creating and destroying queues in a loop keeps a
//! flat footprint (ROCr releases a destroyed queue, its ring and its doorbell signal). `hsa_queue_destroy`
//! stops and joins the queue's packet processor, hands the ring's pages back to the system
//! (`MADV_DONTNEED`: they read as zeros until reused) and puts the block, ring and doorbell signal on a
//! spare list; the next queue created on the same agent with the same size takes the block and
//! re-initialises it in place (a new queue id, indices 0, every header INVALID, a new processor thread).
//! A block is never freed nor unmapped: a destroyed queue's address, ring and doorbell stay readable
//! memory (an application still using them has a bug, as on ROCr, but reads stale memory; a store to
//! a stale doorbell at most wakes the queue that reuses the block). The spare lists hold at most as many
//! blocks as were alive at once, each costing its header (about 2.5 KiB) once its ring pages are released.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::ffi::{put, status, Status};
use crate::futex::Event;
use crate::runtime::system;
use crate::signal::{self, Signal};
use crate::topology::{MAX_QUEUE_PACKETS, MIN_QUEUE_PACKETS};

/// `amd_queue_t` (v2 field names) with atomics where the packet processor and producers meet.
#[repr(C, align(64))]
pub(crate) struct AmdQueue {
    /// The public header. Written (type and id, atomically) only while the block is not published:
    /// at creation and when a spare block is reused; `UnsafeCell` because the reuse writes it through a
    /// shared reference.
    hsa: std::cell::UnsafeCell<hsa_queue_t>,
    caps: u32,
    reserved1: [u32; 3],
    pub(crate) write_dispatch_id: AtomicU64,
    group_segment_aperture_base_hi: u32,
    private_segment_aperture_base_hi: u32,
    max_cu_id: u32,
    max_wave_id: u32,
    max_legacy_doorbell_dispatch_id_plus_1: u64,
    legacy_doorbell_lock: u32,
    reserved2: [u32; 9],
    pub(crate) read_dispatch_id: AtomicU64,
    read_dispatch_id_field_base_byte_offset: u32,
    compute_tmpring_size: u32,
    scratch_resource_descriptor: [u32; 4],
    scratch_backing_memory_location: u64,
    scratch_backing_memory_byte_size: u64,
    scratch_wave64_lane_byte_size: u32,
    pub(crate) queue_properties: AtomicU32,
    scratch_max_use_index: u64,
    queue_inactive_signal: hsa_signal_t,
    /// `alt_scratch_*` fields of `amd_queue_v2_t` (no alternate scratch in the simulator: zero).
    reserved_tail: [u32; 14],
    /// `amd_queue_v2_t::scratch_last_used_index[128]` (main/alt per XCC): the newest ROCr hands out a
    /// 2304-byte `amd_queue_v2_t`, so a tool reading it must find zeros here, not the simulator's state.
    scratch_last_used_index: [[u64; 2]; 128],
}

const _: () = {
    use std::mem::offset_of;
    assert!(size_of::<AmdQueue>() == size_of::<amd_queue_v2_t>());
    assert!(offset_of!(AmdQueue, reserved_tail) == offset_of!(amd_queue_v2_t, alt_scratch_max_use_index));
    assert!(offset_of!(AmdQueue, scratch_last_used_index) == offset_of!(amd_queue_v2_t, scratch_last_used_index));
    assert!(offset_of!(AmdQueue, caps) == offset_of!(amd_queue_t, caps));
    assert!(offset_of!(AmdQueue, write_dispatch_id) == offset_of!(amd_queue_t, write_dispatch_id));
    assert!(offset_of!(AmdQueue, max_cu_id) == offset_of!(amd_queue_t, max_cu_id));
    assert!(offset_of!(AmdQueue, legacy_doorbell_lock) == offset_of!(amd_queue_t, legacy_doorbell_lock));
    assert!(offset_of!(AmdQueue, read_dispatch_id) == offset_of!(amd_queue_t, read_dispatch_id));
    assert!(offset_of!(AmdQueue, compute_tmpring_size) == offset_of!(amd_queue_t, compute_tmpring_size));
    assert!(offset_of!(AmdQueue, scratch_resource_descriptor) == offset_of!(amd_queue_t, scratch_resource_descriptor));
    assert!(
        offset_of!(AmdQueue, scratch_backing_memory_byte_size)
            == offset_of!(amd_queue_v2_t, scratch_backing_memory_byte_size)
    );
    assert!(
        offset_of!(AmdQueue, scratch_wave64_lane_byte_size) == offset_of!(amd_queue_t, scratch_wave64_lane_byte_size)
    );
    assert!(offset_of!(AmdQueue, queue_properties) == offset_of!(amd_queue_t, queue_properties));
    assert!(offset_of!(AmdQueue, scratch_max_use_index) == offset_of!(amd_queue_v2_t, scratch_max_use_index));
    assert!(offset_of!(AmdQueue, queue_inactive_signal) == offset_of!(amd_queue_t, queue_inactive_signal));
};

#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QueueState {
    Active = 0,
    Inactive = 1,
    Error = 2,
    Destroyed = 3,
}

pub(crate) type ErrorCallback = unsafe extern "C" fn(status: hsa_status_t, source: *mut hsa_queue_t, data: *mut c_void);

#[repr(C, align(64))]
pub(crate) struct Queue {
    pub(crate) amd: AmdQueue,
    pub(crate) agent: &'static Agent,
    pub(crate) ring: usize,
    pub(crate) size: u32,
    pub(crate) doorbell: &'static Signal,
    /// The creation's error callback (`ErrorCallback` as an address, 0 = none) and its data.
    callback: AtomicUsize,
    callback_data: AtomicUsize,
    state: AtomicU8,
    pub(crate) wake: Event,
    worker: Mutex<Option<JoinHandle<()>>>,
    pub(crate) cu_mask: Mutex<Vec<u32>>,
    pub(crate) priority: AtomicU32,
    /// Set for intercept queues (no packet-processor thread; see `intercept.rs`).
    pub(crate) intercept: AtomicU64,
    /// True for queues the runtime created for itself (e.g. behind an intercept queue).
    pub(crate) internal: AtomicBool,
    /// For a hardware queue behind an intercept queue: the proxy's address, reported as the error source.
    pub(crate) owner_proxy: AtomicU64,
    /// The queue's scratch memory (`scratch.rs`).
    pub(crate) scratch: Mutex<crate::scratch::QueueScratch>,
}

// SAFETY: the only non-Sync member is `amd.hsa` (the public header): its ring base address, size and
// doorbell are written once when the block is made, and its type and id only through atomic accesses
// (`set_header`, `id`); everything else mutable is atomic or behind a mutex.
unsafe impl Sync for Queue {}
// SAFETY: as above; a `Queue` owns no thread-affine resources.
unsafe impl Send for Queue {}

/// Process-lifetime queue ids, as in ROCr (unique, never reused, also when a block is).
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
static LIVE: RwLock<Vec<usize>> = RwLock::new(Vec::new());
/// Destroyed plain queues whose processor thread was joined, ready for reuse (block addresses).
static SPARE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// The next process-unique queue id.
pub(crate) fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl Queue {
    pub(crate) fn hsa_ptr(&'static self) -> *mut hsa_queue_t {
        self as *const Queue as *mut hsa_queue_t
    }

    /// The id field of the public header, as an atomic.
    fn id_word(&self) -> &AtomicU64 {
        // SAFETY: `id` is an 8-byte aligned u64 inside the block, which is never freed; every access
        // from the runtime goes through this atomic view.
        unsafe { AtomicU64::from_ptr(std::ptr::addr_of_mut!((*self.amd.hsa.get()).id)) }
    }

    /// Created as `HSA_QUEUE_TYPE_COOPERATIVE` (HIP's queue for `hipLaunchCooperativeKernel`).
    pub(crate) fn is_cooperative(&self) -> bool {
        // SAFETY: `type` is a 4-byte aligned u32 inside the block, which is never freed; it is written once
        // when the queue is activated, before any packet is processed.
        let t = unsafe { std::ptr::addr_of!((*self.amd.hsa.get()).r#type).read_volatile() };
        t == HSA_QUEUE_TYPE_COOPERATIVE
    }

    pub(crate) fn id(&self) -> u64 {
        self.id_word().load(Ordering::Relaxed)
    }

    /// Writes the per-queue fields of the public header (the block is not published).
    fn set_header(&self, type_: u32, id: u64) {
        // SAFETY: as in `id_word`; `type` is a 4-byte aligned u32 of the header.
        unsafe { AtomicU32::from_ptr(std::ptr::addr_of_mut!((*self.amd.hsa.get()).r#type)) }
            .store(type_, Ordering::Relaxed);
        self.id_word().store(id, Ordering::Relaxed);
    }

    /// Ring size in bytes.
    fn ring_bytes(&self) -> usize {
        self.size as usize * 64
    }

    pub(crate) fn state(&self) -> QueueState {
        match self.state.load(Ordering::Acquire) {
            0 => QueueState::Active,
            1 => QueueState::Inactive,
            2 => QueueState::Error,
            _ => QueueState::Destroyed,
        }
    }

    pub(crate) fn set_state(&self, s: QueueState) {
        self.state.store(s as u8, Ordering::Release);
        self.wake.notify();
    }

    pub(crate) fn profiling_enabled(&self) -> bool {
        self.amd.queue_properties.load(Ordering::Acquire) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING != 0
    }

    /// Address of ring slot `index`.
    pub(crate) fn slot(&self, index: u64) -> *mut u8 {
        (self.ring + (index % u64::from(self.size)) as usize * 64) as *mut u8
    }

    /// Reports a fatal queue error through the creation callback (on the calling runtime thread) and stops
    /// the queue, like ROCr does after a packet-processor error.
    pub(crate) fn fail(&'static self, code: hsa_status_t) {
        self.set_state(QueueState::Error);
        crate::diag!("queue {} stopped: {}", self.id(), status_name(code));
        let proxy = self.owner_proxy.load(Ordering::Acquire);
        let source = if proxy != 0 { proxy as *mut hsa_queue_t } else { self.hsa_ptr() };
        match self.callback.load(Ordering::Acquire) {
            0 => default_error_handler(code, source),
            cb => {
                // SAFETY: a non-zero `callback` is the `ErrorCallback` the application passed at this
                // queue's creation (stored by `activate`), with its data.
                let cb: ErrorCallback = unsafe { std::mem::transmute::<usize, ErrorCallback>(cb) };
                // SAFETY: the application's callback, called as ROCr calls it.
                unsafe { cb(code, source, self.callback_data.load(Ordering::Acquire) as *mut c_void) }
            }
        }
    }
}

/// What ROCr does for a queue created without an error callback (`core::Queue::DefaultErrorHandler`, which
/// `hsa_queue_create` and `hsa_amd_queue_intercept_create` substitute for NULL): print the error and abort
/// the process, unless `HSA_ENABLE_QUEUE_FAULT_MESSAGE=0`. Merely stopping the queue would leave such an
/// application waiting forever on a completion signal where real hardware kills it.
fn default_error_handler(code: hsa_status_t, source: *mut hsa_queue_t) {
    if std::env::var_os("HSA_ENABLE_QUEUE_FAULT_MESSAGE").is_some_and(|v| v == "0") {
        return;
    }
    eprintln!("Queue at {source:p} inactivated due to async error:\n\t{}", status_name(code));
    std::process::abort();
}

fn status_name(code: hsa_status_t) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: valid out-pointer; the returned string is static.
    if unsafe { crate::runtime::hsa_status_string(code, &mut p) } == HSA_STATUS_SUCCESS && !p.is_null() {
        // SAFETY: static NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned()
    } else {
        format!("status {code:#x}")
    }
}

/// Validates a queue pointer.
pub(crate) fn lookup(q: *const hsa_queue_t) -> Result<&'static Queue, Status> {
    if q.is_null() {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let live = LIVE.read().unwrap_or_else(|e| e.into_inner());
    if live.contains(&(q as usize)) {
        // SAFETY: registered addresses are queue blocks, which are never freed (see the module docs).
        Ok(unsafe { &*(q as *const Queue) })
    } else {
        Err(HSA_STATUS_ERROR_INVALID_QUEUE)
    }
}

/// Maps a ring of `size` packets (page aligned, zeroed; `activate` writes the headers). Never unmapped.
fn map_ring(size: u32) -> Result<usize, Status> {
    // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size as usize * 64,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    }
    Ok(p as usize)
}

/// Makes a new, unpublished queue block (state `Destroyed`) on `agent` with a ring of `size`
/// packets and its doorbell signal. `proxy` makes an intercept proxy's block (tagged doorbell).
pub(crate) fn new_block(agent: &'static Agent, size: u32, proxy: bool) -> Result<&'static Queue, Status> {
    let ring = map_ring(size)?;
    let doorbell = signal::create(0, AMD_SIGNAL_KIND_DOORBELL as i64, 0, true);
    let q: &'static Queue = Box::leak(Box::new(Queue {
        amd: AmdQueue {
            hsa: std::cell::UnsafeCell::new(hsa_queue_t {
                r#type: HSA_QUEUE_TYPE_MULTI,
                features: HSA_QUEUE_FEATURE_KERNEL_DISPATCH,
                base_address: ring as *mut c_void,
                doorbell_signal: doorbell.handle(),
                size,
                reserved1: 0,
                id: u64::MAX,
            }),
            caps: 0,
            reserved1: [0; 3],
            write_dispatch_id: AtomicU64::new(0),
            // The flat-address apertures the interpreter decodes (code objects before v3 read them here).
            group_segment_aperture_base_hi: (rocprof_isa::memory::SHARED_APERTURE >> 32) as u32,
            private_segment_aperture_base_hi: (rocprof_isa::memory::PRIVATE_APERTURE >> 32) as u32,
            max_cu_id: agent.gpu().map_or(0, |m| m.compute_units - 1),
            max_wave_id: agent.gpu().map_or(0, |m| m.waves_per_simd - 1),
            max_legacy_doorbell_dispatch_id_plus_1: 0,
            legacy_doorbell_lock: 0,
            reserved2: [0; 9],
            read_dispatch_id: AtomicU64::new(0),
            read_dispatch_id_field_base_byte_offset: 128,
            compute_tmpring_size: 0,
            scratch_resource_descriptor: [0; 4],
            scratch_backing_memory_location: 0,
            scratch_backing_memory_byte_size: 0,
            scratch_wave64_lane_byte_size: 0,
            queue_properties: AtomicU32::new(AMD_QUEUE_PROPERTIES_IS_PTR64),
            scratch_max_use_index: 0,
            queue_inactive_signal: hsa_signal_t { handle: 0 },
            reserved_tail: [0; 14],
            scratch_last_used_index: [[0; 2]; 128],
        },
        agent,
        ring,
        size,
        doorbell,
        callback: AtomicUsize::new(0),
        callback_data: AtomicUsize::new(0),
        state: AtomicU8::new(QueueState::Destroyed as u8),
        wake: Event::new(),
        worker: Mutex::new(None),
        cu_mask: Mutex::new(Vec::new()),
        priority: AtomicU32::new(HSA_AMD_QUEUE_PRIORITY_NORMAL),
        intercept: AtomicU64::new(0),
        internal: AtomicBool::new(false),
        owner_proxy: AtomicU64::new(0),
        scratch: Mutex::new(crate::scratch::QueueScratch::default()),
    }));
    let addr = q as *const Queue as usize;
    doorbell.queue_ptr.store(addr as u64, Ordering::Release);
    let tag = if proxy { crate::signal::DOORBELL_INTERCEPT } else { 0 };
    crate::signal::on_doorbell(doorbell_changed);
    // The doorbell belongs to the block for good: it is recycled with it.
    doorbell.doorbell.store(addr | tag, Ordering::Release);
    Ok(q)
}

/// (Re-)initialises an unpublished block as a new queue and publishes it: header type and id, indices
/// 0, properties, every ring header INVALID, callback, and (`processor`) a new packet-processor thread.
/// On failure (no thread) the block stays unpublished and `Destroyed`.
pub(crate) fn activate(
    q: &'static Queue,
    type_: u32,
    callback: Option<ErrorCallback>,
    data: *mut c_void,
    id: u64,
    processor: bool,
) -> Result<(), Status> {
    q.set_header(type_, id);
    q.amd.write_dispatch_id.store(0, Ordering::Relaxed);
    q.amd.read_dispatch_id.store(0, Ordering::Relaxed);
    q.amd.queue_properties.store(AMD_QUEUE_PROPERTIES_IS_PTR64, Ordering::Relaxed);
    for i in 0..q.size as usize {
        // SAFETY: slot `i` of the block's ring (mapped for good, 64-byte aligned slots); nobody else
        // uses the ring of an unpublished block, and producers/processors access headers atomically.
        unsafe { &*((q.ring + i * 64) as *const AtomicU16) }.store(HSA_PACKET_TYPE_INVALID as u16, Ordering::Relaxed);
    }
    q.doorbell.value.store(0, Ordering::Relaxed);
    q.callback.store(callback.map_or(0, |f| f as usize), Ordering::Relaxed);
    q.callback_data.store(data as usize, Ordering::Relaxed);
    q.cu_mask.lock().unwrap_or_else(|e| e.into_inner()).clear();
    q.priority.store(HSA_AMD_QUEUE_PRIORITY_NORMAL, Ordering::Relaxed);
    *q.scratch.lock().unwrap_or_else(|e| e.into_inner()) = crate::scratch::QueueScratch::default();
    q.state.store(QueueState::Active as u8, Ordering::Release);
    if processor {
        let handle = std::thread::Builder::new()
            .name(format!("hsa-sim-queue{id}"))
            .spawn(move || crate::packet::processor(q))
            .map_err(|_| {
                q.state.store(QueueState::Destroyed as u8, Ordering::Release);
                HSA_STATUS_ERROR_OUT_OF_RESOURCES
            })?;
        *q.worker.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle);
    }
    LIVE.write().unwrap_or_else(|e| e.into_inner()).push(q as *const Queue as usize);
    Ok(())
}

/// Takes a spare block from `list` whose agent and size match (`pick` checks further criteria).
pub(crate) fn take_spare(list: &Mutex<Vec<usize>>, pick: impl Fn(usize) -> bool) -> Option<usize> {
    let mut l = list.lock().unwrap_or_else(|e| e.into_inner());
    let at = l.iter().rposition(|a| pick(*a))?;
    Some(l.swap_remove(at))
}

/// Hands a stopped block's ring pages back to the system (they read as zeros until reused).
pub(crate) fn release_ring(q: &Queue) {
    // SAFETY: the ring is a private anonymous mapping of `ring_bytes` owned by the block; its
    // contents are no longer needed (the queue is destroyed and its processor joined), and the
    // mapping stays valid (zero-filled on the next access).
    unsafe { libc::madvise(q.ring as *mut c_void, q.ring_bytes(), libc::MADV_DONTNEED) };
}

/// Creates a plain queue (a spare block of the same agent and size when there is one).
fn create_plain(
    agent: &'static Agent,
    size: u32,
    type_: u32,
    callback: Option<ErrorCallback>,
    data: *mut c_void,
) -> Result<&'static Queue, Status> {
    let spare = take_spare(&SPARE, |a| {
        // SAFETY: spare lists hold addresses of queue blocks, never freed.
        let b = unsafe { &*(a as *const Queue) };
        std::ptr::eq(b.agent, agent) && b.size == size
    });
    let q = match spare {
        // SAFETY: as above.
        Some(a) => unsafe { &*(a as *const Queue) },
        None => new_block(agent, size, false)?,
    };
    if let Err(e) = activate(q, type_, callback, data, next_id(), true) {
        SPARE.lock().unwrap_or_else(|e| e.into_inner()).push(q as *const Queue as usize);
        return Err(e);
    }
    Ok(q)
}

/// Argument checks shared by `hsa_queue_create` and `hsa_amd_queue_intercept_create`, in ROCr's order
/// (`hsa_queue_create`, then `CpuAgent::QueueCreate` / `GpuAgent::QueueCreate`): a CPU agent has no packet
/// processor (`HSA_STATUS_ERROR`), a GPU queue holds 64 (`minAqlSize_`, below: `INVALID_ARGUMENT`) to 131072
/// (`maxAqlSize_`, above: `OUT_OF_RESOURCES`) packets.
pub(crate) fn check_create_args(
    agent: hsa_agent_t,
    size: u32,
    type_: u32,
    queue: *mut *mut hsa_queue_t,
) -> Result<(&'static Agent, u32), Status> {
    system()?;
    if queue.is_null() || size == 0 || !size.is_power_of_two() || type_ > HSA_QUEUE_TYPE_COOPERATIVE {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let a = agent::lookup(agent)?;
    if a.is_cpu() {
        return Err(HSA_STATUS_ERROR);
    }
    if size > MAX_QUEUE_PACKETS {
        return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    }
    if size < MIN_QUEUE_PACKETS {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    Ok((a, size))
}

pub(crate) unsafe extern "C" fn hsa_queue_create(
    agent: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: Option<ErrorCallback>,
    data: *mut c_void,
    _private_segment_size: u32,
    _group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    status(|| {
        let (a, size) = check_create_args(agent, size, type_, queue)?;
        if crate::faults::fail("hsa_queue_create") {
            return Err(crate::faults::REFUSED);
        }
        let q = create_plain(a, size, type_, callback, data)?;
        // SAFETY: non-null out-pointer (checked).
        unsafe { put(queue.cast(), q.hsa_ptr()) };
        Ok(())
    })
}

/// Unpublishes a queue: true for the one caller that removed it from the live list (so of two
/// racing `hsa_queue_destroy` calls only one destroys).
pub(crate) fn unregister(q: &'static Queue) -> bool {
    let mut live = LIVE.write().unwrap_or_else(|e| e.into_inner());
    let addr = q as *const Queue as usize;
    let before = live.len();
    live.retain(|a| *a != addr);
    live.len() != before
}

/// Stops a queue: marks it destroyed, joins its processor thread (kernels already launched complete
/// first) and frees its scratch. Returns false when the processor could not be joined because this
/// is its own thread (a queue destroyed from its error callback): the block must then never be reused.
pub(crate) fn stop(q: &'static Queue) -> bool {
    q.set_state(QueueState::Destroyed);
    let handle = q.worker.lock().unwrap_or_else(|e| e.into_inner()).take();
    let mut joined = true;
    if let Some(h) = handle {
        if h.thread().id() == std::thread::current().id() {
            joined = false;
        } else {
            let _ = h.join();
        }
    }
    crate::scratch::at_destroy(q);
    joined
}

/// Destroys an unpublished plain queue: stops it and, once nothing of the runtime uses it any
/// more, releases its ring and keeps the block for reuse. A hardware queue behind an intercept queue
/// is only stopped (it is recycled with its intercept queue).
fn destroy_plain(q: &'static Queue) {
    let joined = stop(q);
    if joined && !q.internal.load(Ordering::Acquire) && q.intercept.load(Ordering::Acquire) == 0 {
        release_ring(q);
        SPARE.lock().unwrap_or_else(|e| e.into_inner()).push(q as *const Queue as usize);
    }
}

/// Destroys a queue removed from the live list by this caller.
fn destroy_unregistered(q: &'static Queue) {
    if !crate::intercept::destroy_if_intercept(q) {
        destroy_plain(q);
    }
}

pub(crate) unsafe extern "C" fn hsa_queue_destroy(queue: *mut hsa_queue_t) -> hsa_status_t {
    status(|| {
        system()?;
        let q = lookup(queue)?;
        if !unregister(q) {
            return Err(HSA_STATUS_ERROR_INVALID_QUEUE);
        }
        destroy_unregistered(q);
        Ok(())
    })
}

/// Spare blocks of plain queues (a statistic for tests).
#[cfg(test)]
pub(crate) fn spare_count() -> usize {
    SPARE.lock().unwrap_or_else(|e| e.into_inner()).len()
}

pub(crate) unsafe extern "C" fn hsa_queue_inactivate(queue: *mut hsa_queue_t) -> hsa_status_t {
    status(|| {
        system()?;
        let q = lookup(queue)?;
        let target = crate::intercept::hardware_of(q);
        if target.state() == QueueState::Active {
            target.set_state(QueueState::Inactive);
        }
        if !std::ptr::eq(target, q) && q.state() == QueueState::Active {
            q.set_state(QueueState::Inactive);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_soft_queue_create(
    _region: hsa_region_t,
    _size: u32,
    _type_: hsa_queue_type32_t,
    _features: u32,
    _doorbell_signal: hsa_signal_t,
    _queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    crate::runtime::unsupported("hsa_soft_queue_create")
}

/// Called from a doorbell signal's store: wake the packet processor.
/// A doorbell signal changed (`signal::on_doorbell`): `tag` is the queue block's address, with
/// `DOORBELL_INTERCEPT` for an intercept queue's proxy.
fn doorbell_changed(tag: usize, value: i64) {
    if tag & crate::signal::DOORBELL_INTERCEPT != 0 {
        crate::intercept::doorbell_rung(tag & !crate::signal::DOORBELL_INTERCEPT, value);
    } else {
        doorbell_rung(tag);
    }
}

fn doorbell_rung(addr: usize) {
    // SAFETY: doorbell tags only ever hold addresses of queue blocks, which are never freed (a
    // destroyed queue's block at most gets a spurious wake-up).
    let q = unsafe { &*(addr as *const Queue) };
    q.wake.notify();
}

/// Destroys every queue (last `hsa_shut_down`): application queues first (an intercept queue with the
/// hardware queue behind it), then any hardware queue left.
pub(crate) fn shutdown_all() {
    for internal in [false, true] {
        let all: Vec<usize> = LIVE.read().unwrap_or_else(|e| e.into_inner()).clone();
        for a in all {
            // SAFETY: registered addresses are queue blocks, never freed.
            let q = unsafe { &*(a as *const Queue) };
            if q.internal.load(Ordering::Acquire) == internal && unregister(q) {
                destroy_unregistered(q);
            }
        }
    }
}

/// Waits (bounded) for the queue's wake event.
pub(crate) fn park(q: &Queue, seen: u32, timeout: Duration) {
    q.wake.wait(seen, timeout);
}

fn with_queue<R>(queue: *const hsa_queue_t, default: R, f: impl FnOnce(&'static Queue) -> R) -> R {
    match lookup(queue) {
        Ok(q) => f(q),
        Err(_) => default,
    }
}

macro_rules! load_index {
    ($($name:ident => $field:ident, $ord:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(queue: *const hsa_queue_t) -> u64 {
            with_queue(queue, 0, |q| q.amd.$field.load($ord))
        }
    )*};
}

load_index! {
    hsa_queue_load_read_index_scacquire => read_dispatch_id, Ordering::Acquire;
    hsa_queue_load_read_index_relaxed => read_dispatch_id, Ordering::Relaxed;
    hsa_queue_load_write_index_scacquire => write_dispatch_id, Ordering::Acquire;
    hsa_queue_load_write_index_relaxed => write_dispatch_id, Ordering::Relaxed;
}

macro_rules! store_index {
    ($($name:ident => $field:ident, $ord:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(queue: *const hsa_queue_t, value: u64) {
            with_queue(queue, (), |q| {
                q.amd.$field.store(value, $ord);
                q.wake.notify();
            })
        }
    )*};
}

store_index! {
    hsa_queue_store_write_index_relaxed => write_dispatch_id, Ordering::Relaxed;
    hsa_queue_store_write_index_screlease => write_dispatch_id, Ordering::Release;
    hsa_queue_store_read_index_relaxed => read_dispatch_id, Ordering::Relaxed;
    hsa_queue_store_read_index_screlease => read_dispatch_id, Ordering::Release;
}

macro_rules! cas_index {
    ($($name:ident => $ok:expr, $fail:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64 {
            with_queue(queue, 0, |q| match q.amd.write_dispatch_id.compare_exchange(expected, value, $ok, $fail) {
                Ok(v) | Err(v) => v,
            })
        }
    )*};
}

cas_index! {
    hsa_queue_cas_write_index_scacq_screl => Ordering::AcqRel, Ordering::Acquire;
    hsa_queue_cas_write_index_scacquire => Ordering::Acquire, Ordering::Acquire;
    hsa_queue_cas_write_index_relaxed => Ordering::Relaxed, Ordering::Relaxed;
    hsa_queue_cas_write_index_screlease => Ordering::Release, Ordering::Relaxed;
}

macro_rules! add_index {
    ($($name:ident => $ord:expr;)*) => {$(
        pub(crate) unsafe extern "C" fn $name(queue: *const hsa_queue_t, value: u64) -> u64 {
            with_queue(queue, 0, |q| q.amd.write_dispatch_id.fetch_add(value, $ord))
        }
    )*};
}

add_index! {
    hsa_queue_add_write_index_scacq_screl => Ordering::AcqRel;
    hsa_queue_add_write_index_scacquire => Ordering::Acquire;
    hsa_queue_add_write_index_relaxed => Ordering::Relaxed;
    hsa_queue_add_write_index_screlease => Ordering::Release;
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_cu_set_mask(
    queue: *const hsa_queue_t,
    num_cu_mask_count: u32,
    cu_mask: *const u32,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = crate::intercept::hardware_of(lookup(queue)?);
        if num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0 || cu_mask.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let words = (num_cu_mask_count / 32) as usize;
        // SAFETY: the caller passes `num_cu_mask_count` bits = `words` dwords.
        let v = unsafe { std::slice::from_raw_parts(cu_mask, words) }.to_vec();
        *q.cu_mask.lock().unwrap_or_else(|e| e.into_inner()) = v;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_cu_get_mask(
    queue: *const hsa_queue_t,
    num_cu_mask_count: u32,
    cu_mask: *mut u32,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = crate::intercept::hardware_of(lookup(queue)?);
        if num_cu_mask_count == 0 || cu_mask.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let cus = q.agent.gpu().map_or(0, |m| m.compute_units);
        let set = q.cu_mask.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let words = num_cu_mask_count.div_ceil(32) as usize;
        for w in 0..words {
            let default = (0..32).filter(|b| w as u32 * 32 + b < cus).fold(0u32, |m, b| m | (1 << b));
            let v = set.get(w).copied().unwrap_or(if set.is_empty() { default } else { 0 });
            // SAFETY: the caller passes room for `num_cu_mask_count` bits.
            unsafe { cu_mask.add(w).write_unaligned(v) };
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_set_priority(
    queue: *mut hsa_queue_t,
    priority: hsa_amd_queue_priority_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = crate::intercept::hardware_of(lookup(queue)?);
        if priority > HSA_AMD_QUEUE_PRIORITY_HIGH {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        q.priority.store(priority, Ordering::Release);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_queue_get_info(
    queue: *mut hsa_queue_t,
    attribute: hsa_queue_info_attribute_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = lookup(queue)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_AMD_QUEUE_INFO_AGENT => put(value, q.agent.handle()),
                // ROCr answers with the hardware doorbell's address (`hardware_doorbell_ptr`), and an intercept
                // queue with that of the queue it wraps; the simulator's doorbell word is the signal's value.
                HSA_AMD_QUEUE_INFO_DOORBELL_ID => {
                    put(value, crate::intercept::hardware_of(q).doorbell.value.as_ptr() as u64)
                }
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::{
        hsa_amd_queue_get_info, hsa_queue_create, hsa_queue_destroy, hsa_queue_load_read_index_scacquire,
        hsa_queue_load_write_index_scacquire,
    };
    use crate::intercept::hsa_amd_queue_intercept_create;
    use crate::signal::hsa_signal_wait_scacquire;
    use crate::testing::*;
    use rocprof_hsa_sys::*;

    const CHILD: &str = rocprof_launch::names::TEST_QUEUE_FAULT_CHILD;

    /// In a child process: a packet of reserved type 7 on a queue created without an error callback.
    fn bad_packet_without_callback() {
        let gpu = init_gpu();
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer; no callback, as an application may pass.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
                HSA_STATUS_SUCCESS
            );
        }
        let mut pkt = barrier_and(0, 0, true);
        pkt[0] = 7;
        submit(q, &pkt);
        let hwq = crate::queue::lookup(q).unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while hwq.state() != crate::queue::QueueState::Error && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        println!("child: queue state {:?}", hwq.state());
    }

    fn run_child(opt_out: bool) -> std::process::Output {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "--exact",
            "queue::tests::queue_error_without_callback_aborts_as_rocr",
            "--nocapture",
            "--test-threads=1",
        ]);
        cmd.env(CHILD, "1");
        if opt_out {
            cmd.env("HSA_ENABLE_QUEUE_FAULT_MESSAGE", "0");
        } else {
            cmd.env_remove("HSA_ENABLE_QUEUE_FAULT_MESSAGE");
        }
        cmd.output().unwrap()
    }

    #[test]
    fn queue_create_sizes_and_cpu_agent_get_rocr_codes() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let cpu = crate::runtime::system().unwrap().agents.iter().find(|a| a.is_cpu()).unwrap().handle();
        let create = |agent, size| {
            let mut q: *mut hsa_queue_t = std::ptr::null_mut();
            // SAFETY: valid out-pointer.
            let st = unsafe {
                hsa_queue_create(
                    agent,
                    size,
                    HSA_QUEUE_TYPE_MULTI,
                    None,
                    std::ptr::null_mut(),
                    u32::MAX,
                    u32::MAX,
                    &mut q,
                )
            };
            if st == HSA_STATUS_SUCCESS {
                // SAFETY: the queue was just created.
                unsafe {
                    assert_eq!((*q).size, size);
                    assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
                }
            }
            st
        };
        assert_eq!(create(gpu, 32), HSA_STATUS_ERROR_INVALID_ARGUMENT, "below minAqlSize_");
        assert_eq!(create(gpu, 64), HSA_STATUS_SUCCESS);
        assert_eq!(create(gpu, 0x20000), HSA_STATUS_SUCCESS);
        assert_eq!(create(gpu, 0x40000), HSA_STATUS_ERROR_OUT_OF_RESOURCES, "above maxAqlSize_");
        assert_eq!(create(cpu, 64), HSA_STATUS_ERROR, "CpuAgent::QueueCreate");
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        let status = unsafe { hsa_queue_create(gpu, 64, 3, None, std::ptr::null_mut(), 0, 0, &mut q) };
        assert_eq!(status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
        shut_down();
    }

    #[test]
    fn doorbell_id_of_an_intercept_queue_is_that_of_the_hardware_queue() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let doorbell_id = |q: *mut hsa_queue_t| {
            let mut id = 0u64;
            // SAFETY: live queue, valid out-pointer of the attribute's type.
            let status =
                unsafe { hsa_amd_queue_get_info(q, HSA_AMD_QUEUE_INFO_DOORBELL_ID, (&mut id as *mut u64).cast()) };
            assert_eq!(status, HSA_STATUS_SUCCESS);
            id
        };
        let (mut proxy, mut plain): (*mut hsa_queue_t, *mut hsa_queue_t) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: valid arguments and out-pointers.
        unsafe {
            assert_eq!(
                hsa_amd_queue_intercept_create(
                    gpu,
                    64,
                    HSA_QUEUE_TYPE_MULTI,
                    None,
                    std::ptr::null_mut(),
                    0,
                    0,
                    &mut proxy
                ),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut plain),
                HSA_STATUS_SUCCESS
            );
        }
        let hw = crate::intercept::hardware_of(crate::queue::lookup(proxy).unwrap());
        assert!(!std::ptr::eq(hw.hsa_ptr(), proxy));
        assert_eq!(
            doorbell_id(proxy),
            doorbell_id(hw.hsa_ptr()),
            "an intercept queue reports the doorbell of the queue it wraps"
        );
        assert_ne!(doorbell_id(proxy), doorbell_id(plain));
        // SAFETY: our queues.
        unsafe {
            assert_eq!(hsa_queue_destroy(proxy), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
        }
        shut_down();
    }

    #[test]
    fn queue_error_without_callback_aborts_as_rocr() {
        if std::env::var_os(CHILD).is_some() {
            bad_packet_without_callback();
            return;
        }
        let out = run_child(false);
        let stderr = String::from_utf8_lossy(&out.stderr);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(libc::SIGABRT), "status {:?}, stderr:\n{stderr}", out.status);
        assert!(stderr.contains("inactivated due to async error:\n\t"), "stderr:\n{stderr}");
        assert!(stderr.contains("HSA_STATUS_ERROR_INVALID_PACKET_FORMAT"), "stderr:\n{stderr}");
        // HSA_ENABLE_QUEUE_FAULT_MESSAGE=0 turns the abort off: the queue is just stopped.
        let out = run_child(true);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "status {:?}, stderr:\n{}", out.status, String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("child: queue state Error"), "stdout:\n{stdout}");
    }

    /// Issue 14: a destroyed queue's block, ring and doorbell are reused by the next queue of the same
    /// agent and size, re-initialised (new id, indices 0, every header INVALID, a new processor that
    /// runs its packets); a create/destroy loop takes no new block.
    #[test]
    fn destroyed_queues_are_recycled_with_a_new_id_and_a_fresh_ring() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let create = || {
            let mut q: *mut hsa_queue_t = std::ptr::null_mut();
            // SAFETY: valid arguments and out-pointer.
            let st =
                unsafe { hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), 0, 0, &mut q) };
            assert_eq!(st, HSA_STATUS_SUCCESS);
            q
        };
        let run_one = |q: *mut hsa_queue_t| {
            let done = signal(1);
            submit(q, &barrier_and(0, done.handle, true));
            // SAFETY: live signal.
            let v = unsafe {
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20_000_000_000, HSA_WAIT_STATE_BLOCKED)
            };
            assert_eq!(v, 0);
        };
        let q1 = create();
        for _ in 0..3 {
            run_one(q1);
        }
        // SAFETY: live queue.
        let (id1, doorbell1, ring1) = unsafe { ((*q1).id, (*q1).doorbell_signal.handle, (*q1).base_address) };
        // SAFETY: our queue.
        unsafe {
            assert_eq!(hsa_queue_destroy(q1), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_queue_destroy(q1), HSA_STATUS_ERROR_INVALID_QUEUE);
        }
        let q2 = create();
        assert_eq!(q2, q1, "the destroyed queue's block is reused");
        // SAFETY: live queue (the same block).
        unsafe {
            assert!((*q2).id > id1, "a new id");
            assert_eq!(((*q2).doorbell_signal.handle, (*q2).base_address, (*q2).size), (doorbell1, ring1, 128));
            assert_eq!(hsa_queue_load_read_index_scacquire(q2), 0);
            assert_eq!(hsa_queue_load_write_index_scacquire(q2), 0);
            for i in 0..128 {
                let header = (*q2).base_address.cast::<u16>().add(i * 32).read_volatile();
                assert_eq!(u32::from(header & 0xff), HSA_PACKET_TYPE_INVALID, "slot {i}");
            }
        }
        run_one(q2);
        // SAFETY: our queue.
        unsafe { assert_eq!(hsa_queue_destroy(q2), HSA_STATUS_SUCCESS) };
        let spare = super::spare_count();
        for _ in 0..200 {
            let q = create();
            assert_eq!(q, q1);
            // SAFETY: our queue.
            unsafe { assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS) };
        }
        assert_eq!(super::spare_count(), spare, "200 cycles took no new block");
        shut_down();
    }
}
