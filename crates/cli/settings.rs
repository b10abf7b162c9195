//! What applies to one file: the policy and whether binary files are skipped.
//! Command-line flags override `utf8lint.toml`, which overrides
//! `.editorconfig`, which overrides the built-in rules.
//!
//! This is the one place that knows where settings come from.
// TODO(config): switch to `utf8lint_config::Resolver` once crates/config
// is on main; the command line already builds its `Overrides`.

use std::path::Path;

use utf8lint_diagnostics::{Level, Policy, Rule};

/// What the command line says, applied over everything else.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `-A/-W/-D` in order; the last wins.
    pub levels: Vec<(Rule, Level)>,
    /// `--max-per-file`.
    pub max_per_rule: Option<usize>,
    /// `--no-skip-binary` gives `Some(false)`.
    pub skip_binary: Option<bool>,
}

/// The settings for one file.
#[derive(Clone, Debug)]
pub struct FileSettings {
    pub policy: Policy,
    pub skip_binary: bool,
}

/// Resolves settings per file. `Send + Sync`: the walker's threads share it.
pub struct Resolver {
    overrides: Overrides,
}

impl Resolver {
    pub fn new(overrides: Overrides) -> Self {
        Resolver { overrides }
    }

    /// The settings for `path`; an error is a configuration problem,
    /// described as `path:line: key: message`.
    pub fn resolve(&self, _path: &Path) -> Result<FileSettings, String> {
        let mut policy = Policy::default();
        for (rule, level) in &self.overrides.levels {
            policy.levels.set(*rule, *level);
        }
        if let Some(max) = self.overrides.max_per_rule {
            policy.max_per_rule = max;
        }
        Ok(FileSettings {
            policy,
            skip_binary: self.overrides.skip_binary.unwrap_or(true),
        })
    }
}
