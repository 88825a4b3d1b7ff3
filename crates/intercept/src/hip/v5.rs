//! HIP 5.x (Debian 12's HIP 5.2): roctracer's callback protocol of `libamdhip64.so.5`.
//!
//! How HIP 5.x calls a tracer (its `hip_prof_api.h`, `api_callbacks_spawner_t`): at the start of
//! every API call with an *activity* callback registered for its id, HIP calls that callback as
//! `act(id, NULL, NULL, NULL)` and fills the `hip_api_data_t` it returns with the arguments; then
//! it calls the *API* callback, if one is registered, as `fun(ACTIVITY_DOMAIN_HIP_API, id, data,
//! arg)` (phase ENTER); after the call it calls `fun` again (phase EXIT) and finally
//! `act(id, NULL, NULL, a_arg)` with the argument the activity callback was registered with. An
//! API callback alone never fires; a NULL record from `act` switches both off for that call.
//!
//! We register the activity callback for every id, and the API callback only for functions with
//! a `stream` parameter (to attribute the kernels and copies they issue to the stream before the
//! call body runs). The records live in a per-thread stack of [`DEPTH`] frames (HIP calls nest
//! when one API function calls another); the call is timed from `act` to `act`, and its argument
//! words are copied out of the record at the offsets of `rocprof_hsa_sys::HIP_PROF_FUNCTIONS_5_2`
//! (checked against the installed header at build time, see `build.rs`).
//!
//! Registration happens when the interception library is loaded into a HIP 5.x process (its
//! constructor runs after libamdhip64's) or at `OnLoad` for a HIP loaded later, never for a HIP
//! that hands us its dispatch tables (ROCm 6.2+, [`super::install_tables`]).

use std::ffi::CStr;
use std::sync::atomic::Ordering;

use rocprof_hsa_sys::*;

use super::{lookup, Operation};
use crate::api::{self, Level};
use crate::diag::Level as DiagLevel;
use crate::guard::callback_guard;
use crate::thread;
pub use crate::thread::hip5::DEPTH;

/// Most HIP API ids we handle (HIP 5.2 has 333; later 5.x releases a few more).
const MAX_IDS: usize = 512;

/// What we know about each HIP API id (layouts index `HIP_PROF_FUNCTIONS_5_2`).
static OPS: [Operation; MAX_IDS] = [const { Operation::new() }; MAX_IDS];

/// Marks the exit call of the activity callback (HIP passes back what we registered).
const EXIT_TAG: *mut c_void = std::ptr::dangling_mut::<c_void>();

/// The activity callback (`hip_act_callback_t`): hands out a record at entry, records the call at
/// exit. Runs inside every traced HIP call; no allocation, no lock.
///
/// # Safety
/// Called by HIP under the protocol described in the module docs.
pub unsafe extern "C" fn activity(
    id: u32,
    _record: *mut c_void,
    _data: *const c_void,
    arg: *mut c_void,
) -> *mut c_void {
    if arg.is_null() {
        callback_guard("HIP activity callback", std::ptr::null_mut(), || enter(id))
    } else {
        callback_guard("HIP activity callback", std::ptr::null_mut(), || {
            exit(id);
            std::ptr::null_mut()
        })
    }
}

fn enter(id: u32) -> *mut c_void {
    let Some(op) = OPS.get(id as usize) else { return std::ptr::null_mut() };
    let compiler = op.compiler.load(Ordering::Relaxed) != 0;
    let recording = super::recording(compiler);
    let Some(t) = thread::current() else { return std::ptr::null_mut() };
    let f = &t.hip5;
    let top = f.top.get();
    if top >= DEPTH {
        // Not a capture-space loss: this call (and its exit) is simply not traced.
        if let (true, Some(g)) = (recording, crate::state::global()) {
            g.sink.count_loss(rocprof_model::LossReason::HipNestingTooDeep);
        }
        return std::ptr::null_mut();
    }
    let call = recording.then(|| api::enter_on(Some(t), Level::Runtime));
    // SAFETY: frame `top` is this thread's and unused (`top` counts the frames in use);
    // no other reference to it exists.
    let frame = unsafe { &mut (*f.frames.get())[top] };
    frame.call = call;
    frame.id = id;
    frame.prev_stream = u64::MAX;
    let head = hip_api_data_head_t { correlation_id: call.map_or(0, |c| c.id), phase: ACTIVITY_API_PHASE_ENTER };
    // SAFETY: the record starts with the head (`hip_api_data_t`); `data` is 8-aligned.
    unsafe { (frame.data.as_mut_ptr() as *mut hip_api_data_head_t).write(head) };
    f.top.set(top + 1);
    frame.data.as_mut_ptr() as *mut c_void
}

