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
mod settings;

pub use pmc::{CounterGroup, CounterPlan, EventSource, PmcEvent};
pub use settings::{
    AttSettings, BufferPolicy, CaptureDir, CollectionPeriods, GateCompletions, KernelNames, LogLevel, PcSampling,
    PcsMethod, PcsUnit, Trace, TraceWord,
};

/// A setting carried in one environment variable.
pub trait Setting: Sized {
    /// The variable (one of [`names`]).
    const NAME: &'static str;

    /// The variable's value.
    fn encode(&self) -> String;

    /// Reads a value of [`Setting::encode`]'s form; the error says what is wrong, on one line.
    fn decode(text: &str) -> Result<Self, String>;

    /// `(name, value)` for the launch environment.
    fn to_env(&self) -> (&'static str, String) {
        (Self::NAME, self.encode())
    }

    /// Decodes the variable from `get` (normally [`process_env`]); `None` when it is not set.
    fn from_env(get: impl Fn(&str) -> Option<String>) -> Option<Result<Self, String>> {
        get(Self::NAME).map(|text| Self::decode(&text))
    }
}

/// Reads a variable of this process's environment (unset or not UTF-8: `None`).
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

#[cfg(test)]
mod tests;
