//! Executing one decoded instruction on a wave: the dispatch on [`Op`], control flow, and what the
//! instruction counts as for the statistics ([`InstClass`](crate::InstClass)).

mod buffer_format;
pub(crate) mod float;
pub(crate) mod fused;
mod gws;
mod image;
mod lanes;
mod mem;
mod mfma;
mod packed;
mod salu;
mod valu;
mod valu_bits;
pub(crate) mod valu_block;
mod valu_f64;
mod valu_forms;
mod valu_jit;
mod valu_kind;
mod valu_lane;
mod valu_operand;
#[cfg(test)]
mod valu_tests;
mod vcmp;
mod x86;

use crate::decode::{DecodeError, Inst};
use crate::memory::{Fault, Memory};
use crate::op::{Access, BranchCond, DsOp, Op, SOp};
use crate::stats::WaveStats;
use crate::wave::Wave;

/// What happens after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Fall through to `pc + size`.
    Next,
    /// Continue at an absolute address.
    Jump(u64),
    /// `s_endpgm`.
    End,
    /// `s_barrier`: wait for the workgroup.
    Barrier,
    /// `ds_gws_barrier`/`ds_gws_sema_p`: wait for other waves of the queue (the instruction is done).
    Gws(crate::gws::Wait),
    /// A handler's relative branch was taken: continue at the target the program linked for it (handlers
    /// only; [`execute`] returns [`Flow::Jump`]).
    Taken,
    /// A handler could not complete; why is in [`Ctx::stop`] (handlers only; [`execute`] returns `Err`).
    Stop,
}

/// What a handler tells the interpreter's loop: one byte, returned in a register (a [`Flow`] is 24 bytes
/// and came back through the stack, which `perf` showed as the loop's hottest load).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Go {
    /// [`Flow::Next`].
    Next,
    /// [`Flow::Taken`].
    Taken,
    /// Any other flow: it is in [`Ctx::flow`] ([`Flow::Stop`] with the reason in [`Ctx::stop`]).
    Other,
}

/// Why a wave could not go on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stop {
    /// The instruction is known but its semantics are not implemented.
    Unimplemented,
    /// An operand combination the interpreter does not support (the message says which).
    Invalid(String),
    /// A memory access outside mapped memory.
    Fault(Fault),
    /// `s_trap`.
    Trap,
    /// The bytes at the PC are not an instruction.
    Decode(DecodeError),
}

/// Everything an instruction may touch besides its wave.
pub(crate) struct Ctx<'a> {
    pub(crate) mem: &'a dyn Memory,
    pub(crate) lds: &'a mut [u8],
    /// Value `s_memtime` returns.
    pub(crate) clock: u64,
    pub(crate) stats: &'a mut WaveStats,
    /// The queue's global wave sync resources.
    pub(crate) gws: &'a crate::gws::Gws,
    /// Why the last handler returned [`Flow::Stop`].
    pub(crate) stop: Option<Stop>,
    /// The flow of the last handler that returned [`Go::Other`].
    pub(crate) flow: Flow,
}

pub use crate::stats::class_of;
pub(crate) use lanes::Chosen;
pub use lanes::LaneKernels;

