//! The matrix instructions' operation types: CDNA's `v_mfma_*` ([`Mfma`]) and RDNA's `v_wmma_*` ([`Wmma`]),
//! with the operand layouts the interpreter (`exec::mfma`) uses. Re-exported by [`crate::op`].
//!
//! Every gfx9 `v_mfma_*` is described by its mnemonic: output type, `MxNxK` of one block, the block count
//! (`_2b`/`_4b`/`_16b` in the gfx94x names; implied by the type in the gfx908/gfx90a names) and the input
//! type. From these follow the operand layouts of AMD's matrix instruction calculator (see
//! [`Mfma::a_position`], [`Mfma::acc_position`]), and for gfx950's additions from AMD's CDNA4 ISA guide
//! (chapter 7: the four-register SMFMACs, the f8f6f4 formats and layouts).

/// A CDNA matrix instruction: `D = A * B + C` for each of `blocks` independent blocks, A `m x k`,
/// B `k x n`, C and D `m x n` per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mfma {
    /// Rows of A, C and D.
    pub m: u8,
    /// Columns of B, C and D.
    pub n: u8,
    /// Columns of A, rows of B (per block).
    pub k: u8,
    /// Independent blocks (1, 2, 4 or 16).
    pub blocks: u8,
    /// Element type of A.
    pub ty: MfmaTy,
    /// Element type of B (differs from A only for the mixed fp8/bf8 forms).
    pub b_ty: MfmaTy,
    /// Consecutive `k` values of A (and B) one lane holds.
    pub kpl: u8,
    /// Cycles the matrix core is busy (AMD's matrix instruction calculator, "Execution cycles"): 8 for
    /// 4x4, 32 for 16x16, 64 for 32x32 shapes (f64: 16 and 32) on gfx908/gfx90a; gfx94x halve the
    /// single-block 16- and 8-bit forms (`v_mfma_f32_16x16x16_f16`: 16).
    pub cycles: u16,
    /// `v_smfmac_*` (gfx94x): A is 4:2 structured-sparse, each lane holds two of every four consecutive
    /// `k` values of its row ([`Mfma::sparse_a_position`]) and `SRC2` holds their 2-bit positions; `C`
    /// is `D` (the instruction accumulates into its destination).
    pub sparse: bool,
    /// SMFMAC: 2 for gfx950's forms with four registers of A (`v_smfmac_f32_16x16x64_f16`, ...), which are
    /// two halves of the gfx94x layout: half `h` covers dense `k` in `h*K/2 .. (h+1)*K/2` with A's
    /// registers `2h, 2h+1` and B's `4h .. 4h+3` (CDNA4 ISA guide, 7.5.1.3); `kpl` is per half. Else 1.
    pub halves: u8,
    /// gfx950's `v_mfma_f32_{16x16x128,32x32x64}_f8f6f4`: A's and B's formats come from CBSZ and BLGP
    /// ([`F8f6f4`]), `ty`/`b_ty` are only the counters' `F8`.
    pub f8f6f4: bool,
}

/// An RDNA WMMA instruction: `16x16xK`, A of `input` and B of `b_input` type (they differ only in the
/// mixed fp8/bf8 forms), C and D f32 (i32 for the integer inputs, `v_wmma_i32_16x16x16_iu8`) or
/// (`out16`) of the input type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wmma {
    /// f16, bf16, (iu8) 8-bit or (iu4) 4-bit integers, or (gfx12) fp8/bf8.
    pub input: MfmaTy,
    /// B's element type.
    pub b_input: MfmaTy,
    /// Columns of A, rows of B: 16, or 32 for gfx12's `v_wmma_i32_16x16x32_iu4`.
    pub k: u8,
    /// C and D are 16-bit (the input type): on gfx11 in the half of each register OPSEL[2] selects, on
    /// gfx12 packed two rows per register.
    pub out16: bool,
    /// gfx12's `v_swmmac_*`: A is 4:2 structured-sparse (each lane stores two values of every group of four
    /// consecutive `k`, [`Wmma::sparse_a_position`]), `SRC2` holds their 2-bit positions
    /// ([`Wmma::index_position`]), OPSEL picks the set of indices, and `C` is `D`.
    pub sparse: bool,
}

