//! Counting the control bytes text does not use: the binary-file sniff
//! asks it of the first 8 KiB of every file a scan reads.
//!
//! One portable loop the compiler vectorizes (byte lanes, counted over
//! chunks short enough not to overflow them), built again for AVX2 and
//! for AVX-512 where the CPU has them (the same CPUs as the fused
//! validator's 512-bit kernel): two and four times the bytes per
//! operation, in a pass every file pays. Nearly every input has no
//! control byte, so the kernels first ask whether there is one with two
//! table lookups a register ([`CLASS_LOW`], [`CLASS_HIGH`]: one byte
//! shuffle by each nibble) instead of the portable test's ten compares,
//! and count with the portable loop only when there is.

#[cfg(all(target_arch = "x86_64", feature = "std"))]
extern crate std;

/// How many bytes of `bytes` are control bytes that text does not use:
/// below 0x20 but tab, line feed, form feed, carriage return and escape,
/// and DEL (0x7F). NUL is one.
pub fn count_controls(bytes: &[u8]) -> usize {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        // VBMI marks the CPUs that run 512-bit operations without lowering
        // the clock, as for the fused validator.
        if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vbmi")
        {
            // SAFETY: the CPU supports these features, checked just above.
            return unsafe { count_avx512(bytes) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { count_avx2(bytes) };
        }
    }
    count(bytes)
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[target_feature(enable = "avx2")]
fn count_avx2(bytes: &[u8]) -> usize {
    if x86::any_avx2(bytes) {
        count_all(bytes)
    } else {
        0
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn count_avx512(bytes: &[u8]) -> usize {
    if x86::any_avx512(bytes) {
        count_all(bytes)
    } else {
        0
    }
}

/// The control bytes by low nibble: bit 0 for those of `0x00..=0x0F`
/// (all but tab, line feed, form feed and carriage return), bit 1 for
/// those of `0x10..=0x1F` (all but escape), bit 2 for DEL.
const CLASS_LOW: [u8; 16] = {
    let mut table = [0u8; 16];
    let mut low = 0;
    while low < 16 {
        let b = low as u8;
        if is_control(b) {
            table[low] |= 1;
        }
        if is_control(0x10 | b) {
            table[low] |= 2;
        }
        if is_control(0x70 | b) {
            table[low] |= 4;
        }
        low += 1;
    }
    table
};

/// The bits of [`CLASS_LOW`] that a high nibble selects: a byte is a
/// control byte when the two lookups share a bit.
const CLASS_HIGH: [u8; 16] = {
    let mut table = [0u8; 16];
    table[0x0] = 1;
    table[0x1] = 2;
    table[0x7] = 4;
    table
};

/// The nibble-table kernels: whether `bytes` hold a control byte.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod x86 {
    use core::arch::x86_64::{
        __m256i, __m512i, _mm_loadu_si128, _mm256_and_si256, _mm256_broadcastsi128_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_testz_si256, _mm512_and_si512,
        _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_or_si512, _mm512_set1_epi8,
        _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_test_epi8_mask,
    };

    use super::{CLASS_HIGH, CLASS_LOW};

    /// `bytes` in whole registers of `N` bytes, the last padded with a
    /// letter (never a control byte).
    fn registers<const N: usize>(bytes: &[u8]) -> (core::slice::ChunksExact<'_, u8>, [u8; N]) {
        let chunks = bytes.chunks_exact(N);
        let mut last = [b'a'; N];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        (chunks, last)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn any_avx2(bytes: &[u8]) -> bool {
        // SAFETY: each table is 16 readable bytes; no alignment need.
        let (low, high) = unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(CLASS_LOW.as_ptr().cast())),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(CLASS_HIGH.as_ptr().cast())),
            )
        };
        let nibble = _mm256_set1_epi8(0x0F);
        let class = |v: __m256i| {
            let l = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
            let h = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
            _mm256_and_si256(l, h)
        };
        let (chunks, last) = registers::<32>(bytes);
        let mut any = _mm256_setzero_si256();
        for chunk in chunks {
            // SAFETY: the chunk is 32 readable bytes; no alignment need.
            let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
            any = _mm256_or_si256(any, class(v));
        }
        // SAFETY: as above.
        let v = unsafe { _mm256_loadu_si256(last.as_ptr().cast()) };
        any = _mm256_or_si256(any, class(v));
        _mm256_testz_si256(any, any) == 0
    }

    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    pub(super) fn any_avx512(bytes: &[u8]) -> bool {
        // SAFETY: each table is 16 readable bytes; no alignment need.
        let (low, high) = unsafe {
            (
                _mm512_broadcast_i32x4(_mm_loadu_si128(CLASS_LOW.as_ptr().cast())),
                _mm512_broadcast_i32x4(_mm_loadu_si128(CLASS_HIGH.as_ptr().cast())),
            )
        };
        let nibble = _mm512_set1_epi8(0x0F);
        let class = |v: __m512i| {
            let l = _mm512_shuffle_epi8(low, _mm512_and_si512(v, nibble));
            let h = _mm512_shuffle_epi8(high, _mm512_and_si512(_mm512_srli_epi16::<4>(v), nibble));
            _mm512_and_si512(l, h)
        };
        let (chunks, last) = registers::<64>(bytes);
        let mut any = _mm512_setzero_si512();
        for chunk in chunks {
            // SAFETY: the chunk is 64 readable bytes; no alignment need.
            let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
            any = _mm512_or_si512(any, class(v));
        }
        // SAFETY: as above.
        let v = unsafe { _mm512_loadu_si512(last.as_ptr().cast()) };
        any = _mm512_or_si512(any, class(v));
        _mm512_test_epi8_mask(any, any) != 0
    }
}

