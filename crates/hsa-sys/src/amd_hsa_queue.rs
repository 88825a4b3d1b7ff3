//! `amd_queue_t`: the 256-byte block whose first member is the `hsa_queue_t` (AMD `amd_hsa_queue.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type amd_queue_properties32_t = u32;

pub type amd_queue_properties_t = c_uint;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_SHIFT: amd_queue_properties_t = 0;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_WIDTH: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64_WIDTH: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64: amd_queue_properties_t = 2;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_SHIFT: amd_queue_properties_t = 2;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_WIDTH: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS: amd_queue_properties_t = 4;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT: amd_queue_properties_t = 3;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_WIDTH: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING: amd_queue_properties_t = 8;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT: amd_queue_properties_t = 4;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_WIDTH: amd_queue_properties_t = 1;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE: amd_queue_properties_t = 16;
pub const AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT: amd_queue_properties_t = 5;
pub const AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH: amd_queue_properties_t = 27;
pub const AMD_QUEUE_PROPERTIES_RESERVED1: amd_queue_properties_t = 4294967264;

pub type amd_queue_capabilities32_t = u32;

pub type amd_queue_capabilities_t = c_uint;
pub const AMD_QUEUE_CAPS_CP_ASYNC_RECLAIM_SHIFT: amd_queue_capabilities_t = 0;
pub const AMD_QUEUE_CAPS_CP_ASYNC_RECLAIM_WIDTH: amd_queue_capabilities_t = 1;
pub const AMD_QUEUE_CAPS_CP_ASYNC_RECLAIM: amd_queue_capabilities_t = 1;
pub const AMD_QUEUE_CAPS_SW_ASYNC_RECLAIM_SHIFT: amd_queue_capabilities_t = 1;
pub const AMD_QUEUE_CAPS_SW_ASYNC_RECLAIM_WIDTH: amd_queue_capabilities_t = 1;
pub const AMD_QUEUE_CAPS_SW_ASYNC_RECLAIM: amd_queue_capabilities_t = 2;

#[repr(C, align(64))]
#[derive(Debug, Clone, Copy)]
pub struct amd_queue_s {
    pub hsa_queue: hsa_queue_t,
    pub caps: u32,
    pub reserved1: [u32; 3],
    pub write_dispatch_id: u64,
    pub group_segment_aperture_base_hi: u32,
    pub private_segment_aperture_base_hi: u32,
    pub max_cu_id: u32,
    pub max_wave_id: u32,
    pub max_legacy_doorbell_dispatch_id_plus_1: u64,
    pub legacy_doorbell_lock: u32,
    pub reserved2: [u32; 9],
    pub read_dispatch_id: u64,
    pub read_dispatch_id_field_base_byte_offset: u32,
    pub compute_tmpring_size: u32,
    pub scratch_resource_descriptor: [u32; 4],
    pub scratch_backing_memory_location: u64,
    pub reserved3: [u32; 2],
    pub scratch_wave64_lane_byte_size: u32,
    pub queue_properties: amd_queue_properties32_t,
    pub reserved4: [u32; 2],
    pub queue_inactive_signal: hsa_signal_t,
    pub reserved5: [u32; 14],
}

pub type amd_queue_t = amd_queue_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct scratch_last_used_index_xcc_s {
    pub main: u64,
    pub alt: u64,
}

pub type scratch_last_used_index_xcc_t = scratch_last_used_index_xcc_s;

#[repr(C, align(64))]
#[derive(Debug, Clone, Copy)]
pub struct amd_queue_v2_s {
    pub hsa_queue: hsa_queue_t,
    pub caps: u32,
    pub reserved1: [u32; 3],
    pub write_dispatch_id: u64,
    pub group_segment_aperture_base_hi: u32,
    pub private_segment_aperture_base_hi: u32,
    pub max_cu_id: u32,
    pub max_wave_id: u32,
    pub max_legacy_doorbell_dispatch_id_plus_1: u64,
    pub legacy_doorbell_lock: u32,
    pub reserved2: [u32; 9],
    pub read_dispatch_id: u64,
    pub read_dispatch_id_field_base_byte_offset: u32,
    pub compute_tmpring_size: u32,
    pub scratch_resource_descriptor: [u32; 4],
    pub scratch_backing_memory_location: u64,
    pub scratch_backing_memory_byte_size: u64,
    pub scratch_wave64_lane_byte_size: u32,
    pub queue_properties: amd_queue_properties32_t,
    pub scratch_max_use_index: u64,
    pub queue_inactive_signal: hsa_signal_t,
    pub alt_scratch_max_use_index: u64,
    pub alt_scratch_resource_descriptor: [u32; 4],
    pub alt_scratch_backing_memory_location: u64,
    pub alt_scratch_dispatch_limit_x: u32,
    pub alt_scratch_dispatch_limit_y: u32,
    pub alt_scratch_dispatch_limit_z: u32,
    pub alt_scratch_wave64_lane_byte_size: u32,
    pub alt_compute_tmpring_size: u32,
    pub reserved5: u32,
    pub scratch_last_used_index: [scratch_last_used_index_xcc_t; 128],
}

pub type amd_queue_v2_t = amd_queue_v2_s;

// Function types.