impl Wmma {
    /// The implemented `v_wmma_*` and (gfx12) `v_swmmac_*` mnemonics.
    pub(crate) fn parse(m: &str) -> Option<Self> {
        if let Some(r) = m.strip_prefix("v_swmmac_") {
            return Self::parse_sparse(r);
        }
        let r = m.strip_prefix("v_wmma_")?;
        let (input, b_input, k, out16) = match r {
            "f32_16x16x16_f16" => (MfmaTy::F16, MfmaTy::F16, 16, false),
            "f32_16x16x16_bf16" => (MfmaTy::Bf16, MfmaTy::Bf16, 16, false),
            "f16_16x16x16_f16" => (MfmaTy::F16, MfmaTy::F16, 16, true),
            "bf16_16x16x16_bf16" => (MfmaTy::Bf16, MfmaTy::Bf16, 16, true),
            "i32_16x16x16_iu8" => (MfmaTy::I8, MfmaTy::I8, 16, false),
            "i32_16x16x16_iu4" => (MfmaTy::I4, MfmaTy::I4, 16, false),
            "i32_16x16x32_iu4" => (MfmaTy::I4, MfmaTy::I4, 32, false),
            _ => {
                let (a, b) = r.strip_prefix("f32_16x16x16_")?.split_once('_')?;
                let f8 = |t: &str| match t {
                    "fp8" => Some(MfmaTy::Fp8),
                    "bf8" => Some(MfmaTy::Bf8),
                    _ => None,
                };
                (f8(a)?, f8(b)?, 16, false)
            }
        };
        Some(Self { input, b_input, k, out16, sparse: false })
    }

    /// The eleven gfx12 `v_swmmac_*` forms (AMD's matrix instruction calculator, RDNA4): 16x16x32 with
    /// f16/bf16 (f32 or 16-bit out), iu8, iu4 and fp8/bf8 mixes, and 16x16x64 with iu4.
    fn parse_sparse(r: &str) -> Option<Self> {
        let (input, b_input, k, out16) = match r {
            "f32_16x16x32_f16" => (MfmaTy::F16, MfmaTy::F16, 32, false),
            "f32_16x16x32_bf16" => (MfmaTy::Bf16, MfmaTy::Bf16, 32, false),
            "f16_16x16x32_f16" => (MfmaTy::F16, MfmaTy::F16, 32, true),
            "bf16_16x16x32_bf16" => (MfmaTy::Bf16, MfmaTy::Bf16, 32, true),
            "i32_16x16x32_iu8" => (MfmaTy::I8, MfmaTy::I8, 32, false),
            "i32_16x16x32_iu4" => (MfmaTy::I4, MfmaTy::I4, 32, false),
            "i32_16x16x64_iu4" => (MfmaTy::I4, MfmaTy::I4, 64, false),
            _ => {
                let (a, b) = r.strip_prefix("f32_16x16x32_")?.split_once('_')?;
                let f8 = |t: &str| match t {
                    "fp8" => Some(MfmaTy::Fp8),
                    "bf8" => Some(MfmaTy::Bf8),
                    _ => None,
                };
                (f8(a)?, f8(b)?, 32, false)
            }
        };
        Some(Self { input, b_input, k, out16, sparse: true })
    }

    /// SWMMAC: where the group of four dense `k` values `4*g .. 4*g+3` of row `i` of A is stored, as
    /// (register offset, lane, bit offset of the first of its two stored values; the second follows at
    /// `bits` higher). AMD's matrix instruction calculator (`-a RDNA4 -i v_swmmac_* -d`, "A[i][k]").
    pub fn sparse_a_position(self, lanes: usize, i: usize, g: usize) -> (usize, usize, usize) {
        let k = 4 * g;
        match (lanes, self.input.bits(), self.k) {
            (32, 16, _) => (2 * (k / 16) + (k / 4) % 2, 16 * ((k / 8) % 2) + i, 0),
            (32, 8, _) => ((k / 8) % 2, 16 * (k / 16) + i, 16 * ((k / 4) % 2)),
            (32, 4, 32) => (0, 16 * (k / 16) + i, 8 * ((k / 4) % 4)),
            (32, _, _) => ((k / 16) % 2, 16 * (k / 32) + i, 8 * ((k / 4) % 4)),
            (_, 16, _) => ((k / 4) % 2, 16 * (k / 8) + i, 0),
            (_, 8, _) => (0, 32 * ((k / 8) % 2) + 16 * (k / 16) + i, 16 * ((k / 4) % 2)),
            (_, 4, 32) => (0, 16 * (k / 16) + i, 8 * ((k / 4) % 4)),
            _ => (0, 32 * ((k / 16) % 2) + 16 * (k / 32) + i, 8 * ((k / 4) % 4)),
        }
    }

    /// SWMMAC: where the index nibble of group `g` of row `i` of A is (lane, bit offset in the `SRC2`
    /// register, for index set 0); its low two bits give the position in the group of the first stored
    /// value, the high two bits that of the second. Set `s` (OPSEL) is `32 / sets` bits higher
    /// ([`Wmma::index_sets`]). AMD's matrix instruction calculator, "compression[i][k]".
    pub fn index_position(self, lanes: usize, i: usize, g: usize) -> (usize, usize) {
        let k = 4 * g;
        let (_, lane, _) = self.sparse_a_position(lanes, i, g);
        let bit = match (lanes, self.input.bits(), self.k) {
            (32, 16, _) => 8 * (k / 16) + 4 * ((k / 4) % 2),
            (32, 8, _) | (32, 4, 32) => 4 * ((k / 4) % 4),
            (32, _, _) => 4 * ((k / 4) % 8),
            (_, 16 | 8, _) => 4 * ((k / 4) % 2),
            _ => 4 * ((k / 4) % 4),
        };
        (lane, bit)
    }

