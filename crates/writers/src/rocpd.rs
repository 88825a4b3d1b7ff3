//! rocpd SQLite output (`<prefix>_results.db`), compatible with AMD's rocpd schema version 3.
//!
//! Layout: physical tables named `<table>_<uuid>` (DDL in `schemas/rocpd/tables.sql`), a
//! plain-named alias view per table, the data and summary views, three metadata rows
//! (`schema_version`, `uuid`, `guid`), and every row's `guid` column defaulted to the session
//! guid. Strings (agent names, kernel names, URIs, categories) are interned into `rocpd_string`
//! with ids from 1 in the order the record stream introduces them, so `""` is always id 1.
//!
//! Speed: rocprofv3 formats one SQL text per row. We prepare each INSERT once (statements in
//! `schemas/rocpd/inserts.sql`) and run everything in one transaction with journaling and
//! syncing off while the file is built: it is built under `<name>.partial` and renamed into
//! place when complete, so a crash or error mid-write leaves no torn database and keeps the
//! previous run's file. Foreign keys are declared as in the
//! reference but not enforced during the bulk insert (`PRAGMA foreign_keys = OFF`: the bundled
//! SQLite enables them by default, and checking nine parents per dispatch row halved the
//! throughput); parents are still written before their children, and the tests run
//! `PRAGMA foreign_key_check` on what we write.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use rocprof_model::counters::{CounterCollection, CounterInfo};
use rocprof_model::{
    Agent, AgentType, CodeObject, DispatchId, KernelDispatch, KernelId, KernelSymbol, QueueId, Record, SessionMeta,
    ThreadId,
};
use rusqlite::{params, CachedStatement, Connection};
use serde_json::json;

use crate::agent_object::{agent_object, AgentForm};
use crate::host::NodeInfo;
use crate::schema::{self, render};
use crate::{Error, OutputLocation, PartialPath, Result, Session, Writer};

mod activity;

/// The rocpd id of `""` (the first string interned, see the module's documentation).
const EMPTY_STRING_ID: i64 = 1;

/// Category (rocprofiler buffer-tracing kind) of kernel dispatch events.
const KERNEL_DISPATCH_CATEGORY: &str = "KERNEL_DISPATCH";

/// Names of the statements in `schemas/rocpd/inserts.sql`.
const INSERT_NAMES: [&str; 21] = [
    "pmc_info",
    "pmc_event",
    "string",
    "metadata",
    "node",
    "process",
    "thread",
    "agent",
    "queue",
    "stream",
    "code_object",
    "kernel_symbol",
    "event",
    "kernel_dispatch",
    "event_ext",
    "arg",
    "region",
    "track",
    "sample",
    "memory_copy",
    "memory_allocate",
];

/// Dispatches are inserted in batches of this many, with the two statements prepared once
/// per batch.
const BATCH: usize = 8192;

/// Settings for the rocpd writer.
#[derive(Debug, Clone, Default)]
pub struct RocpdOptions {
    /// JSON object stored in `rocpd_info_process.extdata` (the resolved tool configuration).
    pub config_json: Option<String>,
    /// JSON object stored in `rocpd_info_process.environment`.
    pub environment_json: Option<String>,
    /// Fixed session UUID with dashes (tests); default: a fresh UUIDv7.
    pub guid: Option<String>,
}

/// Writes one rocpd database per session.
#[derive(Debug)]
pub struct RocpdWriter {
    out: OutputLocation,
    options: RocpdOptions,
    state: Option<State>,
}

