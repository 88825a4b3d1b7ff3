//! Memory: pool/region allocation backed by host memory, the allocation map behind `hsa_amd_pointer_info`
//! and pool frees, fills, copies and (no-op) locking. Host and "device" memory are the same address space in
//! the simulator, which is also what an APU looks like.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Mutex;

use rocprof_hsa_sys::*;

use crate::ffi::{put, status, Status};
use crate::runtime::{lookup, lookup_gpu, lookup_pool, system};
use crate::topology::Pool;

#[derive(Debug, Clone)]
pub(crate) struct Allocation {
    pub(crate) size: usize,
    layout: Layout,
    pub(crate) pool: usize,
    pub(crate) owner: u32,
    pub(crate) user_data: usize,
    /// Agents granted access with `hsa_amd_agents_allow_access` (handles).
    pub(crate) allowed: Vec<u64>,
    pub(crate) locked: bool,
}

static ALLOCS: Mutex<BTreeMap<usize, Allocation>> = Mutex::new(BTreeMap::new());

/// Host ranges locked with `hsa_amd_memory_lock*` (base -> size): agents may access them.
static LOCKED: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

/// Every range a kernel may access through the allocation map: pool allocations and locked host memory.
pub(crate) fn kernel_visible_ranges() -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = ALLOCS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(&b, a)| (b as u64, (b + a.size) as u64))
        .collect();
    v.extend(LOCKED.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(&b, &n)| (b as u64, (b + n) as u64)));
    v
}

type DeallocFn = unsafe extern "C" fn(*mut c_void, *mut c_void);

/// `hsa_amd_register_deallocation_callback` registrations: (allocation base, callback, user data).
static DEALLOC_CALLBACKS: Mutex<Vec<(usize, DeallocFn, usize)>> = Mutex::new(Vec::new());

/// Bytes currently allocated from pools of the agent with `index`.
pub(crate) fn used_bytes(index: u32) -> u64 {
    ALLOCS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .filter(|a| a.owner == index && !a.locked)
        .map(|a| a.size as u64)
        .sum()
}

/// The allocation containing `addr` (base, record), if any.
pub(crate) fn find(addr: usize) -> Option<(usize, Allocation)> {
    let map = ALLOCS.lock().unwrap_or_else(|e| e.into_inner());
    let (base, a) = map.range(..=addr).next_back()?;
    (addr < base + a.size.max(1)).then(|| (*base, a.clone()))
}

/// Whether `[addr, addr+len)` lies inside one live allocation.
pub(crate) fn contains(addr: usize, len: usize) -> bool {
    find(addr).is_some_and(|(base, a)| addr + len <= base + a.size)
}

