//! Fixed register addresses (absolute dword addresses) and GRBM_GFX_INDEX
//! encodings shared by the PMC and SQTT builders. Sources: AMD GC register
//! headers `gc_9_*_offset.h`, `gc_10_3_0_offset.h`, `gc_11_0_0_offset.h`,
//! `gc_12_0_0_offset.h` with the GC segment base applied.

use crate::target::Family;

/// GRBM_GFX_INDEX (all families).
pub const GRBM_GFX_INDEX: u32 = 0xC200;
/// CP_PERFMON_CNTL (gfx12: CP_CP_PERFMON_CNTL).
pub const CP_PERFMON_CNTL: u32 = 0xD808;
/// RLC_PERFMON_CLK_CNTL on gfx9 (the only family that writes it).
pub const RLC_PERFMON_CLK_CNTL_GFX9: u32 = 0xDCBF;
/// COMPUTE_PERFCOUNT_ENABLE (SH space).
pub const COMPUTE_PERFCOUNT_ENABLE: u32 = 0x2E0B;
/// COMPUTE_THREAD_TRACE_ENABLE (SH space, gfx10+).
pub const COMPUTE_THREAD_TRACE_ENABLE: u32 = 0x2E1E;
/// SQ_PERFCOUNTER_CTRL.
pub const SQ_PERFCOUNTER_CTRL: u32 = 0xD9E0;
/// SQ_PERFCOUNTER_MASK (gfx9).
pub const SQ_PERFCOUNTER_MASK: u32 = 0xD9E1;
/// SQ_PERFCOUNTER_CTRL2 (gfx11/12).
pub const SQ_PERFCOUNTER_CTRL2: u32 = 0xD9E2;
/// SQ_PERFCOUNTER0_SELECT (gfx9: slot n at +n).
pub const SQ_PERFCOUNTER0_SELECT: u32 = 0xD9C0;
/// GUS_PERFCOUNTER_RSLT_CNTL (gfx10/11).
pub const GUS_PERFCOUNTER_RSLT_CNTL: u32 = 0xDE05;
/// SQ_THREAD_TRACE_USERDATA_2 (all families).
pub const SQ_THREAD_TRACE_USERDATA_2: u32 = 0xC342;
/// SQ_THREAD_TRACE_USERDATA_3 (all families).
pub const SQ_THREAD_TRACE_USERDATA_3: u32 = 0xC343;

/// GRBM_GFX_INDEX value: broadcast to every SE, SA and instance.
pub const GRBM_BROADCAST: u32 = 0xE000_0000;

fn inst_field(family: Family, i: u32) -> u32 {
    if family == Family::Gfx12 {
        i & 0x7F
    } else {
        i & 0xFF
    }
}

fn sa_field(family: Family, sa: u32) -> u32 {
    if family == Family::Gfx12 {
        (sa & 0x3) << 8
    } else {
        (sa & 0xFF) << 8
    }
}

fn se_field(family: Family, se: u32) -> u32 {
    if family == Family::Gfx12 {
        (se & 0xF) << 16
    } else {
        (se & 0xFF) << 16
    }
}

/// One block instance, all SEs and SAs.
pub fn grbm_inst(family: Family, i: u32) -> u32 {
    0xA000_0000 | inst_field(family, i)
}

/// One SE, all SAs and instances.
pub fn grbm_se(family: Family, se: u32) -> u32 {
    0x6000_0000 | se_field(family, se)
}

/// One instance of one SE, all SAs.
pub fn grbm_inst_se(family: Family, i: u32, se: u32) -> u32 {
    0x2000_0000 | se_field(family, se) | inst_field(family, i)
}

/// One SE and SA, all instances (SQTT programming).
pub fn grbm_se_sa(family: Family, se: u32, sa: u32) -> u32 {
    0x4000_0000 | se_field(family, se) | sa_field(family, sa)
}

/// One instance of one SE and SA.
pub fn grbm_inst_se_sa(family: Family, i: u32, se: u32, sa: u32) -> u32 {
    se_field(family, se) | sa_field(family, sa) | inst_field(family, i)
}

/// One WGP of one SE and SA (gfx11/12 SQ and gfx12 WGP blocks).
pub fn grbm_se_sa_wgp(family: Family, se: u32, sa: u32, wgp: u32) -> u32 {
    se_field(family, se) | sa_field(family, sa) | inst_field(family, wgp << 2)
}

/// One instance ("row") of one WGP (gfx12 TA/TCP/TD; gfx11 puts the instance at bit 1).
pub fn grbm_inst_se_sa_wgp(family: Family, i: u32, se: u32, sa: u32, wgp: u32) -> u32 {
    let low = if family == Family::Gfx11 { wgp << 2 | i << 1 } else { wgp << 2 | i };
    se_field(family, se) | sa_field(family, sa) | inst_field(family, low)
}
