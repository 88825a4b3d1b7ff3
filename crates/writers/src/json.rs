//! rocprofv3's JSON output (`<prefix>_results.json`): `{"rocprofiler-sdk-tool": [<one object per
//! process>]}` with `metadata`, `agents`, `counters`, `strings`, `code_objects`,
//! `kernel_symbols`, `host_functions`, `summary`, `callback_records` and `buffer_records`, each
//! element as rocprofiler-sdk serialises its records (see `schemas/json/results.schema.json`).
//!
//! Streaming: the big arrays (`buffer_records.*`, `callback_records.counter_collection`) are
//! written, record by record, with serde_json into one spill file per array beside the output;
//! when a process section ends its object is assembled into the output file (definitions and
//! summary from memory, the arrays copied from their spill files), so memory holds only the
//! definitions (agents, code objects, symbols) and per-kernel statistics, whatever the number of
//! records. Several processes (a conversion of several databases) give several objects.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

use rocprof_model::counters::{CounterCollection, CounterInfo};
use rocprof_model::{CodeObject, HostFunction, KernelDispatch, KernelId, KernelSymbol, Record, SessionMeta};
use serde_json::{json, Value};

use crate::agent_object::{agent_object, AgentForm};
use crate::host::NodeInfo;
use crate::kinds;
use crate::stats::{AllStats, DomainStats, NameStats};

mod activity;
use crate::{Error, OutputFile, OutputLocation, Result, Session, Writer};

/// The `buffer_records` arrays, in rocprofv3's order (all present, empty when not traced).
pub const BUFFER_RECORD_ARRAYS: [&str; 12] = [
    "kernel_dispatch",
    "hip_api",
    "hsa_api",
    "marker_api",
    "rccl_api",
    "memory_copy",
    "memory_allocation",
    "scratch_memory",
    "rocdecode_api",
    "rocjpeg_api",
    "pc_sample_host_trap",
    "pc_sample_stochastic",
];

/// `sizeof(rocprofiler_buffer_tracing_kernel_dispatch_record_t)`, printed as its `size`.
const KERNEL_DISPATCH_RECORD_SIZE: u64 = 136;
/// `sizeof(rocprofiler_kernel_dispatch_info_t)`.
const KERNEL_DISPATCH_INFO_SIZE: u64 = 72;
/// `sizeof(rocprofiler_dispatch_counting_service_data_t)`: size, correlation id (internal +
/// external), dispatch info, start and end timestamps.
const COUNTING_SERVICE_DATA_SIZE: u64 = 112;

/// Settings of the JSON writer.
#[derive(Debug, Clone, Default)]
pub struct JsonOptions {
    /// The resolved configuration (`metadata.config`), a JSON object.
    pub config_json: Option<String>,
    /// Write `summary` (rocprofv3 does with `--stats` or a summary option).
    pub summary: bool,
    /// `strings.att_filenames`: the thread-trace files of the process (file names, next to the
    /// JSON file), as rocprofv3 lists them with `--att`.
    pub att_filenames: Vec<String>,
    /// `strings.code_object_snapshot_filenames`: the code object images saved with `--att`, by
    /// code object id (file names).
    pub code_object_snapshots: BTreeMap<u64, String>,
}

/// Writes `results.json`.
#[derive(Debug)]
pub struct JsonWriter {
    out: OutputLocation,
    options: JsonOptions,
    state: Option<State>,
}

impl JsonWriter {
    /// A writer with default options.
    pub fn new(out: OutputLocation) -> Self {
        Self::with_options(out, JsonOptions::default())
    }

    /// A writer with the given options.
    pub fn with_options(out: OutputLocation, options: JsonOptions) -> Self {
        Self { out, options, state: None }
    }
}

/// One array being streamed to its spill file.
#[derive(Debug)]
struct Spill {
    // Items are comma-separated JSON values.
    path: PathBuf,
    file: BufWriter<File>,
    items: u64,
}

