#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diff;
mod error;
pub mod merge;
pub mod report;
pub mod rocpd;
pub mod stats;
pub mod summary;

pub use error::{Error, Result};
