//! Kernel execution, the runtime's side: the simulator's memory map as a kernel sees it, the dispatch's
//! registers and packet copy, and dispatch elision, handed to the device model's `run_dispatch`
//! (`rocprof_device::run`: execute or fall back to the static walk, the settings and statistics).
//!
//! What a kernel may touch (anything else is a memory fault): pool allocations (kernarg included),
//! memory locked with `hsa_amd_memory_lock`, SVM ranges, loaded code objects (constant data next to the
//! code), the dispatching queue's `amd_queue_t` and ring, and the dispatch packet itself.
//!
//! `ROCPROF_RS_SIM_ELIDE=off`: execute every dispatch. By default a dispatch that exactly repeats an
//! earlier one (same kernel, dimensions, kernarg bytes and inputs, outputs still in place; see
//! `elide.rs` for the rule and why it is exact) reuses that run's results and record; the number of
//! elided dispatches is printed at exit.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

#[cfg(test)]
use rocprof_device::run::STATS;
use rocprof_device::run::{Elision, Executed, Interpreter, Miss};
#[cfg(test)]
use rocprof_isa::DispatchRecord;
use rocprof_isa::{Dispatch, Fault, KernelDescriptor, RunOptions, Target};

use crate::code_object;
use crate::elide;
use crate::queue::Queue;

/// Tests switch elision off and on (0: as the settings say, 1: off, 2: on).
static ELIDE_OVERRIDE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Whether repeated identical dispatches may be elided (`ROCPROF_RS_SIM_ELIDE`).
fn elide_enabled() -> bool {
    match ELIDE_OVERRIDE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => rocprof_device::run::settings().elide,
    }
}

/// The simulator's memory as a kernel sees it: sorted, merged `[start, end)` ranges it may touch.
struct SimMemory {
    ranges: Vec<(u64, u64)>,
    /// Index of the range the last read (`[0]`) and the last write or atomic (`[1]`) hit: lanes and waves
    /// mostly read one buffer and write another, so most checks skip the binary search and, with one hint
    /// per direction, do not store to the hint (a kernel reading `in` and writing `out` with one shared
    /// hint rewrote it on every access, a cache line bounced between the workers). A hint only: any value
    /// is safe. Each on a cache line of its own.
    last: [Hint; 2],
    /// Per range, the extents read and written (for dispatch elision; empty when not tracked).
    extents: Vec<Extents>,
    /// An atomic access happened (tracked runs).
    atomics: AtomicBool,
}

/// A range index hint on a cache line of its own.
#[repr(align(64))]
#[derive(Default)]
struct Hint(AtomicUsize);

/// The lowest and highest byte addresses read and written in one range (`lo > hi`: none).
struct Extents {
    read: [AtomicU64; 2],
    write: [AtomicU64; 2],
}

impl Extents {
    fn new() -> Self {
        Extents {
            read: [AtomicU64::new(u64::MAX), AtomicU64::new(0)],
            write: [AtomicU64::new(u64::MAX), AtomicU64::new(0)],
        }
    }

    #[inline]
    fn note(&self, addr: u64, end: u64, write: bool) {
        let [lo, hi] = if write { &self.write } else { &self.read };
        // Load first: once the extent covers the buffer, accesses share the cache line read-only.
        if addr < lo.load(Ordering::Relaxed) {
            lo.fetch_min(addr, Ordering::Relaxed);
        }
        if end > hi.load(Ordering::Relaxed) {
            hi.fetch_max(end, Ordering::Relaxed);
        }
    }

    fn get(&self, write: bool) -> Option<(u64, u64)> {
        let [lo, hi] = if write { &self.write } else { &self.read };
        let (lo, hi) = (lo.load(Ordering::Relaxed), hi.load(Ordering::Relaxed));
        (lo < hi).then_some((lo, hi))
    }
}

