//! `summary`: rocprofv3's `-S` / `-D` / `--summary-groups` tables computed from rocpd databases,
//! in exactly the format the profiler prints at the end of a run (the tables come from the same
//! code, `rocprof_writers::stats::summary_table`), over every record of every input.

use std::collections::BTreeMap;

use indicatif::ProgressBar;
use regex::Regex;
use rocprof_writers::stats::{summary_table, DomainStats, SummaryUnit};

use crate::error::{Error, Result};
use crate::rocpd::{Database, DOMAIN_ORDER};

/// Which tables to print.
#[derive(Debug, Clone)]
pub struct SummaryOptions {
    /// The overall `SUMMARY` table (`-S`).
    pub overall: bool,
    /// One `<DOMAIN> SUMMARY` table per domain (`-D`).
    pub per_domain: bool,
    /// One table per regular expression over domain names (`--summary-groups`); a domain joins a
    /// group when the expression matches its whole name.
    pub groups: Vec<Regex>,
    /// Time unit (`-u`).
    pub unit: SummaryUnit,
    /// 4 for the console, 0 for a file (as rocprofv3).
    pub indent: usize,
}

/// Statistics per domain, in rocprofv3's domain order (unknown domains after, by name).
#[derive(Debug, Default)]
pub struct Summary {
    domains: BTreeMap<(usize, String), DomainStats>,
    records: u64,
}

/// A `&'static str` for a domain name: rocprofv3's names are constants; a category this reader
/// does not know is leaked once (a handful per process at most).
fn static_domain(name: &str) -> &'static str {
    if let Some(d) = DOMAIN_ORDER.iter().find(|d| **d == name) {
        return d;
    }
    static OTHERS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut others = OTHERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(d) = others.iter().find(|d| **d == name) {
        return d;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    others.push(leaked);
    leaked
}

impl Summary {
    /// Adds every record of `db`.
    pub fn add(&mut self, db: &Database) -> Result<u64> {
        let domains = &mut self.domains;
        let n = db.for_each_activity(|a| {
            let order = DOMAIN_ORDER.iter().position(|d| *d == a.domain).unwrap_or(DOMAIN_ORDER.len());
            domains
                .entry((order, a.domain.to_string()))
                .or_insert_with(|| DomainStats::new(static_domain(a.domain)))
                .add(a.name, a.duration_ns);
        })?;
        self.records += n;
        Ok(n)
    }

    /// Reads every database in `paths`; a database without records is an error (there would be
    /// nothing to summarise, which is almost always the wrong file).
    pub fn of_paths(paths: &[std::path::PathBuf], progress: &ProgressBar) -> Result<Self> {
        progress.set_length(paths.len() as u64);
        let mut s = Self::default();
        for p in paths {
            let db = Database::open(p)?;
            if s.add(&db)? == 0 {
                return Err(Error::Empty {
                    path: p.clone(),
                    why: "no kernel dispatches, API calls, memory copies or allocations".into(),
                });
            }
            progress.inc(1);
        }
        Ok(s)
    }

    /// Records summarised.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The statistics of every domain present, in rocprofv3's order.
    pub fn domains(&self) -> Vec<&DomainStats> {
        self.domains.values().collect()
    }

    /// The tables, in rocprofv3's order: per-domain tables, group tables, the overall table.
    pub fn render(&self, opts: &SummaryOptions) -> String {
        let domains = self.domains();
        let mut out = String::new();
        if opts.per_domain {
            for d in &domains {
                out.push_str(&summary_table(&format!("{} SUMMARY", d.domain), &[d], opts.unit, opts.indent));
            }
        }
        for g in &opts.groups {
            let full = Regex::new(&format!("^(?:{})$", g.as_str())).expect("a valid expression stays valid anchored");
            let members: Vec<&DomainStats> = domains.iter().copied().filter(|d| full.is_match(d.domain)).collect();
            if members.is_empty() {
                continue;
            }
            let label = members.iter().map(|d| d.domain).collect::<Vec<_>>().join(" + ");
            out.push_str(&summary_table(&format!("{label} SUMMARY"), &members, opts.unit, opts.indent));
        }
        if opts.overall {
            out.push_str(&summary_table("SUMMARY", &domains, opts.unit, opts.indent));
        }
        out
    }
}
