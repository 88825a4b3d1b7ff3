//! Stochastic PC sampling (issue 22) of `hip6_pc_sampling` (`fixtures/hip/hip_pc_sampling.cpp` built by
//! hipcc 7 for gfx942, run with HIP 6.4 inside the sid chroot) on a simulated gfx942.
//!
//! Oracles: the kernel trace's GPU times (each kernel's share of the samples follows its share of GPU
//! time), LLVM's disassembly of each sampled instruction (the CSV's `Instruction`) against what AMD's
//! validators demand of gfx9 snapshots (`s_waitcnt` is never issued and waits on `WAITCNT`, issued
//! `v_` instructions are `VALU`, `global_` ones `FLAT`, 1..32 waves per CU), and the program's source
//! (the pointer chase waits for memory; the loop of `odd_lanes` runs on the odd lanes).

use std::collections::HashMap;

use perfetto_protos::trace::Trace as PfTrace;
use perfetto_protos::track_event::track_event;
use protobuf::Message as _;
use rocprof_e2e::{find_one, read_csv, run_command, scratch, ScratchGuard};

use crate::common::{hip6_fixture, sid_command};

/// Counter tracks named `PC samples ...` in a `.pftrace` (decoded with `perfetto_protos`): their
/// points `(ns, value)`.
fn pc_sample_tracks(path: &std::path::Path) -> HashMap<String, Vec<(u64, i64)>> {
    let trace = PfTrace::parse_from_bytes(&std::fs::read(path).unwrap()).expect("a Perfetto trace");
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut out: HashMap<String, Vec<(u64, i64)>> = HashMap::new();
    for p in &trace.packet {
        if p.has_track_descriptor() && p.track_descriptor().counter.is_some() {
            names.insert(p.track_descriptor().uuid(), p.track_descriptor().name().to_string());
        }
        if p.has_track_event() && p.track_event().type_() == track_event::Type::TYPE_COUNTER {
            let name = names.get(&p.track_event().track_uuid()).cloned().expect("a declared counter track");
            if name.starts_with("PC samples") {
                out.entry(name).or_default().push((p.timestamp(), p.track_event().counter_value()));
            }
        }
    }
    out
}

