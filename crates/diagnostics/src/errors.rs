//! A file's ill-formed sequences as the whole-file rules need them (how
//! many, the first few, where), and the ceilings on how many are kept and
//! shown. A leaf: the byte pass (`scan.rs`) fills it, U005 judges and lists
//! from it, and neither imports the other for it.

use std::ops::Range;

use utf8lint_codec::Subpart;

/// How many of the first subparts are kept for `not_utf8`'s message.
const FIRST_ERRORS: usize = 6;

/// At most this many stretches of ill-formed bytes (adjacent subparts
/// merged) are kept for `not_utf8`, which lists them all in one finding:
/// 16 MiB of ranges, reached only by a file of millions of scattered bad
/// bytes.
pub(crate) const MAX_ERROR_RANGES: usize = 1 << 20;

/// A U001 diagnostic covers a run of up to 256 adjacent ill-formed
/// sequences, each listed in it (and in its fix): no new U001 diagnostic
/// starts once this many sequences are shown, so that 10,000 runs of 256
/// (60 MB of subparts and edits, 390 MB of JSON) are never kept. It is 256
/// whole runs ([`MAX_SUBPARTS_PER_RUN`]),
/// above what the default cap of 50 diagnostics ever shows; U005 lists its
/// subparts under the same ceiling.
pub(crate) const MAX_SHOWN_SEQUENCES: usize = 256 * MAX_SUBPARTS_PER_RUN;

/// A run longer than this many subparts is split, so that one U001
/// diagnostic (and its list of subparts) stays a readable size however
/// hostile the file.
pub(crate) const MAX_SUBPARTS_PER_RUN: usize = 256;

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
    pub(crate) fn push(&mut self, sub: Subpart) {
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

    /// Every ill-formed sequence of `bytes`, and nothing else, counted by
    /// stretches: what [`Errors::listing`] is checked against (and this
    /// against the full pass, in `scan.rs`). Legacy text has an error at
    /// nearly every non-ASCII byte, and for such a file this is a fraction
    /// of the byte pass's cost (no U001 diagnostics, marks or text pass,
    /// all of which U005 replaces).
    #[cfg(test)]
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

    /// [`Errors::of`], and the subparts of the first `max_runs` runs U001
    /// would report (adjacent subparts, split at [`MAX_SUBPARTS_PER_RUN`];
    /// 0: every run), never more than [`MAX_SHOWN_SEQUENCES`], in one pass
    /// over them: the one finding that stands for U001's (U005) lists every
    /// position those would show under the same cap, walks the file's
    /// errors once, and counts by stretches past what it lists.
    pub(crate) fn listing(bytes: &[u8], max_runs: usize) -> (Errors, Vec<Subpart>) {
        let mut errors = Errors::default();
        let mut listed: Vec<Subpart> = Vec::new();
        let (mut runs, mut in_run, mut listing) = (0, 0, true);
        let (mut more, mut after) = (false, 0);
        for sub in utf8lint_codec::subparts(bytes) {
            if listing {
                let adjacent = listed.last().is_some_and(|last| last.end() == sub.offset);
                if !adjacent || in_run >= MAX_SUBPARTS_PER_RUN {
                    listing = !(max_runs != 0 && runs == max_runs);
                    (runs, in_run) = (runs + 1, 0);
                }
                listing &= listed.len() < MAX_SHOWN_SEQUENCES;
            }
            // At least the first few, which `first` keeps.
            if !listing && errors.count >= FIRST_ERRORS {
                more = true;
                break;
            }
            errors.push(sub);
            if listing {
                in_run += 1;
                listed.push(sub);
            }
            after = sub.end();
        }
        if more {
            // A maximal subpart ends where the next decode starts afresh:
            // the rest is counted as a file of its own, its first stretch
            // joined to the last range when they touch.
            utf8lint_codec::for_each_error_stretch(&bytes[after..], |range, count| {
                errors.count += count;
                let range = range.start + after..range.end + after;
                let kept = errors.ranges.len();
                match errors.ranges.last_mut() {
                    Some(last) if last.end == range.start => last.end = range.end,
                    _ if kept < MAX_ERROR_RANGES => errors.ranges.push(range),
                    _ => {}
                }
            });
        }
        (errors, listed)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The listing counts as [`Errors::of`] does and lists the subparts
        /// of the first `max` runs, whatever `max` cuts (between two runs,
        /// past the end, none).
        #[test]
        fn the_listing_is_the_count_and_the_first_subparts(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(b' '), 0x80u8..=0xFF, any::<u8>()],
                0..400,
            ),
            max in 0usize..40,
        ) {
            let (listed_errors, listed) = Errors::listing(&bytes, max);
            let counted = Errors::of(&bytes);
            prop_assert_eq!(listed_errors.count, counted.count);
            prop_assert_eq!(&listed_errors.first, &counted.first);
            prop_assert_eq!(&listed_errors.ranges, &counted.ranges);
            // The subparts of the first `max` runs, as U001 forms them (0:
            // every run).
            let mut first: Vec<Subpart> = Vec::new();
            let (mut runs, mut in_run) = (0, 0);
            for sub in utf8lint_codec::subparts(&bytes) {
                let adjacent = first.last().is_some_and(|last| last.end() == sub.offset);
                if !adjacent || in_run == MAX_SUBPARTS_PER_RUN {
                    if max != 0 && runs == max {
                        break;
                    }
                    (runs, in_run) = (runs + 1, 0);
                }
                in_run += 1;
                first.push(sub);
            }
            prop_assert_eq!(listed, first);
        }
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
        assert_eq!(
            (counted.count, &counted.first, &counted.ranges),
            (pushed.count, &pushed.first, &pushed.ranges)
        );
    }
}
