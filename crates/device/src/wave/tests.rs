//! Tests of the dispatch model: totals against a brute-force walk over every wave, placement
//! consistency, partial workgroups, occupancy and detail selection.

use super::*;
use crate::targets::{find, MODELS};

/// vector_add for gfx942, from `fixtures/kernels/vector_add-gfx942.co` (the kernel's 140 bytes).
fn vector_add_gfx942() -> KernelProfile {
    let words: [u32; 35] = [
        0xC00200C0, 0x0000002C, 0xC0020100, 0x00000018, 0xBF8CC07F, 0x8603FF03, 0x0000FFFF, 0x92020302, 0x68000002,
        0x7D980004, 0xBE82206A, 0xBF880016, 0xC00A0100, 0x00000000, 0xC0060080, 0x00000010, 0x7E020280, 0xD28F0000,
        0x00020082, 0xBF8CC07F, 0xD2080004, 0x04010004, 0xD2080002, 0x04010006, 0xDC508000, 0x067F0004, 0xDC508000,
        0x077F0002, 0xD2080000, 0x04010002, 0xBF8C0F70, 0x02040F06, 0xDC708000, 0x007F0200, 0xBF810000,
    ];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    KernelProfile::from_code(find("gfx942").unwrap(), &code)
}

fn input<'a>(target: &str, grid: [u32; 3], wg: [u32; 3], k: &'a KernelProfile) -> DispatchInput<'a> {
    let t = find(target).unwrap();
    DispatchInput {
        target: t,
        grid,
        workgroup: wg,
        wavefront_size: t.wavefront_size,
        lds_bytes: 0,
        scratch_bytes: 0,
        kernel: k,
    }
}

#[test]
fn vector_add_profile_matches_its_disassembly() {
    let k = vector_add_gfx942();
    // 23 instructions: 4 s_load, 3 s_waitcnt, 3 SALU + s_and_saveexec, 8 VALU, 2 global loads, 1 store,
    // 1 branch, s_endpgm.
    assert_eq!(k.counts.total(), 23);
    assert_eq!(k.counts.get(InstClass::Smem), 4);
    assert_eq!(k.counts.get(InstClass::Waitcnt), 3);
    assert_eq!(k.counts.get(InstClass::Valu), 8);
    assert_eq!((k.counts.get(InstClass::VmemLoad), k.counts.get(InstClass::VmemStore)), (2, 1));
    assert_eq!((k.global_read_bytes_per_lane, k.global_write_bytes_per_lane), (8, 4));
    assert_eq!(k.scalar_read_bytes, 4 + 4 + 16 + 8);
}

#[test]
fn totals_equal_a_brute_force_walk_over_every_wave_on_every_target() {
    let k = vector_add_gfx942();
    for t in MODELS {
        for (grid, wg) in [([1000u32, 1, 1], [256u32, 1, 1]), ([100, 30, 3], [16, 16, 1]), ([4096, 1, 1], [64, 1, 1])] {
            let m = DispatchModel::build(&input(t.name, grid, wg, &k), &DetailRequest::NONE);
            let mut per_cu = vec![(0u64, 0u64); t.compute_units as usize];
            let mut waves = 0;
            for g in 0..m.workgroups() {
                for w in 0..m.waves_in_workgroup(g) {
                    let wave = m.wave(g, w).unwrap();
                    per_cu[wave.placement.cu as usize].0 += 1;
                    per_cu[wave.placement.cu as usize].1 += u64::from(wave.lanes);
                    waves += 1;
                    assert!(wave.placement.slot < t.waves_per_simd, "{}: {wave:?}", t.name);
                    assert_eq!(wave.placement.se, wave.placement.xcc * t.se_per_xcc() + wave.placement.se_in_xcc);
                    assert_eq!(
                        wave.placement.cu,
                        t.first_cu_of_se(wave.placement.xcc, wave.placement.se_in_xcc) + wave.placement.cu_in_se
                    );
                    assert!(wave.placement.sa < t.shader_arrays_per_se);
                }
                assert_eq!(m.wave(g, m.waves_in_workgroup(g)), None);
            }
            assert_eq!(m.waves(), waves, "{} {grid:?}", t.name);
            let lanes: u64 = grid.iter().map(|&g| u64::from(g)).product();
            assert_eq!(m.totals.lanes, lanes);
            for (cu, &(w, l)) in per_cu.iter().enumerate() {
                assert_eq!((m.per_cu[cu].waves, m.per_cu[cu].lanes), (w, l), "{} cu {cu}", t.name);
            }
            assert_eq!(m.per_se.iter().map(|s| s.waves).sum::<u64>(), waves);
            assert_eq!(m.totals.instructions.total(), waves * k.counts.total());
            assert_eq!(m.totals.bytes.global_read, 8 * lanes);
            assert_eq!(m.totals.valu_active_lanes, 8 * lanes);
        }
    }
}

