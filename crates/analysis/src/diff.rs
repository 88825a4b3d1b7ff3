//! `diff`: two sets of runs (base and head, one rocpd database per run) compared item by item.
//!
//! Items are every kernel (by display name), every API function, marker, memory-copy direction
//! and allocation operation present, and every (kernel, counter) pair when counters were
//! collected. Per item and side: record counts, median / mean / min / max / standard deviation,
//! total per run. Then the relative change of the chosen metric, a seeded two-level bootstrap
//! confidence interval of that change, and a two-sided Mann-Whitney U test on the records,
//! Holm-adjusted over all compared items.
//!
//! The verdict per item (see [`Status`]): a *regression* is a change of at least the threshold,
//! upwards, that is significant — adjusted p below alpha **and** a confidence interval that
//! excludes no change. Requiring both keeps one noisy run (which the rank test on pooled records
//! cannot see, but the run-level bootstrap can) from failing a build, and the threshold keeps
//! real but irrelevant changes (1-2%) from failing it. Counter items report *changed* instead
//! (more waves is not "slower", it means the launch configuration changed).

use std::collections::BTreeMap;
use std::path::PathBuf;

use indicatif::ProgressBar;
use regex::Regex;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::rocpd::{self, Database};
use crate::stats::{bootstrap_change, holm, mann_whitney_u, mean, median, stddev, Metric};

/// Version of the JSON report layout (`schemas/diff/report.schema.json`).
pub const REPORT_SCHEMA_VERSION: u32 = 1;

/// When `diff` exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Any regression (the default).
    Regression,
    /// Any significant change beyond the threshold, either way, counters included, and items
    /// present on one side only.
    Change,
    /// Never (report only).
    Never,
}

impl FailOn {
    /// Name as on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Regression => "regression",
            Self::Change => "change",
            Self::Never => "never",
        }
    }
}

/// Settings of a comparison.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// Smallest relative change that matters, in percent (default 5).
    pub threshold_percent: f64,
    /// Significance level (default 0.05); the confidence level is `1 - alpha`.
    pub alpha: f64,
    /// What is compared per side.
    pub metric: Metric,
    /// Fewest records per side for an item to be judged (default 5).
    pub min_samples: usize,
    /// When the comparison fails.
    pub fail_on: FailOn,
    /// Only kernels whose name matches (searched, as rocprofv3's `--kernel-include-regex`).
    pub kernel_include: Option<Regex>,
    /// Leave out kernels whose name matches.
    pub kernel_exclude: Option<Regex>,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// Bootstrap resamples per item (default 2000).
    pub resamples: usize,
}

impl Default for DiffOptions {
    fn default() -> Self {
        Self {
            threshold_percent: 5.0,
            alpha: 0.05,
            metric: Metric::Median,
            min_samples: 5,
            fail_on: FailOn::Regression,
            kernel_include: None,
            kernel_exclude: None,
            seed: 0x5eed,
            resamples: 2000,
        }
    }
}

impl DiffOptions {
    /// Checks the ranges of the numeric options.
    pub fn validate(&self) -> Result<()> {
        if !(self.threshold_percent >= 0.0 && self.threshold_percent.is_finite()) {
            return Err(Error::Usage(format!("--threshold must be a percentage >= 0, got {}", self.threshold_percent)));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::Usage(format!("--alpha must be between 0 and 1, got {}", self.alpha)));
        }
        if self.min_samples == 0 {
            return Err(Error::Usage("--min-samples must be at least 1".into()));
        }
        Ok(())
    }

    fn keeps_kernel(&self, name: &str) -> bool {
        self.kernel_include.as_ref().is_none_or(|r| r.is_match(name))
            && !self.kernel_exclude.as_ref().is_some_and(|r| r.is_match(name))
    }
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Kernel dispatches of one kernel.
    Kernel,
    /// Calls of one API function.
    Api,
    /// One ROCTx marker or range message.
    Marker,
    /// Copies of one direction.
    MemoryCopy,
    /// One allocation or scratch operation.
    MemoryAllocation,
    /// One counter of one kernel, per dispatch.
    Counter,
}

