//! U002 `stray_feff`: U+FEFF anywhere after the first byte. At the start of
//! a line it is the seam of two files concatenated with their signatures;
//! inside a word, a deprecated word joiner; elsewhere inside a line, text
//! pasted with its signature or a U+FEFF written on purpose (the help says
//! how to keep it).

use crate::rules::fix_scope::{Lang, scope_character_fix};
use crate::{Applicability, Diagnostic, Edit, Fix, Level, Rule};

const FEFF: &[u8] = "\u{FEFF}".as_bytes();
const WORD_JOINER: &[u8] = "\u{2060}".as_bytes();

/// The diagnostic for the U+FEFF at `offset` of `bytes` (never 0: that is
/// the byte-order mark, U003/U004's business). The bytes around it decide
/// the message and the fix: a line start, a word, or elsewhere.
pub fn diagnostic(bytes: &[u8], offset: usize, level: Level) -> Diagnostic {
    let span = offset..offset + FEFF.len();
    let before = char_before(bytes, offset);
    let after = char_after(bytes, span.end);
    let at_line_start = matches!(bytes.get(offset.wrapping_sub(1)), Some(b'\n' | b'\r'));
    let in_word =
        before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric);
    let label = "`\\xEF\\xBB\\xBF` U+FEFF (invisible)";
    if at_line_start {
        Diagnostic::new(
            Rule::StrayFeff,
            level,
            span.clone(),
            "byte-order mark at the start of a line, not of the file",
        )
        .with_label(label)
        .with_note("this is the seam where two files were concatenated: the second one kept its byte-order mark")
        .with_note("RFC 3629 section 6: after the start of a stream U+FEFF is a ZERO WIDTH NO-BREAK SPACE, never a signature")
        .with_fix(Fix::safe("delete the stray U+FEFF", vec![Edit::delete(span)]))
    } else if in_word {
        Diagnostic::new(Rule::StrayFeff, level, span.clone(), "U+FEFF used as a word joiner")
            .with_label(label)
            .with_note("U+FEFF as ZERO WIDTH NO-BREAK SPACE is deprecated; U+2060 WORD JOINER is the character for joining words")
            .with_help("or delete it, if no joining was meant")
            .with_fix(Fix::unsafe_(
                "replace U+FEFF with U+2060 WORD JOINER",
                vec![Edit::replace(span, WORD_JOINER)],
            ))
    } else {
        // Inside a line and not inside a word: pasted with text copied
        // from a file that began with a BOM, or put there on purpose (a
        // table that lists U+FEFF as a key, as sphinx's `texescape.py`
        // does); not the seam of two files, which starts a line.
        Diagnostic::new(
            Rule::StrayFeff,
            level,
            span.clone(),
            "U+FEFF ZERO WIDTH NO-BREAK SPACE inside a line",
        )
        .with_label(label)
        .with_note("an invisible character: pasted along with text that began with a byte-order mark, or written on purpose")
        .with_help("if it is meant, write it as an escape the file's language reads (`\\u{FEFF}` in Rust, `\\ufeff` in Python, JSON or JavaScript), or allow `stray_feff` on this line (`utf8lint: allow(stray_feff)`)")
        .with_fix(Fix::unsafe_("delete the U+FEFF", vec![Edit::delete(span)]))
    }
}

/// The fix of one U002 finding settled by where its U+FEFF is in the file
/// (whose language is `lang`, `fix_scope::Lang::of`): the seam's deletion
/// stays (safe); a U+FEFF inside a line may be meant, so in code it gets
/// the string literal's escape or no fix (`fix_scope`), in prose its own
/// unsafe fix. Asked as each finding is made, before `Keep::Fixes` merges
/// a rule's findings: the scope is a single character's.
pub(crate) fn scope_fix(bytes: &[u8], lang: Option<Lang>, d: &mut Diagnostic) {
    if d.fix
        .as_ref()
        .is_some_and(|f| f.applicability() == Applicability::Unsafe)
    {
        scope_character_fix(bytes, lang, d);
    }
}

fn char_before(bytes: &[u8], offset: usize) -> Option<char> {
    (1..=4)
        .filter_map(|n| {
            let start = offset.checked_sub(n)?;
            std::str::from_utf8(bytes.get(start..offset)?)
                .ok()?
                .chars()
                .next()
        })
        .next()
}

fn char_after(bytes: &[u8], offset: usize) -> Option<char> {
    let tail = bytes.get(offset..offset.saturating_add(4).min(bytes.len()))?;
    utf8lint_codec::Utf8Chunks::new(tail)
        .next()?
        .valid()
        .chars()
        .next()
}
