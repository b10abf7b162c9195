//! U011's judgement of the invisible characters that a script or
//! typography may need, by their neighbours' scripts (the Unicode Script
//! property, through `unicode-script`) rather than by lists of languages:
//!
//! * U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER select how
//!   letters join or form conjuncts: Arabic, Persian and the Indic scripts
//!   need them inside words, and emoji sequences join with U+200D. Beside
//!   letters of the alphabets that neither join nor form conjuncts (Latin,
//!   Greek, Cyrillic, Hebrew, Hangul, kana, ...) they only hide a split
//!   word (`pass\u{200D}word`).
//! * U+200B ZERO WIDTH SPACE marks a word break in scripts written without
//!   spaces (Thai, Lao, Khmer, Myanmar, Tibetan, Chinese, Japanese).
//! * In a script UAX #31 does not recommend for identifiers (historic and
//!   limited-use scripts: Javanese, Balinese, Mongolian, Runic...), the
//!   texts keep their own conventions of joining and word division: all
//!   three are left to them.
//! * U+180B..U+180D, U+180F (Mongolian free variation selectors) and
//!   U+180E MONGOLIAN VOWEL SEPARATOR belong beside Mongolian letters.
//! * U+00AD SOFT HYPHEN between two letters marks where a word may break
//!   (translators' compound boundaries): typography, in any script.
//! * U+2800 BRAILLE PATTERN BLANK belongs among braille patterns; used
//!   elsewhere it is a space that is not whitespace.
//!
//! What the place adds (code outside strings and comments, where none of
//! them is needed) is the caller's: `text_chars` asks `code_syntax`.

use std::ops::Range;
use std::path::Path;

use unicode_script::{Script, ScriptExtension, UnicodeScript};

use crate::rules::fix_scope::{Lang, is_test_data, is_test_file};
use crate::rules::mojibake::quoted::is_documentation;
use crate::text::{char_at, char_before};

/// Whether the file at `path` holds a test's values: a test's data or
/// own source (`fix_scope::is_test_data`: fuzzer inputs, fixtures that
/// tests compare byte for byte, a file of test strings, a test script),
/// where an invisible character is what the test is about (`eins\u{200D}zwei`
/// for a cursor test, ZWNJ between ASCII letters for an IDNA fuzzer, a
/// Hangul filler in a row of a character set's table). Not values: a test
/// tree's documents (`README`, Markdown, a change log) and catalogues,
/// read by people, and the programs among its fixtures (`bytes` in a
/// language by `path`, not a test's own source): a scanner's fixture is
/// an attack as written, judged as the code it is.
pub(crate) fn holds_test_values(path: &Path, bytes: &[u8]) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let fixture_program = Lang::is_source(path, bytes) && !is_test_file(&name);
    is_test_data(path) && !read_by_people(path) && !fixture_program
}

/// Documentation, change logs, `README`s and translation catalogues.
fn read_by_people(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    is_documentation(path)
        || ["po", "pot"]
            .iter()
            .any(|e| e.eq_ignore_ascii_case(extension))
        || name.to_ascii_lowercase().starts_with("readme")
}

/// How far either side the neighbours of an invisible character are looked
/// for, in bytes, past other invisible characters.
const REACH: usize = 64;

/// The characters this module judges.
pub(crate) fn is_judged(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200D}' | '\u{2800}'
    )
}

/// Characters that render as nothing and stand between a judged
/// character and the letters whose script decides: a run `\u{200B}\u{200B}`
/// before Khmer is judged by the Khmer.
fn is_transparent(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'
            | '\u{FEFF}'
            | '\u{FE00}'..='\u{FE0F}'
    )
}

