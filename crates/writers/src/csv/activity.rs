//! The CSV files of API calls and memory activity: one `<library>_api_trace.csv` per traced
//! library (`hsa_api_trace.csv`, `hip_api_trace.csv`, `marker_api_trace.csv`, ...; the generic
//! 7-column API layout every library shares), `memory_copy_trace.csv`,
//! `memory_allocation_trace.csv` and `scratch_memory_trace.csv`, with rocprofv3's columns
//! (`rocprofv3-outputs.md` section 2.3). Each file is created on its first row.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use rocprof_model::{AgentId, ApiCall, ApiFamily, MemoryAllocation, MemoryCopy, ScratchMemory};

use crate::schema::{
    csv_header, API_TRACE_COLUMNS, MEMORY_ALLOCATION_TRACE_COLUMNS, MEMORY_COPY_TRACE_COLUMNS,
    SCRATCH_MEMORY_TRACE_COLUMNS,
};
use crate::{OutputFile, OutputLocation, Result, Session};

/// The activity files of one process, opened as their first rows arrive.
#[derive(Debug, Default)]
pub(super) struct ActivityFiles {
    api: HashMap<ApiFamily, OutputFile>,
    memory_copy: Option<OutputFile>,
    memory_allocation: Option<OutputFile>,
    scratch_memory: Option<OutputFile>,
    line: String,
}

/// Opens `name` with its header if it is not open yet.
fn open<'a>(
    slot: &'a mut Option<OutputFile>,
    out: &OutputLocation,
    name: &str,
    columns: &'static str,
) -> Result<&'a mut OutputFile> {
    if slot.is_none() {
        let mut f = out.create(name)?;
        f.write_all(csv_header(columns).as_bytes())?;
        *slot = Some(f);
    }
    Ok(slot.as_mut().expect("opened above"))
}

impl ActivityFiles {
    /// One API row: `"<Domain>","<Function>",pid,tid,corr,start,end`.
    pub(super) fn api(&mut self, out: &OutputLocation, session: &Session<'_>, pid: u32, a: &ApiCall) -> Result<()> {
        let family = a.domain.family();
        let f = match self.api.entry(family) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut f = out.create(family.csv_file())?;
                f.write_all(csv_header(API_TRACE_COLUMNS).as_bytes())?;
                v.insert(f)
            }
        };
        self.line.clear();
        let _ = writeln!(
            self.line,
            "\"{}\",\"{}\",{},{},{},{},{}",
            a.domain.as_str(),
            session.strings.resolve(a.display_name()),
            pid,
            a.thread,
            a.correlation.internal,
            a.start.ns,
            a.end.ns
        );
        f.write_all(self.line.as_bytes())
    }

    /// One `memory_copy_trace.csv` row.
    pub(super) fn memory_copy(
        &mut self,
        out: &OutputLocation,
        label: &dyn Fn(AgentId) -> String,
        c: &MemoryCopy,
    ) -> Result<()> {
        let f = open(&mut self.memory_copy, out, "memory_copy_trace.csv", MEMORY_COPY_TRACE_COLUMNS)?;
        self.line.clear();
        let _ = writeln!(
            self.line,
            "\"MEMORY_COPY\",\"{}\",{},\"{}\",\"{}\",{},{},{}",
            c.direction.as_str(),
            c.stream,
            label(c.src_agent),
            label(c.dst_agent),
            c.correlation.internal,
            c.start.ns,
            c.end.ns
        );
        f.write_all(self.line.as_bytes())
    }

    /// One `memory_allocation_trace.csv` row (frees name no agent and no size).
    pub(super) fn memory_allocation(
        &mut self,
        out: &OutputLocation,
        label: &dyn Fn(AgentId) -> String,
        m: &MemoryAllocation,
    ) -> Result<()> {
        let f = open(&mut self.memory_allocation, out, "memory_allocation_trace.csv", MEMORY_ALLOCATION_TRACE_COLUMNS)?;
        let (agent, size) = match (m.operation.is_allocation(), m.agent) {
            (true, Some(a)) => (label(a), m.size),
            (true, None) => (String::new(), m.size),
            (false, _) => (String::new(), 0),
        };
        self.line.clear();
        let _ = writeln!(
            self.line,
            "\"MEMORY_ALLOCATION\",\"{}\",\"{agent}\",{size},\"0x{:016x}\",{},{},{}",
            m.operation.as_str(),
            m.address,
            m.correlation.internal,
            m.start.ns,
            m.end.ns
        );
        f.write_all(self.line.as_bytes())
    }

    /// One `scratch_memory_trace.csv` row.
    pub(super) fn scratch_memory(
        &mut self,
        out: &OutputLocation,
        label: &dyn Fn(AgentId) -> String,
        s: &ScratchMemory,
    ) -> Result<()> {
        let f = open(&mut self.scratch_memory, out, "scratch_memory_trace.csv", SCRATCH_MEMORY_TRACE_COLUMNS)?;
        self.line.clear();
        let _ = writeln!(
            self.line,
            "\"SCRATCH_MEMORY\",\"{}\",\"{}\",{},{},{},{},{},{}",
            s.operation.as_str(),
            label(s.agent),
            s.queue,
            s.thread,
            s.flags,
            s.start.ns,
            s.end.ns,
            s.size
        );
        f.write_all(self.line.as_bytes())
    }

    /// Commits every open file (API files in rocprofv3's domain order) and returns their paths.
    pub(super) fn commit(&mut self) -> Result<Vec<PathBuf>> {
        let mut files = Vec::new();
        for family in ApiFamily::ALL {
            if let Some(f) = self.api.remove(&family) {
                files.push(f.commit()?);
            }
        }
        for f in
            [self.memory_copy.take(), self.memory_allocation.take(), self.scratch_memory.take()].into_iter().flatten()
        {
            files.push(f.commit()?);
        }
        Ok(files)
    }

    /// Drops every partial file.
    pub(super) fn abandon(&mut self) {
        *self = Self::default();
    }
}
