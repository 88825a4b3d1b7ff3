//! Scalar ALU semantics (SOP1, SOP2, SOPK, SOPC), following the pseudo-code of AMD's ISA guides:
//! which ops set SCC and how (carry, signed overflow, result != 0, comparison).

use super::float::{f16_to_f32, f32_to_f16, f32_to_f16_rtz, fmax32, fmin32};
use super::vcmp::fcmp;
use super::{Ctx, Flow, Go, Handler, Stop};
use crate::decode::Inst;
use crate::op::{CmpTy, Cond, FloatOp, Logic, SOp, TransOp};
use crate::wave::{Ty, Wave};

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

fn bfe32(v: u32, ctl: u32, signed: bool) -> u32 {
    let off = ctl & 31;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = if width >= 32 { v >> off } else { (v >> off) & ((1u32 << width) - 1) };
    if signed && width < 32 {
        (((x << (32 - width)) as i32) >> (32 - width)) as u32
    } else {
        x
    }
}

fn bfe64(v: u64, ctl: u32, signed: bool) -> u64 {
    let off = ctl & 63;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = if width >= 64 { v >> off } else { (v >> off) & ((1u64 << width) - 1) };
    if signed && width < 64 {
        (((x << (64 - width)) as i64) >> (64 - width)) as u64
    } else {
        x
    }
}

fn ctz32(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

fn ctz64(v: u64) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

fn clz32(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}

fn clz64(v: u64) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}

