//! Runtime state: the configuration sampled at the first `hsa_init`, the system object (agents, pools,
//! ISAs) and the reference count that says whether the runtime is up, the validation of agent and pool
//! handles against the system's lists, and the shared bodies of unsupported functions and status strings.
//! The lifecycle that changes this state (`hsa_init` / `hsa_shut_down`) is `lifecycle`'s; the system
//! queries are `system_info`'s.

use std::collections::HashSet;
use std::ffi::{c_char, CStr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use rocprof_hsa_sys::*;

use crate::abi::Abi;
use crate::clock;
use crate::ffi::{put, Status};
use crate::topology::{pool_handle, Agent, Pool};
use rocprof_device::targets as model;
use rocprof_device::targets::GpuModel;
use rocprof_device::timing::knobs::TimingKnobs;
use rocprof_launch::names;

/// Configuration sampled from the environment at the first `hsa_init`.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) gpus: Vec<&'static model::GpuModel>,
    pub(crate) abi: Abi,
    pub(crate) dispatch_log: Option<std::path::PathBuf>,
    pub(crate) pm4_log: Option<std::path::PathBuf>,
    pub(crate) time_scale: f64,
    pub(crate) strict_doorbell: bool,
    /// `ROCPROF_RS_SIM_KERNEL_SCALE`, `ROCPROF_RS_SIM_JITTER`, `ROCPROF_RS_SIM_SEED`.
    pub(crate) timing: TimingKnobs,
}

impl Config {
    pub(crate) fn from_env() -> Result<Self, String> {
        let gpus = model::parse_agents(&std::env::var(names::SIM_AGENTS).unwrap_or_default())?;
        let abi = match std::env::var(names::SIM_ABI).unwrap_or_default().trim() {
            "" | "newest" => Abi::Newest,
            "5.2" => Abi::Rocm52,
            other => return Err(format!("{}={other:?} is not one of 5.2, newest", names::SIM_ABI)),
        };
        let path = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
        let time_scale = match std::env::var(names::SIM_TIME_SCALE) {
            Ok(v) => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{}={v:?} is not a non-negative number", names::SIM_TIME_SCALE))?,
            Err(_) => 1.0,
        };
        let strict_doorbell = matches!(std::env::var(names::SIM_STRICT_DOORBELL).as_deref(), Ok("1"));
        let var = |k: &str| std::env::var(k).ok();
        // Without ROCPROF_RS_SIM_SEED every process draws other noise, as runs on hardware differ.
        let fallback_seed = u64::from(std::process::id()) << 32 ^ clock::system_ns();
        let timing = TimingKnobs::parse(
            var(names::SIM_KERNEL_SCALE).as_deref(),
            var(names::SIM_JITTER).as_deref(),
            var(names::SIM_SEED).as_deref(),
            fallback_seed,
        )?;
        Ok(Self {
            gpus,
            abi,
            dispatch_log: path(names::SIM_DISPATCH_LOG),
            pm4_log: path(names::SIM_PM4_LOG),
            time_scale,
            strict_doorbell,
            timing,
        })
    }
}

/// The simulated machine: built once per process at the first successful `hsa_init` and never freed, so
/// handles stay valid across init/shutdown cycles (the agent list of that first `hsa_init` is kept).
pub(crate) struct System {
    /// CPU agent first, then GPUs (ROCr's order).
    pub(crate) agents: Vec<&'static Agent>,
}

/// Modelling knobs of the current init/shutdown cycle (sampled at each first `hsa_init`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Knobs {
    pub(crate) time_scale: f64,
    pub(crate) strict_doorbell: bool,
}

pub(crate) static KNOBS: std::sync::RwLock<Knobs> =
    std::sync::RwLock::new(Knobs { time_scale: 1.0, strict_doorbell: false });

/// The timing knobs of the current init/shutdown cycle (none before the first `hsa_init`).
pub(crate) static TIMING: std::sync::RwLock<Option<std::sync::Arc<TimingKnobs>>> = std::sync::RwLock::new(None);

/// The timing knobs (per-kernel scale, noise) sampled at the last `hsa_init`.
pub(crate) fn timing_knobs() -> std::sync::Arc<TimingKnobs> {
    TIMING.read().unwrap_or_else(|e| e.into_inner()).clone().unwrap_or_default()
}

pub(crate) fn knobs() -> Knobs {
    *KNOBS.read().unwrap_or_else(|e| e.into_inner())
}

/// Sets `ROCPROF_RS_SIM_TIME_SCALE` of the current cycle (tests that need long kernels; the next
/// `hsa_init` reads the environment again).
#[cfg(test)]
pub(crate) fn set_time_scale_for_tests(scale: f64) {
    KNOBS.write().unwrap_or_else(|e| e.into_inner()).time_scale = scale;
}

