//! The pass planner: before anything runs, checks a counter request against an agent and
//! splits it into as few passes as it can find.
//!
//! Each requested counter becomes the set of hardware events it needs (derived counters are
//! expanded recursively; `accumulate(X, MODE)` is the SQ event X with the accumulation flag).
//! A pass is feasible when, on every block, the distinct events fit the block's counter slots
//! per instance (all instances of a block are programmed alike, so one instance decides).
//! Slot rules from aqlprofile (`pm4-pmc-sqtt.md` section 5): an SQ event with an accumulation
//! flag also needs an internal plain copy unless the plain event is requested too; SPI
//! "special" events (id >= 0x1000000) take no slot; on gfx9 `SQ_CS` shares the SQ slots.
//! A requested counter is never split across passes, since its value needs all its events from
//! the same dispatch.
//!
//! Packing: first-fit by decreasing slot need, then, if that is above the simple lower bound
//! (per block, total slots needed / slots available), an exhaustive search bounded to 20 000
//! nodes (deterministic, under 0.1 s in release for 32 counters). Finally
//! every counter is moved to the earliest pass it fits in, so "why is X in pass 3" always has
//! an answer naming the full block in each earlier pass.

use std::collections::{BTreeMap, BTreeSet};

use crate::db::{Agent, Block, CounterKind, Database, Family, Target, AGENT_PROPERTIES};
use crate::error::{Error, Result};
use crate::expr::{AccumulateMode, Expr};
use crate::layout::{attr, block_instances, SPI_SPECIAL_EVENT};

/// One hardware event a pass programs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HwEvent {
    /// The hardware counter's name (e.g. `SQ_WAVES`).
    pub counter: String,
    /// Block table name.
    pub block: String,
    /// aqlprofile block enum.
    pub block_enum: u32,
    /// Event id.
    pub event: u32,
    /// Number of block instances to program on this agent (one event per instance, block
    /// indices `0..instances`); see [`crate::block_instances`].
    pub instances: u32,
    /// SQ accumulation mode (`AccumulateMode::None` for plain counting).
    pub accumulate: AccumulateMode,
}

/// Slot use of one block in one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockUsage {
    /// Block (slot pool) name.
    pub block: String,
    /// Slots used per instance, internal accumulation copies included.
    pub used: u32,
    /// Slots available per instance.
    pub slots: u32,
}

/// One pass: a set of requested counters collected together.
#[derive(Debug, Clone, PartialEq)]
pub struct Pass {
    /// Requested counters collected in this pass, in request order.
    pub counters: Vec<String>,
    /// Hardware events to program, in first-use order.
    pub events: Vec<HwEvent>,
    /// Slot use per block, in block-table order.
    pub usage: Vec<BlockUsage>,
}

/// Where a requested counter goes and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The requested counter.
    pub counter: String,
    /// Index into [`Plan::passes`] (0-based).
    pub pass: usize,
    /// Hardware events this counter needs.
    pub events: Vec<HwEvent>,
    /// One sentence: the blocks it uses, and for a later pass, which block was full in each
    /// earlier pass.
    pub reason: String,
}

/// The result of planning a request on one agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The agent's target.
    pub target: String,
    /// Passes, at least one when anything was requested.
    pub passes: Vec<Pass>,
    /// One entry per distinct requested counter, in request order.
    pub placements: Vec<Placement>,
    /// Things that will run but deserve a warning (e.g. event ids beyond aqlprofile's table).
    pub warnings: Vec<String>,
}

impl Plan {
    /// True when everything fits in a single pass.
    pub fn is_single_pass(&self) -> bool {
        self.passes.len() <= 1
    }
}

/// Plans `requested` counters for `agent` with the built-in database.
pub fn plan(agent: &Agent, requested: &[&str]) -> Result<Plan> {
    plan_with(Database::builtin(), agent, requested)
}

