//! Runs on hsa-sim with the staged artifacts of `cargo xtask build` (`ROCPROF_RS_STAGE`).

use rocprof_launch::names as launch;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{scratch, stderr, stdout};

/// The stage, or `None` after printing why the test skips (a failure under `CI=true`).
#[track_caller]
fn stage() -> Option<PathBuf> {
    rocprof_test_inputs::stage("staged CLI test")
}

fn staged_bin(stage: &Path) -> Command {
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [launch::INTERCEPT_LIB, launch::SIM_LIB, launch::PROBE, launch::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    c
}

/// All files under `dir` whose name ends with `suffix`.
fn find(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(find(&p, suffix));
            } else if p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(suffix)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn vector_add_writes_rocpd_csv_stats_and_summary() {
    let Some(stage) = stage() else { return };
    let out = scratch("staged-vector-add");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--kernel-trace", "--stats", "-S", "-f", "rocpd", "csv", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("12")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let traces = find(&out, "_kernel_trace.csv");
    assert_eq!(traces.len(), 1, "{traces:?}");
    let text = std::fs::read_to_string(&traces[0]).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 12, "{text}");
    assert!(rows.iter().all(|r| r.contains(",\"vector_add\",")), "{text}");
    assert_eq!(find(&out, "_kernel_stats.csv").len(), 1);
    assert_eq!(find(&out, "_agent_info.csv").len(), 1);
    let dbs = find(&out, "_results.db");
    assert_eq!(dbs.len(), 1);
    let conn = rusqlite::Connection::open(&dbs[0]).unwrap();
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM kernels WHERE name = 'vector_add'", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 12);
    let summary = stdout(&o);
    assert!(summary.contains("ROCPROFV3 SUMMARY:"), "{summary}");
    assert!(summary.contains("| vector_add "), "{summary}");
    assert!(stderr(&o).contains("rocprof-rs: wrote "), "{}", stderr(&o));
    // The private capture directory is gone.
    assert!(find(&out, ".rpcap").is_empty());
}

#[test]
fn crash_exit_status_is_propagated_and_captured_dispatches_are_written() {
    let Some(stage) = stage() else { return };
    let out = scratch("staged-crash");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--kernel-trace", "-f", "csv", "-d"])
        .arg(&out)
        .args(["-o", "run"])
        .arg("--")
        .arg(stage.join("fixtures/crash_after"))
        .arg("5")
        .output()
        .unwrap();
    // crash_after dies from SIGSEGV; rocprof-rs reports that as 128 + 11, after writing outputs.
    assert_eq!(o.status.code(), Some(128 + 11), "stderr: {}", stderr(&o));
    let text = std::fs::read_to_string(out.join("run_kernel_trace.csv")).unwrap();
    assert_eq!(text.lines().count(), 1 + 5, "{text}");
}

#[test]
fn list_avail_with_an_application_prints_the_simulated_agents() {
    let Some(stage) = stage() else { return };
    let out = scratch("staged-list");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942,gfx1100", "-L", "--kernel-trace", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Agents:"), "{text}");
    assert!(text.contains("CPU"), "{text}");
    assert!(text.contains("gfx942") && text.contains("gfx1100"), "{text}");
}

#[test]
fn list_avail_alone_probes_the_runtime_with_rocminfo() {
    let Some(stage) = stage() else { return };
    if rocprof_test_inputs::program(
        "list_avail_alone_probes_the_runtime_with_rocminfo",
        "/usr/bin/rocminfo",
        "rocminfo",
    )
    .is_none()
    {
        return;
    }
    let out = scratch("staged-list-alone");
    let o = staged_bin(&stage).args(["--simulate", "gfx90a", "-L", "-d"]).arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Agents:") && text.contains("gfx90a"), "{text}");
    // rocprofv3-avail `info --pmc` (what rocprofv3 -L runs): "GPU:<n>" and "Name:<gfx>" head
    // each GPU's counters, each counter as "Counter_Name" padded to 20, ":\t", the name.
    let lines: Vec<&str> = text.lines().collect();
    let gpu = lines.iter().position(|l| *l == "GPU:0").expect(&text);
    assert_eq!(lines[gpu + 1], "Name:gfx90a", "{text}");
    assert!(lines[gpu..].iter().any(|l| *l == format!("{:20}:\tSQ_WAVES", "Counter_Name")), "{text}");
}

