//! Perfetto trace output (`<prefix>_results.pftrace`), laid out as rocprofv3's: one process
//! track per profiled process, thread tracks for host activity, one track per GPU queue
//! (`COMPUTE Agent [1] QUEUE [0] GPU`) or HIP stream (`STREAM [" 1 "] `), slices with rocprofv3's
//! categories and debug annotations, and a flow from each API call to the kernel or copy it
//! launched (flow id derived from the correlation id, per process). API calls are in `api.rs`,
//! copies and the memory counter tracks in `memory.rs`, PMC counter tracks in `counters.rs`.
//!
//! Streaming: packets go straight to the file as records arrive. Everything goes on one packet
//! sequence; its first packet clears the incremental state and interns the categories and
//! annotation names; event names (kernel names, API names) are interned the first time a slice
//! uses them. A track's descriptor is written before its first event. The trace processor sorts
//! events by time, so records need not arrive in time order. Kernels on one queue are put in start
//! order through a small window (`kernels.rs`): an overlap that looks like a firmware timestamp
//! error meets in the middle, as rocprofv3 does; kernels that really run at once (no barrier bit)
//! keep their true times on another track of the same name, so slices on a track never cross.

mod api;
mod counters;
mod kernels;
mod memory;
pub mod pcsamp;
mod proto;

use std::collections::HashMap;
use std::path::PathBuf;

use rocprof_model::{
    Agent, AgentId, KernelDispatch, KernelId, KernelSymbol, QueueId, Record, RunHealth, SessionMeta, ThreadId,
};

use self::proto::{annotation, event, interned, packet, track};
use crate::csv::AgentIndex;
use crate::kinds;
use crate::{OutputFile, OutputLocation, Result, Session, Writer};

/// Our only packet sequence.
const SEQUENCE_ID: u64 = 1;

/// Encoded packets are written to the file in chunks of about this size.
const OUT_CHUNK: usize = 256 * 1024;

/// Categories, interned with fixed ids (index + 1) in the first packet. Names are rocprofv3's
/// Perfetto categories, plus `run_health` (ours, the process's health instant): every event has a
/// category, as AMD's `perfetto_reader` sorts `slice.category` and fails on a NULL.
const CATEGORIES: [&str; 11] = [
    "hsa_api",
    "hip_api",
    "marker_api",
    "rccl_api",
    "rocdecode_api",
    "rocjpeg_api",
    "kernel_dispatch",
    "memory_copy",
    "memory_allocation",
    "scratch_memory",
    "run_health",
];

/// Debug annotation names, interned with fixed ids (index + 1) in the first packet. The names
/// are rocprofv3's.
const ANNOTATIONS: [&str; 23] = [
    "begin_ns",
    "end_ns",
    "delta_ns",
    "tid",
    "kind",
    "operation",
    "corr_id",
    "ancestor_id",
    "stream_ID",
    "agent",
    "agent_type",
    "queue",
    "kernel_id",
    "Scratch_Size",
    "LDS_Block_Size",
    "VGPR_Count",
    "Accum_VGPR_Count",
    "SGPR_Count",
    "workgroup_size",
    "grid_size",
    "src_agent",
    "dst_agent",
    "copy_bytes",
];

/// The interned id of category `name`.
fn category_iid(name: &str) -> u64 {
    CATEGORIES.iter().position(|c| *c == name).expect("category in CATEGORIES") as u64 + 1
}

/// An annotation of [`ANNOTATIONS`], in the same order (its interned id is its position + 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ann {
    BeginNs,
    EndNs,
    DeltaNs,
    Tid,
    Kind,
    Operation,
    CorrId,
    AncestorId,
    StreamId,
    Agent,
    AgentType,
    Queue,
    KernelId,
    ScratchSize,
    LdsBlockSize,
    VgprCount,
    AccumVgprCount,
    SgprCount,
    WorkgroupSize,
    GridSize,
    SrcAgent,
    DstAgent,
    CopyBytes,
}

impl Ann {
    /// The interned id.
    fn iid(self) -> u64 {
        self as u64 + 1
    }
}

