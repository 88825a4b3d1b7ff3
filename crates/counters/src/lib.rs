#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod db;
mod dims;
mod error;
mod eval;
mod expr;
mod layout;
mod list;
mod plan;
mod session;

pub use db::{Agent, Block, Counter, CounterKind, Database, Family, Target, AGENT_PROPERTIES};
pub use dims::{element_count, format_dims, DimExtent, Dimension};
pub use error::{Error, ParseError, ParseErrorKind, Result};
pub use eval::{evaluate, evaluate_expr, Samples, Values};
pub use expr::{AccumulateMode, BinOp, Expr, ReduceOp};
pub use layout::{block_dimensions, block_instances};
pub use list::{
    counter_dimensions, describe, list_counters, list_counters_with, parse_pmc_items, parse_pmc_list,
    pmc_names_for_device, CounterInfo, InfoKind, PmcItem,
};
pub use plan::{plan, plan_with, usable_slots, BlockUsage, HwEvent, Pass, Placement, Plan};
pub use session::{evaluate_output, packets_agent, pass_events, pass_sources, pmc_plan, recorded_events};
