//! Exhaustive checks: every input of 1, 2 and 3 bytes against
//! `core::str::from_utf8`, `core::str::Utf8Chunks` and an independent
//! classifier written from the tables of docs/spec.md, each alone (errors found
//! by the scalar stepper), after 40 bytes of ASCII and between 40 bytes of
//! ASCII on each side (the first error found by the SIMD path, in simdutf8's
//! short-input fallback and in its SIMD code); every scalar value through
//! `encode_utf8`; and, opt-in with `UTF8LINT_EXHAUSTIVE_4=1`, every 4-byte
//! input alone and after 40 bytes of ASCII.

use utf8lint_codec::ErrorKind::{self, *};
use utf8lint_codec::{
    EncodeError, Event, Utf8Chunks, Utf8Decoder, decode_lossy, encode_utf8, for_each_error_stretch,
    from_utf8, subparts, validate_marking,
};

type Triple = (usize, usize, ErrorKind);

/// Up to six triples without allocating (a 6-byte input has at most six).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Found {
    items: [Triple; 6],
    n: usize,
}

impl Found {
    fn new() -> Self {
        Found {
            items: [(0, 0, Truncated); 6],
            n: 0,
        }
    }
    fn push(&mut self, t: Triple) {
        self.items[self.n] = t;
        self.n += 1;
    }
    fn as_slice(&self) -> &[Triple] {
        &self.items[..self.n]
    }
}

// ---------------------------------------------------------------------------
// An independent classifier, written from docs/spec.md's two tables only.

/// Unicode Table 3-7 (docs/spec.md): the lead byte range and the ranges
/// of the bytes that follow it.
/// An inclusive byte range.
type Span = (u8, u8);

const TABLE: [(Span, &[Span]); 9] = [
    ((0x00, 0x7F), &[]),
    ((0xC2, 0xDF), &[(0x80, 0xBF)]),
    ((0xE0, 0xE0), &[(0xA0, 0xBF), (0x80, 0xBF)]),
    ((0xE1, 0xEC), &[(0x80, 0xBF), (0x80, 0xBF)]),
    ((0xED, 0xED), &[(0x80, 0x9F), (0x80, 0xBF)]),
    ((0xEE, 0xEF), &[(0x80, 0xBF), (0x80, 0xBF)]),
    ((0xF0, 0xF0), &[(0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)]),
    ((0xF1, 0xF3), &[(0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)]),
    ((0xF4, 0xF4), &[(0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)]),
];

fn within(b: u8, (lo, hi): Span) -> bool {
    lo <= b && b <= hi
}

/// Every maximal subpart with its class, by docs/spec.md's table of classes.
fn classify(bytes: &[u8]) -> Found {
    let mut found = Found::new();
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        let Some((_, follow)) = TABLE.iter().find(|(leads, _)| within(lead, *leads)) else {
            // No well-formed sequence starts with this byte.
            let kind = if within(lead, (0x80, 0xBF)) {
                UnexpectedContinuation
            } else {
                assert!(matches!(lead, 0xC0 | 0xC1 | 0xF5..=0xFF));
                InvalidLeadByte
            };
            found.push((i, 1, kind));
            i += 1;
            continue;
        };
        // The longest prefix of the row's pattern present here.
        let mut k = 1;
        while k <= follow.len() && i + k < bytes.len() && within(bytes[i + k], follow[k - 1]) {
            k += 1;
        }
        if k == follow.len() + 1 {
            i += k; // a well-formed character
            continue;
        }
        let next = bytes.get(i + k).copied();
        let kind = match (k, lead, next) {
            (1, 0xE0, Some(0x80..=0x9F)) | (1, 0xF0, Some(0x80..=0x8F)) => Overlong,
            (1, 0xED, Some(0xA0..=0xBF)) => Surrogate,
            (1, 0xF4, Some(0x90..=0xBF)) => AboveMax,
            _ => Truncated,
        };
        found.push((i, k, kind));
        i += k;
    }
    found
}

