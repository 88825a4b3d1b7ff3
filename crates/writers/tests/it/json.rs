//! `results.json`: rocprofv3's layout, valid under `schemas/json/results.schema.json`.

use rocprof_writers::json::{JsonOptions, JsonWriter};
use rocprof_writers::json_schema::{validate, RESULTS_SCHEMA};
use rocprof_writers::{synthetic, write_trace, OutputLocation, Progress, Writer};
use serde_json::Value;

use crate::scratch;

/// AMD's JSON schema of rocprofv3's `results.json` (rocprofiler-sdk `source/docs/rocprofv3-schema.json`),
/// when a mirror of ROCm/rocm-systems is named by `ROCPD_MIRROR` (it is never copied into the repository).
fn amd_schema() -> Option<&'static str> {
    static SCHEMA: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| rocprof_test_inputs::amd_results_schema("writers json: AMD's schema")).as_deref()
}

/// AMD's schema with its two descriptions of keys rocprofv3 does not write that way relaxed (see
/// the comments); `None` without a mirror.
fn amd_schema_relaxed() -> Option<Value> {
    let mut schema: Value = serde_json::from_str(amd_schema()?).unwrap();
    // AMD's schema requires `host_function_address`, `modules_address`, `*_address` keys
    // that rocprofv3 never writes: its serializer (rocprofiler-sdk save.hpp for the SDK
    // struct, host_symbol_info.hpp for the names) writes `host_function`, `modules`,
    // `thread_ids`, ... as we do. Its other constraints on the elements still apply.
    let items = schema.pointer_mut("/properties/rocprofiler-sdk-tool/items/properties/host_functions/items");
    if let Some(required) = items.and_then(|i| i.as_object_mut()).and_then(|o| o.remove("required")) {
        assert!(required.to_string().contains("host_function_address"), "AMD's schema changed: {required}");
    }
    // It describes `code_object_snapshot_filenames` as {key, value} objects; rocprofv3's
    // generateJSON.cpp writes a vector of file names (indexed by code object id), and AMD's
    // ATT validator reads the elements as strings. Its element type is not checked.
    let snap = schema.pointer_mut(
        "/properties/rocprofiler-sdk-tool/items/properties/strings/properties/code_object_snapshot_filenames",
    );
    if let Some(items) = snap.and_then(|i| i.as_object_mut()).and_then(|o| o.remove("items")) {
        assert_eq!(items["type"], "object", "AMD's schema changed: {items}");
    }
    Some(schema)
}

/// Parses `path` and checks it against our schema and (when available) AMD's.
pub(crate) fn read_valid(path: &std::path::Path) -> Value {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let ours: Value = serde_json::from_str(RESULTS_SCHEMA).unwrap();
    for (name, schema) in [("ours", Some(ours)), ("AMD's", amd_schema_relaxed())] {
        let Some(schema) = schema else { continue };
        let errors = validate(&schema, &doc, 20);
        assert!(errors.is_empty(), "{} violates {name} schema:\n{}", path.display(), errors.join("\n"));
    }
    doc
}

#[test]
fn amds_schema_uses_only_keywords_our_validator_checks() {
    let Some(text) = amd_schema() else { return };
    let raw: Value = serde_json::from_str(text).unwrap();
    assert_eq!(rocprof_writers::json_schema::unsupported_keywords(&raw), Vec::<String>::new());
    let schema = amd_schema_relaxed().unwrap();
    // It rejects what rocprofv3 would not write (here: an agent's firmware version as one number).
    let dir = scratch("json-amd");
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::new(OutputLocation::new(&dir, "")))];
    let files = write_trace(&synthetic::trace(2), &mut w, Progress::Hidden).unwrap();
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    assert!(validate(&schema, &doc, 5).is_empty());
    doc["rocprofiler-sdk-tool"][0]["agents"][1]["fw_version"] = serde_json::json!({ "uCode": 5 });
    let errors = validate(&schema, &doc, 5);
    assert!(errors.iter().any(|e| e.contains("fw_version") && e.contains("Major")), "{errors:?}");
}

