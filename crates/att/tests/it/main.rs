//! Integration tests of rocprof-att: the real-hardware corpus through discover, decode, listing,
//! ui_output and report; damaged inputs.

mod corpus;
mod damaged;
mod support;
mod synthetic;