fn exit(id: u32) {
    let Some(t) = thread::current() else { return };
    let f = &t.hip5;
    let top = f.top.get();
    if top == 0 {
        return;
    }
    f.top.set(top - 1);
    // SAFETY: frame `top - 1` is this thread's innermost frame, handed to HIP by `enter`; HIP
    // is done with it (this is its exit notification).
    let frame = unsafe { &mut (*f.frames.get())[top - 1] };
    if frame.id != id {
        crate::diag!(DiagLevel::Warning, "HIP callbacks out of order (id {} ended, {} expected)", id, frame.id);
    }
    if frame.prev_stream != u64::MAX {
        api::set_stream_on(Some(t), frame.prev_stream);
    }
    let Some(call) = frame.call.take() else { return };
    let end = api::leave_on(Some(t), &call);
    let op = &OPS[frame.id as usize];
    let mut words = [0u64; rocprof_model::api::MAX_API_ARGS];
    let n = copy_args(op, &frame.data, &mut words);
    let compiler = op.compiler.load(Ordering::Relaxed) != 0;
    super::record(Some(t), compiler, frame.id, || op.name(), &call, end, 0, &words[..n]);
}

/// The API callback (`activity_rtapi_callback_t`), registered only for functions with a stream
/// parameter: at ENTER the arguments are filled, so the stream is known before the body runs.
///
/// # Safety
/// Called by HIP with the record `activity` handed out for this call.
pub unsafe extern "C" fn api_callback(_domain: u32, id: u32, data: *const c_void, _arg: *mut c_void) {
    callback_guard("HIP API callback", (), || {
        if data.is_null() {
            return;
        }
        // SAFETY: `data` is the record we handed out, which starts with the head.
        let head = unsafe { *(data as *const hip_api_data_head_t) };
        if head.phase != ACTIVITY_API_PHASE_ENTER {
            return;
        }
        let Some(op) = OPS.get(id as usize) else { return };
        let off = op.stream.load(Ordering::Relaxed);
        if off == 0 {
            return;
        }
        // SAFETY: the record is HIP_API_DATA_SIZE bytes; `off - 1` is the stream member's offset
        // inside it (from the layout table), 8-byte aligned.
        let stream = unsafe { *((data as *const u8).add(usize::from(off) - 1) as *const u64) };
        let Some(t) = thread::current() else { return };
        let f = &t.hip5;
        let top = f.top.get();
        if top == 0 {
            return;
        }
        // SAFETY: the innermost frame belongs to this call (HIP calls `fun` between our
        // `enter` and `exit` for the same id), owned by this thread.
        let frame = unsafe { &mut (*f.frames.get())[top - 1] };
        if frame.id == id {
            frame.prev_stream = api::set_stream_on(Some(t), stream);
        }
    })
}

/// Copies the argument words of the record into `out` by the operation's HIP 5.2 layout; returns
/// how many.
fn copy_args(op: &Operation, data: &[u8; HIP_API_DATA_SIZE], out: &mut [u64]) -> usize {
    let layout = op.layout.load(Ordering::Relaxed);
    if layout == 0 {
        return 0;
    }
    let f = &HIP_PROF_FUNCTIONS_5_2[usize::from(layout) - 1];
    // SAFETY: `data` is a whole, initialised record of HIP_API_DATA_SIZE bytes.
    unsafe { super::copy_args(f, data.as_ptr(), data.len(), out) }
}

/// True when the process has a HIP 5.x with roctracer's hooks and no rocprofiler-register (a
/// ROCm 6 HIP hands us its tables instead).
pub fn available() -> bool {
    !lookup(c"hipRegisterActivityCallback").is_null()
        && !lookup(c"hipApiName").is_null()
        && lookup(c"rocprofiler_register_library_api_table").is_null()
}

