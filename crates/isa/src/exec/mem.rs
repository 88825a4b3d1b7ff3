//! Memory instructions: scalar loads (SMEM), vector loads/stores/atomics (FLAT, GLOBAL, SCRATCH, MUBUF)
//! and LDS (DS), with the address computations of AMD's ISA guides. Every access completes at once (the
//! functional model needs no `s_waitcnt`); global memory goes through [`crate::Memory`], LDS and private
//! memory are the interpreter's own.

use super::{Ctx, Flow, Stop};
use crate::decode::{flags, Inst, NULL, VGPR0};
use crate::memory::{Fault, APERTURE_SIZE, PRIVATE_APERTURE, PRIVATE_BUFFER_BASE, SHARED_APERTURE};
use crate::op::{Access, AtomicOp, DsOp, Ext, Seg, SmemOp};
use crate::target::Family;
use crate::wave::{Ty, Wave, MAX_LANES};

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    Global(u64),
    Lds(u64),
    Private(u64),
    /// Out of a buffer's range: loads read 0, stores are dropped.
    Nowhere,
}

fn rmw(op: AtomicOp, bytes: u8, old: u64, src: u64, cmp: u64) -> u64 {
    let w64 = bytes == 8;
    let (o, s) = if w64 { (old, src) } else { (old & 0xffff_ffff, src & 0xffff_ffff) };
    let sgn = |v: u64| if w64 { v as i64 } else { i64::from(v as u32 as i32) };
    let fl = |v: u64| if w64 { f64::from_bits(v) } else { f64::from(f32::from_bits(v as u32)) };
    let unfl = |v: f64| if w64 { v.to_bits() } else { u64::from((v as f32).to_bits()) };
    match op {
        AtomicOp::Swap => s,
        AtomicOp::CmpSwap | AtomicOp::CmpStore => {
            if o == cmp {
                s
            } else {
                o
            }
        }
        AtomicOp::Add => o.wrapping_add(s),
        AtomicOp::Sub => o.wrapping_sub(s),
        AtomicOp::Rsub => s.wrapping_sub(o),
        AtomicOp::Csub => o.saturating_sub(s),
        AtomicOp::MinI => {
            if sgn(o) < sgn(s) {
                o
            } else {
                s
            }
        }
        AtomicOp::MaxI => {
            if sgn(o) > sgn(s) {
                o
            } else {
                s
            }
        }
        AtomicOp::MinU => o.min(s),
        AtomicOp::MaxU => o.max(s),
        AtomicOp::And => o & s,
        AtomicOp::Or => o | s,
        AtomicOp::Xor => o ^ s,
        AtomicOp::Inc => {
            if o >= s {
                0
            } else {
                o + 1
            }
        }
        AtomicOp::Dec => {
            if o == 0 || o > s {
                s
            } else {
                o - 1
            }
        }
        AtomicOp::AddF => unfl(fl(o) + fl(s)),
        AtomicOp::MinF => unfl(fl(o).min(fl(s))),
        AtomicOp::MaxF => unfl(fl(o).max(fl(s))),
        AtomicOp::PkAddF16 => {
            use super::float::{f16_to_f32, f32_to_f16};
            let lo = f32_to_f16(f16_to_f32(o as u16) + f16_to_f32(s as u16));
            let hi = f32_to_f16(f16_to_f32((o >> 16) as u16) + f16_to_f32((s >> 16) as u16));
            u64::from(lo) | (u64::from(hi) << 16)
        }
    }
    .wrapping_add(0)
        & if w64 { u64::MAX } else { 0xffff_ffff }
}

