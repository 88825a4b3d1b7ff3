//! What the CLI needs around the database: `--list-avail` entries (name, dimensions, one-line
//! description) and the `--pmc` list syntax.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use crate::db::{Agent, CounterKind, Database, Target, AGENT_PROPERTIES};
use crate::dims::{element_count, DimExtent};
use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::layout::block_dimensions;

/// Our hand-written descriptions (`schemas/counters/descriptions.txt`).
const DESCRIPTIONS: &str = include_str!("../../../schemas/counters/descriptions.txt");

/// How a listed counter is produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InfoKind {
    /// A hardware event.
    Hardware {
        /// Block table name.
        block: String,
        /// Event id.
        event: u32,
    },
    /// A derived counter.
    Derived {
        /// Its expression.
        expression: String,
    },
}

/// One `--list-avail` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterInfo {
    /// Counter name.
    pub name: String,
    /// Hardware or derived.
    pub kind: InfoKind,
    /// Dimensions of its values on this agent (empty: a single value).
    pub dimensions: Vec<DimExtent>,
    /// One line, in our words.
    pub description: String,
}

impl CounterInfo {
    /// The entry in rocprofv3-avail's layout: `Counter_Name`, `Description`, then `Block` (hardware)
    /// or `Expression` (derived), then `Dimensions`, one `Key<padding>:<tab>value` line each.
    pub fn to_avail_text(&self) -> String {
        let mut out = String::new();
        let mut line = |k: &str, v: &str| out.push_str(&format!("{k:<20}:\t{v}\n"));
        line("Counter_Name", &self.name);
        line("Description", &self.description);
        match &self.kind {
            InfoKind::Hardware { block, .. } => line("Block", block),
            InfoKind::Derived { expression } => line("Expression", expression),
        }
        line("Dimensions", &crate::dims::format_dims(&self.dimensions));
        out
    }
}

/// All counters of `agent`'s target, sorted by name, with dimensions for that agent.
pub fn list_counters(agent: &Agent) -> Result<Vec<CounterInfo>> {
    list_counters_with(Database::builtin(), agent)
}

/// [`list_counters`] with an explicit database.
pub fn list_counters_with(db: &Database, agent: &Agent) -> Result<Vec<CounterInfo>> {
    let target = db.target(&agent.target)?;
    let mut out = Vec::with_capacity(target.counters.len());
    for c in &target.counters {
        let kind = match &c.kind {
            CounterKind::Base { block, event } => InfoKind::Hardware { block: block.clone(), event: *event },
            CounterKind::Derived { source, .. } => InfoKind::Derived { expression: source.clone() },
        };
        out.push(CounterInfo {
            name: c.name.clone(),
            kind,
            dimensions: dimensions_of(target, agent, &c.name)?,
            description: describe(target, &c.name),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Dimensions of counter `name` on `agent` (resolving the target through `db`).
pub fn counter_dimensions(db: &Database, agent: &Agent, name: &str) -> Result<Vec<DimExtent>> {
    let target = db.target(&agent.target)?;
    db.resolve(&target.name, name)?;
    dimensions_of(target, agent, name)
}

fn dimensions_of(target: &Target, agent: &Agent, name: &str) -> Result<Vec<DimExtent>> {
    let mut stack = Vec::new();
    name_dims(target, agent, name, &mut stack)
}

fn name_dims(target: &Target, agent: &Agent, name: &str, stack: &mut Vec<String>) -> Result<Vec<DimExtent>> {
    let fail = |message: String| Error::Eval { counter: name.to_string(), target: target.name.clone(), message };
    let Some(c) = target.counter(name) else {
        if AGENT_PROPERTIES.contains(&name) {
            return Ok(Vec::new());
        }
        return Err(fail(format!("{name} is neither a counter nor an agent property")));
    };
    match &c.kind {
        CounterKind::Base { block, .. } => {
            let b = target.block(block).expect("database blocks are checked at load");
            Ok(block_dimensions(target.family, b, agent))
        }
        CounterKind::Derived { expr, .. } => {
            if stack.iter().any(|s| s == name) || stack.len() > 64 {
                return Err(fail(format!("{name} is defined in terms of itself")));
            }
            stack.push(name.to_string());
            let r = expr_dims(target, agent, expr, stack);
            stack.pop();
            r
        }
    }
}

/// Dimensions of an expression's result, by the evaluation rules in `eval.rs`.
fn expr_dims(target: &Target, agent: &Agent, e: &Expr, stack: &mut Vec<String>) -> Result<Vec<DimExtent>> {
    Ok(match e {
        Expr::Number(_) => Vec::new(),
        Expr::Name(n) | Expr::Accumulate { counter: n, .. } => name_dims(target, agent, n, stack)?,
        Expr::Binary(_, a, b) => {
            let a = expr_dims(target, agent, a, stack)?;
            let b = expr_dims(target, agent, b, stack)?;
            if element_count(&b) > element_count(&a) {
                b
            } else {
                a
            }
        }
        Expr::Reduce { arg, dims, .. } => {
            if dims.is_empty() {
                Vec::new()
            } else {
                let mut d = expr_dims(target, agent, arg, stack)?;
                d.retain(|x| !dims.contains(&x.dim));
                d
            }
        }
        Expr::Select { arg, picks } => {
            let mut d = expr_dims(target, agent, arg, stack)?;
            for (dim, idx) in picks {
                if let Some(k) = d.iter().position(|x| x.dim == *dim) {
                    if idx.len() == 1 {
                        d.remove(k);
                    } else {
                        d[k].extent = idx.len();
                    }
                }
            }
            d
        }
    })
}

/// Counter descriptions and block descriptions, by name.
type DescriptionMaps = (HashMap<&'static str, &'static str>, HashMap<&'static str, &'static str>);

fn descriptions() -> &'static DescriptionMaps {
    static MAP: OnceLock<DescriptionMaps> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut counters = HashMap::new();
        let mut blocks = HashMap::new();
        for line in DESCRIPTIONS.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, text)) = line.split_once(':') else { continue };
            match key.strip_prefix("block ") {
                Some(b) => blocks.insert(b.trim(), text.trim()),
                None => counters.insert(key.trim(), text.trim()),
            };
        }
        (counters, blocks)
    })
}

