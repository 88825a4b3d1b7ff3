//! Dispatch elision: a kernel dispatch that repeats an earlier one exactly reuses that run's results
//! instead of executing again (`ROCPROF_RS_SIM_ELIDE=off` executes every dispatch).
//!
//! AMD's `transpose` test launches the same 9920 x 9920 transpose 100 to 1000 times on unchanged
//! buffers; executing every launch costs about 3.8 CPU s each. Most of them are repeats whose result is
//! already in memory.
//!
//! # When a dispatch is elided
//!
//! A dispatch is a function of its inputs: the kernel's code and descriptor, the packet's grid,
//! workgroup and segment sizes, the initial registers (kernarg, dispatch and queue pointers, dispatch
//! id), the run options (cycle costs), the memory it reads, and the global wave sync (GWS) state. The
//! interpreter itself is deterministic: LDS and scratch start fresh for every workgroup and wave,
//! `s_memtime`/`s_memrealtime` return the wave's own modelled cycle (which starts at 0 in every
//! dispatch) and `s_getreg` of `HW_ID` its slot, and the record is the same on any number of host
//! threads (`block_sum_on_one_and_several_threads_gives_the_same_results_and_record` in rocprof-isa).
//! Races between workgroups are excluded below (no atomics; a kernel whose workgroups race through plain
//! loads and stores on the same bytes reads what it writes, which makes it in-place).
//!
//! The cache is keyed by queue, kernel object, descriptor bytes, grid, workgroup and segment sizes and
//! the run options. Every dispatch with elision on gets its kernarg segment and its packet copied into
//! buffers owned by the cache entry, at addresses stable for that key (the packet already was a copy:
//! `dispatch_ptr` never pointed into the ring), so two dispatches of one key see the same pointers in
//! their registers. The copy holds the descriptor's `kernarg_size` bytes, then zeros up to a multiple
//! of 64 plus 64 more (compilers widen scalar loads at the end; bytes past the segment are not the
//! dispatch's, and HIP may be writing its next launch's arguments there). When the kernel's code object
//! declares its arguments (the AMDGPU metadata note, `kernel_args.rs`), only the declared bytes —
//! explicit and hidden arguments alike — are copied and compared; the padding between and after them
//! stays zero in the copy. ROCclr (HIP 6.4) does not write that padding, so it holds whatever an earlier
//! launch left in that slot of its kernarg ring, different from launch to launch; code compiled with
//! that metadata does not depend on it (a widened load may read it, no result uses it), and with the
//! copy zeroed an executed and an elided dispatch see the very same segment. Kernels without
//! metadata (code object v2, hand-assembled ones) keep the whole segment.
//!
//! After a run that ended normally, the entry remembers the record and, per memory range of the
//! dispatch's memory map, the extent `[lo, hi)` of the bytes read and of the bytes written (the bulk
//! address check already finds the range of every access). The run is **repeatable** when:
//! - it made no atomic access (atomics make the result depend on the order of workgroups; hostcall and
//!   printf buffers are atomics too),
//! - it made no GWS operation (that state outlives the dispatch),
//! - its descriptor does not ask for the dispatch id (which differs for every dispatch),
//! - in every range its read extent and its write extent are disjoint (a kernel that reads what it or
//!   another workgroup writes — in-place kernels, scratch-like use of global memory — re-executes),
//! - no thread trace or PC sampling asked for per-wave detail (those need the waves themselves).
//!
//! Then the entry stores a 128-bit content hash of the read extents (`H_R`) and of the write extents
//! (`H_W`) as they are at the end of the run. A later dispatch of the same key is elided when its
//! kernarg bytes equal the copy's, every extent still lies in mapped memory, and, with its packet
//! written into the packet copy, the read extents hash to `H_R` and the write extents to `H_W`.
//!
//! **Why that is exact.** Because no read extent overlaps a write extent, the run did not change what
//! it read: the read extents at the end of the run held the run's inputs. Equal `H_R` now means the
//! same inputs (up to a hash collision, below), and with the same code, registers and options the
//! interpreter would take the same path: every load reads the same address (its address was computed
//! from the same values) inside the read extents and returns the same bytes, so every store writes the
//! same bytes at the same addresses, all inside the write extents, and the record is the same. Memory
//! after that re-execution: the written bytes hold what the earlier run wrote there, the others are
//! untouched. Equal `H_W` says the write extents hold exactly what they held at the end of the earlier
//! run, written bytes included, so memory already is what re-execution would leave. The record is
//! reused as is, so timestamps advance by the same modelled duration and counters are identical.
//!
//! **Collisions.** The hash keeps four 64-bit lanes; each step `lane = rotl((lane ^ word) * odd, 29)`
//! is a bijection of the lane for a fixed word, so inputs that differ in one 8-byte word (or in words
//! of one lane) always end in different lane states; the final 256 -> 128-bit mix makes a collision of
//! other differences about 2^-128 likely. Hashing runs at memory speed over the extents, split over the
//! dispatch's host threads.
//!
//! Writes the simulator cannot see are not a concern: the check hashes memory as it is, so host
//! stores, `hsa_amd_memory_async_copy`, fills and other kernels' stores are all covered alike.
//!
//! **Skipping the hash.** Hashing is bandwidth-bound (AMD's transpose: 786 MB per launch, more than
//! the rest of an elided launch). Each extent is hashed on its own; from a key's second reuse on, an
//! extent is write-protected (`write_watch.rs`: the kernel's page tables, userfaultfd asynchronous
//! write protection) *before* it is hashed, and later checks skip the hash while the protection says
//! no page of it was written, dropped, remapped or shared since. Protection before hashing makes this
//! exact: a write after the protection marks its page, a write before it is in the hash. Where the
//! protection is unavailable or says "written", the extent is hashed as before (and protected again).

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rocprof_device::run::{Memo, STATS};
use rocprof_isa::{Costs, DispatchRecord};

