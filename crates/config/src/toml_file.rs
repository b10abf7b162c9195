//! `utf8lint.toml`: lint levels (for all files and per glob), BOM policy per glob, the diagnostics cap,
//! the binary-skip switch, read through the one settings schema
//! (`settings.rs`). Strict: an unknown key or value is an error that names
//! the file, the line and the key.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use utf8lint_diagnostics::{BomPolicy, Level, Rule};

use crate::error::ConfigError;
use crate::glob::PathGlob;
use crate::settings::{LineIndex, parse_toml};

/// The name of the configuration file.
pub const CONFIG_FILE_NAME: &str = "utf8lint.toml";

/// A parsed `utf8lint.toml`.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// `max-per-file`, and its line.
    pub max_per_rule: Option<(usize, usize)>,
    /// `skip-binary`.
    pub skip_binary: Option<bool>,
    /// `[lints]`, in file order, with lines.
    pub lints: Vec<(Rule, Level, usize)>,
    /// `[bom]`, in file order: the last entry that matches a file wins.
    pub bom: Vec<BomEntry>,
    /// `[per-file-lints]`, in file order: every entry that matches a file
    /// applies, after `[lints]`, so a later one wins over an earlier one.
    pub per_file: Vec<PerFileEntry>,
    /// `root = true`: the `utf8lint.toml` files above do not apply.
    pub root: bool,
    /// `exclude`: each glob as written, compiled.
    pub exclude: Vec<(String, PathGlob)>,
    /// `agent-instructions`: each glob as written, compiled.
    pub agent_instructions: Vec<(String, PathGlob)>,
}

impl ConfigFile {
    /// The `exclude` glob that matches `relative` (a path relative to the
    /// file's directory) or a directory it is in.
    pub fn excludes(&self, relative: &Path) -> Option<&str> {
        self.exclude.iter().find_map(|(glob, matcher)| {
            relative
                .ancestors()
                .filter(|a| !a.as_os_str().is_empty())
                .any(|a| matcher.matches(a))
                .then_some(glob.as_str())
        })
    }

    /// Whether an `agent-instructions` glob matches `relative` (a path
    /// relative to the file's directory) or a directory it is in.
    pub fn instructs(&self, relative: &Path) -> bool {
        self.agent_instructions.iter().any(|(_, matcher)| {
            relative
                .ancestors()
                .filter(|a| !a.as_os_str().is_empty())
                .any(|a| matcher.matches(a))
        })
    }
}

/// One `[per-file-lints]` entry.
#[derive(Clone, Debug)]
pub struct PerFileEntry {
    /// The glob as written.
    pub glob: String,
    /// The levels it sets, in order.
    pub levels: Vec<(Rule, Level)>,
    /// 1-based line.
    pub line: usize,
    matcher: PathGlob,
}

impl PerFileEntry {
    /// Whether the entry applies to `relative` (a path relative to the
    /// configuration file's directory).
    pub fn matches(&self, relative: &Path) -> bool {
        self.matcher.matches(relative)
    }
}

/// One `[bom]` entry.
#[derive(Clone, Debug)]
pub struct BomEntry {
    /// The glob as written.
    pub glob: String,
    /// What it says.
    pub policy: BomPolicy,
    /// 1-based line.
    pub line: usize,
    matcher: PathGlob,
}

impl BomEntry {
    /// Whether the entry applies to `relative` (a path relative to the
    /// configuration file's directory).
    pub fn matches(&self, relative: &Path) -> bool {
        self.matcher.matches(relative)
    }
}

/// Parses the text of a `utf8lint.toml` read from `path`, through the one
/// settings schema ([`crate::settings::Settings`]).
pub fn parse_config(text: &str, path: &Path) -> Result<ConfigFile, ConfigError> {
    let settings = parse_toml(text, path)?;
    // Lines for the notes that cite an entry (`utf8lint.toml:9`): where
    // each key of the parsed document starts.
    let lines = KeyLines::of(text);
    let max_per_rule = settings
        .max_per_file
        .map(|n| (n, lines.get(None, "max-per-file")));
    let lints = settings
        .lints
        .0
        .iter()
        .map(|(rule, level)| {
            // Written as a name or a code: whichever the file has.
            let line = lines
                .find(Some("lints"), rule.0.name())
                .or_else(|| lines.find(Some("lints"), rule.0.code()))
                .unwrap_or(1);
            (rule.0, level.0, line)
        })
        .collect();
    // The globs were compiled as the settings were read.
    let per_file = settings
        .per_file_lints
        .0
        .iter()
        .map(|(glob, levels)| PerFileEntry {
            glob: glob.0.clone(),
            levels: levels.0.clone(),
            line: lines.get(Some("per-file-lints"), &glob.0),
            matcher: glob.1.clone(),
        })
        .collect();
    let bom = settings
        .bom
        .0
        .iter()
        .map(|(glob, policy)| BomEntry {
            glob: glob.0.clone(),
            policy: policy.0,
            line: lines.get(Some("bom"), &glob.0),
            matcher: glob.1.clone(),
        })
        .collect();
    let globs = |key: &str, list: &Option<Vec<String>>| {
        list.iter()
            .flatten()
            .map(|glob| {
                let matcher = PathGlob::new(glob).map_err(|e| ConfigError {
                    path: path.to_path_buf(),
                    line: Some(lines.get(None, key)),
                    key: Some(format!("{key}: {}", crate::error::shorten(glob))),
                    message: format!("not a valid glob: {e}"),
                })?;
                Ok((glob.clone(), matcher))
            })
            .collect::<Result<Vec<_>, ConfigError>>()
    };
    let exclude = globs("exclude", &settings.exclude)?;
    let agent_instructions = globs("agent-instructions", &settings.agent_instructions)?;
    Ok(ConfigFile {
        exclude,
        agent_instructions,
        path: path.to_path_buf(),
        max_per_rule,
        skip_binary: settings.skip_binary,
        lints,
        bom,
        per_file,
        root: settings.root.unwrap_or(false),
    })
}

