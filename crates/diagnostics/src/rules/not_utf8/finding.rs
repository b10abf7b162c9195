//! U005's finding: the one diagnostic for a file that is wholly in
//! another encoding (legacy, UTF-16 or UTF-32, ISO-2022-JP), naming the
//! encoding instead of one U001 per byte, with its conversion as the fix.

use std::ops::Range;

use encoding_rs::Encoding;
use utf8lint_codec::Signature;

use super::reading::{Reading, Support};
use super::sample::MIN_LEGACY_NON_ASCII;
use super::verdict::{LegacyVerdict, legacy_verdict};
use crate::errors::{Errors, MAX_ERROR_RANGES};
use crate::rules::declared;
use crate::sniff::{Wide, WideForm, transcode_wide};
use crate::text::escape_bytes;
use crate::{Diagnostic, Edit, Fix, Level, Rule};

/// Files up to this size get a transcoding fix; larger ones a help line.
const MAX_TRANSCODE: usize = 64 * 1024 * 1024;

/// U005 for a file with ill-formed bytes, if it is legacy text, with all
/// of its ill-formed sequences: judged on the first few of them
/// ([`Errors::first_of`], all [`legacy_verdict`] asks) and a sample, and
/// counted whole only then, so that a file that is UTF-8 with defects is
/// counted once, by the full pass.
pub(crate) fn legacy_finding(
    bytes: &[u8],
    path: &std::path::Path,
    level: Level,
    shown_runs: usize,
) -> Option<(Diagnostic, Errors, Option<&'static Encoding>)> {
    // A declaration the file decodes in comes before the detector.
    let detect = || {
        let head = Errors::first_of(bytes);
        legacy_verdict(bytes, head.count, &head.first)
    };
    let (verdict, declaration, rival) = super::conversion::weigh(bytes, path, detect)?;
    // The subparts of the first `shown_runs` runs U001 would have shown (0:
    // every run, up to the ceiling U001's findings share), so that no
    // position a U001 per sequence would have shown under the same cap is
    // lost by the one finding that replaces them, and a legacy file's
    // report does not list each of its bytes (`related` holds every
    // stretch).
    let (errors, listed) = Errors::listing(bytes, shown_runs);
    // A declaration is followed only when the whole file decodes in it.
    let decodes = declaration.is_some();
    let mut d = legacy_diagnostic(bytes, path, verdict, &errors, listed, level, decodes)?;
    d.notes
        .extend(declaration.as_ref().map(super::conversion::declared_note));
    if declaration.is_none() {
        refuse_unsupported_declaration(&mut d, bytes, path);
    }
    Some((d, errors, rival))
}

/// A file that declares a charset the decoder cannot read (`IBM855`,
/// `cp850`) says what it is: the detector's guess is not converted over
/// the file's own statement, and the declared name is reported.
fn refuse_unsupported_declaration(d: &mut Diagnostic, bytes: &[u8], path: &std::path::Path) {
    let declarations = declared::declarations(bytes, path);
    let Some((declaration, usual)) = declarations
        .iter()
        .find_map(|decl| Some((decl, decl.unsupported()?)))
    else {
        return;
    };
    d.fix = None;
    d.notes.push(format!(
        "{} declares `{}` ({usual}): declared but not supported here, so no fix is offered",
        declaration.syntax.describe(),
        crate::text::escape_shown(declaration.name),
    ));
    d.help
        .push(format!("convert it: `iconv -f {usual} -t UTF-8`"));
}

