//! Thread-trace capture (`rocprof-rs --att`): for each selected dispatch, the SQ thread trace is
//! started before the kernel and stopped after it through the intercept queue, and the per-SE
//! data is copied out once the stop packet completed.
//!
//! Per selected dispatch (the kernel filter of `rocprof_model::kernel_filter`; without an
//! iteration range, the first dispatch of each selected kernel, as rocprofv3) the application's
//! packets become: `[ATT start (+ code-object markers)] [kernel] [ATT stop] [barrier with the
//! application's signal]`, every one with the barrier bit, so the trace covers exactly this
//! kernel and the application's completion signal fires after the trace data is in memory. The
//! start stream is aqlprofile's (`rocprof_packets::att::AttPlan`), followed by one load marker per
//! loaded code object (`rocprof_packets::marker`), so the `.att` files say which code object sat
//! where. Buffers (control, trace of the requested size, command) are allocated once per agent,
//! from a host pool the GPU may access, when the agent's first selected dispatch arrives; while a
//! trace is in flight on an agent, another selected dispatch on it is not traced and counted
//! (reason "ATT buffer busy").
//!
//! The writer thread polls the stop packet's signal ([`poll`]); when it reached 0 it parses the
//! control buffer (`rocprof_packets::parse`), copies each traced SE's data to
//! `<capture dir>/att/<pid>/<agent>_shader_engine_<se>_<dispatch>.att` (gfx9 data behind the
//! 8-byte header aqlprofile prefixes), and appends each SE's dropped bytes to `loss.tsv` there. Code
//! objects are written as `<gfx>_code_object_id_<id>.out` when they are loaded ([`code_object_loaded`]).
//! Everything here except the per-dispatch selection check runs on cold paths.

use std::ffi::c_void;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};

use rocprof_hsa_sys::*;
use rocprof_launch::AttSettings;
use rocprof_model::kernel_filter::KernelFilter;
use rocprof_packets::att::{param, AttParameter, AttPlan};
use rocprof_packets::marker::CodeObjectMarker;
use rocprof_packets::parse::parse_sqtt_control;
use rocprof_packets::{Agent, Target};

use crate::diag;
use crate::diag::Level;
use crate::state::{self, Global};
use crate::tables::Originals;

/// Kernel ids the selection table covers.
const MAX_KERNELS: usize = 1 << 16;
/// Command buffer bytes per agent: start and stop streams plus markers for many code objects.
const COMMAND_BYTES: usize = 256 << 10;

/// The `--att` options (the launch setting) and where the outputs go.
#[derive(Debug, Clone)]
pub struct AttConfig {
    /// What the CLI asked for.
    pub settings: AttSettings,
    /// Where `.att`, `.out` and `loss.tsv` go.
    pub dir: PathBuf,
}

struct Selection {
    filter: KernelFilter,
    /// Per kernel id: 0 unknown, 1 selected, 2 not selected.
    selected: Box<[AtomicU8]>,
    /// Per kernel id: dispatches seen (ATT's own iteration count).
    iterations: Box<[AtomicU64]>,
}

/// A traced dispatch whose data has not been copied out yet.
struct Session {
    dispatch_id: u64,
    /// Completed (0) by the stop packet.
    stopped: hsa_signal_t,
    /// Set to 0 by the host once the data is copied out; the next trace on the agent waits for it.
    copied: hsa_signal_t,
}

/// Traces in flight per agent at most; a selected dispatch beyond them is not traced.
const MAX_SESSIONS: usize = 64;

/// One agent's trace resources.
struct Tracer {
    agent: hsa_agent_t,
    node: u32,
    gpu_index: u32,
    gfx: String,
    pkt_agent: Agent,
    plan: Option<AttPlan>,
    control: u64,
    trace: u64,
    command: u64,
    /// Traces in flight, oldest first, and the signals free for new ones.
    sessions: Mutex<Sessions>,
}

#[derive(Default)]
struct Sessions {
    in_flight: std::collections::VecDeque<Session>,
    free: Vec<hsa_signal_t>,
}

// SAFETY: the raw handles are plain integers naming runtime objects usable from any thread.
unsafe impl Send for Tracer {}
// SAFETY: as above; mutable state is behind atomics and a mutex.
unsafe impl Sync for Tracer {}

struct AttState {
    config: AttConfig,
    selection: Option<Selection>,
    tracers: Mutex<Vec<&'static Tracer>>,
    /// GPU agents in discovery order (for `--att-gpu-index`).
    gpus: Mutex<Vec<u64>>,
    lost_busy: AtomicU64,
    /// `--att-serialize-all`: one chain of dispatches per agent, across its queues.
    serials: Mutex<Vec<&'static Serial>>,
    /// Dispatches that could not join their agent's chain, by reason.
    unserialized: AtomicU64,
}

