//! Issue 12: the CI performance-regression workflow end to end on hsa-sim. Base and head "builds"
//! are the `kernel_mix` fixture (three kernels per round), head with one kernel slowed down by
//! `ROCPROF_RS_SIM_KERNEL_SCALE`; every run has 5% log-normal noise (`ROCPROF_RS_SIM_JITTER`) with
//! its own seed. Then `rocprof-rs diff` over the databases, as a pipeline runs it. Plus `summary`
//! against `-S`, and the runs CI jobs make: a forking application and a 4-rank MPI launch.

use rocprof_launch::names;
use std::path::{Path, PathBuf};

use rocprof_e2e::{db_kernels, find_files, profile, run, scratch, Run, ScratchGuard, Stage};

/// Rounds of `kernel_mix` per run: 3 runs x 30 = 90 dispatches of each kernel per side.
const ROUNDS: &str = "30";

/// `runs` profiled runs of kernel_mix into `dir/run<i>_results.db`, seeds `seed0 + i`.
fn runs(stage: &Stage, app: &Path, dir: &Path, runs: u64, seed0: u64, scale: Option<&str>) -> Vec<PathBuf> {
    let d = dir.display().to_string();
    (0..runs)
        .map(|i| {
            let mut env = vec![
                (names::SIM_JITTER.to_string(), "0.05".to_string()),
                (names::SIM_SEED.to_string(), (seed0 + i).to_string()),
            ];
            if let Some(s) = scale {
                env.push((names::SIM_KERNEL_SCALE.into(), s.into()));
            }
            let prefix = format!("run{i}");
            let r = profile(
                stage,
                &["--simulate", "gfx942", "--kernel-trace", "-d", &d, "-o", &prefix],
                app,
                &[ROUNDS],
                &env,
            );
            assert!(r.status.success(), "{}", r.transcript());
            dir.join(format!("{prefix}_results.db"))
        })
        .collect()
}

fn diff(stage: &Stage, base: &[PathBuf], head: &[PathBuf], extra: &[&str]) -> Run {
    let mut args: Vec<String> = vec!["diff".into(), "--color".into(), "never".into(), "--base".into()];
    args.extend(base.iter().map(|p| p.display().to_string()));
    args.push("--head".into());
    args.extend(head.iter().map(|p| p.display().to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&stage.cli(), &args, &[])
}

#[test]
fn a_ten_percent_slower_kernel_fails_the_diff_and_is_the_only_one_named() {
    let test = "a_ten_percent_slower_kernel_fails_the_diff_and_is_the_only_one_named";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let dir = scratch("ci-diff-10");
    let _guard = ScratchGuard(dir.clone());
    let base = runs(&stage, &app, &dir.join("base"), 3, 1, None);
    let head = runs(&stage, &app, &dir.join("head"), 3, 101, Some("saxpy=1.1"));
    let (md, junit, json) = (dir.join("r/diff.md"), dir.join("r/diff.xml"), dir.join("r/diff.json"));
    let r = diff(
        &stage,
        &base,
        &head,
        &[
            "--markdown",
            &md.display().to_string(),
            "--junit",
            &junit.display().to_string(),
            "--json",
            &json.display().to_string(),
        ],
    );
    assert_eq!(r.status.code(), Some(1), "{}", r.transcript());
    // The table: exactly one REGRESSION row, saxpy's; vector_add and fill unchanged.
    let regress: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("REGRESSION")).collect();
    assert_eq!(regress.len(), 1, "{}", r.stdout);
    assert!(regress[0].split_whitespace().nth(2) == Some("saxpy"), "{}", r.stdout);
    for k in ["vector_add", "fill"] {
        assert!(r.stdout.lines().any(|l| l.starts_with("unchanged") && l.contains(k)), "{k}: {}", r.stdout);
    }
    assert!(r.stdout.ends_with("1 regression, 2 unchanged: FAIL (exit 1)\n"), "{}", r.stdout);
    // The markdown: the verdict and saxpy as the only regression row.
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.starts_with("## rocprof-rs performance diff: :x: 1 regression"), "{md}");
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| :red_circle: regression")).collect();
    assert!(!rows.is_empty() && rows.iter().all(|l| l.contains("| `saxpy` |")), "{md}");
    // The JUnit file: well-formed, one test case per item, one failure: saxpy.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 3, "{xml}");
    let failed: Vec<&str> = cases
        .iter()
        .filter(|c| c.children().any(|ch| ch.has_tag_name("failure")))
        .map(|c| c.attribute("name").unwrap())
        .collect();
    assert_eq!(failed, ["saxpy"], "{xml}");
    // The JSON: the change is about +10% with an interval around it.
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let item = &v["items"][0];
    assert_eq!((item["name"].as_str(), item["status"].as_str()), (Some("saxpy"), Some("regression")));
    let change = item["change_percent"].as_f64().unwrap();
    assert!((6.0..14.0).contains(&change), "{change}");
    assert_eq!(item["base"]["samples"], 90);
    assert_eq!(v["exit_status"], 1);
}

