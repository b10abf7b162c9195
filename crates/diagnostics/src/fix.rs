//! Fixes as byte edits (the input may not be UTF-8), with ruff's three
//! applicabilities.

use std::borrow::Cow;
use std::ops::Range;

use encoding_rs::Encoding;

/// How safe it is to apply a fix without a person looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Applicability {
    /// Shown as `help:`, never applied.
    DisplayOnly,
    /// Applied only with `--unsafe-fixes`: it may change meaning or lose
    /// information (replacing bytes with U+FFFD, transcoding).
    Unsafe,
    /// Applied by `--fix`: the result means what the author meant.
    Safe,
}

impl Applicability {
    /// `safe`, `unsafe` or `display-only`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Applicability::DisplayOnly => "display-only",
            Applicability::Unsafe => "unsafe",
            Applicability::Safe => "safe",
        }
    }
}

/// Replace the bytes in `range` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    range: Range<usize>,
    replacement: Replacement,
}

/// What an edit puts in place of its range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Replacement {
    Bytes(Box<[u8]>),
    /// A few bytes held in place (a U+FFFD, a word joiner, an escape):
    /// a plan of millions of them allocates none for them.
    Short {
        len: u8,
        bytes: [u8; SHORT],
    },
    /// The range's own bytes decoded from this encoding to UTF-8 (they
    /// decode without errors): a whole-file conversion, made only when it
    /// is applied or shown. Built with every finding, the converted copy of
    /// every legacy file was 2.6% of a whole-tree scan's CPU and a third of
    /// its page faults, for reports that never show it.
    Decoded(&'static Encoding),
}

/// The most bytes an edit holds in place, without an allocation of its
/// own (the size a boxed slice takes anyway, less the length byte).
const SHORT: usize = 14;

impl Edit {
    /// An edit replacing `range` with `replacement`.
    pub fn replace(range: Range<usize>, replacement: impl Into<Box<[u8]>>) -> Edit {
        let replacement: Box<[u8]> = replacement.into();
        let replacement = match u8::try_from(replacement.len()) {
            Ok(len) if !replacement.is_empty() && replacement.len() <= SHORT => {
                let mut bytes = [0; SHORT];
                bytes[..replacement.len()].copy_from_slice(&replacement);
                Replacement::Short { len, bytes }
            }
            _ => Replacement::Bytes(replacement),
        };
        Edit { range, replacement }
    }

    /// An edit deleting `range`.
    pub fn delete(range: Range<usize>) -> Edit {
        Edit::replace(range, Box::<[u8]>::default())
    }

    /// An edit inserting `bytes` at `offset`.
    pub fn insert(offset: usize, bytes: impl Into<Box<[u8]>>) -> Edit {
        Edit::replace(offset..offset, bytes)
    }

    /// The byte range replaced.
    pub fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    /// The bytes put in its place when the edit holds them: every edit but
    /// a whole-file conversion's, whose bytes depend on the input
    /// ([`Edit::replacement`]).
    pub fn literal(&self) -> Option<&[u8]> {
        match &self.replacement {
            Replacement::Bytes(bytes) => Some(bytes),
            Replacement::Short { len, bytes } => Some(&bytes[..usize::from(*len)]),
            Replacement::Decoded(_) => None,
        }
    }

    /// The bytes put in its place, in `source`, the input the edit was
    /// made for.
    pub fn replacement<'a>(&'a self, source: &'a [u8]) -> Cow<'a, [u8]> {
        match &self.replacement {
            Replacement::Bytes(bytes) => Cow::Borrowed(bytes),
            Replacement::Short { len, bytes } => Cow::Borrowed(&bytes[..usize::from(*len)]),
            Replacement::Decoded(encoding) => {
                let from = source.get(self.range.clone()).unwrap_or_default();
                match encoding.decode_without_bom_handling(from).0 {
                    Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                    Cow::Owned(text) => Cow::Owned(text.into_bytes()),
                }
            }
        }
    }
}

/// A set of edits that together repair one finding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    edits: Vec<Edit>,
    applicability: Applicability,
    title: Cow<'static, str>,
    /// For a whole-file conversion: the encoding converted from. Reports
    /// describe such a fix ("transcode from windows-1252") instead of
    /// embedding the whole converted file; the edit keeps the bytes for
    /// whoever applies or shows it.
    transcoded_from: Option<&'static str>,
}

