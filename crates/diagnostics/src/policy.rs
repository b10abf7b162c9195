//! What applies to one file: the byte-order-mark policy and where it came
//! from, the lint levels, the charset the project declares, and the cap on
//! diagnostics. The caller (the config crate, the CLI, the language server)
//! resolves it; [`builtin_bom_rule`] is the last resort, keyed by file name
//! and content, from docs/spec.md, "Byte-order marks".

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
}

impl BomPolicy {
    /// `forbid`, `allow` or `require`, as configuration spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            BomPolicy::Forbid => "forbid",
            BomPolicy::Allow => "allow",
            BomPolicy::Require => "require",
        }
    }

    /// The inverse of [`BomPolicy::as_str`].
    pub fn parse(text: &str) -> Option<BomPolicy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "forbid" => Some(BomPolicy::Forbid),
            "allow" => Some(BomPolicy::Allow),
            "require" => Some(BomPolicy::Require),
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
        }
    }
}

impl Policy {
    /// The BOM rule that applies to `path` with content `bytes`: the
    /// configured one, else the built-in one.
    pub fn bom_rule(&self, path: &Path, bytes: &[u8]) -> BomRule {
        match &self.bom {
            Some(rule) => rule.clone(),
            None => builtin_bom_rule(path, bytes),
        }
    }
}

struct Format {
    format: &'static str,
    extensions: &'static [&'static str],
    policy: BomPolicy,
    why: &'static str,
    reference: &'static str,
}

/// The formats of docs/spec.md's table that have a rule, by extension.
const FORMATS: &[Format] = &[
    Format {
        format: "JSON",
        extensions: &["json", "jsonl", "ndjson", "geojson", "webmanifest", "har"],
        policy: BomPolicy::Forbid,
        why: "JSON forbids a byte-order mark",
        reference: "RFC 8259 section 8.1",
    },
    Format {
        format: "PHP",
        extensions: &[
            "php", "phtml", "php3", "php4", "php5", "php7", "php8", "phps",
        ],
        policy: BomPolicy::Forbid,
        why: "PHP sends the byte-order mark as output before `<?php` (\"headers already sent\") and `declare(strict_types=1)` must come first",
        reference: "the PHP manual",
    },
    Format {
        format: "Java",
        extensions: &["java"],
        policy: BomPolicy::Forbid,
        why: "javac rejects U+FEFF (`illegal character: '\\ufeff'`)",
        reference: "javac",
    },
    Format {
        format: "Windows batch",
        extensions: &["bat", "cmd"],
        policy: BomPolicy::Forbid,
        why: "cmd.exe reads the byte-order mark as part of the first command",
        reference: "cmd.exe",
    },
    Format {
        format: "shell script",
        extensions: &["sh", "bash", "zsh", "ksh", "dash"],
        policy: BomPolicy::Forbid,
        why: "the shell reads the byte-order mark as part of the first command",
        reference: "POSIX shells",
    },
];

const SHEBANG: Format = Format {
    format: "`#!` script",
    extensions: &[],
    policy: BomPolicy::Forbid,
    why: "the kernel reads `#!` only as the first two bytes, so the script will not run",
    reference: "Linux fs/binfmt_script.c",
};

/// `path`'s extension as `Path::extension` finds it, without its
/// component parsing (which shows in a profile at 80,000 files).
fn extension(path: &Path) -> Option<&[u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        let name_start = bytes.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
        let name = &bytes[name_start..];
        if name.is_empty() || name == b"." || name == b".." {
            // A trailing `/`, `.` or `..`: leave it to the parser.
            return path.extension().map(|e| e.as_bytes());
        }
        let dot = name.iter().rposition(|&b| b == b'.')?;
        // A leading dot (`.bashrc`) starts the name, not an extension.
        (dot > 0).then(|| &name[dot + 1..])
    }
    #[cfg(not(unix))]
    {
        path.extension().and_then(|e| e.to_str()).map(str::as_bytes)
    }
}

/// The built-in BOM rule for a file, by its name and content: `#!` right
/// after a BOM, then the extension table; everything else allows a BOM.
pub(crate) fn builtin_bom_rule(path: &Path, bytes: &[u8]) -> BomRule {
    let after_bom = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let format = if after_bom.starts_with(b"#!") {
        Some(&SHEBANG)
    } else {
        // Runs for every file of a scan: no allocation for the lowercase.
        extension(path).and_then(|ext| {
            FORMATS.iter().find(|f| {
                f.extensions
                    .iter()
                    .any(|known| known.as_bytes().eq_ignore_ascii_case(ext))
            })
        })
    };
    match format {
        Some(f) => BomRule {
            policy: f.policy,
            source: PolicySource::Builtin {
                format: f.format,
                why: f.why,
                reference: f.reference,
            },
        },
        None => BomRule {
            policy: BomPolicy::Allow,
            source: PolicySource::Builtin {
                format: "text",
                why: "a byte-order mark is allowed",
                reference: "RFC 3629 section 6",
            },
        },
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
    fn no_built_in_rule_requires_a_bom() {
        // The BOM rule skips files without one unless a policy is
        // configured: that is right only while this holds.
        assert!(FORMATS.iter().all(|f| f.policy != BomPolicy::Require));
        assert_ne!(SHEBANG.policy, BomPolicy::Require);
        assert_ne!(
            builtin_bom_rule(Path::new("x"), b"").policy,
            BomPolicy::Require
        );
    }

    #[test]
    fn extension_is_what_path_extension_finds() {
        for path in [
            "a.json",
            "dir/a.JSON",
            "/abs/dir.d/file",
            "dir.d/file.tar.gz",
            ".bashrc",
            "dir/.bashrc",
            "dir/.config.json",
            "file.",
            "dir/file.",
            "noext",
            "a.json/",
            "a.json/.",
            "a.json/..",
            "..",
            ".",
            "",
            "/",
            "dir/..json",
            "x/y/z.Md",
        ] {
            let path = Path::new(path);
            let expected = path.extension().map(|e| e.as_encoded_bytes());
            assert_eq!(extension(path), expected, "{}", path.display());
        }
    }

    fn builtin(path: &str, bytes: &[u8]) -> BomPolicy {
        builtin_bom_rule(Path::new(path), bytes).policy
    }

    #[test]
    fn builtin_rules_follow_spec_section_3() {
        assert_eq!(builtin("a/package.json", b"{}"), BomPolicy::Forbid);
        assert_eq!(builtin("DATA.JSON", b"{}"), BomPolicy::Forbid);
        assert_eq!(builtin("index.php", b"<?php"), BomPolicy::Forbid);
        assert_eq!(builtin("Main.java", b"class"), BomPolicy::Forbid);
        assert_eq!(builtin("run.bat", b"@echo off"), BomPolicy::Forbid);
        assert_eq!(builtin("run.CMD", b"@echo off"), BomPolicy::Forbid);
        assert_eq!(
            builtin("tool", b"\xEF\xBB\xBF#!/bin/sh\n"),
            BomPolicy::Forbid
        );
        assert_eq!(
            builtin("tool.py", b"#!/usr/bin/env python3\n"),
            BomPolicy::Forbid
        );
        assert_eq!(builtin("notes.txt", b"\xEF\xBB\xBFhello"), BomPolicy::Allow);
        assert_eq!(builtin("config.yaml", b"a: 1"), BomPolicy::Allow);
        assert_eq!(builtin("main.rs", b"fn main"), BomPolicy::Allow);
        assert_eq!(builtin("", b""), BomPolicy::Allow);
    }
}