static ATT: OnceLock<AttState> = OnceLock::new();

/// Starts thread-trace capture when the launch settings ask for it (called once from `OnLoad`).
pub fn init(capture_dir: &std::path::Path, gpus: &[u64]) {
    let Some(settings) = crate::env::env().att.clone() else { return };
    let config = AttConfig { settings, dir: capture_dir.join("att").join(std::process::id().to_string()) };
    if let Err(e) = std::fs::create_dir_all(&config.dir) {
        diag!(Level::Error, "cannot create {}: {e}; thread trace is off", config.dir.display());
        return;
    }
    // rocprofv3 names each --att-gpu-index entry no GPU has (and traces the others).
    for i in config.settings.gpu_index.iter().flatten().filter(|&&i| i as usize >= gpus.len()) {
        diag!(Level::Error, "thread trace: Invalid GPU Device Index: {i} (the process has {} GPUs)", gpus.len());
    }
    let selection = match crate::env::env().kernel_filter.clone().and_then(|s| s.compile()) {
        Ok(filter) => Some(Selection {
            filter,
            selected: (0..MAX_KERNELS).map(|_| AtomicU8::new(0)).collect(),
            iterations: (0..MAX_KERNELS).map(|_| AtomicU64::new(0)).collect(),
        }),
        Err(e) => {
            diag!(Level::Error, "kernel filter: {e}; thread trace is off");
            return;
        }
    };
    let _ = ATT.set(AttState {
        config,
        selection,
        tracers: Mutex::new(Vec::new()),
        gpus: Mutex::new(gpus.to_vec()),
        lost_busy: AtomicU64::new(0),
        serials: Mutex::new(Vec::new()),
        unserialized: AtomicU64::new(0),
    });
}

/// True when thread-trace capture is on.
pub fn enabled() -> bool {
    ATT.get().is_some()
}

/// True when every kernel dispatch gets the barrier bit (`--att-serialize-all`).
pub fn serialize_all() -> bool {
    ATT.get().is_some_and(|a| a.config.settings.serialize_all)
}

/// A kernel symbol was recorded (cold path): decide once whether the kernel is selected.
pub fn kernel_loaded(kernel_id: u64, raw_name: &[u8]) {
    let Some(sel) = ATT.get().and_then(|a| a.selection.as_ref()) else { return };
    let Some(slot) = sel.selected.get(kernel_id as usize) else { return };
    let raw = String::from_utf8_lossy(raw_name);
    let raw = raw.trim_end_matches('\0');
    let raw = raw.strip_suffix(".kd").unwrap_or(raw);
    let name = rocprof_model::capture::demangle::demangle(raw).unwrap_or_else(|| raw.to_string());
    slot.store(if sel.filter.selects_kernel(&name) { 1 } else { 2 }, Ordering::Relaxed);
}

/// Whether this dispatch of kernel `kernel_id` is traced (hot path: two atomic operations).
pub fn selects(kernel_id: u64) -> bool {
    let Some(sel) = ATT.get().and_then(|a| a.selection.as_ref()) else { return false };
    let i = kernel_id as usize;
    if sel.selected.get(i).is_none_or(|s| s.load(Ordering::Relaxed) != 1) {
        return false;
    }
    let n = sel.iterations[i].fetch_add(1, Ordering::Relaxed) + 1;
    if sel.filter.has_iteration_range() {
        sel.filter.selects_iteration(n)
    } else {
        n == 1
    }
}

fn agent_info<T: Default>(o: &Originals, agent: hsa_agent_t, attr: u32) -> Option<T> {
    let get = o.agent_get_info?;
    let mut v = T::default();
    // SAFETY: `v` is storage of the attribute's documented type (callers pick `T` accordingly).
    (unsafe { get(agent, attr, (&mut v as *mut T).cast()) } == HSA_STATUS_SUCCESS).then_some(v)
}

fn agent_name(o: &Originals, agent: hsa_agent_t) -> String {
    let mut name = [0u8; 64];
    if let Some(get) = o.agent_get_info {
        // SAFETY: HSA_AGENT_INFO_NAME writes at most 64 bytes.
        unsafe { get(agent, HSA_AGENT_INFO_NAME, name.as_mut_ptr().cast()) };
    }
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}

