//! AMD tool events (scratch allocation callbacks in the tools table, AMD `hsa_amd_tool.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub type hsa_amd_event_scratch_alloc_flag_t = c_uint;
pub const HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_NONE: hsa_amd_event_scratch_alloc_flag_t = 0;
pub const HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_USE_ONCE: hsa_amd_event_scratch_alloc_flag_t = 1;
pub const HSA_AMD_EVENT_SCRATCH_ALLOC_FLAG_ALT: hsa_amd_event_scratch_alloc_flag_t = 2;

pub type hsa_amd_tool_event_kind_t = c_uint;
pub const HSA_AMD_TOOL_EVENT_MIN: hsa_amd_tool_event_kind_t = 0;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START: hsa_amd_tool_event_kind_t = 1;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END: hsa_amd_tool_event_kind_t = 2;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START: hsa_amd_tool_event_kind_t = 3;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END: hsa_amd_tool_event_kind_t = 4;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_START: hsa_amd_tool_event_kind_t = 5;
pub const HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END: hsa_amd_tool_event_kind_t = 6;
pub const HSA_AMD_TOOL_EVENT_MAX: hsa_amd_tool_event_kind_t = 7;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_tool_event_none_t {
    pub kind: hsa_amd_tool_event_kind_t,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_alloc_start_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
    pub dispatch_id: u64,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_alloc_end_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
    pub dispatch_id: u64,
    pub size: usize,
    pub num_slots: usize,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_free_start_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_free_end_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_async_reclaim_start_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_amd_event_scratch_async_reclaim_end_t {
    pub kind: hsa_amd_tool_event_kind_t,
    pub queue: *const hsa_queue_t,
    pub flags: hsa_amd_event_scratch_alloc_flag_t,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union hsa_amd_tool_event_t {
    pub none: *const hsa_amd_tool_event_none_t,
    pub scratch_alloc_start: *const hsa_amd_event_scratch_alloc_start_t,
    pub scratch_alloc_end: *const hsa_amd_event_scratch_alloc_end_t,
    pub scratch_free_start: *const hsa_amd_event_scratch_free_start_t,
    pub scratch_free_end: *const hsa_amd_event_scratch_free_end_t,
    pub scratch_async_reclaim_start: *const hsa_amd_event_scratch_async_reclaim_start_t,
    pub scratch_async_reclaim_end: *const hsa_amd_event_scratch_async_reclaim_end_t,
}

pub type hsa_amd_tool_event = Option<unsafe extern "C" fn(arg0: hsa_amd_tool_event_t) -> hsa_status_t>;

// Function types.
