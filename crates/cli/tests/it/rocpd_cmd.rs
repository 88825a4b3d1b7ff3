//! `rocprof-rs rocpd query|summary|convert` with AMD's `rocpd` flags, on the database of a
//! staged run: every figure is checked against the run's own `kernel_trace.csv` (another writer,
//! computed here on the host).

use rocprof_launch::names;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{bin, scratch, stderr, stdout};

pub(crate) const DISPATCHES: usize = 8;

pub(crate) struct Run {
    pub(crate) dir: PathBuf,
    pub(crate) db: PathBuf,
    /// (kernel name, start, end) of every kernel_trace.csv row.
    pub(crate) kernels: Vec<(String, u64, u64)>,
}

/// `rocprof-rs --simulate gfx90a --kernel-trace -f rocpd csv -- vector_add 8`, staged.
pub(crate) fn profiled(name: &str) -> Option<Run> {
    let stage = rocprof_test_inputs::stage("rocpd command test")?;
    let dir = scratch(name);
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [names::INTERCEPT_LIB, names::SIM_LIB, names::PROBE, names::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    let o = c
        .args(["--simulate", "gfx90a", "--kernel-trace", "-f", "rocpd", "csv", "-o", "run", "-d"])
        .arg(dir.join("run"))
        .arg("--")
        .arg(stage.join("fixtures/vector_add"))
        .arg(DISPATCHES.to_string())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("run/run_results.db");
    let mut r = csv::Reader::from_path(dir.join("run/run_kernel_trace.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let (name_c, start_c, end_c) = (col("Kernel_Name"), col("Start_Timestamp"), col("End_Timestamp"));
    let kernels = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[name_c].to_string(), rec[start_c].parse().unwrap(), rec[end_c].parse().unwrap())
        })
        .collect::<Vec<(String, u64, u64)>>();
    assert_eq!(kernels.len(), DISPATCHES);
    Some(Run { dir, db, kernels })
}

pub(crate) fn rocpd(args: &[&str]) -> std::process::Output {
    let o = bin().arg("rocpd").args(args).output().unwrap();
    assert!(o.status.success(), "rocprof-rs rocpd {args:?}: {}\n{}", stderr(&o), stdout(&o));
    o
}

/// Rows of a CSV file as maps.
pub(crate) fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| h.iter().zip(rec.unwrap().iter()).map(|(a, b)| (a.to_string(), b.to_string())).collect())
        .collect()
}

#[test]
fn rocpd_summary_with_amds_flags_writes_the_kernel_and_domain_summaries() {
    let Some(run) = profiled("rocpd-summary") else { return };
    let out = run.dir.join("summary");
    let db = run.db.to_string_lossy().into_owned();
    let o = rocpd(&[
        "summary",
        "--domain-summary",
        "--summary-by-rank",
        "-f",
        "csv",
        "-d",
        &out.to_string_lossy(),
        "-i",
        &db,
    ]);
    assert!(stdout(&o).contains("Summary files:"), "{}", stdout(&o));
    // Host computation from kernel_trace.csv: calls, total, min, max per kernel name.
    let durations: Vec<u64> = run.kernels.iter().map(|k| k.2 - k.1).collect();
    let total: u64 = durations.iter().sum();
    let s = rows(&out.join("kernels_summary.csv"));
    assert_eq!(s.len(), 1, "one kernel name: {s:?}");
    assert_eq!(s[0]["Name"], run.kernels[0].0);
    assert_eq!(s[0]["Calls"], DISPATCHES.to_string());
    assert_eq!(s[0]["DURATION (nsec)"], total.to_string());
    assert_eq!(s[0]["MIN (nsec)"], durations.iter().min().unwrap().to_string());
    assert_eq!(s[0]["MAX (nsec)"], durations.iter().max().unwrap().to_string());
    assert_eq!(s[0]["PERCENT (INC)"], "100.0");
    let avg: f64 = s[0]["AVERAGE (nsec)"].parse().unwrap();
    assert!((avg - total as f64 / DISPATCHES as f64).abs() < 1e-6, "{avg}");
    let d = rows(&out.join("domain_summary.csv"));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0]["Name"].as_str(), d[0]["Calls"].as_str()), ("KERNELS", DISPATCHES.to_string().as_str()));
    let r = rows(&out.join("kernels_summary_by_rank.csv"));
    assert_eq!(r.len(), 1, "one process: {r:?}");
    assert!(r[0]["ProcessID"].parse::<u32>().unwrap() > 0);
    assert_eq!(r[0]["DURATION (nsec)"], total.to_string());
}

