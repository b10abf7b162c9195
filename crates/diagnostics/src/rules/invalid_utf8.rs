//! U001 `invalid_utf8`: each run of adjacent maximal subparts, described in
//! human terms through the codec's interpretations.

use utf8lint_codec::{ErrorKind, Interpretation, Subpart, encode_utf8, interpret};

use crate::text::{describe_code_point, escape_bytes, windows_1252_char};
use crate::{Diagnostic, Edit, Fix, Level, Rule};

/// A run longer than this many subparts is split, so that one diagnostic
/// (and its list of subparts) stays a readable size however hostile the file.
pub(crate) const MAX_SUBPARTS_PER_RUN: usize = 256;

/// How many bytes a label shows before `…`.
const LABEL_BYTES: usize = 12;

/// Turns one run of adjacent subparts into diagnostics: one per
/// interpretation found in it, one per stretch of bytes with none.
/// `readings` says whether the file's ill-formed bytes are a handful in
/// text (`not_utf8::a_handful_of_bytes`, asked once per file), where a
/// byte's agreed Latin reading may be offered as its fix.
pub(crate) fn run_diagnostics(
    bytes: &[u8],
    run: &[Subpart],
    level: Level,
    readings: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(last) = run.last() else { return };
    let run_end = last.end();
    let mut i = 0;
    while let Some(first) = run.get(i) {
        let rest = bytes.get(first.offset..run_end).unwrap_or_default();
        // An interpretation counts only if it ends exactly on a subpart boundary.
        let reading = interpret(rest).and_then(|reading| {
            let end = first.offset + reading.len();
            let covered = run[i..].iter().position(|s| s.end() == end)?;
            Some((reading, covered + 1))
        });
        if let Some((reading, count)) = reading {
            out.push(interpreted(bytes, &run[i..i + count], reading, level));
            i += count;
            continue;
        }
        // A stretch of subparts with no reading, up to the next one that has.
        let mut j = i + 1;
        while let Some(next) = run.get(j) {
            let rest = bytes.get(next.offset..run_end).unwrap_or_default();
            if interpret(rest).is_some() {
                break;
            }
            j += 1;
        }
        out.push(plain(bytes, &run[i..j], level, readings));
        i = j;
    }
}

fn span_of(parts: &[Subpart]) -> std::ops::Range<usize> {
    let start = parts.first().map_or(0, |s| s.offset);
    let end = parts.last().map_or(start, Subpart::end);
    start..end
}

fn base(bytes: &[u8], parts: &[Subpart], level: Level, message: String) -> Diagnostic {
    let span = span_of(parts);
    let shown = bytes.get(span.clone()).unwrap_or_default();
    let mut d = Diagnostic::new(Rule::InvalidUtf8, level, span, message)
        .with_label(format!("`{}`", escape_bytes(shown, LABEL_BYTES)));
    d.subparts = parts.to_vec();
    d
}

fn replace_with_fffd(parts: &[Subpart]) -> Fix {
    let title = match parts.len() {
        1 => "replace with U+FFFD".to_string(),
        n => format!("replace with {n} U+FFFD, one per maximal subpart"),
    };
    Fix::unsafe_(
        title,
        parts
            .iter()
            .map(|s| Edit::replace(s.range(), "\u{FFFD}".as_bytes()))
            .collect(),
    )
}