impl Kind {
    /// Name as in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Kernel => "kernel",
            Self::Api => "api",
            Self::Marker => "marker",
            Self::MemoryCopy => "memory_copy",
            Self::MemoryAllocation => "memory_allocation",
            Self::Counter => "counter",
        }
    }

    fn of_domain(domain: &str) -> Self {
        match domain {
            rocpd::KERNEL_DISPATCH => Self::Kernel,
            rocpd::MARKER_API => Self::Marker,
            rocpd::MEMORY_COPY => Self::MemoryCopy,
            rocpd::MEMORY_ALLOCATION | rocpd::SCRATCH_MEMORY => Self::MemoryAllocation,
            _ => Self::Api,
        }
    }
}

/// Identity of an item: kind, domain, name (and the kernel of a counter).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    kind: Kind,
    domain: String,
    name: String,
    kernel: Option<String>,
}

/// The records of one side, per item and per run (database).
#[derive(Debug, Default)]
pub struct Side {
    databases: Vec<PathBuf>,
    records: u64,
    items: BTreeMap<Key, Vec<Vec<f64>>>,
}

impl Side {
    /// The databases read, in order (one run each).
    pub fn databases(&self) -> &[PathBuf] {
        &self.databases
    }

    /// Reads every database named by `inputs` (files, or directories searched for `*.db`);
    /// each database is one run. A database without any record is an error.
    pub fn load(inputs: &[PathBuf], opts: &DiffOptions, progress: &ProgressBar) -> Result<Self> {
        let mut paths = Vec::new();
        for input in inputs {
            paths.extend(rocpd::find_databases(input)?);
        }
        progress.set_length(paths.len() as u64);
        let mut side = Side::default();
        let runs = paths.len();
        for (run, path) in paths.iter().enumerate() {
            let db = Database::open(path)?;
            let mut add = |key: Key, value: f64| {
                side.items.entry(key).or_insert_with(|| vec![Vec::new(); runs])[run].push(value);
            };
            let activities = db.for_each_activity(|a| {
                if a.domain == rocpd::KERNEL_DISPATCH && !opts.keeps_kernel(a.name) {
                    return;
                }
                let kind = Kind::of_domain(a.domain);
                add(
                    Key { kind, domain: a.domain.to_string(), name: a.name.to_string(), kernel: None },
                    a.duration_ns as f64,
                );
            })?;
            if activities == 0 {
                return Err(Error::Empty {
                    path: path.clone(),
                    why: "no kernel dispatches, API calls, memory copies or allocations".into(),
                });
            }
            db.for_each_counter_value(|c| {
                if opts.keeps_kernel(c.kernel) {
                    let key = Key {
                        kind: Kind::Counter,
                        domain: "COUNTER_COLLECTION".into(),
                        name: c.counter.to_string(),
                        kernel: Some(c.kernel.to_string()),
                    };
                    add(key, c.value);
                }
            })?;
            side.records += activities;
            progress.inc(1);
        }
        side.databases = paths;
        Ok(side)
    }
}

/// The verdict on one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Significantly slower by at least the threshold.
    Regression,
    /// A counter changed significantly by at least the threshold.
    Changed,
    /// Significantly faster by at least the threshold.
    Improvement,
    /// Present in head only.
    OnlyInHead,
    /// Present in base only.
    OnlyInBase,
    /// Fewer records than `--min-samples` on a side: not judged.
    InsufficientSamples,
    /// No significant change of at least the threshold.
    Unchanged,
}

impl Status {
    /// Name as in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Regression => "regression",
            Self::Changed => "changed",
            Self::Improvement => "improvement",
            Self::OnlyInHead => "only_in_head",
            Self::OnlyInBase => "only_in_base",
            Self::InsufficientSamples => "insufficient_samples",
            Self::Unchanged => "unchanged",
        }
    }
}

