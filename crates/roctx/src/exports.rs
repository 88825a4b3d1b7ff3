//! The exported C functions (`include/roctx.h`): each is one call through the dispatch tables,
//! which hold either this library's defaults or a tool's wrappers.

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use rocprof_hsa_sys::*;

use crate::tables::{control, core, name, TRACER, VERSION_MAJOR, VERSION_MINOR};

/// Calls a table entry; an entry a tool cleared (NULL) behaves like the no-op default.
macro_rules! call {
    ($table:expr, $field:ident, $default:expr $(, $arg:expr)*) => {
        match $table.$field {
            // SAFETY: the entry has the C signature of the function being called and receives the
            // caller's arguments unchanged (the same contract as the exported function).
            Some(f) => unsafe { f($($arg),*) },
            None => $default,
        }
    };
}

/// `roctx_version_major`.
#[no_mangle]
pub extern "C" fn roctx_version_major() -> u32 {
    VERSION_MAJOR
}

/// `roctx_version_minor`.
#[no_mangle]
pub extern "C" fn roctx_version_minor() -> u32 {
    VERSION_MINOR
}

/// `roctxMarkA`.
///
/// # Safety
/// `message` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn roctxMarkA(message: *const c_char) {
    call!(core(), roctxMarkA_fn, (), message)
}

/// `roctxRangePushA`.
///
/// # Safety
/// `message` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn roctxRangePushA(message: *const c_char) -> c_int {
    call!(core(), roctxRangePushA_fn, 0, message)
}

/// `roctxRangePop`.
#[no_mangle]
pub extern "C" fn roctxRangePop() -> c_int {
    call!(core(), roctxRangePop_fn, -1)
}

/// `roctxRangeStartA`.
///
/// # Safety
/// `message` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn roctxRangeStartA(message: *const c_char) -> roctx_range_id_t {
    call!(core(), roctxRangeStartA_fn, 0, message)
}

/// `roctxRangeStop`.
#[no_mangle]
pub extern "C" fn roctxRangeStop(id: roctx_range_id_t) {
    call!(core(), roctxRangeStop_fn, (), id)
}

/// `roctxGetThreadId`.
///
/// # Safety
/// `tid` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn roctxGetThreadId(tid: *mut roctx_thread_id_t) -> c_int {
    call!(core(), roctxGetThreadId_fn, 0, tid)
}

/// `roctxProfilerPause`.
#[no_mangle]
pub extern "C" fn roctxProfilerPause(tid: roctx_thread_id_t) -> c_int {
    call!(control(), roctxProfilerPause_fn, 0, tid)
}

/// `roctxProfilerResume`.
#[no_mangle]
pub extern "C" fn roctxProfilerResume(tid: roctx_thread_id_t) -> c_int {
    call!(control(), roctxProfilerResume_fn, 0, tid)
}

/// `roctxNameOsThread`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn roctxNameOsThread(name_: *const c_char) -> c_int {
    call!(name(), roctxNameOsThread_fn, 0, name_)
}

/// `roctxNameHsaAgent`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `agent` NULL or an `hsa_agent_t`.
#[no_mangle]
pub unsafe extern "C" fn roctxNameHsaAgent(name_: *const c_char, agent: *const hsa_agent_t) -> c_int {
    call!(name(), roctxNameHsaAgent_fn, 0, name_, agent)
}

/// `roctxNameHipDevice`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn roctxNameHipDevice(name_: *const c_char, device_id: c_int) -> c_int {
    call!(name(), roctxNameHipDevice_fn, 0, name_, device_id)
}

/// `roctxNameHipStream`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `stream` is HIP's opaque stream pointer.
#[no_mangle]
pub unsafe extern "C" fn roctxNameHipStream(name_: *const c_char, stream: *const c_void) -> c_int {
    call!(name(), roctxNameHipStream_fn, 0, name_, stream)
}

/// roctracer's `roctxRegisterTracerCallback`: `function` (or NULL to stop) gets every marker and
/// range call of the five original functions.
#[no_mangle]
pub extern "C" fn roctxRegisterTracerCallback(function: Option<roctx_report_activity_fn_t>) {
    TRACER.store(function.map_or(std::ptr::null_mut(), |f| f as *mut c_void), Ordering::Release);
}
