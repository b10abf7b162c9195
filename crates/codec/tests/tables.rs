//! Hand-written byte tables: Unicode Table 3-7 row by row, every error class,
//! errors interleaved with characters of every length, the examples of
//! docs/spec.md and RFC 3629 section 7, LossyMap, Signature and
//! interpret. Every input is also checked against `core::str::from_utf8`,
//! `core::str::Utf8Chunks` and `String::from_utf8_lossy` as oracles.

use utf8lint_codec::ErrorKind::{self, *};
use utf8lint_codec::{
    EncodeError, Event, Interpretation, LossyMap, Signature, Utf8Chunks, Utf8Decoder, decode_lossy,
    encode_utf8, from_utf8, interpret, is_valid, subparts,
};

type Expected = (usize, usize, ErrorKind);

fn ours(bytes: &[u8]) -> Vec<Expected> {
    subparts(bytes)
        .map(|s| (s.offset, usize::from(s.len), s.kind))
        .collect()
}

/// Runs `bytes` through the streaming decoder in chunks of `chunk` bytes.
fn stream(bytes: &[u8], chunk: usize) -> (Vec<Expected>, String) {
    let mut decoder = Utf8Decoder::new();
    let mut errors = Vec::new();
    let mut text = String::new();
    let mut sink = |event: Event<'_>| match event {
        Event::Text(t) => text.push_str(t),
        Event::Error(s) => {
            errors.push((s.offset, usize::from(s.len), s.kind));
            text.push('\u{FFFD}');
        }
    };
    for piece in bytes.chunks(chunk) {
        decoder.decode(piece, false, &mut sink);
    }
    decoder.finish(&mut sink);
    (errors, text)
}

/// Checks everything the codec says about `bytes` against the std oracles,
/// and returns our subparts.
fn against_oracles(bytes: &[u8]) -> Vec<Expected> {
    let got = ours(bytes);

    // from_utf8 / is_valid vs core::str::from_utf8.
    match (from_utf8(bytes), core::str::from_utf8(bytes)) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{bytes:02X?}");
            assert!(
                got.is_empty(),
                "{bytes:02X?}: valid input with subparts {got:?}"
            );
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.valid_up_to(), b.valid_up_to(), "valid_up_to {bytes:02X?}");
            assert_eq!(a.error_len(), b.error_len(), "error_len {bytes:02X?}");
            let first = got.first().expect("an error means a subpart");
            assert_eq!(first.0, a.valid_up_to(), "{bytes:02X?}");
            assert_eq!(first.2, a.kind(), "{bytes:02X?}");
        }
        (a, b) => panic!("{bytes:02X?}: ours {a:?}, core {b:?}"),
    }
    assert_eq!(is_valid(bytes), got.is_empty(), "is_valid {bytes:02X?}");
    assert_eq!(
        utf8lint_codec::validate_marking(bytes, |_, _| {}),
        got.is_empty(),
        "validate_marking {bytes:02X?}"
    );

    // Our Utf8Chunks vs core's: the same (valid, invalid) pairs, and the
    // invalid parts are exactly the subparts.
    let std_chunks: Vec<(&str, &[u8])> = bytes
        .utf8_chunks()
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    let our_chunks: Vec<(&str, &[u8])> = Utf8Chunks::new(bytes)
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    assert_eq!(our_chunks, std_chunks, "Utf8Chunks {bytes:02X?}");
    let chunk_errors: Vec<Expected> = Utf8Chunks::new(bytes)
        .filter_map(|c| c.error())
        .map(|s| (s.offset, usize::from(s.len), s.kind))
        .collect();
    assert_eq!(chunk_errors, got, "Utf8Chunk::error {bytes:02X?}");
    let mut at = 0;
    let mut std_spans = Vec::new();
    for (valid, invalid) in &std_chunks {
        at += valid.len();
        if !invalid.is_empty() {
            std_spans.push((at, invalid.len()));
        }
        at += invalid.len();
    }
    let spans: Vec<(usize, usize)> = got.iter().map(|&(o, l, _)| (o, l)).collect();
    assert_eq!(
        spans, std_spans,
        "subparts vs std invalid chunks {bytes:02X?}"
    );

    // Lossy decoding vs String::from_utf8_lossy.
    let lossy = decode_lossy(bytes);
    assert_eq!(lossy, String::from_utf8_lossy(bytes), "lossy {bytes:02X?}");

    // Streaming in every small chunk size equals one-shot.
    for chunk in [1, 2, 3, 5, bytes.len().max(1)] {
        let (errors, text) = stream(bytes, chunk);
        assert_eq!(
            errors, got,
            "streaming errors, chunks of {chunk}, {bytes:02X?}"
        );
        assert_eq!(
            text, lossy,
            "streaming text, chunks of {chunk}, {bytes:02X?}"
        );
    }
    got
}

fn check(bytes: &[u8], want: &[Expected]) {
    assert_eq!(against_oracles(bytes), want, "subparts of {bytes:02X?}");
}

// ---------------------------------------------------------------------------
// Unicode Table 3-7 (docs/spec.md, "Well-formed UTF-8")

/// One row: lead bytes, the range of the second byte, number of bytes.
struct Row {
    leads: (u8, u8),
    second: (u8, u8),
    len: usize,
    first: u32,
    last: u32,
}

