//! Counter-collection records (`--pmc`).
//!
//! Two stages, so that nothing heavy runs inside the profiled process:
//!
//! * what the capture carries: [`PmcGroup`] (definition: for one agent and counter group, the
//!   counters requested, the aqlprofile events programmed for them and what each event samples) and [`PmcOutput`] (event: the
//!   raw output buffer the read packet filled for one dispatch, or why there is none);
//! * what the writers get: [`CounterInfo`] (definition: a counter collected on an agent, with its
//!   description, block, expression and dimensions) and [`CounterCollection`] (event: one dispatch with
//!   the value of every counter collected for it). The CLI turns the first pair into the second with
//!   the counter database (`rocprof-counters`); writers ignore the raw kinds.
//!
//! A [`CounterCollection`] carries a copy of its [`KernelDispatch`], so a writer can write a row of
//! `counter_collection.csv` (or a Perfetto counter track) from the record alone.

use crate::records::{AgentId, DispatchId, KernelDispatch, StringId};

/// Identifies a [`CounterInfo`] within a process section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CounterId(pub u32);

/// One aqlprofile event as programmed (the launch contract's type, also `rocprof-packets`'), and
/// what it samples.
pub use rocprof_launch::{EventSource, PmcEvent};

/// One counter group of one agent, as the interception library programmed it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PmcGroup {
    /// The agent.
    pub agent: AgentId,
    /// Its index among the GPUs (rocprofv3's `gpu_index`, the `:device=N` of `--pmc`).
    pub gpu_index: u32,
    /// Group number (0 unless `pmc_groups` multiplexes several).
    pub group: u32,
    /// The counters requested in this group, in request order.
    pub counters: Vec<String>,
    /// The aqlprofile events programmed for them, in programming order.
    pub events: Vec<PmcEvent>,
    /// What each of `events` samples, in the same order (the event-to-sample mapping the run
    /// used); empty in captures written before the capture recorded it.
    pub sources: Vec<EventSource>,
    /// Output buffer bytes per dispatch.
    pub output_size: u32,
}

/// Whether a dispatch's counters could be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum PmcStatus {
    /// Read after the dispatch completed.
    #[default]
    Ok = 0,
    /// No free output buffer (more counted dispatches in flight than the pool holds).
    PoolExhausted = 1,
    /// The read packet did not complete (the process ended first, the queue was destroyed, or its
    /// completion signal never came).
    NotRead = 2,
    /// The output did not fit into the capture.
    Lost = 3,
    /// The values could not be evaluated (malformed output or an unknown group).
    Invalid = 4,
}

impl PmcStatus {
    /// From the capture's number (unknown numbers are [`PmcStatus::Invalid`]).
    pub fn from_u32(v: u32) -> PmcStatus {
        match v {
            0 => PmcStatus::Ok,
            1 => PmcStatus::PoolExhausted,
            2 => PmcStatus::NotRead,
            3 => PmcStatus::Lost,
            _ => PmcStatus::Invalid,
        }
    }

    /// A short reason, for messages (`ok` when read).
    pub fn reason(self) -> &'static str {
        match self {
            PmcStatus::Ok => "ok",
            PmcStatus::PoolExhausted => "no free counter buffer",
            PmcStatus::NotRead => "counters not read back",
            PmcStatus::Lost => "counter output lost",
            PmcStatus::Invalid => "counter output could not be evaluated",
        }
    }
}

/// The raw counter output of one dispatch.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PmcOutput {
    /// The dispatch.
    pub dispatch: DispatchId,
    /// Its agent.
    pub agent: AgentId,
    /// The [`PmcGroup::group`] it was collected with.
    pub group: u32,
    /// Whether it was read.
    pub status: PmcStatus,
    /// The output buffer (empty unless `status` is `Ok`).
    pub bytes: Vec<u8>,
}

/// A counter collected on an agent (rocpd's `rocpd_info_pmc`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CounterInfo {
    /// Id within the process section.
    pub id: CounterId,
    /// The agent.
    pub agent: AgentId,
    /// Counter name, e.g. `SQ_WAVES`.
    pub name: StringId,
    /// One-line description.
    pub description: StringId,
    /// Hardware block (empty for derived counters).
    pub block: StringId,
    /// Expression (empty for hardware counters).
    pub expression: StringId,
    /// Derived from other counters.
    pub is_derived: bool,
    /// Dimensions as text, e.g. `DIMENSION_XCC[0:7] DIMENSION_SHADER_ENGINE[0:3]`.
    pub dimensions: StringId,
}

/// One counter's value for one dispatch: the sum over its dimensions (what rocprofv3's
/// `counter_collection.csv` shows).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CounterValue {
    /// The counter.
    pub counter: CounterId,
    /// Its name (same string as the [`CounterInfo`]'s).
    pub name: StringId,
    /// The value.
    pub value: f64,
}

/// The counters of one dispatch.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CounterCollection {
    /// The dispatch.
    pub dispatch: KernelDispatch,
    /// Whether the counters were read; when not, `values` is empty (a dispatch whose counters could
    /// not be read is recorded as such, never with zeros).
    pub status: PmcStatus,
    /// Every counter collected for it, in request order.
    pub values: Vec<CounterValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_status_numbers_are_invalid() {
        assert_eq!(PmcStatus::from_u32(2), PmcStatus::NotRead);
        assert_eq!(PmcStatus::from_u32(77), PmcStatus::Invalid);
    }
}
