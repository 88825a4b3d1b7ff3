//! The `*_get_info` queries and iterations on agents, memory pools (= regions), ISAs, caches and
//! wavefronts. The objects themselves are `topology`'s (built once, leaked, identified by address);
//! `runtime` validates handles against the system's lists, so garbage handles get `INVALID_AGENT` & co.

use std::ffi::c_void;

use rocprof_hsa_sys::*;

use crate::ffi::{put, put_chars, status, status_code, Status};
use crate::runtime::system;
pub(crate) use crate::runtime::{lookup, lookup_gpu, lookup_pool};
use crate::topology::{isa_of, pool_handle, AgentKind, Cache, Isa, MAX_QUEUE_PACKETS, MIN_QUEUE_PACKETS};
pub(crate) use crate::topology::{Agent, Pool};
use crate::{abi, clock};

/// The single wavefront object per wave size.
static WAVE64: u32 = 64;
static WAVE32: u32 = 32;

fn lookup_isa(h: hsa_isa_t) -> Result<&'static Isa, Status> {
    rocprof_device::targets::MODELS
        .iter()
        .map(isa_of)
        .find(|i| *i as *const Isa as u64 == h.handle)
        .ok_or(HSA_STATUS_ERROR_INVALID_ISA)
}

fn lookup_cache(h: hsa_cache_t) -> Result<&'static Cache, Status> {
    let sys = system()?;
    sys.agents
        .iter()
        .flat_map(|a| a.caches.iter().copied())
        .find(|c| *c as *const Cache as u64 == h.handle)
        .ok_or(HSA_STATUS_ERROR_INVALID_CACHE)
}

