//! The fast path of plain f64 VALU operations (`v_add_f64`, `v_mul_f64`, `v_fma_f64`, `v_fmac_f64`,
//! `v_min/max_f64`): no SDWA/DPP, no abs/neg/omod/clamp. A 64-bit VGPR is two rows (low and high dwords);
//! the general path joins both sources into 512-byte lane arrays, computes, and splits the result under
//! EXEC. Here `W` lanes at a time are joined, computed and split straight into the destination rows (one
//! loop body the compiler turns into packed double arithmetic), the chunk's sources read before its
//! lanes are written, so a destination pair that is also a source is safe. The per-lane function is the
//! general path's, so the bits are the same (IEEE, the host's own `f64` operations).

use super::valu_operand::rows_mut;
use crate::decode::{Inst, VGPR0};
use crate::wave::{Ty, Wave, MAX_LANES};

/// Lanes per step: one AVX-512 register of doubles, two AVX2 ones.
const W: usize = 8;

/// A 64-bit source: the row of its low dword (the high dword is the next row), or one value for all lanes.
#[derive(Clone, Copy)]
enum Src64 {
    Rows(usize),
    Imm(u64),
}

#[inline(always)]
fn src64(w: &Wave, i: &Inst, k: usize) -> Src64 {
    let code = i.src[k];
    if code >= VGPR0 {
        Src64::Rows(usize::from(code - VGPR0))
    } else {
        Src64::Imm(w.s64(code, i.lit, Ty::F64))
    }
}

/// Lanes `k..k + W` of a 64-bit source.
#[inline(always)]
fn chunk64(rows: &[[u32; MAX_LANES]], s: Src64, k: usize) -> [f64; W] {
    match s {
        Src64::Rows(r) => {
            let lo: &[u32; W] = rows[r][k..k + W].try_into().expect("W lanes");
            let hi: &[u32; W] = rows[r + 1][k..k + W].try_into().expect("W lanes");
            let mut x = [0f64; W];
            for l in 0..W {
                x[l] = f64::from_bits(u64::from(lo[l]) | (u64::from(hi[l]) << 32));
            }
            x
        }
        Src64::Imm(v) => [f64::from_bits(v); W],
    }
}

/// Writes chunk `d` (lanes `k..k + W`) to the destination pair at row `o`, keeping the lanes `exec`
/// leaves inactive (`MASKED`).
#[inline(always)]
fn put64<const MASKED: bool>(rows: &mut [[u32; MAX_LANES]], o: usize, k: usize, exec: u64, d: &[f64; W]) {
    let (mut lo, mut hi) = ([0u32; W], [0u32; W]);
    for l in 0..W {
        let b = d[l].to_bits();
        (lo[l], hi[l]) = (b as u32, (b >> 32) as u32);
    }
    if MASKED {
        for l in 0..W {
            if exec >> (k + l) & 1 == 0 {
                (lo[l], hi[l]) = (rows[o][k + l], rows[o + 1][k + l]);
            }
        }
    }
    rows[o][k..k + W].copy_from_slice(&lo);
    rows[o + 1][k..k + W].copy_from_slice(&hi);
}

#[inline(always)]
fn run3<const N: usize, const MASKED: bool>(
    rows: &mut [[u32; MAX_LANES]],
    o: usize,
    (a, b, c): (Src64, Src64, Src64),
    exec: u64,
    f: &impl Fn(f64, f64, f64) -> f64,
) {
    let _ = &rows[o + 1];
    for q in 0..N / W {
        let k = W * q;
        let (x, y, z) = (chunk64(rows, a, k), chunk64(rows, b, k), chunk64(rows, c, k));
        let mut d = [0f64; W];
        for l in 0..W {
            d[l] = f(x[l], y[l], z[l]);
        }
        put64::<MASKED>(rows, o, k, exec, &d);
    }
}

/// `d = f(a, b, c)` over the wave's lanes under EXEC, for a plain instruction; `c` is the destination
/// itself when `acc` (`v_fmac_f64`). Two-source operations pass a `c` they ignore.
#[inline(always)]
pub(super) fn fast64(w: &mut Wave, i: &Inst, n: usize, acc: bool, f: impl Fn(f64, f64, f64) -> f64) {
    let o = usize::from(i.dst - VGPR0);
    let a = src64(w, i, 0);
    let b = if n > 1 { src64(w, i, 1) } else { Src64::Imm(0) };
    let c = if acc {
        Src64::Rows(o)
    } else if n > 2 {
        src64(w, i, 2)
    } else {
        Src64::Imm(0)
    };
    let exec = w.exec();
    let full = exec == w.full();
    let lanes = w.lanes;
    let rows = rows_mut(w);
    match (lanes == 32, full) {
        (true, true) => run3::<32, false>(rows, o, (a, b, c), exec, &f),
        (true, false) => run3::<32, true>(rows, o, (a, b, c), exec, &f),
        (false, true) => run3::<MAX_LANES, false>(rows, o, (a, b, c), exec, &f),
        (false, false) => run3::<MAX_LANES, true>(rows, o, (a, b, c), exec, &f),
    }
}

#[cfg(test)]
mod tests {
    //! The plain f64 handlers against the host's own f64 arithmetic, lane by lane: special values (signed
    //! zeros, infinities, NaNs, denormals, the largest finite) and random bits, every lane kernel set, wave64
    //! and wave32, full and partial EXEC (inactive lanes keep their old value).

