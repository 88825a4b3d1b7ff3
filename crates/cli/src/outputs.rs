//! After the run: reading the capture files, writing the requested outputs per process, and
//! reporting what was written and what was lost.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use rocprof_model::capture::{CaptureFile, CaptureReader, ReadAt};
use rocprof_model::{Agent, Record, RecordSource, RunHealth, SessionMeta, SourceError, StringTable};
use rocprof_writers::counter_stats::{CounterStats, CounterStatsWriter};
use rocprof_writers::csv::CsvWriter;
use rocprof_writers::json::{JsonOptions, JsonWriter};
use rocprof_writers::perfetto::{PerfettoOptions, PerfettoWriter};
use rocprof_writers::rocpd::{RocpdOptions, RocpdWriter};
use rocprof_writers::stats::{summary_table, AllStats, DomainStats, StatsWriter};
use rocprof_writers::{write_stream, OutputLocation, StreamOptions, Writer};

use crate::config::{Config, OutputFormat, SummaryOutput};
use crate::console::to_console;
use crate::placeholders::{expand, Context};
use crate::progress;

/// Extension of the capture files the interception library writes (`<pid>.rpcap`).
pub(crate) const CAPTURE_EXT: &str = "rpcap";

/// The capture files in `dir`, sorted by name.
pub(crate) fn capture_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(e) => return Err(e).with_context(|| format!("reading capture directory {}", dir.display())),
    };
    for entry in entries {
        let path = entry.with_context(|| format!("reading capture directory {}", dir.display()))?.path();
        if path.extension().is_some_and(|e| e == CAPTURE_EXT) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// One profiled process's records, ready to stream: a capture reader, or (in tests) a trace in
/// memory. Process facts are known before streaming; loss counts are final after it.
pub(crate) trait ProcessRecords: RecordSource {
    /// Process facts.
    fn meta(&self) -> &SessionMeta;
    /// The run's health (losses by reason, dispatches that never completed, clean exit),
    /// final once the stream ended.
    fn health(&self) -> RunHealth;
    /// The process's PC samples (complete once the stream ended).
    fn pc_samples(&self) -> Option<&rocprof_model::capture::pcsamp::PcSamples> {
        None
    }
}

impl<R: ReadAt> ProcessRecords for CaptureReader<R> {
    fn meta(&self) -> &SessionMeta {
        &self.info().meta
    }

    fn health(&self) -> RunHealth {
        self.info().health
    }

    fn pc_samples(&self) -> Option<&rocprof_model::capture::pcsamp::PcSamples> {
        Some(CaptureReader::pc_samples(self))
    }
}

/// Opens every capture. A file that cannot be opened becomes an error naming it, next to the
/// captures that could be: one process's broken capture must not cost the outputs of the others.
/// `kernel_rename` (`--kernel-rename`) names dispatches after their innermost ROCTx range;
/// `markers` (`--marker-trace`) delivers the ROCTx records (a capture also has them for
/// `--kernel-rename` and `--selected-regions` alone).
pub(crate) fn open_captures(
    files: &[PathBuf],
    kernel_rename: bool,
    markers: bool,
) -> (Vec<CaptureReader<CaptureFile>>, Vec<anyhow::Error>) {
    let mut captures = Vec::new();
    let mut failures = Vec::new();
    for f in files {
        match CaptureReader::open(f).with_context(|| format!("reading capture {}", f.display())) {
            Ok(c) => captures.push(c.kernel_rename(kernel_rename).marker_records(markers)),
            Err(e) => failures.push(e),
        }
    }
    (captures, failures)
}

/// The agents a capture recorded, with the strings they refer to (reads the definitions only).
pub(crate) fn capture_agents(capture: &mut dyn RecordSource) -> Result<(Vec<Agent>, StringTable)> {
    let mut strings = StringTable::new();
    let mut agents = Vec::new();
    while let Some(r) = capture.next_record(&mut strings).map_err(|e| anyhow::anyhow!(e))? {
        match r {
            Record::Agent(a) => agents.push(*a),
            r if r.is_event() => break,
            _ => {}
        }
    }
    Ok((agents, strings))
}

/// Prints the agents the capture `file` recorded (`-L`).
pub(crate) fn print_agents(file: &Path) -> Result<()> {
    let mut capture = CaptureReader::open(file).with_context(|| format!("reading capture {}", file.display()))?;
    let (agents, strings) = capture_agents(&mut capture)?;
    let mut text = agent_listing(&agents, &strings);
    text.push_str(&counter_listing(&agents, &strings));
    text.push_str(&crate::pcsamp::pc_sampling_listing(&agents, &strings));
    to_console(std::io::stdout().lock(), &text).context("printing the agent list")
}

/// `-L`'s counter part: every GPU's counters (name, description, block or expression, dimensions), as
/// rocprofv3-avail prints them.
pub(crate) fn counter_listing(agents: &[Agent], strings: &StringTable) -> String {
    let mut out = String::new();
    let gpus = agents.iter().filter(|a| a.agent_type == rocprof_model::AgentType::Gpu);
    for (index, a) in gpus.enumerate() {
        let name = strings.resolve(a.name);
        let agent = crate::counters::agent_of(a, name);
        match rocprof_counters::list_counters(&agent) {
            Ok(list) => {
                // rocprofv3-avail `info --pmc`'s agent header (which AMD's list-avail test matches).
                out.push_str(&format!("\nGPU:{index}\nName:{name}\n"));
                for c in list {
                    out.push('\n');
                    out.push_str(&c.to_avail_text());
                }
            }
            Err(e) => out.push_str(&format!("\nGPU:{index}\nName:{name}\nno counters ({e})\n")),
        }
    }
    out
}

/// Totals over all processes of a run, for the final report.
#[derive(Debug, Default)]
pub(crate) struct Written {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) dispatches: u64,
}