    /// SWMMAC: sets of indices one `SRC2` register holds (OPSEL picks one): wave32 2 (1 for
    /// `16x16x64_iu4`), wave64 4 for 16- and 8-bit inputs, 2 for iu4.
    pub fn index_sets(self, lanes: usize) -> usize {
        match (lanes, self.input.bits(), self.k) {
            (32, 4, 64) => 1,
            (32, _, _) => 2,
            (_, 16 | 8, _) => 4,
            _ => 2,
        }
    }

    /// SWMMAC: where `B[k][j]` lives (register offset, lane, bit offset). AMD's matrix instruction
    /// calculator, "B[k][j]".
    pub fn sparse_b_position(self, lanes: usize, k: usize, j: usize) -> (usize, usize, usize) {
        match (lanes, self.input.bits(), self.k) {
            (32, 16, _) => (4 * (k / 16) + (k / 2) % 4, 16 * ((k / 8) % 2) + j, 16 * (k % 2)),
            (32, 8, _) => ((k / 4) % 4, 16 * (k / 16) + j, 8 * (k % 4)),
            (32, 4, 32) => ((k / 8) % 2, 16 * (k / 16) + j, 4 * (k % 8)),
            (32, _, _) => ((k / 8) % 4, 16 * (k / 32) + j, 4 * (k % 8)),
            (_, 16, _) => ((k / 2) % 4, 16 * (k / 8) + j, 16 * (k % 2)),
            (_, 8, _) => ((k / 4) % 2, 32 * ((k / 8) % 2) + 16 * (k / 16) + j, 8 * (k % 4)),
            (_, 4, 32) => (0, 32 * ((k / 8) % 2) + 16 * (k / 16) + j, 4 * (k % 8)),
            _ => ((k / 8) % 2, 32 * ((k / 16) % 2) + 16 * (k / 32) + j, 4 * (k % 8)),
        }
    }

    /// Cycles the instruction occupies the wave's matrix unit (AMD's matrix instruction calculator,
    /// "Execution cycles"): RDNA3 (gfx11) 32, 16 for iu4; RDNA4 (gfx12) 16 for 16-bit inputs, 8 for
    /// 8- and 4-bit ones.
    pub fn cycles(self, gfx12: bool) -> u16 {
        match (gfx12, self.input.bits()) {
            (false, 4) => 16,
            (false, _) => 32,
            (true, 16) => 16,
            (true, _) => 8,
        }
    }

    /// Integer inputs (iu8, iu4): NEG[0] and NEG[1] say A and B are signed.
    pub fn integer(self) -> bool {
        matches!(self.input, MfmaTy::I8 | MfmaTy::I4)
    }

    /// Where element `kk` of row `idx` of A (or column `idx` of B) lives on a gfx11 (`gfx12 == false`)
    /// or gfx12 wave of `lanes` lanes: (register offset, lane, bit offset). AMD's matrix instruction
    /// calculator (`-a RDNA3|RDNA4 -w 32|64`): gfx11 keeps all k values of a row in one lane (packed
    /// low to high, duplicated in every group of 16 lanes; the first copy is read); gfx12 spreads them
    /// over the groups of 16 lanes in 64-bit chunks (32-bit for 8-bit inputs in wave64; 4-bit inputs:
    /// 32-bit chunks, and K=16 uses only the first two groups in wave64 too).
    pub fn in_position(self, gfx12: bool, lanes: usize, idx: usize, kk: usize) -> (usize, usize, usize) {
        let bits = self.input.bits();
        if !gfx12 {
            let pos = kk * bits;
            return (pos / 32, idx, pos % 32);
        }
        match (lanes, bits, self.k) {
            (32, 16, _) => (2 * (kk / 8) + (kk / 2) % 2, 16 * ((kk / 4) % 2) + idx, 16 * (kk % 2)),
            (64, 16, _) => ((kk / 2) % 2, 32 * ((kk / 8) % 2) + 16 * ((kk / 4) % 2) + idx, 16 * (kk % 2)),
            (_, 4, 16) => (0, 16 * (kk / 8) + idx, 4 * (kk % 8)),
            (32, 4, _) => ((kk / 8) % 2, 16 * (kk / 16) + idx, 4 * (kk % 8)),
            (_, 4, _) => (0, 32 * ((kk / 8) % 2) + 16 * ((kk / 16) % 2) + idx, 4 * (kk % 8)),
            (32, _, _) => ((kk / 4) % 2, 16 * (kk / 8) + idx, 8 * (kk % 4)),
            _ => (0, 32 * ((kk / 4) % 2) + 16 * ((kk / 8) % 2) + idx, 8 * (kk % 4)),
        }
    }

