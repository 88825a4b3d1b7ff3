//! HIP and ROCTx tracing end to end on Debian's real HIP 5.2 (`libamdhip64.so.5`, its roctracer
//! hooks) running on hsa-sim: `rocprof-rs --sys-trace` on `hip_trace_app N` writes one HIP API row
//! per call the program made, kernel and copy rows that carry the correlation id of the HIP call
//! that issued them, and ROCTx ranges that nest per thread; `--selected-regions` leaves out exactly
//! the paused iterations and `--kernel-rename` names kernels after their innermost range. A HIP
//! runtime that offers no tracing interface (`fake_hip`) gets one warning, and the run goes on.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use rocprof_e2e::{find_one, profile, read_csv, scratch, stage, Csv, Run, ScratchGuard, Stage};

use crate::hip::counts;

/// HIP 5.2 functions that do not report themselves through its tracing hooks (no callback id).
const NOT_REPORTED_BY_HIP_5_2: &[&str] = &["hipGetDeviceCount"];

struct Traced {
    run: Run,
    out: PathBuf,
    _cleanup: ScratchGuard,
}

impl Traced {
    fn csv(&self, suffix: &str) -> Csv {
        read_csv(&find_one(&self.out, suffix))
    }

    fn db(&self) -> PathBuf {
        find_one(&self.out, "_results.db")
    }
}

fn trace(stage: &Stage, options: &[&str], app: &Path, args: &[&str]) -> Traced {
    trace_as(stage, options, &["csv", "rocpd"], app, args)
}

fn trace_as(stage: &Stage, options: &[&str], formats: &[&str], app: &Path, args: &[&str]) -> Traced {
    let out = scratch("hip-trace");
    let out_s = out.display().to_string();
    let mut cli: Vec<&str> = vec!["--simulate", "gfx90a"];
    cli.extend_from_slice(options);
    cli.push("-f");
    cli.extend_from_slice(formats);
    cli.extend_from_slice(&["-d", &out_s]);
    let run = profile(stage, &cli, app, args, &[]);
    assert!(run.status.success(), "rocprof-rs {options:?} -- {} {args:?} failed:\n{}", app.display(), run.transcript());
    Traced { run, _cleanup: ScratchGuard(out.clone()), out }
}

fn num(row: &HashMap<String, String>, col: &str) -> u64 {
    row[col].parse().unwrap_or_else(|_| panic!("{col} = {:?}", row[col]))
}

/// Rows per `Function` value.
fn by_function(csv: &Csv) -> BTreeMap<String, Vec<&HashMap<String, String>>> {
    let mut m: BTreeMap<String, Vec<&HashMap<String, String>>> = BTreeMap::new();
    for r in &csv.rows {
        m.entry(r["Function"].clone()).or_default().push(r);
    }
    m
}

const VADD: &str = "vadd(float const*, float const*, float*, int)";

