//! Runtime lifecycle: the reference-counted `hsa_init` / `hsa_shut_down` pair, the bootstrap lock, the
//! system object (agents, pools, ISAs), system information and extension queries.
//!
//! As in ROCr, only the 0 -> 1 transition of the reference count loads the runtime (environment sampled,
//! agents discovered, tables reset, tools loaded) and only 1 -> 0 tears it down (tools unloaded in reverse
//! order, tables reset, queues stopped, tools closed). Both run under one non-recursive bootstrap lock; unlike
//! ROCr, re-entry from the same thread (a tool calling `hsa_init` from `OnLoad`) is detected and reported
//! with a clear message and `HSA_STATUS_ERROR` instead of deadlocking.

use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use rocprof_hsa_sys::*;

use crate::abi::{self, Abi};
use crate::agent::{self, Agent};
use crate::ffi::{put, Status};
use crate::table;
use crate::{clock, tools};
use rocprof_device::targets as model;
use rocprof_device::timing::knobs::TimingKnobs;

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
        let gpus = model::parse_agents(&std::env::var("ROCPROF_RS_SIM_AGENTS").unwrap_or_default())?;
        let abi = match std::env::var("ROCPROF_RS_SIM_ABI").unwrap_or_default().trim() {
            "" | "newest" => Abi::Newest,
            "5.2" => Abi::Rocm52,
            other => return Err(format!("ROCPROF_RS_SIM_ABI={other:?} is not one of 5.2, newest")),
        };
        let path = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
        let time_scale = match std::env::var("ROCPROF_RS_SIM_TIME_SCALE") {
            Ok(v) => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("ROCPROF_RS_SIM_TIME_SCALE={v:?} is not a non-negative number"))?,
            Err(_) => 1.0,
        };
        let strict_doorbell = matches!(std::env::var("ROCPROF_RS_SIM_STRICT_DOORBELL").as_deref(), Ok("1"));
        let var = |k: &str| std::env::var(k).ok();
        // Without ROCPROF_RS_SIM_SEED every process draws other noise, as runs on hardware differ.
        let fallback_seed = u64::from(std::process::id()) << 32 ^ clock::system_ns();
        let timing = TimingKnobs::parse(
            var("ROCPROF_RS_SIM_KERNEL_SCALE").as_deref(),
            var("ROCPROF_RS_SIM_JITTER").as_deref(),
            var("ROCPROF_RS_SIM_SEED").as_deref(),
            fallback_seed,
        )?;
        Ok(Self {
            gpus,
            abi,
            dispatch_log: path("ROCPROF_RS_SIM_DISPATCH_LOG"),
            pm4_log: path("ROCPROF_RS_SIM_PM4_LOG"),
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

static KNOBS: std::sync::RwLock<Knobs> = std::sync::RwLock::new(Knobs { time_scale: 1.0, strict_doorbell: false });

/// The timing knobs of the current init/shutdown cycle (none before the first `hsa_init`).
static TIMING: std::sync::RwLock<Option<std::sync::Arc<TimingKnobs>>> = std::sync::RwLock::new(None);

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

static SYSTEM: OnceLock<&'static System> = OnceLock::new();
static REFCOUNT: AtomicU32 = AtomicU32::new(0);
static BOOTSTRAP: Mutex<()> = Mutex::new(());

thread_local! {
    static IN_BOOTSTRAP: Cell<bool> = const { Cell::new(false) };
}

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
                "ROCPROF_RS_SIM_AGENTS changed after the first hsa_init of this process; keeping {}",
                have.join(",")
            );
        }
    } else {
        let agents = agent::build_agents(&config.gpus);
        let sys: &'static System = Box::leak(Box::new(System { agents }));
        let _ = SYSTEM.set(sys);
    }
    *KNOBS.write().unwrap_or_else(|e| e.into_inner()) =
        Knobs { time_scale: config.time_scale, strict_doorbell: config.strict_doorbell };
    *TIMING.write().unwrap_or_else(|e| e.into_inner()) = Some(std::sync::Arc::new(config.timing.clone()));
    crate::dispatch_log::open(config.dispatch_log.as_deref(), config.pm4_log.as_deref());
    table::reset();
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
    table::reset();
    crate::queue::shutdown_all();
    crate::dispatch_log::flush();
    REFCOUNT.store(0, Ordering::Release);
    tools::close_tools();
    HSA_STATUS_SUCCESS
}

