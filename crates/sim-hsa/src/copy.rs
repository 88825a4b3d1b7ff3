//! Async copies (`hsa_amd_memory_async_copy*`): really copy the bytes, take modelled time, then complete.
//!
//! One copy-engine thread per copy agent executes requests in submission order. A request starts once every
//! dependency signal is observed at 0, copies, waits until `1.5 us + bytes / bandwidth` has passed since it
//! started (25 GB/s host<->device, 1 TB/s device<->device, 10 GB/s host<->host), records the copy agent and,
//! with `hsa_amd_profiling_async_copy_enable(true)`, start/end (GPU ticks of the copy agent in the signal's
//! `start_ts/end_ts`, system-domain ns for `hsa_amd_profiling_get_async_copy_time`), then decrements the
//! completion signal by 1.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;
use std::time::Duration;

use rocprof_hsa_sys::*;

use crate::agent::{self, Agent};
use crate::clock;
use crate::ffi::{put, status, Status};
use crate::profiling::ASYNC_COPY_PROFILING;
use crate::runtime::system;
use crate::signal::{self, Signal, ANY_SIGNAL};

/// One contiguous run of bytes to copy.
#[derive(Debug, Clone, Copy)]
struct Run {
    dst: usize,
    src: usize,
    len: usize,
}

struct Request {
    runs: Vec<Run>,
    deps: Vec<&'static Signal>,
    completion: &'static Signal,
    agent: &'static Agent,
    bytes_per_ns: f64,
}

static ENGINES: Mutex<Option<HashMap<u32, Sender<Request>>>> = Mutex::new(None);

fn engine(agent: &'static Agent) -> Sender<Request> {
    let mut g = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    map.entry(agent.index)
        .or_insert_with(|| {
            let (tx, rx) = channel::<Request>();
            std::thread::Builder::new()
                .name(format!("hsa-sim-copy{}", agent.index))
                .spawn(move || {
                    while let Ok(r) = rx.recv() {
                        run(r);
                    }
                })
                .expect("spawning a copy-engine thread");
            tx
        })
        .clone()
}

/// Modelled duration of a copy in nanoseconds.
pub(crate) fn model_ns(bytes: usize, bytes_per_ns: f64) -> u64 {
    1500 + (bytes as f64 / bytes_per_ns) as u64
}

fn run(r: Request) {
    loop {
        let seen = ANY_SIGNAL.generation();
        if r.deps.iter().all(|s| s.load() == 0) {
            break;
        }
        ANY_SIGNAL.wait(seen, Duration::from_millis(1));
    }
    let start_ns = clock::system_ns();
    let total: usize = r.runs.iter().map(|x| x.len).sum();
    for x in &r.runs {
        // SAFETY: the application guarantees both ranges are valid for the copy (HSA contract), and keeps
        // them alive until the completion signal fires.
        unsafe { std::ptr::copy(x.src as *const u8, x.dst as *mut u8, x.len) };
    }
    let until = start_ns + model_ns(total, r.bytes_per_ns);
    while clock::system_ns() < until {
        let left = until.saturating_sub(clock::system_ns());
        if left > 200_000 {
            std::thread::sleep(Duration::from_nanos(left - 100_000));
        } else {
            std::hint::spin_loop();
        }
    }
    let end_ns = clock::system_ns().max(start_ns + 1);
    let c = r.completion;
    c.copy_agent.store(r.agent.handle().handle, Ordering::Release);
    if ASYNC_COPY_PROFILING.load(Ordering::Acquire) {
        c.copy_start_ns.store(start_ns, Ordering::Release);
        c.copy_end_ns.store(end_ns, Ordering::Release);
        let (s, e) = if r.agent.is_cpu() {
            (start_ns, end_ns)
        } else {
            (clock::ns_to_ticks(start_ns, r.agent.tick_offset), clock::ns_to_ticks(end_ns, r.agent.tick_offset))
        };
        c.start_ts.store(s, Ordering::Release);
        c.end_ts.store(e, Ordering::Release);
    }
    c.subtract(1);
}

fn deps(num: u32, list: *const hsa_signal_t) -> Result<Vec<&'static Signal>, Status> {
    if num > 0 && list.is_null() {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    (0..num as usize)
        // SAFETY: `num` handles at `list` (checked non-null).
        .map(|i| signal::lookup(unsafe { list.add(i).read_unaligned() }))
        .collect()
}

