//! Memory activity in the Perfetto trace, as rocprofv3 draws it (`rocprofv3-outputs.md`
//! section 4):
//!
//! * a copy is a `memory_copy` slice named after its direction (`MEMORY_COPY_HOST_TO_DEVICE`, ...)
//!   on its HIP stream's track when it has one (and `--group-by-queue` is off), else on the track
//!   `COPY to AGENT [<logical node id>] THREAD [<n>] (<type>)` of its destination agent and issuing
//!   thread (n = 0 for the main thread, then by appearance; a copy overlapping the last one there
//!   goes on a second track of that name), with rocprofv3's annotations and the flow of its
//!   correlation id (from the API call that issued it);
//! * counter tracks per agent, unit bytes with multiplier 1024 (values in KiB):
//!   `COPY BYTES to <label> [<index>] (<type>)` — bytes in flight, sampled at each copy's
//!   start - 1000, start, midpoint, end and end + 1000 ns (the value at a point is the sum of the
//!   bytes of the copies whose [start, end] contains it); `ALLOCATE BYTES on ...` — the running
//!   total of allocated bytes (an allocation adds its size at its start, a free matched by address
//!   subtracts it); `SCRATCH MEMORY on ...` — the scratch bytes the runtime holds (the size at an
//!   allocation's start and end, 0 at a free or reclaim). Each track has 0 points 5000 ns before
//!   the first and after the last record of its kind in the process. Allocations and scratch
//!   records are counter tracks only (no slices), as in rocprofv3.
//!
//! Streaming: each counter track holds at most [`WINDOW`] points and writes the oldest beyond
//! that; records arrive in close to time order, so a point is final long before it is written.
//! Unlike rocprofv3, values are not truncated to whole KiB (a fractional value is written as a
//! double).

use std::collections::{BTreeMap, HashMap};

use rocprof_model::{AgentId, MemoryAllocation, MemoryCopy, ScratchMemory, ScratchMemoryOp, ThreadId};

use super::{uuid, Ann, State, Value};
use crate::Result;

/// Points held per counter track before the oldest are written.
const WINDOW: usize = 512;
/// rocprofv3's padding around each copy.
const COPY_PAD_NS: u64 = 1000;
/// rocprofv3's padding around all records of a kind.
const EXTREME_PAD_NS: u64 = 5000;
/// rocprofiler-sdk's `ROCPROFILER_BUFFER_TRACING_MEMORY_COPY`.
const KIND_MEMORY_COPY: u64 = 10;

/// What a counter track shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Gauge {
    CopyBytes,
    AllocateBytes,
    Scratch,
}

impl Gauge {
    fn uuid_kind(self) -> u64 {
        match self {
            Self::CopyBytes => 7,
            Self::AllocateBytes => 8,
            Self::Scratch => 9,
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            Self::CopyBytes => "COPY BYTES to",
            Self::AllocateBytes => "ALLOCATE BYTES on",
            Self::Scratch => "SCRATCH MEMORY on",
        }
    }
}

/// One counter track's points not yet written (timestamp -> value in bytes, or for allocations
/// the change at that time).
#[derive(Debug, Default)]
struct GaugeTrack {
    uuid: u64,
    points: BTreeMap<u64, i64>,
    /// Allocations: the total written so far.
    total: i64,
}

/// One track of copies to an agent from a thread.
#[derive(Debug, Clone, Copy)]
struct CopyLane {
    uuid: u64,
    last_end: u64,
}

/// The memory state of one process.
#[derive(Debug, Default)]
pub(super) struct Memory {
    /// Copy tracks by (destination agent, thread): one lane per track, each with the end of
    /// its last copy.
    copy_tracks: HashMap<(AgentId, ThreadId), Vec<CopyLane>>,
    gauges: HashMap<(Gauge, AgentId), GaugeTrack>,
    /// Recent copies per destination agent (start, end, bytes): the ones that can still contain
    /// a new point.
    recent_copies: HashMap<AgentId, Vec<(u64, u64, u64)>>,
    /// Live allocations: address -> (agent, bytes).
    live: HashMap<u64, (AgentId, u64)>,
    /// First start and last end per kind.
    extremes: HashMap<Gauge, (u64, u64)>,
}

impl Memory {
    fn extend(&mut self, g: Gauge, start: u64, end: u64) {
        let e = self.extremes.entry(g).or_insert((start, end));
        *e = (e.0.min(start), e.1.max(end));
    }
}

