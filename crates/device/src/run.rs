//! Running one kernel dispatch: [`run_dispatch`] executes it on `rocprof-isa`'s interpreter (the
//! program's buffers receive the kernel's results; the model counts what ran, and the waves the
//! dispatch's consumers select carry the instructions they executed), or falls back to the static walk
//! of the kernel's code when execution is off, the target has no interpreter, or the interpreter
//! stopped. The runtime (hsa-sim) passes the dispatch's memory and kernel in through [`Interpreter`];
//! this crate never sees its packets or queues. The dispatch's consumers ([`Consumers`]) choose the
//! waves recorded instruction by instruction and receive the model when the dispatch completes.
//!
//! * `ROCPROF_RS_SIM_EXEC=off` keeps the timing-only model (nothing is computed); on by default.
//! * `ROCPROF_RS_SIM_EXEC_THREADS=N`: host threads per dispatch (default: the available cores, at most 4).
//!   Workgroups are distributed over them; a workgroup always runs on one thread.
//! * `ROCPROF_RS_SIM_STATS=FILE`: after every dispatch, the execution statistics as `key value` lines
//!   (dispatches executed and fallen back by reason, waves, wave-instructions, and wave-instructions by
//!   class as `instructions_valu`, `instructions_salu`, ...: the counts the counter model reports).
//!   Elided dispatches count as executed, with their waves and instructions, and also as
//!   `dispatches_elided`; a dispatch of a known kernel that was executed instead is counted by why, as
//!   `elision_missed_<first|not_repeatable|in_place|kernarg|memory>` ([`Miss`]).
//! * `ROCPROF_RS_SIM_ELIDE=off`: the runtime executes every dispatch instead of reusing the results of
//!   an exact repeat ([`Settings::elide`]; the rule is the runtime's, hsa-sim's `elide.rs`).
//!
//! A dispatch the interpreter cannot run to the end (an instruction without semantics, a memory fault, a
//! trap, a hung wave) is counted in the statistics, reported once per kernel and reason
//! ([`DispatchOutcome::report`]), and modelled by the static walk: the application sees its completion
//! as before but must not trust the results. Memory the kernel already wrote stays written.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rocprof_isa::{DispatchError, DispatchRecord, ErrorKind, InstClass, RunOptions, CLASS_COUNT};
use rocprof_launch::names;

use crate::pm4::Pm4Device;
use crate::targets::GpuModel;
use crate::wave::{run_options, DetailRequest, DispatchInput, DispatchModel, KernelProfile};

/// Execution settings, read once per process.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Kernels execute (`ROCPROF_RS_SIM_EXEC`).
    pub enabled: bool,
    /// Repeated identical dispatches may be elided (`ROCPROF_RS_SIM_ELIDE`).
    pub elide: bool,
    /// Host threads per dispatch (`ROCPROF_RS_SIM_EXEC_THREADS`).
    pub threads: usize,
    /// Where the statistics go (`ROCPROF_RS_SIM_STATS`).
    pub stats_file: Option<std::path::PathBuf>,
}

/// The process's execution settings.
pub fn settings() -> &'static Settings {
    static S: OnceLock<Settings> = OnceLock::new();
    S.get_or_init(|| {
        let off = |var| matches!(std::env::var(var).as_deref().map(str::trim), Ok("off" | "0" | "false" | "no"));
        let enabled = !off(names::SIM_EXEC);
        let elide = !off(names::SIM_ELIDE);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = std::env::var(names::SIM_EXEC_THREADS)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(cores.min(4));
        let stats_file = std::env::var_os(names::SIM_STATS).filter(|v| !v.is_empty()).map(Into::into);
        Settings { enabled, elide, threads, stats_file }
    })
}

/// Why a dispatch of a kernel seen before was executed although elision was on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// The kernel's first dispatch with these dimensions.
    First,
    /// The earlier run used atomics or global wave sync: not repeatable.
    NotRepeatable,
    /// The earlier run's outputs are no longer in place.
    InPlace,
    /// The kernarg bytes differ.
    Kernarg,
    /// The memory the earlier run read differs.
    Memory,
}

/// What the runtime did with elision for one executed dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elision {
    /// Not tried (off, or the dispatch is not elidable).
    NotTried,
    /// An exact repeat: the earlier record was reused.
    Reused,
    /// Tried and executed, for this reason.
    Missed(Miss),
}

