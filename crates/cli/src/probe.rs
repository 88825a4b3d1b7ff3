//! Asking the machine for its GPU agents: AMD's agent probe (`rocminfo`) run under the
//! interception library, before the application.

use anyhow::{bail, Context as _, Result};

use crate::capture_dir::CaptureDir;
use crate::config::Config;
use crate::{launch, outputs};

/// The GPU agents of this machine, by running the agent probe (`ROCPROF_RS_PROBE`, default
/// `rocminfo`) under the interception library before the application (real ROCm only).
pub(crate) fn probe_gpu_agents(cfg: &Config) -> Result<Vec<(rocprof_model::Agent, String)>> {
    launch::check_real_rocr(cfg.compat.rocm_root.as_deref())?;
    let dir = std::env::temp_dir().join(format!("rocprof-rs-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let _cleanup = CaptureDir { path: dir.clone(), keep: false };
    let intercept = launch::find_intercept(&cfg.compat)?;
    let mut probe_cfg = cfg.clone();
    probe_cfg.pmc = None;
    let env = launch::launch_env(&probe_cfg, &intercept, None, &dir);
    let probe =
        std::env::var_os(rocprof_launch::names::PROBE).filter(|p| !p.is_empty()).unwrap_or_else(|| "rocminfo".into());
    let status = std::process::Command::new(&probe)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_os_str())))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    if let Err(e) = status {
        bail!(
            "checking counters before the run needs the GPU agents, which rocprof-rs queries with {} ({e}); install rocminfo or set ROCPROF_RS_PROBE",
            probe.to_string_lossy()
        );
    }
    let files = outputs::capture_files(&dir)?;
    let Some(file) = files.first() else {
        bail!("the agent query ({}) did not start the HSA runtime; set ROCPROF_RS_PROBE", probe.to_string_lossy());
    };
    let mut capture = rocprof_model::capture::CaptureReader::open(file)?;
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
