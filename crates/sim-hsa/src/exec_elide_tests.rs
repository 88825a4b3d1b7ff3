//! Dispatch elision (`elide.rs`) through the real queue path: what is elided, what must execute again,
//! each result checked against a host computation.

use super::runtime_tests::{alloc, load, load_executable, packet};
use super::*;
use crate::queue_api::{hsa_queue_create, hsa_queue_destroy};
use crate::signal::hsa_signal_wait_scacquire;
use crate::testing::*;
use rocprof_hsa_sys::*;

fn fixture(kernel: &str) -> Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../fixtures/kernels/{kernel}-gfx942.co"));
    std::fs::read(&path).unwrap()
}

/// Elision forced on for one test (the process may have `ROCPROF_RS_SIM_ELIDE` set); off again at the end.
struct ElideOn;

impl ElideOn {
    fn new() -> Self {
        ELIDE_OVERRIDE.store(2, Ordering::Relaxed);
        ElideOn
    }
}

impl Drop for ElideOn {
    fn drop(&mut self) {
        ELIDE_OVERRIDE.store(0, Ordering::Relaxed);
    }
}

fn queue(gpu: hsa_agent_t) -> *mut hsa_queue_t {
    let mut q: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: valid arguments and out-pointer.
    unsafe {
        assert_eq!(
            hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
            HSA_STATUS_SUCCESS
        );
    }
    q
}

/// The kernarg segment of a code object v5 fixture kernel: `explicit` bytes, then the hidden block counts
/// and group sizes of a 1-D grid of `n` work-items in workgroups of 64, in a fresh allocation (as HIP's
/// kernarg ring, a new address every launch).
fn kernarg(gpu: hsa_agent_t, explicit: &[u8], n: u32) -> *mut u8 {
    let mut args = explicit.to_vec();
    args.resize(explicit.len().next_multiple_of(8), 0);
    args.extend_from_slice(&n.div_ceil(64).to_le_bytes());
    args.extend_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    args.extend_from_slice(&64u16.to_le_bytes());
    args.extend_from_slice(&[1, 0, 1, 0]);
    let k = alloc(gpu, 512);
    // SAFETY: the allocation holds 512 bytes.
    unsafe { std::ptr::copy_nonoverlapping(args.as_ptr(), k, args.len()) };
    k
}

/// Dispatches `kernel_object` over `n` work-items on `q` and waits; returns whether it was elided.
fn launch(gpu: hsa_agent_t, q: *mut hsa_queue_t, kernel_object: u64, explicit: &[u8], n: u32) -> bool {
    let elided = STATS.elided.load(Ordering::Relaxed);
    let done = signal(1);
    submit(q, &packet(kernel_object, kernarg(gpu, explicit, n), n, done));
    // SAFETY: a live signal.
    let v =
        unsafe { hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10_000_000_000, HSA_WAIT_STATE_BLOCKED) };
    assert_eq!(v, 0, "the dispatch completes");
    STATS.elided.load(Ordering::Relaxed) > elided
}

fn args(ptrs: &[*mut f32], n: u32) -> Vec<u8> {
    let mut a: Vec<u8> = ptrs.iter().flat_map(|p| (*p as u64).to_le_bytes()).collect();
    a.extend_from_slice(&n.to_le_bytes());
    a
}

fn floats(gpu: hsa_agent_t, v: &[f32]) -> *mut f32 {
    let p = alloc(gpu, 4 * v.len()).cast::<f32>();
    // SAFETY: the allocation holds `v.len()` floats.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, v.len()) };
    p
}

fn view<'a>(p: *mut f32, n: usize) -> &'a mut [f32] {
    // SAFETY: test allocations of `n` floats, alive for the test (the kernel has finished).
    unsafe { std::slice::from_raw_parts_mut(p, n) }
}

/// `hsa_amd_memory_async_copy` (what HIP's `hipMemcpy` uses) of `v` into `dst`, waited for.
fn copy_in(gpu: hsa_agent_t, dst: *mut f32, v: &[f32]) {
    let src = floats(gpu, v);
    let done = signal(1);
    // SAFETY: both allocations hold `v.len()` floats; live signal.
    unsafe {
        assert_eq!(
            crate::copy::hsa_amd_memory_async_copy(
                dst.cast(),
                gpu,
                src.cast(),
                gpu,
                4 * v.len(),
                0,
                std::ptr::null(),
                done
            ),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10_000_000_000, HSA_WAIT_STATE_BLOCKED),
            0
        );
    }
}

