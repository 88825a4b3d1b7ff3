//! gfx9's `_legacy` 16-bit multiply-adds (`v_mad_legacy_u16/i16`, `v_fma_legacy_f16`: VI's encodings kept
//! beside the op_sel forms; rocFFT's runtime-compiled gfx90a kernels use `v_mad_legacy_u16` for index
//! arithmetic). Values against the host; as on VI, a 16-bit result without op_sel zeroes the high half.

use crate::classes::run_body;

/// Exact f16 bits of a small non-negative integer.
fn f16_of(n: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let e = 31 - n.leading_zeros();
    ((e + 15) << 10) | ((n << (10 - e)) & 0x3ff)
}

#[test]
fn gfx9_legacy_16_bit_multiply_adds_match_the_host() {
    // Per lane: three u16 pairs as data (a, b, c with both signs), then f16 a = l, b = 3, c = 7.
    let src = |l: u32| (l.wrapping_mul(0x9e37) as u16, (0x8001u32 + 977 * l) as u16, (31_000 - 1_234 * l) as u16);
    let data: Vec<u8> = (0..64)
        .flat_map(|l| {
            let (a, b, c) = src(l);
            [u32::from(a), u32::from(b), u32::from(c)].map(u32::to_le_bytes).concat()
        })
        .collect();
    let body = format!(
        "v_mul_u32_u24 v101, 12, v0
         global_load_dwordx3 v[2:4], v101, s[6:7]
         s_waitcnt vmcnt(0)
         v_mov_b32 v1, 0xdeadbeef
         v_mov_b32 v5, 0xdeadbeef
         v_mad_legacy_u16 v1, v2, v3, v4
         v_mad_legacy_i16 v5, v2, v3, v4
         v_cvt_f16_u16 v7, v0
         v_mov_b32 v8, {three:#x}
         v_mov_b32 v9, {seven:#x}
         v_mov_b32 v6, 0xdeadbeef
         v_fma_legacy_f16 v6, v7, v8, v9",
        three = f16_of(3),
        seven = f16_of(7)
    );
    let Some(out) = run_body("gfx90a", 64, &body, 6, &data) else { return };
    for l in 0..64u32 {
        let (a, b, c) = src(l);
        let u = a.wrapping_mul(b).wrapping_add(c);
        let i = (a as i16).wrapping_mul(b as i16).wrapping_add(c as i16) as u16;
        assert_eq!(out[0][l as usize], u32::from(u), "v_mad_legacy_u16 lane {l}");
        assert_eq!(out[4][l as usize], u32::from(i), "v_mad_legacy_i16 lane {l}");
        assert_eq!(out[5][l as usize], f16_of(3 * l + 7), "v_fma_legacy_f16 lane {l}");
    }
}
