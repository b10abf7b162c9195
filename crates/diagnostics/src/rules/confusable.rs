//! U016 `mixed_script_confusable`: an identifier-like word that mixes
//! scripts the way Unicode Technical Standard #39 calls mixed-script
//! confusable: a Latin word with a Cyrillic `а` in it (`sayНello` beside
//! `sayHello`, CVE-2021-42694), or a Cyrillic word with a Latin `o`. The
//! tables are the `unicode-security` crate's, which rustc's
//! `confusable_idents` and `mixed_script_confusables` lints are built on.
//!
//! A word is a run of letters, digits, marks and `_`. It is reported when
//! it is not single-script (UTS #39's resolved script set is empty), it
//! has a main script with at least two letters, and every character of
//! its other scripts is one UTS #39 lists as confusable across scripts
//! (`is_potential_mixed_script_confusable_char`) with the skeleton of a
//! letter of the main script: so `Δx`, `μs`, `ππbbππ` and `API-ключ` (two
//! words) are left alone, and `pаypal` is not. Words with a letter UTS #39
//! restricts in identifiers, and lines with letters of three scripts
//! (random text), are left alone too. The finding shows the word's
//! skeleton, the string every confusable spelling of it maps to.
//!
//! Its own candidates, not the text pass's: the lead bytes of Greek,
//! Cyrillic, Armenian and Hebrew letters (`CD`..`D7`), which are ordinary
//! text for the other rules. On a valid file the codec's validator reports
//! the 4 KiB blocks that hold one in the pass that validates
//! (`candidates::CONFUSABLE`), so ASCII files and files in other scripts
//! cost U016 nothing more; one branch-free test per 64-byte chunk of those
//! blocks (or of the whole file, when it is not valid) finds the leads.
//! A line holding one is ruled out by its bytes when its words are ASCII
//! or of one alphabet (Cyrillic, Greek or Armenian) alone
//! ([`first_unclear`], which judges a run of such lines at once);
//! otherwise it is split into words, and a word of one script below
//! U+0800 ([`CharTable`]) skips the UTS #39 lookups.

use std::ops::Range;

use unicode_security::GeneralSecurityProfile;
use unicode_security::mixed_script::AugmentedScriptSet;
use utf8lint_codec::{BITS_CHUNK, ByteClass, ByteSet, find_by_bits};

mod catalogue;
mod letters;
mod table_source;
// Generated (`table_source.rs`): laid out as written.
#[rustfmt::skip]
mod tables;
mod word;

pub(crate) use table_source::tables_source;

use letters::is_mark;

use crate::Diagnostic;
use crate::rules::text_chars::Place;
use crate::shown::Capped;

/// The lead bytes of the characters U016 looks for, and their second
/// bytes: every two-byte letter of Greek, Cyrillic, Armenian and Hebrew
/// (`CD`..`D7`, any second byte), and the blocks of the other look-alikes
/// of Latin letters in UTS #39's confusables (`confusables.txt`): Latin
/// Extended-B and IPA (`C6`..`CA`, and the long `ſ`, `C5 BF`), every
/// two-byte Arabic letter (`D8`..`DB`: `ا` is like `l`, `ه` like `o`),
/// NKo letters shaped like `o` or `l`,
/// Cherokee (`E1 8E`, `E1 8F`, `EA AD`, `EA AE`), Canadian
/// syllabics, phonetic extensions, letterlike symbols and Roman numerals
/// (`E2 84`, `E2 85`), Coptic (`E2 B2`, `E2 B3`), Lisu (`EA 93`),
/// fullwidth and halfwidth forms (`EF BC`, `EF BD`, `EF BE`), Arabic
/// presentation forms (`EF AE`, `EF BA`, `EF BB`), and the four-byte mathematical
/// alphanumerics (`F0 9D`) and historic scripts (`F0 90`, `F0 91`,
/// `F0 96`). Indic letters and digits (`E0`), Hangul and Bopomofo letters
/// and CJK ideographs (`E3`, `E4`) that UTS #39 lists as like `o`, `l` or
/// `y` are not looked for: their blocks hold the bulk of Indic and CJK
/// text, every line of which would then be searched. Pairs, not whole leads, so that the dashes and
/// quotes of `E2 80`, CJK punctuation (`EF BC 8C`) and accented Latin
/// (`C3`, `C4`, `C5`) keep a line out.
#[rustfmt::skip]
const PAIRS: [[u8; 2]; 87] = [
    [0xC5, 0xBF], [0xEF, 0xAE], [0xEF, 0xBA], [0xEF, 0xBB], [0xEF, 0xBE],
    [0xC6, 0x84],
    [0xC6, 0x8D],
    [0xC6, 0x92],
    [0xC6, 0x96],
    [0xC6, 0xA6],
    [0xC6, 0xBD],
    [0xC6, 0xBF],
    [0xC7, 0x80],
    [0xC8, 0xB7],
    [0xC9, 0x8C],
    [0xC9, 0x91],
    [0xC9, 0xA1],
    [0xC9, 0xA3],
    [0xC9, 0xA9],
    [0xC9, 0xAA],
    [0xC9, 0xAF],
    [0xCA, 0x84],
    [0xCA, 0x8B],
    [0xCA, 0x8F],
    [0xDF, 0x80],
    [0xDF, 0x8A],
    [0xDF, 0x8B],
    [0xDF, 0x8C],
    [0xDF, 0x93],
    [0xDF, 0x95],
    [0xDF, 0xA0],
    [0xE1, 0x80],
    [0xE1, 0x81],
    [0xE1, 0x82],
    [0xE1, 0x83],
    [0xE1, 0x84],
    [0xE1, 0x86],
    [0xE1, 0x88],
    [0xE1, 0x8B],
    [0xE1, 0x8E],
    [0xE1, 0x8F],
    [0xE1, 0x90],
    [0xE1, 0x91],
    [0xE1, 0x92],
    [0xE1, 0x95],
    [0xE1, 0x96],
    [0xE1, 0x97],
    [0xE1, 0x9A],
    [0xE1, 0x9B],
    [0xE1, 0x9D],
    [0xE1, 0x9F],
    [0xE1, 0xA9],
    [0xE1, 0xAA],
    [0xE1, 0xAF],
    [0xE1, 0xB2],
    [0xE1, 0xB3],
    [0xE1, 0xB4],
    [0xE1, 0xB6],
    [0xE1, 0xBE],
    [0xE2, 0x84],
    [0xE2, 0x85],
    [0xE2, 0x93],
    [0xE2, 0xB1],
    [0xE2, 0xB2],
    [0xE2, 0xB3],
    [0xE2, 0xB4],
    [0xE2, 0xB5],
    [0xEA, 0x93],
    [0xEA, 0x94],
    [0xEA, 0x95],
    [0xEA, 0x97],
    [0xEA, 0x99],
    [0xEA, 0x9B],
    [0xEA, 0x9C],
    [0xEA, 0x9E],
    [0xEA, 0x9F],
    [0xEA, 0xAC],
    [0xEA, 0xAD],
    [0xEA, 0xAE],
    [0xEF, 0xBC],
    [0xEF, 0xBD],
    [0xF0, 0x90],
    [0xF0, 0x91],
    [0xF0, 0x96],
    [0xF0, 0x9C],
    [0xF0, 0x9D],
    [0xF0, 0x9E],
];

/// [`PAIRS`] and the Greek to Arabic leads as bits: for each lead byte
/// `C0`..`FF`, the low six bits of the second bytes that follow it.
const PAIR_BITS: [u64; 64] = {
    let mut bits = [0u64; 64];
    let mut lead = 0xCD;
    while lead <= 0xDB {
        bits[lead - 0xC0] = u64::MAX;
        lead += 1;
    }
    let mut k = 0;
    while k < PAIRS.len() {
        let [lead, second] = PAIRS[k];
        bits[(lead - 0xC0) as usize] |= 1 << (second & 0x3F);
        k += 1;
    }
    bits
};

