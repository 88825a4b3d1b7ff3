//! Tool load, unload, exit and fork: everything that runs outside the hooks and may allocate.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::Duration;

use rocprof_hsa_sys::*;
use rocprof_launch::{names, BufferPolicy, TraceWord};
use rocprof_model::capture::HeaderInfo;

use crate::diag::Level;
use crate::sink::Sink;
use crate::state::{self, Global};
use crate::tables::{self, AmdLayout, Originals, Wrappers};
use crate::{agents, clock, diag, hip, hsa_api, memory, queue, roctx, scratch, timer};

/// How long exit and unload wait for outstanding completions.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// The library's face as the loader needs it: the functions `exports` defines that go into the
/// runtime's tables and the process's exit and fork hooks. `exports` builds it and hands it to
/// [`early_init`], [`on_load`] and `register::set_api_table`, so the loader never names the face.
#[derive(Debug, Clone, Copy)]
pub struct Face {
    /// The API wrappers `OnLoad` installs.
    pub wrappers: Wrappers,
    /// The copy and allocation hooks.
    pub memory: memory::Hooks,
    /// The scratch event hooks.
    pub scratch: scratch::Hooks,
    /// The `atexit` handler.
    pub at_exit: extern "C" fn(),
    /// The fork child handler.
    pub at_fork_child: extern "C" fn(),
}

/// Replaces entries of `fresh` that point at our own wrappers (a second `OnLoad` on a table we
/// already patched, or the same library listed twice) with the originals we saved before, so a
/// wrapper never calls itself.
fn unwrap_ours(fresh: &mut Originals, previous: Option<&Originals>, w: &Wrappers) {
    if fresh.queue_create.map(|f| f as usize) == Some(w.queue_create as usize) {
        fresh.queue_create = previous.and_then(|p| p.queue_create);
    }
    if fresh.queue_destroy.map(|f| f as usize) == Some(w.queue_destroy as usize) {
        fresh.queue_destroy = previous.and_then(|p| p.queue_destroy);
    }
    if fresh.executable_freeze.map(|f| f as usize) == Some(w.executable_freeze as usize) {
        fresh.executable_freeze = previous.and_then(|p| p.executable_freeze);
    }
    if fresh.executable_destroy.map(|f| f as usize) == Some(w.executable_destroy as usize) {
        fresh.executable_destroy = previous.and_then(|p| p.executable_destroy);
    }
    if fresh.signal_load_relaxed.map(|f| f as usize) == Some(w.signal_load_relaxed as usize) {
        fresh.signal_load_relaxed = previous.and_then(|p| p.signal_load_relaxed);
    }
    if fresh.signal_load_scacquire.map(|f| f as usize) == Some(w.signal_load_scacquire as usize) {
        fresh.signal_load_scacquire = previous.and_then(|p| p.signal_load_scacquire);
    }
    if fresh.signal_wait_relaxed.map(|f| f as usize) == Some(w.signal_wait_relaxed as usize) {
        fresh.signal_wait_relaxed = previous.and_then(|p| p.signal_wait_relaxed);
    }
    if fresh.signal_wait_scacquire.map(|f| f as usize) == Some(w.signal_wait_scacquire as usize) {
        fresh.signal_wait_scacquire = previous.and_then(|p| p.signal_wait_scacquire);
    }
    if fresh.amd_signal_wait_any.map(|f| f as usize) == Some(w.amd_signal_wait_any as usize) {
        fresh.amd_signal_wait_any = previous.and_then(|p| p.amd_signal_wait_any);
    }
    if fresh.amd_signal_wait_all.map(|f| f as usize) == Some(w.amd_signal_wait_all as usize) {
        fresh.amd_signal_wait_all = previous.and_then(|p| p.amd_signal_wait_all);
    }
    if fresh.signal_group_wait_any_relaxed.map(|f| f as usize) == Some(w.signal_group_wait_any_relaxed as usize) {
        fresh.signal_group_wait_any_relaxed = previous.and_then(|p| p.signal_group_wait_any_relaxed);
    }
    if fresh.signal_group_wait_any_scacquire.map(|f| f as usize) == Some(w.signal_group_wait_any_scacquire as usize) {
        fresh.signal_group_wait_any_scacquire = previous.and_then(|p| p.signal_group_wait_any_scacquire);
    }
}

