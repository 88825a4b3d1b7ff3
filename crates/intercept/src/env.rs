//! The launch settings ([`rocprof_launch`]), decoded once from the process environment on first
//! use (cold path: the library constructor or `OnLoad`) and kept typed. What cannot be decoded is
//! kept as the decoder's message, for the module that uses the setting to report when it starts.

use std::path::PathBuf;
use std::sync::OnceLock;

use rocprof_launch::{
    names, process_env, AttSettings, BufferPolicy, CaptureDir, CollectionPeriods, CounterPlan, GateCompletions,
    KernelNames, LogLevel, PcSampling, Setting, Trace,
};
use rocprof_model::kernel_filter::{FilterError, KernelFilterSpec};

/// Every setting of the launch contract the library reads.
pub struct Env {
    /// Where the capture goes; without it the library does not profile.
    pub capture_dir: Option<PathBuf>,
    /// The verbosity (`None`: unset or unknown, the default stays).
    pub log_level: Option<LogLevel>,
    /// Traced domains ([`Trace::UNSET`] when unset).
    pub trace: Trace,
    /// The buffer policy, if set.
    pub buffer_policy: Option<Result<BufferPolicy, String>>,
    /// Completion signals gated in the queue.
    pub gate_completions: bool,
    /// The name form kernel filters match.
    pub kernel_names: KernelNames,
    /// Counter collection, and the malformed entries left out of it.
    pub counters: Option<(CounterPlan, Vec<String>)>,
    /// The kernel filter of counters and thread trace.
    pub kernel_filter: Result<KernelFilterSpec, FilterError>,
    /// Thread trace.
    pub att: Option<AttSettings>,
    /// PC sampling, if set.
    pub pc_sampling: Option<Result<PcSampling, String>>,
    /// Collection windows, if set.
    pub periods: Option<Result<CollectionPeriods, String>>,
    /// Test only: table capacities (`name=N,...`, read by [`crate::state::Limits::parse`]).
    pub limits: Option<String>,
    /// Test only: the KFD topology directory.
    pub kfd_topology: Option<PathBuf>,
    /// Test only: no TSC timestamps.
    pub no_tsc: bool,
}

impl Env {
    fn decode() -> Env {
        let get = process_env;
        Env {
            capture_dir: CaptureDir::from_process_env().map(|d| d.0),
            log_level: LogLevel::from_env(get).and_then(Result::ok),
            trace: Trace::from_process_env(),
            buffer_policy: BufferPolicy::from_env(get),
            gate_completions: GateCompletions::from_env(get).is_some_and(|g| g.is_ok_and(|g| g.0)),
            kernel_names: KernelNames::from_env(get).and_then(Result::ok).unwrap_or_default(),
            counters: CounterPlan::from_env(get),
            kernel_filter: KernelFilterSpec::from_env(get),
            att: AttSettings::from_env(get),
            pc_sampling: PcSampling::from_env(get),
            periods: CollectionPeriods::from_env(get),
            limits: get(names::LIMITS),
            kfd_topology: std::env::var_os(names::KFD_TOPOLOGY).map(PathBuf::from),
            no_tsc: std::env::var_os(names::NO_TSC).is_some(),
        }
    }
}

static ENV: OnceLock<Env> = OnceLock::new();

/// The settings (decoded at the first call).
pub fn env() -> &'static Env {
    ENV.get_or_init(Env::decode)
}
