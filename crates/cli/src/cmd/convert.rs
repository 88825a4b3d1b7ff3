//! `rocprof-rs convert DB... -f FORMAT... [-d OUT] [-o PREFIX]`: rocpd databases (ours, or AMD's
//! rocprofv3's: the schema is the same) to CSV, JSON or Perfetto, with the option names of AMD's
//! `rocpd convert`. Several databases (one per rank, say) go into one set of outputs, one process
//! section each. Records stream from the databases to every format in one pass, in bounded
//! memory.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use rocprof_analysis::rocpd::find_databases;
use rocprof_model::Chain;
use rocprof_writers::csv::AgentIndex;
use rocprof_writers::rocpd_source::RocpdSource;
use rocprof_writers::{write_stream, OutputLocation, StreamOptions, Writer};

use crate::config::OutputFormat;
use crate::outputs::{writers_for, WriterSettings};
use crate::progress;

const AFTER_HELP: &str = "\
Formats: csv (kernel_trace.csv, agent_info.csv; with --stats the stats files), json (results.json),
pftrace (results.pftrace; 'perfetto' is accepted too), otf2 (results.otf2 + results.def +
results/; needs the OTF2 library, Debian package libopen-trace-format2-10). Files are <OUT>/<PREFIX>_<name>, as AMD's
rocpd convert names them. A directory given as input stands for every *.db under it.

Exit status: 0 when every output was written, 1 when a database could not be read or an output
could not be written (the other outputs are still written), 2 for a usage error.";

/// Convert rocpd databases to other output formats.
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct ConvertArgs {
    /// Databases (rocpd SQLite), or directories searched for *.db.
    #[arg(value_name = "DB")]
    databases: Vec<PathBuf>,

    /// More databases (AMD's `rocpd convert -i`).
    #[arg(short = 'i', long = "input", num_args = 1.., value_name = "DB")]
    input: Vec<PathBuf>,

    /// Output formats.
    #[arg(short = 'f', long = "output-format", num_args = 1.., required = true, value_enum, value_name = "FORMAT")]
    formats: Vec<FormatArg>,

    /// Output directory.
    #[arg(
        short = 'd',
        long = "output-path",
        visible_alias = "output-directory",
        default_value = "./rocpd-output-data"
    )]
    output_path: PathBuf,

    /// Output file-name prefix.
    #[arg(short = 'o', long = "output-file", default_value = "out")]
    output_file: String,

    /// How agents are named (`Agent-1`, `GPU-0`, ...).
    #[arg(long = "agent-index-value", value_enum, default_value_t = AgentIndexArg::Relative)]
    agent_index_value: AgentIndexArg,

    /// With csv: kernel_stats.csv and domain_stats.csv; with json: the summary section.
    #[arg(long)]
    stats: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Csv,
    Json,
    Otf2,
    #[value(alias = "perfetto")]
    Pftrace,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AgentIndexArg {
    Absolute,
    Relative,
    TypeRelative,
}

/// Runs `rocprof-rs convert`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let a: ConvertArgs = match super::parse("convert", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut paths = Vec::new();
    for i in a.databases.iter().chain(&a.input) {
        match find_databases(i) {
            Ok(p) => paths.extend(p),
            Err(e) => return super::fail(&e),
        }
    }
    if paths.is_empty() {
        return super::fail(&"no database given (rocprof-rs convert DB... -f FORMAT...)");
    }
    let mut sources = Vec::new();
    for p in &paths {
        // The same checks as summary, diff and merge (a rocpd database of schema version 3 with
        // every table and column), so a foreign or damaged file gets the same one-line error.
        if let Err(e) = rocprof_analysis::rocpd::Database::open(p) {
            eprintln!("rocprof-rs: error: {}", super::one_line(&e.to_string()));
            return ExitCode::from(1);
        }
        match RocpdSource::open(p) {
            Ok(s) => sources.push(s),
            Err(e) => {
                let e = anyhow::Error::new(e).context(format!("reading {}", p.display()));
                eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{e:#}")));
                return ExitCode::from(1);
            }
        }
    }
    let mut formats = Vec::new();
    for f in &a.formats {
        let f = match f {
            FormatArg::Csv => OutputFormat::Csv,
            FormatArg::Json => OutputFormat::Json,
            FormatArg::Pftrace => OutputFormat::Pftrace,
            FormatArg::Otf2 => {
                if let Err(e) = rocprof_writers::otf2::check_available() {
                    return super::fail(&e);
                }
                OutputFormat::Otf2
            }
        };
        if !formats.contains(&f) {
            formats.push(f);
        }
    }
    let settings = WriterSettings {
        agent_index: match a.agent_index_value {
            AgentIndexArg::Absolute => AgentIndex::Absolute,
            AgentIndexArg::Relative => AgentIndex::Relative,
            AgentIndexArg::TypeRelative => AgentIndex::TypeRelative,
        },
        stats: a.stats,
        summary: a.stats,
        ..WriterSettings::default()
    };
    let out = OutputLocation::new(&a.output_path, a.output_file.as_str());
    let mut writers = writers_for(&formats, &out, &settings);
    let mut refs: Vec<&mut dyn Writer> = writers.iter_mut().map(|w| &mut **w as &mut dyn Writer).collect();
    let mut source = Chain::new(sources);
    let options =
        StreamOptions { bar: Some(progress::bar(0, "converting")), write_empty: true, ..StreamOptions::default() };
    let outcome = match write_stream(&mut source, &mut refs, &options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{:#}", anyhow::Error::new(e))));
            return ExitCode::from(1);
        }
    };
    let mut status = ExitCode::SUCCESS;
    for w in outcome.writers {
        match w.result {
            Ok(files) => {
                for f in files {
                    eprintln!("rocprof-rs: wrote {}", f.display());
                }
            }
            Err(e) => {
                let e = anyhow::Error::new(e).context(format!("writing the {} output", w.name));
                eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{e:#}")));
                status = ExitCode::from(1);
            }
        }
    }
    status
}
