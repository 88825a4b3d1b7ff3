//! Kernels execute on hsa-sim (`rocprof-isa`'s interpreter): real HIP programs built by Debian's `hipcc`
//! for gfx90a and gfx1030 and the C fixtures on gfx942 and gfx1100 check their results on the host and
//! must pass; with `ROCPROF_RS_SIM_EXEC=off` (timing only) the same checks fail, which shows they can;
//! the simulator's execution statistics count what ran; and profiling with `--simulate` writes the same
//! kernel rows whether or not kernels execute.

use rocprof_launch::names as launch;
use std::collections::BTreeMap;

use rocprof_e2e::{find_one, profile, read_csv, run, scratch, stage, ScratchGuard};

use crate::common::kernel_trace;

/// The self-checking HIP programs with small arguments (iterations first).
const HIP_CHECKS: &[(&str, &[&str])] = &[
    ("hip_vector_add", &["2", "100000"]),
    ("hip_reduce", &["1", "300007"]),
    ("hip_transpose", &["1", "300", "257"]),
    ("hip_branches", &["1", "20000"]),
    ("hip_atomics", &["2", "50000"]),
    ("hip_memops", &["1"]),
    ("hip_rand_check", &["1", "20000"]),
    ("hip_sparse_check", &["1", "3000", "2000"]),
];

#[test]
fn hip_programs_compute_correct_results_on_gfx90a_and_gfx1030() {
    let test = "hip_programs_compute_correct_results_on_gfx90a_and_gfx1030";
    let Some(stage) = stage(test) else { return };
    for (name, args) in HIP_CHECKS {
        let Some(app) = stage.hip_fixture(name, test) else { return };
        for gpu in ["gfx90a", "gfx1030"] {
            let r = run(&app, args, &stage.sim_env(gpu));
            assert!(r.status.success(), "{gpu}: {name} {args:?} failed:\n{}", r.transcript());
            assert!(r.stdout.contains(&format!("{name}: ok")), "{gpu}: {name}:\n{}", r.transcript());
            assert!(!r.stderr.contains("falls back"), "{gpu}: {name}: a dispatch fell back:\n{}", r.transcript());
        }
    }
}

/// Programs whose kernels all come from ROCm libraries or HIP itself (rocSPARSE, rocRAND through
/// hipRAND, HIP's comgr-built fill/copy kernels) carry code for every target the libraries ship, so they
/// also run on gfx908 (CDNA1: no packed work-item ids, separate AGPR file) with correct results.
#[test]
fn library_kernels_compute_correct_results_on_gfx908() {
    let test = "library_kernels_compute_correct_results_on_gfx908";
    let Some(stage) = stage(test) else { return };
    for (name, args) in
        [("hip_sparse_check", &["1", "1000", "700"][..]), ("hip_rand_check", &["1", "20000"]), ("hip_memops", &["1"])]
    {
        let Some(app) = stage.hip_fixture(name, test) else { return };
        let r = run(&app, args, &stage.sim_env("gfx908"));
        assert!(r.status.success(), "gfx908: {name} {args:?} failed:\n{}", r.transcript());
        assert!(r.stdout.contains(&format!("{name}: ok")), "gfx908: {name}:\n{}", r.transcript());
        assert!(!r.stderr.contains("falls back"), "gfx908: {name}: a dispatch fell back:\n{}", r.transcript());
    }
}

/// The checks are real: without execution every program reports wrong results and exits 1.
#[test]
fn hip_programs_fail_their_checks_when_execution_is_off() {
    let test = "hip_programs_fail_their_checks_when_execution_is_off";
    let Some(stage) = stage(test) else { return };
    for (name, args) in [
        ("hip_vector_add", &["1", "4096"][..]),
        ("hip_memops", &["1"]),
        ("hip_rand_check", &["1", "1000"]),
        ("hip_sparse_check", &["1", "300", "200"]),
    ] {
        let Some(app) = stage.hip_fixture(name, test) else { return };
        let mut env = stage.sim_env("gfx90a");
        env.push((launch::SIM_EXEC.into(), "off".into()));
        let r = run(&app, args, &env);
        assert_eq!(r.status.code(), Some(1), "{name} without execution:\n{}", r.transcript());
        assert!(r.stderr.contains(&format!("{name}: FAILED")), "{name}:\n{}", r.transcript());
    }
}

fn read_stats(path: &std::path::Path) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.trim().parse().unwrap_or_else(|_| panic!("{l:?}", l = (k, v)))))
        .collect()
}

