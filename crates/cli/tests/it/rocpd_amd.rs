//! AMD's `rocpd` command lines with `rocprof-rs rocpd` in their place: a user's script of AMD's
//! documented query/summary/convert commands (`rocpd_amd_commands.sh`), `convert --group-by-queue`
//! and `summary`'s time windows. Every figure is checked against the profiled runs' own CSV traces
//! (another writer), computed here on the host; traces are decoded with `pftrace`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_launch::names;

use crate::pftrace::{slices, Slice};
use crate::rocpd_cmd::{marked, profiled, rocpd, rows, Run, DISPATCHES};
use crate::{scratch, stderr, stdout};

/// Slices of category `cat`.
fn of(s: &[Slice], cat: &str) -> Vec<Slice> {
    s.iter().filter(|x| x.0 == cat).cloned().collect()
}

/// The staged rocprof-rs with the caller's overrides removed.
fn staged(stage: &Path) -> Command {
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [names::INTERCEPT_LIB, names::SIM_LIB, names::PROBE, names::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    c
}

/// `--kokkos-trace --kernel-trace -f rocpd csv` of `kokkos_app` (Kokkos regions rename its
/// kernels): its database and the kernel names of its own kernel_trace.csv, in dispatch order.
fn renamed_run(stage: &Path, dir: &Path) -> (PathBuf, Vec<String>) {
    let out = dir.join("renamed");
    let o = staged(stage)
        .args(["--simulate", "gfx90a", "--kokkos-trace", "--kernel-trace", "-f", "rocpd", "csv", "-o", "k", "-d"])
        .arg(&out)
        .arg("--")
        .arg(stage.join("fixtures/kokkos_app"))
        .env_remove("KOKKOS_TOOLS_LIBS")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let mut k: Vec<(u64, String)> = rows(&out.join("k_kernel_trace.csv"))
        .iter()
        .map(|r| (r["Dispatch_Id"].parse().unwrap(), r["Kernel_Name"].clone()))
        .collect();
    k.sort();
    (out.join("k_results.db"), k.into_iter().map(|x| x.1).collect())
}

/// Sum of the kernel durations of a run.
fn busy(run: &Run) -> u64 {
    run.kernels.iter().map(|k| k.2 - k.1).sum()
}

#[test]
fn amds_rocpd_command_lines_run_with_rocprof_rs_rocpd_in_their_place() {
    let Some(run0) = profiled("rocpd-amd-script-0") else { return };
    let Some(run1) = profiled("rocpd-amd-script-1") else { return };
    let Some(stage) = rocprof_test_inputs::stage("rocpd command test") else { return };
    let dir = scratch("rocpd-amd-script");
    let (renamed_db, renamed_names) = renamed_run(&stage, &dir);
    assert_eq!(renamed_names, ["axpy", "axpy", "norm", "Kokkos::Initialization Complete"]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/rocpd_amd_commands.sh");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let o = Command::new("/bin/sh")
        .arg(&script)
        .args([&run0.db, &run1.db, &renamed_db])
        .env("ROCPD", format!("{} rocpd", env!("CARGO_BIN_EXE_rocprof-rs")))
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(o.status.success(), "the script failed: {}\n{}", stderr(&o), stdout(&o));
    let kernel = run0.kernels[0].0.clone();
    let text = |p: &str| std::fs::read_to_string(work.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));

    // query: the agent table on the console; top_kernels of both databases (durations in us).
    assert!(
        text("query_agents.txt").lines().any(|l| l.contains("GPU") && l.contains("gfx90a")),
        "{}",
        text("query_agents.txt")
    );
    let top = rows(&work.join("rocpd-output-data/out.csv"));
    assert_eq!(top.len(), 1, "{top:?}");
    assert_eq!((top[0]["name"].as_str(), top[0]["total_calls"].as_str()), (kernel.as_str(), "16"));
    let total_us: f64 = top[0]["total_duration"].parse().unwrap();
    assert!((total_us - (busy(&run0) + busy(&run1)) as f64 / 1000.0).abs() < 1e-6, "{total_us}");

    // summary: console tables; per rank, one row per process with its own busy time.
    let console = text("summary_console.txt");
    assert!(console.contains("KERNELS_SUMMARY:") && console.contains("DOMAIN_SUMMARY:"), "{console}");
    assert!(console.lines().any(|l| l.contains(&kernel) && l.split_whitespace().nth(1) == Some("8")), "{console}");
    assert!(text("summary_none.txt").contains("KERNELS_SUMMARY:"));
    let mut by_rank: Vec<u64> = rows(&work.join("by-rank/kernels_summary_by_rank.csv"))
        .iter()
        .map(|r| r["DURATION (nsec)"].parse().unwrap())
        .collect();
    let mut want = vec![busy(&run0), busy(&run1)];
    by_rank.sort_unstable();
    want.sort_unstable();
    assert_eq!(by_rank, want);
    let ctest = rows(&work.join("ctest/summary/kernels_summary.csv"));
    assert_eq!((ctest[0]["Calls"].as_str(), ctest[0]["DURATION (nsec)"].parse::<u64>().unwrap()), ("8", busy(&run0)));
    let domain = rows(&work.join("ctest/summary/domain_summary.csv"));
    assert_eq!((domain[0]["Name"].as_str(), domain[0]["Calls"].as_str()), ("KERNELS", "8"));

    // convert: every kernel of one database; the 30%..100% window of two (inclusive); every format.
    assert_eq!(of(&slices(&work.join("rocpd-output-data/out_results.pftrace")), "kernel_dispatch").len(), DISPATCHES);
    let all: Vec<(u64, u64)> = run0.kernels.iter().chain(&run1.kernels).map(|k| (k.1, k.2)).collect();
    let (lo, hi) = (all.iter().map(|k| k.0).min().unwrap(), all.iter().map(|k| k.1).max().unwrap());
    let from = lo as f64 + (hi - lo) as f64 * 0.3;
    let inside = all.iter().filter(|k| k.0 as f64 >= from.trunc() && k.1 <= hi).count();
    assert!(inside > 0 && inside < all.len(), "the window splits the runs: {inside}");
    assert_eq!(of(&slices(&work.join("output/twoFileTraces_results.pftrace")), "kernel_dispatch").len(), inside);
    assert_eq!(rows(&work.join("all-formats/out_kernel_trace.csv")).len(), 2 * DISPATCHES);
    assert_eq!(of(&slices(&work.join("all-formats/out_results.pftrace")), "kernel_dispatch").len(), 2 * DISPATCHES);
    assert!(work.join("all-formats/out_results.otf2").is_file());
    // --kernel-rename of a renamed run: the names its own CSV has, in CSV and Perfetto.
    let mut csv: Vec<(u64, String)> = rows(&work.join("ctest/rocpd-output-data/out_kernel_trace.csv"))
        .iter()
        .map(|r| (r["Dispatch_Id"].parse().unwrap(), r["Kernel_Name"].clone()))
        .collect();
    csv.sort();
    assert_eq!(csv.into_iter().map(|x| x.1).collect::<Vec<_>>(), renamed_names);
    let mp =
        of(&slices(&work.join("ctest/rocpd-output-data-mp/rocpd-mp-output-test_results.pftrace")), "kernel_dispatch");
    let mut got: Vec<String> = mp.iter().map(|s| s.1.clone()).collect();
    let mut want = renamed_names.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert!(mp.iter().all(|s| s.2.contains("QUEUE")), "--group-by-queue: {mp:?}");
}

#[test]
fn rocpd_convert_group_by_queue_puts_kernels_on_queue_tracks_and_copies_on_thread_tracks() {
    let test = "rocpd_convert_group_by_queue_puts_kernels_on_queue_tracks_and_copies_on_thread_tracks";
    let Some(stage) = rocprof_test_inputs::stage("rocpd command test") else { return };
    let Some(app) = rocprof_test_inputs::staged(test, &stage, "fixtures/hip_trace_app") else { return };
    let dir = scratch("rocpd-group-by-queue");
    let run = dir.join("run");
    let o = staged(&stage)
        .args([
            "--simulate",
            "gfx90a",
            "--hip-trace",
            "--kernel-trace",
            "--memory-copy-trace",
            "-f",
            "rocpd",
            "csv",
            "-o",
            "h",
            "-d",
        ])
        .arg(&run)
        .arg("--")
        .arg(app)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // The run's own CSVs: kernels by (queue, stream), copies by stream.
    let kernels: Vec<(String, String)> =
        rows(&run.join("h_kernel_trace.csv")).iter().map(|r| (r["Queue_Id"].clone(), r["Stream_Id"].clone())).collect();
    let copies: Vec<String> =
        rows(&run.join("h_memory_copy_trace.csv")).iter().map(|r| r["Stream_Id"].clone()).collect();
    let on_streams = kernels.iter().filter(|k| k.1 != "0").count();
    assert!(on_streams > 0 && copies.iter().any(|s| s != "0"), "hip_trace_app uses streams: {kernels:?} {copies:?}");
    let db = run.join("h_results.db").to_string_lossy().into_owned();
    let convert = |name: &str, extra: &[&str]| {
        let d = dir.join(name).to_string_lossy().into_owned();
        let mut args = vec!["convert", "-i", &db, "-f", "pftrace", "-d", &d];
        args.extend_from_slice(extra);
        rocpd(&args);
        slices(&dir.join(name).join("out_results.pftrace"))
    };
    let count = |v: &[Slice], pred: &dyn Fn(&Slice) -> bool| v.iter().filter(|s| pred(s)).count();

    // Default: what a HIP stream ran is on that stream's track.
    let by_stream = convert("by-stream", &[]);
    let (k, c) = (of(&by_stream, "kernel_dispatch"), of(&by_stream, "memory_copy"));
    assert_eq!(k.len(), kernels.len());
    assert_eq!(count(&k, &|s| s.2.starts_with("STREAM [")), on_streams, "{k:?}");
    for stream in copies.iter().filter(|s| *s != "0") {
        let track = format!("STREAM [\" {stream} \"] ");
        let want = copies.iter().filter(|s| *s == stream).count();
        assert_eq!(count(&c, &|s| s.2 == track), want, "copies of stream {stream}: {c:?}");
    }

    // --group-by-queue: no stream track; kernels on one track per HSA queue, grouped as the
    // CSV's Queue_Id; copies on their (destination agent, thread) tracks.
    let by_queue = convert("by-queue", &["--group-by-queue"]);
    let (k, c) = (of(&by_queue, "kernel_dispatch"), of(&by_queue, "memory_copy"));
    assert_eq!((k.len(), c.len()), (kernels.len(), copies.len()));
    assert!(by_queue.iter().all(|s| !s.2.starts_with("STREAM [")), "{by_queue:?}");
    assert!(k.iter().all(|s| s.2.contains(" QUEUE [")), "{k:?}");
    assert!(c.iter().all(|s| s.2.starts_with("COPY to AGENT [")), "{c:?}");
    let mut per_track: HashMap<&str, usize> = HashMap::new();
    k.iter().for_each(|s| *per_track.entry(s.2.as_str()).or_default() += 1);
    let mut per_queue: HashMap<&str, usize> = HashMap::new();
    kernels.iter().for_each(|q| *per_queue.entry(q.0.as_str()).or_default() += 1);
    let (mut a, mut b): (Vec<usize>, Vec<usize>) =
        (per_track.into_values().collect(), per_queue.into_values().collect());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "kernels per queue track vs per Queue_Id");
}

