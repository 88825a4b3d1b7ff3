//! The resolved configuration every other module works from (built from the command line by
//! `args.rs`; nothing here knows about clap).

use std::ffi::OsString;
use std::path::PathBuf;

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
    /// Value of `ROCPROF_RS_LOG_LEVEL` for the interception library.
    pub(crate) fn env_value(self) -> &'static str {
        match self {
            Self::Fatal | Self::Error => "error",
            Self::Warning | Self::Env | Self::Config => "warning",
            Self::Info => "info",
            Self::Trace => "trace",
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
}

impl Tracing {
    /// The domains as (word in `ROCPROF_RS_TRACE`, enabled), in a fixed order.
    fn words(&self) -> [(&'static str, bool); 17] {
        [
            ("kernel", self.kernel),
            ("hip_runtime", self.hip_runtime),
            ("hip_compiler", self.hip_compiler),
            ("hsa_core", self.hsa_core),
            ("hsa_amd", self.hsa_amd),
            ("hsa_image", self.hsa_image),
            ("hsa_finalizer", self.hsa_finalizer),
            ("marker", self.marker),
            ("memory_copy", self.memory_copy),
            ("memory_allocation", self.memory_allocation),
            ("scratch_memory", self.scratch_memory),
            ("rccl", self.rccl),
            ("rocdecode", self.rocdecode),
            ("rocjpeg", self.rocjpeg),
            ("kernel_rename", self.kernel_rename),
            ("selected_regions", self.selected_regions),
            ("group_by_queue", self.group_by_queue),
        ]
    }

    /// True when some domain is traced (the modifiers `kernel_rename`, `selected_regions` and
    /// `group_by_queue` alone trace nothing).
    pub(crate) fn any(&self) -> bool {
        self.words()[..14].iter().any(|(_, on)| *on)
    }

    /// Value of `ROCPROF_RS_TRACE` for the interception library: the enabled words, comma-separated.
    pub(crate) fn env_value(&self) -> String {
        self.words().iter().filter(|(_, on)| *on).map(|(w, _)| *w).collect::<Vec<_>>().join(",")
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
    pub(crate) att: Option<crate::args::AttOptions>,
    /// `--pc-sampling-*`: PC sampling, when requested.
    pub(crate) pc_sampling: Option<crate::args::pc_sampling::PcSampling>,
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
    pub(crate) summary_unit: SummaryUnit,
    pub(crate) agent_index: AgentIndex,
    pub(crate) truncate_kernels: bool,
    pub(crate) mangled_kernels: bool,
    pub(crate) summary_output: SummaryOutput,
    pub(crate) log_level: LogLevel,
    /// `--buffer-policy`: what the interception library does when the capture has no free space.
    pub(crate) buffer_policy: rocprof_model::BufferPolicy,
    pub(crate) list_avail: bool,
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

    /// The configuration as JSON, stored in rocpd's `rocpd_info_process.extdata` the way
    /// rocprofv3 stores its resolved tool configuration there.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "stats": self.stats,
            "summary": self.summary,
            "summary_per_domain": self.summary_per_domain,
            "truncate": self.truncate_kernels,
            "demangle": !self.mangled_kernels || self.truncate_kernels,
            "raw_output_path": self.output_directory_template(),
            "raw_output_file": self.output_file_template(),
            "csv_output": self.formats.contains(&OutputFormat::Csv),
            "rocpd_output": self.formats.contains(&OutputFormat::Rocpd),
            "json_output": false,
            "pftrace_output": false,
            "otf2_output": false,
            "simulate": self.simulate,
            "counters": self.pmc.as_ref().map(|p| p.groups.iter().map(|g| g.iter().map(|i| i.name.clone()).collect::<Vec<_>>()).collect::<Vec<_>>()),
            "counter_groups_interval": self.pmc.as_ref().map(|p| p.interval),
            "kernel_include_regex": self.kernel_filter.include,
            "kernel_exclude_regex": self.kernel_filter.exclude,
            "kernel_iteration_range": self.kernel_filter.iterations,
            "collection_period": self.collection.periods.iter().map(|p| serde_json::json!({
                "delay": p.delay_ns, "duration": p.duration_ns, "repeat": p.repeat
            })).collect::<Vec<_>>(),
            "minimum_output_bytes": self.collection.minimum_output_bytes,
            "tool": "rocprof-rs",
            "tool_version": env!("CARGO_PKG_VERSION"),
        });
        if let (Some(obj), serde_json::Value::Object(t)) = (v.as_object_mut(), self.tracing.to_json()) {
            obj.extend(t);
        }
        v
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
