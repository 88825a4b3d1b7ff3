//! One test per instruction class, against values worked out by hand: each test is a few instructions
//! (assembled with `llvm-mc-19`, Debian package llvm-19) between a prologue that loads the output pointer
//! and an epilogue that stores chosen VGPRs lane by lane; the expected values are written out in the test.
//!
//! The kernel: `s[0:1]` = kernarg pointer (user SGPRs), `s4` = workgroup id x, `v0` = work-item id x. The
//! prologue puts the output pointer in `s[2:3]` and `lane * 4` in `v100`; result `k` of lane `l` is stored
//! at `out[64 * k + l]`.

use std::process::Command;

use rocprof_isa::{run, Dispatch, ErrorKind, FlatMemory, KernelDescriptor, LaneKernels, RunOptions, Target};

const CODE: u64 = 0x1000_0000;
const KERNARG: u64 = 0x2000_0000;
const OUT: u64 = 0x3000_0000;
const DATA: u64 = 0x4000_0000;

/// Assembles `text` for `mcpu` with llvm-mc-19 into an object file and returns its `.text` (branches to
/// labels resolved); `None` (after skip_or_fail) when llvm-mc-19 is not installed.
pub(crate) fn assemble(mcpu: &str, text: &str) -> Option<Vec<u8>> {
    assemble_with(mcpu, &[], text)
}

/// [`assemble`] with extra llvm-mc arguments (`-mattr=+wavefrontsize64`).
pub(crate) fn assemble_with(mcpu: &str, extra: &[&str], text: &str) -> Option<Vec<u8>> {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir();
    let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let src = dir.join(format!("rocprof-isa-{}-{k}.s", std::process::id()));
    let obj = src.with_extension("o");
    std::fs::write(&src, text).unwrap();
    let out = match Command::new("llvm-mc-19")
        .args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "-filetype=obj"])
        .args(extra)
        .arg("-o")
        .arg(&obj)
        .arg(&src)
        .output()
    {
        Ok(o) => o,
        Err(_) => {
            rocprof_test_inputs::skip_or_fail(
                "isa instruction-class tests",
                "llvm-mc-19 not found (Debian package llvm-19)",
            );
            return None;
        }
    };
    let _ = std::fs::remove_file(&src);
    assert!(
        out.status.success(),
        "llvm-mc-19 -mcpu={mcpu} rejected:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let elf = std::fs::read(&obj).unwrap();
    let _ = std::fs::remove_file(&obj);
    let co = rocprof_isa::CodeObject::parse(&elf).expect("an AMDGPU object file");
    let (off, len) = (co.text_offset as usize, co.text.1 as usize);
    Some(elf[off..off + len].to_vec())
}

/// Places a hand-assembled kernel at `CODE`: its descriptor `kd` padded to 256 bytes, then `code`
/// and 64 bytes past its end.
pub(crate) fn map_kernel(mem: &mut FlatMemory, kd: &[u8; 64], code: &[u8]) {
    let mut image = kd.to_vec();
    image.resize(256, 0);
    image.extend_from_slice(code);
    image.resize(image.len() + 64, 0);
    mem.map(CODE, &image);
}

/// A gfx90a dispatch of a hand-assembled kernel ([`map_kernel`]) whose one kernel argument, at
/// `KERNARG`, is the address `arg`; the memory holds the kernel and the argument (the caller maps
/// what `arg` points at).
pub(crate) fn gfx90a_dispatch(
    kd: &[u8; 64],
    code: &[u8],
    arg: u64,
    grid: [u32; 3],
    workgroup: [u32; 3],
    private_segment_size: u32,
) -> (Dispatch, FlatMemory) {
    let mut mem = FlatMemory::new();
    map_kernel(&mut mem, kd, code);
    mem.map(KERNARG, &arg.to_le_bytes());
    let d = Dispatch {
        target: Target::find("gfx90a").unwrap(),
        kernel_object: CODE,
        descriptor: KernelDescriptor::parse(kd),
        grid,
        workgroup,
        group_segment_size: 0,
        private_segment_size,
        kernarg: KERNARG,
        dispatch_ptr: KERNARG,
        queue_ptr: 0,
        dispatch_id: 0,
    };
    (d, mem)
}

