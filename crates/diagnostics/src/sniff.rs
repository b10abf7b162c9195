//! The binary and wide-encoding sniff: the CLI and the server skip what
//! it calls binary, and `check` asks its UTF-16/32 part.

mod formats;
mod no_text;

use utf8lint_codec::Signature;

use self::formats::{format_words, own_format};
pub use self::no_text::NoText;
use self::no_text::no_text;
use crate::rules::not_utf8::{MIN_LEGACY_NON_ASCII, Reading, is_common};

/// How many leading bytes the NUL-pattern and legacy sniffers read.
const SNIFF_BYTES: usize = 64 * 1024;

/// From this share (percent) of control bytes (other than tab, newline,
/// carriage return, form feed and escape) in the first 8 KiB on, a file is
/// binary data (float arrays, compressed streams) and never transcoded,
/// even without a NUL byte.
pub(crate) const MIN_BINARY_CONTROL_PERCENT: usize = 10;

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

/// Why a file was taken for binary data. Its `Display` is the kind of
/// data in a few words, as a skipped file is reported: `binary (PNG
/// image)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryEvidence {
    /// A NUL byte at this offset of the first 8 KiB, and no UTF-16/32
    /// pattern around it.
    Nul {
        /// Offset of the first NUL byte.
        at: usize,
    },
    /// The file starts with the signature of a binary format (`png`,
    /// `bmp`, `zip`, `sqlite`, `git-object`, `pbm`, ...: see
    /// [`binary_signature`]); or, `msgpack`, the whole file is MessagePack
    /// records, which have no signature.
    Signature {
        /// The format's short name, its usual file extension where it has
        /// one.
        format: &'static str,
    },
    /// This share (percent, at least 10) of
    /// the first 8 KiB are control bytes text does not use (a float array,
    /// compressed data), though none is NUL.
    ControlBytes {
        /// The share, in percent.
        percent: usize,
    },
    /// The first 8 KiB read as text in no candidate encoding: ill-formed
    /// as UTF-8, control bytes of many values spread over them, few spaces
    /// and line breaks, no UTF-16 reading (compressed or encrypted data too
    /// small to hold a NUL byte by chance).
    NoText(NoText),
}

