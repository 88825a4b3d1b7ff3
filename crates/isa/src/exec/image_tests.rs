//! Image instructions against a host reference written from the OpenCL C specification's sampler rules
//! (section "Addressing and Filter Modes": nearest and linear filtering with CLK_ADDRESS_REPEAT,
//! MIRRORED_REPEAT, CLAMP_TO_EDGE and CLAMP) and the ISA guides' UNORM conversion. Instruction bytes are
//! `llvm-mc-21 -show-encoding` output.

use super::*;
use crate::decode::decode;
use crate::image::{dfmt, linear_pitch};
use crate::memory::VecMemory;
use crate::op::Op;
use crate::stats::WaveStats;
use crate::target::{Family, TARGETS};

const BASE: u64 = 0x10_0000;
const W: u32 = 8;
const H: u32 = 4;

/// RGBA8 UNORM texel (x, y).
fn texel(x: u32, y: u32) -> [u8; 4] {
    [(x * 31 + y * 7) as u8, (y * 60 + 3) as u8, ((x ^ y) * 29) as u8, 255 - (x * 9 + y * 13) as u8]
}

fn image(fam: Family, nf: u8, df: u8) -> (VecMemory, [u32; 8]) {
    image_wh(fam, nf, df, W, H)
}

fn image_wh(fam: Family, nf: u8, df: u8, width: u32, height: u32) -> (VecMemory, [u32; 8]) {
    let bpe = crate::image::texel_bytes(df).unwrap();
    let pitch = linear_pitch(width, bpe);
    let mut data = vec![0u8; (pitch * height * bpe) as usize];
    for y in 0..height {
        for x in 0..width {
            let o = ((y * pitch + x) * bpe) as usize;
            data[o..o + bpe as usize].copy_from_slice(&texel(x, y)[..bpe as usize]);
        }
    }
    let mem = VecMemory::new();
    mem.map(BASE, data);
    let sel = if bpe == 4 { [4, 5, 6, 7] } else { [4, 0, 0, 1] };
    let r = Rsrc { base: BASE, dfmt: df, nfmt: nf, width, height, depth: 1, pitch, ty: ty::IMG_2D, sel, last_level: 0 };
    (mem, r.encode(fam).unwrap())
}

fn run(target: &str, bytes: &[u8], mem: &VecMemory, t: &[u32; 8], s: &[u32; 4], set: impl Fn(&mut Wave)) -> Wave {
    let tg = TARGETS.iter().find(|x| x.name == target).unwrap();
    let i = decode(tg, bytes).unwrap();
    let lanes = if tg.family == Family::Gfx9 { 64 } else { 32 };
    let mut w = Wave::new(tg.family, lanes, 0);
    w.set_exec(w.full());
    for k in 0..8 {
        w.set_s(k, t[k as usize]);
    }
    for k in 0..4 {
        w.set_s(8 + k, s[k as usize]);
    }
    set(&mut w);
    let mut lds = [0u8; 0];
    let mut stats = WaveStats::default();
    let gws = crate::gws::Gws::new();
    let mut cx = Ctx { mem, lds: &mut lds, clock: 0, stats: &mut stats, gws: &gws, stop: None, flow: Flow::Next };
    let Op::Image(op) = i.op else { panic!("not an image op") };
    exec(&mut w, &mut cx, &i, op).unwrap();
    w
}

/// OpenCL's nearest-filter texel index of normalized coordinate `s` on an axis of `n` texels.
fn ref_nearest(mode: u8, s: f64, n: u32) -> Option<i64> {
    let n = f64::from(n);
    let i = match mode {
        clamp::WRAP => ((s - s.floor()) * n).floor().min(n - 1.0),
        clamp::MIRROR => {
            let m = (s - 2.0 * (0.5 * s).round_ties_even()).abs();
            (m * n).floor().min(n - 1.0)
        }
        clamp::CLAMP_LAST_TEXEL => (s * n).floor().clamp(0.0, n - 1.0),
        _ => {
            let i = (s * n).floor();
            if i < 0.0 || i >= n {
                return None;
            }
            i
        }
    };
    Some(i as i64)
}

