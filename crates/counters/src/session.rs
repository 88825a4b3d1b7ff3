//! From a planned pass to the packets and back: the aqlprofile events a pass programs
//! ([`pass_events`]), the geometry `rocprof-packets` needs ([`packets_agent`]), and the values of
//! the requested counters from a filled output buffer ([`evaluate_output`]).
//!
//! The interception library builds its packets from [`pass_events`] and records them in the capture
//! with what each samples ([`pass_sources`]); after the run the CLI rebuilds the same [`PmcPlan`]
//! from the recorded events, takes the hardware events back from the recorded mapping
//! ([`recorded_events`], no planning), and turns each dispatch's raw output buffer into counter values
//! here, so parsing and derived-counter evaluation never run inside the profiled process.

use std::collections::HashMap;

use rocprof_launch::EventSource;
use rocprof_packets::parse::parse_pmc;
use rocprof_packets::{PmcEvent, PmcPlan};

use crate::db::{Agent, Target};
use crate::dims::element_count;
use crate::error::{Error, Result};
use crate::eval::{evaluate, Samples, Values};
use crate::expr::AccumulateMode;
use crate::layout::block_dimensions;
use crate::plan::HwEvent;

/// The aqlprofile events of `events` (a pass's hardware events): one per block instance
/// (`block_index` 0..instances), with the SQ accumulation flag, in the given order.
pub fn pass_events(events: &[HwEvent]) -> Vec<PmcEvent> {
    let mut out = Vec::new();
    for e in events {
        for i in 0..e.instances.max(1) {
            out.push(PmcEvent {
                block_enum: e.block_enum,
                block_index: i,
                event_id: e.event,
                flags: e.accumulate.aqlprofile_flag(),
            });
        }
    }
    out
}

/// What each event of [`pass_events`]`(events)` samples, in the same order (the event-to-sample
/// mapping the capture records).
pub fn pass_sources(events: &[HwEvent]) -> Vec<EventSource> {
    let mut out = Vec::new();
    for e in events {
        let source = EventSource { counter: e.counter.clone(), block: e.block.clone() };
        out.extend(std::iter::repeat_n(source, e.instances.max(1) as usize));
    }
    out
}

/// The hardware events a run programmed, from its recorded events and what each samples (the
/// inverse of [`pass_events`] and [`pass_sources`]): consecutive events of one counter, block, event
/// id and accumulation are the instances of one hardware event. `None` when the two lists differ in
/// length or an event carries an accumulation flag aqlprofile does not define.
pub fn recorded_events(events: &[PmcEvent], sources: &[EventSource]) -> Option<Vec<HwEvent>> {
    if events.len() != sources.len() {
        return None;
    }
    let mut out: Vec<HwEvent> = Vec::new();
    for (e, s) in events.iter().zip(sources) {
        let accumulate = AccumulateMode::from_aqlprofile_flag(e.flags)?;
        match out.last_mut() {
            Some(last)
                if last.counter == s.counter
                    && last.block == s.block
                    && last.block_enum == e.block_enum
                    && last.event == e.event_id
                    && last.accumulate == accumulate
                    && e.block_index == last.instances =>
            {
                last.instances += 1
            }
            _ => out.push(HwEvent {
                counter: s.counter.clone(),
                block: s.block.clone(),
                block_enum: e.block_enum,
                event: e.event_id,
                instances: 1,
                accumulate,
            }),
        }
    }
    Some(out)
}

/// The agent as `rocprof-packets` describes it.
pub fn packets_agent(agent: &Agent) -> Result<rocprof_packets::Agent> {
    let unsupported =
        |reason: String| Error::Unsupported { counter: String::new(), target: agent.target.clone(), reason };
    let t = rocprof_packets::Target::from_name(&agent.target).map_err(|e| unsupported(e.to_string()))?;
    rocprof_packets::Agent::new(t, agent.cu_num, agent.se_num, agent.shader_arrays_per_se, agent.xcc_num)
        .map_err(|e| unsupported(e.to_string()))
}

/// The packet plan of a pass on `agent`.
pub fn pmc_plan(agent: &Agent, events: &[HwEvent]) -> Result<PmcPlan> {
    let a = packets_agent(agent)?;
    PmcPlan::new(&a, &pass_events(events)).map_err(|e| Error::Unsupported {
        counter: events.iter().map(|e| e.counter.as_str()).collect::<Vec<_>>().join(" "),
        target: agent.target.clone(),
        reason: e.to_string(),
    })
}

/// Values of the `requested` counters from one dispatch's output buffer, filled by the read packet of
/// `plan` (built from `events` with [`pmc_plan`]). Each hardware counter's samples are placed at their
/// aqlprofile sample id, which is their row-major index over [`block_dimensions`].
pub fn evaluate_output(
    target: &Target,
    agent: &Agent,
    plan: &PmcPlan,
    events: &[HwEvent],
    requested: &[String],
    output: &[u8],
) -> Result<Vec<(String, Values)>> {
    let samples = parse_pmc(plan, output).map_err(|e| Error::Eval {
        counter: requested.join(" "),
        target: target.name.clone(),
        message: e.to_string(),
    })?;
    // (block enum, event id, accumulation) -> hardware counter name.
    let names: HashMap<(u32, u32, u32), &HwEvent> =
        events.iter().map(|e| ((e.block_enum, e.event, e.accumulate.aqlprofile_flag()), e)).collect();
    let mut data: HashMap<(String, AccumulateMode), (Vec<crate::dims::DimExtent>, Vec<f64>)> = HashMap::new();
    for s in &samples {
        let flags = plan.events()[s.event_index].event.flags;
        let Some(ev) = names.get(&(s.block_enum, s.event_id, flags)) else { continue };
        let entry = data.entry((ev.counter.clone(), ev.accumulate)).or_insert_with(|| {
            let block = target.block(&ev.block).expect("events come from the target's blocks");
            let dims = block_dimensions(target.family, block, agent);
            let n = element_count(&dims);
            (dims, vec![0.0; n])
        });
        if let Some(slot) = entry.1.get_mut(s.sample_id as usize) {
            *slot += s.value as f64;
        }
    }
    let mut set = Samples::new();
    for ((name, mode), (dims, values)) in data {
        set.insert_accumulated(&name, mode, Values::new(dims, values)?);
    }
    requested.iter().map(|name| Ok((name.clone(), evaluate(target, agent, name, &set)?))).collect()
}
