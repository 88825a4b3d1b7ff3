//! RDNA (gfx11, gfx12) decoder: wave occupancy, traced-wave instruction records and timelines.
//!
//! Rules (from AMD's `gfx10wave.cpp`, `rdna_sqtt.cpp`, `gfx11wave.cpp`, `gfx12wave.cpp`):
//! an instruction's `time + stall` is its token time; a record starts early (`stall > 0`) only if
//! a `WAVERDY` put the wave in STALL since its last state change; `IMMED` records start at the
//! previous record's end; the wave timeline switches IDLE → WAIT/EXEC/STALL at those points; the
//! `s_endpgm` record fills the gap between the last record's end and the `WAVE_END` token.

use super::stitch::{self, LineState};
use super::{SparseTable, WaveBuild};
use crate::error::{DecodeError, DecodeErrorKind, Result};
use crate::format::rdna::{self, RdnaKind};
use crate::isa::Program;
use crate::record::{Category, Info, Occupancy, OtherSimd, Realtime, SeDecode, ShaderData, WaveState};
use crate::tokens::{RdnaToken, RdnaTokens, TokenSink};

/// Slots per SIMD in AMD's wave table.
const SLOTS: usize = 32;
/// Wave-start `count` values that mark context save/restore.
const CTX_BEGIN: u8 = 66;
const CTX_END: u8 = 90;

/// What an `INST` op means for the traced wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// A record of this category lasting `cycles`.
    Issue(Category, i64),
    /// A memory op of the neighbouring SIMD.
    Other(Category, u16),
    /// Unknown or untracked op.
    None,
}

/// Op table for trace layout 3 (`EINST` in gfx11wave.cpp).
fn op_gfx11(op: u16, dprate: i64) -> Op {
    use Category::*;
    let o = op as i64;
    match op {
        0 | 5 | 7 | 112..=114 | 117 => Op::Issue(Salu, 1),
        1 | 2 => Op::Issue(Smem, 1),
        3 => Op::Issue(Jump, 1),
        4 => Op::Issue(Next, 1),
        6 | 8 => Op::Issue(Context, 1),
        9 => Op::Issue(Message, 1),
        10 | 15 => Op::Issue(Valu, dprate),
        11 | 14 => Op::Issue(Valu, 4),
        12 | 16..=18 | 115 => Op::Issue(Valu, 1),
        13 | 116 => Op::Issue(Valu, 2),
        19 => Op::Issue(Immed, 1),
        28..=32 => Op::Issue(Flat, o - 26),
        33 | 34 => Op::Issue(Vmem, o - 32),
        35..=40 => Op::Issue(Vmem, o - 34),
        41 => Op::Issue(Lds, 1),
        42..=46 => Op::Issue(Lds, o - 41),
        47 | 48 => Op::Issue(Vmem, o - 46),
        49..=54 => Op::Issue(Vmem, o - 48),
        55..=66 => Op::Issue(Vmem, o - 54),
        68..=71 => Op::Issue(Vmem, o - 67),
        72..=78 => Op::Issue(Vmem, o - 70),
        80..=84 => Op::Other(Lds, op - 79),
        85..=89 => Op::Other(Flat, op - 83),
        90..=101 => Op::Other(Vmem, op - 89),
        103 => Op::Issue(Bvh, 8),
        104 => Op::Issue(Bvh, 9),
        105 => Op::Issue(Bvh, 11),
        106 => Op::Issue(Bvh, 12),
        110 | 111 => Op::Issue(Lds, 1),
        118 => Op::Issue(Lds, 6),
        119 => Op::Other(Lds, 6),
        _ => Op::None,
    }
}

