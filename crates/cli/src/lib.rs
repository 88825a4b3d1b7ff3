//! `rocprof-rs`: the command-line front end. Parses rocprofv3-style options, runs the
//! application under the interception library (on hsa-sim with `--simulate`), then turns the
//! capture files into rocpd / CSV outputs and reports what was written and what was lost.
//!
//! Exit status: the application's; 128+N if a signal killed it; 1 if rocprof-rs failed; 2 for
//! a command-line error.
// One function sets the application's parent-death signal (`launch::die_with_parent`).
#![deny(unsafe_code)]

mod args;
mod att;
mod capture_dir;
mod cmd;
mod config;
mod console;
mod counters;
mod launch;
mod options;
mod outputs;
mod pcsamp;
mod placeholders;
mod probe;
mod progress;
mod version;
mod yaml;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};
use clap::Parser;

use crate::capture_dir::CaptureDir;
use crate::config::Config;
use crate::launch::AppExit;

/// Entry points for the fuzz targets in `fuzz/` (not an API: hidden, may change any time).
#[doc(hidden)]
pub mod fuzzing {
    use std::ffi::OsString;
    use std::path::Path;

    /// An `-i` input file called `name` (its extension picks the format) holding `text`, through
    /// the same steps as `rocprof-rs -i FILE -- app` before the application starts: the file's
    /// jobs, each job's command line parsed and resolved into a configuration. Errors are the
    /// expected outcome for most inputs; a panic is a bug. Returns the number of valid jobs.
    pub fn input_file(name: &str, text: &str) -> usize {
        let argv = ["rocprof-rs", "-i", name, "--", "app"].map(OsString::from);
        let Ok(jobs) = crate::args::input::jobs_from_text(&argv, Path::new(name), text) else { return 0 };
        jobs.into_iter()
            .filter(|j| {
                <crate::args::Args as clap::Parser>::try_parse_from(&j.argv).is_ok_and(|a| a.into_config().is_ok())
            })
            .count()
    }

    /// Every reader of rocpd databases over the file `db`, as `rocprof-rs` runs them: `convert` to
    /// CSV (with `--stats`), JSON and Perfetto into `scratch/convert`, `summary -S -D`, `diff` of
    /// the file against itself, and `merge` into `scratch/merged.db`. Each prints its one-line error
    /// and returns its exit status; a panic or a hang is a bug. Returns the four exit statuses
    /// (`convert`, `summary`, `diff`, `merge`).
    pub fn rocpd_readers(db: &Path, scratch: &Path) -> [std::process::ExitCode; 4] {
        let run = |argv: Vec<OsString>| {
            let sub = crate::cmd::find(&argv[0]).expect("a subcommand");
            (sub.run)(argv[1..].to_vec())
        };
        let os = |parts: &[&std::ffi::OsStr]| parts.iter().map(|p| p.to_os_string()).collect::<Vec<_>>();
        let out = scratch.join("convert");
        let merged = scratch.join("merged.db");
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_file(&merged);
        let convert = run(os(&[
            "convert".as_ref(),
            db.as_os_str(),
            "-f".as_ref(),
            "csv".as_ref(),
            "json".as_ref(),
            "pftrace".as_ref(),
            "--stats".as_ref(),
            "-d".as_ref(),
            out.as_os_str(),
        ]));
        let summary = run(os(&["summary".as_ref(), db.as_os_str(), "-S".as_ref(), "-D".as_ref()]));
        let diff = run(os(&["diff".as_ref(), "--base".as_ref(), db.as_os_str(), "--head".as_ref(), db.as_os_str()]));
        let merge = run(os(&["merge".as_ref(), db.as_os_str(), "-o".as_ref(), merged.as_os_str()]));
        [convert, summary, diff, merge]
    }
}

/// Exit status for command-line errors (argparse's, which rocprofv3 users know).
const USAGE_ERROR: u8 = 2;

