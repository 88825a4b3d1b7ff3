//! Instruction statistics of a loop kernel (assembled with `llvm-mc-19`) against a count worked out by hand
//! from its source: every class, branches taken and not taken, active VALU lanes. Run without and with
//! cycle costs and per-wave detail (the paths an interpreter loop may treat differently), and with an
//! instruction limit that stops it mid-loop.

use rocprof_isa::{run, Costs, Dispatch, ErrorKind, FlatMemory, InstClass, RunOptions};

use crate::classes::{assemble, gfx90a_dispatch};

const OUT: u64 = 0x3000_0000;

/// 7 iterations; lanes 0..15 skip the second VALU op of the body under a narrowed EXEC.
const LOOP: &str = "
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s10, 7
    v_mov_b32 v1, 0
loop:
    v_add_u32 v1, 3, v1
    v_cmpx_le_u32 vcc, 16, v0
    v_add_u32 v1, 100, v1
    s_mov_b64 exec, -1
    s_sub_u32 s10, s10, 1
    s_cmp_lg_u32 s10, 0
    s_cbranch_scc1 loop
    v_lshlrev_b32 v2, 2, v0
    global_store_dword v2, v1, s[2:3]
    s_endpgm
";

fn dispatch_and_memory() -> Option<(Dispatch, FlatMemory)> {
    let code = assemble("gfx90a", LOOP)?;
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
    kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
    let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 0);
    mem.map(OUT, &[0; 256]);
    Some((d, mem))
}

#[test]
fn loop_instruction_counts_match_the_source_with_and_without_detail() {
    use InstClass::*;
    // From the source: 2 prologue SALU/VALU + 7 iterations of (3 VALU, 3 SALU, 1 branch) + epilogue.
    let want = [
        (Smem, 1),
        (Waitcnt, 1),
        (Salu, 1 + 7 * 3),
        (Valu, 1 + 7 * 3 + 1),
        (BranchTaken, 6),
        (BranchNotTaken, 1),
        (VmemStore, 1),
        (Other, 1),
    ];
    // Active lanes: v_mov, the first add, the v_cmpx and the final shift on 64 lanes, the second add on 48.
    let lanes = 64 + 7 * (64 + 64 + 48) + 64;
    let timed = Costs { issue: [4; rocprof_isa::CLASS_COUNT], latency: [100; rocprof_isa::CLASS_COUNT] };
    let detail = |_: u64, _: u32| true;
    let cases: [(&str, RunOptions); 3] = [
        ("plain", RunOptions::default()),
        ("costs", RunOptions { costs: timed, ..RunOptions::default() }),
        ("detail", RunOptions { detail: Some(&detail), ..RunOptions::default() }),
    ];
    for (name, opts) in cases {
        let Some((d, mem)) = dispatch_and_memory() else { return };
        let rec = run(&d, &mem, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = mem.get(OUT, 256).unwrap();
        for l in 0..64 {
            let v = u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().unwrap());
            assert_eq!(v, if l < 16 { 21 } else { 721 }, "{name}: lane {l}");
        }
        let t = &rec.totals;
        for (class, n) in want {
            assert_eq!(t.count(class), n, "{name}: {class:?}");
        }
        assert_eq!(t.instructions(), want.iter().map(|w| w.1).sum::<u64>(), "{name}: no other class");
        assert_eq!(t.valu_active_lanes, lanes, "{name}: active VALU lanes");
    }
}

#[test]
fn the_instruction_limit_stops_a_wave_inside_a_straight_line_run() {
    // 4 prologue instructions, then 7 per iteration: a limit of 13 ends inside the second iteration.
    let Some((d, mem)) = dispatch_and_memory() else { return };
    let opts = RunOptions { max_wave_instructions: 13, ..RunOptions::default() };
    let e = run(&d, &mem, &opts).expect_err("the limit stops the wave");
    assert!(matches!(e.kind, ErrorKind::Hang), "{e}");
}

/// A loop of 8 instructions per iteration run 5,000 times by two waves per workgroup: the interpreter's
/// time slices (16,384 instructions) end in the middle of the loop body, so a wave leaves a straight-line
/// run early and enters it again later.
const LONG_LOOP: &str = "
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s10, 5000
    v_mov_b32 v1, 0
    v_mov_b32 v3, 0