/// A one-line description of counter `name` of `target`: our hand-written line if there is
/// one, else one built from the definition.
pub fn describe(target: &Target, name: &str) -> String {
    let (counters, blocks) = descriptions();
    if let Some(d) = counters.get(name) {
        return (*d).to_string();
    }
    match target.counter(name).map(|c| &c.kind) {
        Some(CounterKind::Base { block, event }) => match blocks.get(block.as_str()) {
            Some(b) => format!("{block} event {event}: {b}"),
            None => format!("{block} event {event}"),
        },
        Some(CounterKind::Derived { source, expr }) => {
            if let Expr::Reduce { arg, op, dims } = expr {
                if let (Expr::Name(inner), true) = (arg.as_ref(), dims.is_empty()) {
                    let how = match op {
                        crate::expr::ReduceOp::Sum => "sum",
                        crate::expr::ReduceOp::Max => "maximum",
                        crate::expr::ReduceOp::Min => "minimum",
                        crate::expr::ReduceOp::Avg => "average",
                    };
                    return format!("{inner}, {how} over all instances");
                }
            }
            format!("derived: {source}")
        }
        None => String::new(),
    }
}

/// Splits a `--pmc` argument the way rocprofv3's tool does: text after `#` is dropped, each of
/// ``!@#$%&(),*+-./;<>?@{}^`~|`` becomes a space, tokens without a letter, digit or `_` are
/// dropped, and the result is sorted and de-duplicated. `[`, `]`, `:` and `=` survive, so a
/// token may carry a `NAME:device=N` qualifier.
pub fn parse_pmc_list(text: &str) -> Vec<String> {
    let text = text.split('#').next().unwrap_or("");
    let cleaned: String = text.chars().map(|c| if "!@#$%&(),*+-./;<>?@{}^`~|".contains(c) { ' ' } else { c }).collect();
    let set: BTreeSet<String> = cleaned
        .split_whitespace()
        .filter(|t| t.chars().any(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect();
    set.into_iter().collect()
}

/// One `--pmc` item: a counter name and, with a `NAME:device=N` qualifier, the only GPU
/// (by `gpu_index`) it is collected on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PmcItem {
    /// Counter name.
    pub name: String,
    /// `Some(N)` for `NAME:device=N`.
    pub device: Option<u32>,
}

/// [`parse_pmc_list`] plus the device qualifier. A malformed qualifier (anything after `:`
/// other than `device=<number>`) is an error naming the token, as it is fatal in rocprofv3.
pub fn parse_pmc_items(text: &str) -> Result<Vec<PmcItem>> {
    parse_pmc_list(text)
        .into_iter()
        .map(|token| match token.split_once(':') {
            None => Ok(PmcItem { name: token, device: None }),
            Some((name, q)) => {
                let device = q.strip_prefix("device=").and_then(|n| n.parse().ok());
                match device {
                    Some(d) if !name.is_empty() => Ok(PmcItem { name: name.to_string(), device: Some(d) }),
                    _ => Err(Error::BadPmcItem { token: token.clone() }),
                }
            }
        })
        .collect()
}

/// The counter names of `items` that apply to the GPU with `gpu_index`.
pub fn pmc_names_for_device(items: &[PmcItem], gpu_index: u32) -> Vec<&str> {
    items.iter().filter(|i| !matches!(i.device, Some(d) if d != gpu_index)).map(|i| i.name.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmc_list_follows_the_tool() {
        assert_eq!(parse_pmc_list("SQ_WAVES,GRBM_COUNT SQ_WAVES"), ["GRBM_COUNT", "SQ_WAVES"]);
        assert_eq!(parse_pmc_list("  TCC_HIT  # comment SQ_WAVES"), ["TCC_HIT"]);
        assert_eq!(parse_pmc_list("SQ_WAVES:device=1 -- ,,"), ["SQ_WAVES:device=1"]);
        assert!(parse_pmc_list("").is_empty());
    }

    #[test]
    fn pmc_device_qualifiers() {
        let items = parse_pmc_items("SQ_WAVES:device=1 GRBM_COUNT").unwrap();
        assert_eq!(items[0], PmcItem { name: "GRBM_COUNT".into(), device: None });
        assert_eq!(items[1], PmcItem { name: "SQ_WAVES".into(), device: Some(1) });
        assert_eq!(pmc_names_for_device(&items, 0), ["GRBM_COUNT"]);
        assert_eq!(pmc_names_for_device(&items, 1), ["GRBM_COUNT", "SQ_WAVES"]);
        let e = parse_pmc_items("SQ_WAVES:gpu=1").unwrap_err();
        assert_eq!(e.to_string(), "malformed --pmc item `SQ_WAVES:gpu=1` (expected NAME or NAME:device=N)");
    }
}
