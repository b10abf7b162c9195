//! U001 `invalid_utf8`: each run of adjacent maximal subparts, described in
//! human terms through the codec's interpretations.

use utf8lint_codec::{ErrorKind, Interpretation, Subpart, encode_utf8, interpret};

use crate::rules::dos_code_pages::{self, DOS_CODE_PAGES};
use crate::rules::not_utf8::StrayBytes;
use crate::text::{describe_code_point, escape_bytes, escape_shown};
use crate::{Diagnostic, Edit, Fix, Level, Rule};

pub(crate) use crate::errors::MAX_SUBPARTS_PER_RUN;

/// How many bytes a label shows before `…`.
const LABEL_BYTES: usize = 12;

/// Turns one run of adjacent subparts into diagnostics: one per
/// interpretation found in it, one per stretch of bytes with none.
/// `readings` says what the file's ill-formed bytes are (`not_utf8::
/// stray_bytes`, asked once per file): a handful in text, where a byte's
/// readings in the candidate code pages are noted, or text no reading
/// identified, where no U+FFFD is offered.
pub(crate) fn run_diagnostics(
    bytes: &[u8],
    run: &[Subpart],
    level: Level,
    readings: StrayBytes,
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
            let mut d = interpreted(bytes, &run[i..i + count], reading, level);
            // In a file of legacy text, `\xC0\xB3` is a Big5 letter that
            // only happens to read as an overlong form: no U+FFFD over it.
            if readings == StrayBytes::Text {
                d.fix = None;
                d.help.push(NO_FIX_IN_LEGACY_TEXT.to_owned());
            }
            out.push(d);
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

/// The help of a finding in lines of words in an encoding no verdict
/// identified, where U+FFFD is never offered.
const NO_FIX_IN_LEGACY_TEXT: &str = "no fix: these bytes are text in an encoding that no reading identified, which U+FFFD would destroy: find the encoding and convert the file (`iconv -f ENCODING -t UTF-8`)";

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

fn plain(bytes: &[u8], parts: &[Subpart], level: Level, readings: StrayBytes) -> Diagnostic {
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
    // A lone high byte between ASCII is the signature of a legacy 8-bit
    // file: what it reads as, in the code pages, is a note, never the fix.
    if readings == StrayBytes::Handful && total == 1 && lead >= 0x80 {
        d.notes.push(readings_note(lead));
        d.help.push(
            "if the file was saved in a legacy encoding, convert it rather than patch bytes"
                .to_owned(),
        );
    }
    // Lines of words in an encoding no verdict identified (Johab, a DOS
    // code page, JIS X 0213): U+FFFD over them would destroy the text;
    // the file's fix is a conversion from its real encoding, or nothing.
    if readings == StrayBytes::Text {
        d.help.push(NO_FIX_IN_LEGACY_TEXT.to_owned());
    } else {
        d.fix = Some(replace_with_fffd(parts));
    }
    d
}

/// What the high `byte` reads as in the candidate encodings: windows-1252,
/// the first other Latin code page `not_utf8` claims that reads it
/// otherwise ([`LATIN_READINGS`](crate::rules::not_utf8::LATIN_READINGS)),
/// and the DOS code pages people have text in (CP437, CP850): `\x94` is
/// `”` in windows-1252 and `ö` in CP437. No high byte reads as the same
/// letter in all of them (tested), so U001 never writes a letter: the note
/// lets a person choose, the fix is U+FFFD.
fn readings_note(byte: u8) -> String {
    let one = [byte];
    let mut readings: Vec<(char, &'static str)> = Vec::new();
    let latin = crate::rules::not_utf8::LATIN_READINGS
        .iter()
        .filter_map(|encoding| {
            let (text, malformed) = encoding.decode_without_bom_handling(&one);
            let c = text.chars().next()?;
            (!malformed && !c.is_control()).then_some((c, encoding.name()))
        });
    for (c, name) in latin {
        if readings.is_empty() || (readings.len() == 1 && readings[0].0 != c) {
            readings.push((c, name));
        }
    }
    for (name, table) in DOS_CODE_PAGES {
        if let Some(c) = dos_code_pages::read(table, byte) {
            readings.push((c, name));
        }
    }
    let readings: Vec<String> = readings
        .iter()
        .map(|(c, name)| match c {
            // A no-break space, shown by its code: it looks like nothing.
            c if c.is_whitespace() => format!("U+{:04X} in {name}", u32::from(*c)),
            c => format!("`{}` in {name}", escape_shown(&c.to_string())),
        })
        .collect();
    format!(
        "`\\x{byte:02X}` is {}: the code pages disagree, so the fix writes U+FFFD, not a letter",
        readings.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No high byte reads as the same letter in every candidate code page
    /// (one that has no character for it disagrees): the reason U001
    /// never writes a letter.
    #[test]
    fn no_high_byte_reads_alike_in_every_candidate_code_page() {
        for byte in 0x80..=0xFFu8 {
            let one = [byte];
            let latin = crate::rules::not_utf8::LATIN_READINGS.map(|encoding| {
                let (text, malformed) = encoding.decode_without_bom_handling(&one);
                text.chars()
                    .next()
                    .filter(|c| !malformed && !c.is_control())
            });
            let dos = DOS_CODE_PAGES.map(|(_, table)| dos_code_pages::read(table, byte));
            let mut readings = latin.iter().chain(&dos);
            let first = *readings.next().unwrap();
            assert!(
                first.is_none() || readings.any(|&r| r != first),
                "{byte:#X} reads as {first:?} everywhere"
            );
        }
    }

    /// `schr\x94der` is CP437's `schröder`; windows-1252 reads `schr”der`.
    /// The fix is U+FFFD, the readings a note.
    #[test]
    fn a_byte_the_code_pages_read_differently_gets_no_letter() {
        let text = b"Gerhard Schr\x94der\n";
        let mut out = Vec::new();
        let run = [Subpart {
            offset: 12,
            len: 1,
            kind: ErrorKind::InvalidLeadByte,
        }];
        run_diagnostics(text, &run, Level::Deny, StrayBytes::Handful, &mut out);
        let d = &out[0];
        let fixed = crate::apply_fixes(text, [d.fix.as_ref().unwrap()]).bytes;
        assert_eq!(fixed, "Gerhard Schr\u{FFFD}der\n".as_bytes());
        assert!(d.alternatives.is_empty());
        let note = d.notes.iter().find(|n| n.contains("CP437")).unwrap();
        assert!(
            note.starts_with("`\\x94` is `”` in windows-1252, `ö` in CP437, `ö` in CP850"),
            "{note}"
        );
    }
}
