//! RDNA token map (gfx11 = trace layout 3, gfx12 = trace layout 4): a stream of 4-bit units.
//!
//! Sources: the field layouts in AMD's decoder headers (`ROCm/rocm-systems`
//! `projects/rocprof-trace-decoder/source/gfx10/gfx10token.h`, `gfx12/gfx12token.h`), tinygrad's
//! packet tables (`tinygrad/renderer/amd/sqtt.py`), and `shared/reference/sqtt-format.md` §2, all
//! checked against the conformance corpus. Bit positions are little-endian inside the token, bit 0
//! being the low bit of its first nibble.

/// Every RDNA token type the reader recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RdnaKind {
    /// Padding (low nibble 0000); one nibble, no time.
    Nop,
    /// `TS_DELTA_SHORT`: adds (4-bit field + 4) cycles.
    TsDeltaShort,
    /// A VALU instruction issue of a traced wave.
    ValuInst,
    /// An instruction issue of a traced wave with a pipe/category op.
    Inst,
    /// A no-pipe (SOPP-like) instruction of one wave.
    Immediate,
    /// The same as [`RdnaKind::Immediate`] for several waves at once (16-bit mask).
    ImmediateMask,
    /// ALU execution marker.
    AluExec,
    /// VMEM execution marker.
    VmemExec,
    /// Waves ready to issue (16-bit mask).
    WaveRdy,
    /// A wave started.
    WaveStart,
    /// A wave ended.
    WaveEnd,
    /// Wave slot allocation.
    WaveAlloc,
    /// Layout 4: performance counter sample. Layout 3: `SHADER_DATA_SHORT` (`s_ttracedata_imm`).
    Perf,
    /// Layout 4: `WAVE_START_EXT`, a wave start with workgroup extension fields (AMD's decoder
    /// handles it like [`RdnaKind::WaveStart`]). Layout 3: a timing token AMD's decoder ignores
    /// (tinygrad's `TS_DELTA_S5_W2`).
    WaveStartExt,
    /// Layout 3: `SHADER_DATA` (`s_ttracedata`). Layout 4: timing filler.
    TsDeltaS5W3,
    /// `NEW_PC`: the PC a wave continues at after an indirect jump (`s_setpc`, `s_swappc`,
    /// `s_call`); tinygrad calls the layout-3 form `TS_DELTA_S8_W3`.
    NewPc,
    /// Coarse wave state.
    TsWaveState,
    /// Utilisation counters.
    UtilCtr,
    /// Snapshot value.
    Snapshot,
    /// A wide time delta, or a reference-clock marker.
    TsDeltaOrMark,
    /// The layout header, always first.
    LayoutHeader,
    /// An event.
    Event,
    /// A wide event.
    EventBig,
    /// A register write (PGM_LO/HI among others).
    Reg,
    /// `s_ttracedata` value (layout 4).
    ShaderData,
    /// `s_ttracedata_imm` value (layout 4).
    ShaderDataShort,
    /// Exec population count, short form (layout 4).
    ExecPopcount1,
    /// Exec population count, long form (layout 4).
    ExecPopcount3,
    /// Type bits that match no token.
    Unknown,
}

/// Number of [`RdnaKind`] variants.
const KINDS: usize = RdnaKind::Unknown as usize + 1;

/// Static description of one trace layout: type lookup, sizes and delta fields.
#[derive(Debug)]
pub struct LayoutTable {
    /// Layout number from the header (3 or 4).
    pub layout: u8,
    /// Token kind by the low 8 bits of the window.
    pub kind_by_byte: [RdnaKind; 256],
    /// Size in nibbles by kind (0 for `Unknown`).
    pub nibbles: [u8; KINDS],
    /// Delta field `(low bit, width)` by kind; width 0 means the token carries no delta.
    pub delta: [(u8, u8); KINDS],
    /// Everything the token reader needs about a token, by the low 8 bits of the window
    /// (one load per token instead of three).
    pub shape_by_byte: [Shape; 256],
}

