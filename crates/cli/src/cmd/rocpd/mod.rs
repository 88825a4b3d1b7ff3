//! `rocprof-rs rocpd query|summary|convert ...`: AMD's `rocpd` command line (its Python package,
//! `python -m rocpd`), so a script that calls AMD's tool works with only the program name changed.
//! The options are AMD's (`-i/--input DB...`, `-d/--output-path`, `-o/--output-file`, the time
//! window `--start/--end/--start-marker/--end-marker/--inclusive`, ...); query and summary run
//! AMD's SQL over the same views (see [`import`]), convert streams the databases through
//! rocprof-rs's writers.

mod export;
mod extra;
mod import;
mod summary;
mod table;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rocprof_writers::csv::AgentIndex;
use rocprof_writers::OutputLocation;

use crate::config::OutputFormat;
use crate::outputs::WriterSettings;
use export::{export, Format, SummaryFormat};
use import::{Import, WindowArgs};
use table::Table;

const AFTER_HELP: &str = "\
AMD's rocpd command line: `rocprof-rs rocpd` takes the place of `rocpd` / `python -m rocpd`.
  query    run an SQL SELECT over the databases' rocpd views (console, csv, html, json, md,
           dashboard, clipboard)
  summary  the *_summary views (per data view, region category, rank, domain) as files
  convert  the databases as csv, pftrace (perfetto) or otf2 outputs

Exit status: 0 on success, 1 when a database could not be read or an output written, 2 for a
usage error.";

