//! The queue API: creating (`activate` starts a hardware queue's packet processor, `packet.rs`),
//! destroying and recycling plain queues (`queue.rs` holds the state; see its module docs), the index
//! accessors and the AMD queue extensions. Intercept queues (`intercept.rs`) are created there, and
//! reached here through `queue::hardware_of` / `queue::destroy_if_intercept`.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Mutex;

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::ffi::{put, status, Status};
use crate::queue::{
    destroy_if_intercept, hardware_of, lookup, new_block, next_id, release_ring, take_spare, unregister, ErrorCallback,
    Queue, QueueState,
};
use crate::queue_scratch::QueueScratch;
use crate::runtime::system;
use crate::topology::{MAX_QUEUE_PACKETS, MIN_QUEUE_PACKETS};

/// Destroyed plain queues whose processor thread was joined, ready for reuse (block addresses).
static SPARE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

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
    *q.scratch.lock().unwrap_or_else(|e| e.into_inner()) = QueueScratch::default();
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
    crate::queue::publish(q);
    Ok(())
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
    if !destroy_if_intercept(q) {
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
        let target = hardware_of(q);
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

/// Destroys every queue (last `hsa_shut_down`): application queues first (an intercept queue with the
/// hardware queue behind it), then any hardware queue left.
pub(crate) fn shutdown_all() {
    for internal in [false, true] {
        let all: Vec<usize> = crate::queue::live();
        for a in all {
            // SAFETY: registered addresses are queue blocks, never freed.
            let q = unsafe { &*(a as *const Queue) };
            if q.internal.load(Ordering::Acquire) == internal && unregister(q) {
                destroy_unregistered(q);
            }
        }
    }
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
        let q = hardware_of(lookup(queue)?);
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
        let q = hardware_of(lookup(queue)?);
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
        let q = hardware_of(lookup(queue)?);
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
                HSA_AMD_QUEUE_INFO_DOORBELL_ID => put(value, hardware_of(q).doorbell.value.as_ptr() as u64),
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
            "queue_api::tests::queue_error_without_callback_aborts_as_rocr",
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
        let hw = crate::queue::hardware_of(crate::queue::lookup(proxy).unwrap());
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