/// `ROCPROF_RS_SIM_STATS` counts the dispatches that executed (HIP's own fill kernel for `hipMemset`
/// included) and the wave-instructions they ran.
#[test]
fn execution_statistics_count_what_ran() {
    let test = "execution_statistics_count_what_ran";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_reduce", test) else { return };
    let dir = scratch("exec-stats");
    let _g = ScratchGuard(dir.clone());
    let stats = dir.join("stats.txt");
    let mut env = stage.sim_env("gfx90a");
    env.push((launch::SIM_STATS.into(), stats.display().to_string()));
    let r = run(&app, &["2", "50000"], &env);
    assert!(r.status.success(), "{}", r.transcript());
    let s = read_stats(&stats);
    // Per iteration: 4 block_sum launches, a hipMemset (HIP's fill kernel) and the atomicAdd kernel.
    assert_eq!(s["dispatches_executed"], 12, "{s:?}");
    assert_eq!(s["dispatches_fallback"], 0, "{s:?}");
    assert!(s["waves_executed"] >= 2 * (120 * 4 + 4 + 50000 / 64), "{s:?}");
    assert!(s["wave_instructions_executed"] > s["waves_executed"] * 10, "{s:?}");

    let mut env = stage.sim_env("gfx90a");
    env.push((launch::SIM_STATS.into(), stats.display().to_string()));
    env.push((launch::SIM_EXEC.into(), "off".into()));
    let _ = std::fs::remove_file(&stats);
    let _ = run(&app, &["1", "1000"], &env);
    assert!(!stats.exists(), "no statistics are written when nothing executes");
}

/// The C fixtures check their kernels' results (vector_add's c = a + b, multi_queue's per-thread sums,
/// the four kernels of multi_code_object) on the clang-19 targets; async_copy checks HSA copies.
#[test]
fn fixture_programs_compute_correct_results_on_gfx942_and_gfx1100() {
    let test = "fixture_programs_compute_correct_results_on_gfx942_and_gfx1100";
    let Some(stage) = stage(test) else { return };
    for (name, args) in
        [("vector_add", &["3"][..]), ("multi_queue", &["3", "4"]), ("multi_code_object", &[]), ("async_copy", &[])]
    {
        let Some(app) = stage.fixture(name, test) else { return };
        for gpu in ["gfx942", "gfx1100"] {
            let r = run(&app, args, &stage.sim_env(gpu));
            assert!(r.status.success(), "{gpu}: {name} failed:\n{}", r.transcript());
            assert!(r.stdout.contains(&format!("{name}: ok")), "{gpu}: {name}:\n{}", r.transcript());
            assert!(!r.stderr.contains("falls back"), "{gpu}: {name}: a dispatch fell back:\n{}", r.transcript());
        }
        if name == "vector_add" {
            let mut env = stage.sim_env("gfx942");
            env.push((launch::SIM_EXEC.into(), "off".into()));
            let r = run(&app, args, &env);
            assert!(r.status.success(), "the timing-only mode skips the check:\n{}", r.transcript());
            assert!(r.stdout.contains("c = a + b holds for 0 of"), "{}", r.transcript());
        }
    }
}

