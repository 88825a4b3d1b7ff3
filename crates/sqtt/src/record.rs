//! Decoded records: what AMD's decoder reports per shader engine, as plain owned values.

/// Instruction category, numbered as AMD's decoder numbers them (`enums.category` in the corpus).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Category {
    /// No category.
    None = 0,
    /// Scalar memory.
    Smem = 1,
    /// Scalar ALU.
    Salu = 2,
    /// Vector memory (global/buffer/image).
    Vmem = 3,
    /// Flat memory.
    Flat = 4,
    /// LDS.
    Lds = 5,
    /// Vector ALU.
    Valu = 6,
    /// Taken branch.
    Jump = 7,
    /// Branch not taken.
    Next = 8,
    /// No-pipe instruction (`s_nop`, waits, `s_clause`, ...).
    Immed = 9,
    /// Context save/restore (trap).
    Context = 10,
    /// Message (`s_sendmsg`, `s_endpgm`, barriers).
    Message = 11,
    /// Ray-tracing BVH.
    Bvh = 12,
}

impl Category {
    /// Upper-case name as in AMD's enum.
    pub fn name(self) -> &'static str {
        ["NONE", "SMEM", "SALU", "VMEM", "FLAT", "LDS", "VALU", "JUMP", "NEXT", "IMMED", "CONTEXT", "MESSAGE", "BVH"]
            [self as usize]
    }
}

/// Wave state in a timeline, numbered as AMD's decoder (`enums.state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum WaveState {
    /// Slot empty.
    Empty = 0,
    /// Resident, not issuing.
    Idle = 1,
    /// Issuing/executing.
    Exec = 2,
    /// Waiting on a dependency (`s_waitcnt`, barrier).
    Wait = 3,
    /// Ready but not selected.
    Stall = 4,
}

/// A wave start (`start`) or end on some CU of the shader engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Occupancy {
    /// Token time in shader cycles.
    pub time: i64,
    /// CU (gfx9) or WGP | SA << 7 (RDNA).
    pub cu: u8,
    /// SIMD.
    pub simd: u8,
    /// Wave slot.
    pub wave_id: u8,
    /// True for a start, false for an end.
    pub start: bool,
    /// Absolute kernel entry address (0 when unknown).
    pub pc: u64,
}

/// One executed instruction of a traced wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Absolute address (0 when the walk could not attribute it).
    pub pc: u64,
    /// When the wave first tried to issue it.
    pub time: i64,
    /// Cycles between `time` and the successful issue.
    pub stall: i64,
    /// Cycles from `time` to the end of issue (gfx9) or execution (RDNA).
    pub duration: i64,
    /// Category of the instruction as the trace token reported it.
    pub category: Category,
}

/// A wave of the traced unit with its instructions and state timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wave {
    /// CU (gfx9) or WGP | SA << 7 (RDNA).
    pub cu: u8,
    /// SIMD.
    pub simd: u8,
    /// Wave slot.
    pub wave_id: u8,
    /// Context save/restore events seen.
    pub contexts: u8,
    /// Start token time.
    pub begin_time: i64,
    /// End token time.
    pub end_time: i64,
    /// Instructions in execution order.
    pub instructions: Vec<Instruction>,
    /// `(state, cycles)` runs from `begin_time`.
    pub timeline: Vec<(WaveState, i64)>,
}

/// A memory instruction issued by a wave on the SIMD next to the traced one (RDNA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OtherSimd {
    /// Token time.
    pub time: i64,
    /// Cycles the op occupies.
    pub cycles: u16,
    /// WGP | SA << 7 of the traced unit.
    pub wgp: u8,
    /// VMEM, FLAT or LDS.
    pub category: Category,
}

/// A reference-clock marker: `(shader clock, realtime clock)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Realtime {
    /// Token time in shader cycles.
    pub shader_clock: i64,
    /// Reference clock value carried by the marker.
    pub realtime_clock: u64,
}

/// A value written by `s_ttracedata` / `s_ttracedata_imm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderData {
    /// Token time.
    pub time: i64,
    /// The value (32 bits, or 8 for the immediate form on RDNA).
    pub value: u64,
    /// CU (gfx9) or WGP | SA << 7 (RDNA).
    pub cu: u8,
    /// SIMD.
    pub simd: u8,
    /// Wave slot.
    pub wave_id: u8,
    /// Bit 0: immediate form; bit 1: written by the trap handler (AMD's shaderdata flags).
    pub flags: u8,
}

/// Four performance-counter values sampled on a CU (gfx9 `PERF` tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PerfEvent {
    /// Sample time (token time - 4 x CU, as AMD's decoder reports it).
    pub time: i64,
    /// Counter values (13 bits each).
    pub events: [u16; 4],
    /// CU.
    pub cu: u8,
    /// Counter bank (1 = counters 4..7).
    pub bank: u8,
}

/// Diagnostics the decoder attaches to a stream (AMD's `INFO` codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Info {
    /// Trace data was lost.
    DataLost = 1,
    /// Some instructions could not be attributed to a PC.
    StitchIncomplete = 2,
    /// A wave had no end token.
    WaveIncomplete = 3,
}

/// Everything decoded from one shader-engine stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeDecode {
    /// GFX IP major version (9, 11 or 12).
    pub gfxip: u8,
    /// Wave starts and ends on every CU of the SE, in stream order.
    pub occupancy: Vec<Occupancy>,
    /// Waves of the traced unit.
    pub waves: Vec<Wave>,
    /// Reference-clock markers.
    pub realtime: Vec<Realtime>,
    /// Memory ops of the neighbouring SIMD.
    pub other_simd: Vec<OtherSimd>,
    /// `s_ttracedata` values.
    pub shaderdata: Vec<ShaderData>,
    /// Performance-counter samples.
    pub perfevents: Vec<PerfEvent>,
    /// Decoder diagnostics.
    pub info: Vec<Info>,
    /// Tokens with unknown type bits that were skipped (one nibble/word each).
    pub unknown_tokens: u64,
    /// The first damaged token (unknown type bits, or cut off by the end of the buffer), if
    /// any: the decode skipped it and went on, but the stream is not intact there. A capture's
    /// last token is often cut off by the end of the buffer, so a cut at the very end is normal.
    pub damage: Option<crate::error::DecodeError>,
}
