//! The matrix instructions' operation types: CDNA's `v_mfma_*` ([`Mfma`]) and RDNA's `v_wmma_*` ([`Wmma`]),
//! with the operand layouts the interpreter (`exec::mfma`) uses. Re-exported by [`crate::op`].

/// Shape of a CDNA matrix instruction: `D = A * B + C` with A `m x k`, B `k x n`, C and D `m x n`, one
/// block, every operand f32 or every operand f64 (the multi-block shapes and the other types are not
/// implemented yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mfma {
    /// Rows of A, C and D.
    pub m: u8,
    /// Columns of B, C and D.
    pub n: u8,
    /// Columns of A, rows of B.
    pub k: u8,
    /// Element type of A and B (C and D are f32, or f64 for f64 inputs).
    pub ty: MfmaTy,
}

/// An RDNA WMMA instruction: 16x16x16, A and B of `input` type, C and D f32 or (`out16`) of the input type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wmma {
    /// f16 or bf16.
    pub input: MfmaTy,
    /// C and D are 16-bit (the input type), in the half of each register OPSEL[2] selects.
    pub out16: bool,
}

/// Input element type of a matrix instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MfmaTy {
    /// f32 in, f32 accumulate.
    F32,
    /// f64 in, f64 accumulate (register pairs).
    F64,
    /// f16 in (four per lane in two registers), f32 accumulate.
    F16,
    /// bf16 in, laid out as f16 (gfx90a's `_1k` forms, gfx94x's `_bf16`), f32 accumulate.
    Bf16,
}

impl Mfma {
    /// The implemented matrix instructions (both LLVM spellings: gfx942 names them `..._16x16x4_f32`).
    pub(crate) fn parse(m: &str) -> Option<Self> {
        Some(match m {
            "v_mfma_f32_16x16x4f32" | "v_mfma_f32_16x16x4_f32" => Self { m: 16, n: 16, k: 4, ty: MfmaTy::F32 },
            "v_mfma_f32_32x32x2f32" | "v_mfma_f32_32x32x2_f32" => Self { m: 32, n: 32, k: 2, ty: MfmaTy::F32 },
            "v_mfma_f64_16x16x4f64" | "v_mfma_f64_16x16x4_f64" => Self { m: 16, n: 16, k: 4, ty: MfmaTy::F64 },
            "v_mfma_f32_16x16x16f16" | "v_mfma_f32_16x16x16_f16" => Self { m: 16, n: 16, k: 16, ty: MfmaTy::F16 },
            "v_mfma_f32_32x32x8f16" | "v_mfma_f32_32x32x8_f16" => Self { m: 32, n: 32, k: 8, ty: MfmaTy::F16 },
            "v_mfma_f32_16x16x16bf16_1k" | "v_mfma_f32_16x16x16_bf16" => Self { m: 16, n: 16, k: 16, ty: MfmaTy::Bf16 },
            "v_mfma_f32_32x32x8bf16_1k" | "v_mfma_f32_32x32x8_bf16" => Self { m: 32, n: 32, k: 8, ty: MfmaTy::Bf16 },
            _ => return None,
        })
    }

    /// Registers per lane of C and D (`m * n / 64` elements, two registers each for f64).
    pub fn acc_regs(self) -> usize {
        usize::from(self.m) * usize::from(self.n) / 64 * if self.ty == MfmaTy::F64 { 2 } else { 1 }
    }

    /// Where `D[i][j]` (and `C[i][j]`) lives: (register offset, lane). AMD's matrix instruction calculator
    /// (`matrix_calculator.py -a CDNA2 -i v_mfma_f32_16x16x4f32 -D -R`): f32 16x16 keeps four consecutive
    /// rows of a column in a lane (`v(i%4)`, lane `j + 16*(i/4)`); f32 32x32 groups rows by eight, the
    /// first four in lanes 0-31 and the next four in lanes 32-63 (`v(i%4 + 4*(i/8))`, lane
    /// `j + 32*((i/4)%2)`); f64 16x16 puts rows `i%4` in lane groups and `i/4` in register pairs
    /// (`v[2*(i/4)+1 : 2*(i/4)]`, lane `j + 16*(i%4)`).
    pub fn acc_position(self, i: usize, j: usize) -> (usize, usize) {
        if self.ty == MfmaTy::F64 {
            (2 * (i / 4), j + 16 * (i % 4))
        } else if self.m == 16 {
            (i % 4, j + 16 * (i / 4))
        } else {
            (i % 4 + 4 * (i / 8), j + 32 * ((i / 4) % 2))
        }
    }

    /// Consecutive k values one lane holds: four f16/bf16 in two registers, else one element.
    fn k_per_lane(self) -> usize {
        if matches!(self.ty, MfmaTy::F16 | MfmaTy::Bf16) {
            4
        } else {
            1
        }
    }

    /// Where `A[i][kk]` lives: (register offset, lane, high half). Lane `i + m*(kk/kpl)` (`kpl` the k
    /// values per lane: 4 for f16, else 1); f16 take register `(kk%4)/2`, half `kk%2` (AMD's calculator,
    /// `-A -R`).
    pub fn a_position(self, i: usize, kk: usize) -> (usize, usize, bool) {
        let kpl = self.k_per_lane();
        ((kk % kpl) / 2, i + usize::from(self.m) * (kk / kpl), kpl > 1 && kk % 2 == 1)
    }

    /// Where `B[kk][j]` lives: lane `j + n*(kk/kpl)`, registers and halves as for A.
    pub fn b_position(self, kk: usize, j: usize) -> (usize, usize, bool) {
        let kpl = self.k_per_lane();
        ((kk % kpl) / 2, j + usize::from(self.n) * (kk / kpl), kpl > 1 && kk % 2 == 1)
    }
}