/// `c = a + b` launched again and again: repeats are elided and leave `c` right; a host write to `a`, a
/// copy into `b`, another kernel's write to `a`, and a host write to the output `c` each make the next
/// launch execute (its `c` checked against the host's sum); the launch after that is elided again.
#[test]
fn repeated_launches_are_elided_until_an_input_or_the_output_changes() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let _on = ElideOn::new();
    let gpu = init_gpu();
    let add = load(gpu, fixture("vector_add"), "vector_add");
    let fill = load(gpu, fixture("fill"), "fill");
    let n = 1000u32;
    let nu = n as usize;
    let a0: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b0: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let (a, b, c) = (floats(gpu, &a0), floats(gpu, &b0), floats(gpu, &vec![0.0; nu]));
    let q = queue(gpu);
    let check = |what: &str| {
        let (a, b, c) = (view(a, nu), view(b, nu), view(c, nu));
        for i in 0..nu {
            assert_eq!(c[i], a[i] + b[i], "{what}: c[{i}]");
        }
    };
    let go = || launch(gpu, q, add, &args(&[a, b, c], n), n);

    assert!(!go(), "the first launch executes");
    check("first");
    assert!(go(), "an identical launch (its kernarg at another address) is elided");
    assert!(go());
    check("elided");

    view(a, nu)[17] = -3.25;
    assert!(!go(), "a host write to the input executes again");
    check("after a host write to a");
    assert!(go());

    let b1: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    copy_in(gpu, b, &b1);
    assert!(!go(), "a copy into the input executes again");
    check("after a copy into b");
    assert!(go());

    let mut fa = (a as u64).to_le_bytes().to_vec();
    for v in [7.5f32.to_bits(), n, n] {
        fa.extend_from_slice(&v.to_le_bytes());
    }
    assert!(!launch(gpu, q, fill, &fa, n), "fill writes what it never read: repeatable, but the first run");
    assert!(view(a, nu).iter().all(|&v| v == 7.5));
    assert!(!go(), "another kernel's write to the input executes again");
    check("after fill(a)");

    view(c, nu)[999] = 0.0;
    assert!(!go(), "a changed output executes again");
    check("after a host write to c");
    assert!(go());
    check("elided at the end");
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(q) };
    shut_down();
}

/// Destroying an executable forgets its kernels' elision entries and argument layouts (code objects
/// reach the elision code through the hook it sets): a kernel loaded later at the same address must
/// execute, never reuse another kernel's results.
#[test]
fn destroying_an_executable_forgets_its_elision_entries() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let _on = ElideOn::new();
    let gpu = init_gpu();
    let (exe, add) = load_executable(gpu, fixture("vector_add"), "vector_add");
    let n = 256u32;
    let nu = n as usize;
    let (a, b, c) = (floats(gpu, &vec![1.5; nu]), floats(gpu, &vec![2.0; nu]), floats(gpu, &vec![0.0; nu]));
    let q = queue(gpu);
    assert!(!launch(gpu, q, add, &args(&[a, b, c], n), n));
    assert!(launch(gpu, q, add, &args(&[a, b, c], n), n), "the repeat is elided");
    assert!(view(c, nu).iter().all(|&v| v == 3.5));
    assert!(elide::remembers(add), "an elided kernel is remembered");
    // SAFETY: a live executable, no dispatch of it in flight.
    assert_eq!(unsafe { crate::code_object::hsa_executable_destroy(exe) }, HSA_STATUS_SUCCESS);
    assert!(!elide::remembers(add), "its executable destroyed, nothing of the kernel is remembered");
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(q) };
    shut_down();
}

/// In-place `y = alpha * x + y` reads what it writes: every launch executes (the host applies it as many
/// times).
#[test]
fn an_in_place_kernel_is_never_elided() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let _on = ElideOn::new();
    let gpu = init_gpu();
    let saxpy = load(gpu, fixture("saxpy"), "saxpy");
    let n = 300u32;
    let nu = n as usize;
    let x0: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let (x, y) = (floats(gpu, &x0), floats(gpu, &vec![1.0; nu]));
    let q = queue(gpu);
    let mut explicit = 2.0f32.to_le_bytes().to_vec();
    explicit.resize(8, 0);
    explicit.extend_from_slice(&args(&[x, y], n));
    let mut want = vec![1.0f32; nu];
    for _ in 0..3 {
        assert!(!launch(gpu, q, saxpy, &explicit, n), "in place: executes");
        for i in 0..nu {
            want[i] += 2.0 * x0[i];
        }
        assert_eq!(view(y, nu), &want[..]);
    }
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(q) };
    shut_down();
}

