//! Small helpers that turn bytes and code points into words, and the
//! classes of code points the rules and the renderer share (hidden ones,
//! noncharacters).

use std::fmt::Write;

/// `\xC0\xAE`: every byte escaped, the way the label shows exact bytes.
/// Long runs are cut after `max` bytes with `…`.
pub(crate) fn escape_bytes(bytes: &[u8], max: usize) -> String {
    let mut out = String::with_capacity(bytes.len().min(max) * 4 + 3);
    for b in bytes.iter().take(max) {
        let _ = write!(out, "\\x{b:02X}");
    }
    if bytes.len() > max {
        out.push('…');
    }
    out
}

/// Bytes as text with every non-ASCII or control byte escaped (`caf\xE9`),
/// for file names and `--diff`.
pub fn escape_lossless(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in utf8lint_codec::Utf8Chunks::new(bytes) {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                c if is_hidden(c) => {
                    let _ = write!(out, "\\u{{{:X}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// Characters that must never reach a terminal raw: C0 and C1 controls
/// (ESC starts terminal sequences, CR and LF forge lines), the bidi controls
/// that reorder what is shown (U+061C, U+200E/F, U+202A..U+202E,
/// U+2066..U+2069) and invisible ones (U+00AD, zero-width characters,
/// U+FEFF, tag characters, variation selectors...).
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
        || is_noncharacter(u32::from(c))
}

/// U+FDD0..U+FDEF and the last two code points of every plane.
pub(crate) fn is_noncharacter(v: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&v) || (v & 0xFFFE == 0xFFFE && v <= 0x10FFFF)
}

/// Text from outside (a message, a label, a shown line) with every hidden
/// character (a control, bidi or invisible one) written as `\u{202E}`, so
/// nothing reorders or drives the terminal. Backslashes are kept: this is for content, where the
/// escape only needs to be visible; names use [`escape_lossless`].
pub fn escape_shown(text: &str) -> String {
    if !text.chars().any(is_hidden) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            let _ = write!(out, "\\u{{{:X}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// `U+002E FULL STOP`, `U+00E9 `é``, `U+D800`, `U+200000`: a code point
/// with its name where we know it, or the character itself where it has a
/// glyph.
pub(crate) fn describe_code_point(value: u32) -> String {
    let mut out = format!("U+{value:04X}");
    if let Some(name) = ascii_name(value) {
        out.push(' ');
        out.push_str(name);
    } else if let Some(name) = other_name(value) {
        out.push(' ');
        out.push_str(name);
    } else if let Some(c) = char::from_u32(value).filter(|&c| !is_hidden(c)) {
        let _ = write!(out, " `{c}`");
    }
    out
}

fn other_name(value: u32) -> Option<&'static str> {
    Some(match value {
        0x80..=0x9F => "(a C1 control)",
        0xA0 => "NO-BREAK SPACE",
        0xAD => "SOFT HYPHEN",
        0x200B => "ZERO WIDTH SPACE",
        0x2060 => "WORD JOINER",
        0xFEFF => "ZERO WIDTH NO-BREAK SPACE",
        0xFFFD => "REPLACEMENT CHARACTER",
        0xD800..=0xDBFF => "(a high surrogate)",
        0xDC00..=0xDFFF => "(a low surrogate)",
        _ => return None,
    })
}

/// The Unicode name of an ASCII code point.
pub(crate) fn ascii_name(value: u32) -> Option<&'static str> {
    const CONTROLS: [&str; 32] = [
        "NULL",
        "START OF HEADING",
        "START OF TEXT",
        "END OF TEXT",
        "END OF TRANSMISSION",
        "ENQUIRY",
        "ACKNOWLEDGE",
        "BELL",
        "BACKSPACE",
        "CHARACTER TABULATION",
        "LINE FEED",
        "LINE TABULATION",
        "FORM FEED",
        "CARRIAGE RETURN",
        "SHIFT OUT",
        "SHIFT IN",
        "DATA LINK ESCAPE",
        "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO",
        "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR",
        "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE",
        "END OF TRANSMISSION BLOCK",
        "CANCEL",
        "END OF MEDIUM",
        "SUBSTITUTE",
        "ESCAPE",
        "INFORMATION SEPARATOR FOUR",
        "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE",
    ];
    const PUNCT: [(u8, &str); 33] = [
        (b' ', "SPACE"),
        (b'!', "EXCLAMATION MARK"),
        (b'"', "QUOTATION MARK"),
        (b'#', "NUMBER SIGN"),
        (b'$', "DOLLAR SIGN"),
        (b'%', "PERCENT SIGN"),
        (b'&', "AMPERSAND"),
        (b'\'', "APOSTROPHE"),
        (b'(', "LEFT PARENTHESIS"),
        (b')', "RIGHT PARENTHESIS"),
        (b'*', "ASTERISK"),
        (b'+', "PLUS SIGN"),
        (b',', "COMMA"),
        (b'-', "HYPHEN-MINUS"),
        (b'.', "FULL STOP"),
        (b'/', "SOLIDUS"),
        (b':', "COLON"),
        (b';', "SEMICOLON"),
        (b'<', "LESS-THAN SIGN"),
        (b'=', "EQUALS SIGN"),
        (b'>', "GREATER-THAN SIGN"),
        (b'?', "QUESTION MARK"),
        (b'@', "COMMERCIAL AT"),
        (b'[', "LEFT SQUARE BRACKET"),
        (b'\\', "REVERSE SOLIDUS"),
        (b']', "RIGHT SQUARE BRACKET"),
        (b'^', "CIRCUMFLEX ACCENT"),
        (b'_', "LOW LINE"),
        (b'`', "GRAVE ACCENT"),
        (b'{', "LEFT CURLY BRACKET"),
        (b'|', "VERTICAL LINE"),
        (b'}', "RIGHT CURLY BRACKET"),
        (b'~', "TILDE"),
    ];
    const DIGITS: [&str; 10] = [
        "DIGIT ZERO",
        "DIGIT ONE",
        "DIGIT TWO",
        "DIGIT THREE",
        "DIGIT FOUR",
        "DIGIT FIVE",
        "DIGIT SIX",
        "DIGIT SEVEN",
        "DIGIT EIGHT",
        "DIGIT NINE",
    ];
    const UPPER: [&str; 26] = [
        "LATIN CAPITAL LETTER A",
        "LATIN CAPITAL LETTER B",
        "LATIN CAPITAL LETTER C",
        "LATIN CAPITAL LETTER D",
        "LATIN CAPITAL LETTER E",
        "LATIN CAPITAL LETTER F",
        "LATIN CAPITAL LETTER G",
        "LATIN CAPITAL LETTER H",
        "LATIN CAPITAL LETTER I",
        "LATIN CAPITAL LETTER J",
        "LATIN CAPITAL LETTER K",
        "LATIN CAPITAL LETTER L",
        "LATIN CAPITAL LETTER M",
        "LATIN CAPITAL LETTER N",
        "LATIN CAPITAL LETTER O",
        "LATIN CAPITAL LETTER P",
        "LATIN CAPITAL LETTER Q",
        "LATIN CAPITAL LETTER R",
        "LATIN CAPITAL LETTER S",
        "LATIN CAPITAL LETTER T",
        "LATIN CAPITAL LETTER U",
        "LATIN CAPITAL LETTER V",
        "LATIN CAPITAL LETTER W",
        "LATIN CAPITAL LETTER X",
        "LATIN CAPITAL LETTER Y",
        "LATIN CAPITAL LETTER Z",
    ];
    const LOWER: [&str; 26] = [
        "LATIN SMALL LETTER A",
        "LATIN SMALL LETTER B",
        "LATIN SMALL LETTER C",
        "LATIN SMALL LETTER D",
        "LATIN SMALL LETTER E",
        "LATIN SMALL LETTER F",
        "LATIN SMALL LETTER G",
        "LATIN SMALL LETTER H",
        "LATIN SMALL LETTER I",
        "LATIN SMALL LETTER J",
        "LATIN SMALL LETTER K",
        "LATIN SMALL LETTER L",
        "LATIN SMALL LETTER M",
        "LATIN SMALL LETTER N",
        "LATIN SMALL LETTER O",
        "LATIN SMALL LETTER P",
        "LATIN SMALL LETTER Q",
        "LATIN SMALL LETTER R",
        "LATIN SMALL LETTER S",
        "LATIN SMALL LETTER T",
        "LATIN SMALL LETTER U",
        "LATIN SMALL LETTER V",
        "LATIN SMALL LETTER W",
        "LATIN SMALL LETTER X",
        "LATIN SMALL LETTER Y",
        "LATIN SMALL LETTER Z",
    ];
    let v = u8::try_from(value).ok()?;
    match v {
        0x00..=0x1F => Some(CONTROLS[usize::from(v)]),
        0x7F => Some("DELETE"),
        b'0'..=b'9' => Some(DIGITS[usize::from(v - b'0')]),
        b'A'..=b'Z' => Some(UPPER[usize::from(v - b'A')]),
        b'a'..=b'z' => Some(LOWER[usize::from(v - b'a')]),
        _ => PUNCT.iter().find(|(b, _)| *b == v).map(|(_, n)| *n),
    }
}

/// The character each of the 256 bytes decodes to in the single-byte
/// `encoding` (`None` where it maps none): one decoding of all 256 with
/// replacement, one character each (U+FFFD for an unmapped byte, which no
/// mapped byte of these encodings decodes to).
pub(crate) fn single_byte_chars(encoding: &'static encoding_rs::Encoding) -> [Option<char>; 256] {
    debug_assert!(encoding.is_single_byte());
    let every: [u8; 256] = std::array::from_fn(|b| b as u8);
    let text = encoding.decode_without_bom_handling(&every).0;
    let mut chars = [None; 256];
    for (slot, c) in chars.iter_mut().zip(text.chars()) {
        *slot = (c != char::REPLACEMENT_CHARACTER).then_some(c);
    }
    chars
}

/// What a single byte 80..FF would be in windows-1252 (the web's reading of
/// ISO-8859-1), if it is a printable character there.
pub fn windows_1252_char(byte: u8) -> Option<char> {
    let input = [byte];
    let (text, had_errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&input);
    let c = text.chars().next()?;
    (!had_errors && !c.is_control()).then_some(c)
}

/// The character at `i` of well-formed `bytes`, and its length; `None` at
/// the end (a character before the end asks for the one after it).
pub(crate) fn char_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let len = match *bytes.get(i)? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let seq = bytes.get(i..i + len)?;
    if len == 1 {
        return Some((char::from(seq[0]), 1));
    }
    // Asked for every neighbour of every candidate: decoded here, not
    // validated by a call, with the same answer (an overlong form, a
    // surrogate or a value past U+10FFFF is no character).
    if seq[1..].iter().any(|&b| b & 0xC0 != 0x80) {
        return None;
    }
    let bits = seq[1..]
        .iter()
        .fold(u32::from(seq[0]) & (0x7F >> len), |acc, &b| {
            (acc << 6) | u32::from(b & 0x3F)
        });
    let shortest = match bits {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 4,
    };
    char::from_u32(bits)
        .filter(|_| shortest == len)
        .map(|c| (c, len))
}

/// The character that ends at `i` of well-formed `bytes` (`None` where
/// the bytes before `i` do not end a character): its lead byte is at most
/// three continuation bytes back.
pub(crate) fn char_before(bytes: &[u8], i: usize) -> Option<char> {
    let mut start = i.checked_sub(1)?;
    while start > 0 && i - start < 4 && bytes.get(start)? & 0xC0 == 0x80 {
        start -= 1;
    }
    let (c, len) = char_at(bytes, start)?;
    (start + len == i).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `char_at` decodes exactly what `from_utf8` accepts: every sequence
    /// of two and three bytes, and four-byte ones at every edge.
    #[test]
    fn the_character_at_an_offset_is_what_a_validator_reads() {
        let want = |seq: &[u8]| {
            std::str::from_utf8(seq)
                .ok()
                .and_then(|t| t.chars().next())
                .map(|c| (c, seq.len()))
                .filter(|&(c, _)| c.len_utf8() == seq.len())
        };
        for a in 0x80..=0xFFu8 {
            for b in 0..=0xFFu8 {
                if (0xC0..=0xDF).contains(&a) {
                    assert_eq!(char_at(&[a, b], 0), want(&[a, b]), "{a:02X} {b:02X}");
                }
                if (0xE0..=0xEF).contains(&a) {
                    for c in 0..=0xFFu8 {
                        assert_eq!(
                            char_at(&[a, b, c], 0),
                            want(&[a, b, c]),
                            "{a:02X} {b:02X} {c:02X}"
                        );
                    }
                }
            }
        }
        let edges = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0, 0xFF];
        for a in 0xF0..=0xF7u8 {
            for b in edges {
                for c in edges {
                    for d in edges {
                        let seq = [a, b, c, d];
                        assert_eq!(char_at(&seq, 0), want(&seq), "{seq:02X?}");
                    }
                }
            }
        }
        assert_eq!(char_at(b"a", 0), Some(('a', 1)));
        assert_eq!(char_at(b"\x80", 0), None);
        assert_eq!(char_at(b"\xE2\x82", 0), None);
    }

    #[test]
    fn the_character_before_an_offset_is_the_one_that_ends_there() {
        let text = "a\u{e9}\u{20ac}\u{1f600}b\u{202e}\u{7f}";
        let bytes = text.as_bytes();
        for i in 0..=bytes.len() {
            let want = text
                .is_char_boundary(i)
                .then(|| text[..i].chars().next_back())
                .flatten();
            assert_eq!(char_before(bytes, i), want, "at {i}");
        }
        // Bytes that end no character: a lone continuation, a cut sequence.
        assert_eq!(char_before(b"a\x80", 2), None);
        assert_eq!(char_before(b"\xe2\x82", 2), None);
        assert_eq!(char_before(b"\x80\x80\x80\x80\x80", 5), None);
    }

    #[test]
    fn words_for_code_points() {
        assert_eq!(describe_code_point(0x2E), "U+002E FULL STOP");
        assert_eq!(describe_code_point(0x2F), "U+002F SOLIDUS");
        assert_eq!(describe_code_point(0x5C), "U+005C REVERSE SOLIDUS");
        assert_eq!(describe_code_point(0), "U+0000 NULL");
        assert_eq!(describe_code_point(0xE9), "U+00E9 `é`");
        assert_eq!(describe_code_point(0x233B4), "U+233B4 `𣎴`");
        assert_eq!(describe_code_point(0xD800), "U+D800 (a high surrogate)");
        assert_eq!(describe_code_point(0x200000), "U+200000");
        for v in 0..128 {
            assert!(ascii_name(v).is_some(), "{v}");
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(escape_bytes(b"\xC0\xAE", 8), "\\xC0\\xAE");
        assert_eq!(escape_bytes(&[0xFF; 10], 2), "\\xFF\\xFF…");
        assert_eq!(
            escape_lossless(b"caf\xE9\n\xEF\xBB\xBF"),
            "caf\\xE9\\u{A}\\u{FEFF}"
        );
        assert_eq!(escape_lossless("a\\b".as_bytes()), "a\\\\b");
        assert_ne!(escape_lossless(b"caf\xE9"), escape_lossless(b"caf\\xE9"));
        assert_eq!(
            escape_lossless("\x1b]0;t\x07\u{202E}\u{85}".as_bytes()),
            "\\u{1B}]0;t\\u{7}\\u{202E}\\u{85}"
        );
        assert_eq!(escape_shown("a\u{202E}b\u{E0041}"), "a\\u{202E}b\\u{E0041}");
        assert_eq!(escape_shown("é \\"), "é \\");
        assert_eq!(describe_code_point(0x202E), "U+202E");
        assert_eq!(windows_1252_char(0xE9), Some('é'));
        assert_eq!(windows_1252_char(0x80), Some('€'));
        assert_eq!(windows_1252_char(0x81), None);
    }
}
