//! `v_mfma_f32_{16x16x32,32x32x16}_{fp8,bf8}_{fp8,bf8}` on gfx942 (AMD's FNUZ 8-bit floats: E4M3 with
//! exponent bias 8, E5M2 with bias 16, 0x80 the only NaN) and gfx950 (OCP E4M3FN bias 7, E5M2 bias
//! 15, 0x80 negative zero): every element of D against a host GEMM, the lane layout on its own (one
//! product at a time), and the format difference at 0x80. Assembled with `llvm-mc-19`.
//!
//! Operand placement: the equations AMD's matrix instruction calculator prints for CDNA3
//! (`matrix_calculator.py -a CDNA3 -i v_mfma_f32_16x16x32_fp8_bf8 -d`), transcribed below. gfx950 (not
//! in the calculator) runs the same instructions with the OCP formats (LLVM's `FP8ConversionInsts`); its
//! code is assembled for gfx942 (llvm-mc-21 gives both targets the same encodings of these).

use crate::classes::run_body_assembled_as;

/// A shape: `m` (= n), `k`, and the (register, lane, bit) / (register, lane) equations.
struct Shape {
    m: usize,
    k: usize,
    acc: usize,
    in_at: fn(usize, usize) -> (usize, usize, usize),
    d_at: fn(usize, usize) -> (usize, usize),
}

/// 16x16x32: `A[i][k]` in register `floor(k/4)%2`, bits `8*(k%4)`, lane `16*floor(k/8) + i`; `D[i][j]`
/// in register `i%4`, lane `16*floor(i/4) + j`.
const S16: Shape = Shape {
    m: 16,
    k: 32,
    acc: 4,
    in_at: |i, k| ((k / 4) % 2, 16 * (k / 8) + i, 8 * (k % 4)),
    d_at: |i, j| (i % 4, 16 * (i / 4) + j),
};
/// 32x32x16: lane `32*floor(k/8) + i`; `D[i][j]` in register `4*floor(i/8) + i%4`, lane
/// `(32*floor(i/4))%64 + j`.
const S32: Shape = Shape {
    m: 32,
    k: 16,
    acc: 16,
    in_at: |i, k| ((k / 4) % 2, 32 * (k / 8) + i, 8 * (k % 4)),
    d_at: |i, j| (4 * (i / 8) + i % 4, (32 * (i / 4)) % 64 + j),
};

/// The 8-bit float bits of the small integer `v` (|v| <= 8, exact in both formats): `e4m3` picks
/// 4 exponent and 3 mantissa bits (else 5 and 2), `fnuz` AMD's bias (one more than OCP's).
fn f8(v: i64, e4m3: bool, fnuz: bool) -> u8 {
    assert!(v.abs() <= 8);
    if v == 0 {
        return 0;
    }
    let (ebits, mbits) = if e4m3 { (4, 3) } else { (5, 2) };
    let bias = (1i64 << (ebits - 1)) - 1 + i64::from(fnuz);
    let a = v.unsigned_abs();
    let e = 63 - i64::from(a.leading_zeros());
    let mant = ((a << mbits) >> e) & ((1 << mbits) - 1);
    (u8::from(v < 0) << 7) | (((e + bias) as u8) << mbits) | mant as u8
}

/// Runs `name` on `target` with the bytes of A, B (`a[i][k]`, `b[k][j]`, already encoded) and f32 C
/// placed by `s`'s equations; returns `D[i][j]`.
fn run(target: &str, name: &str, s: &Shape, a: &[Vec<u8>], b: &[Vec<u8>], c: &[Vec<f32>]) -> Option<Vec<Vec<f32>>> {
    let mut data = vec![0u8; 0x100 * (4 + s.acc)];
    for i in 0..s.m {
        for k in 0..s.k {
            let (r, lane, bit) = (s.in_at)(i, k);
            data[0x100 * r + 4 * lane + bit / 8] = a[i][k];
            data[0x100 * (2 + r) + 4 * lane + bit / 8] = b[k][i];
        }
        for j in 0..s.m {
            let (r, lane) = (s.d_at)(i, j);
            data[0x100 * (4 + r) + 4 * lane..][..4].copy_from_slice(&c[i][j].to_le_bytes());
        }
    }
    let mut body = String::new();
    for (region, reg) in
        (0..4).map(|h| (h, if h < 2 { 10 + h } else { 12 + h })).chain((0..s.acc).map(|r| (4 + r, 20 + r)))
    {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    body.push_str(&format!(
        "{name} v[60:{}], v[10:11], v[14:15], v[20:{}]\ns_nop 7\ns_nop 7\ns_nop 7\n",
        59 + s.acc,
        19 + s.acc
    ));
    for r in 0..s.acc {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 60 + r));
    }
    // llvm-mc-19 knows no gfx950; llvm-mc-21 encodes these instructions alike for gfx942 and gfx950.
    let out = run_body_assembled_as(target, "gfx942", 64, &body, s.acc, &data)?;
    Some(
        (0..s.m)
            .map(|i| {
                (0..s.m)
                    .map(|j| {
                        let (r, lane) = (s.d_at)(i, j);
                        f32::from_bits(out[r][lane])
                    })
                    .collect()
            })
            .collect(),
    )
}

