//! ROCTx: markers, ranges, profiler control and naming calls.
//!
//! A ROCTx library (ours, `crates/roctx`, or AMD's `librocprofiler-sdk-roctx` through
//! rocprofiler-register) hands its three dispatch tables to `rocprofiler_set_api_table("roctx",
//! ...)` on its first call; [`install`] replaces each entry with a wrapper here that calls the
//! library's own function (which keeps the nesting level and range ids) and records the call:
//!
//! * `MARKER_CORE_API` (op ids as rocprofiler-sdk's `ROCPROFILER_MARKER_CORE_API_ID_*`):
//!   `roctxMarkA` 0, `roctxRangePushA` 1, `roctxRangePop` 2, `roctxRangeStartA` 3,
//!   `roctxRangeStop` 4, `roctxGetThreadId` 5. A push and its pop are two records on one thread;
//!   the reader pairs them into one range (as start/stop by range id), so a crash in the middle of
//!   a range loses nothing that was recorded.
//! * `MARKER_CONTROL_API`: `roctxProfilerPause` 0, `roctxProfilerResume` 1. With
//!   `--selected-regions` collection starts paused and these switch it ([`state::set_collecting`]),
//!   and so they do with `--marker-trace` (rocprofv3 stops its context on a pause); they are
//!   recorded even while paused.
//! * A pop (stop) takes no correlation id of its own: the range is one record under its push's
//!   (start's) id, as rocprofv3 reports it, so the ids of the traced calls stay dense.
//! * `MARKER_NAME_API`: `roctxNameOsThread` 0, `roctxNameHsaAgent` 1, `roctxNameHipDevice` 2,
//!   `roctxNameHipStream` 3.
//!
//! The message is copied into the capture as a string record (no allocation). With
//! `--kernel-rename`, a push (or a mark, as rocprofv3 does) makes its correlation id the thread's
//! external correlation id until the next pop, so the dispatches issued inside carry it and the
//! reader names them after the innermost range or the last mark.

use std::cell::Cell;
use std::ffi::CStr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rocprof_hsa_sys::*;
use rocprof_model::api::ApiDomain;

use crate::api::{self, Level};
use crate::guard::callback_guard;
use crate::state;

static MARKERS: AtomicBool = AtomicBool::new(false);
static KERNEL_RENAME: AtomicBool = AtomicBool::new(false);
static SELECTED_REGIONS: AtomicBool = AtomicBool::new(false);
/// Process range ids handed out when no ROCTx library answers `roctxRangeStartA`.
static OWN_RANGE_IDS: AtomicU64 = AtomicU64::new(1);

/// Sets the ROCTx settings from the traced domains (cold path): `marker`, `kernel_rename`,
/// `selected_regions` (which also starts collection paused).
pub fn configure(trace: rocprof_launch::Trace) {
    use rocprof_launch::TraceWord as W;
    MARKERS.store(trace.has(W::Marker), Ordering::Release);
    KERNEL_RENAME.store(trace.has(W::KernelRename), Ordering::Release);
    SELECTED_REGIONS.store(trace.has(W::SelectedRegions), Ordering::Release);
    if trace.has(W::SelectedRegions) {
        state::set_collecting(false);
    }
}

/// True when the ROCTx tables are worth wrapping.
pub fn wanted() -> bool {
    MARKERS.load(Ordering::Relaxed) || KERNEL_RENAME.load(Ordering::Relaxed) || SELECTED_REGIONS.load(Ordering::Relaxed)
}

/// The library's own functions, saved by [`install`] (0 = none).
struct Originals {
    mark: AtomicUsize,
    push: AtomicUsize,
    pop: AtomicUsize,
    start: AtomicUsize,
    stop: AtomicUsize,
    thread_id: AtomicUsize,
    pause: AtomicUsize,
    resume: AtomicUsize,
    name_thread: AtomicUsize,
    name_agent: AtomicUsize,
    name_device: AtomicUsize,
    name_stream: AtomicUsize,
}

