//! `.editorconfig`: the `charset` property, by the EditorConfig
//! specification's rules, with the file, section and line each value came
//! from.
//!
//! Read line by line as ec4rs 1.2.0 reads one (its `linereader`), keeping
//! only what `charset` needs: a file of 300,000 properties in one section
//! costs one pass, where ec4rs's property map inserts each key into a
//! sorted index (quadratic), and a section that says nothing of `charset`
//! is not kept at all.

use std::path::{Path, PathBuf};

use crate::ec_glob::SectionGlob;
use crate::error::ConfigError;

/// A parsed `.editorconfig`.
#[derive(Clone)]
pub struct EditorConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// `root = true`: files further up are not read.
    pub is_root: bool,
    /// The sections that speak of `charset` (set or `unset`), in file
    /// order: no other section can change a file's settings.
    sections: Vec<EcSection>,
}

/// One section that speaks of `charset`.
#[derive(Clone)]
struct EcSection {
    /// The header as read, e.g. `[*.json]`.
    header: Box<str>,
    charset: SectionCharset,
    glob: SectionGlob,
}

/// What a section says of `charset`: the last `charset` line of it wins.
#[derive(Clone)]
enum SectionCharset {
    /// `charset = unset`.
    Unset,
    /// The value, lowercased, and its 1-based line.
    Set(Box<str>, usize),
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharsetSetting<'a> {
    /// The value, lowercased: `utf-8`, `utf-8-bom`, `latin1`, ...
    pub value: &'a str,
    /// The `.editorconfig` it came from.
    pub path: &'a Path,
    /// The section header, e.g. `[*.json]`.
    pub section: &'a str,
    /// 1-based line of the property.
    pub line: usize,
}

/// One line of an `.editorconfig`, as ec4rs's `linereader::parse_line`
/// reads it.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    /// Empty, or a comment.
    Nothing,
    /// `[glob]`: the glob.
    Section(&'a str),
    /// `key = value`, both trimmed.
    Pair(&'a str, &'a str),
}

fn is_comment(c: char) -> bool {
    c == ';' || c == '#'
}

/// `line` read as ec4rs 1.2.0 reads it: a comment line skipped, a comment
/// after a section's closing bracket cut, spaces trimmed, `[...]`
/// non-empty, a pair with a key and a value; anything else is invalid.
fn parse_line(line: &str) -> Result<Line<'_>, ()> {
    let mut l = line.trim_start();
    if l.starts_with(is_comment) {
        return Ok(Line::Nothing);
    }
    if let (Some(bracket), Some(comment)) = (l.rfind(']'), l.rfind(is_comment))
        && comment > bracket
    {
        l = &l[..comment];
    }
    l = l.trim_end();
    if l.is_empty() {
        Ok(Line::Nothing)
    } else if let Some(glob) = l.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        if glob.is_empty() {
            Err(())
        } else {
            Ok(Line::Section(glob))
        }
    } else if let Some((key, value)) = l.split_once('=') {
        let (key, value) = (key.trim_end(), value.trim_start());
        if key.is_empty() || value.is_empty() {
            Err(())
        } else {
            Ok(Line::Pair(key, value))
        }
    } else {
        Err(())
    }
}

/// Whether `key` is `charset` once lowercased (ec4rs lowercases keys with
/// Unicode's rules), without allocating for every key of the file.
fn is_charset_key(key: &str) -> bool {
    key.chars()
        .flat_map(char::to_lowercase)
        .eq("charset".chars())
}