/// OpenCL's linear-filter (i0, i1, a) of normalized coordinate `s`, with `a` in the hardware's 8 bits.
fn ref_linear(mode: u8, s: f64, n: u32) -> (Option<i64>, Option<i64>, f64) {
    let nf = f64::from(n);
    let n = i64::from(n);
    let q = |a: f64| (a * 256.0).round() / 256.0;
    match mode {
        clamp::WRAP => {
            let u = (s - s.floor()) * nf;
            let i0 = (u - 0.5).floor() as i64;
            let a = q((u - 0.5) - (u - 0.5).floor());
            let i1 = i0 + 1;
            (Some(if i0 < 0 { n + i0 } else { i0 }), Some(if i1 > n - 1 { i1 - n } else { i1 }), a)
        }
        clamp::MIRROR => {
            let m = (s - 2.0 * (0.5 * s).round_ties_even()).abs();
            let u = m * nf;
            let i0 = (u - 0.5).floor() as i64;
            let a = q((u - 0.5) - (u - 0.5).floor());
            (Some(i0.max(0)), Some((i0 + 1).min(n - 1)), a)
        }
        clamp::CLAMP_LAST_TEXEL => {
            let u = s * nf;
            let i0 = (u - 0.5).floor() as i64;
            let a = q((u - 0.5) - (u - 0.5).floor());
            (Some(i0.clamp(0, n - 1)), Some((i0 + 1).clamp(0, n - 1)), a)
        }
        _ => {
            let u = s * nf;
            let i0 = (u - 0.5).floor() as i64;
            let a = q((u - 0.5) - (u - 0.5).floor());
            let inside = |i: i64| (0..n).contains(&i).then_some(i);
            (inside(i0), inside(i0 + 1), a)
        }
    }
}

fn unorm(x: u32, y: u32, c: usize) -> f64 {
    f64::from(texel(x, y)[c]) / 255.0
}

/// Coordinates of lane `l`: spread over [-1.3, 2.2) and off texel boundaries.
fn coord(l: usize, k: usize) -> f32 {
    -1.3 + (l as f32 * 0.1093 + k as f32 * 0.377) % 3.5
}

const SAMPLE_LZ_2D_GFX11: [u8; 8] = [0x04, 0x0f, 0x7c, 0xf0, 0x04, 0x00, 0x00, 0x08];

#[test]
fn sample_point_matches_opencl_rules_in_every_addressing_mode() {
    let (mem, t) = image(Family::Gfx11, nfmt::UNORM, dfmt::F8_8_8_8);
    for mode in [clamp::WRAP, clamp::MIRROR, clamp::CLAMP_LAST_TEXEL, clamp::CLAMP_BORDER] {
        let s = Sampler { clamp: [mode; 3], unnormalized: false, linear: false, border: 0 }.encode();
        let w = run("gfx1100", &SAMPLE_LZ_2D_GFX11, &mem, &t, &s, |w| {
            for l in 0..32 {
                w.set_vr(4, l, coord(l, 0).to_bits());
                w.set_vr(5, l, coord(l, 1).to_bits());
            }
        });
        for l in 0..32 {
            let (x, y) = (ref_nearest(mode, f64::from(coord(l, 0)), W), ref_nearest(mode, f64::from(coord(l, 1)), H));
            for c in 0..4 {
                let want = match (x, y) {
                    (Some(x), Some(y)) => unorm(x as u32, y as u32, c) as f32,
                    _ => 0.0,
                };
                assert_eq!(f32::from_bits(w.vr(c, l)), want, "mode {mode} lane {l} component {c}");
            }
        }
    }
}

