//! Host-side OTF2 locations: API and marker calls per thread (`Thread <tid>`), memory copies per
//! issuing thread and destination agent (`Thread <tid>, Copy to GPU Agent-1`) and allocations per
//! thread and agent (`Thread <tid>, Memory Operation at GPU Agent-1`), as rocprofv3's section 5.
//!
//! Records do not arrive in start order (a capture delivers an API call when it returns, so an
//! enclosing call comes after the calls it made; copies complete out of order), while OTF2 wants
//! each location's events in time order and properly nested. Each location therefore keeps a
//! bounded reorder buffer of ENTER/LEAVE events ([`WINDOW`] events) and writes the earliest ones
//! once it is full, and everything at the end of the process. Events are ordered by time, then
//! LEAVE before ENTER, then so that nesting holds at equal times (the longer call enters first,
//! the inner call leaves first; a call of zero length enters before it leaves). An event that
//! would still go back in time (its record arrived more than a window late) is moved to the
//! location's last time, and a LEAVE of a call that is not the innermost open one first closes
//! the calls opened inside it (partial overlaps, e.g. asynchronous copies on one location, or
//! `roctxRangeStart`/`Stop` pairs across nested calls); both are counted as clamped.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};

/// Events a location holds back before writing the earliest (per location, so a call may enclose
/// up to about half this many later-delivered calls and still be written at its own time).
pub(super) const WINDOW: usize = 16_384;

/// One pending ENTER or LEAVE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Event {
    time: u64,
    /// 0: LEAVE of a call with a duration; 1: ENTER; 2: LEAVE of a call of zero length.
    class: u8,
    /// Nesting order at equal time and class: ENTERs by later end first, LEAVEs by later start
    /// first (both stored inverted so that the smaller key goes first).
    tie: u64,
    /// Record number (unique per writer): ties broken in arrival order (ENTER) or its inverse.
    seq: u64,
    region: u32,
    category: u32,
}

/// A host location's pending events and open calls.
#[derive(Debug, Default)]
pub(super) struct HostQueue {
    /// Pending events that arrived in order (each not before the previous one): most of them,
    /// kept without the heap's cost.
    in_order: VecDeque<Event>,
    /// The other pending events.
    pending: BinaryHeap<Reverse<Event>>,
    /// Open calls (seq, region), innermost last.
    open: Vec<(u64, u32)>,
    /// Calls closed early by an enclosing call's LEAVE (their own LEAVE is skipped).
    closed: HashSet<u64>,
}

/// What a [`HostQueue`] asks its writer to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Out {
    /// ENTER `region` at `time` with category attribute value `category`.
    Enter { time: u64, region: u32, category: u32 },
    /// LEAVE `region` at `time`.
    Leave { time: u64, region: u32 },
}

impl HostQueue {
    fn queue(&mut self, e: Event) {
        match self.in_order.back() {
            Some(last) if e < *last => self.pending.push(Reverse(e)),
            _ => self.in_order.push_back(e),
        }
    }

    /// The earliest pending event (the smaller head of the two sorted sources).
    fn take_earliest(&mut self) -> Option<Event> {
        match (self.in_order.front(), self.pending.peek()) {
            (Some(a), Some(Reverse(b))) if b < a => self.pending.pop().map(|Reverse(e)| e),
            (Some(_), _) => self.in_order.pop_front(),
            (None, _) => self.pending.pop().map(|Reverse(e)| e),
        }
    }

    /// Queues one call `[start, end]` (record number `seq`).
    pub(super) fn push(&mut self, seq: u64, start: u64, end: u64, region: u32, category: u32) {
        let end = end.max(start);
        let enter = Event { time: start, class: 1, tie: u64::MAX - end, seq, region, category };
        let leave = if end == start {
            Event { time: end, class: 2, tie: 0, seq: u64::MAX - seq, region, category }
        } else {
            Event { time: end, class: 0, tie: u64::MAX - start, seq: u64::MAX - seq, region, category }
        };
        self.queue(enter);
        self.queue(leave);
    }

    /// Whether the buffer is over its window (the writer then calls [`HostQueue::pop`]).
    pub(super) fn over_window(&self) -> bool {
        self.in_order.len() + self.pending.len() > WINDOW
    }

    /// Whether events are pending.
    pub(super) fn is_empty(&self) -> bool {
        self.in_order.is_empty() && self.pending.is_empty()
    }