/// Everything that exists only between `begin` and `finish`.
#[derive(Debug)]
struct State {
    /// The final database path, for messages.
    path: PathBuf,
    conn: Connection,
    /// The database is built under its partial name and renamed into place by `finish`.
    partial: PartialPath,
    /// Rendered INSERT statements by name.
    inserts: HashMap<&'static str, String>,
    /// Dispatches waiting for the next batch insert, each with its `region_name_id`.
    pending: Vec<(KernelDispatch, i64)>,
    /// What `finish` runs after the last row: the deferred columns (see
    /// [`schema::rocpd_deferred_ddl`]) and every view.
    views: String,
    /// Multi-row forms of the event and dispatch INSERTs (built at the first flush, when the
    /// category's string id is known).
    multi: Option<(String, String)>,
    /// Their one-row forms (a dispatch flushed alone because an API event follows it).
    single: Option<(String, String)>,
    nid: i64,
    pid: i64,
    ppid: i64,
    /// rocpd ids of the session's strings, by [`rocprof_model::StringId`] (inserted as they
    /// appear in the stream).
    string_ids: Vec<i64>,
    /// rocpd ids of every string inserted, by text (the session's and the writer's own
    /// categories), so that no text gets two rows.
    extra_strings: HashMap<String, i64>,
    next_string_id: i64,
    threads: HashSet<ThreadId>,
    queues: HashSet<QueueId>,
    /// HIP streams with a row (besides the default stream 0).
    streams: HashSet<rocprof_model::StreamId>,
    /// Sample tracks by (thread, category string id).
    tracks: HashMap<(ThreadId, i64), i64>,
    /// Memory copy rows so far (their ids are 1, 2, ...).
    copies: u64,
    kernels: HashSet<KernelId>,
    /// `--kernel-rename` copies of symbols (no row of their own, as AMD writes them): the
    /// original's id and the rocpd id of the range's name, which goes in the dispatch's
    /// `region_name_id`.
    renamed: HashMap<KernelId, (KernelId, i64)>,
    next_event_id: i64,
    dispatch_rows: u64,
    /// Kernel, thread and queue of the last dispatch (their rows exist).
    last_parents: Option<(KernelId, ThreadId, QueueId)>,
    /// The last dispatch queued and the event id it gets (a counter record follows its dispatch).
    last_dispatch: Option<(DispatchId, i64)>,
}

impl RocpdWriter {
    /// A writer with default options.
    pub fn new(out: OutputLocation) -> Self {
        Self::with_options(out, RocpdOptions::default())
    }

    /// A writer with the given options.
    pub fn with_options(out: OutputLocation, options: RocpdOptions) -> Self {
        Self { out, options, state: None }
    }
}

