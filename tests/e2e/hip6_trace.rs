//! HIP 6.x API tracing end to end on Debian sid's HIP 6.4 (`libamdhip64.so.6`, which offers only
//! roctracer's `hipRegisterTracerCallback`): `hip6_api_trace` (built by sid's hipcc 7, run inside
//! the sid chroot on hsa-sim) under `rocprof-rs --sys-trace` gets one HIP row per call it counted,
//! its kernels carry the ids of the `hipLaunchKernel` calls that issued them, on their streams, the
//! arguments in rocpd are the ones the program passed, calls made after `main` returned (from a
//! static destructor, after the thread-local destructors ran) are recorded too, and AMD's rocpd
//! reader reads the database. Plus the pin: the argument layout the interception library reads is
//! the installed header's.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use rocprof_e2e::{find_one, read_csv, run_command, scratch, Csv, Run, ScratchGuard};

use crate::common::{hip6_fixture, sid_command, sid_root};
use crate::hip::counts;

const ITERATIONS: u64 = 3;
/// `BYTES` of `hip6_api_trace.cpp` (4096 floats).
const BYTES: u64 = 4096 * 4;

type Row = HashMap<String, String>;

fn num(row: &Row, col: &str) -> u64 {
    row[col].parse().unwrap_or_else(|_| panic!("{col} = {:?} in {row:?}", row[col]))
}

/// Rows per `Function` value.
fn by_function(csv: &Csv) -> BTreeMap<String, Vec<&Row>> {
    let mut m: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in &csv.rows {
        m.entry(r["Function"].clone()).or_default().push(r);
    }
    m
}

/// The value the program printed for `key` on its `streams:` line (`1=0x...`), as a number.
fn stream_printed(stdout: &str, key: &str) -> u64 {
    let line = stdout.lines().find_map(|l| l.strip_prefix("streams:")).expect("a streams: line");
    let v = line.split_whitespace().find_map(|kv| kv.strip_prefix(&format!("{key}="))).expect("stream key");
    u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("stream {v}"))
}

struct Traced {
    run: Run,
    out: PathBuf,
    _cleanup: ScratchGuard,
}

impl Traced {
    fn csv(&self, suffix: &str) -> Csv {
        read_csv(&find_one(&self.out, suffix))
    }
}

/// `rocprof-rs --simulate gfx942 --sys-trace -f csv rocpd pftrace -d OUT -- hip6_api_trace N`
/// inside the sid chroot.
fn sys_trace(test: &str) -> Option<Traced> {
    let stage = rocprof_e2e::stage(test)?;
    let (root, app) = hip6_fixture(&stage, "hip6_api_trace", test)?;
    let out = scratch("hip6-trace");
    let mut cmd = sid_command(&stage, &root, &stage.cli());
    cmd.args(["--simulate", "gfx942", "--sys-trace", "-f", "csv", "rocpd", "pftrace", "-d"])
        .arg(&out)
        .args(["-o", "run", "--"])
        .arg(&app)
        .arg(ITERATIONS.to_string());
    let run = run_command(cmd);
    Some(Traced { run, _cleanup: ScratchGuard(out.clone()), out })
}

