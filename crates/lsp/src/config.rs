//! The `utf8lint` settings section (`workspace/configuration`), with the
//! keys of `utf8lint.toml`, turned into a [`Policy`] per file.

use std::path::Path;

use globset::{Glob, GlobMatcher};
use serde_json::Value;
use utf8lint_diagnostics::{BomPolicy, BomRule, Level, Policy, PolicySource, Rule};

/// Workspaces whose files add up to more than this are not scanned at
/// start-up unless `workspace-scan` is set to true explicitly.
pub const SCAN_LIMIT_BYTES: u64 = 256 * 1024 * 1024;

/// At most this many files are scanned at start-up.
pub const SCAN_LIMIT_FILES: usize = 20_000;

/// The editor's settings for utf8lint.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `lints`: rule → level.
    pub levels: Vec<(Rule, Level)>,
    /// `bom`: glob → policy, in order.
    pub bom: Vec<(String, GlobMatcher, BomPolicy)>,
    /// `max-per-file`.
    pub max_per_rule: Option<usize>,
    /// `skip-binary` (default true).
    pub skip_binary: Option<bool>,
    /// `workspace-scan`: `None` means on under the size limit.
    pub workspace_scan: Option<bool>,
}

impl Settings {
    /// Reads the section leniently: a bad entry is logged and skipped.
    pub fn from_json(value: &Value) -> Settings {
        let mut s = Settings::default();
        let Some(obj) = value.as_object() else {
            if !value.is_null() {
                eprintln!("utf8lint lsp: settings: `utf8lint` is not an object, ignored");
            }
            return s;
        };
        if let Some(lints) = obj.get("lints").and_then(Value::as_object) {
            for (name, level) in lints {
                match (Rule::find(name), level.as_str().and_then(Level::parse)) {
                    (Some(rule), Some(level)) => s.levels.push((rule, level)),
                    _ => eprintln!("utf8lint lsp: settings: lints.{name} = {level} ignored"),
                }
            }
        }
        if let Some(bom) = obj.get("bom").and_then(Value::as_object) {
            for (glob, policy) in bom {
                let matcher = Glob::new(glob).map(|g| g.compile_matcher());
                match (matcher, policy.as_str().and_then(BomPolicy::parse)) {
                    (Ok(m), Some(p)) => s.bom.push((glob.clone(), m, p)),
                    _ => eprintln!("utf8lint lsp: settings: bom.{glob} = {policy} ignored"),
                }
            }
        }
        s.max_per_rule = obj
            .get("max-per-file")
            .or_else(|| obj.get("maxPerFile"))
            .and_then(Value::as_u64)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        s.skip_binary = obj.get("skip-binary").or_else(|| obj.get("skipBinary")).and_then(Value::as_bool);
        s.workspace_scan = obj
            .get("workspace-scan")
            .or_else(|| obj.get("workspaceScan"))
            .and_then(Value::as_bool);
        s
    }

    /// Whether binary files are skipped.
    pub fn skip_binary(&self) -> bool {
        self.skip_binary.unwrap_or(true)
    }

    /// The policy for the file at `path` (`None` for untitled documents).
    pub fn policy_for(&self, path: Option<&Path>) -> Policy {
        let mut policy = Policy::default();
        for &(rule, level) in &self.levels {
            policy.levels.set(rule, level);
        }
        if let Some(max) = self.max_per_rule {
            policy.max_per_rule = max;
        }
        if let Some(path) = path {
            let name = path.file_name().map(Path::new);
            // The last matching glob wins, as in utf8lint.toml.
            for (glob, matcher, bom) in self.bom.iter().rev() {
                if matcher.is_match(path) || name.is_some_and(|n| matcher.is_match(n)) {
                    policy.bom = Some(BomRule {
                        policy: *bom,
                        source: PolicySource::CommandLine {
                            flag: format!("editor setting utf8lint.bom[\"{glob}\"]"),
                        },
                    });
                    break;
                }
            }
        }
        policy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_map_to_a_policy() {
        let s = Settings::from_json(&serde_json::json!({
            "lints": {"stray_feff": "deny", "U001": "allow", "nope": "warn"},
            "bom": {"*.csv": "require", "[": "forbid"},
            "max-per-file": 3,
            "workspace-scan": false
        }));
        let p = s.policy_for(Some(Path::new("/w/data.csv")));
        assert_eq!(p.levels.get(Rule::StrayFeff), Level::Deny);
        assert_eq!(p.levels.get(Rule::InvalidUtf8), Level::Allow);
        assert_eq!(p.max_per_rule, 3);
        assert_eq!(p.bom.unwrap().policy, BomPolicy::Require);
        assert!(s.policy_for(Some(Path::new("a.txt"))).bom.is_none());
        assert_eq!(s.workspace_scan, Some(false));
        assert!(Settings::from_json(&serde_json::json!(7)).levels.is_empty());
    }
}
