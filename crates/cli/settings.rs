//! What applies to one file: the policy and whether binary files are
//! skipped, from `utf8lint_config::Resolver`. Command-line flags override
//! `utf8lint.toml`, which overrides `.editorconfig`, which overrides the
//! built-in rules.

pub(crate) use utf8lint_config::{ConfigSource, FileSettings, Overrides, Resolver};
