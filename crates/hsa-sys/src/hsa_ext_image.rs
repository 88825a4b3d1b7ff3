//! HSA image extension types and function types (AMD `hsa_ext_image.h`).
//!
//! Generated from the newest ROCr headers (`ROCm/rocm-systems` `projects/rocr-runtime/runtime/hsa-runtime/inc`)
//! by translating declarations one to one; names are the C names. Layouts are pinned in `layout.rs`.

use crate::*;

pub const HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED: c_uint = 12288;
pub const HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED: c_uint = 12289;
pub const HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED: c_uint = 12290;
pub const HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED: c_uint = 12291;

pub const HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS: c_uint = 12288;
pub const HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS: c_uint = 12289;
pub const HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS: c_uint = 12290;
pub const HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS: c_uint = 12291;
pub const HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS: c_uint = 12292;
pub const HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS: c_uint = 12293;
pub const HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS: c_uint = 12294;
pub const HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS: c_uint = 12295;
pub const HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS: c_uint = 12296;
pub const HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES: c_uint = 12297;
pub const HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES: c_uint = 12298;
pub const HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS: c_uint = 12299;
pub const HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT: c_uint = 12300;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_ext_image_s {
    pub handle: u64,
}

pub type hsa_ext_image_t = hsa_ext_image_s;

pub type hsa_ext_image_geometry_t = c_uint;
pub const HSA_EXT_IMAGE_GEOMETRY_1D: hsa_ext_image_geometry_t = 0;
pub const HSA_EXT_IMAGE_GEOMETRY_2D: hsa_ext_image_geometry_t = 1;
pub const HSA_EXT_IMAGE_GEOMETRY_3D: hsa_ext_image_geometry_t = 2;
pub const HSA_EXT_IMAGE_GEOMETRY_1DA: hsa_ext_image_geometry_t = 3;
pub const HSA_EXT_IMAGE_GEOMETRY_2DA: hsa_ext_image_geometry_t = 4;
pub const HSA_EXT_IMAGE_GEOMETRY_1DB: hsa_ext_image_geometry_t = 5;
pub const HSA_EXT_IMAGE_GEOMETRY_2DDEPTH: hsa_ext_image_geometry_t = 6;
pub const HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: hsa_ext_image_geometry_t = 7;

pub type hsa_ext_image_channel_type_t = c_uint;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8: hsa_ext_image_channel_type_t = 0;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16: hsa_ext_image_channel_type_t = 1;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8: hsa_ext_image_channel_type_t = 2;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16: hsa_ext_image_channel_type_t = 3;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT24: hsa_ext_image_channel_type_t = 4;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555: hsa_ext_image_channel_type_t = 5;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565: hsa_ext_image_channel_type_t = 6;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010: hsa_ext_image_channel_type_t = 7;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8: hsa_ext_image_channel_type_t = 8;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16: hsa_ext_image_channel_type_t = 9;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32: hsa_ext_image_channel_type_t = 10;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8: hsa_ext_image_channel_type_t = 11;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16: hsa_ext_image_channel_type_t = 12;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32: hsa_ext_image_channel_type_t = 13;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT: hsa_ext_image_channel_type_t = 14;
pub const HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT: hsa_ext_image_channel_type_t = 15;

pub type hsa_ext_image_channel_type32_t = u32;

pub type hsa_ext_image_channel_order_t = c_uint;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_A: hsa_ext_image_channel_order_t = 0;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_R: hsa_ext_image_channel_order_t = 1;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RX: hsa_ext_image_channel_order_t = 2;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RG: hsa_ext_image_channel_order_t = 3;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RGX: hsa_ext_image_channel_order_t = 4;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RA: hsa_ext_image_channel_order_t = 5;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RGB: hsa_ext_image_channel_order_t = 6;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX: hsa_ext_image_channel_order_t = 7;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA: hsa_ext_image_channel_order_t = 8;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA: hsa_ext_image_channel_order_t = 9;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB: hsa_ext_image_channel_order_t = 10;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR: hsa_ext_image_channel_order_t = 11;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB: hsa_ext_image_channel_order_t = 12;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX: hsa_ext_image_channel_order_t = 13;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA: hsa_ext_image_channel_order_t = 14;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA: hsa_ext_image_channel_order_t = 15;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY: hsa_ext_image_channel_order_t = 16;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE: hsa_ext_image_channel_order_t = 17;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH: hsa_ext_image_channel_order_t = 18;
pub const HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL: hsa_ext_image_channel_order_t = 19;