/// Registers our callbacks with HIP 5.x (cold path; once). Returns the number of API ids
/// registered, 0 when this HIP has no hooks or tables were handed to us already.
pub fn register() -> usize {
    if super::mechanism() != super::Mechanism::None || !available() {
        return 0;
    }
    let act = lookup(c"hipRegisterActivityCallback");
    let api = lookup(c"hipRegisterApiCallback");
    let name = lookup(c"hipApiName");
    // SAFETY: these are HIP 5.x's exported functions with the documented signatures
    // (`hip_runtime_api.h`).
    let (act, name): (hipRegisterActivityCallback_fn_t, hipApiName_fn_t) = unsafe {
        (
            std::mem::transmute::<*mut c_void, hipRegisterActivityCallback_fn_t>(act),
            std::mem::transmute::<*mut c_void, hipApiName_fn_t>(name),
        )
    };
    let api: Option<hipRegisterApiCallback_fn_t> =
        // SAFETY: as above.
        (!api.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, hipRegisterApiCallback_fn_t>(api) });
    let mut registered = 0;
    for id in 1..MAX_IDS as u32 {
        // SAFETY: `hipApiName` takes any id and returns a static string (or "unknown").
        let p = unsafe { name(id) };
        let fname = if p.is_null() {
            ""
        } else {
            // SAFETY: a NUL-terminated static string.
            unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
        };
        let op = &OPS[id as usize];
        if !fname.is_empty() && fname != "unknown" {
            op.name.store(p as *mut c_char, Ordering::Relaxed);
            op.compiler.store(u8::from(fname.starts_with("__hip")), Ordering::Relaxed);
            if let Some(i) = HIP_PROF_FUNCTIONS_5_2.iter().position(|f| f.name == fname) {
                op.layout.store(i as u16 + 1, Ordering::Relaxed);
                let f = &HIP_PROF_FUNCTIONS_5_2[i];
                if let Some(s) = f.args.iter().find(|a| a.ty == "hipStream_t" && a.class == HipArgClass::Pointer) {
                    op.stream.store(s.offset + 1, Ordering::Relaxed);
                }
            }
        }
        // SAFETY: registering our callbacks for `id`; HIP rejects ids past its last one.
        let rc = unsafe { act(id, activity as *mut c_void, EXIT_TAG) };
        if rc != 0 {
            break;
        }
        registered += 1;
        if let (Some(api), true) = (api, op.stream.load(Ordering::Relaxed) != 0) {
            // SAFETY: as above.
            unsafe { api(id, api_callback as *mut c_void, std::ptr::null_mut()) };
        }
    }
    if registered > 0 {
        super::MECHANISM.store(super::Mechanism::Callbacks as u8, Ordering::Release);
    }
    registered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_copied_from_the_record_at_hip_5_2_offsets() {
        let i = HIP_PROF_FUNCTIONS_5_2.iter().position(|f| f.name == "hipLaunchKernel").unwrap();
        let op = Operation::new();
        op.layout.store(i as u16 + 1, Ordering::Relaxed);
        let mut data = [0u8; HIP_API_DATA_SIZE];
        data[16..24].copy_from_slice(&0x1234u64.to_le_bytes()); // function_address
        data[24..28].copy_from_slice(&64u32.to_le_bytes()); // numBlocks.x
        data[28..32].copy_from_slice(&2u32.to_le_bytes());
        data[32..36].copy_from_slice(&1u32.to_le_bytes());
        data[64..72].copy_from_slice(&4096u64.to_le_bytes()); // sharedMemBytes
        data[72..80].copy_from_slice(&0xABCDu64.to_le_bytes()); // stream
        let mut out = [0u64; 16];
        let n = copy_args(&op, &data, &mut out);
        assert_eq!(n, 6);
        assert_eq!(out[0], 0x1234);
        assert_eq!(out[1], super::super::pack_dim3(64, 2, 1));
        assert_eq!(out[4], 4096);
        assert_eq!(out[5], 0xABCD);
    }

    /// HIP calls nested deeper than [`DEPTH`] on one thread are counted as
    /// `hip_nesting_too_deep`, not as a capture-space loss. Runs in a child process of this test
    /// binary: it installs the process-wide state, which the other tests must not see.
    #[test]
    fn calls_nested_too_deep_are_counted_as_their_own_reason() {
        const CHILD: &str = rocprof_launch::names::TEST_HIP_NESTING_CHILD;
        if std::env::var_os(CHILD).is_none() {
            let exe = std::env::current_exe().unwrap();
            let name = "hip::v5::tests::calls_nested_too_deep_are_counted_as_their_own_reason";
            let out = std::process::Command::new(exe)
                .args([name, "--exact", "--nocapture", "--test-threads", "1"])
                .env(CHILD, "1")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success() && text.contains("1 passed"), "child:\n{text}");
            return;
        }
        use rocprof_model::LossReason;
        let path = std::env::temp_dir().join(format!("rocprof-hip-nesting-{}.rpcap", std::process::id()));
        let sink: &'static crate::sink::Sink =
            Box::leak(Box::new(crate::sink::Sink::create(&path, &Default::default()).unwrap()));
        let _ = std::fs::remove_file(&path);
        let g = crate::state::init_global(crate::state::Global::new(sink, true, &[0xA9]));
        super::super::RUNTIME.store(true, Ordering::Relaxed);
        crate::state::set_collecting(true);
        for depth in 0..DEPTH {
            assert!(!enter(1).is_null(), "call {depth} is traced");
        }
        assert!(enter(1).is_null(), "call {DEPTH} is past the frame stack");
        assert!(enter(1).is_null());
        assert_eq!(g.sink.losses(LossReason::HipNestingTooDeep), 2);
        assert_eq!(g.sink.losses(LossReason::ChunkPoolEmpty), 0, "not a capture-space loss");
    }

    #[test]
    fn signed_and_enum_arguments_are_sign_extended() {
        let i = HIP_PROF_FUNCTIONS_5_2.iter().position(|f| f.name == "hipSetDevice").unwrap();
        let op = Operation::new();
        op.layout.store(i as u16 + 1, Ordering::Relaxed);
        let mut data = [0u8; HIP_API_DATA_SIZE];
        let off = usize::from(HIP_PROF_FUNCTIONS_5_2[i].args[0].offset);
        data[off..off + 4].copy_from_slice(&(-1i32).to_le_bytes());
        let mut out = [0u64; 16];
        assert_eq!(copy_args(&op, &data, &mut out), 1);
        assert_eq!(out[0] as i64, -1);
    }
}