/// Checks one input: from_utf8 against core, subparts against std's
/// Utf8Chunks (offset and length) and against the classifier (and kind),
/// the error stretches against the subparts merged.
/// Returns whether the input is well-formed.
#[inline]
fn check(bytes: &[u8]) -> bool {
    let want = classify(bytes);
    let mut got = Found::new();
    for s in subparts(bytes) {
        got.push((s.offset, usize::from(s.len), s.kind));
    }
    if got != want {
        panic!(
            "{bytes:02X?}: subparts {:?}, classifier {:?}",
            got.as_slice(),
            want.as_slice()
        );
    }

    // The error stretches: the subparts, each that starts where the last
    // one ended merged into it.
    let mut next = 0;
    for_each_error_stretch(bytes, |range, count| {
        assert!(next < got.n, "{bytes:02X?}: a stretch with no subpart");
        let (start, mut end, mut merged) = (got.items[next].0, got.items[next].0, 0);
        while next < got.n && got.items[next].0 == end {
            end += got.items[next].1;
            merged += 1;
            next += 1;
        }
        assert!(
            range == (start..end) && count == merged,
            "{bytes:02X?}: stretch {range:?} of {count}"
        );
    });
    assert_eq!(next, got.n, "{bytes:02X?}: subparts in no stretch");

    let mut at = 0;
    let mut n = 0;
    for chunk in bytes.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            let (o, l, _) = got.items[n];
            assert!(
                n < got.n && o == at && l == chunk.invalid().len(),
                "{bytes:02X?}: std chunks"
            );
            n += 1;
        }
        at += chunk.invalid().len();
    }
    assert_eq!(n, got.n, "{bytes:02X?}: number of std invalid chunks");

    match (from_utf8(bytes), core::str::from_utf8(bytes)) {
        (Ok(_), Ok(_)) => assert_eq!(got.n, 0),
        (Err(a), Err(b)) => {
            assert_eq!(
                a.valid_up_to(),
                b.valid_up_to(),
                "{bytes:02X?}: valid_up_to"
            );
            assert_eq!(a.error_len(), b.error_len(), "{bytes:02X?}: error_len");
            assert_eq!(a.kind(), got.items[0].2, "{bytes:02X?}: kind");
        }
        (a, b) => panic!("{bytes:02X?}: ours {a:?}, core {b:?}"),
    }
    got.n == 0
}

/// Where the fused validator (`validate_marking`) must see an input: alone,
/// across its two registers' edge (byte 32) and across its chunks' edge
/// (byte 64), in ASCII.
const FUSED_AT: [usize; 3] = [0, 30, 62];

/// The fused validator agrees with the classifier on validity, and finds as
/// many marks as a naive search, wherever the input sits.
#[inline]
fn check_fused(bytes: &[u8], valid: bool, buf: &mut [u8; 128]) {
    let marks = bytes
        .windows(3)
        .filter(|w| *w == b"\xEF\xBB\xBF" || *w == b"\xEF\xBF\xBD")
        .count();
    for at in FUSED_AT {
        buf.fill(b'z');
        buf[at..at + bytes.len()].copy_from_slice(bytes);
        let mut found = 0;
        let got = validate_marking(&buf[..], |_, _| found += 1);
        assert_eq!(got, valid, "{bytes:02X?} at {at}: validate_marking");
        if valid {
            assert_eq!(found, marks, "{bytes:02X?} at {at}: marks");
        }
    }
}

/// Our Utf8Chunks yields exactly std's (valid, invalid) pairs.
#[inline]
fn check_chunks(bytes: &[u8]) {
    let mut ours = Utf8Chunks::new(bytes);
    for theirs in bytes.utf8_chunks() {
        let mine = ours.next().expect("as many chunks as std");
        assert!(
            mine.valid() == theirs.valid() && mine.invalid() == theirs.invalid(),
            "{bytes:02X?}: Utf8Chunks"
        );
    }
    assert!(ours.next().is_none(), "{bytes:02X?}: extra chunk");
}

/// ASCII put before an input so that its first error lies beyond the scalar
/// window after the start and is found by the SIMD path (simdutf8::compat,
/// then the classification at the offset it reports).
const PAD: usize = 40;

