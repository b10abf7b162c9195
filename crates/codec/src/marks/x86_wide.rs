//! The fused kernel on 512-bit registers, for CPUs with AVX-512 VBMI: the
//! validation and the marks of the 256-bit build (`super::avx2`), one
//! 64-byte chunk per register, and the caller's patterns tested another
//! way.
//!
//! The 256-bit build looks each of a byte and the two before it up by
//! nibble (two `vpshufb` per byte and register of eight bits) and needs two
//! registers of eight nibble products: twelve lookups per register, more
//! than the validation itself. VBMI's `vpermi2b` looks a byte up in a
//! 128-entry table, so a bit stands for any product of three byte sets (a
//! family of patterns, `crate::patterns`): three lookups per register, and
//! a fourth for the patterns that look at no byte before their end (one
//! table for ASCII and other bytes, their kinds in either half of an
//! entry). When a family's tables end at the second byte of every U+FEFF and
//! U+FFFD (`Patterns::marks_in_bytes`), the marks are looked for in the
//! blocks the patterns report and need no test of their own. On a machine
//! with VBMI that takes `check` on 64 MiB of CJK from 2.2x to 1.3x of
//! simdutf8's validation.
//!
//! 512-bit registers alone gain little here (the two ports that run them
//! do about what three do with 256-bit ones); they are what `vpermi2b`'s
//! 128-entry tables need. Only CPUs with VBMI (Ice Lake and later, Zen 4
//! and later) get this build: none of them lowers its clock for 512-bit
//! integer work, as Skylake-SP did.
//!
//! The validation is the 256-bit builds' written out for 512-bit
//! registers (same tables, same steps): the two cannot share code without
//! an abstraction over register widths that would cost more to read than
//! the twenty lines it saves.

use core::arch::x86_64::{
    __m512i, _mm_loadu_si128, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_cmpeq_epi8_mask,
    _mm512_cmpgt_epi8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_maskz_mov_epi8,
    _mm512_maskz_permutex2var_epi8, _mm512_min_epu8, _mm512_movepi8_mask, _mm512_or_si512,
    _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8,
    _mm512_srli_epi16, _mm512_subs_epu8, _mm512_test_epi8_mask, _mm512_xor_si512,
};

use super::super::blocks::{
    BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH, CHUNK, Search, Seen, each_block, for_each_chunk,
};
use super::super::report::Found;
use crate::patterns::Patterns;

const _: () = assert!(CHUNK == 64, "one 512-bit register per chunk");

/// The last bytes of a register that leave a character unfinished (see
/// `super::INCOMPLETE_BELOW`).
const INCOMPLETE_BELOW: [u8; 64] = {
    let mut t = [0xFF; 64];
    t[61] = 0b1111_0000 - 1;
    t[62] = 0b1110_0000 - 1;
    t[63] = 0b1100_0000 - 1;
    t
};