#[test]
fn sys_trace_of_a_hip_6_4_program_has_a_row_per_hip_call_and_kernels_carry_their_launch_ids() {
    let test = "sys_trace_of_a_hip_6_4_program_has_a_row_per_hip_call_and_kernels_carry_their_launch_ids";
    let Some(t) = sys_trace(test) else { return };
    let transcript = t.run.transcript();
    assert!(t.run.status.success(), "{transcript}");
    assert!(t.run.stdout.contains("hip6_api_trace: ok"), "the program's own check:\n{transcript}");
    for bad in ["panicked", "internal error", "Thread Local Storage"] {
        assert!(!t.run.stderr.contains(bad), "`{bad}` on stderr:\n{transcript}");
    }
    let calls = counts(&t.run.stdout, "hip-calls:");
    let at_exit = counts(&t.run.stdout, "exit-calls:");
    assert_eq!(calls["hipLaunchKernel"], 2 * ITERATIONS);

    // hip_api_trace.csv: every call the program made, one row each (the ones from the static
    // destructor too), in the runtime domain; unique correlation ids.
    let hip = t.csv("hip_api_trace.csv");
    let rows = by_function(&hip);
    let mut made: BTreeMap<&str, u64> = calls.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    for (k, v) in &at_exit {
        *made.entry(k.as_str()).or_default() += v;
    }
    for (function, n) in &made {
        let got = rows.get(*function).map_or(0, Vec::len) as u64;
        assert_eq!(got, *n, "{function}: {got} rows for {n} calls\n{transcript}");
    }
    for r in &hip.rows {
        let domain = if r["Function"].starts_with("__hip") { "HIP_COMPILER_API_EXT" } else { "HIP_RUNTIME_API_EXT" };
        assert_eq!(r["Domain"], domain, "{r:?}");
        assert!(num(r, "End_Timestamp") >= num(r, "Start_Timestamp"), "{r:?}");
    }
    let ids: Vec<u64> = hip.rows.iter().map(|r| num(r, "Correlation_Id")).collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "correlation ids are unique");

    // kernel_trace.csv: N vadd and N scale rows, each with the id of its own hipLaunchKernel row,
    // vadd on the first created stream, scale on the second; every kernel (HIP's own blit kernels
    // of hipMemset / hipMemcpy too) carries the id of a HIP call.
    let kernels = t.csv("kernel_trace.csv");
    let hip_by_id: HashMap<u64, &Row> = hip.rows.iter().map(|r| (num(r, "Correlation_Id"), r)).collect();
    let mut launched = HashSet::new();
    let mut streams: BTreeMap<&str, HashSet<u64>> = BTreeMap::new();
    for k in &kernels.rows {
        let id = num(k, "Correlation_Id");
        let issuer = hip_by_id.get(&id).unwrap_or_else(|| panic!("kernel {k:?} carries no HIP call's id"));
        let name = k["Kernel_Name"].as_str();
        for user in ["vadd", "scale"] {
            if name.starts_with(&format!("{user}(")) {
                assert_eq!(issuer["Function"], "hipLaunchKernel", "{k:?}");
                assert!(launched.insert(id), "two kernels share hipLaunchKernel {id}");
                assert_eq!(k["Thread_Id"], issuer["Thread_Id"]);
                streams.entry(user).or_default().insert(num(k, "Stream_Id"));
            }
        }
    }
    assert_eq!(launched.len() as u64, 2 * ITERATIONS, "one kernel row per hipLaunchKernel");
    let (vadd, scale) = (&streams["vadd"], &streams["scale"]);
    assert!(vadd.len() == 1 && scale.len() == 1 && vadd != scale, "one stream each: {streams:?}");
    assert!(!vadd.contains(&0) && !scale.contains(&0), "created streams, not the null stream: {streams:?}");
    let memset_id = num(rows["hipMemset"][0], "Correlation_Id");
    assert!(
        kernels.rows.iter().any(|k| num(k, "Correlation_Id") == memset_id && k["Kernel_Name"].contains("fill")),
        "no fill kernel carries hipMemset's id {memset_id}"
    );

    // rocpd: one region per HIP row; arguments as the program passed them.
    let db_path = find_one(&t.out, "_results.db");
    let db = rusqlite::Connection::open(&db_path).unwrap();
    let regions: u64 =
        db.query_row("SELECT COUNT(*) FROM regions WHERE category LIKE 'HIP_%'", [], |r| r.get(0)).unwrap();
    let samples: u64 =
        db.query_row("SELECT COUNT(*) FROM samples WHERE category LIKE 'HIP_%'", [], |r| r.get(0)).unwrap_or(0);
    assert_eq!(regions + samples, hip.rows.len() as u64, "HIP regions in rocpd");
    let args_of = |function: &str| -> Vec<Vec<(String, String)>> {
        let mut stmt = db
            .prepare(
                "SELECT R.id, A.name, A.value FROM rocpd_arg A JOIN rocpd_region R ON R.event_id = A.event_id
                 JOIN rocpd_string S ON S.id = R.name_id WHERE S.string = ?1 ORDER BY R.id, A.position",
            )
            .unwrap();
        let mut calls: BTreeMap<i64, Vec<(String, String)>> = BTreeMap::new();
        for row in stmt.query_map([function], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?))).unwrap() {
            let (id, name, value) = row.unwrap();
            calls.entry(id).or_default().push((name, value));
        }
        calls.into_values().collect()
    };
    let memcpy = args_of("hipMemcpy");
    assert_eq!(memcpy.len() as u64, calls["hipMemcpy"]);
    for a in &memcpy {
        let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["dst", "src", "sizeBytes", "kind"], "HIP 6.4's hipMemcpy parameters");
        assert_eq!(a[2].1, BYTES.to_string(), "sizeBytes as passed: {a:?}");
    }
    // The kinds: two host->device (1), one device->host (2), in program order.
    let kinds: Vec<&str> = memcpy.iter().map(|a| a[3].1.as_str()).collect();
    assert_eq!(kinds, ["1", "1", "2"]);
    let launches = args_of("hipLaunchKernel");
    let s1 = stream_printed(&t.run.stdout, "1");
    let s2 = stream_printed(&t.run.stdout, "2");
    let on_stream = |s: u64| {
        launches
            .iter()
            .filter(|a| {
                a.iter().any(|(n, v)| n == "stream" && u64::from_str_radix(v.trim_start_matches("0x"), 16) == Ok(s))
            })
            .count() as u64
    };
    assert_eq!((on_stream(s1), on_stream(s2)), (ITERATIONS, ITERATIONS), "launch stream arguments: {launches:?}");

    // AMD's rocpd reader reads the database: every query runs, the HIP regions are there.
    if let Some((verdicts, report)) = crate::rocpd_amd::rocpd_check(test, &db_path) {
        for (name, verdict) in &verdicts {
            if name.starts_with("convert") {
                continue;
            }
            if name == "query memory views" {
                // HIP 6.4 copies with blit kernels on hsa-sim: no copy rows, the query still runs.
                assert!(verdict == "ok" || verdict.starts_with("FAIL rc=0, expected"), "{name}: {verdict}\n{report}");
            } else {
                assert_eq!(verdict, "ok", "{name}\n{report}");
            }
        }
    }
    assert!(find_one(&t.out, "_results.pftrace").metadata().unwrap().len() > 0);
}