/// Op table for trace layout 4 (`EINST` in gfx12wave.cpp).
fn op_gfx12(op: u16, dprate: i64, derate: i64) -> Op {
    use Category::*;
    let o = op as i64;
    match op {
        0 | 5 | 7 | 114 | 117 | 135..=137 => Op::Issue(Salu, 1),
        1 | 2 | 150 | 151 => Op::Issue(Smem, 1),
        3 => Op::Issue(Jump, 1),
        4 => Op::Issue(Next, 1),
        6 | 8 => Op::Issue(Context, 1),
        9 | 122 | 138 => Op::Issue(Message, 1),
        10 | 12 | 18 | 115 | 153 => Op::Issue(Valu, 1),
        11 | 14 => Op::Issue(Valu, 4),
        13 | 116 => Op::Issue(Valu, 2),
        15 => Op::Issue(Valu, 16),
        19 => Op::Issue(Immed, 1),
        28..=32 => Op::Issue(Flat, o - 26),
        33 | 34 => Op::Issue(Vmem, o - 32),
        35..=40 => Op::Issue(Vmem, o - 34),
        41 => Op::Issue(Lds, 1),
        42..=46 => Op::Issue(Lds, o - 41),
        47 | 48 => Op::Issue(Vmem, o - 46),
        49..=54 => Op::Issue(Vmem, o - 48),
        55..=66 => Op::Issue(Vmem, o - 54),
        68..=71 => Op::Issue(Vmem, o - 67),
        72..=78 => Op::Issue(Vmem, o - 70),
        80..=84 => Op::Other(Lds, op - 79),
        85..=89 => Op::Other(Flat, op - 83),
        103 => Op::Issue(Bvh, 8),
        104 => Op::Issue(Bvh, 9),
        105 => Op::Issue(Bvh, 11),
        106 => Op::Issue(Bvh, 12),
        110 | 111 => Op::Issue(Lds, 1),
        118 => Op::Issue(Bvh, 6),
        119 => Op::Other(Lds, 6),
        120 => Op::Other(Lds, 10),
        121 => Op::Issue(Bvh, 10),
        140 => Op::Issue(Valu, 8),
        141 => Op::Issue(Valu, 16),
        142 => Op::Issue(Valu, 32),
        143 => Op::Issue(Valu, 64),
        146 => Op::Issue(Valu, dprate),
        147 => Op::Issue(Valu, dprate * derate),
        152 => Op::Issue(Salu, 3),
        155 => Op::Issue(Salu, 2),
        156 => Op::Issue(Salu, 5),
        188..=221 => Op::Other(Vmem, op + 1 - 188),
        222.. => Op::Issue(Vmem, o + 1 - 222),
        _ => Op::None,
    }
}

const OP_JUMP: u16 = 5;
const OP_TRAP: u16 = 6;
const OP_RFE: u16 = 117;

impl WaveBuild {
    fn wave_ready(&mut self, time: i64) {
        self.update_state(WaveState::Stall, time);
    }

    /// A `VALUINST` token; a wave64 instruction (flag bit 6) takes two cycles.
    fn valu(&mut self, token_time: i64, wave64: bool) {
        if !self.restored {
            return;
        }
        let (mut time, mut duration, mut stall) = (token_time, 1 + i64::from(wave64), 0);
        if self.cur_state == WaveState::Stall && self.last_state_cycle < time {
            stall = time - self.last_state_cycle;
            duration += stall;
            time = self.last_state_cycle;
        }
        self.push(time, Category::Valu, duration, stall);
        self.update_state(WaveState::Exec, token_time);
    }

    fn immediate(&mut self, token_time: i64) {
        if !self.restored {
            return;
        }
        let mut time = token_time;
        if let Some(b) = self.insts.last() {
            time = time.min(b.time + b.duration);
        }
        let stall = token_time - time;
        self.push(time, Category::Immed, stall + 1, stall);
        self.update_state(WaveState::Wait, time);
        self.update_state(WaveState::Exec, token_time + 1);
    }

