//! The capture file, written in place through a `MAP_SHARED` mapping.
//!
//! Design (and why): every producer thread owns a *chunk* of the file and appends records to it;
//! a record is committed by storing its commit word last, with release ordering
//! (`rocprof_model::capture`). Because the mapping is shared with the page cache, a committed
//! record is in the file the moment it is written: it survives `_exit`, a `SIGSEGV` or a kill
//! without any signal handler or flush. The rejected alternative, in-memory rings drained by a
//! writer thread, loses whatever the writer has not drained yet when the process dies.
//!
//! Claiming a chunk is one compare-and-swap on `next_chunk` against `ready_chunks`, the number of
//! chunks the file has already been extended to cover. Only the space thread extends the file
//! (`fallocate`, never shrinking), ahead of demand, so while chunks are free producers never make
//! a system call or take a lock. The whole possible file is mapped once, up front, so no producer
//! ever remaps.
//!
//! When no ready chunk is left (the space thread is behind, as on a loaded machine) the buffer
//! policy decides ([`BufferPolicy`]): by default (lossless) the producer wakes the space thread
//! and waits for it, spinning briefly and then sleeping on a futex the space thread wakes after
//! each extension; the wait is timed and charged to the chunk the thread gets (the chunk header's
//! stall fields). With `drop` the record is dropped and counted ([`LossReason::WriterBehind`]).
//! A wait that cannot end well is never started, and one in progress is released: when the file
//! cannot grow (full disk, or the size limit: [`LossReason::ChunkPoolEmpty`]), when the space
//! thread is not running (never started, stopped at exit, or gone), on the space thread itself,
//! and for a record made while its own thread is already waiting (a signal handler that
//! interrupted the wait): those records are dropped and counted instead. A futex wait is
//! async-signal-safe, and the space thread takes no lock and calls nothing but the kernel, so
//! a producer's wait depends on nothing the producer might hold.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;
use std::thread::Thread;
use std::time::Duration;

use rocprof_model::capture::{self, header, FixedRecord, HeaderInfo, RecordKind, CHUNK_HEADER_SIZE, FRAME_SIZE};
use rocprof_model::{BufferPolicy, LossReason};

use crate::thread::ThreadSink;

/// Bytes per chunk.
pub const CHUNK_SIZE: usize = 256 * 1024;
/// Most chunks one capture can have (256 GiB of records: in practice the disk is the limit); the
/// mapping reserves this much address space, not memory.
pub const MAX_CHUNKS: u64 = 1024 * 1024;
/// How far ahead of the current record [`Sink::reserve`] prefetches (four cache lines).
const PREFETCH_AHEAD: usize = 256;
/// `madvise` advice that populates page tables writable (Linux 5.14+; not in every libc crate).
const MADV_POPULATE_WRITE: libc::c_int = 23;
/// The writer extends the file when fewer than this many chunks are ready. 16 MiB: at the
/// several hundred MB/s a thread writing API records produces, the writer thread may be scheduled
/// tens of milliseconds late on a loaded machine without producers running out.
const LOW_WATER: u64 = 64;
/// ... by this many, or up to [`EXTEND_MAX`] after producers had to wait (doubling each time).
const EXTEND_BY: u64 = 64;
/// Most chunks one extension adds, and most headroom (128 MiB each: a process that had to wait
/// may end with up to 256 MiB of the file allocated but unused).
const EXTEND_MAX: u64 = 512;
/// Chunks the space thread populates at a time (4 MiB).
const POPULATE_PIECE_CHUNKS: u64 = 16;
/// Rounds a producer spins (re-reading `ready_chunks`) before it sleeps on the futex.
const SPIN: u32 = 200;
/// Longest single futex sleep; the producer then re-checks that waiting still makes sense.
const WAIT_SLICE: Duration = Duration::from_millis(50);
/// Chunks the file starts with (6 MiB: a short run needs no extension at all).
const INITIAL_CHUNKS: u64 = 24;
/// Full chunks waiting for the writer thread to release their pages, at most (beyond that a
/// producer releases its chunk itself).
const RELEASE_QUEUE: usize = 1024;

/// The calling thread's part of the sink.
#[inline]
fn local() -> Option<&'static ThreadSink> {
    crate::thread::current().map(|t| &t.sink)
}

/// `CLOCK_MONOTONIC`, ns (vDSO; async-signal-safe).
fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Sleeps while `word` holds `expected`, at most `timeout` (spurious wake-ups are fine: callers
/// re-check).
fn futex_wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as _ };
    // SAFETY: `word` is a live, aligned u32 for the duration of the call; a private futex in our
    // own address space.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            &ts as *const libc::timespec,
        )
    };
}

/// Wakes every thread sleeping on `word`.
fn futex_wake_all(word: &AtomicU32) {
    // SAFETY: as in `futex_wait`.
    unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, i32::MAX) };
}

/// The space thread's state ([`Sink::space`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Space {
    /// Not started: nobody extends the file, so nobody may wait for it.
    NotStarted = 0,
    /// Running: a producer may wait for it.
    Running = 1,
    /// Stopped (exit) or gone: waiters are released and records that find no chunk are dropped.
    Gone = 2,
}

/// The calling thread's OS id (cached after the first call).
pub fn tid() -> u32 {
    local().map_or(0, |s| s.tid())
}

/// Makes `[0, len)` of the file usable through the mapping. `fallocate` reserves the blocks,
/// so a full disk shows up here as an error (the chunks are then not handed out and records are
/// dropped and counted) instead of as a `SIGBUS` in the application when a page is first
/// written. Filesystems without `fallocate` get a sparse `ftruncate` extension.
fn extend(fd: libc::c_int, from: usize, len: usize) -> bool {
    // SAFETY: plain system calls on our own fd; neither ever shrinks the file.
    unsafe {
        if libc::fallocate(fd, 0, from as libc::off_t, (len - from) as libc::off_t) == 0 {
            return true;
        }
        let e = io::Error::last_os_error().raw_os_error();
        if e == Some(libc::EOPNOTSUPP) || e == Some(libc::ENOSYS) {
            return libc::ftruncate(fd, len as libc::off_t) == 0;
        }
        false
    }
}