fn loader_table(o: &Originals) -> Option<hsa_ven_amd_loader_1_01_pfn_t> {
    let f = o.system_get_major_extension_table?;
    // SAFETY: the table is plain nullable function pointers; all-zero is a valid value.
    let mut t: hsa_ven_amd_loader_1_01_pfn_t = unsafe { std::mem::zeroed() };
    // SAFETY: `t` is writable for the length we pass.
    let rc = unsafe {
        f(
            HSA_EXTENSION_AMD_LOADER as u16,
            1,
            std::mem::size_of::<hsa_ven_amd_loader_1_01_pfn_t>(),
            (&mut t as *mut hsa_ven_amd_loader_1_01_pfn_t).cast(),
        )
    };
    (rc == HSA_STATUS_SUCCESS).then_some(t)
}

fn runtime_timestamp_ns(o: &Originals) -> u64 {
    let Some(f) = o.system_get_info else { return 0 };
    let (mut ts, mut freq) = (0u64, 0u64);
    // SAFETY: out-pointers of the documented u64 types.
    unsafe {
        if f(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, (&mut freq as *mut u64).cast()) != HSA_STATUS_SUCCESS
            || f(HSA_SYSTEM_INFO_TIMESTAMP, (&mut ts as *mut u64).cast()) != HSA_STATUS_SUCCESS
        {
            return 0;
        }
    }
    if freq == 0 || freq == 1_000_000_000 {
        ts
    } else {
        (ts as u128 * 1_000_000_000 / freq as u128) as u64
    }
}

fn cmdline() -> Vec<u8> {
    std::fs::read("/proc/self/cmdline").unwrap_or_default()
}

fn ppid() -> u32 {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() as u32 }
}

/// The runtime's clock has been looked at (by [`create_capture`] or the first `OnLoad` after an
/// early capture).
static RUNTIME_CLOCK: AtomicBool = AtomicBool::new(false);

/// Creates the capture file, starts the writer thread and installs the shared state. With the
/// runtime's functions (`OnLoad`), the capture clock follows the runtime and the agents go into
/// the header; without (an early capture, for HIP or ROCTx calls that precede `hsa_init`), the
/// clock is `CLOCK_BOOTTIME` and the agents are recorded at the first `OnLoad`. Returns None (after
/// saying why) when there is no capture directory or the file cannot be created.
fn create_capture(o: Option<&Originals>, trace_kernels: bool, face: &Face) -> Option<&'static Global> {
    let env = crate::env::env();
    let Some(dir) = env.capture_dir.clone() else {
        diag!(
            Level::Warning,
            "{} is not set; not profiling (run the application under rocprof-rs)",
            names::CAPTURE_DIR
        );
        return None;
    };
    let clock_id = match o {
        Some(o) => {
            RUNTIME_CLOCK.store(true, Ordering::Release);
            clock::detect(runtime_timestamp_ns(o))
        }
        None => clock::fix_default(),
    };
    // TSC stamps and clock sync points only when some domain stamps records on the host (a
    // kernel-only capture writes no clock records).
    let host_words = [
        TraceWord::MemoryAllocation,
        TraceWord::ScratchMemory,
        TraceWord::HipRuntime,
        TraceWord::HipCompiler,
        TraceWord::Marker,
        TraceWord::KernelRename,
        TraceWord::SelectedRegions,
    ];
    let host_records = hsa_api::Domains::from_trace(env.trace).any() || host_words.iter().any(|&w| env.trace.has(w));
    timer::init(host_records);
    let mut found = match o {
        Some(o) => agents::discover(o, 0, &|_| false),
        None => agents::Discovered::default(),
    };
    let path = dir.join(format!("{}.rpcap", std::process::id()));
    let info = HeaderInfo {
        pid: std::process::id(),
        ppid: ppid(),
        clock: clock_id as u32,
        start_ns: clock::now_ns(),
        chunk_size: 0,
        cmdline: cmdline(),
        agents: std::mem::take(&mut found.section),
        table_major: o.map_or(0, |o| o.root_major),
        amd_ext_size: o.map_or(0, |o| o.amd_ext_size),
    };
    crate::fault::init();
    let limits = match &env.limits {
        Some(text) => state::Limits::parse(text).unwrap_or_else(|e| {
            diag!(Level::Error, "{}: {e}; using the default capacities", names::LIMITS);
            state::Limits::DEFAULT
        }),
        None => state::Limits::DEFAULT,
    };
    let policy = match &env.buffer_policy {
        Some(Ok(p)) => *p,
        Some(Err(e)) => {
            diag!(Level::Error, "{}: {e}; using lossless", names::BUFFER_POLICY);
            BufferPolicy::Lossless
        }
        None => BufferPolicy::Lossless,
    };
    let sink = match Sink::create(&path, &info) {
        Ok(mut s) => {
            s.limit_chunks(limits.capture_chunks);
            s.set_policy(policy);
            Box::leak(Box::new(s))
        }
        Err(e) => {
            diag!(Level::Error, "cannot create capture file {}: {e}; not profiling", path.display());
            return None;
        }
    };
    timer::sync(sink);
    if let Err(e) = sink.start_writer(writer_tick) {
        diag!(Level::Warning, "cannot start the writer thread: {e}; records that find no capture space are dropped");
    }
    let mut global = Global::with_limits(sink, trace_kernels, &found.gpus, &limits);
    for &h in &found.all {
        global.known_agents.insert(h);
    }
    global.gate_completions = env.gate_completions;
    let g = state::init_global(global);
    if let Some(o) = o {
        attach_runtime(g, o, &found, trace_kernels);
    }
    register_process_hooks(face);
    crate::host_functions::flush();
    diag!(
        Level::Info,
        "capturing to {} ({} agents{})",
        path.display(),
        found.count,
        if o.is_none() { ", before the runtime" } else { "" }
    );
    Some(g)
}

