//! [`Trace`]: one process's records held in memory, for tests, small tools and summaries of
//! small captures. The CLI's output path does not build one: it streams records from the capture
//! to the writers ([`crate::stream`]); a `Trace` is a [`RecordSource`] through [`Trace::source`].

use std::collections::HashMap;

use crate::api::ApiCall;
use crate::counters::{CounterCollection, CounterInfo, PmcGroup, PmcOutput};
use crate::health::RunHealth;
use crate::host_function::HostFunction;
use crate::memory::{MemoryAllocation, MemoryCopy, ScratchMemory};
use crate::records::{
    format_kernel_name, truncate_kernel_name, Agent, AgentId, CodeObject, CodeObjectId, KernelDispatch, KernelId,
    KernelSymbol, Queue, QueueId, SessionMeta, StringTable,
};
use crate::stream::{Record, RecordSource, SourceError};

/// Everything captured from one process, in memory.
///
/// Vectors are in record-delivery order. Ids are unique within their kind.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Process facts (including the clock of every timestamp).
    pub meta: SessionMeta,
    /// Interned strings referenced by the records.
    pub strings: StringTable,
    /// CPU and GPU agents, sorted by node id.
    pub agents: Vec<Agent>,
    /// Queues.
    pub queues: Vec<Queue>,
    /// Loaded code objects.
    pub code_objects: Vec<CodeObject>,
    /// Kernel symbols.
    pub kernel_symbols: Vec<KernelSymbol>,
    /// HIP host functions matched to kernel symbols.
    pub host_functions: Vec<HostFunction>,
    /// Kernel dispatches.
    pub dispatches: Vec<KernelDispatch>,
    /// What was written, lost (by reason), and what profiling cost.
    pub health: RunHealth,
    /// Counter groups as programmed (raw stage).
    pub pmc_groups: Vec<PmcGroup>,
    /// Raw counter outputs (raw stage).
    pub pmc_outputs: Vec<PmcOutput>,
    /// Counters collected.
    pub counters: Vec<CounterInfo>,
    /// Counter values per dispatch.
    pub counter_collections: Vec<CounterCollection>,
    /// API calls of every traced library, in delivery order.
    pub api_calls: Vec<ApiCall>,
    /// Asynchronous memory copies.
    pub memory_copies: Vec<MemoryCopy>,
    /// Memory allocations and frees.
    pub memory_allocations: Vec<MemoryAllocation>,
    /// Scratch-memory events.
    pub scratch_memory: Vec<ScratchMemory>,
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every record as a stream section: the process, then agents, queues, code objects, kernel
    /// symbols, then the events in delivery order, and the run's health last. Records are cloned.
    pub fn records(&self) -> impl Iterator<Item = Record> + '_ {
        std::iter::once(Record::Process(Box::new(self.meta.clone())))
            .chain(self.agents.iter().map(|a| Record::Agent(Box::new(a.clone()))))
            .chain(self.queues.iter().cloned().map(Record::Queue))
            .chain(self.code_objects.iter().cloned().map(Record::CodeObject))
            .chain(self.kernel_symbols.iter().cloned().map(Record::KernelSymbol))
            .chain(self.host_functions.iter().copied().map(Record::HostFunction))
            .chain(self.pmc_groups.iter().map(|g| Record::PmcGroup(Box::new(g.clone()))))
            .chain(self.counters.iter().map(|c| Record::Counter(Box::new(c.clone()))))
            .chain(self.api_calls.iter().cloned().map(Record::ApiCall))
            .chain(self.dispatches.iter().copied().map(Record::KernelDispatch))
            .chain(self.pmc_outputs.iter().map(|o| Record::PmcOutput(Box::new(o.clone()))))
            .chain(self.counter_collections.iter().map(|c| Record::CounterCollection(Box::new(c.clone()))))
            .chain(self.memory_copies.iter().copied().map(Record::MemoryCopy))
            .chain(self.memory_allocations.iter().copied().map(Record::MemoryAllocation))
            .chain(self.scratch_memory.iter().copied().map(Record::ScratchMemory))
            .chain(std::iter::once(Record::RunHealth(Box::new(self.health))))
    }

    /// Number of records [`Trace::records`] yields.
    pub fn record_count(&self) -> u64 {
        (1 + self.agents.len()
            + self.queues.len()
            + self.code_objects.len()
            + self.kernel_symbols.len()
            + self.host_functions.len()
            + self.pmc_groups.len()
            + self.counters.len()
            + self.dispatches.len()
            + self.pmc_outputs.len()
            + self.counter_collections.len()
            + self.api_calls.len()
            + self.memory_copies.len()
            + self.memory_allocations.len()
            + self.scratch_memory.len()
            + 1) as u64
    }

    /// This trace as a record source. It must be the first source of its stream (its string
    /// ids are handed on unchanged); otherwise `next_record` reports an error.
    pub fn source(&self) -> TraceSource<'_> {
        TraceSource { trace: self, records: Box::new(self.records()), remaining: self.record_count(), started: false }
    }

    /// Collects a record stream into a trace. Process sections after the first are merged
    /// into it (use only for single-process streams).
    pub fn collect(source: &mut dyn RecordSource) -> Result<Trace, SourceError> {
        let mut t = Trace::new();
        while let Some(r) = source.next_record(&mut t.strings)? {
            t.push(r);
        }
        Ok(t)
    }

    /// Adds one record to the matching vector (process facts replace [`Trace::meta`]).
    pub fn push(&mut self, record: Record) {
        match record {
            Record::Process(m) => self.meta = *m,
            Record::Agent(a) => self.agents.push(*a),
            Record::Queue(q) => self.queues.push(q),
            Record::CodeObject(c) => self.code_objects.push(c),
            Record::KernelSymbol(k) => self.kernel_symbols.push(k),
            Record::HostFunction(h) => self.host_functions.push(h),
            Record::KernelDispatch(d) => self.dispatches.push(d),
            Record::RunHealth(h) => self.health = *h,
            Record::PmcGroup(g) => self.pmc_groups.push(*g),
            Record::PmcOutput(o) => self.pmc_outputs.push(*o),
            Record::Counter(c) => self.counters.push(*c),
            Record::CounterCollection(c) => self.counter_collections.push(*c),
            Record::ApiCall(a) => self.api_calls.push(a),
            Record::MemoryCopy(c) => self.memory_copies.push(c),
            Record::MemoryAllocation(a) => self.memory_allocations.push(a),
            Record::ScratchMemory(s) => self.scratch_memory.push(s),
        }
    }

    /// Lookup tables from ids to records, built once.
    pub fn index(&self) -> TraceIndex<'_> {
        TraceIndex {
            agents: self.agents.iter().map(|a| (a.id, a)).collect(),
            queues: self.queues.iter().map(|q| (q.id, q)).collect(),
            code_objects: self.code_objects.iter().map(|c| (c.id, c)).collect(),
            kernels: self.kernel_symbols.iter().map(|k| (k.id, k)).collect(),
        }
    }

    /// Adds a kernel symbol whose derived names are computed from `raw_name` and `demangled`
    /// (pass the raw name again when it is not mangled). Returns the stored symbol.
    pub fn push_kernel_symbol(&mut self, sym: KernelSymbol, raw_name: &str, demangled: &str) -> &KernelSymbol {
        let sym = sym.with_names(&mut self.strings, raw_name, demangled);
        self.kernel_symbols.push(sym);
        self.kernel_symbols.last().expect("just pushed")
    }
}

