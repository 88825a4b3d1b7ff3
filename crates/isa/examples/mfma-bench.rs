//! `mfma-bench`: interpreter throughput on matrix instructions, in wave-instructions and FLOPs per CPU
//! second on one host thread. Run by `cargo xtask bench`.
//!
//! The kernel (gfx90a, wave64, encodings from `llvm-mc -mcpu=gfx90a`): a loop of
//! `v_mfma_f32_32x32x8f16`, `v_mfma_f32_16x16x16f16`, `v_mfma_f32_32x32x2f32` (AGPR accumulators) and
//! `v_mfma_f64_16x16x4f64` (VGPRs), 256 iterations per wave, all inputs 1 (f16 pairs) / 1.0 / a small
//! f64. Prints `mfma-bench gfx90a: <N> wave-instructions (<M> MFMA, <F> GFLOP) in <t> ms on-CPU = <r> M
//! wave-instructions/s, <g> GFLOP/s`; it checks that every MFMA executed was counted (the results
//! themselves are the unit tests' business).

use std::time::Instant;

use rocprof_isa::{run, Dispatch, FlatMemory, KernelDescriptor, RunOptions, Target};

const CODE: u64 = 0x1000_0000;
const KERNARG: u64 = 0x3000_0000;

/// The kernel's code (little-endian dwords).
const KERNEL: &[u32] = &[
    0xb002_0100, // s_movk_i32 s2, 0x100
    0x7e00_02ff,
    0x3c00_3c00, // v_mov_b32 v0, 0x3c003c00 (two f16 1.0)
    0x7e02_02ff,
    0x3c00_3c00, // v1
    0x7e04_02ff,
    0x3c00_3c00, // v2
    0x7e06_02ff,
    0x3c00_3c00, // v3
    0x7e08_02f2, // v_mov_b32 v4, 1.0
    0xd3cc_8000,
    0x0202_0500, // v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], 0
    0xd3cd_8010,
    0x0202_0500, // v_mfma_f32_16x16x16f16 a[16:19], v[0:1], v[2:3], 0
    0xd3c4_8014,
    0x0202_0904, // v_mfma_f32_32x32x2f32 a[20:35], v4, v4, 0
    0xd3ee_0008,
    0x0202_0500, // v_mfma_f64_16x16x4f64 v[8:15], v[0:1], v[2:3], 0
    // loop:
    0xd3cc_8000,
    0x0402_0500, // v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
    0xd3cd_8010,
    0x0442_0500, // v_mfma_f32_16x16x16f16 a[16:19], v[0:1], v[2:3], a[16:19]
    0xd3c4_8014,
    0x0452_0904, // v_mfma_f32_32x32x2f32 a[20:35], v4, v4, a[20:35]
    0xd3ee_0008,
    0x0422_0500, // v_mfma_f64_16x16x4f64 v[8:15], v[0:1], v[2:3], v[8:15]
    0x8082_8102, // s_sub_u32 s2, s2, 1
    0xbf07_8002, // s_cmp_lg_u32 s2, 0
    0xbf85_fff5, // s_cbranch_scc1 loop (-11 dwords)
    0xbf81_0000, // s_endpgm
];

/// Nanoseconds this thread has spent on a CPU (Linux's schedstat; 0 when it is not available).
fn on_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn main() {
    let waves: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(64);
    let mut kd = [0u8; 64];
    kd[16..24].copy_from_slice(&256i64.to_le_bytes()); // code 256 bytes after the descriptor
    kd[44..48].copy_from_slice(&15u32.to_le_bytes()); // ACCUM_OFFSET (15 + 1) * 4 = 64
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes()); // all VGPRs
    let mut image = kd.to_vec();
    image.resize(256, 0);
    image.extend(KERNEL.iter().flat_map(|w| w.to_le_bytes()));
    image.resize(image.len() + 64, 0);
    let mut mem = FlatMemory::new();
    mem.map(CODE, &image);
    mem.map(KERNARG, &[0; 64]);
    let d = Dispatch {
        target: Target::find("gfx90a").unwrap(),
        kernel_object: CODE,
        descriptor: KernelDescriptor::parse(&kd),
        grid: [64 * waves, 1, 1],
        workgroup: [64, 1, 1],
        group_segment_size: 0,
        private_segment_size: 0,
        kernarg: KERNARG,
        dispatch_ptr: KERNARG,
        queue_ptr: 0,
        dispatch_id: 0,
    };
    let opts = RunOptions { threads: 1, ..RunOptions::default() };
    run(&d, &mem, &opts).expect("runs");
    let (mut best_cpu, mut best_wall) = (f64::MAX, f64::MAX);
    let mut rec = None;
    for _ in 0..3 {
        let (t, c) = (Instant::now(), on_cpu_ns());
        let r = run(&d, &mem, &opts).expect("runs");
        best_wall = best_wall.min(t.elapsed().as_secs_f64());
        best_cpu = best_cpu.min((on_cpu_ns() - c) as f64 / 1e9);
        rec = Some(r);
    }
    let rec = rec.unwrap();
    let insts = rec.totals.instructions();
    let m = rec.totals.matrix;
    assert_eq!(m.instructions(), u64::from(waves) * 4 * 257, "every MFMA counted");
    let flops = m.ops.iter().sum::<u64>() as f64;
    let cpu = if best_cpu > 0.0 { best_cpu } else { best_wall };
    println!(
        "mfma-bench gfx90a: {insts} wave-instructions ({} MFMA, {:.2} GFLOP) in {:.1} ms on-CPU ({:.1} ms wall) = {:.3} M wave-instructions/s, {:.2} GFLOP/s",
        m.instructions(),
        flops / 1e9,
        cpu * 1e3,
        best_wall * 1e3,
        insts as f64 / cpu / 1e6,
        flops / cpu / 1e9
    );
}