/// A global-segment pool of a CPU agent that allows allocation: host memory every agent can be
/// given access to (the trace buffers are read by the host after the stop).
fn host_pool(o: &Originals) -> Option<hsa_amd_memory_pool_t> {
    let (iterate_agents, iterate_pools, pool_info) =
        (o.iterate_agents?, o.iterate_memory_pools?, o.memory_pool_get_info?);
    struct Ctx {
        pools: PFN_hsa_amd_agent_iterate_memory_pools,
        info: PFN_hsa_amd_memory_pool_get_info,
        get: PFN_hsa_agent_get_info,
        found: Option<hsa_amd_memory_pool_t>,
    }
    unsafe extern "C" fn each_pool(pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `Ctx` below, alive for the iteration.
        let ctx = unsafe { &mut *data.cast::<Ctx>() };
        let (mut segment, mut alloc) = (u32::MAX, false);
        // SAFETY: documented attribute types (u32 segment, bool allowed).
        unsafe {
            (ctx.info)(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, (&mut segment as *mut u32).cast());
            (ctx.info)(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, (&mut alloc as *mut bool).cast());
        }
        if segment == HSA_AMD_SEGMENT_GLOBAL && alloc && ctx.found.is_none() {
            ctx.found = Some(pool);
        }
        HSA_STATUS_SUCCESS
    }
    unsafe extern "C" fn each_agent(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `Ctx` below, alive for the iteration.
        let ctx = unsafe { &mut *data.cast::<Ctx>() };
        let mut ty: u32 = u32::MAX;
        // SAFETY: HSA_AGENT_INFO_DEVICE is a u32 enum.
        unsafe { (ctx.get)(agent, HSA_AGENT_INFO_DEVICE, (&mut ty as *mut u32).cast()) };
        if ty == HSA_DEVICE_TYPE_CPU && ctx.found.is_none() {
            // SAFETY: `each_pool` matches the callback type; `data` stays valid.
            unsafe { (ctx.pools)(agent, Some(each_pool), data) };
        }
        HSA_STATUS_SUCCESS
    }
    let mut ctx = Ctx { pools: iterate_pools, info: pool_info, get: o.agent_get_info?, found: None };
    // SAFETY: `each_agent` matches the callback type and `ctx` outlives the call.
    unsafe { iterate_agents(Some(each_agent), (&mut ctx as *mut Ctx).cast()) };
    ctx.found
}

fn allocate(o: &Originals, pool: hsa_amd_memory_pool_t, agent: hsa_agent_t, size: usize) -> Option<u64> {
    let alloc = o.memory_pool_allocate?;
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: valid pool and out-pointer.
    if unsafe { alloc(pool, size, 0, &mut p) } != HSA_STATUS_SUCCESS || p.is_null() {
        return None;
    }
    if let Some(allow) = o.agents_allow_access {
        // SAFETY: `p` is a fresh allocation; one agent, no flags.
        unsafe { allow(1, &agent, std::ptr::null(), p) };
    }
    // SAFETY: the allocation holds `size` bytes; zeroed so stale control records never look valid.
    unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, size) };
    Some(p as u64)
}

/// The tracer of `agent`, created with its buffers on first use (cold path).
fn tracer(a: &AttState, o: &Originals, agent: hsa_agent_t) -> Option<&'static Tracer> {
    let mut tracers = a.tracers.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = tracers.iter().find(|t| t.agent.handle == agent.handle) {
        return t.plan.is_some().then_some(*t);
    }
    let gpu_index = a.gpus.lock().unwrap_or_else(|e| e.into_inner()).iter().position(|&h| h == agent.handle)? as u32;
    let gfx = agent_name(o, agent);
    let node: u32 = agent_info(o, agent, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID).unwrap_or(gpu_index);
    let mut t = Tracer {
        agent,
        node,
        gpu_index,
        gfx: gfx.clone(),
        pkt_agent: Agent::reference(Target::from_name("gfx942").ok()?),
        plan: None,
        control: 0,
        trace: 0,
        command: 0,
        sessions: Mutex::new(Sessions::default()),
    };
    let mut traced = a.config.settings.gpu_index.as_ref().is_none_or(|l| l.contains(&gpu_index));
    if traced && Target::from_name(&gfx).is_ok_and(|t| t.family() == rocprof_packets::Family::Gfx10) {
        // gfx10 (RDNA1/2) traces have a token format of their own that no decoder here reads. The
        // CLI reports it once after the run (from `loss.tsv`).
        append(&a.config.dir.join("loss.tsv"), &format!("unsupported\t{gfx}\n"));
        traced = false;
    }
    let built = traced.then(|| build_resources(a, o, &mut t)).flatten();
    if traced && built.is_none() {
        diag!(Level::Error, "thread trace: could not set up agent {gfx} (node {node}); its dispatches are not traced");
    }
    let t: &'static Tracer = Box::leak(Box::new(t));
    tracers.push(t);
    t.plan.is_some().then_some(t)
}

