//! Code-object markers: the load (and unload) announcements a profiler writes into the trace
//! through `SQ_THREAD_TRACE_USERDATA_2`, so that a stream says itself which code object sat at
//! which address while it was captured.
//!
//! Format (AMD's `trace_decoder_instrument.h`, MIT, in ROCm/rocprof-trace-decoder `include/`):
//! every write to USERDATA_2 shows up in the stream as a register token (RDNA `REG` without the
//! CS flag, gfx9 `REG`) for register `0xC342`. The first write `"\0ROC"` (0x434F5200) switches
//! the format on; after it, a header word with opcode 4 (code object) in bits 0..7 and a marker
//! type in bits 8..11 is followed by one 32-bit payload: types 1/4 = size lo/hi, 2/3 = address
//! lo/hi, 5/6 = id lo/hi, and 0 (the tail) = `unload | from_start << 1 | id << 2` (a zero id
//! there means "the id sent in lo/hi"). rocprofiler-sdk announces every code object loaded on
//! the agent right after the trace starts (`from_start`), and later loads as they happen; the
//! address is the load delta, so `pc - address` is the ELF virtual address.
//! `rocprof-packets`' `CodeObjectMarker` builds exactly these writes.

use crate::error::Result;
use crate::family::Family;
use crate::format::{gfx9, rdna};
use crate::tokens::{Gfx9Tokens, RdnaTokens};

/// Register number of `SQ_THREAD_TRACE_USERDATA_2` in register tokens.
pub const USERDATA_2: u16 = 0xC342;
/// `"\0ROC"`: switches the marker format on.
pub const ROC_HEADER: u32 = 0x434F_5200;
/// Header opcode of code-object markers.
pub const OPCODE_CODEOBJ: u32 = 4;

/// A code object announced in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodeObjectMarker {
    /// Stream time of the tail word.
    pub time: i64,
    /// The profiler's code-object id (nonzero).
    pub id: u64,
    /// Load delta: absolute address of ELF virtual address 0.
    pub address: u64,
    /// Bytes the loaded code object spans.
    pub size: u64,
    /// Loaded before the trace started.
    pub from_start: bool,
    /// An unload rather than a load.
    pub unload: bool,
}

/// Per `(me, pipe)` marker state, as AMD's decoder keeps it.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    id: u64,
    address: u64,
    size: u64,
}

#[derive(Debug, Default)]
struct MarkerReader {
    enabled: bool,
    /// Marker type announced by the last header, waiting for its payload.
    expecting: Option<u32>,
    pending: [[Pending; 4]; 2],
    out: Vec<CodeObjectMarker>,
}

fn set_lo(v: &mut u64, lo: u32) {
    *v = (*v & !0xffff_ffff) | u64::from(lo);
}

fn set_hi(v: &mut u64, hi: u32) {
    *v = (*v & 0xffff_ffff) | (u64::from(hi) << 32);
}

impl MarkerReader {
    fn write(&mut self, time: i64, me: u8, pipe: u8, value: u32) {
        if !self.enabled {
            self.enabled = value == ROC_HEADER;
            return;
        }
        let Some(ty) = self.expecting.take() else {
            // A header: code-object opcode, a known type, reserved bits clear. Anything else
            // (the version word, other opcodes) is not followed by a payload we read.
            if value & 0xff == OPCODE_CODEOBJ && (value >> 8) & 0xf < 7 && value >> 12 == 0 {
                self.expecting = Some((value >> 8) & 0xf);
            }
            return;
        };
        let p = &mut self.pending[usize::from(me & 1)][usize::from(pipe & 3)];
        match ty {
            0 => {
                let legacy = u64::from(value >> 2);
                self.out.push(CodeObjectMarker {
                    time,
                    id: if legacy != 0 { legacy } else { p.id },
                    address: p.address,
                    size: p.size,
                    from_start: value & 2 != 0,
                    unload: value & 1 != 0,
                });
            }
            1 => set_lo(&mut p.size, value),
            2 => set_lo(&mut p.address, value),
            3 => set_hi(&mut p.address, value),
            4 => set_hi(&mut p.size, value),
            5 => set_lo(&mut p.id, value),
            _ => set_hi(&mut p.id, value),
        }
    }
}

/// Reads the code-object markers of one shader-engine stream (any family; the format is sniffed
/// from the stream). Damaged tokens are skipped like the decoder skips them; only a stream that
/// is unusable as a whole is an error.
pub fn code_object_markers(stream: &[u8]) -> Result<Vec<CodeObjectMarker>> {
    let mut r = MarkerReader::default();
    match Family::sniff(stream) {
        Some(Family::Gfx11 | Family::Gfx12) => {
            for tok in RdnaTokens::new(stream)? {
                let Ok(t) = tok else { continue };
                if t.kind == rdna::RdnaKind::Reg {
                    let (cs, pipe, me, reg, value) = rdna::reg(t.raw);
                    if !cs && reg == USERDATA_2 {
                        r.write(t.time, me, pipe, value);
                    }
                }
            }
        }
        _ => {
            for tok in Gfx9Tokens::new(stream)? {
                let Ok(t) = tok else { continue };
                if t.kind == gfx9::kind::REG {
                    let (pipe, me, reg, value) = gfx9::reg(t.raw);
                    if reg == USERDATA_2 {
                        r.write(t.time, me, pipe, value);
                    }
                }
            }
        }
    }
    Ok(r.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writes(words: &[u32]) -> Vec<CodeObjectMarker> {
        let mut r = MarkerReader::default();
        for (i, &w) in words.iter().enumerate() {
            r.write(i as i64, 0, 0, w);
        }
        r.out
    }

    #[test]
    fn a_load_announced_as_rocprofiler_sdk_does() {
        // ROC header, version word, ADDR_LO, ADDR_HI, SIZE_LO, SIZE_HI, TAIL(id 7, from start).
        let m = writes(&[
            ROC_HEADER,
            0x0008_0201,
            4 | 2 << 8,
            0x1234_5000,
            4 | 3 << 8,
            0x7f,
            4 | 1 << 8,
            0x2000,
            4 | 4 << 8,
            0,
            4,
            7 << 2 | 2,
        ]);
        assert_eq!(
            m,
            [CodeObjectMarker {
                time: 11,
                id: 7,
                address: 0x7f_1234_5000,
                size: 0x2000,
                from_start: true,
                unload: false
            }]
        );
    }

    #[test]
    fn large_ids_come_in_lo_hi_and_nothing_counts_before_the_header() {
        let m = writes(&[4, 7 << 2, ROC_HEADER, 4 | 5 << 8, 1, 4 | 6 << 8, 2, 4, 1]);
        assert_eq!(m.len(), 1, "the tail before the ROC header is ignored");
        assert_eq!((m[0].id, m[0].unload), (0x2_0000_0001, true));
    }
}
