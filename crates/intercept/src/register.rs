//! How runtime libraries hand us their dispatch tables besides ROCr's `OnLoad`: the
//! rocprofiler-register protocol of ROCm 6.2+ (`rocprofiler_set_api_table`, exported in
//! [`crate::exports`]), also used by our own `libroctx64`. HIP ("hip", "hip_compiler") and ROCTx
//! ("roctx") tables are wrapped here; ROCr's ("hsa") goes through the same path as `OnLoad`
//! (ROCr 6.2+ registers its table both ways; a second wrap of the same table is undone by
//! `load::unwrap_ours`). Libraries we do not trace yet (rccl, rocdecode, rocjpeg) are accepted and
//! left alone.
//!
//! This runs whenever a library initialises, possibly before `OnLoad` (ROCTx on the first
//! marker, HIP 6 at its first API call): wrapping needs no capture file, and the wrappers record
//! nothing until the tool is active.

use std::ffi::CStr;

use rocprof_hsa_sys::*;

use crate::diag::Level;
use crate::{diag, hip, load, roctx};

/// `rocprofiler_set_api_table(name, lib_version, lib_instance, tables, num_tables)`: returns 0
/// (rocprofiler-register treats anything else as an error of the tool).
///
/// # Safety
/// `name` is a NUL-terminated string; `tables` holds `num_tables` pointers to the library's live
/// tables, in the layout its name implies. `face` is what the loader installs (`exports::face`).
pub unsafe fn set_api_table(
    name: *const c_char,
    lib_version: u64,
    tables: *mut *mut c_void,
    num_tables: u64,
    face: &load::Face,
) -> c_int {
    if name.is_null() || tables.is_null() || num_tables == 0 {
        return 0;
    }
    load::early_init(face);
    // SAFETY: NUL-terminated (caller's contract).
    let name = unsafe { CStr::from_ptr(name) }.to_str().unwrap_or("");
    // SAFETY: `num_tables >= 1` pointers (caller's contract).
    let first = unsafe { *tables };
    match name {
        "hip" | "hip_compiler" if hip::enabled() => {
            // SAFETY: HIP passes its live dispatch table, which starts with its size.
            let n = unsafe { hip::install_tables(first, name == "hip_compiler") };
            diag!(Level::Info, "HIP {name} table (version {lib_version}): {n} functions traced");
        }
        // SAFETY: three live ROCTx tables in the documented order (caller's contract).
        "roctx" => return unsafe { roctx::install(tables, num_tables) },
        "hsa" => {
            // SAFETY: ROCr passes its live `HsaApiTable`, as to `OnLoad`.
            unsafe { load::on_load(first as *mut HsaApiTable, face) };
        }
        _ => {}
    }
    0
}
