//! The counter plan: which aqlprofile events the library programs, per GPU and counter group.

use crate::names;

/// One aqlprofile event (`aqlprofile_pmc_event_t`): what the CLI's pass planner chose, what the
/// library programs (`rocprof-packets`) and what the capture records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PmcEvent {
    /// Block enum (`aqlprofile_block_name_t`).
    pub block_enum: u32,
    /// Block instance.
    pub block_index: u32,
    /// Hardware event id.
    pub event_id: u32,
    /// Raw event flags (SQ accumulation: 1 LO_RES, 2 HI_RES).
    pub flags: u32,
}

impl PmcEvent {
    /// The text form used in the environment and the capture: `block.index.event.flags`.
    pub fn to_text(self) -> String {
        format!("{}.{}.{}.{}", self.block_enum, self.block_index, self.event_id, self.flags)
    }

    /// Parses [`PmcEvent::to_text`]'s form.
    pub fn parse(text: &str) -> Option<PmcEvent> {
        let mut it = text.split('.').map(|p| p.parse::<u32>().ok());
        let e =
            PmcEvent { block_enum: it.next()??, block_index: it.next()??, event_id: it.next()??, flags: it.next()?? };
        it.next().is_none().then_some(e)
    }

    /// A comma-separated list of [`PmcEvent::to_text`] forms.
    pub fn list_to_text(events: &[PmcEvent]) -> String {
        events.iter().map(|e| e.to_text()).collect::<Vec<_>>().join(",")
    }

    /// Parses [`PmcEvent::list_to_text`]'s form; `None` if any item is malformed.
    pub fn parse_list(text: &str) -> Option<Vec<PmcEvent>> {
        text.split(',').filter(|s| !s.is_empty()).map(PmcEvent::parse).collect()
    }
}

/// What one programmed event samples (the event-to-sample mapping): the hardware counter its
/// samples add to and the block table it belongs to. The event's SQ accumulation is its
/// [`PmcEvent::flags`]. The CLI's planner decides it, the library records it in the capture, and
/// post-processing reads the samples back with it (it never plans again).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct EventSource {
    /// Hardware counter name, e.g. `SQ_WAVES`.
    pub counter: String,
    /// Block table name, e.g. `SQ`.
    pub block: String,
}

impl EventSource {
    /// The text form used in the environment and the capture: `counter@block`.
    pub fn to_text(&self) -> String {
        format!("{}@{}", self.counter, self.block)
    }

    /// Parses [`EventSource::to_text`]'s form.
    pub fn parse(text: &str) -> Option<EventSource> {
        let (counter, block) = text.split_once('@')?;
        let ok = |s: &str| !s.is_empty() && !s.contains(['@', ',', '|', ';', ' ']);
        (ok(counter) && ok(block)).then(|| EventSource { counter: counter.to_string(), block: block.to_string() })
    }

    /// A comma-separated list of [`EventSource::to_text`] forms.
    pub fn list_to_text(sources: &[EventSource]) -> String {
        sources.iter().map(EventSource::to_text).collect::<Vec<_>>().join(",")
    }

    /// Parses [`EventSource::list_to_text`]'s form; `None` if any item is malformed.
    pub fn parse_list(text: &str) -> Option<Vec<EventSource>> {
        text.split(',').filter(|s| !s.is_empty()).map(EventSource::parse).collect()
    }
}

/// One counter group of one GPU.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CounterGroup {
    /// GPU index (rocprofv3's `gpu_index`).
    pub gpu: u32,
    /// Group number (0 unless groups are multiplexed).
    pub group: u32,
    /// The counters requested, in request order.
    pub counters: Vec<String>,
    /// The events to program, in programming order.
    pub events: Vec<PmcEvent>,
    /// What each of [`CounterGroup::events`] samples, in the same order (one per event).
    pub sources: Vec<EventSource>,
}

impl CounterGroup {
    /// The counter names as the capture records them (space-separated).
    pub fn counters_text(&self) -> String {
        self.counters.join(" ")
    }
}

/// What counter collection the library does: the groups of every GPU and how often groups switch.
/// Carried in [`names::PMC`] (`gpu|group|counter names|events|event sources` entries separated by
/// `;`) and
/// [`names::PMC_INTERVAL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterPlan {
    /// Every group.
    pub groups: Vec<CounterGroup>,
    /// Switch groups every this many counted dispatches of a GPU (at least 1).
    pub interval: u64,
}

impl CounterPlan {
    /// `(name, value)` pairs for the launch environment.
    pub fn to_env(&self) -> Vec<(&'static str, String)> {
        let entries: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                let events = PmcEvent::list_to_text(&g.events);
                let sources = EventSource::list_to_text(&g.sources);
                format!("{}|{}|{}|{events}|{sources}", g.gpu, g.group, g.counters_text())
            })
            .collect();
        vec![(names::PMC, entries.join(";")), (names::PMC_INTERVAL, self.interval.to_string())]
    }

    /// Decodes the plan from `get`: `None` when [`names::PMC`] is unset or blank. Malformed entries
    /// are left out and returned as the second item, for the caller to report; a missing or
    /// malformed interval is 1.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Option<(CounterPlan, Vec<String>)> {
        let text = get(names::PMC).filter(|s| !s.trim().is_empty())?;
        let mut groups = Vec::new();
        let mut malformed = Vec::new();
        for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split('|').collect();
            let parsed = (parts.len() == 5)
                .then(|| {
                    let g = CounterGroup {
                        gpu: parts[0].parse().ok()?,
                        group: parts[1].parse().ok()?,
                        counters: parts[2].split(' ').filter(|c| !c.is_empty()).map(str::to_string).collect(),
                        events: PmcEvent::parse_list(parts[3])?,
                        sources: EventSource::parse_list(parts[4])?,
                    };
                    (g.sources.len() == g.events.len()).then_some(g)
                })
                .flatten();
            match parsed {
                Some(g) => groups.push(g),
                None => malformed.push(entry.to_string()),
            }
        }
        let interval = get(names::PMC_INTERVAL).and_then(|v| v.trim().parse().ok()).unwrap_or(1);
        Some((CounterPlan { groups, interval }, malformed))
    }
}