pub type hsa_ext_image_channel_order32_t = u32;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_image_format_s {
    pub channel_type: hsa_ext_image_channel_type32_t,
    pub channel_order: hsa_ext_image_channel_order32_t,
}

pub type hsa_ext_image_format_t = hsa_ext_image_format_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_image_descriptor_s {
    pub geometry: hsa_ext_image_geometry_t,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub format: hsa_ext_image_format_t,
}

pub type hsa_ext_image_descriptor_t = hsa_ext_image_descriptor_s;

pub type hsa_ext_image_capability_t = c_uint;
pub const HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED: hsa_ext_image_capability_t = 0;
pub const HSA_EXT_IMAGE_CAPABILITY_READ_ONLY: hsa_ext_image_capability_t = 1;
pub const HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY: hsa_ext_image_capability_t = 2;
pub const HSA_EXT_IMAGE_CAPABILITY_READ_WRITE: hsa_ext_image_capability_t = 4;
pub const HSA_EXT_IMAGE_CAPABILITY_READ_MODIFY_WRITE: hsa_ext_image_capability_t = 8;
pub const HSA_EXT_IMAGE_CAPABILITY_ACCESS_INVARIANT_DATA_LAYOUT: hsa_ext_image_capability_t = 16;

pub type hsa_ext_image_data_layout_t = c_uint;
pub const HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE: hsa_ext_image_data_layout_t = 0;
pub const HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR: hsa_ext_image_data_layout_t = 1;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_image_data_info_s {
    pub size: usize,
    pub alignment: usize,
}

pub type hsa_ext_image_data_info_t = hsa_ext_image_data_info_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_image_region_s {
    pub offset: hsa_dim3_t,
    pub range: hsa_dim3_t,
}

pub type hsa_ext_image_region_t = hsa_ext_image_region_s;

#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct hsa_ext_sampler_s {
    pub handle: u64,
}

pub type hsa_ext_sampler_t = hsa_ext_sampler_s;

pub type hsa_ext_sampler_addressing_mode_t = c_uint;
pub const HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED: hsa_ext_sampler_addressing_mode_t = 0;
pub const HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: hsa_ext_sampler_addressing_mode_t = 1;
pub const HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: hsa_ext_sampler_addressing_mode_t = 2;
pub const HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT: hsa_ext_sampler_addressing_mode_t = 3;
pub const HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: hsa_ext_sampler_addressing_mode_t = 4;

pub type hsa_ext_sampler_addressing_mode32_t = u32;

pub type hsa_ext_sampler_coordinate_mode_t = c_uint;
pub const HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED: hsa_ext_sampler_coordinate_mode_t = 0;
pub const HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED: hsa_ext_sampler_coordinate_mode_t = 1;

pub type hsa_ext_sampler_coordinate_mode32_t = u32;

pub type hsa_ext_sampler_filter_mode_t = c_uint;
pub const HSA_EXT_SAMPLER_FILTER_MODE_NEAREST: hsa_ext_sampler_filter_mode_t = 0;
pub const HSA_EXT_SAMPLER_FILTER_MODE_LINEAR: hsa_ext_sampler_filter_mode_t = 1;

pub type hsa_ext_sampler_filter_mode32_t = u32;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_sampler_descriptor_s {
    pub coordinate_mode: hsa_ext_sampler_coordinate_mode32_t,
    pub filter_mode: hsa_ext_sampler_filter_mode32_t,
    pub address_mode: hsa_ext_sampler_addressing_mode32_t,
}

