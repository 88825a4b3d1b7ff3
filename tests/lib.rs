//! End-to-end tests: programs run under rocprof-rs with hsa-sim staged as libhsa-runtime64.so.1.
