//! The resolved configuration every other module works from (built from the command line by
//! `args.rs`; nothing here knows about clap).

use std::ffi::OsString;
use std::path::PathBuf;

use rocprof_launch::{Trace, TraceWord};
use rocprof_writers::csv::AgentIndex;
use rocprof_writers::stats::SummaryUnit;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// rocpd SQLite database.
    Rocpd,
    /// rocprofv3 CSV files.
    Csv,
    /// Perfetto trace (`results.pftrace`).
    Pftrace,
    /// rocprofv3's JSON (`results.json`).
    Json,
    /// OTF2 archive (`results.otf2`, `results.def`, `results/`).
    Otf2,
}

impl OutputFormat {
    /// Every format with its name on the command line (`-f`), in the order listed in messages.
    pub(crate) const ALL: [(&'static str, OutputFormat); 5] = [
        ("csv", Self::Csv),
        ("json", Self::Json),
        ("otf2", Self::Otf2),
        ("pftrace", Self::Pftrace),
        ("rocpd", Self::Rocpd),
    ];

    /// The format named `name` (case-insensitive).
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, f)| *f)
    }

    /// The names, comma-separated, for messages.
    pub(crate) fn names() -> String {
        Self::ALL.map(|(n, _)| n).join(", ")
    }
}

/// Where summary tables go (`--summary-output-file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SummaryOutput {
    /// Standard output, indented by 4 spaces (the default).
    Stdout,
    /// Standard error, indented by 4 spaces.
    Stderr,
    /// `<output-directory>/<output-file>_<name>.txt`, not indented.
    File(String),
}

/// Log level (`--log-level`). `Env` and `Config` print what the launcher sets / resolved, then
/// behave like `Warning`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LogLevel {
    Fatal,
    Error,
    Warning,
    Info,
    Trace,
    Env,
    Config,
}

impl LogLevel {
    /// The interception library's level.
    pub(crate) fn library_level(self) -> rocprof_launch::LogLevel {
        use rocprof_launch::LogLevel as L;
        match self {
            Self::Fatal | Self::Error => L::Error,
            Self::Warning | Self::Env | Self::Config => L::Warning,
            Self::Info => L::Info,
            Self::Trace => L::Trace,
        }
    }

    /// Whether informational lines (files written) are printed.
    pub(crate) fn shows_info(self) -> bool {
        !matches!(self, Self::Fatal | Self::Error)
    }

    /// Whether the launch environment is printed before running.
    pub(crate) fn shows_env(self) -> bool {
        matches!(self, Self::Env | Self::Info | Self::Trace)
    }

    /// Whether the resolved configuration is printed before running.
    pub(crate) fn shows_config(self) -> bool {
        matches!(self, Self::Config | Self::Info | Self::Trace)
    }
}

/// The traced domains, resolved from the tracing options (aggregates expanded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Tracing {
    pub(crate) kernel: bool,
    pub(crate) hip_runtime: bool,
    pub(crate) hip_compiler: bool,
    pub(crate) hsa_core: bool,
    pub(crate) hsa_amd: bool,
    pub(crate) hsa_image: bool,
    pub(crate) hsa_finalizer: bool,
    pub(crate) marker: bool,
    pub(crate) memory_copy: bool,
    pub(crate) memory_allocation: bool,
    pub(crate) scratch_memory: bool,
    pub(crate) rccl: bool,
    pub(crate) rocdecode: bool,
    pub(crate) rocjpeg: bool,
    /// `--kernel-rename`: kernels take the name of the innermost ROCTx range.
    pub(crate) kernel_rename: bool,
    /// `--selected-regions`: collection starts paused and follows roctxProfilerResume/Pause.
    pub(crate) selected_regions: bool,
    /// `--group-by-queue`: kernels and copies are grouped by queue, not HIP stream.
    pub(crate) group_by_queue: bool,
    /// `--kokkos-trace`: the interception library is Kokkos's tool (`KOKKOS_TOOLS_LIBS`) and
    /// records Kokkos regions as ROCTx ranges (implies `marker` and `kernel_rename`).
    pub(crate) kokkos: bool,
}

