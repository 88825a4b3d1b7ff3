//! The plain VALU handlers: one per operation of the list below, lane count and lane kernel set, chosen at
//! decode for a plain instruction ([`crate::pre::Pre::plain`]); with AVX2 or AVX-512 also one per
//! operation whose sources are all VGPR rows ([`Form::Rows`], the form [`ROWS`]) and one per operation
//! whose source 0 is an SGPR or a constant and the others rows ([`Form::Scalar0`], the form [`SCALAR0`]).
//! The semantics stay in [`exec_op`]'s arms; a form only fixes what the arm's operand plumbing may assume.

#[cfg(target_arch = "x86_64")]
use super::lanes::{Avx2Fma, Avx512};
use super::lanes::{Base, Chosen};
use super::valu::exec_op;
use super::valu_operand::{exec_m, lanes_of, ROWS, SCALAR0, WIDE};
use super::{Ctx, Go, Handler};
use crate::decode::Inst;
use crate::op::VOp;
use crate::pre::Form;
use crate::wave::{Wave, MAX_LANES};

/// The handler of a plain VALU instruction ([`crate::pre::Pre::plain`]) in a program of `lanes`-lane
/// waves, specialised for both (no modifier checks, operands as resolved at decode, the lane count a
/// constant): for the operations listed here, whose arms take the fast paths; `None` for the others.
/// `form` ([`crate::pre::Pre::form`]) selects the all-row or the scalar-source-0 form in the AVX2 and
/// AVX-512 sets (the baseline set has one form).
pub(super) fn plain_handler(op: VOp, k: Chosen, lanes: usize, form: Form) -> Option<Handler> {
    match k {
        Chosen::Base => plain_base(op, lanes),
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx2Fma => plain_avx2(op, lanes, form),
        #[cfg(target_arch = "x86_64")]
        Chosen::Avx512 => plain_avx512(op, lanes, form),
    }
}

/// Whether handler form `M` may run instruction `i` (its lane count aside).
#[inline(always)]
fn form_ok<const M: usize>(i: &Inst) -> bool {
    i.pre.plain && (M & ROWS == 0 || i.pre.form == Form::Rows) && (M & SCALAR0 == 0 || i.pre.form == Form::Scalar0)
}

macro_rules! plain_handlers {
    ($($name:ident),* $(,)?) => {
        /// The operations with plain handlers (for the tests).
        #[cfg(test)]
        pub(super) const PLAIN_OPS: &[VOp] = &[$(VOp::$name),*];

        fn plain_base(op: VOp, lanes: usize) -> Option<Handler> {
            match op {
                $(VOp::$name => {
                    fn h<const M: usize>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                        debug_assert!(w.lanes == lanes_of(M) && i.pre.plain);
                        cx.stats.valu_active_lanes += u64::from(exec_m::<M>(w).count_ones());
                        let r = exec_op::<Base, M>(w, i, VOp::$name);
                        super::done(cx, r)
                    }
                    Some(if lanes == 32 { h::<32> } else { h::<MAX_LANES> })
                })*
                _ => None,
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        fn plain_avx2(op: VOp, lanes: usize, form: Form) -> Option<Handler> {
            match op {
                $(VOp::$name => {
                    /// # Safety
                    /// The host must support AVX2, FMA and POPCNT (only installed for [`Chosen::Avx2Fma`]).
                    #[target_feature(enable = "avx2,fma,popcnt")]
                    unsafe fn h<const M: usize>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                        debug_assert!(w.lanes == lanes_of(M) && form_ok::<M>(i));
                        cx.stats.valu_active_lanes += u64::from(exec_m::<M>(w).count_ones());
                        let r = exec_op::<Avx2Fma, M>(w, i, VOp::$name);
                        super::done(cx, r)
                    }
                    Some(match (lanes == 32, form) {
                        (true, Form::Any) => h::<32>,
                        (true, Form::Rows) => h::<{ 32 | ROWS }>,
                        (true, Form::Scalar0) => h::<{ 32 | SCALAR0 }>,
                        (false, Form::Any) => h::<MAX_LANES>,
                        (false, Form::Rows) => h::<{ MAX_LANES | ROWS }>,
                        (false, Form::Scalar0) => h::<{ MAX_LANES | SCALAR0 }>,
                    })
                })*
                _ => None,
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        fn plain_avx512(op: VOp, lanes: usize, form: Form) -> Option<Handler> {
            match op {
                $(VOp::$name => {
                    /// # Safety
                    /// The host must support AVX-512F, AVX2, FMA and POPCNT (only installed for
                    /// [`Chosen::Avx512`]).
                    #[target_feature(enable = "avx512f,avx2,fma,popcnt")]
                    unsafe fn h<const M: usize>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                        debug_assert!(w.lanes == lanes_of(M) && form_ok::<M>(i));
                        cx.stats.valu_active_lanes += u64::from(exec_m::<M>(w).count_ones());
                        let r = exec_op::<Avx512, M>(w, i, VOp::$name);
                        super::done(cx, r)
                    }
                    Some(match (lanes == 32, form) {
                        (true, Form::Any) => h::<{ 32 | WIDE }>,
                        (true, Form::Rows) => h::<{ 32 | WIDE | ROWS }>,
                        (true, Form::Scalar0) => h::<{ 32 | WIDE | SCALAR0 }>,
                        (false, Form::Any) => h::<{ MAX_LANES | WIDE }>,
                        (false, Form::Rows) => h::<{ MAX_LANES | WIDE | ROWS }>,
                        (false, Form::Scalar0) => h::<{ MAX_LANES | WIDE | SCALAR0 }>,
                    })
                })*
                _ => None,
            }
        }
    };
}

// The operations whose arms go through the fast paths (`u1`..`f3`, `carry`, `cvt_*`, `MovB32`,
// `CndmaskB32`) with the instruction itself: the common 32-bit integer and f32 ops.
plain_handlers! {
    MovB32, CndmaskB32, AddU32, SubU32, SubrevU32, AddI32, SubI32, AddCoU32, SubCoU32, SubrevCoU32, AddcCoU32,
    SubbCoU32, SubbrevCoU32, MulLoU32, MulHiU32, MulHiI32, MulU32U24, MulI32I24, MinU32, MaxU32, MinI32, MaxI32,
    AndB32, OrB32, XorB32, XnorB32, NotB32, LshlrevB32, LshrrevB32, AshrrevI32, Add3U32, LshlAddU32, AddLshlU32,
    LshlOrB32, AndOrB32, Or3B32, Xor3B32, XadU32, BfeU32, BfeI32, BfiB32, MadU32U24, MadI32I24, Min3U32, Max3U32,
    Min3I32, Max3I32, AddF32, SubF32, SubrevF32, MulF32, MinF32, MaxF32, FmaF32, FmacF32, MadF32, MacF32,
    CvtF32I32, CvtF32U32, CvtI32F32, CvtU32F32, AddF64, MulF64, MinF64, MaxF64, FmaF64, FmacF64,
}
