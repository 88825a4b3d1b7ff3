//! The GPU targets the decoder and interpreter know: family, opcode table and the few properties that
//! change how a wave starts or what an instruction means. The table is the targets crate's
//! (`rocprof-targets`); these names stay for the crates that import them from here.

pub use rocprof_targets::{Family, GenericIsa, Target, TARGETS};
