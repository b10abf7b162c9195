//! The settings schema, defined once: the keys of `utf8lint.toml` and of
//! an editor's `utf8lint` settings section are the same serde definition
//! ([`Settings`]), so the file and the editor cannot drift apart. Values
//! are checked while they are read (a rule that exists, a level, a policy,
//! a glob that compiles), so an error names the exact key.
//!
//! `utf8lint.toml` is strict: the first error stops it, with the file, the
//! line and the key. The editor's section is lenient: a bad entry is
//! dropped with a message naming its key, and the rest applies.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use utf8lint_diagnostics::{BomPolicy, Level, Rule};

use crate::glob::PathGlob;
use crate::glob_list::GlobTexts;

/// Every setting, as `utf8lint.toml` and the editor's section spell them
/// (`max-per-file`; editors may also send `maxPerFile`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The per-file, per-rule cap on findings shown (0: no cap).
    #[serde(default, rename = "max-per-file", alias = "maxPerFile")]
    pub max_per_file: Option<usize>,
    /// Skip binary files (default true).
    #[serde(default, rename = "skip-binary", alias = "skipBinary")]
    pub skip_binary: Option<bool>,
    /// The language server's start-up scan: `None` means on under the size
    /// limit. An editor setting: `utf8lint.toml` may not set it.
    #[serde(default, rename = "workspace-scan", alias = "workspaceScan")]
    pub workspace_scan: Option<bool>,
    /// `[lints]`: rule (code or name) = level, in order.
    #[serde(default)]
    pub lints: Entries<RuleKey, LevelValue>,
    /// `[bom]`: glob = policy, in order (the last match wins).
    #[serde(default)]
    pub bom: Entries<GlobKey, PolicyValue>,
    /// `[per-file-lints]`: glob = `{ rule = level }`, or glob = `[rule, ...]`
    /// (ruff's `per-file-ignores`: the rules listed are allowed), in order,
    /// applied after `[lints]` (a later entry wins over an earlier one).
    #[serde(default, rename = "per-file-lints", alias = "perFileLints")]
    pub per_file_lints: Entries<GlobKey, RuleLevels>,
    /// `root = true`: this `utf8lint.toml` does not extend the ones in the
    /// directories above it. Only for `utf8lint.toml`.
    #[serde(default)]
    pub root: Option<bool>,
    /// `exclude = ["vendor/**", "*.min.js"]`: files not checked when the
    /// walk finds them (and, with `--force-exclude`, when named), globs
    /// relative to the file's directory, a directory's glob covering what
    /// is under it. Only for `utf8lint.toml`.
    #[serde(default)]
    pub exclude: Option<GlobTexts>,
    /// `agent-instructions = ["prompts/**/*.md"]`: more files an AI agent
    /// reads as instructions (beside the built-in names, `AGENTS.md`,
    /// `.cursor/rules/`, ...), globs as `exclude`'s. Only for
    /// `utf8lint.toml`.
    #[serde(default, rename = "agent-instructions")]
    pub agent_instructions: Option<GlobTexts>,
    /// `utf8lint.path` and `utf8lint.trace.server`: the VS Code extension's
    /// own settings (which binary to start, protocol tracing). They arrive
    /// in the section the server reads and mean nothing to it.
    #[serde(default, rename = "path")]
    pub client_path: Option<de::IgnoredAny>,
    /// See [`Settings::client_path`].
    #[serde(default)]
    pub trace: Option<de::IgnoredAny>,
}

impl Settings {
    /// The `[lints]` entries.
    pub fn levels(&self) -> impl Iterator<Item = (Rule, Level)> + '_ {
        self.lints.0.iter().map(|(rule, level)| (rule.0, level.0))
    }

    /// The `[per-file-lints]` entries: each glob with its levels.
    pub fn per_file_levels(&self) -> impl Iterator<Item = (&str, Vec<(Rule, Level)>)> + '_ {
        self.per_file_lints
            .0
            .iter()
            .map(|(glob, levels)| (glob.0.as_str(), levels.0.clone()))
    }

    /// The `[bom]` entries.
    pub fn bom_entries(&self) -> impl Iterator<Item = (&str, BomPolicy)> + '_ {
        self.bom
            .0
            .iter()
            .map(|(glob, policy)| (glob.0.as_str(), policy.0))
    }
}

/// A table read in order, as a list of entries (TOML tables and JSON
/// objects both keep their order here; the last entry for a key wins).
#[derive(Clone, Debug)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Entries<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Ordered<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Ordered<K, V> {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key()? {
                    entries.push((key, map.next_value()?));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Ordered(PhantomData))
    }
}

