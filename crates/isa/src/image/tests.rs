//! Descriptor bits against AMD's layouts and instruction fields against LLVM's assembler.
//!
//! Expected T#/S# words are assembled by hand from the field positions and widths of ROCr's
//! `resource_ai.h` (gfx9), `resource_nv.h` (gfx10), `resource_gfx11.h` (gfx11) and `resource_gfx12.h` (gfx12),
//! and the combined format
//! numbers from their `CFMT_*` enums; instruction bytes are `llvm-mc-21 -show-encoding` output.

use super::*;
use crate::decode::{decode, image_address as address, Inst, VGPR0};
use crate::op::Op;
use crate::target::Target;

fn target(name: &str) -> &'static Target {
    crate::target::TARGETS.iter().find(|t| t.name == name).expect("target")
}

const BASE: u64 = 0x7f12_3456_7800;

fn r8_uint_2d(pitch: u32) -> Rsrc {
    Rsrc {
        base: BASE,
        dfmt: dfmt::F8,
        nfmt: nfmt::UINT,
        width: 1024,
        height: 1024,
        depth: 1,
        pitch,
        ty: ty::IMG_2D,
        sel: [4, 0, 0, 1],
        last_level: 0,
    }
}

#[test]
fn gfx11_image_descriptor_matches_amd_field_positions() {
    let t = r8_uint_2d(1024).encode(Family::Gfx11).unwrap();
    // BASE_ADDRESS = addr[39:8]; BASE_ADDRESS_HI(8) | FORMAT(8) at 20 = CFMT_8_UINT (5) | WIDTH[1:0] at 30.
    assert_eq!(t[0], 0x1234_5678);
    assert_eq!(t[1], 0x7f | (5 << 20) | (3 << 30));
    // WIDTH_HI(12) = (1024-1)>>2, HEIGHT(14) at 14 = 1023.
    assert_eq!(t[2], 255 | (1023 << 14));
    // DST_SEL X,0,0,1 and TYPE SQ_RSRC_IMG_2D (9) at 28.
    assert_eq!(t[3], 4 | (1 << 9) | (9 << 28));
    // PITCH(14) - 1 for a linear 2D image.
    assert_eq!(t[4], 1023);
    assert_eq!(Rsrc::decode(Family::Gfx11, &t), Some(r8_uint_2d(1024)));
}

#[test]
fn gfx12_image_descriptor_matches_amd_field_positions() {
    let r = Rsrc { width: 40000, height: 50000, pitch: 40960, last_level: 0, ..r8_uint_2d(0) };
    let t = r.encode(Family::Gfx12).unwrap();
    assert_eq!(t[0], 0x1234_5678);
    // BASE_ADDRESS_HI(8), 4 reserved, MAX_MIP(5) at 12, FORMAT(8) at 17 = CFMT_8_UINT (5), BASE_LEVEL(5) at
    // 25, WIDTH[1:0] at 30.
    assert_eq!(t[1], 0x7f | (5 << 17) | ((39999 & 3) << 30));
    // WIDTH_HI(14) = (40000-1)>>2, HEIGHT(16) at 14 = 49999.
    assert_eq!(t[2], (39999 >> 2) | (49999 << 14));
    // DST_SEL X,0,0,1, NO_EDGE_CLAMP at 12, LAST_LEVEL(5) at 15, SW_MODE(5) at 20, TYPE SQ_RSRC_IMG_2D at 28.
    assert_eq!(t[3], 4 | (1 << 9) | (9 << 28));
    // DEPTH(14) | PITCH_MSB(2) at 14 = pitch - 1 for a linear 2D image.
    assert_eq!(t[4], 40959);
    assert_eq!(Rsrc::decode(Family::Gfx12, &t), Some(r));
    // A 2D array: DEPTH = layers - 1, and LAST_LEVEL's 5 bits start at 15 (gfx11: 4 bits at 16).
    let a = Rsrc { ty: ty::IMG_2D_ARRAY, depth: 7, last_level: 17, pitch: 1024, ..r8_uint_2d(1024) };
    let t = a.encode(Family::Gfx12).unwrap();
    assert_eq!((t[3] >> 15) & 0x1f, 17);
    assert_eq!(t[4], 6);
    assert_eq!(Rsrc::decode(Family::Gfx12, &t), Some(a));
}