/// Bytes per chunk: a whole number of the vector loop's steps (64 bytes),
/// so that no chunk ends in a byte-at-a-time tail, and few enough that
/// no byte lane overflows.
const CHUNK: usize = 192;

/// Bytes per step of the first look, which only asks whether there is a
/// control byte: an OR of the tests, folded once per step ...
const LOOK: usize = 1024;

/// ... and per step of the vector loop, for the bytes after the last
/// whole `LOOK`.
const STEP: usize = 64;

#[inline(always)]
const fn is_control(b: u8) -> bool {
    let text = (b == b'\t') | (b == b'\n') | (b == b'\r') | (b == 0x0C) | (b == 0x1B);
    ((b < 0x20) & !text) | (b == 0x7F)
}

#[inline(always)]
fn count(bytes: &[u8]) -> usize {
    // Nearly every input has none: looked for first without counting,
    // which spares the byte lanes' sum after every chunk, and the last
    // bytes padded to a whole step with a letter, so that no input ends
    // in a byte-at-a-time tail (most files are shorter than a few steps).
    let any = |chunk: &[u8]| chunk.iter().fold(false, |any, &b| any | is_control(b));
    let mut looks = bytes.chunks_exact(LOOK);
    let mut steps = looks.remainder().chunks_exact(STEP);
    let tail = steps.remainder();
    let mut padded = [b'a'; STEP];
    padded[..tail.len()].copy_from_slice(tail);
    let found = looks.any(any) || steps.any(any) || any(&padded);
    if !found {
        return 0;
    }
    count_all(bytes)
}

/// [`count`] past its first look: every byte counted.
#[inline(always)]
fn count_all(bytes: &[u8]) -> usize {
    let in_chunk = |chunk: &[u8]| {
        let n = chunk
            .iter()
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(is_control(b))));
        usize::from(n)
    };
    let mut chunks = bytes.chunks_exact(CHUNK);
    chunks.by_ref().map(in_chunk).sum::<usize>() + in_chunk(chunks.remainder())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count of each build the CPU runs, by name.
    fn kernels(bytes: &[u8]) -> std::vec::Vec<(&'static str, usize)> {
        let mut counts = std::vec![("portable", count(bytes))];
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2.
                counts.push(("avx2", unsafe { count_avx2(bytes) }));
            }
            if std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
            {
                // SAFETY: the CPU supports these features.
                counts.push(("avx512", unsafe { count_avx512(bytes) }));
            }
        }
        counts
    }

    /// Every byte value alone in text, at the ends and across the
    /// registers of each build: counted by each as the definition says.
    #[test]
    fn every_byte_value_is_told_by_every_build() {
        let mut controls = 0;
        for b in 0..=255u8 {
            let expected = usize::from(
                b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B) || b == 0x7F,
            );
            controls += expected;
            for at in [0, 1, 15, 16, 31, 32, 33, 63, 64, 65, 127, 199] {
                let mut text = [b'x'; 200];
                text[at] = b;
                for len in [at + 1, (at + 2).min(200), 200] {
                    for (kernel, n) in kernels(&text[..len]) {
                        assert_eq!(n, expected, "{kernel}: {b:02X} at {at} of {len}");
                    }
                }
            }
        }
        assert_eq!(controls, 28);
    }

    /// Every byte value, at every position of a chunk and across chunks,
    /// counted as the plain definition counts.
    #[test]
    fn counts_what_a_plain_count_counts() {
        let plain = |bytes: &[u8]| {
            bytes
                .iter()
                .filter(|&&b| {
                    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B) || b == 0x7F
                })
                .count()
        };
        let mut bytes = [b'a'; 3 * CHUNK + 17];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i * 7 % 256) as u8;
        }
        for len in [0, 1, 63, 64, 65, CHUNK - 1, CHUNK, CHUNK + 1, bytes.len()] {
            assert_eq!(count_controls(&bytes[..len]), plain(&bytes[..len]), "{len}");
            assert_eq!(count(&bytes[..len]), plain(&bytes[..len]), "{len}");
            for (kernel, n) in kernels(&bytes[..len]) {
                assert_eq!(n, plain(&bytes[..len]), "{kernel} {len}");
            }
        }
        // A chunk of nothing but controls does not overflow its lanes.
        let all = [0x01u8; 2 * CHUNK + 5];
        assert_eq!(count_controls(&all), all.len());
        assert_eq!(count_controls(b"tab\tlf\ncr\rff\x0Cesc\x1B"), 0);
        // One control byte anywhere in text longer than the first look's
        // step, and in every kind of ending: found, and counted once.
        let mut text = [b'x'; 2 * LOOK + 3 * STEP + 5];
        assert_eq!(count_controls(&text), 0);
        for at in 0..text.len() {
            text[at] = 0x7F;
            for len in [at + 1, at + 2, text.len()] {
                let len = len.min(text.len());
                assert_eq!(count_controls(&text[..len]), 1, "{at} {len}");
            }
            text[at] = b'x';
        }
        assert_eq!(count_controls(b"\0\x7F\x0B\x1F"), 4);
    }
}