/// The `rocprof-rs` program (`src/main.rs` only calls this; the library exists so that the fuzz
/// targets in `fuzz/` can reach the parsers, see [`fuzzing`]).
pub fn main() -> ExitCode {
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    if let Some(sub) = argv.get(1).and_then(cmd::find) {
        return (sub.run)(argv.split_off(2));
    }
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if args.wants_version() {
        return match console::to_console(std::io::stdout().lock(), &version::text()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("rocprof-rs: error: printing the version: {e}");
                ExitCode::from(1)
            }
        };
    }
    // -i FILE: one run per pass/job, every job validated before the first one starts.
    let configs = match &args.input {
        Some(file) => {
            let jobs = match args::input::jobs(&argv, file) {
                Ok(j) => j,
                Err(e) => {
                    eprintln!("rocprof-rs: error: {e:#}");
                    return ExitCode::from(USAGE_ERROR);
                }
            };
            let mut configs = Vec::new();
            for job in jobs {
                let args = match parse_args(&job.argv) {
                    Ok(a) => a,
                    Err(code) => return code,
                };
                match args.into_config() {
                    Ok(mut c) => {
                        c.output_subdir = job.subdir;
                        configs.push(c);
                    }
                    Err(e) => {
                        eprintln!("rocprof-rs: error: input file {}: {e:#}", file.display());
                        return ExitCode::from(USAGE_ERROR);
                    }
                }
            }
            configs
        }
        None => match args.into_config() {
            Ok(c) => vec![c],
            Err(e) => {
                eprintln!("rocprof-rs: error: {e:#}");
                return ExitCode::from(USAGE_ERROR);
            }
        },
    };
    let mut prepared = Vec::new();
    for cfg in &configs {
        match prepare(cfg) {
            Ok(p) => prepared.push(p),
            Err(e) => return fail(e),
        }
    }
    let several = configs.len() > 1;
    let mut status = 0;
    for (n, (cfg, prep)) in configs.iter().zip(&prepared).enumerate() {
        match run(cfg, prep) {
            Ok(code) => {
                status = code;
                if several && code != 0 {
                    eprintln!(
                        "rocprof-rs: error: pass {} of {}: the application exited with status {code}; the remaining passes are not run",
                        n + 1,
                        configs.len()
                    );
                    return ExitCode::from(1);
                }
            }
            Err(e) => return fail(e),
        }
    }
    ExitCode::from(status)
}

/// Parses a command line; on error prints one line and returns the exit code.
fn parse_args(argv: &[OsString]) -> std::result::Result<args::Args, ExitCode> {
    args::Args::try_parse_from(argv).map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("invalid command line");
        let first = first.strip_prefix("error: ").unwrap_or(first);
        eprintln!("rocprof-rs: error: {first} (see rocprof-rs --help)");
        ExitCode::from(USAGE_ERROR)
    })
}

/// Prints `e` and returns its exit status: 2 for a request that cannot run (found before launch), 1
/// otherwise, 0 for a closed pipe.
fn fail(e: anyhow::Error) -> ExitCode {
    if is_broken_pipe(&e) {
        return ExitCode::SUCCESS;
    }
    eprintln!("rocprof-rs: error: {e:#}");
    if e.downcast_ref::<counters::RequestError>().is_some() {
        ExitCode::from(USAGE_ERROR)
    } else {
        ExitCode::from(1)
    }
}

/// What is decided before the application starts.
struct Prepared {
    /// The planned counter request.
    counters: Option<counters::CounterSetup>,
}

