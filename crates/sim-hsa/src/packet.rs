//! The packet processor (one thread per hardware queue) and the execution model.
//!
//! Loop: take the packet at the read index once its header is no longer INVALID, record it in the dispatch
//! log exactly as received, free the slot (header := INVALID|barrier, read index += 1), then launch it.
//!
//! Kernels run concurrently, as on hardware: a kernel-dispatch packet whose barrier bit is clear is
//! launched while the kernels before it still run (up to [`MAX_CONCURRENT_KERNELS`] per queue); a packet
//! with the barrier bit set is launched only after every earlier packet completed. Each running kernel
//! completes at its own modelled end: timestamps (when the queue has profiling enabled), release fence,
//! then its completion-signal decrement, in end-time order. Every other packet (barrier-AND/OR, PM4 IBs,
//! barrier-value) waits for the running kernels and executes to completion before the next packet is
//! taken: conservative for barriers without the barrier bit, and what the flush events of aqlprofile's PM4
//! streams do on hardware. Concurrent kernels do not slow each other down (no shared-CU contention is
//! modelled). A malformed packet stops the queue and reports the HSA error through the queue's callback.
//!
//! Kernel dispatches are run by the device model when they are launched (`rocprof_device::run`: executed
//! on `rocprof-isa`'s interpreter over this runtime's memory, `exec.rs`; `ROCPROF_RS_SIM_EXEC=off` skips it), and take the duration the device model (`rocprof-device`: wave placement and
//! timing over what the waves executed, or over a static walk of the kernel's code without execution)
//! gives them, times `ROCPROF_RS_SIM_TIME_SCALE`; the model of each kernel's code is built at its first
//! dispatch and kept. A dispatch whose execution took longer than its modelled duration completes later,
//! with the model's timestamps. The device model is called in two places only: [`kernel_dispatch`] (model
//! and duration at launch) and `Running::complete` (running thread traces and the counter model see the
//! dispatch when it completes).

use std::sync::atomic::{fence, AtomicU16, Ordering};
use std::time::{Duration, Instant};

use rocprof_device::wave::{DispatchInput, DispatchModel, KernelProfile};
use rocprof_hsa_sys::*;

use crate::aql::{u16_at, u32_at, u64_at};
use crate::ffi::Status;
use crate::queue::{park, Queue, QueueState};
use crate::signal::{self, satisfied, Signal, ANY_SIGNAL};
use crate::{clock, code_object, dispatch_log, pm4, runtime};
use rocprof_device::targets::GpuModel;

/// Most kernels one queue runs at once.
pub(crate) const MAX_CONCURRENT_KERNELS: usize = 8;

/// A launched kernel that has not completed yet.
pub(crate) struct Running {
    /// GPU ticks at launch and at the modelled end.
    start: u64,
    end: u64,
    /// Host instant of the modelled end (for sleeping until it).
    end_at: Instant,
    completion: Option<&'static Signal>,
    release: bool,
    model: DispatchModel,
    /// The kernel's code (address, bytes), for running thread traces.
    code_addr: u64,
    code: &'static [u8],
    /// The dispatch got use-once scratch, handed back when it ends (`scratch.rs`).
    scratch_once: bool,
    /// Ring index of the packet (PC sampling's correlation id).
    index: u64,
}

impl Running {
    /// Completes the kernel at its end: thread trace and counters, release fence, timestamps,
    /// completion signal.
    fn complete(self, q: &'static Queue) {
        sleep_until(self.end_at);
        // Never signal before the end timestamp is in the past.
        let offset = q.agent.tick_offset;
        while clock::gpu_ticks(offset) < self.end {
            std::hint::spin_loop();
        }
        crate::pcs::on_dispatch(
            &self.model,
            &crate::pcs::Ran {
                agent: q.agent.handle().handle,
                dispatch: rocprof_device::pc_sampling::Ran {
                    start: self.start,
                    end: self.end,
                    entry: self.code_addr,
                    code: self.code,
                    index: self.index,
                    queue_size: u64::from(q.size),
                    doorbell: q.doorbell.value.as_ptr() as u64,
                },
                ticks_of_ns: &|ns| clock::ns_to_ticks(ns, 0),
                ns_of_ticks: &|t| clock::ticks_to_ns(t, offset),
            },
        );
        // Performance counters count the dispatch if a PM4 stream started them on this agent; running
        // thread traces record its waves.
        let consumers = rocprof_device::run::Consumers { pm4: q.agent.pm4.get(), sampling: None };
        consumers.completed(self.model, self.code_addr, self.code);
        if self.scratch_once {
            crate::scratch::after_dispatch(q);
        }
        if self.release {
            fence(Ordering::Release);
        }
        if let Some(s) = self.completion {
            if q.profiling_enabled() {
                s.start_ts.store(self.start, Ordering::Release);
                s.end_ts.store(self.end, Ordering::Release);
            }
            s.subtract(1);
        }
    }
}

