//! `-P/--collection-period`, `--collection-period-unit` and `--minimum-output-data`
//! (rocprofv3 sections 6 and 13): when records are kept, and how much data a run needs before
//! outputs are written.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use crate::config::{CollectionPeriod, CollectionSpec};

/// The collection-window and output-threshold options.
#[derive(Debug, Default, Args)]
pub(crate) struct CollectionArgs {
    /// Time windows of collection, each DELAY:DURATION:REPEAT in --collection-period-unit: wait
    /// DELAY, collect for DURATION, REPEAT times (0 = once), then the next triplet; after the last,
    /// collection stays off. Counted from the start of profiling in the process.
    #[arg(short = 'P', long, value_name = "DELAY:DURATION:REPEAT", num_args = 1..)]
    pub(crate) collection_period: Vec<String>,

    /// Unit of --collection-period.
    #[arg(long, value_enum, value_name = "UNIT")]
    pub(crate) collection_period_unit: Option<PeriodUnit>,

    /// Write a process's outputs only when its records amount to at least this many KiB.
    #[arg(long, value_name = "KB")]
    pub(crate) minimum_output_data: Option<u64>,
}

/// `--collection-period-unit`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PeriodUnit {
    Hour,
    Min,
    Sec,
    Msec,
    Usec,
    Nsec,
}

impl PeriodUnit {
    fn ns(self) -> f64 {
        match self {
            Self::Hour => 3.6e12,
            Self::Min => 6e10,
            Self::Sec => 1e9,
            Self::Msec => 1e6,
            Self::Usec => 1e3,
            Self::Nsec => 1.0,
        }
    }
}

impl CollectionArgs {
    /// Validates into the resolved settings. Fields are converted as rocprofv3 does:
    /// `int(float(x) * unit)` nanoseconds, REPEAT an integer.
    pub(crate) fn into_spec(self) -> Result<CollectionSpec> {
        let unit = self.collection_period_unit.unwrap_or(PeriodUnit::Sec).ns();
        let mut periods = Vec::new();
        for item in self.collection_period.iter().flat_map(|s| s.split([' ', ';'])).filter(|s| !s.is_empty()) {
            let fields: Vec<&str> = item.split(':').collect();
            let time = |s: &str| {
                s.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).map(|v| (v * unit) as u64)
            };
            let (Some(delay_ns), Some(duration_ns), Some(repeat)) = (
                fields.first().and_then(|s| time(s)),
                fields.get(1).and_then(|s| time(s)),
                fields.get(2).and_then(|s| s.trim().parse::<u32>().ok()),
            ) else {
                bail!("--collection-period: '{item}' is not DELAY:DURATION:REPEAT (non-negative numbers, REPEAT an integer)");
            };
            if fields.len() != 3 {
                bail!("--collection-period: '{item}' is not DELAY:DURATION:REPEAT");
            }
            periods.push(CollectionPeriod { delay_ns, duration_ns, repeat });
        }
        if self.collection_period_unit.is_some() && periods.is_empty() {
            bail!("--collection-period-unit needs --collection-period");
        }
        let minimum_output_bytes = self.minimum_output_data.unwrap_or(0).saturating_mul(1024);
        Ok(CollectionSpec { periods, minimum_output_bytes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(periods: &[&str], unit: Option<PeriodUnit>) -> Result<CollectionSpec> {
        CollectionArgs {
            collection_period: periods.iter().map(|s| s.to_string()).collect(),
            collection_period_unit: unit,
            minimum_output_data: Some(2),
        }
        .into_spec()
    }

    #[test]
    fn periods_convert_like_rocprofv3() {
        let s = spec(&["1:0.5:2", "0:3:0"], None).unwrap();
        assert_eq!(
            s.periods,
            [
                CollectionPeriod { delay_ns: 1_000_000_000, duration_ns: 500_000_000, repeat: 2 },
                CollectionPeriod { delay_ns: 0, duration_ns: 3_000_000_000, repeat: 0 }
            ]
        );
        assert_eq!(s.minimum_output_bytes, 2048);
        let s = spec(&["10:20:1"], Some(PeriodUnit::Msec)).unwrap();
        assert_eq!(s.periods[0].delay_ns, 10_000_000);
        assert_eq!(s.windows(100), [(10_000_100, 30_000_100)]);
        let e = spec(&["1:2"], None).unwrap_err().to_string();
        assert!(e.contains("'1:2' is not DELAY:DURATION:REPEAT"), "{e}");
        assert!(spec(&["a:1:1"], None).is_err());
        assert!(spec(&["1:1:1:1"], None).is_err());
        assert!(spec(&[], Some(PeriodUnit::Usec)).is_err());
    }
}
