//! End-to-end tests of the `utf8lint` binary: each runs the real program on
//! a tree built in a temporary directory or on the committed byte fixtures
//! under `tests/fixtures/`.

mod common;

mod config;
mod corpus;
mod cost;
mod explain;
mod fix;
mod formats;
mod hostile;
mod levels;
mod precommit;
mod walk;
mod writer;
