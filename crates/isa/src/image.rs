//! Images and samplers: the MIMG instructions HIP's texture and surface code uses, and the image (T#) and
//! sampler (S#) descriptors they read, per family.
//!
//! The descriptor layouts are AMD's (ROCr's `resource_ai.h` for gfx9, `resource_nv.h` for gfx10,
//! `resource_gfx11.h` for gfx11 and `resource_gfx12.h` for gfx12; the field positions are also in the CDNA and RDNA ISA guides' "Image
//! Resource" and "Image Sampler" tables). hsa-sim writes them with [`Rsrc::encode`] and
//! [`Sampler::encode`]; the interpreter reads them back with [`Rsrc::decode`] and [`Sampler::decode`], so a
//! kernel that builds or edits a descriptor itself sees the same bits the hardware would.
//!
//! Only linear (untiled) images exist in the simulator (`SW_MODE` 0, a legal hardware configuration);
//! texel `(x, y, z)` of mip level 0 lies at `base + ((z * height + y) * pitch + x) * bytes_per_texel`.
//!
//! Instruction fields follow the ISA guides' MIMG microcode format (gfx9: no DIM field, the T#'s type gives
//! the dimensionality; gfx10: NSA dword count in bits 2:1; gfx11: one NSA bit, the count follows from the
//! addresses the instruction needs; gfx12: the VIMAGE and VSAMPLE formats, three dwords with an address field
//! per VGPR and the gfx11 opcodes). Opcodes were checked against LLVM's assembler (`llvm-mc -show-encoding`).

use crate::target::Family;

pub mod buffer;
pub mod small_float;

/// What an image instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// `image_load` / `image_load_mip`: unfiltered read at integer coordinates.
    Load {
        /// A mip level follows the coordinates.
        mip: bool,
    },
    /// `image_store` / `image_store_mip`.
    Store {
        /// A mip level follows the coordinates.
        mip: bool,
    },
    /// `image_get_resinfo`: the dimensions of a mip level.
    GetResinfo,
    /// `image_sample`, `image_sample_l`, `image_sample_lz`: filtered read through a sampler.
    Sample {
        /// An explicit level of detail follows the coordinates (`_l`); otherwise level 0 (compute waves
        /// have no derivatives, so `image_sample` samples level 0 as `_lz` does).
        lod: bool,
    },
}

/// Opcodes of the image instructions the interpreter runs: (gfx9/gfx10 opcode, gfx11 opcode, op, mnemonic).
pub(crate) const OPCODES: [(u32, u32, ImageOp, &str); 8] = [
    (0x00, 0x00, ImageOp::Load { mip: false }, "image_load"),
    (0x01, 0x01, ImageOp::Load { mip: true }, "image_load_mip"),
    (0x08, 0x06, ImageOp::Store { mip: false }, "image_store"),
    (0x09, 0x07, ImageOp::Store { mip: true }, "image_store_mip"),
    (0x0e, 0x17, ImageOp::GetResinfo, "image_get_resinfo"),
    (0x20, 0x1b, ImageOp::Sample { lod: false }, "image_sample"),
    (0x24, 0x1d, ImageOp::Sample { lod: true }, "image_sample_l"),
    (0x27, 0x1f, ImageOp::Sample { lod: false }, "image_sample_lz"),
];

/// Bits of [`Inst::imm`] for an image instruction.
pub mod bits {
    /// DMASK: which components are read or written (bits 0..3).
    pub const DMASK: i32 = 0xf;
    /// DIM (gfx10+), bits 4..6: 0 1D, 1 2D, 2 3D, 3 cube, 4 1D array, 5 2D array, 6 2D MSAA, 7 2D MSAA array.
    pub const DIM_SHIFT: i32 = 4;
    /// Unnormalized coordinates.
    pub const UNORM: i32 = 1 << 7;
    /// 16-bit addresses.
    pub const A16: i32 = 1 << 8;
    /// 16-bit data.
    pub const D16: i32 = 1 << 9;
    /// gfx9 `da`: the resource is an array.
    pub const DA: i32 = 1 << 10;
    /// The addresses are a list of VGPRs ([`super::address`]).
    pub const NSA: i32 = 1 << 11;
    /// gfx9 has no DIM field: the dimensionality comes from the T#.
    pub const NO_DIM: i32 = 1 << 12;
}