/// Plans `requested` counters for `agent` with database `db`.
///
/// Errors: [`Error::UnknownTarget`], or [`Error::Request`] listing every unknown counter,
/// counter missing on the target, unsupported feature and counter too large for any pass.
pub fn plan_with(db: &Database, agent: &Agent, requested: &[&str]) -> Result<Plan> {
    let target = db.target(&agent.target)?;
    let mut names: Vec<&str> = Vec::new();
    for n in requested {
        if !names.contains(n) {
            names.push(n);
        }
    }

    let mut problems = Vec::new();
    let mut items: Vec<(String, BTreeSet<HwEvent>)> = Vec::new();
    let mut warnings = Vec::new();
    for name in &names {
        if let Err(e) = db.resolve(&target.name, name) {
            problems.push(e);
            continue;
        }
        let mut events = BTreeSet::new();
        let mut stack = Vec::new();
        if let Err(e) = collect_events(target, agent, name, name, &mut stack, &mut events) {
            problems.push(e);
            continue;
        }
        let usage = usage(target, events.iter());
        if let Some((pool, used, slots)) = usage.iter().find(|(_, used, slots)| used > slots) {
            problems.push(Error::ExceedsHardware {
                counter: name.to_string(),
                target: target.name.clone(),
                block: pool.clone(),
                needed: *used,
                slots: *slots,
            });
            continue;
        }
        for ev in &events {
            let block = target.block(&ev.block).expect("events come from the target's blocks");
            if ev.event > block.event_max && ev.event < SPI_SPECIAL_EVENT {
                let w = format!(
                    "{} uses {} event {}, above the highest event in aqlprofile's {} table ({}); it may read zero",
                    ev.counter, ev.block, ev.event, target.name, block.event_max
                );
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
        }
        items.push((name.to_string(), events));
    }
    if !problems.is_empty() {
        return Err(Error::Request { target: target.name.clone(), problems });
    }

    let assignment = pack(target, &items);
    Ok(build_plan(target, &items, assignment, warnings))
}

/// Adds the hardware events `name` needs to `out`.
fn collect_events(
    target: &Target,
    agent: &Agent,
    requested: &str,
    name: &str,
    stack: &mut Vec<String>,
    out: &mut BTreeSet<HwEvent>,
) -> Result<()> {
    let fail = |message: String| Error::Eval { counter: requested.to_string(), target: target.name.clone(), message };
    let Some(counter) = target.counter(name) else {
        if AGENT_PROPERTIES.contains(&name) {
            return Ok(());
        }
        return Err(fail(format!("its definition uses {name}, which is neither a counter nor an agent property")));
    };
    match &counter.kind {
        CounterKind::Base { block, event } => {
            out.insert(hw_event(target, agent, name, block, *event, AccumulateMode::None));
            Ok(())
        }
        CounterKind::Derived { expr, .. } => {
            if stack.iter().any(|s| s == name) || stack.len() > 64 {
                return Err(fail(format!("{name} is defined in terms of itself")));
            }
            stack.push(name.to_string());
            let r = collect_expr(target, agent, requested, expr, stack, out);
            stack.pop();
            r
        }
    }
}

fn collect_expr(
    target: &Target,
    agent: &Agent,
    requested: &str,
    expr: &Expr,
    stack: &mut Vec<String>,
    out: &mut BTreeSet<HwEvent>,
) -> Result<()> {
    match expr {
        Expr::Number(_) => Ok(()),
        Expr::Name(n) => collect_events(target, agent, requested, n, stack, out),
        Expr::Binary(_, a, b) => {
            collect_expr(target, agent, requested, a, stack, out)?;
            collect_expr(target, agent, requested, b, stack, out)
        }
        Expr::Reduce { arg, .. } | Expr::Select { arg, .. } => collect_expr(target, agent, requested, arg, stack, out),
        Expr::Accumulate { counter, mode } => {
            let unsupported = |reason: String| Error::Unsupported {
                counter: requested.to_string(),
                target: target.name.clone(),
                reason,
            };
            let (block, event) = match target.counter(counter).map(|c| &c.kind) {
                Some(CounterKind::Base { block, event }) => (block, *event),
                _ => return Err(unsupported(format!("accumulate() needs a hardware counter, {counter} is not one"))),
            };
            if *mode != AccumulateMode::None {
                if block != "SQ" {
                    return Err(unsupported(format!(
                        "accumulate() works on SQ counters only, {counter} is a {block} counter"
                    )));
                }
                if target.family == Family::Gfx12 {
                    return Err(unsupported(format!(
                        "SQ accumulation ({} of {counter}) is not available on gfx12; aqlprofile rejects it",
                        mode.keyword()
                    )));
                }
            }
            out.insert(hw_event(target, agent, counter, block, event, *mode));
            Ok(())
        }
    }
}

fn hw_event(
    target: &Target,
    agent: &Agent,
    counter: &str,
    block: &str,
    event: u32,
    accumulate: AccumulateMode,
) -> HwEvent {
    let b = target.block(block).expect("database blocks are checked at load");
    HwEvent {
        counter: counter.to_string(),
        block: block.to_string(),
        block_enum: b.enum_id,
        event,
        instances: block_instances(target.family, b, agent),
        accumulate,
    }
}

/// The slot pool a block draws from: gfx9 `SQ_CS` is an alias of SQ (same internal id).
fn pool<'a>(target: &'a Target, block: &'a str) -> &'a str {
    if target.family == Family::Gfx9 && block == "SQ_CS" {
        "SQ"
    } else {
        block
    }
}

/// Slots used per pool by a set of events: `(pool, used, slots)` in block-table order.
fn usage<'a>(target: &Target, events: impl Iterator<Item = &'a HwEvent>) -> Vec<(String, u32, u32)> {
    let mut per_pool: BTreeMap<&str, BTreeSet<(u32, AccumulateMode)>> = BTreeMap::new();
    for ev in events {
        let b: &Block = target.block(&ev.block).expect("events come from the target's blocks");
        if b.attr & attr::SPI != 0 && ev.event >= SPI_SPECIAL_EVENT {
            continue;
        }
        per_pool.entry(pool(target, &ev.block)).or_default().insert((ev.event, ev.accumulate));
    }
    let mut out = Vec::new();
    for b in &target.blocks {
        let Some(set) = per_pool.get(b.name.as_str()) else { continue };
        let flagged_without_twin: BTreeSet<u32> = set
            .iter()
            .filter(|(e, m)| *m != AccumulateMode::None && !set.contains(&(*e, AccumulateMode::None)))
            .map(|(e, _)| *e)
            .collect();
        let used = set.len() as u32 + flagged_without_twin.len() as u32;
        out.push((b.name.clone(), used, usable_slots(target, b)));
    }
    out
}