/// A fresh UUIDv7 string with dashes: 48-bit millisecond timestamp from `start_ns` (the session
/// start, boot clock as rocprofv3 uses), version 7, RFC 4122 variant, and 74 random bits drawn
/// from std's randomly keyed hasher mixed with the pid and the wall clock.
pub fn new_guid(start_ns: u64, pid: u32) -> String {
    use std::hash::{BuildHasher, Hasher};
    let ms = start_ns / 1_000_000;
    let mut rand = [0u64; 2];
    for (i, r) in rand.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(pid);
        h.write_u64(start_ns);
        h.write_usize(i);
        if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(now.as_nanos());
        }
        *r = h.finish();
    }
    let mut b = [0u8; 16];
    b[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
    b[6..8].copy_from_slice(&rand[0].to_be_bytes()[..2]);
    b[8..].copy_from_slice(&rand[1].to_be_bytes());
    b[6] = 0x70 | (b[6] & 0x0f);
    b[8] = 0x80 | (b[8] & 0x3f);
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// Physical-table suffix of a guid: `_` + the guid with `-` replaced by `_`.
pub fn uuid_suffix(guid: &str) -> String {
    format!("_{}", guid.replace('-', "_"))
}

fn sqlite_err<'p>(path: &'p std::path::Path, what: &'static str) -> impl Fn(rusqlite::Error) -> Error + 'p {
    move |source| Error::Sqlite { path: path.to_path_buf(), what, source }
}

fn to_i64(v: u64) -> i64 {
    // SQLite integers are signed 64-bit; addresses above 2^63 keep their bit pattern, as
    // rocprofv3's writer does.
    v as i64
}

impl State {
    fn stmt(&self, name: &str) -> Result<CachedStatement<'_>> {
        let sql = self
            .inserts
            .get(name)
            .ok_or_else(|| Error::Schema(format!("no INSERT named `{name}` in schemas/rocpd/inserts.sql")))?;
        self.conn.prepare_cached(sql).map_err(sqlite_err(&self.path, "preparing an insert"))
    }

    /// Inserts the session's strings that are new since the last call. A string the writer
    /// already added itself keeps that row.
    fn sync_strings(&mut self, session: &Session<'_>) -> Result<()> {
        if self.string_ids.len() == session.strings.len() {
            return Ok(());
        }
        let new: Vec<String> = session.strings.since(self.string_ids.len()).map(str::to_owned).collect();
        for s in new {
            let id = match self.extra_strings.get(&s) {
                Some(&id) => id,
                None => {
                    let id = self.next_string_id;
                    self.stmt("string")?
                        .execute(params![id, s])
                        .map_err(sqlite_err(&self.path, "inserting a string"))?;
                    self.next_string_id += 1;
                    self.extra_strings.insert(s, id);
                    id
                }
            };
            self.string_ids.push(id);
        }
        Ok(())
    }

    fn extra_string(&mut self, s: &str) -> Result<i64> {
        if let Some(&id) = self.extra_strings.get(s) {
            return Ok(id);
        }
        let id = self.next_string_id;
        self.stmt("string")?.execute(params![id, s]).map_err(sqlite_err(&self.path, "inserting a string"))?;
        self.next_string_id += 1;
        self.extra_strings.insert(s.to_string(), id);
        Ok(id)
    }

    fn ensure_thread(&mut self, tid: ThreadId) -> Result<()> {
        if self.threads.insert(tid) {
            self.stmt("thread")?
                .execute(params![i64::from(tid.0), self.nid, self.ppid, self.pid, i64::from(tid.0)])
                .map_err(sqlite_err(&self.path, "inserting a thread"))?;
        }
        Ok(())
    }

    fn ensure_queue(&mut self, id: QueueId) -> Result<()> {
        if self.queues.insert(id) {
            // Queue 0 is the "Default Queue"; real queues are named in first-seen order.
            let name = if id.0 == 0 { "Default Queue".to_string() } else { format!("Queue {}", self.queues.len() - 2) };
            self.stmt("queue")?
                .execute(params![to_i64(id.0), self.nid, self.pid, name, "{}"])
                .map_err(sqlite_err(&self.path, "inserting a queue"))?;
        }
        Ok(())
    }

    fn agent(&mut self, session: &Session<'_>, a: &Agent) -> Result<()> {
        let s = |id| session.strings.resolve(id);
        let extdata = agent_object(session.strings, a, AgentForm::Rocpd);
        let type_text = match a.agent_type {
            AgentType::Cpu => Some("CPU"),
            AgentType::Gpu => Some("GPU"),
            AgentType::Unknown => None,
        };
        self.stmt("agent")?
            .execute(params![
                i64::from(a.id.0),
                self.nid,
                self.pid,
                type_text,
                i64::from(a.node_id),
                i64::from(a.logical_node_id),
                i64::from(a.logical_node_type_id),
                i64::from(a.device_id),
                s(a.name),
                s(a.model_name),
                s(a.vendor_name),
                s(a.product_name),
                s(a.product_name),
                extdata.to_string(),
            ])
            .map_err(sqlite_err(&self.path, "inserting an agent"))?;
        Ok(())
    }

    fn code_object(&mut self, session: &Session<'_>, c: &CodeObject) -> Result<()> {
        let uri = session.strings.resolve(c.uri);
        let extdata = json!({
            "size": c.load_size,
            "code_object_id": c.id.0,
            "agent_id": { "handle": c.agent.0 },
            "uri": uri,
            "load_base": c.load_base,
            "load_size": c.load_size,
            "load_delta": c.load_delta,
            "storage_type": c.storage.as_u32(),
            "memory_base": c.memory_base,
            "memory_size": c.memory_size,
        });
        self.stmt("code_object")?
            .execute(params![
                to_i64(c.id.0),
                self.nid,
                self.pid,
                i64::from(c.agent.0),
                uri,
                to_i64(c.load_base),
                to_i64(c.load_size),
                c.load_delta,
                c.storage.as_rocpd_str(),
                extdata.to_string(),
            ])
            .map_err(sqlite_err(&self.path, "inserting a code object"))?;
        Ok(())
    }

    fn kernel_symbol(&mut self, session: &Session<'_>, k: &KernelSymbol) -> Result<()> {
        let s = |id| session.strings.resolve(id);
        if k.renamed_from.0 != 0 {
            // rocprofv3 keeps one symbol per kernel and names a renamed dispatch through its
            // region (reference/rocpd-schema.md, `rocpd_kernel_dispatch.region_name_id`).
            let region = self.extra_string(s(k.formatted_name))?;
            self.renamed.insert(k.id, (k.renamed_from, region));
            return Ok(());
        }
        let extdata = json!({
            "size": 0,
            "kernel_id": k.id.0,
            "code_object_id": k.code_object.0,
            "kernel_name": s(k.name),
            "kernel_object": k.kernel_object,
            "kernarg_segment_size": k.kernarg_segment_size,
            "kernarg_segment_alignment": k.kernarg_segment_alignment,
            "group_segment_size": k.group_segment_size,
            "private_segment_size": k.private_segment_size,
            "sgpr_count": k.sgpr_count,
            "arch_vgpr_count": k.arch_vgpr_count,
            "accum_vgpr_count": k.accum_vgpr_count,
            "kernel_code_entry_byte_offset": k.kernel_code_entry_byte_offset,
            "kernel_address": { "handle": k.kernel_address },
            "formatted_kernel_name": s(k.formatted_name),
            "demangled_kernel_name": s(k.demangled_name),
            "truncated_kernel_name": s(k.truncated_name),
        });
        self.kernels.insert(k.id);
        self.stmt("kernel_symbol")?
            .execute(params![
                to_i64(k.id.0),
                self.nid,
                self.pid,
                to_i64(k.code_object.0),
                s(k.name),
                s(k.formatted_name),
                to_i64(k.kernel_object),
                k.kernarg_segment_size,
                k.kernarg_segment_alignment,
                k.group_segment_size,
                k.private_segment_size,
                k.sgpr_count,
                k.arch_vgpr_count,
                k.accum_vgpr_count,
                extdata.to_string(),
            ])
            .map_err(sqlite_err(&self.path, "inserting a kernel symbol"))?;
        Ok(())
    }

    /// Makes sure everything a dispatch refers to exists, then queues it for the next batch.
    fn dispatch(&mut self, d: &KernelDispatch) -> Result<()> {
        let (d, region) = match self.renamed.get(&d.kernel) {
            Some(&(original, region)) => (&KernelDispatch { kernel: original, ..*d }, region),
            None => (d, EMPTY_STRING_ID),
        };
        // Most dispatches repeat the previous one's kernel, thread and queue: no lookups then.
        let parents = (d.kernel, d.thread, d.queue);
        if self.last_parents != Some(parents) {
            self.dispatch_parents(d)?;
            self.last_parents = Some(parents);
        }
        self.last_dispatch = Some((d.dispatch_id, self.next_event_id + self.pending.len() as i64));
        self.pending.push((*d, region));
        if self.pending.len() >= BATCH {
            self.flush_dispatches()?;
        }
        Ok(())
    }

    /// The rows a dispatch refers to: its kernel symbol, thread and queue.
    fn dispatch_parents(&mut self, d: &KernelDispatch) -> Result<()> {
        if !self.kernels.contains(&d.kernel) {
            // A dispatch of a symbol we never saw (its load record was lost): give it a nameless
            // symbol row so that the `kernels` view still lists it, as the CSV does.
            self.kernels.insert(d.kernel);
            self.stmt("kernel_symbol")?
                .execute(params![
                    to_i64(d.kernel.0),
                    self.nid,
                    self.pid,
                    0i64,
                    "",
                    "",
                    0i64,
                    d.kernarg_size,
                    0,
                    0,
                    0,
                    d.sgpr_count,
                    d.arch_vgpr_count,
                    d.accum_vgpr_count,
                    "{}"
                ])
                .map_err(sqlite_err(&self.path, "inserting a placeholder kernel symbol"))?;
        }
        self.ensure_thread(d.thread)?;
        self.ensure_queue(d.queue)
    }

    /// Inserts the queued dispatches: one `rocpd_event` row (category KERNEL_DISPATCH, stack
    /// and parent stack = correlation id) and one `rocpd_kernel_dispatch` row each.
    ///
    /// Rows go in as multi-row INSERTs of [`ROWS_PER_INSERT`] rows: SQLite then opens its
    /// cursors and updates the AUTOINCREMENT sequence once per statement instead of once per
    /// row, which more than doubles throughput over one statement per row.
    fn flush_dispatches(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let category = self.extra_string(KERNEL_DISPATCH_CATEGORY)?;
        if self.multi.is_none() {
            let event = multi_row(&self.inserts["event"], ROWS_PER_INSERT, &event_template(category))?;
            let dispatch =
                multi_row(&self.inserts["kernel_dispatch"], ROWS_PER_INSERT, &dispatch_template(self.nid, self.pid))?;
            self.multi = Some((event, dispatch));
            self.single = Some((
                multi_row(&self.inserts["event"], 1, &event_template(category))?,
                multi_row(&self.inserts["kernel_dispatch"], 1, &dispatch_template(self.nid, self.pid))?,
            ));
        }
        let first_event = self.next_event_id;
        let pending = std::mem::take(&mut self.pending);
        let path = self.path.clone();
        let err = sqlite_err(&path, "inserting kernel dispatches");
        {
            let (multi_event, multi_dispatch) = self.multi.as_ref().expect("built above");
            let (single_event, single_dispatch) = self.single.as_ref().expect("built above");
            // Prepared (looked up in the cache, which hashes the statement text) once per batch.
            let mut full = None;
            let mut event_id = first_event;
            for chunk in pending.chunks(ROWS_PER_INSERT) {
                let mut short;
                let (events, dispatches) = if chunk.len() == ROWS_PER_INSERT {
                    if full.is_none() {
                        full = Some((
                            self.conn.prepare_cached(multi_event).map_err(&err)?,
                            self.conn.prepare_cached(multi_dispatch).map_err(&err)?,
                        ));
                    }
                    let (e, d) = full.as_mut().expect("prepared above");
                    (&mut **e, &mut **d)
                } else {
                    // A shorter last chunk (the end of a batch flushed early, e.g. by an API event
                    // between dispatches): its own statements, cached (mostly one row).
                    let built;
                    let (e, d): (&str, &str) = if chunk.len() == 1 {
                        (single_event, single_dispatch)
                    } else {
                        built = (
                            multi_row(&self.inserts["event"], chunk.len(), &event_template(category))?,
                            multi_row(
                                &self.inserts["kernel_dispatch"],
                                chunk.len(),
                                &dispatch_template(self.nid, self.pid),
                            )?,
                        );
                        (&built.0, &built.1)
                    };
                    short = (self.conn.prepare_cached(e).map_err(&err)?, self.conn.prepare_cached(d).map_err(&err)?);
                    (&mut *short.0, &mut *short.1)
                };
                let mut i = 1;
                for (d, _) in chunk {
                    for v in event_values(d) {
                        events.raw_bind_parameter(i, v).map_err(&err)?;
                        i += 1;
                    }
                }
                events.raw_execute().map_err(&err)?;
                let last = event_id + chunk.len() as i64 - 1;
                if self.conn.last_insert_rowid() != last {
                    return Err(Error::Schema(format!(
                        "rocpd_event ids out of step: SQLite assigned {} where {last} was expected",
                        self.conn.last_insert_rowid()
                    )));
                }
                let mut i = 1;
                for (e, (d, region)) in (event_id..).zip(chunk) {
                    for v in dispatch_values(e, d, *region) {
                        dispatches.raw_bind_parameter(i, v).map_err(&err)?;
                        i += 1;
                    }
                }
                dispatches.raw_execute().map_err(&err)?;
                event_id += chunk.len() as i64;
            }
        }
        self.dispatch_rows += pending.len() as u64;
        self.next_event_id = first_event + pending.len() as i64;
        self.pending = pending;
        self.pending.clear();
        Ok(())
    }
}

