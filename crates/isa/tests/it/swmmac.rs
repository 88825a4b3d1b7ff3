//! gfx12's sparse WMMA (`v_swmmac_*`, all eleven forms, wave32 and wave64): `D += A*B` with A 4:2
//! structured-sparse, its stored values and 2-bit indices placed by the equations AMD's matrix instruction
//! calculator prints (`matrix_calculator.py -a RDNA4 -i <inst> -w 32|64 -d`, "matrix element to register
//! mapping": A, compression, B, D), transcribed below per input width. Checked against a host GEMM of the
//! densified A in every index set OPSEL (`index_key`) can pick, with garbage in the other sets; the
//! transcription itself is checked against registers the calculator printed for sampled elements
//! (`--get-register`), and those registers are used directly to place one nonzero of A at a time. The
//! matrices are not symmetric, so a transposed layout fails. Assembled with `llvm-mc-19`.

use crate::classes::run_body;
use crate::smfmac::small_float;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ty {
    F16,
    Bf16,
    Fp8,
    Bf8,
    I8,
    I4,
}

impl Ty {
    fn bits(self) -> usize {
        match self {
            Ty::F16 | Ty::Bf16 => 16,
            Ty::Fp8 | Ty::Bf8 | Ty::I8 => 8,
            Ty::I4 => 4,
        }
    }
    fn int(self) -> bool {
        matches!(self, Ty::I8 | Ty::I4)
    }
    /// The bits of the small integer `v`.
    fn enc(self, v: i64) -> u32 {
        match self {
            Ty::F16 => small_float(v, 5, 10, 15),
            Ty::Bf16 => (v as f32).to_bits() >> 16,
            Ty::Fp8 => small_float(v, 4, 3, 7),
            Ty::Bf8 => small_float(v, 5, 2, 15),
            Ty::I8 => (v as u32) & 0xff,
            Ty::I4 => (v as u32) & 0xf,
        }
    }
}

/// One form: mnemonic, A and B types, K, 16-bit output.
struct Form {
    name: &'static str,
    a: Ty,
    b: Ty,
    k: usize,
    out16: bool,
}

const FORMS: [Form; 11] = [
    Form { name: "v_swmmac_f32_16x16x32_f16", a: Ty::F16, b: Ty::F16, k: 32, out16: false },
    Form { name: "v_swmmac_f32_16x16x32_bf16", a: Ty::Bf16, b: Ty::Bf16, k: 32, out16: false },
    Form { name: "v_swmmac_f16_16x16x32_f16", a: Ty::F16, b: Ty::F16, k: 32, out16: true },
    Form { name: "v_swmmac_bf16_16x16x32_bf16", a: Ty::Bf16, b: Ty::Bf16, k: 32, out16: true },
    Form { name: "v_swmmac_i32_16x16x32_iu8", a: Ty::I8, b: Ty::I8, k: 32, out16: false },
    Form { name: "v_swmmac_i32_16x16x32_iu4", a: Ty::I4, b: Ty::I4, k: 32, out16: false },
    Form { name: "v_swmmac_i32_16x16x64_iu4", a: Ty::I4, b: Ty::I4, k: 64, out16: false },
    Form { name: "v_swmmac_f32_16x16x32_fp8_fp8", a: Ty::Fp8, b: Ty::Fp8, k: 32, out16: false },
    Form { name: "v_swmmac_f32_16x16x32_fp8_bf8", a: Ty::Fp8, b: Ty::Bf8, k: 32, out16: false },
    Form { name: "v_swmmac_f32_16x16x32_bf8_fp8", a: Ty::Bf8, b: Ty::Fp8, k: 32, out16: false },
    Form { name: "v_swmmac_f32_16x16x32_bf8_bf8", a: Ty::Bf8, b: Ty::Bf8, k: 32, out16: false },
];

