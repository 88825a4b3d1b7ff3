//! Negotiating the `HsaApiTable` layout and keeping the original functions.
//!
//! The runtime passes its live table to `OnLoad`. Every table starts with an `ApiTableVersion`
//! whose `minor_id` is the table's byte size in the runtime; an entry exists iff its offset is
//! below that size (hsa-abi.md §2.1). The core table has had the same order since ROCm 5.2. The
//! AMD extension table did not: within major 1 entries moved (§2.4), so we accept exactly two
//! shapes, major 1 with 400 bytes (ROCm 5.2 order, [`rocm_5_2::AmdExtTable`]) and major 2 of any
//! step (append-only, [`AmdExtTable`]). Any other AMD table leaves kernel tracing off rather than
//! calling through a guessed slot.

use std::mem::offset_of;

use rocprof_hsa_sys::{rocm_5_2, *};

/// Why the table could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NegotiationError {
    /// `OnLoad` got a NULL table.
    NullTable,
    /// The root table major is not 1, 2 or 3.
    UnknownRootMajor(u32),
    /// The root table is too small to hold the core and AMD pointers.
    RootTooSmall(u32),
    /// The core table is missing or has an unknown major.
    CoreUnsupported(u32),
}

impl std::fmt::Display for NegotiationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NullTable => write!(f, "the runtime passed no API table"),
            Self::UnknownRootMajor(m) => write!(f, "unknown HsaApiTable major {m}"),
            Self::RootTooSmall(s) => write!(f, "HsaApiTable of {s} bytes has no core/AMD tables"),
            Self::CoreUnsupported(m) => write!(f, "core API table major {m} is not supported"),
        }
    }
}

/// Which AMD extension table layout the runtime has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmdLayout {
    /// Major 1, 400 bytes: ROCm 5.2 order.
    Rocm52,
    /// Major 2, append-only.
    Major2,
    /// Anything else: only entries 1-16 are position-stable, which lack intercept queues.
    Unsupported {
        /// `major_id`.
        major: u32,
        /// `minor_id` (size).
        size: u32,
    },
}

