//! U017 `lookalike_punctuation`: a space, dash, quote or punctuation mark
//! that looks like an ASCII one, in source code outside its strings and
//! comments, where the compiler or interpreter rejects it (`x = 1\u{A0}+ 2`
//! and `print(“hi”)` are Python `SyntaxError`s). Strings and comments are
//! text and keep what they say; languages are told by `code_syntax`.

use std::ops::Range;
use std::path::Path;

use crate::code_syntax::{Language, Region, in_string_or_comment_by_its_line, non_code};
use crate::shown::Capped;
use crate::{Applicability, Diagnostic, Edit, Fix, Level, Rule};

/// What a look-alike stands for, and how sure the fix can be.
struct LookAlike {
    ascii: u8,
    kind: &'static str,
    /// Whether the ASCII character is the only thing the original can have
    /// meant (an em dash may have been `--`).
    certain: bool,
}

/// The look-alike `c` is, if any.
fn look_alike(c: char) -> Option<LookAlike> {
    let (ascii, kind, certain) = match c {
        '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
            (b' ', "space", true)
        }
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2212}' | '\u{FE63}' => {
            (b'-', "dash", true)
        }
        '\u{2014}' | '\u{2015}' => (b'-', "dash", false),
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => (b'\'', "quote", true),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => (b'"', "quote", true),
        '\u{037E}' => (b';', "punctuation mark", true),
        '\u{2044}' | '\u{2215}' => (b'/', "punctuation mark", true),
        '\u{2024}' => (b'.', "punctuation mark", true),
        // Fullwidth ASCII punctuation (letters and digits are identifier
        // characters in most of these languages).
        '\u{FF01}'..='\u{FF0F}'
        | '\u{FF1A}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF5E}' => {
            let ascii = (c as u32 - 0xFEE0) as u8;
            let kind = match ascii {
                b'"' | b'\'' | b'`' => "quote",
                b'-' => "dash",
                _ => "punctuation mark",
            };
            (ascii, kind, true)
        }
        _ => return None,
    };
    Some(LookAlike {
        ascii,
        kind,
        certain,
    })
}

/// Whether `byte` can start a look-alike: `C2` (U+00A0), `CD` (U+037E),
/// `E1` (U+1680), `E2`, `E3` (U+3000) and `EF` (U+FExx, U+FFxx).
fn may_lead(byte: u8) -> bool {
    matches!(byte, 0xC2 | 0xCD | 0xE1 | 0xE2 | 0xE3 | 0xEF)
}

/// The characters of `text` that may be look-alikes, with their offsets:
/// those whose lead byte [`may_lead`] one; ASCII is passed over eight
/// bytes at a time, other characters by their lead byte.
fn non_ascii_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            while at + 8 <= bytes.len() {
                let word = u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
                if word & 0x8080_8080_8080_8080 != 0 {
                    break;
                }
                at += 8;
            }
            match *bytes.get(at)? {
                0x00..=0x7F => at += 1,
                lead if may_lead(lead) => break,
                0xC0..=0xDF => at += 2,
                0xE0..=0xEF => at += 3,
                _ => at += 4,
            }
        }
        let c = text[at..].chars().next()?;
        let start = at;
        at += c.len_utf8();
        Some((start, c))
    })
}

