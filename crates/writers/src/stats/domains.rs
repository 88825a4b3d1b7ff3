//! Statistics of every traced domain at once: API calls by function (per library), kernel
//! dispatches by kernel name, memory copies by direction, allocations and scratch events by
//! operation. `--stats` writes one `<domain>_stats.csv` per domain with records plus
//! `domain_stats.csv`; `-D`/`-S` print the summary tables from the same numbers.

use std::collections::HashMap;

use rocprof_model::{KernelId, Record, StringId, StringTable};

use super::{domain_stats_csv, stats_csv, DomainStats, KERNEL_DISPATCH_DOMAIN};
use crate::stats_files::{Statistics, StatsFiles};
use crate::Session;

/// The statistics domains in rocprofv3's order (its `domain_type` enum, which also orders the
/// `-D` tables): (domain name, stats file name part).
pub const DOMAINS: [(&str, &str); 10] = [
    ("HSA_API", "hsa_api_stats.csv"),
    ("HIP_API", "hip_api_stats.csv"),
    ("MARKER_API", "marker_api_stats.csv"),
    (KERNEL_DISPATCH_DOMAIN, "kernel_stats.csv"),
    ("MEMORY_COPY", "memory_copy_stats.csv"),
    ("SCRATCH_MEMORY", "scratch_memory_stats.csv"),
    ("RCCL_API", "rccl_api_stats.csv"),
    ("MEMORY_ALLOCATION", "memory_allocation_stats.csv"),
    ("ROCDECODE_API", "rocdecode_api_stats.csv"),
    ("ROCJPEG_API", "rocjpeg_api_stats.csv"),
];

fn index_of(domain: &str) -> usize {
    DOMAINS.iter().position(|(d, _)| *d == domain).expect("every statistics domain is listed in DOMAINS")
}

/// Statistics of every domain, fed one record at a time (symbols before the dispatches that use
/// them, as every record stream delivers them).
#[derive(Debug)]
pub struct AllStats {
    kernel_names: HashMap<KernelId, StringId>,
    domains: Vec<DomainStats>,
}

impl Default for AllStats {
    fn default() -> Self {
        Self { kernel_names: HashMap::new(), domains: DOMAINS.iter().map(|(d, _)| DomainStats::new(d)).collect() }
    }
}

impl AllStats {
    /// No records yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one record (kinds without statistics are ignored).
    pub fn add(&mut self, strings: &StringTable, record: &Record) {
        match record {
            Record::KernelSymbol(k) => {
                self.kernel_names.insert(k.id, k.formatted_name);
            }
            Record::KernelDispatch(d) => {
                let name = self.kernel_names.get(&d.kernel).map(|&id| strings.resolve(id)).unwrap_or("");
                self.domains[index_of(KERNEL_DISPATCH_DOMAIN)].add(name, d.duration_ns());
            }
            Record::ApiCall(a) => {
                let domain = a.domain.family().stats_domain();
                self.domains[index_of(domain)].add(strings.resolve(a.display_name()), a.duration_ns());
            }
            Record::MemoryCopy(c) => self.domains[index_of("MEMORY_COPY")].add(c.direction.as_str(), c.duration_ns()),
            Record::MemoryAllocation(m) => {
                self.domains[index_of("MEMORY_ALLOCATION")].add(m.operation.as_str(), m.duration_ns())
            }
            Record::ScratchMemory(s) => {
                self.domains[index_of("SCRATCH_MEMORY")].add(s.operation.as_str(), s.duration_ns())
            }
            _ => {}
        }
    }

    /// The domains that have records, in rocprofv3's order.
    pub fn non_empty(&self) -> Vec<&DomainStats> {
        self.domains.iter().filter(|d| !d.is_empty()).collect()
    }

    /// The statistics of one domain (`HSA_API`, `KERNEL_DISPATCH`, ...), `None` for a name that
    /// is not a statistics domain.
    pub fn domain(&self, name: &str) -> Option<&DomainStats> {
        DOMAINS.iter().position(|(d, _)| *d == name).map(|i| &self.domains[i])
    }

    /// True when no record had statistics.
    pub fn is_empty(&self) -> bool {
        self.domains.iter().all(DomainStats::is_empty)
    }
}

/// Accumulates the statistics of every domain while records stream by and, unless it only
/// collects, writes `<domain>_stats.csv` for each domain with records and `domain_stats.csv`.
pub type StatsWriter = StatsFiles<AllStats>;

impl Statistics for AllStats {
    const NAME: &'static str = "stats";

    fn empty() -> Self {
        Self::new()
    }

    fn add_record(&mut self, session: &Session<'_>, record: &Record) {
        self.add(session.strings, record);
    }

    fn files(&self) -> Vec<(&'static str, String)> {
        if self.is_empty() {
            return Vec::new();
        }
        let domains = self.non_empty();
        let mut files: Vec<(&'static str, String)> =
            domains.iter().map(|d| (DOMAINS[index_of(d.domain)].1, stats_csv(d))).collect();
        files.push(("domain_stats.csv", domain_stats_csv(&domains)));
        files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocprof_model::{
        ApiCall, ApiDomain, ApiFamily, Correlation, MemoryCopy, MemoryCopyDirection, ThreadId, Timestamp,
    };

    #[test]
    fn every_library_has_a_statistics_domain() {
        for f in ApiFamily::ALL {
            assert!(DOMAINS.iter().any(|(d, _)| *d == f.stats_domain()), "{f:?}");
        }
    }

    #[test]
    fn records_land_in_their_domain_by_name() {
        let mut strings = StringTable::new();
        let name = strings.intern("hsa_signal_load_relaxed");
        let call = |start, end| {
            Record::ApiCall(ApiCall {
                domain: ApiDomain::HsaCore,
                operation: 39,
                name,
                message: StringId::EMPTY,
                thread: ThreadId(1),
                correlation: Correlation::new(1),
                start: Timestamp::boottime(start),
                end: Timestamp::boottime(end),
                return_value: 0,
                args: Box::new([]),
            })
        };
        let mut s = AllStats::new();
        s.add(&strings, &call(10, 30));
        s.add(&strings, &call(40, 50));
        s.add(
            &strings,
            &Record::MemoryCopy(MemoryCopy {
                direction: MemoryCopyDirection::HostToDevice,
                start: Timestamp::boottime(0),
                end: Timestamp::boottime(1000),
                ..Default::default()
            }),
        );
        let domains: Vec<&str> = s.non_empty().iter().map(|d| d.domain).collect();
        assert_eq!(domains, ["HSA_API", "MEMORY_COPY"]);
        let hsa = s.domain("HSA_API").unwrap().sorted();
        assert_eq!((hsa[0].name.as_str(), hsa[0].calls, hsa[0].total_ns), ("hsa_signal_load_relaxed", 2, 30));
        let copy = &s.domain("MEMORY_COPY").unwrap().sorted()[0];
        assert_eq!((copy.name.as_str(), copy.total_ns), ("MEMORY_COPY_HOST_TO_DEVICE", 1000));
    }
}
