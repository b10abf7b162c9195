//! Encodings outside the claimed families that read a file's bytes as
//! other, as plausible text: the evidence that keeps a verdict from naming
//! one of the claimed encodings where a neighbour may be meant.
//!
//! The bytes whose characters differ between the named encoding and an
//! unclaimed neighbour are the only evidence between the two: the rest of
//! the file reads alike. When the file uses such bytes, and the neighbour
//! reads them as letters in words at least as often as the named encoding
//! does (and, for Latin text, as the letters of a language with no more
//! foreign letters), the text does not tell which is meant, and converting
//! it as the claimed one may write letters the file does not hold:
//! Romanian `ș` (ISO-8859-16) as `ş` (windows-1250), Tajik `ҳ` (KOI8-T) as
//! `┼` (KOI8-U), Ukrainian `і` (CP1125) as `ў` (IBM866), German `ö` (Mac
//! Roman) as `š` (windows-1250). The verdict is then not identified, with
//! the neighbour named, and no conversion is offered.
//!
//! A file that uses none of those bytes reads as the same text in both,
//! and keeps its verdict: converting it writes what either would.

use std::sync::LazyLock;

use encoding_rs::Encoding;

use super::languages::{alphabet_holds, language_of};
use super::reading::{Script, script_of};

/// A single-byte encoding's 256 characters (`None`: unmapped).
type Table = [Option<char>; 256];

/// An encoding outside the claimed families: its name and its table.
struct Neighbour {
    name: &'static str,
    table: fn() -> &'static Table,
    /// Whether its letters are judged by the Latin alphabets
    /// (`languages.rs`): then it is an encoding_rs encoding of that name.
    latin: Option<&'static Encoding>,
}

/// The table of an encoding_rs single-byte encoding, built once per
/// process for each of the few neighbours.
macro_rules! table_of {
    ($encoding:expr) => {{
        static TABLE: LazyLock<Table> = LazyLock::new(|| crate::text::single_byte_chars($encoding));
        &TABLE
    }};
}

/// KOI8-T (Tajik): KOI8-R's letters, with Tajik letters and typographic
/// punctuation where KOI8-R has box drawing (`80`..`BF`); Python's
/// `koi8_t` codec, `\0` where it maps nothing.
const KOI8_T_UPPER: [char; 64] = [
    'қ', 'ғ', '‚', 'Ғ', '„', '…', '†', '‡', '\0', '‰', 'ҳ', '‹', 'Ҳ', 'ҷ', 'Ҷ', '\0', //
    'Қ', '‘', '’', '“', '”', '•', '–', '—', '\0', '™', '\0', '›', '\0', '\0', '\0', '\0', //
    '\0', 'ӯ', 'Ӯ', 'ё', '¤', 'ӣ', '¦', '§', '\0', '\0', '\0', '«', '¬', '\u{AD}', '®',
    '\0', //
    '°', '±', '²', 'Ё', '\0', 'Ӣ', '¶', '·', '\0', '№', '\0', '»', '\0', '\0', '\0', '©',
];

fn koi8_t() -> &'static Table {
    static TABLE: LazyLock<Table> = LazyLock::new(|| {
        let mut table = crate::text::single_byte_chars(encoding_rs::KOI8_R);
        for (slot, &c) in table[0x80..0xC0].iter_mut().zip(&KOI8_T_UPPER) {
            *slot = (c != '\0').then_some(c);
        }
        table
    });
    &TABLE
}

/// CP1125 (Ukrainian DOS, RST 2018-91): IBM866 with the Ukrainian letters
/// at `F2`..`F9`, where IBM866 has `Є є Ї ї Ў ў ° ∙`.
fn cp1125() -> &'static Table {
    static TABLE: LazyLock<Table> = LazyLock::new(|| {
        let mut table = crate::text::single_byte_chars(encoding_rs::IBM866);
        for (slot, c) in table[0xF2..=0xF9].iter_mut().zip("ҐґЄєІіЇї".chars()) {
            *slot = Some(c);
        }
        table
    });
    &TABLE
}

