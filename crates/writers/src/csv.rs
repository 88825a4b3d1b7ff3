//! rocprofv3's CSV files: `kernel_trace.csv`, `counter_collection.csv`, `agent_info.csv`, and
//! (in [`activity`]) the API trace files of every traced library and the memory copy,
//! allocation and scratch files.
//!
//! Encoding as rocprofv3 writes it: header names double-quoted, string fields double-quoted
//! without escaping, numbers bare, `\n` line ends, rows in delivery order. A file is created only
//! when its domain has a record; `agent_info.csv` only when some CSV data file was written.

use std::collections::HashMap;
use std::path::PathBuf;

use rocprof_model::counters::CounterCollection;
use rocprof_model::{Agent, AgentId, KernelDispatch, KernelId, Record, StringId};

use crate::numfmt::{fixed, scientific};

use crate::schema::{columns, csv_header, AGENT_INFO_COLUMNS, COUNTER_COLLECTION_COLUMNS, KERNEL_TRACE_COLUMNS};
use crate::{OutputFile, OutputLocation, Result, Session, Writer};

mod activity;

/// How agents are named in CSV rows (`-A/--agent-index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentIndex {
    /// `Agent <node_id>`.
    Absolute,
    /// `Agent <logical_node_id>` (rocprofv3's default).
    #[default]
    Relative,
    /// `GPU <n>` / `CPU <n>` with the per-type index.
    TypeRelative,
}

impl AgentIndex {
    /// The label word and index of `agent` in this scheme: `("Agent", 1)`, `("GPU", 0)`.
    pub fn parts(self, agent: &Agent) -> (&'static str, u32) {
        match self {
            Self::Absolute => ("Agent", agent.node_id),
            Self::Relative => ("Agent", agent.logical_node_id),
            Self::TypeRelative => (agent.agent_type.as_str(), agent.logical_node_type_id),
        }
    }

    /// The label of `agent` in this scheme.
    pub fn label(self, agent: &Agent) -> String {
        match self {
            Self::Absolute => format!("Agent {}", agent.node_id),
            Self::Relative => format!("Agent {}", agent.logical_node_id),
            Self::TypeRelative => format!("{} {}", agent.agent_type.as_str(), agent.logical_node_type_id),
        }
    }
}

/// The per-kernel values of a `kernel_trace.csv` row. rocprofv3 takes LDS and register counts
/// from the kernel symbol, not from the dispatch packet.
#[derive(Debug, Clone, Copy)]
struct KernelColumns {
    name: StringId,
    lds_block_size: u64,
    arch_vgpr_count: u32,
    accum_vgpr_count: u32,
    sgpr_count: u32,
}

/// Writes `kernel_trace.csv` and `agent_info.csv`.
#[derive(Debug)]
pub struct CsvWriter {
    out: OutputLocation,
    agent_index: AgentIndex,
    agents: Vec<Agent>,
    agent_labels: HashMap<AgentId, String>,
    kernels: HashMap<KernelId, KernelColumns>,
    kernel_trace: Option<OutputFile>,
    counter_collection: Option<OutputFile>,
    activity: activity::ActivityFiles,
    pid: u32,
    line: String,
    /// The run's health (summed over the processes of the stream), for `run_health.csv`.
    health: Option<rocprof_model::RunHealth>,
}

impl CsvWriter {
    /// A writer with rocprofv3's default agent naming.
    pub fn new(out: OutputLocation) -> Self {
        Self::with_agent_index(out, AgentIndex::default())
    }

    /// A writer with the given agent naming.
    pub fn with_agent_index(out: OutputLocation, agent_index: AgentIndex) -> Self {
        Self {
            out,
            agent_index,
            agents: Vec::new(),
            agent_labels: HashMap::new(),
            kernels: HashMap::new(),
            kernel_trace: None,
            counter_collection: None,
            activity: activity::ActivityFiles::default(),
            pid: 0,
            line: String::with_capacity(512),
            health: None,
        }
    }

