//! Format and layout mapping against ROCr's tables (`image_lut_kv.cpp` swizzles, `resource.h` layout).

use super::*;

fn fmt(channel_type: u32, channel_order: u32) -> hsa_ext_image_format_t {
    hsa_ext_image_format_t { channel_type, channel_order }
}

fn desc(
    geometry: u32,
    width: usize,
    height: usize,
    array_size: usize,
    f: hsa_ext_image_format_t,
) -> hsa_ext_image_descriptor_t {
    hsa_ext_image_descriptor_t { geometry, width, height, depth: 0, array_size, format: f }
}

#[test]
fn formats_map_to_data_format_numeric_format_and_rocr_swizzle() {
    let r8u = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_R);
    assert_eq!(map_format(&r8u), Some((dfmt::F8, nfmt::UINT, [4, 0, 0, 1])));
    let bgra = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA);
    assert_eq!(map_format(&bgra), Some((dfmt::F8_8_8_8, nfmt::UNORM, [6, 5, 4, 7])));
    let rgba_f = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA);
    assert_eq!(map_format(&rgba_f), Some((dfmt::F32_32_32_32, nfmt::FLOAT, [4, 5, 6, 7])));
    let rg_h = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RG);
    assert_eq!(map_format(&rg_h), Some((dfmt::F16_16, nfmt::FLOAT, [4, 5, 0, 1])));
    assert_eq!(map_format(&fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB)), None);
    assert_eq!(map_format(&fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB)), None);
}

#[test]
fn linear_layouts_align_rows_and_check_caller_pitches() {
    let r8 = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_R);
    let (r, row, slice) = layout(Family::Gfx11, &desc(HSA_EXT_IMAGE_GEOMETRY_2D, 1000, 3, 0, r8), 0, 0).unwrap();
    assert_eq!((r.pitch, row, slice, r.ty, r.depth), (1024, 1024, 3072, ty::IMG_2D, 1));
    // A caller's wider pitch is kept for 2D images (the gfx11 T# has a pitch field for them) ...
    let (r, row, _) = layout(Family::Gfx11, &desc(HSA_EXT_IMAGE_GEOMETRY_2D, 1000, 3, 0, r8), 2048, 0).unwrap();
    assert_eq!((r.pitch, row), (2048, 2048));
    // ... but not for arrays, whose rows the hardware places at the natural pitch; gfx9 has the field always.
    let a = desc(HSA_EXT_IMAGE_GEOMETRY_2DA, 1000, 3, 4, r8);
    let pitch_bad = HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED as Status;
    assert_eq!(layout(Family::Gfx11, &a, 2048, 0).map(|x| x.1), Err(pitch_bad));
    assert_eq!(layout(Family::Gfx9, &a, 2048, 0).map(|x| (x.0.depth, x.1)), Ok((4, 2048)));
    // A pitch shorter than a row is refused.
    assert_eq!(layout(Family::Gfx9, &a, 512, 0).map(|x| x.1), Err(pitch_bad));
    let depth = desc(HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, 64, 1, 0, r8);
    assert_eq!(
        layout(Family::Gfx11, &depth, 0, 0).map(|x| x.1),
        Err(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED as Status)
    );
}

/// A 1D buffer image: elements back to back (no 256-byte row padding), and a V# as ROCr writes it
/// (`image_manager_ai.cpp`/`_gfx11.cpp` `PopulateImageSrd`, geometry 1DB): stride = element size, NUM_RECORDS
/// = elements, the format in word 3 (gfx9 NUM_FORMAT at 12 and DATA_FORMAT at 15; gfx11 the combined
/// `BUF_FMT_8_8_8_8_UNORM` = 42, LLVM's number) and the channel swizzle in DST_SEL.
#[test]
fn one_d_buffer_images_are_unpadded_and_described_by_a_buffer_resource() {
    let bgra = fmt(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA);
    let d = desc(HSA_EXT_IMAGE_GEOMETRY_1DB, 100_000, 0, 0, bgra);
    let (mut r, row, slice) = layout(Family::Gfx11, &d, 0, 0).unwrap();
    assert_eq!((r.width, r.pitch, row, slice), (100_000, 100_000, 400_000, 400_000));
    r.base = 0x7f12_3456_7004;
    let sel = 6 | (5 << 3) | (4 << 6) | (7 << 9);
    assert_eq!(buffer_words(Family::Gfx11, &r), Some([0x3456_7004, 0x7f12 | (4 << 16), 100_000, sel | (42 << 12)]));
    let w3 = buffer_words(Family::Gfx9, &r).unwrap()[3];
    assert_eq!(w3 & 0x7_ffff, sel | (10 << 15));
}

#[test]
fn sampler_address_modes_follow_rocr() {
    assert_eq!(address_mode(HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE), Ok(clamp::CLAMP_LAST_TEXEL));
    assert_eq!(address_mode(HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER), Ok(clamp::CLAMP_BORDER));
    assert_eq!(address_mode(HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT), Ok(clamp::MIRROR));
    assert_eq!(address_mode(HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT), Ok(clamp::WRAP));
    assert_eq!(address_mode(HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED), Ok(clamp::WRAP));
    assert!(address_mode(9).is_err());
}
