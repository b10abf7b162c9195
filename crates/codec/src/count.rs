//! The bytes of a caller's sets, counted or as bits: the binary-file sniff
//! counts the control bytes text does not use in the first 8 KiB of every
//! file a scan reads ([`count_in`]); a test that looks at each byte with
//! the two after it (which bytes of a line are letters, lead bytes, word
//! characters) takes the bits of each set 64 bytes at a time
//! ([`find_by_bits`]) and combines them with shifts. Which bytes those are
//! is the caller's knowledge; the codec only counts and gathers.
//!
//! The set is compiled (in a `const`, [`ByteClass::new`]) into two forms:
//! `N` ranges of byte values, which the compiler vectorizes on every
//! target (a byte's test is one subtraction and one compare per range),
//! and two 16-entry tables by nibble, which the AVX2 build looks each byte
//! up in (one byte shuffle by each nibble a register, whatever the set).
//! The set itself is kept for a caller's test of one byte.
//! Nearly every input has no byte of the set, so each build of the count
//! first asks whether there is one and counts (with the ranges) only then.

use crate::ByteSet;

#[cfg(any(
    test,
    all(target_arch = "x86_64", feature = "std", not(feature = "portable"))
))]
extern crate std;

/// A set of bytes compiled for [`count_in`]: `N` ranges `first..=first +
/// span` (a set of fewer repeats its first one: a byte in it twice is
/// counted once), and its nibble tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteClass<const N: usize> {
    /// `(first, span)`: the bytes `b` with `b - first <= span`, wrapping.
    ranges: [(u8, u8); N],
    /// A byte outside the set, to pad the last step with; `None` for the
    /// set of every byte.
    outside: Option<u8>,
    /// By low nibble, a bit for each distinct set of low nibbles a high
    /// nibble's row holds; by high nibble, its row's bit: a byte is in the
    /// set when its two lookups share a bit.
    low: [u8; 16],
    high: [u8; 16],
    /// The set itself, for the test of one byte ([`ByteClass::contains`]).
    set: ByteSet,
}

impl<const N: usize> ByteClass<N> {
    /// `set` compiled; an empty set, one of more than `N` ranges, or one
    /// whose rows of 16 bytes hold more than 8 different sets of low
    /// nibbles fails (at build time, in a `const`).
    pub const fn new(set: ByteSet) -> ByteClass<N> {
        let mut ranges = [(0u8, 0u8); N];
        let mut found = 0;
        let mut b = 0usize;
        while b < 256 {
            if set.contains(b as u8) && (b == 0 || !set.contains((b - 1) as u8)) {
                let mut last = b;
                while last < 255 && set.contains((last + 1) as u8) {
                    last += 1;
                }
                assert!(found < N, "more ranges in the set than N");
                ranges[found] = (b as u8, (last - b) as u8);
                found += 1;
                b = last;
            }
            b += 1;
        }
        assert!(found > 0, "an empty set: nothing to count");
        while found < N {
            ranges[found] = ranges[0];
            found += 1;
        }
        let mut outside = None;
        let mut b = 0usize;
        while b < 256 && outside.is_none() {
            if !set.contains(b as u8) {
                outside = Some(b as u8);
            }
            b += 1;
        }
        let (low, high) = nibble_tables(set);
        ByteClass {
            ranges,
            outside,
            low,
            high,
            set,
        }
    }

    /// Whether `b` is in the set: one bit of the set looked up, for a
    /// caller's test of a byte or two beside the bits it was given.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        self.set.contains(b)
    }

    /// Whether `b` is in one of the ranges: the same answer as
    /// [`ByteClass::contains`], in the form the compiler vectorizes over a
    /// run of bytes.
    #[inline(always)]
    const fn in_ranges(&self, b: u8) -> bool {
        let mut any = false;
        let mut i = 0;
        while i < N {
            let (first, span) = self.ranges[i];
            any |= b.wrapping_sub(first) <= span;
            i += 1;
        }
        any
    }
}