#[test]
fn gfx9_image_descriptor_matches_amd_field_positions() {
    let t = r8_uint_2d(1024).encode(Family::Gfx9).unwrap();
    assert_eq!(t[0], 0x1234_5678);
    // DATA_FORMAT(6) at 20 = IMG_DATA_FORMAT_8 (1), NUM_FORMAT(4) at 26 = UINT (4).
    assert_eq!(t[1], 0x7f | (1 << 20) | (4 << 26));
    assert_eq!(t[2], 1023 | (1023 << 14));
    assert_eq!(t[3], 4 | (1 << 9) | (9 << 28));
    // DEPTH(13) = 0, PITCH(16) at 13 = 1023.
    assert_eq!(t[4], 1023 << 13);
    assert_eq!(Rsrc::decode(Family::Gfx9, &t), Some(r8_uint_2d(1024)));
}

#[test]
fn combined_formats_are_amds_numbers() {
    let g11 = |d, n| combined(Family::Gfx11, d, n);
    let g10 = |d, n| combined(Family::Gfx10, d, n);
    assert_eq!(g11(dfmt::F8, nfmt::UNORM), Some(1));
    assert_eq!(g11(dfmt::F16, nfmt::FLOAT), Some(13));
    assert_eq!(g11(dfmt::F8_8, nfmt::SINT), Some(19));
    assert_eq!(g11(dfmt::F32, nfmt::FLOAT), Some(22));
    assert_eq!(g11(dfmt::F16_16, nfmt::FLOAT), Some(29));
    assert_eq!(g11(dfmt::F8_8_8_8, nfmt::UNORM), Some(42));
    assert_eq!(g11(dfmt::F8_8_8_8, nfmt::SINT), Some(47));
    assert_eq!(g11(dfmt::F32_32, nfmt::FLOAT), Some(50));
    assert_eq!(g11(dfmt::F16_16_16_16, nfmt::FLOAT), Some(57));
    assert_eq!(g11(dfmt::F32_32_32, nfmt::UINT), Some(58));
    assert_eq!(g11(dfmt::F32_32_32_32, nfmt::FLOAT), Some(63));
    assert_eq!(g10(dfmt::F8_8_8_8, nfmt::UNORM), Some(56));
    assert_eq!(g10(dfmt::F8_8_8_8, nfmt::UINT), Some(60));
    assert_eq!(g10(dfmt::F32_32, nfmt::UINT), Some(62));
    assert_eq!(g10(dfmt::F16_16_16_16, nfmt::FLOAT), Some(71));
    assert_eq!(g10(dfmt::F32_32_32_32, nfmt::FLOAT), Some(77));
    assert_eq!(g11(dfmt::F8, nfmt::FLOAT), None, "no 8-bit float");
    assert_eq!(g11(dfmt::F32, nfmt::UNORM), None, "no 32-bit unorm");
    // gfx12 keeps gfx11's CFMT numbers (resource_gfx12.h).
    assert_eq!(combined(Family::Gfx12, dfmt::F8_8_8_8, nfmt::UNORM), Some(42));
    assert_eq!(combined(Family::Gfx12, dfmt::F32_32_32_32, nfmt::FLOAT), Some(63));
    for fam in [Family::Gfx10, Family::Gfx11, Family::Gfx12] {
        for c in 1..=80 {
            if let Some((d, n)) = split_combined(fam, c) {
                assert_eq!(combined(fam, d, n), Some(c));
            }
        }
    }
}

#[test]
fn sampler_descriptor_matches_amd_field_positions() {
    let s = Sampler { clamp: [clamp::WRAP; 3], unnormalized: false, linear: false, border: 0 };
    // MAX_LOD(12) at 12 = 4095, everything else 0 (ROCr's PopulateSamplerSrd).
    assert_eq!(s.encode(), [0, 4095 << 12, 0, 0]);
    let s = Sampler { clamp: [clamp::CLAMP_LAST_TEXEL; 3], unnormalized: true, linear: true, border: 0 };
    // CLAMP_X/Y/Z (3 bits each), FORCE_UNNORMALIZED at 15; XY_MAG_FILTER at 20, XY_MIN_FILTER at 22.
    assert_eq!(s.encode(), [2 | (2 << 3) | (2 << 6) | (1 << 15), 4095 << 12, (1 << 20) | (1 << 22), 0]);
    assert_eq!(Sampler::decode(&s.encode()), s);
}

