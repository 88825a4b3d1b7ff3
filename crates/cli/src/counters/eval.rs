//! Turns the raw counter records of a capture into what writers write: each `PmcGroup` into
//! `Counter` definitions, each dispatch's `PmcOutput` into a `CounterCollection` (the output buffer
//! parsed by `rocprof-packets` with the plan the interception library used, derived counters evaluated
//! by `rocprof-counters`, every counter summed over its dimensions as rocprofv3's CSV shows it).
//!
//! The plan is the capture's, never planned again: the events the group programmed and what each
//! samples (its counter, block and accumulation) are recorded with the group. A group of an older
//! capture that lacks that mapping is not evaluated; its dispatches are reported as not evaluated
//! and the run gets one error line ([`EvalReport::groups_without_sources`]).
//!
//! With automatic replay, the counters of passes 2..N are collected first ([`collect_pass`]) and
//! merged into pass 1's stream ([`Merged`]): dispatches are matched by (kernel name, how many counted
//! dispatches of that kernel came before), so every dispatch carries every counter. Dispatches that
//! cannot be matched (the application's dispatch sequence differed between runs) are counted and
//! reported, never merged by position.

use std::collections::{HashMap, VecDeque};

use rocprof_counters::{Database, HwEvent};
use rocprof_model::counters::{
    CounterCollection, CounterId, CounterInfo, CounterValue, PmcGroup, PmcOutput, PmcStatus,
};
use rocprof_model::{
    AgentId, AgentType, DispatchId, KernelDispatch, KernelId, Record, RecordSource, SourceError, StringId, StringTable,
};
use rocprof_packets::PmcPlan;

/// How one group of one agent is read back.
struct Group {
    plan: PmcPlan,
    events: Vec<HwEvent>,
    counters: Vec<String>,
}

/// Values of the other passes, by (kernel name, counted-dispatch index of that kernel).
#[derive(Debug, Default)]
pub(crate) struct Merged {
    values: HashMap<(u32, String, u64), Vec<(String, f64)>>,
    /// Counter names the other passes collected, per agent node id.
    names: HashMap<u32, Vec<String>>,
    /// Dispatches of the other passes with counters, per pass.
    pub(crate) per_pass: Vec<u64>,
    /// Entries taken while writing pass 1.
    used: std::cell::Cell<u64>,
}

impl Merged {
    /// Dispatches of the other passes that found no dispatch of pass 1 to join.
    pub(crate) fn unmatched(&self) -> u64 {
        (self.values.len() as u64).saturating_sub(self.used.get())
    }
}

/// What evaluation saw.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EvalReport {
    /// Dispatches with counters.
    pub(crate) dispatches: u64,
    /// Dispatches whose counters could not be read or evaluated.
    pub(crate) not_collected: u64,
    /// Of those, by [`PmcStatus`] (its discriminant).
    pub(crate) not_collected_by: [u64; 5],
    /// Dispatches of pass 1 that found no match in some other pass.
    pub(crate) unmatched: u64,
    /// Counter groups whose capture does not record what their events sample (older captures).
    pub(crate) groups_without_sources: u64,
}

/// The adapter (see the module docs).
pub(crate) struct CounterEval<'a> {
    inner: &'a mut dyn RecordSource,
    db: &'a Database,
    keep_dispatches: bool,
    merged: Option<&'a Merged>,
    agents: HashMap<AgentId, (u32, rocprof_counters::Agent)>,
    groups: HashMap<(AgentId, u32), Group>,
    ids: HashMap<(AgentId, String), (CounterId, StringId)>,
    kernels: HashMap<KernelId, StringId>,
    counted: HashMap<(AgentId, StringId), u64>,
    last: Option<KernelDispatch>,
    pending: VecDeque<Record>,
    /// Totals for messages.
    pub(crate) report: EvalReport,
}

impl<'a> CounterEval<'a> {
    /// Wraps `inner`. Without `keep_dispatches` (no `--kernel-trace`) dispatch records are not passed
    /// on (each counter record carries its dispatch).
    pub(crate) fn new(
        inner: &'a mut dyn RecordSource,
        db: &'a Database,
        keep_dispatches: bool,
        merged: Option<&'a Merged>,
    ) -> Self {
        CounterEval {
            inner,
            db,
            keep_dispatches,
            merged,
            agents: HashMap::new(),
            groups: HashMap::new(),
            ids: HashMap::new(),
            kernels: HashMap::new(),
            counted: HashMap::new(),
            last: None,
            pending: VecDeque::new(),
            report: EvalReport::default(),
        }
    }