/// Scalar memory.
pub(super) fn smem(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, op: SmemOp) -> Result<Flow, Stop> {
    let base = w.s64(i.src[0], 0, Ty::U);
    let soff = if i.soffset == NULL { 0 } else { u64::from(w.s32(i.soffset, 0, Ty::U)) };
    let off = (i.imm as i64 as u64).wrapping_add(soff);
    match op {
        SmemOp::Nop => {}
        SmemOp::Time => {
            let t = cx.clock;
            w.set_s64(i.dst, t);
        }
        SmemOp::Load(n) | SmemOp::BufferLoad(n) => {
            let n = n as usize;
            let (addr, limit) = if let SmemOp::BufferLoad(_) = op {
                let r = [w.sgpr(i.src[0]), w.sgpr(i.src[0] + 1), w.sgpr(i.src[0] + 2), w.sgpr(i.src[0] + 3)];
                let b = u64::from(r[0]) | (u64::from(r[1] & 0xffff) << 32);
                (b.wrapping_add(off & !3), Some((off & !3, u64::from(r[2]))))
            } else {
                (base.wrapping_add(off) & !3, None)
            };
            let mut buf = [0u8; 64];
            let bytes = &mut buf[..4 * n];
            match limit {
                Some((o, records)) if o + 4 * n as u64 > records => {
                    // Partly out of range: dwords inside read memory, the rest 0.
                    for k in 0..n {
                        if o + 4 * k as u64 + 4 <= records {
                            cx.mem.read(addr + 4 * k as u64, &mut bytes[4 * k..4 * k + 4]).map_err(Stop::Fault)?;
                        }
                    }
                }
                _ => cx.mem.read(addr, bytes).map_err(Stop::Fault)?,
            }
            for k in 0..n {
                let v = u32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().expect("4 bytes"));
                w.set_s(i.dst + k as u16, v);
            }
            cx.stats.bytes.scalar_read += 4 * n as u64;
        }
        SmemOp::LoadSub { bytes, signed, buffer } => {
            let n = u64::from(bytes);
            // The address is aligned down to the data size; a buffer load past num_records reads 0.
            let (addr, inside) = if buffer {
                let r = [w.sgpr(i.src[0]), w.sgpr(i.src[0] + 1), w.sgpr(i.src[0] + 2)];
                let b = u64::from(r[0]) | (u64::from(r[1] & 0xffff) << 32);
                let o = off & !(n - 1);
                (b.wrapping_add(o), o + n <= u64::from(r[2]))
            } else {
                (base.wrapping_add(off) & !(n - 1), true)
            };
            let mut buf = [0u8; 2];
            if inside {
                cx.mem.read(addr, &mut buf[..bytes as usize]).map_err(Stop::Fault)?;
            }
            let v = match (bytes, signed) {
                (1, false) => u32::from(buf[0]),
                (1, true) => buf[0] as i8 as i32 as u32,
                (_, false) => u32::from(u16::from_le_bytes(buf)),
                (_, true) => i16::from_le_bytes(buf) as i32 as u32,
            };
            w.set_s(i.dst, v);
            cx.stats.bytes.scalar_read += n;
        }
        SmemOp::Store(n) | SmemOp::BufferStore(n) => {
            let addr = if let SmemOp::BufferStore(_) = op {
                let r0 = w.sgpr(i.src[0]);
                let r1 = w.sgpr(i.src[0] + 1);
                (u64::from(r0) | (u64::from(r1 & 0xffff) << 32)).wrapping_add(off & !3)
            } else {
                base.wrapping_add(off) & !3
            };
            let mut buf = Vec::with_capacity(4 * n as usize);
            for k in 0..n as u16 {
                buf.extend_from_slice(&w.sgpr(i.dst + k).to_le_bytes());
            }
            cx.mem.write(addr, &buf).map_err(Stop::Fault)?;
        }
    }
    Ok(Flow::Next)
}

/// 32-bit VGPR `code` of lane `l`.
#[inline]
fn v(w: &Wave, code: u16, l: usize) -> u32 {
    w.vr((code - VGPR0) as usize, l)
}

#[inline]
fn v64(w: &Wave, code: u16, l: usize) -> u64 {
    u64::from(v(w, code, l)) | (u64::from(v(w, code + 1, l)) << 32)
}

/// Per-lane places of a FLAT/GLOBAL/SCRATCH/MUBUF access.
pub(super) fn places(w: &Wave, i: &Inst, seg: Seg, bytes: u64, out: &mut [Place; MAX_LANES]) {
    let exec = w.exec();
    let off = i.imm as i64 as u64;
    match seg {
        Seg::Global => {
            let sbase = if i.src[2] == NULL { None } else { Some(w.s64(i.src[2], 0, Ty::U)) };
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let a = match sbase {
                        Some(b) => b.wrapping_add(u64::from(v(w, i.src[0], l))),
                        None => v64(w, i.src[0], l),
                    };
                    out[l] = Place::Global(a.wrapping_add(off));
                }
            }
        }
        Seg::Flat => {
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let a = v64(w, i.src[0], l).wrapping_add(off);
                    out[l] = if Wave::in_shared(a) {
                        Place::Lds(a - SHARED_APERTURE)
                    } else if Wave::in_private(a) {
                        Place::Private(a - PRIVATE_APERTURE)
                    } else {
                        Place::Global(a)
                    };
                }
            }
        }
        Seg::Scratch => {
            let s = if i.src[2] == NULL { 0 } else { u64::from(w.s32(i.src[2], 0, Ty::U)) };
            let use_v = i.flags & flags::SVE != 0;
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let vo = if use_v { u64::from(v(w, i.src[0], l)) } else { 0 };
                    out[l] = Place::Private((s.wrapping_add(vo).wrapping_add(off)) & 0xffff_ffff);
                }
            }
        }
        Seg::Buffer => {
            let r = [w.sgpr(i.src[2]), w.sgpr(i.src[2] + 1), w.sgpr(i.src[2] + 2), w.sgpr(i.src[2] + 3)];
            let base = u64::from(r[0]) | (u64::from(r[1] & 0xffff) << 32);
            let stride = u64::from((r[1] >> 16) & 0x3fff);
            let records = u64::from(r[2]);
            let soff = u64::from(w.s32(i.soffset, 0, Ty::U));
            let private = (PRIVATE_BUFFER_BASE..PRIVATE_BUFFER_BASE + APERTURE_SIZE).contains(&base);
            // The private segment buffer V# is swizzled (ROCr: 4-byte elements, index stride = the wave's
            // lanes, ADD_TID): the offset from VADDR and the instruction is per lane, but the base and
            // SOFFSET address the wave's scratch unswizzled (LLVM's stack and frame pointers in SOFFSET are
            // wave-scaled: per-lane bytes times the wave's lanes). One wave-level step of `4 * lanes` bytes
            // is 4 bytes of each lane; an offset that is not a whole number of steps would move data across
            // lanes, which this per-lane model cannot hold, so it becomes an offset past every segment.
            let wave_part = if private {
                let w_off = (base - PRIVATE_BUFFER_BASE).wrapping_add(soff) & 0xffff_ffff;
                let step = 4 * w.lanes as u64;
                if w_off % step == 0 {
                    w_off / w.lanes as u64
                } else {
                    u64::MAX >> 1
                }
            } else {
                0
            };
            let (idxen, offen) = (i.flags & flags::IDXEN != 0, i.flags & flags::OFFEN != 0);
            for l in 0..w.lanes {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let index = if idxen { u64::from(v(w, i.src[0], l)) } else { 0 };
                let voff = if offen { u64::from(v(w, i.src[0] + u16::from(idxen), l)) } else { 0 };
                let o = voff.wrapping_add(off).wrapping_add(soff) & 0xffff_ffff;
                out[l] = if private {
                    // The private segment buffer: a per-lane view of the wave's scratch.
                    Place::Private(wave_part.saturating_add(voff.wrapping_add(off) & 0xffff_ffff))
                } else if stride == 0 {
                    if o + bytes > records {
                        Place::Nowhere
                    } else {
                        Place::Global(base.wrapping_add(o))
                    }
                } else if index >= records {
                    Place::Nowhere
                } else {
                    Place::Global(base.wrapping_add(index * stride).wrapping_add(o))
                };
            }
        }
    }
}