impl Spill {
    fn create(path: PathBuf) -> Result<Self> {
        let file = File::create(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
        Ok(Self { path, file: BufWriter::with_capacity(1 << 16, file), items: 0 })
    }

    /// Appends one already formatted JSON value.
    fn push_raw(&mut self, text: &str) -> Result<()> {
        let io = |source| Error::Io { path: self.path.clone(), source };
        if self.items > 0 {
            self.file.write_all(b",").map_err(io)?;
        }
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.items += 1;
        Ok(())
    }
}

/// The directory of spill files, removed with everything in it when dropped.
#[derive(Debug)]
struct SpillDir(PathBuf);

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One process object being built.
#[derive(Debug)]
struct ProcessJson {
    meta: SessionMeta,
    agents: Vec<Value>,
    /// Code objects and kernel symbols by id: written as rocprofv3's arrays, indexed by the id
    /// (entry 0 and any unused id a blank entry), which AMD's validators index directly.
    code_objects: BTreeMap<u64, Value>,
    kernel_symbols: BTreeMap<u64, Value>,
    /// `--kernel-rename`'s symbol copies: renamed id -> (original id, range name).
    renamed: HashMap<KernelId, (KernelId, String)>,
    host_functions: BTreeMap<u64, Value>,
    /// Register counts by kernel (`arch_vgpr_count`, `accum_vgpr_count`, `sgpr_count`), which
    /// counter records repeat.
    kernel_regs: HashMap<KernelId, [u32; 3]>,
    /// `counters` and the dimensions they use (`strings.counters.dimension_ids`: id -> name and
    /// the largest instance count seen).
    counters: Vec<Value>,
    dimensions: BTreeMap<u64, (&'static str, u64)>,
    /// `summary`: every domain's statistics (with `--stats`).
    stats: AllStats,
    /// Operation names, marker messages and external ids for `strings`.
    host_strings: activity::HostStrings,
    arrays: BTreeMap<&'static str, Spill>,
    /// Scratch text of one record.
    line: String,
    /// `metadata.run_health`: the process's health record (records written, losses by reason,
    /// overhead), when the stream carried one.
    health: Option<Value>,
}

impl ProcessJson {
    /// A dispatch as rocprofv3's JSON has it: under its original kernel symbol when
    /// `--kernel-rename` renamed it; its external correlation id is noted for `strings`, with the
    /// range's (or mark's) name.
    fn original_dispatch(&mut self, d: &KernelDispatch) -> KernelDispatch {
        let mut d = *d;
        if let Some((original, name)) = self.renamed.get(&d.kernel) {
            self.host_strings.name_external(d.external_id, name);
            d.kernel = *original;
        }
        self.host_strings.external(d.external_id);
        d
    }

    /// Appends the formatted record in `line` to array `name`.
    fn push_line(&mut self, name: &str) -> Result<()> {
        self.arrays.get_mut(name).expect("every buffer_records array has a spill file").push_raw(&self.line)
    }
}

#[derive(Debug)]
struct State {
    file: OutputFile,
    spill_dir: SpillDir,
    process: Option<ProcessJson>,
    processes: u64,
    node: Value,
}

/// rocprofv3's `code_objects` / `kernel_symbols` arrays: one element per id from 0 to the largest,
/// the element at index `id` the one of that id, every other one a blank element (the same keys,
/// zero numbers, empty strings), as rocprofv3's metadata serialises default-constructed infos.
/// With no element at all it is one blank element (`blank` is any element of the kind), as
/// rocprofv3 sizes the array to the largest id + 1 starting from 0.
fn indexed_by_id(by_id: &BTreeMap<u64, Value>, blank: Value) -> Vec<Value> {
    let Some((&last, any)) = by_id.last_key_value() else { return vec![blank_like(&blank)] };
    let blank = blank_like(any);
    (0..=last).map(|id| by_id.get(&id).cloned().unwrap_or_else(|| blank.clone())).collect()
}

/// rocprofv3's `code_object_snapshot_filenames` (generateJSON.cpp over
/// `metadata::get_code_object_load_info`): indexed by code object id from 0, "" where no image was
/// saved, so `[""]` without `--att`.
fn snapshot_filenames(by_id: &BTreeMap<u64, String>) -> Vec<String> {
    let last = by_id.last_key_value().map_or(0, |(&id, _)| id);
    (0..=last).map(|id| by_id.get(&id).cloned().unwrap_or_default()).collect()
}

/// `v` with every number 0, string empty, bool false and array empty (objects keep their keys).
fn blank_like(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), blank_like(v))).collect()),
        Value::Array(_) => Value::Array(Vec::new()),
        Value::String(_) => Value::String(String::new()),
        Value::Number(_) => Value::from(0),
        Value::Bool(_) => Value::Bool(false),
        Value::Null => Value::Null,
    }
}

