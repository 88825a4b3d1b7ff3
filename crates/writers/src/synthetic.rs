//! Synthetic traces of any size, for measuring writer throughput (`cargo xtask bench` uses
//! [`rocpd_throughput`] through the `rocprof-bench` binary) and for tests that need many rows.
//!
//! The data is plausible but made up: one CPU and one gfx942 GPU agent, a few queues, threads
//! and kernels, dispatches back to back per queue with varying durations.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rocprof_model::{
    Agent, AgentId, AgentType, ClockDomain, CodeObject, CodeObjectId, CodeObjectStorage, CorrelationId, Dim3,
    DispatchId, KernelDispatch, KernelId, KernelSymbol, ProcessId, Queue, QueueId, ThreadId, Timestamp, Trace,
};

use crate::rocpd::RocpdWriter;
use crate::{write_trace, OutputLocation, Progress, Result, Writer};

/// Kernels in a synthetic trace.
pub const KERNELS: [&str; 4] = ["vector_add", "saxpy", "reduce_sum", "transpose"];
const QUEUES: u64 = 4;
const THREADS: u32 = 2;

/// A trace with `dispatches` kernel dispatches. Deterministic for a given size.
pub fn trace(dispatches: u64) -> Trace {
    let mut t = Trace::new();
    t.meta.clock = ClockDomain::Boottime;
    let pid = 4242u32;
    t.meta.pid = ProcessId(pid);
    t.meta.ppid = ProcessId(1);
    t.meta.command = vec!["synthetic".into(), dispatches.to_string()];
    let base = 1_000_000_000u64;
    t.meta.start = Timestamp::boottime(base);

    let cpu = Agent {
        id: AgentId(0),
        node_id: 0,
        agent_type: AgentType::Cpu,
        cpu_cores_count: 16,
        num_xcc: 1,
        cu_count: 16,
        max_engine_clk_ccompute: 4200,
        name: t.strings.intern("Synthetic CPU"),
        vendor_name: t.strings.intern("CPU"),
        product_name: t.strings.intern("Synthetic CPU"),
        ..Default::default()
    };
    let gpu = Agent {
        id: AgentId(1),
        handle: 0x1000,
        node_id: 1,
        logical_node_id: 1,
        agent_type: AgentType::Gpu,
        simd_count: 1216,
        max_waves_per_simd: 8,
        lds_size_in_kb: 64,
        wave_front_size: 64,
        num_xcc: 8,
        cu_count: 304,
        gfx_target_version: 90402,
        vendor_id: 4098,
        device_id: 29861,
        workgroup_max_size: 1024,
        workgroup_max_dim: Dim3::new(1024, 1024, 1024),
        grid_max_dim: Dim3::new(u32::MAX, u32::MAX, u32::MAX),
        name: t.strings.intern("gfx942"),
        vendor_name: t.strings.intern("AMD"),
        product_name: t.strings.intern("AMD Instinct MI300X"),
        model_name: t.strings.intern("aqua_vanjaram"),
        ..Default::default()
    };
    t.agents = vec![cpu, gpu];
    for q in 1..=QUEUES {
        t.queues.push(Queue {
            id: QueueId(q),
            agent: AgentId(1),
            handle: 0x10 + q,
            size: 4096,
            thread: ThreadId(pid + (q as u32 % THREADS)),
            created: Timestamp::boottime(base),
        });
    }
    let uri = t.strings.intern("file:///synthetic/kernels.co#offset=0&size=8192");
    t.code_objects.push(CodeObject {
        id: CodeObjectId(1),
        agent: AgentId(1),
        uri,
        load_base: 0x7f00_0000_0000,
        load_size: 8192,
        storage: CodeObjectStorage::File,
        loaded: Timestamp::boottime(base),
        ..Default::default()
    });
    for (i, name) in KERNELS.iter().enumerate() {
        let raw = format!("{name}.kd");
        t.push_kernel_symbol(
            KernelSymbol {
                id: KernelId(i as u64 + 1),
                code_object: CodeObjectId(1),
                kernel_object: 0x7f00_0000_0000 + 0x100 * i as u64,
                kernarg_segment_size: 24,
                kernarg_segment_alignment: 8,
                group_segment_size: 512 * i as u32,
                sgpr_count: 16,
                arch_vgpr_count: 8 + 4 * i as u32,
                ..Default::default()
            },
            &raw,
            &raw,
        );
    }
    let mut queue_time = [base + 1_000; QUEUES as usize];
    t.dispatches.reserve(dispatches as usize);
    for n in 0..dispatches {
        let q = (n % QUEUES) as usize;
        let k = (n % KERNELS.len() as u64) as usize;
        let duration = 2_000 + (n * 7_919) % 3_000 + 1_000 * k as u64;
        let start = queue_time[q] + 500;
        queue_time[q] = start + duration;
        t.dispatches.push(KernelDispatch {
            dispatch_id: DispatchId(n + 1),
            correlation_id: CorrelationId(n + 1),
            agent: AgentId(1),
            queue: QueueId(q as u64 + 1),
            thread: ThreadId(pid + (q as u32 % THREADS)),
            kernel: KernelId(k as u64 + 1),
            grid: Dim3::new(1 << 20, 1, 1),
            workgroup: Dim3::new(256, 1, 1),
            group_segment_size: 512 * k as u32,
            kernarg_size: 24,
            sgpr_count: 16,
            arch_vgpr_count: 8 + 4 * k as u32,
            start: Timestamp::boottime(start),
            end: Timestamp::boottime(start + duration),
            ..Default::default()
        });
    }
    t.meta.end = Timestamp::boottime(queue_time.iter().copied().max().unwrap_or(base) + 1_000);
    t
}

