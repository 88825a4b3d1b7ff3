//! The agent probe: a program that starts the HSA runtime (`ROCPROF_RS_PROBE`, default
//! `rocminfo`), run under the interception library before (or instead of) the application, so the
//! capture header it leaves records this machine's agents. Two callers: counters on real ROCm need
//! the GPUs before the run ([`probe_gpu_agents`]), and `-L` without an application lists them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use crate::capture_dir::CaptureDir;
use crate::config::Config;
use crate::{launch, outputs};

/// What the agents are probed for; it words the two ways a probe fails.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ProbeFor {
    /// Checking `--pmc` counters against this machine's GPUs before the run.
    Counters,
    /// `-L` without an application.
    AgentList,
}

impl ProbeFor {
    /// The error when the probe program could not be run at all.
    fn cannot_run(self, probe: &str, e: &std::io::Error) -> String {
        match self {
            ProbeFor::Counters => format!(
                "checking counters before the run needs the GPU agents, which rocprof-rs queries with {probe} ({e}); install rocminfo or set ROCPROF_RS_PROBE"
            ),
            ProbeFor::AgentList => format!(
                "listing agents without an application needs a program that starts the HSA runtime ({probe} could not be run: {e}); install rocminfo, set ROCPROF_RS_PROBE, or pass an application after --"
            ),
        }
    }

    /// The error when the probe ran but left no capture (it did not start the runtime).
    fn no_runtime(self, probe: &str) -> String {
        match self {
            ProbeFor::Counters => format!("the agent query ({probe}) did not start the HSA runtime; set ROCPROF_RS_PROBE"),
            ProbeFor::AgentList => format!(
                "the probe {probe} did not start the HSA runtime, so there are no agents to list; pass an application after -- (rocprof-rs -L [options] -- APP) or set ROCPROF_RS_PROBE"
            ),
        }
    }
}

/// Runs the agent probe with `env` (the launch environment, which writes captures into
/// `capture_dir`), its output discarded, and returns the first capture it left that opens.
///
/// Debian's rocminfo refuses to start without the amdgpu module and `/dev/kfd`; on hsa-sim
/// (`--simulate`) the staged shims of `fixtures/rocminfo/` (an `lsmod` script and an
/// `open("/dev/kfd")` redirect) are used when they are found. rocminfo 6 and later read
/// `/sys/module/amdgpu/initstate` instead of `lsmod`; their own `HSA_ENABLE_DTIF=1` skips that
/// pre-flight (and a few lines of their output, which the probe discards).
pub(crate) fn run_probe(
    cfg: &Config,
    mut env: Vec<(String, OsString)>,
    capture_dir: &Path,
    why: ProbeFor,
) -> Result<PathBuf> {
    let probe =
        std::env::var_os(rocprof_launch::names::PROBE).filter(|p| !p.is_empty()).unwrap_or_else(|| "rocminfo".into());
    if cfg.simulate.is_some() {
        if let Some(shims) = launch::find_rocminfo_shims() {
            for (k, v) in env.iter_mut() {
                if k == "LD_PRELOAD" {
                    let mut nv = v.clone();
                    nv.push(":");
                    nv.push(&shims.kfd_redirect);
                    *v = nv;
                }
            }
            let mut path = OsString::from(&shims.bin_dir);
            if let Some(prev) = std::env::var_os("PATH") {
                path.push(":");
                path.push(prev);
            }
            env.push(("PATH".into(), path));
        }
        env.push(("HSA_ENABLE_DTIF".into(), "1".into()));
    }
    let status = std::process::Command::new(&probe)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_os_str())))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    if let Err(e) = status {
        bail!(why.cannot_run(&probe.to_string_lossy(), &e));
    }
    let files = outputs::capture_files(capture_dir)?;
    let (captures, mut failures) = outputs::open_captures(&files, false, true);
    if captures.is_empty() {
        if let Some(e) = failures.pop() {
            return Err(e);
        }
    }
    match files.into_iter().find(|f| captures.iter().any(|c| c.path() == f.as_path())) {
        Some(first) => Ok(first),
        None => bail!(why.no_runtime(&probe.to_string_lossy())),
    }
}

/// The GPU agents of this machine, by running the agent probe under the interception library
/// before the application (real ROCm only).
pub(crate) fn probe_gpu_agents(cfg: &Config) -> Result<Vec<(rocprof_model::Agent, String)>> {
    launch::check_real_rocr(cfg.compat.rocm_root.as_deref())?;
    let dir = std::env::temp_dir().join(format!("rocprof-rs-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let _cleanup = CaptureDir { path: dir.clone(), keep: false };
    let intercept = launch::find_intercept(&cfg.compat)?;
    let mut probe_cfg = cfg.clone();
    probe_cfg.pmc = None;
    let env = launch::launch_env(&probe_cfg, &intercept, None, &dir);
    let file = run_probe(cfg, env, &dir, ProbeFor::Counters)?;
    let mut capture = rocprof_model::capture::CaptureReader::open(&file)?;
    let (agents, strings) = outputs::capture_agents(&mut capture)?;
    Ok(agents
        .into_iter()
        .filter(|a| a.agent_type == rocprof_model::AgentType::Gpu)
        .map(|a| {
            let name = strings.resolve(a.name).to_string();
            (a, name)
        })
        .collect())
}