    /// Where `C`/`D[i][j]` lives: (register offset, lane, bit offset). gfx11: rows `i % (lanes/16)` in
    /// lane groups, `i / (lanes/16)` in registers (16-bit outputs in the same place, the half chosen by
    /// OPSEL[2], which the caller adds); gfx12: wave32 row `i%8` in registers, `i/8` in lane groups;
    /// wave64 `i%4` in registers, lane `32*((i/4)%2) + 16*(i/8)`; 16-bit outputs pack rows `2r, 2r+1`
    /// into the halves of register `r`.
    pub fn acc_position(self, gfx12: bool, lanes: usize, i: usize, j: usize) -> (usize, usize, usize) {
        if !gfx12 {
            let g = lanes / 16;
            return (i / g, 16 * (i % g) + j, 0);
        }
        let (reg, lane) =
            if lanes == 32 { (i % 8, 16 * (i / 8) + j) } else { (i % 4, 32 * ((i / 4) % 2) + 16 * (i / 8) + j) };
        if self.out16 {
            (reg / 2, lane, 16 * (i % 2))
        } else {
            (reg, lane, 0)
        }
    }

    /// Registers per lane of B (and of A, except for SWMMAC: [`Wmma::a_regs`]).
    pub fn in_regs(self, gfx12: bool, lanes: usize) -> usize {
        let k = usize::from(self.k);
        let per_lane_bits = if gfx12 { 16 * k * self.input.bits() / lanes } else { k * self.input.bits() };
        per_lane_bits.div_ceil(32)
    }

    /// Registers per lane of A: B's, or half of them for SWMMAC (at least one).
    pub fn a_regs(self, gfx12: bool, lanes: usize) -> usize {
        let b = self.in_regs(gfx12, lanes);
        if self.sparse {
            b.div_ceil(2)
        } else {
            b
        }
    }

    /// Registers per lane of C and D.
    pub fn acc_regs(self, gfx12: bool, lanes: usize) -> usize {
        let regs = 256 / lanes;
        if gfx12 && self.out16 {
            regs / 2
        } else {
            regs
        }
    }
}

/// The operand formats of gfx950's `v_mfma_*_f8f6f4`, CBSZ choosing A's and BLGP B's (CDNA4 ISA guide,
/// 7.1.5 and table 30): 8-bit E4M3 and E5M2 (the OCP formats), 6-bit E2M3 and E3M2 and 4-bit E2M1, the
/// small ones without infinities or NaNs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F8f6f4 {
    /// `0`: E4M3 (fp8).
    E4m3,
    /// `1`: E5M2 (bf8).
    E5m2,
    /// `2`: E2M3 (fp6), bias 1.
    E2m3,
    /// `3`: E3M2 (bf6), bias 3.
    E3m2,
    /// `4`: E2M1 (fp4), bias 1.
    E2m1,
}

impl F8f6f4 {
    /// The format a CBSZ or BLGP value names (5..7 name none).
    pub fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => F8f6f4::E4m3,
            1 => F8f6f4::E5m2,
            2 => F8f6f4::E2m3,
            3 => F8f6f4::E3m2,
            4 => F8f6f4::E2m1,
            _ => return None,
        })
    }

    /// Bits of one element.
    pub fn bits(self) -> usize {
        match self {
            F8f6f4::E4m3 | F8f6f4::E5m2 => 8,
            F8f6f4::E2m3 | F8f6f4::E3m2 => 6,
            F8f6f4::E2m1 => 4,
        }
    }

    /// Registers per lane: the 32 values a lane holds, densely packed (8, 6 or 4).
    pub fn regs(self) -> usize {
        32 * self.bits() / 32
    }

    /// Where `k` of row (A) or column (B) `idx` of an `m`-row instruction with `k_total` columns lives:
    /// (lane, bit offset in the lane's registers taken as one little-endian number). CDNA4 ISA guide
    /// 7.1.5.1: the 4- and 6-bit formats hold 32 consecutive `k` per lane (lane group `k/32`); the 8-bit
    /// ones two halves of `K/2`, 16 consecutive `k` of each per lane (registers 0..3 the first half,
    /// 4..7 the second).
    pub fn position(self, m: usize, k_total: usize, idx: usize, k: usize) -> (usize, usize) {
        let bits = self.bits();
        if bits == 8 {
            let (h, kk) = (k / (k_total / 2), k % (k_total / 2));
            (idx + m * (kk / 16), (16 * h + kk % 16) * bits)
        } else {
            (idx + m * (k / 32), (k % 32) * bits)
        }
    }

    /// The element `code` (the low `bits` bits) as f32, exactly.
    pub fn to_f32(self, code: u32) -> f32 {
        let (ebits, mbits, bias) = match self {
            F8f6f4::E4m3 => return MfmaTy::Fp8.f8_to_f32(code as u8, false),
            F8f6f4::E5m2 => return MfmaTy::Bf8.f8_to_f32(code as u8, false),
            F8f6f4::E2m3 => (2, 3, 1),
            F8f6f4::E3m2 => (3, 2, 3),
            F8f6f4::E2m1 => (2, 1, 1),
        };
        let sign = if code >> (ebits + mbits) & 1 != 0 { -1.0f32 } else { 1.0 };
        let e = ((code >> mbits) & ((1 << ebits) - 1)) as i32;
        let mant = (code & ((1 << mbits) - 1)) as f32;
        let scale = 2f32.powi(-mbits);
        if e == 0 {
            sign * mant * scale * 2f32.powi(1 - bias)
        } else {
            sign * (1.0 + mant * scale) * 2f32.powi(e - bias)
        }
    }
}