/// The nearest characters before and after `i..i + len` within `stretch`
/// (and the line), past invisible characters; for U+2800 also past other
/// blanks, so that a run of them is judged by what surrounds it. Looked
/// for within [`REACH`] bytes either side.
///
/// Each character of a run of invisible characters asks the same
/// question: the run's ends and the characters beyond them are found once
/// and kept ([`Runs`]), so a run of thousands (a crash reproducer's
/// `\u{180C}` repeated) is read once, not [`REACH`] bytes for each.
pub(crate) fn neighbours(
    bytes: &[u8],
    i: usize,
    len: usize,
    stretch: &Range<usize>,
    runs: &mut Runs,
) -> (Option<char>, Option<char>) {
    let blanks = char_at(bytes, i).is_some_and(|(c, _)| c == '\u{2800}');
    let run = match &runs.last {
        Some(run)
            if run.blanks == blanks
                && run.stretch == *stretch
                && run.start <= i
                && i + len <= run.end =>
        {
            run
        }
        _ => runs
            .last
            .insert(Run::around(bytes, i, len, stretch, blanks)),
    };
    let floor = i.saturating_sub(REACH).max(stretch.start);
    let before = run.before.filter(|_| run.start > floor);
    let ceil = (i + len + REACH).min(stretch.end);
    let after = run
        .after
        .filter(|&(_, l)| run.end + l <= ceil)
        .map(|(n, _)| n);
    (before, after)
}

/// The last run of invisible characters [`neighbours`] read, for the
/// next character of the same run.
#[derive(Debug, Default)]
pub(crate) struct Runs {
    last: Option<Run>,
}

/// A run of characters that [`neighbours`] looks past, whole.
#[derive(Debug)]
struct Run {
    /// Whether blank braille patterns were among those looked past.
    blanks: bool,
    stretch: Range<usize>,
    start: usize,
    end: usize,
    /// The character before `start`, unless it is a line's end.
    before: Option<char>,
    /// The character at `end` and its length, unless it is a line's end.
    after: Option<(char, usize)>,
}

impl Run {
    /// The run around `i..i + len` (a character that is itself looked
    /// past), within `stretch`.
    fn around(bytes: &[u8], i: usize, len: usize, stretch: &Range<usize>, blanks: bool) -> Run {
        let skip = |n: char| is_transparent(n) || (blanks && n == '\u{2800}');
        let mut start = i;
        let before = loop {
            match (start > stretch.start)
                .then(|| char_before(bytes, start))
                .flatten()
            {
                Some(n) if skip(n) => start -= n.len_utf8(),
                Some(n) if n != '\n' => break Some(n),
                _ => break None,
            }
        };
        let mut end = i + len;
        let after = loop {
            match char_at(bytes, end).filter(|(_, l)| end + l <= stretch.end) {
                Some((n, l)) if skip(n) => end += l,
                Some((n, l)) if n != '\n' => break Some((n, l)),
                _ => break None,
            }
        };
        Run {
            blanks,
            stretch: stretch.clone(),
            start,
            end,
            before,
            after,
        }
    }
}

/// The nearest letters before and after `i..i + len` within [`REACH`]
/// bytes and `stretch`, on its line, past spaces, digits, punctuation and
/// placeholders: the script a U+200B beside `%1 ` breaks words of.
pub(crate) fn nearest_letters(
    bytes: &[u8],
    i: usize,
    len: usize,
    stretch: &Range<usize>,
) -> (Option<char>, Option<char>) {
    nearest(bytes, i..i + len, stretch, |n| !n.is_alphabetic())
}

/// The nearest characters either side of `span` that `skip` does not
/// pass, within [`REACH`] bytes, `stretch` and the line.
fn nearest(
    bytes: &[u8],
    span: Range<usize>,
    stretch: &Range<usize>,
    skip: impl Fn(char) -> bool,
) -> (Option<char>, Option<char>) {
    let floor = span.start.saturating_sub(REACH).max(stretch.start);
    let mut at = span.start;
    let before = loop {
        match (at > floor).then(|| char_before(bytes, at)).flatten() {
            Some('\n') | None => break None,
            Some(n) if skip(n) => at -= n.len_utf8(),
            Some(n) => break Some(n),
        }
    };
    let ceil = (span.end + REACH).min(stretch.end);
    let mut at = span.end;
    let after = loop {
        match char_at(bytes, at).filter(|(_, l)| at + l <= ceil) {
            Some(('\n', _)) | None => break None,
            Some((n, l)) if skip(n) => at += l,
            Some((n, _)) => break Some(n),
        }
    };
    (before, after)
}

