//! gfx950's block-scaled MFMAs, `v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4`: `v_mfma_ld_scale_b32`
//! followed by the f8f6f4 MFMA with ABID[0] set, against a host GEMM that applies the scales per block of
//! 32 `k`. The instructions are the 16 bytes llvm-mc-21 gives for `-mcpu=gfx950` (A v[10:..], B v[20:..],
//! C v[60:..], D v[40:..], A's scales v30, B's v31), with a different byte select for A and B per case.
//!
//! Semantics, transcribed from AMD's CDNA4 ISA guide (7.2, 7.2.1): each scale is an E8M0 exponent (bias
//! 127, 0xFF is NaN); `{OP_SEL_HI[n], OP_SEL[n]}` picks byte 0..3 of SRC0 (A's scales, n = 0) and SRC1
//! (B's, n = 1) in every lane; the scale of row `i` of A (column `j` of B) for `k` block `kb` is in lane
//! `i + 16*kb` (16x16x128) or `i + 32*kb` (32x32x64); it multiplies the dot product of that block before
//! the accumulation. Every scale byte differs per lane and the bytes not selected hold other values (some
//! 0xFF), so a wrong lane or byte gives a wrong (or NaN) result.

use crate::mfma_f8f6f4::{lcg, run_encoding, VALUES};

/// (M, CBSZ, BLGP, A's byte select, B's byte select, encoding of the pair).
type Case = (usize, u8, u8, u32, u32, [u8; 16]);

