//! The fused kernel: UTF-8 validation by the lookup algorithm of Keiser and
//! Lemire ("Validating UTF-8 In Less Than One Instruction Per Byte",
//! Software: Practice and Experience, 2021), as simdutf8 implements it for
//! AVX2, with a search for U+FEFF and U+FFFD folded into the same registers.
//!
//! The validator looks, for every byte, at the one before it and the one
//! before that (`prev1`, `prev2`, and `prev3`). simdutf8 shifts them in from
//! the previous register (a cross-lane permute and an `alignr` each, all on
//! the shuffle ports its lookups are bound by); here they are loaded again
//! from memory, one unaligned load each on ports that are otherwise idle,
//! which makes validation alone about 20% faster on multi-byte text. A
//! mark is `EF` followed by `BB BF` or
//! `BF BD`, and `(prev1 & cur) | 0x56` is all ones for both pairs, so
//! `(prev2 & ((prev1 & cur) | 0x56)) ^ 0xEF` is zero wherever a mark ends.
//! That is four operations per register (two `vpternlog` on 512-bit ones),
//! and the minimum over a 4 KiB block, one more, is compared with zero once
//! per block. The test is loose on purpose (it holds for `EF` followed by any
//! two of `A9 AB AD AF B9 BB BD BF`, such as U+FEFD or the halfwidth
//! katakana U+FF79), so a block with a candidate is searched again for the
//! marks themselves while it is in L1; blocks without one, nearly all of
//! them, cost nothing more. 64-byte chunks of pure ASCII skip both checks,
//! as they skip validation.
//!
//! The caller's patterns (`crate::patterns`) are found in the same
//! registers: six table lookups per register of eight nibble products, on
//! the nibbles of the byte and the two before it that the validator has
//! already split, ORed into one register that is tested once per block; an
//! ASCII chunk, where a pattern ends only at a byte it looks at alone,
//! takes two lookups per register. A block in which one ends is reported
//! whole (`Found::Block`) for the caller to read while it is in cache. So
//! is a block in which the caller's pair of bytes ends (`Found::PairBlock`:
//! two compares per register).
//!
//! CPUs with AVX-512 VBMI run `wide` (`x86_wide.rs`) instead, whose
//! pattern test is a third of the cost. The loop over blocks and chunks is
//! shared (`each_block`, `for_each_chunk`).

#[cfg(feature = "std")]
extern crate std;

use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};

use super::Found;
use crate::patterns::Patterns;

#[path = "x86_wide.rs"]
mod wide;

/// Which build of the kernel this CPU runs, if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Level {
    Avx2,
    /// 512-bit registers (`wide`).
    Avx512,
}

#[inline]
pub(super) fn level() -> Option<Level> {
    #[cfg(feature = "std")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // VBMI marks the CPUs that run 512-bit operations without
            // lowering the clock (see `wide`).
            let wide = std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi");
            return Some(if wide { Level::Avx512 } else { Level::Avx2 });
        }
        None
    }
    #[cfg(not(feature = "std"))]
    {
        if cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512vbmi"
        )) {
            Some(Level::Avx512)
        } else if cfg!(target_feature = "avx2") {
            Some(Level::Avx2)
        } else {
            None
        }
    }
}

/// What the caller looks for besides validity, as the kernels take it.
pub(super) struct Search<'a> {
    pub(super) patterns: &'a Patterns,
    pub(super) pair: [u8; 2],
}

/// The fused pass (see [`super::validate_scanning`]) on the given build:
/// `PATTERNS` and `PAIR` say whether `search`'s patterns and pair are
/// looked for.
///
/// # Safety
///
/// The CPU must support `level`'s features.
#[inline]
pub(super) unsafe fn validate_scanning<
    const MARKS: bool,
    const PATTERNS: bool,
    const PAIR: bool,
