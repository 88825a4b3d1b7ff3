//! The events of one process read back from a rocpd database, in event-id order: kernel dispatches
//! (each followed by its counter values), API calls (regions and samples), memory copies,
//! allocations and scratch events, as the same [`Record`]s the capture reader produces.
//!
//! No table but `rocpd_event` is keyed by event id, so the process's events are first listed in a
//! temporary table `(event id, kind, row id)` keyed in that order (built once, O(n log n), in
//! SQLite's temp storage, not in our memory); counter values and API arguments are copied the same
//! way keyed by event id. Then pages of [`PAGE`] event ids are read with one query per kind, each
//! joining the page's part of the order table to its table by primary key, and merged.
//!
//! Event ids follow the record stream as our writer wrote it, so the records come back in the
//! direct path's order within each kind; AMD's writer numbers events kind by kind.

use std::collections::HashMap;

use rocprof_model::api::{arg_info_named, hsa, marker, parse_arg};
use rocprof_model::counters::{CounterCollection, CounterId, CounterValue, PmcStatus};
use rocprof_model::{
    AgentId, ApiCall, ApiDomain, Correlation, CorrelationId, Dim3, DispatchId, KernelDispatch, KernelId, KernelSymbol,
    MemoryAllocation, MemoryAllocationOp, MemoryCopy, MemoryCopyDirection, QueueId, Record, ScratchMemory,
    ScratchMemoryOp, StreamId, StringId, StringTable, ThreadId, Timestamp,
};
use rusqlite::{params, Connection};
use serde_json::Value;

use super::SymbolValues;

/// Event ids read per page.
pub(super) const PAGE: i64 = 8192;

const DISPATCH: i64 = 0;
const REGION: i64 = 1;
const SAMPLE: i64 = 2;
const COPY: i64 = 3;
const ALLOCATE: i64 = 4;

/// Lists the events of process `pid` in the temporary order table and copies their counter values
/// and arguments beside it (replacing the previous process's).
pub(super) fn prepare(conn: &Connection, pid: i64) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS rocprof_rs_order (
             eid INTEGER NOT NULL, kind INTEGER NOT NULL, rid INTEGER NOT NULL,
             PRIMARY KEY (eid, kind, rid)) WITHOUT ROWID;
         CREATE TEMP TABLE IF NOT EXISTS rocprof_rs_pmc (
             eid INTEGER NOT NULL, pmc INTEGER NOT NULL, value REAL,
             PRIMARY KEY (eid, pmc)) WITHOUT ROWID;
         CREATE TEMP TABLE IF NOT EXISTS rocprof_rs_arg (
             eid INTEGER NOT NULL, pos INTEGER NOT NULL, value TEXT,
             PRIMARY KEY (eid, pos)) WITHOUT ROWID;
         DELETE FROM temp.rocprof_rs_order;
         DELETE FROM temp.rocprof_rs_pmc;
         DELETE FROM temp.rocprof_rs_arg;",
    )?;
    for sql in [
        "INSERT OR IGNORE INTO temp.rocprof_rs_order SELECT COALESCE(event_id, 0), 0, id FROM rocpd_kernel_dispatch WHERE pid = ?1",
        "INSERT OR IGNORE INTO temp.rocprof_rs_order SELECT COALESCE(event_id, 0), 1, id FROM rocpd_region WHERE pid = ?1",
        "INSERT OR IGNORE INTO temp.rocprof_rs_order SELECT COALESCE(s.event_id, 0), 2, s.id FROM rocpd_sample s \
             JOIN rocpd_track t ON t.id = s.track_id WHERE t.pid = ?1",
        "INSERT OR IGNORE INTO temp.rocprof_rs_order SELECT COALESCE(event_id, 0), 3, id FROM rocpd_memory_copy WHERE pid = ?1",
        "INSERT OR IGNORE INTO temp.rocprof_rs_order SELECT COALESCE(event_id, 0), 4, id FROM rocpd_memory_allocate WHERE pid = ?1",
    ] {
        conn.execute(sql, [pid])?;
    }
    let any = |table: &str| -> rusqlite::Result<bool> {
        conn.query_row(&format!("SELECT EXISTS (SELECT 1 FROM {table})"), [], |r| r.get(0))
    };
    if any("rocpd_pmc_event")? {
        // AMD writes one row per dimension instance: summed here, as the CSV shows them.
        conn.execute(
            "INSERT OR IGNORE INTO temp.rocprof_rs_pmc SELECT event_id, pmc_id, SUM(value) FROM rocpd_pmc_event \
                 WHERE event_id IN (SELECT eid FROM temp.rocprof_rs_order WHERE kind = 0) GROUP BY event_id, pmc_id",
            [],
        )?;
    }
    if any("rocpd_arg")? {
        conn.execute(
            "INSERT OR IGNORE INTO temp.rocprof_rs_arg SELECT event_id, position, value FROM rocpd_arg \
                 WHERE event_id IN (SELECT eid FROM temp.rocprof_rs_order WHERE kind IN (1, 2))",
            [],
        )?;
    }
    Ok(())
}

