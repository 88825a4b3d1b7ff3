//! The memory a kernel sees, behind a trait the embedder implements (hsa-sim maps it onto its pool
//! allocations, kernarg, queues and loaded code objects; tests use [`VecMemory`]).
//!
//! Only global memory goes through the trait. LDS belongs to the workgroup and private (scratch) memory to
//! the wave; the interpreter owns both and routes flat addresses inside the [`SHARED_APERTURE`] and
//! [`PRIVATE_APERTURE`] to them, as the hardware's apertures do.

use std::sync::Mutex;

/// Base of the flat address range that maps LDS (`src_shared_base` is its high dword). The value is the
/// one ROCr programs on gfx9+ (outside any canonical x86-64 user address, so no host pointer collides).
pub const SHARED_APERTURE: u64 = 0x1_0000_0000_0000;
/// Base of the flat address range that maps the wave's private memory (`src_private_base`).
pub const PRIVATE_APERTURE: u64 = 0x2_0000_0000_0000;
/// Size of each aperture.
pub const APERTURE_SIZE: u64 = 1 << 32;

/// A failed access: the address range is not mapped for the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// First byte of the access.
    pub addr: u64,
    /// Bytes accessed.
    pub len: u32,
    /// It was a write.
    pub write: bool,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.write { "write" } else { "read" };
        write!(f, "{what} of {} bytes at {:#x} outside mapped memory", self.len, self.addr)
    }
}

/// Global memory as a kernel sees it. Implementations must be callable from several threads at once
/// (workgroups run in parallel) and must make [`Memory::atomic`] really atomic.
pub trait Memory: Sync {
    /// Reads `out.len()` bytes at `addr`.
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault>;
    /// Writes `data` at `addr`.
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), Fault>;
    /// Atomically replaces the `size`-byte (4 or 8) little-endian value at `addr` with `f(old)` and returns
    /// `old`. `f` may be called more than once (compare-and-swap loops).
    fn atomic(&self, addr: u64, size: u8, f: &mut dyn FnMut(u64) -> u64) -> Result<u64, Fault>;
}

/// A memory of a few regions backed by vectors: for tests and small embedders. Atomics take a lock.
#[derive(Debug, Default)]
pub struct VecMemory {
    regions: Mutex<Vec<(u64, Vec<u8>)>>,
}

impl VecMemory {
    /// An empty memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `data` at `addr`.
    pub fn map(&self, addr: u64, data: Vec<u8>) {
        self.regions.lock().unwrap_or_else(|e| e.into_inner()).push((addr, data));
    }

    /// A copy of `len` bytes at `addr`.
    pub fn get(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0; len];
        self.read(addr, &mut out).ok()?;
        Some(out)
    }

    fn with<R>(&self, addr: u64, len: usize, write: bool, f: impl FnOnce(&mut [u8]) -> R) -> Result<R, Fault> {
        let mut regions = self.regions.lock().unwrap_or_else(|e| e.into_inner());
        for (base, data) in regions.iter_mut() {
            if addr >= *base && addr - *base + len as u64 <= data.len() as u64 {
                let off = (addr - *base) as usize;
                return Ok(f(&mut data[off..off + len]));
            }
        }
        Err(Fault { addr, len: len as u32, write })
    }
}

impl Memory for VecMemory {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.with(addr, out.len(), false, |d| out.copy_from_slice(d))
    }

    fn write(&self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        self.with(addr, data.len(), true, |d| d.copy_from_slice(data))
    }

    fn atomic(&self, addr: u64, size: u8, f: &mut dyn FnMut(u64) -> u64) -> Result<u64, Fault> {
        self.with(addr, size as usize, true, |d| {
            let mut b = [0u8; 8];
            b[..d.len()].copy_from_slice(d);
            let old = u64::from_le_bytes(b);
            let new = f(old).to_le_bytes();
            let n = d.len();
            d.copy_from_slice(&new[..n]);
            old
        })
    }
}