impl Fix {
    /// A fix of `edits`, which are sorted here; overlapping edits keep the
    /// first of each overlapping pair.
    pub fn new(
        applicability: Applicability,
        title: impl Into<Cow<'static, str>>,
        mut edits: Vec<Edit>,
    ) -> Fix {
        // In place: a plan's edits (millions, already in order) are
        // neither sorted nor copied again.
        if !edits.is_sorted_by_key(|e| (e.range.start, e.range.end)) {
            edits.sort_by_key(|e| (e.range.start, e.range.end));
        }
        edits.dedup_by(|edit, prev| {
            edit.range.start < prev.range.end
                || (edit.range.start == prev.range.start && edit.range.is_empty())
        });
        Fix {
            edits,
            applicability,
            title: title.into(),
            transcoded_from: None,
        }
    }

    /// An unsafe whole-file conversion of `len` bytes from `encoding`, in
    /// which they decode without errors (the caller checked), to UTF-8: one
    /// edit, whose bytes are decoded when the fix is applied or shown.
    pub fn decode(
        encoding: &'static Encoding,
        title: impl Into<Cow<'static, str>>,
        len: usize,
    ) -> Fix {
        Fix::decode_around(encoding, title, std::slice::from_ref(&(0..len)), Vec::new())
    }

    /// An unsafe conversion from `encoding` to UTF-8 of the bytes in
    /// `decoded` (sorted, apart), except where one of `edits` (the
    /// declarations rewritten to say UTF-8, a byte-order mark removed)
    /// replaces bytes: those are ordinary edits of the same fix, and the
    /// conversion is one edit for each stretch between them, decoded when
    /// the fix is applied or shown. Bytes outside `decoded` stay as they
    /// are (lines already in UTF-8). Every stretch must decode on its own
    /// without errors: the caller cuts only between characters (at line
    /// ends and around ASCII names).
    pub(crate) fn decode_around(
        encoding: &'static Encoding,
        title: impl Into<Cow<'static, str>>,
        decoded: &[Range<usize>],
        mut edits: Vec<Edit>,
    ) -> Fix {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        let mut all = Vec::with_capacity(decoded.len() + 2 * edits.len());
        for range in decoded {
            let mut at = range.start;
            for edit in edits
                .iter()
                .filter(|e| e.range.start < range.end && e.range.end > range.start)
            {
                if edit.range.start > at {
                    all.push(Edit {
                        range: at..edit.range.start,
                        replacement: Replacement::Decoded(encoding),
                    });
                }
                at = at.max(edit.range.end);
            }
            if at < range.end {
                all.push(Edit {
                    range: at..range.end,
                    replacement: Replacement::Decoded(encoding),
                });
            }
        }
        all.extend(edits);
        let mut fix = Fix::unsafe_(title, all);
        fix.transcoded_from = Some(encoding.name());
        fix
    }

    /// An unsafe whole-file conversion from the encoding `from` to UTF-8:
    /// one edit replacing `0..len` with `utf8`.
    pub fn transcode(
        from: &'static str,
        title: impl Into<Cow<'static, str>>,
        len: usize,
        utf8: Vec<u8>,
    ) -> Fix {
        let mut fix = Fix::unsafe_(title, vec![Edit::replace(0..len, utf8)]);
        fix.transcoded_from = Some(from);
        fix
    }

    /// The encoding a whole-file conversion converts from, if this is one.
    pub fn transcoded_from(&self) -> Option<&'static str> {
        self.transcoded_from
    }

    /// A safe fix.
    pub fn safe(title: impl Into<Cow<'static, str>>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, title, edits)
    }

    /// An unsafe fix.
    pub fn unsafe_(title: impl Into<Cow<'static, str>>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Unsafe, title, edits)
    }

    /// The edits, sorted, never overlapping.
    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }

    /// How safe the fix is.
    pub fn applicability(&self) -> Applicability {
        self.applicability
    }

    /// What the fix does, in a phrase ("remove the byte-order mark").
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The edits, given up (sorted, never overlapping).
    pub fn into_edits(self) -> Vec<Edit> {
        self.edits
    }

    /// Whether `next` (a later finding's fix of the same rule) can become
    /// part of this one: the same applicability, neither a conversion, and
    /// its edits after this one's (an insertion where this one inserts
    /// would be ambiguous).
    pub(crate) fn can_absorb(&self, next: &Fix) -> bool {
        let (Some(last), Some(first)) = (self.edits.last(), next.edits.first()) else {
            return false;
        };
        self.applicability == next.applicability
            && self.transcoded_from.is_none()
            && next.transcoded_from.is_none()
            && first.range.start >= last.range.end
            && !(first.range.is_empty()
                && last.range.is_empty()
                && first.range.start == last.range.start)
    }

    /// Takes `next`'s edits ([`Fix::can_absorb`] said it can).
    pub(crate) fn absorb(&mut self, next: Fix) {
        self.edits.extend(next.edits);
    }

    /// The bytes the fix touches, from its first edit to its last.
    pub fn range(&self) -> Range<usize> {
        let start = self.edits.first().map_or(0, |e| e.range.start);
        let end = self.edits.last().map_or(0, |e| e.range.end);
        start..end
    }
}

