//! AMD's instruction categories ([`LineClass`]: AMD's numbers and names) as a mapping over
//! `rocprof-isa`'s instruction classes.
//!
//! AMD's trace decoder classifies an instruction from the mnemonic text its ISA callback returns
//! (`source/trie.cpp`: a prefix table, `v_*` is VALU, any other `s_*` is SALU). Here the decode and the
//! class are `rocprof-isa`'s (the class the interpreter and the static walk count in); the category is
//! that class's row of [`OF_CLASS`], except where AMD's text lookup differs ([`EXCEPTIONS`]: for example
//! `s_gl1_inv` and `s_code_end` are SALU because no prefix matches them, gfx9's `s_barrier` has a
//! category of its own) and for instructions `rocprof-isa` gives no pipe ([`by_encoding`]). The few
//! mnemonic facts the trace walker needs are [`flags`].
//!
//! Every opcode of every `rocprof-isa` table got the same category and flags from this mapping as from
//! the mnemonic rules it replaced (9,972 table entries compared when it was written).

use rocprof_isa::op::{Access, DsOp, Seg, SmemOp};
use rocprof_isa::table::Enc;
use rocprof_isa::{Family, Inst, InstClass, Op, CLASS_COUNT};

/// AMD's category of an instruction (its `InstCategory` number): what kind of trace token it pairs
/// with. Not an instruction class of its own: which instruction has which category is the mapping over
/// `rocprof-isa`'s classes in [`category`]; the numbers and names are AMD's ([`LineClass::NAMES`]).
/// The numeric order matters: "skippable" is `class != Salu && class <= Immed`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineClass(u8);

// AMD's category names, spelled as the walker has always used them.
#[allow(non_upper_case_globals)]
impl LineClass {
    /// Never traced (`s_delay_alu`, `s_wait_alu`, `s_set_vgpr_msb`); stepped over.
    pub const Skip: LineClass = LineClass(0);
    /// Scalar memory.
    pub const Smem: LineClass = LineClass(1);
    /// Scalar ALU.
    pub const Salu: LineClass = LineClass(2);
    /// Vector memory (including global and scratch).
    pub const Vmem: LineClass = LineClass(3);
    /// Flat memory.
    pub const Flat: LineClass = LineClass(4);
    /// LDS.
    pub const Lds: LineClass = LineClass(5);
    /// Vector ALU.
    pub const Valu: LineClass = LineClass(6);
    /// No-pipe instruction.
    pub const Immed: LineClass = LineClass(9);
    /// Ray tracing.
    pub const Bvh: LineClass = LineClass(12);
    /// Unknown mnemonic.
    pub const DontKnow: LineClass = LineClass(20);
    /// Any branch (`s_branch`, `s_cbranch_*`).
    pub const Branch: LineClass = LineClass(21);
    /// gfx12 `s_barrier_wait` that the trace omitted (set while walking).
    pub const BarrierWaitExcluded: LineClass = LineClass(22);
    /// gfx9 `v_mfma_scale_*`.
    pub const MfmaScale: LineClass = LineClass(23);
    /// gfx9 `s_barrier`.
    pub const Gfx9Barrier: LineClass = LineClass(24);
    /// gfx12 `v_mov_b64`.
    pub const VMovB64: LineClass = LineClass(25);

    /// Every category the walker uses, with its name.
    pub const NAMES: [(LineClass, &'static str); 15] = [
        (Self::Skip, "Skip"),
        (Self::Smem, "Smem"),
        (Self::Salu, "Salu"),
        (Self::Vmem, "Vmem"),
        (Self::Flat, "Flat"),
        (Self::Lds, "Lds"),
        (Self::Valu, "Valu"),
        (Self::Immed, "Immed"),
        (Self::Bvh, "Bvh"),
        (Self::DontKnow, "DontKnow"),
        (Self::Branch, "Branch"),
        (Self::BarrierWaitExcluded, "BarrierWaitExcluded"),
        (Self::MfmaScale, "MfmaScale"),
        (Self::Gfx9Barrier, "Gfx9Barrier"),
        (Self::VMovB64, "VMovB64"),
    ];

    /// AMD's `InstCategory` number.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// AMD's name of the category.
    pub fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(c, _)| *c == self).map_or("?", |(_, n)| n)
    }
}

