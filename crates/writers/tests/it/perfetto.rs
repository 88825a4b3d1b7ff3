//! What the Perfetto writer writes, decoded with Perfetto's canonical schema (`perfetto_protos`).

use std::collections::{BTreeMap, HashMap};

use perfetto_protos::debug_annotation::debug_annotation;
use perfetto_protos::trace::Trace as PfTrace;
use perfetto_protos::track_event::track_event;
use protobuf::Message as _;
use rocprof_model::{Timestamp, Trace};
use rocprof_writers::perfetto::PerfettoWriter;
use rocprof_writers::{synthetic, write_trace, OutputLocation, Progress, Writer};

use crate::scratch;

/// One decoded slice.
#[derive(Debug, Clone)]
pub(crate) struct Slice {
    pub(crate) track: String,
    pub(crate) track_uuid: u64,
    pub(crate) category: String,
    pub(crate) name: String,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) args: BTreeMap<String, String>,
    pub(crate) flows: Vec<u64>,
}

/// What a decoded trace holds: slices (begin matched with end per track), track names by kind.
#[derive(Debug, Default)]
pub(crate) struct Decoded {
    pub(crate) slices: Vec<Slice>,
    pub(crate) process_names: Vec<(i32, String)>,
    pub(crate) tracks: Vec<String>,
    pub(crate) first_packet_clears_state: bool,
    /// Instant events (start = end).
    pub(crate) instants: Vec<Slice>,
    /// Counter values per counter track name, in file order.
    pub(crate) counters: BTreeMap<String, Vec<(u64, f64)>>,
    /// Thread descriptors: (tid, thread name).
    pub(crate) threads: Vec<(i32, String)>,
}

/// Decodes a `.pftrace` with `perfetto_protos` and resolves interned names.
pub(crate) fn decode(bytes: &[u8]) -> Decoded {
    let trace = PfTrace::parse_from_bytes(bytes).expect("a Trace message under Perfetto's schema");
    let mut out = Decoded::default();
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut cats: HashMap<u64, String> = HashMap::new();
    let mut anns: HashMap<u64, String> = HashMap::new();
    let mut track_names: HashMap<u64, String> = HashMap::new();
    let mut open: HashMap<u64, Vec<Slice>> = HashMap::new();
    for (i, p) in trace.packet.iter().enumerate() {
        if i == 0 {
            out.first_packet_clears_state = p.sequence_flags() & 1 == 1;
        }
        if let Some(d) = p.interned_data.as_ref() {
            for n in &d.event_names {
                names.insert(n.iid(), n.name().to_string());
            }
            for c in &d.event_categories {
                cats.insert(c.iid(), c.name().to_string());
            }
            for a in &d.debug_annotation_names {
                anns.insert(a.iid(), a.name().to_string());
            }
        }
        if p.has_track_descriptor() {
            let d = p.track_descriptor();
            if let Some(pr) = d.process.as_ref() {
                out.process_names.push((pr.pid(), pr.process_name().to_string()));
            }
            if let Some(t) = d.thread.as_ref() {
                out.threads.push((t.tid(), t.thread_name().to_string()));
            }
            let name = match d.thread.as_ref() {
                _ if d.has_name() => d.name().to_string(),
                Some(t) => t.thread_name().to_string(),
                None => String::new(),
            };
            out.tracks.push(name.clone());
            track_names.insert(d.uuid(), name);
        }
        if p.has_track_event() {
            let e = p.track_event();
            let track = e.track_uuid();
            match e.type_() {
                track_event::Type::TYPE_SLICE_BEGIN | track_event::Type::TYPE_INSTANT => {
                    let args = e
                        .debug_annotations
                        .iter()
                        .map(|a| {
                            let v = match &a.value {
                                Some(debug_annotation::Value::UintValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::IntValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::DoubleValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::StringValue(v)) => v.clone(),
                                Some(debug_annotation::Value::BoolValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::PointerValue(v)) => format!("{v:#x}"),
                                other => format!("{other:?}"),
                            };
                            (anns.get(&a.name_iid()).cloned().unwrap_or_default(), v)
                        })
                        .collect();
                    let slice = Slice {
                        track_uuid: track,
                        track: track_names.get(&track).cloned().unwrap_or_else(|| format!("<undeclared {track}>")),
                        category: e.category_iids.iter().map(|c| cats.get(c).cloned().unwrap_or_default()).collect(),
                        name: names.get(&e.name_iid()).cloned().unwrap_or_default(),
                        start: p.timestamp(),
                        end: 0,
                        args,
                        flows: e.flow_ids_old.clone(),
                    };
                    if e.type_() == track_event::Type::TYPE_INSTANT {
                        let start = slice.start;
                        out.instants.push(Slice { end: start, ..slice });
                    } else {
                        open.entry(track).or_default().push(slice);
                    }
                }
                track_event::Type::TYPE_COUNTER => {
                    let v =
                        if e.has_double_counter_value() { e.double_counter_value() } else { e.counter_value() as f64 };
                    let name = track_names.get(&track).cloned().unwrap_or_else(|| format!("<undeclared {track}>"));
                    out.counters.entry(name).or_default().push((p.timestamp(), v));
                }
                track_event::Type::TYPE_SLICE_END => {
                    let mut s = open.get_mut(&track).and_then(Vec::pop).expect("an END matches an open BEGIN");
                    s.end = p.timestamp();
                    out.slices.push(s);
                }
                _ => {}
            }
        }
    }
    assert!(open.values().all(Vec::is_empty), "unfinished slices");
    out
}

