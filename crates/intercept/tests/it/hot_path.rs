//! The hot path (intercept handler, completion handler, capture writes) allocates nothing: a
//! counting `#[global_allocator]` watches the calling thread while fake runtime functions stand
//! in for ROCr, and the capture file written meanwhile is read back.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use rocprof_hsa_sys::*;
use rocprof_intercept::sink::Sink;
use rocprof_intercept::state::{self, Global};
use rocprof_intercept::tables::Originals;
use rocprof_intercept::{queue, sink};
use rocprof_model::capture::{read_capture, HeaderInfo, KernelSymbolRecord};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counter is a const-initialised thread local
// that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCS.with(|a| a.get())
}

// ---- fake runtime -------------------------------------------------------------------------

static NEXT_SIGNAL: AtomicU64 = AtomicU64::new(0x1000);
static REGISTERED: Mutex<Vec<(u64, usize)>> = Mutex::new(Vec::new());
static WRITTEN: AtomicUsize = AtomicUsize::new(0);
static KERNELS_WITH_OUR_SIGNAL: AtomicUsize = AtomicUsize::new(0);
static APP_BARRIERS: AtomicUsize = AtomicUsize::new(0);
static TIME_QUERIES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn fake_signal_create(
    _: hsa_signal_value_t,
    _: u32,
    _: *const hsa_agent_t,
    s: *mut hsa_signal_t,
) -> hsa_status_t {
    // SAFETY: valid out-pointer from the caller.
    unsafe { (*s).handle = NEXT_SIGNAL.fetch_add(64, Ordering::Relaxed) };
    HSA_STATUS_SUCCESS
}

unsafe extern "C" fn fake_store(_: hsa_signal_t, _: hsa_signal_value_t) {}

unsafe extern "C" fn fake_async_handler(
    s: hsa_signal_t,
    _: hsa_signal_condition_t,
    _: hsa_signal_value_t,
    _: hsa_amd_signal_handler,
    arg: *mut c_void,
) -> hsa_status_t {
    // The fake runtime's bookkeeping may allocate; the measured window excludes it by
    // pre-reserving capacity.
    REGISTERED.lock().unwrap().push((s.handle, arg as usize));
    HSA_STATUS_SUCCESS
}

unsafe extern "C" fn fake_load(_: hsa_signal_t) -> hsa_signal_value_t {
    0 // every kernel has finished
}

unsafe extern "C" fn fake_dispatch_time(
    _: hsa_agent_t,
    s: hsa_signal_t,
    t: *mut hsa_amd_profiling_dispatch_time_t,
) -> hsa_status_t {
    TIME_QUERIES.fetch_add(1, Ordering::Relaxed);
    // SAFETY: valid out-pointer from the caller.
    unsafe {
        (*t).start = s.handle * 10;
        (*t).end = s.handle * 10 + 5;
    }
    HSA_STATUS_SUCCESS
}

