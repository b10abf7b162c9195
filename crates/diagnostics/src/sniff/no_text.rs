//! The positive text test: bytes that read as text in no candidate
//! encoding are binary, NUL or no NUL (compressed or encrypted data, small
//! enough to hold no NUL byte by chance: a git object of 200 bytes has none
//! half the time).
//!
//! Every candidate is asked in turn, and any one that reads the bytes as
//! text keeps them text: UTF-8 (a terminal log, an Info file with its
//! `\x1F` separators, anything well-formed is text, whatever its controls:
//! they are U012's), every ASCII-compatible legacy encoding (their text
//! has no control bytes but a few kinds of stray or markup ones: `\b` of
//! overstrike, `\x1F`, `\x07`), and UTF-16 in either byte order. What is
//! left is data: ill-formed as UTF-8, control bytes of many values spread
//! over the whole sample, few spaces and line breaks.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use crate::rules::not_utf8::{Reading, is_common};

/// Fewer bytes than this are never called data by this test: a random
/// dozen bytes may hold two controls and no space, as a short text with a
/// stray byte may.
pub(crate) const MIN_NO_TEXT_BYTES: usize = 32;

/// The control bytes must be at least this share (per mille) of the
/// sample: random data has about 105 (27 values of 256), text with a
/// stray control or two far fewer.
const MIN_CONTROLS_PER_MILLE: usize = 20;

/// At least this many different control byte values: data uses them all
/// alike, text that holds controls uses one or two (`\b` of overstrike,
/// `\x1F` and `\x7F` of Info, `\x07` and `\x0F` of a terminal).
const MIN_CONTROL_VALUES: usize = 5;

/// Spaces, tabs and line breaks are at most this share (per mille) of the
/// sample: random data has about 16 (4 values of 256), text in any
/// ASCII-compatible encoding far more (Japanese in Shift_JIS, which
/// separates no words, has its line breaks; and no controls either).
const MAX_WHITESPACE_PER_MILLE: usize = 40;

/// The sample is cut in this many equal parts, and the controls must be in
/// each: spread over the data, not a binary block in a text file.
const PARTS: usize = 4;

/// Why `head` (a file's first bytes, without a NUL byte or the UTF-16/32
/// pattern: those are told before) is data, or `None` when some candidate
/// encoding reads it as text. Cheap for the text that reaches it: UTF-8
/// validation first, and counts of bytes; the UTF-16 readings only for
/// what looks like data to all the rest.
pub(crate) fn no_text(head: &[u8]) -> Option<NoText> {
    if head.len() < MIN_NO_TEXT_BYTES {
        return None;
    }
    // Well-formed UTF-8 (a cut at the end of the sample forgiven) is text.
    match std::str::from_utf8(head) {
        Ok(_) => return None,
        Err(e) if e.error_len().is_none() => return None,
        Err(_) => {}
    }
    let mut seen = [false; 256];
    let (mut controls, mut whitespace) = (0usize, 0usize);
    let part = head.len().div_ceil(PARTS);
    let mut parts_with_controls = [false; PARTS];
    for (i, &b) in head.iter().enumerate() {
        let control = b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | 0x1B) || b == 0x7F;
        controls += usize::from(control);
        whitespace += usize::from(matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
        if control {
            seen[usize::from(b)] = true;
            parts_with_controls[i / part] = true;
        }
    }
    let values = seen.iter().filter(|&&s| s).count();
    let per_mille = |n: usize| n * 1000 / head.len();
    let data = per_mille(controls) >= MIN_CONTROLS_PER_MILLE
        && values >= MIN_CONTROL_VALUES
        && per_mille(whitespace) <= MAX_WHITESPACE_PER_MILLE
        && parts_with_controls.iter().all(|&p| p);
    if !data {
        return None;
    }
    let utf16 = [UTF_16LE, UTF_16BE]
        .into_iter()
        .any(|encoding| reads_as_utf16(head, encoding));
    (!utf16).then_some(NoText {
        controls_per_mille: per_mille(controls),
        values,
    })
}

/// At least this share (percent) of the characters a UTF-16 reading gives
/// must be of the blocks everyday text uses: random code units fall there
/// about half the time.
const MIN_COMMON_PERCENT: usize = 95;