impl Form {
    /// A[i][k]: (GPR, lane, low bit of the field that holds its group's two stored values, the first in
    /// the low half). The calculator prints the whole GPR for 16-bit inputs.
    fn a_at(&self, w: usize, i: usize, k: usize) -> (usize, usize, usize) {
        match (w, self.a.bits(), self.k) {
            (32, 16, _) => (2 * (k / 16) + (k / 4) % 2, 16 * ((k / 8) % 2) + i, 0),
            (64, 16, _) => ((k / 4) % 2, 16 * (k / 8) + i, 0),
            (32, 8, _) => ((k / 8) % 2, 16 * (k / 16) + i, 16 * ((k / 4) % 2)),
            (64, 8, _) => (0, 32 * ((k / 8) % 2) + 16 * (k / 16) + i, 16 * ((k / 4) % 2)),
            (_, 4, 32) => (0, 16 * (k / 16) + i, 8 * ((k / 4) % 4)),
            (32, 4, _) => ((k / 16) % 2, 16 * (k / 32) + i, 8 * ((k / 4) % 4)),
            _ => (0, 32 * ((k / 16) % 2) + 16 * (k / 32) + i, 8 * ((k / 4) % 4)),
        }
    }
    /// compression[i][k]: (lane, low bit of its 4-bit field) in index set 0 (register 0).
    fn k_at(&self, w: usize, i: usize, k: usize) -> (usize, usize) {
        let lane = self.a_at(w, i, k).1;
        let bit = match (w, self.a.bits(), self.k) {
            (32, 16, _) => 8 * (k / 16) + 4 * ((k / 4) % 2),
            (32, 8, _) | (32, 4, 32) => 4 * ((k / 4) % 4),
            (32, 4, _) => 4 * ((k / 4) % 8),
            (64, 4, _) => 4 * ((k / 4) % 4),
            _ => 4 * ((k / 4) % 2),
        };
        (lane, bit)
    }
    /// Index sets in one register (OPSEL values): the calculator's `get_num_compression_sets`.
    fn sets(&self, w: usize) -> usize {
        match (w, self.a.bits(), self.k) {
            (32, 4, 64) => 1,
            (32, _, _) | (64, 4, _) => 2,
            _ => 4,
        }
    }
    /// B[k][j]: (GPR, lane, low bit).
    fn b_at(&self, w: usize, k: usize, j: usize) -> (usize, usize, usize) {
        match (w, self.b.bits(), self.k) {
            (32, 16, _) => (4 * (k / 16) + (k / 2) % 4, 16 * ((k / 8) % 2) + j, 16 * (k % 2)),
            (64, 16, _) => ((k / 2) % 4, 16 * (k / 8) + j, 16 * (k % 2)),
            (32, 8, _) => ((k / 4) % 4, 16 * (k / 16) + j, 8 * (k % 4)),
            (64, 8, _) => ((k / 4) % 2, 32 * ((k / 8) % 2) + 16 * (k / 16) + j, 8 * (k % 4)),
            (32, 4, 32) => ((k / 8) % 2, 16 * (k / 16) + j, 4 * (k % 8)),
            (64, 4, 32) => (0, 32 * ((k / 8) % 2) + 16 * (k / 16) + j, 4 * (k % 8)),
            (32, 4, _) => ((k / 8) % 4, 16 * (k / 32) + j, 4 * (k % 8)),
            _ => ((k / 8) % 2, 32 * ((k / 16) % 2) + 16 * (k / 32) + j, 4 * (k % 8)),
        }
    }
    /// D[i][j]: (GPR, lane, low bit).
    fn d_at(&self, w: usize, i: usize, j: usize) -> (usize, usize, usize) {
        let (reg, lane) =
            if w == 32 { (i % 8, 16 * (i / 8) + j) } else { (i % 4, 32 * ((i / 4) % 2) + 16 * (i / 8) + j) };
        if self.out16 {
            (reg / 2, lane, 16 * (i % 2))
        } else {
            (reg, lane, 0)
        }
    }
    fn regs(&self, w: usize) -> (usize, usize, usize) {
        let b = (16 * self.k * self.b.bits() / w).div_ceil(32);
        let d = if self.out16 { 128 / w } else { 256 / w };
        (b.div_ceil(2), b, d)
    }
    fn named(name: &str) -> &'static Form {
        FORMS.iter().find(|f| f.name == name).expect("a known form")
    }
}

