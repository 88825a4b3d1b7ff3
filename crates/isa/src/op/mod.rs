//! What an instruction does, independent of family and encoding: the opcode tables name instructions by
//! their LLVM mnemonic; [`Op::from_mnemonic`] turns a mnemonic into the operation the interpreter executes.
//!
//! Families rename instructions (gfx9 `global_load_dword` is gfx11 `global_load_b32`, `s_andn2_b32` is
//! `s_and_not1_b32`, `ds_write_b32` is `ds_store_b32`); both spellings map to one [`Op`]. A mnemonic the
//! tables know but this module does not is [`Op::Unimplemented`]: the decoder still sizes and classifies
//! it, the interpreter stops the dispatch with a report naming it.

mod mnemonic;

pub use crate::matrix::{F8f6f4, Mfma, MfmaTy, Wmma};

/// Comparison of a `v_cmp*` / `s_cmp*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Always false.
    F,
    /// `<`.
    Lt,
    /// `==`.
    Eq,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `!=` (integers) / ordered not-equal `<>` (floats).
    Lg,
    /// `>=`.
    Ge,
    /// Ordered (neither operand NaN).
    O,
    /// Unordered (an operand is NaN).
    U,
    /// `!(a >= b)`.
    Nge,
    /// `!(a <> b)`.
    Nlg,
    /// `!(a > b)`.
    Ngt,
    /// `!(a <= b)`.
    Nle,
    /// `!(a == b)`.
    Neq,
    /// `!(a < b)`.
    Nlt,
    /// Always true.
    T,
}

impl Cond {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "f" => Self::F,
            "lt" => Self::Lt,
            "eq" => Self::Eq,
            "le" => Self::Le,
            "gt" => Self::Gt,
            "lg" | "ne" => Self::Lg,
            "ge" => Self::Ge,
            "o" => Self::O,
            "u" => Self::U,
            "nge" => Self::Nge,
            "nlg" => Self::Nlg,
            "ngt" => Self::Ngt,
            "nle" => Self::Nle,
            "neq" => Self::Neq,
            "nlt" => Self::Nlt,
            "t" | "tru" => Self::T,
            _ => return None,
        })
    }
}

/// Operand type of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpTy {
    /// Half float.
    F16,
    /// Float.
    F32,
    /// Double.
    F64,
    /// Signed 16-bit.
    I16,
    /// Signed 32-bit.
    I32,
    /// Signed 64-bit.
    I64,
    /// Unsigned 16-bit.
    U16,
    /// Unsigned 32-bit.
    U32,
    /// Unsigned 64-bit.
    U64,
}

impl CmpTy {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "f16" => Self::F16,
            "f32" => Self::F32,
            "f64" => Self::F64,
            "i16" => Self::I16,
            "i32" => Self::I32,
            "i64" => Self::I64,
            "u16" => Self::U16,
            "u32" => Self::U32,
            "u64" => Self::U64,
            _ => return None,
        })
    }

    /// Operands are 64 bits wide.
    pub fn wide(self) -> bool {
        matches!(self, Self::F64 | Self::I64 | Self::U64)
    }
}

/// Branch conditions of SOPP branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchCond {
    /// `s_branch`.
    Always,
    /// `s_cbranch_scc0`.
    Scc0,
    /// `s_cbranch_scc1`.
    Scc1,
    /// `s_cbranch_vccz`.
    Vccz,
    /// `s_cbranch_vccnz`.
    Vccnz,
    /// `s_cbranch_execz`.
    Execz,
    /// `s_cbranch_execnz`.
    Execnz,
}

