//! The letters of the Latin-script languages the legacy 8-bit encodings
//! serve, and which reading of a sample they explain: a reading is text
//! only if its non-ASCII letters are the alphabet of one language (Estonian
//! `õ ä ö ü š ž`, Turkish `ç ğ ı ö ş ü`; a reading with both `õ` and `ğ`
//! is no language).

use encoding_rs::Encoding;

/// The small letters beyond ASCII of each language, from the main
/// exemplar characters of the Unicode CLDR (`common/main/LANG.xml`,
/// `exemplarCharacters`), where a language writes some of its letters the
/// way legacy encodings could: Romanian `ş ţ` with a cedilla beside CLDR's
/// comma-below `ș ț` (ISO-8859-2 and windows-1250 have only the former),
/// Turkish with CLDR's auxiliary `â î û` (written in loan words: `kâğıt`),
/// French without `æ` and `ÿ` (Latin loan words and a few names: `ex
/// æquo`, `L'Haÿ`; windows-1252 reads IBM852 Slovene `Š` and `č` as them),
/// Catalan with the `·` of `l·l`, Vietnamese with the five tone marks that
/// windows-1258 writes as combining characters. Languages the encodings
/// below do not write (Maltese, Esperanto, Welsh) are not listed: a reading
/// in their letters is no text of these encodings.
const ALPHABETS: [(&str, &str); 30] = [
    ("French", "àâçéèêëîïôœùûü"),
    ("German", "äöüß"),
    ("Spanish", "áéíñóúü"),
    ("Portuguese", "áàâãçéêíóôõú"),
    ("Italian", "àèéìòóù"),
    ("Catalan", "àçèéíïòóúü·"),
    ("Dutch", "áäéëíïóöúü"),
    ("Danish", "åæø"),
    ("Norwegian", "àéóòôåæø"),
    ("Swedish", "àéåäö"),
    ("Finnish", "šžåäö"),
    ("Icelandic", "áæéíðóöúýþ"),
    ("Faroese", "áæðíóøúý"),
    ("Irish", "áéíóú"),
    ("Basque", "çñ"),
    ("Galician", "áéíñóúü"),
    ("Albanian", "çë"),
    ("Estonian", "äöõüšž"),
    ("Czech", "áčďéěíňóřšťúůýž"),
    ("Slovak", "áäčďéíĺľňóôŕšťúýž"),
    ("Polish", "ąćęłńóśźż"),
    ("Hungarian", "áéíóöőúüű"),
    ("Slovene", "čšž"),
    ("Croatian, Bosnian, Serbian", "čćđšž"),
    ("Romanian", "ăâîșțşţ"),
    ("Latvian", "āčēģīķļņšūž"),
    ("Lithuanian", "ąčęėįšųūž"),
    ("Turkish", "çğıöşüâîû"),
    ("Kurdish", "çêîşû"),
    // windows-1258 writes the tones as combining marks after the letter.
    (
        "Vietnamese",
        "àáâãèéêìíòóôõùúýăđĩũơư\u{300}\u{301}\u{303}\u{309}\u{323}",
    ),
];

/// The Latin encodings whose readings of a sample are weighed against each
/// other by their letters: the detector's Latin candidates, and
/// ISO-8859-15 and ISO-8859-16, which it does not guess but which read the
/// same bytes as other letters (`š` against `¨`, Romanian `ș` against
/// `ş`), as do ISO-8859-10 and ISO-8859-3 (Nordic and Baltic, Turkish and
/// Maltese letters). Encodings that read a sample as the same text are one
/// reading.
pub(crate) const LATIN_READINGS: [&Encoding; 12] = [
    encoding_rs::WINDOWS_1252,
    encoding_rs::ISO_8859_15,
    encoding_rs::WINDOWS_1250,
    encoding_rs::ISO_8859_2,
    encoding_rs::WINDOWS_1257,
    encoding_rs::ISO_8859_13,
    encoding_rs::ISO_8859_4,
    encoding_rs::WINDOWS_1254,
    encoding_rs::WINDOWS_1258,
    encoding_rs::ISO_8859_16,
    encoding_rs::ISO_8859_10,
    encoding_rs::ISO_8859_3,
];

