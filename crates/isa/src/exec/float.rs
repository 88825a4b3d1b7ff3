//! Floating-point helpers: half-precision conversion (round to nearest even), the class test of
//! `v_cmp_class_*`, IEEE min/max as the hardware does them, and the division helpers
//! (`v_div_scale`/`v_div_fmas`/`v_div_fixup`) whose pseudo-code is in AMD's ISA guides.

pub(crate) use crate::half::{f16_to_f32, f32_to_f16};

/// Single to half, round toward zero (`v_cvt_pkrtz_f16_f32`).
pub(crate) fn f32_to_f16_rtz(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7bff;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        return sign | ((man | 0x80_0000) >> (14 - e)) as u16;
    }
    sign | (((e as u32) << 10) | (man >> 13)) as u16
}

/// `v_cmp_class` mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
/// 8 +normal, 9 +inf.
pub(crate) fn class64(v: f64, snan: bool) -> u32 {
    let neg = v.is_sign_negative();
    let bit = if v.is_nan() {
        if snan {
            0
        } else {
            1
        }
    } else if v.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if v == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if v.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// Class of a single (denormals judged in single precision).
pub(crate) fn class32(v: f32) -> u32 {
    let b = v.to_bits();
    let snan = v.is_nan() && b & 0x40_0000 == 0;
    if v.is_subnormal() {
        return 1 << if v.is_sign_negative() { 4 } else { 7 };
    }
    class64(f64::from(v), snan)
}

/// Class of a half.
pub(crate) fn class16(h: u16) -> u32 {
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    let neg = h & 0x8000 != 0;
    if exp == 31 && man != 0 {
        return 1 << if man & 0x200 == 0 { 0 } else { 1 };
    }
    if exp == 0 && man != 0 {
        return 1 << if neg { 4 } else { 7 };
    }
    class64(f64::from(f16_to_f32(h)), false)
}

/// Class of a double.
pub(crate) fn class_f64(v: f64) -> u32 {
    let snan = v.is_nan() && v.to_bits() & (1 << 51) == 0;
    class64(v, snan)
}

/// IEEE-754-2008 minNum as the hardware implements `v_min_*` in IEEE mode: a NaN operand yields the other
/// (a NaN `a` yields `b` quieted); of -0 and +0 the minimum is -0. Written as selects on the bits, without
/// early returns, so a lane loop of it vectorises (with branches it stayed scalar).
#[inline(always)]
pub(crate) fn fmin32(a: f32, b: f32) -> f32 {
    let (x, y) = (a.to_bits(), b.to_bits());
    let (an, bn) = (a.is_nan(), b.is_nan());
    let pick_a = (a < b) | ((a == b) & ((x as i32) < 0));
    let m = if pick_a { x } else { y };
    let m = if bn { x } else { m };
    let quiet_b = y | (u32::from(bn) << 22);
    f32::from_bits(if an { quiet_b } else { m })
}

/// maxNum counterpart of [`fmin32`] (of -0 and +0 the maximum is +0).
#[inline(always)]
pub(crate) fn fmax32(a: f32, b: f32) -> f32 {
    let (x, y) = (a.to_bits(), b.to_bits());
    let (an, bn) = (a.is_nan(), b.is_nan());
    let pick_a = (a > b) | ((a == b) & ((x as i32) >= 0));
    let m = if pick_a { x } else { y };
    let m = if bn { x } else { m };
    let quiet_b = y | (u32::from(bn) << 22);
    f32::from_bits(if an { quiet_b } else { m })
}

fn quiet32(v: f32) -> f32 {
    if v.is_nan() {
        f32::from_bits(v.to_bits() | 0x40_0000)
    } else {
        v
    }
}

/// minNum for doubles.
pub(crate) fn fmin64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
}

/// maxNum for doubles.
pub(crate) fn fmax64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_negative() { b } else { a };
    }
    a.max(b)
}