/// Checks `bytes` alone; after `PAD` bytes of ASCII (under 64 bytes, where
/// simdutf8 falls back to scalar code, and where a truncated sequence ends
/// the input); and between `PAD` bytes of ASCII on each side (over 64 bytes,
/// where simdutf8's SIMD code finds the error).
#[inline]
fn check_both(bytes: &[u8], padded: &mut [u8; 2 * PAD + 4]) {
    let valid = check(bytes);
    check_fused(bytes, valid, &mut [0; 128]);
    check_chunks(bytes);
    let n = bytes.len();
    padded[PAD..PAD + n].copy_from_slice(bytes);
    check(&padded[..PAD + n]);
    padded[PAD + n..PAD + n + PAD].fill(b'y');
    check(&padded[..PAD + n + PAD]);
}

fn padding() -> [u8; 2 * PAD + 4] {
    [b'x'; 2 * PAD + 4]
}

/// Every 3-byte input whose first byte is in `firsts`.
fn sweep_3(firsts: core::ops::RangeInclusive<u8>) {
    let mut buf = [0u8; 3];
    let mut padded = padding();
    for a in firsts {
        buf[0] = a;
        for b in 0..=0xFFu8 {
            buf[1] = b;
            for c in 0..=0xFFu8 {
                buf[2] = c;
                check_both(&buf, &mut padded);
            }
        }
    }
}

#[test]
fn every_1_and_2_byte_input() {
    let mut valid = 0;
    let mut padded = padding();
    for a in 0..=0xFFu8 {
        check_both(&[a], &mut padded);
        for b in 0..=0xFFu8 {
            let bytes = [a, b];
            check_both(&bytes, &mut padded);
            // Lossy and streaming (byte at a time) agree with std / one-shot.
            let lossy = decode_lossy(&bytes);
            assert_eq!(lossy, String::from_utf8_lossy(&bytes), "{bytes:02X?}");
            let mut decoder = Utf8Decoder::new();
            let mut text = String::new();
            let mut errors = Vec::new();
            let mut sink = |e: Event<'_>| match e {
                Event::Text(t) => text.push_str(t),
                Event::Error(s) => {
                    errors.push(s);
                    text.push('\u{FFFD}');
                }
            };
            decoder.decode(&bytes[..1], false, &mut sink);
            decoder.decode(&bytes[1..], true, &mut sink);
            assert_eq!(text, lossy, "{bytes:02X?}: streaming");
            assert_eq!(errors, subparts(&bytes).collect::<Vec<_>>(), "{bytes:02X?}");
            valid += usize::from(core::str::from_utf8(&bytes).is_ok());
        }
    }
    // 128*128 ASCII pairs + 30*64 two-byte characters.
    assert_eq!(valid, 128 * 128 + 30 * 64);
}

// The 3-byte space, split by first byte into eight equal tests so the test
// harness runs them in parallel.
#[test]
fn every_3_byte_input_00_to_1f() {
    sweep_3(0x00..=0x1F);
}

#[test]
fn every_3_byte_input_20_to_3f() {
    sweep_3(0x20..=0x3F);
}

#[test]
fn every_3_byte_input_40_to_5f() {
    sweep_3(0x40..=0x5F);
}

#[test]
fn every_3_byte_input_60_to_7f() {
    sweep_3(0x60..=0x7F);
}

#[test]
fn every_3_byte_input_80_to_9f() {
    sweep_3(0x80..=0x9F);
}

#[test]
fn every_3_byte_input_a0_to_bf() {
    sweep_3(0xA0..=0xBF);
}

#[test]
fn every_3_byte_input_c0_to_df() {
    sweep_3(0xC0..=0xDF);
}

#[test]
fn every_3_byte_input_e0_to_ff() {
    sweep_3(0xE0..=0xFF);
}

#[test]
fn three_byte_sweep_sees_every_class() {
    // The classifier itself on the docs/spec.md examples, so the sweeps above
    // compare against something right.
    assert_eq!(
        classify(b"\xC0\x80").as_slice(),
        [(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)]
    );
    assert_eq!(
        classify(b"\xE0\x80\x41").as_slice(),
        [(0, 1, Overlong), (1, 1, UnexpectedContinuation)]
    );
    assert_eq!(
        classify(b"\xE2\x82\xC3\xA9").as_slice(),
        [(0, 2, Truncated)]
    );
    assert_eq!(classify(b"\xED\xA0").as_slice()[0], (0, 1, Surrogate));
    assert_eq!(classify(b"\xF4\x90").as_slice()[0], (0, 1, AboveMax));
    assert_eq!(classify(b"\xF0\x8F").as_slice()[0], (0, 1, Overlong));
    assert_eq!(classify(b"\xF4\x8F\xBF").as_slice(), [(0, 3, Truncated)]);
    assert_eq!(classify("\u{10FFFF}".as_bytes()).as_slice(), []);
}