#[test]
fn kernel_dispatches_definitions_and_summary_are_written_and_valid() {
    let dir = scratch("json");
    let trace = synthetic::trace(100);
    let opts =
        JsonOptions { summary: true, config_json: Some(r#"{"kernel_trace":true}"#.into()), ..Default::default() };
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::with_options(OutputLocation::new(&dir, "run"), opts))];
    let files = write_trace(&trace, &mut w, Progress::Hidden).unwrap();
    assert_eq!(files, [dir.join("run_results.json")]);
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["run_results.json"], "spill files are gone");

    let doc = read_valid(&files[0]);
    let procs = doc["rocprofiler-sdk-tool"].as_array().unwrap();
    assert_eq!(procs.len(), 1);
    let p = &procs[0];
    assert_eq!(p["metadata"]["pid"], 4242);
    assert_eq!(p["metadata"]["command"], serde_json::json!(["synthetic", "100"]));
    assert_eq!(p["metadata"]["config"]["kernel_trace"], true);
    let health = &p["metadata"]["run_health"];
    assert_eq!(health["lost_total"], 0, "{health}");
    assert!(health.get("records_written").is_some() && health.get("lost.torn_tail").is_some(), "{health}");
    assert_eq!(p["agents"].as_array().unwrap().len(), 2);
    assert_eq!(p["agents"][1]["name"], "gfx942");
    // rocprofv3's arrays are indexed by id (its metadata::get_kernel_symbols/get_code_objects):
    // ids start at 1, so element 0 is a blank entry with the same keys, and AMD's validators
    // read `kernel_symbols[dispatch_info.kernel_id]`.
    let syms = p["kernel_symbols"].as_array().unwrap();
    assert_eq!(syms.len(), trace.kernel_symbols.len() + 1);
    for k in &trace.kernel_symbols {
        let e = &syms[k.id.0 as usize];
        assert_eq!(e["kernel_id"], k.id.0);
        assert_eq!(e["formatted_kernel_name"], trace.strings.resolve(k.formatted_name));
    }
    assert_eq!(syms[0]["kernel_id"], 0);
    assert_eq!(syms[0]["formatted_kernel_name"], "");
    assert_eq!(
        syms[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        syms[1].as_object().unwrap().keys().collect::<Vec<_>>()
    );
    assert_eq!(p["code_objects"][0]["code_object_id"], 0);
    assert_eq!(p["code_objects"][1]["code_object_id"], 1);
    assert_eq!(p["code_objects"][1]["uri"], "file:///synthetic/kernels.co#offset=0&size=8192");

    let kd = p["buffer_records"]["kernel_dispatch"].as_array().unwrap();
    assert_eq!(kd.len(), 100);
    let src = &trace.dispatches[41];
    let rec = &kd[41];
    assert_eq!(rec["correlation_id"]["internal"], src.correlation_id.0);
    assert_eq!(rec["start_timestamp"], src.start.ns);
    assert_eq!(rec["end_timestamp"], src.end.ns);
    assert_eq!(rec["dispatch_info"]["kernel_id"], src.kernel.0);
    assert_eq!(rec["dispatch_info"]["queue_id"]["handle"], src.queue.0);
    assert_eq!(rec["dispatch_info"]["grid_size"]["x"], 1 << 20);
    // kind and operation resolve through the strings table, as rocprofv3's readers do it.
    let kind = rec["kind"].as_u64().unwrap() as usize;
    let op = rec["operation"].as_u64().unwrap() as usize;
    let names = &p["strings"]["buffer_records"][kind];
    assert_eq!(names["kind"], "KERNEL_DISPATCH");
    assert_eq!(names["operations"][op], "KERNEL_DISPATCH_COMPLETE");

    let summary = &p["summary"][0];
    assert_eq!(summary["domain"], "KERNEL_DISPATCH");
    assert_eq!(summary["stats"]["count"], 100);
    let ops = summary["stats"]["operations"].as_array().unwrap();
    assert_eq!(ops.len(), 4);
    assert_eq!(ops.iter().map(|o| o["value"]["count"].as_u64().unwrap()).sum::<u64>(), 100);
    let total: u64 = trace.dispatches.iter().map(|d| d.duration_ns()).sum();
    assert_eq!(summary["stats"]["sum"].as_f64().unwrap(), total as f64);
    for empty in ["hip_api", "hsa_api", "memory_copy"] {
        assert_eq!(p["buffer_records"][empty], serde_json::json!([]), "{empty}");
    }
}

