//! What the codec's fused validator looks for on behalf of the rules
//! ([`CANDIDATES`]): the byte patterns that end a *text candidate*
//! ([`TEXT`]), those of U016's ([`CONFUSABLE`]), and the marker of an
//! inline directive ([`DIRECTIVE_PAIR`]). On a valid file the text pass
//! (`text_scan`) reads only the 4 KiB blocks in which the validator saw a
//! text candidate end, U016 only the lines of those in which it saw one of
//! its own, and the directive search only those in which it saw the pair:
//! nearly none in ordinary text.
//!
//! A candidate is where a character the text rules report (controls, C1
//! controls, invisible and bidi characters, noncharacters, tags: U010 to
//! U013) or a run U008 repairs may end. The patterns are a superset of
//! what the rules look at (`text_scan::is_candidate` tests the exact
//! bytes), kept tight where ordinary text goes: `é`, `’`, `…`, `—`, `«`,
//! CJK punctuation, kana and emoji end none.
//!
//! U016's candidate is a lead byte of a character UTS #39 lists as
//! confusable with a Latin letter (`C5`..`DF`, `E1`, `E2`, `EA`, `EF`,
//! `F0`): U016 tests the byte after it and reads the lines that hold one.
//!
//! Adding a candidate is adding a [`Pattern`] here, in the family whose
//! union still ends nothing in ordinary text (the 512-bit kernel tests a
//! family as one); the build fails if the patterns outgrow the kernels'
//! tables (`utf8lint_codec::NIBBLE_BITS` nibble products and
//! `utf8lint_codec::FAMILIES` families for the patterns that look at the
//! bytes before their end: these take 14 and 8; `utf8lint_codec::CUR_BITS`
//! for the others: these take 8, the non-ASCII bytes' [`NON_ASCII`] one of
//! them).

use utf8lint_codec::{ByteSet, Family, Pattern, Patterns};

/// The kind of the blocks the text rules read.
pub(crate) const TEXT: u8 = 1;

/// The kind of the blocks U016 reads.
pub(crate) const CONFUSABLE: u8 = 2;

/// The kind of the blocks that hold a byte that is not ASCII: where the
/// validator reports none, the file is ASCII, and the rules that look only
/// at characters outside ASCII (U017, U018) have nothing to read; where it
/// reports some, U017 reads only those.
pub(crate) const NON_ASCII: u8 = 4;

/// Two adjacent bytes of `utf8lint:`, the marker of an inline directive
/// (`utf8lint: allow(...)`), that ordinary text rarely holds: where the
/// validator finds neither, there is no marker.
pub(crate) const DIRECTIVE_PAIR: [u8; 2] = *b"8l";

const ANY: ByteSet = ByteSet::ANY;

const fn of(bytes: &[u8]) -> ByteSet {
    ByteSet::of(bytes)
}

const fn range(first: u8, last: u8) -> ByteSet {
    ByteSet::range(first, last)
}