impl KernelSymbol {
    /// This symbol with its four names interned into `strings`: the raw name, the demangled
    /// name, the formatted name ([`format_kernel_name`]) and the truncated name
    /// ([`truncate_kernel_name`]). Pass the raw name again as `demangled` when it is not mangled.
    pub fn with_names(mut self, strings: &mut StringTable, raw_name: &str, demangled: &str) -> Self {
        self.name = strings.intern(raw_name);
        self.demangled_name = strings.intern(demangled);
        self.formatted_name = strings.intern(format_kernel_name(demangled));
        self.truncated_name = strings.intern(truncate_kernel_name(demangled));
        self
    }
}

/// A [`Trace`] as a [`RecordSource`], see [`Trace::source`].
pub struct TraceSource<'a> {
    trace: &'a Trace,
    records: Box<dyn Iterator<Item = Record> + 'a>,
    remaining: u64,
    started: bool,
}

impl std::fmt::Debug for TraceSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceSource").field("remaining", &self.remaining).finish()
    }
}

impl RecordSource for TraceSource<'_> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        if !self.started {
            self.started = true;
            for (id, s) in self.trace.strings.iter() {
                if strings.intern(s) != id {
                    return Err("an in-memory trace must be the first source of a record stream".into());
                }
            }
        }
        let r = self.records.next();
        self.remaining = self.remaining.saturating_sub(1);
        Ok(r)
    }

    fn len_hint(&self) -> Option<u64> {
        Some(self.remaining)
    }
}