/// A token's kind, size and time delta, looked up once per token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Token kind.
    pub kind: RdnaKind,
    /// Size in nibbles (0 for `Unknown`).
    pub nibbles: u8,
    /// Low bit of the delta field.
    pub delta_lo: u8,
    /// Constant added to the delta field (4 for `TS_DELTA_SHORT`).
    pub delta_add: u8,
    /// Mask of the delta field after shifting (0 = no delta).
    pub delta_mask: u16,
}

/// Layout 3 (gfx11).
pub static LAYOUT3: LayoutTable = build(3);
/// Layout 4 (gfx12).
pub static LAYOUT4: LayoutTable = build(4);

/// `(mask bits, value, kind)` type patterns, most specific first.
const fn patterns(l4: bool) -> [(u8, u8, RdnaKind); 31] {
    use RdnaKind::*;
    let none = (0u8, 0xffu8, Unknown);
    [
        (8, 0x61, Event),
        (8, 0xE1, EventBig),
        (7, 0x21, NewPc),
        (7, 0x51, TsWaveState),
        (7, 0x31, UtilCtr),
        (7, 0x71, Snapshot),
        (7, 0x01, TsDeltaOrMark),
        (7, 0x11, LayoutHeader),
        if l4 { (7, 0x06, ShaderData) } else { none },
        if l4 { (7, 0x46, ShaderDataShort) } else { none },
        if l4 { (7, 0x66, ExecPopcount1) } else { none },
        if l4 { (6, 0x16, ExecPopcount3) } else { none },
        (5, 0x04, ImmediateMask),
        (5, 0x14, WaveRdy),
        (5, 0x0C, WaveStart),
        (5, 0x15, WaveEnd),
        (5, 0x05, WaveAlloc),
        (5, 0x16, Perf),
        (5, 0x1C, WaveStartExt),
        (5, 0x06, TsDeltaS5W3),
        (4, 0x00, Nop),
        (4, 0x08, TsDeltaShort),
        (4, 0x0D, Immediate),
        (4, 0x0E, AluExec),
        (4, 0x0F, VmemExec),
        (4, 0x09, Reg),
        (3, 0x03, ValuInst),
        (3, 0x02, Inst),
        none,
        none,
        none,
    ]
}

const fn build(layout: u8) -> LayoutTable {
    use RdnaKind::*;
    let l4 = layout >= 4;
    let pats = patterns(l4);
    let mut kind_by_byte = [Unknown; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < pats.len() {
            let (bits, value, kind) = pats[i];
            if bits > 0 {
                let mask = ((1u16 << bits) - 1) as u8;
                if (b as u8) & mask == value {
                    kind_by_byte[b] = kind;
                    break;
                }
            }
            i += 1;
        }
        b += 1;
    }
    let mut nibbles = [0u8; KINDS];
    let mut delta = [(0u8, 0u8); KINDS];
    macro_rules! set {
        ($k:expr, $n:expr, $lo:expr, $w:expr) => {
            nibbles[$k as usize] = $n;
            delta[$k as usize] = ($lo, $w);
        };
    }
    set!(Nop, 1, 0, 0);
    set!(TsDeltaShort, 2, 4, 4);
    set!(ValuInst, 3, 3, 3);
    if l4 {
        set!(Inst, 5, 3, 3);
    } else {
        set!(Inst, 5, 4, 3);
    }
    set!(Immediate, 3, 4, 3);
    set!(ImmediateMask, 6, 5, 3);
    set!(AluExec, 2, 4, 2);
    set!(VmemExec, 2, 4, 2);
    set!(WaveRdy, 6, 5, 3);
    set!(WaveStart, 8, 5, 2);
    set!(WaveEnd, 5, 5, 3);
    if l4 {
        set!(WaveAlloc, 6, 5, 3);
        set!(Perf, 8, 7, 3);
        set!(WaveStartExt, 10, 5, 2);
        set!(TsDeltaS5W3, 14, 7, 3);
        set!(NewPc, 18, 8, 3);
        set!(TsDeltaOrMark, 16, 0, 0);
    } else {
        set!(WaveAlloc, 5, 5, 3);
        set!(Perf, 7, 5, 3);
        set!(WaveStartExt, 12, 5, 2);
        set!(TsDeltaS5W3, 13, 5, 3);
        set!(NewPc, 16, 8, 3);
        set!(TsDeltaOrMark, 12, 0, 0);
    }
    set!(TsWaveState, 6, 7, 9);
    set!(UtilCtr, 12, 7, 2);
    set!(Snapshot, 16, 7, 3);
    set!(LayoutHeader, 16, 0, 0);
    set!(Event, 6, 8, 3);
    set!(EventBig, 8, 8, 3);
    set!(Reg, 16, 4, 3);
    set!(ShaderData, 14, 7, 3);
    set!(ShaderDataShort, 8, 7, 3);
    set!(ExecPopcount1, 6, 7, 3);
    set!(ExecPopcount3, 12, 6, 3);
    let mut shape_by_byte = [Shape { kind: Unknown, nibbles: 0, delta_lo: 0, delta_add: 0, delta_mask: 0 }; 256];
    let mut b = 0;
    while b < 256 {
        let kind = kind_by_byte[b];
        let (lo, width) = delta[kind as usize];
        shape_by_byte[b] = Shape {
            kind,
            nibbles: nibbles[kind as usize],
            delta_lo: lo,
            delta_add: if matches!(kind, TsDeltaShort) { 4 } else { 0 },
            delta_mask: ((1u32 << width) - 1) as u16,
        };
        b += 1;
    }
    LayoutTable { layout, kind_by_byte, nibbles, delta, shape_by_byte }
}

