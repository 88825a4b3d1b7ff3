//! rocprofv3 options whose effect is more than a format: `roctxProfilerPause`/`Resume` under
//! `--marker-trace` (rocprofv3's tool stops its context on a pause), and `--group-by-queue` (the
//! Perfetto trace puts kernels on HSA queue tracks instead of HIP stream tracks), on the HIP
//! fixture `hip_trace_app` (Debian's HIP 5.2 on hsa-sim).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use perfetto_protos::trace::Trace as PfTrace;
use perfetto_protos::track_event::track_event;
use protobuf::Message as _;
use rocprof_e2e::{find_one, profile, read_csv, scratch, stage, Csv, ScratchGuard, Stage};

const VADD: &str = "vadd(float const*, float const*, float*, int)";

fn run(stage: &Stage, test: &str, options: &[&str], app: &Path, args: &[&str]) -> (PathBuf, ScratchGuard) {
    let out = scratch(test);
    let out_s = out.display().to_string();
    let mut cli: Vec<&str> = vec!["--simulate", "gfx90a", "-d", &out_s, "-o", "run"];
    cli.extend_from_slice(options);
    let r = profile(stage, &cli, app, args, &[]);
    assert!(r.status.success(), "rocprof-rs {options:?} failed:\n{}", r.transcript());
    (out.clone(), ScratchGuard(out))
}

fn csv(dir: &Path, suffix: &str) -> Csv {
    read_csv(&find_one(dir, suffix))
}

#[test]
fn marker_trace_pauses_collection_from_roctx_profiler_pause_to_resume() {
    let test = "marker_trace_pauses_collection_from_roctx_profiler_pause_to_resume";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    let n = 5u64;
    let opts = ["--marker-trace", "--kernel-trace", "--hip-runtime-trace", "-f", "csv"];
    let (out, _g) = run(&stage, test, &opts, &app, &[&n.to_string(), "--regions"]);
    // The program resumes before and pauses after each even iteration; collection is on from the
    // start (no --selected-regions), so the setup is recorded, the odd iterations and everything
    // after the last pause are not.
    let resumed = n.div_ceil(2);
    let kernels = csv(&out, "kernel_trace.csv");
    let vadd = kernels.rows.iter().filter(|r| r["Kernel_Name"] == VADD).count() as u64;
    assert_eq!(vadd, resumed, "vadd runs once per iteration; only the resumed iterations are recorded");
    let hip = csv(&out, "hip_api_trace.csv");
    let launches = hip.rows.iter().filter(|r| r["Function"] == "hipLaunchKernel").count() as u64;
    assert_eq!(launches, resumed);
    assert!(hip.rows.iter().any(|r| r["Function"] == "hipMalloc"), "the setup ran before the first pause");
    // The pauses and resumes themselves are recorded (rocprofv3 traces them in a context of their own).
    let markers = csv(&out, "marker_api_trace.csv");
    let count = |f: &str| markers.rows.iter().filter(|r| r["Function"] == f).count() as u64;
    assert_eq!((count("roctxProfilerResume"), count("roctxProfilerPause")), (resumed, resumed));
}

/// Names of the tracks that hold `kernel_dispatch` slices in a `.pftrace` (decoded with
/// Perfetto's canonical schema).
fn kernel_track_names(path: &Path) -> BTreeSet<String> {
    let trace = PfTrace::parse_from_bytes(&std::fs::read(path).unwrap()).expect("a Perfetto trace");
    let mut cats: HashMap<u64, String> = HashMap::new();
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut kernel_tracks = BTreeSet::new();
    for p in &trace.packet {
        if let Some(d) = p.interned_data.as_ref() {
            for c in &d.event_categories {
                cats.insert(c.iid(), c.name().to_string());
            }
        }
        if p.has_track_descriptor() {
            let t = p.track_descriptor();
            names.insert(t.uuid(), t.name().to_string());
        }
        if p.has_track_event() && p.track_event().type_() == track_event::Type::TYPE_SLICE_BEGIN {
            let e = p.track_event();
            if e.category_iids.iter().any(|c| cats.get(c).map(String::as_str) == Some("kernel_dispatch")) {
                kernel_tracks.insert(e.track_uuid());
            }
        }
    }
    kernel_tracks.into_iter().map(|u| names.get(&u).cloned().unwrap_or_default()).collect()
}

#[test]
fn group_by_queue_puts_kernels_on_queue_tracks_instead_of_stream_tracks() {
    let test = "group_by_queue_puts_kernels_on_queue_tracks_instead_of_stream_tracks";
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.hip_fixture("hip_trace_app", test) else { return };
    // HIP streams are known from the HIP calls that name them.
    let opts = ["--kernel-trace", "--hip-runtime-trace", "-f", "pftrace", "csv"];
    let by_stream = run(&stage, test, &opts, &app, &["2"]);
    let by_queue = run(&stage, test, &[&opts[..], &["--group-by-queue"]].concat(), &app, &["2"]);
    for (dir, grouped) in [(&by_stream.0, false), (&by_queue.0, true)] {
        let rows = csv(dir, "kernel_trace.csv").rows;
        let streams: BTreeSet<&str> = rows.iter().map(|r| r["Stream_Id"].as_str()).filter(|s| *s != "0").collect();
        let queues: BTreeSet<&str> = rows.iter().map(|r| r["Queue_Id"].as_str()).collect();
        assert!(!streams.is_empty(), "the program launches on its own streams: {rows:?}");
        let tracks = kernel_track_names(&find_one(dir, "results.pftrace"));
        let stream_tracks = tracks.iter().filter(|t| t.starts_with("STREAM")).count();
        let queue_tracks = tracks.iter().filter(|t| t.contains("QUEUE")).count();
        if grouped {
            assert_eq!(stream_tracks, 0, "{tracks:?}");
            assert_eq!(queue_tracks, queues.len(), "one track per HSA queue of the CSV: {tracks:?}");
        } else {
            assert!(stream_tracks >= streams.len(), "one track per HIP stream of the CSV {streams:?}: {tracks:?}");
        }
    }
}
