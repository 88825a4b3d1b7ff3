//! OTF2 output (`<prefix>_results.otf2`, `<prefix>_results.def`, `<prefix>_results/`), laid out as
//! rocprofv3's: clock properties in ns, one system-tree node (the host), a PROCESS location group
//! per process and an ACCELERATOR group per agent, one location per (thread, agent, queue) for
//! kernels (`Thread <tid>, Compute on GPU Agent-1, Queue 0`), one region per kernel name, ENTER and
//! LEAVE per kernel with the string attribute `category`.
//!
//! Host records ([`host`]): API and ROCTx calls on a CPU_THREAD location per thread
//! (`Thread <tid>`, in the process's group; regions named by function, markers by their message,
//! paradigm USER for markers and rocDecode, `roctxMarkA` instants left out as rocprofv3 does),
//! memory copies on `Thread <tid>, Copy to GPU Agent-1` (per issuing thread and destination
//! agent, in that agent's group; regions `MEMORY_COPY_HOST_TO_DEVICE`, ..., role DATA_TRANSFER),
//! allocations on `Thread <tid>, Memory Operation at GPU Agent-1` (`UNK 0` for frees; role
//! ALLOCATE). Scratch-memory records are not written (neither does rocprofv3).
//!
//! Run health (issue 14): the process's `run_health` record becomes LocationGroupProperty
//! definitions of its PROCESS group (`run_health.records_written`, `run_health.lost.<reason>`,
//! `run_health.overhead_ppm`, ... as `uint64`, what `otf2-print -G` and the readers' location
//! group `properties` show) and, summed over the processes, trace-file properties of the anchor
//! (`ROCPROF_RS::RUN_HEALTH::RECORDS_WRITTEN`, ..., `otf2-print -A`).
//!
//! Counters (`--pmc`, which rocprofv3 leaves out of OTF2): one metric per counter (an absolute
//! `double`, valid until the next sample), sampled on a METRIC location per kernel location
//! (`Thread <tid>, Counters on GPU Agent-1, Queue 0`): each counted dispatch sets its value at the
//! dispatch's start and `0` at its end.
//!
//! Written through the OTF2 library ([`rocprof_otf2`], loaded at run time). Events stream to the
//! library as records arrive; the library needs times on one location never to decrease, so each
//! location holds back its last kernel (which also applies rocprofv3's overlap fix) and a kernel
//! that would start before its predecessor ended is clamped (counted in [`Otf2Writer::clamped`]).
//! The archive is built in a hidden `.<name>.partial/` directory and moved into place when complete.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rocprof_model::counters::{CounterCollection, CounterId};
use rocprof_model::{
    AgentId, ApiCall, ApiDomain, ApiFamily, KernelDispatch, KernelId, QueueId, Record, RunHealth, SessionMeta, ThreadId,
};
use rocprof_otf2::{Archive, Otf2};

use crate::csv::AgentIndex;
use crate::host::NodeInfo;
use crate::{Error, OutputLocation, Result, Session, Writer};

mod host;

/// The OTF2 library, loaded once per process.
fn library() -> std::result::Result<&'static Otf2, &'static rocprof_otf2::Error> {
    static LIB: OnceLock<std::result::Result<Otf2, rocprof_otf2::Error>> = OnceLock::new();
    LIB.get_or_init(Otf2::load).as_ref()
}

/// Whether `-f otf2` can work here; the error is the one-line message for users.
pub fn check_available() -> std::result::Result<(), String> {
    library().map(|_| ()).map_err(|e| e.to_string())
}

fn otf2_err(path: &Path) -> impl Fn(rocprof_otf2::Error) -> Error + '_ {
    move |e| Error::Io { path: path.to_path_buf(), source: std::io::Error::other(e) }
}

/// Writes the OTF2 archive.
#[derive(Debug)]
pub struct Otf2Writer {
    out: OutputLocation,
    agent_index: AgentIndex,
    state: Option<State>,
    clamped: u64,
}

impl Otf2Writer {
    /// A writer naming agents as `agent_index` says (`-A`).
    pub fn new(out: OutputLocation, agent_index: AgentIndex) -> Self {
        Self { out, agent_index, state: None, clamped: 0 }
    }

