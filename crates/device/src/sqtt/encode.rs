//! The SQTT encoder: one shader engine's thread-trace byte stream, in the real token format of the
//! target's family, for the dispatches a [`DispatchModel`] describes. It is the inverse of
//! `rocprof-sqtt`'s decoder: every token is laid out bit for bit as that decoder (and AMD's) reads
//! it, and the tests decode what was encoded.
//!
//! What a stream holds, in time order:
//! * RDNA: the layout header (layout 3 on gfx11, 4 on gfx12; the traced WGP and SIMD in it);
//!   gfx9 streams have no header in the buffer (the profiler prefixes its 8-byte header when it
//!   copies the data out, as aqlprofile does);
//! * `SQ_THREAD_TRACE_USERDATA_2` writes as register tokens (the profiler's `"\0ROC"` header and
//!   code-object markers);
//! * per dispatch, the command processor's `COMPUTE_PGM_LO/HI` writes (the kernel entry) as CS
//!   register tokens, then a wave start and a wave end for every wave of the shader engine (all
//!   its CUs), and for the waves of the traced unit one token per executed instruction:
//!   RDNA `VALUINST` / `INST` with the pipe's op / `IMMEDIATE`, gfx9 `ISSUE` + `INST`;
//! * time-delta tokens wherever an event is further away than the next token's delta field
//!   reaches.
//!
//! The traced unit: gfx9 = the target CU of shader array 0 and the SIMDs of the SIMD mask; RDNA =
//! the target WGP of shader array 0 and one SIMD of it (`SIMD id & 3`), as aqlprofile programs
//! `SQ_THREAD_TRACE_MASK`. Executed instructions follow the kernel's code path: a wave's model
//! instructions in order, except those a taken branch jumps over; `s_endpgm` has no RDNA token
//! (the decoder closes the wave with it at the wave end).
//!
//! Times are the model's cycles, offset so that each dispatch starts after what the stream already
//! holds. gfx9 tokens count time in units of 4 cycles, so gfx9 event times round up to them.
//!
//! Streamed SQ counters (gfx9 `--att-perfcounters`, [`PerfConfig`]): every sampling period, one
//! `PERF` token per CU of shader array 0 (the token's 4-bit CU field) and bank (counters 0..3, 4..7)
//! with the counts of that period, the CU `c` token 4*`c` cycles after the sample time (the decoders
//! subtract that again). A CU's count of an event over the dispatch is the counter model's value
//! for that CU ([`crate::counters::event_value`]), spread evenly over the time its waves are resident
//! (the whole dispatch for a CU without waves), so the samples of a CU sum to the model's value.
//! Modelled choices, not hardware facts: the period is 64 cycles per unit of `CNTR_RATE + 1`, a
//! sample that exceeds the token's 13-bit field saturates (and is counted), and the SIMD mask of a
//! select is not applied (the counts are the CU's).

use rocprof_sqtt::isa::{flags, LineClass, Program};
use rocprof_sqtt::Family;

use super::writer::{NibbleWriter, WordWriter};
use crate::counters::{event_value, Unit};
use crate::targets::{Generation, GpuModel};
use crate::wave::{DispatchModel, WavePlacement};

/// `COMPUTE_PGM_LO` / `HI` as register tokens name them.
const REG_PGM_LO: u32 = 0x0c;
const REG_PGM_HI: u32 = 0x0d;
/// `SQ_THREAD_TRACE_USERDATA_2`.
pub const REG_USERDATA_2: u32 = 0xC342;

/// Which unit of a shader engine gets instruction tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracedUnit {
    /// gfx9: CU within shader array 0; RDNA: WGP within shader array 0.
    pub target_cu: u32,
    /// gfx9: bitmask of SIMDs; RDNA: the SIMD id within the WGP (low 2 bits).
    pub simd_select: u32,
}

/// Where a wave sits, as trace tokens name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceLoc {
    /// gfx9: CU within its shader array; RDNA: WGP within its shader array.
    pub cu: u32,
    /// Shader array.
    pub sa: u32,
    /// gfx9: SIMD of the CU; RDNA: SIMD of the WGP (two per CU).
    pub simd: u32,
    /// Wave slot.
    pub slot: u32,
}