/// `Name -> (Calls, DURATION)` of a `kernels_summary.csv` / `markers_summary.csv` (none: no file).
fn summary(path: &Path) -> HashMap<String, (u64, u64)> {
    if !path.exists() {
        return HashMap::new();
    }
    rows(path)
        .iter()
        .map(|r| (r["Name"].clone(), (r["Calls"].parse().unwrap(), r["DURATION (nsec)"].parse().unwrap())))
        .collect()
}

#[test]
fn rocpd_summary_time_windows_summarise_only_what_the_window_holds() {
    let Some(run) = profiled("rocpd-summary-window") else { return };
    let db = run.db.to_string_lossy().into_owned();
    let lo = run.kernels.iter().map(|k| k.1).min().unwrap();
    let hi = run.kernels.iter().map(|k| k.2).max().unwrap();
    let name = run.kernels[0].0.clone();
    let expect = |keep: &dyn Fn(u64, u64) -> bool| {
        let d: Vec<u64> = run.kernels.iter().filter(|k| keep(k.1, k.2)).map(|k| k.2 - k.1).collect();
        let mut m = HashMap::new();
        if !d.is_empty() {
            m.insert(name.clone(), (d.len() as u64, d.iter().sum::<u64>()));
        }
        m
    };
    let summarise = |tag: &str, window: &[&str]| {
        let d = run.dir.join(tag).to_string_lossy().into_owned();
        let mut args = vec!["summary", "-i", &db, "-f", "csv", "-d", &d];
        args.extend_from_slice(window);
        let o = rocpd(&args);
        assert!(stdout(&o).contains("# Windowed time bounds: "), "{}", stdout(&o));
        summary(&run.dir.join(tag).join("kernels_summary.csv"))
    };
    let mid = lo + (hi - lo) / 2;
    // Percentages of [earliest start, latest end]; inclusive (AMD's default) keeps what lies inside.
    let late = summarise("late", &["--start", "50%"]);
    assert_eq!(late, expect(&|s, e| s >= mid && e <= hi));
    assert!(late[&name].0 > 0 && late[&name].0 < DISPATCHES as u64, "the window splits the run: {late:?}");
    // --inclusive false keeps what overlaps the window.
    assert_eq!(summarise("overlap", &["--start", "50%", "--inclusive", "false"]), expect(&|s, e| s <= hi && e >= mid));
    // Nanoseconds: from the start of the third dispatch to the end of the sixth.
    let mut sorted = run.kernels.clone();
    sorted.sort_by_key(|k| k.1);
    let (b, e) = (sorted[2].1, sorted[5].2);
    let ns = summarise("ns", &["--start", &b.to_string(), "--end", &e.to_string()]);
    assert_eq!(ns, expect(&|s, t| s >= b && t <= e));
    assert_eq!(ns[&name].0, 4);

    // Markers: from the start of the range "workers" to the mark "started" (AMD's time_window).
    let Some(m) = marked("rocpd-summary-marker-window") else { return };
    let start_of = |n: &str| m.markers.iter().find(|x| x.0 == n).map(|x| x.1).unwrap();
    let (b, e) = (start_of("workers"), start_of("started"));
    let d = m.dir.join("markers").to_string_lossy().into_owned();
    let o =
        rocpd(&["summary", "-i", &m.db, "-f", "csv", "-d", &d, "--start-marker", "workers", "--end-marker", "started"]);
    assert!(stdout(&o).contains("# Windowed time bounds: "), "{}", stdout(&o));
    let mut want: HashMap<String, u64> = HashMap::new();
    for x in m.markers.iter().filter(|x| x.1 >= b && x.2 <= e) {
        *want.entry(x.0.clone()).or_default() += 1;
    }
    assert!(want.contains_key("started"), "{want:?}");
    let got: HashMap<String, u64> =
        summary(&m.dir.join("markers/markers_summary.csv")).into_iter().map(|(k, v)| (k, v.0)).collect();
    // The CSV names a roctxNameOsThread row after the function, the markers summary after the
    // thread's name: compare the calls, and by name the ranges and marks.
    assert_eq!(got.values().sum::<u64>(), want.values().sum::<u64>(), "{got:?} vs {want:?}");
    for (name, calls) in want.iter().filter(|(n, _)| *n != "roctxNameOsThread") {
        assert_eq!(got.get(name), Some(calls), "{name}: {got:?}");
    }
    let kernels_inside = m.kernels.iter().filter(|k| k.0 >= b && k.1 <= e).count() as u64;
    let k = summary(&m.dir.join("markers/kernels_summary.csv"));
    assert_eq!(k.values().map(|v| v.0).sum::<u64>(), kernels_inside);
}