    /// The id and name string of counter `name` on `agent`, defining it on first use.
    fn counter(&mut self, strings: &mut StringTable, agent: AgentId, name: &str) -> Option<(CounterId, StringId)> {
        if let Some(v) = self.ids.get(&(agent, name.to_string())) {
            return Some(*v);
        }
        let (ordinal, a) = self.agents.get(&agent)?;
        let target = self.db.target(&a.target).ok()?;
        let index = target.counters.iter().position(|c| c.name == name)?;
        // Ids ascend in database order (rocprofv3 lists a dispatch's counters by counter id, which is
        // the definitions' order), unique per agent.
        let id = CounterId(ordinal * 100_000 + index as u32 + 1);
        let counter = &target.counters[index];
        let (block, expression, is_derived) = match &counter.kind {
            rocprof_counters::CounterKind::Base { block, .. } => (block.clone(), String::new(), false),
            rocprof_counters::CounterKind::Derived { source, .. } => (String::new(), source.clone(), true),
        };
        let dims = rocprof_counters::counter_dimensions(self.db, a, name)
            .map(|d| rocprof_counters::format_dims(&d))
            .unwrap_or_default();
        let name_id = strings.intern(name);
        let info = CounterInfo {
            id,
            agent,
            name: name_id,
            description: strings.intern(&rocprof_counters::describe(target, name)),
            block: strings.intern(&block),
            expression: strings.intern(&expression),
            is_derived,
            dimensions: strings.intern(&dims),
        };
        self.pending.push_back(Record::Counter(Box::new(info)));
        self.ids.insert((agent, name.to_string()), (id, name_id));
        Some((id, name_id))
    }

    fn group(&mut self, strings: &mut StringTable, g: &PmcGroup) {
        let Some((_, agent)) = self.agents.get(&g.agent).cloned() else { return };
        if g.sources.is_empty() && !g.events.is_empty() {
            self.report.groups_without_sources += 1;
            return;
        }
        let Some(events) = rocprof_counters::recorded_events(&g.events, &g.sources) else { return };
        let Ok(pa) = rocprof_counters::packets_agent(&agent) else { return };
        let Ok(pmc_plan) = PmcPlan::new(&pa, &g.events) else { return };
        let mut names = g.counters.clone();
        if let Some(extra) = self.merged.and_then(|m| m.names.get(&g.agent.0)) {
            names.extend(extra.iter().cloned());
        }
        let mut sorted: Vec<String> = names.clone();
        sorted.sort_by_key(|n| {
            self.db.target(&agent.target).ok().and_then(|t| t.counters.iter().position(|c| &c.name == n))
        });
        sorted.dedup();
        for n in &sorted {
            self.counter(strings, g.agent, n);
        }
        self.groups.insert((g.agent, g.group), Group { plan: pmc_plan, events, counters: g.counters.clone() });
    }

    fn collection(&mut self, strings: &mut StringTable, o: &PmcOutput) -> CounterCollection {
        let dispatch = match self.last {
            Some(d) if d.dispatch_id == o.dispatch => d,
            _ => KernelDispatch { dispatch_id: o.dispatch, agent: o.agent, ..KernelDispatch::default() },
        };
        self.report.dispatches += 1;
        let mut c = CounterCollection { dispatch, status: o.status, values: Vec::new() };
        if o.status == PmcStatus::Ok {
            match self.evaluate(o) {
                Some(values) => {
                    for (name, v) in values {
                        if let Some((id, name_id)) = self.counter(strings, o.agent, &name) {
                            c.values.push(CounterValue { counter: id, name: name_id, value: v });
                        }
                    }
                }
                None => c.status = PmcStatus::Invalid,
            }
        }
        // Replayed passes: join this dispatch's values from the other runs.
        let kernel = self.kernels.get(&dispatch.kernel).copied().unwrap_or(StringId::EMPTY);
        let n = self.counted.entry((o.agent, kernel)).or_insert(0);
        let index = *n;
        *n += 1;
        if let Some(m) = self.merged {
            let key = (o.agent.0, strings.resolve(kernel).to_string(), index);
            match m.values.get(&key) {
                Some(extra) => {
                    m.used.set(m.used.get() + 1);
                    for (name, v) in extra.clone() {
                        if let Some((id, name_id)) = self.counter(strings, o.agent, &name) {
                            c.values.push(CounterValue { counter: id, name: name_id, value: v });
                        }
                    }
                }
                None => self.report.unmatched += 1,
            }
        }
        c.values.sort_by_key(|v| v.counter);
        c.values.dedup_by_key(|v| v.counter);
        if c.status != PmcStatus::Ok {
            c.values.clear();
            self.report.not_collected += 1;
            if let Some(n) = self.report.not_collected_by.get_mut(c.status as usize) {
                *n += 1;
            }
        }
        c
    }