/// The trace-token location of a placed wave.
pub fn trace_loc(target: &GpuModel, p: &WavePlacement) -> TraceLoc {
    let n = target.cus_in_se(p.se_in_xcc);
    let first_of_sa = (0..n).find(|&c| target.sa_of_cu(c, n) == p.sa).unwrap_or(0);
    let pos = p.cu_in_se.saturating_sub(first_of_sa);
    match target.generation() {
        Generation::Gfx9 => TraceLoc { cu: pos, sa: p.sa, simd: p.simd, slot: p.slot },
        _ => TraceLoc { cu: pos / 2, sa: p.sa, simd: (pos % 2) * target.simds_per_cu + p.simd, slot: p.slot },
    }
}

/// The CU (index within its SE) that holds the traced unit's waves: what a
/// [`crate::DetailRequest`] asks for.
pub fn traced_cu_in_se(target: &GpuModel, unit: TracedUnit) -> u32 {
    match target.generation() {
        Generation::Gfx9 => unit.target_cu,
        _ => 2 * unit.target_cu + ((unit.simd_select & 3) / target.simds_per_cu.max(1)).min(1),
    }
}

/// The `rocprof-sqtt` family of a target's traces (`None`: gfx10, whose trace format is not
/// modelled).
pub fn family_of(target: &GpuModel) -> Option<Family> {
    match target.generation() {
        Generation::Gfx9 => Some(Family::Gfx9),
        Generation::Gfx10 => None,
        Generation::Gfx11 => Some(Family::Gfx11),
        Generation::Gfx12 => Some(Family::Gfx12),
    }
}

/// gfx9 capture-header family version: 4 = MI200 or older, 5 = MI300, 6 = MI350.
pub fn gfx9_header_version(target: &GpuModel) -> u8 {
    match target.name {
        "gfx950" => 6,
        n if n.starts_with("gfx94") => 5,
        _ => 4,
    }
}

/// The 8-byte header a profiler puts in front of a gfx9 stream (aqlprofile's layout:
/// legacy version 0x11, family version, SIMD mask, target CU, SE id).
pub fn gfx9_header(target: &GpuModel, unit: TracedUnit, se: u32) -> [u8; 8] {
    let v = 0x11u64
        | u64::from(gfx9_header_version(target)) << 13
        | u64::from(unit.simd_select & 0xF) << 16
        | u64::from(unit.target_cu & 0x1F) << 20
        | u64::from(se & 0x3F) << 26;
    v.to_le_bytes()
}

/// Streamed SQ counters of a gfx9 trace: what `SQ_PERFCOUNTERn_SELECT`, `SQ_PERFCOUNTER_CTRL` and
/// the token mask's perf bit programmed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerfConfig {
    /// Per counter slot 0..7: the event name (`None`: slot not programmed) and the SIMD mask.
    pub slots: [Option<(String, u32)>; 8],
    /// Cycles between samples.
    pub period: u64,
}

impl PerfConfig {
    /// The sampling period for `SQ_PERFCOUNTER_CTRL.CNTR_RATE` (bits 8..12).
    pub fn period_for_ctrl(ctrl: u32) -> u64 {
        64 * (u64::from((ctrl >> 8) & 0x1F) + 1)
    }
}

/// What one stream came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeStream {
    /// The bytes that fit the buffer (a whole number of 32-byte units).
    pub bytes: Vec<u8>,
    /// Bytes that did not fit.
    pub dropped_bytes: u64,
    /// Waves of the shader engine (all CUs) in the traced dispatches.
    pub waves: u64,
    /// Waves whose end token did not fit the buffer.
    pub waves_lost: u64,
    /// Waves of the traced unit that got instruction tokens.
    pub waves_traced: u64,
    /// Instruction tokens written for them.
    pub instructions: u64,
    /// `PERF` tokens written (streamed counters).
    pub perf_tokens: u64,
    /// Counter samples that did not fit the token's 13 bits (written as 8191).
    pub perf_saturated: u64,
}

enum Out {
    Rdna(NibbleWriter),
    Gfx9(WordWriter),
}

