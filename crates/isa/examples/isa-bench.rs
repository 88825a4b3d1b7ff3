//! `isa-bench`: interpreter throughput in wave-instructions per CPU second for three kinds of kernel, on
//! gfx90a (wave64) and gfx1030 (wave32), on one host thread and on all of them:
//!
//! * `valu`: a VALU-heavy loop (16 VALU + 3 SALU instructions per iteration: FMAs, float and integer ops,
//!   a literal), hand-assembled below (LLVM 19's `llvm-mc`), one store per work-item at the end;
//! * `lds`: the fixture kernel `block_sum` (an LDS tree reduction with 8 barriers per workgroup);
//! * `mem`: the fixture kernel `vector_add` (two loads and a store per work-item).
//!
//! Each case is checked against a host computation, so a broken interpreter cannot post a figure. Prints
//! one line per case: `isa-bench <kind> <kernel> <target> <threads>T: <N> wave-instructions, wall <t> ms,
//! CPU <t> ms = <rate> M wave-instructions per CPU second (<lane-ops> G lane-ops/CPU-s)`. CPU time is the
//! process's (`/proc/self/stat`, all threads, 10 ms ticks) for the multi-threaded runs and the thread's
//! (`/proc/thread-self/schedstat`, ns) for one thread: on a shared, loaded machine wall time says little.
//! The multi-threaded line adds its wall-time speed-up over the one-thread run of the same case.
//!
//! With a staged build (`ROCPROF_RS_STAGE`, set by `cargo xtask bench`) it then times whole programs as
//! users run them, on hsa-sim with execution on and off (`ROCPROF_RS_SIM_EXEC=off`, timing only): the
//! HIP fixtures `hip_vector_add` (1M floats), `hip_reduce` (1M ints and floats) and `hip_transpose`
//! (2048 x 2048 floats, tiled through LDS and naive), best of 3, and prints the ratios of wall time and
//! of the programs' CPU time (`cutime` + `cstime`): what executing the kernels costs a test program.
//!
//! Arguments (all optional): `[scale] [kind] [target]`; `scale` multiplies the problem sizes (default 1),
//! `kind`/`target` run one case only (for profiling).

use rocprof_launch::names;
use std::time::Instant;

use rocprof_isa::{run, CodeObject, Dispatch, FlatMemory, KernelDescriptor, RunOptions, Target};

const CODE: u64 = 0x1000_0000;
const KERNARG: u64 = 0x3000_0000;
const PACKET: u64 = 0x4000_0000;
const A: u64 = 0x5000_0000;
const B: u64 = 0x6000_0000;
const C: u64 = 0x7000_0000;