/// Where each key of a TOML document starts, by table and key (the last
/// one when a key repeats): built and asked in time linear in the text.
struct KeyLines(HashMap<(Option<String>, String), usize>);

impl KeyLines {
    fn of(text: &str) -> KeyLines {
        let mut out = HashMap::new();
        let index = LineIndex::new(text);
        if let Ok(table) = DeTable::parse(text) {
            for (key, value) in table.get_ref() {
                let name: &str = key.get_ref();
                out.insert((None, name.to_owned()), index.line(key.span().start));
                if let DeValue::Table(inner) = value.get_ref() {
                    for (k, _) in inner {
                        let inner_name: &str = k.get_ref();
                        out.insert(
                            (Some(name.to_owned()), inner_name.to_owned()),
                            index.line(k.span().start),
                        );
                    }
                }
            }
        }
        KeyLines(out)
    }

    /// The line of the last `key` in `table` (the one that won).
    fn find(&self, table: Option<&str>, key: &str) -> Option<usize> {
        self.0
            .get(&(table.map(str::to_owned), key.to_owned()))
            .copied()
    }

    /// [`KeyLines::find`], or line 1.
    fn get(&self, table: Option<&str>, key: &str) -> usize {
        self.find(table, key).unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigFile, ConfigError> {
        parse_config(text, Path::new("/p/utf8lint.toml"))
    }

    #[test]
    fn reads_every_key_in_order() {
        let c = parse(
            "max-per-file = 10\nskip-binary = false\n\n[lints]\nstray_feff = \"deny\"\nU001 = \"warn\"\n\n[bom]\n\"*.csv\" = \"require\"\n\"docs/*.txt\" = \"forbid\"\n",
        )
        .unwrap();
        assert_eq!(c.max_per_rule, Some((10, 1)));
        assert_eq!(c.skip_binary, Some(false));
        assert_eq!(
            c.lints,
            vec![
                (Rule::StrayFeff, Level::Deny, 5),
                (Rule::InvalidUtf8, Level::Warn, 6)
            ]
        );
        assert_eq!(c.bom.len(), 2);
        assert_eq!(
            (c.bom[0].glob.as_str(), c.bom[0].policy, c.bom[0].line),
            ("*.csv", BomPolicy::Require, 9)
        );
        assert!(c.bom[0].matches(Path::new("a/b/x.csv")));
        assert!(!c.bom[0].matches(Path::new("a/b/x.csvx")));
        assert!(c.bom[1].matches(Path::new("docs/a.txt")));
        assert!(!c.bom[1].matches(Path::new("docs/sub/a.txt")));
        assert!(!c.bom[1].matches(Path::new("other/docs/a.txt")));
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let e = parse("[lints]\nnot_a_rule = \"deny\"\n").unwrap_err();
        assert_eq!(
            (e.line, e.key.as_deref()),
            (Some(2), Some("lints.not_a_rule"))
        );
        assert_eq!(
            e.to_string(),
            "/p/utf8lint.toml:2: lints.not_a_rule: no rule named `not_a_rule` (see `utf8lint rules`)"
        );
        let e = parse("\n[lints]\ninvalid_utf8 = \"loud\"\n").unwrap_err();
        assert_eq!(
            (e.line, e.key.as_deref()),
            (Some(3), Some("lints.invalid_utf8"))
        );
        let e = parse("[bom]\n\"*.json\" = \"sometimes\"\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse("max-per-file = -1\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("max-per-file"));
        let e = parse("colour = true\n").unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (Some(1), Some("colour")));
        let e = parse("[lints\n").unwrap_err();
        assert_eq!(e.line, Some(1));
        let e = parse("[bom]\n\"[\" = \"forbid\"\n").unwrap_err();
        assert!(e.message.contains("glob"), "{e}");
    }
}
