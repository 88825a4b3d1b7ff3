//! Loop tails the interpreter may run as one handler (`s_add/s_sub` + `s_cmp/s_cmpk` + `s_cbranch_scc0/1`,
//! and `s_cmp/s_cmpk` + `s_cbranch_scc0/1`), checked against the kernel's source worked out on the host:
//! the values the loops leave in registers, the instruction counts by class, the executed PCs of a
//! detailed wave, and where the instruction limit stops the wave when it falls on every instruction of
//! each loop body (inside a fused group included). The sizes next to each line come from the encodings
//! (SOP1/SOP2/SOPC/SOPK/SOPP/VOP1/VOP2: 4 bytes, 4 more for a literal; SMEM and global: 8) and are checked
//! against what llvm-mc assembled.

use rocprof_isa::{run, ErrorKind, InstClass, RunOptions};

use crate::classes::assemble;
use crate::loop_kernel::{dispatch_and_memory, size, source_and_trace, Line, OUT};

/// Iterations of the first loop (5 instructions per iteration: the interpreter's time slices of 16,384
/// instructions end at every position of its body in turn).
const N1: u64 = 10_000;
/// Iterations of the second loop (`s12` counts 3, 6, ... up to 3000).
const N2: u64 = 1000;
/// Iterations of the third loop.
const N3: u64 = 7;

/// The kernel as blocks of lines, each run `repeat` times in order: `(lines, repeat)`.
fn blocks() -> Vec<(Vec<Line>, u64)> {
    use InstClass::*;
    vec![
        (
            vec![
                ("s_load_dwordx2 s[2:3], s[0:1], 0x0", 8, Smem),
                ("s_waitcnt lgkmcnt(0)", 4, Waitcnt),
                ("s_mov_b32 s10, 10000", 8, Salu),
                ("s_mov_b32 s11, 0", 4, Salu),
                ("v_mov_b32 v2, 0", 4, Valu),
            ],
            1,
        ),
        // add, compare, branch on SCC1 (a fused group of three).
        (
            vec![
                ("s_add_u32 s11, s11, s10", 4, Salu),
                ("v_add_u32 v2, 1, v2", 4, Valu),
                ("s_add_i32 s10, s10, -1", 4, Salu),
                ("s_cmp_lg_u32 s10, 0", 4, Salu),
                ("s_cbranch_scc1 loop1", 4, BranchTaken),
            ],
            N1,
        ),
        (vec![("s_mov_b32 s12, 0", 4, Salu)], 1),
        // compare with a 16-bit constant, branch on SCC1 (a fused pair: a VALU op before the compare).
        (
            vec![
                ("s_add_u32 s12, s12, 3", 4, Salu),
                ("v_add_u32 v2, 2, v2", 4, Valu),
                ("s_cmpk_lt_u32 s12, 3000", 4, Salu),
                ("s_cbranch_scc1 loop2", 4, BranchTaken),
            ],
            N2,
        ),
        (vec![("s_mov_b32 s13, 7", 4, Salu)], 1),
        // subtract, compare for equality, branch on SCC0.
        (
            vec![
                ("v_add_u32 v2, 5, v2", 4, Valu),
                ("s_sub_u32 s13, s13, 1", 4, Salu),
                ("s_cmp_eq_u32 s13, 0", 4, Salu),
                ("s_cbranch_scc0 loop3", 4, BranchTaken),
            ],
            N3,
        ),
        (
            vec![
                ("v_mov_b32 v3, s11", 4, Valu),
                ("v_mov_b32 v4, s12", 4, Valu),
                ("v_mov_b32 v5, s13", 4, Valu),
                ("v_lshlrev_b32 v6, 4, v0", 4, Valu),
                ("global_store_dwordx4 v6, v[2:5], s[2:3]", 8, VmemStore),
                ("s_endpgm", 4, Other),
            ],
            1,
        ),
    ]
}

