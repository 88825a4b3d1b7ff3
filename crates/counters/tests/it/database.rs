//! Whole-database checks: every counter of every target plans and evaluates.

use rocprof_counters::{
    counter_dimensions, evaluate, plan, AccumulateMode, CounterKind, Database, Error, Samples, Values,
};

use crate::agent;

/// Every base counter filled with 1.0 (plain and in both accumulation modes).
fn ones(target: &str) -> Samples {
    let db = Database::builtin();
    let a = agent(target);
    let mut s = Samples::new();
    for c in &db.target(target).unwrap().counters {
        if let CounterKind::Base { .. } = c.kind {
            let dims = counter_dimensions(db, &a, &c.name).unwrap();
            let n = rocprof_counters::element_count(&dims);
            let v = Values::new(dims, vec![1.0; n]).unwrap();
            s.insert_accumulated(&c.name, AccumulateMode::LowRes, v.clone());
            s.insert_accumulated(&c.name, AccumulateMode::HighRes, v.clone());
            s.insert(&c.name, v);
        }
    }
    s
}

#[test]
fn every_counter_plans_and_evaluates_on_every_target() {
    let db = Database::builtin();
    let mut planned = 0;
    for t in db.targets() {
        let a = agent(&t.name);
        let s = ones(&t.name);
        for c in &t.counters {
            match plan(&a, &[c.name.as_str()]) {
                Ok(p) => {
                    assert_eq!(p.passes.len(), 1, "{} {}", t.name, c.name);
                    planned += 1;
                }
                Err(e) => panic!("{} {}: {e}", t.name, c.name),
            }
            let v = evaluate(t, &a, &c.name, &s).unwrap_or_else(|e| panic!("{e}"));
            let dims = counter_dimensions(db, &a, &c.name).unwrap();
            assert_eq!(v.data().len(), rocprof_counters::element_count(&dims), "{} {}", t.name, c.name);
            assert!(v.data().iter().all(|x| x.is_finite()), "{} {}", t.name, c.name);
        }
    }
    assert_eq!(planned, 386 + 473 + 419 + 628 + 89 + 80 + 58);
}

#[test]
fn all_gfx942_sq_counters_need_ceil_n_over_8_passes() {
    // Plain SQ hardware counters are independent, so n of them need ceil(n / 8) passes.
    let db = Database::builtin();
    let t = db.target("gfx942").unwrap();
    let sq: Vec<&str> = t
        .counters
        .iter()
        .filter(|c| matches!(&c.kind, CounterKind::Base { block, .. } if block == "SQ"))
        .map(|c| c.name.as_str())
        .take(30)
        .collect();
    assert_eq!(sq.len(), 30);
    let p = plan(&agent("gfx942"), &sq).unwrap();
    assert_eq!(p.passes.len(), 4);
    assert!(p.passes.iter().all(|x| x.usage.iter().all(|u| u.used <= 8)));
    let e = plan(&agent("gfx942"), &["SQ_WAVES", "SQ_WAVES:device=0"]).unwrap_err();
    assert!(matches!(e, Error::Request { .. }), "names must be split with parse_pmc_items first");
}
