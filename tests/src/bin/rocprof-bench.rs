//! `cargo xtask bench`: per-dispatch tracing overhead on hsa-sim, as a ratio against the same
//! fixture run without the tool, and rocpd write throughput for one million synthetic dispatches.
//!
//! Overhead: `vector_add N` is run without the tool, with only the interception library (the
//! environment the CLI sets, no CLI: the in-process cost, with the capture checked for N complete
//! dispatches and no losses), once by default and once with the strict in-queue completion gate,
//! and under `rocprof-rs --kernel-trace -f rocpd` (adds reading the capture and writing the
//! database). Counter collection (`--pmc SQ_WAVES GRBM_COUNT`, every dispatch counted) is measured
//! the same two ways, in process (with the counter environment the CLI sets) and end to end, and
//! reported as a ratio to kernel trace alone. Best of several runs each, to keep the noise of shared
//! cores out; the report gives wall-time ratios and the extra time per dispatch.
//!
//! Conversion: a streamed synthetic trace of `--convert-records` (default 10 M) kernel-dispatch
//! records to each format, each in its own child process, reporting records/s and peak RSS; then
//! the same with the `--sys-trace` mix (`synthetic::Source::sys_trace`: HIP and HSA API calls,
//! dispatches, copies, allocations; `--convert-mix kernel|sys` runs one of the two).
//!
//! Kernels do not execute here (`ROCPROF_RS_SIM_EXEC=off`): the overhead is the profiler's, not the
//! interpreter's.
//!
//! Soak (issue 14): `soak 8 8 N C 8` under `rocprof-rs`: 8 threads x 8 queues, `--soak-dispatches`
//! N per thread (default 125,000: 1 M in all), `--soak-cycles` C code-object cycles (default
//! 10,000); dispatches/s and the application's RSS; fails on a missing or non-zero `lost.*` row, an
//! incomplete, unnamed or missing dispatch (ids must be 1..N), or memory over its stated bound
//! (RSS 128 MiB; anonymous 12 MiB + 16 B per dispatch) (`--soak-dispatches 0` skips).
//!
//! HIP API: `hip_api_loop` (a cheap HIP call, `hipGetDevice`, in a loop timed by the program
//! itself) without the tool and under the interception library with HIP API tracing, also with the
//! hooks registered but collection paused (`--selected-regions` never resumed), which isolates
//! HIP's own cost of calling a tracer: wall and calling-thread CPU ns per call, the ratios and the
//! ns tracing adds. Twice: the host's HIP 5.2 (roctracer's callbacks) and, inside the Debian sid
//! chroot (`rocprof_test_inputs::sid`), HIP 6.4 (`fixtures/hip6/hip6_api_loop`, the
//! `hipRegisterTracerCallback` protocol); without the chroot the HIP 6.4 figures are skipped and the
//! output says so.
//!
//! HSA API: `hsa_api_loop` (`hsa_signal_load_relaxed`, then `hsa_agent_get_info`, in a loop timed
//! by the program itself) without the tool and under the interception library with HSA API tracing
//! of every table (the capture is checked for every call and no loss): ns per call, the ratio, and
//! the ns tracing adds per call (issue 8's target: at most 50), each as wall time and as the
//! calling thread's CPU time (the figure other load on a shared machine does not inflate); once on
//! the machine as it is and once loaded by the benchmark itself (issue 26: more busy threads than
//! cores and a syncing disk writer), where every call must still be in the capture.
//!
//! Both API sections take the best of `--runs` interleaved rounds (every variant once per round,
//! every other round in reverse order) and print four figures per line: wall, calling thread's CPU,
//! all threads' CPU, and the calling thread's CPU in the loop's best batch of 10000 calls, the
//! figure that escapes a shared host's slow spells of seconds. Where calls are stamped with the
//! TSC, the HSA section also prints what two TSC reads cost on the host (the floor of any traced
//! call's added time).
//!
//! PC sampling (issue 22): see `pcsamp.rs` (`--pc-sampling-only`: only those figures).
//!
//! Usage: `rocprof-bench [--dispatches N] [--runs R] [--rows M] [--hip-calls C] [--hsa-calls C]
//! [--convert-records K] [--convert-mix kernel|sys] [--soak-dispatches N] [--soak-cycles C]
//! [--api-only] [--hip-only] [--soak-only] [--pc-sampling-only]` (`--api-only`: only the HSA and HIP API
//! figures; `--hip-only`: only the HIP ones;
//! `--soak-only`: only the soak; `--pc-sampling-only`: only the PC-sampling figures).

#![forbid(unsafe_code)]

#[path = "rocprof-bench/pcsamp.rs"]
mod pcsamp;

use rocprof_launch::names;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rocprof_e2e::{profile, run, scratch, stage, Stage};
use rocprof_model::counters::PmcStatus;

