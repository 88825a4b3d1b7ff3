//! RDNA3 `v_wmma_f32_16x16x16_f16/bf16` and the 16-bit-output `v_wmma_f16_16x16x16_f16`,
//! `v_wmma_bf16_16x16x16_bf16` (gfx1100, wave32), assembled by `llvm-mc-19`, against a host GEMM.
//!
//! Layouts transcribed from AMD's matrix instruction calculator (`matrix_calculator.py -a RDNA3 -w 32 -i
//! v_wmma_f32_16x16x16_f16 -A/-B/-D --register-layout`, checked there for every element, the same for
//! bf16): `A[i][k]` in register `k/2`, half `k%2`, in both lane `i` and lane `i + 16`; `B[k][j]` likewise
//! in lanes `j` and `j + 16`; `C`/`D[i][j]` in register `i/2`, lane `j + 16*(i%2)`, for 16-bit C/D in the
//! low half, or the high half with OPSEL[2] (`-a RDNA3 -i v_wmma_f16_16x16x16_f16 -D -R --opsel 4`).

use crate::classes::run_body;

/// 16-bit bits of a small integer in f16 (`bf16 = false`) or bf16.
fn bits16(v: f64, bf16: bool) -> u32 {
    assert!(v.fract() == 0.0 && v.abs() <= 2048.0, "{v} is not an exact small integer");
    let f = (v as f32).to_bits();
    if bf16 {
        // Integers above 256 need more than bf16's 8 significant bits: no exact encoding.
        return if f & 0xffff == 0 { f >> 16 } else { u32::MAX };
    }
    if v == 0.0 {
        return 0;
    }
    // f32 -> f16 for exact values: rebias the exponent, keep the top 10 mantissa bits.
    let (sign, exp, man) = (f >> 31, ((f >> 23) & 0xff) - 127 + 15, (f >> 13) & 0x3ff);
    (sign << 15) | (exp << 10) | man
}

type M = Vec<Vec<f64>>;

/// `D = A * B + C` with f32 C and D.
fn run(bf16: bool, a: &M, b: &M, c: &M) -> Option<M> {
    run_with(bf16, None, a, b, c)
}

/// `out16`: C and D of the input type, in the high half of each register when `Some(true)`
/// (`op_sel:[0,0,1]`), else the low half.
fn run_with(bf16: bool, out16: Option<bool>, a: &M, b: &M, c: &M) -> Option<M> {
    // One 0x100-byte region per register (one dword per lane): A's 8, B's 8, C's 8.
    let mut data = vec![0u8; 0x100 * 24];
    let mut put16 = |region: usize, lane: usize, hi: bool, v: u32| {
        let o = 0x100 * region + 4 * lane;
        let old = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
        let new = if hi { (old & 0xffff) | (v << 16) } else { (old & 0xffff_0000) | v };
        data[o..o + 4].copy_from_slice(&new.to_le_bytes());
    };
    for i in 0..16 {
        for k in 0..16 {
            for lane in [i, i + 16] {
                put16(k / 2, lane, k % 2 == 1, bits16(a[i][k], bf16));
                put16(8 + k / 2, lane, k % 2 == 1, bits16(b[k][i], bf16));
            }
        }
    }
    for i in 0..16 {
        for j in 0..16 {
            let (region, lane) = (16 + i / 2, j + 16 * (i % 2));
            match out16 {
                Some(hi) => put16(region, lane, hi, bits16(c[i][j], bf16)),
                None => {
                    let f = (c[i][j] as f32).to_bits();
                    put16(region, lane, false, f & 0xffff);
                    put16(region, lane, true, f >> 16);
                }
            }
        }
    }
    let mut body = String::new();
    for (r, reg) in
        (0..8).map(|r| (r, 10 + r)).chain((0..8).map(|r| (8 + r, 20 + r))).chain((0..8).map(|r| (16 + r, 30 + r)))
    {
        body.push_str(&format!("v_add_nc_u32 v101, {:#x}, v100\nglobal_load_b32 v{reg}, v101, s[6:7]\n", 0x100 * r));
    }
    let name = match (bf16, out16.is_some()) {
        (false, false) => "v_wmma_f32_16x16x16_f16",
        (true, false) => "v_wmma_f32_16x16x16_bf16",
        (false, true) => "v_wmma_f16_16x16x16_f16",
        (true, true) => "v_wmma_bf16_16x16x16_bf16",
    };
    let opsel = if out16 == Some(true) { " op_sel:[0,0,1]" } else { "" };
    body.push_str(&format!("s_waitcnt vmcnt(0)\n{name} v[40:47], v[10:17], v[20:27], v[30:37]{opsel}\n"));
    for r in 0..8 {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
    }
    let out = run_body("gfx1100", 32, &body, 8, &data)?;
    let value = |v: u32| -> f64 {
        match out16 {
            None => f64::from(f32::from_bits(v)),
            Some(hi) => {
                let h = if hi { v >> 16 } else { v & 0xffff };
                // Every 16-bit result of the tests is a small integer; find it by its encoding.
                (-1100..=1100).map(f64::from).find(|&x| bits16(x, bf16) == h).expect("a small integer result")
            }
        }
    };
    Some((0..16).map(|i| (0..16).map(|j| value(out[i / 2][j + 16 * (i % 2)])).collect()).collect())
}