/// The fraction of base-vs-base comparisons that fail is what a CI user cares about; the
/// note on the issue states the measured rate.
#[test]
fn base_against_base_passes_in_at_least_19_of_20_and_a_two_percent_slowdown_passes() {
    let test = "base_against_base_passes_in_at_least_19_of_20_and_a_two_percent_slowdown_passes";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let dir = scratch("ci-diff-aa");
    let _guard = ScratchGuard(dir.clone());
    // 20 independent comparisons of 3 runs against 3 other runs of the same build.
    let pool = runs(&stage, &app, &dir.join("pool"), 120, 1000, None);
    let mut failed = Vec::new();
    let mut raw_significant = 0;
    let mut tested = 0;
    for c in 0..20 {
        let json = dir.join(format!("aa{c}.json"));
        let r = diff(
            &stage,
            &pool[6 * c..6 * c + 3],
            &pool[6 * c + 3..6 * c + 6],
            &["--json", &json.display().to_string()],
        );
        assert!(matches!(r.status.code(), Some(0 | 1)), "{}", r.transcript());
        if r.status.code() == Some(1) {
            failed.push(r.stdout.clone());
        }
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        for item in v["items"].as_array().unwrap() {
            tested += 1;
            raw_significant += usize::from(item["p_value"].as_f64().is_some_and(|p| p < 0.05));
        }
    }
    eprintln!(
        "issue 12: base vs base: {} of 20 comparisons failed (false-positive rate {:.0}%); unadjusted p < 0.05 in {raw_significant} of {tested} kernel comparisons",
        failed.len(),
        failed.len() as f64 * 5.0
    );
    assert!(failed.len() <= 1, "{} of 20 base-vs-base comparisons failed:\n{}", failed.len(), failed.join("\n"));

    // A real but small change (2%) with the default threshold of 5% passes.
    let base = &pool[..3];
    let head = runs(&stage, &app, &dir.join("head2"), 3, 2000, Some("saxpy=1.02"));
    let r = diff(&stage, base, &head, &["--threshold", "5"]);
    assert_eq!(r.status.code(), Some(0), "{}", r.transcript());
    assert!(r.stdout.ends_with("3 unchanged: PASS (exit 0)\n"), "{}", r.stdout);
}

#[test]
fn summary_of_a_database_prints_the_table_dash_s_printed() {
    let test = "summary_of_a_database_prints_the_table_dash_s_printed";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let dir = scratch("ci-summary");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    let env = [(names::SIM_JITTER.to_string(), "0.05".to_string())];
    let r = profile(&stage, &["--simulate", "gfx942", "--kernel-trace", "-S", "-d", &d, "-o", "s"], &app, &["7"], &env);
    assert!(r.status.success(), "{}", r.transcript());
    let table = |text: &str| -> String {
        let start = text.find("\n    ROCPROFV3 SUMMARY:").unwrap_or_else(|| panic!("no summary in:\n{text}"));
        let rest = &text[start..];
        let end = rest.find("|\n\n").map(|e| e + 3).unwrap_or(rest.len());
        rest[..end].to_string()
    };
    let printed = table(&r.stdout);
    let s = run(&stage.cli(), &["summary", &dir.join("s_results.db").display().to_string()], &[]);
    assert!(s.status.success(), "{}", s.transcript());
    assert_eq!(table(&s.stdout), printed);
    assert!(printed.contains("| saxpy ") && printed.contains("|               7 |"), "{printed}");
}

/// Dispatch count per process id of every database under `dir`.
fn dispatches_by_pid(dir: &Path) -> Vec<(u64, usize)> {
    let mut v: Vec<(u64, usize)> = find_files(dir, "_results.db")
        .iter()
        .map(|db| {
            let conn = rusqlite::Connection::open(db).unwrap();
            let pid: u64 = conn.query_row("SELECT pid FROM rocpd_info_process", [], |r| r.get(0)).unwrap();
            (pid, db_kernels(db).len())
        })
        .collect();
    v.sort();
    v
}