impl System {
    pub(crate) fn cpu(&self) -> &'static Agent {
        self.agents[0]
    }
}

/// The system, set once by the first successful `hsa_init` (`lifecycle`).
pub(crate) static SYSTEM: OnceLock<&'static System> = OnceLock::new();
/// `hsa_init` minus `hsa_shut_down` calls; changed only by `lifecycle` under its bootstrap lock.
pub(crate) static REFCOUNT: AtomicU32 = AtomicU32::new(0);

/// The system, or `HSA_STATUS_ERROR_NOT_INITIALIZED` outside `hsa_init` .. `hsa_shut_down`.
pub(crate) fn system() -> Result<&'static System, Status> {
    if REFCOUNT.load(Ordering::Acquire) == 0 {
        return Err(HSA_STATUS_ERROR_NOT_INITIALIZED);
    }
    SYSTEM.get().copied().ok_or(HSA_STATUS_ERROR_NOT_INITIALIZED)
}

pub(crate) fn is_initialized() -> bool {
    REFCOUNT.load(Ordering::Acquire) != 0
}

static NOTED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// Shared body of the generated stubs in `unsupported.rs`.
pub(crate) fn unsupported(name: &'static str) -> hsa_status_t {
    if !is_initialized() {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    }
    let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
    if noted.get_or_insert_with(HashSet::new).insert(name) {
        crate::diag!("{name} is not supported by the simulator; returning HSA_STATUS_ERROR");
    }
    HSA_STATUS_ERROR
}

pub(crate) fn lookup(h: hsa_agent_t) -> Result<&'static Agent, Status> {
    let sys = system()?;
    sys.agents.iter().copied().find(|a| a.handle().handle == h.handle).ok_or(HSA_STATUS_ERROR_INVALID_AGENT)
}

pub(crate) fn lookup_gpu(h: hsa_agent_t) -> Result<(&'static Agent, &'static GpuModel), Status> {
    let a = lookup(h)?;
    a.gpu().map(|m| (a, m)).ok_or(HSA_STATUS_ERROR_INVALID_AGENT)
}

/// Finds a pool (or region: the same objects) by handle.
pub(crate) fn lookup_pool(handle: u64) -> Result<&'static Pool, Status> {
    let sys = system()?;
    sys.agents
        .iter()
        .flat_map(|a| a.pools.iter().copied())
        .find(|p| pool_handle(p) == handle)
        .ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