fn write(trace: &Trace, name: &str) -> Vec<u8> {
    let dir = scratch(name);
    let out = OutputLocation::new(&dir, "run");
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(PerfettoWriter::new(out.clone()))];
    let files = write_trace(trace, &mut w, Progress::Hidden).unwrap();
    assert_eq!(files, [dir.join("run_results.pftrace")]);
    std::fs::read(&files[0]).unwrap()
}

#[test]
fn kernel_dispatches_become_slices_on_their_queue_tracks() {
    let trace = synthetic::trace(40);
    let d = decode(&write(&trace, "pftrace-kernels"));
    assert!(d.first_packet_clears_state);
    assert_eq!(d.process_names, [(4242, "synthetic".to_string())]);
    assert_eq!(d.slices.len(), 40);
    let mut per_track: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &d.slices {
        *per_track.entry(s.track.as_str()).or_default() += 1;
        assert_eq!(s.category, "kernel_dispatch");
    }
    assert_eq!(
        per_track.into_iter().collect::<Vec<_>>(),
        [
            ("COMPUTE Agent [1] QUEUE [0] GPU", 10),
            ("COMPUTE Agent [1] QUEUE [1] GPU", 10),
            ("COMPUTE Agent [1] QUEUE [2] GPU", 10),
            ("COMPUTE Agent [1] QUEUE [3] GPU", 10)
        ]
    );
    // The slice of dispatch 6 (queue 2, kernel 2 = saxpy) carries rocprofv3's annotations.
    let src = &trace.dispatches[5];
    let s = d.slices.iter().find(|s| s.args["corr_id"] == "6").unwrap();
    assert_eq!(s.name, "saxpy.kd");
    assert_eq!((s.start, s.end), (src.start.ns, src.end.ns));
    let arg = |k: &str| s.args.get(k).map(String::as_str);
    assert_eq!(arg("begin_ns"), Some(src.start.ns.to_string().as_str()));
    assert_eq!(arg("delta_ns"), Some(src.duration_ns().to_string().as_str()));
    assert_eq!(arg("kind"), Some("11"));
    assert_eq!(arg("agent"), Some("Agent-1"));
    assert_eq!(arg("agent_type"), Some("GPU"));
    assert_eq!(arg("queue"), Some("1"));
    assert_eq!(arg("kernel_id"), Some("2"));
    assert_eq!(arg("LDS_Block_Size"), Some("512"));
    assert_eq!(arg("VGPR_Count"), Some("12"));
    assert_eq!(arg("workgroup_size"), Some("256"));
    assert_eq!(arg("grid_size"), Some("1048576"));
    assert_eq!(s.args.len(), 18, "{:?}", s.args.keys());
    assert_eq!(s.flows.len(), 1, "every slice carries its correlation flow");
}

#[test]
fn overlapping_kernels_on_one_queue_meet_in_the_middle() {
    let mut trace = synthetic::trace(8);
    // Dispatches 1 and 5 run on queue 1; make 5 start 1000 ns before 1 ends.
    let end1 = trace.dispatches[0].end.ns;
    trace.dispatches[4].start = Timestamp::boottime(end1 - 1000);
    let d = decode(&write(&trace, "pftrace-overlap"));
    let s = |corr: &str| d.slices.iter().find(|s| s.args["corr_id"] == corr).unwrap().clone();
    let (a, b) = (s("1"), s("5"));
    assert_eq!(a.end, end1 - 500);
    assert_eq!(b.start, end1 - 500);
    assert_eq!(a.args["end_ns"], (end1 - 500).to_string(), "annotations show the adjusted times, as rocprofv3's");
}

