//! The image extension's agent attributes (`HSA_EXT_AGENT_INFO_IMAGE_*`, `hsa_ext_image.h`), with the
//! values ROCr reports, and the `HSA_EXTENSION_IMAGES` bit of `HSA_AGENT_INFO_EXTENSIONS`.
//!
//! HIP (ROCclr's `Device::populateOCLDeviceConstants`) asks for these only when a GPU agent lists the
//! images extension, and only then sets its image pitch alignment (256 bytes); without them the
//! alignment stayed 0 and `hipMallocPitch`, `hipMalloc3D` and `hipMemcpy2D` failed with
//! out-of-memory on every target. ROCr lists the extension on every GPU agent (its image library is
//! built in); gfx9.4 and gfx9.5 (MI300, MI350) have no image hardware, so their dimension and
//! handle attributes are 0 (`isa_has_image_support` in ROCr's `amd_gpu_agent.cpp`). The limits are
//! ROCr's `ImageLutKv` table, which its gfx9, gfx10, gfx11 and gfx12 image managers all use. Images
//! themselves are in [`crate::images`]. ROCr does not answer
//! `HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT` on an agent (invalid argument), nor do we.

use std::ffi::c_void;

use rocprof_device::targets::GpuModel;
use rocprof_hsa_sys::*;

use crate::ffi::{put, Status};

/// ROCr's per-geometry limits: (width, height, depth, array layers), rows in `hsa_ext_image_geometry_t`
/// order (1D, 2D, 3D, 1DA, 2DA, 1DB, 2DDEPTH, 2DADEPTH).
const MAX_DIMENSIONS: [[u32; 4]; 8] = [
    [16384, 1, 1, 1],
    [16384, 16384, 1, 1],
    [16384, 16384, 8192, 1],
    [16384, 1, 1, 8192],
    [16384, 16384, 1, 8192],
    [u32::MAX, 1, 1, 1],
    [16384, 16384, 1, 1],
    [16384, 16384, 1, 8192],
];

/// Whether the target has image hardware: all but gfx9.4 and gfx9.5, as in ROCr.
pub(crate) fn has_images(model: &GpuModel) -> bool {
    !(model.name.starts_with("gfx94") || model.name.starts_with("gfx95"))
}

/// Writes the answer to one image attribute of a GPU agent (`None` for the CPU); `Ok(false)` when
/// `attribute` is not an image attribute ROCr answers.
///
/// # Safety
/// `value` points to storage of the attribute's type (`uint32_t`, or an array of 2 or 3 of them).
pub(crate) unsafe fn agent_info(gpu: Option<&GpuModel>, attribute: u32, value: *mut c_void) -> Result<bool, Status> {
    let images = gpu.is_some_and(has_images);
    let geometry = match attribute {
        HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_1D,
        HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_1DA,
        HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_1DB,
        HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_2D,
        HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS | HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS => {
            HSA_EXT_IMAGE_GEOMETRY_2DA
        }
        HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_2DDEPTH,
        HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_2DADEPTH,
        HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS => HSA_EXT_IMAGE_GEOMETRY_3D,
        HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES => {
            // SAFETY: the caller's storage holds a uint32_t (for all three handle counts).
            unsafe { put(value, if images { 128u32 } else { 0 }) };
            return Ok(true);
        }
        HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES => {
            // SAFETY: as above.
            unsafe { put(value, if images { 64u32 } else { 0 }) };
            return Ok(true);
        }
        HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS => {
            // SAFETY: as above.
            unsafe { put(value, if images { 16u32 } else { 0 }) };
            return Ok(true);
        }
        _ => return Ok(false),
    };
    let [w, h, d, layers] = MAX_DIMENSIONS[geometry as usize];
    // SAFETY: the caller's storage has the attribute's type; without image hardware ROCr writes one
    // uint32_t 0 whatever the attribute's width, and so do we.
    unsafe {
        if !images {
            put(value, 0u32);
        } else {
            match attribute {
                HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS => put(value, layers),
                HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS => put(value, [w, h, d]),
                HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS
                | HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS
                | HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS
                | HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS => put(value, [w, h]),
                _ => put(value, w),
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::hsa_agent_get_info;
    use crate::testing::*;

    /// Reads one image attribute of `model` into three u32 preset to 7.
    fn read(model: &GpuModel, attr: u32) -> [u32; 3] {
        let mut u = [7u32; 3];
        // SAFETY: `u` has room for every image attribute (at most three u32).
        assert_eq!(unsafe { agent_info(Some(model), attr, u.as_mut_ptr().cast()) }, Ok(true), "{attr:#x}");
        u
    }

    /// The values are ROCr's (`amd_gpu_agent.cpp`, `image_lut_kv.cpp`): its limits table where the ISA
    /// has images, one u32 0 on gfx9.4/gfx9.5; the pitch alignment is not an agent attribute there.
    #[test]
    fn image_attributes_are_rocrs_limits_where_the_isa_has_images_and_0_on_gfx94x_and_gfx95x() {
        for model in rocprof_device::targets::MODELS {
            let name = model.name;
            if name.starts_with("gfx94") || name.starts_with("gfx95") {
                assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS), [0, 7, 7], "{name}: one u32 0");
                assert_eq!(read(model, HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES), [0, 7, 7], "{name}");
                continue;
            }
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS), [16384, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS), [16384, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS), [u32::MAX, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS), [16384, 16384, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS), [16384, 16384, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS), [16384, 16384, 8192], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS), [8192, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES), [128, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES), [64, 7, 7], "{name}");
            assert_eq!(read(model, HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS), [16, 7, 7], "{name}");
        }
        let gfx90a = rocprof_device::targets::find("gfx90a").unwrap();
        let mut pitch = 0usize;
        // SAFETY: valid storage for a size_t.
        let answered = unsafe {
            agent_info(
                Some(gfx90a),
                HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT,
                (&mut pitch as *mut usize).cast(),
            )
        };
        assert_eq!(answered, Ok(false));
    }

    /// HIP reads the image attributes (and so sets its pitch alignment) only when the agent lists the
    /// images extension; through `hsa_agent_get_info` both are there.
    #[test]
    fn gpu_agents_list_the_images_extension_and_answer_its_attributes() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let mut ext = [0u8; 128];
        // SAFETY: the extension mask is 128 bytes.
        assert_eq!(unsafe { hsa_agent_get_info(gpu, HSA_AGENT_INFO_EXTENSIONS, ext.as_mut_ptr().cast()) }, 0);
        assert_ne!(ext[0] & (1 << HSA_EXTENSION_IMAGES), 0, "images extension listed");
        let mut samplers = 0u32;
        // SAFETY: a uint32_t attribute.
        let st = unsafe {
            hsa_agent_get_info(gpu, HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS, (&mut samplers as *mut u32).cast())
        };
        assert_eq!(st, HSA_STATUS_SUCCESS);
        shut_down();
    }
}
