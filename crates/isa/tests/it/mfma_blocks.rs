//! CDNA matrix instructions beyond the single-block f32/f16/bf16_1k/f64 shapes of `mfma.rs`: the
//! multi-block shapes (2, 4 and 16 blocks), the gfx908/gfx90a bf16 forms with two values per register,
//! i8 (gfx908/gfx90a four per register, gfx942 eight in two registers), f64 4x4x4 (four blocks) and the
//! gfx942 `_<B>b_` spellings, each against a host GEMM per block; and the CBSZ/ABID and BLGP modifiers.
//!
//! Operand placement uses the layout equations AMD's matrix instruction calculator prints
//! (github.com/ROCm/amd_matrix_instruction_calculator, `matrix_calculator.py -a CDNA2|CDNA3 -i <inst>
//! -d`, "Matrix element to register mapping"), transcribed per instruction below, not the
//! interpreter's own layout code: a transposed, permuted or block-swapped layout fails the GEMM.

use crate::classes::run_body;

/// Element type of A and B.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    F32,
    F16,
    Bf16,
    I8,
    F64,
}

/// (register, lane, bit offset) of an input element: `(block, row-or-column, k)`.
type InAt = fn(usize, usize, usize) -> (usize, usize, usize);
/// (register, lane) of `D[i][j]` of a block.
type OutAt = fn(usize, usize, usize) -> (usize, usize);

struct Case {
    name: &'static str,
    ty: Ty,
    m: usize,
    n: usize,
    k: usize,
    blocks: usize,
    in_regs: usize,
    acc_regs: usize,
    a_at: InAt,
    b_at: InAt,
    d_at: OutAt,
}

/// Bits of `v` (a small integer) as `ty`, and how many bits they take.
fn encode(ty: Ty, v: i64) -> (u64, usize) {
    match ty {
        Ty::F32 => (u64::from((v as f32).to_bits()), 32),
        Ty::F64 => ((v as f64).to_bits(), 64),
        Ty::Bf16 => (u64::from((v as f32).to_bits() >> 16), 16),
        Ty::F16 => (u64::from(crate_h16(v)), 16),
        Ty::I8 => (u64::from(v as i8 as u8), 8),
    }
}

/// f16 bits of a small integer (exact).
fn crate_h16(v: i64) -> u16 {
    assert!(v.abs() <= 2048);
    if v == 0 {
        return 0;
    }
    let (sign, a) = (u16::from(v < 0) << 15, v.unsigned_abs() as u32);
    let e = 31 - a.leading_zeros();
    sign | (((e + 15) << 10) | ((a << (10 - e)) & 0x3ff)) as u16
}

/// The modifiers written after the operands.
#[derive(Clone, Copy, Default)]
struct Mods {
    cbsz: u8,
    abid: u8,
    blgp: u8,
}

