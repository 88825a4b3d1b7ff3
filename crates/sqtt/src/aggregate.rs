//! Aggregation for ATT outputs (placeholder filled in below).
