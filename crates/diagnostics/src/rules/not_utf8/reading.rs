//! How plausible a decoded text is: how many of its non-ASCII characters
//! are letters, in words, and of one script.

/// At least this share (percent) of the non-ASCII characters the legacy
/// reading gives must be letters: text in a legacy encoding is words, while
/// broken UTF-8 read as windows-125x gives symbols and punctuation (`â‚`).
pub(crate) const MIN_LEGACY_LETTER_PERCENT: usize = 80;

/// Of the non-Latin letters a legacy (or BOM-less UTF-16) reading gives,
/// at least this share (percent) must be of one script (Cyrillic, Greek,
/// Han with kana and Hangul, ...): a wrong reading scatters letters over
/// scripts, real text in one language does not.
pub(crate) const MIN_ONE_SCRIPT_PERCENT: usize = 90;

/// What a decoded sample's non-ASCII characters are.
#[derive(Debug, Default)]
pub(super) struct Reading {
    /// Non-ASCII characters other than typographic punctuation.
    pub(super) non_ascii: usize,
    letters: usize,
    /// Non-ASCII letters next to another letter: in a word, not alone in a
    /// table (vim's Greek keymap lists `Α` alone on its line; read as
    /// windows-1252 it is `Á`, and nothing tells the two apart).
    pub(super) in_words: usize,
    /// Letters per script, non-Latin scripts only, `non_latin_script` order.
    by_script: [usize; SCRIPTS],
    /// Non-ASCII capital and small letters (scripts with case only).
    pub(super) upper: usize,
    pub(super) lower: usize,
    /// Non-ASCII capital letters right after a small letter, inside a word
    /// (`версиЯ`, what an encoding that swaps a letter's case gives; `cafВ`,
    /// DOS Latin read as IBM866).
    pub(super) breaks: usize,
    /// Cyrillic letters only Serbian and Macedonian write (`ђ`, `љ`, `џ`,
    /// ...), and letters they never write (`ы`, `э`, `й`, `щ`, `ъ`, `ё`):
    /// a text with both is no one language (MacCyrillic read as
    /// windows-1251 gives `Ђфиша` for `Афиша`).
    south_slavic: usize,
    east_slavic: usize,
}

/// At most this many of a thousand non-ASCII letters may break their word
/// ([`Reading::breaks`]). Measured on chardet's corpus: Cyrillic text read
/// in its own encoding breaks at most 4.3 per thousand (camel-cased
/// names), MacCyrillic read as
/// windows-1251 at least 10 and IBM855 about 100.
pub(crate) const MAX_BREAKS_PER_MILLE: usize = 8;

/// At most this share (percent) of the non-ASCII letters of a script with
/// case may be capitals, once there are [`MIN_CASED_FOR_CAPITALS`] of them:
/// a text of a script without case read in a cased one's encoding (Hebrew
/// DOS as IBM866, Georgian as windows-1251) has no small letters at all.
/// Measured: Greek news headlines in capitals reach 50% on chardet's
/// corpus, vim's Bulgarian spelling rules (letters listed in capitals) 93%.
pub(crate) const MAX_CAPITALS_PERCENT: usize = 95;

/// How many cased non-ASCII letters the capitals' share needs.
pub(crate) const MIN_CASED_FOR_CAPITALS: usize = 50;

impl Reading {
    pub(super) fn of(text: &str) -> Reading {
        let mut r = Reading::default();
        // Two characters either side: `è` in ` è una ` is a word of a
        // sentence, `Α` in `" Α` at the end of a line is not. Each with
        // whether it is alphabetic, asked once as it comes in: the table
        // lookup for a non-ASCII character, asked up to five times, and a
        // window rotated with a memmove were a sixth of a verdict's time.
        let mut window = [(' ', false); 5];
        for c in text.chars().chain([' ', ' ']) {
            window = [
                window[1],
                window[2],
                window[3],
                window[4],
                (c, c.is_alphabetic()),
            ];
            let [b2, b1, (mid, mid_alphabetic), a1, a2] = window;
            let letters_before = r.letters;
            // `¿` opening a sentence and `€` beside a number are Spanish
            // punctuation and a price; elsewhere they are what UTF-8 read
            // as windows-1252 is full of (`ï»¿` is a byte-order mark, `â€`
            // a quote), and count as symbols.
            let opening = |(c, _): (char, bool)| c.is_whitespace() || c.is_ascii_punctuation();
            let digit = |(c, _): (char, bool)| c.is_ascii_digit();
            let space = |(c, _): (char, bool)| c == ' ';
            let in_place = match mid {
                '¿' => opening(b1) && a1.1,
                '€' => digit(b1) || digit(a1) || space(b1) && digit(b2) || space(a1) && digit(a2),
                _ => false,
            };
            // A combining diacritic after a letter is part of it
            // (windows-1258 writes Vietnamese tones so: `a\u{301}`).
            let diacritic = ('\u{300}'..='\u{36F}').contains(&mid) && b1.1;
            if !in_place {
                r.add_known(mid, mid_alphabetic || diacritic);
            }
            let beside = |(near, near_alphabetic): (char, bool),
                          (_, far_alphabetic): (char, bool)| {
                near_alphabetic || (near == ' ' && far_alphabetic)
            };
            if r.letters > letters_before {
                if beside(b1, b2) || beside(a1, a2) {
                    r.in_words += 1;
                }
                if mid.is_uppercase() {
                    r.upper += 1;
                    r.breaks += usize::from(b1.1 && b1.0.is_lowercase());
                } else if mid.is_lowercase() {
                    r.lower += 1;
                }
                if matches!(
                    mid,
                    'ђ' | 'ћ'
                        | 'џ'
                        | 'љ'
                        | 'њ'
                        | 'ѓ'
                        | 'ќ'
                        | 'ѕ'
                        | 'ј'
                        | 'Ђ'
                        | 'Ћ'
                        | 'Џ'
                        | 'Љ'
                        | 'Њ'
                        | 'Ѓ'
                        | 'Ќ'
                        | 'Ѕ'
                        | 'Ј'
                ) {
                    r.south_slavic += 1;
                } else if matches!(
                    mid,
                    'ы' | 'э' | 'й' | 'щ' | 'ъ' | 'ё' | 'Ы' | 'Э' | 'Й' | 'Щ' | 'Ъ' | 'Ё'
                ) {
                    r.east_slavic += 1;
                }
            }
        }
        r
    }

