//! gfx950's `v_mfma_f32_16x16x128_f8f6f4` and `v_mfma_f32_32x32x64_f8f6f4` for all 25 pairs of operand
//! formats CBSZ (A) and BLGP (B) select, against a host GEMM, and the layout one product at a time with
//! A and B in different formats (which a transposed layout, or one format's layout used for the other,
//! fails). The instructions are the bytes llvm-mc-21 gives for `-mcpu=gfx950` (A v[10:..], B v[20:..],
//! C v[60:..], D v[40:..]).
//!
//! Formats and layouts, transcribed from AMD's CDNA4 ISA guide (7.1.5 and table 30): CBSZ/BLGP 0 E4M3
//! (bias 7), 1 E5M2 (bias 15), 2 E2M3 (bias 1), 3 E3M2 (bias 3), 4 E2M1 (bias 1). Each lane holds 32
//! values of its row of A (column of B), densely packed (8, 6 or 4 registers). The 4- and 6-bit formats
//! keep `k` in `32*g .. 32*g+31` in lane group `g` (lanes `i + M*g`); the 8-bit ones hold two halves of
//! K/2, lane group `g` holding `k` in `16*g .. 16*g+15` of each half, the first half in registers 0..3,
//! the second in 4..7 (32x32x64 FP8: "v0..v3 k = 0-15 | 0-15 | 16-31 | 16-31, v4..v7 k = 32-47 ...").

use crate::classes::run_body_assembled_as;

