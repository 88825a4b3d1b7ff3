//! rocprof-intercept (placeholder until its issue lands).
