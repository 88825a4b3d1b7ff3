//! ROCTx records as rocprofv3 reports them: the interception library records every marker call
//! on its own (a push and its pop are two records, so nothing is lost if the process dies inside
//! a range); the reader turns them into what a user sees.
//!
//! * `roctxRangePushA` + the matching `roctxRangePop` on the same thread become one record
//!   spanning push..pop, with the push's message and correlation id (`roctxThreadRangeA`);
//!   ranges nest per thread.
//! * `roctxRangeStartA` + the `roctxRangeStop` of its id (any thread) become one record with the
//!   start's message, thread and correlation id (`roctxProcessRangeA`).
//! * A range never closed ends at the end of the process (flagged by its end being the process
//!   end); a pop or stop without its opening call stays a record of its own.
//! * `roctxMarkA` stays a record of its own with its message, as an instant (end = start);
//!   control and naming calls stay as they are.
//!
//! With `--kernel-rename` ([`Markers::rename`]), a dispatch whose external correlation id is a
//! range's or a mark's id (the interception library makes the innermost open range's id, or the
//! last mark's until the next pop, the thread's external id) is named after its message.

use std::collections::HashMap;

use crate::api::{ApiCall, ApiDomain};
use crate::records::{StringId, StringTable, Timestamp};

/// `ROCPROFILER_MARKER_CORE_API_ID_*`.
pub const CORE_MARK: u32 = 0;
/// `roctxRangePushA`.
pub const CORE_PUSH: u32 = 1;
/// `roctxRangePop`.
pub const CORE_POP: u32 = 2;
/// `roctxRangeStartA`.
pub const CORE_START: u32 = 3;
/// `roctxRangeStop`.
pub const CORE_STOP: u32 = 4;

/// Pairs marker records into ranges as they stream by.
#[derive(Debug, Default)]
pub struct Markers {
    /// Open pushes per thread.
    threads: HashMap<u32, Vec<ApiCall>>,
    /// Open process ranges by range id.
    process: HashMap<u64, ApiCall>,
    /// Stops read before the start of their range (another thread's records may come later in
    /// the capture than the stop), by range id.
    early_stops: HashMap<u64, ApiCall>,
    /// Range (and mark) correlation id -> message, for `--kernel-rename`.
    messages: HashMap<u64, StringId>,
    thread_range: StringId,
    process_range: StringId,
    /// Marker records are paired (for `--kernel-rename`) but not delivered: the capture has them
    /// although `--marker-trace` was not asked for.
    hidden: bool,
}

impl Markers {
    /// Keeps marker records out of the delivered records (they still name kernels).
    pub fn hide(&mut self, hidden: bool) {
        self.hidden = hidden;
    }

    /// Takes one API record; returns what to deliver now (None: held until its range closes, or
    /// a marker record while they are hidden).
    pub fn on_call(&mut self, call: ApiCall, strings: &mut StringTable) -> Option<ApiCall> {
        let marker = matches!(call.domain, ApiDomain::MarkerCore | ApiDomain::MarkerControl | ApiDomain::MarkerName);
        let out = self.pair(call, strings);
        if marker && self.hidden {
            return None;
        }
        out
    }

    fn pair(&mut self, call: ApiCall, strings: &mut StringTable) -> Option<ApiCall> {
        if call.domain != ApiDomain::MarkerCore {
            return Some(call);
        }
        match call.operation {
            CORE_PUSH => {
                self.messages.insert(call.correlation.internal.0, call.message);
                self.threads.entry(call.thread.0).or_default().push(call);
                None
            }
            // A mark is an instant: rocprofv3 reports it with start = end. With `--kernel-rename`
            // it names the thread's later dispatches too (until the next pop).
            CORE_MARK => {
                self.messages.insert(call.correlation.internal.0, call.message);
                Some(ApiCall { end: call.start, ..call })
            }
            CORE_POP => match self.threads.get_mut(&call.thread.0).and_then(Vec::pop) {
                Some(push) => Some(self.thread_range(push, call.end, strings)),
                None => Some(call),
            },
            CORE_START => match self.early_stops.remove(&call.return_value) {
                Some(stop) => Some(self.process_range(call, stop.end, strings)),
                None => {
                    self.process.insert(call.return_value, call);
                    None
                }
            },
            CORE_STOP => {
                let id = call.args.first().copied();
                match id.and_then(|id| self.process.remove(&id)) {
                    Some(start) => Some(self.process_range(start, call.end, strings)),
                    None => match id {
                        Some(id) if !self.early_stops.contains_key(&id) => {
                            self.early_stops.insert(id, call);
                            None
                        }
                        _ => Some(call),
                    },
                }
            }
            _ => Some(call),
        }
    }

