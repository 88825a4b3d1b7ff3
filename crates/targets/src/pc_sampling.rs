//! The PC-sampling configurations each GPU target offers (what ROCr's
//! `hsa_ven_amd_pcs_iterate_configuration` lists): hsa-sim answers with this table, and the CLI checks
//! `--pc-sampling-*` against it before the application starts.
//!
//! Host trap samples on gfx90a, gfx942 and gfx950 at an interval in microseconds (the range the
//! amdgpu driver reports for gfx9 host trap: 1 µs to 1 s). Stochastic sampling (the SQ's cycle-based
//! snapshots, which rocprofiler-sdk enables from gfx942 on: KFD PC-sampling 1.3 for gfx94x, 1.4 for
//! gfx950; gfx90a has none) samples every power-of-two number of shader cycles; the bounds hsa-sim
//! offers, 2^8..2^31 cycles, are its own (the driver's are not in the sources at hand).

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
    const HOST_TRAP: Config = Config {
        method: Method::HostTrap,
        unit: Unit::Time,
        min_interval: 1,
        max_interval: 1_000_000,
        power_of_two: false,
    };
    const STOCHASTIC: Config = Config {
        method: Method::Stochastic,
        unit: Unit::Cycles,
        min_interval: 1 << 8,
        max_interval: 1 << 31,
        power_of_two: true,
    };
    match target {
        "gfx90a" => vec![HOST_TRAP],
        "gfx942" | "gfx950" => vec![HOST_TRAP, STOCHASTIC],
        _ => Vec::new(),
    }
}

/// Whether `config` accepts `interval`.
pub fn accepts(config: &Config, interval: u64) -> bool {
    (config.min_interval..=config.max_interval).contains(&interval)
        && (!config.power_of_two || interval.is_power_of_two())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rocprofiler-sdk's support matrix (`ioctl_adapter.cpp`): no stochastic sampling on gfx90a, stochastic
    /// from gfx942 on; AMD's tests sample stochastic every 2^20 and 2^14 cycles (power-of-two intervals).
    #[test]
    fn stochastic_is_offered_from_gfx942_on_in_power_of_two_cycles() {
        let has = |t: &str, m| configurations(t).iter().any(|c| c.method == m);
        assert!(!has("gfx90a", Method::Stochastic) && has("gfx90a", Method::HostTrap));
        assert!(has("gfx942", Method::Stochastic) && has("gfx950", Method::Stochastic));
        let s = configurations("gfx942").into_iter().find(|c| c.method == Method::Stochastic).unwrap();
        assert_eq!(s.unit, Unit::Cycles);
        assert!(accepts(&s, 1 << 20) && accepts(&s, 1 << 14));
        assert!(!accepts(&s, 1000), "not a power of two");
        assert!(!accepts(&s, 1 << 32), "above the range");
        assert!(configurations("gfx1100").is_empty());
    }
}