fn arg(args: &[String], name: &str, default: u64) -> Result<u64> {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .with_context(|| format!("{name} needs a value"))?
            .parse()
            .with_context(|| format!("{name} must be a number")),
        None => Ok(default),
    }
}

fn best(runs: u64, mut f: impl FnMut() -> Result<Duration>) -> Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        best = best.min(f()?);
    }
    Ok(best)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--convert") {
        let format = args.get(i + 1).context("--convert needs a format")?;
        let sys = args.iter().any(|a| a == "--sys-mix");
        return convert_child(format, arg(&args, "--records", 1_000_000)?, sys);
    }
    let dispatches = arg(&args, "--dispatches", 2000)?;
    let runs = arg(&args, "--runs", 5)?;
    let rows = arg(&args, "--rows", 1_000_000)?;
    let hip_calls = arg(&args, "--hip-calls", 1_000_000)?;
    let hsa_calls = arg(&args, "--hsa-calls", 1_000_000)?;
    if args.iter().any(|a| a == "--pc-sampling-only") {
        if let Some(stage) = stage("rocprof-bench") {
            pcsamp::overhead(&stage, runs, dispatches)?;
        }
        return Ok(());
    }
    if args.iter().any(|a| a == "--soak-only") {
        if let Some(stage) = stage("rocprof-bench") {
            soak(&stage, arg(&args, "--soak-dispatches", 125_000)?, arg(&args, "--soak-cycles", 10_000)?)?;
        }
        return Ok(());
    }
    if args.iter().any(|a| a == "--hip-only") {
        if let Some(stage) = stage("rocprof-bench") {
            hip_api_overhead(&stage, runs, hip_calls)?;
        }
        return Ok(());
    }
    if args.iter().any(|a| a == "--api-only") {
        if let Some(stage) = stage("rocprof-bench") {
            hsa_api_overhead(&stage, runs, hsa_calls)?;
            hip_api_overhead(&stage, runs, hip_calls)?;
        }
        return Ok(());
    }

    match stage("rocprof-bench") {
        None => println!("tracing overhead: skipped (ROCPROF_RS_STAGE not set)"),
        Some(stage) => {
            let Some(app) = stage.fixture("vector_add", "rocprof-bench") else { bail!("vector_add is not staged") };
            let n = dispatches.to_string();
            // The profiler's overhead is measured against hsa-sim's timing-only mode: executing 2000
            // vector adds on the interpreter would add the same seconds to both sides and hide the
            // ratio (the interpreter's own rate is `isa-bench`'s figure).
            let mut env = stage.sim_env("gfx942");
            env.push((names::SIM_EXEC.into(), "off".into()));
            let plain = best(runs, || {
                let t = Instant::now();
                let r = run(&app, &[&n], &env);
                if !r.status.success() {
                    bail!("vector_add failed:\n{}", r.transcript());
                }
                Ok(t.elapsed())
            })?;
            // In-process cost only: the application under the interception library, exactly as
            // the CLI launches it, without the CLI's post-processing.
            let intercept = stage.dir.join("librocprof_intercept.so").display().to_string();
            let in_process = |gate: &str, extra: &[(String, String)]| {
                best(runs, || {
                    let cap = scratch("bench-capture");
                    let mut env = env.clone();
                    env.extend(extra.iter().cloned());
                    env.push(("LD_PRELOAD".into(), intercept.clone()));
                    env.push(("HSA_TOOLS_LIB".into(), intercept.clone()));
                    env.push((names::CAPTURE_DIR.into(), cap.display().to_string()));
                    env.push((names::TRACE.into(), "kernel".into()));
                    env.push((names::GATE_COMPLETIONS.into(), gate.into()));
                    let t = Instant::now();
                    let r = run(&app, &[&n], &env);
                    let e = t.elapsed();
                    if !r.status.success() {
                        bail!("vector_add with the interception library failed:\n{}", r.transcript());
                    }
                    let c = rocprof_model::capture::read_capture(&one_capture(&cap)?)?;
                    let counted = c.trace.pmc_outputs.iter().filter(|o| o.status == PmcStatus::Ok).count() as u64;
                    if c.trace.dispatches.len() as u64 != dispatches
                        || c.trace.health.lost.nonzero().next().is_some()
                        || c.incomplete_dispatches != 0
                        || (!extra.is_empty() && counted != dispatches)
                    {
                        bail!(
                            "capture has {} dispatches ({} incomplete) and losses {:?} for {dispatches} dispatches",
                            c.trace.dispatches.len(),
                            c.incomplete_dispatches,
                            c.trace.health.loss_lines()
                        );
                    }
                    let _ = std::fs::remove_dir_all(&cap);
                    Ok(e)
                })
            };
            let ungated = in_process("0", &[])?;
            let gated = in_process("1", &[])?;
            let end_to_end_with = |extra: &[&str]| {
                best(runs, || {
                    let out = scratch("bench");
                    let out_s = out.display().to_string();
                    let mut args = vec!["--simulate", "gfx942", "--kernel-trace", "-f", "rocpd", "-d", &out_s];
                    args.extend(extra);
                    let t = Instant::now();
                    let r = profile(&stage, &args, &app, &[&n], &[]);
                    let e = t.elapsed();
                    if !r.status.success() {
                        bail!("vector_add under rocprof-rs {extra:?} failed:\n{}", r.transcript());
                    }
                    let _ = std::fs::remove_dir_all(&out);
                    Ok(e)
                })
            };
            let end_to_end = end_to_end_with(&[])?;
            // Counter collection: the same runs with two counters on every dispatch. The in-process
            // variant gets exactly the environment the CLI sets for the request (printed by
            // `--log-level env`).
            let pmc_env = pmc_environment(&stage, &app, PMC_REQUEST)?;
            let counted = in_process("0", &pmc_env)?;
            let mut pmc_args = vec!["--pmc"];
            pmc_args.extend(PMC_REQUEST);
            let counted_end_to_end = end_to_end_with(&pmc_args)?;
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            let per = |d: Duration| (d.as_secs_f64() - plain.as_secs_f64()) * 1e6 / dispatches as f64;
            println!(
                "tracing overhead: vector_add {dispatches} dispatches on hsa-sim gfx942, best of {runs} runs each"
            );
            println!("  {:<52} {:>9.1} ms", "without the tool", ms(plain));
            for (label, d) in [
                ("interception library (default)", ungated),
                ("interception library, ROCPROF_RS_GATE_COMPLETIONS=1", gated),
            ] {
                println!(
                    "  {label:<52} {:>9.1} ms  ratio {:.3}x  {:+.2} us per dispatch",
                    ms(d),
                    d.as_secs_f64() / plain.as_secs_f64(),
                    per(d)
                );
            }
            println!(
                "  {:<52} {:>9.1} ms  ratio {:.3}x  {:+.2} us per dispatch (includes reading the capture and writing rocpd)",
                "rocprof-rs --kernel-trace -f rocpd",
                ms(end_to_end),
                end_to_end.as_secs_f64() / plain.as_secs_f64(),
                per(end_to_end)
            );
            let label = format!("interception library + --pmc {}", PMC_REQUEST.join(" "));
            println!(
                "  {label:<52} {:>9.1} ms  ratio {:.3}x  {:+.2} us per dispatch",
                ms(counted),
                counted.as_secs_f64() / plain.as_secs_f64(),
                per(counted)
            );
            let label = format!("rocprof-rs --kernel-trace --pmc {}", PMC_REQUEST.join(" "));
            println!(
                "  {label:<52} {:>9.1} ms  ratio {:.3}x  {:+.2} us per dispatch",
                ms(counted_end_to_end),
                counted_end_to_end.as_secs_f64() / plain.as_secs_f64(),
                per(counted_end_to_end)
            );
            let extra = |with: Duration, without: Duration| {
                (with.as_secs_f64() - without.as_secs_f64()) * 1e6 / dispatches as f64
            };
            println!(
                "  counter collection vs kernel trace alone: in process ratio {:.3}x ({:+.2} us per counted dispatch), end to end ratio {:.3}x ({:+.2} us per counted dispatch)",
                counted.as_secs_f64() / ungated.as_secs_f64(),
                extra(counted, ungated),
                counted_end_to_end.as_secs_f64() / end_to_end.as_secs_f64(),
                extra(counted_end_to_end, end_to_end)
            );
        }
    }

    if let Some(stage) = stage("rocprof-bench") {
        pcsamp::overhead(&stage, runs, dispatches)?;
        hsa_api_overhead(&stage, runs, hsa_calls)?;
        hip_api_overhead(&stage, runs, hip_calls)?;
        let per_thread = arg(&args, "--soak-dispatches", 125_000)?;
        let cycles = arg(&args, "--soak-cycles", 10_000)?;
        if per_thread > 0 {
            soak(&stage, per_thread, cycles)?;
        }
    }

    let dir = scratch("rocpd-throughput");
    let t = rocprof_writers::synthetic::rocpd_throughput(rows, &dir).context("writing the synthetic rocpd database")?;
    let bytes = std::fs::metadata(&t.path).map(|m| m.len()).unwrap_or(0);
    println!(
        "rocpd write throughput: {rows} synthetic dispatches in {:.2} s: {:.0} rows/s, {:.0} rows per CPU second ({:.2} s of CPU: what one core does on a loaded machine), {:.1} bytes per dispatch row ({bytes} bytes)",
        t.seconds,
        t.rows_per_sec(),
        t.rows_per_cpu_sec(),
        t.cpu_seconds,
        bytes as f64 / rows.max(1) as f64
    );
    let _ = std::fs::remove_dir_all(&dir);

    // Conversions of a large synthetic record stream, one format per child process so that each
    // peak RSS is that format's alone.
    let records = arg(&args, "--convert-records", 10_000_000)?;
    let me = std::env::current_exe()?;
    let mixes: &[(&str, &[&str])] = match args.iter().position(|a| a == "--convert-mix").and_then(|i| args.get(i + 1)) {
        Some(m) if m == "kernel" => &[("kernel-dispatch", &[])],
        Some(m) if m == "sys" => &[("--sys-trace mix", &["--sys-mix"])],
        _ => &[("kernel-dispatch", &[]), ("--sys-trace mix", &["--sys-mix"])],
    };
    for (mix, extra) in mixes {
        println!("conversion of {records} synthetic records ({mix}, streamed), one process per format:");
        for format in ["csv", "json", "pftrace", "otf2", "rocpd"] {
            let out = std::process::Command::new(&me)
                .args(["--convert", format, "--records", &records.to_string()])
                .args(*extra)
                .output()
                .context("running a conversion child")?;
            let text = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() {
                println!("  {format:<8} failed: {}{}", text.trim(), String::from_utf8_lossy(&out.stderr).trim());
                continue;
            }
            println!("  {}", text.trim());
        }
    }
    Ok(())
}