/// Runs `body` as a one-wave kernel on `mcpu` (`lanes` work-items) with `data` mapped at `DATA` (its
/// address in `s[6:7]`), storing `results` VGPRs (`v1`, `v2`, ...); returns `out[k][lane]`.
pub(crate) fn run_body(mcpu: &str, lanes: u32, body: &str, results: usize, data: &[u8]) -> Option<Vec<Vec<u32>>> {
    run_body_on(mcpu, mcpu, lanes, body, results, data, LaneKernels::Auto)
}

/// [`run_body`] on target `mcpu` with the code assembled for `asm_mcpu` (a target llvm-mc-19 does not
/// know, like gfx950, runs instructions whose encodings llvm-mc-21 shows equal on both).
pub(crate) fn run_body_assembled_as(
    mcpu: &str,
    asm_mcpu: &str,
    lanes: u32,
    body: &str,
    results: usize,
    data: &[u8],
) -> Option<Vec<Vec<u32>>> {
    run_body_on(mcpu, asm_mcpu, lanes, body, results, data, LaneKernels::Auto)
}

/// [`run_body_assembled_as`] with the VALU's lane kernels chosen (`Baseline` forces the x86-64 baseline code).
pub(crate) fn run_body_on(
    mcpu: &str,
    asm_mcpu: &str,
    lanes: u32,
    body: &str,
    results: usize,
    data: &[u8],
    kernels: LaneKernels,
) -> Option<Vec<Vec<u32>>> {
    let target = Target::find(mcpu).unwrap();
    let gfx9 = mcpu.starts_with("gfx9");
    let mut text = String::from("s_load_dwordx4 s[4:7], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n");
    // s[4:5] = out, s[6:7] = data; keep the output pointer in s[2:3].
    text.push_str("s_mov_b64 s[2:3], s[4:5]\nv_lshlrev_b32_e32 v100, 2, v0\n");
    // `{vcc}` is VCC in the wave size's spelling.
    text.push_str(&body.replace("{vcc}", if gfx9 { "vcc" } else { "vcc_lo" }));
    text.push('\n');
    // Result k at out + 256 * k (advancing the base: gfx10's global offsets are only 12 bits).
    for k in 0..results {
        text.push_str(&format!(
            "global_store_dword v100, v{}, s[2:3]\ns_add_u32 s2, s2, 256\ns_addc_u32 s3, s3, 0\n",
            k + 1
        ));
    }
    text.push_str("s_endpgm\n");
    // RDNA in wave64 assembles the wave64 forms (WMMA's register counts differ).
    let code = assemble_with(asm_mcpu, if !gfx9 && lanes == 64 { &["-mattr=+wavefrontsize64"] } else { &[] }, &text)?;
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes()); // all VGPRs
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    let props: u16 = 8 | if gfx9 || lanes == 64 { 0 } else { 1 << 10 }; // kernarg pointer; wave32 on RDNA unless 64 lanes
    kd[56..58].copy_from_slice(&props.to_le_bytes());
    let mut mem = FlatMemory::new();
    map_kernel(&mut mem, &kd, &code);
    let mut args = OUT.to_le_bytes().to_vec();
    args.extend_from_slice(&DATA.to_le_bytes());
    mem.map(KERNARG, &args);
    mem.map(OUT, &vec![0xee; 256 * results.max(1)]);
    mem.map(DATA, &if data.is_empty() { vec![0; 64] } else { data.to_vec() });
    let d = Dispatch {
        target,
        kernel_object: CODE,
        descriptor: KernelDescriptor::parse(&kd),
        grid: [lanes, 1, 1],
        workgroup: [lanes, 1, 1],
        group_segment_size: 1024,
        private_segment_size: 64,
        kernarg: KERNARG,
        dispatch_ptr: KERNARG,
        queue_ptr: 0,
        dispatch_id: 0,
    };
    if let Err(e) = run(&d, &mem, &RunOptions { lanes: kernels, ..RunOptions::default() }) {
        panic!("{mcpu}: {e}\n{text}");
    }
    let out = mem.get(OUT, 256 * results).unwrap();
    Some(
        (0..results)
            .map(|k| {
                (0..64)
                    .map(|l| u32::from_le_bytes(out[256 * k + 4 * l..256 * k + 4 * l + 4].try_into().unwrap()))
                    .collect()
            })
            .collect(),
    )
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[test]
fn salu_arithmetic_carries_and_scc() {
    // 0xffffffff + 2 carries; s_addc adds the carry; s_sub_i32 overflow sets SCC; s_bfe_u32 extracts bits 4..11;
    // s_lshl_b64 crosses the dword boundary; s_ff1/s_bcnt1/s_flbit; s_cselect picks on SCC.
    let body = "
        s_mov_b32 s10, -1
        s_add_u32 s11, s10, 2          // 1, SCC = 1
        s_addc_u32 s12, 5, 0           // 6
        s_mov_b32 s13, 0x80000000
        s_sub_i32 s14, s13, 1          // overflow: SCC = 1
        s_movk_i32 s30, 111
        s_movk_i32 s31, 222
        s_cselect_b32 s15, s30, s31    // 111
        s_mov_b32 s32, 0xabcd
        s_bfe_u32 s16, s32, 0x80004    // (0xabcd >> 4) & 0xff = 0xbc
        s_mov_b64 s[18:19], 0x80000001
        s_lshl_b64 s[18:19], s[18:19], 4 // 0x8_0000_0010
        s_ff1_i32_b32 s20, 0x1000      // 12
        s_bcnt1_i32_b32 s21, 0xf0f0    // 8
        s_flbit_i32_b32 s22, 0x00ff0000 // 8
        v_mov_b32 v1, s11
        v_mov_b32 v2, s12
        v_mov_b32 v3, s15
        v_mov_b32 v4, s16
        v_mov_b32 v5, s18
        v_mov_b32 v6, s19
        v_mov_b32 v7, s20
        v_mov_b32 v8, s21
        v_mov_b32 v9, s22";
    for (mcpu, lanes) in [("gfx90a", 64), ("gfx1030", 32), ("gfx1100", 32)] {
        let Some(r) = run_body(mcpu, lanes, body, 9, &[]) else { return };
        let got: Vec<u32> = r.iter().map(|v| v[0]).collect();
        assert_eq!(got, [1, 6, 111, 0xbc, 0x10, 0x8, 12, 8, 8], "{mcpu}");
    }
}

