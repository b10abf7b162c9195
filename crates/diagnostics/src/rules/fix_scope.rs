//! Where a fix may touch a character, from the file's path and the
//! character's place: what every rule's fix can promise.
//!
//! * A **data file** ([`data_file`]: test data and expected outputs, Info
//!   files, help files, locale sources, Unicode data files) is read or
//!   compared as it is: no rule offers a fix in it ([`withhold_in_data_files`]).
//! * In **source code of a known language** ([`Lang`]) a control, an
//!   invisible character or a noncharacter outside a string literal may be
//!   syntax (Perl's `s\a...\a`, awk's `FS = "\a"` in a shell script): no
//!   fix. Inside a string literal that reads escapes, the fix writes the
//!   escape the language reads as the same character ([`character_fix`]),
//!   so that the program's value is unchanged and the character shows.
//! * Elsewhere (prose, formats not known here) the rule's own fix stands,
//!   unsafe: deleting or replacing a character can change what a reader
//!   of the text gets.

use std::ops::Range;
use std::path::Path;

use crate::code_syntax::is_markup_named_as_code;
use crate::rules::info;
use crate::{Diagnostic, Edit, Fix};

/// Directory names that hold test data, fixtures and expected outputs
/// (compared byte for byte by the tests that read them), matched without
/// regard to case anywhere in the path as given.
const TEST_DIRS: &[&str] = &[
    "t",
    "test",
    "tests",
    "testdata",
    "test-data",
    "test_data",
    "testsuite",
    "test-suite",
    "testcases",
    "fixture",
    "fixtures",
    "__fixtures__",
    "snapshots",
    "__snapshots__",
    "golden",
    "goldens",
    "expected",
    "testdir",
    // A fuzzer's inputs: bytes chosen to break a parser, never text.
    "fuzz",
    "fuzzing",
    "corpus",
    "corpora",
];

/// Extensions of expected-output files.
const EXPECTED_EXTENSIONS: &[&str] = &["expected", "golden", "snap", "exp", "out", "ok"];

/// Directories of locale sources (glibc's `localedata/locales`, charmaps):
/// their characters are collation elements and mappings.
const LOCALE_DIRS: &[&str] = &["localedata", "locales", "charmaps"];

/// Directories of the Unicode Character Database and its copies.
const UNICODE_DATA_DIRS: &[&str] = &["ucd", "unidata", "unicode-data", "unicodedata"];

/// File names of the Unicode Character Database that list characters by
/// themselves (HANGUL FILLER, tag characters, noncharacters) as data.
const UNICODE_DATA_FILES: &[&str] = &[
    "unicodedata.txt",
    "nameslist.txt",
    "blocks.txt",
    "scripts.txt",
    "proplist.txt",
    "derivedcoreproperties.txt",
    "casefolding.txt",
    "specialcasing.txt",
    "confusables.txt",
    "intentional.txt",
    "emoji-test.txt",
    "emoji-sequences.txt",
    "emoji-zwj-sequences.txt",
    "normalizationtest.txt",
    "graphemebreaktest.txt",
    "wordbreaktest.txt",
    "linebreaktest.txt",
    "sentencebreaktest.txt",
];

/// Why the file at `path` is data that no fix may touch, or `None`.
pub(crate) fn data_file(path: &Path) -> Option<&'static str> {
    let name = lower_name(path);
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    if info::is_file_name(&name) {
        return Some(info::WHY);
    }
    if extension == "hlp" {
        return Some("a help file: its control characters are markup");
    }
    if in_dir(path, LOCALE_DIRS) {
        return Some("a locale source: its characters are collation elements and mappings");
    }
    if in_dir(path, UNICODE_DATA_DIRS) || UNICODE_DATA_FILES.contains(&name.as_str()) {
        return Some("a Unicode data file: the characters it lists are its data");
    }
    if matches!(extension, "patch" | "diff") {
        return Some("a patch: its lines must match the file it applies to, byte for byte");
    }
    if is_test_data(path) {
        return Some("test data: a test reads or compares these bytes as they are");
    }
    None
}

/// Whether the file at `path` is a test's data or a test's own source:
/// in a directory of tests, fixtures or fuzzer inputs, an expected
/// output, or a test file by its name.
pub(crate) fn is_test_data(path: &Path) -> bool {
    let name = lower_name(path);
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    in_dir(path, TEST_DIRS)
        || EXPECTED_EXTENSIONS.contains(&extension)
        || name.contains("expected")
        || is_test_file(&name)
}

