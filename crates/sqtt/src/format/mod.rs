//! Token definitions per trace format: type codes, sizes and field bit ranges. No state, no I/O.

pub mod gfx9;
pub mod rdna;