#[test]
fn stochastic_samples_follow_gpu_time_and_report_waitcnt_stalls_as_gfx9_snapshots() {
    let test = "stochastic_samples_follow_gpu_time_and_report_waitcnt_stalls_as_gfx9_snapshots";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_pc_sampling", test) else { return };
    let out = scratch("pc-sampling-stochastic");
    let _guard = ScratchGuard(out.clone());
    let mut cmd = sid_command(&stage, &root, &stage.cli());
    cmd.args(["--simulate", "gfx942", "--kernel-trace", "--pc-sampling-beta-enabled"])
        .args(["--pc-sampling-method", "stochastic", "--pc-sampling-unit", "cycles"])
        .args(["--pc-sampling-interval", "1024", "-f", "csv", "json", "pftrace", "--stats", "-d"])
        .arg(&out)
        .arg("--")
        .arg(&app)
        .args(["1", "2000"]);
    let run = run_command(cmd);
    assert!(run.status.success(), "{}", run.transcript());
    assert!(run.stdout.contains("hip_pc_sampling: ok"), "results stay right under sampling:\n{}", run.transcript());
    assert!(!run.stderr.contains("pc_samples_lost"), "{}", run.transcript());
    assert!(run.stdout.contains("PC SAMPLING HOTSPOTS (stochastic"), "{}", run.stdout);

    let trace = read_csv(&find_one(&out, "kernel_trace.csv"));
    let samples = read_csv(&find_one(&out, "pc_sampling_stochastic.csv"));
    assert_eq!(
        samples.header,
        [
            "Sample_Timestamp",
            "Exec_Mask",
            "Dispatch_Id",
            "Instruction",
            "Instruction_Comment",
            "Correlation_Id",
            "Wave_Issued_Instruction",
            "Instruction_Type",
            "Stall_Reason",
            "Wave_Count"
        ]
    );
    let mut kernels: HashMap<String, (String, u64, String)> = HashMap::new();
    for r in &trace.rows {
        let name = r["Kernel_Name"].split('(').next().unwrap().to_string();
        let ns = r["End_Timestamp"].parse::<u64>().unwrap() - r["Start_Timestamp"].parse::<u64>().unwrap();
        kernels.insert(r["Dispatch_Id"].clone(), (name, ns, r["Correlation_Id"].clone()));
    }
    // HIP 6.4 copies with its own blit kernels (`__amd_rocclr_copyBuffer`): dispatches that ran too.
    let ours = ["spin_short", "spin_long", "loads", "odd_lanes"];
    assert_eq!(kernels.values().filter(|k| ours.contains(&k.0.as_str())).count(), 4, "{:?}", trace.rows);
    let total_ns: u64 = kernels.values().map(|k| k.1).sum();
    let odd_lanes: u64 = (0..32).map(|k| 1u64 << (2 * k + 1)).sum();
    let (mut per_kernel, mut waitcnt_stalls) = (HashMap::<&str, u64>::new(), HashMap::<&str, u64>::new());
    let mut odd_masks = 0;
    const TYPE: &str = "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_";
    const REASON: &str = "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_";
    for s in &samples.rows {
        let (name, _, corr) = kernels.get(&s["Dispatch_Id"]).unwrap_or_else(|| panic!("sample of no dispatch: {s:?}"));
        assert_eq!(&s["Correlation_Id"], corr, "{s:?}");
        let inst = s["Instruction"].as_str();
        assert!(!inst.is_empty(), "{s:?}");
        *per_kernel.entry(name).or_default() += 1;
        let issued = match s["Wave_Issued_Instruction"].as_str() {
            "1" => true,
            "0" => false,
            x => panic!("Wave_Issued_Instruction {x}"),
        };
        let (ty, reason) = (&s["Instruction_Type"], &s["Stall_Reason"]);
        assert!(ty.starts_with(TYPE) && reason.starts_with(REASON), "{s:?}");
        let waves: u32 = s["Wave_Count"].parse().unwrap();
        assert!((1..=32).contains(&waves), "{s:?}");
        if inst.starts_with("s_waitcnt") {
            assert!(!issued && reason == &format!("{REASON}WAITCNT"), "{s:?}");
            *waitcnt_stalls.entry(name).or_default() += 1;
        } else if issued && inst.starts_with("v_") {
            assert_eq!(ty, &format!("{TYPE}VALU"), "{s:?}");
        } else if issued && (inst.starts_with("global_") || inst.starts_with("flat_")) {
            assert_eq!(ty, &format!("{TYPE}FLAT"), "{s:?}");
        } else if issued && inst.starts_with("s_") && !inst.starts_with("s_cbranch") && !inst.starts_with("s_branch") {
            assert!(ty == &format!("{TYPE}SCALAR") || ty.ends_with("BARRIER") || ty.ends_with("MESSAGE"), "{s:?}");
        }
        let exec: u64 = s["Exec_Mask"].parse().unwrap();
        if !ours.contains(&name.as_str()) {
            continue;
        }
        if name == "odd_lanes" {
            assert!(exec == u64::MAX || exec == odd_lanes, "odd_lanes EXEC {exec:#x}");
            odd_masks += u64::from(exec == odd_lanes);
        } else {
            assert_eq!(exec, u64::MAX, "{name}: full waves, uniform control flow");
        }
    }
    let n = samples.rows.len() as f64;
    assert!(n > 300.0, "{n} samples every 1024 cycles over {total_ns} ns of kernels");
    for (d, (name, ns, _)) in &kernels {
        let time_share = *ns as f64 / total_ns as f64;
        let sample_share = per_kernel.get(name.as_str()).copied().unwrap_or(0) as f64 / n;
        assert!(
            (time_share - sample_share).abs() < 0.04,
            "dispatch {d} ({name}): {:.1}% of GPU time but {:.1}% of the samples",
            100.0 * time_share,
            100.0 * sample_share
        );
    }
    // The pointer chase spends its time waiting for loads; the ALU loops do not.
    let loads = per_kernel["loads"] as f64;
    assert!(waitcnt_stalls.get("loads").copied().unwrap_or(0) as f64 > 0.5 * loads, "{waitcnt_stalls:?} of {loads}");
    let spin = per_kernel["spin_long"] as f64;
    assert!((waitcnt_stalls.get("spin_long").copied().unwrap_or(0) as f64) < 0.1 * spin, "{waitcnt_stalls:?}");
    assert!(odd_masks as f64 > 0.8 * per_kernel["odd_lanes"] as f64, "{odd_masks} of {}", per_kernel["odd_lanes"]);

    // JSON (checked against AMD's schema when its mirror is given): the same samples in the same
    // order, each instruction text where its `inst_index` points, its stochastic fields the CSV's.
    let doc = crate::formats::valid_json(&find_one(&out, "results.json"));
    let tool = &doc["rocprofiler-sdk-tool"][0];
    let records = tool["buffer_records"]["pc_sample_stochastic"].as_array().unwrap();
    assert_eq!(records.len(), samples.rows.len());
    assert!(tool["buffer_records"]["pc_sample_host_trap"].as_array().unwrap().is_empty());
    let texts = tool["strings"]["pc_sample_instructions"].as_array().unwrap();
    for (j, row) in records.iter().zip(&samples.rows) {
        let r = &j["record"];
        let inst = j["inst_index"].as_i64().unwrap();
        assert_eq!(texts[inst as usize].as_str().unwrap(), row["Instruction"], "{j}");
        assert_eq!(r["timestamp"].as_u64().unwrap().to_string(), row["Sample_Timestamp"]);
        assert_eq!(r["dispatch_id"].as_u64().unwrap().to_string(), row["Dispatch_Id"]);
        assert_eq!(r["wave_issued"].as_u64().unwrap().to_string(), row["Wave_Issued_Instruction"]);
        assert_eq!(r["inst_type"].as_str().unwrap(), row["Instruction_Type"]);
        assert_eq!(r["snapshot"]["stall_reason"].as_str().unwrap(), row["Stall_Reason"]);
        assert_eq!(r["wave_cnt"].as_u64().unwrap().to_string(), row["Wave_Count"]);
        // AMD's arbiter check (`stochastic/json/gfx9/arbiter_state.py`): no stall without an issue.
        for pipe in ["valu", "matrix", "scalar", "vmem_tex", "lds", "flat", "misc"] {
            let (i, st) =
                (&r["snapshot"][format!("arb_state_issue_{pipe}")], &r["snapshot"][format!("arb_state_stall_{pipe}")]);
            assert!(!(i == 0 && st == 1), "{pipe}: {j}");
        }
    }

    // Perfetto: one counter track of the GPU's samples, whose value over each dispatch is its
    // number of samples.
    let tracks = pc_sample_tracks(&find_one(&out, ".pftrace"));
    let [(name, points)] = tracks.iter().collect::<Vec<_>>()[..] else { panic!("one PC-sample track: {tracks:?}") };
    assert!(name.starts_with("PC samples (stochastic) gfx942"), "{name}");
    let peak: i64 = points.iter().map(|p| p.1).max().unwrap();
    let most = kernels.keys().map(|d| samples.rows.iter().filter(|s| &s["Dispatch_Id"] == d).count()).max().unwrap();
    assert_eq!(peak as usize, most, "{points:?}");
    assert_eq!(points.last().unwrap().1, 0, "back to 0 after the last dispatch");

    // --stats: samples per kernel.
    let stats = read_csv(&find_one(&out, "pc_sampling_stochastic_stats.csv"));
    let spin = stats.rows.iter().find(|r| r["Name"].starts_with("spin_long")).expect("spin_long's row");
    assert_eq!(spin["Samples"].parse::<u64>().unwrap(), per_kernel["spin_long"]);
    let loads = stats.rows.iter().find(|r| r["Name"].starts_with("loads")).expect("loads' row");
    assert_eq!(loads["Top_Stall_Reason"], format!("{REASON}WAITCNT"));
}