    /// Takes the earliest pending event and appends what to write for it to `out`, with times
    /// never below `*last` (updated); returns how many events were clamped.
    pub(super) fn pop(&mut self, last: &mut u64, out: &mut Vec<Out>) -> u64 {
        let Some(e) = self.take_earliest() else { return 0 };
        if e.class != 1 && self.closed.remove(&(u64::MAX - e.seq)) {
            return 0;
        }
        let mut clamped = 0;
        let time = if e.time < *last {
            clamped += 1;
            *last
        } else {
            e.time
        };
        *last = time;
        if e.class == 1 {
            self.open.push((e.seq, e.region));
            out.push(Out::Enter { time, region: e.region, category: e.category });
            return clamped;
        }
        let seq = u64::MAX - e.seq;
        match self.open.iter().rposition(|&(s, _)| s == seq) {
            Some(i) => {
                // Calls opened inside this one that are still open end with it.
                while self.open.len() > i + 1 {
                    let (s, region) = self.open.pop().expect("len > i + 1");
                    self.closed.insert(s);
                    out.push(Out::Leave { time, region });
                    clamped += 1;
                }
                self.open.pop();
                out.push(Out::Leave { time, region: e.region });
            }
            // Not open (cannot happen: an ENTER sorts before its LEAVE); keep the pair balanced.
            None => clamped += 1,
        }
        clamped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut HostQueue) -> (Vec<Out>, u64) {
        let (mut last, mut out, mut clamped) = (0, Vec::new(), 0);
        while !q.is_empty() {
            clamped += q.pop(&mut last, &mut out);
        }
        (out, clamped)
    }

    #[test]
    fn calls_delivered_inner_first_are_written_nested_in_time_order() {
        let mut q = HostQueue::default();
        q.push(1, 20, 30, 2, 0); // inner call, delivered first
        q.push(2, 10, 40, 1, 0); // its enclosing call
        q.push(3, 40, 40, 3, 0); // zero length, starts when the outer one ends
        let (out, clamped) = drain(&mut q);
        assert_eq!(clamped, 0);
        assert_eq!(
            out,
            [
                Out::Enter { time: 10, region: 1, category: 0 },
                Out::Enter { time: 20, region: 2, category: 0 },
                Out::Leave { time: 30, region: 2 },
                Out::Leave { time: 40, region: 1 },
                Out::Enter { time: 40, region: 3, category: 0 },
                Out::Leave { time: 40, region: 3 },
            ]
        );
    }

    #[test]
    fn equal_times_nest_and_partial_overlaps_stay_balanced() {
        let mut q = HostQueue::default();
        q.push(1, 10, 20, 1, 0);
        q.push(2, 10, 30, 2, 0); // same start, longer: enters first
        q.push(3, 25, 50, 3, 0); // overlaps the end of 2 without nesting
        let (out, clamped) = drain(&mut q);
        let enters = out.iter().filter(|o| matches!(o, Out::Enter { .. })).count();
        let leaves = out.iter().filter(|o| matches!(o, Out::Leave { .. })).count();
        assert_eq!((enters, leaves), (3, 3));
        assert_eq!(out[0], Out::Enter { time: 10, region: 2, category: 0 });
        assert_eq!(out[1], Out::Enter { time: 10, region: 1, category: 0 });
        // 3 is closed with 2 at 30 (clamped once), its own LEAVE at 50 skipped.
        assert_eq!(clamped, 1);
        assert_eq!(out[4..], [Out::Leave { time: 30, region: 3 }, Out::Leave { time: 30, region: 2 }]);
        let mut stack = Vec::new();
        for o in &out {
            match o {
                Out::Enter { region, .. } => stack.push(*region),
                Out::Leave { region, .. } => assert_eq!(stack.pop(), Some(*region)),
            }
        }
    }

    #[test]
    fn a_call_arriving_after_its_window_is_moved_not_dropped() {
        let mut q = HostQueue::default();
        let (mut last, mut out, mut clamped) = (0, Vec::new(), 0);
        for i in 0..WINDOW as u64 {
            q.push(i, 100 + 10 * i, 105 + 10 * i, 1, 0);
            while q.over_window() {
                clamped += q.pop(&mut last, &mut out);
            }
        }
        q.push(u64::MAX / 4, 0, 50, 2, 0); // far too late
        while !q.is_empty() {
            clamped += q.pop(&mut last, &mut out);
        }
        assert_eq!(out.len(), 2 * (WINDOW + 1));
        assert!(clamped >= 1);
        let times: Vec<u64> = out
            .iter()
            .map(|o| match o {
                Out::Enter { time, .. } | Out::Leave { time, .. } => *time,
            })
            .collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
    }
}
