//! The one text pass: the rules that look at well-formed characters (U008
//! `mojibake`, U010..U013 in `rules::text_chars`, U014 `non_ascii`) share a
//! single search for candidates. On a valid file `scan` runs it only over
//! the 4 KiB blocks in which the codec's fused validator saw a candidate
//! end (`candidates::CANDIDATES`' text patterns, a looser test than
//! [`is_candidate`] made in the validator's registers): ordinary text,
//! ASCII or not, has none, and costs the text rules next to nothing. On a
//! file with ill-formed sequences (or with U014 on) it reads every
//! well-formed stretch.
//!
//! A 32-byte chunk is looked at in up to three steps, each written over
//! fixed-size arrays with no early exit and no branch, so that LLVM turns it
//! into vector compares (no `unsafe`, no intrinsics):
//! 1. whether any byte is a C0 control other than tab, LF, FF and CR, DEL,
//!    or not ASCII: ASCII text stops here;
//! 2. U014 only: the first non-ASCII byte after the last line it reported
//!    (one finding per line, so a line costs one search, not one per byte);
//! 3. the exact test of every position ([`is_candidate`]): the first bytes
//!    of the characters U010..U013 report and of the runs U008 repairs.
//!    Punctuation (`’`, `—`), accented letters before ASCII, kana, Hangul
//!    and CJK ideographs set no bit.
//!
//! Only the positions the third step marks are decoded, and [`LEADS`], a
//! 256-entry table of lead bytes, says which rule's code looks at each.

use std::ops::Range;
use std::path::Path;

use crate::rules::text_chars::{self, Levels, Pass, Place};
use crate::rules::{confusable, mojibake};
use crate::shown::{Capped, Keep};
use crate::{Diagnostic, Level, Policy, Rule};

/// Bytes per step of the candidate search.
const CHUNK: usize = 32;

/// Bytes after a position that [`is_candidate`] reads (U008's Mac Roman
/// leads `E2 88 9A` and the non-ASCII byte after them).
const AFTER: usize = 3;

/// [`LEADS`]: U010..U013 (and `not_utf8`'s ISO-2022 escape) look at it.
const CHARACTERS: u8 = 1;
/// [`LEADS`]: U008 looks at it.
const MOJIBAKE: u8 = 2;

/// For every byte, which rules' candidates start with it: C0 controls
/// other than tab, LF, FF and CR, and DEL; `C2` (C1 controls, U+00AD, and
/// U008's Mac Roman `¬`); `C3` (U008's windows-1252 and ISO-8859-1 runs,
/// `Ã`..`ô`); `C6` (U008's Mac Roman `ƒ`); `D8` (U+061C); `E1`, `E2`, `E3`, `EF` (the invisible and bidi
/// characters of three bytes, noncharacters, variation selectors; U008's
/// `√`, `≈`, `∆`, `‚` behind `E2`); `F0`..`F4` (tags, supplementary
/// variation selectors, the planes' noncharacters).
pub(crate) const LEADS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        if !matches!(b, 0x09 | 0x0A | 0x0C | 0x0D) {
            table[b] = CHARACTERS;
        }
        b += 1;
    }
    table[0x7F] = CHARACTERS;
    table[0xC2] = CHARACTERS | MOJIBAKE;
    table[0xC3] = MOJIBAKE;
    table[0xC6] = MOJIBAKE;
    table[0xD8] = CHARACTERS;
    table[0xE1] = CHARACTERS;
    table[0xE2] = CHARACTERS | MOJIBAKE;
    table[0xE3] = CHARACTERS;
    table[0xEF] = CHARACTERS;
    let mut b = 0xF0;
    while b <= 0xF4 {
        table[b] = CHARACTERS;
        b += 1;
    }
    table
};

/// Step 1: whether `b` is a C0 control other than tab, LF, FF, CR, is DEL,
/// or is not ASCII (a signed compare finds both ends at once).
#[inline(always)]
fn may_be_candidate(b: u8) -> bool {
    let control_or_high = (b as i8) < 0x20;
    let space = (b == b'\t') | (b == b'\n') | (b == 0x0C) | (b == b'\r');
    (control_or_high & !space) | (b == 0x7F)
}