/// One execution of a dispatch.
pub struct Executed {
    /// The record (shared with the runtime's elision entry, never copied), or why the interpreter
    /// stopped.
    pub result: Result<Arc<DispatchRecord>, DispatchError>,
    /// What elision did.
    pub elision: Elision,
    /// The memo of this record's elision entry ([`Memo`]): [`run_dispatch`] fills it with the model it
    /// builds from the record, and takes the model from it for an elided repeat instead.
    pub memo: Option<Memo>,
}

/// What the device model made of a finished record: the dispatch's model and the counts the statistics
/// take from the record, for the dispatch it was built for. The runtime keeps it with the record for
/// the record's exact repeats (elision), which then need neither the record read again (its
/// workgroups placed, summed and counted) nor the model built again: the model is a function of the
/// dispatch's input, the record and the detail request, all three the same for a repeat that uses it.
pub struct Finished {
    input: InputKey,
    req: DetailRequest,
    model: DispatchModel,
    counts: Counts,
}

/// Where the finished model of one record is kept, filled once by the first [`run_dispatch`] that
/// builds it (an elision entry's, shared by all its repeats).
pub type Memo = Arc<OnceLock<Finished>>;

/// What identifies a dispatch's input, as a model was built for it: the target, the dimensions and
/// segment sizes, and the walked kernel (by address: a kernel's walk is kept until its executable is
/// destroyed, and the runtime forgets its elision entries, memos included, at that same moment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct InputKey {
    /// Address of the target's model.
    target: usize,
    grid: [u32; 3],
    workgroup: [u32; 3],
    wavefront_size: u32,
    lds_bytes: u32,
    scratch_bytes: u32,
    /// Address of the walked kernel.
    kernel: usize,
}

impl InputKey {
    fn of(input: &DispatchInput<'_>) -> Self {
        InputKey {
            target: std::ptr::from_ref(input.target) as usize,
            grid: input.grid,
            workgroup: input.workgroup,
            wavefront_size: input.wavefront_size,
            lds_bytes: input.lds_bytes,
            scratch_bytes: input.scratch_bytes,
            kernel: std::ptr::from_ref(input.kernel) as usize,
        }
    }
}

/// What the statistics count of a record: waves, wave-instructions, and those by class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    waves: u64,
    instructions: u64,
    by_class: [u64; CLASS_COUNT],
}

impl Counts {
    fn of(rec: &DispatchRecord) -> Self {
        let mut by_class = [0; CLASS_COUNT];
        for (c, n) in InstClass::ALL.iter().zip(&mut by_class) {
            *n = rec.totals.count(*c);
        }
        Counts { waves: rec.wave_count(), instructions: rec.totals.instructions(), by_class }
    }
}

/// The runtime's side of a dispatch: its memory and kernel, behind the interpreter.
pub trait Interpreter {
    /// The kernel descriptor's address.
    fn kernel_object(&self) -> u64;
    /// The kernel's name for a fallback report.
    fn kernel_name(&self) -> String;
    /// The dispatching queue's id (reports).
    fn queue_id(&self) -> u64;
    /// Runs the dispatch with `opts` (their `threads` are [`Settings::threads`]); `None` when the target
    /// has no interpreter.
    fn execute(&mut self, opts: RunOptions<'_>) -> Option<Executed>;
}

/// PC sampling's choice of waves, as (workgroup, wave in workgroup), given the model without detail.
pub type PickWaves<'a> = &'a dyn Fn(&DispatchModel) -> Vec<(u64, u32)>;

/// Who sees the agent's dispatches besides the application: running thread traces and counters (the
/// agent's PM4 device, once a PM4 stream ran on it), and PC sampling.
#[derive(Clone, Copy, Default)]
pub struct Consumers<'a> {
    /// The agent's PM4 device.
    pub pm4: Option<&'a Mutex<Pm4Device>>,
    /// PC sampling's request, when a session runs on the agent, and how it picks its waves by placement
    /// (long waves are then thinned on a cycle grid rather than cut).
    pub sampling: Option<(DetailRequest, PickWaves<'a>)>,
}

impl Consumers<'_> {
    /// The waves to record instruction by instruction: a running thread trace's, else PC sampling's.
    fn detail(&self) -> (DetailRequest, Option<PickWaves<'_>>) {
        let trace = self.pm4.and_then(|d| d.lock().unwrap_or_else(|e| e.into_inner()).sqtt_detail_request());
        match (trace, self.sampling) {
            (Some(req), _) => (req, None),
            (None, Some((req, pick))) => (req, Some(pick)),
            (None, None) => (DetailRequest::NONE, None),
        }
    }

