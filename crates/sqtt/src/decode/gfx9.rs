//! gfx9 (CDNA) decoder: occupancy and traced-CU wave records.

use super::stitch::{self, LineState};
use super::WaveBuild;
use crate::error::{DecodeError, DecodeErrorKind, Result};
use crate::format::gfx9::{self as fmt, kind, Header};
use crate::isa::Program;
use crate::record::{Occupancy, SeDecode};

/// Reusable gfx9 decoding state.
#[derive(Debug, Default)]
pub(crate) struct Gfx9State {
    lines: LineState,
    running: Vec<u64>,
}

/// Decodes one gfx9 stream (8-byte capture header first).
pub(crate) fn decode(data: &[u8], prog: &Program, st: &mut Gfx9State) -> Result<SeDecode> {
    let raw = crate::cursor::le_u64(data, 0).ok_or(DecodeError::new(0, DecodeErrorKind::TruncatedHeader))?;
    let header = Header::parse(raw);
    if !header.is_supported() {
        return Err(DecodeError::new(0, DecodeErrorKind::BadGfx9Header(header.version)));
    }
    st.lines.reset(prog.len());
    st.running.clear();
    st.running.resize(1 << 10, 0);
    let mut out = SeDecode { gfxip: 9, ..SeDecode::default() };
    let mut time: i64 = 0;
    let mut off = 8usize;
    let mut pgm = [[0u64; 4]; 4];
    while off + 2 <= data.len() {
        let w0 = u64::from(u16::from_le_bytes([data[off], data[off + 1]]));
        let ty = (w0 & 0xf) as u8;
        let words = fmt::WORDS[ty as usize] as usize;
        if off + 2 * words > data.len() {
            break;
        }
        let mut raw = 0u64;
        for i in 0..words {
            raw |= u64::from(u16::from_le_bytes([data[off + 2 * i], data[off + 2 * i + 1]])) << (16 * i);
        }
        off += 2 * words;
        match ty {
            kind::MISC => time += 4 * fmt::misc(raw).0 as i64,
            kind::REG_CS_PRIV | kind::REG_CS => {
                let (pipe, me, reg, value) = fmt::reg_cs(raw);
                let e = &mut pgm[usize::from(me)][usize::from(pipe)];
                match reg {
                    0x0c => *e = (*e & !0xffff_ffff) | u64::from(value),
                    0x0d => *e = (*e & 0xffff_ffff) | (u64::from(value) << 32),
                    _ => {}
                }
            }
            kind::WAVESTART => {
                let (cu, simd, wave) = fmt::wave_loc(raw);
                let (pipe, me) = fmt::wave_start_pipe_me(raw);
                let entry = (pgm[usize::from(me)][usize::from(pipe)] << 8) & ((1 << 48) - 1);
                let l = (usize::from(fmt::wave_sh(raw)) << 9) | (usize::from(cu) << 5) | (usize::from(simd) << 3) | usize::from(wave & 7);
                st.running[l] = entry + 1;
                out.occupancy.push(Occupancy { time, cu, simd, wave_id: wave, start: true, pc: entry });
            }
            kind::WAVEEND => {
                let (cu, simd, wave) = fmt::wave_loc(raw);
                let l = (usize::from(fmt::wave_sh(raw)) << 9) | (usize::from(cu) << 5) | (usize::from(simd) << 3) | usize::from(wave & 7);
                let pc = std::mem::take(&mut st.running[l]).saturating_sub(1);
                out.occupancy.push(Occupancy { time, cu, simd, wave_id: wave, start: false, pc });
            }
            _ => {}
        }
    }
    let _ = (stitch::stitch, WaveBuild::new);
    Ok(out)
}