    fn inst(&mut self, token_time: i64, op: u16, cat: Category, cycles: i64) {
        if op == OP_RFE {
            self.pc_infos.push((self.insts.len(), 0));
            self.restored = true;
            if let Some(b) = self.insts.last_mut() {
                if b.category == Category::Context {
                    b.duration = b.duration.max(token_time + 1 - b.time);
                }
            }
            return;
        } else if op == OP_TRAP {
            // The 0.1.6 reference stops recording the wave at a trap without a row for it.
            self.restored = false;
        }
        if !self.restored {
            return;
        }
        self.end_time = token_time;
        if cat == Category::Immed {
            // Newer AMD decoders stretch a gfx11 barrier record to the wave's next token; the
            // 0.1.6 reference output does not, so neither do we.
            self.immediate(token_time);
            return;
        }
        if cat == Category::None {
            return;
        }
        let (mut time, mut duration, mut stall) = (token_time, cycles, 0);
        if self.cur_state == WaveState::Stall && self.last_state_cycle < time {
            stall = time - self.last_state_cycle;
            duration += stall;
            time = self.last_state_cycle;
        }
        self.push(time, cat, duration, stall);
        if op == OP_JUMP {
            self.pc_infos.push((self.insts.len(), 0));
        }
        self.update_state(WaveState::Exec, token_time);
    }

    /// A `NEW_PC` token: the PC after the last indirect jump (filled into the open marker).
    fn new_pc(&mut self, pc: u64) {
        if self.pc_infos.is_empty() || !self.restored {
            return;
        }
        let mut idx = self.pc_infos.len();
        while idx > 0 && self.pc_infos[idx - 1].1 == 0 {
            idx -= 1;
        }
        if idx == self.pc_infos.len() {
            self.pc_infos.push((self.insts.len(), 0));
        }
        self.pc_infos[idx].1 = pc;
    }

    fn complete(&mut self, time: i64) {
        self.update_state(WaveState::Empty, time);
        self.end_time = time;
        self.complete = true;
        if let Some(b) = self.insts.last() {
            let t = b.time + b.duration;
            // The trace has no token for s_endpgm: it fills the gap up to the wave end.
            if t < time {
                self.push(t, Category::Message, time - t, 0);
            }
        }
    }
}

/// Reusable RDNA decoding state (per-slot wave lists, running-wave table, line flags).
#[derive(Debug, Default)]
pub(crate) struct RdnaState {
    slots: Vec<Vec<WaveBuild>>,
    /// Entry pc + 1 of running waves by `(cu << 7 | simd << 5 | slot)`; 0 = not running.
    running: SparseTable,
    saved: SparseTable,
    lines: LineState,
    pending: Vec<RdnaToken>,
}

fn loc(cu: u8, simd: u8, slot: u8) -> usize {
    (usize::from(cu) << 7) | (usize::from(simd & 3) << 5) | usize::from(slot & 31)
}

/// `REG` token register numbers of `COMPUTE_PGM_LO/HI`: the kernel entry address >> 8, which
/// waves starting afterwards begin at.
const REG_PGM_LO: u16 = 0x0c;
const REG_PGM_HI: u16 = 0x0d;

/// Tokens that only move time for this decoder; the token reader consumes them itself.
const TIME_ONLY: &[RdnaKind] = &[
    RdnaKind::LayoutHeader,
    RdnaKind::TsDeltaShort,
    RdnaKind::AluExec,
    RdnaKind::VmemExec,
    RdnaKind::WaveAlloc,
    RdnaKind::TsWaveState,
    RdnaKind::UtilCtr,
    RdnaKind::Snapshot,
    RdnaKind::Event,
    RdnaKind::EventBig,
    RdnaKind::ExecPopcount1,
    RdnaKind::ExecPopcount3,
    // Plain time deltas only; markers and packet-lost flags still come through.
    RdnaKind::TsDeltaOrMark,
];

/// Layout 3 reads these patterns as timing tokens (layout 4 gives them meaning).
const TIME_ONLY_L3: &[RdnaKind] = &[RdnaKind::WaveStartExt];
/// Layout 4 reads these patterns as perf-counter and timing tokens (layout 3: shader data).
const TIME_ONLY_L4: &[RdnaKind] = &[RdnaKind::Perf, RdnaKind::TsDeltaS5W3];