#[test]
fn output_file_placeholders_name_the_files() {
    let Some(stage) = stage() else { return };
    let out = scratch("staged-placeholders");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--kernel-trace", "-f", "csv", "-d"])
        .arg(&out)
        .args(["-o", "%tag%/run_%arg1%_%pid%"])
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg("3")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let files = find(&out.join("vector_add"), "_kernel_trace.csv");
    assert_eq!(files.len(), 1, "{:?}", find(&out, ".csv"));
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("run_3_") && name.ends_with("_kernel_trace.csv"), "{name}");
    let pid = name.trim_start_matches("run_3_").trim_end_matches("_kernel_trace.csv");
    assert!(pid.parse::<u32>().is_ok(), "{name}");
}

#[test]
fn interrupt_mid_run_still_writes_what_was_captured() {
    use std::os::unix::process::CommandExt;
    let Some(stage) = stage() else { return };
    let out = scratch("staged-interrupt");
    // hsa-sim logs every packet it receives (one flushed line each): the test waits for
    // dispatches instead of guessing how long start-up takes on a loaded machine.
    let log = out.join("dispatch.log");
    let child = staged_bin(&stage)
        .env(launch::SIM_DISPATCH_LOG, &log)
        .args(["--simulate", "gfx942", "--kernel-trace", "-f", "csv", "-d"])
        .arg(&out)
        .args(["-o", "int", "--"])
        .arg(stage.join("fixtures/vector_add"))
        .arg("10000000")
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Once the application has dispatched a few hundred kernels, press "Ctrl-C" on the whole
    // process group.
    const LOGGED_BYTES: u64 = 300 * 128;
    let t0 = std::time::Instant::now();
    while std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0) < LOGGED_BYTES {
        assert!(t0.elapsed().as_secs() < 60, "the application dispatched nothing within 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let ok = Command::new("kill").args(["-s", "INT", "--", &format!("-{pid}")]).status().unwrap();
    assert!(ok.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(128 + 2), "stderr: {}", stderr(&o));
    let text = std::fs::read_to_string(out.join("int_kernel_trace.csv")).unwrap_or_default();
    let rows = text.lines().count().saturating_sub(1);
    assert!(rows > 0, "no dispatches written after the interrupt; stderr: {}", stderr(&o));
    assert!(rows < 10_000_000);
}

#[test]
fn summary_to_a_closed_pipe_keeps_the_exit_status() {
    // Regression: `rocprof-rs -S ... | head` panicked in `print!` once the reader was gone
    // (exit 101 instead of the application's status). Runs the binary of this build with the
    // staged libraries.
    let Some(stage) = stage() else { return };
    let out = scratch("staged-closed-stdout");
    let mut child = crate::bin()
        .env(launch::INTERCEPT_LIB, stage.join("librocprof_intercept.so"))
        .env(launch::SIM_LIB, stage.join("libhsa-runtime64.so.1"))
        .args(["--simulate", "gfx942", "--kernel-trace", "-S", "-f", "csv", "-d"])
        .arg(&out)
        .args(["-o", "run", "--", "/bin/sh", "-c"])
        .arg(format!("{} 2 >/dev/null", stage.join("fixtures/vector_add").display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(out.join("run_kernel_trace.csv").is_file());
}

#[test]
fn kept_captures_convert_to_the_same_outputs() {
    // After a failed write rocprof-rs keeps the captures and points at --from-capture; the
    // conversion must give what the run itself would have written. Runs the binary of this
    // build with the staged libraries.
    let Some(stage) = stage() else { return };
    let out = scratch("staged-from-capture");
    let run = |c: &mut Command| c.output().unwrap();
    let o = run(crate::bin()
        .env(launch::INTERCEPT_LIB, stage.join("librocprof_intercept.so"))
        .env(launch::SIM_LIB, stage.join("libhsa-runtime64.so.1"))
        .env(launch::KEEP_CAPTURE, "1")
        .args(["--simulate", "gfx942", "--kernel-trace", "-f", "csv", "-d"])
        .arg(out.join("run"))
        .args(["-o", "k", "--"])
        .arg(stage.join("fixtures/vector_add"))
        .arg("7"));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let kept = std::fs::read_dir(out.join("run"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(".rocprof-rs-capture-")))
        .unwrap_or_else(|| panic!("{}=1 keeps the capture directory", launch::KEEP_CAPTURE));
    let o = run(crate::bin()
        .args(["-f", "csv", "-d"])
        .arg(out.join("again"))
        .args(["-o", "k", "--from-capture"])
        .arg(&kept));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let first = std::fs::read_to_string(out.join("run/k_kernel_trace.csv")).unwrap();
    assert_eq!(first.lines().count(), 1 + 7);
    assert_eq!(std::fs::read_to_string(out.join("again/k_kernel_trace.csv")).unwrap(), first);
    // The kept capture is tens of megabytes: remove it once the test passed (a failure keeps it).
    let _ = std::fs::remove_dir_all(&out);
}

/// Rows of the summary table titled `title` in `text` (rocprofv3's `ROCPROFV3 <title>:` layout).
fn table_rows(text: &str, title: &str) -> Vec<String> {
    let head = format!("ROCPROFV3 {title}:");
    let Some(start) = text.find(&head) else { return Vec::new() };
    text[start + head.len()..]
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn summary_groups_and_output_config_on_a_run() {
    let Some(stage) = stage() else { return };
    let out = scratch("staged-summary-groups");
    let app = stage.join("fixtures/async_copy");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx942", "--hsa-core-trace", "--memory-copy-trace", "-D", "--output-config"])
        .args(["--summary-groups", "HSA_.*|MEMORY_COPY", "--disable-signal-handlers", "-f", "json", "-o", "run", "-d"])
        .arg(&out)
        .arg("--")
        .arg(&app)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let text = stdout(&o);
    let kernels = table_rows(&text, "HSA_API SUMMARY");
    let copies = table_rows(&text, "MEMORY_COPY SUMMARY");
    let group = table_rows(&text, "HSA_API + MEMORY_COPY SUMMARY");
    assert!(!kernels.is_empty() && !copies.is_empty(), "{text}");
    // The group's table holds the operations of both domains (percentages differ: one total).
    let names = |rows: &[String]| {
        let mut v: Vec<String> = rows.iter().map(|r| r.split('|').nth(1).unwrap_or("").trim().to_string()).collect();
        v.sort();
        v
    };
    let mut both = names(&kernels);
    both.extend(names(&copies));
    both.sort();
    assert_eq!(names(&group), both, "{text}");
    // --output-config: rocprofv3's <prefix>_config.json with the command that ran.
    let cfg = find(&out, "run_config.json");
    assert_eq!(cfg.len(), 1, "{:?}", find(&out, ""));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cfg[0]).unwrap()).unwrap();
    let meta = &v["rocprofiler-sdk-tool"][0]["metadata"];
    assert_eq!(meta["command"], serde_json::json!([app.display().to_string()]), "{meta}");
    assert_eq!(meta["config"]["memory_copy_trace"], true, "{meta}");
    assert_eq!(meta["config"]["summary_groups"], serde_json::json!(["HSA_.*|MEMORY_COPY"]), "{meta}");
    // --disable-signal-handlers: rocprofv3.py sets ROCPROF_SIGNAL_HANDLERS to its negation, which
    // the tool's config serializes as `enable_signal_handlers` (config.hpp).
    assert_eq!(meta["config"]["enable_signal_handlers"], false, "{meta}");
    // The JSON output's metadata.config is rocprofv3's output_config part.
    let results = find(&out, "run_results.json");
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&results[0]).unwrap()).unwrap();
    assert_eq!(r["rocprofiler-sdk-tool"][0]["metadata"]["config"]["summary_per_domain"], true);
}