/// The nibble tables of `set` (see [`ByteClass`]).
const fn nibble_tables(set: ByteSet) -> ([u8; 16], [u8; 16]) {
    let mut rows = [0u16; 16];
    let mut b = 0usize;
    while b < 256 {
        if set.contains(b as u8) {
            rows[b >> 4] |= 1 << (b & 15);
        }
        b += 1;
    }
    let mut distinct = [0u16; 8];
    let mut kinds = 0;
    let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
    let mut h = 0;
    while h < 16 {
        if rows[h] != 0 {
            let mut bit = 0;
            while bit < kinds && distinct[bit] != rows[h] {
                bit += 1;
            }
            if bit == kinds {
                assert!(kinds < 8, "more than 8 kinds of row in the set");
                distinct[kinds] = rows[h];
                kinds += 1;
            }
            high[h] = 1 << bit;
        }
        h += 1;
    }
    let mut l = 0;
    while l < 16 {
        let mut bit = 0;
        while bit < kinds {
            if distinct[bit] & (1 << l) != 0 {
                low[l] |= 1 << bit;
            }
            bit += 1;
        }
        l += 1;
    }
    (low, high)
}

/// Bytes per chunk of the count: a whole number of the look's steps, so
/// that no chunk ends in a byte-at-a-time tail, and few enough that no
/// byte lane overflows.
const CHUNK: usize = 192;

/// Bytes per step of the first look, which only asks whether there is a
/// byte of the set: an OR of the tests, folded once per step ...
const LOOK: usize = 1024;

/// ... and per step of the loop for the bytes after the last whole
/// `LOOK`.
const STEP: usize = 64;

/// Bytes per chunk of [`find_by_bits`]: one bit each in a `u64`.
pub const BITS_CHUNK: usize = 64;

/// Calls `step(at, bits)` for each 64-byte chunk of `bytes` from `from` on
/// (`at` is `from`, `from + 64`, ...) that holds a byte of one of `sets`,
/// where bit `i` of `bits[k]` says whether `bytes[at + i]` is in `sets[k]`
/// (0 past the end of `bytes`), until `step` returns `Some`, which is
/// returned; `None` once the chunks run out. A chunk with no byte of any
/// set is not handed over: a caller finds what it looks for at set bits.
///
/// ```
/// use utf8lint_codec::{ByteClass, ByteSet, find_by_bits};
/// const DIGITS: ByteClass<1> = ByteClass::new(ByteSet::range(b'0', b'9'));
/// const SPACE: ByteClass<1> = ByteClass::new(ByteSet::of(b" "));
/// let text = "a".repeat(70) + " 42";
/// // The first digit after a space: the bits of the two sets, shifted.
/// let found = find_by_bits(text.as_bytes(), 0, &[DIGITS, SPACE], |at, [digits, spaces]| {
///     let after_space = digits & (spaces << 1);
///     (after_space != 0).then(|| at + after_space.trailing_zeros() as usize)
/// });
/// assert_eq!(found, Some(71));
/// ```
#[inline]
pub fn find_by_bits<const N: usize, const K: usize, R>(
    bytes: &[u8],
    from: usize,
    sets: &[ByteClass<N>; K],
    step: impl FnMut(usize, [u64; K]) -> Option<R>,
) -> Option<R> {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(feature = "portable")))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { x86::find_by_bits_avx2(bytes, from, sets, step) };
    }
    find_by_bits_portable(bytes, from, sets, step)
}

/// The portable build of [`find_by_bits`]: the ranges, vectorized by the
/// compiler, the bits gathered eight bytes at a time by one multiplication.
#[inline(always)]
fn find_by_bits_portable<const N: usize, const K: usize, R>(
    bytes: &[u8],
    from: usize,
    sets: &[ByteClass<N>; K],
    mut step: impl FnMut(usize, [u64; K]) -> Option<R>,
) -> Option<R> {
    let mut at = from;
    while at < bytes.len() {
        let (chunk, valid) = chunk_at(bytes, at);
        let bits = core::array::from_fn(|k| {
            let mut flags = [0u8; BITS_CHUNK];
            for (flag, &b) in flags.iter_mut().zip(&chunk) {
                *flag = u8::from(sets[k].in_ranges(b));
            }
            gather(&flags) & valid
        });
        if bits.iter().any(|&b| b != 0)
            && let Some(r) = step(at, bits)
        {
            return Some(r);
        }
        at += BITS_CHUNK;
    }
    None
}