/// SQL for perfetto-check: pairs of slices on one track that overlap (crossing or nested), the
/// number of kernel tracks, and the shortest and longest kernel slice.
const LANE_QUERIES: [&str; 4] = [
    "select 'overlapping_pairs=' || count(*) as r from slice a join slice b on a.track_id = b.track_id \
     and a.id < b.id and a.ts < b.ts + b.dur and b.ts < a.ts + a.dur",
    "select 'kernel_tracks=' || count(distinct track_id) as r from slice where category = 'kernel_dispatch'",
    "select 'min_dur=' || min(dur) as r from slice where category = 'kernel_dispatch'",
    "select 'max_dur=' || max(dur) as r from slice where category = 'kernel_dispatch'",
];

/// Runs perfetto-check `--strict` with [`LANE_QUERIES`] on `trace`: the `name=value` figures, or
/// `None` when the check cannot run here (a failure under CI).
fn perfetto_check_figures(test: &str, trace: &std::path::Path) -> Option<HashMap<String, i64>> {
    let script = rocprof_test_inputs::shared(test, "tools/perfetto-check/check.sh")?;
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(&script).arg(trace).arg("--strict");
    for q in LANE_QUERIES {
        cmd.arg("-q").arg(q);
    }
    let out = cmd.output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() == Some(3) {
        rocprof_test_inputs::skip_or_fail(test, format!("perfetto-check could not set up:\n{text}"));
        return None;
    }
    assert!(out.status.success(), "perfetto-check rejected {}:\n{text}", trace.display());
    let figures: HashMap<String, i64> = text
        .lines()
        .filter_map(|l| l.trim().split_once('='))
        .filter(|(k, _)| !k.contains(' '))
        .filter_map(|(k, v)| Some((k.to_string(), v.trim().parse().ok()?)))
        .collect();
    assert!(figures.contains_key("overlapping_pairs"), "no query output in:\n{text}");
    Some(figures)
}

/// Issue 14: kernels dispatched without the barrier bit run at once on one queue. Two batches of
/// 8 kernels 10 µs apart and 1 ms long, each batch arriving in reverse order (as completions can):
/// every slice keeps its true start and end (no meeting in the middle), no two slices on one track
/// overlap, the 8 tracks all carry the queue's name, the second batch reuses them, and Perfetto's
/// trace processor loads the trace cleanly and finds the same.
#[test]
fn concurrent_kernels_on_one_queue_keep_their_times_on_tracks_of_the_queue_name() {
    let test = "concurrent_kernels_on_one_queue_keep_their_times_on_tracks_of_the_queue_name";
    let mut trace = synthetic::trace(16);
    let base = trace.dispatches[0].start.ns;
    for (i, d) in trace.dispatches.iter_mut().enumerate() {
        let batch = i as u64 / 8;
        let start = base + batch * 2_000_000 + (i as u64 % 8) * 10_000;
        d.queue = rocprof_model::QueueId(1);
        d.start = Timestamp::boottime(start);
        d.end = Timestamp::boottime(start + 1_000_000);
    }
    trace.meta.end = Timestamp::boottime(base + 4_000_000);
    let want: HashMap<String, (u64, u64)> =
        trace.dispatches.iter().map(|d| (d.correlation_id.0.to_string(), (d.start.ns, d.end.ns))).collect();
    trace.dispatches[..8].reverse();
    trace.dispatches[8..].reverse();
    let dir = scratch("pftrace-concurrent");
    let out = OutputLocation::new(&dir, "run");
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(PerfettoWriter::new(out))];
    let files = write_trace(&trace, &mut w, Progress::Hidden).unwrap();
    let d = decode(&std::fs::read(&files[0]).unwrap());

    assert_eq!(d.slices.len(), 16);
    for s in &d.slices {
        assert_eq!((s.start, s.end), want[&s.args["corr_id"]], "true times of dispatch {}", s.args["corr_id"]);
        assert_eq!(s.args["delta_ns"], "1000000");
        assert_eq!(s.track, "COMPUTE Agent [1] QUEUE [0] GPU");
    }
    for (i, a) in d.slices.iter().enumerate() {
        for b in &d.slices[i + 1..] {
            let overlap = a.start < b.end && b.start < a.end;
            assert!(
                !(overlap && a.track_uuid == b.track_uuid),
                "dispatches {} and {} share a track",
                a.args["corr_id"],
                b.args["corr_id"]
            );
        }
    }
    let tracks: std::collections::HashSet<u64> = d.slices.iter().map(|s| s.track_uuid).collect();
    assert_eq!(tracks.len(), 8, "one track per kernel running at once, reused by the second batch");
    assert_eq!(d.tracks.iter().filter(|t| *t == "COMPUTE Agent [1] QUEUE [0] GPU").count(), 8);

    let Some(f) = perfetto_check_figures(test, &files[0]) else { return };
    assert_eq!(f["overlapping_pairs"], 0, "{f:?}");
    assert_eq!(f["kernel_tracks"], 8, "{f:?}");
    assert_eq!((f["min_dur"], f["max_dur"]), (1_000_000, 1_000_000), "{f:?}");
}

