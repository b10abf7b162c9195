//! The legacy verdict: whether a file with ill-formed UTF-8 is text in a
//! legacy encoding, and which, on evidence taken in order (UTF-8 first).

use encoding_rs::Encoding;
use utf8lint_codec::{Subpart, Utf8Chunks};

use super::detector::Detector;
use super::reading::Reading;
use super::sample::non_ascii_lines;
use super::sniff::{BINARY_SNIFF_BYTES, MIN_BINARY_CONTROL_PERCENT, control_percent};

/// A legacy verdict needs at least this many bytes in ill-formed sequences
/// in the sample: one to three stray bytes (`ok \xFF\xFE bytes`) are
/// defects in UTF-8 text, not evidence of an encoding, whatever well-formed
/// characters stand around them.
pub(crate) const MIN_LEGACY_NON_ASCII: usize = 4;

/// Ill-formed bytes only in this many last bytes of the file are a
/// character cut at the end (`price: 5 \xE2\x82`): UTF-8 with a defect.
const CUT_AT_END_BYTES: usize = 3;

/// A legacy verdict: the encoding to decode with and the name a user knows
/// it by (`KOI8-R or KOI8-U` when the text cannot tell them apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyVerdict {
    /// The encoding whose decoder reads the file (the detector's guess).
    pub encoding: &'static Encoding,
    /// The family's user-facing name.
    pub name: &'static str,
    /// How well the detector's guess is supported: only an identified
    /// encoding is named as the file's and offered as a transcoding.
    pub support: Support,
}

/// How well the text supports the detector's guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Enough words, and clearly more than any other reading
    /// (`detector_identifies`).
    Identified,
    /// The file is legacy text (the verdict's other evidence holds), but
    /// which encoding the text does not tell: short, or a list of letters
    /// (a spelling table) that several encodings read as words. `rival` is
    /// the best other encoding that reads it as different text.
    Unidentified {
        /// The runner-up's name, if any encoding reads it differently.
        rival: Option<&'static str>,
    },
}

/// Decides whether a file with ill-formed UTF-8 is in a legacy encoding,
/// and which: UTF-8 first, and a legacy verdict only on evidence (see the
/// constants above). Reads a bounded sample, whatever the file's size.
/// `first_errors` are the file's first ill-formed sequences and
/// `error_count` how many it has, or any number above `first_errors.len()`
/// when it has more than those: the verdict asks only whether they are
/// all in `first_errors`, so a caller need not count them all first.
pub fn legacy_verdict(
    bytes: &[u8],
    error_count: usize,
    first_errors: &[Subpart],
) -> Option<LegacyVerdict> {
    if error_count == 0 || cut_at_end(bytes, error_count, first_errors) {
        return None;
    }
    if control_percent(&bytes[..bytes.len().min(BINARY_SNIFF_BYTES)]) >= MIN_BINARY_CONTROL_PERCENT
    {
        return None;
    }
    let (sample, whole) = non_ascii_lines(bytes);
    // Counted in the ill-formed sequences only: a well-formed emoji next to
    // two stray bytes is no evidence of an encoding (it made `abc \xFF def`
    // plus `😀 x\xFFy` "IBM866").
    let ill_formed = IllFormed::of(&sample);
    if ill_formed.bytes < MIN_LEGACY_NON_ASCII {
        return None;
    }
    // UTF-8 first: well-formed multi-byte characters that read as text
    // (`é`, `ж`, `中`) among the errors say UTF-8 with defects. Legacy text
    // makes some by accident, but they are no text: IBM866 `ра` (`E0 A0`)
    // and windows-874 Thai start three-byte forms of Samaritan, Devanagari,
    // ... scattered over scripts.
    let errors = ill_formed.count;
    let as_utf8 = well_formed_reading(&sample);
    // Or well-formed characters outnumber the errors, whatever they are
    // (vim's crash input: thousands of `U+180C` and a few errors).
    if as_utf8.non_ascii * MAX_UTF8_PER_ERROR > errors && as_utf8.plausible()
        || as_utf8.non_ascii > errors
    {
        return None;
    }
    // Overlong-looking pairs (`\xC0\xB8`, Cyrillic `Аё` in windows-1251;
    // `\xE0\x80\xAF` in Shift_JIS kanji) occur in legacy text now and then,
    // so one such error is no evidence against it; errors that mostly read
    // as broken UTF-8 (`a/\xC0\xAE\xC0\xAE/b`, CESU-8 pairs) are.
    if ill_formed.utf8_like_percent() >= MAX_UTF8_LIKE_PERCENT {
        return None;
    }
    // Only now the detector, the costliest step (tens of nanoseconds a
    // byte): the tests above need no guess, and most files with ill-formed
    // bytes are UTF-8 with defects that they settle.
    let detector = Detector::read(&sample, whole);
    let guess = detector.guess();
    if guess == encoding_rs::UTF_8 {
        return None;
    }
    let encoding = guess;
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text =
        String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(sample.len())?);
    let (result, _) = decoder.decode_to_string_without_replacement(&sample, &mut text, whole);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return None;
    }
    let (encoding, text) = if encoding == encoding_rs::WINDOWS_1252 && iso_8859_15_letters(&text) {
        let latin9 = encoding_rs::ISO_8859_15;
        (
            latin9,
            latin9.decode_without_bom_handling(&sample).0.into_owned(),
        )
    } else {
        (encoding, text)
    };
    if !Reading::of(&text).plausible_words() {
        return None;
    }
    Some(LegacyVerdict {
        encoding,
        name: family_name(encoding, &sample, &text),
        support: detector.support(guess, &sample, &text),
    })
}

