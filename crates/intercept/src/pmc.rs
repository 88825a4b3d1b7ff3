//! Counter collection (`--pmc`) inside the profiled process.
//!
//! The CLI resolves counter names into aqlprofile events before the application starts and passes
//! them in the launch setting `CounterPlan` (the events of every GPU and counter group, and how many
//! counted dispatches pass before groups switch). At `OnLoad`
//! this module builds, per GPU and group, the `rocprof-packets` plan, and per GPU a pool of buffers in
//! host-visible memory the GPU may access (a fine-grained pool of the CPU agent, access allowed to the
//! GPU): each buffer has an output area and, per group, a command buffer holding the start, stop and
//! read PM4 streams for that output area, with their AQL packets prebuilt. So the hot path allocates
//! nothing and builds nothing: it takes a free buffer and copies prebuilt packets.
//!
//! A counted dispatch becomes, in its queue (every packet with the barrier bit):
//!
//! ```text
//! [barrier-AND on the previous counted dispatch's read signal]   serialisation across queues
//! [PMC start]  [the application's kernel, our profiling signal]  [PMC stop]  [PMC read -> signal R]
//! [barrier-AND completing the application's signal]               (if it had one)
//! ```
//!
//! Counted dispatches on one agent are thereby serialised across all queues, as rocprofiler-sdk does
//! for counter collection (hardware counters are per device). The buffer of dispatch N is handed back
//! only when both its own output was copied to the capture and dispatch N+1's serialising barrier has
//! passed (N+1 recorded), so the read signal a barrier waits for is never reset under it.
//!
//! When the dispatch's completion is recorded (by whoever records it, see `queue`), the output is
//! copied into `PmcOutput` capture records before the dispatch's end record. A dispatch selected for
//! counting that got no buffer, or whose read did not complete, gets a `PmcOutput` record with that
//! status and no bytes: never a silent zero. Parsing and derived counters are the CLI's job.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

use rocprof_hsa_sys::*;
use rocprof_launch::{names, CounterGroup, EventSource, KernelNames};
use rocprof_model::capture::{PmcGroupRecord, PmcOutputHeader, PmcSourcesRecord, PMC_OUTPUT_MAX_PAYLOAD};
use rocprof_model::counters::PmcStatus;
use rocprof_model::kernel_filter::{KernelFilter, KernelFilterSpec};
use rocprof_packets::aql::aql_header;
use rocprof_packets::{PmcEvent, PmcPlan};

use crate::agents::GpuGeometry;
use crate::diag::Level;
use crate::mpmc::Mpmc;
use crate::sink::Sink;
use crate::tables::Originals;
use crate::{clock, diag};

/// No buffer / no slot; a slot's dispatch selected for counting that got no buffer; most buffers
/// per agent (defined with the dispatch slots that hold them).
pub use crate::state::{MAX_COUNTER_BUFFERS as MAX_BUFFERS, PMC_EXHAUSTED as EXHAUSTED, PMC_NONE as NONE};

/// Counter collection, when the launch settings configure it (set once when the runtime is first
/// seen).
static PMC: OnceLock<PmcState> = OnceLock::new();

/// The counter collection of this process, if any (hot path: one atomic load).
#[inline]
pub fn state() -> Option<&'static PmcState> {
    PMC.get()
}

/// Installs the counter collection (once; a second call is ignored).
pub fn install(p: PmcState) {
    let _ = PMC.set(p);
}
/// Memory budget of one agent's buffer pool.
const POOL_BUDGET_BYTES: usize = 32 << 20;
/// How long the recorder waits for a read packet that has not completed yet.
const READ_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// One buffer of an agent's pool.
pub struct Buffer {
    /// Output area (device address = host address in host-visible memory).
    output: u64,
    /// Prebuilt AQL packets per group: start, stop, read (read carries `signal`).
    packets: Box<[[[u8; 64]; 3]]>,
    /// Completion signal of the read packet.
    signal: hsa_signal_t,
    /// The buffer of the counted dispatch before this one on the agent (its read signal is what this
    /// dispatch's serialising barrier waits for), or [`NONE`].
    chain_prev: AtomicU32,
    /// References: its own output not yet copied (1) + being the agent's last buffer or the
    /// predecessor of a dispatch not yet recorded (1).
    holds: AtomicU32,
    /// Group the current dispatch uses.
    group: AtomicU32,
    /// When [`PmcState::read_done`] first found the read not completed after its kernel had (ns,
    /// 0: not yet).
    overdue_since: AtomicU64,
}