/// Records far more out of start order than the writer's reorder window (100 overlapping kernels
/// on one queue arriving last first) still keep their true times, and no two slices of a track
/// overlap (more tracks are used than the 2 kernels ever running at once).
#[test]
fn kernels_far_out_of_order_never_overlap_on_a_track() {
    let mut trace = synthetic::trace(100);
    let base = trace.dispatches[0].start.ns;
    for (i, d) in trace.dispatches.iter_mut().enumerate() {
        let start = base + i as u64 * 10_000;
        d.queue = rocprof_model::QueueId(1);
        d.start = Timestamp::boottime(start);
        d.end = Timestamp::boottime(start + 15_000);
    }
    trace.meta.end = Timestamp::boottime(base + 2_000_000);
    trace.dispatches.reverse();
    let d = decode(&write(&trace, "pftrace-far-out-of-order"));
    assert_eq!(d.slices.len(), 100);
    for s in &d.slices {
        let n: u64 = s.args["corr_id"].parse().unwrap();
        assert_eq!((s.start, s.end), (base + (n - 1) * 10_000, base + (n - 1) * 10_000 + 15_000), "dispatch {n}");
    }
    for (i, a) in d.slices.iter().enumerate() {
        for b in &d.slices[i + 1..] {
            let overlap = a.start < b.end && b.start < a.end;
            assert!(!(overlap && a.track_uuid == b.track_uuid), "{} and {}", a.args["corr_id"], b.args["corr_id"]);
        }
    }
}

#[test]
fn interned_names_are_written_once() {
    let trace = synthetic::trace(2000);
    let bytes = write(&trace, "pftrace-interning");
    let raw = PfTrace::parse_from_bytes(&bytes).unwrap();
    let names: usize = raw.packet.iter().filter_map(|p| p.interned_data.as_ref()).map(|d| d.event_names.len()).sum();
    assert_eq!(names, synthetic::KERNELS.len() + 1, "the kernels and run_health");
    // 1 state packet + process + 4 queue tracks + 2 packets per slice + the run_health instant.
    assert_eq!(raw.packet.len(), 1 + 1 + 4 + 2 * 2000 + 1);
    let health = raw.packet.last().unwrap().track_event();
    assert_eq!(health.type_(), track_event::Type::TYPE_INSTANT);
    let keys: Vec<&str> = health.debug_annotations.iter().map(|a| a.name()).collect();
    assert!(keys.contains(&"records_written") && keys.contains(&"lost_total"), "{keys:?}");
    assert!(bytes.len() < 2000 * 400, "{} bytes for 2000 slices", bytes.len());
}

