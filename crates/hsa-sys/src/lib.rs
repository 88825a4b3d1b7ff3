//! `#[repr(C)]` mirrors of AMD's HSA runtime ABI, with the C names: HSA core and AMD-extension types,
//! enums and function types, AQL and AMD vendor packets, `amd_signal_t`, `amd_queue_t`, the legacy
//! kernel descriptor, the loader / PC-sampling / image / finalizer extension tables, and the
//! `HsaApiTable` tree in both the newest ROCr layout and the ROCm 5.2 layout ([`rocm_5_2`]).
//!
//! Definitions only: no functions are linked and no logic lives here. Every struct's size, alignment
//! and field offsets are checked at compile time (`layout.rs`, `api_trace.rs`) against values measured
//! with gcc on AMD's own headers, so a wrong mirror is a build error.
//!
//! Everything is re-exported at the crate root, so `rocprof_hsa_sys::hsa_queue_t` and
//! `rocprof_hsa_sys::CoreApiTable` work like the C names. A function `hsa_foo` has the type
//! `PFN_hsa_foo`; table slots are `Option<PFN_hsa_foo>` (NULL-able, as in C).
//!
//! ```
//! use rocprof_hsa_sys::*;
//! assert_eq!(core::mem::size_of::<hsa_kernel_dispatch_packet_t>(), 64);
//! assert_eq!(core::mem::offset_of!(amd_signal_t, start_ts), 32);
//! assert_eq!(core::mem::offset_of!(CoreApiTable, hsa_signal_store_screlease_fn), 0x160);
//! assert_eq!(HSA_AMD_EXT_API_TABLE_STEP_VERSION, 7);
//! assert_eq!(core::mem::size_of::<rocm_5_2::AmdExtTable>(), 400);
//! ```
#![no_std]
#![allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    missing_docs
)]
#![allow(clippy::all)]

pub use core::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};

mod amd_hsa_kernel_code;
mod amd_hsa_queue;
mod amd_hsa_signal;
mod api_trace;
mod exports;
mod hsa;
mod hsa_amd_tool;
mod hsa_ext_amd;
mod hsa_ext_finalize;
mod hsa_ext_image;
mod hsa_ven_amd_loader;
mod hsa_ven_amd_pc_sampling;
mod layout;

pub use amd_hsa_kernel_code::*;
pub use amd_hsa_queue::*;
pub use amd_hsa_signal::*;
pub use api_trace::*;
pub use exports::*;
pub use hsa::*;
pub use hsa_amd_tool::*;
pub use hsa_ext_amd::*;
pub use hsa_ext_finalize::*;
pub use hsa_ext_image::*;
pub use hsa_ven_amd_loader::*;
pub use hsa_ven_amd_pc_sampling::*;