/// Read-modify-write operations of atomics (memory and LDS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// Exchange.
    Swap,
    /// Compare and swap: memory atomics' data = {new, compare}; gfx9/gfx10 LDS `ds_cmpst_*` take the compare
    /// value in data0 and the new value in data1.
    CmpSwap,
    /// gfx11+ LDS compare-store `ds_cmpstore_*`: the new value in data0, the compare value in data1 (RDNA3's
    /// DS_CMPSTORE_B32: `src = DATA, cmp = DATA2`; LLVM's gfx11 selection swaps the operands it gives
    /// `ds_cmpst_*`).
    CmpStore,
    /// Integer add.
    Add,
    /// Integer subtract.
    Sub,
    /// Reverse subtract (`data - old`).
    Rsub,
    /// Signed minimum.
    MinI,
    /// Unsigned minimum.
    MinU,
    /// Signed maximum.
    MaxI,
    /// Unsigned maximum.
    MaxU,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// `old >= data ? 0 : old + 1`.
    Inc,
    /// `old == 0 || old > data ? data : old - 1`.
    Dec,
    /// Float add.
    AddF,
    /// Float minimum.
    MinF,
    /// Float maximum.
    MaxF,
    /// Packed half add.
    PkAddF16,
    /// Subtract clamped at zero (`csub`).
    Csub,
}

impl AtomicOp {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "swap" | "storexchg" | "wrxchg" => Self::Swap,
            "cmpswap" | "cmpst" => Self::CmpSwap,
            "cmpstore" => Self::CmpStore,
            "add" => Self::Add,
            "sub" => Self::Sub,
            "rsub" => Self::Rsub,
            "smin" | "min_i32" | "min_i64" | "min_rtn_i32" => Self::MinI,
            "umin" => Self::MinU,
            "smax" => Self::MaxI,
            "umax" => Self::MaxU,
            "and" => Self::And,
            "or" => Self::Or,
            "xor" => Self::Xor,
            "inc" => Self::Inc,
            "dec" => Self::Dec,
            "add_f32" | "add_f64" => Self::AddF,
            "min_f32" | "min_f64" | "fmin" => Self::MinF,
            "max_f32" | "max_f64" | "fmax" => Self::MaxF,
            "pk_add_f16" => Self::PkAddF16,
            "csub" => Self::Csub,
            _ => return None,
        })
    }
}

/// How a load extends or places its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ext {
    /// Zero-extend to 32 bits (or whole dwords).
    Zero,
    /// Sign-extend to 32 bits.
    Sign,
    /// 16-bit result into the low half of the VGPR, high half kept (`_d16`); `true` sign-extends a byte.
    D16Lo(bool),
    /// 16-bit result into the high half, low half kept (`_d16_hi`); `true` sign-extends a byte.
    D16Hi(bool),
}

/// Memory access shape shared by vector memory and LDS instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Load `bytes` (1, 2, 4, 8, 12, 16).
    Load {
        /// Bytes per lane.
        bytes: u8,
        /// Extension of sub-dword data.
        ext: Ext,
    },
    /// Store `bytes`; `hi` stores the high 16 bits of the data register (`_d16_hi`).
    Store {
        /// Bytes per lane.
        bytes: u8,
        /// Store bits 16.. of the data (`_d16_hi`).
        hi: bool,
    },
    /// Atomic read-modify-write of 4 or 8 bytes; `rtn` returns the old value.
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// 4 or 8.
        bytes: u8,
        /// Returns the pre-op value.
        rtn: bool,
    },
    /// `buffer_load_format_*`/`buffer_store_format_*`: one texel per lane in the data and numeric format
    /// of the buffer resource (V#), converted from or to `comps` 32-bit register values (16-bit halves with
    /// `d16`, into or from the high half with `hi`).
    Format {
        /// A store.
        store: bool,
        /// Components (1..=4: `_x` to `_xyzw`).
        comps: u8,
        /// 16-bit register values, two per VGPR (`_d16`).
        d16: bool,
        /// One 16-bit value in the high half of the VGPR (`_d16_hi_x`).
        hi: bool,
    },
}

/// Segment of a vector memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// Flat: the address picks global memory, LDS or private memory by aperture.
    Flat,
    /// Global memory.
    Global,
    /// Private (scratch) memory.
    Scratch,
    /// Buffer (MUBUF) through a buffer resource.
    Buffer,
}