/// The VALU loop for gfx90a. Kernel arguments: `out` (u64) @0, `iterations` (u32) @8; `s2` = workgroup id.
/// ```text
///   s_load_dwordx2 s[4:5], s[0:1], 0x0 ; s_load_dword s6, s[0:1], 0x8
///   v_lshl_add_u32 v12, s2, 8, v0      ; global id g
///   v_cvt_f32_u32 v1, v12 ; v_add_f32 v2, 1.0, v1 ; v_add_f32 v3, 2.0, v1 ; v_add_f32 v4, 4.0, v1
///   v_mov_b32 v10, 0.5 ; v_mov_b32 v11, 1.0 ; v_mov_b32 v14, 0 ; v_mov_b32 v13, v12 ; s_waitcnt lgkmcnt(0)
/// loop:
///   v_fma_f32 v1, v1, v10, v11 (also v2, v3, v4) ; v_mul_f32 v5, v1, v2 ; v_add_f32 v6, v3, v4
///   v_sub_f32 v7, v5, v6 ; v_max_f32 v8, v7, v1 ; v_min_f32 v9, v8, v2 ; v_add_f32 v14, v14, v9
///   v_add_u32 v13, v13, v12 ; v_xor_b32 v13, 0x5bd1e995, v13 ; v_lshrrev_b32 v15, 3, v13
///   v_add_u32 v13, v13, v15 ; v_fmac_f32 v14, v10, v5 ; v_mul_f32 v14, 0.5, v14
///   s_sub_u32 s6, s6, 1 ; s_cmp_lg_u32 s6, 0 ; s_cbranch_scc1 loop
///   v_cvt_f32_u32 v15, v13 ; v_add_f32 v14, v14, v15 ; v_lshlrev_b32 v12, 2, v12
///   global_store_dword v12, v14, s[4:5] ; s_endpgm
/// ```
const VALU_GFX90A: [u32; 45] = [
    0xc0060100, 0x00000000, 0xc0020180, 0x00000008, 0xd1fd000c, 0x04011002, 0x7e020d0c, 0x020402f2, 0x020602f4,
    0x020802f6, 0x7e1402f0, 0x7e1602f2, 0x7e1c0280, 0x7e1a030c, 0xbf8cc07f, 0xd1cb0001, 0x042e1501, 0xd1cb0002,
    0x042e1502, 0xd1cb0003, 0x042e1503, 0xd1cb0004, 0x042e1504, 0x0a0a0501, 0x020c0903, 0x040e0d05, 0x16100307,
    0x14120508, 0x021c130e, 0x681a190d, 0x2a1a1aff, 0x5bd1e995, 0x201e1a83, 0x681a1f0d, 0x761c0b0a, 0x0a1c1cf0,
    0x80868106, 0xbf078006, 0xbf85ffe8, 0x7e1e0d0d, 0x021c1f0e, 0x24181882, 0xdc708000, 0x00040e0c, 0xbf810000,
];
/// The same loop for gfx1030 (`v_add_nc_u32` for `v_add_u32`).
const VALU_GFX1030: [u32; 45] = [
    0xf4040100, 0xfa000000, 0xf4000180, 0xfa000008, 0xd746000c, 0x04011002, 0x7e020d0c, 0x060402f2, 0x060602f4,
    0x060802f6, 0x7e1402f0, 0x7e1602f2, 0x7e1c0280, 0x7e1a030c, 0xbf8cc07f, 0xd54b0001, 0x042e1501, 0xd54b0002,
    0x042e1502, 0xd54b0003, 0x042e1503, 0xd54b0004, 0x042e1504, 0x100a0501, 0x060c0903, 0x080e0d05, 0x20100307,
    0x1e120508, 0x061c130e, 0x4a1a190d, 0x3a1a1aff, 0x5bd1e995, 0x2c1e1a83, 0x4a1a1f0d, 0x561c0b0a, 0x101c1cf0,
    0x80868106, 0xbf078006, 0xbf85ffe8, 0x7e1e0d0d, 0x061c1f0e, 0x34181882, 0xdc708000, 0x00040e0c, 0xbf810000,
];

/// What the VALU loop stores for global id `g` after `iterations` iterations, computed on the host.
fn valu_expected(g: u32, iterations: u32) -> f32 {
    let x0 = g as f32;
    let (mut x1, mut x2, mut x3, mut x4) = (x0, 1.0 + x0, 2.0 + x0, 4.0 + x0);
    let (mut acc, mut h) = (0.0f32, g);
    for _ in 0..iterations {
        x1 = x1.mul_add(0.5, 1.0);
        x2 = x2.mul_add(0.5, 1.0);
        x3 = x3.mul_add(0.5, 1.0);
        x4 = x4.mul_add(0.5, 1.0);
        let v5 = x1 * x2;
        let v7 = v5 - (x3 + x4);
        let v9 = v7.max(x1).min(x2);
        acc += v9;
        h = h.wrapping_add(g) ^ 0x5bd1_e995;
        h = h.wrapping_add(h >> 3);
        acc = 0.5f32.mul_add(v5, acc);
        acc *= 0.5;
    }
    acc + h as f32
}

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
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Nanoseconds all threads of this process (ended ones included) have spent on a CPU, in 10 ms ticks
/// (`utime` + `stime` of `/proc/self/stat`, `USER_HZ` = 100); 0 when it is not available.
fn process_cpu_ns() -> u64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0 };
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else { return 0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| f.get(k).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the state field's predecessor.
    (ticks(11) + ticks(12)) * 10_000_000
}

/// Nanoseconds the ended and waited-for child processes spent on a CPU (`cutime` + `cstime`), in 10 ms
/// ticks; 0 when not available.
fn children_cpu_ns() -> u64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0 };
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else { return 0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| f.get(k).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (ticks(13) + ticks(14)) * 10_000_000
}

/// One measured case.
struct Case {
    kind: &'static str,
    kernel: &'static str,
    target: &'static str,
}

/// Checks what a case wrote.
type Check = Box<dyn Fn(&FlatMemory)>;