pub(crate) fn allocate(pool: &'static Pool, size: usize) -> Result<*mut c_void, Status> {
    if size == 0 {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    if !pool.alloc_allowed {
        return Err(HSA_STATUS_ERROR_INVALID_ALLOCATION);
    }
    if size as u64 > pool.size || used_bytes(pool.owner as u32) + size as u64 > pool.size {
        return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    }
    let granule = pool.granule.max(4096) as usize;
    let rounded = size.div_ceil(granule) * granule;
    let layout = Layout::from_size_align(rounded, granule).map_err(|_| HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { alloc_zeroed(layout) };
    if p.is_null() {
        return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    }
    ALLOCS.lock().unwrap_or_else(|e| e.into_inner()).insert(
        p as usize,
        Allocation {
            size,
            layout,
            pool: pool as *const Pool as usize,
            owner: pool.owner as u32,
            user_data: 0,
            allowed: Vec::new(),
            locked: false,
        },
    );
    Ok(p.cast())
}

pub(crate) fn free(ptr: *mut c_void) -> Result<(), Status> {
    if ptr.is_null() {
        return Ok(());
    }
    let a = {
        let mut map = ALLOCS.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&(ptr as usize)) {
            Some(a) if !a.locked => map.remove(&(ptr as usize)).expect("present"),
            _ => return Err(HSA_STATUS_ERROR_INVALID_ALLOCATION),
        }
    };
    let callbacks: Vec<(DeallocFn, usize)> = {
        let mut cbs = DEALLOC_CALLBACKS.lock().unwrap_or_else(|e| e.into_inner());
        let (mine, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut *cbs).into_iter().partition(|(p, _, _)| *p == ptr as usize);
        *cbs = rest;
        mine.into_iter().map(|(_, f, d)| (f, d)).collect()
    };
    for (f, d) in callbacks {
        // SAFETY: registered through hsa_amd_register_deallocation_callback for this allocation.
        unsafe { f(ptr, d as *mut c_void) };
    }
    // SAFETY: `ptr` came from `alloc_zeroed` with exactly this layout and was removed from the map once.
    unsafe { dealloc(ptr.cast(), a.layout) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_memory_allocate(
    region: hsa_region_t,
    size: usize,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let pool = lookup_pool(region.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_REGION)?;
        if ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let p = allocate(pool, size)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(ptr.cast(), p) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_memory_free(ptr: *mut c_void) -> hsa_status_t {
    status(|| {
        system()?;
        free(ptr)
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_pool_allocate(
    memory_pool: hsa_amd_memory_pool_t,
    size: usize,
    _flags: u32,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let pool = lookup_pool(memory_pool.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_MEMORY_POOL)?;
        if ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if crate::faults::fail("hsa_amd_memory_pool_allocate") {
            return Err(crate::faults::REFUSED);
        }
        let p = allocate(pool, size)?;
        // SAFETY: non-null out-pointer.
        unsafe { put(ptr.cast(), p) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t {
    status(|| {
        system()?;
        free(ptr)
    })
}

pub(crate) unsafe extern "C" fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t {
    status(|| {
        system()?;
        if size == 0 {
            return Ok(());
        }
        if dst.is_null() || src.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller guarantees both ranges are valid for `size` bytes; `copy` tolerates overlap.
        unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), size) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_memory_register(ptr: *mut c_void, size: usize) -> hsa_status_t {
    status(|| {
        system()?;
        if ptr.is_null() && size != 0 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_memory_deregister(_ptr: *mut c_void, _size: usize) -> hsa_status_t {
    status(|| system().map(|_| ()))
}

pub(crate) unsafe extern "C" fn hsa_memory_assign_agent(
    ptr: *mut c_void,
    agent: hsa_agent_t,
    _access: hsa_access_permission_t,
) -> hsa_status_t {
    status(|| {
        lookup(agent)?;
        if ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_agents_allow_access(
    num_agents: u32,
    agents: *const hsa_agent_t,
    _flags: *const u32,
    ptr: *const c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        if num_agents == 0 || agents.is_null() || ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let mut handles = Vec::new();
        for i in 0..num_agents as usize {
            // SAFETY: `num_agents` handles at `agents` (checked non-null).
            let h = unsafe { agents.add(i).read_unaligned() };
            lookup(h)?;
            handles.push(h.handle);
        }
        let mut map = ALLOCS.lock().unwrap_or_else(|e| e.into_inner());
        let a = map.get_mut(&(ptr as usize)).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        for h in handles {
            if !a.allowed.contains(&h) {
                a.allowed.push(h);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_fill(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t {
    status(|| {
        system()?;
        if count == 0 {
            return Ok(());
        }
        if ptr.is_null() || (ptr as usize) % 4 != 0 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller guarantees `count` dwords at the 4-byte-aligned `ptr`.
        let words = unsafe { std::slice::from_raw_parts_mut(ptr.cast::<u32>(), count) };
        words.fill(value);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_lock(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: i32,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        if host_ptr.is_null() || size == 0 || agent_ptr.is_null() || (num_agent > 0 && agents.is_null()) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer; host and agent addresses are identical in the simulator.
        unsafe { put(agent_ptr.cast(), host_ptr) };
        LOCKED.lock().unwrap_or_else(|e| e.into_inner()).insert(host_ptr as usize, size);
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_lock_to_pool(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: i32,
    pool: hsa_amd_memory_pool_t,
    _flags: u32,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t {
    status(|| {
        lookup_pool(pool.handle).map_err(|_| HSA_STATUS_ERROR_INVALID_MEMORY_POOL)?;
        // SAFETY: forwarded caller contract.
        match unsafe { hsa_amd_memory_lock(host_ptr, size, agents, num_agent, agent_ptr) } {
            HSA_STATUS_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_memory_unlock(host_ptr: *mut c_void) -> hsa_status_t {
    status(|| {
        system()?;
        if host_ptr.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        LOCKED.lock().unwrap_or_else(|e| e.into_inner()).remove(&(host_ptr as usize));
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_pointer_info(
    ptr: *const c_void,
    info: *mut hsa_amd_pointer_info_t,
    alloc: Option<unsafe extern "C" fn(arg0: usize) -> *mut c_void>,
    num_agents_accessible: *mut u32,
    accessible: *mut *mut hsa_agent_t,
) -> hsa_status_t {
    status(|| {
        let sys = system()?;
        if info.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: `info` is non-null; its `size` field says how much of the struct the caller has.
        let caller_size = unsafe { info.cast::<u32>().read_unaligned() } as usize;
        let mut out: hsa_amd_pointer_info_t = hsa_amd_pointer_info_t {
            size: caller_size.min(size_of::<hsa_amd_pointer_info_t>()) as u32,
            r#type: HSA_EXT_POINTER_TYPE_UNKNOWN,
            agentBaseAddress: std::ptr::null_mut(),
            hostBaseAddress: std::ptr::null_mut(),
            sizeInBytes: 0,
            userData: std::ptr::null_mut(),
            agentOwner: hsa_agent_t { handle: 0 },
            global_flags: 0,
        };
        let mut agents_list: Vec<hsa_agent_t> = Vec::new();
        if let Some((base, a)) = find(ptr as usize) {
            let pool = lookup_pool(a.pool as u64)?;
            let owner = sys.agents.get(a.owner as usize).copied().ok_or(HSA_STATUS_ERROR)?;
            out.r#type = HSA_EXT_POINTER_TYPE_HSA;
            out.agentBaseAddress = base as *mut c_void;
            out.hostBaseAddress = base as *mut c_void;
            out.sizeInBytes = a.size;
            out.userData = a.user_data as *mut c_void;
            out.agentOwner = owner.handle();
            out.global_flags = pool.flags;
            agents_list.push(owner.handle());
            if pool.accessible_by_all {
                agents_list = sys.agents.iter().map(|x| x.handle()).collect();
            }
            for h in a.allowed {
                if !agents_list.iter().any(|x| x.handle == h) {
                    agents_list.push(hsa_agent_t { handle: h });
                }
            }
        }
        let n = out.size as usize;
        // SAFETY: copies the first `n <= caller_size` bytes into the caller's struct.
        unsafe {
            std::ptr::copy_nonoverlapping((&out as *const hsa_amd_pointer_info_t).cast::<u8>(), info.cast::<u8>(), n)
        };
        if !num_agents_accessible.is_null() && !accessible.is_null() {
            let f = alloc.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
            // SAFETY: the caller's allocator returns memory for the agent list (or NULL).
            let mem = unsafe { f(agents_list.len() * size_of::<hsa_agent_t>()) }.cast::<hsa_agent_t>();
            if mem.is_null() && !agents_list.is_empty() {
                return Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES);
            }
            for (i, a) in agents_list.iter().enumerate() {
                // SAFETY: `mem` holds `agents_list.len()` agents.
                unsafe { mem.add(i).write_unaligned(*a) };
            }
            // SAFETY: non-null out-pointers.
            unsafe {
                put(num_agents_accessible.cast(), agents_list.len() as u32);
                put(accessible.cast(), mem);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_pointer_info_set_userdata(
    ptr: *const c_void,
    userdata: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let mut map = ALLOCS.lock().unwrap_or_else(|e| e.into_inner());
        let a = map.get_mut(&(ptr as usize)).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        a.user_data = userdata as usize;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_coherency_get_type(
    agent: hsa_agent_t,
    type_: *mut hsa_amd_coherency_type_t,
) -> hsa_status_t {
    status(|| {
        lookup_gpu(agent)?;
        if type_.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null out-pointer.
        unsafe { put(type_.cast(), HSA_AMD_COHERENCY_TYPE_COHERENT) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_coherency_set_type(
    agent: hsa_agent_t,
    type_: hsa_amd_coherency_type_t,
) -> hsa_status_t {
    status(|| {
        lookup_gpu(agent)?;
        if type_ > HSA_AMD_COHERENCY_TYPE_NONCOHERENT {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_register_deallocation_callback(
    ptr: *mut c_void,
    callback: hsa_amd_deallocation_callback_t,
    user_data: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        let f = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        if !ALLOCS.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&(ptr as usize)) {
            return Err(HSA_STATUS_ERROR_INVALID_ALLOCATION);
        }
        DEALLOC_CALLBACKS.lock().unwrap_or_else(|e| e.into_inner()).push((ptr as usize, f, user_data as usize));
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_deregister_deallocation_callback(
    ptr: *mut c_void,
    callback: hsa_amd_deallocation_callback_t,
) -> hsa_status_t {
    status(|| {
        system()?;
        let f = callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        let mut cbs = DEALLOC_CALLBACKS.lock().unwrap_or_else(|e| e.into_inner());
        let before = cbs.len();
        cbs.retain(|(p, g, _)| !(*p == ptr as usize && *g as usize == f as usize));
        if cbs.len() == before {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_register_system_event_handler(
    callback: hsa_amd_system_event_callback_t,
    _data: *mut c_void,
) -> hsa_status_t {
    status(|| {
        system()?;
        // The simulated GPUs never fault, so the handler is kept by nobody and never called.
        callback.ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_amd_agent_set_async_scratch_limit(
    agent: hsa_agent_t,
    _threshold: usize,
) -> hsa_status_t {
    status(|| lookup_gpu(agent).map(|_| ()))
}
