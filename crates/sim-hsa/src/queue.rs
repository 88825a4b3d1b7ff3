//! User-mode AQL queues, their state: the block, the live list, lookups, making a block, and what
//! intercept queues add (`on_intercept`). Creating, activating, destroying and the queue API are
//! `queue_api.rs`, above the packet processor it starts.
//!
//! `hsa_queue_t*` is the address of a 64-byte-aligned, 2304-byte block with the newest
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
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::agent::Agent;
use crate::ffi::Status;
use crate::futex::Event;
use crate::queue_scratch::QueueScratch;
use crate::signal::{self, Signal};

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
    pub(crate) callback: AtomicUsize,
    pub(crate) callback_data: AtomicUsize,
    pub(crate) state: AtomicU8,
    pub(crate) wake: Event,
    pub(crate) worker: Mutex<Option<JoinHandle<()>>>,
    pub(crate) cu_mask: Mutex<Vec<u32>>,
    pub(crate) priority: AtomicU32,
    /// Set for intercept queues (no packet-processor thread; see `intercept.rs`).
    pub(crate) intercept: AtomicU64,
    /// True for queues the runtime created for itself (e.g. behind an intercept queue).
    pub(crate) internal: AtomicBool,
    /// For a hardware queue behind an intercept queue: the proxy's address, reported as the error source.
    pub(crate) owner_proxy: AtomicU64,
    /// The queue's scratch memory (`scratch.rs`).
    pub(crate) scratch: Mutex<QueueScratch>,
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
    pub(crate) fn set_header(&self, type_: u32, id: u64) {
        // SAFETY: as in `id_word`; `type` is a 4-byte aligned u32 of the header.
        unsafe { AtomicU32::from_ptr(std::ptr::addr_of_mut!((*self.amd.hsa.get()).r#type)) }
            .store(type_, Ordering::Relaxed);
        self.id_word().store(id, Ordering::Relaxed);
    }

    /// Ring size in bytes.
    pub(crate) fn ring_bytes(&self) -> usize {
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
        scratch: Mutex::new(QueueScratch::default()),
    }));
    let addr = q as *const Queue as usize;
    doorbell.queue_ptr.store(addr as u64, Ordering::Release);
    let tag = if proxy { crate::signal::DOORBELL_INTERCEPT } else { 0 };
    crate::signal::on_doorbell(doorbell_changed);
    // The doorbell belongs to the block for good: it is recycled with it.
    doorbell.doorbell.store(addr | tag, Ordering::Release);
    Ok(q)
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

/// Publishes an activated block (`lookup` finds it).
pub(crate) fn publish(q: &'static Queue) {
    LIVE.write().unwrap_or_else(|e| e.into_inner()).push(q as *const Queue as usize);
}

/// Every published queue (block addresses), in creation order.
pub(crate) fn live() -> Vec<usize> {
    LIVE.read().unwrap_or_else(|e| e.into_inner()).clone()
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

/// What intercept queues (`intercept.rs`) add to the queue code: the hardware queue behind a queue,
/// destroying an intercept queue, and a store to a proxy's doorbell. Set by the intercept code before
/// it makes its first block, so while it is unset no queue is an intercept queue.
pub(crate) struct InterceptHooks {
    /// The hardware queue behind `q` (or `q` itself).
    pub(crate) hardware_of: fn(&'static Queue) -> &'static Queue,
    /// Destroys `q` (already unpublished) when it is an intercept queue; false when it is not one.
    pub(crate) destroy_if_intercept: fn(&'static Queue) -> bool,
    /// A store to a proxy queue's doorbell (the proxy block's address, the value stored).
    pub(crate) doorbell_rung: fn(usize, i64),
}

static INTERCEPT: OnceLock<InterceptHooks> = OnceLock::new();

/// Sets what intercept queues add (once per process).
pub(crate) fn on_intercept(hooks: InterceptHooks) {
    let _ = INTERCEPT.set(hooks);
}

/// The hardware queue behind `q` (or `q` itself).
pub(crate) fn hardware_of(q: &'static Queue) -> &'static Queue {
    INTERCEPT.get().map_or(q, |h| (h.hardware_of)(q))
}

/// Destroys `q` (already unpublished) when it is an intercept queue; false when it is not one.
pub(crate) fn destroy_if_intercept(q: &'static Queue) -> bool {
    INTERCEPT.get().is_some_and(|h| (h.destroy_if_intercept)(q))
}

/// A doorbell signal changed (`signal::on_doorbell`): `tag` is the queue block's address, with
/// `DOORBELL_INTERCEPT` for an intercept queue's proxy.
fn doorbell_changed(tag: usize, value: i64) {
    if tag & crate::signal::DOORBELL_INTERCEPT != 0 {
        if let Some(h) = INTERCEPT.get() {
            (h.doorbell_rung)(tag & !crate::signal::DOORBELL_INTERCEPT, value);
        }
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

/// Waits (bounded) for the queue's wake event.
pub(crate) fn park(q: &Queue, seen: u32, timeout: Duration) {
    q.wake.wait(seen, timeout);
}
