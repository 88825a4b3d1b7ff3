//! gfx9 (CDNA) decoder: occupancy and wave records of the CU named in the capture header.
//!
//! Time model (AMD's `MITokenGenerator`, `source/gfx9/` in ROCm/rocm-systems
//! `projects/rocprof-trace-decoder`): every token adds 4 x its delta (bits 4..11 of a MISC, bit 4
//! of any other token); a MISC of kind TIME_RESET re-anchors the clock on the next TIMESTAMP
//! (`time = (timestamp - base) & !3`, `base` fixed by the first one), reading ahead if needed.
//! `INST_PC` tokens re-anchor the PC walk after indirect jumps.
//! Waves are built from ISSUE tokens (per-wave 2-bit issue state each cycle) and completed by
//! INST tokens that name the pipe; see [`Gfx9Wave`] for the timing rules.

use super::stitch::{self, LineState};
use super::{SparseTable, WaveBuild};
#[cfg(test)]
use crate::error::DecodeErrorKind;
use crate::error::Result;
use crate::format::gfx9::{self as fmt, kind};
use crate::isa::Program;
use crate::record::{Category, Info, Occupancy, PerfEvent, SeDecode, ShaderData, WaveState};
use crate::tokens::Gfx9Tokens;
use std::collections::VecDeque;

/// MISC kind reporting lost trace data.
const MISC_PACKET_LOST: u8 = 2;
/// MISC kind of a context-save request.
const MISC_SAVE_CONTEXT: u8 = 6;
/// ISSUE states.
const ISSUE_STALL: u64 = 1;
const ISSUE_INST: u64 = 2;
const ISSUE_IMMED: u64 = 3;
/// Placeholder category of an issued instruction whose INST token has not arrived.
const NOT_FINISHED: Category = Category::None;

/// Per-wave gfx9 bookkeeping on top of [`WaveBuild`].
#[derive(Clone, Debug)]
struct Gfx9Wave {
    w: WaveBuild,
    state_start: i64,
    issued: VecDeque<usize>,
    stall_starts: VecDeque<i64>,
    last_for_replay: [usize; 32],
    /// Trap handling: 0 restored, 1 request, 2 standby, 3 wait for new pc.
    trap: u8,
    ended: bool,
}

impl Gfx9Wave {
    fn new(cu: u8, simd: u8, wave: u8, time: i64, pc: u64) -> Self {
        Self {
            w: WaveBuild::new(cu, simd, wave, time, pc, false),
            state_start: time,
            issued: VecDeque::new(),
            stall_starts: VecDeque::new(),
            last_for_replay: [0; 32],
            trap: 0,
            ended: false,
        }
    }

    fn add_state(&mut self, state: WaveState, duration: i64) {
        match self.w.timeline.last_mut() {
            Some(last) if last.0 == state => last.1 += duration,
            _ => self.w.timeline.push((state, duration)),
        }
    }

    fn issue(&mut self, status: u64, time: i64) {
        if self.trap != 0 {
            return;
        }
        let previous = self.w.cur_state;
        match status {
            ISSUE_IMMED => {
                let mut immed_time = time;
                if let Some(b) = self.w.insts.last_mut() {
                    if b.category != NOT_FINISHED {
                        mend(b, time);
                        immed_time = (b.time + b.duration).min(time);
                    }
                }
                let cycles = 4 + (time - immed_time).max(0);
                self.w.push(immed_time, Category::Immed, cycles, cycles);
                if self.state_start < immed_time {
                    let st = self.w.cur_state;
                    self.add_state(st, immed_time - self.state_start);
                }
                self.w.cur_state = WaveState::Exec;
                self.w.timeline.push((WaveState::Wait, cycles));
                self.state_start = immed_time + cycles;
            }
            ISSUE_STALL => {
                self.w.cur_state = WaveState::Stall;
                self.stall_starts.push_back(time);
            }
            ISSUE_INST => {
                self.w.cur_state = WaveState::Exec;
                self.issued.push_back(self.w.insts.len());
                self.w.push(time, NOT_FINISHED, 0, 0);
            }
            _ => {}
        }
        let d = time - self.state_start;
        if d > 0 {
            self.add_state(previous, d);
        }
        self.state_start = self.state_start.max(time);
    }

