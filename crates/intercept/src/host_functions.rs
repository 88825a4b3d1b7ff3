//! HIP host functions: `__hipRegisterFunction` is interposed (this library is preloaded, so the
//! application's call through its PLT reaches [`crate::exports::__hipRegisterFunction`] first)
//! and every registration (host stub address, device function name, the `modules` handle, the
//! pointed-to launch bounds) goes into the capture as a `HostFunctionRecord`; the reader matches
//! them to kernel symbols as rocprofiler-sdk does (`rocprof_model::host_function`).
//!
//! HIP registers in the application's module constructor, before `hsa_init` and usually before
//! the capture exists. So a registration is first *staged* in a static table (the name copied
//! into a static arena: no allocation, no lock) and written when the capture is created
//! ([`flush`], from `load::create_capture`), or at once when it already exists. Each staged entry
//! is written exactly once: whoever moves it from `STAGED` to `WRITTEN` writes it, and
//! registrant and flusher each check the other's flag after setting their own (sequentially
//! consistent), so neither can miss an entry. A full table or arena is counted as
//! [`LossReason::KernelTableFull`] (the registration's kernel then has no host function).

use std::cell::UnsafeCell;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

use rocprof_model::capture::HostFunctionRecord;
use rocprof_model::LossReason;

use crate::state;

/// Most registrations staged before the capture exists (a rocBLAS-sized library registers a
/// few thousand kernels).
pub const MAX_STAGED: usize = 16 * 1024;
/// Bytes of device function names staged (names of template kernels run to a few hundred bytes).
pub const NAME_ARENA: usize = 4 << 20;

const EMPTY: u8 = 0;
const STAGED: u8 = 1;
const WRITTEN: u8 = 2;

/// A staged registration: the record (its `device_function` field unset) and its name's place in
/// [`ARENA`].
struct Entry {
    state: AtomicU8,
    body: UnsafeCell<(HostFunctionRecord, usize, usize)>,
}

// SAFETY: `body` is written only by the thread that claimed the entry (a unique index from
// `CLAIMED`), before it publishes `STAGED` with SeqCst; it is read only after a successful
// `STAGED -> WRITTEN` exchange, which happens after that publication. Nobody writes it again.
unsafe impl Sync for Entry {}

struct Arena(UnsafeCell<[u8; NAME_ARENA]>);

// SAFETY: every byte range is handed out once (`ARENA_USED.fetch_add`), written by its claimant
// before the entry naming it is published, and only read after that publication.
unsafe impl Sync for Arena {}

static ENTRIES: [Entry; MAX_STAGED] = [const {
    Entry {
        state: AtomicU8::new(EMPTY),
        body: UnsafeCell::new((
            HostFunctionRecord {
                host_function: 0,
                modules: 0,
                workgroup_size: 0,
                device_function: 0,
                thread_limit: 0,
                tid_x: 0,
                tid_y: 0,
                tid_z: 0,
                bid_x: 0,
                bid_y: 0,
                bid_z: 0,
                block_x: 0,
                block_y: 0,
                block_z: 0,
                grid_x: 0,
                grid_y: 0,
                grid_z: 0,
            },
            0,
            0,
        )),
    }
}; MAX_STAGED];
static ARENA: Arena = Arena(UnsafeCell::new([0; NAME_ARENA]));
/// Entries claimed (may exceed [`MAX_STAGED`]: those were lost).
static CLAIMED: AtomicUsize = AtomicUsize::new(0);
/// Arena bytes claimed.
static ARENA_USED: AtomicUsize = AtomicUsize::new(0);
/// Registrations that found no room, not yet counted in a capture.
static LOST: AtomicUsize = AtomicUsize::new(0);
/// Set once a capture exists and [`flush`] started: registrations write themselves from then on.
static FLUSHED: AtomicBool = AtomicBool::new(false);

/// The values of one `__hipRegisterFunction` call, the pointed-to ones read (0 for NULL).
#[derive(Debug, Clone, Copy, Default)]
pub struct Registration {
    /// `hostFunction`.
    pub host_function: u64,
    /// `modules`.
    pub modules: u64,
    /// `threadLimit`.
    pub thread_limit: u32,
    /// `*tid`, `*bid`, `*blockDim`, `*gridDim`.
    pub dims: [[u32; 3]; 4],
    /// `*wSize`.
    pub workgroup_size: u64,
}

impl Registration {
    fn record(&self) -> HostFunctionRecord {
        let [t, b, bd, g] = self.dims;
        HostFunctionRecord {
            host_function: self.host_function,
            modules: self.modules,
            workgroup_size: self.workgroup_size,
            device_function: 0,
            thread_limit: self.thread_limit,
            tid_x: t[0],
            tid_y: t[1],
            tid_z: t[2],
            bid_x: b[0],
            bid_y: b[1],
            bid_z: b[2],
            block_x: bd[0],
            block_y: bd[1],
            block_z: bd[2],
            grid_x: g[0],
            grid_y: g[1],
            grid_z: g[2],
        }
    }
}

