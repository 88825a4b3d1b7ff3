//! `rocprof-rs --att` on hsa-sim (staged artifacts): raw `.att` / `.out` files, rocprofv3's
//! `ui_output_*` directories and stats CSVs, the hotspot report, iteration ranges, buffer loss.
//! The traced waves are checked against the device model the simulator ran: as many waves on the
//! traced unit as it placed there, each running the kernel's code path.

use rocprof_launch::names as launch;
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_device::sqtt::{family_of, trace_loc, traced_cu_in_se, TracedUnit};
use rocprof_device::targets::find as find_target;
use rocprof_device::{DetailRequest, DispatchInput, DispatchModel, KernelProfile};

use crate::{scratch, stderr, stdout};

fn stage() -> Option<PathBuf> {
    rocprof_test_inputs::stage("staged ATT test")
}

fn staged_bin(stage: &Path) -> Command {
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [launch::INTERCEPT_LIB, launch::SIM_LIB, launch::PROBE, launch::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    // The native decoder unless a test asks otherwise.
    c.env_remove("ROCPROF_ATT_LIBRARY_PATH");
    c
}

fn files(dir: &Path, pred: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if pred(&name) {
            out.push(p.clone());
        }
        if p.is_dir() {
            out.extend(files(&p, pred));
        }
    }
    out.sort();
    out
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The vector_add kernel of a target's fixture: (code from the entry, entry ELF vaddr).
fn kernel(target: &str) -> (Vec<u8>, u64) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
    let elf = std::fs::read(root.join(format!("vector_add-{target}.co"))).unwrap();
    let text = rocprof_sqtt::elf::text_section(&elf).unwrap();
    let f = rocprof_sqtt::elf::functions(&elf).into_iter().find(|f| f.name == "vector_add").unwrap();
    let off = (f.vaddr - text.vaddr) as usize;
    (text.bytes[off..off + f.size as usize].to_vec(), f.vaddr)
}

/// Waves the simulator's model puts on the traced unit of SE 0 for a vector_add dispatch of
/// `elements` work-items (workgroups of 256), and the code path's ELF addresses.
fn expected(target: &str, elements: u32, unit: TracedUnit) -> (usize, Vec<u64>) {
    let t = find_target(target).unwrap();
    let (code, vaddr) = kernel(target);
    let k = KernelProfile::from_code(t, &code);
    let input = DispatchInput {
        target: t,
        grid: [elements, 1, 1],
        workgroup: [256, 1, 1],
        wavefront_size: t.wavefront_size,
        lds_bytes: 0,
        scratch_bytes: 0,
        kernel: &k,
    };
    let req = DetailRequest {
        se_mask: 1,
        cu_in_se: Some(traced_cu_in_se(t, unit)),
        max_waves: 4096,
        max_instructions_per_wave: 1,
    };
    let m = DispatchModel::build(&input, &req);
    let family = family_of(t).unwrap();
    let waves = m
        .detail
        .iter()
        .filter(|w| {
            let l = trace_loc(t, &w.wave.placement);
            w.wave.placement.se == 0
                && l.sa == 0
                && l.cu == unit.target_cu
                && match family {
                    rocprof_sqtt::Family::Gfx9 => unit.simd_select & (1 << l.simd) != 0,
                    _ => l.simd == unit.simd_select & 3,
                }
        })
        .count();
    // The code path: from the entry, falling through, to s_endpgm (vector_add has no s_branch).
    let prog = rocprof_sqtt::Program::new(family, vaddr, &code);
    let mut path = Vec::new();
    let mut l = prog.line_at(vaddr);
    while let Some(i) = l {
        let (pc, info) = prog.line(i);
        if info.class != rocprof_sqtt::isa::LineClass::Skip {
            path.push(pc);
        }
        if info.flags & rocprof_sqtt::isa::flags::ENDPGM != 0 {
            break;
        }
        l = prog.next_line(i);
    }
    (waves, path)
}

/// The files att-ui-output.md lists for every ui_output directory.
const UI_FILES: &[&str] = &["filenames.json", "code.json", "occupancy.json"];

