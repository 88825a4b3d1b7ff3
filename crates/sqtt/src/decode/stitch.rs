//! The PC walk: pairs a wave's trace-ordered instruction records with code-object addresses.
//!
//! Trace tokens carry no PC, so the walk starts at the wave's entry and advances one code line
//! per record, following taken branches. The pairing rules are those of AMD's decoder
//! (`source/stitch/stitch.cpp` in ROCm/rocm-systems `projects/rocprof-trace-decoder`), re-expressed
//! here: lines that never produce a token are stepped over, an `IMMED` record may consume a line of
//! several other classes, a branch line requires a branch record, and a mismatch skips the line
//! (up to 1000 times in a row) or stops the walk for waits and loads.

use super::WaveBuild;
use crate::isa::{flags, LineClass, Program};
use crate::record::{Category, Instruction, WaveState};

/// Per-decode mutable facts about code lines (AMD keeps these on its cached line objects).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineState {
    parsed: Vec<bool>,
    excluded: Vec<bool>,
}

impl LineState {
    pub(crate) fn reset(&mut self, lines: usize) {
        self.parsed.clear();
        self.parsed.resize(lines, false);
        self.excluded.clear();
        self.excluded.resize(lines, false);
    }
}

const MAX_FAILED: u32 = 1000;

fn same(wave: Category, line: LineClass) -> bool {
    matches!(
        line,
        LineClass::Smem
            | LineClass::Salu
            | LineClass::Vmem
            | LineClass::Flat
            | LineClass::Lds
            | LineClass::Valu
            | LineClass::Immed
            | LineClass::Bvh
    ) && wave as u8 == line.number()
}

fn skippable(line: LineClass) -> bool {
    line != LineClass::Salu && line <= LineClass::Immed
}

fn trivial_match(wave: Category, line: LineClass) -> bool {
    same(wave, line)
        || (line == LineClass::Branch && wave == Category::Next)
        || (wave == Category::Message && line == LineClass::Immed)
        || (wave == Category::Flat && line == LineClass::Vmem)
}

fn elaborate_match(wave: Category, line: LineClass) -> bool {
    trivial_match(wave, line)
        || (line == LineClass::Branch && wave == Category::Jump)
        || (wave == Category::Immed && skippable(line))
}

struct Walker<'a> {
    prog: &'a Program,
    st: &'a mut LineState,
}

impl Walker<'_> {
    #[inline]
    fn cat(&self, l: usize) -> LineClass {
        if self.st.excluded[l] {
            LineClass::BarrierWaitExcluded
        } else {
            self.prog.line(l).1.class
        }
    }
    #[inline]
    fn flags(&self, l: usize) -> u8 {
        self.prog.line(l).1.flags
    }
    #[inline]
    fn addr(&self, l: usize) -> u64 {
        self.prog.line(l).0
    }
}

