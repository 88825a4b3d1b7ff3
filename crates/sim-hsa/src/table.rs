//! The live `HsaApiTable` tree that every export jumps through and that tools receive in `OnLoad`.
//!
//! Storage for both layouts exists side by side: the newest tree (root 3/1, AmdExt 2/7, ...) and the ROCm 5.2
//! tree (root 1 with four pointers, AmdExt 1/400 in the 5.2 order, Image 1/120). Which one is live is decided
//! once per `hsa_init` from `ROCPROF_RS_SIM_ABI` and stored in [`ABI`]; exports of AmdExt/Image functions
//! read the slot of the active layout. Core and Finalizer tables have the same layout in both.

use std::cell::UnsafeCell;
use std::ptr;
use std::sync::OnceLock;

use rocprof_hsa_sys::*;

use crate::abi::abi_is_5_2;

/// Every table of both layouts.
pub(crate) struct Tables {
    pub(crate) root: HsaApiTable,
    pub(crate) root52: rocm_5_2::HsaApiTable,
    pub(crate) core: CoreApiTable,
    pub(crate) amd: AmdExtTable,
    pub(crate) amd52: rocm_5_2::AmdExtTable,
    pub(crate) fin: FinalizerExtTable,
    pub(crate) image: ImageExtTable,
    pub(crate) image52: rocm_5_2::ImageExtTable,
    pub(crate) tools: ToolsApiTable,
    pub(crate) pcs: PcSamplingExtTable,
}

/// The live tables. Invariant: like ROCr's table object this is shared with C code (tools) that writes slots
/// in place at any time; every slot is a pointer-sized, naturally aligned word, written whole by tools and by
/// [`reset`], and read by the runtime only with `read_volatile` through [`slot!`]. Nothing takes a Rust
/// reference to the contents.
pub(crate) struct LiveTables(UnsafeCell<Tables>);

// SAFETY: see the invariant on `LiveTables`: access is only through raw pointers with word-sized reads and
// writes, which is what the C ABI of the table demands anyway.
unsafe impl Sync for LiveTables {}

impl LiveTables {
    pub(crate) fn get(&self) -> *mut Tables {
        self.0.get()
    }
}

/// Zeroed until the first `hsa_init` resets it to the `Defaults` (`lifecycle::reset_tables`): every slot `None`, so an export
/// called before then falls back to the runtime's own implementation, which is what the reset puts there.
pub(crate) static LIVE: LiveTables = LiveTables(UnsafeCell::new(
    // SAFETY: every field of every table is an integer, a raw pointer or an `Option` of a function
    // pointer, for all of which all-zero bytes are a valid value (0, null, `None`).
    unsafe { std::mem::zeroed() },
));

/// The runtime's own tables (every slot its implementation) and the extension tables
/// `hsa_system_get_major_extension_table` hands out (the exported trampolines): the face's
/// `table_default.rs` (generated) hands them over when the library is loaded, so nothing below the
/// face names an implementation or a trampoline to reset or hand out a table.
pub(crate) struct Defaults {
    pub(crate) core: CoreApiTable,
    pub(crate) amd: AmdExtTable,
    pub(crate) fin: FinalizerExtTable,
    pub(crate) image: ImageExtTable,
    pub(crate) pcs: PcSamplingExtTable,
    pub(crate) amd52: rocm_5_2::AmdExtTable,
    pub(crate) image52: rocm_5_2::ImageExtTable,
    pub(crate) tools: ToolsApiTable,
    pub(crate) pcs_extension: hsa_ven_amd_pc_sampling_1_00_pfn_t,
    pub(crate) images_extension: hsa_ext_images_1_pfn_t,
}

static DEFAULTS: OnceLock<&'static Defaults> = OnceLock::new();

/// Hands over the default tables (once, when the library is loaded).
pub(crate) fn set_defaults(d: &'static Defaults) {
    let _ = DEFAULTS.set(d);
}

/// The default tables (`None` only if the library's load-time registration did not run).
pub(crate) fn defaults() -> Option<&'static Defaults> {
    DEFAULTS.get().copied()
}

/// Reads one slot of the live tables: `slot!(core, hsa_init_fn)`.
macro_rules! slot {
    ($table:ident, $field:ident) => {{
        // SAFETY: `LIVE` is a static that lives forever; the slot is a word-sized, aligned field read with
        // `read_volatile` as the `LiveTables` invariant requires.
        unsafe { ::core::ptr::read_volatile(::core::ptr::addr_of!((*$crate::table::LIVE.get()).$table.$field)) }
    }};
}
pub(crate) use slot;

/// The root table of the active layout, as handed to `OnLoad` (`HsaApiTable*`).
pub(crate) fn root_ptr() -> *mut core::ffi::c_void {
    let t = LIVE.get();
    // SAFETY: only computes field addresses inside the static.
    unsafe {
        if abi_is_5_2() {
            ptr::addr_of_mut!((*t).root52).cast()
        } else {
            ptr::addr_of_mut!((*t).root).cast()
        }
    }
}