/// `fill` with its store patched into `global_atomic_add` (same operands; encodings from llvm-mc-19
/// -mcpu=gfx942: `global_store_dword v[0:1], v2, off` = dc708000 007f0200, `global_atomic_add v[0:1], v2,
/// off` = dd088000 007f0200): every launch executes and adds once more.
#[test]
fn an_atomic_kernel_is_never_elided() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let _on = ElideOn::new();
    let gpu = init_gpu();
    let mut elf = fixture("fill");
    let store = [0x00, 0x80, 0x70, 0xdc, 0x00, 0x02, 0x7f, 0x00];
    let at = elf.windows(8).position(|w| w == store).expect("fill's global_store_dword");
    assert_eq!(elf.windows(8).filter(|w| *w == store).count(), 1);
    elf[at..at + 8].copy_from_slice(&[0x00, 0x80, 0x08, 0xdd, 0x00, 0x02, 0x7f, 0x00]);
    let add = load(gpu, elf, "fill");
    let n = 256u32;
    let p = alloc(gpu, 4 * n as usize).cast::<u32>();
    // SAFETY: the allocation holds `n` dwords.
    let out = unsafe {
        std::ptr::write_bytes(p, 0, n as usize);
        std::slice::from_raw_parts(p, n as usize)
    };
    let q = queue(gpu);
    let mut explicit = (p as u64).to_le_bytes().to_vec();
    for v in [5u32, n, n] {
        explicit.extend_from_slice(&v.to_le_bytes());
    }
    for k in 1..=3u32 {
        assert!(!launch(gpu, q, add, &explicit, n), "atomics: executes");
        assert!(out.iter().all(|&v| v == 5 * k), "after {k} launches: {:?}", &out[..4]);
    }
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(q) };
    shut_down();
}

/// The record of an elided dispatch equals the record of executing it, and of executing it with
/// elision off; memory is the host's sum each time.
#[test]
fn an_elided_dispatch_has_the_record_and_memory_of_executing_it() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let gpu = init_gpu();
    let add = load(gpu, fixture("vector_add"), "vector_add");
    let n = 700u32;
    let nu = n as usize;
    let a0: Vec<f32> = (0..n).map(|i| (i * i % 97) as f32).collect();
    let (a, b, c) = (floats(gpu, &a0), floats(gpu, &vec![0.25; nu]), floats(gpu, &vec![0.0; nu]));
    let hq = queue(gpu);
    let q = crate::queue::lookup(hq).unwrap();
    let explicit = args(&[a, b, c], n);
    let run_once = |elide: u8| {
        ELIDE_OVERRIDE.store(elide, Ordering::Relaxed);
        view(c, nu).fill(0.0);
        let done = signal(1);
        let pkt = packet(add, kernarg(gpu, &explicit, n), n, done);
        let before = STATS.elided.load(Ordering::Relaxed);
        let rec = run(q, &pkt, add, "gfx942", RunOptions::default()).expect("runs");
        for (i, (&got, &a)) in view(c, nu).iter().zip(&a0).enumerate() {
            assert_eq!(got, a + 0.25, "c[{i}]");
        }
        (rec, STATS.elided.load(Ordering::Relaxed) > before)
    };
    // Filling c with zeros changes the output: the dispatch after it executes; the one after an
    // unchanged output is elided.
    let (off, e0) = run_once(1);
    let (first, e1) = run_once(2);
    ELIDE_OVERRIDE.store(2, Ordering::Relaxed);
    let done = signal(1);
    let pkt = packet(add, kernarg(gpu, &explicit, n), n, done);
    let before = STATS.elided.load(Ordering::Relaxed);
    let again = run(q, &pkt, add, "gfx942", RunOptions::default()).expect("runs");
    let e2 = STATS.elided.load(Ordering::Relaxed) > before;
    ELIDE_OVERRIDE.store(0, Ordering::Relaxed);
    assert_eq!((e0, e1, e2), (false, false, true));
    assert!(off.wave_count() > 0);
    assert_eq!(first, off);
    assert_eq!(again, off);
    for (i, (&got, &a)) in view(c, nu).iter().zip(&a0).enumerate() {
        assert_eq!(got, a + 0.25, "c[{i}]");
    }
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(hq) };
    shut_down();
}