/// Encodes one shader engine's stream, dispatch by dispatch.
pub struct SeEncoder {
    target: &'static GpuModel,
    family: Family,
    se: u32,
    unit: TracedUnit,
    out: Out,
    /// Stream time (cycles) of the last token.
    time: u64,
    waves: u64,
    waves_lost: u64,
    waves_traced: u64,
    instructions: u64,
    perf: Option<PerfConfig>,
    perf_tokens: u64,
    perf_saturated: u64,
}

/// One event of a dispatch on the shader engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// Order 0 within a time: wave start.
    Start(TraceLocKey),
    /// Order 1: an instruction of a traced wave (index into the instruction list).
    Inst(usize),
    /// Order 2: wave end.
    End(TraceLocKey),
    /// Order 3: a streamed-counter sample (index into the sample list).
    Perf(usize),
}

/// [`TraceLoc`] packed so that events sort deterministically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct TraceLocKey {
    sa: u32,
    cu: u32,
    simd: u32,
    slot: u32,
}

/// One wave on a wave slot, with its instruction tokens (a range of the dispatch's list).
#[derive(Debug, Clone)]
struct SlotWave {
    loc: TraceLocKey,
    start: u64,
    end: u64,
    insts: std::ops::Range<usize>,
}

/// One `PERF` token to write.
#[derive(Debug, Clone, Copy)]
struct PerfSample {
    /// Token time (the sample time + 4 cycles per CU).
    time: u64,
    cu: u32,
    bank: u32,
    values: [u64; 4],
}

/// An instruction token to write.
#[derive(Debug, Clone, Copy)]
struct InstToken {
    loc: TraceLocKey,
    class: LineClass,
    endpgm: bool,
    taken: bool,
}

impl SeEncoder {
    /// A stream for shader engine `se` (global index) of `target`, with a buffer of `capacity`
    /// bytes. `None` for targets whose trace format is not modelled (gfx10).
    pub fn new(target: &'static GpuModel, se: u32, unit: TracedUnit, capacity: u64) -> Option<SeEncoder> {
        let family = family_of(target)?;
        let out = match family {
            Family::Gfx9 => Out::Gfx9(WordWriter::new(capacity)),
            _ => Out::Rdna(NibbleWriter::new(capacity)),
        };
        let mut e = SeEncoder {
            target,
            family,
            se,
            unit,
            out,
            time: 0,
            waves: 0,
            waves_lost: 0,
            waves_traced: 0,
            instructions: 0,
            perf: None,
            perf_tokens: 0,
            perf_saturated: 0,
        };
        if let Out::Rdna(w) = &mut e.out {
            let layout: u64 = if family == Family::Gfx12 { 4 } else { 3 };
            // Bits besides the layout, traced SIMD/WGP/SA as real captures of these families show
            // them (corpus first qwords); the double-precision rate sits in bits 28..31.
            let extra: u64 = if family == Family::Gfx12 { 0x0813_1008_6870_0000 } else { 0x6890_0000 };
            let header = 0x11
                | layout << 7
                | u64::from(unit.simd_select & 3) << 13
                | u64::from(unit.target_cu & 7) << 15
                | extra;
            w.put(header, 16);
        }
        Some(e)
    }

    /// Streams the SQ counters `perf` selects into this trace (gfx9; other families have no
    /// streamed counters and ignore it).
    pub fn set_perf(&mut self, perf: Option<PerfConfig>) {
        self.perf = perf.filter(|p| self.family == Family::Gfx9 && p.period > 0 && p.slots.iter().any(Option::is_some));
    }

    /// The stream's trace family.
    pub fn family(&self) -> Family {
        self.family
    }

    fn rdna_layout(&self) -> u8 {
        if self.family == Family::Gfx12 {
            4
        } else {
            3
        }
    }

