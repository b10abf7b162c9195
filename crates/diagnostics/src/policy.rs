//! What applies to one file: the byte-order-mark policy and where it came
//! from, the lint levels, the charset the project declares, and the cap on
//! diagnostics. The caller (the config crate, the CLI, the language server)
//! resolves it; the built-in BOM rule by format (`rules/bom_formats.rs`)
//! is the last resort.

use std::path::{Path, PathBuf};

use crate::{Level, Rule};

/// Whether a file may, must not, or must start with a UTF-8 byte-order mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BomPolicy {
    /// A leading BOM is an error ([`crate::Rule::ForbiddenBom`]).
    Forbid,
    /// Either way is fine.
    Allow,
    /// A missing BOM is an error ([`crate::Rule::MissingBom`]).
    Require,
    /// A missing BOM is an error when the file is not all ASCII (Windows
    /// PowerShell 5.1 reads a script without one in the ANSI code page).
    RequireUnlessAscii,
}

impl BomPolicy {
    /// `forbid`, `allow` or `require`, as configuration spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            BomPolicy::Forbid => "forbid",
            BomPolicy::Allow => "allow",
            BomPolicy::Require => "require",
            BomPolicy::RequireUnlessAscii => "require-unless-ascii",
        }
    }

    /// The inverse of [`BomPolicy::as_str`].
    pub fn parse(text: &str) -> Option<BomPolicy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "forbid" => Some(BomPolicy::Forbid),
            "allow" => Some(BomPolicy::Allow),
            "require" => Some(BomPolicy::Require),
            "require-unless-ascii" => Some(BomPolicy::RequireUnlessAscii),
            _ => None,
        }
    }
}

/// Where a policy came from, so that a message can say why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PolicySource {
    /// utf8lint's own knowledge of a format (docs/spec.md, "Byte-order marks").
    Builtin {
        /// The format, e.g. `JSON`.
        format: &'static str,
        /// Why, in a sentence: "JSON forbids a byte-order mark".
        why: &'static str,
        /// The authority, e.g. "RFC 8259 section 8.1".
        reference: &'static str,
    },
    /// A `utf8lint.toml` entry.
    Config {
        /// The configuration file.
        path: PathBuf,
        /// 1-based line of the entry.
        line: usize,
        /// The glob or key that matched.
        key: String,
    },
    /// An `.editorconfig` `charset` property.
    EditorConfig {
        /// The `.editorconfig` file.
        path: PathBuf,
        /// The section header that matched, e.g. `[*.json]`.
        section: String,
        /// 1-based line of the `charset` property.
        line: usize,
        /// The value, e.g. `utf-8-bom`.
        value: String,
    },
    /// A command-line flag or an editor setting.
    CommandLine {
        /// The flag as written.
        flag: String,
    },
}

impl PolicySource {
    /// A phrase naming the source: "built in (RFC 8259 section 8.1)",
    /// "utf8lint.toml line 4", "`.editorconfig` section `[*.json]` line 7".
    pub fn describe(&self) -> String {
        match self {
            PolicySource::Builtin { reference, .. } => format!("built in, after {reference}"),
            PolicySource::Config { path, line, key } => {
                format!("`{key}` in {} line {line}", path.display())
            }
            PolicySource::EditorConfig {
                path,
                section,
                line,
                value,
            } => format!(
                "`charset = {value}` in {} section `{section}` line {line}",
                path.display()
            ),
            PolicySource::CommandLine { flag } => format!("the command line (`{flag}`)"),
        }
    }

    /// The file and 1-based line the policy was read from, if any (for the
    /// language server's related information and SARIF).
    pub fn location(&self) -> Option<(&Path, usize)> {
        match self {
            PolicySource::Config { path, line, .. }
            | PolicySource::EditorConfig { path, line, .. } => Some((path.as_path(), *line)),
            _ => None,
        }
    }
}

/// A BOM policy and its source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BomRule {
    /// What is required.
    pub policy: BomPolicy,
    /// Who said so.
    pub source: PolicySource,
}

/// The encoding the project declares for a file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Charset {
    /// UTF-8 (the default when nothing says otherwise).
    #[default]
    Utf8,
    /// Something else (`.editorconfig` `latin1`, `utf-16le`, `utf-16be`):
    /// the encoding rules do not apply to the file.
    Other {
        /// The declared name.
        name: String,
        /// Who declared it.
        source: PolicySource,
    },
}

/// Everything that decides what is reported for one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Policy {
    /// The BOM rule from configuration; `None` means the built-in rule for
    /// the file's format (by its name and first bytes) applies.
    pub bom: Option<BomRule>,
    /// The level of every rule.
    pub levels: LintLevels,
    /// The declared encoding.
    pub charset: Charset,
    /// At most this many diagnostics of one rule per file, then one summary;
    /// 0 means only the absolute ceiling (10,000, [`crate::shown_per_rule`]).
    /// Fixes are never limited by it (`Keep::Every`).
    pub max_per_rule: usize,
    /// Configuration names the file as an AI agent's instructions
    /// (`agent-instructions`), beside the built-in names U018 knows.
    pub agent_instructions: bool,
}

/// The default cap on diagnostics of one rule in one file.
pub const DEFAULT_MAX_PER_RULE: usize = 50;

impl Default for Policy {
    fn default() -> Self {
        Policy {
            bom: None,
            levels: LintLevels::default(),
            charset: Charset::Utf8,
            max_per_rule: DEFAULT_MAX_PER_RULE,
            agent_instructions: false,
        }
    }
}

/// The level of every rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LintLevels {
    levels: [Level; Rule::ALL.len()],
}

impl Default for LintLevels {
    fn default() -> Self {
        let mut levels = [Level::Allow; Rule::ALL.len()];
        for rule in Rule::ALL {
            levels[rule.index()] = rule.default_level();
        }
        LintLevels { levels }
    }
}

impl LintLevels {
    /// The level of `rule`.
    pub fn get(&self, rule: Rule) -> Level {
        self.levels[rule.index()]
    }

    /// Sets the level of `rule`.
    pub fn set(&mut self, rule: Rule, level: Level) {
        self.levels[rule.index()] = level;
    }

    /// Whether `rule` is reported at all.
    pub fn enabled(&self, rule: Rule) -> bool {
        self.get(rule) != Level::Allow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_policy_is_read_back_as_configuration_spells_it() {
        for policy in [
            BomPolicy::Forbid,
            BomPolicy::Allow,
            BomPolicy::Require,
            BomPolicy::RequireUnlessAscii,
        ] {
            assert_eq!(BomPolicy::parse(policy.as_str()), Some(policy));
        }
        assert_eq!(
            BomPolicy::parse(" Require-Unless-ASCII "),
            Some(BomPolicy::RequireUnlessAscii)
        );
        assert_eq!(BomPolicy::parse("required"), None);
    }
}