impl State {
    /// The track of a copy from `start` to `end` to `agent` issued by `thread` when it has no
    /// stream track. Asynchronous copies of one thread to one agent can overlap, and Perfetto
    /// pairs a slice's end with the innermost open slice of its track, so a copy that starts
    /// before the last one on the track ended goes on another track of the same name (rocprofv3
    /// puts it on the same track, where the trace processor then mismatches their ends).
    fn copy_track(&mut self, agent: AgentId, thread: ThreadId, start: u64, end: u64) -> Result<u64> {
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        let lanes = p.memory.copy_tracks.entry((agent, thread)).or_default();
        if let Some(lane) = lanes.iter_mut().find(|l| l.last_end <= start) {
            lane.last_end = end;
            return Ok(lane.uuid);
        }
        let k = lanes.len() as u64;
        let n = self.thread_number(thread);
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        let u = uuid(p.pid, 10, (k << 56) ^ (u64::from(agent.0) << 32) ^ u64::from(thread.0));
        p.memory.copy_tracks.entry((agent, thread)).or_default().push(CopyLane { uuid: u, last_end: end });
        let (node, type_name) = p.agents.get(&agent).map_or((agent.0, "UNK"), |a| (a.logical_node_id, a.type_name));
        self.named_track(u, &format!("COPY to AGENT [{node}] THREAD [{n}] ({type_name})"))?;
        Ok(u)
    }