/// Coordinates of a dimensionality (DIM field / T# type - 8): 1D, 2D, 3D, cube, 1D array, 2D array, 2D MSAA,
/// 2D MSAA array.
pub const COORDS: [u8; 8] = [1, 2, 3, 3, 2, 3, 3, 4];

/// Address components an instruction reads with `dim` (DIM field numbering).
pub fn address_count(op: ImageOp, dim: u8) -> u8 {
    let c = COORDS[usize::from(dim & 7)];
    match op {
        ImageOp::GetResinfo => 1,
        ImageOp::Load { mip } | ImageOp::Store { mip } => c + u8::from(mip),
        ImageOp::Sample { lod } => c + u8::from(lod),
    }
}

/// Image data format (`FMT_*`/`IMG_DATA_FORMAT_*`, the same numbers on gfx9 to gfx12).
pub mod dfmt {
    /// One 8-bit channel.
    pub const F8: u8 = 1;
    /// One 16-bit channel.
    pub const F16: u8 = 2;
    /// Two 8-bit channels.
    pub const F8_8: u8 = 3;
    /// One 32-bit channel.
    pub const F32: u8 = 4;
    /// Two 16-bit channels.
    pub const F16_16: u8 = 5;
    /// Packed X 11, Y 11, Z 10 bits from bit 0 (names list the channels from the top bit down).
    pub const F10_11_11: u8 = 6;
    /// Packed X 10, Y 11, Z 11 bits.
    pub const F11_11_10: u8 = 7;
    /// Packed X 2, Y 10, Z 10, W 10 bits.
    pub const F10_10_10_2: u8 = 8;
    /// Packed X 10, Y 10, Z 10, W 2 bits.
    pub const F2_10_10_10: u8 = 9;
    /// Four 8-bit channels.
    pub const F8_8_8_8: u8 = 10;
    /// Two 32-bit channels.
    pub const F32_32: u8 = 11;
    /// Four 16-bit channels.
    pub const F16_16_16_16: u8 = 12;
    /// Three 32-bit channels.
    pub const F32_32_32: u8 = 13;
    /// Four 32-bit channels.
    pub const F32_32_32_32: u8 = 14;
}

/// Numeric format (`TYPE_*`/`IMG_NUM_FORMAT_*`).
pub mod nfmt {
    /// Unsigned normalized.
    pub const UNORM: u8 = 0;
    /// Signed normalized.
    pub const SNORM: u8 = 1;
    /// Unsigned integer converted to float.
    pub const USCALED: u8 = 2;
    /// Signed integer converted to float.
    pub const SSCALED: u8 = 3;
    /// Unsigned integer.
    pub const UINT: u8 = 4;
    /// Signed integer.
    pub const SINT: u8 = 5;
    /// IEEE float.
    pub const FLOAT: u8 = 7;
}

/// Bits of channels X, Y, Z, W of a data format the simulator supports, X from bit 0 of the texel
/// (0: the format lacks the channel). The packed formats' widths are ROCr's address library's
/// (`addrelemlib.cpp`, `GetCompBits`), which counts from the low bit as the ISA guides' buffer format
/// tables do: `2_10_10_10` is X in bits 0..9 and W in bits 30..31.
pub fn channel_bits(dfmt: u8) -> Option<[u8; 4]> {
    Some(match dfmt {
        dfmt::F8 => [8, 0, 0, 0],
        dfmt::F16 => [16, 0, 0, 0],
        dfmt::F8_8 => [8, 8, 0, 0],
        dfmt::F32 => [32, 0, 0, 0],
        dfmt::F16_16 => [16, 16, 0, 0],
        dfmt::F10_11_11 => [11, 11, 10, 0],
        dfmt::F11_11_10 => [10, 11, 11, 0],
        dfmt::F10_10_10_2 => [2, 10, 10, 10],
        dfmt::F2_10_10_10 => [10, 10, 10, 2],
        dfmt::F8_8_8_8 => [8, 8, 8, 8],
        dfmt::F32_32 => [32, 32, 0, 0],
        dfmt::F16_16_16_16 => [16, 16, 16, 16],
        dfmt::F32_32_32 => [32, 32, 32, 0],
        dfmt::F32_32_32_32 => [32, 32, 32, 32],
        _ => return None,
    })
}