impl std::fmt::Debug for LineClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Mnemonic facts the walker needs beyond the class.
pub mod flags {
    /// Mnemonic starts with `s_waitcnt`.
    pub const WAITCNT: u8 = 1;
    /// Mnemonic contains `_load_`.
    pub const LOAD: u8 = 2;
    /// Mnemonic contains `scratch_`.
    pub const SCRATCH: u8 = 4;
    /// gfx12 `s_barrier_wait`.
    pub const BARRIER_WAIT: u8 = 8;
    /// `s_endpgm`.
    pub const ENDPGM: u8 = 16;
}

/// Decoded facts about one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstInfo {
    /// Size in bytes (4 to 16).
    pub size: u8,
    /// Issue class.
    pub class: LineClass,
    /// Branch offset in dwords (`simm16`) for [`LineClass::Branch`].
    pub simm16: i16,
    /// [`flags`] bits.
    pub flags: u8,
}

impl InstInfo {
    pub(crate) const fn new(size: u8, class: LineClass) -> Self {
        Self { size, class, simm16: 0, flags: 0 }
    }
    pub(crate) const fn with_flags(mut self, flags: u8) -> Self {
        self.flags |= flags;
        self
    }
}

/// A mnemonic-level stand-in for the instruction's text: a representative LLVM mnemonic (and,
/// for branches, the decimal offset operand) that AMD's decoder classifies exactly like the
/// instruction itself. This is what the AMD backend's ISA callback answers with; it is not a
/// full disassembly (operands are omitted).
pub fn class_text(info: &InstInfo) -> String {
    let f = info.flags;
    let text = match info.class {
        LineClass::Skip => "s_delay_alu",
        LineClass::Smem if f & flags::LOAD != 0 => "s_load_b32",
        LineClass::Smem => "s_dcache_inv",
        LineClass::Salu => "s_mov_b32",
        LineClass::Vmem if f & flags::SCRATCH != 0 && f & flags::LOAD != 0 => "scratch_load_b32",
        LineClass::Vmem if f & flags::SCRATCH != 0 => "scratch_store_b32",
        LineClass::Vmem if f & flags::LOAD != 0 => "global_load_b32",
        LineClass::Vmem => "global_store_b32",
        LineClass::Flat if f & flags::LOAD != 0 => "flat_load_b32",
        LineClass::Flat => "flat_store_b32",
        LineClass::Lds if f & flags::LOAD != 0 => "ds_load_b32",
        LineClass::Lds => "ds_store_b32",
        LineClass::Valu => "v_mov_b32",
        LineClass::Immed if f & flags::ENDPGM != 0 => "s_endpgm",
        LineClass::Immed if f & flags::WAITCNT != 0 => "s_waitcnt 0",
        LineClass::Immed if f & flags::BARRIER_WAIT != 0 => "s_barrier_wait 0xffff",
        LineClass::Immed => "s_nop 0",
        LineClass::Bvh => "image_bvh_intersect_ray",
        LineClass::DontKnow => "exp",
        LineClass::Branch => return format!("s_cbranch_scc0 {}", info.simm16 as u16),
        LineClass::BarrierWaitExcluded => "s_barrier_wait 0xffff",
        LineClass::MfmaScale => "v_mfma_scale_f32_16x16x128_f8f6f4",
        LineClass::Gfx9Barrier => "s_barrier",
        LineClass::VMovB64 => "v_mov_b64",
        _ => "exp",
    };
    text.to_string()
}

