//! Decoder state machines, one per family, plus the PC walk ("stitching") they share.

pub(crate) mod gfx9;
pub(crate) mod rdna;
pub(crate) mod stitch;

use crate::record::{Category, Instruction, Wave, WaveState};

/// AMD's instruction record stores the stall in 24 bits.
#[inline]
pub(crate) fn stall24(v: i64) -> i64 {
    v & 0xff_ffff
}

/// AMD's records store durations as `i32`.
#[inline]
pub(crate) fn dur32(v: i64) -> i64 {
    i64::from(v as i32)
}

/// A wave under construction: instructions without PCs until it is stitched.
#[derive(Clone, Debug)]
pub(crate) struct WaveBuild {
    pub(crate) cu: u8,
    pub(crate) simd: u8,
    pub(crate) wave_id: u8,
    pub(crate) contexts: u8,
    pub(crate) begin_time: i64,
    pub(crate) end_time: i64,
    pub(crate) insts: Vec<Instruction>,
    pub(crate) timeline: Vec<(WaveState, i64)>,
    /// `(instruction index, absolute pc)`; pc 0 marks a point where the PC is unknown.
    pub(crate) pc_infos: Vec<(usize, u64)>,
    pub(crate) last_state_cycle: i64,
    pub(crate) cur_state: WaveState,
    pub(crate) complete: bool,
    /// False while the wave is in a trap or saved context (`TRAP_STANDBY`).
    pub(crate) restored: bool,
    pub(crate) exclude_barrier_wait: bool,
}

impl WaveBuild {
    pub(crate) fn new(cu: u8, simd: u8, wave_id: u8, time: i64, start_pc: u64, exclude_barrier_wait: bool) -> Self {
        let mut pc_infos = Vec::new();
        if start_pc != 0 {
            pc_infos.push((0, start_pc));
        }
        Self {
            cu,
            simd,
            wave_id,
            contexts: 0,
            begin_time: time,
            end_time: 0,
            // Traced waves run tens to thousands of instructions; starting with room for some
            // saves the first reallocations (a visible share of decode time on small streams).
            insts: Vec::with_capacity(64),
            timeline: Vec::with_capacity(32),
            pc_infos,
            last_state_cycle: time,
            cur_state: WaveState::Idle,
            complete: false,
            restored: true,
            exclude_barrier_wait,
        }
    }

    /// Closes the current state run at `time` and switches to `state`.
    #[inline]
    pub(crate) fn update_state(&mut self, state: WaveState, time: i64) {
        if time > self.last_state_cycle {
            match self.timeline.last_mut() {
                Some(last) if last.0 == self.cur_state => last.1 = dur32(last.1 + (time - self.last_state_cycle)),
                _ => self.timeline.push((self.cur_state, dur32(time - self.last_state_cycle))),
            }
            self.last_state_cycle = time;
        }
        self.cur_state = state;
    }

    #[inline]
    /// Appends a record. AMD's record keeps the stall in 24 bits and the duration in an `i32`,
    /// and later arithmetic sees those stored values, so they are narrowed the same way here.
    pub(crate) fn push(&mut self, time: i64, category: Category, duration: i64, stall: i64) {
        self.insts.push(Instruction { pc: 0, time, stall: stall24(stall), duration: dur32(duration), category });
    }

    pub(crate) fn into_wave(self) -> Wave {
        Wave {
            cu: self.cu,
            simd: self.simd,
            wave_id: self.wave_id,
            contexts: self.contexts,
            begin_time: self.begin_time,
            end_time: self.end_time,
            instructions: self.insts,
            timeline: self.timeline,
        }
    }
}

/// A fixed-size table of `u64` (0 by default) that is cheap to create and to clear: storage
/// comes in blocks of 128 entries (one CU's SIMDs and slots), allocated when first written, and
/// a reset zeroes only the entries written since the last one. A decode call touches a few
/// hundred of the 32768 RDNA slots, in a handful of CUs.
#[derive(Clone, Debug, Default)]
pub(crate) struct SparseTable {
    /// Block number + 1 by `index >> 7`; 0 = no block yet.
    block_of: Vec<u16>,
    vals: Vec<u64>,
    touched: Vec<u32>,
}

const BLOCK: usize = 128;

impl SparseTable {
    pub(crate) fn reset(&mut self, size: usize) {
        let blocks = size.div_ceil(BLOCK);
        if self.block_of.len() != blocks {
            self.block_of = vec![0; blocks];
            self.vals.clear();
        } else {
            for &i in &self.touched {
                let i = i as usize;
                if let b @ 1.. = self.block_of[i / BLOCK] {
                    self.vals[(usize::from(b) - 1) * BLOCK + i % BLOCK] = 0;
                }
            }
        }
        self.touched.clear();
    }

    #[inline]
    fn slot(&mut self, i: usize) -> Option<&mut u64> {
        match self.block_of[i / BLOCK] {
            0 => None,
            b => Some(&mut self.vals[(usize::from(b) - 1) * BLOCK + i % BLOCK]),
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> u64 {
        match self.block_of[i / BLOCK] {
            0 => 0,
            b => self.vals[(usize::from(b) - 1) * BLOCK + i % BLOCK],
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize, v: u64) {
        if self.block_of[i / BLOCK] == 0 {
            self.vals.resize(self.vals.len() + BLOCK, 0);
            self.block_of[i / BLOCK] = (self.vals.len() / BLOCK) as u16;
        }
        *self.slot(i).expect("block allocated above") = v;
        self.touched.push(i as u32);
    }

    #[inline]
    pub(crate) fn take(&mut self, i: usize) -> u64 {
        self.slot(i).map_or(0, std::mem::take)
    }
}