#[test]
fn sys_trace_rows_equal_the_hip_calls_kernels_and_ranges_of_the_program() {
    let test = "sys_trace_rows_equal_the_hip_calls_kernels_and_ranges_of_the_program";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let n = 5u64;
    let t = trace(&stage, &["--sys-trace"], &app, &[&n.to_string()]);
    let calls = counts(&t.run.stdout, "hip-calls:");
    let roctx = counts(&t.run.stdout, "roctx-calls:");
    assert_eq!(calls["hipLaunchKernel"], n);

    // hip_api_trace.csv: every call the program made, one row each, in rocprofv3's columns.
    let hip = t.csv("hip_api_trace.csv");
    assert_eq!(
        hip.header,
        ["Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp"]
    );
    let hip_rows = by_function(&hip);
    for (function, made) in &calls {
        if NOT_REPORTED_BY_HIP_5_2.contains(&function.as_str()) {
            continue;
        }
        let rows = hip_rows.get(function).map_or(0, Vec::len) as u64;
        assert_eq!(rows, *made, "{function}: {rows} rows for {made} calls");
    }
    for r in &hip.rows {
        let expected = if r["Function"].starts_with("__hip") { "HIP_COMPILER_API_EXT" } else { "HIP_RUNTIME_API_EXT" };
        assert_eq!(r["Domain"], expected, "{r:?}");
        assert!(num(r, "End_Timestamp") >= num(r, "Start_Timestamp"), "{r:?}");
    }
    // hipLaunchKernelGGL goes through the compiler's launch-configuration calls.
    assert_eq!(hip_rows["__hipPushCallConfiguration"].len() as u64, n);
    let ids: Vec<u64> = hip.rows.iter().map(|r| num(r, "Correlation_Id")).collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "correlation ids are unique");

    // kernel_trace.csv: N vadd rows, each carrying the id of its own hipLaunchKernel row.
    let kernels = t.csv("kernel_trace.csv");
    let launches: HashMap<u64, &HashMap<String, String>> =
        hip_rows["hipLaunchKernel"].iter().map(|r| (num(r, "Correlation_Id"), *r)).collect();
    let vadd: Vec<&HashMap<String, String>> = kernels.rows.iter().filter(|r| r["Kernel_Name"] == VADD).collect();
    assert_eq!(vadd.len() as u64, n, "one vadd row per hipLaunchKernel");
    let mut launched = HashSet::new();
    for k in &vadd {
        let id = num(k, "Correlation_Id");
        let launch = launches.get(&id).unwrap_or_else(|| panic!("vadd row {k:?} has no hipLaunchKernel with its id"));
        assert!(launched.insert(id), "two kernels share hipLaunchKernel {id}");
        assert_eq!(k["Thread_Id"], launch["Thread_Id"]);
        assert_ne!(num(k, "Stream_Id"), 0, "vadd runs on a created stream, not the null stream");
    }
    // hipMemset and the device-to-device hipMemcpy run HIP's blit kernels, attributed to them.
    let memset_id = num(hip_rows["hipMemset"][0], "Correlation_Id");
    assert!(
        kernels.rows.iter().any(|k| num(k, "Correlation_Id") == memset_id && k["Kernel_Name"].contains("fillBuffer")),
        "no fill kernel carries hipMemset's id {memset_id}"
    );

    // hsa_api_trace.csv: the HSA calls HIP makes underneath are traced too (--sys-trace).
    assert!(!t.csv("hsa_api_trace.csv").rows.is_empty());

    // rocpd: one region (or a zero-length sample) per HIP row; hipLaunchKernel's arguments.
    let db = rusqlite::Connection::open(t.db()).unwrap();
    let in_db = |like: &str| -> u64 {
        ["regions", "samples"]
            .iter()
            .map(|v| {
                db.query_row(&format!("SELECT COUNT(*) FROM {v} WHERE category LIKE '{like}'"), [], |r| {
                    r.get::<_, u64>(0)
                })
                .unwrap()
            })
            .sum()
    };
    assert_eq!(in_db("HIP_%"), hip.rows.len() as u64, "HIP regions in rocpd");
    let args: Vec<String> = db
        .prepare(
            "SELECT A.name FROM rocpd_arg A JOIN rocpd_region R ON R.event_id = A.event_id
             JOIN rocpd_string S ON S.id = R.name_id
             WHERE S.string = 'hipLaunchKernel' AND R.id = (SELECT MIN(R2.id) FROM rocpd_region R2 WHERE R2.name_id = S.id)
             ORDER BY A.position",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(args, ["function_address", "numBlocks", "dimBlocks", "args", "sharedMemBytes", "stream"]);

    // marker_api_trace.csv: ranges (one row per push/pop pair, start/stop pair), marks, names.
    let markers = t.csv("marker_api_trace.csv");
    let m = by_function(&markers);
    let count = |f: &str| m.get(f).map_or(0, Vec::len) as u64;
    assert_eq!(count("iteration"), n);
    assert_eq!(count("vadd_step"), n);
    assert_eq!(count("launch"), n);
    assert_eq!(count("hip_trace_app"), 1);
    assert_eq!(count("setup"), 1);
    assert_eq!(count("worker"), 1);
    assert_eq!(count("worker mark"), 1);
    assert_eq!(count("roctxNameOsThread"), roctx["roctxNameOsThread"]);
    let ranges = roctx["roctxRangePushA"] + roctx["roctxRangeStartA"];
    let marks = roctx["roctxMarkA"];
    assert_eq!(markers.rows.iter().filter(|r| r["Domain"] == "MARKER_CORE_API").count() as u64, ranges + marks);
    assert_eq!(in_db("MARKER_%"), markers.rows.len() as u64, "marker regions in rocpd");
    // Nesting per thread: every vadd_step lies inside an iteration of its thread, which lies
    // inside the outer range; the worker's range is on another thread.
    let span = |r: &HashMap<String, String>| (num(r, "Start_Timestamp"), num(r, "End_Timestamp"));
    let outer = m["hip_trace_app"][0];
    for step in &m["vadd_step"] {
        let (s, e) = span(step);
        assert!(
            m["iteration"].iter().any(|it| it["Thread_Id"] == step["Thread_Id"] && span(it).0 <= s && e <= span(it).1),
            "vadd_step {step:?} is not inside an iteration"
        );
    }
    for it in &m["iteration"] {
        assert!(span(outer).0 <= span(it).0 && span(it).1 <= span(outer).1);
    }
    for mark in m["worker mark"].iter().chain(&m["launch"]) {
        assert_eq!(span(mark).0, span(mark).1, "a mark is an instant: {mark:?}");
    }
    let worker = m["worker"][0];
    assert_ne!(worker["Thread_Id"], outer["Thread_Id"], "the worker's range is on its own thread");
    // The process range was started by the main thread and stopped by the worker.
    let setup = m["setup"][0];
    assert_eq!(setup["Thread_Id"], outer["Thread_Id"]);
    assert!(span(setup).0 < span(worker).1 && span(worker).0 < span(setup).1, "stopped while the worker ran");
}