/// The 64 bytes from `at` (`at < bytes.len()`), zeros past the end, and
/// the bits of those in `bytes`.
#[inline(always)]
fn chunk_at(bytes: &[u8], at: usize) -> ([u8; BITS_CHUNK], u64) {
    let mut chunk = [0u8; BITS_CHUNK];
    let rest = &bytes[at..];
    let len = rest.len().min(BITS_CHUNK);
    chunk[..len].copy_from_slice(&rest[..len]);
    let valid = if len == BITS_CHUNK {
        u64::MAX
    } else {
        (1u64 << len) - 1
    };
    (chunk, valid)
}

/// Bit `i` for each `flags[i]` that is 1 (each is 0 or 1): eight bytes at a
/// time, one multiplication (no two products overlap).
#[inline(always)]
fn gather(flags: &[u8; BITS_CHUNK]) -> u64 {
    let mut bits = 0u64;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        let eight = u64::from_le_bytes(word);
        bits |= (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// How many bytes of `bytes` are in `set`.
#[inline]
pub fn count_in<const N: usize>(bytes: &[u8], set: &ByteClass<N>) -> usize {
    let Some(outside) = set.outside else {
        return bytes.len();
    };
    #[cfg(all(target_arch = "x86_64", feature = "std", not(feature = "portable")))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { count_avx2(bytes, set, outside) };
    }
    count_portable(bytes, set, outside)
}

/// [`count_in`] with the given build, for tests and benchmarks; a build
/// this CPU cannot run falls back to the portable one.
#[cfg(feature = "testing")]
pub fn count_in_using<const N: usize>(
    kernel: crate::marks::Kernel,
    bytes: &[u8],
    set: &ByteClass<N>,
) -> usize {
    match kernel {
        crate::marks::Kernel::Portable => match set.outside {
            Some(outside) => count_portable(bytes, set, outside),
            None => bytes.len(),
        },
        _ => count_in(bytes, set),
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std", not(feature = "portable")))]
#[target_feature(enable = "avx2")]
fn count_avx2<const N: usize>(bytes: &[u8], set: &ByteClass<N>, outside: u8) -> usize {
    if x86::any_avx2(bytes, (&set.low, &set.high), outside) {
        count_all(bytes, set)
    } else {
        0
    }
}

/// The nibble-table kernel: whether `bytes` hold a byte of the set.
#[cfg(all(target_arch = "x86_64", feature = "std", not(feature = "portable")))]
mod x86 {
    use core::arch::x86_64::{
        __m256i, _mm_loadu_si128, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_testz_si256,
    };

    use super::{BITS_CHUNK, ByteClass, chunk_at};

    /// A nibble table in both lanes of a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn table(t: &[u8; 16]) -> __m256i {
        // SAFETY: the table is 16 readable bytes; no alignment need.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    /// The 32 bytes of `reg` in a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(reg: &[u8; 32]) -> __m256i {
        // SAFETY: a register's 32 bytes are readable; no alignment need.
        unsafe { _mm256_loadu_si256(reg.as_ptr().cast()) }
    }

    /// [`super::find_by_bits`]: per register, a shuffle by each nibble
    /// and set, and a compare and a mask of the bytes' high bits.
    #[target_feature(enable = "avx2")]
    pub(super) fn find_by_bits_avx2<const N: usize, const K: usize, R>(
        bytes: &[u8],
        from: usize,
        sets: &[ByteClass<N>; K],
        mut step: impl FnMut(usize, [u64; K]) -> Option<R>,
    ) -> Option<R> {
        let tables: [(__m256i, __m256i); K] =
            core::array::from_fn(|k| (table(&sets[k].low), table(&sets[k].high)));
        let nibble = _mm256_set1_epi8(0x0F);
        let zero = _mm256_setzero_si256();
        let bits_of = |chunk: &[u8; BITS_CHUNK]| -> [u64; K] {
            let regs = chunk.as_chunks::<32>().0;
            let (lo, hi) = (load(&regs[0]), load(&regs[1]));
            let nibbles = |v: __m256i| {
                (
                    _mm256_and_si256(v, nibble),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble),
                )
            };
            let (lo, hi) = (nibbles(lo), nibbles(hi));
            core::array::from_fn(|k| {
                let (low, high) = tables[k];
                // The bytes outside the set: those whose lookups share no bit.
                let outside = |(l, h): (__m256i, __m256i)| {
                    let both =
                        _mm256_and_si256(_mm256_shuffle_epi8(low, l), _mm256_shuffle_epi8(high, h));
                    u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(both, zero)) as u32)
                };
                !(outside(lo) | outside(hi) << 32)
            })
        };
        let mut at = from;
        while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<BITS_CHUNK>) {
            let bits = bits_of(chunk);
            if bits.iter().any(|&b| b != 0)
                && let Some(r) = step(at, bits)
            {
                return Some(r);
            }
            at += BITS_CHUNK;
        }
        if at < bytes.len() {
            let (chunk, valid) = chunk_at(bytes, at);
            let bits = bits_of(&chunk).map(|bits| bits & valid);
            return bits
                .iter()
                .any(|&b| b != 0)
                .then(|| step(at, bits))
                .flatten();
        }
        None
    }

    /// Whether `bytes` hold a byte of the set whose nibble tables are
    /// `low` and `high`; `outside` is a byte not in it.
    #[target_feature(enable = "avx2")]
    pub(super) fn any_avx2(bytes: &[u8], tables: (&[u8; 16], &[u8; 16]), outside: u8) -> bool {
        let (low, high) = (table(tables.0), table(tables.1));
        let nibble = _mm256_set1_epi8(0x0F);
        let class = |v: __m256i| {
            let l = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
            let h = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
            _mm256_and_si256(l, h)
        };
        let (regs, tail) = bytes.as_chunks::<32>();
        let mut any = _mm256_setzero_si256();
        // Four registers a step: the loop's own work is then a small share
        // of a file head's 8 KiB.
        let mut fours = regs.chunks_exact(4);
        for four in fours.by_ref() {
            let pair = _mm256_or_si256(class(load(&four[0])), class(load(&four[1])));
            let other = _mm256_or_si256(class(load(&four[2])), class(load(&four[3])));
            any = _mm256_or_si256(any, _mm256_or_si256(pair, other));
        }
        // Then whole registers, the last padded with a byte outside the set.
        let mut last = [outside; 32];
        last[..tail.len()].copy_from_slice(tail);
        for reg in fours.remainder().iter().chain(core::iter::once(&last)) {
            any = _mm256_or_si256(any, class(load(reg)));
        }
        _mm256_testz_si256(any, any) == 0
    }
}