/// Validation that needs the agents: the counter request is checked and planned before the
/// application starts (on `--simulate` from the target table, else from an agent query).
fn prepare(cfg: &Config) -> Result<Prepared> {
    let counters = match &cfg.pmc {
        Some(req) if !cfg.app.is_empty() => {
            let agents = counters::target_agents(cfg, || probe::probe_gpu_agents(cfg))?;
            Some(counters::plan(req, &agents)?)
        }
        _ => None,
    };
    Ok(Prepared { counters })
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Creates the output directory (to fail before running the application, not after) and a
/// private capture directory inside it. When the directory depends on the application's pid
/// (`%pid%` and friends), it is not known yet: then the capture directory goes into the
/// longest pid-independent parent, which is checked instead.
fn prepare_dirs(cfg: &Config) -> Result<(PathBuf, CaptureDir)> {
    let own_pid = std::process::id();
    let app: Vec<String> = cfg.app.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let expand_for = |pid: u32| {
        let ctx =
            placeholders::Context::new(pid, pid, app.clone(), cfg.launch_dir.display().to_string(), 1, cfg.launch_secs);
        let dir = placeholders::expand(&cfg.output_directory_template(), &ctx);
        if Path::new(&dir).is_absolute() {
            PathBuf::from(dir)
        } else {
            cfg.launch_dir.join(dir)
        }
    };
    let dir = expand_for(own_pid);
    let other = expand_for(own_pid.wrapping_add(1));
    // Keep the leading path components both expansions share.
    let dir = if dir == other {
        dir
    } else {
        dir.components().zip(other.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect()
    };
    if dir.exists() && !dir.is_dir() {
        bail!("output directory {} exists and is not a directory", dir.display());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("output directory {} cannot be created", dir.display()))?;
    let capture = dir.join(format!(".rocprof-rs-capture-{own_pid}"));
    std::fs::create_dir_all(&capture).with_context(|| format!("output directory {} is not writable", dir.display()))?;
    let probe = capture.join(".write-test");
    std::fs::write(&probe, b"").with_context(|| format!("output directory {} is not writable", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    let keep = std::env::var_os(rocprof_launch::names::KEEP_CAPTURE).is_some_and(|v| v == "1");
    Ok((dir, CaptureDir { path: capture, keep }))
}

/// `s` as Python's `repr` writes a string (single quotes unless it holds one and no double quote).
fn python_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

fn print_env(env: &[(String, OsString)]) {
    for (k, v) in env {
        eprintln!("rocprof-rs: env {k}={}", v.to_string_lossy());
    }
}

/// The whole run; returns our exit status.
fn run(cfg: &Config, prep: &Prepared) -> Result<u8> {
    if let Some(dir) = &cfg.from_capture {
        return convert_kept_captures(cfg, dir);
    }
    if !cfg.any_tracing() && !cfg.app.is_empty() {
        if let Some(opt) = cfg.needs_tracing {
            bail!("no tracing options were enabled for the {opt} option (add e.g. --kernel-trace or --sys-trace)");
        }
        if std::env::var("ROCPROFILER_CI")
            .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on" | "y" | "t"))
        {
            bail!("no tracing options were enabled (ROCPROFILER_CI is set, which makes this fatal)");
        }
        if !cfg.list_avail {
            eprintln!(
                "rocprof-rs: warning: no tracing options were enabled; the application runs without profiling outputs"
            );
        }
    }
    if cfg.log_level.shows_config() {
        eprintln!("rocprof-rs: config {}", cfg.to_json());
    }
    if cfg.compat.perfetto.given {
        let p = &cfg.compat.perfetto;
        eprintln!(
            "rocprof-rs: note: --perfetto-* ({} backend, {} KB buffer, {} policy, {} KB shared-memory hint) do not apply: rocprof-rs writes the Perfetto trace from its capture after the run, without an in-process buffer, and drops nothing; they are recorded in the configuration",
            p.backend, p.buffer_size_kb, p.fill_policy, p.shmem_size_hint_kb
        );
    }
    if cfg.compat.echo {
        // rocprofv3 prints the command as a Python list after every check, and runs nothing.
        let items: Vec<String> = cfg.app.iter().map(|a| python_repr(&a.to_string_lossy())).collect();
        console::to_console(std::io::stdout().lock(), &format!("command: [{}]\n", items.join(", ")))?;
        return Ok(0);
    }
    let (_out_dir, capture) = prepare_dirs(cfg)?;
    let sim_dir = match &cfg.simulate {
        Some(_) => Some(launch::find_sim_dir(&capture.path)?),
        None => {
            launch::check_real_rocr(cfg.compat.rocm_root.as_deref())?;
            None
        }
    };
    let intercept = launch::find_intercept(&cfg.compat)?;
    if cfg.tracing.marker && cfg.compat.marker_preload && launch::find_roctx(&intercept, &cfg.compat).is_none() {
        eprintln!(
            "rocprof-rs: note: {} is not next to {}, so it is not preloaded: only an application whose ROCTx library hands its tables to the profiler reports markers",
            launch::ROCTX_LIB,
            intercept.display()
        );
    }
    let mut env = launch::launch_env(cfg, &intercept, sim_dir.as_deref(), &capture.path);
    if let Some(c) = &prep.counters {
        env.extend(c.env(0));
        if c.passes > 1 {
            eprintln!("rocprof-rs: the counters do not fit one pass; the application runs {} times:", c.passes);
            for line in c.plan_text() {
                eprintln!("rocprof-rs:   {line}");
            }
        }
    }
    if cfg.log_level.shows_env() {
        print_env(&env);
    }

    if cfg.app.is_empty() {
        // -L alone: start the runtime under our library with a probe program and list the
        // agents its capture header records.
        let first = probe::run_probe(cfg, env, &capture.path, probe::ProbeFor::AgentList)?;
        outputs::print_agents(&first)?;
        return Ok(0);
    }

    let started = std::time::Instant::now();
    let exit = launch::run_app(&cfg.app, &env)?;
    if let Some(mode) = cfg.compat.benchmark_mode {
        // rocprofv3 writes no outputs when benchmarking.
        eprintln!(
            "rocprof-rs: benchmark-mode {}: the application ran for {:.6} s; no outputs are written",
            mode.name(),
            started.elapsed().as_secs_f64()
        );
        return Ok(exit.status());
    }
    let mut merged = Vec::new();
    if let Some(c) = &prep.counters {
        merged = replay(cfg, c, &intercept, sim_dir.as_deref(), &capture.path, exit)?;
    }
    let files = outputs::capture_files(&capture.path)?;
    if files.is_empty() {
        eprintln!(
            "rocprof-rs: warning: the application wrote no capture (it did not initialise the HSA runtime, or the interception library was not loaded)"
        );
        return Ok(exit.status());
    }
    let (captures, mut failures) = outputs::open_captures(&files, cfg.tracing.kernel_rename, cfg.tracing.marker);
    if cfg.list_avail && !captures.is_empty() {
        outputs::print_agents(&files[0])?;
    }
    let counter_outputs = prep.counters.as_ref().map(|c| outputs::CounterOutputs { db: &c.db, merged: &merged });
    pcsamp::set_capture_dir(&capture.path);
    att::set_capture_dir(&capture.path);
    let written = outputs::write_all(cfg, captures, Some(&env), counter_outputs.as_ref(), &mut failures);
    if let AppExit::Signal(sig) = exit {
        eprintln!("rocprof-rs: the application was killed by signal {sig}; outputs hold what it captured before");
    }
    if let Some(last) = failures.pop() {
        // Every process whose capture could not be turned into outputs gets its own line.
        for e in &failures {
            eprintln!("rocprof-rs: error: {e:#}");
        }
        return Err(keep_on_error(capture, last));
    }
    if written.files.is_empty() && cfg.any_tracing() && cfg.log_level.shows_info() {
        eprintln!("rocprof-rs: nothing was traced, so no output files were written");
    }
    if cfg.att.is_some() && !att::after_run(cfg, &capture.path)? {
        return Ok(exit.status().max(1));
    }
    Ok(exit.status())
}

/// Passes 2..N of an automatic replay: runs the application once per further pass (each with its own
/// capture directory under `capture_dir`) and collects their counters, per process, for merging into
/// pass 1's outputs. A pass whose application fails ends the replay (reported; the counters of the
/// passes that did not run are missing from the outputs, and said so).
fn replay(
    cfg: &Config,
    c: &counters::CounterSetup,
    intercept: &Path,
    sim_dir: Option<&Path>,
    capture_dir: &Path,
    first: AppExit,
) -> Result<Vec<counters::eval::Merged>> {
    let mut merged: Vec<counters::eval::Merged> = Vec::new();
    if c.passes <= 1 {
        return Ok(merged);
    }
    if first != AppExit::Code(0) {
        eprintln!("rocprof-rs: warning: pass 1 did not end normally; the remaining passes are not run");
        return Ok(merged);
    }
    for pass in 1..c.passes {
        let dir = capture_dir.join(format!("pass-{}", pass + 1));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        // Thread traces come from pass 1 only: a replay repeats the run for its counters.
        let pass_cfg = Config { att: None, ..cfg.clone() };
        let mut env = launch::launch_env(&pass_cfg, intercept, sim_dir, &dir);
        env.extend(c.env(pass));
        eprintln!("rocprof-rs: pass {} of {}", pass + 1, c.passes);
        let exit = launch::run_app(&cfg.app, &env)?;
        if exit != AppExit::Code(0) {
            eprintln!(
                "rocprof-rs: warning: pass {} of {} ended with {exit:?}; its counters and those of later passes are missing",
                pass + 1,
                c.passes
            );
            break;
        }
        let files = outputs::capture_files(&dir)?;
        let (captures, failures) = outputs::open_captures(&files, cfg.tracing.kernel_rename, cfg.tracing.marker);
        for e in failures {
            eprintln!("rocprof-rs: warning: pass {}: {e:#}", pass + 1);
        }
        for (i, mut capture) in captures.into_iter().enumerate() {
            if merged.len() <= i {
                merged.push(counters::eval::Merged::default());
            }
            counters::eval::collect_pass(&mut capture, &c.db, &mut merged[i])
                .map_err(|e| anyhow::anyhow!("reading the capture of pass {}: {e}", pass + 1))?;
        }
    }
    Ok(merged)
}

/// Keeps the capture files when converting them failed, and says how to convert them later.
fn keep_on_error(mut capture: CaptureDir, e: anyhow::Error) -> anyhow::Error {
    capture.keep = true;
    anyhow::anyhow!(
        "{e:#} (the capture files are kept: once fixed, write the outputs with rocprof-rs --from-capture {} [output options])",
        capture.path.display()
    )
}

/// `--from-capture DIR`: writes the outputs of capture files an earlier run kept. The
/// directory is left as it is.
fn convert_kept_captures(cfg: &Config, dir: &Path) -> Result<u8> {
    let files = outputs::capture_files(dir)?;
    if files.is_empty() {
        bail!("{} holds no capture files (*.{})", dir.display(), outputs::CAPTURE_EXT);
    }
    let (captures, mut failures) =
        outputs::open_captures(&files, cfg.tracing.kernel_rename, cfg.tracing.marker || !cfg.any_tracing());
    pcsamp::set_capture_dir(dir);
    outputs::write_all(cfg, captures, None, None, &mut failures);
    if let Some(last) = failures.pop() {
        for e in &failures {
            eprintln!("rocprof-rs: error: {e:#}");
        }
        return Err(last);
    }
    Ok(0)
}