    /// Advances time to `t` and returns the delta left for the next token's own field (at most
    /// `max`), writing time-delta tokens for the rest.
    fn advance(&mut self, t: u64, max: u64) -> u64 {
        let t = t.max(self.time);
        match &mut self.out {
            Out::Rdna(w) => {
                let d = t - self.time;
                if d > max {
                    let gap = d - max;
                    if (4..=19).contains(&gap) {
                        w.put(0x8 | (gap - 4) << 4, 2);
                    } else {
                        let wide_nibbles = if self.family == Family::Gfx12 { 16 } else { 12 };
                        w.put(0x01 | gap << 12, wide_nibbles);
                    }
                }
                self.time = t;
                d.min(max)
            }
            Out::Gfx9(w) => {
                // Units of 4 cycles; `max` is 1 (the delta bit) for every non-MISC token.
                let t4 = t.next_multiple_of(4);
                let mut d = (t4 - self.time) / 4;
                while d > max {
                    let m = (d - max).min(255);
                    w.put(m << 4, 1);
                    d -= m;
                }
                self.time = t4;
                d
            }
        }
    }

    fn rdna(&mut self, value: u64, nibbles: u32) {
        if let Out::Rdna(w) = &mut self.out {
            w.put(value, nibbles);
        }
    }

    fn words(&mut self, value: u64, words: u32) {
        if let Out::Gfx9(w) = &mut self.out {
            w.put(value, words);
        }
    }

    /// A register write token at time `t` (CS = command-processor compute register).
    fn register(&mut self, t: u64, reg: u32, value: u32, cs: bool) {
        match self.family {
            Family::Gfx9 => {
                let d = self.advance(t, 1);
                if cs {
                    // REG_CS_PRIV: pipe 0, ME field 1 (the decoder reads ME as field + 1, mod 2).
                    self.words(15 | d << 4 | 1 << 7 | u64::from(reg & 0x7F) << 9 | u64::from(value) << 16, 3);
                } else {
                    self.words(2 | d << 4 | 1 << 7 | u64::from(reg & 0xFFFF) << 16 | u64::from(value) << 32, 4);
                }
            }
            _ => {
                let d = self.advance(t, 7);
                self.rdna(
                    0x9 | d << 4 | u64::from(cs) << 15 | u64::from(reg & 0xFFFF) << 16 | u64::from(value) << 32,
                    16,
                );
            }
        }
    }

    /// A write to `SQ_THREAD_TRACE_USERDATA_2` (the profiler's markers), at the current time.
    pub fn userdata(&mut self, value: u32) {
        let t = self.time;
        self.register(t, REG_USERDATA_2, value, false);
    }

    fn is_traced(&self, loc: &TraceLoc) -> bool {
        if loc.sa != 0 || loc.cu != self.unit.target_cu {
            return false;
        }
        match self.family {
            Family::Gfx9 => self.unit.simd_select & (1 << loc.simd) != 0,
            _ => loc.simd == self.unit.simd_select & 3,
        }
    }

    fn capacity_ok(&self) -> bool {
        match &self.out {
            Out::Rdna(w) => w.fits(),
            Out::Gfx9(w) => w.fits(),
        }
    }