/// Extracts `width` bits at `lo` from a token window.
#[inline(always)]
pub const fn bits(raw: u64, lo: u32, width: u32) -> u64 {
    (raw >> lo) & ((1u64 << width) - 1)
}

/// Layout number in a `LAYOUT_HEADER` (bits 7..12).
pub const fn header_layout(raw: u64) -> u8 {
    bits(raw, 7, 6) as u8
}

/// Traced SIMD (`DSIMD`, bits 13..14) in the layout header (`header_type` in gfx10token.h).
pub const fn header_simd(raw: u64) -> u8 {
    bits(raw, 13, 2) as u8
}

/// Traced WGP | SA << 7 (`DWGP` bits 15..17, `DSA` bit 19) in the layout header.
pub const fn header_sa_wgp(raw: u64) -> u8 {
    (bits(raw, 15, 3) | (bits(raw, 19, 1) << 7)) as u8
}

/// Double-precision rate (`DPRate`, bits 28..31, masked to 3 bits from layout 3 on) as a cycle multiplier.
pub const fn header_dprate(raw: u64) -> i64 {
    let dpr = bits(raw, 28, 4) & 7;
    if dpr == 0 {
        1
    } else {
        1 << (dpr - 1)
    }
}

/// Double-precision derate (`dp_derate`, bits 33..35) as a cycle multiplier.
pub const fn header_derate(raw: u64) -> i64 {
    1 << bits(raw, 33, 3)
}

/// Layout 4 only: barrier-wait tokens were excluded from the capture (bit 59).
pub const fn header_exclude_barrier_wait(raw: u64) -> bool {
    bits(raw, 59, 1) != 0
}

/// Fields of a `WAVE_START` token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveStartFields {
    /// WGP | SA << 7, as the decoder reports `cu`.
    pub cu: u8,
    /// SIMD within the WGP.
    pub simd: u8,
    /// Wave slot.
    pub slot: u8,
    /// Dispatching pipe.
    pub pipe: u8,
    /// Micro engine.
    pub me: u8,
    /// Wave count field (values 66..89 mark context save/restore).
    pub count: u8,
}

/// Decodes a `WAVE_START` window for the given layout.
pub const fn wave_start(raw: u64, layout: u8) -> WaveStartFields {
    let sa = bits(raw, 7, 1) as u8;
    let simd = bits(raw, 8, 2) as u8;
    if layout >= 4 {
        WaveStartFields {
            cu: bits(raw, 10, 4) as u8 | (sa << 7),
            simd,
            slot: bits(raw, 15, 5) as u8,
            pipe: bits(raw, 20, 2) as u8,
            me: bits(raw, 22, 1) as u8,
            count: bits(raw, 25, 7) as u8,
        }
    } else {
        WaveStartFields {
            cu: bits(raw, 10, 3) as u8 | (sa << 7),
            simd,
            slot: bits(raw, 13, 5) as u8,
            pipe: bits(raw, 21, 2) as u8,
            me: bits(raw, 23, 1) as u8,
            count: bits(raw, 25, 7) as u8,
        }
    }
}

