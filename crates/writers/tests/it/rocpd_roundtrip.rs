//! Records of every kind written by our rocpd writer come back from `RocpdSource` (what `convert`
//! reads) as the same records; and a counter record whose dispatch was followed by an API event
//! points at that dispatch's event, not the API call's.

use rocprof_model::counters::{CounterCollection, CounterId, CounterInfo, CounterValue, PmcStatus};
use rocprof_model::{
    Agent, AgentId, AgentType, ApiCall, ApiDomain, ClockDomain, Correlation, CorrelationId, Dim3, DispatchId,
    KernelDispatch, KernelId, KernelSymbol, LossReason, MemoryAllocation, MemoryAllocationOp, MemoryCopy,
    MemoryCopyDirection, ProcessId, Queue, QueueId, Record, RecordSource, RunHealth, ScratchMemory, ScratchMemoryOp,
    SessionMeta, StreamId, StringId, StringTable, ThreadId, Timestamp,
};
use rocprof_writers::rocpd::{RocpdOptions, RocpdWriter};
use rocprof_writers::rocpd_source::RocpdSource;
use rocprof_writers::{OutputLocation, Session, Writer};
use rusqlite::Connection;

use crate::scratch;

fn ts(ns: u64) -> Timestamp {
    Timestamp::boottime(ns)
}

/// Writes `records` (strings interned in `strings`) into `<dir>/rt_results.db` with our writer.
fn write_db(dir: &std::path::Path, strings: &StringTable, records: &[Record]) -> std::path::PathBuf {
    let opts = RocpdOptions { guid: Some("0190f1e2-0000-7000-8000-000000000001".into()), ..Default::default() };
    let mut w = RocpdWriter::with_options(OutputLocation::new(dir, "rt"), opts);
    let session = Session { strings };
    w.begin(&session).unwrap();
    for r in records {
        w.write(&session, r).unwrap();
    }
    let files = w.finish(&session).unwrap();
    assert_eq!(files.len(), 1);
    files[0].clone()
}

fn api(
    s: &mut StringTable,
    domain: ApiDomain,
    op: u32,
    name: &str,
    corr: u64,
    (start, end): (u64, u64),
    args: &[u64],
) -> ApiCall {
    // HSA ids are fixed by the function name (rocprofiler-sdk's tables).
    let op = rocprof_model::api::hsa::find(name).map_or(op, |(_, id)| id);
    ApiCall {
        domain,
        operation: op,
        name: s.intern(name),
        message: StringId::EMPTY,
        thread: ThreadId(77),
        correlation: Correlation { internal: CorrelationId(corr), ancestor: CorrelationId(0), external: 0 },
        start: ts(start),
        end: ts(end),
        return_value: 0,
        args: args.into(),
    }
}

fn dispatch(id: u64, corr: u64, start: u64) -> KernelDispatch {
    KernelDispatch {
        dispatch_id: DispatchId(id),
        correlation_id: CorrelationId(corr),
        agent: AgentId(1),
        queue: QueueId(0x5000),
        thread: ThreadId(77),
        kernel: KernelId(3),
        grid: Dim3::new(256, 1, 1),
        workgroup: Dim3::new(64, 1, 1),
        group_segment_size: 128,
        private_segment_size: 16,
        kernarg_size: 24,
        arch_vgpr_count: 8,
        sgpr_count: 16,
        start: ts(start),
        end: ts(start + 500),
        ..KernelDispatch::default()
    }
}

