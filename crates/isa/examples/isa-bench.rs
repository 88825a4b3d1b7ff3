//! `isa-bench`: interpreter throughput in wave-instructions per second on one host thread, for the fixture
//! kernels `vector_add` (1M elements) and `block_sum` (an LDS reduction over 1M elements) on gfx90a
//! (wave64) and gfx1030 (wave32). Run by `cargo xtask bench`.
//!
//! Prints one line per case: `isa-bench <kernel> <target>: <N> wave-instructions in <t> ms = <rate> M
//! wave-instructions/s/core (<lanes> M lane-ops/s); on-CPU <t> ms = <rate> M/s`. The first rate is over
//! wall time; the second over the time the thread was really on a CPU (`/proc/thread-self/schedstat`),
//! which is the per-core figure on a shared, loaded machine.
//!
//! With a staged build (`ROCPROF_RS_STAGE`, set by `cargo xtask bench`) it then times whole programs as
//! users run them, on hsa-sim with execution on and off (`ROCPROF_RS_SIM_EXEC=off`, timing only): the
//! HIP fixtures `hip_vector_add` (1M floats) and `hip_reduce` (1M ints and floats), best of 3, and
//! prints the ratio: what executing the kernels costs a test program.

use std::time::Instant;

use rocprof_isa::{run, CodeObject, Dispatch, FlatMemory, KernelDescriptor, RunOptions, Target};

const CODE: u64 = 0x1000_0000;
const KERNARG: u64 = 0x3000_0000;
const PACKET: u64 = 0x4000_0000;
const A: u64 = 0x5000_0000;
const B: u64 = 0x6000_0000;
const C: u64 = 0x7000_0000;

fn kernarg_v5(explicit: &[u8], grid: [u32; 3], wg: [u32; 3]) -> Vec<u8> {
    let mut k = explicit.to_vec();
    k.resize(explicit.len().div_ceil(8) * 8, 0);
    let h = k.len();
    k.resize(h + 256, 0);
    for d in 0..3 {
        k[h + 4 * d..h + 4 * d + 4].copy_from_slice(&(grid[d] / wg[d]).to_le_bytes());
        k[h + 12 + 2 * d..h + 14 + 2 * d].copy_from_slice(&(wg[d] as u16).to_le_bytes());
    }
    k[h + 64..h + 66].copy_from_slice(&1u16.to_le_bytes());
    k
}

/// Nanoseconds this thread has spent on a CPU (Linux's schedstat; 0 when it is not available).
fn on_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn case(kernel: &str, target: &str, n: u32) -> (u64, f64, f64) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
    let elf = std::fs::read(root.join(format!("{kernel}-{target}.co"))).expect("fixture code object");
    let obj = CodeObject::parse(&elf).expect("parses");
    let kd_off = obj.kernel_descriptor(kernel).expect("kernel");
    let kd: [u8; 64] = obj.image[kd_off as usize..kd_off as usize + 64].try_into().unwrap();
    let kd = KernelDescriptor::parse(&kd);
    let mut mem = FlatMemory::new();
    mem.map(CODE, &obj.image);
    let data: Vec<u8> = (0..n).flat_map(|i| ((i % 100) as f32).to_le_bytes()).collect();
    mem.map(A, &data);
    mem.map(B, &data);
    mem.map(C, &vec![0; 4 * n as usize]);
    let wg = [256, 1, 1];
    let grid = [n.div_ceil(256) * 256, 1, 1];
    let mut args = Vec::new();
    if kernel == "vector_add" {
        for p in [A, B, C] {
            args.extend_from_slice(&p.to_le_bytes());
        }
    } else {
        for p in [A, C] {
            args.extend_from_slice(&p.to_le_bytes());
        }
    }
    args.extend_from_slice(&n.to_le_bytes());
    mem.map(KERNARG, &kernarg_v5(&args, grid, wg));
    mem.map(PACKET, &[0; 64]);
    let d = Dispatch {
        target: Target::find(target).unwrap(),
        kernel_object: CODE + kd_off,
        descriptor: kd,
        grid,
        workgroup: wg,
        group_segment_size: kd.group_segment_fixed_size,
        private_segment_size: 0,
        kernarg: KERNARG,
        dispatch_ptr: PACKET,
        queue_ptr: 0,
        dispatch_id: 0,
    };
    let opts = RunOptions { threads: 1, ..RunOptions::default() };
    // Warm-up (decode caches are per run; this warms the host's caches and the allocator).
    run(&d, &mem, &opts).expect("runs");
    let mut best = f64::MAX;
    let mut best_cpu = f64::MAX;
    let mut instructions = 0;
    for _ in 0..3 {
        let (t, c) = (Instant::now(), on_cpu_ns());
        let rec = run(&d, &mem, &opts).expect("runs");
        best = best.min(t.elapsed().as_secs_f64());
        best_cpu = best_cpu.min((on_cpu_ns() - c) as f64 / 1e9);
        instructions = rec.totals.instructions();
    }
    // Check the result so the benchmark cannot measure a broken interpreter.
    let out = mem.get(C, 8).unwrap();
    let first = f32::from_le_bytes(out[4..8].try_into().unwrap());
    let want = if kernel == "vector_add" { 2.0 } else { (256..512).map(|i| (i % 100) as f32).sum::<f32>() };
    assert_eq!(first, want, "{kernel} {target}: wrong result");
    (instructions, best, best_cpu)
}

