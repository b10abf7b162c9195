//! The one pass over a file's bytes: every maximal subpart (grouped into
//! runs for U001), every U+FEFF (U002) and every U+FFFD (U007), and the
//! text pass (`text_scan`: U008, U010..U014) over the well-formed bytes.
//! Valid input goes through the codec's fused validator 64 KiB at a time,
//! each block searched by the text pass while it is in cache; input with
//! errors takes the streaming decoder block by block, each block searched
//! for marks while it is in cache, and the text pass over each well-formed
//! stretch between ill-formed sequences. Before that full pass, U005 judges
//! a file with errors on its first few ([`Errors::first_of`]); legacy text
//! is then counted ([`Errors::of`]) for its one finding, and never takes
//! the full pass.

use std::ops::Range;
use std::path::Path;

use utf8lint_codec::{Event, Found, Mark, Subpart, Utf8Decoder, Wanted};

use crate::candidates::{self, CANDIDATES, DIRECTIVE_PAIR};

use crate::rules::fix_scope::Lang;
use crate::rules::{invalid_utf8, replacement_character, stray_feff};
use crate::shown::{Keep, MAX_SHOWN_PER_RULE, keep_merged, shown_per_rule};
use crate::text_scan::{self, TextScan};
use crate::{Diagnostic, Level, Policy, Rule};

/// Bytes per block on the error path: small enough to stay in L2 between
/// the decoder and the search for marks.
const BLOCK: usize = 128 * 1024;

/// How many of the first subparts are kept for `not_utf8`'s message.
const FIRST_ERRORS: usize = 6;

/// At most this many stretches of ill-formed bytes (adjacent subparts
/// merged) are kept for `not_utf8`, which lists them all in one finding:
/// 16 MiB of ranges, reached only by a file of millions of scattered bad
/// bytes.
pub(crate) const MAX_ERROR_RANGES: usize = 1 << 20;

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
}

/// A U001 diagnostic covers a run of up to 256 adjacent ill-formed
/// sequences, each listed in it (and in its fix): no new U001 diagnostic
/// starts once this many sequences are shown, so that 10,000 runs of 256
/// (60 MB of subparts and edits, 390 MB of JSON) are never kept. It is 256
/// whole runs, above what the default cap of 50 diagnostics ever shows.
pub(crate) const MAX_SHOWN_SEQUENCES: usize = 256 * invalid_utf8::MAX_SUBPARTS_PER_RUN;

/// Keeps at most `max` diagnostics of one rule (0: all of them) and counts
/// what it drops.
struct Capped {
    rule: Rule,
    level: Level,
    max: usize,
    kept: Vec<Diagnostic>,
    /// Ill-formed sequences (U001) or occurrences in `kept[..counted]`.
    kept_units: usize,
    counted: usize,
    /// The most units kept before no new diagnostic starts (0: no limit);
    /// only U001's diagnostics hold more than one.
    max_units: usize,
    hidden: usize,
    hidden_units: usize,
    first_hidden: Option<Range<usize>>,
    /// [`Keep::Fixes`]: findings merged as they are kept.
    merged: bool,
}

impl Capped {
    fn new(rule: Rule, level: Level, policy: &Policy, keep: Keep) -> Self {
        Capped {
            rule,
            level,
            max: match keep {
                Keep::Shown => shown_per_rule(policy.max_per_rule),
                Keep::Every | Keep::Fixes => 0,
            },
            merged: keep == Keep::Fixes,
            kept: Vec::new(),
            kept_units: 0,
            counted: 0,
            max_units: match keep {
                Keep::Shown => MAX_SHOWN_SEQUENCES,
                Keep::Every | Keep::Fixes => 0,
            },
            hidden: 0,
            hidden_units: 0,
            first_hidden: None,
        }
    }

    fn full(&mut self) -> bool {
        if self.max == 0 && self.max_units == 0 {
            return false;
        }
        if self.max != 0 && self.kept.len() >= self.max {
            return true;
        }
        if self.counted > self.kept.len() {
            // Trimmed since last counted: count again.
            (self.kept_units, self.counted) = (0, 0);
        }
        self.kept_units += self.kept[self.counted..]
            .iter()
            .map(|d| d.subparts.len().max(1))
            .sum::<usize>();
        self.counted = self.kept.len();
        self.max_units != 0 && self.kept_units >= self.max_units
    }