pub(super) fn read_place(w: &mut Wave, cx: &mut Ctx<'_>, p: Place, lane: usize, out: &mut [u8]) -> Result<(), Stop> {
    match p {
        Place::Global(a) => {
            cx.mem.read(a, out).map_err(Stop::Fault)?;
            cx.stats.bytes.global_read += out.len() as u64;
        }
        Place::Lds(a) => {
            lds_read(cx.lds, a, out);
            cx.stats.bytes.lds_read += out.len() as u64;
        }
        Place::Private(a) => {
            let r = w
                .private_range(a, lane, out.len())
                .ok_or_else(|| Stop::Invalid(format!("scratch access at offset {a:#x} beyond the private segment")))?;
            out.copy_from_slice(&w.private[r..r + out.len()]);
            cx.stats.bytes.scratch_read += out.len() as u64;
        }
        Place::Nowhere => out.fill(0),
    }
    Ok(())
}

pub(super) fn write_place(w: &mut Wave, cx: &mut Ctx<'_>, p: Place, lane: usize, data: &[u8]) -> Result<(), Stop> {
    match p {
        Place::Global(a) => {
            cx.mem.write(a, data).map_err(Stop::Fault)?;
            cx.stats.bytes.global_write += data.len() as u64;
        }
        Place::Lds(a) => {
            lds_write(cx.lds, a, data);
            cx.stats.bytes.lds_write += data.len() as u64;
        }
        Place::Private(a) => {
            let r = w
                .private_range(a, lane, data.len())
                .ok_or_else(|| Stop::Invalid(format!("scratch access at offset {a:#x} beyond the private segment")))?;
            w.private[r..r + data.len()].copy_from_slice(data);
            cx.stats.bytes.scratch_write += data.len() as u64;
        }
        Place::Nowhere => {}
    }
    Ok(())
}

/// LDS reads outside the allocation return 0 (the hardware's bounds check).
fn lds_read(lds: &[u8], a: u64, out: &mut [u8]) {
    let a = a as usize;
    if a.checked_add(out.len()).is_some_and(|e| e <= lds.len()) {
        out.copy_from_slice(&lds[a..a + out.len()]);
    } else {
        out.fill(0);
    }
}