#[test]
fn att_writes_raw_files_ui_output_stats_and_report_on_every_trace_family() {
    let Some(stage) = stage() else { return };
    for target in ["gfx942", "gfx950", "gfx1100", "gfx1201"] {
        let out = scratch(&format!("att-{target}"));
        let o = staged_bin(&stage)
            .args(["--simulate", target, "--att", "--att-target-cu", "1", "-d"])
            .arg(&out)
            .arg("--")
            .arg(stage.join("fixtures/vector_add"))
            .arg("3")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{target}: {}", stderr(&o));
        // First dispatch of the kernel only (rocprofv3's default), SE 0 only (mask 0x1).
        let att = files(&out, &|n| n.ends_with(".att"));
        assert_eq!(att.len(), 1, "{target}: {att:?}");
        assert!(att[0].file_name().unwrap().to_string_lossy().ends_with("_shader_engine_0_1.att"), "{att:?}");
        let outs = files(&out, &|n| n.ends_with(&format!("_{target}_code_object_id_1.out")));
        assert_eq!(outs.len(), 1, "{target}");
        let ui = files(&out, &|n| n.starts_with("ui_output_agent_") && n.ends_with("_dispatch_1"));
        assert_eq!(ui.len(), 1, "{target}");
        for f in UI_FILES {
            assert!(ui[0].join(f).is_file(), "{target}: {f}");
        }
        let stats = out.join(format!("stats_{}.csv", ui[0].file_name().unwrap().to_string_lossy()));
        assert!(stats.is_file(), "{target}: {}", stats.display());
        // Traced waves: as many as the model placed on the traced unit, each on the code path.
        let unit = TracedUnit { target_cu: 1, simd_select: 0xF };
        let (waves, path) = expected(target, 65536, unit);
        let names = json(&ui[0].join("filenames.json"));
        let wave_files = files(&ui[0], &|n| n.starts_with("se0_sm"));
        assert_eq!(wave_files.len(), waves, "{target}: wave files vs the model's waves on the traced unit");
        assert!(waves >= 2, "{target}");
        let code = json(&ui[0].join("code.json"));
        let rows = code["code"].as_array().unwrap();
        let vaddr_of = |line: u64| rows.iter().find(|r| r[2] == line).map(|r| r[5].as_u64().unwrap()).unwrap();
        for f in &wave_files {
            let w = json(f);
            let lines: Vec<u64> = w["wave"]["instructions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| vaddr_of(i[4].as_u64().unwrap()))
                .collect();
            assert_eq!(lines, path, "{target}: {}", f.display());
        }
        assert_eq!(names["gfxip"], if target.starts_with("gfx9") { 9 } else { target[3..5].parse::<u64>().unwrap() });
        let report = stdout(&o);
        assert!(
            report.contains("vector_add") && report.contains(&format!("{waves} waves traced")),
            "{target}: {report}"
        );
        assert!(report.contains("top by stall") || target == "gfx1201", "{target}: {report}");
        assert!(report.contains("loss: none"), "{target}: {report}");
    }
}

#[test]
fn att_iteration_range_traces_every_listed_dispatch() {
    let Some(stage) = stage() else { return };
    let out = scratch("att-range");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--att", "--kernel-iteration-range", "[1-3]", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("5")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ui: Vec<String> = files(&out, &|n| n.starts_with("ui_output_agent_"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(ui.len(), 3, "{ui:?}");
    for d in 1..=3 {
        assert!(ui.iter().any(|n| n.ends_with(&format!("_dispatch_{d}"))), "{ui:?}");
    }
    assert_eq!(files(&out, &|n| n.ends_with(".att")).len(), 3);
}

#[test]
fn att_tiny_buffer_reports_loss_and_keeps_what_fit() {
    let Some(stage) = stage() else { return };
    let out = scratch("att-loss");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx1100", "--att", "--att-buffer-size", "0x60000", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .args(["1", "4194304"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err.lines().find(|l| l.contains("was full")).unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("shader engine 0") && line.contains("bytes and") && line.contains("waves lost"), "{line}");
    // Everything that fit was written: SE 0's whole slice ((0x60000 - 63 * 4 KiB) rounded to 4 KiB).
    let att = files(&out, &|n| n.ends_with(".att"));
    assert_eq!(att.len(), 1);
    assert_eq!(std::fs::metadata(&att[0]).unwrap().len(), (0x60000 - 63 * 4096) / 4096 * 4096);
    let ui = files(&out, &|n| n.starts_with("ui_output_agent_"));
    assert_eq!(ui.len(), 1);
    assert!(files(&ui[0], &|n| n.starts_with("se0_sm")).len() > 10);
    let report = stdout(&o);
    assert!(report.contains("lost (buffer full)"), "{report}");
}

#[test]
fn att_option_errors_are_one_line_before_launch() {
    let Some(stage) = stage() else { return };
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--att", "--att-perfcounters", "SQ_WAVES", "--", "/nonexistent/app"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("--att-perfcounter-ctrl"), "{e}");
    let o = staged_bin(&stage)
        .args(["--att", "--att-decoder", "amd", "--att-library-path", "/nonexistent/lib.so", "--", "/nonexistent/app"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("librocprof-trace-decoder"), "{}", stderr(&o));
}

#[test]
fn att_captures_decode_the_same_with_amds_decoder_when_available() {
    let Some(lib) = std::env::var_os("ROCPROF_ATT_LIBRARY_PATH").filter(|v| !v.is_empty()) else {
        rocprof_test_inputs::skip_optional(
            "att_captures_decode_the_same_with_amds_decoder_when_available",
            "ROCPROF_ATT_LIBRARY_PATH does not name AMD's librocprof-trace-decoder.so",
        );
        return;
    };
    let Some(stage) = stage() else { return };
    let perf = [
        "--att-perfcounters",
        "SQ_WAVES SQ_INSTS_VALU SQ_BUSY_CU_CYCLES SQ_INSTS_SALU SQ_INSTS_SMEM",
        "--att-perfcounter-ctrl",
        "2",
    ];
    for (target, extra) in
        [("gfx942", &[][..]), ("gfx950", &[][..]), ("gfx1100", &[][..]), ("gfx1201", &[][..]), ("gfx942", &perf[..])]
    {
        let out = scratch(&format!("att-amd-{target}-{}", extra.len()));
        let o = staged_bin(&stage)
            .args(["--simulate", target, "--att", "--kernel-iteration-range", "1-2"])
            .args(extra)
            .arg("-d")
            .arg(out.join("run"))
            .arg("--")
            .arg(stage.join("fixtures/vector_add"))
            .arg("2")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{target}: {}", stderr(&o));
        let raw = files(&out.join("run"), &|n| n.ends_with(".att"))[0].parent().unwrap().to_path_buf();
        for (decoder, dir) in [("native", "native"), ("amd", "amd")] {
            let o = staged_bin(&stage)
                .env("ROCPROF_ATT_LIBRARY_PATH", &lib)
                .args(["att-decode", "-q", "--att-decoder", decoder])
                .arg(&raw)
                .arg("-d")
                .arg(out.join(dir))
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{target} {decoder}: {}", stderr(&o));
        }
        let native = files(&out.join("native"), &|n| n.ends_with(".json") || n.ends_with(".csv"));
        assert!(native.len() > 6, "{target}");
        if !extra.is_empty() {
            assert!(native.iter().any(|f| f.ends_with("se0_perfcounter.json")), "{target}: no streamed counters");
        }
        for f in native {
            let rel = f.strip_prefix(out.join("native")).unwrap();
            let theirs = std::fs::read(out.join("amd").join(rel)).unwrap();
            assert!(std::fs::read(&f).unwrap() == theirs, "{target}: {} differs between decoders", rel.display());
        }
    }
}

#[test]
fn att_on_gfx10_warns_once_and_the_application_runs_untraced() {
    let Some(stage) = stage() else { return };
    let out = scratch("att-gfx1030");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx1030", "--att", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("2")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("gfx1030") && l.contains("not supported")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("gfx9, gfx11 and gfx12"), "{err}");
    assert!(!err.contains("no dispatch was traced"), "{err}");
    // The application ran (its result line) and nothing pretends to be a trace.
    assert!(stdout(&o).contains("vector_add: ok"), "{}", stdout(&o));
    assert!(files(&out, &|n| n.ends_with(".att")).is_empty());
    assert!(files(&out, &|n| n.starts_with("ui_output_agent_")).is_empty());
}

/// `--att-perfcounters` on gfx942: the streamed SQ counters reach `se0_perfcounter.json` and
/// `filenames.json`'s `counter_names`; per CU of shader array 0 the samples sum to what the
/// simulated dispatch ran there (waves the model placed on the CU; VALU instructions = waves x
/// the kernel's VALU instructions).
#[test]
fn att_perfcounters_stream_the_models_sq_counts_per_cu() {
    let Some(stage) = stage() else { return };
    let out = scratch("att-perf");
    let elements: u32 = 1 << 20;
    let o = staged_bin(&stage)
        .args([
            "--simulate",
            "gfx942",
            "--att",
            "--att-perfcounters",
            "SQ_WAVES SQ_INSTS_VALU SQ_BUSY_CU_CYCLES SQ_INSTS_SALU sq_insts_smem:3",
        ])
        .args(["--att-perfcounter-ctrl", "2", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .args(["1", &elements.to_string()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ui = files(&out, &|n| n.starts_with("ui_output_agent_"));
    assert_eq!(ui.len(), 1);
    let names = json(&ui[0].join("filenames.json"))["counter_names"].clone();
    assert_eq!(
        names,
        serde_json::json!(["SQ_WAVES", "SQ_INSTS_VALU", "SQ_BUSY_CU_CYCLES", "SQ_INSTS_SALU", "SQ_INSTS_SMEM:3"])
    );
    let rows = json(&ui[0].join("se0_perfcounter.json"))["data"].as_array().unwrap().clone();
    let t = find_target("gfx942").unwrap();
    let per_cu = |cu: u32, bank: u64, k: usize| -> u64 {
        rows.iter()
            .filter(|r| r[5].as_u64() == Some(u64::from(cu)) && r[6].as_u64() == Some(bank))
            .map(|r| r[1 + k].as_u64().unwrap())
            .sum()
    };
    // The model the sim ran (workgroups of 256), and the kernel's VALU instructions per wave.
    let (code, vaddr) = kernel("gfx942");
    let k = KernelProfile::from_code(t, &code);
    let input = DispatchInput {
        target: t,
        grid: [elements, 1, 1],
        workgroup: [256, 1, 1],
        wavefront_size: t.wavefront_size,
        lds_bytes: 0,
        scratch_bytes: 0,
        kernel: &k,
    };
    let m = DispatchModel::build(
        &input,
        &DetailRequest { se_mask: 0, cu_in_se: None, max_waves: 0, max_instructions_per_wave: 0 },
    );
    let (_, path) = expected("gfx942", elements, TracedUnit { target_cu: 1, simd_select: 0xF });
    let prog = rocprof_sqtt::Program::new(rocprof_sqtt::Family::Gfx9, vaddr, &code);
    let valu = path
        .iter()
        .filter(|&&pc| {
            let c = prog.line(prog.line_at(pc).unwrap()).1.class;
            matches!(c, rocprof_sqtt::isa::LineClass::Valu | rocprof_sqtt::isa::LineClass::VMovB64)
        })
        .count() as u64;
    assert!(valu > 0);
    let n = t.cus_in_se(0);
    let mut cus = 0;
    for cu in (0..n).filter(|&c| t.sa_of_cu(c, n) == 0) {
        let waves: u64 = m.workgroups_on_cu(0, cu).map(|g| u64::from(m.waves_in_workgroup(g))).sum();
        assert_eq!(per_cu(cu, 0, 0), waves, "SQ_WAVES on CU {cu}");
        assert_eq!(per_cu(cu, 0, 1), waves * valu, "SQ_INSTS_VALU on CU {cu}");
        assert!(per_cu(cu, 0, 2) > 0, "SQ_BUSY_CU_CYCLES on CU {cu}");
        assert!(per_cu(cu, 1, 0) > 0, "SQ_INSTS_SMEM on CU {cu} (bank 1)");
        cus += u32::from(waves > 0);
    }
    assert!(cus >= 4, "{cus} CUs with waves");
}

/// Kernel intervals `(start, end)` of a run's kernel_trace.csv, sorted, and how many overlap the one before.
fn kernel_overlaps(dir: &Path) -> (usize, usize) {
    let csv = files(dir, &|n| n.ends_with("kernel_trace.csv"));
    assert_eq!(csv.len(), 1, "{}", dir.display());
    // vector_add's rows hold no quoted commas.
    let text = std::fs::read_to_string(&csv[0]).unwrap();
    let rows: Vec<Vec<String>> =
        text.lines().map(|l| l.split(',').map(|f| f.trim_matches('"').to_string()).collect()).collect();
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let (s, e) = (col("Start_Timestamp"), col("End_Timestamp"));
    let mut iv: Vec<(u64, u64)> = rows[1..].iter().map(|x| (x[s].parse().unwrap(), x[e].parse().unwrap())).collect();
    iv.sort();
    let overlaps = iv.windows(2).filter(|w| w[1].0 < w[0].1).count();
    (iv.len(), overlaps)
}

/// `--att-serialize-all` serialises every dispatch of the GPU across queues, as rocprofv3's
/// profiler serializer: four threads with a queue each, kernels long enough to overlap (time scale
/// 200) — they overlap without the option and never with it, and every dispatch completes.
#[test]
fn att_serialize_all_runs_dispatches_of_all_queues_one_at_a_time() {
    let Some(stage) = stage() else { return };
    let run = |serialize: bool, scale: &str, per_thread: &str, traced: usize| {
        let out = scratch(&format!("att-serial-{serialize}-{per_thread}-{traced}"));
        let mut c = staged_bin(&stage);
        c.env(launch::SIM_TIME_SCALE, scale).args(["--simulate", "gfx942", "--att", "--kernel-trace", "-f", "csv"]);
        if serialize {
            c.arg("--att-serialize-all");
        }
        if traced > 1 {
            c.args(["--kernel-iteration-range", &format!("[1-{traced}]")]);
        }
        let o = c
            .arg("-d")
            .arg(&out)
            .arg("--")
            .arg(stage.join("fixtures/multi_queue"))
            .args(["4", per_thread, "--no-profiling"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("multi_queue: ok"), "{}", stdout(&o));
        assert!(!stderr(&o).contains("unserialised"), "{}", stderr(&o));
        // The first dispatch of the kernel (or as many as asked) traced either way, SE 0 each.
        assert_eq!(files(&out, &|n| n.ends_with(".att")).len(), traced);
        kernel_overlaps(&out)
    };
    let (n, overlaps) = run(false, "200", "10", 1);
    assert_eq!(n, 40);
    assert!(overlaps > 0, "without --att-serialize-all the queues' kernels overlap on hsa-sim");
    assert_eq!(run(true, "200", "10", 1), (40, 0));
    // Every dispatch traced: traced dispatches from four queues take both chains in one order.
    assert_eq!(run(true, "1", "10", 40), (40, 0));
    // More dispatches than the chain has signals (they are reused), and threads that finish and
    // destroy their queue while the others still dispatch.
    assert_eq!(run(true, "1", "300", 1), (1200, 0));
}

#[test]
fn att_json_lists_the_trace_files_and_code_object_snapshots_next_to_it() {
    // AMD's advanced-thread-trace validate.py: strings.att_filenames is not empty, and
    // strings.code_object_snapshot_filenames[1..] are files next to results.json whose name
    // carries the gfx target and whose bytes are the code object the application loaded.
    let Some(stage) = stage() else { return };
    let out = scratch("att-json");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx90a", "--att", "-f", "json", "-o", "out", "--att-gpu-index", "0,9999", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("3")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // rocprofv3 names each index no GPU has (and traces the others).
    assert!(stderr(&o).contains("Invalid GPU Device Index: 9999"), "{}", stderr(&o));
    let doc = json(&out.join("out_results.json"));
    let strings = &doc["rocprofiler-sdk-tool"][0]["strings"];
    let listed: Vec<String> =
        strings["att_filenames"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    let mut on_disk: Vec<String> = files(&out, &|n| n.ends_with(".att"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    assert!(!on_disk.is_empty());
    assert_eq!(listed, on_disk);
    let snaps = strings["code_object_snapshot_filenames"].as_array().unwrap();
    assert_eq!(snaps[0], "", "element 0 is blank (ids start at 1)");
    let image =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels/vector_add-gfx90a.co"))
            .unwrap();
    let mut found = false;
    for s in &snaps[1..] {
        let name = s.as_str().unwrap();
        assert!(name.contains("gfx90a"), "{name}");
        found |= std::fs::read(out.join(name)).unwrap() == image;
    }
    assert!(found, "one snapshot is the loaded code object: {snaps:?}");
}