#[test]
fn valu_integer_carry_chains_and_bit_operations() {
    // Per lane l: v1 = l + 0xfffffff0 (carry for l >= 16), v2 = carry-in add of 7 + 0 + carry,
    // v3 = mul_hi(0x80000000 + l, 4) = 2, v4:v5 = mad_u64_u32(l, 0x10000, 0x1_0000_0000),
    // v6 = bfe_i32(0xf00, 8, 4) = -1, v7 = perm / alignbit, v8 = mbcnt (lanes below), v9 = lshlrev_b64 high.
    let body = "
        v_mov_b32 v20, 0xfffffff0
        v_add_co_u32 v1, vcc, v0, v20
        v_addc_co_u32 v2, vcc, 7, 0, vcc
        v_mov_b32 v21, 0x80000000
        v_add_u32 v21, v21, v0
        v_mul_hi_u32 v3, v21, 4
        v_mov_b32 v22, 0x10000
        v_mov_b32 v24, 0
        v_mov_b32 v25, 1
        v_mad_u64_u32 v[4:5], s[8:9], v0, v22, v[24:25]
        v_mov_b32 v27, 0xf00
        v_bfe_i32 v6, v27, 8, 4
        v_mov_b32 v28, 0x12345678
        v_mov_b32 v29, 0x9abcdef0
        v_alignbit_b32 v7, v28, v29, 8
        v_mbcnt_lo_u32_b32 v8, -1, 0
        v_mbcnt_hi_u32_b32 v8, -1, v8
        v_mov_b32 v30, 0x80000001
        v_mov_b32 v31, 0
        v_lshlrev_b64 v[32:33], 1, v[30:31]
        v_mov_b32 v9, v32
        v_mov_b32 v10, v33";
    let Some(r) = run_body("gfx90a", 64, body, 10, &[]) else { return };
    for l in 0..64u32 {
        let sum = u64::from(l) + 0xffff_fff0;
        assert_eq!(r[0][l as usize], sum as u32, "lane {l}");
        assert_eq!(r[1][l as usize], 7 + u32::from(l >= 16), "carry of lane {l}");
        assert_eq!(r[2][l as usize], 2);
        assert_eq!((r[3][l as usize], r[4][l as usize]), (l << 16, 1), "mad_u64_u32 lane {l}");
        assert_eq!(r[5][l as usize], u32::MAX, "bfe_i32 sign-extends 0xf");
        assert_eq!(r[6][l as usize], 0x789abcde);
        assert_eq!(r[7][l as usize], l, "mbcnt counts the lanes below");
        assert_eq!((r[8][l as usize], r[9][l as usize]), (2, 1), "lshlrev_b64 carries into the high dword");
    }
}

