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
    /// Settings over a lenient resolver: a glob that does not compile is
    /// logged and left out, and a broken configuration file gives the files
    /// it governs the fallback settings (built-in rules and these settings
    /// alone), logged once.
    fn new(overrides: Overrides, workspace_scan: Option<bool>) -> Settings {
        let resolver = Resolver::lenient(overrides.clone());
        for note in resolver.take_notes() {
            tracing::warn!("settings: {note}");
        }
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

    /// The resolver, for the pipeline (`utf8lint_workspace::read_and_check`).
    pub(crate) fn resolver(&self) -> &Resolver {
        &self.resolver
    }

    /// Logs the configuration files the resolver ignored or fell back from
    /// since the last call.
    pub(crate) fn log_notes(&self) {
        for note in self.resolver.take_notes() {
            tracing::warn!("configuration: {note}");
        }
    }

    /// The policy for the file at `path` (`None` for untitled documents,
    /// which get the workspace's configuration).
    pub(crate) fn policy_for(&self, path: Option<&Path>) -> Policy {
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
        self.log_notes();
        // A lenient resolver answers with the fallback settings itself.
        resolved
            .unwrap_or_else(|_| self.resolver.fallback(&path))
            .policy
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
