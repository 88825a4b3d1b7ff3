//! Counter collection end to end on hsa-sim: `--pmc` values against the dispatches the application
//! made, automatic replay, `pmc_groups`, input files, kernel selection, errors before launch (proved
//! by an application that would leave a marker file), and the PM4 the simulator executed against what
//! `rocprof-packets` builds for the same request.

use rocprof_launch::names as launch;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rocprof_e2e::{find_files, find_one, profile, read_csv, run, scratch, stage, Csv, ScratchGuard, Stage};

use crate::common::vector_add_sizes;

fn inputs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/inputs").join(name)
}

/// Waves of one vector_add dispatch: workgroups x waves per workgroup (wave32 on gfx10+).
fn waves(target: &str, work_items: u64, wg: u64) -> u64 {
    let wave = if target.starts_with("gfx9") { 64 } else { 32 };
    work_items.div_ceil(wg) * wg.div_ceil(wave)
}

/// Rows of a `counter_collection.csv` as dispatch id -> counter -> value.
fn counters(csv: &Csv) -> BTreeMap<u64, BTreeMap<String, f64>> {
    let mut out: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for r in &csv.rows {
        let v: f64 = r["Counter_Value"].parse().unwrap_or_else(|_| panic!("value {:?}", r["Counter_Value"]));
        out.entry(r["Dispatch_Id"].parse().unwrap()).or_default().insert(r["Counter_Name"].clone(), v);
    }
    out
}

struct Out {
    dir: PathBuf,
    _guard: ScratchGuard,
}

fn out_dir(name: &str) -> Out {
    let dir = scratch(name);
    Out { _guard: ScratchGuard(dir.clone()), dir }
}

#[test]
fn sq_waves_equal_the_waves_of_every_dispatch_on_every_target() {
    let test = "sq_waves_equal_the_waves_of_every_dispatch_on_every_target";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    // Every target hsa-sim simulates (the device model's table, so a new target is covered too).
    for target in rocprof_device::targets::names() {
        let out = out_dir("pmc");
        let d = out.dir.display().to_string();
        let r = profile(
            &stage,
            &["--simulate", target, "--pmc", "SQ_WAVES", "GRBM_COUNT", "-f", "csv", "rocpd", "-d", &d],
            &app,
            &["5"],
            &[],
        );
        assert!(r.status.success(), "{target}:\n{}", r.transcript());
        let (work_items, wg) = vector_add_sizes(&r.stdout);
        let csv = read_csv(&find_one(&out.dir, "counter_collection.csv"));
        assert_eq!(
            csv.header.join(","),
            "Correlation_Id,Dispatch_Id,Agent_Id,Queue_Id,Process_Id,Thread_Id,Grid_Size,Kernel_Id,Kernel_Name,Workgroup_Size,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,Counter_Name,Counter_Value,Start_Timestamp,End_Timestamp"
        );
        assert_eq!(csv.rows.len(), 10, "{target}: 5 dispatches x 2 counters");
        let by_dispatch = counters(&csv);
        assert_eq!(by_dispatch.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5], "{target}");
        for (id, c) in &by_dispatch {
            assert_eq!(c["SQ_WAVES"], waves(target, work_items, wg) as f64, "{target} dispatch {id}");
            assert!(c["GRBM_COUNT"] > 0.0, "{target} dispatch {id}");
        }
        for row in &csv.rows {
            assert_eq!(row["Kernel_Name"], "vector_add");
            assert_eq!(row["Grid_Size"], work_items.to_string());
            assert_eq!(row["Workgroup_Size"], wg.to_string());
            assert!(row["End_Timestamp"].parse::<u64>().unwrap() > row["Start_Timestamp"].parse::<u64>().unwrap());
        }
        assert!(
            find_files(&out.dir, "kernel_trace.csv").is_empty(),
            "{target}: no kernel trace without --kernel-trace"
        );
        // The same values in the rocpd database.
        let db = rusqlite::Connection::open(find_one(&out.dir, ".db")).unwrap();
        let mut q = db
            .prepare("SELECT counter_name, value FROM counters_collection ORDER BY dispatch_id, counter_name")
            .unwrap_or_else(|e| panic!("{target}: counters_collection view: {e}"));
        let rows: Vec<(String, f64)> =
            q.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 10, "{target}");
        assert!(rows.iter().filter(|(n, _)| n == "SQ_WAVES").all(|(_, v)| *v == waves(target, work_items, wg) as f64));
    }
}