    /// Kernels whose start had to be moved to their predecessor's end on the same location.
    pub fn clamped(&self) -> u64 {
        self.clamped
    }
}

#[derive(Debug)]
struct Location {
    id: u64,
    name: u32,
    group: u32,
    /// `rocprof_otf2::LOCATION_*`.
    ty: u8,
    last_end: u64,
    held: Option<KernelDispatch>,
    /// The reorder buffer of a host location (threads, copies, allocations).
    host: Option<Box<host::HostQueue>>,
}

/// Where a host record goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum HostLocation {
    Thread(ThreadId),
    Copy(ThreadId, AgentId),
    Allocation(ThreadId, Option<AgentId>),
}

#[derive(Debug, Default)]
struct ProcessState {
    group: u32,
    agents: HashMap<AgentId, (String, u32)>,
    kernels: HashMap<KernelId, u32>,
    queue_rank: HashMap<(AgentId, QueueId), u32>,
    locations: HashMap<(ThreadId, AgentId, QueueId), usize>,
    /// Metric (member and class) ids of the process's counters, and their locations.
    metrics: HashMap<CounterId, u32>,
    metric_locations: HashMap<(ThreadId, AgentId, QueueId), usize>,
    host_locations: HashMap<HostLocation, usize>,
}

#[derive(Debug)]
struct State {
    archive: Archive<'static>,
    /// Final paths and where they are built.
    path: PathBuf,
    build_dir: PathBuf,
    name: String,
    strings: Vec<String>,
    string_ids: HashMap<String, u32>,
    /// (name string, role, paradigm).
    regions: Vec<(u32, u8, u8)>,
    region_ids: HashMap<(u32, u8, u8), u32>,
    locations: Vec<Location>,
    /// Metric members (= classes) by id: (name, description).
    metrics: Vec<(u32, u32)>,
    /// (name, type, parent process group or undefined).
    groups: Vec<(u32, u8, u32)>,
    process: Option<ProcessState>,
    first: Option<SessionMeta>,
    min_ts: u64,
    max_ts: u64,
    category_attr_value: u32,
    clamped: u64,
    /// Host records queued so far (their order number in the reorder buffers).
    host_seq: u64,
    /// Scratch list of events a host location writes.
    host_out: Vec<host::Out>,
    /// Each process's run_health (its group, the record), and their sum.
    health: Vec<(u32, RunHealth)>,
}

