//! Block-table cross-check (filled in below).
