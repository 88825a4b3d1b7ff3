//! The validated feature options a [`Config`](crate::config::Config) holds: thread trace
//! ([`AttOptions`], [`DecoderChoice`]) and PC sampling ([`PcSampling`]). `args` builds them from the
//! command line; the launch and the post-processing read them.

use std::path::PathBuf;

use anyhow::{bail, Result};
use rocprof_att::Backend;
use rocprof_launch::AttSettings;
use rocprof_targets::pc_sampling::{Method, Unit};

/// A target and the SQ events (with SIMD masks) of the streamed counters on it.
pub(crate) type TargetEvents = (String, Vec<(u32, u32)>);

/// The resolved thread-trace configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttOptions {
    pub(crate) target_cu: u32,
    pub(crate) se_mask: u32,
    pub(crate) simd_select: u32,
    pub(crate) buffer_size: u64,
    pub(crate) gpu_index: Vec<u32>,
    pub(crate) serialize_all: bool,
    /// `(NAME, simd mask)`, upper-cased.
    pub(crate) perfcounters: Vec<(String, Option<u32>)>,
    pub(crate) perfcounter_ctrl: Option<u32>,
    /// Per gfx9 target that has every streamed counter: its SQ events and SIMD masks, in the
    /// order of `perfcounters` (the interception library programs the agent's list).
    pub(crate) perf_events: Vec<TargetEvents>,
    pub(crate) decoder: DecoderChoice,
}

impl AttOptions {
    /// The launch setting for the interception library.
    pub(crate) fn settings(&self) -> AttSettings {
        AttSettings {
            target_cu: self.target_cu,
            se_mask: self.se_mask,
            simd_select: self.simd_select,
            buffer_size: self.buffer_size,
            gpu_index: (!self.gpu_index.is_empty()).then(|| self.gpu_index.clone()),
            serialize_all: self.serialize_all,
            perf_ctrl: self.perfcounter_ctrl,
            perf_events: if self.perfcounter_ctrl.is_some() { self.perf_events.clone() } else { Vec::new() },
        }
    }

    /// Counter names as ui_output's `counter_names` lists them (`NAME[:mask]`).
    pub(crate) fn counter_names(&self) -> Vec<String> {
        self.perfcounters
            .iter()
            .map(|(n, m)| match m {
                Some(m) if *m != 0xF => format!("{n}:{m:x}"),
                _ => n.clone(),
            })
            .collect()
    }
}

/// Which decoder the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DecoderChoice {
    /// Ours.
    Native,
    /// AMD's library, from this path (file or directory) or the usual search when `None`.
    Amd(Option<PathBuf>),
}

impl DecoderChoice {
    /// Resolves `--att-decoder`, `--att-library-path` and `$ROCPROF_ATT_LIBRARY_PATH`: native
    /// unless AMD's decoder is asked for by name or its library is named.
    pub(crate) fn resolve(decoder: Option<&str>, library_paths: &[PathBuf]) -> Result<DecoderChoice> {
        let env = std::env::var_os(rocprof_sqtt_amd::LIBRARY_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
        let named = library_paths.iter().find(|p| p.exists()).cloned().or_else(|| library_paths.first().cloned());
        match decoder {
            Some("native") => Ok(DecoderChoice::Native),
            Some("amd") => Ok(DecoderChoice::Amd(named.or(env))),
            Some(other) => bail!("--att-decoder: expected native or amd, got '{other}'"),
            None if named.is_some() || env.is_some() => Ok(DecoderChoice::Amd(named.or(env))),
            None => Ok(DecoderChoice::Native),
        }
    }

    /// Loads the backend (a one-line error when AMD's library cannot be loaded).
    pub(crate) fn load(&self) -> Result<Backend> {
        match self {
            DecoderChoice::Native => Ok(Backend::Native),
            DecoderChoice::Amd(path) => Ok(Backend::Amd(rocprof_sqtt_amd::AmdDecoder::load(path.as_deref())?)),
        }
    }
}

/// A validated PC-sampling request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PcSampling {
    pub(crate) method: Method,
    pub(crate) unit: Unit,
    pub(crate) interval: u64,
}

impl PcSampling {
    /// The launch setting for the interception library.
    pub(crate) fn settings(&self) -> rocprof_launch::PcSampling {
        use rocprof_launch::{PcsMethod, PcsUnit};
        rocprof_launch::PcSampling {
            method: match self.method {
                Method::HostTrap => PcsMethod::HostTrap,
                Method::Stochastic => PcsMethod::Stochastic,
            },
            unit: match self.unit {
                Unit::Time => PcsUnit::Time,
                Unit::Cycles => PcsUnit::Cycles,
                Unit::Instructions => PcsUnit::Instructions,
            },
            interval: self.interval,
        }
    }
}