    /// Notes something not shown: `units` subparts or occurrences at `span`.
    fn hide(&mut self, span: Range<usize>, diagnostics: usize, units: usize) {
        self.hidden += diagnostics;
        self.hidden_units += units;
        self.first_hidden.get_or_insert(span);
    }

    fn summary(&self) -> Option<Diagnostic> {
        if self.hidden_units == 0 {
            return None;
        }
        let span = self.first_hidden.clone().unwrap_or(0..0);
        let what = match self.rule {
            Rule::InvalidUtf8 => format!(
                "{} more ill-formed sequence{} in this file not shown",
                self.hidden_units,
                if self.hidden_units == 1 { "" } else { "s" }
            ),
            _ => format!(
                "{} more `{}` finding{} in this file not shown",
                self.hidden_units,
                self.rule.name(),
                if self.hidden_units == 1 { "" } else { "s" }
            ),
        };
        let shown_units: usize = self.kept.iter().map(|d| d.subparts.len().max(1)).sum();
        let note = if self.max_units != 0 && shown_units >= self.max_units {
            format!(
                "at most {MAX_SHOWN_SEQUENCES} ill-formed sequences are shown per file whatever `max-per-file` says: \
                 the ceiling is absolute (`--fix` is not limited by it)"
            )
        } else if self.max < MAX_SHOWN_PER_RULE {
            format!(
                "at most {} `{}` findings are shown per file; `--max-per-file 0` shows up to {MAX_SHOWN_PER_RULE}",
                self.max,
                self.rule.name()
            )
        } else {
            format!(
                "at most {MAX_SHOWN_PER_RULE} `{}` findings are shown per file whatever `max-per-file` says: \
                 the ceiling is absolute (`--fix` is not limited by it)",
                self.rule.name()
            )
        };
        Some(
            Diagnostic::new(self.rule, self.level, span, what)
                .with_label("the first one not shown")
                .with_note(note)
                .standing_for(self.hidden.max(1)),
        )
    }
}

/// A file's ill-formed sequences as the whole-file rules need them: how
/// many, the first few, and where.
#[derive(Debug, Default)]
pub(crate) struct Errors {
    /// All maximal subparts in the file.
    pub count: usize,
    /// The first [`FIRST_ERRORS`] of them.
    pub first: Vec<Subpart>,
    /// All of them as byte ranges, adjacent ones merged (at most
    /// [`MAX_ERROR_RANGES`]).
    pub ranges: Vec<Range<usize>>,
}

impl Errors {
    /// Counts the next subpart (in byte order).
    fn push(&mut self, sub: Subpart) {
        self.count += 1;
        if self.first.len() < FIRST_ERRORS {
            self.first.push(sub);
        }
        let kept = self.ranges.len();
        match self.ranges.last_mut() {
            Some(last) if last.end == sub.offset => last.end = sub.end(),
            _ if kept < MAX_ERROR_RANGES => self.ranges.push(sub.range()),
            _ => {}
        }
    }

    /// Every ill-formed sequence of `bytes`, and nothing else: what U005's
    /// verdict needs before the full pass. Legacy text has an error at
    /// nearly every non-ASCII byte, and for such a file this is a fraction
    /// of `scan`'s cost (no U001 diagnostics, marks or text pass, all of
    /// which U005 replaces).
    pub(crate) fn of(bytes: &[u8]) -> Errors {
        let mut errors = Errors {
            first: utf8lint_codec::subparts(bytes).take(FIRST_ERRORS).collect(),
            ..Errors::default()
        };
        // Stretches are maximal: none extends the last one kept, so the
        // first `MAX_ERROR_RANGES` of them are the ranges `push` keeps.
        utf8lint_codec::for_each_error_stretch(bytes, |range, count| {
            errors.count += count;
            if errors.ranges.len() < MAX_ERROR_RANGES {
                errors.ranges.push(range);
            }
        });
        errors
    }

