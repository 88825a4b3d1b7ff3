//! rocprof-sim-hsa (placeholder until its issue lands).
