//! The 64-byte AMD vendor-specific "PM4-IB" AQL packet
//! (`hsa_ext_amd_aql_pm4_packet_t`) that wraps one PM4 stream through an
//! INDIRECT_BUFFER, plus the finished-stream type the builders return.

use crate::error::{Error, Result};
use crate::pm4::{header, to_bytes, OP_INDIRECT_BUFFER};
use crate::target::Family;

/// Size of an AQL packet in bytes.
pub const AQL_PACKET_SIZE: usize = 64;
/// `pm4_ib_format` value AMD_AQL_FORMAT_PM4_IB.
pub const AMD_AQL_FORMAT_PM4_IB: u16 = 1;
/// `dw_count_remain` aqlprofile writes.
pub const DW_COUNT_REMAIN: u32 = 10;
/// Largest IB_SIZE (20-bit dword count).
pub const MAX_IB_DWORDS: usize = (1 << 20) - 1;

/// AQL header values rocprofiler-sdk sets before submitting (type VENDOR_SPECIFIC,
/// barrier bit where noted). aqlprofile itself leaves the header 0.
pub mod aql_header {
    /// PMC start.
    pub const PMC_START: u16 = 0x0000;
    /// PMC stop / read (barrier).
    pub const PMC_STOP_READ: u16 = 0x0100;
    /// ATT start / stop (barrier).
    pub const ATT: u16 = 0x0100;
    /// Code-object marker.
    pub const MARKER: u16 = 0x0000;
}

/// Builds the 64-byte AQL packet for a PM4 stream of `ib_dwords` dwords
/// placed at `ib_addr`. The header (bytes 0..2) and completion signal
/// (bytes 56..64) are left zero, as aqlprofile returns them.
pub fn pm4_ib_packet(family: Family, ib_addr: u64, ib_dwords: usize) -> Result<[u8; AQL_PACKET_SIZE]> {
    if ib_dwords > MAX_IB_DWORDS {
        return Err(Error::StreamTooLong { dwords: ib_dwords });
    }
    if !ib_addr.is_multiple_of(4) {
        return Err(Error::Misaligned { what: "indirect buffer", addr: ib_addr, align: 4 });
    }
    // IB control: IB_SIZE[19:0] | VALID[23] | cache policy [29:28]
    // (stream on gfx9/10/11, the "LU" temporal hint on gfx12).
    let cache = if family == Family::Gfx12 { 3 } else { 1 };
    let control = ib_dwords as u32 | 1 << 23 | cache << 28;
    let mut p = [0u8; AQL_PACKET_SIZE];
    p[2..4].copy_from_slice(&AMD_AQL_FORMAT_PM4_IB.to_le_bytes());
    let ib = [header(OP_INDIRECT_BUFFER, 4), (ib_addr as u32) & !3, (ib_addr >> 32) as u32, control];
    p[4..20].copy_from_slice(&to_bytes(&ib));
    p[20..24].copy_from_slice(&DW_COUNT_REMAIN.to_le_bytes());
    Ok(p)
}

/// One finished PM4 stream, where it lives in the command buffer, and the AQL
/// packet that runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pm4Packet {
    /// The 64-byte AQL packet (header and completion signal zero).
    pub aql: [u8; AQL_PACKET_SIZE],
    /// Device address of the stream inside the command buffer.
    pub ib_addr: u64,
    /// The PM4 dwords the caller must copy to `ib_addr`.
    pub pm4: Vec<u32>,
}

impl Pm4Packet {
    pub(crate) fn new(family: Family, ib_addr: u64, pm4: Vec<u32>) -> Result<Pm4Packet> {
        let aql = pm4_ib_packet(family, ib_addr, pm4.len())?;
        Ok(Pm4Packet { aql, ib_addr, pm4 })
    }

    /// The PM4 stream as little-endian bytes.
    pub fn pm4_bytes(&self) -> Vec<u8> {
        to_bytes(&self.pm4)
    }

    /// Stream size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.pm4.len() * 4
    }

    /// The AQL packet with the given header value filled in.
    pub fn aql_with_header(&self, aql_header: u16) -> [u8; AQL_PACKET_SIZE] {
        let mut p = self.aql;
        p[0..2].copy_from_slice(&aql_header.to_le_bytes());
        p
    }
}

/// Rounds `n` up to the 256-byte command-buffer granularity.
pub(crate) fn align256(n: usize) -> usize {
    n.div_ceil(256) * 256
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ib_packet_layout() {
        let p = pm4_ib_packet(Family::Gfx9, 0x10_0000_2800, 64).unwrap();
        assert_eq!(&p[0..4], &[0, 0, 1, 0]);
        assert_eq!(&p[4..8], &0xC002_3F00u32.to_le_bytes());
        assert_eq!(&p[8..12], &0x2800u32.to_le_bytes());
        assert_eq!(&p[12..16], &0x10u32.to_le_bytes());
        assert_eq!(&p[16..20], &0x1080_0040u32.to_le_bytes());
        assert_eq!(&p[20..24], &10u32.to_le_bytes());
        assert!(p[24..].iter().all(|&b| b == 0));
        let p = pm4_ib_packet(Family::Gfx12, 0x1000, 3).unwrap();
        assert_eq!(&p[16..20], &0x3080_0003u32.to_le_bytes());
    }

    #[test]
    fn ib_packet_rejects_bad_input() {
        assert_eq!(
            pm4_ib_packet(Family::Gfx9, 0x1002, 1),
            Err(Error::Misaligned { what: "indirect buffer", addr: 0x1002, align: 4 })
        );
        assert_eq!(pm4_ib_packet(Family::Gfx9, 0, 1 << 20), Err(Error::StreamTooLong { dwords: 1 << 20 }));
    }
}