use crate::write_watch;

/// At most this many keys are remembered (least recently used goes first).
const MAX_ENTRIES: usize = 16;

/// Zero bytes after the kernarg copy's rounded size.
const KERNARG_SLACK: usize = 64;

/// Why a dispatch of a known key was executed instead of elided (counted in the statistics file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Miss {
    /// No earlier run of the key ended normally (the first dispatch, or the last one stopped).
    First,
    /// The earlier run made atomic or GWS accesses.
    NotRepeatable,
    /// The earlier run read bytes it or another workgroup wrote (an in-place kernel).
    InPlace,
    /// The kernarg bytes differ from the earlier run's.
    Kernarg,
    /// What the earlier run read or wrote has changed since (or is no longer mapped).
    Memory,
}

/// What makes two dispatches the same, besides their memory.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Key {
    pub(crate) queue: u64,
    pub(crate) kernel_object: u64,
    pub(crate) descriptor: [u8; 64],
    /// Grid (3), workgroup (3), private and group segment sizes.
    pub(crate) dims: [u32; 8],
    pub(crate) costs: Costs,
    pub(crate) max_wave_instructions: u64,
    pub(crate) threads: usize,
}

/// A byte range a finished run read or wrote, the hash of its bytes as the run left them, and the
/// write protection that can vouch they are still those bytes (`write_watch.rs`).
struct Extent {
    lo: u64,
    hi: u64,
    hash: u128,
    watch: Option<u64>,
}

/// A finished repeatable run.
struct Done {
    rec: Arc<DispatchRecord>,
    /// The device model's finished model of `rec`, once built (`rocprof_device::run::Memo`): its
    /// repeats take the model from here.
    memo: Memo,
    /// Its read extents, then its write extents.
    extents: Vec<Extent>,
    /// How often it was reused so far.
    reused: u64,
}

impl Drop for Done {
    fn drop(&mut self) {
        for t in self.extents.iter().filter_map(|x| x.watch) {
            write_watch::release(t);
        }
    }
}