fn code_object_json(session: &Session<'_>, c: &CodeObject) -> Value {
    code_object_value(c, session.strings.resolve(c.uri))
}

/// [`code_object_json`] with the URI given.
fn code_object_value(c: &CodeObject, uri: &str) -> Value {
    json!({
        "size": 0,
        "code_object_id": c.id.0,
        "rocp_agent": { "handle": c.agent.0 },
        "hsa_agent": { "handle": 0 },
        "uri": uri,
        "load_base": c.load_base,
        "load_size": c.load_size,
        "load_delta": c.load_delta,
        "storage_type": c.storage.as_u32(),
        "memory_base": c.memory_base,
        "memory_size": c.memory_size,
    })
}

/// `sizeof(rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t)` on
/// x86-64 (callback_tracing.h: seven 8-byte members, `thread_limit`, four 12-byte `dim3`s, then
/// `workgroup_size` aligned to 8), which rocprofv3 writes as `size`.
const HOST_FUNCTION_STRUCT_SIZE: u64 = 120;

/// One `host_functions` element, with rocprofv3's keys (its `save()` of the SDK struct plus the
/// three names).
fn host_function_json(session: &Session<'_>, h: &HostFunction) -> Value {
    let s = |id| session.strings.resolve(id);
    host_function_value(h, [s(h.device_function), s(h.formatted_name), s(h.demangled_name), s(h.truncated_name)])
}

/// [`host_function_json`] with the names given: device function, formatted, demangled, truncated.
fn host_function_value(h: &HostFunction, names: [&str; 4]) -> Value {
    let [device, formatted, demangled, truncated] = names;
    let dim = |d: [u32; 3]| json!({ "x": d[0], "y": d[1], "z": d[2] });
    json!({
        "size": HOST_FUNCTION_STRUCT_SIZE,
        "host_function_id": h.id,
        "kernel_id": h.kernel.0,
        "code_object_id": h.code_object.0,
        "host_function": { "handle": h.host_function },
        "modules": { "handle": h.modules },
        "device_function": device,
        "thread_limit": h.thread_limit,
        "thread_ids": dim(h.thread_ids),
        "block_ids": dim(h.block_ids),
        "block_dims": dim(h.block_dims),
        "grid_dims": dim(h.grid_dims),
        "workgroup_size": h.workgroup_size,
        "formatted_host_function_name": formatted,
        "demangled_host_function_name": demangled,
        "truncated_host_function_name": truncated,
    })
}

/// rocprofv3's `host_functions` array (`metadata::get_host_symbols`): indexed by id, element 0
/// blank, so it has one (blank) element even when no host function was registered.
fn host_functions_json(by_id: &BTreeMap<u64, Value>) -> Vec<Value> {
    indexed_by_id(by_id, host_function_value(&HostFunction::default(), [""; 4]))
}

fn kernel_symbol_json(session: &Session<'_>, k: &KernelSymbol) -> Value {
    let s = |id| session.strings.resolve(id);
    kernel_symbol_value(k, [s(k.name), s(k.formatted_name), s(k.demangled_name), s(k.truncated_name)])
}

/// [`kernel_symbol_json`] with the names given: symbol, formatted, demangled, truncated.
fn kernel_symbol_value(k: &KernelSymbol, names: [&str; 4]) -> Value {
    let [name, formatted, demangled, truncated] = names;
    json!({
        "size": 0,
        "kernel_id": k.id.0,
        "code_object_id": k.code_object.0,
        "kernel_name": name,
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
        "formatted_kernel_name": formatted,
        "demangled_kernel_name": demangled,
        "truncated_kernel_name": truncated,
    })
}

