//! `--pc-sampling-beta-enabled`, `--pc-sampling-method`, `--pc-sampling-unit`,
//! `--pc-sampling-interval` (rocprofv3's names, choices and checks), plus what rocprofv3 can only find
//! out inside the application: with `--simulate`, the method, unit and interval are checked against
//! each simulated target's configurations (`rocprof_targets::pc_sampling`, the table hsa-sim answers
//! `hsa_ven_amd_pcs_iterate_configuration` with) before the application starts.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use rocprof_targets::pc_sampling::{accepts, configurations, Method, Unit};

use crate::options::PcSampling;

/// The PC-sampling options.
#[derive(Debug, Default, Args)]
pub(crate) struct PcSamplingArgs {
    /// Enable PC sampling (beta, as in rocprofv3).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = super::parse_bool)]
    pub(crate) pc_sampling_beta_enabled: Option<bool>,

    /// Unit of --pc-sampling-interval.
    #[arg(long, value_enum, value_name = "UNIT", ignore_case = true)]
    pub(crate) pc_sampling_unit: Option<UnitArg>,

    /// Sampling method.
    #[arg(long, value_enum, value_name = "METHOD", ignore_case = true)]
    pub(crate) pc_sampling_method: Option<MethodArg>,

    /// Sampling interval, in --pc-sampling-unit.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) pc_sampling_interval: Option<i64>,
}

/// `--pc-sampling-unit`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum UnitArg {
    Instructions,
    Cycles,
    Time,
}

/// `--pc-sampling-method`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum MethodArg {
    Stochastic,
    #[value(name = "host_trap")]
    HostTrap,
}

impl PcSamplingArgs {
    /// Validates as rocprofv3 does, then against the simulated targets and the other options.
    pub(crate) fn into_request(self, simulate: Option<&[String]>, att: bool) -> Result<Option<PcSampling>> {
        let given = self.pc_sampling_unit.is_some()
            || self.pc_sampling_method.is_some()
            || self.pc_sampling_interval.is_some_and(|n| n != 0);
        if !given {
            return Ok(None);
        }
        let beta_env = std::env::var_os("ROCPROFILER_PC_SAMPLING_BETA_ENABLED").is_some();
        if self.pc_sampling_beta_enabled != Some(true) && !beta_env {
            bail!(
                "PC sampling unavailable. The feature is implicitly disabled. To enable it, use \
                 --pc-sampling-beta-enabled option or set ROCPROFILER_PC_SAMPLING_BETA_ENABLED=ON in the environment"
            );
        }
        // rocprofv3 tests the three for truth: an interval of 0 counts as not given.
        let (Some(unit), Some(method), Some(interval)) =
            (self.pc_sampling_unit, self.pc_sampling_method, self.pc_sampling_interval.filter(|&n| n != 0))
        else {
            bail!("All three PC sampling configurations need to be set");
        };
        if interval <= 0 {
            bail!("PC sampling interval must be a positive number.");
        }
        let req = PcSampling {
            method: match method {
                MethodArg::HostTrap => Method::HostTrap,
                MethodArg::Stochastic => Method::Stochastic,
            },
            unit: match unit {
                UnitArg::Time => Unit::Time,
                UnitArg::Cycles => Unit::Cycles,
                UnitArg::Instructions => Unit::Instructions,
            },
            interval: interval as u64,
        };
        if att {
            bail!("PC sampling cannot be combined with --att (rocprof-rs samples and thread-traces through the same per-instruction record of the waves)");
        }
        let targets = simulate.unwrap_or_default();
        let refusals: Vec<String> = targets.iter().filter_map(|t| check_target(t, &req).err()).collect();
        if !refusals.is_empty() && refusals.len() == targets.len() {
            // rocprofv3's tool (`configure_pc_sampling_on_all_agents`) exits with this sentence when
            // no agent lists the method, unit and interval; AMD's CMake skips a PC-sampling test
            // whose output matches it (`ROCPROFV3_TESTS_PC_SAMPLING_SKIP_REGEX`).
            bail!("{NO_AGENT}: {}", refusals.join("; "));
        }
        // rocprofv3 configures sampling on the agents that list the method, unit and interval and
        // leaves the others out; the interception library does the same (the runtime refuses a
        // session on the others). Say which targets are left out.
        for r in &refusals {
            eprintln!("rocprof-rs: PC sampling skips a simulated target: {r}");
        }
        Ok(Some(req))
    }
}

