//! Scratch (private segment) memory of hardware queues, and the tool events ROCr raises for it
//! (`ToolsApiTable::hsa_amd_tool_scratch_event_*`, AMD `hsa_amd_tool.h`).
//!
//! Modelled on ROCr's `AqlQueue` (`amd_aql_queue.cpp`) for a queue whose CP firmware has no
//! asynchronous scratch reclaim (no `AMD_QUEUE_CAPS_CP_ASYNC_RECLAIM`, so no alternate scratch and
//! no `SCRATCH_MEMORY_ASYNC_RECLAIM` events):
//!
//! * A queue starts without scratch (`hsa_queue_create`'s `private_segment_size` is a hint that
//!   dGPUs get as `UINT32_MAX` = 0; ROCr raises no event for scratch acquired at creation).
//! * A kernel dispatch whose packet asks for `private_segment_size > 0` more than the queue's
//!   scratch holds per work-item makes the CP report "insufficient scratch"; ROCr's
//!   `HandleInsufficientScratch` then raises, on the runtime's thread:
//!   `alloc_start(queue, NONE, dispatch_id)`, and if the queue held scratch
//!   `free_start(queue, NONE)` / `free_end(queue, NONE)`, then
//!   `alloc_end(queue, flags, dispatch_id, size, dispatch_slots)`.
//!   Sizes as ROCr computes them: per work-item `AlignUp(private_segment_size, alignment / lanes)`
//!   (alignment 1024 bytes before gfx11, 256 from gfx11; 64 or 32 lanes by the kernel's wave
//!   size), device slots `AlignUp(CUs, shader engines) * MaxSlotsScratchCU` (32),
//!   `size = per work-item * lanes * device slots`, rounded up to 4 KiB.
//! * When that size exceeds `HSA_SCRATCH_SINGLE_LIMIT` (ROCr's default 140 MiB), the scratch is
//!   "use once": only the dispatch's slots are allocated (flag `USE_ONCE`), and when the dispatch
//!   ends the CP hands it back (ROCr's error code 512 handler):
//!   `free_start(queue, USE_ONCE)` / `free_end(queue, USE_ONCE)`, raised here before the
//!   dispatch's completion signal so a program that waited for it sees both events.
//!   ROCr's other reason for use-once scratch (the small-scratch budget of its scratch pool) is
//!   not modelled.
//! * `hsa_queue_destroy` of a queue holding scratch raises `free_start` / `free_end` (`NONE`).
//!
//! Only the newest table layout has a `ToolsApiTable`; under ROCm 5.2's layout no tool can
//! install these callbacks, so no events are raised, as in ROCm 5.2.

use rocprof_hsa_sys::*;

use crate::queue::Queue;
use crate::queue_scratch::QueueScratch;
use crate::table::slot;

/// Scratch wave slots per CU (KFD `max_slots_scratch_cu`).
pub(crate) const MAX_SLOTS_SCRATCH_CU: u64 = 32;
/// ROCr's `DEFAULT_SCRATCH_SINGLE_LIMIT` (140 MiB).
const DEFAULT_SINGLE_LIMIT: u64 = 140 << 20;

/// `HSA_SCRATCH_SINGLE_LIMIT` (read once, like ROCr's flags).
fn single_limit() -> u64 {
    static LIMIT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("HSA_SCRATCH_SINGLE_LIMIT")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(DEFAULT_SINGLE_LIMIT)
    })
}

fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

fn event_queue(q: &'static Queue) -> *const hsa_queue_t {
    q.hsa_ptr().cast_const()
}

fn alloc_start(q: &'static Queue, flags: u32, dispatch_id: u64) {
    if let Some(f) = slot!(tools, hsa_amd_tool_scratch_event_alloc_start_fn) {
        let e = hsa_amd_event_scratch_alloc_start_t {
            kind: HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START,
            queue: event_queue(q),
            flags,
            dispatch_id,
        };
        // SAFETY: a tool's callback of the `hsa_amd_tool_event` type, given a pointer to an event that
        // lives for the call, as ROCr does.
        unsafe { f(hsa_amd_tool_event_t { scratch_alloc_start: &e }) };
    }
}

fn alloc_end(q: &'static Queue, flags: u32, dispatch_id: u64, size: u64, num_slots: u64) {
    if let Some(f) = slot!(tools, hsa_amd_tool_scratch_event_alloc_end_fn) {
        let e = hsa_amd_event_scratch_alloc_end_t {
            kind: HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END,
            queue: event_queue(q),
            flags,
            dispatch_id,
            size: size as usize,
            num_slots: num_slots as usize,
        };
        // SAFETY: as in `alloc_start`.
        unsafe { f(hsa_amd_tool_event_t { scratch_alloc_end: &e }) };
    }
}