fn random(rows: usize, cols: usize, seed: u32) -> Vec<Vec<i64>> {
    let mut one = crate::mfma_blocks::random(1, rows, cols, seed);
    one.remove(0)
}

const FORMS: [(&str, bool, bool); 4] =
    [("fp8_fp8", true, true), ("fp8_bf8", true, false), ("bf8_fp8", false, true), ("bf8_bf8", false, false)];

#[test]
fn mfma_fp8_and_bf8_forms_match_a_host_gemm_in_each_targets_formats() {
    for (target, fnuz) in [("gfx942", true), ("gfx950", false)] {
        for (shape, s) in [("16x16x32", &S16), ("32x32x16", &S32)] {
            for (form, a8, b8) in FORMS {
                let name = format!("v_mfma_f32_{shape}_{form}");
                let (a, b, c) = (random(s.m, s.k, 1), random(s.k, s.m, 2), random(s.m, s.m, 3));
                let enc = |m: &[Vec<i64>], e4m3: bool| -> Vec<Vec<u8>> {
                    m.iter().map(|r| r.iter().map(|&v| f8(v, e4m3, fnuz)).collect()).collect()
                };
                let cf: Vec<Vec<f32>> = c.iter().map(|r| r.iter().map(|&v| v as f32).collect()).collect();
                let Some(d) = run(target, &name, s, &enc(&a, a8), &enc(&b, b8), &cf) else { return };
                for i in 0..s.m {
                    for j in 0..s.m {
                        let want = c[i][j] + (0..s.k).map(|k| a[i][k] * b[k][j]).sum::<i64>();
                        assert_eq!(d[i][j], want as f32, "{target} {name}: D[{i}][{j}]");
                    }
                }
            }
        }
    }
}

/// One product at a time: A is 1 at `(i, k)` only, B 1 at `(k, j)` only, C 0; D must be 1 at `(i, j)`
/// and 0 everywhere else, where the calculator's equations put it.
#[test]
fn mfma_fp8_operands_sit_where_amds_calculator_puts_them() {
    for (shape, s) in [("16x16x32", &S16), ("32x32x16", &S32)] {
        let name = format!("v_mfma_f32_{shape}_fp8_bf8");
        for (i, k, j) in [(0, 0, 0), (1, 5, 3), (s.m - 1, s.k - 1, 2), (3, s.k / 2 + 1, s.m - 1), (s.m / 2 + 1, 9, 7)] {
            let mut a = vec![vec![0u8; s.k]; s.m];
            let mut b = vec![vec![0u8; s.m]; s.k];
            a[i][k] = f8(1, true, true);
            b[k][j] = f8(1, false, true);
            let c = vec![vec![0f32; s.m]; s.m];
            let Some(d) = run("gfx942", &name, s, &a, &b, &c) else { return };
            for ii in 0..s.m {
                for jj in 0..s.m {
                    let want = if (ii, jj) == (i, j) { 1.0 } else { 0.0 };
                    assert_eq!(d[ii][jj], want, "{name}: A({i},{k}) B({k},{j}): D[{ii}][{jj}]");
                }
            }
        }
    }
}

/// 0x80 is NaN in AMD's FNUZ formats (gfx942) and negative zero in OCP's (gfx950).
#[test]
fn fp8_0x80_is_nan_on_gfx942_and_negative_zero_on_gfx950() {
    let s = &S16;
    let a = vec![vec![0x80u8; s.k]; s.m];
    for (target, fnuz) in [("gfx942", true), ("gfx950", false)] {
        let b = vec![vec![f8(1, true, fnuz); s.m]; s.k];
        let c = vec![vec![2f32; s.m]; s.m];
        let Some(d) = run(target, "v_mfma_f32_16x16x32_fp8_fp8", s, &a, &b, &c) else { return };
        for row in &d {
            for &v in row {
                if fnuz {
                    assert!(v.is_nan(), "{target}: {v}");
                } else {
                    assert_eq!(v, 2.0, "{target}");
                }
            }
        }
    }
}