/// The Latin neighbours, judged by the alphabets as the claimed Latin
/// encodings are: Romanian and Polish ISO-8859-16, South European
/// ISO-8859-3, Nordic ISO-8859-10, Celtic ISO-8859-14, Mac Roman.
const LATIN: [Neighbour; 5] = [
    Neighbour {
        name: "ISO-8859-16",
        table: || table_of!(encoding_rs::ISO_8859_16),
        latin: Some(encoding_rs::ISO_8859_16),
    },
    Neighbour {
        name: "ISO-8859-3",
        table: || table_of!(encoding_rs::ISO_8859_3),
        latin: Some(encoding_rs::ISO_8859_3),
    },
    Neighbour {
        name: "ISO-8859-10",
        table: || table_of!(encoding_rs::ISO_8859_10),
        latin: Some(encoding_rs::ISO_8859_10),
    },
    Neighbour {
        name: "ISO-8859-14",
        table: || table_of!(encoding_rs::ISO_8859_14),
        latin: Some(encoding_rs::ISO_8859_14),
    },
    Neighbour {
        name: "Mac Roman",
        table: || table_of!(encoding_rs::MACINTOSH),
        latin: Some(encoding_rs::MACINTOSH),
    },
];

const MAC_CYRILLIC: [Neighbour; 1] = [Neighbour {
    name: "Mac Cyrillic",
    table: || table_of!(encoding_rs::X_MAC_CYRILLIC),
    latin: None,
}];

const KOI8_T: [Neighbour; 1] = [Neighbour {
    name: "KOI8-T",
    table: koi8_t,
    latin: None,
}];

const CP1125: [Neighbour; 1] = [Neighbour {
    name: "CP1125",
    table: cp1125,
    latin: None,
}];

