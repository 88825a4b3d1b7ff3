//! Integration tests of rocprof-analysis over real rocpd files: databases written by our own
//! writer from synthetic traces (with controlled per-kernel timings and noise), plus rows in
//! AMD's layout for API calls, memory copies and counters (as `make_sample_db.py` of
//! `../shared/tools/rocpd-check` writes them).

mod db;
mod diff;
mod errors;
mod merge;
mod schema_check;
mod summary;
