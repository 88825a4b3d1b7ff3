//! `rocprof-rs diff --base A.db [B.db ...] --head C.db [D.db ...]`: compares two sets of runs
//! with real statistics and fails (exit 1) only on a regression that is there. The work is in
//! `rocprof_analysis::diff`; this module is the command line, the files and the exit status.

use std::ffi::OsString;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use rocprof_analysis::diff::{compare, DiffOptions, FailOn, Side};
use rocprof_analysis::report;
use rocprof_analysis::stats::Metric;

use crate::progress;

const AFTER_HELP: &str = "\
Each database is one run (a directory stands for every *.db under it). For every kernel, API
function, marker, memory-copy direction and allocation operation present (and every counter of
every kernel when both sides collected counters), the two sides are compared: record counts,
median and mean, the relative change of --metric with a bootstrap confidence interval at level
1 - alpha (seeded, reproducible), and a two-sided Mann-Whitney U test Holm-adjusted over all
items. An item is a regression when its change is at least --threshold percent upwards, the
adjusted p-value is below --alpha and the interval excludes no change.

Exit status: 0 no regression (per --fail-on), 1 regression found, 2 usage or input error.

Example: rocprof-rs diff --base base/ --head head/ --markdown diff.md --junit diff.xml";

/// Compare base and head runs (rocpd databases) and fail on a performance regression.
#[derive(Debug, Parser)]
#[command(about, after_help = AFTER_HELP)]
struct DiffArgs {
    /// Databases (or directories of them) of the base runs, one run each.
    #[arg(long, num_args = 1.., required = true, value_name = "DB")]
    base: Vec<PathBuf>,

    /// Databases (or directories of them) of the head runs, one run each.
    #[arg(long, num_args = 1.., required = true, value_name = "DB")]
    head: Vec<PathBuf>,

    /// Smallest relative change that matters, in percent.
    #[arg(long, value_name = "PERCENT", default_value_t = 5.0)]
    threshold: f64,

    /// Significance level of the test; intervals are at level 1 - alpha.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    alpha: f64,

    /// What is compared: the median or mean of all records, or the total per run.
    #[arg(long, value_enum, default_value_t = MetricArg::Median)]
    metric: MetricArg,

    /// Fewest records per side for an item to be judged.
    #[arg(long, value_name = "N", default_value_t = 5)]
    min_samples: usize,

    /// What makes the command exit 1: a regression, any significant change (either way, counters
    /// and items on one side only included), or never.
    #[arg(long, value_enum, default_value_t = FailOnArg::Regression)]
    fail_on: FailOnArg,

    /// Only kernels whose name matches this regular expression (searched, as rocprofv3's).
    #[arg(long, value_name = "REGEX")]
    kernel_include_regex: Option<String>,

    /// Leave out kernels whose name matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    kernel_exclude_regex: Option<String>,

    /// Also write the report as markdown (for a pull-request comment).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,

    /// Also write the report as JSON (schemas/diff/report.schema.json).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Also write the report as JUnit XML (one test case per item; regressions fail).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,

    /// Seed of the bootstrap (the same inputs and seed give the same report).
    #[arg(long, value_name = "N", default_value_t = 0x5eed)]
    seed: u64,

    /// Bootstrap resamples per item.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    bootstrap: usize,

    /// Colours in the terminal table.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MetricArg {
    Median,
    Mean,
    Total,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FailOnArg {
    Regression,
    Change,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

fn regex(opt: &str, r: &Option<String>) -> Result<Option<regex::Regex>, String> {
    r.as_deref()
        .map(|s| {
            regex::Regex::new(s).map_err(|e| format!("{opt}: invalid regular expression '{s}': {}", first_line(&e)))
        })
        .transpose()
}

fn first_line(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    let line =
        text.lines().rev().find(|l| l.trim_start().starts_with("error:")).unwrap_or(text.lines().next().unwrap_or(""));
    line.trim().trim_start_matches("error: ").to_string()
}

/// Writes `text` to `path`, creating its directory.
fn write_file(path: &PathBuf, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `rocprof-rs diff`.
pub(crate) fn run(args: Vec<OsString>) -> ExitCode {
    let a: DiffArgs = match super::parse("diff", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let opts = match options(&a) {
        Ok(o) => o,
        Err(e) => return super::fail(&e),
    };
    let bar = progress::bar(0, "reading base");
    let base = Side::load(&a.base, &opts, &bar);
    bar.finish_and_clear();
    let base = match base {
        Ok(s) => s,
        Err(e) => return super::fail(&e),
    };
    let bar = progress::bar(0, "reading head");
    let head = Side::load(&a.head, &opts, &bar);
    bar.finish_and_clear();
    let head = match head {
        Ok(s) => s,
        Err(e) => return super::fail(&e),
    };
    let bar = progress::bar(0, "comparing");
    let r = compare(&base, &head, &opts, env!("CARGO_PKG_VERSION"), &bar);
    bar.finish_and_clear();

    for (path, text) in
        [(&a.markdown, report::markdown as fn(&_) -> String), (&a.json, report::json), (&a.junit, report::junit)]
    {
        if let Some(p) = path {
            if let Err(e) = write_file(p, &text(&r)) {
                return super::fail(&e);
            }
        }
    }
    let color = match a.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    if let Err(e) = crate::console::to_console(std::io::stdout().lock(), &report::terminal_table(&r, color)) {
        return super::fail(&format!("printing the report: {e}"));
    }
    ExitCode::from(r.exit_status)
}

fn options(a: &DiffArgs) -> Result<DiffOptions, String> {
    let opts = DiffOptions {
        threshold_percent: a.threshold,
        alpha: a.alpha,
        metric: match a.metric {
            MetricArg::Median => Metric::Median,
            MetricArg::Mean => Metric::Mean,
            MetricArg::Total => Metric::Total,
        },
        min_samples: a.min_samples,
        fail_on: match a.fail_on {
            FailOnArg::Regression => FailOn::Regression,
            FailOnArg::Change => FailOn::Change,
            FailOnArg::Never => FailOn::Never,
        },
        kernel_include: regex("--kernel-include-regex", &a.kernel_include_regex)?,
        kernel_exclude: regex("--kernel-exclude-regex", &a.kernel_exclude_regex)?,
        seed: a.seed,
        resamples: a.bootstrap,
    };
    opts.validate().map_err(|e| e.to_string())?;
    Ok(opts)
}
