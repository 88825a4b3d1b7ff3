//! Subcommands: `rocprof-rs <name> ...` runs a command over existing outputs (databases, captures,
//! thread-trace files) instead of profiling an application. Each lives in its own module with its own
//! clap parser; `main` looks the first argument up here before parsing the profiling options, so an
//! application that happens to be called like a subcommand is still reachable with `rocprof-rs -- app`.

use std::ffi::OsString;
use std::process::ExitCode;

/// One subcommand: its name as typed, and the function that parses the remaining arguments and runs it.
pub(crate) struct Subcommand {
    /// The word after `rocprof-rs`.
    pub(crate) name: &'static str,
    /// Runs the subcommand; gets the arguments after its name.
    pub(crate) run: fn(Vec<OsString>) -> ExitCode,
}

/// Every subcommand, one line each.
pub(crate) const SUBCOMMANDS: &[Subcommand] = &[];

/// The subcommand named by `word`, if any.
pub(crate) fn find(word: &OsString) -> Option<&'static Subcommand> {
    SUBCOMMANDS.iter().find(|c| word == c.name)
}
