//! Integration tests of rocprof-writers.
