//! WMMA beyond gfx11 wave32 f16/bf16 (`wmma.rs`): gfx12's layouts (no A/B duplication, 16-bit outputs
//! packed), wave64 on gfx11 and gfx12, and the integer `v_wmma_i32_16x16x16_iu8` with its signedness
//! bits, each against a host GEMM.
//!
//! Operands are placed by the equations AMD's matrix instruction calculator prints
//! (`matrix_calculator.py -a RDNA3|RDNA4 -i <inst> -w 32|64 -d`, "matrix element to register mapping"),
//! transcribed below per case, not by the interpreter's layout code; D is read back by the same
//! equations, so a transposed or permuted layout fails the GEMM.

use crate::classes::run_body;

/// (register, lane, bit offset) of `A[i][k]` (or `B[k][j]` with `j` for `i`).
type InAt = fn(usize, usize) -> (usize, usize, usize);
/// (register, lane, bit offset) of `C`/`D[i][j]`.
type OutAt = fn(usize, usize) -> (usize, usize, usize);

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    F16,
    /// 8-bit integers, signed or not (NEG[0], NEG[1]).
    I8 {
        a_signed: bool,
        b_signed: bool,
    },
}

struct Case {
    mcpu: &'static str,
    lanes: u32,
    name: &'static str,
    ty: Ty,
    /// 16-bit (f16) C and D.
    out16: bool,
    in_regs: usize,
    acc_regs: usize,
    /// Lanes that hold a copy of each A/B element (gfx11 duplicates across lane groups).
    copies: &'static [usize],
    in_at: InAt,
    out_at: OutAt,
}

/// f16 bits of a small integer (exact).
fn h16(v: i64) -> u32 {
    assert!(v.abs() <= 2048);
    if v == 0 {
        return 0;
    }
    let (sign, a) = (u32::from(v < 0) << 15, v.unsigned_abs() as u32);
    let e = 31 - a.leading_zeros();
    sign | ((e + 15) << 10) | ((a << (10 - e)) & 0x3ff)
}

fn random(seed: u32, lo: i64, span: u32) -> Vec<Vec<i64>> {
    let mut x = seed;
    (0..16)
        .map(|_| {
            (0..16)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    lo + i64::from((x >> 16) % span)
                })
                .collect()
        })
        .collect()
}

