//! Checks shared by several tests: one profiled run of a fixture and the consistency of its
//! kernel rows across `kernel_trace.csv`, the rocpd database and the application's own output.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_e2e::{db_kernels, find_one, profile, read_csv, scratch, Csv, DbKernel, Run, ScratchGuard, Stage};
use rocprof_test_inputs::sid;

/// The Debian sid chroot with ROCm 6.4 (`cargo xtask sid`, `$ROCPROF_RS_SID_ROOT`), or `None`
/// after printing why the caller skips (a failure under `CI=true`, where `cargo xtask test` builds it).
#[track_caller]
pub(crate) fn sid_root(test: &str) -> Option<PathBuf> {
    let root = sid::root();
    if sid::is_complete(&root) {
        return Some(root);
    }
    rocprof_test_inputs::skip_or_fail(
        test,
        format_args!(
            "no complete sid chroot at {} (ROCPROF_RS_SID_ROOT; build it: sudo cargo xtask sid)",
            root.display()
        ),
    );
    None
}

/// A HIP 6.4 fixture (`fixtures/hip6/<name>.cpp`, built by `cargo xtask build` with the chroot's
/// hipcc 7 for gfx90a, gfx942, gfx1100 and gfx1201), or `None` after printing why the caller skips.
/// With the chroot present, a missing program is a failure.
#[track_caller]
pub(crate) fn hip6_fixture(stage: &Stage, name: &str, test: &str) -> Option<(PathBuf, PathBuf)> {
    let root = sid_root(test)?;
    let p = stage.dir.join("fixtures").join("hip6").join(name);
    assert!(
        p.is_file(),
        "{test}: {} is not staged although the sid chroot exists; run `cargo xtask build`",
        p.display()
    );
    Some((root, p))
}

/// A command that runs the host program `program` (under the stage, the workspace or /tmp) inside
/// the sid chroot `root`, with the stage first on `LD_LIBRARY_PATH` so that HIP 6.4 loads hsa-sim,
/// not sid's ROCr. Add arguments and environment (`ROCPROF_RS_SIM_AGENTS`) to it as to any command.
pub(crate) fn sid_command(stage: &Stage, root: &Path, program: &Path) -> Command {
    let mut cmd = sid::command(root, &[&stage.dir], program);
    cmd.env("LD_LIBRARY_PATH", &stage.dir);
    cmd
}

/// A profiled run and where its outputs went.
pub(crate) struct Profiled {
    pub(crate) run: Run,
    pub(crate) out: PathBuf,
    _cleanup: ScratchGuard,
}

impl Profiled {
    /// A run whose outputs went to `out` (removed when dropped).
    pub(crate) fn new(run: Run, out: PathBuf) -> Profiled {
        Profiled { run, _cleanup: ScratchGuard(out.clone()), out }
    }
}

/// `rocprof-rs --simulate <gpus> --kernel-trace --stats -f rocpd csv -d OUT -- app args`.
pub(crate) fn kernel_trace(stage: &Stage, gpus: &str, app: &Path, args: &[&str], env: &[(String, String)]) -> Profiled {
    let out = scratch("out");
    let out_s = out.display().to_string();
    let run = profile(
        stage,
        &["--simulate", gpus, "--kernel-trace", "--stats", "-f", "rocpd", "csv", "-d", &out_s],
        app,
        args,
        env,
    );
    Profiled { run, _cleanup: ScratchGuard(out.clone()), out }
}

/// The `(work-items, workgroup)` sizes `vector_add` reports on stdout.
pub(crate) fn vector_add_sizes(stdout: &str) -> (u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.contains("dispatches completed"))
        .unwrap_or_else(|| panic!("no summary line in:\n{stdout}"));
    let num_before = |marker: &str| -> u64 {
        let i = line.find(marker).unwrap_or_else(|| panic!("no `{marker}` in {line}"));
        line[..i].split(|c: char| !c.is_ascii_digit()).rfind(|s| !s.is_empty()).unwrap().parse().unwrap()
    };
    let wg_marker = "workgroups of ";
    let wg_start = line.find(wg_marker).expect("workgroup size") + wg_marker.len();
    let wg: u64 = line[wg_start..].chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().unwrap();
    (num_before(" work-items each"), wg)
}

fn num(row: &HashMap<String, String>, col: &str) -> u64 {
    row.get(col)
        .unwrap_or_else(|| panic!("no column {col}"))
        .parse()
        .unwrap_or_else(|_| panic!("{col} = {:?}", row[col]))
}

/// The kernel rows of a run, checked for internal consistency: CSV and rocpd agree one for one
/// (dispatch ids, names, sizes, timestamps), and per queue the dispatches do not overlap and
/// their timestamps increase. Returns the CSV rows sorted by dispatch id.
pub(crate) fn consistent_kernel_rows(p: &Profiled) -> (Csv, Vec<DbKernel>) {
    assert!(p.run.status.success(), "profiled run failed:\n{}", p.run.transcript());
    let csv = read_csv(&find_one(&p.out, "kernel_trace.csv"));
    let db = db_kernels(&find_one(&p.out, ".db"));
    assert_eq!(csv.rows.len(), db.len(), "CSV and rocpd disagree on the number of dispatches");
    let mut rows = csv.rows.clone();
    rows.sort_by_key(|r| num(r, "Dispatch_Id"));
    for (r, k) in rows.iter().zip(&db) {
        assert_eq!(num(r, "Dispatch_Id"), k.dispatch_id);
        assert_eq!(r["Kernel_Name"], k.name, "dispatch {}", k.dispatch_id);
        assert_eq!([num(r, "Grid_Size_X"), num(r, "Grid_Size_Y"), num(r, "Grid_Size_Z")], k.grid);
        assert_eq!([num(r, "Workgroup_Size_X"), num(r, "Workgroup_Size_Y"), num(r, "Workgroup_Size_Z")], k.workgroup);
        assert_eq!(
            (num(r, "Start_Timestamp"), num(r, "End_Timestamp")),
            (k.start, k.end),
            "dispatch {}",
            k.dispatch_id
        );
        assert!(k.start > 0 && k.end > k.start, "dispatch {} has start {} end {}", k.dispatch_id, k.start, k.end);
    }
    let ids: Vec<u64> = db.iter().map(|k| k.dispatch_id).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "dispatch ids repeat");
    let mut by_queue: HashMap<u64, Vec<&DbKernel>> = HashMap::new();
    for k in &db {
        by_queue.entry(k.queue_id).or_default().push(k);
    }
    for (q, ks) in by_queue {
        for w in ks.windows(2) {
            assert!(
                w[1].start >= w[0].end,
                "queue {q}: dispatch {} [{}, {}] overlaps dispatch {} [{}, {}]",
                w[1].dispatch_id,
                w[1].start,
                w[1].end,
                w[0].dispatch_id,
                w[0].start,
                w[0].end
            );
        }
    }
    let rows = Csv { header: csv.header, rows };
    (rows, db)
}
