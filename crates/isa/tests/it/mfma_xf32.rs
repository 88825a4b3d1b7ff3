//! gfx942's `v_mfma_f32_16x16x8_xf32` and `v_mfma_f32_32x32x4_xf32`, assembled by `llvm-mc-19`: every
//! element of D against a host GEMM, and the lane layout on its own (one product at a time).
//!
//! Input precision: the oracle drops the low 13 bits of each f32 of A and B before multiplying, as AMD's
//! own host reference for the xf32 GEMM does (rocBLAS and hipBLASLt clients, with the xf32 math mode on,
//! pass A and B through the single-argument `rocblas_xfloat32(float)` / `hipblasLtXfloat32(float)`
//! constructor, `truncate_float_to_xfloat32`: `bits & 0xffffe000`, then run an f32 GEMM). The inputs carry
//! random low bits, so an interpreter that used the full f32 or rounded to nearest would fail.
//!
//! Operand placement: the equations of AMD's matrix instruction calculator
//! (`matrix_calculator.py -a CDNA3 -i v_mfma_f32_16x16x8_xf32 -d`, and `32x32x4`): `A[i][k]` in register
//! `k%2`, lane `M*floor(k/2) + i`; `B[k][j]` likewise with `j`; `C`/`D[i][j]` in register `i%4`, lane
//! `16*floor(i/4) + j` (16x16) and register `4*floor(i/8) + i%4`, lane `(32*floor(i/4))%64 + j` (32x32).
//! The calculator lists CBSZ/ABID and BLGP as unsupported for both.

use crate::classes::run_body;

struct Shape {
    name: &'static str,
    m: usize,
    k: usize,
    acc: usize,
    d_at: fn(usize, usize) -> (usize, usize),
}

const S16: Shape =
    Shape { name: "v_mfma_f32_16x16x8_xf32", m: 16, k: 8, acc: 4, d_at: |i, j| (i % 4, 16 * (i / 4) + j) };
const S32: Shape = Shape {
    name: "v_mfma_f32_32x32x4_xf32",
    m: 32,
    k: 4,
    acc: 16,
    d_at: |i, j| (4 * (i / 8) + i % 4, (32 * (i / 4)) % 64 + j),
};

impl Shape {
    /// (register, lane) of `A[i][k]` (and of `B[k][i]`).
    fn in_at(&self, i: usize, k: usize) -> (usize, usize) {
        (k % 2, self.m * (k / 2) + i)
    }
}

/// AMD's host model of an xf32 input (see the module comment).
fn xf32(bits: u32) -> f64 {
    f64::from(f32::from_bits(bits & 0xffff_e000))
}

/// Runs `s` on gfx942 with the f32 bits of A (`a[i][k]`), B (`b[k][j]`) and C; returns `D[i][j]`.
fn run(s: &Shape, a: &[Vec<u32>], b: &[Vec<u32>], c: &[Vec<f32>]) -> Option<Vec<Vec<f32>>> {
    // One 0x100-byte region per register, one dword per lane: A's two, B's two, then C's.
    let mut data = vec![0u8; 0x100 * (4 + s.acc)];
    let mut put = |region: usize, lane: usize, v: u32| {
        data[0x100 * region + 4 * lane..][..4].copy_from_slice(&v.to_le_bytes());
    };
    for i in 0..s.m {
        for k in 0..s.k {
            let (r, lane) = s.in_at(i, k);
            put(r, lane, a[i][k]);
            put(2 + r, lane, b[k][i]);
        }
        for j in 0..s.m {
            let (r, lane) = (s.d_at)(i, j);
            put(4 + r, lane, c[i][j].to_bits());
        }
    }
    // A in v[10:11], B in v[12:13], C in v[20..], D in v[60..].
    let mut body = String::new();
    for (region, reg) in (0..4).map(|h| (h, 10 + h)).chain((0..s.acc).map(|r| (4 + r, 20 + r))) {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    body.push_str(&format!(
        "{} v[60:{}], v[10:11], v[12:13], v[20:{}]\ns_nop 7\ns_nop 7\ns_nop 7\n",
        s.name,
        59 + s.acc,
        19 + s.acc
    ));
    for r in 0..s.acc {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 60 + r));
    }
    let out = run_body("gfx942", 64, &body, s.acc, &data)?;
    let d_at = |i: usize, j: usize| {
        let (r, lane) = (s.d_at)(i, j);
        f32::from_bits(out[r][lane])
    };
    Some((0..s.m).map(|i| (0..s.m).map(|j| d_at(i, j)).collect()).collect())
}