/// Share (percent) of the ill-formed sequences with a UTF-8-like reading
/// (overlong, encoded surrogate, RFC 2279 forms) from which they come from
/// a broken UTF-8 encoder, not a legacy charset.
pub(crate) const MAX_UTF8_LIKE_PERCENT: usize = 25;

/// A sample's ill-formed sequences, counted in one pass (the verdict asked
/// three, and finding the sequences in legacy text, where nearly every
/// non-ASCII byte is one, was a tenth of its time).
struct IllFormed {
    /// How many.
    count: usize,
    /// Their bytes.
    bytes: usize,
    /// How many read as broken UTF-8 (overlong, encoded surrogate, RFC 2279).
    utf8_like: usize,
}

impl IllFormed {
    fn of(sample: &[u8]) -> IllFormed {
        let mut found = IllFormed {
            count: 0,
            bytes: 0,
            utf8_like: 0,
        };
        for sub in utf8lint_codec::subparts(sample) {
            found.count += 1;
            found.bytes += usize::from(sub.len);
            found.utf8_like +=
                usize::from(utf8lint_codec::interpret(&sample[sub.offset..]).is_some());
        }
        found
    }

    /// Percent of the sequences that read as broken UTF-8.
    fn utf8_like_percent(&self) -> usize {
        (self.utf8_like * 100).checked_div(self.count).unwrap_or(0)
    }
}

/// More than one well-formed multi-byte UTF-8 character that reads as
/// text per this many errors makes the file UTF-8 with defects; fewer are
/// accidents of legacy text (`Ã©` is both windows-1252 and UTF-8 `é`).
pub(crate) const MAX_UTF8_PER_ERROR: usize = 8;

/// The well-formed multi-byte characters of `sample`, as text.
fn well_formed_reading(sample: &[u8]) -> Reading {
    let mut reading = Reading::default();
    for chunk in Utf8Chunks::new(sample) {
        for c in chunk.valid().chars() {
            reading.add(c);
        }
    }
    reading
}

/// True when every ill-formed sequence sits in the last bytes of the file:
/// a multi-byte character cut short by a truncation.
fn cut_at_end(bytes: &[u8], error_count: usize, first_errors: &[Subpart]) -> bool {
    error_count == first_errors.len()
        && first_errors
            .iter()
            .all(|s| s.offset + CUT_AT_END_BYTES >= bytes.len())
}

/// True when a windows-1252 reading puts one of the symbols ISO-8859-15
/// replaced by letters (`½` for `œ`, `¨` for `š`, ...) between two letters
/// (`c½ur`): the text is ISO-8859-15, which chardetng does not guess.
fn iso_8859_15_letters(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // Letters of words, not `µ` or `º` in a table of symbols.
    let word_letter = |c: char| {
        c.is_ascii_alphabetic() || (c.is_alphabetic() && ('\u{C0}'..='\u{FF}').contains(&c))
    };
    chars.windows(3).any(|w| {
        matches!(w[1], '¤' | '¦' | '¨' | '´' | '¸' | '¼' | '½' | '¾')
            && word_letter(w[0])
            && word_letter(w[2])
    })
}

/// The name users know the family by, where encoding_rs's name is one of
/// several the bytes cannot tell apart.
fn family_name(encoding: &'static Encoding, sample: &[u8], text: &str) -> &'static str {
    let c1_bytes = sample.iter().any(|b| (0x80..=0x9F).contains(b));
    if encoding == encoding_rs::WINDOWS_1252 && !c1_bytes {
        "ISO-8859-1 or windows-1252"
    } else if encoding == encoding_rs::WINDOWS_874 && !c1_bytes {
        "TIS-620 or windows-874"
    } else if encoding == encoding_rs::KOI8_U || encoding == encoding_rs::KOI8_R {
        // The two differ only in the Ukrainian and Belarusian letters.
        if text.contains(['є', 'і', 'ї', 'ґ', 'Є', 'І', 'Ї', 'Ґ', 'ў', 'Ў']) {
            "KOI8-U"
        } else {
            "KOI8-R or KOI8-U"
        }
    } else if encoding == encoding_rs::GBK || encoding == encoding_rs::GB18030 {
        "GBK or GB18030"
    } else {
        encoding.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_utf8_like_share_counts_sequences() {
        // `C0 AE` is two maximal subparts, the first with a UTF-8-like reading.
        assert_eq!(IllFormed::of(b"\xC0\xAE \xE9 \xE8").utf8_like_percent(), 25);
        assert_eq!(
            IllFormed::of(b"\xC0\xAE \xE9 \xE8 \xFB").utf8_like_percent(),
            20
        );
        assert_eq!(IllFormed::of(b"plain").utf8_like_percent(), 0);
    }
}