/// The file name of `path` in lower case.
fn lower_name(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Whether a directory of `path` (as given) is one of `names`, in any case.
fn in_dir(path: &Path, names: &[&str]) -> bool {
    path.parent()
        .into_iter()
        .flat_map(Path::components)
        .filter_map(|c| c.as_os_str().to_str())
        .any(|d| names.iter().any(|n| d.eq_ignore_ascii_case(n)))
}

/// A test's own source, whose strings are its data: `test_x.py`,
/// `x_test.go`, `tests.py`, `x.test.js`, `x_spec.rb`, Perl's `x.t`; `name`
/// in lower case.
pub(crate) fn is_test_file(name: &str) -> bool {
    let (stem, extension) = name.split_once('.').unwrap_or((name, ""));
    extension == "t"
        || matches!(stem, "test" | "tests")
        || stem.starts_with("test_")
        || ["_test", "_tests", "_spec", "-test", "-spec"]
            .iter()
            .any(|end| stem.ends_with(end))
        || extension.starts_with("test.")
        || extension.starts_with("spec.")
}

/// Settles the fixes of `diagnostics`, found in `bytes` of the file at
/// `path`, by where they are: the rules that ask the path (U002's U+FEFF
/// inside a line, U008 in a gettext catalogue, U014's quotes in code), then no fix at all in a
/// data file. Costs nothing when no finding has a fix.
pub(crate) fn settle(path: &Path, diagnostics: &mut [Diagnostic]) {
    if !diagnostics
        .iter()
        .any(|d| d.fix.is_some() || !d.alternatives.is_empty())
    {
        return;
    }
    // U002's and U008's fixes are scoped as each finding is made
    // (`stray_feff::scope_fix`, `mojibake::scope_fix`), before `Keep::Fixes`
    // merges them.
    withhold_in_data_files(path, diagnostics);
}

/// Every finding's fix (and alternatives) dropped when the file at `path`
/// is data ([`data_file`]), with a note saying why: for every rule, so
/// that test fixtures, Info files and locale sources keep their bytes.
fn withhold_in_data_files(path: &Path, diagnostics: &mut [Diagnostic]) {
    let fixed = |d: &Diagnostic| d.fix.is_some() || !d.alternatives.is_empty();
    let Some(why) = data_file(path) else { return };
    for d in diagnostics.iter_mut().filter(|d| fixed(d)) {
        d.fix = None;
        d.alternatives.clear();
        d.notes.push(format!("no fix: this is {why}"));
    }
}

/// How a language's string literals write a character by its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// `\x07` for ASCII, `\u{200B}` beyond (Rust, JavaScript, PHP, Ruby,
    /// Lua, Zig, Dart).
    Braced,
    /// `\u{7}` for every character (Swift, which has no `\x`).
    BracedOnly,
    /// Perl: `\x07`, `\x{200B}`.
    Perl,
    /// `\x07` for ASCII, `\u200b`, `\U000e0001` beyond (Python, Go).
    Hex4Hex8,
    /// `\u0007`, `\u200B`, `\U000E0001` (C#, whose `\x` takes up to four digits).
    Unicode4Unicode8,
    /// `\u0007`, `\u200B`, a surrogate pair beyond U+FFFF (JSON, Java, Kotlin).
    Utf16,
    /// The UTF-8 bytes in octal, `\342\200\213` (C, C++, Objective-C): the
    /// same bytes whatever the execution character set, and octal escapes
    /// stop after three digits where `\x` would read on.
    OctalBytes,
}

/// A language utf8lint knows the string literals of, or knows to have no
/// escape it handles (shell, awk, m4, make...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lang {
    /// `None`: the language's strings have no escape written here.
    escape: Option<Escape>,
    /// Quotes that open a string reading escapes.
    escaping: &'static [u8],
    /// Quotes that open a string reading none (skipped over).
    verbatim: &'static [u8],
    /// Line comments: a character after one is outside any literal.
    comment: &'static [u8],
}

const fn lang(
    escape: Option<Escape>,
    escaping: &'static [u8],
    verbatim: &'static [u8],
    comment: &'static [u8],
) -> Lang {
    Lang {
        escape,
        escaping,
        verbatim,
        comment,
    }
}

