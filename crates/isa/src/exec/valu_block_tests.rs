//! VALU blocks against their instructions run one by one: every operation a block may hold, wave64
//! (gfx90a) and wave32 (gfx1030), every lane kernel set the host runs, in blocks of three (the operation
//! with an operand layout of `valu_tests`, then the operation again reading the first result, then another
//! operation of the same result type with another layout), random and special lane values (NaNs,
//! infinities, denormals, signed zeros, integer extremes). Under a full EXEC the block must leave the VGPRs,
//! SGPRs and active-lane count that the instructions' own plain handlers leave, and that the per-lane
//! reference of `valu_tests` (the general handler on the even and then on the odd lanes, so never a
//! full-EXEC path) leaves; under any other EXEC it must do nothing (the interpreter then steps the
//! instructions). With AVX2/FMA lane kernels every block of operations that have a host-code sequence
//! (`valu_jit`) runs as host code, so each such operation is checked there too.

use super::super::lanes::{Chosen, LaneKernels};
use super::super::valu::handler;
use super::super::valu_forms::{plain_handler, PLAIN_OPS};
use super::super::valu_tests::{inst, masks, run, Rng, LAYOUTS};
use super::{blockable, jit_wanted, kind_of, Block, Shape, BLOCK_OPS};
use crate::decode::{Inst, VGPR0};
use crate::op::{Op, VOp};
use crate::operand::VCC_LO;
use crate::stats::WaveStats;
use crate::target::{Family, TARGETS};
use crate::wave::{Wave, MAX_LANES};

/// The lane kernel sets this host runs.
fn sets() -> Vec<Chosen> {
    let mut sets = vec![Chosen::new(LaneKernels::Baseline)];
    for k in [Chosen::new(LaneKernels::Avx2), Chosen::new(LaneKernels::Auto)] {
        if !sets.contains(&k) {
            sets.push(k);
        }
    }
    sets
}

/// Whether `op` has a host-code sequence (`valu_jit`).
fn host_code(op: VOp) -> bool {
    super::super::valu_jit::extra_consts(kind_of(op).unwrap().0).is_some()
}

/// Whether `op`'s result is a float (NaN payloads may differ between vectorised and scalar code).
fn float_result(op: VOp) -> bool {
    matches!(kind_of(op).map(|k| k.1), Some(Shape::F2 | Shape::F3 | Shape::F3Acc | Shape::FromU))
}

/// Runs `insts` one by one through the general handler on the even lanes of `exec`, then on the odd
/// ones; returns the active lanes it counted.
fn reference(w: &mut Wave, insts: &[Inst], exec: u64) -> u64 {
    let mut lanes = 0;
    for i in insts {
        let Op::Valu(op) = i.op else { unreachable!() };
        let general = handler(op, Chosen::Base);
        let even = 0x5555_5555_5555_5555 & exec;
        w.set_exec(even);
        lanes += run(general, w, i);
        w.set_exec(exec & !even);
        lanes += run(general, w, i);
    }
    w.set_exec(exec);
    lanes
}

/// Asserts that `got` has `want`'s registers (a NaN where `want` has a NaN counts as equal).
fn same(got: &Wave, want: &Wave, lanes: usize, what: &str) {
    assert_eq!(got.s, want.s, "{what}: SGPRs");
    let nan = |v: u32| v & 0x7f80_0000 == 0x7f80_0000 && v & 0x007f_ffff != 0;
    for r in 0..256 {
        for l in 0..lanes {
            let (g, x) = (got.vr(r, l), want.vr(r, l));
            assert!(g == x || (nan(g) && nan(x)), "{what}: v{r} lane {l}: {g:#x}, the reference {x:#x}");
        }
    }
}

