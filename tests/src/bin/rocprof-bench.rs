//! `cargo xtask bench`: per-dispatch tracing overhead on hsa-sim, as a ratio against the same
//! fixture run without the tool, and rocpd write throughput for one million synthetic dispatches.
//!
//! Overhead: `vector_add N` is run without the tool, with only the interception library (the
//! environment the CLI sets, no CLI: the in-process cost, with the capture checked for N complete
//! dispatches and no losses), once by default and once with the strict in-queue completion gate,
//! and under `rocprof-rs --kernel-trace -f rocpd` (adds reading the capture and writing the
//! database). Best of several runs each, to keep the noise of shared
//! cores out; the report gives wall-time ratios and the extra time per dispatch.
//!
//! Usage: `rocprof-bench [--dispatches N] [--runs R] [--rows M]`.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rocprof_e2e::{profile, run, scratch, stage};

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
    let dispatches = arg(&args, "--dispatches", 2000)?;
    let runs = arg(&args, "--runs", 5)?;
    let rows = arg(&args, "--rows", 1_000_000)?;

    match stage("rocprof-bench") {
        None => println!("tracing overhead: skipped (ROCPROF_RS_STAGE not set)"),
        Some(stage) => {
            let Some(app) = stage.fixture("vector_add", "rocprof-bench") else { bail!("vector_add is not staged") };
            let n = dispatches.to_string();
            let env = stage.sim_env("gfx942");
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
            let in_process = |gate: &str| {
                best(runs, || {
                    let cap = scratch("bench-capture");
                    let mut env = env.clone();
                    env.push(("LD_PRELOAD".into(), intercept.clone()));
                    env.push(("HSA_TOOLS_LIB".into(), intercept.clone()));
                    env.push(("ROCPROF_RS_CAPTURE_DIR".into(), cap.display().to_string()));
                    env.push(("ROCPROF_RS_TRACE".into(), "kernel".into()));
                    env.push(("ROCPROF_RS_GATE_COMPLETIONS".into(), gate.into()));
                    let t = Instant::now();
                    let r = run(&app, &[&n], &env);
                    let e = t.elapsed();
                    if !r.status.success() {
                        bail!("vector_add with the interception library failed:\n{}", r.transcript());
                    }
                    let files = rocprof_e2e::find_files(&cap, ".rpcap");
                    let [file] = files.as_slice() else {
                        bail!("expected one capture file in {}, found {files:?}", cap.display())
                    };
                    let c = rocprof_model::capture::read_capture(file)?;
                    if c.trace.dispatches.len() as u64 != dispatches
                        || c.trace.health.lost.nonzero().next().is_some()
                        || c.incomplete_dispatches != 0
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
            let ungated = in_process("0")?;
            let gated = in_process("1")?;
            let end_to_end = best(runs, || {
                let out = scratch("bench");
                let out_s = out.display().to_string();
                let t = Instant::now();
                let r = profile(
                    &stage,
                    &["--simulate", "gfx942", "--kernel-trace", "-f", "rocpd", "-d", &out_s],
                    &app,
                    &[&n],
                    &[],
                );
                let e = t.elapsed();
                if !r.status.success() {
                    bail!("vector_add under rocprof-rs failed:\n{}", r.transcript());
                }
                let _ = std::fs::remove_dir_all(&out);
                Ok(e)
            })?;
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
        }
    }

    let dir = scratch("rocpd-throughput");
    let t = rocprof_writers::synthetic::rocpd_throughput(rows, &dir).context("writing the synthetic rocpd database")?;
    println!(
        "rocpd write throughput: {rows} synthetic dispatches in {:.2} s: {:.0} rows/s",
        t.seconds,
        t.rows_per_sec()
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