/// The U005 diagnostic for a file that is not UTF-8 but decodes cleanly in
/// a legacy encoding, as [`legacy_verdict`] said: `errors` are all of the
/// file's ill-formed sequences, `listed` the first of them, as many as it
/// shows. `None` only if there are none. `decodes`:
/// the whole file is known to decode in the verdict's encoding (else it is
/// decoded to find out, before a fix is offered).
fn legacy_diagnostic(
    bytes: &[u8],
    path: &std::path::Path,
    verdict: LegacyVerdict,
    errors: &Errors,
    listed: Vec<utf8lint_codec::Subpart>,
    level: Level,
    decodes: bool,
) -> Option<Diagnostic> {
    let (error_count, first_errors, error_ranges) =
        (errors.count, &errors.first[..], &errors.ranges[..]);
    let LegacyVerdict {
        encoding,
        name,
        support,
    } = verdict;
    let first = first_errors.first()?;
    let (shown, as_legacy) = legacy_char_at(bytes, first.offset, encoding);
    let iconv = encoding.name();
    let sequences = format!(
        "{error_count} ill-formed UTF-8 sequence{}",
        if error_count == 1 { "" } else { "s" }
    );
    let mut d = match support {
        Support::Identified => Diagnostic::new(
            Rule::NotUtf8,
            level,
            first.range(),
            format!("this file is not UTF-8: it looks like {name}{}", describe_encoding(encoding)),
        )
        .with_label(format!("`{}` is `{as_legacy}` in {iconv}", escape_bytes(shown, 4)))
        .with_note(format!(
            "{sequences}, and the non-ASCII lines decode cleanly as {iconv}, to letters of one script"
        ))
        .with_help(if encoding == encoding_rs::WINDOWS_1252 {
            // The one legacy encoding EditorConfig can declare.
            format!(
                "if it is meant to stay {name}, say so in .editorconfig (`charset = latin1`) so that tools know"
            )
        } else {
            format!(
                "if it is meant to stay {name}: EditorConfig cannot declare it (only latin1 among legacy encodings), so list the file in `.utf8lintignore`"
            )
        }),
        Support::NoReading => {
            let mut d = Diagnostic::new(
                Rule::NotUtf8,
                level,
                first.range(),
                "this file is not UTF-8: its non-ASCII text is in an encoding that no reading identifies",
            )
            .with_label(format!(
                "`{}` is not UTF-8",
                escape_bytes(bytes.get(first.range()).unwrap_or_default(), 4)
            ))
            .with_note(format!(
                "{sequences}, and no encoding the detector knows reads the non-ASCII lines as words: an encoding outside its repertoire (EBCDIC, Johab, a DOS or Mac code page), or data that is not text"
            ))
            .with_help(
                "find out which encoding it is (its language, the tool that wrote it), then convert it: `iconv -f ENCODING -t UTF-8`; no fix is offered because no encoding is identified",
            );
            d.subparts = listed;
            d.related = error_ranges.iter().skip(1).cloned().collect();
            return Some(with_range_note(d, error_ranges));
        }
        support @ (Support::Unidentified { .. } | Support::Unclaimed { .. } | Support::OtherScript) => {
            let why = match support {
                Support::Unclaimed { rival } => format!(
                    "read as words in {iconv}, and as other words as well in {rival}, which U005 does not name: the bytes the two read differently are letters in both"
                ),
                Support::Unidentified { rival: Some(rival) } => format!(
                    "read as words in {iconv} and almost as well in {rival}, but the text is too short or too list-like to tell which encoding it is"
                ),
                Support::Unidentified { rival: None } => format!(
                    "read as words in {iconv}, but the text is too short or too list-like to tell which encoding it is"
                ),
                _ => format!(
                    "read as letters in {iconv}, but not as running text of their script (words broken by letters of the wrong case or script, mostly capitals, or rare characters): an encoding the detector does not know, such as a DOS or Mac code page"
                ),
            };
            let mut d = Diagnostic::new(
                Rule::NotUtf8,
                level,
                first.range(),
                "this file is not UTF-8: its non-ASCII text is in an 8-bit legacy encoding that the text does not identify",
            )
            .with_label(format!(
                "`{}` would be `{as_legacy}` in {iconv}, the detector's best guess",
                escape_bytes(shown, 4)
            ))
            .with_note(format!("{sequences}, and the non-ASCII lines {why}"))
            .with_help(
                "find out which encoding it is (its language, the tool that wrote it), then convert it: `iconv -f ENCODING -t UTF-8`; no fix is offered because a wrong guess writes mojibake",
            );
            d.subparts = listed;
            d.related = error_ranges.iter().skip(1).cloned().collect();
            return Some(with_range_note(d, error_ranges));
        }
    };
    d.subparts = listed;
    // Every ill-formed stretch after the first (adjacent ones merged): what
    // `invalid_utf8` would have reported, kept in one finding.
    d.related = error_ranges.iter().skip(1).cloned().collect();
    let mut d = with_range_note(d, error_ranges);
    // The verdict read a sample; the fix is for the whole file, so the
    // whole file must decode.
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(help) = super::conversion::refused_by_name(path) {
        d.help.push(help);
    } else if bytes.len() <= MAX_TRANSCODE && (decodes || decodes_without_errors(body, encoding)) {
        // The stretches, when none is past the cap on how many are kept.
        let all_errors = (error_ranges.len() < MAX_ERROR_RANGES).then_some(error_ranges);
        d.fix = Some(super::conversion::conversion(
            bytes, path, encoding, all_errors,
        ));
    } else {
        d.help
            .push(format!("convert it: `iconv -f {iconv} -t UTF-8`"));
    }
    Some(d)
}

