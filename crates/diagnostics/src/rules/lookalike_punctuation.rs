//! U017 `lookalike_punctuation`: a space, dash, quote or punctuation mark
//! that looks like an ASCII one, in source code outside its strings and
//! comments, where the compiler or interpreter rejects it (`x = 1\u{A0}+ 2`
//! and `print(“hi”)` are Python `SyntaxError`s). Strings and comments are
//! text and keep what they say; languages are told by `code_syntax`.

use std::path::Path;

use crate::code_syntax::{Language, Region, non_code};
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
/// `summaries`.
pub(crate) fn check(
    bytes: &[u8],
    path: &Path,
    level: Level,
    shown: usize,
    out: &mut Vec<Diagnostic>,
    summaries: &mut Vec<Diagnostic>,
) {
    if level == Level::Allow {
        return;
    }
    let Some(language) = Language::of(path, bytes) else {
        return;
    };
    // A file with no byte that can lead a look-alike (most code, and text
    // in most scripts) is answered by one pass over its bytes.
    if bytes.is_ascii() || !bytes.iter().any(|&b| may_lead(b)) {
        return;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    // The look-alikes first (most non-ASCII code holds none: a `©`, an
    // accented name in a comment); only then the lexer, and only to the
    // end of the last one's line: what a string or comment left open at
    // the cut covers, it covers in the whole file too, and a literal that
    // closes on that line (a Rust `'？'`) closes before the cut.
    let found: Vec<(usize, char, LookAlike)> = non_ascii_chars(text)
        .filter_map(|(at, c)| look_alike(c).map(|look| (at, c, look)))
        .filter(|(_, _, look)| !(look.kind == "space" && language.reads_unicode_spaces()))
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

    fn found(text: &str, path: &str) -> Vec<(String, Applicability)> {
        let mut out = Vec::new();
        check(
            text.as_bytes(),
            Path::new(path),
            Level::Deny,
            0,
            &mut out,
            &mut Vec::new(),
        );
        out.into_iter()
            .map(|d| {
                let fix = d.fix.expect("a fix");
                let edit = &fix.edits()[0];
                (text[edit.range()].to_owned(), fix.applicability())
            })
            .collect()
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