fn interpreted(
    bytes: &[u8],
    parts: &[Subpart],
    reading: Interpretation,
    level: Level,
) -> Diagnostic {
    let message = match reading {
        Interpretation::Overlong { value, len } if len >= 5 => {
            format!(
                "overlong RFC 2279 {len}-byte encoding of {}",
                describe_code_point(value)
            )
        }
        Interpretation::Overlong { value, len } => {
            format!(
                "overlong {len}-byte encoding of {}",
                describe_code_point(value)
            )
        }
        Interpretation::Surrogate { value } => {
            format!(
                "UTF-16 surrogate {} encoded as UTF-8",
                describe_code_point(value)
            )
        }
        Interpretation::SurrogatePair { value, .. } => {
            format!("CESU-8 surrogate pair for {}", describe_code_point(value))
        }
        Interpretation::AboveMax { value } => {
            format!("4-byte form of U+{value:04X}, beyond U+10FFFF")
        }
        Interpretation::Rfc2279 { value, len } => {
            format!("RFC 2279 {len}-byte form of U+{value:04X}, beyond U+10FFFF")
        }
    };
    let mut d = base(bytes, parts, level, message);
    match reading {
        Interpretation::Overlong { value, .. } => {
            if let Ok(proper) = encode_utf8(value) {
                d.notes.push(format!(
                    "UTF-8 has exactly one form for {}: `{}`; RFC 3629 forbids longer ones",
                    describe_code_point(value),
                    escape_bytes(proper.as_bytes(), 4)
                ));
            }
            if matches!(value, 0x2E | 0x2F | 0x5C) {
                d.notes.push(
                    "RFC 3629 section 10: a decoder that accepted this would let `.`, `/` or `\\` past a check for the plain byte (the `/../` path-traversal attack)"
                        .into(),
                );
            }
            if value == 0 && reading.len() == 2 {
                d.notes
                    .push("`\\xC0\\x80` is Java's \"Modified UTF-8\" for U+0000, not UTF-8".into());
            }
            d.fix = Some(replace_with_fffd(parts));
        }
        Interpretation::Surrogate { .. } => {
            d.notes.push(
                "surrogates exist only in UTF-16; a lone one encoded like this is WTF-8 or CESU-8, never UTF-8"
                    .into(),
            );
            d.fix = Some(replace_with_fffd(parts));
        }
        Interpretation::SurrogatePair { value, high, low } => {
            let proper = encode_utf8(value).ok();
            d.notes.push(format!(
                "a UTF-16 program encoded the surrogates U+{high:04X} and U+{low:04X} one by one (CESU-8, WTF-8)"
            ));
            if let Some(proper) = proper {
                d.notes.push(format!(
                    "UTF-8 encodes U+{value:04X} as the 4 bytes `{}`",
                    escape_bytes(proper.as_bytes(), 4)
                ));
                d.fix = Some(Fix::unsafe_(
                    format!("re-encode as U+{value:04X} in UTF-8"),
                    vec![Edit::replace(span_of(parts), proper.as_bytes())],
                ));
            }
        }
        Interpretation::AboveMax { .. } | Interpretation::Rfc2279 { .. } => {
            d.notes.push(
                "RFC 3629 (2003) ends UTF-8 at U+10FFFF, 4 bytes; RFC 2279's longer forms are obsolete".into(),
            );
            d.fix = Some(replace_with_fffd(parts));
        }
    }
    d
}

