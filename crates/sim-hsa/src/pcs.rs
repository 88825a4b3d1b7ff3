//! ROCr's PC-sampling extension (`hsa_ven_amd_pc_sampling.h`, table version 1.00), sampled from the
//! device model of the dispatches that really ran.
//!
//! The interface is ROCr's: `hsa_ven_amd_pcs_iterate_configuration` lists what an agent can do,
//! `hsa_ven_amd_pcs_create` makes one session per agent, `start`/`stop` switch sampling, `flush` hands
//! what is buffered to the session's data-ready callback, which copies it out through
//! `data_copy_callback` (one `perf_sample_hosttrap_v1_t` per sample), and `destroy` ends it.
//!
//! **Host trap** (gfx90a, gfx942; interval in microseconds of GPU time): a timer fires every `interval`
//! µs of the GPU clock (a global phase, not per dispatch). When it fires while a kernel runs, the sample
//! is one wave resident at that moment: where the wave's program counter was, its EXEC mask at that
//! instruction, its workgroup, its place (`HW_ID`: wave slot, SIMD, CU, shader array and engine) and
//! the trap handler's correlation id (the kernel packet's ring index modulo the queue size in bits
//! 0..25, the queue's doorbell id / 8 in bits 32..42; a tool maps it back to its dispatch through the
//! intercept marker it placed before the packet, as rocprofiler-sdk does).
//!
//! **Honest to the model**: a dispatch's GPU time `[start, end)` is the device model's
//! `dispatch_cycles` (launch overhead, then the busiest CU's rounds of waves), stretched to the
//! dispatch's real duration. A tick at time `t` maps to model cycle `c`; during the launch overhead no
//! wave runs and no sample is taken. The waves sampled are those of compute unit 0 of shader engine 0
//! (the one the placement gives the most workgroups), one wave per workgroup ([`thin`]), recorded
//! instruction by instruction by the interpreter. Among the waves resident at `c` the tick picks one in turn; the wave's PC at `c` is the
//! instruction that issues next: an instruction owns the cycles from when the wave began waiting for it
//! (its stall, e.g. an `s_waitcnt` for a load) until the next one starts waiting. So samples fall on
//! instructions in proportion to the modelled time spent there. A tick inside the CU's busy time that
//! finds no recorded wave (more waves than [`MAX_WAVES`] or longer than [`MAX_STEPS`] instructions) is
//! reported as lost through the callback's `lost_sample_count`, never dropped silently.
//!
//! Stochastic sampling (gfx942's cycle-based snapshots) is not modelled: it is not listed as a
//! configuration, and creating it fails with `HSA_STATUS_ERROR_INVALID_ARGUMENT`.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rocprof_device::wave::{DetailRequest, DispatchModel};
use rocprof_hsa_sys::*;

use crate::api::Status;

/// Most waves of a dispatch recorded for sampling (one per workgroup of the sampled CU).
pub(crate) const MAX_WAVES: usize = 128;
/// Most instructions recorded per sampled wave.
pub(crate) const MAX_STEPS: usize = 1 << 16;
/// One session (ROCr allows one per agent).
struct Session {
    handle: u64,
    agent: u64,
    interval_us: u64,
    /// Samples per data-ready callback at most (`buffer_size` / sample size).
    per_callback: usize,
    /// Samples buffered before the callback is called without a flush (half the buffer, as ROCr's
    /// watermark).
    watermark: usize,
    callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_data: usize,
    started: bool,
    samples: Vec<perf_sample_hosttrap_v1_t>,
    lost: usize,
}

static SESSIONS: Mutex<Vec<Session>> = Mutex::new(Vec::new());
/// Whether any session is started (read per dispatch without the lock).
static ANY_STARTED: AtomicBool = AtomicBool::new(false);
static NEXT_HANDLE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn sessions() -> std::sync::MutexGuard<'static, Vec<Session>> {
    SESSIONS.lock().unwrap_or_else(|e| e.into_inner())
}

fn refresh_started(s: &[Session]) {
    ANY_STARTED.store(s.iter().any(|s| s.started), Ordering::Release);
}

