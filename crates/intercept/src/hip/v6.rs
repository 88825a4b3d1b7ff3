//! HIP 6.x without rocprofiler-register (Debian sid's HIP 6.4): roctracer's single-callback
//! protocol of `libamdhip64.so.6`.
//!
//! How HIP 6.x calls a tracer (its `hip_prof_api.h`, `api_callbacks_spawner_t`, and roctracer's
//! `TracerCallback`, the other side of it): `hipRegisterTracerCallback(f)` stores `f`. At the start
//! of every public HIP call HIP calls `f(ACTIVITY_DOMAIN_HIP_API, id, &trace)`, `trace` being a
//! `hip_api_trace_data_t` on HIP's stack, uninitialised. Returning 0 opts the call in; the tracer
//! must then have set `api_data.correlation_id` (HIP takes it as the id of the GPU work the call
//! issues, for its own activity records) and both phase functions (NULL: not called; with
//! `phase_enter` NULL HIP does not fill the arguments either). HIP then fills
//! `api_data.args.<function>`, calls `phase_enter(id, &trace)`, runs the call, and calls
//! `phase_exit(id, &trace)` when it returns. Any other question (HIP's `ACTIVITY_DOMAIN_HIP_OPS`
//! probes for its own activity records: we take kernels and copies from HSA) gets -1: not wanted.
//!
//! Between the phases we keep the call's [`api::Call`] in a per-thread stack of [`DEPTH`] frames (HIP
//! calls nest when one API function calls another), the frame's index in `api_data.phase` (which
//! HIP never reads in this protocol) and the stream to restore in `trace.phase_data`. The call is
//! timed from the tracer callback to `phase_exit`; its argument words are read from the record at
//! the offsets of `rocprof_hsa_sys::HIP_PROF_OPS_6_4` (generated from HIP 6.4's header, the pin
//! checked against the installed header by `tests/e2e/hip6_trace.rs`). A HIP 6.x other than 6.4
//! is handled by name: every id is looked up through `hipApiName` at registration, so a release
//! that numbers its operations differently still reads each function by its own layout.
//!
//! Registration happens where the HIP 5.x callbacks are registered ([`super::v5`]), for a HIP
//! that exports `hipRegisterTracerCallback` but neither the 5.x hooks nor rocprofiler-register (a
//! HIP linked with rocprofiler-register hands us its dispatch tables instead).

use std::ffi::CStr;
use std::sync::atomic::Ordering;

use rocprof_hsa_sys::*;

use super::{lookup, Operation};
use crate::api::{self, Level};
use crate::diag::Level as DiagLevel;
use crate::guard::callback_guard;
use crate::thread;
pub use crate::thread::hip6::DEPTH;

/// Most HIP API ids we handle (HIP 6.4 has 418).
const MAX_IDS: usize = 1024;

/// `ACTIVITY_DOMAIN_HIP_API` (roctracer's `prof_protocol.h`).
const DOMAIN_HIP_API: u32 = ACTIVITY_DOMAIN_HIP_API;

/// `hip_api_trace_data_t` of HIP 6.4.
type TraceData = hip_api_trace_data_t_6_4;

/// `void hipRegisterTracerCallback(int (*)(activity_domain_t, uint32_t, void*))`.
type RegisterTracer = unsafe extern "C" fn(function: *const c_void);

/// `trace.phase_data` when the call named no stream (nothing to restore).
const NO_STREAM: u64 = u64::MAX;

/// What we know about each HIP API id (layouts index `HIP_PROF_OPS_6_4`).
static OPS: [Operation; MAX_IDS] = [const { Operation::new() }; MAX_IDS];

/// The tracer callback HIP calls at the start of every API call (and with its activity probes).
///
/// # Safety
/// Called by HIP under the protocol described in the module docs: for `ACTIVITY_DOMAIN_HIP_API`,
/// `data` is the call's `hip_api_trace_data_t`.
pub unsafe extern "C" fn tracer(domain: u32, id: u32, data: *mut c_void) -> c_int {
    if domain != DOMAIN_HIP_API || data.is_null() {
        return -1;
    }
    // SAFETY: `data` is HIP's trace record for this call (caller's contract).
    callback_guard("HIP tracer callback", -1, || unsafe { begin(id, data.cast()) })
}

