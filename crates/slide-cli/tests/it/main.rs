//! The command line's integration tests, one test binary (`cargo test -p slidetile-cli --test it`; one module:
//! `cargo test -p slidetile-cli --test it serve_api::`) besides the timing tests (`tests/timing/`). Each module is a
//! former test file; `support` holds what they share, `catalogue` reads the bad-input catalogue
//! (`crates/slide/tests/data/bad_input.json`). Tests share the process: none changes its environment or current
//! directory; each child `slide` gets its cache directory passed.

mod analyse;
mod bad_input;
#[path = "../../../slide/tests/it/catalogue.rs"]
mod catalogue;
mod cli;
mod cli_edges;
mod examples;
mod history;
mod metric;
mod notation;
mod options;
mod partial;
mod partial_commands;
mod render;
mod serve_api;
mod serve_edges;
mod support;