/// Remembers the agents of a discovery (GPUs for kernel tracing, all to avoid recording twice).
fn record_agents(g: &Global, found: &agents::Discovered) {
    for &h in &found.all {
        g.known_agents.insert(h);
    }
    for &h in &found.gpus {
        g.gpu_agents.insert(h);
    }
}

/// What needs the runtime's functions and agents, done once per process when the runtime is
/// first seen: counter collection and thread trace.
fn attach_runtime(g: &Global, o: &Originals, found: &agents::Discovered, trace_kernels: bool) {
    if trace_kernels && o.can_trace_kernels() {
        if let Some(pmc) = crate::pmc::PmcState::from_env(o, g.sink, &found.gpu_geometry, found.cpu, g.counter_buffers)
        {
            crate::pmc::install(pmc);
        }
    } else if crate::env::env().counters.is_some() {
        diag!(
            Level::Error,
            "counter collection needs intercept queues, which this runtime does not offer; no counters"
        );
    }
    let dir = crate::env::env().capture_dir.as_deref();
    if let Some(dir) = dir {
        crate::att::init(dir, &found.gpus);
    }
    if trace_kernels && o.can_trace_kernels() {
        crate::pcsamp::init(o, &found.gpus, dir);
    }
}

/// Setup that must precede the application's first runtime call: the HIP and ROCTx settings
/// from the traced domains (and `--selected-regions` starting paused), and the HIP 5.x callbacks.
/// Runs once, from the library constructor (or the first `rocprofiler_set_api_table` /
/// `OnLoad`); outside rocprof-rs (no capture directory) it does nothing.
pub fn early_init(face: &Face) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let env = crate::env::env();
        if env.capture_dir.is_none() {
            return;
        }
        if let Some(level) = env.log_level {
            diag::set_level(level);
        }
        let trace = env.trace;
        hip::configure(trace);
        roctx::configure(trace);
        crate::period::start_from_env();
        // HIP and ROCTx calls can precede the runtime's initialisation: capture from now on.
        if hip::enabled() || roctx::wanted() {
            create_capture(None, trace.has(TraceWord::Kernel), face);
        }
        if hip::enabled() {
            let n = hip::v5::register();
            if n > 0 {
                diag!(Level::Info, "HIP 5.x callbacks registered for {n} API ids");
            }
            let n = hip::v6::register();
            if n > 0 {
                diag!(Level::Info, "HIP tracer callback registered for {n} API ids");
            }
            hip::warn_if_untraced(false);
        }
    });
}