fn run(cs: &Case, a: &[Vec<i64>], b: &[Vec<i64>], c: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let (ir, acc) = (cs.in_regs, cs.acc_regs);
    let mut data = vec![0u8; 0x100 * (2 * ir + acc)];
    let mut put = |region: usize, lane: usize, bit: usize, bits: usize, v: u32| {
        let o = 0x100 * region + 4 * lane;
        let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
        let mask = if bits == 32 { u32::MAX } else { ((1u32 << bits) - 1) << bit };
        let new = (old & !mask) | ((v << bit) & mask);
        data[o..o + 4].copy_from_slice(&new.to_le_bytes());
    };
    let (enc, bits): (fn(i64) -> u32, usize) = match cs.ty {
        Ty::F16 => (h16, 16),
        Ty::I8 { .. } => (|v| u32::from(v as u8), 8),
    };
    for i in 0..16 {
        for k in 0..16 {
            let (r, lane, bit) = (cs.in_at)(i, k);
            for &off in cs.copies {
                put(r, lane + off, bit, bits, enc(a[i][k]));
                put(ir + r, lane + off, bit, bits, enc(b[k][i]));
            }
        }
    }
    for i in 0..16 {
        for j in 0..16 {
            let (r, lane, bit) = (cs.out_at)(i, j);
            let v = match (cs.ty, cs.out16) {
                (Ty::F16, true) => h16(c[i][j]),
                (Ty::F16, false) => (c[i][j] as f32).to_bits(),
                (Ty::I8 { .. }, _) => c[i][j] as i32 as u32,
            };
            put(2 * ir + r, lane, bit, if cs.out16 { 16 } else { 32 }, v);
        }
    }
    let mut body = String::new();
    let loads = (0..ir)
        .map(|r| (r, 10 + r))
        .chain((0..ir).map(|r| (ir + r, 20 + r)))
        .chain((0..acc).map(|r| (2 * ir + r, 30 + r)));
    for (region, reg) in loads {
        body.push_str(&format!(
            "v_add_nc_u32 v101, {:#x}, v100\nglobal_load_b32 v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    let range = |base: usize, n: usize| if n == 1 { format!("v{base}") } else { format!("v[{base}:{}]", base + n - 1) };
    let neg = match cs.ty {
        Ty::I8 { a_signed, b_signed } if a_signed || b_signed => {
            format!(" neg_lo:[{},{},0]", u8::from(a_signed), u8::from(b_signed))
        }
        _ => String::new(),
    };
    let wait = if cs.mcpu.starts_with("gfx12") { "s_wait_loadcnt 0" } else { "s_waitcnt vmcnt(0)" };
    body.push_str(&format!(
        "{wait}\n{} {}, {}, {}, {}{neg}\n",
        cs.name,
        range(40, acc),
        range(10, ir),
        range(20, ir),
        range(30, acc)
    ));
    for r in 0..acc {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
    }
    let out = run_body(cs.mcpu, cs.lanes, &body, acc, &data)?;
    Some(
        (0..16)
            .map(|i| {
                (0..16)
                    .map(|j| {
                        let (r, lane, bit) = (cs.out_at)(i, j);
                        let v = out[r][lane];
                        match (cs.ty, cs.out16) {
                            (Ty::F16, true) => {
                                let h = (v >> bit) & 0xffff;
                                (-2048..=2048).find(|&x| h16(x) == h).expect("a small integer result")
                            }
                            (Ty::F16, false) => f32::from_bits(v) as i64,
                            (Ty::I8 { .. }, _) => i64::from(v as i32),
                        }
                    })
                    .collect()
            })
            .collect(),
    )
}

fn check(cs: &Case) {
    let (a, b, c) = match cs.ty {
        // Small integers: exact in f16, and every sum (|x| <= 16*9+3) is exact in an f16 output.
        Ty::F16 => (random(11, -3, 7), random(12, -3, 7), random(13, -3, 7)),
        // Full 8-bit ranges: signed -128..127 or unsigned 0..255, per operand.
        Ty::I8 { a_signed, b_signed } => (
            random(14, if a_signed { -128 } else { 0 }, 256),
            random(15, if b_signed { -128 } else { 0 }, 256),
            random(16, -100_000, 200_000),
        ),
    };
    let Some(d) = run(cs, &a, &b, &c) else { return };
    for i in 0..16 {
        for j in 0..16 {
            let want = c[i][j] + (0..16).map(|k| a[i][k] * b[k][j]).sum::<i64>();
            assert_eq!(d[i][j], want, "{} {} wave{}: D[{i}][{j}]", cs.mcpu, cs.name, cs.lanes);
        }
    }
}

// RDNA4, wave32, f16 inputs: A[i][k] in register `2*floor(k/8) + floor(k/2)%2`, bits `16*(k%2)`, lane
// `16*(floor(k/4)%2) + i`.
fn gfx12_w32_f16(i: usize, k: usize) -> (usize, usize, usize) {
    (2 * (k / 8) + (k / 2) % 2, 16 * ((k / 4) % 2) + i, 16 * (k % 2))
}

#[test]
fn gfx12_wmma_f16_wave32_spreads_k_over_lane_groups_and_packs_f16_outputs() {
    let f32_out = Case {
        mcpu: "gfx1201",
        lanes: 32,
        name: "v_wmma_f32_16x16x16_f16",
        ty: Ty::F16,
        out16: false,
        in_regs: 4,
        acc_regs: 8,
        copies: &[0],
        in_at: gfx12_w32_f16,
        // D[i][j]: register `i%8`, lane `16*floor(i/8) + j`.
        out_at: |i, j| (i % 8, 16 * (i / 8) + j, 0),
    };
    check(&f32_out);
    // v_wmma_f16_16x16x16_f16: D[i][j] in register `floor(i/2)%4`, bits `16*(i%2)`, lane `16*floor(i/8) + j`.
    check(&Case {
        name: "v_wmma_f16_16x16x16_f16",
        out16: true,
        acc_regs: 4,
        out_at: |i, j| ((i / 2) % 4, 16 * (i / 8) + j, 16 * (i % 2)),
        ..f32_out
    });
}

#[test]
fn wmma_f16_in_wave64_on_gfx11_and_gfx12() {
    // RDNA3 wave64: A[i][k] in register `floor(k/2)`, bits `16*(k%2)`, lanes i, i+16, i+32, i+48; D[i][j]
    // in register `floor(i/4)`, lane `(16*i)%64 + j`.
    check(&Case {
        mcpu: "gfx1100",
        lanes: 64,
        name: "v_wmma_f32_16x16x16_f16",
        ty: Ty::F16,
        out16: false,
        in_regs: 8,
        acc_regs: 4,
        copies: &[0, 16, 32, 48],
        in_at: |i, k| (k / 2, i, 16 * (k % 2)),
        out_at: |i, j| (i / 4, (16 * i) % 64 + j, 0),
    });
    // RDNA4 wave64: A[i][k] in register `floor(k/2)%2`, lane `32*(floor(k/8)%2) + 16*(floor(k/4)%2) + i`;
    // D[i][j] in register `i%4`, lane `32*(floor(i/4)%2) + 16*floor(i/8) + j`.
    check(&Case {
        mcpu: "gfx1201",
        lanes: 64,
        name: "v_wmma_f32_16x16x16_f16",
        ty: Ty::F16,
        out16: false,
        in_regs: 2,
        acc_regs: 4,
        copies: &[0],
        in_at: |i, k| ((k / 2) % 2, 32 * ((k / 8) % 2) + 16 * ((k / 4) % 2) + i, 16 * (k % 2)),
        out_at: |i, j| (i % 4, 32 * ((i / 4) % 2) + 16 * (i / 8) + j, 0),
    });
}

#[test]
fn wmma_iu8_multiplies_signed_or_unsigned_bytes_as_neg_lo_says() {
    for (a_signed, b_signed) in [(true, true), (false, false), (true, false)] {
        let ty = Ty::I8 { a_signed, b_signed };
        // RDNA3 wave32: A[i][k] in register `floor(k/4)`, bits `8*(k%4)`, lanes i and i+16; D[i][j] in
        // register `floor(i/2)`, lane `(16*i)%32 + j`.
        check(&Case {
            mcpu: "gfx1100",
            lanes: 32,
            name: "v_wmma_i32_16x16x16_iu8",
            ty,
            out16: false,
            in_regs: 4,
            acc_regs: 8,
            copies: &[0, 16],
            in_at: |i, k| (k / 4, i, 8 * (k % 4)),
            out_at: |i, j| (i / 2, (16 * i) % 32 + j, 0),
        });
        // RDNA4 wave32: A[i][k] in register `floor(k/4)%2`, bits `8*(k%4)`, lane `16*floor(k/8) + i`;
        // D[i][j] in register `i%8`, lane `16*floor(i/8) + j`.
        check(&Case {
            mcpu: "gfx1201",
            lanes: 32,
            name: "v_wmma_i32_16x16x16_iu8",
            ty,
            out16: false,
            in_regs: 2,
            acc_regs: 8,
            copies: &[0],
            in_at: |i, k| ((k / 4) % 2, 16 * (k / 8) + i, 8 * (k % 4)),
            out_at: |i, j| (i % 8, 16 * (i / 8) + j, 0),
        });
    }
}
