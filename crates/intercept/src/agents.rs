//! Agent discovery at `OnLoad`: every CPU and GPU agent with the properties `agent_info.csv`
//! prints, queried through the HSA API (so it works on hsa-sim and on any ROCr), encoded as the
//! capture header's agent section. Cold path: allocation is fine here.

use std::ffi::c_void;

use rocprof_hsa_sys::*;
use rocprof_model::capture::{push_record, push_string_record, AgentRecord};

use crate::tables::Originals;

/// The agent section plus the handles hooks need.
#[derive(Debug, Default)]
pub struct Discovered {
    /// Encoded string + agent records.
    pub section: Vec<u8>,
    /// Handles of GPU agents.
    pub gpus: Vec<u64>,
    /// Handles of all agents.
    pub all: Vec<u64>,
    /// Number of agents.
    pub count: usize,
    /// GPUs in iteration order (their index is rocprofv3's `gpu_index`), with the geometry counter
    /// collection needs.
    pub gpu_geometry: Vec<GpuGeometry>,
    /// Handle of the first CPU agent (0 when none), whose pools hold host-visible buffers.
    pub cpu: u64,
}

/// What counter collection needs to know about a GPU agent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GpuGeometry {
    /// Agent handle.
    pub handle: u64,
    /// Target name, e.g. `gfx942`.
    pub name: String,
    /// Compute units.
    pub cu: u32,
    /// Shader engines (total).
    pub se: u32,
    /// Shader arrays per engine.
    pub sa_per_se: u32,
    /// XCCs.
    pub xcc: u32,
}

/// `gfx942` -> 90402, `gfx90a` -> 90010, `gfx1100` -> 110000 (major * 10000 + minor * 100 +
/// stepping, with the last two characters read as hex digits, the KFD encoding).
pub fn gfx_target_version(name: &str) -> u32 {
    let Some(rest) = name.strip_prefix("gfx") else {
        return 0;
    };
    let rest = rest.split(':').next().unwrap_or("");
    if rest.len() < 3 {
        return 0;
    }
    let (major, tail) = rest.split_at(rest.len() - 2);
    let Ok(major) = major.parse::<u32>() else {
        return 0;
    };
    let mut digits = tail.chars().map(|c| c.to_digit(16));
    match (digits.next().flatten(), digits.next().flatten()) {
        (Some(minor), Some(step)) => major * 10000 + minor * 100 + step,
        _ => 0,
    }
}

struct Query<'a> {
    o: &'a Originals,
    agent: hsa_agent_t,
}

impl Query<'_> {
    fn raw(&self, attr: u32, out: *mut c_void) -> bool {
        let Some(f) = self.o.agent_get_info else {
            return false;
        };
        // SAFETY: `out` points to a buffer at least as large as the attribute's documented type
        // (callers pass 64-byte buffers for strings, exact types otherwise).
        unsafe { f(self.agent, attr, out) == HSA_STATUS_SUCCESS }
    }

    fn u32(&self, attr: u32) -> u32 {
        let mut v: u32 = 0;
        if self.raw(attr, (&mut v as *mut u32).cast()) {
            v
        } else {
            0
        }
    }

    fn u64(&self, attr: u32) -> u64 {
        let mut v: u64 = 0;
        if self.raw(attr, (&mut v as *mut u64).cast()) {
            v
        } else {
            0
        }
    }

    fn string(&self, attr: u32) -> String {
        let mut buf = [0u8; 256];
        if !self.raw(attr, buf.as_mut_ptr().cast()) {
            return String::new();
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).trim().to_owned()
    }

    fn dims16(&self, attr: u32) -> [u32; 3] {
        let mut v = [0u16; 3];
        if self.raw(attr, v.as_mut_ptr().cast()) {
            [v[0].into(), v[1].into(), v[2].into()]
        } else {
            [0; 3]
        }
    }

    fn dims32(&self, attr: u32) -> [u32; 3] {
        let mut v = [0u32; 3];
        if self.raw(attr, v.as_mut_ptr().cast()) {
            v
        } else {
            [0; 3]
        }
    }

    /// (LDS bytes, global memory bytes) from the agent's memory pools.
    fn pools(&self) -> (u64, u64) {
        let (Some(iter), Some(get)) = (self.o.iterate_memory_pools, self.o.memory_pool_get_info) else {
            return (0, 0);
        };
        struct Acc {
            get: PFN_hsa_amd_memory_pool_get_info,
            lds: u64,
            global: u64,
        }
        unsafe extern "C" fn each(pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
            // SAFETY: `data` is the `Acc` passed below, alive for the iteration.
            let acc = unsafe { &mut *(data as *mut Acc) };
            let mut segment: u32 = u32::MAX;
            let mut size: usize = 0;
            // SAFETY: out-pointers of the documented types (u32 segment, size_t size).
            unsafe {
                (acc.get)(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, (&mut segment as *mut u32).cast());
                (acc.get)(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, (&mut size as *mut usize).cast());
            }
            if segment == HSA_AMD_SEGMENT_GROUP {
                acc.lds = acc.lds.max(size as u64);
            } else if segment == HSA_AMD_SEGMENT_GLOBAL {
                acc.global += size as u64;
            }
            HSA_STATUS_SUCCESS
        }
        let mut acc = Acc { get, lds: 0, global: 0 };
        // SAFETY: `each` matches the callback type and `acc` outlives the call.
        unsafe { iter(self.agent, Some(each), (&mut acc as *mut Acc).cast()) };
        (acc.lds, acc.global)
    }
}