/// Whether `c` between `before` and `after` (its [`neighbours`]) is what
/// their script or typography needs.
pub(crate) fn needed(c: char, before: Option<char>, after: Option<char>) -> bool {
    let either = |test: fn(char) -> bool| before.is_some_and(test) || after.is_some_and(test);
    match c {
        '\u{200C}' | '\u{200D}' => either(|n| of_script(n, joins)) || joins_emoji(c, before, after),
        '\u{200B}' => either(|n| of_script(n, spaceless)),
        '\u{180B}'..='\u{180F}' => either(|n| of_script(n, |s| s == Script::Mongolian)),
        '\u{AD}' => before.is_some_and(is_letter) && after.is_some_and(is_letter),
        '\u{2800}' => either(|n| matches!(n, '\u{2801}'..='\u{28FF}')),
        _ => false,
    }
}

/// Whether `c` is a virama (a halant: Devanagari to Malayalam, Sinhala's
/// al-lakuna, Myanmar's asat and virama, Khmer's coeng), after which a
/// U+200B keeps the next consonant from forming a conjunct, as a ZWNJ is
/// meant to: deleting it would change how the word shows.
pub(crate) fn is_virama(c: char) -> bool {
    matches!(
        c,
        '\u{094D}'
            | '\u{09CD}'
            | '\u{0A4D}'
            | '\u{0ACD}'
            | '\u{0B4D}'
            | '\u{0BCD}'
            | '\u{0C4D}'
            | '\u{0CCD}'
            | '\u{0D4D}'
            | '\u{0DCA}'
            | '\u{1039}'
            | '\u{103A}'
            | '\u{17D2}'
    )
}

/// Whether `c` between `before` and `after` hides inside text: beside a
/// word (a letter or digit, or the `%` of a printf format, which stands
/// for one), and for ZWNJ and ZWJ, which join, inside one. A character
/// beside no word is an item of a list of characters (a locale's exemplar
/// characters `"\u{200C}\u{200D}"`, `"\u{200B} ໐ ໑"`), even where a stray
/// one stands between a space and a sign (`«-»\u{200B} ayırıcı`).
pub(crate) fn in_a_word(c: char, before: Option<char>, after: Option<char>) -> bool {
    let word = |n: Option<char>| n.is_some_and(|n| n.is_alphanumeric() || n == '%');
    match c {
        '\u{200C}' | '\u{200D}' => word(before) && word(after),
        _ => word(before) || word(after),
    }
}

/// Whether a character between `before` and `after` is a range's end in a
/// character class (`[\u{180B}-\u{180D}]` written out, a table of
/// identifier characters): data, in a program's string as in prose.
pub(crate) fn ends_a_range(before: Option<char>, after: Option<char>) -> bool {
    before == Some('-') || after == Some('-')
}

/// Whether `c` is the U+200D of an emoji ZWJ sequence (`👨\u{200D}👩`):
/// never a split name, in code or in text.
pub(crate) fn joins_emoji(c: char, before: Option<char>, after: Option<char>) -> bool {
    c == '\u{200D}' && (before.is_some_and(is_emoji_part) || after.is_some_and(is_emoji_part))
}

/// Whether one of the scripts of `c` (its Script_Extensions) passes
/// `test`; none does for the characters every script shares (spaces,
/// digits, most punctuation) and for marks that take their base's. ASCII,
/// most of any text, is answered without the tables.
fn of_script(c: char, test: fn(Script) -> bool) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic() && test(Script::Latin);
    }
    let ext: ScriptExtension = c.script_extension();
    !(ext.is_common() || ext.is_inherited()) && ext.iter().any(test)
}

/// A letter (or a mark on one): where a soft hyphen marks a break inside
/// a word.
fn is_letter(c: char) -> bool {
    c.is_alphabetic()
}

