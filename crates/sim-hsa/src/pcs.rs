//! ROCr's PC-sampling extension (`hsa_ven_amd_pc_sampling.h`, table version 1.00): the HSA face of
//! the device model's PC sampler (`rocprof_device::pc_sampling`, which takes the samples of the
//! dispatches that really ran).
//!
//! The interface is ROCr's: `hsa_ven_amd_pcs_iterate_configuration` lists what an agent can do
//! (`rocprof_targets::pc_sampling`), `hsa_ven_amd_pcs_create` makes one session per agent,
//! `start`/`stop` switch sampling, `flush` hands what is buffered to the session's data-ready callback,
//! which copies it out through `data_copy_callback` (one 64-byte `perf_sample_hosttrap_v1_t` or
//! `perf_sample_snapshot_v1_t` per sample), and `destroy` ends it. A sampled dispatch runs with the
//! sampler's detail request; when it completes, its samples (GPU ticks translated to system-domain
//! ns, as ROCr translates them) are buffered, handed over at half the buffer (ROCr's watermark), and
//! the ticks the model could not answer reach the callback as `lost_sample_count`.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rocprof_device::pc_sampling::{self as sampler, Sample};
use rocprof_device::wave::{DetailRequest, DispatchModel};
use rocprof_hsa_sys::*;

use crate::ffi::Status;

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
    sessions().iter().any(|x| x.agent == agent && x.started).then_some(sampler::DETAIL)
}

/// Where a dispatch ran: the sampler's view of it and what the interface adds.
pub(crate) struct Ran<'a> {
    pub(crate) agent: u64,
    pub(crate) dispatch: sampler::Ran<'a>,
    /// GPU ticks of a nanosecond span (`clock::ns_to_ticks(ns, 0)`, for the host-trap interval).
    pub(crate) ticks_of_ns: &'a dyn Fn(u64) -> u64,
    /// GPU ticks -> system-domain ns (ROCr translates sample timestamps so, like dispatch times).
    pub(crate) ns_of_ticks: &'a dyn Fn(u64) -> u64,
}

/// Takes the samples of a completed dispatch, if a started session samples its agent.
pub(crate) fn on_dispatch(model: &DispatchModel, r: &Ran<'_>) {
    let d = &r.dispatch;
    if !ANY_STARTED.load(Ordering::Acquire) || d.end <= d.start {
        return;
    }
    let (handle, method, interval, watermark) = {
        let s = sessions();
        let Some(x) = s.iter().find(|x| x.agent == r.agent && x.started) else { return };
        (x.handle, x.method, x.interval, x.watermark)
    };
    let (samples, lost) = if method == HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1 {
        sampler::stochastic(model, d, interval)
    } else {
        sampler::host_trap(model, d, (r.ticks_of_ns)(interval.saturating_mul(1000)))
    };
    let samples: Vec<_> = samples.iter().map(|x| in_slot(x, r)).collect();
    {
        let mut s = sessions();
        let Some(x) = s.iter_mut().find(|x| x.handle == handle) else { return };
        x.samples.extend(samples);
        x.lost += lost;
    }
    deliver(handle, watermark);
}

/// A sample in the buffer's 64-byte slot (`perf_sample_snapshot_v1_t`; a host-trap sample has the same
/// fields with the snapshot words reserved, zero).
fn in_slot(x: &Sample, r: &Ran<'_>) -> perf_sample_snapshot_v1_t {
    perf_sample_snapshot_v1_t {
        pc: x.pc,
        exec_mask: x.exec_mask,
        workgroup_id_x: x.workgroup_id[0],
        workgroup_id_y: x.workgroup_id[1],
        workgroup_id_z: x.workgroup_id[2],
        _bitfield_0: x.wave_in_group_chiplet,
        hw_id: x.hw_id,
        perf_snapshot_data: x.perf_snapshot_data,
        perf_snapshot_data1: x.perf_snapshot_data1,
        perf_snapshot_data2: 0,
        timestamp: (r.ns_of_ticks)(x.tick),
        correlation_id: x.correlation_id,
    }
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
}
