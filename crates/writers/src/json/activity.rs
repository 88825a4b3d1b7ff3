//! The host-side buffer records of `results.json` (`buffer_records.hsa_api`, `hip_api`,
//! `marker_api`, `rccl_api`, `rocdecode_api`, `rocjpeg_api`, `memory_copy`, `memory_allocation`,
//! `scratch_memory`) and the string tables they refer to (`strings.buffer_records` /
//! `callback_records` operation names, `strings.marker_api` messages, external correlation ids).
//!
//! Each record is formatted directly, with rocprofiler-sdk's key order (its
//! `cxx/serialization/save.hpp` and rocprofv3's `stream_info.hpp`, which add `stream_id` to the
//! HIP API, copy and allocation records): API records `size`, `kind`, `operation`,
//! `correlation_id{internal, external, ancestor}`, `start_timestamp`, `end_timestamp`,
//! `thread_id` (HIP adds `args[{type, name, value}]`, `retval{uint64_t_retval}`, `stream_id`);
//! copies `... thread_id, correlation_id{internal, external}, ..., dst_agent_id, src_agent_id,
//! bytes, stream_id`; allocations `..., agent_id, address` (hex string), `allocation_size`,
//! `stream_id`; scratch `..., agent_id, queue_id, thread_id, ..., correlation_id, flags,
//! allocation_size`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use rocprof_model::api::{arg_info_named, render_arg};
use rocprof_model::{
    ApiCall, ApiDomain, ApiFamily, MemoryAllocation, MemoryAllocationOp, MemoryCopy, MemoryCopyDirection,
    ScratchMemory, ScratchMemoryOp,
};
use serde_json::{json, Value};

use crate::kinds;
use crate::Session;

/// `sizeof` of rocprofiler-sdk's API buffer record (size, kind, operation, a 3-word correlation
/// id, two timestamps, thread id).
const API_RECORD_SIZE: u64 = 64;
/// `sizeof(rocprofiler_buffer_tracing_hip_api_ext_record_t)` (the API record plus the argument
/// union pointer and the return value).
const HIP_API_EXT_RECORD_SIZE: u64 = 80;
/// `sizeof(rocprofiler_buffer_tracing_memory_copy_record_t)`.
const MEMORY_COPY_RECORD_SIZE: u64 = 96;
/// `sizeof(rocprofiler_buffer_tracing_memory_allocation_record_t)`.
const MEMORY_ALLOCATION_RECORD_SIZE: u64 = 88;
/// `sizeof(rocprofiler_buffer_tracing_scratch_memory_record_t)`.
const SCRATCH_MEMORY_RECORD_SIZE: u64 = 104;

/// `rocprofiler_buffer_tracing_kind_t` of `MEMORY_COPY`, `SCRATCH_MEMORY`, `MEMORY_ALLOCATION`.
pub(super) const MEMORY_COPY_KIND: u64 = 10;
pub(super) const SCRATCH_MEMORY_KIND: u64 = 12;
pub(super) const MEMORY_ALLOCATION_KIND: u64 = 16;

/// The buffer-tracing kind rocprofv3 records an API domain under (the `_EXT` kinds for HIP and
/// rocDecode, whose records carry arguments).
pub(super) fn buffer_kind(domain: ApiDomain) -> u64 {
    match domain {
        ApiDomain::HsaCore => 1,
        ApiDomain::HsaAmdExt => 2,
        ApiDomain::HsaImageExt => 3,
        ApiDomain::HsaFinalizeExt => 4,
        ApiDomain::MarkerCore => 7,
        ApiDomain::MarkerControl => 8,
        ApiDomain::MarkerName => 9,
        ApiDomain::Rccl => 14,
        ApiDomain::RocJpeg => 19,
        ApiDomain::HipRuntime => 21,
        ApiDomain::HipCompiler => 22,
        ApiDomain::RocDecode => 23,
    }
}