/// AMD's category of each of `rocprof-isa`'s instruction classes, in [`InstClass::ALL`] order: what
/// AMD's lookup names an instruction of that class unless [`EXCEPTIONS`] says otherwise. `None`
/// (class `Other`: no pipe in `rocprof-isa`, for example cache maintenance or an operation it does not
/// implement) leaves it to the encoding ([`by_encoding`]).
pub const OF_CLASS: [(InstClass, Option<LineClass>); CLASS_COUNT] = [
    (InstClass::Salu, Some(LineClass::Salu)),
    (InstClass::Smem, Some(LineClass::Smem)),
    (InstClass::Valu, Some(LineClass::Valu)),
    (InstClass::VmemLoad, Some(LineClass::Vmem)),
    (InstClass::VmemStore, Some(LineClass::Vmem)),
    (InstClass::FlatLoad, Some(LineClass::Flat)),
    (InstClass::FlatStore, Some(LineClass::Flat)),
    (InstClass::Lds, Some(LineClass::Lds)),
    (InstClass::BranchTaken, Some(LineClass::Branch)),
    (InstClass::BranchNotTaken, Some(LineClass::Branch)),
    (InstClass::Barrier, Some(LineClass::Immed)),
    (InstClass::Waitcnt, Some(LineClass::Immed)),
    (InstClass::Other, None),
];

/// Where AMD's lookup of the mnemonic text names another category than the instruction's class
/// does: `(mnemonic or prefix ending in '_', families it applies to (empty: all), category)`.
/// The first matching row wins.
pub const EXCEPTIONS: &[(&str, &[Family], LineClass)] = &[
    // no prefix entry matches them, so AMD's `s_*` rule makes them SALU
    ("s_round_mode", &[], LineClass::Salu),
    ("s_denorm_mode", &[], LineClass::Salu),
    ("s_code_end", &[], LineClass::Salu),
    ("s_gl1_inv", &[], LineClass::Salu),
    // message, version and (gfx12) named-barrier forms have no-pipe prefixes
    ("s_sendmsg_rtn_b32", &[], LineClass::Immed),
    ("s_sendmsg_rtn_b64", &[], LineClass::Immed),
    ("s_version", &[], LineClass::Immed),
    ("s_barrier_signal", &[], LineClass::Immed),
    ("s_barrier_signal_isfirst", &[], LineClass::Immed),
    ("s_barrier_init", &[], LineClass::Immed),
    ("s_barrier_join", &[], LineClass::Immed),
    ("s_sleep_var", &[], LineClass::Immed),
    // categories of their own
    ("s_barrier", &[Family::Gfx9, Family::Gfx10], LineClass::Gfx9Barrier),
    ("v_mov_b64", &[Family::Gfx12], LineClass::VMovB64),
    ("v_mfma_scale_", &[Family::Gfx9], LineClass::MfmaScale),
    ("image_bvh", &[], LineClass::Bvh),
];

/// AMD's category and walker facts for `inst`, decoded for a target of `family`.
pub fn info_of(family: Family, inst: &Inst) -> InstInfo {
    let class = category(family, inst.enc, inst.name, &inst.op, inst.class, inst.hint);
    let mut info = InstInfo::new(inst.size, class).with_flags(facts(inst.enc, inst.name, &inst.op));
    if inst.enc == Enc::Sopp {
        info.simm16 = inst.imm as i16;
    }
    info
}

/// AMD's category of an instruction `rocprof-isa` decoded (encoding, mnemonic, operation, class, and
/// whether it is a hint that never issues): [`LineClass::Skip`] for a hint, else the [`EXCEPTIONS`] row
/// of the mnemonic, else the category of the class ([`OF_CLASS`]), or for an operation `rocprof-isa`
/// does not implement or gives no pipe, the encoding's ([`by_encoding`]).
pub fn category(family: Family, enc: Enc, n: &str, op: &Op, class: InstClass, hint: bool) -> LineClass {
    if hint {
        return LineClass::Skip;
    }
    let named = |m: &str| if m.ends_with('_') { n.starts_with(m) } else { n == m };
    if let Some(&(_, _, c)) = EXCEPTIONS.iter().find(|(m, f, _)| named(m) && (f.is_empty() || f.contains(&family))) {
        return c;
    }
    match OF_CLASS[class as usize].1 {
        Some(c) if *op != Op::Unimplemented => c,
        _ => by_encoding(enc, n),
    }
}