    /// The counter track of `g` on `agent`, its descriptor written on first use.
    fn gauge(&mut self, g: Gauge, agent: AgentId) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        if p.memory.gauges.contains_key(&(g, agent)) {
            return Ok(());
        }
        let u = uuid(p.pid, g.uuid_kind(), u64::from(agent.0));
        let name = match p.agents.get(&agent) {
            Some(a) => format!("{} {} ({})", g.prefix(), a.bracketed, a.type_name),
            None => format!("{} Agent [{}] (UNK)", g.prefix(), agent.0),
        };
        p.memory.gauges.insert((g, agent), GaugeTrack { uuid: u, ..GaugeTrack::default() });
        self.counter_track(u, &name, true)
    }

    /// Writes the points of `g` on `agent` beyond the window (all of them with `all`).
    fn drain_gauge(&mut self, g: Gauge, agent: AgentId, all: bool) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let Some(t) = p.memory.gauges.get_mut(&(g, agent)) else { return Ok(()) };
        let keep = if all { 0 } else { WINDOW };
        if t.points.len() <= keep {
            return Ok(());
        }
        let mut out = Vec::with_capacity(t.points.len() - keep);
        while t.points.len() > keep {
            let Some((ts, v)) = t.points.pop_first() else { break };
            let value = if g == Gauge::AllocateBytes {
                t.total = (t.total + v).max(0);
                t.total
            } else {
                v
            };
            out.push((ts, value));
        }
        let oldest = t.points.first_key_value().map(|(&ts, _)| ts);
        let track = t.uuid;
        if g == Gauge::CopyBytes {
            let recent = p.memory.recent_copies.entry(agent).or_default();
            match oldest {
                Some(oldest) => recent.retain(|c| c.1 >= oldest),
                None => recent.clear(),
            }
        }
        for (ts, value) in out {
            self.counter(track, ts, value as f64 / 1024.0)?;
        }
        Ok(())
    }

    /// One memory copy: its slice and its points on the destination's `COPY BYTES` track.
    pub(super) fn memory_copy(&mut self, c: &MemoryCopy) -> Result<()> {
        if self.process.is_none() {
            return Ok(());
        }
        let (start, end) = (c.start.ns, c.end.ns.max(c.start.ns));
        let track = if c.stream.0 != 0 && !self.options.group_by_queue {
            self.stream_track(c.stream.0)?
        } else {
            self.copy_track(c.dst_agent, c.thread, start, end)?
        };
        let name_iid = self.name_iid(c.direction.as_str());
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        p.end_ns = p.end_ns.max(c.end.ns);
        let dashed = |a: AgentId| p.agents.get(&a).map_or_else(|| format!("Agent-{}", a.0), |a| a.dashed.clone());
        let (src, dst) = (dashed(c.src_agent), dashed(c.dst_agent));
        let flow = self.flow(c.correlation.internal.0);
        let args = [
            (Ann::BeginNs, Value::Uint(c.start.ns)),
            (Ann::EndNs, Value::Uint(c.end.ns)),
            (Ann::DeltaNs, Value::Uint(c.duration_ns())),
            (Ann::Kind, Value::Uint(KIND_MEMORY_COPY)),
            (Ann::Operation, Value::Uint(c.direction as u64)),
            (Ann::SrcAgent, Value::Str(&src)),
            (Ann::DstAgent, Value::Str(&dst)),
            (Ann::CopyBytes, Value::Uint(c.bytes)),
            (Ann::CorrId, Value::Uint(c.correlation.internal.0)),
            (Ann::Tid, Value::Uint(u64::from(c.thread.0))),
            (Ann::StreamId, Value::Uint(c.stream.0)),
        ];
        self.slice(track, "memory_copy", name_iid, start, Some(end), flow, &args, &[])?;

        // Bytes in flight on the destination agent.
        self.gauge(Gauge::CopyBytes, c.dst_agent)?;
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        p.memory.extend(Gauge::CopyBytes, start, end);
        let recent = p.memory.recent_copies.entry(c.dst_agent).or_default();
        let Some(t) = p.memory.gauges.get_mut(&(Gauge::CopyBytes, c.dst_agent)) else { return Ok(()) };
        let mid = start + (end - start) / 2;
        for ts in [start.saturating_sub(COPY_PAD_NS), start, mid, end, end + COPY_PAD_NS] {
            t.points
                .entry(ts)
                .or_insert_with(|| recent.iter().filter(|r| r.0 <= ts && ts <= r.1).map(|r| r.2 as i64).sum());
        }
        for (_, v) in t.points.range_mut(start..=end) {
            *v += c.bytes as i64;
        }
        recent.push((start, end, c.bytes));
        self.drain_gauge(Gauge::CopyBytes, c.dst_agent, false)
    }

    /// One allocation or free: its change on the agent's `ALLOCATE BYTES` track (a free is
    /// matched to its allocation by address; unmatched frees, e.g. of NULL, change nothing).
    pub(super) fn memory_allocation(&mut self, m: &MemoryAllocation) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        p.end_ns = p.end_ns.max(m.end.ns);
        let (agent, delta) = if m.operation.is_allocation() {
            let Some(agent) = m.agent else { return Ok(()) };
            p.memory.live.insert(m.address, (agent, m.size));
            (agent, m.size as i64)
        } else {
            let Some((agent, size)) = p.memory.live.remove(&m.address) else { return Ok(()) };
            (agent, -(size as i64))
        };
        let (start, end) = (m.start.ns, m.end.ns.max(m.start.ns));
        p.memory.extend(Gauge::AllocateBytes, start, end);
        self.gauge(Gauge::AllocateBytes, agent)?;
        let Some(t) = self.process.as_mut().and_then(|p| p.memory.gauges.get_mut(&(Gauge::AllocateBytes, agent)))
        else {
            return Ok(());
        };
        *t.points.entry(start).or_insert(0) += delta;
        t.points.entry(end).or_insert(0);
        self.drain_gauge(Gauge::AllocateBytes, agent, false)
    }

    /// One scratch-memory event: the agent's scratch bytes at its start and end.
    pub(super) fn scratch_memory(&mut self, s: &ScratchMemory) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        p.end_ns = p.end_ns.max(s.end.ns);
        let (start, end) = (s.start.ns, s.end.ns.max(s.start.ns));
        p.memory.extend(Gauge::Scratch, start, end);
        self.gauge(Gauge::Scratch, s.agent)?;
        let Some(t) = self.process.as_mut().and_then(|p| p.memory.gauges.get_mut(&(Gauge::Scratch, s.agent))) else {
            return Ok(());
        };
        let value = if s.operation == ScratchMemoryOp::Alloc { s.size as i64 } else { 0 };
        t.points.insert(start, value);
        t.points.insert(end, value);
        self.drain_gauge(Gauge::Scratch, s.agent, false)
    }

    /// At the end of a process: every point still held, and the 0 points around each kind's
    /// records.
    pub(super) fn flush_memory(&mut self) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let mut keys: Vec<(Gauge, AgentId, u64)> = p.memory.gauges.iter().map(|(k, t)| (k.0, k.1, t.uuid)).collect();
        keys.sort_by_key(|k| k.2);
        let extremes = p.memory.extremes.clone();
        for (g, agent, track) in keys {
            self.drain_gauge(g, agent, true)?;
            if let Some(&(first, last)) = extremes.get(&g) {
                self.counter(track, first.saturating_sub(EXTREME_PAD_NS), 0.0)?;
                self.counter(track, last.saturating_add(EXTREME_PAD_NS), 0.0)?;
            }
        }
        if let Some(p) = self.process.as_mut() {
            p.memory = Memory::default();
        }
        Ok(())
    }
}