/// `HSA_AMD_SYSTEM_INFO_BUILD_VERSION` string.
static BUILD_VERSION: &CStr = c"hsa-sim (rocprof-rs) 1.0";

pub(crate) unsafe extern "C" fn hsa_system_get_info(attribute: hsa_system_info_t, value: *mut c_void) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if value.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: the caller provides storage of the attribute's documented type at `value` (every arm).
        unsafe {
            match attribute {
                HSA_SYSTEM_INFO_VERSION_MAJOR => put(value, 1u16),
                HSA_SYSTEM_INFO_VERSION_MINOR => put(value, 1u16),
                HSA_SYSTEM_INFO_TIMESTAMP => put(value, clock::system_ns()),
                HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY => put(value, 1_000_000_000u64),
                HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT => put(value, u64::MAX),
                HSA_SYSTEM_INFO_ENDIANNESS => put(value, HSA_ENDIANNESS_LITTLE),
                HSA_SYSTEM_INFO_MACHINE_MODEL => put(value, HSA_MACHINE_MODEL_LARGE),
                HSA_SYSTEM_INFO_EXTENSIONS => {
                    let mut mask = [0u8; 128];
                    for ext in [HSA_EXTENSION_AMD_PROFILER, HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_PC_SAMPLING] {
                        mask[(ext / 8) as usize] |= 1 << (ext % 8);
                    }
                    put(value, mask)
                }
                HSA_AMD_SYSTEM_INFO_BUILD_VERSION => put(value, BUILD_VERSION.as_ptr()),
                HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED => put(value, true),
                HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT => put(value, false),
                HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED => put(value, false),
                HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED => put(value, false),
                HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED => put(value, false),
                HSA_AMD_SYSTEM_INFO_XNACK_ENABLED => put(value, false),
                HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR if !abi::abi_is_5_2() => put(value, 1u16),
                HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR if !abi::abi_is_5_2() => put(value, 11u16),
                _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
            }
        }
        Ok(())
    })
}

/// Loader extension version 1.03 (seven functions); `hsa_system_major_extension_supported` reports minor 0
/// like ROCr while the table copies up to the 1.03 size.
fn loader_table() -> hsa_ven_amd_loader_1_03_pfn_t {
    hsa_ven_amd_loader_1_03_pfn_t {
        hsa_ven_amd_loader_query_host_address: Some(crate::loader::hsa_ven_amd_loader_query_host_address),
        hsa_ven_amd_loader_query_segment_descriptors: Some(crate::loader::hsa_ven_amd_loader_query_segment_descriptors),
        hsa_ven_amd_loader_query_executable: Some(crate::loader::hsa_ven_amd_loader_query_executable),
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Some(
            crate::loader::hsa_ven_amd_loader_executable_iterate_loaded_code_objects,
        ),
        hsa_ven_amd_loader_loaded_code_object_get_info: Some(
            crate::loader::hsa_ven_amd_loader_loaded_code_object_get_info,
        ),
        hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Some(
            crate::loader::hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size,
        ),
        hsa_ven_amd_loader_iterate_executables: Some(crate::loader::hsa_ven_amd_loader_iterate_executables),
    }
}

fn supported_extension(extension: u16) -> bool {
    [HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_PROFILER, HSA_EXTENSION_AMD_PC_SAMPLING, HSA_EXTENSION_IMAGES]
        .contains(&u32::from(extension))
}

