//! U005 `not_utf8`: the whole file is in another encoding. One diagnostic
//! naming the likely encoding instead of one U001 per byte.

use std::ops::Range;

use encoding_rs::Encoding;
use utf8lint_codec::{Signature, Subpart, Utf8Chunks};

use crate::text::escape_bytes;
use crate::{Diagnostic, Edit, Fix, Level, Rule};

/// How many leading bytes the NUL-pattern and legacy sniffers read.
const SNIFF_BYTES: usize = 64 * 1024;

/// Files up to this size get a transcoding fix; larger ones a help line.
const MAX_TRANSCODE: usize = 64 * 1024 * 1024;

/// A legacy verdict needs at least this many non-ASCII bytes in the sample:
/// one to three stray bytes (`ok \xFF\xFE bytes`) are defects in UTF-8 text,
/// not evidence of an encoding.
pub const MIN_LEGACY_NON_ASCII: usize = 4;

/// At least this share (percent) of the non-ASCII characters the legacy
/// reading gives must be letters: text in a legacy encoding is words, while
/// broken UTF-8 read as windows-125x gives symbols and punctuation (`â‚`).
pub const MIN_LEGACY_LETTER_PERCENT: usize = 80;

/// From this share (percent) of control bytes (other than tab, newline,
/// carriage return, form feed and escape) in the first 8 KiB on, a file is
/// binary data (float arrays, compressed streams) and never transcoded,
/// even without a NUL byte.
pub const MIN_BINARY_CONTROL_PERCENT: usize = 10;

/// Ill-formed bytes only in this many last bytes of the file are a
/// character cut at the end (`price: 5 \xE2\x82`): UTF-8 with a defect.
const CUT_AT_END_BYTES: usize = 3;

/// What the bytes of a file look like, before any rule runs. The CLI uses
/// it to skip binary files without mistaking UTF-16/32 text for binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniff {
    /// Text in an 8-bit-compatible encoding (UTF-8 or legacy).
    Text,
    /// UTF-16 or UTF-32, with the evidence.
    Wide(Wide),
    /// Binary data: a NUL byte in the first 8 KiB and no UTF-16/32
    /// pattern, or control bytes in quantity there.
    Binary(BinaryEvidence),
}

/// Why a file was taken for binary data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryEvidence {
    /// A NUL byte at this offset of the first 8 KiB, and no UTF-16/32
    /// pattern around it.
    Nul {
        /// Offset of the first NUL byte.
        at: usize,
    },
    /// This share (percent, at least [`MIN_BINARY_CONTROL_PERCENT`]) of
    /// the first 8 KiB are control bytes text does not use (a float array,
    /// compressed data), though none is NUL.
    ControlBytes {
        /// The share, in percent.
        percent: usize,
    },
}

impl std::fmt::Display for BinaryEvidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BinaryEvidence::Nul { at } => {
                write!(f, "NUL byte at offset {at} and no UTF-16/32 pattern")
            }
            BinaryEvidence::ControlBytes { percent } => write!(
                f,
                "{percent}% of its first 8 KiB are control bytes other than tab, newline, carriage return, form feed and escape"
            ),
        }
    }
}

/// A UTF-16 or UTF-32 encoding form and how it was recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide {
    /// Which form.
    pub form: WideForm,
    /// True when a byte-order mark said so, false for the NUL pattern.
    pub by_signature: bool,
}

/// The UTF-16 and UTF-32 forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideForm {
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
}

impl WideForm {
    /// The encoding's name: `UTF-16LE`, ...
    pub const fn name(self) -> &'static str {
        match self {
            WideForm::Utf16Le => "UTF-16LE",
            WideForm::Utf16Be => "UTF-16BE",
            WideForm::Utf32Le => "UTF-32LE",
            WideForm::Utf32Be => "UTF-32BE",
        }
    }

    fn from_signature(sig: Signature) -> Option<WideForm> {
        match sig {
            Signature::Utf8 => None,
            Signature::Utf16Le => Some(WideForm::Utf16Le),
            Signature::Utf16Be => Some(WideForm::Utf16Be),
            Signature::Utf32Le => Some(WideForm::Utf32Le),
            Signature::Utf32Be => Some(WideForm::Utf32Be),
        }
    }
}

