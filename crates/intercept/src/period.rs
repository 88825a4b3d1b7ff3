//! `--collection-period` in the library: collection is paused outside the windows, so the
//! application pays no tracing cost between them (rocprofv3 likewise starts and stops its
//! contexts from a thread of its tool). The launch setting `CollectionPeriods` holds
//! `delay_ns:duration_ns:repeat` triplets, comma-separated: each triplet's cycles (at least one)
//! run one after the other from library start, then the next triplet's; after the last window
//! collection stays paused. The windows share [`state::set_collecting`] with
//! `--selected-regions`; the writers cut the records to the same windows (exact to the
//! process start) at write time.

use std::time::{Duration, Instant};

use crate::diag::Level;
use crate::{diag, state};

/// The `[start, end)` windows (ns from library start) of `periods`.
pub fn windows(periods: &[(u64, u64, u64)]) -> Vec<(u64, u64)> {
    let mut t = 0u64;
    let mut out = Vec::new();
    for &(delay, duration, repeat) in periods {
        for _ in 0..repeat.max(1) {
            let start = t.saturating_add(delay);
            let end = start.saturating_add(duration);
            out.push((start, end));
            t = end;
        }
    }
    out
}

/// Cold path, once from `early_init`: pauses collection now when the first window starts later,
/// and starts the thread that resumes and pauses it at each window's edges.
pub fn start_from_env() {
    let periods = match &crate::env::env().periods {
        None => return,
        Some(Ok(p)) => &p.0,
        Some(Err(e)) => {
            diag!(Level::Error, "{}={e}; collecting all the time", rocprof_launch::names::COLLECTION_PERIODS);
            return;
        }
    };
    let windows = windows(periods);
    let Some(&(first, _)) = windows.first() else { return };
    let origin = Instant::now();
    if first > 0 {
        state::set_collecting(false);
    }
    let spawned = std::thread::Builder::new().name("rocprof-period".into()).spawn(move || {
        let until = |ns: u64| {
            let at = origin + Duration::from_nanos(ns);
            let now = Instant::now();
            if at > now {
                std::thread::sleep(at - now);
            }
        };
        for (start, end) in windows {
            until(start);
            state::set_collecting(true);
            until(end);
            state::set_collecting(false);
        }
    });
    if spawned.is_err() {
        state::set_collecting(true);
        diag!(Level::Error, "could not start the --collection-period thread; collecting all the time");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplets_run_their_cycles_back_to_back() {
        use rocprof_launch::{CollectionPeriods, Setting};
        let p = CollectionPeriods::decode("1000:500:2, 0:300:0").unwrap();
        assert_eq!(windows(&p.0), [(1000, 1500), (2500, 3000), (3000, 3300)]);
        assert!(CollectionPeriods::decode("1:2").is_err() && CollectionPeriods::decode("a:b:c").is_err());
    }
}
