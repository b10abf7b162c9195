//! `utf8lint.toml`: lint levels (for all files and per glob), BOM policy per glob, the diagnostics cap,
//! the binary-skip switch, read through the one settings schema
//! (`settings.rs`). Strict: an unknown key or value is an error that names
//! the file, the line and the key.

use std::path::{Path, PathBuf};

use utf8lint_diagnostics::{BomPolicy, Level, Rule};

use crate::error::ConfigError;
use crate::glob::PathGlob;
use crate::glob_list::{GlobList, GlobTexts};
use crate::settings::LineIndex;
use crate::toml_reader::read_toml;

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
    pub exclude: GlobList,
    /// `agent-instructions`: each glob as written, compiled.
    pub agent_instructions: GlobList,
}

impl ConfigFile {
    /// The `exclude` glob that matches `relative` (a path relative to the
    /// file's directory) or a directory it is in.
    pub fn excludes(&self, relative: &Path) -> Option<&str> {
        self.exclude.first_covering(relative)
    }

    /// Whether an `agent-instructions` glob matches `relative` (a path
    /// relative to the file's directory) or a directory it is in.
    pub fn instructs(&self, relative: &Path) -> bool {
        self.agent_instructions.first_covering(relative).is_some()
    }
}

/// One `[per-file-lints]` entry.
#[derive(Clone, Debug)]
pub struct PerFileEntry {
    /// The glob, as written and compiled.
    glob: PathGlob,
    /// The levels it sets, in order.
    pub levels: Box<[(Rule, Level)]>,
    /// 1-based line (a configuration file is at most 16 MiB).
    line: u32,
}

impl PerFileEntry {
    /// The glob as written.
    pub fn glob(&self) -> &str {
        self.glob.as_str()
    }

    /// Its 1-based line.
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// Whether the entry applies to `relative` (a path relative to the
    /// configuration file's directory).
    pub fn matches(&self, relative: &Path) -> bool {
        self.glob.matches(relative)
    }
}

/// One `[bom]` entry.
#[derive(Clone, Debug)]
pub struct BomEntry {
    /// The glob, as written and compiled.
    glob: PathGlob,
    /// What it says.
    pub policy: BomPolicy,
    /// 1-based line (a configuration file is at most 16 MiB).
    line: u32,
}

impl BomEntry {
    /// The glob as written.
    pub fn glob(&self) -> &str {
        self.glob.as_str()
    }

    /// Its 1-based line.
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// Whether the entry applies to `relative` (a path relative to the
    /// configuration file's directory).
    pub fn matches(&self, relative: &Path) -> bool {
        self.glob.matches(relative)
    }
}

/// Parses the text of a `utf8lint.toml` read from `path`, through the one
/// settings schema ([`crate::settings::Settings`]).
pub fn parse_config(text: &str, path: &Path) -> Result<ConfigFile, ConfigError> {
    let (settings, offsets) = read_toml(text, path)?;
    // Lines for the notes that cite an entry (`utf8lint.toml:9`): where
    // each key kept was written.
    let index = LineIndex::new(text);
    let line = |offset: usize| index.line(offset);
    let line32 = |offset: u32| u32::try_from(line(offset as usize)).unwrap_or(u32::MAX);
    let max_per_rule = settings
        .max_per_file
        .map(|n| (n, line(offsets.max_per_file)));
    let lints = settings
        .lints
        .0
        .iter()
        .zip(&offsets.lints)
        .map(|((rule, level), &at)| (rule.0, level.0, line(at as usize)))
        .collect();
    // The globs were compiled as the settings were read; moved, not
    // copied.
    let per_file = settings
        .per_file_lints
        .0
        .into_iter()
        .zip(&offsets.per_file)
        .map(|((glob, levels), &at)| PerFileEntry {
            glob: glob.0,
            levels: levels.0.into_boxed_slice(),
            line: line32(at),
        })
        .collect();
    let bom = settings
        .bom
        .0
        .into_iter()
        .zip(&offsets.bom)
        .map(|((glob, policy), &at)| BomEntry {
            glob: glob.0,
            policy: policy.0,
            line: line32(at),
        })
        .collect();
    let globs = |key: &str, at: usize, list: Option<GlobTexts>| {
        GlobList::compile(list.unwrap_or_default()).map_err(|(glob, e)| ConfigError {
            path: path.to_path_buf(),
            line: Some(line(at)),
            key: Some(format!("{key}: {}", crate::error::shorten(&glob))),
            message: format!("not a valid glob: {e}"),
        })
    };
    let exclude = globs("exclude", offsets.exclude, settings.exclude)?;
    let agent_instructions = globs(
        "agent-instructions",
        offsets.agent_instructions,
        settings.agent_instructions,
    )?;
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
            (c.bom[0].glob(), c.bom[0].policy, c.bom[0].line()),
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
