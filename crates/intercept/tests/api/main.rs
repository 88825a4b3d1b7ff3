//! The dispatch tables ROCm 6.2+ runtimes hand a tool (`rocprofiler_set_api_table`): HIP's
//! runtime and compiler tables and ROCTx's three tables, wrapped by their size fields, with fake
//! library functions standing in for HIP and ROCTx; the records are read back from the capture.
//! A separate test binary: it installs the tool's process-wide state.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};

use rocprof_hsa_sys::*;
use rocprof_intercept::sink::Sink;
use rocprof_intercept::state::{self, Global};
use rocprof_intercept::{api, exports, hip, roctx};
use rocprof_model::capture::{read_capture, HeaderInfo};
use rocprof_model::ApiDomain;

// ---- fake HIP ------------------------------------------------------------------------------

static MALLOC_SIZE: AtomicU64 = AtomicU64::new(0);
/// (internal correlation id, stream) that GPU work issued inside hipLaunchKernel would carry.
static LAUNCH_ISSUER: AtomicU64 = AtomicU64::new(0);
static LAUNCH_STREAM: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn fake_malloc(ptr: *mut c_void, size: u64) -> c_int {
    MALLOC_SIZE.store(size, Ordering::Relaxed);
    // SAFETY: the caller passes a `void**`.
    unsafe { *(ptr as *mut u64) = 0xD000 };
    0
}

unsafe extern "C" fn fake_launch(
    _f: *mut c_void,
    grid: dim3,
    _block: dim3,
    _args: *mut c_void,
    _shm: u64,
    _s: *mut c_void,
) -> c_int {
    // What a kernel dispatch submitted here would be attributed to.
    LAUNCH_ISSUER.store(api::issuer().0, Ordering::Relaxed);
    LAUNCH_STREAM.store(api::stream(), Ordering::Relaxed);
    grid.x as c_int - 64 // 0 for the grid the test uses: hipSuccess
}

unsafe extern "C" fn fake_push_config(_g: dim3, _b: dim3, _shm: u64, _s: *mut c_void) -> c_int {
    7
}

// ---- fake ROCTx (what libroctx64 does without a tool) ----------------------------------------

static LEVEL: AtomicU64 = AtomicU64::new(0);
static RANGE_ID: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn rx_mark(_m: *const c_char) {}
unsafe extern "C" fn rx_push(_m: *const c_char) -> c_int {
    LEVEL.fetch_add(1, Ordering::Relaxed) as c_int
}
unsafe extern "C" fn rx_pop() -> c_int {
    LEVEL.fetch_sub(1, Ordering::Relaxed) as c_int - 1
}
unsafe extern "C" fn rx_start(_m: *const c_char) -> u64 {
    RANGE_ID.fetch_add(1, Ordering::Relaxed) + 1
}
unsafe extern "C" fn rx_stop(_id: u64) {}
unsafe extern "C" fn rx_tid(t: *mut u64) -> c_int {
    // SAFETY: a valid out-pointer from the caller.
    unsafe { *t = 42 };
    0
}
unsafe extern "C" fn rx_pause(_t: u64) -> c_int {
    0
}
unsafe extern "C" fn rx_resume(_t: u64) -> c_int {
    0
}
unsafe extern "C" fn rx_name(_n: *const c_char) -> c_int {
    0
}
unsafe extern "C" fn rx_name_agent(_n: *const c_char, _a: *const hsa_agent_t) -> c_int {
    0
}
unsafe extern "C" fn rx_name_device(_n: *const c_char, _d: c_int) -> c_int {
    0
}
unsafe extern "C" fn rx_name_stream(_n: *const c_char, _s: *const c_void) -> c_int {
    0
}

fn set_api_table(name: &CStr, tables: &mut [*mut c_void]) -> c_int {
    // SAFETY: `tables` holds live tables of the named library's layout.
    unsafe { exports::rocprofiler_set_api_table(name.as_ptr(), 1, 0, tables.as_mut_ptr(), tables.len() as u64) }
}