/// Where binary detection looks for a NUL byte.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Classifies a file's bytes: UTF-16/32 by signature or by the pattern of
/// NUL bytes; binary if the first 8 KiB hold a NUL byte otherwise, or are
/// [`MIN_BINARY_CONTROL_PERCENT`] or more control bytes; else text.
pub fn sniff(bytes: &[u8]) -> Sniff {
    if let Some(form) = Signature::detect(bytes).and_then(WideForm::from_signature) {
        return Sniff::Wide(Wide {
            form,
            by_signature: true,
        });
    }
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    let Some(nul_at) = utf8lint_codec::find_nul(head) else {
        // No NUL: still binary when control bytes are a large share (a
        // float32 tensor is half control bytes and has no NUL).
        let percent = control_percent(head);
        if percent >= MIN_BINARY_CONTROL_PERCENT {
            return Sniff::Binary(BinaryEvidence::ControlBytes { percent });
        }
        return Sniff::Text;
    };
    match nul_pattern(&bytes[..bytes.len().min(SNIFF_BYTES)]) {
        Some(form) => Sniff::Wide(Wide {
            form,
            by_signature: false,
        }),
        None => Sniff::Binary(BinaryEvidence::Nul { at: nul_at }),
    }
}

/// UTF-16/32 without a signature: text in the Latin, Greek, Cyrillic ...
/// ranges puts a NUL in every other byte (UTF-16) or three of every four
/// (UTF-32), at positions fixed by the byte order, and nowhere else.
fn nul_pattern(sample: &[u8]) -> Option<WideForm> {
    let units = sample.len() / 4;
    if units < 2 {
        return None;
    }
    let mut nul_at = [0usize; 4];
    for quad in sample.chunks_exact(4) {
        for (i, b) in quad.iter().enumerate() {
            nul_at[i] += usize::from(*b == 0);
        }
    }
    let frac = |n: usize| n as f64 / units as f64;
    let [p0, p1, p2, p3] = nul_at.map(frac);
    // UTF-32: the top byte is always 0 and the next nearly always.
    if p3 == 1.0 && p2 > 0.9 && p0 < 0.5 {
        return confirm(sample, WideForm::Utf32Le);
    }
    if p0 == 1.0 && p1 > 0.9 && p3 < 0.5 {
        return confirm(sample, WideForm::Utf32Be);
    }
    let (even, odd) = ((p0 + p2) / 2.0, (p1 + p3) / 2.0);
    if odd > 0.5 && even < 0.1 {
        return confirm(sample, WideForm::Utf16Le);
    }
    if even > 0.5 && odd < 0.1 {
        return confirm(sample, WideForm::Utf16Be);
    }
    None
}

/// A guess counts only if the sample decodes in that form without errors
/// (a cut at the end of the sample is forgiven).
fn confirm(sample: &[u8], form: WideForm) -> Option<WideForm> {
    let unit = if matches!(form, WideForm::Utf32Le | WideForm::Utf32Be) {
        4
    } else {
        2
    };
    let sample = &sample[..sample.len() - sample.len() % unit];
    let ok = match form {
        WideForm::Utf16Le | WideForm::Utf16Be => {
            let enc = if form == WideForm::Utf16Le {
                encoding_rs::UTF_16LE
            } else {
                encoding_rs::UTF_16BE
            };
            // Drop a final unit that might be half a surrogate pair cut by the sample.
            let body = &sample[..sample.len().saturating_sub(2)];
            enc.decode_without_bom_handling_and_without_replacement(body)
                .is_some()
        }
        _ => decode_utf32(sample, form == WideForm::Utf32Le).is_some(),
    };
    ok.then_some(form)
}

fn decode_utf32(bytes: &[u8], little: bool) -> Option<String> {
    let mut out = String::with_capacity(bytes.len() / 4);
    for unit in bytes.chunks(4) {
        let arr: [u8; 4] = unit.try_into().ok()?;
        let v = if little {
            u32::from_le_bytes(arr)
        } else {
            u32::from_be_bytes(arr)
        };
        out.push(char::from_u32(v)?);
    }
    Some(out)
}