/// Counter collection on one GPU agent.
pub struct AgentPmc {
    /// Agent handle.
    pub handle: u64,
    /// Output bytes per group.
    output_sizes: Vec<u32>,
    /// Switch groups every this many counted dispatches.
    interval: u64,
    /// Counted dispatches so far.
    counted: AtomicU64,
    /// Buffer of the last counted dispatch, or [`NONE`].
    last: AtomicU32,
    buffers: Box<[Buffer]>,
    free: Mpmc,
}

/// Everything counter collection needs, built at `OnLoad`.
pub struct PmcState {
    /// One entry per GPU with counters configured.
    pub agents: Vec<AgentPmc>,
    filter: KernelFilter,
    /// The filter selects every kernel by name (no per-kernel lookup needed).
    all_kernels: bool,
    name_form: KernelNames,
    /// By kernel id: 1 = a target of the filter (set when the kernel's symbol is recorded).
    selected: Box<[AtomicU8]>,
    /// By kernel id: dispatches of the kernel seen so far.
    iterations: Box<[AtomicU64]>,
}

fn aql(packet: &rocprof_packets::Pm4Packet, header: u16, signal: u64) -> [u8; 64] {
    let mut p = packet.aql_with_header(header);
    p[56..64].copy_from_slice(&signal.to_le_bytes());
    p
}

/// Finds a fine-grained, allocatable global pool of `agent` (host-visible memory).
fn host_pool(o: &Originals, agent: u64) -> Option<hsa_amd_memory_pool_t> {
    let (iter, get) = (o.iterate_memory_pools?, o.memory_pool_get_info?);
    struct Acc {
        get: PFN_hsa_amd_memory_pool_get_info,
        found: Option<hsa_amd_memory_pool_t>,
    }
    unsafe extern "C" fn each(pool: hsa_amd_memory_pool_t, data: *mut std::ffi::c_void) -> hsa_status_t {
        // SAFETY: `data` is the `Acc` passed below, alive for the iteration.
        let acc = unsafe { &mut *(data as *mut Acc) };
        let (mut segment, mut flags, mut alloc) = (u32::MAX, 0u32, false);
        // SAFETY: out-pointers of the documented types.
        unsafe {
            (acc.get)(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, (&mut segment as *mut u32).cast());
            (acc.get)(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, (&mut flags as *mut u32).cast());
            (acc.get)(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, (&mut alloc as *mut bool).cast());
        }
        if acc.found.is_none()
            && segment == HSA_AMD_SEGMENT_GLOBAL
            && alloc
            && flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED != 0
        {
            acc.found = Some(pool);
        }
        HSA_STATUS_SUCCESS
    }
    let mut acc = Acc { get, found: None };
    // SAFETY: `each` matches the callback type and `acc` outlives the call.
    unsafe { iter(hsa_agent_t { handle: agent }, Some(each), (&mut acc as *mut Acc).cast()) };
    acc.found
}

fn create_signal(o: &Originals) -> Option<hsa_signal_t> {
    let mut s = hsa_signal_t { handle: 0 };
    let rc = match (o.amd_signal_create, o.signal_create) {
        // SAFETY: valid out-pointer; no consumers list.
        (Some(create), _) => unsafe { create(0, 0, std::ptr::null(), HSA_AMD_SIGNAL_AMD_GPU_ONLY.into(), &mut s) },
        // SAFETY: as above.
        (_, Some(create)) => unsafe { create(0, 0, std::ptr::null(), &mut s) },
        _ => return None,
    };
    (rc == HSA_STATUS_SUCCESS && s.handle != 0).then_some(s)
}

