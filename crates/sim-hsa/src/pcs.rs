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
//! wave runs and no sample is taken. The waves sampled are those of one CU per shader engine, on as many
//! engines as the recording budget allows ([`sampled_waves`]; CU 0 of engine 0 alone when it runs
//! [`MAX_WAVES`] rounds), one wave per workgroup ([`thin`]), recorded instruction by instruction by the
//! interpreter, and a sample's `HW_ID` is where the model placed that wave. Among the waves resident at `c` the tick picks one in turn; the wave's PC at `c` is the
//! instruction that issues next: an instruction owns the cycles from when the wave began waiting for it
//! (its stall, e.g. an `s_waitcnt` for a load) until the next one starts waiting. So samples fall on
//! instructions in proportion to the modelled time spent there. A tick inside the CU's busy time that
//! finds no recorded wave (more rounds than [`MAX_WAVES`] recorded waves cover) is reported as lost
//! through the callback's `lost_sample_count`, never dropped silently. A wave longer than [`MAX_STEPS`]
//! instructions is thinned on a cycle grid as it runs (`rocprof_isa::decimate`): the record keeps, over
//! the whole wave, the instruction owning a pseudo-random point of each grid cell, and a tick takes the
//! owner of its cell's point, so long waves sample as honestly as short ones.
//!
//! **Stochastic** (gfx942, gfx950; interval in shader cycles, a power of two): the sampled CU's
//! counter fires every `interval` cycles of the model (a global phase from the GPU clock), so samples
//! follow modelled cycles, not the dispatch's stretched wall time. Each sample is a
//! `perf_snapshot_data` snapshot of one resident wave (taken in turn) in rocprofiler-sdk's GFX9 layout
//! (`parser/translation.hpp`, `parser/gfx9.hpp`): valid (bit 0), issued (1), instruction type (3..6),
//! reason not issued (7..9), arbiter issue/stall state (10..17, 18..25); `perf_snapshot_data1` bits 0..5
//! the waves resident on the CU. A wave inside an instruction's wait (from when it began waiting until
//! it issues) has not issued: an `s_waitcnt` reports `WAITCNT` (gfx9 never reports `s_waitcnt` issued),
//! `s_barrier` `BARRIER_WAIT`, `s_nop`/`s_sleep` `INTERNAL_INSTRUCTION`, any other wait
//! `ARBITER_NOT_WIN`; otherwise it issued, with the type of the instruction's mnemonic
//! ([`snapshot`]) and that port's arbiter issue bit.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rocprof_device::wave::{DetailRequest, DispatchModel};
use rocprof_hsa_sys::*;

use crate::ffi::Status;