/// (channels, bits of the texel) of a data format the simulator supports.
pub fn layout(dfmt: u8) -> Option<(u8, u8)> {
    let b = channel_bits(dfmt)?;
    Some((b.iter().filter(|&&w| w != 0).count() as u8, b.iter().sum()))
}

/// Whether the simulator converts numeric format `nf` of data format `df`: the packed 10/11-bit formats
/// as small floats, the other FLOAT formats with 16-bit channels as f16 and 32-bit ones as they are; the
/// 2-bit formats have no FLOAT.
pub fn converts(df: u8, nf: u8) -> bool {
    channel_bits(df).is_some()
        && match nf {
            nfmt::UNORM..=nfmt::SINT => true,
            nfmt::FLOAT => !matches!(df, dfmt::F10_10_10_2 | dfmt::F2_10_10_10),
            _ => false,
        }
}

/// Bytes of one texel of `dfmt`.
pub fn texel_bytes(dfmt: u8) -> Option<u32> {
    layout(dfmt).map(|(_, b)| u32::from(b) / 8)
}

/// gfx10, gfx11 and gfx12 name a (data format, numeric format) pair with one combined `FORMAT` number
/// (`resource_nv.h`/`resource_gfx11.h`/`resource_gfx12.h` `CFMT_*`; gfx12 keeps gfx11's numbers). Per data
/// format: the first number and whether the family is 32-bit (then only UINT, SINT, FLOAT exist, in that order;
/// otherwise UNORM, SNORM, USCALED, SSCALED, UINT, SINT and, for 16-bit channels, FLOAT).
fn combined_base(fam: Family, dfmt: u8) -> Option<u32> {
    let gfx10 = fam == Family::Gfx10;
    Some(match dfmt {
        dfmt::F8 => 1,
        dfmt::F16 => 7,
        dfmt::F8_8 => 14,
        dfmt::F32 => 20,
        dfmt::F16_16 => 23,
        dfmt::F8_8_8_8 => {
            if gfx10 {
                56
            } else {
                42
            }
        }
        dfmt::F32_32 => {
            if gfx10 {
                62
            } else {
                48
            }
        }
        dfmt::F16_16_16_16 => {
            if gfx10 {
                65
            } else {
                51
            }
        }
        dfmt::F32_32_32 => {
            if gfx10 {
                72
            } else {
                58
            }
        }
        dfmt::F32_32_32_32 => {
            if gfx10 {
                75
            } else {
                61
            }
        }
        _ => return None,
    })
}

/// Offset of `nfmt` within a combined-format group of `bits`-bit channels.
fn combined_offset(bits: u8, nf: u8) -> Option<u32> {
    match (bits, nf) {
        (32, nfmt::UINT) => Some(0),
        (32, nfmt::SINT) => Some(1),
        (32, nfmt::FLOAT) => Some(2),
        (32, _) | (8, nfmt::FLOAT) => None,
        (_, nfmt::FLOAT) => Some(6),
        (_, n) if n <= nfmt::SINT => Some(u32::from(n)),
        _ => None,
    }
}