/// The length a lead byte announces (2 to 4), for "cut short" messages.
fn announced_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn plain(bytes: &[u8], parts: &[Subpart], level: Level, readings: bool) -> Diagnostic {
    let span = span_of(parts);
    let total = span.len();
    let all = |kind: ErrorKind| parts.iter().all(|s| s.kind == kind);
    let first = parts.first().copied().unwrap_or(Subpart {
        offset: 0,
        len: 0,
        kind: ErrorKind::Truncated,
    });
    let lead = bytes.get(first.offset).copied().unwrap_or(0);
    let message = if parts.len() == 1 {
        match first.kind {
            ErrorKind::UnexpectedContinuation => "stray continuation byte".to_string(),
            ErrorKind::InvalidLeadByte => format!("byte `\\x{lead:02X}` never appears in UTF-8"),
            ErrorKind::Truncated => format!("{}-byte sequence cut short", announced_len(lead)),
            ErrorKind::Overlong => "start of an overlong sequence".to_string(),
            ErrorKind::Surrogate => "start of an encoded UTF-16 surrogate".to_string(),
            ErrorKind::AboveMax => "start of a sequence beyond U+10FFFF".to_string(),
        }
    } else if all(ErrorKind::UnexpectedContinuation) {
        format!("{} stray continuation bytes", parts.len())
    } else if all(ErrorKind::InvalidLeadByte) {
        format!("{} bytes that never appear in UTF-8", parts.len())
    } else if all(ErrorKind::Truncated) {
        format!("{} sequences cut short", parts.len())
    } else if parts[1..]
        .iter()
        .all(|s| s.kind == ErrorKind::UnexpectedContinuation)
    {
        // A lead byte and the continuation bytes it took, then a stop: the
        // prefix of a form that has no reading because it is incomplete.
        let what = match (first.kind, lead) {
            (ErrorKind::Overlong, _) => format!("overlong {}-byte form", announced_len(lead)),
            (ErrorKind::Surrogate, _) => "encoded UTF-16 surrogate".to_string(),
            (ErrorKind::AboveMax, _) => "4-byte form beyond U+10FFFF".to_string(),
            (ErrorKind::InvalidLeadByte, 0xF8..=0xFD) => {
                format!("RFC 2279 {}-byte form", lead.leading_ones())
            }
            _ => format!("ill-formed sequence starting `\\x{lead:02X}`"),
        };
        format!("{what} cut short after {total} bytes")
    } else {
        format!(
            "ill-formed UTF-8: {total} bytes in {} maximal subparts",
            parts.len()
        )
    };
    let mut d = base(bytes, parts, level, message);
    let next = bytes.get(span.end).copied();
    for sub in parts.iter().take(4) {
        let sub_bytes = bytes.get(sub.range()).unwrap_or_default();
        let b0 = sub_bytes.first().copied().unwrap_or(0);
        let note = match sub.kind {
            ErrorKind::UnexpectedContinuation if parts.len() == 1 => Some(format!(
                "`\\x{b0:02X}` can only continue a multi-byte sequence, and none is open here"
            )),
            ErrorKind::InvalidLeadByte if parts.len() == 1 => Some(match b0 {
                0xC0 | 0xC1 => format!("`\\x{b0:02X}` could only start an overlong 2-byte form"),
                0xF5..=0xF7 => {
                    format!("`\\x{b0:02X}` could only start a 4-byte form beyond U+10FFFF")
                }
                0xF8..=0xFD => format!(
                    "`\\x{b0:02X}` is the lead byte of an RFC 2279 {}-byte form, which RFC 3629 removed",
                    b0.leading_ones()
                ),
                _ => format!(
                    "`\\x{b0:02X}` is not part of UTF-8 at all (`\\xFF\\xFE` starts UTF-16LE text)"
                ),
            }),
            ErrorKind::Truncated => {
                let by = if sub.end() == span.end {
                    match next {
                        None => "the end of the file".to_string(),
                        Some(b) if b.is_ascii_graphic() => format!("`{}`", b as char),
                        Some(b' ') => "a space".to_string(),
                        Some(b'\n') => "the end of the line".to_string(),
                        Some(b) => format!("`\\x{b:02X}`"),
                    }
                } else {
                    "another ill-formed byte".to_string()
                };
                Some(format!(
                    "`\\x{b0:02X}` announces a {}-byte sequence, cut short after {} byte{} by {by}",
                    announced_len(b0),
                    sub.len,
                    if sub.len == 1 { "" } else { "s" }
                ))
            }
            ErrorKind::Overlong => Some(format!(
                "`\\x{b0:02X}` followed by a byte below `\\x{}` can only be an overlong form",
                if b0 == 0xE0 { "A0" } else { "90" }
            )),
            ErrorKind::Surrogate => Some(
                "`\\xED` followed by `\\xA0`..`\\xBF` would encode a UTF-16 surrogate".to_string(),
            ),
            ErrorKind::AboveMax => Some(
                "`\\xF4` followed by `\\x90`..`\\xBF` would encode a value beyond U+10FFFF"
                    .to_string(),
            ),
            _ => None,
        };
        if let Some(note) = note
            && !d.notes.contains(&note)
        {
            d.notes.push(note);
        }
    }
    if d.message.starts_with("ill-formed UTF-8:") {
        let list: Vec<String> = parts
            .iter()
            .take(6)
            .map(|s| {
                let raw = bytes.get(s.range()).unwrap_or_default();
                format!(
                    "`{}` {}",
                    escape_bytes(raw, 4),
                    s.kind.as_str().replace('_', " ")
                )
            })
            .collect();
        let more = if parts.len() > 6 { ", ..." } else { "" };
        d.notes
            .insert(0, format!("maximal subparts: {}{more}", list.join(", ")));
    }
    // A lone high byte between ASCII is the signature of a legacy 8-bit file.
    if total == 1
        && lead >= 0x80
        && let Some(c) = windows_1252_char(lead)
    {
        let elsewhere = match latin_readings(lead) {
            Ok(_) => String::new(),
            Err(other) => format!(", in {} `{}`", other.0, other.1),
        };
        d.help.push(format!(
                "in windows-1252 (Latin-1) `\\x{lead:02X}` is `{c}`{elsewhere}: if the file was saved in a legacy encoding, convert it rather than patch bytes"
            ));
    }
    match legacy_letters(bytes, parts).filter(|_| readings) {
        // `caf\xE9`: the byte is a letter in windows-1252, so the repair
        // writes the letter, and U+FFFD stays the alternative.
        Some(letters) => {
            d.fix = Some(letters);
            d.alternatives.push(replace_with_fffd(parts));
        }
        None => d.fix = Some(replace_with_fffd(parts)),
    }
    d
}

