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
pub(crate) struct Reading {
    /// Non-ASCII characters other than typographic punctuation.
    pub(crate) non_ascii: usize,
    letters: usize,
    /// Non-ASCII letters next to another letter: in a word, not alone in a
    /// table (vim's Greek keymap lists `Α` alone on its line; read as
    /// windows-1252 it is `Á`, and nothing tells the two apart).
    pub(crate) in_words: usize,
    /// Letters per script, non-Latin scripts only, `non_latin_script` order.
    by_script: [usize; SCRIPTS],
    /// Non-ASCII capital and small letters (scripts with case only).
    pub(crate) upper: usize,
    pub(crate) lower: usize,
    /// Non-ASCII capital letters right after a small letter, inside a word
    /// (`версиЯ`, what an encoding that swaps a letter's case gives; `cafВ`,
    /// DOS Latin read as IBM866).
    pub(crate) breaks: usize,
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
    pub(crate) fn of(text: &str) -> Reading {
        let mut r = Reading::default();
        // Two characters either side: `è` in ` è una ` is a word of a
        // sentence, `Α` in `" Α` at the end of a line is not. Each with
        // its class ([`CharClass`]), looked up once as it comes in: Unicode's
        // tables, asked up to five times for a character, and a window
        // rotated with a memmove were a sixth of a verdict's time.
        let tables = ClassTables::get();
        let space = (' ', tables.of(' '));
        let mut window = [space; 5];
        for c in text.chars().chain([' ', ' ']) {
            window = [
                window[1],
                window[2],
                window[3],
                window[4],
                (c, tables.of(c)),
            ];
            let [b2, b1, (mid, class), a1, a2] = window;
            if mid.is_ascii() {
                // Neither a letter nor counted, whatever is around it.
                continue;
            }
            // `¿` opening a sentence and `€` beside a number are Spanish
            // punctuation and a price; elsewhere they are what UTF-8 read
            // as windows-1252 is full of (`ï»¿` is a byte-order mark, `â€`
            // a quote), and count as symbols.
            let opening = |(c, _): (char, CharClass)| c.is_whitespace() || c.is_ascii_punctuation();
            let digit = |(c, _): (char, CharClass)| c.is_ascii_digit();
            let space = |(c, _): (char, CharClass)| c == ' ';
            let in_place = match mid {
                '¿' => opening(b1) && a1.1.is(CharClass::ALPHABETIC),
                '€' => digit(b1) || digit(a1) || space(b1) && digit(b2) || space(a1) && digit(a2),
                _ => false,
            };
            if in_place || class.is(CharClass::NEUTRAL) {
                continue;
            }
            r.non_ascii += 1;
            // A combining diacritic after a letter is part of it
            // (windows-1258 writes Vietnamese tones so: `a\u{301}`).
            let diacritic =
                ('\u{300}'..='\u{36F}').contains(&mid) && b1.1.is(CharClass::ALPHABETIC);
            if !(class.is(CharClass::ALPHABETIC) || diacritic || class.is(CharClass::MARK)) {
                continue;
            }
            r.add_letter(class);
            let beside = |(near, near_class): (char, CharClass),
                          (_, far_class): (char, CharClass)| {
                near_class.is(CharClass::ALPHABETIC)
                    || (near == ' ' && far_class.is(CharClass::ALPHABETIC))
            };
            if beside(b1, b2) || beside(a1, a2) {
                r.in_words += 1;
            }
            if class.is(CharClass::UPPERCASE) {
                r.upper += 1;
                r.breaks +=
                    usize::from(b1.1.is(CharClass::ALPHABETIC) && b1.1.is(CharClass::LOWERCASE));
            } else if class.is(CharClass::LOWERCASE) {
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
        r
    }

    pub(crate) fn add(&mut self, c: char) {
        if c.is_ascii() {
            return;
        }
        let class = CharClass::uncased(c);
        if c.is_ascii() || class.is(CharClass::NEUTRAL) {
            return;
        }
        self.non_ascii += 1;
        if class.is(CharClass::ALPHABETIC) || class.is(CharClass::MARK) {
            self.add_letter(class);
        }
    }

    /// Counts a letter (of the script `class` says).
    fn add_letter(&mut self, class: CharClass) {
        self.letters += 1;
        if let Some(script) = class.script() {
            self.by_script[script] += 1;
        }
    }

    /// Mostly letters ([`MIN_LEGACY_LETTER_PERCENT`]), and the non-Latin
    /// ones mostly of one script ([`MIN_ONE_SCRIPT_PERCENT`]).
    pub(crate) fn plausible(&self) -> bool {
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
    pub(crate) fn running_text(&self) -> bool {
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
    pub(crate) fn plausible_words(&self) -> bool {
        self.plausible() && self.in_words * 2 >= self.letters
    }
}

/// What [`Reading`] asks of a character, in one lookup ([`ClassTables`]):
/// a table for the characters legacy encodings read bytes as (Latin to
/// Arabic, and the punctuation block of the windows code pages), built
/// once from Unicode's own tables ([`CharClass::compute`]), and those
/// tables beyond it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CharClass(u16);

impl CharClass {
    /// `char::is_alphabetic`.
    const ALPHABETIC: u16 = 1;
    /// `char::is_uppercase`.
    const UPPERCASE: u16 = 1 << 1;
    /// `char::is_lowercase`.
    const LOWERCASE: u16 = 1 << 2;
    /// Typographic punctuation and symbols that go with words in any script,
    /// and CJK punctuation: neither letters nor evidence against them.
    const NEUTRAL: u16 = 1 << 3;
    /// [`is_combining_mark`]: part of a word.
    const MARK: u16 = 1 << 4;
    /// The bits above this hold [`non_latin_script`] plus one (0: none).
    const SCRIPT_SHIFT: u32 = 8;

    /// [`ClassTables::of`] without [`CharClass::UPPERCASE`] and
    /// [`CharClass::LOWERCASE`] for the characters beyond the tables.
    fn uncased(c: char) -> CharClass {
        ClassTables::get().uncased(c)
    }

    /// `c`'s class from Unicode's tables.
    fn compute(c: char) -> CharClass {
        let flag = |yes: bool, flag: u16| if yes { flag } else { 0 };
        CharClass(
            CharClass::compute_uncased(c).0
                | flag(c.is_uppercase(), CharClass::UPPERCASE)
                | flag(c.is_lowercase(), CharClass::LOWERCASE),
        )
    }

    /// [`CharClass::compute`] but for the case.
    fn compute_uncased(c: char) -> CharClass {
        let flag = |yes: bool, flag: u16| if yes { flag } else { 0 };
        // Typographic quotes, dashes, ellipses, no-break spaces, `¡` and
        // the pound, copyright, trademark and degree signs go with words in
        // any script (`¡Qué!`, `Marca®`): neither letters nor evidence
        // against them (`¿` and `€` only in their place, [`Reading::of`]).
        let neutral = matches!(
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
        ) || is_cjk_punctuation(c);
        let script = non_latin_script(c).map_or(0, |script| script as u16 + 1);
        CharClass(
            flag(c.is_alphabetic(), CharClass::ALPHABETIC)
                | flag(neutral, CharClass::NEUTRAL)
                | flag(is_combining_mark(c), CharClass::MARK)
                | script << CharClass::SCRIPT_SHIFT,
        )
    }

    fn is(self, flag: u16) -> bool {
        self.0 & flag != 0
    }

    /// [`non_latin_script`].
    fn script(self) -> Option<usize> {
        (self.0 >> CharClass::SCRIPT_SHIFT)
            .checked_sub(1)
            .map(usize::from)
    }
}

/// The [`CharClass`] of every character below [`ClassTables::LOW_END`]
/// and in [`ClassTables::PUNCTUATION`], and the one class of each block in
/// [`ClassTables::UNIFORM`], built once.
struct ClassTables {
    low: [CharClass; ClassTables::LOW_END as usize],
    punctuation:
        [CharClass; (ClassTables::PUNCTUATION.end - ClassTables::PUNCTUATION.start) as usize],
    uniform: [CharClass; ClassTables::UNIFORM.len()],
}

impl ClassTables {
    /// The characters below this are in the first table: Latin to Arabic.
    const LOW_END: u32 = 0x800;
    /// ... and these in the second (`–`, `’`, `“`, `•`, `…`, `€`, `™`).
    const PUNCTUATION: std::ops::Range<u32> = 0x2000..0x2200;
    /// Blocks whose characters all have one class, their first's (a test
    /// checks each character): the letters of CJK and Korean text, which
    /// Unicode's tables answer slowly (a table per block would cost more to
    /// build than one file's text asks of them).
    const UNIFORM: [std::ops::RangeInclusive<u32>; 4] = [
        // Hiragana and katakana letters.
        0x3041..=0x3096,
        0x30A1..=0x30FA,
        // CJK Unified Ideographs.
        0x4E00..=0x9FFF,
        // Hangul syllables.
        0xAC00..=0xD7A3,
    ];

    fn get() -> &'static ClassTables {
        static TABLES: std::sync::LazyLock<ClassTables> = std::sync::LazyLock::new(|| {
            let class = |u: u32| char::from_u32(u).map_or(CharClass(0), CharClass::compute);
            ClassTables {
                low: std::array::from_fn(|i| class(i as u32)),
                punctuation: std::array::from_fn(|i| {
                    class(ClassTables::PUNCTUATION.start + i as u32)
                }),
                uniform: ClassTables::UNIFORM.map(|block| class(*block.start())),
            }
        });
        &TABLES
    }

    /// `c`'s class from the tables, if they hold it.
    fn look_up(&self, c: char) -> Option<CharClass> {
        let u = u32::from(c);
        if u < ClassTables::LOW_END {
            self.low.get(u as usize).copied()
        } else if ClassTables::PUNCTUATION.contains(&u) {
            self.punctuation
                .get((u - ClassTables::PUNCTUATION.start) as usize)
                .copied()
        } else {
            let block = ClassTables::UNIFORM.iter().position(|b| b.contains(&u))?;
            Some(self.uniform[block])
        }
    }

    /// `c`'s class: from the tables, or from Unicode's.
    fn of(&self, c: char) -> CharClass {
        self.look_up(c).unwrap_or_else(|| CharClass::compute(c))
    }

    /// [`ClassTables::of`] without the case beyond the tables.
    fn uncased(&self, c: char) -> CharClass {
        self.look_up(c)
            .unwrap_or_else(|| CharClass::compute_uncased(c))
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
    /// The guess reads the sample as text, and so does an encoding outside
    /// the claimed families (`unclaimed.rs`), as other letters in words:
    /// `rival` names it. Which is meant the text does not tell.
    Unclaimed {
        /// The unclaimed encoding's name.
        rival: &'static str,
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

/// Characters of the blocks everyday text uses: ASCII, Latin, Greek,
/// Cyrillic, Hebrew, Arabic, Thai, CJK punctuation, kana, the common Han
/// block, Hangul syllables and the full-width forms.
pub(crate) fn is_common(c: char) -> bool {
    matches!(u32::from(c),
        0x09 | 0x0A | 0x0D | 0x20..=0x7E
        | 0xA0..=0x052F
        | 0x0590..=0x06FF
        | 0x0E00..=0x0E7F
        | 0x3000..=0x30FF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7A3
        | 0xFF00..=0xFFEF)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character of a uniform block has the class Unicode's tables
    /// give it, case included, so the tables answer as Unicode's would.
    #[test]
    fn the_uniform_blocks_are_uniform() {
        let tables = ClassTables::get();
        for block in ClassTables::UNIFORM {
            for u in block {
                let c = char::from_u32(u).unwrap();
                assert_eq!(tables.of(c), CharClass::compute(c), "U+{u:04X}");
                assert_eq!(
                    tables.uncased(c),
                    CharClass::compute_uncased(c),
                    "U+{u:04X}"
                );
            }
        }
        // Just outside: the middle dot `・` is CJK punctuation, not a letter.
        assert!(tables.of('\u{30FB}').is(CharClass::NEUTRAL));
    }

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

    #[test]
    fn the_class_tables_are_unicodes() {
        // Every character the tables hold, and the first beyond each.
        let low = 0..=ClassTables::LOW_END;
        let punctuation = ClassTables::PUNCTUATION.start - 1..=ClassTables::PUNCTUATION.end;
        for c in low.chain(punctuation).filter_map(char::from_u32) {
            let class = ClassTables::get().of(c);
            assert_eq!(class, CharClass::compute(c), "{c:?}");
            let uncased = CharClass::compute_uncased(c);
            assert_eq!(CharClass::uncased(c), class);
            assert_eq!(
                uncased.0,
                class.0 & !(CharClass::UPPERCASE | CharClass::LOWERCASE)
            );
            assert_eq!(class.is(CharClass::ALPHABETIC), c.is_alphabetic());
            assert_eq!(class.is(CharClass::UPPERCASE), c.is_uppercase());
            assert_eq!(class.is(CharClass::LOWERCASE), c.is_lowercase());
            assert_eq!(class.is(CharClass::MARK), is_combining_mark(c));
            assert_eq!(class.script(), non_latin_script(c));
        }
        assert!(ClassTables::get().of('’').is(CharClass::NEUTRAL));
        assert!(ClassTables::get().of('、').is(CharClass::NEUTRAL));
        assert!(!ClassTables::get().of('€').is(CharClass::NEUTRAL));
        assert_eq!(
            ClassTables::get().of('中').script(),
            Some(Script::Cjk as usize - 1)
        );
        assert_eq!(CharClass::uncased('Ⴀ'), CharClass::compute_uncased('Ⴀ'));
        assert!(ClassTables::get().of('Ⴀ').is(CharClass::UPPERCASE));
        assert_eq!(ClassTables::get().of('é').script(), None);
    }
}