/// The combined number of a packed format (`resource_nv.h`/`resource_gfx11.h` `CFMT_*`, LLVM's
/// `UfmtGFX10`/`UfmtGFX11`): gfx10 gives 10_11_11 and 11_11_10 every numeric format (FLOAT last) and the
/// 2-bit formats UNORM to SINT; gfx11 keeps only the FLOAT 10/11-bit formats and drops the scaled forms of
/// 10_10_10_2.
fn combined_packed(fam: Family, df: u8, nf: u8) -> Option<u32> {
    let n = u32::from(nf);
    if fam == Family::Gfx10 {
        let base = match df {
            dfmt::F10_11_11 => 30,
            dfmt::F11_11_10 => 37,
            dfmt::F10_10_10_2 => 44,
            _ => 50,
        };
        return match nf {
            nfmt::FLOAT if df <= dfmt::F11_11_10 => Some(base + 6),
            nfmt::UNORM..=nfmt::SINT => Some(base + n),
            _ => None,
        };
    }
    match (df, nf) {
        (dfmt::F10_11_11, nfmt::FLOAT) => Some(30),
        (dfmt::F11_11_10, nfmt::FLOAT) => Some(31),
        (dfmt::F10_10_10_2, nfmt::UNORM | nfmt::SNORM) => Some(32 + n),
        (dfmt::F10_10_10_2, nfmt::UINT | nfmt::SINT) => Some(34 + n - u32::from(nfmt::UINT)),
        (dfmt::F2_10_10_10, nfmt::UNORM..=nfmt::SINT) => Some(36 + n),
        _ => None,
    }
}

/// The gfx10+ combined `FORMAT` of (`dfmt`, `nfmt`).
pub fn combined(fam: Family, df: u8, nf: u8) -> Option<u32> {
    if (dfmt::F10_11_11..=dfmt::F2_10_10_10).contains(&df) {
        return combined_packed(fam, df, nf);
    }
    let bits = channel_bits(df)?[0];
    Some(combined_base(fam, df)? + combined_offset(bits, nf)?)
}

/// (data format, numeric format) of a gfx10+ combined `FORMAT`.
pub fn split_combined(fam: Family, c: u32) -> Option<(u8, u8)> {
    for df in 1u8..=14 {
        for nf in [0u8, 1, 2, 3, 4, 5, 7] {
            if combined(fam, df, nf) == Some(c) {
                return Some((df, nf));
            }
        }
    }
    None
}

/// The channels of the texel at `bytes` (data format `df`, numeric format `nf`) in register form: f32 bits
/// for UNORM, SNORM, USCALED, SSCALED and FLOAT, the integer for UINT and SINT (conversion rules in
/// the interpreter's image module). Channel `c` is the `channel_bits(df)[c]` bits above the channels
/// before it, in the little-endian texel.
pub fn unpack_texel(df: u8, nf: u8, bytes: &[u8]) -> [u32; 4] {
    let widths = channel_bits(df).unwrap_or([0; 4]);
    let mut texel = [0u8; 16];
    let n = bytes.len().min(16);
    texel[..n].copy_from_slice(&bytes[..n]);
    let texel = u128::from_le_bytes(texel);
    let mut out = [0u32; 4];
    let mut at = 0;
    for (o, &b) in out.iter_mut().zip(&widths) {
        if b == 0 {
            continue;
        }
        let raw = (texel >> at) as u32 & low_bits(b);
        at += u32::from(b);
        let max = low_bits(b);
        let signed = if b == 32 { raw as i32 } else { ((raw << (32 - b)) as i32) >> (32 - b) };
        *o = match nf {
            nfmt::UNORM => (raw as f32 / max as f32).to_bits(),
            nfmt::SNORM => (signed as f32 / (max >> 1) as f32).max(-1.0).to_bits(),
            nfmt::USCALED => (raw as f32).to_bits(),
            nfmt::SSCALED => (signed as f32).to_bits(),
            nfmt::UINT => raw,
            nfmt::SINT => signed as u32,
            _ => match b {
                16 => crate::half::f16_to_f32(raw as u16).to_bits(),
                11 | 10 => small_float::to_f32(raw, b - 5).to_bits(),
                _ => raw,
            },
        };
    }
    out
}

