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
//! pattern test is a third of the cost. The loop over blocks and chunks and
//! the validator's tables are shared (`blocks.rs`).

#[cfg(feature = "std")]
extern crate std;

use super::blocks::*;
use super::report::Found;
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