    /// Only the first [`FIRST_ERRORS`] sequences, and one more if there is
    /// one: `count` is exact when it is at most `FIRST_ERRORS`, which is
    /// all U005's verdict asks (a file whose errors are all at its end is a
    /// cut character): `not_utf8::legacy_finding`.
    pub(crate) fn first_of(bytes: &[u8]) -> Errors {
        let mut errors = Errors::default();
        for sub in utf8lint_codec::subparts(bytes).take(FIRST_ERRORS + 1) {
            errors.push(sub);
        }
        errors
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
            if self.out.merged {
                let new: Vec<Diagnostic> = self.out.kept.drain(before..).collect();
                for d in new {
                    keep_merged(&mut self.out.kept, d);
                }
            }
            // A run may produce several diagnostics; trim back to the cap.
            if self.out.max != 0 && self.out.kept.len() > self.out.max {
                let extra: Vec<Diagnostic> =
                    self.out.kept.drain(self.out.max.max(before)..).collect();
                for d in extra {
                    let units = d.subparts.len();
                    self.out.hide(d.span.clone(), 1, units);
                }
            }
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
    let wanted = Wanted {
        marks: marks.wanted(),
        patterns: (text.is_some() && !every_byte || confusable).then_some(&CANDIDATES),
        pair: Some(DIRECTIVE_PAIR),
    };
    let mut blocks: Vec<Range<usize>> = Vec::new();
    let mut confusable_blocks: Vec<Range<usize>> = Vec::new();
    let mut directives: Vec<Range<usize>> = Vec::new();
    let valid = utf8lint_codec::validate_scanning(bytes, wanted, |found| match found {
        Found::Mark(offset, mark) => marks.push(bytes, path, offset, mark),
        Found::Block(block, kinds) => {
            if kinds & candidates::CONFUSABLE != 0 {
                extend(&mut confusable_blocks, block.clone());
            }
            if kinds & candidates::TEXT != 0 && !every_byte {
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
        }
        let mut done = 0;
        for block in blocks {
            // A candidate that ends in the block starts at most 3 bytes
            // before it (a pattern looks at a byte and the two before it;
            // U008's Mac Roman leads are 4 bytes).
            let from = block.start.saturating_sub(3).max(done);
            text.run(&whole, from, block.end);
            done = block.end;
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
        let capped = |rule| Capped::new(rule, policy.levels.get(rule), policy, keep);
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
        if capped.merged {
            keep_merged(&mut capped.kept, diagnostic);
        } else {
            capped.kept.push(diagnostic);
        }
    }

    fn wanted(&self) -> bool {
        self.feff.level != Level::Allow || self.fffd.level != Level::Allow
    }

    /// The kept diagnostics onto `out`, the summaries onto `summaries`.
    fn finish(self, out: &mut Vec<Diagnostic>, summaries: &mut Vec<Diagnostic>) {
        summaries.extend(self.feff.summary());
        summaries.extend(self.fffd.summary());
        out.extend(self.feff.kept);
        out.extend(self.fffd.kept);
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
        out: Capped::new(
            Rule::InvalidUtf8,
            policy.levels.get(Rule::InvalidUtf8),
            policy,
            keep,
        ),
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
    let mut summaries: Vec<Diagnostic> = runs.out.summary().into_iter().collect();
    let mut diagnostics = runs.out.kept;
    marks.finish(&mut diagnostics, &mut summaries);
    Scan {
        diagnostics,
        summaries,
        errors: runs.errors,
        text: finish_text(text),
        directives: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// Past [`MAX_ERROR_RANGES`] stretches the count goes on and no range
    /// is added, as when each sequence is pushed in turn; a stretch that
    /// holds a sequence of several bytes (`\xE2\x82`) is one range.
    #[test]
    fn the_ranges_stop_at_their_ceiling_and_the_count_does_not() {
        let mut bytes = b"\xE9\xE2\x82\xFF x".repeat(MAX_ERROR_RANGES + 3);
        bytes.extend_from_slice(b"\xC0\xAF");
        let mut pushed = Errors::default();
        utf8lint_codec::for_each_subpart(&bytes, |sub| pushed.push(sub));
        let counted = Errors::of(&bytes);
        assert_eq!(counted.count, 3 * (MAX_ERROR_RANGES + 3) + 2);
        assert_eq!(counted.ranges.len(), MAX_ERROR_RANGES);
        assert_eq!(counted.ranges[1], 6..10);
        assert!(same(&counted, &pushed));
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