/// The callback-tracing kind of an API domain (`rocprofiler_callback_tracing_kind_t`).
fn callback_kind(domain: ApiDomain) -> u64 {
    match domain {
        ApiDomain::HsaCore => 1,
        ApiDomain::HsaAmdExt => 2,
        ApiDomain::HsaImageExt => 3,
        ApiDomain::HsaFinalizeExt => 4,
        ApiDomain::HipRuntime => 5,
        ApiDomain::HipCompiler => 6,
        ApiDomain::MarkerCore => 7,
        ApiDomain::MarkerControl => 8,
        ApiDomain::MarkerName => 9,
        ApiDomain::Rccl => 14,
        ApiDomain::RocDecode => 18,
        ApiDomain::RocJpeg => 19,
    }
}

/// `rocprofiler_callback_tracing_kind_t` names, indexed by value (`strings.callback_records`).
const CALLBACK_TRACING_KINDS: [&str; 22] = [
    "NONE",
    "HSA_CORE_API",
    "HSA_AMD_EXT_API",
    "HSA_IMAGE_EXT_API",
    "HSA_FINALIZE_EXT_API",
    "HIP_RUNTIME_API",
    "HIP_COMPILER_API",
    "MARKER_CORE_API",
    "MARKER_CONTROL_API",
    "MARKER_NAME_API",
    "CODE_OBJECT",
    "SCRATCH_MEMORY",
    "KERNEL_DISPATCH",
    "MEMORY_COPY",
    "RCCL_API",
    "OMPT",
    "MEMORY_ALLOCATION",
    "RUNTIME_INITIALIZATION",
    "ROCDECODE_API",
    "ROCJPEG_API",
    "HIP_STREAM",
    "MARKER_CORE_RANGE_API",
];

/// `rocprofiler_code_object_operation_t` names (callback kind `CODE_OBJECT`).
const CODE_OBJECT_OPERATIONS: [&str; 4] = [
    "CODE_OBJECT_NONE",
    "CODE_OBJECT_LOAD",
    "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER",
    "CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER",
];

/// The `buffer_records` array an API domain's records go to.
pub(super) fn api_array(domain: ApiDomain) -> &'static str {
    match domain.family() {
        ApiFamily::Hsa => "hsa_api",
        ApiFamily::Hip => "hip_api",
        ApiFamily::Marker => "marker_api",
        ApiFamily::Rccl => "rccl_api",
        ApiFamily::RocDecode => "rocdecode_api",
        ApiFamily::RocJpeg => "rocjpeg_api",
    }
}

/// Appends `s` as a JSON string.
fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One API buffer record.
pub(super) fn write_api(out: &mut String, session: &Session<'_>, a: &ApiCall) {
    let hip = a.domain.family() == ApiFamily::Hip;
    let c = &a.correlation;
    let _ = write!(
        out,
        "{{\"size\":{},\"kind\":{},\"operation\":{},\"correlation_id\":{{\"internal\":{},\"external\":{},\"ancestor\":{}}},\"start_timestamp\":{},\"end_timestamp\":{},\"thread_id\":{}",
        if hip { HIP_API_EXT_RECORD_SIZE } else { API_RECORD_SIZE },
        buffer_kind(a.domain),
        a.operation,
        c.internal.0,
        c.external,
        c.ancestor.0,
        a.start.ns,
        a.end.ns,
        a.thread.0,
    );
    if hip {
        out.push_str(",\"args\":[");
        let name = session.strings.resolve(a.name);
        if let Some(info) = arg_info_named(a.domain, a.operation, name) {
            for (i, (arg, word)) in info.iter().zip(a.args.iter()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"type\":");
                push_str(out, arg.ty);
                out.push_str(",\"name\":");
                push_str(out, arg.name);
                out.push_str(",\"value\":");
                push_str(out, &render_arg(arg.kind, *word));
                out.push('}');
            }
        }
        let _ = write!(out, "],\"retval\":{{\"uint64_t_retval\":{}}},\"stream_id\":{{\"handle\":0}}", a.return_value);
    }
    out.push('}');
}