fn build_resources(a: &AttState, o: &Originals, t: &mut Tracer) -> Option<()> {
    let target = Target::from_name(&t.gfx).ok()?;
    let mut pa = Agent::reference(target);
    let se: u32 = agent_info(o, t.agent, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES).unwrap_or(pa.se_num);
    let cus: u32 = agent_info(o, t.agent, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT).unwrap_or(pa.cu_num);
    let sa: u32 =
        agent_info(o, t.agent, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE).unwrap_or(pa.shader_arrays_per_se);
    let xcc: u32 = agent_info(o, t.agent, HSA_AMD_AGENT_INFO_NUM_XCC).unwrap_or(pa.xcc_num);
    if se > 0 {
        pa.se_num = se;
    }
    if cus > 0 {
        pa.cu_num = cus;
    }
    if sa > 0 {
        pa.shader_arrays_per_se = sa;
    }
    if xcc > 0 {
        pa.xcc_num = xcc;
    }
    let c = &a.config.settings;
    let mut params = vec![
        AttParameter { id: param::COMPUTE_UNIT_TARGET, value: c.target_cu },
        AttParameter { id: param::SE_MASK, value: c.se_mask },
        AttParameter { id: param::SIMD_SELECTION, value: c.simd_select },
        AttParameter { id: param::ATT_BUFFER_SIZE, value: c.buffer_size as u32 },
        AttParameter { id: param::BUFFER_SIZE_HIGH, value: (c.buffer_size >> 32) as u32 },
    ];
    if let Some(ctrl) = c.perf_ctrl {
        // Streamed SQ counters (gfx9 only, as rocprofv3): aqlprofile's parameters, the rate as
        // rocprofv3 passes it (the option minus one).
        match c.perf_events.iter().find(|(g, _)| *g == t.gfx) {
            Some((_, events)) if pa.family() == rocprof_packets::Family::Gfx9 => {
                params.push(AttParameter { id: param::PERFCOUNTER_CTRL, value: ctrl - 1 });
                params.extend(
                    events.iter().map(|&(e, m)| AttParameter { id: param::PERFCOUNTER_NAME, value: e | (m & 0xF) << 28 }),
                );
            }
            _ => diag!(
                Level::Warning,
                "thread trace: {} cannot stream SQ counters (--att-perfcounters is gfx9-only and needs every counter on the target); traced without them",
                t.gfx
            ),
        }
    }
    let plan = match AttPlan::new(&pa, &params) {
        Ok(p) => p,
        Err(e) => {
            diag!(Level::Error, "thread trace on {}: {e}", t.gfx);
            return None;
        }
    };
    let pool = host_pool(o)?;
    let control = allocate(o, pool, t.agent, plan.control_buffer_size() as usize)?;
    // The trace buffer is 4 KiB aligned (SQTT base registers hold address >> 12).
    let trace = allocate(o, pool, t.agent, plan.trace_buffer_size() as usize + 4096)?.next_multiple_of(4096);
    let command = allocate(o, pool, t.agent, COMMAND_BYTES + 256)?.next_multiple_of(256);
    let create = o.signal_create?;
    let mut free = Vec::with_capacity(2 * MAX_SESSIONS);
    for _ in 0..2 * MAX_SESSIONS {
        let mut signal = hsa_signal_t { handle: 0 };
        // SAFETY: valid out-pointer; no consumers list.
        if unsafe { create(0, 0, std::ptr::null(), &mut signal) } != HSA_STATUS_SUCCESS {
            return None;
        }
        free.push(signal);
    }
    t.pkt_agent = pa;
    t.plan = Some(plan);
    (t.control, t.trace, t.command) = (control, trace, command);
    t.sessions.get_mut().unwrap_or_else(|e| e.into_inner()).free = free;
    Some(())
}