/// Runs the instruction on `target` with `a[blk][i][k]`, `b[blk][k][j]`, `c[blk][i][j]` placed by the
/// case's equations; returns `D[blk][i][j]` as i64 (every value is an exact small integer).
#[allow(clippy::type_complexity)]
fn run(
    target: &str,
    cs: &Case,
    agpr: bool,
    mods: Mods,
    a: &[Vec<Vec<i64>>],
    b: &[Vec<Vec<i64>>],
    c: &[Vec<Vec<i64>>],
) -> Option<Vec<Vec<Vec<i64>>>> {
    let (ir, acc) = (cs.in_regs, cs.acc_regs);
    let mut data = vec![0u8; 0x100 * (2 * ir + acc)];
    let mut put = |region: usize, lane: usize, bit: usize, (v, bits): (u64, usize)| {
        for (h, part) in [(0usize, v), (1, v >> 32)].into_iter().take(bits.div_ceil(32)) {
            let o = 0x100 * (region + h) + 4 * lane;
            let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
            let mask = if bits >= 32 { u32::MAX } else { ((1u32 << bits) - 1) << bit };
            let new = (old & !mask) | (((part as u32) << bit) & mask);
            data[o..o + 4].copy_from_slice(&new.to_le_bytes());
        }
    };
    let out_ty = if cs.ty == Ty::F64 {
        Ty::F64
    } else if cs.ty == Ty::I8 {
        Ty::I8
    } else {
        Ty::F32
    };
    for blk in 0..cs.blocks {
        for i in 0..cs.m {
            for kk in 0..cs.k {
                let (r, lane, bit) = (cs.a_at)(blk, i, kk);
                put(r, lane, bit, encode(cs.ty, a[blk][i][kk]));
            }
        }
        for kk in 0..cs.k {
            for j in 0..cs.n {
                let (r, lane, bit) = (cs.b_at)(blk, j, kk);
                put(ir + r, lane, bit, encode(cs.ty, b[blk][kk][j]));
            }
        }
        for i in 0..cs.m {
            for j in 0..cs.n {
                let (r, lane) = (cs.d_at)(blk, i, j);
                let bits = match out_ty {
                    Ty::F64 => (c[blk][i][j] as f64).to_bits(),
                    Ty::I8 => u64::from(c[blk][i][j] as i32 as u32),
                    _ => u64::from((c[blk][i][j] as f32).to_bits()),
                };
                put(2 * ir + r, lane, 0, (bits, if out_ty == Ty::F64 { 64 } else { 32 }));
            }
        }
    }
    // A in v[10..], B in v[14..], C in v[20..], D in v[60..].
    let mut body = String::new();
    let mut load = |region: usize, reg: usize| {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    };
    for h in 0..ir {
        load(h, 10 + h);
        load(ir + h, 14 + h);
    }
    for r in 0..acc {
        load(2 * ir + r, 20 + r);
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    let range = |base: usize, n: usize| if n == 1 { format!("v{base}") } else { format!("v[{base}:{}]", base + n - 1) };
    let mut suffix = String::new();
    if mods.cbsz != 0 || mods.abid != 0 {
        suffix.push_str(&format!(" cbsz:{} abid:{}", mods.cbsz, mods.abid));
    }
    if mods.blgp != 0 {
        suffix.push_str(&format!(" blgp:{}", mods.blgp));
    }
    let (srca, srcb) = (range(10, ir), range(14, ir));
    if agpr {
        for r in 0..acc {
            body.push_str(&format!("v_accvgpr_write_b32 a{r}, v{}\n", 20 + r));
        }
        let accs = format!("a[0:{}]", acc - 1);
        body.push_str(&format!("{} {accs}, {srca}, {srcb}, {accs}{suffix}\ns_nop 7\ns_nop 7\n", cs.name));
        for r in 0..acc {
            body.push_str(&format!("v_accvgpr_read_b32 v{}, a{r}\n", 1 + r));
        }
    } else {
        body.push_str(&format!(
            "{} {}, {srca}, {srcb}, {}{suffix}\ns_nop 7\ns_nop 7\n",
            cs.name,
            range(60, acc),
            range(20, acc)
        ));
        for r in 0..acc {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 60 + r));
        }
    }
    let out = run_body(target, 64, &body, acc, &data)?;
    Some(
        (0..cs.blocks)
            .map(|blk| {
                (0..cs.m)
                    .map(|i| {
                        (0..cs.n)
                            .map(|j| {
                                let (r, lane) = (cs.d_at)(blk, i, j);
                                match out_ty {
                                    Ty::F64 => {
                                        f64::from_bits(u64::from(out[r][lane]) | (u64::from(out[r + 1][lane]) << 32))
                                            as i64
                                    }
                                    Ty::I8 => i64::from(out[r][lane] as i32),
                                    _ => f32::from_bits(out[r][lane]) as i64,
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect(),
    )
}

pub(crate) fn random(blocks: usize, rows: usize, cols: usize, seed: u32) -> Vec<Vec<Vec<i64>>> {
    let mut x = seed;
    (0..blocks)
        .map(|_| {
            (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                            i64::from((x >> 16) % 17) - 8
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// `D = A * B + C` per block, with A's block chosen by CBSZ/ABID and B's elements read from the lanes
/// BLGP names (`b_lane_src`: the (block, column, k) whose value lane-shifted B delivers).
fn check(targets: &[(&str, bool)], cs: &Case) {
    let a = random(cs.blocks, cs.m, cs.k, 1);
    let b = random(cs.blocks, cs.k, cs.n, 2);
    let c = random(cs.blocks, cs.m, cs.n, 3);
    for &(t, agpr) in targets {
        let Some(d) = run(t, cs, agpr, Mods::default(), &a, &b, &c) else { return };
        for blk in 0..cs.blocks {
            for i in 0..cs.m {
                for j in 0..cs.n {
                    let want = c[blk][i][j] + (0..cs.k).map(|kk| a[blk][i][kk] * b[blk][kk][j]).sum::<i64>();
                    assert_eq!(d[blk][i][j], want, "{t} {}: D[{i}][{j}] of block {blk}", cs.name);
                }
            }
        }
    }
}

const GFX9: &[(&str, bool)] = &[("gfx908", true), ("gfx90a", false), ("gfx90a", true)];
const GFX90A: &[(&str, bool)] = &[("gfx90a", false), ("gfx90a", true)];
const GFX942: &[(&str, bool)] = &[("gfx942", false), ("gfx942", true)];

// Equations from the calculator (`-a CDNA2` unless noted). f32 32x32 D: register
// `16*block + 4*floor(i/8) + i%4`, lane `(32*floor(i/4))%64 + j`.
fn d32(blk: usize, i: usize, j: usize) -> (usize, usize) {
    (16 * blk + 4 * (i / 8) + i % 4, (32 * (i / 4)) % 64 + j)
}
// 16x16 D: register `4*block + i%4`, lane `16*floor(i/4) + j`.
fn d16(blk: usize, i: usize, j: usize) -> (usize, usize) {
    (4 * blk + i % 4, 16 * (i / 4) + j)
}
// 4x4 D: register `i`, lane `4*block + j`.
fn d4(blk: usize, i: usize, j: usize) -> (usize, usize) {
    (i, 4 * blk + j)
}

#[test]
fn mfma_multi_block_f32_shapes_match_a_host_gemm_per_block() {
    // v_mfma_f32_32x32x1f32: A lane `32*block + i` (B likewise with j), 2 blocks.
    check(
        GFX9,
        &Case {
            name: "v_mfma_f32_32x32x1f32",
            ty: Ty::F32,
            m: 32,
            n: 32,
            k: 1,
            blocks: 2,
            in_regs: 1,
            acc_regs: 32,
            a_at: |b, i, _| (0, 32 * b + i, 0),
            b_at: |b, j, _| (0, 32 * b + j, 0),
            d_at: d32,
        },
    );
    // v_mfma_f32_16x16x1f32: lane `16*block + i`, 4 blocks.
    let s16 = Case {
        name: "v_mfma_f32_16x16x1f32",
        ty: Ty::F32,
        m: 16,
        n: 16,
        k: 1,
        blocks: 4,
        in_regs: 1,
        acc_regs: 16,
        a_at: |b, i, _| (0, 16 * b + i, 0),
        b_at: |b, j, _| (0, 16 * b + j, 0),
        d_at: d16,
    };
    check(GFX9, &s16);
    // gfx942 spells it with the block count.
    check(GFX942, &Case { name: "v_mfma_f32_16x16x1_4b_f32", ..s16 });
    // v_mfma_f32_4x4x1f32: lane `4*block + i`, 16 blocks.
    check(
        GFX9,
        &Case {
            name: "v_mfma_f32_4x4x1f32",
            ty: Ty::F32,
            m: 4,
            n: 4,
            k: 1,
            blocks: 16,
            in_regs: 1,
            acc_regs: 4,
            a_at: |b, i, _| (0, 4 * b + i, 0),
            b_at: |b, j, _| (0, 4 * b + j, 0),
            d_at: d4,
        },
    );
}

#[test]
fn mfma_multi_block_f16_and_bf16_shapes_match_a_host_gemm_per_block() {
    // v_mfma_f32_32x32x4f16 and _bf16_1k: register `floor(k/2)`, bits `16*(k%2)`, lane `32*block + i`.
    let f16_32 = Case {
        name: "v_mfma_f32_32x32x4f16",
        ty: Ty::F16,
        m: 32,
        n: 32,
        k: 4,
        blocks: 2,
        in_regs: 2,
        acc_regs: 32,
        a_at: |b, i, k| (k / 2, 32 * b + i, 16 * (k % 2)),
        b_at: |b, j, k| (k / 2, 32 * b + j, 16 * (k % 2)),
        d_at: d32,
    };
    check(GFX9, &f16_32);
    check(GFX90A, &Case { name: "v_mfma_f32_32x32x4bf16_1k", ty: Ty::Bf16, ..f16_32 });
    // -a CDNA3 -i v_mfma_f32_16x16x4_4b_f16: register `floor(k/2)`, bits `16*(k%2)`, lane `16*block + i`.
    let f16_16 = Case {
        name: "v_mfma_f32_16x16x4_4b_f16",
        ty: Ty::F16,
        m: 16,
        n: 16,
        k: 4,
        blocks: 4,
        in_regs: 2,
        acc_regs: 16,
        a_at: |b, i, k| (k / 2, 16 * b + i, 16 * (k % 2)),
        b_at: |b, j, k| (k / 2, 16 * b + j, 16 * (k % 2)),
        d_at: d16,
    };
    check(GFX942, &f16_16);
    check(GFX942, &Case { name: "v_mfma_f32_16x16x4_4b_bf16", ty: Ty::Bf16, ..f16_16 });
    check(GFX9, &Case { name: "v_mfma_f32_16x16x4f16", ..f16_16 });
    // v_mfma_f32_4x4x4f16: 16 blocks, lane `4*block + i`.
    check(
        GFX9,
        &Case {
            name: "v_mfma_f32_4x4x4f16",
            m: 4,
            n: 4,
            blocks: 16,
            acc_regs: 4,
            a_at: |b, i, k| (k / 2, 4 * b + i, 16 * (k % 2)),
            b_at: |b, j, k| (k / 2, 4 * b + j, 16 * (k % 2)),
            d_at: d4,
            ..f16_16
        },
    );
}

#[test]
fn mfma_bf16_with_two_values_per_register_matches_a_host_gemm() {
    // v_mfma_f32_32x32x4bf16 (gfx908/gfx90a, not `_1k`): register 0, bits `16*(k%2)`, lane
    // `32*floor(k/2) + i`; one block. rocBLAS's gfx908 bf16 GEMM uses it.
    check(
        GFX9,
        &Case {
            name: "v_mfma_f32_32x32x4bf16",
            ty: Ty::Bf16,
            m: 32,
            n: 32,
            k: 4,
            blocks: 1,
            in_regs: 1,
            acc_regs: 16,
            a_at: |_, i, k| (0, 32 * (k / 2) + i, 16 * (k % 2)),
            b_at: |_, j, k| (0, 32 * (k / 2) + j, 16 * (k % 2)),
            d_at: d32,
        },
    );
    // v_mfma_f32_16x16x2bf16: bits `16*k`, lane `16*block + i`, 4 blocks.
    check(
        GFX9,
        &Case {
            name: "v_mfma_f32_16x16x2bf16",
            ty: Ty::Bf16,
            m: 16,
            n: 16,
            k: 2,
            blocks: 4,
            in_regs: 1,
            acc_regs: 16,
            a_at: |b, i, k| (0, 16 * b + i, 16 * k),
            b_at: |b, j, k| (0, 16 * b + j, 16 * k),
            d_at: d16,
        },
    );
}

#[test]
fn mfma_i8_shapes_accumulate_in_i32_like_a_host_gemm() {
    // v_mfma_i32_16x16x16i8: bits `8*(k%4)`, lane `16*floor(k/4) + i`.
    check(
        GFX9,
        &Case {
            name: "v_mfma_i32_16x16x16i8",
            ty: Ty::I8,
            m: 16,
            n: 16,
            k: 16,
            blocks: 1,
            in_regs: 1,
            acc_regs: 4,
            a_at: |_, i, k| (0, 16 * (k / 4) + i, 8 * (k % 4)),
            b_at: |_, j, k| (0, 16 * (k / 4) + j, 8 * (k % 4)),
            d_at: |_, i, j| d16(0, i, j),
        },
    );
    // v_mfma_i32_4x4x4i8: bits `8*k`, lane `4*block + i`, 16 blocks.
    check(
        GFX9,
        &Case {
            name: "v_mfma_i32_4x4x4i8",
            ty: Ty::I8,
            m: 4,
            n: 4,
            k: 4,
            blocks: 16,
            in_regs: 1,
            acc_regs: 4,
            a_at: |b, i, k| (0, 4 * b + i, 8 * k),
            b_at: |b, j, k| (0, 4 * b + j, 8 * k),
            d_at: d4,
        },
    );
    // -a CDNA3 -i v_mfma_i32_32x32x16_i8: register `floor(k/4)%2`, bits `8*(k%4)`, lane
    // `32*floor(k/8) + i`.
    check(
        GFX942,
        &Case {
            name: "v_mfma_i32_32x32x16_i8",
            ty: Ty::I8,
            m: 32,
            n: 32,
            k: 16,
            blocks: 1,
            in_regs: 2,
            acc_regs: 16,
            a_at: |_, i, k| ((k / 4) % 2, 32 * (k / 8) + i, 8 * (k % 4)),
            b_at: |_, j, k| ((k / 4) % 2, 32 * (k / 8) + j, 8 * (k % 4)),
            d_at: d32,
        },
    );
}

#[test]
fn mfma_f64_4x4x4_four_blocks_match_a_host_gemm() {
    // v_mfma_f64_4x4x4f64: A pair lane `4*block + 16*k + i`; D pair 0, lane `16*(i%4) + 4*block + j`.
    let case = Case {
        name: "v_mfma_f64_4x4x4f64",
        ty: Ty::F64,
        m: 4,
        n: 4,
        k: 4,
        blocks: 4,
        in_regs: 2,
        acc_regs: 2,
        a_at: |b, i, k| (0, 4 * b + 16 * k + i, 0),
        b_at: |b, j, k| (0, 4 * b + 16 * k + j, 0),
        d_at: |b, i, j| (0, 16 * (i % 4) + 4 * b + j),
    };
    check(GFX90A, &case);
    check(GFX942, &Case { name: "v_mfma_f64_4x4x4_4b_f64", ..case });
}

/// CBSZ/ABID: every block of a group of `2^cbsz` multiplies block `abid` of the group's A; BLGP 3: B is
/// read from the lane 16 above (rotating), so block `b` sees the B of block `(b + 4) % 16` in the
/// 4x4x1 layout (lane `4*block + j`). Calculator: `--cbsz 2 --abid 1`, `--blgp 3` (`-B -R`: block 0's
/// B[0][0] in v0{16}).
#[test]
fn mfma_cbsz_abid_broadcast_a_blocks_and_blgp_rotates_b_lanes() {
    let case = Case {
        name: "v_mfma_f32_4x4x1f32",
        ty: Ty::F32,
        m: 4,
        n: 4,
        k: 1,
        blocks: 16,
        in_regs: 1,
        acc_regs: 4,
        a_at: |b, i, _| (0, 4 * b + i, 0),
        b_at: |b, j, _| (0, 4 * b + j, 0),
        d_at: d4,
    };
    let a = random(16, 4, 1, 7);
    let b = random(16, 1, 4, 8);
    let c = random(16, 4, 4, 9);
    let mods = Mods { cbsz: 2, abid: 1, blgp: 3 };
    for &(t, agpr) in GFX9 {
        let Some(d) = run(t, &case, agpr, mods, &a, &b, &c) else { return };
        for blk in 0..16 {
            let (ablk, bblk) = (blk / 4 * 4 + 1, (blk + 4) % 16);
            for i in 0..4 {
                for j in 0..4 {
                    let want = c[blk][i][j] + a[ablk][i][0] * b[bblk][0][j];
                    assert_eq!(d[blk][i][j], want, "{t}: D[{i}][{j}] of block {blk}");
                }
            }
        }
    }
}

/// Every matrix instruction of each target's table (LLVM 21) executes: a new table entry or a parsing
/// regression fails here. Everything named `v_mfma_*`, `v_wmma_*`, `v_smfmac_*`, `v_swmmac_*` runs: SMFMAC
/// (with gfx950's four-register forms), SWMMAC, the xf32, fp8/bf8 and f8f6f4 MFMAs (with gfx950's block
/// scales, `v_mfma_ld_scale_b32` + an f8f6f4 MFMA with ABID[0]), the WMMAs with the iu4 forms.
#[test]
fn every_matrix_instruction_in_the_tables_is_implemented() {
    use rocprof_isa::{op::Op, table::table, TARGETS};
    let mut counts = Vec::new();
    for t in TARGETS {
        let tab = table(t.table).unwrap();
        let (mut all, mut not) = (0, Vec::new());
        for (_, _, e) in tab.entries() {
            if !["v_mfma_", "v_smfmac_", "v_wmma_", "v_swmmac_"].iter().any(|p| e.name.starts_with(p)) {
                continue;
            }
            all += 1;
            if !matches!(e.op, Op::Mfma(_) | Op::Wmma(_) | Op::MfmaLdScale) {
                not.push(e.name);
            }
        }
        counts.push(format!("{} {}/{}", t.name, all - not.len(), all));
        assert!(not.is_empty(), "{}: {not:?}", t.name);
    }
    eprintln!("matrix instructions executed / in the table: {}", counts.join(", "));
}