#[test]
fn host_functions_are_indexed_by_id_and_named_as_their_kernel_symbol() {
    let dir = scratch("json-host-functions");
    let mut trace = synthetic::trace(4);
    let k = trace.kernel_symbols[1].clone();
    let device = trace.strings.intern("_Z6kernelv");
    let demangled = trace.strings.intern("kernel()");
    trace.host_functions.push(rocprof_model::HostFunction {
        id: 1,
        kernel: k.id,
        code_object: k.code_object,
        host_function: 0x40_1000,
        modules: 0x60_2000,
        device_function: device,
        formatted_name: k.formatted_name,
        demangled_name: demangled,
        truncated_name: k.truncated_name,
        thread_limit: 3,
        block_dims: [4, 5, 6],
        workgroup_size: 64,
        ..Default::default()
    });
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::new(OutputLocation::new(&dir, "")))];
    let files = write_trace(&trace, &mut w, Progress::Hidden).unwrap();
    let doc = read_valid(&files[0]);
    let data = &doc["rocprofiler-sdk-tool"][0];
    let hf = data["host_functions"].as_array().unwrap();
    // AMD's test_host_functions_json: element 0 is skipped (id 0), every other one names a kernel
    // and a code object inside their arrays, and its truncated name is its kernel's.
    assert_eq!(hf.len(), 2);
    assert_eq!(hf[0]["host_function_id"], 0);
    assert_eq!(
        hf[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        hf[1].as_object().unwrap().keys().collect::<Vec<_>>()
    );
    let h = &hf[1];
    assert_eq!(h["host_function_id"], 1);
    let kid = h["kernel_id"].as_u64().unwrap();
    assert!(kid > 0 && (kid as usize) <= data["kernel_symbols"].as_array().unwrap().len());
    let coid = h["code_object_id"].as_u64().unwrap();
    assert!(coid > 0 && (coid as usize) <= data["code_objects"].as_array().unwrap().len());
    assert_eq!(h["truncated_host_function_name"], data["kernel_symbols"][kid as usize]["truncated_kernel_name"]);
    // rocprofiler-sdk save.hpp: addresses as {handle}, dims as {x, y, z}, the raw device name.
    assert_eq!(h["host_function"]["handle"], 0x40_1000);
    assert_eq!(h["modules"]["handle"], 0x60_2000);
    assert_eq!(h["device_function"], "_Z6kernelv");
    assert_eq!(h["demangled_host_function_name"], "kernel()");
    assert_eq!(h["block_dims"], serde_json::json!({ "x": 4, "y": 5, "z": 6 }));
    assert_eq!((h["thread_limit"].as_u64(), h["workgroup_size"].as_u64()), (Some(3), Some(64)));

    // Without registrations rocprofv3 still writes element 0.
    let dir = scratch("json-no-host-functions");
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::new(OutputLocation::new(&dir, "")))];
    let files = write_trace(&synthetic::trace(2), &mut w, Progress::Hidden).unwrap();
    let doc = read_valid(&files[0]);
    let hf = doc["rocprofiler-sdk-tool"][0]["host_functions"].as_array().unwrap().clone();
    assert_eq!(hf.len(), 1);
    assert_eq!(hf[0]["host_function_id"], 0);
}

