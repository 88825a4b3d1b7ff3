//! `rocprof-rs merge DB... -o OUT.db`: the per-process databases of a run (MPI ranks, forked
//! children) into one database that AMD's rocpd tools and `rocprof-rs summary` read as one.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use rocprof_analysis::merge::merge;
use rocprof_analysis::rocpd::find_databases;

use crate::progress;

const AFTER_HELP: &str = "\
Every row of every input is kept. Strings are pooled and numbered again, nodes are shared by
machine, processes and threads keep their OS ids unless two inputs used the same one, and the
other ids are shifted past those already merged. A directory stands for every *.db under it.

Exit status: 0 on success, 2 for a usage or input error.";

/// Merge rocpd databases into one.
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct MergeArgs {
    /// Databases, or directories searched for *.db.
    #[arg(required = true, value_name = "DB")]
    inputs: Vec<PathBuf>,

    /// The merged database (replaced if it exists).
    #[arg(short = 'o', long = "output", value_name = "OUT.db", required = true)]
    output: PathBuf,
}

/// Runs `rocprof-rs merge`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let a: MergeArgs = match super::parse("merge", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut paths = Vec::new();
    for i in &a.inputs {
        match find_databases(i) {
            Ok(p) => paths.extend(p.into_iter().filter(|p| p != &a.output)),
            Err(e) => return super::fail(&e),
        }
    }
    let bar = progress::bar(0, "merging");
    let merged = merge(&paths, &a.output, &bar);
    bar.finish_and_clear();
    let m = match merged {
        Ok(m) => m,
        Err(e) => return super::fail(&e),
    };
    for (file, old, new) in &m.renumbered_processes {
        eprintln!(
            "rocprof-rs: note: process {old} of {} is process {new} in the merged database (another input used {old})",
            file.display()
        );
    }
    let count = |t: &str| m.rows.iter().find(|(n, _)| *n == t).map_or(0, |(_, c)| *c);
    eprintln!(
        "rocprof-rs: wrote {} ({} databases, {} processes, {} kernel dispatches, {} API regions, {} memory copies)",
        m.output.display(),
        paths.len(),
        count("rocpd_info_process"),
        count("rocpd_kernel_dispatch"),
        count("rocpd_region"),
        count("rocpd_memory_copy"),
    );
    ExitCode::SUCCESS
}