/// VOP3's clamp bit on integer add/sub saturates instead of wrapping (rocPRIM's block reduce uses
/// `v_sub_u32 ... clamp`): per lane l, v1 = l - 5 clamped at 0, v2 = (0xfffffffc + l) clamped at
/// 0xffffffff, v3 = i32::MAX - 2 + l clamped at i32::MAX, v4 = the unclamped wrap of v1's subtraction,
/// v5 = 16-bit 0xfffe + l clamped at 0xffff.
#[test]
fn valu_integer_clamp_saturates() {
    let body = "
        v_mov_b32 v20, 0xfffffffc
        v_mov_b32 v21, 0x7ffffffd
        v_mov_b32 v22, 0xfffe
        v_sub_u32_e64 v1, v0, 5 clamp
        v_add_u32_e64 v2, v20, v0 clamp
        v_add_i32 v3, v21, v0 clamp
        v_sub_u32_e64 v4, v0, 5
        v_add_u16_e64 v5, v22, v0 clamp";
    let Some(r) = run_body("gfx90a", 64, body, 5, &[]) else { return };
    for l in 0..64u32 {
        assert_eq!(r[0][l as usize], l.saturating_sub(5), "v_sub_u32 clamp, lane {l}");
        assert_eq!(r[1][l as usize], 0xffff_fffcu32.saturating_add(l), "v_add_u32 clamp, lane {l}");
        assert_eq!(r[2][l as usize], 0x7fff_fffdi32.saturating_add(l as i32) as u32, "v_add_i32 clamp, lane {l}");
        assert_eq!(r[3][l as usize], l.wrapping_sub(5), "no clamp wraps, lane {l}");
        assert_eq!(r[4][l as usize] & 0xffff, 0xfffeu16.saturating_add(l as u16) as u32, "v_add_u16 clamp, lane {l}");
    }
}