#[test]
fn rocpd_query_and_convert_honour_the_time_window() {
    let Some(run) = profiled("rocpd-window") else { return };
    let db = run.db.to_string_lossy().into_owned();
    let lo = run.kernels.iter().map(|k| k.1).min().unwrap();
    let hi = run.kernels.iter().map(|k| k.2).max().unwrap();
    let mid = lo + (hi - lo) / 2;
    // AMD's window: "50%" of [earliest start, latest end]; inclusive keeps events inside it.
    let inside: Vec<(u64, u64)> = run.kernels.iter().filter(|k| k.1 >= mid && k.2 <= hi).map(|k| (k.1, k.2)).collect();
    assert!(!inside.is_empty() && inside.len() < DISPATCHES, "the window splits the run: {inside:?}");

    let q = run.dir.join("query");
    let qs = q.to_string_lossy().into_owned();
    let sql = "SELECT name, start, end, duration FROM kernels ORDER BY start";
    let o = rocpd(&["query", "-i", &db, "--query", sql, "--format", "csv", "-d", &qs, "-o", "all"]);
    assert!(stdout(&o).contains("Exported to: "), "{}", stdout(&o));
    // AMD's last line of every command.
    assert_eq!(stdout(&o).lines().last(), Some("Done. Exiting..."), "{}", stdout(&o));
    let all = rows(&q.join("all.csv"));
    assert_eq!(all.len(), DISPATCHES);
    for (r, k) in all.iter().zip(&run.kernels) {
        assert_eq!((r["start"].parse::<u64>().unwrap(), r["end"].parse::<u64>().unwrap()), (k.1, k.2));
        assert_eq!(r["duration"], (k.2 - k.1).to_string());
    }
    rocpd(&["query", "-i", &db, "--query", sql, "--format", "csv", "-d", &qs, "-o", "late", "--start", "50%"]);
    let late: Vec<(u64, u64)> =
        rows(&q.join("late.csv")).iter().map(|r| (r["start"].parse().unwrap(), r["end"].parse().unwrap())).collect();
    assert_eq!(late, inside);

    let c = run.dir.join("convert");
    let o = rocpd(&["convert", "-i", &db, "-f", "csv", "-d", &c.to_string_lossy(), "--start", "50%"]);
    assert!(stdout(&o).starts_with("Converting database(s) to csv format:\n"), "{}", stdout(&o));
    let mut conv: Vec<(u64, u64)> = rows(&c.join("out_kernel_trace.csv"))
        .iter()
        .map(|r| (r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap()))
        .collect();
    conv.sort_unstable();
    assert_eq!(conv, inside);
}

#[test]
fn rocpd_query_script_defines_views_and_md_json_exports_have_every_row() {
    let Some(run) = profiled("rocpd-script") else { return };
    let db = run.db.to_string_lossy().into_owned();
    let script = run.dir.join("views.sql");
    std::fs::write(&script, "CREATE TEMPORARY VIEW long_kernels AS SELECT * FROM kernels WHERE duration > 0;").unwrap();
    let d = run.dir.join("q").to_string_lossy().into_owned();
    let sql = "SELECT name, duration FROM long_kernels ORDER BY start";
    for fmt in ["json", "md"] {
        rocpd(&["query", "-i", &db, "--script", &script.to_string_lossy(), "--query", sql, "--format", fmt, "-d", &d]);
    }
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(run.dir.join("q/out.json")).unwrap()).unwrap();
    let durations: Vec<u64> = json.as_array().unwrap().iter().map(|r| r["duration"].as_u64().unwrap()).collect();
    assert_eq!(durations, run.kernels.iter().map(|k| k.2 - k.1).collect::<Vec<_>>());
    let md = std::fs::read_to_string(run.dir.join("q/out.md")).unwrap();
    assert_eq!(md.lines().count(), 2 + DISPATCHES, "{md}");
    assert!(md.starts_with("| name | duration |\n|---|---|\n"), "{md}");
}

#[test]
fn rocpd_convert_kernel_rename_of_a_database_recorded_without_it_is_refused() {
    let Some(run) = profiled("rocpd-rename") else { return };
    let o = bin()
        .args(["rocpd", "convert", "-f", "csv", "--kernel-rename", "-d"])
        .arg(run.dir.join("c"))
        .arg("-i")
        .arg(&run.db)
        .output()
        .unwrap();
    crate::assert_one_line_error(&o, 2, "recorded without --kernel-rename");
}

