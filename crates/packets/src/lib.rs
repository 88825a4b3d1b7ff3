#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod alloc;
pub mod aql;
pub mod att;
pub mod block;
pub mod error;
pub mod marker;
pub mod parse;
pub mod pm4;
pub mod pmc;
pub mod regs;
pub mod target;

pub use alloc::{Allocation, Allocator, BufferRole, BumpAllocator};
pub use aql::{Pm4Packet, AQL_PACKET_SIZE};
pub use block::{block_by_enum, block_by_name, blocks, BlockGeometry, BlockInfo, Dimensions};
pub use error::{Error, Result};
pub use pmc::{validate_event, PlannedEvent, PmcEvent, PmcPackets, PmcPlan, PmcStreams, SampleSlot};
pub use target::{Agent, Family, Target};
