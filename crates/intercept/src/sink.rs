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
//! chunks the file has already been extended to cover. Only the writer thread extends the file
//! (`ftruncate`, never shrinking), ahead of demand, so producers never make a system call or take
//! a lock; when no ready chunk is left the record is dropped and counted in the header. The whole
//! possible file is mapped once, up front, so no producer ever remaps.

use std::cell::Cell;
use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread::Thread;
use std::time::Duration;

use rocprof_model::capture::{self, header, FixedRecord, HeaderInfo, RecordKind, CHUNK_HEADER_SIZE, FRAME_SIZE};
use rocprof_model::LossReason;

/// Bytes per chunk.
pub const CHUNK_SIZE: usize = 256 * 1024;
/// Most chunks one capture can have (4 GiB of records); the mapping reserves this much address
/// space, not memory.
pub const MAX_CHUNKS: u64 = 16 * 1024;
/// How far ahead of the current record [`Sink::reserve`] prefetches (four cache lines).
const PREFETCH_AHEAD: usize = 256;
/// `madvise` advice that populates page tables writable (Linux 5.14+; not in every libc crate).
const MADV_POPULATE_WRITE: libc::c_int = 23;
/// The writer extends the file when fewer than this many chunks are ready. 16 MiB: at the
/// several hundred MB/s a thread writing API records produces, the writer thread may be scheduled
/// tens of milliseconds late on a loaded machine without producers running out.
const LOW_WATER: u64 = 64;
/// ... by this many.
const EXTEND_BY: u64 = 64;
/// Chunks the file starts with (6 MiB: a short run needs no extension at all).
const INITIAL_CHUNKS: u64 = 24;
/// Full chunks waiting for the writer thread to release their pages, at most (beyond that a
/// producer releases its chunk itself).
const RELEASE_QUEUE: usize = 1024;

thread_local! {
    /// This thread's chunk (address, 0 = none) and write offset in it.
    static CURSOR: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// Cached `gettid()`.
    static TID: Cell<u32> = const { Cell::new(0) };
}

// No destructors (checked): exit handlers and TLS destructors of other code can still use them
// (see `hip::v6`, HIP 6.4 calls from `__cxa_finalize`).
const _: () = assert!(!std::mem::needs_drop::<Cell<(usize, usize)>>());
const _: () = assert!(!std::mem::needs_drop::<Cell<u32>>());

