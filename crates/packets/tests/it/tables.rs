//! Cross-checks the compiled-in block tables against the reference dump of
//! aqlprofile's tables (`../shared/reference/pm4-block-tables.json`): every
//! block, instance count, counter count, attribute, select encoding, sample
//! count and register address must agree. Skips when the dump is absent (fails under `CI=true`).

use rocprof_packets::{blocks, Agent, BlockGeometry, Target};
use serde_json::Value;

use crate::util::num;

#[test]
fn block_tables_match_reference_dump() {
    let test = "block_tables_match_reference_dump";
    let Some(path) = rocprof_test_inputs::shared(test, "reference/pm4-block-tables.json") else { return };
    let text = std::fs::read_to_string(&path).expect("read block table dump");
    let dump: Value = serde_json::from_str(&text).expect("parse block table dump");
    let mut checked = 0;
    for target in Target::all() {
        let t = &dump["targets"][target.name()];
        let a = &t["agent"];
        let f = |k: &str| num(&a[k]).expect("agent field") as u32;
        let agent = Agent::new(target, f("cu_num"), f("se_num"), f("shader_arrays_per_se"), f("xcc_num")).unwrap();
        assert_eq!(Some(u64::from(agent.wgp_per_sa())), num(&t["wgp_per_sa_used_by_pmc"]), "{target} wgp_per_sa");
        let want = t["blocks"].as_array().expect("blocks array");
        let ours = blocks(target);
        assert_eq!(ours.len(), want.len(), "{target}: block count");
        for (b, w) in ours.iter().zip(want) {
            let ctx = format!("{target} {}", b.name);
            assert_eq!(Some(b.name), w["name"].as_str(), "{ctx}: name");
            assert_eq!(Some(u64::from(b.block_enum)), num(&w["block_enum"]), "{ctx}: enum");
            assert_eq!(Some(u64::from(b.instances)), num(&w["instances"]), "{ctx}: instances");
            assert_eq!(Some(u64::from(b.counters)), num(&w["counters"]), "{ctx}: counters");
            assert_eq!(Some(u64::from(b.event_id_max)), num(&w["event_id_max"]), "{ctx}: event_id_max");
            assert_eq!(Some(u64::from(b.attr)), num(&w["attr"]), "{ctx}: attr");
            assert_eq!(
                Some(u64::from(b.samples_per_xcc(&agent))),
                num(&w["samples_per_xcc_per_instance"]),
                "{ctx}: samples"
            );
            let regs = w["registers"].as_array().expect("registers");
            let rows = if b.has(rocprof_packets::block::attr::EXPL_INST) { b.instances } else { 1 };
            assert_eq!(regs.len() as u32, rows * b.counters, "{ctx}: register rows");
            assert_eq!(Some(u64::from(b.select_value(1))), num(&w["select_value_event1"]), "{ctx}: select(1)");
            assert_eq!(
                Some(u64::from(b.select_value(0x3FF))),
                num(&w["select_value_event3ff"]),
                "{ctx}: select(0x3ff)"
            );
            for (i, (r, wr)) in b.counter_registers().iter().zip(regs).enumerate() {
                let field = |k: &str| num(&wr[k]).unwrap_or(0) as u32;
                assert_eq!(
                    (r.select, r.control, r.lo, r.hi),
                    (field("sel"), field("ctl"), field("lo"), field("hi")),
                    "{ctx}: registers of row {i}"
                );
            }
            checked += 1;
        }
    }
    println!("block tables: {checked} blocks agree with the reference dump");
    assert!(checked > 100);
}
