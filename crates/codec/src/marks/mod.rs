//! U+FEFF and U+FFFD, and the caller's byte patterns, found in the same
//! pass that validates.
//!
//! Both characters say something about how a file was made (a byte-order
//! mark left in the middle by concatenation; the damage of a lossy decoder),
//! and both are spelt with the lead byte `EF`, which the validator looks at
//! anyway. Searching for them in a second pass over every byte costs as much
//! as validating again on text full of `EF` (CJK punctuation is `EF BC xx`),
//! so on x86-64 with AVX2 one kernel (`x86.rs`) does both, and finds the
//! blocks in which a caller's patterns ([`Patterns`]) or pair of bytes end
//! in the same registers; elsewhere the portable path validates a block and
//! then searches it while it is in cache.

#[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
mod blocks;
mod report;
#[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
mod x86;

pub use report::{Found, Mark, find_marks};

use crate::patterns::Patterns;

/// What [`validate_scanning`] looks for besides validity.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wanted<'a> {
    /// U+FEFF and U+FFFD ([`Found::Mark`]).
    pub marks: bool,
    /// The blocks in which one of these patterns ends ([`Found::Block`]).
    pub patterns: Option<&'a Patterns>,
    /// The blocks in which these two bytes end, one after the other
    /// ([`Found::PairBlock`]): two compares a register, cheaper than a
    /// pattern, for a marker that ordinary text rarely holds.
    pub pair: Option<[u8; 2]>,
}

/// Validates `bytes` exactly as [`crate::is_valid`] does and, in the same
/// pass, reports what `wanted` asks for: every U+FEFF and U+FFFD (in order
/// of offset), the blocks in which one of its patterns may end and those in
/// which its pair does (the fused kernel's blocks are 4 KiB; other CPUs
/// report every 64 KiB block).
///
/// Returns whether `bytes` is well-formed. When it is not, `found` may have
/// been called for things before some point in the input (and for blocks
/// that are not well-formed): a caller drops what it was told.
///
/// ```
/// use utf8lint_codec::{ByteSet, Family, Found, Mark, Pattern, Patterns, Wanted, validate_scanning};
/// // U+202E RIGHT-TO-LEFT OVERRIDE, `E2 80 AE`.
/// const OVERRIDE: Patterns = Patterns::new(&[Family::new(
///     1,
///     &[Pattern::new(ByteSet::of(&[0xE2]), ByteSet::of(&[0x80]), ByteSet::of(&[0xAE]))],
/// )]);
/// let mut text = "plain words\n".repeat(1000);
/// text.push_str("an override \u{202E} here\u{FEFF}");
/// let mut found = Vec::new();
/// let wanted = Wanted { marks: true, patterns: Some(&OVERRIDE), pair: None };
/// assert!(validate_scanning(text.as_bytes(), wanted, |f| found.push(f)));
/// let Some(Found::Block(block, 1)) = found.iter().find(|f| matches!(f, Found::Block(..))) else {
///     panic!("no block: {found:?}");
/// };
/// assert!(block.contains(&12_014));
/// assert!(found.contains(&Found::Mark(12_020, Mark::Feff)));
/// ```
pub fn validate_scanning(bytes: &[u8], wanted: Wanted<'_>, mut found: impl FnMut(Found)) -> bool {
    validate_scanning_using(Kernel::detect(), bytes, wanted, &mut found)
}

/// [`validate_scanning`] on the given build; a build this CPU cannot run
/// falls back to the portable one.
#[cfg_attr(not(feature = "testing"), allow(unreachable_pub))]
pub fn validate_scanning_using(
    kernel: Kernel,
    bytes: &[u8],
    wanted: Wanted<'_>,
    found: &mut dyn FnMut(Found),
) -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
    if let Some(level) = usable(kernel) {
        let search = blocks::Search {
            patterns: wanted.patterns.unwrap_or(&Patterns::NONE),
            pair: wanted.pair.unwrap_or_default(),
        };
        let (patterns, pair) = (wanted.patterns.is_some(), wanted.pair.is_some());
        // SAFETY: `usable` checked the CPU's features.
        return unsafe {
            use x86::validate_scanning as run;
            match (wanted.marks, patterns, pair) {
                (true, true, true) => run::<true, true, true>(level, bytes, &search, found),
                (true, true, false) => run::<true, true, false>(level, bytes, &search, found),
                (true, false, true) => run::<true, false, true>(level, bytes, &search, found),
                (true, false, false) => run::<true, false, false>(level, bytes, &search, found),
                (false, true, true) => run::<false, true, true>(level, bytes, &search, found),
                (false, true, false) => run::<false, true, false>(level, bytes, &search, found),
                (false, false, true) => run::<false, false, true>(level, bytes, &search, found),
                (false, false, false) => run::<false, false, false>(level, bytes, &search, found),
            }
        };
    }
    // Where no other build is compiled, every kernel is the portable one.
    #[cfg(not(all(target_arch = "x86_64", not(feature = "portable"))))]
    let _ = kernel;
    portable_validate_scanning(bytes, wanted, found)
}

