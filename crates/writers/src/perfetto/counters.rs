//! Counter collection (`--pmc`) in the Perfetto trace, as rocprofv3 draws it: one counter track
//! per agent and counter, `<label> [<index>] PMC <counter>` (e.g. `Agent [1] PMC SQ_WAVES`, no
//! unit), with per dispatch the points `0` at start - 1000 ns, the value at the start and at the
//! midpoint, `0` at the end and at end + 1000 ns, and `0` points 5000 ns outside the first and the
//! last counted dispatch of the process; and each counted kernel slice carries one annotation per
//! counter with the dispatch's value.
//!
//! rocprofv3 collects every point of a track in an ordered map where the first point at a
//! timestamp wins (points of neighbouring dispatches can meet). We keep that rule with a bounded
//! map per track: the oldest points are written once a track holds more than [`WINDOW`] of them,
//! and the rest when the process ends. rocprofv3 stores the values as integers; we keep fractions
//! of derived counters (an integral value is written as an integer).

use std::collections::BTreeMap;

use rocprof_model::counters::{CounterCollection, CounterId, CounterInfo};
use rocprof_model::{AgentId, DispatchId};

use super::{uuid, State};
use crate::{Result, Session};

/// Points held per track before the oldest are written (dispatches arrive in dispatch order,
/// which is time order on a queue and nearly so across queues).
const WINDOW: usize = 512;
/// rocprofv3's padding around each dispatch.
const DISPATCH_PAD_NS: u64 = 1000;
/// rocprofv3's padding around all counted dispatches.
const EXTREME_PAD_NS: u64 = 5000;

/// One `PMC` counter track.
#[derive(Debug, Default)]
pub(super) struct PmcTrack {
    uuid: u64,
    /// Points not yet written, first point per timestamp.
    points: BTreeMap<u64, f64>,
}

/// The counter state of one process.
#[derive(Debug, Default)]
pub(super) struct Counters {
    /// Counter names and agents, by id.
    names: std::collections::HashMap<CounterId, (AgentId, Box<str>)>,
    tracks: std::collections::HashMap<(AgentId, CounterId), PmcTrack>,
    /// Start of the first and end of the last counted dispatch.
    extremes: Option<(u64, u64)>,
    /// The values of dispatches whose slices are not written yet, for their annotations.
    pub(super) held_values: std::collections::HashMap<DispatchId, Vec<(CounterId, f64)>>,
}

impl Counters {
    /// The annotations of dispatch `id`'s slice: counter name and value (removed from the map).
    pub(super) fn slice_args(&mut self, id: DispatchId) -> Vec<(Box<str>, f64)> {
        let Some(values) = self.held_values.remove(&id) else { return Vec::new() };
        values.into_iter().filter_map(|(c, v)| self.names.get(&c).map(|(_, n)| (n.clone(), v))).collect()
    }
}

impl State {
    /// A counter definition: remembered for track names and slice annotations.
    pub(super) fn counter_info(&mut self, session: &Session<'_>, c: &CounterInfo) {
        if let Some(p) = self.process.as_mut() {
            p.counters.names.insert(c.id, (c.agent, session.strings.resolve(c.name).into()));
        }
    }

    /// One dispatch's counters: its points on the counter tracks, and its values on its kernel
    /// slice when that slice has not been written yet (it follows its dispatch record).
    pub(super) fn counter_collection(&mut self, c: &CounterCollection) -> Result<()> {
        if c.values.is_empty() {
            return Ok(());
        }
        let d = &c.dispatch;
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        if p.queues.get(&(d.agent, d.queue)).is_some_and(|q| q.holds(d.dispatch_id)) {
            p.counters.held_values.insert(d.dispatch_id, c.values.iter().map(|v| (v.counter, v.value)).collect());
        }
        let (start, end) = (d.start.ns, d.end.ns.max(d.start.ns));
        let e = p.counters.extremes.get_or_insert((start, end));
        *e = (e.0.min(start), e.1.max(end));
        let mid = start + (end - start) / 2;
        for v in &c.values {
            let track = self.pmc_track(d.agent, v.counter)?;
            let points = [
                (start.saturating_sub(DISPATCH_PAD_NS), 0.0),
                (start, v.value),
                (mid, v.value),
                (end, 0.0),
                (end.saturating_add(DISPATCH_PAD_NS), 0.0),
            ];
            let Some(t) = self.process.as_mut().and_then(|p| p.counters.tracks.get_mut(&(d.agent, v.counter))) else {
                continue;
            };
            for (ts, value) in points {
                t.points.entry(ts).or_insert(value);
            }
            let mut old = Vec::new();
            while t.points.len() > WINDOW {
                old.extend(t.points.pop_first());
            }
            for (ts, value) in old {
                self.counter(track, ts, value)?;
            }
        }
        Ok(())
    }

    /// The uuid of the track of `counter` on `agent`, writing its descriptor on first use.
    fn pmc_track(&mut self, agent: AgentId, counter: CounterId) -> Result<u64> {
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        if let Some(t) = p.counters.tracks.get(&(agent, counter)) {
            return Ok(t.uuid);
        }
        let u = uuid(p.pid, 6, (u64::from(agent.0) << 32) ^ u64::from(counter.0));
        let bracketed = p.agents.get(&agent).map_or_else(|| format!("Agent [{}]", agent.0), |a| a.bracketed.clone());
        let name =
            p.counters.names.get(&counter).map_or_else(|| format!("counter {}", counter.0), |(_, n)| n.to_string());
        p.counters.tracks.insert((agent, counter), PmcTrack { uuid: u, points: BTreeMap::new() });
        self.counter_track(u, &format!("{bracketed} PMC {name}"), false)?;
        Ok(u)
    }

    /// At the end of a process: the `0` points around all counted dispatches, and every point
    /// still held.
    pub(super) fn flush_counters(&mut self) -> Result<()> {
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let extremes = p.counters.extremes.take();
        let mut tracks: Vec<PmcTrack> = p.counters.tracks.drain().map(|(_, t)| t).collect();
        tracks.sort_by_key(|t| t.uuid);
        for mut t in tracks {
            if let Some((first, last)) = extremes {
                t.points.entry(first.saturating_sub(EXTREME_PAD_NS)).or_insert(0.0);
                t.points.entry(last.saturating_add(EXTREME_PAD_NS)).or_insert(0.0);
            }
            for (ts, value) in t.points {
                self.counter(t.uuid, ts, value)?;
            }
        }
        Ok(())
    }
}
