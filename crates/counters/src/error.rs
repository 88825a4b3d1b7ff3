//! The crate's error type. Every message names the thing it is about (counter, target, line,
//! byte offset) so the CLI can print it as is.

use std::fmt;

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong while loading the database, parsing or evaluating an
/// expression, or planning a counter request.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The database text is malformed (only possible with a hand-made database).
    #[error("counter database line {line}: {message}")]
    Database {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The target is not in the database.
    #[error("unknown target {target}; the counter database covers {known}")]
    UnknownTarget {
        /// Requested target, e.g. `gfx1101`.
        target: String,
        /// Comma-separated targets that exist.
        known: String,
    },
    /// A counter name is not defined for any target.
    #[error("unknown counter {counter}{}", suggestion_text(.suggestion))]
    UnknownCounter {
        /// The name as requested.
        counter: String,
        /// A close existing name on the same target, if any.
        suggestion: Option<String>,
    },
    /// A counter exists, but not on this target.
    #[error("counter {counter} is not available on {target} (it is defined for {available_on})")]
    UnavailableOnTarget {
        /// The counter.
        counter: String,
        /// The agent's target.
        target: String,
        /// Comma-separated targets that define it.
        available_on: String,
    },
    /// An expression does not parse.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// A counter or expression cannot be evaluated with the given samples.
    #[error("cannot evaluate {counter} on {target}: {message}")]
    Eval {
        /// The counter (or expression) being evaluated.
        counter: String,
        /// The agent's target.
        target: String,
        /// What is missing or inconsistent.
        message: String,
    },
    /// Sample values whose length does not match their dimensions.
    #[error("{}{len} values do not match dimensions {dims} ({expected} values)", counter_prefix(.counter))]
    ValueShape {
        /// The counter the values were given for (empty when not known).
        counter: String,
        /// Number of values given.
        len: usize,
        /// Product of the extents.
        expected: usize,
        /// The dimensions, as text.
        dims: String,
    },
    /// The request cannot be collected as asked; one entry per problem.
    #[error("cannot collect the requested counters on {target}: {}", join_problems(.problems))]
    Request {
        /// The agent's target.
        target: String,
        /// Every problem found, in request order.
        problems: Vec<Error>,
    },
    /// One counter needs more slots of a block than the hardware has, so no split into passes
    /// can help.
    #[error(
        "counter {counter} cannot be collected on {target} in any single pass: it needs {needed} {block} counter slots and the block has {slots}"
    )]
    ExceedsHardware {
        /// The requested counter.
        counter: String,
        /// The agent's target.
        target: String,
        /// The block whose slots run out.
        block: String,
        /// Slots the counter needs on one block instance.
        needed: u32,
        /// Slots the block has per instance.
        slots: u32,
    },
    /// A `--pmc` token with a malformed `:device=N` qualifier.
    #[error("malformed --pmc item `{token}` (expected NAME or NAME:device=N)")]
    BadPmcItem {
        /// The token as given.
        token: String,
    },
    /// A counter uses a feature the target's profiling library rejects.
    #[error("counter {counter} is not supported on {target}: {reason}")]
    Unsupported {
        /// The requested counter.
        counter: String,
        /// The agent's target.
        target: String,
        /// Why.
        reason: String,
    },
}

fn suggestion_text(s: &Option<String>) -> String {
    match s {
        Some(s) => format!(" (did you mean {s}?)"),
        None => String::new(),
    }
}

fn counter_prefix(counter: &str) -> String {
    if counter.is_empty() {
        String::new()
    } else {
        format!("values for {counter}: ")
    }
}

fn join_problems(p: &[Error]) -> String {
    p.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// An expression that does not parse: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expression `{expression}`: {kind} at byte {offset}")]
pub struct ParseError {
    /// The whole expression text.
    pub expression: String,
    /// Byte offset of the offending token.
    pub offset: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// The reason an expression does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character the grammar does not know.
    UnexpectedChar(char),
    /// A token where something else was needed.
    Expected {
        /// What the grammar wanted.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// Input ended early.
    UnexpectedEnd {
        /// What the grammar wanted.
        expected: &'static str,
    },
    /// `reduce` with an operation other than sum, max, min, avr.
    UnknownReduceOp(String),
    /// A dimension name that is not one of the DIMENSION_* names.
    UnknownDimension(String),
    /// `accumulate` with a mode other than NONE, LOW_RES, HIGH_RES.
    UnknownAccumulateMode(String),
    /// A `select` index that is not a number or a valid `N:M` range.
    BadIndex(String),
    /// A number too large for the grammar.
    NumberTooLarge(String),
    /// Parentheses or functions nested deeper than the parser allows (200).
    TooDeep,
    /// More tokens than the parser allows (1024).
    TooLong,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedChar(c) => write!(f, "unexpected character `{c}`"),
            Self::Expected { expected, found } => write!(f, "expected {expected}, found `{found}`"),
            Self::UnexpectedEnd { expected } => write!(f, "expected {expected}, found end of expression"),
            Self::UnknownReduceOp(s) => write!(f, "unknown reduce operation `{s}` (use sum, max, min or avr)"),
            Self::UnknownDimension(s) => write!(f, "unknown dimension `{s}`"),
            Self::UnknownAccumulateMode(s) => {
                write!(f, "unknown accumulate mode `{s}` (use NONE, LOW_RES or HIGH_RES)")
            }
            Self::BadIndex(s) => write!(f, "bad select index `{s}`"),
            Self::NumberTooLarge(s) => write!(f, "number `{s}` is too large"),
            Self::TooDeep => write!(f, "expression nested too deeply"),
            Self::TooLong => write!(f, "expression too long"),
        }
    }
}