/// One decode call's working set: the stream's constants, the reusable state and the output.
struct Run<'p, 's> {
    prog: &'p Program,
    st: &'s mut RdnaState,
    out: SeDecode,
    occ: Vec<Occupancy>,
    /// Wave ends without a start get a start row at time 0, which AMD inserts at the front.
    missing: Vec<Occupancy>,
    pgm: [[u64; 4]; 2],
    layout: u8,
    gfxip: u8,
    target_cu: u8,
    target_simd: u8,
    dprate: i64,
    derate: i64,
    exclude_bw: bool,
    incomplete_reported: bool,
    data_lost: bool,
}

impl Run<'_, '_> {
    #[inline(never)]
    fn damaged(&mut self, e: DecodeError) {
        self.out.unknown_tokens += u64::from(e.kind != DecodeErrorKind::TruncatedToken);
        self.out.damage.get_or_insert(e);
    }

    /// Stitches a finished wave and moves it to the output.
    fn finish(&mut self, mut w: WaveBuild) {
        let (_, barriers) = stitch::stitch(self.prog, &mut self.st.lines, self.gfxip, &mut w);
        if !w.complete && !self.incomplete_reported {
            self.incomplete_reported = true;
            self.out.info.push(Info::WaveIncomplete);
        }
        if self.gfxip == 12 && !barriers.is_empty() && w.exclude_barrier_wait {
            stitch::insert_barrier_waits(&mut w, &barriers);
        }
        if !w.complete {
            for i in &w.insts {
                w.end_time = w.end_time.max(i.time + i.duration + 4);
            }
        }
        self.out.waves.push(w.into_wave());
    }

    #[inline(always)]
    fn apply(&mut self, tok: RdnaToken) {
        let raw = tok.raw;
        let time = tok.time;
        let layout = self.layout;
        match tok.kind {
            RdnaKind::Inst => {
                let (slot, op) = rdna::inst(raw, layout);
                // wave64 instructions (w64h: bit 7 on layout 3, bit 6 on layout 4) take twice the cycles.
                let w64 = rdna::bits(raw, if layout >= 4 { 6 } else { 7 }, 1) as i64;
                let m = if layout >= 4 { op_gfx12(op, self.dprate, self.derate) } else { op_gfx11(op, self.dprate) };
                match m {
                    Op::Other(cat, cycles) => {
                        self.out.other_simd.push(OtherSimd { time, cycles, wgp: self.target_cu, category: cat })
                    }
                    Op::Issue(cat, cycles) => {
                        if let Some(w) = self.st.slots[slot as usize].last_mut() {
                            w.inst(time, op, cat, cycles << w64);
                        }
                    }
                    Op::None => {
                        if let Some(w) = self.st.slots[slot as usize].last_mut() {
                            w.inst(time, op, Category::None, 0);
                        }
                    }
                }
            }
            RdnaKind::ValuInst => {
                if let Some(w) = self.st.slots[rdna::slot7(raw) as usize].last_mut() {
                    w.valu(time, rdna::bits(raw, 6, 1) != 0);
                }
            }
            RdnaKind::Immediate => {
                if let Some(w) = self.st.slots[rdna::slot7(raw) as usize].last_mut() {
                    w.immediate(time);
                }
            }
            RdnaKind::ImmediateMask => {
                let mut mask = rdna::mask16(raw);
                while mask != 0 {
                    let i = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    if let Some(w) = self.st.slots[i].last_mut() {
                        w.immediate(time);
                    }
                }
            }
            RdnaKind::WaveRdy => {
                let mut mask = rdna::mask16(raw);
                // Layout 3 reports the ready state one cycle before the token (corpus: every
                // STALL run of gfx1100 starts at token time - 1; gfx1200 at the token time).
                let t = if layout <= 3 { time - 1 } else { time };
                while mask != 0 {
                    let i = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    if let Some(w) = self.st.slots[i].last_mut() {
                        w.wave_ready(t);
                    }
                }
            }
            // WAVE_START_EXT starts waves on layout 4 only; on layout 3 AMD's decoder ignores
            // the pattern (tinygrad: a timing token), and the reader skips it.
            RdnaKind::WaveStart | RdnaKind::WaveStartExt => self.wave_start(raw, time),
            RdnaKind::WaveEnd => self.wave_end(raw, time),
            RdnaKind::NewPc => {
                let (slot, pc) = rdna::new_pc(raw, layout);
                if let Some(w) = self.st.slots[slot as usize].last_mut() {
                    w.new_pc(pc);
                }
            }
            RdnaKind::Reg => {
                let (cs, pipe, me, reg, value) = rdna::reg(raw);
                if cs {
                    let e = &mut self.pgm[usize::from(me & 1)][usize::from(pipe & 3)];
                    match reg {
                        REG_PGM_LO => *e = (*e & !0xffff_ffff) | u64::from(value),
                        REG_PGM_HI => *e = (*e & 0xffff_ffff) | (u64::from(value) << 32),
                        _ => {}
                    }
                }
            }
            RdnaKind::TsDeltaS5W3 | RdnaKind::Perf => {
                // Layout 3 only (the reader skips both on layout 4).
                let short = tok.kind == RdnaKind::Perf;
                if let Some((cu, simd, wave_id, value)) = rdna::shader_data_l3(raw, short) {
                    self.out.shaderdata.push(ShaderData { time, value, cu, simd, wave_id, flags: u8::from(short) });
                }
            }
            RdnaKind::ShaderData | RdnaKind::ShaderDataShort => {
                let short = tok.kind == RdnaKind::ShaderDataShort;
                let (cu, simd, wave_id, value, privileged) = rdna::shader_data(raw, short);
                let flags = (u8::from(privileged) << 1) | u8::from(short);
                self.out.shaderdata.push(ShaderData { time, value, cu, simd, wave_id, flags });
            }
            RdnaKind::TsDeltaOrMark => self.mark(tok),
            _ => {}
        }
    }