>(
    level: Level,
    bytes: &[u8],
    search: &Search<'_>,
    found: &mut dyn FnMut(Found),
) -> bool {
    // SAFETY: the caller checked the features.
    unsafe {
        match level {
            Level::Avx2 => avx2::validate_scanning::<MARKS, PATTERNS, PAIR>(bytes, search, found),
            Level::Avx512 => wide::validate_scanning::<MARKS, PATTERNS, PAIR>(bytes, search, found),
        }
    }
}

/// Bytes per step: two 256-bit registers, the unit the ASCII skip tests.
const CHUNK: usize = 64;

/// Bytes between looks at the error register: ill-formed input stops within
/// this many bytes of its first error, and valid input pays one test per
/// 64 KiB.
const ERROR_CHECK_EVERY: usize = 64 * 1024;

/// How far ahead to prefetch, as simdutf8 does.
const PREFETCH_AHEAD: usize = 2 * CHUNK;

// The error classes of the lookup tables (Keiser and Lemire, table 8).
const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_3: u8 = 1 << 2;
const TOO_LARGE: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
const OVERLONG_2: u8 = 1 << 5;
const TOO_LARGE_1000: u8 = 1 << 6;
const OVERLONG_4: u8 = 1 << 6;
const TWO_CONTS: u8 = 1 << 7;
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Indexed by the high nibble of the previous byte.
const BYTE_1_HIGH: [u8; 16] = [
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
const BYTE_1_LOW: [u8; 16] = [
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
const BYTE_2_HIGH: [u8; 16] = [
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
const INCOMPLETE_BELOW: [u8; 32] = {
    let mut t = [0xFF; 32];
    t[29] = 0b1111_0000 - 1;
    t[30] = 0b1110_0000 - 1;
    t[31] = 0b1100_0000 - 1;
    t
};

/// Bytes per block: the unit in which candidates are confirmed (by a search
/// of the block, while it is in L1) and errors looked at.
const BLOCK: usize = 4 * 1024;

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
fn for_each_chunk(bytes: &[u8], start: usize, end: usize, mut chunk: impl FnMut(*const u8)) {
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
struct Seen {
    /// A mark may end in it (the kernel's own test; unused when the
    /// patterns stand for it, `marks_in_patterns`).
    marks: bool,
    /// The kinds of the caller's patterns that end in it (0: none).
    patterns: u8,
    /// The caller's pair of bytes ends in it.
    pair: bool,
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
fn each_block<const MARKS: bool, const PATTERNS: bool, S>(
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
                super::find_marks(&bytes[from..to], |at, mark| {
                    found(Found::Mark(from + at, mark))
                });
            }
        } else if MARKS && seen.marks {
            // The marks that end in this block, which may begin up to two
            // bytes before it. (A candidate is not always a mark: `EF` and
            // any two of `A9 AB AD AF B9 BB BD BF`, such as U+FEFD or
            // U+FF79, pass the register test.)
            let from = start.saturating_sub(2);
            super::find_marks(&bytes[from..end], |at, mark| {
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

/// The kernel built for AVX2.
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_subs_epu8,
        _mm256_testz_si256, _mm256_xor_si256,
    };

    use super::*;

    /// The lookup tables and constants, loaded into registers once per call.
    #[derive(Clone, Copy)]
    struct Tables {
        byte_1_high: __m256i,
        byte_1_low: __m256i,
        byte_2_high: __m256i,
        incomplete_below: __m256i,
        nibble: __m256i,
        third_byte_min: __m256i,
        fourth_byte_min: __m256i,
        high_bit: __m256i,
        mark_free_bits: __m256i,
        no_mark: __m256i,
        pair_first: __m256i,
        pair_second: __m256i,
        /// The patterns' nibble tables (`Patterns::nibble`), each repeated
        /// in both lanes.
        text: [__m256i; 12],
        /// The tables of the patterns that look at no byte before their
        /// end (`Patterns::cur`), by high and low nibble.
        last: [__m256i; 2],
    }

    #[target_feature(enable = "avx2")]
    fn repeat_16(t: &[u8; 16]) -> __m256i {
        let mut both = [0u8; 32];
        both[..16].copy_from_slice(t);
        both[16..].copy_from_slice(t);
        load_32(&both)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_32(bytes: &[u8; 32]) -> __m256i {
        // SAFETY: `bytes` is 32 readable bytes; the load has no alignment need.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    /// The 32 bytes at `p`.
    ///
    /// # Safety
    ///
    /// `p..p + 32` must be readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load_at(p: *const u8) -> __m256i {
        // SAFETY: the caller's promise; the load has no alignment need.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn splat(b: u8) -> __m256i {
        _mm256_set1_epi8(b as i8)
    }

    impl Tables {
        #[target_feature(enable = "avx2")]
        fn new(search: &Search<'_>) -> Tables {
            let mut text = [_mm256_setzero_si256(); 12];
            for (t, table) in text.iter_mut().zip(search.patterns.nibble.iter().flatten()) {
                *t = repeat_16(table);
            }
            let [high, low] = &search.patterns.cur;
            Tables {
                byte_1_high: repeat_16(&BYTE_1_HIGH),
                byte_1_low: repeat_16(&BYTE_1_LOW),
                byte_2_high: repeat_16(&BYTE_2_HIGH),
                incomplete_below: load_32(&INCOMPLETE_BELOW),
                nibble: splat(0x0F),
                third_byte_min: splat(0b1110_0000 - 1),
                fourth_byte_min: splat(0b1111_0000 - 1),
                high_bit: splat(0x80),
                mark_free_bits: splat(0x56),
                no_mark: splat(0xFF),
                pair_first: splat(search.pair[0]),
                pair_second: splat(search.pair[1]),
                text,
                last: [repeat_16(high), repeat_16(low)],
            }
        }
    }

    /// What carries from one register to the next.
    struct State {
        /// Non-zero where the previous register ended inside a character.
        incomplete: __m256i,
        /// Non-zero once any error was seen.
        error: __m256i,
        /// Non-zero where a pattern ended in this block, one register of
        /// eight nibble products each.
        spaces: [__m256i; 2],
        /// Non-zero where a pattern that looks at no byte before its end
        /// ended in this block.
        last: __m256i,
        /// Non-zero where the pair ended in this block.
        pair: __m256i,
    }

    impl State {
        /// Validates the register at `p`; returns a register that is
        /// zero where a mark may end.
        ///
        /// # Safety
        ///
        /// `p - 3..p + 32` must be readable: the bytes before a
        /// register are loaded again (`prev1`..`prev3`) rather than
        /// shifted in from the register before, which takes a load
        /// each instead of two shuffles for the first and one for each
        /// other (the validator and the patterns are bound by the
        /// shuffle ports, the loads by nothing).
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn step<const MARKS: bool, const PATTERNS: bool, const PAIR: bool>(
            &mut self,
            t: &Tables,
            p: *const u8,
        ) -> __m256i {
            // SAFETY: the caller's promise.
            let (cur, prev1, prev2, prev3) = unsafe {
                (
                    load_at(p),
                    load_at(p.sub(1)),
                    load_at(p.sub(2)),
                    load_at(p.sub(3)),
                )
            };

            let prev1_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), t.nibble);
            let prev1_low = _mm256_and_si256(prev1, t.nibble);
            let cur_high = _mm256_and_si256(_mm256_srli_epi16::<4>(cur), t.nibble);
            let special = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_shuffle_epi8(t.byte_1_high, prev1_high),
                    _mm256_shuffle_epi8(t.byte_1_low, prev1_low),
                ),
                _mm256_shuffle_epi8(t.byte_2_high, cur_high),
            );
            let third = _mm256_subs_epu8(prev2, t.third_byte_min);
            let fourth = _mm256_subs_epu8(prev3, t.fourth_byte_min);
            let must_be_continuation =
                _mm256_cmpgt_epi8(_mm256_or_si256(third, fourth), _mm256_setzero_si256());
            let lengths =
                _mm256_xor_si256(_mm256_and_si256(must_be_continuation, t.high_bit), special);
            self.error = _mm256_or_si256(self.error, lengths);
            if PAIR {
                self.pair = _mm256_or_si256(
                    self.pair,
                    _mm256_and_si256(
                        _mm256_cmpeq_epi8(prev1, t.pair_first),
                        _mm256_cmpeq_epi8(cur, t.pair_second),
                    ),
                );
            }
            if PATTERNS {
                let cur_low = _mm256_and_si256(cur, t.nibble);
                let prev2_high = _mm256_and_si256(_mm256_srli_epi16::<4>(prev2), t.nibble);
                let prev2_low = _mm256_and_si256(prev2, t.nibble);
                let space = |x: &[__m256i]| {
                    _mm256_and_si256(
                        _mm256_and_si256(
                            _mm256_and_si256(
                                _mm256_shuffle_epi8(x[0], prev2_high),
                                _mm256_shuffle_epi8(x[1], prev2_low),
                            ),
                            _mm256_and_si256(
                                _mm256_shuffle_epi8(x[2], prev1_high),
                                _mm256_shuffle_epi8(x[3], prev1_low),
                            ),
                        ),
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(x[4], cur_high),
                            _mm256_shuffle_epi8(x[5], cur_low),
                        ),
                    )
                };
                self.spaces[0] = _mm256_or_si256(self.spaces[0], space(&t.text[..6]));
                self.spaces[1] = _mm256_or_si256(self.spaces[1], space(&t.text[6..]));
                self.last = _mm256_or_si256(
                    self.last,
                    _mm256_and_si256(
                        _mm256_shuffle_epi8(t.last[0], cur_high),
                        _mm256_shuffle_epi8(t.last[1], cur_low),
                    ),
                );
            }
            if !MARKS {
                return t.no_mark;
            }

            // Zero where a candidate ends (see the module's comment): no
            // comparison here, the block takes the minimum and compares
            // once.
            _mm256_xor_si256(
                _mm256_and_si256(
                    prev2,
                    _mm256_or_si256(_mm256_and_si256(prev1, cur), t.mark_free_bits),
                ),
                t.fourth_byte_min, // 0xEF
            )
        }

        /// Validates the 64 bytes at `p`; returns a register that is
        /// zero where a mark may end in them.
        ///
        /// # Safety
        ///
        /// `p - 3..p + 64` must be readable.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn chunk<const MARKS: bool, const PATTERNS: bool, const PAIR: bool>(
            &mut self,
            t: &Tables,
            p: *const u8,
        ) -> __m256i {
            // SAFETY: the caller's promise.
            let (lo, hi) = unsafe { (load_at(p), load_at(p.add(32))) };
            if _mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0 {
                // ASCII: nothing to validate but an unfinished character before.
                self.error = _mm256_or_si256(self.error, self.incomplete);
                if PATTERNS {
                    // A pattern ends at an ASCII byte by that byte alone; the
                    // low nibble needs no mask (no byte has its high bit).
                    let last = |x: __m256i| {
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(
                                t.last[0],
                                _mm256_and_si256(_mm256_srli_epi16::<4>(x), t.nibble),
                            ),
                            _mm256_shuffle_epi8(t.last[1], x),
                        )
                    };
                    self.last = _mm256_or_si256(self.last, _mm256_or_si256(last(lo), last(hi)));
                }
                if PAIR {
                    let (prev1_lo, prev1_hi) =
                        // SAFETY: the caller's promise (`p - 3..p + 64`).
                        unsafe { (load_at(p.sub(1)), load_at(p.add(31))) };
                    let pair = |prev1: __m256i, cur: __m256i| {
                        _mm256_and_si256(
                            _mm256_cmpeq_epi8(prev1, t.pair_first),
                            _mm256_cmpeq_epi8(cur, t.pair_second),
                        )
                    };
                    self.pair = _mm256_or_si256(
                        self.pair,
                        _mm256_or_si256(pair(prev1_lo, lo), pair(prev1_hi, hi)),
                    );
                }
                return t.no_mark;
            }
            // SAFETY: the caller's promise covers both registers.
            let (marks_lo, marks_hi) = unsafe {
                (
                    self.step::<MARKS, PATTERNS, PAIR>(t, p),
                    self.step::<MARKS, PATTERNS, PAIR>(t, p.add(32)),
                )
            };
            self.incomplete = _mm256_subs_epu8(hi, t.incomplete_below);
            _mm256_min_epu8(marks_lo, marks_hi)
        }

        /// The kinds of the patterns that ended in this block.
        #[target_feature(enable = "avx2")]
        fn kinds(&self, patterns: &Patterns) -> u8 {
            let [first, second] = self.spaces;
            let any = _mm256_or_si256(_mm256_or_si256(first, second), self.last);
            if _mm256_testz_si256(any, any) != 0 {
                return 0;
            }
            let bits = |x: __m256i| {
                (0..8)
                    .filter(|&k| _mm256_testz_si256(x, splat(1 << k)) == 0)
                    .fold(0u8, |bits, k| bits | 1 << k)
            };
            Patterns::kinds_of(bits(first), &patterns.nibble_kinds[..8])
                | Patterns::kinds_of(bits(second), &patterns.nibble_kinds[8..])
                | Patterns::kinds_of(bits(self.last), &patterns.cur_kinds)
        }

        /// Validates `bytes[start..end]` (whole chunks, or the last
        /// bytes of the input); returns whether a mark may end in it,
        /// the kinds of the patterns that do and whether the pair does.
        ///
        /// Nothing here calls out, so the tables stay in registers.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn block<const MARKS: bool, const PATTERNS: bool, const PAIR: bool>(
            &mut self,
            t: &Tables,
            search: &Search<'_>,
            bytes: &[u8],
            start: usize,
            end: usize,
        ) -> Seen {
            let mut marks = t.no_mark;
            self.spaces = [_mm256_setzero_si256(); 2];
            self.last = _mm256_setzero_si256();
            self.pair = _mm256_setzero_si256();
            for_each_chunk(bytes, start, end, |p| {
                // SAFETY: `for_each_chunk` gives a `p` with `p - 3..p + 64` readable.
                marks =
                    _mm256_min_epu8(marks, unsafe { self.chunk::<MARKS, PATTERNS, PAIR>(t, p) });
            });
            Seen {
                marks: _mm256_movemask_epi8(_mm256_cmpeq_epi8(marks, _mm256_setzero_si256())) != 0,
                patterns: if PATTERNS {
                    self.kinds(search.patterns)
                } else {
                    0
                },
                pair: PAIR && _mm256_testz_si256(self.pair, self.pair) == 0,
            }
        }
    }

    /// The fused pass; see [`super::super::validate_scanning`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn validate_scanning<
        const MARKS: bool,
        const PATTERNS: bool,
        const PAIR: bool,
    >(
        bytes: &[u8],
        search: &Search<'_>,
        found: &mut dyn FnMut(Found),
    ) -> bool {
        // Opaque to the optimiser: where registers run short (sixteen of
        // them), LLVM would rebuild a splat from a
        // one-byte constant in the loop (`vpbroadcastb`, a uop on the
        // shuffle port the validator is bound by) instead of reloading
        // the 32 bytes it spilled (a load-port uop).
        let t = core::hint::black_box(Tables::new(search));
        let mut state = State {
            incomplete: _mm256_setzero_si256(),
            error: _mm256_setzero_si256(),
            spaces: [_mm256_setzero_si256(); 2],
            last: _mm256_setzero_si256(),
            pair: _mm256_setzero_si256(),
        };
        let checked = each_block::<MARKS, PATTERNS, State>(
            bytes,
            found,
            false,
            &mut state,
            |state, start, end| state.block::<MARKS, PATTERNS, PAIR>(&t, search, bytes, start, end),
            |state| _mm256_testz_si256(state.error, state.error) == 0,
        );
        if !checked {
            return false;
        }
        state.error = _mm256_or_si256(state.error, state.incomplete);
        _mm256_testz_si256(state.error, state.error) != 0
    }
}