/// `OnLoad`: returns true to stay loaded (always, see hsa-abi.md §1.4: never false on 5.2).
///
/// # Safety
/// `table` is the runtime's live `HsaApiTable` (the `OnLoad` contract).
pub unsafe fn on_load(table: *mut HsaApiTable, face: &Face) -> bool {
    if let Some(level) = crate::env::env().log_level {
        diag::set_level(level);
    }
    if state::lifecycle() == state::Lifecycle::Disabled {
        return true;
    }
    early_init(face);
    // A HIP loaded after this library (dlopen) registers its callbacks now.
    if hip::enabled() && hip::mechanism() == hip::Mechanism::None && hip::v5::register() == 0 {
        hip::v6::register();
    }
    // A table we wrapped before (a second OnLoad without a reset) gets its entries back first,
    // so that no wrapper is taken for the runtime's function.
    // SAFETY: `table` is the live table, not written by anyone else during OnLoad.
    unsafe { hsa_api::unwrap_all(table) };
    // Likewise the copy/allocation hooks, which lie under the API wrappers.
    // SAFETY: as above.
    unsafe { memory::unwrap(table, state::originals(), &face.memory) };
    // SAFETY: `table` is the live table (caller).
    let negotiated = match unsafe { tables::negotiate(table) } {
        Ok(n) => n,
        Err(e) => {
            diag!(Level::Error, "{e}; not profiling");
            return true;
        }
    };
    let mut o = negotiated.originals;
    unwrap_ours(&mut o, state::originals(), &face.wrappers);
    o.loader = loader_table(&o);
    let trace = crate::env::env().trace;
    let trace_kernels = trace.has(TraceWord::Kernel);
    if trace_kernels && !o.can_trace_kernels() {
        match negotiated.amd_layout {
            AmdLayout::Unsupported { major, size } => diag!(
                Level::Error,
                "AMD extension table major {major} with {size} bytes has no known layout; kernel tracing is off"
            ),
            _ => {
                diag!(Level::Error, "the runtime lacks intercept queues or profiling functions; kernel tracing is off")
            }
        }
    }
    state::set_originals(o);
    let o = state::originals().expect("just set");

    if state::global().is_none() {
        if create_capture(Some(o), trace_kernels, face).is_none() {
            return true;
        }
    } else if let Some(g) = state::global() {
        if !RUNTIME_CLOCK.swap(true, Ordering::AcqRel) {
            // The capture started before the runtime (HIP or ROCTx calls came first): keep its
            // clock, convert the runtime's; the agents, counters and thread trace start now.
            clock::adopt_runtime(runtime_timestamp_ns(o));
            let n = g.discoveries.fetch_add(1, Ordering::Relaxed);
            let found = agents::discover(o, (n & 0x7FF) << 20, &|h| g.known_agents.contains(h));
            g.sink.write_raw_records(&found.section);
            record_agents(g, &found);
            attach_runtime(g, o, &found, trace_kernels);
        } else {
            // A later hsa_init cycle: the runtime may have new agent handles. Record the agents not
            // seen yet in the record stream (the header was written by the first cycle).
            let n = g.discoveries.fetch_add(1, Ordering::Relaxed);
            let found = agents::discover(o, (n & 0x7FF) << 20, &|h| g.known_agents.contains(h));
            g.sink.write_raw_records(&found.section);
            record_agents(g, &found);
        }
    }
    // SAFETY: OnLoad runs under the runtime's bootstrap lock, so nobody else writes the table.
    unsafe {
        tables::install(negotiated.core, negotiated.amd, o, &face.wrappers, trace_kernels && o.can_trace_kernels())
    };
    // Copy and allocation hooks, under the API wrappers (so an API record includes their work).
    let copies = trace.has(TraceWord::MemoryCopy);
    let allocations = trace.has(TraceWord::MemoryAllocation);
    if copies || allocations {
        if let Some(g) = state::global() {
            let all = agents::all_handles(o);
            let gpus: Vec<u64> = all.iter().copied().filter(|&a| g.is_gpu(a)).collect();
            memory::init(o, &all, &gpus, copies, allocations);
            // SAFETY: OnLoad runs under the runtime's bootstrap lock, so nobody else writes the table.
            unsafe { memory::install(table, o, &face.memory, copies, allocations) };
        }
    }
    // Scratch events come from the tools table (newest layout only).
    if trace.has(TraceWord::ScratchMemory) && state::global().is_some() {
        // SAFETY: as above.
        unsafe { scratch::install(table, &face.scratch) };
    }
    // API tracing wraps last, on top of the hooks above, so a traced call's time includes them.
    let domains = hsa_api::Domains::from_trace(trace);
    // SAFETY: as above.
    let wrapped = unsafe { hsa_api::install(table, domains) };
    if domains.any() {
        diag!(Level::Info, "tracing {wrapped} HSA API functions");
    }
    state::activate();
    true
}

/// The writer thread's periodic upkeep: the signal pool, and a clock sync point for TSC
/// timestamps every 10 ms.
fn writer_tick() {
    queue::maintain_pool();
    memory::maintain();
    if let Some(g) = state::global() {
        timer::sync_if_due(g.sink);
    }
}