    /// An `INST_PC` token: the PC after an indirect jump, filled into the open PC marker.
    fn inst_pc(&mut self, pc: u64) {
        if self.w.pc_infos.is_empty() || self.trap != 0 {
            return;
        }
        let infos = &mut self.w.pc_infos;
        let mut idx = infos.len();
        while idx > 0 && infos[idx - 1].1 == 0 {
            idx -= 1;
        }
        if idx == infos.len() {
            infos.push((self.w.insts.len(), 0));
        }
        infos[idx].1 = pc;
    }

    fn inst(&mut self, op: u8, time: i64, phase_counter: &mut i64) {
        const PC: u8 = 7;
        if self.trap == 3 && op == PC {
            self.w.pc_infos.push((self.w.insts.len(), 0));
            self.trap = 0;
            if let Some(b) = self.w.insts.last_mut() {
                if b.category == Category::Context {
                    b.duration = time + 4 - b.time;
                }
            }
            return;
        }
        if self.trap != 0 {
            return;
        }
        let Some(idx) = self.issued.pop_front() else { return };
        if idx >= self.w.insts.len() {
            return;
        }
        let n = self.w.insts.len();
        let the_time = self.w.insts[idx].time;
        // The issue phase advances when this instruction overlaps its predecessor (the 0.1.6
        // reference compares with the preceding record; newer AMD decoders use the
        // second-to-last record of the wave, which differs on gfx950/gemm_run1).
        if idx > 0 {
            let p = self.w.insts[idx - 1];
            if the_time < p.time + p.duration {
                *phase_counter += 1;
            }
        }
        if idx > 0 {
            mend(&mut self.w.insts[idx - 1], the_time);
        }
        let mut phase = (*phase_counter + i64::from(self.w.simd)) % 4;
        if let Some(slot) = self.last_for_replay.get_mut(op as usize) {
            *slot = idx + 1;
        }
        const SALU_PHASE: i64 = 5;
        const VALU_PHASE: i64 = 2;
        const MISC_PHASE: i64 = 1;
        let cat = match op {
            0 | 16 => {
                phase += SALU_PHASE;
                Category::Smem
            }
            1 | 17 => {
                phase += SALU_PHASE;
                Category::Salu
            }
            2 | 3 => Category::Vmem,
            4 | 14 => Category::Flat,
            6 => {
                phase += MISC_PHASE;
                Category::Lds
            }
            5 | 18 | 28 => {
                phase += VALU_PHASE;
                Category::Valu
            }
            12 => {
                phase += MISC_PHASE;
                Category::Jump
            }
            13 => {
                phase += MISC_PHASE;
                Category::Next
            }
            PC => {
                self.w.pc_infos.push((idx + 1, 0));
                Category::Salu
            }
            29 => {
                self.trap = 3;
                for info in &mut self.w.pc_infos {
                    if info.0 + 1 == n {
                        info.0 += 1;
                    }
                }
                Category::Context
            }
            15 => {
                phase += MISC_PHASE;
                Category::Message
            }
            _ => {
                // Replays extend the instruction they repeat; other kinds carry no instruction.
                let entry = match op {
                    19 => Some(0),
                    20 => Some(16),
                    21 => Some(2),
                    22 => Some(3),
                    23 => Some(4),
                    24 => Some(14),
                    _ => None,
                };
                if let Some(e) = entry {
                    let index = std::mem::take(&mut self.last_for_replay[e]);
                    if index > 0 && index < self.w.insts.len() && index < idx {
                        let x = &mut self.w.insts[index - 1];
                        let before = x.duration;
                        x.duration = x.duration.max(time + 4 - x.time);
                        x.stall += x.duration - before;
                    }
                }
                self.w.insts.remove(idx);
                return;
            }
        };
        let begin_time = self.w.begin_time;
        let prev_end = if idx > 0 { Some(self.w.insts[idx - 1].time + self.w.insts[idx - 1].duration) } else { None };
        let i = &mut self.w.insts[idx];
        i.category = cat;
        i.duration = 4 + (time - i.time - 4 * (phase / 4)).max(0);
        if self.stall_starts.front().is_some_and(|&s| i.time > s) {
            let prev_time = prev_end.unwrap_or(0);
            let mut stall_start = i.time;
            while let Some(&s) = self.stall_starts.front() {
                if i.time <= s {
                    break;
                }
                stall_start = s.max(prev_time);
                self.stall_starts.pop_front();
            }
            i.stall = (i.time - stall_start).max(0);
            i.duration = (i.time + i.duration - stall_start).max(4);
            i.time = stall_start;
        }
        let _ = begin_time;
    }