#[test]
fn hip_memcpy_copies_carry_the_correlation_id_of_the_hip_call() {
    let test = "hip_memcpy_copies_carry_the_correlation_id_of_the_hip_call";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let n = 5u64;
    let t = trace(&stage, &["--sys-trace"], &app, &[&n.to_string()]);
    let hip = t.csv("hip_api_trace.csv");
    let hip_rows = by_function(&hip);
    // memory_copy_trace.csv: each host<->device hipMemcpy caused copies carrying its id, in its
    // direction; the rocpd database has their byte counts.
    let copies = t.csv("memory_copy_trace.csv");
    let copy_dir: HashMap<u64, Vec<&str>> = copies.rows.iter().fold(HashMap::new(), |mut m, r| {
        m.entry(num(r, "Correlation_Id")).or_default().push(r["Direction"].as_str());
        m
    });
    let copied = counts(&t.run.stdout, "copies:");
    let mut h2d_calls = 0;
    for r in &hip_rows["hipMemcpy"] {
        let id = num(r, "Correlation_Id");
        if let Some(dirs) = copy_dir.get(&id) {
            assert!(
                dirs.iter().all(|d| *d == "MEMORY_COPY_HOST_TO_DEVICE" || *d == "MEMORY_COPY_DEVICE_TO_HOST"),
                "hipMemcpy {id}: {dirs:?}"
            );
            h2d_calls += dirs.iter().filter(|d| **d == "MEMORY_COPY_HOST_TO_DEVICE").count() as u64;
        }
    }
    assert_eq!(h2d_calls, 2, "the two synchronous host-to-device hipMemcpy calls, one copy each");
    let async_h2d: u64 = hip_rows["hipMemcpyAsync"]
        .iter()
        .filter(|r| copy_dir.get(&num(r, "Correlation_Id")).is_some_and(|d| d.contains(&"MEMORY_COPY_HOST_TO_DEVICE")))
        .count() as u64;
    assert_eq!(async_h2d, n, "each iteration's hipMemcpyAsync is a host-to-device copy");
    let conn = rusqlite::Connection::open(t.db()).unwrap();
    let h2d_bytes: i64 = conn
        .query_row(
            "SELECT COALESCE(SUM(size), 0) FROM memory_copies WHERE name = 'MEMORY_COPY_HOST_TO_DEVICE'",
            [],
            |r| r.get(0),
        )
        .expect("memory_copies view");
    assert_eq!(h2d_bytes as u64, copied["h2d_bytes"], "bytes copied host to device");

    // memory_allocation_trace.csv exists (HIP allocates through HSA pools).
    assert!(!t.csv("memory_allocation_trace.csv").rows.is_empty());
}

