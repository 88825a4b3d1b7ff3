//! `buffer_load_format_*`/`buffer_store_format_*` (what HIP's `tex1Dfetch` on a 1D buffer image compiles
//! to): the texel format comes from the V#'s word 3, laid out per family. The word-3 numbers here are
//! LLVM's: gfx9 `BUF_DATA_FORMAT_*` (bits 15..18) and `BUF_NUM_FORMAT_*` (bits 12..14); gfx10 and gfx11/gfx12
//! the unified `BUF_FMT_*` numbers (bits 12..18 / 12..17), read off `llvm-mc-21 -show-encoding` of
//! `tbuffer_load_format_x ... format:[BUF_FMT_*]` for gfx1030, gfx1100 and gfx1201. The expected values are
//! the host's conversions of the stored bytes (UNORM b/255, SNORM max(s/127, -1), f16 decoded by hand,
//! scaled and integer channels as numbers), with the missing channels of a short texel read as 0, 0, 0, 1.

use crate::classes::run_body;

/// A format as (gfx9 DATA_FORMAT, gfx9 NUM_FORMAT, gfx10 BUF_FMT, gfx11/gfx12 BUF_FMT).
#[derive(Clone, Copy)]
pub(crate) struct Fmt(pub u32, pub u32, pub u32, pub u32);

pub(crate) const RGBA8_UNORM: Fmt = Fmt(10, 0, 56, 42);
pub(crate) const RGBA8_UINT: Fmt = Fmt(10, 4, 60, 46);
const R8_SNORM: Fmt = Fmt(1, 1, 2, 2);
const R16_FLOAT: Fmt = Fmt(2, 7, 13, 13);
const RG16_FLOAT: Fmt = Fmt(5, 7, 29, 29);
const R32_FLOAT: Fmt = Fmt(4, 7, 22, 22);
const R16_UINT: Fmt = Fmt(2, 4, 11, 11);
const R16_SINT: Fmt = Fmt(2, 5, 12, 12);
pub(crate) const RGBA32_UINT: Fmt = Fmt(14, 4, 75, 61);
const RG8_USCALED: Fmt = Fmt(3, 2, 16, 16);
const RG8_SSCALED: Fmt = Fmt(3, 3, 17, 17);

pub(crate) const XYZW: [u32; 4] = [4, 5, 6, 7];

/// V# word 3 of `f` on `mcpu` with DST_SEL `sel`.
pub(crate) fn word3(mcpu: &str, f: Fmt, sel: [u32; 4]) -> u32 {
    let sel = sel[0] | (sel[1] << 3) | (sel[2] << 6) | (sel[3] << 9);
    if mcpu.starts_with("gfx9") {
        sel | (f.1 << 12) | (f.0 << 15)
    } else if mcpu.starts_with("gfx10") {
        // RESOURCE_LEVEL = 1, as ROCr writes it.
        sel | (f.2 << 12) | (1 << 24)
    } else {
        sel | (f.3 << 12)
    }
}

/// The targets and their wave sizes.
pub(crate) const TARGETS: [(&str, u32); 4] = [("gfx90a", 64), ("gfx1030", 32), ("gfx1100", 32), ("gfx1201", 32)];

