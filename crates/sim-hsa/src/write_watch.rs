//! Which memory has been written since a point in time, from the kernel's page tables: userfaultfd
//! write protection in asynchronous mode (`UFFD_FEATURE_WP_ASYNC`, Linux 6.7) read and re-armed with
//! the `PAGEMAP_SCAN` ioctl of `/proc/self/pagemap`. Dispatch elision (`elide.rs`) uses it to skip
//! hashing the extents of a repeated dispatch that nothing has written since the last check: AMD's
//! `transpose` reads and writes 786 MB per launch, and hashing them costs more than everything else of
//! an elided launch.
//!
//! [`protect`] registers the pages of a range for write protection and protects them; the kernel then
//! clears a page's protection on the first write to it by anyone — a CPU store, a copy, a `read(2)`
//! into it, the interpreter — without a signal or a handler thread (the asynchronous mode resolves the
//! fault itself). [`unchanged`] says whether every page of a protected range is still protected,
//! present, anonymous and registered, i.e. nothing can have changed its bytes since it was protected:
//! a written page, a page dropped by `madvise` (not present), a range unmapped and mapped again (no
//! longer registered) and swapped-out pages all count as changed, and the caller hashes instead.
//! Shared memory (another mapping may write it) is never protected.
//!
//! Protecting pages again hides the writes that happened before; so a protection has a token, and
//! [`protect`] first looks for changed pages in the range and voids every other token over them.
//! A token is valid only while no page of its range was seen changed by a later protection.
//!
//! Unprivileged processes get a user-mode-only userfaultfd (enough here: asynchronous faults are
//! resolved in the kernel, also for kernel-mode writes). Where userfaultfd or `PAGEMAP_SCAN` is
//! missing (older kernels, seccomp), [`protect`] returns `None` and elision hashes as before.

use std::sync::{Mutex, OnceLock};

/// `_IOWR(type, nr, size)`.
const fn iowr(t: u64, nr: u64, size: u64) -> u64 {
    (3 << 30) | (size << 16) | (t << 8) | nr
}

const UFFD_API: u64 = 0xaa;
const UFFD_USER_MODE_ONLY: i32 = 1;
const UFFD_FEATURE_WP_UNPOPULATED: u64 = 1 << 13;
const UFFD_FEATURE_WP_ASYNC: u64 = 1 << 15;
const UFFDIO_API: u64 = iowr(0xaa, 0x3f, 24);
const UFFDIO_REGISTER: u64 = iowr(0xaa, 0x00, 32);
const UFFDIO_REGISTER_MODE_WP: u64 = 1 << 1;
const PAGEMAP_SCAN: u64 = iowr(b'f' as u64, 16, 96);
const PM_SCAN_WP_MATCHING: u64 = 1 << 0;
const PM_SCAN_CHECK_WPASYNC: u64 = 1 << 1;
const PAGE_IS_WPALLOWED: u64 = 1 << 0;
const PAGE_IS_WRITTEN: u64 = 1 << 1;
const PAGE_IS_FILE: u64 = 1 << 2;
const PAGE_IS_PRESENT: u64 = 1 << 3;

#[repr(C)]
#[derive(Default)]
struct UffdioApi {
    api: u64,
    features: u64,
    ioctls: u64,
}

#[repr(C)]
#[derive(Default)]
struct UffdioRegister {
    start: u64,
    len: u64,
    mode: u64,
    ioctls: u64,
}

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct PageRegion {
    start: u64,
    end: u64,
    categories: u64,
}

#[repr(C)]
#[derive(Default)]
struct PmScanArg {
    size: u64,
    flags: u64,
    start: u64,
    end: u64,
    walk_end: u64,
    vec: u64,
    vec_len: u64,
    max_pages: u64,
    category_inverted: u64,
    category_mask: u64,
    category_anyof_mask: u64,
    return_mask: u64,
}

struct Fds {
    uffd: i32,
    pagemap: i32,
    page: u64,
}

/// The userfaultfd and pagemap descriptors, opened on first use (`None`: not available here).
fn fds() -> Option<&'static Fds> {
    static FDS: OnceLock<Option<Fds>> = OnceLock::new();
    FDS.get_or_init(|| {
        // SAFETY: plain syscalls with valid arguments; every descriptor is closed on failure.
        unsafe {
            let uffd =
                libc::syscall(libc::SYS_userfaultfd, libc::O_CLOEXEC | libc::O_NONBLOCK | UFFD_USER_MODE_ONLY) as i32;
            if uffd < 0 {
                return None;
            }
            let mut api =
                UffdioApi { api: UFFD_API, features: UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED, ioctls: 0 };
            let pagemap = libc::open(c"/proc/self/pagemap".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
            let ok = libc::ioctl(uffd, UFFDIO_API as _, &mut api) == 0
                && api.features & UFFD_FEATURE_WP_ASYNC != 0
                && pagemap >= 0;
            if !ok {
                libc::close(uffd);
                if pagemap >= 0 {
                    libc::close(pagemap);
                }
                return None;
            }
            let page = u64::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(4096);
            Some(Fds { uffd, pagemap, page })
        }
    })
    .as_ref()
}

