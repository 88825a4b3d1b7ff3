//! LDS addresses are the VGPR plus the instruction's offset in 32 bits, wrapping: LLVM folds a constant into
//! the offset field of a base that may be negative (rocFFT's real-transform kernels read element N-k at
//! `-8k` with offset 8N). Checked against the address worked out on the host.

use crate::classes::run_body;

#[test]
fn lds_offsets_wrap_a_negative_base_address_in_32_bits() {
    for (target, lanes) in [("gfx1100", 32), ("gfx90a", 64)] {
        // Lane l stores 100 + l at dword l (address 4l), then reads dword (lanes-1-l) through base
        // -4l - 4 and offset 4 * lanes (store/load b32), and pairs through base -8 with ds_read2 offsets.
        let body = "
            v_lshlrev_b32 v2, 2, v0
            v_add_u32 v3, 100, v0
            ds_write_b32 v2, v3
            s_waitcnt lgkmcnt(0)
            s_barrier
            v_sub_u32 v4, 0, v2
            v_subrev_u32 v4, 4, v4
            ds_read_b32 v1, v4 offset:OFF
            v_mov_b32 v5, -8
            ds_read2_b32 v[6:7], v5 offset0:3 offset1:4
            s_waitcnt lgkmcnt(0)
            v_mov_b32 v2, v6
            v_mov_b32 v3, v7"
            .replace("OFF", &(4 * lanes).to_string());
        let body = if target == "gfx1100" {
            body.replace("ds_write_b32", "ds_store_b32")
                .replace("ds_read_b32", "ds_load_b32")
                .replace("ds_read2_b32", "ds_load_2addr_b32")
                .replace("v_add_u32", "v_add_nc_u32")
                .replace("v_sub_u32", "v_sub_nc_u32")
                .replace("v_subrev_u32", "v_subrev_nc_u32")
        } else {
            body
        };
        let Some(out) = run_body(target, lanes, &body, 3, &[]) else { return };
        for l in 0..lanes as usize {
            assert_eq!(out[0][l], 100 + (lanes - 1 - l as u32), "{target} lane {l}: -4l-4 + 4*lanes");
            // -8 + 3*4 = dword 1, -8 + 4*4 = dword 2.
            assert_eq!((out[1][l], out[2][l]), (101, 102), "{target} lane {l}: ds_read2 from -8");
        }
    }
}
