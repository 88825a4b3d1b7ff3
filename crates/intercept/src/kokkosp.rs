//! `--kokkos-trace`: the library is also a Kokkos Tools library (the CLI names it in
//! `KOKKOS_TOOLS_LIBS`; Kokkos `dlopen`s it and looks up the `kokkosp_*` functions). As
//! rocprofv3's KokkosP connector does, Kokkos parallel regions and profile regions become ROCTx
//! thread ranges (push/pop, so `--kernel-rename`, which the option implies, names the kernels
//! after them), fences and profile sections become process ranges, and events marks. The
//! records go through the ROCTx wrappers ([`crate::roctx`]), so they are recorded exactly when
//! `--marker-trace` is on; with a ROCTx library in the process it keeps its nesting as well.

use std::ffi::{c_char, CStr, CString};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::diag::Level;
use crate::{diag, roctx};

/// `Kokkos_Tools_ToolSettings` of the Kokkos Tools interface.
#[repr(C)]
pub struct KokkosToolSettings {
    requires_global_fencing: bool,
    padding: [bool; 255],
}

/// Profile sections (`kokkosp_create_profile_section`): their names, copied when created (the
/// cold path), read by start/stop. Sections beyond the table are reported once and not recorded.
const SECTIONS: usize = 64;
static SECTION_NAMES: [OnceLock<CString>; SECTIONS] = [const { OnceLock::new() }; SECTIONS];
static SECTION_IDS: [std::sync::atomic::AtomicU64; SECTIONS] =
    [const { std::sync::atomic::AtomicU64::new(0) }; SECTIONS];
static NEXT_SECTION: AtomicU32 = AtomicU32::new(0);

/// Kokkos asks whether the tool needs global fences: only with `KOKKOS_TOOLS_GLOBALFENCES`.
///
/// # Safety
/// `settings` points to Kokkos's settings structure (the interface contract).
#[no_mangle]
pub unsafe extern "C" fn kokkosp_request_tool_settings(_n: u32, settings: *mut KokkosToolSettings) {
    if settings.is_null() {
        return;
    }
    let on = std::env::var("KOKKOS_TOOLS_GLOBALFENCES")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"));
    // SAFETY: non-null, Kokkos's live structure.
    unsafe { (*settings).requires_global_fencing = on };
}

/// Kokkos initialised the tool: a mark.
#[no_mangle]
pub extern "C" fn kokkosp_init_library(load_seq: i32, interface_version: u64, _dev_count: u32, _dev_info: *mut u8) {
    diag!(Level::Info, "KokkosP: rocprof-rs connector (sequence {load_seq}, version {interface_version})");
    // SAFETY: a NUL-terminated message.
    unsafe { roctx::mark(c"Kokkos::Initialization Complete".as_ptr()) };
}

/// Kokkos finalises the tool: a mark.
#[no_mangle]
pub extern "C" fn kokkosp_finalize_library() {
    // SAFETY: a NUL-terminated message.
    unsafe { roctx::mark(c"Kokkos::Finalization Complete".as_ptr()) };
}

/// A parallel_for begins: a range named after it.
///
/// # Safety
/// `name` is a NUL-terminated string (the interface contract).
#[no_mangle]
pub unsafe extern "C" fn kokkosp_begin_parallel_for(name: *const c_char, _dev: u32, _kid: *mut u64) {
    // SAFETY: the caller's string passes through.
    unsafe { roctx::push(name) };
}

/// The parallel_for ends.
#[no_mangle]
pub extern "C" fn kokkosp_end_parallel_for(_kid: u64) {
    // SAFETY: no arguments.
    unsafe { roctx::pop() };
}

/// A parallel_scan begins.
///
/// # Safety
/// As [`kokkosp_begin_parallel_for`].
#[no_mangle]
pub unsafe extern "C" fn kokkosp_begin_parallel_scan(name: *const c_char, _dev: u32, _kid: *mut u64) {
    // SAFETY: the caller's string passes through.
    unsafe { roctx::push(name) };
}

