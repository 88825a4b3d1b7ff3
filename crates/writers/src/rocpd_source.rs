//! Reading a rocpd database (ours, or one AMD's rocprofv3 wrote: the schema is the same) as a
//! [`RecordSource`], for `rocprof-rs convert`.
//!
//! Queries go through the plain-named views every rocpd database has (`rocpd_info_agent`,
//! `rocpd_kernel_dispatch`, ...), so the session uuid suffix of the physical tables does not
//! matter. Each process row becomes a process section: its definitions first (agents, queues,
//! code objects, kernel symbols, counters), then its events in event-id order, read in pages
//! ([`events`]): kernel dispatches each followed by its counter values, API calls with their
//! arguments, memory copies, allocations and scratch events. Memory stays bounded whatever the
//! database's size.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use rocprof_model::counters::{CounterId, CounterInfo};
use rocprof_model::{
    Agent, AgentId, AgentType, ClockDomain, CodeObject, CodeObjectId, CodeObjectStorage, Dim3, KernelId, KernelSymbol,
    LossReason, ProcessId, Queue, QueueId, Record, RecordSource, RunHealth, SessionMeta, SourceError, StringTable,
    Timestamp,
};
use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use crate::{Error, Result};

mod events;

#[derive(Debug, Clone)]
struct ProcessRow {
    pid: i64,
    meta: SessionMeta,
}

#[derive(Debug, Clone, Copy, Default)]
struct SymbolValues {
    kernarg_size: u32,
    arch_vgpr_count: u32,
    accum_vgpr_count: u32,
    sgpr_count: u32,
}

/// A rocpd database as a record source.
#[derive(Debug)]
pub struct RocpdSource {
    path: PathBuf,
    conn: Connection,
    processes: VecDeque<ProcessRow>,
    current: Option<i64>,
    /// The last event id read of the current process.
    last_eid: i64,
    ctx: events::Context,
    out: VecDeque<Record>,
    /// One page of events, merged in event-id order.
    page: Vec<(i64, i64, i64, Record)>,
    remaining: u64,
    /// Name dispatches after their region (see [`Self::kernel_rename`]).
    kernel_rename: bool,
}

fn sqlite_err<'p>(path: &'p Path, what: &'static str) -> impl Fn(rusqlite::Error) -> Error + 'p {
    move |source| Error::Sqlite { path: path.to_path_buf(), what, source }
}

fn u32_of(v: Option<i64>) -> u32 {
    v.unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32
}

fn ext_u32(ext: &Value, key: &str) -> u32 {
    ext.get(key).and_then(Value::as_u64).map_or(0, |v| v.min(u64::from(u32::MAX)) as u32)
}