/// LDS (DS encoding) operations beyond plain access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DsOp {
    /// Load/store/atomic at `addr + offset`.
    Access(Access),
    /// Two loads at `addr + offset0 * size * stride` and `addr + offset1 * size * stride`.
    Read2 {
        /// 4 or 8.
        bytes: u8,
        /// 1, or 64 for `st64`.
        stride: u8,
    },
    /// Two stores.
    Write2 {
        /// 4 or 8.
        bytes: u8,
        /// 1, or 64 for `st64`.
        stride: u8,
    },
    /// `ds_swizzle_b32`.
    Swizzle,
    /// `ds_permute_b32` (push to lane addr/4).
    Permute,
    /// `ds_bpermute_b32` (pull from lane addr/4).
    Bpermute,
    /// `ds_nop`.
    Nop,
    /// A global wave sync instruction (`ds_gws_*`, GDS bit set; [`crate::Gws`]).
    Gws(GwsOp),
}

/// The global wave sync (GWS) instructions: barriers and semaphores shared by the waves of a queue's
/// dispatches, on resource `(M0[21:16] + offset0) % 64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GwsOp {
    /// `ds_gws_init`: the resource's counter = data0 of the first active lane.
    Init,
    /// `ds_gws_barrier`: arrive, wait until as many waves as the counter said (plus one) arrived.
    Barrier,
    /// `ds_gws_sema_v`: counter += 1.
    SemaV,
    /// `ds_gws_sema_br`: counter += data0 of the first active lane.
    SemaBr,
    /// `ds_gws_sema_p`: wait until the counter is positive, then decrement it.
    SemaP,
    /// `ds_gws_sema_release_all`: release every wave waiting in `ds_gws_sema_p`.
    SemaReleaseAll,
}

impl GwsOp {
    /// In opcode order (gfx9: DS opcodes 0x98..=0x9d, gfx10/gfx11: 0x18..=0x1d, with the GDS bit).
    pub const ALL: [GwsOp; 6] =
        [GwsOp::SemaReleaseAll, GwsOp::Init, GwsOp::SemaV, GwsOp::SemaBr, GwsOp::SemaP, GwsOp::Barrier];

    /// LLVM's mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            GwsOp::Init => "ds_gws_init",
            GwsOp::Barrier => "ds_gws_barrier",
            GwsOp::SemaV => "ds_gws_sema_v",
            GwsOp::SemaBr => "ds_gws_sema_br",
            GwsOp::SemaP => "ds_gws_sema_p",
            GwsOp::SemaReleaseAll => "ds_gws_sema_release_all",
        }
    }
}

/// Scalar memory operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemOp {
    /// `s_load_*` of `dwords`.
    Load(u8),
    /// `s_buffer_load_*` of `dwords` through a buffer resource.
    BufferLoad(u8),
    /// `s_store_*` of `dwords`.
    Store(u8),
    /// `s_buffer_store_*`.
    BufferStore(u8),
    /// gfx12 `s_load_u8/i8/u16/i16` (`buffer`: `s_buffer_load_*`): one byte or short, zero- or
    /// sign-extended into one SGPR.
    LoadSub {
        /// 1 or 2.
        bytes: u8,
        /// Sign-extend.
        signed: bool,
        /// Through a buffer resource.
        buffer: bool,
    },
    /// `s_memtime` / `s_memrealtime`: a 64-bit clock.
    Time,
    /// Cache maintenance, no functional effect.
    Nop,
}

macro_rules! vops {
    ($($name:ident),* $(,)?) => {
        /// Vector ALU operations (VOP1/VOP2/VOP3/VOP3P/VOPD halves), named like the mnemonic.
        #[allow(missing_docs)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum VOp { $($name),* }

        /// Calls the macro `$cb` with every [`VOp`] name: the one list for code generated per operation
        /// (the interpreter's handlers).
        macro_rules! for_each_vop { ($cb:ident) => { $cb! { $($name),* } } }
        pub(crate) use for_each_vop;
    };
}

