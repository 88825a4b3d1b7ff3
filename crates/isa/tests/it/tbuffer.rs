//! `tbuffer_load_format_*`/`tbuffer_store_format_*` (MTBUF; gfx12 VBUFFER): typed buffer accesses whose
//! texel format is the instruction's, not the buffer resource's. The instructions are assembled by
//! llvm-mc-21 from their `format:[...]` spelling (gfx9 `BUF_DATA_FORMAT_*`/`BUF_NUM_FORMAT_*`, gfx10+
//! the unified `BUF_FMT_*`), so the encoding of the format field is LLVM's; each V# names another format
//! (32_32_32_32 UINT), which the instruction must override. Expected values are the host's conversions of
//! the stored bytes (UNORM b/255, f16 decoded by hand).

use crate::buffer_format::{
    byte, check, f16, half_byte, half_texels, run, texels, word3, RGBA32_UINT, RGBA8_UINT, TARGETS, XYZW,
};

/// `format:[...]` of (gfx9 data format, gfx9 numeric format, gfx10+ unified name) on `mcpu`.
fn format(mcpu: &str, dfmt: &str, nfmt: &str, unified: &str) -> String {
    if mcpu.starts_with("gfx9") {
        format!("format:[BUF_DATA_FORMAT_{dfmt},BUF_NUM_FORMAT_{nfmt}]")
    } else {
        format!("format:[BUF_FMT_{unified}]")
    }
}

#[test]
fn tbuffer_load_format_converts_in_the_instructions_format_not_the_resources() {
    for (mcpu, lanes) in TARGETS {
        let d = texels(4, lanes as usize);
        let w3 = word3(mcpu, RGBA32_UINT, XYZW);
        let f = format(mcpu, "8_8_8_8", "UNORM", "8_8_8_8_UNORM");
        let insn = format!("tbuffer_load_format_xyzw v[10:13], v0, s[8:11], {{s}} {f} idxen");
        let got = run(mcpu, lanes, w3, 4, 64, &insn, &d);
        check(
            "tbuffer 8_8_8_8 unorm",
            mcpu,
            lanes,
            &got,
            |l| [0, 1, 2, 3].map(|k| (f32::from(byte(l, k)) / 255.0).to_bits()),
            4,
        );
        // A short texel: Y and Z read 0, W integer 1; `_xyz` leaves v13 alone.
        let f = format(mcpu, "8", "UINT", "8_UINT");
        let insn = format!("tbuffer_load_format_xyz v[10:12], v0, s[8:11], {{s}} {f} idxen");
        let got = run(mcpu, lanes, w3, 1, 64, &insn, &texels(1, lanes as usize));
        check("tbuffer 8 uint", mcpu, lanes, &got, |l| [u32::from(byte(l, 0)), 0, 0, 0x5555aaaa], 4);
        // The resource's own format (RGBA8 UINT) is not used: reading it as 32 FLOAT gives the raw dword.
        let f = format(mcpu, "32", "FLOAT", "32_FLOAT");
        let insn = format!("tbuffer_load_format_x v10, v0, s[8:11], {{s}} {f} idxen");
        let got = run(mcpu, lanes, word3(mcpu, RGBA8_UINT, XYZW), 4, 64, &insn, &d);
        let word = |l: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| byte(l, k)));
        check("tbuffer 32 float", mcpu, lanes, &got, |l| [word(l), 0, 0, 0], 1);
    }
}

#[test]
fn tbuffer_load_format_d16_packs_half_floats() {
    for (mcpu, lanes) in TARGETS {
        let old_names = mcpu.starts_with("gfx9") || mcpu.starts_with("gfx10");
        let f = format(mcpu, "16_16", "FLOAT", "16_16_FLOAT");
        let insn = if old_names {
            format!("tbuffer_load_format_d16_xy v10, v0, s[8:11], {{s}} {f} idxen")
        } else {
            format!("tbuffer_load_d16_format_xy v10, v0, s[8:11], {{s}} {f} idxen")
        };
        let got = run(mcpu, lanes, word3(mcpu, RGBA32_UINT, XYZW), 4, 64, &insn, &half_texels(4, lanes as usize));
        let h = |l: usize, c: usize| u32::from(u16::from_le_bytes([half_byte(l, 2 * c), half_byte(l, 2 * c + 1)]));
        check("tbuffer d16 xy", mcpu, lanes, &got, |l| [h(l, 0) | (h(l, 1) << 16), 0x5555aaaa, 0, 0], 2);
        // The same texels as two f32 values.
        let insn = format!("tbuffer_load_format_xy v[10:11], v0, s[8:11], {{s}} {f} idxen");
        let got = run(mcpu, lanes, word3(mcpu, RGBA32_UINT, XYZW), 4, 64, &insn, &half_texels(4, lanes as usize));
        check(
            "tbuffer 16_16 float",
            mcpu,
            lanes,
            &got,
            |l| [f16(h(l, 0) as u16).to_bits(), f16(h(l, 1) as u16).to_bits(), 0x5555aaaa, 0x5555aaaa],
            4,
        );
    }
}

#[test]
fn tbuffer_store_format_writes_the_instructions_format() {
    for (mcpu, lanes) in TARGETS {
        // Lane l stores (l, l + 1) as 16_16 UINT at index l (texel l), then (2.0, -0.5) as 16_16 FLOAT at
        // index l of a buffer 256 bytes further; the dwords are read back raw.
        let f_uint = format(mcpu, "16_16", "UINT", "16_16_UINT");
        let f_float = format(mcpu, "16_16", "FLOAT", "16_16_FLOAT");
        let store = format!(
            "v_mov_b32 v10, v0
            v_add_nc_u32 v11, 1, v0
            tbuffer_store_format_xy v[10:11], v0, s[8:11], {{s}} {f_uint} idxen
            v_mov_b32 v10, 2.0
            v_mov_b32 v11, -0.5
            tbuffer_store_format_xy v[10:11], v0, s[8:11], {{s}} {f_float} idxen offset:256
            s_waitcnt vmcnt(0)
            global_load_dword v10, v100, s[6:7]
            global_load_dword v11, v100, s[6:7] offset:256"
        );
        let store = if mcpu.starts_with("gfx9") { store.replace("v_add_nc_u32", "v_add_u32") } else { store };
        let got = run(mcpu, lanes, word3(mcpu, RGBA32_UINT, XYZW), 4, 64, &store, &texels(4, 128));
        // f16 2.0 = 0x4000, -0.5 = 0xb800.
        check(
            "tbuffer store",
            mcpu,
            lanes,
            &got,
            |l| [l as u32 | ((l as u32 + 1) << 16), 0x4000 | (0xb800 << 16), 0, 0],
            2,
        );
    }
}