/// The PM4 streams of one traced dispatch: start (with a marker per loaded code object) and
/// stop, copied into the agent's command buffer; returns the two AQL packets.
fn command_packets(g: &Global, t: &Tracer) -> Option<([u8; 64], [u8; 64])> {
    let plan = t.plan.as_ref()?;
    let mut start = plan.start_stream(t.control, t.trace).ok()?;
    for e in g.code_objects.iter() {
        if e.executable.load(Ordering::Acquire) == 0 {
            continue;
        }
        let m = CodeObjectMarker {
            id: e.id.load(Ordering::Acquire),
            addr: e.base.load(Ordering::Acquire),
            size: e.size.load(Ordering::Acquire),
            is_unload: false,
            from_start: true,
        };
        start.extend(m.stream(&t.pkt_agent));
    }
    let stop = plan.stop_stream(t.control, t.trace).ok()?;
    let stop_at = (start.len() * 4).next_multiple_of(256);
    if stop_at + stop.len() * 4 > COMMAND_BYTES {
        diag!(Level::Warning, "thread trace: too many code objects for the command buffer; not traced");
        return None;
    }
    let family = t.pkt_agent.family();
    let start_pkt = rocprof_packets::aql::pm4_ib_packet(family, t.command, start.len()).ok()?;
    let stop_pkt = rocprof_packets::aql::pm4_ib_packet(family, t.command + stop_at as u64, stop.len()).ok()?;
    // SAFETY: the command buffer holds COMMAND_BYTES bytes (checked above); nothing reads it until
    // the packets referencing it are submitted below.
    unsafe {
        std::ptr::copy_nonoverlapping(start.as_ptr().cast::<u8>(), t.command as *mut u8, start.len() * 4);
        std::ptr::copy_nonoverlapping(
            stop.as_ptr().cast::<u8>(),
            (t.command + stop_at as u64) as *mut u8,
            stop.len() * 4,
        );
    }
    Some((start_pkt, stop_pkt))
}

/// AQL header of our vendor packets: barrier bit, system-scope fences.
const VENDOR_HEADER: u16 = HSA_PACKET_TYPE_VENDOR_SPECIFIC as u16
    | 1 << HSA_PACKET_HEADER_BARRIER
    | (HSA_FENCE_SCOPE_SYSTEM as u16) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
    | (HSA_FENCE_SCOPE_SYSTEM as u16) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;