impl Tracing {
    /// The domains as (launch word, enabled), in the launch contract's order.
    fn words(&self) -> [(TraceWord, bool); 17] {
        use TraceWord as W;
        [
            (W::Kernel, self.kernel),
            (W::HipRuntime, self.hip_runtime),
            (W::HipCompiler, self.hip_compiler),
            (W::HsaCore, self.hsa_core),
            (W::HsaAmd, self.hsa_amd),
            (W::HsaImage, self.hsa_image),
            (W::HsaFinalizer, self.hsa_finalizer),
            (W::Marker, self.marker),
            (W::MemoryCopy, self.memory_copy),
            (W::MemoryAllocation, self.memory_allocation),
            (W::ScratchMemory, self.scratch_memory),
            (W::Rccl, self.rccl),
            (W::RocDecode, self.rocdecode),
            (W::RocJpeg, self.rocjpeg),
            (W::KernelRename, self.kernel_rename),
            (W::SelectedRegions, self.selected_regions),
            (W::GroupByQueue, self.group_by_queue),
        ]
    }

    /// True when some domain is traced (the modifiers `kernel_rename`, `selected_regions` and
    /// `group_by_queue` alone trace nothing).
    pub(crate) fn any(&self) -> bool {
        self.words()[..14].iter().any(|(_, on)| *on)
    }

    /// The traced domains for the interception library.
    pub(crate) fn to_trace(self) -> Trace {
        let mut t = Trace::default();
        for (w, on) in self.words() {
            t.set(w, on);
        }
        t
    }

    /// The resolved options, for the configuration JSON (rocprofv3's key names).
    fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "kernel_trace": self.kernel,
            "hip_runtime_api_trace": self.hip_runtime,
            "hip_compiler_api_trace": self.hip_compiler,
            "hsa_core_api_trace": self.hsa_core,
            "hsa_amd_ext_api_trace": self.hsa_amd,
            "hsa_image_ext_api_trace": self.hsa_image,
            "hsa_finalizer_ext_api_trace": self.hsa_finalizer,
            "marker_api_trace": self.marker,
            "memory_copy_trace": self.memory_copy,
            "memory_allocation_trace": self.memory_allocation,
            "scratch_memory_trace": self.scratch_memory,
            "rccl_api_trace": self.rccl,
            "rocdecode_api_trace": self.rocdecode,
            "rocjpeg_api_trace": self.rocjpeg,
            "kernel_rename": self.kernel_rename,
            "selected_regions": self.selected_regions,
            "group_by_queue": self.group_by_queue,
            "kokkos_trace": self.kokkos,
        })
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// `--collection-period` windows and `--minimum-output-data`.
    pub(crate) collection: CollectionSpec,
    /// Counter collection (`--pmc`, input files' `pmc_groups`), when requested.
    pub(crate) pmc: Option<PmcRequest>,
    /// `pmc_N` / `pass_N` of an input-file pass, appended to the output directory.
    pub(crate) output_subdir: Option<String>,
    /// Which dispatches counters and thread traces select (`--kernel-*-regex`, `--kernel-iteration-range`).
    pub(crate) kernel_filter: rocprof_model::kernel_filter::KernelFilterSpec,
    /// `--att`: thread-trace capture and decoding.
    pub(crate) att: Option<crate::options::AttOptions>,
    /// `--pc-sampling-*`: PC sampling, when requested.
    pub(crate) pc_sampling: Option<crate::options::PcSampling>,
    /// The traced domains.
    pub(crate) tracing: Tracing,
    /// The first option given that needs tracing to mean anything (`--stats`, `--summary`, ...):
    /// without any tracing option it is a fatal error, as in rocprofv3.
    pub(crate) needs_tracing: Option<&'static str>,
    pub(crate) output_directory: Option<String>,
    pub(crate) output_file: Option<String>,
    pub(crate) formats: Vec<OutputFormat>,
    pub(crate) stats: bool,
    pub(crate) summary: bool,
    pub(crate) summary_per_domain: bool,
    /// `--summary-groups`: one table per regular expression over domain names.
    pub(crate) summary_groups: Vec<String>,
    pub(crate) summary_unit: SummaryUnit,
    pub(crate) agent_index: AgentIndex,
    pub(crate) truncate_kernels: bool,
    pub(crate) mangled_kernels: bool,
    pub(crate) summary_output: SummaryOutput,
    pub(crate) log_level: LogLevel,
    /// `--buffer-policy`: what the interception library does when the capture has no free space.
    pub(crate) buffer_policy: rocprof_model::BufferPolicy,
    pub(crate) list_avail: bool,
    /// rocprofv3's launcher and tool options that change no traced domain (`--output-config`,
    /// `--preload`, `--perfetto-*`, `--echo`, ...).
    pub(crate) compat: CompatOptions,
    /// `--from-capture`: convert the capture files in this directory instead of running.
    pub(crate) from_capture: Option<PathBuf>,
    pub(crate) simulate: Option<Vec<String>>,
    pub(crate) app: Vec<OsString>,
    /// Current directory when rocprof-rs started (default output directory, `%cwd%`).
    pub(crate) launch_dir: PathBuf,
    /// When rocprof-rs started, seconds since the Unix epoch (`%launch_date%`, `%launch_time%`).
    pub(crate) launch_secs: u64,
}

