//! The CSV headers (`schemas/csv/*.columns`) against rocprofv3's: every header list of AMD's
//! `generateCSV.cpp` (rocprofiler-sdk `source/lib/output/`, read from `ROCPD_MIRROR`), so a
//! script or validator reading rocprofv3's columns by name or position reads ours.

use rocprof_writers::schema::{
    columns, AGENT_INFO_COLUMNS, API_TRACE_COLUMNS, COUNTER_COLLECTION_COLUMNS, KERNEL_TRACE_COLUMNS,
    MEMORY_ALLOCATION_TRACE_COLUMNS, MEMORY_COPY_TRACE_COLUMNS, SCRATCH_MEMORY_TRACE_COLUMNS, STATS_COLUMNS,
};

const GENERATE_CSV: &str = "projects/rocprofiler-sdk/source/lib/output/generateCSV.cpp";

/// Every `csv::<encoder>{}, { "A", "B", ... }` header list of the C++ source, with its encoder.
fn amd_headers(src: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find("_encoder{},") {
        let before = &rest[..at];
        let encoder = before[before.rfind("::").map_or(0, |i| i + 2)..].to_string() + "_encoder";
        let after = &rest[at + "_encoder{},".len()..];
        let open = after.find('{').expect("a header list follows the encoder");
        let close = open + after[open..].find('}').expect("the list closes");
        let names = after[open + 1..close]
            .split(',')
            .map(|t| t.trim().trim_matches('"').to_string())
            .filter(|t| !t.is_empty())
            .collect();
        out.push((encoder, names));
        rest = &after[close..];
    }
    out
}

#[test]
fn csv_headers_are_rocprofv3s_generate_csv_lists() {
    let Some(src) = rocprof_test_inputs::amd_source("writers csv columns", GENERATE_CSV) else { return };
    let amd = amd_headers(&src);
    assert!(amd.len() >= 10, "AMD's source changed shape: {} header lists", amd.len());
    // counter_collection_stats.csv is ours alone (rocprofv3's generate_stats returns no entry for
    // counter records), so it has no AMD list to match.
    for (file, list, encoder) in [
        ("agent_info", AGENT_INFO_COLUMNS, "agent_info_csv_encoder"),
        ("*_api_trace", API_TRACE_COLUMNS, "api_csv_encoder"),
        ("marker_api_trace", API_TRACE_COLUMNS, "marker_csv_encoder"),
        ("counter_collection", COUNTER_COLLECTION_COLUMNS, "counter_collection_csv_encoder"),
        ("kernel_trace", KERNEL_TRACE_COLUMNS, "kernel_trace_with_stream_csv_encoder"),
        ("memory_allocation_trace", MEMORY_ALLOCATION_TRACE_COLUMNS, "memory_allocation_csv_encoder"),
        ("memory_copy_trace", MEMORY_COPY_TRACE_COLUMNS, "memory_copy_with_stream_csv_encoder"),
        ("scratch_memory_trace", SCRATCH_MEMORY_TRACE_COLUMNS, "scratch_memory_encoder"),
        ("*_stats", STATS_COLUMNS, "stats_csv_encoder"),
    ] {
        let ours: Vec<String> = columns(list).into_iter().map(str::to_string).collect();
        let theirs: Vec<&Vec<String>> = amd.iter().filter(|(e, _)| e == encoder).map(|(_, l)| l).collect();
        assert!(!theirs.is_empty(), "{file}: no {encoder} header in AMD's {GENERATE_CSV}");
        assert!(theirs.iter().all(|l| **l == ours), "{file}: ours {ours:?}\nAMD's {theirs:?}");
    }
}
