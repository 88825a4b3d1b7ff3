//! The health of one profiled run: what the profiler wrote, what it missed and why, and what it
//! cost. A profiler is trusted only if it says what it missed, so every fallback of the
//! interception library is counted by reason ([`LossReason`]) in the capture header, the capture
//! reader adds what it could not read back, and the resulting [`RunHealth`] travels with the
//! trace: the CLI reports it, and every output format carries it in its metadata (rocpd
//! `rocpd_metadata` rows `run_health.*`, CSV `run_health.csv`, JSON/Perfetto/OTF2 metadata).
//!
//! Names ([`LossReason::as_str`]) are stable: scripts and CI jobs match on them.

/// What the interception library does when a record finds no free capture chunk: a setting of the
/// launch contract.
pub use rocprof_launch::BufferPolicy;

use std::fmt;

/// Why something was lost or degraded. The first [`LossReason::IN_PROCESS`] reasons are counted
/// inside the profiled process (their discriminant is the index of their counter in the capture
/// header, see `capture::header::LOSSES`); the rest are found by the capture reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[non_exhaustive]
pub enum LossReason {
    /// The capture could not grow (full disk, or the capture's size limit): records dropped. A
    /// full disk cannot be waited out, so this is a loss under every [`BufferPolicy`].
    ChunkPoolEmpty = 0,
    /// No free profiling signal: a dispatch, or a copy, ran untraced.
    SignalPoolEmpty = 1,
    /// The application-signal map was full: the dispatch's completion was recorded by the writer
    /// thread's poll (up to 20 ms later, and not before a crash right after the application's
    /// wait) instead of by the waiting thread. Its times are still exact; nothing is lost.
    SignalMapFull = 2,
    /// The code-object table was full: a code object's unload was not recorded (and its kernels
    /// stay resolvable after unload).
    CodeObjectTableFull = 3,
    /// The kernel table was full: a kernel symbol could not be resolved, so its dispatches carry
    /// kernel id 0 (no name).
    KernelTableFull = 4,
    /// The queue table was full: a queue (and every dispatch on it) was not traced.
    QueueTableFull = 5,
    /// The runtime refused an intercept queue or its packet handler: a queue was not traced.
    QueueInterceptFailed = 6,
    /// The runtime refused a completion handler: a dispatch ran untraced.
    HandlerRegistrationFailed = 7,
    /// A completion handler failed internally: a completion record was lost (the application's
    /// signal was still completed).
    CompletionLost = 8,
    /// A forked child without its own capture ran with profiling off: its dispatches are not in
    /// any output (counted in the parent's capture, once per such child).
    ForkedChildUntraced = 9,
    /// No free counter buffer: a dispatch selected for counter collection ran without counters (it
    /// is recorded with that status, never with zeros).
    CounterBufferPoolEmpty = 10,
    /// A counted dispatch's counters were not read back (the read packet had not completed).
    CountersNotRead = 11,
    /// HIP API calls nested deeper than the per-thread frame stack (16) on one thread: the calls
    /// beyond it ran untraced (their records never existed; the capture had room).
    HipNestingTooDeep = 12,
    /// Profiling was turned off for the rest of the run after an internal error (a bug caught at
    /// the tool's boundary): a kernel dispatch, or a copy, submitted after it ran untraced.
    ToolDisabled = 13,
    /// The capture had no free chunk yet (its writer was behind) and the record did not wait:
    /// `--buffer-policy drop`, or a record that may not wait (made while its thread was already
    /// waiting, i.e. from a signal handler, or after the writer stopped at exit): records dropped.
    WriterBehind = 14,
    /// PC samples the runtime reported lost (`lost_sample_count` of its data-ready callback: its
    /// buffer overflowed, or the model had no record of the wave a tick hit), or that the interception
    /// library could not copy or record.
    PcSamplesLost = 15,
    /// Reader: the capture ended inside a record (the process was killed while writing it).
    TornTail = 16,
    /// Reader: damaged records (bad checksum, impossible size, unknown kind) skipped; the records
    /// around them were kept.
    Damaged = 17,
}

impl LossReason {
    /// Number of header counters reserved for in-process reasons (indices `0..IN_PROCESS`).
    pub const IN_PROCESS: usize = 16;

    /// Every reason, in report order.
    pub const ALL: [LossReason; 18] = [
        Self::ChunkPoolEmpty,
        Self::SignalPoolEmpty,
        Self::SignalMapFull,
        Self::CodeObjectTableFull,
        Self::KernelTableFull,
        Self::QueueTableFull,
        Self::QueueInterceptFailed,
        Self::HandlerRegistrationFailed,
        Self::CompletionLost,
        Self::ForkedChildUntraced,
        Self::CounterBufferPoolEmpty,
        Self::CountersNotRead,
        Self::HipNestingTooDeep,
        Self::ToolDisabled,
        Self::WriterBehind,
        Self::PcSamplesLost,
        Self::TornTail,
        Self::Damaged,
    ];