/// What the page reader needs from the process's definitions.
#[derive(Debug, Default)]
pub(super) struct Context {
    /// Kernel symbol values a dispatch row does not repeat.
    pub symbols: HashMap<u64, SymbolValues>,
    /// Counter names by `rocpd_info_pmc` id.
    pub counters: HashMap<i64, StringId>,
    /// The agent of each queue with scratch rows (a scratch free's row names none).
    pub scratch_agents: HashMap<u64, AgentId>,
    /// Name dispatches with a region after it ([`super::RocpdSource::kernel_rename`]).
    pub rename: bool,
    /// With `rename`: the process's symbols by id, to copy for a region.
    pub originals: HashMap<u64, KernelSymbol>,
    /// With `rename`: the copies made so far, by kernel id and region name.
    pub renamed: HashMap<(u64, String), u64>,
    /// The largest symbol id so far (copies take the next ones).
    pub max_kernel: u64,
}

impl Context {
    /// The kernel a dispatch of `kernel` in `region` is reported under: with `rename` and a
    /// region, a copy of its symbol named after the region, queued in `out` the first time
    /// (ahead of the dispatch: same sort key, pushed first); else `kernel` itself.
    fn kernel_of(
        &mut self,
        strings: &mut StringTable,
        kernel: u64,
        region: String,
        key: (i64, i64, i64),
        out: &mut Vec<(i64, i64, i64, Record)>,
    ) -> u64 {
        if !self.rename || region.is_empty() {
            return kernel;
        }
        let Some(original) = self.originals.get(&kernel) else { return kernel };
        if strings.resolve(original.formatted_name) == region {
            return kernel;
        }
        if let Some(&id) = self.renamed.get(&(kernel, region.clone())) {
            return id;
        }
        self.max_kernel += 1;
        let id = self.max_kernel;
        let name = strings.intern(&region);
        let copy = KernelSymbol {
            id: KernelId(id),
            formatted_name: name,
            truncated_name: name,
            renamed_from: original.id,
            ..original.clone()
        };
        out.push((key.0, key.1, key.2, Record::KernelSymbol(copy)));
        self.renamed.insert((kernel, region), id);
        id
    }
}