/// A kernel-dispatch buffer record, formatted directly (every value is a number, so nothing
/// needs escaping): building a `serde_json::Value` per record cost ~4x more. The values are those
/// of `kernel_dispatch_json` (the tests compare them), in rocprofv3's key order.
fn write_kernel_dispatch(out: &mut String, d: &KernelDispatch) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "{{\"size\":{},\"kind\":{},\"operation\":{},\"thread_id\":{},\"correlation_id\":{{\"internal\":{},\"external\":{},\"ancestor\":0}},\"start_timestamp\":{},\"end_timestamp\":{},\"dispatch_info\":{{\"size\":{},\"agent_id\":{{\"handle\":{}}},\"queue_id\":{{\"handle\":{}}},\"kernel_id\":{},\"dispatch_id\":{},\"private_segment_size\":{},\"group_segment_size\":{},\"workgroup_size\":{{\"x\":{},\"y\":{},\"z\":{}}},\"grid_size\":{{\"x\":{},\"y\":{},\"z\":{}}}}},\"stream_id\":{{\"handle\":{}}}}}",
        KERNEL_DISPATCH_RECORD_SIZE,
        kinds::KERNEL_DISPATCH,
        kinds::KERNEL_DISPATCH_COMPLETE,
        d.thread.0,
        d.correlation_id.0,
        d.external_id,
        d.start.ns,
        d.end.ns,
        KERNEL_DISPATCH_INFO_SIZE,
        d.agent.0,
        d.queue.0,
        d.kernel.0,
        d.dispatch_id.0,
        d.private_segment_size,
        d.group_segment_size,
        d.workgroup.x,
        d.workgroup.y,
        d.workgroup.z,
        d.grid.x,
        d.grid.y,
        d.grid.z,
        d.stream.0,
    );
}

/// A `counters` entry and the dimensions it uses (id, name, instance count), parsed from the
/// counter's dimension text (`DIMENSION_XCC[0:7] DIMENSION_SHADER_ENGINE[0:3]`).
fn counter_json(session: &Session<'_>, c: &CounterInfo) -> (Value, Vec<(u64, &'static str, u64)>) {
    let s = |id| session.strings.resolve(id);
    let dims: Vec<(u64, &'static str, u64)> = s(c.dimensions)
        .split_whitespace()
        .filter_map(|d| {
            let (name, range) = d.split_once('[')?;
            let (lo, hi) = range.strip_suffix(']')?.split_once(':')?;
            let (lo, hi) = (lo.parse::<u64>().ok()?, hi.parse::<u64>().ok()?);
            let id = kinds::COUNTER_DIMENSIONS.iter().position(|n| *n == name)?;
            Some((id as u64, kinds::COUNTER_DIMENSIONS[id], hi.saturating_sub(lo) + 1))
        })
        .collect();
    let value = json!({
        "agent_id": { "handle": c.agent.0 },
        "id": { "handle": c.id.0 },
        "is_constant": 0,
        "is_derived": u8::from(c.is_derived),
        "name": s(c.name),
        "description": s(c.description),
        "block": s(c.block),
        "expression": s(c.expression),
        "dimension_ids": dims.iter().map(|d| d.0).collect::<Vec<_>>(),
    });
    (value, dims)
}

/// A `callback_records.counter_collection` entry: rocprofv3's keys (`thread_id`,
/// `dispatch_data`, `records`, `stream_id`) and the register and LDS fields its schema also
/// lists. `regs` are the kernel's register counts (else the dispatch's).
fn write_counter_collection(out: &mut String, c: &CounterCollection, d: &KernelDispatch, regs: Option<[u32; 3]>) {
    use std::fmt::Write as _;
    let [arch, accum, sgpr] = regs.unwrap_or([d.arch_vgpr_count, d.accum_vgpr_count, d.sgpr_count]);
    let _ = write!(
        out,
        "{{\"thread_id\":{},\"dispatch_data\":{{\"size\":{},\"correlation_id\":{{\"internal\":{},\"external\":{}}},\"dispatch_info\":{{\"size\":{},\"agent_id\":{{\"handle\":{}}},\"queue_id\":{{\"handle\":{}}},\"kernel_id\":{},\"dispatch_id\":{},\"private_segment_size\":{},\"group_segment_size\":{},\"workgroup_size\":{{\"x\":{},\"y\":{},\"z\":{}}},\"grid_size\":{{\"x\":{},\"y\":{},\"z\":{}}}}},\"start_timestamp\":{},\"end_timestamp\":{}}},\"records\":[",
        d.thread.0,
        COUNTING_SERVICE_DATA_SIZE,
        d.correlation_id.0,
        d.external_id,
        KERNEL_DISPATCH_INFO_SIZE,
        d.agent.0,
        d.queue.0,
        d.kernel.0,
        d.dispatch_id.0,
        d.private_segment_size,
        d.group_segment_size,
        d.workgroup.x,
        d.workgroup.y,
        d.workgroup.z,
        d.grid.x,
        d.grid.y,
        d.grid.z,
        d.start.ns,
        d.end.ns,
    );
    for (i, v) in c.values.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        // serde_json's float formatting (shortest round trip; non-finite values become null).
        let value = serde_json::to_string(&v.value).unwrap_or_else(|_| "null".into());
        let _ = write!(out, "{sep}{{\"counter_id\":{{\"handle\":{}}},\"value\":{value}}}", v.counter.0);
    }
    let _ = write!(
        out,
        "],\"stream_id\":{{\"handle\":{}}},\"arch_vgpr_count\":{arch},\"accum_vgpr_count\":{accum},\"sgpr_count\":{sgpr},\"lds_block_size_v\":{}}}",
        d.stream.0,
        d.lds_block_size(),
    );
}

