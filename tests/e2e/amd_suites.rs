//! AMD's own ROCm library test suites as the interpreter's oracle: Debian sid's `librocsparse1-tests`,
//! `librocrand1-tests`, `libhiprand1-tests`, `librocblas4-tests` and `librocfft0-tests` (googletest
//! programs that run the libraries' kernels and compare every result with a host reference written by AMD),
//! run inside the sid chroot (`cargo xtask sid` installs them) on hsa-sim, for the targets Debian ships code
//! for (gfx90a and gfx1100: sid's ROCm 6.4 libraries carry no gfx942 or gfx1201 code objects).
//!
//! Each test runs a fixed, sampled gtest filter that takes seconds to a minute, and asserts exactly: every
//! test the filter selects (gtest's own `Running N tests` count, so no suite version is pinned) ran and
//! passed, none failed or was skipped, and every dispatch was executed by the interpreter (none fell back
//! to the timing-only model). The versions of the suites a run used are printed. rocBLAS's and rocSPARSE's
//! programs read one binary file of test cases (933 and 222 MB) before their first test, which takes
//! minutes on a loaded machine; the tests hand them a subset of it with only the `quick` records of the
//! sampled functions (`--data`), so they start in seconds. rocPRIM's and hipCUB's suites
//! (`librocprim-tests`, `libhipcub-tests`: 0.7 and 0.5 GB to download, 3.7 GB installed) are left out of
//! CI for their size (run them by hand in a chroot with those packages, the same way), as are rocThrust's
//! (0.8 GB) and rocSOLVER's (`librocsolver0-tests` pulls the 0.5 GB library).

use rocprof_launch::names;
use std::path::Path;

use rocprof_e2e::{run_command, scratch, ScratchGuard};

use crate::common::{sid_command, sid_root};
use crate::sid::sim_stats;

