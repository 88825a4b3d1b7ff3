//! Executing the MIMG instructions ([`crate::image`]): texel addressing, format conversion, the sampler's
//! addressing modes and point/bilinear filtering.
//!
//! Conversions follow the ISA guides' "Data Format" rules: UNORM `v / (2^n - 1)`, SNORM
//! `max(v / (2^(n-1) - 1), -1)`, USCALED/SSCALED the integer as a float, UINT/SINT the integer itself (zero-
//! or sign-extended), FLOAT the IEEE value (16-bit halves widened exactly). Missing channels read 0, and
//! the swizzle's constant 1 is 1.0 for float-valued formats and 1 for integer ones. Stores convert back with
//! round-to-nearest-even and saturation for the normalized formats and keep the low bits of integers.
//!
//! Filtering: with normalized coordinates the texel-space coordinate is `s * size` (f32); the texture
//! unit then holds it in fixed point with 8 fractional (sub-texel) bits, rounding to nearest, which the
//! interpreter reproduces (HIP's device library relies on it: for point sampling it snaps normalized
//! coordinates to `floor(s * size) * rcp(size)`, a value a few ulps below the texel edge that the
//! rounding puts back on it). Point sampling takes texel `floor(u)`; bilinear sampling blends texels
//! `floor(u - 0.5)` and the next with weight `frac(u - 0.5)`, so the weights have 8 fractional bits too
//! (the precision the ISA guides and CUDA's programming guide give for texture filtering); the blend is
//! done in f32. Integer formats are never filtered (point sampling). Array layers round to the nearest
//! integer and clamp. Only mip level 0
//! exists (loads and samples of other levels read zeros, as an out-of-range access does).

use super::float::{f16_to_f32, f32_to_f16};
use super::{Ctx, Flow, Stop};
use crate::decode::image_address as address;
use crate::decode::{Inst, VGPR0};
use crate::image::{bits, clamp, nfmt, ty, ImageOp, Rsrc, Sampler, COORDS};
use crate::wave::Wave;

/// Reads the T# at SGPR `s`.
fn rsrc(w: &Wave, i: &Inst) -> Result<Rsrc, Stop> {
    let t: [u32; 8] = std::array::from_fn(|k| w.sgpr(i.src[2] + k as u16));
    Rsrc::decode(w.family, &t)
        .ok_or_else(|| Stop::Invalid(format!("image resource with an unsupported format {t:08x?}")))
}

/// The DIM (0..7) the instruction addresses: its field on gfx10+, the T#'s type on gfx9.
fn dim_of(i: &Inst, r: &Rsrc) -> u8 {
    if i.imm & bits::NO_DIM != 0 {
        r.ty.saturating_sub(8) & 7
    } else {
        ((i.imm >> bits::DIM_SHIFT) & 7) as u8
    }
}

/// Address component `k` of lane `l` as raw bits (16-bit components widened: integers zero-extended,
/// floats to f32).
fn addr(w: &Wave, i: &Inst, k: usize, l: usize, float: bool) -> u32 {
    if i.imm & bits::A16 != 0 {
        let r = w.vr(usize::from(address(i, k / 2) - VGPR0), l);
        let h = (r >> (16 * (k % 2))) as u16;
        if float {
            f16_to_f32(h).to_bits()
        } else {
            u32::from(h)
        }
    } else {
        w.vr(usize::from(address(i, k) - VGPR0), l)
    }
}

fn is_int(nf: u8) -> bool {
    nf == nfmt::UINT || nf == nfmt::SINT
}

/// Applies `DST_SEL` to the channels.
fn swizzle(r: &Rsrc, ch: &[u32; 4]) -> [u32; 4] {
    let one = if is_int(r.nfmt) { 1 } else { 1f32.to_bits() };
    r.sel.map(|s| match s {
        0 => 0,
        1 => one,
        4..=7 => ch[usize::from(s - 4)],
        _ => 0,
    })
}

