//! CDNA matrix instructions `v_mfma_f32_16x16x4f32`, `v_mfma_f32_32x32x2f32` (gfx908 with the accumulator
//! in AGPRs, gfx90a and gfx942 in VGPRs and AGPRs) and `v_mfma_f64_16x16x4f64` (gfx90a, gfx942), assembled
//! by `llvm-mc-19`, against a host GEMM.
//!
//! The operand layouts below are transcribed from AMD's matrix instruction calculator
//! (github.com/ROCm/amd_matrix_instruction_calculator, `matrix_calculator.py -a CDNA2 -i <instruction>
//! -A/-B/-D --register-layout`), checked there for every element of both instructions: `A[i][k]` in lane
//! `i + M*k`, `B[k][j]` in lane `j + N*k` (one register each); `C`/`D[i][j]` in register `i%4`, lane
//! `j + 16*(i/4)` (16x16) and register `i%4 + 4*(i/8)`, lane `j + 32*((i/4)%2)` (32x32).

use crate::classes::run_body;

#[derive(Clone, Copy)]
struct Shape {
    name: &'static str,
    m: usize,
    n: usize,
    k: usize,
    /// f64 elements (register pairs).
    wide: bool,
    /// f16 inputs (four k values per lane in two registers), f32 accumulator.
    half: bool,
    /// The 16-bit inputs are bf16.
    bf16: bool,
}

const S16: Shape = Shape { name: "v_mfma_f32_16x16x4f32", m: 16, n: 16, k: 4, wide: false, half: false, bf16: false };
const S32: Shape = Shape { name: "v_mfma_f32_32x32x2f32", m: 32, n: 32, k: 2, wide: false, half: false, bf16: false };
/// `-i v_mfma_f32_16x16x16f16` / `v_mfma_f32_32x32x8f16`: `A[i][k]` in register `(k%4)/2`, half `k%2`, lane
/// `i + M*(k/4)`; `B[k][j]` likewise with lane `j + N*(k/4)`; C/D as for the f32 shapes.
const H16: Shape = Shape { name: "v_mfma_f32_16x16x16f16", m: 16, n: 16, k: 16, wide: false, half: true, bf16: false };
const H32: Shape = Shape { name: "v_mfma_f32_32x32x8f16", m: 32, n: 32, k: 8, wide: false, half: true, bf16: false };
/// `-i v_mfma_f32_16x16x16bf16_1k` / `v_mfma_f32_32x32x8bf16_1k`: the f16 layouts.
const B16: Shape =
    Shape { name: "v_mfma_f32_16x16x16bf16_1k", m: 16, n: 16, k: 16, wide: false, half: true, bf16: true };
const B32: Shape = Shape { name: "v_mfma_f32_32x32x8bf16_1k", m: 32, n: 32, k: 8, wide: false, half: true, bf16: true };
/// `-a CDNA2 -i v_mfma_f64_16x16x4f64`: A and B as for f32 (pairs), `D[i][j]` in `v[2*(i/4)+1 : 2*(i/4)]`,
/// lane `j + 16*(i%4)`.
const D16: Shape = Shape { name: "v_mfma_f64_16x16x4f64", m: 16, n: 16, k: 4, wide: true, half: false, bf16: false };

impl Shape {
    /// Dwords per element.
    fn dw(self) -> usize {
        if self.wide {
            2
        } else {
            1
        }
    }

    /// Registers of A (and of B) per lane.
    fn in_regs(self) -> usize {
        if self.wide || self.half {
            2
        } else {
            1
        }
    }

    /// (register, lane, high half) of `A[i][k]`; `B[k][j]` is at `a_at(j, k)` with N for M.
    fn in_at(self, rows: usize, i: usize, k: usize) -> (usize, usize, bool) {
        if self.half {
            ((k % 4) / 2, i + rows * (k / 4), k % 2 == 1)
        } else {
            (0, i + rows * k, false)
        }
    }

    fn regs(self) -> usize {
        self.m * self.n / 64 * self.dw()
    }

    /// (register, lane) of `D[i][j]` per AMD's calculator.
    fn d_at(self, i: usize, j: usize) -> (usize, usize) {
        if self.wide {
            (2 * (i / 4), j + 16 * (i % 4))
        } else if self.m == 16 {
            (i % 4, j + 16 * (i / 4))
        } else {
            (i % 4 + 4 * (i / 8), j + 32 * ((i / 4) % 2))
        }
    }
}

