//! Runtime lifecycle: the reference-counted `hsa_init` / `hsa_shut_down` pair and the bootstrap lock.
//!
//! As in ROCr, only the 0 -> 1 transition of the reference count loads the runtime (environment sampled,
//! agents discovered, tables reset, tools loaded) and only 1 -> 0 tears it down (tools unloaded in reverse
//! order, tables reset, queues stopped, tools closed). Both run under one non-recursive bootstrap lock; unlike
//! ROCr, re-entry from the same thread (a tool calling `hsa_init` from `OnLoad`) is detected and reported
//! with a clear message and `HSA_STATUS_ERROR` instead of deadlocking.

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

use rocprof_hsa_sys::*;

use crate::abi;
use crate::runtime::{Config, Knobs, System, KNOBS, REFCOUNT, SYSTEM, TIMING};
use crate::table::LIVE;
use crate::{table, tools, topology};
use rocprof_device::targets as model;

static BOOTSTRAP: Mutex<()> = Mutex::new(());

thread_local! {
    static IN_BOOTSTRAP: Cell<bool> = const { Cell::new(false) };
}

struct BootstrapGuard;

impl BootstrapGuard {
    fn enter() -> Option<Self> {
        if IN_BOOTSTRAP.with(|c| c.replace(true)) {
            return None;
        }
        Some(BootstrapGuard)
    }
}

impl Drop for BootstrapGuard {
    fn drop(&mut self) {
        IN_BOOTSTRAP.with(|c| c.set(false));
    }
}

pub(crate) unsafe extern "C" fn hsa_init() -> hsa_status_t {
    crate::ffi::status_code(|| Ok(init()))
}

fn init() -> hsa_status_t {
    let Some(_reentry) = BootstrapGuard::enter() else {
        diag!("hsa_init called from inside hsa_init/hsa_shut_down (e.g. from a tool's OnLoad/OnUnload); ROCr would deadlock here");
        return HSA_STATUS_ERROR;
    };
    let _lock = BOOTSTRAP.lock().unwrap_or_else(|e| e.into_inner());
    let count = REFCOUNT.load(Ordering::Acquire);
    if count == u32::MAX {
        return HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
    }
    if count > 0 {
        REFCOUNT.store(count + 1, Ordering::Release);
        return HSA_STATUS_SUCCESS;
    }
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(msg) => {
            diag!("hsa_init failed: {msg}");
            return HSA_STATUS_ERROR;
        }
    };
    abi::set_abi(config.abi);
    note_hip6_without_gfx950(&config.gpus);
    if let Some(sys) = SYSTEM.get() {
        let have: Vec<String> = sys.agents.iter().filter(|a| !a.is_cpu()).map(|a| a.name()).collect();
        let want: Vec<&str> = config.gpus.iter().map(|m| m.name).collect();
        if have != want {
            crate::diag!(
                "{} changed after the first hsa_init of this process; keeping {}",
                rocprof_launch::names::SIM_AGENTS,
                have.join(",")
            );
        }
    } else {
        let agents = topology::build_agents(&config.gpus);
        let sys: &'static System = Box::leak(Box::new(System { agents }));
        let _ = SYSTEM.set(sys);
    }
    *KNOBS.write().unwrap_or_else(|e| e.into_inner()) =
        Knobs { time_scale: config.time_scale, strict_doorbell: config.strict_doorbell };
    *TIMING.write().unwrap_or_else(|e| e.into_inner()) = Some(std::sync::Arc::new(config.timing.clone()));
    crate::dispatch_log::open(config.dispatch_log.as_deref(), config.pm4_log.as_deref());
    reset_tables();
    REFCOUNT.store(1, Ordering::Release);
    tools::load_tools();
    HSA_STATUS_SUCCESS
}

/// HIP 6 (`libamdhip64.so.6`; Debian's 6.4) has no gfx950 in its device table and refuses such an
/// agent with only "no ROCm-capable device is detected": says once per process that this is HIP's
/// limit, not hsa-sim's, when a gfx950 agent is configured and HIP 6 is loaded.
fn note_hip6_without_gfx950(gpus: &[&'static model::GpuModel]) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !gpus.iter().any(|m| m.name == "gfx950") || SAID.load(Ordering::Relaxed) {
        return;
    }
    let hip6 = std::fs::read_to_string("/proc/self/maps").is_ok_and(|m| m.contains("/libamdhip64.so.6"));
    if hip6 && !SAID.swap(true, Ordering::Relaxed) {
        diag!(
            "note: agent gfx950 with HIP 6 (libamdhip64.so.6) loaded: HIP 6.4's device table has no gfx950, so HIP \
             will not use that agent (\"no ROCm-capable device\"); this is HIP's limit, not hsa-sim's (use gfx942, \
             or a HIP 7 build, for gfx950)"
        );
    }
}

