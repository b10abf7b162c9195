//! End-to-end tests of the `utf8lint` binary: each runs the real program on
//! a tree built in a temporary directory or on the committed byte fixtures
//! under `tests/fixtures/`.

mod action;
mod announced_edits;
mod big_repo;
mod binary_named;
mod bom_consumers;
mod bom_require;
mod ci_reports;
mod common;

mod config;
mod conventions;
mod conversions;
mod corpus;
mod cost;
mod declarations;
mod diff;
mod diff_base;
mod diff_changed_lines;
mod diff_long_line;
mod exclude;
mod explain;
mod fix;
mod fix_all;
mod fix_scope;
mod formats;
mod gate;
mod generated;
mod hidden_payload;
mod honest_counts;
mod hostile;
mod hostile_config;
mod json_names;
mod levels;
mod lookalike;
mod outputs;
mod outputs_clobber;
mod precommit;
mod reading;
mod reads_and_writes;
mod server;
mod suppress;
mod text_at_end;
mod text_rules;
mod trust;
mod walk;
mod walk_fix_stress;
mod writer;
