//! Vector compares (`v_cmp_*`, `v_cmpx_*`, `v_cmp_class_*`): one result bit per active lane into VCC or
//! an SGPR pair; `v_cmpx` also writes EXEC (gfx9 writes both, gfx10+ only EXEC).

use super::float::{class16, class32, class_f64, f16_to_f32};
use super::valu::src16;
use super::{Flow, Stop};
use crate::decode::Inst;
use crate::op::{CmpTy, Cond};
use crate::target::Family;
use crate::wave::{Ty, Wave, MAX_LANES};

// The negated and two-sided comparisons are the ISA's definitions: with a NaN operand `a < b || a > b` is
// false while `a != b` is true, and `!(a >= b)` is true while `a < b` is false.
#[allow(clippy::double_comparisons, clippy::neg_cmp_op_on_partial_ord)]
pub(super) fn fcmp(c: Cond, a: f64, b: f64) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    match c {
        Cond::F => false,
        Cond::Lt => a < b,
        Cond::Eq => a == b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Lg => a < b || a > b,
        Cond::Ge => a >= b,
        Cond::O => !unordered,
        Cond::U => unordered,
        Cond::Nge => !(a >= b),
        Cond::Nlg => !(a < b || a > b),
        Cond::Ngt => !(a > b),
        Cond::Nle => !(a <= b),
        Cond::Neq => a != b,
        Cond::Nlt => !(a < b),
        Cond::T => true,
    }
}

fn icmp<T: PartialOrd>(c: Cond, a: T, b: T) -> bool {
    match c {
        Cond::F => false,
        Cond::Lt => a < b,
        Cond::Eq => a == b,
        Cond::Le => a <= b,
        Cond::Gt => a > b,
        Cond::Lg => a != b,
        Cond::Ge => a >= b,
        _ => true,
    }
}

/// Executes a vector compare.
/// Compares of 32-bit registers or constants without modifiers: the common case, as one tight loop.
fn fast32(w: &Wave, i: &Inst, cond: Cond, ty: CmpTy) -> Option<u64> {
    if !matches!(i.extra, crate::decode::Extra::None) || i.mods.abs != 0 || i.mods.neg != 0 {
        return None;
    }
    let fty = if ty == CmpTy::F32 { Ty::F32 } else { Ty::U };
    let (mut a, mut b) = ([0u32; MAX_LANES], [0u32; MAX_LANES]);
    w.raw32(i.src[0], i.lit, fty, &mut a);
    w.raw32(i.src[1], i.lit, fty, &mut b);
    let mut r = [false; MAX_LANES];
    match ty {
        CmpTy::U32 => {
            for l in 0..MAX_LANES {
                r[l] = icmp(cond, a[l], b[l]);
            }
        }
        CmpTy::I32 => {
            for l in 0..MAX_LANES {
                r[l] = icmp(cond, a[l] as i32, b[l] as i32);
            }
        }
        _ => {
            for l in 0..MAX_LANES {
                r[l] = fcmp(cond, f64::from(f32::from_bits(a[l])), f64::from(f32::from_bits(b[l])));
            }
        }
    }
    let mut bits = 0u64;
    for l in 0..MAX_LANES {
        bits |= u64::from(r[l]) << l;
    }
    Some(bits & w.exec())
}

pub(super) fn exec(w: &mut Wave, i: &Inst, cond: Cond, ty: CmpTy, x: bool, class: bool) -> Result<Flow, Stop> {
    if !class && matches!(ty, CmpTy::U32 | CmpTy::I32 | CmpTy::F32) {
        if let Some(bits) = fast32(w, i, cond, ty) {
            finish(w, i, x, bits);
            return Ok(Flow::Next);
        }
    }
    let exec = w.exec();
    let n = w.lanes;
    let mut bits = 0u64;
    let mut set = |l: usize, b: bool| {
        if b && exec >> l & 1 != 0 {
            bits |= 1 << l;
        }
    };
    match ty {
        CmpTy::F64 | CmpTy::I64 | CmpTy::U64 => {
            let fty = if ty == CmpTy::F64 {
                Ty::F64
            } else if ty == CmpTy::I64 {
                Ty::I
            } else {
                Ty::U
            };
            let (mut a, mut b) = ([0u64; MAX_LANES], [0u64; MAX_LANES]);
            w.src64(i, 0, fty, &mut a);
            if class {
                let mut m = [0u32; MAX_LANES];
                w.src32(i, 1, Ty::U, &mut m);
                for l in 0..n {
                    set(l, class_f64(f64::from_bits(a[l])) & m[l] != 0);
                }
            } else {
                w.src64(i, 1, fty, &mut b);
                for l in 0..n {
                    set(
                        l,
                        match ty {
                            CmpTy::F64 => fcmp(cond, f64::from_bits(a[l]), f64::from_bits(b[l])),
                            CmpTy::I64 => icmp(cond, a[l] as i64, b[l] as i64),
                            _ => icmp(cond, a[l], b[l]),
                        },
                    );
                }
            }
        }
        CmpTy::F32 | CmpTy::I32 | CmpTy::U32 => {
            let fty = if ty == CmpTy::F32 { Ty::F32 } else { Ty::U };
            let (mut a, mut b) = ([0u32; MAX_LANES], [0u32; MAX_LANES]);
            w.src32(i, 0, fty, &mut a);
            w.src32(i, 1, if class { Ty::U } else { fty }, &mut b);
            for l in 0..n {
                set(
                    l,
                    if class {
                        class32(f32::from_bits(a[l])) & b[l] != 0
                    } else {
                        match ty {
                            CmpTy::F32 => fcmp(cond, f64::from(f32::from_bits(a[l])), f64::from(f32::from_bits(b[l]))),
                            CmpTy::I32 => icmp(cond, a[l] as i32, b[l] as i32),
                            _ => icmp(cond, a[l], b[l]),
                        }
                    },
                );
            }
        }
        CmpTy::F16 | CmpTy::I16 | CmpTy::U16 => {
            let fty = if ty == CmpTy::F16 { Ty::F16 } else { Ty::U };
            let (mut a, mut b) = ([0u32; MAX_LANES], [0u32; MAX_LANES]);
            src16(w, i, 0, fty, &mut a);
            if class {
                w.src32(i, 1, Ty::U, &mut b);
            } else {
                src16(w, i, 1, fty, &mut b);
            }
            for l in 0..n {
                let (x, y) = (a[l] as u16, b[l] as u16);
                set(
                    l,
                    if class {
                        class16(x) & b[l] != 0
                    } else {
                        match ty {
                            CmpTy::F16 => fcmp(cond, f64::from(f16_to_f32(x)), f64::from(f16_to_f32(y))),
                            CmpTy::I16 => icmp(cond, x as i16, y as i16),
                            _ => icmp(cond, x, y),
                        }
                    },
                );
            }
        }
    }
    finish(w, i, x, bits);
    Ok(Flow::Next)
}

fn finish(w: &mut Wave, i: &Inst, x: bool, bits: u64) {
    if x {
        w.set_exec(bits);
        if w.family == Family::Gfx9 {
            w.write_mask(i.sdst, bits);
        }
    } else {
        w.write_mask(i.sdst, bits);
    }
}