pub type hsa_ext_sampler_descriptor_t = hsa_ext_sampler_descriptor_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_sampler_descriptor_v2_s {
    pub coordinate_mode: hsa_ext_sampler_coordinate_mode32_t,
    pub filter_mode: hsa_ext_sampler_filter_mode32_t,
    pub address_modes: [hsa_ext_sampler_addressing_mode32_t; 3],
}

pub type hsa_ext_sampler_descriptor_v2_t = hsa_ext_sampler_descriptor_v2_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_images_1_00_pfn_s {
    pub hsa_ext_image_get_capability: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            geometry: hsa_ext_image_geometry_t,
            image_format: *const hsa_ext_image_format_t,
            capability_mask: *mut u32,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_data_get_info: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            access_permission: hsa_access_permission_t,
            image_data_info: *mut hsa_ext_image_data_info_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_create: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            image_data: *const c_void,
            access_permission: hsa_access_permission_t,
            image: *mut hsa_ext_image_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_destroy: Option<unsafe extern "C" fn(agent: hsa_agent_t, image: hsa_ext_image_t) -> hsa_status_t>,
    pub hsa_ext_image_copy: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_image: hsa_ext_image_t,
            src_offset: *const hsa_dim3_t,
            dst_image: hsa_ext_image_t,
            dst_offset: *const hsa_dim3_t,
            range: *const hsa_dim3_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_import: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_memory: *const c_void,
            src_row_pitch: usize,
            src_slice_pitch: usize,
            dst_image: hsa_ext_image_t,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_export: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_image: hsa_ext_image_t,
            dst_memory: *mut c_void,
            dst_row_pitch: usize,
            dst_slice_pitch: usize,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_clear: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image: hsa_ext_image_t,
            data: *const c_void,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_sampler_create: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            sampler_descriptor: *const hsa_ext_sampler_descriptor_t,
            sampler: *mut hsa_ext_sampler_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_sampler_destroy:
        Option<unsafe extern "C" fn(agent: hsa_agent_t, sampler: hsa_ext_sampler_t) -> hsa_status_t>,
}

pub type hsa_ext_images_1_00_pfn_t = hsa_ext_images_1_00_pfn_s;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct hsa_ext_images_1_pfn_s {
    pub hsa_ext_image_get_capability: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            geometry: hsa_ext_image_geometry_t,
            image_format: *const hsa_ext_image_format_t,
            capability_mask: *mut u32,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_data_get_info: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            access_permission: hsa_access_permission_t,
            image_data_info: *mut hsa_ext_image_data_info_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_create: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            image_data: *const c_void,
            access_permission: hsa_access_permission_t,
            image: *mut hsa_ext_image_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_destroy: Option<unsafe extern "C" fn(agent: hsa_agent_t, image: hsa_ext_image_t) -> hsa_status_t>,
    pub hsa_ext_image_copy: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_image: hsa_ext_image_t,
            src_offset: *const hsa_dim3_t,
            dst_image: hsa_ext_image_t,
            dst_offset: *const hsa_dim3_t,
            range: *const hsa_dim3_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_import: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_memory: *const c_void,
            src_row_pitch: usize,
            src_slice_pitch: usize,
            dst_image: hsa_ext_image_t,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_export: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            src_image: hsa_ext_image_t,
            dst_memory: *mut c_void,
            dst_row_pitch: usize,
            dst_slice_pitch: usize,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_clear: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image: hsa_ext_image_t,
            data: *const c_void,
            image_region: *const hsa_ext_image_region_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_sampler_create: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            sampler_descriptor: *const hsa_ext_sampler_descriptor_t,
            sampler: *mut hsa_ext_sampler_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_sampler_destroy:
        Option<unsafe extern "C" fn(agent: hsa_agent_t, sampler: hsa_ext_sampler_t) -> hsa_status_t>,
    pub hsa_ext_image_get_capability_with_layout: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            geometry: hsa_ext_image_geometry_t,
            image_format: *const hsa_ext_image_format_t,
            image_data_layout: hsa_ext_image_data_layout_t,
            capability_mask: *mut u32,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_data_get_info_with_layout: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            access_permission: hsa_access_permission_t,
            image_data_layout: hsa_ext_image_data_layout_t,
            image_data_row_pitch: usize,
            image_data_slice_pitch: usize,
            image_data_info: *mut hsa_ext_image_data_info_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_image_create_with_layout: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            image_descriptor: *const hsa_ext_image_descriptor_t,
            image_data: *const c_void,
            access_permission: hsa_access_permission_t,
            image_data_layout: hsa_ext_image_data_layout_t,
            image_data_row_pitch: usize,
            image_data_slice_pitch: usize,
            image: *mut hsa_ext_image_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ext_sampler_create_v2: Option<
        unsafe extern "C" fn(
            agent: hsa_agent_t,
            sampler_descriptor: *const hsa_ext_sampler_descriptor_v2_t,
            sampler: *mut hsa_ext_sampler_t,
        ) -> hsa_status_t,
    >,
}

