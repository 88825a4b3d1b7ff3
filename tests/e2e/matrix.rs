//! Matrix cores through a real library: Debian sid's rocBLAS 6.4 (`librocblas-dev`, Tensile kernels with
//! `v_mfma_*` on gfx908/gfx90a and `v_wmma_*` on gfx1100) called by `fixtures/hip6/hip6_rocblas_gemm`
//! inside the sid chroot on hsa-sim. The program compares every element of each 128x128x128 GEMM with a
//! host GEMM (exact: small-integer inputs); the test also requires that no dispatch fell back to the
//! timing-only model (a fallback leaves the output unwritten, which the program would report too).

use rocprof_launch::names;
use std::collections::HashMap;

use rocprof_e2e::{find_one, read_csv, scratch, ScratchGuard};

use crate::common::hip6_fixture;
use crate::sid::run_checked;

/// Runs the GEMM program on `gpu` with the GEMMs `which` (comma list) and checks each reported
/// `wrong=0`.
fn gemms_on(test: &str, gpu: &str, which: &str) {
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_rocblas_gemm", test) else { return };
    let r = run_checked(&stage, &root, &app, gpu, &["1", "128", which], None);
    for g in which.split(',') {
        let line = format!("gemm {g}: wrong=0 of 16384");
        assert!(r.stdout.contains(&line), "{gpu}: no `{line}`:\n{}", r.transcript());
    }
}

#[test]
fn rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx90a() {
    gemms_on(
        "rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx90a",
        "gfx90a",
        "sgemm,dgemm,hgemm,gemm_ex_f16,gemm_ex_bf16",
    );
}

#[test]
fn rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx908() {
    gemms_on(
        "rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx908",
        "gfx908",
        "sgemm,dgemm,hgemm,gemm_ex_f16,gemm_ex_bf16",
    );
}

#[test]
fn rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx1100() {
    gemms_on(
        "rocblas_sgemm_dgemm_hgemm_and_gemm_ex_f16_bf16_compute_the_host_gemm_on_gfx1100",
        "gfx1100",
        "sgemm,dgemm,hgemm,gemm_ex_f16,gemm_ex_bf16",
    );
}

/// Runs the hand-written builtin kernels on `gpu` and checks every kernel's `wrong=0` line.
fn builtins_on(test: &str, gpu: &str, kernels: &[&str]) {
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_matrix_builtins", test) else { return };
    let r = run_checked(&stage, &root, &app, gpu, &["1"], None);
    for k in kernels {
        let line = format!("matrix {k}: wrong=0 of 256");
        assert!(r.stdout.contains(&line), "{gpu}: no `{line}`:\n{}", r.transcript());
    }
}

#[test]
fn mfma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx90a_and_gfx942() {
    let test = "mfma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx90a_and_gfx942";
    let common = [
        "mfma_f32_16x16x4f32",
        "mfma_f32_16x16x16f16",
        "mfma_f32_16x16x16bf16_1k",
        "mfma_f64_16x16x4f64",
        "mfma_f32_4x4x1f32",
    ];
    builtins_on(test, "gfx90a", &[&common[..], &["mfma_i32_16x16x16i8"]].concat());
    builtins_on(test, "gfx942", &[&common[..], &["mfma_i32_16x16x32_i8"]].concat());
}

#[test]
fn wmma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx1100() {
    builtins_on(
        "wmma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx1100",
        "gfx1100",
        &["wmma_f32_16x16x16_f16_w32", "wmma_i32_16x16x16_iu8_w32"],
    );
}

#[test]
fn wmma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx1201() {
    builtins_on(
        "wmma_builtins_built_by_hipcc_7_compute_the_host_results_on_gfx1201",
        "gfx1201",
        &["wmma_f32_16x16x16_f16_w32_gfx12", "wmma_i32_16x16x16_iu8_w32_gfx12"],
    );
}

/// The matrix-instruction shape in a Tensile kernel name (`..._MI16x16x4x1_...`: M, N, K, blocks).
/// `None` for a kernel without one (`_MIAV0_` is another field).
fn tensile_shape(kernel: &str) -> Option<[u64; 4]> {
    kernel.match_indices("_MI").find_map(|(at, _)| {
        let field = kernel[at + 3..].split('_').next()?;
        let dims: Vec<u64> = field.split('x').map(|d| d.parse().ok()).collect::<Option<_>>()?;
        (dims.len() >= 3).then(|| [dims[0], dims[1], dims[2], dims.get(3).copied().unwrap_or(1)])
    })
}

