//! Scratch through MUBUF and the private segment buffer V# (code object v4 and older compilers: HIP
//! 5.2's clang-15 spills and passes call frames this way, e.g. in `__ockl_hostcall_internal` behind
//! device `printf`). The kernel enables the private segment buffer user SGPRs (`s[0:3]`), adds the
//! wave's scratch offset the way clang's prologue does, and each lane stores and reloads its own values
//! at the same offsets: every lane must read back what it wrote (private memory is per lane).

use rocprof_isa::{run, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const OUT: u64 = 0x3000_0000;

#[test]
fn mubuf_scratch_through_the_private_segment_buffer_is_private_to_each_lane() {
    // User SGPRs: s[0:3] private segment buffer, s[4:5] kernarg pointer; the system SGPRs follow, and
    // with no workgroup id enabled the scratch wave offset is the first of them, s6.
    let text = "
        s_load_dwordx2 s[8:9], s[4:5], 0x0
        s_add_u32 s0, s0, s6
        s_addc_u32 s1, s1, 0
        v_mul_u32_u24 v1, 3, v0
        v_add_u32 v1, 7, v1
        v_lshlrev_b32 v2, 16, v0
        buffer_store_dword v1, off, s[0:3], 0 offset:8
        buffer_store_dword v2, off, s[0:3], 0 offset:12
        v_mov_b32 v5, 4
        buffer_store_dword v0, v5, s[0:3], 0 offen offset:16
        s_waitcnt vmcnt(0)
        v_mov_b32 v1, 0
        v_mov_b32 v2, 0
        buffer_load_dword v3, off, s[0:3], 0 offset:8
        buffer_load_dword v4, off, s[0:3], 0 offset:12
        buffer_load_dword v6, off, s[0:3], 0 offset:20
        v_lshlrev_b32 v100, 2, v0
        s_waitcnt vmcnt(0) lgkmcnt(0)
        global_store_dword v100, v3, s[8:9]
        global_store_dword v100, v4, s[8:9] offset:256
        global_store_dword v100, v6, s[8:9] offset:512
        s_endpgm
    ";
    let Some(code) = assemble("gfx90a", text) else { return };
    let mut kd = [0u8; 64];
    kd[0..4].copy_from_slice(&0u32.to_le_bytes()); // group segment
    kd[4..8].copy_from_slice(&64u32.to_le_bytes()); // private segment fixed size
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes()); // all VGPRs
                                                        // rsrc2: private segment wave offset enabled (bit 0), 6 user SGPRs (bits 1..5).
    kd[52..56].copy_from_slice(&(1u32 | (6 << 1)).to_le_bytes());
    // Private segment buffer (bit 0) and kernarg pointer (bit 3).
    kd[56..58].copy_from_slice(&(1u16 | 8).to_le_bytes());
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 64);
    mem.map(OUT, &[0xee; 768]);
    if let Err(e) = run(&d, &mem, &RunOptions::default()) {
        panic!("{e}\n{text}");
    }
    let out = mem.get(OUT, 768).unwrap();
    let word = |k: usize, l: usize| u32::from_le_bytes(out[256 * k + 4 * l..256 * k + 4 * l + 4].try_into().unwrap());
    for l in 0..64u32 {
        let i = l as usize;
        assert_eq!(word(0, i), 3 * l + 7, "lane {l}: offset 8");
        assert_eq!(word(1, i), l << 16, "lane {l}: offset 12");
        assert_eq!(word(2, i), l, "lane {l}: offen 4 + offset 16");
    }
}

/// Callee code reaches its frame through a wave-scaled stack pointer in SOFFSET (LLVM's AMDGPU stack on
/// MUBUF scratch: `s32` holds per-lane bytes times the wave's 64 lanes, and the swizzled private segment
/// buffer adds SOFFSET unswizzled), so `s32 = 16 * 64` with `offset:4` is each lane's byte 20. A store
/// through that frame must read back at per-lane offset 20 with SOFFSET 0, and a frame offset that is not
/// a whole number of 4-byte lane slots stops the wave instead of mixing lanes.
#[test]
fn mubuf_scratch_soffset_is_a_wave_scaled_offset_like_llvms_stack_pointer() {
    let text = "
        s_load_dwordx2 s[8:9], s[4:5], 0x0
        s_add_u32 s0, s0, s6
        s_addc_u32 s1, s1, 0
        s_movk_i32 s32, 0x400
        v_mul_u32_u24 v1, 5, v0
        v_add_u32 v1, 11, v1
        buffer_store_dword v1, off, s[0:3], s32 offset:4
        v_mov_b32 v7, 8
        buffer_store_dword v0, v7, s[0:3], s32 offen offset:4
        s_waitcnt vmcnt(0)
        buffer_load_dword v3, off, s[0:3], 0 offset:20
        buffer_load_dword v4, off, s[0:3], 0 offset:28
        v_lshlrev_b32 v100, 2, v0
        s_waitcnt vmcnt(0) lgkmcnt(0)
        global_store_dword v100, v3, s[8:9]
        global_store_dword v100, v4, s[8:9] offset:256
        s_endpgm
    ";
    let Some(code) = assemble("gfx90a", text) else { return };
    let mut kd = [0u8; 64];
    kd[4..8].copy_from_slice(&32u32.to_le_bytes()); // private segment fixed size: 32 bytes per lane
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&(1u32 | (6 << 1)).to_le_bytes());
    kd[56..58].copy_from_slice(&(1u16 | 8).to_le_bytes());
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 32);
    mem.map(OUT, &[0xee; 512]);
    if let Err(e) = run(&d, &mem, &RunOptions::default()) {
        panic!("{e}\n{text}");
    }
    let out = mem.get(OUT, 512).unwrap();
    let word = |k: usize, l: usize| u32::from_le_bytes(out[256 * k + 4 * l..256 * k + 4 * l + 4].try_into().unwrap());
    for l in 0..64u32 {
        let i = l as usize;
        assert_eq!(word(0, i), 5 * l + 11, "lane {l}: s32 0x400 + offset 4 is per-lane byte 20");
        assert_eq!(word(1, i), l, "lane {l}: s32 0x400 + voffset 8 + offset 4 is per-lane byte 28");
    }

    // 0x404 is one byte past a whole lane slot: the wave stops rather than writing across lanes.
    let bad = text.replace("s_movk_i32 s32, 0x400", "s_movk_i32 s32, 0x404");
    let Some(code) = assemble("gfx90a", &bad) else { return };
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 32);
    mem.map(OUT, &[0xee; 512]);
    let e = run(&d, &mem, &RunOptions::default()).expect_err("a wave offset inside a lane slot must stop the wave");
    assert!(e.to_string().contains("scratch"), "{e}");
}