impl std::fmt::Display for BinaryEvidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BinaryEvidence::Nul { at } => {
                write!(f, "NUL byte at offset {at} and no UTF-16/32 pattern")
            }
            BinaryEvidence::Signature { format } => match format_words(format) {
                Some(words) => f.write_str(words),
                None => write!(f, "{format} data"),
            },
            BinaryEvidence::ControlBytes { percent } => write!(
                f,
                "{percent}% of its first 8 KiB are control bytes other than tab, newline, carriage return, form feed and escape"
            ),
            BinaryEvidence::NoText(NoText {
                controls_per_mille,
                values,
            }) => write!(
                f,
                "data that reads as text in no encoding: ill-formed UTF-8, {}.{}% control bytes of {values} values",
                controls_per_mille / 10,
                controls_per_mille % 10
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
    /// True when neither a mark nor the NUL pattern said so but the bytes
    /// decode plausibly (CJK text in UTF-16 has few NUL bytes).
    pub by_decoding: bool,
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
pub(crate) const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Classifies a file's bytes: binary if they start with a binary format's
/// signature ([`BinaryEvidence::Signature`]); UTF-16/32 by byte-order mark
/// or by the pattern of NUL bytes; binary if the first 8 KiB hold a NUL
/// byte otherwise, or are `MIN_BINARY_CONTROL_PERCENT` (10%) or more
/// control bytes, or read as text in no candidate encoding
/// ([`BinaryEvidence::NoText`]); else text.
pub fn sniff(bytes: &[u8]) -> Sniff {
    if let Some(format) = binary_signature(bytes) {
        return Sniff::Binary(BinaryEvidence::Signature { format });
    }
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    // Nearly every file has no control byte: then there is no NUL either
    // (it is one), so only a byte-order mark can make the file wide, and
    // nothing else makes it binary.
    let controls = crate::control_bytes::count_controls(head);
    if controls == 0 {
        return wide_by_signature(bytes).map_or(Sniff::Text, Sniff::Wide);
    }
    if let Some(wide) = wide_without_signature(bytes) {
        return Sniff::Wide(wide);
    }
    if let Some(at) = utf8lint_codec::find_nul(head) {
        return Sniff::Binary(BinaryEvidence::Nul { at });
    }
    // No NUL: still binary when control bytes are a large share (a float32
    // tensor is half control bytes and has no NUL).
    let percent = controls * 100 / head.len();
    if percent >= MIN_BINARY_CONTROL_PERCENT {
        return Sniff::Binary(BinaryEvidence::ControlBytes { percent });
    }
    match no_text(head) {
        Some(evidence) => Sniff::Binary(BinaryEvidence::NoText(evidence)),
        None => Sniff::Text,
    }
}

/// The UTF-16/32 part of [`sniff`], all that `check` needs (it checks
/// binary files it is given): a byte-order mark followed by no UTF-8 text
/// ([`wrong_bom`]), or a NUL byte in the first 8 KiB and the NUL pattern or
/// a plausible UTF-16 reading; never for a file with a binary signature.
pub(crate) fn wide(bytes: &[u8]) -> Option<Wide> {
    if binary_signature(bytes).is_some() {
        return None;
    }
    wide_without_signature(bytes)
}

/// [`wide`] for bytes known to start with no binary signature.
fn wide_without_signature(bytes: &[u8]) -> Option<Wide> {
    if Signature::detect(bytes).is_some_and(|s| s != Signature::Utf8) {
        return wide_by_signature(bytes);
    }
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    utf8lint_codec::find_nul(head)?;
    if let Some(form) = nul_pattern(&bytes[..bytes.len().min(SNIFF_BYTES)]) {
        return Some(Wide {
            form,
            by_signature: false,
            by_decoding: false,
        });
    }
    plausible_utf16(head).map(|form| Wide {
        form,
        by_signature: false,
        by_decoding: true,
    })
}

/// The UTF-16/32 form a byte-order mark says, unless UTF-8 text follows
/// a UTF-16 mark ([`wrong_bom`]).
fn wide_by_signature(bytes: &[u8]) -> Option<Wide> {
    if wrong_bom(bytes).is_some() {
        return None;
    }
    let form = Signature::detect(bytes).and_then(WideForm::from_signature)?;
    Some(Wide {
        form,
        by_signature: true,
        by_decoding: false,
    })
}

/// How many leading bytes must hold a control byte for a signature of
/// printable ASCII to count: every format `infer` knows is told by its
/// first few dozen bytes but tar and DICOM, whose headers are NUL bytes
/// anyway, and OOXML, a ZIP archive whose entries' names say which.
const SIGNATURE_BYTES: usize = 64;
const _: () = assert!(SIGNATURE_BYTES <= BINARY_SNIFF_BYTES);

/// The format whose signature `bytes` start with, if any:
/// * MessagePack, which has no signature (its first bytes may be those of
///   Shift_JIS hiragana), by its structure ([`messagepack`]);
/// * the formats `infer` does not know ([`own_format`]: raw netpbm, zlib
///   and git objects, git's packs and indexes, ICC, ...), each confirmed
///   beyond its magic bytes;
/// * one that `infer` recognises (not its text formats: HTML, XML, shell
///   scripts, RTF, PEM, PostScript), BSON (its first four bytes are its
///   length, and it ends in NUL) or UBJSON (`{` or `[` and a type marker).
///   A signature that starts with a byte text does not start with (PNG's
///   `0x89`, JPEG's `0xFF`, a class file's `0xCA`) is taken as it is; one
///   of printable ASCII only in a header that is not text, holding a NUL
///   or another control byte: `BM` starts a BMP image and the word `BMW`,
///   `MZ` an executable and `MZ-80`, and `SQLite` a database and its
///   README.
pub(crate) fn binary_signature(bytes: &[u8]) -> Option<&'static str> {
    if messagepack(bytes) {
        return Some("msgpack");
    }
    if let Some(format) = own_format(bytes) {
        return Some(format);
    }
    let head = &bytes[..bytes.len().min(SIGNATURE_BYTES)];
    // Every file is asked this, and nearly every one is text: its first
    // byte and a count of controls in vector compares settle it.
    let text_start = head.first().is_none_or(|&b| {
        matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' '..=b'~')
            || Signature::detect(bytes).is_some()
    });
    if text_start && crate::control_bytes::count_controls(head) == 0 {
        return None;
    }
    // The whole sniffed head: an OOXML document is told from a ZIP archive
    // by the names of its second and third entries.
    if let Some(kind) = infer::get(&bytes[..bytes.len().min(BINARY_SNIFF_BYTES)])
        && kind.matcher_type() != infer::MatcherType::Text
        && !matches!(kind.extension(), "rtf" | "pem" | "ps")
    {
        return Some(kind.extension());
    }
    let bson = bytes.len() >= 5
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize == bytes.len()
        && bytes.last() == Some(&0)
        && matches!(bytes[4], 0x01..=0x13 | 0x7F | 0xFF);
    if bson {
        return Some("bson");
    }
    let ubjson =
        matches!(head, [b'{' | b'[', marker, ..] if b"$#iUIlLdDCSHTFZN{[".contains(marker));
    ubjson.then_some("ubj")
}