#[test]
fn selected_regions_leave_out_exactly_the_paused_iterations() {
    let test = "selected_regions_leave_out_exactly_the_paused_iterations";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let n = 5u64;
    let t = trace(
        &stage,
        &["--selected-regions", "--kernel-trace", "--hip-trace", "--hsa-trace", "--marker-trace"],
        &app,
        &[&n.to_string(), "--regions"],
    );
    let resumed = n.div_ceil(2);
    let kernels = t.csv("kernel_trace.csv");
    let vadd = kernels.rows.iter().filter(|r| r["Kernel_Name"] == VADD).count() as u64;
    assert_eq!(vadd, resumed, "only the iterations between resume and pause");
    assert_eq!(kernels.rows.len() as u64, resumed, "nothing outside the regions (memset, copies, setup)");
    let hip = by_function(&t.csv("hip_api_trace.csv"))
        .into_iter()
        .map(|(f, v)| (f, v.len() as u64))
        .collect::<BTreeMap<_, _>>();
    assert_eq!(hip.get("hipLaunchKernel"), Some(&resumed));
    assert_eq!(hip.get("hipMalloc"), None, "setup ran paused");
    let markers = t.csv("marker_api_trace.csv");
    let control: Vec<(&str, &str)> = markers
        .rows
        .iter()
        .filter(|r| r["Domain"] == "MARKER_CONTROL_API")
        .map(|r| (r["Function"].as_str(), r["Domain"].as_str()))
        .collect();
    assert_eq!(control.iter().filter(|c| c.0 == "roctxProfilerResume").count() as u64, resumed);
    assert_eq!(control.iter().filter(|c| c.0 == "roctxProfilerPause").count() as u64, resumed);
    assert_eq!(by_function(&markers).get("iteration").map_or(0, Vec::len) as u64, resumed);
    // Every recorded HIP and HSA call started in a resumed window (from resume to pause;
    // a call of another thread may still be running when the pause comes).
    let mut resumes: Vec<u64> = Vec::new();
    let mut pauses: Vec<u64> = Vec::new();
    for r in markers.rows.iter().filter(|r| r["Domain"] == "MARKER_CONTROL_API") {
        match r["Function"].as_str() {
            "roctxProfilerResume" => resumes.push(num(r, "Start_Timestamp")),
            "roctxProfilerPause" => pauses.push(num(r, "End_Timestamp")),
            _ => {}
        }
    }
    resumes.sort_unstable();
    pauses.sort_unstable();
    let windows: Vec<(u64, u64)> = resumes.into_iter().zip(pauses).collect();
    let hsa = t.csv("hsa_api_trace.csv");
    assert!(!hsa.rows.is_empty(), "HSA calls inside the resumed iterations are recorded");
    for r in hsa.rows.iter().chain(&t.csv("hip_api_trace.csv").rows) {
        let s = num(r, "Start_Timestamp");
        assert!(windows.iter().any(|w| w.0 <= s && s <= w.1), "{r:?} outside the resumed windows {windows:?}");
    }
}

