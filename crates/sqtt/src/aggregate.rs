//! Aggregates for ATT outputs (RCV's `ui_output` code table and the stats CSV): per-PC hit
//! count, latency, stall and idle cycles over any set of waves, and per-wave summaries.
//!
//! Definitions, per instruction record of a wave: *latency* is its `duration`, *stall* its
//! `stall`, *idle* the cycles between the end of the wave's previous record
//! (`time + duration`) and this record's `time` (0 for the first record or on overlap).
//! Records without a PC (walk failed) are counted under PC 0.

use crate::record::{Wave, WaveState};
use std::collections::BTreeMap;

/// Totals for one instruction address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PcStats {
    /// Absolute address (0 = unattributed records).
    pub pc: u64,
    /// Times the instruction was executed.
    pub hits: u64,
    /// Sum of durations in cycles.
    pub latency: i64,
    /// Sum of stall cycles.
    pub stall: i64,
    /// Sum of idle cycles before the instruction.
    pub idle: i64,
}

/// Accumulates [`PcStats`] over waves, possibly from several shader engines and dispatches.
#[derive(Clone, Debug, Default)]
pub struct PcTable {
    by_pc: BTreeMap<u64, PcStats>,
}

impl PcTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds every instruction record of `wave`.
    pub fn add_wave(&mut self, wave: &Wave) {
        let mut prev_end: Option<i64> = None;
        for i in &wave.instructions {
            let e = self.by_pc.entry(i.pc).or_insert(PcStats { pc: i.pc, ..PcStats::default() });
            e.hits += 1;
            e.latency += i.duration;
            e.stall += i.stall;
            if let Some(end) = prev_end {
                e.idle += (i.time - end).max(0);
            }
            prev_end = Some(i.time + i.duration);
        }
    }

    /// Adds all waves.
    pub fn add_waves<'a>(&mut self, waves: impl IntoIterator<Item = &'a Wave>) {
        for w in waves {
            self.add_wave(w);
        }
    }

    /// Stats for one address.
    pub fn get(&self, pc: u64) -> Option<&PcStats> {
        self.by_pc.get(&pc)
    }

    /// All addresses in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = &PcStats> {
        self.by_pc.values()
    }

    /// Number of distinct addresses.
    pub fn len(&self) -> usize {
        self.by_pc.len()
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.by_pc.is_empty()
    }
}

/// Summary of one wave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaveSummary {
    /// CU (gfx9) or WGP | SA << 7 (RDNA).
    pub cu: u8,
    /// SIMD.
    pub simd: u8,
    /// Wave slot.
    pub wave_id: u8,
    /// Start time.
    pub begin_time: i64,
    /// End time.
    pub end_time: i64,
    /// Instruction records.
    pub instructions: u64,
    /// Sum of instruction stall cycles.
    pub stall: i64,
    /// Timeline cycles per state: EMPTY, IDLE, EXEC, WAIT, STALL (indexed by [`WaveState`] value).
    pub state_cycles: [i64; 5],
}

impl WaveSummary {
    /// Summarises `wave`.
    pub fn of(wave: &Wave) -> Self {
        let mut state_cycles = [0i64; 5];
        for &(s, n) in &wave.timeline {
            state_cycles[s as usize] += n;
        }
        Self {
            cu: wave.cu,
            simd: wave.simd,
            wave_id: wave.wave_id,
            begin_time: wave.begin_time,
            end_time: wave.end_time,
            instructions: wave.instructions.len() as u64,
            stall: wave.instructions.iter().map(|i| i.stall).sum(),
            state_cycles,
        }
    }

    /// Cycles spent in `state` according to the timeline.
    pub fn cycles_in(&self, state: WaveState) -> i64 {
        self.state_cycles[state as usize]
    }

    /// Wave lifetime in cycles.
    pub fn duration(&self) -> i64 {
        self.end_time - self.begin_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Category, Instruction};

    fn inst(pc: u64, time: i64, stall: i64, duration: i64) -> Instruction {
        Instruction { pc, time, stall, duration, category: Category::Salu }
    }

    #[test]
    fn per_pc_totals_and_wave_summary() {
        let w = Wave {
            cu: 0,
            simd: 0,
            wave_id: 3,
            contexts: 0,
            begin_time: 100,
            end_time: 140,
            instructions: vec![
                inst(0x10, 110, 0, 1),
                inst(0x14, 115, 2, 3),
                inst(0x10, 120, 1, 2),
                inst(0x18, 121, 0, 19),
            ],
            timeline: vec![(WaveState::Idle, 10), (WaveState::Exec, 5), (WaveState::Wait, 5), (WaveState::Exec, 20)],
        };
        let mut t = PcTable::new();
        t.add_wave(&w);
        t.add_wave(&w);
        assert_eq!(t.len(), 3);
        // 0x10: hits at 110 (first, no idle) and 120 (prev end 118 -> idle 2), twice over.
        assert_eq!(t.get(0x10), Some(&PcStats { pc: 0x10, hits: 4, latency: 6, stall: 2, idle: 4 }));
        // 0x14: prev end 111 -> idle 4 each time.
        assert_eq!(t.get(0x14), Some(&PcStats { pc: 0x14, hits: 2, latency: 6, stall: 4, idle: 8 }));
        // 0x18: starts inside the previous record (ends 122): idle 0.
        assert_eq!(t.get(0x18).unwrap().idle, 0);
        assert_eq!(t.iter().map(|s| s.pc).collect::<Vec<_>>(), vec![0x10, 0x14, 0x18]);

        let s = WaveSummary::of(&w);
        assert_eq!((s.instructions, s.stall, s.duration()), (4, 3, 40));
        assert_eq!(
            (s.cycles_in(WaveState::Exec), s.cycles_in(WaveState::Wait), s.cycles_in(WaveState::Idle)),
            (25, 5, 10)
        );
    }
}