/// The low `b` bits set (`b` up to 32).
fn low_bits(b: u8) -> u32 {
    if b >= 32 {
        u32::MAX
    } else {
        (1u32 << b) - 1
    }
}

/// Converts register values (as [`unpack_texel`] returns them) to the bytes of one texel.
pub fn pack_texel(df: u8, nf: u8, vals: &[u32; 4], out: &mut [u8]) {
    let widths = channel_bits(df).unwrap_or([0; 4]);
    let mut texel = 0u128;
    let mut at = 0;
    for (&v, &b) in vals.iter().zip(&widths) {
        if b == 0 {
            continue;
        }
        let f = f32::from_bits(v);
        let max = low_bits(b);
        let raw = match nf {
            nfmt::UNORM => {
                let x = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                (f64::from(x) * f64::from(max)).round_ties_even() as u32
            }
            nfmt::SNORM => {
                let x = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
                (f64::from(x) * f64::from(max >> 1)).round_ties_even() as i32 as u32
            }
            nfmt::USCALED => f.max(0.0) as u32,
            nfmt::SSCALED => f as i32 as u32,
            nfmt::FLOAT if b == 16 => u32::from(crate::half::f32_to_f16(f)),
            nfmt::FLOAT if b == 11 || b == 10 => small_float::from_f32(f, b - 5),
            _ => v,
        };
        texel |= u128::from(raw & max) << at;
        at += u32::from(b);
    }
    let n = out.len().min(16);
    out[..n].copy_from_slice(&texel.to_le_bytes()[..n]);
}

/// `SQ_RSRC_IMG_*` resource types (T# `TYPE`): DIM + 8.
pub mod ty {
    /// 1D.
    pub const IMG_1D: u8 = 8;
    /// 2D.
    pub const IMG_2D: u8 = 9;
    /// 3D.
    pub const IMG_3D: u8 = 10;
    /// 1D array.
    pub const IMG_1D_ARRAY: u8 = 12;
    /// 2D array.
    pub const IMG_2D_ARRAY: u8 = 13;
}

/// The fields of an image resource (T#) the simulator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rsrc {
    /// Byte address of texel (0, 0, 0) (256-byte aligned: the T# holds bits 8..47).
    pub base: u64,
    /// Data format ([`dfmt`]).
    pub dfmt: u8,
    /// Numeric format ([`nfmt`]).
    pub nfmt: u8,
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D).
    pub height: u32,
    /// Depth (3D) or array layers (arrays); 1 otherwise.
    pub depth: u32,
    /// Row pitch in texels.
    pub pitch: u32,
    /// [`ty`].
    pub ty: u8,
    /// `DST_SEL_X..W`: 0 zero, 1 one, 4..7 channel X..W.
    pub sel: [u8; 4],
    /// Last mip level (0: no mips).
    pub last_level: u8,
}

fn field(w: u32, lo: u32, bits: u32) -> u32 {
    (w >> lo) & ((1u32 << bits) - 1)
}

fn put(w: &mut u32, lo: u32, bits: u32, v: u32) {
    let m = ((1u32 << bits) - 1) << lo;
    *w = (*w & !m) | ((v << lo) & m);
}