/// `vector_add`'s code object v5 segment (288 bytes): explicit `a, b, c, n` at 0..28, hidden block
/// counts and group sizes at 32..56, global offsets at 72..96 (0), grid dims at 96 (`dims`); every
/// byte no argument declares (28..32, 56..72, 98..288) holds `stale`, as a kernarg ring slot that
/// ROCclr reuses without clearing.
fn kernarg_with_stale_padding(gpu: hsa_agent_t, explicit: &[u8], n: u32, stale: u8, dims: u16) -> *mut u8 {
    let mut seg = vec![stale; 288];
    seg[..explicit.len()].copy_from_slice(explicit);
    seg[32..36].copy_from_slice(&n.div_ceil(64).to_le_bytes());
    seg[36..44].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    seg[44..50].copy_from_slice(&[64, 0, 1, 0, 1, 0]);
    seg[50..56].copy_from_slice(&[(n % 64) as u8, 0, 0, 0, 0, 0]);
    seg[72..96].fill(0);
    seg[96..98].copy_from_slice(&dims.to_le_bytes());
    let k = alloc(gpu, 512);
    // SAFETY: the allocation holds 512 bytes.
    unsafe { std::ptr::copy_nonoverlapping(seg.as_ptr(), k, seg.len()) };
    k
}

/// HIP 6.4 leaves the undeclared padding of the kernarg segment stale: launches that differ only
/// there are elided (the code object's metadata declares which bytes are arguments), and each
/// elided launch leaves the output byte for byte as executing it with elision off did, with the
/// same record; a changed hidden argument (`hidden_grid_dims`) executes again.
#[test]
fn launches_differing_only_in_undeclared_kernarg_padding_are_elided_and_exact() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let gpu = init_gpu();
    let add = load(gpu, fixture("vector_add"), "vector_add");
    let n = 900u32;
    let nu = n as usize;
    let a0: Vec<f32> = (0..n).map(|i| (i * 31 % 101) as f32 - 7.5).collect();
    let b0: Vec<f32> = (0..n).map(|i| 0.125 * i as f32).collect();
    let (a, b, c) = (floats(gpu, &a0), floats(gpu, &b0), floats(gpu, &vec![0.0; nu]));
    let hq = queue(gpu);
    let q = crate::queue::lookup(hq).unwrap();
    let explicit = args(&[a, b, c], n);
    let bytes_of_c = || view(c, nu).iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let launch = |elide: u8, stale: u8, dims: u16| {
        ELIDE_OVERRIDE.store(elide, Ordering::Relaxed);
        let done = signal(1);
        let pkt = packet(add, kernarg_with_stale_padding(gpu, &explicit, n, stale, dims), n, done);
        let (elided, missed) =
            (STATS.elided.load(Ordering::Relaxed), STATS.missed[elide::Miss::Kernarg as usize].load(Ordering::Relaxed));
        let rec = run(q, &pkt, add, "gfx942", RunOptions::default()).expect("runs");
        let elided = STATS.elided.load(Ordering::Relaxed) > elided;
        let missed = STATS.missed[elide::Miss::Kernarg as usize].load(Ordering::Relaxed) > missed;
        (rec, elided, missed)
    };
    let (executed, _, _) = launch(1, 0x11, 1);
    let want: Vec<f32> = a0.iter().zip(&b0).map(|(a, b)| a + b).collect();
    assert_eq!(view(c, nu), &want[..], "executed with elision off");
    let executed_bytes = bytes_of_c();
    let (first, elided, _) = launch(2, 0x22, 1);
    assert!(!elided, "the first launch with elision on executes");
    assert_eq!(first, executed);
    for stale in [0x33, 0x44, 0xff, 0x00] {
        let (rec, elided, missed) = launch(2, stale, 1);
        assert!(elided && !missed, "stale padding {stale:#x}: elided");
        assert_eq!(rec, executed, "stale padding {stale:#x}: the executed record");
        assert_eq!(bytes_of_c(), executed_bytes, "stale padding {stale:#x}: memory as executing left it");
    }
    let (_, elided, missed) = launch(2, 0x55, 2);
    ELIDE_OVERRIDE.store(0, Ordering::Relaxed);
    assert!(!elided && missed, "a changed hidden_grid_dims executes, counted as a kernarg miss");
    assert_eq!(view(c, nu), &want[..]);
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(hq) };
    shut_down();
}