/// The look-alikes of three and four bytes that [`PAIRS`] admits, from UTS
/// #39's confusables (every letter or digit whose skeleton is an ASCII
/// letter's), but the mathematical alphanumerics (U+1D400..U+1D7FF, tested
/// as a range): the pairs alone would take in whole scripts (Georgian,
/// Ethiopic, Myanmar) for one look-alike each.
#[rustfmt::skip]
const WIDE: [u32; 442] = [
    0x1004, 0x101D, 0x1040, 0x105A, 0x10B9, 0x10BD, 0x10CD, 0x10E7, 0x10FD, 0x10FF,
    0x110B, 0x11BC, 0x1200, 0x12D0, 0x13A0, 0x13A1, 0x13A2, 0x13A5, 0x13A9, 0x13AA,
    0x13AB, 0x13AC, 0x13B3, 0x13B7, 0x13BB, 0x13BD, 0x13C0, 0x13C2, 0x13C3, 0x13CF,
    0x13D2, 0x13D4, 0x13D5, 0x13D9, 0x13DA, 0x13DE, 0x13DF, 0x13E2, 0x13E6, 0x13E7,
    0x13F3, 0x13F4, 0x142F, 0x144C, 0x146D, 0x146F, 0x1472, 0x148D, 0x14AA, 0x1541,
    0x157C, 0x157D, 0x1587, 0x15AF, 0x15B4, 0x15C5, 0x15DE, 0x15EA, 0x15F0, 0x15F7,
    0x16B7, 0x16C1, 0x16D0, 0x16D5, 0x16D6, 0x1763, 0x17E0, 0x1A45, 0x1A80, 0x1A90,
    0x1BEA, 0x1BEC, 0x1C82, 0x1C83, 0x1CBD, 0x1CBF, 0x1CF5, 0x1D04, 0x1D0F, 0x1D11,
    0x1D1C, 0x1D20, 0x1D21, 0x1D22, 0x1D26, 0x1D83, 0x1D8C, 0x1E9D, 0x1EFF, 0x1FBE,
    0x2102, 0x210A, 0x210B, 0x210C, 0x210D, 0x210E, 0x2110, 0x2111, 0x2112, 0x2113,
    0x2115, 0x2119, 0x211A, 0x211B, 0x211C, 0x211D, 0x2124, 0x2128, 0x212A, 0x212C,
    0x212D, 0x212F, 0x2130, 0x2131, 0x2133, 0x2134, 0x2139, 0x213D, 0x2145, 0x2146,
    0x2147, 0x2148, 0x2149, 0x2160, 0x2164, 0x2169, 0x216C, 0x216D, 0x216E, 0x216F,
    0x2170, 0x2174, 0x2179, 0x217C, 0x217D, 0x217E, 0x217F, 0x2C6B, 0x2C6C, 0x2C82,
    0x2C85, 0x2C8C, 0x2C8D, 0x2C8E, 0x2C92, 0x2C93, 0x2C94, 0x2C98, 0x2C9A, 0x2C9E,
    0x2C9F, 0x2CA2, 0x2CA3, 0x2CA4, 0x2CA5, 0x2CA6, 0x2CA8, 0x2CA9, 0x2CAC, 0x2CBD,
    0x2CCE, 0x2CCF, 0x2CD0, 0x2D2D, 0x2D38, 0x2D39, 0x2D4A, 0x2D4F, 0x2D54, 0x2D55,
    0x2D5D, 0xA4D0, 0xA4D1, 0xA4D2, 0xA4D3, 0xA4D4, 0xA4D6, 0xA4D7, 0xA4D9, 0xA4DA,
    0xA4DC, 0xA4DD, 0xA4DF, 0xA4E0, 0xA4E1, 0xA4E2, 0xA4E3, 0xA4E6, 0xA4E7, 0xA4EA,
    0xA4EB, 0xA4EC, 0xA4EE, 0xA4F0, 0xA4F2, 0xA4F3, 0xA4F4, 0xA50B, 0xA557, 0xA56F,
    0xA576, 0xA5CB, 0xA647, 0xA6C9, 0xA6DF, 0xA731, 0xA781, 0xA798, 0xA799, 0xA79F,
    0xA7AE, 0xA7B2, 0xA7B3, 0xA7B4, 0xA7FA, 0xA7FE, 0xA830, 0xAB32, 0xAB35, 0xAB3D,
    0xAB47, 0xAB48, 0xAB4E, 0xAB52, 0xAB5A, 0xAB64, 0xAB75, 0xAB81, 0xAB83, 0xAB93,
    0xABA4, 0xABA9, 0xABAA, 0xABAF, 0xFBA6, 0xFBA7, 0xFBA8, 0xFBA9, 0xFBAA, 0xFBAB,
    0xFBAC, 0xFBAD, 0xFE8D, 0xFE8E, 0xFEE9, 0xFEEA, 0xFEEB, 0xFEEC, 0xFF10, 0xFF11,
    0xFF21, 0xFF22, 0xFF23, 0xFF24, 0xFF25, 0xFF26, 0xFF27, 0xFF28, 0xFF29, 0xFF2A,
    0xFF2B, 0xFF2C, 0xFF2D, 0xFF2E, 0xFF2F, 0xFF30, 0xFF31, 0xFF32, 0xFF33, 0xFF34,
    0xFF35, 0xFF36, 0xFF37, 0xFF38, 0xFF39, 0xFF3A, 0xFF41, 0xFF42, 0xFF43, 0xFF44,
    0xFF45, 0xFF46, 0xFF47, 0xFF48, 0xFF49, 0xFF4A, 0xFF4B, 0xFF4C, 0xFF4D, 0xFF4E,
    0xFF4F, 0xFF50, 0xFF51, 0xFF52, 0xFF53, 0xFF54, 0xFF55, 0xFF56, 0xFF57, 0xFF58,
    0xFF59, 0xFF5A, 0xFFB7, 0x1018B, 0x10282, 0x10286, 0x10287, 0x1028A, 0x10290, 0x10292,
    0x10295, 0x10296, 0x10297, 0x102A0, 0x102A1, 0x102A2, 0x102A5, 0x102AB, 0x102B0, 0x102B1,
    0x102B2, 0x102B4, 0x102CF, 0x102F5, 0x10301, 0x10302, 0x10309, 0x1030F, 0x10311, 0x10315,
    0x10317, 0x1031C, 0x10320, 0x10322, 0x10404, 0x10415, 0x1041B, 0x10420, 0x1042C, 0x1043D,
    0x10448, 0x104B4, 0x104C2, 0x104CE, 0x104EA, 0x104F6, 0x10507, 0x1050E, 0x10513, 0x10516,
    0x10518, 0x1051B, 0x1051D, 0x10525, 0x10526, 0x10527, 0x10926, 0x1092C, 0x10C13, 0x10C17,
    0x10C1F, 0x10C20, 0x10C21, 0x10C3E, 0x10C82, 0x10CA5, 0x10CC2, 0x10CFA, 0x10CFC, 0x10D07,
    0x11124, 0x11302, 0x114D0, 0x11700, 0x11706, 0x1170A, 0x1170E, 0x1170F, 0x118A0, 0x118A2,
    0x118A3, 0x118A4, 0x118A6, 0x118A9, 0x118AE, 0x118B2, 0x118B5, 0x118B8, 0x118BC, 0x118C0,
    0x118C1, 0x118C2, 0x118C3, 0x118C4, 0x118C8, 0x118D7, 0x118D8, 0x118DC, 0x118E0, 0x118E3,
    0x118E5, 0x118E6, 0x118E9, 0x118EC, 0x118EF, 0x118F2, 0x11ABC, 0x11ABE, 0x11DDA, 0x11DE0,
    0x11DE1, 0x16A19, 0x16AD6, 0x16AE9, 0x16D63, 0x16EAA, 0x16EB6, 0x16F08, 0x16F0A, 0x16F16,
    0x16F28, 0x16F35, 0x16F3A, 0x16F40, 0x16F42, 0x16F43, 0x1CCF0, 0x1CCF1, 0x1D373, 0x1D377,
    0x1E140, 0x1E141, 0x1E145, 0x1E2F0, 0x1E8C7, 0x1ED01, 0x1EE00, 0x1EE24, 0x1EE80, 0x1EE84,
    0x1FBF0, 0x1FBF1,
];

/// [`WIDE`]'s characters of three bytes by their first two: for each lead
/// `E0`..`EF` and second byte (the low six bits of each, as an index),
/// the low six bits of their third bytes. The test of a three-byte
/// character is then a lookup, not a search of [`WIDE`] (the comma of
/// Chinese text, `EF BC 8C`, is a pair of [`PAIRS`]).
static THIRD_BITS: [u64; 16 * 64] = {
    let mut bits = [0u64; 16 * 64];
    let mut k = 0;
    while k < WIDE.len() {
        let cp = WIDE[k];
        if cp >= 0x800 && cp < 0x10000 {
            let pair = ((cp >> 12) & 0x0F) << 6 | ((cp >> 6) & 0x3F);
            bits[pair as usize] |= 1 << (cp & 0x3F);
        }
        k += 1;
    }
    bits
};

/// Whether the bytes from `at` start a character U016 looks for: a pair of
/// [`PAIR_BITS`], and for three and four bytes one of [`WIDE`] or a
/// mathematical letter (bytes past the end of `bytes` may be anything).
#[inline(always)]
fn is_lead(bytes: &[u8], at: usize) -> bool {
    let b = bytes[at];
    let b1 = bytes.get(at + 1).copied();
    if b < 0xC0
        || PAIR_BITS[usize::from(b - 0xC0)] & b1.map_or(u64::MAX, |b1| 1 << (b1 & 0x3F)) == 0
    {
        return false;
    }
    if b < 0xE0 {
        return true;
    }
    let len = if b < 0xF0 { 3 } else { 4 };
    let Some(tail) = bytes.get(at + 1..at + len) else {
        return true;
    };
    if len == 3 {
        let pair = usize::from(b & 0x0F) << 6 | usize::from(tail[0] & 0x3F);
        return THIRD_BITS[pair] & 1 << (tail[1] & 0x3F) != 0;
    }
    let cp = tail.iter().fold(u32::from(b) & (0x7F >> len), |cp, &t| {
        cp << 6 | u32::from(t & 0x3F)
    });
    (0x1D400..=0x1D7FF).contains(&cp) || WIDE.binary_search(&cp).is_ok()
}

/// The first bytes of [`PAIRS`] and of the Greek to Arabic letters
/// (`candidates::CONFUSABLE_FIRSTS`, the set the codec's validator reports
/// the blocks of) as ranges, for the codec's gathering of them as bits
/// ([`find_by_bits`]) and the test of one byte.
const FIRSTS: ByteClass<4> = ByteClass::new(crate::candidates::CONFUSABLE_FIRSTS);

/// Bytes [`next_lead`] tests one at a time before it takes whole chunks:
/// from the end of a word, the next Cyrillic or Greek word is near.
const NEAR: usize = 16;

/// The first offset at or after `from` of a character U016 looks for
/// ([`is_lead`]): the first [`NEAR`] bytes one at a time, then per 64-byte
/// chunk the bits of its first bytes ([`FIRSTS`], gathered by the codec)
/// and the exact test at each of them alone. Blocks of Polish, Korean or
/// Vietnamese text, or of English with typographic quotes, hold first bytes
/// that start no look-alike (`C5 82`, `EA B0`, `E1 BA`, `E2 80`) in most
/// chunks; each costs one table lookup, not a test of every byte of its
/// chunk.
fn next_lead(bytes: &[u8], from: usize) -> Option<usize> {
    let near_end = bytes.len().min(from.saturating_add(NEAR));
    if let Some(i) = (from..near_end).find(|&i| FIRSTS.contains(bytes[i]) && is_lead(bytes, i)) {
        return Some(i);
    }
    find_by_bits(bytes, near_end, &[FIRSTS], |at, [mut firsts]| {
        while firsts != 0 {
            let i = at + firsts.trailing_zeros() as usize;
            if is_lead(bytes, i) {
                return Some(i);
            }
            firsts &= firsts - 1;
        }
        None
    })
}