/// Registers AMD's calculator printed (`--get-register`, `-w 32|64`, `-A`, `-k --opsel N` (the `@N`), `-B`,
/// `-D`) for sampled elements of each form.
const SAMPLES: [(&str, usize, &[&str]); 22] = [
    (
        "v_swmmac_f32_16x16x32_f16",
        32,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v3{30}",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v2{7}",
            "K[7][18] = v0{7}.[11:8] @0",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[23:20] @1",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v7{31}.[15:0]",
            "B[21][9] = v6{9}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_f16",
        64,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{62}",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{39}",
            "K[7][18] = v0{39}.[19:16] @2",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[31:28] @3",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v3{63}.[15:0]",
            "B[21][9] = v2{41}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf16",
        32,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v3{30}",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v2{7}",
            "K[7][18] = v0{7}.[11:8] @0",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[23:20] @1",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v7{31}.[15:0]",
            "B[21][9] = v6{9}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf16",
        64,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{62}",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{39}",
            "K[7][18] = v0{39}.[19:16] @2",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[31:28] @3",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v3{63}.[15:0]",
            "B[21][9] = v2{41}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f16_16x16x32_f16",
        32,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v3{30}",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v2{7}",
            "K[7][18] = v0{7}.[11:8] @0",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[23:20] @1",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v7{31}.[15:0]",
            "B[21][9] = v6{9}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}.[15:0]",
            "D[13][3] = v2{19}.[31:16]",
            "D[6][10] = v3{10}.[15:0]",
        ],
    ),
    (
        "v_swmmac_f16_16x16x32_f16",
        64,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{62}",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{39}",
            "K[7][18] = v0{39}.[19:16] @2",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[31:28] @3",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v3{63}.[15:0]",
            "B[21][9] = v2{41}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}.[15:0]",
            "D[13][3] = v0{51}.[31:16]",
            "D[6][10] = v1{42}.[15:0]",
        ],
    ),
    (
        "v_swmmac_bf16_16x16x32_bf16",
        32,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v3{30}",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v2{7}",
            "K[7][18] = v0{7}.[11:8] @0",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[23:20] @1",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v7{31}.[15:0]",
            "B[21][9] = v6{9}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}.[15:0]",
            "D[13][3] = v2{19}.[31:16]",
            "D[6][10] = v3{10}.[15:0]",
        ],
    ),
    (
        "v_swmmac_bf16_16x16x32_bf16",
        64,
        &[
            "A[1][5] = v1{1}",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{62}",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{39}",
            "K[7][18] = v0{39}.[19:16] @2",
            "A[10][13] = v1{26}",
            "K[10][13] = v0{26}.[31:28] @3",
            "A[3][9] = v0{19}",
            "K[3][9] = v0{19}.[3:0] @0",
            "B[3][2] = v1{2}.[31:16]",
            "B[30][15] = v3{63}.[15:0]",
            "B[21][9] = v2{41}.[31:16]",
            "B[10][4] = v1{20}.[15:0]",
            "D[0][15] = v0{15}.[15:0]",
            "D[13][3] = v0{51}.[31:16]",
            "D[6][10] = v1{42}.[15:0]",
        ],
    ),
    (
        "v_swmmac_i32_16x16x32_iu8",
        32,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{30}.[31:16]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v1{10}.[31:16]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v1{3}.[15:0]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v3{31}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v2{4}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_i32_16x16x32_iu8",
        64,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{62}.[31:16]",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[19:16] @2",
            "A[10][13] = v0{42}.[31:16]",
            "K[10][13] = v0{42}.[31:28] @3",
            "A[3][9] = v0{35}.[15:0]",
            "K[3][9] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v1{63}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v0{36}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_i32_16x16x32_iu4",
        32,
        &[
            "A[1][5] = v0{1}.[15:8]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{30}.[31:24]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[7:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v0{10}.[31:24]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v0{3}.[23:16]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[15:12]",
            "B[30][15] = v1{31}.[27:24]",
            "B[21][9] = v0{25}.[23:20]",
            "B[10][4] = v1{4}.[11:8]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_i32_16x16x32_iu4",
        64,
        &[
            "A[1][5] = v0{1}.[15:8]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{30}.[31:24]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[7:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v0{10}.[31:24]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v0{3}.[23:16]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[15:12]",
            "B[30][15] = v0{63}.[27:24]",
            "B[21][9] = v0{25}.[23:20]",
            "B[10][4] = v0{36}.[11:8]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_i32_16x16x64_iu4",
        32,
        &[
            "A[1][5] = v0{1}.[15:8]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][63] = v1{30}.[31:24]",
            "K[14][63] = v0{30}.[31:28] @0",
            "A[7][34] = v0{23}.[7:0]",
            "K[7][34] = v0{23}.[3:0] @0",
            "A[10][29] = v1{10}.[31:24]",
            "K[10][29] = v0{10}.[31:28] @0",
            "A[3][17] = v1{3}.[7:0]",
            "K[3][17] = v0{3}.[19:16] @0",
            "B[3][2] = v0{2}.[15:12]",
            "B[62][15] = v3{31}.[27:24]",
            "B[37][9] = v0{25}.[23:20]",
            "B[26][4] = v3{4}.[11:8]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_i32_16x16x64_iu4",
        64,
        &[
            "A[1][5] = v0{1}.[15:8]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][63] = v0{62}.[31:24]",
            "K[14][63] = v0{62}.[31:28] @1",
            "A[7][34] = v0{23}.[7:0]",
            "K[7][34] = v0{23}.[3:0] @0",
            "A[10][29] = v0{42}.[31:24]",
            "K[10][29] = v0{42}.[31:28] @1",
            "A[3][17] = v0{35}.[7:0]",
            "K[3][17] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[15:12]",
            "B[62][15] = v1{63}.[27:24]",
            "B[37][9] = v0{25}.[23:20]",
            "B[26][4] = v1{36}.[11:8]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_fp8_fp8",
        32,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{30}.[31:16]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v1{10}.[31:16]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v1{3}.[15:0]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v3{31}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v2{4}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_fp8_fp8",
        64,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{62}.[31:16]",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[19:16] @2",
            "A[10][13] = v0{42}.[31:16]",
            "K[10][13] = v0{42}.[31:28] @3",
            "A[3][9] = v0{35}.[15:0]",
            "K[3][9] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v1{63}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v0{36}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_fp8_bf8",
        32,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{30}.[31:16]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v1{10}.[31:16]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v1{3}.[15:0]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v3{31}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v2{4}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_fp8_bf8",
        64,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{62}.[31:16]",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[19:16] @2",
            "A[10][13] = v0{42}.[31:16]",
            "K[10][13] = v0{42}.[31:28] @3",
            "A[3][9] = v0{35}.[15:0]",
            "K[3][9] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v1{63}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v0{36}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf8_fp8",
        32,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{30}.[31:16]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v1{10}.[31:16]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v1{3}.[15:0]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v3{31}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v2{4}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf8_fp8",
        64,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{62}.[31:16]",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[19:16] @2",
            "A[10][13] = v0{42}.[31:16]",
            "K[10][13] = v0{42}.[31:28] @3",
            "A[3][9] = v0{35}.[15:0]",
            "K[3][9] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v1{63}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v0{36}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf8_bf8",
        32,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v1{30}.[31:16]",
            "K[14][31] = v0{30}.[31:28] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[3:0] @0",
            "A[10][13] = v1{10}.[31:16]",
            "K[10][13] = v0{10}.[31:28] @1",
            "A[3][9] = v1{3}.[15:0]",
            "K[3][9] = v0{3}.[11:8] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v3{31}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v2{4}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v5{19}",
            "D[6][10] = v6{10}",
        ],
    ),
    (
        "v_swmmac_f32_16x16x32_bf8_bf8",
        64,
        &[
            "A[1][5] = v0{1}.[31:16]",
            "K[1][5] = v0{1}.[7:4] @0",
            "A[14][31] = v0{62}.[31:16]",
            "K[14][31] = v0{62}.[15:12] @1",
            "A[7][18] = v0{23}.[15:0]",
            "K[7][18] = v0{23}.[19:16] @2",
            "A[10][13] = v0{42}.[31:16]",
            "K[10][13] = v0{42}.[31:28] @3",
            "A[3][9] = v0{35}.[15:0]",
            "K[3][9] = v0{35}.[3:0] @0",
            "B[3][2] = v0{2}.[31:24]",
            "B[30][15] = v1{63}.[23:16]",
            "B[21][9] = v1{25}.[15:8]",
            "B[10][4] = v0{36}.[23:16]",
            "D[0][15] = v0{15}",
            "D[13][3] = v1{51}",
            "D[6][10] = v2{42}",
        ],
    ),
];

/// A parsed sample: matrix letter, two coordinates, GPR, lane, bits (lo, hi) if printed, OPSEL.
struct Sample {
    m: char,
    x: usize,
    y: usize,
    reg: usize,
    lane: usize,
    bits: Option<(usize, usize)>,
    opsel: usize,
}

fn parse(s: &str) -> Sample {
    let num = |t: &str| t.parse::<usize>().unwrap_or_else(|_| panic!("{s}: {t}"));
    let (lhs, rhs) = s.split_once(" = v").unwrap();
    let m = lhs.chars().next().unwrap();
    let (x, y) = lhs[2..lhs.len() - 1].split_once("][").unwrap();
    let (rhs, opsel) = match rhs.split_once(" @") {
        Some((r, o)) => (r, num(o)),
        None => (rhs, 0),
    };
    let (reg, rest) = rhs.split_once('{').unwrap();
    let (lane, rest) = rest.split_once('}').unwrap();
    let bits = rest.strip_prefix(".[").map(|b| {
        let (hi, lo) = b.trim_end_matches(']').split_once(':').unwrap();
        (num(lo), num(hi))
    });
    Sample { m, x: num(x), y: num(y), reg: num(reg), lane: num(lane), bits, opsel }
}

#[test]
fn swmmac_layout_transcription_matches_the_calculators_sampled_registers() {
    for (name, w, samples) in SAMPLES {
        let f = Form::named(name);
        for s in samples.iter().map(|s| parse(s)) {
            let bits = |lo: usize, width: usize| Some((lo, lo + width - 1));
            let (reg, lane, b) = match s.m {
                'A' => {
                    let (r, l, lo) = f.a_at(w, s.x, s.y);
                    (r, l, if f.a.bits() == 16 { None } else { bits(lo, 2 * f.a.bits()) })
                }
                'K' => {
                    let (l, lo) = f.k_at(w, s.x, s.y);
                    (0, l, bits(lo + s.opsel * 32 / f.sets(w), 4))
                }
                'B' => {
                    let (r, l, lo) = f.b_at(w, s.x, s.y);
                    (r, l, bits(lo, f.b.bits()))
                }
                _ => {
                    let (r, l, lo) = f.d_at(w, s.x, s.y);
                    (r, l, if f.out16 { bits(lo, 16) } else { None })
                }
            };
            assert_eq!((reg, lane, b), (s.reg, s.lane, s.bits), "{name} wave{w}: {}", samples.len());
        }
    }
}

fn lcg(x: &mut u32, lo: i64, span: u32) -> i64 {
    *x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
    lo + i64::from((*x >> 16) % span)
}

/// Operands of one run: stored A values and their positions per group, B, C; and the register images.
struct Run<'a> {
    f: &'a Form,
    w: usize,
    set: usize,
    /// neg_lo, neg_hi bits (A, B).
    neg: u8,
    neg_hi: u8,
    data: Vec<u8>,
}

impl Run<'_> {
    fn put(&mut self, region: usize, lane: usize, bit: usize, width: usize, v: u32) {
        let o = 0x100 * region + 4 * lane;
        let old = u32::from_le_bytes(self.data[o..o + 4].try_into().unwrap());
        let mask = if width == 32 { u32::MAX } else { ((1u32 << width) - 1) << bit };
        self.data[o..o + 4].copy_from_slice(&((old & !mask) | ((v << bit) & mask)).to_le_bytes());
    }

    /// Runs the instruction on the register images and returns D as `D[i][j]` (integers or floats as
    /// integers).
    fn exec(&self) -> Option<Vec<Vec<i64>>> {
        let (ar, br, dr) = self.f.regs(self.w);
        let mut body = String::new();
        let loads = (0..ar)
            .map(|r| (r, 10 + r))
            .chain((0..br).map(|r| (ar + r, 20 + r)))
            .chain((0..dr).map(|r| (ar + br + r, 40 + r)))
            .chain([(ar + br + dr, 30)]);
        for (region, reg) in loads {
            body.push_str(&format!(
                "v_add_nc_u32 v101, {:#x}, v100\nglobal_load_b32 v{reg}, v101, s[6:7]\n",
                0x100 * region
            ));
        }
        let range =
            |base: usize, n: usize| if n == 1 { format!("v{base}") } else { format!("v[{base}:{}]", base + n - 1) };
        let bits3 = |m: u8| format!("[{},{},0]", m & 1, (m >> 1) & 1);
        let mut mods = String::new();
        if self.set != 0 {
            mods.push_str(&format!(" index_key:{}", self.set));
        }
        if self.neg != 0 {
            mods.push_str(&format!(" neg_lo:{}", bits3(self.neg)));
        }
        if self.neg_hi != 0 {
            mods.push_str(&format!(" neg_hi:{}", bits3(self.neg_hi)));
        }
        body.push_str(&format!(
            "s_wait_loadcnt 0\n{} {}, {}, {}, v30{mods}\n",
            self.f.name,
            range(40, dr),
            range(10, ar),
            range(20, br)
        ));
        for r in 0..dr {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
        }
        let out = run_body("gfx1201", self.w as u32, &body, dr, &self.data)?;
        Some(
            (0..16)
                .map(|i| {
                    (0..16)
                        .map(|j| {
                            let (r, lane, bit) = self.f.d_at(self.w, i, j);
                            let v = out[r][lane];
                            match (self.f.a.int(), self.f.out16, self.f.a) {
                                (true, _, _) => i64::from(v as i32),
                                (false, false, _) => f32::from_bits(v) as i64,
                                (false, true, Ty::F16) => half(v >> bit) as i64,
                                (false, true, _) => f32::from_bits((v >> bit) << 16) as i64,
                            }
                        })
                        .collect()
                })
                .collect(),
        )
    }

    fn new(f: &Form, w: usize, set: usize) -> Run<'_> {
        let (ar, br, dr) = f.regs(w);
        Run { f, w, set, neg: 0, neg_hi: 0, data: vec![0u8; 0x100 * (ar + br + dr + 1)] }
    }

    /// Places B and C (as `C[i][j]`) in their registers.
    fn put_b_c(&mut self, b: &[Vec<i64>], c: &[Vec<i64>]) {
        let (f, w) = (self.f, self.w);
        let (ar, br, _) = f.regs(w);
        for k in 0..f.k {
            for j in 0..16 {
                let (r, lane, bit) = f.b_at(w, k, j);
                self.put(ar + r, lane, bit, f.b.bits(), f.b.enc(b[k][j]));
            }
        }
        for i in 0..16 {
            for j in 0..16 {
                let (r, lane, bit) = f.d_at(w, i, j);
                let v = c[i][j];
                let (bits, width) = match (f.a.int(), f.out16, f.a) {
                    (true, _, _) => (v as i32 as u32, 32),
                    (false, false, _) => ((v as f32).to_bits(), 32),
                    (false, true, Ty::F16) => (small_float(v, 5, 10, 15), 16),
                    (false, true, _) => ((v as f32).to_bits() >> 16, 16),
                };
                self.put(ar + br + r, lane, bit, width, bits);
            }
        }
    }
}