/// The findings in `bytes` (valid UTF-8) of the file at `path` onto
/// `out`: at most `shown` of them (0: all), and a summary of the rest onto
/// `summaries`. `non_ascii`: the ranges outside which `bytes` is ASCII,
/// each starting at a character (`None`: anywhere).
pub(crate) fn check(
    bytes: &[u8],
    path: &Path,
    non_ascii: Option<&[Range<usize>]>,
    level: Level,
    shown: usize,
    out: &mut Vec<Diagnostic>,
    summaries: &mut Vec<Diagnostic>,
) {
    if level == Level::Allow {
        return;
    }
    if non_ascii.is_some_and(<[_]>::is_empty) {
        return;
    }
    let Some(language) = Language::of(path, bytes) else {
        return;
    };
    let whole = 0..bytes.len();
    // The look-alikes first (most non-ASCII code holds none: a `©`, an
    // accented name in a comment), in the stretches that are not ASCII,
    // but for those whose line shows them in a comment; only then the
    // lexer, and only to the end of the last one's line:
    // what a string or comment left open at the cut covers, it covers in
    // the whole file too, and a literal that closes on that line (a Rust
    // `'？'`) closes before the cut.
    let found: Vec<(usize, char, LookAlike)> = non_ascii
        .unwrap_or(std::slice::from_ref(&whole))
        .iter()
        .flat_map(|range| {
            // Only these stretches are read, so only they are validated
            // into text (the file is well-formed: the scan said so).
            let range = on_characters(bytes, range.clone());
            let text = utf8lint_codec::from_utf8(&bytes[range.clone()]).unwrap_or_default();
            non_ascii_chars(text).map(move |(at, c)| (range.start + at, c))
        })
        .filter_map(|(at, c)| look_alike(c).map(|look| (at, c, look)))
        .filter(|(_, _, look)| !(look.kind == "space" && language.reads_unicode_spaces()))
        // Most sit in a comment that the line alone shows.
        .filter(|&(at, _, _)| !in_string_or_comment_by_its_line(bytes, at, language))
        .collect();
    let Some(&(last, last_char, _)) = found.last() else {
        return;
    };
    let after = last + last_char.len_utf8();
    let line_end = memchr::memchr(b'\n', &bytes[after..]).map_or(bytes.len(), |k| after + k + 1);
    let lexed = &bytes[..line_end];
    let mut capped = Capped::new(Rule::LookalikePunctuation, level, shown);
    let mut skip = non_code(lexed, language).into_iter().peekable();
    for (at, c, look) in found {
        while skip.peek().is_some_and(|(range, _)| range.end <= at) {
            skip.next();
        }
        if skip
            .peek()
            .is_some_and(|(range, region)| range.start <= at && *region != Region::Code)
        {
            continue;
        }
        let span = at..at + c.len_utf8();
        capped.push(
            |level| diagnostic(c, &look, language, span.clone(), level),
            span.clone(),
        );
    }
    capped.finish(out, summaries);
}

/// `range` of well-formed `bytes` widened to the characters it cuts (the
/// scan's blocks end where ASCII begins, so this changes nothing unless a
/// block ends mid-character).
fn on_characters(bytes: &[u8], mut range: Range<usize>) -> Range<usize> {
    let continues = |i: usize| bytes.get(i).is_some_and(|&b| b & 0xC0 == 0x80);
    range.end = range.end.min(bytes.len());
    range.start = range.start.min(range.end);
    while range.start > 0 && continues(range.start) {
        range.start -= 1;
    }
    while continues(range.end) {
        range.end += 1;
    }
    range
}