    fn kernel_row(&mut self, session: &Session<'_>, d: &KernelDispatch) -> Result<()> {
        use std::fmt::Write as _;
        if self.kernel_trace.is_none() {
            let mut f = self.out.create("kernel_trace.csv")?;
            f.write_all(csv_header(KERNEL_TRACE_COLUMNS).as_bytes())?;
            self.kernel_trace = Some(f);
        }
        let agent = self.agent_labels.get(&d.agent).map(String::as_str).unwrap_or("");
        // A dispatch whose symbol record was lost keeps its own (dispatch-packet) values.
        let k = self.kernels.get(&d.kernel).copied().unwrap_or(KernelColumns {
            name: StringId::EMPTY,
            lds_block_size: d.lds_block_size(),
            arch_vgpr_count: d.arch_vgpr_count,
            accum_vgpr_count: d.accum_vgpr_count,
            sgpr_count: d.sgpr_count,
        });
        let name = session.strings.resolve(k.name);
        self.line.clear();
        let _ = writeln!(
            self.line,
            "\"KERNEL_DISPATCH\",\"{agent}\",{},{},{},{},{},\"{name}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            d.queue,
            d.stream,
            d.thread,
            d.dispatch_id,
            d.kernel,
            d.correlation_id,
            d.start.ns,
            d.end.ns,
            k.lds_block_size,
            d.private_segment_size,
            k.arch_vgpr_count,
            k.accum_vgpr_count,
            k.sgpr_count,
            d.workgroup.x,
            d.workgroup.y,
            d.workgroup.z,
            d.grid.x,
            d.grid.y,
            d.grid.z,
        );
        self.kernel_trace.as_mut().expect("opened above").write_all(self.line.as_bytes())
    }
}

impl CsvWriter {
    /// One `counter_collection.csv` row per counter of a dispatch whose counters were read (a dispatch
    /// whose counters could not be read has no rows: never zeros).
    fn counter_rows(&mut self, session: &Session<'_>, c: &CounterCollection) -> Result<()> {
        use std::fmt::Write as _;
        if c.values.is_empty() {
            return Ok(());
        }
        if self.counter_collection.is_none() {
            let mut f = self.out.create("counter_collection.csv")?;
            f.write_all(csv_header(COUNTER_COLLECTION_COLUMNS).as_bytes())?;
            self.counter_collection = Some(f);
        }
        let d = &c.dispatch;
        let agent = self.agent_labels.get(&d.agent).map(String::as_str).unwrap_or("");
        let k = self.kernels.get(&d.kernel).copied().unwrap_or(KernelColumns {
            name: StringId::EMPTY,
            lds_block_size: d.lds_block_size(),
            arch_vgpr_count: d.arch_vgpr_count,
            accum_vgpr_count: d.accum_vgpr_count,
            sgpr_count: d.sgpr_count,
        });
        let name = session.strings.resolve(k.name);
        let grid = u64::from(d.grid.x) * u64::from(d.grid.y) * u64::from(d.grid.z);
        let wg = u64::from(d.workgroup.x) * u64::from(d.workgroup.y) * u64::from(d.workgroup.z);
        self.line.clear();
        for v in &c.values {
            let value = if v.value >= 1.0 { fixed(v.value, 6) } else { scientific(v.value, 8) };
            let _ = writeln!(
                self.line,
                "{},{},\"{agent}\",{},{},{},{grid},{},\"{name}\",{wg},{},{},{},{},{},\"{}\",{value},{},{}",
                d.correlation_id,
                d.dispatch_id,
                d.queue,
                self.pid,
                d.thread,
                d.kernel,
                k.lds_block_size,
                d.private_segment_size,
                k.arch_vgpr_count,
                k.accum_vgpr_count,
                k.sgpr_count,
                session.strings.resolve(v.name),
                d.start.ns,
                d.end.ns,
            );
        }
        self.counter_collection.as_mut().expect("opened above").write_all(self.line.as_bytes())
    }
}

