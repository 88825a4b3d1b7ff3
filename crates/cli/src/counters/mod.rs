//! Counter collection on the CLI side: before launch, the agents the application will see (from the
//! `--simulate` target table, or from an agent query run under our library before the application on
//! a real ROCm machine), the counter database (plus `-E` extras), validation and the pass plan; the
//! environment that hands one pass to the interception library; after the run, the evaluation of the
//! raw outputs ([`eval`]) and the merging of replayed passes.
//!
//! Everything that can be wrong with a request is found here, before the application starts: unknown
//! counters (with a suggestion), counters missing on an agent, counters too big for any pass, a set
//! that needs several passes under `--no-replay`. rocprofv3 finds those at the first dispatch, after
//! the application started (and aborts it for an oversized set).

pub(crate) mod eval;

use std::ffi::OsString;

use anyhow::{anyhow, bail, Context as _, Result};
use rocprof_counters::{Agent, Database, Error as CounterError, Plan};
use rocprof_launch::{CounterGroup, CounterPlan};

use crate::config::{Config, PmcRequest};

/// A counter request that cannot run: a command-line error (exit status 2, application never
/// started).
#[derive(Debug)]
pub(crate) struct RequestError(pub(crate) String);

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RequestError {}

/// The counters of one GPU.
#[derive(Debug, Clone)]
pub(crate) struct GpuCounters {
    /// Index among the GPUs (`NAME:device=N`).
    pub(crate) gpu_index: u32,
    /// The agent.
    pub(crate) agent: Agent,
    /// One plan per group (one group unless `pmc_groups` multiplexes).
    pub(crate) plans: Vec<Plan>,
}

/// A validated, planned counter request.
#[derive(Debug, Clone)]
pub(crate) struct CounterSetup {
    /// The database (built-in plus `-E` definitions).
    pub(crate) db: Database,
    /// GPUs that collect something.
    pub(crate) gpus: Vec<GpuCounters>,
    /// Runs of the application (1 when everything fits one pass or groups are multiplexed).
    pub(crate) passes: usize,
    /// Groups are multiplexed in each run.
    pub(crate) multiplexed: bool,
    /// Group switch interval.
    pub(crate) interval: u64,
}

/// The counter-database view of a simulated target: the reference agent the database was built
/// with, which has hsa-sim's geometry (checked by a test against the targets crate's table).
fn simulated_agent(target: &str) -> Result<Agent> {
    Agent::reference(target).map_err(|e| anyhow!("{e}"))
}

/// The agent properties (`rocprof_model::Agent::kfd_properties` names) the counter database takes
/// from the capture; the others it derives from the agent's geometry.
const CAPTURED_PROPERTIES: [&str; 17] = [
    "max_waves_per_simd",
    "lds_size_in_kb",
    "gds_size_in_kb",
    "num_gws",
    "cu_per_simd_array",
    "max_slots_scratch_cu",
    "gfx_target_version",
    "vendor_id",
    "device_id",
    "location_id",
    "domain",
    "drm_render_minor",
    "num_sdma_engines",
    "num_sdma_xgmi_engines",
    "num_sdma_queues_per_engine",
    "num_cp_queues",
    "max_engine_clk_ccompute",
];

/// The counter-database view of a captured agent.
pub(crate) fn agent_of(a: &rocprof_model::Agent, name: &str) -> Agent {
    let mut extra = std::collections::BTreeMap::new();
    for k in CAPTURED_PROPERTIES {
        if let Some(v) = a.kfd_property(k) {
            extra.insert(k.to_string(), v as f64);
        }
    }
    // Properties the simulator does not report (0) come from the reference board when it matches.
    let reference = Agent::reference(name).ok();
    if let Some(r) = &reference {
        for (k, v) in &r.extra {
            let missing = extra.get(k).is_none_or(|x| *x == 0.0);
            if missing {
                extra.insert(k.clone(), *v);
            }
        }
    }
    Agent {
        target: name.to_string(),
        xcc_num: a.num_xcc.max(1),
        se_num: a.num_shader_banks,
        shader_arrays_per_se: a.simd_arrays_per_engine.max(1),
        cu_num: a.cu_count,
        simd_per_cu: a.simd_per_cu,
        wave_front_size: a.wave_front_size,
        extra,
    }
}

