//! `.editorconfig`: the `charset` property, by the EditorConfig
//! specification's rules (ec4rs parses and matches sections), with the file,
//! section and line each value came from.

use std::path::{Path, PathBuf};

use ec4rs::{ConfigParser, Section};

use crate::error::ConfigError;

/// A parsed `.editorconfig`.
#[derive(Clone)]
pub struct EditorConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// `root = true`: files further up are not read.
    pub is_root: bool,
    sections: Vec<EcSection>,
}

/// One section, with what it says of `charset` read once at parse time:
/// a scan asks every file, and building the answer per file (three strings
/// copied) and matching `[*]` with ec4rs's general matcher cost more than
/// the rest of resolving a file's settings.
#[derive(Clone)]
struct EcSection {
    section: Section,
    /// The header as written, e.g. `[*.json]`.
    header: String,
    /// `None` when the section says nothing of `charset`.
    charset: Option<SectionCharset>,
    /// The section's glob is `*`, which matches every path with a last
    /// component: matched without a regular expression.
    every_file: bool,
    /// The section's glob, compiled by the specification's rules (ec4rs
    /// 1.2.0's matcher misses `[a/*/x.txt]` for `a/b/x.txt`); `None` when
    /// the headers could not be lined up with ec4rs's sections, which then
    /// match them.
    glob: Option<crate::ec_glob::EcGlob>,
}

#[derive(Clone)]
enum SectionCharset {
    /// `charset = unset`.
    Unset,
    Set(CharsetSetting),
}

impl std::fmt::Debug for EditorConfigFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditorConfigFile")
            .field("path", &self.path)
            .field("is_root", &self.is_root)
            .field(
                "sections",
                &self.sections.iter().map(|s| &s.header).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// A `charset` value and where it was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharsetSetting {
    /// The value, lowercased: `utf-8`, `utf-8-bom`, `latin1`, ...
    pub value: String,
    /// The `.editorconfig` it came from.
    pub path: PathBuf,
    /// The section header, e.g. `[*.json]`.
    pub section: String,
    /// 1-based line of the property.
    pub line: usize,
}

impl EditorConfigFile {
    /// Parses the text of the `.editorconfig` at `path`.
    pub fn parse(text: &str, path: &Path) -> Result<EditorConfigFile, ConfigError> {
        let err = |line: Option<usize>, message: String| ConfigError {
            path: path.to_path_buf(),
            line,
            key: None,
            message,
        };
        let mut parser = ConfigParser::new_buffered_with_path(text.as_bytes(), Some(path))
            .map_err(|e| err(None, e.to_string()))?;
        let is_root = parser.is_root;
        // Section headers in file order, with their lines, to name them in
        // messages (ec4rs keeps the glob but not the text).
        let headers: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| {
                let t = line.trim();
                (t.starts_with('[') && t.ends_with(']')).then(|| (i + 1, t.to_string()))
            })
            .collect();
        let mut sections = Vec::new();
        // Iterate rather than loop on `has_more()`: in ec4rs 1.2.0 that
        // method returns the end-of-file flag itself, inverted.
        while let Some(section) = parser.next() {
            let section = section.map_err(|e| err(Some(parser.line_no()), e.to_string()))?;
            let header = headers
                .get(sections.len())
                .map(|(_, h)| h.clone())
                .unwrap_or_else(|| "[?]".to_string());
            let raw = section.props().get_raw_for_key("charset");
            let charset = match raw.into_result() {
                Err(false) => None,
                Err(true) => Some(SectionCharset::Unset),
                Ok(value) => Some(SectionCharset::Set(CharsetSetting {
                    value: value.to_ascii_lowercase(),
                    path: path.to_path_buf(),
                    section: header.clone(),
                    line: raw.source().map_or(0, |(_, line)| line),
                })),
            };
            sections.push(EcSection {
                section,
                header,
                charset,
                every_file: false,
                glob: None,
            });
        }
        // The `*` shortcut only where every section's glob is known as
        // ec4rs read it (the same count of headers, in order).
        let globs = section_globs(text);
        if globs.len() == sections.len() {
            for (section, glob) in sections.iter_mut().zip(globs) {
                section.every_file = glob == "*";
                // Only sections that speak of `charset` are ever matched.
                if section.charset.is_some() && !section.every_file {
                    let line = headers
                        .iter()
                        .find(|(_, h)| *h == section.header)
                        .map(|(l, _)| *l);
                    section.glob = Some(crate::ec_glob::EcGlob::new(glob).map_err(|e| {
                        err(
                            line,
                            format!(
                                "section {} is not a glob: {e}",
                                crate::error::shorten(&section.header)
                            ),
                        )
                    })?);
                }
            }
        }
        Ok(EditorConfigFile {
            path: path.to_path_buf(),
            is_root,
            sections,
        })
    }

    /// The last `charset` this file sets for `relative` (a path relative to
    /// this file's directory), by section order.
    pub fn charset_for(&self, relative: &Path) -> Option<&CharsetSetting> {
        // ec4rs matches a section's glob against the path relative to the
        // .editorconfig's directory, as its own ConfigFile does.
        let mut found = None;
        for section in &self.sections {
            // Most sections say nothing of `charset` (indentation, line
            // ends): skip them before the glob match, which a scan would
            // otherwise pay for every file and every section (8% of a
            // whole-tree scan's CPU went to ec4rs's matcher).
            let Some(charset) = &section.charset else {
                continue;
            };
            if !section.applies_to(relative) {
                continue;
            }
            found = match charset {
                SectionCharset::Unset => None,
                SectionCharset::Set(setting) => Some(setting),
            };
        }
        found
    }

    /// Whether a section speaks of `charset` (set or `unset`).
    pub(crate) fn says_charset(&self) -> bool {
        self.sections.iter().any(|s| s.charset.is_some())
    }

    /// Whether [`EditorConfigFile::charset_for`] gives the same answer for
    /// every file of a directory: each section that speaks of `charset`
    /// is `[*]`.
    pub(crate) fn charset_is_per_directory(&self) -> bool {
        self.sections
            .iter()
            .all(|s| s.charset.is_none() || s.every_file)
    }
}

