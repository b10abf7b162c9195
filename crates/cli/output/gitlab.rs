//! `--format gitlab`: GitLab Code Quality, a JSON array of issues
//! (`description`, `check_name`, `fingerprint`, `severity`, `location`
//! with `path` and `lines.begin`), uploaded as `artifacts: reports:
//! codequality:`. Each file's issues are rendered as JSON Lines by the
//! worker that checked it and gathered into one array, as `json`'s are.
//!
//! GitLab compares a merge request's issues with its target's by
//! fingerprint, so a fingerprint must not move when unrelated lines do: it
//! hashes the path, the rule, the finding's bytes and its line's bytes
//! around them (the key a baseline uses), and which of the file's equal
//! findings it is, never a line number.

use std::collections::HashMap;

use serde_json::json;
use utf8lint_diagnostics::{Diagnostic, Level, Rule, escape_shown};

use super::place::Region;
use crate::baseline::{finding_hash, fnv1a};

/// GitLab's severities are info, minor, major, critical and blocker.
fn severity(level: Level) -> &'static str {
    match level {
        Level::Deny => "major",
        Level::Warn => "minor",
        Level::Allow => "info",
    }
}

/// Fingerprints of one file's findings, in file order: equal findings
/// (same rule, bytes and line around them) are told apart by their rank.
pub(super) struct Fingerprints<'a> {
    path: &'a str,
    seen: HashMap<(Rule, u64), u64>,
}

impl<'a> Fingerprints<'a> {
    pub(super) fn new(path: &'a str) -> Self {
        Fingerprints {
            path,
            seen: HashMap::new(),
        }
    }

    /// 32 hex digits (two 64-bit hashes), as long as the MD5 digests
    /// other tools write.
    pub(super) fn next(&mut self, bytes: &[u8], d: &Diagnostic) -> String {
        let hash = finding_hash(bytes, d);
        let rank = self.seen.entry((d.rule, hash)).or_default();
        let parts: [&[u8]; 4] = [
            self.path.as_bytes(),
            d.rule.code().as_bytes(),
            &hash.to_le_bytes(),
            &rank.to_le_bytes(),
        ];
        *rank += 1;
        let high = fnv1a(&parts);
        let low = fnv1a(&[&high.to_le_bytes(), parts[0], parts[3]]);
        format!("{high:016x}{low:016x}")
    }
}

/// One issue, a JSON object on one line (no newline).
pub(super) fn line(d: &Diagnostic, path: &str, region: &Region, fingerprint: String) -> String {
    let mut description = format!("{}: {}", d.rule.code(), escape_shown(&d.message));
    if !d.label.is_empty() {
        description.push_str(&format!(" ({})", escape_shown(&d.label)));
    }
    json!({
        "description": description,
        "check_name": format!("{} {}", d.rule.code(), d.rule.name()),
        "fingerprint": fingerprint,
        "severity": severity(d.level),
        "location": {
            "path": path,
            // A finding about the file's name is shown on its first line.
            "lines": {"begin": if super::place::is_file_level(d) { 1 } else { region.start.line }},
        },
    })
    .to_string()
}
