//! Token iterators: bytes in, timed tokens out, one iterator per stream format.
//!
//! Time is the per-stream counter that AMD's decoder reports: it starts at 0 at the first token
//! and every token adds its delta field before it is yielded. `NOP` padding is consumed silently.

use crate::cursor::{le_u64, NibbleCursor};
use crate::error::{DecodeError, DecodeErrorKind, Result};
use crate::format::gfx9::{self, kind, Header};
use crate::format::rdna::{self, LayoutTable, RdnaKind};
use std::collections::VecDeque;

/// Upper bound of stream times (2^60 cycles; real streams stay far below).
pub const MAX_TIME: i64 = 1 << 60;

/// Nibbles before the end of an RDNA stream where [`RdnaTokens::for_each_token`] leaves its
/// lean loop: the longest token (18 nibbles) plus the 32-nibble tail, with room for its
/// 16-byte reads.
const BULK_MARGIN: usize = 18 + 32;

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
    /// True for tokens in the stream's tail: the previous token (or padding nibble) started
    /// within the last 32 nibbles. AMD's decoder reads the tail with a different loop, which
    /// treats reference-clock markers differently (see the RDNA decoder).
    pub tail: bool,
}

/// Receives the tokens of [`RdnaTokens::for_each_token`]. A trait rather than a closure so that
/// an implementation can ask for its method to be inlined into the reading loop.
pub trait TokenSink {
    /// One token, or a damaged one.
    fn token(&mut self, token: Result<RdnaToken>);
}

