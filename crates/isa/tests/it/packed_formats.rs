//! The packed buffer formats (`10_11_11`, `11_11_10` FLOAT; `10_10_10_2`, `2_10_10_10` integer and
//! normalized) through `tbuffer_*` and `buffer_load_format_*`. The instructions' formats are assembled by
//! llvm-mc-21 from their names, so the format numbers are LLVM's; the V# word-3 numbers are the same
//! numbers as llvm-mc encodes them. Texels are built here with host shifts (X in the low bits, as the ISA
//! guides' buffer format tables and ROCr's address library lay them out) and the expected values come from
//! the host: integers as numbers, UNORM `u / (2^b - 1)`, SNORM `max(s / (2^(b-1) - 1), -1)`, and the
//! unsigned small floats from the OpenGL/Vulkan formula (5-bit exponent, bias 15, 6 or 5 mantissa bits).

use crate::buffer_format::{check, run, word3, Fmt, RGBA32_UINT, TARGETS, XYZW};

/// `format:[...]` on `mcpu` of a packed format (gfx9 data format, numeric format; gfx10+ unified name).
fn format(mcpu: &str, df: &str, nf: &str) -> String {
    if mcpu.starts_with("gfx9") {
        format!("format:[BUF_DATA_FORMAT_{df},BUF_NUM_FORMAT_{nf}]")
    } else {
        format!("format:[BUF_FMT_{df}_{nf}]")
    }
}

/// Lane l's texel dword: distinct fields, every bit pattern of the 2-bit channels, no small-float
/// infinities or NaNs (exponent below 31 in every 10/11-bit field; see `small_float_texel`).
fn word(l: usize) -> u32 {
    (l as u32).wrapping_mul(0x9e37_79b9) ^ 0x0123_4567
}

fn bytes_of(words: impl Iterator<Item = u32>) -> Vec<u8> {
    words.flat_map(u32::to_le_bytes).collect()
}

/// Fields of `w`, `widths` from bit 0.
fn fields(w: u32, widths: [u32; 4]) -> [u32; 4] {
    let mut at = 0;
    widths.map(|b| {
        let v = if b == 0 { 0 } else { (w >> at) & ((1u32 << b) - 1) };
        at += b;
        v
    })
}

fn small_float(code: u32, mb: u32) -> f32 {
    let (e, m) = (code >> mb, f64::from(code & ((1 << mb) - 1)) / f64::from(1u32 << mb));
    assert!(e < 31, "test data without infinities and NaNs");
    (if e == 0 { m * 2f64.powi(-14) } else { (1.0 + m) * 2f64.powi(e as i32 - 15) }) as f32
}

/// A small-float texel of `widths`: each field's exponent kept below 31.
fn small_float_texel(l: usize, widths: [u32; 4]) -> u32 {
    let mut at = 0;
    let mut w = word(l);
    for b in widths.into_iter().filter(|&b| b != 0) {
        w &= !(1 << (at + b - 1));
        at += b;
    }
    w
}

fn signed(v: u32, b: u32) -> i32 {
    ((v << (32 - b)) as i32) >> (32 - b)
}

#[test]
fn tbuffer_load_format_unpacks_the_2_10_10_10_and_10_10_10_2_formats() {
    for (mcpu, lanes) in TARGETS {
        let n = lanes as usize;
        let data = bytes_of((0..n).map(word));
        let w3 = word3(mcpu, RGBA32_UINT, XYZW);
        let load = |df: &str, nf: &str| {
            let f = format(mcpu, df, nf);
            run(
                mcpu,
                lanes,
                w3,
                4,
                64,
                &format!("tbuffer_load_format_xyzw v[10:13], v0, s[8:11], {{s}} {f} idxen"),
                &data,
            )
        };
        let w = [10, 10, 10, 2];
        check("2_10_10_10 uint", mcpu, lanes, &load("2_10_10_10", "UINT"), |l| fields(word(l), w), 4);
        check(
            "2_10_10_10 sint",
            mcpu,
            lanes,
            &load("2_10_10_10", "SINT"),
            |l| {
                let f = fields(word(l), w);
                [0, 1, 2, 3].map(|c| signed(f[c], w[c]) as u32)
            },
            4,
        );
        check(
            "2_10_10_10 unorm",
            mcpu,
            lanes,
            &load("2_10_10_10", "UNORM"),
            |l| {
                let f = fields(word(l), w);
                [0, 1, 2, 3].map(|c| (f[c] as f32 / ((1u32 << w[c]) - 1) as f32).to_bits())
            },
            4,
        );
        check(
            "2_10_10_10 snorm",
            mcpu,
            lanes,
            &load("2_10_10_10", "SNORM"),
            |l| {
                let f = fields(word(l), w);
                [0, 1, 2, 3]
                    .map(|c| (signed(f[c], w[c]) as f32 / ((1u32 << (w[c] - 1)) - 1) as f32).max(-1.0).to_bits())
            },
            4,
        );
        let w = [2, 10, 10, 10];
        check("10_10_10_2 uint", mcpu, lanes, &load("10_10_10_2", "UINT"), |l| fields(word(l), w), 4);
        check(
            "10_10_10_2 unorm",
            mcpu,
            lanes,
            &load("10_10_10_2", "UNORM"),
            |l| {
                let f = fields(word(l), w);
                [0, 1, 2, 3].map(|c| (f[c] as f32 / ((1u32 << w[c]) - 1) as f32).to_bits())
            },
            4,
        );
    }
}