/// AMD's category of an instruction `rocprof-isa` gives no pipe (class `Other`, or an operation it does
/// not implement): memory encodings name their pipe, the program-control encoding is no-pipe apart from
/// its branches, otherwise the mnemonic's `v_`/`ds_`/`s_` prefix decides as in AMD's lookup.
pub fn by_encoding(enc: Enc, name: &str) -> LineClass {
    match enc {
        Enc::Sopp if name.starts_with("s_branch") || name.starts_with("s_cbranch") => LineClass::Branch,
        Enc::Sopp => LineClass::Immed,
        Enc::Smem => LineClass::Smem,
        Enc::Ds => LineClass::Lds,
        Enc::Flat => LineClass::Flat,
        Enc::Global | Enc::Scratch | Enc::Mubuf | Enc::Mtbuf | Enc::Mimg => LineClass::Vmem,
        _ if name.starts_with("v_") => LineClass::Valu,
        _ if name.starts_with("ds_") || name.starts_with("lds_") => LineClass::Lds,
        _ if name.starts_with("s_") => LineClass::Salu,
        _ => LineClass::DontKnow,
    }
}

/// The mnemonic facts the walker needs ([`flags`]).
fn facts(enc: Enc, n: &str, op: &Op) -> u8 {
    let mut f = 0;
    if n.starts_with("s_waitcnt") {
        f |= flags::WAITCNT;
    }
    if n == "s_endpgm" {
        f |= flags::ENDPGM;
    }
    if n == "s_barrier_wait" {
        f |= flags::BARRIER_WAIT;
    }
    let load = match (enc, op) {
        (Enc::Smem, Op::Smem(SmemOp::Load(_) | SmemOp::BufferLoad(_) | SmemOp::LoadSub { .. })) => true,
        (Enc::Ds, Op::Ds(DsOp::Access(Access::Load { .. }) | DsOp::Read2 { .. })) => true,
        (Enc::Flat | Enc::Global | Enc::Scratch | Enc::Mubuf | Enc::Mtbuf, Op::Vmem(_, a)) => {
            matches!(a, Access::Load { .. })
        }
        (Enc::Flat | Enc::Global | Enc::Scratch | Enc::Mubuf | Enc::Mtbuf, _) => n.contains("_load_"),
        _ => false,
    };
    if load {
        f |= flags::LOAD;
    }
    let scratch = match (enc, op) {
        (Enc::Flat, _) | (_, Op::Vmem(Seg::Flat, _)) => false,
        (Enc::Scratch, _) | (Enc::Global | Enc::Mubuf | Enc::Mtbuf, Op::Vmem(Seg::Scratch, _)) => true,
        _ => false,
    };
    if scratch {
        f |= flags::SCRATCH;
    }
    f
}

#[cfg(test)]
mod tests {
    use crate::family::Family;
    use crate::isa::{decode, flags, InstInfo, LineClass};

    fn d(words: &[u32], family: Family) -> InstInfo {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(family, &bytes).unwrap()
    }

    /// `category` indexes `OF_CLASS` by the class number: its rows must be rocprof-isa's classes in order.
    #[test]
    fn of_class_rows_are_rocprof_isas_classes_in_order() {
        let rows: Vec<_> = super::OF_CLASS.iter().map(|(c, _)| *c).collect();
        assert_eq!(rows, rocprof_isa::InstClass::ALL);
    }