/// One LDS dword (0 outside the allocation): the common case without a variable-length copy per lane.
#[inline]
fn lds_read32(lds: &[u8], a: u64) -> u32 {
    let a = a as usize;
    match lds.get(a..a.wrapping_add(4)) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// One LDS dword store (dropped outside the allocation).
#[inline]
fn lds_write32(lds: &mut [u8], a: u64, v: u32) {
    let a = a as usize;
    if let Some(b) = lds.get_mut(a..a.wrapping_add(4)) {
        b.copy_from_slice(&v.to_le_bytes());
    }
}

/// LDS writes outside the allocation are dropped.
fn lds_write(lds: &mut [u8], a: u64, data: &[u8]) {
    let a = a as usize;
    if a.checked_add(data.len()).is_some_and(|e| e <= lds.len()) {
        lds[a..a + data.len()].copy_from_slice(data);
    }
}

/// Places loaded bytes into the destination VGPRs of lane `l`.
fn put_loaded(w: &mut Wave, dst: u16, l: usize, bytes: u8, ext: Ext, data: &[u8]) {
    let row = (dst - VGPR0) as usize;
    let word = |k: usize| u32::from_le_bytes(data[4 * k..4 * k + 4].try_into().expect("4 bytes"));
    let small = |sign: bool| -> u32 {
        match (bytes, sign) {
            (1, false) => u32::from(data[0]),
            (1, true) => data[0] as i8 as i32 as u32,
            (2, false) => u32::from(u16::from_le_bytes([data[0], data[1]])),
            _ => i16::from_le_bytes([data[0], data[1]]) as i32 as u32,
        }
    };
    // The gfx9 targets simulated (gfx908, gfx90a, gfx94x, gfx950) run with SRAM ECC on (their agents
    // report `sramecc+`), and then a D16 load does not preserve the other half of its VGPR (LLVM's
    // `d16PreservesUnusedBits` is false with SRAMECC): it is zeroed. Tensile's gfx908 bf16 kernels
    // rely on that (`ds_read_u16_d16_hi v27` then `v_or_b32 v0, v0, v27`, with v27 holding an index).
    let keep = if w.family == crate::target::Family::Gfx9 { 0 } else { u32::MAX };
    match ext {
        Ext::D16Lo(sign) => {
            let old = w.vr(row, l) & keep;
            w.set_vr(row, l, (old & 0xffff_0000) | (small(sign) & 0xffff));
        }
        Ext::D16Hi(sign) => {
            let old = w.vr(row, l) & keep;
            w.set_vr(row, l, (old & 0xffff) | (small(sign) << 16));
        }
        _ if bytes < 4 => w.set_vr(row, l, small(ext == Ext::Sign)),
        _ => {
            for k in 0..bytes as usize / 4 {
                w.set_vr(row + k, l, word(k));
            }
        }
    }
}

/// Gathers the store data of lane `l`.
fn store_data(w: &Wave, data: u16, l: usize, bytes: u8, hi: bool, out: &mut [u8; 16]) {
    let row = (data - VGPR0) as usize;
    if bytes < 4 {
        let x = w.vr(row, l);
        let x = if hi { x >> 16 } else { x };
        out[..4].copy_from_slice(&x.to_le_bytes());
    } else {
        for k in 0..bytes as usize / 4 {
            out[4 * k..4 * k + 4].copy_from_slice(&w.vr(row + k, l).to_le_bytes());
        }
    }
}

/// Vector memory (FLAT, GLOBAL, SCRATCH, MUBUF).
pub(super) fn vmem(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, seg: Seg, a: Access) -> Result<Flow, Stop> {
    if i.flags & flags::LDS != 0 {
        return Err(Stop::Unimplemented);
    }
    let bytes = match a {
        Access::Load { bytes, .. } | Access::Store { bytes, .. } | Access::Atomic { bytes, .. } => bytes,
        // Executed by `buffer_format` (the interpreter's dispatch sends it there); with LDS: not implemented.
        Access::Format { .. } => return Err(Stop::Unimplemented),
    };
    let exec = w.exec();
    if let Some(r) = runs(w, i, seg, exec, u64::from(bytes)) {
        if let Access::Load { bytes, ext: Ext::Zero } | Access::Load { bytes, ext: Ext::Sign } = a {
            if bytes >= 4 && load_runs(w, cx, i, &r, bytes).is_ok() {
                return Ok(Flow::Next);
            }
        }
        if let Access::Store { bytes, hi: false } = a {
            if bytes >= 4 && store_runs(w, cx, i, &r, bytes).is_ok() {
                return Ok(Flow::Next);
            }
        }
    }
    let mut pl = [Place::Nowhere; MAX_LANES];
    places(w, i, seg, u64::from(bytes), &mut pl);
    let mut buf = [0u8; 16];
    match a {
        Access::Load { bytes, ext } => {
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    read_place(w, cx, pl[l], l, &mut buf[..bytes as usize])?;
                    put_loaded(w, i.dst, l, bytes, ext, &buf);
                }
            }
        }
        Access::Store { bytes, hi } => {
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    store_data(w, i.src[1], l, bytes, hi, &mut buf);
                    write_place(w, cx, pl[l], l, &buf[..bytes as usize])?;
                }
            }
        }
        Access::Atomic { op, bytes, .. } => {
            let rtn = i.flags & flags::GLC != 0;
            for l in 0..w.lanes {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let n = u16::from(bytes / 4);
                let src = if bytes == 8 { v64(w, i.src[1], l) } else { u64::from(v(w, i.src[1], l)) };
                let cmp = match (op, bytes) {
                    (AtomicOp::CmpSwap, 8) => v64(w, i.src[1] + n, l),
                    (AtomicOp::CmpSwap, _) => u64::from(v(w, i.src[1] + n, l)),
                    _ => 0,
                };
                let old = match pl[l] {
                    Place::Global(addr) => {
                        cx.stats.bytes.global_read += u64::from(bytes);
                        cx.stats.bytes.global_write += u64::from(bytes);
                        cx.mem.atomic(addr, bytes, &mut |old| rmw(op, bytes, old, src, cmp)).map_err(Stop::Fault)?
                    }
                    Place::Lds(addr) => lds_atomic(cx.lds, addr, op, bytes, src, cmp),
                    Place::Private(addr) => {
                        let r = w
                            .private_range(addr, l, bytes as usize)
                            .ok_or_else(|| Stop::Invalid("scratch atomic beyond the private segment".into()))?;
                        let mut b = [0u8; 8];
                        b[..bytes as usize].copy_from_slice(&w.private[r..r + bytes as usize]);
                        let old = u64::from_le_bytes(b);
                        let new = rmw(op, bytes, old, src, cmp).to_le_bytes();
                        w.private[r..r + bytes as usize].copy_from_slice(&new[..bytes as usize]);
                        old
                    }
                    Place::Nowhere => 0,
                };
                if rtn {
                    let row = (i.dst - VGPR0) as usize;
                    w.set_vr(row, l, old as u32);
                    if bytes == 8 {
                        w.set_vr(row + 1, l, (old >> 32) as u32);
                    }
                }
            }
        }
        // Returned above: `buffer_format` executes it.
        Access::Format { .. } => {}
    }
    Ok(Flow::Next)
}

