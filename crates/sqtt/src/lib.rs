//! Native decoder for AMD SQ thread traces (SQTT, also called ATT).
//!
//! Turns the raw per-shader-engine byte streams a thread trace captures into the records AMD's
//! `rocprof-trace-decoder` reports: wave occupancy, traced waves with their instruction sequence
//! (PC, time, stall, duration, category) and state timeline, reference-clock markers and
//! neighbouring-SIMD memory ops. Zero-copy over `&[u8]`, no I/O, no unsafe code.
//!
//! ```no_run
//! use rocprof_sqtt::{CodeObject, Decoder, Family};
//! # fn main() -> Result<(), rocprof_sqtt::DecodeError> {
//! let elf: &[u8] = &[]; // the code object that ran
//! let stream: &[u8] = &[]; // one seN.att file
//! let code = CodeObject::from_elf(Family::Gfx11, elf, 0x2000_0100_8000)?;
//! let mut decoder = Decoder::new(&code);
//! let se = decoder.decode(stream)?;
//! for wave in &se.waves {
//!     println!("wave {} on cu {}: {} instructions", wave.wave_id, wave.cu, wave.instructions.len());
//! }
//! # Ok(()) }
//! ```
//!
//! Supported: gfx9 (CDNA, incl. gfx950), gfx11 (RDNA3, trace layout 3), gfx12 (RDNA4, layout 4).
//! The rules follow AMD's rocprof-trace-decoder **0.1.6** (the version the conformance corpus was
//! decoded with), including its quirks; where newer AMD sources differ, comments say so.
//!
//! Layers, usable on their own:
//! * [`tokens`]: token iterators per format ([`tokens::RdnaTokens`], [`tokens::Gfx9Tokens`]) with
//!   AMD's time model; [`format`](mod@format) holds the bit layouts.
//! * [`isa`]: AMDGPU instruction classes (AMD's mnemonic rules), sizes from `rocprof-isa`'s opcode
//!   tables, and the linear [`Program`] sweep that the PC walk uses (no LLVM needed); [`isa::class_text`] is a mnemonic-level stand-in text.
//! * [`Decoder`]: per-SE records ([`SeDecode`]); [`aggregate`]: per-PC and per-wave summaries.
//!
//! Examples: `sqtt-dump` (tokens of a stream), `sqtt-isa` (how a code object is decoded). The AMD
//! backend, LLVM instruction text and the throughput benchmark against AMD's decoder (`sqtt-bench`)
//! are in `rocprof-sqtt-amd`.
//!
//! Not decoded: gfx10, RDNA perf-counter tokens (AMD's decoder ignores
//! them too) and code-object marker packets. RDNA `NEW_PC` and gfx9 `INST_PC` tokens
//! re-anchor the PC walk after indirect jumps.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod aggregate;
mod cursor;
mod decode;
pub mod elf;
mod error;
mod family;
pub mod format;
pub mod isa;
pub mod markers;
pub mod record;
pub mod tokens;

pub use cursor::NibbleCursor;
pub use error::{DecodeError, DecodeErrorKind, Result};
pub use family::Family;
pub use isa::Program;
pub use markers::{code_object_markers, CodeObjectMarker};
pub use record::{
    Category, Info, Instruction, Occupancy, OtherSimd, PerfEvent, Realtime, SeDecode, ShaderData, Wave, WaveState,
};

/// The code a stream ran: one code object's decoded `.text` at the address it ran from, or
/// several (each with the id a profiler gave it, see [`markers`]).
#[derive(Clone, Debug)]
pub struct CodeObject {
    program: Program,
    load_base: u64,
    objects: Vec<LoadedCode>,
}

/// Where one code object sat while the stream was captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoadedCode {
    /// The profiler's code-object id (0 when unknown).
    pub id: u64,
    /// Load delta: absolute address of ELF virtual address 0.
    pub address: u64,
    /// Bytes the loaded object spans (`u64::MAX` when unknown).
    pub size: u64,
}