#[test]
fn valu_float_rounding_division_and_conversions() {
    // v1 = fma(1.5, 2, 0.25) = 3.25; v2 = 1/3 by the compiler's division sequence (div_scale, rcp, fma,
    // div_fmas, div_fixup) = 0x3eaaaaab; v3 = rndne(2.5) = 2; v4 = cvt_i32(NaN) = 0; v5 = cvt_i32(3e9) saturates;
    // v6 = frexp_exp(48.0) = 6; v7 = ldexp(0.75, 3) = 6; v8 = cvt_f16_f32(1/3) in the low half = 0x3555;
    // v9 = f64 fma(3, 1/3) hi word; v10 = cmp_class(-inf, mask -inf) to 1.
    let body = "
        v_mov_b32 v20, 1.0
        v_mov_b32 v21, 0x40400000
        v_mov_b32 v40, 1.5
        v_mov_b32 v41, 0.25
        v_fma_f32 v1, v40, 2.0, v41
        v_div_scale_f32 v22, {vcc}, v21, v21, v20
        v_div_scale_f32 v23, {vcc}, v20, v21, v20
        v_rcp_f32 v24, v22
        v_fma_f32 v25, -v22, v24, 1.0
        v_fma_f32 v24, v25, v24, v24
        v_mul_f32 v25, v23, v24
        v_fma_f32 v26, -v22, v25, v23
        v_fma_f32 v25, v26, v24, v25
        v_fma_f32 v22, -v22, v25, v23
        v_div_fmas_f32 v22, v22, v24, v25
        v_div_fixup_f32 v2, v22, v21, v20
        v_rndne_f32 v27, 0x40200000
        v_cvt_i32_f32 v3, v27
        v_mov_b32 v28, 0x7fc00000
        v_cvt_i32_f32 v4, v28
        v_cvt_i32_f32 v5, 0x4f32d05e
        v_frexp_exp_i32_f32 v6, 0x42400000
        v_mov_b32 v29, 3
        v_mov_b32 v42, 0x3f400000
        v_ldexp_f32 v7, v42, v29
        v_cvt_f16_f32 v8, v2
        v_mov_b32 v30, 0
        v_mov_b32 v31, 0x40080000
        v_cvt_f64_f32 v[32:33], v2
        v_fma_f64 v[34:35], v[30:31], v[32:33], 0
        v_mov_b32 v9, v35
        v_mov_b32 v43, 0xff800000
        v_mov_b32 v44, 4
        v_cmp_class_f32 {vcc}, v43, v44
        v_cndmask_b32 v10, 0, 1, {vcc}";
    for (mcpu, lanes) in [("gfx90a", 64), ("gfx1030", 32)] {
        let Some(r) = run_body(mcpu, lanes, body, 10, &[]) else { return };
        assert_eq!(f(r[0][0]), 3.25, "{mcpu} fma");
        assert_eq!(r[1][0], 0x3eaa_aaab, "{mcpu} 1/3 correctly rounded");
        assert_eq!(r[2][0], 2, "{mcpu} rndne(2.5) rounds to even, then cvt");
        assert_eq!(r[3][0], 0, "{mcpu} NaN converts to 0");
        assert_eq!(r[4][0], 0x7fff_ffff, "{mcpu} 3e9 saturates");
        assert_eq!(r[5][0], 6, "{mcpu} 48 = 0.75 * 2^6");
        assert_eq!(f(r[6][0]), 6.0, "{mcpu} ldexp");
        assert_eq!(r[7][0] & 0xffff, 0x3555, "{mcpu} 1/3 in half precision");
        // 3 * (double)(1/3 as float) = 1.0000000298023224 = 0x3FF0000010000000 (high word 0x3ff00000).
        assert_eq!(r[8][0], 0x3ff0_0000, "{mcpu} f64 fma");
        assert_eq!(r[9][0], 1, "{mcpu} class: -inf");
    }
}

#[test]
fn packed_and_mixed_precision() {
    // v1 = pk_add_f16({1.0, 2.0}, {0.5, 0.5}) = {1.5, 2.5} = 0x41003e00;
    // v2 = fma_mix_f32(f16 hi of v20 = 2.0, f32 3.0, f32 1.0) = 7.0; v3:v4 = pk_mul_f32 ({2,3} * {4,5}) = {8, 15}.
    let body = "
        v_mov_b32 v20, 0x40003c00
        v_mov_b32 v21, 0x38003800
        v_pk_add_f16 v1, v20, v21
        v_mov_b32 v22, 0x40400000
        v_mov_b32 v23, 1.0
        v_fma_mix_f32 v2, v20, v22, v23 op_sel:[1,0,0] op_sel_hi:[1,0,0]
        v_mov_b32 v24, 2.0
        v_mov_b32 v25, 0x40400000
        v_mov_b32 v26, 4.0
        v_mov_b32 v27, 0x40a00000
        v_pk_mul_f32 v[28:29], v[24:25], v[26:27]
        v_mov_b32 v3, v28
        v_mov_b32 v4, v29";
    let Some(r) = run_body("gfx90a", 64, body, 4, &[]) else { return };
    assert_eq!(r[0][0], 0x4100_3e00);
    assert_eq!(f(r[1][0]), 7.0);
    assert_eq!((f(r[2][0]), f(r[3][0])), (8.0, 15.0));
}