/// The synthetic kernels plus the host side of a `--sys-trace` run: a doorbell store per
/// dispatch (its correlation id), a `hipMemcpy` with two copies to the GPU (one without a stream,
/// one on stream 3, overlapping), a ROCTx range and mark on the second thread, allocations and
/// frees, and a scratch allocation and free.
fn host_trace() -> Trace {
    use rocprof_model::api::hsa;
    use rocprof_model::{
        AgentId, ApiCall, ApiDomain, Correlation, CorrelationId, MemoryAllocation, MemoryAllocationOp, MemoryCopy,
        MemoryCopyDirection, QueueId, ScratchMemory, ScratchMemoryOp, StreamId, StringId, ThreadId,
    };
    let mut t = synthetic::trace(4);
    let call = |domain, operation, name, message, thread: u32, corr: u64, start: u64, end: u64, args: &[u64]| ApiCall {
        domain,
        operation,
        name,
        message,
        thread: ThreadId(thread),
        correlation: Correlation { internal: CorrelationId(corr), ancestor: CorrelationId(0), external: 0 },
        start: Timestamp::boottime(start),
        end: Timestamp::boottime(end),
        return_value: 0,
        args: args.into(),
    };
    let (dom, op) = hsa::find("hsa_signal_store_screlease").unwrap();
    let store = t.strings.intern("hsa_signal_store_screlease");
    for d in t.dispatches.clone() {
        let s = d.start.ns - 5_000;
        t.api_calls.push(call(
            dom,
            op,
            store,
            StringId::EMPTY,
            d.thread.0,
            d.correlation_id.0,
            s,
            s + 1_000,
            &[0x1234, 7],
        ));
    }
    let t0 = t.dispatches[3].end.ns + 100_000;
    let memcpy = t.strings.intern("hipMemcpy");
    t.api_calls.push(call(
        ApiDomain::HipRuntime,
        0,
        memcpy,
        StringId::EMPTY,
        4242,
        100,
        t0,
        t0 + 50_000,
        &[0xd000, 0x4000, 4096, 1],
    ));
    let copy = |start: u64, end: u64, bytes: u64, stream: u64| MemoryCopy {
        direction: MemoryCopyDirection::HostToDevice,
        thread: ThreadId(4242),
        correlation: Correlation::new(100),
        start: Timestamp::boottime(start),
        end: Timestamp::boottime(end),
        src_agent: AgentId(0),
        dst_agent: AgentId(1),
        src_address: 0x4000,
        dst_address: 0xd000,
        bytes,
        stream: StreamId(stream),
    };
    t.memory_copies.push(copy(t0 + 1_000, t0 + 11_000, 4096, 0));
    t.memory_copies.push(copy(t0 + 6_000, t0 + 21_000, 1024, 3));
    let push = t.strings.intern("roctxRangePushA");
    let mark = t.strings.intern("roctxMarkA");
    let (outer, checkpoint) = (t.strings.intern("outer"), t.strings.intern("checkpoint"));
    t.api_calls.push(call(ApiDomain::MarkerCore, 1, push, outer, 4243, 101, t0, t0 + 30_000, &[]));
    t.api_calls.push(call(ApiDomain::MarkerCore, 0, mark, checkpoint, 4243, 102, t0 + 10_000, t0 + 10_000, &[]));
    let alloc = |op, start: u64, address: u64, size: u64| MemoryAllocation {
        operation: op,
        thread: ThreadId(4242),
        correlation: Correlation::new(0),
        start: Timestamp::boottime(start),
        end: Timestamp::boottime(start + 100),
        agent: op.is_allocation().then_some(AgentId(1)),
        address,
        size,
        stream: StreamId(0),
    };
    let a0 = t0 + 100_000;
    t.memory_allocations.push(alloc(MemoryAllocationOp::Allocate, a0, 0xa000, 8192));
    t.memory_allocations.push(alloc(MemoryAllocationOp::Allocate, a0 + 1_000, 0xb000, 4096));
    t.memory_allocations.push(alloc(MemoryAllocationOp::Free, a0 + 2_000, 0xa000, 0));
    t.memory_allocations.push(alloc(MemoryAllocationOp::Free, a0 + 3_000, 0, 0));
    let scratch = |op, start: u64, size: u64| ScratchMemory {
        operation: op,
        thread: ThreadId(4242),
        correlation: Correlation::new(0),
        start: Timestamp::boottime(start),
        end: Timestamp::boottime(start + 50),
        agent: AgentId(1),
        queue: QueueId(1),
        flags: 0,
        size,
    };
    t.scratch_memory.push(scratch(ScratchMemoryOp::Alloc, a0 + 500, 65536));
    t.scratch_memory.push(scratch(ScratchMemoryOp::Free, a0 + 4_000, 0));
    t
}

