//! The byte patterns that end a *text candidate*: where a character the
//! text rules of `utf8lint-diagnostics` report (controls, C1 controls,
//! invisible and bidi characters, noncharacters, tags) or a run its
//! mojibake rule repairs may end. The fused kernel tests every byte for
//! them in the registers it validates with, so that the text rules read
//! only the 4 KiB blocks that hold one, nearly none in ordinary text.
//!
//! A pattern looks at a byte (`cur`) and the two before it (`prev1`,
//! `prev2`), each through two 16-entry tables, one per nibble, as the
//! validator classifies its errors (Keiser and Lemire): bit `k` of
//! `Z[prev2] & A[prev1] & B[cur]` is set when pattern `k` ends at `cur`.
//! A pattern is therefore a product of nibble sets, and two such spaces of
//! eight bits ([`SPACES`]) hold them all. The patterns are a superset of
//! what the rules look at (the rules test the exact bytes), kept tight
//! where ordinary text goes: `é`, `’`, `…`, `—`, `«`, CJK punctuation, kana
//! and emoji end none.
//!
//! The 512-bit build (AVX-512 VBMI) holds the same candidates another way:
//! eight patterns over exact byte sets, one 128-entry table per position
//! ([`BYTE_SET_PATTERNS`]). Each build is tested against its own
//! byte-by-byte twin ([`ends_nibble_candidate`], [`ends_byte_set_candidate`]);
//! [`ends_text_candidate`], what both find, is what the rules may rely on.

/// A set of nibble values, one bit per value.
type Nibbles = u16;

const ALL: Nibbles = 0xFFFF;

const fn nibbles(values: &[u8]) -> Nibbles {
    let mut set = 0;
    let mut i = 0;
    while i < values.len() {
        set |= 1 << values[i];
        i += 1;
    }
    set
}

/// A set of bytes: those whose high nibble is in `.0` and low nibble in `.1`.
#[derive(Clone, Copy)]
struct Bytes(Nibbles, Nibbles);

const ANY: Bytes = Bytes(ALL, ALL);

const fn byte(b: u8) -> Bytes {
    Bytes(1 << (b >> 4), 1 << (b & 0x0F))
}

/// One pattern: `prev2` in `z`, `prev1` in `a`, `cur` in `b`.
#[derive(Clone, Copy)]
struct Pattern {
    z: Bytes,
    a: Bytes,
    b: Bytes,
}

/// Continuation bytes and lead bytes: `cur >= 0x80`.
const HIGH: Bytes = Bytes(nibbles(&[8, 9, 10, 11, 12, 13, 14, 15]), ALL);

