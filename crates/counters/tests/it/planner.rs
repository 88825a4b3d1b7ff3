//! The pass planner: rejections with clear messages, slot accounting, splitting into passes.

use rocprof_counters::{plan, plan_with, AccumulateMode, Agent, Database, Error};

use crate::agent;

const SQ_TEN: [&str; 10] = [
    "SQ_WAVES",
    "SQ_INSTS_VALU",
    "SQ_INSTS_SALU",
    "SQ_INSTS_SMEM",
    "SQ_INSTS_LDS",
    "SQ_INSTS_GDS",
    "SQ_INSTS_FLAT",
    "SQ_WAIT_ANY",
    "SQ_WAVE_CYCLES",
    "SQ_BUSY_CYCLES",
];

#[test]
fn unknown_counter_is_rejected_naming_counter_and_target() {
    let e = plan(&agent("gfx942"), &["SQ_WAVES", "NOT_A_COUNTER"]).unwrap_err();
    assert_eq!(e.to_string(), "cannot collect the requested counters on gfx942: unknown counter NOT_A_COUNTER");
    match e {
        Error::Request { target, problems } => {
            assert_eq!(target, "gfx942");
            assert!(matches!(&problems[..], [Error::UnknownCounter { counter, .. }] if counter == "NOT_A_COUNTER"));
        }
        other => panic!("{other:?}"),
    }
    // A near miss gets a suggestion.
    let e = plan(&agent("gfx1100"), &["GRBM_CONT"]).unwrap_err().to_string();
    assert!(e.ends_with("unknown counter GRBM_CONT (did you mean GRBM_COUNT?)"), "{e}");
}

#[test]
fn counter_of_another_target_is_rejected_naming_both() {
    let e = plan(&agent("gfx1100"), &["TCC_HIT", "SQ_WAVES"]).unwrap_err().to_string();
    assert_eq!(
        e,
        "cannot collect the requested counters on gfx1100: counter TCC_HIT is not available on gfx1100 \
         (it is defined for gfx908, gfx90a, gfx942, gfx950)"
    );
    // Derived counters too; and every problem of a request is reported at once.
    let e = plan(&agent("gfx1201"), &["MfmaFlops", "BOGUS", "GPU_UTIL"]).unwrap_err();
    let Error::Request { problems, .. } = &e else { panic!("{e:?}") };
    assert_eq!(problems.len(), 2);
    assert!(
        matches!(&problems[0], Error::UnavailableOnTarget { counter, target, .. } if counter == "MfmaFlops" && target == "gfx1201")
    );
    assert!(matches!(&problems[1], Error::UnknownCounter { counter, .. } if counter == "BOGUS"));
}

#[test]
fn unknown_target_is_an_error() {
    let mut a = agent("gfx1100");
    a.target = "gfx1101".into();
    let e = plan(&a, &["SQ_WAVES"]).unwrap_err();
    assert!(matches!(e, Error::UnknownTarget { .. }), "{e}");
}

#[test]
fn derived_counters_share_events_in_one_pass() {
    // GPU_UTIL needs GRBM_GUI_ACTIVE and GRBM_COUNT: with both also requested, GRBM uses 2 of 2.
    let p = plan(&agent("gfx90a"), &["GPU_UTIL", "GRBM_COUNT", "GRBM_GUI_ACTIVE"]).unwrap();
    assert!(p.is_single_pass());
    assert_eq!(p.passes[0].events.len(), 2);
    let grbm = p.passes[0].usage.iter().find(|u| u.block == "GRBM").unwrap();
    assert_eq!((grbm.used, grbm.slots), (2, 2));
    assert_eq!(p.placements[0].reason, "pass 1: needs slots GRBM 2/2");
}

#[test]
fn oversized_sq_set_splits_into_two_passes_with_reasons() {
    // Ten SQ counters, eight SQ slots: 8 + 2.
    let p = plan(&agent("gfx942"), &SQ_TEN).unwrap();
    assert_eq!(p.passes.len(), 2);
    assert_eq!(p.passes[0].counters, &SQ_TEN[..8]);
    assert_eq!(p.passes[1].counters, &SQ_TEN[8..]);
    let ninth = &p.placements[8];
    assert_eq!((ninth.counter.as_str(), ninth.pass), ("SQ_WAVE_CYCLES", 1));
    assert_eq!(ninth.reason, "pass 2: needs slots SQ 1/8; pass 1 would need 9 of 8 SQ slots");
    // Every event of the plan carries what the packet builder needs.
    let ev = &p.passes[0].events[0];
    assert_eq!((ev.block.as_str(), ev.block_enum, ev.instances, ev.accumulate), ("SQ", 6, 1, AccumulateMode::None));
}

