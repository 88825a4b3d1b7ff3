//! rocprofv3's launcher and tool options that select no traced domain: `--output-config`,
//! `--preload`, `--rocm-root`, `--sdk-soversion`/`--sdk-version`, `--disable-signal-handlers`, the
//! `--perfetto-*` group, and the hidden `--echo`, `--benchmark-mode`, `-p/--pid`,
//! `--suppress-marker-preload`, `--readlink`, `--realpath`. Each keeps
//! rocprofv3's name, values and environment default; what each means for rocprof-rs is on
//! [`CompatOptions`].

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use super::parse_bool;
use crate::config::{BenchmarkMode, CompatOptions, LinkResolution, PerfettoSettings};

/// The options of this group.
#[derive(Debug, Default, Args)]
pub(crate) struct CompatArgs {
    /// Also write <output-file>_config.json per process: the resolved configuration, the command,
    /// build facts and the application's environment (rocprofv3's layout).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    output_config: Option<bool>,

    /// Libraries to put first in the application's LD_PRELOAD (e.g. a sanitizer runtime, which
    /// must come first); default: $ROCPROF_PRELOAD (colon-separated).
    #[arg(long, value_name = "LIB", num_args = 0..)]
    preload: Option<Vec<String>>,

    /// ROCm installation to run the application against: ROOT/lib is searched for the runtime and
    /// appended to the application's LD_LIBRARY_PATH.
    #[arg(long, value_name = "PATH")]
    rocm_root: Option<PathBuf>,

    /// When the interception library is not found by its plain name, try
    /// librocprof_intercept.so.N.
    #[arg(long, value_name = "N")]
    sdk_soversion: Option<u32>,

    /// When the interception library is not found by its plain name (nor with --sdk-soversion),
    /// try librocprof_intercept.so.X.Y.Z.
    #[arg(long, value_name = "X.Y.Z")]
    sdk_version: Option<String>,

    /// Keep the application's own signal handlers. rocprof-rs installs none in the application
    /// in any case (its capture survives a crash without one); recorded in the configuration.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    disable_signal_handlers: Option<bool>,

    /// rocprofv3's Perfetto backend: inprocess (rocprof-rs writes the trace itself after the run;
    /// 'system' needs Perfetto's traced daemons and is refused).
    #[arg(long, value_enum, value_name = "BACKEND")]
    perfetto_backend: Option<BackendArg>,

    /// rocprofv3's in-process Perfetto buffer in KB. rocprof-rs streams the trace from its
    /// capture after the run without such a buffer (nothing is dropped); recorded only.
    #[arg(long, value_name = "KB")]
    perfetto_buffer_size: Option<u64>,

    /// What rocprofv3's Perfetto buffer does when full (discard, ring_buffer). rocprof-rs's
    /// buffer-less writer never fills; recorded only.
    #[arg(long, value_enum, value_name = "POLICY")]
    perfetto_buffer_fill_policy: Option<FillPolicyArg>,

    /// rocprofv3's Perfetto shared-memory hint in KB; no shared memory is used by rocprof-rs's
    /// writer; recorded only.
    #[arg(long, value_name = "KB")]
    perfetto_shmem_size_hint: Option<u64>,

    /// Print the application command line and exit without running it (after every check).
    #[arg(long, hide = true, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    echo: Option<bool>,

    /// Overhead measurement: no outputs are written, the application's wall time is reported.
    #[arg(long, hide = true, value_enum, value_name = "MODE")]
    benchmark_mode: Option<BenchmarkArg>,

    /// Do not add the ROCTx library to the application's LD_PRELOAD under --marker-trace (then
    /// only applications linked to a ROCTx that hands its tables over report markers).
    #[arg(long, hide = true, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    suppress_marker_preload: Option<bool>,

    /// Write a library path that is a symbolic link as the link's target (one level).
    #[arg(long, hide = true, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    readlink: Option<bool>,

    /// Write library paths with every symbolic link resolved.
    #[arg(long, hide = true, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    realpath: Option<bool>,

