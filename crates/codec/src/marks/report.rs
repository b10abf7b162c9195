//! What the fused validator reports: the marks it finds ([`Mark`]), and
//! everything it finds as it goes ([`Found`]); [`find_marks`], the search
//! for the marks in any bytes.

use core::ops::Range;

/// A character [`crate::validate_marking`] and [`find_marks`] report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// U+FEFF ZERO WIDTH NO-BREAK SPACE (`EF BB BF`), the byte-order mark.
    Feff,
    /// U+FFFD REPLACEMENT CHARACTER (`EF BF BD`).
    Fffd,
}

impl Mark {
    /// The character's UTF-8 encoding.
    pub const fn bytes(self) -> &'static [u8; 3] {
        match self {
            Mark::Feff => b"\xEF\xBB\xBF",
            Mark::Fffd => b"\xEF\xBF\xBD",
        }
    }
}

/// What [`crate::validate_scanning`] reports as it validates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A U+FEFF or U+FFFD at this offset.
    Mark(usize, Mark),
    /// A block of the input in which patterns of these kinds (the OR of
    /// their [`crate::Family::kind`]s) from the caller's
    /// ([`crate::Wanted::patterns`]) may end: a pattern that ends in it starts up
    /// to 2 bytes before it. Blocks come in order and do not overlap; bytes
    /// outside every block end no pattern.
    Block(Range<usize>, u8),
    /// A block of the input in which the caller's pair of bytes
    /// ([`crate::Wanted::pair`]) may end. Blocks come in order and do not overlap;
    /// bytes outside every block end no such pair.
    PairBlock(Range<usize>),
}

/// Calls `found(offset, mark)` for every U+FEFF and U+FFFD in `bytes`, in
/// order of offset, whatever else the bytes hold: `EF` is never a
/// continuation byte, so its three bytes spell the character wherever they
/// stand.
///
/// ```
/// use utf8lint_codec::{Mark, find_marks};
/// let mut marks = Vec::new();
/// find_marks(b"\xC0\xEF\xBB\xBF\xFF\xEF\xBF\xBD", |at, mark| marks.push((at, mark)));
/// assert_eq!(marks, [(1, Mark::Feff), (5, Mark::Fffd)]);
/// ```
pub fn find_marks(bytes: &[u8], mut found: impl FnMut(usize, Mark)) {
    // Most text holds no `EF` at all (ASCII, most scripts): a one-byte
    // search rules it out. Where `EF` is common (CJK punctuation is
    // `EF BC xx`), the three-byte searches' SIMD prefilters beat looking at
    // every `EF`; the two are merged by offset.
    let Some(first) = memchr::memchr(0xEF, bytes) else {
        return;
    };
    let rest = &bytes[first..];
    let mut feff = memchr::memmem::find_iter(rest, Mark::Feff.bytes()).peekable();
    let mut fffd = memchr::memmem::find_iter(rest, Mark::Fffd.bytes()).peekable();
    loop {
        let (at, mark) = match (feff.peek(), fffd.peek()) {
            (Some(&a), Some(&b)) if a < b => (feff.next(), Mark::Feff),
            (Some(_), Some(_)) | (None, Some(_)) => (fffd.next(), Mark::Fffd),
            (Some(_), None) => (feff.next(), Mark::Feff),
            (None, None) => return,
        };
        if let Some(at) = at {
            found(first + at, mark);
        }
    }
}