/// The unclaimed neighbours of a claimed single-byte encoding: those that
/// share most of its bytes' characters and read the rest as other letters.
fn neighbours(encoding: &'static Encoding) -> &'static [Neighbour] {
    use encoding_rs::*;
    if [
        WINDOWS_1252,
        ISO_8859_15,
        WINDOWS_1250,
        ISO_8859_2,
        WINDOWS_1257,
        ISO_8859_13,
        ISO_8859_4,
        WINDOWS_1254,
        WINDOWS_1258,
    ]
    .contains(&encoding)
    {
        &LATIN
    } else if encoding == WINDOWS_1251 {
        &MAC_CYRILLIC
    } else if encoding == KOI8_R || encoding == KOI8_U {
        &KOI8_T
    } else if encoding == IBM866 {
        &CP1125
    } else {
        &[]
    }
}

/// The first unclaimed neighbour of `encoding` (the verdict's, claimed)
/// that reads `sample` as other text at least as plausible (see the
/// module's comment), by its name; None when there is none.
pub(super) fn unclaimed_rival(encoding: &'static Encoding, sample: &[u8]) -> Option<&'static str> {
    if !encoding.is_single_byte() {
        return None;
    }
    let ours = crate::text::single_byte_chars(encoding);
    let mut present = [false; 256];
    for &b in sample.iter().filter(|b| !b.is_ascii()) {
        present[usize::from(b)] = true;
    }
    neighbours(encoding).iter().find_map(|neighbour| {
        let theirs = (neighbour.table)();
        let mut differ = false;
        for b in (0x80..256).filter(|&b| present[b]) {
            // A byte the neighbour does not map, or maps to a control, is
            // one no text in it has.
            match theirs[b] {
                None => return None,
                Some(c) if c.is_control() => return None,
                Some(c) => differ |= ours[b] != Some(c),
            }
        }
        if !differ {
            return None;
        }
        let (mine, its) = letters_where_they_differ(sample, &ours, theirs);
        if its == 0 || its < mine {
            return None;
        }
        // Latin text is also judged by its language: the neighbour's
        // reading must be a language's text with no more foreign letters,
        // in its words and, where the two differ, anywhere (Czech `élčves`
        // is French `élèves` in ISO-8859-10, whose `jusqu'ā` no Czech
        // writes).
        if let Some(latin) = neighbour.latin {
            let (its_language, its_foreign) = language_of(latin, sample)?;
            let (my_language, my_foreign) =
                language_of(encoding, sample).unwrap_or(("", usize::MAX));
            // A capital after a small letter is foreign wherever it is a
            // letter of the language (Mac Roman reads `ingrédient` as
            // `ingrÈdient`).
            let foreign_where_they_differ = |table: &Table, language: &str| {
                let at = |i: usize| table[usize::from(sample[i])];
                let differ = |i: &usize| {
                    let b = usize::from(sample[*i]);
                    ours[b] != theirs[b]
                };
                let foreign = |i: usize| {
                    at(i).is_some_and(|c| {
                        let breaks = c.is_uppercase()
                            && i.checked_sub(1)
                                .and_then(at)
                                .is_some_and(char::is_lowercase);
                        c.is_alphabetic() && (breaks || !alphabet_holds(language, c))
                    })
                };
                (0..sample.len())
                    .filter(differ)
                    .filter(|&i| foreign(i))
                    .count()
            };
            if its_foreign > my_foreign
                || foreign_where_they_differ(theirs, its_language)
                    > foreign_where_they_differ(&ours, my_language)
            {
                return None;
            }
        }
        Some(neighbour.name)
    })
}

/// How many of the bytes of `sample` that the two tables read differently
/// each reads as a letter in a word: a cased letter, not a capital after a
/// small letter (`cafÈ`), beside a letter of its script that both read
/// alike (a word's shared letters; a run of box drawing that another
/// encoding reads as letters is no word, and neither is `°C` read `ЇC`).
fn letters_where_they_differ(sample: &[u8], ours: &Table, theirs: &Table) -> (usize, usize) {
    let script = |c: char| {
        if c.is_ascii_alphabetic() {
            Some(Script::Latin)
        } else {
            script_of(c).filter(|_| c.is_alphabetic())
        }
    };
    let fits = |table: &Table, i: usize| {
        let at = |j: usize| table[usize::from(sample[j])];
        let Some(c) = at(i) else { return false };
        let cased = c.is_lowercase() || c.is_uppercase();
        let before = i.checked_sub(1).and_then(at);
        let breaks = c.is_uppercase() && before.is_some_and(char::is_lowercase);
        let shared_letter = |j: usize| {
            let b = usize::from(sample[j]);
            ours[b] == theirs[b] && at(j).and_then(script).is_some_and(|s| script(c) == Some(s))
        };
        let beside = i.checked_sub(1).is_some_and(shared_letter)
            || (i + 1 < sample.len() && shared_letter(i + 1));
        cased && !breaks && beside
    };
    let differ = (0..sample.len()).filter(|&i| {
        let b = usize::from(sample[i]);
        ours[b] != theirs[b]
    });
    differ.fold((0, 0), |(mine, its), i| {
        (
            mine + usize::from(fits(ours, i)),
            its + usize::from(fits(theirs, i)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables hold what their codecs map (Python's `koi8_t` and
    /// `cp1125`): the Tajik and Ukrainian letters where the claimed
    /// encodings have others.
    #[test]
    fn the_tables_read_the_neighbours_letters() {
        let read = |table: &Table, bytes: &[u8]| -> String {
            bytes
                .iter()
                .map(|&b| table[usize::from(b)].unwrap_or('?'))
                .collect()
        };
        // `тоҷикӣ`, `шаҳр` in KOI8-T; `їжак і` in CP1125.
        assert_eq!(read(koi8_t(), b"\xD4\xCF\x8D\xC9\xCB\xA5"), "тоҷикӣ");
        assert_eq!(read(koi8_t(), b"\xDB\xC1\x8A\xD2"), "шаҳр");
        assert_eq!(read(cp1125(), b"\xF9\xA6\xA0\xAA \xF7"), "їжак і");
        assert_eq!(koi8_t()[0x88], None);
        assert_eq!(koi8_t()[0xC1], Some('а'));
    }

    #[test]
    fn letters_are_counted_only_in_words_of_their_script() {
        let ibm866 = crate::text::single_byte_chars(encoding_rs::IBM866);
        // `°C` after a number: IBM866's degree sign, CP1125's `Ї` beside a
        // Latin letter; neither is a letter in a word.
        assert_eq!(
            letters_where_they_differ(b"25\xF8C", &ibm866, cp1125()),
            (0, 0)
        );
        // Ukrainian `міст`: IBM866 `мўст`, CP1125 `міст`, both letters.
        assert_eq!(
            letters_where_they_differ(b"\xAC\xF7\xE1\xE2", &ibm866, cp1125()),
            (1, 1)
        );
        // Box drawing that KOI8-T reads as letters, and no shared letter.
        let koi8_u = crate::text::single_byte_chars(encoding_rs::KOI8_U);
        assert_eq!(
            letters_where_they_differ(b"\x80\x80\x80", &koi8_u, koi8_t()),
            (0, 0)
        );
    }
}