const RUST: Lang = lang(Some(Escape::Braced), b"\"", b"", b"//");
const C: Lang = lang(Some(Escape::OctalBytes), b"\"", b"", b"//");
const PYTHON: Lang = lang(Some(Escape::Hex4Hex8), b"\"'", b"", b"#");
const GO: Lang = lang(Some(Escape::Hex4Hex8), b"\"", b"`", b"//");
const JAVASCRIPT: Lang = lang(Some(Escape::Braced), b"\"'`", b"", b"//");
const JSON: Lang = lang(Some(Escape::Utf16), b"\"", b"", b"");
const JAVA: Lang = lang(Some(Escape::Utf16), b"\"", b"", b"//");
const CSHARP: Lang = lang(Some(Escape::Unicode4Unicode8), b"\"", b"", b"//");
const SWIFT: Lang = lang(Some(Escape::BracedOnly), b"\"", b"", b"//");
const BRACED: Lang = lang(Some(Escape::Braced), b"\"", b"", b"//");
const PERL: Lang = lang(Some(Escape::Perl), b"\"", b"'", b"#");
const PHP: Lang = lang(Some(Escape::Braced), b"\"", b"'", b"//");
const RUBY: Lang = lang(Some(Escape::Braced), b"\"", b"'", b"#");
const LUA: Lang = lang(Some(Escape::Braced), b"\"'", b"", b"--");
/// A gettext catalogue: C strings, `#` comments (obsolete `#~` entries
/// among them, which are not compiled and are left alone).
const GETTEXT: Lang = lang(Some(Escape::OctalBytes), b"\"", b"", b"#");
/// Shell, awk, m4, make, Vim script, Lisp and the rest: code, whose
/// strings' escapes (if any) are not written here.
const NO_ESCAPE: Lang = lang(None, b"", b"", b"");

impl Lang {
    /// The language of the file at `path` (its extension, its name, or a
    /// `#!` line in `bytes`), or `None` for prose and unknown formats.
    pub(crate) fn of(path: &Path, bytes: &[u8]) -> Option<Lang> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // A template (`Makefile.in`, `config.h.in`) is in the language of
        // what it makes.
        let name = name.strip_suffix(".in").unwrap_or(name);
        if name.starts_with("Makefile")
            || matches!(
                name,
                "makefile" | "GNUmakefile" | "configure" | "vimrc" | ".vimrc"
            )
        {
            return Some(NO_ESCAPE);
        }
        match name.rsplit_once('.').map(|(_, e)| e) {
            Some(extension) if is_markup_named_as_code(extension.as_bytes(), bytes) => None,
            Some(extension) => Lang::of_extension(extension),
            None => bytes
                .starts_with(b"#!")
                .then(|| Lang::of_interpreter(bytes)),
        }
    }

    /// Whether the file at `path` is source code (by its extension, unless
    /// `bytes` show it is markup under a language's extension).
    pub(crate) fn is_source(path: &Path, bytes: &[u8]) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .filter(|e| !is_markup_named_as_code(e.as_bytes(), bytes))
            .and_then(Lang::of_extension)
            .is_some_and(|lang| lang != JSON && lang != GETTEXT)
    }

    fn of_extension(extension: &str) -> Option<Lang> {
        Some(match extension {
            "rs" => RUST,
            "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "m" | "mm" => C,
            "py" | "pyi" => PYTHON,
            "go" => GO,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" => JAVASCRIPT,
            "json" => JSON,
            "java" | "kt" | "kts" => JAVA,
            "cs" => CSHARP,
            "swift" => SWIFT,
            "zig" | "dart" => BRACED,
            "pl" | "pm" | "t" => PERL,
            "php" => PHP,
            "rb" => RUBY,
            "lua" => LUA,
            "po" | "pot" => GETTEXT,
            // Yodl's `\x01` markers and the rest: macro languages.
            "yo" | "sh" | "bash" | "zsh" | "ksh" | "awk" | "sed" | "m4" | "ac" | "mk" | "ps1"
            | "vim" | "el" | "hs" | "ml" | "ex" | "exs" | "r" | "sql" | "scala" | "tcl" => {
                NO_ESCAPE
            }
            _ => return None,
        })
    }

    /// The language a `#!` line names (`#!/usr/bin/env python3`,
    /// `#! /bin/sh`): code whatever it is.
    fn of_interpreter(bytes: &[u8]) -> Lang {
        let line = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len()).min(128)];
        let line = String::from_utf8_lossy(line);
        let mut words = line[2..].split_whitespace();
        let mut program = words.next().unwrap_or("").rsplit('/').next().unwrap_or("");
        if program == "env" {
            program = words.find(|w| !w.starts_with('-')).unwrap_or("");
        }
        let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        match program {
            "python" => PYTHON,
            "perl" => PERL,
            "node" | "deno" | "bun" => JAVASCRIPT,
            "ruby" => RUBY,
            "php" => PHP,
            "lua" => LUA,
            _ => NO_ESCAPE,
        }
    }

    /// The escape for `text` inside a string literal opened by a quote
    /// preceded by `prefix` (`r`, `b`, `L`, `@`...), or `None` where the
    /// literal reads no escape or none this can write.
    fn escape(self, prefix: &[u8], text: &str) -> Option<String> {
        let escape = self.escape?;
        let prefix = prefix.to_ascii_lowercase();
        let raw = match escape {
            // Rust `r"`, `br"`; Python `r''`, `rb''`.
            Escape::Braced | Escape::Hex4Hex8 => prefix.contains(&b'r'),
            // C#'s verbatim `@"`.
            Escape::Unicode4Unicode8 => prefix.contains(&b'@'),
            // C's wide and UTF-16/32 literals hold code units, not bytes;
            // C++'s raw `R"(`: only plain and `u8` literals.
            Escape::OctalBytes => !(prefix.is_empty() || prefix == b"u8"),
            _ => false,
        };
        // Rust's and Python's byte strings take `\x` for ASCII only.
        let bytes_only =
            matches!(escape, Escape::Braced | Escape::Hex4Hex8) && prefix.contains(&b'b');
        // `#` before a quote: Rust's `r#"`, Swift's `#"`, C's `#include`.
        if raw || prefix.contains(&b'#') || (bytes_only && !text.is_ascii()) {
            return None;
        }
        let mut out = String::new();
        for c in text.chars() {
            write_escape(&mut out, escape, c);
        }
        Some(out)
    }
}