/// The parallel_scan ends.
#[no_mangle]
pub extern "C" fn kokkosp_end_parallel_scan(_kid: u64) {
    // SAFETY: no arguments.
    unsafe { roctx::pop() };
}

/// A parallel_reduce begins.
///
/// # Safety
/// As [`kokkosp_begin_parallel_for`].
#[no_mangle]
pub unsafe extern "C" fn kokkosp_begin_parallel_reduce(name: *const c_char, _dev: u32, _kid: *mut u64) {
    // SAFETY: the caller's string passes through.
    unsafe { roctx::push(name) };
}

/// The parallel_reduce ends.
#[no_mangle]
pub extern "C" fn kokkosp_end_parallel_reduce(_kid: u64) {
    // SAFETY: no arguments.
    unsafe { roctx::pop() };
}

/// `Kokkos::Profiling::pushRegion`.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn kokkosp_push_profile_region(name: *const c_char) {
    // SAFETY: the caller's string passes through.
    unsafe { roctx::push(name) };
}

/// `Kokkos::Profiling::popRegion`.
#[no_mangle]
pub extern "C" fn kokkosp_pop_profile_region() {
    // SAFETY: no arguments.
    unsafe { roctx::pop() };
}

/// A profile section is created: its name is kept under the id returned in `secid`.
///
/// # Safety
/// `name` is a NUL-terminated string, `secid` writable.
#[no_mangle]
pub unsafe extern "C" fn kokkosp_create_profile_section(name: *const c_char, secid: *mut u32) {
    let id = NEXT_SECTION.fetch_add(1, Ordering::Relaxed);
    if !secid.is_null() {
        // SAFETY: writable (contract).
        unsafe { *secid = id };
    }
    match SECTION_NAMES.get(id as usize) {
        Some(slot) if !name.is_null() => {
            // SAFETY: NUL-terminated (contract); copied once, on this cold path.
            let _ = slot.set(unsafe { CStr::from_ptr(name) }.to_owned());
        }
        Some(_) => {}
        None => diag!(Level::Warning, "KokkosP: profile section {id} beyond the first {SECTIONS} is not recorded"),
    }
}

/// A profile section starts: a process range.
#[no_mangle]
pub extern "C" fn kokkosp_start_profile_section(secid: u32) {
    let i = secid as usize;
    if let (Some(name), Some(slot)) = (SECTION_NAMES.get(i).and_then(OnceLock::get), SECTION_IDS.get(i)) {
        // SAFETY: a NUL-terminated name we own.
        slot.store(unsafe { roctx::start(name.as_ptr()) }, Ordering::Relaxed);
    }
}

/// A profile section stops.
#[no_mangle]
pub extern "C" fn kokkosp_stop_profile_section(secid: u32) {
    if let Some(slot) = SECTION_IDS.get(secid as usize).filter(|_| SECTION_NAMES[secid as usize].get().is_some()) {
        // SAFETY: the id `start` returned.
        unsafe { roctx::stop(slot.load(Ordering::Relaxed)) };
    }
}

/// Sections live until the process ends.
#[no_mangle]
pub extern "C" fn kokkosp_destroy_profile_section(_secid: u32) {}

/// `Kokkos::Profiling::markEvent`: a mark.
///
/// # Safety
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn kokkosp_profile_event(name: *const c_char) {
    // SAFETY: the caller's string passes through.
    unsafe { roctx::mark(name) };
}

/// A fence begins: a process range whose id is the fence id.
///
/// # Safety
/// `name` is a NUL-terminated string, `fid` writable.
#[no_mangle]
pub unsafe extern "C" fn kokkosp_begin_fence(name: *const c_char, _dev: u32, fid: *mut u64) {
    // SAFETY: the caller's string passes through.
    let id = unsafe { roctx::start(name) };
    if !fid.is_null() {
        // SAFETY: writable (contract).
        unsafe { *fid = id };
    }
}

/// The fence ends.
#[no_mangle]
pub extern "C" fn kokkosp_end_fence(fid: u64) {
    // SAFETY: an id `kokkosp_begin_fence` handed out.
    unsafe { roctx::stop(fid) };
}