#[test]
fn compares_exec_masking_and_branches() {
    // v_cmpx narrows EXEC to lanes < 10; inside, v1 = 100 + lane; restored EXEC; a loop sums 1..5 in s20.
    // v2 = lane < 10 as a 0/1 from VCC of v_cmp; NaN compares: lt false, nge true.
    let body = "
        v_mov_b32 v1, 0
        s_mov_b64 s[10:11], exec
        v_cmpx_gt_u32 vcc, 10, v0
        s_cbranch_execz skip
        v_add_u32 v1, 100, v0
    skip:
        s_mov_b64 exec, s[10:11]
        v_cmp_gt_u32 vcc, 10, v0
        v_cndmask_b32 v2, 0, 1, vcc
        s_mov_b32 s20, 0
        s_mov_b32 s21, 1
    loop:
        s_add_u32 s20, s20, s21
        s_add_u32 s21, s21, 1
        s_cmp_le_u32 s21, 5
        s_cbranch_scc1 loop
        v_mov_b32 v3, s20
        v_mov_b32 v30, 0x7fc00000
        v_cmp_lt_f32 vcc, v30, 1.0
        v_cndmask_b32 v4, 0, 1, vcc
        v_cmp_nge_f32 vcc, v30, 1.0
        v_cndmask_b32 v5, 0, 1, vcc";
    let Some(r) = run_body("gfx90a", 64, body, 5, &[]) else { return };
    for l in 0..64 {
        assert_eq!(r[0][l], if l < 10 { 100 + l as u32 } else { 0 }, "lane {l}");
        assert_eq!(r[1][l], u32::from(l < 10));
        assert_eq!(r[2][l], 15, "1 + 2 + 3 + 4 + 5");
        assert_eq!((r[3][l], r[4][l]), (0, 1), "NaN: lt false, nge true");
    }
}

#[test]
fn cross_lane_operations() {
    // readfirstlane of lane*3 under EXEC from lane 5: 15; readlane 33: 99; writelane sets lane 7 to 0x77;
    // DPP row_shr:1 (bound_ctrl) moves lane-1 into each lane of a row (lane 0 of a row reads 0);
    // ds_bpermute pulls from lane (l + 1) % 64; ds_swizzle with xor 1 swaps neighbours; ds_swizzle
    // BROADCAST(32, 15) of 5 * lane gives every lane of a 32-lane group lane 15's value (rocPRIM's wave32
    // scans use it to carry a row's total into the next row).
    let body = "
        v_mul_u32_u24 v20, v0, 3
        s_mov_b64 s[10:11], exec
        s_mov_b32 exec_lo, 0xffffffe0
        s_mov_b32 exec_hi, -1
        v_readfirstlane_b32 s12, v20
        s_mov_b64 exec, s[10:11]
        v_readlane_b32 s13, v20, 33
        v_mov_b32 v1, s12
        v_mov_b32 v2, s13
        v_mov_b32 v3, v0
        s_movk_i32 s14, 0x77
        v_writelane_b32 v3, s14, 7
        v_mov_b32_dpp v4, v0 row_shr:1 bound_ctrl:0
        v_add_u32 v21, 1, v0
        v_and_b32 v21, 63, v21
        v_lshlrev_b32 v21, 2, v21
        ds_bpermute_b32 v5, v21, v0
        ds_swizzle_b32 v6, v0 offset:swizzle(SWAP, 1)
        v_mul_u32_u24 v22, v0, 5
        ds_swizzle_b32 v7, v22 offset:swizzle(BROADCAST, 32, 15)
        s_waitcnt lgkmcnt(0)";
    let Some(r) = run_body("gfx90a", 64, body, 7, &[]) else { return };
    for l in 0..64usize {
        assert_eq!(r[0][l], 15);
        assert_eq!(r[1][l], 99);
        assert_eq!(r[2][l], if l == 7 { 0x77 } else { l as u32 });
        assert_eq!(r[3][l], if l % 16 == 0 { 0 } else { l as u32 - 1 }, "row_shr lane {l}");
        assert_eq!(r[4][l], ((l + 1) % 64) as u32, "bpermute lane {l}");
        assert_eq!(r[5][l], (l ^ 1) as u32, "swizzle lane {l}");
        // The swizzled register is the ADDR operand (v22 here), not DATA0 (encoded as v0).
        assert_eq!(r[6][l], 5 * ((l & 32) as u32 + 15), "swizzle broadcast lane {l}");
    }
}