fn diagnostic(
    c: char,
    look: &LookAlike,
    language: Language,
    span: std::ops::Range<usize>,
    level: Level,
) -> Diagnostic {
    let name = crate::rules::text_chars::describe(c);
    let ascii = look.ascii as char;
    let language = language.name();
    let message = format!(
        "{name} in {language} code, outside strings and comments: it looks like `{ascii}`, but {language} rejects it"
    );
    let title = format!("replace it with the ASCII {} `{ascii}`", look.kind);
    let applicability = if look.certain {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    let mut d = Diagnostic::new(Rule::LookalikePunctuation, level, span.clone(), message)
        .with_label(format!("not `{ascii}`"))
        .with_fix(Fix::new(
            applicability,
            title,
            vec![Edit::replace(span, [look.ascii])],
        ));
    if !look.certain {
        d = d.with_note("an em dash in code may have stood for `--`: check what was meant");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks of `block` bytes that hold a non-ASCII byte, adjacent
    /// ones merged, as the scan reports them.
    fn non_ascii_blocks(bytes: &[u8], block: usize) -> Vec<Range<usize>> {
        let mut out: Vec<Range<usize>> = Vec::new();
        for (i, chunk) in bytes.chunks(block).enumerate() {
            if chunk.is_ascii() {
                continue;
            }
            let range = i * block..i * block + chunk.len();
            match out.last_mut() {
                Some(last) if last.end == range.start => last.end = range.end,
                _ => out.push(range),
            }
        }
        out
    }

    fn findings(text: &str, path: &str, non_ascii: Option<&[Range<usize>]>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        check(
            text.as_bytes(),
            Path::new(path),
            non_ascii,
            Level::Deny,
            0,
            &mut out,
            &mut Vec::new(),
        );
        out
    }

    fn found(text: &str, path: &str) -> Vec<(String, Applicability)> {
        let out = findings(text, path, None);
        for block in [1, 3, 4096] {
            let blocks = non_ascii_blocks(text.as_bytes(), block);
            assert_eq!(
                findings(text, path, Some(&blocks)),
                out,
                "blocks of {block}"
            );
        }
        out.into_iter()
            .map(|d| {
                let fix = d.fix.expect("a fix");
                let edit = &fix.edits()[0];
                (text[edit.range()].to_owned(), fix.applicability())
            })
            .collect()
    }

    /// Reading only the stretches the scan says are not ASCII finds what
    /// reading the whole file does, wherever the blocks cut the text.
    #[test]
    fn the_non_ascii_blocks_hold_every_finding() {
        let line = "let a = b\u{2014}c; // “quoted” and \u{FF1B} in a comment\n";
        let text = format!(
            "{}{line}{}{line}",
            "x = 1\n".repeat(700),
            "y\n".repeat(3000)
        );
        let whole = findings(&text, "a.rs", None);
        assert_eq!(whole.len(), 2, "{whole:?}");
        for block in [1, 2, 3, 5, 64, 4096] {
            let blocks = non_ascii_blocks(text.as_bytes(), block);
            assert_eq!(
                findings(&text, "a.rs", Some(&blocks)),
                whole,
                "blocks of {block}"
            );
        }
        assert!(findings(&text, "a.rs", Some(&[])).is_empty());
    }

    #[test]
    fn in_code_only() {
        assert_eq!(
            found("x = 1\u{A0}+ 2\nprint(“hi”)\n", "a.py"),
            [
                ("\u{A0}".to_owned(), Applicability::Safe),
                ("“".to_owned(), Applicability::Safe),
                ("”".to_owned(), Applicability::Safe),
            ]
        );
        assert!(
            found(
                "s = '“quoted” – text\u{A0}'  # a “comment” — here\n",
                "a.py"
            )
            .is_empty()
        );
        assert!(found("/* “a” */ let s = \"—\"; // –\n", "a.rs").is_empty());
        // The last look-alike inside a character literal: the literal
        // closes after it, on its line.
        assert!(found("const P: &[char] = &['、', '？'];\n", "a.rs").is_empty());
        assert!(found("let q = '’'", "a.rs").is_empty());
        assert_eq!(found("let x = 5 – 3;\n", "a.rs").len(), 1);
        assert_eq!(
            found("run(x —y)\n", "a.go"),
            [("—".to_owned(), Applicability::Unsafe)]
        );
    }

    #[test]
    fn languages_that_read_unicode_spaces_keep_them() {
        assert!(found("let x =\u{A0}1;\n", "a.js").is_empty());
        assert_eq!(found("let x = ‘a’;\n", "a.ts").len(), 2);
    }

    #[test]
    fn other_files_and_other_characters_are_not_its_business() {
        assert!(found("x = 1\u{A0}+ 2\n", "notes.md").is_empty());
        assert!(found("café = 1\nπ = 3.14\nx = 'é'\n", "a.py").is_empty());
        assert!(found("let 名前 = 1;\n", "a.rs").is_empty());
    }

    #[test]
    fn the_fullwidth_forms_stand_for_their_ascii() {
        assert_eq!(
            found("f(x）；\n", "a.c"),
            [
                ("）".to_owned(), Applicability::Safe),
                ("；".to_owned(), Applicability::Safe),
            ]
        );
        assert_eq!(look_alike('\u{FF01}').map(|l| l.ascii), Some(b'!'));
        assert_eq!(look_alike('\u{FF5E}').map(|l| l.ascii), Some(b'~'));
        assert_eq!(look_alike('\u{037E}').map(|l| l.ascii), Some(b';'));
    }

    /// The skipping search yields exactly the characters whose lead byte
    /// may start a look-alike, at their offsets.
    #[test]
    fn the_search_yields_every_character_a_look_alike_can_start_with() {
        use proptest::prelude::*;
        let pieces = [
            "a", "abcdefgh", " ", "\u{A0}", "é", "\u{37E}", "\u{1680}", "—", "“", "\u{3000}", "中",
            "\u{FF01}", "\u{FFFD}", "😀", "ж", "\u{2212}",
        ];
        proptest!(|(picks in proptest::collection::vec(0..pieces.len(), 0..40))| {
            let text: String = picks.iter().map(|&p| pieces[p]).collect();
            let expected: Vec<(usize, char)> = text
                .char_indices()
                .filter(|&(at, _)| may_lead(text.as_bytes()[at]))
                .collect();
            prop_assert_eq!(non_ascii_chars(&text).collect::<Vec<_>>(), expected);
        });
    }
}