/// Completes the running kernels whose end has passed (all of them with `all`), in end order.
fn complete_running(q: &'static Queue, running: &mut Vec<Running>, all: bool) {
    running.sort_by_key(|k| std::cmp::Reverse(k.end));
    let now = Instant::now();
    while let Some(k) = running.last() {
        if !all && k.end_at > now {
            break;
        }
        let k = running.pop().expect("checked above");
        k.complete(q);
    }
}

/// How long the processor may park: until the earliest running kernel ends, at most `cap`.
fn park_for(running: &[Running], cap: Duration) -> Duration {
    let now = Instant::now();
    running.iter().map(|k| k.end_at.saturating_duration_since(now)).min().map_or(cap, |d| d.min(cap))
}

/// Packet-processor thread body.
pub(crate) fn processor(q: &'static Queue) {
    let mut running: Vec<Running> = Vec::new();
    loop {
        complete_running(q, &mut running, false);
        let strict = runtime::knobs().strict_doorbell;
        let seen = q.wake.generation();
        match q.state() {
            QueueState::Destroyed => {
                // Kernels already launched finish (their signals are decremented), as before the queue
                // was destroyed; nothing further is taken.
                complete_running(q, &mut running, true);
                return;
            }
            QueueState::Inactive | QueueState::Error => {
                park(q, seen, park_for(&running, Duration::from_millis(50)));
                continue;
            }
            QueueState::Active => {}
        }
        let r = q.amd.read_dispatch_id.load(Ordering::Acquire);
        let w = q.amd.write_dispatch_id.load(Ordering::Acquire);
        let rung = q.doorbell.load();
        if r >= w || (strict && (rung < 0 || (rung as u64) < r)) {
            park(q, seen, park_for(&running, Duration::from_millis(20)));
            continue;
        }
        let slot = q.slot(r);
        // SAFETY: `slot` is a 64-byte aligned packet slot inside the queue's ring, which lives as long as
        // the queue; the header is accessed atomically because producers publish it with a release store.
        let header = unsafe { &*(slot as *const AtomicU16) }.load(Ordering::Acquire);
        if u32::from(header & 0xff) == HSA_PACKET_TYPE_INVALID {
            park(q, seen, park_for(&running, Duration::from_millis(1)));
            continue;
        }
        let kernel = u32::from(header & 0xff) == HSA_PACKET_TYPE_KERNEL_DISPATCH;
        let barrier = header & (1 << HSA_PACKET_HEADER_BARRIER) != 0;
        if !kernel || barrier {
            complete_running(q, &mut running, true);
        } else if running.len() >= MAX_CONCURRENT_KERNELS {
            running.sort_by_key(|k| std::cmp::Reverse(k.end));
            if let Some(first) = running.pop() {
                first.complete(q);
            }
        }
        let mut pkt = [0u8; 64];
        // SAFETY: reads the 64-byte slot after the acquire load of its header.
        unsafe { std::ptr::copy_nonoverlapping(slot, pkt.as_mut_ptr(), 64) };
        pkt[0..2].copy_from_slice(&header.to_le_bytes());
        dispatch_log::record(q.id(), r, &pkt);
        // Free the slot: invalidate, then advance the read index (legal before completion).
        // SAFETY: as above; only this thread consumes the slot.
        unsafe { &*(slot as *const AtomicU16) }
            .store((HSA_PACKET_TYPE_INVALID | (1 << HSA_PACKET_HEADER_BARRIER)) as u16, Ordering::Release);
        q.amd.read_dispatch_id.store(r + 1, Ordering::Release);
        let result = if kernel { launch(q, r, &pkt).map(|k| running.push(k)) } else { execute(q, r, &pkt) };
        if let Err(code) = result {
            q.fail(code);
        }
    }
}