impl<F: FnMut(Result<RdnaToken>)> TokenSink for F {
    #[inline]
    fn token(&mut self, token: Result<RdnaToken>) {
        self(token)
    }
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
    /// Offset of a token cut off by the end of the buffer, reported after it was yielded.
    cut: Option<u64>,
    /// Nibble where the previous token (or padding nibble) started.
    prev: usize,
    /// Layout 4: the previous token was a `WAVE_START_EXT`, whose optional 8-bit extension
    /// follows when the next nibble's low bit is set.
    after_ext: bool,
    /// Kinds (bit `1 << kind`) whose time is counted but which are not yielded.
    skip: u32,
    /// With `REG` in `skip`: the command-processor register writes (CS flag set) still yielded.
    keep_regs: [u16; 2],
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
        Ok(Self {
            cur,
            pos: 0,
            end: cur.len_nibbles(),
            time: 0,
            table,
            header,
            cut: None,
            prev: 0,
            after_ext: false,
            skip: 0,
            keep_regs: [u16::MAX; 2],
        })
    }

    /// Consumes tokens of these kinds without yielding them: their time deltas still count, so
    /// the times of the tokens that are yielded do not change. Most tokens of a real stream are
    /// timing and register tokens a consumer has no use for; skipping them inside the reader
    /// saves a round trip through the iterator for each. `TS_DELTA_OR_MARK` in the set skips
    /// plain time deltas only: reference-clock markers and packet-lost flags are still yielded
    /// (`REG`: see [`RdnaTokens::keeping_registers`]).
    pub fn skipping(mut self, kinds: &[RdnaKind]) -> Self {
        for &k in kinds {
            self.skip |= 1 << k as u32;
        }
        self
    }

    /// Yields only the `REG` tokens that are command-processor writes (CS flag set) of these
    /// registers (at most two; the decoder wants `COMPUTE_PGM_LO/HI`). Register tokens are the
    /// most frequent kind in real streams and almost all of them are of no use to a decoder.
    pub fn keeping_registers(mut self, regs: &[u16]) -> Self {
        self.skip |= 1 << RdnaKind::Reg as u32;
        for (slot, &r) in self.keep_regs.iter_mut().zip(regs) {
            *slot = r;
        }
        self
    }

    /// Whether a token of `kind` is consumed without being yielded. Computed without
    /// short-circuits: which tokens a stream yields follows no pattern a branch predictor could
    /// learn, so one data-dependent branch on the result is cheaper than several on the parts.
    #[inline(always)]
    fn skips(&self, kind: RdnaKind, w: u64) -> bool {
        if self.skip & (1 << kind as u32) == 0 {
            return false;
        }
        match kind {
            RdnaKind::Reg => {
                let (cs, _, _, reg, _) = rdna::reg(w);
                !(cs && (reg == self.keep_regs[0] || reg == self.keep_regs[1]))
            }
            RdnaKind::TsDeltaOrMark => rdna::mark_flags(w, self.table.layout) == (false, false),
            _ => true,
        }
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

impl RdnaTokens<'_> {
    /// Calls `f` with every token (and error), like the iterator, in a loop the compiler can
    /// keep in registers: the hot path of the decoder.
    ///
    /// Away from the end of the stream (more than [`BULK_MARGIN`] nibbles left) no token can
    /// be cut off and none is in the tail, so that stretch is read by a lean loop without those
    /// checks (AMD's decoder splits its reading the same way); the rest goes through the
    /// iterator's own step.
    #[inline(always)]
    pub fn for_each_token<S: TokenSink>(mut self, sink: &mut S) {
        let data = self.cur.bytes();
        let table = self.table;
        let l4 = table.layout >= 4;
        let bulk_end = self.end.saturating_sub(BULK_MARGIN);
        let (mut pos, mut time, mut prev, mut after_ext) = (self.pos, self.time, self.prev, self.after_ext);
        while pos < bulk_end {
            // pos < 2 * len - BULK_MARGIN, so the 16 bytes from pos / 2 are inside `data`.
            let b = pos >> 1;
            let wide = u128::from_le_bytes(data[b..b + 16].try_into().expect("16 bytes"));
            let w = (wide >> ((pos & 1) * 4)) as u64;
            if after_ext {
                after_ext = false;
                if w & 1 != 0 {
                    // Layout 4 WAVE_START_EXT extension (VGPR/LDS fields): 8 more bits.
                    prev = pos;
                    pos += 2;
                    continue;
                }
            }
            if w & 0xf == 0 {
                if w & 0xff == 0 && pos & 1 == 0 {
                    pos += 2 * self.cur.zero_run(b).max(1);
                } else {
                    pos += 1;
                }
                prev = pos - 1;
                continue;
            }
            let shape = table.shape_by_byte[(w & 0xff) as usize];
            let kind = shape.kind;
            if kind == RdnaKind::Unknown {
                sink.token(Err(DecodeError::new(b as u64, DecodeErrorKind::UnknownToken((w & 0xff) as u8))));
                prev = pos;
                pos += 2;
                continue;
            }
            let delta = if kind == RdnaKind::TsDeltaOrMark {
                match rdna::mark_flags(w, table.layout) {
                    (false, _) => rdna::wide_delta(w, table.layout) as i64,
                    (true, _) => 0,
                }
            } else {
                ((w >> shape.delta_lo) & u64::from(shape.delta_mask)) as i64 + i64::from(shape.delta_add)
            };
            // No overflow: time <= MAX_TIME = 2^60 and deltas stay below 2^52.
            time = (time + delta).min(MAX_TIME);
            let n = shape.nibbles as usize;
            if !self.skips(kind, w) {
                sink.token(Ok(RdnaToken { kind, time, raw: w, nibble: pos, tail: false }));
                after_ext = l4 && kind == RdnaKind::WaveStartExt;
            }
            prev = pos;
            pos += n;
        }
        (self.pos, self.time, self.prev, self.after_ext) = (pos, time, prev, after_ext);
        while let Some(t) = self.step() {
            sink.token(t);
        }
    }

    #[inline(always)]
    fn step(&mut self) -> Option<Result<RdnaToken>> {
        loop {
            if self.pos >= self.end {
                return self.cut.take().map(|offset| Err(DecodeError::new(offset, DecodeErrorKind::TruncatedToken)));
            }
            let w = self.cur.window(self.pos);
            if self.after_ext {
                self.after_ext = false;
                if w & 1 != 0 {
                    // Layout 4 WAVE_START_EXT extension (VGPR/LDS fields): 8 more bits.
                    self.prev = self.pos;
                    self.pos += 2;
                    continue;
                }
            }
            if w & 0xf == 0 {
                // NOP padding; whole zero bytes are skipped in one go.
                if w & 0xff == 0 && self.pos & 1 == 0 {
                    let z = self.cur.zero_run(self.pos >> 1);
                    self.pos += 2 * z.max(1);
                } else {
                    self.pos += 1;
                }
                self.prev = self.pos - 1;
                continue;
            }
            let shape = self.table.shape_by_byte[(w & 0xff) as usize];
            let kind = shape.kind;
            if kind == RdnaKind::Unknown {
                // AMD's decoder reads type bits that match no token as an 8-bit token that does
                // nothing (found by probing it); resynchronise the same way.
                let offset = (self.pos >> 1) as u64;
                self.prev = self.pos;
                self.pos += 2;
                return Some(Err(DecodeError::new(offset, DecodeErrorKind::UnknownToken((w & 0xff) as u8))));
            }
            let n = shape.nibbles as usize;
            if self.pos + n > self.end && self.cut.is_none() {
                // The last token is cut off by the end of the buffer. AMD's decoder reads it with
                // zero bits in place of the missing ones; so do we, and report the cut as well.
                self.cut = Some((self.pos >> 1) as u64);
            }
            let delta = if kind == RdnaKind::TsDeltaOrMark {
                match rdna::mark_flags(w, self.table.layout) {
                    (false, _) => rdna::wide_delta(w, self.table.layout) as i64,
                    (true, _) => 0,
                }
            } else {
                ((w >> shape.delta_lo) & u64::from(shape.delta_mask)) as i64 + i64::from(shape.delta_add)
            };
            // Saturate far below i64::MAX so that sums of two times never overflow downstream.
            self.time = self.time.saturating_add(delta).min(MAX_TIME);
            if self.skips(kind, w) {
                self.prev = self.pos;
                self.pos += n;
                continue;
            }
            let tail = self.prev + 32 >= self.end;
            let tok = RdnaToken { kind, time: self.time, raw: w, nibble: self.pos, tail };
            self.prev = self.pos;
            self.after_ext = kind == RdnaKind::WaveStartExt && self.table.layout >= 4;
            self.pos += n;
            return Some(Ok(tok));
        }
    }
}

