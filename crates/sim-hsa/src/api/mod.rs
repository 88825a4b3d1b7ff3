//! The simulator's implementations of every API-table slot, gathered under one path so the generated
//! default tables and exports can name them `crate::api::hsa_*`, plus the helpers the implementations share
//! (status conversion with a panic barrier, typed writes into the caller's `void*`).

use std::collections::HashSet;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use rocprof_hsa_sys::*;

pub(crate) use crate::agent::*;
pub(crate) use crate::code_object::*;
pub(crate) use crate::copy::*;
pub(crate) use crate::events::*;
pub(crate) use crate::images::*;
pub(crate) use crate::intercept::*;
pub(crate) use crate::loader::*;
pub(crate) use crate::memory::*;
pub(crate) use crate::pcs::{
    hsa_ven_amd_pcs_create, hsa_ven_amd_pcs_create_from_id, hsa_ven_amd_pcs_destroy, hsa_ven_amd_pcs_flush,
    hsa_ven_amd_pcs_iterate_configuration, hsa_ven_amd_pcs_start, hsa_ven_amd_pcs_stop,
};
pub(crate) use crate::profiling::*;
pub(crate) use crate::queue::*;
pub(crate) use crate::runtime::*;
pub(crate) use crate::signal::*;
pub(crate) use crate::svm::*;
pub(crate) use crate::unsupported::*;

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

static NOTED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// Shared body of the generated stubs in `unsupported.rs`.
pub(crate) fn unsupported(name: &'static str) -> hsa_status_t {
    if !crate::runtime::is_initialized() {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    }
    let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
    if noted.get_or_insert_with(HashSet::new).insert(name) {
        crate::diag!("{name} is not supported by the simulator; returning HSA_STATUS_ERROR");
    }
    HSA_STATUS_ERROR
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Serializes unit tests that touch process-wide runtime state (ABI, refcount, environment).
    pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

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

/// In-process helpers for tests that drive the runtime through its table implementations.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// Brings the runtime up (default configuration) and returns the first GPU agent.
    pub(crate) fn init_gpu() -> hsa_agent_t {
        // A test that failed half-way may have left the runtime initialized; start from scratch so one
        // failure does not cascade into the next test.
        while crate::runtime::is_initialized() {
            // SAFETY: plain call of the runtime's own entry point.
            unsafe { hsa_shut_down() };
        }
        // SAFETY: plain calls of the runtime's own entry points.
        assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
        let sys = crate::runtime::system().expect("initialized");
        sys.agents.iter().find(|a| !a.is_cpu()).expect("a GPU agent").handle()
    }

    pub(crate) fn shut_down() {
        // SAFETY: balances `init_gpu`.
        assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
    }

    /// Writes a packet into slot `index` of `q` (body first, header last with release) and rings.
    pub(crate) fn submit(q: *mut hsa_queue_t, pkt: &[u8; 64]) -> u64 {
        // SAFETY: `q` is a live queue created by the test; the reserved slot is ours until published.
        unsafe {
            let index = hsa_queue_add_write_index_scacq_screl(q, 1);
            let base = (*q).base_address.cast::<u8>();
            let slot = base.add((index % u64::from((*q).size)) as usize * 64);
            std::ptr::copy_nonoverlapping(pkt.as_ptr().add(4), slot.add(4), 60);
            (*(slot as *const std::sync::atomic::AtomicU32))
                .store(u32::from_le_bytes(pkt[0..4].try_into().unwrap()), std::sync::atomic::Ordering::Release);
            hsa_signal_store_screlease((*q).doorbell_signal, index as i64);
            index
        }
    }

    /// A barrier-AND packet waiting for `dep` (0 = none) and completing `completion`.
    pub(crate) fn barrier_and(dep: u64, completion: u64, barrier_bit: bool) -> [u8; 64] {
        let mut p = [0u8; 64];
        let header = HSA_PACKET_TYPE_BARRIER_AND as u16 | if barrier_bit { 1 << 8 } else { 0 } | (2 << 9) | (2 << 11);
        p[0..2].copy_from_slice(&header.to_le_bytes());
        p[8..16].copy_from_slice(&dep.to_le_bytes());
        p[56..64].copy_from_slice(&completion.to_le_bytes());
        p
    }

    pub(crate) fn signal(initial: i64) -> hsa_signal_t {
        let mut s = hsa_signal_t { handle: 0 };
        // SAFETY: valid out-pointer.
        assert_eq!(unsafe { hsa_signal_create(initial, 0, std::ptr::null(), &mut s) }, HSA_STATUS_SUCCESS);
        s
    }
}