fn write_escape(out: &mut String, escape: Escape, c: char) {
    use std::fmt::Write;
    let v = u32::from(c);
    let _ = match escape {
        Escape::Braced | Escape::Perl | Escape::Hex4Hex8 if v < 0x80 => write!(out, "\\x{v:02X}"),
        Escape::Braced | Escape::BracedOnly => write!(out, "\\u{{{v:X}}}"),
        Escape::Perl => write!(out, "\\x{{{v:X}}}"),
        Escape::Hex4Hex8 | Escape::Unicode4Unicode8 if v > 0xFFFF => write!(out, "\\U{v:08X}"),
        Escape::Hex4Hex8 | Escape::Unicode4Unicode8 => write!(out, "\\u{v:04X}"),
        Escape::Utf16 => {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04X}");
            }
            Ok(())
        }
        Escape::OctalBytes => {
            let mut utf8 = [0u8; 4];
            for b in c.encode_utf8(&mut utf8).bytes() {
                let _ = write!(out, "\\{b:03o}");
            }
            Ok(())
        }
    };
}

/// How far back on its line a literal is looked for.
const REACH: usize = 4096;

/// The prefix of the string literal of `lang` that `offset` of `bytes` is
/// inside, read from the start of its line (a literal opened on an
/// earlier line is not seen: then it is outside), or `None` when it is
/// outside one, in a verbatim one or after a line comment.
fn literal_prefix(bytes: &[u8], offset: usize, lang: Lang) -> Option<&[u8]> {
    let floor = offset.saturating_sub(REACH);
    // A line longer than the reach is not read from its start, so where its
    // literals are is not known: outside, then.
    let start = match memchr::memrchr(b'\n', &bytes[floor..offset]) {
        Some(k) => floor + k + 1,
        None if floor == 0 => 0,
        None => return None,
    };
    let line = &bytes[start..offset];
    // The open literal: its quote, whether it reads escapes, where it opened.
    let mut open: Option<(u8, bool, usize)> = None;
    let mut k = 0;
    while k < line.len() {
        let b = line[k];
        match open {
            Some((quote, _, _)) if b == quote => open = None,
            Some((_, _, _)) if b == b'\\' => k += 1,
            Some(_) => {}
            None if !lang.comment.is_empty() && line[k..].starts_with(lang.comment) => {
                return None;
            }
            None if lang.escaping.contains(&b) => open = Some((b, true, k)),
            None if lang.verbatim.contains(&b) => open = Some((b, false, k)),
            None => {}
        }
        k += 1;
    }
    let (_, escaping, at) = open?;
    if !escaping {
        return None;
    }
    let prefix_start = line[..at]
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'@' | b'#')))
        .map_or(0, |p| p + 1);
    Some(&line[prefix_start..at])
}