/// The stable buffers of one key and its last repeatable run.
pub(crate) struct Entry {
    /// The kernarg copy (16-byte aligned) and its length in bytes.
    kernarg: Box<[u128]>,
    kernarg_len: usize,
    /// The byte ranges of the kernarg segment its code object's metadata declares (`kernel_args.rs`);
    /// only these are compared and copied, the rest of the copy stays zero. `None`: the whole segment.
    declared: Option<crate::kernel_args::Ranges>,
    /// The packet copy the kernel's `dispatch_ptr` points at.
    packet: Box<[u64; 8]>,
    done: Option<Done>,
    /// Why `done` is empty.
    last_miss: Miss,
}

impl Entry {
    /// Address of the kernarg copy.
    pub(crate) fn kernarg_addr(&self) -> u64 {
        self.kernarg.as_ptr() as u64
    }

    /// Address of the packet copy.
    pub(crate) fn packet_addr(&self) -> u64 {
        self.packet.as_ptr() as u64
    }

    /// Length of the kernarg copy.
    pub(crate) fn kernarg_len(&self) -> usize {
        self.kernarg_len
    }

    /// The ranges of both copies (added to the dispatch's memory map).
    pub(crate) fn ranges(&self) -> [(u64, u64); 2] {
        [
            (self.kernarg_addr(), self.kernarg_addr() + self.kernarg_len as u64),
            (self.packet_addr(), self.packet_addr() + 64),
        ]
    }

    fn kernarg_bytes(&mut self) -> &mut [u8] {
        // SAFETY: the boxed slice holds at least `kernarg_len` bytes (sized in `entry`); u8 has no
        // alignment or validity requirement.
        unsafe { std::slice::from_raw_parts_mut(self.kernarg.as_mut_ptr().cast::<u8>(), self.kernarg_len) }
    }

