//! gfx950's `v_smfmac_*` with four registers of A per lane (`16x16x64`/`32x32x32` f16/bf16 and fp8/bf8
//! mixes at `16x16x128`/`32x32x64`, i8 at `16x16x128`/`32x32x64`): every element of D against a host
//! GEMM of the densified A, the index sets CBSZ/ABID pick, D in AGPRs, and the layout one nonzero at a
//! time (which a transposed layout fails). The instructions are the bytes llvm-mc-21 gives for
//! `-mcpu=gfx950` (llvm-mc-19 does not know these forms).
//!
//! Operand placement, transcribed from AMD's CDNA4 ISA guide (7.5.1, tables 34-37 and "Sparse Matrix
//! Index Layout"): B is two halves of K/2; in half `h`, `B[k][j]` sits in lane `j + M*q` for the lane
//! group `q` holding `k` in `h*K/2 + q*kh .. + kh` (`kh` = 8 for 16-bit, 16 for 8-bit inputs), packed low
//! to high over registers `4h .. 4h+3`. A holds, in the same lane, two values of each group of four of
//! those `k`: registers `2h, 2h+1` (16-bit: `V0[15:0], V0[31:16], V1[15:0], ...`; 8-bit: bytes), and the
//! index register (an ArchVGPR, also with ACC_CD) holds each stored value's 2-bit position at bits
//! `2t+1:2t` for the `t`-th stored value: 16 bits per set for 16-bit inputs (two sets, ABID[0] picks one
//! when CBSZ is 0), all 32 for 8-bit ones (one set, CBSZ/ABID ignored). D as for the dense MFMAs.

use crate::classes::run_body_assembled_as;
use crate::smfmac::{check_sparse_gemm, d_at, read_d, small_float, Sparse};