/// Decodes a `WAVE_END` window: `(cu, simd, slot)`.
pub const fn wave_end(raw: u64, layout: u8) -> (u8, u8, u8) {
    let sa = bits(raw, 8, 1) as u8;
    let wgp = if layout >= 4 { bits(raw, 11, 4) } else { bits(raw, 11, 3) } as u8;
    (wgp | (sa << 7), bits(raw, 9, 2) as u8, bits(raw, 15, 5) as u8)
}

/// Decodes an `INST` window: `(slot, op)`.
pub const fn inst(raw: u64, layout: u8) -> (u8, u16) {
    if layout >= 4 {
        (bits(raw, 7, 5) as u8, bits(raw, 12, 8) as u16)
    } else {
        (bits(raw, 8, 5) as u8, bits(raw, 13, 7) as u16)
    }
}

/// `NEW_PC` (`new_pc_type` in gfx10token.h / gfx12token.h): `(slot, absolute pc)`; the token
/// carries the dword address (46 bits at 16 on layout 3, 55 bits on layout 4, of which the 48
/// that fit the window are read: enough for any canonical GPU address).
pub const fn new_pc(raw: u64, layout: u8) -> (u8, u64) {
    let width = if layout >= 4 { 48 } else { 46 };
    (bits(raw, 11, 5) as u8, bits(raw, 16, width) << 2)
}

/// Wave slot of a `VALUINST` or `IMMEDIATE` token (bits 7..11).
pub const fn slot7(raw: u64) -> u8 {
    bits(raw, 7, 5) as u8
}

/// 16-bit wave mask of `IMMEDIATE_MASK` / `WAVERDY` (bits 8..23).
pub const fn mask16(raw: u64) -> u16 {
    bits(raw, 8, 16) as u16
}

/// Fields of a `REG` token: `(is_cs, pipe, me, register, value)` (`reg_write_type` in gfx10token.h).
pub const fn reg(raw: u64) -> (bool, u8, u8, u16, u32) {
    (
        bits(raw, 15, 1) != 0,
        bits(raw, 7, 2) as u8,
        bits(raw, 9, 2) as u8,
        bits(raw, 16, 16) as u16,
        bits(raw, 32, 32) as u32,
    )
}

/// Layout 4 `SHADER_DATA` / `SHADER_DATA_SHORT` (`shader_data_type` in gfx12token.h):
/// `(cu, simd, wave, value, privileged)`; the short form carries 8 data bits.
pub const fn shader_data(raw: u64, short: bool) -> (u8, u8, u8, u64, bool) {
    let sa = bits(raw, 10, 1) as u8;
    let simd = bits(raw, 11, 2) as u8;
    let wgp = bits(raw, 13, 4) as u8;
    let wave = bits(raw, 17, 5) as u8;
    let (data, sdt) = if short { (bits(raw, 22, 8), bits(raw, 30, 2)) } else { (bits(raw, 22, 32), bits(raw, 54, 2)) };
    (wgp | (sa << 7), simd, wave, data, sdt != 0)
}

/// Layout 3 `SHADER_DATA` (pattern 00110, 52 bits) / `SHADER_DATA_SHORT` (pattern 10110,
/// 28 bits): `(cu, simd, wave, value)`, or `None` when the token's invalid bit (14) is set.
/// Field positions found by decoding single-bit tokens with AMD's decoder 0.1.6: SA 8, SIMD
/// 9..10, WGP 11..13, invalid 14, wave 15..19, data 20..51 (8 bits for the short form).
pub const fn shader_data_l3(raw: u64, short: bool) -> Option<(u8, u8, u8, u64)> {
    if bits(raw, 14, 1) != 0 {
        return None;
    }
    let cu = (bits(raw, 11, 3) | (bits(raw, 8, 1) << 7)) as u8;
    let value = if short { bits(raw, 20, 8) } else { bits(raw, 20, 32) };
    Some((cu, bits(raw, 9, 2) as u8, bits(raw, 15, 5) as u8, value))
}