#[test]
fn grbm_limit_of_two_gives_three_passes() {
    let names = ["GRBM_COUNT", "GRBM_GUI_ACTIVE", "GRBM_CP_BUSY", "GRBM_SPI_BUSY", "GRBM_TA_BUSY"];
    let p = plan(&agent("gfx90a"), &names).unwrap();
    assert_eq!(p.passes.len(), 3);
    assert_eq!(p.passes.iter().map(|x| x.counters.len()).collect::<Vec<_>>(), [2, 2, 1]);
    assert!(p.placements[4].reason.contains("pass 1 would need 3 of 2 GRBM slots"), "{}", p.placements[4].reason);
    assert!(p.placements[4].reason.contains("pass 2 would need 3 of 2 GRBM slots"), "{}", p.placements[4].reason);
}

#[test]
fn accumulation_takes_an_extra_internal_slot() {
    // MeanOccupancyPerCU = SQ_LEVEL_WAVES (HIGH_RES) + its internal plain copy + GRBM_GUI_ACTIVE.
    // With 6 more SQ counters: 2 + 6 = 8 SQ slots, one pass.
    let a = agent("gfx942");
    let mut req = vec!["MeanOccupancyPerCU"];
    req.extend_from_slice(&SQ_TEN[..6]);
    let p = plan(&a, &req).unwrap();
    assert_eq!(p.passes.len(), 1);
    assert_eq!(p.passes[0].usage.iter().find(|u| u.block == "SQ").unwrap().used, 8);
    assert!(p.passes[0]
        .events
        .iter()
        .any(|e| e.counter == "SQ_LEVEL_WAVES" && e.accumulate == AccumulateMode::HighRes));
    // One more plain SQ counter: 9 slots, two passes.
    req.push(SQ_TEN[6]);
    assert_eq!(plan(&a, &req).unwrap().passes.len(), 2);
    // If the plain SQ_LEVEL_WAVES is requested as well, it serves as the copy: 8 slots again.
    let mut req = vec!["MeanOccupancyPerCU", "SQ_LEVEL_WAVES"];
    req.extend_from_slice(&SQ_TEN[..6]);
    let p = plan(&a, &req).unwrap();
    assert_eq!((p.passes.len(), p.passes[0].usage.iter().find(|u| u.block == "SQ").unwrap().used), (1, 8));
}

#[test]
fn events_beyond_the_block_table_warn() {
    // counter_defs lists SQC_DCACHE_REQ_READ_1 as SQ event 323 on gfx908, but aqlprofile's
    // gfx908 SQ table ends at 303.
    let p = plan(&agent("gfx908"), &["SQC_DCACHE_REQ_READ_1", "SQ_WAVES"]).unwrap();
    assert_eq!(p.warnings.len(), 1);
    assert!(
        p.warnings[0].contains("SQ event 323, above the highest event in aqlprofile's gfx908 table (303)"),
        "{}",
        p.warnings[0]
    );
    assert!(plan(&agent("gfx942"), &["SQC_DCACHE_REQ_READ_1"]).unwrap().warnings.is_empty());
}

/// A small hand-made database to reach cases the shipped definitions do not contain.
fn custom_db() -> Database {
    let mut text = String::from(
        "format 1\n\
         target gfx1201 family=gfx12 xcc=1 se=4 sa_per_se=2 cu=64 simd_per_cu=2 wave=32\n\
         block SQ enum=6 instances=1 counters=16 attr=0x120006 event_max=511\n\
         block GRBM enum=3 instances=1 counters=2 attr=0x8001 event_max=51\n\
         base SQ_LEVEL_WAVES SQ 5\n\
         base GRBM_A GRBM 1\nbase GRBM_B GRBM 2\nbase GRBM_C GRBM 3\n\
         derived Occ reduce(accumulate(SQ_LEVEL_WAVES,HIGH_RES),sum)\n\
         derived ThreeGrbm GRBM_A+GRBM_B+GRBM_C\n\
         derived Loop1 Loop2+1\nderived Loop2 Loop1*2\n\
         end\n\
         target gfx908 family=gfx9 xcc=1 se=8 sa_per_se=1 cu=120 simd_per_cu=4 wave=64\n\
         block X enum=99 instances=1 counters=10 attr=0x1 event_max=100\n",
    );
    for i in 1..=20 {
        text.push_str(&format!("base E{i} X {i}\n"));
    }
    text.push_str(
        "derived D5 E1+E2+E3+E4+E5\nderived D4 E6+E7+E8+E9\nderived D3a E10+E11+E12\n\
         derived D3b E13+E14+E15\nderived D3c E16+E17+E18\nderived D2 E19+E20\nend\n",
    );
    Database::parse(&text).unwrap()
}

fn custom_agent(db: &Database, target: &str) -> Agent {
    db.target(target).unwrap().reference_agent.clone()
}