/// Aggregate and analyse rocpd databases (AMD's `rocpd` command line).
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct RocpdArgs {
    /// Print the version information and exit.
    #[arg(short = 'v', long)]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Clone, clap::Args)]
struct Inputs {
    /// One or more databases.
    #[arg(short = 'i', long = "input", num_args = 1.., required = true, value_name = "DB")]
    input: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run an SQL query on the databases and print or export its result.
    Query {
        #[command(flatten)]
        inputs: Inputs,
        /// SQL SELECT query to execute.
        #[arg(long, required = true)]
        query: String,
        /// SQL script executed before the query (e.g. defines views); statements separated by ';'.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Export format (default: console); dashboard is an HTML page around the table,
        /// clipboard hands the table to wl-copy / xclip / xsel.
        #[arg(long, value_enum, ignore_case = true)]
        format: Option<Format>,
        /// Jinja2 template of the dashboard page (variables title, timestamp, table_html).
        #[arg(long, value_name = "PATH")]
        template_path: Option<PathBuf>,
        /// Refused: rocprof-rs sends no e-mail (the other --email-*/--smtp-* options only apply
        /// with it, as in AMD's rocpd).
        #[arg(long, value_name = "ADDR")]
        email_to: Option<String>,
        #[arg(long, value_name = "ADDR", hide = true)]
        email_from: Option<String>,
        #[arg(long, value_name = "TEXT", hide = true)]
        email_subject: Option<String>,
        #[arg(long, value_name = "HOST", hide = true)]
        smtp_server: Option<String>,
        #[arg(long, value_name = "PORT", hide = true)]
        smtp_port: Option<u16>,
        #[arg(long, value_name = "USER", hide = true)]
        smtp_user: Option<String>,
        #[arg(long, value_name = "PASSWORD", hide = true)]
        smtp_password: Option<String>,
        #[arg(long, hide = true)]
        zip_attachments: bool,
        #[arg(long, hide = true)]
        inline_preview: bool,
        /// Accepted as AMD's query accepts it (the query names its own columns).
        #[arg(long, value_enum)]
        agent_index_value: Option<AgentIndexArg>,
        /// Base output file name.
        #[arg(short = 'o', long)]
        output_file: Option<String>,
        /// Output directory.
        #[arg(short = 'd', long)]
        output_path: Option<PathBuf>,
        /// Accepted as AMD's query accepts it: the query names its own columns.
        #[arg(long)]
        kernel_rename: bool,
        #[command(flatten)]
        window: WindowArgs,
    },
    /// Generate the summary views and write them out.
    Summary {
        #[command(flatten)]
        inputs: Inputs,
        /// Output format.
        #[arg(short = 'f', long, value_enum, ignore_case = true, default_value = "console")]
        format: SummaryFormat,
        /// Base output file name (prefix of every summary file).
        #[arg(short = 'o', long)]
        output_file: Option<String>,
        /// Output directory.
        #[arg(short = 'd', long)]
        output_path: Option<PathBuf>,
        /// Also the summary over domains (domain_summary).
        #[arg(long)]
        domain_summary: bool,
        /// Also every summary per process (*_summary_by_rank).
        #[arg(long)]
        summary_by_rank: bool,
        /// Region categories to summarise (HIP, HSA, RCCL, MARKER, ...; default: every one present).
        #[arg(long, num_args = 1..)]
        region_categories: Option<Vec<String>>,
        #[command(flatten)]
        window: WindowArgs,
    },
    /// Convert the databases to other output formats.
    Convert {
        #[command(flatten)]
        inputs: Inputs,
        /// Output formats.
        #[arg(short = 'f', long, num_args = 1.., required = true, value_enum, ignore_case = true)]
        output_format: Vec<ConvertFormat>,
        /// Base output file name.
        #[arg(short = 'o', long)]
        output_file: Option<String>,
        /// Output directory.
        #[arg(short = 'd', long)]
        output_path: Option<PathBuf>,
        /// Kernels named after their ROCTx range: the names the profiler gave them (the databases
        /// of a --kernel-rename run hold the renamed kernels).
        #[arg(long)]
        kernel_rename: bool,
        /// Device naming (absolute, relative, type-relative).
        #[arg(long, value_enum, default_value = "relative")]
        agent_index_value: AgentIndexArg,
        /// Perfetto: kernels and copies on HSA queue tracks instead of HIP stream tracks.
        #[arg(long)]
        group_by_queue: bool,
        /// Perfetto backend of AMD's in-process writer (inprocess; system is refused).
        #[arg(long, value_parser = ["inprocess", "system"], default_value = "inprocess")]
        perfetto_backend: String,
        /// Buffer policy of AMD's in-process Perfetto writer (does not apply, see the note).
        #[arg(long, value_parser = ["discard", "ring_buffer"])]
        perfetto_buffer_fill_policy: Option<String>,
        /// Buffer size (KB) of AMD's in-process Perfetto writer (does not apply, see the note).
        #[arg(long)]
        perfetto_buffer_size: Option<u64>,
        /// Shared-memory hint (KB) of AMD's in-process Perfetto writer (does not apply).
        #[arg(long)]
        perfetto_shmem_size_hint: Option<u64>,
        #[command(flatten)]
        window: WindowArgs,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConvertFormat {
    Csv,
    #[value(alias = "perfetto")]
    Pftrace,
    Otf2,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum AgentIndexArg {
    Absolute,
    Relative,
    TypeRelative,
}

/// Runs `rocprof-rs rocpd`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let a: RocpdArgs = match super::parse("rocpd", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    // AMD's defaults: $ROCPD_OUTPUT_NAME (else "out"; summary: no prefix), $ROCPD_OUTPUT_PATH
    // (else ./rocpd-output-data).
    let name = |o: Option<String>, default: &str| {
        o.or_else(|| std::env::var("ROCPD_OUTPUT_NAME").ok()).unwrap_or_else(|| default.to_string())
    };
    let path = |d: Option<PathBuf>| {
        d.or_else(|| std::env::var_os("ROCPD_OUTPUT_PATH").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("./rocpd-output-data"))
    };
    if a.version {
        print!("{}", crate::version::text());
        return ExitCode::SUCCESS;
    }
    let Some(command) = a.command else {
        // AMD's rocpd prints its help when no command is given.
        let _ = <RocpdArgs as clap::CommandFactory>::command().name("rocprof-rs rocpd").print_help();
        return ExitCode::SUCCESS;
    };
    let code = match command {
        Command::Query {
            inputs,
            query,
            script,
            format,
            template_path,
            email_to,
            output_file,
            output_path,
            window,
            ..
        } => {
            if let Some(to) = email_to {
                return super::fail(&format!(
                    "--email-to {to}: rocprof-rs does not send e-mail; export the report with --format and -o and mail the file yourself"
                ));
            }
            if template_path.is_some() && format != Some(Format::Dashboard) {
                return super::fail(&"--template-path is the template of --format dashboard");
            }
            let (output_file, output_path) = (name(output_file, "out"), path(output_path));
            let result = (|| -> anyhow::Result<()> {
                let mut import = Import::open(&inputs.input)?;
                import.apply_window(&window)?;
                if let Some(script) = &script {
                    let text = std::fs::read_to_string(script)
                        .map_err(|e| anyhow::anyhow!("reading {}: {e}", script.display()))?;
                    for stmt in text.split(';').filter(|s| !s.trim().is_empty()) {
                        import.conn.execute_batch(stmt)?;
                    }
                }
                let table = Table::query(&import.conn, &query)?;
                let out = output_path.join(&output_file);
                export(&table, &query, format.unwrap_or(Format::Console), &out, template_path.as_deref())?;
                Ok(())
            })();
            finish(result)
        }
        Command::Summary {
            inputs,
            format,
            output_file,
            output_path,
            domain_summary,
            summary_by_rank,
            region_categories,
            window,
        } => {
            let (output_file, output_path) = (name(output_file, ""), path(output_path));
            let result = (|| -> anyhow::Result<()> {
                let mut import = Import::open(&inputs.input)?;
                import.apply_window(&window)?;
                let settings = summary::Settings {
                    format: format.into(),
                    output_path: &output_path,
                    output_file: &output_file,
                    domain_summary,
                    by_rank: summary_by_rank,
                    region_categories: region_categories.as_deref(),
                };
                summary::run(&import, &settings)?;
                Ok(())
            })();
            finish(result)
        }
        Command::Convert {
            inputs,
            output_format,
            output_file,
            output_path,
            kernel_rename,
            agent_index_value,
            group_by_queue,
            perfetto_backend,
            perfetto_buffer_fill_policy,
            perfetto_buffer_size,
            perfetto_shmem_size_hint,
            window,
        } => {
            let (output_file, output_path) = (name(output_file, "out"), path(output_path));
            if perfetto_backend == "system" {
                return super::fail(
                    &"--perfetto-backend system needs AMD's traced/perfetto daemons; rocprof-rs writes the trace file itself (use inprocess)",
                );
            }
            if perfetto_buffer_fill_policy.is_some()
                || perfetto_buffer_size.is_some()
                || perfetto_shmem_size_hint.is_some()
            {
                eprintln!(
                    "rocprof-rs: note: --perfetto-buffer-* / --perfetto-shmem-size-hint do not apply: rocprof-rs streams the trace from the databases without an in-process buffer and drops nothing"
                );
            }
            let window = match window_bounds(&inputs.input, &window) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{e:#}")));
                    return ExitCode::from(1);
                }
            };
            if kernel_rename {
                match renamed_at_profiling(&inputs.input) {
                    Ok(true) => {}
                    Ok(false) => {
                        return super::fail(
                            &"--kernel-rename: these databases were recorded without --kernel-rename (their dispatches carry no ROCTx range to be named after); profile with --kernel-rename",
                        )
                    }
                    Err(e) => return super::fail(&format!("{e:#}")),
                }
            }
            let mut formats = Vec::new();
            for f in &output_format {
                let f = match f {
                    ConvertFormat::Csv => OutputFormat::Csv,
                    ConvertFormat::Pftrace => OutputFormat::Pftrace,
                    ConvertFormat::Otf2 => {
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
                agent_index: match agent_index_value {
                    AgentIndexArg::Absolute => AgentIndex::Absolute,
                    AgentIndexArg::Relative => AgentIndex::Relative,
                    AgentIndexArg::TypeRelative => AgentIndex::TypeRelative,
                },
                group_by_queue,
                kernel_rename,
                ..WriterSettings::default()
            };
            let out = OutputLocation::new(&output_path, output_file.as_str());
            for f in &output_format {
                // AMD's line per requested format (its names: perfetto is pftrace).
                let name = match f {
                    ConvertFormat::Csv => "csv",
                    ConvertFormat::Pftrace => "pftrace",
                    ConvertFormat::Otf2 => "otf2",
                };
                println!("Converting database(s) to {name} format:");
            }
            super::convert::convert_databases(&inputs.input, &formats, &out, &settings, window)
        }
    };
    if code == ExitCode::SUCCESS {
        // AMD's rocpd ends every command this way (scripts may wait for it).
        println!("Done. Exiting...");
    }
    code
}

fn finish(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rocprof-rs: error: {}", super::one_line(&format!("{e:#}")));
            ExitCode::from(1)
        }
    }
}

/// The window in ns the time-window options name over `paths` (None without them).
fn window_bounds(paths: &[PathBuf], w: &WindowArgs) -> anyhow::Result<Option<super::convert::Window>> {
    let mut import = Import::open(paths)?;
    Ok(import.window(w)?.map(|(start, end)| super::convert::Window { start, end, inclusive: w.inclusive }))
}

/// True when every database's process recorded a configuration with `kernel_rename` on.
fn renamed_at_profiling(paths: &[PathBuf]) -> anyhow::Result<bool> {
    let import = Import::open(paths)?;
    let t = Table::query(&import.conn, "SELECT extdata FROM rocpd_info_process")?;
    Ok(!t.rows.is_empty()
        && t.rows.iter().all(|r| {
            r.first().map(table::Cell::text).is_some_and(|s| {
                serde_json::from_str::<serde_json::Value>(&s).is_ok_and(|v| find_true(&v, "kernel_rename"))
            })
        }))
}

/// True when some object in `v` has `key: true`.
fn find_true(v: &serde_json::Value, key: &str) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            m.iter().any(|(k, x)| (k == key && x == &serde_json::Value::Bool(true)) || find_true(x, key))
        }
        serde_json::Value::Array(a) => a.iter().any(|x| find_true(x, key)),
        _ => false,
    }
}