/// One line per status: our own wording, prefixed with the C enumerator name.
fn status_text(status: hsa_status_t) -> Option<&'static CStr> {
    Some(match status {
        HSA_STATUS_SUCCESS => c"HSA_STATUS_SUCCESS: the function completed successfully",
        HSA_STATUS_INFO_BREAK => c"HSA_STATUS_INFO_BREAK: a traversal was stopped by its callback",
        HSA_STATUS_ERROR => c"HSA_STATUS_ERROR: a generic error occurred",
        HSA_STATUS_ERROR_INVALID_ARGUMENT => c"HSA_STATUS_ERROR_INVALID_ARGUMENT: an argument is invalid",
        HSA_STATUS_ERROR_INVALID_QUEUE_CREATION => {
            c"HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: the queue cannot be created"
        }
        HSA_STATUS_ERROR_INVALID_ALLOCATION => c"HSA_STATUS_ERROR_INVALID_ALLOCATION: the allocation is invalid",
        HSA_STATUS_ERROR_INVALID_AGENT => c"HSA_STATUS_ERROR_INVALID_AGENT: the agent is invalid",
        HSA_STATUS_ERROR_INVALID_REGION => c"HSA_STATUS_ERROR_INVALID_REGION: the memory region is invalid",
        HSA_STATUS_ERROR_INVALID_SIGNAL => c"HSA_STATUS_ERROR_INVALID_SIGNAL: the signal is invalid",
        HSA_STATUS_ERROR_INVALID_QUEUE => c"HSA_STATUS_ERROR_INVALID_QUEUE: the queue is invalid",
        HSA_STATUS_ERROR_OUT_OF_RESOURCES => c"HSA_STATUS_ERROR_OUT_OF_RESOURCES: the runtime ran out of resources",
        HSA_STATUS_ERROR_INVALID_PACKET_FORMAT => c"HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: an AQL packet is malformed",
        HSA_STATUS_ERROR_RESOURCE_FREE => c"HSA_STATUS_ERROR_RESOURCE_FREE: a resource could not be released",
        HSA_STATUS_ERROR_NOT_INITIALIZED => c"HSA_STATUS_ERROR_NOT_INITIALIZED: the runtime is not initialized",
        HSA_STATUS_ERROR_REFCOUNT_OVERFLOW => {
            c"HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: the runtime reference count overflowed"
        }
        HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS => {
            c"HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: the arguments are incompatible"
        }
        HSA_STATUS_ERROR_INVALID_INDEX => c"HSA_STATUS_ERROR_INVALID_INDEX: the index is invalid",
        HSA_STATUS_ERROR_INVALID_ISA => c"HSA_STATUS_ERROR_INVALID_ISA: the instruction set architecture is invalid",
        HSA_STATUS_ERROR_INVALID_ISA_NAME => c"HSA_STATUS_ERROR_INVALID_ISA_NAME: the ISA name is invalid",
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT => c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT: the code object is invalid",
        HSA_STATUS_ERROR_INVALID_EXECUTABLE => c"HSA_STATUS_ERROR_INVALID_EXECUTABLE: the executable is invalid",
        HSA_STATUS_ERROR_FROZEN_EXECUTABLE => c"HSA_STATUS_ERROR_FROZEN_EXECUTABLE: the executable is frozen",
        HSA_STATUS_ERROR_INVALID_SYMBOL_NAME => c"HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: no symbol has that name",
        HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED => {
            c"HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: the variable is already defined"
        }
        HSA_STATUS_ERROR_VARIABLE_UNDEFINED => c"HSA_STATUS_ERROR_VARIABLE_UNDEFINED: the variable is undefined",
        HSA_STATUS_ERROR_EXCEPTION => c"HSA_STATUS_ERROR_EXCEPTION: an HSAIL exception occurred",
        HSA_STATUS_ERROR_INVALID_CODE_SYMBOL => c"HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: the code symbol is invalid",
        HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL => {
            c"HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: the executable symbol is invalid"
        }
        HSA_STATUS_ERROR_INVALID_FILE => c"HSA_STATUS_ERROR_INVALID_FILE: the file descriptor is invalid",
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER => {
            c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: the code object reader is invalid"
        }
        HSA_STATUS_ERROR_INVALID_CACHE => c"HSA_STATUS_ERROR_INVALID_CACHE: the cache is invalid",
        HSA_STATUS_ERROR_INVALID_WAVEFRONT => c"HSA_STATUS_ERROR_INVALID_WAVEFRONT: the wavefront is invalid",
        HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP => c"HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: the signal group is invalid",
        HSA_STATUS_ERROR_INVALID_RUNTIME_STATE => {
            c"HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: the runtime is in an invalid state"
        }
        HSA_STATUS_ERROR_FATAL => c"HSA_STATUS_ERROR_FATAL: a fatal error occurred",
        HSA_STATUS_ERROR_INVALID_MEMORY_POOL => c"HSA_STATUS_ERROR_INVALID_MEMORY_POOL: the memory pool is invalid",
        HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION => {
            c"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: memory access outside the aperture"
        }
        HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION => {
            c"HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was executed"
        }
        HSA_STATUS_ERROR_MEMORY_FAULT => c"HSA_STATUS_ERROR_MEMORY_FAULT: a memory fault occurred",
        HSA_STATUS_ERROR_NOT_SUPPORTED => c"HSA_STATUS_ERROR_NOT_SUPPORTED: the operation is not supported",
        _ => return None,
    })
}

pub(crate) unsafe extern "C" fn hsa_status_string(
    status: hsa_status_t,
    status_string: *mut *const c_char,
) -> hsa_status_t {
    if status_string.is_null() {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    match status_text(status) {
        Some(s) => {
            // SAFETY: non-null out-pointer from the caller; the string is static.
            unsafe { put(status_string.cast(), s.as_ptr()) };
            HSA_STATUS_SUCCESS
        }
        None => HSA_STATUS_ERROR_INVALID_ARGUMENT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_code_has_text_naming_it() {
        for code in [
            HSA_STATUS_SUCCESS,
            HSA_STATUS_ERROR_INVALID_SIGNAL,
            HSA_STATUS_ERROR_FATAL,
            HSA_STATUS_ERROR_NOT_SUPPORTED,
        ] {
            let s = status_text(code).unwrap().to_str().unwrap();
            assert!(s.starts_with("HSA_STATUS_"), "{s}");
        }
        assert!(status_text(0x7777).is_none());
    }

    #[test]
    fn config_rejects_bad_abi() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        std::env::set_var(names::SIM_ABI, "6.0");
        let err = Config::from_env().unwrap_err();
        std::env::remove_var(names::SIM_ABI);
        assert!(err.contains("6.0"), "{err}");
        assert_eq!(Config::from_env().unwrap().abi, Abi::Newest);
    }
}