/// The original functions we call, copied out of the runtime's table at `OnLoad`.
/// `None` means the runtime's table does not have the entry.
#[derive(Debug, Clone, Copy, Default)]
#[allow(missing_docs)]
pub struct Originals {
    pub root_major: u32,
    pub amd_ext_size: u32,
    pub queue_create: Option<PFN_hsa_queue_create>,
    pub queue_destroy: Option<PFN_hsa_queue_destroy>,
    pub signal_create: Option<PFN_hsa_signal_create>,
    pub signal_destroy: Option<PFN_hsa_signal_destroy>,
    pub signal_store_relaxed: Option<PFN_hsa_signal_store_relaxed>,
    pub signal_silent_store_relaxed: Option<PFN_hsa_signal_silent_store_relaxed>,
    pub signal_load_relaxed: Option<PFN_hsa_signal_load_relaxed>,
    pub signal_load_scacquire: Option<PFN_hsa_signal_load_scacquire>,
    pub signal_wait_relaxed: Option<PFN_hsa_signal_wait_relaxed>,
    pub signal_wait_scacquire: Option<PFN_hsa_signal_wait_scacquire>,
    pub amd_signal_wait_any: Option<PFN_hsa_amd_signal_wait_any>,
    pub amd_signal_wait_all: Option<PFN_hsa_amd_signal_wait_all>,
    pub signal_group_wait_any_relaxed: Option<PFN_hsa_signal_group_wait_any_relaxed>,
    pub signal_group_wait_any_scacquire: Option<PFN_hsa_signal_group_wait_any_scacquire>,
    pub iterate_agents: Option<PFN_hsa_iterate_agents>,
    pub agent_get_info: Option<PFN_hsa_agent_get_info>,
    pub system_get_info: Option<PFN_hsa_system_get_info>,
    pub system_get_major_extension_table: Option<PFN_hsa_system_get_major_extension_table>,
    pub executable_freeze: Option<PFN_hsa_executable_freeze>,
    pub executable_destroy: Option<PFN_hsa_executable_destroy>,
    pub executable_iterate_agent_symbols: Option<PFN_hsa_executable_iterate_agent_symbols>,
    pub executable_symbol_get_info: Option<PFN_hsa_executable_symbol_get_info>,
    pub intercept_create: Option<PFN_hsa_amd_queue_intercept_create>,
    pub intercept_register: Option<PFN_hsa_amd_queue_intercept_register>,
    pub set_profiler_enabled: Option<PFN_hsa_amd_profiling_set_profiler_enabled>,
    pub get_dispatch_time: Option<PFN_hsa_amd_profiling_get_dispatch_time>,
    pub signal_async_handler: Option<PFN_hsa_amd_signal_async_handler>,
    pub amd_signal_create: Option<PFN_hsa_amd_signal_create>,
    pub iterate_memory_pools: Option<PFN_hsa_amd_agent_iterate_memory_pools>,
    pub memory_pool_get_info: Option<PFN_hsa_amd_memory_pool_get_info>,
    pub memory_pool_allocate: Option<PFN_hsa_amd_memory_pool_allocate>,
    pub memory_pool_free: Option<PFN_hsa_amd_memory_pool_free>,
    pub agents_allow_access: Option<PFN_hsa_amd_agents_allow_access>,
    pub loader: Option<hsa_ven_amd_loader_1_01_pfn_t>,
    // Memory activity (see `memory`).
    pub memory_allocate: Option<PFN_hsa_memory_allocate>,
    pub memory_free: Option<PFN_hsa_memory_free>,
    pub agent_iterate_regions: Option<PFN_hsa_agent_iterate_regions>,
    pub signal_subtract_screlease: Option<PFN_hsa_signal_subtract_screlease>,
    pub profiling_async_copy_enable: Option<PFN_hsa_amd_profiling_async_copy_enable>,
    pub get_async_copy_time: Option<PFN_hsa_amd_profiling_get_async_copy_time>,
    pub memory_async_copy: Option<PFN_hsa_amd_memory_async_copy>,
    pub memory_async_copy_rect: Option<PFN_hsa_amd_memory_async_copy_rect>,
    pub memory_async_copy_on_engine: Option<PFN_hsa_amd_memory_async_copy_on_engine>,
    pub vmem_handle_create: Option<PFN_hsa_amd_vmem_handle_create>,
    pub vmem_handle_release: Option<PFN_hsa_amd_vmem_handle_release>,
    // Scratch-memory tracing (see `scratch`).
    pub queue_get_info: Option<PFN_hsa_amd_queue_get_info>,
}

impl Originals {
    /// Everything kernel-dispatch tracing needs is present.
    pub fn can_trace_kernels(&self) -> bool {
        self.queue_create.is_some()
            && self.intercept_create.is_some()
            && self.intercept_register.is_some()
            && self.set_profiler_enabled.is_some()
            && self.get_dispatch_time.is_some()
            && self.signal_async_handler.is_some()
            && self.signal_create.is_some()
            && self.signal_store_relaxed.is_some()
    }
}

/// What `OnLoad` learned about the table.
#[derive(Debug, Clone, Copy)]
pub struct Negotiated {
    /// The original functions.
    pub originals: Originals,
    /// The AMD table layout.
    pub amd_layout: AmdLayout,
    /// The live core table (we install wrappers into it).
    pub core: *mut CoreApiTable,
    /// The live AMD extension table (NULL when absent); only position-stable entries (#1-#16)
    /// are written through this newest-layout view.
    pub amd: *mut AmdExtTable,
}

/// Reads entry `$field` of table `$t` (a `*const $ty`) if the runtime's table is big enough.
macro_rules! entry {
    ($t:expr, $ty:ty, $field:ident) => {{
        let size = (*$t).version.minor_id as usize;
        if offset_of!($ty, $field) < size {
            (*$t).$field
        } else {
            None
        }
    }};
}