/// One sampled run of a suite program.
struct Sample {
    /// The Debian package that ships the program.
    package: &'static str,
    /// The program inside the chroot.
    program: &'static str,
    /// Its `--gtest_filter`.
    filter: &'static str,
    /// The smallest number of tests the filter may select (a guard against a filter that matches
    /// nothing after a suite renames its tests).
    at_least: u64,
    /// The suite's test data and the functions to keep from it: the program then reads a subset with
    /// only the `quick` records of these functions (`--data`), instead of parsing its whole data file
    /// (rocBLAS: 933 MB, minutes) before the first test. `None`: the program has no data file.
    data: Option<(&'static DataFile, &'static [&'static str])>,
}

/// A rocBLAS-style gtest data file (rocBLAS's and rocSPARSE's clients share the layout): a magic string,
/// a signature block as long as one record, a second magic string, then fixed-size records (one C
/// struct of test arguments each) whose first char arrays name the function, the test name and the
/// category (`quick`, `pre_checkin`, `nightly`, ...).
struct DataFile {
    /// The installed file inside the chroot.
    path: &'static str,
    /// The magic strings before and after the signature block (with their NUL).
    magic: (&'static [u8], &'static [u8]),
    /// Offsets in a record of the 64-byte NUL-terminated `function`, `name` and `category` fields.
    function: usize,
    name: usize,
    category: usize,
}

/// rocBLAS's `rocblas_gtest.data` (librocblas4-tests-data).
const ROCBLAS_DATA: DataFile = DataFile {
    path: "/usr/share/librocblas4-tests/data/rocblas_gtest.data",
    magic: (b"rocBLAS\0", b"ROCblas\0"),
    function: 0,
    name: 64,
    category: 128,
};

/// rocSPARSE's `rocsparse_test.data` (librocsparse1-tests-data).
const ROCSPARSE_DATA: DataFile = DataFile {
    path: "/usr/share/librocsparse1-tests/data/rocsparse_test.data",
    magic: (b"rocSPARSE\0", b"ROCsparse\0"),
    function: 539,
    name: 603,
    category: 667,
};

/// Writes to `out` the header of `d` (read from `bytes`) and its `quick` records whose function or
/// name is in `keep`; returns how many records it kept. A file whose magic strings or size do not fit
/// the layout is an error (a suite that changed its format must not silently run nothing).
fn data_subset(d: &DataFile, bytes: &[u8], keep: &[&str], out: &Path) -> Result<usize, String> {
    let (m0, m1) = d.magic;
    if !bytes.starts_with(m0) {
        return Err(format!("{}: does not start with {:?}", d.path, String::from_utf8_lossy(m0)));
    }
    // The signature block is one record long, so the second magic string tells the record size.
    let record = bytes
        .windows(m1.len())
        .take(64 * 1024)
        .position(|w| w == m1)
        .ok_or_else(|| format!("{}: no {:?} after the signature", d.path, String::from_utf8_lossy(m1)))?
        - m0.len();
    let header = m0.len() + record + m1.len();
    if record <= d.category + 64 || bytes.len() < header || !(bytes.len() - header).is_multiple_of(record) {
        return Err(format!("{}: {} bytes do not hold whole {record}-byte records", d.path, bytes.len()));
    }
    let field = |r: &[u8], at: usize| {
        let f = &r[at..at + 64];
        f[..f.iter().position(|&b| b == 0).unwrap_or(64)].to_vec()
    };
    let mut kept = bytes[..header].to_vec();
    let mut n = 0;
    for r in bytes[header..].chunks_exact(record) {
        let (function, name) = (field(r, d.function), field(r, d.name));
        if field(r, d.category) == b"quick" && keep.iter().any(|k| k.as_bytes() == function || k.as_bytes() == name) {
            kept.extend_from_slice(r);
            n += 1;
        }
    }
    std::fs::write(out, kept).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(n)
}

/// rocRAND's XORWOW and Philox device generators (uniform, normal, log-normal, Poisson) from kernels.
const ROCRAND_KERNELS: [Sample; 2] = [
    Sample {
        package: "librocrand1-tests",
        program: "/usr/libexec/rocm/librocrand1-tests/test_rocrand_kernel_xorwow",
        filter: "*",
        at_least: 10,
        data: None,
    },
    Sample {
        package: "librocrand1-tests",
        program: "/usr/libexec/rocm/librocrand1-tests/test_rocrand_kernel_philox4x32_10",
        filter: "*",
        at_least: 10,
        data: None,
    },
];

/// hipRAND's device API on rocRAND.
const HIPRAND_KERNEL: Sample = Sample {
    package: "libhiprand1-tests",
    program: "/usr/libexec/rocm/libhiprand1-tests/test_hiprand_kernel",
    filter: "*",
    at_least: 10,
    data: None,
};

/// rocSPARSE level 1 (axpyi, doti, gthr, sctr) at the suite's `quick` sizes.
const ROCSPARSE_LEVEL1: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/axpyi.*:quick/doti.*:quick/gthr.*:quick/sctr.*",
    at_least: 40,
    data: Some((&ROCSPARSE_DATA, &["axpyi", "doti", "gthr", "sctr"])),
};

/// rocSPARSE level 2: two `quick` cases each of csrmv (adaptive and stream), bsrmv, coomv, and the
/// triangular solves csrsv and bsrsv.
const ROCSPARSE_LEVEL2: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/csrmv.level2/f32_r_100_142_1_0_n1_0_CT_1b_zero_L_csradaptive_0:\
             quick/csrmv.level2/f32_r_10_33_1_0_n1_0_T_0b_rand_L_csrstream_0:\
             quick/bsrmv.level2/f32_r_10_33_1_0_n1_0_row_8_NT_0b_rand_0_t2:\
             quick/bsrmv.level2/f32_r_10_842_1_0_n1_0_row_28_NT_0b_rand_0_t2:\
             quick/coomv.level2/f32_r_10_33_sorted_1_0_n1_0_T_1b_zero_0:\
             quick/coomv.level2/f32_r_10_33_sorted_1_0_n1_0_CT_1b_rand_0:\
             quick/bsrsv.level2/f32_r_50_1_0_row_2_NT_UD_U_reuse_auto_0b_rand_0:\
             quick/bsrsv.level2/f32_r_50_1_0_row_9_T_UD_U_reuse_auto_0b_rand_0:\
             quick/csrsv.level2/f32_r_50_1_0_CT_ND_U_reuse_auto_0b_rand_0:\
             quick/csrsv.level2/f32_r_50_1_0_NT_UD_U_reuse_auto_1b_rand_0",
    at_least: 10,
    data: Some((&ROCSPARSE_DATA, &["csrmv", "bsrmv", "coomv", "bsrsv", "csrsv"])),
};