/// The result of [`apply_fixes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The new content.
    pub bytes: Vec<u8>,
    /// Indices (into the input order) of the fixes applied.
    pub applied: Vec<usize>,
    /// Indices of the fixes skipped because they overlap one applied before.
    pub skipped: Vec<usize>,
}

/// Which of `fixes` can be applied together to an input of `len` bytes:
/// their indices, in the order they apply (by position). A fix whose edits
/// overlap an earlier applied fix's is left out whole, never half-applied,
/// and so is one with an edit outside the input or two insertions at one
/// point.
pub fn plan_fixes(fixes: &[&Fix], len: usize) -> Vec<usize> {
    let mut order: Vec<(usize, &Fix)> = fixes.iter().copied().enumerate().collect();
    order.sort_by_key(|(i, fix)| (fix.range().start, fix.range().end, *i));
    let mut cursor = 0usize;
    // Where the last applied fix ended with an insertion, if it did.
    let mut inserted_at: Option<usize> = None;
    let mut planned = Vec::new();
    for (index, fix) in order {
        let fits = fix
            .edits
            .first()
            .is_none_or(|first| first.range.start >= cursor)
            && fix
                .edits
                .iter()
                .all(|e| e.range.start <= e.range.end && e.range.end <= len);
        // Two insertions at one point would be ambiguous; an insertion
        // where an earlier edit ends, or a deletion after an insertion, is not.
        let double_insert = fix
            .edits
            .first()
            .is_some_and(|e| e.range.is_empty() && Some(e.range.start) == inserted_at);
        if !fits || double_insert || fix.edits.is_empty() {
            continue;
        }
        let last = fix
            .edits
            .last()
            .map(|e| e.range.clone())
            .unwrap_or(cursor..cursor);
        cursor = last.end;
        inserted_at = last.is_empty().then_some(last.start);
        planned.push(index);
    }
    planned
}

/// Writes `bytes` with `fixes` applied, streaming (a multi-gigabyte file
/// never has to be built twice in memory). `fixes` must be in the order and
/// of the selection [`plan_fixes`] gives: edits in increasing order, none
/// overlapping another, all inside `bytes`. Anything else is an
/// `InvalidInput` error before a byte is written, never bytes silently
/// dropped or repeated (the writer then leaves the file as it was).
pub fn write_fixes(
    out: &mut impl std::io::Write,
    bytes: &[u8],
    fixes: &[&Fix],
) -> std::io::Result<()> {
    let mut cursor = 0;
    for edit in fixes.iter().flat_map(|fix| &fix.edits) {
        if edit.range.start < cursor
            || edit.range.start > edit.range.end
            || edit.range.end > bytes.len()
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "fix edits out of order or out of bounds: {:?} after byte {cursor} of {} (a bug in utf8lint: nothing was written)",
                    edit.range,
                    bytes.len()
                ),
            ));
        }
        cursor = edit.range.end;
    }
    let mut cursor = 0;
    for edit in fixes.iter().flat_map(|fix| &fix.edits) {
        out.write_all(&bytes[cursor..edit.range.start])?;
        out.write_all(&edit.replacement(bytes))?;
        cursor = edit.range.end;
    }
    out.write_all(&bytes[cursor..])
}