fn half(h: u32) -> f32 {
    let (s, e, m) = ((h >> 15) & 1, ((h >> 10) & 0x1f) as i32, (h & 0x3ff) as f32);
    let v = if e == 0 { m * 2f32.powi(-24) } else { (1.0 + m / 1024.0) * 2f32.powi(e - 15) };
    if s == 1 {
        -v
    } else {
        v
    }
}

/// Value range (lowest, count) of A and B entries: exact products and sums in the output type.
fn range(f: &Form, signed: bool) -> (i64, u32) {
    match (f.a, f.out16, signed) {
        (Ty::Bf16, true, _) => (-3, 7),
        (Ty::I8, _, false) => (0, 41),
        (Ty::I8, _, true) => (-20, 41),
        (Ty::I4, _, false) => (0, 16),
        (Ty::I4, _, true) => (-8, 16),
        _ => (-8, 17),
    }
}

/// A random 4:2 sparse A (two distinct positions per group of four, ascending), B and C; runs the
/// instruction in index set `set` (other sets hold garbage) and compares D with C + A*B on the host.
fn gemm(f: &Form, w: usize, set: usize, neg: u8, neg_hi: u8, seed: u32) {
    let mut x = seed;
    let int = f.a.int();
    let (a_signed, b_signed) = (!int || neg & 1 != 0, !int || neg & 2 != 0);
    let ra = range(f, a_signed);
    let rb = range(f, b_signed);
    let (ar, br, dr) = f.regs(w);
    let mut run = Run::new(f, w, set);
    run.neg = neg;
    run.neg_hi = neg_hi;
    // Garbage in the whole index register first: the other sets must not matter.
    for lane in 0..w {
        let g = lcg(&mut x, 0, 1 << 16) as u32 | ((lcg(&mut x, 0, 1 << 16) as u32) << 16);
        run.put(ar + br + dr, lane, 0, 32, g);
    }
    let mut dense = vec![vec![0i64; f.k]; 16];
    for i in 0..16 {
        for g in 0..f.k / 4 {
            let p0 = lcg(&mut x, 0, 3) as usize;
            let p1 = p0 + 1 + lcg(&mut x, 0, (3 - p0) as u32) as usize;
            let (r, lane, bit) = f.a_at(w, i, 4 * g);
            let (il, ib) = f.k_at(w, i, 4 * g);
            run.put(ar + br + dr, il, ib + set * 32 / f.sets(w), 4, (p0 | (p1 << 2)) as u32);
            for (s, p) in [p0, p1].into_iter().enumerate() {
                let v = lcg(&mut x, ra.0, ra.1);
                run.put(r, lane, bit + s * f.a.bits(), f.a.bits(), f.a.enc(v));
                // NEG[0] negates the A values in bits 15:0 (the first stored), NEG_HI[0] those in 31:16.
                let flip = if s == 0 { neg & 1 } else { neg_hi & 1 };
                dense[i][4 * g + p] = if !int && flip != 0 { -v } else { v };
            }
        }
    }
    let b: Vec<Vec<i64>> = (0..f.k).map(|_| (0..16).map(|_| lcg(&mut x, rb.0, rb.1)).collect()).collect();
    let c: Vec<Vec<i64>> = (0..16).map(|_| (0..16).map(|_| lcg(&mut x, -50, 101)).collect()).collect();
    run.put_b_c(&b, &c);
    let Some(d) = run.exec() else { return };
    for i in 0..16 {
        for j in 0..16 {
            let want = c[i][j]
                + (0..f.k)
                    .map(|k| {
                        // NEG[1] negates B values in bits 15:0 (even k), NEG_HI[1] those in 31:16.
                        let flip = if k % 2 == 0 { neg & 2 } else { neg_hi & 2 };
                        let bv = if !int && flip != 0 { -b[k][j] } else { b[k][j] };
                        dense[i][k] * bv
                    })
                    .sum::<i64>();
            assert_eq!(d[i][j], want, "{} wave{w} set {set} neg {neg} neg_hi {neg_hi}: D[{i}][{j}]", f.name);
        }
    }
}