vops! {
    // data movement and lanes
    MovB32, MovB64, CndmaskB32, ReadlaneB32, ReadfirstlaneB32, WritelaneB32, AccvgprRead, AccvgprWrite,
    AccvgprMov, SwapB32, MovrelsB32, MovreldB32, Nop, PermlaneX16, Permlane16,
    // 32-bit integer
    AddU32, SubU32, SubrevU32, AddCoU32, SubCoU32, SubrevCoU32, AddcCoU32, SubbCoU32, SubbrevCoU32, AddI32,
    SubI32, MulLoU32, MulHiU32, MulHiI32, MulU32U24, MulHiU32U24, MulI32I24, MulHiI32I24, MinU32, MaxU32,
    MinI32, MaxI32, AndB32, OrB32, XorB32, XnorB32, NotB32, LshlrevB32, LshrrevB32, AshrrevI32, BfmB32,
    BcntU32B32, MbcntLoU32B32, MbcntHiU32B32, BfrevB32, FfbhU32, FfblB32, FfbhI32, Add3U32, LshlAddU32,
    AddLshlU32, LshlOrB32, AndOrB32, Or3B32, Xor3B32, XadU32, BfeU32, BfeI32, BfiB32, AlignbitB32,
    AlignbyteB32, PermB32, MadU32U24, MadI32I24, MadU64U32, MadI64I32, Min3I32, Max3I32, Med3I32,
    Min3U32, Max3U32, Med3U32, SadU32, LshlrevB64, LshrrevB64, AshrrevI64, LshlAddU64,
    // 16-bit integer
    AddU16, SubU16, SubrevU16, MulLoU16, LshlrevB16, LshrrevB16, AshrrevI16, MaxU16, MaxI16, MinU16,
    MinI16, AddNcI16, SubNcI16, MovB16, CndmaskB16, AndB16, OrB16, XorB16, NotB16,
    Min3U16, Max3U16, Med3U16, Min3I16, Max3I16, Med3I16, MadU16, MadI16, MadU32U16, MadI32I16, CvtU32U16,
    CvtI32I16,
    // f32
    AddF32, SubF32, SubrevF32, MulF32, MulLegacyF32, FmaF32, MadF32, MacF32, FmacF32, FmamkF32, FmaakF32,
    MadmkF32, MadakF32, MinF32, MaxF32, Min3F32, Max3F32, Med3F32, RcpF32, RcpIflagF32, RsqF32, SqrtF32,
    LogF32, ExpF32, SinF32, CosF32, FloorF32, CeilF32, TruncF32, RndneF32, FractF32, LdexpF32,
    FrexpMantF32, FrexpExpI32F32, DivScaleF32, DivFmasF32, DivFixupF32, CvtF32I32, CvtF32U32,
    CvtI32F32, CvtU32F32, CvtRpiI32F32, CvtFlrI32F32, CvtF32Ubyte0, CvtF32Ubyte1, CvtF32Ubyte2,
    CvtF32Ubyte3, CvtPkrtzF16F32, FmaMixF32, FmaMixloF16, FmaMixhiF16, Dot2cF32F16, FmacLegacyF32,
    // integer dot products
    Dot4U32U8, Dot4I32I8,
    // f64
    AddF64, MulF64, FmaF64, FmacF64, MinF64, MaxF64, LdexpF64, DivScaleF64, DivFmasF64, DivFixupF64,
    RcpF64, RsqF64, SqrtF64, FractF64, FloorF64, CeilF64, TruncF64, RndneF64, FrexpMantF64,
    FrexpExpI32F64, CvtF64I32, CvtF64U32, CvtI32F64, CvtU32F64, CvtF32F64, CvtF64F32, TrigPreopF64,
    // f16
    AddF16, SubF16, SubrevF16, MulF16, FmaF16, FmacF16, MadF16, MacF16, MinF16, MaxF16, SqrtF16, RcpF16,
    RsqF16, LogF16, ExpF16, FloorF16, CeilF16, TruncF16, RndneF16, FractF16, LdexpF16, CvtF32F16,
    CvtF16F32, CvtF16U16, CvtF16I16, CvtU16F16, CvtI16F16, PackB32F16, Med3F16, Max3F16, Min3F16,
    FmamkF16, FmaakF16,
    // packed (VOP3P)
    PkAddF16, PkMulF16, PkFmaF16, PkMinF16, PkMaxF16, PkAddU16, PkSubU16, PkAddI16, PkSubI16, PkMulLoU16,
    PkLshlrevB16, PkLshrrevB16, PkAshrrevI16, PkMaxU16, PkMinU16, PkMaxI16, PkMinI16, PkMadU16,
    PkMovB32, PkFmaF32, PkMulF32, PkAddF32,
}

