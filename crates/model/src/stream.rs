//! Streaming delivery of records from a source (a capture file, a rocpd database, an in-memory
//! [`crate::Trace`]) to consumers (the writers), one owned [`Record`] at a time, so that no stage
//! holds a whole trace in memory.
//!
//! # The stream
//!
//! A stream is a sequence of process sections. Each section starts with [`Record::Process`]; the
//! records after it belong to that process until the next `Process` record (a conversion of
//! several databases yields several sections). Within a section, a record that others refer to
//! by id (an agent, a queue, a code object, a kernel symbol) comes before every record that
//! refers to it; ids are unique per kind within a section, not across sections. Strings are
//! interned by the source into the [`StringTable`] the consumer passes to
//! [`RecordSource::next_record`], so a [`crate::StringId`] in a record resolves in that table
//! from the moment the record is delivered.
//!
//! # Adding a record kind
//!
//! 1. the record type in its own file under `crates/model/src/` (plain owned values, derived
//!    values computed there once), re-exported from the crate root;
//! 2. a variant here, with its line in [`Record::kind`] and, when it is something that happened
//!    (not a definition others refer to), in [`Record::is_event`];
//! 3. producing it: the capture reader (`capture.rs`, its decode and pass) and the rocpd reader;
//! 4. one match arm per writer in `crates/writers` (each writer ignores kinds it does not know,
//!    so steps 1-3 build on their own; `crates/writers/tests/it/every_kind.rs` lists the formats
//!    that must write each kind).

use crate::api::ApiCall;
use crate::counters::{CounterCollection, CounterInfo, PmcGroup, PmcOutput};
use crate::health::RunHealth;
use crate::host_function::HostFunction;
use crate::memory::{MemoryAllocation, MemoryCopy, ScratchMemory};
use crate::records::{Agent, CodeObject, KernelDispatch, KernelSymbol, Queue, SessionMeta, StringTable};

/// One record of any kind, owned; the unit the writers consume.
///
/// Large, rare records are boxed so that the enum stays about the size of a dispatch: sources
/// and the writer pipeline move records in batches of thousands.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Record {
    /// Starts the records of one process (see the module docs).
    Process(Box<SessionMeta>),
    /// An agent.
    Agent(Box<Agent>),
    /// A queue.
    Queue(Queue),
    /// A code object load.
    CodeObject(CodeObject),
    /// A kernel symbol.
    KernelSymbol(KernelSymbol),
    /// A HIP host function matched to a kernel symbol (after that symbol).
    HostFunction(HostFunction),
    /// A kernel dispatch.
    KernelDispatch(KernelDispatch),
    /// The health of the process's run (records written, losses by reason, overhead): the last
    /// record of a process section, once the source has read everything. Writers put it in
    /// their metadata ([`RunHealth::metadata`] gives the stable keys).
    RunHealth(Box<RunHealth>),
    /// A counter group as programmed (raw stage; the CLI turns these into [`Record::Counter`]s).
    PmcGroup(Box<PmcGroup>),
    /// One dispatch's raw counter output (raw stage; the CLI turns these into
    /// [`Record::CounterCollection`]s). Delivered right after its [`Record::KernelDispatch`].
    PmcOutput(Box<PmcOutput>),
    /// A counter collected on an agent.
    Counter(Box<CounterInfo>),
    /// The counter values of one dispatch.
    CounterCollection(Box<CounterCollection>),
    /// An API call of any traced library (HSA, HIP, ROCTx markers, ...).
    ApiCall(ApiCall),
    /// An asynchronous memory copy.
    MemoryCopy(MemoryCopy),
    /// A memory allocation or free.
    MemoryAllocation(MemoryAllocation),
    /// A scratch-memory event of the runtime.
    ScratchMemory(ScratchMemory),
}