/// The two spaces of eight patterns. What each one ends (the rules of
/// `utf8lint-diagnostics`, `text_scan::is_candidate`, test the exact bytes).
const SPACES: [[Pattern; 8]; 2] = [
    [
        // C1 controls U+0080..U+009F: `C2 80`..`C2 9F`.
        Pattern {
            z: ANY,
            a: byte(0xC2),
            b: Bytes(nibbles(&[8, 9]), ALL),
        },
        // U+00AC `¬` (the Mac Roman mojibake lead) and U+00AD SOFT HYPHEN.
        Pattern {
            z: ANY,
            a: byte(0xC2),
            b: Bytes(nibbles(&[10]), nibbles(&[12, 13])),
        },
        // U+061C ARABIC LETTER MARK: `D8 9C`.
        Pattern {
            z: ANY,
            a: byte(0xD8),
            b: byte(0x9C),
        },
        // U+1160 HANGUL JUNGSEONG FILLER region `E1 85`, U+3164 `E3 85`.
        Pattern {
            z: ANY,
            a: Bytes(nibbles(&[14]), nibbles(&[1, 3])),
            b: byte(0x85),
        },
        // U+180E `E1 A0`, the tags and variation selectors `F3 A0` (with
        // `E3 A0`, `F1 A0`: rare CJK extension A, unassigned planes).
        Pattern {
            z: ANY,
            a: Bytes(nibbles(&[14, 15]), nibbles(&[1, 3])),
            b: byte(0xA0),
        },
        // U+FDC0.., U+FE00.. (variation selectors), U+FF80.., U+FFC0..
        // (halfwidth fillers, noncharacters): `EF B7`, `EF B8`, `EF BE`, `EF BF`.
        Pattern {
            z: ANY,
            a: byte(0xEF),
            b: Bytes(nibbles(&[11]), nibbles(&[7, 8, 14, 15])),
        },
        // The planes' noncharacters: a four-byte lead, any byte, `BF`.
        Pattern {
            z: Bytes(nibbles(&[15]), nibbles(&[0, 1, 2, 3, 4])),
            a: ANY,
            b: byte(0xBF),
        },
        // Mojibake: `Â`..`ô` (a lead byte read as windows-1252 or
        // ISO-8859-1) and the first byte of the next character, a
        // continuation byte read the same way: `C2` (`\u{80}`..`¿`), `C5`
        // (`Š`, `Œ`, ...), `C6` (`ƒ`), `CB` (`ˆ`, `˜`), `E2` (`€`, `’`, ...)
        // (with `E5`, `E6`, `EB`: an accented letter right before a CJK
        // ideograph or Hangul).
        Pattern {
            z: byte(0xC3),
            a: Bytes(nibbles(&[8, 9, 10, 11]), ALL),
            b: Bytes(nibbles(&[12, 14]), nibbles(&[2, 5, 6, 11])),
        },
    ],
    [
        // Mac Roman mojibake lead `Ô` (`EF`) and a non-ASCII byte.
        Pattern {
            z: byte(0xC3),
            a: byte(0x94),
            b: HIGH,
        },
        // U+200B..U+200F, U+202A..U+202E (with U+200A, U+202F):
        // `E2 80 8A`..`8F`, `E2 80 AA`..`AF`.
        Pattern {
            z: byte(0xE2),
            a: byte(0x80),
            b: Bytes(nibbles(&[8, 10]), nibbles(&[10, 11, 12, 13, 14, 15])),
        },
        // U+2060, U+2066..U+2069: `E2 81 A0`, `E2 81 A6`..`A9`.
        Pattern {
            z: byte(0xE2),
            a: byte(0x81),
            b: Bytes(nibbles(&[10]), nibbles(&[0, 6, 7, 8, 9])),
        },
        // Mac Roman mojibake leads `‚` (`E2 80 9A`) and `√` (`E2 88 9A`).
        Pattern {
            z: byte(0xE2),
            a: Bytes(nibbles(&[8]), nibbles(&[0, 8])),
            b: byte(0x9A),
        },
        // Mac Roman mojibake leads `∆` (`E2 88 86`) and `≈` (`E2 89 88`).
        Pattern {
            z: byte(0xE2),
            a: Bytes(nibbles(&[8]), nibbles(&[8, 9])),
            b: Bytes(nibbles(&[8]), nibbles(&[6, 8])),
        },
        // C0 controls but tab, LF, FF and CR: `00`..`08`, `0B`, `0E`, `0F`,
        Pattern {
            z: ANY,
            a: ANY,
            b: Bytes(
                nibbles(&[0]),
                nibbles(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 14, 15]),
            ),
        },
        // `10`..`1F`,
        Pattern {
            z: ANY,
            a: ANY,
            b: Bytes(nibbles(&[1]), ALL),
        },
        // and DEL.
        Pattern {
            z: ANY,
            a: ANY,
            b: byte(0x7F),
        },
    ],
];

/// Which nibble of which byte a table is indexed by.
#[derive(Clone, Copy)]
pub(crate) enum Index {
    Prev2High,
    Prev2Low,
    Prev1High,
    Prev1Low,
    CurHigh,
    CurLow,
}

/// The lookup table of `space` for `index`: bit `k` of entry `n` is set
/// when pattern `k` allows nibble value `n` there.
pub(crate) const fn table(space: usize, index: Index) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 8 {
        let p = SPACES[space][k];
        let set = match index {
            Index::Prev2High => p.z.0,
            Index::Prev2Low => p.z.1,
            Index::Prev1High => p.a.0,
            Index::Prev1Low => p.a.1,
            Index::CurHigh => p.b.0,
            Index::CurLow => p.b.1,
        };
        let mut n = 0;
        while n < 16 {
            if set & (1 << n) != 0 {
                t[n] |= 1 << k;
            }
            n += 1;
        }
        k += 1;
    }
    t
}