    /// The reason with this in-process counter index.
    pub fn from_index(i: usize) -> Option<Self> {
        Self::ALL.iter().copied().find(|r| *r as usize == i)
    }

    /// Stable snake_case name (metadata keys, CSV rows, messages).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ChunkPoolEmpty => "chunk_pool_empty",
            Self::SignalPoolEmpty => "signal_pool_empty",
            Self::SignalMapFull => "signal_map_full",
            Self::CodeObjectTableFull => "code_object_table_full",
            Self::KernelTableFull => "kernel_table_full",
            Self::QueueTableFull => "queue_table_full",
            Self::QueueInterceptFailed => "queue_intercept_failed",
            Self::HandlerRegistrationFailed => "handler_registration_failed",
            Self::CompletionLost => "completion_lost",
            Self::ForkedChildUntraced => "forked_child_untraced",
            Self::CounterBufferPoolEmpty => "counter_buffer_pool_empty",
            Self::CountersNotRead => "counters_not_read",
            Self::HipNestingTooDeep => "hip_nesting_too_deep",
            Self::ToolDisabled => "tool_disabled",
            Self::WriterBehind => "writer_behind",
            Self::PcSamplesLost => "pc_samples_lost",
            Self::TornTail => "torn_tail",
            Self::Damaged => "damaged",
        }
    }

    /// What one count means, for messages: `"<count> <unit> <effect>"`.
    pub fn effect(self) -> &'static str {
        match self {
            Self::ChunkPoolEmpty => "records dropped (capture space exhausted: disk full?)",
            Self::SignalPoolEmpty => "dispatches or copies not traced (no free profiling signal)",
            Self::SignalMapFull => "completions recorded late by the poll (signal map full; times exact)",
            Self::CodeObjectTableFull => "code-object unloads not recorded (code-object table full)",
            Self::KernelTableFull => "kernel symbols not resolvable (kernel table full; their dispatches are unnamed)",
            Self::QueueTableFull => "queues not traced (queue table full)",
            Self::QueueInterceptFailed => "queues not traced (the runtime refused an intercept queue)",
            Self::HandlerRegistrationFailed => "dispatches or copies not traced (completion handler refused)",
            Self::CompletionLost => "completion records lost (internal error in a completion handler)",
            Self::ForkedChildUntraced => "forked child processes not traced",
            Self::CounterBufferPoolEmpty => "counted dispatches without counters (no free counter buffer)",
            Self::CountersNotRead => "counted dispatches whose counters were not read back",
            Self::HipNestingTooDeep => "HIP API calls not traced (nested more than 16 deep on one thread)",
            Self::ToolDisabled => "dispatches and copies not traced (profiling disabled after an internal error)",
            Self::WriterBehind => {
                "records dropped without waiting for the capture writer (--buffer-policy drop, a signal handler, or after exit)"
            }
            Self::PcSamplesLost => "PC samples lost (reported lost by the runtime, or not recorded)",
            Self::TornTail => "records cut off at the end of the capture (process killed mid-write)",
            Self::Damaged => "damaged records skipped in the capture",
        }
    }

    /// False for reasons that degrade without losing data ([`LossReason::SignalMapFull`]).
    pub fn loses_data(self) -> bool {
        self != Self::SignalMapFull
    }
}

impl fmt::Display for LossReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Counters by [`LossReason`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Losses([u64; 18]);

impl Losses {
    /// The count for `reason`.
    pub fn get(&self, reason: LossReason) -> u64 {
        self.0[reason as usize]
    }

    /// Sets the count for `reason`.
    pub fn set(&mut self, reason: LossReason, n: u64) {
        self.0[reason as usize] = n;
    }

    /// Adds `n` to the count for `reason`.
    pub fn add(&mut self, reason: LossReason, n: u64) {
        self.0[reason as usize] = self.0[reason as usize].saturating_add(n);
    }

    /// Sum over the reasons that lose data.
    pub fn total(&self) -> u64 {
        LossReason::ALL.iter().filter(|r| r.loses_data()).map(|&r| self.get(r)).fold(0, u64::saturating_add)
    }

    /// Every reason with a non-zero count, in report order (including degradations).
    pub fn nonzero(&self) -> impl Iterator<Item = (LossReason, u64)> + '_ {
        LossReason::ALL.iter().map(|&r| (r, self.get(r))).filter(|&(_, n)| n > 0)
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Losses) {
        for r in LossReason::ALL {
            self.add(r, other.get(r));
        }
    }
}