/// rocprofv3's error when no agent can sample as asked.
const NO_AGENT: &str = "Given PC sampling configuration is not supported on any of the agents";

/// Why a target cannot sample as asked (one clause of the one-line error).
fn check_target(target: &str, req: &PcSampling) -> Result<(), String> {
    let configs = configurations(target);
    if configs.is_empty() {
        return Err(format!("{target} has no PC-sampling configuration"));
    }
    let listed = || {
        configs
            .iter()
            .map(|c| format!("{} in {} {}..{}", c.method.name(), c.unit.name(), c.min_interval, c.max_interval))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(c) = configs.iter().find(|c| c.method == req.method && c.unit == req.unit) else {
        return Err(format!(
            "{target} does not support method {} with unit {} (it offers: {})",
            req.method.name(),
            req.unit.name(),
            listed()
        ));
    };
    if !accepts(c, req.interval) {
        return Err(format!(
            "interval {} is out of range for {} {} on {target} ({}..{}{})",
            req.interval,
            req.method.name(),
            req.unit.name(),
            c.min_interval,
            c.max_interval,
            if c.power_of_two { ", a power of two" } else { "" }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    fn parse(args: &[&str]) -> anyhow::Result<crate::config::Config> {
        let argv = std::iter::once("rocprof-rs").chain(args.iter().copied());
        super::super::Args::try_parse_from(argv).map_err(|e| anyhow::anyhow!("{e}"))?.into_config()
    }

    fn err(args: &[&str]) -> String {
        parse(args).unwrap_err().to_string()
    }

    const HOST_TRAP: [&str; 7] = [
        "--pc-sampling-beta-enabled",
        "--pc-sampling-method",
        "host_trap",
        "--pc-sampling-unit",
        "time",
        "--pc-sampling-interval",
        "10",
    ];

    /// rocprofv3's own checks and messages (`rocprofv3.py`): beta flag, all three settings, a positive
    /// interval (0 counts as not given, as Python's truth test does).
    #[test]
    fn rocprofv3s_checks_come_first_with_its_messages() {
        let e = err(&["--pc-sampling-method", "host_trap", "--", "a"]);
        assert!(e.starts_with("PC sampling unavailable. The feature is implicitly disabled."), "{e}");
        let e = err(&["--pc-sampling-beta-enabled", "--pc-sampling-unit", "time", "--", "a"]);
        assert_eq!(e, "All three PC sampling configurations need to be set");
        let mut zero = HOST_TRAP.to_vec();
        zero[6] = "0";
        zero.extend(["--", "a"]);
        assert_eq!(err(&zero), "All three PC sampling configurations need to be set");
        let mut negative = HOST_TRAP.to_vec();
        negative[6] = "-3";
        negative.extend(["--", "a"]);
        assert_eq!(err(&negative), "PC sampling interval must be a positive number.");
        assert!(parse(&["--pc-sampling-method", "bogus", "--", "a"]).is_err());
    }

    /// Against the simulated targets' configurations (the targets crate's table, which hsa-sim answers
    /// with): host trap in µs 1..1e6 on gfx90a/gfx942; stochastic in power-of-two cycles on gfx942 only;
    /// nothing on gfx1030.
    #[test]
    fn simulated_targets_accept_only_what_they_list() {
        let with = |gpu: &str, method: &str, unit: &str, interval: &str| {
            let mut v = vec!["--simulate", gpu, "--pc-sampling-beta-enabled", "--pc-sampling-method", method];
            v.extend(["--pc-sampling-unit", unit, "--pc-sampling-interval", interval, "--", "a"]);
            v.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let run = |v: Vec<String>| parse(&v.iter().map(String::as_str).collect::<Vec<_>>());
        let c = run(with("gfx942", "host_trap", "time", "1000000")).unwrap();
        assert_eq!(rocprof_launch::Setting::encode(&c.pc_sampling.unwrap().settings()), "host_trap,time,1000000");
        assert!(run(with("gfx90a", "HOST_TRAP", "Time", "1")).is_ok(), "rocprofv3 lower-cases the choices");
        let e = run(with("gfx90a", "stochastic", "cycles", "1024")).unwrap_err().to_string();
        assert!(e.contains("gfx90a does not support method stochastic with unit cycles"), "{e}");
        let c = run(with("gfx942", "stochastic", "cycles", "1024")).unwrap();
        assert_eq!(rocprof_launch::Setting::encode(&c.pc_sampling.unwrap().settings()), "stochastic,cycles,1024");
        let e = run(with("gfx942", "stochastic", "cycles", "1000")).unwrap_err().to_string();
        assert!(
            e.contains(
                "interval 1000 is out of range for stochastic cycles on gfx942 (256..2147483648, a power of two)"
            ),
            "{e}"
        );
        let e = run(with("gfx90a", "host_trap", "time", "1000001")).unwrap_err().to_string();
        assert!(e.contains("interval 1000001 is out of range"), "{e}");
        let e = run(with("gfx1030", "host_trap", "time", "5")).unwrap_err().to_string();
        assert!(e.contains("gfx1030 has no PC-sampling configuration"), "{e}");
        let mut att = HOST_TRAP.to_vec();
        att.extend(["--att", "--", "a"]);
        assert!(err(&att).starts_with("PC sampling cannot be combined with --att"));
    }

    /// When no simulated target can sample as asked, the error carries rocprofv3's sentence, which
    /// AMD's CMake turns into a skipped test (`ROCPROFV3_TESTS_PC_SAMPLING_SKIP_REGEX` of
    /// tests/rocprofv3/pc-sampling: "PC sampling unavailable|PC sampling configuration is not
    /// supported"); when one target can, the refusal of the other does not claim that.
    #[test]
    fn no_target_able_to_sample_gives_the_sentence_amds_tests_skip_on() {
        let with = |gpus: &str, method: &str, unit: &str, interval: &str| {
            let mut v = vec!["--simulate", gpus, "--pc-sampling-beta-enabled", "--pc-sampling-method", method];
            v.extend(["--pc-sampling-unit", unit, "--pc-sampling-interval", interval, "--", "a"]);
            err(&v)
        };
        let amd_skip = "PC sampling configuration is not supported";
        for e in [
            with("gfx90a", "stochastic", "cycles", "1048576"),
            with("gfx90a", "host_trap", "time", "2000000"),
            with("gfx1030", "host_trap", "time", "1"),
            with("gfx90a,gfx1030", "stochastic", "cycles", "1048576"),
        ] {
            assert!(e.contains(amd_skip), "{e}");
        }
        let e = with("gfx90a,gfx1030", "stochastic", "cycles", "1048576");
        assert!(e.contains("gfx90a does not support") && e.contains("gfx1030 has no PC-sampling"), "{e}");
        // One target able to sample: the request stands (rocprofv3 samples the able agents).
        let args = ["--simulate", "gfx942,gfx90a", "--pc-sampling-beta-enabled", "--pc-sampling-method"];
        let more = ["stochastic", "--pc-sampling-unit", "cycles", "--pc-sampling-interval", "1048576", "--", "a"];
        let c = parse(&[&args[..], &more[..]].concat()).expect("gfx942 can sample");
        assert!(c.pc_sampling.is_some(), "{c:?}");
    }
}