    // Encodings below are words of the corpus code objects with LLVM's sizes for them; the classes are
    // AMD's categories of their mnemonics.
    #[test]
    fn gfx11_sizes_and_classes() {
        let g = Family::Gfx11;
        let e = d(&[0xbfb00000], g);
        assert_eq!((e.size, e.class, e.flags), (4, LineClass::Immed, flags::ENDPGM));
        assert_eq!(d(&[0xf4080100, 0], g), InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xd6560001, 0], g).size, 8);
        assert_eq!(d(&[0xbf870112], g).class, LineClass::Skip);
        assert_eq!((d(&[0xbf89fc07], g).class, d(&[0xbf89fc07], g).flags), (LineClass::Immed, flags::WAITCNT));
        assert_eq!(d(&[0xdc560000, 0], g), InstInfo::new(8, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xca000080, 0], g).size, 8);
        assert_eq!(d(&[0xd8340000, 0], g).class, LineClass::Lds);
        let b = d(&[0xbfa5002b], g);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, 43));
        assert_eq!(d(&[0x7c9800ff, 0x7f], g).size, 8);
        assert_eq!(d(&[0xbfbd0000], g).class, LineClass::Immed);
        assert_eq!(d(&[0x8402850f], g).class, LineClass::Salu);
        assert_eq!(d(&[0xbe80007e], g).class, LineClass::Salu);
        assert_eq!(d(&[0xbf9f0000], g).class, LineClass::Salu, "s_code_end: no prefix entry, SALU");
    }

    /// gfx11's SOPK waits are LLVM's opcodes 0x18..=0x1b (`s_waitcnt_vscnt` .. `s_waitcnt_lgkmcnt`);
    /// 0x16/0x17 are `s_subvector_loop_begin/end`, plain SALU by AMD's `s_*` rule.
    #[test]
    fn gfx11_sopk_waits_are_no_pipe_waits() {
        let g = Family::Gfx11;
        for op in 0x18..=0x1b {
            let i = d(&[0xb000_0000 | (op << 23)], g);
            assert_eq!((i.class, i.flags), (LineClass::Immed, flags::WAITCNT), "{op:#x}");
        }
        for op in [0x16, 0x17] {
            assert_eq!(d(&[0xb000_0000 | (op << 23)], g).class, LineClass::Salu, "{op:#x}");
        }
    }

    #[test]
    fn gfx12_sizes_and_classes() {
        let g = Family::Gfx12;
        assert_eq!(d(&[0xee05407c, 0, 0], g), InstInfo::new(12, LineClass::Vmem).with_flags(flags::LOAD));
        assert_eq!(d(&[0xee068000, 0, 0], g).size, 12);
        assert_eq!(d(&[0xbf88fffd], g).class, LineClass::Skip);
        assert_eq!(d(&[0xbfc70000], g).class, LineClass::Immed);
        assert_eq!((d(&[0xbf94ffff], g).class, d(&[0xbf94ffff], g).flags), (LineClass::Immed, flags::BARRIER_WAIT));
        assert_eq!(d(&[0xbe804ec1], g).class, LineClass::Immed);
        assert_eq!(d(&[0xf4004100, 0], g).class, LineClass::Smem);
        assert_eq!(d(&[0xcc404026, 0], g).size, 8);
        let b = d(&[0xbfa1ffa3], g);
        assert_eq!((b.class, b.simm16), (LineClass::Branch, -93));
        assert_eq!(d(&[0xbfb60003], g).class, LineClass::Immed);
    }

    /// gfx9 words of every CDNA generation decode: gfx942's tables first, then gfx950's and the older
    /// targets' (a gfx90a-only bf16 MFMA from rocBLAS's gfx90a Tensile kernels, LLVM: 8 bytes).
    #[test]
    fn gfx9_decodes_every_cdna_generation() {
        let g = Family::Gfx9;
        assert_eq!(d(&[0xd3ed8000, 0x04020900], g), InstInfo::new(8, LineClass::Valu));
        assert_eq!(d(&[0xbf8a0000], g).class, LineClass::Gfx9Barrier);
        assert_eq!((d(&[0xbf8cc07f], g).class, d(&[0xbf8cc07f], g).flags), (LineClass::Immed, flags::WAITCNT));
        assert_eq!(d(&[0xc0020002, 0x2c], g), InstInfo::new(8, LineClass::Smem).with_flags(flags::LOAD));
        assert_eq!(d(&[0x00000000], Family::Gfx11), InstInfo::new(4, LineClass::DontKnow), "no instruction");
    }
}