/// The portable build: the ranges, vectorized by the compiler.
#[inline(always)]
fn count_portable<const N: usize>(bytes: &[u8], set: &ByteClass<N>, outside: u8) -> usize {
    // The last bytes are padded to a whole step with a byte outside the
    // set, so that no input ends in a byte-at-a-time tail (most files are
    // shorter than a few steps).
    let any = |chunk: &[u8]| chunk.iter().fold(false, |any, &b| any | set.in_ranges(b));
    let mut looks = bytes.chunks_exact(LOOK);
    let mut steps = looks.remainder().chunks_exact(STEP);
    let tail = steps.remainder();
    let mut padded = [outside; STEP];
    padded[..tail.len()].copy_from_slice(tail);
    if !(looks.any(any) || steps.any(any) || any(&padded)) {
        return 0;
    }
    count_all(bytes, set)
}

/// Every byte of `bytes` tested, with the ranges.
#[inline(always)]
fn count_all<const N: usize>(bytes: &[u8], set: &ByteClass<N>) -> usize {
    let in_chunk = |chunk: &[u8]| {
        let n = chunk
            .iter()
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(set.in_ranges(b))));
        usize::from(n)
    };
    let mut chunks = bytes.chunks_exact(CHUNK);
    chunks.by_ref().map(in_chunk).sum::<usize>() + in_chunk(chunks.remainder())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The control bytes text does not use, as the sniff defines them.
    const CONTROLS: ByteClass<5> = ByteClass::new(
        ByteSet::range(0x00, 0x1F)
            .minus(ByteSet::of(b"\t\n\x0C\r\x1B"))
            .union(ByteSet::of(b"\x7F")),
    );

    /// The count of each build: the one this CPU runs, and the portable.
    fn both<const N: usize>(bytes: &[u8], set: &ByteClass<N>) -> [usize; 2] {
        let portable = set
            .outside
            .map_or(bytes.len(), |o| count_portable(bytes, set, o));
        [count_in(bytes, set), portable]
    }

    fn plain(bytes: &[u8], set: ByteSet) -> usize {
        bytes.iter().filter(|&&b| set.contains(b)).count()
    }

    /// A set's ranges hold its bytes and no other, whatever its shape:
    /// one byte, the ends of the byte values, every byte, padding.
    #[test]
    fn the_ranges_hold_the_set() {
        let sets = [
            ByteSet::of(b"\0"),
            ByteSet::of(b"\xFF"),
            ByteSet::of(b"\0\xFF"),
            ByteSet::ANY,
            ByteSet::range(0x80, 0xFF),
            ByteSet::of(b"aceg"),
            // Rows of eight different kinds: the most the tables hold.
            ByteSet::of(&[0x01, 0x12, 0x23, 0x34, 0x45, 0x56, 0x67, 0x78]),
        ];
        for set in sets {
            let class = ByteClass::<8>::new(set);
            let every_value: std::vec::Vec<u8> = (0..=255u8).cycle().take(1000).collect();
            for b in 0..=255u8 {
                assert_eq!(class.in_ranges(b), set.contains(b), "{set:?} {b:02X}");
                assert_eq!(class.contains(b), set.contains(b), "{set:?} {b:02X}");
                let one = [b; 40];
                assert_eq!(both(&one, &class), [40 * usize::from(set.contains(b)); 2]);
            }
            let expected = plain(&every_value, set);
            assert_eq!(both(&every_value, &class), [expected; 2], "{set:?}");
        }
    }

    /// Every byte value alone in text, at the ends of steps and chunks:
    /// counted as the plain definition counts.
    #[test]
    fn every_byte_value_is_counted_where_it_stands() {
        let set = ByteSet::range(0x00, 0x1F)
            .minus(ByteSet::of(b"\t\n\x0C\r\x1B"))
            .union(ByteSet::of(b"\x7F"));
        let mut counted = 0;
        for b in 0..=255u8 {
            let expected = usize::from(set.contains(b));
            counted += expected;
            for at in [0, 1, 15, 16, 31, 32, 33, 63, 64, 65, 127, 199] {
                let mut text = [b'x'; 200];
                text[at] = b;
                for len in [at + 1, (at + 2).min(200), 200] {
                    let counted = both(&text[..len], &CONTROLS);
                    assert_eq!(counted, [expected; 2], "{b:02X} {at} {len}");
                }
            }
        }
        assert_eq!(counted, 28);
    }

    /// Every byte value, at every position of a chunk and across chunks,
    /// counted as the plain definition counts; lanes never overflow.
    #[test]
    fn counts_what_a_plain_count_counts() {
        let set = ByteSet::range(0x00, 0x1F)
            .minus(ByteSet::of(b"\t\n\x0C\r\x1B"))
            .union(ByteSet::of(b"\x7F"));
        let mut bytes = [b'a'; 3 * CHUNK + 17];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i * 7 % 256) as u8;
        }
        for len in [0, 1, 63, 64, 65, CHUNK - 1, CHUNK, CHUNK + 1, bytes.len()] {
            let expected = plain(&bytes[..len], set);
            assert_eq!(both(&bytes[..len], &CONTROLS), [expected; 2], "{len}");
        }
        let all = [0x01u8; 2 * CHUNK + 5];
        assert_eq!(both(&all, &CONTROLS), [all.len(); 2]);
        let every = ByteClass::<1>::new(ByteSet::ANY);
        assert_eq!(both(&bytes, &every), [bytes.len(); 2]);
        let mut text = [b'x'; 2 * LOOK + 3 * STEP + 5];
        assert_eq!(both(&text, &CONTROLS), [0; 2]);
        for at in 0..text.len() {
            text[at] = 0x7F;
            for len in [at + 1, at + 2, text.len()] {
                let len = len.min(text.len());
                assert_eq!(both(&text[..len], &CONTROLS), [1; 2], "{at} {len}");
            }
            text[at] = b'x';
        }
    }

    /// Every chunk's bits from each build as a plain test of each byte
    /// gives them, from any offset, for any length, zeros past the end.
    #[test]
    fn the_bits_are_each_sets_bytes() {
        const WORD: ByteClass<4> = ByteClass::new(
            ByteSet::range(b'0', b'9')
                .union(ByteSet::range(b'A', b'Z'))
                .union(ByteSet::range(b'a', b'z'))
                .union(ByteSet::of(b"_")),
        );
        const LEAD: ByteClass<4> = ByteClass::new(ByteSet::range(0xC0, 0xFF));
        const ZERO: ByteClass<4> = ByteClass::new(ByteSet::of(b"\0"));
        let sets = [WORD, LEAD, ZERO];
        let plain_sets = [
            ByteSet::range(b'0', b'9')
                .union(ByteSet::range(b'A', b'Z'))
                .union(ByteSet::range(b'a', b'z'))
                .union(ByteSet::of(b"_")),
            ByteSet::range(0xC0, 0xFF),
            ByteSet::of(b"\0"),
        ];
        // Bytes of every kind, with a run in no set (`!`) in the middle:
        // chunks that are not handed over.
        let bytes: std::vec::Vec<u8> = (0..300usize)
            .map(|i| {
                if (100..250).contains(&i) {
                    b'!'
                } else {
                    (i * 37 % 256) as u8
                }
            })
            .collect();
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 300] {
            for from in [0, 1, 5, 63, 64, 70] {
                let bytes = &bytes[..len];
                let expected: std::vec::Vec<(usize, [u64; 3])> = (from..len)
                    .step_by(BITS_CHUNK)
                    .map(|at| {
                        let bits = core::array::from_fn(|k| {
                            (at..len.min(at + BITS_CHUNK)).fold(0u64, |bits, i| {
                                bits | u64::from(plain_sets[k].contains(bytes[i])) << (i - at)
                            })
                        });
                        (at, bits)
                    })
                    .filter(|(_, bits)| bits.iter().any(|&b| b != 0))
                    .collect();
                let mut seen = std::vec::Vec::new();
                let none: Option<()> = find_by_bits(bytes, from, &sets, |at, bits| {
                    seen.push((at, bits));
                    None
                });
                assert!(none.is_none());
                assert_eq!(seen, expected, "{len} {from}");
                let mut portable = std::vec::Vec::new();
                let _: Option<()> = find_by_bits_portable(bytes, from, &sets, |at, bits| {
                    portable.push((at, bits));
                    None
                });
                assert_eq!(portable, expected, "portable {len} {from}");
                // The first `Some` ends the search.
                let mut calls = 0;
                let first = find_by_bits(bytes, from, &sets, |at, _| {
                    calls += 1;
                    Some(at)
                });
                assert_eq!(first, expected.first().map(|&(at, _)| at));
                assert_eq!(calls, usize::from(!expected.is_empty()));
            }
        }
    }
}