const TABLE_3_7: [Row; 9] = [
    Row {
        leads: (0x00, 0x7F),
        second: (0, 0),
        len: 1,
        first: 0x0000,
        last: 0x007F,
    },
    Row {
        leads: (0xC2, 0xDF),
        second: (0x80, 0xBF),
        len: 2,
        first: 0x0080,
        last: 0x07FF,
    },
    Row {
        leads: (0xE0, 0xE0),
        second: (0xA0, 0xBF),
        len: 3,
        first: 0x0800,
        last: 0x0FFF,
    },
    Row {
        leads: (0xE1, 0xEC),
        second: (0x80, 0xBF),
        len: 3,
        first: 0x1000,
        last: 0xCFFF,
    },
    Row {
        leads: (0xED, 0xED),
        second: (0x80, 0x9F),
        len: 3,
        first: 0xD000,
        last: 0xD7FF,
    },
    Row {
        leads: (0xEE, 0xEF),
        second: (0x80, 0xBF),
        len: 3,
        first: 0xE000,
        last: 0xFFFF,
    },
    Row {
        leads: (0xF0, 0xF0),
        second: (0x90, 0xBF),
        len: 4,
        first: 0x1_0000,
        last: 0x3_FFFF,
    },
    Row {
        leads: (0xF1, 0xF3),
        second: (0x80, 0xBF),
        len: 4,
        first: 0x4_0000,
        last: 0xF_FFFF,
    },
    Row {
        leads: (0xF4, 0xF4),
        second: (0x80, 0x8F),
        len: 4,
        first: 0x10_0000,
        last: 0x10_FFFF,
    },
];

/// The two boundaries of every row, spelled out as bytes.
#[test]
fn table_3_7_row_boundaries_decode_and_encode() {
    let cases: [(u32, &[u8]); 18] = [
        (0x0000, b"\x00"),
        (0x007F, b"\x7F"),
        (0x0080, b"\xC2\x80"),
        (0x07FF, b"\xDF\xBF"),
        (0x0800, b"\xE0\xA0\x80"),
        (0x0FFF, b"\xE0\xBF\xBF"),
        (0x1000, b"\xE1\x80\x80"),
        (0xCFFF, b"\xEC\xBF\xBF"),
        (0xD000, b"\xED\x80\x80"),
        (0xD7FF, b"\xED\x9F\xBF"),
        (0xE000, b"\xEE\x80\x80"),
        (0xFFFF, b"\xEF\xBF\xBF"),
        (0x1_0000, b"\xF0\x90\x80\x80"),
        (0x3_FFFF, b"\xF0\xBF\xBF\xBF"),
        (0x4_0000, b"\xF1\x80\x80\x80"),
        (0xF_FFFF, b"\xF3\xBF\xBF\xBF"),
        (0x10_0000, b"\xF4\x80\x80\x80"),
        (0x10_FFFF, b"\xF4\x8F\xBF\xBF"),
    ];
    for (value, bytes) in cases {
        check(bytes, &[]);
        let text = from_utf8(bytes).expect("well-formed");
        assert_eq!(text.chars().map(u32::from).collect::<Vec<_>>(), [value]);
        assert_eq!(
            encode_utf8(value).expect("scalar").as_bytes(),
            bytes,
            "U+{value:04X}"
        );
        // The row table agrees with the spelled-out boundaries.
        let row = TABLE_3_7
            .iter()
            .find(|r| (r.leads.0..=r.leads.1).contains(&bytes[0]))
            .expect("a row");
        assert_eq!(row.len, bytes.len());
        assert!(value == row.first || value == row.last, "U+{value:04X}");
    }
}

/// Every lead byte of every row with the lowest and highest allowed byte in
/// every position is valid, alone and surrounded by ASCII.
#[test]
fn table_3_7_every_lead_with_boundary_continuations_is_valid() {
    for row in &TABLE_3_7 {
        for lead in row.leads.0..=row.leads.1 {
            if row.len == 1 {
                check(&[lead], &[]);
                continue;
            }
            for second in [row.second.0, row.second.1] {
                for tail in [0x80, 0xBF] {
                    let mut bytes = vec![lead, second];
                    bytes.resize(row.len, tail);
                    check(&bytes, &[]);
                    let mut framed = b"a".to_vec();
                    framed.extend_from_slice(&bytes);
                    framed.push(b'z');
                    check(&framed, &[]);
                }
            }
        }
    }
}