/// `--kernel-rename` as rocprofv3's tool does it (`kernel_rename_callback` in
/// rocprofiler-sdk-tool/tool.cpp): a push and a mark each push their message onto the thread's
/// rename stack, a pop takes off the top, and a dispatch is named after the top. Each iteration
/// pushes "iteration", marks "launch", pushes "vadd_step" (the launch), pops "vadd_step" and pops
/// "launch": one "iteration" per iteration stays, so the device-to-device copy kernel HIP 5.2 runs
/// after the loop is named "iteration"; hipMemset's fill kernel, before it, "hip_trace_app".
/// The JSON is checked as AMD's kernel-rename and summary validators read it (`test_kernel_trace`):
/// every dispatch keeps its own kernel symbol and carries an external correlation id whose
/// `strings.correlation_id.external` entry is the new name, also without `--marker-trace`.
#[test]
fn kernel_rename_names_kernels_after_rocprofv3s_rename_stack_in_csv_and_json() {
    let test = "kernel_rename_names_kernels_after_rocprofv3s_rename_stack_in_csv_and_json";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    // -M as in AMD's kernel-rename command line: the renamed kernels keep their ranges' names.
    let t = trace_as(&stage, &["--kernel-trace", "--kernel-rename", "-M"], &["csv", "json"], &app, &["3"]);
    let kernels = t.csv("kernel_trace.csv");
    let names: Vec<&str> = kernels.rows.iter().map(|r| r["Kernel_Name"].as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "vadd_step").count(), 3, "{names:?}");
    assert!(!names.contains(&VADD), "every vadd launch is inside a range: {names:?}");
    assert_eq!(names.iter().filter(|n| **n == "hip_trace_app").count(), 1, "{names:?}");
    assert_eq!(names.iter().filter(|n| **n == "iteration").count(), 1, "{names:?}");
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(find_one_opt(&t.out, "marker_api_trace.csv").is_none(), "no marker output without --marker-trace");

    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(find_one(&t.out, "_results.json")).unwrap()).unwrap();
    let p = &doc["rocprofiler-sdk-tool"][0];
    let renamed: HashMap<u64, &str> = p["strings"]["correlation_id"]["external"]
        .as_array()
        .expect("strings.correlation_id.external")
        .iter()
        .map(|e| (e["key"].as_u64().unwrap(), e["value"].as_str().unwrap()))
        .collect();
    let by_dispatch: HashMap<u64, &str> =
        kernels.rows.iter().map(|r| (num(r, "Dispatch_Id"), r["Kernel_Name"].as_str())).collect();
    let dispatches = p["buffer_records"]["kernel_dispatch"].as_array().unwrap();
    assert_eq!(dispatches.len(), 5);
    for d in dispatches {
        let external = d["correlation_id"]["external"].as_u64().unwrap();
        assert!(external > 0, "{d}");
        let info = &d["dispatch_info"];
        let symbol = p["kernel_symbols"][info["kernel_id"].as_u64().unwrap() as usize]["formatted_kernel_name"]
            .as_str()
            .unwrap();
        let new_name = renamed.get(&external).copied().unwrap_or_else(|| panic!("no name for {external}: {d}"));
        assert_eq!(new_name, by_dispatch[&info["dispatch_id"].as_u64().unwrap()], "{d}");
        assert_ne!(symbol, new_name, "the dispatch keeps its own symbol: {d}");
        assert!(!["hip_trace_app", "iteration", "launch", "vadd_step"].contains(&symbol), "{symbol}");
    }
}