/// `--simulate` profiling writes the same kernel rows (names, grid and workgroup sizes, LDS, scratch,
/// registers) whether kernels execute or not, for the HIP programs on gfx90a/gfx1030 (HIP's own fill
/// and copy kernels included) and the C fixtures on gfx942/gfx1100.
#[test]
fn simulated_kernel_traces_are_the_same_with_and_without_execution() {
    let test = "simulated_kernel_traces_are_the_same_with_and_without_execution";
    let Some(stage) = stage(test) else { return };
    const COLUMNS: &[&str] = &[
        "Kernel_Name",
        "Grid_Size_X",
        "Grid_Size_Y",
        "Grid_Size_Z",
        "Workgroup_Size_X",
        "Workgroup_Size_Y",
        "Workgroup_Size_Z",
        "LDS_Block_Size",
        "Scratch_Size",
        "VGPR_Count",
        "Accum_VGPR_Count",
        "SGPR_Count",
    ];
    let cases: &[(&str, bool, &str, &[&str])] = &[
        ("hip_memops", true, "gfx90a", &["1"]),
        ("hip_vector_add", true, "gfx1030", &["1", "100000"]),
        ("hip_reduce", true, "gfx90a", &["1", "100000"]),
        ("hip_transpose", true, "gfx1030", &["1", "300", "257"]),
        ("vector_add", false, "gfx942", &["3"]),
        ("multi_queue", false, "gfx1100", &["3", "4"]),
    ];
    for (name, hip, gpu, args) in cases {
        let app = if *hip { stage.hip_fixture(name, test) } else { stage.fixture(name, test) };
        let Some(app) = app else { return };
        let rows = |exec: &str| {
            let env = vec![(launch::SIM_EXEC.to_string(), exec.to_string())];
            let p = kernel_trace(&stage, gpu, &app, args, &env);
            if exec == "on" {
                assert_eq!(p.run.status.code(), Some(0), "{name} on {gpu}:\n{}", p.run.transcript());
            } else {
                // Without execution the HIP programs' checks fail (exit 1); nothing crashes.
                let want = if *hip { Some(1) } else { Some(0) };
                assert_eq!(p.run.status.code(), want, "{name} on {gpu}, exec off:\n{}", p.run.transcript());
            }
            let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
            let mut rows = csv
                .rows
                .iter()
                .map(|r| {
                    COLUMNS
                        .iter()
                        .map(|c| r.get(*c).unwrap_or_else(|| panic!("{name}: no column {c}")).clone())
                        .collect::<Vec<String>>()
                })
                .collect::<Vec<_>>();
            // Queues run concurrently: compare the rows as a multiset.
            rows.sort();
            rows
        };
        let executed = rows("on");
        assert!(!executed.is_empty(), "{name} on {gpu}: no kernel rows");
        if *name == "hip_memops" {
            assert!(executed.iter().any(|r| r[0].contains("fillBuffer")), "{executed:?}");
            assert!(executed.iter().any(|r| r[0].contains("copyBuffer")), "{executed:?}");
        }
        assert_eq!(executed, rows("off"), "{name} on {gpu}");
    }
}

/// `--simulate --pmc` counts of executed instructions are the interpreter's own: over every dispatch of a
/// run (`hip_reduce`'s kernels, HIP's fill kernel for `hipMemset`), the sums of `SQ_WAVES` and
/// `SQ_INSTS_<class>` equal what the simulator's statistics counted it executed, class by class; and
/// they are not the static walk's (timing-only mode counts each instruction of the code once per wave).
#[test]
fn counters_report_the_interpreters_instruction_counts() {
    let test = "counters_report_the_interpreters_instruction_counts";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_reduce", test) else { return };
    let dir = scratch("exec-pmc");
    let _g = ScratchGuard(dir.clone());
    let stats = dir.join("stats.txt");
    let out = dir.join("out").display().to_string();
    // (counter, the statistics' classes it counts); SQ_WAVES against waves_executed.
    let classes: &[(&str, &[&str])] = &[
        ("SQ_INSTS_VALU", &["valu"]),
        ("SQ_INSTS_SALU", &["salu"]),
        ("SQ_INSTS_SMEM", &["smem"]),
        ("SQ_INSTS_LDS", &["lds"]),
        ("SQ_INSTS_BRANCH", &["branch_taken", "branch_not_taken"]),
    ];
    let sums = |exec: &str| {
        let mut env = vec![(launch::SIM_EXEC_THREADS.to_string(), "1".to_string())];
        env.push((launch::SIM_EXEC.into(), exec.into()));
        env.push((launch::SIM_STATS.into(), stats.display().to_string()));
        let _ = std::fs::remove_file(&stats);
        let _ = std::fs::remove_dir_all(&out);
        let mut args = vec!["--simulate", "gfx90a", "-f", "csv", "-d", &out, "--pmc", "SQ_WAVES"];
        args.extend(classes.iter().map(|(c, _)| *c));
        let r = profile(&stage, &args, &app, &["1", "50000"], &env);
        assert_eq!(r.status.success(), exec == "on", "exec={exec}:\n{}", r.transcript());
        let csv = read_csv(&find_one(std::path::Path::new(&out), "counter_collection.csv"));
        let mut sum: BTreeMap<String, f64> = BTreeMap::new();
        let mut dispatches = std::collections::BTreeSet::new();
        for row in &csv.rows {
            dispatches.insert(row["Dispatch_Id"].clone());
            *sum.entry(row["Counter_Name"].clone()).or_default() += row["Counter_Value"].parse::<f64>().unwrap();
        }
        (sum, dispatches.len())
    };
    let (on, dispatches) = sums("on");
    let s = read_stats(&stats);
    assert_eq!(dispatches as u64, s["dispatches_executed"], "every executed dispatch has counters: {on:?} {s:?}");
    assert_eq!(s["dispatches_fallback"], 0, "{s:?}");
    assert_eq!(on["SQ_WAVES"], s["waves_executed"] as f64, "{on:?} {s:?}");
    for (counter, names) in classes {
        let want: u64 = names.iter().map(|n| s[&format!("instructions_{n}")]).sum();
        assert!(want > 0, "{counter}: hip_reduce executes some ({s:?})");
        assert_eq!(on[*counter], want as f64, "{counter} against the interpreter's {names:?}: {on:?} {s:?}");
    }
    // The static walk counts the reduction's loops once; execution counts every trip.
    let (off, _) = sums("off");
    assert!(!stats.exists(), "nothing executed without execution");
    assert_eq!(off["SQ_WAVES"], on["SQ_WAVES"]);
    assert_ne!(off["SQ_INSTS_VALU"], on["SQ_INSTS_VALU"], "{off:?} {on:?}");
}