/// The configurations of a GPU target, from the device model's table (`rocprof_device::pc_sampling`).
fn configurations(target: &str) -> Vec<hsa_ven_amd_pcs_configuration_t> {
    use rocprof_device::pc_sampling::{Method, Unit};
    rocprof_device::pc_sampling::configurations(target)
        .iter()
        .map(|c| hsa_ven_amd_pcs_configuration_t {
            method: match c.method {
                Method::HostTrap => HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1,
                Method::Stochastic => HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1,
            },
            units: match c.unit {
                Unit::Time => HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS,
                Unit::Cycles => HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES,
                Unit::Instructions => HSA_VEN_AMD_PCS_INTERVAL_UNITS_INSTRUCTIONS,
            },
            min_interval: c.min_interval as usize,
            max_interval: c.max_interval as usize,
            flags: if c.power_of_two { u64::from(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2) } else { 0 },
        })
        .collect()
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_iterate_configuration(
    agent: hsa_agent_t,
    configuration_callback: hsa_ven_amd_pcs_iterate_configuration_callback_t,
    callback_data: *mut c_void,
) -> hsa_status_t {
    crate::api::status_code(|| {
        let (_, m) = crate::agent::lookup_gpu(agent)?;
        let cb = configuration_callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for c in configurations(m.name) {
            // SAFETY: the caller's callback gets a pointer to a configuration that lives for the call.
            let rc = unsafe { cb(&c, callback_data) };
            if rc != HSA_STATUS_SUCCESS {
                return Ok(if rc == HSA_STATUS_INFO_BREAK { HSA_STATUS_SUCCESS } else { rc });
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

#[allow(clippy::too_many_arguments)]
fn create(
    agent: hsa_agent_t,
    method: u32,
    units: u32,
    interval: usize,
    buffer_size: usize,
    callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_data: *mut c_void,
    out: *mut hsa_ven_amd_pcs_t,
) -> Result<(), Status> {
    let (_, m) = crate::agent::lookup_gpu(agent)?;
    if out.is_null() || callback.is_none() {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let ok = configurations(m.name)
        .iter()
        .any(|c| c.method == method && c.units == units && (c.min_interval..=c.max_interval).contains(&interval));
    let sample = std::mem::size_of::<perf_sample_hosttrap_v1_t>();
    if !ok || buffer_size < 2 * sample {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let mut s = sessions();
    if s.iter().any(|x| x.agent == agent.handle) {
        return Err(HSA_STATUS_ERROR_RESOURCE_BUSY);
    }
    let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
    let per_callback = buffer_size / sample;
    s.push(Session {
        handle,
        agent: agent.handle,
        interval_us: interval as u64,
        per_callback,
        watermark: (per_callback / 2).max(1),
        callback,
        client_data: client_data as usize,
        started: false,
        samples: Vec::new(),
        lost: 0,
    });
    // SAFETY: `out` is a non-null out-pointer supplied by the caller.
    unsafe { out.write(hsa_ven_amd_pcs_t { handle }) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_create(
    agent: hsa_agent_t,
    method: hsa_ven_amd_pcs_method_kind_t,
    units: hsa_ven_amd_pcs_units_t,
    interval: usize,
    _latency: usize,
    buffer_size: usize,
    data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_callback_data: *mut c_void,
    pc_sampling: *mut hsa_ven_amd_pcs_t,
) -> hsa_status_t {
    crate::api::status(|| {
        create(agent, method, units, interval, buffer_size, data_ready_callback, client_callback_data, pc_sampling)
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_create_from_id(
    _pcs_id: u32,
    agent: hsa_agent_t,
    method: hsa_ven_amd_pcs_method_kind_t,
    units: hsa_ven_amd_pcs_units_t,
    interval: usize,
    _latency: usize,
    buffer_size: usize,
    data_ready_callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_callback_data: *mut c_void,
    pc_sampling: *mut hsa_ven_amd_pcs_t,
) -> hsa_status_t {
    // The id names a session another process reserved through the driver; one process here.
    crate::api::status(|| {
        create(agent, method, units, interval, buffer_size, data_ready_callback, client_callback_data, pc_sampling)
    })
}

fn set_started(h: hsa_ven_amd_pcs_t, on: bool) -> Result<(), Status> {
    let mut s = sessions();
    let x = s.iter_mut().find(|x| x.handle == h.handle).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
    if x.started == on {
        // ROCr refuses to start a started session (and to stop a stopped one).
        return Err(HSA_STATUS_ERROR);
    }
    x.started = on;
    refresh_started(&s);
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_start(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::api::status(|| set_started(pc_sampling, true))
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_stop(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::api::status(|| set_started(pc_sampling, false))
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_flush(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::api::status(|| {
        if !sessions().iter().any(|x| x.handle == pc_sampling.handle) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        deliver(pc_sampling.handle, 0);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_destroy(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::api::status(|| {
        let mut s = sessions();
        let i = s.iter().position(|x| x.handle == pc_sampling.handle).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        s.remove(i);
        refresh_started(&s);
        Ok(())
    })
}

/// The extension's function table as `hsa_system_get_major_extension_table` hands it out: the exported
/// trampolines, so a tool that rewrote a slot of the API table sees the calls made through it.
pub(crate) fn table() -> hsa_ven_amd_pc_sampling_1_00_pfn_t {
    hsa_ven_amd_pc_sampling_1_00_pfn_t {
        hsa_ven_amd_pcs_iterate_configuration: Some(crate::exports::hsa_ven_amd_pcs_iterate_configuration),
        hsa_ven_amd_pcs_create: Some(crate::exports::hsa_ven_amd_pcs_create),
        hsa_ven_amd_pcs_create_from_id: Some(crate::exports::hsa_ven_amd_pcs_create_from_id),
        hsa_ven_amd_pcs_destroy: Some(crate::exports::hsa_ven_amd_pcs_destroy),
        hsa_ven_amd_pcs_start: Some(crate::exports::hsa_ven_amd_pcs_start),
        hsa_ven_amd_pcs_stop: Some(crate::exports::hsa_ven_amd_pcs_stop),
        hsa_ven_amd_pcs_flush: Some(crate::exports::hsa_ven_amd_pcs_flush),
    }
}

/// What a data-ready callback copies from.
struct Batch {
    samples: Vec<perf_sample_hosttrap_v1_t>,
}

unsafe extern "C" fn copy_out(
    hsa_callback_data: *mut c_void,
    data_size: usize,
    destination: *mut c_void,
) -> hsa_status_t {
    crate::api::status(|| {
        if hsa_callback_data.is_null() || destination.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: `hsa_callback_data` is the `Batch` [`deliver`] passes for the duration of the callback.
        let b = unsafe { &*(hsa_callback_data as *const Batch) };
        let n = data_size.min(std::mem::size_of_val(b.samples.as_slice()));
        // SAFETY: the client provides `data_size` writable bytes at `destination`; `n <= data_size` and
        // `n` bytes of plain-old-data samples are readable from the batch.
        unsafe { std::ptr::copy_nonoverlapping(b.samples.as_ptr().cast::<u8>(), destination.cast::<u8>(), n) };
        Ok(())
    })
}

/// Hands the session's buffered samples to its callback in batches of at most `per_callback`, while at
/// least `min` are buffered (0: everything, as a flush). The lock is not held during the callback.
fn deliver(handle: u64, min: usize) {
    loop {
        let (batch, lost, cb, data) = {
            let mut s = sessions();
            let Some(x) = s.iter_mut().find(|x| x.handle == handle) else { return };
            if (x.samples.is_empty() && x.lost == 0) || (min > 0 && x.samples.len() < min) {
                return;
            }
            let n = x.samples.len().min(x.per_callback);
            let batch: Vec<_> = x.samples.drain(..n).collect();
            (batch, std::mem::take(&mut x.lost), x.callback, x.client_data)
        };
        let Some(cb) = cb else { return };
        let size = std::mem::size_of_val(batch.as_slice());
        let b = Batch { samples: batch };
        // SAFETY: the client's callback with its own data; `b` outlives the call, and `copy_out` reads it only
        // during the call, as the extension's contract says.
        unsafe { cb(data as *mut c_void, size, lost, Some(copy_out), (&b as *const Batch).cast_mut().cast()) };
    }
}

/// Whether dispatches on `agent` should be recorded for sampling; the detail request to run them with.
pub(crate) fn detail_request(agent: u64) -> Option<DetailRequest> {
    if !ANY_STARTED.load(Ordering::Acquire) {
        return None;
    }
    sessions().iter().any(|x| x.agent == agent && x.started).then_some(DetailRequest {
        se_mask: 1,
        cu_in_se: Some(0),
        // Every wave of the CU is listed; [`thin`] keeps one per workgroup.
        max_waves: usize::MAX,
        max_instructions_per_wave: MAX_STEPS,
    })
}

/// The waves to record of those on the sampled CU (listed by workgroup in run order): one per
/// workgroup, the `k`-th workgroup's wave `k mod waves` (so every round of the CU has recorded waves and
/// each wave position of a workgroup takes its turn), at most [`MAX_WAVES`]. The recorded wave stands
/// for its workgroup: a tick picks among the recorded waves resident at that moment.
pub(crate) fn thin(waves: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let mut per_group: Vec<(u64, u32)> = Vec::new();
    for (g, w) in waves {
        match per_group.last_mut() {
            Some(last) if last.0 == g => last.1 = last.1.max(w + 1),
            _ => per_group.push((g, w + 1)),
        }
    }
    per_group.iter().enumerate().take(MAX_WAVES).map(|(k, &(g, n))| (g, k as u32 % n.max(1))).collect()
}

/// Where a dispatch ran: what the host trap needs besides the model.
pub(crate) struct Ran<'a> {
    pub(crate) agent: u64,
    /// GPU ticks of its start and end.
    pub(crate) start: u64,
    pub(crate) end: u64,
    /// GPU ticks per nanosecond divisor (`clock::ns_to_ticks(ns, 0)` for an interval).
    pub(crate) ticks_of_ns: &'a dyn Fn(u64) -> u64,
    /// GPU ticks -> system-domain ns (ROCr translates sample timestamps so, like dispatch times).
    pub(crate) ns_of_ticks: &'a dyn Fn(u64) -> u64,
    /// Kernel entry address.
    pub(crate) entry: u64,
    /// Ring index of the kernel packet, queue size, doorbell id.
    pub(crate) index: u64,
    pub(crate) queue_size: u64,
    pub(crate) doorbell: u64,
}

/// The trap handler's correlation id of a dispatch (see the module documentation).
pub(crate) fn trap_correlation(doorbell: u64, index: u64, queue_size: u64) -> u64 {
    ((index % queue_size.max(1)) & ((1 << 25) - 1)) | (((doorbell >> 3) & ((1 << 10) - 1)) << 32)
}

/// `HW_ID` of a wave (gfx9 layout: wave slot 3:0, SIMD 5:4, CU 11:8, shader array 12, shader engine 15:13).
fn hw_id(p: &rocprof_device::wave::WavePlacement) -> u32 {
    (p.slot & 0xf) | ((p.simd & 3) << 4) | ((p.cu_in_se & 0xf) << 8) | ((p.sa & 1) << 12) | ((p.se_in_xcc & 7) << 13)
}

/// Takes the host-trap samples of a completed dispatch, if a started session samples its agent.
pub(crate) fn on_dispatch(model: &DispatchModel, r: &Ran<'_>) {
    if !ANY_STARTED.load(Ordering::Acquire) || r.end <= r.start {
        return;
    }
    let (handle, interval_us, watermark) = {
        let s = sessions();
        let Some(x) = s.iter().find(|x| x.agent == r.agent && x.started) else { return };
        (x.handle, x.interval_us, x.watermark)
    };
    let (samples, lost) = host_trap(model, r, interval_us);
    {
        let mut s = sessions();
        let Some(x) = s.iter_mut().find(|x| x.handle == handle) else { return };
        x.samples.extend(samples);
        x.lost += lost;
    }
    deliver(handle, watermark);
}

/// The host-trap samples of one dispatch and the ticks that found no recorded wave inside the sampled
/// CU's busy time.
pub(crate) fn host_trap(
    model: &DispatchModel,
    r: &Ran<'_>,
    interval_us: u64,
) -> (Vec<perf_sample_hosttrap_v1_t>, usize) {
    let period = (r.ticks_of_ns)(interval_us.saturating_mul(1000)).max(1);
    let span = (r.end - r.start) as f64;
    let busy = model.totals.busy_cycles;
    let overhead = model.dispatch_cycles.saturating_sub(busy);
    let cu0_busy = model.per_cu.first().map_or(0, |c| c.busy_cycles);
    let correlation_id = trap_correlation(r.doorbell, r.index, r.queue_size);
    let mut out = Vec::new();
    let mut lost = 0;
    let mut t = r.start.div_ceil(period) * period;
    while t < r.end {
        let tick = t / period;
        let c = ((t - r.start) as f64 / span * model.dispatch_cycles as f64) as u64;
        t += period;
        let Some(c) = c.checked_sub(overhead) else { continue };
        let resident: Vec<_> =
            model.detail.iter().filter(|w| w.wave.start_cycle <= c && c < w.wave.end_cycle).collect();
        if resident.is_empty() {
            if c < cu0_busy {
                lost += 1;
            }
            continue;
        }
        let w = resident[(tick % resident.len() as u64) as usize];
        // The instruction whose wait (stall) or issue covers `c`: the last one that began waiting by then.
        let k = w.instructions.partition_point(|i| i.issue_cycle.saturating_sub(u64::from(i.stall_cycles)) <= c);
        let Some(i) = k.checked_sub(1).and_then(|k| w.instructions.get(k)) else {
            lost += 1;
            continue;
        };
        if w.truncated && k == w.instructions.len() && c > i.issue_cycle + 64 {
            // Past the recorded part of a wave that went on: its PC there is unknown.
            lost += 1;
            continue;
        }
        let p = &w.wave.placement;
        out.push(perf_sample_hosttrap_v1_t {
            pc: r.entry + u64::from(i.pc_offset),
            exec_mask: i.exec_mask,
            workgroup_id_x: w.wave.workgroup_id[0],
            workgroup_id_y: w.wave.workgroup_id[1],
            workgroup_id_z: w.wave.workgroup_id[2],
            _bitfield_0: (w.wave.wave_in_group & 0x3f) | ((p.xcc & 7) << 6),
            hw_id: hw_id(p),
            reserved0: 0,
            reserved1: 0,
            timestamp: (r.ns_of_ticks)(t - period),
            correlation_id,
        });
    }
    (out, lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::testing::*;

    unsafe extern "C" fn collect(cfg: *const hsa_ven_amd_pcs_configuration_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: the test passes a Vec and the runtime a configuration valid for the call.
        unsafe { (*data.cast::<Vec<hsa_ven_amd_pcs_configuration_t>>()).push(*cfg) };
        HSA_STATUS_SUCCESS
    }

    unsafe extern "C" fn ready(
        _: *mut c_void,
        _: usize,
        _: usize,
        _: hsa_ven_amd_pcs_data_copy_callback_t,
        _: *mut c_void,
    ) {
    }

    /// The extension through `hsa_system_get_major_extension_table`, as a tool reaches it: the agent
    /// (gfx942) lists host trap in microseconds 1..1e6 and nothing else; a configuration it does not
    /// list, a second session on the agent, starting twice and stopping a stopped session fail with
    /// ROCr's codes.
    #[test]
    fn the_extension_table_lists_host_trap_and_refuses_what_the_agent_cannot_do() {
        let _g = crate::api::tests::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        // SAFETY: all-zero is a valid table of nullable function pointers.
        let mut t: hsa_ven_amd_pc_sampling_1_00_pfn_t = unsafe { std::mem::zeroed() };
        // SAFETY: `t` is writable for its size.
        let rc = unsafe {
            crate::api::hsa_system_get_major_extension_table(
                HSA_EXTENSION_AMD_PC_SAMPLING as u16,
                1,
                std::mem::size_of_val(&t),
                (&mut t as *mut hsa_ven_amd_pc_sampling_1_00_pfn_t).cast(),
            )
        };
        assert_eq!(rc, HSA_STATUS_SUCCESS);
        let mut configs: Vec<hsa_ven_amd_pcs_configuration_t> = Vec::new();
        // SAFETY: a live agent, a callback and its data valid for the call.
        let rc = unsafe {
            t.hsa_ven_amd_pcs_iterate_configuration.unwrap()(gpu, Some(collect), (&mut configs as *mut Vec<_>).cast())
        };
        assert_eq!(rc, HSA_STATUS_SUCCESS);
        assert_eq!(configs.len(), 1);
        let c = configs[0];
        assert_eq!(
            (c.method, c.units),
            (HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1, HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS)
        );
        assert_eq!((c.min_interval, c.max_interval, c.flags), (1, 1_000_000, 0));

        let create = t.hsa_ven_amd_pcs_create.unwrap();
        let mut h = hsa_ven_amd_pcs_t { handle: 0 };
        let mk = |method, units, interval, h: &mut hsa_ven_amd_pcs_t| {
            // SAFETY: a live agent, a callback valid for the process, an out-pointer.
            unsafe { create(gpu, method, units, interval, 0, 1 << 16, Some(ready), std::ptr::null_mut(), h) }
        };
        let (ht, us) = (HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1, HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS);
        let cycles = HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES;
        assert_eq!(mk(HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1, cycles, 1024, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        assert_eq!(mk(ht, us, 0, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT, "below the range");
        assert_eq!(mk(ht, us, 2_000_000, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT, "above the range");
        assert_eq!(mk(ht, us, 10, &mut h), HSA_STATUS_SUCCESS);
        let mut h2 = hsa_ven_amd_pcs_t { handle: 0 };
        assert_eq!(mk(ht, us, 10, &mut h2), HSA_STATUS_ERROR_RESOURCE_BUSY, "one session per agent");
        // SAFETY: a session created above.
        unsafe {
            assert_eq!(t.hsa_ven_amd_pcs_start.unwrap()(h), HSA_STATUS_SUCCESS);
            assert_eq!(t.hsa_ven_amd_pcs_start.unwrap()(h), HSA_STATUS_ERROR);
            assert!(detail_request(gpu.handle).is_some(), "a started session records the sampled waves");
            assert_eq!(t.hsa_ven_amd_pcs_stop.unwrap()(h), HSA_STATUS_SUCCESS);
            assert_eq!(t.hsa_ven_amd_pcs_stop.unwrap()(h), HSA_STATUS_ERROR);
            assert!(detail_request(gpu.handle).is_none());
            assert_eq!(t.hsa_ven_amd_pcs_flush.unwrap()(h), HSA_STATUS_SUCCESS);
            assert_eq!(t.hsa_ven_amd_pcs_destroy.unwrap()(h), HSA_STATUS_SUCCESS);
            assert_eq!(t.hsa_ven_amd_pcs_destroy.unwrap()(h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        shut_down();
    }

    /// One recorded wave per workgroup of the sampled CU, each wave position in turn.
    #[test]
    fn thin_keeps_one_wave_per_workgroup_in_turn() {
        let waves: Vec<(u64, u32)> = [3u64, 9, 15, 21, 27].iter().flat_map(|&g| (0..4).map(move |w| (g, w))).collect();
        assert_eq!(thin(waves), [(3, 0), (9, 1), (15, 2), (21, 3), (27, 0)]);
    }

    /// rocprofiler-sdk's `trap_correlation_id`: ring index modulo the queue size, doorbell / 8 at bit 32.
    #[test]
    fn trap_correlation_packs_ring_slot_and_doorbell_as_rocprofiler_sdk() {
        assert_eq!(trap_correlation(0x1000, 70, 64), 6 | (0x200 << 32));
    }
}