/// Runs `D = A * B + C` on `target`; `acc_in_agprs` keeps C and D in AGPRs. Returns `D[i][j]`. Values
/// are f64 on the host and stored as the shape's element type (exactly, for the values the tests use).
fn run(
    target: &str,
    s: Shape,
    acc_in_agprs: bool,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    c: &[Vec<f64>],
) -> Option<Vec<Vec<f64>>> {
    let (regs, ir) = (s.regs(), s.in_regs());
    // Data: one 0x100-byte region per register, one dword per lane: A's registers, B's, then C's.
    let mut data = vec![0u8; 0x100 * (2 * ir + regs)];
    let mut put = |region: usize, lane: usize, hi: bool, v: f64, f16: bool| {
        let words: Vec<u32> = if f16 && s.bf16 {
            // bf16: the high half of the f32 (exact for the small integers used).
            assert_eq!((v as f32).to_bits() & 0xffff, 0, "{v} is not exact in bf16");
            vec![(v as f32).to_bits() >> 16]
        } else if f16 {
            vec![h16(v)]
        } else if s.wide {
            vec![v.to_bits() as u32, (v.to_bits() >> 32) as u32]
        } else {
            vec![(v as f32).to_bits()]
        };
        for (h, x) in words.iter().enumerate() {
            let o = 0x100 * (region + h) + 4 * lane;
            let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
            let new = match (f16, hi) {
                (false, _) => *x,
                (true, false) => (old & 0xffff_0000) | x,
                (true, true) => (old & 0xffff) | (x << 16),
            };
            data[o..o + 4].copy_from_slice(&new.to_le_bytes());
        }
    };
    for i in 0..s.m {
        for kk in 0..s.k {
            let (r, lane, hi) = s.in_at(s.m, i, kk);
            put(r, lane, hi, a[i][kk], s.half);
        }
    }
    for kk in 0..s.k {
        for j in 0..s.n {
            let (r, lane, hi) = s.in_at(s.n, j, kk);
            put(ir + r, lane, hi, b[kk][j], s.half);
        }
    }
    for i in 0..s.m {
        for j in 0..s.n {
            let (r, lane) = s.d_at(i, j);
            put(2 * ir + r, lane, false, c[i][j], false);
        }
    }
    // A in v[10..], B in v[12..], C in v[20..], D in v[40..].
    let mut body = String::new();
    let mut load = |region: usize, reg: usize| {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    };
    for h in 0..ir {
        load(h, 10 + h);
        load(ir + h, 12 + h);
    }
    for r in 0..regs {
        load(2 * ir + r, 20 + r);
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    let (last, src) = (regs - 1, if ir == 2 { ("v[10:11]", "v[12:13]") } else { ("v10", "v12") });
    if acc_in_agprs {
        for r in 0..regs {
            body.push_str(&format!("v_accvgpr_write_b32 a{r}, v{}\n", 20 + r));
        }
        body.push_str(&format!(
            "{} a[0:{last}], {}, {}, a[0:{last}]\ns_nop 7\ns_nop 7\ns_nop 7\n",
            s.name, src.0, src.1
        ));
        for r in 0..regs {
            body.push_str(&format!("v_accvgpr_read_b32 v{}, a{r}\n", 1 + r));
        }
    } else {
        body.push_str(&format!(
            "{} v[40:{}], {}, {}, v[20:{}]\ns_nop 7\ns_nop 7\ns_nop 7\n",
            s.name,
            40 + last,
            src.0,
            src.1,
            20 + last
        ));
        for r in 0..regs {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
        }
    }
    let out = run_body(target, 64, &body, regs, &data)?;
    Some(
        (0..s.m)
            .map(|i| {
                (0..s.n)
                    .map(|j| {
                        let (r, lane) = s.d_at(i, j);
                        if s.wide {
                            f64::from_bits(u64::from(out[r][lane]) | (u64::from(out[r + 1][lane]) << 32))
                        } else {
                            f64::from(f32::from_bits(out[r][lane]))
                        }
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Every (target, accumulator in AGPRs) combination: gfx908 has only AGPR accumulators.
const CASES: &[(&str, bool)] = &[("gfx908", true), ("gfx90a", false), ("gfx90a", true), ("gfx942", false)];

/// f16 bits of `v`, an integer small enough to be exact in f16.
fn h16(v: f64) -> u32 {
    assert!(v.fract() == 0.0 && v.abs() <= 2048.0, "{v} is not an exact small f16 integer");
    if v == 0.0 {
        return 0;
    }
    let (sign, a) = (u32::from(v < 0.0) << 15, v.abs() as u32);
    let e = 31 - a.leading_zeros(); // 2^e <= a
    let man = (a << (10 - e)) & 0x3ff;
    sign | ((e + 15) << 10) | man
}

fn matrix(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f64) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; cols]; rows];
    for (i, r) in m.iter_mut().enumerate() {
        for (j, x) in r.iter_mut().enumerate() {
            *x = f(i, j);
        }
    }
    m
}

fn check_gemm(s: Shape) {
    // Small integers: every product and sum is exact in f32, whatever order the hardware adds in.
    let mut x = 12345u32;
    let mut rnd = move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        f64::from((x >> 16) % 17) - 8.0
    };
    let a = matrix(s.m, s.k, |_, _| rnd());
    let b = matrix(s.k, s.n, |_, _| rnd());
    let c = matrix(s.m, s.n, |_, _| rnd());
    for &(t, agpr) in CASES {
        if (s.wide || s.bf16) && t == "gfx908" {
            continue; // no f64 or bf16_1k matrix instructions on gfx908
        }
        let Some(d) = run(t, s, agpr, &a, &b, &c) else { return };
        for i in 0..s.m {
            for j in 0..s.n {
                let want = c[i][j] + (0..s.k).map(|kk| a[i][kk] * b[kk][j]).sum::<f64>();
                assert_eq!(
                    d[i][j],
                    want,
                    "{t} {} (acc in {}): D[{i}][{j}]",
                    s.name,
                    if agpr { "AGPRs" } else { "VGPRs" }
                );
            }
        }
    }
}

#[test]
fn mfma_f32_16x16x4f32_matches_a_host_gemm() {
    check_gemm(S16);
}

#[test]
fn mfma_f32_32x32x2f32_matches_a_host_gemm() {
    check_gemm(S32);
}

#[test]
fn mfma_f32_16x16x16f16_matches_a_host_gemm() {
    check_gemm(H16);
}

#[test]
fn mfma_f32_32x32x8f16_matches_a_host_gemm() {
    check_gemm(H32);
}

#[test]
fn mfma_f32_16x16x16bf16_1k_matches_a_host_gemm() {
    check_gemm(B16);
}

#[test]
fn mfma_f32_32x32x8bf16_1k_matches_a_host_gemm() {
    check_gemm(B32);
}

#[test]
fn mfma_f64_16x16x4f64_matches_a_host_gemm() {
    check_gemm(D16);
}

/// The layouts on their own, with values that tell every element apart (a transposed or permuted layout
/// fails): B selecting A's columns shows where A's elements went, A selecting B's rows where B's went,
/// and A = B = 0 shows C's positions coming back as D.
#[test]
fn mfma_operands_sit_where_amds_calculator_puts_them() {
    for s in [S16, S32, D16, H16, H32, B16, B32] {
        let (t, agpr) = ("gfx90a", false);
        // Distinct values small enough to be exact in bf16 (at most 256 per input matrix).
        let unique_in = |cols: usize| move |i: usize, j: usize| (1 + i * cols + j) as f64;
        let unique = |i: usize, j: usize| (1 + i * 64 + j) as f64;
        let a = matrix(s.m, s.k, unique_in(s.k));
        let select_a = matrix(s.k, s.n, |kk, j| f64::from(u8::from(kk == j)));
        let Some(d) = run(t, s, agpr, &a, &select_a, &matrix(s.m, s.n, |_, _| 0.0)) else { return };
        for i in 0..s.m {
            for j in 0..s.n {
                let want = if j < s.k { a[i][j] } else { 0.0 };
                assert_eq!(d[i][j], want, "{}: A layout, D[{i}][{j}]", s.name);
            }
        }
        let b = matrix(s.k, s.n, unique_in(s.n));
        let select_b = matrix(s.m, s.k, |i, kk| f64::from(u8::from(i == kk)));
        let d = run(t, s, agpr, &select_b, &b, &matrix(s.m, s.n, |_, _| 0.0)).unwrap();
        for i in 0..s.m {
            for j in 0..s.n {
                let want = if i < s.k { b[i][j] } else { 0.0 };
                assert_eq!(d[i][j], want, "{}: B layout, D[{i}][{j}]", s.name);
            }
        }
        let c = matrix(s.m, s.n, unique);
        let d = run(t, s, agpr, &matrix(s.m, s.k, |_, _| 0.0), &matrix(s.k, s.n, |_, _| 0.0), &c).unwrap();
        assert_eq!(d, c, "{}: C/D layout", s.name);
    }
}