/// Examines the runtime's table and copies out the originals.
///
/// # Safety
/// `table` must be NULL or point to a live `HsaApiTable` whose sub-table pointers, where present
/// according to their version headers, point to live tables (the contract of `OnLoad`).
pub unsafe fn negotiate(table: *const HsaApiTable) -> Result<Negotiated, NegotiationError> {
    if table.is_null() {
        return Err(NegotiationError::NullTable);
    }
    // SAFETY: (whole body) the caller guarantees `table` and its present sub-tables are
    // live; every entry read below is bounds-checked against the sub-table's own `minor_id`.
    unsafe {
        let root = &*table;
        let major = root.version.major_id;
        if !(1..=3).contains(&major) {
            return Err(NegotiationError::UnknownRootMajor(major));
        }
        let root_size = root.version.minor_id;
        if (root_size as usize) < offset_of!(HsaApiTable, finalizer_ext_) {
            return Err(NegotiationError::RootTooSmall(root_size));
        }
        let core = root.core_;
        if core.is_null() {
            return Err(NegotiationError::CoreUnsupported(0));
        }
        let core_major = (*core).version.major_id;
        if !(1..=2).contains(&core_major) {
            return Err(NegotiationError::CoreUnsupported(core_major));
        }
        let c = core as *const CoreApiTable;
        let mut o = Originals {
            root_major: major,
            queue_create: entry!(c, CoreApiTable, hsa_queue_create_fn),
            queue_destroy: entry!(c, CoreApiTable, hsa_queue_destroy_fn),
            signal_create: entry!(c, CoreApiTable, hsa_signal_create_fn),
            signal_destroy: entry!(c, CoreApiTable, hsa_signal_destroy_fn),
            signal_store_relaxed: entry!(c, CoreApiTable, hsa_signal_store_relaxed_fn),
            signal_load_relaxed: entry!(c, CoreApiTable, hsa_signal_load_relaxed_fn),
            signal_load_scacquire: entry!(c, CoreApiTable, hsa_signal_load_scacquire_fn),
            signal_wait_relaxed: entry!(c, CoreApiTable, hsa_signal_wait_relaxed_fn),
            signal_wait_scacquire: entry!(c, CoreApiTable, hsa_signal_wait_scacquire_fn),
            signal_silent_store_relaxed: entry!(c, CoreApiTable, hsa_signal_silent_store_relaxed_fn),
            signal_group_wait_any_relaxed: entry!(c, CoreApiTable, hsa_signal_group_wait_any_relaxed_fn),
            signal_group_wait_any_scacquire: entry!(c, CoreApiTable, hsa_signal_group_wait_any_scacquire_fn),
            iterate_agents: entry!(c, CoreApiTable, hsa_iterate_agents_fn),
            agent_get_info: entry!(c, CoreApiTable, hsa_agent_get_info_fn),
            system_get_info: entry!(c, CoreApiTable, hsa_system_get_info_fn),
            system_get_major_extension_table: entry!(c, CoreApiTable, hsa_system_get_major_extension_table_fn),
            executable_freeze: entry!(c, CoreApiTable, hsa_executable_freeze_fn),
            executable_destroy: entry!(c, CoreApiTable, hsa_executable_destroy_fn),
            executable_iterate_agent_symbols: entry!(c, CoreApiTable, hsa_executable_iterate_agent_symbols_fn),
            executable_symbol_get_info: entry!(c, CoreApiTable, hsa_executable_symbol_get_info_fn),
            memory_allocate: entry!(c, CoreApiTable, hsa_memory_allocate_fn),
            memory_free: entry!(c, CoreApiTable, hsa_memory_free_fn),
            agent_iterate_regions: entry!(c, CoreApiTable, hsa_agent_iterate_regions_fn),
            signal_subtract_screlease: entry!(c, CoreApiTable, hsa_signal_subtract_screlease_fn),
            ..Originals::default()
        };
        let amd = root.amd_ext_;
        let amd_layout = if amd.is_null() {
            AmdLayout::Unsupported { major: 0, size: 0 }
        } else {
            let v = (*amd).version;
            o.amd_ext_size = v.minor_id;
            // Entry #10, position-stable in every layout.
            o.amd_signal_wait_any = entry!(amd as *const AmdExtTable, AmdExtTable, hsa_amd_signal_wait_any_fn);
            // Memory pool entries (#15, #16, #19) sit at the same offsets in every layout.
            let a = amd as *const AmdExtTable;
            o.memory_pool_allocate = entry!(a, AmdExtTable, hsa_amd_memory_pool_allocate_fn);
            o.memory_pool_free = entry!(a, AmdExtTable, hsa_amd_memory_pool_free_fn);
            o.agents_allow_access = entry!(a, AmdExtTable, hsa_amd_agents_allow_access_fn);
            // Copy profiling and the plain async copy, likewise (checked by hsa-sys's asserts:
            // offsets 40, 56 and 136 in both layouts).
            o.profiling_async_copy_enable = entry!(a, AmdExtTable, hsa_amd_profiling_async_copy_enable_fn);
            o.get_async_copy_time = entry!(a, AmdExtTable, hsa_amd_profiling_get_async_copy_time_fn);
            o.memory_async_copy = entry!(a, AmdExtTable, hsa_amd_memory_async_copy_fn);
            match (v.major_id, v.minor_id) {
                (1, 400) => {
                    let a = amd as *const rocm_5_2::AmdExtTable;
                    o.intercept_create = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_queue_intercept_create_fn);
                    o.intercept_register = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_queue_intercept_register_fn);
                    o.set_profiler_enabled =
                        entry!(a, rocm_5_2::AmdExtTable, hsa_amd_profiling_set_profiler_enabled_fn);
                    o.get_dispatch_time = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_profiling_get_dispatch_time_fn);
                    o.signal_async_handler = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_signal_async_handler_fn);
                    o.amd_signal_create = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_signal_create_fn);
                    o.iterate_memory_pools = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_agent_iterate_memory_pools_fn);
                    o.memory_pool_get_info = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_memory_pool_get_info_fn);
                    o.memory_pool_allocate = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_memory_pool_allocate_fn);
                    o.memory_pool_free = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_memory_pool_free_fn);
                    o.agents_allow_access = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_agents_allow_access_fn);
                    o.memory_async_copy_rect = entry!(a, rocm_5_2::AmdExtTable, hsa_amd_memory_async_copy_rect_fn);
                    AmdLayout::Rocm52
                }
                (2, _) => {
                    let a = amd as *const AmdExtTable;
                    o.intercept_create = entry!(a, AmdExtTable, hsa_amd_queue_intercept_create_fn);
                    o.intercept_register = entry!(a, AmdExtTable, hsa_amd_queue_intercept_register_fn);
                    o.set_profiler_enabled = entry!(a, AmdExtTable, hsa_amd_profiling_set_profiler_enabled_fn);
                    o.get_dispatch_time = entry!(a, AmdExtTable, hsa_amd_profiling_get_dispatch_time_fn);
                    o.signal_async_handler = entry!(a, AmdExtTable, hsa_amd_signal_async_handler_fn);
                    o.amd_signal_create = entry!(a, AmdExtTable, hsa_amd_signal_create_fn);
                    o.iterate_memory_pools = entry!(a, AmdExtTable, hsa_amd_agent_iterate_memory_pools_fn);
                    o.memory_pool_get_info = entry!(a, AmdExtTable, hsa_amd_memory_pool_get_info_fn);
                    o.amd_signal_wait_all = entry!(a, AmdExtTable, hsa_amd_signal_wait_all_fn);
                    o.memory_pool_allocate = entry!(a, AmdExtTable, hsa_amd_memory_pool_allocate_fn);
                    o.memory_pool_free = entry!(a, AmdExtTable, hsa_amd_memory_pool_free_fn);
                    o.agents_allow_access = entry!(a, AmdExtTable, hsa_amd_agents_allow_access_fn);
                    o.memory_async_copy_rect = entry!(a, AmdExtTable, hsa_amd_memory_async_copy_rect_fn);
                    o.memory_async_copy_on_engine = entry!(a, AmdExtTable, hsa_amd_memory_async_copy_on_engine_fn);
                    o.vmem_handle_create = entry!(a, AmdExtTable, hsa_amd_vmem_handle_create_fn);
                    o.vmem_handle_release = entry!(a, AmdExtTable, hsa_amd_vmem_handle_release_fn);
                    o.queue_get_info = entry!(a, AmdExtTable, hsa_amd_queue_get_info_fn);
                    AmdLayout::Major2
                }
                (major, size) => {
                    // Entries 1-16 are position-stable in every layout.
                    let a = amd as *const AmdExtTable;
                    o.set_profiler_enabled = entry!(a, AmdExtTable, hsa_amd_profiling_set_profiler_enabled_fn);
                    o.get_dispatch_time = entry!(a, AmdExtTable, hsa_amd_profiling_get_dispatch_time_fn);
                    o.signal_async_handler = entry!(a, AmdExtTable, hsa_amd_signal_async_handler_fn);
                    o.iterate_memory_pools = entry!(a, AmdExtTable, hsa_amd_agent_iterate_memory_pools_fn);
                    o.memory_pool_get_info = entry!(a, AmdExtTable, hsa_amd_memory_pool_get_info_fn);
                    AmdLayout::Unsupported { major, size }
                }
            }
        };
        Ok(Negotiated { originals: o, amd_layout, core, amd })
    }
}