#[test]
fn swmmac_every_form_and_index_set_matches_a_host_gemm_of_the_densified_a() {
    for (n, f) in FORMS.iter().enumerate() {
        for w in [32, 64] {
            for set in 0..f.sets(w) {
                // Integer forms: signed A and B (NEG[0], NEG[1] set), and unsigned in set 0.
                let neg = if f.a.int() { 3 } else { 0 };
                gemm(f, w, set, neg, 0, 100 * n as u32 + 10 * w as u32 + set as u32);
                if f.a.int() && set == 0 {
                    gemm(f, w, set, 0, 0, 7 + n as u32);
                    gemm(f, w, set, 1, 0, 9 + n as u32);
                }
            }
        }
    }
}

#[test]
fn swmmac_neg_and_neg_hi_negate_the_16_bit_halves_of_a_and_b() {
    let f = Form::named("v_swmmac_f32_16x16x32_f16");
    for (neg, neg_hi) in [(1, 0), (0, 1), (2, 0), (0, 2), (3, 1), (1, 3)] {
        for w in [32, 64] {
            gemm(f, w, 1, neg, neg_hi, 31 + u32::from(neg) * 5 + u32::from(neg_hi));
        }
    }
}

#[test]
fn swmmac_one_nonzero_of_a_at_the_calculators_registers_reaches_one_row_of_d() {
    for (name, w, samples) in SAMPLES {
        let f = Form::named(name);
        let parsed: Vec<Sample> = samples.iter().map(|s| parse(s)).collect();
        for pair in parsed.chunks(2).take_while(|p| p[0].m == 'A') {
            let (a, kx) = (&pair[0], &pair[1]);
            assert_eq!((kx.m, kx.x, kx.y), ('K', a.x, a.y));
            let (ar, br, dr) = f.regs(w);
            let mut run = Run::new(f, w, kx.opsel);
            // The nonzero is the second stored value of its group when its k is odd, else the first;
            // the other stored value is 0 with a different index.
            let (ii, kk) = (a.x, a.y);
            let pos = kk % 4;
            let slot = kk % 2;
            let (lo, _) = a.bits.unwrap_or((0, 31));
            run.put(a.reg, a.lane, lo + slot * f.a.bits(), f.a.bits(), f.a.enc(3));
            let other = (pos + 1) % 4;
            let nib = if slot == 0 { pos | (other << 2) } else { other | (pos << 2) };
            let (klo, _) = kx.bits.unwrap();
            run.put(ar + br + dr, kx.lane, klo, 4, nib as u32);
            // B[k][j] = k%8 - j%8 (not symmetric in k and j), -7..7 exact in every type.
            let b: Vec<Vec<i64>> =
                (0..f.k).map(|k| (0..16).map(|j| (k as i64 % 8) - (j as i64 % 8)).collect()).collect();
            let c: Vec<Vec<i64>> = (0..16).map(|i| (0..16).map(|j| (i as i64) * 3 - j as i64).collect()).collect();
            run.neg = if f.a.int() { 3 } else { 0 };
            run.put_b_c(&b, &c);
            let Some(d) = run.exec() else { return };
            for i in 0..16 {
                for j in 0..16 {
                    let want = c[i][j] + if i == ii { 3 * b[kk][j] } else { 0 };
                    assert_eq!(
                        d[i][j], want,
                        "{name} wave{w}: A[{ii}][{kk}] = 3 at v{}{{{}}}: D[{i}][{j}]",
                        a.reg, a.lane
                    );
                }
            }
        }
    }
}