/// A process with a CPU and a GPU agent, a queue, a kernel and one counter; then events of every
/// kind, a dispatch followed by an API call before its counters (the order of a `--sys-trace
/// --pmc` stream once dispatches leave the capture reader's reorder window).
fn stream(s: &mut StringTable) -> Vec<Record> {
    let meta = SessionMeta {
        pid: ProcessId(4242),
        ppid: ProcessId(1),
        command: vec!["app".into(), "3".into()],
        start: ts(1_000),
        end: ts(900_000),
        clock: ClockDomain::Boottime,
    };
    let cpu = Agent { id: AgentId(0), agent_type: AgentType::Cpu, name: s.intern("cpu"), ..Agent::default() };
    let gpu = Agent { id: AgentId(1), agent_type: AgentType::Gpu, name: s.intern("gfx90a"), ..Agent::default() };
    let symbol = KernelSymbol {
        id: KernelId(3),
        kernarg_segment_size: 24,
        group_segment_size: 128,
        private_segment_size: 16,
        sgpr_count: 16,
        arch_vgpr_count: 8,
        ..KernelSymbol::default()
    }
    .with_names(s, "vector_add.kd", "vector_add.kd");
    let counter = CounterInfo {
        id: CounterId(1),
        agent: AgentId(1),
        name: s.intern("SQ_WAVES"),
        description: s.intern("Waves"),
        block: s.intern("SQ"),
        expression: StringId::EMPTY,
        is_derived: false,
        dimensions: s.intern("DIMENSION_XCC[0:0]"),
    };
    let values = |s: &mut StringTable, v: f64| {
        vec![CounterValue { counter: CounterId(1), name: s.intern("SQ_WAVES"), value: v }]
    };
    let mut health = RunHealth {
        records_written: 99,
        hook_ns: 5_000,
        hook_packets: 2,
        wall_ns: 800_000,
        stall_ns: 7_000,
        stalls: 3,
        stall_max_ns: 4_000,
        stall_thread_max_ns: 6_000,
        ..RunHealth::default()
    };
    health.lost.set(LossReason::SignalPoolEmpty, 3);
    let d1 = dispatch(1, 11, 50_000);
    let d2 = dispatch(2, 13, 60_000);
    let mut range = api(s, ApiDomain::MarkerCore, 1, "roctxThreadRangeA", 14, (40_000, 70_000), &[]);
    range.message = s.intern("outer range");
    let mut mark = api(s, ApiDomain::MarkerCore, 0, "roctxMarkA", 15, (45_000, 45_000), &[]);
    mark.message = s.intern("tick");
    let mut hip = api(s, ApiDomain::HipRuntime, 42, "hipMalloc", 16, (2_000, 3_000), &[0x7ff0_0010, 4096]);
    hip.correlation.ancestor = CorrelationId(0);
    let mut nested = api(s, ApiDomain::HsaAmdExt, 0, "hsa_amd_memory_pool_allocate", 17, (2_100, 2_900), &[]);
    nested.correlation.ancestor = CorrelationId(16);
    vec![
        Record::Process(Box::new(meta)),
        Record::Agent(Box::new(cpu)),
        Record::Agent(Box::new(gpu)),
        Record::Queue(Queue { id: QueueId(0x5000), thread: ThreadId(77), ..Queue::default() }),
        Record::KernelSymbol(symbol),
        Record::Counter(Box::new(counter)),
        // hsa_agent_get_info(agent, attribute, value): handle, enum, pointer.
        Record::ApiCall(api(
            s,
            ApiDomain::HsaCore,
            6,
            "hsa_agent_get_info",
            10,
            (10_000, 10_400),
            &[0x1234, 17, 0x7f00],
        )),
        Record::ApiCall(hip),
        Record::ApiCall(nested),
        Record::KernelDispatch(d1),
        // The API event between a dispatch and its counters.
        Record::ApiCall(api(s, ApiDomain::HsaCore, 0, "hsa_system_get_info", 12, (55_000, 55_000), &[1, 0x7f10])),
        Record::CounterCollection(Box::new(CounterCollection {
            dispatch: d1,
            status: PmcStatus::Ok,
            values: values(s, 64.0),
        })),
        Record::KernelDispatch(d2),
        Record::CounterCollection(Box::new(CounterCollection {
            dispatch: d2,
            status: PmcStatus::Ok,
            values: values(s, 32.0),
        })),
        Record::ApiCall(range),
        Record::ApiCall(mark),
        Record::MemoryCopy(MemoryCopy {
            direction: MemoryCopyDirection::HostToDevice,
            thread: ThreadId(77),
            correlation: Correlation::new(18),
            start: ts(80_000),
            end: ts(81_000),
            src_agent: AgentId(0),
            dst_agent: AgentId(1),
            src_address: 0x7f00_0000,
            dst_address: 0xffff_8000_0000_0000,
            bytes: 4096,
            stream: StreamId(0),
        }),
        Record::MemoryAllocation(MemoryAllocation {
            operation: MemoryAllocationOp::Allocate,
            thread: ThreadId(77),
            correlation: Correlation::new(19),
            start: ts(82_000),
            end: ts(82_500),
            agent: Some(AgentId(1)),
            address: 0x7000_0000,
            size: 1 << 20,
            stream: StreamId(0),
        }),
        Record::MemoryAllocation(MemoryAllocation {
            operation: MemoryAllocationOp::Free,
            thread: ThreadId(77),
            correlation: Correlation::new(20),
            start: ts(83_000),
            end: ts(83_100),
            agent: None,
            address: 0x7000_0000,
            size: 0,
            stream: StreamId(0),
        }),
        Record::ScratchMemory(ScratchMemory {
            operation: ScratchMemoryOp::Alloc,
            thread: ThreadId(77),
            correlation: Correlation::new(21),
            start: ts(84_000),
            end: ts(84_100),
            agent: AgentId(1),
            queue: QueueId(0x5000),
            flags: 1,
            size: 65536,
        }),
        Record::ScratchMemory(ScratchMemory {
            operation: ScratchMemoryOp::Free,
            thread: ThreadId(77),
            correlation: Correlation::new(22),
            start: ts(85_000),
            end: ts(85_100),
            agent: AgentId(1),
            queue: QueueId(0x5000),
            flags: 0,
            size: 0,
        }),
        Record::RunHealth(Box::new(health)),
    ]
}

