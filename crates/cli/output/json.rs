//! `--format json` and `json-lines`: one object per diagnostic. The schema
//! is documented field by field in docs/output-formats.md; keep the
//! two in step.
//!
//! Written straight into bytes, field by field, rather than built as a
//! `serde_json::Value` and serialized: a map of values per finding (each
//! key and string copied, then freed) took 9% of a whole-tree scan's CPU.
//! Bytes rather than a `String`, so that digits and escapes are copied as
//! they are (a U005 finding lists every range of ill-formed bytes: 342,000
//! numbers in the mixed tree); every piece is UTF-8 (text from `&str`,
//! ASCII punctuation, digits and escapes), checked once per file
//! ([`finish`]). Strings and numbers go through serde_json's writer, so the
//! output is what `serde_json` gives for the same object, with its key
//! order.

use utf8lint_diagnostics::{Diagnostic, Edit, Fix, escape_lossless};

use super::place::{Region, is_file_level};

/// Appends one diagnostic's JSON object (no newline) to `out`.
/// `source` is the file's bytes, which a fix's edits are made for.
pub(super) fn line(out: &mut Vec<u8>, d: &Diagnostic, path: &str, region: &Region, source: &[u8]) {
    let file_level = is_file_level(d);
    let position = |n: usize| (!file_level).then_some(n);
    out.extend_from_slice(b"{\"path\":");
    string(out, path);
    out.extend_from_slice(b",\"code\":");
    string(out, d.rule.code());
    out.extend_from_slice(b",\"rule\":");
    string(out, d.rule.name());
    out.extend_from_slice(b",\"level\":");
    string(out, d.level.as_str());
    out.extend_from_slice(b",\"message\":");
    string(out, &d.message);
    out.extend_from_slice(b",\"label\":");
    string(out, &d.label);
    out.extend_from_slice(b",\"byte_start\":");
    number(out, d.span.start);
    out.extend_from_slice(b",\"byte_end\":");
    number(out, d.span.end);
    out.extend_from_slice(b",\"line\":");
    optional_number(out, position(region.start.line));
    out.extend_from_slice(b",\"column\":");
    optional_number(out, position(region.start.column));
    out.extend_from_slice(b",\"end_line\":");
    optional_number(out, position(region.end.line));
    out.extend_from_slice(b",\"end_column\":");
    optional_number(out, position(region.end.column));
    out.extend_from_slice(b",\"subparts\":");
    array(out, &d.subparts, |out, s| {
        out.extend_from_slice(b"{\"offset\":");
        number(out, s.offset);
        out.extend_from_slice(b",\"len\":");
        number(out, usize::from(s.len));
        out.extend_from_slice(b",\"kind\":");
        word(out, s.kind.as_str());
        out.push(b'}');
    });
    out.extend_from_slice(b",\"notes\":");
    array(out, &d.notes, |out, note| string(out, note));
    out.extend_from_slice(b",\"help\":");
    array(out, &d.help, |out, help| string(out, help));
    out.extend_from_slice(b",\"policy_source\":");
    match &d.policy_source {
        Some(source) => string(out, &source.describe()),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"related\":");
    array(out, &d.related, |out, r| {
        out.push(b'[');
        number(out, r.start);
        out.push(b',');
        number(out, r.end);
        out.push(b']');
    });
    out.extend_from_slice(b",\"fix\":");
    match &d.fix {
        Some(f) => fix(out, f, source),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"alternatives\":");
    array(out, &d.alternatives, |out, f| fix(out, f, source));
    out.push(b'}');
}

/// A fix as JSON: its applicability, title and edits, which are exactly
/// what `--fix` writes. A whole-file conversion also says so (`"kind":
/// "transcode"`, from, to and the span), and each of its edits that is a
/// range of the file decoded to UTF-8 is described by the encoding
/// (`"decode_from"`) rather than embedded: its bytes are the whole file
/// again. Its other edits (an encoding declaration rewritten) are written
/// as any fix's are.
fn fix(out: &mut Vec<u8>, fix: &Fix, source: &[u8]) {
    out.extend_from_slice(b"{\"applicability\":");
    string(out, fix.applicability().as_str());
    out.extend_from_slice(b",\"title\":");
    string(out, fix.title());
    let transcoded_from = fix.transcoded_from();
    if let Some(from) = transcoded_from {
        let range = fix.range();
        out.extend_from_slice(b",\"kind\":\"transcode\",\"from\":");
        string(out, from);
        out.extend_from_slice(b",\"to\":\"UTF-8\",\"byte_start\":");
        number(out, range.start);
        out.extend_from_slice(b",\"byte_end\":");
        number(out, range.end);
    }
    out.extend_from_slice(b",\"edits\":");
    array(out, fix.edits(), |out, e| {
        let range = e.range();
        out.extend_from_slice(b"{\"byte_start\":");
        number(out, range.start);
        out.extend_from_slice(b",\"byte_end\":");
        number(out, range.end);
        if let Some(from) = transcoded_from.filter(|from| is_decoded(e, from, source)) {
            out.extend_from_slice(b",\"decode_from\":");
            string(out, from);
            out.push(b'}');
            return;
        }
        out.extend_from_slice(b",\"replacement_hex\":\"");
        let replacement = e.replacement(source);
        hex(out, &replacement);
        out.extend_from_slice(b"\",\"replacement_escaped\":");
        string(out, &escape_lossless(&replacement));
        out.push(b'}');
    });
    out.push(b'}');
}