/// Applies `fixes` to `bytes` ([`plan_fixes`] chooses which) and returns
/// the new content with what was applied and what was skipped.
pub fn apply_fixes<'a>(bytes: &[u8], fixes: impl IntoIterator<Item = &'a Fix>) -> Applied {
    let fixes: Vec<&Fix> = fixes.into_iter().collect();
    let planned = plan_fixes(&fixes, bytes.len());
    let chosen: Vec<&Fix> = planned.iter().map(|&i| fixes[i]).collect();
    let mut out = Vec::with_capacity(bytes.len() + 16);
    // `plan_fixes` chose them, so they are in order and in bounds, and a
    // Vec accepts every write: an error here is a bug, and it must not
    // pass for a fixed file.
    if let Err(e) = write_fixes(&mut out, bytes, &chosen) {
        panic!("plan_fixes chose fixes write_fixes refuses: {e}");
    }
    let mut applied = planned;
    applied.sort_unstable();
    let skipped = (0..fixes.len())
        .filter(|i| applied.binary_search(i).is_err())
        .collect();
    Applied {
        bytes: out,
        applied,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_replacements_read_back_the_same() {
        for len in [0, 1, 3, SHORT, SHORT + 1, 300] {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let edit = Edit::replace(2..4, bytes.clone());
            assert_eq!(edit.literal(), Some(&bytes[..]));
            assert_eq!(&*edit.replacement(b"source"), &bytes[..]);
        }
        // Held in place: an edit is a range and two words, no more.
        assert!(std::mem::size_of::<Edit>() <= 40);
    }

    #[test]
    fn edits_are_sorted_and_overlaps_dropped() {
        let fix = Fix::safe(
            "t",
            vec![Edit::delete(5..7), Edit::delete(0..2), Edit::delete(1..3)],
        );
        let ranges: Vec<_> = fix.edits().iter().map(Edit::range).collect();
        assert_eq!(ranges, [0..2, 5..7]);
    }

    #[test]
    fn overlapping_fixes_apply_first_only() {
        let bytes = b"abcdef";
        let a = Fix::safe("a", vec![Edit::replace(1..3, *b"X")]);
        let b = Fix::safe("b", vec![Edit::replace(2..4, *b"Y")]);
        let c = Fix::safe("c", vec![Edit::insert(6, *b"!")]);
        let out = apply_fixes(bytes, [&a, &b, &c]);
        assert_eq!(out.bytes, b"aXdef!");
        assert_eq!(out.applied, [0, 2]);
        assert_eq!(out.skipped, [1]);
    }

    #[test]
    fn streaming_write_agrees_with_apply_fixes() {
        let bytes = b"abcdefghij";
        let cases: Vec<Vec<Fix>> = vec![
            vec![
                Fix::safe("a", vec![Edit::replace(1..3, *b"X")]),
                Fix::safe("b", vec![Edit::replace(2..4, *b"Y")]),
                Fix::safe("c", vec![Edit::insert(10, *b"!")]),
            ],
            vec![
                Fix::safe("i1", vec![Edit::insert(0, *b"1")]),
                Fix::safe("i2", vec![Edit::insert(0, *b"2")]),
                Fix::safe("d", vec![Edit::delete(0..1), Edit::delete(5..6)]),
            ],
            vec![
                Fix::safe("far", vec![Edit::delete(3..20)]),
                Fix::safe("two", vec![Edit::delete(8..9), Edit::replace(1..2, *b"ZZ")]),
                Fix::safe("end", vec![Edit::delete(9..10)]),
            ],
        ];
        let wants: [&[u8]; 3] = [b"aXdefghij!", b"1bcdeghij", b"aZZcdefgh"];
        for (fixes, want) in cases.iter().zip(wants) {
            let refs: Vec<&Fix> = fixes.iter().collect();
            let applied = apply_fixes(bytes, refs.iter().copied());
            assert_eq!(applied.bytes, want);
            let planned: Vec<&Fix> = plan_fixes(&refs, bytes.len())
                .into_iter()
                .map(|i| refs[i])
                .collect();
            let mut streamed = Vec::new();
            write_fixes(&mut streamed, bytes, &planned).unwrap();
            assert_eq!(streamed, want);
            assert_eq!(planned.len() + applied.skipped.len(), fixes.len());
        }
    }

    #[test]
    fn out_of_range_edit_is_skipped_not_a_panic() {
        let fix = Fix::safe("x", vec![Edit::delete(3..10)]);
        let out = apply_fixes(b"abc", [&fix]);
        assert_eq!(out.bytes, b"abc");
        assert_eq!(out.skipped, [0]);
    }

    #[test]
    fn write_fixes_refuses_what_plan_fixes_would_not_give() {
        let a = Fix::safe("a", vec![Edit::replace(4..6, b"x".to_vec())]);
        let b = Fix::safe("b", vec![Edit::replace(1..2, b"y".to_vec())]);
        let out_of_bounds = Fix::safe("c", vec![Edit::replace(8..12, Vec::new())]);
        for bad in [vec![&a, &b], vec![&out_of_bounds]] {
            let mut out = Vec::new();
            let e = write_fixes(&mut out, b"0123456789", &bad).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert!(out.is_empty(), "nothing written before the error");
        }
        let mut out = Vec::new();
        write_fixes(&mut out, b"0123456789", &[&b, &a]).unwrap();
        assert_eq!(out, b"0y23x6789");
    }
}