#[test]
fn linear_pitch_aligns_rows_to_256_bytes() {
    assert_eq!(linear_pitch(1024, 1), 1024);
    assert_eq!(linear_pitch(100, 1), 256);
    assert_eq!(linear_pitch(100, 4), 128);
    assert_eq!(linear_pitch(17, 16), 32);
}

fn dec(t: &str, bytes: &[u8]) -> Inst {
    decode(target(t), bytes).unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn mimg_fields_decode_as_llvm_encodes_them() {
    // image_sample_lz v[0:3], [v4, v7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D (gfx1100)
    let i = dec("gfx1100", &[0x05, 0x0f, 0x7c, 0xf0, 0x04, 0x00, 0x00, 0x08, 0x07, 0x00, 0x00, 0x00]);
    assert_eq!((i.name, i.size, i.dst, i.src[2], i.sdst), ("image_sample_lz", 12, VGPR0, 0, 8));
    assert_eq!((address(&i, 0), address(&i, 1)), (VGPR0 + 4, VGPR0 + 7));
    assert_eq!(i.imm & bits::DMASK, 0xf);
    assert_eq!((i.imm >> bits::DIM_SHIFT) & 7, 1);
    // image_sample_lz v0, v4, s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 d16 (gfx1100)
    let i = dec("gfx1100", &[0x04, 0x01, 0x7f, 0xf0, 0x04, 0x00, 0x00, 0x08]);
    assert_eq!(i.imm & (bits::A16 | bits::D16), bits::A16 | bits::D16);
    // image_store v[0:3], v[4:5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm (gfx1100)
    let i = dec("gfx1100", &[0x84, 0x0f, 0x18, 0xf0, 0x04, 0x00, 0x00, 0x00]);
    assert_eq!((i.op, i.src[1], i.imm & bits::UNORM != 0), (Op::Image(ImageOp::Store { mip: false }), VGPR0, true));
    // image_get_resinfo v[0:3], v4, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm (gfx1100)
    assert_eq!(dec("gfx1100", &[0x84, 0x0f, 0x5c, 0xf0, 0x04, 0x00, 0x00, 0x00]).name, "image_get_resinfo");
    // image_sample_l v[0:3], v[4:6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D (gfx1100)
    assert_eq!(dec("gfx1100", &[0x04, 0x0f, 0x74, 0xf0, 0x04, 0x00, 0x00, 0x08]).name, "image_sample_l");
    // image_sample_lz v[0:3], [v4, v7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D (gfx1030)
    let i = dec("gfx1030", &[0x0a, 0x0f, 0x9c, 0xf0, 0x04, 0x00, 0x40, 0x00, 0x07, 0x00, 0x00, 0x00]);
    assert_eq!((i.name, i.size, i.sdst, address(&i, 1)), ("image_sample_lz", 12, 8, VGPR0 + 7));
    // image_sample_lz v0, v4, s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 d16 (gfx1030)
    let i = dec("gfx1030", &[0x08, 0x01, 0x9c, 0xf0, 0x04, 0x00, 0x40, 0xc0]);
    assert_eq!(i.imm & (bits::A16 | bits::D16), bits::A16 | bits::D16);
    // image_load_mip v[0:3], v[4:6], s[0:7] dmask:0xf unorm (gfx90a); image_sample v[0:3], v[4:5], s[0:7], s[8:11]
    let i = dec("gfx90a", &[0x00, 0x1f, 0x04, 0xf0, 0x04, 0x00, 0x00, 0x00]);
    assert_eq!((i.name, i.imm & bits::NO_DIM != 0), ("image_load_mip", true));
    let i = dec("gfx90a", &[0x00, 0x0f, 0x80, 0xf0, 0x04, 0x00, 0x40, 0x00]);
    assert_eq!((i.name, i.sdst), ("image_sample", 8));
}

#[test]
fn gfx12_vimage_and_vsample_fields_decode_as_llvm_encodes_them() {
    // image_sample v[0:3], [v4, v5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D (gfx1201)
    let i = dec("gfx1201", &[0x01, 0xc0, 0xc6, 0xe7, 0x00, 0x10, 0x00, 0x08, 0x04, 0x05, 0x00, 0x00]);
    assert_eq!((i.name, i.size, i.dst, i.src[2], i.sdst), ("image_sample", 12, VGPR0, 8, 16));
    assert_eq!((address(&i, 0), address(&i, 1)), (VGPR0 + 4, VGPR0 + 5));
    assert_eq!((i.imm & bits::DMASK, (i.imm >> bits::DIM_SHIFT) & 7), (0xf, 1));
    // image_sample_l v[0:3], [v4, v7, v9], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
    let i = dec("gfx1201", &[0x01, 0x40, 0xc7, 0xe7, 0x00, 0x00, 0x00, 0x04, 0x04, 0x07, 0x09, 0x00]);
    assert_eq!((i.op, i.src[2], i.sdst), (Op::Image(ImageOp::Sample { lod: true }), 0, 8));
    assert_eq!([0, 1, 2].map(|k| address(&i, k)), [VGPR0 + 4, VGPR0 + 7, VGPR0 + 9]);
    // image_sample_lz v0, v4, s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D a16 d16
    let i = dec("gfx1201", &[0x61, 0xc0, 0x47, 0xe4, 0x00, 0x00, 0x00, 0x04, 0x04, 0x00, 0x00, 0x00]);
    assert_eq!((i.name, i.imm & (bits::A16 | bits::D16 | bits::DMASK)), ("image_sample_lz", bits::A16 | bits::D16 | 1));
    // ... unorm (VSAMPLE bit 13)
    let i = dec("gfx1201", &[0x01, 0xe0, 0xc6, 0xe7, 0x00, 0x10, 0x00, 0x08, 0x04, 0x05, 0x00, 0x00]);
    assert!(i.imm & bits::UNORM != 0);
    // image_load v[5:8], [v4, v5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    let i = dec("gfx1201", &[0x01, 0x00, 0xc0, 0xd3, 0x05, 0x10, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00]);
    assert_eq!((i.name, i.dst, i.src[2], i.sdst), ("image_load", VGPR0 + 5, 8, crate::decode::NONE));
    // image_load v[0:3], [v4, v5], s[96:103] ...: the 9-bit RSRC field is an SGPR number.
    let i = dec("gfx1201", &[0x01, 0x00, 0xc0, 0xd3, 0x00, 0xc0, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00]);
    assert_eq!(i.src[2], 96);
    // image_load_mip v[0:3], [v4, v5, v6, v7], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
    let i = dec("gfx1201", &[0x05, 0x40, 0xc0, 0xd3, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x06, 0x07]);
    assert_eq!((i.op, (i.imm >> bits::DIM_SHIFT) & 7), (Op::Image(ImageOp::Load { mip: true }), 5));
    assert_eq!([0, 1, 2, 3].map(|k| address(&i, k)), [VGPR0 + 4, VGPR0 + 5, VGPR0 + 6, VGPR0 + 7]);
    // image_store v[0:3], [v4, v5], s[8:15] and image_store_mip, image_get_resinfo v[0:3], v4, s[8:15]
    let op =
        |b: [u8; 4]| dec("gfx1201", &[b[0], b[1], b[2], b[3], 0x00, 0x10, 0x00, 0x00, 0x04, 0x05, 0x06, 0x00]).name;
    assert_eq!(op([0x01, 0x80, 0xc1, 0xd3]), "image_store");
    assert_eq!(op([0x01, 0xc0, 0xc1, 0xd3]), "image_store_mip");
    assert_eq!(op([0x01, 0xc0, 0xc5, 0xd3]), "image_get_resinfo");
    // tfe (VIMAGE: second dword bit 23; VSAMPLE: first dword bit 3) and lwe are not modelled: not decoded.
    assert!(
        decode(target("gfx1201"), &[0x01, 0x00, 0xc0, 0xd3, 0x00, 0x10, 0x80, 0x00, 0x04, 0x05, 0x00, 0x00]).is_err()
    );
    assert!(
        decode(target("gfx1201"), &[0x09, 0xc0, 0xc6, 0xe7, 0x00, 0x10, 0x00, 0x08, 0x04, 0x05, 0x00, 0x00]).is_err()
    );
    assert!(
        decode(target("gfx1201"), &[0x01, 0xc0, 0xc6, 0xe7, 0x00, 0x11, 0x00, 0x08, 0x04, 0x05, 0x00, 0x00]).is_err()
    );
}

/// The OpenGL/Vulkan definition of an unsigned small float (5-bit exponent, bias 15, `mb` mantissa bits),
/// written out in f64.
fn small_float_value(code: u32, mb: u32) -> f64 {
    let (e, m) = (code >> mb, f64::from(code & ((1 << mb) - 1)));
    let frac = m / f64::from(1u32 << mb);
    if e == 0 {
        frac * 2f64.powi(-14)
    } else {
        (1.0 + frac) * 2f64.powi(e as i32 - 15)
    }
}

#[test]
fn small_floats_decode_as_the_formula_says_and_encode_toward_zero() {
    for mb in [6u8, 5] {
        let m = u32::from(mb);
        let inf = 31 << m;
        for code in 0..inf {
            let v = small_float::to_f32(code, mb);
            assert_eq!(f64::from(v), small_float_value(code, m), "mb {mb} code {code:#x}");
            assert_eq!(small_float::from_f32(v, mb), code, "mb {mb} code {code:#x} round trip");
            if code + 1 < inf {
                // Halfway (and just below the next code) rounds toward zero.
                let mid = (small_float_value(code, m) + small_float_value(code + 1, m)) / 2.0;
                assert_eq!(small_float::from_f32(mid as f32, mb), code, "mb {mb} midpoint above {code:#x}");
            }
        }
        assert_eq!(small_float::to_f32(inf, mb), f32::INFINITY);
        assert!(small_float::to_f32(inf | 1, mb).is_nan());
        assert_eq!(small_float::from_f32(f32::INFINITY, mb), inf);
        assert_eq!(small_float::from_f32(f32::NEG_INFINITY, mb), 0);
        assert_eq!(small_float::from_f32(-2.5, mb), 0, "no sign: negatives become 0");
        assert_eq!(small_float::from_f32(-0.0, mb), 0);
        assert_eq!(small_float::from_f32(1e30, mb), inf - 1, "finite overflow saturates");
        let nan = small_float::from_f32(f32::NAN, mb);
        assert!(nan > inf && nan < 32 << m, "NaN stays NaN: {nan:#x}");
    }
    // The largest finite values the GL specification gives: 65024 (11-bit), 64512 (10-bit).
    assert_eq!(small_float::to_f32(0x7bf, 6), 65024.0);
    assert_eq!(small_float::to_f32(0x3df, 5), 64512.0);
    assert_eq!(small_float::to_f32(15 << 6, 6), 1.0);
}

#[test]
fn packed_formats_place_x_in_the_low_bits() {
    let le = |w: u32| w.to_le_bytes();
    // 2_10_10_10: X bits 0..9, Y 10..19, Z 20..29, W 30..31.
    let t = le(0x3ff | (5 << 10) | (0x200 << 20) | (2 << 30));
    assert_eq!(unpack_texel(dfmt::F2_10_10_10, nfmt::UINT, &t), [0x3ff, 5, 0x200, 2]);
    assert_eq!(unpack_texel(dfmt::F2_10_10_10, nfmt::SINT, &t), [-1i32 as u32, 5, -512i32 as u32, -2i32 as u32]);
    let u = unpack_texel(dfmt::F2_10_10_10, nfmt::UNORM, &t).map(f32::from_bits);
    assert_eq!(u, [1.0, 5.0 / 1023.0, 512.0 / 1023.0, 2.0 / 3.0]);
    let s = unpack_texel(dfmt::F2_10_10_10, nfmt::SNORM, &t).map(f32::from_bits);
    assert_eq!(s, [-1.0 / 511.0, 5.0 / 511.0, -1.0, -1.0], "-512 and W = -2 clamp to -1");
    // 10_10_10_2: X bits 0..1, then three 10-bit channels.
    let t = le(3 | (7 << 2) | (0x155 << 12) | (0x3fe << 22));
    assert_eq!(unpack_texel(dfmt::F10_10_10_2, nfmt::UINT, &t), [3, 7, 0x155, 0x3fe]);
    // 10_11_11 FLOAT: X 11 bits, Y 11 bits, Z 10 bits; 11_11_10: X 10, Y 11, Z 11.
    let (one11, two11, half10) = (15 << 6, 16 << 6, 14 << 5);
    let t = le(one11 | (two11 << 11) | (half10 << 22));
    assert_eq!(unpack_texel(dfmt::F10_11_11, nfmt::FLOAT, &t).map(f32::from_bits), [1.0, 2.0, 0.5, 0.0]);
    let t = le(half10 | (one11 << 10) | (two11 << 21));
    assert_eq!(unpack_texel(dfmt::F11_11_10, nfmt::FLOAT, &t).map(f32::from_bits), [0.5, 1.0, 2.0, 0.0]);
    // Packing is the inverse.
    for (df, nf) in [
        (dfmt::F2_10_10_10, nfmt::UINT),
        (dfmt::F2_10_10_10, nfmt::SNORM),
        (dfmt::F10_10_10_2, nfmt::UNORM),
        (dfmt::F10_11_11, nfmt::FLOAT),
        (dfmt::F11_11_10, nfmt::FLOAT),
    ] {
        for w in [0x1234_5678u32, 0x8765_4321, 0x3bff_7bff] {
            let vals = unpack_texel(df, nf, &le(w));
            let mut back = [0u8; 4];
            pack_texel(df, nf, &vals, &mut back);
            let again = unpack_texel(df, nf, &back);
            assert_eq!(again, vals, "df {df} nf {nf} {w:#x}");
        }
    }
    assert_eq!(texel_bytes(dfmt::F10_11_11), Some(4));
    assert_eq!(layout(dfmt::F2_10_10_10), Some((4, 32)));
}

/// The packed formats' combined numbers as `llvm-mc-21 -show-encoding` encodes `format:[BUF_FMT_*]` for
/// gfx1030 and gfx1100/gfx1201 (the same as ROCr's `CFMT_*` where ROCr lists them).
#[test]
fn packed_combined_formats_are_llvms_numbers() {
    use nfmt::*;
    let g10 = |d, n| combined(Family::Gfx10, d, n);
    assert_eq!(
        [UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT].map(|n| g10(dfmt::F10_11_11, n)),
        [30, 31, 32, 33, 34, 35, 36].map(Some)
    );
    assert_eq!(g10(dfmt::F11_11_10, UNORM), Some(37));
    assert_eq!(g10(dfmt::F11_11_10, FLOAT), Some(43));
    assert_eq!(
        [UNORM, SNORM, USCALED, SSCALED, UINT, SINT].map(|n| g10(dfmt::F10_10_10_2, n)),
        [44, 45, 46, 47, 48, 49].map(Some)
    );
    assert_eq!(
        [UNORM, SNORM, USCALED, SSCALED, UINT, SINT].map(|n| g10(dfmt::F2_10_10_10, n)),
        [50, 51, 52, 53, 54, 55].map(Some)
    );
    assert_eq!(g10(dfmt::F2_10_10_10, FLOAT), None);
    for fam in [Family::Gfx11, Family::Gfx12] {
        let g = |d, n| combined(fam, d, n);
        assert_eq!(g(dfmt::F10_11_11, FLOAT), Some(30));
        assert_eq!(g(dfmt::F11_11_10, FLOAT), Some(31));
        assert_eq!(g(dfmt::F10_11_11, UNORM), None, "gfx11 has only the float 10/11-bit formats");
        assert_eq!([UNORM, SNORM, UINT, SINT].map(|n| g(dfmt::F10_10_10_2, n)), [32, 33, 34, 35].map(Some));
        assert_eq!(g(dfmt::F10_10_10_2, USCALED), None);
        assert_eq!(
            [UNORM, SNORM, USCALED, SSCALED, UINT, SINT].map(|n| g(dfmt::F2_10_10_10, n)),
            [36, 37, 38, 39, 40, 41].map(Some)
        );
        assert_eq!(split_combined(fam, 41), Some((dfmt::F2_10_10_10, SINT)));
        assert_eq!(split_combined(fam, 42), Some((dfmt::F8_8_8_8, UNORM)));
    }
    assert_eq!(split_combined(Family::Gfx10, 36), Some((dfmt::F10_11_11, FLOAT)));
}