/// The lookup tables and constants, loaded into registers once per call.
#[derive(Clone, Copy)]
struct Tables {
    byte_1_high: __m512i,
    byte_1_low: __m512i,
    byte_2_high: __m512i,
    incomplete_below: __m512i,
    nibble: __m512i,
    high_nibble: __m512i,
    third_byte_min: __m512i,
    fourth_byte_min: __m512i,
    high_bit: __m512i,
    mark_free_bits: __m512i,
    no_mark: __m512i,
    pair_first: __m512i,
    pair_second: __m512i,
    /// `Patterns::bytes`, each in two registers.
    text: [[__m512i; 2]; 4],
    /// `Patterns::marks_in_bytes`.
    marks_in_patterns: bool,
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn repeat_16(t: &[u8; 16]) -> __m512i {
    // SAFETY: `t` is 16 readable bytes; the load has no alignment need.
    _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
}

/// The 64 bytes at `p`.
///
/// # Safety
///
/// `p..p + 64` must be readable.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
#[inline]
unsafe fn load_at(p: *const u8) -> __m512i {
    // SAFETY: the caller's promise; the load has no alignment need.
    unsafe { _mm512_loadu_si512(p.cast()) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
#[inline]
fn splat(b: u8) -> __m512i {
    _mm512_set1_epi8(b as i8)
}

impl Tables {
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    fn new(search: &Search<'_>) -> Tables {
        let mut text = [[_mm512_setzero_si512(); 2]; 4];
        for (t, table) in text.iter_mut().zip(&search.patterns.bytes) {
            // SAFETY: each half of the table is 64 readable bytes.
            *t = unsafe { [load_at(table.as_ptr()), load_at(table.as_ptr().add(64))] };
        }
        Tables {
            byte_1_high: repeat_16(&BYTE_1_HIGH),
            byte_1_low: repeat_16(&BYTE_1_LOW),
            byte_2_high: repeat_16(&BYTE_2_HIGH),
            // SAFETY: the table is 64 readable bytes.
            incomplete_below: unsafe { load_at(INCOMPLETE_BELOW.as_ptr()) },
            nibble: splat(0x0F),
            high_nibble: splat(0xF0),
            third_byte_min: splat(0b1110_0000 - 1),
            fourth_byte_min: splat(0b1111_0000 - 1),
            high_bit: splat(0x80),
            mark_free_bits: splat(0x56),
            no_mark: splat(0xFF),
            pair_first: splat(search.pair[0]),
            pair_second: splat(search.pair[1]),
            text,
            marks_in_patterns: search.patterns.marks_in_bytes,
        }
    }
}

/// What carries from one register to the next.
struct State {
    /// Non-zero where the previous non-ASCII register ended inside a character.
    incomplete: __m512i,
    /// Non-zero once any error was seen.
    error: __m512i,
    /// Non-zero where a family of patterns ended in this block (a bit per
    /// family).
    families: __m512i,
    /// The kinds of the patterns that look at no byte before their end
    /// that ended in this block (`Patterns::bytes`' last table, the half
    /// for the byte's kind of byte kept).
    last: __m512i,
    /// The same table's entries for the bytes of ASCII chunks, whole (the
    /// low half is kept once per block).
    last_ascii: __m512i,
    /// Non-zero bits where the pair ended in this block.
    pair: u64,
}

impl State {
    /// Validates the 64 bytes at `p`; lowers `marks` to zero where a mark
    /// may end in them (ASCII chunks, which hold none, leave it alone).
    ///
    /// # Safety
    ///
    /// `p - 3..p + 64` must be readable (the bytes before a register are
    /// loaded again rather than shifted in; see `super`).
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    #[inline]
    unsafe fn chunk<const MARKS: bool, const PATTERNS: bool, const PAIR: bool>(
        &mut self,
        t: &Tables,
        p: *const u8,
        marks: &mut __m512i,
    ) {
        // SAFETY: the caller's promise.
        let (cur, prev1) = unsafe { (load_at(p), load_at(p.sub(1))) };
        if PAIR {
            self.pair |= _mm512_cmpeq_epi8_mask(prev1, t.pair_first)
                & _mm512_cmpeq_epi8_mask(cur, t.pair_second);
        }
        let high = _mm512_movepi8_mask(cur);
        if high == 0 {
            // ASCII: nothing to validate but an unfinished character before.
            self.error = _mm512_or_si512(self.error, self.incomplete);
            if PATTERNS {
                // A pattern ends at an ASCII byte by that byte alone.
                let [lo, hi] = t.text[3];
                let entries = _mm512_permutex2var_epi8(lo, cur, hi);
                self.last_ascii = _mm512_or_si512(self.last_ascii, entries);
            }
            return;
        }
        // SAFETY: the caller's promise.
        let (prev2, prev3) = unsafe { (load_at(p.sub(2)), load_at(p.sub(3))) };

        let prev1_high = _mm512_and_si512(_mm512_srli_epi16::<4>(prev1), t.nibble);
        let prev1_low = _mm512_and_si512(prev1, t.nibble);
        let cur_high = _mm512_and_si512(_mm512_srli_epi16::<4>(cur), t.nibble);
        let special = _mm512_and_si512(
            _mm512_and_si512(
                _mm512_shuffle_epi8(t.byte_1_high, prev1_high),
                _mm512_shuffle_epi8(t.byte_1_low, prev1_low),
            ),
            _mm512_shuffle_epi8(t.byte_2_high, cur_high),
        );
        let third = _mm512_subs_epu8(prev2, t.third_byte_min);
        let fourth = _mm512_subs_epu8(prev3, t.fourth_byte_min);
        let must_be_continuation =
            _mm512_cmpgt_epi8_mask(_mm512_or_si512(third, fourth), _mm512_setzero_si512());
        let lengths = _mm512_xor_si512(
            _mm512_maskz_mov_epi8(must_be_continuation, t.high_bit),
            special,
        );
        self.error = _mm512_or_si512(self.error, lengths);
        self.incomplete = _mm512_subs_epu8(cur, t.incomplete_below);
        if PATTERNS {
            // One lookup per byte (see `crate::patterns`).
            let [[z_lo, z_hi], [a_lo, a_hi], [b_lo, b_hi], [c_lo, c_hi]] = t.text;
            let z = _mm512_permutex2var_epi8(z_lo, prev2, z_hi);
            let a = _mm512_permutex2var_epi8(a_lo, prev1, a_hi);
            let b = _mm512_maskz_permutex2var_epi8(high, b_lo, cur, b_hi);
            // The low four bits for an ASCII byte, the high four for another.
            let half = _mm512_mask_blend_epi8(high, t.nibble, t.high_nibble);
            let last = _mm512_and_si512(_mm512_permutex2var_epi8(c_lo, cur, c_hi), half);
            self.families =
                _mm512_or_si512(self.families, _mm512_and_si512(_mm512_and_si512(z, a), b));
            self.last = _mm512_or_si512(self.last, last);
        }
        if !MARKS || (PATTERNS && t.marks_in_patterns) {
            // A block with a mark is one the patterns report (`EF BB`,
            // `EF BF`): no test of its own.
            return;
        }
        // Zero where a mark may end (see `super`).
        let mark = _mm512_xor_si512(
            _mm512_and_si512(
                prev2,
                _mm512_or_si512(_mm512_and_si512(prev1, cur), t.mark_free_bits),
            ),
            t.fourth_byte_min, // 0xEF
        );
        *marks = _mm512_min_epu8(*marks, mark);
    }

    /// The kinds of the patterns that ended in this block.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    fn kinds(&self, patterns: &Patterns) -> u8 {
        let last = _mm512_or_si512(self.last, _mm512_and_si512(self.last_ascii, splat(0x0F)));
        let any = _mm512_or_si512(self.families, last);
        if _mm512_test_epi8_mask(any, any) == 0 {
            return 0;
        }
        let bits = |x: __m512i| {
            (0..8)
                .filter(|&k| _mm512_test_epi8_mask(x, splat(1 << k)) != 0)
                .fold(0u8, |bits, k| bits | 1 << k)
        };
        let last = bits(last);
        Patterns::kinds_of(bits(self.families), &patterns.family_kinds) | last & 0x0F | last >> 4
    }

    /// Validates `bytes[start..end]` (whole chunks, or the last bytes of
    /// the input); returns whether a mark may end in it, the kinds of the
    /// patterns that do and whether the pair does.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
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
        self.families = _mm512_setzero_si512();
        self.last = _mm512_setzero_si512();
        self.last_ascii = _mm512_setzero_si512();
        self.pair = 0;
        for_each_chunk(bytes, start, end, |p| {
            // SAFETY: `for_each_chunk` gives a `p` with `p - 3..p + 64` readable.
            unsafe { self.chunk::<MARKS, PATTERNS, PAIR>(t, p, &mut marks) };
        });
        Seen {
            marks: _mm512_cmpeq_epi8_mask(marks, _mm512_setzero_si512()) != 0,
            patterns: if PATTERNS {
                self.kinds(search.patterns)
            } else {
                0
            },
            pair: PAIR && self.pair != 0,
        }
    }
}

/// The fused pass; see [`super::super::validate_scanning`].
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512BW and AVX-512 VBMI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
pub(super) unsafe fn validate_scanning<
    const MARKS: bool,
    const PATTERNS: bool,
    const PAIR: bool,
>(
    bytes: &[u8],
    search: &Search<'_>,
    found: &mut dyn FnMut(Found),
) -> bool {
    // Opaque to the optimiser, as in the 256-bit build.
    let t = core::hint::black_box(Tables::new(search));
    let mut state = State {
        incomplete: _mm512_setzero_si512(),
        error: _mm512_setzero_si512(),
        families: _mm512_setzero_si512(),
        last: _mm512_setzero_si512(),
        last_ascii: _mm512_setzero_si512(),
        pair: 0,
    };
    let checked = each_block::<MARKS, PATTERNS, State>(
        bytes,
        found,
        t.marks_in_patterns,
        &mut state,
        |state, start, end| state.block::<MARKS, PATTERNS, PAIR>(&t, search, bytes, start, end),
        |state| _mm512_test_epi8_mask(state.error, state.error) != 0,
    );
    if !checked {
        return false;
    }
    state.error = _mm512_or_si512(state.error, state.incomplete);
    _mm512_test_epi8_mask(state.error, state.error) == 0
}