fn free(q: &'static Queue, flags: u32, release: impl FnOnce()) {
    if let Some(f) = slot!(tools, hsa_amd_tool_scratch_event_free_start_fn) {
        let e = hsa_amd_event_scratch_free_start_t {
            kind: HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START,
            queue: event_queue(q),
            flags,
        };
        // SAFETY: as in `alloc_start`.
        unsafe { f(hsa_amd_tool_event_t { scratch_free_start: &e }) };
    }
    release();
    if let Some(f) = slot!(tools, hsa_amd_tool_scratch_event_free_end_fn) {
        let e = hsa_amd_event_scratch_free_end_t {
            kind: HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END,
            queue: event_queue(q),
            flags,
        };
        // SAFETY: as in `alloc_start`.
        unsafe { f(hsa_amd_tool_event_t { scratch_free_end: &e }) };
    }
}

fn lock(q: &Queue) -> std::sync::MutexGuard<'_, QueueScratch> {
    q.scratch.lock().unwrap_or_else(|e| e.into_inner())
}

/// Before a kernel dispatch is launched on hardware queue `q` (packet processor): gives the queue
/// the scratch the packet asks for, raising ROCr's events. Returns true when the scratch is for
/// this dispatch only ([`after_dispatch`] must then be called when it ends).
pub(crate) fn before_dispatch(q: &'static Queue, dispatch_id: u64, pkt: &[u8; 64], wave32: bool) -> bool {
    use crate::aql::{u16_at, u32_at};
    let private = u64::from(u32_at(pkt, 24));
    if private == 0 {
        return false;
    }
    let Some(m) = q.agent.gpu() else { return false };
    let lanes: u64 = if wave32 { 32 } else { 64 };
    let alignment: u64 = if m.name.starts_with("gfx1") && !m.name.starts_with("gfx10") { 256 } else { 1024 };
    let per_thread = align_up(private, alignment / lanes);
    let mut s = lock(q);
    if s.size != 0 && !s.use_once && per_thread <= s.per_thread && lanes <= s.lanes {
        return false;
    }
    alloc_start(q, HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE, dispatch_id);
    // ROCr's slot arithmetic (`calc_device_slots`, `calc_dispatch_groups`, `calc_dispatch_waves_per_group`).
    let engines = u64::from(m.shader_engines.max(1));
    let cus = u64::from(m.compute_units.max(1));
    let device_slots = align_up(cus, engines) * MAX_SLOTS_SCRATCH_CU;
    let wg = [u64::from(u16_at(pkt, 4)), u64::from(u16_at(pkt, 6)), u64::from(u16_at(pkt, 8))];
    let grid = [u64::from(u32_at(pkt, 12)), u64::from(u32_at(pkt, 16)), u64::from(u32_at(pkt, 20))];
    let lanes_per_group = wg.iter().map(|&v| v.max(1)).product::<u64>();
    let waves_per_group = lanes_per_group.div_ceil(lanes);
    let groups: u64 = (0..3).map(|i| grid[i].div_ceil(wg[i].max(1))).product();
    let symmetric = cus / engines * engines;
    let asym_per_round = cus - symmetric;
    let rounds = groups / cus;
    let symmetric_groups = groups - rounds * asym_per_round;
    let mut per_engine = symmetric_groups.div_ceil(engines) + if asym_per_round != 0 { rounds } else { 0 };
    let gfx10_plus = m.name.starts_with("gfx1");
    if gfx10_plus && per_engine < 16 && lanes_per_group * per_engine < 256 {
        per_engine = 256u64.div_ceil(lanes_per_group).min(16);
    }
    let dispatch_slots = (per_engine * engines * waves_per_group).min(device_slots);
    let device_size = per_thread * lanes * device_slots;
    let dispatch_size = per_thread * lanes * dispatch_slots;
    if s.size != 0 {
        free(q, HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE, || *s = QueueScratch::default());
    }
    let use_once = device_size > single_limit();
    let size = align_up(if use_once { dispatch_size } else { device_size }, 4096);
    *s = QueueScratch { size, per_thread, lanes, use_once };
    drop(s);
    let flags =
        if use_once { HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE } else { HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE };
    alloc_end(q, flags, dispatch_id, size, dispatch_slots);
    use_once
}

/// A dispatch that had use-once scratch ended: the CP hands the scratch back.
pub(crate) fn after_dispatch(q: &'static Queue) {
    let mut s = lock(q);
    if s.size != 0 && s.use_once {
        free(q, HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE, || *s = QueueScratch::default());
    }
}

/// `hsa_queue_destroy` of a hardware queue (after its processor stopped): frees its scratch.
pub(crate) fn at_destroy(q: &'static Queue) {
    let mut s = lock(q);
    if s.size != 0 {
        let flags =
            if s.use_once { HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE } else { HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE };
        free(q, flags, || *s = QueueScratch::default());
    }
}

#[cfg(test)]
mod tests {
    use super::align_up;

    #[test]
    fn sizes_align_like_rocr() {
        // 100 bytes per work-item on gfx9 (1024-byte alignment, wave64): 112 bytes.
        assert_eq!(align_up(100, 1024 / 64), 112);
        assert_eq!(align_up(0, 16), 0);
        assert_eq!(align_up(4097, 4096), 8192);
    }
}
