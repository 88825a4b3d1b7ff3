//! Debian's real `rocminfo` (5.2.3) on hsa-sim, through the two shims of `fixtures/rocminfo/`:
//! every configured agent must be printed with the properties of `../shared/reference/sim-agents.md`
//! (marketing name, CUs, SEs, SAs per SE, SIMDs per CU, wavefront size, clock), its ISA and its pools.

use rocprof_launch::names as launch;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::support::{run, sim_env, stage, Run};

/// One row of the sim-agents.md table.
#[derive(Debug)]
struct Board {
    marketing_name: String,
    compute_units: u64,
    shader_engines: u64,
    arrays_per_engine: u64,
    simds_per_cu: u64,
    wavefront: u64,
    clock_mhz: u64,
    memory_gib: u64,
}

/// The leading integer of a table cell such as `304 (38 per XCC)`.
fn leading_number(cell: &str) -> u64 {
    let digits: String = cell.trim().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("sim-agents.md: `{cell}` does not start with a number"))
}

fn boards(path: &Path) -> BTreeMap<String, Board> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut boards = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("| gfx")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert!(cells.len() >= 11, "sim-agents.md row with {} cells: {line}", cells.len());
        // "AMD Instinct MI250X (one GCD)": the parenthesis explains, it is not part of the name.
        let name = cells[1].split(" (").next().expect("split yields one part").to_owned();
        boards.insert(
            cells[0].to_owned(),
            Board {
                marketing_name: name,
                compute_units: leading_number(cells[3]),
                shader_engines: leading_number(cells[4]),
                arrays_per_engine: leading_number(cells[5]),
                simds_per_cu: leading_number(cells[7]),
                wavefront: leading_number(cells[8]),
                clock_mhz: leading_number(cells[9]),
                memory_gib: leading_number(cells[10]),
            },
        );
    }
    boards
}

/// One `Agent N` section of rocminfo's output: its top-level fields, ISA names and pool segments.
#[derive(Debug, Default)]
struct Agent {
    fields: BTreeMap<String, String>,
    isas: Vec<String>,
    pools: Vec<String>,
    /// `Size` of each pool in KB, parallel to `pools`.
    pool_sizes_kb: Vec<u64>,
}

impl Agent {
    fn get(&self, key: &str) -> &str {
        self.fields
            .get(key)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("rocminfo printed no `{key}` for {:?}", self.fields.get("Name")))
    }
    /// `304`, `64(0x40)` → the decimal part.
    fn number(&self, key: &str) -> u64 {
        let v = self.get(key);
        v.split('(').next().unwrap_or(v).trim().parse().unwrap_or_else(|_| panic!("`{key}: {v}` is not a number"))
    }
}

fn parse_agents(stdout: &str) -> Vec<Agent> {
    let mut agents = Vec::new();
    let mut current: Option<Agent> = None;
    let mut section = "";
    let lines: Vec<&str> = stdout.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("Agent ") && i > 0 && lines[i - 1].trim().starts_with("****") {
            agents.extend(current.take());
            current = Some(Agent::default());
            section = "";
            continue;
        }
        let Some(agent) = current.as_mut() else { continue };
        let Some((key, value)) = trimmed.split_once(':') else { continue };
        let (key, value) = (key.trim(), value.trim());
        let indent = line.len() - line.trim_start().len();
        match (indent, key) {
            (2, "Pool Info") => section = "pools",
            (2, "ISA Info") => section = "isa",
            (2, "Cache Info") => section = "cache",
            (2, _) => {
                section = "";
                agent.fields.entry(key.to_owned()).or_insert_with(|| value.to_owned());
            }
            (_, "Segment") if section == "pools" => {
                agent.pools.push(value.to_owned());
                agent.pool_sizes_kb.push(0);
            }
            (_, "Size") if section == "pools" => {
                let kb = value.split('(').next().unwrap_or("").trim().parse().unwrap_or(0);
                if let Some(last) = agent.pool_sizes_kb.last_mut() {
                    *last = kb;
                }
            }
            (_, "Name") if section == "isa" => agent.isas.push(value.to_owned()),
            _ => {}
        }
    }
    agents.extend(current);
    agents
}

/// `amdgcn-amd-amdhsa--<target>` plus optional `:sramecc±` and `:xnack±`, nothing cut off
/// (rocminfo reads exactly NAME_LENGTH bytes, which must include the NUL).
fn assert_isa_name(what: &str, target: &str, isa: &str) {
    let rest = isa.strip_prefix("amdgcn-amd-amdhsa--").unwrap_or_else(|| panic!("{what}: ISA {isa}"));
    let mut parts = rest.split(':');
    assert_eq!(parts.next(), Some(target), "{what}: ISA {isa}");
    for feature in parts {
        assert!(
            ["sramecc+", "sramecc-", "xnack+", "xnack-"].contains(&feature),
            "{what}: ISA {isa} has feature `{feature}`"
        );
    }
}

