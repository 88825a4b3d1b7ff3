//! rocprof-writers (placeholder until its issue lands).
