//! rocprof-packets (placeholder until its issue lands).