#[test]
fn kernel_rename_run_stores_the_range_in_the_kernels_views_region_and_one_symbol_per_kernel() {
    // kokkos_app (fixtures/programs/kokkos_app.c): region "solve" { for "axpy" {vector_add}
    // for "axpy" {vector_add} reduce "norm" {vector_add} }, then one vector_add after the
    // "Kokkos::Initialization Complete" mark. rocprofv3 (reference/rocpd-schema.md,
    // rocpd_kernel_dispatch.region_name_id) keeps one symbol per kernel and names the range in
    // the dispatch's region; AMD's `kernels` view reads it as `region`.
    let Some(stage) = rocprof_test_inputs::stage("rocpd command test") else { return };
    let dir = scratch("rocpd-rename-region");
    let (db, _) = renamed_run(&stage, &dir);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut st = conn.prepare("SELECT name, region FROM kernels ORDER BY dispatch_id").unwrap();
    let got: Vec<(String, String)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    let want: Vec<(String, String)> = ["axpy", "axpy", "norm", "Kokkos::Initialization Complete"]
        .iter()
        .map(|r| ("vector_add".to_string(), r.to_string()))
        .collect();
    assert_eq!(got, want);
    let symbols: Vec<String> = conn
        .prepare("SELECT kernel_name FROM rocpd_info_kernel_symbol")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(symbols.iter().filter(|s| s.starts_with("vector_add")).count(), 1, "{symbols:?}");
    assert!(symbols.iter().all(|s| !want.iter().any(|w| s == &w.1)), "no symbol named after a range: {symbols:?}");

    // Read back: named after the kernel without --kernel-rename, after the range with it.
    let db = db.to_string_lossy().into_owned();
    let names = |out: &str, extra: &[&str]| {
        let d = dir.join(out).to_string_lossy().into_owned();
        let mut args = vec!["convert", "-i", &db, "-f", "csv", "-d", &d];
        args.extend_from_slice(extra);
        rocpd(&args);
        let mut k: Vec<(u64, String)> = rows(&dir.join(out).join("out_kernel_trace.csv"))
            .iter()
            .map(|r| (r["Dispatch_Id"].parse().unwrap(), r["Kernel_Name"].clone()))
            .collect();
        k.sort();
        k.into_iter().map(|x| x.1).collect::<Vec<_>>()
    };
    assert_eq!(names("plain", &[]), ["vector_add"; 4]);
    assert_eq!(names("renamed", &["--kernel-rename"]), want.iter().map(|w| w.1.clone()).collect::<Vec<_>>());
}