#[test]
fn counter_larger_than_a_block_is_rejected() {
    let db = custom_db();
    let e = plan_with(&db, &custom_agent(&db, "gfx1201"), &["ThreeGrbm"]).unwrap_err().to_string();
    assert_eq!(
        e,
        "cannot collect the requested counters on gfx1201: counter ThreeGrbm cannot be collected on gfx1201 \
         in any single pass: it needs 3 GRBM counter slots and the block has 2"
    );
}

#[test]
fn accumulation_is_rejected_on_gfx12() {
    let db = custom_db();
    let e = plan_with(&db, &custom_agent(&db, "gfx1201"), &["Occ"]).unwrap_err().to_string();
    assert!(e.contains("counter Occ is not supported on gfx1201: SQ accumulation (HIGH_RES of SQ_LEVEL_WAVES) is not available on gfx12"), "{e}");
}

#[test]
fn self_referencing_definitions_are_errors_not_hangs() {
    let db = custom_db();
    let e = plan_with(&db, &custom_agent(&db, "gfx1201"), &["Loop1"]).unwrap_err().to_string();
    assert!(e.contains("is defined in terms of itself"), "{e}");
}

#[test]
fn search_beats_first_fit() {
    // Ten slots; disjoint counters needing 5, 4, 3, 3, 3 and 2 slots (20 in total).
    // First-fit by decreasing size packs {5,4}, {3,3,3}, {2}: three passes. Two suffice:
    // {5,3,2} and {4,3,3}.
    let db = custom_db();
    let req = ["D5", "D4", "D3a", "D3b", "D3c", "D2"];
    let p = plan_with(&db, &custom_agent(&db, "gfx908"), &req).unwrap();
    assert_eq!(p.passes.len(), 2, "{:#?}", p.passes);
    for pass in &p.passes {
        assert_eq!(pass.usage[0].used, 10);
    }
}

#[test]
fn events_carry_the_instance_count_aqlprofile_reports() {
    // gfx9 texture blocks stop at CUs per shader array + 1: gfx908 min(16, 15+1) = 16,
    // gfx90a min(16, 14+1) = 15, gfx942 min(16, 10+1) = 11. TCC keeps its table count.
    for (target, ta) in [("gfx908", 16), ("gfx90a", 15), ("gfx942", 11)] {
        let p = plan(&agent(target), &["TA_TA_BUSY", "TCC_HIT"]).unwrap();
        let inst = |c: &str| p.passes[0].events.iter().find(|e| e.counter == c).unwrap().instances;
        assert_eq!(inst("TA_TA_BUSY"), ta, "{target}");
    }
    let p = plan(&agent("gfx942"), &["TCC_HIT"]).unwrap();
    assert_eq!(p.passes[0].events[0].instances, 16);
}

/// gfx1201's SQ register table has 8 rows although the block claims 16 counters: nine SQ counters
/// need two passes there (see the packets crate's notes), eight fit one.
#[test]
fn gfx1201_sq_is_capped_at_eight_counters_per_pass() {
    let agent = Agent::reference("gfx1201").unwrap();
    let names = [
        "SQ_BUSY_CYCLES",
        "SQ_INSTS_FLAT",
        "SQ_INSTS_LDS",
        "SQ_INSTS_SALU",
        "SQ_INSTS_SMEM",
        "SQ_INSTS_TEX_LOAD",
        "SQ_INSTS_TEX_STORE",
        "SQ_INSTS_VALU",
        "SQ_INSTS_WAVE32",
    ];
    let p = plan(&agent, &names).unwrap();
    assert_eq!(p.passes.len(), 2, "{:?}", p.passes.iter().map(|x| &x.counters).collect::<Vec<_>>());
    assert!(p.passes.iter().all(|x| x.usage.iter().all(|u| u.block != "SQ" || (u.used <= 8 && u.slots == 8))));
    assert!(plan(&agent, &names[..8]).unwrap().is_single_pass());
}

#[test]
fn every_plans_hardware_events_come_back_from_its_recorded_events_and_sources() {
    // What post-processing reads from a capture (the programmed events and what each samples) must
    // give back the planner's hardware events, instance counts and accumulation modes included.
    let db = Database::builtin();
    let mut compared = 0;
    for t in db.targets() {
        for c in &t.counters {
            let Ok(p) = plan_with(db, &t.reference_agent, &[c.name.as_str()]) else { continue };
            for pass in &p.passes {
                let events = rocprof_counters::pass_events(&pass.events);
                let sources = rocprof_counters::pass_sources(&pass.events);
                let mut want = pass.events.clone();
                for e in &mut want {
                    e.instances = e.instances.max(1);
                }
                assert_eq!(rocprof_counters::recorded_events(&events, &sources), Some(want), "{} {}", t.name, c.name);
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    let one = rocprof_counters::pass_events(
        &plan_with(db, &db.targets()[0].reference_agent, &["SQ_WAVES"]).unwrap().passes[0].events,
    );
    assert_eq!(rocprof_counters::recorded_events(&one, &[]), None);
}