/// Most waves of a dispatch recorded for sampling (one per workgroup of the sampled CU).
pub(crate) const MAX_WAVES: usize = 128;
/// Most instructions recorded per sampled wave.
pub(crate) const MAX_STEPS: usize = 1 << 16;
/// One session (ROCr allows one per agent).
struct Session {
    handle: u64,
    agent: u64,
    /// `HSA_VEN_AMD_PCS_METHOD_*`.
    method: u32,
    /// Microseconds (host trap) or shader cycles (stochastic).
    interval: u64,
    /// Samples per data-ready callback at most (`buffer_size` / sample size).
    per_callback: usize,
    /// Samples buffered before the callback is called without a flush (half the buffer, as ROCr's
    /// watermark).
    watermark: usize,
    callback: hsa_ven_amd_pcs_data_ready_callback_t,
    client_data: usize,
    started: bool,
    /// Buffered samples (host-trap samples in the same 64 bytes, their snapshot words zero).
    samples: Vec<perf_sample_snapshot_v1_t>,
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

/// The configurations of a GPU target, from the targets crate's table (`rocprof_targets::pc_sampling`).
fn configurations(target: &str) -> Vec<hsa_ven_amd_pcs_configuration_t> {
    use rocprof_targets::pc_sampling::{Method, Unit};
    rocprof_targets::pc_sampling::configurations(target)
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
    crate::ffi::status_code(|| {
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
    let ok = configurations(m.name).iter().any(|c| {
        c.method == method
            && c.units == units
            && (c.min_interval..=c.max_interval).contains(&interval)
            && (c.flags & u64::from(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2) == 0
                || interval.is_power_of_two())
    });
    const _: () =
        assert!(std::mem::size_of::<perf_sample_hosttrap_v1_t>() == std::mem::size_of::<perf_sample_snapshot_v1_t>());
    let sample = std::mem::size_of::<perf_sample_snapshot_v1_t>();
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
        method,
        interval: interval as u64,
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
    crate::ffi::status(|| {
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
    crate::ffi::status(|| {
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
    crate::ffi::status(|| set_started(pc_sampling, true))
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_stop(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::ffi::status(|| set_started(pc_sampling, false))
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_flush(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::ffi::status(|| {
        if !sessions().iter().any(|x| x.handle == pc_sampling.handle) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        deliver(pc_sampling.handle, 0);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ven_amd_pcs_destroy(pc_sampling: hsa_ven_amd_pcs_t) -> hsa_status_t {
    crate::ffi::status(|| {
        let mut s = sessions();
        let i = s.iter().position(|x| x.handle == pc_sampling.handle).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        s.remove(i);
        refresh_started(&s);
        Ok(())
    })
}

/// What a data-ready callback copies from.
struct Batch {
    samples: Vec<perf_sample_snapshot_v1_t>,
}

unsafe extern "C" fn copy_out(
    hsa_callback_data: *mut c_void,
    data_size: usize,
    destination: *mut c_void,
) -> hsa_status_t {
    crate::ffi::status(|| {
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
        se_mask: u64::MAX,
        cu_in_se: None,
        // Every wave is listed; [`sampled_waves`] picks the recorded ones.
        max_waves: usize::MAX,
        max_instructions_per_wave: MAX_STEPS,
    })
}

/// The waves to record for sampling, as (workgroup, wave in workgroup). Sampled CUs: one per shader
/// engine (CU `se mod CUs` of engine `se`, or its CU 0 when that one got no workgroup), on as many
/// engines, spread evenly, as [`MAX_WAVES`] recorded workgroups allow when every sampled CU keeps as
/// many workgroups as CU 0 of engine 0 runs (so the CU's every round has recorded waves, as with one
/// CU); at least that one CU. Of each sampled CU one wave per workgroup is kept ([`thin`]); the CUs'
/// lists are interleaved round by round up to [`MAX_WAVES`].
pub(crate) fn sampled_waves(m: &DispatchModel) -> Vec<(u64, u32)> {
    let engines = m.shader_engines().max(1);
    let cu_of = |se: u32| {
        let cu = se % m.cus_of_se(se).max(1);
        if m.workgroups_on_cu(se, cu).next().is_some() {
            cu
        } else {
            0
        }
    };
    let first = m.workgroups_on_cu(0, 0).count().max(1);
    let n = (MAX_WAVES / first).clamp(1, engines as usize);
    let lists: Vec<Vec<(u64, u32)>> = (0..n)
        .map(|i| {
            let se = (i as u64 * u64::from(engines) / n as u64) as u32;
            let waves =
                m.workgroups_on_cu(se, cu_of(se)).flat_map(|g| (0..m.waves_in_workgroup(g)).map(move |w| (g, w)));
            thin(waves.collect())
        })
        .collect();
    let mut out = Vec::new();
    for j in 0.. {
        let before = out.len();
        out.extend(lists.iter().filter_map(|l| l.get(j)).take(MAX_WAVES - before.min(MAX_WAVES)));
        if out.len() == before || out.len() >= MAX_WAVES {
            break;
        }
    }
    out
}

/// The waves to record of those on one CU (listed by workgroup in run order): one per
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
    /// The kernel's code from `entry` (stochastic samples decode the sampled instruction's type).
    pub(crate) code: &'a [u8],
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
    let (handle, method, interval, watermark) = {
        let s = sessions();
        let Some(x) = s.iter().find(|x| x.agent == r.agent && x.started) else { return };
        (x.handle, x.method, x.interval, x.watermark)
    };
    let (samples, lost) = if method == HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1 {
        stochastic(model, r, interval)
    } else {
        let (samples, lost) = host_trap(model, r, interval);
        (samples.into_iter().map(as_snapshot).collect(), lost)
    };
    {
        let mut s = sessions();
        let Some(x) = s.iter_mut().find(|x| x.handle == handle) else { return };
        x.samples.extend(samples);
        x.lost += lost;
    }
    deliver(handle, watermark);
}

/// A host-trap sample in the buffer's 64-byte slot (the layouts share every field but the snapshot
/// words, which host trap leaves reserved).
fn as_snapshot(h: perf_sample_hosttrap_v1_t) -> perf_sample_snapshot_v1_t {
    perf_sample_snapshot_v1_t {
        pc: h.pc,
        exec_mask: h.exec_mask,
        workgroup_id_x: h.workgroup_id_x,
        workgroup_id_y: h.workgroup_id_y,
        workgroup_id_z: h.workgroup_id_z,
        _bitfield_0: h._bitfield_0,
        hw_id: h.hw_id,
        perf_snapshot_data: 0,
        perf_snapshot_data1: 0,
        perf_snapshot_data2: 0,
        timestamp: h.timestamp,
        correlation_id: h.correlation_id,
    }
}

/// What a sample at model cycle `c` (of the dispatch, launch overhead included) finds on the sampled
/// CUs: the wave taken (the `turn`-th resident recorded wave, round robin), the index of the instruction
/// that owns `c` in it, how many recorded waves are resident on its CU, and the cycle (since the first
/// wave start) whose owner that is: `c`, or for a long wave thinned on a cycle grid the point of `c`'s
/// cell (the record keeps each point's owner, [`rocprof_isa::decimate`]). `Err(true)`: a tick inside the CU's
/// busy time that finds no recorded wave or runs past a wave's recorded part (lost); `Err(false)`: no
/// wave runs then (launch overhead, idle tail).
fn wave_at(
    model: &DispatchModel,
    c: u64,
    turn: u64,
) -> Result<(&rocprof_device::wave::WaveDetail, usize, usize, u64), bool> {
    let overhead = model.dispatch_cycles.saturating_sub(model.totals.busy_cycles);
    let c = c.checked_sub(overhead).ok_or(false)?;
    let resident: Vec<_> = model.detail.iter().filter(|w| w.wave.start_cycle <= c && c < w.wave.end_cycle).collect();
    if resident.is_empty() {
        // Lost when a sampled CU was still busy then (its waves there went unrecorded).
        let busy = |w: &rocprof_device::wave::WaveDetail| {
            model.per_cu.get(w.wave.placement.cu as usize).map_or(0, |t| t.busy_cycles)
        };
        return Err(model.detail.iter().any(|w| c < busy(w)));
    }
    let w = resident[(turn % resident.len() as u64) as usize];
    let on_cu = resident.iter().filter(|x| x.wave.placement.cu == w.wave.placement.cu).count();
    let c = if w.grid_level > 0 {
        let start = w.wave.start_cycle;
        start + rocprof_isa::grid_point(w.grid_level, (c - start) >> w.grid_level)
    } else {
        c
    };
    // The instruction whose wait (stall) or issue covers `c`: the last one that began waiting by then.
    let k = w.instructions.partition_point(|i| i.issue_cycle.saturating_sub(u64::from(i.stall_cycles)) <= c);
    let k = k.checked_sub(1).ok_or(true)?;
    let i = &w.instructions[k];
    if w.truncated && k + 1 == w.instructions.len() && c > i.issue_cycle + 64 {
        // Past the recorded part of a wave that went on: its PC there is unknown.
        return Err(true);
    }
    Ok((w, k, on_cu, c))
}

/// The sample fields every method shares.
fn sample_of(w: &rocprof_device::wave::WaveDetail, k: usize, r: &Ran<'_>) -> perf_sample_snapshot_v1_t {
    let i = &w.instructions[k];
    let p = &w.wave.placement;
    perf_sample_snapshot_v1_t {
        pc: r.entry + u64::from(i.pc_offset),
        exec_mask: i.exec_mask,
        workgroup_id_x: w.wave.workgroup_id[0],
        workgroup_id_y: w.wave.workgroup_id[1],
        workgroup_id_z: w.wave.workgroup_id[2],
        _bitfield_0: (w.wave.wave_in_group & 0x3f) | ((p.xcc & 7) << 6),
        hw_id: hw_id(p),
        perf_snapshot_data: 0,
        perf_snapshot_data1: 0,
        perf_snapshot_data2: 0,
        timestamp: 0,
        correlation_id: trap_correlation(r.doorbell, r.index, r.queue_size),
    }
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
    let mut out = Vec::new();
    let mut lost = 0;
    let mut t = r.start.div_ceil(period) * period;
    while t < r.end {
        let tick = t / period;
        let c = ((t - r.start) as f64 / span * model.dispatch_cycles as f64) as u64;
        t += period;
        match wave_at(model, c, tick) {
            Ok((w, k, _, _)) => {
                let s = sample_of(w, k, r);
                out.push(perf_sample_hosttrap_v1_t {
                    pc: s.pc,
                    exec_mask: s.exec_mask,
                    workgroup_id_x: s.workgroup_id_x,
                    workgroup_id_y: s.workgroup_id_y,
                    workgroup_id_z: s.workgroup_id_z,
                    _bitfield_0: s._bitfield_0,
                    hw_id: s.hw_id,
                    reserved0: 0,
                    reserved1: 0,
                    timestamp: (r.ns_of_ticks)(t - period),
                    correlation_id: s.correlation_id,
                });
            }
            Err(true) => lost += 1,
            Err(false) => {}
        }
    }
    (out, lost)
}

/// rocprofiler-sdk's GFX9 instruction types (`parser/gfx9.hpp`, `inst_type_issued`).
pub(crate) mod inst_type {
    pub const VALU: u32 = 0;
    pub const MATRIX: u32 = 1;
    pub const SCALAR: u32 = 2;
    pub const TEX: u32 = 3;
    pub const LDS: u32 = 4;
    pub const FLAT: u32 = 5;
    pub const EXPORT: u32 = 6;
    pub const MESSAGE: u32 = 7;
    pub const BARRIER: u32 = 8;
    pub const BRANCH_NOT_TAKEN: u32 = 9;
    pub const BRANCH_TAKEN: u32 = 10;
    pub const JUMP: u32 = 11;
    pub const OTHER: u32 = 12;
}

/// rocprofiler-sdk's GFX9 reasons an instruction was not issued (`parser/gfx9.hpp`, `reason_not_issued`).
pub(crate) mod reason {
    pub const INTERNAL_INSTRUCTION: u32 = 3;
    pub const WAITCNT: u32 = 2;
    pub const BARRIER_WAIT: u32 = 4;
    pub const ARBITER_NOT_WIN: u32 = 5;
}

/// The arbiter port (bit of the issue/stall state, `parser/gfx9.hpp` `arb_state`) of an instruction type.
fn port(t: u32) -> u32 {
    use inst_type::*;
    match t {
        VALU => 7,
        MATRIX => 6,
        SCALAR => 5,
        TEX => 4,
        LDS => 3,
        FLAT => 2,
        EXPORT => 1,
        _ => 0,
    }
}

/// `perf_snapshot_data` of a wave sampled on instruction `name` (LLVM mnemonic) of class `class`:
/// `waiting` when the sample falls in the cycles the wave waited before issuing it.
pub(crate) fn snapshot(name: &str, class: rocprof_device::wave::InstClass, waiting: bool) -> u32 {
    use rocprof_device::wave::InstClass;
    const VALID: u32 = 1;
    let not_issued = |why: u32| VALID | (why << 7);
    if name.starts_with("s_waitcnt") {
        return not_issued(reason::WAITCNT);
    }
    if name.starts_with("s_nop") || name.starts_with("s_sleep") {
        return not_issued(reason::INTERNAL_INSTRUCTION);
    }
    if waiting {
        let why = if name.starts_with("s_barrier") { reason::BARRIER_WAIT } else { reason::ARBITER_NOT_WIN };
        return not_issued(why);
    }
    let t = match name {
        n if n.starts_with("v_") && (n.contains("mfma") || n.contains("smfmac")) => inst_type::MATRIX,
        n if n.starts_with("v_") => inst_type::VALU,
        n if n.starts_with("buffer_") || n.starts_with("tbuffer_") || n.starts_with("image_") => inst_type::TEX,
        n if n.starts_with("global_") || n.starts_with("flat_") || n.starts_with("scratch_") => inst_type::FLAT,
        n if n.starts_with("ds_") => inst_type::LDS,
        n if n.starts_with("exp") => inst_type::EXPORT,
        n if n.starts_with("s_sendmsg") => inst_type::MESSAGE,
        n if n.starts_with("s_barrier") => inst_type::BARRIER,
        n if n.starts_with("s_setpc") || n.starts_with("s_swappc") => inst_type::JUMP,
        n if n.starts_with("s_branch") || n.starts_with("s_cbranch") => match class {
            InstClass::BranchNotTaken => inst_type::BRANCH_NOT_TAKEN,
            _ => inst_type::BRANCH_TAKEN,
        },
        n if n.starts_with("s_") => inst_type::SCALAR,
        _ => inst_type::OTHER,
    };
    VALID | 0b10 | (t << 3) | (1 << (10 + port(t)))
}

/// The stochastic samples of one dispatch (every `interval_cycles` shader cycles of the sampled CU) and
/// the ticks that found no recorded wave inside its busy time.
pub(crate) fn stochastic(
    model: &DispatchModel,
    r: &Ran<'_>,
    interval_cycles: u64,
) -> (Vec<perf_sample_snapshot_v1_t>, usize) {
    let cycles = model.dispatch_cycles;
    if cycles == 0 || interval_cycles == 0 {
        return (Vec::new(), 0);
    }
    let span = (r.end - r.start) as f64;
    let per_tick = cycles as f64 / span;
    // The CU's cycle count at the dispatch's start (its counter runs from the GPU's epoch).
    let phase = (r.start as f64 * per_tick) as u64;
    let target = rocprof_isa::Target::find(model.target.name);
    let mut out = Vec::new();
    let mut lost = 0;
    let mut c = (interval_cycles - phase % interval_cycles) % interval_cycles;
    while c < cycles {
        let turn = (phase + c) / interval_cycles;
        match wave_at(model, c, turn) {
            Ok((w, k, resident, at)) => {
                let i = &w.instructions[k];
                let bytes = r.code.get(i.pc_offset as usize..).unwrap_or_default();
                let name = target.and_then(|t| rocprof_isa::decode(t, bytes).ok()).map_or("", |d| d.name);
                let waiting = at < i.issue_cycle;
                let mut s = sample_of(w, k, r);
                s.perf_snapshot_data = snapshot(name, i.class, waiting);
                // Waves on the CU: each recorded wave stands for its workgroup.
                let waves = (resident as u32).saturating_mul(model.waves_per_workgroup.max(1));
                s.perf_snapshot_data1 = waves.min(model.occupancy.waves_per_cu.max(1)).clamp(1, 63);
                s.timestamp = (r.ns_of_ticks)(r.start + (c as f64 / per_tick) as u64);
                out.push(s);
            }
            Err(true) => lost += 1,
            Err(false) => {}
        }
        c += interval_cycles;
    }
    (out, lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

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
    /// (gfx942) lists host trap in microseconds 1..1e6 and stochastic in power-of-two cycles; a
    /// configuration it does not list, a second session on the agent, starting twice and stopping a
    /// stopped session fail with ROCr's codes.
    #[test]
    fn the_extension_table_lists_host_trap_and_refuses_what_the_agent_cannot_do() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        // SAFETY: all-zero is a valid table of nullable function pointers.
        let mut t: hsa_ven_amd_pc_sampling_1_00_pfn_t = unsafe { std::mem::zeroed() };
        // SAFETY: `t` is writable for its size.
        let rc = unsafe {
            crate::system_info::hsa_system_get_major_extension_table(
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
        assert_eq!(configs.len(), 2);
        let st = configs[1];
        assert_eq!(
            (st.method, st.units),
            (HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1, HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES)
        );
        assert_eq!(st.flags, u64::from(HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2));
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
        let stoch = HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1;
        assert_eq!(mk(stoch, cycles, 1000, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT, "not a power of two");
        assert_eq!(mk(stoch, us, 1024, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT, "stochastic counts cycles");
        assert_eq!(mk(ht, cycles, 10, &mut h), HSA_STATUS_ERROR_INVALID_ARGUMENT, "host trap counts time");
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

    /// rocprofiler-sdk's GFX9 decoding of `perf_snapshot_data` (`parser/translation.hpp`): valid bit 0,
    /// issued bit 1, type bits 3..6, reason bits 7..9, arbiter issue bits 10..17 (VALU at 7) and stall
    /// bits 18..25; AMD's validators' rules: `s_waitcnt` is never issued (reason WAITCNT), `global_*` is
    /// FLAT, `buffer_*` TEX, an issued instruction's arbiter stall bit is never set without its issue bit.
    #[test]
    fn snapshots_decode_as_rocprofiler_sdk_reads_gfx9_snapshots() {
        use rocprof_device::wave::InstClass;
        let bits = |v: u32, lo: u32, hi: u32| (v >> lo) & ((1 << (hi - lo + 1)) - 1);
        let w = snapshot("s_waitcnt", InstClass::Waitcnt, false);
        assert_eq!((bits(w, 0, 0), bits(w, 1, 1), bits(w, 7, 9), bits(w, 10, 25)), (1, 0, 2, 0));
        let v = snapshot("v_add_f32", InstClass::Valu, false);
        assert_eq!((bits(v, 1, 1), bits(v, 3, 6), bits(v, 10, 25)), (1, 0, 1 << 7));
        assert_eq!(bits(snapshot("global_load_dword", InstClass::VmemLoad, false), 3, 6), 5);
        assert_eq!(bits(snapshot("buffer_load_dword", InstClass::VmemLoad, false), 3, 6), 3);
        assert_eq!(bits(snapshot("v_mfma_f32_32x32x8f16", InstClass::Valu, false), 3, 6), 1);
        assert_eq!(bits(snapshot("s_cbranch_scc0", InstClass::BranchNotTaken, false), 3, 6), 9);
        assert_eq!(bits(snapshot("s_cbranch_scc0", InstClass::BranchTaken, false), 3, 6), 10);
        assert_eq!(bits(snapshot("s_load_dwordx2", InstClass::Smem, false), 3, 6), 2);
        let b = snapshot("s_barrier", InstClass::Barrier, true);
        assert_eq!((bits(b, 1, 1), bits(b, 7, 9)), (0, 4));
        let n = snapshot("s_nop", InstClass::Other, false);
        assert_eq!((bits(n, 1, 1), bits(n, 7, 9)), (0, 3));
        for x in [w, v, b, n] {
            assert_eq!(bits(x, 26, 26), 0, "no error bit");
            assert_eq!(bits(x, 18, 25) & !bits(x, 10, 17), 0, "a stall bit without its issue bit");
        }
    }

    /// Sampled waves spread over the shader engines: a dispatch of 1024 one-wave workgroups on gfx90a
    /// (about 9 per CU) records waves on every one of its 8 engines, each engine's CU `se mod CUs`
    /// (placement from the model), each CU's workgroups in run order; one with 200 rounds on CU 0 keeps
    /// to CU 0 of engine 0, as many recorded waves as before.
    #[test]
    fn sampled_waves_spread_over_shader_engines_when_the_rounds_allow() {
        use rocprof_device::wave::{DispatchInput, KernelProfile};
        let t = rocprof_device::targets::find("gfx90a").unwrap();
        let k = KernelProfile::from_code(t, &0xBF81_0000u32.to_le_bytes());
        let model = |groups: u32| {
            let input = DispatchInput {
                target: t,
                grid: [groups * 64, 1, 1],
                workgroup: [64, 1, 1],
                wavefront_size: 64,
                lds_bytes: 0,
                scratch_bytes: 0,
                kernel: &k,
            };
            DispatchModel::build(&input, &DetailRequest::NONE)
        };
        let m = model(1024);
        let waves = sampled_waves(&m);
        let places: Vec<_> = waves.iter().map(|&(g, w)| m.wave(g, w).unwrap().placement).collect();
        let engines: std::collections::BTreeSet<u32> = places.iter().map(|p| p.se).collect();
        assert_eq!(engines.len() as u32, m.shader_engines(), "{engines:?}");
        for p in &places {
            assert_eq!(p.cu_in_se, p.se % m.cus_of_se(p.se), "engine {} samples its CU se mod CUs", p.se);
        }
        // Every workgroup of each sampled CU is kept, in the CU's run order.
        for se in 0..m.shader_engines() {
            let want: Vec<u64> = m.workgroups_on_cu(se, se % m.cus_of_se(se)).collect();
            let got: Vec<u64> =
                waves.iter().map(|w| w.0).filter(|&g| m.wave(g, 0).unwrap().placement.se == se).collect();
            assert_eq!(got, want, "engine {se}");
        }
        let m = model(110 * 200);
        let waves = sampled_waves(&m);
        assert_eq!(waves.len(), MAX_WAVES);
        assert!(waves.iter().all(|&(g, w)| {
            let p = m.wave(g, w).unwrap().placement;
            (p.se, p.cu_in_se) == (0, 0)
        }));
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

    /// A long wave (40,000 iterations of a loop that loads, adds and waits: 360,000 instructions, more
    /// than [`MAX_STEPS`]) sampled stochastically every 256 cycles: nothing is lost, and each instruction's
    /// share of the samples is within 1 point of its share of the wave's modelled time, taken from a full
    /// record of the same run (host sum of the cycles each instruction owns, from its wait to the next
    /// one's). Cut at [`MAX_STEPS`] instead of thinned, most of the wave's ticks are lost.
    #[test]
    fn a_wave_longer_than_the_record_keeps_an_honest_sample_distribution() {
        use rocprof_device::wave::{DispatchInput, KernelProfile};
        use std::collections::BTreeMap;
        const CODE: u64 = 0x1000_0000;
        const KERNARG: u64 = 0x2000_0000;
        const DATA: u64 = 0x3000_0000;
        // `llvm-mc-19 -arch=amdgcn -mcpu=gfx90a -show-encoding`: s_load_dwordx2 s[2:3], s[0:1], 0;
        // s_waitcnt lgkmcnt(0); s_mov_b32 s10, 40000; v_mov_b32 v2, 0; v_mov_b32 v3, 0; loop (at 28):
        // global_load_dword v1, v2, s[2:3]; v_add_u32 v4, 1, v0; v_add_u32 v5, 2, v0; v_add_u32 v6, 3, v0;
        // s_waitcnt vmcnt(0); v_add_u32 v3, v1, v3; s_sub_u32 s10, s10, 1; s_cmp_lg_u32 s10, 0;
        // s_cbranch_scc1 loop (-10 words); s_endpgm.
        let code: Vec<u8> = [
            &[0x80, 0x00, 0x06, 0xc0, 0x00, 0x00, 0x00, 0x00][..],
            &[0x7f, 0xc0, 0x8c, 0xbf],
            &[0xff, 0x00, 0x8a, 0xbe, 0x40, 0x9c, 0x00, 0x00],
            &[0x80, 0x02, 0x04, 0x7e],
            &[0x80, 0x02, 0x06, 0x7e],
            &[0x00, 0x80, 0x50, 0xdc, 0x02, 0x00, 0x02, 0x01],
            &[0x81, 0x00, 0x08, 0x68],
            &[0x82, 0x00, 0x0a, 0x68],
            &[0x83, 0x00, 0x0c, 0x68],
            &[0x70, 0x0f, 0x8c, 0xbf],
            &[0x01, 0x07, 0x06, 0x68],
            &[0x0a, 0x81, 0x8a, 0x80],
            &[0x0a, 0x80, 0x07, 0xbf],
            &[0xf6, 0xff, 0x85, 0xbf],
            &[0x00, 0x00, 0x81, 0xbf],
        ]
        .concat();
        let mut kd = [0u8; 64];
        kd[16..24].copy_from_slice(&256i64.to_le_bytes());
        kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
        kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
        kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
        let mut image = kd.to_vec();
        image.resize(256, 0);
        image.extend_from_slice(&code);
        let mut mem = rocprof_isa::FlatMemory::new();
        mem.map(CODE, &image);
        mem.map(KERNARG, &DATA.to_le_bytes());
        mem.map(DATA, &[1, 0, 0, 0]);
        let t = rocprof_device::targets::find("gfx90a").unwrap();
        let profile = KernelProfile::from_code(t, &code);
        let input = DispatchInput {
            target: t,
            grid: [64, 1, 1],
            workgroup: [64, 1, 1],
            wavefront_size: 64,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &profile,
        };
        let d = rocprof_isa::Dispatch {
            target: rocprof_isa::Target::find("gfx90a").unwrap(),
            kernel_object: CODE,
            descriptor: rocprof_isa::KernelDescriptor::parse(&kd),
            grid: input.grid,
            workgroup: input.workgroup,
            group_segment_size: 0,
            private_segment_size: 0,
            kernarg: KERNARG,
            dispatch_ptr: KERNARG,
            queue_ptr: 0,
            dispatch_id: 0,
        };
        let all = |_: u64, _: u32| true;
        let model = |steps: usize, thin: bool| {
            let req = DetailRequest { max_instructions_per_wave: steps, ..detail_request_for_tests() };
            let mut opts = rocprof_device::wave::run_options(&input, &req, 1, Some(&all));
            opts.decimate_detail = thin;
            let rec = rocprof_isa::run(&d, &mem, &opts).unwrap();
            DispatchModel::from_execution(&input, &rec, &req)
        };
        let full = model(1 << 22, false);
        let w = &full.detail[0];
        assert!(!w.truncated && w.grid_level == 0 && w.instructions.len() > 5 * MAX_STEPS, "{}", w.instructions.len());
        // The modelled time split: cycles each instruction owns in the full record.
        let begin = |i: &rocprof_device::wave::InstructionDetail| i.issue_cycle - u64::from(i.stall_cycles);
        let mut owned: BTreeMap<u32, u64> = BTreeMap::new();
        for (k, i) in w.instructions.iter().enumerate() {
            let next = w.instructions.get(k + 1).map_or(w.wave.end_cycle, begin);
            *owned.entry(i.pc_offset).or_default() += next - begin(i);
        }
        let total: u64 = owned.values().sum();

        // One GPU tick per model cycle.
        let sample = |m: &DispatchModel| {
            let (start, end) = (1u64 << 20, (1u64 << 20) + m.dispatch_cycles);
            let ran = Ran {
                agent: 0,
                start,
                end,
                ticks_of_ns: &|ns| ns,
                ns_of_ticks: &|t| t,
                entry: CODE + 256,
                code: &code,
                index: 0,
                queue_size: 64,
                doorbell: 0,
            };
            stochastic(m, &ran, 256)
        };
        let thinned = model(MAX_STEPS, true);
        assert!(thinned.detail[0].grid_level > 0 && thinned.detail[0].instructions.len() <= MAX_STEPS);
        assert_eq!(thinned.dispatch_cycles, full.dispatch_cycles, "the same run");
        let (samples, lost) = sample(&thinned);
        assert_eq!(lost, 0);
        let n = samples.len() as f64;
        assert!(n > 10_000.0, "{n} samples");
        let mut got: BTreeMap<u32, u64> = BTreeMap::new();
        for s in &samples {
            *got.entry((s.pc - CODE - 256) as u32).or_default() += 1;
        }
        for (pc, &cycles) in &owned {
            let want = cycles as f64 / total as f64;
            let share = got.get(pc).copied().unwrap_or(0) as f64 / n;
            assert!((share - want).abs() < 0.01, "offset {pc:#x}: {share:.4} of samples, {want:.4} of the time");
        }
        let (cut, cut_lost) = sample(&model(MAX_STEPS, false));
        assert!(cut_lost > 3 * cut.len(), "{cut_lost} lost, {} kept", cut.len());
    }

    fn detail_request_for_tests() -> DetailRequest {
        DetailRequest { se_mask: u64::MAX, cu_in_se: None, max_waves: usize::MAX, max_instructions_per_wave: MAX_STEPS }
    }
}
