//! `--stats` and `-S` for counter collection: per kernel and counter, how many dispatches were
//! counted and the sum, mean, minimum, maximum and sample standard deviation of the values, written
//! as `counter_collection_stats.csv` and printed as a `COUNTER_COLLECTION SUMMARY` table.
//!
//! rocprofv3 has no counter statistics (its `generate_stats` for counter records returns nothing),
//! so the layout is ours: the row key uses `counter_collection.csv`'s column names (`Kernel_Name`,
//! `Counter_Name`) and the numbers follow its value format, so a script reading one reads the other.
//! A dispatch whose counters could not be read carries no values and adds nothing (never a zero).

use std::collections::HashMap;
use std::fmt::Write as _;

use rocprof_model::{KernelId, Record, StringId};

use crate::numfmt::{fixed, scientific};
use crate::schema::{csv_header, COUNTER_STATS_COLUMNS};
use crate::stats_files::{Statistics, StatsFiles};
use crate::Session;

/// The stats file's name (after the output prefix).
pub const COUNTER_STATS_FILE: &str = "counter_collection_stats.csv";

/// Accumulated values of one (kernel, counter).
#[derive(Debug, Clone, PartialEq)]
pub struct CounterValueStats {
    /// Kernel name as the outputs print it.
    pub kernel: String,
    /// Counter name.
    pub counter: String,
    /// Dispatches counted.
    pub dispatches: u64,
    /// Sum of the values.
    pub sum: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    sum_sq: f64,
}

impl CounterValueStats {
    fn add(&mut self, v: f64) {
        self.dispatches += 1;
        self.sum += v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.sum_sq += v * v;
    }

    /// Mean value.
    pub fn mean(&self) -> f64 {
        if self.dispatches == 0 {
            0.0
        } else {
            self.sum / self.dispatches as f64
        }
    }

    /// Sample standard deviation (n - 1), 0 for fewer than two dispatches (the kernel stats' rule).
    pub fn stddev(&self) -> f64 {
        if self.dispatches < 2 {
            return 0.0;
        }
        let n = self.dispatches as f64;
        ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).abs().sqrt()
    }
}

/// Counter statistics of one process, in first-seen order of (kernel, counter).
#[derive(Debug, Default, Clone)]
pub struct CounterStats {
    names: HashMap<KernelId, StringId>,
    entries: Vec<CounterValueStats>,
    index: HashMap<(String, String), usize>,
}

impl CounterStats {
    /// No values yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one value of `counter` for a dispatch of `kernel`.
    pub fn add(&mut self, kernel: &str, counter: &str, value: f64) {
        let key = (kernel.to_string(), counter.to_string());
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                self.entries.push(CounterValueStats {
                    kernel: key.0.clone(),
                    counter: key.1.clone(),
                    dispatches: 0,
                    sum: 0.0,
                    min: f64::INFINITY,
                    max: f64::NEG_INFINITY,
                    sum_sq: 0.0,
                });
                self.index.insert(key, self.entries.len() - 1);
                self.entries.len() - 1
            }
        };
        self.entries[i].add(value);
    }

    fn record(&mut self, session: &Session<'_>, record: &Record) {
        match record {
            Record::KernelSymbol(k) => {
                self.names.insert(k.id, k.formatted_name);
            }
            Record::CounterCollection(c) => {
                let kernel = self.names.get(&c.dispatch.kernel).map(|&id| session.strings.resolve(id)).unwrap_or("");
                let kernel = kernel.to_string();
                for v in &c.values {
                    self.add(&kernel, session.strings.resolve(v.name), v.value);
                }
            }
            _ => {}
        }
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries sorted by kernel name, then counter name.
    pub fn sorted(&self) -> Vec<&CounterValueStats> {
        let mut v: Vec<&CounterValueStats> = self.entries.iter().collect();
        v.sort_by(|a, b| (&a.kernel, &a.counter).cmp(&(&b.kernel, &b.counter)));
        v
    }

    /// The text of [`COUNTER_STATS_FILE`].
    pub fn csv(&self) -> String {
        let mut s = csv_header(COUNTER_STATS_COLUMNS);
        for e in self.sorted() {
            let _ = writeln!(
                s,
                "\"{}\",\"{}\",{},{},{},{},{},{}",
                e.kernel,
                e.counter,
                e.dispatches,
                value(e.sum),
                value(e.mean()),
                value(e.min),
                value(e.max),
                value(e.stddev())
            );
        }
        s
    }

    /// The `-S` table (`ROCPROFV3 COUNTER_COLLECTION SUMMARY`), indented by `indent` spaces.
    pub fn summary_table(&self, indent: usize) -> String {
        let rows = self.sorted();
        let kw = rows.iter().map(|e| e.kernel.chars().count()).max().unwrap_or(0).max(40);
        let cw = rows.iter().map(|e| e.counter.chars().count()).max().unwrap_or(0).max(20);
        let pad = " ".repeat(indent);
        let mut out = String::new();
        let _ = write!(out, "\n{pad}ROCPROFV3 COUNTER_COLLECTION SUMMARY:\n\n");
        let _ = writeln!(
            out,
            "{pad}| {:^kw$} | {:^cw$} | {:^10} | {:^15} | {:^15} | {:^15} | {:^15} | {:^15} |",
            "KERNEL", "COUNTER", "DISPATCHES", "SUM", "AVERAGE", "MIN", "MAX", "STDDEV"
        );
        let dash = |n: usize| "-".repeat(n + 2);
        let _ = writeln!(
            out,
            "{pad}|{}|{}|{}|{}|{}|{}|{}|{}|",
            dash(kw),
            dash(cw),
            dash(10),
            dash(15),
            dash(15),
            dash(15),
            dash(15),
            dash(15)
        );
        for e in rows {
            let _ = writeln!(
                out,
                "{pad}| {:<kw$} | {:<cw$} | {:>10} | {:>15} | {:>15} | {:>15} | {:>15} | {:>15} |",
                e.kernel,
                e.counter,
                e.dispatches,
                scientific(e.sum, 6),
                scientific(e.mean(), 6),
                scientific(e.min, 6),
                scientific(e.max, 6),
                scientific(e.stddev(), 6)
            );
        }
        out
    }
}