/// Byte address of texel (x, y, z) of level 0, or `None` outside the image.
fn texel_addr(r: &Rsrc, x: i64, y: i64, z: i64) -> Option<u64> {
    let inside = |v: i64, n: u32| v >= 0 && v < i64::from(n);
    (inside(x, r.width) && inside(y, r.height) && inside(z, r.depth)).then(|| {
        let row = (z as u64 * u64::from(r.height) + y as u64) * u64::from(r.pitch) + x as u64;
        r.base + row * u64::from(r.bpe())
    })
}

fn read_texel(cx: &mut Ctx<'_>, r: &Rsrc, at: Option<u64>) -> Result<Option<[u32; 4]>, Stop> {
    let Some(a) = at else { return Ok(None) };
    let mut buf = [0u8; 16];
    let n = r.bpe() as usize;
    cx.mem.read(a, &mut buf[..n]).map_err(Stop::Fault)?;
    cx.stats.bytes.global_read += n as u64;
    Ok(Some(crate::image::unpack_texel(r.dfmt, r.nfmt, &buf[..n])))
}

/// Integer texel coordinates of a load/store: (x, y, z/layer, mip).
fn int_coords(i: &Inst, w: &Wave, l: usize, dim: u8, mip: bool) -> ([i64; 3], u32) {
    let n = usize::from(COORDS[usize::from(dim)]);
    let mut c = [0i64; 3];
    for (k, v) in c.iter_mut().enumerate().take(n.min(3)) {
        *v = i64::from(addr(w, i, k, l, false) as i32);
    }
    // 1D arrays keep the layer in the second component.
    if dim == 4 {
        c = [c[0], 0, c[1]];
    }
    let level = if mip { addr(w, i, n, l, false) } else { 0 };
    (c, level)
}

/// Applies an addressing mode to texel index `i` of an axis with `n` texels; `None` means the border.
fn wrap(mode: u8, i: i64, n: u32) -> Option<i64> {
    let n = i64::from(n.max(1));
    match mode {
        clamp::WRAP => Some(i.rem_euclid(n)),
        clamp::MIRROR => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        clamp::CLAMP_LAST_TEXEL => Some(i.clamp(0, n - 1)),
        clamp::MIRROR_ONCE_LAST_TEXEL => Some((if i < 0 { -1 - i } else { i }).clamp(0, n - 1)),
        _ => (0..n).contains(&i).then_some(i),
    }
}

/// The border colour's components (after the swizzle, as the hardware substitutes it).
fn border(s: &Sampler, r: &Rsrc) -> [u32; 4] {
    let (c, a) = match s.border {
        1 => (0.0f32, 1.0f32),
        2 => (1.0, 1.0),
        _ => (0.0, 0.0),
    };
    if is_int(r.nfmt) {
        [c as u32, c as u32, c as u32, a as u32]
    } else {
        [c.to_bits(), c.to_bits(), c.to_bits(), a.to_bits()]
    }
}

/// A texel-space coordinate in the texture unit's fixed point: 8 fractional bits, rounded to nearest.
fn subtexel(u: f32) -> f64 {
    (f64::from(u) * 256.0).round() / 256.0
}