/// The character every Latin encoding (`not_utf8`'s Latin readings) that reads `byte` as a
/// character reads it as (a C1 control or an unmapped byte is no reading),
/// or the first that reads it otherwise than windows-1252 does, with its
/// name: `\xE9` is `é` in all of them, `\xE8` `è` in windows-1252 and
/// `č` in windows-1250.
fn latin_readings(byte: u8) -> Result<char, (&'static str, char)> {
    let mut agreed = None;
    for encoding in crate::rules::not_utf8::LATIN_READINGS {
        let one = [byte];
        let (text, malformed) = encoding.decode_without_bom_handling(&one);
        let Some(c) = text
            .chars()
            .next()
            .filter(|c| !malformed && !c.is_control())
        else {
            continue;
        };
        match agreed {
            None => agreed = Some(c),
            Some(first) if first != c => return Err((encoding.name(), c)),
            Some(_) => {}
        }
    }
    agreed.ok_or((
        encoding_rs::WINDOWS_1252.name(),
        char::REPLACEMENT_CHARACTER,
    ))
}

/// The reading of `parts` as a fix, when every subpart is one byte that
/// every Latin encoding reads as the same letter (`\xE9` is `é`, `\xDF`
/// is `ß` in all of them, [`latin_readings`]) or typographic quote, dash
/// or ellipsis (`\x93` `“`, `\x96` `–`, which every windows-125x code
/// page puts at the same place): the one meaning of Latin bytes pasted
/// into UTF-8 text. A byte the encodings read differently (`\xE8` is `è`
/// in windows-1252 and `č` in windows-1250, Croatian `bjelogori\xE8na`)
/// has no such certainty, nor have symbols and controls (`\x80` `€`,
/// `\xA0`, `\xA4`): they keep U+FFFD, the hint naming the readings.
///
/// The run must also touch an ASCII letter or digit (`caf\xE9`,
/// `\x93quoted`): inside a word is where such bytes are text. A byte on
/// its own (`\xFF\xFE` at the start of a file, one between spaces) is as
/// likely binary or another encoding.
fn legacy_letters(bytes: &[u8], parts: &[Subpart]) -> Option<Fix> {
    let span = span_of(parts);
    let touches_word = |at: Option<&u8>| at.is_some_and(u8::is_ascii_alphanumeric);
    let before = span.start.checked_sub(1).and_then(|i| bytes.get(i));
    if !touches_word(before) && !touches_word(bytes.get(span.end)) {
        return None;
    }
    let mut text = String::new();
    let mut edits = Vec::with_capacity(parts.len());
    for sub in parts {
        let &[byte] = bytes.get(sub.range())? else {
            return None;
        };
        let typographic = matches!(byte, 0x85 | 0x91..=0x97);
        let c = latin_readings(byte)
            .ok()
            .filter(|c| c.is_alphabetic() || typographic)?;
        text.push(c);
        let mut utf8 = [0u8; 4];
        edits.push(Edit::replace(
            sub.range(),
            c.encode_utf8(&mut utf8).as_bytes(),
        ));
    }
    let shown = escape_bytes(bytes.get(span)?, LABEL_BYTES);
    Some(Fix::unsafe_(
        format!("replace `{shown}` with `{text}` (the bytes read as windows-1252)"),
        edits,
    ))
}
