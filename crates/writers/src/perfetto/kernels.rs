//! Which kernel slices go where on the queue and stream tracks, and when.
//!
//! rocprofv3 (`generatePerfetto.cpp`) sorts the kernels of each agent and queue by start and, when
//! a kernel's end lies after the next one's start, moves both to the middle of the overlap (a
//! work-around for firmware timestamp errors, applied to every overlap), so that no two slices on
//! a track cross. Kernels dispatched without the barrier bit really do run at once on one queue,
//! and for them that rule draws shortened slices that still cross (8 kernels 10 µs apart, 1 ms
//! long: 18 crossing pairs, durations about halved). We keep the middle rule for an overlap that
//! looks like a timestamp error — the later kernel ends after the earlier one and the overlap is
//! at most [`GLITCH_NS`] or 1/[`GLITCH_FRACTION`] of the shorter kernel — and draw a larger
//! overlap (or a kernel that lies wholly inside another) with the true times on another track of
//! the same name: a kernel goes on the first track of its queue (or stream) whose last slice has
//! ended by its start, so slices on one track never cross, whatever order records arrive in.
//!
//! Streaming: per queue at most [`REORDER`] dispatches wait in a window sorted by start (records
//! arrive in completion order, which concurrent kernels can shuffle), and one more is held back
//! for the middle rule; everything else is written as it arrives.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use rocprof_model::{AgentId, DispatchId, KernelDispatch, QueueId};

use super::{uuid, State};
use crate::Result;

/// Dispatches per queue waiting to be put in start order.
const REORDER: usize = 32;
/// An overlap up to this long (ns) is taken for a timestamp error ...
const GLITCH_NS: u64 = 1_000;
/// ... and so is one up to this fraction (1/n) of the shorter kernel.
const GLITCH_FRACTION: u64 = 100;

