//! Straight runs of plain VALU instructions the interpreter may run as one block (`exec::valu_block`),
//! checked against the kernel's source worked out on the host: a loop whose body's VALU instructions
//! follow the prologue's in straight-line code (the block built first spans both, and the loop's branch
//! target starts one of its own), on a full wave and on a wave with 40 of 64 lanes (EXEC partial, so the
//! instructions are stepped one by one). The values the loop leaves in registers, the instruction counts by
//! class, the active VALU lanes, the PCs of a detailed wave, a run with cycle accounting, the baseline lane
//! kernels, and where the instruction limit stops the wave when it falls on every instruction of the loop
//! body (inside the block included). Sizes come from the encodings and are checked against llvm-mc.

use rocprof_isa::{run, Costs, ErrorKind, InstClass, LaneKernels, RunOptions};

use crate::classes::assemble;
use crate::loop_kernel::{dispatch_and_memory, size, source_and_trace, Line, OUT};

/// Loop iterations (9 instructions each: the interpreter's time slices of 16,384 instructions end at
/// several positions of the body).
const N: u64 = 10_000;

/// Instructions before the loop.
const PROLOGUE: usize = 6;

/// The kernel's lines with their sizes and classes: prologue, loop body (run `N` times), epilogue.
fn parts() -> Vec<(Vec<Line>, u64)> {
    use InstClass::*;
    vec![
        (
            vec![
                ("s_load_dwordx2 s[2:3], s[0:1], 0x0", 8, Smem),
                ("s_waitcnt lgkmcnt(0)", 4, Waitcnt),
                ("s_mov_b32 s10, 10000", 8, Salu),
                ("v_cvt_f32_u32 v2, v0", 4, Valu),
                ("v_mov_b32 v3, 0", 4, Valu),
                ("v_mov_b32 v4, v0", 4, Valu),
            ],
            1,
        ),
        (
            vec![
                ("v_fma_f32 v2, v2, 0.5, 1.0", 8, Valu),
                ("v_add_f32 v3, v3, v2", 4, Valu),
                ("v_add_u32 v4, v4, v0", 4, Valu),
                ("v_xor_b32 v4, 0x5bd1e995, v4", 8, Valu),
                ("v_lshrrev_b32 v5, 3, v4", 4, Valu),
                ("v_add_u32 v4, v4, v5", 4, Valu),
                ("s_sub_u32 s10, s10, 1", 4, Salu),
                ("s_cmp_lg_u32 s10, 0", 4, Salu),
                ("s_cbranch_scc1 loop1", 4, BranchTaken),
            ],
            N,
        ),
        (
            vec![
                ("v_lshlrev_b32 v6, 4, v0", 4, Valu),
                ("global_store_dwordx4 v6, v[2:5], s[2:3]", 8, VmemStore),
                ("s_endpgm", 4, Other),
            ],
            1,
        ),
    ]
}

/// `v2..v5` of lane `l` after the loop, computed on the host.
fn expected(l: u32) -> [u32; 4] {
    let (mut x, mut acc, mut h, mut s) = (l as f32, 0.0f32, l, 0u32);
    for _ in 0..N {
        x = x.mul_add(0.5, 1.0);
        acc += x;
        h = h.wrapping_add(l) ^ 0x5bd1_e995;
        s = h >> 3;
        h = h.wrapping_add(s);
    }
    [x.to_bits(), acc.to_bits(), h, s]
}

#[test]
fn valu_blocks_give_the_sources_values_counts_lanes_and_pcs() {
    let (text, trace) = source_and_trace(&parts());
    let Some(code) = assemble("gfx90a", &text) else { return };
    assert_eq!(code.len() as u64, size(&parts()), "the sizes listed match llvm-mc's encoding");
    let want: Vec<[u32; 4]> = (0..64).map(expected).collect();
    let detail = |_: u64, _: u32| true;
    let costs = Costs { issue: [4; rocprof_isa::CLASS_COUNT], latency: [0; rocprof_isa::CLASS_COUNT] };
    let cases: [(&str, RunOptions); 4] = [
        ("plain", RunOptions::default()),
        ("baseline", RunOptions { lanes: LaneKernels::Baseline, ..RunOptions::default() }),
        ("detail", RunOptions { detail: Some(&detail), max_detail_steps: 1 << 17, ..RunOptions::default() }),
        ("cycles", RunOptions { costs, ..RunOptions::default() }),
    ];
    let valu = trace.iter().filter(|t| t.1 == InstClass::Valu).count() as u64;
    for items in [64u32, 40] {
        for (name, opts) in &cases {
            let name = format!("{name}, {items} lanes");
            let (d, mem) = dispatch_and_memory(&code, items);
            let rec = run(&d, &mem, opts).unwrap_or_else(|e| panic!("{name}: {e}"));
            let out = mem.get(OUT, 64 * 16).unwrap();
            let word = |k: usize| u32::from_le_bytes(out[4 * k..4 * k + 4].try_into().unwrap());
            for l in 0..64 {
                let got = [0, 1, 2, 3].map(|k| word(4 * l + k));
                let want = if l < items as usize { want[l] } else { [0; 4] };
                assert_eq!(got, want, "{name}: v2..v5 of lane {l}");
            }
            for class in InstClass::ALL {
                let want = trace.iter().filter(|t| t.1 == class).count() as u64;
                assert_eq!(rec.totals.count(class), want, "{name}: {class:?}");
            }
            assert_eq!(rec.totals.instructions(), trace.len() as u64, "{name}: instructions");
            assert_eq!(rec.totals.valu_active_lanes, valu * u64::from(items), "{name}: active VALU lanes");
            for w in &rec.detailed {
                let steps = w.steps.as_ref().expect("steps of a detailed wave");
                let got: Vec<(i64, InstClass)> = steps.iter().map(|s| (s.pc_offset, s.class)).collect();
                assert!(got == trace, "{name}: the detailed wave's steps are the source's trace");
            }
            assert_eq!(rec.detailed.is_empty(), !name.starts_with("detail"), "{name}: detailed waves");
            if name.starts_with("cycles") {
                assert_eq!(rec.totals.issue_cycles, 4 * trace.len() as u64, "{name}: issue cycles");
            }
        }
    }
}

#[test]
fn the_instruction_limit_stops_inside_valu_blocks_at_the_right_instruction() {
    let (text, trace) = source_and_trace(&parts());
    let Some(code) = assemble("gfx90a", &text) else { return };
    let detail = |_: u64, _: u32| true;
    // Every position of the prologue and the first iteration (the first block spans both), and of the
    // third iteration (the loop's own block).
    let limits = (0..PROLOGUE + 9).chain(PROLOGUE + 2 * 9..PROLOGUE + 3 * 9);
    for limit in limits {
        for items in [64u32, 40] {
            for detailed in [false, true] {
                let (d, mem) = dispatch_and_memory(&code, items);
                let opts = RunOptions {
                    max_wave_instructions: limit as u64,
                    detail: if detailed { Some(&detail) } else { None },
                    ..RunOptions::default()
                };
                let e = run(&d, &mem, &opts).expect_err("the limit stops the wave");
                assert!(matches!(e.kind, ErrorKind::Hang), "{e}");
                // `limit` instructions may run; the wave stops after one more, before the next.
                assert_eq!(
                    e.pc_offset,
                    trace[limit + 1].0,
                    "limit {limit}, {items} lanes, detail {detailed}: where the wave stopped"
                );
            }
        }
    }
}
