//! What the rocpd views say equals what the CSV files say, row for row.

use rocprof_writers::csv::CsvWriter;
use rocprof_writers::rocpd::RocpdWriter;
use rocprof_writers::stats::KernelStatsWriter;
use rocprof_writers::{synthetic, write_trace, OutputLocation, Progress, Writer};
use rusqlite::Connection;

use crate::scratch;

fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect();
    (header, rows)
}

#[test]
fn kernels_view_and_kernel_trace_csv_agree() {
    let dir = scratch("views-csv");
    let mut trace = synthetic::trace(500);
    // A dispatch whose kernel symbol record was lost: both outputs keep it, with an empty name.
    trace.dispatches[250].kernel = rocprof_model::KernelId(99);
    let out = OutputLocation::new(&dir, "run");
    let mut writers: Vec<Box<dyn Writer>> = vec![
        Box::new(RocpdWriter::new(out.clone())),
        Box::new(CsvWriter::new(out.clone())),
        Box::new(KernelStatsWriter::new(out.clone())),
    ];
    let files = write_trace(&trace, &mut writers, Progress::Hidden).unwrap();
    let names: Vec<String> = files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        [
            "run_results.db",
            "run_kernel_trace.csv",
            "run_agent_info.csv",
            "run_run_health.csv",
            "run_kernel_stats.csv",
            "run_domain_stats.csv"
        ]
    );

    let (header, rows) = read_csv(&out.file("kernel_trace.csv"));
    assert_eq!(header.len(), 22);
    assert_eq!(rows.len(), 500);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));

    let conn = Connection::open(out.file("results.db")).unwrap();
    let mut st = conn
        .prepare(
            "SELECT dispatch_id, kernel_id, name, queue_id, tid, start, end, grid_x, grid_y, grid_z,
                    workgroup_x, workgroup_y, workgroup_z, scratch_size, vgpr_count, sgpr_count, stack_id,
                    'Agent ' || agent_log_index
               FROM kernels ORDER BY dispatch_id",
        )
        .unwrap();
    let view: Vec<Vec<String>> = st
        .query_map([], |r| {
            (0..18)
                .map(|i| {
                    r.get_ref(i).map(|v| match v {
                        rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                        rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                        other => format!("{other:?}"),
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(view.len(), rows.len());
    let csv_cols = [
        "Dispatch_Id",
        "Kernel_Id",
        "Kernel_Name",
        "Queue_Id",
        "Thread_Id",
        "Start_Timestamp",
        "End_Timestamp",
        "Grid_Size_X",
        "Grid_Size_Y",
        "Grid_Size_Z",
        "Workgroup_Size_X",
        "Workgroup_Size_Y",
        "Workgroup_Size_Z",
        "Scratch_Size",
        "VGPR_Count",
        "SGPR_Count",
        "Correlation_Id",
        "Agent_Id",
    ];
    for (v, c) in view.iter().zip(&rows) {
        let from_csv: Vec<&str> = csv_cols.iter().map(|n| c[col(n)].as_str()).collect();
        assert_eq!(v.iter().map(String::as_str).collect::<Vec<_>>(), from_csv);
    }

    // top_kernels (microseconds) against kernel_stats.csv (nanoseconds).
    let (sh, stats) = read_csv(&out.file("kernel_stats.csv"));
    assert_eq!(sh, ["Name", "Calls", "TotalDurationNs", "AverageNs", "Percentage", "MinNs", "MaxNs", "StdDev"]);
    let mut st = conn.prepare("SELECT name, total_calls, total_duration FROM top_kernels").unwrap();
    let top: Vec<(String, i64, f64)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(top.len(), stats.len());
    assert_eq!(top.len(), synthetic::KERNELS.len() + 1, "the nameless kernel is its own entry");
    for ((name, calls, total_us), s) in top.iter().zip(&stats) {
        assert_eq!(name, &s[0]);
        assert_eq!(calls.to_string(), s[1]);
        let total_ns: f64 = s[2].parse().unwrap();
        assert!((total_us * 1000.0 - total_ns).abs() < 0.5, "{name}: {total_us} us vs {total_ns} ns");
    }

    // agent_info.csv: one row per agent, CPU first.
    let (ah, agents) = read_csv(&out.file("agent_info.csv"));
    assert_eq!(ah.len(), 53);
    assert_eq!(agents.len(), 2);
    assert_eq!(agents[0][2], "CPU");
    assert_eq!(agents[1][2], "GPU");
    assert_eq!(agents[1][ah.iter().position(|h| h == "Name").unwrap()], "gfx942");
    let db_agents: i64 = conn.query_row("SELECT COUNT(*) FROM rocpd_info_agent", [], |r| r.get(0)).unwrap();
    assert_eq!(db_agents, 2);
}

#[test]
fn kernel_trace_rows_use_rocprofv3_quoting_and_lds_rounding() {
    let dir = scratch("csv-format");
    let mut trace = synthetic::trace(8);
    // LDS_Block_Size comes from the symbol's static LDS (512 for saxpy), not the packet's.
    trace.dispatches[1].group_segment_size = 4096;
    let out = OutputLocation::new(&dir, "");
    let mut writers: Vec<Box<dyn Writer>> = vec![Box::new(CsvWriter::new(out.clone()))];
    write_trace(&trace, &mut writers, Progress::Hidden).unwrap();
    let text = std::fs::read_to_string(out.file("kernel_trace.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\""
    );
    let d = &trace.dispatches[1];
    let expected = format!(
        "\"KERNEL_DISPATCH\",\"Agent 1\",2,0,{},2,2,\"saxpy\",2,{},{},512,0,12,0,16,256,1,1,1048576,1,1",
        d.thread, d.start.ns, d.end.ns
    );
    assert_eq!(lines.nth(1).unwrap(), expected);
    assert!(text.ends_with('\n') && !text.contains("\r"));
}

#[test]
fn no_dispatches_means_no_csv_files() {
    let dir = scratch("csv-empty");
    let trace = synthetic::trace(0);
    let out = OutputLocation::new(&dir, "x");
    let mut writers: Vec<Box<dyn Writer>> =
        vec![Box::new(CsvWriter::new(out.clone())), Box::new(KernelStatsWriter::new(out.clone()))];
    let files = write_trace(&trace, &mut writers, Progress::Hidden).unwrap();
    assert!(files.is_empty(), "{files:?}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