/// Opens a traced call: returns 0 with the record's correlation id and phase functions set, or
/// -1 (call not traced).
///
/// # Safety
/// `t` points to HIP's (uninitialised) `hip_api_trace_data_t` for this call.
unsafe fn begin(id: u32, t: *mut TraceData) -> c_int {
    if super::mechanism() != super::Mechanism::Tracer {
        return -1; // the dispatch tables reached us after all
    }
    let Some(op) = OPS.get(id as usize) else { return -1 };
    let compiler = op.compiler.load(Ordering::Relaxed) != 0;
    if !super::recording(compiler) {
        return -1;
    }
    let Some(th) = thread::current() else { return -1 };
    let f = &th.hip6;
    let frame = f.top.get();
    if frame >= DEPTH {
        // Not a capture-space loss: this call (and its exit) is simply not traced.
        if let Some(g) = crate::state::global() {
            g.sink.count_loss(rocprof_model::LossReason::HipNestingTooDeep);
        }
        return -1;
    }
    let call = api::enter_on(Some(th), Level::Runtime);
    // SAFETY: frame `frame` is this thread's and unused (`top` counts the frames in use); no
    // other reference to the array exists.
    unsafe { (*f.calls.get())[frame] = Some(call) };
    f.top.set(frame + 1);
    let correlation_id = call.id;
    let head = hip_api_data_head_t { correlation_id, phase: frame as u32 };
    // SAFETY: `t` is valid for writes of the whole record (caller); the record starts with
    // `hip_api_data_t`, whose head is the correlation id and the phase. Raw writes: no reference
    // to the uninitialised record is formed.
    unsafe {
        (t as *mut hip_api_data_head_t).write_unaligned(head);
        (&raw mut (*t).phase_data).write(NO_STREAM);
        (&raw mut (*t).phase_enter).write(Some(phase_enter));
        (&raw mut (*t).phase_exit).write(Some(phase_exit));
    }
    0
}

/// `phase_enter`: the arguments are filled, the body has not run: put the GPU work it issues on
/// the stream it names.
///
/// # Safety
/// Called by HIP with the record [`begin`] opened for this call.
unsafe extern "C" fn phase_enter(id: u32, t: *mut TraceData) {
    callback_guard("HIP tracer enter", (), || {
        let Some(op) = OPS.get(id as usize) else { return };
        let off = op.stream.load(Ordering::Relaxed);
        if off == 0 {
            return;
        }
        // SAFETY: `off - 1` is the offset of this function's `stream` member (a pointer) inside the
        // record, which HIP filled before calling us; `phase_data` is ours (set by `begin`).
        unsafe {
            let stream = (t as *const u8).add(usize::from(off) - 1).cast::<u64>().read_unaligned();
            (&raw mut (*t).phase_data).write(api::set_stream_on(thread::current(), stream));
        }
    })
}