#[test]
fn api_calls_are_slices_on_their_threads_with_flows_to_their_kernels() {
    let trace = host_trace();
    let d = decode(&write(&trace, "pftrace-api"));
    let cat = |c: &str| d.slices.iter().filter(|s| s.category == c).cloned().collect::<Vec<_>>();
    // Thread tracks: the main thread (tid = pid) named after the executable, the other
    // `THREAD 1 (<tid>)`.
    let mut threads = d.threads.clone();
    threads.sort();
    assert_eq!(threads, [(4242, "synthetic".to_string()), (4243, "THREAD 1 (4243)".to_string())]);

    let hsa = cat("hsa_api");
    assert_eq!(hsa.len(), 4);
    for k in cat("kernel_dispatch") {
        let call = hsa.iter().find(|s| s.args["corr_id"] == k.args["corr_id"]).expect("a doorbell per kernel");
        assert_eq!(call.flows, k.flows, "a call and the kernel it launched share one flow id");
        assert_eq!(call.flows.len(), 1);
        let tid: u64 = k.args["tid"].parse().unwrap();
        assert_eq!(call.track, if tid == 4242 { "synthetic" } else { "THREAD 1 (4243)" });
    }
    let flows: std::collections::HashSet<u64> = hsa.iter().map(|s| s.flows[0]).collect();
    assert_eq!(flows.len(), 4, "one flow per correlation id");
    let s = &hsa[0];
    assert_eq!(s.name, "hsa_signal_store_screlease");
    assert_eq!(s.end - s.start, 1_000);
    let arg = |k: &str| s.args.get(k).map(String::as_str);
    assert_eq!(arg("delta_ns"), Some("1000"));
    assert_eq!(arg("kind"), Some("1"), "HSA_CORE_API");
    assert_eq!(arg("ancestor_id"), Some("0"));
    assert_eq!(arg("signal"), Some("{handle=4660}"), "{:?}", s.args);
    assert_eq!(arg("value"), Some("7"));
    assert_eq!(s.args.len(), 10, "{:?}", s.args.keys());

    // HIP: arguments by name; the one called like a fixed annotation (`kind`) is `kind_arg`.
    let hip = cat("hip_api");
    assert_eq!(hip.len(), 1);
    let m = &hip[0];
    assert_eq!((m.name.as_str(), m.args["kind"].as_str(), m.args["kind_arg"].as_str()), ("hipMemcpy", "21", "1"));
    assert_eq!(m.args["sizeBytes"], "4096");
    assert_eq!(m.args["dst"], "0xd000");

    // ROCTx: the range is a slice named after its message, the mark an instant.
    let ranges = cat("marker_api");
    assert_eq!(ranges.len(), 1);
    assert_eq!((ranges[0].name.as_str(), ranges[0].track.as_str()), ("outer", "THREAD 1 (4243)"));
    let marks: Vec<&Slice> = d.instants.iter().filter(|s| s.category == "marker_api").collect();
    assert_eq!(marks.len(), 1);
    assert_eq!((marks[0].name.as_str(), marks[0].args["kind"].as_str()), ("checkpoint", "7"));

    // Copies: on the copy track of (destination, thread) or on their stream's track, with the
    // flow of the hipMemcpy that issued them.
    let copies = cat("memory_copy");
    assert_eq!(copies.len(), 2);
    let tracks: Vec<&str> = copies.iter().map(|c| c.track.as_str()).collect();
    assert_eq!(tracks, ["COPY to AGENT [1] THREAD [0] (GPU)", "STREAM [\" 3 \"] "]);
    for c in &copies {
        assert_eq!(c.name, "MEMORY_COPY_HOST_TO_DEVICE");
        assert_eq!(c.flows, m.flows);
        assert_eq!((c.args["src_agent"].as_str(), c.args["dst_agent"].as_str()), ("Agent-0", "Agent-1"));
        assert_eq!((c.args["kind"].as_str(), c.args["operation"].as_str()), ("10", "2"));
    }
    assert_eq!(copies[0].args["copy_bytes"], "4096");
    assert_eq!(copies[1].args["stream_ID"], "3");
}

/// The points of a counter track in time order, in bytes.
fn points(d: &Decoded, track: &str) -> Vec<(u64, f64)> {
    let mut v: Vec<(u64, f64)> =
        d.counters.get(track).unwrap_or_else(|| panic!("no {track} in {:?}", d.counters.keys())).clone();
    v.sort_by_key(|p| p.0);
    v.into_iter().map(|(t, x)| (t, x * 1024.0)).collect()
}