    /// Writes the tokens of one dispatch of the kernel whose code starts at absolute `entry_pc`
    /// (`code`: its machine code from the entry on). Waves of the traced unit get instruction
    /// tokens when the model holds their detail (see [`crate::DetailRequest`]).
    pub fn dispatch(&mut self, model: &DispatchModel, entry_pc: u64, code: &[u8]) {
        let start = self.time + 16;
        // The command processor programs the kernel entry before the first wave starts.
        let pgm = entry_pc >> 8;
        self.register(start, REG_PGM_LO, pgm as u32, true);
        self.register(start, REG_PGM_HI, (pgm >> 32) as u32, true);
        let base = start + 4;

        let key = |l: TraceLoc| TraceLocKey { sa: l.sa, cu: l.cu, simd: l.simd, slot: l.slot };
        // Every wave of the shader engine, on every CU.
        let mut waves: Vec<SlotWave> = Vec::new();
        let se_in_xcc = self.se % self.target.se_per_xcc();
        for c in 0..self.target.cus_in_se(se_in_xcc) {
            for g in model.workgroups_on_cu(self.se, c) {
                for w in 0..model.waves_in_workgroup(g) {
                    let Some(wave) = model.wave(g, w) else { break };
                    let loc = key(trace_loc(self.target, &wave.placement));
                    waves.push(SlotWave {
                        loc,
                        start: base + wave.start_cycle,
                        end: base + wave.end_cycle,
                        insts: 0..0,
                    });
                }
            }
        }
        waves.sort_by_key(|w| (w.loc, w.start));
        // Instruction tokens of the traced unit's waves, along the code path.
        let prog = Program::new(self.family, entry_pc, code);
        let mut insts: Vec<(u64, InstToken)> = Vec::new();
        for d in &model.detail {
            let p = d.wave.placement;
            if p.se != self.se {
                continue;
            }
            let loc = trace_loc(self.target, &p);
            if !self.is_traced(&loc) {
                continue;
            }
            let start = base + d.wave.start_cycle;
            let Ok(wi) = waves.binary_search_by_key(&(key(loc), start), |w| (w.loc, w.start)) else { continue };
            self.waves_traced += 1;
            let first = insts.len();
            let mut expected = entry_pc;
            let mut last = start;
            for i in &d.instructions {
                let pc = entry_pc + u64::from(i.pc_offset);
                if pc != expected {
                    continue; // jumped over by a taken branch
                }
                let Some(line) = prog.line_at(pc) else { break };
                let (_, info) = prog.line(line);
                let taken = i.class == crate::wave::InstClass::BranchTaken;
                let endpgm = info.flags & flags::ENDPGM != 0;
                let mut next = if taken { prog.jump_line(line) } else { prog.next_line(line) };
                // Hints that never issue (s_delay_alu, ...) are not in the model's list.
                while let Some(l) = next.filter(|&l| prog.line(l).1.class == LineClass::Skip) {
                    next = prog.next_line(l);
                }
                expected = next.map_or(u64::MAX, |l| prog.line(l).0);
                let t = (base + i.issue_cycle).max(last);
                last = t;
                insts.push((t, InstToken { loc: key(loc), class: info.class, endpgm, taken }));
                if endpgm {
                    break;
                }
            }
            let w = &mut waves[wi];
            w.insts = first..insts.len();
            // The wave ends after its last instruction has run (the decoder closes it there, with
            // the s_endpgm row RDNA traces carry no token for).
            w.end = w.end.max(last + 8);
        }
        // A wave slot holds one wave at a time: a wave starts after the previous one on its slot
        // ended (traced waves can run a few cycles past the model's end), its tokens shifted with it.
        for i in 1..waves.len() {
            let (prev, cur) = waves.split_at_mut(i);
            let (p, w) = (&prev[i - 1], &mut cur[0]);
            if p.loc == w.loc && w.start <= p.end {
                let shift = p.end + 1 - w.start;
                w.start += shift;
                w.end += shift;
                for (t, _) in &mut insts[w.insts.clone()] {
                    *t += shift;
                }
            }
        }
        let samples = self.perf_samples(model, base, &waves);
        let mut events: Vec<(u64, Event)> = Vec::with_capacity(2 * waves.len() + insts.len() + samples.len());
        for w in &waves {
            events.push((w.start, Event::Start(w.loc)));
            events.push((w.end, Event::End(w.loc)));
        }
        events.extend(insts.iter().enumerate().map(|(i, (t, _))| (*t, Event::Inst(i))));
        events.extend(samples.iter().enumerate().map(|(i, s)| (s.time, Event::Perf(i))));
        events.sort();
        for (t, e) in events {
            match e {
                Event::Start(loc) => {
                    self.waves += 1;
                    self.wave_start(t, loc);
                }
                Event::End(loc) => {
                    self.wave_end(t, loc);
                    if !self.capacity_ok() {
                        self.waves_lost += 1;
                    }
                }
                Event::Inst(i) => {
                    self.instructions += 1;
                    self.instruction(t, insts[i].1);
                }
                Event::Perf(i) => self.perf_token(&samples[i]),
            }
        }
    }