#[test]
fn rocpd_version_and_no_command_behave_as_amds() {
    // AMD's rocpd: `-v` prints the build facts as `    {key:>16}: {value}` lines; no command
    // prints the help; both exit 0.
    let o = rocpd(&["-v"]);
    let out = stdout(&o);
    assert!(out.lines().count() >= 3 && out.lines().all(|l| l.find(": ") == Some(20)), "{out}");
    assert!(out.starts_with(&format!("{:>20}: ", "version")), "{out}");
    let o = rocpd(&[]);
    assert!(stdout(&o).contains("query") && stdout(&o).contains("convert"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("Done. Exiting..."));
}

#[test]
fn rocpd_query_email_is_refused_before_anything_is_read() {
    let dir = scratch("rocpd-email");
    let db = dir.join("missing.db");
    let o = bin()
        .args(["rocpd", "query", "--query", "SELECT 1", "--email-to", "a@b.c", "--email-from", "d@e.f", "-i"])
        .arg(&db)
        .output()
        .unwrap();
    crate::assert_one_line_error(&o, 2, "--email-to a@b.c: rocprof-rs does not send e-mail");
    let o = bin().args(["rocpd", "summary", "-f", "dashboard", "-i"]).arg(&db).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "summary has no dashboard format: {}", stderr(&o));
}

#[test]
fn rocpd_query_dashboard_wraps_every_row_in_amds_page_or_the_users_template() {
    let Some(run) = profiled("rocpd-dashboard") else { return };
    let db = run.db.to_string_lossy().into_owned();
    let d = run.dir.join("q").to_string_lossy().into_owned();
    let sql = "SELECT name, start, end FROM kernels ORDER BY start";
    rocpd(&["query", "-i", &db, "--query", sql, "--format", "dashboard", "-d", &d, "-o", "page"]);
    // AMD names the file after the format: <output>.dashboard.
    let page = std::fs::read_to_string(run.dir.join("q/page.dashboard")).unwrap();
    assert!(page.contains("<h1>SQLite Query Dashboard</h1>"), "{page}");
    assert!(page.contains("<table border=\"1\" class=\"dataframe dashboard-table\">"), "{page}");
    for (name, start, end) in &run.kernels {
        let row = format!(
            "<td>{}</td>\n      <td>{start}</td>\n      <td>{end}</td>",
            name.replace('<', "&lt;").replace('>', "&gt;")
        );
        assert!(page.contains(&row), "{row} in {page}");
    }
    // A Jinja2 template of the user's: substitutions, autoescape for *.html, `safe` unescaped.
    let tpl = run.dir.join("mine.html");
    std::fs::write(&tpl, "<title>{{ title }} & co</title>\n{{table_html|safe}}\n{{ table_html }}").unwrap();
    let tpl_s = tpl.to_string_lossy().into_owned();
    rocpd(&["query", "-i", &db, "--query", sql, "--format", "dashboard", "--template-path", &tpl_s, "-d", &d]);
    let mine = std::fs::read_to_string(run.dir.join("q/out.dashboard")).unwrap();
    let (head, rest) = mine.split_once('\n').unwrap();
    assert_eq!(head, "<title>SQLite Query Dashboard & co</title>");
    let (raw, escaped) = rest.split_once("</table>\n").unwrap();
    assert!(raw.starts_with("<table border=\"1\" class=\"dataframe dashboard-table\">"), "{raw}");
    assert_eq!(
        escaped,
        format!("{raw}</table>").replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&#34;")
    );
    // Statements it cannot render are refused, not written out wrong.
    std::fs::write(&tpl, "{% for r in rows %}{{ r }}{% endfor %}").unwrap();
    let o = bin()
        .args([
            "rocpd",
            "query",
            "-i",
            &db,
            "--query",
            sql,
            "--format",
            "dashboard",
            "--template-path",
            &tpl_s,
            "-d",
            &d,
        ])
        .output()
        .unwrap();
    crate::assert_one_line_error(&o, 1, "Jinja2 statements and comments");
}