/// Whether the line around `span` names the code point of `c` in hex
/// (`3164;HANGUL FILLER`, `U+E0001`): a table of characters, whose
/// characters are its data.
fn line_names_code_point(bytes: &[u8], span: &Range<usize>, c: char) -> bool {
    let from = span.start.saturating_sub(256);
    let to = (span.end + 256).min(bytes.len());
    let start = memchr::memrchr(b'\n', &bytes[from..span.start]).map_or(from, |k| from + k + 1);
    let end = memchr::memchr(b'\n', &bytes[span.end..to]).map_or(to, |k| span.end + k);
    let code = format!("{:04X}", u32::from(c));
    let line = &bytes[start..end];
    line.windows(code.len()).enumerate().any(|(k, w)| {
        let hex = |b: Option<&u8>| b.is_some_and(u8::is_ascii_hexdigit);
        w.eq_ignore_ascii_case(code.as_bytes())
            && !hex(k.checked_sub(1).and_then(|p| line.get(p)))
            && !hex(line.get(k + code.len()))
    })
}

/// The fix for the character(s) at `span` of `bytes` (well-formed text)
/// that a rule would otherwise fix with `own` (a deletion or a
/// replacement): in code, the escape inside a string literal that reads
/// one, no fix outside; elsewhere `own`. `Err` says why there is none.
pub(crate) fn character_fix(
    bytes: &[u8],
    lang: Option<Lang>,
    span: Range<usize>,
    own: Fix,
) -> Result<Fix, &'static str> {
    let text = std::str::from_utf8(&bytes[span.clone()]).unwrap_or("");
    if text.chars().any(|c| line_names_code_point(bytes, &span, c)) {
        return Err(
            "its line names its code point: a table of characters, whose characters are its data",
        );
    }
    let Some(lang) = lang else { return Ok(own) };
    let Some(prefix) = literal_prefix(bytes, span.start, lang) else {
        return Err("outside a string literal in code it may be syntax or data");
    };
    let escaped = lang
        .escape(prefix, text)
        .ok_or("this string literal reads no escape that can write it")?;
    Ok(Fix::unsafe_(
        format!("write it as the escape `{escaped}`"),
        vec![Edit::replace(span, escaped.into_bytes())],
    ))
}