/// Checks a packet's header fences and reserved bits; returns (acquire, release) scopes.
fn fences(header: u16) -> Result<(u16, u16), Status> {
    let acquire = (header >> HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) & 3;
    let release = (header >> HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE) & 3;
    if acquire == 3 || release == 3 || header >> 13 != 0 {
        return Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    }
    Ok((acquire, release))
}

/// The packet's completion signal (`None` for handle 0).
fn completion_of(pkt: &[u8; 64]) -> Result<Option<&'static Signal>, Status> {
    let completion = hsa_signal_t { handle: u64_at(pkt, 56) };
    if completion.handle == 0 {
        return Ok(None);
    }
    signal::lookup(completion).map(Some).map_err(|_| HSA_STATUS_ERROR_INVALID_SIGNAL)
}

/// Launches a kernel-dispatch packet: it starts now and ends after its modelled duration.
fn launch(q: &'static Queue, index: u64, pkt: &[u8; 64]) -> Result<Running, Status> {
    let (acquire, release) = fences(u16_at(pkt, 0))?;
    let completion = completion_of(pkt)?;
    if acquire != 0 {
        fence(Ordering::Acquire);
    }
    let start = clock::gpu_ticks(q.agent.tick_offset);
    let launched = Instant::now();
    let (ns, model, code_addr, code, scratch_once) = kernel_dispatch(q, index, pkt)?;
    // A kernel's end timestamp is its start plus its modelled duration, not the time the packet
    // processor woke up after waiting for it: on a loaded host that wake-up comes late by a
    // scheduling delay no GPU has, which would add host noise to every kernel time.
    let end = start + clock::ns_to_ticks(ns + 5, 0).max(1);
    let end_at = launched + Duration::from_nanos(ns);
    Ok(Running { start, end, end_at, completion, release: release != 0, model, code_addr, code, scratch_once, index })
}

/// Executes one packet other than a kernel dispatch to completion.
pub(crate) fn execute(q: &'static Queue, index: u64, pkt: &[u8; 64]) -> Result<(), Status> {
    let header = u16_at(pkt, 0);
    let ty = u32::from(header & 0xff);
    let (acquire, release) = fences(header)?;
    let completion = completion_of(pkt)?;
    if acquire != 0 {
        fence(Ordering::Acquire);
    }
    let offset = q.agent.tick_offset;
    let start = clock::gpu_ticks(offset);
    let finished = match ty {
        HSA_PACKET_TYPE_BARRIER_AND => barrier(q, pkt, true)?,
        HSA_PACKET_TYPE_BARRIER_OR => barrier(q, pkt, false)?,
        HSA_PACKET_TYPE_VENDOR_SPECIFIC => vendor(q, index, pkt)?,
        _ => return Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT),
    };
    if !finished {
        // The queue was destroyed while the packet waited for its dependencies. Hardware abandons such a
        // packet: no timestamps, and its completion signal is never decremented (a waiter must not be told
        // that a barrier whose dependencies never resolved has completed). Or a simulator-only fault
        // dropped the completion of a counter read (`ROCPROF_RS_SIM_FAIL=pmc_read`).
        return Ok(());
    }
    if release != 0 {
        fence(Ordering::Release);
    }
    let end = clock::gpu_ticks(offset).max(start + 1);
    if let Some(s) = completion {
        if q.profiling_enabled() {
            s.start_ts.store(start, Ordering::Release);
            s.end_ts.store(end, Ordering::Release);
        }
        s.subtract(1);
    }
    Ok(())
}

/// What the device model needs about a kernel dispatch packet already checked by [`kernel_dispatch`].
fn dispatch_input<'a>(
    m: &'static GpuModel,
    pkt: &[u8; 64],
    k: &code_object::KernelInfo,
    profile: &'a KernelProfile,
) -> DispatchInput<'a> {
    DispatchInput {
        target: m,
        grid: [u32_at(pkt, 12), u32_at(pkt, 16), u32_at(pkt, 20)],
        workgroup: [u32::from(u16_at(pkt, 4)), u32::from(u16_at(pkt, 6)), u32::from(u16_at(pkt, 8))],
        wavefront_size: if k.wave32 { 32 } else { 64 },
        lds_bytes: u32_at(pkt, 28),
        scratch_bytes: u32_at(pkt, 24),
        kernel: profile,
    }
}

