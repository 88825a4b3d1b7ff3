//! Robustness: damaged and random input never panics, hangs or allocates without bound.
