//! Integration tests of rocprof-counters: derived metrics on hand-made samples and the planner.
