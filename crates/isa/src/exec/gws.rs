//! The `ds_gws_*` instructions ([`crate::Gws`] has the resources and their rules): which resource
//! (`M0[21:16] + offset0`, modulo 64, as LLVM's AMDGPU backend sets them up) and which value (the VGPR in the
//! ADDR field, as LLVM encodes it, of the first active lane). With no active lane the instruction does nothing.

use super::{Ctx, Flow, Stop};
use crate::decode::{Inst, AGPR0, VGPR0};
use crate::gws::GWS_RESOURCES;
use crate::op::GwsOp;
use crate::wave::Wave;

pub(super) fn exec(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, op: GwsOp) -> Result<Flow, Stop> {
    let exec = w.exec();
    if exec == 0 {
        return Ok(Flow::Next);
    }
    let lane = exec.trailing_zeros() as usize;
    let value = match op {
        GwsOp::Init | GwsOp::Barrier | GwsOp::SemaBr => match i.src[0] {
            r @ VGPR0..AGPR0 => w.vr(usize::from(r - VGPR0), lane),
            _ => return Err(Stop::Invalid("GWS data in an AGPR".into())),
        },
        _ => 0,
    };
    let rid = (((w.m0() >> 16) & 0x3f) as usize + (i.imm as usize & 0xff)) % GWS_RESOURCES;
    Ok(match cx.gws.op(op, rid as u8, value) {
        None => Flow::Next,
        Some(wait) => Flow::Gws(wait),
    })
}
