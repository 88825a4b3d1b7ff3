//! The HIP fixtures (`fixtures/hip/`, built with Debian's hipcc for gfx90a and gfx1030) and the
//! ROCTx fixture on hsa-sim: they run to completion without the profiler (our `libroctx64` is a
//! no-op then) and under `rocprof-rs --kernel-trace`, with one kernel row per launch they report.

use std::collections::HashMap;

use rocprof_e2e::{find_one, read_csv, run, stage};

use crate::common::kernel_trace;

/// `name=count` pairs of the line starting with `prefix` (e.g. `hip-calls:`) of a fixture's output.
pub(crate) fn counts(stdout: &str, prefix: &str) -> HashMap<String, u64> {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{stdout}"));
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.parse().unwrap_or_else(|_| panic!("{k}={v} in {line}"))))
        .collect()
}

#[test]
fn hip_trace_app_runs_on_hsa_sim_and_its_launches_are_kernel_rows() {
    let test = "hip_trace_app_runs_on_hsa_sim_and_its_launches_are_kernel_rows";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    for gpu in ["gfx90a", "gfx1030"] {
        let plain = run(&app, &["3"], &stage.sim_env(gpu));
        assert!(plain.status.success(), "{gpu}: hip_trace_app without the profiler:\n{}", plain.transcript());
        let calls = counts(&plain.stdout, "hip-calls:");
        assert_eq!(calls["hipLaunchKernel"], 3, "{gpu}");
        assert_eq!(counts(&plain.stdout, "roctx-calls:")["roctxRangePushA"], 8, "{gpu}: 2 + 2 per iteration");

        let p = kernel_trace(&stage, gpu, &app, &["5"], &[]);
        assert!(p.run.status.success(), "{gpu}: hip_trace_app under rocprof-rs:\n{}", p.run.transcript());
        let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
        let vadd = csv.rows.iter().filter(|r| r["Kernel_Name"] == "vadd(float const*, float const*, float*, int)");
        assert_eq!(vadd.count(), 5, "{gpu}: one vadd row per hipLaunchKernel:\n{:?}", csv.rows);
        // hipMemset and the device-to-device copy run HIP's own blit kernels.
        assert!(
            csv.rows.iter().any(|r| r["Kernel_Name"].contains("fillBuffer")),
            "{gpu}: no fill kernel for hipMemset in {:?}",
            csv.rows.iter().map(|r| &r["Kernel_Name"]).collect::<Vec<_>>()
        );
    }
}

/// `hipMallocManaged` needs hsa-sim's SVM attributes (it failed with `hipErrorOutOfMemory` while
/// `hsa_amd_svm_attributes_set` was unsupported); the launch on managed memory is traced.
#[test]
fn hip_managed_memory_works_on_hsa_sim() {
    let test = "hip_managed_memory_works_on_hsa_sim";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let p = kernel_trace(&stage, "gfx90a", &app, &["1", "--managed"], &[]);
    assert!(p.run.status.success(), "hip_trace_app --managed under rocprof-rs:\n{}", p.run.transcript());
    assert!(!p.run.stderr.contains("not supported"), "{}", p.run.transcript());
    assert_eq!(counts(&p.run.stdout, "kernels:")["vadd"], 2);
    let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
    let vadd = csv.rows.iter().filter(|r| r["Kernel_Name"].starts_with("vadd(")).count();
    assert_eq!(vadd, 2, "one vadd per iteration plus the managed one");
}

#[test]
fn hip_rand_app_generates_through_rocrand_kernels() {
    let test = "hip_rand_app_generates_through_rocrand_kernels";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_rand_app", test) else { return };
    let p = kernel_trace(&stage, "gfx90a", &app, &["65536"], &[]);
    assert!(p.run.status.success(), "hip_rand_app under rocprof-rs:\n{}", p.run.transcript());
    let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
    assert!(
        csv.rows.iter().any(|r| r["Kernel_Name"].contains("rocrand")),
        "no rocRAND kernel among {:?}",
        csv.rows.iter().map(|r| &r["Kernel_Name"]).collect::<Vec<_>>()
    );
}