/// Element type of a matrix instruction's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MfmaTy {
    /// f32 in, f32 accumulate.
    F32,
    /// gfx942's xf32: f32 registers of which the matrix core uses sign, exponent and the top 10 mantissa
    /// bits (the low 13 bits dropped, [`MfmaTy::xf32`]), f32 accumulate.
    Xf32,
    /// f64 in, f64 accumulate (register pairs).
    F64,
    /// f16 in, f32 accumulate.
    F16,
    /// bf16 in, f32 accumulate.
    Bf16,
    /// Signed 8-bit integers in, i32 accumulate (wrapping).
    I8,
    /// 8-bit floats with 4 exponent and 3 mantissa bits in, f32 accumulate: AMD's FNUZ form (bias 8) on
    /// gfx94x, OCP's E4M3FN (bias 7) on gfx950 and gfx12 ([`crate::Target::fp8_fnuz`]).
    Fp8,
    /// 8-bit floats with 5 exponent and 2 mantissa bits in, f32 accumulate: FNUZ (bias 16) on gfx94x,
    /// OCP's E5M2 (bias 15) on gfx950 and gfx12.
    Bf8,
    /// 4-bit integers (RDNA's `iu4` WMMA; signed or unsigned by the NEG bits), i32 accumulate.
    I4,
}

impl MfmaTy {
    /// Bits of one element in a register.
    pub fn bits(self) -> usize {
        match self {
            MfmaTy::F64 => 64,
            MfmaTy::F32 | MfmaTy::Xf32 => 32,
            MfmaTy::F16 | MfmaTy::Bf16 => 16,
            MfmaTy::I8 | MfmaTy::Fp8 | MfmaTy::Bf8 => 8,
            MfmaTy::I4 => 4,
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "f32" => MfmaTy::F32,
            "xf32" => MfmaTy::Xf32,
            "f64" => MfmaTy::F64,
            "f16" => MfmaTy::F16,
            "bf16" => MfmaTy::Bf16,
            "i8" => MfmaTy::I8,
            "fp8" => MfmaTy::Fp8,
            "bf8" => MfmaTy::Bf8,
            _ => return None,
        })
    }

    /// The value an xf32 MFMA multiplies for the f32 register `bits`: the low 13 mantissa bits cleared
    /// (truncation toward zero, subnormals included; a NaN with payload only in those bits becomes an
    /// infinity, as in the reference below). AMD documents no rounding for the format (the CDNA3 guide was not available to us); this is AMD's
    /// own host model of the xf32 GEMM, the single-argument `rocblas_xfloat32(float)` /
    /// `hipblasLtXfloat32(float)` conversion (`truncate_float_to_xfloat32`, mask `0xffffe000`) that the
    /// rocBLAS and hipBLASLt clients apply to A and B before their reference GEMM when the xf32 math mode
    /// is on.
    pub fn xf32(bits: u32) -> f32 {
        f32::from_bits(bits & 0xffff_e000)
    }

    /// The 8-bit float `byte` of this type (Fp8 or Bf8) as f32 (exact): FNUZ (`fnuz`) or OCP encoding.
    /// FNUZ: 0x80 is NaN, no infinities. OCP E4M3FN: `S.1111.111` is NaN, no infinities; OCP E5M2:
    /// IEEE-style infinities and NaNs at exponent 31.
    pub fn f8_to_f32(self, byte: u8, fnuz: bool) -> f32 {
        let (ebits, mbits) = if self == MfmaTy::Bf8 { (5u32, 2u32) } else { (4, 3) };
        let bias = (1i32 << (ebits - 1)) - 1 + i32::from(fnuz);
        let sign = if byte & 0x80 != 0 { -1.0f32 } else { 1.0 };
        let e = i32::from(byte >> mbits) & ((1 << ebits) - 1);
        let mant = u32::from(byte) & ((1 << mbits) - 1);
        if fnuz && byte == 0x80 {
            return f32::NAN;
        }
        if !fnuz {
            let emax = (1i32 << ebits) - 1;
            match self {
                MfmaTy::Fp8 if e == emax && mant == (1 << mbits) - 1 => return f32::NAN,
                MfmaTy::Bf8 if e == emax && mant != 0 => return f32::NAN,
                MfmaTy::Bf8 if e == emax => return sign * f32::INFINITY,
                _ => {}
            }
        }
        let scale = |p: i32| 2f32.powi(p);
        if e == 0 {
            sign * mant as f32 * scale(1 - bias - mbits as i32)
        } else {
            sign * (1.0 + mant as f32 * scale(-(mbits as i32))) * scale(e - bias)
        }
    }
}

