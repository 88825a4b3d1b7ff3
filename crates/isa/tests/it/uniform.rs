//! Workgroups that provably run alike (`rocprof_isa::workgroups_alike`): one workgroup's record stands for
//! all of them. Kernels hand-assembled by llvm-mc-19 for gfx90a (s[0:1] kernarg pointer, s2 workgroup id
//! x); the oracles are host computations of what every workgroup executes or writes.

use rocprof_isa::{run, workgroups_alike, DetailFilter, Dispatch, FlatMemory, InstClass, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const BUF: u64 = 0x3000_0000;
const GROUPS: u32 = 8;
const ITEMS: u32 = 128; // two waves per workgroup

fn dispatch(text: &str) -> Option<(Dispatch, FlatMemory)> {
    let code = assemble("gfx90a", text)?;
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, BUF, [ITEMS * GROUPS, 1, 1], [ITEMS, 1, 1], 0);
    mem.map(BUF, &[0; 256]);
    Some((d, mem))
}

/// A loop of `trips` iterations (3 + 5 per iteration + the end), as AMD's exec-mask-manipulation kernel2
/// does: it overwrites s2 (the workgroup id) with a kernel argument before it reads s2.
fn loop_kernel(trips: &str) -> String {
    format!(
        "
        s_load_dword s0, s[0:1], 0x0
        {trips}
        s_waitcnt lgkmcnt(0)
    BB0:
        s_mov_b32 s2, s0
        v_mov_b32 v0, s2
        s_add_i32 s1, s1, -1
        s_cmp_eq_u32 s1, 0
        s_cbranch_scc0 BB0
        s_endpgm
    "
    )
}

#[test]
fn a_store_free_kernel_that_overwrites_its_workgroup_id_runs_alike_with_every_workgroup_counted() {
    let Some((d, mem)) = dispatch(&loop_kernel("s_movk_i32 s1, 100")) else { return };
    assert!(workgroups_alike(&d, &mem));
    let wanted = |g: u64, w: u32| (g, w) == (5, 1) || (g, w) == (7, 0);
    let filter: DetailFilter<'_> = &wanted;
    let rec = run(&d, &mem, &RunOptions { threads: 2, detail: Some(filter), ..RunOptions::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    let per_wave = 3 + 5 * 100 + 1;
    assert_eq!(rec.workgroups.len(), GROUPS as usize);
    for (g, r) in rec.workgroups.iter().enumerate() {
        assert_eq!(r.workgroup, g as u64);
        assert_eq!(r.waves, ITEMS / 64);
        assert_eq!(r.stats.instructions(), 2 * per_wave, "workgroup {g}");
        assert_eq!(r.stats.count(InstClass::BranchTaken), 2 * 99, "workgroup {g}");
    }
    assert_eq!(rec.totals.instructions(), u64::from(GROUPS) * 2 * per_wave);
    let got: Vec<(u64, u32)> = rec.detailed.iter().map(|w| (w.workgroup, w.wave)).collect();
    assert_eq!(got, vec![(5, 1), (7, 0)]);
    for w in &rec.detailed {
        let steps = w.steps.as_ref().expect("detailed");
        assert_eq!(steps.len() as u64, per_wave);
        assert_eq!(steps.last().map(|s| s.pc_offset), Some(36), "ends at s_endpgm");
    }
}

#[test]
fn a_kernel_whose_trip_count_is_its_workgroup_id_is_not_taken_as_alike() {
    let Some((d, mem)) = dispatch(&loop_kernel("s_add_u32 s1, s2, 1")) else { return };
    assert!(!workgroups_alike(&d, &mem));
    let rec = run(&d, &mem, &RunOptions { threads: 2, ..RunOptions::default() }).unwrap_or_else(|e| panic!("{e}"));
    for (g, r) in rec.workgroups.iter().enumerate() {
        let per_wave = 3 + 5 * (g as u64 + 1) + 1;
        assert_eq!(r.stats.instructions(), 2 * per_wave, "workgroup {g}");
    }
}

#[test]
fn a_kernel_with_a_global_atomic_is_not_taken_as_alike() {
    let text = "
        s_load_dwordx2 s[4:5], s[0:1], 0x0
        v_mov_b32 v1, 0
        v_mov_b32 v2, 1
        s_waitcnt lgkmcnt(0)
        global_atomic_add v1, v2, s[4:5]
        s_waitcnt vmcnt(0)
        s_endpgm
    ";
    let Some((d, mem)) = dispatch(text) else { return };
    assert!(!workgroups_alike(&d, &mem));
    run(&d, &mem, &RunOptions { threads: 2, ..RunOptions::default() }).unwrap_or_else(|e| panic!("{e}"));
    let sum = u32::from_le_bytes(mem.get(BUF, 4).unwrap().try_into().unwrap());
    assert_eq!(sum, GROUPS * ITEMS, "every work-item of every workgroup added 1");
}

#[test]
fn a_partial_last_workgroup_is_not_taken_as_alike() {
    let Some((mut d, mem)) = dispatch(&loop_kernel("s_movk_i32 s1, 3")) else { return };
    d.grid[0] -= 1;
    assert!(!workgroups_alike(&d, &mem));
}