pub(crate) unsafe extern "C" fn hsa_iterate_agents(
    callback: Option<unsafe extern "C" fn(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let sys = system()?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for a in &sys.agents {
            // SAFETY: calls the application's callback with its own data pointer.
            let r = unsafe { cb(a.handle(), data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

/// Attributes added after ROCm 5.2; the 5.2 ABI answers them with `INVALID_ARGUMENT`.
fn newer_than_5_2(attr: u32) -> bool {
    (0xA015..=0xA016).contains(&attr) || attr >= 0xA107
}

pub(crate) unsafe extern "C" fn hsa_agent_get_info(
    agent: hsa_agent_t,
    attribute: hsa_agent_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        let a = lookup(agent)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if abi::abi_is_5_2() && newer_than_5_2(attribute) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's documented type at `value`.
        unsafe { agent_info(a, attribute, value) }
    })
}

unsafe fn agent_info(a: &'static Agent, attribute: u32, value: *mut c_void) -> Result<(), Status> {
    let gpu = a.gpu();
    let cpu_cores = match a.kind {
        AgentKind::Cpu { cores } => cores,
        AgentKind::Gpu(_) => 0,
    };
    let sys = system()?;
    // SAFETY: guaranteed by the caller of `agent_info` (covers every arm below).
    unsafe {
        match attribute {
            HSA_AGENT_INFO_NAME => put_chars(value, &a.name(), 64),
            HSA_AGENT_INFO_VENDOR_NAME => put_chars(value, if gpu.is_some() { "AMD" } else { "CPU" }, 64),
            HSA_AGENT_INFO_FEATURE => put(value, if gpu.is_some() { HSA_AGENT_FEATURE_KERNEL_DISPATCH } else { 0 }),
            HSA_AGENT_INFO_MACHINE_MODEL => put(value, HSA_MACHINE_MODEL_LARGE),
            HSA_AGENT_INFO_PROFILE => put(value, if gpu.is_some() { HSA_PROFILE_BASE } else { HSA_PROFILE_FULL }),
            HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE => put(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR),
            HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => {
                put(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
            }
            HSA_AGENT_INFO_FAST_F16_OPERATION => put(value, gpu.is_some()),
            HSA_AGENT_INFO_WAVEFRONT_SIZE => put(value, gpu.map_or(0u32, |m| m.wavefront_size)),
            HSA_AGENT_INFO_WORKGROUP_MAX_DIM => put(value, if gpu.is_some() { [1024u16; 3] } else { [0u16; 3] }),
            HSA_AGENT_INFO_WORKGROUP_MAX_SIZE => put(value, if gpu.is_some() { 1024u32 } else { 0 }),
            HSA_AGENT_INFO_GRID_MAX_DIM => put(
                value,
                if gpu.is_some() {
                    hsa_dim3_t { x: i32::MAX as u32, y: 65535, z: 65535 }
                } else {
                    hsa_dim3_t { x: 0, y: 0, z: 0 }
                },
            ),
            HSA_AGENT_INFO_GRID_MAX_SIZE => put(value, if gpu.is_some() { u32::MAX } else { 0 }),
            HSA_AGENT_INFO_FBARRIER_MAX_SIZE => put(value, if gpu.is_some() { 32u32 } else { 0 }),
            HSA_AGENT_INFO_QUEUES_MAX => put(value, if gpu.is_some() { 128u32 } else { 0 }),
            HSA_AGENT_INFO_QUEUE_MIN_SIZE => put(value, if gpu.is_some() { MIN_QUEUE_PACKETS } else { 0 }),
            HSA_AGENT_INFO_QUEUE_MAX_SIZE => put(value, if gpu.is_some() { MAX_QUEUE_PACKETS } else { 0 }),
            HSA_AGENT_INFO_QUEUE_TYPE => put(value, HSA_QUEUE_TYPE_MULTI),
            HSA_AGENT_INFO_NODE => put(value, a.index),
            HSA_AGENT_INFO_DEVICE => put(value, if gpu.is_some() { HSA_DEVICE_TYPE_GPU } else { HSA_DEVICE_TYPE_CPU }),
            HSA_AGENT_INFO_CACHE_SIZE => {
                let mut sizes = [0u32; 4];
                for c in &a.caches {
                    sizes[(c.level as usize - 1).min(3)] = c.size;
                }
                put(value, sizes)
            }
            HSA_AGENT_INFO_ISA => match a.isa {
                Some(i) => put(value, hsa_isa_t { handle: i as *const Isa as u64 }),
                None => return Err(HSA_STATUS_ERROR_INVALID_AGENT),
            },
            HSA_AGENT_INFO_EXTENSIONS => {
                let mut mask = [0u8; 128];
                if gpu.is_some() {
                    // ROCr lists the images extension on every GPU (`image_info`).
                    for ext in [HSA_EXTENSION_IMAGES, HSA_EXTENSION_AMD_PROFILER, HSA_EXTENSION_AMD_LOADER] {
                        mask[(ext / 8) as usize] |= 1 << (ext % 8);
                    }
                }
                put(value, mask)
            }
            HSA_AGENT_INFO_VERSION_MAJOR => put(value, 1u16),
            HSA_AGENT_INFO_VERSION_MINOR => put(value, 1u16),
            HSA_AMD_AGENT_INFO_CHIP_ID => put(value, gpu.map_or(0u32, |m| m.chip_id)),
            HSA_AMD_AGENT_INFO_CACHELINE_SIZE => put(value, gpu.map_or(64u32, |m| m.cacheline_bytes)),
            HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT => put(value, gpu.map_or(cpu_cores, |m| m.compute_units)),
            HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY => put(value, gpu.map_or(3000u32, |m| m.max_clock_mhz)),
            HSA_AMD_AGENT_INFO_DRIVER_NODE_ID => put(value, a.index),
            HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS => put(value, if gpu.is_some() { 4u32 } else { 0 }),
            // ROCr writes a u32; the PCI location is made up but unique per agent (bus = index).
            HSA_AMD_AGENT_INFO_BDFID => put(value, if gpu.is_some() { a.index << 8 } else { 0u32 }),
            HSA_AMD_AGENT_INFO_MEMORY_WIDTH => put(value, gpu.map_or(64u32, |m| m.memory_width_bits)),
            HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY => put(value, gpu.map_or(3200u32, |m| m.memory_clock_mhz)),
            HSA_AMD_AGENT_INFO_PRODUCT_NAME => {
                put_chars(value, &gpu.map_or_else(|| a.name(), |m| m.product.to_string()), 64)
            }
            HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU => put(value, gpu.map_or(0u32, |m| m.max_waves_per_cu())),
            HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU => put(value, gpu.map_or(0u32, |m| m.simds_per_cu)),
            HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES => put(value, gpu.map_or(0u32, |m| m.shader_engines)),
            HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE => put(value, gpu.map_or(0u32, |m| m.shader_arrays_per_se)),
            HSA_AMD_AGENT_INFO_HDP_FLUSH => put(value, [0u64; 2]),
            HSA_AMD_AGENT_INFO_DOMAIN => put(value, 0u32),
            // ROCr: true when the GPU has global wave sync (every GCN/CDNA/RDNA GPU it supports); HIP then
            // allows `hipLaunchCooperativeKernel`, whose queue hsa-sim runs with every workgroup resident.
            HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES => put(value, gpu.is_some()),
            HSA_AMD_AGENT_INFO_UUID => {
                let s = match gpu {
                    Some(m) => format!("GPU-{:08x}{:08x}", m.chip_id, a.index),
                    None => "CPU-XX".to_string(),
                };
                put_chars(value, &s, s.len() + 1)
            }
            HSA_AMD_AGENT_INFO_ASIC_REVISION => put(value, if gpu.is_some() { 1u32 } else { 0 }),
            HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS => put(value, true),
            HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT => put(value, gpu.map_or(0u32, |m| m.compute_units)),
            HSA_AMD_AGENT_INFO_MEMORY_AVAIL => {
                put(value, a.pools.first().map_or(0u64, |p| p.size.saturating_sub(crate::memory::used_bytes(a.index))))
            }
            HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY => put(value, clock::GPU_TICK_HZ),
            HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID => put(value, gpu.map_or(0u32, |m| m.family_id)),
            HSA_AMD_AGENT_INFO_UCODE_VERSION => put(value, if gpu.is_some() { 100u32 } else { 0 }),
            HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION => put(value, if gpu.is_some() { 20u32 } else { 0 }),
            HSA_AMD_AGENT_INFO_NUM_SDMA_ENG => put(value, gpu.map_or(0u32, |m| m.sdma_engines)),
            HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG => put(value, gpu.map_or(0u32, |m| m.sdma_xgmi_engines)),
            HSA_AMD_AGENT_INFO_IOMMU_SUPPORT => put(value, HSA_IOMMU_SUPPORT_NONE),
            HSA_AMD_AGENT_INFO_NUM_XCC => put(value, gpu.map_or(0u32, |m| m.xccs)),
            HSA_AMD_AGENT_INFO_DRIVER_UID => put(value, 0x1000 + a.index),
            HSA_AMD_AGENT_INFO_NEAREST_CPU => put(value, sys.cpu().handle()),
            HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES => put(value, [0u8; 8]),
            HSA_AMD_AGENT_INFO_AQL_EXTENSIONS => put(value, [0u8; 8]),
            HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX => put(value, if gpu.is_some() { 1u64 << 32 } else { 0 }),
            HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT => put(value, if gpu.is_some() { 1u64 << 30 } else { 0 }),
            // SAFETY: as above (the image attributes' types are documented with them).
            other => {
                if !crate::image_info::agent_info(gpu, other, value)? {
                    return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
                }
            }
        }
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_agent_iterate_regions(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(region: hsa_region_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let a = lookup(agent)?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        // A GPU sees its own regions followed by the system (CPU) regions, as in ROCr.
        let mut regions: Vec<&'static Pool> = a.pools.clone();
        if !a.is_cpu() {
            regions.extend(system()?.cpu().pools.iter().copied());
        }
        for p in regions {
            // SAFETY: application callback with its own data.
            let r = unsafe { cb(hsa_region_t { handle: pool_handle(p) }, data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_region_get_info(
    region: hsa_region_t,
    attribute: hsa_region_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        let p = lookup_pool(region.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_REGION)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let kernarg = p.flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT != 0;
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_REGION_INFO_SEGMENT => put(
                    value,
                    if p.segment == HSA_AMD_SEGMENT_GROUP {
                        HSA_REGION_SEGMENT_GROUP
                    } else {
                        HSA_REGION_SEGMENT_GLOBAL
                    },
                ),
                HSA_REGION_INFO_GLOBAL_FLAGS => put(value, p.flags & 7),
                HSA_REGION_INFO_SIZE => put(value, p.size as usize),
                HSA_REGION_INFO_ALLOC_MAX_SIZE => put(value, if p.alloc_allowed { p.size as usize } else { 0usize }),
                HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE => put(value, 0u32),
                HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED => put(value, p.alloc_allowed),
                HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE => put(value, p.granule as usize),
                HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT => put(value, p.alignment as usize),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        let _ = kernarg;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_agent_iterate_memory_pools(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(memory_pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let a = lookup(agent)?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for p in &a.pools {
            // SAFETY: application callback with its own data.
            let r = unsafe { cb(hsa_amd_memory_pool_t { handle: pool_handle(p) }, data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_pool_get_info(
    memory_pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        let p = lookup_pool(memory_pool.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_MEMORY_POOL)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if abi::abi_is_5_2() && attribute >= HSA_AMD_MEMORY_POOL_INFO_LOCATION {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_AMD_MEMORY_POOL_INFO_SEGMENT => put(value, p.segment),
                HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS => put(value, p.flags),
                HSA_AMD_MEMORY_POOL_INFO_SIZE => put(value, p.size as usize),
                HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED => put(value, p.alloc_allowed),
                HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE => put(value, p.granule as usize),
                HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT => put(value, p.alignment as usize),
                HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL => put(value, p.accessible_by_all),
                HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE => {
                    put(value, if p.alloc_allowed { p.size as usize } else { 0usize })
                }
                HSA_AMD_MEMORY_POOL_INFO_LOCATION => put(
                    value,
                    if p.location_gpu { HSA_AMD_MEMORY_POOL_LOCATION_GPU } else { HSA_AMD_MEMORY_POOL_LOCATION_CPU },
                ),
                HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE => {
                    put(value, if p.alloc_allowed { 2usize << 20 } else { 0 })
                }
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_agent_memory_pool_get_info(
    agent: hsa_agent_t,
    memory_pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_agent_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        let a = lookup(agent)?;
        let p = lookup_pool(memory_pool.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_MEMORY_POOL)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let own = p.owner == a.index as usize;
        let access = if p.segment == HSA_AMD_SEGMENT_GROUP && !own {
            HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED
        } else if own || p.accessible_by_all {
            HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
        } else {
            HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT
        };
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS => put(value, access),
                HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS => put(value, if own { 0u32 } else { 1 }),
                HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO => {
                    if !own {
                        let mut info: hsa_amd_memory_pool_link_info_t = std::mem::zeroed();
                        info.link_type = HSA_AMD_LINK_INFO_TYPE_PCIE;
                        info.numa_distance = 20;
                        info.min_bandwidth = 16_000;
                        info.max_bandwidth = 32_000;
                        // A PCIe link with atomics (PCIe 3.0 AtomicOps, as on the hosts ROCm supports):
                        // ROCclr's hostcall (device printf) requires it for the system pool.
                        info.atomic_support_32bit = true;
                        info.atomic_support_64bit = true;
                        info.coherent_support = true;
                        put(value, info);
                    }
                }
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_agent_iterate_isas(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(isa: hsa_isa_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let a = lookup(agent)?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        if let Some(i) = a.isa {
            // SAFETY: application callback with its own data.
            return Ok(unsafe { cb(hsa_isa_t { handle: i as *const Isa as u64 }, data) });
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

unsafe fn isa_info(i: &Isa, attribute: u32, value: *mut c_void) -> Result<(), Status> {
    let m = i.model;
    // SAFETY: the caller provides storage of the attribute's type (covers every arm below).
    unsafe {
        match attribute {
            HSA_ISA_INFO_NAME_LENGTH => put(value, m.isa.len() as u32 + 1),
            HSA_ISA_INFO_NAME => put_chars(value, m.isa, m.isa.len() + 1),
            HSA_ISA_INFO_CALL_CONVENTION_COUNT => put(value, 1u32),
            HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE => put(value, m.wavefront_size),
            HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT => put(value, m.max_waves_per_cu()),
            HSA_ISA_INFO_MACHINE_MODELS => put(value, [false, true]),
            HSA_ISA_INFO_PROFILES => put(value, [true, false]),
            HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES => put(value, [false, false, true]),
            HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => put(value, [false, false, true]),
            HSA_ISA_INFO_FAST_F16_OPERATION => put(value, true),
            HSA_ISA_INFO_WORKGROUP_MAX_DIM => put(value, [1024u16; 3]),
            HSA_ISA_INFO_WORKGROUP_MAX_SIZE => put(value, 1024u32),
            HSA_ISA_INFO_GRID_MAX_DIM => put(value, hsa_dim3_t { x: i32::MAX as u32, y: 65535, z: 65535 }),
            HSA_ISA_INFO_GRID_MAX_SIZE => put(value, u64::from(u32::MAX)),
            HSA_ISA_INFO_FBARRIER_MAX_SIZE => put(value, 32u32),
            _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
        }
    }
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_isa_get_info_alt(
    isa: hsa_isa_t,
    attribute: hsa_isa_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let i = lookup_isa(isa)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: forwarded caller contract.
        unsafe { isa_info(i, attribute, value) }
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_get_info(
    isa: hsa_isa_t,
    attribute: hsa_isa_info_t,
    index: u32,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let i = lookup_isa(isa)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if index != 0 {
            return Err(HSA_STATUS_ERROR_INVALID_INDEX);
        }
        // SAFETY: forwarded caller contract.
        unsafe { isa_info(i, attribute, value) }
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_from_name(name: *const std::ffi::c_char, isa: *mut hsa_isa_t) -> hsa_status_t {
    status(|| {
        system()?;
        if name.is_null() || isa.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller passes a NUL-terminated string.
        let n = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned();
        let m = rocprof_device::targets::MODELS
            .iter()
            .find(|m| {
                m.isa == n || n.strip_prefix("amdgcn-amd-amdhsa--").is_some_and(|t| t.split(':').next() == Some(m.name))
            })
            .ok_or(HSA_STATUS_ERROR_INVALID_ISA_NAME)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(isa.cast(), hsa_isa_t { handle: isa_of(m) as *const Isa as u64 }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_compatible(
    code_object_isa: hsa_isa_t,
    agent_isa: hsa_isa_t,
    result: *mut bool,
) -> hsa_status_t {
    status(|| {
        system()?;
        let a = lookup_isa(code_object_isa)?;
        let b = lookup_isa(agent_isa)?;
        if result.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(result.cast(), std::ptr::eq(a, b)) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_iterate_wavefronts(
    isa: hsa_isa_t,
    callback: Option<unsafe extern "C" fn(wavefront: hsa_wavefront_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        system()?;
        let i = lookup_isa(isa)?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        let w: &'static u32 = if i.model.wavefront_size == 64 { &WAVE64 } else { &WAVE32 };
        // SAFETY: application callback with its own data.
        Ok(unsafe { cb(hsa_wavefront_t { handle: w as *const u32 as u64 }, data) })
    })
}

pub(crate) unsafe extern "C" fn hsa_wavefront_get_info(
    wavefront: hsa_wavefront_t,
    attribute: hsa_wavefront_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let size = if wavefront.handle == &WAVE64 as *const u32 as u64 {
            64u32
        } else if wavefront.handle == &WAVE32 as *const u32 as u64 {
            32
        } else {
            return Err(HSA_STATUS_ERROR_INVALID_WAVEFRONT);
        };
        if value.is_null() || attribute != HSA_WAVEFRONT_INFO_SIZE {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer of type u32.
        unsafe { put(value, size) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_agent_iterate_caches(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(cache: hsa_cache_t, data: *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    status_code(|| {
        let a = lookup(agent)?;
        let cb = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for c in &a.caches {
            // SAFETY: application callback with its own data.
            let r = unsafe { cb(hsa_cache_t { handle: *c as *const Cache as u64 }, data) };
            if r != HSA_STATUS_SUCCESS {
                return Ok(r);
            }
        }
        Ok(HSA_STATUS_SUCCESS)
    })
}

pub(crate) unsafe extern "C" fn hsa_cache_get_info(
    cache: hsa_cache_t,
    attribute: hsa_cache_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    status(|| {
        let c = lookup_cache(cache)?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's type.
        unsafe {
            match attribute {
                HSA_CACHE_INFO_NAME_LENGTH => put(value, c.name.len() as u32),
                HSA_CACHE_INFO_NAME => put_chars(value, c.name, c.name.len()),
                HSA_CACHE_INFO_LEVEL => put(value, c.level),
                HSA_CACHE_INFO_SIZE => put(value, c.size),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_agent_extension_supported(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t {
    status(|| {
        let a = lookup(agent)?;
        if result.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ext = u32::from(extension);
        let ok = !a.is_cpu()
            && (ext == HSA_EXTENSION_AMD_PROFILER || ext == HSA_EXTENSION_AMD_LOADER)
            && version_major == 1
            && version_minor == 0;
        // SAFETY: non-null out-pointer.
        unsafe { put(result.cast(), ok) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_agent_major_extension_supported(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t {
    status(|| {
        let a = lookup(agent)?;
        if result.is_null() || version_minor.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ext = u32::from(extension);
        let ok =
            !a.is_cpu() && (ext == HSA_EXTENSION_AMD_PROFILER || ext == HSA_EXTENSION_AMD_LOADER) && version_major == 1;
        // SAFETY: non-null out-pointers.
        unsafe {
            put(result.cast(), ok);
            put(version_minor.cast(), 0u16);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_agent_get_exception_policies(
    agent: hsa_agent_t,
    _profile: hsa_profile_t,
    mask: *mut u16,
) -> hsa_status_t {
    status(|| {
        lookup(agent)?;
        if mask.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(mask.cast(), 0u16) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_get_exception_policies(
    isa: hsa_isa_t,
    _profile: hsa_profile_t,
    mask: *mut u16,
) -> hsa_status_t {
    status(|| {
        system()?;
        lookup_isa(isa)?;
        if mask.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(mask.cast(), 0u16) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_isa_get_round_method(
    isa: hsa_isa_t,
    _fp_type: hsa_fp_type_t,
    _flush_mode: hsa_flush_mode_t,
    round_method: *mut hsa_round_method_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        lookup_isa(isa)?;
        if round_method.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(round_method.cast(), HSA_ROUND_METHOD_SINGLE) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_cpu_then_gpus_with_pools() {
        let agents = crate::topology::build_agents(&[
            rocprof_device::targets::find("gfx942").unwrap(),
            rocprof_device::targets::find("gfx1100").unwrap(),
        ]);
        assert_eq!(agents.len(), 3);
        assert!(agents[0].is_cpu());
        assert_eq!(agents[1].name(), "gfx942");
        assert_eq!(agents[2].name(), "gfx1100");
        assert_eq!(agents[0].pools[0].flags, 3, "first CPU pool is the kernarg pool");
        assert_eq!(agents[1].pools.len(), 3);
        assert_eq!(agents[1].pools[2].segment, HSA_AMD_SEGMENT_GROUP);
        assert_ne!(agents[1].tick_offset, agents[2].tick_offset);
        assert_eq!(agents[2].caches.len(), 3);
    }

    /// HIP (ROCclr's `checkAtomicSupport`) enables hostcall, and so device `printf`, only when the GPU's
    /// link to the CPU's fine-grained pool reports 32- or 64-bit atomics (`hsa_amd_memory_pool_link_info_t`,
    /// one hop); the GPU's own pool is zero hops away.
    #[test]
    fn the_link_from_a_gpu_to_system_memory_supports_atomics() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = crate::testing::init_gpu();
        let sys = system().expect("initialized");
        let cpu = sys.agents.iter().find(|a| a.is_cpu()).expect("a CPU agent");
        let fine = cpu
            .pools
            .iter()
            .find(|p| {
                p.segment == HSA_AMD_SEGMENT_GLOBAL && p.flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED != 0
            })
            .expect("fine-grained");
        let pool = hsa_amd_memory_pool_t { handle: pool_handle(fine) };
        let mut hops = 7u32;
        // SAFETY: a uint32_t attribute.
        let st = unsafe {
            hsa_amd_agent_memory_pool_get_info(
                gpu,
                pool,
                HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS,
                (&mut hops as *mut u32).cast(),
            )
        };
        assert_eq!((st, hops), (HSA_STATUS_SUCCESS, 1));
        // SAFETY: zeroed plain-data struct.
        let mut info: hsa_amd_memory_pool_link_info_t = unsafe { std::mem::zeroed() };
        // SAFETY: storage for one link (one hop).
        let st = unsafe {
            hsa_amd_agent_memory_pool_get_info(
                gpu,
                pool,
                HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO,
                (&mut info as *mut hsa_amd_memory_pool_link_info_t).cast(),
            )
        };
        assert_eq!(st, HSA_STATUS_SUCCESS);
        assert_eq!(info.link_type, HSA_AMD_LINK_INFO_TYPE_PCIE);
        assert!(info.atomic_support_32bit && info.atomic_support_64bit, "PCIe atomics");
        crate::testing::shut_down();
    }
}
