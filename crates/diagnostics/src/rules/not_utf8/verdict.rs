//! The legacy verdict: whether a file with ill-formed UTF-8 is text in a
//! legacy encoding, and which, on evidence taken in order (UTF-8 first).

use encoding_rs::Encoding;
use utf8lint_codec::{Subpart, Utf8Chunks};

use super::detector::Detector;
use super::languages::{
    LATIN_READINGS, MIN_NAMING_LETTERS, alphabet_holds, fits_a_language, language_of,
    latin_readings, reads_as_letters, reads_quotes_as_letters, thin_latin,
};
use super::reading::{Reading, Support};
use super::sample::{LEGACY_SCAN_BYTES, non_ascii_lines};
use super::unclaimed::unclaimed_rival;
use crate::sniff::{
    BINARY_SNIFF_BYTES, MIN_BINARY_CONTROL_PERCENT, binary_signature, control_percent,
};

/// Any legacy verdict needs at least this many ill-formed sequences (an
/// RFC 2279 form counts once, and not at all towards the text: it is
/// broken UTF-8, not a letter); a named one also needs the detector's
/// support (`detector.rs`), and one that says the text does not identify
/// its encoding "enough text that is clearly not UTF-8": as many ...
pub(crate) const MIN_LEGACY_SEQUENCES: usize = 4;

/// ... standing in at least this many places (stretches of non-ASCII bytes
/// between ASCII ones: `caf\xE9 cr\xE8me br\xFBl\xE9e` is three, the four
/// bytes of `abc \xFF\xFE\xFD\xFC def` one) ...
pub(crate) const MIN_LEGACY_PLACES: usize = 3;

/// ... or, in fewer places, at least this many sequences: a line of a
/// script written without spaces (Chinese, Japanese, Thai) or a few words
/// of Cyrillic are one or two places of many sequences each. Fewer, in
/// fewer places, are a handful of impossible bytes in UTF-8 text: one U001
/// per sequence, each named. So are any number in one place with no ASCII
/// letter in the sample: stray bytes with no text around them (the
/// conformance corpus's `80 81 ... 87` alone), not words of a language.
pub(crate) const MIN_SEQUENCES_IN_FEW_PLACES: usize = 8;

/// A verdict that the text is in an encoding no reading identifies needs at
/// least this many ill-formed sequences (fewer are a handful of bytes or a
/// snippet: U001 each) ...
pub(crate) const MIN_UNEXPLAINED_SEQUENCES: usize = 16;

/// ... in at least this many different stretches of non-ASCII bytes (words:
/// IBM852 and IBM857 text has 9 and 11 in its sample, Johab over 100; vim's
/// character-class test, one row of byte values repeated on every line, 1)
/// ...
pub(crate) const MIN_UNEXPLAINED_WORDS: usize = 8;

/// ... in a sample at least this share (percent) of whose bytes are ASCII
/// whitespace: text is lines of words. Measured: float arrays and random
/// bytes have at most 2%; Johab, IBM852 and IBM857 text at least 11.8%
/// (charset-normalizer's dataset); EBCDIC, whose spaces and line breaks
/// are other bytes, 0.5% (its bytes stay U001 and are never converted).
pub(crate) const MIN_TEXT_WHITESPACE_PERCENT: usize = 5;

/// Ill-formed bytes only in this many last bytes of the file are a
/// character cut at the end (`price: 5 \xE2\x82`): UTF-8 with a defect.
const CUT_AT_END_BYTES: usize = 3;

/// A legacy verdict: the encoding to decode with and the name a user knows
/// it by (`KOI8-R or KOI8-U` when the text cannot tell them apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LegacyVerdict {
    /// The encoding whose decoder reads the file (the detector's guess).
    pub(crate) encoding: &'static Encoding,
    /// The family's user-facing name.
    pub(crate) name: &'static str,
    /// How well the detector's guess is supported: only an identified
    /// encoding is named as the file's and offered as a transcoding.
    pub(crate) support: Support,
}