    use super::super::lanes::{Chosen, LaneKernels};
    use super::super::valu_forms::plain_handler;
    use super::super::{Ctx, Flow, Go};
    use crate::decode::{decode, VGPR0};
    use crate::memory::VecMemory;
    use crate::op::{Op, VOp};
    use crate::stats::WaveStats;
    use crate::target::{Family, TARGETS};
    use crate::wave::Wave;

    const SPECIAL: [u64; 12] = [
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        1,
        0x000f_ffff_ffff_ffff,
        0x7fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff8_0000_0000_0000,
        0x0010_0000_0000_0000,
        0x4000_0000_0000_0001,
    ];

    /// The host's computation of an operation.
    type Host = fn(f64, f64, f64) -> f64;

    fn value(r: &mut u64, lane: usize, k: usize) -> f64 {
        *r ^= *r << 13;
        *r ^= *r >> 7;
        *r ^= *r << 17;
        if (lane + k).is_multiple_of(3) {
            f64::from_bits(SPECIAL[(*r >> 20) as usize % SPECIAL.len()])
        } else {
            f64::from_bits(*r)
        }
    }

    #[test]
    fn plain_f64_handlers_match_host_f64_arithmetic() {
        let mut sets = vec![Chosen::new(LaneKernels::Baseline)];
        for k in [Chosen::new(LaneKernels::Avx2), Chosen::new(LaneKernels::Auto)] {
            if !sets.contains(&k) {
                sets.push(k);
            }
        }
        let ops: [(VOp, Host); 4] = [
            (VOp::AddF64, |a, b, _| a + b),
            (VOp::MulF64, |a, b, _| a * b),
            (VOp::FmaF64, f64::mul_add),
            (VOp::FmacF64, f64::mul_add),
        ];
        let mut r = 0x2545_f491_4f6c_dd1d_u64;
        let mut checked = 0;
        for (target, lanes) in [("gfx90a", 64usize), ("gfx1030", 32)] {
            let t = TARGETS.iter().find(|t| t.name == target).unwrap();
            let words: [u32; 2] =
                if t.family == Family::Gfx9 { [0xd1cb_0001, 0x042e_1501] } else { [0xd54b_0001, 0x042e_1501] };
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let full = u64::MAX >> (64 - lanes);
            for (op, host) in ops {
                // dst v[20:21]; sources v[2:3], v[4:5], v[6:7] (fmac: the destination); then the destination
                // as src0 (v[2:3]).
                for dst in [20u16, 2] {
                    let mut i = decode(t, &bytes).unwrap();
                    i.op = Op::Valu(op);
                    i.dst = VGPR0 + dst;
                    i.src = [VGPR0 + 2, VGPR0 + 4, VGPR0 + 6];
                    i.pre = crate::decode::pre_of(&i);
                    assert!(i.pre.plain);
                    for exec in [full, 0x5a5a_5a5a_a5a5_a5a5 & full] {
                        for &k in &sets {
                            let mut w = Wave::new(t.family, lanes, 0);
                            let mut src = vec![[0f64; 3]; lanes];
                            let mut old = vec![0u64; lanes];
                            for l in 0..lanes {
                                for (j, row) in [2usize, 4, 6].into_iter().enumerate() {
                                    let x = value(&mut r, l, j).to_bits();
                                    w.set_vr(row, l, x as u32);
                                    w.set_vr(row + 1, l, (x >> 32) as u32);
                                    src[l][j] = f64::from_bits(x);
                                }
                                let o = if dst == 2 { src[l][0].to_bits() } else { value(&mut r, l, 3).to_bits() };
                                w.set_vr(usize::from(dst), l, o as u32);
                                w.set_vr(usize::from(dst) + 1, l, (o >> 32) as u32);
                                old[l] = o;
                                if op == VOp::FmacF64 {
                                    src[l][2] = f64::from_bits(o);
                                }
                            }
                            w.set_exec(exec);
                            let mem = VecMemory::new();
                            let mut lds = [0u8; 0];
                            let mut stats = WaveStats::default();
                            let gws = crate::gws::Gws::new();
                            let mut cx = Ctx {
                                mem: &mem,
                                lds: &mut lds,
                                clock: 0,
                                stats: &mut stats,
                                gws: &gws,
                                stop: None,
                                flow: Flow::Next,
                            };
                            let h = plain_handler(op, k, lanes, i.pre.form).expect("a plain handler");
                            // SAFETY: `k` comes from `Chosen::new`, which checked the host's features.
                            #[allow(unsafe_code)]
                            let go = unsafe { h(&mut w, &mut cx, &i) };
                            assert_eq!(go, Go::Next);
                            for l in 0..lanes {
                                let got = u64::from(w.vr(usize::from(dst), l))
                                    | u64::from(w.vr(usize::from(dst) + 1, l)) << 32;
                                let [a, b, c] = src[l];
                                let want = if exec >> l & 1 != 0 { host(a, b, c).to_bits() } else { old[l] };
                                let nan = |v: u64| f64::from_bits(v).is_nan();
                                assert!(
                                    got == want || (nan(got) && nan(want)),
                                    "{target} {op:?} {k:?} dst v{dst} exec {exec:#x} lane {l}: {a:e} {b:e} {c:e}: \
                                     {got:#x}, the host {want:#x}"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked >= 2 * 4 * 2 * 2);
    }
}