/// Wraps the packets of a selected dispatch with the trace start and stop. `inner` builds them
/// (see [`crate::aql::Sequence`]: `[serialising barrier, PMC start]`, kernel, `[PMC stop, PMC
/// read]`, `[the application's completion barrier]`); it is called at most once, under the agent's
/// trace lock and only once the dispatch is sure to be traced, so counter collection's chain orders
/// traced dispatches as this one does. Returns the packets to submit (`[wait for the previous trace's
/// copy-out]`, start, the counted kernel, stop, `[barrier]`), or `None` without calling `inner` when
/// this dispatch cannot be traced.
///
/// One trace buffer per agent serves consecutive traced dispatches: a trace starts only after the
/// host copied the previous one out (a barrier-AND on the previous session's `copied` signal, which
/// the writer thread's [`poll`] clears), so traced dispatches run one after the other, as
/// rocprofv3 serialises them.
pub fn wrap(agent: u64, dispatch_id: u64, inner: &mut dyn FnMut() -> crate::aql::Sequence) -> Option<Vec<[u8; 64]>> {
    let (a, g, o) = (ATT.get()?, state::global()?, state::originals()?);
    let t = tracer(a, o, hsa_agent_t { handle: agent })?;
    let store = o.signal_store_relaxed?;
    let mut sessions = t.sessions.lock().unwrap_or_else(|e| e.into_inner());
    if sessions.free.len() < 2 {
        a.lost_busy.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let (mut start, mut stop) = command_packets_after(g, t, sessions.in_flight.back().map(|s| s.copied))?;
    let stopped = sessions.free.pop().expect("checked above");
    let copied = sessions.free.pop().expect("checked above");
    // SAFETY: our own signals; nobody waits on them yet.
    unsafe {
        store(stopped, 1);
        store(copied, 1);
    }
    let mut out = Vec::with_capacity(9);
    if let Some(prev) = sessions.in_flight.back() {
        let wait = crate::aql::completion_barrier(VENDOR_HEADER, hsa_signal_t { handle: 0 }, prev.copied);
        // SAFETY: a barrier-AND packet is a 64-byte plain C struct.
        out.push(unsafe { std::mem::transmute::<hsa_barrier_and_packet_t, [u8; 64]>(wait) });
    }
    start[0..2].copy_from_slice(&VENDOR_HEADER.to_le_bytes());
    stop[0..2].copy_from_slice(&VENDOR_HEADER.to_le_bytes());
    stop[56..64].copy_from_slice(&stopped.handle.to_le_bytes());
    sessions.in_flight.push_back(Session { dispatch_id, stopped, copied });
    let mut seq = inner();
    drop(sessions);
    let kernel = &mut seq.packets[seq.kernel_at];
    let h = u16::from_le_bytes([kernel[0], kernel[1]]) | 1 << HSA_PACKET_HEADER_BARRIER;
    kernel[0..2].copy_from_slice(&h.to_le_bytes());
    out.push(start);
    out.extend_from_slice(&seq.packets[..seq.body_end]);
    out.push(stop);
    out.extend_from_slice(&seq.packets[seq.body_end..seq.count]);
    Some(out)
}

/// [`command_packets`]: the command buffer is rewritten for the next trace only once the previous
/// trace on the agent has been copied out; until then its packets still point at the old streams,
/// which are identical (same buffers, same markers unless code objects were loaded meanwhile).
fn command_packets_after(g: &Global, t: &Tracer, _previous: Option<hsa_signal_t>) -> Option<([u8; 64], [u8; 64])> {
    command_packets(g, t)
}

/// Signals in an agent's serialisation chain: at most this many dispatches of one agent can be
/// enqueued and not yet complete before a new one can no longer join the chain.
const SERIAL_SIGNALS: usize = 1024;

/// `--att-serialize-all` on one agent: every kernel dispatch of the agent, on whichever queue,
/// runs after the previous one (in the order the hooks saw them) completed, as rocprofv3's profiler
/// serializer does. Dispatch `k` gets `done[k % N]` (set to 1 when it joins); its packets become
/// `[barrier-AND on done[(k-1) % N]] [its packets up to the application's completion barrier, the
/// kernel with the barrier bit] [barrier-AND (barrier bit) completing done[k % N]] [the
/// application's completion barrier]` (`done` first: once the application sees its signal it may
/// destroy the queue, which abandons packets still waiting there). Within a queue the hooks run in queue order, so a
/// dispatch only ever waits for an earlier one: no cycle, no deadlock. `done[k % N]` is reused by
/// dispatch `k + N` only when dispatch `k + 1` (whose barrier waited for it) has completed.
struct Serial {
    agent: u64,
    /// Dispatches that joined the chain so far.
    next: Mutex<u64>,
    done: Box<[hsa_signal_t]>,
}

fn serial(a: &AttState, o: &Originals, agent: u64) -> Option<&'static Serial> {
    let mut serials = a.serials.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = serials.iter().find(|s| s.agent == agent) {
        return Some(*s);
    }
    let create = o.signal_create?;
    let mut done = Vec::with_capacity(SERIAL_SIGNALS);
    for _ in 0..SERIAL_SIGNALS {
        let mut signal = hsa_signal_t { handle: 0 };
        // SAFETY: valid out-pointer; no consumers list. Value 0: "completed".
        if unsafe { create(0, 0, std::ptr::null(), &mut signal) } != HSA_STATUS_SUCCESS {
            diag!(Level::Error, "--att-serialize-all: cannot create signals; dispatches run unserialised");
            return None;
        }
        done.push(signal);
    }
    let s: &'static Serial = Box::leak(Box::new(Serial { agent, next: Mutex::new(0), done: done.into() }));
    serials.push(s);
    Some(s)
}

/// A dispatch's place in its agent's chain: its own signal and its predecessor's.
#[derive(Debug, Clone, Copy)]
pub struct Link {
    mine: hsa_signal_t,
    previous: Option<hsa_signal_t>,
}

/// With `--att-serialize-all`, puts a dispatch's packets (the kernel gets the barrier bit) into
/// its agent's chain (see [`Serial`]); `None` when serialisation is off or the dispatch cannot
/// join (counted and reported at exit), in which case the packets go out unchanged.
pub fn serialized(agent: u64, packets: &[[u8; 64]]) -> Option<Vec<[u8; 64]>> {
    Some(chained(join(agent)?, packets))
}

