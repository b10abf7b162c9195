//! The one pass over a file's bytes: every maximal subpart (grouped into
//! runs for U001), every U+FEFF (U002) and every U+FFFD (U007), and the
//! text pass (`text_scan`: U008, U010..U014) over the well-formed bytes.
//! Valid input goes through the codec's fused validator 64 KiB at a time,
//! each block searched by the text pass while it is in cache; input with
//! errors takes the streaming decoder block by block, each block searched
//! for marks while it is in cache, and the text pass over each well-formed
//! stretch between ill-formed sequences. Before that full pass, U005 judges
//! a file with errors on its first few ([`Errors::first_of`]); legacy text
//! is then counted ([`Errors::listing`]) for its one finding, and never takes
//! the full pass.

use std::ops::Range;
use std::path::Path;

use utf8lint_codec::{Event, Found, Mark, Subpart, Utf8Decoder, Wanted};

use crate::candidates::{self, CANDIDATES, DIRECTIVE_PAIR};
use crate::errors::{Errors, MAX_SHOWN_SEQUENCES};

use crate::rules::fix_scope::Lang;
use crate::rules::{invalid_utf8, replacement_character, stray_feff};
use crate::shown::{Capped, Keep};
use crate::text_scan::{self, TextScan};
use crate::{Diagnostic, Level, Policy, Rule};

/// Bytes per block on the error path: small enough to stay in L2 between
/// the decoder and the search for marks.
const BLOCK: usize = 128 * 1024;

pub(crate) struct Scan {
    /// U001 and U002 diagnostics, capped.
    pub diagnostics: Vec<Diagnostic>,
    /// One summary per rule that went over the cap.
    pub summaries: Vec<Diagnostic>,
    /// The file's ill-formed sequences (none on the fast path).
    pub errors: Errors,
    /// The text pass's findings (empty when it did not run).
    pub text: text_scan::Found,
    /// The blocks in which the validator found `DIRECTIVE_PAIR`, where an
    /// inline suppression's marker may be (`None`: not looked for, so
    /// anywhere).
    pub directives: Option<Vec<Range<usize>>>,
    /// The blocks that hold a byte that is not ASCII, adjacent ones merged
    /// (`None`: not looked for, so anywhere; `Some` of none: ASCII).
    pub non_ascii: Option<Vec<Range<usize>>>,
    /// The blocks in which a text candidate ([`candidates::TEXT`]) ends,
    /// adjacent ones merged (`None`: not looked for, so anywhere): those
    /// of U018's variation selectors and tags among them.
    pub text_candidates: Option<Vec<Range<usize>>>,
}

/// The cap of a rule of the byte pass under `keep`: U001's counts its
/// sequences too ([`MAX_SHOWN_SEQUENCES`]).
fn capped(rule: Rule, policy: &Policy, keep: Keep) -> Capped {
    let capped = Capped::new(rule, policy.levels.get(rule), keep.cap(policy.max_per_rule));
    if rule == Rule::InvalidUtf8 && keep == Keep::Shown {
        capped.counting_units("ill-formed sequence", MAX_SHOWN_SEQUENCES)
    } else {
        capped
    }
}

struct Runs<'a> {
    bytes: &'a [u8],
    /// Whether U001 may offer legacy readings of this file's bytes, asked
    /// when the first run is reported.
    readings: Option<crate::rules::not_utf8::StrayBytes>,
    run: Vec<Subpart>,
    out: Capped,
    errors: Errors,
}

