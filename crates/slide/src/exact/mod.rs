//! Exact answers for small boards: the ranking of states, the packed-table type, the breadth-first search engine,
//! complete distance tables and their files.

pub mod bfs;
pub mod cache;
pub mod packed;
pub mod rank;
pub mod table;
