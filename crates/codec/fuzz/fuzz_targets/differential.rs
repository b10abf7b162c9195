//! Differential fuzzing of utf8lint-codec against the standard library:
//! from_utf8 vs core::str::from_utf8, subparts and Utf8Chunks vs std's
//! Utf8Chunks, the error stretches vs the subparts merged, decode_lossy vs
//! String::from_utf8_lossy, and the streaming decoder (with a chunking
//! derived from the input) vs the one-shot path, and the fused validator
//! (validate_marking, and every build of validate_scanning asked for
//! everything) vs core and a naive search.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8lint_codec::testing::{Kernel, validate_scanning_using};
use utf8lint_codec::{
    ByteSet, Event, Family, Found, Mark, Pattern, Patterns, Subpart, Utf8Chunks, Utf8Decoder, Wanted,
    decode_lossy, find_marks, for_each_error_stretch, from_utf8, interpret, subparts,
    validate_marking,
};

/// Patterns for the fused validator, one of whose families holds `EF`
/// (the 512-bit build then finds the marks in the blocks it reports).
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
            ByteSet::ANY,
            ByteSet::ANY,
            ByteSet::range(0, 8).union(ByteSet::range(0x0E, 0x1F)),
        )],
    ),
]);

fuzz_target!(|data: &[u8]| {
    // from_utf8 vs core.
    match (from_utf8(data), core::str::from_utf8(data)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a.valid_up_to(), b.valid_up_to(), "valid_up_to");
            assert_eq!(a.error_len(), b.error_len(), "error_len");
        }
        (a, b) => panic!("from_utf8: ours {a:?}, core {b:?}"),
    }

    // The fused validator vs core, and its marks vs a naive search.
    let naive: Vec<(usize, Mark)> = (0..data.len())
        .filter_map(|at| match &data[at..] {
            [0xEF, 0xBB, 0xBF, ..] => Some((at, Mark::Feff)),
            [0xEF, 0xBF, 0xBD, ..] => Some((at, Mark::Fffd)),
            _ => None,
        })
        .collect();
    let mut fused = Vec::new();
    let valid = validate_marking(data, |at, mark| fused.push((at, mark)));
    assert_eq!(valid, core::str::from_utf8(data).is_ok(), "validate_marking");
    if valid {
        assert_eq!(fused, naive, "validate_marking's marks");
    }
    // Every build asked for everything: the same verdict and marks.
    for kernel in Kernel::available() {
        let wanted = Wanted {
            marks: true,
            patterns: Some(&PATTERNS),
            pair: Some(*b"zq"),
        };
        let mut marks = Vec::new();
        let valid = validate_scanning_using(kernel, data, wanted, &mut |f| {
            if let Found::Mark(at, mark) = f {
                marks.push((at, mark));
            }
        });
        assert_eq!(valid, core::str::from_utf8(data).is_ok(), "{kernel:?} validity");
        if valid {
            assert_eq!(marks, naive, "{kernel:?} marks with text");
        }
    }
    let mut found = Vec::new();
    find_marks(data, |at, mark| found.push((at, mark)));
    assert_eq!(found, naive, "find_marks");
    assert_eq!(
        utf8lint_codec::find_nul(data),
        data.iter().position(|&b| b == 0),
        "find_nul"
    );

    // subparts and our Utf8Chunks vs std's Utf8Chunks.
    let subs: Vec<Subpart> = subparts(data).collect();
    let mut ours = Utf8Chunks::new(data);
    let mut at = 0;
    let mut n = 0;
    for theirs in data.utf8_chunks() {
        let mine = ours.next().expect("as many chunks as std");
        assert_eq!(mine.valid(), theirs.valid(), "chunk valid part");
        assert_eq!(mine.invalid(), theirs.invalid(), "chunk invalid part");
        at += theirs.valid().len();
        if !theirs.invalid().is_empty() {
            let sub = subs[n];
            assert_eq!(
                (sub.offset, usize::from(sub.len)),
                (at, theirs.invalid().len())
            );
            assert_eq!(mine.error(), Some(sub));
            n += 1;
        }
        at += theirs.invalid().len();
    }
    assert!(ours.next().is_none(), "extra chunk");
    assert_eq!(n, subs.len(), "number of subparts");

    // Stretches: the subparts, each that starts where the last ended merged.
    let mut merged: Vec<(core::ops::Range<usize>, usize)> = Vec::new();
    for sub in &subs {
        match merged.last_mut() {
            Some((range, count)) if range.end == sub.offset => {
                range.end = sub.offset + usize::from(sub.len);
                *count += 1;
            }
            _ => merged.push((sub.offset..sub.offset + usize::from(sub.len), 1)),
        }
    }
    let mut stretches = Vec::new();
    for_each_error_stretch(data, |range, count| stretches.push((range, count)));
    assert_eq!(stretches, merged, "error stretches");
    if let Err(e) = from_utf8(data) {
        assert_eq!(e.kind(), subs[0].kind);
    }

    // decode_lossy vs String::from_utf8_lossy.
    let lossy = decode_lossy(data);
    assert_eq!(lossy, String::from_utf8_lossy(data));

    // Streaming, with chunk sizes (0 = an empty call) taken from the input.
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
    let mut rest = data;
    let mut k = 0usize;
    while !rest.is_empty() {
        // Mostly 1..=9 bytes, sometimes up to 316, and an empty call at
        // most every other time (so the loop always progresses).
        let b = data[k % data.len()] ^ (k as u8).wrapping_mul(29);
        let size = if b & 0x80 != 0 {
            usize::from(b & 0x3F) * 5 + 1
        } else if b % 7 == 0 && k % 2 == 0 {
            0
        } else {
            usize::from(b % 9) + 1
        };
        let (chunk, tail) = rest.split_at(size.min(rest.len()));
        decoder.decode(chunk, false, &mut sink);
        rest = tail;
        k += 1;
    }
    decoder.finish(&mut sink);
    assert_eq!(errors, subs, "streaming subparts");
    assert_eq!(text, lossy, "streaming text");

    // interpret never reads bytes that are well-formed.
    for sub in &subs {
        if let Some(reading) = interpret(&data[sub.offset..]) {
            let covered = &data[sub.offset..sub.offset + reading.len()];
            assert!(core::str::from_utf8(covered).is_err());
        }
    }
});