/// The application's environment at launch (ours plus what we added) as the JSON object rocpd
/// keeps in `rocpd_info_process.environment`; like rocprofv3, variables whose value contains
/// `;` are left out.
fn environment_json(app_env: &[(String, OsString)]) -> serde_json::Value {
    let mut map: std::collections::BTreeMap<String, String> = std::env::vars_os()
        .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
        .collect();
    for (k, v) in app_env {
        map.insert(k.clone(), v.to_string_lossy().into_owned());
    }
    map.retain(|_, v| !v.contains(';'));
    serde_json::Value::Object(map.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect())
}

/// One line per agent, for `-L`.
pub(crate) fn agent_listing(agents: &[Agent], strings: &StringTable) -> String {
    let s = |id| strings.resolve(id);
    let mut agents: Vec<&Agent> = agents.iter().collect();
    agents.sort_by_key(|a| a.node_id);
    let mut out = String::from("Agents:\n");
    for a in agents {
        let product = if s(a.product_name) == s(a.name) { "" } else { s(a.product_name) };
        let mut line =
            format!("  Agent {:<3} {:<4} {:<10} {}", a.logical_node_id, a.agent_type.as_str(), s(a.name), product);
        if a.agent_type == rocprof_model::AgentType::Gpu {
            line.push_str(&format!(
                " (node {}, {} CUs, {} SIMDs, wave{}, LDS {} KiB, gfx target {})",
                a.node_id, a.cu_count, a.simd_count, a.wave_front_size, a.lds_size_in_kb, a.gfx_target_version
            ));
        } else {
            line.push_str(&format!(" (node {}, {} cores)", a.node_id, a.cpu_cores_count));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Writes the outputs of every captured process. Summary tables go to stdout. A process whose
/// outputs cannot be written adds its error to `failures`; the others are still written.
/// `app_env` is what rocprof-rs added to its own environment for the application; `None` when
/// the application's environment is unknown (`--from-capture`), stored as `{}`.
pub(crate) fn write_all<P: ProcessRecords>(
    cfg: &Config,
    captures: Vec<P>,
    app_env: Option<&[(String, OsString)]>,
    counters: Option<&CounterOutputs<'_>>,
    failures: &mut Vec<anyhow::Error>,
) -> Written {
    let mut written = Written::default();
    let environment = app_env.map_or_else(|| "{}".to_string(), |env| environment_json(env).to_string());
    let processes = captures.len();
    let mut used = std::collections::HashSet::new();
    for (i, mut capture) in captures.into_iter().enumerate() {
        let counters = counters.map(|c| (c.db, c.merged.get(i)));
        if let Err(e) = write_process(cfg, &mut capture, processes, &environment, counters, &mut used, &mut written) {
            failures.push(e);
        }
    }
    written
}

/// What the writers of [`writers_for`] are configured with.
#[derive(Debug, Clone, Default)]
pub(crate) struct WriterSettings {
    /// `-A`: agent naming in CSV, Perfetto and OTF2.
    pub(crate) agent_index: rocprof_writers::csv::AgentIndex,
    /// `--stats`: the stats CSV files.
    pub(crate) stats: bool,
    /// The JSON `summary` section.
    pub(crate) summary: bool,
    /// The resolved configuration, stored in rocpd.
    pub(crate) config_json: Option<String>,
    /// Its `output_config` part, the JSON output's `metadata.config` (as rocprofv3 writes it).
    pub(crate) json_config: Option<String>,
    /// The application's environment, stored in rocpd.
    pub(crate) environment_json: Option<String>,
    /// `--group-by-queue`: Perfetto puts kernels and copies on HSA queue tracks, not HIP streams.
    pub(crate) group_by_queue: bool,
    /// `rocpd convert --kernel-rename`: dispatches read from databases are named after their
    /// ROCTx ranges (the profiling path renames while capturing).
    pub(crate) kernel_rename: bool,
    /// `--att`: the process's thread-trace files, listed in the JSON output.
    pub(crate) att_files: crate::att::AttFiles,
}

/// One writer per requested format (plus the stats writer with CSV and `--stats`), writing
/// under `out`. The profiling path and `convert` build their writers here.
pub(crate) fn writers_for(formats: &[OutputFormat], out: &OutputLocation, s: &WriterSettings) -> Vec<Box<dyn Writer>> {
    let mut writers: Vec<Box<dyn Writer>> = Vec::new();
    for f in formats {
        match f {
            OutputFormat::Rocpd => writers.push(Box::new(RocpdWriter::with_options(
                out.clone(),
                RocpdOptions {
                    config_json: s.config_json.clone(),
                    environment_json: s.environment_json.clone(),
                    ..Default::default()
                },
            ))),
            OutputFormat::Csv => {
                writers.push(Box::new(CsvWriter::with_agent_index(out.clone(), s.agent_index)));
                if s.stats {
                    writers.push(Box::new(StatsWriter::new(out.clone())));
                    writers.push(Box::new(CounterStatsWriter::new(out.clone())));
                }
            }
            OutputFormat::Json => writers.push(Box::new(JsonWriter::with_options(
                out.clone(),
                JsonOptions {
                    config_json: s.json_config.clone(),
                    summary: s.summary,
                    att_filenames: s.att_files.traces.clone(),
                    code_object_snapshots: s.att_files.code_objects.clone(),
                },
            ))),
            OutputFormat::Otf2 => {
                writers.push(Box::new(rocprof_writers::otf2::Otf2Writer::new(out.clone(), s.agent_index)))
            }
            OutputFormat::Pftrace => writers.push(Box::new(PerfettoWriter::with_options(
                out.clone(),
                PerfettoOptions { agent_index: s.agent_index, group_by_queue: s.group_by_queue },
            ))),
        }
    }
    writers
}

/// What the counter evaluation of the outputs needs: the database, and per process (in capture order)
/// the counters of the replayed passes to merge.
pub(crate) struct CounterOutputs<'a> {
    /// Counter database (with `-E` extras).
    pub(crate) db: &'a rocprof_counters::Database,
    /// Replayed passes' values, by process.
    pub(crate) merged: &'a [crate::counters::eval::Merged],
}

/// rocprofv3's `-T` / `-M` kernel naming, applied to symbols as they stream by: the name the
/// outputs print ([`rocprof_model::KernelSymbol::formatted_name`]) becomes the truncated or the
/// raw symbol name.
struct KernelNames<'a> {
    inner: &'a mut dyn RecordSource,
    truncate: bool,
    mangled: bool,
}

impl RecordSource for KernelNames<'_> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        let mut r = self.inner.next_record(strings)?;
        if let Some(Record::KernelSymbol(k)) = &mut r {
            // rocprofv3: -T wins over -M (truncation always demangles first). A `--kernel-rename`
            // copy keeps its range's name (AMD's kernel-rename test passes -M).
            let renamed = k.renamed_from.0 != 0;
            if self.truncate && !renamed {
                k.formatted_name = k.truncated_name;
            } else if self.mangled && !renamed {
                k.formatted_name = k.name;
            }
        }
        Ok(r)
    }

    fn len_hint(&self) -> Option<u64> {
        self.inner.len_hint()
    }
}

