//! What the fused kernels share (`x86.rs` and `x86_wide.rs`): the
//! validator's lookup tables, the loop over 4 KiB blocks and 64-byte
//! chunks, and what the caller looks for as the kernels take it.

use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};

use super::report::{Found, find_marks};
use crate::patterns::Patterns;

/// What the caller looks for besides validity, as the kernels take it.
pub(super) struct Search<'a> {
    pub(super) patterns: &'a Patterns,
    pub(super) pair: [u8; 2],
}

/// Bytes per step: two 256-bit registers, the unit the ASCII skip tests.
pub(super) const CHUNK: usize = 64;

/// Bytes between looks at the error register: ill-formed input stops within
/// this many bytes of its first error, and valid input pays one test per
/// 64 KiB.
pub(super) const ERROR_CHECK_EVERY: usize = 64 * 1024;

/// How far ahead to prefetch, as simdutf8 does.
pub(super) const PREFETCH_AHEAD: usize = 2 * CHUNK;

// The error classes of the lookup tables (Keiser and Lemire, table 8).
pub(super) const TOO_SHORT: u8 = 1 << 0;
pub(super) const TOO_LONG: u8 = 1 << 1;
pub(super) const OVERLONG_3: u8 = 1 << 2;
pub(super) const TOO_LARGE: u8 = 1 << 3;
pub(super) const SURROGATE: u8 = 1 << 4;
pub(super) const OVERLONG_2: u8 = 1 << 5;
pub(super) const TOO_LARGE_1000: u8 = 1 << 6;
pub(super) const OVERLONG_4: u8 = 1 << 6;
pub(super) const TWO_CONTS: u8 = 1 << 7;
pub(super) const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the previous byte.
pub(super) const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the previous byte.
pub(super) const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Indexed by the high nibble of the current byte.
pub(super) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// The last bytes of a register that leave a character unfinished: a lead
/// of 4 bytes in the last three places, of 3 in the last two, of 2 in the
/// last one (a saturating subtraction of these is non-zero exactly there).
pub(super) const INCOMPLETE_BELOW: [u8; 32] = {
    let mut t = [0xFF; 32];
    t[29] = 0b1111_0000 - 1;
    t[30] = 0b1110_0000 - 1;
    t[31] = 0b1100_0000 - 1;
    t
};

/// Bytes per block: the unit in which candidates are confirmed (by a search
/// of the block, while it is in L1) and errors looked at.
pub(super) const BLOCK: usize = 4 * 1024;

/// Calls `chunk(p)` for each 64-byte chunk of `bytes[start..end]` (whole
/// chunks, or the last bytes of the input), where `p - 3..p + 64` is always
/// readable: the kernels load the three bytes before a register again
/// rather than shift them in.
///
/// The first chunk of the input has no bytes before it, and the last may be
/// short: each is copied after three zero bytes (nothing, before the
/// input) or the three bytes before it, and padded with spaces, which are
/// ASCII: they finish nothing and end no mark (a caller's pattern that
/// ends at a space makes the last block reported; no pair ends at them,
/// the pair's first byte being in the input).
///
/// Inlined into each kernel's block, with `chunk`, so that nothing in the
/// loop calls out and the tables stay in registers.
#[inline(always)]
pub(super) fn for_each_chunk(
    bytes: &[u8],
    start: usize,
    end: usize,
    mut chunk: impl FnMut(*const u8),
) {
    let padded = |chunk: &mut dyn FnMut(*const u8), from: usize, to: usize| {
        let mut copy = [b' '; 3 + CHUNK];
        copy[..3].fill(0);
        if from >= 3 {
            copy[..3].copy_from_slice(&bytes[from - 3..from]);
        }
        copy[3..3 + to - from].copy_from_slice(&bytes[from..to]);
        chunk(copy.as_ptr().wrapping_add(3));
    };
    let mut at = start;
    if at == 0 && end > 0 {
        let to = end.min(CHUNK);
        padded(&mut chunk, 0, to);
        at = to;
    }
    while at + CHUNK <= end {
        let p = bytes.as_ptr().wrapping_add(at);
        // SAFETY: a prefetch never faults, even past the end; SSE, which it
        // needs, is in every x86-64 CPU.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD).cast()) };
        // `at >= CHUNK` (the first chunk went above) and
        // `at + CHUNK <= end <= bytes.len()`: `p - 3..p + 64` is in `bytes`.
        chunk(p);
        at += CHUNK;
    }
    if at < end {
        padded(&mut chunk, at, end);
    }
}

/// What one block held, as a kernel's `block` reports it.
pub(super) struct Seen {
    /// A mark may end in it (the kernel's own test; unused when the
    /// patterns stand for it, `marks_in_patterns`).
    pub(super) marks: bool,
    /// The kinds of the caller's patterns that end in it (0: none).
    pub(super) patterns: u8,
    /// The caller's pair of bytes ends in it.
    pub(super) pair: bool,
}

/// The loop over 4 KiB blocks that every build shares: `block(state, start,
/// end)` validates one block and says what may end in it; `failed(state)`
/// whether an error was seen so far, asked every `ERROR_CHECK_EVERY` bytes. Reports
/// what the caller wants through `found`; returns false as soon as
/// `failed()` says so (the caller then adds its last test for an
/// unfinished character at the end).
///
/// `marks_in_patterns`: the build's pattern tables end at the second byte
/// of every mark, so the marks are looked for in the blocks they report,
/// not by a test of their own.
#[inline(always)]
pub(super) fn each_block<const MARKS: bool, const PATTERNS: bool, S>(
    bytes: &[u8],
    found: &mut dyn FnMut(Found),
    marks_in_patterns: bool,
    state: &mut S,
    mut block: impl FnMut(&mut S, usize, usize) -> Seen,
    failed: impl Fn(&S) -> bool,
) -> bool {
    let mut start = 0;
    while start < bytes.len() {
        let end = (start + BLOCK).min(bytes.len());
        let seen = block(state, start, end);
        if MARKS && PATTERNS && marks_in_patterns {
            if seen.patterns != 0 {
                // The marks whose second byte is in this block.
                let (from, to) = (start.saturating_sub(1), (end + 1).min(bytes.len()));
                find_marks(&bytes[from..to], |at, mark| {
                    found(Found::Mark(from + at, mark))
                });
            }
        } else if MARKS && seen.marks {
            // The marks that end in this block, which may begin up to two
            // bytes before it. (A candidate is not always a mark: `EF` and
            // any two of `A9 AB AD AF B9 BB BD BF`, such as U+FEFD or
            // U+FF79, pass the register test.)
            let from = start.saturating_sub(2);
            find_marks(&bytes[from..end], |at, mark| {
                found(Found::Mark(from + at, mark))
            });
        }
        if seen.patterns != 0 {
            found(Found::Block(start..end, seen.patterns));
        }
        if seen.pair {
            found(Found::PairBlock(start..end));
        }
        start = end;
        if start % ERROR_CHECK_EVERY == 0 && failed(state) {
            return false;
        }
    }
    true
}