/// Validates `bytes` exactly as [`crate::is_valid`] does and, in the same
/// pass, calls `found(offset, mark)` for every U+FEFF and U+FFFD, in order
/// of offset (a byte-order mark at offset 0 included).
///
/// Returns whether `bytes` is well-formed. When it is not, `found` may have
/// been called for marks before (and only before) some point in the input;
/// a caller that wants every mark in ill-formed input uses [`find_marks`].
///
/// ```
/// use utf8lint_codec::{Mark, validate_marking};
/// let mut marks = Vec::new();
/// assert!(validate_marking("a\u{FEFF}b\u{FFFD}".as_bytes(), |at, mark| marks.push((at, mark))));
/// assert_eq!(marks, [(1, Mark::Feff), (5, Mark::Fffd)]);
/// assert!(!validate_marking(b"\xEF\xBB\xBF\xC0", |_, _| {}));
/// ```
pub fn validate_marking(bytes: &[u8], mut found: impl FnMut(usize, Mark)) -> bool {
    validate_marking_using(Kernel::detect(), bytes, &mut found)
}

/// The builds of [`validate_scanning`]; for tests and benchmarks, which
/// compare them on one machine.
#[cfg_attr(not(feature = "testing"), allow(unreachable_pub))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// simdutf8 per 64 KiB block, then a search of the block.
    Portable,
    /// The fused kernel built for AVX2.
    Avx2,
    /// The fused kernel on 512-bit vectors (AVX-512BW, on CPUs with VBMI).
    Avx512,
}

#[cfg_attr(not(feature = "testing"), allow(unreachable_pub))]
impl Kernel {
    /// The best build this CPU runs.
    #[inline]
    pub fn detect() -> Kernel {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        match x86::level() {
            Some(x86::Level::Avx512) => return Kernel::Avx512,
            Some(x86::Level::Avx2) => return Kernel::Avx2,
            None => {}
        }
        Kernel::Portable
    }

