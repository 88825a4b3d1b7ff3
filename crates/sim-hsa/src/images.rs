//! The images extension (`hsa_ext_images_1_00/01`): image and sampler objects as ROCr's image library
//! makes them, so HIP's texture and surface APIs (`hipMallocArray`, `hipCreateTextureObject`, ...) work.
//!
//! As in ROCr (`resource.h`), an image handle is the address of its descriptor words: the 8-dword T#
//! followed by 4 words of metadata (channel type, channel order, width: what ROCr's image managers put in
//! words 8..10 and the device library's image functions read), 16-byte aligned, in the kernarg pool so the
//! host (HIP copies the words into its texture objects) and kernels (ROCclr's blit kernels take the handle
//! as an `image2d_t` argument) both read it. A sampler handle is the address of its 4-dword S# (8 words
//! reserved). The descriptor bits come from [`rocprof_isa::image`], which the interpreter reads back.
//!
//! All images are linear (the simulator's choice of tiling, legal on every family): rows of
//! [`linear_pitch`] texels unless the caller's layout gives a pitch. gfx9.4 and gfx9.5 have no image
//! hardware (ROCr reports no support there, [`crate::image_info::has_images`]).

#![allow(clippy::missing_safety_doc)]

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

use rocprof_device::targets::GpuModel;
use rocprof_hsa_sys::*;
use rocprof_isa::image::buffer::BufRsrc;
use rocprof_isa::image::{clamp, dfmt, linear_pitch, nfmt, pack_texel, texel_bytes, ty, Rsrc, Sampler};
use rocprof_isa::Family;

use crate::ffi::{put, status, Status};

/// Image words: the T# and ROCr's metadata (`HSA_IMAGE_OBJECT_SIZE_DWORD`).
const IMAGE_DWORDS: usize = 12;
/// Sampler words (`HSA_SAMPLER_OBJECT_SIZE_DWORD`).
const SAMPLER_DWORDS: usize = 8;

/// What the simulator remembers of an image besides its descriptor words.
#[derive(Clone, Copy, Debug)]
struct Image {
    rsrc: Rsrc,
    /// Row and slice pitch in bytes.
    row: usize,
    slice: usize,
}

static IMAGES: Mutex<Option<HashMap<u64, Image>>> = Mutex::new(None);

fn images() -> std::sync::MutexGuard<'static, Option<HashMap<u64, Image>>> {
    IMAGES.lock().unwrap_or_else(|e| e.into_inner())
}

fn family(m: &GpuModel) -> Family {
    Family::of_name(m.name).unwrap_or(Family::Gfx9)
}

/// The GPU model of `agent`, which must have image hardware.
fn image_gpu(agent: hsa_agent_t) -> Result<&'static GpuModel, Status> {
    let (_, m) = crate::agent::lookup_gpu(agent)?;
    if !crate::image_info::has_images(m) || Family::of_name(m.name).is_none() {
        return Err(HSA_STATUS_ERROR_INVALID_AGENT);
    }
    Ok(m)
}