/// `phase_exit`: the call has returned: record it.
///
/// # Safety
/// Called by HIP with the record [`begin`] opened (and [`phase_enter`] saw) for this call.
unsafe extern "C" fn phase_exit(id: u32, t: *mut TraceData) {
    callback_guard("HIP tracer exit", (), || {
        // SAFETY: `begin` wrote the head and `phase_data`; HIP does not write either.
        let (head, prev_stream) =
            unsafe { ((t as *const hip_api_data_head_t).read_unaligned(), (&raw const (*t).phase_data).read()) };
        let Some(th) = thread::current() else { return };
        if prev_stream != NO_STREAM {
            api::set_stream_on(Some(th), prev_stream);
        }
        let frame = head.phase as usize;
        let f = &th.hip6;
        let top = f.top.get();
        if frame >= top {
            return;
        }
        if frame + 1 != top {
            crate::diag!(DiagLevel::Warning, "HIP tracer calls out of order (frame {} ended, {} open)", frame, top);
        }
        f.top.set(frame);
        // SAFETY: frame `frame` is this thread's and in use (below `top`); no other reference to
        // the array exists.
        let Some(call) = (unsafe { (*f.calls.get())[frame].take() }) else { return };
        let end = api::leave_on(Some(th), &call);
        let Some(op) = OPS.get(id as usize) else { return };
        let mut words = [0u64; rocprof_model::api::MAX_API_ARGS];
        let layout = op.layout.load(Ordering::Relaxed);
        let n = match layout {
            0 => 0,
            // SAFETY: HIP filled this function's parameters in the record before `phase_enter`;
            // they lie before the record's trailing `phase_data` (checked by the layout table).
            l => unsafe {
                super::copy_args(
                    &HIP_PROF_OPS_6_4[usize::from(l) - 1],
                    t as *const u8,
                    HIP_API_DATA_PHASE_DATA_OFFSET_6_4,
                    &mut words,
                )
            },
        };
        let compiler = op.compiler.load(Ordering::Relaxed) != 0;
        super::record(Some(th), compiler, id, || op.name(), &call, end, 0, &words[..n]);
    })
}

/// True when the process has a HIP with roctracer's single tracer callback, no HIP 5.x hooks and
/// no rocprofiler-register (which would hand us the dispatch tables).
pub fn available() -> bool {
    !lookup(c"hipRegisterTracerCallback").is_null()
        && !lookup(c"hipApiName").is_null()
        && lookup(c"hipRegisterActivityCallback").is_null()
        && lookup(c"rocprofiler_register_library_api_table").is_null()
}

/// The layout of HIP function `name` in HIP 6.4's table: its index there, preferring `id`'s own
/// entry (the same release numbers alike).
fn layout_of(id: u32, name: &str) -> Option<usize> {
    let own = (id as usize).checked_sub(1).filter(|&i| HIP_PROF_OPS_6_4.get(i).is_some_and(|f| f.name == name));
    own.or_else(|| HIP_PROF_OPS_6_4.iter().position(|f| f.name == name))
}

/// Fills the entry of operation `id`, named `fname` (at `p`, static); returns false when HIP 6.4
/// numbers the function differently (or does not have it).
fn name_operation(id: u32, p: *const c_char, fname: &str) -> bool {
    let op = &OPS[id as usize];
    op.name.store(p as *mut c_char, Ordering::Relaxed);
    op.compiler.store(u8::from(fname.starts_with("__hip")), Ordering::Relaxed);
    let Some(i) = layout_of(id, fname) else { return false };
    op.layout.store(i as u16 + 1, Ordering::Relaxed);
    let f = &HIP_PROF_OPS_6_4[i];
    if let Some(s) = f.args.iter().find(|a| a.ty == "hipStream_t" && a.class == HipArgClass::Pointer) {
        op.stream.store(s.offset + 1, Ordering::Relaxed);
    }
    i + 1 == id as usize
}

