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
//! Streaming: per queue at most [`REORDER`] dispatches wait in a heap ordered by start (records
//! arrive in completion order, which concurrent kernels can shuffle), and one more is held back
//! for the middle rule; everything else is written as it arrives.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use rocprof_model::{AgentId, DispatchId, KernelDispatch, QueueId};

use super::{uuid, State};
use crate::Result;

/// Dispatches per queue waiting to be put in start order.
const REORDER: usize = 32;
/// An overlap up to this long (ns) is taken for a timestamp error ...
const GLITCH_NS: u64 = 1_000;
/// ... and so is one up to this fraction (1/n) of the shorter kernel.
const GLITCH_FRACTION: u64 = 100;

/// A dispatch ordered by (start, dispatch id).
#[derive(Debug, Clone, Copy)]
struct ByStart(KernelDispatch);

impl ByStart {
    fn key(&self) -> (u64, DispatchId) {
        (self.0.start.ns, self.0.dispatch_id)
    }
}

impl PartialEq for ByStart {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for ByStart {}

impl PartialOrd for ByStart {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByStart {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// The dispatches of one queue not yet written.
#[derive(Debug, Default)]
pub(super) struct QueueOrder {
    /// Waiting to be put in start order (earliest on top).
    pending: BinaryHeap<Reverse<ByStart>>,
    /// The latest in start order, held back until the next one (its end may still move).
    held: Option<KernelDispatch>,
}

impl QueueOrder {
    /// Whether dispatch `id` has not been written yet.
    pub(super) fn holds(&self, id: DispatchId) -> bool {
        self.held.is_some_and(|h| h.dispatch_id == id) || self.pending.iter().any(|p| p.0 .0.dispatch_id == id)
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
        let key = (d.agent, d.queue);
        let q = p.queues.entry(key).or_default();
        q.pending.push(Reverse(ByStart(d)));
        if q.pending.len() <= REORDER {
            return Ok(());
        }
        let Some(Reverse(ByStart(next))) = q.pending.pop() else { return Ok(()) };
        self.place(key, next)
    }

    /// `next` is the queue's next dispatch by start: writes the one held before it, after the
    /// middle rule when the two overlap by a timestamp error, and holds `next`.
    fn place(&mut self, key: (AgentId, QueueId), mut next: KernelDispatch) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let q = p.queues.entry(key).or_default();
        let Some(mut prev) = q.held.take() else {
            q.held = Some(next);
            return Ok(());
        };
        if glitch(&prev, &next) {
            let mid = next.start.ns + (prev.end.ns - next.start.ns) / 2;
            prev.end.ns = mid;
            next.start.ns = mid;
        }
        q.held = Some(next);
        self.kernel_slice(&prev)
    }

    /// Writes every dispatch not yet written, queue by queue in start order.
    pub(super) fn flush_held(&mut self) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let mut keys: Vec<(AgentId, QueueId)> = p.queues.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            loop {
                let Some(p) = self.process.as_mut() else { return Ok(()) };
                let Some(Reverse(ByStart(next))) = p.queues.get_mut(&key).and_then(|q| q.pending.pop()) else {
                    break;
                };
                self.place(key, next)?;
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