loop:
    v_add_u32 v1, 3, v1
    v_cmpx_le_u32 vcc, 16, v0
    v_add_u32 v1, 100, v1
    s_mov_b64 exec, -1
    v_xor_b32 v3, v3, v0
    s_sub_u32 s10, s10, 1
    s_cmp_lg_u32 s10, 0
    s_cbranch_scc1 loop
    v_lshlrev_b32 v2, 2, v0
    global_store_dword v2, v1, s[2:3]
    s_endpgm
";

#[test]
fn counts_stay_exact_when_time_slices_end_inside_a_loop_body() {
    use InstClass::*;
    let Some(code) = assemble("gfx90a", LONG_LOOP) else { return };
    let n = 5000u64;
    // From the source, per wave: prologue, n iterations of (4 VALU, 3 SALU, 1 branch), epilogue.
    let want = [
        (Smem, 1),
        (Waitcnt, 1),
        (Salu, 1 + 3 * n),
        (Valu, 2 + 4 * n + 1),
        (BranchTaken, n - 1),
        (BranchNotTaken, 1),
        (VmemStore, 1),
        (Other, 1),
    ];
    // Wave 0 (work-items 0..63) runs the second add on 48 lanes, wave 1 (64..127) on all 64.
    let lanes = |wave: u32| 2 * 64 + n * (4 * 64 - if wave == 0 { 16 } else { 0 }) + 64;
    let timed = Costs { issue: [4; rocprof_isa::CLASS_COUNT], latency: [100; rocprof_isa::CLASS_COUNT] };
    // One wave of the second workgroup is recorded instruction by instruction, the others are not.
    let one = |wg: u64, wave: u32| wg == 1 && wave == 1;
    let cases: [(&str, RunOptions); 4] = [
        ("plain", RunOptions::default()),
        ("two threads", RunOptions { threads: 2, ..RunOptions::default() }),
        ("costs, two threads", RunOptions { threads: 2, costs: timed, ..RunOptions::default() }),
        ("one wave detailed", RunOptions { threads: 2, detail: Some(&one), ..RunOptions::default() }),
    ];
    for (name, opts) in cases {
        let mut kd = [0u8; 64];
        kd[16..24].copy_from_slice(&256i64.to_le_bytes());
        kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
        kd[52..56].copy_from_slice(&((2u32 << 1) | (1 << 7)).to_le_bytes()); // 2 user SGPRs, workgroup id x
        kd[56..58].copy_from_slice(&8u16.to_le_bytes()); // kernarg pointer
        let (d, mut mem) = gfx90a_dispatch(&kd, &code, OUT, [256, 1, 1], [128, 1, 1], 0);
        mem.map(OUT, &[0; 512]);
        let rec = run(&d, &mem, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = mem.get(OUT, 512).unwrap();
        for l in 0..128 {
            let v = u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().unwrap());
            assert_eq!(u64::from(v), if l < 16 { 3 * n } else { 103 * n }, "{name}: lane {l}");
        }
        for (class, k) in want {
            assert_eq!(rec.totals.count(class), 4 * k, "{name}: {class:?} over 4 waves");
            assert_eq!(rec.first_wave.count(class), k, "{name}: {class:?} of the first wave");
        }
        assert_eq!(rec.totals.instructions(), 4 * want.iter().map(|w| w.1).sum::<u64>(), "{name}: no other class");
        assert_eq!(rec.totals.valu_active_lanes, 2 * (lanes(0) + lanes(1)), "{name}: active VALU lanes");
        assert_eq!(rec.first_wave.valu_active_lanes, lanes(0), "{name}: active VALU lanes of the first wave");
        for w in &rec.detailed {
            // The detailed wave's steps, one per executed instruction, counted here by class.
            let steps = w.steps.as_ref().expect("steps of a detailed wave");
            for (class, k) in want {
                let by_step = steps.iter().filter(|s| s.class == class).count() as u64;
                assert_eq!(by_step, k, "{name}: {class:?} steps of the detailed wave");
                assert_eq!(w.stats.count(class), k, "{name}: {class:?} of the detailed wave");
            }
        }
        assert_eq!(rec.detailed.len(), usize::from(name == "one wave detailed"), "{name}: detailed waves");
    }
}