impl EditorConfigFile {
    /// Parses the text of the `.editorconfig` at `path`.
    pub fn parse(text: &str, path: &Path) -> Result<EditorConfigFile, ConfigError> {
        let err = |line: usize, message: String| ConfigError {
            path: path.to_path_buf(),
            line: Some(line),
            key: None,
            message,
        };
        let mut is_root = false;
        let mut sections = Vec::new();
        // The section being read: its glob and header line, and what it
        // says of `charset` so far.
        let mut current: Option<(&str, usize, Option<SectionCharset>)> = None;
        // Lines as `BufRead::read_line` gives them to ec4rs: split at
        // `\n` only, a byte-order mark dropped from the first.
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let number = i + 1;
            match parse_line(line).map_err(|()| err(number, "invalid line".to_owned()))? {
                Line::Nothing => {}
                Line::Section(glob) => {
                    if let Some(done) = current.replace((glob, number, None)) {
                        push_section(&mut sections, done, &err)?;
                    }
                }
                Line::Pair(key, value) => match &mut current {
                    // The preamble: only `root` means something.
                    None => {
                        if key.eq_ignore_ascii_case("root")
                            && let Ok(root) = value.to_ascii_lowercase().parse::<bool>()
                        {
                            is_root = root;
                        }
                    }
                    Some((_, _, charset)) => {
                        if is_charset_key(key) {
                            *charset = Some(if value.eq_ignore_ascii_case("unset") {
                                SectionCharset::Unset
                            } else {
                                SectionCharset::Set(value.to_ascii_lowercase().into(), number)
                            });
                        }
                    }
                },
            }
        }
        if let Some(done) = current {
            push_section(&mut sections, done, &err)?;
        }
        sections.shrink_to_fit();
        Ok(EditorConfigFile {
            path: path.to_path_buf(),
            is_root,
            sections,
        })
    }

    /// The last `charset` this file sets for `relative` (a path relative to
    /// this file's directory), by section order.
    pub fn charset_for(&self, relative: &Path) -> Option<CharsetSetting<'_>> {
        let bytes = crate::glob::path_bytes(relative);
        let mut found = None;
        for section in &self.sections {
            if !section.glob.matches(relative, &bytes) {
                continue;
            }
            found = match &section.charset {
                SectionCharset::Unset => None,
                SectionCharset::Set(value, line) => Some(CharsetSetting {
                    value,
                    path: &self.path,
                    section: &section.header,
                    line: *line,
                }),
            };
        }
        found
    }

    /// Whether a section speaks of `charset` (set or `unset`).
    pub(crate) fn says_charset(&self) -> bool {
        !self.sections.is_empty()
    }

    /// Whether [`EditorConfigFile::charset_for`] gives the same answer for
    /// every file of a directory: each section that speaks of `charset`
    /// is `[*]`.
    pub(crate) fn charset_is_per_directory(&self) -> bool {
        self.sections
            .iter()
            .all(|s| matches!(s.glob, SectionGlob::EveryFile))
    }
}