/// At most this many runs of consecutive addresses make a wave's access one block read or written per
/// run (a 32 x 32 tile walked by wave64 is two runs of 32 lanes).
const MAX_RUNS: usize = 8;

/// A wave's global access as runs of lanes with consecutive addresses: run `k` starts at lane
/// `first[k]` (`first[count]` = lanes) and address `base[k]`.
struct Runs {
    count: usize,
    base: [u64; MAX_RUNS],
    first: [usize; MAX_RUNS + 1],
}

/// When every lane of the wave is active and the lanes' global addresses form at most [`MAX_RUNS`] runs in
/// which lane `l + 1` accesses the `bytes` after lane `l` (the coalesced cases), those runs.
#[inline]
fn runs(w: &Wave, i: &Inst, seg: Seg, exec: u64, bytes: u64) -> Option<Runs> {
    if exec != w.full() || !matches!(seg, Seg::Global | Seg::Flat) {
        return None;
    }
    let off = i.imm as i64 as u64;
    let row = (i.src[0] - VGPR0) as usize * MAX_LANES;
    let lanes = w.lanes;
    let lo: &[u32; MAX_LANES] = w.v[row..row + MAX_LANES].try_into().expect("a row");
    // Where a run breaks: lane l does not follow lane l - 1, worked out on the 32-bit halves (one pass, no
    // branches, four or eight lanes per vector instruction on the baseline; 64-bit compares are emulated
    // there). The low halves must step by `bytes` without wrapping; with a 64-bit VGPR address the high
    // halves must also be equal (a step across a 4 GiB line is taken as a break: more runs, same data).
    let step = bytes as u32;
    let mut breaks = 0u64;
    let sbase = (seg == Seg::Global && i.src[2] != NULL).then(|| w.s64(i.src[2], 0, Ty::U).wrapping_add(off));
    let hi: &[u32; MAX_LANES] =
        if sbase.is_some() { lo } else { w.v[row + MAX_LANES..row + 2 * MAX_LANES].try_into().expect("a row") };
    for l in 1..lanes {
        let follows = lo[l] == lo[l - 1].wrapping_add(step) && lo[l] > lo[l - 1];
        let same_hi = sbase.is_some() || hi[l] == hi[l - 1];
        breaks |= u64::from(!(follows && same_hi)) << l;
    }
    if breaks.count_ones() as usize >= MAX_RUNS {
        return None;
    }
    let addr = |l: usize| match sbase {
        Some(b) => b.wrapping_add(u64::from(lo[l])),
        None => (u64::from(lo[l]) | (u64::from(hi[l]) << 32)).wrapping_add(off),
    };
    let mut r = Runs { count: 0, base: [0; MAX_RUNS], first: [0; MAX_RUNS + 1] };
    let mut starts = breaks | 1;
    while starts != 0 {
        let l = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        r.base[r.count] = addr(l);
        r.first[r.count] = l;
        r.count += 1;
    }
    r.first[r.count] = lanes;
    for k in 0..r.count {
        let (base, lanes) = (r.base[k], (r.first[k + 1] - r.first[k]) as u64);
        let end = base.wrapping_add(lanes * bytes - 1);
        if Wave::in_shared(base) || Wave::in_private(base) || Wave::in_shared(end) || Wave::in_private(end) {
            return None;
        }
    }
    Some(r)
}

/// A dword-sized load in runs: one memory read per run, then the dwords distributed to the lanes' VGPRs.
/// A fault leaves the registers as they were (the caller then goes lane by lane to report the lane's).
fn load_runs(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, r: &Runs, bytes: u8) -> Result<(), Fault> {
    let n = w.lanes * bytes as usize;
    let row = (i.dst - VGPR0) as usize;
    let dw = bytes as usize / 4;
    let read = |cx: &mut Ctx<'_>, buf: &mut [u8]| -> Result<(), Fault> {
        for k in 0..r.count {
            let (a, b) = (r.first[k] * bytes as usize, r.first[k + 1] * bytes as usize);
            cx.mem.read(r.base[k], &mut buf[a..b])?;
        }
        Ok(())
    };
    if dw == 1 {
        // The common dword case with a quarter of the buffer (zeroing 1 KiB per load showed in profiles).
        let mut buf = [0u8; MAX_LANES * 4];
        read(cx, &mut buf[..n])?;
        cx.stats.bytes.global_read += n as u64;
        let r = &mut w.v[row * MAX_LANES..(row + 1) * MAX_LANES];
        for (x, c) in r.iter_mut().zip(buf[..n].chunks_exact(4)) {
            *x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        return Ok(());
    }
    if dw == 2 {
        // 64-bit loads (doubles, pointers): half the buffer of the general case, split into the two rows.
        let mut buf = [0u8; MAX_LANES * 8];
        read(cx, &mut buf[..n])?;
        cx.stats.bytes.global_read += n as u64;
        let rows = &mut w.v[row * MAX_LANES..(row + 2) * MAX_LANES];
        let (lo, hi) = rows.split_at_mut(MAX_LANES);
        for ((x, y), c) in lo.iter_mut().zip(hi.iter_mut()).zip(buf[..n].chunks_exact(8)) {
            let q = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            (*x, *y) = (q as u32, (q >> 32) as u32);
        }
        return Ok(());
    }
    let mut buf = [0u8; MAX_LANES * 16];
    read(cx, &mut buf[..n])?;
    cx.stats.bytes.global_read += n as u64;
    for k in 0..dw {
        let r = &mut w.v[(row + k) * MAX_LANES..(row + k + 1) * MAX_LANES];
        for (l, x) in r.iter_mut().enumerate().take(w.lanes) {
            let o = (l * dw + k) * 4;
            *x = u32::from_le_bytes([buf[o], buf[o + 1], buf[o + 2], buf[o + 3]]);
        }
    }
    Ok(())
}