/// Memory, dispatch and result check of one case.
fn setup(c: &Case, scale: u32) -> (FlatMemory, Dispatch, Check) {
    let t = Target::find(c.target).expect("target");
    let mut mem = FlatMemory::new();
    let wg = [256, 1, 1];
    mem.map(PACKET, &[0; 64]);
    let dispatch = |kd: KernelDescriptor, kernel_object: u64, grid: [u32; 3]| Dispatch {
        target: t,
        kernel_object,
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
    if c.kind == "valu" {
        let code: &[u32] = if c.target == "gfx90a" { &VALU_GFX90A } else { &VALU_GFX1030 };
        let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
        mem.map(CODE, &bytes);
        let items = 64 * 256 * scale;
        let iterations = 1000u32;
        mem.map(C, &vec![0; 4 * items as usize]);
        let mut args = C.to_le_bytes().to_vec();
        args.extend_from_slice(&iterations.to_le_bytes());
        let grid = [items, 1, 1];
        mem.map(KERNARG, &kernarg_v5(&args, grid, wg));
        let kd = KernelDescriptor {
            group_segment_fixed_size: 0,
            private_segment_fixed_size: 0,
            kernarg_size: 16,
            kernel_code_entry_byte_offset: 0,
            rsrc3: 0,
            // 16 VGPRs; USER_SGPR_COUNT 2 (the kernarg pointer), workgroup id x in s2.
            rsrc1: 1,
            rsrc2: (2 << 1) | (1 << 7),
            properties: 8 | if t.family >= rocprof_isa::Family::Gfx10 { 1 << 10 } else { 0 },
            kernarg_preload: 0,
        };
        let check = move |mem: &FlatMemory| {
            let out = mem.get(C, 4 * items as usize).unwrap();
            for g in (0..items).step_by(997).chain([items - 1]) {
                let got = f32::from_le_bytes(out[4 * g as usize..4 * g as usize + 4].try_into().unwrap());
                assert_eq!(got.to_bits(), valu_expected(g, iterations).to_bits(), "valu: wrong result at {g}");
            }
        };
        return (mem, dispatch(kd, CODE, grid), Box::new(check));
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels");
    let elf = std::fs::read(root.join(format!("{}-{}.co", c.kernel, c.target))).expect("fixture code object");
    let obj = CodeObject::parse(&elf).expect("parses");
    let kd_off = obj.kernel_descriptor(c.kernel).expect("kernel");
    let kd: [u8; 64] = obj.image[kd_off as usize..kd_off as usize + 64].try_into().unwrap();
    let kd = KernelDescriptor::parse(&kd);
    mem.map(CODE, &obj.image);
    let n = (1u32 << 20) * scale;
    let data: Vec<u8> = (0..n).flat_map(|i| ((i % 100) as f32).to_le_bytes()).collect();
    mem.map(A, &data);
    mem.map(B, &data);
    mem.map(C, &vec![0; 4 * n as usize]);
    let grid = [n.div_ceil(256) * 256, 1, 1];
    let mut args = Vec::new();
    let ptrs: &[u64] = if c.kernel == "vector_add" { &[A, B, C] } else { &[A, C] };
    for p in ptrs {
        args.extend_from_slice(&p.to_le_bytes());
    }
    args.extend_from_slice(&n.to_le_bytes());
    mem.map(KERNARG, &kernarg_v5(&args, grid, wg));
    let kernel = c.kernel;
    let check = move |mem: &FlatMemory| {
        let out = mem.get(C, 8).unwrap();
        let first = f32::from_le_bytes(out[4..8].try_into().unwrap());
        let want = if kernel == "vector_add" { 2.0 } else { (256..512).map(|i| (i % 100) as f32).sum::<f32>() };
        assert_eq!(first, want, "{kernel}: wrong result");
    };
    (mem, dispatch(kd, CODE + kd_off, grid), Box::new(check))
}

/// Best-of-3 wall and CPU seconds of one case on `threads` host threads, and its wave-instructions.
fn measure(c: &Case, scale: u32, threads: usize) -> (u64, f64, f64) {
    let (mem, d, check) = setup(c, scale);
    let opts = RunOptions { threads, ..RunOptions::default() };
    let cpu_now = || if threads == 1 { thread_cpu_ns() } else { process_cpu_ns() };
    // Warm-up (decode caches are per run; this warms the host's caches and the allocator).
    run(&d, &mem, &opts).expect("runs");
    let (mut best, mut best_cpu, mut instructions) = (f64::MAX, f64::MAX, 0);
    for _ in 0..3 {
        let (t, c0) = (Instant::now(), cpu_now());
        let rec = run(&d, &mem, &opts).expect("runs");
        best = best.min(t.elapsed().as_secs_f64());
        best_cpu = best_cpu.min((cpu_now() - c0) as f64 / 1e9);
        instructions = rec.totals.instructions();
    }
    // Check the result so the benchmark cannot measure a broken interpreter.
    check(&mem);
    (instructions, best, best_cpu)
}

/// Best-of-3 wall time of a staged HIP fixture on hsa-sim (gfx90a) with execution on or off; the program
/// must succeed with execution on (its own result check) and run to the end with it off.
fn program(stage: &std::path::Path, name: &str, args: &[&str], exec: bool) -> Option<(f64, f64)> {
    let app = stage.join("fixtures").join(name);
    if !app.exists() {
        println!("isa-bench program {name}: skipped (not staged: hipcc missing?)");
        return None;
    }
    let (mut best, mut best_cpu) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let (t, c) = (Instant::now(), children_cpu_ns());
        let out = std::process::Command::new(&app)
            .args(args)
            .env("LD_LIBRARY_PATH", stage)
            .env(names::SIM_AGENTS, "gfx90a")
            .env(names::SIM_EXEC, if exec { "on" } else { "off" })
            .output()
            .expect("runs the fixture");
        best = best.min(t.elapsed().as_secs_f64());
        best_cpu = best_cpu.min((children_cpu_ns() - c) as f64 / 1e9);
        if exec {
            assert!(out.status.success(), "{name} failed on hsa-sim:\n{}", String::from_utf8_lossy(&out.stderr));
        } else {
            assert!(out.status.code().is_some(), "{name} crashed without execution");
        }
    }
    Some((best, best_cpu))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scale = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1u32).max(1);
    // Optional filters (for profiling one case): kind, target.
    let only = |k: usize, v: &str| args.get(k).is_none_or(|f| f == v);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cases = [
        Case { kind: "valu", kernel: "valu_loop", target: "gfx90a" },
        Case { kind: "valu", kernel: "valu_loop", target: "gfx1030" },
        Case { kind: "lds", kernel: "block_sum", target: "gfx90a" },
        Case { kind: "lds", kernel: "block_sum", target: "gfx1030" },
        Case { kind: "mem", kernel: "vector_add", target: "gfx90a" },
        Case { kind: "mem", kernel: "vector_add", target: "gfx1030" },
    ];
    for c in &cases {
        if !only(2, c.kind) || !only(3, c.target) {
            continue;
        }
        let lanes = if c.target == "gfx90a" { 64.0 } else { 32.0 };
        let mut one_wall = 0.0;
        for threads in [1, cores] {
            if threads == cores && cores == 1 && one_wall > 0.0 {
                break;
            }
            let (insts, wall, cpu) = measure(c, scale, threads);
            let rate = if cpu > 0.0 {
                format!(
                    "{:.1} M wave-instructions per CPU second ({:.2} G lane-ops/CPU-s)",
                    insts as f64 / cpu / 1e6,
                    insts as f64 * lanes / cpu / 1e9
                )
            } else {
                "CPU time not available".into()
            };
            let speedup =
                if threads == 1 { String::new() } else { format!(", wall speed-up {:.2}x over 1T", one_wall / wall) };
            if threads == 1 {
                one_wall = wall;
            }
            println!(
                "isa-bench {} {} {} {threads}T: {insts} wave-instructions, wall {:.1} ms, CPU {:.1} ms = {rate}{speedup}",
                c.kind,
                c.kernel,
                c.target,
                wall * 1e3,
                cpu * 1e3,
            );
        }
    }
    if args.len() > 2 {
        return;
    }
    let Some(stage) = std::env::var_os(names::STAGE).map(std::path::PathBuf::from) else {
        println!("isa-bench programs: skipped (ROCPROF_RS_STAGE not set)");
        return;
    };
    let programs: [(&str, &[&str]); 3] = [
        ("hip_vector_add", &["1", "1048576"]),
        ("hip_reduce", &["1", "1048576"]),
        ("hip_transpose", &["1", "2048", "2048"]),
    ];
    for (name, args) in programs {
        let Some((on, on_cpu)) = program(&stage, name, args, true) else { continue };
        let (off, off_cpu) = program(&stage, name, args, false).expect("staged");
        println!(
            "isa-bench program {name} {}: wall {:.2} s executing, {:.2} s timing-only = {:.2}x; CPU {:.2} s vs {:.2} s = {:.2}x",
            args[1..].join(" "),
            on,
            off,
            on / off,
            on_cpu,
            off_cpu,
            on_cpu / off_cpu.max(0.01)
        );
    }
}