unsafe extern "C" fn fake_writer(pkts: *const c_void, n: u64) {
    WRITTEN.fetch_add(n as usize, Ordering::Relaxed);
    for i in 0..n as usize {
        // SAFETY: the handler passes `n` 64-byte packets, valid during this call.
        let p = unsafe { *(pkts as *const [u8; 64]).add(i) };
        let completion = u64::from_le_bytes(p[56..64].try_into().unwrap());
        let dep0 = u64::from_le_bytes(p[8..16].try_into().unwrap());
        match p[0] {
            2 if completion >= 0x1000 && completion != 0x5000 => {
                KERNELS_WITH_OUR_SIGNAL.fetch_add(1, Ordering::Relaxed);
            }
            3 if completion == 0x5000 && dep0 == 0 => {
                APP_BARRIERS.fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
    }
}

fn kernel_packet(signal: u64) -> hsa_kernel_dispatch_packet_t {
    hsa_kernel_dispatch_packet_t {
        header: HSA_PACKET_TYPE_KERNEL_DISPATCH as u16 | (2 << 9) | (2 << 11),
        setup: 1,
        workgroup_size_x: 256,
        workgroup_size_y: 1,
        workgroup_size_z: 1,
        reserved0: 0,
        grid_size_x: 1 << 20,
        grid_size_y: 1,
        grid_size_z: 1,
        private_segment_size: 0,
        group_segment_size: 0,
        kernel_object: 0x7f00_0000,
        kernarg_address: std::ptr::null_mut(),
        reserved2: 0,
        completion_signal: hsa_signal_t { handle: signal },
    }
}

#[test]
fn intercept_and_completion_handlers_allocate_nothing() {
    let dir = std::env::temp_dir().join(format!("rocprof-hot-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hot.rpcap");
    let sink: &'static Sink = Box::leak(Box::new(Sink::create(&path, &HeaderInfo::default()).unwrap()));
    sink.start_writer(|| {}).unwrap();
    let o = Originals {
        signal_create: Some(fake_signal_create),
        signal_store_relaxed: Some(fake_store),
        signal_async_handler: Some(fake_async_handler),
        get_dispatch_time: Some(fake_dispatch_time),
        signal_load_relaxed: Some(fake_load),
        ..Originals::default()
    };
    state::set_originals(o);
    let g = state::init_global(Global::new(sink, true, &[0xA9]));
    let (queue_index, queue_id) = g.add_queue(0xDEAD_0000, 0xA9).unwrap();
    assert_eq!(queue_id, 1);
    queue::grow_pool(g, state::originals().unwrap(), 64);
    g.kernels.insert(0x7f00_0000, 1);
    let name = sink.write_string(b"_Z10vector_addPKfS0_Pfi.kd");
    sink.write(&KernelSymbolRecord { kernel_id: 1, kernel_object: 0x7f00_0000, name, ..Default::default() });
    state::enable_for_tests();
    REGISTERED.lock().unwrap().reserve(4096);
    let _ = sink::tid();

    const N: usize = 2000;
    let before = allocations();
    for i in 0..N {
        let app_signal = if i % 2 == 0 { 0x5000 } else { 0 };
        let p = kernel_packet(app_signal);
        // SAFETY: one valid packet and our fake writer.
        unsafe { queue::on_packets((&p as *const hsa_kernel_dispatch_packet_t).cast(), 1, queue_index, fake_writer) };
        if app_signal != 0 {
            // The application waits for its signal and sees it complete: the record is written
            // on its thread.
            queue::on_app_signal_observed(hsa_signal_t { handle: app_signal });
        } else {
            // Nobody waits for this one: the writer thread's poll records it.
            assert_eq!(queue::poll_completions(), 1);
        }
        // Nothing is left to record twice.
        assert_eq!(queue::poll_completions(), 0);
    }
    let after = allocations();
    assert!(REGISTERED.lock().unwrap().is_empty(), "by default no async handler is registered per dispatch");
    assert_eq!(after - before, 0, "the hot path allocated {} times for {N} dispatches", after - before);
    assert_eq!(
        WRITTEN.load(Ordering::Relaxed),
        N + N / 2,
        "one kernel packet per dispatch plus a barrier for each app signal"
    );
    assert_eq!(KERNELS_WITH_OUR_SIGNAL.load(Ordering::Relaxed), N, "every kernel completes our signal");
    assert_eq!(APP_BARRIERS.load(Ordering::Relaxed), N / 2, "every app signal moved to a barrier");
    assert_eq!(TIME_QUERIES.load(Ordering::Relaxed), N, "each completion recorded exactly once");
    assert_eq!(g.in_flight.load(Ordering::Relaxed), 0);

    let cap = read_capture(&path).unwrap();
    let t = &cap.trace;
    assert_eq!(t.dispatches.len(), N);
    assert_eq!(cap.incomplete_dispatches, 0);
    assert_eq!(t.health.lost.total(), 0);
    let ids: Vec<u64> = t.dispatches.iter().map(|d| d.dispatch_id.0).collect();
    assert_eq!(ids, (1..=N as u64).collect::<Vec<_>>());
    let d = &t.dispatches[0];
    assert_eq!(d.kernel.0, 1);
    assert_eq!((d.grid.x, d.workgroup.x), (1 << 20, 256));
    assert!(d.end.ns == d.start.ns + 5 && d.start.ns > 0);
    assert_eq!(
        t.strings.resolve(t.kernel_symbols[0].formatted_name),
        "vector_add(float const*, float const*, float*, int)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
