//! rocpd rows of API calls and memory activity, as rocprofv3's `generateRocpd.cpp` writes them
//! (`rocpd-schema.md` sections 4.13-4.20):
//!
//! * an API call (any library) is one `rocpd_event` (category = record kind, `stack_id` = its
//!   correlation id, `parent_stack_id` = its ancestor, `correlation_id` = the external id,
//!   `extdata.message` for ROCTx messages), one `rocpd_arg` row per recorded argument (AMD's
//!   writer stores arguments for HIP only; ours for every library whose parameters the model
//!   describes), and a `rocpd_region` (id = correlation id) — or, for an instantaneous record
//!   (start = end, e.g. `roctxMarkA`), a `rocpd_sample` on the thread's track of that category;
//! * a memory copy is one event (`parent_stack_id` = its own correlation id) and one
//!   `rocpd_memory_copy` row;
//! * allocations and scratch events are one event and one `rocpd_memory_allocate` row each
//!   (`type`/`level` from the operation; scratch rows carry `extdata.flags`).

use rocprof_model::api::{arg_info_named, render_arg};
use rocprof_model::{
    AgentId, ApiCall, ApiDomain, ApiFamily, MemoryAllocation, MemoryCopy, ScratchMemory, StreamId, StringId, ThreadId,
};
use rusqlite::params;
use serde_json::json;

use super::{sqlite_err, to_i64, State};
use crate::{Result, Session};

impl State {
    /// The rocpd id of a session string (`""` when unknown).
    fn string_row(&self, id: StringId) -> i64 {
        self.string_ids.get(id.0 as usize).copied().unwrap_or(1)
    }

    /// Makes sure the stream row exists (0, "Default Stream", is written with the process).
    fn ensure_stream(&mut self, id: StreamId) -> Result<()> {
        if id.0 != 0 && self.streams.insert(id) {
            let name = format!("Stream {}", self.streams.len() - 1);
            self.stmt("stream")?
                .execute(params![to_i64(id.0), self.nid, self.pid, name, "{}"])
                .map_err(sqlite_err(&self.path, "inserting a stream"))?;
        }
        Ok(())
    }

    /// Takes the next event id and inserts the event row. Dispatches still queued for their batch
    /// insert take their ids first: event ids then follow the record stream (a reader that orders
    /// by event id gets the stream back), and the id [`State::dispatch`] promised a queued dispatch
    /// (for the counter rows that follow it) is the one it gets.
    fn event(&mut self, category: &str, stack: u64, parent: u64, external: u64, extdata: &str) -> Result<i64> {
        self.flush_dispatches()?;
        let category = self.extra_string(category)?;
        let id = self.next_event_id;
        self.next_event_id += 1;
        self.stmt("event_ext")?
            .execute(params![id, category, to_i64(stack), to_i64(parent), to_i64(external), extdata])
            .map_err(sqlite_err(&self.path, "inserting an event"))?;
        Ok(id)
    }

    /// The track of one thread's instantaneous records of one category (created on first use).
    fn track(&mut self, tid: ThreadId, category: &str) -> Result<i64> {
        let name = self.extra_string(category)?;
        if let Some(&id) = self.tracks.get(&(tid, name)) {
            return Ok(id);
        }
        let id = self.tracks.len() as i64 + 1;
        self.stmt("track")?
            .execute(params![id, self.nid, self.pid, i64::from(tid.0), name])
            .map_err(sqlite_err(&self.path, "inserting a track"))?;
        self.tracks.insert((tid, name), id);
        Ok(id)
    }

    /// One API call: event, arguments, region (or sample).
    pub(super) fn api_call(&mut self, session: &Session<'_>, a: &ApiCall) -> Result<()> {
        self.ensure_thread(a.thread)?;
        let instant = a.start == a.end;
        let name = session.strings.resolve(a.name);
        // What the tables have no column for goes to the event's extdata, so that `convert` reads
        // it back: ROCTx messages (as AMD writes them), the function name of an instant other than a
        // ROCTx mark (a sample has no name), and the operation id of libraries whose ids are not
        // fixed by the function name (HIP's depend on the HIP release).
        let mut ext = serde_json::Map::new();
        if a.message != StringId::EMPTY {
            ext.insert("message".into(), session.strings.resolve(a.message).into());
        }
        if instant && !(a.domain == ApiDomain::MarkerCore && name == "roctxMarkA") {
            ext.insert("name".into(), name.into());
        }
        if !matches!(a.domain.family(), ApiFamily::Hsa | ApiFamily::Marker) {
            ext.insert("operation".into(), a.operation.into());
        }
        let extdata = if ext.is_empty() { "{}".to_string() } else { serde_json::Value::Object(ext).to_string() };
        let category = a.domain.as_str();
        let event =
            self.event(category, a.correlation.internal.0, a.correlation.ancestor.0, a.correlation.external, &extdata)?;
        if let Some(params) = arg_info_named(a.domain, a.operation, name) {
            let mut st = self.stmt("arg")?;
            for (pos, (p, &word)) in params.iter().zip(a.args.iter()).enumerate() {
                st.execute(params![event, pos as i64, p.ty, p.name, render_arg(p.kind, word)])
                    .map_err(sqlite_err(&self.path, "inserting an argument"))?;
            }
        }
        if !instant {
            let name = self.string_row(a.name);
            self.stmt("region")?
                .execute(params![
                    to_i64(a.correlation.internal.0),
                    self.nid,
                    self.pid,
                    i64::from(a.thread.0),
                    to_i64(a.start.ns),
                    to_i64(a.end.ns),
                    name,
                    event
                ])
                .map_err(sqlite_err(&self.path, "inserting a region"))?;
        } else {
            let track = self.track(a.thread, category)?;
            self.stmt("sample")?
                .execute(params![to_i64(a.correlation.internal.0), track, to_i64(a.start.ns), event])
                .map_err(sqlite_err(&self.path, "inserting a sample"))?;
        }
        Ok(())
    }