impl SimMemory {
    fn new(mut ranges: Vec<(u64, u64)>) -> Self {
        ranges.retain(|&(s, e)| e > s);
        ranges.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (s, e) in ranges {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        SimMemory {
            ranges: merged,
            last: [Hint::default(), Hint::default()],
            extents: Vec::new(),
            atomics: AtomicBool::new(false),
        }
    }

    /// A memory map that records the extents each range is read and written at.
    fn tracking(ranges: Vec<(u64, u64)>) -> Self {
        let mut m = Self::new(ranges);
        m.extents = m.ranges.iter().map(|_| Extents::new()).collect();
        m
    }

    /// Whether `[start, end)` lies inside one range.
    fn contains(&self, start: u64, end: u64) -> bool {
        let i = self.ranges.partition_point(|&(s, _)| s <= start);
        i.checked_sub(1).is_some_and(|k| end <= self.ranges[k].1 && start < end)
    }

    /// The read (`write` false) or the write extents of a tracked run.
    fn extents(&self, write: bool) -> Vec<(u64, u64)> {
        self.extents.iter().filter_map(|x| x.get(write)).collect()
    }

    #[inline]
    fn check(&self, addr: u64, len: usize, write: bool) -> Result<(), Fault> {
        let fault = Fault { addr, len: len as u32, write };
        let end = addr.checked_add(len as u64).ok_or(fault)?;
        let last = &self.last[usize::from(write)].0;
        let hint = last.load(Ordering::Relaxed);
        let k = match self.ranges.get(hint) {
            Some(&(s, e)) if s <= addr && end <= e => hint,
            _ => {
                let i = self.ranges.partition_point(|&(s, _)| s <= addr);
                match i.checked_sub(1).map(|k| (k, self.ranges[k])) {
                    Some((k, (_, e))) if end <= e => {
                        last.store(k, Ordering::Relaxed);
                        k
                    }
                    _ => return Err(fault),
                }
            }
        };
        if let Some(x) = self.extents.get(k) {
            x.note(addr, end, write);
        }
        Ok(())
    }
}

impl rocprof_isa::Memory for SimMemory {
    fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.check(addr, out.len(), false)?;
        // SAFETY: `[addr, addr + len)` lies inside memory the simulator mapped for the application (checked
        // above) and stays mapped for the dispatch. Like a GPU, the kernel shares it with the application's
        // threads; unsynchronised access to the same bytes is the program's race, as on hardware.
        unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    fn write(&self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        self.check(addr, data.len(), true)?;
        // SAFETY: as in `read`; the range is writable application memory.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), addr as *mut u8, data.len()) };
        Ok(())
    }

    fn atomic(&self, addr: u64, size: u8, f: &mut dyn FnMut(u64) -> u64) -> Result<u64, Fault> {
        self.check(addr, size as usize, true)?;
        self.atomics.store(true, Ordering::Relaxed);
        if addr % u64::from(size) != 0 {
            // Hardware atomics need natural alignment.
            return Err(Fault { addr, len: u32::from(size), write: true });
        }
        if size == 8 {
            // SAFETY: in range and 8-byte aligned (checked above); the location is only ever accessed
            // atomically or by plain copies of the kind a GPU and its host also race with.
            let a = unsafe { std::sync::atomic::AtomicU64::from_ptr(addr as *mut u64) };
            let mut old = a.load(Ordering::SeqCst);
            loop {
                match a.compare_exchange_weak(old, f(old), Ordering::SeqCst, Ordering::SeqCst) {
                    Ok(v) => return Ok(v),
                    Err(v) => old = v,
                }
            }
        } else {
            // SAFETY: in range and 4-byte aligned (checked above).
            let a = unsafe { std::sync::atomic::AtomicU32::from_ptr(addr as *mut u32) };
            let mut old = a.load(Ordering::SeqCst);
            loop {
                match a.compare_exchange_weak(old, f(u64::from(old)) as u32, Ordering::SeqCst, Ordering::SeqCst) {
                    Ok(v) => return Ok(u64::from(v)),
                    Err(v) => old = v,
                }
            }
        }
    }
}

/// Memory ranges a dispatch may touch, besides the packet copy.
fn memory_map(q: &'static Queue) -> Vec<(u64, u64)> {
    let mut r = crate::memory::kernel_visible_ranges();
    r.extend(code_object::loaded_ranges());
    r.extend(crate::svm::ranges());
    r.push(crate::signal::device_range());
    let qa = q as *const Queue as u64;
    r.push((qa, qa + std::mem::size_of::<Queue>() as u64));
    r.push((q.ring as u64, q.ring as u64 + u64::from(q.size) * 64));
    r
}

/// The process's global wave sync resources (on a GPU allocated to HIP's cooperative queue; one set for
/// all queues here).
static GWS: rocprof_isa::Gws = rocprof_isa::Gws::new();

/// One kernel dispatch (already validated by the packet processor) as the device model's
/// [`Interpreter`] sees it: the queue's memory, the packet and the kernel.
pub(crate) struct Run<'a> {
    pub(crate) q: &'static Queue,
    pub(crate) pkt: &'a [u8; 64],
    pub(crate) kernel_object: u64,
    pub(crate) target_name: &'static str,
}