#[test]
fn copy_allocation_and_scratch_bytes_are_counter_tracks() {
    let trace = host_trace();
    let d = decode(&write(&trace, "pftrace-memory"));
    // Bytes in flight: at each copy's start-1000, start, middle, end, end+1000 the sum of the
    // copies that contain the point, computed here from the definition.
    let copies: Vec<(u64, u64, u64)> = trace.memory_copies.iter().map(|c| (c.start.ns, c.end.ns, c.bytes)).collect();
    let mut want: BTreeMap<u64, f64> = BTreeMap::new();
    for &(s, e, _) in &copies {
        for ts in [s - 1000, s, s + (e - s) / 2, e, e + 1000] {
            want.insert(ts, copies.iter().filter(|c| c.0 <= ts && ts <= c.1).map(|c| c.2 as f64).sum());
        }
    }
    want.insert(copies[0].0 - 5000, 0.0);
    want.insert(copies[1].1 + 5000, 0.0);
    assert_eq!(points(&d, "COPY BYTES to Agent [1] (GPU)"), want.into_iter().collect::<Vec<_>>());
    assert!(d.counters.keys().all(|k| !k.contains("COPY BYTES to Agent [0]")), "copies to the GPU only");

    // Allocated bytes: +8192, +4096, -8192 (the free of 0xa000); the free of NULL changes nothing.
    let a0 = trace.memory_allocations[0].start.ns;
    assert_eq!(
        points(&d, "ALLOCATE BYTES on Agent [1] (GPU)"),
        [
            (a0 - 5000, 0.0),
            (a0, 8192.0),
            (a0 + 100, 8192.0),
            (a0 + 1000, 12288.0),
            (a0 + 1100, 12288.0),
            (a0 + 2000, 4096.0),
            (a0 + 2100, 4096.0),
            (a0 + 2100 + 5000, 0.0)
        ]
    );
    let s0 = trace.scratch_memory[0].start.ns;
    assert_eq!(
        points(&d, "SCRATCH MEMORY on Agent [1] (GPU)"),
        [
            (s0 - 5000, 0.0),
            (s0, 65536.0),
            (s0 + 50, 65536.0),
            (s0 + 3500, 0.0),
            (s0 + 3550, 0.0),
            (s0 + 3550 + 5000, 0.0)
        ]
    );
    // Allocations and scratch are counter tracks only.
    assert!(d.slices.iter().all(|s| s.category != "memory_allocation" && s.category != "scratch_memory"));
}

#[test]
fn overlapping_copies_of_one_thread_go_on_separate_tracks_of_the_same_name() {
    let mut trace = host_trace();
    let c = trace.memory_copies[0];
    trace.memory_copies = vec![
        c,
        rocprof_model::MemoryCopy { start: Timestamp::boottime(c.start.ns + 2_000), ..c },
        rocprof_model::MemoryCopy {
            start: Timestamp::boottime(c.end.ns + 1),
            end: Timestamp::boottime(c.end.ns + 9),
            ..c
        },
    ];
    let d = decode(&write(&trace, "pftrace-copy-lanes"));
    let copies: Vec<&Slice> = d.slices.iter().filter(|s| s.category == "memory_copy").collect();
    assert_eq!(copies.len(), 3);
    assert!(copies.iter().all(|s| s.track == "COPY to AGENT [1] THREAD [0] (GPU)"));
    let lane = |start: u64| copies.iter().find(|s| s.start == start).unwrap().track_uuid;
    assert_ne!(lane(c.start.ns), lane(c.start.ns + 2_000), "the overlapping copy has its own track");
    assert_eq!(lane(c.start.ns), lane(c.end.ns + 1), "a later copy goes back on the first track");
    // Each copy keeps its own start and end (no end paired with another copy's begin).
    for s in &copies {
        let want = trace.memory_copies.iter().find(|m| m.start.ns == s.start).unwrap();
        assert_eq!(s.end, want.end.ns);
    }
}