/// A synthetic trace of `dispatches` dispatches as a record stream generated on the fly: the same
/// records as [`trace`] (definitions, then dispatches), without holding them, for measuring
/// conversions of any size in bounded memory.
#[derive(Debug)]
pub struct Source {
    definitions: std::collections::VecDeque<rocprof_model::Record>,
    template: Trace,
    next: u64,
    total: u64,
    queue_time: [u64; QUEUES as usize],
    started: bool,
    /// `Some` for the `--sys-trace` mix ([`Source::sys_trace`]).
    sys: Option<SysMix>,
}

/// State of the `--sys-trace` mix: the next correlation id, the function names (interned when the
/// stream starts) and the records of the current dispatch not yet delivered.
#[derive(Debug, Default)]
struct SysMix {
    next_correlation: u64,
    emitted: u64,
    names: [rocprof_model::StringId; 3],
    pending: std::collections::VecDeque<rocprof_model::Record>,
}

/// The HIP and HSA functions of the `--sys-trace` mix: the launch, its doorbell store and a copy.
const SYS_FUNCTIONS: [&str; 3] = ["hipLaunchKernel", "hsa_signal_store_screlease", "hipMemcpyAsync"];

impl Source {
    /// A stream of `dispatches` dispatches.
    pub fn new(dispatches: u64) -> Self {
        let template = trace(0);
        Self {
            definitions: std::collections::VecDeque::new(),
            queue_time: [template.meta.start.ns + 1_000; QUEUES as usize],
            template,
            next: 0,
            total: dispatches,
            started: false,
            sys: None,
        }
    }

    /// A stream of `records` records in a `--sys-trace` mix (after the definitions): per kernel
    /// dispatch a `hipLaunchKernel` call on the queue's host thread enclosing a
    /// `hsa_signal_store_screlease` call (its ancestor), the dispatch (carrying the HIP call's
    /// correlation id); every 8th dispatch also a `hipMemcpyAsync` call and its host-to-device
    /// copy, every 32nd a memory allocation. API records come in end order per thread (inner call
    /// first), as a capture delivers them; calls on one thread never overlap.
    pub fn sys_trace(records: u64) -> Self {
        Self { sys: Some(SysMix::default()), ..Self::new(records) }
    }

