//! `--stats` and `-S`: per-name duration statistics of a domain, written as rocprofv3's
//! `<domain>_stats.csv` / `domain_stats.csv`, and the summary table printed at the end.
//!
//! Formats follow rocprofv3 (`source/lib/output/generateStats.cpp`, `statistics.hpp`):
//! sample standard deviation from sum and sum of squares, rows sorted by total duration
//! descending, numbers formatted per column as described in `../shared/reference/rocprofv3-outputs.md`.

use std::collections::HashMap;
use std::fmt::Write as _;

use rocprof_model::{KernelId, Record, StringId, StringTable, Trace};

use crate::numfmt::{fixed, scientific};
use crate::schema::{csv_header, STATS_COLUMNS};
use crate::stats_files::{Statistics, StatsFiles};
use crate::Session;

mod domains;
pub use domains::{AllStats, StatsWriter, DOMAINS};

/// Domain name of kernel dispatches in stats files and summary tables.
pub const KERNEL_DISPATCH_DOMAIN: &str = "KERNEL_DISPATCH";

/// Accumulated durations of one name.
#[derive(Debug, Clone, PartialEq)]
pub struct NameStats {
    /// Kernel name (or API function, copy direction, ...).
    pub name: String,
    /// Number of records.
    pub calls: u64,
    /// Sum of durations, ns.
    pub total_ns: u128,
    /// Shortest duration, ns.
    pub min_ns: u64,
    /// Longest duration, ns.
    pub max_ns: u64,
    sum_sq: f64,
}

impl NameStats {
    fn new(name: String) -> Self {
        Self { name, calls: 0, total_ns: 0, min_ns: u64::MAX, max_ns: 0, sum_sq: 0.0 }
    }

    fn add(&mut self, duration_ns: u64) {
        self.calls += 1;
        self.total_ns += u128::from(duration_ns);
        self.min_ns = self.min_ns.min(duration_ns);
        self.max_ns = self.max_ns.max(duration_ns);
        let d = duration_ns as f64;
        self.sum_sq += d * d;
    }

    fn merge(&mut self, other: &NameStats) {
        self.calls += other.calls;
        self.total_ns += other.total_ns;
        self.min_ns = self.min_ns.min(other.min_ns);
        self.max_ns = self.max_ns.max(other.max_ns);
        self.sum_sq += other.sum_sq;
    }

    /// Sum of squared durations, ns² (rocprofv3's `sqr`).
    pub fn sum_sq(&self) -> f64 {
        self.sum_sq
    }

    /// Mean duration, ns.
    pub fn mean_ns(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.calls as f64
        }
    }

    /// Sample standard deviation (n - 1), 0 for fewer than two calls. Computed like rocprofv3:
    /// `(sum_sq - sum^2 / n) / (n - 1)`, then the square root of its magnitude.
    pub fn stddev_ns(&self) -> f64 {
        if self.calls < 2 {
            return 0.0;
        }
        let n = self.calls as f64;
        let sum = self.total_ns as f64;
        ((self.sum_sq - sum * sum / n) / (n - 1.0)).abs().sqrt()
    }
}

/// Statistics of one domain: one entry per distinct name.
#[derive(Debug, Clone, PartialEq)]
pub struct DomainStats {
    /// Domain name (`KERNEL_DISPATCH`, ...).
    pub domain: &'static str,
    entries: Vec<NameStats>,
    by_name: HashMap<String, usize>,
}

impl DomainStats {
    /// No records yet.
    pub fn new(domain: &'static str) -> Self {
        Self { domain, entries: Vec::new(), by_name: HashMap::new() }
    }

    /// Adds one record of `name` lasting `duration_ns`.
    pub fn add(&mut self, name: &str, duration_ns: u64) {
        let idx = match self.by_name.get(name) {
            Some(&i) => i,
            None => {
                self.entries.push(NameStats::new(name.to_string()));
                self.by_name.insert(name.to_string(), self.entries.len() - 1);
                self.entries.len() - 1
            }
        };
        self.entries[idx].add(duration_ns);
    }

    /// Entries sorted by total duration, longest first (ties keep first-seen order).
    pub fn sorted(&self) -> Vec<&NameStats> {
        let mut v: Vec<&NameStats> = self.entries.iter().collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.total_ns));
        v
    }

    /// Sum of all durations, ns.
    pub fn total_ns(&self) -> u128 {
        self.entries.iter().map(|e| e.total_ns).sum()
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries merged into one, named after the domain (a `domain_stats.csv` row).
    pub fn overall(&self) -> NameStats {
        let mut all = NameStats::new(self.domain.to_string());
        for e in &self.entries {
            all.merge(e);
        }
        all
    }
}

/// `AverageNs` / `StdDev` rule: > 0.01 fixed with 6 decimals, else scientific with 8 digits.
fn stats_float(v: f64) -> String {
    if v > 0.01 {
        fixed(v, 6)
    } else {
        scientific(v, 8)
    }
}

/// `Percentage` rule: >= 1 two decimals, > 0.01 four decimals, else scientific with 3 digits.
fn stats_percent(v: f64) -> String {
    if v >= 1.0 {
        fixed(v, 2)
    } else if v > 0.01 {
        fixed(v, 4)
    } else {
        scientific(v, 3)
    }
}