/// From the second reuse on, the extents of `c = a + b` are write-protected: a further repeat is
/// elided without hashing the buffers, and still every kind of write makes the next launch execute —
/// a host store into `b`, an async copy into `a`, the `fill` kernel writing `a`, a host store into the
/// output `c` — each result checked against the host's sum.
#[test]
fn write_protected_repeats_skip_the_hash_and_still_see_every_write() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let _on = ElideOn::new();
    let gpu = init_gpu();
    let add = load(gpu, fixture("vector_add"), "vector_add");
    let fill = load(gpu, fixture("fill"), "fill");
    let n = 64 * 1024u32;
    let nu = n as usize;
    let a0: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let b0: Vec<f32> = (0..n).map(|i| 3.0 - (i % 17) as f32).collect();
    let (a, b, c) = (floats(gpu, &a0), floats(gpu, &b0), floats(gpu, &vec![0.0; nu]));
    let q = queue(gpu);
    let check = |what: &str| {
        let (a, b, c) = (view(a, nu), view(b, nu), view(c, nu));
        for i in 0..nu {
            assert_eq!(c[i], a[i] + b[i], "{what}: c[{i}]");
        }
    };
    let go = || launch(gpu, q, add, &args(&[a, b, c], n), n);
    let hashed = || STATS.elision_hashed_bytes.load(Ordering::Relaxed);
    let unwritten = || STATS.elision_extents_unwritten.load(Ordering::Relaxed);
    // Executes, then elided after hashing, then elided after protecting and hashing.
    let settle = |what: &str| {
        assert!(!go(), "{what}: executes");
        check(what);
        assert!(go() && go(), "{what}: repeats elided");
    };
    settle("first");
    let watched = crate::write_watch::available();
    let (h0, u0) = (hashed(), unwritten());
    assert!(go(), "a watched repeat is elided");
    check("watched repeat");
    if watched {
        assert!(unwritten() >= u0 + 3, "a, b and c answered by their write protection");
        assert!(hashed() - h0 < 3 * 4 * n as u64 / 2, "the buffers are not hashed again: {}", hashed() - h0);
    } else {
        rocprof_test_inputs::skip_optional(
            "write_protected_repeats_skip_the_hash_and_still_see_every_write",
            "no userfaultfd asynchronous write protection here: the hash-only path was checked",
        );
    }

    view(b, nu)[n as usize / 2] = -1.5;
    settle("after a host store into b");
    let a1: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.5).collect();
    copy_in(gpu, a, &a1);
    settle("after an async copy into a");
    let mut fa = (a as u64).to_le_bytes().to_vec();
    for v in [2.25f32.to_bits(), n, n] {
        fa.extend_from_slice(&v.to_le_bytes());
    }
    assert!(!launch(gpu, q, fill, &fa, n));
    assert!(view(a, nu).iter().all(|&v| v == 2.25));
    settle("after fill(a)");
    view(c, nu)[n as usize - 1] = 0.0;
    settle("after a host store into c");
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(q) };
    shut_down();
}

/// The statistics a dispatch adds: dispatches computed, waves, wave-instructions and those by class.
fn counted() -> Vec<u64> {
    let s = &STATS;
    [&s.executed, &s.waves, &s.wave_instructions]
        .into_iter()
        .chain(&s.by_class)
        .map(|v| v.load(Ordering::Relaxed))
        .collect()
}

