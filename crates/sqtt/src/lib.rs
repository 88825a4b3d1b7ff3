//! rocprof-sqtt (placeholder until its issue lands).