/// Slots of a block the planner may use. gfx1201's SQ claims 16 counters, but aqlprofile's register
/// table for it has 8 rows: counters 9..16 would program the registers that follow the table (other
/// blocks' selects) on real hardware, so requests are capped at 8 and split into passes beyond that.
pub fn usable_slots(target: &Target, block: &Block) -> u32 {
    if target.name == "gfx1201" && block.name == "SQ" {
        block.counters.min(8)
    } else {
        block.counters
    }
}

fn fits(target: &Target, events: &BTreeSet<&HwEvent>) -> bool {
    usage(target, events.iter().copied()).iter().all(|(_, used, slots)| used <= slots)
}

/// Assigns each item to a pass; returns the pass index per item.
fn pack(target: &Target, items: &[(String, BTreeSet<HwEvent>)]) -> Vec<usize> {
    let n = items.len();
    if n == 0 {
        return Vec::new();
    }
    let weight = |i: usize| usage(target, items[i].1.iter()).iter().map(|u| u.1).sum::<u32>();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weight(i)));

    // First fit, decreasing.
    let mut best = vec![0usize; n];
    let mut passes: Vec<BTreeSet<&HwEvent>> = Vec::new();
    for &i in &order {
        let slot = passes.iter().position(|p| {
            let mut u = p.clone();
            u.extend(items[i].1.iter());
            fits(target, &u)
        });
        let k = slot.unwrap_or_else(|| {
            passes.push(BTreeSet::new());
            passes.len() - 1
        });
        passes[k].extend(items[i].1.iter());
        best[i] = k;
    }
    let mut best_count = passes.len();

    // Lower bound: per pool, all distinct events of the request over the slots.
    let all: BTreeSet<&HwEvent> = items.iter().flat_map(|(_, e)| e.iter()).collect();
    let lower = usage(target, all.iter().copied())
        .iter()
        .map(|(_, used, slots)| (*used as usize).div_ceil((*slots).max(1) as usize))
        .max()
        .unwrap_or(1)
        .max(1);

    if best_count > lower && n <= 32 {
        let mut search = Search { target, items, order: &order, budget: 20_000, best: best.clone(), best_count, lower };
        let mut cur = vec![usize::MAX; n];
        let mut open: Vec<BTreeSet<&HwEvent>> = Vec::new();
        search.dfs(0, &mut cur, &mut open);
        best = search.best;
        best_count = search.best_count;
    }
    let _ = best_count;
    normalize(target, items, best)
}