#[test]
fn without_code_objects_the_id_indexed_arrays_still_have_element_0() {
    // rocprofv3 sizes `code_objects`, `kernel_symbols` (largest id + 1, metadata.cpp) and
    // `host_functions` (count + 1) from 0: a run that loaded no GPU code still writes one blank
    // element each, with the keys of a real one.
    let mut full = synthetic::trace(2);
    let k = &full.kernel_symbols[0];
    let hf = rocprof_model::HostFunction { id: 1, kernel: k.id, code_object: k.code_object, ..Default::default() };
    full.host_functions.push(hf);
    let mut trace = full.clone();
    trace.code_objects.clear();
    trace.kernel_symbols.clear();
    trace.host_functions.clear();
    // (The dispatches stay: a process without any record writes no file.)
    let write = |trace: &rocprof_model::Trace, name: &str| {
        let dir = scratch(name);
        let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::new(OutputLocation::new(&dir, "")))];
        let files = write_trace(trace, &mut w, Progress::Hidden).unwrap();
        read_valid(&files[0])["rocprofiler-sdk-tool"][0].clone()
    };
    let (empty, reference) = (write(&trace, "json-no-code"), write(&full, "json-code"));
    for key in ["code_objects", "kernel_symbols", "host_functions"] {
        let arr = empty[key].as_array().unwrap_or_else(|| panic!("{key}: {}", empty[key]));
        assert_eq!(arr.len(), 1, "{key}: {arr:?}");
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&arr[0]), keys(&reference[key][1]), "{key}");
        assert_eq!(arr[0], reference[key][0], "{key}: the blank element is the one a full run writes at 0");
    }
    // generateJSON.cpp: the snapshot names are indexed by code object id from 0 too ([""] without
    // --att); the thread-trace file list is plain.
    assert_eq!(empty["strings"]["code_object_snapshot_filenames"], serde_json::json!([""]));
    assert_eq!(empty["strings"]["att_filenames"], serde_json::json!([]));
}

#[test]
fn att_files_are_listed_by_name_and_code_object_snapshots_by_id() {
    let dir = scratch("json-att");
    let opts = JsonOptions {
        att_filenames: vec!["out_gfx90a_shader_engine_0_1.att".into(), "out_gfx90a_shader_engine_1_1.att".into()],
        code_object_snapshots: [(2, "out_gfx90a_code_object_id_2.out".to_string())].into(),
        ..Default::default()
    };
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::with_options(OutputLocation::new(&dir, "out"), opts))];
    let files = write_trace(&synthetic::trace(2), &mut w, Progress::Hidden).unwrap();
    let strings = &read_valid(&files[0])["rocprofiler-sdk-tool"][0]["strings"];
    assert_eq!(
        strings["att_filenames"],
        serde_json::json!(["out_gfx90a_shader_engine_0_1.att", "out_gfx90a_shader_engine_1_1.att"])
    );
    // AMD's ATT validator reads element 1.. as files next to the JSON and finds the gfx name in them.
    assert_eq!(
        strings["code_object_snapshot_filenames"],
        serde_json::json!(["", "", "out_gfx90a_code_object_id_2.out"])
    );
}

#[test]
fn without_stats_there_is_no_summary() {
    let dir = scratch("json-no-summary");
    let mut w: Vec<Box<dyn Writer>> = vec![Box::new(JsonWriter::new(OutputLocation::new(&dir, "")))];
    let files = write_trace(&synthetic::trace(3), &mut w, Progress::Hidden).unwrap();
    assert_eq!(files, [dir.join("results.json")]);
    let doc = read_valid(&files[0]);
    assert!(doc["rocprofiler-sdk-tool"][0].get("summary").is_none());
}