    /// `kernarg` with every byte outside the declared ranges zeroed (as is without metadata).
    fn declared_bytes<'a>(&self, kernarg: &'a [u8]) -> Cow<'a, [u8]> {
        let Some(ranges) = &self.declared else { return Cow::Borrowed(kernarg) };
        let mut out = vec![0u8; kernarg.len()];
        for &(s, e) in ranges.iter() {
            let (s, e) = ((s as usize).min(kernarg.len()), (e as usize).min(kernarg.len()));
            out[s..e].copy_from_slice(&kernarg[s..e]);
        }
        Cow::Owned(out)
    }

    /// Puts the dispatch's declared kernarg bytes and packet (its kernarg address already pointing at
    /// the copy) into the copies.
    pub(crate) fn load(&mut self, kernarg: &[u8], packet: &[u8; 64]) {
        let kernarg = self.declared_bytes(kernarg);
        // Unchanged bytes are not stored again (a store would mark a watched page written).
        if *self.kernarg_bytes() != *kernarg {
            self.kernarg_bytes().copy_from_slice(&kernarg);
        }
        for (w, b) in self.packet.iter_mut().zip(packet.chunks_exact(8)) {
            let v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
            if *w != v {
                *w = v;
            }
        }
    }

    /// The earlier run's record and its memo when this dispatch (`kernarg` bytes, `packet`) repeats it
    /// exactly (see the module comment); `mapped` says whether `[start, end)` lies in the dispatch's
    /// memory map. Leaves the copies holding this dispatch's kernarg and packet either way.
    pub(crate) fn reuse(
        &mut self,
        kernarg: &[u8],
        packet: &[u8; 64],
        mapped: &dyn Fn(u64, u64) -> bool,
        threads: usize,
    ) -> Result<(Arc<DispatchRecord>, Memo), Miss> {
        let kernarg = self.declared_bytes(kernarg);
        let same_kernarg = *self.kernarg_bytes() == *kernarg;
        self.load(&kernarg, packet);
        let last_miss = self.last_miss;
        let d = self.done.as_mut().ok_or(last_miss)?;
        if !same_kernarg {
            return Err(Miss::Kernarg);
        }
        if !d.extents.iter().all(|x| mapped(x.lo, x.hi)) {
            return Err(Miss::Memory);
        }
        // From the second reuse on, extents are write-protected before they are hashed, so that the
        // next check needs no hash while nothing writes them (a key reused once likely repeats).
        let watch = d.reused > 0;
        for x in &mut d.extents {
            if let Some(t) = x.watch.take() {
                if write_watch::unchanged(x.lo, x.hi, t) {
                    x.watch = Some(t);
                    STATS.elision_extents_unwritten.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
            }
            if watch {
                x.watch = write_watch::protect(x.lo, x.hi);
            }
            STATS.elision_hashed_bytes.fetch_add(x.hi - x.lo, Ordering::Relaxed);
            // SAFETY: every extent lies in memory mapped for the dispatch (checked above).
            if unsafe { hash_ranges(&[(x.lo, x.hi)], threads) } != x.hash {
                return Err(Miss::Memory);
            }
        }
        d.reused += 1;
        Ok((d.rec.clone(), d.memo.clone()))
    }

    /// Forgets the last run (a dispatch of this key stopped half-way).
    pub(crate) fn clear(&mut self) {
        self.done = None;
        self.last_miss = Miss::First;
    }

    /// Records a run that ended normally: `repeatable` as the module comment defines it, given
    /// the per-range extents read and written. The memo where the device model keeps the model of
    /// `rec` for its repeats, when the run is remembered.
    pub(crate) fn remember(
        &mut self,
        rec: &Arc<DispatchRecord>,
        repeatable: bool,
        reads: Vec<(u64, u64)>,
        writes: Vec<(u64, u64)>,
        threads: usize,
    ) -> Option<Memo> {
        self.done = None;
        if !repeatable {
            self.last_miss = Miss::NotRepeatable;
            return None;
        }
        if overlap(&reads, &writes) {
            self.last_miss = Miss::InPlace;
            return None;
        }
        let extents = reads
            .into_iter()
            .chain(writes)
            .map(|(lo, hi)| {
                STATS.elision_hashed_bytes.fetch_add(hi - lo, Ordering::Relaxed);
                // SAFETY: the extents are bytes this dispatch just accessed through its memory map,
                // which is still mapped (nothing is unmapped while the queue's packet processor runs
                // the dispatch).
                let hash = unsafe { hash_ranges(&[(lo, hi)], threads) };
                Extent { lo, hi, hash, watch: None }
            })
            .collect();
        let memo = Memo::default();
        self.done = Some(Done { rec: rec.clone(), memo: memo.clone(), extents, reused: 0 });
        Some(memo)
    }
}

/// Whether any read extent intersects any write extent.
fn overlap(reads: &[(u64, u64)], writes: &[(u64, u64)]) -> bool {
    reads.iter().any(|&(rs, re)| writes.iter().any(|&(ws, we)| rs < we && ws < re))
}

type Slot = (Key, Arc<Mutex<Entry>>);

static CACHE: Mutex<Vec<Slot>> = Mutex::new(Vec::new());

