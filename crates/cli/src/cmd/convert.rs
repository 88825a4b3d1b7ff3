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
use rocprof_model::{Chain, Record, RecordSource, SourceError, StringTable};
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
    convert_databases(&paths, &formats, &out, &settings, None)
}

/// The time window of `rocpd convert --start/--end/...`: `[start, end]` in ns and whether an
/// event must lie inside it (`--inclusive true`) or only overlap it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) inclusive: bool,
}

/// Converts the databases `paths` into `formats` under `out`, events restricted to `window`.
pub(crate) fn convert_databases(
    paths: &[PathBuf],
    formats: &[OutputFormat],
    out: &OutputLocation,
    settings: &WriterSettings,
    window: Option<Window>,
) -> ExitCode {
    let mut sources = Vec::new();
    for p in paths {
        // The same checks as summary, diff and merge (a rocpd database of schema version 3 with
        // every table and column), so a foreign or damaged file gets the same one-line error.
        if let Err(e) = rocprof_analysis::rocpd::Database::open(p) {
            eprintln!("rocprof-rs: error: {}", super::one_line(&e.to_string()));
            return ExitCode::from(1);
        }
        match RocpdSource::open(p) {
            Ok(s) => sources.push(s.kernel_rename(settings.kernel_rename)),
            Err(e) => {
                let e = anyhow::Error::new(e).context(format!("reading {}", p.display()));
                eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{e:#}")));
                return ExitCode::from(1);
            }
        }
    }
    let mut writers = writers_for(formats, out, settings);
    let mut refs: Vec<&mut dyn Writer> = writers.iter_mut().map(|w| &mut **w as &mut dyn Writer).collect();
    let mut chain = Chain::new(sources);
    let mut windowed = Windowed { inner: &mut chain, window, left_out: 0 };
    let options =
        StreamOptions { bar: Some(progress::bar(0, "converting")), write_empty: true, ..StreamOptions::default() };
    let outcome = match write_stream(&mut windowed, &mut refs, &options) {
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
    if let Some(w) = window {
        eprintln!(
            "rocprof-rs: time window {}..{} ns: {} events outside it left out",
            w.start, w.end, windowed.left_out
        );
    }
    status
}

/// The end of an event record (its start for instants).
fn end_ns(r: &Record) -> Option<u64> {
    Some(match r {
        Record::KernelDispatch(d) => d.end.ns,
        Record::CounterCollection(c) => c.dispatch.end.ns,
        Record::ApiCall(a) => a.end.ns,
        Record::MemoryCopy(c) => c.end.ns,
        Record::ScratchMemory(s) => s.end.ns,
        other => return other.start_ns(),
    })
}

/// A record stream without the events outside a time window (AMD's `rocpd` time-window filter:
/// inclusive = start and end inside, else overlapping).
struct Windowed<'a> {
    inner: &'a mut dyn RecordSource,
    window: Option<Window>,
    left_out: u64,
}

impl RecordSource for Windowed<'_> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        loop {
            let r = self.inner.next_record(strings)?;
            if let (Some(w), Some(rec)) = (self.window, r.as_ref().filter(|r| r.is_event())) {
                if let (Some(s), Some(e)) = (rec.start_ns(), end_ns(rec)) {
                    let keep = if w.inclusive { s >= w.start && e <= w.end } else { s <= w.end && e >= w.start };
                    if !keep {
                        self.left_out += 1;
                        continue;
                    }
                }
            }
            return Ok(r);
        }
    }

    fn len_hint(&self) -> Option<u64> {
        self.inner.len_hint()
    }
}