impl Mfma {
    /// A `v_mfma_*` mnemonic in either LLVM spelling (gfx908/gfx90a `v_mfma_f32_32x32x1f32`,
    /// `v_mfma_f32_16x16x16bf16_1k`; gfx94x `v_mfma_f32_32x32x1_2b_f32`, `v_mfma_f32_16x16x16_bf16`), or
    /// `None` for a name that is no MFMA, and the gfx94x `v_smfmac_*` (sparse A).
    pub(crate) fn parse(mnemonic: &str) -> Option<Self> {
        if let Some(shape) = mnemonic.strip_prefix("v_mfma_f32_").and_then(|r| r.strip_suffix("_f8f6f4")) {
            let (m, k) = match shape {
                "16x16x128" => (16, 128),
                "32x32x64" => (32, 64),
                _ => return None,
            };
            // CDNA4 ISA guide, table 28: 16 or 32 cycles (16x16x128), 32 or 64 (32x32x64), the larger when
            // A or B is an 8-bit format; charged here as the larger (the formats are operands).
            let cycles = if m == 16 { 32 } else { 64 };
            let ty = MfmaTy::Fp8;
            return Some(Self {
                m,
                n: m,
                k,
                blocks: 1,
                ty,
                b_ty: ty,
                kpl: 32,
                cycles,
                sparse: false,
                halves: 1,
                f8f6f4: true,
            });
        }
        let (sparse, r) = match mnemonic.strip_prefix("v_smfmac_") {
            Some(r) => (true, r),
            None => (false, mnemonic.strip_prefix("v_mfma_")?),
        };
        let (out, r) = r.split_once('_')?;
        let mut dims = r.splitn(3, 'x');
        let num = |s: &str| s.parse::<u8>().ok();
        let m = num(dims.next()?)?;
        let n = num(dims.next()?)?;
        let tail = dims.next()?;
        let digits = tail.find(|c: char| !c.is_ascii_digit())?;
        let k = num(&tail[..digits])?;
        let rest = &tail[digits..];
        // gfx94x spell the type after an underscore (`..._16x16x16_f16`), gfx908/gfx90a without.
        let rest_is_gfx94x = rest.starts_with('_');
        if sparse && !rest_is_gfx94x {
            return None;
        }
        let b_ty: MfmaTy;
        let (ty, blocks, kpl) = if let Some(rest) = rest.strip_prefix('_') {
            // gfx94x: `_<B>b_<type>` or `_<type>`; a lane holds `m*k*blocks/64` consecutive k values.
            let (blocks, ty) = match rest.split_once("b_") {
                Some((b, ty)) => (num(b)?, ty),
                None => (1, rest),
            };
            let kpl = usize::from(m) * usize::from(k) * usize::from(blocks) / 64;
            // fp8/bf8 forms name A's and B's types (`_fp8_bf8`).
            let (a_ty, bt) = match ty.split_once('_') {
                Some((a, b)) => (MfmaTy::parse(a)?, Some(MfmaTy::parse(b)?)),
                None => (MfmaTy::parse(ty)?, None),
            };
            if bt.is_some() != matches!(a_ty, MfmaTy::Fp8 | MfmaTy::Bf8) {
                return None;
            }
            b_ty = bt.unwrap_or(a_ty);
            (a_ty, blocks, u8::try_from(kpl).ok()?)
        } else {
            // gfx908/gfx90a: the type fixes the k values per lane (bf16 without `_1k` packs two in one
            // register; `_1k`, f16 and i8 four), and the blocks follow.
            let (ty, kpl) = match rest {
                "f32" => (MfmaTy::F32, 1),
                "f64" => (MfmaTy::F64, 1),
                "f16" | "bf16_1k" => (if rest == "f16" { MfmaTy::F16 } else { MfmaTy::Bf16 }, 4),
                "bf16" => (MfmaTy::Bf16, 2),
                "i8" => (MfmaTy::I8, 4),
                _ => return None,
            };
            let blocks = 64 * kpl / (usize::from(m) * usize::from(k));
            b_ty = ty;
            (ty, u8::try_from(blocks).ok()?, kpl as u8)
        };
        let expect_out = match ty {
            MfmaTy::F64 => "f64",
            MfmaTy::I8 => "i32",
            _ => "f32",
        };
        // gfx950's SMFMACs with four registers of A: two halves of the gfx94x layout, `kpl` per half.
        let halves: u8 = if sparse && usize::from(kpl) * ty.bits() / 2 > 64 { 2 } else { 1 };
        let kpl = kpl / halves;
        let lanes = usize::from(m) * usize::from(blocks) * usize::from(k / halves) / usize::from(kpl);
        // SMFMAC lanes hold half of their `kpl` values of A. gfx950's dense single-block f16/bf16/i8 shapes
        // hold four registers of A per lane (`v_mfma_f32_16x16x32_f16`, `_32x32x16_bf16`, `v_mfma_i32_16x16x64_i8`,
        // `_32x32x32_i8`): the same layout with `kpl` = K/4 (16 rows) or K/2 (32 rows) consecutive k per lane
        // (IREE's MFMA layouts, `getSingleSubgroupLayout` in `IREEGPUAttrs.cpp`; AMD's calculator has no
        // CDNA4).
        let a_regs = (usize::from(kpl) * ty.bits() / if sparse { 2 } else { 1 }).div_ceil(32);
        let gfx950_shape =
            a_regs == 4 && !sparse && blocks == 1 && matches!(ty, MfmaTy::F16 | MfmaTy::Bf16 | MfmaTy::I8);
        if out != expect_out
            || (sparse && (blocks != 1 || !kpl.is_multiple_of(4) || ty == MfmaTy::F64 || ty == MfmaTy::F32))
            || kpl == 0
            || !(k / halves).is_multiple_of(kpl)
            || lanes != 64
            || !matches!(blocks, 1 | 2 | 4 | 16)
            || (a_regs > 2 && !gfx950_shape)
        {
            return None;
        }
        let base: u16 = match (ty, m) {
            (MfmaTy::F64, 4) => 16,
            (MfmaTy::F64, _) => 32,
            (_, 4) => 8,
            (_, 16) => 32,
            _ => 64,
        };
        let gfx94x = rest_is_gfx94x;
        // AMD's calculator (CDNA3): 16 and 32 cycles for the xf32 shapes too.
        let halved = gfx94x
            && blocks == 1
            && matches!(ty, MfmaTy::F16 | MfmaTy::Bf16 | MfmaTy::I8 | MfmaTy::Fp8 | MfmaTy::Bf8 | MfmaTy::Xf32);
        let cycles = if halved { base / 2 } else { base };
        Some(Self { m, n, k, blocks, ty, b_ty, kpl, cycles, sparse, halves, f8f6f4: false })
    }