pub(crate) unsafe extern "C" fn hsa_system_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if result.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ok = supported_extension(extension) && version_major == 1 && version_minor == 0;
        // SAFETY: `result` is a non-null out-pointer supplied by the caller.
        unsafe { put(result.cast(), ok) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_major_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if result.is_null() || version_minor.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let ok = supported_extension(extension) && version_major == 1;
        // SAFETY: both out-pointers are non-null and supplied by the caller.
        unsafe {
            put(result.cast(), ok);
            if ok {
                put(version_minor.cast(), 0u16);
            }
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_get_major_extension_table(
    extension: u16,
    version_major: u16,
    table_length: usize,
    table: *mut c_void,
) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if table.is_null() || table_length == 0 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        if u32::from(extension) == HSA_EXTENSION_AMD_PC_SAMPLING && version_major == 1 {
            // The PC-sampling table 1.00 (`hsa_ven_amd_pc_sampling_1_00_pfn_t`), through the live slots.
            let t = crate::pcs::table();
            let n = table_length.min(size_of::<hsa_ven_amd_pc_sampling_1_00_pfn_t>());
            // SAFETY: copies `n` bytes of a local POD table into the caller's buffer of `table_length >= n` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (&t as *const hsa_ven_amd_pc_sampling_1_00_pfn_t).cast::<u8>(),
                    table.cast::<u8>(),
                    n,
                )
            };
            return Ok(());
        }
        if u32::from(extension) == HSA_EXTENSION_IMAGES && version_major == 1 {
            // SAFETY: `table` holds `table_length` bytes (checked non-null and non-empty above).
            unsafe { crate::images::copy_extension_table(table, table_length) };
            return Ok(());
        }
        if u32::from(extension) != HSA_EXTENSION_AMD_LOADER || version_major != 1 {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let t = loader_table();
        let n = table_length.min(size_of::<hsa_ven_amd_loader_1_03_pfn_t>());
        // SAFETY: copies `n` bytes of a local POD table into the caller's buffer of `table_length >= n` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (&t as *const hsa_ven_amd_loader_1_03_pfn_t).cast::<u8>(),
                table.cast::<u8>(),
                n,
            )
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_system_get_extension_table(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    table: *mut c_void,
) -> hsa_status_t {
    if version_minor != 0 {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: the deprecated entry point copies the 1.00 table (three functions) as ROCr does.
    unsafe {
        hsa_system_get_major_extension_table(
            extension,
            version_major,
            size_of::<hsa_ven_amd_loader_1_00_pfn_t>(),
            table,
        )
    }
}

pub(crate) unsafe extern "C" fn hsa_extension_get_name(extension: u16, name: *mut *const c_char) -> hsa_status_t {
    crate::ffi::status(|| {
        system()?;
        if name.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let s: &'static CStr = match u32::from(extension) {
            HSA_EXTENSION_FINALIZER => c"HSA_EXTENSION_FINALIZER",
            HSA_EXTENSION_IMAGES => c"HSA_EXTENSION_IMAGES",
            HSA_EXTENSION_PERFORMANCE_COUNTERS => c"HSA_EXTENSION_PERFORMANCE_COUNTERS",
            HSA_EXTENSION_PROFILING_EVENTS => c"HSA_EXTENSION_PROFILING_EVENTS",
            HSA_EXTENSION_AMD_PROFILER => c"HSA_EXTENSION_AMD_PROFILER",
            HSA_EXTENSION_AMD_LOADER => c"HSA_EXTENSION_AMD_LOADER",
            HSA_EXTENSION_AMD_AQLPROFILE => c"HSA_EXTENSION_AMD_AQLPROFILE",
            _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
        };
        // SAFETY: `name` is a non-null out-pointer; the string is static.
        unsafe { put(name.cast(), s.as_ptr()) };
        Ok(())
    })
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
        std::env::set_var("ROCPROF_RS_SIM_ABI", "6.0");
        let err = Config::from_env().unwrap_err();
        std::env::remove_var("ROCPROF_RS_SIM_ABI");
        assert!(err.contains("6.0"), "{err}");
        assert_eq!(Config::from_env().unwrap().abi, Abi::Newest);
    }
}