/// Decodes a whole UTF-16/32 file (its signature dropped) to UTF-8, if it
/// decodes without errors.
fn transcode_wide(bytes: &[u8], wide: Wide) -> Option<String> {
    let body = if wide.by_signature {
        let sig_len = Signature::detect(bytes).map_or(0, Signature::len);
        &bytes[sig_len..]
    } else {
        bytes
    };
    match wide.form {
        WideForm::Utf16Le => encoding_rs::UTF_16LE
            .decode_without_bom_handling_and_without_replacement(body)
            .map(|c| c.into_owned()),
        WideForm::Utf16Be => encoding_rs::UTF_16BE
            .decode_without_bom_handling_and_without_replacement(body)
            .map(|c| c.into_owned()),
        WideForm::Utf32Le => decode_utf32(body, true),
        WideForm::Utf32Be => decode_utf32(body, false),
    }
}

/// The U005 diagnostic for a wide file.
pub(crate) fn wide_diagnostic(bytes: &[u8], wide: Wide, level: Level) -> Diagnostic {
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
            format!(
                "every {} byte is NUL, the pattern of {name} text with no byte-order mark",
                if matches!(wide.form, WideForm::Utf16Le | WideForm::Utf16Be) {
                    "other"
                } else {
                    "fourth"
                }
            ),
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
            vec![Edit::replace(0..bytes.len(), text.into_bytes())],
        ));
    }
    if d.fix.is_none() {
        d.help
            .push(format!("convert it: `iconv -f {name} -t UTF-8`"));
    }
    d
}

/// The U005 diagnostic for a file that is not UTF-8 but decodes cleanly in
/// a legacy encoding, if it looks like one: it has ill-formed sequences and
/// (almost) no well-formed multi-byte characters.
pub(crate) fn legacy_diagnostic(
    bytes: &[u8],
    error_count: usize,
    first_errors: &[Subpart],
    level: Level,
) -> Option<Diagnostic> {
    if error_count == 0 || cut_at_end(bytes, error_count, first_errors) {
        return None;
    }
    let sample = &bytes[..bytes.len().min(SNIFF_BYTES * 16)];
    if control_percent(&sample[..sample.len().min(BINARY_SNIFF_BYTES)])
        >= MIN_BINARY_CONTROL_PERCENT
    {
        return None;
    }
    if sample.iter().filter(|b| !b.is_ascii()).count() < MIN_LEGACY_NON_ASCII {
        return None;
    }
    let multibyte = count_valid_multibyte(sample);
    // A few accidental pairs (`Ã©` is both windows-1252 and valid UTF-8) are
    // fine; real UTF-8 with a handful of bad bytes is not a legacy file.
    if multibyte * 8 > sample_errors(sample)? {
        return None;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(sample, sample.len() == bytes.len());
    let encoding: &'static Encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    if encoding == encoding_rs::UTF_8 {
        return None;
    }
    let (text, had_errors) =
        encoding.decode_without_bom_handling(bytes.get(..MAX_TRANSCODE.min(bytes.len()))?);
    if had_errors || letter_percent(&text, sample.len()) < MIN_LEGACY_LETTER_PERCENT {
        return None;
    }
    let first = first_errors.first()?;
    let shown = bytes.get(first.range()).unwrap_or_default();
    let as_legacy = encoding.decode_without_bom_handling(shown).0;
    let name = encoding.name();
    let mut d = Diagnostic::new(
        Rule::NotUtf8,
        level,
        first.range(),
        format!("this file is not UTF-8: it looks like {name}{}", describe_encoding(encoding)),
    )
    .with_label(format!("`{}` is `{as_legacy}` in {name}", escape_bytes(shown, 4)))
    .with_note(format!(
        "{error_count} ill-formed UTF-8 sequence{}, no well-formed multi-byte character, and the bytes decode cleanly as {name}",
        if error_count == 1 { "" } else { "s" }
    ))
    .with_help(format!(
        "if it is meant to stay {name}, say so in .editorconfig (`charset = latin1` for Latin-1) so that tools know"
    ));
    d.subparts = first_errors.to_vec();
    d.related = first_errors
        .iter()
        .skip(1)
        .map(|s| s.range())
        .collect::<Vec<Range<usize>>>();
    if bytes.len() <= MAX_TRANSCODE {
        d.fix = Some(Fix::unsafe_(
            format!("convert the file from {name} to UTF-8 (rewrites every non-ASCII byte)"),
            vec![Edit::replace(
                0..bytes.len(),
                text.into_owned().into_bytes(),
            )],
        ));
    } else {
        d.help
            .push(format!("convert it: `iconv -f {name} -t UTF-8`"));
    }
    Some(d)
}

