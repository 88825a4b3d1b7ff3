//! Global wave sync (GWS): the 64 barrier/semaphore resources the `ds_gws_*` instructions work on, shared
//! by every wave of the dispatches that use them (on a GPU: allocated to a queue; ROCclr initialises
//! resource 0 with its `__amd_rocclr_gwsInit` kernel before a cooperative launch and gfx90a's grid sync
//! waits in `ds_gws_barrier`). Semantics as the CDNA/RDNA ISA guides give them:
//!
//! - `ds_gws_init`: counter = the value (data0 of the first active lane); the barrier starts a new round.
//! - `ds_gws_barrier`: a wave that finds the counter positive decrements it and waits; the wave that finds
//!   it zero is the last one: the counter is reloaded with that wave's value and every waiting wave goes
//!   on (so `init(n - 1)` makes a barrier of `n` waves, and the value each wave passes keeps it one).
//! - `ds_gws_sema_v` / `_br`: counter += 1 / += value; `ds_gws_sema_p`: wait until the counter is
//!   positive, then decrement it; `ds_gws_sema_release_all`: counter = the number of waves waiting in
//!   `sema_p`, so all of them go on.
//!
//! Waves that wait leave their workgroup's host thread to its other waves ([`crate::RunOptions`]); a
//! dispatch whose every worker thread waits here with no one left to release them ends as a hang.

use std::sync::{Condvar, Mutex, MutexGuard};

use crate::op::GwsOp;

/// GWS resources (`M0[21:16] + offset0` selects one, modulo this).
pub const GWS_RESOURCES: usize = 64;

#[derive(Clone, Copy, Debug, Default)]
struct Resource {
    counter: i64,
    /// Barrier rounds completed (the ISA's one-bit flag, counted).
    round: u64,
    /// Waves waiting in `ds_gws_sema_p`.
    sema_waiting: u64,
}

/// What a waiting wave waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// The barrier of resource `rid` to finish round `round`.
    Barrier {
        /// Resource.
        rid: u8,
        /// The round the wave arrived in.
        round: u64,
    },
    /// The semaphore of resource `rid` to become positive.
    Sema {
        /// Resource.
        rid: u8,
    },
}

struct State {
    res: [Resource; GWS_RESOURCES],
    /// Changes that may end waits so far (a waiting worker counted before the latest one may be free).
    epoch: u64,
}

/// The GWS resources of a queue (or of one dispatch, when [`crate::RunOptions::gws`] gives none).
pub struct Gws {
    state: Mutex<State>,
    changed: Condvar,
    /// Operations executed so far (a dispatch that leaves it unchanged neither read nor changed the state).
    ops: std::sync::atomic::AtomicU64,
}

impl Default for Gws {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Gws {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gws").finish_non_exhaustive()
    }
}