impl Runs<'_> {
    fn push(&mut self, sub: Subpart) {
        self.errors.push(sub);
        if self.out.level == Level::Allow {
            return;
        }
        let adjacent = self.run.last().is_some_and(|last| last.end() == sub.offset);
        if !adjacent || self.run.len() >= invalid_utf8::MAX_SUBPARTS_PER_RUN {
            self.flush();
        }
        self.run.push(sub);
    }

    fn flush(&mut self) {
        if self.run.is_empty() {
            return;
        }
        if self.out.full() {
            let span = self.run[0].offset..self.run[self.run.len() - 1].end();
            let units = self.run.len();
            self.out.hide(span, 1, units);
        } else {
            let before = self.out.kept.len();
            let bytes = self.bytes;
            let readings = *self
                .readings
                .get_or_insert_with(|| crate::rules::not_utf8::stray_bytes(bytes));
            invalid_utf8::run_diagnostics(
                self.bytes,
                &self.run,
                self.out.level,
                readings,
                &mut self.out.kept,
            );
            self.out.settle_from(before);
        }
        self.run.clear();
    }
}

/// The fast path for the common case, a file that is valid UTF-8: one
/// pass of the codec's fused validator, which reports every U+FEFF and
/// U+FFFD as it validates and the blocks in which a candidate
/// ([`CANDIDATES`]) may end (4 KiB each with the SIMD kernel; nearly none
/// in ordinary text), then the text pass over the blocks of a text
/// candidate alone, and U016 over the lines of those of its own. U014
/// `non_ascii`, which reads every non-ASCII line, makes the text pass read
/// the whole file. `None` if
/// the bytes are not valid: the caller starts again on the error path
/// (what was found so far is dropped; the text pass runs only once the
/// whole file is known to be well-formed).
pub(crate) fn scan_valid(bytes: &[u8], path: &Path, policy: &Policy, keep: Keep) -> Option<Scan> {
    let mut marks = Marks::new(policy, keep);
    let mut text = TextScan::new(bytes, path, policy, keep);
    let every_byte = text.as_ref().is_some_and(TextScan::reads_every_byte);
    let confusable = text.as_ref().is_some_and(TextScan::wants_confusable);
    // U017 and U018 look only at characters outside ASCII: the blocks that
    // hold none they need not read (most files hold none at all).
    let non_ascii_wanted = [Rule::LookalikePunctuation, Rule::HiddenPayload]
        .iter()
        .any(|&rule| policy.levels.get(rule) != Level::Allow);
    let wanted = Wanted {
        marks: marks.wanted(),
        patterns: (text.is_some() && !every_byte || confusable || non_ascii_wanted)
            .then_some(&CANDIDATES),
        pair: Some(DIRECTIVE_PAIR),
    };
    let mut blocks: Vec<Range<usize>> = Vec::new();
    let mut confusable_blocks: Vec<Range<usize>> = Vec::new();
    let mut directives: Vec<Range<usize>> = Vec::new();
    let mut non_ascii: Vec<Range<usize>> = Vec::new();
    let valid = utf8lint_codec::validate_scanning(bytes, wanted, |found| match found {
        Found::Mark(offset, mark) => marks.push(bytes, path, offset, mark),
        Found::Block(block, kinds) => {
            if kinds & candidates::NON_ASCII != 0 {
                extend(&mut non_ascii, block.clone());
            }
            if kinds & candidates::CONFUSABLE != 0 {
                extend(&mut confusable_blocks, block.clone());
            }
            if kinds & candidates::TEXT != 0 {
                extend(&mut blocks, block);
            }
        }
        Found::PairBlock(block) => extend(&mut directives, block),
    });
    if !valid {
        return None;
    }
    if let Some(text) = &mut text {
        if confusable {
            text.confusable_reads(confusable_blocks);
        }
        let whole = 0..bytes.len();
        if every_byte {
            text.run(&whole, 0, bytes.len());
        } else {
            let mut done = 0;
            for block in &blocks {
                // A candidate that ends in the block starts at most 3 bytes
                // before it (a pattern looks at a byte and the two before it;
                // U008's Mac Roman leads are 4 bytes).
                let from = block.start.saturating_sub(3).max(done);
                text.run(&whole, from, block.end);
                done = block.end;
            }
        }
    }
    let mut diagnostics = Vec::new();
    let mut summaries = Vec::new();
    marks.finish(&mut diagnostics, &mut summaries);
    Some(Scan {
        diagnostics,
        summaries,
        errors: Errors::default(),
        text: finish_text(text),
        directives: Some(directives),
        non_ascii: wanted.patterns.map(|_| non_ascii),
        text_candidates: wanted.patterns.map(|_| blocks),
    })
}

