//! Nibble-addressed reads over a borrowed byte slice, little-endian, offset-aware.
//!
//! RDNA trace tokens are not byte aligned: a token starts at any 4-bit unit, low nibble of a byte
//! first. [`NibbleCursor::window`] returns the 64 bits starting at a nibble, zero-padded past the
//! end, which is all a token reader needs (fields never sit above bit 63).

/// A position-free view of the input that reads 64-bit windows at nibble offsets.
#[derive(Clone, Copy, Debug)]
pub struct NibbleCursor<'data> {
    data: &'data [u8],
}

impl<'data> NibbleCursor<'data> {
    /// Wraps `data`.
    pub fn new(data: &'data [u8]) -> Self {
        Self { data }
    }

    /// The bytes under the cursor.
    pub(crate) fn bytes(&self) -> &'data [u8] {
        self.data
    }

    /// Length in nibbles.
    pub fn len_nibbles(&self) -> usize {
        self.data.len() * 2
    }

    /// The 64 bits starting at nibble `nib` (bit 0 = that nibble's low bit); missing bytes read as 0.
    #[inline(always)]
    pub fn window(&self, nib: usize) -> u64 {
        let byte = nib >> 1;
        let odd = (nib & 1) as u32 * 4;
        if let Some(chunk) = self.data.get(byte..byte + 9) {
            let lo =
                u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
            if odd == 0 {
                lo
            } else {
                (lo >> 4) | (u64::from(chunk[8]) << 60)
            }
        } else {
            self.window_slow(byte, odd)
        }
    }

    #[cold]
    fn window_slow(&self, byte: usize, odd: u32) -> u64 {
        let mut buf = [0u8; 9];
        if let Some(tail) = self.data.get(byte..) {
            let n = tail.len().min(9);
            buf[..n].copy_from_slice(&tail[..n]);
        }
        let lo = u64::from_le_bytes([buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]]);
        if odd == 0 {
            lo
        } else {
            (lo >> 4) | (u64::from(buf[8]) << 60)
        }
    }

    /// Number of whole zero bytes starting at byte `byte` (used to skip `NOP` padding fast).
    #[inline]
    pub fn zero_run(&self, byte: usize) -> usize {
        let Some(rest) = self.data.get(byte..) else { return 0 };
        let mut n = 0;
        let mut words = rest.chunks_exact(8);
        for w in &mut words {
            if u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]) != 0 {
                break;
            }
            n += 8;
        }
        for &b in &rest[n..] {
            if b != 0 {
                break;
            }
            n += 1;
        }
        n
    }
}

/// Reads a little-endian u16 at `off`, `None` past the end.
#[inline(always)]
pub(crate) fn le_u16(data: &[u8], off: usize) -> Option<u16> {
    let b = data.get(off..off + 2)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// Reads a little-endian u32 at `off`, `None` past the end.
#[inline(always)]
pub(crate) fn le_u32(data: &[u8], off: usize) -> Option<u32> {
    let b = data.get(off..off + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Reads a little-endian u64 at `off`, `None` past the end.
#[inline(always)]
pub(crate) fn le_u64(data: &[u8], off: usize) -> Option<u64> {
    let b = data.get(off..off + 8)?;
    Some(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_at_even_and_odd_nibbles() {
        let data = [0x21, 0x43, 0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f, 0x1f];
        let c = NibbleCursor::new(&data);
        assert_eq!(c.window(0), 0x0fed_cba9_8765_4321);
        assert_eq!(c.window(1), 0xf0fe_dcba_9876_5432);
        // past the end reads zeros
        assert_eq!(c.window(16), 0x1f);
        assert_eq!(c.window(17), 0x1);
        assert_eq!(c.window(40), 0);
    }

    #[test]
    fn zero_runs() {
        let data = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0];
        let c = NibbleCursor::new(&data);
        assert_eq!(c.zero_run(0), 10);
        assert_eq!(c.zero_run(11), 1);
        assert_eq!(c.zero_run(50), 0);
    }
}
