//! Property tests on long random inputs biased toward UTF-8-ish bytes: the
//! same oracles as the table tests (`core::str::from_utf8`,
//! `core::str::Utf8Chunks`, `String::from_utf8_lossy`), the streaming decoder
//! under random chunkings, LossyMap against a naive map, and interpret.

use proptest::collection::vec;
use proptest::prelude::*;
use utf8lint_codec::ErrorKind::{self, *};
use utf8lint_codec::testing::{Kernel, validate_scanning_using};
use utf8lint_codec::{
    ByteSet, Family, Found, Mark, Pattern, Patterns, Wanted, find_marks, validate_marking,
};
use utf8lint_codec::{
    Event, LossyMap, Subpart, Utf8Chunks, Utf8Decoder, decode_lossy, for_each_error_stretch,
    for_each_subpart, from_utf8, interpret, is_valid, subparts,
};

/// Patterns for the fused validator: a family that holds `EF` (the 512-bit
/// build then finds the marks in the blocks it reports), three-byte and
/// four-byte ones, and ASCII controls.
const PATTERNS: Patterns = Patterns::new(&[
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::ANY,
            ByteSet::of(&[0xEF]),
            ByteSet::of(&[0xB7, 0xB8, 0xBE, 0xBF]),
        )],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::of(&[0xE2]),
            ByteSet::of(&[0x80, 0x81]),
            ByteSet::range(0x8A, 0x8F).union(ByteSet::range(0xA0, 0xAF)),
        )],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::range(0xF0, 0xF4),
            ByteSet::ANY,
            ByteSet::of(&[0xBF]),
        )],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::ANY,
            ByteSet::ANY,
            ByteSet::range(0, 8).union(ByteSet::range(0x0E, 0x1F)),
        )],
    ),
]);

/// The pair of bytes the fused validator is asked for.
const PAIR: [u8; 2] = *b"zq";

/// Byte strings that start or are interesting ill-formed sequences.
const FRAGMENTS: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0",
    b"\xC1",
    b"\xC0\xAE",
    b"\xC2",
    b"\xDF",
    b"\xE0",
    b"\xE0\x80",
    b"\xE0\x9F\xBF",
    b"\xE0\xA0",
    b"\xE2\x82",
    b"\xED",
    b"\xED\xA0\x80",
    b"\xED\xA1\x8C\xED\xBE\xB4",
    b"\xED\x9F",
    b"\xEF\xBB\xBF",
    b"\xEF\xBB",
    b"\xEF\xBF\xBD",
    b"\xEF\xBF\xBF",
    b"\xEF\xBB\xBD",
    b"\xF0",
    b"\xF0\x8F\xBF\xBF",
    b"\xF0\x90",
    b"\xF0\x9F\x98",
    b"\xF4",
    b"\xF4\x8F\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF5",
    b"\xF7\xBF\xBF\xBF",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFE",
    b"\xFF",
];

fn encode(c: char) -> Vec<u8> {
    c.to_string().into_bytes()
}

/// One piece of input: mostly characters, sometimes random or ill-formed
/// bytes, sometimes a long ASCII run (longer than the scalar window).
fn atom() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => (0x20u8..0x7F).prop_map(|b| vec![b]),
        3 => (0x80u32..0x800).prop_filter_map("scalar", char::from_u32).prop_map(encode),
        3 => (0x800u32..0x1_0000).prop_filter_map("scalar", char::from_u32).prop_map(encode),
        2 => (0x1_0000u32..0x11_0000).prop_filter_map("scalar", char::from_u32).prop_map(encode),
        2 => any::<u8>().prop_map(|b| vec![b]),
        1 => (0x80u8..=0xFF).prop_map(|b| vec![b]),
        // A word of legacy text: high bytes in a row, some of them leads
        // that a continuation byte follows by chance.
        1 => vec(0x80u8..=0xFF, 1..12),
        2 => prop::sample::select(FRAGMENTS).prop_map(<[u8]>::to_vec),
        1 => (1usize..300).prop_map(|n| b"fn main() { x += 1; }\n".iter().copied().cycle().take(n).collect()),
        1 => (1usize..100).prop_map(|n| "Ça déjà été, Grüße, 日本語, 😀🎉".repeat(n / 10 + 1).into_bytes()),
    ]
}

fn utf8ish() -> impl Strategy<Value = Vec<u8>> {
    vec(atom(), 0..400).prop_map(|atoms| atoms.concat())
}

/// Long valid text with a few bytes overwritten: errors far apart, found by
/// the SIMD path.
fn mostly_valid() -> impl Strategy<Value = Vec<u8>> {
    (
        vec(any::<char>(), 0..3000),
        vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    )
        .prop_map(|(chars, edits)| {
            let mut bytes = chars.into_iter().collect::<String>().into_bytes();
            if !bytes.is_empty() {
                for (at, b) in edits {
                    let i = at.index(bytes.len());
                    bytes[i] = b;
                }
            }
            bytes
        })
}

fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![3 => utf8ish(), 2 => mostly_valid(), 1 => vec(any::<u8>(), 0..2000)]
}