pub type hsa_ext_images_1_pfn_t = hsa_ext_images_1_pfn_s;

// Function types.

/// Type of `hsa_ext_image_get_capability` (and of its `hsa_ext_image_get_capability_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_get_capability = unsafe extern "C" fn(
    agent: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    capability_mask: *mut u32,
) -> hsa_status_t;

/// Type of `hsa_ext_image_get_capability_with_layout` (and of its `hsa_ext_image_get_capability_with_layout_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_get_capability_with_layout = unsafe extern "C" fn(
    agent: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    capability_mask: *mut u32,
) -> hsa_status_t;

/// Type of `hsa_ext_image_data_get_info` (and of its `hsa_ext_image_data_get_info_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_data_get_info = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    access_permission: hsa_access_permission_t,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_data_get_info_with_layout` (and of its `hsa_ext_image_data_get_info_with_layout_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_data_get_info_with_layout = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    access_permission: hsa_access_permission_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    image_data_row_pitch: usize,
    image_data_slice_pitch: usize,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_create` (and of its `hsa_ext_image_create_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_create = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_create_with_layout` (and of its `hsa_ext_image_create_with_layout_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_create_with_layout = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    image_data_row_pitch: usize,
    image_data_slice_pitch: usize,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_destroy` (and of its `hsa_ext_image_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_destroy = unsafe extern "C" fn(agent: hsa_agent_t, image: hsa_ext_image_t) -> hsa_status_t;

/// Type of `hsa_ext_image_copy` (and of its `hsa_ext_image_copy_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_copy = unsafe extern "C" fn(
    agent: hsa_agent_t,
    src_image: hsa_ext_image_t,
    src_offset: *const hsa_dim3_t,
    dst_image: hsa_ext_image_t,
    dst_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_import` (and of its `hsa_ext_image_import_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_import = unsafe extern "C" fn(
    agent: hsa_agent_t,
    src_memory: *const c_void,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_image: hsa_ext_image_t,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_export` (and of its `hsa_ext_image_export_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_export = unsafe extern "C" fn(
    agent: hsa_agent_t,
    src_image: hsa_ext_image_t,
    dst_memory: *mut c_void,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t;

/// Type of `hsa_ext_image_clear` (and of its `hsa_ext_image_clear_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_image_clear = unsafe extern "C" fn(
    agent: hsa_agent_t,
    image: hsa_ext_image_t,
    data: *const c_void,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t;

/// Type of `hsa_ext_sampler_create` (and of its `hsa_ext_sampler_create_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_sampler_create = unsafe extern "C" fn(
    agent: hsa_agent_t,
    sampler_descriptor: *const hsa_ext_sampler_descriptor_t,
    sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t;

/// Type of `hsa_ext_sampler_create_v2` (and of its `hsa_ext_sampler_create_v2_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_sampler_create_v2 = unsafe extern "C" fn(
    agent: hsa_agent_t,
    sampler_descriptor: *const hsa_ext_sampler_descriptor_v2_t,
    sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t;

/// Type of `hsa_ext_sampler_destroy` (and of its `hsa_ext_sampler_destroy_fn` API-table slot, if it has one).
pub type PFN_hsa_ext_sampler_destroy =
    unsafe extern "C" fn(agent: hsa_agent_t, sampler: hsa_ext_sampler_t) -> hsa_status_t;