/// `rocprof-rs --pmc` on rocBLAS GEMMs on gfx90a: the MFMA operations the counters report
/// (`SQ_INSTS_VALU_MFMA_MOPS_<type>` x 512, the counter database's definition) are exactly the GEMM's
/// 2*M*N*K, `SQ_INSTS_MFMA` times the operations of the shape Tensile's kernel name gives is the same,
/// and `SQ_VALU_MFMA_BUSY_CYCLES` is `SQ_INSTS_MFMA` times that shape's pass cycles (AMD's matrix
/// instruction calculator, CDNA2: 32 for 16x16, 64 for 32x32 shapes, f64 16x16x4: 32).
#[test]
fn pmc_mfma_counters_of_rocblas_gemms_match_the_gemms_operations_on_gfx90a() {
    let test = "pmc_mfma_counters_of_rocblas_gemms_match_the_gemms_operations_on_gfx90a";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_rocblas_gemm", test) else { return };
    let flops = 2 * 128u64.pow(3);
    // hgemm is left out: on gfx90a rocBLAS 6.4 runs it with a kernel without `_MI<shape>` (no MFMA;
    // its counters read 0), so gemm_ex f16 -> f32 stands for the f16 type.
    for (gemm, ty) in [("sgemm", "F32"), ("dgemm", "F64"), ("gemm_ex_f16", "F16"), ("gemm_ex_bf16", "BF16")] {
        let out = scratch("mfma-pmc");
        let _cleanup = ScratchGuard(out.clone());
        let mops = format!("SQ_INSTS_VALU_MFMA_MOPS_{ty}");
        let cli = ["--pmc", "SQ_INSTS_MFMA", "SQ_VALU_MFMA_BUSY_CYCLES", mops.as_str(), "-f", "csv"];
        let r = run_checked(&stage, &root, &app, "gfx90a", &["1", "128", gemm], Some((&cli, &out)));
        let csv = read_csv(&find_one(&out, "counter_collection.csv"));
        let mut sums: HashMap<String, u64> = HashMap::new();
        let mut shapes = Vec::new();
        for row in &csv.rows {
            let v: f64 = row["Counter_Value"].parse().unwrap();
            let Some(shape) = tensile_shape(&row["Kernel_Name"]) else {
                // Kernels without matrix instructions (rocBLAS's helpers) count none.
                assert_eq!(v, 0.0, "{gemm}: {} of {}", row["Counter_Name"], row["Kernel_Name"]);
                continue;
            };
            *sums.entry(row["Counter_Name"].clone()).or_default() += v as u64;
            shapes.push(shape);
        }
        shapes.dedup();
        assert_eq!(shapes.len(), 1, "{gemm}: one MFMA kernel shape expected: {shapes:?}\n{}", r.transcript());
        let [m, n, k, b] = shapes[0];
        assert_eq!(sums.get(&mops).copied().unwrap_or(0) * 512, flops, "{gemm}: {mops} x 512 ({sums:?})");
        let insts = sums["SQ_INSTS_MFMA"];
        assert_eq!(insts * 2 * m * n * k * b, flops, "{gemm}: SQ_INSTS_MFMA x ops of MI{m}x{n}x{k}x{b} ({sums:?})");
        let cycles = match (ty, m) {
            ("F64", 4) => 16,
            ("F64", _) => 32,
            (_, 4) => 8,
            (_, 16) => 32,
            _ => 64,
        };
        assert_eq!(sums["SQ_VALU_MFMA_BUSY_CYCLES"], insts * cycles, "{gemm}: busy cycles of MI{m}x{n}x{k}x{b}");
    }
}