/// Nesting deeper than this is taken for no MessagePack (real records nest
/// a few levels; the bound keeps the parser's stack small on any input).
const MAX_MESSAGEPACK_DEPTH: usize = 256;

/// Whether all of `bytes` is MessagePack: a sequence of maps and arrays
/// (records, documents, tables), ending where the file ends, with at least
/// one map that is not empty and whose keys are strings, as the keys of
/// records are; every object well-formed: its length fields inside the
/// file, its strings UTF-8, no `C1` (the one byte MessagePack never uses).
/// Text does not parse so: at the top an ASCII byte (a MessagePack
/// integer) fails at once, and in a map every other object must be a
/// string header (`A0`-`BF`, `D9`-`DB`) followed by exactly its length of
/// UTF-8, where text has ASCII letters (integers) and legacy bytes.
/// MessagePack whose maps have integer keys, or with no map, is not
/// recognised. Read without recursion and stopped at the first byte that
/// does not fit: a text file costs a byte or two.
pub(crate) fn messagepack(bytes: &[u8]) -> bool {
    // Open containers: elements left, and whether it is a map.
    let mut open: Vec<(u64, bool)> = Vec::new();
    // Elements owed by all open containers: each takes a byte at least.
    let mut owed = 0u64;
    let mut keyed_map = false;
    let mut at = 0usize;
    while at < bytes.len() {
        let key = match open.last_mut() {
            Some((left, map)) => {
                let key = *map && *left % 2 == 0;
                *left -= 1;
                owed -= 1;
                key
            }
            None => false,
        };
        let b = bytes[at];
        // (bytes of header after the type byte, payload length, elements
        // of a container and whether it is a map)
        let (extra, payload, container): (usize, u64, Option<(u64, bool)>) = match b {
            0x00..=0x7F | 0xC0 | 0xC2 | 0xC3 | 0xE0..=0xFF => (0, 0, None),
            0x80..=0x8F => (0, 0, Some((2 * u64::from(b & 0x0F), true))),
            0x90..=0x9F => (0, 0, Some((u64::from(b & 0x0F), false))),
            0xA0..=0xBF => (0, u64::from(b & 0x1F), None),
            0xC4 | 0xD9 => (1, be(bytes, at + 1, 1), None),
            0xC5 | 0xDA => (2, be(bytes, at + 1, 2), None),
            0xC6 | 0xDB => (4, be(bytes, at + 1, 4), None),
            0xC7 => (2, be(bytes, at + 1, 1), None),
            0xC8 => (3, be(bytes, at + 1, 2), None),
            0xC9 => (5, be(bytes, at + 1, 4), None),
            0xCA | 0xCE | 0xD2 => (0, 4, None),
            0xCB | 0xCF | 0xD3 => (0, 8, None),
            0xCC | 0xD0 => (0, 1, None),
            0xCD | 0xD1 => (0, 2, None),
            0xD4..=0xD8 => (1, 1 << (b - 0xD4), None),
            0xDC => (2, 0, Some((be(bytes, at + 1, 2), false))),
            0xDD => (4, 0, Some((be(bytes, at + 1, 4), false))),
            0xDE => (2, 0, Some((be(bytes, at + 1, 2).saturating_mul(2), true))),
            0xDF => (4, 0, Some((be(bytes, at + 1, 4).saturating_mul(2), true))),
            _ => return false,
        };
        let string = matches!(b, 0xA0..=0xBF | 0xD9..=0xDB);
        if open.is_empty() && container.is_none() || key && !string {
            return false;
        }
        let start = at + 1 + extra;
        let Some(end) = usize::try_from(payload)
            .ok()
            .and_then(|p| start.checked_add(p))
            .filter(|&end| end <= bytes.len())
        else {
            return false;
        };
        if string && std::str::from_utf8(&bytes[start..end]).is_err() {
            return false;
        }
        at = end;
        if let Some((elements, map)) = container.filter(|&(n, _)| n > 0) {
            owed = owed.saturating_add(elements);
            if owed > (bytes.len() - at) as u64 || open.len() == MAX_MESSAGEPACK_DEPTH {
                return false;
            }
            keyed_map |= map;
            open.push((elements, map));
        }
        while open.last().is_some_and(|&(left, _)| left == 0) {
            open.pop();
        }
    }
    open.is_empty() && keyed_map
}