impl Record {
    /// A short name of the record's kind, for messages and counts (`kernel_dispatch`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Process(_) => "process",
            Self::Agent(_) => "agent",
            Self::Queue(_) => "queue",
            Self::CodeObject(_) => "code_object",
            Self::KernelSymbol(_) => "kernel_symbol",
            Self::HostFunction(_) => "host_function",
            Self::KernelDispatch(_) => "kernel_dispatch",
            Self::RunHealth(_) => "run_health",
            Self::PmcGroup(_) => "pmc_group",
            Self::PmcOutput(_) => "pmc_output",
            Self::Counter(_) => "counter",
            Self::CounterCollection(_) => "counter_collection",
            Self::ApiCall(_) => "api_call",
            Self::MemoryCopy(_) => "memory_copy",
            Self::MemoryAllocation(_) => "memory_allocation",
            Self::ScratchMemory(_) => "scratch_memory",
        }
    }

    /// When an event began (ns, on the trace's clock), for time windows such as
    /// `--collection-period`; `None` for definitions. Every new event kind answers here.
    pub fn start_ns(&self) -> Option<u64> {
        match self {
            Self::KernelDispatch(d) => Some(d.start.ns),
            Self::CounterCollection(c) => Some(c.dispatch.start.ns),
            Self::ApiCall(a) => Some(a.start.ns),
            Self::MemoryCopy(c) => Some(c.start.ns),
            Self::MemoryAllocation(a) => Some(a.start.ns),
            Self::ScratchMemory(s) => Some(s.start.ns),
            Self::Process(_)
            | Self::Agent(_)
            | Self::Queue(_)
            | Self::CodeObject(_)
            | Self::KernelSymbol(_)
            | Self::HostFunction(_)
            | Self::RunHealth(_)
            | Self::PmcGroup(_)
            | Self::PmcOutput(_)
            | Self::Counter(_) => None,
        }
    }

    /// True for records of something that happened during the run (a dispatch, an API call, a
    /// copy, a counter sample), false for definitions others refer to (process, agents, queues,
    /// code objects, symbols). A process section without events produces no output files.
    pub fn is_event(&self) -> bool {
        match self {
            Self::KernelDispatch(_)
            | Self::PmcOutput(_)
            | Self::CounterCollection(_)
            | Self::ApiCall(_)
            | Self::MemoryCopy(_)
            | Self::MemoryAllocation(_)
            | Self::ScratchMemory(_) => true,
            Self::Process(_)
            | Self::Agent(_)
            | Self::Queue(_)
            | Self::CodeObject(_)
            | Self::KernelSymbol(_)
            | Self::HostFunction(_)
            | Self::RunHealth(_)
            | Self::PmcGroup(_)
            | Self::Counter(_) => false,
        }
    }
}

/// Error of a [`RecordSource`]: whatever the underlying reader reports (I/O, SQLite, ...).
pub type SourceError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Something that yields a record stream (see the module docs for the order it guarantees).
pub trait RecordSource {
    /// The next record, or `None` at the end. Strings the record refers to are interned into
    /// `strings` first. A consumer passes the same table on every call, starting from a fresh
    /// one (only the empty string), so that sources can be chained.
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError>;

    /// An estimate of the number of records still to come, for progress bars.
    fn len_hint(&self) -> Option<u64> {
        None
    }
}

impl<S: RecordSource + ?Sized> RecordSource for &mut S {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        (**self).next_record(strings)
    }

    fn len_hint(&self) -> Option<u64> {
        (**self).len_hint()
    }
}

impl<S: RecordSource + ?Sized> RecordSource for Box<S> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        (**self).next_record(strings)
    }

    fn len_hint(&self) -> Option<u64> {
        (**self).len_hint()
    }
}

/// Several sources one after the other, as one stream (e.g. one database per MPI rank into one
/// output). Each source's records keep their own process sections.
#[derive(Debug)]
pub struct Chain<S> {
    sources: std::collections::VecDeque<S>,
}

impl<S: RecordSource> Chain<S> {
    /// The sources, read in order.
    pub fn new(sources: impl IntoIterator<Item = S>) -> Self {
        Self { sources: sources.into_iter().collect() }
    }
}

impl<S: RecordSource> RecordSource for Chain<S> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        while let Some(s) = self.sources.front_mut() {
            if let Some(r) = s.next_record(strings)? {
                return Ok(Some(r));
            }
            self.sources.pop_front();
        }
        Ok(None)
    }

    fn len_hint(&self) -> Option<u64> {
        self.sources.iter().map(|s| s.len_hint()).sum()
    }
}