impl State {
    /// A counter collected on an agent: one `rocpd_info_pmc` row.
    fn counter(&mut self, session: &Session<'_>, c: &CounterInfo) -> Result<()> {
        let s = |id| session.strings.resolve(id);
        let extdata = json!({ "dimensions": s(c.dimensions) });
        self.stmt("pmc_info")?
            .execute(params![
                i64::from(c.id.0),
                self.nid,
                self.pid,
                i64::from(c.agent.0),
                "GPU",
                0i64,
                0i64,
                s(c.name),
                s(c.name),
                s(c.description),
                "",
                s(c.block),
                "",
                "ABS",
                s(c.block),
                s(c.expression),
                0i64,
                i64::from(c.is_derived),
                extdata.to_string(),
            ])
            .map_err(sqlite_err(&self.path, "inserting a counter"))?;
        Ok(())
    }

    /// The counters of one dispatch: its dispatch row (unless the kernel trace wrote it just before)
    /// and one `rocpd_pmc_event` row per counter (the value summed over its dimensions). A dispatch
    /// whose counters were not read has no counter rows.
    fn counter_collection(&mut self, c: &CounterCollection) -> Result<()> {
        if c.values.is_empty() {
            return Ok(());
        }
        let event = match self.last_dispatch {
            Some((id, event)) if id == c.dispatch.dispatch_id => event,
            _ => {
                self.dispatch(&c.dispatch)?;
                self.last_dispatch.map(|(_, e)| e).unwrap_or_default()
            }
        };
        let mut st = self.stmt("pmc_event")?;
        for v in &c.values {
            st.execute(params![event, i64::from(v.counter.0), v.value, "{}"])
                .map_err(sqlite_err(&self.path, "inserting a counter value"))?;
        }
        Ok(())
    }
}