/// Whether the script's letters join or form conjuncts, so that ZWNJ and
/// ZWJ choose their shapes: every script but the alphabets and syllabaries
/// whose letters stand apart, and the scripts left to their texts.
fn joins(s: Script) -> bool {
    use Script::*;
    !s.is_recommended()
        || !matches!(
            s,
            Latin
                | Greek
                | Cyrillic
                | Armenian
                | Georgian
                | Hebrew
                | Ethiopic
                | Hangul
                | Han
                | Hiragana
                | Katakana
                | Bopomofo
                | Thai
                | Lao
        )
}

/// Whether the script is written without spaces between words (U+200B
/// marks where a line may break), or is one left to its texts.
fn spaceless(s: Script) -> bool {
    use Script::*;
    !s.is_recommended()
        || matches!(
            s,
            Thai | Lao | Khmer | Myanmar | Tibetan | Han | Hiragana | Katakana | Bopomofo
        )
}

/// A character an emoji ZWJ sequence is made of: pictographs and symbols,
/// the emoji presentation selector, skin tones, the keycap mark.
fn is_emoji_part(c: char) -> bool {
    matches!(
        u32::from(c),
        0xA9 | 0xAE
            | 0x203C..=0x2BFF
            | 0x3030
            | 0x303D
            | 0x3297
            | 0x3299
            | 0xFE0F
            | 0x1F000..=0x1FAFF
    )
}

/// How long a line of a table of characters may be, either side of the
/// character: tables are short lines, and a longer one is never searched.
const TABLE_REACH: usize = 256;

/// The line around `i` when it is a short one (its start and end within
/// [`TABLE_REACH`] bytes of `i`), the only kind [`names`] reads.
pub(crate) fn short_line(bytes: &[u8], i: usize) -> Option<Range<usize>> {
    let from = i.saturating_sub(TABLE_REACH);
    let start = match memchr::memrchr(b'\n', &bytes[from..i]) {
        Some(k) => from + k + 1,
        None if from == 0 => 0,
        None => return None,
    };
    let to = (i + TABLE_REACH).min(bytes.len());
    let end = match memchr::memchr(b'\n', &bytes[i..to]) {
        Some(k) => i + k,
        None if to == bytes.len() => to,
        None => return None,
    };
    Some(start..end)
}