/// A wave of `lanes` lanes with random rows and SGPRs.
fn random_wave(family: Family, lanes: usize, rng: &mut Rng) -> Wave {
    let mut w = Wave::new(family, lanes, 0);
    for r in [1, 2, 3, 4, 10, 11, 12] {
        for l in 0..MAX_LANES {
            w.set_vr(r, l, rng.value());
        }
    }
    for s in [8, 9, 20, 21, VCC_LO, VCC_LO + 1] {
        w.set_s(s, rng.next() as u32);
    }
    w
}

fn stats_of(b: &Block, w: &mut Wave) -> (bool, u64) {
    let mut stats = WaveStats::default();
    let ran = b.run(w, &mut stats);
    (ran, stats.valu_active_lanes)
}

#[test]
fn every_block_operation_has_a_plain_handler_and_writes_only_its_vgpr() {
    for &op in BLOCK_OPS {
        assert!(PLAIN_OPS.contains(&op), "{op:?}");
        // Carries, VCC or SGPR results and lane selects are not block operations.
        assert!(!matches!(
            op,
            VOp::AddCoU32
                | VOp::SubCoU32
                | VOp::SubrevCoU32
                | VOp::AddcCoU32
                | VOp::SubbCoU32
                | VOp::SubbrevCoU32
                | VOp::CndmaskB32
        ));
    }
    // Not plain (clamp), a carry-out and a lane select are never in a block.
    let mut i = inst("gfx90a", VOp::AddF32, VGPR0 + 1, [VGPR0 + 10, VGPR0 + 11, VGPR0 + 12], 0);
    assert!(blockable(&i));
    i.mods.clamp = true;
    i.pre = crate::decode::pre_of(&i);
    assert!(!blockable(&i));
    for op in [VOp::AddCoU32, VOp::CndmaskB32, VOp::AddF64] {
        assert!(!blockable(&inst("gfx90a", op, VGPR0 + 1, [VGPR0 + 10, VGPR0 + 11, VGPR0 + 12], 0)));
    }
}