    /// Multiply and add operations of one instruction: `2*M*N*K` per block.
    pub fn ops(self) -> u64 {
        2 * u64::from(self.m) * u64::from(self.n) * u64::from(self.k) * u64::from(self.blocks)
    }

    /// Bits of one C/D element: 64 for f64, else 32 (f32 or i32).
    fn out_bits(self) -> usize {
        if self.ty == MfmaTy::F64 {
            64
        } else {
            32
        }
    }

    /// Registers per lane of A (half of B's for SMFMAC). f8f6f4: those of an 8-bit A (the most).
    pub fn a_regs(self) -> usize {
        let bits = usize::from(self.kpl) * self.ty.bits() * usize::from(self.halves);
        (if self.sparse { bits / 2 } else { bits }).div_ceil(32)
    }

    /// Registers per lane of B. f8f6f4: those of an 8-bit B (the most).
    pub fn b_regs(self) -> usize {
        (usize::from(self.kpl) * self.b_ty.bits() * usize::from(self.halves)).div_ceil(32)
    }

    /// Registers per lane of C and D (`blocks * m * n / 64` elements, two registers each for f64).
    pub fn acc_regs(self) -> usize {
        usize::from(self.blocks) * usize::from(self.m) * usize::from(self.n) / 64 * self.out_bits() / 32
    }

    /// Where `D[i][j]` (and `C[i][j]`) of block `blk` lives: (register offset, lane). AMD's matrix
    /// instruction calculator: 32-bit outputs are written in groups of 4 rows (registers) by `n`
    /// columns (lanes); `64/n` such groups share a register set, the blocks that fit side by side in
    /// 64 lanes first. f64 outputs are the same with groups of 1 row (register pairs). E.g. f32 16x16
    /// keeps four consecutive rows of a column in a lane (`v(i%4)`, lane `j + 16*(i/4)`); f32 32x32 puts
    /// rows `i%4` in registers, `(i/4)%2` in lane halves and `i/8` in register groups; f64 16x16 puts
    /// rows `i%4` in lane groups and `i/4` in register pairs.
    pub fn acc_position(self, blk: usize, i: usize, j: usize) -> (usize, usize) {
        let (m, n) = (usize::from(self.m), usize::from(self.n));
        let regs_per_elem = self.out_bits() / 32;
        let height = if regs_per_elem == 2 { 1 } else { 4 };
        let groups_per_reg = 64 / n;
        let blocks_per_reg = 64_usize.div_ceil(n * m / height);
        let slot = blk * (m * n / 64) + (i / (height * groups_per_reg)) * height + i % height;
        let lane = (blk % blocks_per_reg) * n + ((i / height) % groups_per_reg) * blocks_per_reg * n + j;
        (slot * regs_per_elem, lane)
    }

    /// Where element `kk` of row `i` of A (block `blk`) lives: (register offset, lane, bit offset in the
    /// register). A lane holds `kpl` consecutive k values, packed low to high; lane `i + m*blk +
    /// m*blocks*(kk/kpl)` (AMD's calculator, `-A`). f64 elements are register pairs (offset 0).
    pub fn a_position(self, blk: usize, i: usize, kk: usize) -> (usize, usize, usize) {
        in_position(self.ty, usize::from(self.m), usize::from(self.blocks), usize::from(self.kpl), blk, i, kk)
    }