#[test]
fn sample_bilinear_matches_opencl_rules_in_every_addressing_mode() {
    let (mem, t) = image(Family::Gfx11, nfmt::UNORM, dfmt::F8_8_8_8);
    for mode in [clamp::WRAP, clamp::MIRROR, clamp::CLAMP_LAST_TEXEL, clamp::CLAMP_BORDER] {
        let s = Sampler { clamp: [mode; 3], unnormalized: false, linear: true, border: 0 }.encode();
        let w = run("gfx1100", &SAMPLE_LZ_2D_GFX11, &mem, &t, &s, |w| {
            for l in 0..32 {
                w.set_vr(4, l, coord(l, 0).to_bits());
                w.set_vr(5, l, coord(l, 1).to_bits());
            }
        });
        for l in 0..32 {
            let (x0, x1, a) = ref_linear(mode, f64::from(coord(l, 0)), W);
            let (y0, y1, b) = ref_linear(mode, f64::from(coord(l, 1)), H);
            for c in 0..4 {
                let t = |x: Option<i64>, y: Option<i64>| match (x, y) {
                    (Some(x), Some(y)) => unorm(x as u32, y as u32, c),
                    _ => 0.0,
                };
                let want = (1.0 - a) * (1.0 - b) * t(x0, y0)
                    + a * (1.0 - b) * t(x1, y0)
                    + (1.0 - a) * b * t(x0, y1)
                    + a * b * t(x1, y1);
                let got = f64::from(f32::from_bits(w.vr(c, l)));
                assert!((got - want).abs() < 1e-5, "mode {mode} lane {l} component {c}: {got} vs {want}");
            }
        }
    }
}

#[test]
fn sample_unnormalized_and_integer_formats_read_texels() {
    // R8 UINT, point, unnormalized (HIP's tex2D<unsigned char> with readModeElementType): the raw integer.
    let (mem, t) = image(Family::Gfx11, nfmt::UINT, dfmt::F8);
    let s = Sampler { clamp: [clamp::CLAMP_LAST_TEXEL; 3], unnormalized: true, linear: true, border: 0 }.encode();
    let w = run("gfx1100", &SAMPLE_LZ_2D_GFX11, &mem, &t, &s, |w| {
        for l in 0..32 {
            w.set_vr(4, l, (l as f32 * 0.31 + 0.2).to_bits());
            w.set_vr(5, l, ((l % 5) as f32 - 0.4).to_bits());
        }
    });
    for l in 0..32 {
        let x = ((l as f32 * 0.31 + 0.2).floor() as i64).clamp(0, i64::from(W) - 1) as u32;
        let y = (((l % 5) as f32 - 0.4).floor() as i64).clamp(0, i64::from(H) - 1) as u32;
        assert_eq!(w.vr(0, l), u32::from(texel(x, y)[0]), "lane {l}: integer formats are not filtered");
        assert_eq!((w.vr(1, l), w.vr(2, l), w.vr(3, l)), (0, 0, 1), "R swizzle X,0,0,1");
    }
}

#[test]
fn load_store_and_resinfo_address_linear_texels() {
    let (mem, t) = image(Family::Gfx11, nfmt::UNORM, dfmt::F8_8_8_8);
    // image_store v[0:3], v[4:5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm: lane l writes texel (l % 8, l / 8).
    let s = [0; 4];
    run("gfx1100", &[0x84, 0x0f, 0x18, 0xf0, 0x04, 0x00, 0x00, 0x00], &mem, &t, &s, |w| {
        for l in 0..32 {
            w.set_vr(4, l, (l % 8) as u32);
            w.set_vr(5, l, (l / 8) as u32);
            for c in 0..4 {
                w.set_vr(c, l, ((l * 4 + c) as f32 / 127.0).to_bits());
            }
        }
    });
    let pitch = linear_pitch(W, 4) as usize;
    for l in 0..32usize {
        let got = mem.get(BASE + (((l / 8) * pitch + l % 8) * 4) as u64, 4).unwrap();
        let want: Vec<u8> = (0..4).map(|c| ((((l * 4 + c) as f64 / 127.0).min(1.0)) * 255.0).round() as u8).collect();
        assert_eq!(got, want, "lane {l}");
    }
    // image_load v[0:3], v[4:5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm reads them back; (8, 0) is outside.
    let w = run("gfx1100", &[0x84, 0x0f, 0x00, 0xf0, 0x04, 0x00, 0x00, 0x00], &mem, &t, &s, |w| {
        for l in 0..32 {
            w.set_vr(4, l, if l == 31 { 8 } else { (l % 8) as u32 });
            w.set_vr(5, l, (l / 8) as u32);
        }
    });
    for l in 0..31usize {
        for c in 0..4 {
            let q = ((((l * 4 + c) as f64 / 127.0).min(1.0)) * 255.0).round();
            assert_eq!(f32::from_bits(w.vr(c, l)), (q / 255.0) as f32);
        }
    }
    assert_eq!((0..4).map(|c| w.vr(c, 31)).collect::<Vec<_>>(), [0, 0, 0, 0], "out of range reads 0");
    // image_get_resinfo v[0:3], v4, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm at level 0.
    let w = run("gfx1100", &[0x84, 0x0f, 0x5c, 0xf0, 0x04, 0x00, 0x00, 0x00], &mem, &t, &s, |_| {});
    assert_eq!((0..4).map(|c| w.vr(c, 0)).collect::<Vec<_>>(), [W, H, 1, 1]);
}

