//! The crate's error type. Every malformed input (unknown target or block,
//! out-of-range instance, over-full block, zero-size or misaligned buffer,
//! short result buffer) maps to one variant here; builders and parsers never panic.

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// What went wrong while planning, building or parsing packets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The gfxip name is not one of the supported targets.
    #[error("unknown or unsupported target {0:?}")]
    UnknownTarget(String),
    /// The agent description is inconsistent (zero SEs, SEs not divisible by XCCs, ...).
    #[error("invalid agent for {target}: {reason}")]
    InvalidAgent {
        /// Target name.
        target: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// The block enum is not in this target's block table.
    #[error("unknown block {block} on {target}")]
    UnknownBlock {
        /// Block enum value (aqlprofile numbering) or name hash.
        block: u32,
        /// Target name.
        target: &'static str,
    },
    /// The block name is not in this target's block table.
    #[error("unknown block {name:?} on {target}")]
    UnknownBlockName {
        /// Requested name.
        name: String,
        /// Target name.
        target: &'static str,
    },
    /// `block_index` is not below the block's instance count.
    #[error("instance {index} of block {block} out of range on {target} (block has {instances})")]
    InstanceOutOfRange {
        /// Block name.
        block: &'static str,
        /// Requested instance.
        index: u32,
        /// Instances the block has.
        instances: u32,
        /// Target name.
        target: &'static str,
    },
    /// More events were requested on one block instance than it has counters.
    #[error("block {block}[{index}] on {target} has only {counters} counters")]
    TooManyCounters {
        /// Block name.
        block: &'static str,
        /// Block instance.
        index: u32,
        /// Hardware counters per instance.
        counters: u32,
        /// Target name.
        target: &'static str,
    },
    /// Accumulation flags on a block other than SQ, or on a target without
    /// accumulation events (aqlprofile returns HSA_STATUS_ERROR_INVALID_ARGUMENT).
    #[error("accumulation flags {flags} not supported for block {block} on {target}")]
    AccumulationUnsupported {
        /// Block name.
        block: &'static str,
        /// Raw flags value.
        flags: u32,
        /// Target name.
        target: &'static str,
    },
    /// The event list was empty.
    #[error("no events requested")]
    NoEvents,
    /// This block needs a programming path the crate does not implement yet.
    #[error("block {block} on {target} is not supported by this builder ({reason})")]
    UnsupportedBlock {
        /// Block name.
        block: &'static str,
        /// Target name.
        target: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// A buffer of zero bytes was supplied or requested.
    #[error("{what} has zero size")]
    ZeroSize {
        /// Which buffer.
        what: &'static str,
    },
    /// A buffer address does not have the required alignment.
    #[error("{what} address {addr:#x} is not {align}-byte aligned")]
    Misaligned {
        /// Which buffer.
        what: &'static str,
        /// The address.
        addr: u64,
        /// Required alignment in bytes.
        align: u64,
    },
    /// A buffer is smaller than what the packets need.
    #[error("{what} is {actual} bytes, need at least {needed}")]
    BufferTooSmall {
        /// Which buffer.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes given.
        actual: u64,
    },
    /// An address computation overflowed 64 bits.
    #[error("{what} address range overflows")]
    AddressOverflow {
        /// Which buffer.
        what: &'static str,
    },
    /// A thread-trace parameter is invalid.
    #[error("invalid thread-trace parameter {name}: {reason}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// The thread-trace buffer is too small or too large for the enabled SEs.
    #[error("thread-trace buffer of {size} bytes gives a per-SE slice of {slice} bytes (allowed {min}..{max})")]
    TraceBufferSize {
        /// Total buffer size.
        size: u64,
        /// Resulting per-SE slice.
        slice: u64,
        /// Minimum slice.
        min: u64,
        /// Maximum slice (exclusive).
        max: u64,
    },
    /// A PM4 stream is too long for one INDIRECT_BUFFER (20-bit dword count).
    #[error("pm4 stream of {dwords} dwords does not fit one indirect buffer")]
    StreamTooLong {
        /// Stream length in dwords.
        dwords: usize,
    },
}