/// Appends a debug annotation (`name_iid`, value) to the event being encoded in `buf`.
fn annotation_value(buf: &mut Vec<u8>, name_iid: u64, v: Value<'_>) {
    let a = proto::open(buf, event::DEBUG_ANNOTATIONS, 1);
    proto::uint(buf, annotation::NAME_IID, name_iid);
    match v {
        Value::Uint(x) => proto::uint(buf, annotation::UINT_VALUE, x),
        Value::Int(x) => proto::int(buf, annotation::INT_VALUE, x),
        Value::Double(x) => proto::double(buf, annotation::DOUBLE_VALUE, x),
        Value::Bool(x) => proto::uint(buf, annotation::BOOL_VALUE, u64::from(x)),
        Value::Pointer(x) => proto::uint(buf, annotation::POINTER_VALUE, x),
        Value::Str(x) => proto::string(buf, annotation::STRING_VALUE, x),
    }
    proto::close(buf, a, 1);
}

/// A value of a debug annotation (signed, floating, boolean and pointer values serve counter
/// annotations and API arguments).
#[derive(Debug, Clone, Copy)]
enum Value<'a> {
    Uint(u64),
    Int(i64),
    Double(f64),
    Bool(bool),
    Pointer(u64),
    Str(&'a str),
}

/// Settings of the Perfetto writer.
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfettoOptions {
    /// How agents are named in track names and annotations (`-A`).
    pub agent_index: AgentIndex,
    /// Kernels and copies on per-queue tracks even when HIP streams are known
    /// (`--group-by-queue`).
    pub group_by_queue: bool,
}

/// Writes `results.pftrace`.
#[derive(Debug)]
pub struct PerfettoWriter {
    out: OutputLocation,
    options: PerfettoOptions,
    state: Option<State>,
}

impl PerfettoWriter {
    /// A writer with default options.
    pub fn new(out: OutputLocation) -> Self {
        Self::with_options(out, PerfettoOptions::default())
    }

    /// A writer with the given options.
    pub fn with_options(out: OutputLocation, options: PerfettoOptions) -> Self {
        Self { out, options, state: None }
    }
}

/// What a kernel slice takes from the kernel's symbol.
#[derive(Debug, Clone, Copy)]
struct KernelInfo {
    name_iid: u64,
    arch_vgpr_count: u32,
    accum_vgpr_count: u32,
    sgpr_count: u32,
}

/// What slices and track names take from an agent.
#[derive(Debug, Clone)]
struct AgentInfo {
    /// `Agent-1` / `GPU-0`: annotations.
    dashed: String,
    /// `Agent [1]`: track names.
    bracketed: String,
    /// `GPU`, `CPU`.
    type_name: &'static str,
    /// The agent's logical node id (copy track names: `COPY to AGENT [<id>] ...`).
    logical_node_id: u32,
}

/// Per-process state (ids are per process).
#[derive(Debug, Default)]
struct Process {
    pid: u32,
    uuid: u64,
    /// The process's end (or its last event, if later): where the health record goes.
    end_ns: u64,
    main_tid: u32,
    /// The executable's name (the main thread's track name).
    name: String,
    agents: HashMap<AgentId, AgentInfo>,
    kernels: HashMap<KernelId, KernelInfo>,
    /// Track uuid by (agent, queue) and the number of queues named per agent.
    queue_tracks: kernels::FastMap<(AgentId, QueueId), u64>,
    queues_per_agent: HashMap<AgentId, u32>,
    stream_tracks: HashMap<u64, u64>,
    thread_tracks: HashMap<ThreadId, u64>,
    /// Host threads numbered in order of appearance (the main thread is 0), for track names.
    thread_numbers: HashMap<ThreadId, u32>,
    /// The dispatches of each queue not yet written (start order, overlap fix).
    queues: kernels::FastMap<(AgentId, QueueId), kernels::QueueOrder>,
    /// The kernel tracks of each queue or stream track, by the first one's uuid.
    lanes: kernels::FastMap<u64, kernels::Lanes>,
    /// Counter tracks and the counter values of held dispatches.
    counters: counters::Counters,
    /// Copy tracks and the copy / allocation / scratch counter tracks.
    memory: memory::Memory,
}

