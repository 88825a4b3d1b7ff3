//! The unsigned 11- and 10-bit floats of the packed `10_11_11`/`11_11_10` FLOAT formats: no sign bit, a
//! 5-bit exponent with bias 15 above a 6-bit (11-bit float) or 5-bit (10-bit float) mantissa.
//!
//! Decoding is exact: exponent 0 is zero or a denormal `m / 2^mb * 2^-14`, exponents 1..30 are
//! `(1 + m / 2^mb) * 2^(e - 15)`, exponent 31 is +infinity (mantissa 0) or NaN.
//!
//! Encoding (stores) follows Direct3D 10's rules for these formats, which hardware running D3D has to meet;
//! AMD's ISA guides give the bit layout but not the conversion, and no GPU here can confirm it: round
//! toward zero, negative numbers, -0 and -infinity become 0, +infinity stays infinite, finite numbers above
//! the largest finite value saturate to it (never to infinity), denormals are kept, and a NaN stays a NaN
//! (its top mantissa bits kept, at least one set), so decoding and encoding again gives back every code.

const EXP_BITS: u32 = 5;
const BIAS: i32 = 15;

/// The f32 value of the small float `code` with `mb` mantissa bits (6: 11-bit, 5: 10-bit).
pub fn to_f32(code: u32, mb: u8) -> f32 {
    let mb = u32::from(mb);
    let m = code & ((1 << mb) - 1);
    let e = (code >> mb) & ((1 << EXP_BITS) - 1);
    match e {
        // f32 has room for every small-float value: shift the fields into place.
        0 if m == 0 => 0.0,
        0 => m as f32 * 2f32.powi(-14 - mb as i32),
        31 => f32::from_bits(0x7f80_0000 | (m << (23 - mb))),
        _ => f32::from_bits((((e as i32 - BIAS + 127) as u32) << 23) | (m << (23 - mb))),
    }
}

/// The small float with `mb` mantissa bits nearest `f` toward zero (module rules).
pub fn from_f32(f: f32, mant_bits: u8) -> u32 {
    let mb = u32::from(mant_bits);
    let inf = 31 << mb;
    let bits = f.to_bits();
    if f.is_nan() {
        return inf | ((bits & 0x7f_ffff) >> (23 - mb)).max(1);
    }
    if f.is_sign_negative() {
        return 0;
    }
    if f.is_infinite() {
        return inf;
    }
    let max_finite = (30 << mb) | ((1 << mb) - 1);
    if f >= to_f32(max_finite, mant_bits) {
        return max_finite;
    }
    let e = ((bits >> 23) & 0xff) as i32 - 127;
    if e >= 1 - BIAS {
        (((e + BIAS) as u32) << mb) | ((bits & 0x7f_ffff) >> (23 - mb))
    } else {
        // Below 2^-14: a denormal, m = floor(f * 2^(14 + mb)) (exact in f64).
        (f64::from(f) * 2f64.powi(14 + mb as i32)) as u32
    }
}
