//! PC-sampling overhead (issue 22): `vector_add N` (kernels not executed) under the interception
//! library alone, and with host-trap sampling at an interval no dispatch reaches (1 s: the cost per
//! dispatch of sampling being on, i.e. the intercept marker before each kernel packet, its callback
//! and record, and hsa-sim recording the sampled waves) and at 1 µs (adds the samples: the cost per
//! sample of generating, delivering, copying and recording one). Best of several runs each; the
//! sample count is read back from the capture, which must hold every dispatch and no loss.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use rocprof_e2e::{run, scratch, Stage};
use rocprof_model::capture::CaptureReader;
use rocprof_model::{RecordSource, StringTable};

/// Runs `app n` under the interception library with `sampling` (`None`: off); the wall time and the
/// capture's sample count.
fn once(stage: &Stage, app: &std::path::Path, n: u64, sampling: Option<&str>) -> Result<(Duration, u64)> {
    let intercept = stage.dir.join("librocprof_intercept.so").display().to_string();
    let cap = scratch("bench-pcs-capture");
    let mut env = stage.sim_env("gfx942");
    env.push(("ROCPROF_RS_SIM_EXEC".into(), "off".into()));
    env.push(("LD_PRELOAD".into(), intercept.clone()));
    env.push(("HSA_TOOLS_LIB".into(), intercept));
    env.push(("ROCPROF_RS_CAPTURE_DIR".into(), cap.display().to_string()));
    env.push(("ROCPROF_RS_TRACE".into(), "kernel".into()));
    if let Some(s) = sampling {
        env.push(("ROCPROF_RS_PC_SAMPLING".into(), s.into()));
    }
    let t = Instant::now();
    let r = run(app, &[&n.to_string()], &env);
    let e = t.elapsed();
    if !r.status.success() {
        bail!("vector_add under the interception library failed:\n{}", r.transcript());
    }
    let files = rocprof_e2e::find_files(&cap, ".rpcap");
    let [file] = files.as_slice() else { bail!("expected one capture in {}, found {files:?}", cap.display()) };
    let mut reader = CaptureReader::open(file)?;
    let mut strings = StringTable::new();
    let mut dispatches = 0u64;
    while let Some(r) = reader.next_record(&mut strings).map_err(|e| anyhow::anyhow!("{e}"))? {
        dispatches += u64::from(matches!(r, rocprof_model::Record::KernelDispatch(_)));
    }
    let health = reader.info().health;
    if dispatches != n || health.lost.nonzero().next().is_some() {
        bail!("capture has {dispatches} dispatches and losses {:?} for {n}", health.loss_lines());
    }
    let samples = reader.pc_samples().samples.len() as u64;
    let _ = std::fs::remove_dir_all(&cap);
    Ok((e, samples))
}

/// Prints the PC-sampling overhead figures.
pub(crate) fn overhead(stage: &Stage, runs: u64, n: u64) -> Result<()> {
    let Some(app) = stage.fixture("vector_add", "rocprof-bench") else { bail!("vector_add is not staged") };
    let best = |sampling: Option<&str>| -> Result<(Duration, u64)> {
        let mut best = (Duration::MAX, 0);
        for _ in 0..runs {
            let r = once(stage, &app, n, sampling)?;
            if r.0 < best.0 {
                best = r;
            }
        }
        Ok(best)
    };
    let (traced, _) = best(None)?;
    let (on, quiet) = best(Some("host_trap,time,1000000"))?;
    let (dense, samples) = best(Some("host_trap,time,1"))?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "PC sampling overhead: vector_add {n} dispatches on hsa-sim gfx942 (not executed), best of {runs} runs each"
    );
    println!("  {:<52} {:>9.1} ms", "interception library, kernel trace", ms(traced));
    println!(
        "  {:<52} {:>9.1} ms  {:+.2} us per dispatch ({quiet} samples)",
        "+ host_trap every 1 s (sampling on, no tick)",
        ms(on),
        (on.as_secs_f64() - traced.as_secs_f64()) * 1e6 / n as f64
    );
    let per_sample = if samples > 0 { (dense.as_secs_f64() - on.as_secs_f64()) * 1e6 / samples as f64 } else { 0.0 };
    println!(
        "  {:<52} {:>9.1} ms  {samples} samples, {per_sample:+.2} us per sample",
        "+ host_trap every 1 us",
        ms(dense)
    );
    Ok(())
}