/// Whether `head` reads as UTF-16 text in `encoding` (either byte
/// order) without the NUL bytes that ASCII characters would bring (CJK
/// text, whose controls in the ASCII sense are the low bytes of its code
/// units): surrogates paired, at most one control character in a
/// hundred, nearly all characters common ([`MIN_COMMON_PERCENT`]) and
/// letters of one script. Random data fails at its first unpaired
/// surrogate, about one code unit in thirty.
fn reads_as_utf16(head: &[u8], encoding: &'static Encoding) -> bool {
    // A pair cut by the sample's end is not an error.
    let body = &head[..head.len().saturating_sub(2) & !1];
    let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(body) else {
        return false;
    };
    let (mut chars, mut common, mut controls) = (0usize, 0usize, 0usize);
    for c in text.chars() {
        chars += 1;
        common += usize::from(is_common(c));
        controls +=
            usize::from(c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C' | '\x1B'));
    }
    controls * 100 <= chars
        && common * 100 >= MIN_COMMON_PERCENT * chars
        && Reading::of(&text).plausible()
}

/// What made a sample data: its control bytes, and how many values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoText {
    /// Control bytes per thousand bytes of the sample.
    pub controls_per_mille: usize,
    /// How many different control byte values.
    pub values: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(len: usize, mut state: u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u8
            })
            .collect()
    }

    /// Random bytes without NUL (a small compressed file) are data from a
    /// few dozen bytes on: nearly half of them at 64 bytes, nearly all at 200.
    #[test]
    fn random_bytes_without_nul_are_data() {
        let mut found = [0usize; 3];
        let lens = [64, 200, 1000];
        for seed in 1..=200u64 {
            for (k, len) in lens.into_iter().enumerate() {
                let mut bytes = random(len, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                bytes.iter_mut().for_each(|b| *b = (*b).max(1));
                found[k] += usize::from(no_text(&bytes).is_some());
            }
        }
        assert!(found[0] >= 80, "{found:?}");
        assert!(found[1] >= 190, "{found:?}");
        assert_eq!(found[2], 200, "{found:?}");
    }

    /// Text in every kind of encoding, with the controls text holds, is
    /// text to this test.
    #[test]
    fn text_with_controls_is_text() {
        let latin1 = b"Caf\xE9 cr\xE8me, na\xEFve fa\xE7ade. ".repeat(20);
        let sjis = b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67\x82\xc5\x82\xb7\x81\x42\n".repeat(20);
        let mut info = b"\x1f\nFile: x.info, Node: Top\n\nText of the node caf\xE9.\n".repeat(10);
        info.extend_from_slice(b"\x1f\nTag Table:\n\x7f123\n\x1f\nEnd Tag Table\n");
        let overstrike =
            b"N\x08NA\x08AM\x08ME\x08E\n     caf\xE9 - b\x08bo\x08ol\x08ld\n".repeat(20);
        let terminal =
            b"\x1b[1mbold\x1b[0m \x07\x0e\x0fq\x0f caf\xE9 \x08\x08 log line\r\n".repeat(20);
        let utf16: Vec<u8> = "日本語のテキスト、ひらがなとカタカナ。漢字も使います。"
            .repeat(10)
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        // Its code units' low bytes are controls of many values: only the
        // UTF-16 reading keeps it text.
        assert!(!utf16.contains(&0));
        assert!(reads_as_utf16(&utf16, UTF_16LE));
        assert!(!reads_as_utf16(&utf16, UTF_16BE));
        let stray = [
            b"plain caf\xE9 text ".repeat(10),
            b"\x01\x02\x03\x04\x05\x06".to_vec(),
        ]
        .concat();
        let utf8 = "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}"
            .repeat(10)
            .into_bytes();
        for (name, text) in [
            ("Latin-1", &latin1),
            ("Shift_JIS", &sjis),
            ("Info", &info),
            ("overstrike", &overstrike),
            ("terminal", &terminal),
            ("UTF-16LE", &utf16),
            ("stray", &stray),
            ("UTF-8 controls", &utf8),
        ] {
            assert_eq!(no_text(text), None, "{name}");
        }
    }

    #[test]
    fn short_samples_are_never_data() {
        let bytes = random(MIN_NO_TEXT_BYTES - 1, 7);
        assert_eq!(no_text(&bytes), None);
    }
}
