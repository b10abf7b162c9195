//! Counting the control bytes text does not use: the binary-file sniff
//! asks it of the first 8 KiB of every file a scan reads.
//!
//! One portable loop the compiler vectorizes (byte lanes, counted over
//! chunks short enough not to overflow them), built again for AVX2 and
//! for AVX-512 where the CPU has them (the same CPUs as the fused
//! validator's 512-bit kernel): two and four times the bytes per
//! operation, in a pass every file pays.

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
    count(bytes)
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn count_avx512(bytes: &[u8]) -> usize {
    count(bytes)
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
fn is_control(b: u8) -> bool {
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
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2.
                assert_eq!(unsafe { count_avx2(&bytes[..len]) }, plain(&bytes[..len]));
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