    fn complete(&mut self, time: i64) {
        // The 0.1.6 reference ends the wave at the token (newer AMD decoders add 4 cycles).
        let t = time;
        let n = self.w.insts.len();
        let endpgm_gap = n >= 2 && self.w.insts[n - 1].category == Category::Message && {
            let p = self.w.insts[n - 2];
            p.time + p.duration <= self.w.insts[n - 1].time
        };
        if endpgm_gap {
            // As in the 0.1.6 reference: the final message (s_endpgm) starts when the previous
            // instruction ends and the wave waits from there until the message's end.
            let p = self.w.insts[n - 2];
            let start = p.time + p.duration;
            let last = &mut self.w.insts[n - 1];
            let end = last.time + last.duration;
            last.time = start;
            last.duration = end - start;
            last.stall = 0;
            // The timeline runs up to the message's start (the run it cuts keeps its remainder,
            // even if empty), waits through the message, and idles from its end to the wave end.
            let mut acc = self.w.begin_time;
            let mut keep = self.w.timeline.len();
            for (i, (_, d)) in self.w.timeline.iter_mut().enumerate() {
                if acc + *d > start {
                    *d = start - acc;
                    keep = i + 1;
                    break;
                }
                acc += *d;
            }
            self.w.timeline.truncate(keep);
            self.w.timeline.push((WaveState::Wait, end - start));
            if t > end {
                self.w.timeline.push((WaveState::Idle, t - end));
            }
        } else if t > self.state_start {
            // The wave idles from its last state change to the end (0.1.6 reference).
            self.w.timeline.push((WaveState::Idle, t - self.state_start));
        }
        self.w.cur_state = WaveState::Empty;
        self.state_start = t;
        self.w.end_time = t;
        self.w.complete = true;
        self.ended = true;
    }
}

/// Removes the overlap of `prev` with an instruction starting at `time`.
fn mend(prev: &mut crate::record::Instruction, time: i64) {
    if time < prev.time + prev.duration {
        prev.duration = (time - prev.time).max(4);
        prev.stall = prev.stall.min(prev.duration);
    }
}

/// Reusable gfx9 decoding state.
#[derive(Debug, Default)]
pub(crate) struct Gfx9State {
    lines: LineState,
    /// Wave lists by `simd * 16 + slot`, kept between calls for their capacity.
    slots: Vec<Vec<Gfx9Wave>>,
    /// Entry pc + 1 of running waves by `(cu << 7 | simd << 5 | wave)`; 0 = not running.
    running: SparseTable,
}

fn loc(cu: u8, simd: u8, wave: u8) -> usize {
    (usize::from(cu & 0xf) << 7) | (usize::from(simd & 3) << 5) | usize::from(wave & 0x1f)
}

