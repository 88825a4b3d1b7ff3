//! The memory a kernel sees, behind a trait the embedder implements (hsa-sim maps it onto its pool
//! allocations, kernarg, queues and loaded code objects; tests use [`VecMemory`]).
//!
//! Only global memory goes through the trait. LDS belongs to the workgroup and private (scratch) memory to
//! the wave; the interpreter owns both and routes flat addresses inside the [`SHARED_APERTURE`] and
//! [`PRIVATE_APERTURE`] to them, as the hardware's apertures do.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Base of the flat address range that maps LDS (`src_shared_base` is its high dword). The value is the
/// one ROCr programs on gfx9+ (outside any canonical x86-64 user address, so no host pointer collides).
pub const SHARED_APERTURE: u64 = 0x1_0000_0000_0000;
/// Base of the flat address range that maps the wave's private memory (`src_private_base`).
pub const PRIVATE_APERTURE: u64 = 0x2_0000_0000_0000;
/// Size of each aperture.
pub const APERTURE_SIZE: u64 = 1 << 32;
/// Base address of the private segment buffer resource the interpreter hands a gfx9 kernel in its user
/// SGPRs (`s[0:3]`, for MUBUF scratch). A buffer resource holds only 48 address bits, so it cannot name
/// [`PRIVATE_APERTURE`]; this base lies above every x86-64 user-space address (they end below 2^47), and
/// the [`APERTURE_SIZE`] bytes from it map the wave's private memory as the aperture does.
pub const PRIVATE_BUFFER_BASE: u64 = 0xffff_0000_0000;

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

/// A memory of a few regions stored as 64-bit atomic words: concurrent access from several interpreter
/// threads without locks (aligned 4- and 8-byte accesses are single relaxed loads/stores, atomics are
/// compare-and-swap loops). For tests, benchmarks and embedders that own the memory a kernel sees.
#[derive(Debug, Default)]
pub struct FlatMemory {
    regions: Vec<(u64, u64, Vec<AtomicU64>)>,
}

impl FlatMemory {
    /// An empty memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `data` at `addr` (8-byte aligned; the region is rounded up to whole words).
    pub fn map(&mut self, addr: u64, data: &[u8]) {
        assert_eq!(addr % 8, 0, "FlatMemory regions start 8-byte aligned");
        let words = data
            .chunks(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                AtomicU64::new(u64::from_le_bytes(b))
            })
            .collect();
        self.regions.push((addr, data.len() as u64, words));
    }

    /// A copy of `len` bytes at `addr`.
    pub fn get(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0; len];
        self.read(addr, &mut out).ok()?;
        Some(out)
    }

    #[inline]
    fn region(&self, addr: u64, len: usize, write: bool) -> Result<(&[AtomicU64], u64), Fault> {
        for (base, size, words) in &self.regions {
            if addr >= *base && addr - base + len as u64 <= *size {
                return Ok((words, addr - base));
            }
        }
        Err(Fault { addr, len: len as u32, write })
    }
}

impl Memory for FlatMemory {
    #[inline]
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        let (words, off) = self.region(addr, out.len(), false)?;
        let sh = (off % 8) * 8;
        if out.len() == 4 && off % 4 == 0 {
            let w = words[(off / 8) as usize].load(Ordering::Relaxed);
            out.copy_from_slice(&((w >> sh) as u32).to_le_bytes());
            return Ok(());
        }
        // Bytes up to the first word boundary, whole words (fixed-size copies, not a call each), the rest.
        let len = out.len();
        let head = (((8 - off % 8) % 8) as usize).min(len);
        let (first, rest) = out.split_at_mut(head);
        read_bytes(words, off, first);
        let mut body = rest.chunks_exact_mut(8);
        let at = ((off + head as u64) / 8) as usize;
        for (c, w) in (&mut body).zip(&words[at..]) {
            c.copy_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        let tail = body.into_remainder();
        let tail_at = off + (len - tail.len()) as u64;
        read_bytes(words, tail_at, tail);
        Ok(())
    }

    #[inline]
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        let (words, off) = self.region(addr, data.len(), true)?;
        if data.len() == 8 && off % 8 == 0 {
            words[(off / 8) as usize].store(u64::from_le_bytes(data.try_into().expect("8 bytes")), Ordering::Relaxed);
            return Ok(());
        }
        // Bytes up to the first word boundary, whole words, the rest.
        let head = (((8 - off % 8) % 8) as usize).min(data.len());
        let (first, rest) = data.split_at(head);
        write_bytes(words, off, first);
        let mut body = rest.chunks_exact(8);
        let at = ((off + head as u64) / 8) as usize;
        for (c, w) in (&mut body).zip(&words[at..]) {
            w.store(u64::from_le_bytes(c.try_into().expect("8 bytes")), Ordering::Relaxed);
        }
        let tail = body.remainder();
        write_bytes(words, off + (data.len() - tail.len()) as u64, tail);
        Ok(())
    }

    fn atomic(&self, addr: u64, size: u8, f: &mut dyn FnMut(u64) -> u64) -> Result<u64, Fault> {
        let (words, off) = self.region(addr, size as usize, true)?;
        if off % u64::from(size) != 0 {
            return Err(Fault { addr, len: u32::from(size), write: true });
        }
        let w = &words[(off / 8) as usize];
        let (sh, mask) = if size == 8 { (0, u64::MAX) } else { ((off % 8) * 8, 0xffff_ffffu64) };
        let mut old = w.load(Ordering::SeqCst);
        loop {
            let cur = (old >> sh) & mask;
            let new = (old & !(mask << sh)) | ((f(cur) & mask) << sh);
            match w.compare_exchange_weak(old, new, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return Ok(cur),
                Err(v) => old = v,
            }
        }
    }
}

/// Copies `out.len()` bytes at byte offset `off` of `words` (word by word, for the unaligned ends).
fn read_bytes(words: &[AtomicU64], off: u64, out: &mut [u8]) {
    let mut k = 0;
    while k < out.len() {
        let o = off + k as u64;
        let word = words[(o / 8) as usize].load(Ordering::Relaxed).to_le_bytes();
        let first = (o % 8) as usize;
        let n = (8 - first).min(out.len() - k);
        out[k..k + n].copy_from_slice(&word[first..first + n]);
        k += n;
    }
}

/// Stores `data` at byte offset `off` of `words`. Sub-word stores merge into their word with a CAS so
/// concurrent stores to neighbouring bytes of the same word (different lanes, different workgroups)
/// never lose each other.
fn write_bytes(words: &[AtomicU64], off: u64, data: &[u8]) {
    let mut k = 0;
    while k < data.len() {
        let o = off + k as u64;
        let w = &words[(o / 8) as usize];
        let first = (o % 8) as usize;
        let n = (8 - first).min(data.len() - k);
        if n == 8 {
            w.store(u64::from_le_bytes(data[k..k + 8].try_into().expect("8 bytes")), Ordering::Relaxed);
            k += 8;
            continue;
        }
        let mut mask = 0u64;
        let mut val = 0u64;
        for j in 0..n {
            mask |= 0xff << (8 * (first + j));
            val |= u64::from(data[k + j]) << (8 * (first + j));
        }
        let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| Some((old & !mask) | val));
        k += n;
    }
}