/// U016 over `bytes`: each line holding a lead byte, split into words.
/// With `blocks` (in order, not overlapping: those in which the codec's
/// validator saw a lead byte, `candidates::CONFUSABLE`), the leads are
/// searched for in them alone; a line is read whole wherever it ends.
/// Lines that are not well-formed UTF-8 are skipped (U001 reports them).
///
/// From a lead on, the lines up to the block's last are judged together
/// by their bytes ([`first_unclear`]) under the alphabet of the last line
/// read: only a line holding a byte that the test cannot clear is looked
/// at alone. A translation catalogue's lines of one script then cost one
/// vector pass, not a search for each line's ends and a test of its own.
pub(crate) fn pass(
    bytes: &[u8],
    blocks: Option<&[Range<usize>]>,
    place: Option<&Place>,
    out: &mut Capped,
) {
    let whole = 0..bytes.len();
    // The end of the last line read.
    let mut from = 0;
    for block in blocks.unwrap_or(std::slice::from_ref(&whole)) {
        let block_end = block.end.min(bytes.len());
        let searched = &bytes[..block_end];
        while let Some(i) = next_lead(searched, block.start.max(from)) {
            // Every line from the lead's to the one holding the block's
            // last byte meets the block: the validator saw all their leads.
            let end = line_end(bytes, block_end - 1);
            let lines = &bytes[..end];
            let mut at = line_start(bytes, from, i);
            let mut alphabet = None;
            // Under no alphabet (before the first line read, after one of
            // none, or after a line without a lead that the test could not
            // clear: accented Latin text, where the test would stop at
            // every line), the next line with a lead is searched for.
            while let Some(k) = match alphabet {
                Some(alphabet) => first_unclear(lines, at, alphabet),
                None => next_lead(lines, at),
            } {
                let line = line_start(bytes, at, k)..line_end(bytes, k);
                alphabet = read_line(bytes, line.clone(), alphabet, place, out).flatten();
                at = line.end;
            }
            from = end;
        }
    }
}

/// The offset of the start of the line holding `i`, not before `floor`
/// (a line start).
fn line_start(bytes: &[u8], floor: usize, i: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[floor..i]).map_or(floor, |k| floor + k + 1)
}

/// The offset just past the end of the line holding `i` (its newline
/// included).
fn line_end(bytes: &[u8], i: usize) -> usize {
    memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |k| i + k + 1)
}

/// U016 on the line `line` of `bytes`, if it holds a lead byte, unless its
/// bytes clear it under the alphabet of its first letter. `Some` with that
/// alphabet (`None` for a letter of none) when the line holds a lead;
/// `None` when it holds none (it is not read).
///
/// A line that held a byte the test under `judged` could not clear is not
/// cleared by the same test on its own (the bytes past its end, which the
/// test reads across, change nothing in a well-formed line: a lead byte
/// is never last before a newline), so that test is not repeated.
fn read_line(
    bytes: &[u8],
    line: Range<usize>,
    judged: Option<Alphabet>,
    place: Option<&Place>,
    out: &mut Capped,
) -> Option<Option<Alphabet>> {
    let text = &bytes[line.clone()];
    let lead = next_lead(text, 0)?;
    let alphabet = Alphabet::of(text[lead], text.get(lead + 1).copied().unwrap_or(0));
    let clear = alphabet.is_some_and(|a| judged != Some(a) && first_unclear(text, 0, a).is_none());
    if !clear && let Ok(text) = std::str::from_utf8(text) {
        line_words(bytes, text, line.start, place, out);
    }
    Some(alphabet)
}

/// A script whose lines [`first_unclear`] judges by their bytes: a range
/// of its two-byte characters ([`Alphabet::bounds`]). Each of them that
/// belongs in a word has the script among its own (or is of every
/// script), so a word of them and of the [`neutral`] ones it takes is
/// single-script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alphabet {
    /// U+0400..U+04FF, the bulk of the lines U016 reads.
    Cyrillic,
    /// U+0380..U+03E1, before the Coptic letters (the first four are
    /// unassigned).
    Greek,
    /// U+0531..U+058F.
    Armenian,
    /// U+0600..U+06FF: Arabic, Persian and Urdu letters, digits and
    /// punctuation (all of them Arabic among their scripts).
    Arabic,
}

const ALPHABETS: [Alphabet; 4] = [
    Alphabet::Cyrillic,
    Alphabet::Greek,
    Alphabet::Armenian,
    Alphabet::Arabic,
];

impl Alphabet {
    /// The first and last characters (lead and continuation byte, which
    /// order as the code points do), and whether the [`neutral`]
    /// characters, which have this script among theirs, stand in its
    /// words.
    #[inline(always)]
    const fn bounds(self) -> ([u8; 2], [u8; 2], bool) {
        match self {
            Alphabet::Cyrillic => ([0xD0, 0x80], [0xD3, 0xBF], true),
            Alphabet::Greek => ([0xCE, 0x80], [0xCF, 0xA1], false),
            Alphabet::Armenian => ([0xD4, 0xB1], [0xD6, 0x8F], false),
            Alphabet::Arabic => ([0xD8, 0x80], [0xDB, 0xBF], false),
        }
    }

    /// The lead bytes all of whose characters are the alphabet's, first
    /// and last: Cyrillic `D0`..`D3`, Greek `CE`, Armenian `D5`.
    #[inline(always)]
    const fn whole_leads(self) -> (u8, u8) {
        let ([lead, from], [last, to], _) = self.bounds();
        let first = if from == 0x80 { lead } else { lead + 1 };
        let last = if to == 0xBF { last } else { last - 1 };
        (first, last)
    }

    /// The alphabet of the two-byte character `b, b1`, if any.
    fn of(b: u8, b1: u8) -> Option<Alphabet> {
        ALPHABETS.into_iter().find(|a| a.holds(b, b1))
    }

    /// Whether `b, b1` is one of the alphabet's characters.
    #[inline(always)]
    fn holds(self, b: u8, b1: u8) -> bool {
        let ([lead, from], [last, to], _) = self.bounds();
        let between = b.wrapping_sub(lead + 1) < last - lead - 1;
        // In well-formed text a continuation byte is 80..BF: no test at
        // an end that takes them all.
        let first = (b == lead) & ((from == 0x80) | (b1 >= from));
        let final_ = (b == last) & ((to == 0xBF) | (b1 <= to));
        between | first | final_
    }

    /// Whether `b, b1` is one of the alphabet's characters or a
    /// [`neutral`] one it takes.
    #[inline(always)]
    fn letter(self, b: u8, b1: u8) -> bool {
        self.holds(b, b1) | (self.bounds().2 & neutral(b, b1))
    }
}

/// Word characters of several scripts, Cyrillic among them, that stand
/// inside Cyrillic words: the modifier letter apostrophe (U+02BC,
/// Ukrainian `відʼємним`) and the combining grave and acute accents
/// (U+0300, U+0301: stress marks, Bulgarian `промѐни`).
#[inline(always)]
fn neutral(b: u8, b1: u8) -> bool {
    ((b == 0xCA) & (b1 == 0xBC)) | ((b == 0xCC) & (b1 & 0xFE == 0x80))
}

/// ASCII letters, digits and `_`: what makes a word with a letter beside
/// it.
const WORD_BYTES: ByteClass<4> = ByteClass::new(
    ByteSet::range(b'0', b'9')
        .union(ByteSet::range(b'A', b'Z'))
        .union(ByteSet::range(b'a', b'z'))
        .union(ByteSet::of(b"_")),
);

/// The lead bytes that [`first_unclear`] takes for a letter's beside an
/// ASCII word character: every lead but `C2` and `E2`, whose characters
/// there are the punctuation it allows or, if not, ruled out at their own
/// offset.
const LETTER_LEADS: ByteClass<4> =
    ByteClass::new(ByteSet::range(0xC0, 0xFF).minus(ByteSet::of(&[0xC2, 0xE2])));

/// For each alphabet (in the order of [`ALPHABETS`]), the lead bytes that
/// are not all of its letters ([`Alphabet::whole_leads`]): where its test
/// looks at the byte after them.
const OTHER_LEADS: [ByteClass<4>; 4] = [
    other_leads(Alphabet::Cyrillic),
    other_leads(Alphabet::Greek),
    other_leads(Alphabet::Armenian),
    other_leads(Alphabet::Arabic),
];

const fn other_leads(alphabet: Alphabet) -> ByteClass<4> {
    let (first, last) = alphabet.whole_leads();
    ByteClass::new(ByteSet::range(0xC0, 0xFF).minus(ByteSet::range(first, last)))
}

/// The first offset at or after `from` in `lines` (whole lines) of a byte
/// that keeps its line from being cleared by its bytes: a line without
/// one has words of ASCII alone or of the characters of `alphabet` and
/// the [`neutral`] ones it takes alone, so none mixes scripts. Its other
/// non-ASCII characters are the no-break space, `«`, `»` and General
/// Punctuation (U+2000..U+203F: dashes, quotes; no word characters), and
/// no ASCII letter, digit or `_` stands next to a letter of the alphabet
/// or a neutral one, but a letter an escape or a format takes before one
/// ([`is_escaped`]). A translation catalogue's lines are mostly cleared
/// here in one look at their bytes instead of being split into words.
///
/// The answer holds for well-formed lines, the only kind the pass reads
/// (it skips the others whatever this says). There, every byte from `C0`
/// up is a lead byte and each character of the alphabet is two bytes, so
/// each byte is tested with the two after it, with no state carried from
/// one to the next: 64 bytes at a time in vector compares, one loop per
/// alphabet with its bytes as constants.
fn first_unclear(lines: &[u8], mut from: usize, alphabet: Alphabet) -> Option<usize> {
    loop {
        let k = first_unclear_in(lines, from, alphabet)?;
        // Each offset is judged alone: the test goes on from the next.
        if !is_escaped(lines, k) {
            return Some(k);
        }
        from = k + 1;
    }
}

