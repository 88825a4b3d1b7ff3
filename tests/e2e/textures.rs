//! Images and samplers on hsa-sim: HIP's texture objects (`hipMallocArray`, `hipMemcpy2DToArray`,
//! `hipCreateTextureObject`, `tex2D`) through the images extension and the interpreter's MIMG
//! instructions. The fixtures (`fixtures/hip/texture_check.h`) compare every sampled value with a host
//! reference of the texture rules (point and bilinear filtering, wrap, mirror, clamp and border,
//! normalized and unnormalized coordinates, float4, normalized uchar4, uchar and pitched linear memory);
//! HIP's own blit kernels fill and read back the arrays (image stores and loads). `tex1Dfetch` on linear
//! memory (a 1D buffer image: a V# and `buffer_load_format_*`) is checked element by element as float,
//! normalized uchar4, normalized short and int2.
//!
//! Every dispatch must have executed (no timing-only fallback). gfx942 has no image hardware: HIP reports
//! no image support there and the program says so.

use rocprof_e2e::{run, stage};
use rocprof_launch::names;

use crate::common::hip6_fixture;
use crate::sid::run_checked;

const CASES: &str = "ok (8 of 8 texture cases, 256 points each; 4 of 4 tex1Dfetch cases, 1000 elements each)";

#[test]
fn hip6_texture_objects_sample_as_the_host_reference_on_gfx1100_gfx1201_and_gfx90a() {
    let test = "hip6_texture_objects_sample_as_the_host_reference_on_gfx1100_gfx1201_and_gfx90a";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_texture", test) else { return };
    // gfx1201: gfx12's VIMAGE/VSAMPLE instructions and T# layout.
    for gpu in ["gfx1100", "gfx1201", "gfx90a"] {
        let r = run_checked(&stage, &root, &app, gpu, &["1"], None);
        assert!(r.stdout.contains(&format!("hip6_texture: {CASES}")), "{gpu}:\n{}", r.transcript());
    }
}

#[test]
fn hip6_texture_reports_no_image_support_on_gfx942() {
    let test = "hip6_texture_reports_no_image_support_on_gfx942";
    let Some(stage) = stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_texture", test) else { return };
    let mut cmd = crate::common::sid_command(&stage, &root, &app);
    cmd.env(names::SIM_AGENTS, "gfx942");
    let r = rocprof_e2e::run_command(cmd);
    assert!(r.status.success(), "{}", r.transcript());
    assert!(
        r.stdout.contains("hip6_texture: no image support (hipDeviceAttributeImageSupport 0)"),
        "{}",
        r.transcript()
    );
}

#[test]
fn hip_texture_objects_sample_as_the_host_reference_on_gfx90a_and_gfx1030() {
    let test = "hip_texture_objects_sample_as_the_host_reference_on_gfx90a_and_gfx1030";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_texture", test) else { return };
    for gpu in ["gfx90a", "gfx1030"] {
        let r = run(&app, &["1"], &stage.sim_env(gpu));
        assert!(r.status.success(), "{gpu}: hip_texture failed:\n{}", r.transcript());
        assert!(r.stdout.contains(&format!("hip_texture: {CASES}")), "{gpu}:\n{}", r.transcript());
        assert!(!r.stderr.contains("falls back"), "{gpu}: a dispatch fell back:\n{}", r.transcript());
    }
}

/// The check is real: without execution the sampled values are never written and the program fails.
#[test]
fn hip_texture_check_fails_when_execution_is_off() {
    let test = "hip_texture_check_fails_when_execution_is_off";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_texture", test) else { return };
    let mut env = stage.sim_env("gfx90a");
    env.push((names::SIM_EXEC.into(), "off".into()));
    let r = run(&app, &["1"], &env);
    assert_eq!(r.status.code(), Some(1), "{}", r.transcript());
}