fn cache() -> MutexGuard<'static, Vec<Slot>> {
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The entry of `key` (created empty, with a kernarg copy of `kernarg_size` rounded up to 64 plus the
/// slack, and the kernel's declared argument ranges), most recently used.
pub(crate) fn entry(key: &Key, kernarg_size: u32) -> Arc<Mutex<Entry>> {
    // Before anything of a kernel is remembered: destroying its executable forgets it.
    crate::code_object::on_kernel_destroyed(forget_kernel);
    let most_recent = |c: &mut Vec<Slot>| {
        let i = c.iter().position(|(k, _)| k == key)?;
        let slot = c.remove(i);
        let e = slot.1.clone();
        c.push(slot);
        Some(e)
    };
    if let Some(e) = most_recent(&mut cache()) {
        return e;
    }
    // Looked up without holding the cache (it reads the executables, whose destruction calls
    // `forget_kernel`).
    let declared = crate::kernel_args::declared(key.kernel_object, kernarg_size);
    let mut c = cache();
    if let Some(e) = most_recent(&mut c) {
        return e;
    }
    if c.len() >= MAX_ENTRIES {
        c.remove(0);
    }
    let len = (kernarg_size as usize).div_ceil(64) * 64 + KERNARG_SLACK;
    let e = Arc::new(Mutex::new(Entry {
        kernarg: vec![0u128; len / 16].into_boxed_slice(),
        kernarg_len: len,
        declared,
        packet: Box::new([0; 8]),
        done: None,
        last_miss: Miss::First,
    }));
    c.push((key.clone(), e.clone()));
    e
}

/// Forgets every entry of `kernel_object` (its executable is destroyed: another kernel may load there;
/// `code_object` calls it through [`crate::code_object::on_kernel_destroyed`]).
pub(crate) fn forget_kernel(kernel_object: u64) {
    cache().retain(|(k, _)| k.kernel_object != kernel_object);
    crate::kernel_args::forget(kernel_object);
}

/// Whether anything of `kernel_object` is remembered: an elision entry or its argument layout.
#[cfg(test)]
pub(crate) fn remembers(kernel_object: u64) -> bool {
    cache().iter().any(|(k, _)| k.kernel_object == kernel_object) || crate::kernel_args::remembers(kernel_object)
}

/// Bytes per piece hashed by one thread at a time.
const PIECE: u64 = 4 << 20;

const SEEDS: [u64; 4] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9, 0x27d4_eb2f_1656_67c5];
/// Odd multiplier of the lane step.
const MUL: u64 = 0xff51_afd7_ed55_8ccd;

/// murmur3's 64-bit finaliser.
fn fmix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The four lanes of the hash.
struct Lanes([u64; 4]);

impl Lanes {
    fn new(seed: u64) -> Self {
        Lanes(SEEDS.map(|s| s ^ seed))
    }

    #[inline(always)]
    fn block(&mut self, w: [u64; 4]) {
        for (l, w) in self.0.iter_mut().zip(w) {
            *l = (*l ^ w).wrapping_mul(MUL).rotate_left(29);
        }
    }

    fn finish(&self, len: u64) -> u128 {
        let [a, b, c, d] = self.0;
        let lo = fmix(a ^ b.rotate_left(17) ^ fmix(len));
        let hi = fmix(c ^ d.rotate_left(41) ^ lo.rotate_left(7) ^ fmix(a.wrapping_add(d)));
        let lo = fmix(lo ^ hi.rotate_left(23) ^ b ^ c.rotate_left(11));
        (u128::from(hi) << 64) | u128::from(lo)
    }
}

/// The 128-bit hash of `len` bytes at `ptr`.
///
/// # Safety
/// `[ptr, ptr + len)` must be readable.
unsafe fn hash_bytes(ptr: *const u8, len: usize, seed: u64) -> u128 {
    let mut l = Lanes::new(seed);
    let blocks = len / 32;
    for b in 0..blocks {
        // SAFETY: 32 bytes at offset b * 32 < len are readable (caller); unaligned reads.
        let w = unsafe {
            let p = ptr.add(b * 32).cast::<u64>();
            [p.read_unaligned(), p.add(1).read_unaligned(), p.add(2).read_unaligned(), p.add(3).read_unaligned()]
        };
        l.block(w.map(u64::from_le));
    }
    let tail = len - blocks * 32;
    if tail > 0 {
        let mut t = [0u8; 32];
        // SAFETY: the last `tail` bytes are readable (caller).
        unsafe { std::ptr::copy_nonoverlapping(ptr.add(blocks * 32), t.as_mut_ptr(), tail) };
        let w: [u64; 4] = std::array::from_fn(|i| u64::from_le_bytes(t[i * 8..i * 8 + 8].try_into().expect("8")));
        l.block(w);
    }
    l.finish(len as u64)
}