/// `TS_DELTA_OR_MARK`: `Some(reference clock)` when the token is a realtime marker, else `None`.
pub const fn mark_value(raw: u64, layout: u8) -> Option<u64> {
    let (rt, pl) = if layout >= 4 { (bits(raw, 7, 1), bits(raw, 8, 1)) } else { (bits(raw, 9, 1), bits(raw, 8, 1)) };
    if rt == 1 && pl == 0 {
        Some(wide_delta(raw, layout))
    } else {
        None
    }
}

/// `TS_DELTA_OR_MARK` flags `(realtime, packet_lost)`: realtime is bit 9 (layout 3) or 7
/// (layout 4), packet-lost bit 8. Per AMD's decoder (probed): neither flag = time delta;
/// packet lost alone = time delta and data-lost report; realtime alone = reference-clock marker
/// (no delta); both = ignored.
pub const fn mark_flags(raw: u64, layout: u8) -> (bool, bool) {
    let rt = if layout >= 4 { bits(raw, 7, 1) } else { bits(raw, 9, 1) };
    (rt != 0, bits(raw, 8, 1) != 0)
}

/// `TS_DELTA_OR_MARK` wide field: 36 bits (layout 3) or 52 bits (layout 4) at bit 12.
pub const fn wide_delta(raw: u64, layout: u8) -> u64 {
    if layout >= 4 {
        bits(raw, 12, 52)
    } else {
        bits(raw, 12, 36)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_lookup_prefers_the_longest_pattern() {
        assert_eq!(LAYOUT3.kind_by_byte[0x11], RdnaKind::LayoutHeader);
        assert_eq!(LAYOUT3.kind_by_byte[0x61], RdnaKind::Event);
        assert_eq!(LAYOUT3.kind_by_byte[0xE1], RdnaKind::EventBig);
        assert_eq!(LAYOUT3.kind_by_byte[0x0A], RdnaKind::Inst);
        assert_eq!(LAYOUT3.kind_by_byte[0x00], RdnaKind::Nop);
        assert_eq!(LAYOUT3.kind_by_byte[0x06], RdnaKind::TsDeltaS5W3);
        assert_eq!(LAYOUT4.kind_by_byte[0x06], RdnaKind::ShaderData);
        assert_eq!(LAYOUT4.kind_by_byte[0x16], RdnaKind::ExecPopcount3);
        assert_eq!(LAYOUT3.kind_by_byte[0x16], RdnaKind::Perf);
        assert_eq!(LAYOUT3.kind_by_byte[0x07], RdnaKind::Unknown);
        assert_eq!(LAYOUT3.kind_by_byte[0x41], RdnaKind::Unknown);
    }

    #[test]
    fn header_fields() {
        // first qword of gfx1100 streams in the corpus: 0x0000000068900191 (little-endian bytes 91 01 90 68).
        let raw = 0x0000_0000_6890_0191u64;
        assert_eq!(LAYOUT3.kind_by_byte[(raw & 0xff) as usize], RdnaKind::LayoutHeader);
        assert_eq!(header_layout(raw), 3);
        assert_eq!(header_simd(raw), 0);
        assert_eq!(header_sa_wgp(raw), 0);
    }

    #[test]
    fn wave_start_fields_per_layout() {
        // layout 3: sa=1, simd=2, wgp=5, slot=17, pipe=1, me=1
        let raw = 0x0C | (1 << 7) | (2 << 8) | (5 << 10) | (17 << 13) | (1 << 21) | (1 << 23);
        let f = wave_start(raw, 3);
        assert_eq!((f.cu, f.simd, f.slot, f.pipe, f.me), (5 | 0x80, 2, 17, 1, 1));
        // layout 4: wgp 4 bits, slot at 15
        let raw = 0x0C | (9 << 10) | (3 << 15);
        let f = wave_start(raw, 4);
        assert_eq!((f.cu, f.slot), (9, 3));
    }
}