/// The records the library wrote to the capture, from rocprof-rs's per-process line
/// ("process N: X records written, ...").
fn records_written(stderr: &str) -> u64 {
    let line = stderr.lines().find(|l| l.contains(" records written")).unwrap_or_else(|| panic!("{stderr}"));
    let before = line.split(" records written").next().unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("{line}"))
}

/// Kernel dispatch rows of the run's kernel_trace.csv (0 when none was written).
fn kernel_rows(out: &Path) -> usize {
    find(out, "_kernel_trace.csv").iter().map(|f| std::fs::read_to_string(f).unwrap().lines().count() - 1).sum()
}

#[test]
fn collection_period_pauses_recording_in_the_library_outside_its_windows() {
    let Some(stage) = stage() else { return };
    let run = |extra: &[&str], name: &str| {
        let out = scratch(name);
        let o = staged_bin(&stage)
            .args(["--simulate", "gfx90a", "--kernel-trace", "-f", "csv", "-d"])
            .arg(&out)
            .args(extra)
            .arg("--")
            .arg(stage.join("fixtures/vector_add"))
            .arg("12")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
        (out, stderr(&o))
    };
    let (all, all_err) = run(&[], "staged-period-all");
    // The only window opens an hour after the start: the application is long gone by then.
    let (late, err) =
        run(&["--collection-period", "3600:1:1", "--collection-period-unit", "sec"], "staged-period-late");
    assert_eq!((kernel_rows(&all), kernel_rows(&late)), (12, 0));
    // The library itself recorded none of the 12 dispatches (not recorded, then cut at write time).
    let (all_written, late_written) = (records_written(&all_err), records_written(&err));
    assert!(late_written + 12 <= all_written, "written: {late_written} with the window, {all_written} without");
    assert!(!err.contains("outside the --collection-period windows were left out"), "{err}");
}