/// A counter request as given (validated against the agents only before launch).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PmcRequest {
    /// `--pmc`: one entry; `pmc_groups`: one entry per group.
    pub(crate) groups: Vec<Vec<rocprof_counters::PmcItem>>,
    /// The groups are multiplexed in one run (`pmc_groups`), not one request to plan into passes.
    pub(crate) multiplexed: bool,
    /// Dispatches per agent before the next group (`pmc_group_interval`).
    pub(crate) interval: u64,
    /// `-E`: extra derived counter definitions.
    pub(crate) extra_counters: Option<PathBuf>,
    /// `--no-replay`: a request that needs several passes is an error.
    pub(crate) no_replay: bool,
}

/// rocprofv3's default output prefix.
pub(crate) const DEFAULT_OUTPUT_FILE: &str = "%hostname%/%pid%";

impl Config {
    /// True when some tracing domain is on.
    pub(crate) fn any_tracing(&self) -> bool {
        self.tracing.any() || self.att.is_some() || self.pmc.is_some() || self.pc_sampling.is_some()
    }

    /// Some summary table is asked for (`-S`, `-D`, `--summary-groups`).
    pub(crate) fn wants_summary(&self) -> bool {
        self.summary || self.summary_per_domain || !self.summary_groups.is_empty()
    }

    /// The output-directory template (unexpanded), with an input file's pass sub-directory.
    pub(crate) fn output_directory_template(&self) -> String {
        let dir = self.output_directory.clone().unwrap_or_else(|| self.launch_dir.display().to_string());
        match &self.output_subdir {
            Some(sub) => format!("{}/{sub}", dir.trim_end_matches('/')),
            None => dir,
        }
    }

    /// The output-file template (unexpanded).
    pub(crate) fn output_file_template(&self) -> String {
        self.output_file.clone().unwrap_or_else(|| DEFAULT_OUTPUT_FILE.to_string())
    }