static ORIG: Originals = Originals {
    mark: AtomicUsize::new(0),
    push: AtomicUsize::new(0),
    pop: AtomicUsize::new(0),
    start: AtomicUsize::new(0),
    stop: AtomicUsize::new(0),
    thread_id: AtomicUsize::new(0),
    pause: AtomicUsize::new(0),
    resume: AtomicUsize::new(0),
    name_thread: AtomicUsize::new(0),
    name_agent: AtomicUsize::new(0),
    name_device: AtomicUsize::new(0),
    name_stream: AtomicUsize::new(0),
};

/// Loads a saved original as its function type (None when the table had no such entry).
///
/// # Safety
/// `F` is the function-pointer type the entry was saved from.
unsafe fn orig<F: Copy>(slot: &AtomicUsize) -> Option<F> {
    let a = slot.load(Ordering::Acquire);
    // SAFETY: a non-zero function address of type `F` (caller's contract).
    (a != 0).then(|| unsafe { std::mem::transmute_copy::<usize, F>(&a) })
}

/// Most nested ranges per thread whose external ids are kept for `--kernel-rename`.
const RENAME_DEPTH: usize = 64;

thread_local! {
    /// External correlation ids to restore at each pop (`--kernel-rename`).
    static RENAME: Cell<([u64; RENAME_DEPTH], usize)> = const { Cell::new(([0; RENAME_DEPTH], 0)) };
}

// No destructor (checked): exit handlers and TLS destructors of other code can still use it
// (see `hip::v6`, HIP 6.4 calls from `__cxa_finalize`).
const _: () = assert!(!std::mem::needs_drop::<Cell<([u64; RENAME_DEPTH], usize)>>());

const CORE_MARK: u32 = 0;
const CORE_PUSH: u32 = 1;
const CORE_POP: u32 = 2;
const CORE_START: u32 = 3;
const CORE_STOP: u32 = 4;
const CORE_THREAD_ID: u32 = 5;
const CORE_NAMES: [&str; 6] =
    ["roctxMarkA", "roctxRangePushA", "roctxRangePop", "roctxRangeStartA", "roctxRangeStop", "roctxGetThreadId"];
const CONTROL_NAMES: [&str; 2] = ["roctxProfilerPause", "roctxProfilerResume"];
const NAME_NAMES: [&str; 4] = ["roctxNameOsThread", "roctxNameHsaAgent", "roctxNameHipDevice", "roctxNameHipStream"];

static NAMED: [AtomicBool; 12] = [const { AtomicBool::new(false) }; 12];

fn ensure_named(domain: ApiDomain, op: u32) {
    let (base, names): (usize, &[&str]) = match domain {
        ApiDomain::MarkerCore => (0, &CORE_NAMES),
        ApiDomain::MarkerControl => (6, &CONTROL_NAMES),
        _ => (8, &NAME_NAMES),
    };
    let Some(name) = names.get(op as usize) else { return };
    let flag = &NAMED[base + op as usize];
    if !flag.load(Ordering::Relaxed) && api::name_operation(domain, op, name) {
        flag.store(true, Ordering::Relaxed);
    }
}

/// Copies a message into the capture; returns its string id (0: none or not recorded).
fn message_id(message: *const c_char) -> u32 {
    let Some(g) = state::global() else { return 0 };
    if message.is_null() {
        return 0;
    }
    // SAFETY: ROCTx messages are NUL-terminated strings (the API contract), alive for the call.
    let bytes = unsafe { CStr::from_ptr(message) }.to_bytes();
    g.sink.write_string(bytes)
}

