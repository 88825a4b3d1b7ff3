//! Number formatting as rocprofv3's C++ streams print it (`std::fixed`, `std::scientific`,
//! `printf("%e")`): Rust's `{:e}` writes `1.5e3`, C writes `1.5e+03`.

/// `value` in C scientific notation with `precision` fraction digits: `5.12500000e-01`.
pub(crate) fn scientific(value: f64, precision: usize) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    let s = format!("{value:.precision$e}");
    let (mantissa, exp) = s.split_once('e').expect("`{:e}` output always has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

/// `value` with `precision` fraction digits: `16384.000000`.
pub(crate) fn fixed(value: f64, precision: usize) -> String {
    format!("{value:.precision$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scientific_matches_c() {
        assert_eq!(scientific(0.0, 8), "0.00000000e+00");
        assert_eq!(scientific(0.5125, 8), "5.12500000e-01");
        assert_eq!(scientific(9520.0, 3), "9.520e+03");
        assert_eq!(scientific(113.137, 3), "1.131e+02");
        assert_eq!(scientific(0.004712, 3), "4.712e-03");
        assert_eq!(scientific(1.0e120, 2), "1.00e+120");
        assert_eq!(scientific(-2.5, 1), "-2.5e+00");
    }

    #[test]
    fn fixed_pads_fraction() {
        assert_eq!(fixed(16384.0, 6), "16384.000000");
        assert_eq!(fixed(85.154, 2), "85.15");
    }
}
