//! Cycle accounting of matrix instructions on the interpreter: an MFMA holds the wave's matrix core for
//! its pass cycles (AMD's matrix instruction calculator: CDNA2 `v_mfma_f32_16x16x4f32` 32 cycles,
//! `v_mfma_f32_32x32x2f32` 64), the next MFMA issues no earlier (the wait is a stall of that
//! instruction), and other instructions do not wait for it. Assembled with `llvm-mc-19`.

use rocprof_isa::{run, Costs, FlatMemory, InstClass, RunOptions, CLASS_COUNT};

use crate::classes::{assemble, gfx90a_dispatch};

const OUT: u64 = 0x3000_0000;

#[test]
fn mfmas_issue_one_per_pass_count_and_valu_work_overlaps_them() {
    let Some(code) = assemble(
        "gfx90a",
        "
        v_mfma_f32_16x16x4f32 a[0:3], v1, v2, 0
        v_add_f32 v3, v1, v2
        v_mfma_f32_16x16x4f32 a[4:7], v1, v2, 0
        v_mfma_f32_32x32x2f32 a[0:15], v1, v2, 0
        v_add_f32 v4, v1, v2
        v_add_f32 v5, v1, v2
        s_endpgm
        ",
    ) else {
        return;
    };
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    let (d, mem): (_, FlatMemory) = gfx90a_dispatch(&kd, &code, OUT, [64, 1, 1], [64, 1, 1], 0);
    let costs = Costs { issue: [4; CLASS_COUNT], latency: [0; CLASS_COUNT] };
    let all = |_: u64, _: u32| true;
    let rec = run(&d, &mem, &RunOptions { costs, detail: Some(&all), ..RunOptions::default() }).unwrap();
    let steps = rec.detailed[0].steps.as_ref().unwrap();
    let at: Vec<(u64, u32)> = steps.iter().map(|s| (s.cycle, s.stall)).collect();
    // mfma 0..; add at 4; the second 16x16 mfma waits for 32; the 32x32 for 64; the adds follow it.
    assert_eq!(at, [(0, 0), (4, 0), (32, 24), (64, 28), (68, 0), (72, 0), (76, 0)]);
    assert_eq!(rec.detailed[0].stats.stall_cycles, 24 + 28);
    assert_eq!(rec.detailed[0].stats.matrix.busy_cycles, 32 + 32 + 64);
    assert_eq!(rec.totals.count(InstClass::Valu), 6);
}