/// Whether a text candidate ends at `cur`, after `prev1` and `prev2` (0
/// before the start of the input): what every build of the kernel finds
/// (each tests a superset of it: the 256-bit builds two spaces of nibble
/// patterns, the 512-bit one eight patterns over byte sets).
///
/// ```
/// use utf8lint_codec::ends_text_candidate;
/// // U+202E RIGHT-TO-LEFT OVERRIDE ends at its third byte.
/// assert!(ends_text_candidate(0xE2, 0x80, 0xAE));
/// // U+2019 RIGHT SINGLE QUOTATION MARK ends nothing.
/// assert!(!ends_text_candidate(0xE2, 0x80, 0x99));
/// ```
pub fn ends_text_candidate(prev2: u8, prev1: u8, cur: u8) -> bool {
    ends_nibble_candidate(prev2, prev1, cur) && ends_byte_set_candidate(prev2, prev1, cur)
}

/// The 256-bit kernels' test, byte by byte: the two spaces of nibble
/// patterns.
pub(crate) fn ends_nibble_candidate(prev2: u8, prev1: u8, cur: u8) -> bool {
    let high = |b: u8| usize::from(b >> 4);
    let low = |b: u8| usize::from(b & 0x0F);
    SCALAR_TABLES.iter().any(|t| {
        t[0][high(prev2)]
            & t[1][low(prev2)]
            & t[2][high(prev1)]
            & t[3][low(prev1)]
            & t[4][high(cur)]
            & t[5][low(cur)]
            != 0
    })
}

/// Each space's tables in the order `prev2` high and low nibble, `prev1`
/// high and low, `cur` high and low.
const SCALAR_TABLES: [[[u8; 16]; 6]; 2] = {
    let mut out = [[[0u8; 16]; 6]; 2];
    let mut space = 0;
    while space < 2 {
        out[space] = [
            table(space, Index::Prev2High),
            table(space, Index::Prev2Low),
            table(space, Index::Prev1High),
            table(space, Index::Prev1Low),
            table(space, Index::CurHigh),
            table(space, Index::CurLow),
        ];
        space += 1;
    }
    out
};

/// The byte sets of the 512-bit kernel's patterns: with AVX-512 VBMI one
/// `vpermi2b` looks a byte up in a 128-entry table, so a pattern is a
/// product of any three sets of bytes, not only of nibble sets, and eight
/// of them (one bit each, [`BYTE_SET_PATTERNS`]) hold what the nibble
/// patterns need sixteen for. The tables are indexed by a byte's low seven
/// bits: `prev2` and `prev1` unmasked (an ASCII byte reads the entry of the
/// byte 0x80 above it, which only matters where an ASCII byte is followed
/// by a continuation byte, in ill-formed input, whose blocks nobody
/// reads), `cur` only where its high bit is set (every pattern ends at a
/// non-ASCII byte). Controls, which end at an ASCII byte, have their own
/// table, looked up only where the high bit is clear.
struct BytePattern {
    z: &'static [core::ops::RangeInclusive<u8>],
    a: &'static [core::ops::RangeInclusive<u8>],
    b: &'static [core::ops::RangeInclusive<u8>],
}

const ANY_BYTE: &[core::ops::RangeInclusive<u8>] = &[0x00..=0xFF];