/// A record with its strings resolved, for comparing records interned in different tables; `None`
/// for the definitions the comparison leaves out.
fn shown(r: &Record, s: &StringTable) -> Option<(&'static str, String)> {
    let text = match r {
        Record::ApiCall(a) => format!(
            "{} op {} {:?} msg {:?} t{} {:?} {}..{} args {:x?}",
            a.domain,
            a.operation,
            s.resolve(a.name),
            s.resolve(a.message),
            a.thread,
            a.correlation,
            a.start.ns,
            a.end.ns,
            a.args
        ),
        Record::KernelDispatch(d) => format!("{d:?}"),
        Record::CounterCollection(c) => {
            let v: Vec<_> = c.values.iter().map(|v| (v.counter, s.resolve(v.name), v.value)).collect();
            format!("{:?} {:?} {v:?}", c.dispatch, c.status)
        }
        Record::Counter(c) => format!(
            "{:?} {:?} {} {} {} {} {} {}",
            c.id,
            c.agent,
            s.resolve(c.name),
            s.resolve(c.description),
            s.resolve(c.block),
            s.resolve(c.expression),
            c.is_derived,
            s.resolve(c.dimensions)
        ),
        Record::MemoryCopy(c) => format!("{c:?}"),
        Record::MemoryAllocation(m) => format!("{m:?}"),
        Record::ScratchMemory(x) => format!("{x:?}"),
        Record::RunHealth(h) => format!("{h:?}"),
        _ => return None,
    };
    Some((r.kind(), text))
}

fn read_back(db: &std::path::Path) -> (Vec<Record>, StringTable) {
    let mut src = RocpdSource::open(db).unwrap();
    let mut strings = StringTable::new();
    let mut out = Vec::new();
    while let Some(r) = src.next_record(&mut strings).unwrap() {
        out.push(r);
    }
    (out, strings)
}

#[test]
fn a_counter_record_after_an_api_event_points_at_its_dispatch() {
    let dir = scratch("rocpd_counter_after_api");
    let mut s = StringTable::new();
    let records = stream(&mut s);
    let db = write_db(&dir, &s, &records);
    let conn = Connection::open(&db).unwrap();
    let mut st = conn
        .prepare(
            "SELECT kd.dispatch_id, p.value, c.string FROM rocpd_pmc_event p \
             JOIN rocpd_event e ON e.id = p.event_id JOIN rocpd_string c ON c.id = e.category_id \
             LEFT JOIN rocpd_kernel_dispatch kd ON kd.event_id = p.event_id ORDER BY p.id",
        )
        .unwrap();
    let rows: Vec<(Option<i64>, f64, String)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (dispatch, value, category) in &rows {
        assert_eq!(category, "KERNEL_DISPATCH", "{rows:?}");
        let expected = if *dispatch == Some(1) { 64.0 } else { 32.0 };
        assert_eq!(*value, expected, "{rows:?}");
    }
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [Some(1), Some(2)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_event_kind_reads_back_as_written() {
    let dir = scratch("rocpd_roundtrip");
    let mut s = StringTable::new();
    let records = stream(&mut s);
    let db = write_db(&dir, &s, &records);
    let (back, bs) = read_back(&db);
    // Per kind, the same records in the same order.
    for kind in [
        "api_call",
        "kernel_dispatch",
        "counter_collection",
        "counter",
        "memory_copy",
        "memory_allocation",
        "scratch_memory",
        "run_health",
    ] {
        let pick = |rs: &[Record], st: &StringTable| -> Vec<String> {
            rs.iter().filter_map(|r| shown(r, st)).filter(|(k, _)| *k == kind).map(|(_, t)| t).collect()
        };
        let (want, got) = (pick(&records, &s), pick(&back, &bs));
        assert!(!want.is_empty(), "{kind}");
        assert_eq!(got, want, "{kind}");
    }
    // Each counter collection right behind its dispatch; the whole stream in event order, which
    // is the written order except that the dispatch moved before the API call that followed it.
    let kinds: Vec<&str> = back.iter().map(Record::kind).collect();
    for (i, k) in kinds.iter().enumerate() {
        if *k == "counter_collection" {
            assert_eq!(kinds[i - 1], "kernel_dispatch", "{kinds:?}");
        }
    }
    let events: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| !matches!(*k, "process" | "agent" | "queue" | "kernel_symbol" | "counter" | "code_object"))
        .collect();
    assert_eq!(
        events,
        [
            "api_call",
            "api_call",
            "api_call",
            "kernel_dispatch",
            "counter_collection",
            "api_call",
            "kernel_dispatch",
            "counter_collection",
            "api_call",
            "api_call",
            "memory_copy",
            "memory_allocation",
            "memory_allocation",
            "scratch_memory",
            "scratch_memory",
            "run_health"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