impl Iterator for RdnaTokens<'_> {
    type Item = Result<RdnaToken>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.step()
    }
}

/// One gfx9 token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gfx9Token {
    /// Type code (low 4 bits, see [`crate::format::gfx9::kind`]).
    pub kind: u8,
    /// The token's 16 to 64 bits.
    pub raw: u64,
    /// Stream time in shader cycles.
    pub time: i64,
    /// Byte offset of the token in the stream.
    pub offset: usize,
}

/// MISC kind that re-anchors time on the next TIMESTAMP.
const MISC_TIME_RESET: u8 = 1;

#[derive(Clone, Copy, Debug)]
struct RawGfx9 {
    kind: u8,
    raw: u64,
    delta: i64,
    offset: usize,
}

/// Iterator over the tokens of one gfx9 stream (after its 8-byte capture header).
///
/// Time follows AMD's gfx9 decoder: every token adds 4 x its delta (bits 4..11 of a MISC, bit 4
/// of any other token); a MISC of kind TIME_RESET re-anchors the clock on the next TIMESTAMP
/// (`time = (timestamp - base) & !3`, `base` fixed by the first one), reading ahead if needed.
/// TIMESTAMP and TIME_RESET tokens are consumed, not yielded.
#[derive(Clone, Debug)]
pub struct Gfx9Tokens<'data> {
    data: &'data [u8],
    pos: usize,
    time: i64,
    base: i64,
    header: Header,
    lookahead: VecDeque<RawGfx9>,
    truncated: bool,
    skip_idle: bool,
}