/// The big-endian number of `len` bytes at `at`, or `u64::MAX` (more than
/// any file holds) when the file ends first.
fn be(bytes: &[u8], at: usize, len: usize) -> u64 {
    bytes.get(at..at + len).map_or(u64::MAX, |b| {
        b.iter().fold(0, |n, &b| n << 8 | u64::from(b))
    })
}

/// A UTF-16 byte-order mark in front of UTF-8 text: the mark's form, if
/// the bytes after it (their first 8 KiB) hold no NUL and are well-formed
/// UTF-8, which UTF-16 text is not (its newlines and spaces have a NUL
/// byte, and its other units are mostly ill-formed UTF-8).
pub(crate) fn wrong_bom(bytes: &[u8]) -> Option<WideForm> {
    let form = Signature::detect(bytes).and_then(WideForm::from_signature)?;
    if !matches!(form, WideForm::Utf16Le | WideForm::Utf16Be) {
        return None;
    }
    let body = &bytes[2..bytes.len().min(2 + BINARY_SNIFF_BYTES)];
    let utf8 = match std::str::from_utf8(body) {
        Ok(_) => true,
        // Cut by the 8 KiB window, not ill-formed.
        Err(e) => e.error_len().is_none() && bytes.len() > body.len() + 2,
    };
    (!body.is_empty() && utf8 && utf8lint_codec::find_nul(body).is_none()).then_some(form)
}

