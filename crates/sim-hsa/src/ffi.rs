//! The helpers every implementation shares at the FFI boundary: status conversion with a panic barrier and
//! typed writes into the caller's `void*`. A leaf: it imports nothing of the crate but the `diag!` macro.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rocprof_hsa_sys::*;

/// An HSA status code used as an error value (`Err(HSA_STATUS_ERROR_INVALID_SIGNAL)`).
pub(crate) type Status = hsa_status_t;

/// Runs an implementation body: `Ok` becomes `HSA_STATUS_SUCCESS`, `Err(code)` that code, and a panic (our
/// bug) `HSA_STATUS_ERROR` with a note, so nothing unwinds into C.
pub(crate) fn status(f: impl FnOnce() -> Result<(), Status>) -> hsa_status_t {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => HSA_STATUS_SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => {
            crate::diag!("internal error (panic) inside an HSA call; returning HSA_STATUS_ERROR");
            HSA_STATUS_ERROR
        }
    }
}

/// Like [`status`] but for callbacks that may return `HSA_STATUS_INFO_BREAK` or other codes verbatim.
pub(crate) fn status_code(f: impl FnOnce() -> Result<hsa_status_t, Status>) -> hsa_status_t {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(code)) | Ok(Err(code)) => code,
        Err(_) => {
            crate::diag!("internal error (panic) inside an HSA call; returning HSA_STATUS_ERROR");
            HSA_STATUS_ERROR
        }
    }
}

/// Writes `v` to the caller's attribute buffer.
///
/// # Safety
/// `dst` must be valid for writes of `size_of::<T>()` bytes (alignment is not required).
pub(crate) unsafe fn put<T: Copy>(dst: *mut c_void, v: T) {
    // SAFETY: guaranteed by the caller.
    unsafe { dst.cast::<T>().write_unaligned(v) }
}

/// Writes `s` into a fixed-size C character buffer of `len` bytes, zero-padded (truncated if too long).
///
/// # Safety
/// `dst` must be valid for writes of `len` bytes.
pub(crate) unsafe fn put_chars(dst: *mut c_void, s: &str, len: usize) {
    let bytes = s.as_bytes();
    let n = bytes.len().min(len);
    // SAFETY: guaranteed by the caller; `n <= len`.
    unsafe {
        std::ptr::write_bytes(dst.cast::<u8>(), 0, len);
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.cast::<u8>(), n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_maps_results_and_panics() {
        assert_eq!(status(|| Ok(())), HSA_STATUS_SUCCESS);
        assert_eq!(status(|| Err(HSA_STATUS_ERROR_INVALID_QUEUE)), HSA_STATUS_ERROR_INVALID_QUEUE);
        assert_eq!(status(|| panic!("boom")), HSA_STATUS_ERROR);
    }

    #[test]
    fn put_chars_pads_and_truncates() {
        let mut buf = [0xffu8; 8];
        // SAFETY: buf has 8 writable bytes.
        unsafe { put_chars(buf.as_mut_ptr().cast(), "gfx942", 8) };
        assert_eq!(&buf, b"gfx942\0\0");
        // SAFETY: as above, writing only 4.
        unsafe { put_chars(buf.as_mut_ptr().cast(), "abcdefgh", 4) };
        assert_eq!(&buf[..4], b"abcd");
    }
}
