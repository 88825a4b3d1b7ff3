//! The three dispatch tables with this library's no-op defaults, and their one-time offer to a
//! tool (through rocprofiler-register or a preloaded `rocprofiler_set_api_table`).

use std::cell::{Cell, UnsafeCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::Once;

use rocprof_hsa_sys::*;

/// ROCTx interface version implemented (roctracer's `ROCTX_VERSION_MAJOR`/`MINOR`).
pub const VERSION_MAJOR: u32 = 4;
/// See [`VERSION_MAJOR`].
pub const VERSION_MINOR: u32 = 1;

/// The version handed to rocprofiler-register / the tool.
const REGISTER_VERSION: u32 = rocprofiler_register_compute_version(VERSION_MAJOR, VERSION_MINOR, 0);

/// The three tables. A tool may rewrite entries, but only inside the registration call, which runs
/// inside [`REGISTER`]'s `call_once`; afterwards they are only read.
struct Tables {
    core: UnsafeCell<roctxCoreApiTable_t>,
    control: UnsafeCell<roctxControlApiTable_t>,
    name: UnsafeCell<roctxNameApiTable_t>,
}

// SAFETY: the cells are written only during registration, inside `REGISTER.call_once`; every read
// happens after `call_once` returned, which synchronises with the completed initialisation.
unsafe impl Sync for Tables {}

static TABLES: Tables = Tables {
    core: UnsafeCell::new(roctxCoreApiTable_t {
        size: std::mem::size_of::<roctxCoreApiTable_t>() as u64,
        roctxMarkA_fn: Some(default_mark),
        roctxRangePushA_fn: Some(default_range_push),
        roctxRangePop_fn: Some(default_range_pop),
        roctxRangeStartA_fn: Some(default_range_start),
        roctxRangeStop_fn: Some(default_range_stop),
        roctxGetThreadId_fn: Some(default_get_thread_id),
    }),
    control: UnsafeCell::new(roctxControlApiTable_t {
        size: std::mem::size_of::<roctxControlApiTable_t>() as u64,
        roctxProfilerPause_fn: Some(default_profiler_pause),
        roctxProfilerResume_fn: Some(default_profiler_resume),
    }),
    name: UnsafeCell::new(roctxNameApiTable_t {
        size: std::mem::size_of::<roctxNameApiTable_t>() as u64,
        roctxNameOsThread_fn: Some(default_name_os_thread),
        roctxNameHsaAgent_fn: Some(default_name_hsa_agent),
        roctxNameHipDevice_fn: Some(default_name_hip_device),
        roctxNameHipStream_fn: Some(default_name_hip_stream),
    }),
};

static REGISTER: Once = Once::new();

/// The tables, after they were offered to a tool (first call only).
fn tables() -> &'static Tables {
    REGISTER.call_once(register);
    &TABLES
}

pub(crate) fn core() -> &'static roctxCoreApiTable_t {
    // SAFETY: see `Tables`: no writes after registration, which `tables()` completed.
    unsafe { &*tables().core.get() }
}

pub(crate) fn control() -> &'static roctxControlApiTable_t {
    // SAFETY: as in `core`.
    unsafe { &*tables().control.get() }
}

pub(crate) fn name() -> &'static roctxNameApiTable_t {
    // SAFETY: as in `core`.
    unsafe { &*tables().name.get() }
}

/// Looks a symbol up in the whole process.
fn lookup(symbol: &std::ffi::CStr) -> *mut c_void {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name has no other preconditions.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, symbol.as_ptr()) }
}

/// Offers the tables to a tool, the way AMD's ROCTx does (see the crate docs). Runs once.
fn register() {
    let mut tables: [*mut c_void; 3] =
        [TABLES.core.get().cast(), TABLES.control.get().cast(), TABLES.name.get().cast()];
    let via_register = lookup(c"rocprofiler_register_library_api_table");
    if !via_register.is_null() {
        // SAFETY: the symbol is rocprofiler-register's entry point with this signature
        // (`rocprofiler-register.h`); the tables are valid for the process lifetime.
        let register: rocprofiler_register_library_api_table_fn_t = unsafe { std::mem::transmute(via_register) };
        let mut id = rocprofiler_register_library_indentifier_t::default();
        // SAFETY: arguments as documented; `tables` and `id` outlive the call.
        let rc = unsafe {
            register(
                c"roctx".as_ptr(),
                Some(rocprofiler_register_import_roctx),
                REGISTER_VERSION,
                tables.as_mut_ptr(),
                tables.len() as u64,
                &mut id,
            )
        };
        if rc == 0 {
            return;
        }
        // No tool found that way (or an error): a preloaded tool may still take the tables directly.
    }
    let direct = lookup(c"rocprofiler_set_api_table");
    if !direct.is_null() {
        // SAFETY: `rocprofiler_set_api_table` has this signature in every tool that exports it
        // (rocprofiler-sdk's `registration.cpp`, rocprof-rs's interception library).
        let set: rocprofiler_set_api_table_fn_t = unsafe { std::mem::transmute(direct) };
        // SAFETY: arguments as documented; the tables live for the whole process.
        unsafe { set(c"roctx".as_ptr(), REGISTER_VERSION as u64, 0, tables.as_mut_ptr(), tables.len() as u64) };
    }
}