/// UTF-16 without a signature whose text is mostly outside Latin (CJK):
/// its NULs (the high bytes of newlines and spaces, the low bytes of
/// `U+3000`) are too few for the NUL pattern, but the bytes decode to text:
/// surrogates paired, almost no control characters (binary data read as
/// UTF-16 gives `U+0000` and unpaired surrogates) and letters of one script.
/// When both byte orders read plausibly (hiragana `い` is `44 30` in
/// UTF-16LE, and `U+4430` is a rare Han character), the one with more
/// characters from the blocks text is written in wins.
///
/// ASCII text with NUL bytes is never UTF-16 (an ASCII file with a NUL
/// byte reads as Han, `fi` is `U+6669`): text outside Latin has code units
/// with a byte that is not printable ASCII, whitespace or NUL (Cyrillic's
/// high byte is 0x04, and about half of the CJK units have a low byte of
/// 0x80 or above).
fn plausible_utf16(head: &[u8]) -> Option<WideForm> {
    if utf8_but_for_nuls(head) {
        return None;
    }
    let not_ascii_text =
        |b: u8| b >= 0x7F || b != 0 && b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C);
    if head.iter().filter(|&&b| not_ascii_text(b)).count() < MIN_LEGACY_NON_ASCII {
        return None;
    }
    [WideForm::Utf16Le, WideForm::Utf16Be]
        .into_iter()
        .filter_map(|form| Some((decodes_plausibly(head, form)?, form)))
        .max_by_key(|(common, _)| *common)
        .map(|(_, form)| form)
}

/// Whether `head` is well-formed UTF-8 with characters beyond ASCII once
/// its NUL bytes are dropped (a cut at the end forgiven): UTF-8 text with
/// NULs in it (a detector's negative sample), which reads as Hangul in
/// UTF-16BE (Cyrillic `К`, `D0 9A`, is U+D09A), and is UTF-8, not UTF-16.
/// UTF-16 text is no such thing: its units' bytes break UTF-8 within a few
/// characters.
fn utf8_but_for_nuls(head: &[u8]) -> bool {
    let kept: Vec<u8> = head.iter().copied().filter(|&b| b != 0).collect();
    let well_formed = match std::str::from_utf8(&kept) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    well_formed && !kept.is_ascii()
}

/// How many common characters `head` gives in `form`, if it decodes to
/// plausible text.
fn decodes_plausibly(head: &[u8], form: WideForm) -> Option<usize> {
    if !may_read_as_text(head, form) {
        return None;
    }
    decodes_plausibly_whole(head, form)
}

/// [`decodes_plausibly`] by decoding `head` whole.
fn decodes_plausibly_whole(head: &[u8], form: WideForm) -> Option<usize> {
    let enc = if form == WideForm::Utf16Le {
        encoding_rs::UTF_16LE
    } else {
        encoding_rs::UTF_16BE
    };
    // The head may end inside a unit or a surrogate pair: not last.
    let mut decoder = enc.new_decoder_without_bom_handling();
    let head = &head[..head.len() & !1];
    let mut text =
        String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(head.len())?);
    let (result, _) = decoder.decode_to_string_without_replacement(head, &mut text, false);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return None;
    }
    let (mut chars, mut controls, mut common, mut ascii) = (0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        chars += 1;
        controls +=
            usize::from(c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C' | '\x1B'));
        common += usize::from(is_common(c));
        ascii += usize::from(matches!(c, '\t' | '\n' | '\r' | ' '..='~'));
    }
    // ASCII text read as UTF-16 is Han (`fi` is `U+6669`): real text has
    // newlines and spaces among its characters, the misreading almost none.
    // The reading (a Unicode table lookup per character) only for what
    // passes those counts: binary data read as UTF-16 seldom does.
    let plausible = controls * 100 <= chars && ascii * 100 >= chars && {
        let reading = Reading::of(&text);
        reading.non_ascii >= MIN_LEGACY_NON_ASCII && reading.plausible()
    };
    plausible.then_some(common)
}

