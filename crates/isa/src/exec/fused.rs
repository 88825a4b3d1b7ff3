//! Scalar instruction groups run by one handler (superinstructions): the loop tail compilers emit,
//! `s_add/s_sub` + `s_cmp/s_cmpk` + `s_cbranch_scc0/1`, and the pair `s_cmp/s_cmpk` + `s_cbranch_scc0/1`.
//! The interpreter's plain loop calls such a handler for the group's first instruction when the whole
//! group lies inside one run and fits the wave's time slice; it then counts the group's instructions and
//! follows the branch's links. Each instruction does exactly what its own handler does, in program order
//! (the same `exec_op` arm, the same branch statistics), so the results, the counts and the state a later
//! instruction sees are the same as one by one; only the interpreter's calls and loop steps are saved.

use super::salu::exec_op;
use super::{Ctx, Flow, Go, Handler, Stop};
use crate::decode::Inst;
use crate::op::{BranchCond, CmpTy, Cond, Op, SOp};
use crate::wave::Wave;

/// `Some(true)` for `s_cbranch_scc1`, `Some(false)` for `s_cbranch_scc0`.
fn scc_branch(br: &Inst) -> Option<bool> {
    match br.op {
        Op::Branch(BranchCond::Scc1) => Some(true),
        Op::Branch(BranchCond::Scc0) => Some(false),
        _ => None,
    }
}

/// The group's branch: taken when SCC is `SCC1` (as the branch handler, it moves the count to taken).
#[inline(always)]
fn branch_on<const SCC1: bool>(w: &Wave, cx: &mut Ctx<'_>) -> Go {
    if w.scc == SCC1 {
        cx.stats.branch_taken();
        Go::Taken
    } else {
        Go::Next
    }
}

/// A fused group's first instruction without the copy of its second one ([`Inst::then`]): cannot happen
/// for a group the program built.
#[cold]
#[inline(never)]
fn unlinked(cx: &mut Ctx<'_>) -> Go {
    super::stopped(cx, Stop::Invalid("fused scalar group without its second instruction".into()))
}

/// Applies `$m!` to the scalar compares a group may hold: each of these `exec_op` arms only sets SCC and
/// always goes to the next instruction.
macro_rules! compares {
    ($m:ident ! ( $($pre:tt)* )) => {{
        use CmpTy::{I32, U32};
        use Cond::{Eq, Ge, Gt, Le, Lg, Lt};
        use SOp::{Cmp, Cmpk};
        $m!($($pre)* [
            Cmp(Eq, U32), Cmp(Lg, U32), Cmp(Lt, U32), Cmp(Le, U32), Cmp(Gt, U32), Cmp(Ge, U32),
            Cmp(Eq, I32), Cmp(Lg, I32), Cmp(Lt, I32), Cmp(Le, I32), Cmp(Gt, I32), Cmp(Ge, I32),
            Cmpk(Eq, U32), Cmpk(Lg, U32), Cmpk(Lt, U32), Cmpk(Gt, U32), Cmpk(Lt, I32), Cmpk(Gt, I32)
        ])
    }};
}

/// The handler running the scalar compare `c` and then the relative branch `br` on SCC, or `None` when
/// the two are not such a pair.
pub(crate) fn pair(c: &Inst, br: &Inst) -> Option<Handler> {
    let scc1 = scc_branch(br)?;
    let Op::Salu(op) = c.op else { return None };
    macro_rules! pairs {
        ([$($c:expr),*]) => {{
            $(if op == $c {
                fn h<const S: bool>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                    let r = exec_op(w, i, $c);
                    debug_assert_eq!(r, Ok(Flow::Next));
                    branch_on::<S>(w, cx)
                }
                return Some(if scc1 { h::<true> } else { h::<false> });
            })*
            None
        }};
    }
    compares!(pairs!())
}

/// The handler running the scalar add or subtract `a`, the scalar compare `c` and the relative branch `br`
/// on SCC, or `None` when the three are not such a group. The handler is called with `a` and reads `c`
/// from [`Inst::then`], which the caller sets to a copy of `c`.
pub(crate) fn triple(a: &Inst, c: &Inst, br: &Inst) -> Option<Handler> {
    let scc1 = scc_branch(br)?;
    let (Op::Salu(x), Op::Salu(y)) = (a.op, c.op) else { return None };
    macro_rules! seconds {
        ($a:expr, [$($c:expr),*]) => {
            $(if x == $a && y == $c {
                fn h<const S: bool>(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
                    let Some(c) = i.then.as_deref() else { return unlinked(cx) };
                    let r = exec_op(w, i, $a);
                    debug_assert_eq!(r, Ok(Flow::Next));
                    let r = exec_op(w, c, $c);
                    debug_assert_eq!(r, Ok(Flow::Next));
                    branch_on::<S>(w, cx)
                }
                return Some(if scc1 { h::<true> } else { h::<false> });
            })*
        };
    }
    macro_rules! firsts {
        ($cs:tt) => {{
            use SOp::{AddI32, AddU32, SubI32, SubU32};
            seconds!(AddU32, $cs);
            seconds!(SubU32, $cs);
            seconds!(AddI32, $cs);
            seconds!(SubI32, $cs);
            None
        }};
    }
    compares!(firsts!())
}