    /// The records of dispatch `n` of the `--sys-trace` mix into `mix.pending`.
    fn sys_records(&mut self, n: u64) {
        use rocprof_model::{
            ApiCall, ApiDomain, Correlation, MemoryAllocation, MemoryAllocationOp, MemoryCopy, MemoryCopyDirection,
            Record,
        };
        let q = (n % QUEUES) as usize;
        let k = (n % KERNELS.len() as u64) as usize;
        let duration = 2_000 + (n * 7_919) % 3_000 + 1_000 * k as u64;
        let start = self.queue_time[q] + 500;
        self.queue_time[q] = start + duration;
        let thread = ThreadId(4242 + q as u32);
        let mix = self.sys.as_mut().expect("the sys-trace mix");
        let [launch, store, memcpy] = mix.names;
        let (store_domain, store_op) =
            rocprof_model::api::hsa::find(SYS_FUNCTIONS[1]).unwrap_or((ApiDomain::HsaCore, 0));
        let ts = Timestamp::boottime;
        let api = |domain, operation, name, correlation, s: u64, e: u64| {
            Record::ApiCall(ApiCall {
                domain,
                operation,
                name,
                message: rocprof_model::StringId::EMPTY,
                thread,
                correlation,
                start: ts(s),
                end: ts(e),
                return_value: 0,
                args: Box::new([]),
            })
        };
        if n.is_multiple_of(32) {
            mix.next_correlation += 1;
            mix.pending.push_back(Record::MemoryAllocation(MemoryAllocation {
                operation: MemoryAllocationOp::Allocate,
                thread,
                correlation: Correlation::new(mix.next_correlation),
                start: ts(start - 495),
                end: ts(start - 491),
                agent: Some(AgentId(1)),
                address: 0x7f10_0000_0000 + (n << 20),
                size: 1 << 20,
                stream: rocprof_model::StreamId(0),
            }));
        }
        if n.is_multiple_of(8) {
            mix.next_correlation += 1;
            let c = Correlation::new(mix.next_correlation);
            mix.pending.push_back(api(ApiDomain::HipRuntime, 1, memcpy, c, start - 490, start - 450));
            mix.pending.push_back(Record::MemoryCopy(MemoryCopy {
                direction: MemoryCopyDirection::HostToDevice,
                thread,
                correlation: c,
                start: ts(start - 450),
                end: ts(start - 420),
                src_agent: AgentId(0),
                dst_agent: AgentId(1),
                src_address: 0x5500_0000 + n,
                dst_address: 0x7f10_0000_0000 + n,
                bytes: 4096,
                stream: rocprof_model::StreamId(0),
            }));
        }
        mix.next_correlation += 2;
        let (outer, inner) = (mix.next_correlation - 1, mix.next_correlation);
        let inner_c = Correlation { ancestor: CorrelationId(outer), ..Correlation::new(inner) };
        mix.pending.push_back(api(store_domain, store_op, store, inner_c, start - 300, start - 200));
        mix.pending.push_back(api(ApiDomain::HipRuntime, 0, launch, Correlation::new(outer), start - 400, start - 100));
        mix.pending.push_back(Record::KernelDispatch(KernelDispatch {
            dispatch_id: DispatchId(n + 1),
            correlation_id: CorrelationId(outer),
            agent: AgentId(1),
            queue: QueueId(q as u64 + 1),
            thread,
            kernel: KernelId(k as u64 + 1),
            grid: Dim3::new(1 << 20, 1, 1),
            workgroup: Dim3::new(256, 1, 1),
            group_segment_size: 512 * k as u32,
            kernarg_size: 24,
            sgpr_count: 16,
            arch_vgpr_count: 8 + 4 * k as u32,
            start: ts(start),
            end: ts(start + duration),
            ..Default::default()
        }));
    }
}

impl rocprof_model::RecordSource for Source {
    fn next_record(
        &mut self,
        strings: &mut rocprof_model::StringTable,
    ) -> std::result::Result<Option<rocprof_model::Record>, rocprof_model::SourceError> {
        use rocprof_model::Record;
        if !self.started {
            self.started = true;
            for (_, s) in self.template.strings.iter() {
                strings.intern(s);
            }
            let mut meta = self.template.meta.clone();
            meta.command = vec!["synthetic".into(), self.total.to_string()];
            self.definitions.push_back(Record::Process(Box::new(meta)));
            self.definitions
                .extend(self.template.records().filter(|r| !matches!(r, Record::Process(_) | Record::RunHealth(_))));
        }
        if let Some(r) = self.definitions.pop_front() {
            return Ok(Some(r));
        }
        if self.sys.is_some() {
            let mix = self.sys.as_mut().expect("checked");
            if mix.emitted == 0 && mix.pending.is_empty() {
                mix.names = SYS_FUNCTIONS.map(|f| strings.intern(f));
            }
            if mix.emitted >= self.total {
                return Ok(None);
            }
            if mix.pending.is_empty() {
                let n = self.next;
                self.next += 1;
                self.sys_records(n);
            }
            let mix = self.sys.as_mut().expect("checked");
            mix.emitted += 1;
            return Ok(mix.pending.pop_front());
        }
        if self.next >= self.total {
            return Ok(None);
        }
        let n = self.next;
        self.next += 1;
        let q = (n % QUEUES) as usize;
        let k = (n % KERNELS.len() as u64) as usize;
        let duration = 2_000 + (n * 7_919) % 3_000 + 1_000 * k as u64;
        let start = self.queue_time[q] + 500;
        self.queue_time[q] = start + duration;
        Ok(Some(Record::KernelDispatch(KernelDispatch {
            dispatch_id: DispatchId(n + 1),
            correlation_id: CorrelationId(n + 1),
            agent: AgentId(1),
            queue: QueueId(q as u64 + 1),
            thread: ThreadId(4242 + (q as u32 % THREADS)),
            kernel: KernelId(k as u64 + 1),
            grid: Dim3::new(1 << 20, 1, 1),
            workgroup: Dim3::new(256, 1, 1),
            group_segment_size: 512 * k as u32,
            kernarg_size: 24,
            sgpr_count: 16,
            arch_vgpr_count: 8 + 4 * k as u32,
            start: Timestamp::boottime(start),
            end: Timestamp::boottime(start + duration),
            ..Default::default()
        })))
    }

