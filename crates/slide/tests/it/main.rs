//! The library's integration tests, one test binary (`cargo test -p slidetile --test it`; one module:
//! `cargo test -p slidetile --test it search::`). Each module is a former test file; `support` holds what they share,
//! `catalogue` reads the bad-input catalogue (`tests/data/bad_input.json`). Tests share the process: none changes
//! its environment or current directory, and each caching test passes a directory of its own to its solver.

mod analyse;
mod bad_input;
mod cache;
mod cache_faults;
mod catalogue;
mod fast;
mod mtm;
mod partial;
mod properties;
mod reference_bfs;
mod render;
mod search;
mod support;
mod tidy;