#[test]
fn host_records_of_a_sys_trace_are_written_per_domain_linked_and_valid() {
    use rocprof_writers::{write_stream, StreamOptions};
    let dir = scratch("json-sys");
    let mut w =
        JsonWriter::with_options(OutputLocation::new(&dir, "sys"), JsonOptions { summary: true, ..Default::default() });
    let outcome = write_stream(
        &mut synthetic::Source::sys_trace(3000),
        &mut [&mut w],
        &rocprof_writers::StreamOptions { progress: Progress::Hidden, ..StreamOptions::default() },
    )
    .unwrap();
    let expected = rocprof_model::Trace::collect(&mut synthetic::Source::sys_trace(3000)).unwrap();
    let files = outcome.into_result().unwrap();
    let doc = read_valid(&files[0]);
    let p = &doc["rocprofiler-sdk-tool"][0];
    let br = &p["buffer_records"];
    let len = |name: &str| br[name].as_array().unwrap().len();
    let hip = expected.api_calls.iter().filter(|a| a.domain == rocprof_model::ApiDomain::HipRuntime).count();
    assert_eq!(len("hip_api"), hip);
    assert_eq!(len("hsa_api"), expected.api_calls.len() - hip);
    assert_eq!(len("kernel_dispatch"), expected.dispatches.len());
    assert_eq!(len("memory_copy"), expected.memory_copies.len());
    assert_eq!(len("memory_allocation"), expected.memory_allocations.len());
    assert_eq!(
        len("hip_api") + len("hsa_api") + len("kernel_dispatch") + len("memory_copy") + len("memory_allocation"),
        3000
    );

    // Names resolve through strings.buffer_records, as AMD's validate.py does it.
    let strings = &p["strings"]["buffer_records"];
    let name = |r: &Value| {
        let k = &strings[r["kind"].as_u64().unwrap() as usize];
        (k["kind"].as_str().unwrap().to_string(), k["operations"][r["operation"].as_u64().unwrap() as usize].clone())
    };
    for r in br["hsa_api"].as_array().unwrap() {
        assert_eq!(name(r), ("HSA_CORE_API".to_string(), Value::from("hsa_signal_store_screlease")));
        assert_ne!(r["correlation_id"]["ancestor"], 0, "the doorbell store is inside its launch");
    }
    let launches: std::collections::HashMap<u64, &Value> = br["hip_api"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| name(r).1 == "hipLaunchKernel")
        .map(|r| (r["correlation_id"]["internal"].as_u64().unwrap(), r))
        .collect();
    assert_eq!(name(launches.values().next().unwrap()).0, "HIP_RUNTIME_API_EXT");
    // Every dispatch links to its launch by correlation id, on the launching thread.
    for d in br["kernel_dispatch"].as_array().unwrap() {
        let launch = launches[&d["correlation_id"]["internal"].as_u64().unwrap()];
        assert_eq!(launch["thread_id"], d["thread_id"]);
    }
    let copy = &br["memory_copy"][0];
    assert_eq!(name(copy), ("MEMORY_COPY".to_string(), Value::from("MEMORY_COPY_HOST_TO_DEVICE")));
    assert_eq!((copy["src_agent_id"]["handle"].as_u64(), copy["dst_agent_id"]["handle"].as_u64()), (Some(0), Some(1)));
    let alloc = &br["memory_allocation"][0];
    assert_eq!(name(alloc), ("MEMORY_ALLOCATION".to_string(), Value::from("MEMORY_ALLOCATION_ALLOCATE")));
    assert_eq!(alloc["allocation_size"], 1 << 20);
    // summary: every domain with records, in rocprofv3's order.
    let domains: Vec<&str> = p["summary"].as_array().unwrap().iter().map(|d| d["domain"].as_str().unwrap()).collect();
    assert_eq!(domains, ["HSA_API", "HIP_API", "KERNEL_DISPATCH", "MEMORY_COPY", "MEMORY_ALLOCATION"]);
}
