//! `utf8lint.toml`: lint levels, BOM policy per glob, the diagnostics cap,
//! the binary-skip switch. Strict: an unknown key or value is an error that
//! names the file, the line and the key.

use std::path::{Path, PathBuf};

use globset::GlobMatcher;
use toml::Spanned;
use toml::de::{DeTable, DeValue};
use utf8lint_diagnostics::{BomPolicy, Level, Rule};

use crate::ConfigError;

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

/// A glob as `.gitignore` reads one: without a `/` it matches a file name in
/// any directory; with one, a path relative to the file that holds it.
#[derive(Clone, Debug)]
pub(crate) struct PathGlob {
    matcher: GlobMatcher,
    basename_only: bool,
}

impl PathGlob {
    pub(crate) fn new(pattern: &str) -> Result<PathGlob, globset::Error> {
        let trimmed = pattern.strip_prefix('/').unwrap_or(pattern);
        let basename_only = !pattern.contains('/');
        let glob = globset::GlobBuilder::new(trimmed)
            .literal_separator(true)
            .backslash_escape(true)
            .build()?;
        Ok(PathGlob {
            matcher: glob.compile_matcher(),
            basename_only,
        })
    }

    pub(crate) fn matches(&self, relative: &Path) -> bool {
        if self.basename_only {
            relative
                .file_name()
                .is_some_and(|name| self.matcher.is_match(name))
        } else {
            self.matcher.is_match(relative)
        }
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
}

/// Parses the text of a `utf8lint.toml` read from `path`.
pub fn parse_config(text: &str, path: &Path) -> Result<ConfigFile, ConfigError> {
    let err = |line: Option<usize>, key: Option<&str>, message: String| ConfigError {
        path: path.to_path_buf(),
        line,
        key: key.map(str::to_owned),
        message,
    };
    let table = DeTable::parse(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        err(line, None, e.message().trim().to_string())
    })?;
    let mut config = ConfigFile {
        path: path.to_path_buf(),
        max_per_rule: None,
        skip_binary: None,
        lints: Vec::new(),
        bom: Vec::new(),
    };
    for (key, value) in table.get_ref() {
        let name: &str = key.get_ref();
        let line = line_of(text, key.span().start);
        match name {
            "max-per-file" => match value.get_ref() {
                DeValue::Integer(i) => {
                    let n = i.as_str().replace('_', "").parse::<usize>().map_err(|_| {
                        err(
                            Some(line),
                            Some(name),
                            "must be a whole number, 0 or more (0 means no cap)".into(),
                        )
                    })?;
                    config.max_per_rule = Some((n, line));
                }
                _ => {
                    return Err(err(
                        Some(line),
                        Some(name),
                        "must be a whole number, 0 or more (0 means no cap)".into(),
                    ));
                }
            },
            "skip-binary" => match value.get_ref() {
                DeValue::Boolean(b) => config.skip_binary = Some(*b),
                _ => return Err(err(Some(line), Some(name), "must be true or false".into())),
            },
            "lints" => {
                for (rule_key, level) in sub_table(value, name, line, &err)? {
                    let rule_name: &str = rule_key.get_ref();
                    let line = line_of(text, rule_key.span().start);
                    let key = format!("lints.{rule_name}");
                    let rule = Rule::find(rule_name).ok_or_else(|| {
                        err(
                            Some(line),
                            Some(&key),
                            format!("no rule named `{rule_name}` (see `utf8lint rules`)"),
                        )
                    })?;
                    let level = string(level).and_then(Level::parse).ok_or_else(|| {
                        err(
                            Some(line),
                            Some(&key),
                            "must be \"allow\", \"warn\" or \"deny\"".into(),
                        )
                    })?;
                    config.lints.push((rule, level, line));
                }
            }
            "bom" => {
                for (glob_key, policy) in sub_table(value, name, line, &err)? {
                    let glob: &str = glob_key.get_ref();
                    let line = line_of(text, glob_key.span().start);
                    let key = format!("bom.\"{glob}\"");
                    let policy = string(policy).and_then(BomPolicy::parse).ok_or_else(|| {
                        err(
                            Some(line),
                            Some(&key),
                            "must be \"forbid\", \"allow\" or \"require\"".into(),
                        )
                    })?;
                    let matcher = PathGlob::new(glob).map_err(|e| {
                        err(Some(line), Some(&key), format!("not a valid glob: {e}"))
                    })?;
                    config.bom.push(BomEntry {
                        glob: glob.to_string(),
                        policy,
                        line,
                        matcher,
                    });
                }
            }
            other => {
                return Err(err(
                    Some(line),
                    Some(other),
                    "unknown key (known: max-per-file, skip-binary, [lints], [bom])".into(),
                ));
            }
        }
    }
    Ok(config)
}

/// Builds a [`ConfigError`] for this file from a line, a key and a message.
type MakeError<'f> = dyn Fn(Option<usize>, Option<&str>, String) -> ConfigError + 'f;

type Entries<'a, 'i> = Vec<(
    &'a Spanned<std::borrow::Cow<'i, str>>,
    &'a Spanned<DeValue<'i>>,
)>;

fn sub_table<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    name: &str,
    line: usize,
    err: &MakeError<'_>,
) -> Result<Entries<'a, 'i>, ConfigError> {
    match value.get_ref() {
        DeValue::Table(t) => Ok(t.iter().collect()),
        _ => Err(err(
            Some(line),
            Some(name),
            format!("`{name}` must be a table"),
        )),
    }
}

fn string<'a>(value: &'a Spanned<DeValue<'_>>) -> Option<&'a str> {
    match value.get_ref() {
        DeValue::String(s) => Some(s.as_ref()),
        _ => None,
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