/// An instruction's execution resolved once per decoded instruction (threaded code: no dispatch on the
/// operation when it runs). `unsafe` because a handler may be compiled for instruction-set extensions: it
/// may only be called on a host that has them, which [`handler`] guarantees for the [`Chosen`] it is
/// given (a `Chosen` is only made after checking the host). The result is a [`Go`] (one byte); a flow other
/// than the next instruction or a taken branch is left in [`Ctx::flow`], an error in [`Ctx::stop`].
pub(crate) type Handler = unsafe fn(&mut Wave, &mut Ctx<'_>, &Inst) -> Go;

/// The handler of `i` for the lane kernels `k` in a program of `lanes`-lane waves, and whether it is the
/// general executor: one per VALU operation (see `valu::handler`; specialised for the lane count when the
/// instruction is plain, see `valu::plain_handler`), [`execute`] for everything else. The general executor may read the
/// wave's PC and [`Ctx::clock`]; the specialised handlers read neither, so the interpreter sets them only
/// for the general one.
pub(crate) fn handler(i: &Inst, k: Chosen, lanes: usize) -> (Handler, bool) {
    match i.op {
        Op::Valu(op) if i.y.is_none() => {
            let plain = if i.pre.plain { valu_forms::plain_handler(op, k, lanes, i.pre.form) } else { None };
            (plain.unwrap_or_else(|| valu::handler(op, k)), false)
        }
        Op::Branch(c) => (branch(c), false),
        // The scalar ALU without the instructions that read the PC.
        Op::Salu(op) if !matches!(op, SOp::GetpcB64 | SOp::SetpcB64 | SOp::SwappcB64 | SOp::CallB64) => {
            (salu::handler(op).unwrap_or(salu_handler), false)
        }
        Op::Vcmp { cond, ty, x, class } => (vcmp::handler(i, cond, ty, x, class).unwrap_or(vcmp_handler), false),
        // No-ops (`s_waitcnt`, `s_nop`, `s_sendmsg`) and memory instructions: neither reads the PC or the
        // clock (`s_memtime`/`s_memrealtime` read the clock and stay general).
        Op::Nop | Op::Sendmsg => (nop_handler, false),
        Op::Barrier => (barrier_handler, false),
        Op::Smem(op) if !matches!(op, crate::op::SmemOp::Time) => (smem_handler, false),
        Op::Ds(op) if !matches!(op, DsOp::Gws(_)) => (ds_handler, false),
        Op::Vmem(_, Access::Format { .. }) if i.flags & crate::decode::flags::LDS == 0 => (general, true),
        Op::Vmem(..) => (vmem_handler, false),
        _ => (general, true),
    }
}

/// The handler of a relative branch on condition `c`: returns [`Flow::Taken`] (the program links the
/// target) instead of computing the target from the PC.
fn branch(c: BranchCond) -> Handler {
    fn h<const C: u8>(w: &mut Wave, cx: &mut Ctx<'_>, _: &Inst) -> Go {
        let taken = match C {
            0 => true,
            1 => !w.scc,
            2 => w.scc,
            3 => w.vcc() == 0,
            4 => w.vcc() != 0,
            5 => w.exec() == 0,
            _ => w.exec() != 0,
        };
        if taken {
            cx.stats.branch_taken();
            Go::Taken
        } else {
            Go::Next
        }
    }
    match c {
        BranchCond::Always => h::<0>,
        BranchCond::Scc0 => h::<1>,
        BranchCond::Scc1 => h::<2>,
        BranchCond::Vccz => h::<3>,
        BranchCond::Vccnz => h::<4>,
        BranchCond::Execz => h::<5>,
        BranchCond::Execnz => h::<6>,
    }
}

/// A scalar ALU instruction (not one reading the PC) as a handler.
fn salu_handler(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let Op::Salu(op) = i.op else { return stopped(cx, Stop::Unimplemented) };
    let r = salu::exec(w, i, op);
    done(cx, r)
}

/// A vector compare as a handler.
fn vcmp_handler(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let Op::Vcmp { cond, ty, x, class } = i.op else { return stopped(cx, Stop::Unimplemented) };
    cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
    let r = vcmp::exec(w, i, cond, ty, x, class);
    done(cx, r)
}

/// A no-op as a handler.
fn nop_handler(_: &mut Wave, _: &mut Ctx<'_>, _: &Inst) -> Go {
    Go::Next
}

/// `s_barrier` as a handler (ends the wave's time slice; the interpreter's loop sets the PC after it).
fn barrier_handler(_: &mut Wave, cx: &mut Ctx<'_>, _: &Inst) -> Go {
    cx.flow = Flow::Barrier;
    Go::Other
}

/// A scalar memory instruction (not `s_memtime`) as a handler.
fn smem_handler(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let Op::Smem(op) = i.op else { return stopped(cx, Stop::Unimplemented) };
    let r = mem::smem(w, cx, i, op);
    done(cx, r)
}

/// An LDS instruction (not GWS) as a handler.
fn ds_handler(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let Op::Ds(op) = i.op else { return stopped(cx, Stop::Unimplemented) };
    let r = mem::ds(w, cx, i, op);
    done(cx, r)
}

/// A vector memory instruction (not a buffer format access) as a handler.
fn vmem_handler(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let Op::Vmem(seg, a) = i.op else { return stopped(cx, Stop::Unimplemented) };
    let r = mem::vmem(w, cx, i, seg, a);
    done(cx, r)
}

/// Turns an executor's result into a handler's: an error goes to [`Ctx::stop`].
#[inline(always)]
pub(crate) fn done(cx: &mut Ctx<'_>, r: Result<Flow, Stop>) -> Go {
    match r {
        Ok(Flow::Next) => Go::Next,
        Ok(Flow::Taken) => Go::Taken,
        Ok(f) => {
            cx.flow = f;
            Go::Other
        }
        Err(s) => stopped(cx, s),
    }
}

#[cold]
#[inline(never)]
fn stopped(cx: &mut Ctx<'_>, s: Stop) -> Go {
    cx.stop = Some(s);
    cx.flow = Flow::Stop;
    Go::Other
}

/// [`execute`] as a handler.
fn general(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Go {
    let r = execute(w, cx, i);
    done(cx, r)
}

/// Executes `i` on `w`.
pub(crate) fn execute(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst) -> Result<Flow, Stop> {
    let flow = match i.op {
        Op::Nop | Op::Sendmsg => Flow::Next,
        Op::Endpgm => Flow::End,
        Op::Barrier => Flow::Barrier,
        Op::Trap => return Err(Stop::Trap),
        Op::Branch(c) => {
            let taken = match c {
                BranchCond::Always => true,
                BranchCond::Scc0 => !w.scc,
                BranchCond::Scc1 => w.scc,
                BranchCond::Vccz => w.vcc() == 0,
                BranchCond::Vccnz => w.vcc() != 0,
                BranchCond::Execz => w.exec() == 0,
                BranchCond::Execnz => w.exec() != 0,
            };
            if taken {
                cx.stats.branch_taken();
                let target = (w.pc as i64).wrapping_add(4).wrapping_add(4 * i64::from(i.imm)) as u64;
                Flow::Jump(target)
            } else {
                Flow::Next
            }
        }
        Op::Salu(op) => salu::exec(w, i, op)?,
        Op::Smem(op) => mem::smem(w, cx, i, op)?,
        Op::Valu(op) => {
            cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
            match &i.y {
                None => valu::exec(w, i, op)?,
                Some(y) => {
                    let Op::Valu(yop) = y.op else { return Err(Stop::Unimplemented) };
                    // VOPD: both halves read their operands before either writes (the destinations differ
                    // in their lowest bit, so they never collide). When Y reads X's destination it gets
                    // the value from before the instruction: X's result is set aside while Y runs.
                    if y.src.contains(&i.dst) {
                        let row = usize::from(i.dst - crate::decode::VGPR0);
                        let old = w.vrow(row);
                        let f = valu::exec(w, i, op)?;
                        let new = w.vrow(row);
                        w.set_vrow(row, &old);
                        valu::exec(w, y, yop)?;
                        w.set_vrow(row, &new);
                        f
                    } else {
                        let f = valu::exec(w, i, op)?;
                        valu::exec(w, y, yop)?;
                        f
                    }
                }
            }
        }
        Op::Vcmp { cond, ty, x, class } => {
            cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
            vcmp::exec(w, i, cond, ty, x, class)?
        }
        Op::Mfma(m) => {
            cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
            let f = mfma::exec(w, i, m)?;
            cx.stats.matrix.record(m);
            f
        }
        Op::MfmaLdScale => {
            cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
            mfma::ld_scale(w, i)?
        }
        Op::Wmma(x) => {
            cx.stats.valu_active_lanes += u64::from(w.exec().count_ones());
            mfma::wmma(w, i, x)?
        }
        Op::Ds(DsOp::Gws(op)) => gws::exec(w, cx, i, op)?,
        Op::Ds(op) => mem::ds(w, cx, i, op)?,
        Op::Vmem(_, Access::Format { store, comps, d16, hi }) if i.flags & crate::decode::flags::LDS == 0 => {
            buffer_format::exec(w, cx, i, store, comps, d16, hi)?
        }
        Op::Vmem(seg, a) => mem::vmem(w, cx, i, seg, a)?,
        Op::Image(op) => image::exec(w, cx, i, op)?,
        Op::Unimplemented => return Err(Stop::Unimplemented),
    };
    Ok(flow)
}
