//! Profiling API (placeholder).