impl Interpreter for Run<'_> {
    fn kernel_object(&self) -> u64 {
        self.kernel_object
    }

    fn kernel_name(&self) -> String {
        let kernel_object = self.kernel_object;
        code_object::kernel_name(kernel_object).unwrap_or_else(|| format!("{kernel_object:#x}"))
    }

    fn queue_id(&self) -> u64 {
        self.q.id()
    }

    fn execute(&mut self, opts: RunOptions<'_>) -> Option<Executed> {
        execute(self.q, self.pkt, self.kernel_object, self.target_name, opts)
    }
}

/// Runs one kernel dispatch on the interpreter, counted and reported as `run_dispatch` does (for tests
/// that look at the record). `None` when the target has no interpreter or the dispatch fell back.
#[cfg(test)]
fn run(
    q: &'static Queue,
    pkt: &[u8; 64],
    kernel_object: u64,
    target_name: &'static str,
    opts: RunOptions<'_>,
) -> Option<DispatchRecord> {
    let mut r = Run { q, pkt, kernel_object, target_name };
    let ran = r.execute(RunOptions { threads: rocprof_device::run::settings().threads, ..opts })?;
    let (rec, report) = rocprof_device::run::settle(ran, &r);
    if let Some(report) = report {
        crate::diag!("{report}");
    }
    rec.map(std::sync::Arc::unwrap_or_clone)
}

