//! gfx942's `v_smfmac_*` (4:2 structured-sparse A, compression indices in SRC2, `D += A*B`): every
//! element of D against a host GEMM of the densified A for all 14 forms, the index sets CBSZ/ABID pick,
//! and the layout one nonzero at a time. Assembled with `llvm-mc-19`.
//!
//! Operand placement, transcribed from the register layouts AMD's matrix instruction calculator prints
//! (`matrix_calculator.py -a CDNA3 -i v_smfmac_f32_16x16x32_f16 --register-layout -A|-B|-D|--compression`),
//! with `kpl = M*K/64` dense `k` values per lane: the stored values of `A` row `i`, dense `k` in
//! `q*kpl .. (q+1)*kpl`, sit in lane `i + M*q`, two per group of four `k`, packed from the low bits of
//! the two registers (`A[i][k]` GPR `floor(k/4)%2` for 16-bit inputs, `(floor(k/8)%2).[16*(floor(k/4)%2)+15:..]`
//! for 8-bit); their 2-bit positions in the group sit in the index register of the same lane, the
//! `s`-th stored value's at bits `2s+1:2s` (`compression[i][k] GPR: 0.[4*(floor(k/4)%2)+3 : ..]`), moved up
//! by `kpl` bits per ABID when CBSZ is 0. `B[k][j]` sits in lane `j + N*floor(k/kpl)`, element `k%kpl`
//! packed low to high over four registers; D as for the dense MFMAs.

use crate::classes::run_body_assembled_as;

/// The bits of the small integer `v` in a float format of `ebits` exponent and `mbits` mantissa bits
/// with exponent bias `bias` (exact: |v| small). Also the WMMA/SWMMAC tests' encoder.
pub(crate) fn small_float(v: i64, ebits: u32, mbits: u32, bias: i64) -> u32 {
    if v == 0 {
        return 0;
    }
    let a = v.unsigned_abs();
    let e = 63 - i64::from(a.leading_zeros());
    assert!(((a << mbits) >> e) << e == a << mbits && e + bias < (1 << ebits) - 1, "{v} not exact in e{ebits}m{mbits}");
    let mant = ((a << mbits) >> e) & ((1 << mbits) - 1);
    (u32::from(v < 0) << (ebits + mbits)) | (((e + bias) as u32) << mbits) | mant as u32
}

/// An input type: name in the mnemonic, bits, and its encoding of a small integer.
#[derive(Clone, Copy)]
struct Ty {
    name: &'static str,
    bits: usize,
    enc: fn(i64) -> u32,
}

const F16: Ty = Ty { name: "f16", bits: 16, enc: |v| small_float(v, 5, 10, 15) };
const BF16: Ty = Ty { name: "bf16", bits: 16, enc: |v| small_float(v, 8, 7, 127) };
const I8: Ty = Ty { name: "i8", bits: 8, enc: |v| v as i8 as u8 as u32 };
/// gfx942's FNUZ 8-bit floats: E4M3 bias 8, E5M2 bias 16.
const FP8: Ty = Ty { name: "fp8", bits: 8, enc: |v| small_float(v, 4, 3, 8) };
const BF8: Ty = Ty { name: "bf8", bits: 8, enc: |v| small_float(v, 5, 2, 16) };

/// One instruction: `m` (= n), dense `k`, A's and B's types.
struct Form {
    name: String,
    m: usize,
    k: usize,
    a: Ty,
    b: Ty,
}

impl Form {
    fn kpl(&self) -> usize {
        self.m * self.k / 64
    }
    fn acc(&self) -> usize {
        self.m * self.m / 64
    }
    fn d_at(&self, i: usize, j: usize) -> (usize, usize) {
        d_at(self.m, i, j)
    }
}

/// Every gfx942 SMFMAC.
fn forms() -> Vec<Form> {
    let mut v = Vec::new();
    for (out, t, k16, k32) in [("f32", F16, 32, 16), ("f32", BF16, 32, 16), ("i32", I8, 64, 32)] {
        for (m, k) in [(16, k16), (32, k32)] {
            v.push(Form { name: format!("v_smfmac_{out}_{m}x{m}x{k}_{}", t.name), m, k, a: t, b: t });
        }
    }
    for (m, k) in [(16, 64), (32, 32)] {
        for a in [FP8, BF8] {
            for b in [FP8, BF8] {
                v.push(Form { name: format!("v_smfmac_f32_{m}x{m}x{k}_{}_{}", a.name, b.name), m, k, a, b });
            }
        }
    }
    v
}

/// A sparse A: for each row and group of four `k`, the two kept positions (ascending) and values,
/// `[i][group] = [(pos, value); 2]`.
pub(crate) type Sparse = Vec<Vec<[(usize, i64); 2]>>;

/// The dense `m x k` matrix of a sparse A.
pub(crate) fn dense(a: &Sparse, k: usize) -> Vec<Vec<i64>> {
    a.iter()
        .map(|groups| {
            let mut row = vec![0; k];
            for (g, pair) in groups.iter().enumerate() {
                for &(p, v) in pair {
                    row[4 * g + p] += v;
                }
            }
            row
        })
        .collect()
}