/// Step 3: whether a candidate starts with `b, b1, b2, b3`, for the
/// character rules (`characters`) and U008 (`mojibake`).
///
/// U010..U013: a control or DEL; a C1 control or U+00AD (`C2 80`..`C2 9F`,
/// `C2 AD`); U+061C (`D8 9C`); U+115F/U+1160 (`E1 85`), U+180E (`E1 A0`);
/// U+200B..U+200F and U+202A..U+202E (`E2 80 8B`..`8F`, `AA`..`AE`);
/// U+2060 and U+2066..U+2069 (`E2 81 A0`, `A6`..`A9`); U+3164 (`E3 85`);
/// U+FDD0.. (`EF B7`), U+FE0x (`EF B8`), U+FFA0 (`EF BE`), U+FFFE/F
/// (`EF BF`); in the supplementary planes the noncharacters (`.. .F BF ..`)
/// and the tags and variation selectors (`F3 A0`). U008: `mojibake`'s
/// `may_start_run`.
#[inline(always)]
fn is_candidate(b: u8, b1: u8, b2: u8, b3: u8, characters: bool, mojibake: bool) -> bool {
    let control = (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != 0x0C) & (b != b'\r');
    let c2 = (b == 0xC2) & ((b1 <= 0x9F) | (b1 == 0xAD));
    let d8 = (b == 0xD8) & (b1 == 0x9C);
    let e1 = (b == 0xE1) & ((b1 == 0x85) | (b1 == 0xA0));
    let general = (b == 0xE2)
        & (((b1 == 0x80) & ((0x8B..=0x8F).contains(&b2) | (0xAA..=0xAE).contains(&b2)))
            | ((b1 == 0x81) & ((b2 == 0xA0) | (0xA6..=0xA9).contains(&b2)))
            | ((b1 == 0xA0) & (b2 == 0x80)));
    let e3 = (b == 0xE3) & (b1 == 0x85);
    let ef = (b == 0xEF) & ((b1 == 0xB7) | (b1 == 0xB8) | (b1 == 0xBE) | (b1 == 0xBF));
    // The planes' noncharacters U+nFFFE, U+nFFFF (`F0`..`F4`, `xF`, `BF`),
    // tags and variation selectors (`F3 A0`).
    let astral = (0xF0..=0xF4).contains(&b)
        & ((((b1 & 0x0F) == 0x0F) & (b2 == 0xBF)) | ((b == 0xF3) & (b1 == 0xA0)));
    let character = control | (b == 0x7F) | c2 | d8 | e1 | general | e3 | ef | astral;
    let second = (b2 == 0xC2) | (b2 == 0xC5) | (b2 == 0xC6) | (b2 == 0xCB) | (b2 == 0xE2);
    let latin =
        (b == 0xC3) & (((0x82..=0xBF).contains(&b1) & second) | ((b1 == 0x94) & (b2 >= 0x80)));
    let not_sign = (b == 0xC2) & (b1 == 0xAC) & (b2 >= 0x80);
    let f_hook = (b == 0xC6) & (b1 == 0x92) & matches!(b2, 0xC2 | 0xC3 | 0xCE | 0xCF | 0xE2);
    // `‚` (`E2 80 9A`), `√` (`E2 88 9A`), `∆` (`E2 88 86`), `≈` (`E2 89 88`).
    let mac = (b == 0xE2)
        & (((b1 == 0x80) & (b2 == 0x9A))
            | ((b1 == 0x88) & ((b2 == 0x9A) | (b2 == 0x86)))
            | ((b1 == 0x89) & (b2 == 0x88)))
        & (b3 >= 0x80);
    (character & characters) | ((latin | not_sign | f_hook | mac) & mojibake)
}

/// Step 3 over a chunk: the candidates' positions as a bit mask. The test
/// fills an array of 0/1 bytes (vector compares); 8 of them become 8 bits
/// with one multiplication each (the bytes' bits never overlap in the
/// product: see `packs_bits`).
#[inline(always)]
fn candidate_mask(window: &[u8; CHUNK + AFTER], characters: bool, mojibake: bool) -> u32 {
    let mut hit = [0u8; CHUNK];
    for (i, h) in hit.iter_mut().enumerate() {
        *h = u8::from(is_candidate(
            window[i],
            window[i + 1],
            window[i + 2],
            window[i + 3],
            characters,
            mojibake,
        ));
    }
    let mut mask = 0;
    for (k, eight) in hit.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(eight.try_into().unwrap_or([0; 8]));
        mask |= pack_eight(word) << (8 * k);
    }
    mask
}