/// Decodes one gfx9 stream (8-byte capture header first).
pub(crate) fn decode(data: &[u8], prog: &Program, st: &mut Gfx9State) -> Result<SeDecode> {
    let mut gen = Gfx9Tokens::new(data)?.skipping_idle_words();
    let target_cu = gen.header().target_cu;
    st.lines.reset(prog.len());
    st.running.reset(1 << 11);

    let mut out = SeDecode { gfxip: 9, ..SeDecode::default() };
    let mut occ: Vec<Occupancy> = Vec::new();
    // Wave ends without a start get a start row at time 0, which AMD inserts at the front.
    let mut missing: Vec<Occupancy> = Vec::new();
    let mut slots = std::mem::take(&mut st.slots);
    slots.resize_with(4 * 16, Vec::new);
    for s in &mut slots {
        s.clear();
    }
    let mut pgm = [[0u64; 4]; 2];
    // AMD's issue-phase counter starts at 3 (found by decoding synthetic streams with its decoder;
    // the corpus is insensitive to it).
    let mut phase_counter = 3i64;
    let mut data_lost = false;
    let mut incomplete_reported = false;

    let mut finish = |mut g: Gfx9Wave, lines: &mut LineState, out: &mut SeDecode| {
        stitch::stitch(prog, lines, 9, &mut g.w);
        if !g.w.complete && !incomplete_reported {
            incomplete_reported = true;
            out.info.push(Info::WaveIncomplete);
        }
        if !g.w.complete {
            for i in &g.w.insts {
                g.w.end_time = g.w.end_time.max(i.time + i.duration + 4);
            }
        }
        out.waves.push(g.w.into_wave());
    };

    for t in &mut gen {
        let t = match t {
            Ok(t) => t,
            Err(e) => {
                out.damage.get_or_insert(e);
                continue;
            }
        };
        let (raw, time) = (t.raw, t.time);
        match t.kind {
            kind::MISC if fmt::misc(raw).1 == MISC_PACKET_LOST => data_lost = true,
            kind::MISC if fmt::misc(raw).1 == MISC_SAVE_CONTEXT => {
                for s in &mut slots {
                    if let Some(w) = s.last_mut() {
                        if !w.ended {
                            w.trap = 1;
                        }
                    }
                }
            }
            kind::REG_CS | kind::REG_CS_PRIV => {
                let (pipe, me, reg, value) = fmt::reg_cs(raw);
                let me = usize::from((me + 1) & 1);
                let e = &mut pgm[me][usize::from(pipe & 3)];
                match reg {
                    0x0c => *e = (*e & !0xffff_ffff) | u64::from(value),
                    0x0d => *e = (*e & 0xffff_ffff) | (u64::from(value) << 32),
                    _ => {}
                }
            }
            kind::WAVESTART => {
                let (cu, simd, wave) = fmt::wave_loc(raw);
                if wave > 9 {
                    continue;
                }
                let sh = fmt::wave_sh(raw);
                let (pipe, me) = fmt::wave_start_pipe_me(raw);
                let entry = (pgm[usize::from(me & 1)][usize::from(pipe)] << 8) & ((1 << 48) - 1);
                if cu == target_cu && sh == 0 {
                    let slot = &mut slots[usize::from(simd) * 16 + usize::from(wave)];
                    if fmt::wave_start_count(raw) > 64 {
                        if let Some(w) = slot.last_mut() {
                            if w.trap == 1 {
                                w.w.contexts = w.w.contexts.saturating_add(1);
                                w.trap = 2;
                                w.w.push(time, Category::Context, 4, 0);
                            } else if w.trap == 2 {
                                w.trap = 3;
                            }
                        }
                        continue;
                    }
                    if slot.last().is_none_or(|w| w.ended) {
                        slot.push(Gfx9Wave::new(target_cu, simd, wave, time, entry));
                    }
                }
                let l = loc(cu, simd, wave);
                if st.running.get(l) == 0 {
                    occ.push(Occupancy { time, cu, simd, wave_id: wave, start: true, pc: entry });
                }
                st.running.set(l, entry + 1);
            }
            kind::WAVEEND => {
                let (cu, simd, wave) = fmt::wave_loc(raw);
                if wave > 9 {
                    continue;
                }
                if cu == target_cu && fmt::wave_sh(raw) == 0 {
                    let slot = &mut slots[usize::from(simd) * 16 + usize::from(wave)];
                    if let Some(w) = slot.last_mut() {
                        if w.trap != 0 {
                            continue;
                        }
                        w.complete(time);
                        let g = slot.pop().expect("checked non-empty");
                        finish(g, &mut st.lines, &mut out);
                    }
                }
                let l = loc(cu, simd, wave);
                if st.running.get(l) != 0 {
                    let pc = st.running.take(l) - 1;
                    occ.push(Occupancy { time, cu, simd, wave_id: wave, start: false, pc });
                } else if !data_lost {
                    missing.push(Occupancy { time: 0, cu, simd, wave_id: wave, start: true, pc: 0 });
                    occ.push(Occupancy { time: 0, cu, simd, wave_id: wave, start: false, pc: 0 });
                }
            }
            kind::INST => {
                let (wave, simd, op) = fmt::inst(raw);
                if wave > 9 {
                    continue;
                }
                let slot = &mut slots[usize::from(simd) * 16 + usize::from(wave)];
                if slot.last().is_none_or(|w| w.ended) {
                    slot.push(Gfx9Wave::new(target_cu, simd, wave, time, 0));
                }
                slot.last_mut().expect("pushed above").inst(op, time, &mut phase_counter);
            }
            kind::USERDATA => {
                let (cu, simd, wave_id) = fmt::wave_loc(raw);
                let value = (raw >> 16) & 0xffff_ffff;
                out.shaderdata.push(ShaderData { time, value, cu, simd, wave_id, flags: 0 });
            }
            kind::PERF if fmt::wave_sh(raw) == 0 => {
                let cu = ((raw >> 6) & 0xf) as u8;
                let c = |lo: u32| ((raw >> lo) & 0x1fff) as u16;
                out.perfevents.push(PerfEvent {
                    time: time - 4 * i64::from(cu),
                    events: [c(12), c(25), c(38), c(51)],
                    cu,
                    bank: ((raw >> 10) & 3) as u8,
                });
            }
            kind::INST_PC => {
                let (wave, simd) = (((raw >> 5) & 0xf) as usize, ((raw >> 9) & 3) as usize);
                if wave <= 9 {
                    if let Some(w) = slots[simd * 16 + wave].last_mut() {
                        w.inst_pc(((raw >> 16) & ((1 << 48) - 1)) << 2);
                    }
                }
            }
            kind::ISSUE => {
                let simd = ((raw >> 5) & 3) as usize;
                for wave in 0..10usize {
                    let status = (raw >> (8 + 2 * wave)) & 3;
                    if status == 0 {
                        continue;
                    }
                    if let Some(w) = slots[simd * 16 + wave].last_mut() {
                        w.issue(status, time);
                    }
                }
            }
            _ => {}
        }
    }
    for s in slots.iter_mut().filter(|s| !s.is_empty()) {
        for g in s.drain(..) {
            finish(g, &mut st.lines, &mut out);
        }
    }
    st.slots = slots;
    if data_lost {
        out.info.push(Info::DataLost);
    }
    missing.reverse();
    missing.extend(occ);
    out.occupancy = missing;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userdata_and_perf_records() {
        let mut data = 0x0000_0000_000f_8011u64.to_le_bytes().to_vec();
        // USERDATA: cu 3, wave 2, simd 1, value 0xdeadbeef (48 bits)
        let ud: u64 = 12 | (3 << 6) | (2 << 10) | (1 << 14) | (0xdead_beef << 16);
        data.extend_from_slice(&ud.to_le_bytes()[..6]);
        // MISC delta 5 (20 cycles), then PERF: cu 2, bank 1, counters 1, 2, 3, 4
        data.extend_from_slice(&(5u16 << 4).to_le_bytes());
        let perf: u64 = 14 | (2 << 6) | (1 << 10) | (1 << 12) | (2 << 25) | (3 << 38) | (4 << 51);
        data.extend_from_slice(&perf.to_le_bytes());
        let prog = Program::new(crate::family::Family::Gfx9, 0, &[]);
        let d = decode(&data, &prog, &mut Gfx9State::default()).unwrap();
        assert_eq!(
            d.shaderdata,
            vec![ShaderData { time: 0, value: 0xdead_beef, cu: 3, simd: 1, wave_id: 2, flags: 0 }]
        );
        assert_eq!(d.perfevents, vec![PerfEvent { time: 20 - 8, events: [1, 2, 3, 4], cu: 2, bank: 1 }]);
    }

    #[test]
    fn rejects_bad_headers() {
        let prog = Program::new(crate::family::Family::Gfx9, 0, &[]);
        let mut st = Gfx9State::default();
        assert_eq!(decode(&[0; 4], &prog, &mut st).unwrap_err().kind, DecodeErrorKind::TruncatedHeader);
        assert_eq!(decode(&[0; 16], &prog, &mut st).unwrap_err().kind, DecodeErrorKind::BadGfx9Header(0));
    }
}