    fn thread_range(&mut self, mut push: ApiCall, end: Timestamp, strings: &mut StringTable) -> ApiCall {
        if self.thread_range == StringId::EMPTY {
            self.thread_range = strings.intern("roctxThreadRangeA");
        }
        push.name = self.thread_range;
        push.end = end;
        push
    }

    fn process_range(&mut self, mut start: ApiCall, end: Timestamp, strings: &mut StringTable) -> ApiCall {
        if self.process_range == StringId::EMPTY {
            self.process_range = strings.intern("roctxProcessRangeA");
        }
        start.name = self.process_range;
        start.end = end;
        start
    }

    /// The ranges still open at the end of the capture, closed at `end` (the process end), in
    /// start order, and the stops whose range never started (as records of their own).
    pub fn drain(&mut self, end: Timestamp, strings: &mut StringTable) -> Vec<ApiCall> {
        if self.hidden {
            return Vec::new();
        }
        let mut open: Vec<ApiCall> = std::mem::take(&mut self.early_stops).into_values().collect();
        let threads = std::mem::take(&mut self.threads);
        for push in threads.into_values().flatten() {
            let e = if end.ns > push.start.ns { end } else { push.start };
            open.push(self.thread_range(push, e, strings));
        }
        let process = std::mem::take(&mut self.process);
        for start in process.into_values() {
            let e = if end.ns > start.start.ns { end } else { start.start };
            open.push(self.process_range(start, e, strings));
        }
        open.sort_by_key(|c| (c.start.ns, c.correlation.internal.0));
        open
    }