/// Records one ROCTx call that ran `body` (which returns the call's raw return word). Returns
/// that word and the record's correlation id (0: not recorded). Core calls are also recorded for
/// `--kernel-rename` alone (the reader needs the ranges to name kernels; the CLI then writes no
/// marker outputs).
fn traced(domain: ApiDomain, op: u32, message: *const c_char, args: &[u64], body: impl FnOnce() -> u64) -> (u64, u64) {
    let control = domain == ApiDomain::MarkerControl;
    let wanted =
        MARKERS.load(Ordering::Relaxed) || (domain == ApiDomain::MarkerCore && KERNEL_RENAME.load(Ordering::Relaxed));
    if !wanted || !state::host_active() || !(control || state::collecting()) {
        return (body(), 0);
    }
    // A pop or stop closes the range its push or start opened: one record, one id (rocprofv3's
    // MARKER_CORE_RANGE_API), so it takes no id of its own and the ids stay dense.
    let closing = domain == ApiDomain::MarkerCore && (op == CORE_POP || op == CORE_STOP);
    let call = if closing { api::enter_closing() } else { api::enter(Level::Hsa) };
    let ret = body();
    let end = api::leave(&call);
    ensure_named(domain, op);
    let msg = message_id(message);
    api::record(domain, op, &call, end, ret, args, msg);
    (ret, call.id)
}

pub(crate) unsafe extern "C" fn mark(message: *const c_char) {
    callback_guard("roctxMarkA", (), || {
        let (_, id) = traced(ApiDomain::MarkerCore, CORE_MARK, message, &[], || {
            // SAFETY: the saved entry has this type; the caller's argument passes through.
            if let Some(f) = unsafe { orig::<roctxMarkA_fn_t>(&ORIG.mark) } {
                // SAFETY: the library's own function with the caller's argument.
                unsafe { f(message) };
            }
            0
        });
        // rocprofv3's kernel rename pushes a mark's message onto the thread's rename stack and
        // never pops it on its own (the next pop does): later dispatches carry the mark's id.
        rename_push(id);
    })
}

/// `--kernel-rename`: makes `id` the thread's external correlation id, keeping the previous one
/// for the next pop (a push or a mark).
fn rename_push(id: u64) {
    if !KERNEL_RENAME.load(Ordering::Relaxed) {
        return;
    }
    // A range that was not recorded (collection paused) renames nothing: external id 0.
    let prev = api::set_external(id);
    let _ = RENAME.try_with(|r| {
        let (mut stack, mut n) = r.get();
        if n < RENAME_DEPTH {
            stack[n] = prev;
        }
        n += 1;
        r.set((stack, n));
    });
}

pub(crate) unsafe extern "C" fn push(message: *const c_char) -> c_int {
    callback_guard("roctxRangePushA", 0, || {
        let (level, id) = traced(ApiDomain::MarkerCore, CORE_PUSH, message, &[], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxRangePushA_fn_t>(&ORIG.push) }.map_or(0, |f| unsafe { f(message) }) as i64 as u64
        });
        rename_push(id);
        level as c_int
    })
}

pub(crate) unsafe extern "C" fn pop() -> c_int {
    callback_guard("roctxRangePop", -1, || {
        let level = traced(ApiDomain::MarkerCore, CORE_POP, std::ptr::null(), &[], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxRangePop_fn_t>(&ORIG.pop) }.map_or(-1, |f| unsafe { f() }) as i64 as u64
        })
        .0 as c_int;
        if KERNEL_RENAME.load(Ordering::Relaxed) {
            let _ = RENAME.try_with(|r| {
                let (stack, n) = r.get();
                if n == 0 {
                    return;
                }
                if n <= RENAME_DEPTH {
                    api::set_external(stack[n - 1]);
                }
                r.set((stack, n - 1));
            });
        }
        level
    })
}

pub(crate) unsafe extern "C" fn start(message: *const c_char) -> roctx_range_id_t {
    callback_guard("roctxRangeStartA", 0, || {
        // The library's id is only known after the call, so it is recorded as the return value.
        traced(ApiDomain::MarkerCore, CORE_START, message, &[], || {
            // SAFETY: as in `mark`.
            // Without a ROCTx library (Kokkos regions, `crate::kokkosp`) the ids are ours.
            unsafe { orig::<roctxRangeStartA_fn_t>(&ORIG.start) }
                .map_or_else(|| OWN_RANGE_IDS.fetch_add(1, Ordering::Relaxed), |f| unsafe { f(message) })
        })
        .0
    })
}