fn align(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

impl AgentPmc {
    /// Builds the plans and the buffer pool of one GPU (cold path, `OnLoad`). `None` (with a message)
    /// when the agent's counters cannot be set up; the application then runs without them.
    fn new(
        o: &Originals,
        cpu: u64,
        gpu: &GpuGeometry,
        groups: &[&CounterGroup],
        interval: u64,
        max_buffers: usize,
    ) -> Option<AgentPmc> {
        let fail = |what: String| {
            diag!(Level::Error, "counter collection on {} is off: {what}", gpu.name);
            None
        };
        let target = match rocprof_packets::Target::from_name(&gpu.name) {
            Ok(t) => t,
            Err(e) => return fail(e.to_string()),
        };
        let agent = match rocprof_packets::Agent::new(target, gpu.cu, gpu.se, gpu.sa_per_se, gpu.xcc) {
            Ok(a) => a,
            Err(e) => return fail(e.to_string()),
        };
        let mut plans = Vec::new();
        for g in groups {
            match PmcPlan::new(&agent, &g.events) {
                Ok(p) => plans.push(p),
                Err(e) => return fail(format!("group {}: {e}", g.group)),
            }
        }
        let out_max = plans.iter().map(|p| align(p.output_buffer_size() as usize, 256)).max().unwrap_or(256);
        let cmd_sizes: Vec<usize> =
            plans.iter().map(|p| p.build_streams(0).map(|s| s.command_buffer_size()).unwrap_or(0)).collect();
        let per_buffer = out_max + cmd_sizes.iter().sum::<usize>();
        let count = (POOL_BUDGET_BYTES / per_buffer.max(1)).clamp(16, MAX_BUFFERS).min(max_buffers.max(2));
        let Some(pool) = host_pool(o, cpu) else { return fail("no host-visible memory pool".into()) };
        let (Some(allocate), Some(allow)) = (o.memory_pool_allocate, o.agents_allow_access) else {
            return fail("the runtime lacks hsa_amd_memory_pool_allocate / hsa_amd_agents_allow_access".into());
        };
        let bytes = per_buffer * count;
        let mut base: *mut std::ffi::c_void = std::ptr::null_mut();
        // SAFETY: valid pool handle and out-pointer.
        let rc = unsafe { allocate(pool, bytes, 0, &mut base) };
        if rc != HSA_STATUS_SUCCESS || base.is_null() {
            return fail(format!("allocating {bytes} bytes of counter buffers failed with status {rc:#x}"));
        }
        let gpu_agent = hsa_agent_t { handle: gpu.handle };
        // SAFETY: one valid agent handle and the allocation made above.
        let rc = unsafe { allow(1, &gpu_agent, std::ptr::null(), base) };
        if rc != HSA_STATUS_SUCCESS {
            return fail(format!("allowing {} to access the counter buffers failed with status {rc:#x}", gpu.name));
        }
        // SAFETY: `base` is a fresh allocation of `bytes` bytes, host-accessible (fine-grained pool).
        unsafe { std::ptr::write_bytes(base.cast::<u8>(), 0, bytes) };
        let mut buffers = Vec::with_capacity(count);
        for i in 0..count {
            let start = base as u64 + (i * per_buffer) as u64;
            let Some(signal) = create_signal(o) else { return fail("creating signals failed".into()) };
            let mut cmd = start + out_max as u64;
            let mut packets = Vec::with_capacity(plans.len());
            for (plan, size) in plans.iter().zip(&cmd_sizes) {
                let built = plan.build_streams(start).and_then(|s| s.finish(cmd));
                let built = match built {
                    Ok(b) => b,
                    Err(e) => return fail(e.to_string()),
                };
                for p in [&built.start, &built.stop, &built.read] {
                    let words = p.pm4_bytes();
                    // SAFETY: the command area of this buffer lies inside the allocation; the streams
                    // fit in it (`command_buffer_size`).
                    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), p.ib_addr as *mut u8, words.len()) };
                }
                packets.push([
                    aql(&built.start, aql_header::PMC_STOP_READ, 0),
                    aql(&built.stop, aql_header::PMC_STOP_READ, 0),
                    // Read: barrier + system-scope release, so the output is visible to the host.
                    aql(
                        &built.read,
                        aql_header::PMC_STOP_READ | (2 << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
                        signal.handle,
                    ),
                ]);
                cmd += *size as u64;
            }
            buffers.push(Buffer {
                output: start,
                packets: packets.into_boxed_slice(),
                signal,
                chain_prev: AtomicU32::new(NONE),
                holds: AtomicU32::new(0),
                group: AtomicU32::new(0),
                overdue_since: AtomicU64::new(0),
            });
        }
        let free = Mpmc::new(count);
        for i in 0..count {
            free.push(i as u32);
        }
        Some(AgentPmc {
            handle: gpu.handle,
            output_sizes: plans.iter().map(|p| p.output_buffer_size() as u32).collect(),
            interval: interval.max(1),
            counted: AtomicU64::new(0),
            last: AtomicU32::new(NONE),
            buffers: buffers.into_boxed_slice(),
            free,
        })
    }

    /// Drops one hold on buffer `i`; the last one returns it to the free list.
    fn release(&self, i: u32) {
        if let Some(b) = self.buffers.get(i as usize) {
            if b.holds.fetch_sub(1, Ordering::AcqRel) == 1 {
                self.free.push(i);
            }
        }
    }
}