/// What Kokkos does with a tool library (Kokkos Tools interface: `dlopen` each library of
/// `KOKKOS_TOOLS_LIBS`, call its `kokkosp_*` functions), done by Python's ctypes.
const KOKKOS_LIKE: &str = r#"
import ctypes, os
libs = [l for l in os.environ["KOKKOS_TOOLS_LIBS"].split(";") if l]
tool = ctypes.CDLL(libs[-1])
tool.kokkosp_init_library(0, ctypes.c_uint64(20211015), 0, None)
kid = ctypes.c_uint64(0)
tool.kokkosp_push_profile_region(b"solve")
for _ in range(3):
    tool.kokkosp_begin_parallel_for(b"axpy", 0, ctypes.byref(kid))
    tool.kokkosp_end_parallel_for(kid)
tool.kokkosp_begin_parallel_reduce(b"norm", 0, ctypes.byref(kid))
tool.kokkosp_end_parallel_reduce(kid)
tool.kokkosp_pop_profile_region()
fid = ctypes.c_uint64(0)
tool.kokkosp_begin_fence(b"Kokkos::fence", 0, ctypes.byref(fid))
tool.kokkosp_end_fence(fid)
tool.kokkosp_profile_event(b"checkpoint")
tool.kokkosp_finalize_library()
"#;