/// An open capture file.
pub struct Sink {
    base: *mut u8,
    map_len: usize,
    fd: libc::c_int,
    header_size: usize,
    next_chunk: AtomicU64,
    ready_chunks: AtomicU64,
    next_string: AtomicU32,
    stop: AtomicBool,
    /// The upkeep thread ([`Sink::start_writer`]'s `tick`).
    writer: OnceLock<Thread>,
    /// The space thread, which only extends the file and releases full chunks' pages.
    space_thread: OnceLock<Thread>,
    /// Its OS thread id (it never waits for itself).
    space_tid: AtomicU32,
    /// [`Space`].
    space: AtomicU8,
    /// Futex word: bumped by the space thread after every extension (or failure, or stop).
    space_seq: AtomicU32,
    /// Producers sleeping on `space_seq` (the space thread wakes them only when there are some).
    waiters: AtomicU32,
    /// Set by producers that found no chunk; the space thread then extends by more.
    starved: AtomicBool,
    /// Headroom the space thread keeps: it is woken when fewer chunks are ready ([`LOW_WATER`],
    /// more after producers had to wait).
    low_water: AtomicU64,
    /// The last extension failed (full disk): records that find no chunk are dropped until one
    /// succeeds again.
    grow_failed: AtomicBool,
    /// Chunks below this one had their pages faulted in by the space thread (or were claimed
    /// before it got to them): [`Sink::populate_ahead`].
    populated: AtomicU64,
    /// `MADV_POPULATE_WRITE` is not supported here (producers fault their pages themselves).
    populate_failed: AtomicBool,
    /// What a producer does when no chunk is free.
    policy: BufferPolicy,
    /// Tests: 1 holds the space thread (it extends nothing), 2 makes every extension fail as on
    /// a full disk.
    #[cfg(test)]
    test_space: AtomicU8,
    /// The process that created the file; a forked child shares the mapping but must not touch it.
    owner_pid: u32,
    /// Most chunks the file may grow to ([`MAX_CHUNKS`], or less with [`Sink::limit_chunks`]).
    max_chunks: u64,
    /// Full chunks whose pages the writer thread drops from the resident set
    /// ([`Sink::release_pages`]), so producers do not make that system call themselves.
    full: crate::mpmc::Mpmc,
}

// SAFETY: the mapping is process-wide memory; each chunk is written only by the thread that
// claimed it, the header fields are only accessed through atomics, and `base`/`map_len`/`fd` are
// immutable after construction.
unsafe impl Send for Sink {}
// SAFETY: as above.
unsafe impl Sync for Sink {}

