//! The `utf8lint` settings section (`workspace/configuration`), with the
//! keys of `utf8lint.toml`, turned into a [`Policy`] per file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use utf8lint_config::{Overrides, Resolver, parse_editor_json};
use utf8lint_diagnostics::Policy;

/// Workspaces whose files add up to more than this are not scanned at
/// start-up unless `workspace-scan` is set to true explicitly.
pub(crate) const SCAN_LIMIT_BYTES: u64 = 256 * 1024 * 1024;

/// At most this many files are scanned at start-up.
pub(crate) const SCAN_LIMIT_FILES: usize = 20_000;

/// The editor's settings for utf8lint, over `utf8lint.toml` and
/// `.editorconfig` (resolved by utf8lint-config, which caches what it reads).
#[derive(Clone)]
pub(crate) struct Settings {
    /// The settings as overrides.
    pub overrides: Overrides,
    /// `workspace-scan`: `None` means on under the size limit.
    pub workspace_scan: Option<bool>,
    resolver: Arc<Resolver>,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("overrides", &self.overrides)
            .field("workspace_scan", &self.workspace_scan)
            .finish_non_exhaustive()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::new(Overrides::default(), None)
    }
}

impl Settings {
    fn new(mut overrides: Overrides, workspace_scan: Option<bool>) -> Settings {
        let resolver = match Resolver::new(overrides.clone()) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(
                    "settings: {e}; the `bom` and `per-file-lints` settings are ignored"
                );
                overrides.bom.clear();
                overrides.per_file_levels.clear();
                match Resolver::new(overrides.clone()) {
                    Ok(r) => r,
                    Err(_) => Resolver::new(Overrides::default())
                        .unwrap_or_else(|_| unreachable!("no globs")),
                }
            }
        };
        Settings {
            overrides,
            workspace_scan,
            resolver: Arc::new(resolver),
        }
    }

    /// Reads the section through the one settings schema
    /// (`utf8lint_config::Settings`, as `utf8lint.toml` is read), leniently:
    /// a bad entry is logged with its key and left out, the rest applies.
    /// `bom` globs with a `/` are anchored at `base_dir`.
    pub(crate) fn from_json(value: &Value, base_dir: Option<PathBuf>) -> Settings {
        let (section, problems) = parse_editor_json(value);
        for problem in problems {
            tracing::warn!("settings: {problem}");
        }
        let overrides = Overrides {
            base_dir,
            origin: Some("editor settings (utf8lint)".into()),
            levels: section.levels().collect(),
            bom: section
                .bom_entries()
                .map(|(glob, policy)| (glob.to_owned(), policy))
                .collect(),
            per_file_levels: section
                .per_file_levels()
                .map(|(glob, levels)| (glob.to_owned(), levels))
                .collect(),
            max_per_rule: section.max_per_file,
            skip_binary: section.skip_binary,
            // A clone opened in an editor trusts only its own configuration.
            trust_all_config: false,
            source: utf8lint_config::ConfigSource::Discover,
        };
        Settings::new(overrides, section.workspace_scan)
    }

    /// Forgets the configuration files read so far (one changed on disk).
    pub(crate) fn clear_cache(&self) {
        self.resolver.clear_cache();
    }

    /// The policy for the file at `path` (`None` for untitled documents,
    /// which get the workspace's configuration) and whether binary files
    /// are skipped. A broken configuration file is logged, and the editor
    /// settings alone apply.
    pub(crate) fn resolve(&self, path: Option<&Path>) -> (Policy, bool) {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => self
                .overrides
                .base_dir
                .clone()
                .unwrap_or_default()
                .join("untitled"),
        };
        let resolved = self.resolver.resolve(&path);
        for note in self.resolver.take_notes() {
            tracing::warn!("configuration: {note}");
        }
        match resolved {
            Ok(file) => (file.policy, file.skip_binary),
            Err(e) => {
                tracing::warn!("configuration: {e}");
                let mut policy = Policy::default();
                for &(rule, level) in &self.overrides.levels {
                    policy.levels.set(rule, level);
                }
                if let Some(max) = self.overrides.max_per_rule {
                    policy.max_per_rule = max;
                }
                (policy, self.overrides.skip_binary.unwrap_or(true))
            }
        }
    }

    /// Whether `exclude` in a `utf8lint.toml` leaves the file at `path` out
    /// of a walk (the workspace scan, as `utf8lint check`); a document the
    /// editor opens is checked all the same, as a file named to the CLI is.
    pub(crate) fn excluded(&self, path: &Path) -> bool {
        self.resolver
            .resolve(path)
            .is_ok_and(|file| file.excluded.is_some())
    }

    /// The policy for the file at `path`.
    pub(crate) fn policy_for(&self, path: Option<&Path>) -> Policy {
        self.resolve(path).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::{BomPolicy, Level, Rule};

    #[test]
    fn settings_map_to_a_policy() {
        let s = Settings::from_json(
            &serde_json::json!({
                "lints": {"stray_feff": "deny", "U001": "allow", "nope": "warn"},
                "bom": {"*.csv": "require", "[": "forbid"},
                "max-per-file": 3,
                "workspace-scan": false
            }),
            None,
        );
        // The bad glob `[` and the unknown rule are dropped; the rest applies.
        let p = s.policy_for(Some(Path::new("/w/data.csv")));
        assert_eq!(p.bom.unwrap().policy, BomPolicy::Require);
        assert_eq!(p.levels.get(Rule::StrayFeff), Level::Deny);
        assert_eq!(s.workspace_scan, Some(false));
        let s = Settings::from_json(
            &serde_json::json!({"bom": {"*.csv": "require"}, "lints": {"stray_feff": "deny", "U001": "allow"}, "max-per-file": 3}),
            None,
        );
        let p = s.policy_for(Some(Path::new("/w/data.csv")));
        assert_eq!(p.levels.get(Rule::StrayFeff), Level::Deny);
        assert_eq!(p.levels.get(Rule::InvalidUtf8), Level::Allow);
        assert_eq!(p.max_per_rule, 3);
        assert_eq!(p.bom.unwrap().policy, BomPolicy::Require);
        assert!(s.policy_for(Some(Path::new("a.txt"))).bom.is_none());
        assert!(
            Settings::from_json(&serde_json::json!(7), None)
                .overrides
                .levels
                .is_empty()
        );
    }
}