#[test]
fn tbuffer_load_format_decodes_the_10_and_11_bit_floats() {
    for (mcpu, lanes) in TARGETS {
        let n = lanes as usize;
        let w3 = word3(mcpu, RGBA32_UINT, XYZW);
        for (df, w) in [("10_11_11", [11, 11, 10, 0]), ("11_11_10", [10, 11, 11, 0])] {
            let data = bytes_of((0..n).map(|l| small_float_texel(l, w)));
            let f = format(mcpu, df, "FLOAT");
            let insn = format!("tbuffer_load_format_xyzw v[10:13], v0, s[8:11], {{s}} {f} idxen");
            let got = run(mcpu, lanes, w3, 4, 64, &insn, &data);
            check(
                df,
                mcpu,
                lanes,
                &got,
                |l| {
                    let f = fields(small_float_texel(l, w), w);
                    let x = [0, 1, 2].map(|c| small_float(f[c], w[c] - 5).to_bits());
                    [x[0], x[1], x[2], 1.0f32.to_bits()]
                },
                4,
            );
        }
    }
}

#[test]
fn tbuffer_store_format_packs_2_10_10_10_and_10_11_11() {
    for (mcpu, lanes) in TARGETS {
        // Lane l stores (l, l + 512, 1023 - l, l & 3) as 2_10_10_10 UINT, then (1.0, 2.5, 0.375) as
        // 10_11_11 FLOAT 256 bytes further; the dwords are read back raw.
        let f_uint = format(mcpu, "2_10_10_10", "UINT");
        let f_float = format(mcpu, "10_11_11", "FLOAT");
        let store = format!(
            "v_mov_b32 v10, v0
            v_add_nc_u32 v11, 0x200, v0
            v_sub_nc_u32 v12, 0x3ff, v0
            v_and_b32 v13, 3, v0
            tbuffer_store_format_xyzw v[10:13], v0, s[8:11], {{s}} {f_uint} idxen
            v_mov_b32 v10, 1.0
            v_mov_b32 v11, 0x40200000
            v_mov_b32 v12, 0x3ec00000
            tbuffer_store_format_xyz v[10:12], v0, s[8:11], {{s}} {f_float} idxen offset:256
            s_waitcnt vmcnt(0)
            global_load_dword v10, v100, s[6:7]
            global_load_dword v11, v100, s[6:7] offset:256"
        );
        let store = if mcpu.starts_with("gfx9") {
            store.replace("v_add_nc_u32", "v_add_u32").replace("v_sub_nc_u32", "v_sub_u32")
        } else {
            store
        };
        let zeros = vec![0u8; 512];
        let got = run(mcpu, lanes, word3(mcpu, RGBA32_UINT, XYZW), 4, 128, &store, &zeros);
        // 1.0 = exponent 15; 2.5 = 1.25 * 2^1: exponent 16, mantissa 16/64; 0.375 = 1.5 * 2^-2: exponent
        // 13, mantissa 16/32 (10-bit).
        let packed_float = (15 << 6) | (((16 << 6) | 16) << 11) | (((13 << 5) | 16) << 22);
        check(
            "packed stores",
            mcpu,
            lanes,
            &got,
            |l| {
                let l = l as u32;
                [l | ((l + 512) << 10) | ((1023 - l) << 20) | ((l & 3) << 30), packed_float, 0, 0]
            },
            2,
        );
    }
}

/// `2_10_10_10` UINT in V# word 3: gfx9 (9, 4), gfx10 54, gfx11/gfx12 40 (llvm-mc's numbers for
/// `format:[BUF_FMT_2_10_10_10_UINT]`).
const RGB10A2_UINT: Fmt = Fmt(9, 4, 54, 40);

#[test]
fn buffer_load_format_reads_a_packed_resource_format() {
    for (mcpu, lanes) in TARGETS {
        let n = lanes as usize;
        let data = bytes_of((0..n).map(word));
        let got = run(
            mcpu,
            lanes,
            word3(mcpu, RGB10A2_UINT, XYZW),
            4,
            64,
            "buffer_load_format_xyzw v[10:13], v0, s[8:11], {s} idxen",
            &data,
        );
        check("V# 2_10_10_10 uint", mcpu, lanes, &got, |l| fields(word(l), [10, 10, 10, 2]), 4);
    }
}