#[cfg(test)]
fn kernel_dispatch_json(d: &KernelDispatch) -> Value {
    json!({
        "size": KERNEL_DISPATCH_RECORD_SIZE,
        "kind": kinds::KERNEL_DISPATCH,
        "operation": kinds::KERNEL_DISPATCH_COMPLETE,
        "thread_id": d.thread.0,
        "correlation_id": { "internal": d.correlation_id.0, "external": d.external_id, "ancestor": 0 },
        "start_timestamp": d.start.ns,
        "end_timestamp": d.end.ns,
        "dispatch_info": {
            "size": KERNEL_DISPATCH_INFO_SIZE,
            "agent_id": { "handle": d.agent.0 },
            "queue_id": { "handle": d.queue.0 },
            "kernel_id": d.kernel.0,
            "dispatch_id": d.dispatch_id.0,
            "private_segment_size": d.private_segment_size,
            "group_segment_size": d.group_segment_size,
            "workgroup_size": { "x": d.workgroup.x, "y": d.workgroup.y, "z": d.workgroup.z },
            "grid_size": { "x": d.grid.x, "y": d.grid.y, "z": d.grid.z },
        },
        "stream_id": { "handle": d.stream.0 },
    })
}

fn stats_json(e: &NameStats) -> Value {
    let n = e.calls as f64;
    let sum = e.total_ns as f64;
    let variance = e.stddev_ns() * e.stddev_ns();
    json!({
        "count": e.calls,
        "sum": sum,
        "sqr": e.sum_sq(),
        "min": if e.calls == 0 { 0 } else { e.min_ns },
        "max": e.max_ns,
        "mean": if e.calls == 0 { 0.0 } else { sum / n },
        "stddev": e.stddev_ns(),
        "variance": variance,
    })
}

/// `summary`: one entry per domain with records, in rocprofv3's domain order.
fn summary_json(stats: &AllStats) -> Value {
    Value::Array(stats.non_empty().into_iter().map(domain_summary_json).collect())
}

fn domain_summary_json(stats: &DomainStats) -> Value {
    let mut all = stats_json(&stats.overall());
    all["operations"] =
        Value::Array(stats.sorted().into_iter().map(|e| json!({ "key": e.name, "value": stats_json(e) })).collect());
    json!({ "domain": stats.domain, "stats": all })
}

/// Appends `"name":[<items>]` to the output from a spill file, and removes the spill file.
fn copy_spill(file: &mut OutputFile, name: &str, spill: Spill) -> Result<()> {
    let Spill { path, file: mut buffered, .. } = spill;
    let io = |source| Error::Io { path: path.clone(), source };
    buffered.flush().map_err(io)?;
    drop(buffered);
    let mut f = File::open(&path).map_err(io)?;
    file.write_all(format!("\"{name}\":[").as_bytes())?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = std::io::Read::read(&mut f, &mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        file.write_all(&buf[..n])?;
    }
    drop(f);
    let _ = std::fs::remove_file(&path);
    file.write_all(b"]")
}