/// Rows per multi-row INSERT of dispatches and their events (17 parameters per dispatch row:
/// well under SQLite's 32,766).
const ROWS_PER_INSERT: usize = 512;

/// One column of a row in a multi-row INSERT: the row's `k`-th bound value, or a constant of the
/// whole session written into the statement (nothing to bind per row).
#[derive(Debug, Clone, Copy)]
enum Slot {
    Value(usize),
    Const(i64),
    /// `NULL` for an `INTEGER PRIMARY KEY`: SQLite assigns the next rowid, appending without
    /// a B-tree search per row (an explicit id costs one).
    NextId,
}

/// The `event` row of a dispatch (columns of `schemas/rocpd/inserts.sql`: id, category_id,
/// stack_id, parent_stack_id, correlation_id): values [`event_values`]; stack and parent stack
/// are both the correlation id, the external correlation id is 0.
/// The id is the next rowid (event ids are consecutive from 1; `flush_dispatches` checks that
/// SQLite's agree with ours).
fn event_template(category: i64) -> [Slot; 5] {
    [Slot::NextId, Slot::Const(category), Slot::Value(0), Slot::Value(0), Slot::Const(0)]
}

fn event_values(d: &KernelDispatch) -> [i64; 1] {
    [to_i64(d.correlation_id.0)]
}