/// Picks the copy agent (a GPU side if any) and the bandwidth for a copy between two agents.
fn route(dst: &'static Agent, src: &'static Agent) -> (&'static Agent, f64) {
    match (dst.is_cpu(), src.is_cpu()) {
        (true, true) => (dst, 10.0),
        (false, false) => (src, 1000.0),
        (false, true) => (dst, 25.0),
        (true, false) => (src, 25.0),
    }
}

fn submit(
    runs: Vec<Run>,
    dst_agent: hsa_agent_t,
    src_agent: hsa_agent_t,
    n: u32,
    d: *const hsa_signal_t,
    completion: hsa_signal_t,
) -> Result<(), Status> {
    system()?;
    let da = agent::lookup(dst_agent)?;
    let sa = agent::lookup(src_agent)?;
    let c = signal::lookup(completion)?;
    if runs.iter().any(|r| r.len > 0 && (r.dst == 0 || r.src == 0)) {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let deps = deps(n, d)?;
    let (agent, bw) = route(da, sa);
    engine(agent)
        .send(Request { runs, deps, completion: c, agent, bytes_per_ns: bw })
        .map_err(|_| HSA_STATUS_ERROR_OUT_OF_RESOURCES)
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_async_copy(
    dst: *mut std::ffi::c_void,
    dst_agent: hsa_agent_t,
    src: *const std::ffi::c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    status(|| {
        submit(
            vec![Run { dst: dst as usize, src: src as usize, len: size }],
            dst_agent,
            src_agent,
            num_dep_signals,
            dep_signals,
            completion_signal,
        )
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_async_copy_on_engine(
    dst: *mut std::ffi::c_void,
    dst_agent: hsa_agent_t,
    src: *const std::ffi::c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
    engine_id: hsa_amd_sdma_engine_id_t,
    _force_copy_on_sdma: bool,
) -> hsa_status_t {
    status(|| {
        if engine_id == 0 || !engine_id.is_power_of_two() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        submit(
            vec![Run { dst: dst as usize, src: src as usize, len: size }],
            dst_agent,
            src_agent,
            num_dep_signals,
            dep_signals,
            completion_signal,
        )
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_async_copy_rect(
    dst: *const hsa_pitched_ptr_t,
    dst_offset: *const hsa_dim3_t,
    src: *const hsa_pitched_ptr_t,
    src_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
    copy_agent: hsa_agent_t,
    _dir: hsa_amd_copy_direction_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    status(|| {
        if [dst.is_null(), dst_offset.is_null(), src.is_null(), src_offset.is_null(), range.is_null()].contains(&true) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: all five pointers are non-null and point at the caller's descriptors.
        let (d, doff, s, soff, r) = unsafe {
            (
                dst.read_unaligned(),
                dst_offset.read_unaligned(),
                src.read_unaligned(),
                src_offset.read_unaligned(),
                range.read_unaligned(),
            )
        };
        let mut runs = Vec::new();
        for z in 0..r.z as usize {
            for y in 0..r.y as usize {
                let at = |p: &hsa_pitched_ptr_t, o: &hsa_dim3_t| {
                    p.base as usize + (o.z as usize + z) * p.slice + (o.y as usize + y) * p.pitch + o.x as usize
                };
                runs.push(Run { dst: at(&d, &doff), src: at(&s, &soff), len: r.x as usize });
            }
        }
        submit(runs, copy_agent, copy_agent, num_dep_signals, dep_signals, completion_signal)
    })
}

fn engine_mask(dst_agent: hsa_agent_t, src_agent: hsa_agent_t, out: *mut u32) -> Result<(), Status> {
    let d = agent::lookup(dst_agent)?;
    let s = agent::lookup(src_agent)?;
    if out.is_null() {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let engines = d.gpu().or(s.gpu()).map_or(0, |m| m.sdma_engines + m.sdma_xgmi_engines).min(16);
    // SAFETY: non-null out-pointer.
    unsafe { put(out.cast(), if engines == 0 { 0u32 } else { (1u32 << engines) - 1 }) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_copy_engine_status(
    dst_agent: hsa_agent_t,
    src_agent: hsa_agent_t,
    engine_ids_mask: *mut u32,
) -> hsa_status_t {
    status(|| engine_mask(dst_agent, src_agent, engine_ids_mask))
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_get_preferred_copy_engine(
    dst_agent: hsa_agent_t,
    src_agent: hsa_agent_t,
    recommended_ids_mask: *mut u32,
) -> hsa_status_t {
    status(|| engine_mask(dst_agent, src_agent, recommended_ids_mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_model() {
        assert_eq!(model_ns(0, 25.0), 1500);
        assert_eq!(model_ns(25_000_000, 25.0), 1_001_500);
    }
}