/// Fuzzing found the closing `0` points of counter and memory tracks computed as `last + pad`,
/// which wrapped (release builds) to a point near time 0 when a hostile database held a time near
/// `u64::MAX`: every point must lie within the records' span (plus the pads), never before it.
#[test]
fn tracks_of_records_near_the_end_of_time_close_without_wrapping() {
    use rocprof_model::counters::{CounterCollection, CounterId, CounterInfo, CounterValue, PmcStatus};
    use rocprof_model::{AgentId, MemoryAllocationOp, StreamId, StringId};
    let mut trace = host_trace();
    let late = u64::MAX - 10;
    for d in &mut trace.dispatches {
        d.start = Timestamp::boottime(late - 5);
        d.end = Timestamp::boottime(late);
    }
    let s = &mut trace.strings;
    let name = s.intern("SQ_WAVES");
    trace.counters.push(CounterInfo {
        id: CounterId(1),
        agent: AgentId(1),
        name,
        description: s.intern("Waves"),
        block: s.intern("SQ"),
        expression: StringId::EMPTY,
        is_derived: false,
        dimensions: s.intern("DIMENSION_XCC[0:0]"),
    });
    let d = trace.dispatches[0];
    trace.counter_collections.push(CounterCollection {
        dispatch: d,
        status: PmcStatus::Ok,
        values: vec![CounterValue { counter: CounterId(1), name, value: 3.0 }],
    });
    let first = trace.memory_allocations.iter().map(|a| a.start.ns).min().unwrap();
    let mut alloc = trace.memory_allocations[0];
    (alloc.start, alloc.end, alloc.operation) =
        (Timestamp::boottime(late), Timestamp::boottime(late), MemoryAllocationOp::Allocate);
    alloc.stream = StreamId(0);
    trace.memory_allocations.push(alloc);
    let decoded = decode(&write(&trace, "pftrace-end-of-time"));
    let pmc: Vec<_> = decoded.counters.iter().filter(|(k, _)| k.contains("SQ_WAVES")).collect();
    assert!(!pmc.is_empty(), "a SQ_WAVES track in {:?}", decoded.counters.keys());
    for (track, points) in pmc {
        assert!(points.iter().all(|p| p.0 >= late - 5 - 1_000_000), "{track}: a point before the dispatch: {points:?}");
        assert!(points.iter().any(|p| p.1 == 3.0), "{track}: the value");
    }
    let bytes = points(&decoded, "ALLOCATE BYTES on Agent [1] (GPU)");
    assert!(bytes.iter().all(|p| p.0 >= first.saturating_sub(1_000_000)), "a point before the first record: {bytes:?}");
    assert!(bytes.iter().any(|p| p.0 >= late), "the late allocation is drawn: {bytes:?}");
}

/// AMD's `perfetto_reader.py` (rocprofv3's validators) gives every slice a process and thread
/// through SQL joins: a thread track belongs to the process track whose id is its
/// `thread_track.parent_id`, other tracks to their `process_track.upid`, and only processes with a
/// pid > 0 count; a slice on any other track fails its `assert _track_id in self.track_ids`. The
/// trace processor of AMD's era (Perfetto v44, what AMD's CMake downloads) fills `parent_id` from
/// a descriptor's `parent_uuid` and the process from the parent chain, so the trace must say it
/// in its descriptors: every track that carries a slice or an instant (API calls on thread
/// tracks, kernels on queue tracks, copies on copy and stream tracks, ROCTx marks, the
/// run_health instant on the process track) is the process's own track or names it as its
/// parent, and a thread track's pid is that process's pid.
#[test]
fn every_slice_track_is_the_process_track_or_its_child_as_amd_reader_joins_them() {
    use perfetto_protos::track_descriptor::TrackDescriptor;
    let bytes = write(&host_trace(), "pftrace-amd-reader-joins");
    let trace = PfTrace::parse_from_bytes(&bytes).expect("a Trace message under Perfetto's schema");
    let mut tracks: HashMap<u64, TrackDescriptor> = HashMap::new();
    let mut events: BTreeMap<u64, usize> = BTreeMap::new();
    for p in &trace.packet {
        if p.has_track_descriptor() {
            let d = p.track_descriptor().clone();
            assert!(tracks.insert(d.uuid(), d).is_none(), "a track uuid described twice");
        }
        if p.has_track_event()
            && matches!(p.track_event().type_(), track_event::Type::TYPE_SLICE_BEGIN | track_event::Type::TYPE_INSTANT)
        {
            *events.entry(p.track_event().track_uuid()).or_default() += 1;
        }
    }
    let process_pid = |uuid: u64| tracks.get(&uuid).and_then(|d| d.process.as_ref()).map(|p| p.pid());
    let mut kinds = BTreeMap::new();
    for (&uuid, &n) in &events {
        let d = tracks.get(&uuid).unwrap_or_else(|| panic!("{n} events on undescribed track {uuid}"));
        let kind = if let Some(pid) = process_pid(uuid) {
            assert!(pid > 0, "process track with pid {pid}");
            "process"
        } else {
            let pid = process_pid(d.parent_uuid()).unwrap_or_else(|| {
                panic!("track {:?} carries {n} events but its parent is no process track", d.name())
            });
            assert!(pid > 0, "parent process with pid {pid}");
            match d.thread.as_ref() {
                Some(t) => {
                    assert_eq!(t.pid(), pid, "thread track {} under another process", t.tid());
                    "thread"
                }
                None => "process child",
            }
        };
        *kinds.entry(kind).or_insert(0) += n;
    }
    // host_trace: 4 doorbells + hipMemcpy + ROCTx range + mark on threads; 4 kernels and 2 copies
    // on process children; the run_health instant on the process track.
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), [("process", 1), ("process child", 6), ("thread", 7)]);
}