impl Gws {
    /// All counters zero.
    pub const fn new() -> Self {
        Gws {
            state: Mutex::new(State {
                res: [Resource { counter: 0, round: 0, sema_waiting: 0 }; GWS_RESOURCES],
                epoch: 0,
            }),
            changed: Condvar::new(),
            ops: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// How many `ds_gws_*` operations these resources have executed.
    pub fn ops(&self) -> u64 {
        self.ops.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The counter of resource `rid` (for tests and reports).
    pub fn counter(&self, rid: usize) -> i64 {
        self.lock().res[rid % GWS_RESOURCES].counter
    }

    /// Executes `op` on resource `rid` with `value` (data0 of the first active lane). `None`: the wave
    /// goes on; `Some(w)`: it waits until [`Gws::try_resume`] says `w` is over.
    pub(crate) fn op(&self, op: GwsOp, rid: u8, value: u32) -> Option<Wait> {
        self.ops.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut st = self.lock();
        let r = &mut st.res[usize::from(rid) % GWS_RESOURCES];
        let (wait, wake) = match op {
            GwsOp::Init => {
                r.counter = i64::from(value);
                (None, false)
            }
            GwsOp::Barrier => {
                if r.counter <= 0 {
                    r.counter = i64::from(value);
                    r.round += 1;
                    (None, true)
                } else {
                    r.counter -= 1;
                    (Some(Wait::Barrier { rid, round: r.round }), false)
                }
            }
            GwsOp::SemaV => {
                r.counter += 1;
                (None, true)
            }
            GwsOp::SemaBr => {
                r.counter += i64::from(value);
                (None, true)
            }
            GwsOp::SemaP => {
                if r.counter > 0 {
                    r.counter -= 1;
                    (None, false)
                } else {
                    r.sema_waiting += 1;
                    (Some(Wait::Sema { rid }), false)
                }
            }
            GwsOp::SemaReleaseAll => {
                r.counter = r.sema_waiting as i64;
                (None, true)
            }
        };
        if wake {
            st.epoch += 1;
            drop(st);
            self.changed.notify_all();
        }
        wait
    }

    /// Whether the wait is over (a semaphore wait takes its unit here).
    fn resume_locked(st: &mut State, w: Wait) -> bool {
        match w {
            Wait::Barrier { rid, round } => st.res[usize::from(rid) % GWS_RESOURCES].round != round,
            Wait::Sema { rid } => {
                let r = &mut st.res[usize::from(rid) % GWS_RESOURCES];
                if r.counter > 0 {
                    r.counter -= 1;
                    r.sema_waiting -= 1;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// Whether wait `w` is over (without blocking).
    pub(crate) fn try_resume(&self, w: Wait) -> bool {
        Self::resume_locked(&mut self.lock(), w)
    }

    /// Blocks until one of `waits` is over (returns its index, the others unchanged) or every worker of
    /// the dispatch (`workers`) waits here, which nothing can end (returns `None`; all waiting workers of
    /// the dispatch get `None`).
    pub(crate) fn wait_any(&self, waits: &[Option<Wait>], workers: &Workers) -> Option<usize> {
        let mut st = self.lock();
        // The epoch this worker was counted as blocked in (a change since then recounts everyone).
        let mut counted: Option<u64> = None;
        let out = loop {
            if let Some(k) = (0..waits.len()).find(|&k| waits[k].is_some_and(|w| Self::resume_locked(&mut st, w))) {
                break Some(k);
            }
            if workers.dead.get(&st) != 0 {
                break None;
            }
            if workers.epoch.get(&st) != st.epoch {
                workers.epoch.set(&st, st.epoch);
                workers.blocked.set(&st, 0);
            }
            if counted != Some(st.epoch) {
                counted = Some(st.epoch);
                workers.blocked.set(&st, workers.blocked.get(&st) + 1);
            }
            if workers.blocked.get(&st) >= workers.running.get(&st) {
                workers.dead.set(&st, 1);
                self.changed.notify_all();
                break None;
            }
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        };
        if counted.is_some() && counted == Some(workers.epoch.get(&st)) && workers.dead.get(&st) == 0 {
            workers.blocked.set(&st, workers.blocked.get(&st) - 1);
        }
        out
    }

    /// A worker thread of `workers` ends: if the others all wait, they wait forever.
    pub(crate) fn worker_done(&self, workers: &Workers) {
        let st = self.lock();
        workers.running.set(&st, workers.running.get(&st).saturating_sub(1));
        drop(st);
        self.changed.notify_all();
    }
}

/// A count only read or written under the [`Gws`] lock (so a worker's check that everyone waits and its
/// going to sleep are one step for the others).
#[derive(Default)]
pub(crate) struct Locked(std::sync::atomic::AtomicU64);

impl Locked {
    fn get(&self, _: &State) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
    fn set(&self, _: &State, v: u64) {
        self.0.store(v, std::sync::atomic::Ordering::Relaxed)
    }
}

/// The worker threads of one dispatch, as far as GWS waits go.
#[derive(Default)]
pub(crate) struct Workers {
    /// Threads still taking workgroups.
    running: Locked,
    /// Threads whose every unfinished wave waits in GWS, counted since `epoch`.
    blocked: Locked,
    /// The [`State::epoch`] `blocked` counts in.
    epoch: Locked,
    /// 1 once all running threads waited at once.
    dead: Locked,
}

impl Workers {
    /// `n` worker threads.
    pub(crate) fn new(n: usize) -> Self {
        let w = Workers::default();
        w.running.0.store(n as u64, std::sync::atomic::Ordering::Relaxed);
        w
    }
}