/// Samples one lane: the four components after swizzle (and border substitution).
fn sample(cx: &mut Ctx<'_>, r: &Rsrc, s: &Sampler, unnorm: bool, dim: u8, coords: [f32; 3]) -> Result<[u32; 4], Stop> {
    let axes = match dim {
        0 | 4 => 1,
        2 => 3,
        _ => 2,
    };
    let sizes = [r.width, r.height, r.depth];
    let layer = match dim {
        4 => Some(coords[1]),
        5 => Some(coords[2]),
        _ => None,
    };
    let z_layer = layer.map(|v| {
        let v = if v.is_nan() { 0.0 } else { v.round_ties_even() };
        (v as i64).clamp(0, i64::from(r.depth.max(1)) - 1)
    });
    let scaled = |a: usize| {
        let c = coords[a];
        if unnorm || s.unnormalized {
            c
        } else {
            c * sizes[a] as f32
        }
    };
    let bd = border(s, r);
    let linear = s.linear && !is_int(r.nfmt);
    // Per axis: (index0, index1, weight of index1).
    let mut idx = [(0i64, 0i64, 0f32); 3];
    for (a, slot) in idx.iter_mut().enumerate().take(axes) {
        let u = subtexel(scaled(a));
        *slot = if linear {
            let t = u - 0.5;
            let f = t.floor();
            (f as i64, f as i64 + 1, (t - f) as f32)
        } else {
            let f = u.floor();
            (f as i64, f as i64, 0.0)
        };
    }
    let corners = 1usize << axes;
    let mut acc = [0f32; 4];
    let mut point = [0u32; 4];
    for corner in 0..corners {
        let mut wgt = 1f32;
        let mut t = [0i64; 3];
        let mut inside = true;
        for a in 0..axes {
            let hi = corner >> a & 1 != 0;
            let (i0, i1, f) = idx[a];
            wgt *= if hi { f } else { 1.0 - f };
            match wrap(s.clamp[a], if hi { i1 } else { i0 }, sizes[a]) {
                Some(v) => t[a] = v,
                None => inside = false,
            }
        }
        if let Some(z) = z_layer {
            t[2] = z;
        }
        if !linear && corner > 0 {
            break;
        }
        let comps = if inside {
            let at = texel_addr(r, t[0], t[1], t[2]);
            match read_texel(cx, r, at)? {
                Some(ch) => swizzle(r, &ch),
                None => bd,
            }
        } else {
            bd
        };
        if linear {
            if wgt != 0.0 {
                for k in 0..4 {
                    acc[k] += wgt * f32::from_bits(comps[k]);
                }
            }
        } else {
            point = comps;
        }
    }
    Ok(if linear { acc.map(f32::to_bits) } else { point })
}

/// Writes the dmask-selected components of lane `l` to the data VGPRs (packed in halves with d16).
fn put_result(w: &mut Wave, i: &Inst, l: usize, comps: &[u32; 4], int: bool) {
    let dmask = (i.imm & bits::DMASK) as u32;
    let d16 = i.imm & bits::D16 != 0;
    let row0 = usize::from(i.dst - VGPR0);
    let mut k = 0;
    for (c, &v) in comps.iter().enumerate() {
        if dmask >> c & 1 == 0 {
            continue;
        }
        if d16 {
            let h = if int { v & 0xffff } else { u32::from(f32_to_f16(f32::from_bits(v))) };
            let row = row0 + k / 2;
            let old = w.vr(row, l);
            let new = if k % 2 == 0 { (old & 0xffff_0000) | h } else { (old & 0xffff) | (h << 16) };
            w.set_vr(row, l, new);
        } else {
            w.set_vr(row0 + k, l, v);
        }
        k += 1;
    }
}

/// Reads the dmask-selected store data of lane `l` into channel slots x..w (before the inverse swizzle).
fn store_data(w: &Wave, i: &Inst, l: usize, int: bool) -> [u32; 4] {
    let dmask = (i.imm & bits::DMASK) as u32;
    let d16 = i.imm & bits::D16 != 0;
    let row0 = usize::from(i.src[1] - VGPR0);
    let mut out = [0u32; 4];
    let mut k = 0;
    for (c, o) in out.iter_mut().enumerate() {
        if dmask >> c & 1 == 0 {
            continue;
        }
        *o = if d16 {
            let h = (w.vr(row0 + k / 2, l) >> (16 * (k % 2))) & 0xffff;
            if int {
                h
            } else {
                f16_to_f32(h as u16).to_bits()
            }
        } else {
            w.vr(row0 + k, l)
        };
        k += 1;
    }
    out
}