    pub(super) fn add(&mut self, c: char) {
        if !c.is_ascii() {
            self.add_known(c, c.is_alphabetic());
        }
    }

    /// [`Reading::add`] for a character whose `is_alphabetic` is known.
    fn add_known(&mut self, c: char, alphabetic: bool) {
        // Typographic quotes, dashes, ellipses, no-break spaces, `¡` and
        // the pound, copyright, trademark and degree signs go with words in
        // any script (`¡Qué!`, `Marca®`): neither letters nor evidence
        // against them (`¿` and `€` only in their place, above).
        if c.is_ascii()
            || matches!(
                c,
                '\u{A0}'
                    | '«'
                    | '»'
                    | '\u{2013}'
                    | '\u{2014}'
                    | '\u{2018}'
                    | '\u{2019}'
                    | '\u{201C}'
                    | '\u{201D}'
                    | '\u{201E}'
                    | '\u{2022}'
                    | '\u{2026}'
                    | '¡'
                    | '£'
                    | '©'
                    | '®'
                    | '°'
                    | '\u{2122}'
            )
            || is_cjk_punctuation(c)
        {
            return;
        }
        self.non_ascii += 1;
        if alphabetic || is_combining_mark(c) {
            self.letters += 1;
            if let Some(script) = non_latin_script(c) {
                self.by_script[script] += 1;
            }
        }
    }

    /// Mostly letters ([`MIN_LEGACY_LETTER_PERCENT`]), and the non-Latin
    /// ones mostly of one script ([`MIN_ONE_SCRIPT_PERCENT`]).
    pub(super) fn plausible(&self) -> bool {
        let letters_ok = self.letters * 100 >= MIN_LEGACY_LETTER_PERCENT * self.non_ascii;
        let non_latin: usize = self.by_script.iter().sum();
        let top = self.by_script.iter().copied().max().unwrap_or(0);
        letters_ok && top * 100 >= MIN_ONE_SCRIPT_PERCENT * non_latin
    }

    /// Whether the letters read as running text of their script: few
    /// words broken by a letter of the wrong case or script, or of a
    /// language the other letters exclude (at most
    /// [`MAX_BREAKS_PER_MILLE`] of the letters), and, over enough letters of
    /// a script with case, not mostly capitals (at most
    /// [`MAX_CAPITALS_PERCENT`]). A reading by the wrong member of a
    /// script's encodings breaks words (MacCyrillic read as windows-1251
    /// turns `я` into `Я` and capitals into symbols), and one in another
    /// script's encoding (Hebrew DOS read as IBM866, Mac Greek as KOI8-U)
    /// gives words of capitals: text is written in small letters.
    pub(super) fn running_text(&self) -> bool {
        let cased = self.upper + self.lower;
        // In a text that writes `ы` or `й`, each Serbian letter breaks a word.
        let breaks = self.breaks
            + if self.east_slavic > 0 {
                self.south_slavic
            } else {
                0
            };
        let breaks_ok = breaks < 2 || breaks * 1000 <= MAX_BREAKS_PER_MILLE * self.letters;
        let capitals_ok =
            cased < MIN_CASED_FOR_CAPITALS || self.upper * 100 <= MAX_CAPITALS_PERCENT * cased;
        breaks_ok && capitals_ok
    }

    /// [`Reading::plausible`], and at least half of the letters in words.
    pub(super) fn plausible_words(&self) -> bool {
        self.plausible() && self.in_words * 2 >= self.letters
    }
}

/// The scripts told apart: the one table of script ranges, for the
/// verdict's readings and for the conversion's lines already in UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    /// Han, kana and Hangul together: Japanese and Korean text mix them,
    /// and they are the CJK encodings' repertoire.
    Cjk,
    Armenian,
    Georgian,
    /// Any other script.
    Other,
}