/// One `memory_copy` buffer record.
pub(super) fn write_memory_copy(out: &mut String, c: &MemoryCopy) {
    let _ = write!(
        out,
        "{{\"size\":{MEMORY_COPY_RECORD_SIZE},\"kind\":{MEMORY_COPY_KIND},\"operation\":{},\"thread_id\":{},\"correlation_id\":{{\"internal\":{},\"external\":{}}},\"start_timestamp\":{},\"end_timestamp\":{},\"dst_agent_id\":{{\"handle\":{}}},\"src_agent_id\":{{\"handle\":{}}},\"bytes\":{},\"stream_id\":{{\"handle\":{}}}}}",
        c.direction as u32,
        c.thread.0,
        c.correlation.internal.0,
        c.correlation.external,
        c.start.ns,
        c.end.ns,
        c.dst_agent.0,
        c.src_agent.0,
        c.bytes,
        c.stream.0,
    );
}

/// One `memory_allocation` buffer record (frees have agent 0 and size 0, as in the CSV).
pub(super) fn write_memory_allocation(out: &mut String, m: &MemoryAllocation) {
    let (agent, size) = if m.operation.is_allocation() { (m.agent.map_or(0, |a| a.0), m.size) } else { (0, 0) };
    let c = &m.correlation;
    let _ = write!(
        out,
        "{{\"size\":{MEMORY_ALLOCATION_RECORD_SIZE},\"kind\":{MEMORY_ALLOCATION_KIND},\"operation\":{},\"thread_id\":{},\"correlation_id\":{{\"internal\":{},\"external\":{},\"ancestor\":{}}},\"start_timestamp\":{},\"end_timestamp\":{},\"agent_id\":{{\"handle\":{agent}}},\"address\":\"0x{:016x}\",\"allocation_size\":{size},\"stream_id\":{{\"handle\":{}}}}}",
        m.operation as u32,
        m.thread.0,
        c.internal.0,
        c.external,
        c.ancestor.0,
        m.start.ns,
        m.end.ns,
        m.address,
        m.stream.0,
    );
}

/// One `scratch_memory` buffer record.
pub(super) fn write_scratch_memory(out: &mut String, s: &ScratchMemory) {
    let c = &s.correlation;
    let _ = write!(
        out,
        "{{\"size\":{SCRATCH_MEMORY_RECORD_SIZE},\"kind\":{SCRATCH_MEMORY_KIND},\"operation\":{},\"agent_id\":{{\"handle\":{}}},\"queue_id\":{{\"handle\":{}}},\"thread_id\":{},\"start_timestamp\":{},\"end_timestamp\":{},\"correlation_id\":{{\"internal\":{},\"external\":{},\"ancestor\":{}}},\"flags\":{},\"allocation_size\":{}}}",
        s.operation as u32,
        s.agent.0,
        s.queue.0,
        s.thread.0,
        s.start.ns,
        s.end.ns,
        c.internal.0,
        c.external,
        c.ancestor.0,
        s.flags,
        s.size,
    );
}

/// What the string tables need from the host records of one process: operation names seen (for
/// domains whose names are not static: HIP, RCCL, ...), ROCTx messages by correlation id, and the
/// external correlation ids records carried.
#[derive(Debug, Default)]
pub(super) struct HostStrings {
    /// Operation names by (buffer kind, operation) for domains without a static table.
    seen: HashMap<u64, BTreeMap<u32, String>>,
    /// Callback-kind names seen for the same domains.
    seen_callback: HashMap<u64, BTreeMap<u32, String>>,
    /// `strings.marker_api`: (correlation id, message), in record order.
    markers: Vec<(u64, String)>,
    /// External ids carried by any record.
    external: BTreeSet<u64>,
    /// Names of external ids that `--kernel-rename` gave dispatches (also without
    /// `--marker-trace`, whose messages `markers` holds).
    external_names: HashMap<u64, String>,
}