impl<'data> Gfx9Tokens<'data> {
    /// Checks the capture header (AMD's decoder accepts family versions 4, 5 and 6 only).
    pub fn new(data: &'data [u8]) -> Result<Self> {
        let raw = le_u64(data, 0).ok_or(DecodeError::new(0, DecodeErrorKind::TruncatedHeader))?;
        let header = Header::parse(raw);
        if !header.is_supported() {
            return Err(DecodeError::new(0, DecodeErrorKind::BadGfx9Header(header.version)));
        }
        Ok(Self {
            data,
            pos: 8,
            time: 0,
            base: 0,
            header,
            lookahead: VecDeque::new(),
            truncated: false,
            skip_idle: false,
        })
    }

    /// The parsed capture header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// Do not yield all-zero words (MISC tokens without delta or flags, the idle filler that
    /// makes up most of a stream); they change nothing, so decoders can skip them in bulk.
    pub fn skipping_idle_words(mut self) -> Self {
        self.skip_idle = true;
        self
    }

    #[inline]
    fn parse_one(&mut self) -> Option<RawGfx9> {
        if self.skip_idle {
            // Four zero words at a time, then single ones.
            while let Some(w) = le_u64(self.data, self.pos) {
                if w != 0 {
                    break;
                }
                self.pos += 8;
            }
            while self.data.get(self.pos..self.pos + 2) == Some(&[0, 0]) {
                self.pos += 2;
            }
        }
        let b0 = *self.data.get(self.pos)?;
        let ty = b0 & 0xf;
        let n = 2 * gfx9::WORDS[ty as usize] as usize;
        let end = self.pos + n;
        if end > self.data.len() {
            self.truncated = true;
            return None;
        }
        let raw = match le_u64(self.data, self.pos) {
            Some(w) if n < 8 => w & ((1u64 << (8 * n)) - 1),
            Some(w) => w,
            None => {
                let mut buf = [0u8; 8];
                buf[..n].copy_from_slice(&self.data[self.pos..end]);
                u64::from_le_bytes(buf)
            }
        };
        let offset = self.pos;
        self.pos = end;
        let delta = if ty == kind::MISC { ((raw >> 4) & 0xff) as i64 } else { ((raw >> 4) & 1) as i64 };
        Some(RawGfx9 { kind: ty, raw, delta, offset })
    }

    fn timestamp(raw: u64) -> i64 {
        // AMD keeps it in a 46-bit signed field.
        (((raw >> 16) << 18) as i64) >> 18
    }

    fn update(&mut self, ts: i64) {
        if self.base == 0 {
            self.base = ts - self.time + 4;
        }
        if ts > self.base {
            self.time = (ts - self.base) & !3;
        }
    }

    fn is_reset(t: &RawGfx9) -> bool {
        t.kind == kind::MISC && gfx9::misc(t.raw).1 == MISC_TIME_RESET
    }

    fn patch_time(&mut self) {
        if let Some(i) = self.lookahead.iter().position(|t| t.kind == kind::TIMESTAMP || Self::is_reset(t)) {
            let t = self.lookahead[i];
            if t.kind == kind::TIMESTAMP {
                self.update(Self::timestamp(t.raw));
                self.lookahead.remove(i);
            }
            return;
        }
        while let Some(t) = self.parse_one() {
            if t.kind == kind::TIMESTAMP {
                self.update(Self::timestamp(t.raw));
                return;
            }
            if Self::is_reset(&t) {
                return;
            }
            self.lookahead.push_back(t);
        }
    }
}