#[test]
fn kokkos_trace_records_kokkos_regions_as_marker_ranges() {
    let test = "kokkos_trace_records_kokkos_regions_as_marker_ranges";
    let Some(stage) = stage() else { return };
    let Some(python) = rocprof_test_inputs::program(test, "/usr/bin/python3", "python3") else { return };
    let out = scratch("staged-kokkos");
    let o = staged_bin(&stage)
        .args(["--simulate", "gfx90a", "--kokkos-trace", "-f", "csv", "-d"])
        .arg(&out)
        .arg("--")
        .arg(python)
        .args(["-c", KOKKOS_LIKE])
        .env_remove("KOKKOS_TOOLS_LIBS")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let files = find(&out, "_marker_api_trace.csv");
    assert_eq!(files.len(), 1, "--kokkos-trace implies --marker-trace: {:?}", find(&out, ".csv"));
    let mut r = csv::Reader::from_path(&files[0]).unwrap();
    let h = r.headers().unwrap().clone();
    let f = h.iter().position(|c| c == "Function").unwrap();
    let mut names: Vec<String> = r.records().map(|x| x.unwrap()[f].to_string()).collect();
    names.sort();
    let mut want = vec![
        "Kokkos::Finalization Complete",
        "Kokkos::Initialization Complete",
        "Kokkos::fence",
        "axpy",
        "axpy",
        "axpy",
        "checkpoint",
        "norm",
        "solve",
    ];
    want.sort();
    assert_eq!(names, want, "one row per Kokkos region (begin/end paired), fence and event");
}

/// Kernel names of the one `*_kernel_trace.csv` under `out`, in dispatch order.
fn kernel_names(out: &Path) -> Vec<String> {
    let files = find(out, "_kernel_trace.csv");
    assert_eq!(files.len(), 1, "{:?}", find(out, ".csv"));
    let mut r = csv::Reader::from_path(&files[0]).unwrap();
    let h = r.headers().unwrap().clone();
    let (name, id) =
        (h.iter().position(|c| c == "Kernel_Name").unwrap(), h.iter().position(|c| c == "Dispatch_Id").unwrap());
    let mut rows: Vec<(u64, String)> =
        r.records().map(|x| x.unwrap()).map(|x| (x[id].parse().unwrap(), x[name].to_string())).collect();
    rows.sort();
    rows.into_iter().map(|r| r.1).collect()
}

#[test]
fn kokkos_trace_implies_kernel_rename_after_the_kokkos_regions() {
    // kokkos_app: init (a mark), region "solve" { for "axpy" {k1} for "axpy" {k2} reduce "norm" {k3} },
    // k4 outside every region, finalize. rocprofv3.py: --kokkos-trace sets kernel_rename unless the
    // command line says otherwise; its rename stack (tool.cpp kernel_rename_callback) pushes each
    // range and each roctxMarkA (a mark is never popped), so k4 is named after the init mark.
    let Some(stage) = stage() else { return };
    let run = |args: &[&str]| {
        let out = scratch("staged-kokkos-rename");
        let o = staged_bin(&stage)
            .args(["--simulate", "gfx90a", "--kernel-trace", "-f", "csv", "-d"])
            .arg(&out)
            .args(args)
            .arg("--")
            .arg(stage.join("fixtures/kokkos_app"))
            .env_remove("KOKKOS_TOOLS_LIBS")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
        assert!(stdout(&o).contains("kokkos_app: tools 1 dispatches 4") || args.is_empty(), "{}", stdout(&o));
        kernel_names(&out)
    };
    let plain = run(&[]);
    assert_eq!(plain, ["vector_add"; 4], "without --kokkos-trace nothing renames");
    assert_eq!(run(&["--kokkos-trace"]), ["axpy", "axpy", "norm", "Kokkos::Initialization Complete"]);
    // The implied setting yields to an explicit one, as rocprofv3's setattrifnone.
    assert_eq!(run(&["--kokkos-trace", "--kernel-rename=false"]), plain);
}