fn rocminfo(stage: &Path, agents: Option<&str>, abi: &str) -> Option<Run> {
    let rocminfo = rocprof_test_inputs::program("rocminfo", "/usr/bin/rocminfo", "rocminfo")?;
    let shims = stage.join("fixtures").join("rocminfo");
    let mut cmd = Command::new(&rocminfo);
    sim_env(&mut cmd, stage, agents);
    let path = format!("{}:{}", shims.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    cmd.env("PATH", path).env("LD_PRELOAD", shims.join("libkfd_redirect.so")).env(launch::SIM_ABI, abi);
    let out = run(cmd, Duration::from_secs(60));
    out.assert_ok();
    assert!(out.stdout.contains("*** Done ***"), "rocminfo did not finish its listing:\n{}", out.stdout);
    Some(out)
}

#[test]
fn rocminfo_lists_every_configured_agent() {
    let test = "rocminfo_lists_every_configured_agent";
    let Some(stage) = stage(test) else { return };
    let Some(agents_md) = rocprof_test_inputs::shared(test, "reference/sim-agents.md") else { return };
    let boards = boards(&agents_md);
    let targets: Vec<&str> = rocprof_device::targets::names().collect();
    for abi in ["newest", "5.2"] {
        let Some(out) = rocminfo(&stage, Some(&targets.join(",")), abi) else { return };
        let agents = parse_agents(&out.stdout);
        assert_eq!(agents.len(), 1 + targets.len(), "{abi}: one CPU agent plus the GPUs:\n{}", out.stdout);
        assert_eq!(agents[0].get("Device Type"), "CPU", "{abi}: the CPU agent comes first");
        assert!(
            agents[0].pools.iter().any(|p| p.contains("KERNARG")),
            "{abi}: CPU pools {:?} lack a kernarg pool",
            agents[0].pools
        );
        for (agent, target) in agents[1..].iter().zip(targets.iter().copied()) {
            let board = &boards[target];
            let what = format!("{abi} {target}");
            assert_eq!(agent.get("Name"), target, "{what}");
            assert_eq!(agent.get("Device Type"), "GPU", "{what}");
            assert_eq!(agent.get("Vendor Name"), "AMD", "{what}");
            assert_eq!(agent.get("Marketing Name"), board.marketing_name, "{what}");
            assert_eq!(agent.number("Compute Unit"), board.compute_units, "{what}: compute units");
            assert_eq!(agent.number("Shader Engines"), board.shader_engines, "{what}: shader engines");
            assert_eq!(
                agent.number("Shader Arrs. per Eng."),
                board.arrays_per_engine,
                "{what}: shader arrays per engine"
            );
            assert_eq!(agent.number("SIMDs per CU"), board.simds_per_cu, "{what}: SIMDs per CU");
            assert_eq!(agent.number("Wavefront Size"), board.wavefront, "{what}: wavefront size");
            assert_eq!(agent.number("Max Clock Freq. (MHz)"), board.clock_mhz, "{what}: clock");
            assert_eq!(agent.get("Feature"), "KERNEL_DISPATCH", "{what}");
            assert_eq!(agent.isas.len(), 1, "{what}: ISAs {:?}", agent.isas);
            assert_isa_name(&what, target, &agent.isas[0]);
            let vram = agent
                .pools
                .iter()
                .position(|p| p.starts_with("GLOBAL") && p.contains("COARSE GRAINED"))
                .unwrap_or_else(|| panic!("{what}: no coarse-grained global pool in {:?}", agent.pools));
            assert_eq!(agent.pool_sizes_kb[vram], board.memory_gib * 1024 * 1024, "{what}: VRAM pool size in KB");
            assert!(
                agent.pools.iter().any(|p| p == "GROUP"),
                "{what}: pools {:?} lack the LDS (GROUP) pool",
                agent.pools
            );
        }
    }
}

#[test]
fn rocminfo_default_is_cpu_and_one_gfx942() {
    let Some(stage) = stage("rocminfo_default_is_cpu_and_one_gfx942") else { return };
    let Some(out) = rocminfo(&stage, None, "newest") else { return };
    let agents = parse_agents(&out.stdout);
    let names: Vec<&str> = agents.iter().map(|a| a.get("Device Type")).collect();
    assert_eq!(names, ["CPU", "GPU"], "{}", out.stdout);
    assert_eq!(agents[1].get("Name"), "gfx942");
}

#[test]
fn rocminfo_output_parser_reads_a_real_listing() {
    // A trimmed listing in Debian rocminfo 5.2.3's layout, so the parser itself is tested on
    // machines without a stage.
    let text = [
        "*******                  ",
        "Agent 1                  ",
        "*******                  ",
        "  Name:                    Sim CPU",
        "  Device Type:             CPU                                ",
        "  Pool Info:               ",
        "    Pool 1                   ",
        "      Segment:                 GLOBAL; FLAGS: KERNARG, FINE GRAINED",
        "  ISA Info:                ",
        "*******                  ",
        "Agent 2                  ",
        "*******                  ",
        "  Name:                    gfx942                             ",
        "  Compute Unit:            304                                ",
        "  Wavefront Size:          64(0x40)                           ",
        "  Pool Info:               ",
        "    Pool 1                   ",
        "      Segment:                 GLOBAL; FLAGS: COARSE GRAINED      ",
        "      Size:                    201326592(0xc000000) KB            ",
        "    Pool 2                   ",
        "      Segment:                 GROUP                              ",
        "  ISA Info:                ",
        "    ISA 1                    ",
        "      Name:                    amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
        "*** Done ***",
    ]
    .join("\n");
    let agents = parse_agents(&text);
    assert_eq!(agents.len(), 2);
    assert_eq!(agents[0].pools, ["GLOBAL; FLAGS: KERNARG, FINE GRAINED"]);
    assert_eq!(agents[0].pool_sizes_kb, [0]);
    assert!(agents[0].isas.is_empty());
    assert_eq!(agents[1].get("Name"), "gfx942");
    assert_eq!(agents[1].number("Compute Unit"), 304);
    assert_eq!(agents[1].number("Wavefront Size"), 64);
    assert_eq!(agents[1].pools, ["GLOBAL; FLAGS: COARSE GRAINED", "GROUP"]);
    assert_eq!(agents[1].pool_sizes_kb, [201326592, 0]);
    assert_isa_name("parser", "gfx942", &agents[1].isas[0]);
    assert_eq!(agents[1].isas, ["amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"]);
}