#[test]
fn partial_workgroups_launch_fewer_waves() {
    let k = vector_add_gfx942();
    let m = DispatchModel::build(&input("gfx942", [1000, 1, 1], [256, 1, 1], &k), &DetailRequest::NONE);
    assert_eq!((m.workgroups(), m.waves()), (4, 3 * 4 + 4));
    // 2-D: 7 x 2 workgroups of 16x16; 6 full (4 waves), 1 of 4x16 (1), 6 of 16x14 (4), 1 of 4x14 (1).
    let m = DispatchModel::build(&input("gfx942", [100, 30, 1], [16, 16, 1], &k), &DetailRequest::NONE);
    assert_eq!((m.workgroups(), m.waves()), (14, 50));
    let last = m.wave(13, 0).unwrap();
    assert_eq!((last.workgroup_id, last.lanes), ([6, 1, 0], 56));
    // wave32 on gfx1100: a 256-item workgroup is 8 waves.
    let m = DispatchModel::build(&input("gfx1100", [1024, 1, 1], [256, 1, 1], &k), &DetailRequest::NONE);
    assert_eq!(m.waves(), 32);
}

#[test]
fn placement_is_round_robin_over_xccs_then_engines_then_cus() {
    let k = vector_add_gfx942();
    let m = DispatchModel::build(&input("gfx942", [64 * 1000, 1, 1], [64, 1, 1], &k), &DetailRequest::NONE);
    let p = |g| m.wave(g, 0).unwrap().placement;
    assert_eq!((p(0).xcc, p(1).xcc, p(8).xcc), (0, 1, 0));
    assert_eq!((p(0).se_in_xcc, p(8).se_in_xcc, p(32).se_in_xcc), (0, 1, 0));
    assert_eq!((p(0).cu_in_se, p(32).cu_in_se), (0, 1));
    // SE 0 of XCC 0 has 10 CUs: its 11th workgroup is back on CU 0.
    assert_eq!(p(320).cu_in_se, 0);
    let on_cu: Vec<u64> = m.workgroups_on_cu(0, 0).collect();
    assert_eq!(&on_cu[..3], &[0, 320, 640]);
    for se in [0u32, 5, 31] {
        for c in 0..find("gfx942").unwrap().cus_in_se(se % 4) {
            for g in m.workgroups_on_cu(se, c) {
                assert_eq!((p(g).se, p(g).cu_in_se), (se, c));
            }
        }
    }
    assert_eq!(m.workgroups_on_cu(0, 10).count(), 0, "SE 0 has CUs 0..10");
}