pub(crate) unsafe extern "C" fn hsa_shut_down() -> hsa_status_t {
    crate::ffi::status_code(|| Ok(shut_down()))
}

fn shut_down() -> hsa_status_t {
    let Some(_reentry) = BootstrapGuard::enter() else {
        diag!("hsa_shut_down called from inside hsa_init/hsa_shut_down (e.g. from a tool's OnLoad/OnUnload); ROCr would deadlock here");
        return HSA_STATUS_ERROR;
    };
    let _lock = BOOTSTRAP.lock().unwrap_or_else(|e| e.into_inner());
    let count = REFCOUNT.load(Ordering::Acquire);
    if count == 0 {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    }
    if count > 1 {
        REFCOUNT.store(count - 1, Ordering::Release);
        return HSA_STATUS_SUCCESS;
    }
    tools::unload_tools();
    reset_tables();
    crate::queue_api::shutdown_all();
    crate::dispatch_log::flush();
    REFCOUNT.store(0, Ordering::Release);
    tools::close_tools();
    HSA_STATUS_SUCCESS
}

fn version(major: u32, size: usize, step: u32) -> ApiTableVersion {
    ApiTableVersion { major_id: major, minor_id: size as u32, step_id: step, reserved: 0 }
}

/// Restores every slot to the runtime's own functions and sets the version headers and root pointers of the
/// active layout. Called under the bootstrap lock before tools load and after they unload.
pub(crate) fn reset_tables() {
    let Some(d) = table::defaults() else {
        diag!("hsa-sim's default API tables were not registered when the library was loaded; tools see no table");
        return;
    };
    let t = LIVE.get();
    let five_two = abi::abi_is_5_2();
    // SAFETY: `t` points at the static tables; whole-field writes through the raw pointer follow the
    // `LiveTables` invariant (no references are created).
    unsafe {
        ptr::write_volatile(ptr::addr_of_mut!((*t).core), d.core);
        ptr::write_volatile(ptr::addr_of_mut!((*t).amd), d.amd);
        ptr::write_volatile(ptr::addr_of_mut!((*t).amd52), d.amd52);
        ptr::write_volatile(ptr::addr_of_mut!((*t).fin), d.fin);
        ptr::write_volatile(ptr::addr_of_mut!((*t).image), d.image);
        ptr::write_volatile(ptr::addr_of_mut!((*t).image52), d.image52);
        ptr::write_volatile(ptr::addr_of_mut!((*t).tools), d.tools);
        ptr::write_volatile(ptr::addr_of_mut!((*t).pcs), d.pcs);
        if five_two {
            (*t).core.version = version(1, size_of::<CoreApiTable>(), 0);
            (*t).fin.version = version(1, size_of::<FinalizerExtTable>(), 0);
        }
        let root = HsaApiTable {
            version: version(HSA_API_TABLE_MAJOR_VERSION, size_of::<HsaApiTable>(), HSA_API_TABLE_STEP_VERSION),
            core_: ptr::addr_of_mut!((*t).core),
            amd_ext_: ptr::addr_of_mut!((*t).amd),
            finalizer_ext_: ptr::addr_of_mut!((*t).fin),
            image_ext_: ptr::addr_of_mut!((*t).image),
            tools_: ptr::addr_of_mut!((*t).tools),
            pc_sampling_ext_: ptr::addr_of_mut!((*t).pcs),
        };
        ptr::write_volatile(ptr::addr_of_mut!((*t).root), root);
        let root52 = rocm_5_2::HsaApiTable {
            version: version(1, size_of::<rocm_5_2::HsaApiTable>(), 0),
            core_: ptr::addr_of_mut!((*t).core),
            amd_ext_: ptr::addr_of_mut!((*t).amd52),
            finalizer_ext_: ptr::addr_of_mut!((*t).fin),
            image_ext_: ptr::addr_of_mut!((*t).image52),
        };
        ptr::write_volatile(ptr::addr_of_mut!((*t).root52), root52);
    }
}