/// Statistics of one item on one side. Durations in ns; counters in their own unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideStats {
    /// Runs (databases) of the side.
    pub runs: usize,
    /// Runs in which the item occurs.
    pub runs_present: usize,
    /// Records (dispatches, calls, copies, counter values).
    pub samples: u64,
    /// The compared metric's value.
    pub metric_value: f64,
    /// Median of all records.
    pub median: f64,
    /// Mean of all records.
    pub mean: f64,
    /// Smallest record.
    pub min: f64,
    /// Largest record.
    pub max: f64,
    /// Sample standard deviation.
    pub stddev: f64,
    /// Sum of records per run, averaged over the side's runs.
    pub total_per_run: f64,
}

impl SideStats {
    fn of(runs: &[Vec<f64>], metric: Metric) -> Self {
        let all = runs.concat();
        Self {
            runs: runs.len(),
            runs_present: runs.iter().filter(|r| !r.is_empty()).count(),
            samples: all.len() as u64,
            metric_value: metric.of(runs),
            median: median(&all),
            mean: mean(&all),
            min: all.iter().copied().fold(f64::INFINITY, f64::min),
            max: all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            stddev: stddev(&all),
            total_per_run: Metric::Total.of(runs),
        }
    }
}

/// One compared item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// rocprofv3 domain (`KERNEL_DISPATCH`, `HIP_API`, ...; `COUNTER_COLLECTION` for counters).
    pub domain: String,
    /// Kernel name, function, message, copy direction, operation, or counter name.
    pub name: String,
    /// The kernel of a counter item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// `ns` for timed records, `count` for counter values.
    pub unit: &'static str,
    /// The verdict.
    pub status: Status,
    /// Whether this item makes the comparison fail under `--fail-on`.
    pub fails: bool,
    /// Base statistics (absent when only in head).
    pub base: Option<SideStats>,
    /// Head statistics (absent when only in base).
    pub head: Option<SideStats>,
    /// Relative change of the metric, percent (absent when not computable, e.g. base 0).
    pub change_percent: Option<f64>,
    /// Bootstrap confidence interval of the change, percent, at level `1 - alpha`.
    pub ci_percent: Option<[f64; 2]>,
    /// Bootstrap resamples drawn for the interval.
    pub bootstrap_resamples: Option<usize>,
    /// Two-sided Mann-Whitney U p-value.
    pub p_value: Option<f64>,
    /// The p-value after Holm's adjustment over all compared items.
    pub p_adjusted: Option<f64>,
    /// `mann-whitney-u-exact` or `mann-whitney-u-normal`.
    pub test: Option<&'static str>,
    /// Probability that a head record exceeds a base record (0.5: alike).
    pub effect: Option<f64>,
}

impl Item {
    /// Name for tables: the name, or `COUNTER (kernel)` for counters.
    pub fn display_name(&self) -> String {
        match &self.kernel {
            Some(k) => format!("{} ({k})", self.name),
            None => self.name.clone(),
        }
    }
}

/// Item counts by verdict.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// All items.
    pub items: usize,
    /// Items present on both sides with enough records.
    pub compared: usize,
    /// Regressions.
    pub regressions: usize,
    /// Improvements.
    pub improvements: usize,
    /// Changed counters.
    pub changed: usize,
    /// Unchanged items.
    pub unchanged: usize,
    /// Not judged for lack of records.
    pub insufficient_samples: usize,
    /// Items in base only.
    pub only_in_base: usize,
    /// Items in head only.
    pub only_in_head: usize,
    /// Items that make the comparison fail.
    pub failing: usize,
}

/// One side as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideInfo {
    /// The databases, one per run.
    pub databases: Vec<String>,
    /// Timed records read.
    pub records: u64,
}

/// The options as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportOptions {
    /// `--threshold`.
    pub threshold_percent: f64,
    /// `--alpha`.
    pub alpha: f64,
    /// Confidence level of the intervals (`1 - alpha`).
    pub confidence_level: f64,
    /// `--metric`.
    pub metric: Metric,
    /// `--min-samples`.
    pub min_samples: usize,
    /// `--fail-on`.
    pub fail_on: FailOn,
    /// `--kernel-include-regex`.
    pub kernel_include_regex: Option<String>,
    /// `--kernel-exclude-regex`.
    pub kernel_exclude_regex: Option<String>,
    /// `--seed`.
    pub seed: u64,
    /// `--bootstrap`.
    pub bootstrap_resamples: usize,
}