/// The calling thread's OS id (cached after the first call).
pub fn tid() -> u32 {
    TID.try_with(|t| {
        let v = t.get();
        if v != 0 {
            return v;
        }
        // SAFETY: gettid has no preconditions.
        let v = unsafe { libc::syscall(libc::SYS_gettid) } as u32;
        t.set(v);
        v
    })
    .unwrap_or(0)
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
    writer: OnceLock<Thread>,
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
            owner_pid: std::process::id(),
            max_chunks: MAX_CHUNKS,
            full: crate::mpmc::Mpmc::new(RELEASE_QUEUE),
        })
    }

    /// Caps the capture at `n` chunks (at least 1, at most [`MAX_CHUNKS`]): once they are taken,
    /// records are dropped and counted as [`LossReason::ChunkPoolEmpty`], exactly as when the
    /// disk is full. Call before any record is written.
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

    /// Counts one record that could not be written for lack of capture space.
    pub fn count_drop(&self) {
        self.count_loss(LossReason::ChunkPoolEmpty);
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
        let Ok((chunk, _)) = CURSOR.try_with(|c| c.get()) else { return };
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

    /// Claims a fresh chunk for the calling thread: returns its address.
    fn claim_chunk(&self) -> Option<usize> {
        let mut n = self.next_chunk.load(Ordering::Relaxed);
        loop {
            if n >= self.ready_chunks.load(Ordering::Acquire) {
                self.wake_writer();
                return None;
            }
            match self.next_chunk.compare_exchange_weak(n, n + 1, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break,
                Err(cur) => n = cur,
            }
        }
        self.header_u64(header::CHUNKS_CLAIMED).fetch_max(n + 1, Ordering::Relaxed);
        if self.ready_chunks.load(Ordering::Relaxed) - (n + 1) < LOW_WATER {
            self.wake_writer();
        }
        let addr = self.base as usize + self.header_size + n as usize * CHUNK_SIZE;
        // SAFETY: chunk `n` lies inside the mapping and inside the file (n < ready_chunks), and
        // this thread is its only writer from now on.
        let chunk = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, CHUNK_HEADER_SIZE) };
        capture::write_chunk_header(chunk, n + 1, tid());
        Some(addr)
    }

    /// Reserves `size` bytes (a multiple of 8, at most a chunk's payload) in the calling thread's
    /// chunk and returns the record's address. The bytes are zero.
    fn reserve(&self, size: usize) -> Option<usize> {
        debug_assert!(size & 7 == 0);
        if size > CHUNK_SIZE - CHUNK_HEADER_SIZE {
            return None;
        }
        let (mut chunk, mut off) = CURSOR.try_with(|c| c.get()).ok()?;
        if chunk == 0 || off + size > CHUNK_SIZE {
            let full = chunk;
            chunk = self.claim_chunk()?;
            off = CHUNK_HEADER_SIZE;
            if full != 0 {
                self.retire(full);
            }
        }
        let _ = CURSOR.try_with(|c| c.set((chunk, off + size)));
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
        let args = &args[..args.len().min(rocprof_model::api::MAX_API_ARGS)];
        let total = capture::ApiCallRecord::total_size(args.len());
        let Some(addr) = self.reserve(total) else {
            self.count_drop();
            return false;
        };
        // SAFETY: `reserve` returned `total` zeroed bytes owned by this thread.
        let bytes = unsafe { std::slice::from_raw_parts_mut(addr as *mut u8, total) };
        let h = capture::ApiCallRecord { nargs: args.len() as u32, ..*h };
        h.write_with_args(args, &mut bytes[FRAME_SIZE..]);
        Self::commit(addr, capture::record_header_word(RecordKind::ApiCall, total));
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

    /// Extends the file so that at least `LOW_WATER` chunks are ready. Writer thread only.
    fn top_up(&self) {
        let claimed = self.next_chunk.load(Ordering::Relaxed);
        let ready = self.ready_chunks.load(Ordering::Relaxed);
        if ready >= self.max_chunks || ready - claimed.min(ready) >= LOW_WATER {
            return;
        }
        let target = (claimed + LOW_WATER + EXTEND_BY).min(self.max_chunks);
        let from = self.header_size + ready as usize * CHUNK_SIZE;
        let len = self.header_size + target as usize * CHUNK_SIZE;
        if extend(self.fd, from, len) {
            // Fault the new pages in here, on the writer thread: a producer writing to a page of
            // the shared file mapping for the first time would otherwise take a page fault (with
            // page-cache readahead) every few dozen records, several hundred ns per traced call.
            // MADV_POPULATE_WRITE (Linux 5.14) prepares writable page-table entries without
            // touching the bytes; on older kernels it fails and producers fault as before.
            // The chunks are handed out first, so a slow populate never makes a producer run out:
            // populating does not change the bytes, and a producer that gets there first just
            // takes the fault itself.
            self.ready_chunks.store(target, Ordering::Release);
            // SAFETY: the range lies inside our mapping and inside the file (just extended).
            unsafe { libc::madvise(self.base.add(from).cast(), len - from, MADV_POPULATE_WRITE) };
        }
    }

    /// Starts the writer thread, which keeps the file extended ahead of the producers and calls
    /// `tick` (other cold-path upkeep, such as growing the signal pool) on every wake-up.
    pub fn start_writer(&'static self, tick: fn()) -> io::Result<()> {
        let handle = std::thread::Builder::new().name("rocprof-writer".into()).spawn(move || {
            while !self.stop.load(Ordering::Acquire) {
                self.top_up();
                self.release_retired();
                tick();
                std::thread::park_timeout(Duration::from_millis(20));
            }
        })?;
        let _ = self.writer.set(handle.thread().clone());
        Ok(())
    }

    /// Asks the writer thread to stop (it exits within one tick; nobody waits for it).
    pub fn stop_writer(&self) {
        self.stop.store(true, Ordering::Release);
        self.wake_writer();
    }

    /// Forgets the calling thread's chunk (used by tests that reuse threads across sinks).
    pub fn reset_thread_cursor() {
        let _ = CURSOR.try_with(|c| c.set((0, 0)));
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
        let dir = std::env::temp_dir().join(format!("rocprof-intercept-test-{}", std::process::id()));
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
        assert_eq!(sink.losses(LossReason::ChunkPoolEmpty), 10);
        let failed = sink.write_string_with(4, |_| false);
        assert_eq!(failed, 0);
        Sink::reset_thread_cursor();
        let cap = read_capture(&path).unwrap();
        assert_eq!(cap.trace.health.lost.get(LossReason::ChunkPoolEmpty), 11);
        assert_eq!(cap.orphan_completions as usize, ready * per_chunk);
    }
}