impl State {
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.string_ids.get(s) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(s.to_string());
        self.string_ids.insert(s.to_string(), id);
        id
    }

    fn region(&mut self, name: &str) -> u32 {
        self.region_as(name, rocprof_otf2::ROLE_FUNCTION, rocprof_otf2::PARADIGM_HIP)
    }

    fn region_as(&mut self, name: &str, role: u8, paradigm: u8) -> u32 {
        let key = (self.string(name), role, paradigm);
        if let Some(&r) = self.region_ids.get(&key) {
            return r;
        }
        let r = self.regions.len() as u32;
        self.regions.push(key);
        self.region_ids.insert(key, r);
        r
    }

    /// The location of a host record, created on first use.
    fn host_location(&mut self, key: HostLocation) -> usize {
        let p = self.process.as_mut().expect("a process section is open");
        if let Some(&l) = p.host_locations.get(&key) {
            return l;
        }
        let agent = |a: AgentId| p.agents.get(&a).cloned().unwrap_or_else(|| (format!("UNK Agent-{}", a.0), p.group));
        let (name, group, ty) = match key {
            HostLocation::Thread(t) => (format!("Thread {}", t.0), p.group, rocprof_otf2::LOCATION_CPU_THREAD),
            HostLocation::Copy(t, a) => {
                let (label, group) = agent(a);
                (format!("Thread {}, Copy to {label}", t.0), group, rocprof_otf2::LOCATION_ACCELERATOR_STREAM)
            }
            HostLocation::Allocation(t, a) => {
                let (label, group) = a.map(agent).unwrap_or_else(|| ("UNK 0".to_string(), p.group));
                (
                    format!("Thread {}, Memory Operation at {label}", t.0),
                    group,
                    rocprof_otf2::LOCATION_ACCELERATOR_STREAM,
                )
            }
        };
        let idx = self.locations.len();
        let name = self.string(&name);
        self.locations.push(Location {
            id: idx as u64,
            name,
            group,
            ty,
            last_end: 0,
            held: None,
            host: Some(Box::default()),
        });
        self.process.as_mut().expect("open").host_locations.insert(key, idx);
        idx
    }

    /// Queues one host record on its location and writes what leaves the reorder window.
    fn host_record(
        &mut self,
        path: &Path,
        key: HostLocation,
        start: u64,
        end: u64,
        region: u32,
        category: &str,
    ) -> Result<()> {
        let category = self.string(category);
        let l = self.host_location(key);
        self.host_seq += 1;
        let seq = self.host_seq;
        let q = self.locations[l].host.as_mut().expect("a host location");
        q.push(seq, start, end, region, category);
        self.host_write(path, l, false)
    }

    /// Writes the events of host location `l` that left its window (all of them with `all`).
    fn host_write(&mut self, path: &Path, l: usize, all: bool) -> Result<()> {
        let mut out = std::mem::take(&mut self.host_out);
        out.clear();
        let loc = &mut self.locations[l];
        let Some(q) = loc.host.as_mut() else { return Ok(()) };
        while (all && !q.is_empty()) || q.over_window() {
            self.clamped += q.pop(&mut loc.last_end, &mut out);
        }
        let id = loc.id;
        let err = otf2_err(path);
        for o in &out {
            match *o {
                host::Out::Enter { time, region, category } => {
                    self.min_ts = self.min_ts.min(time);
                    self.archive.enter(id, time, region, Some((0, category))).map_err(&err)?;
                }
                host::Out::Leave { time, region } => {
                    self.max_ts = self.max_ts.max(time);
                    self.archive.leave(id, time, region).map_err(&err)?;
                }
            }
        }
        self.host_out = out;
        Ok(())
    }

    /// An API or marker call on its thread's location.
    fn api_call(&mut self, path: &Path, session: &Session<'_>, a: &ApiCall) -> Result<()> {
        if self.process.is_none() || (a.domain == ApiDomain::MarkerCore && a.operation == 0) {
            return Ok(()); // roctxMarkA: an instant, which rocprofv3 leaves out of OTF2
        }
        let (category, paradigm) = match a.domain.family() {
            ApiFamily::Hsa => ("hsa_api", rocprof_otf2::PARADIGM_HIP),
            ApiFamily::Hip => ("hip_api", rocprof_otf2::PARADIGM_HIP),
            ApiFamily::Marker => ("marker_api", rocprof_otf2::PARADIGM_USER),
            ApiFamily::Rccl => ("rccl_api", rocprof_otf2::PARADIGM_HIP),
            ApiFamily::RocDecode => ("rocdecode_api", rocprof_otf2::PARADIGM_USER),
            ApiFamily::RocJpeg => ("rocjpeg_api", rocprof_otf2::PARADIGM_HIP),
        };
        let region = self.region_as(session.strings.resolve(a.display_name()), rocprof_otf2::ROLE_FUNCTION, paradigm);
        self.host_record(path, HostLocation::Thread(a.thread), a.start.ns, a.end.ns, region, category)
    }

    fn start_process(&mut self, meta: &SessionMeta) -> Result<()> {
        self.flush_held()?;
        let exe = meta.command.first().map(|c| c.rsplit('/').next().unwrap_or(c).to_string()).unwrap_or_default();
        let name = self.string(&exe);
        let group = self.groups.len() as u32;
        self.groups.push((name, rocprof_otf2::LOCATION_GROUP_PROCESS, rocprof_otf2::UNDEFINED));
        self.process = Some(ProcessState { group, ..ProcessState::default() });
        self.min_ts = self.min_ts.min(meta.start.ns);
        self.max_ts = self.max_ts.max(meta.end.ns);
        if self.first.is_none() {
            self.first = Some(meta.clone());
        }
        Ok(())
    }

    fn location(&mut self, d: &KernelDispatch) -> usize {
        let p = self.process.as_mut().expect("a process section is open");
        if let Some(&l) = p.locations.get(&(d.thread, d.agent, d.queue)) {
            return l;
        }
        let n = p.queue_rank.len() as u32;
        let rank = *p.queue_rank.entry((d.agent, d.queue)).or_insert(n);
        let (label, agent_group) =
            p.agents.get(&d.agent).cloned().unwrap_or_else(|| (format!("UNK Agent-{}", d.agent.0), p.group));
        let name = format!("Thread {}, Compute on {label}, Queue {rank}", d.thread.0);
        let key = (d.thread, d.agent, d.queue);
        let idx = self.locations.len();
        let name = self.string(&name);
        self.locations.push(Location {
            id: idx as u64,
            name,
            group: agent_group,
            ty: rocprof_otf2::LOCATION_ACCELERATOR_STREAM,
            last_end: 0,
            held: None,
            host: None,
        });
        self.process.as_mut().expect("open").locations.insert(key, idx);
        idx
    }

    /// The METRIC location of the counters of dispatches on `d`'s kernel location.
    fn metric_location(&mut self, d: &KernelDispatch) -> usize {
        let p = self.process.as_mut().expect("a process section is open");
        let key = (d.thread, d.agent, d.queue);
        if let Some(&l) = p.metric_locations.get(&key) {
            return l;
        }
        let n = p.queue_rank.len() as u32;
        let rank = *p.queue_rank.entry((d.agent, d.queue)).or_insert(n);
        let (label, agent_group) =
            p.agents.get(&d.agent).cloned().unwrap_or_else(|| (format!("UNK Agent-{}", d.agent.0), p.group));
        let name = format!("Thread {}, Counters on {label}, Queue {rank}", d.thread.0);
        let idx = self.locations.len();
        let name = self.string(&name);
        let ty = rocprof_otf2::LOCATION_METRIC;
        self.locations.push(Location {
            id: idx as u64,
            name,
            group: agent_group,
            ty,
            last_end: 0,
            held: None,
            host: None,
        });
        self.process.as_mut().expect("open").metric_locations.insert(key, idx);
        idx
    }

    /// One dispatch's counters: each counter's value at the dispatch's start, 0 at its end (times
    /// on the location never decrease: a start before the previous end is moved to it).
    fn counter_collection(&mut self, path: &Path, c: &CounterCollection) -> Result<()> {
        if c.values.is_empty() || self.process.is_none() {
            return Ok(());
        }
        let l = self.metric_location(&c.dispatch);
        let start = c.dispatch.start.ns.max(self.locations[l].last_end);
        let end = c.dispatch.end.ns.max(start);
        self.locations[l].last_end = end;
        self.min_ts = self.min_ts.min(start);
        self.max_ts = self.max_ts.max(end);
        let id = self.locations[l].id;
        let err = otf2_err(path);
        let metrics: Vec<(u32, f64)> = {
            let p = self.process.as_ref().expect("checked above");
            c.values.iter().filter_map(|v| p.metrics.get(&v.counter).map(|m| (*m, v.value))).collect()
        };
        for &(m, v) in &metrics {
            self.archive.metric(id, start, m, v).map_err(&err)?;
        }
        for &(m, _) in &metrics {
            self.archive.metric(id, end, m, 0.0).map_err(&err)?;
        }
        Ok(())
    }

    fn dispatch(&mut self, path: &Path, mut d: KernelDispatch) -> Result<()> {
        let l = self.location(&d);
        let Some(mut prev) = self.locations[l].held.take() else {
            self.locations[l].held = Some(d);
            return Ok(());
        };
        if d.start.ns < prev.end.ns && d.start.ns >= prev.start.ns {
            let end = prev.end.ns.min(d.end.ns);
            let mid = d.start.ns + (end - d.start.ns) / 2;
            prev.end.ns = mid;
            d.start.ns = mid;
        }
        self.locations[l].held = Some(d);
        self.kernel_events(path, l, &prev)
    }

    fn kernel_events(&mut self, path: &Path, l: usize, d: &KernelDispatch) -> Result<()> {
        let region = {
            let name = self.process.as_ref().and_then(|p| p.kernels.get(&d.kernel)).copied();
            match name {
                Some(sid) => {
                    let s = self.strings[sid as usize].clone();
                    self.region(&s)
                }
                None => self.region(&format!("kernel {}", d.kernel.0)),
            }
        };
        let loc = &mut self.locations[l];
        let mut start = d.start.ns;
        if start < loc.last_end {
            start = loc.last_end;
            self.clamped += 1;
        }
        let end = d.end.ns.max(start);
        loc.last_end = end;
        let id = loc.id;
        self.min_ts = self.min_ts.min(start);
        self.max_ts = self.max_ts.max(end);
        let err = otf2_err(path);
        self.archive.enter(id, start, region, Some((0, self.category_attr_value))).map_err(&err)?;
        self.archive.leave(id, end, region).map_err(&err)
    }

    fn flush_held(&mut self) -> Result<()> {
        let path = self.path.clone();
        for l in 0..self.locations.len() {
            if let Some(d) = self.locations[l].held.take() {
                self.kernel_events(&path, l, &d)?;
            }
            self.host_write(&path, l, true)?;
        }
        Ok(())
    }
}