#[test]
fn gfx9_sample_takes_its_dimension_from_the_resource() {
    let (mem, t) = image(Family::Gfx9, nfmt::UNORM, dfmt::F8_8_8_8);
    let s = Sampler { clamp: [clamp::WRAP; 3], unnormalized: false, linear: false, border: 0 }.encode();
    // image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf (gfx90a)
    let w = run("gfx90a", &[0x00, 0x0f, 0x80, 0xf0, 0x04, 0x00, 0x40, 0x00], &mem, &t, &s, |w| {
        for l in 0..64 {
            w.set_vr(4, l, coord(l, 0).to_bits());
            w.set_vr(5, l, coord(l, 1).to_bits());
        }
    });
    for l in 0..64 {
        let x = ref_nearest(clamp::WRAP, f64::from(coord(l, 0)), W).unwrap() as u32;
        let y = ref_nearest(clamp::WRAP, f64::from(coord(l, 1)), H).unwrap() as u32;
        assert_eq!(f32::from_bits(w.vr(1, l)), unorm(x, y, 1) as f32, "lane {l}");
    }
}

/// HIP's device library snaps normalized point-sampling coordinates to `floor(s * w) * rcp(w)`, which can
/// land a few ulps beyond the texel's edge (below it for negative coordinates); the texture unit's 8-bit
/// sub-texel rounding puts it back, so texel x (wrapped) is read for every x.
#[test]
fn point_sampling_rounds_coordinates_to_subtexel_precision() {
    let width = 37i32;
    let (mem, t) = image_wh(Family::Gfx11, nfmt::UNORM, dfmt::F8_8_8_8, width as u32, H);
    let s = Sampler { clamp: [clamp::WRAP; 3], unnormalized: false, linear: false, border: 0 }.encode();
    let rcp = 1.0f32 / width as f32;
    let snapped = |x: i32| x as f32 * rcp;
    let off = (-width..width).filter(|&x| (snapped(x) * width as f32).floor() != x as f32).count();
    assert!(off > 0, "some snapped coordinates fall off their texel edge in f32");
    let xs: Vec<i32> = (-width..width).collect();
    for chunk in xs.chunks(32) {
        let w = run("gfx1100", &SAMPLE_LZ_2D_GFX11, &mem, &t, &s, |w| {
            for l in 0..32 {
                w.set_vr(4, l, snapped(chunk[l.min(chunk.len() - 1)]).to_bits());
                w.set_vr(5, l, 0.1f32.to_bits());
            }
        });
        for (l, &x) in chunk.iter().enumerate() {
            let want = f32::from(texel(x.rem_euclid(width) as u32, 0)[0]) / 255.0;
            assert_eq!(f32::from_bits(w.vr(0, l)), want, "texel {x}");
        }
    }
}