/// The eight patterns of the 512-bit kernel, each the union of some of the
/// nibble patterns' (the extra byte triples they admit are rare in text:
/// CJK extension A, Tagalog, private use, mathematical operators).
const BYTE_SET_PATTERNS: [BytePattern; 8] = [
    // C1 controls `C2 80`..`C2 9F`, `¬` and SOFT HYPHEN `C2 AC`, `C2 AD`.
    BytePattern {
        z: ANY_BYTE,
        a: &[0xC2..=0xC2],
        b: &[0x80..=0x9F, 0xAC..=0xAD],
    },
    // U+061C `D8 9C`; U+115F, U+1160 `E1 85`; U+180E `E1 A0`; U+3164
    // `E3 85`; tags and variation selectors `F3 A0` (and `E3 A0`, `F1 ..`).
    BytePattern {
        z: ANY_BYTE,
        a: &[
            0xD8..=0xD8,
            0xE1..=0xE1,
            0xE3..=0xE3,
            0xF1..=0xF1,
            0xF3..=0xF3,
        ],
        b: &[0x85..=0x85, 0x9C..=0x9C, 0xA0..=0xA0],
    },
    // U+FDC0.., U+FE00.., U+FF80.., U+FFC0..: `EF B7`, `B8`, `BE`, `BF`;
    // and U+FEC0.. (`EF BB`), for U+FEFF: the 512-bit kernel finds the
    // marks (U+FEFF, U+FFFD) in the blocks this pattern reports instead of
    // testing for them apart (the other characters of U+FEC0..U+FEFE are
    // Arabic presentation forms, rare in text).
    BytePattern {
        z: ANY_BYTE,
        a: &[0xEF..=0xEF],
        b: &[0xB7..=0xB8, 0xBB..=0xBB, 0xBE..=0xBF],
    },
    // The planes' noncharacters: `F0`..`F4`, `8F`/`9F`/`AF`/`BF`, `BF`.
    BytePattern {
        z: &[0xF0..=0xF4],
        a: &[0x8F..=0x8F, 0x9F..=0x9F, 0xAF..=0xAF, 0xBF..=0xBF],
        b: &[0xBF..=0xBF],
    },
    // Mojibake: `Â`..`ô` and the next character's first byte, a
    // continuation byte read as windows-1252 or ISO-8859-1.
    BytePattern {
        z: &[0xC3..=0xC3],
        a: &[0x80..=0xBF],
        b: &[0xC2..=0xC2, 0xC5..=0xC6, 0xCB..=0xCB, 0xE2..=0xE2],
    },
    // Mac Roman mojibake lead `Ô` and a non-ASCII byte.
    BytePattern {
        z: &[0xC3..=0xC3],
        a: &[0x94..=0x94],
        b: &[0x80..=0xFF],
    },
    // U+200A..U+200F, U+202A..U+202F, Mac Roman `‚`: `E2 80` and `8A`..`8F`,
    // `AA`..`AF`, `9A`.
    BytePattern {
        z: &[0xE2..=0xE2],
        a: &[0x80..=0x80],
        b: &[0x8A..=0x8F, 0x9A..=0x9A, 0xAA..=0xAF],
    },
    // U+2060, U+2066..U+2069, Mac Roman `√`, `∆`, `≈`: `E2 81`, `88`, `89`
    // and `A0`, `A6`..`A9`, `9A`, `86`, `88`.
    BytePattern {
        z: &[0xE2..=0xE2],
        a: &[0x81..=0x81, 0x88..=0x89],
        b: &[
            0x86..=0x86,
            0x88..=0x88,
            0x9A..=0x9A,
            0xA0..=0xA0,
            0xA6..=0xA9,
        ],
    },
];

/// C0 controls but tab, LF, FF and CR, and DEL.
const CONTROLS: &[core::ops::RangeInclusive<u8>] =
    &[0x00..=0x08, 0x0B..=0x0B, 0x0E..=0x1F, 0x7F..=0x7F];

const fn in_sets(sets: &[core::ops::RangeInclusive<u8>], b: u8) -> bool {
    let mut i = 0;
    while i < sets.len() {
        if *sets[i].start() <= b && b <= *sets[i].end() {
            return true;
        }
        i += 1;
    }
    false
}

/// Which 128-entry table of the 512-bit kernel.
#[derive(Clone, Copy)]
pub(crate) enum ByteTable {
    /// By `prev2`'s low seven bits.
    Prev2,
    /// By `prev1`'s low seven bits.
    Prev1,
    /// By a non-ASCII `cur`'s low seven bits.
    Cur,
    /// By an ASCII `cur`: non-zero for a control.
    Control,
}