/// The `kernel_dispatch` row (columns of `schemas/rocpd/inserts.sql`): the id is the dispatch
/// id; node and process are constants; values [`dispatch_values`].
fn dispatch_template(nid: i64, pid: i64) -> [Slot; 21] {
    let v = Slot::Value;
    [
        v(0),
        Slot::Const(nid),
        Slot::Const(pid),
        v(1),
        v(2),
        v(3),
        v(0),
        v(4),
        v(5),
        v(6),
        v(7),
        v(8),
        v(9),
        v(10),
        v(11),
        v(12),
        v(13),
        v(14),
        v(15),
        v(17),
        v(16),
    ]
}

/// A dispatch row's values; `region` is its `region_name_id`: the `--kernel-rename` range's
/// name, else [`EMPTY_STRING_ID`].
fn dispatch_values(event_id: i64, d: &KernelDispatch, region: i64) -> [i64; 18] {
    [
        to_i64(d.dispatch_id.0),
        i64::from(d.thread.0),
        i64::from(d.agent.0),
        to_i64(d.kernel.0),
        to_i64(d.queue.0),
        to_i64(d.stream.0),
        to_i64(d.start.ns),
        to_i64(d.end.ns),
        i64::from(d.private_segment_size),
        i64::from(d.group_segment_size),
        i64::from(d.workgroup.x),
        i64::from(d.workgroup.y),
        i64::from(d.workgroup.z),
        i64::from(d.grid.x),
        i64::from(d.grid.y),
        i64::from(d.grid.z),
        event_id,
        region,
    ]
}

