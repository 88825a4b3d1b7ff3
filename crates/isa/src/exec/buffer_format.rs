//! `buffer_load_format_*` and `buffer_store_format_*`: MUBUF accesses of one texel per lane in the format
//! the buffer resource names ([`crate::image::buffer`]); `tbuffer_*` (MTBUF) in the format the
//! instruction names. Addresses are a MUBUF's (index, offsets, range
//! check: [`super::mem`]); the texel is converted as the texture unit converts an image's
//! ([`crate::image::unpack_texel`]), channels the format lacks read as 0 (X, Y, Z) or 1 (W), and a load's
//! results pass through the V#'s `DST_SEL`. A store writes the first `comps` channels of the texel and
//! keeps the others.

use super::mem::{places, read_place, write_place, Place};
use super::{Ctx, Flow, Stop};
use crate::decode::{flags, Inst, VGPR0};
use crate::exec::float::{f16_to_f32, f32_to_f16};
use crate::image::buffer::{missing_channel, BufRsrc};
use crate::image::{layout, nfmt, pack_texel, unpack_texel};
use crate::op::Seg;
use crate::target::Family;
use crate::wave::{Wave, MAX_LANES};

fn is_int(nf: u8) -> bool {
    matches!(nf, nfmt::UINT | nfmt::SINT)
}

/// A register value as 16 bits (`d16`): f16 for the float-valued formats, the low half of an integer.
fn to_d16(nf: u8, x: u32) -> u32 {
    if is_int(nf) {
        x & 0xffff
    } else {
        u32::from(f32_to_f16(f32::from_bits(x)))
    }
}

fn from_d16(nf: u8, h: u32) -> u32 {
    let h = h & 0xffff;
    match nf {
        nfmt::UINT => h,
        nfmt::SINT => h as u16 as i16 as i32 as u32,
        _ => f16_to_f32(h as u16).to_bits(),
    }
}

/// Executes a format load or store of `comps` components.
pub(super) fn exec(
    w: &mut Wave,
    cx: &mut Ctx<'_>,
    i: &Inst,
    store: bool,
    comps: u8,
    d16: bool,
    hi: bool,
) -> Result<Flow, Stop> {
    let mut v = [0, 1, 2, 3].map(|k| w.sgpr(i.src[2] + k));
    if i.flags & flags::TFMT != 0 {
        // MTBUF: the instruction's format replaces the V#'s (gfx11/gfx12 V#s hold 6 bits of it).
        let bits = if w.family >= Family::Gfx11 { 6 } else { 7 };
        if u32::from(i.imm1) >> bits != 0 {
            return Err(Stop::Invalid(format!("tbuffer format {} does not exist on this target", i.imm1)));
        }
        let mask = ((1u32 << bits) - 1) << 12;
        v[3] = (v[3] & !mask) | (u32::from(i.imm1) << 12);
    }
    let Some(r) = BufRsrc::decode(w.family, &v) else {
        return Err(Stop::Invalid(format!(
            "buffer format access with a V# format the simulator does not convert ({:#x})",
            v[3]
        )));
    };
    let (channels, bits) = layout(r.dfmt).unwrap_or((0, 0));
    let bytes = usize::from(bits) / 8;
    let mut pl = [Place::Nowhere; MAX_LANES];
    places(w, i, Seg::Buffer, bytes as u64, &mut pl);
    let exec = w.exec();
    // The gfx9 targets run with SRAM ECC on: a D16 load zeroes the other half of its VGPR (see `put_loaded`).
    let keep = if w.family == Family::Gfx9 { 0 } else { u32::MAX };
    let comps = usize::from(comps);
    let mut raw = [0u8; 16];
    for l in 0..w.lanes {
        if exec >> l & 1 == 0 {
            continue;
        }
        if !store || comps < usize::from(channels) {
            read_place(w, cx, pl[l], l, &mut raw[..bytes])?;
        }
        let mut ch = unpack_texel(r.dfmt, r.nfmt, &raw[..bytes]);
        for (c, x) in ch.iter_mut().enumerate().skip(usize::from(channels)) {
            *x = missing_channel(r.nfmt, c);
        }
        if store {
            let row = (i.src[1] - VGPR0) as usize;
            for (c, x) in ch.iter_mut().enumerate().take(comps.min(usize::from(channels))) {
                *x = match (d16, hi) {
                    (false, _) => w.vr(row + c, l),
                    (true, true) => from_d16(r.nfmt, w.vr(row, l) >> 16),
                    (true, false) => from_d16(r.nfmt, w.vr(row + c / 2, l) >> (16 * (c % 2))),
                };
            }
            pack_texel(r.dfmt, r.nfmt, &ch, &mut raw[..bytes]);
            write_place(w, cx, pl[l], l, &raw[..bytes])?;
            continue;
        }
        // Out of the buffer's range a load returns zeros, the W default included.
        let nowhere = matches!(pl[l], Place::Nowhere);
        let out = r.sel.map(|s| match s {
            _ if nowhere => 0,
            0 => 0,
            1 => missing_channel(r.nfmt, 3),
            4..=7 => ch[usize::from(s - 4)],
            _ => 0,
        });
        let row = (i.dst - VGPR0) as usize;
        match (d16, hi) {
            (false, _) => {
                for (c, x) in out.iter().enumerate().take(comps) {
                    w.set_vr(row + c, l, *x);
                }
            }
            (true, true) => {
                let old = w.vr(row, l) & keep;
                w.set_vr(row, l, (old & 0xffff) | (to_d16(r.nfmt, out[0]) << 16));
            }
            (true, false) => {
                for c in (0..comps).step_by(2) {
                    let lo = to_d16(r.nfmt, out[c]);
                    let word = if c + 1 < comps {
                        lo | (to_d16(r.nfmt, out[c + 1]) << 16)
                    } else {
                        (w.vr(row + c / 2, l) & keep & 0xffff_0000) | lo
                    };
                    w.set_vr(row + c / 2, l, word);
                }
            }
        }
    }
    Ok(Flow::Next)
}