#[test]
fn roctx_marks_and_ranges_on_several_threads_of_an_hsa_program() {
    let test = "roctx_marks_and_ranges_on_several_threads_of_an_hsa_program";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("roctx_threads", test) else { return };
    let t = trace(&stage, &["--marker-trace", "--kernel-trace"], &app, &["3", "4"]);
    let markers = t.csv("marker_api_trace.csv");
    let m = by_function(&markers);
    let main_tid = m["main"][0]["Thread_Id"].clone();
    let workers: HashSet<&str> = m["worker"].iter().map(|r| r["Thread_Id"].as_str()).collect();
    assert_eq!(workers.len(), 3, "one worker range per thread");
    assert!(!workers.contains(main_tid.as_str()));
    for w in 0..3 {
        let rows = &m[&format!("kernel_{w}")];
        assert_eq!(rows.len(), 4);
        assert_eq!(rows.iter().map(|r| r["Thread_Id"].as_str()).collect::<HashSet<_>>().len(), 1);
    }
    assert_eq!(m["dispatch"].len(), 12);
    assert_eq!(m["started"].len(), 1);
    // "main" was popped after hsa_shut_down: ROCTx is recorded without the runtime.
    assert_eq!(m["main"].len(), 1);
    // The process range started on the main thread, stopped by the last worker.
    assert_eq!(m["workers"][0]["Thread_Id"], main_tid);
    assert_eq!(m["roctxNameOsThread"].len(), 4);
    assert_eq!(t.csv("kernel_trace.csv").rows.len(), 12);
}

fn find_one_opt(dir: &Path, suffix: &str) -> Option<PathBuf> {
    rocprof_e2e::find_files(dir, suffix).into_iter().next()
}

/// The start of the interception library's warning about a HIP runtime it cannot trace (both
/// variants: no interface at all, or rocprofiler-register without dispatch tables).
const UNTRACED_HIP: &str = "is loaded but";

/// stderr lines that are the untraced-HIP warning.
fn untraced_hip_warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("--hip-trace: ") && l.contains(UNTRACED_HIP)).collect()
}

