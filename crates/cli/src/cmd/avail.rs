//! `rocprof-rs avail`: what counters the GPUs offer, in the spirit of `rocprofv3-avail`.
//!
//! * `list`: counter names per GPU, one per line; `list --pc-sampling`: each GPU's PC-sampling
//!   configurations as rocprofv3-avail's `info --pc-sampling` prints them (the table hsa-sim answers
//!   with, for the simulated target or the one the runtime reports: ROCr's own list is not queried);
//! * `info [COUNTER...]`: name, description, block (hardware) or expression (derived) and dimensions of
//!   every counter (or the named ones);
//! * `pmc-check COUNTER...`: whether the set can be collected in one pass on each GPU, and if not the
//!   pass plan `--pmc` would run (the application once per pass).
//!
//! The GPUs are the `--simulate` targets, or this machine's (queried by running `ROCPROF_RS_PROBE`,
//! default `rocminfo`, under the interception library).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rocprof_counters::Agent;

use crate::counters;

const AFTER_HELP: &str = "\
Exit status: 0 on success; 1 when pmc-check finds a set that does not fit one pass; 2 for a usage
error or an unknown counter.

Example: rocprof-rs avail --simulate gfx942 pmc-check SQ_WAVES GRBM_COUNT TCC_HIT_sum";

/// List the performance counters of the GPUs and check counter sets.
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct AvailArgs {
    /// Use hsa-sim's targets instead of this machine's GPUs (e.g. gfx942 or gfx942,gfx1100).
    #[arg(long, value_name = "GFX[,GFX...]", value_delimiter = ',', global = true)]
    simulate: Option<Vec<String>>,

    /// YAML file with extra (derived) counter definitions (as --pmc's -E).
    #[arg(short = 'E', long, value_name = "FILE", global = true)]
    extra_counters: Option<PathBuf>,

    /// Only this GPU (index among the GPUs).
    #[arg(short = 'd', long, value_name = "N", global = true)]
    device: Option<usize>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Counter names per GPU, one per line (with --pc-sampling: the PC-sampling configurations).
    List {
        /// List each GPU's PC-sampling configurations (method, unit, interval range) instead.
        #[arg(long)]
        pc_sampling: bool,
    },
    /// Name, description, block or expression, and dimensions of each counter.
    Info {
        /// Only these counters.
        counters: Vec<String>,
    },
    /// Whether a counter set fits one pass, and the pass plan when it does not.
    PmcCheck {
        /// The counters, as --pmc takes them.
        #[arg(required = true)]
        counters: Vec<String>,
    },
}

/// The GPUs to report on.
fn agents(args: &AvailArgs) -> anyhow::Result<Vec<Agent>> {
    let mut argv: Vec<OsString> = vec!["rocprof-rs".into(), "-L".into()];
    if let Some(s) = &args.simulate {
        argv.push("--simulate".into());
        argv.push(s.join(",").into());
    }
    let cfg = crate::args::Args::try_parse_from(argv)
        .map_err(|e| anyhow::anyhow!("{}", e.to_string().lines().next().unwrap_or("")))?
        .into_config()?;
    let all = counters::target_agents(&cfg, || crate::probe::probe_gpu_agents(&cfg))?;
    Ok(match args.device {
        Some(d) => all.into_iter().nth(d).map(|a| vec![a]).unwrap_or_default(),
        None => all,
    })
}

/// Runs `rocprof-rs avail`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let args: AvailArgs = match super::parse("avail", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let agents = match agents(&args) {
        Ok(a) if a.is_empty() => return super::fail(&"no GPU to report on (check -d/--device)"),
        Ok(a) => a,
        Err(e) => return super::fail(&format!("{e:#}")),
    };
    let db = match counters::database(args.extra_counters.as_deref()) {
        Ok(db) => db,
        Err(e) => return super::fail(&format!("{e:#}")),
    };
    let mut out = String::new();
    let mut status = ExitCode::SUCCESS;
    for (i, agent) in agents.iter().enumerate() {
        let index = args.device.unwrap_or(i);
        match &args.command {
            Command::List { pc_sampling: true } => {
                out.push_str(&crate::pcsamp::agent_configurations(index, &agent.target))
            }
            Command::List { .. } | Command::Info { .. } => {
                let list = match rocprof_counters::list_counters_with(&db, agent) {
                    Ok(l) => l,
                    Err(e) => return super::fail(&e),
                };
                out.push_str(&format!("GPU {index} ({}): {} counters\n", agent.target, list.len()));
                match &args.command {
                    Command::List { .. } => {
                        for c in &list {
                            out.push_str(&format!("  {}\n", c.name));
                        }
                    }
                    Command::Info { counters } => {
                        for name in counters {
                            if !list.iter().any(|c| &c.name == name) {
                                return super::fail(&format!("unknown counter '{name}' on {}", agent.target));
                            }
                        }
                        for c in list.iter().filter(|c| counters.is_empty() || counters.contains(&c.name)) {
                            out.push('\n');
                            out.push_str(&c.to_avail_text());
                        }
                    }
                    Command::PmcCheck { .. } => unreachable!("outer match"),
                }
            }
            Command::PmcCheck { counters: names } => {
                let items = match rocprof_counters::parse_pmc_items(&names.join(" ")) {
                    Ok(i) => i,
                    Err(e) => return super::fail(&e),
                };
                let req = crate::config::PmcRequest {
                    groups: vec![items],
                    multiplexed: false,
                    interval: 1,
                    extra_counters: args.extra_counters.clone(),
                    no_replay: false,
                };
                match counters::plan(&req, std::slice::from_ref(agent)) {
                    Ok(setup) => {
                        let plan = &setup.gpus[0].plans[0];
                        if plan.is_single_pass() {
                            out.push_str(&format!(
                                "GPU {index} ({}): fits one pass: {}\n",
                                agent.target,
                                plan.passes.first().map(|p| p.counters.join(" ")).unwrap_or_default()
                            ));
                        } else {
                            status = ExitCode::from(1);
                            out.push_str(&format!(
                                "GPU {index} ({}): needs {} passes (--pmc runs the application once per pass):\n",
                                agent.target,
                                plan.passes.len()
                            ));
                            for line in counters::plan_lines(plan) {
                                out.push_str(&format!("  {line}\n"));
                            }
                        }
                        for w in &plan.warnings {
                            out.push_str(&format!("  warning: {w}\n"));
                        }
                    }
                    Err(e) => return super::fail(&format!("{e:#}")),
                }
            }
        }
    }
    if crate::console::to_console(std::io::stdout().lock(), &out).is_err() {
        return ExitCode::from(1);
    }
    status
}