impl Sink {
    /// Creates `path` (truncating it), writes the header, extends the file for the first chunks
    /// and maps it. Cold path: may allocate and make system calls.
    pub fn create(path: &Path, info: &HeaderInfo) -> io::Result<Sink> {
        let mut info = info.clone();
        info.chunk_size = CHUNK_SIZE as u32;
        let hdr = capture::encode_header(&info);
        let cpath =
            CString::new(path.as_os_str().as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: `cpath` is a valid NUL-terminated string.
        let fd = unsafe {
            libc::open(cpath.as_ptr(), libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC, 0o644)
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let fail = |fd| {
            let e = io::Error::last_os_error();
            // SAFETY: fd was opened above and is closed once.
            unsafe { libc::close(fd) };
            e
        };
        let mut written = 0;
        while written < hdr.len() {
            // SAFETY: the pointer/length pair lies inside `hdr`.
            let n = unsafe { libc::write(fd, hdr[written..].as_ptr().cast(), hdr.len() - written) };
            if n <= 0 {
                return Err(fail(fd));
            }
            written += n as usize;
        }
        let header_size = hdr.len();
        let ready = INITIAL_CHUNKS;
        if !extend(fd, header_size, header_size + ready as usize * CHUNK_SIZE) {
            return Err(fail(fd));
        }
        let map_len = header_size + MAX_CHUNKS as usize * CHUNK_SIZE;
        // SAFETY: a fresh shared mapping of our own file; pages beyond the end of the file are
        // never touched (only chunks below `ready_chunks` are handed out).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_NORESERVE,
                fd,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(fail(fd));
        }
        Ok(Sink {
            base: base.cast(),
            map_len,
            fd,
            header_size,
            next_chunk: AtomicU64::new(0),
            ready_chunks: AtomicU64::new(ready),
            next_string: AtomicU32::new(1),
            stop: AtomicBool::new(false),
            writer: OnceLock::new(),
            space_thread: OnceLock::new(),
            space_tid: AtomicU32::new(0),
            space: AtomicU8::new(Space::NotStarted as u8),
            space_seq: AtomicU32::new(0),
            waiters: AtomicU32::new(0),
            starved: AtomicBool::new(false),
            low_water: AtomicU64::new(LOW_WATER),
            grow_failed: AtomicBool::new(false),
            populated: AtomicU64::new(0),
            populate_failed: AtomicBool::new(false),
            policy: BufferPolicy::Lossless,
            owner_pid: std::process::id(),
            max_chunks: MAX_CHUNKS,
            full: crate::mpmc::Mpmc::new(RELEASE_QUEUE),
            #[cfg(test)]
            test_space: AtomicU8::new(0),
        })
    }

    /// Chooses what a producer does when no chunk is free (default lossless). Call before any
    /// record is written.
    pub fn set_policy(&mut self, policy: BufferPolicy) {
        self.policy = policy;
    }

    /// Caps the capture at `n` chunks (at least 1, at most [`MAX_CHUNKS`]): once they are taken,
    /// records are dropped and counted as [`LossReason::ChunkPoolEmpty`], exactly as when the
    /// disk is full (under either policy). Call before any record is written.
    pub fn limit_chunks(&mut self, n: u64) {
        self.max_chunks = n.clamp(1, MAX_CHUNKS);
        let ready = self.ready_chunks.load(Ordering::Relaxed).min(self.max_chunks);
        self.ready_chunks.store(ready, Ordering::Relaxed);
    }

    fn header_u64(&self, off: usize) -> &AtomicU64 {
        debug_assert!(off & 7 == 0 && off + 8 <= capture::HEADER_FIXED_SIZE);
        // SAFETY: `off` is an 8-aligned offset inside the mapped header page, which lives as long
        // as `self`; the field is only ever accessed atomically.
        unsafe { &*(self.base.add(off) as *const AtomicU64) }
    }

    fn header_u32(&self, off: usize) -> &AtomicU32 {
        debug_assert!(off & 3 == 0 && off + 4 <= capture::HEADER_FIXED_SIZE);
        // SAFETY: as in `header_u64`, 4-aligned.
        unsafe { &*(self.base.add(off) as *const AtomicU32) }
    }

    /// Counts one loss (or degradation) of kind `reason` in the capture header, where it
    /// survives a crash. Never fails, never blocks. Reader-side reasons are ignored.
    pub fn count_loss(&self, reason: LossReason) {
        let i = reason as usize;
        if i < LossReason::IN_PROCESS {
            self.header_u64(header::LOSSES + 8 * i).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Counts one record that could not be written for lack of capture space: the capture could
    /// not grow ([`LossReason::ChunkPoolEmpty`]), or it could but the record did not wait for it
    /// ([`LossReason::WriterBehind`]).
    pub fn count_drop(&self) {
        let ready = self.ready_chunks.load(Ordering::Acquire);
        let exhausted = ready >= self.max_chunks || self.grow_failed.load(Ordering::Acquire);
        self.count_loss(if exhausted { LossReason::ChunkPoolEmpty } else { LossReason::WriterBehind });
    }

    /// The count for `reason` so far.
    pub fn losses(&self, reason: LossReason) -> u64 {
        let i = reason as usize;
        if i < LossReason::IN_PROCESS {
            self.header_u64(header::LOSSES + 8 * i).load(Ordering::Relaxed)
        } else {
            0
        }
    }

    /// Sum of every in-process count that lost data.
    pub fn lost_total(&self) -> u64 {
        LossReason::ALL.iter().filter(|r| r.loses_data()).map(|&r| self.losses(r)).sum()
    }

    /// Adds `ns` spent in packet hooks handling `packets` packets to the calling thread's chunk
    /// header (plain stores to memory only this thread writes: no shared counter, no false
    /// sharing). Dropped when the thread has no chunk.
    pub fn add_hook_time(&self, ns: u64, packets: u64) {
        let Some((chunk, _)) = local().map(|s| s.cursor.get()) else { return };
        if chunk == 0 {
            return;
        }
        let field = |off: usize| {
            // SAFETY: `chunk` is the start of a chunk this thread claimed (inside the mapping,
            // 64-aligned); the chunk-header fields are 8-aligned and only this thread writes them.
            unsafe { &*((chunk + off) as *const AtomicU64) }
        };
        let (t, n) = (field(capture::chunk::HOOK_NS), field(capture::chunk::HOOK_PACKETS));
        t.store(t.load(Ordering::Relaxed).wrapping_add(ns), Ordering::Relaxed);
        n.store(n.load(Ordering::Relaxed).wrapping_add(packets), Ordering::Relaxed);
    }

    /// True in the process that created the capture (false in a forked child).
    pub fn is_owner(&self) -> bool {
        std::process::id() == self.owner_pid
    }

    /// Marks the capture as cleanly finished at `end_ns` (exit or unload flush point). A forked
    /// child, which shares the mapping, leaves it alone.
    pub fn mark_clean(&self, end_ns: u64) {
        if !self.is_owner() {
            return;
        }
        self.header_u64(header::END_NS).store(end_ns, Ordering::Relaxed);
        self.header_u32(header::FLAGS).fetch_or(capture::FLAG_CLEAN_EXIT, Ordering::Release);
    }

    /// Claims a fresh chunk for the calling thread: returns its address. When none is ready,
    /// waits for the space thread under the lossless policy (see the module documentation).
    fn claim_chunk(&self) -> Option<usize> {
        let mut n = self.next_chunk.load(Ordering::Relaxed);
        let mut waited_since = 0;
        loop {
            if n >= self.ready_chunks.load(Ordering::Acquire) {
                // Under either policy: the space thread keeps more headroom from now on.
                self.starved.store(true, Ordering::Relaxed);
                self.wake_space();
                if waited_since == 0 {
                    if !self.may_wait() {
                        return None;
                    }
                    waited_since = monotonic_ns();
                }
                if !self.wait_for_space(n) {
                    self.note_stall(monotonic_ns() - waited_since);
                    return None;
                }
                n = self.next_chunk.load(Ordering::Relaxed);
                continue;
            }
            match self.next_chunk.compare_exchange_weak(n, n + 1, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break,
                Err(cur) => n = cur,
            }
        }
        if waited_since != 0 {
            self.note_stall(monotonic_ns() - waited_since);
        }
        self.header_u64(header::CHUNKS_CLAIMED).fetch_max(n + 1, Ordering::Relaxed);
        if self.ready_chunks.load(Ordering::Relaxed) - (n + 1) < self.low_water.load(Ordering::Relaxed) {
            self.wake_space();
        }
        let addr = self.base as usize + self.header_size + n as usize * CHUNK_SIZE;
        // SAFETY: chunk `n` lies inside the mapping and inside the file (n < ready_chunks), and
        // this thread is its only writer from now on.
        let chunk = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, CHUNK_HEADER_SIZE) };
        capture::write_chunk_header(chunk, n + 1, tid());
        // Waits this thread made (this one, and earlier ones that ended in a drop) go into the
        // header of the chunk it got, where the reader sums them per thread.
        if let Some((ns, count, max, _)) = local().map(|s| s.stall.replace((0, 0, 0, false))) {
            if count > 0 {
                for (off, v) in [
                    (capture::chunk::STALL_NS, ns),
                    (capture::chunk::STALLS, count),
                    (capture::chunk::STALL_MAX_NS, max),
                ] {
                    chunk[off..off + 8].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        Some(addr)
    }

    /// Whether a producer that found no chunk may wait for one. Under the drop policy, when the
    /// file cannot grow, when nobody extends it, on the space thread, and when this thread is
    /// already waiting (we are in a signal handler that interrupted the wait): no.
    fn may_wait(&self) -> bool {
        if self.policy == BufferPolicy::Drop || !self.space_running() || self.cannot_grow() {
            return false;
        }
        if tid() == self.space_tid.load(Ordering::Relaxed) {
            return false;
        }
        local().is_some_and(|s| !s.stall.get().3)
    }

    fn space_running(&self) -> bool {
        self.space.load(Ordering::Acquire) == Space::Running as u8
    }

    fn cannot_grow(&self) -> bool {
        self.ready_chunks.load(Ordering::Acquire) >= self.max_chunks || self.grow_failed.load(Ordering::Acquire)
    }

    /// Waits until chunk `n` may be ready: spins briefly, then sleeps on the futex. Returns false
    /// when waiting no longer makes sense (the space thread is gone or the file cannot grow).
    fn wait_for_space(&self, n: u64) -> bool {
        if let Some(s) = local() {
            let v = s.stall.get();
            s.stall.set((v.0, v.1, v.2, true));
        }
        let ok = 'wait: {
            for _ in 0..SPIN {
                if n < self.ready_chunks.load(Ordering::Acquire) {
                    break 'wait true;
                }
                std::hint::spin_loop();
            }
            loop {
                self.waiters.fetch_add(1, Ordering::SeqCst);
                let seq = self.space_seq.load(Ordering::SeqCst);
                let ready = n < self.ready_chunks.load(Ordering::SeqCst);
                let hopeless = !self.space_running() || self.cannot_grow();
                if !ready && !hopeless {
                    futex_wait(&self.space_seq, seq, WAIT_SLICE);
                }
                self.waiters.fetch_sub(1, Ordering::SeqCst);
                if n < self.ready_chunks.load(Ordering::Acquire) {
                    break 'wait true;
                }
                if !self.space_running() || self.cannot_grow() {
                    break 'wait false;
                }
                self.wake_space();
            }
        };
        if let Some(s) = local() {
            let v = s.stall.get();
            s.stall.set((v.0, v.1, v.2, false));
        }
        ok
    }

    /// Adds one wait of `ns` to the calling thread's stall figures.
    fn note_stall(&self, ns: u64) {
        if let Some(s) = local() {
            let (total, count, max, waiting) = s.stall.get();
            s.stall.set((total.saturating_add(ns), count + 1, max.max(ns), waiting));
        }
    }

    /// Reserves `size` bytes (a multiple of 8, at most a chunk's payload) in the calling thread's
    /// chunk and returns the record's address. The bytes are zero.
    fn reserve(&self, size: usize) -> Option<usize> {
        self.reserve_on(local(), size)
    }

    /// [`Self::reserve`] with the calling thread's state already at hand.
    #[inline]
    fn reserve_on(&self, t: Option<&ThreadSink>, size: usize) -> Option<usize> {
        debug_assert!(size & 7 == 0);
        if size > CHUNK_SIZE - CHUNK_HEADER_SIZE {
            return None;
        }
        let t = t?;
        let (mut chunk, mut off) = t.cursor.get();
        if chunk == 0 || off + size > CHUNK_SIZE {
            let full = chunk;
            chunk = self.claim_chunk()?;
            off = CHUNK_HEADER_SIZE;
            if full != 0 {
                self.retire(full);
            }
        }
        t.cursor.set((chunk, off + size));
        // The next records go to cache lines nobody has touched yet: ask for them now, so their
        // fetch overlaps the rest of this call instead of stalling the next one (a few hundred
        // bytes ahead, inside this chunk).
        #[cfg(target_arch = "x86_64")]
        if off + size + PREFETCH_AHEAD < CHUNK_SIZE {
            // SAFETY: a prefetch is a hint that never faults; the address lies in our chunk.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    (chunk + off + size + PREFETCH_AHEAD) as *const i8,
                )
            };
        }
        Some(chunk + off)
    }

    /// Hands a full chunk to the writer thread, which drops its pages from the resident set
    /// ([`Self::release_pages`], a system call of tens of microseconds that would otherwise stall
    /// the producer every few thousand records); releases it here when the queue is full.
    fn retire(&self, chunk: usize) {
        let index = (chunk - self.base as usize - self.header_size) / CHUNK_SIZE;
        if !self.full.push(index as u32) {
            Self::release_pages(chunk);
        }
    }

    /// The writer thread's half of [`Self::retire`].
    fn release_retired(&self) {
        while let Some(index) = self.full.pop() {
            Self::release_pages(self.base as usize + self.header_size + index as usize * CHUNK_SIZE);
        }
    }

    /// Drops a full chunk's pages from the process's resident set: nobody in this process touches
    /// it again (its thread moved on; the CLI reads the file, not our mapping). For a shared file
    /// mapping `MADV_DONTNEED` keeps the data (dirty pages stay in the page cache and reach the
    /// file); without it every record ever written would stay resident, and a 1 M-dispatch run
    /// would carry a capture-sized RSS. One system call per 256 KiB of records.
    fn release_pages(chunk: usize) {
        // SAFETY: `chunk` is the page-aligned start of a full chunk inside our mapping (the
        // header is padded to a page and chunks are page multiples); the range stays mapped.
        unsafe { libc::madvise(chunk as *mut libc::c_void, CHUNK_SIZE, libc::MADV_DONTNEED) };
    }

    /// Seals the record at `addr` whose body is written: stores the body's checksum, then the
    /// commit word (release: body and checksum are visible first).
    fn commit(addr: usize, word: u32) {
        let size = (word >> 16) as usize;
        // SAFETY: `addr` is an 8-aligned record start of `size` bytes in a chunk this thread
        // owns; the body is fully written.
        let body = unsafe { std::slice::from_raw_parts((addr + FRAME_SIZE) as *const u8, size - FRAME_SIZE) };
        let sum = capture::record_checksum(body);
        // SAFETY: as above; the checksum word sits at `addr + 4`, inside the record.
        unsafe { ((addr + 4) as *mut u32).write(sum.to_le()) };
        Self::publish(addr, word);
    }

    /// Stores the commit word of the record at `addr` (release: its body and checksum, written
    /// before, are visible first).
    #[inline(always)]
    fn publish(addr: usize, word: u32) {
        // SAFETY: the commit word at `addr` is read by other processes only after this store,
        // and only atomically in this one.
        let w = unsafe { &*(addr as *const AtomicU32) };
        w.store(word, Ordering::Release);
    }

    /// Appends a fixed-size record. Hot path: no allocation, no lock, no system call (except the
    /// rare writer wake-up when a chunk is claimed). Returns false and counts a drop on failure.
    pub fn write<R: FixedRecord>(&self, rec: &R) -> bool {
        let Some(addr) = self.reserve(R::TOTAL_SIZE) else {
            self.count_drop();
            return false;
        };
        // SAFETY: `reserve` returned `TOTAL_SIZE` zeroed bytes owned by this thread.
        let bytes = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, R::TOTAL_SIZE) };
        rec.write_body(&mut bytes[FRAME_SIZE..]);
        Self::commit(addr, R::HEADER_WORD);
        true
    }

    /// Appends an API-call record: the header and its argument words (at most
    /// `rocprof_model::api::MAX_API_ARGS`; more are not recorded; `h.nargs` is set here). Hot
    /// path, like [`Sink::write`].
    pub fn write_api_call(&self, h: &capture::ApiCallRecord, args: &[u64]) -> bool {
        self.write_api_call_on(local(), h, args)
    }

    /// [`Self::write_api_call`] with the calling thread's state already at hand. A call without
    /// external id, return value or message (almost every one) takes the four-word short form.
    /// The argument count picks the copy of the writer made for that count
    /// ([`Self::write_api_call_fixed`]), so the checksum and the stores are straight-line code.
    /// Never inlined: its 17 x 2 writers are one copy for every caller (HIP, ROCTx), not one per
    /// call site.
    #[inline(never)]
    pub(crate) fn write_api_call_on(&self, t: Option<&ThreadSink>, h: &capture::ApiCallRecord, args: &[u64]) -> bool {
        const MAX: usize = rocprof_model::api::MAX_API_ARGS;
        macro_rules! by_count {
            ($($n:literal)*) => {
                match args.len().min(MAX) {
                    $($n => args.first_chunk::<$n>().is_some_and(|a| self.write_api_call_fixed(t, h, a)),)*
                    // `min(MAX)` leaves no other count (checked below).
                    _ => {
                        self.count_drop();
                        false
                    }
                }
            };
        }
        const _: () = assert!(MAX == 16, "one arm per argument count up to MAX_API_ARGS");
        by_count!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    }

    /// [`Self::write_api_call_on`] for a call of `A` argument words.
    #[inline]
    pub(crate) fn write_api_call_fixed<const A: usize>(
        &self,
        t: Option<&ThreadSink>,
        h: &capture::ApiCallRecord,
        args: &[u64; A],
    ) -> bool {
        // The reader refuses a record of more words (the slice path truncates to this).
        const { assert!(A <= rocprof_model::api::MAX_API_ARGS, "an API-call record holds at most MAX_API_ARGS words") };
        match h.short_header_words(A) {
            Some(head) => self.write_words_fixed(t, RecordKind::ApiCallShort, &head, args),
            None => self.write_words_fixed(t, RecordKind::ApiCall, &h.header_words(A), args),
        }
    }

    /// Appends a record of kind `kind` whose body is `head` then `args`. The body is built as
    /// whole words in registers, checksummed from there and stored with whole-word stores (see
    /// `capture::record_checksum_split`); both counts are constants, so none of it loops.
    #[inline(always)]
    fn write_words_fixed<const H: usize, const A: usize>(
        &self,
        t: Option<&ThreadSink>,
        kind: RecordKind,
        head: &[u64; H],
        args: &[u64; A],
    ) -> bool {
        let total = FRAME_SIZE + 8 * (H + A);
        let Some(addr) = self.reserve_on(t, total) else {
            self.count_drop();
            return false;
        };
        let sum = capture::record_checksum_split(head, args);
        let body = (addr + FRAME_SIZE) as *mut u64;
        // Two loops of constant counts (a chained iterator would keep its state at run time).
        for (i, w) in head.iter().enumerate() {
            // SAFETY: `reserve` returned `total` bytes at the 8-aligned `addr`, owned by this
            // thread: the frame, then `H + A` body words. Volatile: one 8-byte store per word,
            // never turned into a call of `memcpy`.
            unsafe { body.add(i).write_volatile(w.to_le()) };
        }
        for (i, w) in args.iter().enumerate() {
            // SAFETY: as above; `H + i < H + A`.
            unsafe { body.add(H + i).write_volatile(w.to_le()) };
        }
        // SAFETY: the checksum word sits at `addr + 4`, inside the frame.
        unsafe { ((addr + 4) as *mut u32).write(sum.to_le()) };
        Self::publish(addr, capture::record_header_word(kind, total));
        true
    }

    /// Appends a counter-output record: `h` followed by `payload` (at most
    /// `capture::PMC_OUTPUT_MAX_PAYLOAD` bytes). No allocation. Returns false and counts a drop on
    /// failure.
    pub fn write_pmc_output(&self, h: &capture::PmcOutputHeader, payload: &[u8]) -> bool {
        let total = capture::pmc_output_record_size(payload.len());
        let Some(addr) = self.reserve(total) else {
            self.count_drop();
            return false;
        };
        // SAFETY: `reserve` returned `total` zeroed bytes owned by this thread.
        let bytes = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, total) };
        capture::write_pmc_output_body(h, payload, &mut bytes[FRAME_SIZE..]);
        Self::commit(addr, capture::record_header_word(RecordKind::PmcOutput, total));
        true
    }

    /// Appends a string record of `len` bytes whose content `fill` writes in place (for example the
    /// runtime copying a symbol name straight into the file); `fill` gets `len + 1` bytes, the
    /// last one for an optional NUL. Returns the string id, or 0 (the
    /// empty string) when the record could not be written. If `fill` returns false the space is
    /// committed as padding.
    pub fn write_string_with(&self, len: usize, fill: impl FnOnce(&mut [u8]) -> bool) -> u32 {
        let len = len.min(capture::MAX_STRING_LEN - 1);
        // One spare byte: runtimes that NUL-terminate a buffer they were told is `len` bytes long
        // write it into our padding instead of the next record.
        let total = capture::string_record_size(len + 1);
        let Some(addr) = self.reserve(total) else {
            self.count_drop();
            return 0;
        };
        // SAFETY: `reserve` returned `total` zeroed bytes owned by this thread.
        let bytes = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, total) };
        let id = self.next_string.fetch_add(1, Ordering::Relaxed);
        capture::write_string_prefix(id, len as u32, &mut bytes[FRAME_SIZE..FRAME_SIZE + 8]);
        if fill(&mut bytes[FRAME_SIZE + 8..FRAME_SIZE + 8 + len + 1]) {
            bytes[FRAME_SIZE + 8 + len] = 0;
            Self::commit(addr, capture::record_header_word(RecordKind::String, total));
            id
        } else {
            bytes[FRAME_SIZE..].fill(0);
            Self::commit(addr, capture::record_header_word(RecordKind::Padding, total));
            0
        }
    }

    /// Appends already-encoded records (each with its commit word set, as built by
    /// `rocprof_model::capture::push_record`), one at a time: body first, commit word last.
    /// Cold path. Records that do not parse stop the copy.
    pub fn write_raw_records(&self, mut records: &[u8]) {
        while records.len() >= FRAME_SIZE {
            let word = u32::from_le_bytes([records[0], records[1], records[2], records[3]]);
            let size = (word >> 16) as usize;
            if word == 0 || size < FRAME_SIZE || size & 7 != 0 || size > records.len() {
                return;
            }
            let Some(addr) = self.reserve(size) else {
                self.count_drop();
                return;
            };
            // SAFETY: `reserve` returned `size` zeroed bytes owned by this thread.
            let bytes = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, size) };
            bytes[FRAME_SIZE..].copy_from_slice(&records[FRAME_SIZE..size]);
            Self::commit(addr, word);
            records = &records[size..];
        }
    }

    /// Appends a string record with the given bytes.
    pub fn write_string(&self, s: &[u8]) -> u32 {
        self.write_string_with(s.len(), |out| {
            let n = (out.len() - 1).min(s.len());
            out[..n].copy_from_slice(&s[..n]);
            true
        })
    }

    /// Wakes the writer thread early (cold path helpers ask for upkeep).
    pub fn wake_writer(&self) {
        if let Some(t) = self.writer.get() {
            t.unpark();
        }
    }

    /// Wakes the space thread (a producer is running out of chunks).
    fn wake_space(&self) {
        if let Some(t) = self.space_thread.get() {
            t.unpark();
        }
    }

    /// Tells waiting producers that something changed (new chunks, a failure, a stop).
    fn release_waiters(&self) {
        self.space_seq.fetch_add(1, Ordering::SeqCst);
        if self.waiters.load(Ordering::SeqCst) > 0 {
            futex_wake_all(&self.space_seq);
        }
    }

    /// Extends the file so that at least `low_water` chunks are ready. Both the headroom and the
    /// extension start at [`LOW_WATER`] and [`EXTEND_BY`] and double each time producers had to
    /// wait, up to [`EXTEND_MAX`]: a loaded disk can hold one `fallocate` for hundreds of
    /// milliseconds, and the headroom must cover what the producers write meanwhile. Space thread
    /// only.
    fn top_up(&self, batch: &mut u64) {
        if self.starved.swap(false, Ordering::Relaxed) {
            *batch = (*batch * 2).min(EXTEND_MAX);
            self.low_water.store(LOW_WATER.max(*batch), Ordering::Relaxed);
        }
        let low_water = self.low_water.load(Ordering::Relaxed);
        let claimed = self.next_chunk.load(Ordering::Relaxed);
        let ready = self.ready_chunks.load(Ordering::Relaxed);
        if ready >= self.max_chunks || ready - claimed.min(ready) >= low_water {
            if ready >= self.max_chunks {
                self.release_waiters();
            }
            return;
        }
        #[cfg(test)]
        match self.test_space.load(Ordering::Acquire) {
            1 => return,
            2 => {
                self.grow_failed.store(true, Ordering::Release);
                self.release_waiters();
                return;
            }
            _ => {}
        }
        let target = (claimed + low_water + *batch).min(self.max_chunks);
        let from = self.header_size + ready as usize * CHUNK_SIZE;
        let len = self.header_size + target as usize * CHUNK_SIZE;
        if extend(self.fd, from, len) {
            self.grow_failed.store(false, Ordering::Release);
            self.ready_chunks.store(target, Ordering::Release);
            self.release_waiters();
        } else {
            // A full disk cannot be waited out: release the waiters (their records are counted
            // as `chunk_pool_empty`) and try again on the next round.
            self.grow_failed.store(true, Ordering::Release);
            self.release_waiters();
        }
    }

    /// Faults in the pages of ready chunks no producer has claimed yet, on the space thread: a
    /// producer writing to a page of the shared file mapping for the first time would otherwise
    /// take the page fault itself (page-cache allocation, zeroing, block reservation), which was
    /// more than half of a traced call's CPU time in a tight loop of cheap calls.
    /// `MADV_POPULATE_WRITE` (Linux 5.14) prepares writable page-table entries without touching
    /// the bytes, so a producer that gets to a page first just takes the fault itself. Works in
    /// pieces from where it stopped (or from the first unclaimed chunk, when producers passed it)
    /// and returns after a piece when the file needs extending first or producers wait (on a
    /// loaded disk populating can be throttled for seconds, and extending the file matters
    /// more). Returns true while ready chunks remain unpopulated. Space thread only.
    fn populate_ahead(&self) -> bool {
        let ready = self.ready_chunks.load(Ordering::Acquire);
        let claimed = self.next_chunk.load(Ordering::Relaxed);
        let at = self.populated.load(Ordering::Relaxed).max(claimed);
        if at >= ready || self.populate_failed.load(Ordering::Relaxed) {
            return false;
        }
        let end = (at + POPULATE_PIECE_CHUNKS).min(ready);
        let from = self.header_size + at as usize * CHUNK_SIZE;
        let len = (end - at) as usize * CHUNK_SIZE;
        // SAFETY: the range lies inside our mapping and inside the file (chunks below
        // `ready_chunks` were extended).
        let rc = unsafe { libc::madvise(self.base.add(from).cast(), len, MADV_POPULATE_WRITE) };
        if rc != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
            // A kernel without MADV_POPULATE_WRITE: producers fault as before.
            self.populate_failed.store(true, Ordering::Relaxed);
        }
        self.populated.store(end, Ordering::Relaxed);
        let claimed = self.next_chunk.load(Ordering::Relaxed);
        let low = ready - claimed.min(ready) < self.low_water.load(Ordering::Relaxed);
        end < ready && !low && !self.starved.load(Ordering::Relaxed)
    }

    /// Starts the space thread, which keeps the file extended ahead of the producers (and is
    /// woken when one runs low), and the writer thread, which calls `tick` (other cold-path
    /// upkeep, such as growing the signal pool) every 20 ms and when woken. Two threads, so that
    /// a producer waiting for space never waits for upkeep that calls into the runtime.
    pub fn start_writer(&'static self, tick: fn()) -> io::Result<()> {
        // Running before the thread exists (it marks itself gone when it ends, which must win).
        self.space.store(Space::Running as u8, Ordering::Release);
        let space = std::thread::Builder::new().name("rocprof-space".into()).spawn(move || {
            /// Marks the space thread gone and releases its waiters however it ends.
            struct Gone(&'static Sink);
            impl Drop for Gone {
                fn drop(&mut self) {
                    self.0.space.store(Space::Gone as u8, Ordering::Release);
                    self.0.release_waiters();
                }
            }
            let _gone = Gone(self);
            self.space_tid.store(tid(), Ordering::Relaxed);
            let mut batch = EXTEND_BY;
            while !self.stop.load(Ordering::Acquire) {
                self.top_up(&mut batch);
                self.release_retired();
                if self.populate_ahead() {
                    continue; // more to populate: no sleep
                }
                std::thread::park_timeout(Duration::from_millis(20));
            }
        });
        let space = space.inspect_err(|_| self.space.store(Space::NotStarted as u8, Ordering::Release))?;
        let _ = self.space_thread.set(space.thread().clone());
        let handle = std::thread::Builder::new().name("rocprof-writer".into()).spawn(move || {
            while !self.stop.load(Ordering::Acquire) {
                tick();
                std::thread::park_timeout(Duration::from_millis(20));
            }
        })?;
        let _ = self.writer.set(handle.thread().clone());
        Ok(())
    }

    /// Asks the space and writer threads to stop (they exit within one tick; nobody waits for
    /// them). Producers waiting for space are released: their records are dropped and counted.
    pub fn stop_writer(&self) {
        self.stop.store(true, Ordering::Release);
        if self.space.load(Ordering::Acquire) == Space::Running as u8 {
            self.space.store(Space::Gone as u8, Ordering::Release);
        }
        self.release_waiters();
        self.wake_space();
        self.wake_writer();
    }

    /// Forgets the calling thread's chunk (used by tests that reuse threads across sinks).
    pub fn reset_thread_cursor() {
        if let Some(s) = local() {
            s.cursor.set((0, 0));
            s.stall.set((0, 0, 0, false));
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.stop_writer();
        // SAFETY: unmapping our own mapping and closing our own fd, once. Only tests drop a Sink;
        // the process-wide one lives until exit.
        unsafe {
            libc::munmap(self.base.cast(), self.map_len);
            libc::close(self.fd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_model::capture::{read_capture, DispatchBeginRecord, DispatchEndRecord, KernelSymbolRecord};

    /// A scratch file path, removed again when the returned guard drops.
    pub(crate) fn temp_path(name: &str) -> TempFile {
        // A directory per file: a shared one is removed by one test's drop while another test of the
        // same process is between creating it and creating its file (seen as a NotFound flake).
        let dir = std::env::temp_dir().join(format!("rocprof-intercept-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempFile(dir.join(name))
    }

    pub(crate) struct TempFile(std::path::PathBuf);

    impl std::ops::Deref for TempFile {
        type Target = std::path::Path;
        fn deref(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
            let _ = self.0.parent().map(std::fs::remove_dir);
        }
    }

    #[test]
    fn records_from_several_threads_read_back_including_an_uncommitted_tail() {
        let path = temp_path("threads.rpcap");
        let sink: &'static Sink =
            Box::leak(Box::new(Sink::create(&path, &HeaderInfo { pid: 9, ..Default::default() }).unwrap()));
        sink.start_writer(|| {}).unwrap();
        let name = sink.write_string(b"k.kd");
        assert!(sink.write(&KernelSymbolRecord { kernel_id: 1, name, ..Default::default() }));
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..3000u64 {
                        let id = t * 10_000 + i + 1;
                        assert!(sink.write(&DispatchBeginRecord {
                            dispatch_id: id,
                            kernel_id: 1,
                            ..Default::default()
                        }));
                        assert!(sink.write(&DispatchEndRecord { dispatch_id: id, start_ns: 1, end_ns: 2, status: 0 }));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // A reserved but never committed record, as left by a thread that died mid-write.
        let addr = sink.reserve(DispatchBeginRecord::TOTAL_SIZE).unwrap();
        // SAFETY: test-only write into the reserved record body.
        unsafe { *(addr as *mut u8).add(FRAME_SIZE) = 0x55 };
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.trace.dispatches.len(), 12_000);
        assert_eq!(cap.incomplete_dispatches, 0);
        assert_eq!(cap.trace.health.lost.get(LossReason::TornTail), 1);
        assert_eq!(cap.trace.health.lost.total(), 1);
        assert!(!cap.clean_exit);
        assert_eq!(cap.trace.strings.resolve(cap.trace.kernel_symbols[0].name), "k.kd");
        sink.mark_clean(77);
        let cap = read_capture(&path).unwrap();
        assert!(cap.clean_exit);
        assert_eq!(cap.trace.meta.end.ns, 77);
        Sink::reset_thread_cursor();
    }

    #[test]
    fn a_forked_child_does_not_mark_the_parents_capture() {
        let path = temp_path("fork.rpcap");
        let sink = Sink::create(&path, &HeaderInfo::default()).unwrap();
        // SAFETY: the child only calls async-signal-safe-enough code (no locks are held by
        // this single test thread at fork time) and leaves with _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            sink.mark_clean(1);
            // SAFETY: terminating the child without running the test harness's exit path.
            unsafe { libc::_exit(if sink.is_owner() { 1 } else { 0 }) };
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(libc::WEXITSTATUS(status), 0, "the child knows it is not the owner");
        let cap = read_capture(&path).unwrap();
        assert!(!cap.clean_exit, "the child's exit must not mark the parent's capture clean");
        sink.mark_clean(2);
        assert!(read_capture(&path).unwrap().clean_exit);
    }

    #[test]
    fn api_calls_of_every_argument_count_read_back_in_the_short_and_the_long_form() {
        use rocprof_model::api::{ApiDomain, MAX_API_ARGS};
        let path = temp_path("api.rpcap");
        let sink = Sink::create(&path, &HeaderInfo::default()).unwrap();
        // Each argument count, once with a return value of 0 (the short form) and once with one
        // (the long form); two more words than the record holds: the extra ones are not kept.
        let mut made = Vec::new();
        for n in 0..=MAX_API_ARGS + 2 {
            for ret in [0u64, 0xDEAD_BEEF_0000_0001] {
                let id = made.len() as u64 + 1;
                let args: Vec<u64> =
                    (0..n as u64).map(|i| id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 56 | i)).collect();
                let h = capture::ApiCallRecord {
                    correlation_id: id,
                    start: 1000 * id,
                    end: 1000 * id + 17 + n as u64,
                    ret,
                    domain: u32::from(ApiDomain::HsaCore.as_u16()),
                    operation: n as u32,
                    tid: 4242,
                    ..Default::default()
                };
                let before = local().map(|t| t.cursor.get()).unwrap();
                assert!(sink.write_api_call(&h, &args));
                let after = local().map(|t| t.cursor.get()).unwrap();
                // The record's size says its form: four header words when it fits (no return
                // value), nine otherwise; the words beyond MAX_API_ARGS are not written.
                let from = if before.0 == after.0 { before.1 } else { CHUNK_HEADER_SIZE };
                let head = if ret == 0 { 4 } else { 9 };
                assert_eq!(after.1 - from, FRAME_SIZE + 8 * (head + n.min(MAX_API_ARGS)), "{n} args, ret {ret:#x}");
                made.push((id, ret, args));
            }
        }
        Sink::reset_thread_cursor();
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.trace.health.lost.total(), 0, "every record intact (checksums match)");
        assert_eq!(cap.trace.api_calls.len(), made.len());
        for (call, (id, ret, args)) in cap.trace.api_calls.iter().zip(&made) {
            assert_eq!(call.correlation.internal.0, *id);
            assert_eq!((call.start.ns, call.end.ns), (1000 * id, 1000 * id + 17 + args.len() as u64));
            assert_eq!(call.return_value, *ret);
            assert_eq!(&call.args[..], &args[..args.len().min(MAX_API_ARGS)], "call {id}");
        }
    }

    #[test]
    fn pre_encoded_records_are_copied_into_the_stream() {
        use rocprof_model::capture::{push_record, push_string_record, AgentRecord};
        let path = temp_path("raw.rpcap");
        let sink = Sink::create(&path, &HeaderInfo::default()).unwrap();
        let mut section = Vec::new();
        push_string_record(&mut section, 0x8010_0001, b"gfx90a");
        push_record(
            &mut section,
            &AgentRecord { handle: 0x77, node_id: 2, agent_type: 2, name: 0x8010_0001, ..Default::default() },
        );
        sink.write_raw_records(&section);
        sink.write_raw_records(&[1, 0, 0xFF, 0xFF]); // garbage: ignored
        Sink::reset_thread_cursor();
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.trace.agents.len(), 1);
        assert_eq!(cap.trace.strings.resolve(cap.trace.agents[0].name), "gfx90a");
        assert_eq!(cap.trace.health.lost.total(), 0);
    }

    #[test]
    fn exhausted_chunks_are_counted_as_drops() {
        let path = temp_path("drops.rpcap");
        let sink = Sink::create(&path, &HeaderInfo::default()).unwrap();
        // No writer thread: only the initially ready chunks exist.
        let per_chunk = (CHUNK_SIZE - CHUNK_HEADER_SIZE) / DispatchEndRecord::TOTAL_SIZE;
        let ready = INITIAL_CHUNKS as usize;
        let mut ok = 0;
        for i in 0..(ready * per_chunk + 10) {
            if sink.write(&DispatchEndRecord { dispatch_id: i as u64, ..Default::default() }) {
                ok += 1;
            }
        }
        assert_eq!(ok, ready * per_chunk);
        assert_eq!(sink.losses(LossReason::WriterBehind), 10, "nobody extends the file: nobody to wait for");
        let failed = sink.write_string_with(4, |_| false);
        assert_eq!(failed, 0);
        Sink::reset_thread_cursor();
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.trace.health.lost.get(LossReason::WriterBehind), 11);
        assert_eq!(cap.trace.health.lost.get(LossReason::ChunkPoolEmpty), 0);
        assert_eq!(cap.orphan_completions as usize, ready * per_chunk);
    }

    /// Records of `DispatchEndRecord` size that fill the initially ready chunks, plus `extra`.
    fn beyond_initial(extra: usize) -> usize {
        INITIAL_CHUNKS as usize * ((CHUNK_SIZE - CHUNK_HEADER_SIZE) / DispatchEndRecord::TOTAL_SIZE) + extra
    }

    /// A leaked sink with the space thread started and held (it extends nothing until released).
    fn held_sink(path: &Path, policy: BufferPolicy) -> &'static Sink {
        let mut sink = Sink::create(path, &HeaderInfo::default()).unwrap();
        sink.set_policy(policy);
        sink.test_space.store(1, Ordering::Release);
        let sink: &'static Sink = Box::leak(Box::new(sink));
        sink.start_writer(|| {}).unwrap();
        sink
    }

    /// Spawns a thread writing `n` records; returns it and how many it wrote.
    fn producer(sink: &'static Sink, n: usize) -> std::thread::JoinHandle<usize> {
        std::thread::spawn(move || {
            let ok = (0..n)
                .filter(|&i| sink.write(&DispatchEndRecord { dispatch_id: i as u64, ..Default::default() }))
                .count();
            Sink::reset_thread_cursor();
            ok
        })
    }

    fn wait_until(what: &str, cond: impl Fn() -> bool) {
        let t = std::time::Instant::now();
        while !cond() {
            assert!(t.elapsed() < Duration::from_secs(60), "timed out waiting until {what}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn lossless_a_producer_without_a_free_chunk_waits_for_the_space_thread_and_loses_nothing() {
        let path = temp_path("lossless.rpcap");
        let sink = held_sink(&path, BufferPolicy::Lossless);
        let n = beyond_initial(5000);
        let t = producer(sink, n);
        wait_until("the producer sleeps on the futex", || sink.waiters.load(Ordering::SeqCst) > 0);
        assert_eq!(sink.lost_total(), 0, "nothing dropped while waiting");
        sink.test_space.store(0, Ordering::Release);
        sink.wake_space();
        assert_eq!(t.join().unwrap(), n, "every record written");
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.orphan_completions as usize, n);
        assert_eq!(cap.trace.health.lost.total(), 0);
        let h = cap.trace.health;
        assert_eq!(h.stalls, 1, "one wait, charged to the chunk it got");
        assert!(h.stall_ns > 0 && h.stall_ns == h.stall_max_ns && h.stall_ns == h.stall_thread_max_ns, "{h:?}");
        sink.stop_writer();
    }

    #[test]
    fn drop_policy_counts_what_found_no_chunk_as_writer_behind_without_waiting() {
        let path = temp_path("droppolicy.rpcap");
        let sink = held_sink(&path, BufferPolicy::Drop);
        let n = beyond_initial(700);
        assert_eq!(producer(sink, n).join().unwrap(), n - 700, "returns without the space thread");
        assert_eq!(sink.losses(LossReason::WriterBehind), 700);
        assert_eq!(sink.losses(LossReason::ChunkPoolEmpty), 0);
        assert_eq!(read_capture(&path).unwrap().trace.health.stalls, 0);
        sink.stop_writer();
    }

    #[test]
    fn stopping_the_writer_releases_a_waiting_producer_whose_records_are_counted() {
        let path = temp_path("stopwait.rpcap");
        let sink = held_sink(&path, BufferPolicy::Lossless);
        let n = beyond_initial(300);
        let t = producer(sink, n);
        wait_until("the producer sleeps on the futex", || sink.waiters.load(Ordering::SeqCst) > 0);
        sink.stop_writer();
        assert_eq!(t.join().unwrap(), n - 300);
        assert_eq!(sink.losses(LossReason::WriterBehind), 300, "the first after waiting, the rest at once");
    }

    #[test]
    fn a_full_disk_releases_a_waiting_producer_and_counts_chunk_pool_empty() {
        let path = temp_path("fulldisk.rpcap");
        let sink = held_sink(&path, BufferPolicy::Lossless);
        let n = beyond_initial(40);
        let t = producer(sink, n);
        wait_until("the producer sleeps on the futex", || sink.waiters.load(Ordering::SeqCst) > 0);
        sink.test_space.store(2, Ordering::Release);
        sink.wake_space();
        assert_eq!(t.join().unwrap(), n - 40);
        assert_eq!(sink.losses(LossReason::ChunkPoolEmpty), 40);
        assert_eq!(sink.losses(LossReason::WriterBehind), 0);
        sink.stop_writer();
    }

    #[test]
    fn a_capture_at_its_size_limit_is_never_waited_for() {
        let path = temp_path("limit.rpcap");
        let mut sink = Sink::create(&path, &HeaderInfo::default()).unwrap();
        sink.limit_chunks(2);
        let sink: &'static Sink = Box::leak(Box::new(sink));
        sink.start_writer(|| {}).unwrap();
        let per_chunk = (CHUNK_SIZE - CHUNK_HEADER_SIZE) / DispatchEndRecord::TOTAL_SIZE;
        assert_eq!(producer(sink, 2 * per_chunk + 9).join().unwrap(), 2 * per_chunk);
        assert_eq!(sink.losses(LossReason::ChunkPoolEmpty), 9);
        sink.stop_writer();
    }

    #[test]
    fn a_record_made_while_its_thread_waits_is_dropped_not_nested() {
        let path = temp_path("nested.rpcap");
        let sink = held_sink(&path, BufferPolicy::Lossless);
        // Use up the ready chunks, then pretend to be inside the wait (a signal handler).
        sink.next_chunk.store(INITIAL_CHUNKS, Ordering::Relaxed);
        let _ = local().map(|s| s.stall.set((0, 0, 0, true)));
        assert!(!sink.write(&DispatchEndRecord::default()));
        assert_eq!(sink.losses(LossReason::WriterBehind), 1);
        Sink::reset_thread_cursor();
        sink.stop_writer();
    }
}
