//! The launch contract between `rocprof-rs` and `librocprof_intercept.so`.
//!
//! The CLI configures the interception library through environment variables. Each setting is one
//! type here, with its variable's name ([`names`], the one list of every `ROCPROF_RS_*` name): the
//! CLI builds the value and encodes it ([`Setting::encode`], or `to_env` for the settings carried in
//! several variables), the library decodes it once while it loads ([`Setting::decode`], `from_env`)
//! and keeps the typed value. Decoding runs on cold paths only; it never panics, and returns what is
//! wrong as text for the library to report.
//!
//! The crate stands on the bottom floor (no dependencies), so the CLI, the library and the record
//! model (which carries the counter plan's events in the capture) share it.

pub mod names;
mod pmc;
mod setting;
mod settings;

pub use pmc::{CounterGroup, CounterPlan, EventSource, PmcEvent};
pub use setting::{process_env, Setting};
pub use settings::{
    AttSettings, BufferPolicy, CaptureDir, CollectionPeriods, GateCompletions, KernelNames, LogLevel, PcSampling,
    PcsMethod, PcsUnit, Trace, TraceWord,
};

#[cfg(test)]
mod tests;