    /// Every build this CPU runs, the portable one first.
    pub fn available() -> impl Iterator<Item = Kernel> {
        let best = Kernel::detect();
        [Kernel::Portable, Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter(move |k| {
                matches!(
                    (k, best),
                    (Kernel::Portable, _)
                        | (Kernel::Avx2, Kernel::Avx2 | Kernel::Avx512)
                        | (Kernel::Avx512, Kernel::Avx512)
                )
            })
    }
}

/// [`validate_marking`] on the given build; a build this CPU cannot run
/// falls back to the portable one.
#[cfg_attr(not(feature = "testing"), allow(unreachable_pub))]
pub fn validate_marking_using(
    kernel: Kernel,
    bytes: &[u8],
    found: &mut dyn FnMut(usize, Mark),
) -> bool {
    let wanted = Wanted {
        marks: true,
        ..Wanted::default()
    };
    validate_scanning_using(kernel, bytes, wanted, &mut |f| {
        if let Found::Mark(at, mark) = f {
            found(at, mark);
        }
    })
}

/// The fused kernel's validation alone (no marks): what the marks cost is
/// the difference. For benchmarks.
#[cfg(feature = "testing")]
pub fn validate_using(kernel: Kernel, bytes: &[u8]) -> bool {
    validate_scanning_using(kernel, bytes, Wanted::default(), &mut |_| {})
}

#[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
fn usable(kernel: Kernel) -> Option<x86::Level> {
    let wanted = match kernel {
        Kernel::Portable => return None,
        Kernel::Avx2 => x86::Level::Avx2,
        Kernel::Avx512 => x86::Level::Avx512,
    };
    Kernel::available().any(|k| k == kernel).then_some(wanted)
}

/// Bytes per block on the portable path: the search reads bytes the
/// validator has just brought into cache.
const BLOCK: usize = 64 * 1024;

fn portable_validate_scanning(
    bytes: &[u8],
    wanted: Wanted<'_>,
    found: &mut dyn FnMut(Found),
) -> bool {
    let mut start = 0;
    while start < bytes.len() {
        let mut end = (start + BLOCK).min(bytes.len());
        // Cut before a lead byte: the concatenation of valid pieces is valid,
        // and a valid input is never cut inside a character.
        let mut back = 0;
        while end < bytes.len() && back < 3 && bytes[end] & 0xC0 == 0x80 {
            end -= 1;
            back += 1;
        }
        if !crate::is_valid(&bytes[start..end]) {
            return false;
        }
        // Characters never straddle the cut, so each block is searched alone.
        if wanted.marks {
            find_marks(&bytes[start..end], |at, mark| {
                found(Found::Mark(start + at, mark))
            });
        }
        // No search for the patterns or the pair here: the block itself is
        // the superset (the caller reads every byte of it).
        if let Some(patterns) = wanted.patterns {
            found(Found::Block(start..end, patterns.kinds()));
        }
        if wanted.pair.is_some() {
            found(Found::PairBlock(start..end));
        }
        start = end;
    }
    true
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use alloc::string::String;
    use alloc::vec::Vec;

    use core::ops::Range;

    use super::*;
    use crate::patterns::{SAMPLE, SAMPLE_WITHOUT_MARKS};

    fn naive(bytes: &[u8]) -> Vec<(usize, Mark)> {
        (0..bytes.len())
            .filter_map(|at| match &bytes[at..] {
                [0xEF, 0xBB, 0xBF, ..] => Some((at, Mark::Feff)),
                [0xEF, 0xBF, 0xBD, ..] => Some((at, Mark::Fffd)),
                _ => None,
            })
            .collect()
    }

    /// Every build this CPU runs agrees, asked for the marks alone or with
    /// everything else; returns the portable one's answer.
    fn both_paths(bytes: &[u8]) -> (bool, Vec<(usize, Mark)>) {
        let mut portable = Vec::new();
        let ok =
            validate_marking_using(Kernel::Portable, bytes, &mut |at, m| portable.push((at, m)));
        for kernel in Kernel::available() {
            let mut marks = Vec::new();
            assert_eq!(
                validate_marking_using(kernel, bytes, &mut |at, m| marks.push((at, m))),
                ok,
                "{kernel:?} {bytes:02X?}"
            );
            if ok {
                assert_eq!(marks, portable, "{kernel:?} {bytes:02X?}");
            }
            // With patterns whose 512-bit tables stand for the marks' test,
            // and with patterns whose tables do not.
            for patterns in [&SAMPLE, &SAMPLE_WITHOUT_MARKS] {
                let every = Wanted {
                    marks: true,
                    patterns: Some(patterns),
                    pair: Some(*b"zq"),
                };
                let mut with_patterns = Vec::new();
                assert_eq!(
                    validate_scanning_using(kernel, bytes, every, &mut |f| if let Found::Mark(
                        at,
                        m,
                    ) = f
                    {
                        with_patterns.push((at, m))
                    }),
                    ok,
                    "{kernel:?} {bytes:02X?}"
                );
                if ok {
                    assert_eq!(
                        with_patterns, portable,
                        "{kernel:?} with patterns {bytes:02X?}"
                    );
                }
            }
        }
        (ok, portable)
    }

    #[test]
    fn finds_marks_at_every_offset_around_the_vector_edges() {
        for mark in [Mark::Feff, Mark::Fffd] {
            for fill in [&b"a"[..], "é".as_bytes(), "語".as_bytes()] {
                for at in (0..200).chain(4085..4100).chain(8185..8195) {
                    let mut bytes: Vec<u8> = fill.iter().copied().cycle().take(at).collect();
                    while core::str::from_utf8(&bytes).is_err() {
                        bytes.pop();
                    }
                    let offset = bytes.len();
                    bytes.extend_from_slice(mark.bytes());
                    bytes.extend(fill.iter().copied().cycle().take(fill.len() * 40));
                    let (ok, marks) = both_paths(&bytes);
                    assert!(ok);
                    assert_eq!(marks, [(offset, mark)]);
                    assert_eq!(marks, naive(&bytes));
                }
            }
        }
    }

    /// The 4 KiB blocks of `bytes` in which `test` finds that something
    /// ends, with the OR of what it says (the bytes before a block read as
    /// `prev1`, `prev2`; 0 before the input).
    fn blocks_by(bytes: &[u8], test: impl Fn(u8, u8, u8) -> u8) -> Vec<(Range<usize>, u8)> {
        let at = |i: Option<usize>| i.map_or(0, |i| bytes[i]);
        (0..bytes.len())
            .step_by(4096)
            .map(|start| start..(start + 4096).min(bytes.len()))
            .map(|b| {
                let kinds = b.clone().fold(0, |kinds, i| {
                    kinds | test(at(i.checked_sub(2)), at(i.checked_sub(1)), bytes[i])
                });
                (b, kinds)
            })
            .filter(|(_, kinds)| *kinds != 0)
            .collect()
    }

    /// The pattern blocks every build reports on valid `bytes` for
    /// [`SAMPLE`]: each fused kernel exactly the 4 KiB blocks in which its
    /// byte-by-byte test finds a pattern end, with the kinds it finds, the
    /// portable path every 64 KiB block. Returns the blocks in which a
    /// pattern ends.
    fn pattern_blocks(bytes: &[u8]) -> Vec<(Range<usize>, u8)> {
        for kernel in Kernel::available() {
            let mut blocks = Vec::new();
            let wanted = Wanted {
                marks: true,
                patterns: Some(&SAMPLE),
                pair: Some(*b"zq"),
            };
            let ok = validate_scanning_using(kernel, bytes, wanted, &mut |f| {
                if let Found::Block(b, kinds) = f {
                    blocks.push((b, kinds));
                }
            });
            assert!(ok, "{kernel:?}");
            match kernel {
                Kernel::Portable => {
                    // Every block, each cut before a character.
                    let mut end = 0;
                    for (b, kinds) in &blocks {
                        assert!(
                            b.start == end && b.end > b.start && b.end - b.start <= BLOCK,
                            "{blocks:?}"
                        );
                        assert_eq!(*kinds, 3);
                        end = b.end;
                    }
                    assert_eq!(end, bytes.len());
                }
                Kernel::Avx512 => assert_eq!(
                    blocks,
                    blocks_by(bytes, |z, a, c| SAMPLE.ends_bytes(z, a, c)),
                    "{kernel:?}"
                ),
                Kernel::Avx2 => assert_eq!(
                    blocks,
                    blocks_by(bytes, |z, a, c| SAMPLE.ends_nibble(z, a, c)),
                    "{kernel:?}"
                ),
            }
        }
        blocks_by(bytes, |z, a, c| SAMPLE.ends(z, a, c))
    }

    #[test]
    fn patterns_found_at_every_offset_around_the_vector_edges() {
        // One end of each of `SAMPLE`'s patterns.
        let candidates = [
            "\u{1}",
            "\u{7F}",
            "\u{85}",
            "\u{202E}",
            "\u{FE0F}",
            "\u{1FFFF}",
            "жé",
            "α",
        ];
        for candidate in candidates {
            for fill in [&b"a"[..], "é".as_bytes(), "語".as_bytes(), "\n".as_bytes()] {
                for at in (0..140).chain(4000..4100) {
                    let mut bytes: Vec<u8> = fill.iter().copied().cycle().take(at).collect();
                    while core::str::from_utf8(&bytes).is_err() {
                        bytes.pop();
                    }
                    let offset = bytes.len();
                    bytes.extend_from_slice(candidate.as_bytes());
                    bytes.extend(fill.iter().copied().cycle().take(fill.len() * 1500));
                    // A pattern ends at the candidate's second, third or last byte.
                    let span = offset..offset + candidate.len();
                    let blocks = pattern_blocks(&bytes);
                    assert!(
                        blocks
                            .iter()
                            .any(|(b, _)| b.start < span.end && span.start < b.end),
                        "{candidate:?} at {offset} after {fill:02X?}: {blocks:?}"
                    );
                    assert!(blocks.len() <= 2, "{candidate:?} at {offset}: {blocks:?}");
                }
            }
        }
    }

    #[test]
    fn ordinary_text_has_no_pattern_block() {
        let text = "L’été dernier — « très » bien… Größe, São Paulo, ção; 日本語の文章です。「引用」 한국어 Русский 😀\n\t\r\n";
        let bytes = text.repeat(500).into_bytes();
        assert!(pattern_blocks(&bytes).is_empty());
    }

    #[test]
    fn pattern_blocks_agree_with_the_byte_by_byte_tests_on_random_text() {
        // Characters from every pattern's neighbourhood, drawn by a
        // xorshift generator: the kernels must find exactly what the
        // scalar test finds, block by block.
        let pieces = [
            "a",
            "\n",
            "\t",
            "é",
            "Ã",
            "©",
            "ƒ",
            "€",
            "’",
            "…",
            "\u{200A}",
            "\u{200B}",
            "\u{202F}",
            "\u{2060}",
            "\u{2065}",
            "語",
            "、",
            "\u{FEFF}",
            "\u{FE0F}",
            "\u{FF9E}",
            "\u{1F600}",
            "\u{1FFFF}",
            "\u{E0041}",
            "\u{9C}",
            "\u{AD}",
            "\u{1B}",
            "\u{7F}",
            "Ô",
            "™",
            "√",
            "∆",
            "≈",
            "¬",
            "‚",
            "ǅ",
            "\u{61C}",
            "ج",
            "\u{1160}",
            "\u{3164}",
            "\u{180E}",
            "ж",
            "Ω",
            "ǅ",
            "8",
            "l",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for rarity in [2u64, 50, 3000] {
            let mut text = String::new();
            while text.len() < 200_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let piece = if state.is_multiple_of(rarity) {
                    pieces[(state >> 32) as usize % pieces.len()]
                } else {
                    pieces[(state >> 32) as usize % 3]
                };
                text.push_str(piece);
            }
            pattern_blocks(text.as_bytes());
        }
    }

    /// The pair blocks every build reports on valid `bytes` for the pair
    /// `zq`: the fused kernels exactly the 4 KiB blocks in which it ends,
    /// the portable path every block.
    fn pair_blocks(bytes: &[u8]) -> Vec<Range<usize>> {
        let expected: Vec<Range<usize>> = blocks_by(bytes, |_, a, c| u8::from([a, c] == *b"zq"))
            .into_iter()
            .map(|(b, _)| b)
            .collect();
        for kernel in Kernel::available() {
            for (marks, patterns) in [(false, None), (true, Some(&SAMPLE))] {
                let mut blocks = Vec::new();
                let wanted = Wanted {
                    marks,
                    patterns,
                    pair: Some(*b"zq"),
                };
                let ok = validate_scanning_using(kernel, bytes, wanted, &mut |f| {
                    if let Found::PairBlock(b) = f {
                        blocks.push(b);
                    }
                });
                assert!(ok, "{kernel:?}");
                if kernel == Kernel::Portable {
                    assert_eq!(blocks.last().map(|b| b.end), Some(bytes.len()));
                } else {
                    assert_eq!(blocks, expected, "{kernel:?} marks {marks}");
                }
            }
        }
        expected
    }

    #[test]
    fn pair_found_at_every_offset_around_the_vector_edges() {
        for fill in [&b"a"[..], "é".as_bytes(), "語".as_bytes(), b"z"] {
            for at in (0..140).chain(4000..4100) {
                let mut bytes: Vec<u8> = fill.iter().copied().cycle().take(at).collect();
                while core::str::from_utf8(&bytes).is_err() {
                    bytes.pop();
                }
                let offset = bytes.len();
                bytes.extend_from_slice(b"# the zq pair");
                bytes.extend(fill.iter().copied().cycle().take(fill.len() * 1500));
                let blocks = pair_blocks(&bytes);
                let pair_end = offset + 7;
                assert_eq!(blocks.len(), 1, "{fill:02X?} at {offset}: {blocks:?}");
                assert!(
                    blocks[0].contains(&pair_end),
                    "{fill:02X?} at {offset}: {blocks:?}"
                );
            }
        }
        // Nothing else ends the pair: `z` and `q` apart, or the other way round.
        let bytes = "qz z q z\nq qz 語zé q".repeat(3000).into_bytes();
        assert!(pair_blocks(&bytes).is_empty());
    }

    #[test]
    fn near_misses_are_not_marks() {
        // U+FEFD, U+FFFF, U+FFFE, U+FEBF: one byte away from a mark.
        let text = "\u{FEFD}\u{FFFF}\u{FFFE}\u{FEBF}\u{FF3D}\u{FF3F}".repeat(30);
        let (ok, marks) = both_paths(text.as_bytes());
        assert!(ok);
        assert!(marks.is_empty());
    }

    #[test]
    fn ill_formed_input_is_refused() {
        for bad in [&b"\xC0"[..], b"\xEF\xBB", b"\xED\xA0\x80", b"\x80"] {
            for at in [0, 1, 31, 32, 63, 64, 65, 100, 5000] {
                let mut bytes = "x\u{FEFF}".repeat(at).into_bytes();
                bytes.truncate(at);
                while core::str::from_utf8(&bytes).is_err() {
                    bytes.pop();
                }
                bytes.extend_from_slice(bad);
                bytes.extend_from_slice(b"tail");
                assert!(!both_paths(&bytes).0, "{bytes:02X?}");
            }
        }
    }

    #[test]
    fn find_marks_agrees_with_the_naive_search() {
        let bytes = b"\xEF\xEF\xBB\xBF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xEF\xBB";
        let mut marks = Vec::new();
        find_marks(bytes, |at, m| marks.push((at, m)));
        assert_eq!(marks, naive(bytes));
        assert_eq!(marks, [(1, Mark::Feff), (6, Mark::Fffd)]);
    }
}