    /// The message of the range with correlation id `id` (seen so far), for `--kernel-rename`.
    pub fn rename(&self, id: u64) -> Option<StringId> {
        if id == 0 {
            return None;
        }
        self.messages.get(&id).copied().filter(|m| *m != StringId::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{marker::operation_name, Correlation};
    use crate::records::ThreadId;

    #[allow(clippy::too_many_arguments)]
    fn call(
        strings: &mut StringTable,
        op: u32,
        tid: u32,
        corr: u64,
        t: u64,
        msg: &str,
        ret: u64,
        args: &[u64],
    ) -> ApiCall {
        ApiCall {
            domain: ApiDomain::MarkerCore,
            operation: op,
            name: strings.intern(operation_name(ApiDomain::MarkerCore, op).unwrap()),
            message: if msg.is_empty() { StringId::EMPTY } else { strings.intern(msg) },
            thread: ThreadId(tid),
            correlation: Correlation::new(corr),
            start: Timestamp::boottime(t),
            end: Timestamp::boottime(t + 1),
            return_value: ret,
            args: args.into(),
        }
    }

    #[test]
    fn pushes_and_pops_nest_per_thread_and_process_ranges_cross_threads() {
        let mut s = StringTable::default();
        let mut m = Markers::default();
        let mut out = Vec::new();
        let feed = [
            call(&mut s, CORE_PUSH, 1, 1, 10, "outer", 0, &[]),
            call(&mut s, CORE_START, 1, 2, 11, "setup", 7, &[]),
            call(&mut s, CORE_PUSH, 2, 3, 12, "other thread", 0, &[]),
            call(&mut s, CORE_PUSH, 1, 4, 13, "inner", 1, &[]),
            call(&mut s, CORE_MARK, 1, 5, 14, "mark", 0, &[]),
            call(&mut s, CORE_POP, 1, 6, 20, "", 1, &[]),
            call(&mut s, CORE_STOP, 2, 7, 21, "", 0, &[7]),
            call(&mut s, CORE_POP, 2, 8, 22, "", 0, &[]),
            call(&mut s, CORE_POP, 1, 9, 30, "", 0, &[]),
            call(&mut s, CORE_POP, 1, 10, 31, "", u64::MAX, &[]),
        ];
        for c in feed {
            out.extend(m.on_call(c, &mut s));
        }
        let rows: Vec<(String, u32, u64, u64, u64)> = out
            .iter()
            .map(|c| {
                let text = if c.message != StringId::EMPTY { c.message } else { c.name };
                (s.resolve(text).to_string(), c.thread.0, c.correlation.internal.0, c.start.ns, c.end.ns)
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("mark".to_string(), 1, 5, 14, 14),
                ("inner".to_string(), 1, 4, 13, 21),
                ("setup".to_string(), 1, 2, 11, 22),
                ("other thread".to_string(), 2, 3, 12, 23),
                ("outer".to_string(), 1, 1, 10, 31),
                ("roctxRangePop".to_string(), 1, 10, 31, 32),
            ]
        );
        assert_eq!(s.resolve(out[1].name), "roctxThreadRangeA");
        assert_eq!(s.resolve(out[2].name), "roctxProcessRangeA");
        assert_eq!(m.rename(4).map(|id| s.resolve(id).to_string()), Some("inner".into()));
        assert_eq!(m.rename(0), None);
        assert!(m.drain(Timestamp::boottime(100), &mut s).is_empty());
    }

    #[test]
    fn open_ranges_end_with_the_process() {
        let mut s = StringTable::default();
        let mut m = Markers::default();
        assert!(m.on_call(call(&mut s, CORE_PUSH, 1, 1, 10, "never popped", 0, &[]), &mut s).is_none());
        assert!(m.on_call(call(&mut s, CORE_START, 2, 2, 11, "never stopped", 5, &[]), &mut s).is_none());
        let open = m.drain(Timestamp::boottime(100), &mut s);
        assert_eq!(open.len(), 2);
        assert_eq!((open[0].start.ns, open[0].end.ns, open[1].end.ns), (10, 100, 100));
        assert_eq!(s.resolve(open[1].message), "never stopped");
    }

    #[test]
    fn hidden_markers_still_name_kernels_but_are_not_delivered() {
        let mut s = StringTable::default();
        let mut m = Markers::default();
        m.hide(true);
        assert!(m.on_call(call(&mut s, CORE_PUSH, 1, 4, 10, "phase", 0, &[]), &mut s).is_none());
        assert!(m.on_call(call(&mut s, CORE_MARK, 1, 5, 11, "mark", 0, &[]), &mut s).is_none());
        assert_eq!(m.rename(4).map(|id| s.resolve(id).to_string()), Some("phase".into()));
        assert!(m.on_call(call(&mut s, CORE_POP, 1, 6, 12, "", 0, &[]), &mut s).is_none());
        assert!(m.on_call(call(&mut s, CORE_PUSH, 1, 7, 13, "open", 0, &[]), &mut s).is_none());
        assert!(m.drain(Timestamp::boottime(100), &mut s).is_empty());
        // Other domains pass.
        let hip = ApiCall { domain: ApiDomain::HipRuntime, ..call(&mut s, 0, 1, 8, 14, "", 0, &[]) };
        assert!(m.on_call(hip, &mut s).is_some());
    }

    #[test]
    fn a_stop_read_before_its_start_still_closes_the_process_range() {
        let mut s = StringTable::default();
        let mut m = Markers::default();
        // Thread 2's records come first in the capture, although thread 1 started the range.
        assert!(m.on_call(call(&mut s, CORE_STOP, 2, 9, 50, "", 0, &[3]), &mut s).is_none());
        let range = m.on_call(call(&mut s, CORE_START, 1, 4, 20, "phase", 3, &[]), &mut s).unwrap();
        assert_eq!((range.thread.0, range.start.ns, range.end.ns), (1, 20, 51));
        assert_eq!(s.resolve(range.name), "roctxProcessRangeA");
        // A stop whose range never started is reported on its own at the end.
        assert!(m.on_call(call(&mut s, CORE_STOP, 2, 10, 60, "", 0, &[8]), &mut s).is_none());
        let rest = m.drain(Timestamp::boottime(100), &mut s);
        assert_eq!(rest.len(), 1);
        assert_eq!(s.resolve(rest[0].name), "roctxRangeStop");
    }
}
