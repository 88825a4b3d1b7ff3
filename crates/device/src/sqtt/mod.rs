//! Thread traces (SQTT) on the simulated GPU: the encoder that writes a shader engine's stream in
//! the real token format ([`encode`]), the thread-trace registers the PM4 executor drives
//! ([`session`]), and the writers beneath them.

pub mod encode;
pub mod session;
mod writer;

pub use encode::{
    family_of, gfx9_header, trace_loc, traced_cu_in_se, PerfConfig, SeEncoder, SeStream, TraceLoc, TracedUnit,
    REG_USERDATA_2,
};
pub use session::{BufferWrite, SqttSession};

#[cfg(test)]
mod tests;