/// The kernel's machine code (from its entry, `code_bytes` long).
fn kernel_code(k: &code_object::KernelInfo) -> &'static [u8] {
    if k.code_bytes == 0 {
        return &[];
    }
    // SAFETY: `code_addr .. code_addr + code_bytes` lies inside the kernel's loaded code-object block
    // (checked when it was loaded), which stays mapped: a destroyed executable's block is recycled
    // (`code_object::Segment`), so a kernel still running when the application destroys its executable
    // (the application's error, as on ROCr) reads stale code, never unmapped memory.
    unsafe { std::slice::from_raw_parts(k.code_addr as *const u8, k.code_bytes as usize) }
}

/// The device model of a kernel dispatch packet already checked by [`kernel_dispatch`]
/// (`rocprof_device::run::run_dispatch`: executed on the interpreter over this queue's memory, or the
/// static walk of the kernel's code when execution is off or the dispatch fell back). Running thread
/// traces, else PC sampling, choose the waves recorded instruction by instruction.
pub(crate) fn dispatch_model(
    q: &'static Queue,
    m: &'static GpuModel,
    pkt: &[u8; 64],
    kernel_object: u64,
    k: &code_object::KernelInfo,
) -> DispatchModel {
    let profile = rocprof_device::run::kernel_profile(m, kernel_object, kernel_code(k));
    let input = dispatch_input(m, pkt, k, &profile);
    let pick: rocprof_device::run::PickWaves<'_> = &rocprof_device::pc_sampling::sampled_waves;
    let consumers = rocprof_device::run::Consumers {
        pm4: q.agent.pm4.get(),
        sampling: crate::pcs::detail_request(q.agent.handle().handle).map(|r| (r, pick)),
    };
    let mut run = crate::exec::Run { q, pkt, kernel_object, target_name: m.name };
    let out = rocprof_device::run::run_dispatch(&input, &consumers, &mut run);
    if let Some(report) = out.report {
        crate::diag!("{report}");
    }
    out.model
}