impl PmcState {
    /// Builds every agent's buffers for the launch setting's counter plan (cold path, `OnLoad`);
    /// writes one `PmcGroup` record per agent and group, each followed by its `PmcSources` (what every
    /// programmed event samples). `None` when no counters are configured.
    /// Each agent gets at most `max_buffers` buffers (test limits).
    pub fn from_env(
        o: &Originals,
        sink: &Sink,
        gpus: &[GpuGeometry],
        cpu: u64,
        max_buffers: usize,
    ) -> Option<PmcState> {
        let env = crate::env::env();
        let (plan, malformed) = env.counters.as_ref()?;
        for entry in malformed {
            diag!(Level::Error, "malformed {} entry '{entry}'; ignored", names::PMC);
        }
        let (groups, interval) = (&plan.groups, plan.interval);
        let filter_spec = match env.kernel_filter.clone() {
            Ok(f) => f,
            Err(e) => {
                diag!(Level::Error, "{e}; counting every dispatch");
                KernelFilterSpec::default()
            }
        };
        let filter = filter_spec.compile().ok()?;
        let all_kernels =
            filter_spec.include.as_deref().is_none_or(|p| p.is_empty() || p == ".*") && filter_spec.exclude.is_none();
        let name_form = env.kernel_names;
        let mut agents = Vec::new();
        for (index, gpu) in gpus.iter().enumerate() {
            let mine: Vec<&CounterGroup> = groups.iter().filter(|g| g.gpu == index as u32).collect();
            if mine.is_empty() {
                continue;
            }
            let Some(a) = AgentPmc::new(o, cpu, gpu, &mine, interval, max_buffers) else { continue };
            for (g, size) in mine.iter().zip(&a.output_sizes) {
                let counters = sink.write_string(g.counters_text().as_bytes());
                let events = sink.write_string(PmcEvent::list_to_text(&g.events).as_bytes());
                sink.write(&PmcGroupRecord {
                    agent_handle: gpu.handle,
                    gpu_index: index as u32,
                    group: g.group,
                    counters,
                    events,
                    output_size: *size,
                    buffers: a.buffers.len() as u32,
                });
                let sources = sink.write_string(EventSource::list_to_text(&g.sources).as_bytes());
                sink.write(&PmcSourcesRecord { agent_handle: gpu.handle, group: g.group, sources });
            }
            diag!(
                Level::Info,
                "counter collection on {} (gpu {index}): {} group(s), {} buffers",
                gpu.name,
                mine.len(),
                a.buffers.len()
            );
            agents.push(a);
        }
        let kernels = crate::state::MAX_KERNELS;
        Some(PmcState {
            agents,
            filter,
            all_kernels,
            name_form,
            selected: (0..kernels).map(|_| AtomicU8::new(0)).collect(),
            iterations: (0..kernels).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// Index of the counter set-up of `agent`, if it has one (hot path: a short scan).
    pub fn agent_index(&self, agent: u64) -> Option<usize> {
        self.agents.iter().position(|a| a.handle == agent)
    }

    /// Decides the target flag of a kernel from its raw symbol name (cold path: symbol recording).
    pub fn classify_kernel(&self, kernel_id: u64, raw_name: &str) {
        let Some(flag) = self.selected.get(kernel_id as usize) else { return };
        let selected = self.all_kernels || {
            let demangled =
                rocprof_model::capture::demangle::demangle(raw_name.strip_suffix(".kd").unwrap_or(raw_name));
            let demangled = demangled.as_deref().unwrap_or(raw_name);
            let formatted = rocprof_model::format_kernel_name(demangled);
            let name = match self.name_form {
                KernelNames::Mangled => raw_name,
                KernelNames::Demangled => formatted,
                KernelNames::Truncated => rocprof_model::truncate_kernel_name(demangled),
            };
            self.filter.selects_kernel(name)
        };
        flag.store(u8::from(selected), Ordering::Release);
    }

    /// Whether this dispatch of `kernel_id` is counted (hot path): the kernel is a target and this
    /// iteration of it (counted from 1 per kernel) is in the range.
    pub fn selects(&self, kernel_id: u64) -> bool {
        let target =
            self.all_kernels || self.selected.get(kernel_id as usize).is_some_and(|f| f.load(Ordering::Acquire) == 1);
        if !target {
            return false;
        }
        if !self.filter.has_iteration_range() {
            return true;
        }
        let Some(count) = self.iterations.get(kernel_id as usize) else { return false };
        self.filter.selects_iteration(count.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// The packets around one counted dispatch on agent `a`: takes a buffer, resets its read signal and
    /// writes the serialising barrier (when there is a previous counted dispatch), the start packet
    /// into `before` and the stop and read packets into `after`. Returns the buffer index, or
    /// [`EXHAUSTED`] (nothing written) when no buffer is free. Hot path: no allocation.
    pub fn begin(
        &self,
        o: &Originals,
        a: usize,
        before: &mut [[u8; 64]; 2],
        after: &mut [[u8; 64]; 2],
    ) -> (u32, usize) {
        let Some(agent) = self.agents.get(a) else { return (EXHAUSTED, 0) };
        let Some(i) = agent.free.pop() else { return (EXHAUSTED, 0) };
        let b = &agent.buffers[i as usize];
        let n = agent.counted.fetch_add(1, Ordering::Relaxed);
        let group = ((n / agent.interval) % b.packets.len().max(1) as u64) as u32;
        b.group.store(group, Ordering::Relaxed);
        b.overdue_since.store(0, Ordering::Relaxed);
        b.holds.store(2, Ordering::Release);
        if let Some(store) = o.signal_silent_store_relaxed.or(o.signal_store_relaxed) {
            // SAFETY: our own live signal; nobody waits on it (its previous users have all passed).
            unsafe { store(b.signal, 1) };
        }
        let prev = agent.last.swap(i, Ordering::AcqRel);
        b.chain_prev.store(prev, Ordering::Release);
        let mut k = 0;
        if let Some(p) = agent.buffers.get(prev as usize) {
            let barrier = crate::aql::completion_barrier(0, hsa_signal_t { handle: 0 }, p.signal);
            // SAFETY: a barrier-AND packet is 64 bytes of plain C data (checked in hsa-sys).
            before[0] = unsafe { std::ptr::read((&barrier as *const hsa_barrier_and_packet_t).cast::<[u8; 64]>()) };
            k = 1;
        }
        let packets = &b.packets[group as usize];
        before[k] = packets[0];
        after[0] = packets[1];
        after[1] = packets[2];
        (i, k + 1)
    }

    /// Whether the completion of a counted dispatch whose kernel has finished can be recorded now
    /// (the writer thread's poll asks): its read packet has completed, or it has been overdue for
    /// [`READ_WAIT`] since the poll first found it so ([`PmcState::finish`] then gives it up; else
    /// nobody would, when the application does not wait for the dispatch, and the next counted
    /// dispatch's serialising barrier would hold its queue forever). True for [`EXHAUSTED`].
    pub fn read_done(&self, o: &Originals, a: usize, buffer: u32) -> bool {
        let Some(b) = self.agents.get(a).and_then(|x| x.buffers.get(buffer as usize)) else { return true };
        // SAFETY: our own live signal.
        if o.signal_load_relaxed.is_none_or(|load| unsafe { load(b.signal) } <= 0) {
            return true;
        }
        let now = clock::now_ns();
        match b.overdue_since.compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => false,
            Err(since) => now.saturating_sub(since) > READ_WAIT.as_nanos() as u64,
        }
    }

    /// A counted dispatch that will never run (its queue was destroyed first): completes its read
    /// signal so that the next counted dispatch's serialising barrier does not wait forever, and
    /// records it as not read (its output area holds an earlier dispatch's values). Not counted as
    /// a loss: the dispatch itself is reported as incomplete.
    pub fn abandon(&self, o: &Originals, sink: &Sink, a: usize, buffer: u32, dispatch_id: u64) {
        self.settle(o, sink, a, buffer, dispatch_id, false);
    }

    /// Copies a counted dispatch's output into the capture and releases what it holds (called by
    /// whoever records the dispatch's completion, before its end record). `buffer` is what
    /// [`PmcState::begin`] returned.
    ///
    /// A read packet that has not completed within [`READ_WAIT`] after its kernel (it follows the
    /// kernel in the queue) is given up: the dispatch is recorded as not read and counted
    /// (`counters_not_read`), its read signal is completed here so that the next counted
    /// dispatch's serialising barrier does not wait forever, and its buffer is never reused (a
    /// late read could still write into it).
    pub fn finish(&self, o: &Originals, sink: &Sink, a: usize, buffer: u32, dispatch_id: u64) {
        self.settle(o, sink, a, buffer, dispatch_id, true);
    }

    /// [`PmcState::finish`] (`ran`) or [`PmcState::abandon`].
    fn settle(&self, o: &Originals, sink: &Sink, a: usize, buffer: u32, dispatch_id: u64, ran: bool) {
        let Some(agent) = self.agents.get(a) else { return };
        let mut h = PmcOutputHeader { dispatch_id, agent_handle: agent.handle, ..Default::default() };
        if buffer == EXHAUSTED {
            h.status = PmcStatus::PoolExhausted as u32;
            sink.write_pmc_output(&h, &[]);
            return;
        }
        let Some(b) = agent.buffers.get(buffer as usize) else { return };
        let group = b.group.load(Ordering::Relaxed);
        h.group = group;
        // The read packet follows the kernel; give it a moment if it has not completed yet.
        let done = ran
            && o.signal_load_relaxed.is_some_and(|load| {
                let until = clock::now_ns() + READ_WAIT.as_nanos() as u64;
                loop {
                    // SAFETY: our own live signal.
                    if unsafe { load(b.signal) } <= 0 {
                        break true;
                    }
                    if clock::now_ns() > until {
                        break false;
                    }
                    std::thread::yield_now();
                }
            });
        if done {
            let total = agent.output_sizes.get(group as usize).copied().unwrap_or(0) as usize;
            // SAFETY: the output area of this buffer is `total` bytes of host-visible memory the read
            // packet finished writing (its signal reached 0 with a system-scope release).
            let bytes = unsafe { std::slice::from_raw_parts(b.output as *const u8, total) };
            h.total = total as u32;
            for (k, piece) in bytes.chunks(PMC_OUTPUT_MAX_PAYLOAD).enumerate() {
                h.offset = (k * PMC_OUTPUT_MAX_PAYLOAD) as u32;
                h.len = piece.len() as u32;
                sink.write_pmc_output(&h, piece);
            }
        } else {
            h.status = PmcStatus::NotRead as u32;
            sink.write_pmc_output(&h, &[]);
            if let Some(store) = o.signal_store_relaxed {
                // SAFETY: our own live signal.
                unsafe { store(b.signal, 0) };
            }
            if ran {
                sink.count_loss(rocprof_model::LossReason::CountersNotRead);
            }
        }
        // This dispatch's barrier has passed, so its predecessor's signal is no longer needed; and its
        // own output is copied (or given up: a buffer whose read is overdue keeps this hold forever).
        let prev = b.chain_prev.swap(NONE, Ordering::AcqRel);
        if prev != NONE {
            agent.release(prev);
        }
        if done || !ran {
            agent.release(buffer);
        }
    }
}
