//! Where a source file's code is, as opposed to its strings and comments,
//! for the languages whose lexers are simple enough to follow exactly: a
//! language by its file name or `#!` line, then the file split into
//! stretches of code, string literal and comment. Rules ask it where a
//! character means something to a compiler (code) and where it is text.
//!
//! The scanners are deliberately small: they know comments, the string
//! and character literals with their escapes and raw forms, JavaScript's
//! regular expression literals (a `/` where an operand starts, by the
//! byte before it), and nothing else of the grammar. What they cannot know
//! (a string inside an f-string's braces) errs toward "string": a rule
//! that reports code only then misses a finding rather than making a
//! false one.

use std::ops::Range;
use std::path::Path;

/// Whether a file whose extension `extension` names a language is XML
/// instead: Qt Linguist's catalogues are `.ts` files that open with
/// `<?xml` or `<!DOCTYPE TS>`, and their translations are text, not
/// TypeScript. A TypeScript file never opens with `<`.
pub(crate) fn is_markup_named_as_code(extension: &[u8], bytes: &[u8]) -> bool {
    let opening = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let opening = opening.trim_ascii_start();
    extension.eq_ignore_ascii_case(b"ts")
        && (opening.starts_with(b"<?xml")
            || opening.starts_with(b"<!DOCTYPE")
            || opening.starts_with(b"<TS"))
}

/// A language the scanner follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    Python,
    Rust,
    Go,
    /// C, C++, Objective-C.
    C,
    Java,
    Kotlin,
    /// JavaScript and TypeScript.
    JavaScript,
    CSharp,
}

impl Language {
    /// The language of the file at `path`, by its extension, or by its
    /// `#!` line for a script without one.
    pub(crate) fn of(path: &Path, bytes: &[u8]) -> Option<Language> {
        let name = path.file_name()?.as_encoded_bytes();
        let extension = name
            .iter()
            .rposition(|&b| b == b'.')
            .filter(|&dot| dot > 0)
            .map(|dot| &name[dot + 1..]);
        match extension {
            Some(e) if is_markup_named_as_code(e, bytes) => None,
            Some(e) => Self::by_extension(e),
            None => Self::by_shebang(bytes),
        }
    }

    fn by_extension(e: &[u8]) -> Option<Language> {
        let is = |names: &[&str]| names.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(e));
        Some(if is(&["py", "pyi", "pyw"]) {
            Language::Python
        } else if is(&["rs"]) {
            Language::Rust
        } else if is(&["go"]) {
            Language::Go
        } else if is(&["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm"]) {
            Language::C
        } else if is(&["java"]) {
            Language::Java
        } else if is(&["kt", "kts"]) {
            Language::Kotlin
        } else if is(&["js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts"]) {
            Language::JavaScript
        } else if is(&["cs"]) {
            Language::CSharp
        } else {
            return None;
        })
    }

    fn by_shebang(bytes: &[u8]) -> Option<Language> {
        let line = bytes.strip_prefix(b"#!")?;
        let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
        let interpreter = line
            .split(|&b| b == b' ' || b == b'/' || b == b'\t')
            .rfind(|word| !word.is_empty() && *word != b"env" && !word.starts_with(b"-"))?;
        if interpreter.starts_with(b"python") {
            Some(Language::Python)
        } else if interpreter == b"node" || interpreter == b"deno" || interpreter == b"bun" {
            Some(Language::JavaScript)
        } else {
            None
        }
    }

    /// The name people use for it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::Go => "Go",
            Language::C => "C",
            Language::Java => "Java",
            Language::Kotlin => "Kotlin",
            Language::JavaScript => "JavaScript",
            Language::CSharp => "C#",
        }
    }

    /// Whether the language reads Unicode space separators (U+00A0,
    /// U+2000..U+200A, U+3000, ...) in code as whitespace, as ECMAScript
    /// (WhiteSpace includes every `Zs`) and C# do; elsewhere they are an
    /// error outside strings and comments.
    pub(crate) fn reads_unicode_spaces(self) -> bool {
        matches!(self, Language::JavaScript | Language::CSharp)
    }

    fn line_comment(self) -> &'static [u8] {
        match self {
            Language::Python => b"#",
            _ => b"//",
        }
    }

    /// The bytes [`non_code`] stops at: every byte [`string_at`],
    /// [`prefixed_string`] and the comment tests can start at.
    fn region_starts(self) -> RegionStarts {
        RegionStarts::of(match self {
            Language::Python => b"\"'#",
            Language::Rust => b"\"'/#",
            Language::Go | Language::JavaScript => b"\"'/`",
            Language::C | Language::Java | Language::Kotlin => b"\"'/",
            Language::CSharp => b"\"'/@",
        })
    }

    fn block_comments(self) -> bool {
        self != Language::Python
    }

    /// Rust and Kotlin block comments nest.
    fn nested_comments(self) -> bool {
        matches!(self, Language::Rust | Language::Kotlin)
    }
}

