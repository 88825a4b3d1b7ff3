//! `amd_signal_t`: the 64-byte object an `hsa_signal_t` handle points at in ROCr (AMD `amd_hsa_signal.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type amd_signal_kind64_t = i64;

pub type amd_signal_kind_t = c_int;
pub const AMD_SIGNAL_KIND_INVALID: amd_signal_kind_t = 0;
pub const AMD_SIGNAL_KIND_USER: amd_signal_kind_t = 1;
pub const AMD_SIGNAL_KIND_DOORBELL: amd_signal_kind_t = -1;
pub const AMD_SIGNAL_KIND_LEGACY_DOORBELL: amd_signal_kind_t = -2;

#[repr(C, align(64))]
#[derive(Debug, Clone, Copy)]
pub struct amd_signal_s {
    pub kind: amd_signal_kind64_t,
    /// C anonymous union of: value, hardware_doorbell_ptr (all 8 bytes)
    pub value: i64,
    pub event_mailbox_ptr: u64,
    pub event_id: u32,
    pub reserved1: u32,
    pub start_ts: u64,
    pub end_ts: u64,
    /// C anonymous union of: queue_ptr, reserved2 (all 8 bytes)
    pub queue_ptr: *mut amd_queue_v2_t,
    pub reserved3: [u32; 2],
}

pub type amd_signal_t = amd_signal_s;

// Function types.