/// Checks a kernel dispatch packet and models it: returns its duration in ns (the device model's,
/// times `ROCPROF_RS_SIM_TIME_SCALE`, the kernel's `ROCPROF_RS_SIM_KERNEL_SCALE` factor and the
/// dispatch's `ROCPROF_RS_SIM_JITTER` noise, a function of queue and packet index), the model, and
/// the kernel's code (address and bytes), and whether it got use-once scratch.
type Modelled = (u64, DispatchModel, u64, &'static [u8], bool);

fn kernel_dispatch(q: &'static Queue, index: u64, pkt: &[u8; 64]) -> Result<Modelled, Status> {
    let bad = Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    let dims = u16_at(pkt, 2) & 3;
    if !(1..=3).contains(&dims) || u16_at(pkt, 2) >> 2 != 0 {
        return bad;
    }
    let wg = [u32::from(u16_at(pkt, 4)), u32::from(u16_at(pkt, 6)), u32::from(u16_at(pkt, 8))];
    let grid = [u32_at(pkt, 12), u32_at(pkt, 16), u32_at(pkt, 20)];
    for i in 0..3 {
        if wg[i] == 0 || grid[i] == 0 || (i >= dims as usize && (wg[i] != 1 || grid[i] != 1)) {
            return bad;
        }
    }
    if wg.iter().product::<u32>() > 1024 {
        return bad;
    }
    let private = u32_at(pkt, 24);
    let group = u32_at(pkt, 28);
    let kernel_object = u64_at(pkt, 32);
    let kernarg = u64_at(pkt, 40);
    let Some(k) = code_object::kernel_info(kernel_object) else {
        crate::diag!("queue {}: kernel_object {kernel_object:#x} is not a loaded kernel descriptor", q.id());
        return bad;
    };
    if (k.kernarg_size > 0 && kernarg == 0) || group < k.group_segment_size || private < k.private_segment_size {
        return bad;
    }
    let m = q.agent.gpu().ok_or(HSA_STATUS_ERROR_INVALID_AGENT)?;
    if group > m.lds_bytes {
        // No hardware can give a workgroup more LDS than the agent has; running it anyway would let a tool
        // that inflates group_segment_size pass here and fail on a GPU.
        crate::diag!("queue {}: group_segment_size {group} exceeds the agent's {} bytes of LDS", q.id(), m.lds_bytes);
        return bad;
    }
    // A packet asking for more scratch than the queue holds: the runtime gives the queue scratch first.
    let scratch_once = crate::scratch::before_dispatch(q, index, pkt, k.wave32);
    // Execute now (the program's buffers get the kernel's results) and model what ran.
    let model = dispatch_model(q, m, pkt, kernel_object, &k);
    let scale = runtime::knobs().time_scale;
    let timing = runtime::timing_knobs();
    let ns = (model.duration_ns as f64 * scale * k.time_factor * timing.noise(q.id(), index)).round() as u64;
    Ok((ns, model, k.code_addr, kernel_code(&k), scratch_once))
}

/// Sleeps until `until` (spinning for the last part so short kernels still take their modelled time).
fn sleep_until(until: Instant) {
    let d = until.saturating_duration_since(Instant::now());
    if d > Duration::from_micros(200) {
        std::thread::sleep(d - Duration::from_micros(100));
    }
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// Waits until `ready()` holds, re-checking on every signal change. Returns false when it gave up because
/// the queue was destroyed.
fn wait_until(q: &Queue, mut ready: impl FnMut() -> bool) -> bool {
    loop {
        let seen = ANY_SIGNAL.generation();
        if ready() {
            return true;
        }
        if q.state() == QueueState::Destroyed {
            return false;
        }
        ANY_SIGNAL.wait(seen, Duration::from_millis(1));
    }
}

/// Barrier-AND/OR; `Ok(false)` when abandoned by a queue destroy.
fn barrier(q: &'static Queue, pkt: &[u8; 64], and: bool) -> Result<bool, Status> {
    let mut deps: Vec<&'static Signal> = Vec::new();
    for i in 0..5 {
        let h = u64_at(pkt, 8 + 8 * i);
        if h != 0 {
            deps.push(signal::lookup(hsa_signal_t { handle: h }).map_err(|_| HSA_STATUS_ERROR_INVALID_SIGNAL)?);
        }
    }
    if deps.is_empty() {
        return Ok(true);
    }
    Ok(wait_until(q, || if and { deps.iter().all(|s| s.load() == 0) } else { deps.iter().any(|s| s.load() == 0) }))
}

/// AMD vendor packets; `Ok(false)` when a barrier-value packet was abandoned by a queue destroy (or
/// a fault dropped a PM4 counter read's completion).
fn vendor(q: &'static Queue, index: u64, pkt: &[u8; 64]) -> Result<bool, Status> {
    match u32::from(pkt[2]) {
        1 => pm4::execute_ib(q, index, pkt),
        HSA_AMD_PACKET_TYPE_BARRIER_VALUE => {
            let value = u64_at(pkt, 16) as i64;
            let mask = u64_at(pkt, 24) as i64;
            let cond = u32_at(pkt, 32);
            if cond > HSA_SIGNAL_CONDITION_GTE {
                return Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
            }
            // A 0 handle waits for nothing, as a 0 dependency of a barrier-AND/OR does: HIP's
            // `dispatchBarrierValuePacket` leaves it 0 when it only wants the completion signal
            // (`hipEventRecord` on a created stream), and ROCr's packet processor accepts that.
            let handle = u64_at(pkt, 8);
            if handle == 0 {
                return Ok(true);
            }
            let s = signal::lookup(hsa_signal_t { handle }).map_err(|_| HSA_STATUS_ERROR_INVALID_SIGNAL)?;
            Ok(wait_until(q, || satisfied(cond, s.load() & mask, value)))
        }
        other => {
            crate::diag!(
                "queue {}: vendor packet format {other:#x} at index {index} is not executable on a hardware queue",
                q.id()
            );
            Err(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT)
        }
    }
}

#[cfg(test)]
mod runtime_tests {
    use crate::profiling::{hsa_amd_profiling_get_dispatch_time, hsa_amd_profiling_set_profiler_enabled};
    use crate::queue_api::{hsa_queue_create, hsa_queue_destroy};
    use crate::signal::{hsa_signal_load_scacquire, hsa_signal_store_screlease, hsa_signal_wait_scacquire};
    use crate::testing::*;
    use rocprof_hsa_sys::*;

    #[test]
    fn barrier_waits_for_its_dependency_and_timestamps_translate() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
        }
        let dep = signal(1);
        let done = signal(1);
        let before = crate::clock::system_ns();
        submit(q, &barrier_and(dep.handle, done.handle, true));
        let hwq = crate::queue::lookup(q).unwrap();
        while hwq.amd.read_dispatch_id.load(std::sync::atomic::Ordering::Acquire) == 0 {
            std::thread::yield_now();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        // SAFETY: live signals.
        unsafe { assert_eq!(hsa_signal_load_scacquire(done), 1, "barrier completed before its dependency") };
        let released = crate::clock::system_ns();
        // SAFETY: live signals.
        unsafe {
            hsa_signal_store_screlease(dep, 0);
            assert_eq!(
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 5_000_000_000, HSA_WAIT_STATE_BLOCKED),
                0
            );
        }
        let after = crate::clock::system_ns();
        let raw = done.handle as *const amd_signal_t;
        // SAFETY: the handle is the address of the signal's amd_signal_t.
        let (s, e) = unsafe { ((*raw).start_ts, (*raw).end_ts) };
        assert!(e > s, "raw GPU ticks {s}..{e}");
        let mut t = hsa_amd_profiling_dispatch_time_t { start: 0, end: 0 };
        // SAFETY: valid out-pointer.
        assert_eq!(unsafe { hsa_amd_profiling_get_dispatch_time(gpu, done, &mut t) }, HSA_STATUS_SUCCESS);
        assert_ne!((t.start, t.end), (s, e), "translated times differ from raw GPU ticks");
        // Clock resolution in the GPU domain is 10 ns, hence the slack.
        // The start is not compared with `released`: on a loaded machine the processor thread may be
        // descheduled between taking the packet and reading the clock.
        assert!(
            before <= t.start + 10 && t.start <= t.end,
            "barrier began at {} (submitted {before}, ended {})",
            t.start,
            t.end
        );
        assert!(
            released <= t.end + 10 && t.end <= after,
            "barrier ended at {} (released {released}, observed {after})",
            t.end
        );
        // SAFETY: the queue and signals are ours.
        unsafe {
            assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
            assert_eq!(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
        }
        shut_down();
    }

    #[test]
    fn queue_destroy_abandons_a_waiting_barrier_without_completing_it() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
                HSA_STATUS_SUCCESS
            );
        }
        let dep = signal(1);
        let done = signal(1);
        submit(q, &barrier_and(dep.handle, done.handle, true));
        let hwq = crate::queue::lookup(q).unwrap();
        // The processor has taken the packet once the read index moves; it then waits on `dep`.
        while hwq.amd.read_dispatch_id.load(std::sync::atomic::Ordering::Acquire) == 0 {
            std::thread::yield_now();
        }
        // SAFETY: our queue; destroy joins the processor thread, so nothing can touch `done` afterwards.
        assert_eq!(unsafe { hsa_queue_destroy(q) }, HSA_STATUS_SUCCESS);
        // SAFETY: live signal.
        let value = unsafe { hsa_signal_load_scacquire(done) };
        assert_eq!(value, 1, "an abandoned barrier must not decrement its completion signal");
        shut_down();
    }

    static QUEUE_ERROR: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

    /// An AMD barrier-value packet (`hsa_amd_barrier_value_packet_t`) on `signal` with `cond`, `value`
    /// and `mask`, completing `completion`.
    fn barrier_value(signal: u64, cond: u32, value: i64, mask: i64, completion: u64) -> [u8; 64] {
        let mut p = [0u8; 64];
        let header = HSA_PACKET_TYPE_VENDOR_SPECIFIC as u16 | (1 << 8) | (2 << 9) | (2 << 11);
        p[0..2].copy_from_slice(&header.to_le_bytes());
        p[2] = HSA_AMD_PACKET_TYPE_BARRIER_VALUE as u8;
        p[8..16].copy_from_slice(&signal.to_le_bytes());
        p[16..24].copy_from_slice(&value.to_le_bytes());
        p[24..32].copy_from_slice(&mask.to_le_bytes());
        p[32..36].copy_from_slice(&cond.to_le_bytes());
        p[56..64].copy_from_slice(&completion.to_le_bytes());
        p
    }

    /// Submits `pkts` to a fresh queue with an error callback; returns each completion signal's value
    /// after waiting up to 10 s for the last, and the queue error (0 = none).
    fn run_packets(gpu: hsa_agent_t, pkts: &[[u8; 64]], completions: &[hsa_signal_t]) -> (Vec<i64>, u32) {
        QUEUE_ERROR.store(0, std::sync::atomic::Ordering::SeqCst);
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        unsafe {
            assert_eq!(
                hsa_queue_create(
                    gpu,
                    64,
                    HSA_QUEUE_TYPE_MULTI,
                    Some(on_queue_error),
                    std::ptr::null_mut(),
                    u32::MAX,
                    u32::MAX,
                    &mut q
                ),
                HSA_STATUS_SUCCESS
            );
        }
        for p in pkts {
            submit(q, p);
        }
        let last = *completions.last().expect("a completion to wait for");
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        // SAFETY: live signal.
        while unsafe { hsa_signal_load_scacquire(last) } != 0
            && QUEUE_ERROR.load(std::sync::atomic::Ordering::SeqCst) == 0
            && std::time::Instant::now() < until
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // SAFETY: live signals.
        let values = completions.iter().map(|s| unsafe { hsa_signal_load_scacquire(*s) }).collect();
        // SAFETY: our queue.
        unsafe { hsa_queue_destroy(q) };
        (values, QUEUE_ERROR.load(std::sync::atomic::Ordering::SeqCst))
    }

    /// HIP 6.4's `hipEventRecord` on a created stream submits a barrier-value packet whose signal
    /// handle is 0 (only its completion signal matters): it completes at once instead of stopping the
    /// queue with INVALID_SIGNAL; a real signal is still waited for, and a bad handle still fails.
    #[test]
    fn a_barrier_value_packet_with_signal_handle_0_completes_and_a_real_signal_is_waited_for() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let (a, b) = (signal(1), signal(1));
        let pkts = [barrier_value(0, HSA_SIGNAL_CONDITION_EQ, 0, 0, a.handle), barrier_and(0, b.handle, true)];
        assert_eq!(run_packets(gpu, &pkts, &[a, b]), (vec![0, 0], 0), "handle 0 is satisfied");

        // A real signal: the packet waits until (value & mask) meets the condition.
        let (dep, done) = (signal(5), signal(1));
        let waiting = [barrier_value(dep.handle, HSA_SIGNAL_CONDITION_LT, 3, -1, done.handle)];
        let setter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            // SAFETY: live signal.
            let early = unsafe { hsa_signal_load_scacquire(done) };
            // SAFETY: live signal.
            unsafe { hsa_signal_store_screlease(dep, 2) };
            early
        });
        assert_eq!(run_packets(gpu, &waiting, &[done]), (vec![0], 0));
        assert_eq!(setter.join().unwrap(), 1, "completed before its signal met the condition");

        let bad = signal(1);
        let pkts = [barrier_value(0xdead_beef, HSA_SIGNAL_CONDITION_EQ, 0, 0, bad.handle)];
        assert_eq!(run_packets(gpu, &pkts, &[bad]), (vec![1], HSA_STATUS_ERROR_INVALID_SIGNAL));
        shut_down();
    }

    unsafe extern "C" fn on_queue_error(status: hsa_status_t, _q: *mut hsa_queue_t, _d: *mut std::ffi::c_void) {
        QUEUE_ERROR.store(status, std::sync::atomic::Ordering::SeqCst);
    }

    /// Loads `fixtures/kernels/fill-gfx942.co` and returns (kernel_object, group segment size).
    fn load_fill_kernel(gpu: hsa_agent_t) -> (u64, u32) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels/fill-gfx942.co");
        let bytes = std::fs::read(&root).unwrap();
        let k = crate::testing::load_kernel(gpu, Box::leak(bytes.into_boxed_slice()), "fill");
        (k.kernel_object, k.group_segment_size)
    }

    /// A 1-D dispatch of 64 work-items of `kernel_object` with `group` bytes of LDS and a dummy kernarg.
    fn dispatch(kernel_object: u64, group: u32, completion: u64) -> [u8; 64] {
        let mut p = [0u8; 64];
        let header = HSA_PACKET_TYPE_KERNEL_DISPATCH as u16 | (1 << 8) | (2 << 9) | (2 << 11);
        p[0..2].copy_from_slice(&header.to_le_bytes());
        p[2..4].copy_from_slice(&1u16.to_le_bytes());
        p[4..6].copy_from_slice(&64u16.to_le_bytes());
        p[6..8].copy_from_slice(&1u16.to_le_bytes());
        p[8..10].copy_from_slice(&1u16.to_le_bytes());
        p[12..16].copy_from_slice(&64u32.to_le_bytes());
        p[16..20].copy_from_slice(&1u32.to_le_bytes());
        p[20..24].copy_from_slice(&1u32.to_le_bytes());
        p[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
        p[28..32].copy_from_slice(&group.to_le_bytes());
        p[32..40].copy_from_slice(&kernel_object.to_le_bytes());
        p[40..48].copy_from_slice(&0x1000u64.to_le_bytes());
        p[56..64].copy_from_slice(&completion.to_le_bytes());
        p
    }

    /// Two dispatches of `fill` on one queue, the second with or without the barrier bit; returns
    /// both (start, end) in system ns.
    fn two_kernels(gpu: hsa_agent_t, kernel_object: u64, group: u32, second_barrier: bool) -> [(u64, u64); 2] {
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(hsa_amd_profiling_set_profiler_enabled(q, 1), HSA_STATUS_SUCCESS);
        }
        let done = [signal(1), signal(1)];
        for (i, d) in done.iter().enumerate() {
            let mut p = dispatch(kernel_object, group, d.handle);
            let barrier = if i == 0 || second_barrier { 1u16 << 8 } else { 0 };
            let header = HSA_PACKET_TYPE_KERNEL_DISPATCH as u16 | barrier | (2 << 9) | (2 << 11);
            p[0..2].copy_from_slice(&header.to_le_bytes());
            submit(q, &p);
        }
        let mut out = [(0, 0); 2];
        for (i, d) in done.iter().enumerate() {
            let mut t = hsa_amd_profiling_dispatch_time_t { start: 0, end: 0 };
            // SAFETY: live signals and a valid out-pointer.
            unsafe {
                assert_eq!(
                    hsa_signal_wait_scacquire(*d, HSA_SIGNAL_CONDITION_EQ, 0, 60_000_000_000, HSA_WAIT_STATE_BLOCKED),
                    0
                );
                assert_eq!(hsa_amd_profiling_get_dispatch_time(gpu, *d, &mut t), HSA_STATUS_SUCCESS);
            }
            out[i] = (t.start, t.end);
        }
        // SAFETY: our queue.
        unsafe { assert_eq!(hsa_queue_destroy(q), HSA_STATUS_SUCCESS) };
        out
    }

    #[test]
    fn kernels_without_the_barrier_bit_run_at_once_and_a_barrier_bit_waits() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let (kernel_object, group) = load_fill_kernel(gpu);
        // Kernels of tens of milliseconds: longer than any scheduling delay of the processor thread
        // between the two launches on a loaded machine.
        crate::runtime::set_time_scale_for_tests(20_000.0);
        let [a, b] = two_kernels(gpu, kernel_object, group, false);
        assert!(a.0 < a.1 && b.0 < b.1, "{a:?} {b:?}");
        assert!(b.0 < a.1, "the second kernel started ({}) before the first ended ({}): they overlap", b.0, a.1);
        let [a, b] = two_kernels(gpu, kernel_object, group, true);
        assert!(b.0 >= a.1, "with the barrier bit the second kernel starts ({}) after the first ends ({})", b.0, a.1);
        shut_down();
    }

    #[test]
    fn group_segment_larger_than_the_agents_lds_is_a_packet_error() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let (kernel_object, group) = load_fill_kernel(gpu);
        let lds = crate::agent::lookup_gpu(gpu).unwrap().1.lds_bytes;
        let run = |group: u32| {
            QUEUE_ERROR.store(0, std::sync::atomic::Ordering::SeqCst);
            let mut q: *mut hsa_queue_t = std::ptr::null_mut();
            let done = signal(1);
            // SAFETY: valid arguments and out-pointer.
            unsafe {
                assert_eq!(
                    hsa_queue_create(
                        gpu,
                        64,
                        HSA_QUEUE_TYPE_MULTI,
                        Some(on_queue_error),
                        std::ptr::null_mut(),
                        u32::MAX,
                        u32::MAX,
                        &mut q
                    ),
                    HSA_STATUS_SUCCESS
                );
            }
            submit(q, &dispatch(kernel_object, group, done.handle));
            let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
            // SAFETY: live signal.
            while unsafe { hsa_signal_load_scacquire(done) } != 0
                && QUEUE_ERROR.load(std::sync::atomic::Ordering::SeqCst) == 0
                && std::time::Instant::now() < until
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            // SAFETY: our queue and signal.
            let value = unsafe { hsa_signal_load_scacquire(done) };
            // SAFETY: our queue.
            unsafe { hsa_queue_destroy(q) };
            (value, QUEUE_ERROR.load(std::sync::atomic::Ordering::SeqCst))
        };
        assert_eq!(run(group.max(lds)), (0, 0), "the agent's whole LDS is a valid group segment");
        assert_eq!(run(lds + 1), (1, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT));
        shut_down();
    }
}