fn ext_u64(ext: &Value, key: &str) -> u64 {
    ext.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn ext_dim(ext: &Value, key: &str) -> Dim3 {
    let d = |c| ext.get(key).and_then(|v| v.get(c)).and_then(Value::as_u64).unwrap_or(0) as u32;
    Dim3::new(d("x"), d("y"), d("z"))
}

impl RocpdSource {
    /// `--kernel-rename` (AMD's `rocpd convert --kernel-rename`): a database of a run profiled
    /// with `--kernel-rename` names each dispatch's ROCTx range in its `region_name_id` (one
    /// symbol per kernel, as rocprofv3 writes it); with this on, a dispatch with a region is read
    /// as the profiler reported it: under a copy of its kernel's symbol named after the region
    /// (`renamed_from` the original, one copy per kernel and region). Off (the default), every
    /// dispatch is named after its kernel, as AMD's tools name dispatches without the option.
    pub fn kernel_rename(mut self, on: bool) -> Self {
        self.kernel_rename = on;
        self.ctx.rename = on;
        self
    }

    /// Opens `path` read-only and lists its processes.
    pub fn open(path: &Path) -> Result<Self> {
        let conn =
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(sqlite_err(path, "opening the database"))?;
        let err = sqlite_err(path, "reading rocpd_info_process (is this a rocpd database?)");
        let processes = {
            let mut st = conn
                .prepare(r#"SELECT pid, ppid, start, "end", command FROM rocpd_info_process ORDER BY id"#)
                .map_err(&err)?;
            let rows = st
                .query_map([], |r| {
                    let pid: i64 = r.get(0)?;
                    let ppid: Option<i64> = r.get(1)?;
                    let start: Option<i64> = r.get(2)?;
                    let end: Option<i64> = r.get(3)?;
                    let command: Option<String> = r.get(4)?;
                    Ok(ProcessRow {
                        pid,
                        meta: SessionMeta {
                            pid: ProcessId(pid as u32),
                            ppid: ProcessId(ppid.unwrap_or(0) as u32),
                            command: command.unwrap_or_default().split_whitespace().map(str::to_string).collect(),
                            start: Timestamp::boottime(start.unwrap_or(0) as u64),
                            end: Timestamp::boottime(end.unwrap_or(0) as u64),
                            clock: ClockDomain::Boottime,
                        },
                    })
                })
                .map_err(&err)?;
            rows.collect::<rusqlite::Result<VecDeque<_>>>().map_err(&err)?
        };
        let remaining: i64 = conn
            .query_row(
                "SELECT (SELECT COUNT(*) FROM rocpd_kernel_dispatch) + (SELECT COUNT(*) FROM rocpd_region) \
                     + (SELECT COUNT(*) FROM rocpd_sample) + (SELECT COUNT(*) FROM rocpd_memory_copy) \
                     + (SELECT COUNT(*) FROM rocpd_memory_allocate)",
                [],
                |r| r.get(0),
            )
            .map_err(sqlite_err(path, "counting the events"))?;
        Ok(Self {
            path: path.to_path_buf(),
            conn,
            processes,
            current: None,
            last_eid: i64::MIN,
            ctx: events::Context::default(),
            out: VecDeque::new(),
            page: Vec::new(),
            remaining: remaining as u64 + 1,
            kernel_rename: false,
        })
    }

    /// The database being read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Queues the process record and the definitions of process `pid`.
    fn definitions(&mut self, p: &ProcessRow, strings: &mut StringTable) -> rusqlite::Result<()> {
        self.out.push_back(Record::Process(Box::new(p.meta.clone())));
        let mut st = self.conn.prepare(
            "SELECT id, type, absolute_index, logical_index, type_index, uuid, name, model_name, vendor_name, \
                 product_name, extdata FROM rocpd_info_agent WHERE pid = ?1 ORDER BY id",
        )?;
        let mut rows = st.query([p.pid])?;
        let mut agents = Vec::new();
        while let Some(r) = rows.next()? {
            let s = |i: usize| -> rusqlite::Result<String> { Ok(r.get::<_, Option<String>>(i)?.unwrap_or_default()) };
            let ext: Value = serde_json::from_str(&s(10)?).unwrap_or(Value::Null);
            let kind: Option<String> = r.get(1)?;
            let agent_type = match kind.as_deref() {
                Some("CPU") => AgentType::Cpu,
                Some("GPU") => AgentType::Gpu,
                _ => AgentType::Unknown,
            };
            agents.push(Agent {
                id: AgentId(u32_of(r.get(0).ok())),
                handle: ext.get("id").map_or(0, |h| ext_u64(h, "handle")),
                node_id: u32_of(r.get(2).ok()),
                logical_node_id: u32_of(r.get(3).ok()),
                logical_node_type_id: u32_of(r.get(4).ok()),
                agent_type,
                cpu_cores_count: ext_u32(&ext, "cpu_cores_count"),
                simd_count: ext_u32(&ext, "simd_count"),
                cpu_core_id_base: ext_u32(&ext, "cpu_core_id_base"),
                simd_id_base: ext_u32(&ext, "simd_id_base"),
                max_waves_per_simd: ext_u32(&ext, "max_waves_per_simd"),
                lds_size_in_kb: ext_u32(&ext, "lds_size_in_kb"),
                gds_size_in_kb: ext_u32(&ext, "gds_size_in_kb"),
                num_gws: ext_u32(&ext, "num_gws"),
                wave_front_size: ext_u32(&ext, "wave_front_size"),
                num_xcc: ext_u32(&ext, "num_xcc"),
                cu_count: ext_u32(&ext, "cu_count"),
                array_count: ext_u32(&ext, "array_count"),
                num_shader_banks: ext_u32(&ext, "num_shader_banks"),
                simd_arrays_per_engine: ext_u32(&ext, "simd_arrays_per_engine"),
                cu_per_simd_array: ext_u32(&ext, "cu_per_simd_array"),
                simd_per_cu: ext_u32(&ext, "simd_per_cu"),
                max_slots_scratch_cu: ext_u32(&ext, "max_slots_scratch_cu"),
                gfx_target_version: ext_u32(&ext, "gfx_target_version"),
                vendor_id: ext_u32(&ext, "vendor_id"),
                device_id: u32_of(r.get(5).ok()),
                location_id: ext_u32(&ext, "location_id"),
                domain: ext_u32(&ext, "domain"),
                drm_render_minor: ext_u32(&ext, "drm_render_minor"),
                num_sdma_engines: ext_u32(&ext, "num_sdma_engines"),
                num_sdma_xgmi_engines: ext_u32(&ext, "num_sdma_xgmi_engines"),
                num_sdma_queues_per_engine: ext_u32(&ext, "num_sdma_queues_per_engine"),
                num_cp_queues: ext_u32(&ext, "num_cp_queues"),
                max_engine_clk_ccompute: ext_u32(&ext, "max_engine_clk_ccompute"),
                max_engine_clk_fcompute: ext_u32(&ext, "max_engine_clk_fcompute"),
                sdma_fw_version: ext.get("sdma_fw_version").map_or(0, |v| ext_u32(v, "uCodeSDMA")),
                fw_version: ext.get("fw_version").map_or(0, |v| ext_u32(v, "uCode")),
                capability: ext.get("capability").map_or(0, |v| ext_u32(v, "Value")),
                cu_per_engine: ext_u32(&ext, "cu_per_engine"),
                max_waves_per_cu: ext_u32(&ext, "max_waves_per_cu"),
                family_id: ext_u32(&ext, "family_id"),
                workgroup_max_size: ext_u32(&ext, "workgroup_max_size"),
                grid_max_size: ext_u64(&ext, "grid_max_size"),
                local_mem_size: ext_u64(&ext, "local_mem_size"),
                hive_id: ext_u64(&ext, "hive_id"),
                gpu_id: ext_u64(&ext, "gpu_id"),
                workgroup_max_dim: ext_dim(&ext, "workgroup_max_dim"),
                grid_max_dim: ext_dim(&ext, "grid_max_dim"),
                name: strings.intern(&s(6)?),
                model_name: strings.intern(&s(7)?),
                vendor_name: strings.intern(&s(8)?),
                product_name: strings.intern(&s(9)?),
            });
        }
        drop(rows);
        drop(st);
        self.out.extend(agents.into_iter().map(|a| Record::Agent(Box::new(a))));
        let mut st = self.conn.prepare("SELECT id FROM rocpd_info_queue WHERE pid = ?1 ORDER BY id")?;
        let queues: Vec<i64> = st.query_map([p.pid], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        drop(st);
        for q in queues.into_iter().filter(|&q| q > 0) {
            self.out.push_back(Record::Queue(Queue { id: QueueId(q as u64), ..Queue::default() }));
        }
        let mut st = self.conn.prepare(
            "SELECT id, agent_id, uri, load_base, load_size, load_delta, storage_type, extdata \
                 FROM rocpd_info_code_object WHERE pid = ?1 ORDER BY id",
        )?;
        let mut rows = st.query([p.pid])?;
        while let Some(r) = rows.next()? {
            let ext: Value =
                serde_json::from_str(&r.get::<_, Option<String>>(7)?.unwrap_or_default()).unwrap_or(Value::Null);
            let storage: Option<String> = r.get(6)?;
            self.out.push_back(Record::CodeObject(CodeObject {
                id: CodeObjectId(r.get::<_, i64>(0)? as u64),
                agent: AgentId(u32_of(r.get(1)?)),
                uri: strings.intern(&r.get::<_, Option<String>>(2)?.unwrap_or_default()),
                load_base: r.get::<_, Option<i64>>(3)?.unwrap_or(0) as u64,
                load_size: r.get::<_, Option<i64>>(4)?.unwrap_or(0) as u64,
                load_delta: r.get::<_, Option<i64>>(5)?.unwrap_or(0),
                storage: match storage.as_deref() {
                    Some("FILE") => CodeObjectStorage::File,
                    Some("MEMORY") => CodeObjectStorage::Memory,
                    _ => CodeObjectStorage::None,
                },
                memory_base: ext_u64(&ext, "memory_base"),
                memory_size: ext_u64(&ext, "memory_size"),
                loaded: Timestamp::default(),
            }));
        }
        drop(rows);
        drop(st);
        let mut st = self.conn.prepare(
            "SELECT id, code_object_id, kernel_name, kernel_object, kernarg_segment_size, \
                 kernarg_segment_alignment, group_segment_size, private_segment_size, sgpr_count, arch_vgpr_count, \
                 accum_vgpr_count, extdata, display_name FROM rocpd_info_kernel_symbol WHERE pid = ?1 ORDER BY id",
        )?;
        let mut rows = st.query([p.pid])?;
        self.ctx.symbols.clear();
        self.ctx.originals.clear();
        self.ctx.renamed.clear();
        self.ctx.max_kernel = 0;
        while let Some(r) = rows.next()? {
            let raw: String = r.get::<_, Option<String>>(2)?.unwrap_or_default();
            let ext: Value =
                serde_json::from_str(&r.get::<_, Option<String>>(11)?.unwrap_or_default()).unwrap_or(Value::Null);
            let demangled = match rocprof_model::capture::demangle::demangle(raw.strip_suffix(".kd").unwrap_or(&raw)) {
                Some(d) if raw.ends_with(".kd") => format!("{d}.kd"),
                Some(d) => d,
                None => raw.clone(),
            };
            let kernel_object = r.get::<_, Option<i64>>(3)?.unwrap_or(0) as u64;
            let entry = ext.get("kernel_code_entry_byte_offset").and_then(Value::as_i64).unwrap_or(0);
            let sym = KernelSymbol {
                id: KernelId(r.get::<_, i64>(0)? as u64),
                code_object: CodeObjectId(r.get::<_, Option<i64>>(1)?.unwrap_or(0) as u64),
                kernel_object,
                kernarg_segment_size: u32_of(r.get(4)?),
                kernarg_segment_alignment: u32_of(r.get(5)?),
                group_segment_size: u32_of(r.get(6)?),
                private_segment_size: u32_of(r.get(7)?),
                sgpr_count: u32_of(r.get(8)?),
                arch_vgpr_count: u32_of(r.get(9)?),
                accum_vgpr_count: u32_of(r.get(10)?),
                kernel_code_entry_byte_offset: entry,
                kernel_address: kernel_object.wrapping_add(entry as u64),
                ..KernelSymbol::default()
            }
            .with_names(strings, &raw, &demangled);
            if self.kernel_rename {
                self.ctx.originals.insert(sym.id.0, sym.clone());
            }
            self.ctx.max_kernel = self.ctx.max_kernel.max(sym.id.0);
            self.ctx.symbols.insert(
                sym.id.0,
                SymbolValues {
                    kernarg_size: sym.kernarg_segment_size,
                    arch_vgpr_count: sym.arch_vgpr_count,
                    accum_vgpr_count: sym.accum_vgpr_count,
                    sgpr_count: sym.sgpr_count,
                },
            );
            self.out.push_back(Record::KernelSymbol(sym));
        }
        drop(rows);
        drop(st);
        let mut st = self.conn.prepare(
            "SELECT id, agent_id, name, description, block, expression, is_derived, extdata \
                 FROM rocpd_info_pmc WHERE pid = ?1 ORDER BY id",
        )?;
        let mut rows = st.query([p.pid])?;
        self.ctx.counters.clear();
        self.ctx.scratch_agents.clear();
        while let Some(r) = rows.next()? {
            let t = |i: usize| -> rusqlite::Result<String> { Ok(r.get::<_, Option<String>>(i)?.unwrap_or_default()) };
            let ext: Value = serde_json::from_str(&t(7)?).unwrap_or(Value::Null);
            let id: i64 = r.get(0)?;
            let c = CounterInfo {
                id: CounterId(id as u32),
                agent: AgentId(u32_of(r.get(1)?)),
                name: strings.intern(&t(2)?),
                description: strings.intern(&t(3)?),
                block: strings.intern(&t(4)?),
                expression: strings.intern(&t(5)?),
                is_derived: r.get::<_, Option<i64>>(6)?.unwrap_or(0) != 0,
                dimensions: strings.intern(ext.get("dimensions").and_then(Value::as_str).unwrap_or("")),
            };
            self.ctx.counters.insert(id, c.name);
            self.out.push_back(Record::Counter(Box::new(c)));
        }
        drop(rows);
        drop(st);
        events::prepare(&self.conn, p.pid)
    }
}

impl RocpdSource {
    /// The run's health from the `run_health.<key>` metadata rows our writer stores (`None` when
    /// the database has none, e.g. one AMD's rocprofv3 wrote): the last record of a process.
    fn run_health(&self) -> rusqlite::Result<Option<RunHealth>> {
        let mut st = self.conn.prepare("SELECT tag, value FROM rocpd_metadata WHERE tag LIKE 'run_health.%'")?;
        let mut rows = st.query([])?;
        let mut h = RunHealth::default();
        let mut any = false;
        while let Some(r) = rows.next()? {
            let tag: String = r.get(0)?;
            let value: u64 = r.get::<_, Option<String>>(1)?.and_then(|v| v.trim().parse().ok()).unwrap_or(0);
            any = true;
            match tag.trim_start_matches("run_health.") {
                "records_written" => h.records_written = value,
                "incomplete_dispatches" => h.incomplete_dispatches = value,
                "hook_ns" => h.hook_ns = value,
                "hook_packets" => h.hook_packets = value,
                "wall_ns" => h.wall_ns = value,
                "stall_ns" => h.stall_ns = value,
                "stalls" => h.stalls = value,
                "stall_max_ns" => h.stall_max_ns = value,
                "stall_thread_max_ns" => h.stall_thread_max_ns = value,
                "clean_exit" => h.clean_exit = value != 0,
                key => {
                    if let Some(reason) =
                        key.strip_prefix("lost.").and_then(|k| LossReason::ALL.into_iter().find(|r| r.as_str() == k))
                    {
                        h.lost.set(reason, value);
                    }
                }
            }
        }
        Ok(any.then_some(h))
    }
}

impl RecordSource for RocpdSource {
    fn next_record(&mut self, strings: &mut StringTable) -> std::result::Result<Option<Record>, SourceError> {
        loop {
            if let Some(r) = self.out.pop_front() {
                self.remaining = self.remaining.saturating_sub(1);
                return Ok(Some(r));
            }
            let path = self.path.clone();
            let err = sqlite_err(&path, "reading the database");
            if self.current.is_some() {
                self.page.clear();
                match events::page(&self.conn, &mut self.ctx, strings, self.last_eid, &mut self.page).map_err(&err)? {
                    Some(hi) => {
                        self.last_eid = hi;
                        self.out.extend(self.page.drain(..).map(|(_, _, _, r)| r));
                        continue;
                    }
                    None => {
                        self.current = None;
                        if let Some(h) = self.run_health().map_err(&err)? {
                            self.out.push_back(Record::RunHealth(Box::new(h)));
                            continue;
                        }
                    }
                }
            }
            let Some(p) = self.processes.pop_front() else { return Ok(None) };
            self.definitions(&p, strings).map_err(&err)?;
            self.current = Some(p.pid);
            self.last_eid = i64::MIN;
        }
    }

    fn len_hint(&self) -> Option<u64> {
        Some(self.remaining)
    }
}