/// Id -> record maps over a [`Trace`], see [`Trace::index`].
#[derive(Debug)]
pub struct TraceIndex<'a> {
    agents: HashMap<AgentId, &'a Agent>,
    queues: HashMap<QueueId, &'a Queue>,
    code_objects: HashMap<CodeObjectId, &'a CodeObject>,
    kernels: HashMap<KernelId, &'a KernelSymbol>,
}

impl<'a> TraceIndex<'a> {
    /// The agent with this id.
    pub fn agent(&self, id: AgentId) -> Option<&'a Agent> {
        self.agents.get(&id).copied()
    }

    /// The queue with this id.
    pub fn queue(&self, id: QueueId) -> Option<&'a Queue> {
        self.queues.get(&id).copied()
    }

    /// The code object with this id.
    pub fn code_object(&self, id: CodeObjectId) -> Option<&'a CodeObject> {
        self.code_objects.get(&id).copied()
    }

    /// The kernel symbol with this id.
    pub fn kernel(&self, id: KernelId) -> Option<&'a KernelSymbol> {
        self.kernels.get(&id).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{AgentType, DispatchId, StringId};
    use crate::stream::Chain;

    fn one_dispatch() -> Trace {
        let mut a = Trace::new();
        let name = a.strings.intern("gfx942");
        a.agents.push(Agent { id: AgentId(1), node_id: 1, agent_type: AgentType::Gpu, name, ..Default::default() });
        a.push_kernel_symbol(KernelSymbol { id: KernelId(1), ..Default::default() }, "k.kd", "k.kd");
        a.dispatches.push(KernelDispatch { dispatch_id: DispatchId(1), kernel: KernelId(1), ..Default::default() });
        a
    }

    #[test]
    fn records_come_process_first_then_parents_and_the_index_finds_them() {
        let a = one_dispatch();
        let kinds: Vec<&str> = a.records().map(|r| r.kind()).collect();
        assert_eq!(kinds, ["process", "agent", "kernel_symbol", "kernel_dispatch", "run_health"]);
        assert_eq!(a.record_count(), 5);
        assert_eq!(a.strings.resolve(a.kernel_symbols[0].formatted_name), "k");
        let idx = a.index();
        assert_eq!(idx.kernel(KernelId(1)).map(|k| a.strings.resolve(k.name)), Some("k.kd"));
        assert!(idx.kernel(KernelId(2)).is_none());
        assert!(idx.agent(AgentId(1)).is_some());
    }

    #[test]
    fn a_trace_streams_and_collects_back_to_itself() {
        let a = one_dispatch();
        let b = Trace::collect(&mut a.source()).unwrap();
        assert_eq!(b.agents, a.agents);
        assert_eq!(b.kernel_symbols, a.kernel_symbols);
        assert_eq!(b.dispatches, a.dispatches);
        assert_eq!(b.health, a.health);
        assert_eq!(b.strings.resolve(b.agents[0].name), "gfx942");
        assert_eq!(b.strings.len(), a.strings.len());
    }

    #[test]
    fn a_trace_after_another_source_is_an_error_not_wrong_names() {
        let a = one_dispatch();
        let mut other = Trace::new();
        other.strings.intern("something else");
        let mut chain = Chain::new([other.source(), a.source()]);
        let mut strings = StringTable::new();
        let mut n = 0;
        let err = loop {
            match chain.next_record(&mut strings) {
                Ok(Some(_)) => n += 1,
                Ok(None) => panic!("the second trace's ids would resolve to the wrong strings"),
                Err(e) => break e,
            }
        };
        assert_eq!(n, 2, "the first trace's process and run-health records");
        assert!(err.to_string().contains("first source"), "{err}");
        assert_eq!(strings.resolve(StringId(1)), "something else");
    }
}
