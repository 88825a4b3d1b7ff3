//! CDNA accumulation registers: `v_accvgpr_write_b32` / `v_accvgpr_read_b32` (VOP3P 0x59/0x58 on gfx908,
//! gfx90a and gfx942) and `v_accvgpr_mov_b32` (VOP1, gfx90a+), assembled by `llvm-mc-19`, against values
//! computed on the host.

use crate::classes::run_body;

#[test]
fn accvgpr_write_then_read_round_trips_per_lane_without_touching_vgprs() {
    for t in ["gfx908", "gfx90a", "gfx942"] {
        let mov = if t == "gfx908" {
            // No v_accvgpr_mov_b32 on gfx908: read a3 again.
            "v_accvgpr_read_b32 v4, a3"
        } else {
            "v_accvgpr_mov_b32 a6, a3\nv_accvgpr_read_b32 v4, a6"
        };
        let body = format!(
            "
            v_mov_b32 v3, 0x1234
            v_mov_b32 v5, 0x5678
            v_mul_u32_u24 v7, v0, 3
            v_accvgpr_write_b32 a3, v7
            v_accvgpr_write_b32 a5, 7
            v_accvgpr_write_b32 a6, 0
            v_accvgpr_read_b32 v1, a3
            v_accvgpr_read_b32 v2, a5
            {mov}
            v_add_u32 v3, v3, v5
            "
        );
        let Some(out) = run_body(t, 64, &body, 4, &[]) else { return };
        for l in 0..64 {
            let lane = l as u32;
            assert_eq!(out[0][l], 3 * lane, "{t} lane {l}: v_accvgpr_read_b32 v1, a3");
            assert_eq!(out[1][l], 7, "{t} lane {l}: v_accvgpr_read_b32 v2, a5 (written with a constant)");
            // v3 and v5 are VGPRs with the numbers of the written AGPRs: untouched.
            assert_eq!(out[2][l], 0x1234 + 0x5678, "{t} lane {l}: v3 + v5");
            assert_eq!(out[3][l], 3 * lane, "{t} lane {l}: a3 through v_accvgpr_mov_b32 / read");
        }
    }
}