/// `rocprof-rs merge` of every database under `dir`, then `summary` of the result: the calls of
/// vector_add.
fn merged_calls(stage: &Stage, dir: &Path) -> String {
    let merged = dir.join("merged.db");
    let m = run(&stage.cli(), &["merge", &dir.display().to_string(), "-o", &merged.display().to_string()], &[]);
    assert!(m.status.success(), "{}", m.transcript());
    let s = run(&stage.cli(), &["summary", &merged.display().to_string()], &[]);
    assert!(s.status.success(), "{}", s.transcript());
    let line =
        s.stdout.lines().find(|l| l.contains("| vector_add ")).unwrap_or_else(|| panic!("{}", s.stdout)).to_string();
    line.split('|').nth(3).unwrap().trim().to_string()
}

#[test]
fn forked_and_execed_children_each_get_a_database_with_all_their_dispatches() {
    let test = "forked_and_execed_children_each_get_a_database_with_all_their_dispatches";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("fork_exec", test) else { return };
    let dir = scratch("ci-fork");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    let r =
        profile(&stage, &["--simulate", "gfx942", "--kernel-trace", "-d", &d, "-o", "%pid%"], &app, &["3", "10"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    let found = dispatches_by_pid(&dir);
    // The parent (lowest pid, it forks the others) ran 10; children 10, 11 and 12.
    let mut counts: Vec<usize> = found.iter().map(|(_, n)| *n).collect();
    counts.sort();
    assert_eq!(counts, [10, 10, 11, 12], "{found:?}\n{}", r.transcript());
    for (pid, _) in &found {
        assert!(dir.join(format!("{pid}_results.db")).is_file(), "named by %pid%: {found:?}");
    }
    assert_eq!(merged_calls(&stage, &dir), "43");
}

#[test]
fn a_four_rank_mpi_launch_gives_one_database_per_rank() {
    let test = "a_four_rank_mpi_launch_gives_one_database_per_rank";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let Some(mpirun) = rocprof_test_inputs::program(test, "mpirun", "openmpi-bin") else { return };
    let dir = scratch("ci-mpi");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    let cli = stage.cli().display().to_string();
    let app = app.display().to_string();
    let args = [
        "--allow-run-as-root",
        "--oversubscribe",
        "-np",
        "4",
        &cli,
        "--simulate",
        "gfx942",
        "--kernel-trace",
        "-d",
        &d,
        "-o",
        "rank%rank%_of_%size%",
        "--",
        &app,
        "20",
    ];
    // Open MPI refuses to start as root without both of these in some versions.
    let env = [
        ("OMPI_ALLOW_RUN_AS_ROOT".to_string(), "1".to_string()),
        ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM".to_string(), "1".to_string()),
    ];
    let r = run(&mpirun, &args, &env);
    assert!(r.status.success(), "{}", r.transcript());
    for rank in 0..4 {
        let db = dir.join(format!("rank{rank}_of_4_results.db"));
        assert!(db.is_file(), "{} missing:\n{}", db.display(), r.transcript());
        assert_eq!(db_kernels(&db).len(), 20, "rank {rank}");
    }
    assert_eq!(find_files(&dir, "_results.db").len(), 4);
    assert_eq!(merged_calls(&stage, &dir), "80");
}

#[test]
fn rank_and_size_come_from_open_mpi_mpich_and_slurm_variables() {
    let test = "rank_and_size_come_from_open_mpi_mpich_and_slurm_variables";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let dir = scratch("ci-rank");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    let cases: [(&[(&str, &str)], &str); 3] = [
        (&[("OMPI_COMM_WORLD_RANK", "1"), ("OMPI_COMM_WORLD_SIZE", "2")], "r1_of_2"),
        // MPICH's Hydra also sets the node-local MPI_LOCALRANKID, which must not win.
        (&[("PMI_RANK", "2"), ("PMI_SIZE", "4"), ("MPI_LOCALRANKID", "0"), ("MPI_LOCALNRANKS", "1")], "r2_of_4"),
        (&[("SLURM_PROCID", "3"), ("SLURM_NTASKS", "8")], "r3_of_8"),
    ];
    for (vars, name) in cases {
        let env: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let r = profile(
            &stage,
            &["--simulate", "gfx942", "--kernel-trace", "-d", &d, "-o", "r%rank%_of_%size%"],
            &app,
            &["3"],
            &env,
        );
        assert!(r.status.success(), "{}", r.transcript());
        assert!(dir.join(format!("{name}_results.db")).is_file(), "{name}: {:?}", find_files(&dir, ".db"));
    }
}

#[test]
fn collection_period_keeps_only_dispatches_inside_its_windows() {
    let test = "collection_period_keeps_only_dispatches_inside_its_windows";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let dir = scratch("ci-period");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    // Kernels of about 9 ms (time scale 4000), 30 of them back to back: about 280 ms of GPU time,
    // of which the window 100..200 ms after the start of profiling sees about a third.
    let env = [(names::SIM_TIME_SCALE.to_string(), "4000".to_string())];
    let r = profile(
        &stage,
        &[
            "--simulate",
            "gfx942",
            "--kernel-trace",
            "--log-level",
            "info",
            "-P",
            "100:100:0",
            "--collection-period-unit",
            "msec",
            "-d",
            &d,
            "-o",
            "p",
        ],
        &app,
        &["10"],
        &env,
    );
    assert!(r.status.success(), "{}", r.transcript());
    // The library pauses collection outside the windows, so most dispatches outside them are never
    // recorded; those recorded at a window's edge are cut at write time and reported as left out.
    let left_out: u64 = r
        .stderr
        .lines()
        .find_map(|l| {
            l.split("records outside the --collection-period windows")
                .next()
                .filter(|_| l.contains("windows were left out"))
        })
        .and_then(|l| l.rsplit(' ').nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0);
    let db = dir.join("p_results.db");
    let kept = if db.is_file() {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let init: u64 = conn.query_row("SELECT init FROM rocpd_info_process", [], |r| r.get(0)).unwrap();
        let starts: Vec<u64> = db_kernels(&db).iter().map(|k| k.start).collect();
        for s in &starts {
            assert!(
                (100_000_000..200_000_000).contains(&(s - init)),
                "dispatch at +{} ns is outside the window",
                s - init
            );
        }
        starts.len() as u64
    } else {
        0
    };
    assert!(kept + left_out <= 30, "{}", r.transcript());
    assert!(kept <= 15, "a 100 ms window cannot hold 280 ms of kernels: kept {kept}\n{}", r.transcript());
}

#[test]
fn minimum_output_data_writes_nothing_below_the_threshold() {
    let test = "minimum_output_data_writes_nothing_below_the_threshold";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let dir = scratch("ci-minimum");
    let _guard = ScratchGuard(dir.clone());
    let d = dir.display().to_string();
    let args = |prefix: &'static str| -> Vec<&'static str> {
        vec!["--simulate", "gfx942", "--kernel-trace", "--minimum-output-data", "1", "-f", "rocpd", "csv", "-o", prefix]
    };
    let mut small = args("small");
    small.extend(["-d", &d]);
    let r = profile(&stage, &small, &app, &["1"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    assert!(
        find_files(&dir, "").iter().all(|f| !f.display().to_string().contains("small")),
        "{:?}",
        find_files(&dir, "")
    );
    let mut big = args("big");
    big.extend(["-d", &d]);
    let r = profile(&stage, &big, &app, &["50"], &[]);
    assert!(r.status.success(), "{}", r.transcript());
    assert_eq!(db_kernels(&dir.join("big_results.db")).len(), 150);
    assert!(dir.join("big_kernel_trace.csv").is_file());
}

#[test]
fn the_example_ci_script_passes_equal_builds_and_fails_a_slower_head() {
    let test = "the_example_ci_script_passes_equal_builds_and_fails_a_slower_head";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("kernel_mix", test) else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/ci/perf-regression.sh");
    let dir = scratch("ci-script");
    let _guard = ScratchGuard(dir.clone());
    let app = app.display().to_string();
    let base_env = |out: &str| -> Vec<(String, String)> {
        [
            ("ROCPROF_RS", stage.cli().display().to_string()),
            ("SIMULATE", "gfx942".into()),
            ("RUNS", "3".into()),
            ("OUT", dir.join(out).display().to_string()),
            (names::SIM_JITTER, "0.05".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    };
    let r = run(Path::new("bash"), &[&script.display().to_string(), &app, &app, "20"], &base_env("same"));
    assert_eq!(r.status.code(), Some(0), "{}", r.transcript());
    let mut env = base_env("slower");
    env.push(("HEAD_ENV".into(), format!("{}=saxpy=1.1", names::SIM_KERNEL_SCALE)));
    let r = run(Path::new("bash"), &[&script.display().to_string(), &app, &app, "20"], &env);
    assert_eq!(r.status.code(), Some(1), "{}", r.transcript());
    let md = std::fs::read_to_string(dir.join("slower/diff.md")).unwrap();
    assert!(md.contains("| :red_circle: regression | kernel | `saxpy` |"), "{md}");
    for f in ["diff.xml", "diff.json"] {
        assert!(dir.join("slower").join(f).is_file(), "{f}");
    }
    assert_eq!(find_files(&dir.join("slower/head"), "_results.db").len(), 3);
}