/// `counter_collection.csv`'s value rule: >= 1 fixed with 6 decimals, else scientific with 8 digits.
fn value(v: f64) -> String {
    if v >= 1.0 {
        fixed(v, 6)
    } else {
        scientific(v, 8)
    }
}

/// Accumulates counter statistics while records stream by and writes [`COUNTER_STATS_FILE`] at the
/// end (nothing when no dispatch had counter values).
pub type CounterStatsWriter = StatsFiles<CounterStats>;

impl Statistics for CounterStats {
    const NAME: &'static str = "counter stats";

    fn empty() -> Self {
        Self::new()
    }

    fn add_record(&mut self, session: &Session<'_>, record: &Record) {
        self.record(session, record);
    }

    fn files(&self) -> Vec<(&'static str, String)> {
        if self.is_empty() {
            return Vec::new();
        }
        vec![(COUNTER_STATS_FILE, self.csv())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_per_kernel_and_counter_with_the_counter_csv_number_format() {
        let mut s = CounterStats::new();
        for v in [1024.0, 1024.0, 2048.0] {
            s.add("vector_add", "SQ_WAVES", v);
        }
        s.add("vector_add", "GRBM_COUNT", 38784.0);
        s.add("copy", "SQ_WAVES", 0.5);
        let text = s.csv();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "\"Kernel_Name\",\"Counter_Name\",\"Dispatches\",\"Sum\",\"Average\",\"Min\",\"Max\",\"StdDev\""
        );
        assert_eq!(
            lines[1],
            "\"copy\",\"SQ_WAVES\",1,5.00000000e-01,5.00000000e-01,5.00000000e-01,5.00000000e-01,0.00000000e+00"
        );
        assert_eq!(
            lines[2],
            "\"vector_add\",\"GRBM_COUNT\",1,38784.000000,38784.000000,38784.000000,38784.000000,0.00000000e+00"
        );
        // mean 4096/3; sample stddev of (1024, 1024, 2048) = 1024/sqrt(3).
        assert_eq!(
            lines[3],
            "\"vector_add\",\"SQ_WAVES\",3,4096.000000,1365.333333,1024.000000,2048.000000,591.206676"
        );
        assert_eq!(lines.len(), 4);
        let table = s.summary_table(0);
        assert!(table.contains("ROCPROFV3 COUNTER_COLLECTION SUMMARY:"), "{table}");
        assert_eq!(table.lines().filter(|l| l.starts_with("| vector_add")).count(), 2, "{table}");
    }
}