    /// Reserved by rocprofv3 for attaching to a running process (refused with its message).
    #[arg(short = 'p', long, hide = true, num_args = 1.., value_name = "PID")]
    pid: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum BackendArg {
    Inprocess,
    System,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FillPolicyArg {
    Discard,
    #[value(name = "ring_buffer")]
    RingBuffer,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum BenchmarkArg {
    DisabledSdkContexts,
    SdkBufferOverhead,
    SdkCallbackOverhead,
    ToolRuntimeOverhead,
    ExecutionProfile,
}

/// `ROCPROF_PRELOAD` as rocprofv3 reads it: colon-separated, empty entries dropped.
fn preload_from_env() -> Vec<String> {
    std::env::var("ROCPROF_PRELOAD")
        .map(|v| v.split(':').filter(|s| !s.is_empty()).map(str::to_string).collect())
        .unwrap_or_default()
}

impl CompatArgs {
    /// Validates into [`CompatOptions`]; `group_by_queue` is the resolved `--group-by-queue`.
    pub(crate) fn into_options(self) -> Result<CompatOptions> {
        if self.pid.is_some() {
            bail!(
                "-p/--pid is reserved for attaching to a running process, which rocprof-rs (like rocprofv3) does not support yet; the shorthand of --collection-period is the upper-case -P"
            );
        }
        if matches!(self.perfetto_backend, Some(BackendArg::System)) {
            bail!(
                "--perfetto-backend system needs Perfetto's traced daemons; rocprof-rs writes the Perfetto trace itself after the run (use inprocess, the default)"
            );
        }
        let benchmark_mode = match self.benchmark_mode {
            None => None,
            Some(BenchmarkArg::DisabledSdkContexts) => Some(BenchmarkMode::DisabledSdkContexts),
            Some(BenchmarkArg::ToolRuntimeOverhead) => Some(BenchmarkMode::ToolRuntimeOverhead),
            Some(
                m @ (BenchmarkArg::SdkBufferOverhead
                | BenchmarkArg::SdkCallbackOverhead
                | BenchmarkArg::ExecutionProfile),
            ) => {
                let name = m.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
                bail!(
                    "--benchmark-mode {name} measures rocprofiler-sdk's own callback machinery, which rocprof-rs does not have; use disabled-sdk-contexts or tool-runtime-overhead"
                );
            }
        };
        let defaults = PerfettoSettings::default();
        let perfetto = PerfettoSettings {
            backend: "inprocess",
            buffer_size_kb: self.perfetto_buffer_size.unwrap_or(defaults.buffer_size_kb),
            fill_policy: match self.perfetto_buffer_fill_policy {
                None | Some(FillPolicyArg::Discard) => "discard",
                Some(FillPolicyArg::RingBuffer) => "ring_buffer",
            },
            shmem_size_hint_kb: self.perfetto_shmem_size_hint.unwrap_or(defaults.shmem_size_hint_kb),
            given: self.perfetto_backend.is_some()
                || self.perfetto_buffer_size.is_some()
                || self.perfetto_buffer_fill_policy.is_some()
                || self.perfetto_shmem_size_hint.is_some(),
        };
        if let Some(root) = &self.rocm_root {
            if !root.is_dir() {
                bail!("--rocm-root {}: not a directory", root.display());
            }
        }
        Ok(CompatOptions {
            output_config: self.output_config.unwrap_or(false),
            preload: self.preload.map_or_else(preload_from_env, |p| p.into_iter().filter(|s| !s.is_empty()).collect()),
            rocm_root: self.rocm_root.map(|r| r.canonicalize().unwrap_or(r)),
            sdk_soversion: self.sdk_soversion,
            sdk_version: self.sdk_version,
            enable_signal_handlers: !self.disable_signal_handlers.unwrap_or(false),
            perfetto,
            echo: self.echo.unwrap_or(false),
            benchmark_mode,
            marker_preload: !self.suppress_marker_preload.unwrap_or(false),
            // rocprofv3 applies --readlink first, then --realpath, which resolves everything.
            links: match (self.readlink.unwrap_or(false), self.realpath.unwrap_or(false)) {
                (_, true) => LinkResolution::Realpath,
                (true, false) => LinkResolution::Readlink,
                (false, false) => LinkResolution::AsFound,
            },
        })
    }
}