    /// One memory copy: event and `rocpd_memory_copy` row.
    pub(super) fn memory_copy(&mut self, c: &MemoryCopy) -> Result<()> {
        self.ensure_thread(c.thread)?;
        self.ensure_stream(c.stream)?;
        let event = self.event(
            "MEMORY_COPY",
            c.correlation.internal.0,
            c.correlation.internal.0,
            c.correlation.external,
            "{}",
        )?;
        let name = self.extra_string(c.direction.as_str())?;
        self.copies += 1;
        let id = self.copies as i64;
        self.stmt("memory_copy")?
            .execute(params![
                id,
                self.nid,
                self.pid,
                i64::from(c.thread.0),
                to_i64(c.start.ns),
                to_i64(c.end.ns),
                name,
                i64::from(c.dst_agent.0),
                to_i64(c.dst_address),
                i64::from(c.src_agent.0),
                to_i64(c.src_address),
                to_i64(c.bytes),
                to_i64(c.stream.0),
                event
            ])
            .map_err(sqlite_err(&self.path, "inserting a memory copy"))?;
        Ok(())
    }

    /// One allocation or free: event and `rocpd_memory_allocate` row (`agent_id` only for
    /// allocations, `queue_id` 0 = the default queue).
    pub(super) fn memory_allocation(&mut self, m: &MemoryAllocation) -> Result<()> {
        self.ensure_thread(m.thread)?;
        self.ensure_stream(m.stream)?;
        let event = self.event(
            "MEMORY_ALLOCATION",
            m.correlation.internal.0,
            m.correlation.ancestor.0,
            m.correlation.external,
            "{}",
        )?;
        let (kind, level) = m.operation.rocpd_type_level();
        let agent: Option<i64> =
            if m.operation.is_allocation() { m.agent.map(|a: AgentId| i64::from(a.0)) } else { None };
        let size = if m.operation.is_allocation() { m.size } else { 0 };
        self.stmt("memory_allocate")?
            .execute(params![
                self.nid,
                self.pid,
                i64::from(m.thread.0),
                agent,
                kind,
                level,
                to_i64(m.start.ns),
                to_i64(m.end.ns),
                to_i64(m.address),
                to_i64(size),
                0i64,
                to_i64(m.stream.0),
                event,
                "{}"
            ])
            .map_err(sqlite_err(&self.path, "inserting a memory allocation"))?;
        Ok(())
    }

    /// One scratch event: event and `rocpd_memory_allocate` row at level `SCRATCH`.
    pub(super) fn scratch_memory(&mut self, s: &ScratchMemory) -> Result<()> {
        self.ensure_thread(s.thread)?;
        self.ensure_queue(s.queue)?;
        let event = self.event(
            "SCRATCH_MEMORY",
            s.correlation.internal.0,
            s.correlation.ancestor.0,
            s.correlation.external,
            "{}",
        )?;
        let agent: Option<i64> = (s.operation == rocprof_model::ScratchMemoryOp::Alloc).then_some(i64::from(s.agent.0));
        let extdata = json!({ "flags": s.flags.to_string() }).to_string();
        self.stmt("memory_allocate")?
            .execute(params![
                self.nid,
                self.pid,
                i64::from(s.thread.0),
                agent,
                s.operation.rocpd_type(),
                "SCRATCH",
                to_i64(s.start.ns),
                to_i64(s.end.ns),
                0i64,
                to_i64(s.size),
                to_i64(s.queue.0),
                0i64,
                event,
                extdata
            ])
            .map_err(sqlite_err(&self.path, "inserting a scratch event"))?;
        Ok(())
    }
}
