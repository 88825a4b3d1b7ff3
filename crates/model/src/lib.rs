//! rocprof-model (placeholder until its issue lands).