/// The KFD topology node directory root; `ROCPROF_RS_KFD_TOPOLOGY` overrides it (tests).
fn kfd_root() -> std::path::PathBuf {
    crate::env::env().kfd_topology.clone().unwrap_or_else(|| "/sys/class/kfd/kfd/topology/nodes".into())
}

/// Fills the properties only the kernel driver knows (the KFD topology, which is where
/// rocprofiler-sdk reads every `agent_info.csv` column from) into `rec`, when node `rec.node_id`
/// exists and describes the same device: for a GPU its `gfx_target_version` must equal ours, so
/// a simulated GPU on a machine with a real one is never mixed up with it. Returns the node's
/// model name. Optional enrichment: without KFD (hsa-sim, containers) the HSA values stand.
pub fn enrich_from_kfd(root: &std::path::Path, rec: &mut AgentRecord) -> Option<String> {
    let dir = root.join(rec.node_id.to_string());
    let text = std::fs::read_to_string(dir.join("properties")).ok()?;
    let props: std::collections::HashMap<&str, u64> = text
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?, it.next()?.parse().ok()?))
        })
        .collect();
    let get = |k: &str| props.get(k).copied();
    let is_gpu = rec.agent_type == 2;
    if is_gpu && get("gfx_target_version") != Some(u64::from(rec.gfx_target_version)) {
        return None;
    }
    if !is_gpu && get("cpu_cores_count").unwrap_or(0) == 0 {
        return None;
    }
    macro_rules! set {
        ($($field:ident),*) => {$(
            if let Some(v) = get(stringify!($field)) {
                rec.$field = v as _;
            }
        )*};
    }
    set!(
        cpu_cores_count,
        simd_count,
        cpu_core_id_base,
        simd_id_base,
        max_waves_per_simd,
        lds_size_in_kb,
        gds_size_in_kb,
        num_gws,
        wave_front_size,
        array_count,
        simd_arrays_per_engine,
        cu_per_simd_array,
        simd_per_cu,
        max_slots_scratch_cu,
        vendor_id,
        device_id,
        location_id,
        domain,
        drm_render_minor,
        hive_id,
        num_sdma_engines,
        num_sdma_xgmi_engines,
        num_sdma_queues_per_engine,
        num_cp_queues,
        max_engine_clk_ccompute
    );
    if is_gpu {
        set!(max_engine_clk_fcompute, local_mem_size, capability, family_id, num_xcc);
        // rocprofiler-sdk keeps the low 10 bits of the firmware versions.
        if let Some(v) = get("fw_version") {
            rec.fw_version = (v & 0x3ff) as u32;
        }
        if let Some(v) = get("sdma_fw_version") {
            rec.sdma_fw_version = (v & 0x3ff) as u32;
        }
        if let Some(v) = std::fs::read_to_string(dir.join("gpu_id")).ok().and_then(|s| s.trim().parse().ok()) {
            rec.gpu_id = v;
        }
    }
    std::fs::read_to_string(dir.join("name")).ok().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

/// The handles of every agent, in iteration order. Cold path (`OnLoad`).
pub fn all_handles(o: &Originals) -> Vec<u64> {
    let Some(iterate) = o.iterate_agents else { return Vec::new() };
    unsafe extern "C" fn push(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the Vec passed below, alive for the iteration.
        let v = unsafe { &mut *(data as *mut Vec<u64>) };
        v.push(agent.handle);
        HSA_STATUS_SUCCESS
    }
    let mut handles: Vec<u64> = Vec::new();
    // SAFETY: `push` matches the callback type; `handles` outlives the call.
    unsafe { iterate(Some(push), (&mut handles as *mut Vec<u64>).cast()) };
    handles
}