/// The text rules' candidates, in families.
const TEXT_FAMILIES: [&[Pattern]; 9] = [
    &[
        // C1 controls U+0080..U+009F: `C2 80`..`C2 9F`.
        Pattern::new(ANY, of(&[0xC2]), range(0x80, 0x9F)),
        // U+00AC `¬` (the Mac Roman mojibake lead) and U+00AD SOFT HYPHEN.
        Pattern::new(ANY, of(&[0xC2]), of(&[0xAC, 0xAD])),
    ],
    &[
        // U+061C ARABIC LETTER MARK: `D8 9C`.
        Pattern::new(ANY, of(&[0xD8]), of(&[0x9C])),
        // U+115F, U+1160 HANGUL FILLERS `E1 85`, U+3164 `E3 85`.
        Pattern::new(ANY, of(&[0xE1, 0xE3]), of(&[0x85])),
        // U+180E `E1 A0`, the tags and variation selectors `F3 A0` (with
        // `E3 A0`, `F1 A0`: rare CJK extension A, unassigned planes).
        Pattern::new(ANY, of(&[0xE1, 0xE3, 0xF1, 0xF3]), of(&[0xA0])),
    ],
    // U+FDC0.., U+FE00.. (variation selectors), U+FF80.., U+FFC0..
    // (halfwidth fillers, noncharacters): `EF B7`, `EF B8`, `EF BE`, `EF BF`.
    &[Pattern::new(
        ANY,
        of(&[0xEF]),
        of(&[0xB7, 0xB8, 0xBE, 0xBF]),
    )],
    // The planes' noncharacters: a four-byte lead, `xF`, `BF`.
    &[Pattern::new(
        range(0xF0, 0xF4),
        of(&[0x8F, 0x9F, 0xAF, 0xBF]),
        of(&[0xBF]),
    )],
    // Mojibake: `Â`..`ô` (a lead byte read as windows-1252 or ISO-8859-1)
    // and the first byte of the next character, a continuation byte read
    // the same way: `C2` (`\u{80}`..`¿`), `C5` (`Š`, `Œ`, ...), `C6` (`ƒ`),
    // `CB` (`ˆ`, `˜`), `E2` (`€`, `’`, ...) (with `E5`, `E6`, `EB`, which
    // make one nibble product with them: an accented letter right before a
    // CJK ideograph or Hangul).
    &[Pattern::new(
        of(&[0xC3]),
        range(0x80, 0xBF),
        of(&[0xC2, 0xC5, 0xC6, 0xCB, 0xE2, 0xE5, 0xE6, 0xEB]),
    )],
    &[
        // Mac Roman mojibake lead `Ô` (`EF`) and a non-ASCII byte.
        Pattern::new(of(&[0xC3]), of(&[0x94]), range(0x80, 0xFF)),
        // Mac Roman mojibake lead `ƒ` (`C4`) and the first byte of a
        // character Mac Roman puts at `80`..`BF` (`C2`, `C3`, `CE`, `CF`,
        // `E2`): `ƒÅ` is `ā` read as Mac Roman.
        Pattern::new(
            of(&[0xC6]),
            of(&[0x92]),
            of(&[0xC2, 0xC3, 0xCE, 0xCF, 0xE2]),
        ),
    ],
    &[
        // U+200B..U+200F, U+202A..U+202E (with U+200A, U+202F):
        // `E2 80 8A`..`8F`, `E2 80 AA`..`AF`.
        Pattern::new(
            of(&[0xE2]),
            of(&[0x80]),
            range(0x8A, 0x8F).union(range(0xAA, 0xAF)),
        ),
        // Mac Roman mojibake leads `‚` (`E2 80 9A`) and `√` (`E2 88 9A`).
        Pattern::new(of(&[0xE2]), of(&[0x80, 0x88]), of(&[0x9A])),
        // U+2800 BRAILLE PATTERN BLANK: `E2 A0 80`.
        Pattern::new(of(&[0xE2]), of(&[0xA0]), of(&[0x80])),
    ],
    &[
        // U+2060, U+2066..U+2069: `E2 81 A0`, `E2 81 A6`..`A9`.
        Pattern::new(
            of(&[0xE2]),
            of(&[0x81]),
            of(&[0xA0]).union(range(0xA6, 0xA9)),
        ),
        // Mac Roman mojibake leads `∆` (`E2 88 86`) and `≈` (`E2 89 88`).
        Pattern::new(of(&[0xE2]), of(&[0x88, 0x89]), of(&[0x86, 0x88])),
    ],
    // C0 controls but tab, LF, FF and CR, and DEL.
    &[Pattern::new(
        ANY,
        ANY,
        range(0x00, 0x08)
            .union(of(&[0x0B, 0x7F]))
            .union(range(0x0E, 0x1F)),
    )],
];

/// The first bytes of the characters U016 looks for (`rules::confusable`'s
/// pairs and the Greek to Arabic letters): `C5`..`DF`, `E1`, `E2`, `EA`,
/// `EF`, `F0`. U016 finds them in the blocks the validator reports and
/// tests the bytes after them itself.
pub(crate) const CONFUSABLE_FIRSTS: ByteSet = range(0xC5, 0xDF)
    .union(of(&[0xE1, 0xE2, 0xEA]))
    .union(range(0xEF, 0xF0));

/// U016's candidates: its first bytes, each alone.
const CONFUSABLE_PATTERNS: [Pattern; 1] = [Pattern::new(ANY, ANY, CONFUSABLE_FIRSTS)];

/// Every byte that is not ASCII: one product of nibbles (`8`..`F` high,
/// any low), tested by the byte alone, so a non-ASCII chunk costs no more
/// and an ASCII chunk nothing.
const NON_ASCII_PATTERNS: [Pattern; 1] = [Pattern::new(ANY, ANY, range(0x80, 0xFF))];