fn cls32(v: u32) -> u32 {
    let x = if (v as i32) < 0 { !v } else { v };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

fn cls64(v: u64) -> u32 {
    let x = if (v as i64) < 0 { !v } else { v };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

fn wqm(v: u64, bits: u32) -> u64 {
    let mut out = 0;
    for q in 0..bits / 4 {
        if (v >> (4 * q)) & 0xf != 0 {
            out |= 0xf << (4 * q);
        }
    }
    out
}

fn quadmask(v: u64, bits: u32) -> u64 {
    let mut out = 0;
    for q in 0..bits / 4 {
        if (v >> (4 * q)) & 0xf != 0 {
            out |= 1 << q;
        }
    }
    out
}

/// Executes a scalar ALU instruction.
pub(super) fn exec(w: &mut Wave, i: &Inst, op: SOp) -> Result<Flow, Stop> {
    exec_op(w, i, op)
}

/// The handler of a common scalar ALU operation: [`exec_op`] with the operation a constant, so only its arm
/// is compiled in (no `match` on the operation when it runs, as for the VALU); `None` for the others, which
/// take the general scalar handler.
pub(super) fn handler(op: SOp) -> Option<Handler> {
    macro_rules! specialised {
        ($($op:expr),* $(,)?) => {{
            $(if op == $op {
                fn h(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                    let r = exec_op(w, i, $op);
                    super::done(cx, r)
                }
                return Some(h);
            })*
            None
        }};
    }
    use CmpTy::{I32, U32, U64};
    use Cond::{Eq, Ge, Gt, Le, Lg, Lt};
    use SOp::*;
    specialised! {
        AddU32, SubU32, AddI32, SubI32, AddcU32, SubbU32, MinU32, MaxU32, MinI32, MaxI32, CselectB32, CselectB64,
        AndB32, AndB64, OrB32, OrB64, XorB32, XorB64, Andn2B32, Andn2B64, LshlB32, LshrB32, AshrI32, LshlB64,
        LshrB64, MulI32, BfeU32, Lshl1AddU32, Lshl2AddU32, Lshl3AddU32, Lshl4AddU32, AddNcU64, MovB32, MovB64,
        NotB64, CmovB32, Cmp(Eq, U32), Cmp(Lg, U32), Cmp(Lt, U32), Cmp(Le, U32), Cmp(Gt, U32), Cmp(Ge, U32),
        Cmp(Eq, I32), Cmp(Lg, I32), Cmp(Lt, I32), Cmp(Le, I32), Cmp(Gt, I32), Cmp(Ge, I32), Cmp(Eq, U64),
        Cmp(Lg, U64), Cmpk(Eq, U32), Cmpk(Lg, U32), Cmpk(Lt, U32), Cmpk(Gt, U32), Cmpk(Lt, I32), Cmpk(Gt, I32),
    }
}

/// [`exec`]'s body, inlined into the specialised handlers.
#[inline(always)]
pub(super) fn exec_op(w: &mut Wave, i: &Inst, op: SOp) -> Result<Flow, Stop> {
    use SOp::*;
    let lit = i.lit;
    let a32 = |w: &Wave, ty| w.s32(i.src[0], lit, ty);
    let b32 = |w: &Wave, ty| w.s32(i.src[1], lit, ty);
    let a64 = |w: &Wave, ty| w.s64(i.src[0], lit, ty);
    let b64 = |w: &Wave, ty| w.s64(i.src[1], lit, ty);
    let d = i.dst;
    macro_rules! r32 {
        ($v:expr) => {{
            let v: u32 = $v;
            w.set_s(d, v);
        }};
    }
    macro_rules! r32z {
        ($v:expr) => {{
            let v: u32 = $v;
            w.set_s(d, v);
            w.scc = v != 0;
        }};
    }
    macro_rules! r64z {
        ($v:expr) => {{
            let v: u64 = $v;
            w.set_s64(d, v);
            w.scc = v != 0;
        }};
    }
    match op {
        AddU32 => {
            let t = u64::from(a32(w, Ty::U)) + u64::from(b32(w, Ty::U));
            w.set_s(d, t as u32);
            w.scc = t >> 32 != 0;
        }
        AddcU32 => {
            let t = u64::from(a32(w, Ty::U)) + u64::from(b32(w, Ty::U)) + u64::from(w.scc);
            w.set_s(d, t as u32);
            w.scc = t >> 32 != 0;
        }
        SubU32 => {
            let (a, b) = (a32(w, Ty::U), b32(w, Ty::U));
            w.set_s(d, a.wrapping_sub(b));
            w.scc = b > a;
        }
        SubbU32 => {
            let (a, b, c) = (u64::from(a32(w, Ty::U)), u64::from(b32(w, Ty::U)), u64::from(w.scc));
            w.set_s(d, a.wrapping_sub(b).wrapping_sub(c) as u32);
            w.scc = b + c > a;
        }
        AddI32 => {
            let (a, b) = (a32(w, Ty::I), b32(w, Ty::I));
            let t = a.wrapping_add(b);
            w.set_s(d, t);
            w.scc = (a >> 31 == b >> 31) && (a >> 31 != t >> 31);
        }
        SubI32 => {
            let (a, b) = (a32(w, Ty::I), b32(w, Ty::I));
            let t = a.wrapping_sub(b);
            w.set_s(d, t);
            w.scc = (a >> 31 != b >> 31) && (a >> 31 != t >> 31);
        }
        MinI32 | MinU32 | MaxI32 | MaxU32 => {
            let (a, b) = (a32(w, Ty::I), b32(w, Ty::I));
            let take_a = match op {
                MinI32 => (a as i32) < (b as i32),
                MinU32 => a < b,
                MaxI32 => (a as i32) > (b as i32),
                _ => a > b,
            };
            w.set_s(d, if take_a { a } else { b });
            w.scc = take_a;
        }
        CselectB32 => r32!(if w.scc { a32(w, Ty::U) } else { b32(w, Ty::U) }),
        CselectB64 => {
            let v = if w.scc { a64(w, Ty::U) } else { b64(w, Ty::U) };
            w.set_s64(d, v);
        }
        AndB32 => r32z!(a32(w, Ty::U) & b32(w, Ty::U)),
        OrB32 => r32z!(a32(w, Ty::U) | b32(w, Ty::U)),
        XorB32 => r32z!(a32(w, Ty::U) ^ b32(w, Ty::U)),
        Andn2B32 => r32z!(a32(w, Ty::U) & !b32(w, Ty::U)),
        Orn2B32 => r32z!(a32(w, Ty::U) | !b32(w, Ty::U)),
        NandB32 => r32z!(!(a32(w, Ty::U) & b32(w, Ty::U))),
        NorB32 => r32z!(!(a32(w, Ty::U) | b32(w, Ty::U))),
        XnorB32 => r32z!(!(a32(w, Ty::U) ^ b32(w, Ty::U))),
        AndB64 => r64z!(a64(w, Ty::U) & b64(w, Ty::U)),
        OrB64 => r64z!(a64(w, Ty::U) | b64(w, Ty::U)),
        XorB64 => r64z!(a64(w, Ty::U) ^ b64(w, Ty::U)),
        Andn2B64 => r64z!(a64(w, Ty::U) & !b64(w, Ty::U)),
        Orn2B64 => r64z!(a64(w, Ty::U) | !b64(w, Ty::U)),
        NandB64 => r64z!(!(a64(w, Ty::U) & b64(w, Ty::U))),
        NorB64 => r64z!(!(a64(w, Ty::U) | b64(w, Ty::U))),
        XnorB64 => r64z!(!(a64(w, Ty::U) ^ b64(w, Ty::U))),
        LshlB32 => r32z!(a32(w, Ty::U) << (b32(w, Ty::U) & 31)),
        LshrB32 => r32z!(a32(w, Ty::U) >> (b32(w, Ty::U) & 31)),
        AshrI32 => r32z!(((a32(w, Ty::I) as i32) >> (b32(w, Ty::U) & 31)) as u32),
        LshlB64 => r64z!(a64(w, Ty::U) << (b32(w, Ty::U) & 63)),
        LshrB64 => r64z!(a64(w, Ty::U) >> (b32(w, Ty::U) & 63)),
        AshrI64 => r64z!(((a64(w, Ty::I) as i64) >> (b32(w, Ty::U) & 63)) as u64),
        BfmB32 => r32!(((1u64 << (a32(w, Ty::U) & 31)) as u32).wrapping_sub(1) << (b32(w, Ty::U) & 31)),
        BfmB64 => {
            let v = ((1u128 << (a32(w, Ty::U) & 63)) as u64).wrapping_sub(1) << (b32(w, Ty::U) & 63);
            w.set_s64(d, v);
        }
        AddNcU64 => {
            let v = a64(w, Ty::U).wrapping_add(b64(w, Ty::U));
            w.set_s64(d, v);
        }
        SubNcU64 => {
            let v = a64(w, Ty::U).wrapping_sub(b64(w, Ty::U));
            w.set_s64(d, v);
        }
        MulU64 => {
            let v = a64(w, Ty::U).wrapping_mul(b64(w, Ty::U));
            w.set_s64(d, v);
        }
        MulI32 => r32!(a32(w, Ty::I).wrapping_mul(b32(w, Ty::I))),
        MulHiU32 => r32!(((u64::from(a32(w, Ty::U)) * u64::from(b32(w, Ty::U))) >> 32) as u32),
        MulHiI32 => r32!(((i64::from(a32(w, Ty::I) as i32) * i64::from(b32(w, Ty::I) as i32)) >> 32) as u32),
        BfeU32 => r32z!(bfe32(a32(w, Ty::U), b32(w, Ty::U), false)),
        BfeI32 => r32z!(bfe32(a32(w, Ty::I), b32(w, Ty::U), true)),
        BfeU64 => r64z!(bfe64(a64(w, Ty::U), b32(w, Ty::U), false)),
        BfeI64 => r64z!(bfe64(a64(w, Ty::I), b32(w, Ty::U), true)),
        AbsdiffI32 => r32z!((a32(w, Ty::I) as i32).wrapping_sub(b32(w, Ty::I) as i32).unsigned_abs()),
        Lshl1AddU32 | Lshl2AddU32 | Lshl3AddU32 | Lshl4AddU32 => {
            let sh = match op {
                Lshl1AddU32 => 1,
                Lshl2AddU32 => 2,
                Lshl3AddU32 => 3,
                _ => 4,
            };
            let t = (u64::from(a32(w, Ty::U)) << sh) + u64::from(b32(w, Ty::U));
            w.set_s(d, t as u32);
            w.scc = t >> 32 != 0;
        }
        PackLlB32B16 => r32!((a32(w, Ty::U) & 0xffff) | (b32(w, Ty::U) << 16)),
        PackLhB32B16 => r32!((a32(w, Ty::U) & 0xffff) | (b32(w, Ty::U) & 0xffff_0000)),
        PackHhB32B16 => r32!((a32(w, Ty::U) >> 16) | (b32(w, Ty::U) & 0xffff_0000)),
        PackHlB32B16 => r32!((a32(w, Ty::U) >> 16) | (b32(w, Ty::U) << 16)),
        MovB32 => r32!(a32(w, Ty::U)),
        MovB64 => {
            let v = a64(w, Ty::U);
            w.set_s64(d, v);
        }
        CmovB32 => {
            if w.scc {
                r32!(a32(w, Ty::U))
            }
        }
        CmovB64 => {
            if w.scc {
                let v = a64(w, Ty::U);
                w.set_s64(d, v);
            }
        }
        NotB32 => r32z!(!a32(w, Ty::U)),
        NotB64 => r64z!(!a64(w, Ty::U)),
        WqmB32 => r32z!(wqm(u64::from(a32(w, Ty::U)), 32) as u32),
        WqmB64 => r64z!(wqm(a64(w, Ty::U), 64)),
        QuadmaskB32 => r32z!(quadmask(u64::from(a32(w, Ty::U)), 32) as u32),
        QuadmaskB64 => r64z!(quadmask(a64(w, Ty::U), 64)),
        BrevB32 => r32!(a32(w, Ty::U).reverse_bits()),
        BrevB64 => {
            let v = a64(w, Ty::U).reverse_bits();
            w.set_s64(d, v);
        }
        Bcnt0B32 => r32z!(a32(w, Ty::U).count_zeros()),
        Bcnt0B64 => r32z!(a64(w, Ty::U).count_zeros()),
        Bcnt1B32 => r32z!(a32(w, Ty::U).count_ones()),
        Bcnt1B64 => r32z!(a64(w, Ty::U).count_ones()),
        Ff0B32 => r32!(ctz32(!a32(w, Ty::U))),
        Ff0B64 => r32!(ctz64(!a64(w, Ty::U))),
        Ff1B32 => r32!(ctz32(a32(w, Ty::U))),
        Ff1B64 => r32!(ctz64(a64(w, Ty::U))),
        FlbitB32 => r32!(clz32(a32(w, Ty::U))),
        FlbitB64 => r32!(clz64(a64(w, Ty::U))),
        FlbitI32 => r32!(cls32(a32(w, Ty::I))),
        FlbitI64 => r32!(cls64(a64(w, Ty::I))),
        SextI8 => r32!(a32(w, Ty::I) as i8 as i32 as u32),
        SextI16 => r32!(a32(w, Ty::I) as i16 as i32 as u32),
        Bitset0B32 => {
            let v = w.sgpr(d) & !(1 << (a32(w, Ty::U) & 31));
            r32!(v)
        }
        Bitset1B32 => {
            let v = w.sgpr(d) | (1 << (a32(w, Ty::U) & 31));
            r32!(v)
        }
        Bitset0B64 | Bitset1B64 => {
            let old = u64::from(w.sgpr(d)) | (u64::from(w.sgpr(d + 1)) << 32);
            let bit = 1u64 << (a32(w, Ty::U) & 63);
            w.set_s64(d, if op == Bitset1B64 { old | bit } else { old & !bit });
        }
        AbsI32 => r32z!((a32(w, Ty::I) as i32).unsigned_abs()),
        GetpcB64 => {
            let next = w.pc + u64::from(i.size);
            w.set_s64(d, next);
        }
        SetpcB64 => return Ok(Flow::Jump(a64(w, Ty::U))),
        SwappcB64 => {
            let target = a64(w, Ty::U);
            let next = w.pc + u64::from(i.size);
            w.set_s64(d, next);
            return Ok(Flow::Jump(target));
        }
        CallB64 => {
            let next = w.pc + u64::from(i.size);
            w.set_s64(d, next);
            let target = (next as i64).wrapping_add(4 * i64::from(i.imm)) as u64;
            return Ok(Flow::Jump(target));
        }
        MovrelsB32 | MovrelsB64 | MovreldB32 | MovreldB64 => {
            let m0 = w.m0() as u16;
            let wide = matches!(op, MovrelsB64 | MovreldB64);
            let (src, dst) = if matches!(op, MovrelsB32 | MovrelsB64) {
                (i.src[0].wrapping_add(m0), d)
            } else {
                (i.src[0], d.wrapping_add(m0))
            };
            if src >= 106 || dst >= 106 {
                return Err(Stop::Invalid(format!("{} indexes past the SGPRs (m0 = {m0})", i.name)));
            }
            let v = w.s64(src, 0, Ty::U);
            if wide {
                w.set_s64(dst, v);
            } else {
                w.set_s(dst, v as u32);
            }
        }
        Saveexec(logic, wide) => {
            let exec = w.exec();
            let s = if wide { a64(w, Ty::U) } else { u64::from(a32(w, Ty::U)) };
            let full = w.full();
            let new = match logic {
                Logic::And => s & exec,
                Logic::Or => s | exec,
                Logic::Xor => s ^ exec,
                Logic::AndNotExec => s & !exec,
                Logic::OrNotExec => s | !exec,
                Logic::Nand => !(s & exec),
                Logic::Nor => !(s | exec),
                Logic::Xnor => !(s ^ exec),
                Logic::NotSAndExec | Logic::NotSAndExecWr => !s & exec,
                Logic::NotSOrExec => !s | exec,
                Logic::AndNotExecWr => s & !exec,
            } & full;
            w.set_exec(new);
            let saved = if matches!(logic, Logic::NotSAndExecWr | Logic::AndNotExecWr) { new } else { exec };
            if wide {
                w.set_s64(d, saved);
            } else {
                w.set_s(d, saved as u32);
            }
            w.scc = new != 0;
        }
        MovkI32 => r32!(i.imm as u32),
        CmovkI32 => {
            if w.scc {
                r32!(i.imm as u32)
            }
        }
        AddkI32 => {
            let a = w.sgpr(d);
            let b = i.imm as u32;
            let t = a.wrapping_add(b);
            w.set_s(d, t);
            w.scc = (a >> 31 == b >> 31) && (a >> 31 != t >> 31);
        }
        MulkI32 => {
            let v = w.sgpr(d).wrapping_mul(i.imm as u32);
            r32!(v)
        }
        Cmpk(c, ty) => {
            let a = w.sgpr(d);
            w.scc = if ty == CmpTy::I32 { icmp(c, a as i32, i.imm) } else { icmp(c, a, i.imm as u32 & 0xffff) };
        }
        Cmp(c, ty) => {
            w.scc = match ty {
                CmpTy::I32 => icmp(c, a32(w, Ty::I) as i32, b32(w, Ty::I) as i32),
                CmpTy::U32 => icmp(c, a32(w, Ty::U), b32(w, Ty::U)),
                CmpTy::U64 | CmpTy::I64 => icmp(c, a64(w, Ty::U), b64(w, Ty::U)),
                CmpTy::F32 => {
                    let (a, b) = (f32::from_bits(a32(w, Ty::F32)), f32::from_bits(b32(w, Ty::F32)));
                    fcmp(c, f64::from(a), f64::from(b))
                }
                CmpTy::F16 => {
                    let (a, b) = (f16_to_f32(a32(w, Ty::F16) as u16), f16_to_f32(b32(w, Ty::F16) as u16));
                    fcmp(c, f64::from(a), f64::from(b))
                }
                _ => return Err(Stop::Unimplemented),
            };
        }
        Float(f, half) => {
            let ty = if half { Ty::F16 } else { Ty::F32 };
            let (a, b) = (a32(w, ty), b32(w, ty));
            let v = if half {
                let c = f16_to_f32(w.sgpr(d) as u16);
                let k = f16_to_f32(lit as u16);
                u32::from(f32_to_f16(float_op(f, f16_to_f32(a as u16), f16_to_f32(b as u16), c, k)))
            } else {
                float_op(f, f32::from_bits(a), f32::from_bits(b), f32::from_bits(w.sgpr(d)), f32::from_bits(lit))
                    .to_bits()
            };
            r32!(v)
        }
        BitreplicateB64B32 => {
            let a = a32(w, Ty::U);
            let mut v = 0u64;
            for b in 0..32 {
                v |= u64::from((a >> b) & 1) * (3 << (2 * b));
            }
            w.set_s64(d, v);
        }
        Trans(t, half) => {
            // VOP3-encoded: the VALU's modifiers are not modelled for these.
            if i.mods != crate::decode::Mods::default() {
                return Err(Stop::Invalid(format!("{} with source/output modifiers is not supported", i.name)));
            }
            let f = |x: f32| match t {
                TransOp::Exp => x.exp2(),
                TransOp::Log => x.log2(),
                TransOp::Rcp => 1.0 / x,
                TransOp::Rsq => 1.0 / x.sqrt(),
                TransOp::Sqrt => x.sqrt(),
            };
            let v = if half {
                u32::from(f32_to_f16(f(f16_to_f32(a32(w, Ty::F16) as u16))))
            } else {
                f(f32::from_bits(a32(w, Ty::F32))).to_bits()
            };
            r32!(v)
        }
        Cvt(c) => {
            use crate::op::ScalarCvt::*;
            let ty = match c {
                F32I32 | F32U32 => Ty::U,
                F32F16 | HiF32F16 => Ty::F16,
                _ => Ty::F32,
            };
            let a = a32(w, ty);
            let fa = f32::from_bits(a);
            let v = match c {
                F32I32 => (a as i32 as f32).to_bits(),
                F32U32 => (a as f32).to_bits(),
                // Rust's float-to-int casts saturate and send NaN to 0, as the ISA's conversions do.
                I32F32 => fa as i32 as u32,
                U32F32 => fa as u32,
                F16F32 => u32::from(f32_to_f16(fa)),
                F32F16 => f16_to_f32(a as u16).to_bits(),
                HiF32F16 => f16_to_f32((a >> 16) as u16).to_bits(),
                PkRtzF16F32 => {
                    let b = f32::from_bits(b32(w, Ty::F32));
                    u32::from(f32_to_f16_rtz(fa)) | (u32::from(f32_to_f16_rtz(b)) << 16)
                }
            };
            r32!(v)
        }
        Bitcmp(value, wide) => {
            let bit = if wide {
                (a64(w, Ty::U) >> (b32(w, Ty::U) & 63)) & 1 != 0
            } else {
                (a32(w, Ty::U) >> (b32(w, Ty::U) & 31)) & 1 != 0
            };
            w.scc = bit == value;
        }
        GetregB32 => {
            let (id, off, size) = hwreg(i.imm as u32);
            let v = read_hwreg(w, id);
            r32!((v >> off) & mask(size))
        }
        SetregB32 | SetregImm32B32 => {
            let (id, off, size) = hwreg(i.imm as u32);
            let src = if op == SetregImm32B32 { i.lit } else { w.s32(i.dst, 0, Ty::U) };
            write_hwreg(w, id, off, size, src);
        }
    }
    Ok(Flow::Next)
}

/// One gfx12 scalar float operation on `a` (src0), `b` (src1), `c` (the destination's old value) and `k`
/// (the literal), in f32 (f16 operands are widened exactly; f32 has enough precision for the result, once
/// rounded to f16, to be the correctly rounded f16 one for add, sub and mul).
fn float_op(f: FloatOp, a: f32, b: f32, c: f32, k: f32) -> f32 {
    match f {
        FloatOp::Add => a + b,
        FloatOp::Sub => a - b,
        FloatOp::Mul => a * b,
        FloatOp::MinNum => fmin32(a, b),
        FloatOp::MaxNum => fmax32(a, b),
        FloatOp::Minimum | FloatOp::Maximum => {
            if a.is_nan() || b.is_nan() {
                return f32::NAN;
            }
            let min = f == FloatOp::Minimum;
            if a == b {
                // -0 < +0.
                return if a.is_sign_negative() == min { a } else { b };
            }
            if (a < b) == min {
                a
            } else {
                b
            }
        }
        FloatOp::Fmac => a.mul_add(b, c),
        FloatOp::Fmaak => a.mul_add(b, k),
        FloatOp::Fmamk => a.mul_add(k, b),
        FloatOp::Ceil => a.ceil(),
        FloatOp::Floor => a.floor(),
        FloatOp::Trunc => a.trunc(),
        FloatOp::Rndne => a.round_ties_even(),
    }
}

/// `hwreg(id, offset, size)` from a SOPK simm16.
fn hwreg(simm: u32) -> (u32, u32, u32) {
    (simm & 0x3f, (simm >> 6) & 0x1f, ((simm >> 11) & 0x1f) + 1)
}

fn mask(size: u32) -> u32 {
    if size >= 32 {
        u32::MAX
    } else {
        (1 << size) - 1
    }
}

/// Hardware register ids (`HW_REG_*`, LLVM `SIDefines.h`): 1 MODE, 2 STATUS, 3 TRAPSTS, 4 HW_ID,
/// 20/21 FLAT_SCR_LO/HI (gfx10+), 23 HW_ID1 (gfx10+).
fn read_hwreg(w: &Wave, id: u32) -> u32 {
    match id {
        1 => w.mode,
        2 => u32::from(w.exec() != 0) << 9 | u32::from(w.scc),
        3 => w.trapsts,
        4 | 23 => w.hw_id,
        20 => w.flat_scratch as u32,
        21 => (w.flat_scratch >> 32) as u32,
        _ => 0,
    }
}

fn write_hwreg(w: &mut Wave, id: u32, off: u32, size: u32, v: u32) {
    let m = mask(size) << off;
    let put = |old: u32| (old & !m) | ((v << off) & m);
    match id {
        1 => w.mode = put(w.mode),
        3 => w.trapsts = put(w.trapsts),
        20 => w.flat_scratch = (w.flat_scratch & !0xffff_ffff) | u64::from(put(w.flat_scratch as u32)),
        21 => w.flat_scratch = (w.flat_scratch & 0xffff_ffff) | (u64::from(put((w.flat_scratch >> 32) as u32)) << 32),
        _ => {}
    }
}