/// `OnUnload` (final `hsa_shut_down`): the runtime is still usable; drain outstanding completions
/// (bounded), mark a flush point, and stop recording until a later `OnLoad`.
pub fn on_unload() {
    // Stop recording new work first (the writer thread's pool upkeep checks this too); the
    // completion handlers of what is in flight still run.
    state::deactivate();
    crate::att::drain(DRAIN_TIMEOUT);
    if !queue::drain(DRAIN_TIMEOUT) {
        diag!(Level::Warning, "some dispatches did not complete before shutdown; their end times are missing");
    }
    crate::pcsamp::finish(true);
    if let Some(g) = state::global() {
        timer::sync(g.sink);
        g.sink.mark_clean(clock::now_ns());
        // The runtime destroys every signal when it shuts down.
        g.pool.reset();
        memory::on_unload();
        g.app_signals.clear();
        g.in_flight.store(0, Ordering::Release);
    }
}

/// atexit handler: bounded wait for completions, then mark the capture clean.
pub fn at_exit() {
    if state::global().is_some_and(|g| !g.sink.is_owner()) {
        return; // A forked child: the capture belongs to the parent.
    }
    if state::is_active() {
        crate::att::drain(DRAIN_TIMEOUT);
    }
    if state::is_active() && !queue::drain(DRAIN_TIMEOUT) {
        diag!(Level::Warning, "exiting with dispatches still in flight; their end times are missing");
    }
    if state::is_active() {
        crate::pcsamp::finish(false);
    }
    if let Some(g) = state::global() {
        timer::sync(g.sink);
        g.sink.mark_clean(clock::now_ns());
        if g.sink.lost_total() > 0 {
            diag!(
                Level::Warning,
                "{} records or dispatches were lost (the CLI reports them by reason)",
                g.sink.lost_total()
            );
        }
        g.sink.stop_writer();
    }
    report_untraced_libraries();
    hip::warn_if_untraced(true);
}

/// RCCL, rocDecode and rocJPEG API tracing is accepted on the command line (as rocprofv3 does)
/// but not implemented: when one of those libraries really is in the process and its domain was
/// asked for, say so at exit instead of leaving an empty trace to be read as "no calls".
fn report_untraced_libraries() {
    let trace = crate::env::env().trace;
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    for (word, library, option) in [
        (TraceWord::Rccl, "librccl", "--rccl-trace"),
        (TraceWord::RocDecode, "librocdecode", "--rocdecode-trace"),
        (TraceWord::RocJpeg, "librocjpeg", "--rocjpeg-trace"),
    ] {
        if trace.has(word) && maps.contains(&format!("/{library}")) {
            diag!(
                Level::Warning,
                "{option}: {library} is loaded in this process, but rocprof-rs does not trace its API yet; its calls are not in the outputs"
            );
        }
    }
}

/// fork child handler: the writer thread and our chunks belong to the parent, so the child runs
/// with profiling off (async-signal-safe: two atomic stores).
pub fn at_fork_child() {
    state::enter_fork_child();
}

fn register_process_hooks(face: &Face) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registering plain extern "C" functions with libc; they live as long as the
        // process (this library is never unloaded while profiling: the runtime only dlcloses tools
        // at shutdown, after OnUnload, and exit handlers check the lifecycle).
        unsafe {
            libc::atexit(face.at_exit);
            libc::pthread_atfork(None, None, Some(face.at_fork_child));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn runtime_freeze(_: hsa_executable_t, _: *const c_char) -> hsa_status_t {
        HSA_STATUS_SUCCESS
    }

    #[test]
    fn a_second_on_load_on_a_patched_table_keeps_the_real_originals() {
        let w = crate::exports::face().wrappers;
        let first = Originals { executable_freeze: Some(runtime_freeze), ..Originals::default() };
        // The table now holds our wrappers; reading it again must not make them "originals".
        let mut again = Originals {
            executable_freeze: Some(w.executable_freeze),
            queue_create: Some(w.queue_create),
            ..Originals::default()
        };
        unwrap_ours(&mut again, Some(&first), &w);
        assert_eq!(
            again.executable_freeze.map(|f| f as usize),
            Some(runtime_freeze as PFN_hsa_executable_freeze as usize)
        );
        assert!(again.queue_create.is_none(), "no earlier original: the slot is treated as absent");
    }
}