/// Settles `d`'s fix by [`character_fix`]: the escape, the rule's own fix,
/// or none with a note saying why.
pub(crate) fn scope_character_fix(bytes: &[u8], lang: Option<Lang>, d: &mut Diagnostic) {
    let Some(own) = d.fix.take() else { return };
    match character_fix(bytes, lang, d.span.clone(), own) {
        Ok(fix) => d.fix = Some(fix),
        Err(why) => d.notes.push(format!("no fix: {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix_of(path: &str, text: &str, needle: char) -> Result<Vec<u8>, &'static str> {
        let at = text.find(needle).unwrap();
        let span = at..at + needle.len_utf8();
        let own = Fix::unsafe_("delete", vec![Edit::delete(span.clone())]);
        let lang = Lang::of(Path::new(path), text.as_bytes());
        let fix = character_fix(text.as_bytes(), lang, span, own)?;
        Ok(crate::apply_fixes(text.as_bytes(), [&fix]).bytes)
    }

    #[test]
    fn inside_a_string_literal_the_fix_is_the_languages_escape() {
        for (path, text, fixed) in [
            (
                "a.rs",
                "let s = \"a\u{200B}b\";\n",
                "let s = \"a\\u{200B}b\";\n",
            ),
            ("a.rs", "let s = \"\x07\";\n", "let s = \"\\x07\";\n"),
            ("a.py", "s = 'a\u{E0001}'\n", "s = 'a\\U000E0001'\n"),
            ("a.py", "s = \"\u{85}\"\n", "s = \"\\u0085\"\n"),
            ("a.go", "s := \"\u{85}\"\n", "s := \"\\u0085\"\n"),
            (
                "a.json",
                "{\"k\": \"\u{E0001}\"}\n",
                "{\"k\": \"\\uDB40\\uDC01\"}\n",
            ),
            (
                "a.c",
                "char *s = \"\u{200B}1\";\n",
                "char *s = \"\\342\\200\\2131\";\n",
            ),
            ("a.pl", "print \"\x1F\";\n", "print \"\\x1F\";\n"),
            ("a.pl", "print \"\u{200B}\";\n", "print \"\\x{200B}\";\n"),
            ("a.cs", "var s = \"\x07\";\n", "var s = \"\\u0007\";\n"),
            ("a.swift", "let s = \"\x07\"\n", "let s = \"\\u{7}\"\n"),
            (
                "a.js",
                "const s = `\u{200B}`;\n",
                "const s = `\\u{200B}`;\n",
            ),
            // IRC formatting codes in a catalogue: msgfmt reads the same bytes.
            ("af.po", "msgid \"\x02bold\"\n", "msgid \"\\002bold\"\n"),
        ] {
            let needle = text
                .chars()
                .find(|c| !c.is_ascii_graphic() && *c != ' ')
                .unwrap();
            let got = fix_of(path, text, needle).unwrap();
            assert_eq!(String::from_utf8(got).unwrap(), fixed, "{path}: {text:?}");
        }
    }

    #[test]
    fn outside_a_literal_in_code_or_in_a_verbatim_one_there_is_no_fix() {
        for (path, text, needle) in [
            // Perl's `s\a...\a`: BEL is the substitution's delimiter.
            ("perl5db.pl", "s\x07foo\x07bar\x07;\n", '\x07'),
            // awk in a shell script: a string literal, but shell's.
            (
                "configure",
                "#! /bin/sh\nawk 'BEGIN { FS = \"\x07\" }'\n",
                '\x07',
            ),
            ("a.rs", "let s = r\"\u{200B}\";\n", '\u{200B}'),
            ("a.py", "s = rb'\x07'\n", '\x07'),
            ("a.py", "x = 1  # \"\u{200B}\"\n", '\u{200B}'),
            ("a.go", "s := `\u{200B}`\n", '\u{200B}'),
            ("a.c", "wchar_t *s = L\"\u{200B}\";\n", '\u{200B}'),
            ("a.rb", "s = '\u{200B}'\n", '\u{200B}'),
            ("a.rs", "let a\u{200B}b = 1;\n", '\u{200B}'),
            ("da.po", "#~ \"--compose\u{AD}only\"\n", '\u{AD}'),
            ("doc/zsh.yo", "includefile(Zsh/intro.yo)\x01\n", '\x01'),
            ("Doc/Makefile.in", "all:\x01\n", '\x01'),
        ] {
            assert!(fix_of(path, text, needle).is_err(), "{path}: {text:?}");
        }
    }

    #[test]
    fn a_literal_further_back_than_the_reach_is_not_guessed_at() {
        let zwsp = '\u{200B}';
        let pad = "a".repeat(REACH);
        let long = format!("xx\nlet s = \"{pad}{zwsp}\";\n");
        assert!(fix_of("a.rs", &long, zwsp).is_err());
        let minified = format!("{{\"a\": \"{pad}\", \"b\": \"{zwsp}\"}}");
        assert!(fix_of("a.json", &minified, zwsp).is_err());
        // Within the reach the literal is found.
        assert!(fix_of("a.json", &format!("{{\"b\": \"{zwsp}\"}}"), zwsp).is_ok());
    }

    #[test]
    fn prose_keeps_the_rules_own_fix_unless_the_line_names_the_character() {
        assert_eq!(
            fix_of("notes.md", "a\u{200B}b\n", '\u{200B}').unwrap(),
            b"ab\n"
        );
        assert!(fix_of("notes.txt", "3164;HANGUL FILLER;\u{3164}\n", '\u{3164}').is_err());
        assert!(fix_of("notes.txt", "U+E0001 is \u{E0001}\n", '\u{E0001}').is_err());
    }

    #[test]
    fn data_files_are_known_by_their_path() {
        for path in [
            "tests/fixtures/a.json",
            "src/testdata/x.txt",
            "t/lib/x.pl",
            "iconvdata/TESTS/x",
            "doc/emacs.info",
            "doc/emacs.info-12",
            "lib/mc.hlp",
            "localedata/locales/iso14651_t1_common",
            "data/ucd/Blocks.txt",
            "vendor/UnicodeData.txt",
            "cases/simple.expected",
            "cases/expected_output.txt",
            "debian/patches/CVE-2023-4738.patch",
            "src/testdir/crash/vim_regsub_both",
            "src/pip/_vendor/webencodings/tests.py",
            "pkg/x_test.go",
            "test_codec.py",
            "src/app.test.js",
            "70_rt.t",
        ] {
            assert!(data_file(Path::new(path)).is_some(), "{path}");
        }
        for path in [
            "src/main.rs",
            "README.md",
            "docs/information.md",
            "src/contest/x.py",
            "a.info-x",
        ] {
            assert_eq!(data_file(Path::new(path)), None, "{path}");
        }
    }
}