/// Deserializes a string and turns it into `T`, or fails with `message`.
fn parsed<'de, D, T>(
    deserializer: D,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    parse(&text).map_err(de::Error::custom)
}

/// A rule named by code (`U001`) or name (`invalid_utf8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleKey(pub Rule);

impl<'de> Deserialize<'de> for RuleKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parsed(deserializer, |name| {
            Rule::find(name)
                .map(RuleKey)
                .ok_or_else(|| format!("no rule named `{name}` (see `utf8lint rules`)"))
        })
    }
}

/// `"allow"`, `"warn"` or `"deny"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelValue(pub Level);

impl<'de> Deserialize<'de> for LevelValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parsed(deserializer, |text| {
            Level::parse_or_explain(text).map(LevelValue)
        })
    }
}

/// One `[per-file-lints]` value: a table of rule = level, or a list of
/// rules, each then allowed (ruff's `per-file-ignores` form).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleLevels(pub Vec<(Rule, Level)>);

impl<'de> Deserialize<'de> for RuleLevels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A visitor of its own rather than an untagged enum: serde's
        // untagged errors say only "did not match any variant", where this
        // names the rule or level that is wrong.
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = RuleLevels;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of rule = level, or a list of rules to allow")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(rule) = map.next_key::<RuleKey>()? {
                    let level: LevelValue = map.next_value()?;
                    out.push((rule.0, level.0));
                }
                Ok(RuleLevels(out))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(rule) = seq.next_element::<RuleKey>()? {
                    out.push((rule.0, Level::Allow));
                }
                Ok(RuleLevels(out))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

/// `"forbid"`, `"allow"`, `"require"` or `"require-unless-ascii"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyValue(pub BomPolicy);

impl<'de> Deserialize<'de> for PolicyValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parsed(deserializer, |text| {
            BomPolicy::parse(text).map(PolicyValue).ok_or_else(|| {
                "must be \"forbid\", \"allow\", \"require\" or \"require-unless-ascii\"".to_owned()
            })
        })
    }
}

/// A glob that compiles (as `.gitignore` reads one), compiled once.
#[derive(Clone, Debug)]
pub struct GlobKey(pub(crate) PathGlob);

impl PartialEq for GlobKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl Eq for GlobKey {}

impl<'de> Deserialize<'de> for GlobKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        parsed(deserializer, |glob| {
            PathGlob::new(glob)
                .map(GlobKey)
                .map_err(|e| format!("not a valid glob: {e}"))
        })
    }
}

/// The key path serde was at when it failed (`lints.not_a_rule`), if any.
fn key_of(path: &serde_path_to_error::Path) -> Option<String> {
    let key = path.to_string();
    (key != ".").then_some(key)
}

/// The 1-based line of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
}

/// The 1-based lines of many offsets of one text, each found in
/// logarithmic time: the line starts are listed once.
pub(crate) struct LineIndex(Vec<usize>);

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        LineIndex(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The 1-based line of byte `offset`.
    pub(crate) fn line(&self, offset: usize) -> usize {
        1 + self.0.partition_point(|&newline| newline < offset)
    }
}

/// Reads an editor's `utf8lint` settings section leniently: each entry
/// that does not fit the schema is left out, with a message naming it
/// (`utf8lint.lints.not_a_rule: no rule named ...`), and the rest applies.
pub fn parse_editor_json(value: &serde_json::Value) -> (Settings, Vec<String>) {
    let mut value = value.clone();
    let mut problems = Vec::new();
    if value.is_null() {
        return (Settings::default(), problems);
    }
    // `root` is about the files above a `utf8lint.toml`: an editor's
    // settings have none. `exclude` is about what the command line checks.
    for (key, why) in [
        ("root", "where it stops the files above from applying"),
        ("exclude", "where it leaves files out of `utf8lint check`"),
        (
            "agent-instructions",
            "beside the files it names, as the command line reads them",
        ),
    ] {
        if let Some(object) = value.as_object_mut()
            && object.shift_remove(key).is_some()
        {
            problems.push(format!(
                "utf8lint.{key}: only for utf8lint.toml, {why} (ignored)"
            ));
        }
    }
    // Each round removes the entry serde stopped at; a section has few.
    for _ in 0..64 {
        match serde_path_to_error::deserialize::<_, Settings>(&value) {
            Ok(settings) => return (settings, problems),
            Err(e) => {
                let segments: Vec<String> = e
                    .path()
                    .iter()
                    .filter_map(|s| match s {
                        serde_path_to_error::Segment::Map { key } => Some(key.clone()),
                        _ => None,
                    })
                    .collect();
                let key = key_of(e.path()).unwrap_or_default();
                problems.push(format!(
                    "utf8lint{}{key}: {} (ignored)",
                    if key.is_empty() { "" } else { "." },
                    e.inner()
                ));
                if !remove_at(&mut value, &segments) {
                    return (Settings::default(), problems);
                }
            }
        }
    }
    (Settings::default(), problems)
}