thread_local! {
    /// Open `roctxRangePushA` ranges of this thread.
    static NESTING: Cell<i32> = const { Cell::new(0) };
    /// Cached `gettid()`.
    static TID: Cell<u64> = const { Cell::new(0) };
}

/// Last process range id handed out.
static RANGE_ID: AtomicU64 = AtomicU64::new(0);

/// A function registered with `roctxRegisterTracerCallback` (null: none).
pub(crate) static TRACER: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

fn report(operation: u32, message: *const c_char, id: roctx_range_id_t) {
    let f = TRACER.load(Ordering::Acquire);
    if f.is_null() {
        return;
    }
    // SAFETY: only `roctxRegisterTracerCallback` stores here, with a function of this type.
    let f: roctx_report_activity_fn_t = unsafe { std::mem::transmute(f) };
    let mut data = roctx_api_data_t { message, id };
    // SAFETY: roctracer's callback contract: the data lives for the duration of the call.
    unsafe { f(ACTIVITY_DOMAIN_ROCTX, operation, (&mut data as *mut roctx_api_data_t).cast()) };
}

unsafe extern "C" fn default_mark(message: *const c_char) {
    report(ROCTX_API_ID_roctxMarkA, message, 0);
}

unsafe extern "C" fn default_range_push(message: *const c_char) -> c_int {
    report(ROCTX_API_ID_roctxRangePushA, message, 0);
    NESTING
        .try_with(|n| {
            let level = n.get();
            n.set(level + 1);
            level
        })
        .unwrap_or(0)
}

unsafe extern "C" fn default_range_pop() -> c_int {
    report(ROCTX_API_ID_roctxRangePop, std::ptr::null(), 0);
    NESTING
        .try_with(|n| match n.get() {
            0 => -1,
            level => {
                n.set(level - 1);
                level - 1
            }
        })
        .unwrap_or(-1)
}

unsafe extern "C" fn default_range_start(message: *const c_char) -> roctx_range_id_t {
    let id = RANGE_ID.fetch_add(1, Ordering::Relaxed) + 1;
    report(ROCTX_API_ID_roctxRangeStartA, message, id);
    id
}

unsafe extern "C" fn default_range_stop(id: roctx_range_id_t) {
    report(ROCTX_API_ID_roctxRangeStop, std::ptr::null(), id);
}

unsafe extern "C" fn default_get_thread_id(tid: *mut roctx_thread_id_t) -> c_int {
    let id = TID
        .try_with(|t| {
            if t.get() == 0 {
                // SAFETY: gettid has no preconditions.
                t.set(unsafe { libc::syscall(libc::SYS_gettid) } as u64);
            }
            t.get()
        })
        // SAFETY: as above (thread-local storage already gone at thread exit).
        .unwrap_or_else(|_| unsafe { libc::syscall(libc::SYS_gettid) } as u64);
    if !tid.is_null() {
        // SAFETY: the caller passes a writable `roctx_thread_id_t` (non-null per the header).
        unsafe { *tid = id };
    }
    0
}

unsafe extern "C" fn default_profiler_pause(_tid: roctx_thread_id_t) -> c_int {
    0
}

unsafe extern "C" fn default_profiler_resume(_tid: roctx_thread_id_t) -> c_int {
    0
}

unsafe extern "C" fn default_name_os_thread(_name: *const c_char) -> c_int {
    0
}

unsafe extern "C" fn default_name_hsa_agent(_name: *const c_char, _agent: *const hsa_agent_t) -> c_int {
    0
}

unsafe extern "C" fn default_name_hip_device(_name: *const c_char, _device_id: c_int) -> c_int {
    0
}

unsafe extern "C" fn default_name_hip_stream(_name: *const c_char, _stream: *const c_void) -> c_int {
    0
}

/// rocprofiler-register's import function for the "roctx" library: returns the version.
#[no_mangle]
pub extern "C" fn rocprofiler_register_import_roctx() -> u32 {
    REGISTER_VERSION
}