#[test]
fn valu_blocks_match_their_instructions_one_by_one_and_the_per_lane_reference() {
    let sets = sets();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut full = 0;
    let mut partial = 0;
    let mut host_checked = 0;
    for (target, lanes) in [("gfx90a", 64), ("gfx1030", 32)] {
        let family = TARGETS.iter().find(|t| t.name == target).unwrap().family;
        for (n, &op) in BLOCK_OPS.iter().enumerate() {
            // Another operation with the same result type, for the third instruction, that has host code
            // when `op` has (so the block runs as host code where the host can).
            let other = (1..BLOCK_OPS.len())
                .map(|k| BLOCK_OPS[(n + k) % BLOCK_OPS.len()])
                .find(|&o| float_result(o) == float_result(op) && host_code(o) == host_code(op))
                .unwrap();
            for (k, &(dst, src)) in LAYOUTS.iter().enumerate() {
                let (dst2, src2) = LAYOUTS[(k + 3) % LAYOUTS.len()];
                let insts = [
                    inst(target, op, dst, src, rng.value()),
                    // Reads the first result (source 0 and 2; `fmac` also accumulates into v3).
                    inst(target, op, VGPR0 + 3, [dst, VGPR0 + 11, dst], 0),
                    inst(target, other, dst2, src2, rng.value()),
                ];
                if !insts.iter().all(blockable) {
                    // Layouts with a lane-select or carry SGPR in source 2 are not a block's.
                    continue;
                }
                let refs: Vec<&Inst> = insts.iter().collect();
                for &set in &sets {
                    let blocks = Block::build(&refs, set, lanes);
                    assert_eq!(blocks.len(), 1, "{op:?}: one block");
                    let (at, ref b) = blocks[0];
                    assert_eq!((at, b.len()), (0, 3), "{op:?}: the block holds the three instructions");
                    // Host code wherever it can run (under CI always: `ROCPROF_RS_SIM_JIT` is not set there).
                    assert_eq!(b.has_host_code(), host_code(op) && jit_wanted(set), "{op:?} {set:?}: host code");
                    if b.has_host_code() {
                        host_checked += 1;
                    }
                    for exec in masks(lanes, &mut rng) {
                        let w = random_wave(family, lanes, &mut rng);
                        let what = format!("{target} {op:?}+{other:?} {set:?} layout {k} exec {exec:#x}");
                        let mut got = w.clone();
                        got.set_exec(exec);
                        let (ran, got_lanes) = stats_of(b, &mut got);
                        if exec != u64::MAX >> (64 - lanes) {
                            let mut before = w.clone();
                            before.set_exec(exec);
                            assert!(!ran && got_lanes == 0, "{what}: a partial EXEC runs nothing");
                            same(&got, &before, MAX_LANES, &what);
                            partial += 1;
                            continue;
                        }
                        assert!(ran, "{what}: a full EXEC runs the block");
                        let mut want = w.clone();
                        let want_lanes = reference(&mut want, &insts, exec);
                        assert_eq!(got_lanes, want_lanes, "{what}: active lanes");
                        same(&got, &want, lanes, &format!("{what} (reference)"));
                        // The instructions' own plain handlers, one by one.
                        let mut single = w.clone();
                        single.set_exec(exec);
                        let mut single_lanes = 0;
                        for i in &insts {
                            let Op::Valu(o) = i.op else { unreachable!() };
                            let h = plain_handler(o, set, lanes, i.pre.form).unwrap();
                            single_lanes += run(h, &mut single, i);
                        }
                        assert_eq!(got_lanes, single_lanes, "{what}: active lanes (handlers)");
                        same(&got, &single, lanes, &format!("{what} (handlers)"));
                        full += 1;
                    }
                }
            }
        }
    }
    // Every operation, both targets, at least the six layouts without a carry SGPR, the baseline set.
    assert!(full >= 2 * BLOCK_OPS.len() * 6, "{full} full-EXEC checks");
    assert!(partial >= 2 * BLOCK_OPS.len() * 6 * 5, "{partial} partial-EXEC checks");
    // Every operation with a sequence ran as host code (both targets, at least six layouts) where the
    // lane kernels allow it.
    let covered = BLOCK_OPS.iter().filter(|&&o| host_code(o)).count();
    if sets.iter().any(|&k| jit_wanted(k)) {
        assert!(host_checked >= 2 * covered * 6, "{host_checked} blocks ran as host code");
    } else {
        eprintln!("SKIP host code in valu_blocks_match_...: no AVX2/FMA lane kernels or ROCPROF_RS_SIM_JIT=off");
    }
}

#[test]
fn a_block_reads_at_most_three_sgprs_and_a_fourth_starts_another() {
    let t = "gfx90a";
    let insts: Vec<Inst> = [8u16, 9, 20, 21, 8]
        .iter()
        .enumerate()
        .map(|(k, &s)| inst(t, VOp::AddU32, VGPR0 + 1 + k as u16, [s, VGPR0 + 11, VGPR0 + 12], 0))
        .collect();
    let refs: Vec<&Inst> = insts.iter().collect();
    let blocks = Block::build(&refs, Chosen::new(LaneKernels::Auto), 64);
    let got: Vec<(usize, u64)> = blocks.iter().map(|(at, b)| (*at, b.len())).collect();
    assert_eq!(got, [(0, 3), (3, 2)]);
    // The second block reads s21 and s8 from its own copies, and both give the host's sums.
    let mut rng = Rng(7);
    let mut w = random_wave(Family::Gfx9, 64, &mut rng);
    w.set_exec(u64::MAX);
    let before = w.clone();
    for (_, b) in &blocks {
        assert_eq!(stats_of(b, &mut w), (true, 64 * b.len()));
    }
    for (k, s) in [8u16, 9, 20, 21, 8].iter().enumerate() {
        for l in 0..64 {
            let want = before.s32(*s, 0, crate::wave::Ty::U).wrapping_add(before.vr(11, l));
            assert_eq!(w.vr(1 + k, l), want, "v{} lane {l}", 1 + k);
        }
    }
}