impl EcSection {
    fn applies_to(&self, relative: &Path) -> bool {
        if self.every_file {
            // ec4rs reads `*` as a separator then any run of characters,
            // matched from the path's end: it holds for every path that
            // has a last component (`every_file_is_what_ec4rs_says`).
            relative.components().next_back().is_some()
        } else if let Some(glob) = &self.glob {
            glob.matches(&crate::glob::path_bytes(relative))
        } else {
            self.section.applies_to(relative)
        }
    }
}

/// The glob of each section header of an `.editorconfig`, in order, read as
/// ec4rs 1.2.0's `linereader::parse_line` reads a line (it is private):
/// a byte-order mark dropped from the first line, comment lines skipped, a
/// comment after the closing bracket cut, spaces trimmed, `[...]` non-empty.
fn section_globs(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let is_comment = |c: char| c == ';' || c == '#';
    text.lines()
        .filter_map(|line| {
            let mut l = line.trim_start();
            if l.starts_with(is_comment) {
                return None;
            }
            if let (Some(bracket), Some(comment)) = (l.rfind(']'), l.rfind(is_comment))
                && comment > bracket
            {
                l = &l[..comment];
            }
            l.trim_end()
                .strip_prefix('[')?
                .strip_suffix(']')
                .filter(|glob| !glob.is_empty())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_sections_win_and_sources_are_named() {
        let text = "root = true\n\n[*]\ncharset = utf-8\n\n[*.{csv,ps1}]\ncharset = utf-8-bom\n\n[legacy/**]\ncharset = latin1\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        assert!(file.is_root);
        let c = file.charset_for(Path::new("a/b.txt")).unwrap();
        assert_eq!(
            (c.value.as_str(), c.section.as_str(), c.line),
            ("utf-8", "[*]", 4)
        );
        let c = file.charset_for(Path::new("x.csv")).unwrap();
        assert_eq!(
            (c.value.as_str(), c.section.as_str(), c.line),
            ("utf-8-bom", "[*.{csv,ps1}]", 7)
        );
        let c = file.charset_for(Path::new("legacy/old/f.txt")).unwrap();
        assert_eq!(c.value, "latin1");
        assert_eq!(c.section, "[legacy/**]");
    }

    #[test]
    fn unset_and_missing() {
        let text = "[*]\ncharset = utf-8\n[*.md]\ncharset = unset\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        assert!(!file.is_root);
        assert_eq!(file.charset_for(Path::new("r.md")), None);
        assert!(file.charset_for(Path::new("r.txt")).is_some());
        let empty = EditorConfigFile::parse("", Path::new("/p/.editorconfig")).unwrap();
        assert_eq!(empty.charset_for(Path::new("r.txt")), None);
    }

    /// The `*` shortcut answers as ec4rs's matcher does, on every kind of
    /// path: plain, nested, hidden, not UTF-8, with `.` or `..`, empty.
    #[test]
    fn every_file_is_what_ec4rs_says() {
        let star = Section::new("*");
        let mut paths: Vec<&Path> = [
            "",
            ".",
            "..",
            "/",
            "a",
            ".hidden",
            "a/b.txt",
            "a/b/",
            "a/..",
            "./a",
            "/abs/x.c",
            "a//b",
            "{x}",
            "[y]",
            "a/b/c/d/e/f/g/h.rs",
            "caf\u{e9}",
            "sp ace",
        ]
        .iter()
        .map(Path::new)
        .collect();
        // A name that is not UTF-8 (Unix only: Windows names are UTF-16).
        #[cfg(unix)]
        paths.push(Path::new(
            <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"caf\xE9/\xFF"),
        ));
        let ours = EcSection {
            section: Section::new("x"),
            header: String::new(),
            charset: None,
            every_file: true,
            glob: None,
        };
        for path in paths {
            assert_eq!(ours.applies_to(path), star.applies_to(path), "{path:?}");
        }
    }

    /// The glob cases of EditorConfig's core test suite
    /// (`editorconfig/editorconfig-core-test`, `glob/*.in` and
    /// `glob/CMakeLists.txt`): each section glob with paths (relative to
    /// the `.editorconfig`) it must and must not match.
    const CORE_GLOB_CASES: &[(&str, &[&str], &[&str])] = &[
        // star.in
        ("a*e.c", &["ace.c", "ae.c", "abcde.c"], &["a/e.c"]),
        (
            "Bar/*",
            &["Bar/foo.txt", "Bar/.editorconfig"],
            &["bat/Bar/foo.txt", "bat/Bar/.editorconfig"],
        ),
        ("*", &[".editorconfig", "a/e.c", "x"], &[]),
        // question.in
        ("som?.c", &["some.c"], &["som.c", "something.c", "som/.c"]),
        // brackets.in
        ("[ab].a", &["a.a"], &["c.a"]),
        ("[!ab].b", &["c.b"], &["a.b"]),
        ("[d-g].c", &["f.c"], &["h.c"]),
        ("[!d-g].d", &["h.d"], &["f.d"]),
        ("[abd-g].e", &["e.e"], &["c.e"]),
        ("[-ab].f", &["-.f"], &["c.f"]),
        ("[\\]ab].g", &["].g"], &["c.g"]),
        ("[ab]].g", &["b].g"], &["c].g"]),
        ("[!\\]ab].g", &["c.g"], &["].g"]),
        ("[!ab]].g", &["c].g"], &["a].g"]),
        ("ab[e/]cd.i", &["ab[e/]cd.i"], &["ab/cd.i", "abecd.i"]),
        ("ab[/c", &["ab[/c"], &[]),
        // braces.in
        (
            "*.{py,js,html}",
            &["test.py", "test.js", "test.html"],
            &["test.pyc"],
        ),
        ("{single}.b", &["{single}.b"], &[".b"]),
        ("{}.c", &["{}.c"], &[".c"]),
        ("a{b,c,}.d", &["a.d", "ab.d", "ac.d"], &["a,.d"]),
        ("a{,b,,c,}.e", &["a.e", "ab.e", "ac.e"], &["a,,.e"]),
        ("{.f", &["{.f"], &[".f"]),
        (
            "{word,{also},this}.g",
            &["word.g", "{also}.g", "this.g"],
            &["word,this}.g", "{also,this}.g"],
        ),
        (
            "{{a,b},c}.k",
            &["a.k", "b.k", "c.k"],
            &["{{a,b},c}.k", "{a,b}.k"],
        ),
        (
            "{a,{b,c}}.l",
            &["a.l", "b.l", "c.l"],
            &["{a,{b,c}}.l", "{b,c}.l"],
        ),
        ("{},b}.h", &["{},b}.h"], &["b.h"]),
        (
            "{{,b,c{d}.i",
            &["{{,b,c{d}.i"],
            &["{.i", "b.i", "c{d.i", ".i"],
        ),
        ("{a\\,b,cd}.txt", &["a,b.txt", "cd.txt"], &["a.txt"]),
        ("{e,\\},f}.txt", &["e.txt", "}.txt", "f.txt"], &["g.txt"]),
        ("{g,\\\\,i}.txt", &["g.txt", "\\.txt", "i.txt"], &["h.txt"]),
        (
            "{some,a{*c,b}[ef]}.j",
            &["some.j", "abe.j", "abf.j", "a.cf.j", "ace.j"],
            &["abg.j", "acg.j", "abcg.j", "ae.j", ".j"],
        ),
        (
            "{3..120}",
            &["3", "15", "60", "120"],
            &["1", "5a", "121", "060"],
        ),
        (
            "{aardvark..antelope}",
            &["{aardvark..antelope}"],
            &["a", "aardvark", "agreement", "antelope", "antimatter"],
        ),
        // star_star.in
        (
            "a**z.c",
            &[
                "a/z.c", "amnz.c", "am/nz.c", "a/mnz.c", "amn/z.c", "a/mn/z.c",
            ],
            &[],
        ),
        (
            "b/**z.c",
            &["b/z.c", "b/mnz.c", "b/mn/z.c"],
            &["bmnz.c", "bm/nz.c", "bmn/z.c"],
        ),
        (
            "c**/z.c",
            &["c/z.c", "cmn/z.c", "c/mn/z.c"],
            &["cmnz.c", "cm/nz.c", "c/mnz.c"],
        ),
        (
            "d/**/z.c",
            &["d/z.c", "d/mn/z.c", "d/m/n/z.c"],
            &["dmnz.c", "dm/nz.c", "d/mnz.c", "dmn/z.c"],
        ),
        // utf8char.in
        ("中文.txt", &["中文.txt", "sub/中文.txt"], &["中.txt"]),
        // What EditorConfig's own library applies and ec4rs did not.
        (
            "a/*/x.txt",
            &["a/b/x.txt"],
            &["a/x.txt", "a/b/c/x.txt", "z/a/b/x.txt"],
        ),
    ];

    #[test]
    fn section_globs_match_as_editorconfig_core_tests_say() {
        for (glob, yes, no) in CORE_GLOB_CASES {
            let compiled = crate::ec_glob::EcGlob::new(glob).unwrap();
            for path in *yes {
                assert!(
                    compiled.matches(path.as_bytes()),
                    "[{glob}] must match {path}"
                );
            }
            for path in *no {
                assert!(
                    !compiled.matches(path.as_bytes()),
                    "[{glob}] must not match {path}"
                );
            }
        }
    }

    #[test]
    fn a_section_with_a_slash_applies_below_the_file_s_directory() {
        let text = "[a/*/x.txt]\ncharset = latin1\n[a/**/y.txt]\ncharset = latin1\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        for (path, set) in [
            ("a/b/x.txt", true),
            ("a/b/c/x.txt", false),
            ("a/b/c/y.txt", true),
            ("q/a/b/x.txt", false),
        ] {
            assert_eq!(file.charset_for(Path::new(path)).is_some(), set, "{path}");
        }
        // Braces nested too deeply are an error naming the file and line.
        let deep = format!(
            "[x]\nroot_key = 1\n[{}a{}]\ncharset = utf-8\n",
            "{".repeat(100),
            "}".repeat(100)
        );
        let err = EditorConfigFile::parse(&deep, Path::new("/p/.editorconfig")).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
    }

    /// Headers are found as ec4rs finds sections: a `[*]` header with a
    /// comment after it, a commented-out header, a byte-order mark at the
    /// start; `[ * ]` is not `*`.
    #[test]
    fn section_globs_line_up_with_ec4rs_sections() {
        let text = "\u{FEFF}root = true\n[*] # all\ncharset = utf-8\n; [*.md]\n#[x]\n  [*.{c,h}]  ; c\nindent_size = 4\n[ * ]\ncharset = latin1\n";
        assert_eq!(section_globs(text), ["*", "*.{c,h}", " * "]);
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        let every: Vec<bool> = file.sections.iter().map(|s| s.every_file).collect();
        assert_eq!(every, [true, false, false]);
        assert!(!file.charset_is_per_directory());
        // ` * ` wants a space either side of the name.
        let c = file.charset_for(Path::new("sub/x.c")).unwrap();
        assert_eq!(c.value, "utf-8");
        let c = file.charset_for(Path::new("sub/ x.c ")).unwrap();
        assert_eq!(c.value, "latin1");
        let plain = "[*]\ncharset = utf-8\n[*.md]\nindent_size = 2\n";
        let plain = EditorConfigFile::parse(plain, Path::new("/p/.editorconfig")).unwrap();
        assert!(plain.charset_is_per_directory());
    }
}
