//! D16 loads and SRAM ECC: the gfx9 agents hsa-sim models report `sramecc+`, and with SRAM ECC a D16
//! load does not preserve the other half of its VGPR (LLVM, `GCNSubtarget::d16PreservesUnusedBits`:
//! false when SRAMECC is enabled), while gfx11 keeps it. Tensile's gfx908 bf16 GEMM depends on the
//! zeroing: it loads a bf16 with `ds_read_u16_d16_hi` into a register holding an index and ORs the
//! register into the packed pair.

use crate::classes::run_body;

#[test]
fn d16_loads_zero_the_other_half_with_sram_ecc_on_gfx9_and_keep_it_on_gfx11() {
    // LDS dword 0 = 0x1234_5678; v1/v2 start as 0xdead_beef, then d16_hi / d16 loads of the low u16.
    let gfx9 = "
        v_mov_b32 v3, 0
        v_mov_b32 v4, 0x12345678
        ds_write_b32 v3, v4
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v1, 0xdeadbeef
        v_mov_b32 v2, 0xdeadbeef
        ds_read_u16_d16_hi v1, v3
        ds_read_u16_d16 v2, v3
        s_waitcnt lgkmcnt(0)";
    let Some(r) = run_body("gfx90a", 64, gfx9, 2, &[]) else { return };
    assert_eq!((r[0][0], r[1][0]), (0x5678_0000, 0x0000_5678), "gfx90a (sramecc+)");
    let gfx11 = "
        v_mov_b32 v3, 0
        v_mov_b32 v4, 0x12345678
        ds_store_b32 v3, v4
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v1, 0xdeadbeef
        v_mov_b32 v2, 0xdeadbeef
        ds_load_u16_d16_hi v1, v3
        ds_load_u16_d16 v2, v3
        s_waitcnt lgkmcnt(0)";
    let Some(r) = run_body("gfx1100", 32, gfx11, 2, &[]) else { return };
    assert_eq!((r[0][0], r[1][0]), (0x5678_beef, 0xdead_5678), "gfx1100");
}