/// Registers our tracer with HIP 6.x (cold path; once). Returns the number of API ids named,
/// 0 when this HIP has no tracer hook or another mechanism is in use.
pub fn register() -> usize {
    if super::mechanism() != super::Mechanism::None || !available() {
        return 0;
    }
    let reg = lookup(c"hipRegisterTracerCallback");
    let name = lookup(c"hipApiName");
    // SAFETY: these are HIP's exported functions with these signatures (`hip_intercept.cpp`,
    // `hip_runtime_api.h`).
    let (reg, name) = unsafe {
        (
            std::mem::transmute::<*mut c_void, RegisterTracer>(reg),
            std::mem::transmute::<*mut c_void, hipApiName_fn_t>(name),
        )
    };
    let (mut named, mut renumbered) = (0, 0);
    for id in 1..MAX_IDS as u32 {
        // SAFETY: `hipApiName` takes any id and returns a static string ("unknown" past the end).
        let p = unsafe { name(id) };
        let fname = if p.is_null() {
            ""
        } else {
            // SAFETY: a NUL-terminated static string.
            unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
        };
        if fname.is_empty() || fname == "unknown" {
            continue;
        }
        renumbered += usize::from(!name_operation(id, p, fname));
        named += 1;
    }
    if renumbered > 0 {
        crate::diag!(
            DiagLevel::Info,
            "this HIP numbers {} API operations unlike HIP 6.4; their arguments are read by function name",
            renumbered
        );
    }
    // Before the first call can reach the tracer.
    super::MECHANISM.store(super::Mechanism::Tracer as u8, Ordering::Release);
    // SAFETY: registering our tracer (an `int (*)(activity_domain_t, uint32_t, void*)`), which
    // stays valid for the life of the process.
    unsafe { reg(tracer as *const c_void) };
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_found_by_id_and_by_name() {
        let launch = HIP_PROF_OPS_6_4.iter().position(|f| f.name == "hipLaunchKernel").unwrap();
        assert_eq!(layout_of(launch as u32 + 1, "hipLaunchKernel"), Some(launch));
        assert_eq!(layout_of(1, "hipLaunchKernel"), Some(launch), "another release's id: found by name");
        assert_eq!(layout_of(1, "hipNoSuchFunction"), None);
    }

    /// HIP's side of one call: the tracer question, then (if opted in) the arguments written where
    /// HIP 6.4's `INIT_<function>_CB_ARGS_DATA` writes them, `phase_enter`, the body, `phase_exit`.
    struct HipCall(Box<std::mem::MaybeUninit<TraceData>>);

    impl HipCall {
        fn new() -> Self {
            // Garbage, as HIP's uninitialised stack record would be.
            let mut b = Box::new(std::mem::MaybeUninit::<TraceData>::uninit());
            // SAFETY: filling our own allocation with a pattern.
            unsafe { std::ptr::write_bytes(b.as_mut_ptr() as *mut u8, 0xA5, std::mem::size_of::<TraceData>()) };
            HipCall(b)
        }
        fn ptr(&mut self) -> *mut TraceData {
            self.0.as_mut_ptr()
        }
        fn open(&mut self, id: u32) -> c_int {
            // SAFETY: a writable record, as HIP passes.
            unsafe { tracer(DOMAIN_HIP_API, id, self.ptr().cast()) }
        }
        fn put(&mut self, offset: u16, bytes: &[u8]) {
            // SAFETY: inside the record (offsets come from the layout table).
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), (self.ptr() as *mut u8).add(offset.into()), bytes.len())
            };
        }
        fn enter(&mut self, id: u32) {
            // SAFETY: `open` returned 0, so both phase functions were written.
            unsafe { ((*self.ptr()).phase_enter.unwrap())(id, self.ptr()) }
        }
        fn exit(&mut self, id: u32) {
            // SAFETY: as above.
            unsafe { ((*self.ptr()).phase_exit.unwrap())(id, self.ptr()) }
        }
        fn correlation_id(&mut self) -> u64 {
            // SAFETY: written by the tracer.
            unsafe { (self.ptr() as *const u64).read() }
        }
    }

    /// Runs the test `name` (this module's) again in a child process of the test binary and
    /// checks that it passed there; returns false in the child, which then runs the body. For
    /// tests that install the process-wide state, which the other tests must not see.
    fn in_child(name: &str) -> bool {
        const CHILD: &str = rocprof_launch::names::TEST_HIP6_CHILD;
        if std::env::var_os(CHILD).is_some() {
            return false;
        }
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new(exe)
            .args([&format!("hip::v6::tests::{name}"), "--exact", "--nocapture", "--test-threads", "1"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && text.contains("1 passed"), "child:\n{text}");
        true
    }

    /// This process as a traced one: a capture, HIP runtime tracing through the tracer, every
    /// operation named as `register` names them (from HIP's own strings).
    fn traced_process() -> (std::path::PathBuf, &'static crate::state::Global) {
        let path = std::env::temp_dir().join(format!("rocprof-hip6-{}.rpcap", std::process::id()));
        let sink: &'static crate::sink::Sink =
            Box::leak(Box::new(crate::sink::Sink::create(&path, &Default::default()).unwrap()));
        let g = crate::state::init_global(crate::state::Global::new(sink, true, &[0xA9]));
        super::super::RUNTIME.store(true, Ordering::Relaxed);
        super::super::MECHANISM.store(super::super::Mechanism::Tracer as u8, Ordering::Relaxed);
        crate::state::set_collecting(true);
        for (i, f) in HIP_PROF_OPS_6_4.iter().enumerate() {
            let name: &'static std::ffi::CStr = Box::leak(std::ffi::CString::new(f.name).unwrap().into_boxed_c_str());
            assert!(name_operation(i as u32 + 1, name.as_ptr(), f.name));
        }
        (path, g)
    }

    fn id_of(name: &str) -> u32 {
        HIP_PROF_OPS_6_4.iter().position(|f| f.name == name).unwrap() as u32 + 1
    }

    fn arg(name: &str, param: &str) -> HipProfArg {
        let f = HIP_PROF_OPS_6_4.iter().find(|f| f.name == name).unwrap();
        *f.args.iter().find(|a| a.name == param).unwrap()
    }

    /// The whole protocol against a capture: a traced hipLaunchKernel gets HIP's id, its stream is
    /// in force while its body runs, and its record holds the arguments HIP filled; nested calls
    /// chain; HIP's activity probes and a paused collection are declined; calls nested deeper
    /// than [`DEPTH`] are declined and counted. Runs in a child process of this test binary: it
    /// installs the process-wide state, which the other tests must not see.
    #[test]
    fn a_call_through_the_tracer_protocol_is_recorded_with_its_arguments_and_stream() {
        if in_child("a_call_through_the_tracer_protocol_is_recorded_with_its_arguments_and_stream") {
            return;
        }
        use rocprof_model::LossReason;
        let (path, g) = traced_process();
        let (launch, get_device) = (id_of("hipLaunchKernel"), id_of("hipGetDevice"));

        // HIP's activity probes (HIP_OPS, data NULL) are declined: kernels come from HSA.
        // SAFETY: the probe form of the call.
        assert_eq!(unsafe { tracer(2, launch, std::ptr::null_mut()) }, -1);

        let mut call = HipCall::new();
        assert_eq!(call.open(launch), 0, "a traced call opts in");
        let id = call.correlation_id();
        assert_ne!(id, 0xA5A5_A5A5_A5A5_A5A5, "the correlation id HIP hands on is ours");
        call.put(arg("hipLaunchKernel", "function_address").offset, &0x1234u64.to_le_bytes());
        let blocks = arg("hipLaunchKernel", "numBlocks").offset;
        call.put(blocks, &[16u32.to_le_bytes(), 2u32.to_le_bytes(), 1u32.to_le_bytes()].concat());
        let threads = arg("hipLaunchKernel", "dimBlocks").offset;
        call.put(threads, &[256u32.to_le_bytes(), 1u32.to_le_bytes(), 1u32.to_le_bytes()].concat());
        call.put(arg("hipLaunchKernel", "args").offset, &0x5000u64.to_le_bytes());
        call.put(arg("hipLaunchKernel", "sharedMemBytes").offset, &4096u64.to_le_bytes());
        call.put(arg("hipLaunchKernel", "stream").offset, &0xABCDu64.to_le_bytes());
        call.enter(launch);
        assert_eq!(api::stream(), 0xABCD, "the launch's stream is in force while its body runs");
        assert_eq!(api::issuer().0, id, "GPU work issued now belongs to the launch");
        // A HIP call nested in the launch's body.
        let mut inner = HipCall::new();
        assert_eq!(inner.open(get_device), 0);
        inner.put(arg("hipGetDevice", "deviceId").offset, &0x99u64.to_le_bytes());
        inner.enter(get_device);
        inner.exit(get_device);
        assert_eq!(api::issuer().0, id, "the nested call ended, the launch is the issuer again");
        call.exit(launch);
        assert_eq!(api::stream(), 0, "the stream is restored after the call");

        // Paused collection: declined.
        crate::state::set_collecting(false);
        assert_eq!(HipCall::new().open(launch), -1);
        crate::state::set_collecting(true);
        // Deeper than DEPTH: declined and counted.
        let mut open: Vec<HipCall> = (0..DEPTH).map(|_| HipCall::new()).collect();
        for c in &mut open {
            assert_eq!(c.open(get_device), 0);
        }
        assert_eq!(HipCall::new().open(get_device), -1);
        assert_eq!(g.sink.losses(LossReason::HipNestingTooDeep), 1);
        for c in open.iter_mut().rev() {
            c.enter(get_device);
            c.exit(get_device);
        }

        let cap = rocprof_model::capture::read_capture(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let calls = &cap.trace.api_calls;
        assert_eq!(calls.len(), 2 + DEPTH);
        let l = calls.iter().find(|c| c.operation == launch).unwrap();
        assert_eq!(cap.trace.strings.resolve(l.name), "hipLaunchKernel");
        assert_eq!(l.correlation.internal.0, id);
        assert_eq!(
            &l.args[..],
            &[0x1234, super::super::pack_dim3(16, 2, 1), super::super::pack_dim3(256, 1, 1), 0x5000, 4096, 0xABCD]
        );
        let d = calls.iter().find(|c| c.operation == get_device && c.correlation.ancestor.0 == id).unwrap();
        assert_eq!(&d.args[..], &[0x99]);
        assert!(d.start >= l.start && d.end <= l.end, "the nested call lies inside the launch");
    }

    /// HIP calls made while a thread's thread-local storage is being torn down (as HIP 6.4 makes
    /// them from `__cxa_finalize`, after glibc ran the main thread's TLS destructors) are recorded:
    /// the thread-locals the tracer path touches (the frames, the correlation context, the
    /// capture cursor, the thread id) have no destructor, so they are never gone. Made from the
    /// destructor of a thread-local that the exiting thread tears down; a thread-local with a
    /// destructor on this path would be torn down before or with it and the call lost (with
    /// `try_with`) or panic (with `with`).
    #[test]
    fn hip_calls_made_while_thread_locals_are_torn_down_are_recorded() {
        if in_child("hip_calls_made_while_thread_locals_are_torn_down_are_recorded") {
            return;
        }
        let (path, _g) = traced_process();
        struct CallsHipWhenDropped;
        impl Drop for CallsHipWhenDropped {
            fn drop(&mut self) {
                let id = id_of("hipFree");
                let mut call = HipCall::new();
                assert_eq!(call.open(id), 0, "traced while TLS is torn down");
                call.put(arg("hipFree", "ptr").offset, &0xF4EEu64.to_le_bytes());
                call.enter(id);
                call.exit(id);
            }
        }
        thread_local! {
            static LATE: std::cell::RefCell<Option<CallsHipWhenDropped>> = const { std::cell::RefCell::new(None) };
        }
        let tid = std::thread::spawn(|| {
            // Registered before the thread touches any of ours: torn down after them, if they
            // had destructors.
            LATE.with(|l| *l.borrow_mut() = Some(CallsHipWhenDropped));
            // One traced call while alive, so the thread's thread-locals are all in use.
            let id = id_of("hipGetDevice");
            let mut call = HipCall::new();
            assert_eq!(call.open(id), 0);
            call.enter(id);
            call.exit(id);
            crate::sink::tid()
        })
        .join()
        .unwrap();
        let cap = rocprof_model::capture::read_capture(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let free = cap.trace.api_calls.iter().find(|c| c.operation == id_of("hipFree"));
        let free = free.expect("the hipFree made from the thread-local destructor is recorded");
        assert_eq!(&free.args[..], &[0xF4EE]);
        assert_eq!(free.thread.0, tid, "on the exiting thread");
    }
}