/// The hash of the bytes of `ranges` (and of the ranges themselves), pieces hashed on up to `threads`
/// host threads.
///
/// # Safety
/// Every range must be readable memory.
pub(crate) unsafe fn hash_ranges(ranges: &[(u64, u64)], threads: usize) -> u128 {
    let pieces: Vec<(u64, u64)> = ranges
        .iter()
        .flat_map(|&(s, e)| (s..e).step_by(PIECE as usize).map(move |p| (p, (p + PIECE).min(e))))
        .collect();
    let digests: Vec<AtomicU128Slot> = pieces.iter().map(|_| AtomicU128Slot::default()).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(s, e)) = pieces.get(i) else { break };
        // SAFETY: a piece of a readable range (caller).
        let h = unsafe { hash_bytes(s as *const u8, (e - s) as usize, i as u64) };
        digests[i].set(h);
    };
    let total: u64 = pieces.iter().map(|&(s, e)| e - s).sum();
    let helpers = threads.min(pieces.len()).saturating_sub(1);
    if helpers == 0 || total < 2 * PIECE {
        work();
    } else {
        std::thread::scope(|sc| {
            for _ in 0..helpers {
                sc.spawn(work);
            }
            work();
        });
    }
    let mut l = Lanes::new(0x6a09_e667_f3bc_c908);
    for (&(s, e), d) in pieces.iter().zip(&digests) {
        let h = d.get();
        l.block([s, e, h as u64, (h >> 64) as u64]);
    }
    l.finish(pieces.len() as u64)
}

/// A digest written by one worker and read after the scope joined.
#[derive(Default)]
struct AtomicU128Slot([std::sync::atomic::AtomicU64; 2]);

impl AtomicU128Slot {
    fn set(&self, h: u128) {
        self.0[0].store(h as u64, Ordering::Relaxed);
        self.0[1].store((h >> 64) as u64, Ordering::Relaxed);
    }

