//! `rocprof-rs diff`, `summary`, `merge` and `-v` as a CI job calls them: exit statuses, the one
//! error line for bad inputs, the report files. Databases come from the writers' synthetic traces
//! (`rocprof_writers::synthetic::rocpd_throughput`), so no staged artifacts are needed.

use std::path::{Path, PathBuf};

use crate::{assert_one_line_error, bin, scratch, stdout};

/// A synthetic run database of `n` dispatches in `dir/<name>/`.
fn db(dir: &Path, name: &str, n: u64) -> PathBuf {
    rocprof_writers::synthetic::rocpd_throughput(n, &dir.join(name)).unwrap().path
}

#[test]
fn diff_of_identical_runs_passes_and_writes_every_report() {
    let dir = scratch("sub-diff");
    let (a, b) = (db(&dir, "a", 400), db(&dir, "b", 400));
    let (md, xml, json) = (dir.join("out/d.md"), dir.join("out/d.xml"), dir.join("out/d.json"));
    let o = bin()
        .args(["diff", "--base"])
        .arg(&a)
        .arg("--head")
        .arg(&b)
        .arg("--markdown")
        .arg(&md)
        .arg("--junit")
        .arg(&xml)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", crate::stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("rocprof-rs diff: base 1 run(s), head 1 run(s)"), "{out}");
    assert!(out.ends_with("4 unchanged: PASS (exit 0)\n"), "{out}");
    assert!(!out.contains('\x1b'), "no colours on a pipe: {out}");
    assert!(std::fs::read_to_string(&md)
        .unwrap()
        .starts_with("## rocprof-rs performance diff: :white_check_mark: no regression"));
    assert!(std::fs::read_to_string(&xml)
        .unwrap()
        .contains("<testsuite name=\"rocprof-rs diff\" tests=\"4\" failures=\"0\""));
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"verdict\": \"pass\""));
}

#[test]
fn bad_diff_inputs_exit_2_with_one_line() {
    let dir = scratch("sub-diff-bad");
    let good = db(&dir, "g", 100);
    let text = dir.join("notes.db");
    std::fs::write(&text, "not a database at all\n".repeat(50)).unwrap();
    let empty = dir.join("empty.db");
    std::fs::write(&empty, "").unwrap();
    let diff = |base: &Path, head: &Path, extra: &[&str]| {
        bin().args(["diff", "--base"]).arg(base).arg("--head").arg(head).args(extra).output().unwrap()
    };
    assert_one_line_error(&diff(&good, &dir.join("missing.db"), &[]), 2, "missing.db: no such file or directory");
    assert_one_line_error(&diff(&text, &good, &[]), 2, "notes.db: not a rocpd database (not an SQLite file)");
    assert_one_line_error(&diff(&good, &empty, &[]), 2, "empty.db: not a rocpd database (an empty file)");
    assert_one_line_error(&diff(&good, &good, &["--alpha", "2"]), 2, "--alpha must be between 0 and 1, got 2");
    assert_one_line_error(
        &diff(&good, &good, &["--kernel-include-regex", "("]),
        2,
        "--kernel-include-regex: invalid regular expression '('",
    );
    assert_one_line_error(&diff(&good, &good, &["--metric", "p99"]), 2, "invalid value 'p99' for '--metric <METRIC>'");
    let o = bin().args(["diff", "--base"]).arg(&good).output().unwrap();
    assert_one_line_error(&o, 2, "the following required arguments were not provided: --head <DB>...");
    let nodb = dir.join("nothing-here");
    std::fs::create_dir_all(&nodb).unwrap();
    assert_one_line_error(&diff(&good, &nodb, &[]), 2, "nothing-here: no rocpd databases (*.db) in this directory");
}

#[test]
fn summary_prints_the_dash_s_table_and_merge_keeps_every_dispatch() {
    let dir = scratch("sub-summary");
    let (a, b) = (db(&dir, "a", 300), db(&dir, "b", 200));
    let o = bin().arg("summary").arg(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("\n    ROCPROFV3 SUMMARY:\n"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("| KERNEL_DISPATCH |")).count(), 4, "{out}");
    let merged = dir.join("m/merged.db");
    let o = bin().arg("merge").arg(&a).arg(&b).arg("-o").arg(&merged).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", crate::stderr(&o));
    assert!(crate::stderr(&o).contains("500 kernel dispatches"), "{}", crate::stderr(&o));
    let o = bin().args(["summary", "-D", "-u", "usec"]).arg(&merged).output().unwrap();
    let out = stdout(&o);
    assert!(out.contains("ROCPROFV3 KERNEL_DISPATCH SUMMARY:") && out.contains("DURATION (usec)"), "{out}");
    let calls: u64 = out
        .lines()
        .filter(|l| l.contains("| KERNEL_DISPATCH |"))
        .map(|l| l.split('|').nth(3).unwrap().trim().parse::<u64>().unwrap())
        .sum();
    assert_eq!(calls, 500);
    assert_one_line_error(
        &bin().args(["summary", "nope.db"]).output().unwrap(),
        2,
        "nope.db: no such file or directory",
    );
    assert_one_line_error(&bin().args(["merge"]).arg(&a).output().unwrap(), 2, "--output <OUT.db>");
}

#[test]
fn version_prints_rocprofv3s_keys() {
    for flag in ["-v", "--version"] {
        let o = bin().arg(flag).output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(out.starts_with(&format!("             version: {}\n", env!("CARGO_PKG_VERSION"))), "{out}");
        assert!(out.contains("\n        git_revision: "), "{out}");
        assert_eq!(out.lines().count(), 9, "{out}");
    }
}

/// `avail list --pc-sampling` prints each GPU's configurations as rocprofv3-avail's `info --pc-sampling`
/// does (the layout of rocprofiler-sdk's `docs/data/list-avail.txt`: `GPU     :\t0`, `Name    :\tgfx90a`,
/// `configs :`, keys padded to 20 then `:\t`, `host_trap`/`time`, Flags `none`; stochastic's unit is
/// `cycle` and its flag `interval pow2`, `avail.py`'s names), skipping a GPU without configurations.
#[test]
fn avail_lists_pc_sampling_configurations_as_rocprofv3_avail_prints_them() {
    let o = bin().args(["avail", "--simulate", "gfx90a,gfx1100,gfx942", "list", "--pc-sampling"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", crate::stderr(&o));
    let host_trap =
        "   Method              :\thost_trap\n   Unit                :\ttime\n   Min_Interval        :\t1\n   \
                     Max_Interval        :\t1000000\n   Flags               :\tnone\n\n\n\n";
    let stochastic =
        "   Method              :\tstochastic\n   Unit                :\tcycle\n   Min_Interval        :\t256\n   \
                      Max_Interval        :\t2147483648\n   Flags               :\tinterval pow2\n\n\n\n";
    let want = format!(
        "GPU     :\t0\nName    :\tgfx90a\nconfigs :\n{host_trap}\n\nGPU     :\t2\nName    :\tgfx942\nconfigs :\n{host_trap}{stochastic}\n\n"
    );
    assert_eq!(stdout(&o), want);
}