    /// Evaluates one output: each counter of its group summed over its dimensions.
    fn evaluate(&self, o: &PmcOutput) -> Option<Vec<(String, f64)>> {
        let g = self.groups.get(&(o.agent, o.group))?;
        let (_, agent) = self.agents.get(&o.agent)?;
        let target = self.db.target(&agent.target).ok()?;
        let values =
            rocprof_counters::evaluate_output(target, agent, &g.plan, &g.events, &g.counters, &o.bytes).ok()?;
        Some(values.into_iter().map(|(n, v)| (n, v.data().iter().sum())).collect())
    }
}

impl RecordSource for CounterEval<'_> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        loop {
            if let Some(r) = self.pending.pop_front() {
                return Ok(Some(r));
            }
            let Some(r) = self.inner.next_record(strings)? else { return Ok(None) };
            match r {
                Record::Process(_) => {
                    self.agents.clear();
                    self.groups.clear();
                    self.ids.clear();
                    self.kernels.clear();
                    self.counted.clear();
                    return Ok(Some(r));
                }
                Record::Agent(ref a) => {
                    if a.agent_type == AgentType::Gpu {
                        let ordinal = self.agents.len() as u32 + 1;
                        let name = strings.resolve(a.name).to_string();
                        self.agents.insert(a.id, (ordinal, super::agent_of(a, &name)));
                    }
                    return Ok(Some(r));
                }
                Record::KernelSymbol(ref k) => {
                    self.kernels.insert(k.id, k.formatted_name);
                    return Ok(Some(r));
                }
                Record::PmcGroup(g) => self.group(strings, &g),
                Record::KernelDispatch(d) => {
                    self.last = Some(d);
                    if self.keep_dispatches {
                        return Ok(Some(r));
                    }
                }
                Record::PmcOutput(o) => {
                    let c = self.collection(strings, &o);
                    self.pending.push_back(Record::CounterCollection(Box::new(c)));
                }
                other => return Ok(Some(other)),
            }
        }
    }

    fn len_hint(&self) -> Option<u64> {
        self.inner.len_hint()
    }
}

/// One counted dispatch of a replayed pass: agent, dispatch, kernel, counter values.
type PassDispatch = (AgentId, DispatchId, KernelId, Vec<(String, f64)>);