/// The wrappers `OnLoad` installs.
#[derive(Debug, Clone, Copy)]
pub struct Wrappers {
    /// Replaces `hsa_queue_create`.
    pub queue_create: PFN_hsa_queue_create,
    /// Replaces `hsa_queue_destroy`.
    pub queue_destroy: PFN_hsa_queue_destroy,
    /// Replaces `hsa_executable_freeze`.
    pub executable_freeze: PFN_hsa_executable_freeze,
    /// Replaces `hsa_executable_destroy`.
    pub executable_destroy: PFN_hsa_executable_destroy,
    /// Replaces `hsa_signal_load_relaxed`.
    pub signal_load_relaxed: PFN_hsa_signal_load_relaxed,
    /// Replaces `hsa_signal_load_scacquire` (and its `_acquire` alias).
    pub signal_load_scacquire: PFN_hsa_signal_load_scacquire,
    /// Replaces `hsa_signal_wait_relaxed`.
    pub signal_wait_relaxed: PFN_hsa_signal_wait_relaxed,
    /// Replaces `hsa_signal_wait_scacquire` (and its `_acquire` alias).
    pub signal_wait_scacquire: PFN_hsa_signal_wait_scacquire,
    /// Replaces `hsa_amd_signal_wait_any`.
    pub amd_signal_wait_any: PFN_hsa_amd_signal_wait_any,
    /// Replaces `hsa_amd_signal_wait_all` (AMD table major 2 only).
    pub amd_signal_wait_all: PFN_hsa_amd_signal_wait_all,
    /// Replaces `hsa_signal_group_wait_any_relaxed`.
    pub signal_group_wait_any_relaxed: PFN_hsa_signal_group_wait_any_relaxed,
    /// Replaces `hsa_signal_group_wait_any_scacquire` (and its `_acquire` alias).
    pub signal_group_wait_any_scacquire: PFN_hsa_signal_group_wait_any_scacquire,
}