fn percent(part: u128, whole: u128) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// One stats CSV row (no trailing newline).
fn stats_row(e: &NameStats, whole: u128) -> String {
    format!(
        "\"{}\",{},{},{},{},{},{},{}",
        e.name,
        e.calls,
        e.total_ns,
        stats_float(e.mean_ns()),
        stats_percent(percent(e.total_ns, whole)),
        if e.calls == 0 { 0 } else { e.min_ns },
        e.max_ns,
        stats_float(e.stddev_ns())
    )
}

/// The text of a `<domain>_stats.csv` file.
pub fn stats_csv(stats: &DomainStats) -> String {
    let mut s = csv_header(STATS_COLUMNS);
    let whole = stats.total_ns();
    for e in stats.sorted() {
        s.push_str(&stats_row(e, whole));
        s.push('\n');
    }
    s
}

/// The text of `domain_stats.csv`: one row per non-empty domain.
pub fn domain_stats_csv(domains: &[&DomainStats]) -> String {
    let mut s = csv_header(STATS_COLUMNS);
    let overall: Vec<NameStats> = domains.iter().filter(|d| !d.is_empty()).map(|d| d.overall()).collect();
    let whole: u128 = overall.iter().map(|o| o.total_ns).sum();
    for o in &overall {
        s.push_str(&stats_row(o, whole));
        s.push('\n');
    }
    s
}

/// Time unit of summary tables (`-u/--summary-units`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SummaryUnit {
    /// Seconds.
    Sec,
    /// Milliseconds.
    Msec,
    /// Microseconds.
    Usec,
    /// Nanoseconds (default).
    #[default]
    Nsec,
}

impl SummaryUnit {
    fn label(self) -> &'static str {
        match self {
            Self::Sec => "sec",
            Self::Msec => "msec",
            Self::Usec => "usec",
            Self::Nsec => "nsec",
        }
    }

    fn divisor(self) -> f64 {
        match self {
            Self::Sec => 1e9,
            Self::Msec => 1e6,
            Self::Usec => 1e3,
            Self::Nsec => 1.0,
        }
    }

    fn integer(self, ns: u128) -> String {
        match self {
            Self::Nsec => ns.to_string(),
            _ => format!("{}", ns as f64 / self.divisor()),
        }
    }
}

/// The summary table rocprofv3 prints for `-S` (label `SUMMARY`) or `-D` (`<DOMAIN> SUMMARY`).
/// Entries of all `domains` are merged by name (first domain seen wins) and sorted by total.
/// `indent` is 4 for the console and 0 for a file.
pub fn summary_table(label: &str, domains: &[&DomainStats], unit: SummaryUnit, indent: usize) -> String {
    let mut merged: Vec<(NameStats, &'static str)> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for d in domains {
        for e in &d.entries {
            match seen.get(e.name.as_str()) {
                Some(&i) => merged[i].0.merge(e),
                None => {
                    seen.insert(e.name.as_str(), merged.len());
                    merged.push((e.clone(), d.domain));
                }
            }
        }
    }
    merged.sort_by_key(|(e, _)| std::cmp::Reverse(e.total_ns));
    let whole: u128 = merged.iter().map(|(e, _)| e.total_ns).sum();
    let w = merged.iter().map(|(e, _)| e.name.chars().count()).max().unwrap_or(0).max(40);
    let dw = merged.iter().map(|(_, d)| d.len()).max().unwrap_or(0).max(12);
    let u = unit.label();
    let pad = " ".repeat(indent);

    let mut out = String::new();
    let _ = write!(out, "\n{pad}ROCPROFV3 {label}:\n\n");
    let _ = writeln!(
        out,
        "{pad}| {:^w$} | {:^dw$} | {:^15} | {:^15} | {:^15} | {:^13} | {:^15} | {:^15} | {:^15} |",
        "NAME",
        "DOMAIN",
        "CALLS",
        format!("DURATION ({u})"),
        format!("AVERAGE ({u})"),
        "PERCENT (INC)",
        format!("MIN ({u})"),
        format!("MAX ({u})"),
        "STDDEV",
    );
    let dash = |n: usize| "-".repeat(n + 2);
    let _ = writeln!(
        out,
        "{pad}|{}|{}|{}|{}|{}|{}|{}|{}|{}|",
        dash(w),
        dash(dw),
        dash(15),
        dash(15),
        dash(15),
        dash(13),
        dash(15),
        dash(15),
        dash(15)
    );
    for (e, d) in &merged {
        let _ = writeln!(
            out,
            "{pad}| {:<w$} | {:<dw$} | {:>15} | {:>15} | {:>15} | {:>13} | {:>15} | {:>15} | {:>15} |",
            e.name,
            d,
            e.calls,
            unit.integer(e.total_ns),
            scientific(e.mean_ns() / unit.divisor(), 3),
            fixed(percent(e.total_ns, whole), 6),
            unit.integer(u128::from(e.min_ns)),
            unit.integer(u128::from(e.max_ns)),
            scientific(e.stddev_ns() / unit.divisor(), 3),
        );
    }
    out.push('\n');
    out
}