#[test]
fn a_three_pass_request_replays_the_application_and_every_dispatch_has_every_counter() {
    let test = "a_three_pass_request_replays_the_application_and_every_dispatch_has_every_counter";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let names = [
        "SQ_WAVES",
        "SQ_INSTS_VALU",
        "SQ_INSTS_SALU",
        "SQ_INSTS_SMEM",
        "SQ_INSTS_LDS",
        "SQ_INSTS_FLAT",
        "SQ_INSTS_VMEM_RD",
        "SQ_INSTS_VMEM_WR",
        "SQ_INSTS_BRANCH",
        "SQ_WAVE_CYCLES",
        "SQ_BUSY_CYCLES",
        "SQ_WAIT_ANY",
        "SQ_ACTIVE_INST_ANY",
        "SQ_INSTS_SENDMSG",
        "SQ_IFETCH",
        "SQ_INSTS_MFMA",
        "SQ_LEVEL_WAVES",
        "GRBM_COUNT",
    ];
    let out = out_dir("replay");
    let d = out.dir.display().to_string();
    let mut args = vec!["--simulate", "gfx942", "--kernel-trace", "-f", "csv", "-d", &d, "--pmc"];
    args.extend(names);
    let r = profile(&stage, &args, &app, &["4"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    assert_eq!(r.stdout.matches("vector_add: ok").count(), 3, "the application ran once per pass:\n{}", r.transcript());
    assert!(r.stderr.contains("the application runs 3 times"), "{}", r.stderr);
    assert!(r.stderr.contains("pass 3:"), "the plan is printed:\n{}", r.stderr);
    let (work_items, wg) = vector_add_sizes(&r.stdout);
    let csv = read_csv(&find_one(&out.dir, "counter_collection.csv"));
    let by_dispatch = counters(&csv);
    assert_eq!(by_dispatch.len(), 4);
    for (id, c) in &by_dispatch {
        let got: Vec<&str> = c.keys().map(String::as_str).collect();
        let mut want = names.to_vec();
        want.sort_unstable();
        assert_eq!(got, want, "dispatch {id} carries every counter");
        let w = waves("gfx942", work_items, wg) as f64;
        assert_eq!(c["SQ_WAVES"], w);
        // vector_add has 8 VALU instructions per wave and no LDS.
        assert_eq!(c["SQ_INSTS_VALU"], 8.0 * w, "dispatch {id}");
        assert_eq!(c["SQ_INSTS_LDS"], 0.0);
        assert!(c["SQ_BUSY_CYCLES"] > 0.0 && c["SQ_WAVE_CYCLES"] >= c["SQ_BUSY_CYCLES"]);
    }
    // Outputs of one run only: the kernel trace has the 4 dispatches once.
    assert_eq!(read_csv(&find_one(&out.dir, "kernel_trace.csv")).rows.len(), 4);
    // --no-replay turns the same request into an error that shows the plan.
    let mut args = vec!["--simulate", "gfx942", "--no-replay", "-d", &d, "--pmc"];
    args.extend(names);
    let r = profile(&stage, &args, &app, &["4"], &[]);
    assert_eq!(r.status.code(), Some(2), "{}", r.transcript());
    assert!(r.stderr.contains("--no-replay") && r.stderr.contains("pass 2:"), "{}", r.stderr);
    assert!(!r.stdout.contains("vector_add"), "the application must not start:\n{}", r.transcript());
}

#[test]
fn pmc_groups_multiplex_in_one_run() {
    let test = "pmc_groups_multiplex_in_one_run";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("multiplex");
    let d = out.dir.display().to_string();
    let input = inputs("multiplex.yml").display().to_string();
    let r = profile(&stage, &["--simulate", "gfx942", "-i", &input, "-f", "csv", "-d", &d], &app, &["6"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    assert_eq!(r.stdout.matches("vector_add: ok").count(), 1, "one run");
    // One job with `pmc_groups` and no `pmc`: rocprofv3 gives it no `pass_1/` (its main() numbers the
    // pass only when `pmc` is set), so the files are directly under -d.
    let csv = read_csv(&find_one(&out.dir, "counter_collection.csv"));
    let by_dispatch = counters(&csv);
    assert_eq!(by_dispatch.len(), 6);
    for (id, c) in &by_dispatch {
        let got: Vec<&str> = c.keys().map(String::as_str).collect();
        let want: &[&str] = if id % 2 == 1 { &["GRBM_COUNT", "SQ_WAVES"] } else { &["GRBM_GUI_ACTIVE"] };
        assert_eq!(got, want, "dispatch {id}");
    }
}

#[test]
fn input_files_run_one_pass_per_line_or_job() {
    let test = "input_files_run_one_pass_per_line_or_job";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    for (file, prefix) in [("two_passes.txt", "pmc_"), ("two_jobs.yml", "pass_"), ("two_jobs.json", "pass_")] {
        let out = out_dir("input");
        let d = out.dir.display().to_string();
        let input = inputs(file).display().to_string();
        let r = profile(&stage, &["-i", &input, "--simulate", "gfx942", "-d", &d, "-f", "csv"], &app, &["3"], &[]);
        assert!(r.status.success(), "{file}:\n{}", r.transcript());
        assert_eq!(r.stdout.matches("vector_add: ok").count(), 2, "{file}: two runs");
        let first = counters(&read_csv(&find_one(&out.dir.join(format!("{prefix}1")), "counter_collection.csv")));
        let second = counters(&read_csv(&find_one(&out.dir.join(format!("{prefix}2")), "counter_collection.csv")));
        assert_eq!(first.len(), 3);
        assert!(first.values().all(|c| c.contains_key("SQ_WAVES")), "{file}");
        assert!(second.values().all(|c| !c.contains_key("SQ_WAVES")), "{file}");
    }
}

#[test]
fn kernel_selection_counts_only_the_selected_iterations() {
    let test = "kernel_selection_counts_only_the_selected_iterations";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("filter");
    let d = out.dir.display().to_string();
    let input = inputs("filtering.yml").display().to_string();
    let r = profile(&stage, &["-i", &input, "--simulate", "gfx942", "-d", &d, "-f", "csv"], &app, &["5"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    let by_dispatch = counters(&read_csv(&find_one(&out.dir, "counter_collection.csv")));
    assert_eq!(by_dispatch.keys().copied().collect::<Vec<_>>(), [2, 3], "iterations 2 and 3 only");
    // The kernel trace is not filtered.
    assert_eq!(read_csv(&find_one(&out.dir, "kernel_trace.csv")).rows.len(), 5);
    let out = out_dir("filter2");
    let d = out.dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx942", "--pmc", "SQ_WAVES", "--kernel-exclude-regex", "vector", "-d", &d, "-f", "csv"],
        &app,
        &["2"],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    assert!(find_files(&out.dir, "counter_collection.csv").is_empty(), "the only kernel is excluded");
}

/// Runs `rocprof-rs ARGS -- sh -c "touch MARKER"`; returns the run and whether the marker exists.
fn never_started(stage: &Stage, args: &[&str]) -> (rocprof_e2e::Run, bool) {
    let dir = scratch("marker");
    let marker = dir.join("started");
    let script = format!("touch {}", marker.display());
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--", "/bin/sh", "-c", &script]);
    let r = run(&stage.cli(), &all, &[]);
    let started = marker.exists();
    let _ = std::fs::remove_dir_all(&dir);
    (r, started)
}

#[test]
fn bad_requests_are_one_line_errors_and_the_application_never_starts() {
    let test = "bad_requests_are_one_line_errors_and_the_application_never_starts";
    let Some(stage) = stage(test) else { return };
    // The marker is created when the application does start.
    let (ok, started) = never_started(&stage, &["--simulate", "gfx942", "--pmc", "SQ_WAVES"]);
    assert!(ok.status.success() && started, "control run:\n{}", ok.transcript());
    let malformed = inputs("malformed.json").display().to_string();
    let conflicting = scratch("conflict").join("c.json");
    std::fs::write(&conflicting, r#"{"jobs": [{"output_directory": "elsewhere", "pmc": ["SQ_WAVES"]}]}"#).unwrap();
    let conflicting = conflicting.display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--simulate", "gfx942", "--pmc", "SQ_WAVE"],
            "rocprof-rs: error: unknown counter 'SQ_WAVE' on gfx942 (did you mean SQ_WAVES?)",
        ),
        (vec!["--simulate", "gfx942", "-i", &malformed], "rocprof-rs: error: input file "),
        (
            vec!["--simulate", "gfx942", "--pmc", "SQ_WAVES", "--kernel-iteration-range", "3-1"],
            "rocprof-rs: error: --kernel-iteration-range: bad range '3-1'",
        ),
        (
            vec!["--simulate", "gfx942", "-d", "here", "-i", &conflicting],
            "rocprof-rs: error: conflicting value for output_directory : here vs elsewhere",
        ),
        (vec!["--simulate", "gfx942", "--pmc", "SQ_WAVES", "--pmc-groups", "GRBM_COUNT"], "cannot specify both --pmc"),
        // ATT's streamed counters use the SQ counters --pmc programs (rocprofv3: fatal too).
        (
            vec!["--simulate", "gfx942", "--att", "--att-activity", "1", "--pmc", "SQ_WAVES"],
            "rocprof-rs: error: --att-perfcounters, --att-perfcounter-ctrl and --att-activity cannot be combined with --pmc",
        ),
    ];
    for (args, want) in cases {
        let (r, started) = never_started(&stage, &args);
        assert_eq!(r.status.code(), Some(2), "{args:?}:\n{}", r.transcript());
        assert!(!started, "{args:?}: the application started");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line:\n{}", r.stderr);
        assert!(lines[0].starts_with(want) || lines[0].contains(want), "{args:?}: {}", lines[0]);
    }
}

/// Type-3 opcodes of the simulator's PM4 log names.
fn opcode(name: &str) -> u32 {
    match name {
        "NOP" => 0x10,
        "ATOMIC_MEM" => 0x1E,
        "PRED_EXEC" => 0x23,
        "WRITE_DATA" => 0x37,
        "WAIT_REG_MEM" => 0x3C,
        "INDIRECT_BUFFER" => 0x3F,
        "COPY_DATA" => 0x40,
        "EVENT_WRITE" => 0x46,
        "ACQUIRE_MEM" => 0x58,
        "SET_SH_REG" => 0x76,
        "SET_UCONFIG_REG" => 0x79,
        other => panic!("unexpected opcode {other}"),
    }
}

/// The IBs of `ROCPROF_RS_SIM_PM4_LOG`, as dword streams in execution order.
fn logged_ibs(log: &Path) -> Vec<Vec<u32>> {
    let text = std::fs::read_to_string(log).unwrap();
    let mut ibs: Vec<Vec<u32>> = Vec::new();
    for line in text.lines() {
        if line.contains(" PM4_IB ") {
            ibs.push(Vec::new());
        } else if let Some(rest) = line.strip_prefix("  +") {
            let mut words = rest.split_whitespace();
            let _offset = words.next();
            let op = opcode(words.next().unwrap());
            let body: Vec<u32> = words.map(|w| u32::from_str_radix(w, 16).unwrap()).collect();
            let ib = ibs.last_mut().expect("a packet line follows its IB line");
            ib.push(0xC000_0000 | ((body.len() as u32 - 1) & 0x3FFF) << 16 | op << 8);
            ib.extend(body);
        }
    }
    ibs
}

#[test]
fn the_pm4_the_simulator_executed_is_what_the_packets_crate_builds() {
    let test = "the_pm4_the_simulator_executed_is_what_the_packets_crate_builds";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    for target in ["gfx942", "gfx90a", "gfx1100", "gfx1201"] {
        let out = out_dir("pm4");
        let log = out.dir.join("pm4.log");
        let d = out.dir.display().to_string();
        let env = vec![(launch::SIM_PM4_LOG.to_string(), log.display().to_string())];
        let r =
            profile(&stage, &["--simulate", target, "--pmc", "SQ_WAVES", "GRBM_COUNT", "-d", &d], &app, &["2"], &env);
        assert!(r.status.success(), "{target}:\n{}", r.transcript());
        let ibs = logged_ibs(&log);
        assert_eq!(ibs.len(), 6, "{target}: start, stop and read per dispatch");
        let agent = rocprof_counters::Agent::reference(target).unwrap();
        // The request as the CLI reads it: rocprofv3's list rules (deduplicated, sorted).
        let names = rocprof_counters::parse_pmc_list("SQ_WAVES GRBM_COUNT");
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let plan = rocprof_counters::plan(&agent, &names).unwrap();
        let pmc = rocprof_counters::pmc_plan(&agent, &plan.passes[0].events).unwrap();
        for d in 0..2 {
            let (start, stop, read) = (&ibs[3 * d], &ibs[3 * d + 1], &ibs[3 * d + 2]);
            assert_eq!(start, &pmc.start_stream(), "{target} dispatch {d}: start stream");
            assert_eq!(stop, &pmc.stop_stream(), "{target} dispatch {d}: stop stream");
            // The read stream depends on the output buffer's address: its first COPY_DATA writes there.
            let first_copy = read.iter().position(|w| (w >> 8) & 0xFF == 0x40 && w >> 30 == 3).unwrap();
            let output = u64::from(read[first_copy + 4]) | u64::from(read[first_copy + 5]) << 32;
            assert_eq!(read, &pmc.read_stream(output).unwrap().0, "{target} dispatch {d}: read stream");
        }
        assert!(!std::fs::read_to_string(&log).unwrap().contains("VIOLATION"), "{target}: no PM4 violation");
    }
}

#[test]
fn extra_counters_are_planned_and_evaluated() {
    let test = "extra_counters_are_planned_and_evaluated";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("extra");
    let d = out.dir.display().to_string();
    let extra = inputs("extra_counters.yaml").display().to_string();
    let r = profile(
        &stage,
        &[
            "--simulate",
            "gfx942",
            "-E",
            &extra,
            "--pmc",
            "WAVES_PER_KCYCLE",
            "SQ_WAVES",
            "GRBM_COUNT",
            "-f",
            "csv",
            "-d",
            &d,
        ],
        &app,
        &["2"],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    let by_dispatch = counters(&read_csv(&find_one(&out.dir, "counter_collection.csv")));
    for (id, c) in &by_dispatch {
        // GRBM_COUNT is the same on all 8 XCCs, so its max is the sum / 8.
        let want = 1000.0 * c["SQ_WAVES"] / (c["GRBM_COUNT"] / 8.0);
        assert!(
            (c["WAVES_PER_KCYCLE"] - want).abs() < 1e-6 * want,
            "dispatch {id}: {} vs {want}",
            c["WAVES_PER_KCYCLE"]
        );
    }
}

/// `--att` with `--pmc` (rocprofv3 configures both): the traced dispatch is counted too, with the
/// same values as the untraced ones, its counters nested inside the trace (PM4 log); a replayed
/// request thread-traces pass 1 only.
#[test]
fn thread_trace_and_counters_together() {
    let test = "thread_trace_and_counters_together";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("att-pmc");
    let d = out.dir.display().to_string();
    let log = out.dir.join("pm4.log");
    let env = vec![(launch::SIM_PM4_LOG.to_string(), log.display().to_string())];
    let common = ["--simulate", "gfx942", "--att", "--att-decoder", "native", "-f", "csv", "-d", &d];
    let mut args = common.to_vec();
    args.extend(["--kernel-trace", "--pmc", "SQ_WAVES", "GRBM_COUNT"]);
    let r = profile(&stage, &args, &app, &["3"], &env);
    assert!(r.status.success(), "{}", r.transcript());
    let (work_items, wg) = vector_add_sizes(&r.stdout);
    let by_dispatch = counters(&read_csv(&find_one(&out.dir, "counter_collection.csv")));
    assert_eq!(by_dispatch.keys().copied().collect::<Vec<_>>(), [1, 2, 3], "every dispatch is counted");
    for (id, c) in &by_dispatch {
        assert_eq!(c["SQ_WAVES"], waves("gfx942", work_items, wg) as f64, "dispatch {id}");
        assert_eq!(c["GRBM_COUNT"], by_dispatch[&2]["GRBM_COUNT"], "dispatch {id}: tracing changes no count");
    }
    // The first dispatch (rocprofv3's default iteration) is thread-traced, with its waves decoded.
    let att = find_files(&out.dir, ".att");
    assert_eq!(att.len(), 1, "{att:?}\n{}", r.transcript());
    let ui = find_files(&out.dir, "filenames.json");
    assert_eq!(ui.len(), 1, "{ui:?}");
    assert!(ui[0].parent().unwrap().display().to_string().ends_with("_dispatch_1"), "{ui:?}");
    let waves_traced = std::fs::read_dir(ui[0].parent().unwrap())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("se0_sm"))
        .count();
    assert!(waves_traced >= 2, "waves traced: {waves_traced}");
    assert_eq!(read_csv(&find_one(&out.dir, "kernel_trace.csv")).rows.len(), 3);
    // PM4 executed: [trace start][PMC start][PMC stop][PMC read][trace stop] for dispatch 1, then
    // start/stop/read for dispatches 2 and 3.
    let ibs = logged_ibs(&log);
    assert_eq!(ibs.len(), 5 + 3 + 3, "{} IBs", ibs.len());
    let agent = rocprof_counters::Agent::reference("gfx942").unwrap();
    let names = rocprof_counters::parse_pmc_list("SQ_WAVES GRBM_COUNT");
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let plan = rocprof_counters::plan(&agent, &names).unwrap();
    let pmc = rocprof_counters::pmc_plan(&agent, &plan.passes[0].events).unwrap();
    for (i, want) in [(1, "start"), (2, "stop"), (5, "start"), (6, "stop"), (8, "start"), (9, "stop")] {
        let stream = if want == "start" { pmc.start_stream() } else { pmc.stop_stream() };
        assert_eq!(ibs[i], stream, "IB {i}: PMC {want}");
    }
    assert!(ibs[0] != pmc.start_stream() && ibs[4] != pmc.stop_stream(), "the trace's own IBs wrap the counters");

    // Two passes (9 SQ counters, 8 SQ slots on gfx942): counted in both runs, traced in the first only.
    let out = out_dir("att-pmc-replay");
    let d = out.dir.display().to_string();
    let log = out.dir.join("pm4.log");
    let env = vec![(launch::SIM_PM4_LOG.to_string(), log.display().to_string())];
    let names = [
        "SQ_WAVES",
        "SQ_INSTS_VALU",
        "SQ_INSTS_SALU",
        "SQ_INSTS_SMEM",
        "SQ_INSTS_LDS",
        "SQ_INSTS_FLAT",
        "SQ_INSTS_VMEM_RD",
        "SQ_INSTS_VMEM_WR",
        "SQ_INSTS_BRANCH",
    ];
    let mut args = vec!["--simulate", "gfx942", "--att", "--att-decoder", "native", "-f", "csv", "-d", &d, "--pmc"];
    args.extend(names);
    let r = profile(&stage, &args, &app, &["2"], &env);
    assert!(r.status.success(), "{}", r.transcript());
    assert_eq!(r.stdout.matches("vector_add: ok").count(), 2, "two passes:\n{}", r.transcript());
    let by_dispatch = counters(&read_csv(&find_one(&out.dir, "counter_collection.csv")));
    assert_eq!(by_dispatch.len(), 2);
    assert!(by_dispatch.values().all(|c| c.len() == names.len()), "{by_dispatch:?}");
    assert_eq!(find_files(&out.dir, ".att").len(), 1, "one trace, from pass 1");
    // Pass 1: trace start/stop + 2 x 3 counter IBs; pass 2: 2 x 3 counter IBs only.
    assert_eq!(logged_ibs(&log).len(), 2 + 6 + 6, "the replayed pass is not thread-traced");
}

/// Counted dispatches from six queues on two GPUs (one thread per queue, submitting concurrently):
/// every dispatch carries its own values, and the counted kernels of one agent never overlap in
/// time (counters are per device, so rocprofv3 serialises counted dispatches across queues).
#[test]
fn counted_dispatches_from_several_queues_are_serialised() {
    let test = "counted_dispatches_from_several_queues_are_serialised";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("multi_queue", test) else { return };
    let (threads, per_thread) = (6u64, 20u64);
    let out = out_dir("pmc-queues");
    let d = out.dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx942,gfx90a", "--pmc", "SQ_WAVES", "GRBM_COUNT", "-f", "csv", "-d", &d],
        &app,
        &[&threads.to_string(), &per_thread.to_string()],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
    let csv = read_csv(&find_one(&out.dir, "counter_collection.csv"));
    let by_dispatch = counters(&csv);
    assert_eq!(by_dispatch.len() as u64, threads * per_thread, "every dispatch is counted");
    // multi_queue: 4096 work-items in workgroups of 64, wave64 on both targets.
    for (id, c) in &by_dispatch {
        assert_eq!(c["SQ_WAVES"], 64.0, "dispatch {id}: its own waves only");
        assert!(c["GRBM_COUNT"] > 0.0, "dispatch {id}");
    }
    let queues: std::collections::HashSet<&String> = csv.rows.iter().map(|r| &r["Queue_Id"]).collect();
    assert_eq!(queues.len() as u64, threads, "{queues:?}");
    let mut per_agent: BTreeMap<String, BTreeMap<u64, (u64, u64, String)>> = BTreeMap::new();
    for row in &csv.rows {
        let (start, end) = (row["Start_Timestamp"].parse().unwrap(), row["End_Timestamp"].parse().unwrap());
        per_agent
            .entry(row["Agent_Id"].clone())
            .or_default()
            .insert(row["Dispatch_Id"].parse().unwrap(), (start, end, row["Queue_Id"].clone()));
    }
    assert_eq!(per_agent.len(), 2);
    for (agent, dispatches) in &per_agent {
        let mut spans: Vec<&(u64, u64, String)> = dispatches.values().collect();
        spans.sort();
        let from: std::collections::HashSet<&String> = spans.iter().map(|s| &s.2).collect();
        assert_eq!(from.len() as u64, threads / 2, "agent {agent}: three queues each");
        for w in spans.windows(2) {
            assert!(
                w[1].0 >= w[0].1,
                "agent {agent}: counted kernels overlap: queue {} [{}, {}] and queue {} [{}, {}]",
                w[0].2,
                w[0].0,
                w[0].1,
                w[1].2,
                w[1].0,
                w[1].1
            );
        }
    }
}

/// AMD's rocpd reader (`../shared/tools/rocpd-check`, AMD's `rocpd` Python package) on a counter
/// database: its `counters_collection` query shows every dispatch's counters with our values, and its
/// summary reads the database. Needs `ROCPD_MIRROR` (a git dir of ROCm/rocm-systems, which CI does
/// not have); without it only our own reading of the view runs.
#[test]
fn amds_rocpd_reader_shows_the_counters() {
    let test = "amds_rocpd_reader_shows_the_counters";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("rocpd-check");
    let d = out.dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx942", "--kernel-trace", "--pmc", "SQ_WAVES", "GRBM_COUNT", "-d", &d],
        &app,
        &["3"],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    let (work_items, wg) = vector_add_sizes(&r.stdout);
    let want_waves = waves("gfx942", work_items, wg) as f64;
    let db_path = find_one(&out.dir, ".db");
    // The query AMD's check runs, through SQLite.
    let db = rusqlite::Connection::open(&db_path).unwrap();
    let mut q = db.prepare("SELECT dispatch_id, counter_name, value FROM counters_collection").unwrap();
    let ours: Vec<(u64, String, f64)> =
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(ours.len(), 6, "{ours:?}");
    let Some(mirror) = std::env::var_os("ROCPD_MIRROR") else {
        eprintln!("{test}: AMD's rocpd reader not run: set ROCPD_MIRROR to a git dir of ROCm/rocm-systems");
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/rocpd-check/run.sh");
    let o = std::process::Command::new("bash")
        .arg(&script)
        .arg(&db_path)
        .env("ROCPD_MIRROR", mirror)
        .env("KEEP", "1")
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let work = text.lines().find_map(|l| l.strip_prefix("work dir kept: ")).map(PathBuf::from);
    let _work_guard = work.clone().map(ScratchGuard);
    assert!(o.status.success(), "AMD's rocpd reader:\n{text}");
    for check in ["query counters_collection", "query kernels view", "summary (console)"] {
        let line =
            text.lines().find(|l| l.starts_with(check) && l.contains(" shim ")).unwrap_or_else(|| panic!("{text}"));
        assert!(line.split_whitespace().any(|w| w == "ok"), "{line}\n{text}");
    }
    // What AMD's query printed (pandas' table): every dispatch, both counters, our values.
    let logs = find_files(&work.expect("KEEP=1 prints the work dir").join("logs"), ".log");
    let table = logs
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap())
        .find(|t| t.trim_start().starts_with("dispatch_id") && t.contains("counter_name"))
        .unwrap_or_else(|| panic!("no counters_collection output in {logs:?}"));
    let rows: Vec<Vec<&str>> =
        table.lines().skip(1).map(|l| l.split_whitespace().collect::<Vec<_>>()).filter(|w| w.len() == 3).collect();
    assert_eq!(rows.len(), 6, "{table}");
    for w in rows {
        let value: f64 = w[2].parse().unwrap();
        if w[1] == "SQ_WAVES" {
            assert_eq!(value, want_waves, "{table}");
        }
        assert!(ours.iter().any(|(id, n, v)| id.to_string() == w[0] && n == w[1] && *v == value), "{table}");
    }
}

/// `--stats` writes `counter_collection_stats.csv` (per kernel and counter: dispatches, sum, mean,
/// min, max, stddev of `counter_collection.csv`'s values) and `-S` prints a counter table.
#[test]
fn counter_stats_and_summary_aggregate_the_counter_rows() {
    let test = "counter_stats_and_summary_aggregate_the_counter_rows";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let out = out_dir("pmc-stats");
    let d = out.dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx90a", "--pmc", "SQ_WAVES", "GRBM_COUNT", "--stats", "-S", "-f", "csv", "-d", &d],
        &app,
        &["4"],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    let (work_items, wg) = vector_add_sizes(&r.stdout);
    let rows = counters(&read_csv(&find_one(&out.dir, "_counter_collection.csv")));
    let stats = read_csv(&find_one(&out.dir, "counter_collection_stats.csv"));
    assert_eq!(stats.header.join(","), "Kernel_Name,Counter_Name,Dispatches,Sum,Average,Min,Max,StdDev");
    assert_eq!(stats.rows.len(), 2, "one row per kernel and counter");
    for s in &stats.rows {
        assert_eq!(s["Kernel_Name"], "vector_add");
        let name = &s["Counter_Name"];
        let values: Vec<f64> = rows.values().map(|c| c[name.as_str()]).collect();
        let num = |k: &str| s[k].parse::<f64>().unwrap();
        assert_eq!(num("Dispatches"), 4.0, "{name}");
        assert_eq!(num("Sum"), values.iter().sum::<f64>(), "{name}");
        assert_eq!(num("Min"), values.iter().copied().fold(f64::INFINITY, f64::min), "{name}");
        assert_eq!(num("Max"), values.iter().copied().fold(0.0, f64::max), "{name}");
        assert_eq!(num("Average"), num("Sum") / 4.0, "{name}");
        if name == "SQ_WAVES" {
            assert_eq!(num("Sum"), 4.0 * waves("gfx90a", work_items, wg) as f64);
        }
    }
    assert!(r.stdout.contains("ROCPROFV3 COUNTER_COLLECTION SUMMARY:"), "{}", r.stdout);
    let line = r.stdout.lines().find(|l| l.contains("| vector_add") && l.contains("SQ_WAVES")).unwrap();
    // The table's numbers are scientific with 6 digits and a signed two-digit exponent (1.024000e+03).
    let sum = format!("{:.6e}", 4.0 * waves("gfx90a", work_items, wg) as f64);
    let (mantissa, exp) = sum.split_once('e').unwrap();
    let sum = format!("{mantissa}e+{:02}", exp.parse::<u32>().unwrap());
    assert!(line.contains(&format!(" {sum} ")), "{sum}: {line}");
    // No counters, no counter stats file.
    let out = out_dir("pmc-stats-none");
    let d = out.dir.display().to_string();
    let r = profile(
        &stage,
        &["--simulate", "gfx90a", "--kernel-trace", "--stats", "-f", "csv", "-d", &d],
        &app,
        &["1"],
        &[],
    );
    assert!(r.status.success(), "{}", r.transcript());
    assert!(find_files(&out.dir, "counter_collection_stats.csv").is_empty());
    assert!(!find_files(&out.dir, "kernel_stats.csv").is_empty());
}