/// Every candidate: the text rules' families, then U016's, then the
/// non-ASCII bytes.
const FAMILIES: [Family; 11] = {
    let mut out = [Family::new(CONFUSABLE, &CONFUSABLE_PATTERNS); 11];
    let mut i = 0;
    while i < TEXT_FAMILIES.len() {
        out[i] = Family::new(TEXT, TEXT_FAMILIES[i]);
        i += 1;
    }
    out[10] = Family::new(NON_ASCII, &NON_ASCII_PATTERNS);
    out
};

/// Every candidate, compiled for the codec's kernels.
pub(crate) const CANDIDATES: Patterns = Patterns::new(&FAMILIES);

#[cfg(test)]
mod tests {
    use super::*;

    fn ends_in(bytes: &[u8]) -> Vec<usize> {
        let at = |i: Option<usize>| i.map_or(0, |i| bytes[i]);
        (0..bytes.len())
            .filter(|&i| {
                CANDIDATES.ends(at(i.checked_sub(2)), at(i.checked_sub(1)), bytes[i]) & TEXT != 0
            })
            .collect()
    }

    #[test]
    fn ordinary_text_ends_no_candidate() {
        let texts = [
            "fn main() {\n\tprintln!(\"{x}\");\r\n}\x0C\n",
            "L’été dernier, nous avons mangé des crêpes à Noël — « très » bien… ",
            "Größe über Äpfel, Grüße, naïve café, São Paulo, ção, ñandú",
            "日本語の文章です。中文文本，「引用」、《书名》 한국어 ｶｷｸ",
            "Русский текст, ελληνικά, עברית, العربية جميل",
            "Ελληνικά: «Καλημέρα» — ναι…",
            "😀 👍🏽 🇫🇷 “quoted” ‘single’ † ‡ • ‰ € ™",
        ];
        for text in texts {
            assert!(ends_in(text.as_bytes()).is_empty(), "{text:?}");
        }
    }

    /// The non-ASCII candidate ends at every byte that is not ASCII, and
    /// only there, whatever came before.
    #[test]
    fn the_non_ascii_candidate_is_every_high_byte() {
        for b in 0..=255u8 {
            for prev in [b'a', 0xC3, 0xE2] {
                assert_eq!(
                    CANDIDATES.ends(prev, prev, b) & NON_ASCII != 0,
                    b >= 0x80,
                    "{b:02X}"
                );
            }
        }
    }

    /// U016's candidates end exactly at the lead bytes of the characters
    /// it looks for.
    #[test]
    fn the_confusable_candidates_are_the_leads() {
        for b in 0..=255u8 {
            let kinds = CANDIDATES.ends(b'a', b'b', b);
            assert_eq!(
                kinds & CONFUSABLE != 0,
                (0xC5..=0xDF).contains(&b) || [0xE1, 0xE2, 0xEA, 0xEF, 0xF0].contains(&b),
                "{b:02X}"
            );
        }
    }

    #[test]
    fn every_character_the_rules_report_ends_a_candidate() {
        let reported = [
            "\u{0}",
            "\u{1B}",
            "\u{7F}",
            "\u{80}",
            "\u{9F}",
            "\u{AD}",
            "\u{61C}",
            "\u{115F}",
            "\u{1160}",
            "\u{180B}",
            "\u{180E}",
            "\u{180F}",
            "\u{200B}",
            "\u{200F}",
            "\u{202A}",
            "\u{202E}",
            "\u{2060}",
            "\u{2066}",
            "\u{2069}",
            "\u{2800}",
            "\u{3164}",
            "\u{FDD0}",
            "\u{FDEF}",
            "\u{FE00}",
            "\u{FE0F}",
            "\u{FFA0}",
            "\u{FFFE}",
            "\u{FFFF}",
            "\u{1FFFE}",
            "\u{10FFFF}",
            "\u{E0001}",
            "\u{E0041}",
            "\u{E0100}",
            "Ã©",
            "ô€",
            "Ãƒ",
            "Ô™",
            "¬†x",
            "‚Äô",
            "√©",
            "∆í",
            "≈ì",
        ];
        for c in reported {
            assert!(
                !ends_in(c.as_bytes()).is_empty(),
                "{c:?} {:02X?}",
                c.as_bytes()
            );
        }
    }
}