/// Enumerates the agents. String ids are `0x8000_0000 | string_base | n` so that the sections
/// of several discoveries (one per `hsa_init` cycle) never reuse an id; agents whose handle is
/// in `skip` are left out (already recorded).
pub fn discover(o: &Originals, string_base: u32, skip: &dyn Fn(u64) -> bool) -> Discovered {
    let Some(iterate) = o.iterate_agents else {
        return Discovered::default();
    };
    unsafe extern "C" fn push(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the Vec passed below, alive for the iteration.
        let v = unsafe { &mut *(data as *mut Vec<hsa_agent_t>) };
        v.push(agent);
        HSA_STATUS_SUCCESS
    }
    let mut handles: Vec<hsa_agent_t> = Vec::new();
    // SAFETY: `push` matches the callback type; `handles` outlives the call.
    unsafe { iterate(Some(push), (&mut handles as *mut Vec<hsa_agent_t>).cast()) };

    let mut out = Discovered { count: handles.len(), ..Discovered::default() };
    let mut next_string = 1u32;
    let mut string = |section: &mut Vec<u8>, s: &str| -> u32 {
        if s.is_empty() {
            return 0;
        }
        let id = 0x8000_0000 | string_base | next_string;
        next_string += 1;
        push_string_record(section, id, s.as_bytes());
        id
    };
    let cpu_clock = handles
        .iter()
        .map(|&agent| Query { o, agent })
        .find(|q| q.u32(HSA_AGENT_INFO_DEVICE) == HSA_DEVICE_TYPE_CPU)
        .map(|q| q.u32(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY))
        .unwrap_or(0);
    let (mut ncpu, mut ngpu) = (0u32, 0u32);
    for (index, &agent) in handles.iter().enumerate() {
        let q = Query { o, agent };
        let skipped = skip(agent.handle);
        let device = q.u32(HSA_AGENT_INFO_DEVICE);
        let is_gpu = device == HSA_DEVICE_TYPE_GPU;
        let mut node_id = index as u32;
        let mut v: u32 = 0;
        if q.raw(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, (&mut v as *mut u32).cast()) {
            node_id = v;
        }
        let type_index = if is_gpu {
            ngpu += 1;
            ngpu - 1
        } else {
            ncpu += 1;
            ncpu - 1
        };
        let name = q.string(HSA_AGENT_INFO_NAME);
        let cu = q.u32(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
        if device == HSA_DEVICE_TYPE_CPU && out.cpu == 0 {
            out.cpu = agent.handle;
        }
        let simd_per_cu = q.u32(HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU);
        let se = q.u32(HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES);
        let sa_per_se = q.u32(HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE);
        let waves_per_cu = q.u32(HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU);
        let arrays = se * sa_per_se;
        if is_gpu {
            out.gpu_geometry.push(GpuGeometry {
                handle: agent.handle,
                name: name.clone(),
                cu,
                se,
                sa_per_se,
                xcc: q.u32(HSA_AMD_AGENT_INFO_NUM_XCC).max(1),
            });
        }
        let (lds, global) = if is_gpu { q.pools() } else { (0, 0) };
        let wg_dim = q.dims16(HSA_AGENT_INFO_WORKGROUP_MAX_DIM);
        let grid_dim = q.dims32(HSA_AGENT_INFO_GRID_MAX_DIM);
        let mut rec = AgentRecord {
            handle: agent.handle,
            node_id,
            logical_node_id: index as u32,
            logical_node_type_id: type_index,
            agent_type: if is_gpu {
                2
            } else if device == HSA_DEVICE_TYPE_CPU {
                1
            } else {
                0
            },
            cpu_cores_count: if is_gpu { 0 } else { cu },
            simd_count: if is_gpu { cu * simd_per_cu } else { 0 },
            max_waves_per_simd: waves_per_cu.checked_div(simd_per_cu).unwrap_or(0),
            lds_size_in_kb: (lds / 1024) as u32,
            wave_front_size: q.u32(HSA_AGENT_INFO_WAVEFRONT_SIZE),
            num_xcc: q.u32(HSA_AMD_AGENT_INFO_NUM_XCC).max(1),
            cu_count: cu,
            array_count: arrays,
            num_shader_banks: se,
            simd_arrays_per_engine: sa_per_se,
            cu_per_simd_array: cu.checked_div(arrays).unwrap_or(0),
            simd_per_cu,
            gfx_target_version: if is_gpu { gfx_target_version(&name) } else { 0 },
            vendor_id: if is_gpu { 0x1002 } else { 0 },
            device_id: if is_gpu { q.u32(HSA_AMD_AGENT_INFO_CHIP_ID) } else { 0 },
            location_id: q.u32(HSA_AMD_AGENT_INFO_BDFID),
            domain: q.u32(HSA_AMD_AGENT_INFO_DOMAIN),
            num_sdma_engines: q.u32(HSA_AMD_AGENT_INFO_NUM_SDMA_ENG),
            num_sdma_xgmi_engines: q.u32(HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG),
            max_engine_clk_ccompute: cpu_clock,
            max_engine_clk_fcompute: if is_gpu { q.u32(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY) } else { 0 },
            sdma_fw_version: q.u32(HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION),
            fw_version: q.u32(HSA_AMD_AGENT_INFO_UCODE_VERSION),
            cu_per_engine: cu.checked_div(se).unwrap_or(0),
            max_waves_per_cu: waves_per_cu,
            family_id: q.u32(HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID),
            workgroup_max_size: q.u32(HSA_AGENT_INFO_WORKGROUP_MAX_SIZE),
            workgroup_max_dim_x: wg_dim[0],
            workgroup_max_dim_y: wg_dim[1],
            workgroup_max_dim_z: wg_dim[2],
            grid_max_dim_x: grid_dim[0],
            grid_max_dim_y: grid_dim[1],
            grid_max_dim_z: grid_dim[2],
            grid_max_size: u64::from(q.u32(HSA_AGENT_INFO_GRID_MAX_SIZE)),
            local_mem_size: global,
            gpu_id: if is_gpu { q.u64(HSA_AMD_AGENT_INFO_DRIVER_UID) } else { 0 },
            name: string(&mut out.section, &name),
            vendor_name: string(&mut out.section, &q.string(HSA_AGENT_INFO_VENDOR_NAME)),
            product_name: string(&mut out.section, &q.string(HSA_AMD_AGENT_INFO_PRODUCT_NAME)),
            ..AgentRecord::default()
        };
        if skipped {
            continue;
        }
        if let Some(model) = enrich_from_kfd(&kfd_root(), &mut rec) {
            rec.model_name = string(&mut out.section, &model);
        }
        push_record(&mut out.section, &rec);
        out.all.push(agent.handle);
        if is_gpu {
            out.gpus.push(agent.handle);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kfd_topology_fills_driver_only_properties_for_the_same_device_only() {
        let root = std::env::temp_dir().join(format!("rocprof-kfd-{}", std::process::id()));
        let node = root.join("1");
        std::fs::create_dir_all(&node).unwrap();
        std::fs::write(
            node.join("properties"),
            "cpu_cores_count 0\nsimd_count 1216\nsimd_id_base 2147487744\nmax_slots_scratch_cu 32\n\
             gfx_target_version 90402\ndrm_render_minor 128\nfw_version 4294967295\nhive_id 77\n",
        )
        .unwrap();
        std::fs::write(node.join("name"), "aqua_vanjaram\n").unwrap();
        std::fs::write(node.join("gpu_id"), "4097\n").unwrap();
        let mut rec = AgentRecord { node_id: 1, agent_type: 2, gfx_target_version: 90402, ..AgentRecord::default() };
        assert_eq!(enrich_from_kfd(&root, &mut rec).as_deref(), Some("aqua_vanjaram"));
        assert_eq!((rec.simd_id_base, rec.max_slots_scratch_cu, rec.drm_render_minor), (2147487744, 32, 128));
        assert_eq!((rec.fw_version, rec.hive_id, rec.gpu_id), (0x3ff, 77, 4097));
        // A different device (the simulated gfx1100 on a machine whose node 1 is a gfx942).
        let mut other = AgentRecord { node_id: 1, agent_type: 2, gfx_target_version: 110000, ..AgentRecord::default() };
        assert_eq!(enrich_from_kfd(&root, &mut other), None);
        assert_eq!(other.simd_id_base, 0);
        // No such node.
        let mut missing = AgentRecord { node_id: 9, agent_type: 2, ..AgentRecord::default() };
        assert_eq!(enrich_from_kfd(&root, &mut missing), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn gfx_target_versions_use_the_kfd_encoding() {
        assert_eq!(gfx_target_version("gfx942"), 90402);
        assert_eq!(gfx_target_version("gfx90a"), 90010);
        assert_eq!(gfx_target_version("gfx908"), 90008);
        assert_eq!(gfx_target_version("gfx1100"), 110000);
        assert_eq!(gfx_target_version("gfx1201"), 120001);
        assert_eq!(gfx_target_version("gfx942:sramecc+:xnack-"), 90402);
        assert_eq!(gfx_target_version("AMD EPYC"), 0);
        assert_eq!(gfx_target_version("gfx"), 0);
    }
}