impl Writer for Otf2Writer {
    fn name(&self) -> &'static str {
        "otf2"
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        let path = self.out.file("results.otf2");
        let lib = library().map_err(|e| Error::Unsupported(e.to_string()))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let build_dir = dir.join(format!(".{name}.partial"));
        let _ = std::fs::remove_dir_all(&build_dir);
        std::fs::create_dir_all(&build_dir).map_err(|source| Error::Io { path: build_dir.clone(), source })?;
        let archive = Archive::create(lib, &build_dir, &name).map_err(otf2_err(&path))?;
        let mut st = State {
            archive,
            path,
            build_dir,
            name,
            strings: Vec::new(),
            string_ids: HashMap::new(),
            regions: Vec::new(),
            region_ids: HashMap::new(),
            locations: Vec::new(),
            metrics: Vec::new(),
            groups: Vec::new(),
            process: None,
            first: None,
            min_ts: u64::MAX,
            max_ts: 0,
            category_attr_value: 0,
            clamped: 0,
            host_seq: 0,
            host_out: Vec::new(),
            health: Vec::new(),
        };
        st.string("category");
        st.string("tracing category");
        st.category_attr_value = st.string("kernel_dispatch");
        self.state = Some(st);
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        let Some(st) = self.state.as_mut() else { return Ok(()) };
        match record {
            Record::Process(meta) => st.start_process(meta)?,
            Record::Agent(a) => {
                let (label, index) = self.agent_index.parts(a);
                let label = format!("{} {label}-{index}", a.agent_type.as_str());
                let name = st.string(session.strings.resolve(a.name));
                let group = st.groups.len() as u32;
                let parent = st.process.as_ref().map_or(rocprof_otf2::UNDEFINED, |p| p.group);
                st.groups.push((name, rocprof_otf2::LOCATION_GROUP_ACCELERATOR, parent));
                if let Some(p) = st.process.as_mut() {
                    p.agents.insert(a.id, (label, group));
                }
            }
            Record::KernelSymbol(k) => {
                let name = st.string(session.strings.resolve(k.formatted_name));
                if let Some(p) = st.process.as_mut() {
                    p.kernels.insert(k.id, name);
                }
            }
            Record::KernelDispatch(d) => {
                let path = st.path.clone();
                st.dispatch(&path, *d)?;
            }
            Record::Counter(c) => {
                let name = st.string(session.strings.resolve(c.name));
                let description = st.string(session.strings.resolve(c.description));
                let id = st.metrics.len() as u32;
                st.metrics.push((name, description));
                if let Some(p) = st.process.as_mut() {
                    p.metrics.insert(c.id, id);
                }
            }
            Record::CounterCollection(c) => {
                let path = st.path.clone();
                st.counter_collection(&path, c)?;
            }
            Record::ApiCall(a) => {
                let path = st.path.clone();
                st.api_call(&path, session, a)?;
            }
            Record::MemoryCopy(c) if st.process.is_some() => {
                let path = st.path.clone();
                let region =
                    st.region_as(c.direction.as_str(), rocprof_otf2::ROLE_DATA_TRANSFER, rocprof_otf2::PARADIGM_HIP);
                let key = HostLocation::Copy(c.thread, c.dst_agent);
                st.host_record(&path, key, c.start.ns, c.end.ns, region, "memory_copy")?;
            }
            Record::MemoryAllocation(m) if st.process.is_some() => {
                let path = st.path.clone();
                let region =
                    st.region_as(m.operation.as_str(), rocprof_otf2::ROLE_ALLOCATE, rocprof_otf2::PARADIGM_HIP);
                let agent = if m.operation.is_allocation() { m.agent } else { None };
                let key = HostLocation::Allocation(m.thread, agent);
                st.host_record(&path, key, m.start.ns, m.end.ns, region, "memory_allocation")?;
            }
            Record::RunHealth(h) => {
                if let Some(p) = st.process.as_ref() {
                    st.health.push((p.group, **h));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self, _session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let Some(mut st) = self.state.take() else { return Ok(Vec::new()) };
        st.flush_held()?;
        self.clamped = st.clamped;
        let path = st.path.clone();
        let node = NodeInfo::current();
        let host = st.string(&node.hostname);
        let argv0 = st.first.as_ref().and_then(|m| m.command.first()).cloned().unwrap_or_default();
        let class = st.string(&argv0);
        let (min, max) = if st.min_ts == u64::MAX { (0, 0) } else { (st.min_ts, st.max_ts) };
        let realtime =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let unit = st.string("");
        // run_health: per process as properties of its group, summed as the archive's properties.
        let per_process = std::mem::take(&mut st.health);
        let total = per_process.iter().map(|(_, h)| *h).reduce(|mut a, b| {
            a.merge(&b);
            a
        });
        let health: Vec<(u32, Vec<(u32, u64)>)> = per_process
            .into_iter()
            .map(|(group, h)| {
                let props = h.metadata().into_iter().map(|(k, v)| (st.string(&format!("run_health.{k}")), v)).collect();
                (group, props)
            })
            .collect();
        let State { mut archive, strings, regions, locations, metrics, groups, build_dir, name, health: _, .. } = st;
        if let Some(total) = total {
            for (k, v) in total.metadata() {
                let key = format!("ROCPROF_RS::RUN_HEALTH::{}", k.replace('.', "::").to_ascii_uppercase());
                archive.property(&key, &v.to_string()).map_err(otf2_err(&path))?;
            }
        }
        let counts: Vec<u64> = locations.iter().map(|l| archive.events(l.id)).collect();
        archive
            .close(|d| {
                d.clock_properties(1_000_000_000, min, max - min + 1, realtime)?;
                for (i, s) in strings.iter().enumerate() {
                    d.string(i as u32, s)?;
                }
                d.attribute(0, 0, 1, rocprof_otf2::TYPE_STRING)?;
                d.system_tree_node(0, host, class, rocprof_otf2::UNDEFINED)?;
                for (i, (name, ty, parent)) in groups.iter().enumerate() {
                    d.location_group(i as u32, *name, *ty, 0, *parent)?;
                }
                for (i, (r, role, paradigm)) in regions.iter().enumerate() {
                    d.region(i as u32, *r, *role, *paradigm)?;
                }
                for (group, props) in &health {
                    for (k, v) in props {
                        d.location_group_property(*group, *k, *v)?;
                    }
                }
                for (i, (name, description)) in metrics.iter().enumerate() {
                    d.metric_member(i as u32, *name, *description, unit)?;
                    d.metric_class(i as u32, i as u32)?;
                }
                for (l, n) in locations.iter().zip(&counts) {
                    d.location(l.id, l.name, l.ty, *n, l.group)?;
                }
                Ok(())
            })
            .map_err(otf2_err(&path))?;
        // Move the finished archive into place: <name>.otf2, <name>.def, <name>/.
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| Error::Io { path: p, source }
        };
        for item in [format!("{name}.otf2"), format!("{name}.def"), name.clone()] {
            let from = build_dir.join(&item);
            let to = dir.join(&item);
            if to.is_dir() {
                std::fs::remove_dir_all(&to).map_err(io(&to))?;
            }
            if from.exists() {
                std::fs::rename(&from, &to).map_err(io(&to))?;
            }
        }
        let _ = std::fs::remove_dir_all(&build_dir);
        Ok(vec![path])
    }

    fn abandon(&mut self) {
        if let Some(st) = self.state.take() {
            let dir = st.build_dir.clone();
            drop(st);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