    /// The streamed-counter samples of one dispatch (empty unless [`SeEncoder::set_perf`] enabled
    /// them): per sample time, CU of shader array 0 and bank in use, the counts of that period.
    fn perf_samples(&self, model: &DispatchModel, base: u64, waves: &[SlotWave]) -> Vec<PerfSample> {
        let Some(perf) = &self.perf else { return Vec::new() };
        let (xcc, se_in_xcc) = (self.se / self.target.se_per_xcc(), self.se % self.target.se_per_xcc());
        let n = self.target.cus_in_se(se_in_xcc);
        let first = self.target.first_cu_of_se(xcc, se_in_xcc);
        let end = waves.iter().map(|w| w.end).max().unwrap_or(base) + 1;
        let times: Vec<u64> = (1..).map(|k| base + k * perf.period).take_while(|&t| t < end + perf.period).collect();
        let banks: Vec<u32> =
            (0..2).filter(|&b| perf.slots[4 * b as usize..4 * b as usize + 4].iter().any(Option::is_some)).collect();
        let mut out = Vec::new();
        for c in (0..n).filter(|&c| self.target.sa_of_cu(c, n) == 0 && c < 16) {
            let g = first + c;
            let totals: Vec<u64> = perf
                .slots
                .iter()
                .map(|s| s.as_ref().map_or(0, |(name, _)| event_value(model, name, &Unit::Cus(g..g + 1))))
                .collect();
            let on_cu: Vec<&SlotWave> = waves.iter().filter(|w| w.loc.sa == 0 && w.loc.cu == c).collect();
            let (from, to) = match (on_cu.iter().map(|w| w.start).min(), on_cu.iter().map(|w| w.end).max()) {
                (Some(s), Some(e)) => (s, e + 1),
                _ => (base, end),
            };
            // Counts up to time `t`: the total spread evenly over [from, to).
            let upto = |total: u64, t: u64| -> u64 {
                let done = t.clamp(from, to) - from;
                (u128::from(total) * u128::from(done) / u128::from((to - from).max(1))) as u64
            };
            for &bank in &banks {
                let idx = 4 * bank as usize;
                if totals[idx..idx + 4].iter().all(|&v| v == 0) {
                    continue;
                }
                let mut prev = base;
                for (k, &t) in times.iter().enumerate() {
                    // The last sample takes whatever is left.
                    let t_end = if k + 1 == times.len() { u64::MAX } else { t };
                    let mut values = [0u64; 4];
                    for (j, v) in values.iter_mut().enumerate() {
                        let total = totals[idx + j];
                        *v = upto(total, t_end.min(to)) - upto(total, prev);
                    }
                    prev = t;
                    out.push(PerfSample { time: t + 4 * u64::from(c), cu: c, bank, values });
                }
            }
        }
        out
    }

    fn perf_token(&mut self, s: &PerfSample) {
        let d = self.advance(s.time, 1);
        let mut v = 14 | d << 4 | u64::from(s.cu & 0xF) << 6 | u64::from(s.bank & 3) << 10;
        for (j, &x) in s.values.iter().enumerate() {
            if x > 0x1FFF {
                self.perf_saturated += 1;
            }
            v |= x.min(0x1FFF) << (12 + 13 * j);
        }
        self.perf_tokens += 1;
        self.words(v, 4);
    }

    fn wave_start(&mut self, t: u64, l: TraceLocKey) {
        match self.family {
            Family::Gfx9 => {
                let d = self.advance(t, 1);
                let v = 3
                    | d << 4
                    | u64::from(l.sa & 1) << 5
                    | u64::from(l.cu & 0xF) << 6
                    | u64::from(l.slot & 0xF) << 10
                    | u64::from(l.simd & 3) << 14;
                self.words(v, 2);
            }
            _ => {
                let d = self.advance(t, 3);
                let common = 0x0C | d << 5 | u64::from(l.sa & 1) << 7 | u64::from(l.simd & 3) << 8;
                let v = if self.rdna_layout() >= 4 {
                    common | u64::from(l.cu & 0xF) << 10 | u64::from(l.slot & 0x1F) << 15
                } else {
                    common | u64::from(l.cu & 0x7) << 10 | u64::from(l.slot & 0x1F) << 13
                };
                self.rdna(v, 8);
            }
        }
    }