const CASES: [Case; 13] = [
    (16, 0, 0, 0, 3, [0x00, 0x10, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x10, 0x28, 0x08, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 4, 0, 1, 2, [0x00, 0x08, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x10, 0x28, 0x0c, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (16, 2, 3, 2, 1, [0x00, 0x10, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x0a, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (16, 1, 4, 3, 0, [0x00, 0x08, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x09, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 3, 1, 1, 3, [0x00, 0x18, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x10, 0x28, 0x0b, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (16, 4, 4, 2, 2, [0x00, 0x00, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x18, 0x28, 0x0c, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (16, 0, 2, 3, 1, [0x00, 0x18, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x08, 0xad, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 0, 4, 2, 0, [0x00, 0x00, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x08, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
    (32, 4, 0, 3, 1, [0x00, 0x18, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x0c, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x04]),
    (32, 2, 3, 0, 3, [0x00, 0x10, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x10, 0x28, 0x0a, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x64]),
    (32, 1, 1, 1, 2, [0x00, 0x08, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x10, 0x28, 0x09, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x24]),
    (32, 3, 2, 2, 1, [0x00, 0x10, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x08, 0x28, 0x0b, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x44]),
    (32, 4, 4, 1, 0, [0x00, 0x08, 0xac, 0xd3, 0x1e, 0x3f, 0x02, 0x00, 0x28, 0x0c, 0xae, 0xd3, 0x0a, 0x29, 0xf2, 0x84]),
];

/// D of the scaled pair `case` with A (M x K) in format CBSZ, B (K x M) in format BLGP, C, and the
/// scale registers `sa`, `sb` (one u32 per lane, in v30 and v31), as f64 per element.
fn run(
    case: &Case,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    c: &[Vec<f64>],
    sa: &[u32; 64],
    sb: &[u32; 64],
) -> Option<Vec<Vec<f64>>> {
    let &(m, ca, cb, _, _, enc) = case;
    run_encoding((m, ca, cb), [a, b, c], &[*sa, *sb], &enc)
}

/// A scale register per lane: byte `sel` is an exponent near the bias (125..=129, so every sum stays
/// exact in f32), the other bytes anything else (0xFF, NaN, in byte `(sel + 1) % 4`).
fn scales(x: &mut u32, sel: u32) -> [u32; 64] {
    std::array::from_fn(|_| {
        let mut v = 0u32;
        for byte in 0..4 {
            let b = if byte == sel {
                125 + lcg(x) % 5
            } else if byte == (sel + 1) % 4 {
                0xff
            } else {
                lcg(x) & 0xff
            };
            v |= b << (8 * byte);
        }
        v
    })
}

/// The host reference: `C + sum over kb of 2^(sa-127) * 2^(sb-127) * (A's row i . B's column j over kb)`.
fn want(case: &Case, [a, b, c]: [&[Vec<f64>]; 3], sa: &[u32; 64], sb: &[u32; 64], i: usize, j: usize) -> f64 {
    let &(m, _, _, sel_a, sel_b, _) = case;
    let k_total = if m == 16 { 128 } else { 64 };
    let e8m0 = |v: u32, sel: u32| {
        let e = (v >> (8 * sel)) & 0xff;
        if e == 0xff {
            f64::NAN
        } else {
            2f64.powi(e as i32 - 127)
        }
    };
    c[i][j]
        + (0..k_total / 32)
            .map(|kb| {
                let dot: f64 = (32 * kb..32 * kb + 32).map(|k| a[i][k] * b[k][j]).sum();
                dot * e8m0(sa[i + m * kb], sel_a) * e8m0(sb[j + m * kb], sel_b)
            })
            .sum::<f64>()
}

#[test]
fn scaled_f8f6f4_mfmas_match_a_host_gemm_scaling_each_32_k_block() {
    for case in &CASES {
        let &(m, ca, cb, sel_a, sel_b, _) = case;
        let k_total = if m == 16 { 128 } else { 64 };
        let mut x = 11 + u32::from(ca) * 5 + u32::from(cb) * 3 + sel_a + m as u32;
        let a: Vec<Vec<f64>> =
            (0..m).map(|_| (0..k_total).map(|_| VALUES[lcg(&mut x) as usize % 15]).collect()).collect();
        let b: Vec<Vec<f64>> =
            (0..k_total).map(|_| (0..m).map(|_| VALUES[lcg(&mut x) as usize % 15]).collect()).collect();
        let c: Vec<Vec<f64>> = (0..m).map(|_| (0..m).map(|_| f64::from(lcg(&mut x) % 41) - 20.0).collect()).collect();
        let sa = scales(&mut x, sel_a);
        let sb = scales(&mut x, sel_b);
        let Some(d) = run(case, &a, &b, &c, &sa, &sb) else { return };
        for i in 0..m {
            for j in 0..m {
                let w = want(case, [&a, &b, &c], &sa, &sb, i, j);
                assert_eq!(d[i][j], w, "{m}x{m} cbsz {ca} blgp {cb} sel {sel_a}/{sel_b}: D[{i}][{j}]");
            }
        }
    }
}

/// An E8M0 scale of 0xFF is NaN: A's scale of row 3, block 1 (lane `3 + M`) and B's of column 5, block
/// 0 (lane 5) make row 3 and column 5 NaN and nothing else; 0 is 2^-127 (a block scaled by it and by
/// 2^127 keeps its value).
#[test]
fn scaled_f8f6f4_mfma_e8m0_0xff_is_nan_and_0_is_two_to_the_minus_127() {
    for case in [&CASES[0], &CASES[7]] {
        let &(m, _, _, sel_a, sel_b, _) = case;
        let k_total = if m == 16 { 128 } else { 64 };
        let mut x = 5;
        let a: Vec<Vec<f64>> =
            (0..m).map(|_| (0..k_total).map(|_| VALUES[lcg(&mut x) as usize % 15]).collect()).collect();
        let b: Vec<Vec<f64>> =
            (0..k_total).map(|_| (0..m).map(|_| VALUES[lcg(&mut x) as usize % 15]).collect()).collect();
        let c = vec![vec![1.0; m]; m];
        let mut sa = [127u32 << (8 * sel_a); 64];
        let mut sb = [127u32 << (8 * sel_b); 64];
        sa[3 + m] = 0xff << (8 * sel_a);
        sb[5] = 0xff << (8 * sel_b);
        // Row 7, block 0: 2^-127 * 2^127.
        sa[7] = 0;
        sb[7] = 254 << (8 * sel_b);
        let Some(d) = run(case, &a, &b, &c, &sa, &sb) else { return };
        for i in 0..m {
            for j in 0..m {
                let plain = 1.0 + (0..k_total).map(|k| a[i][k] * b[k][j]).sum::<f64>();
                if i == 3 || j == 5 {
                    assert!(d[i][j].is_nan(), "{m}x{m}: D[{i}][{j}] = {} (want NaN)", d[i][j]);
                } else if i != 7 && j != 7 {
                    assert_eq!(d[i][j], plain, "{m}x{m}: D[{i}][{j}]");
                }
            }
        }
        // Column 7 of block 0 is scaled by 2^127 through B; only row 7 (2^-127 from A) keeps it.
        let dot0 = (0..32).map(|k| a[7][k] * b[k][7]).sum::<f64>();
        let rest = (32..k_total).map(|k| a[7][k] * b[k][7]).sum::<f64>();
        assert_eq!(d[7][7], 1.0 + dot0 + rest, "{m}x{m}: D[7][7]");
    }
}
