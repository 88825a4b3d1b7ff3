//! HIP 6.4 (Debian sid) as a client: the `fixtures/hip6/` programs, built with sid's hipcc 7 for
//! gfx90a, gfx942, gfx1100 and gfx1201, run inside the sid chroot (`cargo xtask sid`) on hsa-sim,
//! plainly and under `rocprof-rs`, and compute what the host computes. rocminfo 7.2 from sid lists
//! hsa-sim's agents. Each test skips where the chroot is missing (fails under `CI=true`).

use rocprof_e2e::{run_command, Run, Stage};

use crate::common::{hip6_fixture, sid_command};

/// The GPU targets the HIP 6.4 fixtures are built for (one fat binary each).
const GPUS: &[&str] = &["gfx90a", "gfx942", "gfx1100", "gfx1201"];

/// Runs a HIP 6.4 fixture on hsa-sim (agent `gpu`) inside the chroot without the profiler.
fn plain(stage: &Stage, root: &std::path::Path, app: &std::path::Path, gpu: &str, args: &[&str]) -> Run {
    let mut cmd = sid_command(stage, root, app);
    cmd.args(args).env("ROCPROF_RS_SIM_AGENTS", gpu);
    run_command(cmd)
}

#[test]
fn hip6_streams_and_events_compute_the_host_results_on_every_target() {
    let test = "hip6_streams_and_events_compute_the_host_results_on_every_target";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_streams", test) else { return };
    for gpu in GPUS {
        let r = plain(&stage, &root, &app, gpu, &["2", "5000"]);
        assert!(r.status.success(), "{gpu}: hip6_streams on hsa-sim:\n{}", r.transcript());
        assert!(r.stdout.contains("hip6_streams: ok"), "{gpu}:\n{}", r.transcript());
    }
}