/// The health record of one profiled process (or, after [`RunHealth::merge`], of several).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunHealth {
    /// Records read back from the capture (every kind, strings included; padding excluded).
    pub records_written: u64,
    /// Lost or degraded, by reason.
    pub lost: Losses,
    /// Dispatches submitted whose completion never arrived (the process died, or exit did not
    /// wait long enough); they are in the outputs with start = end = 0 where formats allow.
    pub incomplete_dispatches: u64,
    /// Time the interception library spent on application threads handling packets, ns
    /// (measured around each intercepted packet batch; waits and loads are not included).
    pub hook_ns: u64,
    /// Packets handled in that time.
    pub hook_packets: u64,
    /// Profiled wall time (tool load to last flush), ns; 0 when the process never flushed.
    pub wall_ns: u64,
    /// What the lossless buffer policy cost: time application threads waited for capture space
    /// (the writer was behind), ns, all threads together.
    pub stall_ns: u64,
    /// Number of those waits.
    pub stalls: u64,
    /// The longest single wait, ns.
    pub stall_max_ns: u64,
    /// The most one thread waited in all, ns (the worst thread's total).
    pub stall_thread_max_ns: u64,
    /// True when the process flushed at exit (false after a crash or kill).
    pub clean_exit: bool,
}

impl RunHealth {
    /// Hook time as a fraction of the profiled wall time (`None` when the wall time is unknown).
    pub fn overhead_fraction(&self) -> Option<f64> {
        (self.wall_ns > 0).then(|| self.hook_ns as f64 / self.wall_ns as f64)
    }

    /// Mean hook time per packet, ns (`None` without packets).
    pub fn ns_per_packet(&self) -> Option<f64> {
        (self.hook_packets > 0).then(|| self.hook_ns as f64 / self.hook_packets as f64)
    }

    /// True when nothing was lost or degraded and every dispatch completed.
    pub fn is_complete(&self) -> bool {
        self.lost.nonzero().next().is_none() && self.incomplete_dispatches == 0
    }

    /// Adds another process's health (sums; `clean_exit` only if both were clean; wall time
    /// and the worst stalls are the larger ones).
    pub fn merge(&mut self, other: &RunHealth) {
        self.records_written += other.records_written;
        self.lost.merge(&other.lost);
        self.incomplete_dispatches += other.incomplete_dispatches;
        self.hook_ns += other.hook_ns;
        self.hook_packets += other.hook_packets;
        self.wall_ns = self.wall_ns.max(other.wall_ns);
        self.stall_ns = self.stall_ns.saturating_add(other.stall_ns);
        self.stalls = self.stalls.saturating_add(other.stalls);
        self.stall_max_ns = self.stall_max_ns.max(other.stall_max_ns);
        self.stall_thread_max_ns = self.stall_thread_max_ns.max(other.stall_thread_max_ns);
        self.clean_exit &= other.clean_exit;
    }

    /// `(key, value)` pairs for output metadata, stable names: `records_written`,
    /// `lost.<reason>` for every reason (zeros included, so a consumer can tell "none" from
    /// "not reported"), `lost_total`, `incomplete_dispatches`, `hook_ns`, `hook_packets`,
    /// `wall_ns`, `overhead_ppm` (hook time per million of wall time), `stall_ns`, `stalls`,
    /// `stall_max_ns`, `stall_thread_max_ns` (waits for capture space), `clean_exit` (0/1).
    pub fn metadata(&self) -> Vec<(String, u64)> {
        let mut v = vec![("records_written".to_string(), self.records_written)];
        for r in LossReason::ALL {
            v.push((format!("lost.{}", r.as_str()), self.lost.get(r)));
        }
        v.push(("lost_total".into(), self.lost.total()));
        v.push(("incomplete_dispatches".into(), self.incomplete_dispatches));
        v.push(("hook_ns".into(), self.hook_ns));
        v.push(("hook_packets".into(), self.hook_packets));
        v.push(("wall_ns".into(), self.wall_ns));
        v.push(("overhead_ppm".into(), self.overhead_fraction().map(|f| (f * 1e6).round() as u64).unwrap_or(0)));
        v.push(("stall_ns".into(), self.stall_ns));
        v.push(("stalls".into(), self.stalls));
        v.push(("stall_max_ns".into(), self.stall_max_ns));
        v.push(("stall_thread_max_ns".into(), self.stall_thread_max_ns));
        v.push(("clean_exit".into(), u64::from(self.clean_exit)));
        v
    }