/// A dword-sized store in runs: the lanes' data gathered, then one memory write per run. On a fault the
/// caller stores lane by lane (rewriting the same data) to report the lane's.
fn store_runs(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, r: &Runs, bytes: u8) -> Result<(), Fault> {
    let n = w.lanes * bytes as usize;
    let row = (i.src[1] - VGPR0) as usize;
    let dw = bytes as usize / 4;
    let write = |cx: &mut Ctx<'_>, buf: &[u8]| -> Result<(), Fault> {
        for k in 0..r.count {
            let (a, b) = (r.first[k] * bytes as usize, r.first[k + 1] * bytes as usize);
            cx.mem.write(r.base[k], &buf[a..b])?;
        }
        Ok(())
    };
    if dw == 1 {
        let mut buf = [0u8; MAX_LANES * 4];
        let r = &w.v[row * MAX_LANES..(row + 1) * MAX_LANES];
        for (x, c) in r.iter().zip(buf[..n].chunks_exact_mut(4)) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        write(cx, &buf[..n])?;
        cx.stats.bytes.global_write += n as u64;
        return Ok(());
    }
    if dw == 2 {
        let mut buf = [0u8; MAX_LANES * 8];
        let rows = &w.v[row * MAX_LANES..(row + 2) * MAX_LANES];
        let (lo, hi) = rows.split_at(MAX_LANES);
        for ((&x, &y), c) in lo.iter().zip(hi).zip(buf[..n].chunks_exact_mut(8)) {
            c.copy_from_slice(&(u64::from(x) | (u64::from(y) << 32)).to_le_bytes());
        }
        write(cx, &buf[..n])?;
        cx.stats.bytes.global_write += n as u64;
        return Ok(());
    }
    let mut buf = [0u8; MAX_LANES * 16];
    {
        for k in 0..dw {
            let r = &w.v[(row + k) * MAX_LANES..(row + k + 1) * MAX_LANES];
            for (l, x) in r.iter().enumerate().take(w.lanes) {
                let o = (l * dw + k) * 4;
                buf[o..o + 4].copy_from_slice(&x.to_le_bytes());
            }
        }
    }
    write(cx, &buf[..n])?;
    cx.stats.bytes.global_write += n as u64;
    Ok(())
}

fn lds_atomic(lds: &mut [u8], addr: u64, op: AtomicOp, bytes: u8, src: u64, cmp: u64) -> u64 {
    let mut b = [0u8; 8];
    lds_read(lds, addr, &mut b[..bytes as usize]);
    let old = u64::from_le_bytes(b);
    let new = rmw(op, bytes, old, src, cmp).to_le_bytes();
    lds_write(lds, addr, &new[..bytes as usize]);
    old
}

/// When the LDS addresses of a wave's lanes (VGPR `code`) step by 4 bytes from lane 0's and the dwords
/// they address with offset `off` all lie inside the allocation (`len` bytes), the first one's byte
/// offset: the lanes then access `lds[start + 4 * l]` as [`lds_at`] would, without a bounds check each.
/// Inactive lanes' addresses take part too (kernels compute them for every lane).
#[inline]
fn lds_span(w: &Wave, code: u16, off: u64, len: usize) -> Option<usize> {
    let row = (code - VGPR0) as usize * MAX_LANES;
    let v = &w.v[row..row + w.lanes];
    let v0 = v[0];
    let mut differ = 0u32;
    for (l, &x) in v.iter().enumerate() {
        differ |= x ^ v0.wrapping_add(4 * l as u32);
    }
    let start = lds_at(u64::from(v0), off);
    // Lane l's address is (v0 + 4l + off) mod 2^32 = start + 4l: the span ends below 2^32.
    (differ == 0 && start + 4 * w.lanes as u64 <= len as u64).then_some(start as usize)
}