    /// Hands a completed dispatch to the running thread traces (its waves) and counters of the agent
    /// (PC sampling, a runtime service, takes its samples from the model itself). `code_addr` and `code`:
    /// the kernel's entry and machine code.
    pub fn completed(&self, model: DispatchModel, code_addr: u64, code: &[u8]) {
        if let Some(device) = self.pm4 {
            let mut device = device.lock().unwrap_or_else(|e| e.into_inner());
            if device.is_tracing() {
                device.sqtt_dispatch(&model, code_addr, code);
            }
            if device.is_counting() {
                device.dispatch_completed(Arc::new(model));
            }
        }
    }
}

/// What [`run_dispatch`] gives.
pub struct DispatchOutcome {
    /// The dispatch's model: of what ran, or of the static walk.
    pub model: DispatchModel,
    /// The first report of this kernel falling back for this reason (the runtime prints it).
    pub report: Option<String>,
}

/// Runs one dispatch: executed when execution is on and the target has an interpreter, else (or when
/// the interpreter stopped) the static walk of `input`'s kernel. Statistics are written after every
/// executed dispatch.
pub fn run_dispatch(
    input: &DispatchInput<'_>,
    consumers: &Consumers<'_>,
    interp: &mut dyn Interpreter,
) -> DispatchOutcome {
    let (req, sampled) = consumers.detail();
    let req = &req;
    // Without execution (off, or a fallback) PC sampling's waves come from the static walk, the same
    // waves by placement as on the executed path.
    let walked = || match sampled {
        Some(pick) => DispatchModel::build_with_waves(input, req.max_instructions_per_wave, pick),
        None => DispatchModel::build(input, req),
    };
    if !settings().enabled {
        return DispatchOutcome { model: walked(), report: None };
    }
    // The waves to record instruction by instruction, chosen by the static model's placement.
    let wanted: HashSet<(u64, u32)> = if req.max_waves == 0 || req.se_mask == 0 {
        HashSet::new()
    } else {
        let m = DispatchModel::build(input, &DetailRequest::NONE);
        match sampled {
            Some(pick) => pick(&m),
            None => m.detail_waves(req),
        }
        .into_iter()
        .collect()
    };
    let filter = |g: u64, w: u32| wanted.contains(&(g, w));
    let filter: Option<&(dyn Fn(u64, u32) -> bool + Sync)> = if wanted.is_empty() { None } else { Some(&filter) };
    let mut opts = run_options(input, req, 1, filter);
    // Sampling needs the whole of a long wave: thinned on a cycle grid rather than cut.
    opts.decimate_detail = sampled.is_some();
    opts.threads = settings().threads;
    let Some(ran) = interp.execute(opts) else {
        return DispatchOutcome { model: walked(), report: None };
    };
    count_elision(ran.elision);
    let rec = match ran.result {
        Ok(rec) => rec,
        Err(e) => {
            let report = fall_back(interp, &e);
            write_stats();
            return DispatchOutcome { model: walked(), report };
        }
    };
    let key = InputKey::of(input);
    let kept = ran.memo.as_deref().and_then(OnceLock::get).filter(|f| f.input == key && f.req == *req);
    let model = match kept {
        Some(f) => {
            account(&f.counts);
            f.model.clone()
        }
        None => {
            let counts = Counts::of(&rec);
            account(&counts);
            let model = DispatchModel::from_execution(input, &rec, req);
            if let Some(memo) = &ran.memo {
                // Already set (for another input or request): that one stays, this model is not kept.
                let _ = memo.set(Finished { input: key, req: *req, model: model.clone(), counts });
            }
            model
        }
    };
    write_stats();
    DispatchOutcome { model, report: None }
}

/// Counts one execution in the statistics and writes them: the record when the dispatch ran to the
/// end (or was elided), else the first report of this kernel falling back for this reason (for the
/// runtime's tests, which look at records; [`run_dispatch`] counts the same).
pub fn settle(ran: Executed, interp: &dyn Interpreter) -> (Option<Arc<DispatchRecord>>, Option<String>) {
    count_elision(ran.elision);
    let out = match ran.result {
        Ok(rec) => {
            account(&Counts::of(&rec));
            (Some(rec), None)
        }
        Err(e) => (None, fall_back(interp, &e)),
    };
    write_stats();
    out
}