/// At most this share (percent) of a reading's non-ASCII letters may be
/// outside the language's alphabet (names, loan words): at most 1 in 34,
/// so none in a short text. Measured on chardet's corpus: real text in
/// its own encoding has at most 1% (Czech, Polish, Hungarian, French,
/// German pages); a reading in a wrong encoding at least 6.5% (`kaţnomo`,
/// `doťuda`: letters of languages that exclude each other).
pub(crate) const MAX_FOREIGN_PERCENT: usize = 3;

/// The characters of `text` that must be letters of its language: the
/// non-ASCII characters of its words, lowercased; a letter (`č`), or not
/// (`¨` in `ma¨gi`, windows-1252's reading of ISO-8859-15 `š`), but
/// the apostrophe (`’`). A word is a run of letters and of
/// other non-ASCII characters between two letters, and counts only if it
/// has an ASCII letter, as words of Latin-script languages do: `Ł` in
/// `Ł825` (windows-1250's reading of a price in pounds) or `ŠŽ` in
/// `§ŠŽ°` (ISO-8859-2's reading of symbols) is in none.
fn word_characters(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let letter = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(|c| c.is_alphabetic())
    };
    // Between two letters only the apostrophe is punctuation (`L’œuf`):
    // another quote, a dash or a symbol there is a letter misread (DOS
    // French `cr\x8Ame` is windows-1252 `crŠme`, `caf\x82s` is `caf‚s`).
    let in_word = |i: usize| {
        let c = chars[i];
        c.is_alphabetic()
            || ('\u{300}'..='\u{36F}').contains(&c)
            || !c.is_ascii() && c != '\u{2019}' && letter(i.checked_sub(1)) && letter(Some(i + 1))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !in_word(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && in_word(i) {
            i += 1;
        }
        let word = &chars[start..i];
        if !word.iter().any(char::is_ascii_alphabetic) {
            continue;
        }
        for &c in word.iter().filter(|c| !c.is_ascii()) {
            // Turkish `İ` lowercases to `i` and a combining dot.
            if c != 'İ' {
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

/// The language whose alphabet holds all but [`MAX_FOREIGN_PERCENT`] of
/// `text`'s word characters ([`word_characters`]), if it has at least
/// `min_letters` of them and they are at least half of its non-ASCII
/// characters: a reading that is mostly symbols and quotes is no text
/// (Shift_JIS `山` and full-width letters read as windows-1250 are `ŽR`
/// and `‚a‚b`, one letter in five characters); with the language, how
/// many of the word characters are foreign to it.
fn language_and_foreign(text: &str, min_letters: usize) -> Option<(&'static str, usize)> {
    let mut chars = word_characters(text);
    let non_ascii = text.chars().filter(|c| !c.is_ascii()).count();
    // Small letters standing alone count here too: one-letter words
    // (Italian `è`), where a capital alone mid-sentence is a misread letter
    // (DOS Italian `è` is windows-1250 `Š`).
    let all: Vec<char> = text.chars().collect();
    let alone = (0..all.len())
        .filter(|&i| {
            let letter = |j: Option<usize>| {
                j.and_then(|j| all.get(j))
                    .is_some_and(|c| c.is_alphabetic())
            };
            !all[i].is_ascii()
                && all[i].is_lowercase()
                && !letter(i.checked_sub(1))
                && !letter(Some(i + 1))
        })
        .count();
    let letters = chars.len() + alone;
    if chars.is_empty() || chars.len() < min_letters || letters * 2 < non_ascii {
        return None;
    }
    chars.sort_unstable();
    let mut counts: Vec<(char, usize)> = Vec::new();
    for &c in &chars {
        match counts.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => counts.push((c, 1)),
        }
    }
    // Each alphabet's letters looked up among the text's few distinct
    // characters (sorted), not each character searched for in 30 strings.
    let count_of = |c: char| {
        counts
            .binary_search_by_key(&c, |&(d, _)| d)
            .map_or(0, |i| counts[i].1)
    };
    ALPHABETS
        .iter()
        .map(|&(name, alphabet)| {
            let native: usize = alphabet.chars().map(count_of).sum();
            (chars.len() - native, name)
        })
        .min()
        .filter(|&(foreign, _)| foreign * 100 <= MAX_FOREIGN_PERCENT * chars.len())
        .map(|(foreign, name)| (name, foreign))
}

/// Whether `encoding`'s reading of `sample` is the text of one language,
/// or has no characters in words to judge (a price in pounds, quotes).
pub(super) fn fits_a_language(encoding: &'static Encoding, sample: &[u8]) -> bool {
    let words = words_of(sample);
    let text = encoding.decode_without_bom_handling(&words).0;
    word_characters(&text).is_empty() || language_and_foreign(&text, 1).is_some()
}

/// The words of `sample` that hold non-ASCII bytes (each stretch of them
/// with the ASCII letters around it), a space after each: all that the
/// readings' letters are judged on ([`word_characters`]), a fifth of the
/// sample or less, read once per encoding. Every encoding here has one
/// byte per character, so any cut decodes alike.
fn words_of(sample: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(sample.len() / 4);
    let mut at = 0;
    while let Some(found) = sample[at..].iter().position(|b| !b.is_ascii()) {
        let first = at + found;
        let mut start = first;
        while start > at && sample[start - 1].is_ascii_alphabetic() {
            start -= 1;
        }
        let mut end = first;
        while end < sample.len() && (!sample[end].is_ascii() || sample[end].is_ascii_alphabetic()) {
            end += 1;
        }
        out.extend_from_slice(&sample[start..end]);
        out.push(b' ');
        at = end;
    }
    out
}

/// The readings of `sample` in the [`LATIN_READINGS`] that decode it
/// without an error and without C1 controls (a byte no text has there) to
/// the text of one language ([`language_and_foreign`]), one entry per text: the
/// encodings that read it (in [`LATIN_READINGS`] order) and its language;
/// a text needs at least `min_letters` characters in words. Of several
/// such texts, those with the fewest characters foreign to their language
/// (a wrong reading adds its misread letters to the names and loan words
/// the right one has: windows-1252 reads Vietnamese `đ` as `ð`).
/// None: no reading is a language's text; one: its language is the
/// evidence; several: the letters alone do not tell which.
pub(super) fn latin_readings(
    sample: &[u8],
    min_letters: usize,
) -> Vec<(Vec<&'static Encoding>, &'static str)> {
    let words = words_of(sample);
    // Every text read, with its encodings and its language and foreign
    // count if it is a language's: encodings that read alike (most of them,
    // on most text) are judged once.
    type Read = (
        String,
        Vec<&'static Encoding>,
        Option<(&'static str, usize)>,
    );
    let mut read: Vec<Read> = Vec::new();
    for encoding in LATIN_READINGS {
        let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(&words)
        else {
            continue;
        };
        if let Some((_, encodings, _)) = read.iter_mut().find(|(other, ..)| *other == text) {
            encodings.push(encoding);
            continue;
        }
        let c1 = text.chars().any(|c| ('\u{80}'..='\u{9F}').contains(&c));
        let language = (!c1)
            .then(|| language_and_foreign(&text, min_letters))
            .flatten();
        read.push((text.into_owned(), vec![encoding], language));
    }
    let fewest = read
        .iter()
        .filter_map(|(.., language)| language.map(|(_, foreign)| foreign))
        .min();
    read.into_iter()
        .filter_map(|(_, encodings, language)| {
            let (language, foreign) = language?;
            (Some(foreign) == fewest).then_some((encodings, language))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language_of(text: &str, min_letters: usize) -> Option<&'static str> {
        language_and_foreign(text, min_letters).map(|(language, _)| language)
    }

    #[test]
    fn the_foreign_share_is_pinned_from_both_sides() {
        assert_eq!(MAX_FOREIGN_PERCENT, 3);
        // Czech `ř` and Romanian `ţ`: 1 foreign letter in 34 passes, in 33
        // it does not; in a short text none passes.
        let text = |czech: usize, foreign: usize| {
            format!("{} {}", "ař".repeat(czech), "aţ".repeat(foreign))
        };
        assert_eq!(language_of(&text(33, 1), 1), Some("Czech"));
        assert_eq!(language_of(&text(32, 1), 1), None);
        assert_eq!(language_of(&text(2, 0), 1), Some("Czech"));
        assert_eq!(language_of("Příliš žluťoučký kůň", 1), Some("Czech"));
        assert_eq!(language_of("plain", 1), None);
    }

    #[test]
    fn a_symbol_inside_a_word_is_no_letter_of_any_language() {
        // ISO-8859-15 Estonian `maš` read as windows-1252 is `ma¨`.
        assert_eq!(language_of("Põhja ma¨ina", 1), None);
        assert_eq!(language_of("Põhja mašina", 1), Some("Estonian"));
        // Typographic punctuation beside letters is no letter.
        assert_eq!(language_of("L’œuf ingrédient", 1), Some("French"));
        // windows-1258's tones are combining marks: letters of their word.
        assert_eq!(
            language_of("Vie\u{323}t Nam, ti\u{301}nh", 1),
            Some("Vietnamese")
        );
        // Non-ASCII letters in no word with an ASCII letter are not text.
        assert_eq!(language_of("x §ŠŽ°ą y, Ł825", 1), None);
        // A quote or dash inside a word is a misread letter, the apostrophe
        // is not: DOS French `crème`, `cafés` read as windows-1252.
        assert_eq!(
            language_of("cr\u{160}me caf\u{201A}s, l’\u{e9}t\u{e9}", 1),
            None
        );
        assert_eq!(
            language_of("l’\u{e9}t\u{e9} et l’\u{153}uvre", 1),
            Some("French")
        );
        // Letters in words must be half of the non-ASCII characters.
        assert_eq!(
            language_of("zaštita šuma „a“", 1),
            Some("Croatian, Bosnian, Serbian")
        );
        assert_eq!(language_of("zaštita šuma „a“ “b”", 1), None);
    }

    #[test]
    fn the_readings_read_the_words_with_non_ascii_bytes() {
        assert_eq!(
            words_of(b"Le caf\xE9 est ouvert, cr\xE8me br\xFBl\xE9e. 5 \xA4 x"),
            b"caf\xE9 cr\xE8me br\xFBl\xE9e \xA4 "
        );
        assert_eq!(words_of(b"plain"), b"");
    }

    #[test]
    fn one_language_reading_names_the_encodings_that_agree() {
        // Lithuanian `Prancūzija`, `olandų` in ISO-8859-13: windows-1252
        // reads `Pranc\u{fb}zija`, `oland\u{f8}`, no language's letters.
        let (lt, _, _) = encoding_rs::ISO_8859_13.encode("Prancūzija, olandų kalba");
        assert_eq!(
            latin_readings(&lt, 1),
            [(
                vec![encoding_rs::WINDOWS_1257, encoding_rs::ISO_8859_13],
                "Lithuanian"
            )]
        );
        // `è` twice: French in windows-1252, Czech `č` in windows-1250.
        assert_eq!(latin_readings(b"caf\xE8 cr\xE8me", 1).len(), 2);
        assert!(latin_readings(b"\xFF\xFE", 1).is_empty());
        // Of readings of one language, the one with no foreign letter:
        // windows-1258 Vietnamese `đ` (`F0`) and the tilde of `ngã` (`DE`)
        // are windows-1252 `ð`, `Þ` and ISO-8859-16 `đ`, `Ț`, within the
        // tolerance over 40 letters but foreign all the same.
        let mut vi = b"Vi\xEA\xF2t Nam ".repeat(20);
        vi.extend(b"\xF0\xE2\xF2u nga\xDE");
        let readers = latin_readings(&vi, 1);
        assert_eq!(readers[0].0, [encoding_rs::WINDOWS_1258]);
    }
}