/// Runs `insn` (its `{d}` = v[10:13], `{s}` = soffset spelling) against a V# over the data (`stride`
/// bytes a record, `records` records, word 3 `w3`) with lane l at index l; returns v10..v13 per lane.
pub(crate) fn run(
    mcpu: &str,
    lanes: u32,
    w3: u32,
    stride: u32,
    records: u32,
    insn: &str,
    data: &[u8],
) -> Vec<Vec<u32>> {
    let soff = if mcpu.starts_with("gfx12") { "null" } else { "0" };
    let body = format!(
        "s_mov_b32 s8, s6
        s_and_b32 s9, s7, 0xffff
        s_or_b32 s9, s9, {stride_bits:#x}
        s_mov_b32 s10, {records}
        s_mov_b32 s11, {w3:#x}
        v_mov_b32 v10, 0x5555aaaa
        v_mov_b32 v11, 0x5555aaaa
        v_mov_b32 v12, 0x5555aaaa
        v_mov_b32 v13, 0x5555aaaa
        {insn}
        s_waitcnt vmcnt(0)
        v_mov_b32 v1, v10
        v_mov_b32 v2, v11
        v_mov_b32 v3, v12
        v_mov_b32 v4, v13",
        stride_bits = stride << 16,
        insn = insn.replace("{s}", soff),
    );
    run_body(mcpu, lanes, &body, 4, data).unwrap_or_default()
}

pub(crate) fn f16(h: u16) -> f32 {
    let (s, e, m) = (h >> 15, (h >> 10) & 0x1f, f32::from(h & 0x3ff));
    assert!(e != 31, "test data without infinities and NaNs");
    let mag = match e {
        0 => m * 2f32.powi(-24),
        _ => (1.0 + m / 1024.0) * 2f32.powi(i32::from(e) - 15),
    };
    if s == 1 {
        -mag
    } else {
        mag
    }
}

/// Bytes `k` of texel `l`: distinct, covering negative and large values.
pub(crate) fn byte(l: usize, k: usize) -> u8 {
    (l * 37 + k * 101 + 3) as u8
}

pub(crate) fn texels(bytes: usize, n: usize) -> Vec<u8> {
    (0..n).flat_map(|l| (0..bytes).map(move |k| byte(l, k))).collect()
}

/// Texels of f16 channels without infinities and NaNs (exponent bit 14 clear), whose conversions are
/// exact both ways.
pub(crate) fn half_texels(bytes: usize, n: usize) -> Vec<u8> {
    (0..n).flat_map(|l| (0..bytes).map(move |k| half_byte(l, k))).collect()
}

pub(crate) fn half_byte(l: usize, k: usize) -> u8 {
    byte(l, k) & if k % 2 == 1 { 0xbf } else { 0xff }
}

fn one() -> u32 {
    1.0f32.to_bits()
}

pub(crate) fn check(
    what: &str,
    mcpu: &str,
    lanes: u32,
    got: &[Vec<u32>],
    want: impl Fn(usize) -> [u32; 4],
    comps: usize,
) {
    if got.is_empty() {
        return;
    }
    for l in 0..lanes as usize {
        for c in 0..comps {
            assert_eq!(
                got[c][l],
                want(l)[c],
                "{mcpu} {what} lane {l} component {c}: {:#x} ({}), expected {:#x} ({})",
                got[c][l],
                f32::from_bits(got[c][l]),
                want(l)[c],
                f32::from_bits(want(l)[c])
            );
        }
    }
}

const LOAD4: &str = "buffer_load_format_xyzw v[10:13], v0, s[8:11], {s} idxen";

#[test]
fn buffer_load_format_converts_normalized_float_and_integer_texels_on_every_family() {
    for (mcpu, lanes) in TARGETS {
        let n = lanes as usize;
        let d = texels(4, n);
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, XYZW), 4, 64, LOAD4, &d);
        check(
            "8_8_8_8 unorm",
            mcpu,
            lanes,
            &got,
            |l| [0, 1, 2, 3].map(|k| (f32::from(byte(l, k)) / 255.0).to_bits()),
            4,
        );
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UINT, XYZW), 4, 64, LOAD4, &d);
        check("8_8_8_8 uint", mcpu, lanes, &got, |l| [0, 1, 2, 3].map(|k| u32::from(byte(l, k))), 4);
        let d1 = texels(1, n);
        let got = run(mcpu, lanes, word3(mcpu, R8_SNORM, XYZW), 1, 64, LOAD4, &d1);
        check(
            "8 snorm",
            mcpu,
            lanes,
            &got,
            |l| [(f32::from(byte(l, 0) as i8) / 127.0).max(-1.0).to_bits(), 0, 0, one()],
            4,
        );
        let got = run(mcpu, lanes, word3(mcpu, RG16_FLOAT, XYZW), 4, 64, LOAD4, &half_texels(4, n));
        let hf = |l: usize, c: usize| u16::from_le_bytes([half_byte(l, 2 * c), half_byte(l, 2 * c + 1)]);
        check("16_16 float", mcpu, lanes, &got, |l| [f16(hf(l, 0)).to_bits(), f16(hf(l, 1)).to_bits(), 0, one()], 4);
        let h = |l: usize, c: usize| u16::from_le_bytes([byte(l, 2 * c), byte(l, 2 * c + 1)]);
        let got = run(mcpu, lanes, word3(mcpu, R32_FLOAT, XYZW), 4, 64, LOAD4, &d);
        let word = |l: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| byte(l, k)));
        check("32 float", mcpu, lanes, &got, |l| [word(l), 0, 0, one()], 4);
        let d2 = texels(2, n);
        let got = run(mcpu, lanes, word3(mcpu, R16_UINT, XYZW), 2, 64, LOAD4, &d2);
        check("16 uint", mcpu, lanes, &got, |l| [u32::from(h(l, 0)), 0, 0, 1], 4);
        let got = run(mcpu, lanes, word3(mcpu, R16_SINT, XYZW), 2, 64, LOAD4, &d2);
        check("16 sint", mcpu, lanes, &got, |l| [h(l, 0) as i16 as i32 as u32, 0, 0, 1], 4);
        let d16 = texels(16, n);
        let got = run(mcpu, lanes, word3(mcpu, RGBA32_UINT, XYZW), 16, 64, LOAD4, &d16);
        let dw = |l: usize, c: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| byte(l, 4 * c + k)));
        check("32_32_32_32 uint", mcpu, lanes, &got, |l| [0, 1, 2, 3].map(|c| dw(l, c)), 4);
        let got = run(mcpu, lanes, word3(mcpu, RG8_USCALED, XYZW), 2, 64, LOAD4, &d2);
        check(
            "8_8 uscaled",
            mcpu,
            lanes,
            &got,
            |l| [f32::from(byte(l, 0)).to_bits(), f32::from(byte(l, 1)).to_bits(), 0, one()],
            4,
        );
        let got = run(mcpu, lanes, word3(mcpu, RG8_SSCALED, XYZW), 2, 64, LOAD4, &d2);
        check(
            "8_8 sscaled",
            mcpu,
            lanes,
            &got,
            |l| [f32::from(byte(l, 0) as i8).to_bits(), f32::from(byte(l, 1) as i8).to_bits(), 0, one()],
            4,
        );
    }
}