/// Scalar ALU operations (SOP1/SOP2/SOPK/SOPC), named like the mnemonic.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SOp {
    // SOP2
    AddU32,
    SubU32,
    AddI32,
    SubI32,
    AddcU32,
    SubbU32,
    MinI32,
    MinU32,
    MaxI32,
    MaxU32,
    CselectB32,
    CselectB64,
    AndB32,
    AndB64,
    OrB32,
    OrB64,
    XorB32,
    XorB64,
    Andn2B32,
    Andn2B64,
    Orn2B32,
    Orn2B64,
    NandB32,
    NandB64,
    NorB32,
    NorB64,
    XnorB32,
    XnorB64,
    LshlB32,
    LshlB64,
    LshrB32,
    LshrB64,
    AshrI32,
    AshrI64,
    BfmB32,
    BfmB64,
    MulI32,
    BfeU32,
    BfeI32,
    BfeU64,
    BfeI64,
    AbsdiffI32,
    MulHiU32,
    MulHiI32,
    Lshl1AddU32,
    Lshl2AddU32,
    Lshl3AddU32,
    Lshl4AddU32,
    AddNcU64,
    SubNcU64,
    MulU64,
    PackLlB32B16,
    PackLhB32B16,
    PackHhB32B16,
    PackHlB32B16,
    // SOP1
    MovB32,
    MovB64,
    CmovB32,
    CmovB64,
    NotB32,
    NotB64,
    WqmB32,
    WqmB64,
    BrevB32,
    BrevB64,
    Bcnt0B32,
    Bcnt0B64,
    Bcnt1B32,
    Bcnt1B64,
    Ff0B32,
    Ff0B64,
    Ff1B32,
    Ff1B64,
    FlbitB32,
    FlbitB64,
    FlbitI32,
    FlbitI64,
    SextI8,
    SextI16,
    Bitset0B32,
    Bitset0B64,
    Bitset1B32,
    Bitset1B64,
    GetpcB64,
    SetpcB64,
    SwappcB64,
    AbsI32,
    MovrelsB32,
    MovrelsB64,
    MovreldB32,
    MovreldB64,
    QuadmaskB32,
    QuadmaskB64,
    /// `s_<op>_saveexec_b32/b64`: `sdst = exec; exec = op(src, exec)`, with the operation's own operand order.
    Saveexec(Logic, bool),
    // SOPK
    MovkI32,
    CmovkI32,
    AddkI32,
    MulkI32,
    GetregB32,
    SetregB32,
    SetregImm32B32,
    CallB64,
    /// `s_cmpk_<cond>_<ty>`: compare with the zero/sign-extended 16-bit immediate.
    Cmpk(Cond, CmpTy),
    // SOPC
    /// `s_cmp_<cond>_<ty>`.
    Cmp(Cond, CmpTy),
    /// `s_bitcmp0/1_b32/b64`: `scc = bit(src0, src1) == value`.
    Bitcmp(bool, bool),
    /// gfx12 scalar float arithmetic `s_<op>_f32` (`false`) / `s_<op>_f16` (`true`).
    Float(FloatOp, bool),
    /// gfx12 scalar conversions `s_cvt_*`.
    Cvt(ScalarCvt),
    /// `s_bitreplicate_b64_b32`: every bit of the 32-bit source twice, into 64 bits.
    BitreplicateB64B32,
    /// gfx12's transcendentals on the VALU with a scalar result (`v_s_exp_f32 s6, s4`, VOP3):
    /// `f32` (`false`) or `f16` (`true`).
    Trans(TransOp, bool),
}