    /// What waiting for capture space cost, for messages (None when nobody waited).
    pub fn stall_line(&self) -> Option<String> {
        (self.stalls > 0).then(|| {
            let ms = |ns: u64| ns as f64 / 1e6;
            format!(
                "the application waited {:.1} ms for capture space in {} wait{} (worst thread {:.1} ms in all, longest wait {:.1} ms); nothing was dropped for it (--buffer-policy drop bounds the wait by dropping records instead)",
                ms(self.stall_ns),
                self.stalls,
                if self.stalls == 1 { "" } else { "s" },
                ms(self.stall_thread_max_ns),
                ms(self.stall_max_ns)
            )
        })
    }

    /// One line per non-zero loss, `"<count> <effect>"`, for messages.
    pub fn loss_lines(&self) -> Vec<String> {
        self.lost.nonzero().map(|(r, n)| format!("{n} {} [{}]", r.effect(), r.as_str())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_indices_round_trip() {
        let mut names: Vec<&str> = LossReason::ALL.iter().map(|r| r.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), LossReason::ALL.len());
        for r in LossReason::ALL {
            assert_eq!(LossReason::from_index(r as usize), Some(r));
            let in_process = (r as usize) < LossReason::IN_PROCESS;
            assert_eq!(in_process, !matches!(r, LossReason::TornTail | LossReason::Damaged), "{r}");
        }
        assert_eq!(LossReason::from_index(18), None);
        assert_eq!(BufferPolicy::parse("drop"), Ok(BufferPolicy::Drop));
        assert_eq!(BufferPolicy::parse(" lossless "), Ok(BufferPolicy::Lossless));
        assert!(BufferPolicy::parse("block").is_err());
        for p in BufferPolicy::ALL {
            assert_eq!(BufferPolicy::parse(p.as_str()), Ok(p));
        }
    }

    #[test]
    fn totals_leave_out_degradations_and_merge_adds() {
        let mut a = RunHealth { records_written: 10, clean_exit: true, wall_ns: 1_000_000, ..Default::default() };
        a.lost.add(LossReason::SignalMapFull, 4);
        a.lost.add(LossReason::ChunkPoolEmpty, 2);
        assert_eq!(a.lost.total(), 2, "a late completion is not a loss");
        assert!(!a.is_complete());
        let mut b = RunHealth { records_written: 5, hook_ns: 500, hook_packets: 5, wall_ns: 2_000_000, ..a };
        b.lost = Losses::default();
        b.lost.add(LossReason::Damaged, 1);
        b.clean_exit = false;
        a.merge(&b);
        assert_eq!(a.records_written, 15);
        assert_eq!(a.lost.total(), 3);
        assert_eq!(
            a.lost.nonzero().map(|(r, _)| r).collect::<Vec<_>>(),
            [LossReason::ChunkPoolEmpty, LossReason::SignalMapFull, LossReason::Damaged]
        );
        assert!(!a.clean_exit);
        assert_eq!(a.wall_ns, 2_000_000);
        assert_eq!(a.overhead_fraction(), Some(500.0 / 2e6));
        assert_eq!(a.ns_per_packet(), Some(100.0));
        let meta = a.metadata();
        assert_eq!(meta.iter().find(|(k, _)| k == "lost.damaged").map(|p| p.1), Some(1));
        assert_eq!(meta.iter().find(|(k, _)| k == "lost.queue_table_full").map(|p| p.1), Some(0));
        assert_eq!(meta.iter().find(|(k, _)| k == "overhead_ppm").map(|p| p.1), Some(250));
        assert_eq!(a.loss_lines()[0], "2 records dropped (capture space exhausted: disk full?) [chunk_pool_empty]");
        assert_eq!(a.stall_line(), None);
        let mut c = RunHealth {
            stall_ns: 3_000_000,
            stalls: 4,
            stall_max_ns: 2_000_000,
            stall_thread_max_ns: 2_500_000,
            ..Default::default()
        };
        c.merge(&RunHealth {
            stall_ns: 1_000_000,
            stalls: 1,
            stall_max_ns: 1_000_000,
            stall_thread_max_ns: 1_000_000,
            ..Default::default()
        });
        assert_eq!((c.stall_ns, c.stalls, c.stall_max_ns, c.stall_thread_max_ns), (4_000_000, 5, 2_000_000, 2_500_000));
        assert!(c.stall_line().unwrap().starts_with("the application waited 4.0 ms for capture space in 5 waits (worst thread 2.5 ms in all, longest wait 2.0 ms)"));
    }
}