impl State {
    fn start_process(&mut self, meta: &SessionMeta) -> Result<()> {
        self.end_process(None)?;
        let mut arrays = BTreeMap::new();
        for name in BUFFER_RECORD_ARRAYS.iter().chain(["counter_collection"].iter()) {
            let path = self.spill_dir.0.join(format!("{}-{name}.json", self.processes));
            arrays.insert(*name, Spill::create(path)?);
        }
        self.process = Some(ProcessJson {
            meta: meta.clone(),
            agents: Vec::new(),
            code_objects: BTreeMap::new(),
            kernel_symbols: BTreeMap::new(),
            renamed: HashMap::new(),
            host_functions: BTreeMap::new(),
            kernel_regs: HashMap::new(),
            counters: Vec::new(),
            dimensions: BTreeMap::new(),
            stats: AllStats::new(),
            host_strings: activity::HostStrings::default(),
            arrays,
            line: String::with_capacity(512),
            health: None,
        });
        Ok(())
    }

    /// Writes the current process object (if any) into the output.
    fn end_process(&mut self, options: Option<&JsonOptions>) -> Result<()> {
        let Some(p) = self.process.take() else { return Ok(()) };
        let options = options.cloned().unwrap_or_default();
        let config: Value =
            options.config_json.as_deref().and_then(|c| serde_json::from_str(c).ok()).unwrap_or(json!({}));
        let mut head = json!({
            "metadata": {
                "node": self.node,
                "pid": p.meta.pid.0,
                "init_time": p.meta.start.ns,
                "fini_time": p.meta.end.ns,
                "command": p.meta.command,
                "config": config,
            },
            "agents": p.agents,
            "counters": p.counters,
            "strings": {
                "callback_records": p.host_strings.callback_records(),
                "buffer_records": p.host_strings.buffer_records(),
                "marker_api": p.host_strings.marker_api(),
                "correlation_id": { "external": p.host_strings.external_ids() },
                "counters": { "dimension_ids": p.dimensions.iter().map(|(id, (name, size))| json!({
                    "id": id, "instance_size": size, "name": name,
                })).collect::<Vec<_>>() },
                "pc_sample_instructions": [],
                "pc_sample_comments": [],
                "att_filenames": options.att_filenames,
                "code_object_snapshot_filenames": snapshot_filenames(&options.code_object_snapshots),
            },
            "code_objects": indexed_by_id(&p.code_objects, code_object_value(&CodeObject::default(), "")),
            "kernel_symbols": indexed_by_id(&p.kernel_symbols, kernel_symbol_value(&KernelSymbol::default(), [""; 4])),
            "host_functions": host_functions_json(&p.host_functions),
        });
        if let Some(h) = p.health {
            head["metadata"]["run_health"] = h;
        }
        let mut text =
            serde_json::to_string(&head).map_err(|e| Error::Io { path: self.file.path().into(), source: e.into() })?;
        text.pop(); // the closing brace: the streamed parts follow
        if self.processes > 0 {
            self.file.write_all(b",")?;
        }
        self.file.write_all(text.as_bytes())?;
        if options.summary {
            self.file.write_all(b",\"summary\":")?;
            self.file.write_all(summary_json(&p.stats).to_string().as_bytes())?;
        }
        let mut arrays = p.arrays;
        let mut take = |name: &str| arrays.remove(name).expect("every array has a spill file");
        self.file.write_all(b",\"callback_records\":{")?;
        copy_spill(&mut self.file, "counter_collection", take("counter_collection"))?;
        self.file.write_all(b"},\"buffer_records\":{")?;
        for (i, name) in BUFFER_RECORD_ARRAYS.iter().enumerate() {
            if i > 0 {
                self.file.write_all(b",")?;
            }
            copy_spill(&mut self.file, name, take(name))?;
        }
        self.file.write_all(b"}}")?;
        self.processes += 1;
        Ok(())
    }
}