/// (mnemonic, CBSZ, ABID, D in AGPRs, encoding): A v[10:13], B v[20:27], index v16, D v[40:..] or a[0:..].
const ENCODINGS: [(&str, u8, u8, bool, [u8; 8]); 56] = [
    ("v_smfmac_f32_16x16x64_f16", 0, 0, false, [0x28, 0x00, 0xda, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_f16", 0, 1, false, [0x28, 0x08, 0xda, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_f16", 1, 1, false, [0x28, 0x09, 0xda, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_f16", 0, 0, true, [0x00, 0x80, 0xda, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_f16", 0, 0, false, [0x28, 0x00, 0xdb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_f16", 0, 1, false, [0x28, 0x08, 0xdb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_f16", 1, 1, false, [0x28, 0x09, 0xdb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_f16", 0, 0, true, [0x00, 0x80, 0xdb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_bf16", 0, 0, false, [0x28, 0x00, 0xb9, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_bf16", 0, 1, false, [0x28, 0x08, 0xb9, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_bf16", 1, 1, false, [0x28, 0x09, 0xb9, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x64_bf16", 0, 0, true, [0x00, 0x80, 0xb9, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_bf16", 0, 0, false, [0x28, 0x00, 0xc6, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_bf16", 0, 1, false, [0x28, 0x08, 0xc6, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_bf16", 1, 1, false, [0x28, 0x09, 0xc6, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x32_bf16", 0, 0, true, [0x00, 0x80, 0xc6, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_16x16x128_i8", 0, 0, false, [0x28, 0x00, 0xba, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_16x16x128_i8", 0, 1, false, [0x28, 0x08, 0xba, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_16x16x128_i8", 1, 1, false, [0x28, 0x09, 0xba, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_16x16x128_i8", 0, 0, true, [0x00, 0x80, 0xba, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_32x32x64_i8", 0, 0, false, [0x28, 0x00, 0xc7, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_32x32x64_i8", 0, 1, false, [0x28, 0x08, 0xc7, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_32x32x64_i8", 1, 1, false, [0x28, 0x09, 0xc7, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_i32_32x32x64_i8", 0, 0, true, [0x00, 0x80, 0xc7, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_fp8", 0, 0, false, [0x28, 0x00, 0xc3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_fp8", 0, 1, false, [0x28, 0x08, 0xc3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_fp8", 1, 1, false, [0x28, 0x09, 0xc3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_fp8", 0, 0, true, [0x00, 0x80, 0xc3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_bf8", 0, 0, false, [0x28, 0x00, 0xbd, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_bf8", 0, 1, false, [0x28, 0x08, 0xbd, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_bf8", 1, 1, false, [0x28, 0x09, 0xbd, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_fp8_bf8", 0, 0, true, [0x00, 0x80, 0xbd, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_fp8", 0, 0, false, [0x28, 0x00, 0xbc, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_fp8", 0, 1, false, [0x28, 0x08, 0xbc, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_fp8", 1, 1, false, [0x28, 0x09, 0xbc, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_fp8", 0, 0, true, [0x00, 0x80, 0xbc, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_bf8", 0, 0, false, [0x28, 0x00, 0xbb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_bf8", 0, 1, false, [0x28, 0x08, 0xbb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_bf8", 1, 1, false, [0x28, 0x09, 0xbb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_16x16x128_bf8_bf8", 0, 0, true, [0x00, 0x80, 0xbb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_fp8", 0, 0, false, [0x28, 0x00, 0xd3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_fp8", 0, 1, false, [0x28, 0x08, 0xd3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_fp8", 1, 1, false, [0x28, 0x09, 0xd3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_fp8", 0, 0, true, [0x00, 0x80, 0xd3, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_bf8", 0, 0, false, [0x28, 0x00, 0xcf, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_bf8", 0, 1, false, [0x28, 0x08, 0xcf, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_bf8", 1, 1, false, [0x28, 0x09, 0xcf, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_fp8_bf8", 0, 0, true, [0x00, 0x80, 0xcf, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_fp8", 0, 0, false, [0x28, 0x00, 0xce, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_fp8", 0, 1, false, [0x28, 0x08, 0xce, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_fp8", 1, 1, false, [0x28, 0x09, 0xce, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_fp8", 0, 0, true, [0x00, 0x80, 0xce, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_bf8", 0, 0, false, [0x28, 0x00, 0xcb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_bf8", 0, 1, false, [0x28, 0x08, 0xcb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_bf8", 1, 1, false, [0x28, 0x09, 0xcb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
    ("v_smfmac_f32_32x32x64_bf8_bf8", 0, 0, true, [0x00, 0x80, 0xcb, 0xd3, 0x0a, 0x29, 0x42, 0x04]),
];

#[derive(Clone, Copy)]
struct Ty {
    name: &'static str,
    bits: usize,
    enc: fn(i64) -> u32,
}

const F16: Ty = Ty { name: "f16", bits: 16, enc: |v| small_float(v, 5, 10, 15) };
const BF16: Ty = Ty { name: "bf16", bits: 16, enc: |v| small_float(v, 8, 7, 127) };
const I8: Ty = Ty { name: "i8", bits: 8, enc: |v| v as i8 as u8 as u32 };
/// gfx950's OCP 8-bit floats: E4M3 bias 7, E5M2 bias 15 (CDNA4 ISA guide, table 30).
const FP8: Ty = Ty { name: "fp8", bits: 8, enc: |v| small_float(v, 4, 3, 7) };
const BF8: Ty = Ty { name: "bf8", bits: 8, enc: |v| small_float(v, 5, 2, 15) };

struct Form {
    name: String,
    m: usize,
    k: usize,
    a: Ty,
    b: Ty,
}

impl Form {
    /// Dense `k` per lane in one half.
    fn kh(&self) -> usize {
        if self.a.bits == 16 {
            8
        } else {
            16
        }
    }
    fn acc(&self) -> usize {
        self.m * self.m / 64
    }
    fn d_at(&self, i: usize, j: usize) -> (usize, usize) {
        d_at(self.m, i, j)
    }
    /// Where dense group `g` (of four `k`) of row `i` is stored: (lane, index of its first stored value).
    fn group_at(&self, i: usize, g: usize) -> (usize, usize) {
        let k = 4 * g;
        let (h, kk) = (k / (self.k / 2), k % (self.k / 2));
        let (q, within) = (kk / self.kh(), kk % self.kh());
        // Stored values per half: kh / 2.
        (i + self.m * q, h * self.kh() / 2 + 2 * (within / 4))
    }
    /// Where `B[k][j]` is: (register, lane, bit).
    fn b_at(&self, k: usize, j: usize) -> (usize, usize, usize) {
        let (h, kk) = (k / (self.k / 2), k % (self.k / 2));
        let bit = (kk % self.kh()) * self.b.bits;
        (4 * h + bit / 32, j + self.m * (kk / self.kh()), bit % 32)
    }
    fn bytes(&self, cbsz: u8, abid: u8, agpr: bool) -> [u8; 8] {
        ENCODINGS.iter().find(|e| e.0 == self.name && e.1 == cbsz && e.2 == abid && e.3 == agpr).unwrap().4
    }
}

/// The 14 gfx950 SMFMACs with four registers of A.
fn forms() -> Vec<Form> {
    let mut v = Vec::new();
    for (out, t, k16, k32) in [("f32", F16, 64, 32), ("f32", BF16, 64, 32), ("i32", I8, 128, 64)] {
        for (m, k) in [(16, k16), (32, k32)] {
            v.push(Form { name: format!("v_smfmac_{out}_{m}x{m}x{k}_{}", t.name), m, k, a: t, b: t });
        }
    }
    for (m, k) in [(16, 128), (32, 64)] {
        for a in [FP8, BF8] {
            for b in [FP8, BF8] {
                v.push(Form { name: format!("v_smfmac_f32_{m}x{m}x{k}_{}_{}", a.name, b.name), m, k, a, b });
            }
        }
    }
    v
}

/// D = C + densified(A) * B on gfx950, the index written into set `set` (garbage in the other set).
#[allow(clippy::too_many_arguments)]
fn run(
    f: &Form,
    a: &Sparse,
    b: &[Vec<i64>],
    c: &[Vec<i64>],
    cbsz: u8,
    abid: u8,
    set: usize,
    agpr: bool,
) -> Option<Vec<Vec<f64>>> {
    let acc = f.acc();
    // Regions of 0x100 bytes: A 0..3 (v10-v13), B 4..11 (v20-v27), index 12 (v16), C/D 13.. (v40..).
    let mut data = vec![0u8; 0x100 * (13 + acc)];
    let mut put = |region: usize, lane: usize, bit: usize, bits: usize, value: u32| {
        let at = 0x100 * region + 4 * lane;
        let mut word = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
        let mask = if bits == 32 { u32::MAX } else { ((1u32 << bits) - 1) << bit };
        word = (word & !mask) | ((value << bit) & mask);
        data[at..at + 4].copy_from_slice(&word.to_le_bytes());
    };
    for lane in 0..64 {
        put(12, lane, 0, 32, 0x9d2c_5e71u32.rotate_left(lane as u32));
    }
    let set_bits = if f.a.bits == 16 { 16 } else { 32 };
    for (i, groups) in a.iter().enumerate() {
        for (g, pair) in groups.iter().enumerate() {
            let (lane, first) = f.group_at(i, g);
            for (t, &(pos, v)) in pair.iter().enumerate() {
                let slot = first + t;
                let bit = slot * f.a.bits;
                put(bit / 32, lane, bit % 32, f.a.bits, (f.a.enc)(v));
                put(12, lane, set * set_bits + 2 * slot, 2, pos as u32);
            }
        }
    }
    for (k, row) in b.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let (r, lane, bit) = f.b_at(k, j);
            put(4 + r, lane, bit, f.b.bits, (f.b.enc)(v));
        }
    }
    let int = f.a.name == "i8";
    for (i, row) in c.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let (r, lane) = f.d_at(i, j);
            put(13 + r, lane, 0, 32, if int { v as i32 as u32 } else { (v as f32).to_bits() });
        }
    }
    let regs = (0..4).map(|r| (r, 10 + r)).chain((0..8).map(|r| (4 + r, 20 + r))).chain([(12, 16)]);
    let mut body = String::new();
    for (region, reg) in regs.chain((0..acc).map(|r| (13 + r, 40 + r))) {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    if agpr {
        for r in 0..acc {
            body.push_str(&format!("v_accvgpr_write_b32 a{r}, v{}\n", 40 + r));
        }
    }
    let bytes: Vec<String> = f.bytes(cbsz, abid, agpr).iter().map(|b| format!("{b:#04x}")).collect();
    body.push_str(&format!(".byte {} // {}\ns_nop 7\ns_nop 7\ns_nop 7\n", bytes.join(","), f.name));
    for r in 0..acc {
        if agpr {
            body.push_str(&format!("v_accvgpr_read_b32 v{}, a{r}\n", 1 + r));
        } else {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 40 + r));
        }
    }
    let out = run_body_assembled_as("gfx950", "gfx942", 64, &body, acc, &data)?;
    Some(read_d(f.m, &out, int))
}

fn check_gemm(f: &Form, cbsz: u8, abid: u8, set: usize, seed: u32, agpr: bool) {
    let label = format!("{} cbsz {cbsz} abid {abid} agpr {agpr}", f.name);
    check_sparse_gemm((f.m, f.k), seed, &label, |a, b, c| run(f, a, b, c, cbsz, abid, set, agpr));
}

#[test]
fn gfx950_four_register_smfmacs_match_a_host_gemm_of_the_densified_a() {
    for (n, f) in forms().iter().enumerate() {
        check_gemm(f, 0, 0, 0, 11 + n as u32, false);
    }
}

/// D (and C) in AGPRs (ACC_CD set): the index is still read from its VGPR.
#[test]
fn gfx950_four_register_smfmacs_accumulate_in_agprs() {
    for (n, f) in forms().iter().enumerate().filter(|(n, _)| n % 4 == 1) {
        check_gemm(f, 0, 0, 0, 70 + n as u32, true);
    }
}

/// 16-bit inputs: ABID 1 (CBSZ 0) reads the second 16-bit set, CBSZ 1 the first whatever ABID says.
/// 8-bit inputs: one 32-bit set, CBSZ and ABID ignored.
#[test]
fn gfx950_smfmac_index_sets_follow_cbsz_and_abid() {
    for (n, f) in forms().iter().enumerate() {
        let sixteen = f.a.bits == 16;
        check_gemm(f, 0, 1, usize::from(sixteen), 30 + n as u32, false);
        check_gemm(f, 1, 1, 0, 50 + n as u32, false);
    }
}

/// One stored value at a time: A has a single nonzero (1 at `(i, k)`, the other kept value of its group
/// 0), B a single 1 at `(k, j)`, C 0; D must be 1 at `(i, j)` and 0 elsewhere, in particular at `(j, i)`
/// (i != j), so a transposed layout of A, B or D fails.
#[test]
fn gfx950_smfmac_operands_sit_where_the_cdna4_isa_guide_puts_them() {
    let all = forms();
    for f in [&all[0], &all[3], &all[4], &all[5], &all[7], &all[13]] {
        for (i, k, j, other_first) in [
            (0, 1, 5, false),
            (1, 5, 3, true),
            (f.m - 1, f.k - 1, 2, true),
            (3, f.k / 2 + 2, f.m - 1, false),
            (f.m / 2 + 1, f.k / 2 + 9, 7, false),
            (2, 13, f.m / 2, true),
        ] {
            let mut a: Sparse = vec![vec![[(0, 0), (1, 0)]; f.k / 4]; f.m];
            let (g, p) = (k / 4, k % 4);
            let first = p == 0 || (p != 3 && !other_first);
            a[i][g] = if first { [(p, 1), (p + 1 + (i + j) % (3 - p), 0)] } else { [((i + j) % p, 0), (p, 1)] };
            let mut b = vec![vec![0; f.m]; f.k];
            b[k][j] = 1;
            let c = vec![vec![0; f.m]; f.m];
            let Some(d) = run(f, &a, &b, &c, 0, 0, 0, false) else { return };
            assert_ne!(i, j);
            for ii in 0..f.m {
                for jj in 0..f.m {
                    let want = if (ii, jj) == (i, j) { 1.0 } else { 0.0 };
                    assert_eq!(d[ii][jj], want, "{}: A({i},{k}) B({k},{j}): D[{ii}][{jj}]", f.name);
                }
            }
        }
    }
}