/// The counters of the counter-collection benchmark (one pass on every target).
const PMC_REQUEST: &[&str] = &["SQ_WAVES", "GRBM_COUNT"];

/// The `ROCPROF_RS_*` counter variables the CLI sets for `--pmc counters` on gfx942, read from a
/// `--log-level env` run.
fn pmc_environment(stage: &Stage, app: &std::path::Path, counters: &[&str]) -> Result<Vec<(String, String)>> {
    let out = scratch("bench-pmc-env");
    let out_s = out.display().to_string();
    let mut args = vec!["--simulate", "gfx942", "--log-level", "env", "-d", &out_s, "--pmc"];
    args.extend(counters);
    let r = profile(stage, &args, app, &["1"], &[]);
    let _ = std::fs::remove_dir_all(&out);
    if !r.status.success() {
        bail!("rocprof-rs --pmc failed:\n{}", r.transcript());
    }
    let env: Vec<(String, String)> = r
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("rocprof-rs: env "))
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| k.starts_with(names::PMC) || *k == names::KERNEL_NAMES)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if !env.iter().any(|(k, _)| k == names::PMC) {
        bail!("rocprof-rs --log-level env printed no ROCPROF_RS_PMC:\n{}", r.transcript());
    }
    Ok(env)
}

/// The soak application's resident set at exit, at any size (measured 53.6 MB at 1,010,000
/// dispatches; ~42 MB at 4,100): the capture's pages are released as chunks fill and the tables
/// are fixed-size, so it does not grow with the run.
const SOAK_RSS_MAX_KIB: i64 = 128 * 1024;