/// The database, with the `-E` file's derived counters added to every target they name.
pub(crate) fn database(extra: Option<&std::path::Path>) -> Result<Database> {
    let mut db = Database::builtin().clone();
    let Some(path) = extra else { return Ok(db) };
    let text = std::fs::read_to_string(path).with_context(|| format!("reading -E file {}", path.display()))?;
    let doc = crate::yaml::yaml_to_json(&text, path)?;
    let bad = |what: &str| RequestError(format!("-E file {}: {what}", path.display()));
    let counters = doc
        .get("rocprofiler-sdk")
        .and_then(|r| r.get("counters"))
        .or_else(|| doc.get("counters"))
        .and_then(|c| c.as_array())
        .ok_or_else(|| bad("no `rocprofiler-sdk: counters:` list"))?;
    let targets: Vec<String> = db.targets().iter().map(|t| t.name.clone()).collect();
    for c in counters {
        let name = c.get("name").and_then(|n| n.as_str()).ok_or_else(|| bad("a counter without a name"))?;
        let defs =
            c.get("definitions").and_then(|d| d.as_array()).ok_or_else(|| bad(&format!("{name}: no definitions")))?;
        for d in defs {
            let expr = d
                .get("expression")
                .and_then(|e| e.as_str())
                .ok_or_else(|| bad(&format!("{name}: a definition without an expression")))?;
            let archs: Vec<&str> = d
                .get("architectures")
                .and_then(|a| a.as_array())
                .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            for t in &targets {
                // An architecture names a target exactly (gfx942) or a family (gfx9, gfx12).
                let applies = archs.iter().any(|a| *a == t || (a.len() <= 5 && t.starts_with(a) && t.len() > a.len()));
                if applies {
                    db.add_derived(t, name, expr).map_err(|e| bad(&format!("{name}: {e}")))?;
                }
            }
        }
    }
    Ok(db)
}

/// One problem of a request, as a user reads it.
fn problem_text(target: &str, e: &CounterError) -> String {
    match e {
        CounterError::UnknownCounter { counter, suggestion } => match suggestion {
            Some(s) => format!("unknown counter '{counter}' on {target} (did you mean {s}?)"),
            None => format!("unknown counter '{counter}' on {target}"),
        },
        CounterError::UnavailableOnTarget { counter, target, available_on } => {
            format!("counter '{counter}' is not available on {target} (it is defined for {available_on})")
        }
        CounterError::Request { target, problems } => {
            problems.iter().map(|p| problem_text(target, p)).collect::<Vec<_>>().join("; ")
        }
        other => other.to_string(),
    }
}

/// The plan of one pass as text: its counters, and for a later pass why they did not fit earlier.
pub(crate) fn plan_lines(plan: &Plan) -> Vec<String> {
    plan.passes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let why: Vec<&str> =
                plan.placements.iter().filter(|x| x.pass == i && i > 0).map(|x| x.reason.as_str()).take(1).collect();
            let mut line = format!("pass {}: {}", i + 1, p.counters.join(" "));
            if let Some(w) = why.first() {
                line.push_str(&format!(" ({w})"));
            }
            line
        })
        .collect()
}

/// Validates and plans `req` for `agents` (GPU agents in `gpu_index` order, with their target
/// names). Errors are [`RequestError`]s.
pub(crate) fn plan(req: &PmcRequest, agents: &[Agent]) -> Result<CounterSetup> {
    let db = database(req.extra_counters.as_deref())?;
    let mut gpus = Vec::new();
    for (index, agent) in agents.iter().enumerate() {
        let mut plans = Vec::new();
        for (g, items) in req.groups.iter().enumerate() {
            let names = rocprof_counters::pmc_names_for_device(items, index as u32);
            if names.is_empty() {
                continue;
            }
            let plan = rocprof_counters::plan_with(&db, agent, &names)
                .map_err(|e| RequestError(problem_text(&agent.target, &e)))?;
            if req.multiplexed && !plan.is_single_pass() {
                return Err(RequestError(format!(
                    "pmc group {} does not fit one pass on {}: {}",
                    g + 1,
                    agent.target,
                    plan_lines(&plan).join("; ")
                ))
                .into());
            }
            plans.push(plan);
        }
        if !plans.is_empty() {
            gpus.push(GpuCounters { gpu_index: index as u32, agent: agent.clone(), plans });
        }
    }
    if gpus.is_empty() {
        let wanted: Vec<String> = req.groups.iter().flatten().map(|i| i.name.clone()).collect();
        return Err(RequestError(format!(
            "none of the requested counters ({}) applies to a GPU of this run (check the :device=N qualifiers)",
            wanted.join(" ")
        ))
        .into());
    }
    let passes =
        if req.multiplexed { 1 } else { gpus.iter().map(|g| g.plans[0].passes.len()).max().unwrap_or(1).max(1) };
    let setup = CounterSetup { db, gpus, passes, multiplexed: req.multiplexed, interval: req.interval };
    if passes > 1 && req.no_replay {
        return Err(RequestError(format!(
            "the counters do not fit one pass and --no-replay was given; {}",
            setup.plan_text().join("; ")
        ))
        .into());
    }
    Ok(setup)
}