/// Executes an image instruction.
pub(super) fn exec(w: &mut Wave, cx: &mut Ctx<'_>, i: &Inst, op: ImageOp) -> Result<Flow, Stop> {
    let r = rsrc(w, i)?;
    let dim = dim_of(i, &r);
    let exec = w.exec();
    let int = is_int(r.nfmt);
    match op {
        ImageOp::Load { mip } => {
            for l in (0..w.lanes).filter(|l| exec >> l & 1 != 0) {
                let (c, level) = int_coords(i, w, l, dim, mip);
                let at = if level == 0 { texel_addr(&r, c[0], c[1], c[2]) } else { None };
                let comps = read_texel(cx, &r, at)?.map_or([0; 4], |ch| swizzle(&r, &ch));
                put_result(w, i, l, &comps, int);
            }
        }
        ImageOp::Store { mip } => {
            let n = r.bpe() as usize;
            for l in (0..w.lanes).filter(|l| exec >> l & 1 != 0) {
                let (c, level) = int_coords(i, w, l, dim, mip);
                let Some(a) = (level == 0).then(|| texel_addr(&r, c[0], c[1], c[2])).flatten() else { continue };
                let data = store_data(w, i, l, int);
                // The format converter writes component k to the memory channel its DST_SEL names.
                let mut ch = [0u32; 4];
                for (k, s) in r.sel.iter().enumerate() {
                    if (4..=7).contains(s) {
                        ch[usize::from(s - 4)] = data[k];
                    }
                }
                let mut buf = [0u8; 16];
                crate::image::pack_texel(r.dfmt, r.nfmt, &ch, &mut buf[..n]);
                cx.mem.write(a, &buf[..n]).map_err(Stop::Fault)?;
                cx.stats.bytes.global_write += n as u64;
            }
        }
        ImageOp::GetResinfo => {
            for l in (0..w.lanes).filter(|l| exec >> l & 1 != 0) {
                let level = addr(w, i, 0, l, false);
                let m = |v: u32| (v >> level.min(31)).max(1);
                let depth = if r.ty == ty::IMG_3D { m(r.depth) } else { r.depth };
                let comps = match r.ty {
                    ty::IMG_1D_ARRAY => [m(r.width), r.depth, 0, u32::from(r.last_level) + 1],
                    ty::IMG_1D => [m(r.width), 0, 0, u32::from(r.last_level) + 1],
                    _ => [m(r.width), m(r.height), depth, u32::from(r.last_level) + 1],
                };
                let comps = if level > u32::from(r.last_level) { [0, 0, 0, comps[3]] } else { comps };
                put_result(w, i, l, &comps, true);
            }
        }
        ImageOp::Sample { lod } => {
            let s: [u32; 4] = std::array::from_fn(|k| w.sgpr(i.sdst + k as u16));
            let s = Sampler::decode(&s);
            let unnorm = i.imm & bits::UNORM != 0;
            let n = usize::from(COORDS[usize::from(dim)]);
            for l in (0..w.lanes).filter(|l| exec >> l & 1 != 0) {
                let mut c = [0f32; 3];
                for (k, v) in c.iter_mut().enumerate().take(n.min(3)) {
                    *v = f32::from_bits(addr(w, i, k, l, true));
                }
                let level = if lod { f32::from_bits(addr(w, i, n, l, true)) } else { 0.0 };
                // Only level 0 exists; a positive LOD on an image without mips still reads level 0 (the
                // hardware clamps the LOD to the T#'s last level).
                let comps = if level.is_nan() || r.last_level == 0 || level < 0.5 {
                    sample(cx, &r, &s, unnorm, dim, c)?
                } else {
                    return Err(Stop::Invalid("image_sample_l of a mip level other than 0".into()));
                };
                put_result(w, i, l, &comps, int);
            }
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
#[path = "image_tests.rs"]
mod tests;
