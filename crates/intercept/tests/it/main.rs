//! Integration tests of the interception library that need process-wide state of their own (a
//! counting global allocator, the tool's global tables), so they run in this separate binary.

mod hot_path;
