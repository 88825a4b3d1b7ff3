//! End-to-end tests: staged fixtures run under the staged `rocprof-rs` on hsa-sim, and what the
//! profiler wrote is compared with what the application did. Each test skips (and passes) with a
//! message when `ROCPROF_RS_STAGE` is unset (fails under `CI=true`); `cargo xtask test` sets it.

#![forbid(unsafe_code)]

mod amd_suites;
mod ci_diff;
mod common;
mod convert;
mod counters;
mod crash;
mod device;
mod exec;
mod fork;
mod formats;
mod hip;
mod hip6_trace;
mod hip_trace;
mod hsa_trace;
mod kernel_trace;
mod losses;
mod lossless;
mod matrix;
mod multi_queue;
mod packets;
mod pc_sampling;
mod pc_sampling_stochastic;
mod pftrace_sys;
mod programs;
mod refusals;
mod rocm_examples;
mod rocpd_amd;
mod rocprofv3_semantics;
mod scratch_trace;
mod sid;
mod soak;
mod sys_formats;
mod targets;
mod textures;
