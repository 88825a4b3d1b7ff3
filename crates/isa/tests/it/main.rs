//! Integration tests of rocprof-isa: real code objects (the fixtures' OpenCL kernels built by clang-19,
//! HIP kernels built by Debian's hipcc) run on the interpreter against values worked out on the host,
//! hand-assembled instructions with hand-worked results, and LLVM's disassembler as a cross-check.
#![allow(clippy::needless_range_loop)]

mod agpr;
mod buffer_format;
mod classes;
mod co_resident;
mod counts;
mod d16_bytes;
mod d16_sramecc;
mod dot4;
mod ds_cmpstore;
mod dwarf_line;
mod fixtures;
mod fused_tails;
mod gws;
mod harness;
mod lane_kernels;
mod lds_spans;
mod lds_wrap;
mod legacy16;
mod llvm;
mod loop_kernel;
mod mfma;
mod mfma_blocks;
mod mfma_f8f6f4;
mod mfma_fp8;
mod mfma_gfx950;
mod mfma_scale;
mod mfma_timing;
mod mfma_xf32;
mod packed_formats;
mod pk_f32_consts;
mod salu_gfx12;
mod scratch_buffer;
mod scratch_mubuf;
mod sdwa;
mod smfmac;
mod smfmac_gfx950;
mod swmmac;
mod tables;
mod tbuffer;
mod true16;
mod uniform;
mod valu_blocks;
mod vopd;
mod wmma;
mod wmma_layouts;
mod wmma_more;