/// Root table major of the active layout: `OnLoad`'s `runtime_version` argument.
pub(crate) fn root_major() -> u64 {
    if abi_is_5_2() {
        1
    } else {
        u64::from(HSA_API_TABLE_MAJOR_VERSION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{set_abi, Abi};
    use crate::lifecycle::reset_tables;

    #[test]
    fn reset_sets_versions_of_both_layouts() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        set_abi(Abi::Rocm52);
        reset_tables();
        let t = LIVE.get();
        // SAFETY: reading plain fields of the static while the test lock keeps other tests away.
        let (r52, amd52, core) = unsafe { ((*t).root52.version, (*t).amd52.version, (*t).core.version) };
        assert_eq!((r52.major_id, r52.minor_id), (1, 48));
        assert_eq!((amd52.major_id, amd52.minor_id), (1, 400));
        assert_eq!((core.major_id, core.minor_id), (1, 1016));
        assert_eq!(root_major(), 1);
        set_abi(Abi::Newest);
        reset_tables();
        // SAFETY: as above.
        let (r, amd, core, img) =
            unsafe { ((*t).root.version, (*t).amd.version, (*t).core.version, (*t).image.version) };
        assert_eq!((r.major_id, r.minor_id, r.step_id), (3, 64, 1));
        assert_eq!((amd.major_id, amd.minor_id, amd.step_id), (2, 608, 7));
        assert_eq!((core.major_id, core.minor_id), (2, 1016));
        assert_eq!((img.major_id, img.minor_id, img.step_id), (2, 128, 1));
        assert_eq!(root_major(), 3);
    }

    use std::sync::atomic::{AtomicU32, Ordering};

    static WRAPPED: AtomicU32 = AtomicU32::new(0);

    unsafe extern "C" fn wrapped_signal_create(
        initial: hsa_signal_value_t,
        n: u32,
        consumers: *const hsa_agent_t,
        out: *mut hsa_signal_t,
    ) -> hsa_status_t {
        WRAPPED.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwards the caller's arguments to the runtime's implementation.
        unsafe { crate::signal::hsa_signal_create(initial, n, consumers, out) }
    }

    unsafe extern "C" fn wrapped_amd_signal_create(
        initial: hsa_signal_value_t,
        n: u32,
        consumers: *const hsa_agent_t,
        attributes: u64,
        out: *mut hsa_signal_t,
    ) -> hsa_status_t {
        WRAPPED.fetch_add(100, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { crate::signal::hsa_amd_signal_create(initial, n, consumers, attributes, out) }
    }

    /// Installs wrappers the way a tool does in `OnLoad` (through the root table it is handed), calls the
    /// exported symbols, and checks that the last `hsa_shut_down` resets the slots.
    fn wrap_and_call(five_two: bool) {
        WRAPPED.store(0, Ordering::SeqCst);
        if five_two {
            std::env::set_var(rocprof_launch::names::SIM_ABI, "5.2");
        }
        crate::testing::init_gpu();
        std::env::remove_var(rocprof_launch::names::SIM_ABI);
        assert_eq!(abi_is_5_2(), five_two);
        // SAFETY: the root table of the active layout; writes whole slots like a C tool.
        unsafe {
            if five_two {
                let root = root_ptr().cast::<rocm_5_2::HsaApiTable>();
                assert_eq!(((*root).version.major_id, (*root).version.minor_id), (1, 48));
                (*(*root).core_).hsa_signal_create_fn = Some(wrapped_signal_create);
                (*(*root).amd_ext_).hsa_amd_signal_create_fn = Some(wrapped_amd_signal_create);
            } else {
                let root = root_ptr().cast::<HsaApiTable>();
                assert_eq!(((*root).version.major_id, (*root).version.minor_id), (3, 64));
                (*(*root).core_).hsa_signal_create_fn = Some(wrapped_signal_create);
                (*(*root).amd_ext_).hsa_amd_signal_create_fn = Some(wrapped_amd_signal_create);
            }
        }
        let mut s = hsa_signal_t { handle: 0 };
        // SAFETY: the exported entry points with valid out-pointers.
        unsafe {
            assert_eq!(crate::exports::hsa_signal_create(1, 0, std::ptr::null(), &mut s), HSA_STATUS_SUCCESS);
            assert_eq!(crate::exports::hsa_amd_signal_create(1, 0, std::ptr::null(), 0, &mut s), HSA_STATUS_SUCCESS);
        }
        assert_eq!(WRAPPED.load(Ordering::SeqCst), 101, "both exports went through the live table");
        crate::testing::shut_down();
        let core = slot!(core, hsa_signal_create_fn).map(|f| f as usize);
        assert_eq!(
            core,
            Some(crate::signal::hsa_signal_create as PFN_hsa_signal_create as usize),
            "the last hsa_shut_down reset the core table"
        );
        let amd = if five_two { slot!(amd52, hsa_amd_signal_create_fn) } else { slot!(amd, hsa_amd_signal_create_fn) };
        assert_eq!(
            amd.map(|f| f as usize),
            Some(crate::signal::hsa_amd_signal_create as PFN_hsa_amd_signal_create as usize),
            "and the AmdExt table"
        );
    }

    #[test]
    fn exports_jump_through_the_live_table_of_either_layout_and_shutdown_resets_it() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        wrap_and_call(false);
        wrap_and_call(true);
    }
}
