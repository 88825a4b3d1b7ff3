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
            let name = if d.has_name() { d.name().to_string() } else { String::new() };
            out.tracks.push(name.clone());
            track_names.insert(d.uuid(), name);
        }
        if p.has_track_event() {
            let e = p.track_event();
            let track = e.track_uuid();
            match e.type_() {
                track_event::Type::TYPE_SLICE_BEGIN => {
                    let args = e
                        .debug_annotations
                        .iter()
                        .map(|a| {
                            let v = match &a.value {
                                Some(debug_annotation::Value::UintValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::IntValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::DoubleValue(v)) => v.to_string(),
                                Some(debug_annotation::Value::StringValue(v)) => v.clone(),
                                other => format!("{other:?}"),
                            };
                            (anns.get(&a.name_iid()).cloned().unwrap_or_default(), v)
                        })
                        .collect();
                    open.entry(track).or_default().push(Slice {
                        track: track_names.get(&track).cloned().unwrap_or_else(|| format!("<undeclared {track}>")),
                        category: e.category_iids.iter().map(|c| cats.get(c).cloned().unwrap_or_default()).collect(),
                        name: names.get(&e.name_iid()).cloned().unwrap_or_default(),
                        start: p.timestamp(),
                        end: 0,
                        args,
                        flows: e.flow_ids_old.clone(),
                    });
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