#[test]
fn occupancy_limits_and_rounds_set_the_duration() {
    let k = vector_add_gfx942();
    let t = find("gfx942").unwrap();
    let mut i = input("gfx942", [1 << 20, 1, 1], [256, 1, 1], &k);
    let m = DispatchModel::build(&i, &DetailRequest::NONE);
    assert_eq!(m.occupancy, Occupancy { workgroups_per_cu: 8, waves_per_cu: 32, limit: OccupancyLimit::WaveSlots });
    // 4096 workgroups: 128 per SE; a SE of 9 CUs gives some of them 15, in 2 rounds of 8.
    assert_eq!(m.per_cu.iter().map(|c| c.workgroups).max(), Some(15));
    assert_eq!(m.totals.busy_cycles, 2 * m.wave_cycles);
    assert_eq!(m.duration_ns, 2000 + 2 * m.wave_cycles * 1000 / 2100);
    i.lds_bytes = t.lds_bytes / 2;
    let lds = DispatchModel::build(&i, &DetailRequest::NONE);
    assert_eq!(lds.occupancy.limit, OccupancyLimit::Lds);
    assert_eq!(lds.totals.busy_cycles, 8 * m.wave_cycles);
    assert!(lds.duration_ns > m.duration_ns);
    let bigger = DispatchModel::build(&input("gfx942", [1 << 26, 1, 1], [256, 1, 1], &k), &DetailRequest::NONE);
    assert!(bigger.duration_ns > 3 * m.duration_ns);
    let slow = DispatchModel::build(&input("gfx1201", [1 << 26, 1, 1], [256, 1, 1], &k), &DetailRequest::NONE);
    assert!(slow.duration_ns > bigger.duration_ns, "64 CUs take longer than 304");
}

#[test]
fn detail_covers_only_the_requested_cu_and_is_bounded() {
    let k = vector_add_gfx942();
    let req = DetailRequest { se_mask: 0b10, cu_in_se: Some(1), max_waves: 6, max_instructions_per_wave: 10 };
    let m = DispatchModel::build(&input("gfx942", [1 << 20, 1, 1], [256, 1, 1], &k), &req);
    assert_eq!(m.detail.len(), 6);
    for d in &m.detail {
        assert_eq!((d.wave.placement.se, d.wave.placement.cu_in_se), (1, 1));
        assert!(d.truncated);
        assert_eq!(d.instructions.len(), 10);
        assert!(d.instructions.windows(2).all(|w| w[0].issue_cycle < w[1].issue_cycle));
        assert_eq!(d.instructions[0].issue_cycle, d.wave.start_cycle);
        assert_eq!(d.instructions[0].exec_mask, u64::MAX);
    }
    // Two workgroups of 4 waves on that CU; waves of one workgroup use the 4 SIMDs.
    let simds: Vec<u32> = m.detail[..4].iter().map(|d| d.wave.placement.simd).collect();
    assert_eq!(simds, [0, 1, 2, 3]);
    assert_eq!(m.detail[4].wave.placement.slot, 1);
    assert!(DispatchModel::build(&input("gfx942", [64, 1, 1], [64, 1, 1], &k), &DetailRequest::NONE).detail.is_empty());
}

/// The static walk details exactly the waves a caller picks (PC sampling's per-engine choice), in its
/// order, with the same instructions and timing a detail request gives those waves.
#[test]
fn static_detail_of_picked_waves_matches_the_request_path() {
    let k = vector_add_gfx942();
    let inp = input("gfx942", [1 << 16, 1, 1], [256, 1, 1], &k);
    let req = DetailRequest { se_mask: u64::MAX, cu_in_se: None, max_waves: usize::MAX, max_instructions_per_wave: 64 };
    let every = DispatchModel::build(&inp, &req);
    let picked = [(7u64, 2u32), (3, 0), (200, 3)];
    let m = DispatchModel::build_with_waves(&inp, 64, |m| {
        assert!(m.detail.is_empty(), "picked from the model without detail");
        picked.to_vec()
    });
    let got: Vec<(u64, u32)> = m.detail.iter().map(|d| (d.wave.workgroup, d.wave.wave_in_group)).collect();
    assert_eq!(got, picked);
    for d in &m.detail {
        let same = every
            .detail
            .iter()
            .find(|e| e.wave.workgroup == d.wave.workgroup && e.wave.wave_in_group == d.wave.wave_in_group);
        assert_eq!(Some(d), same);
    }
    assert_eq!(m.totals, DispatchModel::build(&inp, &DetailRequest::NONE).totals);
}