/// `v_med3_f32`.
pub(crate) fn med3_32(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return fmin32(fmin32(a, b), c);
    }
    let mx = fmax32(fmax32(a, b), c);
    if mx == a {
        fmax32(b, c)
    } else if mx == b {
        fmax32(a, c)
    } else {
        fmax32(a, b)
    }
}

/// Unbiased exponent as the ISA's `exponent()` (biased field value).
pub(crate) fn exp32(v: f32) -> i32 {
    ((v.to_bits() >> 23) & 0xff) as i32
}

/// Biased exponent of a double.
pub(crate) fn exp64(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32
}

/// `ldexp` for singles (exact scaling with gradual underflow).
pub(crate) fn ldexp32(v: f32, e: i32) -> f32 {
    (f64::from(v) * 2f64.powi(e.clamp(-400, 400))) as f32
}

/// `ldexp` for doubles.
pub(crate) fn ldexp64(v: f64, e: i32) -> f64 {
    let mut v = v;
    let mut e = e.clamp(-2200, 2200);
    // Scale in steps so intermediate powers stay finite.
    while e > 1000 {
        v *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        v *= 2f64.powi(-1000);
        e += 1000;
    }
    v * 2f64.powi(e)
}

/// `frexp` mantissa in [0.5, 1) (inf/NaN pass through).
pub(crate) fn frexp_mant64(v: f64) -> f64 {
    if v.is_nan() || v.is_infinite() || v == 0.0 {
        return v;
    }
    let e = frexp_exp64(v);
    ldexp64(v, -e)
}

/// `frexp` exponent (0 for inf/NaN/zero).
pub(crate) fn frexp_exp64(v: f64) -> i32 {
    if v.is_nan() || v.is_infinite() || v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    if e == 0 {
        // Subnormal: normalise.
        let m = b & ((1 << 52) - 1);
        return -1022 - (m.leading_zeros() as i32 - 12) + 1 - 1;
    }
    e - 1022
}

/// `v_div_scale_f32`: returns (value, vcc).
pub(crate) fn div_scale32(s0: f32, s1: f32, s2: f32) -> (f32, bool) {
    let mut d = s0;
    let mut vcc = false;
    let denorm = |x: f32| x.is_subnormal();
    let denorm64 = |x: f64| x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE);
    if s2 == 0.0 || s1 == 0.0 {
        d = f32::NAN;
    } else if exp32(s2) - exp32(s1) >= 96 {
        vcc = true;
        if s0 == s1 {
            d = ldexp32(s0, 64);
        }
    } else if denorm(s1) {
        d = ldexp32(s0, 64);
    } else if denorm64(1.0 / f64::from(s1)) && denorm(s2 / s1) {
        vcc = true;
        if s0 == s1 {
            d = ldexp32(s0, 64);
        }
    } else if denorm64(1.0 / f64::from(s1)) {
        d = ldexp32(s0, -64);
    } else if denorm(s2 / s1) {
        vcc = true;
        if s0 == s2 {
            d = ldexp32(s0, 64);
        }
    } else if exp32(s2) <= 23 {
        d = ldexp32(s0, 64);
    }
    (d, vcc)
}

/// `v_div_scale_f64`.
pub(crate) fn div_scale64(s0: f64, s1: f64, s2: f64) -> (f64, bool) {
    let mut d = s0;
    let mut vcc = false;
    let denorm = |x: f64| x.is_subnormal();
    if s2 == 0.0 || s1 == 0.0 {
        d = f64::NAN;
    } else if exp64(s2) - exp64(s1) >= 768 {
        vcc = true;
        if s0 == s1 {
            d = ldexp64(s0, 128);
        }
    } else if denorm(s1) {
        d = ldexp64(s0, 128);
    } else if denorm(1.0 / s1) && denorm(s2 / s1) {
        vcc = true;
        if s0 == s1 {
            d = ldexp64(s0, 128);
        }
    } else if denorm(1.0 / s1) {
        d = ldexp64(s0, -128);
    } else if denorm(s2 / s1) {
        vcc = true;
        if s0 == s2 {
            d = ldexp64(s0, 128);
        }
    } else if exp64(s2) <= 53 {
        d = ldexp64(s0, 128);
    }
    (d, vcc)
}