/// Just outside every row: the second byte one below and one above its range
/// and the later bytes outside 80..BF, each with its class.
#[test]
fn table_3_7_just_outside_every_row() {
    for row in TABLE_3_7.iter().filter(|r| r.len > 1) {
        for lead in row.leads.0..=row.leads.1 {
            let (lo, hi) = row.second;
            // Second byte just below and just above the row's range.
            for second in [lo - 1, hi + 1] {
                let kind = match (lead, second) {
                    (0xE0, 0x9F) | (0xF0, 0x8F) => Overlong,
                    (0xED, 0xA0) => Surrogate,
                    (0xF4, 0x90) => AboveMax,
                    // 7F or C0: not a continuation byte at all.
                    _ => {
                        assert!(second == 0x7F || second == 0xC0, "{lead:02X} {second:02X}");
                        Truncated
                    }
                };
                let mut bytes = vec![lead, second];
                bytes.resize(row.len, 0x80);
                let got = against_oracles(&bytes);
                assert_eq!(got[0], (0, 1, kind), "{bytes:02X?}");
            }
            // A later byte just outside 80..BF cuts the sequence short there.
            for cut in 2..row.len {
                for bad in [0x7F, 0xC0] {
                    let mut bytes = vec![lead, row.second.0];
                    bytes.resize(cut, 0xBF);
                    bytes.push(bad);
                    bytes.resize(row.len, 0x80);
                    let got = against_oracles(&bytes);
                    assert_eq!(got[0], (0, cut, Truncated), "{bytes:02X?}");
                }
            }
        }
    }
    // The lead bytes just outside the rows.
    check(b"\x80", &[(0, 1, UnexpectedContinuation)]);
    check(b"\xBF", &[(0, 1, UnexpectedContinuation)]);
    check(
        b"\xC1\xBF",
        &[(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)],
    );
    check(
        b"\xC0\x80",
        &[(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)],
    );
    check(
        b"\xF5\x80\x80\x80",
        &[
            (0, 1, InvalidLeadByte),
            (1, 1, UnexpectedContinuation),
            (2, 1, UnexpectedContinuation),
            (3, 1, UnexpectedContinuation),
        ],
    );
}

// ---------------------------------------------------------------------------
// The six classes (docs/spec.md, "Errors, one per maximal subpart")

#[test]
fn unexpected_continuation() {
    for b in 0x80..=0xBFu8 {
        check(&[b], &[(0, 1, UnexpectedContinuation)]);
        check(&[b'a', b, b'b'], &[(1, 1, UnexpectedContinuation)]);
    }
    // After a complete character, a continuation byte is unexpected.
    check(b"\xC3\xA9\xA9", &[(2, 1, UnexpectedContinuation)]);
    check(b"\xF0\x9F\x98\x80\x80", &[(4, 1, UnexpectedContinuation)]);
    check(
        b"\x80\x80\x80",
        &[
            (0, 1, UnexpectedContinuation),
            (1, 1, UnexpectedContinuation),
            (2, 1, UnexpectedContinuation),
        ],
    );
}

#[test]
fn invalid_lead_byte() {
    for b in [0xC0, 0xC1].into_iter().chain(0xF5..=0xFF) {
        check(&[b], &[(0, 1, InvalidLeadByte)]);
        check(&[b, b'a'], &[(0, 1, InvalidLeadByte)]);
        check(
            &[b, 0x80],
            &[(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)],
        );
    }
    // RFC 2279 5- and 6-byte forms: one lead plus one error per byte.
    check(
        b"\xF8\x88\x80\x80\x80",
        &[
            (0, 1, InvalidLeadByte),
            (1, 1, UnexpectedContinuation),
            (2, 1, UnexpectedContinuation),
            (3, 1, UnexpectedContinuation),
            (4, 1, UnexpectedContinuation),
        ],
    );
    check(
        b"\xFE\xFF",
        &[(0, 1, InvalidLeadByte), (1, 1, InvalidLeadByte)],
    );
}

#[test]
fn overlong() {
    for second in 0x80..=0x9Fu8 {
        check(
            &[0xE0, second],
            &[(0, 1, Overlong), (1, 1, UnexpectedContinuation)],
        );
    }
    for second in 0x80..=0x8Fu8 {
        check(
            &[0xF0, second, 0x80, 0x80],
            &[
                (0, 1, Overlong),
                (1, 1, UnexpectedContinuation),
                (2, 1, UnexpectedContinuation),
                (3, 1, UnexpectedContinuation),
            ],
        );
    }
    // The 2-byte overlongs are invalid lead bytes (C0, C1), not `overlong`.
    check(
        b"\xC0\xAF",
        &[(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)],
    );
}

#[test]
fn surrogate() {
    for second in 0xA0..=0xBFu8 {
        check(
            &[0xED, second, 0x80],
            &[
                (0, 1, Surrogate),
                (1, 1, UnexpectedContinuation),
                (2, 1, UnexpectedContinuation),
            ],
        );
    }
    check(
        b"\xED\xA1\x8C\xED\xBE\xB4",
        &[
            (0, 1, Surrogate),
            (1, 1, UnexpectedContinuation),
            (2, 1, UnexpectedContinuation),
            (3, 1, Surrogate),
            (4, 1, UnexpectedContinuation),
            (5, 1, UnexpectedContinuation),
        ],
    );
}

#[test]
fn above_max() {
    for second in 0x90..=0xBFu8 {
        check(
            &[0xF4, second, 0x80, 0x80],
            &[
                (0, 1, AboveMax),
                (1, 1, UnexpectedContinuation),
                (2, 1, UnexpectedContinuation),
                (3, 1, UnexpectedContinuation),
            ],
        );
    }
}