/// An elided dispatch gives the device model exactly what executing it gives: the same model (the
/// source of its counters, its thread trace and PC sampling waves, and its modelled duration) and the
/// same statistics, whether the model is built from the reused record (its entry was remembered by a
/// run whose model was never built) or taken from what the entry kept of an earlier build. Through
/// the queue, an elided launch's kernel time (the profiling timestamps of its kernel trace row) is
/// the executed one's. The oracle is the run with elision off; the output is the host's sum each time.
#[test]
fn an_elided_dispatch_gives_the_model_statistics_and_kernel_time_of_executing_it() {
    let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let gpu = init_gpu();
    let add = load(gpu, fixture("vector_add"), "vector_add");
    let n = 64 * 300 + 17;
    let nu = n as usize;
    let a0: Vec<f32> = (0..n).map(|i| (i % 251) as f32 * 0.75).collect();
    let (a, b, c) = (floats(gpu, &a0), floats(gpu, &vec![2.5; nu]), floats(gpu, &vec![0.0; nu]));
    let hq = queue(gpu);
    let q = crate::queue::lookup(hq).unwrap();
    let m = q.agent.gpu().expect("a GPU agent");
    let k = crate::code_object::kernel_info(add).expect("a loaded kernel");
    let explicit = args(&[a, b, c], n);
    let check = |what: &str| {
        for (i, (&got, &a)) in view(c, nu).iter().zip(&a0).enumerate() {
            assert_eq!(got, a + 2.5, "{what}: c[{i}]");
        }
    };
    // The device model of one dispatch as the packet processor makes it, the statistics it added, and
    // whether it was elided.
    let model_of = |elide: u8, zero_output: bool| {
        ELIDE_OVERRIDE.store(elide, Ordering::Relaxed);
        if zero_output {
            view(c, nu).fill(0.0);
        }
        let pkt = packet(add, kernarg(gpu, &explicit, n), n, signal(1));
        let (before, elided) = (counted(), STATS.elided.load(Ordering::Relaxed));
        let model = crate::packet::dispatch_model(q, m, &pkt, add, &k);
        let added: Vec<u64> = counted().iter().zip(&before).map(|(a, b)| a - b).collect();
        (model, added, STATS.elided.load(Ordering::Relaxed) > elided)
    };
    let (off, off_counts, e) = model_of(1, true);
    assert!(!e);
    check("executed, elision off");
    assert_eq!(off.source, rocprof_device::wave::Source::Executed);
    assert_eq!(off_counts[0], 1);
    assert!(off.totals.waves > 0 && off.duration_ns > 0);
    let mut elided = Vec::new();
    let mut same = |(model, counts, e): (rocprof_device::wave::DispatchModel, Vec<u64>, bool), what: &str| {
        check(what);
        assert_eq!(counts, off_counts, "{what}: statistics");
        assert!(model == off, "{what}: the model differs from the executed one's");
        elided.push(e);
    };
    // Executed and remembered; its model is built and kept.
    same(model_of(2, true), "executed, elision on");
    // Elided: the kept model.
    same(model_of(2, false), "elided after a built model");
    // Remembered by a run whose model is never built (the record alone), then elided twice: the
    // first builds the model from the reused record, the second takes the kept one.
    view(c, nu).fill(0.0);
    ELIDE_OVERRIDE.store(2, Ordering::Relaxed);
    let pkt = packet(add, kernarg(gpu, &explicit, n), n, signal(1));
    let rec = run(q, &pkt, add, m.name, RunOptions::default()).expect("runs");
    check("executed through the record alone");
    assert_eq!(rec.wave_count(), off.totals.waves);
    same(model_of(2, false), "elided, model built from the reused record");
    same(model_of(2, false), "elided again");
    assert_eq!(elided, [false, true, true, true]);

    // Through the queue with profiling on: the kernel time of an executed and of an elided launch.
    // SAFETY: a live queue.
    assert_eq!(unsafe { crate::profiling::hsa_amd_profiling_set_profiler_enabled(hq, 1) }, HSA_STATUS_SUCCESS);
    let ticks = |elide: u8| {
        ELIDE_OVERRIDE.store(elide, Ordering::Relaxed);
        let done = signal(1);
        let elided = STATS.elided.load(Ordering::Relaxed);
        submit(hq, &packet(add, kernarg(gpu, &explicit, n), n, done));
        // SAFETY: a live signal.
        let v = unsafe {
            hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10_000_000_000, HSA_WAIT_STATE_BLOCKED)
        };
        assert_eq!(v, 0, "the dispatch completes");
        let s = crate::signal::lookup(done).unwrap();
        let t = s.end_ts.load(Ordering::Acquire) - s.start_ts.load(Ordering::Acquire);
        (t, STATS.elided.load(Ordering::Relaxed) > elided)
    };
    let executed = ticks(1);
    let repeat = ticks(2);
    ELIDE_OVERRIDE.store(0, Ordering::Relaxed);
    check("through the queue");
    assert!(!executed.1 && repeat.1, "executed {executed:?}, then elided {repeat:?}");
    assert!(executed.0 > 0);
    assert_eq!(repeat.0, executed.0, "kernel time in GPU ticks");
    // SAFETY: a live queue.
    unsafe { hsa_queue_destroy(hq) };
    shut_down();
}
