//! rocprof-hsa-sys (placeholder until its issue lands).