/// Whether write protection is available in this process.
#[cfg(test)]
pub(crate) fn available() -> bool {
    fds().is_some()
}

/// Live protections: page-rounded range and token.
static TOKENS: Mutex<Vec<(u64, u64, u64)>> = Mutex::new(Vec::new());
static NEXT_TOKEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn pages(f: &Fds, lo: u64, hi: u64) -> (u64, u64) {
    (lo & !(f.page - 1), hi.div_ceil(f.page) * f.page)
}

/// Whether some page of `[lo, hi)` (page-aligned) is written, not present, not anonymous or not
/// registered for asynchronous write protection (scan errors count as changed). With `rearm`, the
/// written pages are protected again.
fn any_changed(f: &Fds, lo: u64, hi: u64, rearm: bool) -> bool {
    let mut found = PageRegion::default();
    let mut arg = PmScanArg {
        size: std::mem::size_of::<PmScanArg>() as u64,
        flags: PM_SCAN_CHECK_WPASYNC,
        start: lo,
        end: hi,
        vec: &mut found as *mut PageRegion as u64,
        vec_len: 1,
        max_pages: 1,
        // A page matches when it is written, or not present, or not WP-enabled. (Shared and file pages
        // are refused once in `protect`: asking for `PAGE_IS_FILE` here would make the kernel look up
        // every page's `struct page`, several times the cost of reading its page table entry.)
        category_inverted: PAGE_IS_PRESENT | PAGE_IS_WPALLOWED,
        category_anyof_mask: PAGE_IS_WRITTEN | PAGE_IS_PRESENT | PAGE_IS_WPALLOWED,
        return_mask: PAGE_IS_WRITTEN | PAGE_IS_PRESENT | PAGE_IS_WPALLOWED,
        ..Default::default()
    };
    // SAFETY: `arg` and the one-element output vector live across the call.
    let n = unsafe { libc::ioctl(f.pagemap, PAGEMAP_SCAN as _, &mut arg) };
    let changed = n != 0 || arg.walk_end != hi;
    if changed && rearm {
        let mut wp = PmScanArg {
            size: std::mem::size_of::<PmScanArg>() as u64,
            flags: PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC,
            start: lo,
            end: hi,
            category_anyof_mask: PAGE_IS_WRITTEN,
            return_mask: PAGE_IS_WRITTEN,
            ..Default::default()
        };
        // SAFETY: as above; no output vector (vec_len 0) while write-protecting.
        unsafe { libc::ioctl(f.pagemap, PAGEMAP_SCAN as _, &mut wp) };
    }
    changed
}

/// Whether some page of `[lo, hi)` (page-aligned) is not anonymous memory (or the scan fails).
fn has_file_pages(f: &Fds, lo: u64, hi: u64) -> bool {
    let mut found = PageRegion::default();
    let mut arg = PmScanArg {
        size: std::mem::size_of::<PmScanArg>() as u64,
        start: lo,
        end: hi,
        vec: &mut found as *mut PageRegion as u64,
        vec_len: 1,
        max_pages: 1,
        category_anyof_mask: PAGE_IS_FILE,
        return_mask: PAGE_IS_FILE,
        ..Default::default()
    };
    // SAFETY: `arg` and the one-element output vector live across the call.
    let n = unsafe { libc::ioctl(f.pagemap, PAGEMAP_SCAN as _, &mut arg) };
    n != 0 || arg.walk_end != hi
}

/// Write-protects the pages of `[lo, hi)` and returns the token [`unchanged`] checks; `None` when
/// write tracking is unavailable or the range cannot be registered (then nothing is tracked).
pub(crate) fn protect(lo: u64, hi: u64) -> Option<u64> {
    let f = fds()?;
    if hi <= lo {
        return None;
    }
    let (plo, phi) = pages(f, lo, hi);
    let mut reg = UffdioRegister { start: plo, len: phi - plo, mode: UFFDIO_REGISTER_MODE_WP, ioctls: 0 };
    let mut tokens = TOKENS.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: a valid userfaultfd and argument; registering the same range again with the same
    // descriptor succeeds.
    if unsafe { libc::ioctl(f.uffd, UFFDIO_REGISTER as _, &mut reg) } != 0 {
        return None;
    }
    if any_changed(f, plo, phi, false) {
        tokens.retain(|&(s, e, _)| e <= plo || phi <= s);
        any_changed(f, plo, phi, true);
        // A page that stays unprotectable (not present) makes the range untrackable.
        if any_changed(f, plo, phi, false) {
            return None;
        }
    }
    // Shared memory (shmem, memfd) can be written through another mapping, unseen by this one's page
    // table: refused. A registered range stays of its kind (replacing the mapping drops the
    // registration, which `unchanged` sees).
    if has_file_pages(f, plo, phi) {
        return None;
    }
    let t = NEXT_TOKEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tokens.push((plo, phi, t));
    Some(t)
}

