//! `utf8lint.toml`: lint levels (for all files and per glob), BOM policy per glob, the diagnostics cap,
//! the binary-skip switch, read through the one settings schema
//! (`settings.rs`). Strict: an unknown key or value is an error that names
//! the file, the line and the key.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use utf8lint_diagnostics::{BomPolicy, Level, Rule};

use crate::ConfigError;
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

/// A glob as `.gitignore` reads one: without a `/` it matches a file name in
/// any directory; with one, a path relative to the file that holds it.
///
/// globset parses it and writes its regular expression; the expression is
/// compiled here, with globset's limits, because globset's own matcher
/// panics on one that does not compile (400 nested braces exceed the
/// parser's nesting limit): here that is an error naming the glob.
#[derive(Clone, Debug)]
pub struct PathGlob {
    matcher: GlobMatcher,
    basename_only: bool,
}

/// How a [`PathGlob`] is matched.
#[derive(Clone, Debug)]
enum GlobMatcher {
    /// Literal text and single `*`s, nothing else (`*.txt`, `docs/*.md`,
    /// `vendor`): matched component by component without a regular
    /// expression, which costs 30 us to compile and kilobytes to keep (a
    /// configuration may have 100,000 of them).
    Simple(Box<[u8]>),
    Regex(regex_automata::meta::Regex),
}

/// globset's limit on a compiled glob.
const GLOB_SIZE_LIMIT: usize = 10 << 20;

impl PathGlob {
    /// Compiles `pattern`; the error says why it is not a glob utf8lint
    /// can use.
    pub(crate) fn new(pattern: &str) -> Result<PathGlob, String> {
        let trimmed = pattern.strip_prefix('/').unwrap_or(pattern);
        // `vendor/` names a directory, as in .gitignore; matched as its path.
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        let basename_only = !pattern.contains('/');
        let matcher = if is_simple(trimmed) {
            GlobMatcher::Simple(trimmed.as_bytes().into())
        } else {
            let glob = globset::GlobBuilder::new(trimmed)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| e.kind().to_string())?;
            GlobMatcher::Regex(compile_glob_regex(glob.regex())?)
        };
        Ok(PathGlob {
            matcher,
            basename_only,
        })
    }

    pub(crate) fn matches(&self, relative: &Path) -> bool {
        if self.basename_only {
            relative
                .file_name()
                .is_some_and(|name| self.matches_bytes(&path_bytes(Path::new(name))))
        } else {
            self.matches_bytes(&path_bytes(relative))
        }
    }

    fn matches_bytes(&self, path: &[u8]) -> bool {
        match &self.matcher {
            GlobMatcher::Regex(regex) => regex.is_match(path),
            GlobMatcher::Simple(glob) => {
                // `*` never matches `/` (`literal_separator`): the same
                // number of components, each matching its own.
                let mut globs = glob.split(|&b| b == b'/');
                let mut parts = path.split(|&b| b == b'/');
                loop {
                    match (globs.next(), parts.next()) {
                        (None, None) => return true,
                        (Some(g), Some(p)) if star_match(g, p) => {}
                        _ => return false,
                    }
                }
            }
        }
    }
}

/// Whether `glob` is only literal text and single `*`s, which
/// [`GlobMatcher::Simple`] matches as globset would.
fn is_simple(glob: &str) -> bool {
    !glob.contains("**")
        && !glob
            .bytes()
            .any(|b| matches!(b, b'?' | b'[' | b']' | b'{' | b'}' | b'\\'))
}

