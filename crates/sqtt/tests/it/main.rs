//! Integration tests of rocprof-sqtt: corpus conformance against AMD's decoder, and robustness.

mod conformance;
mod corpus;
mod records;
mod robustness;
mod sizes;
