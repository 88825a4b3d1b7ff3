//! SDWA with a scalar second source (the S1 bit): gfx9/gfx10 code such as rocPRIM's byte reductions masks
//! a selected word with an SGPR (`v_and_b32_sdwa v6, v1, s0 ... src0_sel:WORD_1`). Assembled with `llvm-mc-19`
//! (Debian package llvm-19), checked against the host.

use crate::classes::run_body;

#[test]
fn sdwa_second_source_in_an_sgpr_is_read_from_the_sgpr_on_gfx90a_and_gfx1030() {
    // v2 = lane * 0x30201 | 0x5a000000.
    let common = "s_mov_b32 s8, 0xff\ns_mov_b32 s9, 0x1234\n\
                  v_mul_u32_u24_e32 v2, 0x30201, v0\nv_or_b32_e32 v2, 0x5a000000, v2\n\
                  v_and_b32_sdwa v1, v2, s8 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD\n";
    for (mcpu, lanes, extra) in [
        (
            "gfx90a",
            64u32,
            "v_sub_u32_sdwa v3, s9, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_1\n",
        ),
        (
            "gfx1030",
            32,
            "v_sub_nc_u32_sdwa v3, v2, s9 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD\n",
        ),
    ] {
        let Some(out) = run_body(mcpu, lanes, &format!("{common}{extra}"), 3, &[]) else { return };
        for l in 0..lanes as usize {
            let v2 = (l as u32 * 0x30201) | 0x5a00_0000;
            assert_eq!(out[0][l], (v2 >> 16) & 0xff, "{mcpu} v_and_b32_sdwa lane {l}");
            let byte1 = (v2 >> 8) & 0xff;
            let want = if mcpu == "gfx90a" { 0x1234u32.wrapping_sub(byte1) } else { byte1.wrapping_sub(0x1234) };
            assert_eq!(out[2][l], want, "{mcpu} v_sub_sdwa lane {l}");
        }
    }
}