/// `rocprof-rs --att` on rocBLAS GEMMs on gfx90a: the thread trace of Tensile's kernel (a code object
/// rocBLAS loads from its `.co` files with `hipModuleLoad`, whose function symbols carry no size) has
/// traced waves, and its hotspot listing (rocprofv3's `stats_ui_output_*.csv`) holds the kernel's
/// `v_mfma_*` instructions with hit counts that are the GEMM's: the whole GEMM takes
/// `2*M*N*K / ops(shape)` matrix instructions (the shape from Tensile's kernel name), spread evenly over
/// the dispatch's waves (grid and workgroup from the kernel trace), so every traced wave executes
/// `that / waves` of them.
#[test]
fn att_hotspots_of_rocblas_gemms_list_the_executed_mfma_instructions_on_gfx90a() {
    let test = "att_hotspots_of_rocblas_gemms_list_the_executed_mfma_instructions_on_gfx90a";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_rocblas_gemm", test) else { return };
    let flops = 2 * 128u64.pow(3);
    for gemm in ["sgemm", "dgemm", "gemm_ex_f16"] {
        let out = scratch("mfma-att");
        let _cleanup = ScratchGuard(out.clone());
        // CU 0: a GEMM of 8 workgroups (gemm_ex_f16's MT64x32) puts none on the default target CU 1.
        let cli = ["--att", "--att-target-cu", "0", "--att-decoder", "native", "--kernel-trace", "-f", "csv"];
        let r = run_checked(&stage, &root, &app, "gfx90a", &["1", "128", gemm], Some((&cli, &out)));
        let trace = read_csv(&find_one(&out, "kernel_trace.csv"));
        let mut checked = 0;
        for stats in rocprof_e2e::find_files(&out, ".csv")
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("stats_ui_output_agent_")))
        {
            let csv = read_csv(&stats);
            // The first row names the kernel (`; <name>`), as rocprofv3's listing does.
            let Some(kernel) = csv.rows.first().and_then(|r| r["Instruction"].strip_prefix("; ")) else { continue };
            let Some([m, n, k, b]) = tensile_shape(kernel) else { continue };
            let dispatch = trace
                .rows
                .iter()
                .find(|row| row["Kernel_Name"] == kernel)
                .unwrap_or_else(|| panic!("{gemm}: {kernel} not in the kernel trace"));
            let num = |c: &str| dispatch[c].parse::<u64>().unwrap();
            let size = |what: &str| ["X", "Y", "Z"].iter().map(|d| num(&format!("{what}_Size_{d}"))).product::<u64>();
            let waves = size("Grid") / size("Workgroup") * size("Workgroup").div_ceil(64);
            let per_wave = flops / (2 * m * n * k * b) / waves;
            let dir = stats.with_file_name(
                stats.file_name().unwrap().to_string_lossy().trim_start_matches("stats_").trim_end_matches(".csv"),
            );
            let traced = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains("_wv"))
                .count() as u64;
            assert!(traced > 0, "{gemm}: no traced wave of {kernel}:\n{}", r.transcript());
            let mfma: Vec<(&str, u64)> = csv
                .rows
                .iter()
                .filter(|row| row["Instruction"].starts_with("v_mfma_"))
                .map(|row| (row["Instruction"].as_str(), row["Hitcount"].parse().unwrap()))
                .collect();
            let hits: u64 = mfma.iter().map(|(_, h)| h).sum();
            assert_eq!(hits, traced * per_wave, "{gemm}: MFMA hits of {traced} traced waves of {kernel}: {mfma:?}");
            let wanted = format!("{m}x{n}x{k}");
            assert!(mfma.iter().all(|(i, _)| i.contains(&wanted)), "{gemm}: MI{wanted} expected: {mfma:?}");
            assert!(r.stdout.contains(kernel), "{gemm}: the hotspot report names {kernel}:\n{}", r.stdout);
            checked += 1;
        }
        assert_eq!(checked, 1, "{gemm}: one traced MFMA kernel expected:\n{}", r.transcript());
    }
}

/// The code object for `triple_suffix` (`gfx90a`) inside a HIP program's `.hip_fatbin` (a clang offload
/// bundle: magic, entry count, then offset, size, triple length and triple per entry).
fn bundled_code_object(program: &[u8], triple_suffix: &str) -> Option<Vec<u8>> {
    const MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
    let at = program.windows(MAGIC.len()).position(|w| w == MAGIC)?;
    let u64_at = |o: usize| u64::from_le_bytes(program[o..o + 8].try_into().unwrap()) as usize;
    let mut p = at + MAGIC.len() + 8;
    for _ in 0..u64_at(at + MAGIC.len()).min(64) {
        let (off, size, len) = (u64_at(p), u64_at(p + 8), u64_at(p + 16));
        let triple = String::from_utf8_lossy(&program[p + 24..p + 24 + len]).into_owned();
        p += 24 + len;
        if triple.ends_with(triple_suffix) {
            return Some(program[at + off..at + off + size].to_vec());
        }
    }
    None
}

/// Pass cycles of the CDNA2 MFMAs in `hip6_matrix_builtins` (AMD's matrix instruction calculator,
/// `-a CDNA2 -d`, "Execution cycles").
fn cdna2_passes(mnemonic: &str) -> u64 {
    match mnemonic {
        "v_mfma_f32_4x4x1f32" => 8,
        "v_mfma_f32_16x16x4f32"
        | "v_mfma_f32_16x16x16f16"
        | "v_mfma_f32_16x16x16bf16_1k"
        | "v_mfma_f64_16x16x4f64"
        | "v_mfma_i32_16x16x16i8" => 32,
        other => panic!("no pass count for {other}"),
    }
}