#[test]
fn output_path_and_file_name_default_to_rocprofv3s_environment_variables() {
    // rocprofv3.py: -d defaults to $ROCPROF_OUTPUT_PATH, -o to $ROCPROF_OUTPUT_FILE_NAME
    // (placeholders allowed in both); the options win over the environment.
    let Some(stage) = stage() else { return };
    let out = scratch("staged-output-env");
    let run = |args: &[&str]| {
        let o = staged_bin(&stage)
            .env("ROCPROF_OUTPUT_PATH", out.join("env_dir_%tag%"))
            .env("ROCPROF_OUTPUT_FILE_NAME", "env_%arg1%")
            .args(["--simulate", "gfx90a", "--kernel-trace", "-f", "csv"])
            .args(args)
            .arg("--")
            .arg(stage.join("fixtures/vector_add"))
            .arg("2")
            .current_dir(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    };
    run(&[]);
    let rows = |p: PathBuf| {
        std::fs::read_to_string(&p)
            .map(|t| t.lines().count() - 1)
            .unwrap_or_else(|e| panic!("{}: {e}; written: {:?}", p.display(), find(&out, ".csv")))
    };
    assert_eq!(rows(out.join("env_dir_vector_add/env_2_kernel_trace.csv")), 2);
    run(&["-d", "cli_dir", "-o", "cli"]);
    assert_eq!(rows(out.join("cli_dir/cli_kernel_trace.csv")), 2);
    assert_eq!(find(&out, "_kernel_trace.csv").len(), 2, "{:?}", find(&out, ".csv"));
}

/// The `SigCgt` mask (signals with a handler) of a Python process after it initialised the HSA
/// runtime the library path names, printed by the process itself.
const SIGNAL_MASK_AFTER_HSA_INIT: &str = r#"
import ctypes
hsa = ctypes.CDLL("libhsa-runtime64.so.1")
assert hsa.hsa_init() == 0
print([l.split()[1] for l in open("/proc/self/status") if l.startswith("SigCgt:")][0])
assert hsa.hsa_shut_down() == 0
"#;

#[test]
fn the_profiled_application_keeps_its_own_signal_handlers_with_or_without_disable_signal_handlers() {
    // rocprofv3's tool installs crash handlers unless --disable-signal-handlers; rocprof-rs
    // installs none (its capture survives a crash without one). Oracle: the same process on the
    // same runtime without rocprof-rs.
    let test = "the_profiled_application_keeps_its_own_signal_handlers_with_or_without_disable_signal_handlers";
    let Some(stage) = stage() else { return };
    let Some(python) = rocprof_test_inputs::program(test, "/usr/bin/python3", "python3") else { return };
    // glibc keeps signals 32 and 33 (SIGCANCEL, SIGSETXID) for itself and installs their handlers
    // when threads need them (sigaction refuses them to everyone else): they are left out.
    const GLIBC_INTERNAL: u64 = 0b11 << 31;
    let last_line = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
        let hex = stdout(o).lines().last().unwrap_or_default().to_string();
        let mask = u64::from_str_radix(&hex, 16).unwrap_or_else(|e| panic!("{hex}: {e}"));
        format!("{:#018x}", mask & !GLIBC_INTERNAL)
    };
    let plain = Command::new(&python)
        .args(["-c", SIGNAL_MASK_AFTER_HSA_INIT])
        .env("LD_LIBRARY_PATH", &stage)
        .env_remove("LD_PRELOAD")
        .output()
        .unwrap();
    let want = last_line(&plain);
    for extra in [&[][..], &["--disable-signal-handlers"][..], &["--disable-signal-handlers", "false"][..]] {
        let out = scratch("staged-signal-handlers");
        let o = staged_bin(&stage)
            .args(["--simulate", "gfx90a", "--hsa-core-trace", "-f", "csv", "-d"])
            .arg(&out)
            .args(extra)
            .arg("--")
            .arg(&python)
            .args(["-c", SIGNAL_MASK_AFTER_HSA_INIT])
            .output()
            .unwrap();
        assert_eq!(last_line(&o), want, "{extra:?}");
        assert!(!find(&out, "_hsa_api_trace.csv").is_empty(), "the run was traced: {:?}", find(&out, ""));
    }
}