#[derive(Debug)]
struct State {
    file: OutputFile,
    /// Encoded packets not yet written to the file.
    out: Vec<u8>,
    /// Scratch buffers: packet body, track event, one annotation / interned entry, interned data.
    pkt: Vec<u8>,
    ev: Vec<u8>,
    small: Vec<u8>,
    small2: Vec<u8>,
    interned: Vec<u8>,
    /// Interned event names and the next id.
    names: HashMap<Box<str>, u64>,
    next_name_iid: u64,
    /// Interned event names by session string (API function names), 0 = not yet looked up.
    names_by_string: Vec<u64>,
    /// Debug annotation names beyond [`ANNOTATIONS`] (API parameter names), interned on first use.
    arg_names: HashMap<Box<str>, u64>,
    /// Debug annotations of the next slice beyond its fixed ones, already encoded.
    extra: Vec<u8>,
    process: Option<Process>,
    options: PerfettoOptions,
    slices: u64,
}

/// A 64-bit mix (splitmix64 finaliser) for track uuids and flow ids: distinct inputs give
/// distinct-looking, well-spread values.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A uuid for `(pid, kind, key)`.
fn uuid(pid: u32, kind: u64, key: u64) -> u64 {
    mix(mix(u64::from(pid) ^ (kind << 40)) ^ key).max(1)
}

/// rocprofv3 names kernel slices by the demangled raw symbol, which ends in ` [clone .kd]` for
/// mangled names; our demangled names end in `.kd` instead.
fn slice_kernel_name(raw: &str, demangled: &str) -> String {
    match demangled.strip_suffix(".kd") {
        Some(d) if raw != demangled => format!("{d} [clone .kd]"),
        _ => demangled.to_string(),
    }
}