pub(crate) unsafe extern "C" fn stop(id: roctx_range_id_t) {
    callback_guard("roctxRangeStop", (), || {
        traced(ApiDomain::MarkerCore, CORE_STOP, std::ptr::null(), &[id], || {
            // SAFETY: as in `mark`.
            if let Some(f) = unsafe { orig::<roctxRangeStop_fn_t>(&ORIG.stop) } {
                // SAFETY: the library's own function with the caller's argument.
                unsafe { f(id) };
            }
            0
        });
    })
}

unsafe extern "C" fn thread_id(tid: *mut roctx_thread_id_t) -> c_int {
    callback_guard("roctxGetThreadId", 0, || {
        traced(ApiDomain::MarkerCore, CORE_THREAD_ID, std::ptr::null(), &[tid as u64], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxGetThreadId_fn_t>(&ORIG.thread_id) }.map_or(0, |f| unsafe { f(tid) }) as i64 as u64
        })
        .0 as c_int
    })
}

/// `roctxProfilerPause`/`roctxProfilerResume` stop and restart collection with
/// `--selected-regions` and, as in rocprofv3 (its tool stops its context on a pause when marker
/// tracing is on), with `--marker-trace`.
fn pause_resume_controls_collection() -> bool {
    SELECTED_REGIONS.load(Ordering::Relaxed) || MARKERS.load(Ordering::Relaxed)
}

unsafe extern "C" fn pause(tid: roctx_thread_id_t) -> c_int {
    callback_guard("roctxProfilerPause", 0, || {
        let rc = traced(ApiDomain::MarkerControl, 0, std::ptr::null(), &[tid], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxProfilerPause_fn_t>(&ORIG.pause) }.map_or(0, |f| unsafe { f(tid) }) as i64 as u64
        })
        .0 as c_int;
        if pause_resume_controls_collection() {
            state::set_collecting(false);
        }
        rc
    })
}

unsafe extern "C" fn resume(tid: roctx_thread_id_t) -> c_int {
    callback_guard("roctxProfilerResume", 0, || {
        if pause_resume_controls_collection() {
            state::set_collecting(true);
        }
        traced(ApiDomain::MarkerControl, 1, std::ptr::null(), &[tid], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxProfilerResume_fn_t>(&ORIG.resume) }.map_or(0, |f| unsafe { f(tid) }) as i64 as u64
        })
        .0 as c_int
    })
}

unsafe extern "C" fn name_thread(name: *const c_char) -> c_int {
    callback_guard("roctxNameOsThread", 0, || {
        traced(ApiDomain::MarkerName, 0, name, &[], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxNameOsThread_fn_t>(&ORIG.name_thread) }.map_or(0, |f| unsafe { f(name) }) as i64 as u64
        })
        .0 as c_int
    })
}

unsafe extern "C" fn name_agent(name: *const c_char, agent: *const hsa_agent_t) -> c_int {
    callback_guard("roctxNameHsaAgent", 0, || {
        // SAFETY: a non-NULL agent points to an `hsa_agent_t` (API contract).
        let handle = if agent.is_null() { 0 } else { unsafe { (*agent).handle } };
        traced(ApiDomain::MarkerName, 1, name, &[handle], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxNameHsaAgent_fn_t>(&ORIG.name_agent) }.map_or(0, |f| unsafe { f(name, agent) }) as i64
                as u64
        })
        .0 as c_int
    })
}

unsafe extern "C" fn name_device(name: *const c_char, device: c_int) -> c_int {
    callback_guard("roctxNameHipDevice", 0, || {
        traced(ApiDomain::MarkerName, 2, name, &[device as i64 as u64], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxNameHipDevice_fn_t>(&ORIG.name_device) }.map_or(0, |f| unsafe { f(name, device) })
                as i64 as u64
        })
        .0 as c_int
    })
}

unsafe extern "C" fn name_stream(name: *const c_char, stream: *const c_void) -> c_int {
    callback_guard("roctxNameHipStream", 0, || {
        traced(ApiDomain::MarkerName, 3, name, &[stream as u64], || {
            // SAFETY: as in `mark`.
            unsafe { orig::<roctxNameHipStream_fn_t>(&ORIG.name_stream) }.map_or(0, |f| unsafe { f(name, stream) })
                as i64 as u64
        })
        .0 as c_int
    })
}