    #[inline(never)]
    fn wave_start(&mut self, raw: u64, time: i64) {
        let f = rdna::wave_start(raw, self.layout);
        let entry = (self.pgm[usize::from(f.me & 1)][usize::from(f.pipe & 3)] << 8) & ((1 << 48) - 1);
        let target_cu = self.target_cu;
        let target = f.cu == target_cu && f.simd == self.target_simd;
        let l = loc(f.cu, f.simd, f.slot);
        let st = &mut *self.st;
        if (CTX_BEGIN..CTX_END).contains(&f.count) {
            let bit = f.count - CTX_BEGIN;
            let is_save = (0b00_0011_0011u32 >> bit) & 1 != 0;
            let is_restore = (0b11_1100_1100u32 >> bit) & 1 != 0;
            if target {
                let slot = &mut st.slots[f.slot as usize];
                if is_save {
                    // The 0.1.6 reference records no row for the save (newer decoders do).
                    if let Some(w) = slot.last_mut() {
                        w.restored = false;
                        w.contexts = w.contexts.saturating_add(1);
                    }
                }
                if is_restore {
                    if slot.last().is_none_or(|w| w.complete) {
                        slot.push(WaveBuild::new(target_cu, f.simd, f.slot, time, 0, self.exclude_bw));
                    }
                    let w = slot.last_mut().expect("pushed above when empty");
                    if let Some(b) = w.insts.last_mut() {
                        if b.category == Category::Context {
                            b.duration = b.duration.max(time + 1 - b.time);
                        }
                    }
                    w.restored = false;
                    w.contexts = w.contexts.saturating_add(1);
                }
            }
            if is_save {
                if st.running.get(l) != 0 {
                    let pc = st.running.get(l) - 1;
                    self.occ.push(Occupancy { time, cu: f.cu, simd: f.simd, wave_id: f.slot, start: false, pc });
                    st.saved.set(l, st.running.get(l));
                }
            } else if is_restore {
                let pc1 = st.saved.take(l);
                st.running.set(l, pc1.max(1));
                self.occ.push(Occupancy {
                    time,
                    cu: f.cu,
                    simd: f.simd,
                    wave_id: f.slot,
                    start: true,
                    pc: pc1.saturating_sub(1),
                });
            }
            return;
        }
        st.running.set(l, entry + 1);
        self.occ.push(Occupancy { time, cu: f.cu, simd: f.simd, wave_id: f.slot, start: true, pc: entry });
        if target {
            while self.st.slots[f.slot as usize].last().is_some_and(|w| w.complete) {
                let w = self.st.slots[f.slot as usize].pop().expect("checked non-empty");
                self.finish(w);
            }
            self.st.slots[f.slot as usize].push(WaveBuild::new(
                target_cu,
                f.simd,
                f.slot,
                time,
                entry,
                self.exclude_bw,
            ));
        }
    }