/// The class a subpart must have by docs/spec.md's table, from its bytes and the
/// byte after it.
fn expected_kind(bytes: &[u8], sub: &Subpart) -> ErrorKind {
    if sub.len > 1 {
        return Truncated;
    }
    let lead = bytes[sub.offset];
    let next = bytes.get(sub.offset + 1).copied();
    match (lead, next) {
        (0x80..=0xBF, _) => UnexpectedContinuation,
        (0xC0 | 0xC1 | 0xF5..=0xFF, _) => InvalidLeadByte,
        (0xE0, Some(0x80..=0x9F)) | (0xF0, Some(0x80..=0x8F)) => Overlong,
        (0xED, Some(0xA0..=0xBF)) => Surrogate,
        (0xF4, Some(0x90..=0xBF)) => AboveMax,
        _ => Truncated,
    }
}

fn check_oracles(bytes: &[u8]) -> Result<(), TestCaseError> {
    let subs: Vec<Subpart> = subparts(bytes).collect();
    let mut each = Vec::new();
    for_each_subpart(bytes, |sub| each.push(sub));
    prop_assert_eq!(&each, &subs);
    // Stretches: the subparts, each that starts where the last ended merged.
    let mut merged: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
    for sub in &subs {
        match merged.last_mut() {
            Some((range, count)) if range.end == sub.offset => {
                range.end = sub.end();
                *count += 1;
            }
            _ => merged.push((sub.range(), 1)),
        }
    }
    let mut stretches = Vec::new();
    for_each_error_stretch(bytes, |range, count| stretches.push((range, count)));
    prop_assert_eq!(&stretches, &merged);

    match (from_utf8(bytes), core::str::from_utf8(bytes)) {
        (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
        (Err(a), Err(b)) => {
            prop_assert_eq!(a.valid_up_to(), b.valid_up_to());
            prop_assert_eq!(a.error_len(), b.error_len());
            prop_assert_eq!(Some(a.kind()), subs.first().map(|s| s.kind));
        }
        (a, b) => prop_assert!(false, "ours {:?}, core {:?}", a.is_ok(), b.is_ok()),
    }
    prop_assert_eq!(is_valid(bytes), subs.is_empty());

    let std_chunks: Vec<(&str, &[u8])> = bytes
        .utf8_chunks()
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    let our_chunks: Vec<(&str, &[u8])> = Utf8Chunks::new(bytes)
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    prop_assert_eq!(&our_chunks, &std_chunks);

    let mut at = 0;
    let mut spans = Vec::new();
    for (valid, invalid) in &std_chunks {
        at += valid.len();
        if !invalid.is_empty() {
            spans.push((at, invalid.len()));
        }
        at += invalid.len();
    }
    let ours: Vec<(usize, usize)> = subs
        .iter()
        .map(|s| (s.offset, usize::from(s.len)))
        .collect();
    prop_assert_eq!(ours, spans);
    for sub in &subs {
        prop_assert_eq!(sub.kind, expected_kind(bytes, sub), "at {}", sub.offset);
    }

    prop_assert_eq!(decode_lossy(bytes), String::from_utf8_lossy(bytes));

    // The fused validator: the same verdict, and the marks a naive search
    // finds (all of them when valid; find_marks finds them in any bytes).
    let naive: Vec<(usize, Mark)> = (0..bytes.len())
        .filter_map(|at| match &bytes[at..] {
            [0xEF, 0xBB, 0xBF, ..] => Some((at, Mark::Feff)),
            [0xEF, 0xBF, 0xBD, ..] => Some((at, Mark::Fffd)),
            _ => None,
        })
        .collect();
    let mut fused = Vec::new();
    let valid = validate_marking(bytes, |at, mark| fused.push((at, mark)));
    prop_assert_eq!(valid, subs.is_empty());
    if valid {
        prop_assert_eq!(&fused, &naive);
    }
    // Every build, asked for everything (the marks then come from the
    // pattern blocks on the 512-bit build): the same verdict and marks, and
    // a block wherever a pattern ends, a pair block wherever `zq` does.
    for kernel in Kernel::available() {
        let wanted = Wanted {
            marks: true,
            patterns: Some(&PATTERNS),
            pair: Some(PAIR),
        };
        let (mut marks, mut text, mut directives) = (Vec::new(), Vec::new(), Vec::new());
        let valid = validate_scanning_using(kernel, bytes, wanted, &mut |f| match f {
            Found::Mark(at, mark) => marks.push((at, mark)),
            Found::Block(b, _) => text.push(b),
            Found::PairBlock(b) => directives.push(b),
        });
        prop_assert_eq!(valid, subs.is_empty(), "{:?}", kernel);
        if valid {
            prop_assert_eq!(&marks, &naive, "{:?}", kernel);
            let at = |i: usize| bytes[i];
            for i in 0..bytes.len() {
                let prev = |n: usize| i.checked_sub(n).map_or(0, at);
                if PATTERNS.ends(prev(2), prev(1), bytes[i]) != 0 {
                    prop_assert!(
                        text.iter().any(|b| b.contains(&i)),
                        "{:?} text {}",
                        kernel,
                        i
                    );
                }
                if i > 0 && bytes[i - 1..=i] == PAIR {
                    prop_assert!(
                        directives.iter().any(|b| b.contains(&i)),
                        "{:?} pair {}",
                        kernel,
                        i
                    );
                }
            }
        }
    }
    let mut found = Vec::new();
    find_marks(bytes, |at, mark| found.push((at, mark)));
    prop_assert_eq!(&found, &naive);
    Ok(())
}

/// Streams `bytes` with chunk sizes taken from `sizes` in turn (0 means an
/// empty, non-final call).
fn stream(bytes: &[u8], sizes: &[usize]) -> (Vec<Subpart>, String) {
    let mut decoder = Utf8Decoder::new();
    let mut errors = Vec::new();
    let mut text = String::new();
    let mut sink = |e: Event<'_>| match e {
        Event::Text(t) => text.push_str(t),
        Event::Error(s) => {
            errors.push(s);
            text.push('\u{FFFD}');
        }
    };
    let mut rest = bytes;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, tail) = rest.split_at(size.min(rest.len()));
        decoder.decode(chunk, false, &mut sink);
        rest = tail;
    }
    assert_eq!(decoder.position(), bytes.len());
    decoder.finish(&mut sink);
    assert_eq!(decoder.pending_len(), 0);
    (errors, text)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn agrees_with_std_oracles(bytes in any_input()) {
        check_oracles(&bytes)?;
    }

    #[test]
    fn prefixes_and_suffixes_agree_with_std_oracles(bytes in utf8ish(), cut in any::<prop::sample::Index>()) {
        // Cutting anywhere, even inside a character, exercises ends of input.
        let at = if bytes.is_empty() { 0 } else { cut.index(bytes.len() + 1) };
        check_oracles(&bytes[..at])?;
        check_oracles(&bytes[at..])?;
    }

    #[test]
    fn streaming_equals_one_shot(
        bytes in any_input(),
        sizes in vec(prop_oneof![1 => Just(0usize), 6 => 1usize..8, 3 => 8usize..200], 1..40),
        last_with_data in any::<bool>(),
    ) {
        prop_assume!(sizes.iter().any(|&s| s > 0));
        let want_errors: Vec<Subpart> = subparts(&bytes).collect();
        let want_text = decode_lossy(&bytes);
        let (errors, text) = stream(&bytes, &sizes);
        prop_assert_eq!(&errors, &want_errors);
        prop_assert_eq!(&text, &want_text);

        // decode_to_string, with the final chunk passed with last = true.
        let mut decoder = Utf8Decoder::new();
        let mut out = String::new();
        let mut count = 0;
        let split = if last_with_data { bytes.len() / 2 } else { bytes.len() };
        count += decoder.decode_to_string(&bytes[..split], false, &mut out);
        count += decoder.decode_to_string(&bytes[split..], true, &mut out);
        prop_assert_eq!(count, want_errors.len());
        prop_assert_eq!(&out, &want_text);
    }

    #[test]
    fn lossy_map_agrees_with_naive_map(bytes in utf8ish()) {
        let map = LossyMap::new(&bytes);
        let lossy = decode_lossy(&bytes);
        // The naive map, one entry per byte, from std's chunks.
        let (mut i, mut j) = (0usize, 0usize);
        for chunk in bytes.utf8_chunks() {
            for _ in 0..chunk.valid().len() {
                prop_assert_eq!(map.to_lossy(i), j);
                prop_assert_eq!(map.to_input(j), i);
                i += 1;
                j += 1;
            }
            if !chunk.invalid().is_empty() {
                for k in 0..chunk.invalid().len() {
                    prop_assert_eq!(map.to_lossy(i + k), j);
                }
                for k in 0..3 {
                    prop_assert_eq!(map.to_input(j + k), i);
                }
                prop_assert_eq!(&lossy[j..j + 3], "\u{FFFD}");
                i += chunk.invalid().len();
                j += 3;
            }
        }
        prop_assert_eq!((i, j), (bytes.len(), lossy.len()));
        prop_assert_eq!(map.to_lossy(i), j);
        prop_assert_eq!(map.to_input(j), i);
        prop_assert_eq!(map.error_count(), subparts(&bytes).count());
    }

    #[test]
    fn interpret_never_reads_well_formed_bytes(bytes in any_input()) {
        for start in 0..bytes.len() {
            let rest = &bytes[start..];
            if let Some(reading) = interpret(rest) {
                prop_assert!(reading.len() >= 2 && reading.len() <= rest.len());
                prop_assert!(
                    core::str::from_utf8(&rest[..reading.len()]).is_err(),
                    "a reading of well-formed bytes at {}", start
                );
                // A reading starts at an ill-formed sequence.
                prop_assert!(core::str::from_utf8(rest).is_err());
            }
        }
    }

    #[test]
    fn interpret_has_no_reading_for_valid_text(text in any::<String>()) {
        for (start, _) in text.char_indices() {
            prop_assert_eq!(interpret(&text.as_bytes()[start..]), None);
        }
    }
}
