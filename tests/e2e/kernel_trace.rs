//! `rocprof-rs --simulate <gfx> --kernel-trace --stats -f rocpd csv` on `vector_add`: exit status,
//! one kernel row per dispatch the application made, in both outputs, under both table ABIs and
//! on every simulated target.

use rocprof_e2e::{db_process_window, find_one, kernel_descriptor, read_csv, stage, TARGETS};
use rocprof_launch::names;
use rocprof_model::capture::{accum_vgpr_count, arch_vgpr_count, sgpr_count};

use crate::common::{consistent_kernel_rows, kernel_trace, vector_add_sizes};

fn vector_add(test: &str, gpu: &str, abi: &str, n: u64) {
    let Some(stage) = stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else {
        return;
    };
    let env = vec![(names::SIM_ABI.to_string(), abi.to_string())];
    let n_s = n.to_string();
    let p = kernel_trace(&stage, gpu, &app, &[&n_s], &env);
    assert!(p.run.status.success(), "{gpu} {abi}: vector_add under rocprof-rs failed:\n{}", p.run.transcript());
    assert!(p.run.stdout.contains("vector_add: ok"), "{gpu} {abi}: application output:\n{}", p.run.transcript());
    assert!(
        p.run.stdout.contains(&format!("{n}/{n} dispatches completed")),
        "{gpu} {abi}: the application did not complete its dispatches:\n{}",
        p.run.transcript()
    );
    let (work_items, wg) = vector_add_sizes(&p.run.stdout);
    let (csv, db) = consistent_kernel_rows(&p);
    assert_eq!(db.len() as u64, n, "{gpu} {abi}: {} kernel rows for {n} dispatches", db.len());
    for (row, k) in csv.rows.iter().zip(&db) {
        assert_eq!(k.name, "vector_add", "{gpu} {abi}");
        assert_eq!(k.grid, [work_items, 1, 1], "{gpu} {abi}");
        assert_eq!(k.workgroup, [wg, 1, 1], "{gpu} {abi}");
        assert_eq!(row["Kind"], "KERNEL_DISPATCH");
    }
    let ids: Vec<u64> = db.iter().map(|k| k.dispatch_id).collect();
    // GPU times are in the host clock the runtime uses (CLOCK_BOOTTIME, or CLOCK_MONOTONIC_RAW
    // on 5.2), the same clock the tool timestamps the process with.
    let (p_start, p_end) = db_process_window(&find_one(&p.out, ".db"));
    for k in &db {
        assert!(
            p_start <= k.start && k.end <= p_end,
            "{gpu} {abi}: dispatch {} [{}, {}] lies outside the process [{p_start}, {p_end}]",
            k.dispatch_id,
            k.start,
            k.end
        );
    }
    assert_eq!(ids, (1..=n).collect::<Vec<_>>(), "{gpu} {abi}: dispatch ids");
    // Register counts: what rocprofiler-sdk derives from the kernel descriptor in the code object
    // the application loaded.
    let co = stage.dir.join("fixtures").join("kernels").join(format!("vector_add-{gpu}.co"));
    let kd = kernel_descriptor(&co, "vector_add.kd")
        .unwrap_or_else(|| panic!("no vector_add.kd descriptor in {}", co.display()));
    let word = |o: usize| u32::from_le_bytes(kd[o..o + 4].try_into().unwrap());
    let (rsrc3, rsrc1, props) = (word(44), word(48), u32::from(u16::from_le_bytes([kd[56], kd[57]])));
    let expected =
        [arch_vgpr_count(gpu, rsrc1, rsrc3, props), accum_vgpr_count(gpu, rsrc1, rsrc3, props), sgpr_count(gpu, rsrc1)];
    for row in &csv.rows {
        let got = ["VGPR_Count", "Accum_VGPR_Count", "SGPR_Count"].map(|c| row[c].parse::<u32>().unwrap());
        assert_eq!(got, expected, "{gpu} {abi}: VGPR/AGPR/SGPR counts");
    }
    let stats = read_csv(&find_one(&p.out, "kernel_stats.csv"));
    let row = stats
        .rows
        .iter()
        .find(|r| r["Name"] == "vector_add")
        .unwrap_or_else(|| panic!("no vector_add in kernel_stats.csv: {stats:?}"));
    assert_eq!(row["Calls"], n.to_string());
    let agents = read_csv(&find_one(&p.out, "agent_info.csv"));
    assert!(
        agents.rows.iter().any(|r| r["Agent_Type"] == "GPU" && r["Name"] == gpu),
        "{gpu}: agent_info.csv: {agents:?}"
    );
}

#[test]
fn vector_add_rows_match_dispatches_newest_abi() {
    vector_add("vector_add_rows_match_dispatches_newest_abi", "gfx942", "newest", 100);
}

#[test]
fn vector_add_rows_match_dispatches_rocm_5_2_abi() {
    vector_add("vector_add_rows_match_dispatches_rocm_5_2_abi", "gfx942", "5.2", 100);
}

#[test]
fn vector_add_on_every_simulated_target_and_abi() {
    for gpu in TARGETS.iter() {
        for abi in ["newest", "5.2"] {
            vector_add("vector_add_on_every_simulated_target_and_abi", gpu, abi, 20);
        }
    }
}