/// `v_div_fixup_f32(quotient, denominator, numerator)`.
pub(crate) fn div_fixup32(s0: f32, s1: f32, s2: f32) -> f32 {
    let sign_out = s1.is_sign_negative() != s2.is_sign_negative();
    let signed = |m: f32| if sign_out { -m.abs() } else { m.abs() };
    if s2.is_nan() {
        return quiet32(s2);
    }
    if s1.is_nan() {
        return quiet32(s1);
    }
    if s1 == 0.0 && s2 == 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    if s1.is_infinite() && s2.is_infinite() {
        return f32::from_bits(0xffc0_0000);
    }
    if s1 == 0.0 || s2.is_infinite() {
        return signed(f32::INFINITY);
    }
    if s1.is_infinite() || s2 == 0.0 {
        return signed(0.0);
    }
    if exp32(s2) - exp32(s1) < -150 {
        return signed(0.0);
    }
    if exp32(s1) == 255 {
        return signed(f32::INFINITY);
    }
    if s0.is_nan() {
        return signed(f32::INFINITY);
    }
    signed(s0)
}

/// `v_div_fixup_f64`.
pub(crate) fn div_fixup64(s0: f64, s1: f64, s2: f64) -> f64 {
    let sign_out = s1.is_sign_negative() != s2.is_sign_negative();
    let signed = |m: f64| if sign_out { -m.abs() } else { m.abs() };
    if s2.is_nan() {
        return s2;
    }
    if s1.is_nan() {
        return s1;
    }
    if (s1 == 0.0 && s2 == 0.0) || (s1.is_infinite() && s2.is_infinite()) {
        return f64::from_bits(0xfff8_0000_0000_0000);
    }
    if s1 == 0.0 || s2.is_infinite() {
        return signed(f64::INFINITY);
    }
    if s1.is_infinite() || s2 == 0.0 {
        return signed(0.0);
    }
    if exp64(s2) - exp64(s1) < -1075 {
        return signed(0.0);
    }
    if s0.is_nan() {
        return signed(f64::INFINITY);
    }
    signed(s0)
}

/// `v_trig_preop_f64`: 53 bits of 2/PI starting at bit `shift` (`s1` selects the segment).
pub(crate) fn trig_preop(x: f64, seg: u32) -> f64 {
    // 2/PI to 1200 bits, as 38 32-bit words from the most significant (the table every AMDGPU
    // implementation of trig_preop carries; value from the ISA documentation's definition).
    const TWO_OVER_PI: [u32; 38] = [
        0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a,
        0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
        0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf,
        0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
        0x56033046, 0xfc7b6bab,
    ];
    let mut shift = (seg & 31) as i32 * 53;
    let e = exp64(x);
    if e > 1077 {
        shift += e - 1077;
    }
    // Bits [shift, shift+53) of the fraction, as an integer, scaled by 2^-(shift+53).
    let bit = |k: i32| -> u64 {
        if k < 0 || k as usize >= TWO_OVER_PI.len() * 32 {
            return 0;
        }
        u64::from(TWO_OVER_PI[k as usize / 32] >> (31 - (k as u32 % 32)) & 1)
    };
    let mut m = 0u64;
    for k in 0..53 {
        m = (m << 1) | bit(shift + k);
    }
    ldexp64(m as f64, -(shift + 53))
}