impl CounterSetup {
    /// The pass plan, one line per GPU and pass.
    pub(crate) fn plan_text(&self) -> Vec<String> {
        let mut out = Vec::new();
        for g in &self.gpus {
            for line in plan_lines(&g.plans[0]) {
                out.push(format!("{} (GPU {}) {line}", g.agent.target, g.gpu_index));
            }
        }
        out
    }

    /// The counter plan that makes the interception library collect pass `pass` (0-based).
    pub(crate) fn launch_plan(&self, pass: usize) -> CounterPlan {
        let mut groups = Vec::new();
        for g in &self.gpus {
            let passes: Vec<(u32, &rocprof_counters::Pass)> = if self.multiplexed {
                g.plans.iter().enumerate().filter_map(|(i, p)| p.passes.first().map(|x| (i as u32, x))).collect()
            } else {
                g.plans[0].passes.get(pass).map(|p| vec![(0, p)]).unwrap_or_default()
            };
            for (group, p) in passes {
                groups.push(CounterGroup {
                    gpu: g.gpu_index,
                    group,
                    counters: p.counters.clone(),
                    events: rocprof_counters::pass_events(&p.events),
                    sources: rocprof_counters::pass_sources(&p.events),
                });
            }
        }
        CounterPlan { groups, interval: self.interval }
    }

    /// The environment that makes the interception library collect pass `pass` (0-based).
    pub(crate) fn env(&self, pass: usize) -> Vec<(String, OsString)> {
        self.launch_plan(pass).to_env().into_iter().map(|(n, v)| (n.to_string(), OsString::from(v))).collect()
    }
}

/// Reports, after writing one process's outputs, dispatches whose counters could not be read or
/// matched across passes (never silent).
pub(crate) fn report(pid: u32, r: &eval::EvalReport, merged: Option<&eval::Merged>) {
    if r.groups_without_sources > 0 {
        eprintln!(
            "rocprof-rs: error: process {pid}: {} counter group(s) of the capture do not record what each programmed event samples (the capture was written by an older rocprof-rs); their counters are not evaluated: profile the application again",
            r.groups_without_sources
        );
    }
    if r.not_collected > 0 {
        use rocprof_model::counters::PmcStatus;
        let why: Vec<String> = r
            .not_collected_by
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(status, n)| format!("{n} {}", PmcStatus::from_u32(status as u32).reason()))
            .collect();
        eprintln!(
            "rocprof-rs: warning: process {pid}: {} of {} counted dispatches have no counter values ({}); they have no counter rows in the outputs, never zeros",
            r.not_collected,
            r.dispatches,
            why.join(", ")
        );
    }
    if let Some(m) = merged {
        let other = m.unmatched();
        if r.unmatched > 0 || other > 0 {
            eprintln!(
                "rocprof-rs: warning: process {pid}: the application's dispatch sequence differed between the replayed passes ({} dispatches of pass 1 and {other} of later passes could not be matched by kernel and dispatch index); unmatched dispatches lack the other passes' counters",
                r.unmatched
            );
        }
    }
}