/// `crates/hsa-sys/probes/hip_prof_probe_6_4.cpp` compiled against the chroot's HIP 6.4 header
/// prints exactly the committed `hip_prof_layout_6_4.txt`, which `HIP_PROF_OPS_6_4` (the ids and
/// argument offsets the interception library reads) was generated from.
#[test]
fn the_pinned_hip_6_4_argument_layout_is_the_installed_headers() {
    let test = "the_pinned_hip_6_4_argument_layout_is_the_installed_headers";
    let Some(root) = sid_root(test) else { return };
    let Some(cxx) = rocprof_test_inputs::program(test, "g++", "g++") else { return };
    let probes = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/hsa-sys/probes");
    let dir = scratch("hip6-layout");
    let _cleanup = ScratchGuard(dir.clone());
    // Only HIP's headers from the chroot (the host's C and C++ headers otherwise).
    std::fs::create_dir(dir.join("include")).unwrap();
    std::os::unix::fs::symlink(root.join("usr/include/hip"), dir.join("include/hip")).unwrap();
    let exe = dir.join("probe");
    let built = Command::new(cxx)
        .args(["-std=c++17", "-D__HIP_PLATFORM_AMD__", "-w", "-I"])
        .arg(dir.join("include"))
        .arg(probes.join("hip_prof_probe_6_4.cpp"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(built.status.success(), "probe build:\n{}", String::from_utf8_lossy(&built.stderr));
    let probed = run_command(Command::new(&exe));
    assert!(probed.status.success(), "{}", probed.transcript());
    let pinned = std::fs::read_to_string(probes.join("hip_prof_layout_6_4.txt")).unwrap();
    let differ: Vec<(&str, &str)> =
        probed.stdout.lines().zip(pinned.lines()).filter(|(a, b)| a != b).take(10).collect();
    assert!(
        differ.is_empty() && probed.stdout.lines().count() == pinned.lines().count(),
        "the installed HIP header lays out hip_api_data_t differently (installed, pinned): {differ:?}; \
         regenerate with `python3 xtask/codegen/hsa_sys/hip_prof.py --tag 6_4 {}/usr/include/hip/amd_detail/hip_prof_str.h`",
        root.display()
    );
    // The table's own numbers agree with the header's (the first line and the id lines).
    assert!(pinned.starts_with(&format!("hip_api_data_t {} 8 16\n", rocprof_hsa_sys::HIP_API_DATA_SIZE_6_4)));
    for (i, f) in rocprof_hsa_sys::HIP_PROF_OPS_6_4.iter().enumerate() {
        assert!(pinned.contains(&format!("\nid {} {}\n", f.name, i + 1)), "{} is not id {}", f.name, i + 1);
    }
}