/// Swaps one table entry for our wrapper, saving the original; entries past the table's size,
/// NULL entries and entries that are already ours are left alone.
///
/// # Safety
/// `table` points to a live ROCTx table whose first word is its size; `offset` is the entry's.
unsafe fn swap(table: *mut u8, offset: usize, save: &AtomicUsize, ours: usize) {
    // SAFETY: the first word is the size (caller's contract).
    let size = unsafe { *(table as *const u64) } as usize;
    if offset + 8 > size {
        return;
    }
    // SAFETY: the entry lies inside the table (checked against its size).
    let entry = unsafe { table.add(offset) as *mut usize };
    // SAFETY: as above; the ROCTx library registers its tables before calling through them.
    let current = unsafe { entry.read() };
    if current == 0 || current == ours {
        return;
    }
    save.store(current, Ordering::Release);
    // SAFETY: as above.
    unsafe { entry.write(ours) };
}

/// `rocprofiler_set_api_table("roctx", ...)`: wraps the core, control and name tables.
/// Returns 0 (success) or -1 when fewer than three tables were passed.
///
/// # Safety
/// `tables` holds `count` pointers to the library's live tables (`roctxCoreApiTable_t`,
/// `roctxControlApiTable_t`, `roctxNameApiTable_t`, in that order).
pub unsafe fn install(tables: *mut *mut c_void, count: u64) -> i32 {
    if tables.is_null() || count < 3 {
        return -1;
    }
    if !wanted() {
        return 0;
    }
    // SAFETY: `count >= 3` pointers (caller's contract).
    let (core, control, name) = unsafe { (*tables as *mut u8, *tables.add(1) as *mut u8, *tables.add(2) as *mut u8) };
    use std::mem::offset_of;
    // SAFETY: each pointer is the matching live table (caller's contract); offsets are AMD's.
    unsafe {
        if !core.is_null() {
            swap(core, offset_of!(roctxCoreApiTable_t, roctxMarkA_fn), &ORIG.mark, mark as *const () as usize);
            swap(core, offset_of!(roctxCoreApiTable_t, roctxRangePushA_fn), &ORIG.push, push as *const () as usize);
            swap(core, offset_of!(roctxCoreApiTable_t, roctxRangePop_fn), &ORIG.pop, pop as *const () as usize);
            swap(core, offset_of!(roctxCoreApiTable_t, roctxRangeStartA_fn), &ORIG.start, start as *const () as usize);
            swap(core, offset_of!(roctxCoreApiTable_t, roctxRangeStop_fn), &ORIG.stop, stop as *const () as usize);
            swap(
                core,
                offset_of!(roctxCoreApiTable_t, roctxGetThreadId_fn),
                &ORIG.thread_id,
                thread_id as *const () as usize,
            );
        }
        if !control.is_null() {
            swap(
                control,
                offset_of!(roctxControlApiTable_t, roctxProfilerPause_fn),
                &ORIG.pause,
                pause as *const () as usize,
            );
            swap(
                control,
                offset_of!(roctxControlApiTable_t, roctxProfilerResume_fn),
                &ORIG.resume,
                resume as *const () as usize,
            );
        }
        if !name.is_null() {
            swap(
                name,
                offset_of!(roctxNameApiTable_t, roctxNameOsThread_fn),
                &ORIG.name_thread,
                name_thread as *const () as usize,
            );
            swap(
                name,
                offset_of!(roctxNameApiTable_t, roctxNameHsaAgent_fn),
                &ORIG.name_agent,
                name_agent as *const () as usize,
            );
            swap(
                name,
                offset_of!(roctxNameApiTable_t, roctxNameHipDevice_fn),
                &ORIG.name_device,
                name_device as *const () as usize,
            );
            swap(
                name,
                offset_of!(roctxNameApiTable_t, roctxNameHipStream_fn),
                &ORIG.name_stream,
                name_stream as *const () as usize,
            );
        }
    }
    0
}