#[test]
fn memory_global_lds_scratch_and_atomics() {
    // data = [10, 20, 30, ...] (u32 per lane). v1 = data[l] via global_load with an SGPR base and VGPR offset;
    // LDS: write data[l] + 1 at 4*l, read back reversed lane 63 - l with ds_read2 of two halves;
    // scratch: store v1 * 2 at offset 16, load back; atomics: global_atomic_add returns the old value
    // (serialised by lane), cmpswap on lane 0 only.
    let data: Vec<u8> = (0..64u32).flat_map(|i| (10 * (i + 1)).to_le_bytes()).chain([0u8; 64]).collect();
    let body = "
        global_load_dword v1, v100, s[6:7]
        s_waitcnt vmcnt(0)
        v_add_u32 v20, 1, v1
        ds_write_b32 v100, v20
        s_waitcnt lgkmcnt(0)
        s_barrier
        v_sub_u32 v21, 63, v0
        v_lshlrev_b32 v21, 2, v21
        ds_read_b32 v2, v21
        v_lshlrev_b32 v22, 1, v1
        v_mov_b32 v50, 0
        scratch_store_dword v50, v22, off offset:16
        scratch_load_dword v3, v50, off offset:16
        v_mov_b32 v23, 0
        v_mov_b32 v24, 1
        global_atomic_add v4, v23, v24, s[6:7] offset:256 glc
        v_mov_b32 v26, 5
        v_mov_b32 v27, 64
        global_atomic_cmpswap v5, v23, v[26:27], s[6:7] offset:256 glc
        s_waitcnt vmcnt(0) lgkmcnt(0)";
    let Some(r) = run_body("gfx90a", 64, body, 5, &data) else { return };
    let mut olds: Vec<u32> = r[3].clone();
    olds.sort_unstable();
    for l in 0..64usize {
        let d = 10 * (l as u32 + 1);
        assert_eq!(r[0][l], d, "global load lane {l}");
        assert_eq!(r[1][l], 10 * (64 - l as u32) + 1, "LDS exchange lane {l}");
        assert_eq!(r[2][l], 2 * d, "scratch round trip lane {l}");
        assert_eq!(olds[l], l as u32, "atomic add returns each old value once");
    }
    // After 64 increments the word is 64: every lane's cmpswap(compare 64, new 5) sees 64 first... only the
    // first succeeds, the rest see 5.
    let first = r[4].iter().filter(|&&v| v == 64).count();
    assert_eq!(first, 1, "{:?}", r[4]);
    assert_eq!(r[4].iter().filter(|&&v| v == 5).count(), 63);
}

#[test]
fn an_unimplemented_instruction_stops_the_dispatch_with_its_name_and_pc() {
    // xf32 (gfx942) is not implemented.
    let Some(code) = assemble("gfx942", "s_nop 0\nv_cvt_sr_fp8_f32 v1, v2, v3\ns_endpgm\n") else {
        return;
    };
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&64i64.to_le_bytes());
    let mut image = kd.to_vec();
    image.extend_from_slice(&code);
    image.resize(image.len() + 64, 0);
    let mut mem = FlatMemory::new();
    mem.map(CODE, &image);
    let d = Dispatch {
        target: Target::find("gfx942").unwrap(),
        kernel_object: CODE,
        descriptor: KernelDescriptor::parse(&kd),
        grid: [64, 1, 1],
        workgroup: [64, 1, 1],
        group_segment_size: 0,
        private_segment_size: 0,
        kernarg: 0,
        dispatch_ptr: 0,
        queue_ptr: 0,
        dispatch_id: 0,
    };
    let e = run(&d, &mem, &RunOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unimplemented);
    assert_eq!(e.mnemonic, Some("v_cvt_sr_fp8_f32"));
    assert_eq!((e.pc, e.pc_offset), (CODE + 68, 4));
    let text = e.to_string();
    assert!(text.starts_with("unimplemented instruction `v_cvt_sr_fp8_f32` ["), "{text}");
    assert!(text.contains("(entry+0x4), workgroup 0 wave 0"), "{text}");
}