    /// The resolved configuration as JSON in rocprofv3's layout (its tool `config` followed by its
    /// `output_config` keys, plus rocprof-rs's own `tool`, `tool_version`, `simulate`): stored in
    /// rocpd's `rocpd_info_process.extdata`, written by `--output-config`, printed by
    /// `--log-level config`.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "benchmark_mode": self.compat.benchmark_mode.map_or("", |m| m.name()),
            "counter_collection": self.pmc.is_some(),
            "collection_periods": self.collection.periods.iter().map(|p| serde_json::json!({
                "delay": p.delay_ns, "duration": p.duration_ns, "repeat": p.repeat
            })).collect::<Vec<_>>(),
            // rocprofv3: one set of counter names per group.
            "counters": self.pmc.as_ref().map_or_else(Vec::new, |p| p.groups.iter().map(|g| g.iter().map(|i| i.name.clone()).collect::<Vec<_>>()).collect::<Vec<_>>()),
            "counter_groups_interval": self.pmc.as_ref().map_or(1, |p| p.interval),
            "kernel_filter_include": self.kernel_filter.include.clone().unwrap_or_else(|| ".*".to_string()),
            "kernel_filter_exclude": self.kernel_filter.exclude.clone().unwrap_or_default(),
            "kernel_filter_range": self.kernel_filter.iterations.iter().flat_map(|&(a, b)| a..=b).collect::<Vec<_>>(),
            "demangle": !self.mangled_kernels || self.truncate_kernels,
            "truncate": self.truncate_kernels,
            "minimum_output_bytes": self.collection.minimum_output_bytes,
            "enable_signal_handlers": self.compat.enable_signal_handlers,
            "advanced_thread_trace": self.att.is_some(),
            "tool": "rocprof-rs",
            "tool_version": env!("CARGO_PKG_VERSION"),
            "simulate": self.simulate,
        });
        if let (Some(obj), serde_json::Value::Object(t)) = (v.as_object_mut(), self.tracing.to_json()) {
            obj.extend(t);
        }
        if let (Some(obj), serde_json::Value::Object(o)) = (v.as_object_mut(), self.output_config_json()) {
            obj.extend(o);
        }
        v
    }

    /// rocprofv3's `output_config` keys: the JSON output's `metadata.config` (rocprofv3 writes only
    /// these there; every value is a scalar or a list of strings, which AMD's `dotdict` loader
    /// needs).
    pub(crate) fn output_config_json(&self) -> serde_json::Value {
        let has = |f: OutputFormat| self.formats.contains(&f);
        let unit = match self.summary_unit {
            SummaryUnit::Sec => "sec",
            SummaryUnit::Msec => "msec",
            SummaryUnit::Usec => "usec",
            SummaryUnit::Nsec => "nsec",
        };
        let summary_file = match &self.summary_output {
            SummaryOutput::Stdout => "stdout".to_string(),
            SummaryOutput::Stderr => "stderr".to_string(),
            SummaryOutput::File(f) => f.clone(),
        };
        let p = &self.compat.perfetto;
        serde_json::json!({
            "output_path": self.output_directory_template(),
            "output_file": self.output_file_template(),
            "raw_output_path": self.output_directory_template(),
            "raw_output_file": self.output_file_template(),
            "perfetto_shmem_size_hint": p.shmem_size_hint_kb,
            "perfetto_buffer_size": p.buffer_size_kb,
            "perfetto_buffer_fill_policy": p.fill_policy,
            "perfetto_backend": p.backend,
            "stats": self.stats,
            "summary": self.summary,
            "summary_per_domain": self.summary_per_domain,
            "summary_groups": self.summary_groups,
            "summary_unit": unit,
            "summary_file": summary_file,
            "csv_output": has(OutputFormat::Csv),
            "json_output": has(OutputFormat::Json),
            "pftrace_output": has(OutputFormat::Pftrace),
            "otf2_output": has(OutputFormat::Otf2),
            "summary_output": self.summary || self.summary_per_domain || !self.summary_groups.is_empty(),
            "rocpd_output": has(OutputFormat::Rocpd),
            "kernel_rename": self.tracing.kernel_rename,
            "group_by_queue": self.tracing.group_by_queue,
        })
    }
}

/// `--perfetto-*`: rocprofv3's in-process Perfetto session settings. rocprof-rs writes the
/// Perfetto trace from the capture after the run, streaming, without an in-process trace buffer:
/// nothing is ever dropped or overwritten, so no size or policy bounds anything. The values are
/// validated as rocprofv3 does, recorded in `metadata.config`, and a run that sets any of them says
/// once that they do not apply (never silently ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PerfettoSettings {
    /// `--perfetto-backend`: `inprocess` (the only one: `system` needs the traced daemons).
    pub(crate) backend: &'static str,
    /// `--perfetto-buffer-size` in KB (rocprofv3's default 1 GiB).
    pub(crate) buffer_size_kb: u64,
    /// `--perfetto-buffer-fill-policy`: `discard` or `ring_buffer`.
    pub(crate) fill_policy: &'static str,
    /// `--perfetto-shmem-size-hint` in KB (default 64).
    pub(crate) shmem_size_hint_kb: u64,
    /// Some option of the group was given (the run says that they do not apply).
    pub(crate) given: bool,
}

impl Default for PerfettoSettings {
    fn default() -> Self {
        Self {
            backend: "inprocess",
            buffer_size_kb: 1 << 20,
            fill_policy: "discard",
            shmem_size_hint_kb: 64,
            given: false,
        }
    }
}

/// `--benchmark-mode` (hidden in rocprofv3): the run writes no outputs, and reports the
/// application's wall time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BenchmarkMode {
    /// The interception library is loaded but records nothing (tracing off).
    DisabledSdkContexts,
    /// Everything requested is recorded as in a normal run; only the outputs are not written.
    ToolRuntimeOverhead,
}