impl State {
    fn new(file: OutputFile, options: PerfettoOptions) -> Result<Self> {
        let mut st = Self {
            file,
            out: Vec::with_capacity(OUT_CHUNK + 4096),
            pkt: Vec::with_capacity(1024),
            ev: Vec::with_capacity(1024),
            small: Vec::with_capacity(256),
            small2: Vec::with_capacity(256),
            interned: Vec::with_capacity(1024),
            names: HashMap::new(),
            next_name_iid: 1,
            names_by_string: Vec::new(),
            arg_names: HashMap::new(),
            extra: Vec::with_capacity(256),
            process: None,
            options,
            slices: 0,
        };
        // First packet: clears the incremental state and interns the fixed tables.
        for (i, c) in CATEGORIES.iter().enumerate() {
            proto::interned_entry(&mut st.interned, interned::EVENT_CATEGORIES, i as u64 + 1, c, &mut st.small);
        }
        for (i, a) in ANNOTATIONS.iter().enumerate() {
            proto::interned_entry(&mut st.interned, interned::DEBUG_ANNOTATION_NAMES, i as u64 + 1, a, &mut st.small);
        }
        st.pkt.clear();
        proto::uint(&mut st.pkt, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        proto::uint(&mut st.pkt, packet::SEQUENCE_FLAGS, packet::SEQ_INCREMENTAL_STATE_CLEARED);
        proto::bytes(&mut st.pkt, packet::INTERNED_DATA, &st.interned);
        st.interned.clear();
        st.flush_packet()?;
        Ok(st)
    }

    /// Appends the packet in `pkt` as `Trace.packet`.
    fn flush_packet(&mut self) -> Result<()> {
        proto::bytes(&mut self.out, proto::TRACE_PACKET, &self.pkt);
        self.spill()
    }

    /// Writes the encoded packets to the file once there are enough of them.
    fn spill(&mut self) -> Result<()> {
        if self.out.len() >= OUT_CHUNK {
            self.file.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    /// Writes every encoded packet to the file.
    fn spill_all(&mut self) -> Result<()> {
        self.file.write_all(&self.out)?;
        self.out.clear();
        Ok(())
    }

    /// Opens a track-event packet at `ts` in `out` (with the pending interned data) and its
    /// `TrackEvent`; returns the two starts for [`Self::close_event`]. `big` reserves two bytes
    /// for the lengths (slice begins), else one.
    fn open_event(&mut self, ts: u64, big: bool) -> (usize, usize, usize) {
        let reserve = if big { 2 } else { 1 };
        let out = &mut self.out;
        let p = proto::open(out, proto::TRACE_PACKET, reserve);
        proto::uint(out, packet::TIMESTAMP, ts);
        proto::uint(out, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        proto::uint(out, packet::SEQUENCE_FLAGS, packet::SEQ_NEEDS_INCREMENTAL_STATE);
        if !self.interned.is_empty() {
            proto::bytes(out, packet::INTERNED_DATA, &self.interned);
            self.interned.clear();
        }
        let e = proto::open(out, packet::TRACK_EVENT, reserve);
        (p, e, reserve)
    }

    /// Closes what [`Self::open_event`] opened.
    fn close_event(&mut self, (p, e, reserve): (usize, usize, usize)) -> Result<()> {
        proto::close(&mut self.out, e, reserve);
        proto::close(&mut self.out, p, reserve);
        self.spill()
    }

    /// The interned id of event name `name`, adding it to this packet's interned data if new.
    fn name_iid(&mut self, name: &str) -> u64 {
        if let Some(&iid) = self.names.get(name) {
            return iid;
        }
        let iid = self.next_name_iid;
        self.next_name_iid += 1;
        self.names.insert(name.into(), iid);
        proto::interned_entry(&mut self.interned, interned::EVENT_NAMES, iid, name, &mut self.small);
        iid
    }

    /// Writes a track descriptor packet; `body` fills the descriptor after its uuid.
    fn descriptor(&mut self, uuid: u64, body: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>)) -> Result<()> {
        self.ev.clear();
        proto::uint(&mut self.ev, track::UUID, uuid);
        body(&mut self.ev, &mut self.small2);
        self.pkt.clear();
        proto::uint(&mut self.pkt, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        proto::bytes(&mut self.pkt, packet::TRACK_DESCRIPTOR, &self.ev);
        self.flush_packet()
    }

    /// A named track under the current process.
    fn named_track(&mut self, uuid: u64, name: &str) -> Result<()> {
        let parent = self.process.as_ref().map_or(0, |p| p.uuid);
        self.descriptor(uuid, |d, _| {
            proto::string(d, track::NAME, name);
            if parent != 0 {
                proto::uint(d, track::PARENT_UUID, parent);
            }
        })
    }

    fn start_process(&mut self, meta: &SessionMeta) -> Result<()> {
        let pid = meta.pid.0;
        let uuid = uuid(pid, 1, meta.start.ns);
        let name = meta.command.first().map(|c| c.rsplit('/').next().unwrap_or(c)).unwrap_or("").to_string();
        let command = meta.command.clone();
        self.descriptor(uuid, |d, s| {
            s.clear();
            proto::int(s, track::PROCESS_PID, i64::from(pid));
            for arg in &command {
                proto::string(s, track::PROCESS_CMDLINE, arg);
            }
            proto::string(s, track::PROCESS_NAME, &name);
            proto::bytes(d, track::PROCESS, s);
        })?;
        self.process = Some(Process { pid, uuid, main_tid: pid, end_ns: meta.end.ns, name, ..Process::default() });
        Ok(())
    }

    /// The number of host thread `tid` in track names: 0 for the main thread, then 1, 2, ... in
    /// order of appearance.
    fn thread_number(&mut self, tid: ThreadId) -> u32 {
        let Some(p) = self.process.as_mut() else { return 0 };
        if tid.0 == p.main_tid {
            return 0;
        }
        let n = p.thread_numbers.len() as u32 + 1;
        *p.thread_numbers.entry(tid).or_insert(n)
    }

    /// The track of host thread `tid` (written on first use): the main thread is named after
    /// the executable, the others `THREAD <n> (<tid>)` in order of appearance.
    fn thread_track(&mut self, tid: ThreadId) -> Result<u64> {
        let Some(p) = self.process.as_ref() else { return Ok(0) };
        if let Some(&u) = p.thread_tracks.get(&tid) {
            return Ok(u);
        }
        let n = self.thread_number(tid);
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        let (pid, parent) = (p.pid, p.uuid);
        let u = uuid(pid, 2, u64::from(tid.0));
        p.thread_tracks.insert(tid, u);
        let name = if n == 0 { p.name.clone() } else { format!("THREAD {n} ({})", tid.0) };
        self.descriptor(u, |d, s| {
            s.clear();
            proto::int(s, track::THREAD_PID, i64::from(pid));
            proto::int(s, track::THREAD_TID, i64::from(tid.0));
            if !name.is_empty() {
                proto::string(s, track::THREAD_NAME, &name);
            }
            proto::bytes(d, track::THREAD, s);
            proto::uint(d, track::PARENT_UUID, parent);
        })?;
        Ok(u)
    }

    /// The track of HIP stream `stream` (written on first use): `STREAM [" <id> "] `.
    fn stream_track(&mut self, stream: u64) -> Result<u64> {
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        if let Some(&u) = p.stream_tracks.get(&stream) {
            return Ok(u);
        }
        let u = uuid(p.pid, 3, stream);
        p.stream_tracks.insert(stream, u);
        let name = format!("STREAM [\" {stream} \"] ");
        self.named_track(u, &name)?;
        if let Some(p) = self.process.as_mut() {
            p.lanes.insert(u, kernels::Lanes::new(name, u));
        }
        Ok(u)
    }

    /// The track kernels of `d` go on: its queue's, or its HIP stream's.
    fn kernel_track(&mut self, d: &KernelDispatch) -> Result<u64> {
        if d.stream.0 != 0 && !self.options.group_by_queue {
            return self.stream_track(d.stream.0);
        }
        let Some(p) = self.process.as_mut() else { return Ok(0) };
        if let Some(&u) = p.queue_tracks.get(&(d.agent, d.queue)) {
            return Ok(u);
        }
        let k = p.queues_per_agent.entry(d.agent).or_insert(0);
        let index = *k;
        *k += 1;
        let u = uuid(p.pid, 4, (u64::from(d.agent.0) << 32) ^ d.queue.0);
        p.queue_tracks.insert((d.agent, d.queue), u);
        let (bracketed, type_name) = p
            .agents
            .get(&d.agent)
            .map_or((format!("Agent [{}]", d.agent.0), "UNK"), |a| (a.bracketed.clone(), a.type_name));
        let name = format!("COMPUTE {bracketed} QUEUE [{index}] {type_name}");
        self.named_track(u, &name)?;
        if let Some(p) = self.process.as_mut() {
            p.lanes.insert(u, kernels::Lanes::new(name, u));
        }
        Ok(u)
    }

    /// Adds annotation `name` (outside the fixed table; interned on first use) with value `v` to
    /// the next slice's extra annotations.
    fn extra_annotation(&mut self, name: &str, v: Value<'_>) {
        let iid = match self.arg_names.get(name) {
            Some(&iid) => iid,
            None => {
                let iid = (ANNOTATIONS.len() + self.arg_names.len() + 1) as u64;
                self.arg_names.insert(name.into(), iid);
                proto::interned_entry(&mut self.interned, interned::DEBUG_ANNOTATION_NAMES, iid, name, &mut self.small);
                iid
            }
        };
        annotation_value(&mut self.extra, iid, v);
    }

    /// The interned id of the event name held in session string `id` (cached per string).
    fn name_iid_of(&mut self, session: &Session<'_>, id: rocprof_model::StringId) -> u64 {
        let i = id.0 as usize;
        if let Some(&iid) = self.names_by_string.get(i).filter(|&&iid| iid != 0) {
            return iid;
        }
        let iid = self.name_iid(session.strings.resolve(id));
        if self.names_by_string.len() <= i {
            self.names_by_string.resize(i + 1, 0);
        }
        self.names_by_string[i] = iid;
        iid
    }

    /// Writes a complete slice: the begin packet (with any new interned names, the category,
    /// the annotations, the extra annotations gathered in `extra`, and the flow) and the end
    /// packet. `end = None` writes an instant event instead.
    #[allow(clippy::too_many_arguments)]
    fn slice(
        &mut self,
        track_uuid: u64,
        category: &str,
        name_iid: u64,
        start: u64,
        end: Option<u64>,
        flow: Option<u64>,
        args: &[(Ann, Value<'_>)],
        named: &[(Box<str>, f64)],
    ) -> Result<()> {
        let kind = if end.is_some() { event::TYPE_SLICE_BEGIN } else { event::TYPE_INSTANT };
        let open = self.open_event(start, true);
        let out = &mut self.out;
        proto::uint(out, event::TYPE, kind);
        proto::uint(out, event::TRACK_UUID, track_uuid);
        proto::uint(out, event::CATEGORY_IIDS, category_iid(category));
        proto::uint(out, event::NAME_IID, name_iid);
        for (k, v) in args {
            annotation_value(out, k.iid(), *v);
        }
        for (k, v) in named {
            let a = proto::open(out, event::DEBUG_ANNOTATIONS, 1);
            proto::string(out, annotation::NAME, k);
            proto::double(out, annotation::DOUBLE_VALUE, *v);
            proto::close(out, a, 1);
        }
        if !self.extra.is_empty() {
            out.extend_from_slice(&self.extra);
            self.extra.clear();
        }
        if let Some(f) = flow {
            proto::uint(out, event::FLOW_IDS_OLD, f);
        }
        self.close_event(open)?;
        self.slices += 1;
        let Some(end) = end else { return Ok(()) };

        let open = self.open_event(end, false);
        proto::uint(&mut self.out, event::TYPE, event::TYPE_SLICE_END);
        proto::uint(&mut self.out, event::TRACK_UUID, track_uuid);
        self.close_event(open)
    }

    /// Writes the process's health record as an instant event `run_health` (category `run_health`)
    /// on its process track, one annotation per [`RunHealth::metadata`] entry (records written,
    /// losses by reason, overhead), at the process's end.
    fn run_health(&mut self, h: &RunHealth) -> Result<()> {
        let Some(p) = self.process.as_ref() else { return Ok(()) };
        let (track, ts) = (p.uuid, p.end_ns);
        let name_iid = self.name_iid("run_health");
        self.ev.clear();
        proto::uint(&mut self.ev, event::TYPE, event::TYPE_INSTANT);
        proto::uint(&mut self.ev, event::TRACK_UUID, track);
        proto::uint(&mut self.ev, event::CATEGORY_IIDS, category_iid("run_health"));
        proto::uint(&mut self.ev, event::NAME_IID, name_iid);
        for (k, v) in h.metadata() {
            self.small2.clear();
            proto::string(&mut self.small2, annotation::NAME, &k);
            proto::uint(&mut self.small2, annotation::UINT_VALUE, v);
            proto::bytes(&mut self.ev, event::DEBUG_ANNOTATIONS, &self.small2);
        }
        self.pkt.clear();
        proto::uint(&mut self.pkt, packet::TIMESTAMP, ts);
        proto::uint(&mut self.pkt, packet::TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
        proto::uint(&mut self.pkt, packet::SEQUENCE_FLAGS, packet::SEQ_NEEDS_INCREMENTAL_STATE);
        if !self.interned.is_empty() {
            proto::bytes(&mut self.pkt, packet::INTERNED_DATA, &self.interned);
            self.interned.clear();
        }
        proto::bytes(&mut self.pkt, packet::TRACK_EVENT, &self.ev);
        self.flush_packet()
    }

    /// Writes a counter track descriptor.
    fn counter_track(&mut self, uuid: u64, name: &str, bytes_kib: bool) -> Result<()> {
        let parent = self.process.as_ref().map_or(0, |p| p.uuid);
        self.descriptor(uuid, |d, s| {
            proto::string(d, track::NAME, name);
            if parent != 0 {
                proto::uint(d, track::PARENT_UUID, parent);
            }
            s.clear();
            if bytes_kib {
                proto::uint(s, track::COUNTER_UNIT, track::UNIT_SIZE_BYTES);
                proto::int(s, track::COUNTER_UNIT_MULTIPLIER, 1024);
            }
            proto::bytes(d, track::COUNTER, s);
        })
    }

    /// Writes one counter value.
    fn counter(&mut self, track_uuid: u64, ts: u64, value: f64) -> Result<()> {
        let open = self.open_event(ts, false);
        let out = &mut self.out;
        proto::uint(out, event::TYPE, event::TYPE_COUNTER);
        proto::uint(out, event::TRACK_UUID, track_uuid);
        if value.fract() == 0.0 && value.abs() < 9.0e15 {
            proto::int(out, event::COUNTER_VALUE, value as i64);
        } else {
            proto::double(out, event::DOUBLE_COUNTER_VALUE, value);
        }
        self.close_event(open)
    }

    /// The flow id of correlation id `corr` in the current process (0 = none).
    fn flow(&self, corr: u64) -> Option<u64> {
        let p = self.process.as_ref()?;
        (corr != 0).then(|| uuid(p.pid, 5, corr))
    }

    fn kernel_slice(&mut self, d: &KernelDispatch) -> Result<()> {
        let base = self.kernel_track(d)?;
        let track = self.kernel_lane(base, d.start.ns, d.end.ns)?;
        let Some(p) = self.process.as_mut() else { return Ok(()) };
        let k = p.kernels.get(&d.kernel).copied();
        // The agent's strings are moved out and back to avoid a copy per slice.
        let agent = p.agents.get_mut(&d.agent).map(|a| (std::mem::take(&mut a.dashed), a.type_name));
        let name_iid = match k {
            Some(k) => k.name_iid,
            None => self.name_iid(&format!("kernel {}", d.kernel.0)),
        };
        let (agent_dashed, agent_type) = agent.unwrap_or((String::new(), "UNK"));
        let flow = self.flow(d.correlation_id.0);
        let mut counter_args = Vec::new();
        if let Some(p) = self.process.as_mut() {
            p.end_ns = p.end_ns.max(d.end.ns);
            counter_args = p.counters.slice_args(d.dispatch_id);
        }
        let args = [
            (Ann::BeginNs, Value::Uint(d.start.ns)),
            (Ann::EndNs, Value::Uint(d.end.ns)),
            (Ann::DeltaNs, Value::Uint(d.duration_ns())),
            (Ann::Kind, Value::Uint(kinds::KERNEL_DISPATCH)),
            (Ann::Agent, Value::Str(&agent_dashed)),
            (Ann::AgentType, Value::Str(agent_type)),
            (Ann::CorrId, Value::Uint(d.correlation_id.0)),
            (Ann::Queue, Value::Uint(d.queue.0.saturating_sub(1))),
            (Ann::Tid, Value::Uint(u64::from(d.thread.0))),
            (Ann::KernelId, Value::Uint(d.kernel.0)),
            (Ann::ScratchSize, Value::Uint(u64::from(d.private_segment_size))),
            (Ann::LdsBlockSize, Value::Uint(u64::from(d.group_segment_size))),
            (Ann::VgprCount, Value::Uint(u64::from(k.map_or(d.arch_vgpr_count, |k| k.arch_vgpr_count)))),
            (Ann::AccumVgprCount, Value::Uint(u64::from(k.map_or(d.accum_vgpr_count, |k| k.accum_vgpr_count)))),
            (Ann::SgprCount, Value::Uint(u64::from(k.map_or(d.sgpr_count, |k| k.sgpr_count)))),
            (Ann::WorkgroupSize, Value::Uint(d.workgroup.product())),
            (Ann::GridSize, Value::Uint(d.grid.product())),
            (Ann::StreamId, Value::Uint(d.stream.0)),
        ];
        let r = self.slice(track, "kernel_dispatch", name_iid, d.start.ns, Some(d.end.ns), flow, &args, &counter_args);
        if let Some(a) = self.process.as_mut().and_then(|p| p.agents.get_mut(&d.agent)) {
            a.dashed = agent_dashed;
        }
        r
    }

    fn agent(&mut self, a: &Agent) {
        let (label, index) = self.options.agent_index.parts(a);
        let info = AgentInfo {
            dashed: format!("{label}-{index}"),
            bracketed: format!("{label} [{index}]"),
            type_name: a.agent_type.as_str(),
            logical_node_id: a.logical_node_id,
        };
        if let Some(p) = self.process.as_mut() {
            p.agents.insert(a.id, info);
        }
    }

    fn kernel_symbol(&mut self, session: &Session<'_>, k: &KernelSymbol) {
        // A `--kernel-rename` copy is named after its ROCTx range (AMD's perfetto writer names a
        // renamed dispatch by its region).
        let name = if k.renamed_from.0 != 0 {
            session.strings.resolve(k.formatted_name).to_string()
        } else {
            slice_kernel_name(session.strings.resolve(k.name), session.strings.resolve(k.demangled_name))
        };
        let name_iid = self.name_iid(&name);
        let info = KernelInfo {
            name_iid,
            arch_vgpr_count: k.arch_vgpr_count,
            accum_vgpr_count: k.accum_vgpr_count,
            sgpr_count: k.sgpr_count,
        };
        if let Some(p) = self.process.as_mut() {
            p.kernels.insert(k.id, info);
        }
    }
}

impl Writer for PerfettoWriter {
    fn name(&self) -> &'static str {
        "pftrace"
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        let file = self.out.create("results.pftrace")?;
        self.state = Some(State::new(file, self.options)?);
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        let Some(st) = self.state.as_mut() else { return Ok(()) };
        match record {
            Record::Process(meta) => {
                st.flush_held()?;
                st.flush_counters()?;
                st.flush_memory()?;
                st.start_process(meta)
            }
            Record::Agent(a) => {
                st.agent(a);
                Ok(())
            }
            Record::KernelSymbol(k) => {
                st.kernel_symbol(session, k);
                Ok(())
            }
            Record::KernelDispatch(d) => st.dispatch(*d),
            Record::ApiCall(a) => st.api_call(session, a),
            Record::MemoryCopy(c) => st.memory_copy(c),
            Record::MemoryAllocation(m) => st.memory_allocation(m),
            Record::ScratchMemory(s) => st.scratch_memory(s),
            Record::Counter(c) => {
                st.counter_info(session, c);
                Ok(())
            }
            Record::CounterCollection(c) => st.counter_collection(c),
            Record::RunHealth(h) => {
                st.flush_held()?;
                st.flush_counters()?;
                st.flush_memory()?;
                st.run_health(h)
            }
            _ => Ok(()),
        }
    }

    fn finish(&mut self, _session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let Some(mut st) = self.state.take() else { return Ok(Vec::new()) };
        st.flush_held()?;
        st.flush_counters()?;
        st.flush_memory()?;
        st.spill_all()?;
        Ok(vec![st.file.commit()?])
    }

    fn abandon(&mut self) {
        self.state = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_slice_names_follow_rocprofv3() {
        assert_eq!(slice_kernel_name("_Z3addPfi.kd", "add(float*, int).kd"), "add(float*, int) [clone .kd]");
        assert_eq!(slice_kernel_name("vector_add.kd", "vector_add.kd"), "vector_add.kd");
    }

    #[test]
    fn annotation_ids_follow_the_table() {
        for (a, name) in [
            (Ann::BeginNs, "begin_ns"),
            (Ann::StreamId, "stream_ID"),
            (Ann::ScratchSize, "Scratch_Size"),
            (Ann::AccumVgprCount, "Accum_VGPR_Count"),
            (Ann::CopyBytes, "copy_bytes"),
        ] {
            assert_eq!(ANNOTATIONS[a.iid() as usize - 1], name);
        }
        assert_eq!(Ann::CopyBytes.iid() as usize, ANNOTATIONS.len(), "the last one");
    }

    #[test]
    fn uuids_differ_by_process_kind_and_key() {
        let a = uuid(1, 4, 7);
        assert_ne!(a, uuid(2, 4, 7));
        assert_ne!(a, uuid(1, 3, 7));
        assert_ne!(a, uuid(1, 4, 8));
        assert_ne!(uuid(0, 0, 0), 0);
    }
}