/// One `agent_info.csv` row, without the line end.
pub fn agent_info_row(session: &Session<'_>, a: &Agent) -> String {
    let s = |id: StringId| session.strings.resolve(id);
    let numbers: [u64; 46] = [
        a.cpu_cores_count.into(),
        a.simd_count.into(),
        a.cpu_core_id_base.into(),
        a.simd_id_base.into(),
        a.max_waves_per_simd.into(),
        a.lds_size_in_kb.into(),
        a.gds_size_in_kb.into(),
        a.num_gws.into(),
        a.wave_front_size.into(),
        a.num_xcc.into(),
        a.cu_count.into(),
        a.array_count.into(),
        a.num_shader_banks.into(),
        a.simd_arrays_per_engine.into(),
        a.cu_per_simd_array.into(),
        a.simd_per_cu.into(),
        a.max_slots_scratch_cu.into(),
        a.gfx_target_version.into(),
        a.vendor_id.into(),
        a.device_id.into(),
        a.location_id.into(),
        a.domain.into(),
        a.drm_render_minor.into(),
        a.num_sdma_engines.into(),
        a.num_sdma_xgmi_engines.into(),
        a.num_sdma_queues_per_engine.into(),
        a.num_cp_queues.into(),
        a.max_engine_clk_ccompute.into(),
        a.max_engine_clk_fcompute.into(),
        a.sdma_fw_version.into(),
        a.fw_version.into(),
        a.capability.into(),
        a.cu_per_engine.into(),
        a.max_waves_per_cu.into(),
        a.family_id.into(),
        a.workgroup_max_size.into(),
        a.grid_max_size,
        a.local_mem_size,
        a.hive_id,
        a.gpu_id,
        a.workgroup_max_dim.x.into(),
        a.workgroup_max_dim.y.into(),
        a.workgroup_max_dim.z.into(),
        a.grid_max_dim.x.into(),
        a.grid_max_dim.y.into(),
        a.grid_max_dim.z.into(),
    ];
    let mut row = format!("{},{},\"{}\"", a.node_id, a.logical_node_id, a.agent_type.as_str());
    for n in numbers {
        row.push(',');
        row.push_str(&n.to_string());
    }
    for text in [s(a.name), s(a.vendor_name), s(a.product_name), s(a.model_name)] {
        row.push_str(",\"");
        row.push_str(text);
        row.push('"');
    }
    row
}