/// rocSPARSE level 3 and the tridiagonal solver: one `quick` case each of csrmm, spmm (CSR), sddmm
/// (COO) and gtsv.
const ROCSPARSE_LEVEL3: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/gtsv.precond/f32_r_8_4_8_rand_0:\
             quick/sddmm.level3/i32_i32_f32_r_12_93_3_1_0_n1_0_NT_NT_0b_col_default_coo_rand_0:\
             quick/spmm_csr.level3/i32_i32_f64_r_f64_r_f64_r_f64_r_223_223_223_1_0_n1_0_NT_NT_0b_col_col_csr_rand_0:\
             quick/csrmm.level3/f32_r_42_7_50_1_0_0_0_T_NT_0b_zero_0",
    at_least: 4,
    data: Some((&ROCSPARSE_DATA, &["gtsv", "sddmm", "spmm_csr", "csrmm"])),
};

/// rocSPARSE's sparse matrix product csrgemm (C = alpha * A * B + beta * D; its row counts come from
/// LDS hash tables filled with `ds_cmpstore` on gfx11) and its scaling-only form (C = beta * D).
/// The suite's `*_zero` cases (a zero A, so C has no entries) abort in AMD's own host reference
/// (`host_csrgemm` passes NULL to memcpy; GCC 15 then drops its empty-result path and `memset` runs with
/// length -4 over a malloc header: `free(): invalid size`, also with kernels off). rocm-libraries#4927
/// fixes it upstream, so they stay out of the sample.
const ROCSPARSE_CSRGEMM: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/csrgemm.extra/f32_r_50_13_50_1_0_n99_0_NT_NT_0b_0b_0b_0b_rand:\
             quick/csrgemm.extra/f32_r_1000_1000_1_1_0_1_0_NT_NT_0b_0b_0b_0b_rand",
    at_least: 2,
    data: Some((&ROCSPARSE_DATA, &["csrgemm"])),
};

/// rocSPARSE's block sparse product bsrgemm (C = alpha * A * B + beta * D over BSR matrices): column-major
/// 7x7 blocks and row-major 23x23 blocks (larger than a wave's lanes), with and without D and with
/// alpha/beta -99, 0.4 and -0.5. The quick set (648 f32 tests) takes an hour here; these take seconds.
const ROCSPARSE_BSRGEMM: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/bsrgemm.extra/f32_r_50_13_254_7_column_1_0_n99_0_NT_NT_0b_0b_0b_0b_rand:\
             quick/bsrgemm.extra/f32_r_24_243_1_23_row_n99_0_0p4_0_NT_NT_0b_0b_0b_0b_rand:\
             quick/bsrgemm.extra/f32_r_24_243_1_23_row_n99_0_n0p5_0_NT_NT_0b_0b_1b_1b_rand",
    at_least: 3,
    data: Some((&ROCSPARSE_DATA, &["bsrgemm"])),
};

/// rocSPARSE's preconditioners and format conversions: incomplete Cholesky (csric0) and LU (csrilu0, n = 50,
/// with and without a numeric boost), the CSR transpose csr2csc and CSR to 37x37-block BSR (csr2bsr), all f32.
const ROCSPARSE_PRECOND_CONVERSION: Sample = Sample {
    package: "librocsparse1-tests",
    program: "/usr/libexec/rocm/librocsparse1-tests/rocsparse-test",
    filter: "quick/csric0.precond/f32_r_*:quick/csr2csc.conversion/f32_r_*:quick/csrilu0.precond/f32_r_50_NT_0_1_0_*:\
             quick/csr2bsr.conversion/f32_r_*_37_0b_rand:-*zero*",
    at_least: 30,
    data: Some((&ROCSPARSE_DATA, &["csric0", "csrilu0", "csr2csc", "csr2bsr"])),
};

/// rocBLAS half-precision axpy at the `quick` sizes: on gfx1100 Debian's rocBLAS is compiled for
/// real true16 (16-bit operands in the high halves of VGPRs).
const ROCBLAS_AXPY_F16: Sample = Sample {
    package: "librocblas4-tests",
    program: "/usr/libexec/rocm/librocblas4-tests/rocblas-test",
    filter: "_/axpy.*f16_r*",
    at_least: 300,
    data: Some((&ROCBLAS_DATA, &["axpy"])),
};