/// `a * b + c` rounded once (IEEE fused multiply-add), without a call per lane: with the host's FMA
/// instruction compiled in it is that instruction; otherwise it is computed in f64, where the product of
/// two f32 is exact, and the one case where rounding the f64 sum to f32 would round twice wrongly (the sum
/// lands exactly on the midpoint between two f32 while the exact sum does not) is corrected by stepping the
/// sum one f64 ulp towards the exact value (round-to-odd), found with Knuth's TwoSum. Branch-free, so the
/// per-lane loops vectorise; `f32::mul_add` on a host without FMA calls libm's `fmaf` for every lane.
#[inline(always)]
pub(crate) fn fma32(a: f32, b: f32, c: f32) -> f32 {
    if cfg!(target_feature = "fma") {
        return a.mul_add(b, c);
    }
    let p = f64::from(a) * f64::from(b);
    let c = f64::from(c);
    let s = p + c;
    // TwoSum: s + e == p + c exactly (when s is finite).
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let bits = s.to_bits();
    // The low 29 of the 52 fraction bits are what rounding to f32 drops; exactly 1 << 28 is a midpoint.
    // They all sit in the low dword, and a 32-bit compare vectorises where a 64-bit one does not (SSE2).
    let midpoint = bits as u32 & 0x1fff_ffff == 0x1000_0000;
    let inexact = e != 0.0 && s.is_finite();
    // Towards the exact value: up in magnitude when e has the sign of s.
    let away = (e > 0.0) == (s > 0.0);
    let step: u64 = if away { 1 } else { u64::MAX };
    let fixed = if midpoint && inexact { bits.wrapping_add(step) } else { bits };
    f64::from_bits(fixed) as f32
}

#[cfg(test)]
mod fma_tests {
    use super::fma32;

    /// Bit patterns that stress rounding: random ones, and operands whose product and addend cancel or
    /// land on f32 rounding midpoints, with zeros, denormals, infinities and NaNs mixed in.
    fn check(a: f32, b: f32, c: f32) {
        let (got, want) = (fma32(a, b, c), a.mul_add(b, c));
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "fma({a:e}, {b:e}, {c:e}) = {got:e}, libm's fmaf says {want:e}"
        );
    }

    #[test]
    fn fma32_matches_libm_fmaf_bit_for_bit() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let specials = [0.0f32, -0.0, 1.0, -1.0, f32::MIN_POSITIVE, 1e-45, f32::MAX, f32::INFINITY, f32::NAN];
        for _ in 0..2_000_000 {
            let r = rnd();
            let a = f32::from_bits(r as u32);
            let b = f32::from_bits((r >> 32) as u32);
            check(a, b, f32::from_bits(rnd() as u32));
            // Near-midpoint cases: c is the product rounded to f32 plus or minus a small nudge, or half an
            // f32 ulp of the product, which a double rounding gets wrong.
            let (a, b) = (
                f32::from_bits(r as u32 & 0x3fff_ffff | 0x3000_0000),
                f32::from_bits((r >> 32) as u32 & 0x3fff_ffff | 0x3000_0000),
            );
            let p = a * b;
            let ulp = f32::from_bits(p.to_bits() + 1) - p;
            for c in [-p, p, ulp / 2.0, -ulp / 2.0, ulp * 1.5, -(f32::from_bits(p.to_bits() ^ 1)), 1.0, -1.0] {
                check(a, b, c);
            }
            let s = specials[(r % 9) as usize];
            check(s, b, a);
            check(a, s, b);
        }
        // Products just off half an ulp of the addend, by far less than an f64 ulp of the sum: the f64 sum
        // lands on the f32 midpoint and only the correction rounds it the right way.
        for k in 1..200_000u32 {
            let m = 1.0 + f64::from(k) * f64::powi(2.0, -23);
            for scale in [-60, -24, 0, 40] {
                let a = (m * f64::powi(2.0, scale - 24)) as f32;
                let b = (1.0 / m) as f32;
                for c in [1.0f32, -1.0, 1.5, -1.75] {
                    let c = c * f64::powi(2.0, scale) as f32;
                    check(a, b, c);
                    check(-a, b, c);
                }
            }
        }
    }
}