/// A deterministic stream of u32s.
fn lcg(seed: u32) -> impl FnMut() -> u32 {
    let mut x = seed;
    move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        x
    }
}

/// The f32 bits of `n/16` (|n| <= 64, so at most 7 significant bits) with random low 13 bits added: its
/// xf32 value is `n/16`, its f32 value is not (unless the random bits are 0), and rounding to nearest
/// would give a different xf32 value whenever the low bits are above half an xf32 step.
fn with_low_bits(n: i32, noise: u32) -> u32 {
    let bits = (n as f32 / 16.0).to_bits();
    if n == 0 {
        bits
    } else {
        bits | (noise & 0x1fff)
    }
}

#[test]
fn mfma_xf32_forms_match_a_host_gemm_of_truncated_inputs() {
    for s in [&S16, &S32] {
        let mut r = lcg(7 + s.m as u32);
        let mut small = move || {
            let x = r();
            (((x >> 16) % 129) as i32 - 64, x >> 3)
        };
        let mut input = |rows: usize, cols: usize| -> Vec<Vec<u32>> {
            (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            let (n, noise) = small();
                            with_low_bits(n, noise)
                        })
                        .collect()
                })
                .collect()
        };
        let a = input(s.m, s.k);
        let b = input(s.k, s.m);
        let c: Vec<Vec<f32>> =
            input(s.m, s.m).iter().map(|row| row.iter().map(|&v| xf32(v) as f32 / 16.0).collect()).collect();
        // The inputs must exercise the truncation: most have low bits above half a step.
        let above_half = a.iter().flatten().filter(|&&v| v & 0x1fff > 0x1000).count();
        assert!(above_half > s.m * s.k / 4, "{}: only {above_half} inputs above half a step", s.name);
        let Some(d) = run(s, &a, &b, &c) else { return };
        for i in 0..s.m {
            for j in 0..s.m {
                // Multiples of 2^-8 below 2^8: the sum is exact in f32 in any order.
                let want = f64::from(c[i][j]) + (0..s.k).map(|k| xf32(a[i][k]) * xf32(b[k][j])).sum::<f64>();
                assert_eq!(f64::from(d[i][j]), want, "{}: D[{i}][{j}]", s.name);
            }
        }
    }
}

/// One product at a time: A is 1 (plus low bits the core drops) at `(i, k)` only, B likewise at `(k, j)`,
/// C 0; D must be 1 at `(i, j)` and 0 everywhere else, where the calculator's equations put it. Then C
/// alone, with distinct values, must come back as D in the calculator's accumulator layout.
#[test]
fn mfma_xf32_operands_sit_where_amds_calculator_puts_them() {
    let one = 1f32.to_bits() | 0x1abc;
    for s in [&S16, &S32] {
        let zero_c = vec![vec![0f32; s.m]; s.m];
        let mut cases = Vec::new();
        for k in 0..s.k {
            cases.push((k * 3 % s.m, k, (k * 5 + 1) % s.m));
        }
        cases.extend([(s.m - 1, s.k - 1, 0), (s.m / 2 + 1, 1, s.m - 1), (0, s.k / 2, s.m / 2)]);
        for (i, k, j) in cases {
            let mut a = vec![vec![0u32; s.k]; s.m];
            let mut b = vec![vec![0u32; s.m]; s.k];
            a[i][k] = one;
            b[k][j] = one;
            let Some(d) = run(s, &a, &b, &zero_c) else { return };
            for ii in 0..s.m {
                for jj in 0..s.m {
                    let want = if (ii, jj) == (i, j) { 1.0 } else { 0.0 };
                    assert_eq!(d[ii][jj], want, "{}: A({i},{k}) B({k},{j}): D[{ii}][{jj}]", s.name);
                }
            }
        }
        let c: Vec<Vec<f32>> = (0..s.m).map(|i| (0..s.m).map(|j| (1 + i * 64 + j) as f32).collect()).collect();
        let zero_a = vec![vec![0u32; s.k]; s.m];
        let zero_b = vec![vec![0u32; s.m]; s.k];
        let d = run(s, &zero_a, &zero_b, &c).unwrap();
        assert_eq!(d, c, "{}: C/D layout", s.name);
    }
}
