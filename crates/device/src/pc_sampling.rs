//! PC sampling in the device model. The configurations each target offers (methods, units, interval
//! ranges) are data about targets: `rocprof_targets::pc_sampling`, which hsa-sim and the CLI read.

pub use rocprof_targets::pc_sampling::{Method, Unit};
