//! Thread traces (SQTT) on the simulated GPU: the encoder that writes a shader engine's stream in
//! the real token format ([`encode`]), and the writers beneath it.

pub mod encode;
mod writer;

pub use encode::{
    family_of, gfx9_header, trace_loc, traced_cu_in_se, SeEncoder, SeStream, TraceLoc, TracedUnit, REG_USERDATA_2,
};

#[cfg(test)]
mod tests;