#[test]
fn roctx_threads_runs_with_the_noop_roctx_library_and_under_the_profiler() {
    let test = "roctx_threads_runs_with_the_noop_roctx_library_and_under_the_profiler";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("roctx_threads", test) else { return };
    let plain = run(&app, &["3", "4"], &stage.sim_env("gfx90a"));
    assert!(plain.status.success(), "roctx_threads without the profiler:\n{}", plain.transcript());
    let roctx = counts(&plain.stdout, "roctx-calls:");
    assert_eq!((roctx["roctxMarkA"], roctx["roctxRangePushA"], roctx["roctxRangePop"]), (13, 16, 16));
    let p = kernel_trace(&stage, "gfx90a", &app, &["3", "4"], &[]);
    assert!(p.run.status.success(), "roctx_threads under rocprof-rs:\n{}", p.run.transcript());
    assert_eq!(read_csv(&find_one(&p.out, "kernel_trace.csv")).rows.len(), 12);
}

/// `host_functions` of the JSON output: the fixture's one `__global__` function, registered by
/// its module constructor through `__hipRegisterFunction`, becomes a host function of each
/// `vadd` kernel symbol (AMD's `test_host_functions_json` rules), named as `nm` names the host
/// stub; HIP's own blit kernels, which no application registers, have none.
#[test]
fn hip_registered_kernels_are_host_functions_in_json() {
    let test = "hip_registered_kernels_are_host_functions_in_json";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let nm = std::process::Command::new("nm").arg(&app).output().expect("nm");
    let nm = String::from_utf8_lossy(&nm.stdout);
    // The host stub carries the device function's mangled name (`_Z4vaddPKfS1_Pfi`).
    let mangled: Vec<&str> =
        nm.lines().filter_map(|l| l.split_whitespace().nth(2)).filter(|s| s.starts_with("_Z4vadd")).collect();
    assert_eq!(mangled.len(), 1, "one vadd symbol in nm's output:\n{nm}");
    let out = rocprof_e2e::scratch("host-functions");
    let _cleanup = rocprof_e2e::ScratchGuard(out.clone());
    let out_s = out.display().to_string();
    let run = rocprof_e2e::profile(
        &stage,
        &["--simulate", "gfx90a", "--kernel-trace", "--output-format", "json", "-d", &out_s],
        &app,
        &["1"],
        &[],
    );
    assert!(run.status.success(), "{}", run.transcript());
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(find_one(&out, "results.json")).unwrap()).unwrap();
    let data = &doc["rocprofiler-sdk-tool"][0];
    let syms = data["kernel_symbols"].as_array().unwrap();
    let hf = data["host_functions"].as_array().unwrap();
    let real: Vec<&serde_json::Value> = hf.iter().filter(|h| h["host_function_id"] != 0).collect();
    let vadd_symbols = syms.iter().filter(|s| s["truncated_kernel_name"] == "vadd").count();
    assert!(vadd_symbols > 0, "no vadd symbol: {syms:?}");
    assert_eq!(real.len(), vadd_symbols, "one host function per vadd symbol: {hf:?}");
    for h in real {
        let kid = h["kernel_id"].as_u64().unwrap() as usize;
        assert!(kid > 0 && kid <= syms.len());
        let coid = h["code_object_id"].as_u64().unwrap() as usize;
        assert!(coid > 0 && coid <= data["code_objects"].as_array().unwrap().len());
        assert_eq!(h["truncated_host_function_name"], syms[kid]["truncated_kernel_name"]);
        assert_eq!(h["device_function"], mangled[0]);
        assert_eq!(syms[kid]["kernel_name"], format!("{}.kd", mangled[0]));
        assert_ne!(h["host_function"]["handle"], 0);
    }
}