/// The GPU agents the application will see, in `gpu_index` order, known before it starts: the
/// `--simulate` targets, or (real ROCm) what `probe` reports.
pub(crate) fn target_agents(
    cfg: &Config,
    probe: impl FnOnce() -> Result<Vec<(rocprof_model::Agent, String)>>,
) -> Result<Vec<Agent>> {
    match &cfg.simulate {
        Some(targets) => targets.iter().map(|t| simulated_agent(t)).collect(),
        None => {
            let agents = probe()?;
            if agents.is_empty() {
                bail!("the agent query found no GPU, so no counters can be collected");
            }
            Ok(agents.iter().map(|(a, name)| agent_of(a, name)).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_counters::PmcItem;

    fn request(text: &str) -> PmcRequest {
        PmcRequest {
            groups: vec![rocprof_counters::parse_pmc_items(text).unwrap()],
            multiplexed: false,
            interval: 1,
            extra_counters: None,
            no_replay: false,
        }
    }

    #[test]
    fn captured_properties_are_the_agents_properties_by_name() {
        let a = rocprof_model::Agent { num_cp_queues: 24, domain: 3, ..Default::default() };
        let db = agent_of(&a, "not-a-target");
        for k in CAPTURED_PROPERTIES {
            assert!(a.kfd_property(k).is_some(), "{k} is not an agent property");
        }
        assert_eq!((db.extra["num_cp_queues"], db.extra["domain"], db.extra.len()), (24.0, 3.0, 17));
    }

    #[test]
    fn simulated_agents_have_the_device_models_geometry() {
        for m in rocprof_targets::MODELS {
            let a = simulated_agent(m.name).unwrap();
            assert_eq!(
                (a.cu_num, a.se_num, a.shader_arrays_per_se, a.xcc_num, a.wave_front_size),
                (m.compute_units, m.shader_engines, m.shader_arrays_per_se, m.xccs, m.wavefront_size),
                "{}",
                m.name
            );
        }
    }

    #[test]
    fn unknown_counters_are_named_with_a_suggestion() {
        let agents = [simulated_agent("gfx942").unwrap()];
        let e = plan(&request("SQ_WAVE"), &agents).unwrap_err();
        assert_eq!(e.to_string(), "unknown counter 'SQ_WAVE' on gfx942 (did you mean SQ_WAVES?)");
        assert!(e.downcast_ref::<RequestError>().is_some());
        let e = plan(&request("GL2C_HIT"), &agents).unwrap_err().to_string();
        assert!(e.starts_with("counter 'GL2C_HIT' is not available on gfx942"), "{e}");
    }

    #[test]
    fn large_sets_are_split_and_no_replay_shows_the_plan() {
        let agents = [simulated_agent("gfx942").unwrap()];
        let many = "SQ_WAVES SQ_INSTS_VALU SQ_INSTS_SALU SQ_INSTS_SMEM SQ_INSTS_LDS SQ_INSTS_FLAT SQ_INSTS_VMEM_RD \
                    SQ_INSTS_VMEM_WR SQ_INSTS_BRANCH SQ_WAVE_CYCLES SQ_BUSY_CYCLES SQ_WAIT_ANY SQ_ACTIVE_INST_ANY \
                    SQ_INSTS_SENDMSG SQ_IFETCH SQ_INSTS_MFMA SQ_LEVEL_WAVES";
        let s = plan(&request(many), &agents).unwrap();
        assert_eq!(s.passes, 3);
        let p = s.launch_plan(1);
        assert_eq!((p.groups[0].gpu, p.groups[0].group), (0, 0));
        assert!(!p.groups[0].events.is_empty());
        let mut req = request(many);
        req.no_replay = true;
        let e = plan(&req, &agents).unwrap_err().to_string();
        assert!(e.contains("--no-replay") && e.contains("pass 3:"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn device_qualifiers_select_gpus() {
        let agents = [simulated_agent("gfx942").unwrap(), simulated_agent("gfx1100").unwrap()];
        let s = plan(&request("SQ_WAVES:device=1"), &agents).unwrap();
        assert_eq!(s.gpus.len(), 1);
        assert_eq!((s.gpus[0].gpu_index, s.gpus[0].agent.target.as_str()), (1, "gfx1100"));
        let e = plan(&request("SQ_WAVES:device=7"), &agents).unwrap_err().to_string();
        assert!(e.contains("applies to a GPU"), "{e}");
        let _ = PmcItem { name: String::new(), device: None };
    }
}