/// A map keyed by small ids or by track uuids (already well mixed), hashed with one multiply per
/// word instead of SipHash: it is looked up several times per kernel slice.
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The hasher of [`FastMap`] (the Fx hash's step: rotate, xor, multiply).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The order of dispatches on a queue: (start, dispatch id).
fn order(d: &KernelDispatch) -> (u64, DispatchId) {
    (d.start.ns, d.dispatch_id)
}

/// The dispatches of one queue not yet written.
#[derive(Debug, Default)]
pub(super) struct QueueOrder {
    /// Waiting to be put in start order, sorted (records mostly arrive in order: a push at the
    /// back and a pop at the front).
    pending: VecDeque<KernelDispatch>,
    /// The latest in start order, held back until the next one (its end may still move).
    held: Option<KernelDispatch>,
}

impl QueueOrder {
    /// `next` is the queue's next dispatch by start: holds it and returns the one held before it
    /// (to be written), after the middle rule when the two overlap by a timestamp error.
    fn advance(&mut self, mut next: KernelDispatch) -> Option<KernelDispatch> {
        let prev = self.held.take().map(|mut prev| {
            if glitch(&prev, &next) {
                let mid = next.start.ns + (prev.end.ns - next.start.ns) / 2;
                prev.end.ns = mid;
                next.start.ns = mid;
            }
            prev
        });
        self.held = Some(next);
        prev
    }

    /// Whether dispatch `id` has not been written yet.
    pub(super) fn holds(&self, id: DispatchId) -> bool {
        self.held.is_some_and(|h| h.dispatch_id == id) || self.pending.iter().any(|p| p.dispatch_id == id)
    }
}

/// One track of a queue's (or stream's) kernels and the end of its last slice.
#[derive(Debug, Clone, Copy)]
struct Lane {
    uuid: u64,
    last_end: u64,
}

/// The tracks of one queue or stream: the first is the queue's (or stream's) own, the others are
/// written on demand under the same name.
#[derive(Debug, Default)]
pub(super) struct Lanes {
    name: String,
    lanes: Vec<Lane>,
}

impl Lanes {
    pub(super) fn new(name: String, uuid: u64) -> Self {
        Self { name, lanes: vec![Lane { uuid, last_end: 0 }] }
    }
}

/// Whether `next` (which starts at or after `prev`) overlaps `prev` by so little that it is taken
/// for a timestamp error.
fn glitch(prev: &KernelDispatch, next: &KernelDispatch) -> bool {
    if next.start.ns >= prev.end.ns || next.end.ns <= prev.end.ns {
        return false;
    }
    let overlap = prev.end.ns - next.start.ns;
    let shorter = prev.duration_ns().min(next.duration_ns());
    overlap <= GLITCH_NS || overlap.saturating_mul(GLITCH_FRACTION) <= shorter
}

impl State {
    /// Takes dispatch `d`: it waits with the others of its queue and is written once it is no
    /// longer among the latest [`REORDER`] + 1 by start.
    pub(super) fn dispatch(&mut self, d: KernelDispatch) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let q = p.queues.entry((d.agent, d.queue)).or_default();
        if q.pending.back().is_none_or(|b| order(b) <= order(&d)) {
            q.pending.push_back(d);
        } else {
            let at = q.pending.partition_point(|p| order(p) <= order(&d));
            q.pending.insert(at, d);
        }
        if q.pending.len() <= REORDER {
            return Ok(());
        }
        match q.pending.pop_front().and_then(|next| q.advance(next)) {
            Some(prev) => self.kernel_slice(&prev),
            None => Ok(()),
        }
    }

    /// Writes every dispatch not yet written, queue by queue in start order.
    pub(super) fn flush_held(&mut self) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let mut keys: Vec<(AgentId, QueueId)> = p.queues.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            loop {
                let Some(p) = self.process.as_mut() else { return Ok(()) };
                let Some(q) = p.queues.get_mut(&key) else { break };
                let Some(next) = q.pending.pop_front() else { break };
                if let Some(prev) = q.advance(next) {
                    self.kernel_slice(&prev)?;
                }
            }
            let Some(p) = self.process.as_mut() else { return Ok(()) };
            if let Some(last) = p.queues.remove(&key).and_then(|q| q.held) {
                self.kernel_slice(&last)?;
            }
        }
        Ok(())
    }

    /// The track of a kernel from `start` to `end` among the tracks of `base` (a queue or stream
    /// track already written): the first whose last slice has ended by `start`, else a new one of
    /// the same name.
    pub(super) fn kernel_lane(&mut self, base: u64, start: u64, end: u64) -> Result<u64> {
        let Some(p) = self.process.as_mut() else { return Ok(base) };
        let pid = p.pid;
        let Some(set) = p.lanes.get_mut(&base) else { return Ok(base) };
        if let Some(lane) = set.lanes.iter_mut().find(|l| l.last_end <= start) {
            lane.last_end = lane.last_end.max(end);
            return Ok(lane.uuid);
        }
        let k = set.lanes.len() as u64;
        let u = uuid(pid, 11, base ^ k);
        set.lanes.push(Lane { uuid: u, last_end: end });
        let name = set.name.clone();
        self.named_track(u, &name)?;
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use rocprof_model::Timestamp;

    use super::*;

    fn k(start: u64, end: u64) -> KernelDispatch {
        KernelDispatch { start: Timestamp::boottime(start), end: Timestamp::boottime(end), ..KernelDispatch::default() }
    }

    #[test]
    fn only_a_small_partial_overlap_is_a_timestamp_error() {
        assert!(glitch(&k(0, 10_000), &k(9_000, 20_000)), "1 µs");
        assert!(!glitch(&k(0, 10_000), &k(8_999, 20_000)), "just over 1 µs of 10 µs kernels");
        assert!(glitch(&k(0, 1_000_000), &k(990_000, 2_000_000)), "1% of the shorter");
        assert!(!glitch(&k(0, 1_000_000), &k(10_000, 1_010_000)), "concurrent kernels");
        assert!(!glitch(&k(0, 1_000_000), &k(500_000, 500_500)), "a kernel inside another");
        assert!(!glitch(&k(0, 1_000), &k(1_000, 2_000)), "touching is no overlap");
    }
}