#[test]
fn hip_and_roctx_tables_are_wrapped_by_their_sizes_and_record_every_call() {
    let dir = std::env::temp_dir().join(format!("rocprof-api-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("api.rpcap");
    let sink: &'static Sink = Box::leak(Box::new(Sink::create(&path, &HeaderInfo::default()).unwrap()));
    state::init_global(Global::new(sink, false, &[]));
    state::enable_for_tests();
    let trace = <rocprof_launch::Trace as rocprof_launch::Setting>::decode(
        "kernel,hip_runtime,hip_compiler,marker,selected_regions,kernel_rename",
    )
    .unwrap();
    hip::configure(trace);
    roctx::configure(trace);
    assert!(!state::collecting(), "--selected-regions starts paused");

    // A HIP runtime table that ends right after hipMalloc: later members do not exist.
    let launch = std::mem::offset_of!(HipDispatchTable, hipLaunchKernel_fn);
    let malloc = std::mem::offset_of!(HipDispatchTable, hipMalloc_fn);
    assert!(launch < malloc);
    let mut runtime = vec![0usize; std::mem::size_of::<HipDispatchTable>() / 8];
    runtime[0] = malloc + 8;
    runtime[malloc / 8] = fake_malloc as *const () as usize;
    runtime[launch / 8] = fake_launch as *const () as usize;
    let beyond = std::mem::offset_of!(HipDispatchTable, hipMemcpy_fn) / 8;
    assert!(beyond * 8 > malloc);
    runtime[beyond] = 0x1234; // past the size: must stay untouched
    let mut compiler = vec![0usize; std::mem::size_of::<HipCompilerDispatchTable>() / 8];
    compiler[0] = std::mem::size_of::<HipCompilerDispatchTable>();
    compiler[std::mem::offset_of!(HipCompilerDispatchTable, __hipPushCallConfiguration_fn) / 8] =
        fake_push_config as *const () as usize;
    assert_eq!(set_api_table(c"hip", &mut [runtime.as_mut_ptr().cast()]), 0);
    assert_eq!(set_api_table(c"hip_compiler", &mut [compiler.as_mut_ptr().cast()]), 0);
    assert_ne!(runtime[malloc / 8], fake_malloc as *const () as usize, "hipMalloc is wrapped");
    assert_eq!(runtime[beyond], 0x1234, "a member past the table's size is left alone");
    assert_eq!(runtime[2], 0, "NULL members stay NULL");
    assert_eq!(hip::mechanism(), hip::Mechanism::Tables);
    // Registering the same table again changes nothing (already ours).
    let snapshot = runtime.clone();
    assert_eq!(set_api_table(c"hip", &mut [runtime.as_mut_ptr().cast()]), 0);
    assert_eq!(runtime, snapshot);

    let mut core = roctxCoreApiTable_t {
        size: std::mem::size_of::<roctxCoreApiTable_t>() as u64,
        roctxMarkA_fn: Some(rx_mark),
        roctxRangePushA_fn: Some(rx_push),
        roctxRangePop_fn: Some(rx_pop),
        roctxRangeStartA_fn: Some(rx_start),
        roctxRangeStop_fn: Some(rx_stop),
        roctxGetThreadId_fn: Some(rx_tid),
    };
    let mut control = roctxControlApiTable_t {
        size: std::mem::size_of::<roctxControlApiTable_t>() as u64,
        roctxProfilerPause_fn: Some(rx_pause),
        roctxProfilerResume_fn: Some(rx_resume),
    };
    let mut names = roctxNameApiTable_t {
        size: std::mem::size_of::<roctxNameApiTable_t>() as u64,
        roctxNameOsThread_fn: Some(rx_name),
        roctxNameHsaAgent_fn: Some(rx_name_agent),
        roctxNameHipDevice_fn: Some(rx_name_device),
        roctxNameHipStream_fn: Some(rx_name_stream),
    };
    let mut tables: [*mut c_void; 3] = [
        (&mut core as *mut roctxCoreApiTable_t).cast(),
        (&mut control as *mut roctxControlApiTable_t).cast(),
        (&mut names as *mut roctxNameApiTable_t).cast(),
    ];
    assert_eq!(set_api_table(c"roctx", &mut tables), 0);
    let push = core.roctxRangePushA_fn.unwrap();
    let pop = core.roctxRangePop_fn.unwrap();
    let mark = core.roctxMarkA_fn.unwrap();
    let resume = control.roctxProfilerResume_fn.unwrap();
    let pause = control.roctxProfilerPause_fn.unwrap();
    assert_ne!(push as usize, rx_push as *const () as usize, "roctxRangePushA is wrapped");

    let get = |off: usize| runtime[off / 8];
    // SAFETY: the members hold our wrappers, functions of the members' types.
    let h_malloc: t_hipMalloc = unsafe { std::mem::transmute(get(malloc)) };
    // SAFETY: as above.
    let h_launch: t_hipLaunchKernel = unsafe { std::mem::transmute(get(launch)) };
    // SAFETY: as above.
    let h_push: t___hipPushCallConfiguration = unsafe {
        std::mem::transmute(compiler[std::mem::offset_of!(HipCompilerDispatchTable, __hipPushCallConfiguration_fn) / 8])
    };
    let mut out = 0u64;
    let grid = dim3 { x: 64, y: 2, z: 1 };
    let block = dim3 { x: 256, y: 1, z: 1 };
    let stream = 0x5100 as *mut c_void;
    // SAFETY: calling through the wrapped tables with valid arguments, as a program would.
    unsafe {
        // Paused (--selected-regions): calls go through but nothing is recorded.
        assert_eq!(h_malloc((&mut out as *mut u64).cast(), 4096), 0);
        assert_eq!(push(c"paused".as_ptr()), 0);
        assert_eq!(pop(), 0);
        assert_eq!(resume(0), 0);
        assert!(state::collecting());
        assert_eq!(push(c"phase".as_ptr()), 0);
        mark(c"inside".as_ptr());
        assert_eq!(h_malloc((&mut out as *mut u64).cast(), 1 << 20), 0);
        assert_eq!(h_push(grid, block, 0, stream), 7);
        assert_eq!(h_launch(0x4000 as *mut c_void, grid, block, std::ptr::null_mut(), 0, stream), 0);
        assert_eq!(pop(), 0);
        assert_eq!(pause(0), 0);
        assert!(!state::collecting());
        assert_eq!(h_malloc((&mut out as *mut u64).cast(), 8), 0);
    }
    assert_eq!((out, MALLOC_SIZE.load(Ordering::Relaxed)), (0xD000, 8), "the original ran with the caller's arguments");

    let cap = read_capture(&path).unwrap();
    let t = &cap.trace;
    let rows: Vec<(ApiDomain, &str, &str)> =
        t.api_calls.iter().map(|c| (c.domain, t.strings.resolve(c.name), t.strings.resolve(c.message))).collect();
    assert_eq!(
        rows,
        [
            (ApiDomain::MarkerControl, "roctxProfilerResume", ""),
            (ApiDomain::MarkerCore, "roctxMarkA", "inside"),
            (ApiDomain::HipRuntime, "hipMalloc", ""),
            (ApiDomain::HipCompiler, "__hipPushCallConfiguration", ""),
            (ApiDomain::HipRuntime, "hipLaunchKernel", ""),
            (ApiDomain::MarkerCore, "roctxThreadRangeA", "phase"),
            (ApiDomain::MarkerControl, "roctxProfilerPause", ""),
        ],
        "paused calls are left out, the push/pop pair is one range"
    );
    // rocprofv3's correlation ids are dense (AMD's tracing validator: the last id is the number of
    // traced calls): the pop takes no id of its own, paused calls take none.
    let mut ids: Vec<u64> = t.api_calls.iter().map(|c| c.correlation.internal.0).collect();
    ids.sort_unstable();
    assert_eq!(ids.len(), 7);
    assert_eq!(ids[6] - ids[0], 6, "ids without gaps: {ids:?}");
    let by_name = |n: &str| t.api_calls.iter().find(|c| t.strings.resolve(c.name) == n).unwrap();
    let m = by_name("hipMalloc");
    assert_eq!(m.args.as_ref(), [&mut out as *mut u64 as u64, 1 << 20]);
    let l = by_name("hipLaunchKernel");
    assert_eq!(l.args[0], 0x4000);
    assert_eq!(l.args[1], 64 | 2 << 32 | 1 << 48, "dim3 packed x | y << 32 | z << 48");
    assert_eq!(l.args[5], 0x5100);
    assert_eq!(l.operation as usize, (launch - 8) / 8, "HIP 6 operation ids are the member indices");
    assert_eq!(by_name("__hipPushCallConfiguration").return_value, 7);
    // GPU work issued inside hipLaunchKernel belongs to it and to its stream.
    assert_eq!(LAUNCH_ISSUER.load(Ordering::Relaxed), l.correlation.internal.0);
    assert_eq!(LAUNCH_STREAM.load(Ordering::Relaxed), 0x5100);
    // --kernel-rename: rocprofv3's rename stack (tool.cpp kernel_rename_callback) has the range,
    // then the mark inside it on top: the launch carries the mark's id as its external id.
    let range = by_name("roctxThreadRangeA");
    assert_eq!(l.correlation.external, by_name("roctxMarkA").correlation.internal.0);
    assert_ne!(l.correlation.external, range.correlation.internal.0);
    assert!(range.start.ns <= m.start.ns && l.end.ns <= range.end.ns, "the range spans the calls inside it");
    assert_eq!(t.health.lost.total(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
