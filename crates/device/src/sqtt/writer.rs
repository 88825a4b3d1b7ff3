//! Token writers: the bit-level inverse of `rocprof-sqtt`'s token readers. RDNA streams are
//! nibble streams (a token starts at any 4-bit unit, low nibble of a byte first); gfx9 streams are
//! 16-bit words after an 8-byte header. Both keep at most `capacity` bytes and count the rest as
//! dropped, as the hardware's buffer does when it fills.

/// A nibble stream with a byte capacity.
#[derive(Debug, Clone)]
pub(crate) struct NibbleWriter {
    bytes: Vec<u8>,
    /// Nibbles written (kept or dropped).
    nibbles: u64,
    capacity: u64,
}

impl NibbleWriter {
    pub(crate) fn new(capacity: u64) -> Self {
        Self { bytes: Vec::new(), nibbles: 0, capacity }
    }

    /// Appends the low `n` nibbles of `value` (n <= 16), low nibble first.
    pub(crate) fn put(&mut self, value: u64, n: u32) {
        for k in 0..n {
            let nib = ((value >> (4 * k)) & 0xF) as u8;
            let pos = self.nibbles;
            self.nibbles += 1;
            if pos / 2 >= self.capacity {
                continue;
            }
            if pos.is_multiple_of(2) {
                self.bytes.push(nib);
            } else if let Some(b) = self.bytes.last_mut() {
                *b |= nib << 4;
            }
        }
    }

    /// Bytes written so far, kept or not.
    pub(crate) fn len_bytes(&self) -> u64 {
        self.nibbles.div_ceil(2)
    }

    /// Whether everything written so far fit.
    pub(crate) fn fits(&self) -> bool {
        self.len_bytes() <= self.capacity
    }

    /// The kept bytes, padded with zero (`NOP`) nibbles to a whole number of 32-byte units, and
    /// the bytes that did not fit.
    pub(crate) fn finish(mut self) -> (Vec<u8>, u64) {
        let total = self.len_bytes().next_multiple_of(32);
        let kept = total.min(self.capacity / 32 * 32);
        self.bytes.resize(kept as usize, 0);
        (self.bytes, total - kept)
    }
}

/// A stream of 16-bit words with a byte capacity.
#[derive(Debug, Clone)]
pub(crate) struct WordWriter {
    bytes: Vec<u8>,
    written: u64,
    capacity: u64,
}

impl WordWriter {
    pub(crate) fn new(capacity: u64) -> Self {
        Self { bytes: Vec::new(), written: 0, capacity }
    }

    /// Appends the low `words` 16-bit words of `value`.
    pub(crate) fn put(&mut self, value: u64, words: u32) {
        for k in 0..words {
            let w = (value >> (16 * k)) as u16;
            if self.written + 2 <= self.capacity {
                self.bytes.extend_from_slice(&w.to_le_bytes());
            }
            self.written += 2;
        }
    }

    pub(crate) fn fits(&self) -> bool {
        self.written <= self.capacity
    }

    /// The kept bytes padded with zero words so that the data after the first `header` bytes is
    /// a whole number of 32-byte units, and the bytes that did not fit.
    pub(crate) fn finish(mut self, header: u64) -> (Vec<u8>, u64) {
        let total = header + (self.written.saturating_sub(header)).next_multiple_of(32);
        let kept = total.min(header + self.capacity.saturating_sub(header) / 32 * 32);
        self.bytes.resize(kept as usize, 0);
        (self.bytes, total - kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibbles_go_low_first_and_overflow_is_counted() {
        let mut w = NibbleWriter::new(64);
        w.put(0x21, 2);
        w.put(0x3, 1);
        assert_eq!(w.len_bytes(), 2);
        let (b, dropped) = w.clone().finish();
        assert_eq!((&b[..2], b.len(), dropped), (&[0x21, 0x03][..], 32, 0));
        for _ in 0..100 {
            w.put(0xFFFF, 4);
        }
        assert!(!w.fits());
        let (b, dropped) = w.finish();
        assert_eq!(b.len(), 64);
        assert_eq!(dropped, (2 + 200u64).next_multiple_of(32) - 64);
    }

    #[test]
    fn words_keep_the_header_outside_the_units() {
        let mut w = WordWriter::new(8 + 64);
        w.put(0x1122_3344_5566_7788, 4);
        w.put(0xABCD, 1);
        let (b, dropped) = w.finish(8);
        assert_eq!((b.len(), dropped), (8 + 32, 0));
        assert_eq!(&b[8..10], &[0xCD, 0xAB]);
    }
}