/// Whether all of `bytes` decodes in `encoding` without an error
/// (`declared::decodes`: a single-byte encoding by a table of its bytes,
/// any other a block at a time into a scratch buffer): the converted file
/// is not kept (the fix decodes it again if it is applied or shown).
fn decodes_without_errors(bytes: &[u8], encoding: &'static Encoding) -> bool {
    declared::decodes(bytes, encoding, false)
}

/// The legacy character that starts at `offset` (one to four bytes in the
/// multi-byte encodings: a UTF-8 subpart is often only its lead byte) and
/// what it decodes to, for the label.
fn legacy_char_at<'b>(
    bytes: &'b [u8],
    offset: usize,
    encoding: &'static Encoding,
) -> (&'b [u8], String) {
    let window = bytes
        .get(offset..bytes.len().min(offset + 4))
        .unwrap_or_default();
    for len in 1..=window.len() {
        if let Some(text) =
            encoding.decode_without_bom_handling_and_without_replacement(&window[..len])
            && !text.is_empty()
        {
            return (&window[..len], text.into_owned());
        }
    }
    let one = &window[..window.len().min(1)];
    (
        one,
        encoding.decode_without_bom_handling(one).0.into_owned(),
    )
}

/// Says so when the list of ill-formed stretches was cut at its cap.
fn with_range_note(mut d: Diagnostic, error_ranges: &[Range<usize>]) -> Diagnostic {
    if error_ranges.len() >= MAX_ERROR_RANGES {
        d.notes.push(format!(
            "the first {} stretches of ill-formed bytes are listed; there are more",
            MAX_ERROR_RANGES
        ));
    }
    d
}

/// The U005 diagnostic for a file in ISO-2022-JP: 7-bit bytes (valid
/// UTF-8, so no ill-formed sequence starts a legacy verdict) whose escape
/// sequences switch to Japanese. The text pass saw a designation; here the
/// whole file must decode in ISO-2022-JP without an error, to Japanese
/// text (at least `MIN_LEGACY_NON_ASCII` characters, letters of one script).
pub(crate) fn iso_2022_jp_diagnostic(
    bytes: &[u8],
    path: &std::path::Path,
    level: Level,
) -> Option<Diagnostic> {
    if bytes.len() > MAX_TRANSCODE {
        return None;
    }
    let encoding = encoding_rs::ISO_2022_JP;
    let text = encoding.decode_without_bom_handling_and_without_replacement(bytes)?;
    let reading = Reading::of(&text);
    if reading.non_ascii < MIN_LEGACY_NON_ASCII || !reading.plausible() {
        return None;
    }
    let at = memchr::memchr(0x1B, bytes)?;
    let escape = &bytes[at..bytes.len().min(at + 3)];
    let mut d = Diagnostic::new(
        Rule::NotUtf8,
        level,
        at..at + escape.len(),
        "this file is not UTF-8: it is ISO-2022-JP (Japanese), a 7-bit encoding",
    )
    .with_label(format!("`{}` switches to Japanese", escape_bytes(escape, 3)))
    .with_note(format!(
        "its bytes are ASCII, so they are well-formed UTF-8, but only ISO-2022-JP reads them as text: {} Japanese characters between escape sequences",
        reading.non_ascii
    ))
    .with_help("if it is meant to stay ISO-2022-JP (mail, old Japanese documents), list the file in `.utf8lintignore`");
    d.fix = Some(Fix::transcode(
        encoding.name(),
        "convert the file from ISO-2022-JP to UTF-8 (rewrites every escape sequence and the text between them)",
        bytes.len(),
        super::conversion::declarations_to_utf8(text.into_owned().into_bytes(), path),
    ));
    Some(d)
}

