#![doc = include_str!("../README.md")]
// Unsafe only where a lane kernel compiled for AVX2 + FMA or AVX-512 is installed and called (`exec::lanes`)
// and where the register file's cache lines are seen as `u32`s (`wave::Regs`).
#![deny(unsafe_code)]
#![warn(missing_docs)]
// Lane loops index several per-lane arrays (sources, results, masks) with the same lane number.
#![allow(clippy::needless_range_loop)]

pub mod codeobject;
pub mod decode;
mod descriptor;
mod dispatch;
mod dispatch_error;
pub mod dwarf_info;
pub mod dwarf_line;
mod exec;
mod gws;
mod half;
pub mod image;
mod matrix;
pub mod memory;
pub mod op;
mod operand;
mod pre;
pub mod stats;
pub mod table;
pub mod target;
mod uniform;
mod wave;

pub use codeobject::CodeObject;
pub use decode::{decode, size_of, DecodeError, Inst};
pub use dispatch::{
    run, workgroups_alike, DetailFilter, Dispatch, DispatchError, DispatchRecord, ErrorKind, KernelDescriptor,
    RunOptions, MAX_CO_RESIDENT_WORKGROUPS,
};
pub use exec::{class_of, LaneKernels};
pub use gws::{Gws, GWS_RESOURCES};
pub use matrix::{MatrixStats, MATRIX_TYPES};
pub use memory::{Fault, FlatMemory, Memory, VecMemory};
pub use op::Op;
pub use stats::{
    decimate, grid_point, step_begin, Costs, InstClass, MemBytes, Step, WaveRecord, WaveStats, WorkgroupRecord,
    CLASS_COUNT,
};
pub use target::{Family, GenericIsa, Target, TARGETS};
pub use wave::Wave;