/// [`first_unclear`] but for the escapes: the vector test, with the
/// alphabet a constant in its test of each chunk (which the codec's
/// vector build calls, not inlined).
fn first_unclear_in(lines: &[u8], from: usize, alphabet: Alphabet) -> Option<usize> {
    match alphabet {
        Alphabet::Cyrillic => unclear_by_bits::<{ Alphabet::Cyrillic as usize }>(lines, from),
        Alphabet::Greek => unclear_by_bits::<{ Alphabet::Greek as usize }>(lines, from),
        Alphabet::Armenian => unclear_by_bits::<{ Alphabet::Armenian as usize }>(lines, from),
        Alphabet::Arabic => unclear_by_bits::<{ Alphabet::Arabic as usize }>(lines, from),
    }
}

/// [`first_unclear_in`] under the alphabet `ALPHABETS[A]`.
#[inline(always)]
fn unclear_by_bits<const A: usize>(lines: &[u8], from: usize) -> Option<usize> {
    // A lead that is not one of the alphabet's whole leads is no letter of
    // it unless the byte after it says so; nor is it the punctuation
    // allowed (`C2 A0`, `C2 AB`, `C2 BB`, `E2 80`): then it rules its line
    // out. The alphabet is a constant here, not a value the step reads:
    // a captured one made the four alphabets' steps one, which decoded
    // the alphabet's bounds at each lead.
    let other_lead = |b: u8, b1: u8| {
        let c2 = (b == 0xC2) & ((b1 == 0xA0) | (b1 == 0xAB) | (b1 == 0xBB));
        let e2 = (b == 0xE2) & (b1 == 0x80);
        !(const { ALPHABETS[A] }.letter(b, b1) | c2 | e2)
    };
    let byte = |i: usize| lines.get(i).copied().unwrap_or(0);
    let sets = [WORD_BYTES, LETTER_LEADS, OTHER_LEADS[A]];
    // Per 64 bytes, the bits of each set: an ASCII word character before a
    // letter or after one rules its line out, shifted bits against bits
    // (past the end is no byte, as 0 is none of those tested for); each
    // other lead, few in a chunk of the alphabet's lines, is tested with
    // the byte after it.
    find_by_bits(lines, from, &sets, |at, [words, letters, others]| {
        // The bytes of the next chunk are looked at only when a bit at the
        // end of this one can meet them.
        let mut unclear = (words & letters >> 1) | (letters & words >> 2);
        if words >> 63 != 0 && LETTER_LEADS.contains(byte(at + BITS_CHUNK)) {
            unclear |= 1 << 63;
        }
        if letters >> 62 != 0 {
            let (next, after) = (byte(at + BITS_CHUNK), byte(at + BITS_CHUNK + 1));
            let words_after = u64::from(WORD_BYTES.contains(next)) << 62
                | u64::from(WORD_BYTES.contains(after)) << 63;
            unclear |= letters & words_after;
        }
        let mut rest = others;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            if other_lead(lines[at + i], byte(at + i + 1)) {
                unclear |= 1 << i;
            }
            rest &= rest - 1;
        }
        (unclear != 0).then(|| at + unclear.trailing_zeros() as usize)
    })
}

/// Whether `lines[k]` is an ASCII letter that an escape or a format
/// before it takes (`\tЗапуск`, `%sфайл`: [`escape_len`] strips it from
/// the word), so that a letter after it mixes nothing. Asked only of the
/// offsets the vector test ([`first_unclear_in`]) stops at: C catalogues
/// write a tab or a newline before a translated word.
fn is_escaped(lines: &[u8], k: usize) -> bool {
    let b = lines[k];
    let before = k.checked_sub(1).map(|p| lines[p]);
    b.is_ascii_alphabetic()
        && match before {
            Some(b'\\') => true,
            // `%ld`, `%hd`: a length before the conversion letter.
            Some(b'%') => !PRINTF_LENGTHS.contains(&b),
            _ => false,
        }
}

/// Whether `c` belongs in an identifier-like word.
fn in_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_mark(c)
}

/// What [`line_words`] needs to know of a character below U+0800 (the
/// two-byte letters of every script the pass reads), generated from the
/// same functions the slow path calls ([`word_scripts_by_lookup`] made
/// `tables::WORD_SCRIPTS`, which a run reads as data): whether it belongs
/// in a word ([`IN_WORD`]) and its script as UTS #39 resolves it: [`NEUTRAL`]
/// (Common or Inherited: digits, `_`, combining marks), [`MIXED`] (more
/// than one script, or restricted in identifiers: for the word's
/// judgement to look at), or a number per script.
///
/// Translation catalogues hold a line of Cyrillic or Greek letters for
/// every line of English; looking up each character's script extensions
/// and Unicode properties made the rule a fifth of a whole-tree scan.
struct CharTable([u8; TABLE_LEN]);

const TABLE_LEN: usize = letters::KNOWN_LEN;
const IN_WORD: u8 = 0x80;
const NEUTRAL: u8 = 0;
const MIXED: u8 = 0x7F;

fn char_table() -> &'static CharTable {
    static TABLE: CharTable = CharTable(tables::WORD_SCRIPTS);
    &TABLE
}

/// [`CharTable`]'s entries, from the lookups the slow path takes.
fn word_scripts_by_lookup() -> [u8; TABLE_LEN] {
    let mut scripts = Vec::new();
    let mut table = [0u8; TABLE_LEN];
    for (cp, entry) in table.iter_mut().enumerate() {
        let Some(c) = char::from_u32(cp as u32) else {
            continue;
        };
        let set = AugmentedScriptSet::for_char(c);
        // A character UTS #39 restricts in identifiers is for the slow
        // path to judge, whatever its script.
        let restricted = !c.is_ascii() && !c.identifier_allowed();
        let script = if set.is_all() && !restricted {
            NEUTRAL
        } else if restricted || set.base.len() != 1 || set.hanb || set.jpan || set.kore {
            MIXED
        } else if let Some(k) = scripts.iter().position(|&s| s == set.base) {
            k as u8 + 1
        } else {
            scripts.push(set.base);
            scripts.len() as u8
        };
        *entry = script.min(MIXED) | if in_word(c) { IN_WORD } else { 0 };
    }
    table
}

impl CharTable {
    fn in_word(&self, c: char) -> bool {
        match self.0.get(c as usize) {
            Some(&entry) => entry & IN_WORD != 0,
            None => in_word(c),
        }
    }

    /// Whether `word` is certainly single-script: every character is in
    /// the table, allowed in identifiers, and all those with a script have
    /// the same one. Then [`word::judge`] would find nothing; otherwise it
    /// decides.
    fn single_script(&self, word: &str) -> bool {
        let mut seen = NEUTRAL;
        for c in word.chars() {
            let Some(&entry) = self.0.get(c as usize) else {
                return false;
            };
            match entry & !IN_WORD {
                NEUTRAL => {}
                MIXED => return false,
                script if seen == NEUTRAL => seen = script,
                script if script != seen => return false,
                _ => {}
            }
        }
        true
    }
}

/// [`in_word`] of the characters past [`CharTable`]'s, remembered for the
/// last few asked on a line: their Unicode properties (a search of the
/// standard library's tables, hundreds of instructions at U+25CC) are
/// looked up once per line, not at each word beside them (a table of
/// characters names each one in five columns).
#[derive(Default)]
struct WideInWord {
    /// Characters asked, `'\0'` for none (it is in the table: never asked).
    chars: [char; 8],
    answers: [bool; 8],
    next: usize,
}

impl WideInWord {
    fn in_word(&mut self, table: &CharTable, c: char) -> bool {
        if (c as usize) < TABLE_LEN {
            return table.in_word(c);
        }
        if let Some(k) = self.chars.iter().position(|&d| d == c) {
            return self.answers[k];
        }
        let answer = in_word(c);
        self.chars[self.next] = c;
        self.answers[self.next] = answer;
        self.next = (self.next + 1) % self.chars.len();
        answer
    }
}