/// The 512-bit kernel's table `which`: bit `k` of entry `n` is set when
/// pattern `k` allows there the byte the entry stands for (`n`, or `n |
/// 0x80` for `Cur`; for `Prev2` and `Prev1`, either).
pub(crate) const fn byte_table(which: ByteTable) -> [u8; 128] {
    let mut t = [0u8; 128];
    let mut n = 0;
    while n < 128 {
        let mut k = 0;
        while k < 8 {
            let p = &BYTE_SET_PATTERNS[k];
            let hit = match which {
                ByteTable::Prev2 => in_sets(p.z, n as u8) || in_sets(p.z, n as u8 | 0x80),
                ByteTable::Prev1 => in_sets(p.a, n as u8) || in_sets(p.a, n as u8 | 0x80),
                ByteTable::Cur => in_sets(p.b, n as u8 | 0x80),
                ByteTable::Control => k == 0 && in_sets(CONTROLS, n as u8),
            };
            if hit {
                t[n] |= 1 << k;
            }
            k += 1;
        }
        n += 1;
    }
    t
}

const PREV2_TABLE: [u8; 128] = byte_table(ByteTable::Prev2);
const PREV1_TABLE: [u8; 128] = byte_table(ByteTable::Prev1);
const CUR_TABLE: [u8; 128] = byte_table(ByteTable::Cur);
const CONTROL_TABLE: [u8; 128] = byte_table(ByteTable::Control);

/// The 512-bit kernel's test, byte by byte, with its tables.
pub(crate) fn ends_byte_set_candidate(prev2: u8, prev1: u8, cur: u8) -> bool {
    let low = |b: u8| usize::from(b & 0x7F);
    if cur < 0x80 {
        CONTROL_TABLE[low(cur)] != 0
    } else {
        PREV2_TABLE[low(prev2)] & PREV1_TABLE[low(prev1)] & CUR_TABLE[low(cur)] != 0
    }
}

/// Whether `test` finds a text candidate ending anywhere in
/// `bytes[from..to]` (the bytes before `from` read as `prev1`, `prev2`).
#[cfg(test)]
pub(crate) fn candidate_ends_in(
    test: fn(u8, u8, u8) -> bool,
    bytes: &[u8],
    from: usize,
    to: usize,
) -> bool {
    let at = |i: usize| if i < bytes.len() { bytes[i] } else { 0 };
    (from..to).any(|i| {
        let prev = |n: usize| i.checked_sub(n).map_or(0, at);
        test(prev(2), prev(1), bytes[i])
    })
}

/// Whether a text candidate ([`ends_text_candidate`]) ends anywhere in
/// `bytes[from..to]`.
#[cfg(test)]
pub(crate) fn text_candidate_ends_in(bytes: &[u8], from: usize, to: usize) -> bool {
    candidate_ends_in(ends_text_candidate, bytes, from, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_ends_no_candidate() {
        let texts = [
            "fn main() {\n\tprintln!(\"{x}\");\r\n}\x0C\n",
            "L’été dernier, nous avons mangé des crêpes à Noël — « très » bien… ",
            "Größe über Äpfel, Grüße, naïve café, São Paulo, ção, ñandú",
            "日本語の文章です。中文文本，「引用」、《书名》 한국어 ｶｷｸ",
            "Русский текст, ελληνικά, עברית, العربية جميل",
            "😀 👍🏽 🇫🇷 “quoted” ‘single’ † ‡ • ‰ € ™",
        ];
        for text in texts {
            let b = text.as_bytes();
            for test in [ends_nibble_candidate, ends_byte_set_candidate] {
                let hits: alloc::vec::Vec<usize> = (0..b.len())
                    .filter(|&i| candidate_ends_in(test, b, i, i + 1))
                    .collect();
                assert!(hits.is_empty(), "{text:?}: {hits:?}");
            }
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
            "\u{180E}",
            "\u{200B}",
            "\u{200F}",
            "\u{202A}",
            "\u{202E}",
            "\u{2060}",
            "\u{2066}",
            "\u{2069}",
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
            let b = c.as_bytes();
            assert!(text_candidate_ends_in(b, 0, b.len()), "{c:?} {b:02X?}");
            assert!(
                candidate_ends_in(ends_byte_set_candidate, b, 0, b.len()),
                "{c:?} {b:02X?}"
            );
            assert!(
                candidate_ends_in(ends_nibble_candidate, b, 0, b.len()),
                "{c:?} {b:02X?}"
            );
        }
    }
}
