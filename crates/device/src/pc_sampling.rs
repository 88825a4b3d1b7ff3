//! The PC-sampling configurations each simulated target offers (what ROCr's
//! `hsa_ven_amd_pcs_iterate_configuration` lists): hsa-sim answers with this table, and the CLI checks
//! `--pc-sampling-*` against it before the application starts.
//!
//! Host trap samples on gfx90a, gfx942 and gfx950 at an interval in microseconds (the range the
//! amdgpu driver reports for gfx9 host trap: 1 µs to 1 s). Stochastic (cycle-based) sampling is not
//! modelled, so no target lists it.

/// A sampling method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Host trap (`HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1`).
    HostTrap,
    /// Stochastic (`HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1`).
    Stochastic,
}

/// The unit of a sampling interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Microseconds (`HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS`; rocprofv3's `time`).
    Time,
    /// Shader clock cycles (`..._CLOCK_CYCLES`; `cycles`).
    Cycles,
    /// Instructions (`..._INSTRUCTIONS`; `instructions`).
    Instructions,
}

impl Method {
    /// rocprofv3's name.
    pub fn name(self) -> &'static str {
        match self {
            Method::HostTrap => "host_trap",
            Method::Stochastic => "stochastic",
        }
    }
}

impl Unit {
    /// rocprofv3's name.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Time => "time",
            Unit::Cycles => "cycles",
            Unit::Instructions => "instructions",
        }
    }
}

/// One configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Method.
    pub method: Method,
    /// Interval unit.
    pub unit: Unit,
    /// Smallest interval.
    pub min_interval: u64,
    /// Largest interval.
    pub max_interval: u64,
    /// Intervals must be powers of two.
    pub power_of_two: bool,
}

/// The configurations of `target` (empty: no PC sampling).
pub fn configurations(target: &str) -> Vec<Config> {
    match target {
        "gfx90a" | "gfx942" | "gfx950" => vec![Config {
            method: Method::HostTrap,
            unit: Unit::Time,
            min_interval: 1,
            max_interval: 1_000_000,
            power_of_two: false,
        }],
        _ => Vec::new(),
    }
}

/// Whether `config` accepts `interval`.
pub fn accepts(config: &Config, interval: u64) -> bool {
    (config.min_interval..=config.max_interval).contains(&interval)
        && (!config.power_of_two || interval.is_power_of_two())
}
