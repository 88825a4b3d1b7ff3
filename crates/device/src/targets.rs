//! The simulated GPU targets: which targets hsa-sim models and what they look like ([`GpuModel`],
//! [`MODELS`], from the targets crate, `rocprof-targets`), and the parsing of
//! `ROCPROF_RS_SIM_AGENTS`.
//!
//! hsa-sim builds its HSA agent objects from these, the CLI checks `--simulate` against [`MODELS`]
//! and asks it for the agents' geometry before it launches an application.

pub use rocprof_targets::{GpuModel, MODELS};

/// Default agent list when `ROCPROF_RS_SIM_AGENTS` is unset or empty.
pub const DEFAULT_AGENTS: &str = "gfx942";

/// The target called `name` (exact, without feature suffix), if hsa-sim models it.
pub fn find(name: &str) -> Option<&'static GpuModel> {
    MODELS.iter().find(|m| m.name == name)
}

/// Parses `ROCPROF_RS_SIM_AGENTS` (comma-separated targets; whitespace and empty items ignored).
pub fn parse_agents(spec: &str) -> Result<Vec<&'static GpuModel>, String> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match find(item) {
            Some(m) => out.push(m),
            None => {
                let known: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
                return Err(format!("unknown target {item:?} in ROCPROF_RS_SIM_AGENTS (known: {})", known.join(", ")));
            }
        }
    }
    if out.is_empty() {
        out.push(find(DEFAULT_AGENTS).expect("default target is in the table"));
    }
    Ok(out)
}

/// GFX IP generation of a target: decides instruction encodings, register maps and counter blocks
/// (the targets crate's [`rocprof_targets::Family`]).
pub use rocprof_targets::Family as Generation;

/// Names of every simulated target, in table order (for messages such as "it simulates ...").
pub fn names() -> impl Iterator<Item = &'static str> {
    MODELS.iter().map(|m| m.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_agent_lists() {
        let v = parse_agents("gfx942, gfx1100,,").unwrap();
        assert_eq!(v.iter().map(|m| m.name).collect::<Vec<_>>(), ["gfx942", "gfx1100"]);
        assert_eq!(parse_agents("").unwrap()[0].name, "gfx942");
        let err = parse_agents("gfx942,gfx9000").unwrap_err();
        assert!(err.contains("gfx9000"), "{err}");
    }

    #[test]
    fn reference_numbers() {
        let m = find("gfx942").unwrap();
        assert_eq!((m.compute_units, m.shader_engines, m.xccs, m.max_clock_mhz), (304, 32, 8, 2100));
        assert_eq!(m.max_waves_per_cu(), 32);
        let r = find("gfx1201").unwrap();
        assert_eq!((r.compute_units, r.shader_engines, r.shader_arrays_per_se, r.wavefront_size), (64, 4, 2, 32));
    }

    #[test]
    fn topology_spreads_cus_over_engines_and_arrays() {
        let m = find("gfx942").unwrap();
        assert_eq!((m.se_per_xcc(), m.cus_per_xcc()), (4, 38));
        assert_eq!((0..4).map(|s| m.cus_in_se(s)).collect::<Vec<_>>(), [10, 10, 9, 9]);
        assert_eq!(m.first_cu_of_se(1, 2), 38 + 20);
        let r = find("gfx1100").unwrap();
        assert_eq!(r.cus_in_se(0), 16);
        assert_eq!((0..16).map(|c| r.sa_of_cu(c, 16)).filter(|&a| a == 1).count(), 8);
        assert_eq!(r.sa_of_cu(14, 15), 1);
        assert_eq!(r.sa_of_cu(7, 15), 0);
        for m in MODELS {
            let total: u32 = (0..m.xccs).map(|_| (0..m.se_per_xcc()).map(|s| m.cus_in_se(s)).sum::<u32>()).sum();
            assert_eq!(total, m.compute_units, "{}", m.name);
        }
        assert_eq!(find("gfx1030").unwrap().generation(), Generation::Gfx10);
        assert_eq!(find("gfx950").unwrap().generation(), Generation::Gfx9);
        assert_eq!(names().count(), MODELS.len());
    }

    #[test]
    fn elf_flags_matching() {
        let m = find("gfx90a").unwrap();
        assert!(m.accepts_elf_flags(0x53f)); // xnack any, sramecc any
        assert!(m.accepts_elf_flags(0x23f | 0xc00)); // xnack off, sramecc on
        assert!(!m.accepts_elf_flags(0x33f)); // xnack on
        assert!(!m.accepts_elf_flags(0x54c)); // gfx942
        let n = find("gfx1100").unwrap();
        assert!(n.accepts_elf_flags(0x041));
        assert!(!n.accepts_elf_flags(0x241));
    }
}