/// Walks `w`'s instructions through `prog`, filling in PCs. Returns how many records were
/// attributed and the excluded gfx12 barrier waits found on the way (`(record index, pc)`).
pub(crate) fn stitch(prog: &Program, st: &mut LineState, gfxip: u8, w: &mut WaveBuild) -> (usize, Vec<(usize, u64)>) {
    let wk = Walker { prog, st };
    let insts = &mut w.insts;
    let n = insts.len();
    let mut barriers = Vec::new();
    let mut fails = 0u32;
    let mut idx = 0usize;
    let mut skipped_immed = 0u32;
    let mut pci = 0usize;
    let mut next: Option<usize> = None;

    while idx < n && fails < MAX_FAILED {
        while pci < w.pc_infos.len() && w.pc_infos[pci].0 <= idx {
            if w.pc_infos[pci].0 == idx {
                let pc = w.pc_infos[pci].1;
                if pc != 0 && prog.line_at(pc).is_some() {
                    insts[idx].pc = pc;
                } else if pci + 1 < w.pc_infos.len() {
                    idx = w.pc_infos[pci + 1].0;
                    if idx >= n {
                        return (idx, barriers);
                    }
                }
            }
            pci += 1;
        }

        let cur = idx;
        if insts[cur].category == Category::Context {
            idx += 1;
            continue;
        }
        if insts[cur].pc != 0 {
            idx += 1;
            next = None;
            let Some(mut l) = prog.line_at(insts[cur].pc) else { return (0, barriers) };
            let mut ok = true;
            while wk.cat(l) == LineClass::Skip {
                let (pc, info) = prog.line(l);
                let after = pc + u64::from(info.size.max(4));
                insts[cur].pc = after;
                match prog.line_at(after) {
                    Some(nl) => l = nl,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            if wk.cat(l) == LineClass::Gfx9Barrier && idx < n {
                insts[idx].pc = insts[cur].pc;
                idx += 1;
            }
            next = if wk.cat(l) == LineClass::Branch && insts[cur].category == Category::Jump {
                prog.jump_line(l)
            } else {
                prog.next_line(l)
            };
            continue;
        } else if gfxip >= 12 && cur == 0 {
            return (0, barriers);
        }

        // A gfx9 issue whose INST token never came (category still NONE) ends the walk.
        if insts[cur].category == Category::None {
            break;
        }
        let Some(l) = next.take() else { break };
        next = prog.next_line(l);
        let lc = wk.cat(l);
        if lc == LineClass::DontKnow || lc == LineClass::Skip {
            continue;
        }
        let ic = insts[cur].category;

        if w.exclude_barrier_wait
            && (lc == LineClass::BarrierWaitExcluded
                || (!wk.st.parsed[l] && lc == LineClass::Immed && wk.flags(l) & flags::BARRIER_WAIT != 0))
        {
            // The capture may have dropped this wait's token; look ahead to see whether the
            // records still line up when it is skipped.
            let mut add = true;
            if ic == Category::Immed {
                let mut ty: Option<LineClass> = None;
                let mut look = next;
                let mut j = cur;
                while j < n && add {
                    let Some(lk) = look else { break };
                    let c2 = wk.cat(lk);
                    let i2 = insts[j].category;
                    look = if c2 == LineClass::Branch && i2 == Category::Jump {
                        prog.jump_line(lk)
                    } else {
                        prog.next_line(lk)
                    };
                    if look.is_none() {
                        break;
                    }
                    if c2 == LineClass::DontKnow || c2 == LineClass::Skip {
                        j += 1;
                        continue;
                    }
                    add = elaborate_match(i2, c2);
                    if i2 != Category::Immed && c2 != LineClass::Valu {
                        if ty.is_some() && ty != Some(c2) {
                            break;
                        }
                        ty = Some(c2);
                    }
                    j += 2;
                }
            }
            if add {
                barriers.push((cur, wk.addr(l)));
                wk.st.excluded[l] = true;
                continue;
            }
        }

        let mut matched = true;
        if trivial_match(ic, lc) {
        } else if lc == LineClass::Branch {
            if ic != Category::Jump {
                break;
            }
            next = prog.jump_line(l);
        } else if gfxip == 12 && lc == LineClass::VMovB64 && ic == Category::Valu {
            let i = &mut insts[cur];
            i.duration = i.duration.max(i.stall + 2);
        } else if gfxip == 9 && lc == LineClass::MfmaScale && ic == Category::Valu {
            let prev_min = if cur > 0 { insts[cur - 1].time + insts[cur - 1].duration } else { w.begin_time };
            let next_min = if cur + 1 < n { insts[cur + 1].time } else { w.end_time };
            let i = &mut insts[cur];
            i.duration += 4;
            if i.time > prev_min {
                i.time -= 4;
                if i.time + i.duration < next_min {
                    i.duration += 4;
                }
            } else if i.time + i.duration > next_min {
                i.duration -= 4;
            }
        } else if gfxip == 9 && lc == LineClass::Gfx9Barrier {
            if ic == Category::Message {
                idx += 1;
                if idx < n && insts[idx].category == Category::Immed {
                    insts[idx].pc = wk.addr(l);
                }
            } else {
                matched = ic == Category::Immed;
            }
        } else {
            matched = false;
            let swapped = gfxip == 9
                && cur + 1 < n
                && same_class(insts[cur + 1].category, lc)
                && prog.next_line(l).is_some_and(|nl| same_class(ic, wk.cat(nl)));
            if swapped {
                insts.swap(cur, cur + 1);
                next = Some(l);
            } else if gfxip != 9 && ic == Category::Immed && skippable(lc) {
                matched = true;
                skipped_immed += 1;
            } else if wk.flags(l) & (flags::WAITCNT | flags::LOAD) != 0 {
                if skipped_immed > 0 && wk.flags(l) & flags::WAITCNT != 0 {
                    matched = true;
                    skipped_immed -= 1;
                } else if wk.flags(l) & flags::SCRATCH == 0 {
                    break;
                }
            }
        }

        if matched {
            insts[cur].pc = wk.addr(l);
            idx += 1;
            fails = 0;
            wk.st.parsed[l] = true;
        } else {
            fails += 1;
        }
    }
    (idx, barriers)
}

/// AMD compares the raw enum values of a record category and a line class here.
fn same_class(wave: Category, line: LineClass) -> bool {
    wave as u8 == line.number()
}

/// Inserts rows for gfx12 `s_barrier_wait` lines whose tokens the capture excluded: each sits
/// between the previous row's end and the next row, and the timeline gets a WAIT run for it.
pub(crate) fn insert_barrier_waits(w: &mut WaveBuild, barriers: &[(usize, u64)]) {
    if w.insts.is_empty() || barriers.is_empty() {
        return;
    }
    let mut insts: Vec<Instruction> = Vec::with_capacity(w.insts.len() + barriers.len());
    let mut states: Vec<(WaveState, i64)> = Vec::with_capacity(w.timeline.len() + 2 * barriers.len());
    let mut prev = 0usize;
    let mut ti = 0usize;
    let mut current_time = w.begin_time;
    for &(index, pc) in barriers {
        if index <= prev || index >= w.insts.len() {
            continue;
        }
        insts.extend_from_slice(&w.insts[prev..index]);
        let previous = w.insts[index - 1];
        let time = previous.time + previous.duration;
        let current = &mut w.insts[index];
        if current.time == time && current.duration > 1 {
            current.time += 1;
            current.duration -= 1;
        }
        let duration = current.time - time;
        let current_start = current.time;
        while current_time <= time && ti < w.timeline.len() {
            current_time += w.timeline[ti].1;
            states.push(w.timeline[ti]);
            ti += 1;
        }
        if let Some(back) = states.last_mut() {
            if back.1 >= current_time - time && current_time >= current_start {
                back.1 -= current_time - time;
                let ty = back.0;
                states.push((WaveState::Wait, duration));
                states.push((ty, current_time - time - duration));
            }
        }
        insts.push(Instruction { pc, time, stall: 0, duration, category: Category::Immed });
        prev = index;
    }
    insts.extend_from_slice(&w.insts[prev..]);
    states.extend_from_slice(&w.timeline[ti..]);
    w.insts = insts;
    w.timeline = states;
}