/// Growth of the soak application's anonymous memory allowed per dispatch (measured ~4 B; hsa-sim's
/// signal-group leak of session 4 was ~25 B per dispatch: 24 MiB more at 1 M dispatches).
const SOAK_ANON_BYTES_PER_DISPATCH: i64 = 16;

/// The soak application's anonymous memory at exit for `dispatches`: 12 MiB (measured 9.2-10.0 MiB
/// at 4,100 dispatches) plus [`SOAK_ANON_BYTES_PER_DISPATCH`] per dispatch.
fn soak_anon_max_kib(dispatches: u64) -> i64 {
    12 * 1024 + (dispatches as i64).saturating_mul(SOAK_ANON_BYTES_PER_DISPATCH) / 1024
}

/// Issue 14's soak at full size: `soak 8 8 <per_thread> <cycles> 8` (8 threads x 8 queues, a
/// fresh completion signal per dispatch, every wait function, code-object load/unload cycles)
/// under `rocprof-rs --kernel-trace`: dispatches/s, the application's RSS, and the database
/// checked: ids exactly 1..N, every dispatch named and complete, every `lost.*` row present and 0,
/// and the application's memory at exit within [`SOAK_RSS_MAX_KIB`] and [`soak_anon_max_kib`].
fn soak(stage: &rocprof_e2e::Stage, per_thread: u64, cycles: u64) -> Result<()> {
    let Some(app) = stage.fixture("soak", "rocprof-bench") else { bail!("soak is not staged") };
    let out = scratch("bench-soak");
    let out_s = out.display().to_string();
    let t = Instant::now();
    let r = profile(
        stage,
        &["--simulate", "gfx942", "--kernel-trace", "-f", "rocpd", "-d", &out_s],
        &app,
        &["8", "8", &per_thread.to_string(), &cycles.to_string(), "8"],
        &[],
    );
    let wall = t.elapsed().as_secs_f64();
    if !r.status.success() {
        bail!("soak under rocprof-rs failed:\n{}", r.transcript());
    }
    let figures: std::collections::HashMap<&str, i64> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("soak: "))
        .flat_map(|l| l.split_whitespace())
        .filter_map(|kv| kv.split_once('='))
        .filter_map(|(k, v)| Some((k, v.parse().ok()?)))
        .collect();
    let expected = 8 * per_thread + cycles;
    let db = rocprof_e2e::find_one(&out, ".db");
    let rows = rocprof_e2e::db_kernels(&db);
    let unnamed = rows.iter().filter(|k| k.name.is_empty()).count();
    let out_of_order = rows.iter().zip(1u64..).filter(|(k, id)| k.dispatch_id != *id).count();
    let no_end = rows.iter().filter(|k| k.end <= k.start).count();
    let health = |k: &str| rocprof_e2e::db_health(&db, k).unwrap_or_else(|| "?".into());
    // A missing row (`?`) is a failure too.
    let mut lost: Vec<String> = rocprof_model::LossReason::ALL
        .iter()
        .map(|r| format!("{}={}", r.as_str(), health(&format!("lost.{}", r.as_str()))))
        .filter(|kv| !kv.ends_with("=0"))
        .collect();
    if lost.is_empty() {
        lost.push("none".into());
    }
    println!(
        "soak: 8 threads x 8 queues, {expected} dispatches ({} distinct completion signals, {cycles} code-object cycles) \
         under rocprof-rs --kernel-trace -f rocpd in {wall:.1} s ({:.0} dispatches/s end to end); rows {} (unnamed {unnamed}), \
         incomplete {}, lost by reason: {}; waits for capture space {} in {} ns (longest {} ns); application RSS at exit {} KiB, peak {} KiB",
        8 * per_thread,
        expected as f64 / wall,
        rows.len(),
        health("incomplete_dispatches"),
        lost.join(" "),
        health("stalls"),
        health("stall_ns"),
        health("stall_max_ns"),
        figures.get("rss_kib").copied().unwrap_or(0),
        figures.get("hwm_kib").copied().unwrap_or(0),
    );
    let incomplete = health("incomplete_dispatches");
    if rows.len() as u64 != expected || unnamed != 0 || out_of_order != 0 || no_end != 0 || lost != ["none"] {
        bail!(
            "soak lost data: {} rows for {expected} dispatches (ids 1..{expected}: {out_of_order} rows off), \
             {unnamed} unnamed, {no_end} without an end, lost {lost:?}",
            rows.len()
        );
    }
    if incomplete != "0" || health("clean_exit") != "1" {
        bail!("soak: incomplete_dispatches {incomplete}, clean_exit {}", health("clean_exit"));
    }
    let (rss, anon) = (figures.get("rss_kib").copied().unwrap_or(-1), figures.get("anon_kib").copied().unwrap_or(-1));
    let anon_max = soak_anon_max_kib(expected);
    if !(0..=SOAK_RSS_MAX_KIB).contains(&rss) || !(0..=anon_max).contains(&anon) {
        bail!(
            "soak: the application's memory at exit is over its bound: RSS {rss} KiB (bound {SOAK_RSS_MAX_KIB} KiB), \
             anonymous {anon} KiB (bound {anon_max} KiB = 12 MiB + {SOAK_ANON_BYTES_PER_DISPATCH} B x {expected} dispatches)"
        );
    }
    println!(
        "soak: memory within bounds: RSS {rss} KiB <= {SOAK_RSS_MAX_KIB} KiB, anonymous {anon} KiB <= {anon_max} KiB"
    );
    let _ = std::fs::remove_dir_all(&out);
    Ok(())
}