/// Thread traces come from the executed wave model: `--att` on `hip_reduce` (a grid-stride loop, an
/// LDS tree and a compare-and-swap retry loop for the float `atomicAdd`) shows traced waves running
/// loop bodies more than once, and the decoded per-wave instruction lists differ from the timing-only
/// mode's, where every traced wave walks the code once from the entry to `s_endpgm`.
#[test]
fn thread_traces_follow_the_executed_code_path() {
    let test = "thread_traces_follow_the_executed_code_path";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_reduce", test) else { return };
    let dir = scratch("exec-att");
    let _g = ScratchGuard(dir.clone());
    // Per traced wave (file name): the code lines it executed, in order.
    let traced = |exec: &str| {
        let out = dir.join(exec);
        let d = out.display().to_string();
        let env = vec![(launch::SIM_EXEC.to_string(), exec.to_string())];
        let r = profile(&stage, &["--simulate", "gfx90a", "--att", "-d", &d], &app, &["1", "50000"], &env);
        assert_eq!(r.status.success(), exec == "on", "exec={exec}:\n{}", r.transcript());
        let mut waves: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for f in rocprof_e2e::find_files(&out, ".json") {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with("se") || !name.contains("_wv") {
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let lines = v["wave"]["instructions"]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no instructions", f.display()))
                .iter()
                .map(|i| i[4].as_u64().unwrap())
                .collect();
            let key = format!("{}/{name}", f.parent().unwrap().file_name().unwrap().to_string_lossy());
            waves.insert(key, lines);
        }
        assert!(!waves.is_empty(), "exec={exec}: no traced waves under {d}");
        waves
    };
    let repeats = |lines: &[u64]| lines.len() - lines.iter().collect::<std::collections::BTreeSet<_>>().len();
    let on = traced("on");
    let looping = on.values().filter(|l| repeats(l) > 0).count();
    assert!(looping > 0, "some traced wave runs a loop body twice: {:?}", on.keys().collect::<Vec<_>>());
    let off = traced("off");
    for (wave, lines) in &off {
        assert_eq!(repeats(lines), 0, "timing-only {wave} walks each instruction once");
    }
    assert_ne!(on, off, "the executed paths are not the static walk");
}

/// A kernel with an instruction the interpreter does not implement, as a user meets it: `vector_add`
/// copied next to a hand-patched `kernels/vector_add-gfx942.co` (an fp8 stochastic-rounding conversion
/// over the kernel's first instruction), profiled with `--simulate gfx942 --kernel-trace`. Every dispatch falls back to the
/// timing-only model and is counted; the report (once per kernel) names the instruction, its PC and the
/// kernel; the kernel trace still has every dispatch; the program sees uncomputed results and fails its
/// check rather than getting silently wrong ones.
#[test]
fn an_unimplemented_instruction_is_reported_and_the_dispatches_fall_back() {
    let test = "an_unimplemented_instruction_is_reported_and_the_dispatches_fall_back";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let dir = scratch("exec-fallback");
    let _g = ScratchGuard(dir.clone());
    std::fs::create_dir_all(dir.join("kernels")).unwrap();
    let copy = dir.join("vector_add");
    std::fs::copy(&app, &copy).unwrap();
    let co = app.parent().unwrap().join("kernels/vector_add-gfx942.co");
    let mut elf = std::fs::read(&co).unwrap_or_else(|e| panic!("{}: {e}", co.display()));
    let obj = rocprof_isa::CodeObject::parse(&elf).unwrap();
    let entry = obj.symbols.iter().find(|s| s.name == "vector_add").unwrap().value;
    let at = (entry - obj.text.0 + obj.text_offset) as usize;
    // v_cvt_sr_fp8_f32 v1, v2, v3 (llvm-mc-19 -mcpu=gfx942; stochastic-rounding conversions are
    // not implemented)
    elf[at..at + 8].copy_from_slice(&[0x01, 0x00, 0xa4, 0xd2, 0x02, 0x07, 0x02, 0x00]);
    std::fs::write(dir.join("kernels/vector_add-gfx942.co"), &elf).unwrap();
    let stats = dir.join("stats.txt");
    let env = vec![(launch::SIM_STATS.to_string(), stats.display().to_string())];
    let p = kernel_trace(&stage, "gfx942", &copy, &["3"], &env);
    let r = &p.run;
    assert_eq!(r.status.code(), Some(1), "the program's check fails:\n{}", r.transcript());
    assert!(r.stdout.contains("c = a + b holds for 0 of"), "{}", r.transcript());
    let reports: Vec<&str> = r.stderr.lines().filter(|l| l.contains("falls back")).collect();
    assert_eq!(reports.len(), 1, "one report per kernel and reason:\n{}", r.stderr);
    for want in ["kernel vector_add", "unimplemented instruction `v_cvt_sr_fp8_f32`", "(entry+0x0)"] {
        assert!(reports[0].contains(want), "report lacks {want:?}: {}", reports[0]);
    }
    let s = read_stats(&stats);
    assert_eq!((s["dispatches_executed"], s["dispatches_fallback"], s["fallback_unimplemented"]), (0, 3, 3), "{s:?}");
    let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
    assert_eq!(csv.rows.iter().filter(|r| r["Kernel_Name"] == "vector_add").count(), 3, "every dispatch is traced");
}

/// A generic code object (clang-19 `-mcpu=gfx11-generic`, code object v6, as Debian's rocSOLVER ships for
/// RDNA3) loads on a gfx1100 agent as on ROCr, and its kernel computes vector_add's c = a + b (checked by
/// the program on the host); one built for gfx12-generic is refused with the reason on stderr, and the
/// program sees the load fail.
#[test]
fn generic_code_objects_run_on_their_family_and_others_are_refused() {
    let test = "generic_code_objects_run_on_their_family_and_others_are_refused";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let Some(clang) = rocprof_test_inputs::program(test, "clang-19", "clang-19") else { return };
    let Some(lld) = rocprof_test_inputs::program(test, "ld.lld-19", "lld-19") else { return };
    let dir = scratch("exec-generic");
    let _g = ScratchGuard(dir.clone());
    std::fs::create_dir_all(dir.join("kernels")).unwrap();
    let copy = dir.join("vector_add");
    std::fs::copy(&app, &copy).unwrap();
    let source = rocprof_test_inputs::workspace_root().join("fixtures/kernels/vector_add.cl");
    let build = |cpu: &str| {
        let object = dir.join(format!("{cpu}.o"));
        let out = std::process::Command::new(&clang)
            .args(["-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc", "--target=amdgcn-amd-amdhsa", "-nogpulib", "-O2"])
            .arg(format!("-mcpu={cpu}"))
            .args(["-mcode-object-version=6", "-c"])
            .arg(&source)
            .arg("-o")
            .arg(&object)
            .output()
            .unwrap();
        assert!(out.status.success(), "clang-19 {cpu}: {}", String::from_utf8_lossy(&out.stderr));
        let co = dir.join("kernels/vector_add-gfx1100.co");
        let out = std::process::Command::new(&lld).arg("-shared").arg(&object).arg("-o").arg(&co).output().unwrap();
        assert!(out.status.success(), "ld.lld-19 {cpu}: {}", String::from_utf8_lossy(&out.stderr));
        let elf = std::fs::read(&co).unwrap();
        u32::from_le_bytes(elf[48..52].try_into().unwrap())
    };

    // LLVM's EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC with generic version 1 (EF_AMDGPU_GENERIC_VERSION).
    assert_eq!(build("gfx11-generic"), 0x0100_0054);
    let r = run(&copy, &["3"], &stage.sim_env("gfx1100"));
    assert!(r.status.success(), "{}", r.transcript());
    assert!(r.stdout.contains("vector_add: ok"), "{}", r.transcript());
    assert!(!r.stderr.contains("falls back"), "a dispatch fell back:\n{}", r.transcript());

    assert_eq!(build("gfx12-generic"), 0x0100_0059);
    let r = run(&copy, &["3"], &stage.sim_env("gfx1100"));
    assert!(!r.status.success(), "a gfx12-generic object must not load on gfx1100:\n{}", r.transcript());
    assert!(!r.stdout.contains("vector_add: ok"), "{}", r.transcript());
    let want = "not loaded on gfx1100: built for gfx12-generic, which does not cover gfx1100";
    assert!(r.stderr.contains(want), "stderr lacks {want:?}:\n{}", r.transcript());
}