/// Whether nothing can have changed a byte of `[lo, hi)` since [`protect`] returned `token` for it.
/// A `false` voids the token.
pub(crate) fn unchanged(lo: u64, hi: u64, token: u64) -> bool {
    let Some(f) = fds() else { return false };
    let (plo, phi) = pages(f, lo, hi);
    let mut tokens = TOKENS.lock().unwrap_or_else(|e| e.into_inner());
    let Some(i) = tokens.iter().position(|&(s, e, t)| t == token && (s, e) == (plo, phi)) else { return false };
    if any_changed(f, plo, phi, false) {
        tokens.swap_remove(i);
        return false;
    }
    true
}

/// Voids `token` (its range is no longer watched by its owner).
pub(crate) fn release(token: u64) {
    TOKENS.lock().unwrap_or_else(|e| e.into_inner()).retain(|&(_, _, t)| t != token);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An anonymous mapping of `n` pages.
    fn map(n: usize) -> &'static mut [u8] {
        // SAFETY: a fresh private anonymous mapping, never unmapped by the test (leaked).
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                n * 4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(p, libc::MAP_FAILED);
            std::slice::from_raw_parts_mut(p.cast(), n * 4096)
        }
    }

    /// A write anywhere in a protected range, a page dropped by `madvise`, a `read(2)` into it, and a
    /// protection of an overlapping range after a write each make it changed; reads and writes
    /// elsewhere do not.
    #[test]
    fn writes_drops_and_reprotections_are_seen_and_reads_are_not() {
        if fds().is_none() {
            rocprof_test_inputs::skip_optional(
                "writes_drops_and_reprotections_are_seen_and_reads_are_not",
                "no userfaultfd with asynchronous write protection (Linux 6.7+) here",
            );
            return;
        }
        let m = map(64);
        m.fill(1);
        let (lo, hi) = (m.as_ptr() as u64 + 100, m.as_ptr() as u64 + 20 * 4096 + 7);
        let t = protect(lo, hi).expect("anonymous memory can be protected");
        let sum: u64 = m.iter().map(|&b| u64::from(b)).sum();
        assert_eq!(sum, 64 * 4096);
        m[30 * 4096] = 2;
        assert!(unchanged(lo, hi, t), "reads, and a write outside the range");
        m[10 * 4096 + 5] = 3;
        assert!(!unchanged(lo, hi, t), "a write inside");
        assert!(!unchanged(lo, hi, t), "the token is void");

        let t = protect(lo, hi).unwrap();
        assert!(unchanged(lo, hi, t));
        // SAFETY: a page of the test's own mapping.
        unsafe { libc::madvise(m.as_mut_ptr().add(4096 * 3).cast(), 4096, libc::MADV_DONTNEED) };
        assert!(!unchanged(lo, hi, t), "a dropped page");

        m[3 * 4096] = 1;
        let t = protect(lo, hi).unwrap();
        let fd = std::fs::File::open("/proc/self/stat").unwrap();
        // SAFETY: 64 bytes inside the mapping.
        let n = unsafe { libc::read(std::os::fd::AsRawFd::as_raw_fd(&fd), m.as_mut_ptr().add(5 * 4096).cast(), 64) };
        assert_eq!(n, 64);
        assert!(!unchanged(lo, hi, t), "a read(2) into the range");

        let t = protect(lo, hi).unwrap();
        m[8 * 4096] = 9;
        let other = protect(lo + 4096 * 6, lo + 4096 * 9).unwrap();
        assert!(!unchanged(lo, hi, t), "a later protection of written pages voids the earlier token");
        assert!(unchanged(lo + 4096 * 6, lo + 4096 * 9, other));
        release(other);
        assert!(!unchanged(lo + 4096 * 6, lo + 4096 * 9, other));

        // SAFETY: a fresh shared anonymous mapping of 4 pages (leaked).
        let shared = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4 * 4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(shared, libc::MAP_FAILED);
        // SAFETY: inside the mapping.
        unsafe { shared.cast::<u8>().write_bytes(1, 4 * 4096) };
        assert_eq!(protect(shared as u64, shared as u64 + 4 * 4096), None, "shared memory is not watched");
    }
}
