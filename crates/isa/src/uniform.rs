//! Dispatches whose workgroups provably run alike: every workgroup starts from the same state and none
//! can see another's effects, so one workgroup's record stands for all of them ([`alike`]).
//!
//! The interpreter starts every workgroup from the same registers except its workgroup id (the system
//! SGPRs after `USER_SGPR_COUNT`, and ttmp7/ttmp9 on gfx12), the work-item ids of a partial workgroup at
//! the grid's edge, and LDS, which it zeroes per workgroup. So two full workgroups of a kernel that never
//! reads a workgroup-id register, never writes memory another workgroup could read (no store, no atomic,
//! no LDS, GDS or GWS) and reads nothing that depends on the host's clock, execute the same instructions
//! with the same values and the same per-wave cycles: their records differ in the workgroup index alone.
//! The proof is static, over every instruction reachable from the entry by relative branches; anything
//! it cannot follow (indirect jumps, calls, an undecodable word) leaves the dispatch to run in full.

use crate::decode::{decode, Inst};
use crate::memory::Memory;
use crate::op::Op;
use crate::stats::InstClass;
use crate::table::Enc;
use crate::target::Target;

/// Most instructions the proof walks before it gives up (the dispatch then runs every workgroup).
const MAX_WALK: usize = 1 << 16;

/// The first TTMP operand code and the last.
const TTMP: std::ops::RangeInclusive<u16> = 108..=123;

/// What the proof needs of a dispatch: its target, the kernel's entry, the descriptor's
/// COMPUTE_PGM_RSRC2 and the grid and workgroup sizes (`dispatch::workgroups_alike` fills it in).
pub(crate) struct Shape {
    pub(crate) target: &'static Target,
    pub(crate) entry: u64,
    pub(crate) rsrc2: u32,
    pub(crate) grid: [u32; 3],
    pub(crate) workgroup: [u32; 3],
}

/// Whether every workgroup of `d` runs exactly as workgroup 0 does (see the module's comment): all
/// workgroups are full, and the kernel's reachable code reads no workgroup id before it overwrites
/// it and touches no memory a workgroup could change.
pub(crate) fn alike(shape: &Shape, mem: &dyn Memory) -> bool {
    if (0..3).any(|i| shape.workgroup[i] == 0 || !shape.grid[i].is_multiple_of(shape.workgroup[i])) {
        return false;
    }
    let rsrc2 = shape.rsrc2;
    let first = (rsrc2 >> 1) & 0x1f;
    // The system SGPRs (workgroup id x/y/z, workgroup info, private segment wave offset), the TTMPs
    // (gfx12's workgroup ids) and codes 102..105 (flat_scratch and xnack_mask on gfx9, per-wave state;
    // plain SGPRs on later families, treated the same): the registers whose first value may differ
    // between workgroups. A bit of `Live` is set while the register may still hold that value.
    let system = [7, 8, 9, 10, 0].iter().filter(|&&bit| rsrc2 & (1 << bit) != 0).count() as u32;
    let mut start: Live = 0;
    for c in (first..first + system).chain(u32::from(*TTMP.start())..=u32::from(*TTMP.end())).chain(102..=105) {
        start |= 1 << c.min(127);
    }
    // Forward over every reachable instruction: where a first value may still be live when read, the
    // workgroups may differ.
    let mut at: std::collections::HashMap<u64, Live> = std::collections::HashMap::new();
    let mut todo = vec![(shape.entry, start)];
    let mut steps = 0usize;
    while let Some((pc, live)) = todo.pop() {
        let before = at.get(&pc).copied();
        let live = live | before.unwrap_or(0);
        if before == Some(live) {
            continue;
        }
        at.insert(pc, live);
        steps += 1;
        if steps > MAX_WALK {
            return false;
        }
        let Some(inst) = fetch(shape.target, mem, pc) else { return false };
        if !allowed(&inst) || reads_live(&inst, live) {
            return false;
        }
        let live = live & !written(&inst);
        match inst.op {
            Op::Endpgm => {}
            Op::Branch(c) => {
                todo.push(((pc as i64).wrapping_add(4).wrapping_add(4 * i64::from(inst.imm)) as u64, live));
                if c != crate::op::BranchCond::Always {
                    todo.push((pc + u64::from(inst.size), live));
                }
            }
            _ => todo.push((pc + u64::from(inst.size), live)),
        }
    }
    true
}

/// A set of scalar operand codes 0..127.
type Live = u128;