    fn wave_end(&mut self, t: u64, l: TraceLocKey) {
        match self.family {
            Family::Gfx9 => {
                let d = self.advance(t, 1);
                let v = 6
                    | d << 4
                    | u64::from(l.sa & 1) << 5
                    | u64::from(l.cu & 0xF) << 6
                    | u64::from(l.slot & 0xF) << 10
                    | u64::from(l.simd & 3) << 14;
                self.words(v, 1);
            }
            _ => {
                let d = self.advance(t, 7);
                let wgp_mask = if self.rdna_layout() >= 4 { 0xF } else { 0x7 };
                let v = 0x15
                    | d << 5
                    | u64::from(l.sa & 1) << 8
                    | u64::from(l.simd & 3) << 9
                    | u64::from(l.cu & wgp_mask) << 11
                    | u64::from(l.slot & 0x1F) << 15;
                self.rdna(v, 5);
            }
        }
    }

    fn instruction(&mut self, t: u64, i: InstToken) {
        let slot = u64::from(i.loc.slot & 0x1F);
        match self.family {
            Family::Gfx9 => {
                let simd = u64::from(i.loc.simd & 3);
                let slot = slot & 0xF;
                let op: Option<u64> = match i.class {
                    LineClass::Smem => Some(0),
                    LineClass::Salu => Some(1),
                    LineClass::Vmem => Some(2),
                    LineClass::Flat => Some(4),
                    LineClass::Lds => Some(6),
                    LineClass::Valu | LineClass::MfmaScale | LineClass::VMovB64 => Some(5),
                    LineClass::Branch if i.taken => Some(12),
                    LineClass::Branch => Some(13),
                    LineClass::Immed if i.endpgm => Some(15),
                    LineClass::Immed | LineClass::Gfx9Barrier | LineClass::BarrierWaitExcluded => None,
                    LineClass::Bvh => Some(2),
                    _ => return, // Skip, DontKnow
                };
                let d = self.advance(t, 1);
                let status: u64 = if op.is_some() { 2 } else { 3 };
                self.words(13 | d << 4 | simd << 5 | status << (8 + 2 * slot), 2);
                if let Some(op) = op {
                    self.words(10 | slot << 5 | simd << 9 | op << 11, 1);
                }
            }
            _ => {
                let l4 = self.rdna_layout() >= 4;
                let inst = |op: u64, d: u64| {
                    if l4 {
                        0x2 | d << 3 | slot << 7 | op << 12
                    } else {
                        0x2 | d << 4 | slot << 8 | op << 13
                    }
                };
                match i.class {
                    LineClass::Valu | LineClass::VMovB64 | LineClass::MfmaScale => {
                        let d = self.advance(t, 7);
                        self.rdna(0x3 | d << 3 | slot << 7, 3);
                    }
                    LineClass::Immed if i.endpgm => {}
                    LineClass::Immed | LineClass::Gfx9Barrier | LineClass::BarrierWaitExcluded => {
                        let d = self.advance(t, 7);
                        self.rdna(0xD | d << 4 | slot << 7, 3);
                    }
                    LineClass::Skip | LineClass::DontKnow => {}
                    class => {
                        let op = match class {
                            LineClass::Salu => 0,
                            LineClass::Smem => 1,
                            LineClass::Branch if i.taken => 3,
                            LineClass::Branch => 4,
                            LineClass::Vmem => 33,
                            LineClass::Flat => 28,
                            LineClass::Lds => 41,
                            _ => 103, // BVH
                        };
                        let d = self.advance(t, 7);
                        self.rdna(inst(op, d), 5);
                    }
                }
            }
        }
    }

    /// Closes the stream: pads it to whole 32-byte units and reports what was lost.
    pub fn finish(self) -> SeStream {
        let (bytes, dropped_bytes) = match self.out {
            Out::Rdna(w) => w.finish(),
            Out::Gfx9(w) => w.finish(0),
        };
        SeStream {
            bytes,
            dropped_bytes,
            waves: self.waves,
            waves_lost: self.waves_lost,
            waves_traced: self.waves_traced,
            instructions: self.instructions,
            perf_tokens: self.perf_tokens,
            perf_saturated: self.perf_saturated,
        }
    }
}