#[test]
fn buffer_load_format_applies_dst_sel_fewer_components_and_the_range_check() {
    for (mcpu, lanes) in TARGETS {
        let d = texels(4, lanes as usize);
        let norm = |l: usize, k: usize| (f32::from(byte(l, k)) / 255.0).to_bits();
        // BGRA as ROCr swizzles it: X <- Z, Z <- X.
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, [6, 5, 4, 7]), 4, 64, LOAD4, &d);
        check("bgra dst_sel", mcpu, lanes, &got, |l| [norm(l, 2), norm(l, 1), norm(l, 0), norm(l, 3)], 4);
        // SEL_0 and SEL_1.
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, [4, 0, 1, 5]), 4, 64, LOAD4, &d);
        check("sel 0 and 1", mcpu, lanes, &got, |l| [norm(l, 0), 0, one(), norm(l, 1)], 4);
        // `_xy` writes two VGPRs and leaves the next ones alone.
        let insn = "buffer_load_format_xy v[10:11], v0, s[8:11], {s} idxen";
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, XYZW), 4, 64, insn, &d);
        check("xy", mcpu, lanes, &got, |l| [norm(l, 0), norm(l, 1), 0x5555aaaa, 0x5555aaaa], 4);
        // Indices at or past NUM_RECORDS read zeros (W too).
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, XYZW), 4, 20, LOAD4, &d);
        check("range", mcpu, lanes, &got, |l| if l < 20 { [0, 1, 2, 3].map(|k| norm(l, k)) } else { [0; 4] }, 4);
    }
}