impl Rsrc {
    /// Reads a T#. `None` for a format the simulator does not support.
    pub fn decode(fam: Family, t: &[u32; 8]) -> Option<Rsrc> {
        let base = (u64::from(t[0]) << 8) | (u64::from(field(t[1], 0, 8)) << 40);
        let ty = field(t[3], 28, 4) as u8;
        let sel = [0, 3, 6, 9].map(|s| field(t[3], s, 3) as u8);
        let last_level = if fam >= Family::Gfx12 { field(t[3], 15, 5) } else { field(t[3], 16, 4) } as u8;
        let (dfmt, nfmt, width, height, depth_field, pitch) = match fam {
            Family::Gfx9 => (
                field(t[1], 20, 6) as u8,
                field(t[1], 26, 4) as u8,
                field(t[2], 0, 14) + 1,
                field(t[2], 14, 14) + 1,
                field(t[4], 0, 13),
                Some(field(t[4], 13, 16) + 1),
            ),
            Family::Gfx12 => {
                let (df, nf) = split_combined(fam, field(t[1], 17, 8))?;
                let width = (field(t[1], 30, 2) | (field(t[2], 0, 14) << 2)) + 1;
                // A linear 1D/2D image's pitch - 1 is DEPTH (14 bits) with PITCH_MSB (bits 14..15) above it.
                let pitch = matches!(ty, ty::IMG_1D | ty::IMG_2D).then(|| field(t[4], 0, 16) + 1);
                (df, nf, width, field(t[2], 14, 16) + 1, field(t[4], 0, 14), pitch)
            }
            _ => {
                let (fbits, w_lo) = if fam == Family::Gfx10 { (9, 30) } else { (8, 30) };
                let (df, nf) = split_combined(fam, field(t[1], 20, fbits))?;
                let width = (field(t[1], w_lo, 2) | (field(t[2], 0, 12) << 2)) + 1;
                let is_2d = matches!(ty, ty::IMG_1D | ty::IMG_2D);
                // gfx10.3+/gfx11 hold the pitch of a linear 1D/2D image in DEPTH (bits 0..13); arrays and 3D
                // images have none (rows are as long as the linear alignment makes them).
                let pitch = is_2d.then(|| field(t[4], 0, 14) + 1);
                (df, nf, width, field(t[2], 14, 14) + 1, field(t[4], 0, 13), pitch)
            }
        };
        let bpe = texel_bytes(dfmt)?;
        let depth = match ty {
            ty::IMG_3D | ty::IMG_1D_ARRAY | ty::IMG_2D_ARRAY => depth_field + 1,
            _ => 1,
        };
        let pitch = pitch.unwrap_or_else(|| linear_pitch(width, bpe));
        let height = if ty == ty::IMG_1D || ty == ty::IMG_1D_ARRAY { 1 } else { height };
        Some(Rsrc { base, dfmt, nfmt, width, height, depth, pitch, ty, sel, last_level })
    }

    /// Writes the T# of a linear image as ROCr's image managers do (`PopulateImageSrd`), with `SW_MODE` 0.
    /// `None` when the format has no encoding on `fam`.
    pub fn encode(&self, fam: Family) -> Option<[u32; 8]> {
        let mut t = [0u32; 8];
        t[0] = (self.base >> 8) as u32;
        put(&mut t[1], 0, 8, (self.base >> 40) as u32);
        for (k, s) in self.sel.iter().enumerate() {
            put(&mut t[3], 3 * k as u32, 3, u32::from(*s));
        }
        if fam >= Family::Gfx12 {
            put(&mut t[3], 15, 5, u32::from(self.last_level));
        } else {
            put(&mut t[3], 16, 4, u32::from(self.last_level));
        }
        put(&mut t[3], 28, 4, u32::from(self.ty));
        let layers = self.depth.max(1) - 1;
        let has_depth = matches!(self.ty, ty::IMG_3D | ty::IMG_1D_ARRAY | ty::IMG_2D_ARRAY);
        match fam {
            Family::Gfx9 => {
                put(&mut t[1], 20, 6, u32::from(self.dfmt));
                put(&mut t[1], 26, 4, u32::from(self.nfmt));
                put(&mut t[2], 0, 14, self.width - 1);
                put(&mut t[2], 14, 14, self.height.max(1) - 1);
                put(&mut t[4], 0, 13, if has_depth { layers } else { 0 });
                put(&mut t[4], 13, 16, self.pitch - 1);
            }
            Family::Gfx12 => {
                put(&mut t[1], 17, 8, combined(fam, self.dfmt, self.nfmt)?);
                put(&mut t[1], 30, 2, (self.width - 1) & 3);
                put(&mut t[2], 0, 14, (self.width - 1) >> 2);
                put(&mut t[2], 14, 16, self.height.max(1) - 1);
                put(&mut t[4], 0, if has_depth { 14 } else { 16 }, if has_depth { layers } else { self.pitch - 1 });
            }
            _ => {
                let c = combined(fam, self.dfmt, self.nfmt)?;
                put(&mut t[1], 20, if fam == Family::Gfx10 { 9 } else { 8 }, c);
                put(&mut t[1], 30, 2, (self.width - 1) & 3);
                put(&mut t[2], 0, 12, (self.width - 1) >> 2);
                put(&mut t[2], 14, 14, self.height.max(1) - 1);
                if has_depth {
                    put(&mut t[4], 0, 13, layers);
                } else {
                    put(&mut t[4], 0, 14, self.pitch - 1);
                }
            }
        }
        Some(t)
    }

