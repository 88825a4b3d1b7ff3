//! `rocprof-rs summary DB...`: rocprofv3's summary tables (`-S`, `-D`, `--summary-groups`) from
//! databases, the same tables the profiler prints at the end of a run.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use rocprof_analysis::rocpd::find_databases;
use rocprof_analysis::summary::{Summary, SummaryOptions};
use rocprof_writers::stats::SummaryUnit;

use crate::progress;

const AFTER_HELP: &str = "\
Without -S, -D or --summary-groups the overall table (-S) is printed. Every record of every
database is counted (a directory stands for every *.db under it); summarising the merge of a
run's per-process databases gives the same tables as summarising those databases.

Exit status: 0 on success, 2 for a usage or input error.";

/// Print rocprofv3's summary tables from rocpd databases.
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct SummaryArgs {
    /// Databases, or directories searched for *.db.
    #[arg(required = true, value_name = "DB")]
    inputs: Vec<PathBuf>,

    /// The table of all domains (SUMMARY).
    #[arg(short = 'S', long)]
    summary: bool,

    /// One table per domain (<DOMAIN> SUMMARY).
    #[arg(short = 'D', long)]
    summary_per_domain: bool,

    /// One table per regular expression, over the domains whose whole name it matches.
    #[arg(long, num_args = 1.., value_name = "REGEX")]
    summary_groups: Vec<String>,

    /// Time unit.
    #[arg(short = 'u', long, value_enum, default_value_t = UnitArg::Nsec)]
    summary_units: UnitArg,

    /// Write the tables to this file (without the console indent) instead of stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output_file: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum UnitArg {
    Sec,
    Msec,
    Usec,
    Nsec,
}

/// Runs `rocprof-rs summary`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let a: SummaryArgs = match super::parse("summary", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut groups = Vec::new();
    for g in &a.summary_groups {
        match regex::Regex::new(g) {
            Ok(r) => groups.push(r),
            Err(_) => return super::fail(&format!("--summary-groups: invalid regular expression '{g}'")),
        }
    }
    let mut paths = Vec::new();
    for i in &a.inputs {
        match find_databases(i) {
            Ok(p) => paths.extend(p),
            Err(e) => return super::fail(&e),
        }
    }
    let bar = progress::bar(0, "reading");
    let summary = Summary::of_paths(&paths, &bar);
    bar.finish_and_clear();
    let summary = match summary {
        Ok(s) => s,
        Err(e) => return super::fail(&e),
    };
    let nothing_chosen = !a.summary && !a.summary_per_domain && groups.is_empty();
    let opts = SummaryOptions {
        overall: a.summary || nothing_chosen,
        per_domain: a.summary_per_domain,
        groups,
        unit: match a.summary_units {
            UnitArg::Sec => SummaryUnit::Sec,
            UnitArg::Msec => SummaryUnit::Msec,
            UnitArg::Usec => SummaryUnit::Usec,
            UnitArg::Nsec => SummaryUnit::Nsec,
        },
        indent: if a.output_file.is_some() { 0 } else { 4 },
    };
    let text = summary.render(&opts);
    let written = match &a.output_file {
        Some(p) => std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => crate::console::to_console(std::io::stdout().lock(), &text)
            .map_err(|e| format!("printing the summary: {e}")),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(&e),
    }
}