/// Whether `line` names the character `c`: its code point (`U+00AD`,
/// `00ad`, `0xAD`, or in decimal, `173`) as a word, or its name (`SOFT
/// HYPHEN`): a table of characters, whose characters are its data.
pub(crate) fn names(line: &[u8], c: char, name: Option<&str>) -> bool {
    let v = u32::from(c);
    let words = line.split(|b| !(b.is_ascii_alphanumeric() || *b == b'+'));
    let code_in = |word: &[u8]| -> bool {
        let (digits, prefixed) = match word {
            [b'u' | b'U', b'+', rest @ ..] | [b'0', b'x' | b'X', rest @ ..] => (rest, true),
            _ => (word, false),
        };
        let hex = !digits.is_empty()
            && digits.len() <= 6
            && (prefixed || digits.len() >= 4)
            && digits.iter().all(u8::is_ascii_hexdigit)
            && u32::from_str_radix(std::str::from_utf8(digits).unwrap_or(""), 16) == Ok(v);
        let decimal = v > 99
            && !prefixed
            && digits.len() <= 7
            && digits.iter().all(u8::is_ascii_digit)
            && std::str::from_utf8(digits)
                .ok()
                .and_then(|d| d.parse().ok())
                == Some(v);
        hex || decimal
    };
    words.into_iter().any(code_in)
        || name.is_some_and(|n| {
            line.windows(n.len())
                .any(|w| w.eq_ignore_ascii_case(n.as_bytes()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(text: &str) -> bool {
        let (i, c) = text.char_indices().find(|&(_, c)| is_judged(c)).unwrap();
        let (before, after) = neighbours(
            text.as_bytes(),
            i,
            c.len_utf8(),
            &(0..text.len()),
            &mut Runs::default(),
        );
        needed(c, before, after)
    }

    #[test]
    fn joiners_are_needed_beside_joining_scripts_and_emoji() {
        assert!(judged("می\u{200C}خواهم"));
        assert!(judged("क्\u{200D}ष"));
        assert!(judged("👨\u{200D}👩"));
        assert!(judged("ꦗꦮ\u{200C}ꦤ"));
        assert!(!judged("pass\u{200D}word"));
        assert!(!judged("при\u{200C}вет"));
        assert!(!judged("'\u{200C}'"));
    }

    #[test]
    fn a_zero_width_space_is_needed_beside_scripts_without_spaces() {
        assert!(judged("ភាសា\u{200B}ខ្មែរ"));
        assert!(judged("ꦲꦏ꧀ꦱꦫ\u{200B}ꦗꦮ"));
        assert!(judged("᭄ᬩᬮᬶ\u{200B}ᬩᬲ"));
        assert!(judged("\"\u{200B}\u{200B}ស"));
        assert!(judged("日本\u{200B}語"));
        assert!(!judged("user\u{200B}Name"));
        assert!(!judged("'hello' + '\u{200B}' + 'world'"));
        assert!(!judged("при\u{200B}вет"));
    }

    #[test]
    fn a_zero_width_space_beside_a_placeholder_is_judged_by_the_letters_nearest() {
        let by_letters = |text: &str| {
            let i = text.find('\u{200B}').unwrap();
            let (before, after) = nearest_letters(text.as_bytes(), i, 3, &(0..text.len()));
            needed('\u{200B}', before, after)
        };
        assert!(by_letters("បញ្ចូល %1\u{200B} ដោយ"));
        assert!(!by_letters("usados \u{200B}\u{200B}para"));
        assert!(!by_letters("URI 또는 \u{200B}해시"));
        // The line ends the search.
        assert!(!by_letters("ដោយ\n%1\u{200B} x"));
    }

    #[test]
    fn mongolian_selectors_soft_hyphens_and_braille_blanks() {
        assert!(judged("ᠬᠠᠷ\u{180E}ᠠ"));
        assert!(judged("ᠭ\u{180B}ᠠ"));
        assert!(!judged("a\u{180E} b"));
        assert!(judged("Bestands\u{AD}beheer"));
        assert!(judged("Նոր\u{AD}ֆոլկ"));
        assert!(!judged("'\u{AD}'"));
        assert!(!judged("x =\u{AD}1"));
        assert!(judged("⣿⠀⠀⠀⣿"));
        assert!(judged("⠓⠑⠀⠺"));
        assert!(!judged("'⠀'"));
        assert!(!judged("hello⠀world"));
    }

    #[test]
    fn a_line_that_names_the_character_is_a_table() {
        let names = |line: &str, c: char, name: &str| {
            let i = line.find(c).unwrap();
            let range = short_line(line.as_bytes(), i).unwrap();
            names(&line.as_bytes()[range], c, Some(name))
        };
        assert!(names(
            "\u{AD}\t--\t0xad\t173\tSOFT HYPHEN",
            '\u{AD}',
            "SOFT HYPHEN"
        ));
        assert!(names("00ad   \u{AD}   x", '\u{AD}', "SOFT HYPHEN"));
        assert!(names("x \u{AD} 173", '\u{AD}', "SOFT HYPHEN"));
        assert!(names(
            "U+200B \u{200B} ZWSP",
            '\u{200B}',
            "ZERO WIDTH SPACE"
        ));
        assert!(!names("Jog\u{AD}jakarta", '\u{AD}', "SOFT HYPHEN"));
        assert!(!names("page 1730 \u{AD} ad", '\u{AD}', "SOFT HYPHEN"));
        // A long line is no table, and is not searched.
        let long = format!("{}\u{AD} 00AD", "x".repeat(300));
        assert_eq!(short_line(long.as_bytes(), 300), None);
    }
}