/// rocBLAS levels 1 and 2 at the `quick` sizes: dot (f32, n = 1025: a reduction across workgroups), scal
/// (f32 with alpha, n = 64), swap (f64, negative increments included), nrm2 (f32), gemv (f32 transposed, the
/// small sizes) and her (complex f32 rank-1 update, 33x33, both triangles).
const ROCBLAS_LEVEL12: Sample = Sample {
    package: "librocblas4-tests",
    program: "/usr/libexec/rocm/librocblas4-tests/rocblas-test",
    filter: "_/dot.*quick_blas1_f32_r_1025_*:_/scal.*quick_scal_blas1_with_alpha_f32_r_64_*:\
             _/swap.*quick_blas1_f64_r_*:_/nrm2.*quick_blas1_f32_r_1*:_/gemv.*quick_gemv_small_f32_r_T_*:\
             _/her.*quick_her_small_f32_c_?_33_33_*",
    at_least: 150,
    data: Some((&ROCBLAS_DATA, &["dot", "scal", "swap", "nrm2", "gemv", "her"])),
};

/// rocBLAS level 3: gemm (f32, f64; all four transposes, the Fortran-interface sizes) and symm (f32).
const ROCBLAS_LEVEL3: Sample = Sample {
    package: "librocblas4-tests",
    program: "/usr/libexec/rocm/librocblas4-tests/rocblas-test",
    filter: "*quick_gemm_fortran_f32_r*:*quick_gemm_fortran_f64_r*:*quick_symm_quick_f32_r*",
    at_least: 250,
    data: Some((&ROCBLAS_DATA, &["gemm", "symm"])),
};

/// rocFFT 1D transforms against FFTW (single precision complex lengths 16, 14, 25 and 27). rocFFT compiles
/// its kernels at run time (hipRTC/comgr in the chroot); on gfx90a they use packed f32 arithmetic with
/// inline constants and `v_mad_legacy_u16`. rocfft-test draws the variants of its parameter list (planar
/// or interleaved, in or out of place) from a random seed, so how many tests a pattern selects varies from
/// run to run; every selected one must pass.
const ROCFFT_1D: Sample = Sample {
    package: "librocfft0-tests",
    program: "/usr/libexec/rocm/librocfft0-tests/rocfft-test",
    filter: "pow2_1D/accuracy_test.vs_fftw/complex_forward_len_16_single_ip_batch_1_*:\
             pow3_1D/accuracy_test.vs_fftw/complex_forward_len_27_single_ip_batch_1_*:\
             small_1D/accuracy_test.vs_fftw/complex_forward_len_14_single_ip_batch_1_*:\
             pow5_1D/accuracy_test.vs_fftw/complex_forward_len_25_single_op_batch_1_*",
    at_least: 4,
    data: None,
};

/// The installed version of `package` in the chroot (from dpkg's status file), for the record.
fn installed_version(root: &Path, package: &str) -> Option<String> {
    let status = std::fs::read_to_string(root.join("var/lib/dpkg/status")).ok()?;
    status
        .split("\n\n")
        .find(|p| p.lines().any(|l| l == format!("Package: {package}")))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("Version: ")).map(str::to_string))
}

/// A gtest summary number: `N` of the first line `<prefix>N test...` in `out` (0 when there is none;
/// lines such as `[  FAILED  ] Suite.Name, where ...` are not summaries).
fn gtest_count(out: &str, prefix: &str) -> u64 {
    out.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .find_map(|r| {
            let mut w = r.split_whitespace();
            let n = w.next()?.parse().ok()?;
            w.next()?.starts_with("test").then_some(n)
        })
        .unwrap_or(0)
}