impl Writer for JsonWriter {
    fn name(&self) -> &'static str {
        "json"
    }

    fn begin(&mut self, _session: &Session<'_>) -> Result<()> {
        let mut file = self.out.create("results.json")?;
        let mut dir = file.path().as_os_str().to_owned();
        dir.push(".parts");
        let dir = PathBuf::from(dir);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        file.write_all(b"{\"rocprofiler-sdk-tool\":[")?;
        let node = NodeInfo::current();
        let node = json!({
            "machine_id": node.machine_id,
            "system_name": node.system_name,
            "hostname": node.hostname,
            "release": node.release,
            "version": node.version,
            "hardware_name": node.hardware_name,
            "domain_name": node.domain_name,
        });
        self.state = Some(State { file, spill_dir: SpillDir(dir), process: None, processes: 0, node });
        Ok(())
    }

    fn write(&mut self, session: &Session<'_>, record: &Record) -> Result<()> {
        let Some(st) = self.state.as_mut() else { return Ok(()) };
        if let Record::Process(meta) = record {
            st.end_process(Some(&self.options))?;
            return st.start_process(meta);
        }
        let Some(p) = st.process.as_mut() else { return Ok(()) };
        match record {
            Record::Agent(a) => p.agents.push(agent_object(session.strings, a, AgentForm::Json)),
            Record::CodeObject(c) => {
                p.code_objects.insert(c.id.0, code_object_json(session, c));
            }
            Record::KernelSymbol(k) => {
                if k.renamed_from.0 == 0 {
                    p.kernel_symbols.insert(k.id.0, kernel_symbol_json(session, k));
                } else {
                    // `--kernel-rename`: rocprofv3 keeps the original symbol on the dispatch and
                    // names the range through `strings.correlation_id.external`.
                    let name = session.strings.resolve(k.formatted_name).to_string();
                    p.renamed.insert(k.id, (k.renamed_from, name));
                }
                p.kernel_regs.insert(k.id, [k.arch_vgpr_count, k.accum_vgpr_count, k.sgpr_count]);
            }
            Record::HostFunction(h) => {
                p.host_functions.insert(h.id, host_function_json(session, h));
            }
            Record::Counter(c) => {
                let (value, dims) = counter_json(session, c);
                for (id, name, size) in dims {
                    let e = p.dimensions.entry(id).or_insert((name, size));
                    e.1 = e.1.max(size);
                }
                p.counters.push(value);
            }
            Record::CounterCollection(c) => {
                p.line.clear();
                let regs = p.kernel_regs.get(&c.dispatch.kernel).copied();
                let d = p.original_dispatch(&c.dispatch);
                write_counter_collection(&mut p.line, c, &d, regs);
                p.push_line("counter_collection")?;
            }
            Record::RunHealth(h) => {
                p.health = Some(Value::Object(h.metadata().into_iter().map(|(k, v)| (k, Value::from(v))).collect()));
            }
            Record::KernelDispatch(d) => {
                p.line.clear();
                let d = p.original_dispatch(d);
                write_kernel_dispatch(&mut p.line, &d);
                p.push_line("kernel_dispatch")?;
            }
            Record::ApiCall(a) => {
                p.host_strings.api(session, a);
                p.line.clear();
                activity::write_api(&mut p.line, session, a);
                p.push_line(activity::api_array(a.domain))?;
            }
            Record::MemoryCopy(c) => {
                p.host_strings.external(c.correlation.external);
                p.line.clear();
                activity::write_memory_copy(&mut p.line, c);
                p.push_line("memory_copy")?;
            }
            Record::MemoryAllocation(m) => {
                p.host_strings.external(m.correlation.external);
                p.line.clear();
                activity::write_memory_allocation(&mut p.line, m);
                p.push_line("memory_allocation")?;
            }
            Record::ScratchMemory(s) => {
                p.host_strings.external(s.correlation.external);
                p.line.clear();
                activity::write_scratch_memory(&mut p.line, s);
                p.push_line("scratch_memory")?;
            }
            _ => {}
        }
        if self.options.summary {
            p.stats.add(session.strings, record);
        }
        Ok(())
    }

    fn finish(&mut self, _session: &Session<'_>) -> Result<Vec<PathBuf>> {
        let Some(mut st) = self.state.take() else { return Ok(Vec::new()) };
        st.end_process(Some(&self.options))?;
        st.file.write_all(b"]}\n")?;
        let State { file, spill_dir, .. } = st;
        let path = file.commit()?;
        drop(spill_dir);
        Ok(vec![path])
    }

    fn abandon(&mut self) {
        self.state = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_formatting_equals_serde_json() {
        let d = crate::synthetic::trace(7).dispatches[5];
        let mut s = String::new();
        write_kernel_dispatch(&mut s, &d);
        let parsed: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(parsed, kernel_dispatch_json(&d));
        assert!(
            s.starts_with("{\"size\":136,\"kind\":11,\"operation\":2,\"thread_id\":"),
            "rocprofv3's key order: {s}"
        );
    }
}