/// What `c` says about the script of the text around it: its script for
/// letters (and CJK punctuation), `None` for ASCII and for the symbols and
/// punctuation every script uses (`°`, `«`, `×`, `ª`, `’`, `€`).
pub(crate) fn script_of(c: char) -> Option<Script> {
    Some(match u32::from(c) {
        0x00..=0xBF | 0xD7 | 0xF7 | 0x2000..=0x20CF => return None,
        0xC0..=0x024F | 0x1E00..=0x1EFF => Script::Latin,
        0x0370..=0x03FF | 0x1F00..=0x1FFF => Script::Greek,
        0x0400..=0x052F => Script::Cyrillic,
        0x0530..=0x058F => Script::Armenian,
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x0600..=0x06FF | 0x0750..=0x077F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Script::Arabic,
        0x0E00..=0x0E7F => Script::Thai,
        0x10A0..=0x10FF => Script::Georgian,
        0x1100..=0x11FF
        | 0x3000..=0x30FF
        | 0x3130..=0x318F
        | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF
        | 0x20000..=0x3FFFF => Script::Cjk,
        _ => Script::Other,
    })
}

/// The non-Latin scripts [`Reading`] counts letters of.
const SCRIPTS: usize = 9;

/// The script of a non-Latin letter, as an index into
/// [`Reading::by_script`]; `None` for Latin letters, which every legacy
/// reading may add, and for symbols.
fn non_latin_script(c: char) -> Option<usize> {
    match script_of(c)? {
        Script::Latin => None,
        script => Some(script as usize - 1),
    }
}

/// The punctuation and symbols CJK text is written with (ideographic
/// space and full stop, full-width forms of ASCII punctuation, `・`, `※`,
/// arrows, shapes, circled numbers): they mark sentences as ASCII
/// punctuation does in Latin text, and no 8-bit encoding's bytes read as
/// them but a stray `■`.
fn is_cjk_punctuation(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303F}'
        | '\u{30FB}'
        | '\u{FF01}'..='\u{FF0F}'
        | '\u{FF1A}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}'
        | '\u{FFE0}'..='\u{FFEE}'
        | '\u{2025}'
        | '\u{203B}'
        | '\u{2190}'..='\u{21FF}'
        | '\u{2460}'..='\u{24FF}'
        | '\u{25A0}'..='\u{25FF}'
        | '\u{2600}'..='\u{26FF}')
}

/// Thai, Hebrew and Arabic vowel signs: not `alphabetic` to Rust for all of
/// them, but parts of words all the same.
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0591}'..='\u{05C7}' | '\u{064B}'..='\u{065F}' | '\u{0E31}'..='\u{0E4E}')
}

/// How well the text supports the detector's guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Support {
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
    /// The guess reads the sample as letters but not as running text of
    /// their script (words broken by letters of the wrong case or script,
    /// mostly capitals, mostly rare characters): text in an encoding the
    /// detector does not know, read in a neighbour's.
    OtherScript,
    /// Many ill-formed sequences that no encoding the detector knows reads
    /// as text (none decodes them, or its reading is symbols, not words):
    /// EBCDIC, Johab, a DOS code page. Not identified, and no guess shown.
    NoReading,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_breaks_are_pinned_from_both_sides() {
        assert_eq!(MAX_BREAKS_PER_MILLE, 8);
        // 250 Cyrillic letters in words, and `Я` after a small letter:
        // two breaks (8 per thousand) pass, three do not.
        let text = |breaks: usize| {
            let mut t = "слово ".repeat(50);
            t.push_str(&"аЯ ".repeat(breaks));
            t
        };
        let letters = |t: &str| Reading::of(t).letters;
        assert!(letters(&text(2)) <= 254 && letters(&text(3)) >= 256);
        assert!(Reading::of(&text(2)).running_text());
        assert!(!Reading::of(&text(3)).running_text());
    }

    #[test]
    fn capitals_are_pinned_from_both_sides() {
        assert_eq!((MAX_CAPITALS_PERCENT, MIN_CASED_FOR_CAPITALS), (95, 50));
        // 100 cased letters: 95 capitals pass, 96 do not; 49 capitals alone
        // are too few to judge.
        let text = |upper: usize| format!("{} {}", "Ж".repeat(upper), "ж".repeat(100 - upper));
        assert!(Reading::of(&text(95)).running_text());
        assert!(!Reading::of(&text(96)).running_text());
        assert!(Reading::of(&"Ж".repeat(49)).running_text());
        assert!(!Reading::of(&"Ж".repeat(50)).running_text());
    }

    #[test]
    fn one_script_is_pinned_from_both_sides() {
        // Nine Cyrillic letters and one Greek: 90%; eight and one: 88%.
        assert!(Reading::of("жжжжжжжжжλ").plausible());
        assert!(!Reading::of("жжжжжжжжλ").plausible());
        // Latin letters come with every legacy reading and do not count.
        assert!(Reading::of("éééééжжжжж").plausible());
    }
}
