//! Integration tests for rocprof-packets: byte-for-byte conformance with the
//! aqlprofile goldens, a cross-check of the block tables against the reference
//! dump, and property-style robustness tests over builders and parsers.

mod conformance;
mod props;
mod tables;
mod util;