/// Adds `block` to the ordered `ranges`, merged with the last one when they
/// touch.
fn extend(ranges: &mut Vec<Range<usize>>, block: Range<usize>) {
    match ranges.last_mut() {
        Some(last) if last.end == block.start => last.end = block.end,
        _ => ranges.push(block),
    }
}

fn finish_text(text: Option<TextScan<'_>>) -> text_scan::Found {
    text.map_or(
        text_scan::Found {
            diagnostics: Vec::new(),
            summaries: Vec::new(),
            iso_2022_escape: false,
        },
        TextScan::finish,
    )
}

/// The U+FEFF and U+FFFD findings of a scan.
struct Marks {
    feff: Capped,
    fffd: Capped,
    /// The file's language for U002's fixes, asked at the first one.
    lang: Option<Option<Lang>>,
}

impl Marks {
    fn new(policy: &Policy, keep: Keep) -> Self {
        let capped = |rule| capped(rule, policy, keep);
        Marks {
            feff: capped(Rule::StrayFeff),
            fffd: capped(Rule::ReplacementCharacter),
            lang: None,
        }
    }

    /// One U+FEFF or U+FFFD at `offset`, kept or counted under the cap.
    fn push(&mut self, bytes: &[u8], path: &Path, offset: usize, mark: Mark) {
        let capped = match mark {
            // A U+FEFF at offset 0 is the byte-order mark: U003/U004's.
            Mark::Feff if offset == 0 => return,
            Mark::Feff => &mut self.feff,
            Mark::Fffd => &mut self.fffd,
        };
        if capped.level == Level::Allow {
            return;
        }
        if capped.full() {
            capped.hide(offset..offset + 3, 1, 1);
            return;
        }
        let diagnostic = match mark {
            Mark::Feff => {
                let mut d = stray_feff::diagnostic(bytes, offset, capped.level);
                let lang = *self.lang.get_or_insert_with(|| Lang::of(path, bytes));
                stray_feff::scope_fix(bytes, lang, &mut d);
                d
            }
            Mark::Fffd => replacement_character::diagnostic(offset, capped.level),
        };
        capped.keep(diagnostic);
    }

    fn wanted(&self) -> bool {
        self.feff.level != Level::Allow || self.fffd.level != Level::Allow
    }

    /// The kept diagnostics onto `out`, the summaries onto `summaries`.
    fn finish(self, out: &mut Vec<Diagnostic>, summaries: &mut Vec<Diagnostic>) {
        self.feff.finish(out, summaries);
        self.fffd.finish(out, summaries);
    }
}