/// True when every ill-formed sequence sits in the last bytes of the file:
/// a multi-byte character cut short by a truncation.
fn cut_at_end(bytes: &[u8], error_count: usize, first_errors: &[Subpart]) -> bool {
    error_count == first_errors.len()
        && first_errors
            .iter()
            .all(|s| s.offset + CUT_AT_END_BYTES >= bytes.len())
}

/// Percent of `head`'s bytes that are control bytes text does not use.
pub fn control_percent(head: &[u8]) -> usize {
    if head.is_empty() {
        return 0;
    }
    // Branch-free, counted in byte lanes over chunks short enough not to
    // overflow them, so that it compiles to vector compares: every scanned
    // file pays this over up to 8 KiB, and the byte-at-a-time filter it
    // replaces was 13% of a whole-tree scan's CPU.
    let control: usize = head
        .chunks(255)
        .map(|chunk| {
            let count = chunk.iter().fold(0u8, |count, &b| {
                let text_control =
                    (b == b'\t') | (b == b'\n') | (b == b'\r') | (b == 0x0C) | (b == 0x1B);
                count + u8::from(((b < 0x20) & !text_control) | (b == 0x7F))
            });
            usize::from(count)
        })
        .sum();
    control * 100 / head.len()
}

/// Percent of the non-ASCII characters of `text` that are letters (or marks
/// that combine with them, as in Thai and Hebrew); 100 when there are none.
/// Only the first `limit` characters are read: the verdict's cost stays bounded.
fn letter_percent(text: &str, limit: usize) -> usize {
    let (mut letters, mut all) = (0usize, 0usize);
    for c in text.chars().take(limit).filter(|c| !c.is_ascii()) {
        all += 1;
        letters += usize::from(c.is_alphabetic() || is_combining_mark(c));
    }
    (letters * 100).checked_div(all).unwrap_or(100)
}

/// Thai, Hebrew and Arabic vowel signs: not `alphabetic` to Rust for all of
/// them, but parts of words all the same.
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0591}'..='\u{05C7}' | '\u{064B}'..='\u{065F}' | '\u{0E31}'..='\u{0E4E}')
}

/// The ill-formed sequences in `sample`, or `None` if any of them has a
/// UTF-8-like reading (an overlong form, an encoded surrogate, an RFC 2279
/// form): those come from a broken UTF-8 encoder, not a legacy charset.
fn sample_errors(sample: &[u8]) -> Option<usize> {
    let mut count = 0;
    for sub in utf8lint_codec::subparts(sample) {
        if count < 4096 && utf8lint_codec::interpret(&sample[sub.offset..]).is_some() {
            return None;
        }
        count += 1;
    }
    Some(count)
}

fn describe_encoding(encoding: &'static Encoding) -> &'static str {
    match encoding.name() {
        "windows-1252" => " (Western European; the web's reading of ISO-8859-1)",
        "windows-1250" | "ISO-8859-2" => " (Central European)",
        "windows-1251" | "KOI8-R" | "KOI8-U" | "IBM866" | "ISO-8859-5" => " (Cyrillic)",
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

/// Well-formed characters of two or more bytes.
fn count_valid_multibyte(bytes: &[u8]) -> usize {
    Utf8Chunks::new(bytes)
        .map(|chunk| chunk.valid().bytes().filter(|b| *b >= 0xC0).count())
        .sum()
}