    #[inline(never)]
    fn wave_end(&mut self, raw: u64, time: i64) {
        let (cu, simd, slot) = rdna::wave_end(raw, self.layout);
        if cu == self.target_cu && simd == self.target_simd {
            // The 0.1.6 reference finishes the wave here: tokens of the slot that arrive
            // before its next start no longer reach it (newer decoders keep it open).
            // An end on the traced unit for an empty slot is dropped entirely, without
            // occupancy rows (probed with AMD's decoder).
            let Some(mut w) = self.st.slots[slot as usize].pop() else { return };
            w.complete(time);
            self.finish(w);
        }
        let l = loc(cu, simd, slot);
        let pc = if self.st.running.get(l) != 0 {
            self.st.running.take(l) - 1
        } else {
            self.missing.push(Occupancy { time: 0, cu, simd, wave_id: slot, start: true, pc: 0 });
            0
        };
        self.occ.push(Occupancy { time, cu, simd, wave_id: slot, start: false, pc });
    }

    #[inline(never)]
    fn mark(&mut self, tok: RdnaToken) {
        let (raw, time, layout) = (tok.raw, tok.time, self.layout);
        if rdna::mark_flags(raw, layout) == (false, true) {
            self.data_lost = true;
        }
        if let Some(v) = rdna::mark_value(raw, layout) {
            // AMD's decoder merges a marker into the previous one (their average) when
            // either clock does not advance, but only in one of its two read loops: the
            // bulk loop on gfx12 and the tail loop (last 32 nibbles) on gfx11.
            let merges = if layout >= 4 { !tok.tail } else { tok.tail };
            match self.out.realtime.last_mut() {
                Some(b) if merges && (b.shader_clock >= time || b.realtime_clock >= v) => {
                    b.realtime_clock = ((u128::from(b.realtime_clock) + u128::from(v)) / 2) as u64;
                    b.shader_clock = ((i128::from(b.shader_clock) + i128::from(time)) / 2) as i64;
                }
                _ => self.out.realtime.push(Realtime { shader_clock: time, realtime_clock: v }),
            }
        }
    }
}

/// Layout 4 applies every token as it comes.
impl TokenSink for Run<'_, '_> {
    #[inline(always)]
    fn token(&mut self, token: Result<RdnaToken>) {
        match token {
            Ok(t) => self.apply(t),
            Err(e) => self.damaged(e),
        }
    }
}

/// Layout 3: wave tokens are held back until time moves on, so that a `WAVERDY` with the same
/// time, which AMD's decoder applies first, is applied first here too. Tokens that do not touch
/// wave state are applied at once; the reader already consumed those that only move time, and
/// register writes other than the kernel entry (the only ones used). Neither changes anything:
/// held-back tokens are still applied before any token with a later time.
struct Held<'r, 'p, 's> {
    run: &'r mut Run<'p, 's>,
    pending: Vec<RdnaToken>,
}

impl Held<'_, '_, '_> {
    #[inline(never)]
    fn flush(&mut self) {
        for &p in &self.pending {
            self.run.apply(p);
        }
        self.pending.clear();
    }
}