impl CodeObject {
    /// Reads `.text` from an ELF code object loaded at `load_base` (absolute PC = `load_base` + ELF vaddr).
    pub fn from_elf(family: Family, elf: &[u8], load_base: u64) -> Result<Self> {
        let text = elf::text_section(elf)?;
        Ok(Self::from_text(family, load_base.wrapping_add(text.vaddr), text.bytes, load_base))
    }

    /// Uses raw code bytes that start at absolute address `text_addr`.
    pub fn from_text(family: Family, text_addr: u64, text: &[u8], load_base: u64) -> Self {
        Self {
            program: Program::new(family, text_addr, text),
            load_base,
            objects: vec![LoadedCode { id: 0, address: load_base, size: u64::MAX }],
        }
    }

    /// Several ELF code objects, each where it was loaded. An unreadable ELF is an error; the
    /// caller knows which one from the order (`Err((index, error))`).
    pub fn from_elfs(
        family: Family,
        objects: &[(LoadedCode, &[u8])],
    ) -> std::result::Result<Self, (usize, DecodeError)> {
        let mut texts = Vec::with_capacity(objects.len());
        for (i, (o, elf)) in objects.iter().enumerate() {
            let text = elf::text_section(elf).map_err(|e| (i, e))?;
            texts.push((o.address.wrapping_add(text.vaddr), text.bytes));
        }
        let mut loaded: Vec<LoadedCode> = objects.iter().map(|(o, _)| *o).collect();
        loaded.sort_by_key(|o| o.address);
        Ok(Self {
            program: Program::with_texts(family, &texts),
            load_base: loaded.first().map_or(0, |o| o.address),
            objects: loaded,
        })
    }

    /// The decoded program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Load base: subtract it from an absolute PC to get the ELF virtual address (of the first
    /// object, when there are several; see [`CodeObject::resolve`]).
    pub fn load_base(&self) -> u64 {
        self.load_base
    }

    /// The loaded objects, by address.
    pub fn objects(&self) -> &[LoadedCode] {
        &self.objects
    }

    /// `(code-object id, ELF virtual address)` of an absolute PC, if some object spans it.
    pub fn resolve(&self, pc: u64) -> Option<(u64, u64)> {
        self.objects.iter().rev().find(|o| pc >= o.address && pc - o.address < o.size).map(|o| (o.id, pc - o.address))
    }

    /// Absolute address of `offset` in code object `id` (id 0: `offset` is already absolute).
    pub fn absolute(&self, id: u64, offset: u64) -> Option<u64> {
        if id == 0 {
            return Some(offset);
        }
        self.objects.iter().find(|o| o.id == id).map(|o| o.address.wrapping_add(offset))
    }

    /// Family the code was decoded for.
    pub fn family(&self) -> Family {
        self.program.family()
    }
}

/// Decodes shader-engine streams against one code object; reuse it across streams to keep its
/// scratch buffers.
#[derive(Debug)]
pub struct Decoder<'code> {
    code: &'code CodeObject,
    rdna: decode::rdna::RdnaState,
    gfx9: decode::gfx9::Gfx9State,
}

impl<'code> Decoder<'code> {
    /// A decoder for streams of kernels in `code`.
    pub fn new(code: &'code CodeObject) -> Self {
        Self { code, rdna: Default::default(), gfx9: Default::default() }
    }

    /// Decodes one shader engine's stream. The format (gfx9 or RDNA layout 3/4) comes from the
    /// code object's family; an RDNA stream's own layout header picks layout 3 or 4.
    ///
    /// Errors only when the stream is unusable as a whole (missing or unknown header); damaged
    /// tokens inside a stream are skipped and counted in [`SeDecode::unknown_tokens`].
    pub fn decode(&mut self, stream: &[u8]) -> Result<SeDecode> {
        match self.code.family() {
            Family::Gfx9 => decode::gfx9::decode(stream, &self.code.program, &mut self.gfx9),
            Family::Gfx11 | Family::Gfx12 => decode::rdna::decode(stream, &self.code.program, &mut self.rdna),
        }
    }
}
