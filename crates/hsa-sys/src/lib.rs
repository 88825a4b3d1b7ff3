#![doc = include_str!("../README.md")]
#![no_std]
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, missing_docs)]
#![allow(clippy::all)]

pub use core::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};

mod amd_hsa_kernel_code;
mod amd_hsa_queue;
mod amd_hsa_signal;
mod api_trace;
mod exports;
mod hip_api_trace;
mod hip_prof;
mod hip_prof_6_4;
mod hsa;
mod hsa_amd_tool;
mod hsa_ext_amd;
mod hsa_ext_finalize;
mod hsa_ext_image;
mod hsa_ven_amd_loader;
mod hsa_ven_amd_pc_sampling;
mod layout;
mod roctx;

pub use amd_hsa_kernel_code::*;
pub use amd_hsa_queue::*;
pub use amd_hsa_signal::*;
pub use api_trace::*;
pub use exports::*;
pub use hip_api_trace::*;
pub use hip_prof::*;
pub use hip_prof_6_4::*;
pub use hsa::*;
pub use hsa_amd_tool::*;
pub use hsa_ext_amd::*;
pub use hsa_ext_finalize::*;
pub use hsa_ext_image::*;
pub use hsa_ven_amd_loader::*;
pub use hsa_ven_amd_pc_sampling::*;
pub use roctx::*;
