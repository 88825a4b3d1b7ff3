//! Co-resident workgroups (cooperative launches): a grid-wide barrier built the way HIP's
//! `grid.sync()` is (every wave adds to a global counter, then spins reloading it until every
//! work-item of the grid arrived) completes only when every workgroup runs at the same time. With
//! `RunOptions::co_resident` it does, whatever the thread count; without it one host thread runs the
//! workgroups one after the other and the first one spins until the instruction limit.

use rocprof_isa::{run, Dispatch, ErrorKind, FlatMemory, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const COUNTER: u64 = 0x3000_0000;
const GROUPS: u32 = 8;

fn barrier_dispatch() -> Option<(Dispatch, FlatMemory)> {
    // s[0:1] kernarg pointer, s2 workgroup id x. Every lane adds 1, then the wave waits for
    // GROUPS * 64 arrivals and stores what it read at out[64 * group + lane].
    let text = format!(
        "
        s_load_dwordx2 s[4:5], s[0:1], 0x0
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v1, 0
        v_mov_b32 v2, 1
        global_atomic_add v1, v2, s[4:5]
        s_waitcnt vmcnt(0)
    spin:
        global_load_dword v3, v1, s[4:5] glc
        s_waitcnt vmcnt(0)
        v_cmp_gt_u32_e32 vcc, {}, v3
        s_cbranch_vccnz spin
        s_lshl_b32 s6, s2, 8
        v_lshlrev_b32 v4, 2, v0
        v_add_u32 v4, s6, v4
        global_store_dword v4, v3, s[4:5] offset:256
        s_endpgm
    ",
        GROUPS * 64
    );
    let code = assemble("gfx90a", &text)?;
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, COUNTER, [64 * GROUPS, 1, 1], [64, 1, 1], 0);
    mem.map(COUNTER, &vec![0; 256 + 256 * GROUPS as usize]);
    Some((d, mem))
}

#[test]
fn a_grid_barrier_completes_when_every_workgroup_is_resident() {
    let Some((d, mem)) = barrier_dispatch() else { return };
    let opts = RunOptions { threads: 1, co_resident: true, ..RunOptions::default() };
    let rec = run(&d, &mem, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rec.wave_count(), u64::from(GROUPS));
    let out = mem.get(COUNTER + 256, 256 * GROUPS as usize).unwrap();
    for (k, w) in out.chunks(4).enumerate() {
        assert_eq!(u32::from_le_bytes(w.try_into().unwrap()), GROUPS * 64, "work-item {k} left before all arrived");
    }
}

#[test]
fn a_grid_barrier_hangs_when_workgroups_run_one_after_another() {
    let Some((d, mem)) = barrier_dispatch() else { return };
    let opts = RunOptions { threads: 1, max_wave_instructions: 1 << 16, ..RunOptions::default() };
    let e = run(&d, &mem, &opts).expect_err("the first workgroup waits for the others forever");
    assert_eq!(e.kind, ErrorKind::Hang);
}
