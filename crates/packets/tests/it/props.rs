//! Property-style robustness tests (filled in below).
