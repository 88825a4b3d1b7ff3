//! MUBUF scratch through the private segment buffer resource a gfx9 kernel receives in `s[0:3]` (the code
//! clang emits for gfx90a: rocRAND's `rocrand_init_kernel` keeps its engine state there). The kernel adds the
//! wave's scratch offset to the resource as compiled code does, stores lane-dependent values at a fixed offset
//! and at per-lane `offen` offsets, loads them back and writes them out; the host knows what each lane
//! stored. Assembled with `llvm-mc-19` (Debian package llvm-19).

use rocprof_isa::{run, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const OUT: u64 = 0x3000_0000;

const BODY: &str = "
s_load_dwordx2 s[8:9], s[4:5], 0x0
s_add_u32 s0, s0, s7
s_addc_u32 s1, s1, 0
v_lshlrev_b32_e32 v1, 2, v0
v_add_u32_e32 v2, 0x1000, v0
buffer_store_dword v2, off, s[0:3], 0 offset:28
v_mul_u32_u24_e32 v3, 3, v0
buffer_store_dword v3, v1, s[0:3], 0 offen offset:64
s_waitcnt vmcnt(0)
buffer_load_dword v4, off, s[0:3], 0 offset:28
buffer_load_dword v5, v1, s[0:3], 0 offen offset:64
s_waitcnt vmcnt(0) lgkmcnt(0)
global_store_dword v1, v4, s[8:9]
global_store_dword v1, v5, s[8:9] offset:256
s_endpgm
";

#[test]
fn gfx90a_mubuf_scratch_through_the_private_segment_buffer_reads_back_what_each_lane_stored() {
    let Some(code) = assemble("gfx90a", BODY) else { return };
    let mut kd = [0u8; 64];
    kd[0..4].copy_from_slice(&512u32.to_le_bytes()); // private segment fixed size
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    // Scratch enabled, 6 user SGPRs (private segment buffer, kernarg pointer), workgroup id x.
    kd[52..56].copy_from_slice(&(1u32 | (6 << 1) | (1 << 7)).to_le_bytes());
    kd[56..58].copy_from_slice(&(1u16 | 8).to_le_bytes());
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 512);
    mem.map(OUT, &[0xee; 512]);
    run(&d, &mem, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let out = mem.get(OUT, 512).unwrap();
    let word = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
    for l in 0..64 {
        assert_eq!(word(l), 0x1000 + l as u32, "lane {l}: offset 28");
        assert_eq!(word(64 + l), 3 * l as u32, "lane {l}: offen offset 64 + 4 * lane");
    }
}