#[test]
fn truncated() {
    // Cut by the end of input: core's error_len is None (checked in `check`).
    check(b"\xC3", &[(0, 1, Truncated)]);
    check(b"\xE2\x82", &[(0, 2, Truncated)]);
    check(b"\xF0\x9F\x98", &[(0, 3, Truncated)]);
    check(b"\xF4\x8F\xBF", &[(0, 3, Truncated)]);
    check(b"ok\xE0\xA0", &[(2, 2, Truncated)]);
    // Cut by a byte that cannot continue it.
    check(b"\xC3A", &[(0, 1, Truncated)]);
    check(b"\xE2\x82A", &[(0, 2, Truncated)]);
    check(b"\xF0\x9F\x98A", &[(0, 3, Truncated)]);
    check(b"\xE0A", &[(0, 1, Truncated)]);
    check(b"\xEDA", &[(0, 1, Truncated)]);
    check(b"\xF4A", &[(0, 1, Truncated)]);
    check(b"\xF0\xC2\x80", &[(0, 1, Truncated)]);
    // Cut by another truncated sequence.
    check(b"\xF0\x9F\xE2\x82", &[(0, 2, Truncated), (2, 2, Truncated)]);
    // Kuhn 3.3: every sequence with its last byte missing.
    check(
        b"\xC0\xE0\x80\xF0\x80\x80\xDF\xEF\xBF\xF7\xBF\xBF",
        &[
            (0, 1, InvalidLeadByte),
            (1, 1, Overlong),
            (2, 1, UnexpectedContinuation),
            (3, 1, Overlong),
            (4, 1, UnexpectedContinuation),
            (5, 1, UnexpectedContinuation),
            (6, 1, Truncated),
            (7, 2, Truncated),
            (9, 1, InvalidLeadByte),
            (10, 1, UnexpectedContinuation),
            (11, 1, UnexpectedContinuation),
        ],
    );
}

// ---------------------------------------------------------------------------
// Interleavings

/// A piece of input and the subparts it holds, relative to its start.
#[derive(Clone, Copy)]
struct Piece {
    bytes: &'static [u8],
    errors: &'static [Expected],
}

const PIECES: &[Piece] = &[
    Piece {
        bytes: b"A",
        errors: &[],
    },
    Piece {
        bytes: "é".as_bytes(),
        errors: &[],
    },
    Piece {
        bytes: "€".as_bytes(),
        errors: &[],
    },
    Piece {
        bytes: "😀".as_bytes(),
        errors: &[],
    },
    Piece {
        bytes: "\u{10FFFF}".as_bytes(),
        errors: &[],
    },
    Piece {
        bytes: b"\x80",
        errors: &[(0, 1, UnexpectedContinuation)],
    },
    Piece {
        bytes: b"\xC0",
        errors: &[(0, 1, InvalidLeadByte)],
    },
    Piece {
        bytes: b"\xFF",
        errors: &[(0, 1, InvalidLeadByte)],
    },
    Piece {
        bytes: b"\xE0\x80",
        errors: &[(0, 1, Overlong), (1, 1, UnexpectedContinuation)],
    },
    Piece {
        bytes: b"\xED\xA0",
        errors: &[(0, 1, Surrogate), (1, 1, UnexpectedContinuation)],
    },
    Piece {
        bytes: b"\xF4\x90",
        errors: &[(0, 1, AboveMax), (1, 1, UnexpectedContinuation)],
    },
    Piece {
        bytes: b"\xC3",
        errors: &[(0, 1, Truncated)],
    },
    Piece {
        bytes: b"\xE2\x82",
        errors: &[(0, 2, Truncated)],
    },
    Piece {
        bytes: b"\xF0\x9F\x98",
        errors: &[(0, 3, Truncated)],
    },
];

/// Whether the piece ends in a truncated sequence, which a following
/// continuation byte would extend.
fn ends_open(piece: &Piece) -> bool {
    piece
        .errors
        .last()
        .is_some_and(|&(o, l, k)| k == Truncated && o + l == piece.bytes.len())
}

fn glue(pieces: &[Piece]) -> Option<(Vec<u8>, Vec<Expected>)> {
    let mut bytes = Vec::new();
    let mut want = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 && ends_open(&pieces[i - 1]) && piece.bytes[0] & 0xC0 == 0x80 {
            return None; // would merge into the truncated sequence
        }
        want.extend(
            piece
                .errors
                .iter()
                .map(|&(o, l, k)| (bytes.len() + o, l, k)),
        );
        bytes.extend_from_slice(piece.bytes);
    }
    Some((bytes, want))
}