/// Whether `edit` puts in place of its range that range of `source`
/// decoded from the encoding `from` (WHATWG's name) to UTF-8, so that
/// `"decode_from"` describes it exactly. An edit that holds no bytes is
/// such a decoding; one that holds many is compared with the decoding.
fn is_decoded(edit: &Edit, from: &str, source: &[u8]) -> bool {
    let Some(literal) = edit.literal() else {
        return true;
    };
    // A declaration's few bytes are written out; only a range's
    // conversion is worth describing.
    if literal.len() < 64 {
        return false;
    }
    let Some(encoding) = encoding_rs::Encoding::for_label(from.as_bytes()) else {
        return false;
    };
    let Some(bytes) = source.get(edit.range()) else {
        return false;
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    !had_errors && text.as_bytes() == literal
}

/// `[a,b,...]`, each item written by `item`.
fn array<T>(out: &mut Vec<u8>, items: &[T], mut item: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item(out, x);
    }
    out.push(b']');
}

/// `n` in decimal, through serde_json's writer (itoa): not `write!`, whose
/// formatting machinery per number was most of the cost of a U005 finding's
/// ranges (171,000 of them in the mixed tree's 141 findings).
fn number(out: &mut Vec<u8>, n: usize) {
    // Writing into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, &n);
}

fn optional_number(out: &mut Vec<u8>, n: Option<usize>) {
    match n {
        Some(n) => number(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends the object (no newline) for a file named on the command line
/// and not checked: `{"path": ..., "skipped": "binary (PNG image)"}`.
pub(super) fn skipped(out: &mut Vec<u8>, path: &str, why: &str) {
    out.extend_from_slice(b"{\"path\":");
    string(out, path);
    out.extend_from_slice(b",\"skipped\":");
    string(out, why);
    out.push(b'}');
}

/// A trouble as one object of the findings' stream (no `code`: not a
/// finding), `{"path": "a.txt", "trouble": "fix_refused", "message":
/// "..."}`, so that a tool reading JSON learns why a file was not fixed or
/// read; `path` is null when the trouble names no file.
pub(crate) fn trouble(t: &crate::trouble::Trouble) -> String {
    let mut out = b"{\"path\":".to_vec();
    match t.path() {
        Some(path) => {
            let (display, key) = super::names::display_path(path);
            string(&mut out, std::str::from_utf8(&key).unwrap_or(&display));
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"trouble\":");
    string(&mut out, t.kind.name());
    out.extend_from_slice(b",\"message\":");
    match t.path() {
        Some(_) => string(&mut out, &t.detail),
        None => string(&mut out, &t.text()),
    }
    out.extend_from_slice(b"}\n");
    String::from_utf8(out).expect("JSON written from strings")
}

/// A JSON string of utf8lint's own words that need no escape (a subpart's
/// kind, written for each of a legacy file's thousands): quoted as it is.
fn word(out: &mut Vec<u8>, s: &'static str) {
    debug_assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

/// A JSON string, escaped by serde_json's writer and then [`escape_more`].
pub(super) fn string(out: &mut Vec<u8>, s: &str) {
    let start = out.len();
    // Writing into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
    if may_need_more(s.as_bytes()) {
        let written = out.split_off(start);
        let text = String::from_utf8_lossy(&written);
        out.extend_from_slice(escape_more(&text).as_bytes());
    }
}

/// Whether serde_json writes characters raw that JSON should carry escaped
/// (see [`escape_more`]): DEL, and the lead bytes of the rest. A byte test,
/// as every string of every finding passes here.
fn may_need_more(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| matches!(b, 0x7F | 0xC2 | 0xD8 | 0xE2))
}

/// Whether `c` is written `\uXXXX` in JSON: DEL and the C1 controls,
/// which a terminal obeys; the bidi controls and marks, which reorder
/// what a viewer shows; U+2028 and U+2029, line breaks to JavaScript
/// before ES2019 and to many log viewers. serde_json leaves them raw; a
/// file's name may hold any of them.
fn needs_escape(c: char) -> bool {
    matches!(
        c,
        '\u{7F}'..='\u{9F}'
            | '\u{61C}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// JSON text (a document, or one string as serde_json writes it) with each
/// character [`needs_escape`] names written `\uXXXX`. They are never ASCII,
/// so never part of JSON's own syntax or escapes: the text means the same.
pub(crate) fn escape_more(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Lower-case hex, two digits a byte, no separators: `efbbbf`.
fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)]);
        out.push(DIGITS[usize::from(b & 15)]);
    }
}

/// Appends one file's JSON Lines, written by [`line`], to its text.
pub(super) fn finish(lines: Vec<u8>, text: &mut String) {
    match String::from_utf8(lines) {
        // A file's findings alone (the usual case) are moved, not copied: a
        // legacy file's finding can be hundreds of kilobytes.
        Ok(lines) if text.is_empty() => *text = lines,
        Ok(lines) => text.push_str(&lines),
        // Not reached: every piece written is UTF-8 (see the module's
        // comment); were one not, its bytes would show as U+FFFD.
        Err(e) => text.push_str(&String::from_utf8_lossy(e.as_bytes())),
    }
}