#[test]
fn rocpd_query_clipboard_hands_the_indexed_table_to_xclip() {
    let Some(run) = profiled("rocpd-clipboard") else { return };
    let db = run.db.to_string_lossy().into_owned();
    // A stand-in xclip that records its arguments and what it was given.
    let bin_dir = run.dir.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let got = run.dir.join("clip.txt");
    let xclip = bin_dir.join("xclip");
    std::fs::write(&xclip, format!("#!/bin/sh\necho \"$@\" > {0}.args\ncat > {0}\n", got.display())).unwrap();
    std::fs::set_permissions(&xclip, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let sql = "SELECT start, end FROM kernels ORDER BY start";
    let run_clip = |display: Option<&str>| {
        let mut c = bin();
        c.args(["rocpd", "query", "-i", &db, "--query", sql, "--format", "clipboard"]);
        c.env("PATH", &path).env_remove("WAYLAND_DISPLAY").env_remove("DISPLAY");
        if let Some(d) = display {
            c.env("DISPLAY", d);
        }
        c.output().unwrap()
    };
    let o = run_clip(None);
    crate::assert_one_line_error(&o, 1, "neither DISPLAY nor WAYLAND_DISPLAY is set");
    let o = run_clip(Some(":0"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(format!("{}.args", got.display())).unwrap().trim(), "-selection clipboard");
    // pandas' to_string(): the row index first, then the columns.
    let text = std::fs::read_to_string(&got).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0], ["start", "end"]);
    assert_eq!(lines.len(), 1 + DISPATCHES);
    for (i, (l, k)) in lines[1..].iter().zip(&run.kernels).enumerate() {
        assert_eq!(l, &[i.to_string(), k.1.to_string(), k.2.to_string()]);
    }
}

/// A staged run of `roctx_threads 2 3` (ROCTx ranges, marks and thread names on 3 threads) with
/// marker, kernel and HSA tracing: its database and the rows of its own CSV traces.
pub(crate) struct MarkedRun {
    pub(crate) dir: PathBuf,
    pub(crate) db: String,
    /// (Function, Start_Timestamp, End_Timestamp) of every marker_api_trace.csv row.
    pub(crate) markers: Vec<(String, u64, u64)>,
    /// (Start_Timestamp, End_Timestamp) of every kernel_trace.csv row.
    pub(crate) kernels: Vec<(u64, u64)>,
    /// Function of every hsa_api_trace.csv row.
    pub(crate) hsa: Vec<String>,
}