/// The active lanes of `exec` load the dwords from `lds[start..]` in lane order into `row`.
#[inline]
fn lds_load_span(row: &mut [u32], lds: &[u8], start: usize, exec: u64) {
    let src = &lds[start..start + 4 * row.len()];
    let full = exec == u64::MAX >> (64 - row.len());
    let pairs = row.iter_mut().zip(src.chunks_exact(4));
    if full {
        for (x, c) in pairs {
            *x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        return;
    }
    for (l, (x, c)) in pairs.enumerate() {
        if exec >> l & 1 != 0 {
            *x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }
}

/// The active lanes of `exec` store `row` in lane order to `lds[start..]`.
#[inline]
fn lds_store_span(lds: &mut [u8], start: usize, row: &[u32], exec: u64) {
    let dst = &mut lds[start..start + 4 * row.len()];
    let full = exec == u64::MAX >> (64 - row.len());
    let pairs = row.iter().zip(dst.chunks_exact_mut(4));
    if full {
        for (&x, c) in pairs {
            c.copy_from_slice(&x.to_le_bytes());
        }
        return;
    }
    for (l, (&x, c)) in pairs.enumerate() {
        if exec >> l & 1 != 0 {
            c.copy_from_slice(&x.to_le_bytes());
        }
    }
}

/// An LDS address: the VGPR plus the instruction's offset in 32 bits, wrapping as the hardware's adder does
/// (LLVM folds constants into the offset field of a base that may be negative: rocFFT's real-transform
/// kernels address element N-k as `-8k` plus an offset of 8N).
fn lds_at(base: u64, off: u64) -> u64 {
    base.wrapping_add(off) & 0xffff_ffff
}

/// LDS instructions.
pub(super) fn ds(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, op: DsOp) -> Result<Flow, Stop> {
    let exec = w.exec();
    let off16 = u64::from(i.imm as u32 | (u32::from(i.imm1) << 8));
    let addr = |w: &Wave, l: usize| u64::from(v(w, i.src[0], l));
    match op {
        DsOp::Nop => {}
        // Executed by `exec::gws` (no LDS involved).
        DsOp::Gws(_) | DsOp::Access(Access::Format { .. }) => return Err(Stop::Unimplemented),
        DsOp::Access(Access::Load { bytes: 4, ext: Ext::Zero | Ext::Sign }) => {
            let row = (i.dst - VGPR0) as usize;
            if let Some(start) = lds_span(w, i.src[0], off16, cx.lds.len()) {
                let lanes = w.lanes;
                lds_load_span(&mut w.v[row * MAX_LANES..row * MAX_LANES + lanes], cx.lds, start, exec);
            } else {
                for l in 0..w.lanes {
                    if exec >> l & 1 != 0 {
                        let x = lds_read32(cx.lds, lds_at(addr(w, l), off16));
                        w.set_vr(row, l, x);
                    }
                }
            }
            cx.stats.bytes.lds_read += 4 * u64::from(exec.count_ones());
        }
        DsOp::Access(Access::Store { bytes: 4, hi: false }) => {
            let row = (i.src[1] - VGPR0) as usize;
            if let Some(start) = lds_span(w, i.src[0], off16, cx.lds.len()) {
                lds_store_span(cx.lds, start, &w.v[row * MAX_LANES..row * MAX_LANES + w.lanes], exec);
            } else {
                for l in 0..w.lanes {
                    if exec >> l & 1 != 0 {
                        lds_write32(cx.lds, lds_at(addr(w, l), off16), w.vr(row, l));
                    }
                }
            }
            cx.stats.bytes.lds_write += 4 * u64::from(exec.count_ones());
        }
        DsOp::Access(Access::Load { bytes, ext }) => {
            let mut buf = [0u8; 16];
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    lds_read(cx.lds, lds_at(addr(w, l), off16), &mut buf[..bytes as usize]);
                    put_loaded(w, i.dst, l, bytes, ext, &buf);
                    cx.stats.bytes.lds_read += u64::from(bytes);
                }
            }
        }
        DsOp::Access(Access::Store { bytes, hi }) => {
            let mut buf = [0u8; 16];
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    store_data(w, i.src[1], l, bytes, hi, &mut buf);
                    lds_write(cx.lds, lds_at(addr(w, l), off16), &buf[..bytes as usize]);
                    cx.stats.bytes.lds_write += u64::from(bytes);
                }
            }
        }
        DsOp::Access(Access::Atomic { op, bytes, rtn }) => {
            for l in 0..w.lanes {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let src = if bytes == 8 { v64(w, i.src[1], l) } else { u64::from(v(w, i.src[1], l)) };
                let data1 = || if bytes == 8 { v64(w, i.src[2], l) } else { u64::from(v(w, i.src[2], l)) };
                let (src, cmp) = match op {
                    // gfx9/gfx10 `ds_cmpst_*`: data0 is the compare value, data1 the new value.
                    AtomicOp::CmpSwap => (data1(), src),
                    // gfx11+ `ds_cmpstore_*`: data0 is the new value, data1 the compare value.
                    AtomicOp::CmpStore => (src, data1()),
                    _ => (src, 0),
                };
                let old = lds_atomic(cx.lds, lds_at(addr(w, l), off16), op, bytes, src, cmp);
                cx.stats.bytes.lds_read += u64::from(bytes);
                cx.stats.bytes.lds_write += u64::from(bytes);
                if rtn {
                    let row = (i.dst - VGPR0) as usize;
                    w.set_vr(row, l, old as u32);
                    if bytes == 8 {
                        w.set_vr(row + 1, l, (old >> 32) as u32);
                    }
                }
            }
        }
        DsOp::Read2 { bytes: 4, stride } => {
            let step = 4 * u64::from(stride);
            let row = (i.dst - VGPR0) as usize;
            let (o0, o1) = ((i.imm as u64) * step, u64::from(i.imm1) * step);
            let lanes = w.lanes;
            match (lds_span(w, i.src[0], o0, cx.lds.len()), lds_span(w, i.src[0], o1, cx.lds.len())) {
                (Some(s0), Some(s1)) => {
                    let rows = &mut w.v[row * MAX_LANES..(row + 2) * MAX_LANES];
                    let (r0, r1) = rows.split_at_mut(MAX_LANES);
                    lds_load_span(&mut r0[..lanes], cx.lds, s0, exec);
                    lds_load_span(&mut r1[..lanes], cx.lds, s1, exec);
                }
                _ => {
                    for l in 0..lanes {
                        if exec >> l & 1 != 0 {
                            let a = addr(w, l);
                            let x = lds_read32(cx.lds, lds_at(a, o0));
                            let y = lds_read32(cx.lds, lds_at(a, o1));
                            w.set_vr(row, l, x);
                            w.set_vr(row + 1, l, y);
                        }
                    }
                }
            }
            cx.stats.bytes.lds_read += 8 * u64::from(exec.count_ones());
        }
        DsOp::Write2 { bytes: 4, stride } => {
            let step = 4 * u64::from(stride);
            let (r0, r1) = ((i.src[1] - VGPR0) as usize, (i.src[2] - VGPR0) as usize);
            let (o0, o1) = ((i.imm as u64) * step, u64::from(i.imm1) * step);
            let lanes = w.lanes;
            match (lds_span(w, i.src[0], o0, cx.lds.len()), lds_span(w, i.src[0], o1, cx.lds.len())) {
                // Span by span only when that is the lanes' order too: the spans are the same (each lane's
                // second write wins) or do not overlap.
                (Some(s0), Some(s1)) if s0 == s1 || s0.abs_diff(s1) >= 4 * lanes => {
                    lds_store_span(cx.lds, s0, &w.v[r0 * MAX_LANES..r0 * MAX_LANES + lanes], exec);
                    lds_store_span(cx.lds, s1, &w.v[r1 * MAX_LANES..r1 * MAX_LANES + lanes], exec);
                }
                _ => {
                    for l in 0..lanes {
                        if exec >> l & 1 != 0 {
                            let a = addr(w, l);
                            lds_write32(cx.lds, lds_at(a, o0), w.vr(r0, l));
                            lds_write32(cx.lds, lds_at(a, o1), w.vr(r1, l));
                        }
                    }
                }
            }
            cx.stats.bytes.lds_write += 8 * u64::from(exec.count_ones());
        }
        DsOp::Read2 { bytes, stride } => {
            let step = u64::from(bytes) * u64::from(stride);
            let mut buf = [0u8; 16];
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let a = addr(w, l);
                    let n = bytes as usize;
                    lds_read(cx.lds, lds_at(a, (i.imm as u64) * step), &mut buf[..n]);
                    lds_read(cx.lds, lds_at(a, u64::from(i.imm1) * step), &mut buf[n..2 * n]);
                    put_loaded(w, i.dst, l, 2 * bytes, Ext::Zero, &buf);
                    cx.stats.bytes.lds_read += 2 * u64::from(bytes);
                }
            }
        }
        DsOp::Write2 { bytes, stride } => {
            let step = u64::from(bytes) * u64::from(stride);
            let (mut b0, mut b1) = ([0u8; 16], [0u8; 16]);
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let a = addr(w, l);
                    store_data(w, i.src[1], l, bytes, false, &mut b0);
                    store_data(w, i.src[2], l, bytes, false, &mut b1);
                    lds_write(cx.lds, lds_at(a, (i.imm as u64) * step), &b0[..bytes as usize]);
                    lds_write(cx.lds, lds_at(a, u64::from(i.imm1) * step), &b1[..bytes as usize]);
                    cx.stats.bytes.lds_write += 2 * u64::from(bytes);
                }
            }
        }
        DsOp::Swizzle => {
            let pattern = off16 as u32;
            let mut d = [0u32; MAX_LANES];
            for l in 0..w.lanes {
                let src = if pattern & 0x8000 != 0 {
                    // Quad-permute mode: 2-bit selects within each quad.
                    (l & !3) | ((pattern >> (2 * (l & 3))) & 3) as usize
                } else {
                    let (and, or, xor) = (pattern & 0x1f, (pattern >> 5) & 0x1f, (pattern >> 10) & 0x1f);
                    let g = l & !31;
                    g | (((((l & 31) as u32 & and) | or) ^ xor) as usize & 31)
                };
                // The swizzled value is the ADDR operand's VGPR (the instruction has no DATA0 operand).
                d[l] = if exec >> src & 1 != 0 { v(w, i.src[0], src) } else { 0 };
            }
            w.write32(i.dst, exec, &d);
        }
        DsOp::Bpermute => {
            let mut d = [0u32; MAX_LANES];
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let src = ((lds_at(addr(w, l), off16)) / 4) as usize % w.lanes;
                    d[l] = if exec >> src & 1 != 0 { v(w, i.src[1], src) } else { 0 };
                }
            }
            w.write32(i.dst, exec, &d);
        }
        DsOp::Permute => {
            let mut d = [0u32; MAX_LANES];
            let mut written = 0u64;
            for l in 0..w.lanes {
                if exec >> l & 1 != 0 {
                    let dst = ((lds_at(addr(w, l), off16)) / 4) as usize % w.lanes;
                    d[dst] = v(w, i.src[1], l);
                    written |= 1 << dst;
                }
            }
            let _ = written;
            w.write32(i.dst, exec, &d);
        }
    }
    let _ = Family::Gfx9;
    Ok(Flow::Next)
}