    /// Bytes per texel.
    pub fn bpe(&self) -> u32 {
        texel_bytes(self.dfmt).unwrap_or(0)
    }
}

/// Row pitch in texels of a linear image `width` texels wide: rows start on 256-byte boundaries (the
/// linear pitch alignment of AMD's address library for gfx9 to gfx11, and HIP's image pitch alignment).
pub fn linear_pitch(width: u32, bpe: u32) -> u32 {
    let bytes = (u64::from(width) * u64::from(bpe)).div_ceil(256) * 256;
    (bytes / u64::from(bpe.max(1))) as u32
}

/// `SQ_TEX_CLAMP` addressing modes.
pub mod clamp {
    /// Repeat.
    pub const WRAP: u8 = 0;
    /// Mirrored repeat.
    pub const MIRROR: u8 = 1;
    /// Clamp to the edge texel.
    pub const CLAMP_LAST_TEXEL: u8 = 2;
    /// Mirror once, then clamp to the edge texel.
    pub const MIRROR_ONCE_LAST_TEXEL: u8 = 3;
    /// Clamp to the border colour.
    pub const CLAMP_BORDER: u8 = 6;
}

/// The fields of a sampler (S#) the simulator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// `CLAMP_X/Y/Z` ([`clamp`]).
    pub clamp: [u8; 3],
    /// `FORCE_UNNORMALIZED`: coordinates are in texels.
    pub unnormalized: bool,
    /// `XY_MAG_FILTER`/`XY_MIN_FILTER` bilinear (else point).
    pub linear: bool,
    /// `BORDER_COLOR_TYPE`: 0 transparent black, 1 opaque black, 2 opaque white.
    pub border: u8,
}

impl Sampler {
    /// Reads an S# (the same positions on gfx9 to gfx12 for these fields).
    pub fn decode(s: &[u32; 4]) -> Sampler {
        Sampler {
            clamp: [field(s[0], 0, 3) as u8, field(s[0], 3, 3) as u8, field(s[0], 6, 3) as u8],
            unnormalized: field(s[0], 15, 1) != 0,
            linear: field(s[2], 20, 2) & 1 != 0,
            border: field(s[3], 30, 2) as u8,
        }
    }

    /// Writes the S# as ROCr's `PopulateSamplerSrd` does (`MAX_LOD` 4095, both filters alike, no mips).
    pub fn encode(&self) -> [u32; 4] {
        let mut s = [0u32; 4];
        for (k, c) in self.clamp.iter().enumerate() {
            put(&mut s[0], 3 * k as u32, 3, u32::from(*c));
        }
        put(&mut s[0], 15, 1, u32::from(self.unnormalized));
        put(&mut s[1], 12, 12, 4095);
        let f = u32::from(self.linear);
        put(&mut s[2], 20, 2, f);
        put(&mut s[2], 22, 2, f);
        put(&mut s[3], 30, 2, u32::from(self.border));
        s
    }
}

#[cfg(test)]
mod tests;
