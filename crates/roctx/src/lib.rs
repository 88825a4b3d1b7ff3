//! rocprof-roctx: `libroctx64.so.4` (also staged as `librocprofiler-sdk-roctx.so`), AMD's ROCTx
//! code-annotation API for programs that want ranges and markers in their profiles, usable on
//! machines without ROCm. The C header is `include/roctx.h` (and `include/rocprofiler-sdk-roctx/roctx.h`).
//!
//! How it reaches a profiler: the library works exactly like ROCm 6.2+'s `librocprofiler-sdk-roctx`.
//! Every exported function calls through three dispatch tables (`roctxCoreApiTable_t`,
//! `roctxControlApiTable_t`, `roctxNameApiTable_t`, AMD's layout) whose entries start out as this
//! library's own no-op implementations. On the first call, the tables are offered once to a tool:
//! through rocprofiler-register (`rocprofiler_register_library_api_table`) when that library is in the
//! process, otherwise straight to any loaded library exporting `rocprofiler_set_api_table`. The
//! rocprof-rs interception library (preloaded by `rocprof-rs`) exports that function and swaps in its
//! recording wrappers, which call the saved no-op entries for the return values. AMD's rocprofiler-sdk
//! would be handed the same tables in the same way.
//!
//! Without a tool the cost of a call is an acquire load, an indirect call and a thread-local counter
//! (ranges) or an atomic increment (process range ids). Return values follow AMD's implementation:
//! `roctxRangePushA` returns the level of the new range (0-based), `roctxRangePop` the level of the
//! closed one or -1, `roctxRangeStartA` ids from 1 up, the other calls 0.
//!
//! roctracer's older hook, `roctxRegisterTracerCallback`, is exported as well: a registered function
//! gets roctracer's `(ACTIVITY_DOMAIN_ROCTX, operation, roctx_api_data_t*)` for the five original calls.

mod exports;
mod tables;
pub use exports::*;
pub use tables::{rocprofiler_register_import_roctx, VERSION_MAJOR, VERSION_MINOR};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_nest_per_thread_and_pop_on_empty_returns_minus_one() {
        // SAFETY: the exported functions take NUL-terminated strings.
        unsafe {
            assert_eq!(roctxRangePushA(c"a".as_ptr()), 0);
            assert_eq!(roctxRangePushA(c"b".as_ptr()), 1);
            let other = std::thread::spawn(|| (roctxRangePushA(c"t".as_ptr()), roctxRangePop(), roctxRangePop()));
            assert_eq!(other.join().unwrap(), (0, 0, -1), "another thread has its own stack");
            assert_eq!(roctxRangePop(), 1);
            assert_eq!(roctxRangePop(), 0);
            assert_eq!(roctxRangePop(), -1);
        }
    }

    #[test]
    fn process_range_ids_are_unique_and_start_at_one() {
        // SAFETY: NUL-terminated strings.
        let ids: Vec<u64> = (0..4).map(|_| unsafe { roctxRangeStartA(c"r".as_ptr()) }).collect();
        assert!(ids.iter().all(|&i| i >= 1));
        let mut sorted = ids.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
        for id in ids {
            roctxRangeStop(id);
        }
    }

    #[test]
    fn thread_id_is_the_os_thread_id_and_the_rest_returns_zero() {
        let mut tid = 0;
        // SAFETY: valid out-pointer and NUL-terminated names.
        unsafe {
            assert_eq!(roctxGetThreadId(&mut tid), 0);
            assert_eq!(tid, libc::syscall(libc::SYS_gettid) as u64);
            assert_eq!(roctxProfilerPause(0), 0);
            assert_eq!(roctxProfilerResume(0), 0);
            assert_eq!(roctxNameOsThread(c"main".as_ptr()), 0);
            assert_eq!(roctxNameHipDevice(c"dev".as_ptr(), 0), 0);
        }
        assert_eq!((roctx_version_major(), roctx_version_minor()), (4, 1));
    }
}