#[test]
fn hip_trace_warns_once_about_a_hip_runtime_without_tracing_interface_and_still_traces_kernels() {
    let test = "hip_trace_warns_once_about_a_hip_runtime_without_tracing_interface_and_still_traces_kernels";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("fake_hip", test) else { return };

    // fake_hip exports hipGetDevice and nothing else of HIP: exactly one warning (the library
    // checks before the program starts and again at exit), naming the program, the file that
    // defines hipGetDevice.
    let t = trace(&stage, &["--hip-trace", "--kernel-trace"], &app, &[]);
    assert!(t.run.stdout.contains("fake_hip: hipGetDevice=1 dispatches=1"), "{}", t.run.transcript());
    let warnings = untraced_hip_warnings(&t.run.stderr);
    assert_eq!(warnings.len(), 1, "one warning:\n{}", t.run.transcript());
    let w = warnings[0];
    assert!(w.contains(&format!("--hip-trace: {} is loaded but", app.display())), "names the program: {w}");
    assert!(w.contains("offers no tracing interface rocprof-rs knows"), "{w}");
    assert!(w.contains(": warning: --hip-trace: "), "{w}");
    // The run goes on: the program's one dispatch is in the kernel trace.
    let kernels = t.csv("kernel_trace.csv");
    let names: Vec<&str> = kernels.rows.iter().map(|r| r["Kernel_Name"].as_str()).collect();
    assert_eq!(names, ["vector_add"], "the one dispatch fake_hip made");
    assert!(find_one_opt(&t.out, "hip_api_trace.csv").is_none_or(|p| read_csv(&p).rows.is_empty()));

    // Without --hip-trace nobody asked for HIP calls: no warning.
    let t = trace(&stage, &["--kernel-trace"], &app, &[]);
    assert_eq!(untraced_hip_warnings(&t.run.stderr), Vec::<&str>::new(), "{}", t.run.transcript());
    assert_eq!(t.csv("kernel_trace.csv").rows.len(), 1);

    // A real HIP (Debian's 5.2, traced through its callbacks) gets no warning.
    let Some(hip_app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let t = trace(&stage, &["--hip-trace", "--kernel-trace"], &hip_app, &["1"]);
    assert_eq!(untraced_hip_warnings(&t.run.stderr), Vec::<&str>::new(), "{}", t.run.transcript());
    let calls = counts(&t.run.stdout, "hip-calls:");
    let hip = t.csv("hip_api_trace.csv");
    assert_eq!(by_function(&hip)["hipLaunchKernel"].len() as u64, calls["hipLaunchKernel"], "HIP 5.2 is traced");
}

/// The undefined dynamic symbols (imports) of the HIP runtime library `app` loads, from `ldd` and
/// `nm -D --undefined-only` (binutils), without their `@VERSION` suffix.
fn hip_runtime_imports(app: &Path) -> (PathBuf, HashSet<String>) {
    let ldd = std::process::Command::new("ldd").arg(app).output().expect("ldd");
    let ldd = String::from_utf8_lossy(&ldd.stdout).into_owned();
    let lib = ldd
        .lines()
        .filter(|l| l.contains("libamdhip64.so"))
        .find_map(|l| l.split("=>").nth(1)?.split_whitespace().next().map(PathBuf::from))
        .unwrap_or_else(|| panic!("{} loads no libamdhip64.so:\n{ldd}", app.display()));
    let nm = std::process::Command::new("nm").args(["-D", "--undefined-only"]).arg(&lib).output().expect("nm");
    assert!(nm.status.success(), "nm -D {}: {}", lib.display(), String::from_utf8_lossy(&nm.stderr));
    let syms = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .map(|s| s.split('@').next().unwrap_or(s).to_string())
        .collect();
    (lib, syms)
}

/// HIP 5.2 (`libamdhip64.so.5`) copies through `hsa_amd_memory_async_copy`; it does not import
/// `hsa_amd_memory_async_copy_on_engine`, which HIP 6 calls and AMD's tracing validator expects
/// (`tests/rocprofv3/tracing/validate.py`, `test_hsa_api_trace`: its 4 failures in the amd-suite run
/// with Debian's hipcc are this difference of HIP's, not the profiler's). Oracle: the HIP library's
/// own import table. Every `hsa_amd_memory_async_copy*` row of the HSA trace is an entry point that
/// library imports, and each of the program's host-to-device `hipMemcpy` calls (its own count)
/// shows as at least one `hsa_amd_memory_async_copy` row.
#[test]
fn hsa_trace_names_the_async_copy_entry_points_the_hip_runtime_imports() {
    let test = "hsa_trace_names_the_async_copy_entry_points_the_hip_runtime_imports";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let (lib, imports) = hip_runtime_imports(&app);
    let t = trace(&stage, &["--hsa-trace", "--hip-runtime-trace"], &app, &["2"]);
    let hsa = by_function(&t.csv("hsa_api_trace.csv"))
        .into_iter()
        .map(|(f, rows)| (f, rows.len()))
        .collect::<BTreeMap<_, _>>();
    let copy_rows: Vec<(&String, &usize)> =
        hsa.iter().filter(|(f, _)| f.starts_with("hsa_amd_memory_async_copy")).collect();
    for (f, n) in &copy_rows {
        assert!(imports.contains(f.as_str()), "{n} {f} rows, but {} does not import {f}", lib.display());
    }
    let on_engine = "hsa_amd_memory_async_copy_on_engine";
    if !imports.contains(on_engine) {
        eprintln!(
            "{test}: {} does not import {on_engine} (HIP before 6); AMD's tracing validator expects it: a HIP difference",
            lib.display()
        );
    }
    let h2d = counts(&t.run.stdout, "copies:")["h2d"] as usize;
    let plain = hsa.get("hsa_amd_memory_async_copy").copied().unwrap_or(0) + hsa.get(on_engine).copied().unwrap_or(0);
    assert!(h2d > 0 && plain >= h2d, "{h2d} host-to-device hipMemcpy calls, {copy_rows:?} async-copy rows");
}