impl Iterator for Gfx9Tokens<'_> {
    type Item = Result<Gfx9Token>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let t = if self.lookahead.is_empty() {
                match self.parse_one() {
                    Some(t) => t,
                    None if std::mem::take(&mut self.truncated) => {
                        let offset = self.pos as u64;
                        self.pos = self.data.len();
                        return Some(Err(DecodeError::new(offset, DecodeErrorKind::TruncatedToken)));
                    }
                    None => return None,
                }
            } else {
                self.lookahead.pop_front()?
            };
            // Bounded: at most 1020 cycles per 2-byte token, so no overflow for any slice.
            self.time += 4 * t.delta;
            if Self::is_reset(&t) {
                self.patch_time();
            } else if t.kind != kind::TIMESTAMP {
                return Some(Ok(Gfx9Token { kind: t.kind, raw: t.raw, time: self.time, offset: t.offset }));
            }
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

    fn gfx9_stream(words: &[u16]) -> Vec<u8> {
        let mut v = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
        for w in words {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v
    }

    fn gfx9_times(data: &[u8]) -> Vec<i64> {
        Gfx9Tokens::new(data).unwrap().map(|t| t.unwrap().time).collect()
    }

    #[test]
    fn gfx9_misc_deltas_are_four_cycles_and_other_tokens_add_bit4() {
        // MISC delta 3 (12 cycles), WAVEALLOC with bit 4 set (+4), WAVEALLOC without.
        assert_eq!(gfx9_times(&gfx9_stream(&[3 << 4, 0x0014, 0x0004])), vec![12, 16, 16]);
    }

    #[test]
    fn gfx9_time_reset_anchors_on_the_next_timestamp() {
        // MISC delta 2 (8), MISC TIME_RESET (delta 255), WAVEALLOC, TIMESTAMP 1000, WAVEALLOC, MISC delta 1.
        let reset = (1u16 << 13) | (255 << 4);
        let mut words = vec![2 << 4, reset, 0x0004];
        words.extend_from_slice(&[0x0001, 1000, 0, 0]);
        words.extend_from_slice(&[0x0004, 1 << 4]);
        // After the reset the clock is 8 + 1020 = 1028; the timestamp fixes base = 1000 - 1028 + 4
        // and the clock becomes (1000 - base) & !3 = 1024.
        assert_eq!(gfx9_times(&gfx9_stream(&words)), vec![8, 1024, 1024, 1028]);
    }

    #[test]
    fn gfx9_idle_words_can_be_skipped() {
        let data = gfx9_stream(&[0, 0, 0, 0, 0, 3 << 4, 0, 0x0014]);
        let all: Vec<_> = Gfx9Tokens::new(&data).unwrap().map(|t| t.unwrap()).collect();
        assert_eq!(all.len(), 8);
        let busy: Vec<_> = Gfx9Tokens::new(&data).unwrap().skipping_idle_words().map(|t| t.unwrap()).collect();
        assert_eq!(busy.iter().map(|t| (t.offset, t.time)).collect::<Vec<_>>(), vec![(18, 12), (22, 16)]);
    }

    #[test]
    fn gfx9_truncated_token_and_bad_header() {
        let mut data = gfx9_stream(&[3 << 4]);
        data.extend_from_slice(&[0x01, 0x00]); // TIMESTAMP needs 8 bytes
        let r: Vec<_> = Gfx9Tokens::new(&data).unwrap().collect();
        assert_eq!(r.len(), 2);
        assert_eq!(r[1], Err(DecodeError::new(10, DecodeErrorKind::TruncatedToken)));
        assert_eq!(Gfx9Tokens::new(&[0; 8]).unwrap_err().kind, DecodeErrorKind::BadGfx9Header(0));
    }

    #[test]
    fn truncated_last_token_is_zero_padded_then_reported() {
        let mut data = header(3).to_vec();
        data.extend_from_slice(&[0x19, 0x80]); // REG (delta 1, CS bit) needs 16 nibbles
        let r: Vec<_> = RdnaTokens::new(&data).unwrap().collect();
        assert_eq!(r.len(), 3);
        let reg = r[1].unwrap();
        assert_eq!((reg.kind, reg.time, reg.raw), (RdnaKind::Reg, 1, 0x8019));
        assert_eq!(r[2], Err(DecodeError::new(8, DecodeErrorKind::TruncatedToken)));
    }
}
