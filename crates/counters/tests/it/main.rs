//! Integration tests of rocprof-counters: derived metrics evaluated on hand-made samples for
//! gfx9, gfx11 and gfx12 targets, the pass planner, the `--list-avail` API, and a robustness
//! test that feeds the parser random token soup.

mod database;
mod derived;
mod listing;
mod packets;
mod planner;
mod robustness;

use rocprof_counters::{counter_dimensions, evaluate, Agent, Database, Samples, Values};

/// The reference agent of `target` (the boards in `sim-agents.md`).
pub(crate) fn agent(target: &str) -> Agent {
    Agent::reference(target).unwrap()
}

/// Records `values` for hardware counter `counter`, laid out by its real dimensions on `agent`.
pub(crate) fn put(s: &mut Samples, agent: &Agent, counter: &str, values: Vec<f64>) {
    let dims = counter_dimensions(Database::builtin(), agent, counter).unwrap();
    s.insert_with(counter, dims, values).unwrap();
}

/// Records the same value on every instance of `counter`; returns how many values that was.
pub(crate) fn put_all(s: &mut Samples, agent: &Agent, counter: &str, value: f64) -> usize {
    let n = count(agent, counter);
    put(s, agent, counter, vec![value; n]);
    n
}

/// Number of values `counter` has on `agent`.
pub(crate) fn count(agent: &Agent, counter: &str) -> usize {
    let dims = counter_dimensions(Database::builtin(), agent, counter).unwrap();
    rocprof_counters::element_count(&dims)
}

/// Evaluates `counter` and returns all values.
pub(crate) fn eval(agent: &Agent, s: &Samples, counter: &str) -> Values {
    let db = Database::builtin();
    evaluate(db.target(&agent.target).unwrap(), agent, counter, s).unwrap()
}

/// Evaluates `counter` and returns its single value.
pub(crate) fn eval1(agent: &Agent, s: &Samples, counter: &str) -> f64 {
    let v = eval(agent, s, counter);
    v.as_scalar().unwrap_or_else(|| panic!("{counter} is not a single value: {v:?}"))
}

/// Asserts two floats agree to 1e-9 relative.
#[track_caller]
pub(crate) fn close(got: f64, want: f64) {
    assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "got {got}, want {want}");
}