impl HostStrings {
    /// Notes what `a` adds to the string tables.
    pub(super) fn api(&mut self, session: &Session<'_>, a: &ApiCall) {
        if a.domain.operation_name(a.operation).is_none() {
            let kind = buffer_kind(a.domain);
            let names = self.seen.entry(kind).or_default();
            if let std::collections::btree_map::Entry::Vacant(e) = names.entry(a.operation) {
                let name = session.strings.resolve(a.name).to_string();
                e.insert(name.clone());
                self.seen_callback.entry(callback_kind(a.domain)).or_default().insert(a.operation, name);
            }
        }
        if a.domain == ApiDomain::MarkerCore && a.message != rocprof_model::StringId::EMPTY {
            self.markers.push((a.correlation.internal.0, session.strings.resolve(a.message).to_string()));
        }
        self.external(a.correlation.external);
    }

    /// Notes an external correlation id (0 = none).
    pub(super) fn external(&mut self, id: u64) {
        if id != 0 {
            self.external.insert(id);
        }
    }

    /// Names external id `id` (a ROCTx range or mark that renamed a dispatch).
    pub(super) fn name_external(&mut self, id: u64, name: &str) {
        if id != 0 && !self.external_names.contains_key(&id) {
            self.external_names.insert(id, name.to_string());
        }
    }

    /// `strings.marker_api`.
    pub(super) fn marker_api(&self) -> Value {
        Value::Array(self.markers.iter().map(|(k, v)| json!({ "key": k, "value": v })).collect())
    }

    /// `strings.correlation_id.external`: each external id with the message of the ROCTx range
    /// whose id it is (rocprofv3 names them so with `--kernel-rename`).
    pub(super) fn external_ids(&self) -> Value {
        let mut messages: HashMap<u64, &str> = self.markers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        for (k, v) in &self.external_names {
            messages.entry(*k).or_insert(v.as_str());
        }
        Value::Array(
            self.external.iter().filter_map(|id| messages.get(id).map(|m| json!({ "key": id, "value": m }))).collect(),
        )
    }

    /// Operation names of a kind: the static table of its domain, else the names seen (ids with
    /// no name seen are empty strings).
    fn operations(static_names: Option<Vec<&'static str>>, seen: Option<&BTreeMap<u32, String>>) -> Vec<String> {
        if let Some(names) = static_names {
            return names.into_iter().map(str::to_string).collect();
        }
        let Some(seen) = seen else { return Vec::new() };
        let len = seen.keys().next_back().map_or(0, |&k| k as usize + 1);
        let mut ops = vec![String::new(); len];
        for (&k, v) in seen {
            ops[k as usize] = v.clone();
        }
        ops
    }

