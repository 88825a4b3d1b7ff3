//! `cargo xtask bench`: per-dispatch tracing overhead on hsa-sim, as a ratio against the same
//! fixture run without the tool, and rocpd write throughput for one million synthetic dispatches.
//!
//! Overhead: `vector_add N` is run alternately with and without `rocprof-rs --kernel-trace`
//! (best of several runs each, to keep noise from two shared cores out); the report gives the
//! wall-time ratio and the extra time per dispatch. The profiled time includes the CLI writing
//! its outputs, so a second ratio without outputs other than the capture is not claimed.
//!
//! Usage: `rocprof-bench [--dispatches N] [--runs R] [--rows M]`.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rocprof_e2e::{profile, run, scratch, stage};

fn arg(args: &[String], name: &str, default: u64) -> Result<u64> {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).with_context(|| format!("{name} needs a value"))?.parse().with_context(|| format!("{name} must be a number")),
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
            let traced = best(runs, || {
                let out = scratch("bench");
                let out_s = out.display().to_string();
                let t = Instant::now();
                let r = profile(&stage, &["--simulate", "gfx942", "--kernel-trace", "-f", "rocpd", "-d", &out_s], &app, &[&n], &[]);
                let e = t.elapsed();
                if !r.status.success() {
                    bail!("vector_add under rocprof-rs failed:\n{}", r.transcript());
                }
                let _ = std::fs::remove_dir_all(&out);
                Ok(e)
            })?;
            let per_dispatch_us = (traced.as_secs_f64() - plain.as_secs_f64()) * 1e6 / dispatches as f64;
            println!(
                "tracing overhead: vector_add {dispatches} dispatches on hsa-sim gfx942, best of {runs}: \
                 {:.1} ms without the tool, {:.1} ms under rocprof-rs --kernel-trace -f rocpd: ratio {:.2}x, {:+.1} us per dispatch (includes tool load and the rocpd write)",
                plain.as_secs_f64() * 1e3,
                traced.as_secs_f64() * 1e3,
                traced.as_secs_f64() / plain.as_secs_f64(),
                per_dispatch_us
            );
        }
    }

    let dir = scratch("rocpd-throughput");
    let t = rocprof_writers::synthetic::rocpd_throughput(rows, &dir).context("writing the synthetic rocpd database")?;
    println!("rocpd write throughput: {rows} synthetic dispatches in {:.2} s: {:.0} rows/s", t.seconds, t.rows_per_sec());
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
