//! gfx11's byte-sized D16 memory operations (rocThrust's partition kernels load their flags and values
//! with them): `global_load_d16_u8`/`_i8` write the zero- or sign-extended byte to the low half of the VGPR
//! and keep the high half, the `_hi_` forms write the high half and keep the low one (gfx11 has no SRAM-ECC
//! zeroing); `ds_load_u8_d16(_hi)` likewise; `ds_store_b8_d16_hi` and `global_store_d16_hi_b8` store bits
//! 16..23. Expected values are computed here from the bytes (RDNA3 ISA guide, "D16" loads and stores).

use crate::classes::run_body;

fn byte(i: usize) -> u8 {
    (i * 37 + 0x81) as u8
}

#[test]
fn gfx11_byte_d16_loads_and_stores_touch_only_their_half() {
    let data: Vec<u8> = (0..256).map(byte).collect();
    let body = "
        v_mov_b32 v1, 0x5555aaaa
        v_mov_b32 v2, 0x5555aaaa
        v_mov_b32 v3, 0x5555aaaa
        v_mov_b32 v4, 0x5555aaaa
        global_load_d16_u8 v1, v100, s[6:7]
        global_load_d16_hi_u8 v2, v100, s[6:7] offset:1
        global_load_d16_i8 v3, v100, s[6:7] offset:2
        global_load_d16_hi_i8 v4, v100, s[6:7] offset:3
        v_mov_b32 v10, 0x12345678
        v_add_nc_u32 v10, v10, v0
        ds_store_b32 v100, v10
        ds_store_b8_d16_hi v100, v10 offset:1
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v5, 0x5555aaaa
        v_mov_b32 v6, 0x5555aaaa
        ds_load_u8_d16_hi v5, v100 offset:1
        ds_load_u8_d16 v6, v100
        global_store_d16_hi_b8 v100, v10, s[6:7] offset:128
        s_waitcnt vmcnt(0) lgkmcnt(0)
        global_load_b32 v7, v100, s[6:7] offset:128
        s_waitcnt vmcnt(0)";
    let Some(r) = run_body("gfx1100", 32, body, 7, &data) else { return };
    for l in 0..32 {
        let b = |k: usize| byte(4 * l + k);
        let s16 = |x: u8| u32::from(x as i8 as i16 as u16);
        let v10 = 0x1234_5678u32 + l as u32;
        let lds0 = (v10 & 0xffff_00ff) | (((v10 >> 16) & 0xff) << 8);
        let want = [
            0x5555_0000 | u32::from(b(0)),
            (u32::from(b(1)) << 16) | 0xaaaa,
            0x5555_0000 | s16(b(2)),
            (s16(b(3)) << 16) | 0xaaaa,
            (((lds0 >> 8) & 0xff) << 16) | 0xaaaa,
            0x5555_0000 | (lds0 & 0xff),
            u32::from_le_bytes([((v10 >> 16) & 0xff) as u8, b(129), b(130), b(131)]),
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(r[k][l], *w, "lane {l} result v{}: {:#x}, expected {w:#x}", k + 1, r[k][l]);
        }
    }
}
