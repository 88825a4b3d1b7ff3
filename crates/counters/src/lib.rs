//! rocprof-counters (placeholder until its issue lands).