struct Search<'a> {
    target: &'a Target,
    items: &'a [(String, BTreeSet<HwEvent>)],
    order: &'a [usize],
    budget: u32,
    best: Vec<usize>,
    best_count: usize,
    lower: usize,
}

impl<'a> Search<'a> {
    fn dfs(&mut self, depth: usize, cur: &mut Vec<usize>, open: &mut Vec<BTreeSet<&'a HwEvent>>) {
        if self.budget == 0 || self.best_count <= self.lower {
            return;
        }
        self.budget -= 1;
        if depth == self.order.len() {
            if open.len() < self.best_count {
                self.best_count = open.len();
                self.best = cur.clone();
            }
            return;
        }
        let i = self.order[depth];
        for k in 0..open.len() {
            let mut u = open[k].clone();
            u.extend(self.items[i].1.iter());
            if fits(self.target, &u) {
                let saved = std::mem::replace(&mut open[k], u);
                cur[i] = k;
                self.dfs(depth + 1, cur, open);
                open[k] = saved;
            }
        }
        if open.len() + 1 < self.best_count {
            open.push(self.items[i].1.iter().collect());
            cur[i] = open.len() - 1;
            self.dfs(depth + 1, cur, open);
            open.pop();
        }
        cur[i] = usize::MAX;
    }
}

/// Moves every item to the earliest pass it fits in and renumbers passes by first use in
/// request order, dropping empty ones.
fn normalize(target: &Target, items: &[(String, BTreeSet<HwEvent>)], mut assign: Vec<usize>) -> Vec<usize> {
    let union = |assign: &[usize], k: usize, skip: usize| -> BTreeSet<&HwEvent> {
        (0..items.len()).filter(|&j| j != skip && assign[j] == k).flat_map(|j| items[j].1.iter()).collect()
    };
    // Renumber by first appearance in request order.
    let renumber = |assign: &mut Vec<usize>| {
        let mut map = BTreeMap::new();
        for a in assign.iter_mut() {
            let next = map.len();
            *a = *map.entry(*a).or_insert(next);
        }
    };
    renumber(&mut assign);
    loop {
        let mut moved = false;
        for i in 0..items.len() {
            for k in 0..assign[i] {
                let mut u = union(&assign, k, i);
                u.extend(items[i].1.iter());
                if fits(target, &u) {
                    assign[i] = k;
                    moved = true;
                    break;
                }
            }
        }
        renumber(&mut assign);
        if !moved {
            return assign;
        }
    }
}

fn build_plan(
    target: &Target,
    items: &[(String, BTreeSet<HwEvent>)],
    assign: Vec<usize>,
    warnings: Vec<String>,
) -> Plan {
    let count = assign.iter().max().map_or(0, |m| m + 1);
    let mut passes = Vec::new();
    for k in 0..count {
        let mut events: Vec<HwEvent> = Vec::new();
        let mut counters = Vec::new();
        for (j, (name, evs)) in items.iter().enumerate() {
            if assign[j] != k {
                continue;
            }
            counters.push(name.clone());
            for e in evs {
                if !events.contains(e) {
                    events.push(e.clone());
                }
            }
        }
        let usage = usage(target, events.iter())
            .into_iter()
            .map(|(block, used, slots)| BlockUsage { block, used, slots })
            .collect();
        passes.push(Pass { counters, events, usage });
    }

    let mut placements = Vec::new();
    for (i, (name, evs)) in items.iter().enumerate() {
        let p = assign[i];
        let own: Vec<String> =
            usage(target, evs.iter()).iter().map(|(b, used, slots)| format!("{b} {used}/{slots}")).collect();
        let own =
            if own.is_empty() { "no hardware counter slots".to_string() } else { format!("slots {}", own.join(", ")) };
        let mut reason = format!("pass {}: needs {own}", p + 1);
        for (k, earlier) in passes.iter().enumerate().take(p) {
            let mut u: BTreeSet<&HwEvent> = earlier.events.iter().collect();
            u.extend(evs.iter());
            if let Some((b, used, slots)) =
                usage(target, u.into_iter()).into_iter().find(|(_, used, slots)| used > slots)
            {
                reason.push_str(&format!("; pass {} would need {used} of {slots} {b} slots", k + 1));
            }
        }
        placements.push(Placement { counter: name.clone(), pass: p, events: evs.iter().cloned().collect(), reason });
    }
    Plan { target: target.name.clone(), passes, placements, warnings }
}