#[test]
fn fused_loop_tails_give_the_sources_values_counts_and_pcs() {
    let (text, trace) = source_and_trace(&blocks());
    let Some(code) = assemble("gfx90a", &text) else { return };
    assert_eq!(code.len() as u64, size(&blocks()), "the sizes listed match llvm-mc's encoding");
    let detail = |_: u64, _: u32| true;
    let cases: [(&str, RunOptions); 2] = [
        ("plain", RunOptions::default()),
        ("detail", RunOptions { detail: Some(&detail), max_detail_steps: 1 << 17, ..RunOptions::default() }),
    ];
    for (name, opts) in cases {
        let (d, mem) = dispatch_and_memory(&code, 64);
        let rec = run(&d, &mem, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = mem.get(OUT, 64 * 16).unwrap();
        let word = |k: usize| u32::from_le_bytes(out[4 * k..4 * k + 4].try_into().unwrap());
        for l in 0..64 {
            assert_eq!(u64::from(word(4 * l)), N1 + 2 * N2 + 5 * N3, "{name}: v2 of lane {l}");
            assert_eq!(u64::from(word(4 * l + 1)), N1 * (N1 + 1) / 2, "{name}: s11 (sum of the first counter)");
            assert_eq!(u64::from(word(4 * l + 2)), 3 * N2, "{name}: s12");
            assert_eq!(word(4 * l + 3), 0, "{name}: s13");
        }
        for class in InstClass::ALL {
            let want = trace.iter().filter(|t| t.1 == class).count() as u64;
            assert_eq!(rec.totals.count(class), want, "{name}: {class:?}");
        }
        assert_eq!(rec.totals.instructions(), trace.len() as u64, "{name}: instructions");
        for w in &rec.detailed {
            let steps = w.steps.as_ref().expect("steps of a detailed wave");
            let got: Vec<(i64, InstClass)> = steps.iter().map(|s| (s.pc_offset, s.class)).collect();
            assert!(got == trace, "{name}: the detailed wave's steps are the source's trace");
        }
        assert_eq!(rec.detailed.len(), usize::from(name == "detail"), "{name}: detailed waves");
    }
}

#[test]
fn the_instruction_limit_stops_inside_fused_loop_tails_at_the_right_instruction() {
    let (text, trace) = source_and_trace(&blocks());
    let Some(code) = assemble("gfx90a", &text) else { return };
    // The first instruction of the third iteration of each loop, then every position of its body.
    let starts = [5 + 2 * 5, 5 + 5 * N1 as usize + 1 + 2 * 4, 5 + 5 * N1 as usize + 1 + 4 * N2 as usize + 1 + 2 * 4];
    let detail = |_: u64, _: u32| true;
    for start in starts {
        for limit in start..start + 6 {
            for detailed in [false, true] {
                let (d, mem) = dispatch_and_memory(&code, 64);
                let opts = RunOptions {
                    max_wave_instructions: limit as u64,
                    detail: if detailed { Some(&detail) } else { None },
                    ..RunOptions::default()
                };
                let e = run(&d, &mem, &opts).expect_err("the limit stops the wave");
                assert!(matches!(e.kind, ErrorKind::Hang), "{e}");
                // `limit` instructions may run; the wave stops after one more, before the next.
                assert_eq!(e.pc_offset, trace[limit + 1].0, "limit {limit}, detail {detailed}: where the wave stopped");
            }
        }
    }
    // The kernel is `trace.len()` instructions: one short of them stops before `s_endpgm`, all of them run.
    let (d, mem) = dispatch_and_memory(&code, 64);
    let opts = RunOptions { max_wave_instructions: trace.len() as u64 - 2, ..RunOptions::default() };
    let e = run(&d, &mem, &opts).expect_err("the limit stops the wave");
    assert_eq!((e.kind, e.pc_offset), (ErrorKind::Hang, trace[trace.len() - 1].0), "stopped before s_endpgm");
    let (d, mem) = dispatch_and_memory(&code, 64);
    let opts = RunOptions { max_wave_instructions: trace.len() as u64, ..RunOptions::default() };
    run(&d, &mem, &opts).expect("the whole kernel fits the limit");
}