/// Best-of-3 wall time of a staged HIP fixture on hsa-sim (gfx90a) with execution on or off; the program
/// must succeed with execution on (its own result check) and run to the end with it off.
fn program(stage: &std::path::Path, name: &str, args: &[&str], exec: bool) -> Option<f64> {
    let app = stage.join("fixtures").join(name);
    if !app.exists() {
        println!("isa-bench program {name}: skipped (not staged: hipcc missing?)");
        return None;
    }
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let out = std::process::Command::new(&app)
            .args(args)
            .env("LD_LIBRARY_PATH", stage)
            .env("ROCPROF_RS_SIM_AGENTS", "gfx90a")
            .env("ROCPROF_RS_SIM_EXEC", if exec { "on" } else { "off" })
            .output()
            .expect("runs the fixture");
        best = best.min(t.elapsed().as_secs_f64());
        if exec {
            assert!(out.status.success(), "{name} failed on hsa-sim:\n{}", String::from_utf8_lossy(&out.stderr));
        } else {
            assert!(out.status.code().is_some(), "{name} crashed without execution");
        }
    }
    Some(best)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1u32 << 20);
    // Optional filters (for profiling one case): kernel name, target.
    let only = |k: usize, v: &str| args.get(k).is_none_or(|f| f == v);
    for kernel in ["vector_add", "block_sum"] {
        for target in ["gfx90a", "gfx1030"] {
            if !only(2, kernel) || !only(3, target) {
                continue;
            }
            let (insts, secs, cpu) = case(kernel, target, n);
            let lanes = if target == "gfx90a" { 64.0 } else { 32.0 };
            let on_cpu = if cpu > 0.0 {
                format!("; on-CPU {:.1} ms = {:.1} M/s", cpu * 1e3, insts as f64 / cpu / 1e6)
            } else {
                String::new()
            };
            println!(
                "isa-bench {kernel} {target}: {insts} wave-instructions in {:.1} ms = {:.1} M wave-instructions/s/core ({:.0} M lane-ops/s){on_cpu}",
                secs * 1e3,
                insts as f64 / secs / 1e6,
                insts as f64 * lanes / secs / 1e6
            );
        }
    }
    if args.len() > 2 {
        return;
    }
    let Some(stage) = std::env::var_os("ROCPROF_RS_STAGE").map(std::path::PathBuf::from) else {
        println!("isa-bench programs: skipped (ROCPROF_RS_STAGE not set)");
        return;
    };
    for (name, args) in [("hip_vector_add", ["1", "1048576"]), ("hip_reduce", ["1", "1048576"])] {
        let Some(on) = program(&stage, name, &args, true) else { continue };
        let off = program(&stage, name, &args, false).expect("staged");
        println!(
            "isa-bench program {name} {}: {:.2} s executing, {:.2} s timing-only = {:.2}x",
            args[1],
            on,
            off,
            on / off
        );
    }
}