/// `--collection-period` and `--minimum-output-data` on a record stream: events that began
/// outside every collection window are left out (counted), and the bytes of the events kept are
/// summed for the output threshold.
struct Collection<'a> {
    inner: &'a mut dyn RecordSource,
    /// `[start, end)` windows in ns; empty = keep everything.
    windows: Vec<(u64, u64)>,
    kept_bytes: u64,
    left_out: u64,
}

impl RecordSource for Collection<'_> {
    fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
        loop {
            let r = self.inner.next_record(strings)?;
            if let Some(rec) = r.as_ref().filter(|r| r.is_event()) {
                let outside = rec
                    .start_ns()
                    .is_some_and(|t| !self.windows.is_empty() && !self.windows.iter().any(|&(s, e)| t >= s && t < e));
                if outside {
                    self.left_out += 1;
                    continue;
                }
                // What the tool holds per record, as rocprofv3 counts its buffer records.
                self.kept_bytes += std::mem::size_of::<Record>() as u64;
            }
            return Ok(r);
        }
    }

    fn len_hint(&self) -> Option<u64> {
        self.inner.len_hint()
    }
}

/// Writes the outputs of one captured process. `used` holds the output locations of the
/// processes written before it.
fn write_process(
    cfg: &Config,
    capture: &mut dyn ProcessRecords,
    processes: usize,
    environment: &str,
    counters: Option<(&rocprof_counters::Database, Option<&crate::counters::eval::Merged>)>,
    used: &mut std::collections::HashSet<OutputLocation>,
    written: &mut Written,
) -> Result<()> {
    let meta = capture.meta().clone();
    let pid = meta.pid.0;
    let argv = if meta.command.is_empty() {
        cfg.app.iter().map(|a| a.to_string_lossy().into_owned()).collect()
    } else {
        meta.command.clone()
    };
    // Dates expand to the launch time, not to when the outputs are written: the directory
    // checked before the run and the one written after it must agree on a long run.
    let ctx = Context::new(pid, meta.ppid.0, argv, cfg.launch_dir.display().to_string(), processes, cfg.launch_secs);
    let dir = expand(&cfg.output_directory_template(), &ctx);
    let prefix = expand(&cfg.output_file_template(), &ctx);
    let dir = if Path::new(&dir).is_absolute() { PathBuf::from(dir) } else { cfg.launch_dir.join(dir) };
    let mut out = OutputLocation::new(dir, prefix);
    if used.contains(&out) {
        // Several processes and an -o/-d without %pid%: rocprofv3 lets the last process
        // overwrite the others' files. Keep every process's records instead.
        let renamed = OutputLocation::new(out.dir(), format!("{}_{pid}", out.prefix()));
        eprintln!(
            "rocprof-rs: warning: process {pid} would overwrite the outputs of another process ({}); writing {} instead (add %pid% to -o to choose the names)",
            out.file("*").display(),
            renamed.file("*").display()
        );
        out = renamed;
    }
    used.insert(out.clone());

    let settings = WriterSettings {
        agent_index: cfg.agent_index,
        stats: cfg.stats,
        summary: cfg.stats || cfg.wants_summary(),
        config_json: Some(cfg.to_json().to_string()),
        json_config: Some(cfg.output_config_json().to_string()),
        environment_json: Some(environment.to_string()),
        group_by_queue: cfg.tracing.group_by_queue,
        // Renamed while capturing (the capture reader makes the copies).
        kernel_rename: false,
        att_files: if cfg.att.is_some() { crate::att::files_of(pid, &out) } else { Default::default() },
    };
    if cfg.compat.output_config {
        // rocprofv3 writes it whether or not anything was recorded.
        let f = write_config_file(cfg, &meta, &out, environment)?;
        if cfg.log_level.shows_info() {
            eprintln!("rocprof-rs: wrote {}", f.display());
        }
        written.files.push(f);
    }
    let mut writers = writers_for(&cfg.formats, &out, &settings);
    let mut summary = StatsWriter::collect_only();
    let mut counter_summary = CounterStatsWriter::collect_only();
    let mut refs: Vec<&mut dyn Writer> = writers.iter_mut().map(|w| &mut **w as &mut dyn Writer).collect();
    if cfg.wants_summary() {
        refs.push(&mut summary);
        refs.push(&mut counter_summary);
    }
    let mut pc_collector = crate::pcsamp::Collector::default();
    if cfg.pc_sampling.is_some() {
        refs.push(&mut pc_collector);
    }
    let mut names = KernelNames { inner: capture, truncate: cfg.truncate_kernels, mangled: cfg.mangled_kernels };
    let mut eval: Option<crate::counters::eval::CounterEval<'_>> = None;
    let counted: &mut dyn RecordSource = match counters {
        Some((db, merged)) => {
            eval.insert(crate::counters::eval::CounterEval::new(&mut names, db, cfg.tracing.kernel, merged))
        }
        None => &mut names,
    };
    let mut source =
        Collection { inner: counted, windows: cfg.collection.windows(meta.start.ns), kept_bytes: 0, left_out: 0 };
    let options = StreamOptions { bar: Some(progress::bar(0, "writing outputs")), ..StreamOptions::default() };
    let outcome =
        write_stream(&mut source, &mut refs, &options).with_context(|| format!("reading the capture of process {pid}"));
    let (kept_bytes, left_out) = (source.kept_bytes, source.left_out);
    if let (Some(e), Some((_, merged))) = (&eval, counters) {
        crate::counters::report(pid, &e.report, merged);
    }
    drop(refs);
    if left_out > 0 && cfg.log_level.shows_info() {
        eprintln!(
            "rocprof-rs: process {pid}: {left_out} records outside the --collection-period windows were left out"
        );
    }
    report_health(cfg, pid, &capture.health());
    let outcome = outcome?;
    let mut pc_files = Vec::new();
    if let (Some(_), Some(samples)) = (cfg.pc_sampling, capture.pc_samples()) {
        let csv = cfg.formats.contains(&OutputFormat::Csv);
        let written_by = |writer: &str, ext: &str| {
            outcome
                .writers
                .iter()
                .filter(|w| w.name == writer)
                .filter_map(|w| w.result.as_ref().ok())
                .flatten()
                .find(|f| f.extension().is_some_and(|e| e == ext))
                .cloned()
        };
        let (json, pftrace) = (written_by("json", "json"), written_by("pftrace", "pftrace"));
        let to = crate::pcsamp::Outputs {
            out: &out,
            csv,
            json: json.as_deref(),
            pftrace: pftrace.as_deref(),
            stats: cfg.stats,
            top: crate::pcsamp::HOTSPOTS,
        };
        pc_files = crate::pcsamp::write(pid, samples, &pc_collector, &to)
            .with_context(|| format!("writing the PC samples of process {pid}"))?;
    }
    if outcome.events == 0 {
        if cfg.log_level.shows_info() && cfg.any_tracing() {
            eprintln!("rocprof-rs: process {pid} recorded nothing in the traced domains; no output files for it");
        }
        return Ok(());
    }
    if kept_bytes < cfg.collection.minimum_output_bytes {
        // rocprofv3 writes nothing below the threshold; the files are already complete here, so
        // they are removed again (they were never visible under a partial name's final name
        // for long, and nothing else reads them in between).
        for w in &outcome.writers {
            if let Ok(files) = &w.result {
                for f in files {
                    let _ = std::fs::remove_file(f);
                }
            }
        }
        if cfg.log_level.shows_info() {
            eprintln!(
                "rocprof-rs: process {pid}: {kept_bytes} bytes of records are below --minimum-output-data ({} bytes); no outputs written for it",
                cfg.collection.minimum_output_bytes
            );
        }
        return Ok(());
    }
    let dispatches = outcome.count("kernel_dispatch");
    if cfg.log_level.shows_info() {
        for f in &pc_files {
            eprintln!("rocprof-rs: wrote {}", f.display());
        }
    }
    written.files.extend(pc_files);
    let mut first_error = None;
    for w in outcome.writers {
        match w.result {
            Ok(files) => {
                if cfg.log_level.shows_info() {
                    for f in &files {
                        eprintln!("rocprof-rs: wrote {}", f.display());
                    }
                }
                written.files.extend(files);
            }
            Err(e) => {
                let e = anyhow::Error::new(e).context(format!(
                    "writing the {} output of process {pid} under {}",
                    w.name,
                    out.dir().display()
                ));
                if first_error.is_some() {
                    eprintln!("rocprof-rs: error: {e:#}");
                } else {
                    first_error = Some(e);
                }
            }
        }
    }
    if cfg.wants_summary() {
        if let Some(f) = print_summaries(cfg, summary.stats(), counter_summary.stats(), &out)? {
            if cfg.log_level.shows_info() {
                eprintln!("rocprof-rs: wrote {}", f.display());
            }
            written.files.push(f);
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => {
            written.dispatches += dispatches;
            Ok(())
        }
    }
}

/// Prints (or writes, with `--summary-output-file NAME`) the `-D` per-domain and `-S` overall
/// tables of one process, and the counter-collection table when counters were collected. Returns
/// the file written, if any.
fn print_summaries(
    cfg: &Config,
    stats: &AllStats,
    counters: &CounterStats,
    out: &OutputLocation,
) -> Result<Option<PathBuf>> {
    if stats.is_empty() && counters.is_empty() {
        return Ok(None);
    }
    let indent = if matches!(cfg.summary_output, SummaryOutput::File(_)) { 0 } else { 4 };
    let domains = stats.non_empty();
    let mut text = String::new();
    if cfg.summary_per_domain {
        for d in &domains {
            text.push_str(&summary_table(&format!("{} SUMMARY", d.domain), &[d], cfg.summary_unit, indent));
        }
    }
    for g in &cfg.summary_groups {
        // Validated before the run; a domain joins a group when the expression matches its whole name.
        let Ok(full) = regex::Regex::new(&format!("^(?:{g})$")) else { continue };
        let members: Vec<&DomainStats> = domains.iter().copied().filter(|d| full.is_match(d.domain)).collect();
        if !members.is_empty() {
            let label = members.iter().map(|d| d.domain).collect::<Vec<_>>().join(" + ");
            text.push_str(&summary_table(&format!("{label} SUMMARY"), &members, cfg.summary_unit, indent));
        }
    }
    if cfg.summary && !domains.is_empty() {
        text.push_str(&summary_table("SUMMARY", &domains, cfg.summary_unit, indent));
    }
    if !counters.is_empty() {
        // Counter values are no durations: a table of their own, after the duration tables.
        text.push_str(&counters.summary_table(indent));
    }
    match &cfg.summary_output {
        SummaryOutput::Stdout => {
            to_console(std::io::stdout().lock(), &text).context("printing the summary")?;
            Ok(None)
        }
        SummaryOutput::Stderr => {
            to_console(std::io::stderr().lock(), &text).context("printing the summary")?;
            Ok(None)
        }
        SummaryOutput::File(name) => {
            let mut f = out.create(&format!("{name}.txt"))?;
            f.write_all(text.as_bytes())?;
            Ok(Some(f.commit()?))
        }
    }
}

/// `--output-config`: `<prefix>_config.json`, rocprofv3's layout: `{"rocprofiler-sdk-tool":
/// [{"metadata": {pid, init_time, fini_time, config, command, build_spec, environment}}]}`.
fn write_config_file(
    cfg: &Config,
    meta: &rocprof_model::SessionMeta,
    out: &OutputLocation,
    environment: &str,
) -> Result<PathBuf> {
    let command: Vec<String> = if meta.command.is_empty() {
        cfg.app.iter().map(|a| a.to_string_lossy().into_owned()).collect()
    } else {
        meta.command.clone()
    };
    let version = env!("CARGO_PKG_VERSION");
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let doc = serde_json::json!({
        "rocprofiler-sdk-tool": [{
            "metadata": {
                "pid": meta.pid.0,
                "init_time": meta.start.ns,
                "fini_time": meta.end.ns,
                "config": cfg.to_json(),
                "command": command,
                "build_spec": {
                    "version_major": parts.next().unwrap_or(0),
                    "version_minor": parts.next().unwrap_or(0),
                    "version_patch": parts.next().unwrap_or(0),
                    "compiler_id": "rustc",
                    "compiler_version": env!("ROCPROF_RS_COMPILER_VERSION"),
                    "git_revision": env!("ROCPROF_RS_GIT_REVISION"),
                    "library_arch": format!("{}-{}-gnu", std::env::consts::ARCH, std::env::consts::OS),
                    "system_name": std::env::consts::OS,
                    "system_processor": std::env::consts::ARCH,
                    "system_version": env!("ROCPROF_RS_SYSTEM_VERSION"),
                },
                "environment": serde_json::from_str::<serde_json::Value>(environment).unwrap_or_else(|_| serde_json::json!({})),
            }
        }]
    });
    let mut f = out.create("config.json")?;
    let text = serde_json::to_string_pretty(&doc).context("formatting the configuration")?;
    f.write_all(text.as_bytes())?;
    Ok(f.commit()?)
}

fn report_health(cfg: &Config, pid: u32, health: &RunHealth) {
    for line in loss_messages(pid, health) {
        eprintln!("{line}");
    }
    if cfg.log_level.shows_info() {
        eprintln!("{}", health_line(pid, health));
        if let Some(line) = stall_message(pid, health) {
            eprintln!("{line}");
        }
        if !health.clean_exit {
            eprintln!("rocprof-rs: process {pid} did not exit cleanly; writing what it captured");
        }
    }
}

/// The warnings about what one process lost, one line per reason (empty when nothing was lost
/// or degraded).
fn loss_messages(pid: u32, health: &RunHealth) -> Vec<String> {
    let mut out: Vec<String> =
        health.loss_lines().into_iter().map(|l| format!("rocprof-rs: warning: process {pid}: {l}")).collect();
    if health.incomplete_dispatches > 0 {
        out.push(format!(
            "rocprof-rs: warning: process {pid}: {} kernel dispatches had not completed when the process ended; they are not in the outputs",
            health.incomplete_dispatches
        ));
    }
    out
}

/// What the lossless buffer policy cost the process (None when no thread waited).
fn stall_message(pid: u32, health: &RunHealth) -> Option<String> {
    health.stall_line().map(|l| format!("rocprof-rs: process {pid}: {l}"))
}

/// One line on the run's health: records, losses, the interception library's overhead.
fn health_line(pid: u32, h: &RunHealth) -> String {
    let overhead = match (h.ns_per_packet(), h.overhead_fraction()) {
        (Some(per), Some(f)) => format!("{per:.0} ns per packet in hooks, {:.3}% of the run", f * 100.0),
        (Some(per), None) => format!("{per:.0} ns per packet in hooks"),
        _ => "no packets intercepted".into(),
    };
    let lost = match (h.lost.total(), h.incomplete_dispatches) {
        (0, 0) => "complete".to_string(),
        (0, n) => format!("{n} dispatches incomplete (above)"),
        (n, _) => format!("{n} lost (by reason above)"),
    };
    format!("rocprof-rs: process {pid}: {} records written, {lost}; {overhead}", h.records_written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LogLevel;
    use rocprof_model::{LossReason, Trace, TraceSource};
    use rocprof_writers::csv::AgentIndex;
    use rocprof_writers::stats::SummaryUnit;

    fn config(dir: &Path, formats: Vec<OutputFormat>) -> Config {
        Config {
            kernel_filter: Default::default(),
            collection: Default::default(),
            att: None,
            pc_sampling: None,
            pmc: None,
            output_subdir: None,
            tracing: crate::config::Tracing { kernel: true, ..Default::default() },
            needs_tracing: None,
            output_directory: Some(dir.display().to_string()),
            output_file: Some("%tag%/p%pid%".into()),
            formats,
            stats: true,
            summary: true,
            summary_per_domain: false,
            summary_groups: vec![],
            summary_unit: SummaryUnit::Nsec,
            agent_index: AgentIndex::Relative,
            truncate_kernels: false,
            mangled_kernels: false,
            summary_output: SummaryOutput::File("summary".into()),
            log_level: LogLevel::Error,
            buffer_policy: rocprof_model::BufferPolicy::Lossless,
            list_avail: false,
            from_capture: None,
            compat: Default::default(),
            simulate: None,
            app: vec![],
            launch_dir: dir.to_path_buf(),
            launch_secs: 1_700_000_000,
        }
    }

    /// A process's records from memory, as the capture reader would deliver them.
    struct InMemory<'a> {
        source: TraceSource<'a>,
        meta: SessionMeta,
    }

    impl RecordSource for InMemory<'_> {
        fn next_record(&mut self, strings: &mut StringTable) -> Result<Option<Record>, SourceError> {
            self.source.next_record(strings)
        }
    }

    impl ProcessRecords for InMemory<'_> {
        fn meta(&self) -> &SessionMeta {
            &self.meta
        }
        fn health(&self) -> RunHealth {
            RunHealth { clean_exit: true, ..Default::default() }
        }
    }

    fn mem(t: &Trace) -> InMemory<'_> {
        InMemory { source: t.source(), meta: t.meta.clone() }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rocprof-cli-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn losses_are_reported_by_reason() {
        let mut h = RunHealth { clean_exit: true, ..Default::default() };
        assert!(loss_messages(7, &h).is_empty());
        h.lost.add(LossReason::ChunkPoolEmpty, 2);
        h.lost.add(LossReason::TornTail, 1);
        h.lost.add(LossReason::KernelTableFull, 5);
        h.incomplete_dispatches = 4;
        assert_eq!(loss_messages(7, &h), [
            "rocprof-rs: warning: process 7: 2 records dropped (capture space exhausted: disk full?) [chunk_pool_empty]",
            "rocprof-rs: warning: process 7: 5 kernel symbols not resolvable (kernel table full; their dispatches are unnamed) [kernel_table_full]",
            "rocprof-rs: warning: process 7: 1 records cut off at the end of the capture (process killed mid-write) [torn_tail]",
            "rocprof-rs: warning: process 7: 4 kernel dispatches had not completed when the process ended; they are not in the outputs",
        ]);
        h.records_written = 40;
        h.hook_ns = 3_000;
        h.hook_packets = 10;
        h.wall_ns = 1_000_000;
        assert_eq!(
            health_line(7, &h),
            "rocprof-rs: process 7: 40 records written, 8 lost (by reason above); 300 ns per packet in hooks, 0.300% of the run"
        );
        assert_eq!(stall_message(7, &h), None, "nobody waited");
        h.stall_ns = 12_500_000;
        h.stalls = 3;
        h.stall_max_ns = 9_000_000;
        h.stall_thread_max_ns = 10_000_000;
        assert_eq!(
            stall_message(7, &h).unwrap(),
            "rocprof-rs: process 7: the application waited 12.5 ms for capture space in 3 waits (worst thread 10.0 ms in all, longest wait 9.0 ms); nothing was dropped for it (--buffer-policy drop bounds the wait by dropping records instead)"
        );
    }

    #[test]
    fn outputs_are_named_from_the_expanded_templates_per_process() {
        let dir = scratch("write-all");
        let cfg = config(&dir, vec![OutputFormat::Csv, OutputFormat::Rocpd]);
        let mut a = rocprof_writers::synthetic::trace(10);
        a.meta.pid = rocprof_model::ProcessId(111);
        a.meta.command = vec!["/bin/app".into()];
        a.health.records_written = 123;
        a.health.lost.add(LossReason::KernelTableFull, 3);
        let mut b = rocprof_writers::synthetic::trace(0);
        b.meta.pid = rocprof_model::ProcessId(222);
        let captures = vec![mem(&a), mem(&b)];
        let mut failures = Vec::new();
        let w = write_all(
            &cfg,
            captures,
            Some(&[(rocprof_launch::names::TRACE.into(), "kernel".into())]),
            None,
            &mut failures,
        );
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(w.dispatches, 10);
        let names: Vec<String> = w.files.iter().map(|f| f.strip_prefix(&dir).unwrap().display().to_string()).collect();
        assert_eq!(
            names,
            [
                "app/p111_kernel_trace.csv",
                "app/p111_agent_info.csv",
                "app/p111_run_health.csv",
                "app/p111_kernel_stats.csv",
                "app/p111_domain_stats.csv",
                "app/p111_results.db",
                "app/p111_summary.txt"
            ]
        );
        // The run's health reaches the CSV and rocpd metadata.
        let health = std::fs::read_to_string(dir.join("app/p111_run_health.csv")).unwrap();
        assert!(health.starts_with("\"Name\",\"Value\"\n\"records_written\",123\n"), "{health}");
        assert!(
            health.contains("\n\"lost.kernel_table_full\",3\n") && health.contains("\n\"lost_total\",3\n"),
            "{health}"
        );
        let conn = rusqlite::Connection::open(dir.join("app/p111_results.db")).unwrap();
        let lost: String = conn
            .query_row("SELECT value FROM rocpd_metadata WHERE tag = 'run_health.lost.kernel_table_full'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(lost, "3");
        let db = stored_environment(&dir.join("app/p111_results.db"));
        assert!(db.contains(&format!("\"{}\":\"kernel\"", rocprof_launch::names::TRACE)), "{db}");
        let summary = std::fs::read_to_string(dir.join("app/p111_summary.txt")).unwrap();
        assert!(summary.starts_with("\nROCPROFV3 SUMMARY:\n\n|"), "{summary}");
        assert_eq!(summary.lines().filter(|l| l.starts_with("| ")).count(), 1 + synthetic_kernels(10), "{summary}");
    }

    /// The environment JSON stored in a database, read with the rusqlite dev-dependency.
    fn stored_environment(db: &Path) -> String {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row("SELECT environment FROM rocpd_info_process", [], |r| r.get(0)).unwrap()
    }

    fn synthetic_kernels(dispatches: usize) -> usize {
        rocprof_writers::synthetic::KERNELS.len().min(dispatches)
    }

    #[test]
    fn mangled_and_truncated_names() {
        let dir = scratch("names");
        let mut cfg = config(&dir, vec![OutputFormat::Csv]);
        cfg.summary = false;
        cfg.mangled_kernels = true;
        let t = rocprof_writers::synthetic::trace(1);
        let mut failures = Vec::new();
        write_all(&cfg, vec![mem(&t)], None, None, &mut failures);
        assert!(failures.is_empty(), "{failures:?}");
        let pid = rocprof_writers::synthetic::trace(0).meta.pid;
        let text = std::fs::read_to_string(dir.join(format!("synthetic/p{pid}_kernel_trace.csv"))).unwrap();
        assert!(text.contains(",\"vector_add.kd\","), "{text}");
    }

    #[test]
    fn one_unreadable_capture_does_not_cost_the_others() {
        // Regression: a single capture that could not be decoded (a process killed while
        // writing its header) used to fail the whole run before any output was written.
        let dir = scratch("bad-capture");
        let good = dir.join("100.rpcap");
        let header = rocprof_model::capture::HeaderInfo { pid: 100, chunk_size: 4096, ..Default::default() };
        std::fs::write(&good, rocprof_model::capture::encode_header(&header)).unwrap();
        let bad = dir.join("200.rpcap");
        std::fs::write(&bad, b"RPCAP").unwrap();
        let (captures, failures) = open_captures(&capture_files(&dir).unwrap(), false, true);
        assert_eq!(captures.len(), 1);
        assert_eq!(captures[0].meta().pid.0, 100);
        assert_eq!(failures.len(), 1);
        let e = format!("{:#}", failures[0]);
        assert!(e.starts_with(&format!("reading capture {}: ", bad.display())), "{e}");
    }

    #[test]
    fn one_process_failing_to_write_does_not_cost_the_others() {
        let dir = scratch("write-failure");
        let cfg = config(&dir, vec![OutputFormat::Csv]);
        // The first process's output directory is blocked by a regular file.
        std::fs::write(dir.join("app"), b"not a directory").unwrap();
        let mut a = rocprof_writers::synthetic::trace(2);
        a.meta.command = vec!["/bin/app".into()];
        let b = rocprof_writers::synthetic::trace(3);
        let captures = vec![mem(&a), mem(&b)];
        let mut failures = Vec::new();
        let w = write_all(&cfg, captures, None, None, &mut failures);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(format!("{:#}", failures[0]).contains(&dir.join("app").display().to_string()), "{:#}", failures[0]);
        assert_eq!(w.dispatches, 3);
        assert!(w.files.iter().all(|f| f.starts_with(dir.join("synthetic"))), "{:?}", w.files);
    }

    #[test]
    fn launch_time_placeholders_expand_to_the_launch_not_to_the_write() {
        // Regression: `%launch_time%` was taken when the outputs were written, so a run that
        // crossed a minute wrote its files into another directory than the one checked (and
        // created) before it started.
        let dir = scratch("launch-time");
        let mut cfg = config(&dir, vec![OutputFormat::Csv]);
        cfg.summary = false;
        cfg.output_file = Some("%launch_time%/run".into());
        let t = rocprof_writers::synthetic::trace(1);
        let mut failures = Vec::new();
        let w = write_all(&cfg, vec![mem(&t)], None, None, &mut failures);
        assert!(failures.is_empty(), "{failures:?}");
        // 1_700_000_000 s is 2023-11-14 22:13:20 UTC.
        assert!(w.files.iter().all(|f| f.starts_with(dir.join("2023-11-14_22.13"))), "{:?}", w.files);
    }

    #[test]
    fn processes_sharing_an_output_prefix_do_not_overwrite_each_other() {
        // Regression: with -o lacking %pid% and two profiled processes, the second process's
        // files replaced the first's, silently losing its records.
        let dir = scratch("shared-prefix");
        let mut cfg = config(&dir, vec![OutputFormat::Csv]);
        cfg.summary = false;
        cfg.stats = false;
        cfg.output_file = Some("run".into());
        let a = rocprof_writers::synthetic::trace(2);
        let mut b = rocprof_writers::synthetic::trace(3);
        b.meta.pid = rocprof_model::ProcessId(4343);
        let captures = vec![mem(&a), mem(&b)];
        let mut failures = Vec::new();
        write_all(&cfg, captures, None, None, &mut failures);
        assert!(failures.is_empty(), "{failures:?}");
        let rows = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap().lines().count() - 1;
        assert_eq!(rows("run_kernel_trace.csv"), 2);
        assert_eq!(rows("run_4343_kernel_trace.csv"), 3);
    }

    #[test]
    fn agent_listing_names_every_agent() {
        let t = rocprof_writers::synthetic::trace(0);
        let text = agent_listing(&t.agents, &t.strings);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.contains("Agent 1   GPU  gfx942     AMD Instinct MI300X (node 1, 304 CUs"), "{text}");
    }
}