impl Writer for CsvWriter {
    fn name(&self) -> &'static str {
        "csv"
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        debug_assert_eq!(columns(AGENT_INFO_COLUMNS).len(), 53);
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        match record {
            Record::Agent(a) => {
                self.agent_labels.insert(a.id, self.agent_index.label(a));
                self.agents.push((**a).clone());
            }
            Record::KernelSymbol(k) => {
                self.kernels.insert(
                    k.id,
                    KernelColumns {
                        name: k.formatted_name,
                        lds_block_size: k.lds_block_size(),
                        arch_vgpr_count: k.arch_vgpr_count,
                        accum_vgpr_count: k.accum_vgpr_count,
                        sgpr_count: k.sgpr_count,
                    },
                );
            }
            Record::KernelDispatch(d) => self.kernel_row(session, d)?,
            Record::Process(m) => self.pid = m.pid.0,
            Record::CounterCollection(c) => self.counter_rows(session, c)?,
            Record::RunHealth(h) => match &mut self.health {
                Some(sum) => sum.merge(h),
                None => self.health = Some(**h),
            },
            Record::ApiCall(a) => self.activity.api(&self.out, session, self.pid, a)?,
            Record::MemoryCopy(c) => {
                let labels = &self.agent_labels;
                let label = |id: AgentId| labels.get(&id).cloned().unwrap_or_default();
                self.activity.memory_copy(&self.out, &label, c)?
            }
            Record::MemoryAllocation(m) => {
                let labels = &self.agent_labels;
                let label = |id: AgentId| labels.get(&id).cloned().unwrap_or_default();
                self.activity.memory_allocation(&self.out, &label, m)?
            }
            Record::ScratchMemory(s) => {
                let labels = &self.agent_labels;
                let label = |id: AgentId| labels.get(&id).cloned().unwrap_or_default();
                self.activity.scratch_memory(&self.out, &label, s)?
            }
            _ => {}
        }
        Ok(())
    }

    fn abandon(&mut self) {
        self.kernel_trace = None;
        self.counter_collection = None;
        self.activity.abandon();
    }

    fn finish(&mut self, session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        if let Some(f) = self.kernel_trace.take() {
            files.push(f.commit()?);
        }
        if let Some(f) = self.counter_collection.take() {
            files.push(f.commit()?);
        }
        files.extend(self.activity.commit()?);
        if files.is_empty() {
            return Ok(files);
        }
        let mut f = self.out.create("agent_info.csv")?;
        let mut text = csv_header(AGENT_INFO_COLUMNS);
        let mut agents: Vec<&Agent> = self.agents.iter().collect();
        agents.sort_by_key(|a| a.node_id);
        // Several processes (a conversion of several databases) list the same agents again.
        agents.dedup_by_key(|a| a.node_id);
        for a in agents {
            text.push_str(&agent_info_row(session, a));
            text.push('\n');
        }
        f.write_all(text.as_bytes())?;
        files.push(f.commit()?);
        if let Some(h) = self.health.take() {
            // Not a rocprofv3 file: what the profiler wrote, lost by reason and cost (the keys of
            // `RunHealth::metadata`, the same as rocpd's `run_health.*` metadata rows).
            let mut f = self.out.create("run_health.csv")?;
            let mut text = String::from("\"Name\",\"Value\"\n");
            for (key, value) in h.metadata() {
                text.push_str(&format!("\"{key}\",{value}\n"));
            }
            f.write_all(text.as_bytes())?;
            files.push(f.commit()?);
        }
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_model::{AgentType, Dim3, Trace};

    #[test]
    fn agent_info_row_has_53_columns_in_reference_order() {
        let mut t = Trace::new();
        let a = Agent {
            id: AgentId(1),
            node_id: 1,
            logical_node_id: 1,
            agent_type: AgentType::Gpu,
            simd_count: 240,
            simd_id_base: 2147487744,
            max_waves_per_simd: 8,
            lds_size_in_kb: 64,
            wave_front_size: 64,
            num_xcc: 1,
            cu_count: 60,
            gfx_target_version: 90008,
            workgroup_max_dim: Dim3::new(1024, 1024, 1024),
            grid_max_dim: Dim3::new(u32::MAX, u32::MAX, u32::MAX),
            name: t.strings.intern("gfx908"),
            vendor_name: t.strings.intern("AMD"),
            product_name: t.strings.intern("AMD Instinct MI100"),
            model_name: t.strings.intern("arcturus"),
            ..Default::default()
        };
        t.agents.push(a);
        let row = agent_info_row(&Session { strings: &t.strings }, &t.agents[0]);
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 53);
        assert_eq!(&fields[..5], ["1", "1", "\"GPU\"", "0", "240"]);
        assert_eq!(fields[6], "2147487744");
        assert_eq!(fields[20], "90008");
        assert_eq!(&fields[46..49], ["4294967295", "4294967295", "4294967295"]);
        assert_eq!(&fields[49..], ["\"gfx908\"", "\"AMD\"", "\"AMD Instinct MI100\"", "\"arcturus\""]);
    }

    #[test]
    fn agent_labels_follow_agent_index() {
        let a = Agent {
            node_id: 4,
            logical_node_id: 2,
            logical_node_type_id: 1,
            agent_type: AgentType::Gpu,
            ..Default::default()
        };
        assert_eq!(AgentIndex::Absolute.label(&a), "Agent 4");
        assert_eq!(AgentIndex::Relative.label(&a), "Agent 2");
        assert_eq!(AgentIndex::TypeRelative.label(&a), "GPU 1");
    }
}