/// (data format, numeric format, DST_SEL) of an HSA image format, as ROCr's format and swizzle tables map
/// it; `None` for the formats the simulator does not support (packed 5/6/10-bit, 24-bit, sRGB, depth).
fn map_format(f: &hsa_ext_image_format_t) -> Option<(u8, u8, [u8; 4])> {
    let (bits, nf) = match f.channel_type {
        HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8 => (8, nfmt::SNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16 => (16, nfmt::SNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 => (8, nfmt::UNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16 => (16, nfmt::UNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8 => (8, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16 => (16, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32 => (32, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8 => (8, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16 => (16, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32 => (32, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT => (16, nfmt::FLOAT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT => (32, nfmt::FLOAT),
        _ => return None,
    };
    // SEL_0 = 0, SEL_1 = 1, SEL_X..W = 4..7 (ROCr's ImageLutKv swizzle table).
    let (channels, sel) = match f.channel_order {
        HSA_EXT_IMAGE_CHANNEL_ORDER_A => (1, [0, 0, 0, 4]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_R | HSA_EXT_IMAGE_CHANNEL_ORDER_RX => (1, [4, 0, 0, 1]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY => (1, [4, 4, 4, 4]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE => (1, [4, 4, 4, 1]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RG | HSA_EXT_IMAGE_CHANNEL_ORDER_RGX => (2, [4, 5, 0, 1]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RA => (2, [4, 0, 0, 5]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA => (4, [4, 5, 6, 7]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA if bits == 8 => (4, [6, 5, 4, 7]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB if bits == 8 => (4, [5, 6, 7, 4]),
        HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR if bits == 8 => (4, [5, 4, 7, 6]),
        _ => return None,
    };
    let df = match (channels, bits) {
        (1, 8) => dfmt::F8,
        (1, 16) => dfmt::F16,
        (1, 32) => dfmt::F32,
        (2, 8) => dfmt::F8_8,
        (2, 16) => dfmt::F16_16,
        (2, 32) => dfmt::F32_32,
        (4, 8) => dfmt::F8_8_8_8,
        (4, 16) => dfmt::F16_16_16_16,
        _ => dfmt::F32_32_32_32,
    };
    Some((df, nf, sel))
}

/// `SQ_RSRC_IMG_*` of a geometry the simulator supports (not depth or MSAA). A 1D buffer image (1DB) is
/// laid out as a 1D image without row padding and described by a buffer resource (V#), as ROCr does.
fn map_geometry(g: hsa_ext_image_geometry_t) -> Option<u8> {
    Some(match g {
        HSA_EXT_IMAGE_GEOMETRY_1D | HSA_EXT_IMAGE_GEOMETRY_1DB => ty::IMG_1D,
        HSA_EXT_IMAGE_GEOMETRY_2D => ty::IMG_2D,
        HSA_EXT_IMAGE_GEOMETRY_3D => ty::IMG_3D,
        HSA_EXT_IMAGE_GEOMETRY_1DA => ty::IMG_1D_ARRAY,
        HSA_EXT_IMAGE_GEOMETRY_2DA => ty::IMG_2D_ARRAY,
        _ => return None,
    })
}

/// The layout of an image: its T# fields (base 0) and row and slice pitch in bytes.
fn layout(
    fam: Family,
    d: &hsa_ext_image_descriptor_t,
    row_pitch: usize,
    slice_pitch: usize,
) -> Result<(Rsrc, usize, usize), Status> {
    let unsupported = HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED as Status;
    let (df, nf, sel) = map_format(&d.format).ok_or(unsupported)?;
    let t = map_geometry(d.geometry).ok_or(unsupported)?;
    if rocprof_isa::image::combined(fam, df, nf).is_none() && fam != Family::Gfx9 {
        return Err(unsupported);
    }
    let bpe = texel_bytes(df).ok_or(unsupported)? as usize;
    let height = if matches!(t, ty::IMG_1D | ty::IMG_1D_ARRAY) { 1 } else { d.height.max(1) };
    let depth = match t {
        ty::IMG_3D => d.depth.max(1),
        ty::IMG_1D_ARRAY | ty::IMG_2D_ARRAY => d.array_size.max(1),
        _ => 1,
    };
    let size_bad = HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED as Status;
    let buffer = d.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB;
    // A V# counts records in 32 bits; a T# holds 14-bit (gfx9) to 16-bit sizes.
    let max_width = if buffer { u32::MAX as usize } else { 16384 };
    if d.width == 0 || d.width > max_width || height > 16384 || depth > 8192 {
        return Err(size_bad);
    }
    let natural = if buffer { d.width } else { linear_pitch(d.width as u32, bpe as u32) as usize };
    let pitch_bad = HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED as Status;
    let pitch = if row_pitch == 0 {
        natural
    } else {
        // The T# holds a pitch only for 1D/2D images on gfx10+ (arrays and 3D use the natural one).
        let has_field = fam == Family::Gfx9 || matches!(t, ty::IMG_1D | ty::IMG_2D);
        if row_pitch % bpe != 0 || row_pitch / bpe < d.width || (!has_field && row_pitch / bpe != natural) {
            return Err(pitch_bad);
        }
        row_pitch / bpe
    };
    let row = pitch * bpe;
    let slice = row * height;
    if slice_pitch != 0 && slice_pitch != slice && depth > 1 {
        return Err(pitch_bad);
    }
    let rsrc = Rsrc {
        base: 0,
        dfmt: df,
        nfmt: nf,
        width: d.width as u32,
        height: height as u32,
        depth: depth as u32,
        pitch: pitch as u32,
        ty: t,
        sel,
        last_level: 0,
    };
    Ok((rsrc, row, slice))
}

/// The V# of a 1D buffer image laid out as `r`: one record per element (ROCr's `PopulateImageSrd` for
/// geometry 1DB: stride = element size, the image's format and swizzle), `width` records.
fn buffer_words(fam: Family, r: &Rsrc) -> Option<[u32; 4]> {
    BufRsrc { base: r.base, stride: r.bpe(), records: r.width, dfmt: r.dfmt, nfmt: r.nfmt, sel: r.sel }.encode(fam)
}

/// The CPU's kernarg pool, where ROCr allocates image and sampler objects.
fn object_pool() -> Result<&'static crate::agent::Pool, Status> {
    let sys = crate::runtime::system()?;
    sys.agents.iter().find(|a| a.is_cpu()).and_then(|a| a.pools.first().copied()).ok_or(HSA_STATUS_ERROR)
}

unsafe fn capability(
    agent: hsa_agent_t,
    geometry: u32,
    format: *const hsa_ext_image_format_t,
    mask: *mut u32,
) -> hsa_status_t {
    status(|| {
        if format.is_null() || mask.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let images = crate::agent::lookup_gpu(agent)
            .is_ok_and(|(_, m)| image_gpu(agent).is_ok() && crate::image_info::has_images(m));
        // SAFETY: `format` is non-null and points to the caller's format.
        let f = unsafe { format.read_unaligned() };
        let ok = images && map_format(&f).is_some() && map_geometry(geometry).is_some();
        let caps = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY
            | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY
            | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE;
        // SAFETY: `mask` is a non-null out-pointer.
        unsafe { put(mask.cast(), if ok { caps } else { 0 }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_get_capability(
    agent: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    // SAFETY: forwarded caller pointers.
    unsafe { capability(agent, geometry, image_format, capability_mask) }
}

pub(crate) unsafe extern "C" fn hsa_ext_image_get_capability_with_layout(
    agent: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    if image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: forwarded caller pointers.
    unsafe { capability(agent, geometry, image_format, capability_mask) }
}

unsafe fn data_info(
    agent: hsa_agent_t,
    d: *const hsa_ext_image_descriptor_t,
    row_pitch: usize,
    slice_pitch: usize,
    info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    status(|| {
        if d.is_null() || info.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let m = image_gpu(agent)?;
        // SAFETY: `d` is non-null and points to the caller's descriptor.
        let d = unsafe { d.read_unaligned() };
        let (r, _, slice) = layout(family(m), &d, row_pitch, slice_pitch)?;
        let out = hsa_ext_image_data_info_t { size: slice * r.depth as usize, alignment: 256 };
        // SAFETY: `info` is a non-null out-pointer.
        unsafe { put(info.cast(), out) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_data_get_info(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    _access_permission: hsa_access_permission_t,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    // SAFETY: forwarded caller pointers.
    unsafe { data_info(agent, image_descriptor, 0, 0, image_data_info) }
}

pub(crate) unsafe extern "C" fn hsa_ext_image_data_get_info_with_layout(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    _access_permission: hsa_access_permission_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    image_data_row_pitch: usize,
    image_data_slice_pitch: usize,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    if image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: forwarded caller pointers.
    unsafe { data_info(agent, image_descriptor, image_data_row_pitch, image_data_slice_pitch, image_data_info) }
}

unsafe fn create(
    agent: hsa_agent_t,
    d: *const hsa_ext_image_descriptor_t,
    data: *const c_void,
    row_pitch: usize,
    slice_pitch: usize,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    status(|| {
        if d.is_null() || data.is_null() || image.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let m = image_gpu(agent)?;
        let fam = family(m);
        // SAFETY: `d` is non-null and points to the caller's descriptor.
        let desc = unsafe { d.read_unaligned() };
        let (mut rsrc, row, slice) = layout(fam, &desc, row_pitch, slice_pitch)?;
        let buffer = desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DB;
        if data as u64 % 256 != 0 && !buffer {
            // A T# holds address bits 8..47 (a V# the whole address).
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        rsrc.base = data as u64;
        let unsupported = HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED as Status;
        let mut words = [0u32; IMAGE_DWORDS];
        if buffer {
            words[..4].copy_from_slice(&buffer_words(fam, &rsrc).ok_or(unsupported)?);
        } else {
            words[..8].copy_from_slice(&rsrc.encode(fam).ok_or(unsupported)?);
        }
        let obj = crate::memory::allocate(object_pool()?, IMAGE_DWORDS * 4)?.cast::<u32>();
        words[8] = desc.format.channel_type;
        words[9] = desc.format.channel_order;
        words[10] = desc.width as u32;
        // SAFETY: `obj` is a fresh allocation of IMAGE_DWORDS dwords (page aligned).
        unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), obj, IMAGE_DWORDS) };
        let handle = obj as u64;
        images().get_or_insert_with(HashMap::new).insert(handle, Image { rsrc, row, slice });
        // SAFETY: `image` is a non-null out-pointer.
        unsafe { put(image.cast(), hsa_ext_image_t { handle }) };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_create(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    _access_permission: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    // SAFETY: forwarded caller pointers.
    unsafe { create(agent, image_descriptor, image_data, 0, 0, image) }
}

pub(crate) unsafe extern "C" fn hsa_ext_image_create_with_layout(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    _access_permission: hsa_access_permission_t,
    image_data_layout: hsa_ext_image_data_layout_t,
    image_data_row_pitch: usize,
    image_data_slice_pitch: usize,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    if image_data_layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: forwarded caller pointers.
    unsafe { create(agent, image_descriptor, image_data, image_data_row_pitch, image_data_slice_pitch, image) }
}

pub(crate) unsafe extern "C" fn hsa_ext_image_destroy(_agent: hsa_agent_t, image: hsa_ext_image_t) -> hsa_status_t {
    status(|| {
        images().as_mut().and_then(|m| m.remove(&image.handle)).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)?;
        crate::memory::free(image.handle as *mut c_void)
    })
}

fn lookup(image: hsa_ext_image_t) -> Result<Image, Status> {
    images().as_ref().and_then(|m| m.get(&image.handle).copied()).ok_or(HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

/// The texels of `region` as (byte offset in the image, byte offset in a linear buffer with `row`/`slice`
/// pitches, bytes of one row of the region), row by row.
fn rows(
    img: &Image,
    region: &hsa_ext_image_region_t,
    row: usize,
    slice: usize,
) -> Result<Vec<(usize, usize, usize)>, Status> {
    let (o, r) = (region.offset, region.range);
    let bpe = img.rsrc.bpe() as usize;
    let (w, h, d) = (img.rsrc.width, img.rsrc.height, img.rsrc.depth);
    let fits = |off: u32, n: u32, size: u32| off.checked_add(n).is_some_and(|e| e <= size);
    if !fits(o.x, r.x, w) || !fits(o.y, r.y.max(1), h) || !fits(o.z, r.z.max(1), d) {
        return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }
    let mut out = Vec::new();
    for z in 0..r.z.max(1) as usize {
        for y in 0..r.y.max(1) as usize {
            let at = (o.z as usize + z) * img.slice + (o.y as usize + y) * img.row + o.x as usize * bpe;
            out.push((at, z * slice + y * row, r.x as usize * bpe));
        }
    }
    Ok(out)
}

pub(crate) unsafe extern "C" fn hsa_ext_image_import(
    _agent: hsa_agent_t,
    src_memory: *const c_void,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_image: hsa_ext_image_t,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    status(|| {
        if src_memory.is_null() || image_region.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let img = lookup(dst_image)?;
        // SAFETY: non-null caller region.
        let region = unsafe { image_region.read_unaligned() };
        let bpe = img.rsrc.bpe() as usize;
        let row = if src_row_pitch == 0 { region.range.x as usize * bpe } else { src_row_pitch };
        let slice = if src_slice_pitch == 0 { row * region.range.y.max(1) as usize } else { src_slice_pitch };
        for (at, from, n) in rows(&img, &region, row, slice)? {
            // SAFETY: the row lies inside the image (checked by `rows`) and inside the caller's source.
            unsafe { std::ptr::copy((src_memory as *const u8).add(from), (img.rsrc.base as *mut u8).add(at), n) };
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_export(
    _agent: hsa_agent_t,
    src_image: hsa_ext_image_t,
    dst_memory: *mut c_void,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    status(|| {
        if dst_memory.is_null() || image_region.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let img = lookup(src_image)?;
        // SAFETY: non-null caller region.
        let region = unsafe { image_region.read_unaligned() };
        let bpe = img.rsrc.bpe() as usize;
        let row = if dst_row_pitch == 0 { region.range.x as usize * bpe } else { dst_row_pitch };
        let slice = if dst_slice_pitch == 0 { row * region.range.y.max(1) as usize } else { dst_slice_pitch };
        for (at, to, n) in rows(&img, &region, row, slice)? {
            // SAFETY: the row lies inside the image (checked by `rows`) and inside the caller's destination.
            unsafe { std::ptr::copy((img.rsrc.base as *const u8).add(at), (dst_memory as *mut u8).add(to), n) };
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_copy(
    _agent: hsa_agent_t,
    src_image: hsa_ext_image_t,
    src_offset: *const hsa_dim3_t,
    dst_image: hsa_ext_image_t,
    dst_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
) -> hsa_status_t {
    status(|| {
        if src_offset.is_null() || dst_offset.is_null() || range.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let (src, dst) = (lookup(src_image)?, lookup(dst_image)?);
        if src.rsrc.bpe() != dst.rsrc.bpe() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null caller structures.
        let (so, dof, r) =
            unsafe { (src_offset.read_unaligned(), dst_offset.read_unaligned(), range.read_unaligned()) };
        let a = rows(&src, &hsa_ext_image_region_t { offset: so, range: r }, 0, 0)?;
        let b = rows(&dst, &hsa_ext_image_region_t { offset: dof, range: r }, 0, 0)?;
        for ((from, _, n), (to, _, _)) in a.into_iter().zip(b) {
            // SAFETY: both rows lie inside their images (checked by `rows`).
            unsafe { std::ptr::copy((src.rsrc.base as *const u8).add(from), (dst.rsrc.base as *mut u8).add(to), n) };
        }
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_image_clear(
    _agent: hsa_agent_t,
    image: hsa_ext_image_t,
    data: *const c_void,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    status(|| {
        if data.is_null() || image_region.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        let img = lookup(image)?;
        // SAFETY: non-null caller region; the pattern is four 32-bit components (float or integer, by the
        // image's channel type) as the HSA specification defines it.
        let (region, pattern) = unsafe { (image_region.read_unaligned(), data.cast::<[u32; 4]>().read_unaligned()) };
        // The pattern is in channel order R, G, B, A: route each component to the memory channel its
        // DST_SEL names, as a store does.
        let mut ch = [0u32; 4];
        for (k, s) in img.rsrc.sel.iter().enumerate() {
            if (4..=7).contains(s) {
                ch[usize::from(s - 4)] = pattern[k];
            }
        }
        let bpe = img.rsrc.bpe() as usize;
        let mut texel = [0u8; 16];
        pack_texel(img.rsrc.dfmt, img.rsrc.nfmt, &ch, &mut texel[..bpe]);
        for (at, _, n) in rows(&img, &region, 0, 0)? {
            for k in (0..n).step_by(bpe) {
                // SAFETY: the texel lies inside the image (checked by `rows`).
                unsafe { std::ptr::copy_nonoverlapping(texel.as_ptr(), (img.rsrc.base as *mut u8).add(at + k), bpe) };
            }
        }
        Ok(())
    })
}

fn address_mode(m: u32) -> Result<u8, Status> {
    Ok(match m {
        HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE => clamp::CLAMP_LAST_TEXEL,
        HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER => clamp::CLAMP_BORDER,
        HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT => clamp::MIRROR,
        HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED | HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT => clamp::WRAP,
        _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
    })
}

/// Writes a sampler object as ROCr's `PopulateSamplerSrd` fills it.
fn sampler_create(
    agent: hsa_agent_t,
    d: hsa_ext_sampler_descriptor_v2_t,
    sampler: *mut hsa_ext_sampler_t,
) -> Result<(), Status> {
    image_gpu(agent)?;
    let linear = match d.filter_mode {
        HSA_EXT_SAMPLER_FILTER_MODE_NEAREST => false,
        HSA_EXT_SAMPLER_FILTER_MODE_LINEAR => true,
        _ => return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
    };
    let s = Sampler {
        clamp: [
            address_mode(d.address_modes[0])?,
            address_mode(d.address_modes[1])?,
            address_mode(d.address_modes[2])?,
        ],
        unnormalized: d.coordinate_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED,
        linear,
        border: 0,
    };
    let obj = crate::memory::allocate(object_pool()?, SAMPLER_DWORDS * 4)?.cast::<u32>();
    // SAFETY: `obj` is a fresh allocation of SAMPLER_DWORDS dwords.
    unsafe { std::ptr::copy_nonoverlapping(s.encode().as_ptr(), obj, 4) };
    // SAFETY: `sampler` is a non-null out-pointer (checked by the callers).
    unsafe { put(sampler.cast(), hsa_ext_sampler_t { handle: obj as u64 }) };
    Ok(())
}

pub(crate) unsafe extern "C" fn hsa_ext_sampler_create(
    agent: hsa_agent_t,
    sampler_descriptor: *const hsa_ext_sampler_descriptor_t,
    sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t {
    status(|| {
        if sampler_descriptor.is_null() || sampler.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null caller descriptor.
        let d = unsafe { sampler_descriptor.read_unaligned() };
        let v2 = hsa_ext_sampler_descriptor_v2_t {
            coordinate_mode: d.coordinate_mode,
            filter_mode: d.filter_mode,
            address_modes: [d.address_mode; 3],
        };
        sampler_create(agent, v2, sampler)
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_sampler_create_v2(
    agent: hsa_agent_t,
    sampler_descriptor: *const hsa_ext_sampler_descriptor_v2_t,
    sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t {
    status(|| {
        if sampler_descriptor.is_null() || sampler.is_null() {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        // SAFETY: non-null caller descriptor.
        sampler_create(agent, unsafe { sampler_descriptor.read_unaligned() }, sampler)
    })
}

pub(crate) unsafe extern "C" fn hsa_ext_sampler_destroy(
    _agent: hsa_agent_t,
    sampler: hsa_ext_sampler_t,
) -> hsa_status_t {
    status(|| {
        if !crate::memory::contains(sampler.handle as usize, SAMPLER_DWORDS * 4) {
            return Err(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        }
        crate::memory::free(sampler.handle as *mut c_void)
    })
}

#[cfg(test)]
#[path = "images_tests.rs"]
mod tests;