/// Kernel-dispatch statistics by formatted kernel name, fed one record at a time (symbols before
/// the dispatches that use them, as every record stream delivers them).
#[derive(Debug)]
pub struct KernelStats {
    names: HashMap<KernelId, StringId>,
    stats: DomainStats,
}

impl KernelStats {
    fn new() -> Self {
        Self { names: HashMap::new(), stats: DomainStats::new(KERNEL_DISPATCH_DOMAIN) }
    }

    fn add(&mut self, strings: &StringTable, record: &Record) {
        match record {
            Record::KernelSymbol(k) => {
                self.names.insert(k.id, k.formatted_name);
            }
            Record::KernelDispatch(d) => {
                let name = self.names.get(&d.kernel).map(|&id| strings.resolve(id)).unwrap_or("");
                self.stats.add(name, d.duration_ns());
            }
            _ => {}
        }
    }
}

/// The kernel-dispatch statistics of a whole trace (what `-S` prints), computed exactly as
/// [`KernelStatsWriter`] computes `kernel_stats.csv`.
pub fn kernel_dispatch_stats(trace: &Trace) -> DomainStats {
    let mut acc = KernelStats::new();
    for record in trace.records() {
        acc.add(&trace.strings, &record);
    }
    acc.stats
}

/// Kernel-dispatch statistics while records stream by, and `kernel_stats.csv` and
/// `domain_stats.csv` at the end.
pub type KernelStatsWriter = StatsFiles<KernelStats>;

impl Statistics for KernelStats {
    const NAME: &'static str = "stats";

    fn empty() -> Self {
        Self::new()
    }

    fn add_record(&mut self, session: &Session<'_>, record: &Record) {
        self.add(session.strings, record);
    }

    fn files(&self) -> Vec<(&'static str, String)> {
        let stats = &self.stats;
        if stats.is_empty() {
            return Vec::new();
        }
        vec![("kernel_stats.csv", stats_csv(stats)), ("domain_stats.csv", domain_stats_csv(&[stats]))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_kernels() -> DomainStats {
        let mut s = DomainStats::new(KERNEL_DISPATCH_DOMAIN);
        s.add("multiply_kernel", 9440);
        s.add("divide_kernel", 8480);
        s.add("multiply_kernel", 9600);
        s.add("divide_kernel", 8656);
        s
    }

    #[test]
    fn stats_csv_matches_rocprofv3_formats() {
        let text = stats_csv(&two_kernels());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\""
        );
        assert_eq!(lines[1], "\"multiply_kernel\",2,19040,9520.000000,52.63,9440,9600,113.137085");
        assert_eq!(lines[2], "\"divide_kernel\",2,17136,8568.000000,47.37,8480,8656,124.450793");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn single_call_has_zero_stddev_in_scientific_form() {
        let mut s = DomainStats::new(KERNEL_DISPATCH_DOMAIN);
        s.add("big", 1_000_000);
        s.add("tiny", 10);
        let text = stats_csv(&s);
        assert!(text.contains("\"big\",1,1000000,1000000.000000,100.00,1000000,1000000,0.00000000e+00"), "{text}");
        // 10 / 1000010 * 100 = 0.000999..., below 0.01 -> scientific with 3 digits.
        assert_eq!(text.lines().nth(2).unwrap(), "\"tiny\",1,10,10.000000,1.000e-03,10,10,0.00000000e+00");
    }

    #[test]
    fn domain_stats_has_one_row_per_domain() {
        let text = domain_stats_csv(&[&two_kernels()]);
        assert_eq!(text.lines().nth(1).unwrap(), "\"KERNEL_DISPATCH\",4,36176,9044.000000,100.00,8480,9600,558.149323");
    }

    #[test]
    fn summary_table_matches_the_reference_layout() {
        let t = summary_table("KERNEL_DISPATCH SUMMARY", &[&two_kernels()], SummaryUnit::Nsec, 0);
        let expected = "
ROCPROFV3 KERNEL_DISPATCH SUMMARY:

|                   NAME                   |     DOMAIN      |      CALLS      | DURATION (nsec) | AVERAGE (nsec)  | PERCENT (INC) |   MIN (nsec)    |   MAX (nsec)    |     STDDEV      |
|------------------------------------------|-----------------|-----------------|-----------------|-----------------|---------------|-----------------|-----------------|-----------------|
| multiply_kernel                          | KERNEL_DISPATCH |               2 |           19040 |       9.520e+03 |     52.631579 |            9440 |            9600 |       1.131e+02 |
| divide_kernel                            | KERNEL_DISPATCH |               2 |           17136 |       8.568e+03 |     47.368421 |            8480 |            8656 |       1.245e+02 |

";
        assert_eq!(t, expected);
        let console = summary_table("SUMMARY", &[&two_kernels()], SummaryUnit::Usec, 4);
        assert!(console.contains("\n    ROCPROFV3 SUMMARY:\n"), "{console}");
        assert!(console.contains("| DURATION (usec) |"), "{console}");
        assert!(console.contains("|           19.04 |"), "{console}");
    }
}