/// Removes the entry at `path` (object keys) from `value`; false when
/// there is nothing to remove there (the whole value is wrong).
fn remove_at(value: &mut serde_json::Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = value;
    for key in parents {
        match at.get_mut(key) {
            Some(next) => at = next,
            None => return false,
        }
    }
    at.as_object_mut()
        .is_some_and(|object| object.shift_remove(last).is_some())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::toml_reader::parse_toml;
    use serde_json::json;

    #[test]
    fn one_schema_for_the_file_and_the_editor() {
        let file = parse_toml(
            "max-per-file = 3\nskip-binary = false\n[lints]\nstray_feff = \"deny\"\nU001 = \"allow\"\n[bom]\n\"*.csv\" = \"require\"\n[per-file-lints]\n\"t/**\" = { U002 = \"warn\" }\n\"*.po\" = [\"U001\"]\n",
            Path::new("/p/utf8lint.toml"),
        )
        .unwrap();
        let (editor, problems) = parse_editor_json(&json!({
            "maxPerFile": 3, "skip-binary": false,
            "lints": {"stray_feff": "deny", "U001": "allow"},
            "bom": {"*.csv": "require"},
            "perFileLints": {"t/**": {"U002": "warn"}, "*.po": ["U001"]},
        }));
        assert!(problems.is_empty(), "{problems:?}");
        for s in [&file, &editor] {
            assert_eq!(s.max_per_file, Some(3));
            assert_eq!(s.skip_binary, Some(false));
            assert_eq!(
                s.levels().collect::<Vec<_>>(),
                [
                    (Rule::StrayFeff, Level::Deny),
                    (Rule::InvalidUtf8, Level::Allow)
                ]
            );
            assert_eq!(
                s.bom_entries().collect::<Vec<_>>(),
                [("*.csv", BomPolicy::Require)]
            );
            assert_eq!(
                s.per_file_levels().collect::<Vec<_>>(),
                [
                    ("t/**", vec![(Rule::StrayFeff, Level::Warn)]),
                    ("*.po", vec![(Rule::InvalidUtf8, Level::Allow)])
                ]
            );
        }
    }

    #[test]
    fn the_editor_section_drops_bad_entries_and_keeps_the_rest() {
        let (s, problems) = parse_editor_json(&json!({
            "lints": {"not_a_rule": "deny", "U002": "loud", "U001": "deny"},
            "bom": {"[": "forbid", "*.json": "sometimes", "*.txt": "require"},
            "max-per-file": -1,
            "colour": true,
        }));
        assert_eq!(
            s.levels().collect::<Vec<_>>(),
            [(Rule::InvalidUtf8, Level::Deny)]
        );
        assert_eq!(
            s.bom_entries().collect::<Vec<_>>(),
            [("*.txt", BomPolicy::Require)]
        );
        assert_eq!(s.max_per_file, None);
        let all = problems.join("\n");
        for key in [
            "utf8lint.lints.not_a_rule: no rule named",
            "utf8lint.lints.U002: unknown level `loud`: the levels are",
            "utf8lint.bom.[: not a valid glob",
            "utf8lint.bom.*.json: must be",
            "utf8lint.max-per-file:",
            "utf8lint.colour: unknown field",
        ] {
            assert!(all.contains(key), "{key} not in {all}");
        }
        // The extension's own keys are no problem.
        let (_, problems) = parse_editor_json(
            &json!({"path": "/bin/utf8lint", "trace": {"server": "verbose"}, "workspaceScan": true}),
        );
        assert!(problems.is_empty(), "{problems:?}");
        // Keys only for utf8lint.toml are left out with a word why.
        let (s, problems) = parse_editor_json(&json!({"root": true, "exclude": ["x"]}));
        assert_eq!((s.root, s.exclude), (None, None));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[1].starts_with("utf8lint.exclude: only for utf8lint.toml"));
        let (s, problems) = parse_editor_json(&json!(7));
        assert_eq!(s.levels().count(), 0);
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn the_file_may_not_set_an_editor_setting() {
        let e =
            parse_toml("\nworkspace-scan = false\n", Path::new("/p/utf8lint.toml")).unwrap_err();
        assert_eq!(
            (e.line, e.key.as_deref()),
            (Some(2), Some("workspace-scan"))
        );
        let e = parse_toml("path = \"x\"\n", Path::new("/p/utf8lint.toml")).unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (Some(1), Some("path")));
    }
}
