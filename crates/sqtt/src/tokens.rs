//! Token iterators: bytes in, timed tokens out, one iterator per stream format.
//!
//! Time is the per-stream counter that AMD's decoder reports: it starts at 0 at the first token
//! and every token adds its delta field before it is yielded. `NOP` padding is consumed silently.

use crate::cursor::NibbleCursor;
use crate::error::{DecodeError, DecodeErrorKind, Result};
use crate::format::rdna::{self, LayoutTable, RdnaKind};

/// Upper bound of stream times (2^60 cycles; real streams stay far below).
pub const MAX_TIME: i64 = 1 << 60;

/// One RDNA token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RdnaToken {
    /// Token type.
    pub kind: RdnaKind,
    /// Stream time after this token's delta.
    pub time: i64,
    /// The 64 bits starting at the token (fields sit at their documented positions).
    pub raw: u64,
    /// Position of the token's first nibble.
    pub nibble: usize,
}

/// Iterator over the tokens of one RDNA (layout 3 or 4) stream.
#[derive(Clone, Debug)]
pub struct RdnaTokens<'data> {
    cur: NibbleCursor<'data>,
    pos: usize,
    end: usize,
    time: i64,
    table: &'static LayoutTable,
    header: u64,
}

impl<'data> RdnaTokens<'data> {
    /// Checks the layout header and starts at the first token (the header itself is yielded first).
    pub fn new(data: &'data [u8]) -> Result<Self> {
        if data.len() < 8 {
            return Err(DecodeError::new(0, DecodeErrorKind::TruncatedHeader));
        }
        let cur = NibbleCursor::new(data);
        let header = cur.window(0);
        if rdna::LAYOUT3.kind_by_byte[(header & 0xff) as usize] != RdnaKind::LayoutHeader {
            return Err(DecodeError::new(0, DecodeErrorKind::UnknownLayout(0)));
        }
        let table = match rdna::header_layout(header) {
            3 => &rdna::LAYOUT3,
            4 => &rdna::LAYOUT4,
            other => return Err(DecodeError::new(0, DecodeErrorKind::UnknownLayout(other))),
        };
        Ok(Self { cur, pos: 0, end: cur.len_nibbles(), time: 0, table, header })
    }

    /// Trace layout (3 = gfx11, 4 = gfx12).
    pub fn layout(&self) -> u8 {
        self.table.layout
    }

    /// The raw 64-bit layout header.
    pub fn header(&self) -> u64 {
        self.header
    }

    /// Current stream time.
    pub fn time(&self) -> i64 {
        self.time
    }
}

impl Iterator for RdnaTokens<'_> {
    type Item = Result<RdnaToken>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.pos >= self.end {
                return None;
            }
            let w = self.cur.window(self.pos);
            if w & 0xf == 0 {
                // NOP padding; whole zero bytes are skipped in one go.
                if w & 0xff == 0 && self.pos & 1 == 0 {
                    let z = self.cur.zero_run(self.pos >> 1);
                    self.pos += 2 * z.max(1);
                } else {
                    self.pos += 1;
                }
                continue;
            }
            let kind = self.table.kind_by_byte[(w & 0xff) as usize];
            let offset = (self.pos >> 1) as u64;
            if kind == RdnaKind::Unknown {
                // Resynchronise one nibble further, as if this were padding.
                self.pos += 1;
                return Some(Err(DecodeError::new(offset, DecodeErrorKind::UnknownToken((w & 0xff) as u8))));
            }
            let n = self.table.nibbles[kind as usize] as usize;
            if self.pos + n > self.end {
                self.pos = self.end;
                return Some(Err(DecodeError::new(offset, DecodeErrorKind::TruncatedToken)));
            }
            let delta = match kind {
                RdnaKind::TsDeltaOrMark => match rdna::mark_value(w, self.table.layout) {
                    Some(_) => 0,
                    None => rdna::wide_delta(w, self.table.layout) as i64,
                },
                RdnaKind::TsDeltaShort => rdna::bits(w, 4, 4) as i64 + 4,
                _ => {
                    let (lo, width) = self.table.delta[kind as usize];
                    if width == 0 {
                        0
                    } else {
                        rdna::bits(w, lo as u32, width as u32) as i64
                    }
                }
            };
            // Saturate far below i64::MAX so that sums of two times never overflow downstream.
            self.time = self.time.saturating_add(delta).min(MAX_TIME);
            let tok = RdnaToken { kind, time: self.time, raw: w, nibble: self.pos };
            self.pos += n;
            return Some(Ok(tok));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(layout: u64) -> [u8; 8] {
        (0x11 | (layout << 7)).to_le_bytes()
    }

    #[test]
    fn header_then_timed_tokens() {
        let mut data = header(3).to_vec();
        // TS_DELTA_SHORT with field 2 (+6), then a NOP nibble, then VALUINST slot 3 delta 1:
        // byte 0x28 = TS_DELTA_SHORT field 2; VALUINST = 0b011 | delta 1 << 3 | slot 3 << 7 = 0x18b.
        data.push(0x28);
        data.extend_from_slice(&[0xb0, 0x18]); // nibbles: 0 (NOP), b, 8, 1
        let toks: Vec<_> = RdnaTokens::new(&data).unwrap().map(|t| t.unwrap()).collect();
        assert_eq!(toks.len(), 3);
        assert_eq!(toks[0].kind, RdnaKind::LayoutHeader);
        assert_eq!((toks[1].kind, toks[1].time), (RdnaKind::TsDeltaShort, 6));
        assert_eq!((toks[2].kind, toks[2].time), (RdnaKind::ValuInst, 7));
        assert_eq!(rdna::slot7(toks[2].raw), 3);
    }

    #[test]
    fn rejects_streams_without_layout_header() {
        let e = RdnaTokens::new(&[0u8; 16]).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::UnknownLayout(0));
        let e = RdnaTokens::new(&header(7)).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::UnknownLayout(7));
        let e = RdnaTokens::new(&[0x11]).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::TruncatedHeader);
    }

    #[test]
    fn truncated_last_token_is_an_error_with_offset() {
        let mut data = header(3).to_vec();
        data.push(0x09); // REG needs 16 nibbles
        let r: Vec<_> = RdnaTokens::new(&data).unwrap().collect();
        assert_eq!(r.len(), 2);
        assert_eq!(r[1], Err(DecodeError::new(8, DecodeErrorKind::TruncatedToken)));
    }
}