/// Runs one kernel dispatch on the interpreter. `None` when the target has no interpreter.
fn execute(
    q: &'static Queue,
    pkt: &[u8; 64],
    kernel_object: u64,
    target_name: &str,
    opts: RunOptions<'_>,
) -> Option<Executed> {
    let target = Target::find(target_name)?;
    // The packet the kernel's dispatch_ptr points at: a stable copy (the ring slot may be reused as soon as
    // the read index moved).
    let packet: Box<[u8; 64]> = Box::new(*pkt);
    let pa = packet.as_ptr() as u64;
    let mut kd = [0u8; 64];
    // SAFETY: `kernel_object` is a loaded kernel descriptor (checked by the packet processor through
    // `code_object::kernel_info`), 64 bytes inside its code object's block, which is never unmapped.
    unsafe { std::ptr::copy_nonoverlapping(kernel_object as *const u8, kd.as_mut_ptr(), 64) };
    let u16_at = |o: usize| u16::from_le_bytes([pkt[o], pkt[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(pkt[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(pkt[o..o + 8].try_into().expect("8 bytes"));
    let mut d = Dispatch {
        target,
        kernel_object,
        descriptor: KernelDescriptor::parse(&kd),
        grid: [u32_at(12), u32_at(16), u32_at(20)],
        workgroup: [u32::from(u16_at(4)), u32::from(u16_at(6)), u32::from(u16_at(8))],
        group_segment_size: u32_at(28),
        private_segment_size: u32_at(24),
        kernarg: u64_at(40),
        dispatch_ptr: pa,
        queue_ptr: q as *const Queue as u64,
        dispatch_id: q.amd.read_dispatch_id.load(Ordering::Relaxed).saturating_sub(1),
    };
    // A cooperative queue's grid is resident at once (HIP checks its size against the occupancy), so its
    // grid-wide barriers complete.
    // The global wave sync resources outlive a dispatch: ROCclr's `__amd_rocclr_gwsInit` sets resource 0
    // up before a cooperative launch whose grid sync (gfx90a) waits in `ds_gws_barrier`.
    let opts = RunOptions { co_resident: q.is_cooperative(), gws: Some(&GWS), ..opts };
    // Elision needs neither per-wave detail (thread trace, PC sampling) nor the dispatch id (different in
    // every dispatch) as an input, and a descriptor that states its kernarg size: the copy holds that
    // many bytes, and hand-assembled code objects (rocBLAS's Tensile kernels) leave it 0 while reading
    // their arguments, so a copy of them would lose what the kernel reads.
    if elide_enabled() && opts.detail.is_none() && d.descriptor.properties & 16 == 0 && d.descriptor.kernarg_size > 0 {
        if let Some(out) = run_elidable(q, pkt, &mut d, kd, &opts) {
            return Some(out);
        }
    }
    let mut ranges = memory_map(q);
    ranges.push((pa, pa + 64));
    let mem = SimMemory::new(ranges);
    let result = rocprof_isa::run(&d, &mem, &opts);
    drop(packet);
    Some(Executed { result: result.map(Arc::new), elision: Elision::NotTried, memo: None })
}

/// The device model's name of an elision miss.
fn miss(m: elide::Miss) -> Miss {
    match m {
        elide::Miss::First => Miss::First,
        elide::Miss::NotRepeatable => Miss::NotRepeatable,
        elide::Miss::InPlace => Miss::InPlace,
        elide::Miss::Kernarg => Miss::Kernarg,
        elide::Miss::Memory => Miss::Memory,
    }
}

/// Prints how many dispatches were elided, at exit (registered by the first elision).
extern "C" fn elided_note_at_exit() {
    crate::diag!("{}", rocprof_device::run::elided_note());
}

/// Runs `d` with dispatch elision (`elide.rs`): the kernarg segment and the packet are copied to the
/// stable buffers of the dispatch's key, and an exact repeat reuses the earlier record. `None` when the
/// kernarg segment cannot be read (the caller runs the dispatch as it is, to report the fault).
fn run_elidable(
    q: &'static Queue,
    pkt: &[u8; 64],
    d: &mut Dispatch,
    descriptor: [u8; 64],
    opts: &RunOptions<'_>,
) -> Option<Executed> {
    let key = elide::Key {
        queue: q as *const Queue as u64,
        kernel_object: d.kernel_object,
        descriptor,
        dims: [
            d.grid[0],
            d.grid[1],
            d.grid[2],
            d.workgroup[0],
            d.workgroup[1],
            d.workgroup[2],
            d.private_segment_size,
            d.group_segment_size,
        ],
        costs: opts.costs,
        max_wave_instructions: opts.max_wave_instructions,
        threads: opts.threads,
    };
    let entry = elide::entry(&key, d.descriptor.kernarg_size);
    let mut e = entry.lock().unwrap_or_else(|e| e.into_inner());
    let ranges = memory_map(q);
    let probe = SimMemory::new(ranges.clone());
    // Exactly the descriptor's kernarg bytes; the rest of the copy stays zero (bytes past the segment
    // are not the dispatch's, and HIP's next launch may be writing them).
    let mut kernarg = vec![0u8; e.kernarg_len()];
    let n = d.descriptor.kernarg_size as usize;
    if n > 0 && rocprof_isa::Memory::read(&probe, d.kernarg, &mut kernarg[..n]).is_err() {
        return None;
    }
    let mut packet = *pkt;
    packet[40..48].copy_from_slice(&e.kernarg_addr().to_le_bytes());
    let own = e.ranges();
    let mapped = |s: u64, end: u64| probe.contains(s, end) || own.iter().any(|&(os, oe)| os <= s && end <= oe);
    let threads = opts.threads;
    let missed = match e.reuse(&kernarg, &packet, &mapped, threads) {
        Ok((rec, memo)) => {
            static NOTE: std::sync::Once = std::sync::Once::new();
            // SAFETY: registers a plain `extern "C"` function without arguments.
            NOTE.call_once(|| unsafe {
                libc::atexit(elided_note_at_exit);
            });
            return Some(Executed { result: Ok(rec), elision: Elision::Reused, memo: Some(memo) });
        }
        Err(m) => miss(m),
    };
    d.kernarg = e.kernarg_addr();
    d.dispatch_ptr = e.packet_addr();
    let mut ranges = ranges;
    ranges.extend(own);
    let mem = SimMemory::tracking(ranges);
    let gws_before = GWS.ops();
    let result = rocprof_isa::run(d, &mem, opts).map(Arc::new);
    let memo = match &result {
        Ok(rec) => {
            let repeatable = !mem.atomics.load(Ordering::Relaxed) && GWS.ops() == gws_before;
            e.remember(rec, repeatable, mem.extents(false), mem.extents(true), threads)
        }
        Err(_) => {
            e.clear();
            None
        }
    };
    Some(Executed { result, elision: Elision::Missed(missed), memo })
}

#[cfg(test)]
mod runtime_tests {
    use super::*;
    use crate::queue_api::{hsa_queue_create, hsa_queue_destroy};
    use crate::signal::hsa_signal_wait_scacquire;
    use crate::testing::*;
    use rocprof_hsa_sys::*;

    /// Loads code-object `bytes` on `gpu`; returns the kernel object of `kernel`.
    pub(super) fn load(gpu: hsa_agent_t, bytes: Vec<u8>, kernel: &str) -> u64 {
        load_executable(gpu, bytes, kernel).1
    }

    /// Loads code-object `bytes` on `gpu` into a new executable; returns it and the kernel object of
    /// `kernel`.
    pub(super) fn load_executable(gpu: hsa_agent_t, bytes: Vec<u8>, kernel: &str) -> (hsa_executable_t, u64) {
        let k = load_kernel(gpu, Box::leak(bytes.into_boxed_slice()), kernel);
        (k.exe, k.kernel_object)
    }

    /// A kernel-dispatch packet: a 1-D grid of `n` work-items in workgroups of 64, system-scope
    /// fences, completing `done`.
    pub(super) fn packet(kernel_object: u64, kernarg: *mut u8, n: u32, done: hsa_signal_t) -> [u8; 64] {
        let mut pkt = [0u8; 64];
        let header = HSA_PACKET_TYPE_KERNEL_DISPATCH as u16 | (1 << 8) | (2 << 9) | (2 << 11);
        pkt[0..2].copy_from_slice(&header.to_le_bytes());
        pkt[2..4].copy_from_slice(&1u16.to_le_bytes());
        pkt[4..6].copy_from_slice(&64u16.to_le_bytes());
        pkt[6..8].copy_from_slice(&1u16.to_le_bytes());
        pkt[8..10].copy_from_slice(&1u16.to_le_bytes());
        pkt[12..16].copy_from_slice(&n.to_le_bytes());
        pkt[16..20].copy_from_slice(&1u32.to_le_bytes());
        pkt[20..24].copy_from_slice(&1u32.to_le_bytes());
        pkt[32..40].copy_from_slice(&kernel_object.to_le_bytes());
        pkt[40..48].copy_from_slice(&(kernarg as u64).to_le_bytes());
        pkt[56..64].copy_from_slice(&done.handle.to_le_bytes());
        pkt
    }

    /// Pool memory of the GPU's first allocatable pool.
    pub(super) fn alloc(gpu: hsa_agent_t, size: usize) -> *mut u8 {
        let (agent, _) = crate::agent::lookup_gpu(gpu).unwrap();
        let pool = agent.pools.iter().find(|p| p.alloc_allowed).expect("an allocatable pool");
        crate::memory::allocate(pool, size).unwrap().cast()
    }

    /// Dispatches `fill(p, value, pitch = n, n)` over `n` work-items and waits for its completion.
    fn fill(gpu: hsa_agent_t, kernel_object: u64, p: *mut u8, value: u32, n: u32) {
        let kernarg = alloc(gpu, 512);
        let mut args = (p as u64).to_le_bytes().to_vec();
        for v in [value, n, n] {
            args.extend_from_slice(&v.to_le_bytes());
        }
        // Hidden arguments at 24: block count x, group size x (code object v5).
        args.resize(24, 0);
        args.extend_from_slice(&n.div_ceil(64).to_le_bytes());
        args.extend_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
        args.extend_from_slice(&64u16.to_le_bytes());
        args.extend_from_slice(&[1, 0, 1, 0]);
        // SAFETY: the kernarg allocation holds 512 bytes.
        unsafe { std::ptr::copy_nonoverlapping(args.as_ptr(), kernarg, args.len()) };
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        // SAFETY: valid arguments and out-pointer.
        unsafe {
            assert_eq!(
                hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, None, std::ptr::null_mut(), u32::MAX, u32::MAX, &mut q),
                HSA_STATUS_SUCCESS
            );
        }
        let done = signal(1);
        submit(q, &packet(kernel_object, kernarg, n, done));
        // SAFETY: live signal and queue.
        unsafe {
            assert_eq!(
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10_000_000_000, HSA_WAIT_STATE_BLOCKED),
                0,
                "the dispatch completes, executed or not"
            );
            hsa_queue_destroy(q);
        }
    }

    /// An instruction the interpreter has no semantics for (an MFMA, hand-patched over the first instruction
    /// of the fixture `fill` kernel) stops that dispatch with a report naming the instruction, its PC and
    /// the kernel; the fallback is counted and the dispatch still completes. The unpatched kernel runs.
    #[test]
    fn unimplemented_instruction_is_reported_counted_and_falls_back() {
        let _g = crate::testing::TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let gpu = init_gpu();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kernels/fill-gfx942.co");
        let elf = std::fs::read(&path).unwrap();
        let n = 200u32;
        let buf = alloc(gpu, 4 * n as usize);

        let executed = STATS.executed.load(Ordering::Relaxed);
        let good = load(gpu, elf.clone(), "fill");
        fill(gpu, good, buf, 0x1234_5678, n);
        // SAFETY: the allocation holds `n` dwords.
        let out = unsafe { std::slice::from_raw_parts(buf.cast::<u32>(), n as usize) };
        assert!(out.iter().all(|&v| v == 0x1234_5678), "fill wrote {:x?}", &out[..8]);
        assert_eq!(STATS.executed.load(Ordering::Relaxed), executed + 1);

        // v_cvt_sr_fp8_f32 v1, v2, v3 (llvm-mc-19 -mcpu=gfx942; stochastic-rounding conversions are
        // not implemented) over the kernel's first 8 bytes.
        let obj = rocprof_isa::CodeObject::parse(&elf).unwrap();
        let entry = obj.symbols.iter().find(|s| s.name == "fill").unwrap().value;
        let file_off = (entry - obj.text.0 + obj.text_offset) as usize;
        let mut patched = elf;
        patched[file_off..file_off + 8].copy_from_slice(&[0x01, 0x00, 0xa4, 0xd2, 0x02, 0x07, 0x02, 0x00]);
        let bad = load(gpu, patched, "fill");
        let unimplemented = STATS.unimplemented.load(Ordering::Relaxed);
        let fallback = STATS.fallback.load(Ordering::Relaxed);
        fill(gpu, bad, buf, 0xabcd, n);
        assert_eq!(STATS.unimplemented.load(Ordering::Relaxed), unimplemented + 1);
        assert_eq!(STATS.fallback.load(Ordering::Relaxed), fallback + 1);
        assert!(out.iter().all(|&v| v == 0x1234_5678), "nothing ran after the stop");
        let report = rocprof_device::run::last_report();
        for want in [
            "kernel fill",
            "unimplemented instruction `v_cvt_sr_fp8_f32`",
            "d2a40001 00020702",
            "(entry+0x0)",
            "workgroup 0 wave 0",
            "timing-only model",
        ] {
            assert!(report.contains(want), "report lacks {want:?}: {report}");
        }
        shut_down();
    }
}

#[cfg(test)]
#[path = "exec_elide_tests.rs"]
mod elide_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_isa::Memory;

    #[test]
    fn memory_map_merges_ranges_and_faults_outside() {
        let mut buf = vec![0u8; 64];
        let base = buf.as_mut_ptr() as u64;
        let m = SimMemory::new(vec![(base + 32, base + 64), (base, base + 16), (base + 8, base + 32)]);
        assert_eq!(m.ranges, vec![(base, base + 64)]);
        m.write(base + 60, &[1, 2, 3, 4]).unwrap();
        let mut out = [0u8; 4];
        m.read(base + 60, &mut out).unwrap();
        assert_eq!(out, [1, 2, 3, 4]);
        assert_eq!(m.read(base + 62, &mut out), Err(Fault { addr: base + 62, len: 4, write: false }));
        assert!(m.write(base - 4, &[0; 4]).is_err());
        let old = m.atomic(base + 8, 4, &mut |v| v + 5).unwrap();
        assert_eq!(old, 0);
        assert_eq!(buf[8], 5);
        assert!(m.atomic(base + 9, 4, &mut |v| v).is_err(), "unaligned atomic");
    }

    /// The last-hit hint never lets an access through that the ranges do not allow: between two
    /// separate ranges, after hits in either, the gap and the straddling accesses still fault.
    #[test]
    fn the_last_range_hint_does_not_widen_the_map() {
        let mut buf = vec![0u8; 96];
        let base = buf.as_mut_ptr() as u64;
        let m = SimMemory::new(vec![(base + 64, base + 96), (base, base + 32)]);
        let mut out = [0u8; 4];
        for _ in 0..2 {
            m.read(base + 64, &mut out).unwrap();
            assert!(m.read(base + 60, &mut out).is_err(), "straddles the start of the second range");
            assert!(m.read(base + 40, &mut out).is_err(), "in the gap");
            m.read(base + 28, &mut out).unwrap();
            assert!(m.read(base + 30, &mut out).is_err(), "straddles the end of the first range");
            assert!(m.read(base + 96, &mut out).is_err(), "past the end");
            assert!(m.read(u64::MAX - 1, &mut out).is_err(), "wraps around");
        }
        buf[0] = 1;
    }

    /// Reads and writes keep hints of their own: a kernel reading one range and writing another (both
    /// hints then stay put) still faults on every access the ranges do not allow, in either direction, and
    /// a write into the range only the read hint points at is checked against that range itself.
    #[test]
    fn read_and_write_hints_each_check_every_access() {
        let mut buf = vec![0u8; 96];
        let base = buf.as_mut_ptr() as u64;
        let m = SimMemory::new(vec![(base + 64, base + 96), (base, base + 32)]);
        let mut out = [0u8; 4];
        for k in 0..3u8 {
            m.read(base + 64, &mut out).unwrap();
            m.write(base + 4, &[k; 4]).unwrap();
            assert!(m.write(base + 30, &[0; 4]).is_err(), "write straddles the end of the first range");
            assert!(m.read(base + 30, &mut out).is_err(), "read straddles the end of the first range");
            assert!(m.write(base + 40, &[0; 4]).is_err(), "write in the gap");
            assert!(m.write(base + 94, &[0; 4]).is_err(), "write straddles the end of the second range");
            assert!(m.read(base + 62, &mut out).is_err(), "read straddles the start of the second range");
            m.write(base + 92, &[k; 4]).unwrap();
            m.read(base + 4, &mut out).unwrap();
            assert_eq!(out, [k; 4]);
            m.read(base + 92, &mut out).unwrap();
            assert_eq!(out, [k; 4]);
            assert!(m.atomic(base + 33, 4, &mut |v| v).is_err(), "atomic in the gap");
        }
    }
}
