//! `--format json`: JSON Lines, one object per diagnostic. The schema is
//! documented field by field in the README ("JSON Lines schema"); keep the
//! two in step.
//!
//! Written straight into the file's text, field by field, rather than built
//! as a `serde_json::Value` and serialized: a map of values per finding
//! (each key and string copied, then freed) took 9% of a whole-tree scan's
//! CPU. The output is what `serde_json` gives for the same object, with
//! its key order (the tests compare the two).

use utf8lint_diagnostics::{Diagnostic, Fix, escape_lossless};

use super::{Region, is_file_level};

/// Appends one diagnostic's JSON object (no newline) to `out`.
pub(super) fn line(out: &mut String, d: &Diagnostic, path: &str, region: &Region) {
    let file_level = is_file_level(d);
    let position = |n: usize| (!file_level).then_some(n);
    out.push_str("{\"path\":");
    string(out, path);
    out.push_str(",\"code\":");
    string(out, d.rule.code());
    out.push_str(",\"rule\":");
    string(out, d.rule.name());
    out.push_str(",\"level\":");
    string(out, d.level.as_str());
    out.push_str(",\"message\":");
    string(out, &d.message);
    out.push_str(",\"label\":");
    string(out, &d.label);
    out.push_str(",\"byte_start\":");
    number(out, d.span.start);
    out.push_str(",\"byte_end\":");
    number(out, d.span.end);
    out.push_str(",\"line\":");
    optional_number(out, position(region.start.line));
    out.push_str(",\"column\":");
    optional_number(out, position(region.start.column));
    out.push_str(",\"end_line\":");
    optional_number(out, position(region.end.line));
    out.push_str(",\"end_column\":");
    optional_number(out, position(region.end.column));
    out.push_str(",\"subparts\":");
    array(out, &d.subparts, |out, s| {
        out.push_str("{\"offset\":");
        number(out, s.offset);
        out.push_str(",\"len\":");
        number(out, usize::from(s.len));
        out.push_str(",\"kind\":");
        string(out, s.kind.as_str());
        out.push('}');
    });
    out.push_str(",\"notes\":");
    array(out, &d.notes, |out, note| string(out, note));
    out.push_str(",\"help\":");
    array(out, &d.help, |out, help| string(out, help));
    out.push_str(",\"policy_source\":");
    match &d.policy_source {
        Some(source) => string(out, &source.describe()),
        None => out.push_str("null"),
    }
    out.push_str(",\"related\":");
    array(out, &d.related, |out, r| {
        out.push('[');
        number(out, r.start);
        out.push(',');
        number(out, r.end);
        out.push(']');
    });
    out.push_str(",\"fix\":");
    match &d.fix {
        Some(f) => fix(out, f),
        None => out.push_str("null"),
    }
    out.push_str(",\"alternatives\":");
    array(out, &d.alternatives, fix);
    out.push('}');
}

/// A fix as JSON: its applicability, title and edits. A whole-file
/// conversion is described (`"kind": "transcode"`, from, to and the span)
/// rather than embedded: its bytes are the whole file again.
fn fix(out: &mut String, fix: &Fix) {
    out.push_str("{\"applicability\":");
    string(out, fix.applicability().as_str());
    out.push_str(",\"title\":");
    string(out, fix.title());
    if let Some(from) = fix.transcoded_from() {
        let range = fix.range();
        out.push_str(",\"kind\":\"transcode\",\"from\":");
        string(out, from);
        out.push_str(",\"to\":\"UTF-8\",\"byte_start\":");
        number(out, range.start);
        out.push_str(",\"byte_end\":");
        number(out, range.end);
        out.push('}');
        return;
    }
    out.push_str(",\"edits\":");
    array(out, fix.edits(), |out, e| {
        let range = e.range();
        out.push_str("{\"byte_start\":");
        number(out, range.start);
        out.push_str(",\"byte_end\":");
        number(out, range.end);
        out.push_str(",\"replacement_hex\":\"");
        hex(out, e.replacement());
        out.push_str("\",\"replacement_escaped\":");
        string(out, &escape_lossless(e.replacement()));
        out.push('}');
    });
    out.push('}');
}

/// `[a,b,...]`, each item written by `item`.
fn array<T>(out: &mut String, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(out, x);
    }
    out.push(']');
}

/// The decimal digits of 0 to 99, two bytes each.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// `n` in decimal, two digits per division. Not through `write!`: a U005
/// finding lists every range of ill-formed bytes (171,000 ranges in the
/// mixed tree's 141 findings), and the formatting machinery per number
/// was most of their cost.
fn number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    while n >= 100 {
        let pair = 2 * (n % 100);
        n /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        at -= 2;
        digits[at..at + 2].copy_from_slice(&DIGIT_PAIRS[2 * n..2 * n + 2]);
    } else {
        at -= 1;
        // `n` is a digit: the cast loses nothing.
        digits[at] = b'0' + n as u8;
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

fn optional_number(out: &mut String, n: Option<usize>) {
    match n {
        Some(n) => number(out, n),
        None => out.push_str("null"),
    }
}

/// A JSON string, escaped as `serde_json` escapes one: `"` and `\`, and
/// the C0 controls (`\b`, `\t`, `\n`, `\f`, `\r` by name, the others as
/// `\u00XX` in lower-case hex); nothing else.
fn string(out: &mut String, s: &str) {
    out.push('"');
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        // `b` is ASCII, so `i` and `i + 1` are character boundaries.
        out.push_str(&s[plain..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            hex(out, &[b]);
        } else {
            out.push_str(escape);
        }
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
    out.push('"');
}

/// Lower-case hex, two digits a byte, no separators: `efbbbf`.
fn hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}

#[cfg(test)]
mod tests {
    use super::string;

    /// Every character serde_json escapes, and the ones it leaves alone
    /// (DEL, C1 controls, U+2028, non-ASCII), give what serde_json gives.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut every: String = (0u32..0x300).filter_map(char::from_u32).collect();
        every.push_str("\u{2028}\u{2029}\u{feff}\u{fffd}😀 end \"q\" \\ \\u");
        for s in [
            every.as_str(),
            "",
            "plain",
            "\"",
            "a\u{1}b",
            "\u{7f}",
            "é\n",
        ] {
            let mut ours = String::new();
            string(&mut ours, s);
            assert_eq!(ours, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for n in (0..100_000).chain([65_536, 1 << 40, usize::MAX / 10, usize::MAX]) {
            let mut ours = String::new();
            super::number(&mut ours, n);
            assert_eq!(ours, n.to_string());
        }
    }
}