/// The full pass for a file with ill-formed sequences: the streaming decoder
/// reports every maximal subpart, block by block, and the U+FEFF search
/// follows it through the same blocks. The text pass reads each well-formed
/// stretch when the ill-formed sequence after it is reported (a candidate
/// whose character an ill-formed sequence cuts is U001's, not the text
/// rules').
pub(crate) fn scan_with_errors(bytes: &[u8], path: &Path, policy: &Policy, keep: Keep) -> Scan {
    let mut runs = Runs {
        bytes,
        readings: None,
        run: Vec::new(),
        out: capped(Rule::InvalidUtf8, policy, keep),
        errors: Errors::default(),
    };
    let mut marks = Marks::new(policy, keep);
    let mut text = TextScan::new(bytes, path, policy, keep);
    let mut valid_from = 0;
    let mut decoder = Utf8Decoder::new();
    let mut start = 0;
    for block in bytes.chunks(BLOCK) {
        let end = start + block.len();
        decoder.decode(block, end == bytes.len(), |event| {
            if let Event::Error(sub) = event {
                runs.push(sub);
                if let Some(text) = &mut text {
                    let stretch = valid_from..sub.offset;
                    text.run(&stretch, stretch.start, stretch.end);
                }
                valid_from = sub.end();
            }
        });
        if marks.wanted() {
            let from = start.saturating_sub(2);
            // A mark ending in this block may begin up to two bytes before it
            // (the previous block's search saw only marks ending in it).
            utf8lint_codec::find_marks(&bytes[from..end], |at, mark| {
                marks.push(bytes, path, from + at, mark)
            });
        }
        start = end;
    }
    runs.flush();
    if let Some(text) = &mut text {
        let stretch = valid_from..bytes.len();
        text.run(&stretch, stretch.start, stretch.end);
    }
    let (mut diagnostics, mut summaries) = (Vec::new(), Vec::new());
    runs.out.finish(&mut diagnostics, &mut summaries);
    marks.finish(&mut diagnostics, &mut summaries);
    Scan {
        diagnostics,
        summaries,
        errors: runs.errors,
        text: finish_text(text),
        directives: None,
        non_ascii: None,
        text_candidates: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The blocks the scan calls non-ASCII hold every non-ASCII byte of a
    /// valid file, start and end on characters, and are none in ASCII.
    #[test]
    fn the_non_ascii_blocks_cover_every_byte_outside_ascii() {
        let policy = Policy::default();
        let blocks = |bytes: &[u8]| {
            scan_valid(bytes, Path::new("a.rs"), &policy, Keep::Shown)
                .unwrap()
                .non_ascii
                .expect("looked for")
        };
        assert_eq!(
            blocks(&b"fn main() {}\n".repeat(2000)),
            Vec::<Range<usize>>::new()
        );
        for at in [0, 1, 4094, 4095, 4096, 20_000] {
            let mut text = "x".repeat(30_000);
            text.insert_str(at, "\u{1F600}\u{2014}é");
            let bytes = text.as_bytes();
            let found = blocks(bytes);
            for (i, _) in bytes.iter().enumerate().filter(|(_, b)| !b.is_ascii()) {
                assert!(
                    found.iter().any(|r| r.contains(&i)),
                    "byte {i} of {at}: {found:?}"
                );
            }
            for r in &found {
                assert!(
                    text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
                    "{r:?}"
                );
            }
        }
    }

    /// What the full pass found of the ill-formed sequences.
    fn full_pass(bytes: &[u8]) -> Errors {
        scan_with_errors(bytes, Path::new("x.txt"), &Policy::default(), Keep::Shown).errors
    }

    fn same(a: &Errors, b: &Errors) -> bool {
        a.count == b.count && a.first == b.first && a.ranges == b.ranges
    }

    /// U005 is judged on `Errors::of`, the full pass's errors are what U001
    /// and U009 see: the two must be the same count, first sequences and
    /// stretches, also where a sequence or a stretch crosses the full
    /// pass's block boundary.
    #[test]
    fn the_count_before_the_full_pass_is_the_full_pass_count() {
        let mut bytes = vec![b'a'; 2 * BLOCK + 10];
        for at in [
            0,
            5,
            6,
            7,
            BLOCK - 2,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            2 * BLOCK + 9,
        ] {
            bytes[at] = 0xE9;
        }
        // A three-byte sequence cut by the boundary, and a well-formed one
        // across it.
        bytes[BLOCK + 100..BLOCK + 102].copy_from_slice(b"\xE2\x82");
        bytes[2 * BLOCK - 1..2 * BLOCK + 2].copy_from_slice("€".as_bytes());
        let counted = Errors::of(&bytes);
        assert_eq!(counted.count, 10, "{counted:?}");
        assert!(same(&counted, &full_pass(&bytes)), "{counted:?}");
    }

    proptest! {
        #[test]
        fn the_count_agrees_on_any_bytes(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(b'\n'), 0x80u8..=0xFF, any::<u8>()],
                0..600,
            )
        ) {
            prop_assert!(same(&Errors::of(&bytes), &full_pass(&bytes)));
        }
    }
}