    fn len_hint(&self) -> Option<u64> {
        let done = self.sys.as_ref().map_or(self.next, |m| m.emitted);
        Some(self.total.saturating_sub(done) + self.definitions.len() as u64)
    }
}

/// Result of [`rocpd_throughput`].
#[derive(Debug, Clone)]
pub struct Throughput {
    /// Kernel dispatch rows written.
    pub rows: u64,
    /// Wall time of the write (schema, all rows, commit), seconds.
    pub seconds: f64,
    /// CPU time (user + system, all threads) of the write, seconds: the measure of "rows per
    /// second on one core" that a loaded machine does not distort as much as wall time.
    pub cpu_seconds: f64,
    /// The database written.
    pub path: PathBuf,
}

impl Throughput {
    /// Dispatch rows per second.
    pub fn rows_per_sec(&self) -> f64 {
        self.rows as f64 / self.seconds.max(1e-9)
    }

    /// Dispatch rows per CPU second.
    pub fn rows_per_cpu_sec(&self) -> f64 {
        self.rows as f64 / self.cpu_seconds.max(1e-9)
    }
}

/// CPU time (user + system) this process has used so far, seconds (`/proc/self/stat`, clock
/// ticks of 1/100 s; 0 where there is no procfs).
pub fn process_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which may contain spaces) start with field 3, state;
    // utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
    (f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)) as f64 / 100.0
}

/// Writes a synthetic trace of `dispatches` dispatches as rocpd into `dir` and times it, wall and
/// CPU (building the trace is not timed).
pub fn rocpd_throughput(dispatches: u64, dir: &Path) -> Result<Throughput> {
    let trace = trace(dispatches);
    let mut writers: Vec<Box<dyn Writer>> = vec![Box::new(RocpdWriter::new(OutputLocation::new(dir, "synthetic")))];
    let (t0, cpu0) = (Instant::now(), process_cpu_seconds());
    let files = write_trace(&trace, &mut writers, Progress::Hidden)?;
    let seconds = t0.elapsed().as_secs_f64();
    let cpu_seconds = process_cpu_seconds() - cpu0;
    Ok(Throughput { rows: dispatches, seconds, cpu_seconds, path: files.into_iter().next().unwrap_or_default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streamed_source_yields_the_same_dispatches_as_the_trace() {
        let t = trace(100);
        let streamed = Trace::collect(&mut Source::new(100)).unwrap();
        assert_eq!(streamed.dispatches, t.dispatches);
        assert_eq!(streamed.kernel_symbols, t.kernel_symbols);
        assert_eq!(streamed.agents, t.agents);
    }

    #[test]
    fn the_sys_trace_mix_nests_calls_per_thread_and_links_dispatches_to_their_launch() {
        let t = Trace::collect(&mut Source::sys_trace(1000)).unwrap();
        let total = t.api_calls.len() + t.dispatches.len() + t.memory_copies.len() + t.memory_allocations.len();
        assert_eq!(total, 1000);
        assert!(t.memory_copies.len() > 10 && t.memory_allocations.len() > 2);
        let launches: std::collections::HashMap<u64, &rocprof_model::ApiCall> = t
            .api_calls
            .iter()
            .filter(|a| t.strings.resolve(a.name) == "hipLaunchKernel")
            .map(|a| (a.correlation.internal.0, a))
            .collect();
        for d in &t.dispatches {
            let launch = launches[&d.correlation_id.0];
            assert_eq!(launch.thread, d.thread);
            assert!(launch.end.ns < d.start.ns);
        }
        for a in t.api_calls.iter().filter(|a| a.correlation.ancestor.0 != 0) {
            let outer = launches[&a.correlation.ancestor.0];
            assert!(outer.start.ns < a.start.ns && a.end.ns < outer.end.ns);
        }
    }

    #[test]
    fn synthetic_dispatches_do_not_overlap_per_queue() {
        let t = trace(1000);
        assert_eq!(t.dispatches.len(), 1000);
        for q in 1..=QUEUES {
            let mut last_end = 0;
            for d in t.dispatches.iter().filter(|d| d.queue == QueueId(q)) {
                assert!(d.start.ns > last_end && d.end.ns > d.start.ns);
                last_end = d.end.ns;
            }
        }
        assert_eq!(t.strings.resolve(t.kernel_symbols[0].formatted_name), "vector_add");
    }
}