/// The U005 diagnostic for a UTF-16 byte-order mark in front of UTF-8
/// text ([`wrong_bom`]): the mark is wrong, not the text, and the fix
/// removes the mark.
pub(crate) fn wrong_bom_diagnostic(bytes: &[u8], form: WideForm, level: Level) -> Diagnostic {
    let name = form.name();
    let len = Signature::detect(bytes).map_or(2, Signature::len);
    let mut d = Diagnostic::new(
        Rule::NotUtf8,
        level,
        0..len,
        format!("this file starts with the {name} byte-order mark, but its text is UTF-8"),
    )
    .with_label(format!(
        "`{}` is the {name} byte-order mark",
        escape_bytes(&bytes[..len], 4)
    ))
    .with_note(format!(
        "the bytes after it are well-formed UTF-8 with no NUL byte; read as {name}, as the mark says, they are garbage"
    ))
    .with_help("remove the mark: the text needs none");
    d.fix = Some(Fix::unsafe_(
        format!("remove the {name} byte-order mark (the text after it is UTF-8)"),
        vec![Edit::delete(0..len)],
    ));
    d
}

/// The U005 diagnostic for a wide file.
pub(crate) fn wide_diagnostic(
    bytes: &[u8],
    path: &std::path::Path,
    wide: Wide,
    level: Level,
) -> Diagnostic {
    let name = wide.form.name();
    let (span, label, evidence) = if wide.by_signature {
        let len = Signature::detect(bytes).map_or(2, Signature::len);
        (
            0..len,
            format!(
                "`{}` {name} byte-order mark",
                escape_bytes(&bytes[..len], 4)
            ),
            format!("the file starts with the {name} byte-order mark"),
        )
    } else {
        let len = bytes.len().min(8);
        (
            0..len,
            format!(
                "`{}`: NUL bytes in a fixed pattern",
                escape_bytes(&bytes[..len], 8)
            ),
            if wide.by_decoding {
                format!(
                    "its NUL bytes are the high bytes of ASCII characters in {name}, and it decodes as {name} to letters of one script"
                )
            } else {
                format!(
                    "every {} byte is NUL, the pattern of {name} text with no byte-order mark",
                    if matches!(wide.form, WideForm::Utf16Le | WideForm::Utf16Be) {
                        "other"
                    } else {
                        "fourth"
                    }
                )
            },
        )
    };
    let mut d = Diagnostic::new(Rule::NotUtf8, level, span, format!("this file is {name}, not UTF-8"))
        .with_label(label)
        .with_note(evidence)
        .with_note("UTF-8 tools, diffs and editors that assume UTF-8 will see it as binary or as garbage")
        .with_help(format!(
            "if it is meant to stay {name}, say so in .editorconfig (`charset = {}`) so that tools know",
            name.to_ascii_lowercase()
        ));
    if bytes.len() <= MAX_TRANSCODE
        && let Some(text) = transcode_wide(bytes, wide)
    {
        d.fix = Some(Fix::unsafe_(
            format!("convert the file from {name} to UTF-8 (rewrites every byte)"),
            vec![Edit::replace(
                0..bytes.len(),
                super::conversion::declarations_to_utf8(text.into_bytes(), path),
            )],
        ));
    }
    if d.fix.is_none() {
        d.help
            .push(format!("convert it: `iconv -f {name} -t UTF-8`"));
    }
    d
}

fn describe_encoding(encoding: &'static Encoding) -> &'static str {
    match encoding.name() {
        "windows-1252" => " (Western European)",
        "windows-1250" | "ISO-8859-2" => " (Central European)",
        "windows-1251" | "KOI8-R" | "KOI8-U" | "IBM866" | "ISO-8859-5" | "x-mac-cyrillic" => {
            " (Cyrillic)"
        }
        "windows-1253" | "ISO-8859-7" => " (Greek)",
        "windows-1254" => " (Turkish)",
        "windows-1255" | "ISO-8859-8" => " (Hebrew)",
        "windows-1256" | "ISO-8859-6" => " (Arabic)",
        "windows-1257" | "ISO-8859-4" | "ISO-8859-13" => " (Baltic)",
        "windows-874" => " (Thai)",
        "Shift_JIS" | "EUC-JP" | "ISO-2022-JP" => " (Japanese)",
        "GBK" | "gb18030" => " (Simplified Chinese)",
        "Big5" => " (Traditional Chinese)",
        "EUC-KR" => " (Korean)",
        _ => "",
    }
}