/// Whether `text` matches `glob`, whose only special byte is `*` (any run
/// of bytes): the linear wildcard match that backs up to the last `*`.
fn star_match(glob: &[u8], text: &[u8]) -> bool {
    let (mut g, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match glob.get(g) {
            Some(b'*') => {
                star = Some((g, t));
                g += 1;
            }
            Some(&b) if b == text[t] => {
                g += 1;
                t += 1;
            }
            _ => match star {
                Some((star_g, star_t)) => {
                    star = Some((star_g, star_t + 1));
                    g = star_g + 1;
                    t = star_t + 1;
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|&b| b == b'*')
}

/// A glob's regular expression compiled as globset compiles it (bytes,
/// `.` matching a newline, its size limits), or why it cannot be.
pub(crate) fn compile_glob_regex(regex: &str) -> Result<regex_automata::meta::Regex, String> {
    compile_regex(regex, false)
}

/// [`compile_glob_regex`], with capture groups when `captures`.
pub(crate) fn compile_regex(
    regex: &str,
    captures: bool,
) -> Result<regex_automata::meta::Regex, String> {
    use regex_automata::meta::Regex;
    use regex_automata::nfa::thompson::WhichCaptures;
    let syntax = regex_automata::util::syntax::Config::new()
        .utf8(false)
        .dot_matches_new_line(true);
    // Only whether it matches is asked: no capture states, no one-pass
    // or backtracking engines (a configuration may have 100,000 globs,
    // each kept compiled).
    let config = Regex::config()
        .which_captures(if captures {
            WhichCaptures::All
        } else {
            WhichCaptures::None
        })
        .onepass(false)
        .backtrack(false)
        .utf8_empty(false)
        .nfa_size_limit(Some(GLOB_SIZE_LIMIT))
        .hybrid_cache_capacity(GLOB_SIZE_LIMIT);
    Regex::builder()
        .syntax(syntax)
        .configure(config)
        .build(regex)
        .map_err(|e| {
            // The parser's own words quote the whole expression: say what
            // is wrong in a bounded sentence instead.
            if e.size_limit().is_some() {
                "too large once compiled (over 10 MiB): simplify it".to_owned()
            } else {
                "too complex to compile (nested too deeply or too large): simplify it".to_owned()
            }
        })
}

/// A path's bytes as a glob sees them: on Unix the bytes themselves;
/// elsewhere its text with `/` separators, as globset reads it.
#[cfg(unix)]
pub(crate) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Borrowed(path.as_os_str().as_encoded_bytes())
}

#[cfg(not(unix))]
pub(crate) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Owned(path.to_string_lossy().replace('\\', "/").into_bytes())
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
    let mut exclude = Vec::new();
    for glob in settings.exclude.iter().flatten() {
        let matcher = PathGlob::new(glob).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            line: Some(lines.get(None, "exclude")),
            key: Some(format!("exclude: {}", crate::shorten(glob))),
            message: format!("not a valid glob: {e}"),
        })?;
        exclude.push((glob.clone(), matcher));
    }
    Ok(ConfigFile {
        exclude,
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
    fn simple_globs_match_as_globset_does() {
        let globs = [
            "*.txt",
            "a*",
            "*",
            "a*b*c",
            "docs/*.md",
            "*/x",
            "a/*/x.txt",
            "vendor",
            "*a*",
            "x*y",
            "*.tar.gz",
            "a/b",
            "**",
            "a/**/b",
            "?.txt",
            "[ab].c",
            "{a,b}.c",
        ];
        let paths = [
            "a.txt",
            "b/a.txt",
            "abc",
            "aXbYc",
            "acb",
            "docs/r.md",
            "docs/x/r.md",
            "q/x",
            "x",
            "a/b/x.txt",
            "a/b/c/x.txt",
            "vendor",
            "vendor/x",
            "banana",
            "xy",
            "xay",
            "x.tar.gz",
            "a/b",
            "",
            "a",
            "a/c/b",
            "z.txt",
            "a.c",
            ".txt",
            "a/",
            "/a",
        ];
        for glob in globs {
            let built = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .unwrap()
                .compile_matcher();
            let ours = PathGlob {
                matcher: GlobMatcher::Regex(
                    compile_glob_regex(
                        globset::GlobBuilder::new(glob)
                            .literal_separator(true)
                            .backslash_escape(true)
                            .build()
                            .unwrap()
                            .regex(),
                    )
                    .unwrap(),
                ),
                basename_only: false,
            };
            let simple = is_simple(glob).then(|| PathGlob {
                matcher: GlobMatcher::Simple(glob.as_bytes().into()),
                basename_only: false,
            });
            for path in paths {
                let expected = built.is_match(path);
                assert_eq!(
                    ours.matches_bytes(path.as_bytes()),
                    expected,
                    "{glob} {path}"
                );
                if let Some(simple) = &simple {
                    assert_eq!(
                        simple.matches_bytes(path.as_bytes()),
                        expected,
                        "{glob} {path}"
                    );
                }
            }
        }
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
