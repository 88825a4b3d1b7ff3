//! Subcommands: `rocprof-rs <name> ...` runs a command over existing outputs (databases, captures,
//! thread-trace files) instead of profiling an application. Each lives in its own module with its own
//! clap parser; `main` looks the first argument up here before parsing the profiling options, so an
//! application that happens to be called like a subcommand is still reachable with `rocprof-rs -- app`.

mod att_decode;
mod avail;
mod convert;
mod diff;
mod merge;
mod rocpd;
mod summary;

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
pub(crate) const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand { name: "diff", run: diff::run },
    Subcommand { name: "summary", run: summary::run },
    Subcommand { name: "merge", run: merge::run },
    Subcommand { name: "att-decode", run: att_decode::main },
    Subcommand { name: "convert", run: convert::run },
    Subcommand { name: "avail", run: avail::run },
    Subcommand { name: "rocpd", run: rocpd::run },
];

/// The subcommand named by `word`, if any.
pub(crate) fn find(word: &OsString) -> Option<&'static Subcommand> {
    SUBCOMMANDS.iter().find(|c| word == c.name)
}

/// Exit status of a command-line or input error (argparse's, which rocprofv3 users know).
pub(crate) const USAGE_ERROR: u8 = 2;

/// Parses a subcommand's arguments with clap. `--help` prints and exits 0; an error prints one
/// line, `rocprof-rs: error: ... (see rocprof-rs <name> --help)`, and exits 2.
pub(crate) fn parse<T: clap::Parser>(name: &str, args: Vec<OsString>) -> Result<T, ExitCode> {
    let argv = std::iter::once(OsString::from(format!("rocprof-rs {name}"))).chain(args);
    T::try_parse_from(argv).map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.to_string();
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let first = lines.next().unwrap_or("invalid command line");
        let first = first.strip_prefix("error: ").unwrap_or(first);
        // "the following required arguments were not provided:" names them on the next line.
        let first = match (first.ends_with(':'), lines.next()) {
            (true, Some(next)) => format!("{first} {next}"),
            _ => first.to_string(),
        };
        eprintln!("rocprof-rs: error: {first} (see rocprof-rs {name} --help)");
        ExitCode::from(USAGE_ERROR)
    })
}

/// Prints `rocprof-rs: error: <e>` (one line) and returns exit status 2.
pub(crate) fn fail(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("rocprof-rs: error: {}", one_line(&e.to_string()));
    ExitCode::from(USAGE_ERROR)
}

/// `text` on one line: every run of whitespace that holds a line break becomes one space (SQLite
/// errors quote the failing statement, which spans lines; a CI log wants one line per error).
pub(crate) fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.trim().chars() {
        if c.is_whitespace() {
            run.push(c);
            continue;
        }
        if run.contains(['\n', '\r']) {
            out.push(' ');
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn errors_are_folded_onto_one_line() {
        assert_eq!(
            super::one_line("no such column: kd.id in SELECT a,\n    b  FROM t\n"),
            "no such column: kd.id in SELECT a, b  FROM t"
        );
        assert_eq!(super::one_line("plain  message"), "plain  message");
    }
}
