//! Every crate that knows GPU targets takes them from the targets crate (`rocprof-targets`): the
//! decoder's opcode tables, the packet builders' block tables, the counter database, hsa-sim's board
//! models and the thread-trace families all list exactly its targets; and through the staged
//! binaries, the CLI's `--simulate` check, hsa-sim's agents, the interception library's agent
//! records and the CLI's counter listing. Adding a target touches the targets crate and its
//! reference data; these tests name the crate that was left behind.

use rocprof_e2e::{profile, scratch, ScratchGuard};
use rocprof_targets::{Family, TARGETS};

#[test]
fn every_crate_knows_exactly_the_targets_crate_targets() {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    for t in TARGETS {
        let isa = rocprof_isa::Target::find(t.name).expect("isa target");
        assert_eq!(isa, t, "isa: {}", t.name);
        assert!(rocprof_isa::table::table(isa.table).is_some(), "isa: no opcode table for {}", t.name);

        let pt = rocprof_packets::Target::from_name(t.name).expect("packets target");
        assert_eq!(rocprof_packets::blocks(pt), t.blocks, "packets: {}", t.name);

        let db = rocprof_counters::Database::builtin().target(t.name).expect("counter database target");
        assert_eq!(db.family, t.family, "counters: {}", t.name);
        for b in t.blocks {
            assert!(db.block(b.name).is_some(), "counters: {} has no block {}", t.name, b.name);
        }

        let m = rocprof_device::targets::find(t.name).expect("hsa-sim model");
        assert_eq!(*m, t.model, "device: {}", t.name);

        let sqtt = rocprof_sqtt::Family::from_target(t.name);
        assert_eq!(sqtt.is_some(), t.family != Family::Gfx10, "sqtt: {}", t.name);
    }
    let db: Vec<&str> = rocprof_counters::Database::builtin().targets().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(db, names, "the counter database lists other targets");
    assert_eq!(rocprof_device::targets::names().collect::<Vec<_>>(), names, "hsa-sim lists other targets");
}

#[test]
fn simulating_every_targets_crate_target_lists_each_as_an_agent_with_counters() {
    // cli (`--simulate` is checked against the targets table), sim-hsa (one agent per target),
    // intercept (the agent records of the capture) and the CLI's `-L` listing (agents, then each
    // GPU's counters, rocprofv3-avail's `Name:<gfx>` heading).
    let test = "simulating_every_targets_crate_target_lists_each_as_an_agent_with_counters";
    let Some(stage) = rocprof_e2e::stage(test) else { return };
    let Some(app) = stage.fixture("vector_add", test) else { return };
    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    let out = scratch("targets-listed");
    let _guard = ScratchGuard(out.clone());
    let out_s = out.display().to_string();
    let all = names.join(",");
    let run = profile(&stage, &["--simulate", &all, "-L", "-d", &out_s], &app, &["1"], &[]);
    assert!(run.status.success(), "{}", run.transcript());
    let agents: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("Agent") && w.nth(1) == Some("GPU")).then(|| w.next()).flatten()
        })
        .collect();
    assert_eq!(agents, names, "agents listed by -L:\n{}", run.stdout);
    let headed: Vec<&str> = run.stdout.lines().filter_map(|l| l.strip_prefix("Name:")).collect();
    assert_eq!(headed, names, "GPUs whose counters -L lists");
}