/// Whether `head` read in `form` may pass [`decodes_plausibly`]'s first
/// tests, told from its code units without decoding them: `false` when
/// a surrogate is unpaired (the decoder's error) or the control
/// characters are more than one in a hundred characters. Binary data,
/// nearly all that reaches the UTF-16 reading, is ruled out so after a few
/// dozen units instead of being decoded whole.
///
/// Exact where it says `false`: each unit not in a surrogate pair is one
/// character, and a control character (Cc: `U+0000`..`U+001F`,
/// `U+007F`..`U+009F`) one unit; the characters are at most the units, so
/// once the controls alone exceed a hundredth of the units, they exceed a
/// hundredth of the characters. A high surrogate last in `head` is
/// waited on by the decoder, not an error.
fn may_read_as_text(head: &[u8], form: WideForm) -> bool {
    let units = head.len() / 2;
    let unit = |pair: &[u8]| match form {
        WideForm::Utf16Le => u16::from_le_bytes([pair[0], pair[1]]),
        _ => u16::from_be_bytes([pair[0], pair[1]]),
    };
    let (mut controls, mut high) = (0usize, false);
    for pair in head.chunks_exact(2) {
        let u = unit(pair);
        let low = (0xDC00..=0xDFFF).contains(&u);
        if high != low {
            return false;
        }
        high = (0xD800..=0xDBFF).contains(&u);
        let control = u < 0x20 && !matches!(u, 0x09 | 0x0A | 0x0C | 0x0D | 0x1B)
            || (0x7F..=0x9F).contains(&u);
        controls += usize::from(control);
        if controls * 100 > units {
            return false;
        }
    }
    true
}