// ---------------------------------------------------------------------------
// encode_utf8

#[test]
fn every_scalar_value_round_trips() {
    let mut buf = [0u8; 4];
    for value in 0..=0x10_FFFFu32 {
        match char::from_u32(value) {
            Some(c) => {
                let ours = encode_utf8(value).unwrap_or_else(|e| panic!("U+{value:04X}: {e}"));
                let std = c.encode_utf8(&mut buf);
                assert_eq!(ours.as_bytes(), std.as_bytes(), "U+{value:04X}");
                assert_eq!(ours.as_str(), std, "U+{value:04X}");
                let back = from_utf8(ours.as_bytes()).expect("well-formed");
                assert_eq!(back.chars().next().map(u32::from), Some(value));
                assert_eq!(back.chars().count(), 1);
            }
            None => {
                assert!((0xD800..=0xDFFF).contains(&value));
                assert_eq!(encode_utf8(value), Err(EncodeError::Surrogate(value)));
            }
        }
    }
}

#[test]
fn surrogates_and_values_above_max_are_refused() {
    for value in 0xD800..=0xDFFFu32 {
        assert_eq!(encode_utf8(value), Err(EncodeError::Surrogate(value)));
    }
    let mut checked = 0u64;
    let mut refuse = |value: u32| {
        assert_eq!(
            encode_utf8(value),
            Err(EncodeError::AboveMax(value)),
            "{value:#X}"
        );
        checked += 1;
    };
    // Densely just above U+10FFFF and around the old RFC 2279 limits, then a
    // sparse sweep to u32::MAX.
    (0x11_0000..=0x13_0000).for_each(&mut refuse);
    (0x1F_FF00..=0x20_0100).for_each(&mut refuse);
    (0x3FF_FF00..=0x400_0100).for_each(&mut refuse);
    (0x7FFF_FF00..=0x8000_0100).for_each(&mut refuse);
    (u32::MAX - 0x100..=u32::MAX).for_each(&mut refuse);
    (0x13_0000..=u32::MAX).step_by(4093).for_each(&mut refuse);
    refuse(u32::MAX);
    assert!(checked > 1_000_000, "{checked}");
}

// ---------------------------------------------------------------------------
// The full 4-byte sweep: 2^32 inputs, opt-in.

#[test]
fn every_4_byte_input_when_enabled() {
    if std::env::var("UTF8LINT_EXHAUSTIVE_4").map_or(true, |v| v != "1") {
        eprintln!(
            "every_4_byte_input_when_enabled: skipped (2^32 inputs); \
             set UTF8LINT_EXHAUSTIVE_4=1 to run it"
        );
        return;
    }
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
    let next_first = AtomicU32::new(0);
    let done = AtomicU64::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut buf = [0u8; 4];
                let mut padded = [b'x'; PAD + 4];
                let mut fused = [0u8; 128];
                loop {
                    let a = next_first.fetch_add(1, Ordering::Relaxed);
                    let Ok(a) = u8::try_from(a) else { break };
                    buf[0] = a;
                    for b in 0..=0xFFu8 {
                        buf[1] = b;
                        for c in 0..=0xFFu8 {
                            buf[2] = c;
                            for d in 0..=0xFFu8 {
                                buf[3] = d;
                                let valid = check(&buf);
                                check_fused(&buf, valid, &mut fused);
                                padded[PAD..].copy_from_slice(&buf);
                                check(&padded);
                            }
                        }
                    }
                    done.fetch_add(1 << 24, Ordering::Relaxed);
                }
            });
        }
    });
    let total = done.load(Ordering::Relaxed);
    assert_eq!(total, 1 << 32);
    eprintln!(
        "every_4_byte_input_when_enabled: {total} inputs checked (alone and after {PAD} ASCII bytes) in {:.1?} on {threads} threads",
        started.elapsed()
    );
}