/// Runs `f` with sparse A, dense B (`b[k][j]`, small integers) and C; the index register holds the
/// positions in set `set` (ABID with CBSZ `cbsz`; garbage in the other sets). Returns `D[i][j]` as
/// f64 (exact for these inputs).
/// With `agpr`, C and D live in AGPRs (ACC_CD), the index stays in a VGPR.
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
    let (kpl, acc) = (f.kpl(), f.acc());
    // Regions of 0x100 bytes: A v10-v11, B v12-v15, index v16, C/D v20.. .
    let mut data = vec![0u8; 0x100 * (7 + acc)];
    let mut put = |region: usize, lane: usize, bit: usize, bits: usize, value: u32| {
        let at = 0x100 * region + 4 * lane;
        let mut word = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
        let mask = if bits == 32 { u32::MAX } else { ((1u32 << bits) - 1) << bit };
        word = (word & !mask) | ((value << bit) & mask);
        data[at..at + 4].copy_from_slice(&word.to_le_bytes());
    };
    // Garbage in every index set, then the real set.
    for lane in 0..64 {
        put(6, lane, 0, 32, 0xb1e4_27d8u32.rotate_left(lane as u32));
    }
    for (i, groups) in a.iter().enumerate() {
        for (g, pair) in groups.iter().enumerate() {
            let (q, gl) = (g * 4 / kpl, g % (kpl / 4));
            let lane = i + f.m * q;
            for (t, &(pos, v)) in pair.iter().enumerate() {
                let slot = 2 * gl + t;
                let bit = slot * f.a.bits;
                put(bit / 32, lane, bit % 32, f.a.bits, (f.a.enc)(v));
                put(6, lane, set * kpl + 2 * slot, 2, pos as u32);
            }
        }
    }
    for (k, row) in b.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let bit = (k % kpl) * f.b.bits;
            put(2 + bit / 32, j + f.m * (k / kpl), bit % 32, f.b.bits, (f.b.enc)(v));
        }
    }
    let int = f.a.name == "i8";
    for (i, row) in c.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let (r, lane) = f.d_at(i, j);
            put(7 + r, lane, 0, 32, if int { v as i32 as u32 } else { (v as f32).to_bits() });
        }
    }
    let mut body = String::new();
    for (region, reg) in (0..7).map(|h| (h, 10 + h)).chain((0..acc).map(|r| (7 + r, 20 + r))) {
        body.push_str(&format!(
            "v_add_u32 v101, {:#x}, v100\nglobal_load_dword v{reg}, v101, s[6:7]\n",
            0x100 * region
        ));
    }
    body.push_str("s_waitcnt vmcnt(0)\n");
    let file = if agpr { "a" } else { "v" };
    if agpr {
        for r in 0..acc {
            body.push_str(&format!("v_accvgpr_write_b32 a{r}, v{}\n", 20 + r));
        }
        body.push_str(&format!("v_mov_b32 v{}, 0\n", 20));
    }
    let d0 = if agpr { 0 } else { 20 };
    body.push_str(&format!(
        "{} {file}[{d0}:{}], v[10:11], v[12:15], v16 cbsz:{cbsz} abid:{abid}\ns_nop 7\ns_nop 7\ns_nop 7\n",
        f.name,
        d0 + acc - 1
    ));
    for r in 0..acc {
        if agpr {
            body.push_str(&format!("v_accvgpr_read_b32 v{}, a{r}\n", 1 + r));
        } else {
            body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + r, 20 + r));
        }
    }
    let out = run_body_assembled_as("gfx942", "gfx942", 64, &body, acc, &data)?;
    Some(read_d(f.m, &out, int))
}

/// Where D[i][j] of an `m` x `m` accumulator lives on CDNA3/CDNA4: (register, lane).
pub(crate) fn d_at(m: usize, i: usize, j: usize) -> (usize, usize) {
    if m == 16 {
        (i % 4, 16 * (i / 4) + j)
    } else {
        (4 * (i / 8) + i % 4, (32 * (i / 4)) % 64 + j)
    }
}

/// The `m` x `m` result read back from the registers `out` (i32 when `int`, else f32), as f64.
pub(crate) fn read_d(m: usize, out: &[Vec<u32>], int: bool) -> Vec<Vec<f64>> {
    (0..m)
        .map(|i| {
            (0..m)
                .map(|j| {
                    let (r, lane) = d_at(m, i, j);
                    let v = out[r][lane];
                    if int {
                        f64::from(v as i32)
                    } else {
                        f64::from(f32::from_bits(v))
                    }
                })
                .collect()
        })
        .collect()
}

pub(crate) struct Rng(pub(crate) u32);

impl Rng {
    pub(crate) fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (self.0 >> 16) % n
    }
    /// A small integer in -8..=8 (exact in every input type, products and sums exact in f32).
    pub(crate) fn small(&mut self) -> i64 {
        i64::from(self.next(17)) - 8
    }
}