/// The operation of a `v_s_*` scalar transcendental.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransOp {
    /// `2^x`.
    Exp,
    /// `log2(x)`.
    Log,
    /// `1/x`.
    Rcp,
    /// `1/sqrt(x)`.
    Rsq,
    Sqrt,
}

/// The operation of a gfx12 scalar float instruction (RDNA4 ISA, SOP1/SOP2 "float" opcodes).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    /// IEEE-754-2019 minimumNumber / maximumNumber (a NaN operand yields the other).
    MinNum,
    MaxNum,
    /// IEEE-754-2019 minimum / maximum (a NaN operand yields NaN).
    Minimum,
    Maximum,
    /// `d = s0 * s1 + d`.
    Fmac,
    /// `d = s0 * s1 + K` (K the literal).
    Fmaak,
    /// `d = s0 * K + s1`.
    Fmamk,
    Ceil,
    Floor,
    Trunc,
    Rndne,
}

/// gfx12 scalar conversions.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarCvt {
    F32I32,
    F32U32,
    I32F32,
    U32F32,
    F16F32,
    F32F16,
    /// f32 from the high half's f16.
    HiF32F16,
    /// Two f32 rounded toward zero to f16, packed (`s0` low).
    PkRtzF16F32,
}

/// The logic of a saveexec instruction, as `f(s, exec)`.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Logic {
    And,
    Or,
    Xor,
    /// `s & !exec` (`andn2`, `and_not1`).
    AndNotExec,
    /// `s | !exec`.
    OrNotExec,
    Nand,
    Nor,
    Xnor,
    /// `!s & exec` (`andn1`, `and_not0`).
    NotSAndExec,
    /// `!s | exec`.
    NotSOrExec,
    /// `andn1_wrexec`: `exec = !s & exec`, `sdst = exec` afterwards.
    NotSAndExecWr,
    /// `andn2_wrexec`: `exec = s & !exec`, `sdst = exec` afterwards.
    AndNotExecWr,
}

/// One operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// No functional effect (`s_nop`, waits, clauses, priorities, cache maintenance, ...).
    Nop,
    /// `s_endpgm`.
    Endpgm,
    /// `s_barrier` (and gfx12 `s_barrier_wait`).
    Barrier,
    /// A SOPP branch.
    Branch(BranchCond),
    /// `s_trap`: ends the dispatch with a report.
    Trap,
    /// `s_sendmsg` and friends; only `MSG_DEALLOC_VGPRS` and interrupts occur in compute, both harmless.
    Sendmsg,
    /// Scalar ALU.
    Salu(SOp),
    /// Scalar memory.
    Smem(SmemOp),
    /// Vector ALU.
    Valu(VOp),
    /// `v_cmp_*` (`x` writes EXEC as well, `class` is `v_cmp_class_*`).
    Vcmp {
        /// Comparison.
        cond: Cond,
        /// Operand type.
        ty: CmpTy,
        /// `v_cmpx_*`.
        x: bool,
        /// `v_cmp_class_*` (cond is ignored).
        class: bool,
    },
    /// LDS.
    Ds(DsOp),
    /// Vector memory.
    Vmem(Seg, Access),
    /// CDNA matrix fused multiply-add (`v_mfma_*`).
    Mfma(Mfma),
    /// RDNA wave matrix multiply-accumulate `v_wmma_*_16x16x16_*`.
    Wmma(Wmma),
    /// gfx950's `v_mfma_ld_scale_b32`: the first half of a block-scaled `v_mfma_scale_*` pair, the E8M0
    /// scales of A and B for the f8f6f4 MFMA that follows.
    MfmaLdScale,
    /// Image load, store, sample or query (MIMG, [`crate::image`]).
    Image(crate::image::ImageOp),
    /// Known to the tables, not implemented by the interpreter.
    Unimplemented,
}
