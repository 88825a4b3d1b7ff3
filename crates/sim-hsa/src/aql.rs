//! Little-endian fields of a 64-byte AQL packet (a leaf: the packet processor, the PM4 executor and
//! scratch setup decode packets with it).

pub(crate) fn u16_at(p: &[u8; 64], off: usize) -> u16 {
    u16::from_le_bytes([p[off], p[off + 1]])
}
pub(crate) fn u32_at(p: &[u8; 64], off: usize) -> u32 {
    u32::from_le_bytes(p[off..off + 4].try_into().expect("4 bytes"))
}
pub(crate) fn u64_at(p: &[u8; 64], off: usize) -> u64 {
    u64::from_le_bytes(p[off..off + 8].try_into().expect("8 bytes"))
}