/// Runs `s` on hsa-sim with agent `gpu` and checks it as the module says.
fn run_sample(test: &str, s: &Sample, gpu: &str) {
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(root) = sid_root(test) else { return };
    let program = root.join(s.program.trim_start_matches('/'));
    if !program.is_file() {
        rocprof_test_inputs::skip_or_fail(
            test,
            format_args!(
                "{} is not installed in the chroot (package {}; `cargo xtask sid` installs it)",
                s.program, s.package
            ),
        );
        return;
    }
    let version = installed_version(&root, s.package).unwrap_or_else(|| "?".into());
    eprintln!("{test}: {} {version}: {} --gtest_filter={} on {gpu}", s.package, s.program, s.filter);
    let dir = scratch("amd-suite");
    let _cleanup = ScratchGuard(dir.clone());
    let stats = dir.join("stats.txt");
    let mut cmd = sid_command(&stage, &root, Path::new(s.program));
    if let Some((d, keep)) = s.data {
        let installed = root.join(d.path.trim_start_matches('/'));
        let bytes = std::fs::read(&installed).unwrap_or_else(|e| panic!("{test}: {}: {e}", installed.display()));
        let subset = dir.join("subset.data");
        let n = data_subset(d, &bytes, keep, &subset).unwrap_or_else(|e| panic!("{test}: {e}"));
        eprintln!("{test}: {n} quick records of {keep:?} from {}", d.path);
        // The scratch directory lies under the host's /tmp, which the chroot sees at the same path.
        cmd.arg("--data").arg(&subset);
    }
    cmd.arg(format!("--gtest_filter={}", s.filter))
        .env(names::SIM_AGENTS, gpu)
        .env(names::SIM_STATS, &stats)
        .env("GTEST_COLOR", "no");
    let r = run_command(cmd);
    let what = format!("{gpu}: {} {version} --gtest_filter={}", s.program, s.filter);
    let selected = gtest_count(&r.stdout, "[==========] Running ");
    let ran = gtest_count(&r.stdout, "[==========] ");
    let passed = gtest_count(&r.stdout, "[  PASSED  ] ");
    let failed = gtest_count(&r.stdout, "[  FAILED  ] ");
    let skipped = gtest_count(&r.stdout, "[  SKIPPED ] ");
    let first_failure = r.stdout.lines().find(|l| l.contains("Failure") || l.contains("Which is")).unwrap_or("");
    assert!(
        selected >= s.at_least,
        "{what}: the filter selected {selected} tests, expected at least {}:\n{}",
        s.at_least,
        r.transcript()
    );
    assert_eq!(
        (passed, failed, skipped),
        (selected, 0, 0),
        "{what}: (passed, failed, skipped) of {selected} selected; first failure: {first_failure}\n{}",
        r.transcript()
    );
    assert_eq!(ran, selected, "{what}: tests ran");
    assert!(r.status.success(), "{what}: exit status\n{}", r.transcript());
    assert!(!r.stderr.contains("falls back to the timing-only model"), "{what}:\n{}", r.stderr);
    let st = sim_stats(&stats);
    assert!(st["dispatches_executed"] > 0, "{what}: no dispatch executed: {st:?}");
    assert_eq!(st["dispatches_fallback"], 0, "{what}: dispatches fell back to timing only: {st:?}");
}

#[test]
fn rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx1100() {
    let test = "rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx1100";
    for s in &ROCRAND_KERNELS {
        run_sample(test, s, "gfx1100");
    }
}

#[test]
fn rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx90a() {
    let test = "rocrand_xorwow_and_philox_kernels_pass_amds_suite_on_gfx90a";
    for s in &ROCRAND_KERNELS {
        run_sample(test, s, "gfx90a");
    }
}

#[test]
fn hiprand_device_api_passes_amds_suite_on_gfx1100_and_gfx90a() {
    let test = "hiprand_device_api_passes_amds_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &HIPRAND_KERNEL, gpu);
    }
}

#[test]
fn rocsparse_level1_passes_amds_quick_suite_on_gfx1100() {
    run_sample("rocsparse_level1_passes_amds_quick_suite_on_gfx1100", &ROCSPARSE_LEVEL1, "gfx1100");
}

#[test]
fn rocsparse_level1_passes_amds_quick_suite_on_gfx90a() {
    run_sample("rocsparse_level1_passes_amds_quick_suite_on_gfx90a", &ROCSPARSE_LEVEL1, "gfx90a");
}

#[test]
fn rocsparse_level2_passes_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocsparse_level2_passes_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCSPARSE_LEVEL2, gpu);
    }
}

#[test]
fn rocsparse_level3_and_gtsv_pass_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocsparse_level3_and_gtsv_pass_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCSPARSE_LEVEL3, gpu);
    }
}

#[test]
fn rocsparse_csrgemm_passes_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocsparse_csrgemm_passes_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCSPARSE_CSRGEMM, gpu);
    }
}

#[test]
fn rocsparse_bsrgemm_passes_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocsparse_bsrgemm_passes_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCSPARSE_BSRGEMM, gpu);
    }
}

#[test]
fn rocblas_half_precision_axpy_passes_amds_quick_suite_on_gfx1100() {
    run_sample("rocblas_half_precision_axpy_passes_amds_quick_suite_on_gfx1100", &ROCBLAS_AXPY_F16, "gfx1100");
}

/// The same on CDNA2, where f16 lives in SDWA/VOP3 forms and packed math instead of true16 halves.
#[test]
fn rocblas_half_precision_axpy_passes_amds_quick_suite_on_gfx90a() {
    run_sample("rocblas_half_precision_axpy_passes_amds_quick_suite_on_gfx90a", &ROCBLAS_AXPY_F16, "gfx90a");
}