/// The `rows`-row form of a single-row `INSERT ... VALUES (?1, ..., ?n);` from inserts.sql, each
/// column filled as `template` says (one slot per column; row `r`'s value `k` is parameter
/// `r * values + k + 1`, so a value used by two columns is bound once).
fn multi_row(single: &str, rows: usize, template: &[Slot]) -> Result<String> {
    let (head, values) =
        single.rsplit_once("VALUES").ok_or_else(|| Error::Schema(format!("INSERT without VALUES: {single}")))?;
    if values.matches('?').count() != template.len() {
        return Err(Error::Schema(format!("{} columns expected in: {single}", template.len())));
    }
    let per_row = template.iter().filter_map(|s| if let Slot::Value(k) = s { Some(k + 1) } else { None }).max();
    let per_row = per_row.unwrap_or(0);
    let mut sql = format!("{head}VALUES ");
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ",(" });
        for (i, s) in template.iter().enumerate() {
            if i > 0 {
                sql.push(',');
            }
            match s {
                Slot::Value(k) => sql.push_str(&format!("?{}", r * per_row + k + 1)),
                Slot::Const(c) => sql.push_str(&c.to_string()),
                Slot::NextId => sql.push_str("NULL"),
            }
        }
        sql.push(')');
    }
    sql.push(';');
    Ok(sql)
}

impl State {
    /// The run's health as `rocpd_metadata` rows `run_health.<key>` (records written, lost by
    /// reason, overhead; keys from `RunHealth::metadata`), next to `schema_version`.
    fn run_health(&self, h: &rocprof_model::RunHealth) -> Result<()> {
        let path = self.path.clone();
        let mut stmt = self.stmt("metadata")?;
        for (key, value) in h.metadata() {
            stmt.execute(params![format!("run_health.{key}"), value.to_string()])
                .map_err(sqlite_err(&path, "inserting the run health"))?;
        }
        Ok(())
    }
}

impl RocpdWriter {
    /// Creates the database for the process `meta` (the first record of the stream).
    fn open(&self, meta: &SessionMeta) -> Result<State> {
        let partial = PartialPath::prepare(self.out.file("results.db"))?;
        let path = partial.path().to_path_buf();
        // One thread uses the connection: no SQLite mutexes around it.
        let flags = rusqlite::OpenFlags::default() | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let flags = flags - rusqlite::OpenFlags::SQLITE_OPEN_FULL_MUTEX;
        let conn =
            Connection::open_with_flags(partial.partial(), flags).map_err(sqlite_err(&path, "opening the database"))?;
        let guid = self.options.guid.clone().unwrap_or_else(|| new_guid(meta.start.ns, meta.pid.0));
        let uuid = uuid_suffix(&guid);
        // The tables without their shared-default columns; `finish` adds those and the views.
        let (create, alter) = schema::rocpd_deferred_ddl(&uuid, &guid);
        let ddl = format!(
            "PRAGMA foreign_keys = OFF;\nPRAGMA journal_mode = OFF;\nPRAGMA synchronous = OFF;\nPRAGMA page_size = 65536;\nPRAGMA cache_size = -65536;\nPRAGMA user_version = {};\n{create}",
            schema::ROCPD_USER_VERSION,
        );
        let views = format!(
            "{alter}\n{}\n{}\n{}",
            schema::rocpd_alias_views_sql(&uuid),
            render(schema::ROCPD_DATA_VIEWS_SQL, &uuid, &guid),
            render(schema::ROCPD_SUMMARY_VIEWS_SQL, &uuid, &guid),
        );
        conn.execute_batch(&ddl).map_err(sqlite_err(&path, "creating the schema"))?;
        // Every INSERT plus the multi-row dispatch forms of a few lengths stay prepared.
        conn.set_prepared_statement_cache_capacity(64);
        conn.execute_batch("BEGIN").map_err(sqlite_err(&path, "starting the transaction"))?;

        let node = NodeInfo::current();
        let inserts = INSERT_NAMES
            .iter()
            .map(|&n| {
                schema::rocpd_insert(n)
                    .map(|sql| (n, render(sql, &uuid, &guid)))
                    .ok_or_else(|| Error::Schema(format!("no INSERT named `{n}` in schemas/rocpd/inserts.sql")))
            })
            .collect::<Result<HashMap<_, _>>>()?;
        let mut st = State {
            views,
            multi: None,
            single: None,
            path,
            conn,
            partial,
            inserts,
            pending: Vec::with_capacity(BATCH),
            nid: node.id,
            pid: i64::from(meta.pid.0),
            ppid: i64::from(meta.ppid.0),
            string_ids: Vec::new(),
            extra_strings: HashMap::new(),
            next_string_id: 1,
            threads: HashSet::new(),
            queues: HashSet::new(),
            streams: HashSet::new(),
            tracks: HashMap::new(),
            copies: 0,
            kernels: HashSet::new(),
            renamed: HashMap::new(),
            next_event_id: 1,
            dispatch_rows: 0,
            last_dispatch: None,
            last_parents: None,
        };
        st.stmt("node")?
            .execute(params![
                node.id,
                node.hash,
                node.machine_id,
                node.system_name,
                node.hostname,
                node.release,
                node.version,
                node.hardware_name,
                node.domain_name,
            ])
            .map_err(sqlite_err(&st.path, "inserting the node"))?;
        let command = meta.command.join(" ");
        st.stmt("process")?
            .execute(params![
                st.pid,
                st.nid,
                st.ppid,
                st.pid,
                to_i64(meta.start.ns),
                to_i64(meta.end.ns),
                to_i64(meta.start.ns),
                to_i64(meta.end.ns),
                command,
                self.options.environment_json.as_deref().unwrap_or("{}"),
                self.options.config_json.as_deref().unwrap_or("{}"),
            ])
            .map_err(sqlite_err(&st.path, "inserting the process"))?;
        // Threads get rows as records name them (queue creators, dispatching threads), like
        // rocprofv3's one row per thread that produced a record.
        st.ensure_queue(QueueId(0))?;
        st.stmt("stream")?
            .execute(params![0i64, st.nid, st.pid, "Default Stream", "{}"])
            .map_err(sqlite_err(&st.path, "inserting the default stream"))?;
        Ok(st)
    }
}