/// gfx12's VIMAGE/VSAMPLE instructions on a gfx12 T#: the same texels and filtering as on gfx11.
#[test]
fn gfx12_sample_load_store_and_resinfo_match_the_host_reference() {
    let (mem, t) = image(Family::Gfx12, nfmt::UNORM, dfmt::F8_8_8_8);
    // image_sample_lz v[0:3], [v4, v5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D (gfx1201)
    let sample_lz = [0x01, 0xc0, 0xc7, 0xe7, 0x00, 0x00, 0x00, 0x04, 0x04, 0x05, 0x00, 0x00];
    for (mode, linear) in [(clamp::WRAP, false), (clamp::MIRROR, true), (clamp::CLAMP_BORDER, true)] {
        let s = Sampler { clamp: [mode; 3], unnormalized: false, linear, border: 0 }.encode();
        let w = run("gfx1201", &sample_lz, &mem, &t, &s, |w| {
            for l in 0..32 {
                w.set_vr(4, l, coord(l, 0).to_bits());
                w.set_vr(5, l, coord(l, 1).to_bits());
            }
        });
        for l in 0..32 {
            let (x0, x1, a) = ref_linear(mode, f64::from(coord(l, 0)), W);
            let (y0, y1, b) = ref_linear(mode, f64::from(coord(l, 1)), H);
            let (xn, yn) = (ref_nearest(mode, f64::from(coord(l, 0)), W), ref_nearest(mode, f64::from(coord(l, 1)), H));
            for c in 0..4 {
                let t = |x: Option<i64>, y: Option<i64>| match (x, y) {
                    (Some(x), Some(y)) => unorm(x as u32, y as u32, c),
                    _ => 0.0,
                };
                let want = if linear {
                    (1.0 - a) * (1.0 - b) * t(x0, y0)
                        + a * (1.0 - b) * t(x1, y0)
                        + (1.0 - a) * b * t(x0, y1)
                        + a * b * t(x1, y1)
                } else {
                    t(xn, yn)
                };
                let got = f64::from(f32::from_bits(w.vr(c, l)));
                assert!((got - want).abs() < 1e-5, "mode {mode} lane {l} component {c}: {got} vs {want}");
            }
        }
    }
    // image_store v[0:3], [v4, v5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D: lane l writes texel (l % 8, l / 8).
    let store = [0x01, 0x80, 0xc1, 0xd3, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00];
    run("gfx1201", &store, &mem, &t, &[0; 4], |w| {
        for l in 0..32 {
            w.set_vr(4, l, (l % 8) as u32);
            w.set_vr(5, l, (l / 8) as u32);
            for c in 0..4 {
                w.set_vr(c, l, ((l * 4 + c) as f32 / 127.0).to_bits());
            }
        }
    });
    let pitch = linear_pitch(W, 4) as usize;
    let q = |l: usize, c: usize| ((((l * 4 + c) as f64 / 127.0).min(1.0)) * 255.0).round();
    for l in 0..32usize {
        let got = mem.get(BASE + (((l / 8) * pitch + l % 8) * 4) as u64, 4).unwrap();
        assert_eq!(got, (0..4).map(|c| q(l, c) as u8).collect::<Vec<_>>(), "lane {l}");
    }
    // image_load v[0:3], [v4, v5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D reads them back.
    let load = [0x01, 0x00, 0xc0, 0xd3, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00];
    let w = run("gfx1201", &load, &mem, &t, &[0; 4], |w| {
        for l in 0..32 {
            w.set_vr(4, l, (l % 8) as u32);
            w.set_vr(5, l, (l / 8) as u32);
        }
    });
    for l in 0..32usize {
        for c in 0..4 {
            assert_eq!(f32::from_bits(w.vr(c, l)), (q(l, c) / 255.0) as f32, "lane {l} component {c}");
        }
    }
    // image_get_resinfo v[0:3], v4, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
    let resinfo = [0x01, 0xc0, 0xc5, 0xd3, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00];
    let w = run("gfx1201", &resinfo, &mem, &t, &[0; 4], |w| w.set_vr(4, 0, 0));
    assert_eq!((0..4).map(|c| w.vr(c, 0)).collect::<Vec<_>>(), [W, H, 1, 1]);
}