/// Records one registration of `name` (the device function). Allocation- and lock-free.
pub fn register(reg: &Registration, name: &[u8]) {
    let i = CLAIMED.fetch_add(1, Ordering::Relaxed);
    let Some(entry) = ENTRIES.get(i) else {
        LOST.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let start = ARENA_USED.fetch_add(name.len(), Ordering::Relaxed);
    if start.checked_add(name.len()).is_none_or(|end| end > NAME_ARENA) {
        LOST.fetch_add(1, Ordering::Relaxed);
        return;
    }
    // SAFETY: bytes `start..start + len` of the arena were claimed by this call alone (see
    // `Arena`) and lie inside it (checked above).
    unsafe { std::ptr::copy_nonoverlapping(name.as_ptr(), (ARENA.0.get() as *mut u8).add(start), name.len()) };
    // SAFETY: entry `i` was claimed by this call alone and is not yet published (see `Entry`).
    unsafe { *entry.body.get() = (reg.record(), start, name.len()) };
    entry.state.store(STAGED, Ordering::SeqCst);
    if FLUSHED.load(Ordering::SeqCst) {
        write_entry(entry);
    }
}

/// Writes every staged registration into the capture (and registrations write themselves from
/// now on); counts the lost ones. Called once the capture exists.
pub fn flush() {
    FLUSHED.store(true, Ordering::SeqCst);
    let n = CLAIMED.load(Ordering::SeqCst).min(MAX_STAGED);
    for entry in &ENTRIES[..n] {
        write_entry(entry);
    }
    let lost = LOST.swap(0, Ordering::Relaxed);
    if lost > 0 {
        if let Some(g) = state::global() {
            for _ in 0..lost {
                g.sink.count_loss(LossReason::KernelTableFull);
            }
        }
    }
}

/// Writes `entry` if it is staged and nobody wrote it yet.
fn write_entry(entry: &Entry) {
    if !state::host_active() {
        return;
    }
    let Some(g) = state::global() else { return };
    if entry.state.compare_exchange(STAGED, WRITTEN, Ordering::SeqCst, Ordering::SeqCst).is_err() {
        return;
    }
    // SAFETY: published before the `STAGED` store this exchange observed; never written again.
    let (mut rec, start, len) = unsafe { *entry.body.get() };
    // SAFETY: the entry's name bytes, written before its publication (see `Arena`).
    let name = unsafe { std::slice::from_raw_parts((ARENA.0.get() as *const u8).add(start), len) };
    rec.device_function = g.sink.write_string(name);
    if rec.device_function != 0 {
        g.sink.write(&rec);
    }
}

/// Reads a `uint3`/`dim3` (three `u32`) behind `p`, zeros for NULL.
///
/// # Safety
/// `p` is NULL or points to three readable `u32`.
pub unsafe fn dim3_at(p: *const c_void) -> [u32; 3] {
    if p.is_null() {
        return [0; 3];
    }
    let p = p as *const u32;
    // SAFETY: three readable u32 (caller's contract); unaligned reads for any caller layout.
    unsafe { [p.read_unaligned(), p.add(1).read_unaligned(), p.add(2).read_unaligned()] }
}

/// HIP's `__hipRegisterFunction`, found once with `dlsym(RTLD_NEXT)` (0 when no HIP follows us).
pub fn original() -> usize {
    static ORIGINAL: AtomicUsize = AtomicUsize::new(usize::MAX);
    let f = ORIGINAL.load(Ordering::Acquire);
    if f != usize::MAX {
        return f;
    }
    // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name.
    let f = unsafe { libc::dlsym(libc::RTLD_NEXT, c"__hipRegisterFunction".as_ptr()) } as usize;
    ORIGINAL.store(f, Ordering::Release);
    f
}

/// The device function name as bytes (empty for NULL).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
pub unsafe fn name_bytes<'a>(name: *const c_char) -> &'a [u8] {
    if name.is_null() {
        return &[];
    }
    // SAFETY: NUL-terminated (caller's contract).
    unsafe { CStr::from_ptr(name) }.to_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_behind_null_pointers_are_zero_and_others_are_read() {
        let v = [3u32, 4, 5];
        // SAFETY: NULL, and a pointer to three u32.
        unsafe {
            assert_eq!(dim3_at(std::ptr::null()), [0; 3]);
            assert_eq!(dim3_at(v.as_ptr() as *const c_void), [3, 4, 5]);
        }
        let r = Registration {
            host_function: 1,
            dims: [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]],
            ..Default::default()
        };
        let rec = r.record();
        assert_eq!((rec.tid_z, rec.bid_x, rec.block_y, rec.grid_z), (3, 4, 8, 12));
    }
}