/// Eight bytes that are each 0 or 1 (byte `k` of `word`) as bit `k`.
#[inline(always)]
fn pack_eight(word: u64) -> u32 {
    (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// What the pass found: the findings, one summary per rule over the cap
/// (U008, U010..U014 in that order), and whether an ISO-2022 escape was
/// seen (a 7-bit Japanese file, for `not_utf8`).
pub(crate) struct Found {
    pub diagnostics: Vec<Diagnostic>,
    pub summaries: Vec<Diagnostic>,
    pub iso_2022_escape: bool,
}

/// The pass over one file, fed its well-formed bytes in order
/// ([`TextScan::run`]).
pub(crate) struct TextScan<'a> {
    bytes: &'a [u8],
    /// The file's path, which U008's fixes in catalogues depend on.
    path: &'a Path,
    /// U010..U013, when one of them or `not_utf8` is on.
    characters: Option<Pass<'a>>,
    /// U008, when on.
    mojibake: Option<Capped>,
    /// U014, when on.
    non_ascii: Option<Capped>,
    /// U016, when on: its own pass at the end, over the lines of
    /// `confusable_blocks` (all of them when `None`).
    confusable: Option<Capped>,
    confusable_blocks: Option<Vec<Range<usize>>>,
    /// Candidates before these offsets are inside something already looked
    /// at (a tag run, a mojibake run, a line U014 reported).
    characters_next: usize,
    mojibake_next: usize,
    /// The end of the last line U008 searched at every character.
    mojibake_searched: usize,
    /// The quoting of a documentation file (fenced blocks, code spans),
    /// read as far as U008's runs, which it leaves alone there as quoted.
    mojibake_quoting: mojibake::Quoting,
    line_end: usize,
}

impl<'a> TextScan<'a> {
    /// The pass for `bytes` under `policy`, or `None` when every rule it
    /// serves is `allow` (then it is not run at all).
    pub(crate) fn new(
        bytes: &'a [u8],
        path: &'a Path,
        policy: &Policy,
        keep: Keep,
    ) -> Option<TextScan<'a>> {
        let shown = keep.cap(policy.max_per_rule);
        let levels = Levels::of(policy);
        let capped = |rule: Rule| {
            let level = policy.levels.get(rule);
            (level != Level::Allow).then(|| Capped::new(rule, level, shown))
        };
        let scan = TextScan {
            bytes,
            path,
            characters: levels
                .wants_pass()
                .then(|| Pass::new(bytes, path, levels, shown)),
            mojibake: capped(Rule::Mojibake),
            non_ascii: capped(Rule::NonAscii),
            confusable: capped(Rule::MixedScriptConfusable),
            confusable_blocks: None,
            characters_next: 0,
            mojibake_next: 0,
            mojibake_searched: 0,
            mojibake_quoting: mojibake::Quoting::default(),
            line_end: 0,
        };
        let wanted = scan.characters.is_some()
            || scan.mojibake.is_some()
            || scan.non_ascii.is_some()
            || scan.confusable.is_some();
        wanted.then_some(scan)
    }

    /// Whether U016 is on.
    pub(crate) fn wants_confusable(&self) -> bool {
        self.confusable.is_some()
    }

    /// U016 reads only the lines of `blocks` (in order, not overlapping),
    /// outside which no line holds a letter of its scripts.
    pub(crate) fn confusable_reads(&mut self, blocks: Vec<Range<usize>>) {
        self.confusable_blocks = Some(blocks);
    }

    /// Whether the pass reads every non-ASCII byte (U014 is on), not only
    /// the candidates the codec's validator points at.
    pub(crate) fn reads_every_byte(&self) -> bool {
        self.non_ascii.is_some()
    }

    /// Every candidate starting in `from..to`, inside `stretch`: bytes of
    /// the file that are well-formed, or (on the valid path, where blocks
    /// come in as they are validated) will be unless the whole result is
    /// dropped. A rule may read around a candidate anywhere in `stretch`.
    /// Calls come in order of offset.
    pub(crate) fn run(&mut self, stretch: &Range<usize>, from: usize, to: usize) {
        let bytes = self.bytes;
        let (characters, mojibake) = (self.characters.is_some(), self.mojibake.is_some());
        let lines = self.non_ascii.is_some();
        let mut padded;
        let mut at = from;
        while at < to {
            let n = (to - at).min(CHUNK);
            let window: &[u8; CHUNK + AFTER] = match bytes
                .get(at..at + CHUNK + AFTER)
                .and_then(|w| w.try_into().ok())
            {
                Some(window) => window,
                None => {
                    // The file's last bytes, then ASCII letters, which are
                    // never a candidate.
                    let have = bytes.len() - at;
                    padded = [b'a'; CHUNK + AFTER];
                    padded[..have].copy_from_slice(&bytes[at..]);
                    &padded
                }
            };
            let any = window[..CHUNK]
                .iter()
                .fold(false, |any, &b| any | may_be_candidate(b));
            if any {
                if lines && self.line_end < at + n {
                    self.non_ascii_lines(stretch, at, at + n);
                }
                if characters || mojibake {
                    let mut mask = candidate_mask(window, characters, mojibake);
                    if n < CHUNK {
                        // Positions at or after `to` are the next call's.
                        mask &= (1u32 << n) - 1;
                    }
                    while mask != 0 {
                        let i = at + mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        self.candidate(i, stretch);
                    }
                }
            }
            at += CHUNK;
        }
    }

    /// A position the exact test marked: to the rules its lead byte
    /// concerns.
    fn candidate(&mut self, i: usize, stretch: &Range<usize>) {
        let (bytes, path) = (self.bytes, self.path);
        let lead = LEADS[usize::from(bytes[i])];
        if lead & CHARACTERS != 0
            && i >= self.characters_next
            && let Some(pass) = &mut self.characters
        {
            self.characters_next = pass.at(i, stretch);
        }
        if lead & MOJIBAKE != 0
            && i >= self.mojibake_next
            && let Some(capped) = &mut self.mojibake
            && mojibake::may_start_run(bytes, i)
        {
            let (next, searched) = (&mut self.mojibake_next, &mut self.mojibake_searched);
            let quoting = &mut self.mojibake_quoting;
            mojibake::at_candidate(bytes, stretch, i, next, searched, |run| {
                if mojibake::is_quoted(bytes, path, &run.span, quoting) {
                    return;
                }
                let span = run.span.clone();
                capped.push(
                    |level| {
                        let mut d = mojibake::diagnostic(bytes, run, level);
                        mojibake::scope_fix(bytes, path, &mut d);
                        d
                    },
                    span,
                );
            });
        }
    }

    /// U014 for every line of `stretch` that has a non-ASCII byte in
    /// `from..to` and was not reported yet.
    fn non_ascii_lines(&mut self, stretch: &Range<usize>, from: usize, to: usize) {
        let bytes = self.bytes;
        let Some(out) = &mut self.non_ascii else {
            return;
        };
        loop {
            let from = from.max(self.line_end);
            let Some(i) = (from < to)
                .then(|| bytes[from..to].iter().position(|&b| b >= 0x80))
                .flatten()
                .map(|k| from + k)
            else {
                return;
            };
            // The line starts after the last line reported (or the
            // stretch's start): each byte is searched back once.
            let floor = self.line_end.max(stretch.start);
            let start = memchr::memrchr(b'\n', &bytes[floor..i]).map_or(floor, |k| floor + k + 1);
            let end =
                memchr::memchr(b'\n', &bytes[i..stretch.end]).map_or(stretch.end, |k| i + k + 1);
            self.line_end = end;
            // Not well-formed only on the valid path past the block just
            // validated: the file is not valid and this pass's result is
            // dropped.
            if let Ok(line) = std::str::from_utf8(&bytes[start..end]) {
                text_chars::non_ascii_line(line, start, out);
            }
        }
    }

    /// The findings, in rule order, and the summaries.
    pub(crate) fn finish(self) -> Found {
        let (mut diagnostics, mut summaries) = (Vec::new(), Vec::new());
        // U016 reads the file now, asking where its words stand (a test's
        // values, prose) as U011 does, through the character pass's answers
        // when it ran.
        let confusable = self.confusable.map(|mut capped| {
            let own;
            let place = match &self.characters {
                Some(pass) => pass.place(),
                None => {
                    own = Place::new(self.bytes, self.path);
                    &own
                }
            };
            let blocks = self.confusable_blocks.as_deref();
            confusable::pass(self.bytes, blocks, Some(place), &mut capped);
            capped
        });
        if let Some(capped) = self.mojibake {
            capped.finish(&mut diagnostics, &mut summaries);
        }
        let mut iso_2022_escape = false;
        if let Some(pass) = self.characters {
            iso_2022_escape = pass.saw_iso_2022_escape();
            pass.finish(&mut diagnostics, &mut summaries);
        }
        if let Some(mut capped) = self.non_ascii {
            text_chars::count_non_ascii_lines(&mut capped);
            capped.finish(&mut diagnostics, &mut summaries);
        }
        if let Some(capped) = confusable {
            capped.finish(&mut diagnostics, &mut summaries);
        }
        Found {
            diagnostics,
            summaries,
            iso_2022_escape,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_bits() {
        for bits in 0..=255u32 {
            let bytes: [u8; 8] = std::array::from_fn(|k| ((bits >> k) & 1) as u8);
            assert_eq!(pack_eight(u64::from_le_bytes(bytes)), bits);
        }
    }

    /// The table and the exact test agree: every position the test marks
    /// starts with a lead byte the table gives to the rule that wants it,
    /// and the first step lets every such byte through.
    #[test]
    fn the_tests_agree_with_the_table() {
        for b in 0..=255u8 {
            for b1 in (0x80..=0xBF).chain([b'a', 0x00]) {
                for b2 in [0x80, 0x86, 0x88, 0x8B, 0x9A, 0xA0, 0xAA, 0xBF, 0xC3, b'a'] {
                    for b3 in [0x80, b'a'] {
                        let chars = is_candidate(b, b1, b2, b3, true, false);
                        let moji = is_candidate(b, b1, b2, b3, false, true);
                        let lead = LEADS[usize::from(b)];
                        assert!(
                            !chars || lead & CHARACTERS != 0,
                            "{b:02X} {b1:02X} {b2:02X}"
                        );
                        assert!(!moji || lead & MOJIBAKE != 0, "{b:02X} {b1:02X} {b2:02X}");
                        assert!(!(chars || moji) || may_be_candidate(b), "{b:02X}");
                    }
                }
            }
            assert_eq!(
                LEADS[usize::from(b)] != 0,
                matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0xC2 | 0xC3 | 0xC6 | 0xD8 | 0xE1 | 0xE2 | 0xE3 | 0xEF | 0xF0..=0xF4),
                "{b:02X}"
            );
        }
    }

    /// The codec's validator reports the block of every candidate this
    /// pass would test: for each four bytes the exact test marks, the
    /// looser text patterns the validator looks for end at one of them
    /// (the bytes before the candidate, unknown, are given as 0: a pattern
    /// that needs them would fail here).
    #[test]
    fn the_validator_sees_every_candidate() {
        use crate::candidates::{CANDIDATES, TEXT};
        let ends = |z, a, c| CANDIDATES.ends(z, a, c) & TEXT != 0;
        let b2s: Vec<u8> = (0x80..=0xBF)
            .chain([0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2, 0xEF, b'a', 0])
            .collect();
        for b in 0..=255u8 {
            for b1 in 0..=255u8 {
                for &b2 in &b2s {
                    for b3 in [0x80, 0xBF, b'a'] {
                        // Well-formed starts only: a lead byte's
                        // continuation bytes are there.
                        let cont = |x: u8| (0x80..=0xBF).contains(&x);
                        let well_formed = match b {
                            0x80..=0xC1 => false,
                            0xC2..=0xDF => cont(b1),
                            0xE0..=0xEF => cont(b1) && cont(b2),
                            0xF0..=0xFF => cont(b1) && cont(b2) && cont(b3),
                            _ => true,
                        };
                        if well_formed && is_candidate(b, b1, b2, b3, true, true) {
                            assert!(
                                ends(0, 0, b)
                                    || ends(0, b, b1)
                                    || ends(b, b1, b2)
                                    || ends(b1, b2, b3),
                                "{b:02X} {b1:02X} {b2:02X} {b3:02X}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every lead byte in the table starts a character some rule reports.
    #[test]
    fn every_lead_starts_a_candidate() {
        let examples: [&[u8]; 11] = [
            b"\x01",
            b"\x7F",
            "\u{85}".as_bytes(),
            "Ã©Ã".as_bytes(),
            "\u{61C}".as_bytes(),
            "\u{180E}".as_bytes(),
            "\u{202E}".as_bytes(),
            "\u{3164}".as_bytes(),
            "\u{FDD0}".as_bytes(),
            "\u{1FFFE}".as_bytes(),
            "\u{E0041}".as_bytes(),
        ];
        for example in examples {
            let mut w = [b'a'; 4];
            w[..example.len().min(4)].copy_from_slice(&example[..example.len().min(4)]);
            assert!(
                is_candidate(w[0], w[1], w[2], w[3], true, true),
                "{example:02X?}"
            );
        }
    }
}