/// UTF-16/32 without a signature: text in the Latin, Greek, Cyrillic ...
/// ranges puts a NUL in every other byte (UTF-16) or three of every four
/// (UTF-32), at positions fixed by the byte order, and nowhere else.
fn nul_pattern(sample: &[u8]) -> Option<WideForm> {
    let units = sample.len() / 4;
    if units < 2 {
        return None;
    }
    let nul_at = nuls_by_offset(&sample[..units * 4]);
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

/// How many NUL bytes `quads` (whole units of four bytes) holds at each
/// offset of a unit: counted in byte lanes over 64 bytes at a time
/// (vector compares), for fewer steps than a lane holds, then summed by
/// offset. The sample is up to 64 KiB.
fn nuls_by_offset(quads: &[u8]) -> [usize; 4] {
    let mut nul_at = [0usize; 4];
    for run in quads.chunks(64 * 255) {
        let mut lanes = [0u8; 64];
        let mut chunks = run.chunks_exact(64);
        for chunk in &mut chunks {
            for (lane, &b) in lanes.iter_mut().zip(chunk) {
                *lane += u8::from(b == 0);
            }
        }
        // The remainder starts at a multiple of 64, so of 4.
        let rest = chunks.remainder().iter().map(|&b| u8::from(b == 0));
        for (k, n) in lanes.into_iter().chain(rest).enumerate() {
            nul_at[k % 4] += usize::from(n);
        }
    }
    nul_at
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
pub(crate) fn transcode_wide(bytes: &[u8], wide: Wide) -> Option<String> {
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

/// Percent of `head`'s bytes that are control bytes text does not use
/// (`crate::control_bytes`, counted by the codec: every scanned file pays
/// it over up to 8 KiB).
pub(crate) fn control_percent(head: &[u8]) -> usize {
    if head.is_empty() {
        return 0;
    }
    crate::control_bytes::count_controls(head) * 100 / head.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Heads of every kind that reaches the UTF-16 reading: binary data,
    /// UTF-16 text in both byte orders with surrogate pairs, a few
    /// controls or a cut, and ASCII with NUL bytes.
    fn heads() -> Vec<Vec<u8>> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let texts = [
            "日本語のテキスト、ひらがなとカタカナ。\n",
            "Привет, мир! Это текст.\r\n",
            "한국어 문장입니다 😀 𝒳\t",
            "plain ASCII words and spaces\n",
        ];
        let mut heads = Vec::new();
        for k in 0..600 {
            let len = (xorshift(&mut state) >> 40) as usize % 9000;
            let mut head = Vec::with_capacity(len);
            match k % 4 {
                0 => {
                    while head.len() < len {
                        let r = xorshift(&mut state);
                        // Random bytes, often NUL.
                        head.push(if r.is_multiple_of(3) {
                            0
                        } else {
                            (r >> 24) as u8
                        });
                    }
                }
                1 | 2 => {
                    let text = texts[k % texts.len()];
                    while head.len() < len {
                        for u in text.encode_utf16() {
                            let r = xorshift(&mut state);
                            // Now and then a control, a lone surrogate,
                            // or a unit dropped.
                            let u = match r % 400 {
                                0 => 0x0001,
                                1 => 0xD800,
                                2 => 0xDC00,
                                3 => continue,
                                _ => u,
                            };
                            let bytes = if k % 4 == 1 {
                                u.to_le_bytes()
                            } else {
                                u.to_be_bytes()
                            };
                            head.extend_from_slice(&bytes);
                        }
                    }
                    head.truncate(len);
                }
                _ => {
                    while head.len() < len {
                        let r = xorshift(&mut state);
                        head.push(if r.is_multiple_of(50) {
                            0
                        } else {
                            b'a' + (r % 26) as u8
                        });
                    }
                }
            }
            heads.push(head);
        }
        heads
    }

    /// The test on code units rules out only heads that decoding whole
    /// rules out, and it rules out most binary data.
    #[test]
    fn the_unit_test_rules_out_only_what_decoding_rules_out() {
        let (mut ruled_out, mut read, mut plausible) = (0, 0, 0);
        for head in heads() {
            for form in [WideForm::Utf16Le, WideForm::Utf16Be] {
                let whole = decodes_plausibly_whole(&head, form);
                if may_read_as_text(&head, form) {
                    read += 1;
                    plausible += usize::from(whole.is_some());
                } else {
                    ruled_out += 1;
                    assert_eq!(whole, None, "{form:?} {:02X?}", &head[..head.len().min(64)]);
                }
                assert_eq!(decodes_plausibly(&head, form), whole);
            }
        }
        assert!(
            ruled_out > 300 && read > 100 && plausible > 50,
            "{ruled_out} {read} {plausible}"
        );
    }

    /// Each kind of evidence, and text and wide text, on the kinds of
    /// head above and on signatures, MessagePack records, marks and text;
    /// and the words a skipped file is reported with.
    #[test]
    fn every_kind_of_evidence_is_told() {
        // No control byte in it: told by its structure alone.
        let record = b"\x82\xA4name\xA5Alice\xA3age\x41".to_vec();
        assert_eq!(crate::control_bytes::count_controls(&record), 0);
        let mut records = record.repeat(3);
        records.extend_from_slice(b"\x81\xA1k\xA1v");
        let mut noise = 0x1234_5678_9ABC_DEF1u64;
        let small_data: Vec<u8> = (0..300)
            .map(|_| (xorshift(&mut noise) >> 24) as u8 | 1)
            .collect();
        let cases: Vec<(Vec<u8>, Sniff, &str)> = vec![
            (
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0".to_vec(),
                Sniff::Binary(BinaryEvidence::Signature { format: "png" }),
                "PNG image",
            ),
            // A JPEG's signature needs no control byte after it.
            (
                b"\xFF\xD8\xFF\xE0 JFIF-like header without controls".to_vec(),
                Sniff::Binary(BinaryEvidence::Signature { format: "jpg" }),
                "JPEG image",
            ),
            (
                b"BM6\0\x0C\0\0\0\0\0\x36\0\0\0".to_vec(),
                Sniff::Binary(BinaryEvidence::Signature { format: "bmp" }),
                "BMP image",
            ),
            (
                records,
                Sniff::Binary(BinaryEvidence::Signature { format: "msgpack" }),
                "MessagePack",
            ),
            (
                b"abc\0def".to_vec(),
                Sniff::Binary(BinaryEvidence::Nul { at: 3 }),
                "NUL byte at offset 3 and no UTF-16/32 pattern",
            ),
            (
                b"\x01\x02\x03\x04".repeat(40),
                Sniff::Binary(BinaryEvidence::ControlBytes { percent: 100 }),
                "100% of its first 8 KiB",
            ),
            (
                small_data.clone(),
                Sniff::Binary(BinaryEvidence::NoText(no_text(&small_data).unwrap())),
                "data that reads as text in no encoding",
            ),
        ];
        for (bytes, expected, words) in cases {
            let sniffed = sniff(&bytes);
            assert_eq!(sniffed, expected, "{:02X?}", &bytes[..bytes.len().min(32)]);
            let Sniff::Binary(evidence) = sniffed else {
                unreachable!()
            };
            assert!(evidence.to_string().starts_with(words), "{evidence}");
        }
        for text in [
            &b"BMW cars\n"[..],
            b"MZ-80 and SQLite are names\n",
            b"\xEF\xBB\xBFtext\n",
            b"\xFF\xFEplain UTF-8 after a wrong mark\n",
            b"plain text\n",
            b"",
        ] {
            assert_eq!(sniff(text), Sniff::Text, "{text:?}");
        }
        assert!(matches!(sniff(b"\xFF\xFEh\0i\0"), Sniff::Wide(_)));
        for head in heads() {
            // Wide text stays wide, whatever its length.
            if let Some(wide) = wide(&head) {
                assert_eq!(sniff(&head), Sniff::Wide(wide));
            }
        }
    }

    /// UTF-8 text with NUL bytes among its characters is binary (a NUL
    /// and no UTF-16 pattern), not Hangul read in UTF-16BE; UTF-16 CJK
    /// text with NULs is still UTF-16.
    #[test]
    fn utf8_with_nuls_is_not_utf16() {
        let mut sample = b"\0".to_vec();
        sample.extend_from_slice(
            "Кой от вас е пристигнал от столицата, братя? "
                .repeat(8)
                .as_bytes(),
        );
        sample.extend_from_slice(b"\0\x12");
        assert!(matches!(
            sniff(&sample),
            Sniff::Binary(BinaryEvidence::Nul { at: 0 })
        ));
        let korean: Vec<u8> = "한국어 문장입니다. 다른 문장도 있습니다.\n"
            .repeat(8)
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert!(matches!(sniff(&korean), Sniff::Wide(_)));
    }

    /// The NUL counts in byte lanes are the plain count at each unit
    /// offset, on samples of every length around their steps.
    #[test]
    fn nul_pattern_counts_each_offset() {
        let plain = |sample: &[u8]| {
            let mut nul_at = [0usize; 4];
            for quad in sample.chunks_exact(4) {
                for (i, b) in quad.iter().enumerate() {
                    nul_at[i] += usize::from(*b == 0);
                }
            }
            nul_at
        };
        let lanes = |sample: &[u8]| nuls_by_offset(&sample[..sample.len() / 4 * 4]);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut sample = vec![0u8; SNIFF_BYTES];
        for (i, b) in sample.iter_mut().enumerate() {
            let r = xorshift(&mut state);
            *b = if r.is_multiple_of(2) || i % 4 == 1 {
                0
            } else {
                r as u8
            };
        }
        for len in [
            0,
            3,
            4,
            63,
            64,
            65,
            67,
            64 * 255 - 1,
            64 * 255,
            64 * 255 + 5,
            50_001,
            SNIFF_BYTES,
        ] {
            assert_eq!(lanes(&sample[..len]), plain(&sample[..len]), "{len}");
        }
        // All NUL: no lane overflows.
        let zeros = vec![0u8; SNIFF_BYTES];
        assert_eq!(lanes(&zeros), [SNIFF_BYTES / 4; 4]);
    }

    /// UTF-16 and UTF-32 samples are told by their NULs, text is not.
    #[test]
    fn nul_pattern_tells_the_forms() {
        let text = "Plain text, mostly Latin: façade, naïve.\n".repeat(400);
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        let be32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect();
        assert_eq!(nul_pattern(&le), Some(WideForm::Utf16Le));
        assert_eq!(nul_pattern(&be), Some(WideForm::Utf16Be));
        assert_eq!(nul_pattern(&le32[..SNIFF_BYTES]), Some(WideForm::Utf32Le));
        assert_eq!(nul_pattern(&be32[..SNIFF_BYTES]), Some(WideForm::Utf32Be));
        assert_eq!(nul_pattern(text.as_bytes()), None);
    }
}