pub(crate) fn random_sparse(m: usize, k: usize, rng: &mut Rng) -> Sparse {
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    (0..m)
        .map(|_| {
            (0..k / 4)
                .map(|_| {
                    let (p0, p1) = pairs[rng.next(6) as usize];
                    [(p0, rng.small()), (p1, rng.small())]
                })
                .collect()
        })
        .collect()
}

pub(crate) fn random(rows: usize, cols: usize, rng: &mut Rng) -> Vec<Vec<i64>> {
    (0..rows).map(|_| (0..cols).map(|_| rng.small()).collect()).collect()
}

/// One SMFMAC run against a host GEMM: a sparse A (`m x k`), B (`k x m`) and C drawn from `seed`, `run`
/// gives D; every element must be C plus the densified A times B (`label` names the case).
pub(crate) fn check_sparse_gemm(
    (m, k): (usize, usize),
    seed: u32,
    label: &str,
    run: impl FnOnce(&Sparse, &[Vec<i64>], &[Vec<i64>]) -> Option<Vec<Vec<f64>>>,
) {
    let mut rng = Rng(seed);
    let a = random_sparse(m, k, &mut rng);
    let (b, c) = (random(k, m, &mut rng), random(m, m, &mut rng));
    let Some(d) = run(&a, &b, &c) else { return };
    let dense = dense(&a, k);
    for i in 0..m {
        for j in 0..m {
            let want = c[i][j] + (0..k).map(|kk| dense[i][kk] * b[kk][j]).sum::<i64>();
            assert_eq!(d[i][j], want as f64, "{label}: D[{i}][{j}]");
        }
    }
}

fn check_gemm(f: &Form, cbsz: u8, abid: u8, set: usize, seed: u32, agpr: bool) {
    let label = format!("{} cbsz {cbsz} abid {abid}", f.name);
    check_sparse_gemm((f.m, f.k), seed, &label, |a, b, c| run(f, a, b, c, cbsz, abid, set, agpr));
}

#[test]
fn smfmac_forms_match_a_host_gemm_of_the_densified_a() {
    for (n, f) in forms().iter().enumerate() {
        check_gemm(f, 0, 0, 0, 7 + n as u32, false);
    }
}

/// D (and C) in AGPRs (ACC_CD set): the compression index is still read from its VGPR.
#[test]
fn smfmac_accumulates_in_agprs_and_reads_the_index_from_a_vgpr() {
    for (n, f) in forms().iter().enumerate().filter(|(n, _)| n % 3 == 0) {
        check_gemm(f, 0, 0, 0, 60 + n as u32, true);
    }
}

/// CBSZ 0: ABID picks the index set (`kpl` bits each); CBSZ set: ABID is ignored, set 0 is read.
#[test]
fn smfmac_abid_picks_the_compression_index_set_unless_cbsz_is_set() {
    for f in forms().iter().filter(|f| f.m == 16 && matches!(f.a.name, "f16" | "i8")) {
        let sets = 32 / f.kpl();
        for abid in 0..sets as u8 {
            check_gemm(f, 0, abid, usize::from(abid), 40 + u32::from(abid), false);
        }
        check_gemm(f, 1, sets as u8 - 1, 0, 50, false);
    }
}

/// One stored value at a time: A has a single nonzero (1 at `(i, k)`, the other kept value of its group
/// 0), B a single 1 at `(k, j)`, C 0; D must be 1 at `(i, j)` and 0 elsewhere.
#[test]
fn smfmac_operands_sit_where_amds_calculator_puts_them() {
    let all = forms();
    let picks = [&all[0], &all[1], &all[4], &all[5], &all[7], &all[13]];
    for f in picks {
        for (i, k, j, other_first) in [
            (0, 0, 0, false),
            (1, 5, 3, true),
            (f.m - 1, f.k - 1, 2, true),
            (3, f.k / 2 + 2, f.m - 1, false),
            (f.m / 2 + 1, 9, 7, false),
        ] {
            let mut rng = Rng(1);
            let mut a = random_sparse(f.m, f.k, &mut rng);
            for groups in &mut a {
                for pair in groups.iter_mut() {
                    *pair = [(0, 0), (1, 0)];
                }
            }
            // The nonzero is the first or second kept value of its group (positions ascending).
            let (g, p) = (k / 4, k % 4);
            let first = p == 0 || (p != 3 && !other_first);
            a[i][g] = if first { [(p, 1), (p + 1 + (i + j) % (3 - p), 0)] } else { [((i + j) % p, 0), (p, 1)] };
            let mut b = vec![vec![0; f.m]; f.k];
            b[k][j] = 1;
            let c = vec![vec![0; f.m]; f.m];
            let Some(d) = run(f, &a, &b, &c, 0, 0, 0, false) else { return };
            for ii in 0..f.m {
                for jj in 0..f.m {
                    let want = if (ii, jj) == (i, j) { 1.0 } else { 0.0 };
                    assert_eq!(d[ii][jj], want, "{}: A({i},{k}) B({k},{j}): D[{ii}][{jj}]", f.name);
                }
            }
        }
    }
}