    fn get(&self) -> u128 {
        u128::from(self.0[0].load(Ordering::Relaxed)) | (u128::from(self.0[1].load(Ordering::Relaxed)) << 64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(b: &[u8]) -> u128 {
        // SAFETY: a live slice.
        unsafe { hash_ranges(&[(b.as_ptr() as u64, b.as_ptr() as u64 + b.len() as u64)], 2) }
    }

    /// Each way a known dispatch can miss elision is named: no earlier run, an earlier run with atomics,
    /// an in-place run, other kernarg bytes, changed memory; an exact repeat is reused.
    #[test]
    fn a_dispatch_that_is_not_elided_says_why() {
        let mut input = vec![1u8; 256];
        let output = vec![0u8; 256];
        let span = |b: &[u8]| (b.as_ptr() as u64, b.as_ptr() as u64 + b.len() as u64);
        let mapped = |_: u64, _: u64| true;
        let rec = Arc::new(DispatchRecord::default());
        let (ka, pkt) = ([7u8; 128], [0u8; 64]);
        let reuse = |e: &mut Entry, ka: &[u8]| e.reuse(ka, &pkt, &mapped, 1).map(|(r, _)| r);
        let mut e = Entry {
            kernarg: vec![0u128; 8].into_boxed_slice(),
            kernarg_len: 128,
            declared: None,
            packet: Box::new([0; 8]),
            done: None,
            last_miss: Miss::First,
        };
        assert_eq!(reuse(&mut e, &ka), Err(Miss::First));
        e.remember(&rec, false, vec![span(&input)], vec![span(&output)], 1);
        assert_eq!(reuse(&mut e, &ka), Err(Miss::NotRepeatable));
        e.remember(&rec, true, vec![span(&input)], vec![span(&input[128..])], 1);
        assert_eq!(reuse(&mut e, &ka), Err(Miss::InPlace));
        e.remember(&rec, true, vec![span(&input)], vec![span(&output)], 1);
        assert_eq!(reuse(&mut e, &ka), Ok(rec.clone()));
        let mut kb = ka;
        kb[100] = 8;
        assert_eq!(reuse(&mut e, &kb), Err(Miss::Kernarg));
        assert_eq!(reuse(&mut e, &kb), Ok(rec.clone()));
        input[3] = 9;
        assert_eq!(reuse(&mut e, &kb), Err(Miss::Memory));
        e.clear();
        assert_eq!(reuse(&mut e, &kb), Err(Miss::First));
    }

    /// Any single changed byte, at any offset of a buffer spanning several pieces and a ragged tail,
    /// changes the hash; the same bytes give the same hash on 1 and several threads.
    #[test]
    fn a_changed_byte_anywhere_changes_the_hash_and_threads_do_not() {
        let mut v: Vec<u8> = (0..(2 * PIECE as usize + 77)).map(|i| (i * 7 + i / 251) as u8).collect();
        let base = h(&v);
        // SAFETY: a live vector.
        let one = unsafe { hash_ranges(&[(v.as_ptr() as u64, v.as_ptr() as u64 + v.len() as u64)], 1) };
        assert_eq!(base, one);
        for off in [0, 1, 31, 32, 4095, PIECE as usize - 1, PIECE as usize, 2 * PIECE as usize + 76] {
            v[off] ^= 0x40;
            assert_ne!(h(&v), base, "byte {off}");
            v[off] ^= 0x40;
        }
        assert_eq!(h(&v), base);
        // Two swapped words (same multiset of words) still differ.
        v.swap(0, 8);
        assert_ne!(h(&v), base);
    }

    /// With declared ranges, a change in the padding still repeats (and the copy holds zeros there);
    /// a change in a declared byte, also a hidden argument's, misses on the kernarg.
    #[test]
    fn only_declared_kernarg_bytes_are_compared_and_copied() {
        let input = vec![1u8; 64];
        let output = vec![0u8; 64];
        let span = |b: &[u8]| (b.as_ptr() as u64, b.as_ptr() as u64 + b.len() as u64);
        let mapped = |_: u64, _: u64| true;
        let rec = Arc::new(DispatchRecord::default());
        let pkt = [0u8; 64];
        let reuse = |e: &mut Entry, ka: &[u8]| e.reuse(ka, &pkt, &mapped, 1).map(|(r, _)| r);
        let mut e = Entry {
            kernarg: vec![0u128; 8].into_boxed_slice(),
            kernarg_len: 128,
            declared: Some(Arc::from(vec![(0u32, 28u32), (32, 56), (96, 98)])),
            packet: Box::new([0; 8]),
            done: None,
            last_miss: Miss::First,
        };
        let mut ka = [0xa5u8; 128];
        assert_eq!(reuse(&mut e, &ka), Err(Miss::First));
        let copy = e.kernarg_bytes().to_vec();
        assert!(copy[..28].iter().chain(&copy[32..56]).chain(&copy[96..98]).all(|&b| b == 0xa5));
        assert!(copy[28..32].iter().chain(&copy[56..96]).chain(&copy[98..]).all(|&b| b == 0));
        e.remember(&rec, true, vec![span(&input)], vec![span(&output)], 1);
        for stale in [28, 31, 56, 60, 95, 98, 127] {
            ka[stale] ^= 0x3c;
            assert_eq!(reuse(&mut e, &ka), Ok(rec.clone()), "padding byte {stale}");
        }
        for declared in [0, 27, 32, 55, 96, 97] {
            ka[declared] ^= 0x3c;
            assert_eq!(reuse(&mut e, &ka), Err(Miss::Kernarg), "declared byte {declared}");
            assert_eq!(reuse(&mut e, &ka), Ok(rec.clone()));
        }
    }

    #[test]
    fn overlapping_extents_are_found() {
        assert!(!overlap(&[(0, 10)], &[(10, 20)]));
        assert!(overlap(&[(0, 11)], &[(10, 20)]));
        assert!(overlap(&[(30, 40), (12, 13)], &[(10, 20)]));
    }
}