/// (M, CBSZ, BLGP, encoding).
const ENCODINGS: [(usize, u8, u8, [u8; 8]); 50] = [
    (16, 0, 0, [0x28, 0x00, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 0, 1, [0x28, 0x00, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 0, 2, [0x28, 0x00, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (16, 0, 3, [0x28, 0x00, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 0, 4, [0x28, 0x00, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 1, 0, [0x28, 0x01, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 1, 1, [0x28, 0x01, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 1, 2, [0x28, 0x01, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (16, 1, 3, [0x28, 0x01, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 1, 4, [0x28, 0x01, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 2, 0, [0x28, 0x02, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 2, 1, [0x28, 0x02, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 2, 2, [0x28, 0x02, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (16, 2, 3, [0x28, 0x02, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 2, 4, [0x28, 0x02, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 3, 0, [0x28, 0x03, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 3, 1, [0x28, 0x03, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 3, 2, [0x28, 0x03, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (16, 3, 3, [0x28, 0x03, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 3, 4, [0x28, 0x03, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 4, 0, [0x28, 0x04, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 4, 1, [0x28, 0x04, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 4, 2, [0x28, 0x04, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (16, 4, 3, [0x28, 0x04, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 4, 4, [0x28, 0x04, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 0, 0, [0x28, 0x00, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 0, 1, [0x28, 0x00, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 0, 2, [0x28, 0x00, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 0, 3, [0x28, 0x00, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 0, 4, [0x28, 0x00, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 1, 0, [0x28, 0x01, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 1, 1, [0x28, 0x01, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 1, 2, [0x28, 0x01, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 1, 3, [0x28, 0x01, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 1, 4, [0x28, 0x01, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 2, 0, [0x28, 0x02, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 2, 1, [0x28, 0x02, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 2, 2, [0x28, 0x02, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 2, 3, [0x28, 0x02, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 2, 4, [0x28, 0x02, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 3, 0, [0x28, 0x03, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 3, 1, [0x28, 0x03, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 3, 2, [0x28, 0x03, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 3, 3, [0x28, 0x03, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 3, 4, [0x28, 0x03, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 4, 0, [0x28, 0x04, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 4, 1, [0x28, 0x04, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 4, 2, [0x28, 0x04, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 4, 3, [0x28, 0x04, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 4, 4, [0x28, 0x04, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
];

/// (exponent bits, mantissa bits, bias) of a CBSZ/BLGP format code.
fn format(code: u8) -> (u32, u32, i32) {
    [(4, 3, 7), (5, 2, 15), (2, 3, 1), (3, 2, 3), (2, 1, 1)][usize::from(code)]
}

fn bits(code: u8) -> usize {
    let (e, m, _) = format(code);
    (1 + e + m) as usize
}

/// The value of `v` in format `code` (no infinities or NaNs among the values used here).
fn decode(code: u8, v: u32) -> f64 {
    let (e, m, bias) = format(code);
    let sign = if v >> (e + m) & 1 != 0 { -1.0 } else { 1.0 };
    let exp = ((v >> m) & ((1 << e) - 1)) as i32;
    let mant = f64::from(v & ((1 << m) - 1)) / f64::from(1u32 << m);
    if exp == 0 {
        sign * mant * 2f64.powi(1 - bias)
    } else {
        sign * (1.0 + mant) * 2f64.powi(exp - bias)
    }
}

/// The encoding of `x` in format `code` (found by search; `x` must be exact in it).
fn encode(code: u8, x: f64) -> u32 {
    (0..1u32 << bits(code))
        .find(|&v| decode(code, v) == x && (x != 0.0 || v == 0))
        .unwrap_or_else(|| panic!("{x} in format {code}"))
}

/// Where `k` of row/column `idx` is: (lane, bit in the lane's registers as one number).
fn at(code: u8, m: usize, k_total: usize, idx: usize, k: usize) -> (usize, usize) {
    let b = bits(code);
    if b == 8 {
        let half = k_total / 2;
        (idx + m * ((k % half) / 16), (16 * (k / half) + k % 16) * b)
    } else {
        (idx + m * (k / 32), (k % 32) * b)
    }
}

/// D = A * B + C with A in format `ca`, B in `cb` (values exact in both), as f64 per element.
fn run(m: usize, ca: u8, cb: u8, a: &[Vec<f64>], b: &[Vec<f64>], c: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let bytes = ENCODINGS.iter().find(|e| e.0 == m && e.1 == ca && e.2 == cb).unwrap().3;
    run_encoding((m, ca, cb), [a, b, c], &[], &bytes)
}

/// Runs the gfx950 instruction bytes `encoding` (an f8f6f4 MFMA, alone or after `v_mfma_ld_scale_b32`)
/// with A (M x K, format `ca`) in v[10:17], B (K x M, format `cb`) in v[20:27], f32 C in v[60..] and the
/// `extra` registers in v30, v31, ...; returns D (written to v[40..]) as f64 per element.
pub(super) fn run_encoding(
    (m, ca, cb): (usize, u8, u8),
    [a, b, c]: [&[Vec<f64>]; 3],
    extra: &[[u32; 64]],
    encoding: &[u8],
) -> Option<Vec<Vec<f64>>> {
    let k_total = if m == 16 { 128 } else { 64 };
    let acc = m * m / 64;
    // Per lane: A's 8 registers, B's 8, C's `acc`, then the extra ones.
    let mut regs = vec![[0u32; 64]; 16 + acc];
    let mut put = |base: usize, code: u8, (lane, bit): (usize, usize), x: f64| {
        let v = u64::from(encode(code, x)) << (bit % 32);
        regs[base + bit / 32][lane] |= v as u32;
        if v >> 32 != 0 {
            regs[base + bit / 32 + 1][lane] |= (v >> 32) as u32;
        }
    };
    for i in 0..m {
        for k in 0..k_total {
            put(0, ca, at(ca, m, k_total, i, k), a[i][k]);
            put(8, cb, at(cb, m, k_total, i, k), b[k][i]);
        }
    }
    let d_at = |i: usize, j: usize| {
        if m == 16 {
            (i % 4, 16 * (i / 4) + j)
        } else {
            (4 * (i / 8) + i % 4, 32 * ((i / 4) % 2) + j)
        }
    };
    for i in 0..m {
        for j in 0..m {
            let (r, lane) = d_at(i, j);
            regs[16 + r][lane] = (c[i][j] as f32).to_bits();
        }
    }
    regs.extend_from_slice(extra);
    let data: Vec<u8> = regs.iter().flat_map(|r| r.iter().flat_map(|v| v.to_le_bytes())).collect();
    let mut body = String::new();
    let loads = (0..8)
        .map(|r| (r, 10 + r))
        .chain((0..8).map(|r| (8 + r, 20 + r)))
        .chain((0..acc).map(|r| (16 + r, 60 + r)))
        .chain((0..extra.len()).map(|e| (16 + acc + e, 30 + e)));
    for (region, reg) in loads {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    let bytes: Vec<String> = encoding.iter().map(|b| format!("{b:#04x}")).collect();
    body.push_str(&format!("s_waitcnt vmcnt(0)\n.byte {}\ns_nop 7\ns_nop 7\ns_nop 7\n", bytes.join(",")));
    for r in 0..acc {
        body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
    }
    let out = run_body_assembled_as("gfx950", "gfx942", 64, &body, acc, &data)?;
    Some(
        (0..m)
            .map(|i| {
                (0..m)
                    .map(|j| {
                        let (r, lane) = d_at(i, j);
                        f64::from(f32::from_bits(out[r][lane]))
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Values exact in every format (E2M1's: 0, 0.5, 1, 1.5, 2, 3, 4, 6).
pub(super) const VALUES: [f64; 15] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0];

pub(super) fn lcg(x: &mut u32) -> u32 {
    *x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
    *x >> 16
}

#[test]
fn f8f6f4_mfmas_match_a_host_gemm_for_every_pair_of_formats() {
    for m in [16, 32] {
        let k_total = if m == 16 { 128 } else { 64 };
        for ca in 0..5u8 {
            for cb in 0..5u8 {
                let mut x = 3 + u32::from(ca) * 7 + u32::from(cb) + m as u32;
                let mut pick = || VALUES[lcg(&mut x) as usize % VALUES.len()];
                let a: Vec<Vec<f64>> = (0..m).map(|_| (0..k_total).map(|_| pick()).collect()).collect();
                let b: Vec<Vec<f64>> = (0..k_total).map(|_| (0..m).map(|_| pick()).collect()).collect();
                let c: Vec<Vec<f64>> =
                    (0..m).map(|_| (0..m).map(|_| f64::from(lcg(&mut x) % 41) - 20.0).collect()).collect();
                let Some(d) = run(m, ca, cb, &a, &b, &c) else { return };
                for i in 0..m {
                    for j in 0..m {
                        let want = c[i][j] + (0..k_total).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                        assert_eq!(d[i][j], want, "{m}x{m} cbsz {ca} blgp {cb}: D[{i}][{j}]");
                    }
                }
            }
        }
    }
}

/// One product at a time, A E4M3 and B E2M1 (and the reverse): D is A(i,k)*B(k,j) at (i, j) only (not
/// at (j, i)), for `k` in both halves of the 8-bit layout.
#[test]
fn f8f6f4_operands_sit_where_the_cdna4_isa_guide_puts_them() {
    for m in [16, 32] {
        let k_total = if m == 16 { 128 } else { 64 };
        for (ca, cb) in [(0, 4), (4, 0), (2, 1)] {
            for (i, k, j) in [
                (0, 1, 5),
                (3, k_total / 2 + 17, 1),
                (m - 1, k_total - 1, 2),
                (m / 2, 20, m - 3),
                (5, k_total / 2 - 1, 9),
            ] {
                let mut a = vec![vec![0.0; k_total]; m];
                let mut b = vec![vec![0.0; m]; k_total];
                a[i][k] = 1.5;
                b[k][j] = -2.0;
                let c = vec![vec![0.0; m]; m];
                let Some(d) = run(m, ca, cb, &a, &b, &c) else { return };
                for ii in 0..m {
                    for jj in 0..m {
                        let want = if (ii, jj) == (i, j) { -3.0 } else { 0.0 };
                        assert_eq!(
                            d[ii][jj], want,
                            "{m}x{m} cbsz {ca} blgp {cb}: A({i},{k}) B({k},{j}): D[{ii}][{jj}]"
                        );
                    }
                }
            }
        }
    }
}