impl Writer for RocpdWriter {
    fn name(&self) -> &'static str {
        "rocpd"
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        if let Record::Process(meta) = record {
            if self.state.is_some() {
                return Err(Error::Unsupported(format!(
                    "a rocpd database holds one process; {} was given a second one (pid {})",
                    self.out.file("results.db").display(),
                    meta.pid
                )));
            }
            self.state = Some(self.open(meta)?);
            return Ok(());
        }
        let st = self
            .state
            .as_mut()
            .ok_or_else(|| Error::Unsupported("rocpd writer: records before their process record".into()))?;
        st.sync_strings(session)?;
        match record {
            Record::Agent(a) => st.agent(session, a),
            Record::Queue(q) => {
                if q.thread.0 != 0 {
                    st.ensure_thread(q.thread)?;
                }
                st.ensure_queue(q.id)
            }
            Record::CodeObject(c) => st.code_object(session, c),
            Record::KernelSymbol(k) => st.kernel_symbol(session, k),
            Record::KernelDispatch(d) => st.dispatch(d),
            Record::Counter(c) => st.counter(session, c),
            Record::CounterCollection(c) => st.counter_collection(c),
            Record::RunHealth(h) => st.run_health(h),
            Record::ApiCall(a) => st.api_call(session, a),
            Record::MemoryCopy(c) => st.memory_copy(c),
            Record::MemoryAllocation(m) => st.memory_allocation(m),
            Record::ScratchMemory(s) => st.scratch_memory(s),
            _ => Ok(()),
        }
    }

    fn finish(&mut self, _session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let Some(mut st) = self.state.take() else { return Ok(Vec::new()) };
        st.flush_dispatches()?;
        st.conn.execute_batch(&st.views).map_err(sqlite_err(&st.path, "adding the shared columns and the views"))?;
        st.conn.execute_batch("COMMIT").map_err(sqlite_err(&st.path, "committing"))?;
        let State { path, conn, partial, .. } = st;
        conn.close().map_err(|(_, e)| sqlite_err(&path, "closing the database")(e))?;
        Ok(vec![partial.commit()?])
    }

    fn abandon(&mut self) {
        self.state = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_is_a_uuid_v7_with_the_start_time_in_front() {
        let g = new_guid(0x0000_ddb5_8903 * 1_000_000, 42);
        assert_eq!(g.len(), 36);
        let parts: Vec<&str> = g.split('-').collect();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12]);
        assert_eq!(parts[0], "0000ddb5");
        assert_eq!(parts[1], "8903");
        assert!(parts[2].starts_with('7'), "{g}");
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'), "{g}");
        assert_ne!(new_guid(1, 1), new_guid(1, 1), "random bits differ");
        assert_eq!(uuid_suffix("0000ddb5-8903-7903-b269-cd8d3745bb8a"), "_0000ddb5_8903_7903_b269_cd8d3745bb8a");
    }
}