fn matrix(mut f: impl FnMut(usize, usize) -> f64) -> M {
    (0..16).map(|i| (0..16).map(|j| f(i, j)).collect::<Vec<_>>()).collect()
}

#[test]
fn wmma_f32_16x16x16_f16_and_bf16_match_a_host_gemm() {
    let mut x = 777u32;
    let mut rnd = move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        f64::from((x >> 16) % 17) - 8.0
    };
    let (a, b, c) = (matrix(|_, _| rnd()), matrix(|_, _| rnd()), matrix(|_, _| rnd()));
    for bf16 in [false, true] {
        let Some(d) = run(bf16, &a, &b, &c) else { return };
        for i in 0..16 {
            for j in 0..16 {
                let want = c[i][j] + (0..16).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                assert_eq!(d[i][j], want, "bf16 {bf16}: D[{i}][{j}]");
            }
        }
    }
}

/// Values that tell every element apart: B = I shows A's layout in D, A = I shows B's, A = B = 0 shows C's.
#[test]
fn wmma_operands_sit_where_amds_calculator_puts_them() {
    let unique = |i: usize, j: usize| (1 + 16 * i + j) as f64;
    let eye = matrix(|i, j| f64::from(u8::from(i == j)));
    let zero = matrix(|_, _| 0.0);
    for bf16 in [false, true] {
        let u = matrix(unique);
        let Some(d) = run(bf16, &u, &eye, &zero) else { return };
        assert_eq!(d, u, "bf16 {bf16}: A layout");
        assert_eq!(run(bf16, &eye, &u, &zero).unwrap(), u, "bf16 {bf16}: B layout");
        assert_eq!(run(bf16, &zero, &zero, &u).unwrap(), u, "bf16 {bf16}: C/D layout");
    }
}

#[test]
fn wmma_f16_and_bf16_outputs_land_in_the_half_op_sel_selects() {
    // Inputs in -2..=2: every sum (at most 66 in magnitude) is exact in f16 and bf16.
    let mut x = 4242u32;
    let mut rnd = move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        f64::from((x >> 16) % 5) - 2.0
    };
    let (a, b, c) = (matrix(|_, _| rnd()), matrix(|_, _| rnd()), matrix(|_, _| rnd()));
    for bf16 in [false, true] {
        for hi in [false, true] {
            let Some(d) = run_with(bf16, Some(hi), &a, &b, &c) else { return };
            for i in 0..16 {
                for j in 0..16 {
                    let want = c[i][j] + (0..16).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                    assert_eq!(d[i][j], want, "bf16 {bf16} op_sel hi {hi}: D[{i}][{j}]");
                }
            }
        }
    }
}