/// What a stretch of a source file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    Code,
    String,
    Comment,
}

/// The file's stretches that are not code (strings and comments), in
/// order; everything else is code. An unclosed string or comment runs to
/// the end of the file (or, for a one-line string, of its line).
pub(crate) fn non_code(bytes: &[u8], language: Language) -> Vec<(Range<usize>, Region)> {
    let mut out = Vec::new();
    let mut i = 0;
    let n = bytes.len();
    let line_comment = language.line_comment();
    let starts = language.region_starts();
    while i < n {
        // Only a quote, a comment's first byte, C#'s `@` or Rust's `#` can
        // start a string or comment (a prefix such as `r` or `rb` is
        // looked for behind its quote): the bytes between are code.
        let Some(j) = starts.next_from(bytes, i) else {
            break;
        };
        // The identifier that ends at `j` (from `i` at the earliest: what
        // came before was a string or comment), as a string's prefix.
        let word_start = j - bytes[i..j]
            .iter()
            .rev()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
            .count();
        if word_start < j
            && let Some(end) = prefixed_string(bytes, word_start, j, language)
        {
            out.push((word_start..end, Region::String));
            i = end;
            continue;
        }
        i = j;
        if bytes[i..].starts_with(line_comment) {
            let end = line_end(bytes, i);
            out.push((i..end, Region::Comment));
            i = end;
            continue;
        }
        if language.block_comments() && bytes[i..].starts_with(b"/*") {
            let end = block_comment_end(bytes, i, language.nested_comments());
            out.push((i..end, Region::Comment));
            i = end;
            continue;
        }
        if let Some(end) = string_at(bytes, i, language) {
            out.push((i..end, Region::String));
            i = end;
            continue;
        }
        if language == Language::JavaScript
            && let Some(end) = regex_literal(bytes, i)
        {
            // A pattern is text to match, as a string is: `/ئێواره\u{200C}|/`
            // in a locale's parser, `/(de l’)/`.
            out.push((i..end, Region::String));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// The end of the JavaScript regular expression literal that starts at
/// the `/` at `i`, if one does: where an operand can start (after an
/// operator, an opening bracket, `,`, `;`, `:`, at the file's start, or
/// after a keyword such as `return`), not after an operand (`a / b`,
/// `f(x) / 2`, where it divides). The literal ends at the next `/` on its
/// line outside a class `[...]` and not escaped, then its flags; with
/// none, the `/` is no literal.
fn regex_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let before = &bytes[..i];
    let last = before.iter().rposition(|b| !b.is_ascii_whitespace());
    let operand_starts = match last.map(|k| before[k]) {
        None => true,
        Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$') => {
            let k = last.unwrap_or(0);
            let word_start = before[..=k]
                .iter()
                .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$')))
                .map_or(0, |s| s + 1);
            REGEX_KEYWORDS.contains(&&before[word_start..=k])
        }
        Some(b) => b"(,=:[!&|?{};+-*%<>~^".contains(&b),
    };
    if !operand_starts {
        return None;
    }
    let mut k = i + 1;
    let mut in_class = false;
    while let Some(&b) = bytes.get(k) {
        match b {
            b'\n' | b'\r' => return None,
            b'\\' => k += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                let flags = bytes[k + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                return (k > i + 1).then_some(k + 1 + flags);
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The keywords after which a `/` starts a regular expression literal.
const REGEX_KEYWORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"case",
    b"do",
    b"else",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"instanceof",
    b"yield",
    b"await",
];

/// Whether the byte at `at` is in a string or comment, judged by its line
/// alone (`false`: only [`non_code`] can tell): the line's first byte that
/// can start a string or comment opens a line comment before `at`, and
/// nothing between the line's start and `at` can end a string or block
/// comment. Either the line starts in code, and then the comment runs to
/// its end; or it starts inside a string or block comment, which then
/// still holds `at`. What can end one: a quote of the language, `*/`, a
/// `'` that closes a one-line string carried over by a backslash before
/// the line break, `''` of a Python `'''`.
pub(crate) fn in_string_or_comment_by_its_line(
    bytes: &[u8],
    at: usize,
    language: Language,
) -> bool {
    let Some(before) = bytes.get(..at) else {
        return false;
    };
    let start = memchr::memrchr(b'\n', before).map_or(0, |k| k + 1);
    let line = &before[start..];
    let carried_over = start >= 2 && bytes[start - 2] == b'\\';
    let starts = language.region_starts();
    let opens_comment = line
        .iter()
        .position(|&b| starts.table[usize::from(b)])
        .is_some_and(|k| line[k..].starts_with(language.line_comment()));
    let backtick_quotes = matches!(language, Language::Go | Language::JavaScript);
    let mut previous = 0u8;
    let may_end_one = line.iter().any(|&b| {
        let ends = match b {
            b'"' => true,
            b'`' => backtick_quotes,
            b'/' => previous == b'*',
            b'\'' => previous == b'\'',
            _ => false,
        };
        previous = b;
        ends
    });
    opens_comment && !carried_over && !may_end_one
}

/// The bytes that can start a string or a comment in a language (or end
/// a string prefix: Rust's `r#"`), found three at a time by `memchr3`
/// where there are three, else by a table.
struct RegionStarts {
    few: Option<[u8; 3]>,
    table: [bool; 256],
}

impl RegionStarts {
    fn of(bytes: &[u8]) -> RegionStarts {
        let mut table = [false; 256];
        for &b in bytes {
            table[usize::from(b)] = true;
        }
        RegionStarts {
            few: <[u8; 3]>::try_from(bytes).ok(),
            table,
        }
    }

    fn next_from(&self, bytes: &[u8], from: usize) -> Option<usize> {
        let rest = &bytes[from..];
        let at = match self.few {
            Some([a, b, c]) => memchr::memchr3(a, b, c, rest),
            None => rest.iter().position(|&b| self.table[usize::from(b)]),
        };
        at.map(|k| from + k)
    }
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |k| from + k)
}

fn block_comment_end(bytes: &[u8], start: usize, nested: bool) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < bytes.len() {
        // Only a `/` or `*` opens or closes one: the bytes between are
        // passed over by `memchr2`.
        let Some(k) = memchr::memchr2(b'/', b'*', &bytes[i..bytes.len() - 1]) else {
            break;
        };
        i += k;
        if bytes[i] == b'/' && bytes[i + 1] == b'*' && (nested || depth == 0) {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// A string that starts at `i` with a quote (no prefix): its end.
fn string_at(bytes: &[u8], i: usize, language: Language) -> Option<usize> {
    let q = bytes[i];
    match (language, q) {
        (Language::Python, b'"' | b'\'') => Some(python_string(bytes, i)),
        (Language::Go, b'`') => Some(until(bytes, i + 1, b"`", None)),
        (Language::JavaScript, b'`') => Some(until(bytes, i + 1, b"`", Some(b'\\'))),
        (Language::Rust, b'\'') => rust_char(bytes, i),
        (Language::Java | Language::Kotlin, b'"') if bytes[i..].starts_with(b"\"\"\"") => {
            Some(until(bytes, i + 3, b"\"\"\"", Some(b'\\')))
        }
        (Language::CSharp, b'@') if bytes.get(i + 1) == Some(&b'"') => {
            Some(verbatim_csharp(bytes, i + 2))
        }
        (Language::Rust, b'"') => Some(until(bytes, i + 1, b"\"", Some(b'\\'))),
        (_, b'"' | b'\'') => Some(one_line(bytes, i + 1, q)),
        _ => None,
    }
}

/// A string whose prefix is the identifier `bytes[start..word_end]`
/// (`r"`, `rb'`, `br#"`, `f"`): its end.
fn prefixed_string(
    bytes: &[u8],
    start: usize,
    word_end: usize,
    language: Language,
) -> Option<usize> {
    let prefix = &bytes[start..word_end];
    let next = *bytes.get(word_end)?;
    let lower: Vec<u8> = prefix.to_ascii_lowercase();
    match language {
        Language::Python if matches!(next, b'"' | b'\'') && is_python_prefix(&lower) => {
            Some(python_string(bytes, word_end))
        }
        Language::Rust if matches!(prefix, b"r" | b"br" | b"cr") && matches!(next, b'"' | b'#') => {
            let hashes = bytes[word_end..].iter().take_while(|&&b| b == b'#').count();
            if bytes.get(word_end + hashes) != Some(&b'"') {
                return None;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            Some(until(bytes, word_end + hashes + 1, &close, None))
        }
        Language::Rust if matches!(prefix, b"b" | b"c") && next == b'"' => {
            Some(until(bytes, word_end + 1, b"\"", Some(b'\\')))
        }
        Language::Rust if prefix == b"b" && next == b'\'' => rust_char(bytes, word_end),
        _ => None,
    }
}

fn is_python_prefix(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf" | b"t" | b"tr" | b"rt"
    )
}

/// A Python string whose quote is at `i`: triple-quoted or one line. Raw
/// or not, a backslash keeps the quote after it from ending the string
/// (in a raw string it stays in the value).
fn python_string(bytes: &[u8], i: usize) -> usize {
    let q = bytes[i];
    let triple = [q, q, q];
    if bytes[i..].starts_with(&triple) {
        until(bytes, i + 3, &triple, Some(b'\\'))
    } else {
        one_line(bytes, i + 1, q)
    }
}

/// The end of a string whose body starts at `from` and that ends at
/// `close`, skipping a byte after `escape`; the file's end if unclosed.
fn until(bytes: &[u8], from: usize, close: &[u8], escape: Option<u8>) -> usize {
    let Some(&first) = close.first() else {
        return from.min(bytes.len());
    };
    let mut i = from;
    while i < bytes.len() {
        // Only the escape or the close's first byte can change anything:
        // the bytes between are passed over by `memchr`.
        let rest = &bytes[i..];
        let next = match escape {
            Some(escape) => memchr::memchr2(escape, first, rest),
            None => memchr::memchr(first, rest),
        };
        let Some(k) = next else {
            break;
        };
        i += k;
        if Some(bytes[i]) == escape {
            i += 2;
            continue;
        }
        if bytes[i..].starts_with(close) {
            return i + close.len();
        }
        i += 1;
    }
    bytes.len()
}

/// A string on one line, quoted by `q`, with backslash escapes (a
/// backslash before the line's end continues it, as in C and Python).
fn one_line(bytes: &[u8], from: usize, q: u8) -> usize {
    let mut i = from;
    while i < bytes.len() {
        let Some(k) = memchr::memchr3(b'\\', b'\n', q, &bytes[i..]) else {
            break;
        };
        i += k;
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            _ => return i + 1,
        }
    }
    bytes.len()
}

/// C#'s `@"..."`, where `""` is a quote.
fn verbatim_csharp(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            if bytes.get(i + 1) == Some(&b'"') {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
}

/// A Rust character literal at `i` (`'x'`, `'\n'`, `'\u{1F600}'`, `'é'`),
/// or `None` for a lifetime or label (`'a`, `'static`).
fn rust_char(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = &bytes[i + 1..];
    if rest.first() == Some(&b'\\') {
        return Some(one_line(bytes, i + 1, b'\''));
    }
    // One character, then the closing quote.
    let len = match rest.first()? {
        b if *b < 0x80 => 1,
        b if *b >= 0xF0 => 4,
        b if *b >= 0xE0 => 3,
        _ => 2,
    };
    (rest.get(len) == Some(&b'\'')).then_some(i + 1 + len + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code of `text`: what is not a string or comment, with each of
    /// those replaced by `S` or `C`.
    fn code(text: &str, language: Language) -> String {
        let mut out = String::new();
        let mut at = 0;
        for (range, region) in non_code(text.as_bytes(), language) {
            out.push_str(&text[at..range.start]);
            out.push(if region == Region::String { 'S' } else { 'C' });
            at = range.end;
        }
        out.push_str(&text[at..]);
        out
    }

    #[test]
    fn python() {
        let p = Language::Python;
        assert_eq!(code("x = 'a' + \"b\"  # note\ny", p), "x = S + S  C\ny");
        assert_eq!(
            code("s = '''a\n'b'\n''' + r'\\'' + f\"{x}\"", p),
            "s = S + S + S"
        );
        assert_eq!(code("print(“hi”)", p), "print(“hi”)");
        assert_eq!(code("rb'x' bar'y'", p), "S barS");
        assert_eq!(code("'unclosed\nnext", p), "S\nnext");
    }

    #[test]
    fn c_family() {
        let c = Language::C;
        assert_eq!(
            code("a /* b */ c // d\ne '\\'' \"\\\"\"", c),
            "a C c C\ne S S"
        );
        assert_eq!(code("x = 1 /* a /* b */ – 2;", c), "x = 1 C – 2;");
        let r = Language::Rust;
        assert_eq!(code("a /* b /* c */ d */ e", r), "a C e");
        assert_eq!(
            code("fn f<'a>(x: &'a str) -> char { 'é' }", r),
            "fn f<'a>(x: &'a str) -> char { S }"
        );
        assert_eq!(
            code("let s = r#\"a\"b\"#; b'x'; br\"y\"", r),
            "let s = S; S; S"
        );
        let g = Language::Go;
        assert_eq!(code("s := `a\n\"b` + 'c'", g), "s := S + S");
        let j = Language::JavaScript;
        assert_eq!(code("let t = `a ${x}` + 'b'", j), "let t = S + S");
        let cs = Language::CSharp;
        assert_eq!(code("var s = @\"a\"\"b\"; x", cs), "var s = S; x");
        let k = Language::Kotlin;
        assert_eq!(code("val s = \"\"\"a\"b\"\"\" + 1", k), "val s = S + 1");
    }

    #[test]
    fn languages_by_name_and_shebang() {
        let of = |p: &str, b: &[u8]| Language::of(Path::new(p), b);
        assert_eq!(of("a/b.py", b""), Some(Language::Python));
        assert_eq!(of("main.RS", b""), Some(Language::Rust));
        assert_eq!(of("x.tsx", b""), Some(Language::JavaScript));
        assert_eq!(of("x.ts", b"export {};\n"), Some(Language::JavaScript));
        // A Qt Linguist catalogue is XML, whatever its extension says.
        assert_eq!(of("app_km.ts", b"<?xml version=\"1.0\"?>\n<TS>"), None);
        assert_eq!(of("app_km.ts", b"\n<!DOCTYPE TS>\n<TS>"), None);
        assert_eq!(
            of("tool", b"#!/usr/bin/env python3\n"),
            Some(Language::Python)
        );
        assert_eq!(
            of("tool", b"#!/usr/bin/env -S node --x\n"),
            Some(Language::JavaScript)
        );
        assert_eq!(of("tool", b"#!/bin/sh\n"), None);
        assert_eq!(of("notes.md", b""), None);
        assert_eq!(of(".py", b""), None);
    }

    /// Every byte of any input is in exactly one region, in order, and the
    /// scanner ends on any bytes.
    #[test]
    fn regions_are_ordered_and_within_the_input() {
        use proptest::prelude::*;
        let languages = PROPERTY_LANGUAGES;
        proptest!(|(bytes in proptest::collection::vec(prop_oneof![
            Just(b'"'), Just(b'\''), Just(b'`'), Just(b'/'), Just(b'*'), Just(b'#'),
            Just(b'\\'), Just(b'\n'), Just(b'r'), Just(b'@'), Just(b'a'), Just(0xE2u8),
        ], 0..64), k in 0usize..8)| {
            let mut at = 0;
            for (range, _) in non_code(&bytes, languages[k]) {
                prop_assert!(range.start >= at && range.start < range.end && range.end <= bytes.len());
                at = range.end;
            }
        });
    }

    /// The scanner as it was first written, byte by byte (every identifier
    /// skipped whole, every other byte asked whether a string or comment
    /// starts there): the reference the jumping scanner is tested against.
    fn non_code_byte_by_byte(bytes: &[u8], language: Language) -> Vec<(Range<usize>, Region)> {
        let mut out = Vec::new();
        let mut i = 0;
        let n = bytes.len();
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        while i < n {
            if word(bytes[i]) {
                let start = i;
                while i < n && word(bytes[i]) {
                    i += 1;
                }
                if let Some(end) = prefixed_string(bytes, start, i, language) {
                    out.push((start..end, Region::String));
                    i = end;
                }
                continue;
            }
            if bytes[i..].starts_with(language.line_comment()) {
                let end = line_end(bytes, i);
                out.push((i..end, Region::Comment));
                i = end;
            } else if language.block_comments() && bytes[i..].starts_with(b"/*") {
                let end = block_comment_end(bytes, i, language.nested_comments());
                out.push((i..end, Region::Comment));
                i = end;
            } else if let Some(end) = string_at(bytes, i, language) {
                out.push((i..end, Region::String));
                i = end;
            } else if language == Language::JavaScript
                && bytes[i] == b'/'
                && let Some(end) = regex_literal(bytes, i)
            {
                out.push((i..end, Region::String));
                i = end;
            } else {
                i += 1;
            }
        }
        out
    }

    #[test]
    fn javascript_regular_expressions_are_text_and_division_is_code() {
        let j = Language::JavaScript;
        assert_eq!(
            code("meridiemParse: /ئێواره\u{200C}|به\u{200C}یانی/, x", j),
            "meridiemParse: S, x"
        );
        assert_eq!(code("return /de l’/i.test(s)", j), "return S.test(s)");
        assert_eq!(code("x = [/a[/]b/g, 1]", j), "x = [S, 1]");
        assert_eq!(code("a = b / c / d", j), "a = b / c / d");
        assert_eq!(code("f(x) / 2 / y", j), "f(x) / 2 / y");
        assert_eq!(code("x = 1 /\n 2", j), "x = 1 /\n 2");
    }

    #[test]
    fn a_line_shows_a_comment_only_where_nothing_before_can_end_a_string() {
        let judged = |text: &str, language: Language| {
            let at = text.find('\u{2014}').expect("a dash");
            let by_line = in_string_or_comment_by_its_line(text.as_bytes(), at, language);
            let in_region = non_code(text.as_bytes(), language)
                .iter()
                .any(|(range, _)| range.contains(&at));
            assert!(!by_line || in_region, "{text:?}");
            by_line
        };
        assert!(judged("x = 1; // \u{2014} note\n", Language::C));
        assert!(judged("\t0x2019, // \u{2014}\n", Language::C));
        assert!(judged("    /// it's `x` \u{2014} done\n", Language::Rust));
        assert!(judged("x = 1  # \u{2014}\n", Language::Python));
        // Each of these ends, on the line, what the line started in.
        assert!(!judged("s = 'a\\\n# ' \u{2014}\n", Language::Python));
        assert!(!judged("/* a\n// */ \u{2014}\n", Language::C));
        assert!(!judged("let s = \"a\n// \" \u{2014}\n", Language::Rust));
        assert!(!judged("s := `a\n// ` \u{2014}\n", Language::Go));
        assert!(!judged("s = '''a\n# ''' \u{2014}\n", Language::Python));
        // A block comment's inner line is for the scanner to tell.
        assert!(!judged("/* a\n * \u{2014}\n */\n", Language::C));
    }

    /// The searching forms of the string and comment ends find what a
    /// walk over every byte finds, from any start.
    #[test]
    fn the_ends_found_by_search_are_the_ends_found_byte_by_byte() {
        use proptest::prelude::*;
        fn until_walk(bytes: &[u8], from: usize, close: &[u8], escape: Option<u8>) -> usize {
            let mut i = from;
            while i < bytes.len() {
                if Some(bytes[i]) == escape {
                    i += 2;
                    continue;
                }
                if bytes[i..].starts_with(close) {
                    return i + close.len();
                }
                i += 1;
            }
            bytes.len()
        }
        fn one_line_walk(bytes: &[u8], from: usize, q: u8) -> usize {
            let mut i = from;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'\n' => return i,
                    b if b == q => return i + 1,
                    _ => i += 1,
                }
            }
            bytes.len()
        }
        fn block_comment_walk(bytes: &[u8], start: usize, nested: bool) -> usize {
            let mut depth = 0usize;
            let mut i = start;
            while i + 1 < bytes.len() {
                if bytes[i] == b'/' && bytes[i + 1] == b'*' && (nested || depth == 0) {
                    depth += 1;
                    i += 2;
                } else if bytes[i] == b'*' && bytes[i + 1] == b'/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        return i;
                    }
                } else {
                    i += 1;
                }
            }
            bytes.len()
        }
        let alphabet = [b'"', b'\'', b'`', b'/', b'*', b'#', b'\\', b'\n', b'a'];
        proptest!(ProptestConfig::with_cases(8192), |(picks in proptest::collection::vec(0..alphabet.len(), 0..24), from in 0usize..26, nested: bool)| {
            let bytes: Vec<u8> = picks.iter().map(|&p| alphabet[p]).collect();
            let from = from.min(bytes.len());
            for close in [&b"\""[..], b"`", b"\"\"\"", b"'''", b"\"#"] {
                for escape in [None, Some(b'\\')] {
                    prop_assert_eq!(until(&bytes, from, close, escape), until_walk(&bytes, from, close, escape));
                }
            }
            for q in [b'"', b'\''] {
                prop_assert_eq!(one_line(&bytes, from, q), one_line_walk(&bytes, from, q));
            }
            if bytes[from..].starts_with(b"/*") {
                prop_assert_eq!(block_comment_end(&bytes, from, nested), block_comment_walk(&bytes, from, nested));
            }
        });
    }

    /// The languages the property tests lex.
    const PROPERTY_LANGUAGES: [Language; 8] = [
        Language::Python,
        Language::Rust,
        Language::Go,
        Language::C,
        Language::Java,
        Language::Kotlin,
        Language::JavaScript,
        Language::CSharp,
    ];

    /// What the property tests' sources are made of: every opener and
    /// closer of a string or comment the languages have, prefixes, escapes,
    /// letters, and non-ASCII (a dash U+2014 whose lead byte is looked for).
    const PROPERTY_PIECES: &[&[u8]] = &[
        b"\"",
        b"'",
        b"`",
        b"/",
        b"*",
        b"#",
        b"\\",
        b"\n",
        b"r",
        b"b",
        b"f",
        b"br",
        b"@",
        b"a",
        b"_",
        b" ",
        b"9",
        "\u{e9}".as_bytes(),
        "\u{2014}".as_bytes(),
        b"\"\"\"",
        b"'''",
        b"//",
        b"// ",
        b"# ",
        b"/*",
        b"*/",
        b"r#",
    ];

    /// What the line alone says is in a string or comment, the scanner
    /// says is too.
    #[test]
    fn a_line_alone_never_puts_code_in_a_comment() {
        use proptest::prelude::*;
        let languages = PROPERTY_LANGUAGES;
        let pieces = PROPERTY_PIECES;
        proptest!(ProptestConfig::with_cases(20_000), |(picks in proptest::collection::vec(0..pieces.len(), 0..24), k in 0usize..8)| {
            let bytes: Vec<u8> = picks.iter().flat_map(|&p| pieces[p].to_vec()).collect();
            let language = languages[k];
            let regions = non_code(&bytes, language);
            for at in (0..bytes.len()).filter(|&i| bytes[i] == 0xE2) {
                if in_string_or_comment_by_its_line(&bytes, at, language) {
                    prop_assert!(
                        regions.iter().any(|(range, _)| range.contains(&at)),
                        "{:?} at {at}",
                        String::from_utf8_lossy(&bytes)
                    );
                }
            }
        });
    }

    #[test]
    fn the_jumping_scanner_finds_what_the_byte_by_byte_one_finds() {
        use proptest::prelude::*;
        let languages = PROPERTY_LANGUAGES;
        let pieces = PROPERTY_PIECES;
        proptest!(ProptestConfig::with_cases(4096), |(picks in proptest::collection::vec(0..pieces.len(), 0..40), k in 0usize..8)| {
            let bytes: Vec<u8> = picks.iter().flat_map(|&p| pieces[p].to_vec()).collect();
            prop_assert_eq!(non_code(&bytes, languages[k]), non_code_byte_by_byte(&bytes, languages[k]));
        });
    }
}