    /// `strings.buffer_records`: every buffer-tracing kind with its operation names.
    pub(super) fn buffer_records(&self) -> Value {
        let domain_of = |kind: u64| ApiDomain::ALL.into_iter().find(|d| buffer_kind(*d) == kind);
        Value::Array(
            kinds::BUFFER_TRACING_KINDS
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let kind = i as u64;
                    let static_names = match kind {
                        kinds::KERNEL_DISPATCH => Some(kinds::KERNEL_DISPATCH_OPERATIONS.to_vec()),
                        MEMORY_COPY_KIND => Some((0..5).map(|v| MemoryCopyDirection::from_u32(v).as_str()).collect()),
                        MEMORY_ALLOCATION_KIND => {
                            Some((0..5).map(|v| MemoryAllocationOp::from_u32(v).as_str()).collect())
                        }
                        SCRATCH_MEMORY_KIND => Some((0..4).map(|v| ScratchMemoryOp::from_u32(v).as_str()).collect()),
                        _ => domain_of(kind).and_then(static_operations),
                    };
                    json!({ "kind": k, "operations": Self::operations(static_names, self.seen.get(&kind)) })
                })
                .collect(),
        )
    }

    /// `strings.callback_records`: every callback-tracing kind with its operation names.
    pub(super) fn callback_records(&self) -> Value {
        let domain_of = |kind: u64| ApiDomain::ALL.into_iter().find(|d| callback_kind(*d) == kind);
        Value::Array(
            CALLBACK_TRACING_KINDS
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    let kind = i as u64;
                    let static_names = match kind {
                        10 => Some(CODE_OBJECT_OPERATIONS.to_vec()),
                        11 => Some((0..4).map(|v| ScratchMemoryOp::from_u32(v).as_str()).collect()),
                        12 => Some(kinds::KERNEL_DISPATCH_OPERATIONS.to_vec()),
                        13 => Some((0..5).map(|v| MemoryCopyDirection::from_u32(v).as_str()).collect()),
                        16 => Some((0..5).map(|v| MemoryAllocationOp::from_u32(v).as_str()).collect()),
                        _ => domain_of(kind).and_then(static_operations),
                    };
                    json!({ "kind": k, "operations": Self::operations(static_names, self.seen_callback.get(&kind)) })
                })
                .collect(),
        )
    }
}

