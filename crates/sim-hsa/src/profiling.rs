//! The AMD profiling API: per-queue dispatch timestamps, async-copy timestamps and the GPU-tick to
//! system-domain translation (see `clock.rs` for the two domains).
//!
//! As in ROCr, `hsa_amd_profiling_get_dispatch_time` does not check that profiling was enabled: untouched
//! zero timestamps translate to 0 (ticks below the agent's offset saturate), which a tool can detect.

use std::sync::atomic::{AtomicBool, Ordering};

use rocprof_hsa_sys::*;

use crate::ffi::{put, status};
use crate::runtime::system;
use crate::{agent, clock, queue, signal};

/// `hsa_amd_profiling_async_copy_enable` state (all agents).
pub(crate) static ASYNC_COPY_PROFILING: AtomicBool = AtomicBool::new(false);

pub(crate) unsafe extern "C" fn hsa_amd_profiling_set_profiler_enabled(
    queue: *mut hsa_queue_t,
    enable: i32,
) -> hsa_status_t {
    status(|| {
        system()?;
        let q = queue::lookup(queue)?;
        for target in [q, queue::hardware_of(q)] {
            if enable != 0 {
                target.amd.queue_properties.fetch_or(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, Ordering::AcqRel);
            } else {
                target.amd.queue_properties.fetch_and(!AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, Ordering::AcqRel);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_profiling_async_copy_enable(enable: bool) -> hsa_status_t {
    status(|| {
        system()?;
        ASYNC_COPY_PROFILING.store(enable, Ordering::Release);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_profiling_get_dispatch_time(
    agent: hsa_agent_t,
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_dispatch_time_t,
) -> hsa_status_t {
    status(|| {
        let (a, _) = agent::lookup_gpu(agent)?;
        let s = signal::lookup(signal)?;
        if time.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let end = clock::ticks_to_ns(s.end_ts.load(Ordering::Acquire), a.tick_offset);
        let start = clock::ticks_to_ns(s.start_ts.load(Ordering::Acquire), a.tick_offset);
        // SAFETY: non-null out-pointer.
        unsafe { put(time.cast(), hsa_amd_profiling_dispatch_time_t { start, end }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_profiling_get_async_copy_time(
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_async_copy_time_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let s = signal::lookup(signal)?;
        if time.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if s.copy_agent.load(Ordering::Acquire) == 0 {
            return Err(HSA_STATUS_ERROR);
        }
        let t = hsa_amd_profiling_async_copy_time_t {
            start: s.copy_start_ns.load(Ordering::Acquire),
            end: s.copy_end_ns.load(Ordering::Acquire),
        };
        // SAFETY: non-null out-pointer.
        unsafe { put(time.cast(), t) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_profiling_convert_tick_to_system_domain(
    agent: hsa_agent_t,
    agent_tick: u64,
    system_tick: *mut u64,
) -> hsa_status_t {
    status(|| {
        let (a, _) = agent::lookup_gpu(agent)?;
        if system_tick.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(system_tick.cast(), clock::ticks_to_ns(agent_tick, a.tick_offset)) };
        Ok(())
    })
}