impl BenchmarkMode {
    /// rocprofv3's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::DisabledSdkContexts => "disabled-sdk-contexts",
            Self::ToolRuntimeOverhead => "tool-runtime-overhead",
        }
    }
}

/// See [`Config::compat`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CompatOptions {
    /// `--output-config`: write `<prefix>_config.json` per process.
    pub(crate) output_config: bool,
    /// `--preload` / `ROCPROF_PRELOAD`: libraries put first in the application's `LD_PRELOAD`.
    pub(crate) preload: Vec<String>,
    /// `--rocm-root`: the ROCm installation whose `lib/` is searched for the runtime and appended
    /// to the application's `LD_LIBRARY_PATH`.
    pub(crate) rocm_root: Option<PathBuf>,
    /// `--sdk-soversion` / `--sdk-version`: versioned names of our library tried when the plain
    /// one is missing (`librocprof_intercept.so.N`, `.so.X.Y.Z`).
    pub(crate) sdk_soversion: Option<u32>,
    pub(crate) sdk_version: Option<String>,
    /// `--disable-signal-handlers` negated. The interception library installs no signal handler
    /// in the application either way (its capture survives a crash without one), so the
    /// application's own handlers always stay in place; recorded in the configuration.
    pub(crate) enable_signal_handlers: bool,
    pub(crate) perfetto: PerfettoSettings,
    /// `--echo`: print the application command line rocprofv3's way and do not run it.
    pub(crate) echo: bool,
    pub(crate) benchmark_mode: Option<BenchmarkMode>,
    /// `--suppress-marker-preload` negated: with marker tracing, our ROCTx library is added to the
    /// application's `LD_PRELOAD` after the interception library (rocprofv3 preloads its
    /// `librocprofiler-sdk-roctx.so` so that an application linked to roctracer's `libroctx64`
    /// still reports its markers; ours has that soname, so it takes that library's place).
    pub(crate) marker_preload: bool,
    /// `--readlink` / `--realpath`: how the library paths put into the application's environment
    /// are written when they are symbolic links (rocprofv3's `resolve_library_path`).
    pub(crate) links: LinkResolution,
}

/// See [`CompatOptions::links`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum LinkResolution {
    /// The path as found (made absolute), links kept.
    #[default]
    AsFound,
    /// `--readlink`: a link is replaced by its target (one level, relative to the link's directory).
    Readlink,
    /// `--realpath`: every link and `..` resolved.
    Realpath,
}

impl Default for CompatOptions {
    fn default() -> Self {
        Self {
            output_config: false,
            preload: Vec::new(),
            rocm_root: None,
            sdk_soversion: None,
            sdk_version: None,
            enable_signal_handlers: true,
            perfetto: PerfettoSettings::default(),
            echo: false,
            benchmark_mode: None,
            marker_preload: true,
            links: LinkResolution::AsFound,
        }
    }
}

/// One `--collection-period` triplet, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CollectionPeriod {
    pub(crate) delay_ns: u64,
    pub(crate) duration_ns: u64,
    /// Times the (delay, duration) cycle runs; 0 runs it once, as rocprofv3's code does.
    pub(crate) repeat: u32,
}

/// When records are kept and whether a process's outputs are written at all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CollectionSpec {
    /// Empty: collect all the time.
    pub(crate) periods: Vec<CollectionPeriod>,
    /// A process whose event records add up to fewer bytes writes no outputs (0: always write).
    pub(crate) minimum_output_bytes: u64,
}

impl CollectionSpec {
    /// The collection windows `[start, end)` in ns on the clock of `origin_ns` (when profiling
    /// started in the process): each triplet's cycles one after the other, then the next
    /// triplet's. Empty when collection is never restricted.
    pub(crate) fn windows(&self, origin_ns: u64) -> Vec<(u64, u64)> {
        let mut t = origin_ns;
        let mut out = Vec::new();
        for p in &self.periods {
            for _ in 0..p.repeat.max(1) {
                let start = t.saturating_add(p.delay_ns);
                let end = start.saturating_add(p.duration_ns);
                out.push((start, end));
                t = end;
            }
        }
        out
    }
}