/// The codes `lo..lo + width` (within 0..127).
fn span(lo: u16, width: u16) -> Live {
    (lo..lo.saturating_add(width).min(128)).fold(0, |m, c| m | 1 << c)
}

/// The scalar registers `i` surely overwrites (a first value there is gone): the destination of a SOP1,
/// SOP2 or SOPK instruction that always writes it, and of an SMEM load (one register: a lower bound).
fn written(i: &Inst) -> Live {
    let scalar = matches!(i.enc, Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Smem);
    let conditional = ["s_cmov", "s_cmpk", "s_setreg", "s_addk", "s_mulk"].iter().any(|p| i.name.starts_with(p));
    if scalar && !conditional && i.dst < 128 {
        span(i.dst, 1)
    } else {
        0
    }
}

fn fetch(target: &Target, mem: &dyn Memory, pc: u64) -> Option<Inst> {
    let mut buf = [0u8; 16];
    let mut n = 16;
    while n > 4 && mem.read(pc, &mut buf[..n]).is_err() {
        n -= 4;
    }
    if n == 4 {
        mem.read(pc, &mut buf[..4]).ok()?;
    }
    decode(target, &buf[..n]).ok()
}

/// Instructions whose effect or result can differ between workgroups that start alike, or that the walk
/// cannot follow.
fn allowed(i: &Inst) -> bool {
    if matches!(i.op, Op::Unimplemented | Op::Trap) {
        return false;
    }
    if matches!(i.class, InstClass::VmemStore | InstClass::FlatStore | InstClass::Lds) {
        return false;
    }
    if matches!(i.enc, Enc::Ds | Enc::Scratch | Enc::Mimg | Enc::VopdX | Enc::VopdY) {
        return false;
    }
    let n = i.name;
    let refused = [
        // control flow the walk cannot follow
        "s_setpc",
        "s_swappc",
        "s_call",
        "s_rfe",
        "s_cbranch_g_fork",
        "s_cbranch_join",
        "s_subvector_loop",
        // memory writes and atomics (with return they count as loads)
        "atomic",
        "s_store",
        "s_buffer_store",
        "s_scratch",
        "s_dcache_wb",
        "lds",
        // values from outside the wave's own state
        "s_memtime",
        "s_memrealtime",
        "s_getreg",
        "s_sendmsg",
        "s_sethalt",
        "s_ttrace",
        "gws",
        // register indexing (reads SGPRs or VGPRs the operand codes do not name)
        "movrel",
        "s_set_gpr_idx",
    ];
    if refused.iter().any(|r| n.contains(r)) {
        return false;
    }
    // Jumps other than the relative branches the walk follows.
    !((n.starts_with("s_cbranch") || n.starts_with("s_branch")) && !matches!(i.op, Op::Branch(_)))
}

/// Whether an SGPR source of `i` may read a register of `live`. Widths are upper bounds: a
/// buffer resource or `s_buffer_load`'s base is four registers, an SMEM base or a FLAT `saddr` two, a VOP3
/// third source two (a lane mask, a 64-bit addend), a VOP3P source four, and an operand of an instruction
/// with a 64-bit type in its name two. The SOPK destination of `s_addk`, `s_mulk`, `s_cmpk` and `s_cmovk`
/// is also read.
fn reads_live(i: &Inst, live: Live) -> bool {
    let forbidden = |c: u16, w: u16| span(c, w) & live != 0;
    let sgpr = |c: u16| c < 128;
    let scalar = if i.name.contains("64") || i.name.contains("x2") { 2 } else { 1 };
    let width = |k: usize| match i.enc {
        Enc::Mubuf | Enc::Mtbuf if k == 2 => 4,
        Enc::Smem if k == 0 => {
            if i.name.contains("buffer") {
                4
            } else {
                2
            }
        }
        Enc::Flat | Enc::Global if k == 2 => 2,
        Enc::Vop3p => 4,
        Enc::Vop3 if k == 2 => 2.max(scalar),
        _ => scalar,
    };
    if i.src.iter().enumerate().any(|(k, &c)| sgpr(c) && forbidden(c, width(k))) {
        return true;
    }
    if sgpr(i.soffset) && forbidden(i.soffset, 1) {
        return true;
    }
    let rmw = ["s_addk", "s_mulk", "s_cmpk", "s_cmovk"].iter().any(|p| i.name.starts_with(p));
    rmw && sgpr(i.dst) && forbidden(i.dst, 1)
}