/// Decides whether a file with ill-formed UTF-8 is in a legacy encoding,
/// and which: UTF-8 first, and a legacy verdict only on evidence (see the
/// constants above). Reads a bounded sample, whatever the file's size.
/// `first_errors` are the file's first ill-formed sequences and
/// `error_count` how many it has, or any number above `first_errors.len()`
/// when it has more than those: the verdict asks only whether they are
/// all in `first_errors`, so a caller need not count them all first.
pub(crate) fn legacy_verdict(
    bytes: &[u8],
    error_count: usize,
    first_errors: &[Subpart],
) -> Option<LegacyVerdict> {
    if error_count == 0
        || cut_at_end(bytes, error_count, first_errors)
        || binary_signature(bytes).is_some()
    {
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
    if ill_formed.count - ill_formed.rfc_2279 < MIN_LEGACY_SEQUENCES {
        return short_text(&sample, whole, &ill_formed);
    }
    // One byte value repeated (`\xC0` a million times, padding) is data,
    // unless it stands beside ASCII letters, as the one letter a language
    // adds to ASCII does (Finnish `ä`, `\xE4` in `p\xE4iv\xE4`).
    let mut seen = [false; 128];
    for &b in sample.iter().filter(|b| !b.is_ascii()) {
        seen[usize::from(b & 0x7F)] = true;
    }
    let one_value = seen.iter().filter(|&&s| s).count() < 2;
    if one_value && !one_letter_in_words(&sample) {
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
    // Typographic punctuation alone (`…` and `‘ ’ “ ” • – —`, bytes 85
    // and 91 to 97), which every windows code page reads alike: whichever
    // is meant, the text is the same, and windows-1252 is named.
    if sample
        .iter()
        .filter(|b| !b.is_ascii())
        .all(|b| matches!(b, 0x85 | 0x91..=0x97))
    {
        let encoding = encoding_rs::WINDOWS_1252;
        return Some(LegacyVerdict {
            encoding,
            name: family_name(encoding, &sample, ""),
            support: Support::Identified,
        });
    }
    // Only now the detector, the costliest step (tens of nanoseconds a
    // byte): the tests above need no guess, and most files with ill-formed
    // bytes are UTF-8 with defects that they settle.
    let detector = Detector::read(&sample, whole);
    let guess = detector.guess();
    // From here on the bytes are not UTF-8 with defects: when no encoding
    // reads them as text, many of them in lines of words are a file in an
    // encoding the detector does not know (Johab, a DOS code page), said so
    // with no fix; fewer, or in no lines of words (binary data, EBCDIC),
    // stay U001, each sequence named.
    // (More than one well-formed character per 8 errors, whatever they
    // are, is UTF-8 text with defects: `x\x80y` lines among lines with a
    // U+FEFF.)
    // The share is also asked of the whole file (its first
    // `LEGACY_SCAN_BYTES`): a UTF-8 decoder's stress test opens with lines
    // of bad sequences and has its well-formed characters further on.
    let no_reading = || {
        let utf8_text = as_utf8.non_ascii * MAX_UTF8_PER_ERROR > errors || utf8_text_in(bytes);
        (!utf8_text && ill_formed.unexplained_text(&sample)).then_some(LegacyVerdict {
            encoding: guess,
            name: guess.name(),
            support: Support::NoReading,
        })
    };
    if guess == encoding_rs::UTF_8 {
        return no_reading();
    }
    // A CJK guess is weighed by the whole file (its first
    // `LEGACY_SCAN_BYTES`), not the sample's lines: one line of KS X 1001
    // jamo compositions (`A4D4 A4B6 ...`, hiragana in EUC-JP) makes
    // chardetng read Korean as Japanese.
    let scan = &bytes[..bytes.len().min(LEGACY_SCAN_BYTES)];
    // Whole characters only: a cut scan ends at its last ASCII byte.
    let scan = if scan.len() < bytes.len() {
        &scan[..scan.iter().rposition(u8::is_ascii).map_or(0, |at| at + 1)]
    } else {
        scan
    };
    let by_file = cjk_by_the_whole_file(guess, scan);
    let encoding = match by_file {
        WholeFile::Reads(encoding) => encoding,
        WholeFile::Agrees | WholeFile::NotItsLanguage => guess,
    };
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text =
        String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(sample.len())?);
    let (result, _) = decoder.decode_to_string_without_replacement(&sample, &mut text, whole);
    if result != encoding_rs::DecoderResult::InputEmpty {
        return no_reading();
    }
    // A Latin reading is text only if its letters are one language's: when
    // exactly one text among the Latin readings is, or the detector's
    // scores tell one of several apart, it is the file's, named whatever
    // the thresholds (set for long files: a short text's few words score
    // little, and a wrong reading's symbols can outscore it).
    if LATIN_READINGS.contains(&guess)
        && let Some(verdict) = by_language(&detector, guess, &sample, 1)
    {
        return match unclaimed_rival(verdict.encoding, &sample) {
            None => Some(verdict),
            Some(rival) => ill_formed.enough_text().then_some(LegacyVerdict {
                support: Support::Unclaimed { rival },
                ..verdict
            }),
        };
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
    let reading = Reading::of(&text);
    // ... and that one value must read as a letter: `\xA0` between words
    // is a no-break space in every Latin encoding, no evidence of one.
    if one_value && reading.in_words == 0 {
        return None;
    }
    if !reading.plausible_words() {
        // Letters of one script, but alone (a table of letters): thin
        // evidence; symbols, or letters scattered over scripts: no reading.
        return if reading.plausible() {
            None
        } else {
            no_reading()
        };
    }

    // Thin evidence: too few different letters to tell one encoding from
    // another (a Latin reading the others dispute, `±Inf` and `±Nan` as
    // ISO-8859-2 `ąInf`; one EUC-JP character repeated, `日`, as windows-1251
    // `Жь`): not named (below), and with less than enough text to say so,
    // a handful of bytes, U001 each with its readings.
    let thin = if LATIN_READINGS.contains(&encoding) {
        thin_latin(encoding, &sample)
    } else {
        different_letters(&text) < MIN_NAMING_LETTERS
    };
    // Running text is judged on the lines that are not UTF-8 already: a
    // mostly legacy file's UTF-8 lines read in the legacy encoding are
    // mojibake (`cafÃ©`), not the legacy text.
    let mut legacy_lines: Vec<u8> = Vec::with_capacity(sample.len());
    for line in sample.split_inclusive(|&b| b == b'\n') {
        if std::str::from_utf8(line).is_err() {
            legacy_lines.extend_from_slice(line);
        }
    }
    let running = if legacy_lines.len() == sample.len() {
        reading.running_text()
    } else {
        Reading::of(&encoding.decode_without_bom_handling(&legacy_lines).0).running_text()
    };
    // A Latin reading whose words have letters of no one language is text
    // in another encoding read in a neighbour's (DOS German `qu\x84lt` is
    // windows-1250 `qu„lt`, Maltese `ħ` in ISO-8859-3 windows-1252 `±`).
    // Nor is a reading that glues letters to words where another reads
    // quotation marks (Italian `«La` as ISO-8859-2 `ŤLa`).
    let of_a_language =
        fits_a_language(encoding, &sample) && !reads_quotes_as_letters(encoding, &sample);
    let cjk_text = by_file != WholeFile::NotItsLanguage;
    let support = if running && of_a_language && cjk_text && !mostly_rare_han(encoding, &sample) {
        // The whole file's characters named it over the detector's guess,
        // which they showed is not its language's text.
        let support = if encoding == guess {
            detector.support(guess, &sample, &text)
        } else {
            Support::Identified
        };
        match support {
            // A byte ISO-8859-15 reads as a letter or `€` and windows-1252
            // as a symbol out of its place: either may be meant.
            Support::Identified
                if encoding == encoding_rs::WINDOWS_1252
                    && latin9_undecided(&text, |letter| {
                        language_of(encoding, &sample)
                            .is_none_or(|(language, _)| alphabet_holds(language, letter))
                    }) =>
            {
                Support::Unidentified {
                    rival: Some(encoding_rs::ISO_8859_15.name()),
                }
            }
            // An encoding outside the claimed families reads the bytes
            // where the two differ as other, as plausible letters.
            Support::Identified if let Some(rival) = unclaimed_rival(encoding, &sample) => {
                Support::Unclaimed { rival }
            }
            support => support,
        }
    } else {
        // Letters, but not text of their script: an encoding the detector
        // does not know, read in a neighbour's (no conversion is offered).
        Support::OtherScript
    };
    let support = match support {
        Support::Identified if thin => match unclaimed_rival(encoding, &sample) {
            Some(rival) => Support::Unclaimed { rival },
            None => Support::Unidentified { rival: None },
        },
        support => support,
    };
    // Saying that the text does not identify its encoding needs enough text
    // that is clearly not UTF-8: fewer, in fewer places, are a handful of
    // impossible bytes, U001 each. A named verdict has the detector's words.
    if support != Support::Identified && !ill_formed.enough_text() {
        return None;
    }
    Some(LegacyVerdict {
        encoding,
        name: family_name(encoding, &sample, &text),
        support,
    })
}

/// A short whole file with fewer than [`MIN_LEGACY_SEQUENCES`] ill-formed
/// sequences, at least this many, is legacy text when every sequence is a
/// single byte, no well-formed UTF-8 character stands among them, and
/// exactly one text among the Latin readings is the text of one language
/// (`bjelogori\xE8na`, `drve\xE6a`, `ju\x9Enoj`: Croatian `č ć ž` in
/// windows-1250, where windows-1252's `è æ ž` are no language's letters).
/// A handful of bytes that several readings explain, or none, or with
/// fewer letters in words than this (`x\xFFy\xFE` is `x’yž` in
/// ISO-8859-13), stay U001.
pub(crate) const MIN_SHORT_TEXT_SEQUENCES: usize = 2;

/// ... and the bytes must stand in at least this many different words
/// (runs of ASCII letters, digits and non-ASCII bytes): one word repeated
/// names no language (an assembler file's `\xB1Inf`, `±Inf` in Latin-1,
/// three times, is ISO-8859-4 `ąInf` and Lithuanian letters to a table of
/// alphabets), and is a handful of bytes, U001 each with its readings.
pub(crate) const MIN_SHORT_TEXT_WORDS: usize = 2;

/// How many different words (runs of ASCII letters, digits and non-ASCII
/// bytes) of `sample` hold a non-ASCII byte, counted up to `most`.
fn non_ascii_words(sample: &[u8], most: usize) -> usize {
    let mut words: Vec<&[u8]> = Vec::new();
    let in_word = |b: &u8| !b.is_ascii() || b.is_ascii_alphanumeric();
    for word in sample.split(|b| !in_word(b)) {
        if words.len() >= most {
            break;
        }
        if !word.is_ascii() && !words.contains(&word) {
            words.push(word);
        }
    }
    words.len()
}

/// The verdict on a short whole file ([`MIN_SHORT_TEXT_SEQUENCES`]).
fn short_text(sample: &[u8], whole: bool, ill_formed: &IllFormed) -> Option<LegacyVerdict> {
    let single_bytes = ill_formed.bytes == ill_formed.count && ill_formed.utf8_like == 0;
    if !whole
        || !single_bytes
        || ill_formed.count < MIN_SHORT_TEXT_SEQUENCES
        || non_ascii_words(sample, MIN_SHORT_TEXT_WORDS) < MIN_SHORT_TEXT_WORDS
        || well_formed_reading(sample).non_ascii > 0
    {
        return None;
    }
    let detector = Detector::read(sample, whole);
    // Too short to say that the text does not identify its encoding: a
    // reading an unclaimed neighbour disputes stays U001.
    by_language(
        &detector,
        detector.guess(),
        sample,
        MIN_SHORT_TEXT_SEQUENCES,
    )
    .filter(|verdict| unclaimed_rival(verdict.encoding, sample).is_none())
}

/// The verdict the Latin readings' languages give ([`latin_readings`] of
/// at least `min_letters` letters in words, chosen among by
/// [`Detector::choose`]), identified.
fn by_language(
    detector: &Detector,
    guess: &'static Encoding,
    sample: &[u8],
    min_letters: usize,
) -> Option<LegacyVerdict> {
    // A text whose letters are glued quotation marks is no text
    // (`reads_quotes_as_letters`).
    let readings: Vec<_> = latin_readings(sample, min_letters)
        .into_iter()
        .map(|(readers, _)| readers)
        .filter(|readers| !readers.iter().any(|&e| reads_quotes_as_letters(e, sample)))
        .collect();
    let encoding = detector.choose(guess, &readings)?;
    // The alphabets overrule the detector's guess only with enough letters
    // (`MIN_NAMING_LETTERS`): a language missing from them (Breton `ñ ù`,
    // which chardetng reads as windows-1252) is no evidence for the one
    // whose letters another reading happens to spell (windows-1257's
    // Polish `ń ł`), nor is one symbol (`±Inf`, ISO-8859-4 `ąInf`).
    if encoding != guess && thin_latin(encoding, sample) {
        return None;
    }
    Some(LegacyVerdict {
        encoding,
        // One of the readings' Latin encodings, whose names need no text
        // (only KOI8's do).
        name: family_name(encoding, sample, ""),
        support: Support::Identified,
    })
}

/// How many different non-ASCII letters `text` has, counted up to
/// [`MIN_NAMING_LETTERS`].
fn different_letters(text: &str) -> usize {
    let mut seen: Vec<char> = Vec::with_capacity(MIN_NAMING_LETTERS);
    for c in text.chars().filter(|c| !c.is_ascii() && c.is_alphabetic()) {
        if seen.len() >= MIN_NAMING_LETTERS {
            break;
        }
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.len()
}

/// Whether `encoding`'s reading of `bytes` (the lines the verdict samples)
/// is text of its script: for a Latin encoding, letters in words or alone,
/// no symbol inside a word and no quotation mark read as a letter
/// (Esperanto `Mesaĝoj` in ISO-8859-3, a table of Spanish vowels `"á"`:
/// text, whether or not its language is among the alphabets); for another,
/// letters of one script in words that are running text. A declaration
/// whose reading is such text is what the file says it is: a detector's
/// other guess does not contradict it (U009). `text` is the sample decoded.
fn reads_as_text(encoding: &'static Encoding, sample: &[u8], text: &str) -> bool {
    if let Some(letters) = reads_as_letters(encoding, sample) {
        return letters && !reads_quotes_as_letters(encoding, sample);
    }
    let reading = Reading::of(text);
    reading.plausible_words() && reading.running_text()
}

/// A declared encoding's reading of a file: whether it is text of its
/// script, on the lines the verdict samples ([`reads_as_text`]), and the
/// name it goes by: its family's where one decoder reads the labels of
/// several ("ISO-8859-1 or windows-1252", "GBK or GB18030"), as a verdict
/// of that encoding names it; a declared KOI8-R or KOI8-U is the one the
/// declaration names (each label has its own decoder).
pub(crate) struct DeclaredReading {
    pub(crate) is_text: bool,
    pub(crate) name: &'static str,
}

impl DeclaredReading {
    pub(crate) fn of(encoding: &'static Encoding, bytes: &[u8]) -> DeclaredReading {
        let (sample, _) = non_ascii_lines(bytes);
        let text = encoding.decode_without_bom_handling(&sample).0;
        let name = if encoding == encoding_rs::KOI8_R || encoding == encoding_rs::KOI8_U {
            encoding.name()
        } else {
            family_name(encoding, &sample, &text)
        };
        DeclaredReading {
            is_text: reads_as_text(encoding, &sample, &text),
            name,
        }
    }
}

/// What the ill-formed sequences of a file the verdict left to U001 are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StrayBytes {
    /// A handful of impossible bytes in text (too few, in too few places,
    /// to be text in another encoding: [`IllFormed::enough_text`]): U001
    /// notes the reading every Latin encoding agrees on, or their readings,
    /// and offers U+FFFD.
    Handful,
    /// Text in lines of words that no reading identified
    /// ([`IllFormed::unexplained_text`]: Johab, a DOS code page, JIS X
    /// 0213 read as none of the claimed encodings): U+FFFD over it would
    /// destroy the text, so U001 offers no fix (the file's fix is a
    /// conversion from its real encoding, or nothing).
    Text,
    /// Binary data, or many defects that are not lines of words: U+FFFD.
    Other,
}

/// [`StrayBytes`] for `bytes`, from the lines the verdict samples.
pub(crate) fn stray_bytes(bytes: &[u8]) -> StrayBytes {
    if binary_signature(bytes).is_some()
        || control_percent(&bytes[..bytes.len().min(BINARY_SNIFF_BYTES)])
            >= MIN_BINARY_CONTROL_PERCENT
    {
        return StrayBytes::Other;
    }
    let sample = non_ascii_lines(bytes).0;
    let ill_formed = IllFormed::of(&sample);
    if !ill_formed.enough_text() {
        StrayBytes::Handful
    } else if ill_formed.unexplained_text(&sample) {
        StrayBytes::Text
    } else {
        StrayBytes::Other
    }
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
    /// How many are RFC 2279 forms.
    rfc_2279: usize,
    /// In how many places (stretches of non-ASCII bytes between ASCII
    /// ones) the sequences that are not RFC 2279 forms stand.
    places: usize,
    /// Whether the sample has an ASCII letter: text around the sequences.
    beside_letters: bool,
}

impl IllFormed {
    fn of(sample: &[u8]) -> IllFormed {
        let mut found = IllFormed {
            count: 0,
            bytes: 0,
            utf8_like: 0,
            rfc_2279: 0,
            places: 0,
            beside_letters: sample.iter().any(u8::is_ascii_alphabetic),
        };
        // The end of the last RFC 2279 form: its continuation bytes are
        // subparts of their own, but one sequence of a broken encoder
        // (`\xF8\x88\x80\x80\x80` is one, not five).
        let mut form_end = 0;
        // The end of the last sequence counted towards a place: a new place
        // starts when an ASCII byte stands between it and the next.
        let mut place_end = None;
        utf8lint_codec::for_each_subpart(sample, |sub| {
            found.bytes += usize::from(sub.len);
            if sub.offset < form_end {
                return;
            }
            found.count += 1;
            let reading = utf8lint_codec::interpret(&sample[sub.offset..]);
            if let Some(utf8lint_codec::Interpretation::Rfc2279 { len, .. }) = reading {
                form_end = sub.offset + usize::from(len);
                found.rfc_2279 += 1;
            } else {
                let new_place = place_end
                    .is_none_or(|end: usize| sample[end..sub.offset].iter().any(u8::is_ascii));
                found.places += usize::from(new_place);
                place_end = Some(sub.offset + usize::from(sub.len));
            }
            found.utf8_like += usize::from(reading.is_some());
        });
        found
    }

    /// Whether the sequences are enough text that is clearly not UTF-8
    /// ([`MIN_LEGACY_SEQUENCES`] in [`MIN_LEGACY_PLACES`], or
    /// [`MIN_SEQUENCES_IN_FEW_PLACES`] in two places or beside an ASCII
    /// letter), RFC 2279 forms left out.
    fn enough_text(&self) -> bool {
        let text = self.count - self.rfc_2279;
        text >= MIN_LEGACY_SEQUENCES
            && (self.places >= MIN_LEGACY_PLACES
                || text >= MIN_SEQUENCES_IN_FEW_PLACES && (self.places > 1 || self.beside_letters))
    }

    /// Whether the sequences are many ([`MIN_UNEXPLAINED_SEQUENCES`]), in
    /// [`MIN_UNEXPLAINED_WORDS`] different stretches, in lines of words
    /// ([`MIN_TEXT_WHITESPACE_PERCENT`] of the `sample`'s bytes are ASCII
    /// spaces, tabs and line breaks): text that no reading explains, not
    /// data.
    fn unexplained_text(&self, sample: &[u8]) -> bool {
        let whitespace = sample
            .iter()
            .filter(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
        // Distinct stretches of non-ASCII bytes: words, not one table row
        // repeated (vim's character-class tests list the same bytes on
        // every line).
        let mut words: Vec<&[u8]> = Vec::new();
        for word in sample.split(u8::is_ascii).filter(|w| !w.is_empty()) {
            if words.len() >= MIN_UNEXPLAINED_WORDS {
                break;
            }
            if !words.contains(&word) {
                words.push(word);
            }
        }
        self.count - self.rfc_2279 >= MIN_UNEXPLAINED_SEQUENCES
            && self.enough_text()
            && words.len() >= MIN_UNEXPLAINED_WORDS
            && whitespace * 100 >= MIN_TEXT_WHITESPACE_PERCENT * sample.len()
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

/// Whether the first [`LEGACY_SCAN_BYTES`] of `bytes` hold more than one
/// well-formed multi-byte character per [`MAX_UTF8_PER_ERROR`] ill-formed
/// sequences, wherever they stand: UTF-8 with defects, whatever share the
/// sample (its first lines with non-ASCII bytes) shows. Markus Kuhn's
/// decoder stress test has 80 such characters and 378 sequences, the
/// first 4 KiB of its lines with non-ASCII bytes about 14 and 250.
fn utf8_text_in(bytes: &[u8]) -> bool {
    let scan = &bytes[..bytes.len().min(LEGACY_SCAN_BYTES)];
    let (mut characters, mut errors) = (0usize, 0usize);
    for chunk in Utf8Chunks::new(scan) {
        characters += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        errors += usize::from(!chunk.invalid().is_empty());
    }
    characters * MAX_UTF8_PER_ERROR > errors
}

/// Whether at least half of the non-ASCII bytes of `sample` have an ASCII
/// letter right before or after them: letters in words, not padding.
fn one_letter_in_words(sample: &[u8]) -> bool {
    let (mut all, mut in_words) = (0usize, 0usize);
    for (i, &b) in sample.iter().enumerate() {
        if !b.is_ascii() {
            all += 1;
            let letter = |j: Option<usize>| {
                j.and_then(|j| sample.get(j))
                    .is_some_and(u8::is_ascii_alphabetic)
            };
            in_words += usize::from(letter(i.checked_sub(1)) || letter(Some(i + 1)));
        }
    }
    in_words * 2 >= all
}

/// The well-formed multi-byte characters of `sample`, as text, but those
/// that stand alone between two ill-formed bytes: a pair of a multi-byte
/// legacy encoding that forms UTF-8 by accident (Big5 `A4 A4 A4 E5` after
/// `C5 E9` holds `E9 A4 A4`, UTF-8 `餤`), no text of its own.
fn well_formed_reading(sample: &[u8]) -> Reading {
    let mut reading = Reading::default();
    let mut after_error = false;
    // std's chunks: the same as the codec's (its tests hold it to them),
    // and cheaper where nearly every byte ends one, as in legacy text.
    for chunk in sample.utf8_chunks() {
        let valid = chunk.valid();
        let mut chars = valid.chars();
        let alone = after_error
            && !chunk.invalid().is_empty()
            && chars.next().is_some_and(|c| !c.is_ascii())
            && chars.next().is_none();
        if !alone {
            for c in valid.chars() {
                reading.add(c);
            }
        }
        after_error = !chunk.invalid().is_empty();
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

/// True when a windows-1252 reading has the symbols ISO-8859-15 replaced
/// by its own letters where text has those letters: `½` for `œ` (`¨` for
/// `š`, ...) between two letters (`c½ur`) or starting a word (`½uvre`,
/// `¼uvre`), or `¤` for `€` beside a number (`5 ¤`, `¤10`). The text is
/// then ISO-8859-15, which chardetng does not guess.
fn iso_8859_15_letters(text: &str) -> bool {
    // None of the eight characters (`C2 A4` to `C2 BE` in UTF-8), none of
    // the letters: most text is passed over without reading its characters.
    let eight = |pair: &[u8]| {
        pair[0] == 0xC2
            && matches!(
                pair[1],
                0xA4 | 0xA6 | 0xA8 | 0xB4 | 0xB8 | 0xBC | 0xBD | 0xBE
            )
    };
    if !text.as_bytes().windows(2).any(eight) {
        return false;
    }
    let chars: Vec<char> = text.chars().collect();
    // Letters of words, not `µ` or `º` in a table of symbols.
    let word_letter = |c: char| {
        c.is_ascii_alphabetic() || (c.is_alphabetic() && ('\u{C0}'..='\u{FF}').contains(&c))
    };
    let at = |i: usize| chars.get(i).copied().unwrap_or(' ');
    (0..chars.len()).any(|i| {
        let (before, c, after) = (i.checked_sub(1).map_or(' ', at), chars[i], at(i + 1));
        let between_letters = matches!(c, '¤' | '¦' | '¨' | '´' | '¸' | '¼' | '½' | '¾')
            && word_letter(before)
            && word_letter(after);
        // `1½ cup` is a fraction: only a word's first letter counts.
        let starts_word = matches!(c, '¦' | '¨' | '¼' | '½' | '¾')
            && !before.is_alphanumeric()
            && after.is_lowercase()
            && word_letter(after);
        let digit_near = |j: Option<usize>, k: Option<usize>| {
            j.map(at).is_some_and(|c| c.is_ascii_digit())
                || j.map(at) == Some(' ') && k.map(at).is_some_and(|c| c.is_ascii_digit())
        };
        let euro = c == '¤'
            && (digit_near(i.checked_sub(1), i.checked_sub(2))
                || digit_near(Some(i + 1), Some(i + 2)));
        between_letters || starts_word || euro
    })
}

/// True when a windows-1252 reading has a character of the eight bytes
/// where ISO-8859-15 differs (`¤ ¦ ¨ ´ ¸ ¼ ½ ¾`, there `€ Š š Ž ž Œ œ Ÿ`)
/// that is not a windows-1252 symbol in its place: a fraction after a
/// digit (`1½`, `2 ¾`), `´` beside a letter or another `´` (an apostrophe,
/// a quote: `don´t`, `lá´´`). Danish `eurotegnet (¤)` is `(€)`; nothing
/// says which encoding is meant, so neither is named. A letter ISO-8859-15
/// would read there that the text's language does not write (`fits`
/// false: French `¨Symbole` as `šSymbole`, Danish `trema (¨)` as `(š)`) is
/// no evidence for it: the symbol stays windows-1252's.
fn latin9_undecided(text: &str, fits: impl Fn(char) -> bool) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: Option<usize>| i.and_then(|i| chars.get(i)).copied().unwrap_or(' ');
    (0..chars.len()).any(|i| {
        let (before, after) = (at(i.checked_sub(1)), at(Some(i + 1)));
        let digit_before =
            before.is_ascii_digit() || before == ' ' && at(i.checked_sub(2)).is_ascii_digit();
        let out_of_place = match chars[i] {
            '¼' | '½' | '¾' => !digit_before,
            '´' => {
                !(before.is_alphabetic() || after.is_alphabetic() || before == '´' || after == '´')
            }
            '¤' | '¦' | '¨' | '¸' => true,
            _ => false,
        };
        out_of_place && (chars[i] == '¤' || latin9_letter(chars[i]).is_some_and(&fits))
    })
}

/// The letter ISO-8859-15 has at the byte of windows-1252's `c`, one of
/// the seven it changed from symbols to letters.
fn latin9_letter(c: char) -> Option<char> {
    Some(match c {
        '¦' => 'Š',
        '¨' => 'š',
        '´' => 'Ž',
        '¸' => 'ž',
        '¼' => 'Œ',
        '½' => 'œ',
        '¾' => 'Ÿ',
        _ => return None,
    })
}

/// At most this share (percent) of a CJK reading's Han characters may be
/// of the rare level of the encoding's character set (GB2312's level 2,
/// Big5's less frequent characters, JIS X 0208's level 2, the hanja of
/// KS X 1001, GBK's and UHC's extensions): everyday text draws nearly all
/// of its characters from the frequent level, while text in another CJK
/// encoding (EUC-TW read as GBK) scatters over both.
pub(crate) const MAX_RARE_HAN_PERCENT: usize = 30;

/// Whether a CJK reading of `sample` is mostly rare characters
/// ([`MAX_RARE_HAN_PERCENT`]), over at least 20 Han characters, told by
/// their lead bytes.
fn mostly_rare_han(encoding: &'static Encoding, sample: &[u8]) -> bool {
    use encoding_rs::{BIG5, EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS};
    type Levels = fn(u8, u8) -> Option<bool>;
    // For a lead and trail byte: Some(true) rare, Some(false) frequent,
    // None for kana, hangul-free symbols and single bytes.
    let levels: Levels = if encoding == GBK || encoding == GB18030 {
        |lead, trail| match (lead, trail) {
            (0xB0..=0xD7, 0xA1..=0xFE) => Some(false),
            (0xD8..=0xF7, 0xA1..=0xFE) => Some(true),
            (0x81..=0xFE, 0x40..=0xFE) => Some(true),
            _ => None,
        }
    } else if encoding == BIG5 {
        |lead, _| match lead {
            0xA4..=0xC6 => Some(false),
            0xC9..=0xF9 => Some(true),
            _ => None,
        }
    } else if encoding == SHIFT_JIS {
        |lead, _| match lead {
            0x88..=0x98 => Some(false),
            0x99..=0x9F | 0xE0..=0xEA => Some(true),
            _ => None,
        }
    } else if encoding == EUC_JP {
        |lead, _| match lead {
            0xB0..=0xCF => Some(false),
            0xD0..=0xF4 => Some(true),
            _ => None,
        }
    } else if encoding == EUC_KR {
        |lead, trail| match (lead, trail) {
            (0xB0..=0xC8, 0xA1..=0xFE) => Some(false),
            (0xCA..=0xFD, 0xA1..=0xFE) => Some(true),
            (0x81..=0xC6, 0x41..=0xA0) => Some(true),
            _ => None,
        }
    } else {
        return false;
    };
    let (mut frequent, mut rare) = (0usize, 0usize);
    let mut i = 0;
    while i + 1 < sample.len() {
        let (lead, trail) = (sample[i], sample[i + 1]);
        if lead < 0x80 {
            i += 1;
            continue;
        }
        match levels(lead, trail) {
            Some(true) => rare += 1,
            Some(false) => frequent += 1,
            None => {}
        }
        // EUC-JP's three-byte forms start with 0x8F: their first two bytes
        // count as one rare character, the third starts over.
        i += 2;
    }
    let han = frequent + rare;
    han >= 20 && rare * 100 > MAX_RARE_HAN_PERCENT * han
}

/// A Japanese reading (EUC-JP, Shift_JIS) needs at least this share
/// (percent) of its double-byte characters to be kana: Japanese writes its
/// grammar in them (34% and more in every Japanese file of chardet's
/// corpus), while Korean and Chinese text read as Japanese has almost none
/// (at most 1%: KS X 1001 and GB2312 hold kana at the rows JIS X 0208 does,
/// and Korean uses that row only for jamo).
pub(crate) const MIN_KANA_PERCENT: usize = 10;

/// A Korean reading (EUC-KR) needs at least this share (percent) of its
/// EUC pairs in the rows of KS X 1001's Hangul syllables (lead bytes `B0`
/// to `C8`): Korean text has 91% and more there in chardet's corpus, while
/// Chinese has at most 58% (GB2312, the same rows of its level 1), Big5
/// 63% and Japanese 29%.
pub(crate) const MIN_HANGUL_PERCENT: usize = 80;

/// The whole file's counts are asked only over at least this many
/// double-byte characters; fewer are left to the detector.
const MIN_CJK_CHARACTERS: usize = 20;

/// What the whole file says of a CJK guess ([`cjk_by_the_whole_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WholeFile {
    /// The guess reads the file as its language's text, or is not CJK, or
    /// the file has too few double-byte characters to tell.
    Agrees,
    /// Another encoding does (Korean read as EUC-JP: EUC-KR).
    Reads(&'static Encoding),
    /// The guess is not its language's text, and no other encoding's is.
    NotItsLanguage,
}

/// Whether the characters of the whole file `scan` (its first
/// `LEGACY_SCAN_BYTES`) are those of the language of `guess`, told by
/// what each language's text is mostly made of: kana for Japanese
/// ([`MIN_KANA_PERCENT`]), Hangul syllables for Korean
/// ([`MIN_HANGUL_PERCENT`]). EUC-JP, EUC-KR and GBK share one byte
/// structure (pairs of `A1`-`FE`), so a guess among them that fails is
/// replaced by the one whose language the file is when one is; Chinese
/// (GBK, Big5) is told by neither and keeps the detector's word.
fn cjk_by_the_whole_file(guess: &'static Encoding, scan: &[u8]) -> WholeFile {
    use encoding_rs::{EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS};
    let euc = guess == EUC_JP || guess == EUC_KR || guess == GBK || guess == GB18030;
    if !euc && guess != SHIFT_JIS {
        return WholeFile::Agrees;
    }
    let (mut pairs, mut kana, mut hangul) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i + 1 < scan.len() {
        let (lead, trail) = (scan[i], scan[i + 1]);
        if lead < 0x80 {
            i += 1;
            continue;
        }
        if guess == SHIFT_JIS {
            pairs += 1;
            kana += usize::from(
                lead == 0x82 && (0x9F..=0xF1).contains(&trail)
                    || lead == 0x83 && (0x40..=0x96).contains(&trail),
            );
        } else if composed_syllable(&scan[i..]) {
            // KS X 1001's composition of a syllable from its jamo: the
            // filler `A4D4` and three jamo, one Hangul syllable (in EUC-JP,
            // four kana that form no word: `ぴざちぇ`).
            pairs += 1;
            hangul += 1;
            i += 8;
            continue;
        } else if (0xA1..=0xFE).contains(&lead) && (0xA1..=0xFE).contains(&trail) {
            pairs += 1;
            kana += usize::from(lead == 0xA4 || lead == 0xA5);
            hangul += usize::from((0xB0..=0xC8).contains(&lead));
        }
        i += 2;
    }
    if pairs < MIN_CJK_CHARACTERS {
        return WholeFile::Agrees;
    }
    let japanese = kana * 100 >= MIN_KANA_PERCENT * pairs;
    let korean = hangul * 100 >= MIN_HANGUL_PERCENT * pairs;
    let decodes = |e: &'static Encoding| {
        e.decode_without_bom_handling_and_without_replacement(scan)
            .is_some()
    };
    let its_language = if guess == EUC_KR {
        korean
    } else if guess == EUC_JP || guess == SHIFT_JIS {
        japanese
    } else {
        // Chinese: not Korean, not Japanese.
        !korean && !japanese
    };
    if its_language {
        return WholeFile::Agrees;
    }
    if !euc {
        return WholeFile::NotItsLanguage;
    }
    if korean && !japanese && decodes(EUC_KR) {
        WholeFile::Reads(EUC_KR)
    } else if japanese && !korean && decodes(EUC_JP) {
        WholeFile::Reads(EUC_JP)
    } else {
        WholeFile::NotItsLanguage
    }
}

/// Whether `bytes` start with a KS X 1001 composed syllable: the Hangul
/// filler `A4 D4`, then an initial, a medial and a final jamo (`A4 A1` to
/// `A4 D3`; the filler again for no final).
fn composed_syllable(bytes: &[u8]) -> bool {
    let jamo = |at: usize, filler: bool| {
        bytes[at] == 0xA4
            && ((0xA1..=0xD3).contains(&bytes[at + 1]) || filler && bytes[at + 1] == 0xD4)
    };
    bytes.len() >= 8
        && bytes[..2] == [0xA4, 0xD4]
        && jamo(2, true)
        && jamo(4, true)
        && jamo(6, true)
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
    fn the_rare_han_share_is_pinned_from_both_sides() {
        assert_eq!(MAX_RARE_HAN_PERCENT, 30);
        // GBK: `B0 A1` is level 1 (frequent), `D8 A1` level 2 (rare).
        let gbk = |rare: usize, frequent: usize| {
            let mut b = b"\xD8\xA1".repeat(rare);
            b.extend(b"\xB0\xA1".repeat(frequent));
            b
        };
        assert!(!mostly_rare_han(encoding_rs::GBK, &gbk(30, 70)));
        assert!(mostly_rare_han(encoding_rs::GBK, &gbk(31, 69)));
        // Fewer than 20 Han characters are not judged.
        assert!(!mostly_rare_han(encoding_rs::GBK, &gbk(19, 0)));
        assert!(mostly_rare_han(encoding_rs::GBK, &gbk(20, 0)));
        // Single-byte encodings have no levels.
        assert!(!mostly_rare_han(encoding_rs::WINDOWS_1252, &gbk(20, 0)));
    }

    #[test]
    fn the_whole_files_kana_and_hangul_are_pinned_from_both_sides() {
        use encoding_rs::{EUC_JP, EUC_KR, GBK};
        assert_eq!((MIN_KANA_PERCENT, MIN_HANGUL_PERCENT), (10, 80));
        // `A4 A2` is hiragana `あ` (jamo `ㄲ` in KS X 1001), `B0 A1` a
        // Hangul syllable (a level-1 kanji in JIS X 0208), `D0 A1` neither.
        let file = |kana: usize, hangul: usize, other: usize| {
            let mut b = b"\xA4\xA2 ".repeat(kana);
            b.extend(b"\xB0\xA1 ".repeat(hangul));
            b.extend(b"\xD0\xA1 ".repeat(other));
            b
        };
        // Korean with a few kana-row pairs, guessed Japanese: Korean.
        let whole = cjk_by_the_whole_file;
        assert_eq!(whole(EUC_JP, &file(9, 91, 0)), WholeFile::Reads(EUC_KR));
        assert_eq!(whole(GBK, &file(9, 91, 0)), WholeFile::Reads(EUC_KR));
        assert_eq!(whole(EUC_JP, &file(10, 90, 0)), WholeFile::Agrees);
        // Korean needs 80% in the Hangul rows.
        assert_eq!(whole(EUC_KR, &file(0, 80, 20)), WholeFile::Agrees);
        assert_eq!(whole(EUC_KR, &file(0, 79, 21)), WholeFile::NotItsLanguage);
        // Japanese read as Korean: Japanese.
        assert_eq!(whole(EUC_KR, &file(40, 30, 30)), WholeFile::Reads(EUC_JP));
        // A composed syllable (`A4 D4` and three jamo) is one Hangul
        // syllable, no kana: Korean with a line of them stays Korean.
        let mut composed = b"\xA4\xD4\xA4\xB6\xA4\xC1\xA4\xD4 ".repeat(30);
        composed.extend(file(0, 60, 0));
        assert_eq!(whole(EUC_JP, &composed), WholeFile::Reads(EUC_KR));
        assert_eq!(whole(EUC_KR, &composed), WholeFile::Agrees);
        // Fewer than 20 characters are left to the detector.
        assert_eq!(whole(EUC_JP, &file(0, 19, 0)), WholeFile::Agrees);
        assert_eq!(
            whole(encoding_rs::WINDOWS_1252, &file(0, 99, 0)),
            WholeFile::Agrees
        );
    }

    #[test]
    fn latin9_letters_are_told_in_their_places() {
        for text in ["c½ur", "½uvre", "¼uvre", "ma¨ina", "5 ¤", "¤10", "prix: 3¤"] {
            assert!(iso_8859_15_letters(text), "{text}");
        }
        for text in ["1½ cup", "½", "a ¤ b", "plain café", "µ º", ""] {
            assert!(!iso_8859_15_letters(text), "{text}");
        }
    }

    #[test]
    fn latin9_symbols_out_of_place_leave_the_encoding_open() {
        for text in ["eurotegnet (¤)", "c¨ur", "¸e", "Œuvre ¦"] {
            assert!(latin9_undecided(text, |_| true), "{text}");
        }
        for text in ["1½ tasse", "2 ¾ cup", "don´t", "lá´´", "plain café"] {
            assert!(!latin9_undecided(text, |_| true), "{text}");
        }
        // A letter foreign to the text's language is no evidence.
        for text in ["¨Symbole", "trema (¨)"] {
            assert!(!latin9_undecided(text, |c| c != 'š'), "{text}");
        }
    }

    #[test]
    fn an_rfc_2279_form_is_one_sequence() {
        let found = IllFormed::of(b"x \xF8\x88\x80\x80\x80 y");
        assert_eq!((found.count, found.bytes, found.utf8_like), (1, 5, 1));
        assert_eq!((found.rfc_2279, found.places), (1, 0));
    }

    #[test]
    fn enough_text_is_pinned_from_both_sides() {
        assert_eq!(
            (
                MIN_LEGACY_SEQUENCES,
                MIN_LEGACY_PLACES,
                MIN_SEQUENCES_IN_FEW_PLACES
            ),
            (4, 3, 8)
        );
        let enough = |b: &[u8]| IllFormed::of(b).enough_text();
        // Four sequences in three places are enough; three are not.
        assert!(enough(b"caf\xE9 cr\xE8me br\xFBl\xE9e"));
        assert!(!enough(b"caf\xE9 cr\xE8me br\xFBle"));
        // Four sequences in two places are not; eight are.
        assert!(!enough(b"\xEF\xF0 \xE8\xE2"));
        assert!(!enough(b"abc \xFF\xFE\xFD\xFC def"));
        assert!(!enough(b"\xEF\xF0\xE8\xE2 \xE5\xF2\xEC"));
        assert!(enough(b"\xEF\xF0\xE8\xE2 \xE5\xF2\xEC\xE8"));
        // ... in two places or beside text: eight stray bytes in one
        // place, alone, are not; with a word around them they are.
        assert!(!enough(b"\x80\x81\x82\x83\x84\x85\x86\x87"));
        assert!(!enough(b"\x80\x81\x82\x83\x84\x85\x86\x87 \n"));
        assert!(enough(b"\x80\x81\x82\x83\x84\x85\x86\x87 x\n"));
        // Three places need no letter.
        assert!(enough(b"\xEF\xF0 \xE8\xE2 \xE5\xF2"));
        // A well-formed character between two ill-formed bytes does not
        // part them: one place.
        assert_eq!(IllFormed::of(b"\xE9\xC3\xA9\xE8 \xFC").places, 2);
        // RFC 2279 forms are no text: three letters beside one are short.
        assert!(!enough(b"x \xF8\x88\x80\x80\x80 caf\xE9 cr\xE8me br\xFBle"));
        assert!(enough(
            b"x \xF8\x88\x80\x80\x80 caf\xE9 cr\xE8me br\xFBl\xE9e"
        ));
    }

    #[test]
    fn short_text_is_pinned_from_both_sides() {
        assert_eq!(MIN_SHORT_TEXT_SEQUENCES, 2);
        let short = |b: &[u8]| short_text(b, true, &IllFormed::of(b)).map(|v| v.encoding);
        // Lithuanian `ū ų` in ISO-8859-13 (windows-1257 reads it alike),
        // where the detector guesses windows-1257 too: two letters are a
        // verdict, one is not.
        let two = b"Prancuzija ir Prancu\xFBzija, oland\xF8 kalba\n";
        let one = b"Prancuzija ir Prancu\xFBzija, olandu kalba\n";
        assert_eq!(short(two), Some(encoding_rs::WINDOWS_1257));
        assert_eq!(short(one), None);
        // Breton `ñ ù`, which the detector reads as windows-1252 and
        // windows-1257 as Polish `ń ł`: two letters do not overrule the
        // detector (`MIN_NAMING_LETTERS`), three do (Croatian above).
        assert_eq!(MIN_NAMING_LETTERS, 3);
        let breton = b"Emzivad anezha\xf1, ema\xf1 Harry Potter o chom e ti e eontr, pa'z eo pedet da vont da Gerambreo\xf9, ar Skol.\n";
        assert_eq!(short(breton), None);
        // Croatian `č ć ž` in windows-1250: windows-1252 reads `è æ ž`.
        let croatian = b"bjelogori\xE8na stabla, drve\xE6a u ju\x9Enoj Hrvatskoj\n";
        assert_eq!(short(croatian), Some(encoding_rs::WINDOWS_1250));
        // Not the whole file, or two bytes that are one letter and a quote.
        assert_eq!(short_text(croatian, false, &IllFormed::of(croatian)), None);
        assert_eq!(short(b"x\xFFy\xFE\n"), None);
        // Two different words are a verdict; one word repeated is not.
        assert_eq!(MIN_SHORT_TEXT_WORDS, 2);
        let repeated = b"Prancu\xFBzija ir Prancu\xFBzija, olandu kalba\n";
        assert_eq!(short(repeated), None);
        let asm = b"# returns \xB1Inf on overflow\n# and \xB1Inf when x is \xB1Inf\n\tret\n";
        assert_eq!(short(asm), None);
        // Two different words of one letter (`±Inf`, `±Nan`: ISO-8859-4
        // `ąInf`, `ąNan`) are one letter, too few.
        assert_eq!(short(b"; \xB1Inf and \xB1Nan\n"), None);
    }

    #[test]
    fn utf8_text_further_on_keeps_a_file_from_no_reading() {
        // Lines of words with sixteen different stray bytes, the sample's
        // whole 4 KiB of them: an encoding no reading identifies ...
        let mut bytes = Vec::new();
        while bytes.len() < 5000 {
            for i in 0..16u8 {
                bytes.extend_from_slice(&[b'w', 0x81 + i, b'a', b' ']);
            }
            bytes.push(b'\n');
        }
        let errors = bytes.iter().filter(|&&b| b >= 0x80).count();
        let verdict = |bytes: &[u8]| {
            let first = utf8_codec_first(bytes);
            legacy_verdict(bytes, errors, &first).map(|v| v.support)
        };
        assert_eq!(verdict(&bytes), Some(Support::NoReading));
        // ... unless well-formed characters after the sample are more
        // than one per eight of those errors: UTF-8 with defects, each
        // sequence U001's.
        let mut with_text = bytes.clone();
        for _ in 0..=errors / MAX_UTF8_PER_ERROR {
            with_text.extend_from_slice("é ".as_bytes());
        }
        assert!(utf8_text_in(&with_text) && !utf8_text_in(&bytes));
        assert_eq!(verdict(&with_text), None);
    }

    /// The first ill-formed sequences of `bytes`, as the verdict's caller
    /// hands them on.
    fn utf8_codec_first(bytes: &[u8]) -> Vec<Subpart> {
        utf8lint_codec::subparts(bytes).take(6).collect()
    }

    #[test]
    fn unexplained_text_is_pinned_from_both_sides() {
        assert_eq!(
            (
                MIN_UNEXPLAINED_SEQUENCES,
                MIN_UNEXPLAINED_WORDS,
                MIN_TEXT_WHITESPACE_PERCENT
            ),
            (16, 8, 5)
        );
        // Sixteen sequences in words (`\x81a`, three bytes, and a space
        // every fourth word: 1 in 16 bytes, 6%); fifteen are too few.
        // Each word a different byte.
        let words = |n: usize, space_every: usize| -> Vec<u8> {
            (0..n)
                .flat_map(|i| {
                    let sep: &[u8] = if i % space_every == 0 { b" " } else { b"b" };
                    [&[0x81 + i as u8, b'a'][..], sep].concat()
                })
                .collect()
        };
        let unexplained = |b: &[u8]| IllFormed::of(b).unexplained_text(b);
        assert!(unexplained(&words(16, 1)));
        assert!(!unexplained(&words(15, 1)));
        // 420 bytes, 84 sequences: a space in every 20 bytes (5%), or 21.
        let spaced = |every: usize| -> Vec<u8> {
            let mut b = Vec::new();
            for i in 0..420 {
                b.push(if i % every == 0 {
                    b' '
                } else if i % 5 == 1 {
                    0x80 + (i / 5 % 64) as u8
                } else {
                    b'x'
                });
            }
            b
        };
        assert!(unexplained(&spaced(20)));
        assert!(!unexplained(&spaced(21)));
        // Sixteen sequences in eight different words, or in seven.
        let cycling = |kinds: u8| -> Vec<u8> {
            (0..16u8)
                .flat_map(|i| [0x81 + i % kinds, b'a', b' '])
                .collect()
        };
        assert!(unexplained(&cycling(8)));
        assert!(!unexplained(&cycling(7)));
    }

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