/// Collects the counters of one replayed pass (a whole capture) for merging into pass 1, adding them
/// to `into`.
pub(crate) fn collect_pass(source: &mut dyn RecordSource, db: &Database, into: &mut Merged) -> Result<(), SourceError> {
    let mut eval = CounterEval::new(source, db, false, None);
    let mut strings = StringTable::new();
    let mut n = 0u64;
    let mut counted: HashMap<(AgentId, String), u64> = HashMap::new();
    let mut kernels: HashMap<KernelId, String> = HashMap::new();
    let mut names: HashMap<AgentId, String> = HashMap::new();
    let mut pending: Vec<PassDispatch> = Vec::new();
    while let Some(r) = eval.next_record(&mut strings)? {
        match r {
            Record::KernelSymbol(k) => {
                kernels.insert(k.id, strings.resolve(k.formatted_name).to_string());
            }
            Record::Counter(c) => {
                let name = strings.resolve(c.name).to_string();
                let list = into.names.entry(c.agent.0).or_default();
                if !list.contains(&name) {
                    list.push(name.clone());
                }
                names.insert(c.agent, name);
            }
            Record::CounterCollection(c) => {
                n += 1;
                let values = c.values.iter().map(|v| (strings.resolve(v.name).to_string(), v.value)).collect();
                pending.push((c.dispatch.agent, c.dispatch.dispatch_id, c.dispatch.kernel, values));
            }
            _ => {}
        }
    }
    pending.sort_by_key(|p| p.1);
    for (agent, _, kernel, values) in pending {
        let name = kernels.get(&kernel).cloned().unwrap_or_default();
        let i = counted.entry((agent, name.clone())).or_insert(0);
        into.values.entry((agent.0, name, *i)).or_default().extend(values);
        *i += 1;
    }
    into.per_pass.push(n);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_model::counters::EventSource;
    use rocprof_model::Trace;

    #[test]
    fn merged_counts_unmatched_entries() {
        let m = Merged::default();
        assert_eq!(m.unmatched(), 0);
    }

    /// One gfx942 dispatch counted with `group`; every sample slot of the output buffer (the layout
    /// `rocprof-packets` reads) holds its index + 1. Returns the collection, the report and the sum of
    /// every slot's value (what a single counter sampled by every event totals).
    fn evaluate_one(group: PmcGroup) -> (CounterCollection, Vec<String>, EvalReport, f64) {
        let board = rocprof_counters::Agent::reference("gfx942").unwrap();
        let mut t = Trace::new();
        let name = t.strings.intern("gfx942");
        let agent = AgentId(1);
        t.agents.push(rocprof_model::Agent {
            id: agent,
            agent_type: AgentType::Gpu,
            name,
            num_xcc: board.xcc_num,
            num_shader_banks: board.se_num,
            simd_arrays_per_engine: board.shader_arrays_per_se,
            cu_count: board.cu_num,
            simd_per_cu: board.simd_per_cu,
            wave_front_size: board.wave_front_size,
            ..Default::default()
        });
        let plan = PmcPlan::new(&rocprof_counters::packets_agent(&board).unwrap(), &group.events).unwrap();
        let mut bytes = vec![0u8; plan.output_buffer_size() as usize];
        let mut sum = 0.0;
        for (i, slot) in plan.samples().iter().enumerate() {
            let at = slot.offset as usize;
            bytes[at..at + 8].copy_from_slice(&(i as u64 + 1).to_le_bytes());
            sum += (i + 1) as f64;
        }
        t.dispatches.push(KernelDispatch { dispatch_id: DispatchId(1), agent, ..Default::default() });
        t.pmc_outputs.push(PmcOutput { dispatch: DispatchId(1), agent, group: 0, status: PmcStatus::Ok, bytes });
        t.pmc_groups.push(PmcGroup { agent, ..group });
        let db = Database::builtin();
        let mut source = t.source();
        let mut eval = CounterEval::new(&mut source, db, false, None);
        let mut strings = StringTable::new();
        let mut collection = None;
        while let Some(r) = eval.next_record(&mut strings).unwrap() {
            if let Record::CounterCollection(c) = r {
                collection = Some(*c);
            }
        }
        let c = collection.expect("one counter collection");
        let names = c.values.iter().map(|v| strings.resolve(v.name).to_string()).collect();
        (c, names, eval.report, sum)
    }

    /// SQ_WAVES as gfx942's database programs it, but with `event_id` for its event.
    fn sq_waves_group(event_id: Option<u32>, sources: bool) -> PmcGroup {
        let db = Database::builtin();
        let board = rocprof_counters::Agent::reference("gfx942").unwrap();
        let planned = rocprof_counters::plan_with(db, &board, &["SQ_WAVES"]).unwrap();
        let hw = &planned.passes[0].events;
        let mut events = rocprof_counters::pass_events(hw);
        for e in &mut events {
            e.event_id = event_id.unwrap_or(e.event_id);
        }
        let sources = if sources {
            events.iter().map(|_| EventSource { counter: "SQ_WAVES".into(), block: "SQ".into() }).collect()
        } else {
            Vec::new()
        };
        PmcGroup { counters: vec!["SQ_WAVES".into()], events, sources, ..PmcGroup::default() }
    }

    #[test]
    fn counters_are_read_with_the_events_and_sources_the_capture_recorded_not_a_new_plan() {
        // As planned today: the counter sums every sample of its events.
        let (c, names, report, sum) = evaluate_one(sq_waves_group(None, true));
        assert_eq!(
            (c.status, names.as_slice(), c.values[0].value),
            (PmcStatus::Ok, &["SQ_WAVES".to_string()][..], sum)
        );
        assert_eq!(report.groups_without_sources, 0);
        // The run programmed another SQ event for SQ_WAVES than today's database names (a database
        // that changed between the run and post-processing): the capture's mapping decides, so the
        // samples still count as SQ_WAVES. Planning again would look for today's event and find none.
        let today = sq_waves_group(None, true).events[0].event_id;
        let (c, names, _, sum) = evaluate_one(sq_waves_group(Some(today + 1), true));
        assert_eq!(
            (c.status, names.as_slice(), c.values[0].value),
            (PmcStatus::Ok, &["SQ_WAVES".to_string()][..], sum)
        );
    }

    #[test]
    fn a_capture_without_event_sources_is_reported_not_planned_again() {
        let (c, _, report, _) = evaluate_one(sq_waves_group(None, false));
        assert_eq!((c.status, c.values.len()), (PmcStatus::Invalid, 0));
        assert_eq!((report.groups_without_sources, report.not_collected), (1, 1));
    }
}