/// Every sequence of up to three pieces: errors at the start, at the end,
/// adjacent to each other and between characters of every length.
#[test]
fn interleavings_of_errors_and_characters() {
    let mut checked = 0;
    let n = PIECES.len();
    for a in 0..n {
        for b in 0..=n {
            for c in 0..=n {
                let picked: Vec<Piece> = [Some(a), (b < n).then_some(b), (c < n).then_some(c)]
                    .into_iter()
                    .flatten()
                    .map(|i| PIECES[i])
                    .collect();
                if let Some((bytes, want)) = glue(&picked) {
                    check(&bytes, &want);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2500, "{checked}");
}

/// Errors spread through text longer than the scalar window, so the SIMD path
/// finds them.
#[test]
fn errors_far_apart_in_long_text() {
    for gap in [0, 1, 15, 16, 31, 32, 63, 64, 65, 127, 128, 200, 1000] {
        for piece in PIECES.iter().filter(|p| !p.errors.is_empty()) {
            let filler: Vec<u8> = "aé€😀".bytes().cycle().take(gap * 10).collect();
            let filler = String::from_utf8_lossy(&filler).into_owned();
            let filler = filler.trim_end_matches('\u{FFFD}');
            let mut bytes = Vec::new();
            let mut want = Vec::new();
            for _ in 0..4 {
                bytes.extend_from_slice(filler.as_bytes());
                bytes.push(b' ');
                want.extend(
                    piece
                        .errors
                        .iter()
                        .map(|&(o, l, k)| (bytes.len() + o, l, k)),
                );
                bytes.extend_from_slice(piece.bytes);
                bytes.push(b' ');
            }
            check(&bytes, &want);
        }
    }
}

/// Errors separated by every distance from 0 to 80 bytes of ASCII, 2-byte
/// and 4-byte text: each side of the scalar window after an error (the
/// scalar stepper finds the next error, or hands over to the SIMD path).
#[test]
fn errors_at_every_distance_around_the_scalar_window() {
    for filler in ["a", "é", "😀"] {
        for gap in 0..=80 {
            let text: String = filler.repeat(gap / filler.len() + 1);
            let mut cut = gap.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let text = &text[..cut];
            for piece in PIECES.iter().filter(|p| !p.errors.is_empty()) {
                let mut bytes = Vec::new();
                let mut want = Vec::new();
                for _ in 0..3 {
                    want.extend(
                        piece
                            .errors
                            .iter()
                            .map(|&(o, l, k)| (bytes.len() + o, l, k)),
                    );
                    bytes.extend_from_slice(piece.bytes);
                    bytes.extend_from_slice(text.as_bytes());
                    bytes.push(b' ');
                }
                check(&bytes, &want);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The examples of docs/spec.md

#[test]
fn spec_section_2_examples() {
    check(
        b"\xC0\x80",
        &[(0, 1, InvalidLeadByte), (1, 1, UnexpectedContinuation)],
    );
    check(
        b"\xE0\x80\x41",
        &[(0, 1, Overlong), (1, 1, UnexpectedContinuation)],
    );
    assert_eq!(decode_lossy(b"\xE0\x80\x41"), "\u{FFFD}\u{FFFD}A");
    check(b"\xE2\x82\xC3\xA9", &[(0, 2, Truncated)]);
    assert_eq!(decode_lossy(b"\xE2\x82\xC3\xA9"), "\u{FFFD}é");

    // The human readings of section 2.
    assert_eq!(
        interpret(b"\xC0\xAE"),
        Some(Interpretation::Overlong {
            value: 0x2E,
            len: 2
        })
    );
    assert_eq!(
        interpret(b"\xED\xA1\x8C\xED\xBE\xB4"),
        Some(Interpretation::SurrogatePair {
            value: 0x233B4,
            high: 0xD84C,
            low: 0xDFB4
        })
    );
    assert_eq!(
        interpret(b"\xF8\x88\x80\x80\x80"),
        Some(Interpretation::Rfc2279 {
            value: 0x20_0000,
            len: 5
        })
    );
    check(b"\xE6\x97x", &[(0, 2, Truncated)]);
    assert_eq!(interpret(b"\xE6\x97x"), None);

    // RFC 3629 section 10: the overlong "/../" must not get through.
    check(b"\x2F\x2E\x2E\x2F", &[]);
    check(
        b"\x2F\xC0\xAE\x2E\x2F",
        &[(1, 1, InvalidLeadByte), (2, 1, UnexpectedContinuation)],
    );
}

// ---------------------------------------------------------------------------
// RFC 3629 section 7 examples (also in draft-yergeau-rfc2279bis-01
// section 7).

#[test]
fn rfc_3629_section_7_examples() {
    let examples: [(&[u32], &[u8]); 4] = [
        // "A<NOT IDENTICAL TO><ALPHA>."
        (
            &[0x0041, 0x2262, 0x0391, 0x002E],
            b"\x41\xE2\x89\xA2\xCE\x91\x2E",
        ),
        // Korean "hangugeo"
        (
            &[0xD55C, 0xAD6D, 0xC5B4],
            b"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4",
        ),
        // Japanese "nihongo"
        (
            &[0x65E5, 0x672C, 0x8A9E],
            b"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
        ),
        // U+233B4 prepended with a BOM
        (&[0xFEFF, 0x233B4], b"\xEF\xBB\xBF\xF0\xA3\x8E\xB4"),
    ];
    for (scalars, bytes) in examples {
        let mut encoded = Vec::new();
        for &v in scalars {
            let e = encode_utf8(v).expect("scalar value");
            assert_eq!(e.as_str().chars().map(u32::from).collect::<Vec<_>>(), [v]);
            encoded.extend_from_slice(e.as_bytes());
        }
        assert_eq!(encoded, bytes);
        check(bytes, &[]);
        let decoded: Vec<u32> = from_utf8(bytes)
            .expect("valid")
            .chars()
            .map(u32::from)
            .collect();
        assert_eq!(decoded, scalars);
    }
    // The BOM is an ordinary U+FEFF for the codec; Signature names it.
    let bom = b"\xEF\xBB\xBF\xF0\xA3\x8E\xB4";
    assert_eq!(Signature::detect(bom), Some(Signature::Utf8));
    assert!(decode_lossy(bom).starts_with('\u{FEFF}'));
}

// ---------------------------------------------------------------------------
// LossyMap

/// The naive map: walk the std chunks, recording for every input offset the
/// lossy offset.
fn naive_map(bytes: &[u8]) -> (Vec<usize>, Vec<usize>) {
    // to_lossy[i] for i in 0..=len; to_input[j] for j in 0..=lossy_len.
    let mut to_lossy = Vec::new();
    let mut to_input = Vec::new();
    let (mut i, mut j) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        for _ in chunk.valid().bytes() {
            to_lossy.push(j);
            to_input.push(i);
            i += 1;
            j += 1;
        }
        if !chunk.invalid().is_empty() {
            for _ in chunk.invalid() {
                to_lossy.push(j);
            }
            for _ in 0..3 {
                to_input.push(i);
            }
            i += chunk.invalid().len();
            j += 3;
        }
    }
    to_lossy.push(j);
    to_input.push(i);
    (to_lossy, to_input)
}

fn check_lossy_map(bytes: &[u8]) {
    let map = LossyMap::new(bytes);
    let lossy = decode_lossy(bytes);
    let (to_lossy, to_input) = naive_map(bytes);
    assert_eq!(to_input.len(), lossy.len() + 1);
    assert_eq!(map.error_count(), subparts(bytes).count());
    for (i, &want) in to_lossy.iter().enumerate() {
        assert_eq!(map.to_lossy(i), want, "to_lossy({i}) of {bytes:02X?}");
    }
    for (j, &want) in to_input.iter().enumerate() {
        assert_eq!(map.to_input(j), want, "to_input({j}) of {bytes:02X?}");
    }
    // Round trips: every character boundary of the lossy text maps to an input
    // offset that maps back to it.
    for (j, _) in lossy.char_indices().chain([(lossy.len(), ' ')]) {
        assert_eq!(
            map.to_lossy(map.to_input(j)),
            j,
            "round trip {j} of {bytes:02X?}"
        );
    }
    // The bytes each U+FFFD stands for are the subpart.
    for sub in subparts(bytes) {
        let at = map.to_lossy(sub.offset);
        assert_eq!(&lossy[at..at + 3], "\u{FFFD}");
        assert_eq!(map.to_input(at + 1), sub.offset);
        assert_eq!(map.to_lossy(sub.end()), at + 3);
    }
}

#[test]
fn lossy_map_round_trips() {
    let inputs: &[&[u8]] = &[
        b"",
        b"plain ascii",
        "déjà vu 😀".as_bytes(),
        b"\xFF",
        b"\xFF\xFE",
        b"a\xFF\xFEb",
        b"x\xF0\x9F\x92y\xC0z",
        b"\xE2\x82",
        b"\xE2\x82\xC3\xA9",
        b"\xED\xA1\x8C\xED\xBE\xB4 tail",
        b"\xEF\xBF\xBD real U+FFFD then \x80",
        b"\xF0\x9F\x98\xF0\x9F\x98\xF0\x9F\x98",
    ];
    for bytes in inputs {
        check_lossy_map(bytes);
    }
    for &a in PIECES {
        for &b in PIECES {
            if let Some((bytes, _)) = glue(&[a, b, PIECES[0]]) {
                check_lossy_map(&bytes);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Signature

#[test]
fn signatures_and_near_misses() {
    let marks = [
        (Signature::Utf8, &b"\xEF\xBB\xBF"[..], "UTF-8"),
        (Signature::Utf16Le, b"\xFF\xFE", "UTF-16LE"),
        (Signature::Utf16Be, b"\xFE\xFF", "UTF-16BE"),
        (Signature::Utf32Le, b"\xFF\xFE\x00\x00", "UTF-32LE"),
        (Signature::Utf32Be, b"\x00\x00\xFE\xFF", "UTF-32BE"),
    ];
    for (sig, bytes, name) in marks {
        assert_eq!(sig.bytes(), bytes);
        assert_eq!(sig.len(), bytes.len());
        assert!(!sig.is_empty());
        assert_eq!(sig.encoding_name(), name);
        assert_eq!(Signature::detect(bytes), Some(sig), "{name} alone");
        let mut followed = bytes.to_vec();
        followed.extend_from_slice(b"x\x00\x00\x00");
        assert_eq!(
            Signature::detect(&followed),
            Some(sig),
            "{name} followed by text"
        );
        // Not at the start: no signature.
        let mut late = b"x".to_vec();
        late.extend_from_slice(bytes);
        assert_eq!(Signature::detect(&late), None, "{name} after a byte");
    }
    // UTF-16LE's mark followed by text is UTF-16LE, not UTF-32LE.
    assert_eq!(
        Signature::detect(b"\xFF\xFEa\x00"),
        Some(Signature::Utf16Le)
    );
    assert_eq!(Signature::detect(b"\xFF\xFE\x00"), Some(Signature::Utf16Le));
    assert_eq!(
        Signature::detect(b"\xFF\xFE\x00\x01"),
        Some(Signature::Utf16Le)
    );
    assert_eq!(
        Signature::detect(b"\xFE\xFF\x00\x00"),
        Some(Signature::Utf16Be)
    );
    let misses: &[&[u8]] = &[
        b"",
        b"\xEF",
        b"\xEF\xBB",
        b"\xEF\xBB\xBE",
        b"\xEF\xBF\xBF",
        b"\xEB\xBB\xBF",
        b"\xFF",
        b"\xFE",
        b"\xFF\xFF",
        b"\xFE\xFE",
        b"\x00",
        b"\x00\x00",
        b"\x00\x00\xFE",
        b"\x00\x00\xFF\xFE",
        b"\x00\xFE\xFF",
        b"\x00\x00\x00\xFE\xFF",
        b"\xBB\xBF",
        b"\xC3\xAF\xC2\xBB\xC2\xBF", // the BOM as mojibake: EF BB BF read as Latin-1 then UTF-8
        b"plain",
    ];
    for bytes in misses {
        assert_eq!(Signature::detect(bytes), None, "{bytes:02X?}");
    }
}

// ---------------------------------------------------------------------------
// interpret on Markus Kuhn's overlong (section 4) and surrogate (section 5)
// items, and his 5- and 6-byte boundary items (section 2).

#[test]
fn interpret_kuhn_overlongs() {
    use Interpretation::Overlong as O;
    let cases: &[(&[u8], Interpretation)] = &[
        // 4.1 "/" in 2 to 6 bytes
        (
            b"\xC0\xAF",
            O {
                value: 0x2F,
                len: 2,
            },
        ),
        (
            b"\xE0\x80\xAF",
            O {
                value: 0x2F,
                len: 3,
            },
        ),
        (
            b"\xF0\x80\x80\xAF",
            O {
                value: 0x2F,
                len: 4,
            },
        ),
        (
            b"\xF8\x80\x80\x80\xAF",
            O {
                value: 0x2F,
                len: 5,
            },
        ),
        (
            b"\xFC\x80\x80\x80\x80\xAF",
            O {
                value: 0x2F,
                len: 6,
            },
        ),
        // 4.2 maximum overlong sequences
        (
            b"\xC1\xBF",
            O {
                value: 0x7F,
                len: 2,
            },
        ),
        (
            b"\xE0\x9F\xBF",
            O {
                value: 0x7FF,
                len: 3,
            },
        ),
        (
            b"\xF0\x8F\xBF\xBF",
            O {
                value: 0xFFFF,
                len: 4,
            },
        ),
        (
            b"\xF8\x87\xBF\xBF\xBF",
            O {
                value: 0x1F_FFFF,
                len: 5,
            },
        ),
        (
            b"\xFC\x83\xBF\xBF\xBF\xBF",
            O {
                value: 0x3FF_FFFF,
                len: 6,
            },
        ),
        // 4.3 overlong NUL
        (b"\xC0\x80", O { value: 0, len: 2 }),
        (b"\xE0\x80\x80", O { value: 0, len: 3 }),
        (b"\xF0\x80\x80\x80", O { value: 0, len: 4 }),
        (b"\xF8\x80\x80\x80\x80", O { value: 0, len: 5 }),
        (b"\xFC\x80\x80\x80\x80\x80", O { value: 0, len: 6 }),
    ];
    for &(bytes, want) in cases {
        assert_eq!(interpret(bytes), Some(want), "{bytes:02X?}");
        assert_eq!(want.len(), bytes.len());
        assert!(!want.is_empty());
        assert!(core::str::from_utf8(bytes).is_err());
        // Followed by more text the reading is the same.
        let mut more = bytes.to_vec();
        more.extend_from_slice(b"/x");
        assert_eq!(interpret(&more), Some(want), "{more:02X?}");
    }
}

#[test]
fn interpret_kuhn_surrogates() {
    // 5.1 single UTF-16 surrogates
    for (bytes, value) in [
        (b"\xED\xA0\x80", 0xD800),
        (b"\xED\xAD\xBF", 0xDB7F),
        (b"\xED\xAE\x80", 0xDB80),
        (b"\xED\xAF\xBF", 0xDBFF),
        (b"\xED\xB0\x80", 0xDC00),
        (b"\xED\xBE\x80", 0xDF80),
        (b"\xED\xBF\xBF", 0xDFFF),
    ] {
        assert_eq!(
            interpret(bytes),
            Some(Interpretation::Surrogate { value }),
            "{bytes:02X?}"
        );
        check(
            bytes,
            &[
                (0, 1, Surrogate),
                (1, 1, UnexpectedContinuation),
                (2, 1, UnexpectedContinuation),
            ],
        );
    }
    // 5.2 paired UTF-16 surrogates
    let pairs: [(&[u8], u16, u16); 8] = [
        (b"\xED\xA0\x80\xED\xB0\x80", 0xD800, 0xDC00),
        (b"\xED\xA0\x80\xED\xBF\xBF", 0xD800, 0xDFFF),
        (b"\xED\xAD\xBF\xED\xB0\x80", 0xDB7F, 0xDC00),
        (b"\xED\xAD\xBF\xED\xBF\xBF", 0xDB7F, 0xDFFF),
        (b"\xED\xAE\x80\xED\xB0\x80", 0xDB80, 0xDC00),
        (b"\xED\xAE\x80\xED\xBF\xBF", 0xDB80, 0xDFFF),
        (b"\xED\xAF\xBF\xED\xB0\x80", 0xDBFF, 0xDC00),
        (b"\xED\xAF\xBF\xED\xBF\xBF", 0xDBFF, 0xDFFF),
    ];
    for (bytes, high, low) in pairs {
        let value = 0x1_0000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        let utf16 = [high, low];
        let via_std: Vec<u32> = char::decode_utf16(utf16)
            .map(|c| u32::from(c.expect("a valid pair")))
            .collect();
        assert_eq!(via_std, [value]);
        assert_eq!(
            interpret(bytes),
            Some(Interpretation::SurrogatePair { value, high, low }),
            "{bytes:02X?}"
        );
        assert_eq!(interpret(bytes).map(|i| i.len()), Some(6));
        assert_eq!(against_oracles(bytes).len(), 6);
    }
    // A high surrogate followed by another high one is a lone surrogate.
    assert_eq!(
        interpret(b"\xED\xA0\x80\xED\xA0\x80"),
        Some(Interpretation::Surrogate { value: 0xD800 })
    );
    // A low surrogate first is never a pair.
    assert_eq!(
        interpret(b"\xED\xB0\x80\xED\xA0\x80"),
        Some(Interpretation::Surrogate { value: 0xDC00 })
    );
}

#[test]
fn interpret_kuhn_long_forms_and_no_readings() {
    let cases: &[(&[u8], Option<Interpretation>)] = &[
        // 2.1 / 2.2: first and last 5- and 6-byte sequences; last 4-byte one
        (
            b"\xF8\x88\x80\x80\x80",
            Some(Interpretation::Rfc2279 {
                value: 0x20_0000,
                len: 5,
            }),
        ),
        (
            b"\xFC\x84\x80\x80\x80\x80",
            Some(Interpretation::Rfc2279 {
                value: 0x400_0000,
                len: 6,
            }),
        ),
        (
            b"\xF7\xBF\xBF\xBF",
            Some(Interpretation::AboveMax { value: 0x1F_FFFF }),
        ),
        (
            b"\xFB\xBF\xBF\xBF\xBF",
            Some(Interpretation::Rfc2279 {
                value: 0x3FF_FFFF,
                len: 5,
            }),
        ),
        (
            b"\xFD\xBF\xBF\xBF\xBF\xBF",
            Some(Interpretation::Rfc2279 {
                value: 0x7FFF_FFFF,
                len: 6,
            }),
        ),
        // 2.3.5: U+110000
        (
            b"\xF4\x90\x80\x80",
            Some(Interpretation::AboveMax { value: 0x11_0000 }),
        ),
        // Well-formed: no reading.
        (b"\xF4\x8F\xBF\xBF", None),
        (b"\xEF\xBF\xBD", None),
        (b"\xED\x9F\xBF", None),
        (b"A", None),
        // 3.1, 3.3, 3.5: no reading.
        (b"\x80", None),
        (b"\xBF\x80", None),
        (b"\xC0", None),
        (b"\xE0\x80", None),
        (b"\xF0\x80\x80", None),
        (b"\xF8\x80\x80\x80", None),
        (b"\xFC\x80\x80\x80\x80", None),
        (b"\xDF", None),
        (b"\xFE", None),
        (b"\xFF", None),
        (b"\xFE\xFE\xFF\xFF", None),
        (b"", None),
    ];
    for &(bytes, want) in cases {
        assert_eq!(interpret(bytes), want, "{bytes:02X?}");
        if let Some(i) = want {
            assert_eq!(i.len(), bytes.len());
            assert!(core::str::from_utf8(&bytes[..i.len()]).is_err());
        }
    }
}

// ---------------------------------------------------------------------------
// encode_utf8 refusals

#[test]
fn encode_refuses_surrogates_and_values_above_max() {
    assert_eq!(encode_utf8(0xD800), Err(EncodeError::Surrogate(0xD800)));
    assert_eq!(encode_utf8(0xDFFF), Err(EncodeError::Surrogate(0xDFFF)));
    assert_eq!(
        encode_utf8(0x11_0000),
        Err(EncodeError::AboveMax(0x11_0000))
    );
    assert_eq!(encode_utf8(u32::MAX), Err(EncodeError::AboveMax(u32::MAX)));
    assert_eq!(
        encode_utf8(0xD7FF).map(|e| e.as_str().to_owned()),
        Ok("\u{D7FF}".to_owned())
    );
    assert_eq!(
        encode_utf8(0xE000).map(|e| e.as_str().to_owned()),
        Ok("\u{E000}".to_owned())
    );
    assert_eq!(
        EncodeError::Surrogate(0xD800).to_string(),
        "U+D800 is a surrogate, not a scalar value"
    );
    assert_eq!(
        EncodeError::AboveMax(0x110000).to_string(),
        "U+110000 is above U+10FFFF"
    );
}

#[test]
fn error_kind_names_round_trip() {
    let names = [
        "unexpected_continuation",
        "invalid_lead_byte",
        "overlong",
        "surrogate",
        "above_max",
        "truncated",
    ];
    for (kind, name) in ErrorKind::ALL.into_iter().zip(names) {
        assert_eq!(kind.as_str(), name);
        assert_eq!(kind.to_string(), name);
        assert_eq!(ErrorKind::from_name(name), Some(kind));
    }
    assert_eq!(ErrorKind::from_name("Overlong"), None);
}