/// U016 on each word of `line` (at byte `base` of the file) that holds a
/// character it looks for ([`next_lead`]): every word it can report does
/// (the odd letter, or the letters of a Greek, Cyrillic, Armenian or Hebrew
/// word), so the words of CJK or Indic text around them are not split
/// out. A word is a run of [`in_word`] characters, with the accelerator
/// markers `&` and `~` before a letter (`Р&eгулярний`, `~Oткрыть`), but
/// not an HTML entity (`&nbsp;`) nor a marker before a digit (procps's
/// `%9.9s~2загал`, where `~2` switches a colour). `file` is the whole file, in which
/// a catalogue's word is read beside its entry's `msgid`
/// ([`catalogue::keeps_a_literal_of_its_msgid`]). By its `place` (none:
/// prose), a word that is a test's value (a string of a test's data or own
/// source, which mixes scripts on purpose: IDNA vectors, case-folding
/// tests) is not reported, nor one in prose whose odd letters the text
/// names beside it ([`word::names_its_letters`]).
fn line_words(file: &[u8], line: &str, base: usize, place: Option<&Place>, out: &mut Capped) {
    let table = char_table();
    let mut wide = WideInWord::default();
    // Whether `c` at `k`, before `next`, belongs in a word.
    let mut joins = |k: usize, c: char, next: Option<char>| {
        wide.in_word(table, c)
            || (matches!(c, '&' | '~')
                && next.is_some_and(|n| n.is_alphabetic() && wide.in_word(table, n))
                && !is_entity(&line[k..]))
    };
    let mut from = 0;
    while let Some(i) = next_lead(line.as_bytes(), from) {
        let mut end = i;
        let mut chars = line[i..].char_indices().map(|(k, c)| (i + k, c)).peekable();
        while let Some((k, c)) = chars.next() {
            if !joins(k, c, chars.peek().map(|&(_, n)| n)) {
                break;
            }
            end = k + c.len_utf8();
        }
        if end == i {
            from = i + line[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let mut s = i;
        let mut after = line[i..].chars().next();
        for (k, c) in line[..i].char_indices().rev() {
            if !joins(k, c, after) {
                break;
            }
            s = k;
            after = Some(c);
        }
        from = end;
        s += escape_len(&line[..s], &line[s..end]);
        let word_end = end - pod_code_len(&line[s..end], &line[end..]);
        let word = &line[s..word_end];
        if !word.is_ascii()
            && word::may_be_look_alike(word)
            && !table.single_script(word)
            && !in_bracket_class(&line[..s], &line[end..])
            && let Some(odd) = word::judge(word, is_option(&line[..s]))
            && !catalogue::keeps_a_literal_of_its_msgid(file, base + s, word)
            && !place.is_some_and(|p| p.is_test_value(base + s))
            && !(place.is_none_or(|p| p.is_prose(base + s))
                && word::names_its_letters(file, base + s, &odd))
        {
            // Past the cap the finding is counted, not made.
            let at = base + s;
            let make = |level| Diagnostic {
                level,
                ..word::finding(word, at, &odd)
            };
            out.push(make, at..at + word.len());
        }
    }
}

/// How much of the end of `word` is a POD formatting code that `after`
/// opens: the `E` of `ФайлE<gt>` (Perl's documentation, `E<lt>ФайлE<gt>`).
fn pod_code_len(word: &str, after: &str) -> usize {
    let pod = |c: char| matches!(c, 'B' | 'C' | 'E' | 'F' | 'I' | 'L' | 'S' | 'X' | 'Z');
    let mut tail = word.chars().rev();
    match (tail.next(), tail.next(), after.starts_with('<')) {
        (Some(code), Some(before), true) if pod(code) && !before.is_ascii() => 1,
        _ => 0,
    }
}

/// Whether the word between `before` and `after` stands in a bracketed
/// character class of a regular expression (`^[yYдДщЩ]`, `[А-ЯЁA-Z0-9 ]`):
/// the class lists letters of both alphabets on purpose.
fn in_bracket_class(before: &str, after: &str) -> bool {
    let Some(open) = before.rfind('[') else {
        return false;
    };
    let inside = &before[open + 1..];
    !inside.contains([']', ' ', '\t'])
        && after
            .find(']')
            .is_some_and(|close| !after[..close].contains(['[', '\t']))
}

/// Whether `before` ends with a `-` that starts a command-line option
/// (after whitespace, the line's start or another `-`), or with the `^` of
/// a control key (`^BУбаци`: hexchat's bold marker `^B`): the letter after
/// it is a key.
fn is_option(before: &str) -> bool {
    let mut tail = before.chars().rev();
    match tail.next() {
        Some('^') => true,
        Some('-') => tail
            .next()
            .is_none_or(|c| c.is_whitespace() || c == '-' || c == '"'),
        _ => false,
    }
}

/// Whether `rest` starts with an HTML or XML character reference:
/// `&nbsp;`, `&#171;`, `&#xAB;`.
fn is_entity(rest: &str) -> bool {
    let Some(body) = rest.strip_prefix('&') else {
        return false;
    };
    let name = body
        .strip_prefix("#x")
        .or_else(|| body.strip_prefix('#'))
        .unwrap_or(body);
    let len = name
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    len > 0 && name.as_bytes().get(len) == Some(&b';')
}

/// printf's length modifiers, which stand between a `%` (and its width)
/// and the conversion letter: `%ld`, `%hhd`, `%zu`.
const PRINTF_LENGTHS: &[u8] = b"hlLqjzt";

/// How much of the start of `word` belongs to an escape or a format
/// that `before` opens: `\nΤο`, troff's `\fIНОМЕР` and TeX's `\LaTeXу`
/// (the ASCII letters after a backslash), troff's `\(lqтупых` and
/// `\*(lq` (two characters after `\(`), printf's `%sδεν` and `%5ldБ`
/// (flags, width, length and conversion after a `%`).
fn escape_len(before: &str, word: &str) -> usize {
    let bytes = word.as_bytes();
    if before.ends_with("\\(") || before.ends_with("\\*(") {
        return word.char_indices().nth(2).map_or(word.len(), |(k, _)| k);
    }
    match before.chars().next_back() {
        // `\u200D`, `\U0001F600`, `\x41`: the letter and its hex digits.
        Some('\\') if matches!(bytes.first(), Some(b'u' | b'U' | b'x')) => {
            let most = if bytes[0] == b'U' {
                8
            } else if bytes[0] == b'u' {
                4
            } else {
                2
            };
            let digits = bytes[1..]
                .iter()
                .take(most)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if digits > 0 {
                1 + digits
            } else {
                bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count()
            }
        }
        Some('\\') => bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count(),
        Some('%') => conversion_len(bytes),
        // Python's named conversion, `%(value)sмиллион`.
        Some(')') if is_python_key(before) => conversion_len(bytes),
        _ => 0,
    }
}

/// How much of the start of `bytes` is the rest of a printf conversion
/// after its `%`: a width, a length and the conversion letter (`5ld`).
fn conversion_len(bytes: &[u8]) -> usize {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let length = bytes[digits..]
        .iter()
        .take_while(|b| PRINTF_LENGTHS.contains(b))
        .count()
        .min(2);
    match bytes.get(digits + length) {
        Some(b) if b.is_ascii_alphabetic() => digits + length + 1,
        _ => 0,
    }
}

/// Whether `before` ends with the key of a Python named conversion,
/// `%(name)`, whose conversion letter comes next.
fn is_python_key(before: &str) -> bool {
    before
        .strip_suffix(')')
        .and_then(|b| b.rfind("%(").map(|k| &b[k + 2..]))
        .is_some_and(|name| {
            !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
}

#[cfg(test)]
mod tests {
    use super::letters::*;
    use super::*;
    use crate::{Level, Rule};
    use unicode_security::MixedScript;
    use unicode_security::skeleton;

    /// The precomputed skeletons answer as comparing the letter's skeleton
    /// with each letter of the script's ranges does.
    #[test]
    fn looks_like_is_the_search_over_the_scripts_letters() {
        let searched = |c: char, main: &str| {
            let ranges = letters_of(main);
            if ranges.is_empty() {
                return false;
            }
            let mut buffer = [0u8; 4];
            let shape: String = skeleton(c.encode_utf8(&mut buffer)).collect();
            ranges
                .iter()
                .cloned()
                .flatten()
                .filter_map(char::from_u32)
                .any(|d| {
                    script_of(d) == Some(main)
                        && skeleton(d.encode_utf8(&mut buffer)).eq(shape.chars())
                })
        };
        let mut alike = 0;
        let chars = (0x41..0x600)
            .step_by(3)
            .chain([
                0x430, 0x435, 0x43E, 0x440, 0x3BF, 0x3B1, 0x61, 0x65, 0x6F, 0x5D5,
            ])
            .filter_map(char::from_u32);
        for c in chars {
            for main in ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Han"] {
                let expected = searched(c, main);
                assert_eq!(looks_like(c, main), expected, "{c:?} {main}");
                alike += usize::from(expected);
            }
        }
        assert!(alike > 100, "{alike}");
    }

    /// The letter a label names is the first of the script's letters,
    /// allowed in identifiers, with the same skeleton.
    #[test]
    fn plain_letter_is_the_search_over_the_scripts_letters() {
        let searched = |c: char, main: &str| {
            letters_of(main)
                .iter()
                .cloned()
                .flatten()
                .filter_map(char::from_u32)
                .filter(|&d| script_of(d) == Some(main) && d.identifier_allowed())
                .find(|&d| skeleton_of(d) == skeleton_of(c))
        };
        let mut named = 0;
        let chars = (0x41..0x600)
            .step_by(5)
            .chain([0x430, 0x441, 0x3BF, 0x585, 0xFF29, 0x1D41F, 0x13AA, 0x5D5])
            .filter_map(char::from_u32);
        for c in chars {
            for main in ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Han"] {
                let expected = searched(c, main);
                assert_eq!(plain_letter(c, main), expected, "{c:?} {main}");
                named += usize::from(expected.is_some());
            }
        }
        assert!(named > 100, "{named}");
    }

    /// Pieces of lines for the byte test: letters of each alphabet, and
    /// characters beside their ends.
    const LETTERS: [&str; 21] = [
        "ا", "ه", "\u{600}", "\u{6FF}", "\u{60C}", "а", "ж", "ё", "Ӂ", "\u{483}", "\u{400}",
        "\u{4FF}", "α", "Ω", "ά", "\u{3E1}", "ա", "Ա", "\u{531}", "\u{587}", "\u{58F}",
    ];
    /// The neutral word characters, and characters like them.
    const NEUTRAL: [&str; 3] = ["ʼ", "\u{300}", "\u{301}"];
    /// What the test allows between words.
    const AROUND: [&str; 12] = [
        " ", "-", ",", "«", "»", "\u{A0}", "—", "„", "\\t", "%s", "%l", "\\",
    ];
    /// Everything else: ASCII word characters, other scripts, the
    /// neighbours of the alphabets and of the neutral characters.
    const OTHERS: [&str; 20] = [
        "a", "1", "_", "é", "\u{2060}", "¬", "ו", "\u{1F00}", "\u{384}", "\u{3E2}", "\u{3F0}",
        "\u{383}", "\u{530}", "\u{590}", "\u{52F}", "\u{302}", "ʻ", "\n", "\u{5FF}", "\u{700}",
    ];

    /// Pieces for lines mostly of `alphabet`: its letters, its neutral
    /// characters and what goes around words, then (the number of those)
    /// all the others.
    fn pieces_for(alphabet: Alphabet) -> (Vec<&'static str>, usize) {
        let two = |p: &str| {
            let b = p.as_bytes();
            (b[0], b.get(1).copied().unwrap_or(0))
        };
        let mut pieces: Vec<&'static str> = LETTERS
            .into_iter()
            .filter(|&p| alphabet.holds(two(p).0, two(p).1))
            .chain(NEUTRAL.into_iter().filter(|_| alphabet.bounds().2))
            .chain(AROUND)
            .collect();
        let common = pieces.len();
        let rest: Vec<&'static str> = LETTERS
            .into_iter()
            .chain(NEUTRAL)
            .chain(OTHERS)
            .filter(|p| !pieces.contains(p))
            .collect();
        pieces.extend(rest);
        (pieces, common)
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// A line of up to `max_len` bytes of `pieces`: mostly of the first
    /// `common`, one in `rarity` of any.
    fn random_line(
        state: &mut u64,
        (pieces, common): &(Vec<&str>, usize),
        max_len: usize,
        rarity: u64,
    ) -> String {
        let len = (xorshift(state) >> 40) as usize % max_len;
        let mut line = String::new();
        while line.len() < len {
            let next = xorshift(state);
            let from = if next.is_multiple_of(rarity) {
                pieces.len()
            } else {
                *common
            };
            line.push_str(pieces[(next >> 32) as usize % from]);
        }
        line
    }

    /// The byte test answers as reading the line character by character
    /// does, under each alphabet, on well-formed lines of every length
    /// around its step.
    #[test]
    fn the_byte_test_reads_lines_as_their_characters_do() {
        let stepped = |line: &str, alphabet: Alphabet| {
            let mut previous = 0u8;
            let mut before = None;
            for c in line.chars() {
                let mut buffer = [0u8; 4];
                let b = c.encode_utf8(&mut buffer).as_bytes();
                // A letter an escape or a format takes (`\t`, `%s`, not
                // the length of `%l`) mixes with nothing after it.
                let escaped = c.is_ascii_alphabetic()
                    && (before == Some('\\') || before == Some('%') && !"hlLqjzt".contains(c));
                before = Some(c);
                let kind = match (b.len(), c) {
                    (1, _) if escaped => 0,
                    (1, _) => u8::from(c.is_ascii_alphanumeric() || c == '_'),
                    (2, _) if alphabet.letter(b[0], b[1]) => 2,
                    (_, '\u{A0}' | '«' | '»' | '\u{2000}'..='\u{203F}') => 0,
                    _ => return false,
                };
                if kind + previous == 3 {
                    return false;
                }
                previous = kind;
            }
            true
        };
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for alphabet in ALPHABETS {
            let pieces = pieces_for(alphabet);
            let (mut kept, mut ruled_out) = (0, 0);
            for _ in 0..20_000 {
                let line = random_line(&mut state, &pieces, 160, 12);
                let expected = stepped(&line, alphabet);
                let cleared = first_unclear(line.as_bytes(), 0, alphabet).is_none();
                assert_eq!(cleared, expected, "{alphabet:?} {line:?}");
                kept += usize::from(expected);
                ruled_out += usize::from(!expected);
            }
            assert!(
                kept > 2_000 && ruled_out > 2_000,
                "{alphabet:?}: {kept} {ruled_out}"
            );
        }
    }

    /// What makes a cleared line's words single-script: every character
    /// of an alphabet that belongs in a word, and every neutral one the
    /// alphabet takes, has the alphabet's script among its own or is of
    /// every script, under UTS #39's own tables; nothing else two bytes
    /// long is taken for a letter.
    #[test]
    fn the_alphabets_hold_letters_of_their_script_alone() {
        let scripts = ["Cyrillic", "Greek", "Armenian", "Arabic"];
        for (alphabet, script) in ALPHABETS.into_iter().zip(scripts) {
            let (first, last, _) = alphabet.bounds();
            let code = |[b, b1]: [u8; 2]| u32::from(b & 0x1F) << 6 | u32::from(b1 & 0x3F);
            let mut letters = 0;
            for c in '\u{80}'..='\u{7FF}' {
                let mut buffer = [0u8; 4];
                let b = c.encode_utf8(&mut buffer).as_bytes();
                let inside = (code(first)..=code(last)).contains(&u32::from(c));
                assert_eq!(alphabet.holds(b[0], b[1]), inside, "{c:?} {alphabet:?}");
                if !in_word(c) || !alphabet.letter(b[0], b[1]) {
                    continue;
                }
                let set = AugmentedScriptSet::for_char(c);
                let named = set.base.iter().any(|s| s.full_name() == script);
                assert!(set.is_all() || named, "{c:?} in {script}: {set:?}");
                letters += usize::from(alphabet.holds(b[0], b[1]));
            }
            assert!(letters >= 80, "{script}: {letters}");
            let ([lead, from], [last, to], _) = alphabet.bounds();
            assert_eq!(Alphabet::of(lead, from), Some(alphabet));
            assert_eq!(Alphabet::of(last, to), Some(alphabet));
            // A whole lead is a letter whatever continuation follows.
            let (whole_first, whole_last) = alphabet.whole_leads();
            assert!(whole_first <= whole_last, "{script}");
            for b in 0xC0..=0xFF {
                let whole = (0x80..=0xBF).all(|b1| alphabet.holds(b, b1));
                assert_eq!(
                    (whole_first..=whole_last).contains(&b),
                    whole,
                    "{script} {b:02X}"
                );
            }
        }
        for c in ['ʼ', '\u{300}', '\u{301}'] {
            let mut buffer = [0u8; 4];
            let b = c.encode_utf8(&mut buffer).as_bytes();
            assert!(neutral(b[0], b[1]), "{c:?}");
        }
        // Continuation bytes and ASCII start no letter.
        for b in 0..0xC0u8 {
            for b1 in [0x80, 0xA0, 0xBC, 0xBF, b'a'] {
                assert!(
                    ALPHABETS.iter().all(|a| !a.letter(b, b1)),
                    "{b:02X} {b1:02X}"
                );
            }
        }
    }

    /// Findings (spans and messages) that must be `expected`, with the
    /// first differences, not every finding of a long text, when not.
    fn assert_same(
        found: &[(Range<usize>, String)],
        expected: &[(Range<usize>, String)],
        what: &str,
    ) {
        let missing: Vec<_> = expected
            .iter()
            .filter(|f| !found.contains(f))
            .take(3)
            .collect();
        let extra: Vec<_> = found
            .iter()
            .filter(|f| !expected.contains(f))
            .take(3)
            .collect();
        assert!(
            found == expected,
            "{what}: missing {missing:?}, extra {extra:?}"
        );
    }

    /// Reading every line that holds a lead, without the byte test: what
    /// the pass must find.
    fn every_line(bytes: &[u8]) -> Vec<(Range<usize>, String)> {
        let mut out = Capped::new(Rule::MixedScriptConfusable, Level::Warn, 0);
        let mut start = 0;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            if next_lead(line, 0).is_some()
                && let Ok(text) = std::str::from_utf8(line)
            {
                line_words(bytes, text, start, None, &mut out);
            }
            start += line.len();
        }
        out.kept.into_iter().map(|d| (d.span, d.message)).collect()
    }

    /// The pass finds what reading every line with a lead finds, on text
    /// of every alphabet with words mixing them, lines switching scripts,
    /// neutral characters, and bytes that are not well-formed.
    #[test]
    fn judging_runs_of_lines_finds_what_reading_every_line_finds() {
        let mixed: [&[u8]; 8] = [
            "p\u{430}ypal".as_bytes(),
            "\u{43F}\u{6F}\u{435}\u{437}\u{434}".as_bytes(),
            "\u{3BF}\u{3BD}o".as_bytes(),
            "\u{585}s".as_bytes(),
            b"\xD0",
            b"\xFF",
            b"\xCE\n",
            b"\xD4\xB1",
        ];
        let pieces = ALPHABETS.map(pieces_for);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut found = 0;
        for (rarity, newline) in [(3u64, 2u64), (11, 3), (40, 5), (400, 2)] {
            let mut bytes = Vec::new();
            while bytes.len() < 200_000 {
                let next = xorshift(&mut state);
                if next.is_multiple_of(rarity) {
                    bytes.extend_from_slice(mixed[(next >> 32) as usize % mixed.len()]);
                } else {
                    let pieces = &pieces[(next >> 32) as usize % pieces.len()];
                    bytes.extend_from_slice(random_line(&mut state, pieces, 40, 6).as_bytes());
                }
                bytes.push(if next.is_multiple_of(newline) {
                    b'\n'
                } else {
                    b' '
                });
            }
            let mut out = Capped::new(Rule::MixedScriptConfusable, Level::Warn, 0);
            pass(&bytes, None, None, &mut out);
            let passed: Vec<_> = out.kept.into_iter().map(|d| (d.span, d.message)).collect();
            let expected = every_line(&bytes);
            assert_same(&passed, &expected, &format!("rarity {rarity}"));
            found += expected.len();
        }
        assert!(found > 200, "{found}");
    }

    /// Lines cleared by their bytes hold no finding: random lines mostly
    /// of each alphabet's letters and the characters around them.
    #[test]
    fn cleared_lines_hold_no_finding() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for alphabet in ALPHABETS {
            let pieces = pieces_for(alphabet);
            let mut cleared = 0;
            for _ in 0..20_000 {
                let line = random_line(&mut state, &pieces, 60, 8);
                if first_unclear(line.as_bytes(), 0, alphabet).is_none() {
                    cleared += 1;
                    let mut out = Capped::new(Rule::MixedScriptConfusable, Level::Warn, 100);
                    line_words(line.as_bytes(), &line, 0, None, &mut out);
                    let (mut found, mut summaries) = (Vec::new(), Vec::new());
                    out.finish(&mut found, &mut summaries);
                    assert!(found.is_empty(), "{line:?}: {found:?}");
                }
            }
            assert!(cleared > 3_000, "{alphabet:?}: {cleared}");
        }
    }

    /// The characters remembered on a line answer as the lookup does,
    /// whatever came before them.
    #[test]
    fn remembered_characters_answer_as_their_lookup() {
        let table = char_table();
        let mut wide = WideInWord::default();
        let chars: Vec<char> = "\u{25CC}ℎ𝐟Ａ，한語😀ᎪⅫ①❶\u{20D7}a_"
            .chars()
            .chain((0x2000..0x2200).step_by(7).filter_map(char::from_u32))
            .collect();
        for round in 0..3 {
            for (k, &c) in chars.iter().enumerate() {
                let c = if round == 1 {
                    chars[(k * 5) % chars.len()]
                } else {
                    c
                };
                assert_eq!(wide.in_word(table, c), in_word(c), "{c:?}");
            }
        }
    }

    #[test]
    fn the_table_agrees_with_the_functions_it_caches() {
        let table = char_table();
        assert!(
            table.0 == word_scripts_by_lookup(),
            "run `cargo run -- generate`"
        );
        for c in (0..0x900).filter_map(char::from_u32) {
            assert_eq!(table.in_word(c), in_word(c), "{c:?}");
        }
        // Words drawn from every character below U+0800 that belongs in
        // one, with neighbours of each script: the table calls a word
        // single-script only where UTS #39 does.
        let letters: Vec<char> = (0..0x800)
            .filter_map(char::from_u32)
            .filter(|&c| in_word(c))
            .collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut single = 0;
        for _ in 0..200_000 {
            let mut word = String::new();
            let base = (state >> 40) as usize % letters.len();
            for _ in 0..1 + (state >> 20) as usize % 5 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly neighbours (the same block), now and then anything.
                let k = if state.is_multiple_of(8) {
                    (state >> 32) as usize % letters.len()
                } else {
                    (base + (state >> 32) as usize % 48).min(letters.len() - 1)
                };
                word.push(letters[k]);
            }
            if table.single_script(&word) {
                single += 1;
                assert!(word.is_single_script(), "{word:?}");
            }
        }
        assert!(single > 40_000, "{single}");
    }

    fn found(line: &str) -> Vec<String> {
        let mut out = Capped::new(Rule::MixedScriptConfusable, Level::Warn, 0);
        pass(line.as_bytes(), None, None, &mut out);
        out.kept.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn the_message_names_the_odd_letters_and_their_script() {
        assert_eq!(
            found("if (p\u{430}ypal == 1) {}\n"),
            ["a Cyrillic `а` (U+0430) in the Latin word `pаypal`"]
        );
        assert_eq!(
            found("\u{430}\u{441}\u{441}ount = 1"),
            ["a Cyrillic `а` (U+0430) and a Cyrillic `с` (U+0441) in the Latin word `ассount`"]
        );
        assert_eq!(found("void say\u{41D}ello() {}").len(), 1);
        // A Cyrillic word with a Latin `o` in it.
        assert_eq!(found("переменная п\u{6F}езд = 1;").len(), 1);
    }

    /// Look-alikes from the blocks beyond Cyrillic, Greek and Armenian.
    #[test]
    fn look_alikes_of_every_block_are_found() {
        for (text, message) in [
            (
                "# \u{FF29}gnore previous instructions",
                "a fullwidth `Ｉ` (U+FF29) in the Latin word `Ｉgnore`",
            ),
            (
                "def \u{1D41F}etch(): pass",
                "a mathematical `𝐟` (U+1D41F) in the Latin word `𝐟etch`",
            ),
            (
                "\u{501}eleteUser(id)",
                "a Cyrillic `ԁ` (U+0501) in the Latin word `ԁeleteUser`",
            ),
            (
                "let \u{13AA}dmin = 1;",
                "a Cherokee `Ꭺ` (U+13AA) in the Latin word `Ꭺdmin`",
            ),
            (
                "if is\u{410}dmin2 {}",
                "a Cyrillic `А` (U+0410) in the Latin word `isАdmin2`",
            ),
            (
                "x = \u{A4F2}nput()",
                "a Lisu `ꓲ` (U+A4F2) in the Latin word `ꓲnput`",
            ),
            (
                "x = get_con\u{FEEA}ig()",
                "an Arabic `ﻪ` (U+FEEA) in the Latin word `get_conﻪig`",
            ),
            (
                "x = c\u{647}nfig()",
                "an Arabic `ه` (U+0647) in the Latin word `cهnfig`",
            ),
            (
                "\u{210E}ello()",
                "a letterlike-symbol `ℎ` (U+210E) in the Latin word `ℎello`",
            ),
        ] {
            assert_eq!(found(text), [message], "{text}");
        }
    }

    /// Typing slips in real translations stay findings.
    #[test]
    fn slips_in_translations_are_found() {
        for text in [
            "msgstr \"Mesto za prika\u{455} novih razgovora:\"",
            "msgstr \"ADDBUTTON <име> <наредба>, додаје дугме у кориснич\u{65}в списак\"",
            "msgstr \"Žemutinė S\u{430}sandra\"",
            "msgstr \"\u{4E}έα Γη\"",
            "в лог всё равно записало\u{63}ь сообщение",
            "-\u{430}dmin is an option",
            // Capitals glued to a lowercase literal, each a look-alike of
            // an ASCII letter: no translated metavariable.
            "msgstr \"a\u{412}\u{421}\"",
            // A capital standing alone elsewhere on the line hides nothing:
            // Russian writes `А` and `В` as words.
            "if is\u{410}dmin { // \u{410} тут проверка",
            "msgstr \"p\u{430}бота\"",
            // A Latin capital in a Greek word; a marker before a digit
            // joins nothing.
            "msgstr \"%s: A\u{3B4}υναμία ανάκτησης\"",
            "msgstr \"~2p\u{430}бота\"",
            "msgstr \"(x)s\u{441}айт\"",
            // A msgid that does not hold the literal glued to a capital.
            "msgid \"print\"\nmsgstr \"p\u{430}бота\"\n",
            "msgid \"cs N\"\nmsgstr \"cs\u{41D}\"\n",
            "msgid \"isAdmin\"\nmsgstr \"is\u{410}dmin\"\n",
        ] {
            assert_eq!(found(text).len(), 1, "{text}: {:?}", found(text));
        }
    }

    /// A letter of another script elsewhere on the line hides nothing.
    #[test]
    fn letters_elsewhere_on_the_line_change_nothing() {
        for line in [
            "if is\u{410}dmin2 {} // Ελληνικά и русский, ararat Հայերեն",
            "isАdmin2 שלום 日本語 ﻣﺮﺣﺒﺎ",
        ] {
            assert_eq!(found(line).len(), 1, "{line}");
        }
    }

    /// Mixtures that are meant: template placeholders and `_`-joined
    /// identifiers, scientific names, accelerators, markup escapes.
    #[test]
    fn meant_mixtures_are_left_alone() {
        for text in [
            "msgstr \"Адрес {{ip_адрес}} и {{user_имя}}\"",
            "TNFα, IFNγ, NFκB and ρ_air, Aβ42",
            "msgstr \"Р&eгулярний вираз\"",
            "msgstr \"Р_eгулярний ~Oткрыть\"",
            ".B \\(lqтупых\\(rq and \\*(lqтупых",
            "\\textbfжирный и \\LaTeXу",
            "Привет&nbsp;мир&laquo;текст&#171;слово",
            // Found in translation catalogues, manuals and test data.
            "  -cТЕГ, --add-comments[=ТЕГ] записать блоки",
            "Наредба ^BУбаци у запис^B ће",
            "додатак за удаљен приступ помоћу DBUSа и GTK-а",
            "\"E<lt>ФайлE<gt>, или указывает\"",
            "msgstr \"^[yYνΝ]\" and \"^[yYдДщЩ]\", \"[-,А-ЯЁA-Z0-9 .()]\"",
            "msgstr \"NnНн\"",
            "resizecons СТОВПЧИКІВxРЯДКІВ",
            "  pБРВ      нумеровать только строки, соответствующие БРВ",
            "  pРЕГУЛЯРЕН_ИЗРАЗ и pΚΑΝΕΚΦ, в файлы ПРЕФИКСaa, ПРЕФИКСab",
            "msgid \"ǀXam\", \"Juǀʼhoan\"",
            // A colour switch before a word (procps's `top`), a grammar's
            // symbols around a nonterminal (bison).
            "\"%s %s:~3 %9.9s~2загал,~3 %9.9s~2вільн,~3\"",
            " * B → βAγ, γ nullable, and p'-- β -->",
            // Python's named conversions glued to a word (Django's Kyrgyz
            // catalogue).
            "msgstr[0] \"мындан%(count)sсекунд мурда\" и %(limit_value)dсимвол",
            // A literal kept from the entry's msgid, the rest translated:
            // stty's `csN`, df's `IUsed`.
            "msgid \"   csN     set character size to N bits\"\nmsgstr \"   csН     размер символа Н бит\"\n",
            "msgid \"\"\n\"IUsed\"\nmsgstr \"\"\n\"IИспользовано\"\n",
            "0x88a0:  ǜüếềêɡ",
            "call assert_equal('k œ̄ṣ́m̥̄ᾱ̆́', getline(18))",
            "N;\t1.ass\\u200C\\u200Db\\u200C\\u1ABBΣ≠;",
            "1.Assbcssssssssdσσssssssssssssssssessssssssssssssssssssxssssssssssssssssssssy",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    /// U016's findings on `bytes` (spans and messages) through the
    /// standalone filter (every byte searched for a lead), through the
    /// blocks each build of the codec's validator reports, and reading
    /// every line with a lead: the same.
    /// Returns how many.
    fn fused_agrees(bytes: &[u8], what: &str) -> usize {
        use utf8lint_codec::testing::{Kernel, validate_scanning_using};
        use utf8lint_codec::{Found, Wanted};

        use crate::candidates::{CANDIDATES, CONFUSABLE};

        let findings = |blocks: Option<&[Range<usize>]>| {
            let mut out = Capped::new(Rule::MixedScriptConfusable, Level::Warn, 0);
            pass(bytes, blocks, None, &mut out);
            let found: Vec<(Range<usize>, String)> =
                out.kept.into_iter().map(|d| (d.span, d.message)).collect();
            found
        };
        let standalone = findings(None);
        // Judging runs of lines by their bytes drops no finding.
        assert!(
            standalone == every_line(bytes),
            "{what}: not every line's findings"
        );
        for kernel in Kernel::available() {
            let mut blocks = Vec::new();
            let wanted = Wanted {
                marks: true,
                patterns: Some(&CANDIDATES),
                pair: None,
            };
            let valid = validate_scanning_using(kernel, bytes, wanted, &mut |f| {
                if let Found::Block(block, kinds) = f
                    && kinds & CONFUSABLE != 0
                {
                    blocks.push(block);
                }
            });
            assert!(valid, "{what}");
            let fused = findings(Some(&blocks));
            assert_same(&fused, &standalone, &format!("{kernel:?} on {what}"));
        }
        standalone.len()
    }

    /// Random text from the neighbourhood of the rule: words of ASCII
    /// letters, digits and `_` with Cyrillic, Greek, Armenian and Hebrew
    /// look-alikes, accented Latin, combining marks, other scripts and
    /// punctuation, at three densities, lines short and long.
    #[test]
    fn the_fused_filter_finds_what_the_standalone_one_finds_on_random_text() {
        let pieces = [
            "a", "p", "o", "e", "x", "y", "l", "P", "H", "B", "1", "_", "é", "ñ", "ǅ", "а", "р",
            "о", "е", "с", "у", "Н", "В", "ο", "α", "ρ", "ν", "Α", "օ", "ս", "ו", "ס", "\u{301}",
            "\u{483}", "語", "ج", "😀", "’", "«", "—", " ", " ", "\n", ".", "(", "\\", "%",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut found = 0;
        for (rarity, newline) in [(2u64, 7u64), (40, 60), (3000, 400)] {
            let mut text = String::new();
            while text.len() < 300_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let piece = if state.is_multiple_of(rarity) {
                    pieces[(state >> 32) as usize % pieces.len()]
                } else if state.is_multiple_of(newline) {
                    "\n"
                } else {
                    pieces[(state >> 32) as usize % 12]
                };
                text.push_str(piece);
            }
            found += fused_agrees(text.as_bytes(), &format!("random text, rarity {rarity}"));
        }
        assert!(
            found > 50,
            "{found} findings: the text does not exercise the rule"
        );
    }

    /// Real multilingual text nobody on the team wrote: every valid file
    /// under the directories of `UTF8LINT_TEXT_TREES` (`:`-separated:
    /// translation catalogues, Russian code and documentation) and
    /// `UTF8LINT_TROJAN_SOURCE`. Skipped when neither is set, unless
    /// `UTF8LINT_REQUIRE_TEXT_CORPUS=1`.
    #[test]
    fn the_fused_filter_finds_what_the_standalone_one_finds_on_real_text() {
        let roots: Vec<std::path::PathBuf> = ["UTF8LINT_TEXT_TREES", "UTF8LINT_TROJAN_SOURCE"]
            .iter()
            .filter_map(std::env::var_os)
            .flat_map(|v| std::env::split_paths(&v).collect::<Vec<_>>())
            .collect();
        if roots.is_empty() {
            assert!(
                std::env::var("UTF8LINT_REQUIRE_TEXT_CORPUS").as_deref() != Ok("1"),
                "neither UTF8LINT_TEXT_TREES nor UTF8LINT_TROJAN_SOURCE is set, and UTF8LINT_REQUIRE_TEXT_CORPUS=1"
            );
            println!("SKIPPED: neither UTF8LINT_TEXT_TREES nor UTF8LINT_TROJAN_SOURCE is set");
            return;
        }
        let (mut files, mut with_leads, mut found) = (0, 0, 0);
        let mut dirs = roots;
        while let Some(dir) = dirs.pop() {
            let entries =
                std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                if !kind.is_file() || bytes.len() > 16 << 20 || std::str::from_utf8(&bytes).is_err()
                {
                    continue;
                }
                files += 1;
                with_leads += usize::from(next_lead(&bytes, 0).is_some());
                found += fused_agrees(&bytes, &path.display().to_string());
            }
        }
        println!(
            "{files} files, {with_leads} with a lead byte, {found} U016 findings: the same both ways"
        );
        assert!(files > 0, "no file read");
    }

    /// The byte test by bits answers as the test of each byte with the two
    /// after it, from every offset, for every alphabet, on lines that mix
    /// every kind of byte it tells apart.
    #[test]
    fn the_bit_test_is_the_byte_by_byte_test() {
        fn plain(lines: &[u8], from: usize, alphabet: Alphabet) -> Option<usize> {
            let at = |i: usize| lines.get(i).copied().unwrap_or(0);
            let word = |b: u8| b.is_ascii_alphanumeric() | (b == b'_');
            let lead = |b: u8| b >= 0xC0;
            let letter = |b: u8| lead(b) & (b != 0xC2) & (b != 0xE2);
            (from..lines.len()).find(|&i| {
                let (b, b1, b2) = (at(i), at(i + 1), at(i + 2));
                let c2 = (b == 0xC2) & ((b1 == 0xA0) | (b1 == 0xAB) | (b1 == 0xBB));
                let e2 = (b == 0xE2) & (b1 == 0x80);
                let other = lead(b) & !(alphabet.letter(b, b1) | c2 | e2);
                other | (word(b) & letter(b1)) | (letter(b) & word(b2))
            })
        }
        let pieces = [
            "слово ",
            "λέξη ",
            "բառ ",
            "كلمة ",
            "a",
            "_",
            "7",
            " ",
            "\u{a0}",
            "«",
            "»",
            "—",
            "„",
            "ʼ",
            "\u{301}",
            "é",
            "ł",
            "ѐ",
            "ӿ",
            "ԁ",
            "ϣ",
            "ֆ",
            "ۿ",
            "x",
            "\n",
            "日",
            "😀",
            ".",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300 {
            let mut text = String::new();
            let n = (xorshift(&mut state) % 60) as usize;
            for _ in 0..n {
                let k = (xorshift(&mut state) % pieces.len() as u64) as usize;
                // Long runs of one piece too: whole chunks of one kind.
                let times = if xorshift(&mut state).is_multiple_of(8) {
                    40
                } else {
                    1
                };
                for _ in 0..times {
                    text.push_str(pieces[k]);
                }
            }
            let bytes = text.as_bytes();
            for alphabet in ALPHABETS {
                for from in (0..bytes.len()).step_by(7).chain([0]) {
                    assert_eq!(
                        first_unclear_in(bytes, from, alphabet),
                        plain(bytes, from, alphabet),
                        "{alphabet:?} {from} {text:?}"
                    );
                }
            }
        }
    }

    /// The lookup of a three-byte look-alike answers as the search of
    /// [`WIDE`] does, on every three bytes after one of its leads.
    #[test]
    fn the_third_bytes_are_the_wide_characters() {
        let mut leads = 0;
        for b in 0xE0..=0xEFu8 {
            for b1 in 0..=255u8 {
                for b2 in 0..=255u8 {
                    let cp = (u32::from(b) & 0x0F) << 12
                        | u32::from(b1 & 0x3F) << 6
                        | u32::from(b2 & 0x3F);
                    let paired = PAIR_BITS[usize::from(b - 0xC0)] & 1 << (b1 & 0x3F) != 0;
                    let expected = paired && WIDE.binary_search(&cp).is_ok();
                    assert_eq!(
                        is_lead(&[b, b1, b2], 0),
                        expected,
                        "{b:02X} {b1:02X} {b2:02X}"
                    );
                    leads += usize::from(expected);
                }
            }
        }
        assert!(leads > 1_000, "{leads}");
    }

    /// Leads are found at every offset from every start, near and far.
    #[test]
    fn the_lead_search_finds_the_first_lead_from_anywhere() {
        let mut text = String::new();
        for k in 0..300 {
            text.push_str(["ab ", "ł’ ", "한—", "x\u{430}", "😀", "\n"][k % 7 % 6]);
        }
        let bytes = text.as_bytes();
        for from in 0..bytes.len() {
            let expected = (from..bytes.len()).find(|&i| is_lead(bytes, i));
            assert_eq!(next_lead(bytes, from), expected, "{from}");
        }
    }

    #[test]
    fn the_byte_test_finds_leads_past_a_chunk() {
        let mut text = "a".repeat(200);
        text.push_str(" p\u{430}ypal\n");
        assert_eq!(found(&text).len(), 1);
        assert_eq!(next_lead(b"abc", 0), None);
        assert_eq!(next_lead("xя".as_bytes(), 0), Some(1));
    }
}
