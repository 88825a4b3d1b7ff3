//! Loading a code object into a [`VecMemory`], filling kernel arguments and running a dispatch.

use std::path::PathBuf;

use rocprof_isa::{
    run, CodeObject, Dispatch, DispatchError, DispatchRecord, KernelDescriptor, RunOptions, Target, VecMemory,
};

pub(crate) const CODE: u64 = 0x1000_0000;
pub(crate) const KERNARG: u64 = 0x3000_0000;
pub(crate) const PACKET: u64 = 0x4000_0000;
pub(crate) const DATA: u64 = 0x5000_0000;

pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn fixture(name: &str) -> Vec<u8> {
    let p = repo().join("fixtures/kernels").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A loaded kernel ready to dispatch.
pub(crate) struct Kernel {
    pub(crate) mem: VecMemory,
    pub(crate) target: &'static Target,
    pub(crate) kd_addr: u64,
    pub(crate) kd: KernelDescriptor,
}

pub(crate) fn load(co: &[u8], kernel: &str) -> Kernel {
    let obj = CodeObject::parse(co).expect("code object parses");
    let target = obj.target.expect("known target");
    let kd_off = obj.kernel_descriptor(kernel).expect("kernel descriptor symbol");
    let mem = VecMemory::new();
    let kd_bytes: [u8; 64] = obj.image[kd_off as usize..kd_off as usize + 64].try_into().unwrap();
    mem.map(CODE, obj.image);
    Kernel { mem, target, kd_addr: CODE + kd_off, kd: KernelDescriptor::parse(&kd_bytes) }
}

/// The AQL dispatch packet bytes for a dispatch.
pub(crate) fn packet(grid: [u32; 3], wg: [u32; 3], group: u32, kernarg: u64, kd: u64) -> Vec<u8> {
    let mut p = vec![0u8; 64];
    let dims = if grid[2] > 1 {
        3u16
    } else if grid[1] > 1 {
        2
    } else {
        1
    };
    p[2..4].copy_from_slice(&dims.to_le_bytes());
    for k in 0..3 {
        p[4 + 2 * k..6 + 2 * k].copy_from_slice(&(wg[k] as u16).to_le_bytes());
        p[12 + 4 * k..16 + 4 * k].copy_from_slice(&grid[k].to_le_bytes());
    }
    p[28..32].copy_from_slice(&group.to_le_bytes());
    p[32..40].copy_from_slice(&kd.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

/// Explicit arguments followed by code object v5 hidden arguments (block counts, group sizes,
/// remainders, grid dims) at the explicit size rounded up to 8, as HIP's runtime fills them.
pub(crate) fn kernarg_v5(explicit: &[u8], grid: [u32; 3], wg: [u32; 3]) -> Vec<u8> {
    let mut k = explicit.to_vec();
    k.resize(explicit.len().div_ceil(8) * 8, 0);
    let h = k.len();
    k.resize(h + 256, 0);
    for d in 0..3 {
        let blocks = grid[d] / wg[d];
        k[h + 4 * d..h + 4 * d + 4].copy_from_slice(&blocks.to_le_bytes());
        k[h + 12 + 2 * d..h + 14 + 2 * d].copy_from_slice(&(wg[d] as u16).to_le_bytes());
        k[h + 18 + 2 * d..h + 20 + 2 * d].copy_from_slice(&((grid[d] % wg[d]) as u16).to_le_bytes());
    }
    let dims: u16 = if grid[2] > 1 {
        3
    } else if grid[1] > 1 {
        2
    } else {
        1
    };
    k[h + 64..h + 66].copy_from_slice(&dims.to_le_bytes());
    k
}

impl Kernel {
    pub(crate) fn dispatch(&self, grid: [u32; 3], wg: [u32; 3], group: u32, kernarg: Vec<u8>) -> Dispatch {
        self.mem.map(PACKET, packet(grid, wg, group, KERNARG, self.kd_addr));
        self.mem.map(KERNARG, kernarg);
        Dispatch {
            target: self.target,
            kernel_object: self.kd_addr,
            descriptor: self.kd,
            grid,
            workgroup: wg,
            group_segment_size: group.max(self.kd.group_segment_fixed_size),
            private_segment_size: self.kd.private_segment_fixed_size,
            kernarg: KERNARG,
            dispatch_ptr: PACKET,
            queue_ptr: 0,
            dispatch_id: 0,
        }
    }

    pub(crate) fn run(&self, d: &Dispatch, threads: usize) -> Result<DispatchRecord, DispatchError> {
        run(d, &self.mem, &RunOptions { threads, ..RunOptions::default() })
    }

    pub(crate) fn read_f32(&self, addr: u64, n: usize) -> Vec<f32> {
        let b = self.mem.get(addr, 4 * n).expect("mapped");
        b.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    pub(crate) fn read_u32(&self, addr: u64, n: usize) -> Vec<u32> {
        let b = self.mem.get(addr, 4 * n).expect("mapped");
        b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    }
}

pub(crate) fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
