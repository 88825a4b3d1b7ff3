//! Vector compares (`v_cmp_*`, `v_cmpx_*`, `v_cmp_class_*`): one result bit per active lane into VCC or
//! an SGPR pair; `v_cmpx` also writes EXEC (gfx9 writes both, gfx10+ only EXEC).

use super::float::{class16, class32, class_f64, f16_to_f32};
use super::valu::src16;
use super::{Ctx, Flow, Go, Handler, Stop};
use crate::decode::Inst;
use crate::op::{CmpTy, Cond};
use crate::pre::Src;
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

/// The conditions in the order of the handlers' `C` parameter.
const CONDS: [Cond; 16] = [
    Cond::F,
    Cond::Lt,
    Cond::Eq,
    Cond::Le,
    Cond::Gt,
    Cond::Lg,
    Cond::Ge,
    Cond::O,
    Cond::U,
    Cond::Nge,
    Cond::Nlg,
    Cond::Ngt,
    Cond::Nle,
    Cond::Neq,
    Cond::Nlt,
    Cond::T,
];

/// The handler of a compare of `u32`/`i32`/`f32` operands without modifiers (a plain instruction, see
/// [`crate::pre::Pre`]; not a class test), with the type, the condition and `v_cmpx` constants of the
/// handler; `None` for the other compares (they run through [`exec`]).
pub(super) fn handler(i: &Inst, cond: Cond, ty: CmpTy, x: bool, class: bool) -> Option<Handler> {
    if class || !i.pre.plain {
        return None;
    }
    let c = CONDS.iter().position(|&k| k == cond)?;
    macro_rules! pick {
        ($t:literal, $x:literal) => {
            match c {
                0 => h::<$t, 0, $x>,
                1 => h::<$t, 1, $x>,
                2 => h::<$t, 2, $x>,
                3 => h::<$t, 3, $x>,
                4 => h::<$t, 4, $x>,
                5 => h::<$t, 5, $x>,
                6 => h::<$t, 6, $x>,
                7 => h::<$t, 7, $x>,
                8 => h::<$t, 8, $x>,
                9 => h::<$t, 9, $x>,
                10 => h::<$t, 10, $x>,
                11 => h::<$t, 11, $x>,
                12 => h::<$t, 12, $x>,
                13 => h::<$t, 13, $x>,
                14 => h::<$t, 14, $x>,
                _ => h::<$t, 15, $x>,
            }
        };
    }
    Some(match (ty, x) {
        (CmpTy::U32, false) => pick!(0, false),
        (CmpTy::U32, true) => pick!(0, true),
        (CmpTy::I32, false) => pick!(1, false),
        (CmpTy::I32, true) => pick!(1, true),
        (CmpTy::F32, false) => pick!(2, false),
        (CmpTy::F32, true) => pick!(2, true),
        _ => return None,
    })
}

/// Source `k` of a plain compare over all lanes, as resolved at decode.
#[inline(always)]
fn lanes_of(w: &Wave, i: &Inst, k: usize) -> [u32; MAX_LANES] {
    match i.pre.src[k] {
        Src::Row(r) => {
            let o = usize::from(r) * MAX_LANES;
            w.v[o..o + MAX_LANES].try_into().expect("a row")
        }
        Src::Sgpr(c) => [w.s[usize::from(c & 127)]; MAX_LANES],
        Src::Const(v) => [v; MAX_LANES],
        Src::Other(c) => [w.s32(c, i.lit, Ty::U); MAX_LANES],
    }
}

/// A plain 32-bit compare: `T` 0 `u32`, 1 `i32`, 2 `f32`; `C` the index of its condition in [`CONDS`];
/// `X` a `v_cmpx`. 8 lanes at a time so the compare loop is vector code.
fn h<const T: u8, const C: usize, const X: bool>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let exec = w.exec();
    cx.stats.valu_active_lanes += u64::from(exec.count_ones());
    let cond = CONDS[C];
    let (a, b) = (lanes_of(w, i, 0), lanes_of(w, i, 1));
    let mut bits = 0u64;
    for q in 0..MAX_LANES / 8 {
        let k = 8 * q;
        let mut r = [false; 8];
        for l in 0..8 {
            let (x, y) = (a[k + l], b[k + l]);
            r[l] = match T {
                0 => icmp(cond, x, y),
                1 => icmp(cond, x as i32, y as i32),
                _ => fcmp(cond, f64::from(f32::from_bits(x)), f64::from(f32::from_bits(y))),
            };
        }
        for l in 0..8 {
            bits |= u64::from(r[l]) << (k + l);
        }
    }
    finish(w, i, X, bits & exec);
    Go::Next
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