    /// SMFMAC: where stored value `slot` (of `kpl/2` per half, `slot` counting over both halves) of row
    /// `i`'s lane group `q` (the dense `k` values `q*kpl .. (q+1)*kpl` of each half) lives: (register
    /// offset, lane `i + m*q`, bit offset), packed low to high, two per group of four `k` values (AMD's
    /// calculator, CDNA3 `v_smfmac_*`, `-A`; CDNA4 ISA guide 7.5.1.3 for gfx950's four registers). Its
    /// position in its group of four is the 2-bit field `2*slot` of the index register's lane (plus the
    /// set CBSZ/ABID choose).
    pub fn sparse_a_position(self, i: usize, q: usize, slot: usize) -> (usize, usize, usize) {
        let bit = slot * self.ty.bits();
        (bit / 32, i + usize::from(self.m) * q, bit % 32)
    }

    /// SMFMAC: the dense `k` of stored value `slot` of lane group `q` whose index field is `pos`.
    pub fn sparse_k(self, q: usize, slot: usize, pos: usize) -> usize {
        let per_half = usize::from(self.kpl) / 2;
        let (h, s) = (slot / per_half, slot % per_half);
        h * self.half_k() + q * usize::from(self.kpl) + 4 * (s / 2) + pos
    }

    /// Dense `k` values of one SMFMAC half (all of `K` except for gfx950's four-register forms).
    fn half_k(self) -> usize {
        usize::from(self.k) / usize::from(self.halves)
    }

    /// SMFMAC: where `B[kk][j]` lives: the dense layout within each half, half `h` in B's registers
    /// `h*b_regs/2 ..` (CDNA4 ISA guide, 7.5.1.3, "Layout for Matrix B").
    pub fn sparse_b_position(self, kk: usize, j: usize) -> (usize, usize, usize) {
        let (h, k) = (kk / self.half_k(), kk % self.half_k());
        let (r, lane, bit) = self.b_position(0, k, j);
        (r + h * self.b_regs() / usize::from(self.halves), lane, bit)
    }

    /// Where `B[kk][j]` of block `blk` lives: as for A with `j` for `i` and `n` for `m`.
    pub fn b_position(self, blk: usize, kk: usize, j: usize) -> (usize, usize, usize) {
        in_position(self.b_ty, usize::from(self.n), usize::from(self.blocks), usize::from(self.kpl), blk, j, kk)
    }
}

fn in_position(
    ty: MfmaTy,
    rows: usize,
    blocks: usize,
    kpl: usize,
    blk: usize,
    i: usize,
    kk: usize,
) -> (usize, usize, usize) {
    let bit = (kk % kpl) * ty.bits();
    (bit / 32, i + rows * blk + rows * blocks * (kk / kpl), bit % 32)
}

/// Input types the counters tell apart (`SQ_INSTS_VALU_MFMA_<type>`, `SQ_INSTS_VALU_MFMA_MOPS_<type>`;
/// `Fp8` stands for the counters' `F8`, which count fp8 and bf8 inputs alike).
pub const MATRIX_TYPES: [MfmaTy; 7] =
    [MfmaTy::F16, MfmaTy::Bf16, MfmaTy::F32, MfmaTy::F64, MfmaTy::I8, MfmaTy::Fp8, MfmaTy::Xf32];

/// What a wave's MFMA instructions did, for the counters: instructions and operations (`2*M*N*K` per
/// block, multiply and add counted apart) per input type in [`MATRIX_TYPES`] order, and the matrix
/// core's busy cycles (each instruction's pass cycles, [`Mfma::cycles`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatrixStats {
    /// Instructions per type.
    pub insts: [u64; MATRIX_TYPES.len()],
    /// Operations per type.
    pub ops: [u64; MATRIX_TYPES.len()],
    /// Sum of the instructions' pass cycles.
    pub busy_cycles: u64,
}

impl MatrixStats {
    /// All matrix instructions.
    pub fn instructions(&self) -> u64 {
        self.insts.iter().sum()
    }

    /// Counts one executed instruction.
    pub fn record(&mut self, m: Mfma) {
        let ty = if m.ty == MfmaTy::Bf8 { MfmaTy::Fp8 } else { m.ty };
        let t = MATRIX_TYPES.iter().position(|&t| t == ty).unwrap_or(0);
        self.insts[t] += 1;
        self.ops[t] += m.ops();
        self.busy_cycles += u64::from(m.cycles);
    }

    /// Every field times `n` (`n` waves each doing these).
    pub fn scaled(&self, n: u64) -> MatrixStats {
        MatrixStats {
            insts: self.insts.map(|v| v * n),
            ops: self.ops.map(|v| v * n),
            busy_cycles: self.busy_cycles * n,
        }
    }

    /// Adds `o`.
    pub fn add(&mut self, o: &MatrixStats) {
        for (a, b) in self.insts.iter_mut().zip(o.insts) {
            *a += b;
        }
        for (a, b) in self.ops.iter_mut().zip(o.ops) {
            *a += b;
        }
        self.busy_cycles += o.busy_cycles;
    }
}