/// `rocprof-rs --pmc SQ_INSTS_MFMA SQ_VALU_MFMA_BUSY_CYCLES` on the builtin kernels (gfx90a), with the
/// interpreter executing the kernels and with execution off (`ROCPROF_RS_SIM_EXEC=off`: the counters come
/// from the static walk of the code). The oracle is LLVM's disassembly (`llvm-objdump-19`) of the
/// program's gfx90a code object: for each kernel without a branch (every instruction runs once per wave)
/// `SQ_INSTS_MFMA` is the waves times its `v_mfma_*` lines and `SQ_VALU_MFMA_BUSY_CYCLES` the waves
/// times the sum of their pass cycles; both paths must give that.
#[test]
fn pmc_mfma_counters_equal_the_disassemblys_mfma_count_with_execution_on_and_off_on_gfx90a() {
    let test = "pmc_mfma_counters_equal_the_disassemblys_mfma_count_with_execution_on_and_off_on_gfx90a";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some((root, app)) = hip6_fixture(&stage, "hip6_matrix_builtins", test) else { return };
    let dir = scratch("mfma-objdump");
    let _dir = ScratchGuard(dir.clone());
    let co = bundled_code_object(&std::fs::read(&app).unwrap(), "gfx90a").expect("a gfx90a code object");
    std::fs::create_dir_all(&dir).unwrap();
    let co_path = dir.join("gfx90a.co");
    std::fs::write(&co_path, co).unwrap();
    let Ok(dis) = std::process::Command::new("llvm-objdump-19").args(["-d", "--mcpu=gfx90a"]).arg(&co_path).output()
    else {
        rocprof_test_inputs::skip_or_fail(test, "llvm-objdump-19 not found (Debian package llvm-19)");
        return;
    };
    assert!(dis.status.success(), "llvm-objdump-19: {}", String::from_utf8_lossy(&dis.stderr));
    // Per kernel (mangled name): MFMA mnemonics, and whether it branches.
    let mut kernels: Vec<(String, Vec<String>, bool)> = Vec::new();
    for line in String::from_utf8_lossy(&dis.stdout).lines() {
        if let Some(name) = line.split_once(" <").and_then(|(_, r)| r.strip_suffix(">:")) {
            kernels.push((name.to_string(), Vec::new(), false));
        } else if let (Some(k), Some(m)) = (kernels.last_mut(), line.split_whitespace().next()) {
            if m.starts_with("v_mfma_") {
                k.1.push(m.to_string());
            }
            k.2 |= m.starts_with("s_branch") || m.starts_with("s_cbranch") || m.starts_with("s_setpc");
        }
    }
    let straight: Vec<&(String, Vec<String>, bool)> =
        kernels.iter().filter(|(_, mfma, branches)| !mfma.is_empty() && !branches).collect();
    assert!(straight.len() >= 2, "straight-line MFMA kernels expected in the disassembly: {kernels:?}");
    for exec in ["on", "off"] {
        let out = scratch("mfma-pmc-walk");
        let _cleanup = ScratchGuard(out.clone());
        let mut cmd = crate::common::sid_command(&stage, &root, &stage.cli());
        cmd.args(["--simulate", "gfx90a", "--pmc", "SQ_INSTS_MFMA", "SQ_VALU_MFMA_BUSY_CYCLES", "-f", "csv", "-d"])
            .arg(&out)
            .arg("--")
            .arg(&app)
            .arg("1")
            .env(names::SIM_EXEC, exec);
        let r = rocprof_e2e::run_command(cmd);
        if exec == "on" {
            assert!(r.status.success() && r.stdout.contains("hip6_matrix_builtins: ok"), "{}", r.transcript());
        }
        let csv = read_csv(&find_one(&out, "counter_collection.csv"));
        for (mangled, mfma, _) in &straight {
            // The demangled name starts with the function's name (`mfma_i8(int const*, ...)`).
            let short = mangled.trim_start_matches("_Z").trim_start_matches(|c: char| c.is_ascii_digit());
            let short = &short[..short.find("PK").unwrap_or(short.len())];
            let rows: Vec<_> =
                csv.rows.iter().filter(|row| row["Kernel_Name"].starts_with(&format!("{short}("))).collect();
            assert!(!rows.is_empty(), "exec {exec}: no counter rows of {short}:\n{}", r.transcript());
            for row in rows {
                let num = |c: &str| row[c].parse::<u64>().unwrap_or_else(|_| panic!("{c}: {}", row[c]));
                let wg = num("Workgroup_Size");
                let waves = num("Grid_Size") / wg * wg.div_ceil(64);
                let want = match row["Counter_Name"].as_str() {
                    "SQ_INSTS_MFMA" => waves * mfma.len() as u64,
                    "SQ_VALU_MFMA_BUSY_CYCLES" => waves * mfma.iter().map(|m| cdna2_passes(m)).sum::<u64>(),
                    other => panic!("unexpected counter {other}"),
                };
                let got: f64 = row["Counter_Value"].parse().unwrap();
                eprintln!("exec {exec}: {short} {} = {got} (disassembly: {want})", row["Counter_Name"]);
                assert_eq!(
                    got as u64, want,
                    "exec {exec}: {} of {short} ({mfma:?}, {waves} waves)",
                    row["Counter_Name"]
                );
            }
        }
    }
}
