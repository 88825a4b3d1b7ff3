#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod counters;
pub mod pc_sampling;
pub mod pm4;
pub mod run;
pub mod sqtt;
pub mod targets;
pub mod timing;
pub mod wave;

pub use targets::{GpuModel, MODELS};
pub use wave::{DetailRequest, DispatchInput, DispatchModel, KernelProfile};