fn i(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<i64> {
    Ok(r.get::<_, Option<i64>>(idx)?.unwrap_or(0))
}

fn text(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<String> {
    Ok(r.get::<_, Option<String>>(idx)?.unwrap_or_default())
}

fn json(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<Value> {
    Ok(serde_json::from_str(&text(r, idx)?).unwrap_or(Value::Null))
}

fn ts(v: i64) -> Timestamp {
    Timestamp::boottime(v as u64)
}

/// A copy's or dispatch's parent stack is its own id (AMD's convention): no ancestor then.
fn correlation(stack: i64, parent: i64, external: i64) -> Correlation {
    Correlation {
        internal: CorrelationId(stack as u64),
        ancestor: CorrelationId(if parent == stack { 0 } else { parent as u64 }),
        external: external as u64,
    }
}

fn domain_of(category: &str) -> Option<ApiDomain> {
    match category {
        // AMD's category for ROCTx ranges.
        "MARKER_CORE_RANGE_API" => Some(ApiDomain::MarkerCore),
        c => ApiDomain::ALL.into_iter().find(|d| d.as_str() == c),
    }
}

/// The operation id of function `name`: HSA and ROCTx ids are fixed by the name; HIP's depend on
/// the HIP release, so our writer keeps them in the event's extdata (AMD's databases have none: 0).
fn operation_of(domain: ApiDomain, name: &str, ext: &Value) -> u32 {
    // Our writer stores the ids the name does not fix (HIP, RCCL, ...).
    if let Some(op) = ext.get("operation").and_then(Value::as_u64) {
        return op as u32;
    }
    if let Some((d, op)) = hsa::find(name) {
        if d == domain {
            return op;
        }
    }
    // A ROCTx range is one record named after its kind, with the id of the call that opened it.
    let name = match (domain, name) {
        (ApiDomain::MarkerCore, "roctxThreadRangeA") => "roctxRangePushA",
        (ApiDomain::MarkerCore, "roctxProcessRangeA") => "roctxRangeStartA",
        (_, n) => n,
    };
    (0..16).find(|&op| marker::operation_name(domain, op) == Some(name)).unwrap_or(0)
}

/// The agent of a queue, for a scratch row that names none (only allocations do; the free of a
/// queue's old scratch can come before any of its allocations): from a scratch allocation of
/// the queue, else from a dispatch on it.
fn queue_agent(conn: &Connection, queue: i64) -> rusqlite::Result<Option<i64>> {
    for sql in [
        "SELECT agent_id FROM rocpd_memory_allocate WHERE level = 'SCRATCH' AND queue_id = ?1 AND agent_id IS NOT NULL LIMIT 1",
        "SELECT agent_id FROM rocpd_kernel_dispatch WHERE queue_id = ?1 LIMIT 1",
    ] {
        let mut st = conn.prepare_cached(sql)?;
        if let Some(a) = st.query_row([queue], |r| r.get::<_, Option<i64>>(0)).map(Some).or_else(none)?.flatten() {
            return Ok(Some(a));
        }
    }
    Ok(None)
}

/// The first event id after `last` that starts the next page, and the last of the page
/// (`i64::MAX` for the final page); `None` when no event is left.
fn page_bounds(conn: &Connection, last: i64) -> rusqlite::Result<Option<i64>> {
    let mut st = conn.prepare_cached("SELECT eid FROM temp.rocprof_rs_order WHERE eid > ?1 ORDER BY eid LIMIT 1")?;
    let first: Option<i64> = st.query_row([last], |r| r.get(0)).map(Some).or_else(none)?;
    if first.is_none() {
        return Ok(None);
    }
    let mut st =
        conn.prepare_cached("SELECT eid FROM temp.rocprof_rs_order WHERE eid > ?1 ORDER BY eid LIMIT 1 OFFSET ?2")?;
    let hi: Option<i64> = st.query_row(params![last, PAGE - 1], |r| r.get(0)).map(Some).or_else(none)?;
    Ok(Some(hi.unwrap_or(i64::MAX)))
}

fn none<T>(e: rusqlite::Error) -> rusqlite::Result<Option<T>> {
    match e {
        rusqlite::Error::QueryReturnedNoRows => Ok(None),
        e => Err(e),
    }
}

/// Reads the events with ids in `(last, hi]`, where `hi` is chosen so that the page holds about
/// [`PAGE`] events, appending them (merged in event-id order) to `out`. Returns the page's upper
/// bound, or `None` when no event is left.
pub(super) fn page(
    conn: &Connection,
    ctx: &mut Context,
    strings: &mut StringTable,
    last: i64,
    out: &mut Vec<(i64, i64, i64, Record)>,
) -> rusqlite::Result<Option<i64>> {
    let Some(hi) = page_bounds(conn, last)? else { return Ok(None) };
    let range = params![last, hi];
    let start = out.len();

    // Counter values of the page's dispatches, by event id, in counter-id order.
    let mut pmc: HashMap<i64, Vec<CounterValue>> = HashMap::new();
    let mut st = conn.prepare_cached(
        "SELECT eid, pmc, value FROM temp.rocprof_rs_pmc WHERE eid > ?1 AND eid <= ?2 ORDER BY eid, pmc",
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let pmc_id = i(r, 1)?;
        let name = ctx.counters.get(&pmc_id).copied().unwrap_or(StringId::EMPTY);
        pmc.entry(i(r, 0)?).or_default().push(CounterValue {
            counter: CounterId(pmc_id as u32),
            name,
            value: r.get::<_, Option<f64>>(2)?.unwrap_or(0.0),
        });
    }
    drop(rows);

    let mut st = conn.prepare_cached(
        r#"SELECT o.eid, o.rid, kd.tid, kd.agent_id, kd.kernel_id, kd.dispatch_id, kd.queue_id, kd.stream_id,
               kd.start, kd."end", kd.private_segment_size, kd.group_segment_size, kd.workgroup_size_x,
               kd.workgroup_size_y, kd.workgroup_size_z, kd.grid_size_x, kd.grid_size_y, kd.grid_size_z,
               e.stack_id, e.correlation_id, rs.string
           FROM temp.rocprof_rs_order o JOIN rocpd_kernel_dispatch kd ON kd.id = o.rid
               LEFT JOIN rocpd_event e ON e.id = o.eid LEFT JOIN rocpd_string rs ON rs.id = kd.region_name_id
           WHERE o.eid > ?1 AND o.eid <= ?2 AND o.kind = 0"#,
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let g = |idx| i(r, idx);
        let (eid, rid) = (g(0)?, g(1)?);
        let kernel = g(4)? as u64;
        let sym = ctx.symbols.get(&kernel).copied().unwrap_or_default();
        let kernel = ctx.kernel_of(strings, kernel, text(r, 20)?, (eid, DISPATCH, rid), out);
        let d = KernelDispatch {
            dispatch_id: DispatchId(g(5)? as u64),
            correlation_id: CorrelationId(g(18)? as u64),
            external_id: g(19)? as u64,
            agent: AgentId(g(3)? as u32),
            queue: QueueId(g(6)? as u64),
            stream: StreamId(g(7)? as u64),
            thread: ThreadId(g(2)? as u32),
            kernel: KernelId(kernel),
            grid: Dim3::new(g(15)? as u32, g(16)? as u32, g(17)? as u32),
            workgroup: Dim3::new(g(12)? as u32, g(13)? as u32, g(14)? as u32),
            group_segment_size: g(11)? as u32,
            private_segment_size: g(10)? as u32,
            kernarg_size: sym.kernarg_size,
            arch_vgpr_count: sym.arch_vgpr_count,
            accum_vgpr_count: sym.accum_vgpr_count,
            sgpr_count: sym.sgpr_count,
            start: ts(g(8)?),
            end: ts(g(9)?),
        };
        out.push((eid, DISPATCH, rid, Record::KernelDispatch(d)));
        // The counters follow their dispatch (one collection per event id, for the first dispatch
        // row that names it).
        if let Some(values) = pmc.remove(&eid) {
            let c = CounterCollection { dispatch: d, status: PmcStatus::Ok, values };
            out.push((eid, DISPATCH, rid, Record::CounterCollection(Box::new(c))));
        }
    }
    drop(rows);

    // Arguments of the page's API events.
    let mut args: HashMap<i64, Vec<(i64, String)>> = HashMap::new();
    let mut st = conn.prepare_cached(
        "SELECT eid, pos, value FROM temp.rocprof_rs_arg WHERE eid > ?1 AND eid <= ?2 ORDER BY eid, pos",
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        args.entry(i(r, 0)?).or_default().push((i(r, 1)?, text(r, 2)?));
    }
    drop(rows);
    let api = |strings: &mut StringTable,
               args: &mut HashMap<i64, Vec<(i64, String)>>,
               eid: i64,
               domain: ApiDomain,
               name: &str,
               ext: &Value,
               thread: i64,
               corr: Correlation,
               (start, end): (i64, i64)| {
        let operation = operation_of(domain, name, ext);
        let message = ext.get("message").and_then(Value::as_str).unwrap_or("");
        let words: Box<[u64]> = match args.remove(&eid) {
            Some(list) => {
                let info = arg_info_named(domain, operation, name).unwrap_or(&[]);
                let n = list.iter().map(|&(p, _)| p.saturating_add(1)).max().unwrap_or(0).clamp(0, 64) as usize;
                let mut w = vec![0u64; n];
                for (p, v) in list {
                    if let (Some(slot), Some(a)) = (w.get_mut(p as usize), info.get(p as usize)) {
                        *slot = parse_arg(a.kind, &v).unwrap_or(0);
                    }
                }
                w.into_boxed_slice()
            }
            None => Box::new([]),
        };
        ApiCall {
            domain,
            operation,
            name: strings.intern(name),
            message: if message.is_empty() { StringId::EMPTY } else { strings.intern(message) },
            thread: ThreadId(thread as u32),
            correlation: corr,
            start: ts(start),
            end: ts(end),
            return_value: 0,
            args: words,
        }
    };

    let mut st = conn.prepare_cached(
        r#"SELECT o.eid, o.rid, r.tid, r.start, r."end", n.string, c.string, e.stack_id, e.parent_stack_id,
               e.correlation_id, e.extdata
           FROM temp.rocprof_rs_order o JOIN rocpd_region r ON r.id = o.rid
               LEFT JOIN rocpd_event e ON e.id = o.eid
               LEFT JOIN rocpd_string n ON n.id = r.name_id
               LEFT JOIN rocpd_string c ON c.id = e.category_id
           WHERE o.eid > ?1 AND o.eid <= ?2 AND o.kind = 1"#,
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let Some(domain) = domain_of(&text(r, 6)?) else { continue };
        let (eid, rid) = (i(r, 0)?, i(r, 1)?);
        let stack = r.get::<_, Option<i64>>(7)?.unwrap_or(rid);
        let corr = correlation(stack, i(r, 8)?, i(r, 9)?);
        let ext = json(r, 10)?;
        let call = api(strings, &mut args, eid, domain, &text(r, 5)?, &ext, i(r, 2)?, corr, (i(r, 3)?, i(r, 4)?));
        out.push((eid, REGION, rid, Record::ApiCall(call)));
    }
    drop(rows);

    let mut st = conn.prepare_cached(
        r#"SELECT o.eid, o.rid, t.tid, s.timestamp, c.string, e.stack_id, e.parent_stack_id, e.correlation_id,
               e.extdata
           FROM temp.rocprof_rs_order o JOIN rocpd_sample s ON s.id = o.rid
               LEFT JOIN rocpd_track t ON t.id = s.track_id
               LEFT JOIN rocpd_event e ON e.id = o.eid
               LEFT JOIN rocpd_string c ON c.id = COALESCE(e.category_id, t.name_id)
           WHERE o.eid > ?1 AND o.eid <= ?2 AND o.kind = 2"#,
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let Some(domain) = domain_of(&text(r, 4)?) else { continue };
        let (eid, rid) = (i(r, 0)?, i(r, 1)?);
        let stack = r.get::<_, Option<i64>>(5)?.unwrap_or(rid);
        let corr = correlation(stack, i(r, 6)?, i(r, 7)?);
        let ext = json(r, 8)?;
        // Our writer keeps the function name of an instant that is not a ROCTx mark.
        let name = match ext.get("name").and_then(Value::as_str) {
            Some(n) => n.to_string(),
            None if domain == ApiDomain::MarkerCore => "roctxMarkA".to_string(),
            None => String::new(),
        };
        let t = i(r, 3)?;
        let call = api(strings, &mut args, eid, domain, &name, &ext, i(r, 2)?, corr, (t, t));
        out.push((eid, SAMPLE, rid, Record::ApiCall(call)));
    }
    drop(rows);

    let mut st = conn.prepare_cached(
        r#"SELECT o.eid, o.rid, m.tid, m.start, m."end", n.string, m.dst_agent_id, m.dst_address, m.src_agent_id,
               m.src_address, m.size, m.stream_id, e.stack_id, e.parent_stack_id, e.correlation_id
           FROM temp.rocprof_rs_order o JOIN rocpd_memory_copy m ON m.id = o.rid
               LEFT JOIN rocpd_event e ON e.id = o.eid
               LEFT JOIN rocpd_string n ON n.id = m.name_id
           WHERE o.eid > ?1 AND o.eid <= ?2 AND o.kind = 3"#,
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let g = |idx| i(r, idx);
        let name = text(r, 5)?;
        let direction = [
            MemoryCopyDirection::HostToHost,
            MemoryCopyDirection::HostToDevice,
            MemoryCopyDirection::DeviceToHost,
            MemoryCopyDirection::DeviceToDevice,
        ]
        .into_iter()
        .find(|d| d.as_str() == name)
        .unwrap_or_default();
        let c = MemoryCopy {
            direction,
            thread: ThreadId(g(2)? as u32),
            correlation: correlation(g(12)?, g(13)?, g(14)?),
            start: ts(g(3)?),
            end: ts(g(4)?),
            src_agent: AgentId(g(8)? as u32),
            dst_agent: AgentId(g(6)? as u32),
            src_address: g(9)? as u64,
            dst_address: g(7)? as u64,
            bytes: g(10)? as u64,
            stream: StreamId(g(11)? as u64),
        };
        out.push((g(0)?, COPY, g(1)?, Record::MemoryCopy(c)));
    }
    drop(rows);

    let mut st = conn.prepare_cached(
        r#"SELECT o.eid, o.rid, m.tid, m.agent_id, m.type, m.level, m.start, m."end", m.address, m.size,
               m.queue_id, m.stream_id, e.stack_id, e.parent_stack_id, e.correlation_id, m.extdata
           FROM temp.rocprof_rs_order o JOIN rocpd_memory_allocate m ON m.id = o.rid
               LEFT JOIN rocpd_event e ON e.id = o.eid
           WHERE o.eid > ?1 AND o.eid <= ?2 AND o.kind = 4"#,
    )?;
    let mut rows = st.query(range)?;
    while let Some(r) = rows.next()? {
        let g = |idx| i(r, idx);
        let agent: Option<i64> = r.get(3)?;
        let (kind, level) = (text(r, 4)?, text(r, 5)?);
        let thread = ThreadId(g(2)? as u32);
        let corr = correlation(g(12)?, g(13)?, g(14)?);
        let record = if level == "SCRATCH" {
            let operation = match kind.as_str() {
                "ALLOC" => ScratchMemoryOp::Alloc,
                "FREE" => ScratchMemoryOp::Free,
                "RECLAIM" | "ASYNC_RECLAIM" => ScratchMemoryOp::AsyncReclaim,
                _ => ScratchMemoryOp::None,
            };
            let queue = QueueId(g(10)? as u64);
            let agent = match agent {
                Some(a) => AgentId(a as u32),
                None => match ctx.scratch_agents.get(&queue.0) {
                    Some(&a) => a,
                    None => {
                        let a = AgentId(queue_agent(conn, queue.0 as i64)?.unwrap_or(0) as u32);
                        ctx.scratch_agents.insert(queue.0, a);
                        a
                    }
                },
            };
            let ext = json(r, 15)?;
            let flags = match ext.get("flags") {
                Some(Value::String(s)) => s.parse().unwrap_or(0),
                Some(v) => v.as_u64().unwrap_or(0) as u32,
                None => 0,
            };
            Record::ScratchMemory(ScratchMemory {
                operation,
                thread,
                correlation: corr,
                start: ts(g(6)?),
                end: ts(g(7)?),
                agent,
                queue,
                flags,
                size: g(9)? as u64,
            })
        } else {
            let operation = match (kind.as_str(), level.as_str()) {
                ("ALLOC", "VIRTUAL") => MemoryAllocationOp::VmemAllocate,
                ("ALLOC", _) => MemoryAllocationOp::Allocate,
                ("FREE", "VIRTUAL") => MemoryAllocationOp::VmemFree,
                ("FREE", _) => MemoryAllocationOp::Free,
                _ => MemoryAllocationOp::None,
            };
            Record::MemoryAllocation(MemoryAllocation {
                operation,
                thread,
                correlation: corr,
                start: ts(g(6)?),
                end: ts(g(7)?),
                agent: agent.map(|a| AgentId(a as u32)),
                address: g(8)? as u64,
                size: g(9)? as u64,
                stream: StreamId(g(11)? as u64),
            })
        };
        out.push((g(0)?, ALLOCATE, g(1)?, record));
    }
    drop(rows);

    // Event-id order; a dispatch's counters stay right behind it (stable sort, same key).
    out[start..].sort_by_key(|&(eid, kind, rid, _)| (eid, kind, rid));
    Ok(Some(hi))
}