/// Keeps the section just read (`glob`, its header's line, what it says of
/// `charset`) if it speaks of `charset`, its glob compiled.
fn push_section(
    sections: &mut Vec<EcSection>,
    (glob, line, charset): (&str, usize, Option<SectionCharset>),
    err: &dyn Fn(usize, String) -> ConfigError,
) -> Result<(), ConfigError> {
    let Some(charset) = charset else {
        return Ok(());
    };
    let header = format!("[{glob}]");
    let compiled = SectionGlob::new(glob).map_err(|e| {
        err(
            line,
            format!(
                "section {} is not a glob: {e}",
                crate::error::shorten(&header)
            ),
        )
    })?;
    sections.push(EcSection {
        header: header.into(),
        charset,
        glob: compiled,
    });
    Ok(())
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
        assert_eq!((c.value, c.section, c.line), ("utf-8", "[*]", 4));
        let c = file.charset_for(Path::new("x.csv")).unwrap();
        assert_eq!(
            (c.value, c.section, c.line),
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
        let star = ec4rs::Section::new("*");
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
        let ours = compiled("*");
        assert!(matches!(ours, SectionGlob::EveryFile));
        for path in paths {
            let bytes = crate::glob::path_bytes(path);
            assert_eq!(
                ours.matches(path, &bytes),
                star.applies_to(path),
                "{path:?}"
            );
        }
    }

    /// `glob` compiled as a section's glob.
    fn compiled(glob: &str) -> SectionGlob {
        SectionGlob::new(glob).unwrap()
    }

    fn matches(section: &SectionGlob, path: &str) -> bool {
        section.matches(Path::new(path), path.as_bytes())
    }

    /// Every core glob as a section of one file, each with its own value:
    /// the file answers for each path as the last section whose glob,
    /// alone, matches it.
    #[test]
    fn a_file_s_globs_compiled_together_answer_as_each_alone() {
        let text: String = CORE_GLOB_CASES
            .iter()
            .enumerate()
            .map(|(i, (glob, _, _))| format!("[{glob}]\ncharset = v{i}\n"))
            .collect();
        let file = EditorConfigFile::parse(&text, Path::new("/p/.editorconfig")).unwrap();
        let alone: Vec<_> = CORE_GLOB_CASES
            .iter()
            .map(|(g, _, _)| compiled(g))
            .collect();
        let paths = CORE_GLOB_CASES
            .iter()
            .flat_map(|(_, yes, no)| yes.iter().chain(no.iter()));
        for path in paths {
            let expected = (0..alone.len())
                .rev()
                .find(|&i| matches(&alone[i], path))
                .map(|i| format!("v{i}"));
            let ours = file
                .charset_for(Path::new(path))
                .map(|c| c.value.to_owned());
            assert_eq!(ours, expected, "{path}");
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

    /// Each glob as a regular expression and as [`SectionGlob`] compiles
    /// it (components where it can), on the core suite's paths.
    #[test]
    fn section_globs_match_as_editorconfig_core_tests_say() {
        for (glob, yes, no) in CORE_GLOB_CASES {
            let regex = crate::ec_glob::EcGlob::new(glob).unwrap();
            let section = compiled(glob);
            for (paths, expected) in [(*yes, true), (*no, false)] {
                for path in paths {
                    let bytes = path.as_bytes();
                    assert_eq!(regex.matches(bytes), expected, "[{glob}] and {path}");
                    assert_eq!(matches(&section, path), expected, "[{glob}] and {path}");
                }
            }
        }
    }

    /// Globs of literal text, `*` and `**` are matched by components, and
    /// say what their regular expression says of every path here.
    #[test]
    fn component_globs_match_as_their_regular_expressions() {
        let globs = [
            "*.md",
            "Makefile",
            "docs/*.txt",
            "/docs/*.txt",
            "**/gen/*.rs",
            "/**/gen/*.rs",
            "a/**/b",
            "a/**",
            "**",
            "/**",
            "a//b",
            "x/",
            "*.tar.gz",
            "a*b*c",
            "中文.txt",
            "a,b.txt",
            "a!b-c^d",
        ];
        let paths = [
            "",
            "a.md",
            "x/a.md",
            "x/y/a.md",
            "docs/a.txt",
            "docs/x/a.txt",
            "q/docs/a.txt",
            "gen/x.rs",
            "q/gen/x.rs",
            "q/r/gen/x.rs",
            "gen/x/y.rs",
            "a/b",
            "a/x/b",
            "a/x/y/b",
            "a/",
            "a",
            "ab",
            "a//b",
            "x/",
            "Makefile",
            "sub/Makefile",
            "x.tar.gz",
            "aXbYc",
            "a/bc",
            "中文.txt",
            "sub/中文.txt",
            "a,b.txt",
            "a!b-c^d",
            "/a.md",
            "a/b/",
        ];
        for glob in globs {
            let section = compiled(glob);
            assert!(
                matches!(section, SectionGlob::Components(_)),
                "[{glob}] is matched by components"
            );
            assert_same_as_regex(glob, &section, &paths);
        }
    }

    /// Globs with `{a,b}` choices written out, which must answer as their
    /// regular expression does; those that cannot be are matched as their
    /// translation reads.
    #[test]
    fn choices_written_out_match_as_their_regular_expressions() {
        let written_out = [
            "*.{c,h}",
            "{package.json,.travis.yml}",
            "a{b,c,}.d",
            "a{,b,,c,}.e",
            "{a/b,c}",
            "/{a,b}/*.txt",
            "**/{a,b}.c",
            "{a,b}/**",
            "a/**/{b,c}",
            "{x,y}{1,2}.{c,h}",
            "*{a,b}",
            "{,}",
            "src/{*.rs,*.toml}",
        ];
        let regexes = [
            "x/{**,y}/z",
            "{x/**,y}/z",
            "*{*,a}",
            "{a,b}**",
            "{single}.b",
            "{a,{b,c}}.l",
            "{3..120}",
            "{},b}.h",
            "{a\\,b,cd}.txt",
            "[ab]{c,d}",
            "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}",
        ];
        let paths = [
            "",
            "a.c",
            "x/a.h",
            "a.ch",
            "package.json",
            "sub/.travis.yml",
            "a.d",
            "ab.d",
            "ac.d",
            "a,.d",
            "a.e",
            "ab.e",
            "a/b",
            "c",
            "x/c",
            "a/b/c",
            "a/x.txt",
            "b/x.txt",
            "q/a/x.txt",
            "q/b.c",
            "b.c",
            "a/x",
            "b/x/y",
            "a",
            "b",
            "a/b",
            "a/q/c",
            "x1.c",
            "y2.h",
            "x3.c",
            "za",
            "sub/zb",
            "/",
            "x/",
            "src/a.rs",
            "src/b.toml",
            "x/y/z",
            "x//z",
            "x/z",
            "x/q/z",
            "aa",
            "a**",
            "ab",
            "{single}.b",
            "3",
            "60",
            "{},b}.h",
            "a,b.txt",
            "ac",
            "acegikm",
        ];
        for glob in written_out {
            let section = compiled(glob);
            assert!(
                matches!(section, SectionGlob::AnyOf(_)),
                "[{glob}] has its choices written out"
            );
            assert_same_as_regex(glob, &section, &paths);
        }
        for glob in regexes {
            let section = compiled(glob);
            assert!(
                matches!(section, SectionGlob::Translated(_)),
                "[{glob}] is matched as its translation reads"
            );
        }
    }

    /// Generated globs say what their regular expression says: those with
    /// `?` and classes matched by components, those with negated classes,
    /// nested or unpaired braces and `{n1..n2}` by their translation's
    /// program; on globs and paths made of pieces that meet at every edge
    /// of the syntax (a `]` first, a `-` first or last, a `[` left open, a
    /// non-ASCII character taken by `?` whole or by its first byte, bytes
    /// that are not UTF-8, a number with a sign or a leading zero).
    #[cfg(unix)]
    #[test]
    fn generated_globs_match_as_their_regular_expressions() {
        use std::os::unix::ffi::OsStrExt;
        for glob in [
            "[ab].c",
            "[Mm]akefile",
            "?.txt",
            "docs/[a-c]?/*.md",
            "??",
            "[]a]",
            "a[b",
            "x/[é-ë]",
        ] {
            assert!(
                matches!(compiled(glob), SectionGlob::Components(_)),
                "[{glob}] is matched by components"
            );
        }
        let glob_pieces = [
            "a",
            "b",
            "é",
            "*",
            "?",
            "[ab]",
            "[a-c]",
            "[]a]",
            "[-a]",
            "[a-]",
            "[!a]",
            "[^b]",
            "[",
            "]",
            "/",
            "**",
            ".",
            "[é]",
            "[a-é]",
            "[.-0]",
            "[a-c-e]",
            "[c-a]",
            "[]",
            "[!/]",
            "[!a-c]",
            "[!]a]",
            "{",
            "}",
            ",",
            "{a,b}",
            "{a,{b,c}}",
            "{,a}",
            "{x}",
            "{1..3}",
            "{-2..10}",
            "{1..3}{0..9}",
            "\\",
            "\\{",
            "\\,",
            "/**/",
            "{a,*}",
            "{**,b}",
            "[a--c]",
        ];
        let path_pieces: [&[u8]; 17] = [
            b"a",
            b"b",
            b"c",
            "é".as_bytes(),
            b"/",
            b"-",
            b"]",
            b"[",
            b"\xff",
            b".",
            b"0",
            b"1",
            b"12",
            b"+3",
            b"{",
            b"}",
            b",",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let (mut by_components, mut with_classes, mut translated) = (0, 0, 0);
        for _ in 0..6_000 {
            let glob: String = (0..1 + next(5))
                .map(|_| glob_pieces[next(glob_pieces.len())])
                .collect();
            let regex = crate::ec_glob::EcGlob::new(&glob);
            let section = SectionGlob::new(&glob);
            // Refused by both, or read by both.
            assert_eq!(section.is_ok(), regex.is_ok(), "[{glob}]: {section:?}");
            let (Ok(regex), Ok(section)) = (regex, section) else {
                continue;
            };
            // `*` is read as ec4rs reads it (`every_file_is_what_ec4rs_says`).
            if matches!(section, SectionGlob::EveryFile) {
                continue;
            }
            let components = matches!(section, SectionGlob::Components(_) | SectionGlob::AnyOf(_));
            by_components += usize::from(components);
            with_classes += usize::from(components && glob.contains(['?', '[']));
            translated += usize::from(matches!(section, SectionGlob::Translated(_)));
            for _ in 0..40 {
                let path: Vec<u8> = (0..next(6))
                    .flat_map(|_| path_pieces[next(path_pieces.len())].to_vec())
                    .collect();
                // The expression's `.*` (of `**` and of the anchoring of
                // a glob without `/`) takes no byte that is not UTF-8;
                // components do, as every component glob always has.
                if components
                    && path.contains(&0xFF)
                    && (path.contains(&b'/') || glob.contains("**"))
                {
                    continue;
                }
                let as_path = Path::new(std::ffi::OsStr::from_bytes(&path));
                assert_eq!(
                    section.matches(as_path, &path),
                    regex.matches(&path),
                    "[{glob}] and {:?}",
                    String::from_utf8_lossy(&path)
                );
            }
        }
        assert!(
            by_components > 1_000,
            "{by_components} globs matched by components"
        );
        assert!(
            with_classes > 500,
            "{with_classes} globs with ? or [ matched by components"
        );
        assert!(
            translated > 2_000,
            "{translated} globs matched by their translation's program"
        );
    }

    fn assert_same_as_regex(glob: &str, section: &SectionGlob, paths: &[&str]) {
        let regex = crate::ec_glob::EcGlob::new(glob).unwrap();
        for path in paths {
            assert_eq!(
                matches(section, path),
                regex.matches(path.as_bytes()),
                "[{glob}] and {path:?}"
            );
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
    fn sections_are_read_as_ec4rs_reads_them() {
        let text = "\u{FEFF}root = true\n[*] # all\ncharset = utf-8\n; [*.md]\n#[x]\n  [*.{c,h}]  ; c\nindent_size = 4\n[ * ]\ncharset = latin1\n";
        let file = EditorConfigFile::parse(text, Path::new("/p/.editorconfig")).unwrap();
        assert!(file.is_root);
        // `[*.{c,h}]` says nothing of `charset`: not kept.
        let headers: Vec<&str> = file.sections.iter().map(|s| &*s.header).collect();
        assert_eq!(headers, ["[*]", "[ * ]"]);
        assert!(!file.charset_is_per_directory());
        // ` * ` wants a space either side of the name.
        let c = file.charset_for(Path::new("sub/x.c")).unwrap();
        assert_eq!((c.value, c.section, c.line), ("utf-8", "[*]", 3));
        let c = file.charset_for(Path::new("sub/ x.c ")).unwrap();
        assert_eq!((c.value, c.line), ("latin1", 9));
        let plain = "[*]\ncharset = utf-8\n[*.md]\nindent_size = 2\n";
        let plain = EditorConfigFile::parse(plain, Path::new("/p/.editorconfig")).unwrap();
        assert!(plain.charset_is_per_directory());
    }

    /// What ec4rs 1.2.0 makes of `text`: `root`, and each section's glob
    /// and `charset` (`None`: not said, `Some(None)`: `unset`, else the
    /// value and its line); or the line of its error.
    #[allow(clippy::type_complexity)]
    fn ec4rs_reading(text: &str) -> Result<(bool, Vec<Option<Option<(String, usize)>>>), ()> {
        let parser =
            ec4rs::ConfigParser::new_buffered_with_path(text.as_bytes(), Some(Path::new("/p")))
                .map_err(|_| ())?;
        let root = parser.is_root;
        let mut sections = Vec::new();
        for section in parser {
            let section = section.map_err(|_| ())?;
            let raw = section.props().get_raw_for_key("charset");
            sections.push(match raw.into_result() {
                Err(false) => None,
                Err(true) => Some(None),
                Ok(value) => Some(Some((
                    value.to_ascii_lowercase(),
                    raw.source().map_or(0, |(_, line)| line),
                ))),
            });
        }
        Ok((root, sections))
    }

    /// Ours, in the same terms (sections that say nothing are not kept, so
    /// only those that speak of `charset` are compared).
    #[allow(clippy::type_complexity)]
    fn our_reading(text: &str) -> Result<(bool, Vec<Option<Option<(String, usize)>>>), ()> {
        let file = EditorConfigFile::parse(text, Path::new("/p")).map_err(|_| ())?;
        let sections = file
            .sections
            .iter()
            .map(|s| {
                Some(match &s.charset {
                    SectionCharset::Unset => None,
                    SectionCharset::Set(value, line) => Some((value.to_string(), *line)),
                })
            })
            .collect();
        Ok((file.is_root, sections))
    }

    /// The reading differs from ec4rs's in nothing `charset` depends on:
    /// keys in any case, repeated keys, `unset`, comments, byte-order
    /// marks, carriage returns, invalid lines in the preamble and in a
    /// section.
    #[test]
    fn the_reading_agrees_with_ec4rs() {
        let texts = [
            "",
            "root = true\n",
            "ROOT = TRUE\n[*]\nCharSet = UTF-8\n",
            "root=false\n[*]\ncharset=latin1\ncharset = utf-16le\n",
            "[*]\ncharset = unset\n[*.md]\ncharset = Unset\n",
            "\u{FEFF}root = true\r\n[*]\r\ncharset = utf-8\r\n",
            "root = true # not a comment here\n[*]\ncharset = utf-8 ; nor here\n",
            "; comment\n# comment\n\n   \n[a]\nindent_style = tab\n[b]\ncharset = utf-8\n",
            "[*]\n= utf-8\n",
            "[*]\ncharset =\n",
            "junk\n[*]\ncharset = utf-8\n",
            "[*]\njunk\n",
            "[]\ncharset = utf-8\n",
            "[*]] # x\ncharset = utf-8\n",
            "[[*]\ncharset = utf-8\n",
            "[*]\nchar set = utf-8\n",
            "[*]\n  charset   =   utf-8  \n",
            "[*]\ncharset = utf-8\n[*]\n",
            "root = yes\n[*]\ncharset = utf-8",
            "\n\u{FEFF}[*]\ncharset = utf-8\n",
        ];
        for text in texts {
            let theirs = ec4rs_reading(text).map(|(root, sections)| {
                (
                    root,
                    sections
                        .into_iter()
                        .filter(Option::is_some)
                        .collect::<Vec<_>>(),
                )
            });
            assert_eq!(our_reading(text), theirs, "{text:?}");
            if theirs.is_err() {
                let err = EditorConfigFile::parse(text, Path::new("/p")).unwrap_err();
                assert!(err.line.is_some(), "{err}");
            }
        }
        // One difference: ec4rs drops a byte-order mark from the first line
        // when it reads it, then reads the line again with the mark when
        // it is a section header, and calls that line invalid. The mark is
        // not the file's text: the section is read.
        let text = "\u{FEFF}[*]\ncharset = utf-8\n";
        assert!(ec4rs_reading(text).is_err());
        assert_eq!(
            our_reading(text),
            Ok((false, vec![Some(Some(("utf-8".to_owned(), 2)))]))
        );
    }

    /// The properties of one section are read in one pass and not kept:
    /// 200,000 of them, every key different (ec4rs's sorted index moved
    /// 10^10 entries for them), leave the one `charset`.
    #[test]
    fn many_properties_in_one_section_keep_only_the_charset() {
        let mut text = String::from("[*.txt]\n");
        for i in 0..200_000 {
            text.push_str(&format!("key{i} = value{i}\n"));
        }
        text.push_str("charset = latin1\n");
        let file = EditorConfigFile::parse(&text, Path::new("/p/.editorconfig")).unwrap();
        let c = file.charset_for(Path::new("a.txt")).unwrap();
        assert_eq!((c.value, c.line), ("latin1", 200_002));
        assert_eq!(file.sections.len(), 1);
    }
}