/// Takes the next place in `agent`'s chain (see [`serialized`]). The packets built with
/// [`chained`] from the returned link must be submitted: the next dispatch waits for them.
pub fn join(agent: u64) -> Option<Link> {
    let a = ATT.get().filter(|a| a.config.settings.serialize_all)?;
    let o = state::originals()?;
    let (load, store) = (o.signal_load_relaxed?, o.signal_store_relaxed?);
    let Some(s) = serial(a, o, agent) else {
        a.unserialized.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    let n = s.done.len() as u64;
    let (mine, previous) = {
        let mut next = s.next.lock().unwrap_or_else(|e| e.into_inner());
        let k = *next;
        // SAFETY: our own live signals.
        if k + 1 >= n && unsafe { load(s.done[((k + 1) % n) as usize]) } != 0 {
            // Dispatch k + 1 - N has not completed: its predecessor's signal may still be waited for.
            drop(next);
            a.unserialized.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        let mine = s.done[(k % n) as usize];
        // SAFETY: our own live signal; nobody waits on it (checked above). Set before the next
        // dispatch can join, so its barrier cannot see this slot's old 0.
        unsafe { store(mine, 1) };
        *next = k + 1;
        (mine, (k > 0).then(|| s.done[((k - 1) % n) as usize]))
    };
    Some(Link { mine, previous })
}

/// The packets of a dispatch at `link` in its chain: `packets` (a kernel and what surrounds it)
/// between the wait for the predecessor and the completion of its own signal.
pub fn chained(link: Link, packets: &[[u8; 64]]) -> Vec<[u8; 64]> {
    let Link { mine, previous } = link;
    let mut out = Vec::with_capacity(packets.len() + 2);
    if let Some(prev) = previous {
        let wait = crate::aql::completion_barrier(VENDOR_HEADER, hsa_signal_t { handle: 0 }, prev);
        // SAFETY: a barrier-AND packet is a 64-byte plain C struct.
        out.push(unsafe { std::mem::transmute::<hsa_barrier_and_packet_t, [u8; 64]>(wait) });
    }
    let ty = |p: &[u8; 64]| u32::from(u16::from_le_bytes([p[0], p[1]]) & 0xFF);
    let kernel_at = packets.iter().position(|p| ty(p) == HSA_PACKET_TYPE_KERNEL_DISPATCH).unwrap_or(0);
    // `done` completes before the application's completion barrier (the first barrier-AND after
    // the kernel): an application that saw its signal may destroy the queue at once, and a queue
    // destroyed under a waiting barrier abandons it, which would stall the chain.
    let app_barrier = packets[kernel_at..]
        .iter()
        .position(|p| ty(p) == HSA_PACKET_TYPE_BARRIER_AND)
        .map_or(packets.len(), |i| kernel_at + i);
    let first = out.len();
    out.extend_from_slice(&packets[..app_barrier]);
    if let Some(kernel) = out.get_mut(first + kernel_at) {
        let h = u16::from_le_bytes([kernel[0], kernel[1]]) | 1 << HSA_PACKET_HEADER_BARRIER;
        kernel[0..2].copy_from_slice(&h.to_le_bytes());
    }
    let done = crate::aql::completion_barrier(VENDOR_HEADER, mine, hsa_signal_t { handle: 0 });
    // SAFETY: as above.
    out.push(unsafe { std::mem::transmute::<hsa_barrier_and_packet_t, [u8; 64]>(done) });
    out.extend_from_slice(&packets[app_barrier..]);
    out
}

fn append(path: &std::path::Path, line: &str) {
    let f = std::fs::OpenOptions::new().create(true).append(true).open(path);
    if let Ok(mut f) = f {
        let _ = f.write_all(line.as_bytes());
    }
}

/// Copies out the traces whose stop completed, oldest first, and releases the next trace on
/// their agent (writer thread; also at exit). Returns how many are still in flight.
pub fn poll() -> usize {
    let (Some(a), Some(o)) = (ATT.get(), state::originals()) else { return 0 };
    let (Some(load), Some(store)) = (o.signal_load_relaxed, o.signal_store_relaxed) else { return 0 };
    let tracers: Vec<&'static Tracer> = a.tracers.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut pending = 0;
    for t in tracers {
        loop {
            let sessions = t.sessions.lock().unwrap_or_else(|e| e.into_inner());
            let Some(s) = sessions.in_flight.front() else { break };
            // SAFETY: our own live signal.
            if unsafe { load(s.stopped) } != 0 {
                pending += sessions.in_flight.len();
                break;
            }
            let (dispatch, stopped, copied) = (s.dispatch_id, s.stopped, s.copied);
            drop(sessions);
            copy_out(a, t, dispatch);
            let mut sessions = t.sessions.lock().unwrap_or_else(|e| e.into_inner());
            sessions.in_flight.pop_front();
            // SAFETY: our own live signal; the next trace's barrier waits for it.
            unsafe { store(copied, 0) };
            sessions.free.push(stopped);
            if sessions.in_flight.is_empty() {
                // Nobody waits on it any more: reusable.
                sessions.free.push(copied);
            } else {
                // The next session's barrier may still read it; recycle it after that session.
                sessions.free.insert(0, copied);
            }
        }
    }
    pending
}

fn copy_out(a: &AttState, t: &Tracer, dispatch: u64) {
    let Some(plan) = t.plan.as_ref() else { return };
    let size = plan.control_buffer_size() as usize;
    // SAFETY: the control buffer holds `size` bytes and the stop packet that wrote it completed.
    let control = unsafe { std::slice::from_raw_parts(t.control as *const u8, size) };
    let result = match parse_sqtt_control(plan, t.trace, control) {
        Ok(r) => r,
        Err(e) => {
            diag!(Level::Error, "thread trace of dispatch {dispatch}: control buffer: {e}");
            return;
        }
    };
    let gfx9 = t.pkt_agent.family() == rocprof_packets::Family::Gfx9;
    let per_xcc = t.pkt_agent.se_num / t.pkt_agent.xcc_num.max(1);
    for se in result.ses.iter().filter(|s| s.enabled) {
        // SAFETY: `data_bytes` is clamped to the SE's slice of the trace buffer.
        let data = unsafe { std::slice::from_raw_parts(se.data_addr as *const u8, se.data_bytes as usize) };
        let name = format!("{}_shader_engine_{}_{dispatch}.att", t.node, se.se);
        let path = a.config.dir.join(&name);
        let mut bytes = Vec::with_capacity(data.len() + 8);
        if gfx9 {
            // aqlprofile's header: legacy version 0x11, family version 4, SIMD mask, CU, SE id.
            let c = &a.config.settings;
            let h: u64 = 0x11
                | 4 << 13
                | u64::from(c.simd_select & 0xF) << 16
                | u64::from(c.target_cu & 0x1F) << 20
                | u64::from((se.se % per_xcc.max(1)) & 0x3F) << 26;
            bytes.extend_from_slice(&h.to_le_bytes());
        }
        bytes.extend_from_slice(data);
        if let Err(e) = std::fs::write(&path, &bytes) {
            diag!(Level::Error, "thread trace: cannot write {}: {e}", path.display());
        }
        let dropped = u64::from(se.dropped) * 32;
        if dropped > 0 || se.overflow || se.full {
            let lost = if dropped > 0 { dropped } else { 32 };
            append(&a.config.dir.join("loss.tsv"), &format!("{}\t{dispatch}\t{}\t{lost}\n", t.node, se.se));
        }
    }
}

/// Waits (bounded) for traces in flight and copies them out (unload / exit).
pub fn drain(timeout: std::time::Duration) {
    let until = std::time::Instant::now() + timeout;
    while poll() > 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    if let Some(a) = ATT.get() {
        let busy = a.lost_busy.load(Ordering::Relaxed);
        if busy > 0 {
            diag!(Level::Warning, "thread trace: {busy} selected dispatches were not traced ({MAX_SESSIONS} traces were already in flight on their agent)");
            append(&a.config.dir.join("loss.tsv"), &format!("busy\t{busy}\n"));
            a.lost_busy.store(0, Ordering::Relaxed);
        }
        let unserialized = a.unserialized.swap(0, Ordering::Relaxed);
        if unserialized > 0 {
            append(&a.config.dir.join("loss.tsv"), &format!("unserialized\t{unserialized}\n"));
        }
    }
}

/// A code object was loaded (cold path): with `--att`, its ELF image is written as
/// `<gfx>_code_object_id_<id>.out` (from the memory the application loaded it from).
pub fn code_object_loaded(o: &Originals, agent: hsa_agent_t, id: u64, memory_base: u64, memory_size: u64) {
    let Some(a) = ATT.get() else { return };
    if memory_base == 0 || memory_size == 0 {
        diag!(
            Level::Warning,
            "thread trace: code object {id} was not loaded from memory; its instructions cannot be named"
        );
        return;
    }
    let name = format!("{}_code_object_id_{id}.out", agent_name(o, agent));
    // SAFETY: the loader reported this range as the code object's image in host memory, alive
    // during the freeze that loads it.
    let bytes = unsafe { std::slice::from_raw_parts(memory_base as *const u8, memory_size as usize) };
    if let Err(e) = std::fs::write(a.config.dir.join(&name), bytes) {
        diag!(Level::Error, "thread trace: cannot write {name}: {e}");
    }
}

/// Index of a GPU agent, for tests.
pub fn gpu_index_of(agent: u64) -> Option<u32> {
    let a = ATT.get()?;
    let t = a.tracers.lock().unwrap_or_else(|e| e.into_inner());
    t.iter().find(|t| t.agent.handle == agent).map(|t| t.gpu_index)
}
