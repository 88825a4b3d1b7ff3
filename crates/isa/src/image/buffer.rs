//! Buffer resources (V#) with a texel format: what `buffer_load_format_*`/`buffer_store_format_*` read
//! and write, and what HIP's 1D buffer images (`tex1Dfetch` on linear memory, HSA geometry 1DB) are: ROCr
//! writes a V# into the first four dwords of such an image (`PopulateImageSrd` of its image managers).
//!
//! Word layout (ROCr's `resource_ai.h`, `resource_nv.h`, `resource_gfx11.h`, `resource_gfx12.h`; the ISA
//! guides' "Buffer Resource" tables): word 0 and the low 16 bits of word 1 hold the byte address, bits
//! 16..29 of word 1 the stride, word 2 the number of records, word 3 `DST_SEL_X..W` (3 bits each from bit 0)
//! and the format from bit 12:
//! - gfx9 (GCN, CDNA): `NUM_FORMAT` (3 bits at 12) and `DATA_FORMAT` (4 bits at 15), the numbers of
//!   [`dfmt`]/[`nfmt`];
//! - gfx10 (RDNA2): one combined `FORMAT`, 7 bits at 12;
//! - gfx11 and gfx12 (RDNA3, RDNA4): one combined `FORMAT`, 6 bits at 12.
//!
//! The combined numbers are the images' ([`combined`]): AMD's buffer and image formats share one table
//! from gfx10 on (ROCr fills both with `GetCombinedFormat`; LLVM's `UfmtGFX10`/`UfmtGFX11` tables).

#[cfg(doc)]
use super::dfmt;
use super::{combined, converts, field, nfmt, put, split_combined};
use crate::target::Family;

/// The fields of a buffer resource a format access uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufRsrc {
    /// Byte address of record 0 (48 bits).
    pub base: u64,
    /// Bytes per record (0: a raw buffer, `records` counts bytes).
    pub stride: u32,
    /// Records (or bytes when `stride` is 0).
    pub records: u32,
    /// Data format ([`dfmt`]).
    pub dfmt: u8,
    /// Numeric format ([`nfmt`]).
    pub nfmt: u8,
    /// `DST_SEL_X..W`: 0 zero, 1 one, 4..7 channel X..W.
    pub sel: [u8; 4],
}

/// (data format, numeric format) of V# word 3 on `fam`; `None` for a format the simulator does not
/// convert (invalid numbers, FLOAT of the 2-bit formats).
pub fn format_of(fam: Family, w3: u32) -> Option<(u8, u8)> {
    let (df, nf) = match fam {
        Family::Gfx9 => (field(w3, 15, 4) as u8, field(w3, 12, 3) as u8),
        Family::Gfx10 => split_combined(fam, field(w3, 12, 7))?,
        _ => split_combined(fam, field(w3, 12, 6))?,
    };
    converts(df, nf).then_some((df, nf))
}

impl BufRsrc {
    /// Reads a V#. `None` when its format is not one the simulator converts.
    pub fn decode(fam: Family, v: &[u32; 4]) -> Option<BufRsrc> {
        let (dfmt, nfmt) = format_of(fam, v[3])?;
        Some(BufRsrc {
            base: u64::from(v[0]) | (u64::from(field(v[1], 0, 16)) << 32),
            stride: field(v[1], 16, 14),
            records: v[2],
            dfmt,
            nfmt,
            sel: [0, 3, 6, 9].map(|s| field(v[3], s, 3) as u8),
        })
    }

    /// Writes the V# of a 1D buffer image as ROCr does: base, stride = `INDEX_STRIDE`'s element size,
    /// the format and `DST_SEL`; gfx10 also sets `RESOURCE_LEVEL`. `None` when the format has no encoding.
    pub fn encode(&self, fam: Family) -> Option<[u32; 4]> {
        let mut v = [self.base as u32, 0, self.records, 0];
        put(&mut v[1], 0, 16, (self.base >> 32) as u32);
        put(&mut v[1], 16, 14, self.stride);
        for (k, s) in self.sel.iter().enumerate() {
            put(&mut v[3], 3 * k as u32, 3, u32::from(*s));
        }
        match fam {
            Family::Gfx9 => {
                put(&mut v[3], 12, 3, u32::from(self.nfmt));
                put(&mut v[3], 15, 4, u32::from(self.dfmt));
            }
            Family::Gfx10 => {
                put(&mut v[3], 12, 7, combined(fam, self.dfmt, self.nfmt)?);
                put(&mut v[3], 24, 1, 1);
            }
            _ => put(&mut v[3], 12, 6, combined(fam, self.dfmt, self.nfmt)?),
        }
        // INDEX_STRIDE (bits 21..22) only matters with ADD_TID_ENABLE; ROCr writes the element size there
        // truncated to the field (2 bits).
        put(&mut v[3], 21, 2, self.stride);
        Some(v)
    }
}

/// The value of a channel the format does not have: 0 for X, Y and Z, one for W (1.0, or integer 1 for
/// UINT/SINT), as the texture unit fills a short texel.
pub fn missing_channel(nf: u8, c: usize) -> u32 {
    match (c, nf) {
        (3, nfmt::UINT | nfmt::SINT) => 1,
        (3, _) => 1.0f32.to_bits(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::dfmt;

    /// Word 3 values LLVM's assembler and ROCr agree on: gfx9 `BUF_DATA_FORMAT_32`/`BUF_NUM_FORMAT_FLOAT`
    /// (4, 7), gfx10 `BUF_FMT_32_FLOAT` = 22, gfx11 `BUF_FMT_8_8_8_8_UNORM` = 42 (LLVM's `SIDefines.h`
    /// unified format tables).
    #[test]
    fn word3_formats_decode_per_family() {
        assert_eq!(format_of(Family::Gfx9, (4 << 15) | (7 << 12)), Some((dfmt::F32, nfmt::FLOAT)));
        assert_eq!(format_of(Family::Gfx10, 22 << 12), Some((dfmt::F32, nfmt::FLOAT)));
        assert_eq!(format_of(Family::Gfx10, 56 << 12), Some((dfmt::F8_8_8_8, nfmt::UNORM)));
        assert_eq!(format_of(Family::Gfx11, 42 << 12), Some((dfmt::F8_8_8_8, nfmt::UNORM)));
        assert_eq!(format_of(Family::Gfx12, 42 << 12), Some((dfmt::F8_8_8_8, nfmt::UNORM)));
        assert_eq!(format_of(Family::Gfx11, 63 << 12), Some((dfmt::F32_32_32_32, nfmt::FLOAT)));
        // gfx11 has 6 bits: bit 18 is INDEX_STRIDE's neighbour, not part of the format.
        assert_eq!(format_of(Family::Gfx11, (1 << 18) | (22 << 12)), Some((dfmt::F32, nfmt::FLOAT)));
        assert_eq!(format_of(Family::Gfx9, 0), None, "DATA_FORMAT 0 is invalid");
    }

    #[test]
    fn a_v_sharp_round_trips_on_every_family() {
        for fam in [Family::Gfx9, Family::Gfx10, Family::Gfx11, Family::Gfx12] {
            let v = BufRsrc {
                base: 0x7fff_1234_5678,
                stride: 8,
                records: 1000,
                dfmt: dfmt::F16_16_16_16,
                nfmt: nfmt::SNORM,
                sel: [4, 5, 6, 7],
            };
            let w = v.encode(fam).expect("encodable");
            assert_eq!(BufRsrc::decode(fam, &w), Some(v), "{fam:?}");
        }
    }
}