/// Peak resident set size of this process, KiB (`VmHWM`).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// `--convert FORMAT --records N`: one conversion of the streamed synthetic trace.
fn convert_child(format: &str, records: u64, sys_mix: bool) -> Result<()> {
    use rocprof_writers::{write_stream, OutputLocation, Progress, StreamOptions, Writer};
    let dir = scratch(&format!("convert-{format}"));
    let out = OutputLocation::new(&dir, "synthetic");
    let mut w: Box<dyn Writer> = match format {
        "csv" => Box::new(rocprof_writers::csv::CsvWriter::new(out)),
        "json" => Box::new(rocprof_writers::json::JsonWriter::new(out)),
        "pftrace" => Box::new(rocprof_writers::perfetto::PerfettoWriter::new(out)),
        "otf2" => {
            if let Err(e) = rocprof_writers::otf2::check_available() {
                bail!("{e}");
            }
            Box::new(rocprof_writers::otf2::Otf2Writer::new(out, Default::default()))
        }
        "rocpd" => Box::new(rocprof_writers::rocpd::RocpdWriter::new(out)),
        other => bail!("unknown format {other}"),
    };
    let mut source = if sys_mix {
        rocprof_writers::synthetic::Source::sys_trace(records)
    } else {
        rocprof_writers::synthetic::Source::new(records)
    };
    let (t, cpu0) = (Instant::now(), rocprof_writers::synthetic::process_cpu_seconds());
    let outcome = write_stream(
        &mut source,
        &mut [&mut *w],
        &StreamOptions { progress: Progress::Hidden, ..StreamOptions::default() },
    )?;
    let secs = t.elapsed().as_secs_f64();
    // CPU time of every thread (source, writer): what the conversion costs on a loaded machine.
    let cpu = rocprof_writers::synthetic::process_cpu_seconds() - cpu0;
    outcome.into_result()?;
    // Every file the format wrote (OTF2: the anchor, definitions and the event files beside it).
    let bytes = dir_bytes(&dir);
    println!(
        "{format:<8} {records} records in {secs:.2} s: {:.0} records/s ({:.0} per CPU second), peak RSS {:.1} MiB, {:.1} bytes per record",
        records as f64 / secs,
        records as f64 / cpu.max(0.01),
        peak_rss_kib() as f64 / 1024.0,
        bytes as f64 / records.max(1) as f64
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Bytes of the files under `dir`, recursively.
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_bytes(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// Per-call cost of HSA API tracing, best of `runs` rounds (each round runs the loop without the
/// tool and traced, in turn, so a slow spell of a shared machine falls on both), for two cheap
/// functions: wall time per call, the calling thread's CPU time per call (which other load on the
/// machine does not inflate), all threads' CPU, and the calling thread's CPU in the loop's best
/// batch of 10000 calls; first on the machine as it is ("idle"), then loaded by the benchmark itself
/// ([`rocprof_e2e::Load`]: two more busy threads than cores and a syncing disk writer), where the
/// capture must still hold every call (lossless) and the waits for capture space are reported.
fn hsa_api_overhead(stage: &rocprof_e2e::Stage, runs: u64, calls: u64) -> Result<()> {
    let Some(app) = stage.fixture("hsa_api_loop", "rocprof-bench") else { bail!("hsa_api_loop is not staged") };
    let n = calls.to_string();
    let intercept = stage.dir.join("librocprof_intercept.so").display().to_string();
    println!(
        "HSA API tracing overhead: {calls} calls (x3) on hsa-sim gfx90a, best of {runs} interleaved rounds ({})",
        PerCall::COLUMNS
    );
    // The least a read of the time-stamp counter took in any run (the loop measures it too).
    let tsc_read = std::cell::Cell::new(f64::MAX);
    // One run's figures, the ns it waited for capture space and its longest single wait.
    let measure = |api: &str, traced: bool| -> Result<(PerCall, u64, u64)> {
        let (mut stall, mut longest) = (0, 0);
        let cap = scratch("bench-hsa");
        let mut env = stage.sim_env("gfx90a");
        if traced {
            env.push(("LD_PRELOAD".into(), intercept.clone()));
            env.push(("HSA_TOOLS_LIB".into(), intercept.clone()));
            env.push((names::CAPTURE_DIR.into(), cap.display().to_string()));
            env.push((names::TRACE.into(), "hsa_core,hsa_amd,hsa_image,hsa_finalizer".into()));
        }
        let r = run(&app, &[&n, "--api", api], &env);
        if !r.status.success() {
            bail!("hsa_api_loop failed:\n{}", r.transcript());
        }
        if traced {
            // At least: the fixture's setup makes a few calls of its own (hsa_agent_get_info).
            let c = lossless_capture(&cap, 3 * calls, api, |a| a.domain.operation_name(a.operation) == Some(api))?;
            stall = c.trace.health.stall_ns;
            longest = c.trace.health.stall_max_ns;
        }
        let _ = std::fs::remove_dir_all(&cap);
        if let Some(t) = PerCall::figure(&r.stdout, "tsc-read-ns: ") {
            tsc_read.set(tsc_read.get().min(t));
        }
        Ok((PerCall::parse(&r.stdout, "hsa_api_loop")?, stall, longest))
    };
    // Best of `runs` rounds of (without the tool, traced), every other round in the other order
    // (no side always runs second); stalls: the most of any run.
    let rounds = |api: &str| -> Result<([PerCall; 2], u64, u64)> {
        let (mut best, mut stall, mut longest) = ([PerCall::NONE; 2], 0, 0);
        for round in 0..runs {
            for traced in if round % 2 == 0 { [false, true] } else { [true, false] } {
                let (f, s, l) = measure(api, traced)?;
                best[usize::from(traced)] = best[usize::from(traced)].min(f);
                (stall, longest) = (stall.max(s), longest.max(l));
            }
        }
        Ok((best, stall, longest))
    };
    for loaded in [false, true] {
        let _load = loaded.then(|| rocprof_e2e::Load::start(2));
        println!(
            "  {}",
            if loaded { "loaded (2 busy threads more than cores + a syncing disk writer):" } else { "idle:" }
        );
        for api in ["hsa_signal_load_relaxed", "hsa_agent_get_info"] {
            let ([plain, traced], stall, longest) = rounds(api)?;
            println!(
                "    {api:<24} without the tool {} ns per call, HSA API tracing {} ns per call: ratio {}, added {} ns per call; every call recorded, waits for capture space at most {:.1} ms per run (longest {:.1} ms)",
                plain.values(),
                traced.values(),
                traced.ratios(&plain),
                traced.added(&plain),
                stall as f64 / 1e6,
                longest as f64 / 1e6
            );
        }
    }
    // The library stamps calls with the TSC only where the kernel keeps time with it (the same
    // test as its `timer::init`); elsewhere with `clock_gettime`, and this is no floor.
    let clocksource = std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    if tsc_read.get() < f64::MAX && clocksource == "tsc" {
        println!(
            "  two reads of the time-stamp counter (a traced call's start and end) cost {:.1} ns on this host: the floor of what tracing adds",
            2.0 * tsc_read.get()
        );
    } else {
        println!("  (calls are stamped with clock_gettime here, clocksource {clocksource:?}: no TSC floor)");
    }
    Ok(())
}

/// Which HIP the HIP API loop runs against.
#[derive(Clone, Copy, PartialEq)]
enum Hip {
    /// The host's Debian 12 HIP 5.2 (`fixtures/hip_api_loop`, host hipcc): roctracer's callbacks.
    V5,
    /// Debian sid's HIP 6.4 in the sid chroot (`fixtures/hip6/hip6_api_loop`, hipcc 7): the
    /// `hipRegisterTracerCallback` protocol.
    V6,
}

/// Per-call cost of HIP API tracing for HIP 5.2 and HIP 6.4.
fn hip_api_overhead(stage: &rocprof_e2e::Stage, runs: u64, calls: u64) -> Result<()> {
    hip_loop_overhead(stage, runs, calls, Hip::V5)?;
    hip_loop_overhead(stage, runs, calls, Hip::V6)
}

/// Per-call cost of HIP API tracing with one HIP, best of `runs` runs each: `hipGetDevice` in a
/// loop without the tool, with the hooks registered but collection paused, and traced (every call
/// must be in the capture, nothing lost); wall time and the calling thread's CPU time per call,
/// and what tracing adds to each.
fn hip_loop_overhead(stage: &rocprof_e2e::Stage, runs: u64, calls: u64, hip: Hip) -> Result<()> {
    use rocprof_test_inputs::sid;
    let (label, app) = match hip {
        Hip::V5 => ("HIP 5.2 (host, roctracer callbacks)", stage.dir.join("fixtures").join("hip_api_loop")),
        Hip::V6 => (
            "HIP 6.4 (sid chroot, hipRegisterTracerCallback)",
            stage.dir.join("fixtures").join("hip6").join("hip6_api_loop"),
        ),
    };
    let root = sid::root();
    if hip == Hip::V6 && !sid::is_complete(&root) {
        println!(
            "HIP API tracing overhead, {label}: skipped (no complete sid chroot at {}; build it with `sudo cargo xtask sid`)",
            root.display()
        );
        return Ok(());
    }
    if !app.exists() {
        println!("HIP API tracing overhead, {label}: skipped ({} is not staged: hipcc missing)", app.display());
        return Ok(());
    }
    let n = calls.to_string();
    let intercept = stage.dir.join("librocprof_intercept.so").display().to_string();
    let measure = |trace: Option<&str>| -> Result<PerCall> {
        let cap = scratch("bench-hip");
        let mut env = stage.sim_env("gfx90a");
        if let Some(trace) = trace {
            env.push(("LD_PRELOAD".into(), intercept.clone()));
            env.push(("HSA_TOOLS_LIB".into(), intercept.clone()));
            env.push((names::CAPTURE_DIR.into(), cap.display().to_string()));
            env.push((names::TRACE.into(), trace.into()));
        }
        let r = match hip {
            Hip::V5 => run(&app, &[&n], &env),
            Hip::V6 => {
                // The environment through `env` inside the chroot, so that only the program
                // gets it: `LD_PRELOAD` on the command would load the library into `unshare`,
                // the shells and `chroot` too (a capture each). The stage first on
                // LD_LIBRARY_PATH (`sim_env`): HIP 6.4 loads hsa-sim.
                let mut cmd = sid::command(&root, &[&stage.dir], "/usr/bin/env");
                cmd.args(env.iter().map(|(k, v)| format!("{k}={v}"))).arg(&app).arg(&n);
                rocprof_e2e::run_command(cmd)
            }
        };
        if !r.status.success() {
            bail!("{} failed:\n{}", app.display(), r.transcript());
        }
        if trace.is_some_and(|t| !t.contains("selected_regions")) {
            // Only HIP domains are traced here.
            lossless_capture(&cap, 3 * calls, "HIP", |_| true)?;
        }
        let _ = std::fs::remove_dir_all(&cap);
        PerCall::parse(&r.stdout, "the HIP loop")
    };
    // Best of `runs` rounds, each round running the three variants in turn, every other round
    // in reverse order.
    let variants = [None, Some("hip_runtime,hip_compiler,selected_regions"), Some("hip_runtime,hip_compiler")];
    let mut best = [PerCall::NONE; 3];
    for round in 0..runs {
        let order: [usize; 3] = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
        for i in order {
            best[i] = best[i].min(measure(variants[i])?);
        }
    }
    let [plain, paused, traced] = best;
    println!(
        "HIP API tracing overhead, {label}: hipGetDevice x {calls} (x3) on hsa-sim gfx90a, best of {runs} interleaved \
         rounds ({})",
        PerCall::COLUMNS
    );
    println!("  {:<40} {} ns per call", "without the tool", plain.values());
    for (what, f) in
        [("hooks registered, collection paused", paused), ("HIP API tracing (every call recorded)", traced)]
    {
        println!(
            "  {what:<40} {} ns per call: ratio {}, added {} ns per call",
            f.values(),
            f.ratios(&plain),
            f.added(&plain)
        );
    }
    Ok(())
}

/// The path of the one capture file a run left in `dir`.
fn one_capture(dir: &std::path::Path) -> Result<std::path::PathBuf> {
    let files = rocprof_e2e::find_files(dir, ".rpcap");
    let [file] = files.as_slice() else { bail!("expected one capture in {}, found {files:?}", dir.display()) };
    Ok(file.clone())
}

/// The one capture in `dir`, checked to hold at least `made` API calls that `counted` selects
/// (`what` names them in the error) and to have lost nothing.
fn lossless_capture(
    dir: &std::path::Path,
    made: u64,
    what: &str,
    counted: impl Fn(&rocprof_model::api::ApiCall) -> bool,
) -> Result<rocprof_model::capture::Capture> {
    let c = rocprof_model::capture::read_capture(&one_capture(dir)?)?;
    let recorded = c.trace.api_calls.iter().filter(|a| counted(a)).count() as u64;
    if recorded < made || c.trace.health.lost.total() != 0 {
        bail!("capture has {recorded} {what} calls for {made} made and {} lost records", c.trace.health.lost.total());
    }
    Ok(c)
}

/// What an API loop fixture (`hsa_api_loop`, `hip_api_loop`) prints of one run: ns per call.
#[derive(Clone, Copy)]
struct PerCall {
    /// Wall time, best repetition.
    wall: f64,
    /// The calling thread's CPU time, best repetition.
    cpu: f64,
    /// Every thread's CPU time (with tracing, the profiler's threads too), best repetition.
    proc: f64,
    /// The calling thread's CPU time in the best batch of 10000 calls.
    batch: f64,
}

impl PerCall {
    /// Nothing measured yet ([`Self::min`]'s identity).
    const NONE: PerCall = PerCall { wall: f64::MAX, cpu: f64::MAX, proc: f64::MAX, batch: f64::MAX };
    /// What the four figures of each line are.
    const COLUMNS: &str =
        "wall / calling thread's CPU / all threads' CPU / calling thread's CPU in the best batch of 10000 calls";

    /// One `key: value` figure of a run's output.
    fn figure(stdout: &str, key: &str) -> Option<f64> {
        stdout.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse().ok())
    }

    fn parse(stdout: &str, program: &str) -> Result<PerCall> {
        let get = |key: &str| Self::figure(stdout, key).with_context(|| format!("{program} printed no {key}"));
        Ok(PerCall {
            wall: get("ns-per-call: ")?,
            cpu: get("cpu-ns-per-call: ")?,
            proc: get("process-cpu-ns-per-call: ")?,
            batch: get("batch-cpu-ns-per-call: ")?,
        })
    }

    /// The best (least) of each figure.
    fn min(self, o: PerCall) -> PerCall {
        PerCall {
            wall: self.wall.min(o.wall),
            cpu: self.cpu.min(o.cpu),
            proc: self.proc.min(o.proc),
            batch: self.batch.min(o.batch),
        }
    }

    fn values(&self) -> String {
        format!("{:>6.1} / {:>6.1} / {:>6.1} / {:>6.1}", self.wall, self.cpu, self.proc, self.batch)
    }

    fn ratios(&self, base: &PerCall) -> String {
        format!(
            "{:.2}x / {:.2}x / {:.2}x / {:.2}x",
            self.wall / base.wall,
            self.cpu / base.cpu,
            self.proc / base.proc,
            self.batch / base.batch
        )
    }

    fn added(&self, base: &PerCall) -> String {
        format!(
            "{:+.1} / {:+.1} / {:+.1} / {:+.1}",
            self.wall - base.wall,
            self.cpu - base.cpu,
            self.proc - base.proc,
            self.batch - base.batch
        )
    }
}