impl TokenSink for Held<'_, '_, '_> {
    #[inline(always)]
    fn token(&mut self, token: Result<RdnaToken>) {
        let tok = match token {
            Ok(t) => t,
            Err(e) => {
                self.run.damaged(e);
                return;
            }
        };
        if !self.pending.is_empty() && self.pending[0].time != tok.time {
            self.flush();
        }
        match tok.kind {
            RdnaKind::Inst
            | RdnaKind::ValuInst
            | RdnaKind::Immediate
            | RdnaKind::ImmediateMask
            | RdnaKind::WaveStart
            | RdnaKind::WaveEnd
            | RdnaKind::NewPc
            | RdnaKind::Reg => self.pending.push(tok),
            _ => self.run.apply(tok),
        }
    }
}

/// Decodes one RDNA stream.
pub(crate) fn decode(data: &[u8], prog: &Program, st: &mut RdnaState) -> Result<SeDecode> {
    let toks = RdnaTokens::new(data)?;
    let layout = toks.layout();
    let header = toks.header();
    let toks = toks.keeping_registers(&[REG_PGM_LO, REG_PGM_HI]).skipping(TIME_ONLY).skipping(if layout >= 4 {
        TIME_ONLY_L4
    } else {
        TIME_ONLY_L3
    });
    let gfxip = if layout >= 4 { 12 } else { 11 };

    st.slots.resize_with(SLOTS, Vec::new);
    for s in &mut st.slots {
        s.clear();
    }
    st.running.reset(1 << 15);
    st.saved.reset(1 << 15);
    st.lines.reset(prog.len());
    let mut pending = std::mem::take(&mut st.pending);
    pending.clear();

    let mut run = Run {
        prog,
        st,
        out: SeDecode { gfxip, ..SeDecode::default() },
        // A wave start or end token takes 5 to 8 nibbles; most of a stream is other tokens.
        occ: Vec::with_capacity((data.len() / 16).min(1 << 16)),
        missing: Vec::new(),
        pgm: [[0u64; 4]; 2],
        layout,
        gfxip,
        target_cu: rdna::header_sa_wgp(header),
        target_simd: rdna::header_simd(header),
        dprate: rdna::header_dprate(header),
        derate: rdna::header_derate(header),
        exclude_bw: layout == 4 && rdna::header_exclude_barrier_wait(header),
        incomplete_reported: false,
        data_lost: false,
    };
    if layout > 3 {
        toks.for_each_token(&mut run);
    } else {
        // Layout 3 reports a WAVERDY one cycle before its token; AMD's decoder applies it ahead
        // of the wave tokens that share the WAVERDY token's time, so those are held back until
        // time moves on (see `Held`).
        let mut held = Held { run: &mut run, pending };
        toks.for_each_token(&mut held);
        held.flush();
        pending = held.pending;
    }
    run.st.pending = pending;

    for s in 0..SLOTS {
        if run.st.slots[s].is_empty() {
            continue;
        }
        let waves = std::mem::take(&mut run.st.slots[s]);
        for w in waves {
            run.finish(w);
        }
    }
    // AMD reports lost data after the waves' own diagnostics.
    if run.data_lost {
        run.out.info.push(Info::DataLost);
    }
    let Run { mut out, occ, mut missing, .. } = run;
    missing.reverse();
    missing.extend(occ);
    out.occupancy = missing;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_tables_cover_the_documented_ranges() {
        assert_eq!(op_gfx11(0x21, 1), Op::Issue(Category::Vmem, 1));
        assert_eq!(op_gfx11(0x5a, 1), Op::Other(Category::Vmem, 1));
        assert_eq!(op_gfx11(0x73, 1), Op::Issue(Category::Valu, 1));
        assert_eq!(op_gfx11(20, 1), Op::None);
        assert_eq!(op_gfx12(0xbc, 1, 1), Op::Other(Category::Vmem, 1));
        assert_eq!(op_gfx12(0x8d, 1, 1), Op::Issue(Category::Valu, 16));
        assert_eq!(op_gfx12(0x93, 2, 4), Op::Issue(Category::Valu, 8));
        assert_eq!(op_gfx12(0xde, 1, 1), Op::Issue(Category::Vmem, 1));
    }
}