/// The whole comparison: what the JSON report holds and every other format renders.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffReport {
    /// Always `rocprof-rs-diff`.
    pub schema: &'static str,
    /// [`REPORT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Version of rocprof-rs that wrote the report.
    pub tool_version: String,
    /// The options.
    pub options: ReportOptions,
    /// Base runs.
    pub base: SideInfo,
    /// Head runs.
    pub head: SideInfo,
    /// Counts by verdict.
    pub summary: Counts,
    /// `fail` when an item fails under `--fail-on`, else `pass`.
    pub verdict: &'static str,
    /// The exit status `diff` returns: 1 on `fail`, else 0.
    pub exit_status: u8,
    /// Items: regressions first, then changes, improvements, one-sided, unjudged, unchanged;
    /// within a group by size of the change, then by time spent.
    pub items: Vec<Item>,
}

fn side_info(s: &Side) -> SideInfo {
    SideInfo { databases: s.databases.iter().map(|p| p.display().to_string()).collect(), records: s.records }
}

/// Compares `head` against `base`. `tool_version` is recorded in the report.
pub fn compare(base: &Side, head: &Side, opts: &DiffOptions, tool_version: &str, progress: &ProgressBar) -> DiffReport {
    let keys: Vec<&Key> = {
        let mut k: Vec<&Key> = base.items.keys().chain(head.items.keys()).collect();
        k.sort();
        k.dedup();
        k
    };
    progress.set_length(keys.len() as u64);
    let confidence = 1.0 - opts.alpha;
    let mut items: Vec<Item> = Vec::with_capacity(keys.len());
    for (i, key) in keys.iter().enumerate() {
        let b = base.items.get(*key);
        let h = head.items.get(*key);
        let mut item = Item {
            kind: key.kind,
            domain: key.domain.clone(),
            name: key.name.clone(),
            kernel: key.kernel.clone(),
            unit: if key.kind == Kind::Counter { "count" } else { "ns" },
            status: Status::Unchanged,
            fails: false,
            base: b.map(|r| SideStats::of(r, opts.metric)),
            head: h.map(|r| SideStats::of(r, opts.metric)),
            change_percent: None,
            ci_percent: None,
            bootstrap_resamples: None,
            p_value: None,
            p_adjusted: None,
            test: None,
            effect: None,
        };
        match (b, h) {
            (Some(b), Some(h)) => {
                let (bs, hs) = (item.base.as_ref().expect("set above"), item.head.as_ref().expect("set above"));
                if bs.metric_value > 0.0 {
                    item.change_percent = Some((hs.metric_value / bs.metric_value - 1.0) * 100.0);
                }
                if (bs.samples as usize) < opts.min_samples || (hs.samples as usize) < opts.min_samples {
                    item.status = Status::InsufficientSamples;
                } else {
                    if let Some(t) = mann_whitney_u(&b.concat(), &h.concat()) {
                        item.p_value = Some(t.p_value);
                        item.test = Some(if t.exact { "mann-whitney-u-exact" } else { "mann-whitney-u-normal" });
                        item.effect = Some(t.effect);
                    }
                    // Each item draws from its own stream, so adding or filtering items does not
                    // change the others' intervals.
                    let seed = opts.seed ^ crate::stats::mix64(i as u64 ^ hash_key(key));
                    if let Some(ci) = bootstrap_change(b, h, opts.metric, opts.resamples, confidence, seed) {
                        item.ci_percent = Some([ci.low * 100.0, ci.high * 100.0]);
                        item.bootstrap_resamples = Some(ci.resamples);
                    }
                }
            }
            (Some(_), None) => item.status = Status::OnlyInBase,
            (None, Some(_)) => item.status = Status::OnlyInHead,
            (None, None) => unreachable!("keys come from the two sides"),
        }
        items.push(item);
        progress.inc(1);
    }

    // Holm over the items that were tested.
    let tested: Vec<usize> = (0..items.len()).filter(|&i| items[i].p_value.is_some()).collect();
    let adjusted = holm(&tested.iter().map(|&i| items[i].p_value.expect("filtered")).collect::<Vec<_>>());
    for (&i, p) in tested.iter().zip(adjusted) {
        items[i].p_adjusted = Some(p);
    }
    for item in &mut items {
        judge(item, opts);
    }
    items.sort_by(|a, b| {
        a.status.cmp(&b.status).then_with(|| {
            let size = |x: &Item| x.change_percent.map_or(0.0, f64::abs);
            let time = |x: &Item| x.base.as_ref().or(x.head.as_ref()).map_or(0.0, |s| s.total_per_run);
            size(b).total_cmp(&size(a)).then_with(|| time(b).total_cmp(&time(a))).then_with(|| a.name.cmp(&b.name))
        })
    });
    let mut summary = Counts { items: items.len(), ..Counts::default() };
    for it in &items {
        match it.status {
            Status::Regression => summary.regressions += 1,
            Status::Improvement => summary.improvements += 1,
            Status::Changed => summary.changed += 1,
            Status::Unchanged => summary.unchanged += 1,
            Status::InsufficientSamples => summary.insufficient_samples += 1,
            Status::OnlyInBase => summary.only_in_base += 1,
            Status::OnlyInHead => summary.only_in_head += 1,
        }
        if it.p_value.is_some() {
            summary.compared += 1;
        }
        if it.fails {
            summary.failing += 1;
        }
    }
    let fail = summary.failing > 0;
    DiffReport {
        schema: "rocprof-rs-diff",
        schema_version: REPORT_SCHEMA_VERSION,
        tool_version: tool_version.to_string(),
        options: ReportOptions {
            threshold_percent: opts.threshold_percent,
            alpha: opts.alpha,
            confidence_level: confidence,
            metric: opts.metric,
            min_samples: opts.min_samples,
            fail_on: opts.fail_on,
            kernel_include_regex: opts.kernel_include.as_ref().map(|r| r.as_str().to_string()),
            kernel_exclude_regex: opts.kernel_exclude.as_ref().map(|r| r.as_str().to_string()),
            seed: opts.seed,
            bootstrap_resamples: opts.resamples,
        },
        base: side_info(base),
        head: side_info(head),
        summary,
        verdict: if fail { "fail" } else { "pass" },
        exit_status: u8::from(fail),
        items,
    }
}