#[test]
fn rocsparse_preconditioners_and_conversions_pass_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocsparse_preconditioners_and_conversions_pass_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCSPARSE_PRECOND_CONVERSION, gpu);
    }
}

#[test]
fn rocblas_level1_and_level2_pass_amds_quick_suite_on_gfx1100_and_gfx90a() {
    let test = "rocblas_level1_and_level2_pass_amds_quick_suite_on_gfx1100_and_gfx90a";
    for gpu in ["gfx1100", "gfx90a"] {
        run_sample(test, &ROCBLAS_LEVEL12, gpu);
    }
}

#[test]
fn rocblas_gemm_and_symm_pass_amds_quick_suite_on_gfx1100() {
    run_sample("rocblas_gemm_and_symm_pass_amds_quick_suite_on_gfx1100", &ROCBLAS_LEVEL3, "gfx1100");
}

#[test]
fn rocblas_gemm_and_symm_pass_amds_quick_suite_on_gfx90a() {
    run_sample("rocblas_gemm_and_symm_pass_amds_quick_suite_on_gfx90a", &ROCBLAS_LEVEL3, "gfx90a");
}

#[test]
fn rocfft_1d_transforms_match_fftw_in_amds_suite_on_gfx90a_and_gfx1100() {
    let test = "rocfft_1d_transforms_match_fftw_in_amds_suite_on_gfx90a_and_gfx1100";
    for gpu in ["gfx90a", "gfx1100"] {
        run_sample(test, &ROCFFT_1D, gpu);
    }
}

/// A data file built the way rocBLAS's is: magic, a one-record signature, magic, then records.
#[test]
fn a_suites_data_subset_keeps_the_header_and_only_the_quick_records_of_the_named_functions() {
    let d = DataFile { path: "t.data", magic: (b"abc\0", b"ABC\0"), function: 0, name: 64, category: 128 };
    let rec = |function: &str, name: &str, category: &str| {
        let mut r = vec![0u8; 200];
        r[..function.len()].copy_from_slice(function.as_bytes());
        r[64..64 + name.len()].copy_from_slice(name.as_bytes());
        r[128..128 + category.len()].copy_from_slice(category.as_bytes());
        r[199] = 7;
        r
    };
    let mut file = b"abc\0".to_vec();
    file.extend((0..200u8).collect::<Vec<_>>());
    file.extend_from_slice(b"ABC\0");
    let header = file.clone();
    let records = [
        rec("axpy", "blas1", "quick"),
        rec("axpy", "blas1", "nightly"),
        rec("scal", "blas1", "quick"),
        rec("gemm", "gemm_small", "quick"),
    ];
    for r in &records {
        file.extend_from_slice(r);
    }
    let dir = scratch("data-subset");
    let _cleanup = ScratchGuard(dir.clone());
    let out = dir.join("s.data");
    assert_eq!(data_subset(&d, &file, &["axpy", "gemm_small"], &out), Ok(2));
    let mut want = header;
    want.extend_from_slice(&records[0]);
    want.extend_from_slice(&records[3]);
    assert_eq!(std::fs::read(&out).unwrap(), want);
    // A truncated record, a wrong magic string: errors, not an empty run.
    assert!(data_subset(&d, &file[..file.len() - 1], &["axpy"], &out).is_err());
    assert!(data_subset(&d, b"xyz\0", &["axpy"], &out).is_err());
}

#[test]
fn the_gtest_summary_is_read_from_googletests_own_lines() {
    let out = "[==========] Running 12 tests from 3 test suites.\n[ RUN      ] a.b\n\
               [==========] 12 tests from 3 test suites ran. (5 ms total)\n[  PASSED  ] 10 tests.\n\
               [  SKIPPED ] 1 test, listed below:\n[  FAILED  ] 1 test, listed below:\n";
    assert_eq!(gtest_count(out, "[==========] Running "), 12);
    assert_eq!(gtest_count(out, "[==========] "), 12);
    assert_eq!(gtest_count("[  FAILED  ] a.b, where x\n[  FAILED  ] 2 tests, listed below:\n", "[  FAILED  ] "), 2);
    assert_eq!(gtest_count(out, "[  PASSED  ] "), 10);
    assert_eq!(gtest_count(out, "[  SKIPPED ] "), 1);
    assert_eq!(gtest_count(out, "[  FAILED  ] "), 1);
    assert_eq!(gtest_count("[  PASSED  ] 3 tests.\n", "[  FAILED  ] "), 0);
}
