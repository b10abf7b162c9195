//! Counting the bytes of a caller's set: the binary-file sniff counts
//! the control bytes text does not use in the first 8 KiB of every file a
//! scan reads. Which bytes those are is the caller's knowledge; the codec
//! only counts.
//!
//! The set is compiled (in a `const`, [`ByteClass::new`]) into two forms:
//! `N` ranges of byte values, which the compiler vectorizes on every
//! target (a byte's test is one subtraction and one compare per range),
//! and two 16-entry tables by nibble, which the AVX2 build looks each byte
//! up in (one byte shuffle by each nibble a register, whatever the set).
//! Nearly every input has no byte of the set, so each build first asks
//! whether there is one and counts (with the ranges) only then.

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
        }
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    const fn contains(&self, b: u8) -> bool {
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
        __m256i, _mm_loadu_si128, _mm256_and_si256, _mm256_broadcastsi128_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_testz_si256,
    };

    /// Whether `bytes` hold a byte of the set whose nibble tables are
    /// `low` and `high`; `outside` is a byte not in it.
    #[target_feature(enable = "avx2")]
    pub(super) fn any_avx2(bytes: &[u8], tables: (&[u8; 16], &[u8; 16]), outside: u8) -> bool {
        // SAFETY: each table is 16 readable bytes; no alignment need.
        let (low, high) = unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(tables.0.as_ptr().cast())),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(tables.1.as_ptr().cast())),
            )
        };
        let nibble = _mm256_set1_epi8(0x0F);
        let class = |v: __m256i| {
            let l = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
            let h = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
            _mm256_and_si256(l, h)
        };
        // SAFETY: a register's 32 bytes are readable; no alignment need.
        let load = |reg: &[u8; 32]| unsafe { _mm256_loadu_si256(reg.as_ptr().cast()) };
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
    let any = |chunk: &[u8]| chunk.iter().fold(false, |any, &b| any | set.contains(b));
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
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(set.contains(b))));
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
}