fn hash_key(k: &Key) -> u64 {
    // FNV-1a over the key's text: stable across runs and platforms (std's hasher is not).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [k.kind.as_str(), &k.domain, &k.name, k.kernel.as_deref().unwrap_or("")] {
        for b in part.bytes().chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Sets the status (for compared items) and whether the item fails the comparison.
fn judge(item: &mut Item, opts: &DiffOptions) {
    if let (Some(p), Some(change)) = (item.p_adjusted, item.change_percent) {
        let excludes_zero = item.ci_percent.is_some_and(|[lo, hi]| lo > 0.0 || hi < 0.0);
        let significant = p < opts.alpha && excludes_zero;
        let big = change.abs() >= opts.threshold_percent;
        item.status = match (significant && big, item.kind, change > 0.0) {
            (false, _, _) => Status::Unchanged,
            (true, Kind::Counter, _) => Status::Changed,
            (true, _, true) => Status::Regression,
            (true, _, false) => Status::Improvement,
        };
    }
    item.fails = match opts.fail_on {
        FailOn::Never => false,
        FailOn::Regression => item.status == Status::Regression,
        FailOn::Change => matches!(
            item.status,
            Status::Regression | Status::Improvement | Status::Changed | Status::OnlyInBase | Status::OnlyInHead
        ),
    };
}

/// Convenience for callers and tests: load both sides and compare, without progress.
pub fn diff_paths(base: &[PathBuf], head: &[PathBuf], opts: &DiffOptions) -> Result<DiffReport> {
    opts.validate()?;
    let hidden = ProgressBar::hidden();
    let b = Side::load(base, opts, &hidden)?;
    let h = Side::load(head, opts, &hidden)?;
    Ok(compare(&b, &h, opts, env!("CARGO_PKG_VERSION"), &hidden))
}