#[test]
fn buffer_load_format_d16_packs_16_bit_results() {
    for (mcpu, lanes) in TARGETS {
        let gfx9 = mcpu.starts_with("gfx9");
        // gfx9 and gfx10 spell `_format_d16_`, gfx11+ `_d16_format_`.
        let old_names = gfx9 || mcpu.starts_with("gfx10");
        let d = texels(4, lanes as usize);
        let h = |l: usize, c: usize| u32::from(u16::from_le_bytes([half_byte(l, 2 * c), half_byte(l, 2 * c + 1)]));
        let insn = if old_names {
            "buffer_load_format_d16_xy v10, v0, s[8:11], {s} idxen"
        } else {
            "buffer_load_d16_format_xy v10, v0, s[8:11], {s} idxen"
        };
        let got = run(mcpu, lanes, word3(mcpu, RG16_FLOAT, XYZW), 4, 64, insn, &half_texels(4, lanes as usize));
        check("d16 xy f16", mcpu, lanes, &got, |l| [h(l, 0) | (h(l, 1) << 16), 0x5555aaaa, 0, 0], 2);
        // Integer channels: the low 16 bits, two per VGPR; W of a 4-channel texel in v11's high half.
        let insn = if old_names {
            "buffer_load_format_d16_xyzw v[10:11], v0, s[8:11], {s} idxen"
        } else {
            "buffer_load_d16_format_xyzw v[10:11], v0, s[8:11], {s} idxen"
        };
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UINT, XYZW), 4, 64, insn, &d);
        let b = |l: usize, k: usize| u32::from(byte(l, k));
        check("d16 xyzw uint", mcpu, lanes, &got, |l| [b(l, 0) | (b(l, 1) << 16), b(l, 2) | (b(l, 3) << 16), 0, 0], 2);
        // `_d16_hi_x`: the high half; the low half is kept on RDNA and zeroed on gfx9 with SRAM ECC.
        let insn = if old_names {
            "buffer_load_format_d16_hi_x v10, v0, s[8:11], {s} idxen"
        } else {
            "buffer_load_d16_hi_format_x v10, v0, s[8:11], {s} idxen"
        };
        let got = run(mcpu, lanes, word3(mcpu, R16_FLOAT, XYZW), 2, 64, insn, &half_texels(2, lanes as usize));
        let low = if gfx9 { 0 } else { 0xaaaa };
        check("d16 hi f16", mcpu, lanes, &got, |l| [(h(l, 0) << 16) | low, 0, 0, 0], 1);
    }
}

#[test]
fn buffer_store_format_converts_to_the_texel_format_and_keeps_unwritten_channels() {
    for (mcpu, lanes) in TARGETS {
        // Lane l stores (l/63, -0.5, 2.0, l/7) to 8_8_8_8 unorm: rounded to nearest, clamped to [0, 1].
        let store = "v_cvt_f32_u32 v20, v0
            v_mov_b32 v21, 0x3c820821
            v_mul_f32 v10, v20, v21
            v_mov_b32 v11, -0.5
            v_mov_b32 v12, 2.0
            v_mov_b32 v21, 0x3e124925
            v_mul_f32 v13, v20, v21
            buffer_store_format_xyzw v[10:13], v0, s[8:11], {s} idxen
            buffer_store_format_x v12, v0, s[8:11], {s} idxen offset:256
            s_waitcnt vmcnt(0)
            global_load_dword v10, v100, s[6:7]
            global_load_dword v11, v100, s[6:7] offset:256";
        let data = texels(4, 128);
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UNORM, XYZW), 4, 64, store, &data);
        let unorm = |x: f32| (f64::from(x.clamp(0.0, 1.0)) * 255.0).round_ties_even() as u32;
        check(
            "store 8_8_8_8 unorm",
            mcpu,
            lanes,
            &got,
            |l| {
                let lf = l as f32;
                let x = lf * f32::from_bits(0x3c82_0821);
                let w = lf * f32::from_bits(0x3e12_4925);
                let stored = unorm(x) | (unorm(-0.5) << 8) | (unorm(2.0) << 16) | (unorm(w) << 24);
                // `_x` at offset 256 writes channel X (2.0 -> 255) and keeps Y, Z, W of texel l + 64.
                let kept = u32::from_le_bytes([0, 1, 2, 3].map(|k| byte(l + 64, k)));
                [stored, (kept & 0xffff_ff00) | 255, 0, 0]
            },
            2,
        );
    }
}