pub(crate) fn marked(name: &str) -> Option<MarkedRun> {
    let stage = rocprof_test_inputs::stage("rocpd command test")?;
    let dir = scratch(name);
    let mut c = Command::new(stage.join("rocprof-rs"));
    for v in [names::INTERCEPT_LIB, names::SIM_LIB, names::PROBE, names::KEEP_CAPTURE] {
        c.env_remove(v);
    }
    let o = c
        .args(["--simulate", "gfx90a", "--marker-trace", "--kernel-trace", "--hsa-core-trace"])
        .args(["-f", "rocpd", "csv", "-o", "run", "-d"])
        .arg(dir.join("run"))
        .arg("--")
        .arg(stage.join("fixtures/roctx_threads"))
        .args(["2", "3"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let times = |r: &HashMap<String, String>| -> (u64, u64) {
        (r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap())
    };
    let run = dir.join("run");
    let markers = rows(&run.join("run_marker_api_trace.csv"))
        .iter()
        .map(|r| {
            let (s, e) = times(r);
            (r["Function"].clone(), s, e)
        })
        .collect();
    let kernels = rows(&run.join("run_kernel_trace.csv")).iter().map(times).collect();
    let hsa = rows(&run.join("run_hsa_api_trace.csv")).iter().map(|r| r["Function"].clone()).collect();
    Some(MarkedRun { db: run.join("run_results.db").to_string_lossy().into_owned(), dir, markers, kernels, hsa })
}

/// Rows of a CSV file, or none when the file was not written (nothing to write).
fn rows_or_none(path: &Path) -> Vec<HashMap<String, String>> {
    if path.exists() {
        rows(path)
    } else {
        Vec::new()
    }
}

#[test]
fn rocpd_convert_marker_window_runs_from_a_named_roctx_range_to_a_named_mark() {
    let Some(run) = marked("rocpd-marker-window") else { return };
    // AMD's time_window: the window runs from the start of the one marker named by
    // --start-marker to the start of the one named by --end-marker. "workers" is a process range
    // (a region), "started" a roctxMarkA (a sample), each made once by the main thread.
    let start_of = |name: &str| {
        let m: Vec<&(String, u64, u64)> = run.markers.iter().filter(|m| m.0 == name).collect();
        assert_eq!(m.len(), 1, "{name}: {:?}", run.markers);
        m[0].1
    };
    let (b, e) = (start_of("workers"), start_of("started"));
    assert!(b < e, "the range starts before the mark");
    let c = run.dir.join("c");
    let o = rocpd(&[
        "convert",
        "-i",
        &run.db,
        "-f",
        "csv",
        "-d",
        &c.to_string_lossy(),
        "--start-marker",
        "workers",
        "--end-marker",
        "started",
    ]);
    assert!(stderr(&o).contains(&format!("time window {b}..{e} ns")), "{}", stderr(&o));
    // Inclusive (AMD's default): what lies entirely inside [b, e], from the run's own CSVs.
    let mut want_k: Vec<(u64, u64)> = run.kernels.iter().filter(|k| k.0 >= b && k.1 <= e).copied().collect();
    let mut got_k: Vec<(u64, u64)> = rows_or_none(&c.join("out_kernel_trace.csv"))
        .iter()
        .map(|r| (r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap()))
        .collect();
    want_k.sort_unstable();
    got_k.sort_unstable();
    assert_eq!(got_k, want_k);
    let mut want_m: Vec<(String, u64, u64)> = run.markers.iter().filter(|m| m.1 >= b && m.2 <= e).cloned().collect();
    let mut got_m: Vec<(String, u64, u64)> = rows_or_none(&c.join("out_marker_api_trace.csv"))
        .iter()
        .map(|r| (r["Function"].clone(), r["Start_Timestamp"].parse().unwrap(), r["End_Timestamp"].parse().unwrap()))
        .collect();
    want_m.sort();
    got_m.sort();
    assert!(want_m.iter().any(|m| m.0 == "started"), "the end mark itself is inside: {want_m:?}");
    assert_eq!(got_m, want_m);
    // A name made more than once, and one never made, are refused with AMD's reasons.
    let refused = |start: &str, end: &str| {
        bin()
            .args(["rocpd", "convert", "-f", "csv", "-d"])
            .arg(run.dir.join("refused"))
            .args(["--start-marker", start, "--end-marker", end, "-i", &run.db])
            .output()
            .unwrap()
    };
    let o = refused("dispatch", "started");
    crate::assert_one_line_error(&o, 1, "multiple start markers found with name \"dispatch\"");
    let o = refused("workers", "never-made");
    crate::assert_one_line_error(&o, 1, "end marker \"never-made\" not found");
}

/// `Name -> Calls` of a summary written with `-f md`.
fn md_calls(path: &Path) -> HashMap<String, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cells = |l: &str| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect::<Vec<String>>();
    let mut lines = text.lines();
    let head = cells(lines.next().unwrap());
    let (name, calls) =
        (head.iter().position(|h| h == "Name").unwrap(), head.iter().position(|h| h == "Calls").unwrap());
    lines.skip(1).map(cells).map(|c| (c[name].clone(), c[calls].parse().unwrap())).collect()
}

#[test]
fn rocpd_summary_region_categories_choose_the_tables_and_count_every_call() {
    let Some(run) = marked("rocpd-region-categories") else { return };
    let count = |names: &mut dyn Iterator<Item = &String>| {
        let mut m: HashMap<String, u64> = HashMap::new();
        for n in names {
            *m.entry(n.clone()).or_default() += 1;
        }
        m
    };
    // No --region-categories: every region category gets its table.
    let all = run.dir.join("all");
    rocpd(&["summary", "-i", &run.db, "-f", "md", "-d", &all.to_string_lossy()]);
    assert_eq!(md_calls(&all.join("hsa_summary.md")), count(&mut run.hsa.iter()));
    assert!(all.join("markers_summary.md").exists());
    // MARKER only: the marker table (named by each call's message), no HSA table.
    let only = run.dir.join("markers");
    rocpd(&["summary", "-i", &run.db, "-f", "md", "--region-categories", "MARKER", "-d", &only.to_string_lossy()]);
    assert!(!only.join("hsa_summary.md").exists(), "HSA was not asked for");
    let got = md_calls(&only.join("markers_summary.md"));
    // Ranges and marks carry their message as Function in the CSV. "main" is also the main
    // thread's roctxNameOsThread message (its CSV Function is roctxNameOsThread), so it is left out.
    let ranges_and_marks = count(&mut run.markers.iter().map(|m| &m.0).filter(|f| *f != "roctxNameOsThread"));
    assert!(ranges_and_marks.len() >= 6, "{ranges_and_marks:?}");
    for (name, calls) in ranges_and_marks.iter().filter(|(n, _)| *n != "main") {
        assert_eq!(got.get(name), Some(calls), "{name}: {got:?}");
    }
    // HSA only, as html: the HSA table, no marker table.
    let hsa = run.dir.join("hsa");
    rocpd(&["summary", "-i", &run.db, "-f", "html", "--region-categories", "HSA", "-d", &hsa.to_string_lossy()]);
    assert!(hsa.join("hsa_summary.html").exists() && !hsa.join("markers_summary.html").exists());
}