/// The operation names of a domain this build knows statically (HSA tables, ROCTx).
fn static_operations(domain: ApiDomain) -> Option<Vec<&'static str>> {
    let mut names = Vec::new();
    while let Some(n) = domain.operation_name(names.len() as u32) {
        names.push(n);
    }
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_model::{AgentId, Correlation, CorrelationId, QueueId, StringTable, ThreadId, Timestamp};

    fn session(strings: &StringTable) -> Session<'_> {
        Session { strings }
    }

    #[test]
    fn api_records_have_rocprofiler_sdks_keys_and_kinds() {
        let mut strings = StringTable::new();
        let name = strings.intern("hipMalloc");
        let (domain, op) = rocprof_model::api::hsa::find("hsa_queue_create").unwrap();
        let hsa = ApiCall {
            domain,
            operation: op,
            name: strings.intern("hsa_queue_create"),
            message: rocprof_model::StringId::EMPTY,
            thread: ThreadId(77),
            correlation: Correlation { ancestor: CorrelationId(3), external: 9, ..Correlation::new(4) },
            start: Timestamp::boottime(10),
            end: Timestamp::boottime(20),
            return_value: 0,
            args: Box::new([]),
        };
        let hip =
            ApiCall { domain: ApiDomain::HipRuntime, operation: 42, name, args: Box::new([0x1000, 64]), ..hsa.clone() };
        let s = session(&strings);
        let mut out = String::new();
        write_api(&mut out, &s, &hsa);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(out.starts_with("{\"size\":64,\"kind\":1,\"operation\":"), "{out}");
        assert_eq!(v["correlation_id"], json!({ "internal": 4, "external": 9, "ancestor": 3 }));
        assert_eq!(kinds::BUFFER_TRACING_KINDS[v["kind"].as_u64().unwrap() as usize], "HSA_CORE_API");
        out.clear();
        write_api(&mut out, &s, &hip);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(kinds::BUFFER_TRACING_KINDS[v["kind"].as_u64().unwrap() as usize], "HIP_RUNTIME_API_EXT");
        assert_eq!(v["args"][0]["name"], "ptr");
        assert_eq!(v["args"][1], json!({ "type": "size_t", "name": "size", "value": "64" }));
        assert_eq!(v["stream_id"], json!({ "handle": 0 }));

        let mut hs = HostStrings::default();
        hs.api(&s, &hsa);
        hs.api(&s, &hip);
        let br = hs.buffer_records();
        assert_eq!(br[1]["operations"][op as usize], "hsa_queue_create");
        assert_eq!(br[21]["operations"][42], "hipMalloc");
        assert_eq!(br[21]["operations"].as_array().unwrap().len(), 43);
        assert_eq!(br[16]["operations"].as_array().unwrap().len(), 5, "AMD's memory-allocation test");
        let cb = hs.callback_records();
        assert_eq!(cb[5]["kind"], "HIP_RUNTIME_API");
        assert_eq!(cb[5]["operations"][42], "hipMalloc");
    }

    #[test]
    fn marker_messages_and_external_ids_fill_the_string_tables() {
        let mut strings = StringTable::new();
        let range = ApiCall {
            domain: ApiDomain::MarkerCore,
            operation: 1,
            name: strings.intern("roctxRangePushA"),
            message: strings.intern("phase \"one\""),
            thread: ThreadId(7),
            correlation: Correlation::new(12),
            start: Timestamp::boottime(1),
            end: Timestamp::boottime(9),
            return_value: 0,
            args: Box::new([]),
        };
        let inner = ApiCall {
            domain: ApiDomain::HsaCore,
            operation: 0,
            message: rocprof_model::StringId::EMPTY,
            correlation: Correlation { external: 12, ..Correlation::new(13) },
            ..range.clone()
        };
        let s = session(&strings);
        let mut hs = HostStrings::default();
        hs.api(&s, &range);
        hs.api(&s, &inner);
        assert_eq!(hs.marker_api(), json!([{ "key": 12, "value": "phase \"one\"" }]));
        assert_eq!(hs.external_ids(), json!([{ "key": 12, "value": "phase \"one\"" }]));
        let mut out = String::new();
        write_api(&mut out, &s, &range);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(kinds::BUFFER_TRACING_KINDS[v["kind"].as_u64().unwrap() as usize], "MARKER_CORE_API");
        assert_eq!(hs.buffer_records()[7]["operations"][1], "roctxRangePushA");
    }

    #[test]
    fn memory_records_format_as_the_sdk_does() {
        let mut out = String::new();
        let m = MemoryAllocation {
            operation: MemoryAllocationOp::Allocate,
            agent: Some(AgentId(2)),
            address: 0xabc,
            size: 1024,
            correlation: Correlation::new(5),
            ..Default::default()
        };
        write_memory_allocation(&mut out, &m);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["address"], "0x0000000000000abc");
        assert_eq!((v["agent_id"]["handle"].as_u64(), v["allocation_size"].as_u64()), (Some(2), Some(1024)));
        out.clear();
        write_memory_allocation(&mut out, &MemoryAllocation { operation: MemoryAllocationOp::Free, ..m });
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!((v["agent_id"]["handle"].as_u64(), v["allocation_size"].as_u64()), (Some(0), Some(0)));
        out.clear();
        let c = MemoryCopy {
            direction: MemoryCopyDirection::DeviceToHost,
            src_agent: AgentId(2),
            dst_agent: AgentId(1),
            bytes: 4096,
            ..Default::default()
        };
        write_memory_copy(&mut out, &c);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["operation"], 3);
        assert_eq!(v["correlation_id"].as_object().unwrap().len(), 2, "async correlation: no ancestor");
        assert_eq!((v["src_agent_id"]["handle"].as_u64(), v["dst_agent_id"]["handle"].as_u64()), (Some(2), Some(1)));
        out.clear();
        let s = ScratchMemory {
            operation: ScratchMemoryOp::Alloc,
            queue: QueueId(3),
            agent: AgentId(2),
            size: 8192,
            flags: 1,
            ..Default::default()
        };
        write_scratch_memory(&mut out, &s);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!((v["kind"].as_u64(), v["operation"].as_u64()), (Some(SCRATCH_MEMORY_KIND), Some(1)));
        assert_eq!((v["queue_id"]["handle"].as_u64(), v["allocation_size"].as_u64()), (Some(3), Some(8192)));
    }
}