/// `--simulate gfx942,gfx90a` with stochastic sampling, which only gfx942 lists: rocprofv3's tool
/// (`configure_pc_sampling_on_all_agents`) configures the service on each agent whose
/// configurations match and fails only when none does. The run goes on, says that gfx90a is left
/// out, and samples the program's dispatches on gfx942 (one PC-sample track, gfx942's).
#[test]
fn stochastic_sampling_on_a_mixed_target_set_samples_the_able_agent_and_names_the_skipped_one() {
    let test = "stochastic_sampling_on_a_mixed_target_set_samples_the_able_agent_and_names_the_skipped_one";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_pc_sampling", test) else { return };
    let out = scratch("pc-sampling-mixed");
    let _guard = ScratchGuard(out.clone());
    let mut cmd = sid_command(&stage, &root, &stage.cli());
    cmd.args(["--simulate", "gfx942,gfx90a", "--kernel-trace", "--pc-sampling-beta-enabled"])
        .args(["--pc-sampling-method", "stochastic", "--pc-sampling-unit", "cycles"])
        .args(["--pc-sampling-interval", "1024", "-f", "csv", "pftrace", "-d"])
        .arg(&out)
        .arg("--")
        .arg(&app)
        .args(["1", "200"]);
    let run = run_command(cmd);
    assert!(run.status.success(), "{}", run.transcript());
    assert!(run.stdout.contains("hip_pc_sampling: ok"), "{}", run.transcript());
    assert!(
        run.stderr.contains("PC sampling skips a simulated target: gfx90a does not support method stochastic"),
        "{}",
        run.transcript()
    );
    // The CLI's line is the only word on the skipped target: the library asks the agent's
    // configurations before creating a session and reports nothing wrong.
    assert!(!run.stderr.contains("hsa_ven_amd_pcs_create"), "{}", run.transcript());
    assert!(!run.stderr.contains("not sampled"), "{}", run.transcript());
    let trace = read_csv(&find_one(&out, "kernel_trace.csv"));
    let samples = read_csv(&find_one(&out, "pc_sampling_stochastic.csv"));
    assert!(!samples.rows.is_empty(), "{}", run.transcript());
    let dispatches: std::collections::HashSet<&str> = trace.rows.iter().map(|r| r["Dispatch_Id"].as_str()).collect();
    assert!(samples.rows.iter().all(|s| dispatches.contains(s["Dispatch_Id"].as_str())));
    let tracks = pc_sample_tracks(&find_one(&out, ".pftrace"));
    let names: Vec<&String> = tracks.keys().collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].starts_with("PC samples (stochastic) gfx942"), "{names:?}");
}
