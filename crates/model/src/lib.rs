//! rocprof-model: the records shared by the interception library, the writers and the CLI, the
//! versioned capture format that carries them from the profiled process to the CLI, and the record
//! stream that carries them from a source to the writers.
//!
//! [`records`] holds plain owned values ([`Agent`], [`KernelDispatch`], ...), [`api`] the API-call
//! records of every traced library and [`memory`] the copy, allocation and scratch records; they
//! are re-exported at the crate root. [`stream`] defines the owned [`Record`] enum and [`RecordSource`], the
//! streaming interface every output path uses. [`capture`] is the on-disk format written by the
//! interception library and its streaming reader. [`Trace`] holds one process's records in memory
//! (tests, small tools). [`health`] is the run's health record: records written, losses by
//! [`LossReason`], the profiler's overhead.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod capture;
pub mod counters;
pub mod health;
pub mod host_function;
pub mod kernel_filter;
pub mod memory;
pub mod records;
pub mod stream;
mod trace;

pub use api::{ApiCall, ApiDomain, ApiFamily, Correlation};
pub use health::{BufferPolicy, LossReason, Losses, RunHealth};
pub use host_function::HostFunction;
pub use memory::*;
pub use records::*;
pub use stream::{Chain, Record, RecordSource, SourceError};
pub use trace::{Trace, TraceIndex, TraceSource};