/// Counts what elision did with one execution.
fn count_elision(elision: Elision) {
    match elision {
        Elision::NotTried => {}
        Elision::Reused => {
            STATS.elided.fetch_add(1, Ordering::Relaxed);
        }
        Elision::Missed(miss) => {
            STATS.missed[miss as usize].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Execution statistics of the process.
pub struct Stats {
    /// Dispatches whose results were computed (executed or elided).
    pub executed: AtomicU64,
    /// Dispatches elided.
    pub elided: AtomicU64,
    /// Dispatches executed although elision was on, by [`Miss`] (in its order).
    pub missed: [AtomicU64; 5],
    /// Dispatches fallen back to the static walk.
    pub fallback: AtomicU64,
    /// ... because of an instruction without semantics.
    pub unimplemented: AtomicU64,
    /// ... a memory fault.
    pub fault: AtomicU64,
    /// ... an unsupported feature.
    pub unsupported: AtomicU64,
    /// ... a trap.
    pub trap: AtomicU64,
    /// ... an undecodable word.
    pub decode: AtomicU64,
    /// ... a hung wave.
    pub hang: AtomicU64,
    /// Waves executed.
    pub waves: AtomicU64,
    /// Wave-instructions executed.
    pub wave_instructions: AtomicU64,
    /// Wave-instructions by class ([`InstClass`] order).
    pub by_class: [AtomicU64; CLASS_COUNT],
    /// Bytes the runtime's elision hashed to check or remember extents.
    pub elision_hashed_bytes: AtomicU64,
    /// Extent checks the runtime's write protection answered without hashing.
    pub elision_extents_unwritten: AtomicU64,
}

impl Stats {
    /// All counters zero.
    pub const fn new() -> Self {
        Stats {
            executed: AtomicU64::new(0),
            elided: AtomicU64::new(0),
            missed: [const { AtomicU64::new(0) }; 5],
            fallback: AtomicU64::new(0),
            unimplemented: AtomicU64::new(0),
            fault: AtomicU64::new(0),
            unsupported: AtomicU64::new(0),
            trap: AtomicU64::new(0),
            decode: AtomicU64::new(0),
            hang: AtomicU64::new(0),
            waves: AtomicU64::new(0),
            wave_instructions: AtomicU64::new(0),
            by_class: [const { AtomicU64::new(0) }; CLASS_COUNT],
            elision_hashed_bytes: AtomicU64::new(0),
            elision_extents_unwritten: AtomicU64::new(0),
        }
    }
}

impl Default for Stats {
    fn default() -> Self {
        Self::new()
    }
}

/// The statistics' names of the instruction classes, in [`InstClass`] order: `instructions_<name>`.
const CLASS_NAMES: [&str; CLASS_COUNT] = [
    "salu",
    "smem",
    "valu",
    "vmem_load",
    "vmem_store",
    "flat_load",
    "flat_store",
    "lds",
    "branch_taken",
    "branch_not_taken",
    "barrier",
    "waitcnt",
    "other",
];

/// The process's execution statistics.
pub static STATS: Stats = Stats::new();

/// How many dispatches were elided, for the end of the process.
pub fn elided_note() -> String {
    let elided = STATS.elided.load(Ordering::Relaxed);
    let total = STATS.executed.load(Ordering::Relaxed);
    format!(
        "{elided} of {total} executed kernel dispatches were elided: exact repeats of an earlier identical run, its results reused (ROCPROF_RS_SIM_ELIDE=off executes every one)"
    )
}

fn write_stats() {
    if let Some(path) = &settings().stats_file {
        write_stats_to(&STATS, path);
    }
}

/// Held while the statistics file is written, so concurrent queues never interleave lines.
static STATS_FILE_LOCK: Mutex<()> = Mutex::new(());

/// Writes `s` to `path` whole. The counters are read under the lock, not before it: dispatches on
/// several queues finish concurrently, and a writer holding an older reading must not replace the file
/// after a newer one (the file written last then missed a dispatch that had been counted).
fn write_stats_to(s: &Stats, path: &std::path::Path) {
    let _g = STATS_FILE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let text = [
        ("dispatches_executed", &s.executed),
        ("dispatches_elided", &s.elided),
        ("elision_missed_first", &s.missed[Miss::First as usize]),
        ("elision_missed_not_repeatable", &s.missed[Miss::NotRepeatable as usize]),
        ("elision_missed_in_place", &s.missed[Miss::InPlace as usize]),
        ("elision_missed_kernarg", &s.missed[Miss::Kernarg as usize]),
        ("elision_missed_memory", &s.missed[Miss::Memory as usize]),
        ("elision_hashed_bytes", &s.elision_hashed_bytes),
        ("elision_extents_unwritten", &s.elision_extents_unwritten),
        ("dispatches_fallback", &s.fallback),
        ("fallback_unimplemented", &s.unimplemented),
        ("fallback_memory_fault", &s.fault),
        ("fallback_unsupported", &s.unsupported),
        ("fallback_trap", &s.trap),
        ("fallback_undecodable", &s.decode),
        ("fallback_hang", &s.hang),
        ("waves_executed", &s.waves),
        ("wave_instructions_executed", &s.wave_instructions),
    ]
    .iter()
    .map(|(k, v)| format!("{k} {}\n", v.load(Ordering::Relaxed)))
    .chain(
        CLASS_NAMES.iter().zip(&s.by_class).map(|(k, v)| format!("instructions_{k} {}\n", v.load(Ordering::Relaxed))),
    )
    .collect::<String>();
    let tmp = path.with_extension("partial");
    if std::fs::write(&tmp, text).is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// Counts a dispatch whose results were computed (executed or elided).
fn account(c: &Counts) {
    STATS.executed.fetch_add(1, Ordering::Relaxed);
    STATS.waves.fetch_add(c.waves, Ordering::Relaxed);
    STATS.wave_instructions.fetch_add(c.instructions, Ordering::Relaxed);
    for (n, s) in c.by_class.iter().zip(&STATS.by_class) {
        s.fetch_add(*n, Ordering::Relaxed);
    }
}

/// The last fallback report (for tests).
static LAST_REPORT: Mutex<String> = Mutex::new(String::new());

/// The last fallback report, printed or not.
pub fn last_report() -> String {
    LAST_REPORT.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Kernels (descriptor address, reason) already reported, so a loop of failing dispatches prints once.
static REPORTED: Mutex<Option<HashSet<(u64, u8)>>> = Mutex::new(None);

fn reason_code(k: &ErrorKind) -> u8 {
    match k {
        ErrorKind::Unimplemented => 0,
        ErrorKind::Fault(_) => 1,
        ErrorKind::Unsupported(_) => 2,
        ErrorKind::Trap => 3,
        ErrorKind::Decode(_) => 4,
        ErrorKind::Hang => 5,
    }
}

/// Counts a fallback; the report when it is this kernel's first for this reason.
fn fall_back(interp: &dyn Interpreter, e: &DispatchError) -> Option<String> {
    let s = &STATS;
    s.fallback.fetch_add(1, Ordering::Relaxed);
    let counter = match e.kind {
        ErrorKind::Unimplemented => &s.unimplemented,
        ErrorKind::Fault(_) => &s.fault,
        ErrorKind::Unsupported(_) => &s.unsupported,
        ErrorKind::Trap => &s.trap,
        ErrorKind::Decode(_) => &s.decode,
        ErrorKind::Hang => &s.hang,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    let kernel_object = interp.kernel_object();
    let first = REPORTED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert((kernel_object, reason_code(&e.kind)));
    let report = format!(
        "queue {}: kernel {}: {e}; this dispatch falls back to the timing-only model (its results are not computed)",
        interp.queue_id(),
        interp.kernel_name()
    );
    *LAST_REPORT.lock().unwrap_or_else(|e| e.into_inner()) = report.clone();
    first.then_some(report)
}

/// The walked code of every loaded kernel dispatched so far, by kernel descriptor address. An entry is
/// forgotten when its executable is destroyed ([`forget_kernel`]): the address may then be reused by
/// another code object, and the memory of the walk is released with the executable (a dispatch still
/// modelling it holds its own reference).
static PROFILES: Mutex<Option<HashMap<u64, Arc<KernelProfile>>>> = Mutex::new(None);

/// The walked code of the kernel at `kernel_object` whose machine code is `code` (walked at its first
/// dispatch and kept).
pub fn kernel_profile(m: &'static GpuModel, kernel_object: u64, code: &[u8]) -> Arc<KernelProfile> {
    let mut map = PROFILES.lock().unwrap_or_else(|e| e.into_inner());
    let map = map.get_or_insert_with(HashMap::new);
    map.entry(kernel_object).or_insert_with(|| Arc::new(KernelProfile::from_code(m, code))).clone()
}

/// Drops the walked code of the kernel at `kernel_object` (its executable is being destroyed).
pub fn forget_kernel(kernel_object: u64) {
    if let Some(map) = PROFILES.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        map.remove(&kernel_object);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_isa::ErrorKind;

    /// An interpreter that stops every dispatch with a trap (or has none for the target).
    struct Stops {
        kernel_object: u64,
        has_interpreter: bool,
        ran: usize,
    }

    impl Interpreter for Stops {
        fn kernel_object(&self) -> u64 {
            self.kernel_object
        }
        fn kernel_name(&self) -> String {
            "trapper".into()
        }
        fn queue_id(&self) -> u64 {
            7
        }
        fn execute(&mut self, _opts: RunOptions<'_>) -> Option<Executed> {
            self.ran += 1;
            let e = DispatchError {
                kind: ErrorKind::Trap,
                pc: 0x1000,
                pc_offset: 0,
                mnemonic: None,
                words: vec![],
                workgroup: 0,
                wave: 0,
            };
            self.has_interpreter.then_some(Executed { result: Err(e), elision: Elision::NotTried, memo: None })
        }
    }

    /// A dispatch the interpreter stops is modelled by the static walk of the same input (what
    /// `ROCPROF_RS_SIM_EXEC=off` gives), counted as a trap fallback each time, and reported once per
    /// kernel and reason in the documented words; a target without an interpreter is walked silently.
    #[test]
    fn a_stopped_dispatch_falls_back_to_the_static_walk_and_is_reported_once() {
        let m = crate::targets::find("gfx942").unwrap();
        // s_endpgm (gfx9 SOPP encoding 0xbf810000).
        let profile = KernelProfile::from_code(m, &[0x00, 0x00, 0x81, 0xbf]);
        let input = DispatchInput {
            target: m,
            grid: [256, 1, 1],
            workgroup: [64, 1, 1],
            wavefront_size: 64,
            lds_bytes: 0,
            scratch_bytes: 0,
            kernel: &profile,
        };
        let walked = DispatchModel::build(&input, &DetailRequest::NONE);
        let consumers = Consumers::default();
        let (fallback, trap) = (STATS.fallback.load(Ordering::Relaxed), STATS.trap.load(Ordering::Relaxed));
        let mut stops = Stops { kernel_object: 0xdead_0000, has_interpreter: true, ran: 0 };
        let first = run_dispatch(&input, &consumers, &mut stops);
        let second = run_dispatch(&input, &consumers, &mut stops);
        assert_eq!(stops.ran, 2);
        assert_eq!(first.model, walked);
        assert_eq!(second.model, walked);
        let report = first.report.expect("the first fallback is reported");
        assert_eq!(
            report,
            "queue 7: kernel trapper: s_trap at pc 0x1000 (entry+0x0), workgroup 0 wave 0; this dispatch falls back to the timing-only model (its results are not computed)"
        );
        assert_eq!(second.report, None, "reported once per kernel and reason");
        assert!(STATS.fallback.load(Ordering::Relaxed) >= fallback + 2);
        assert!(STATS.trap.load(Ordering::Relaxed) >= trap + 2);

        let mut none = Stops { kernel_object: 0xbeef_0000, has_interpreter: false, ran: 0 };
        let out = run_dispatch(&input, &consumers, &mut none);
        assert_eq!((out.model, out.report), (walked, None));
    }
    /// Two queues finish dispatches at once: the writer that waited for the file's lock must write
    /// the counts as they are when it gets the lock, including the dispatch the other queue counted
    /// meanwhile (gfx942 `streams` under rocprof-rs: the file said 5 dispatches, the program made 6).
    #[test]
    fn the_statistics_file_written_last_counts_every_dispatch_counted_before_it() {
        let dir = std::env::temp_dir().join(format!("rocprof-device-stats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stats");
        let stats = Arc::new(Stats::new());
        stats.executed.fetch_add(1, Ordering::Relaxed);
        // This thread is the other queue, in the middle of writing the file.
        let held = STATS_FILE_LOCK.lock().unwrap();
        let writer = {
            let (stats, path) = (stats.clone(), path.clone());
            std::thread::spawn(move || write_stats_to(&stats, &path))
        };
        // Let the writer reach the lock (the result does not depend on how long this takes).
        std::thread::sleep(std::time::Duration::from_millis(200));
        stats.executed.fetch_add(1, Ordering::Relaxed);
        stats.waves.fetch_add(8, Ordering::Relaxed);
        drop(held);
        writer.join().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let value = |key: &str| {
            text.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')).map(|v| v.parse::<u64>().unwrap())
        };
        assert_eq!(value("dispatches_executed"), Some(2), "{text}");
        assert_eq!(value("waves_executed"), Some(8), "{text}");
    }
}
