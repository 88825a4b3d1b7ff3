//! The fixtures' OpenCL kernels (built by clang-19 for every simulated target) on the interpreter.

use crate::harness::*;

/// Every simulated target: the targets crate's.
fn targets() -> impl Iterator<Item = &'static str> {
    rocprof_isa::target::TARGETS.iter().map(|t| t.name)
}

#[test]
fn vector_add_on_every_target() {
    for t in targets() {
        let k = load(&fixture(&format!("vector_add-{t}.co")), "vector_add");
        let n = 1000u32;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
        let (pa, pb, pc) = (DATA, DATA + 0x10_0000, DATA + 0x20_0000);
        k.mem.map(pa, f32_bytes(&a));
        k.mem.map(pb, f32_bytes(&b));
        k.mem.map(pc, vec![0; 4 * n as usize]);
        let mut args = Vec::new();
        for p in [pa, pb, pc] {
            args.extend_from_slice(&p.to_le_bytes());
        }
        args.extend_from_slice(&n.to_le_bytes());
        let grid = [1024, 1, 1];
        let wg = [256, 1, 1];
        let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
        let rec = k.run(&d, 2).unwrap_or_else(|e| panic!("{t}: {e}"));
        let c = k.read_f32(pc, n as usize);
        for i in 0..n as usize {
            assert_eq!(c[i], 1.5 * i as f32, "{t}: c[{i}]");
        }
        let lanes = if t.starts_with("gfx9") { 64 } else { 32 };
        assert_eq!(rec.wave_count(), 1024 / lanes as u64, "{t}: waves");
        assert!(rec.totals.instructions() > 0);
    }
}

#[test]
fn saxpy_fill_and_block_sum_on_every_target() {
    for t in targets() {
        // saxpy: y = alpha * x + y over a grid that is not a multiple of the workgroup (partial group).
        let k = load(&fixture(&format!("saxpy-{t}.co")), "saxpy");
        let n = 700u32;
        let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
        let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
        let (px, py) = (DATA, DATA + 0x10_0000);
        k.mem.map(px, f32_bytes(&x));
        k.mem.map(py, f32_bytes(&y));
        let mut args = 3.0f32.to_le_bytes().to_vec();
        args.extend_from_slice(&[0; 4]);
        args.extend_from_slice(&px.to_le_bytes());
        args.extend_from_slice(&py.to_le_bytes());
        args.extend_from_slice(&n.to_le_bytes());
        let (grid, wg) = ([n, 1, 1], [128, 1, 1]);
        let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
        k.run(&d, 1).unwrap_or_else(|e| panic!("{t} saxpy: {e}"));
        let out = k.read_f32(py, n as usize);
        for i in 0..n as usize {
            assert_eq!(out[i], 3.0f32.mul_add(x[i], y[i]), "{t} saxpy y[{i}]");
        }

        // fill: a 2-D grid; rows of `pitch` elements, only i < n written.
        let k = load(&fixture(&format!("fill-{t}.co")), "fill");
        let (pitch, rows, n) = (48u32, 10u32, 450u32);
        let p = DATA;
        k.mem.map(p, vec![0xff; 4 * (pitch * rows) as usize]);
        let mut args = p.to_le_bytes().to_vec();
        for v in [0xabcd_0123u32, pitch, n] {
            args.extend_from_slice(&v.to_le_bytes());
        }
        let (grid, wg) = ([pitch, rows, 1], [16, 4, 1]);
        let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
        k.run(&d, 2).unwrap_or_else(|e| panic!("{t} fill: {e}"));
        let out = k.read_u32(p, (pitch * rows) as usize);
        for (i, v) in out.iter().enumerate() {
            let want = if (i as u32) < n { 0xabcd_0123 } else { 0xffff_ffff };
            assert_eq!(*v, want, "{t} fill p[{i}]");
        }

        // block_sum: LDS tree reduction with barriers, one output per 256-element block.
        let k = load(&fixture(&format!("block_sum-{t}.co")), "block_sum");
        let n = 256 * 5 - 17;
        let input: Vec<f32> = (0..n).map(|i| (i % 13) as f32).collect();
        let (pin, pout) = (DATA, DATA + 0x10_0000);
        k.mem.map(pin, f32_bytes(&input));
        k.mem.map(pout, vec![0; 4 * 5]);
        let mut args = pin.to_le_bytes().to_vec();
        args.extend_from_slice(&pout.to_le_bytes());
        args.extend_from_slice(&(n as u32).to_le_bytes());
        let (grid, wg) = ([256 * 5, 1, 1], [256, 1, 1]);
        let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
        let rec = k.run(&d, 2).unwrap_or_else(|e| panic!("{t} block_sum: {e}"));
        let out = k.read_f32(pout, 5);
        for g in 0..5 {
            let want: f32 = input[g * 256..((g + 1) * 256).min(n)].iter().sum();
            assert_eq!(out[g], want, "{t} block_sum out[{g}]");
        }
        let lds = rec.totals.bytes.lds_read + rec.totals.bytes.lds_write;
        assert!(lds > 0, "{t}: LDS traffic is counted");
        assert!(rec.totals.count(rocprof_isa::InstClass::Barrier) > 0, "{t}: barriers are counted");
    }
}

/// Workgroups spread over host threads give the results and the record of one thread: block_sum (LDS
/// tree reduction with barriers, no atomics, no two workgroups touching one output) over 300 workgroups
/// on 1, 2 and 4 threads, each output checked against a host sum, and the records (per-workgroup counts,
/// bytes, totals) identical whatever the thread count.
#[test]
fn block_sum_on_one_and_several_threads_gives_the_same_results_and_record() {
    for t in ["gfx90a", "gfx1100"] {
        let groups = 300usize;
        let n = 256 * groups - 100;
        let input: Vec<f32> = (0..n).map(|i| ((i * 7) % 31) as f32 - 15.0).collect();
        let want: Vec<f32> = (0..groups).map(|g| input[g * 256..((g + 1) * 256).min(n)].iter().sum()).collect();
        let mut first: Option<rocprof_isa::DispatchRecord> = None;
        for threads in [1, 2, 4] {
            let k = load(&fixture(&format!("block_sum-{t}.co")), "block_sum");
            let (pin, pout) = (DATA, DATA + 0x10_0000);
            k.mem.map(pin, f32_bytes(&input));
            k.mem.map(pout, vec![0xff; 4 * groups]);
            let mut args = pin.to_le_bytes().to_vec();
            args.extend_from_slice(&pout.to_le_bytes());
            args.extend_from_slice(&(n as u32).to_le_bytes());
            let (grid, wg) = ([256 * groups as u32, 1, 1], [256, 1, 1]);
            let d = k.dispatch(grid, wg, 0, kernarg_v5(&args, grid, wg));
            let rec = k.run(&d, threads).unwrap_or_else(|e| panic!("{t} on {threads} threads: {e}"));
            let out = k.read_f32(pout, groups);
            for g in 0..groups {
                assert_eq!(out[g].to_bits(), want[g].to_bits(), "{t} on {threads} threads: out[{g}]");
            }
            assert_eq!(rec.workgroups.len(), groups, "{t}: one record per workgroup");
            assert!(rec.workgroups.windows(2).all(|w| w[0].workgroup + 1 == w[1].workgroup), "{t}: in order");
            assert!(rec.detailed.is_empty(), "{t}: no wave was asked for detail");
            match &first {
                None => first = Some(rec),
                Some(one) => assert_eq!(&rec, one, "{t}: the record on {threads} threads is the one of 1 thread"),
            }
        }
    }
}
