use crate::Subpart;
use core::ops::Range;

use crate::validate::{error_stretches, for_each_error, next_error};

/// Every ill-formed maximal subpart of `bytes`, in order.
///
/// Valid stretches are skipped by the SIMD validator, so a clean buffer costs
/// what validation costs.
///
/// ```
/// use utf8lint_codec::{subparts, ErrorKind::*};
/// let kinds: Vec<_> = subparts(b"\xE0\x80A").map(|s| (s.offset, s.len, s.kind)).collect();
/// assert_eq!(kinds, [(0, 1, Overlong), (1, 1, UnexpectedContinuation)]);
/// ```
pub fn subparts(bytes: &[u8]) -> Subparts<'_> {
    Subparts { bytes, pos: 0 }
}

/// Calls `each` with every ill-formed maximal subpart of `bytes`, in order:
/// what [`subparts`] yields, in one loop instead of an iterator's calls
/// (for a file of legacy text, where nearly every non-ASCII byte is one).
pub fn for_each_subpart(bytes: &[u8], each: impl FnMut(Subpart)) {
    for_each_error(bytes, each);
}

/// Calls `each` with every stretch of adjacent ill-formed maximal subparts
/// of `bytes`, in order, and how many subparts it holds: what
/// [`for_each_subpart`] gives, a subpart that starts where the last one
/// ended merged into its stretch. For a caller that needs where the errors
/// are and how many, not each one: a file of legacy text has an error at
/// nearly every non-ASCII byte.
///
/// ```
/// let mut stretches = Vec::new();
/// utf8lint_codec::for_each_error_stretch(b"a\xE9\xE8b\xC0\xAFc", |r, n| stretches.push((r, n)));
/// assert_eq!(stretches, [(1..3, 2), (4..6, 2)]);
/// ```
pub fn for_each_error_stretch(bytes: &[u8], each: impl FnMut(Range<usize>, usize)) {
    error_stretches(bytes, each);
}

/// Iterator returned by [`subparts`].
#[derive(Clone, Debug)]
pub struct Subparts<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for Subparts<'_> {
    type Item = Subpart;

    fn next(&mut self) -> Option<Subpart> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        match next_error(self.bytes, self.pos) {
            Some(sub) => {
                self.pos = sub.end();
                Some(sub)
            }
            None => {
                self.pos = self.bytes.len();
                None
            }
        }
    }
}

impl core::iter::FusedIterator for Subparts<'_> {}

/// A valid stretch and the maximal subpart that ends it, as
/// `core::str::Utf8Chunk` has them, plus the subpart's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf8Chunk<'a> {
    valid: &'a str,
    invalid: &'a [u8],
    error: Option<Subpart>,
}

impl<'a> Utf8Chunk<'a> {
    /// The well-formed text before the error (possibly empty).
    pub fn valid(&self) -> &'a str {
        self.valid
    }

    /// The bytes of the maximal subpart (empty for the last chunk of input
    /// that ends cleanly).
    pub fn invalid(&self) -> &'a [u8] {
        self.invalid
    }

    /// The maximal subpart, with its absolute offset and class.
    pub fn error(&self) -> Option<Subpart> {
        self.error
    }
}

/// Splits input into [`Utf8Chunk`]s, like `core::str::Utf8Chunks` (and
/// yielding exactly the same chunks), but at SIMD speed over valid stretches.
#[derive(Clone, Debug)]
pub struct Utf8Chunks<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Utf8Chunks<'a> {
    /// Chunks of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Utf8Chunks { bytes, pos: 0 }
    }
}

impl<'a> Iterator for Utf8Chunks<'a> {
    type Item = Utf8Chunk<'a>;

    fn next(&mut self) -> Option<Utf8Chunk<'a>> {
        let start = self.pos;
        if start >= self.bytes.len() {
            return None;
        }
        let error = next_error(self.bytes, start);
        let (valid_end, end) = match error {
            Some(sub) => (sub.offset, sub.end()),
            None => (self.bytes.len(), self.bytes.len()),
        };
        self.pos = end;
        let valid_bytes = self.bytes.get(start..valid_end).unwrap_or_default();
        // SAFETY: next_error found no ill-formed sequence in start..valid_end;
        // the exhaustive and property tests hold it to core::str::from_utf8.
        let valid = unsafe { core::str::from_utf8_unchecked(valid_bytes) };
        Some(Utf8Chunk {
            valid,
            invalid: self.bytes.get(valid_end..end).unwrap_or_default(),
            error,
        })
    }
}

impl core::iter::FusedIterator for Utf8Chunks<'_> {}