/// Installs the wrappers into the live core table, each only where the original exists.
///
/// # Safety
/// `core` and `amd` must be the live tables from [`negotiate`], writable, and not concurrently written
/// by another thread (true during `OnLoad`, which runs under the runtime's bootstrap lock).
pub unsafe fn install(core: *mut CoreApiTable, amd: *mut AmdExtTable, o: &Originals, w: &Wrappers, queues: bool) {
    // SAFETY: `core` is live and writable (caller); every written slot exists because its original
    // was read from the same slot under the size check in `negotiate`.
    unsafe {
        if queues {
            if o.queue_create.is_some() {
                (*core).hsa_queue_create_fn = Some(w.queue_create);
            }
            if o.queue_destroy.is_some() {
                (*core).hsa_queue_destroy_fn = Some(w.queue_destroy);
            }
            if o.signal_load_relaxed.is_some() {
                (*core).hsa_signal_load_relaxed_fn = Some(w.signal_load_relaxed);
            }
            if o.signal_load_scacquire.is_some() {
                (*core).hsa_signal_load_scacquire_fn = Some(w.signal_load_scacquire);
            }
            if o.signal_wait_relaxed.is_some() {
                (*core).hsa_signal_wait_relaxed_fn = Some(w.signal_wait_relaxed);
            }
            if o.signal_wait_scacquire.is_some() {
                (*core).hsa_signal_wait_scacquire_fn = Some(w.signal_wait_scacquire);
            }
            if o.signal_group_wait_any_relaxed.is_some() {
                (*core).hsa_signal_group_wait_any_relaxed_fn = Some(w.signal_group_wait_any_relaxed);
            }
            if o.signal_group_wait_any_scacquire.is_some() {
                (*core).hsa_signal_group_wait_any_scacquire_fn = Some(w.signal_group_wait_any_scacquire);
            }
            if o.amd_signal_wait_any.is_some() && !amd.is_null() {
                (*amd).hsa_amd_signal_wait_any_fn = Some(w.amd_signal_wait_any);
            }
            // Only read from a major-2 table (append-only, same offset in every step), so the
            // slot exists in the table we write.
            if o.amd_signal_wait_all.is_some() && !amd.is_null() {
                (*amd).hsa_amd_signal_wait_all_fn = Some(w.amd_signal_wait_all);
            }
        }
        if o.executable_freeze.is_some() {
            (*core).hsa_executable_freeze_fn = Some(w.executable_freeze);
        }
        if o.executable_destroy.is_some() {
            (*core).hsa_executable_destroy_fn = Some(w.executable_destroy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::MaybeUninit;

    unsafe extern "C" fn fake_intercept_create(
        _: hsa_agent_t,
        _: u32,
        _: hsa_queue_type32_t,
        _: Option<unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>,
        _: *mut c_void,
        _: u32,
        _: u32,
        _: *mut *mut hsa_queue_t,
    ) -> hsa_status_t {
        0x1234
    }

    unsafe extern "C" fn fake_wait_any(
        _: u32,
        _: *mut hsa_signal_t,
        _: *mut hsa_signal_condition_t,
        _: *mut hsa_signal_value_t,
        _: u64,
        _: hsa_wait_state_t,
        _: *mut hsa_signal_value_t,
    ) -> u32 {
        7
    }

    fn zeroed<T>() -> T {
        // SAFETY: the API tables are plain C structs of integers and nullable function pointers,
        // for which all-zero bytes are a valid value.
        unsafe { MaybeUninit::<T>::zeroed().assume_init() }
    }

    #[test]
    fn both_amd_layouts_resolve_the_intercept_entry_and_sizes_are_honoured() {
        // Newest layout.
        let mut core: CoreApiTable = zeroed();
        core.version = ApiTableVersion {
            major_id: 2,
            minor_id: std::mem::size_of::<CoreApiTable>() as u32,
            step_id: 0,
            reserved: 0,
        };
        let mut amd: AmdExtTable = zeroed();
        amd.version = ApiTableVersion { major_id: 2, minor_id: 608, step_id: 7, reserved: 0 };
        amd.hsa_amd_queue_intercept_create_fn = Some(fake_intercept_create);
        let mut root: HsaApiTable = zeroed();
        root.version = ApiTableVersion { major_id: 3, minor_id: 64, step_id: 1, reserved: 0 };
        root.core_ = &mut core;
        root.amd_ext_ = &mut amd;
        // SAFETY: all pointers refer to live locals.
        let n = unsafe { negotiate(&root) }.unwrap();
        assert_eq!(n.amd_layout, AmdLayout::Major2);
        assert!(n.originals.intercept_create.is_some());

        // 5.2 layout: the same function sits at entry 36 (offset 296) instead of 38.
        let mut amd52: rocm_5_2::AmdExtTable = zeroed();
        amd52.version = ApiTableVersion { major_id: 1, minor_id: 400, step_id: 0, reserved: 0 };
        amd52.hsa_amd_queue_intercept_create_fn = Some(fake_intercept_create);
        amd52.hsa_amd_signal_wait_any_fn = Some(fake_wait_any);
        let mut root52: rocm_5_2::HsaApiTable = zeroed();
        root52.version = ApiTableVersion { major_id: 1, minor_id: 48, step_id: 0, reserved: 0 };
        root52.core_ = &mut core;
        root52.amd_ext_ = &mut amd52;
        // SAFETY: the 5.2 root is a prefix of the newest root layout; pointers refer to live locals.
        let n = unsafe { negotiate((&root52 as *const rocm_5_2::HsaApiTable).cast()) }.unwrap();
        assert_eq!(n.amd_layout, AmdLayout::Rocm52);
        let f = n.originals.intercept_create.unwrap();
        // SAFETY: calls our fake, which ignores its arguments.
        let rc = unsafe { f(hsa_agent_t { handle: 0 }, 0, 0, None, std::ptr::null_mut(), 0, 0, std::ptr::null_mut()) };
        assert_eq!(rc, 0x1234);
        // Entry #10 sits at the same offset in both layouts and is read through either view.
        let wait_any = n.originals.amd_signal_wait_any.expect("wait_any of the 5.2 table");
        // SAFETY: calls our fake, which ignores its arguments.
        let idx = unsafe {
            wait_any(0, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), 0, 0, std::ptr::null_mut())
        };
        assert_eq!(idx, 7);

        // A major-1 table of another size: intercept entries are not trusted.
        amd52.version.minor_id = 424;
        root52.amd_ext_ = &mut amd52;
        // SAFETY: as above.
        let n = unsafe { negotiate((&root52 as *const rocm_5_2::HsaApiTable).cast()) }.unwrap();
        assert_eq!(n.amd_layout, AmdLayout::Unsupported { major: 1, size: 424 });
        assert!(n.originals.intercept_create.is_none());
        assert!(!n.originals.can_trace_kernels());

        // A core table that claims to be smaller than the queue_create slot hides that slot.
        core.hsa_queue_create_fn = None;
        core.version.minor_id = 72;
        root.core_ = &mut core;
        root.amd_ext_ = &mut amd;
        // SAFETY: as above.
        let n = unsafe { negotiate(&root) }.unwrap();
        assert!(n.originals.queue_create.is_none());
    }

    #[test]
    fn bad_roots_are_refused() {
        assert_eq!(
            // SAFETY: NULL is allowed.
            unsafe { negotiate(std::ptr::null()) }.unwrap_err(),
            NegotiationError::NullTable
        );
        let mut root: HsaApiTable = zeroed();
        root.version.major_id = 9;
        assert_eq!(
            // SAFETY: live local; the major check happens before any sub-table is read.
            unsafe { negotiate(&root) }.unwrap_err(),
            NegotiationError::UnknownRootMajor(9)
        );
        root.version = ApiTableVersion { major_id: 3, minor_id: 16, step_id: 0, reserved: 0 };
        assert_eq!(
            // SAFETY: as above.
            unsafe { negotiate(&root) }.unwrap_err(),
            NegotiationError::RootTooSmall(16)
        );
    }
}
