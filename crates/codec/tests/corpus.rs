//! Conformance against the external corpus in `shared/corpus` (see its
//! README.md): Markus Kuhn's UTF-8-test.txt, the web-platform-tests UTF-8
//! decoder cases (one-shot and streaming) and flenniken/utf8tests.
//!
//! The corpus is found at `$UTF8LINT_CORPUS`, else at `../shared/corpus`
//! beside the workspace. When it is absent the tests print a notice and pass,
//! unless `UTF8LINT_REQUIRE_CORPUS=1` (as CI sets), which makes them fail.

use std::path::{Path, PathBuf};

use serde_json::Value;
use utf8lint_codec::{Event, Utf8Decoder, decode_lossy, from_utf8, subparts};

/// The corpus directory, or `None` (after a notice) when it is absent and not
/// required.
fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("UTF8LINT_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("UTF8LINT_REQUIRE_CORPUS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "conformance corpus not found at {} and UTF8LINT_REQUIRE_CORPUS=1",
        dir.display()
    );
    eprintln!(
        "conformance corpus not found at {}; set UTF8LINT_CORPUS to run these tests",
        dir.display()
    );
    None
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    let path = dir.join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read_json(dir: &Path, name: &str) -> Vec<Value> {
    let bytes = read(dir, name);
    match serde_json::from_slice(&bytes) {
        Ok(Value::Array(items)) => items,
        Ok(other) => panic!("{name}: expected a JSON array, got {other}"),
        Err(e) => panic!("{name}: {e}"),
    }
}

/// A string field, with surrounding blanks stripped.
fn field<'a>(item: &'a Value, name: &str) -> &'a str {
    item.get(name)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("missing string field {name:?} in {item}"))
        .trim()
}

fn unhex(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len().is_multiple_of(2), "odd hex string {hex:?}");
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).expect("hex is ASCII");
            u8::from_str_radix(text, 16).unwrap_or_else(|e| panic!("bad hex {hex:?}: {e}"))
        })
        .collect()
}

/// `["0041", "FFFD"]` as code points.
fn code_points(item: &Value, name: &str) -> Vec<u32> {
    item.get(name)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("missing array field {name:?} in {item}"))
        .iter()
        .map(|v| {
            let hex = v.as_str().expect("code point is a string").trim();
            u32::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("bad code point {hex:?}: {e}"))
        })
        .collect()
}

type Triple = (usize, usize, String);

/// `[{"offset", "len", "class"}]` as triples.
fn expected_errors(items: &[Value]) -> Vec<Triple> {
    items
        .iter()
        .map(|e| {
            let offset = e["offset"].as_u64().expect("offset") as usize;
            let len = e["len"].as_u64().expect("len") as usize;
            (offset, len, field(e, "class").to_owned())
        })
        .collect()
}

fn ours(bytes: &[u8]) -> Vec<Triple> {
    subparts(bytes)
        .map(|s| (s.offset, usize::from(s.len), s.kind.as_str().to_owned()))
        .collect()
}

fn chars_of(text: &str) -> Vec<u32> {
    text.chars().map(u32::from).collect()
}

/// Feeds `bytes` to a fresh streaming decoder `chunk` bytes at a time and
/// returns the errors it reported and its lossy text.
fn stream(bytes: &[u8], chunk: usize) -> (Vec<Triple>, String) {
    let mut decoder = Utf8Decoder::new();
    let mut errors = Vec::new();
    let mut text = String::new();
    let mut sink = |event: Event<'_>| match event {
        Event::Text(t) => text.push_str(t),
        Event::Error(s) => {
            errors.push((s.offset, usize::from(s.len), s.kind.as_str().to_owned()));
            text.push('\u{FFFD}');
        }
    };
    let mut pieces = bytes.chunks(chunk).peekable();
    if pieces.peek().is_none() {
        decoder.decode(&[], true, &mut sink);
    }
    while let Some(piece) = pieces.next() {
        decoder.decode(piece, pieces.peek().is_none(), &mut sink);
    }
    (errors, text)
}

#[test]
fn kuhn_stress_test() {
    let Some(dir) = corpus_dir() else { return };
    let input = read(&dir, "UTF-8-test.txt");
    let replaced = read(&dir, "UTF-8-test.replaced.txt");
    let want = expected_errors(&read_json(&dir, "UTF-8-test.errors.json"));
    assert_eq!(
        input.len(),
        22_781,
        "UTF-8-test.txt is not the expected copy"
    );
    assert_eq!(
        want.len(),
        378,
        "UTF-8-test.errors.json should list 378 subparts"
    );

    let got = ours(&input);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "subpart #{i}");
    }
    assert_eq!(got.len(), want.len(), "number of subparts");

    let lossy = decode_lossy(&input);
    assert!(
        lossy.as_bytes() == replaced.as_slice(),
        "decode_lossy differs from UTF-8-test.replaced.txt"
    );
    assert_eq!(lossy, String::from_utf8_lossy(&input), "std oracle");
    assert_eq!(lossy.matches('\u{FFFD}').count(), 379);

    let first = from_utf8(&input).expect_err("the file is ill-formed");
    assert!(!utf8lint_codec::validate_marking(&input, |_, _| {}));
    // Every line of the file that is well-formed alone, validated alone.
    for line in input.split(|&b| b == b'\n') {
        assert_eq!(
            utf8lint_codec::validate_marking(line, |_, _| {}),
            std::str::from_utf8(line).is_ok(),
            "validate_marking on line {:02X?}",
            line
        );
    }
    assert_eq!(first.valid_up_to(), want[0].0);
    assert_eq!(first.kind().as_str(), want[0].2);

    for chunk in [1, 7] {
        let (errors, text) = stream(&input, chunk);
        assert_eq!(errors, want, "streaming subparts, {chunk}-byte chunks");
        assert!(
            text.as_bytes() == replaced.as_slice(),
            "streaming lossy text, {chunk}-byte chunks"
        );
    }
}

#[test]
fn wpt_decode_cases() {
    let Some(dir) = corpus_dir() else { return };
    let cases = read_json(&dir, "wpt_utf8_decode_cases.json");
    assert_eq!(cases.len(), 47);
    for case in &cases {
        let id = field(case, "id");
        let bytes = unhex(field(case, "bytes_hex"));
        let expectation = field(case, "wpt_expectation");
        let want_errors =
            expected_errors(case["derived_errors"].as_array().expect("derived_errors"));

        let lossy = decode_lossy(&bytes);
        assert_eq!(
            chars_of(&lossy),
            code_points(case, "expected_codepoints_hex"),
            "{id}: lossy code points"
        );
        assert_eq!(ours(&bytes), want_errors, "{id}: subparts");

        let ok = from_utf8(&bytes).is_ok();
        assert_eq!(
            ok,
            want_errors.is_empty(),
            "{id}: from_utf8 vs derived_errors"
        );
        match expectation {
            "ok" => assert!(ok, "{id}: WPT expects a clean decode"),
            "fatal_error" => assert!(!ok, "{id}: WPT expects a fatal decoder to throw"),
            "equals" => {}
            other => panic!("{id}: unknown wpt_expectation {other:?}"),
        }
        assert_eq!(ok, std::str::from_utf8(&bytes).is_ok(), "{id}: core oracle");
        assert_eq!(
            ok,
            utf8lint_codec::validate_marking(&bytes, |_, _| {}),
            "{id}: validate_marking"
        );

        let (stream_errors, stream_text) = stream(&bytes, 1);
        assert_eq!(stream_errors, want_errors, "{id}: streaming subparts");
        assert_eq!(stream_text, lossy, "{id}: streaming lossy text");
    }
}

#[test]
fn wpt_streaming_cases() {
    let Some(dir) = corpus_dir() else { return };
    let sequences = read_json(&dir, "wpt_utf8_streaming_cases.json");
    assert_eq!(sequences.len(), 16);
    for sequence in &sequences {
        let id = field(sequence, "id");
        let mut decoder = Utf8Decoder::new();
        let steps = sequence["steps"].as_array().expect("steps");
        for (n, step) in steps.iter().enumerate() {
            let chunk = unhex(field(step, "chunk_hex"));
            let flush = step["flush_call"].as_bool().expect("flush_call");
            let streaming = step["stream"].as_bool().expect("stream");
            let mut got = Vec::new();
            let sink = |event: Event<'_>| match event {
                Event::Text(t) => got.extend(t.chars().map(u32::from)),
                Event::Error(_) => got.push(0xFFFD),
            };
            if flush {
                assert!(chunk.is_empty(), "{id} step {n}: a flush call has no chunk");
                decoder.decode(&[], true, sink);
            } else {
                decoder.decode(&chunk, !streaming, sink);
            }
            assert_eq!(
                got,
                code_points(step, "expected_codepoints_hex"),
                "{id} step {n}: code points output by this call"
            );
        }
        assert_eq!(
            decoder.pending_len(),
            0,
            "{id}: nothing held back at the end"
        );
    }
}

#[test]
fn flenniken_utf8tests() {
    let Some(dir) = corpus_dir() else { return };
    let rows = read_json(&dir, "flenniken-utf8tests.json");
    assert_eq!(rows.len(), 222);
    let (mut valid_rows, mut invalid_rows) = (0, 0);
    for row in &rows {
        let id = field(row, "id");
        let bytes = unhex(field(row, "bytes_hex"));
        let replaced = unhex(field(row, "expected_replace_utf8_hex"));
        let want_errors =
            expected_errors(row["derived_errors"].as_array().expect("derived_errors"));
        let valid = row["valid"].as_bool().expect("valid");

        let lossy = decode_lossy(&bytes);
        if valid {
            valid_rows += 1;
            assert!(from_utf8(&bytes).is_ok(), "{id}: valid row must validate");
            assert!(
                utf8lint_codec::validate_marking(&bytes, |_, _| {}),
                "{id}: valid row must validate (fused)"
            );
            assert_eq!(ours(&bytes), [], "{id}: valid row has no subparts");
            assert_eq!(lossy.as_bytes(), bytes, "{id}: valid row decodes to itself");
        } else {
            invalid_rows += 1;
            assert!(
                from_utf8(&bytes).is_err(),
                "{id}: invalid row must not validate"
            );
            assert!(
                !utf8lint_codec::validate_marking(&bytes, |_, _| {}),
                "{id}: invalid row must not validate (fused)"
            );
            assert_eq!(ours(&bytes), want_errors, "{id}: subparts");
        }
        assert_eq!(
            lossy.as_bytes(),
            replaced,
            "{id}: lossy bytes (REPLACE column)"
        );
        assert_eq!(
            chars_of(&lossy),
            code_points(row, "expected_codepoints_hex"),
            "{id}: lossy code points"
        );
        assert_eq!(lossy, String::from_utf8_lossy(&bytes), "{id}: std oracle");
        let (stream_errors, stream_text) = stream(&bytes, 1);
        assert_eq!(stream_errors, want_errors, "{id}: streaming subparts");
        assert_eq!(stream_text, lossy, "{id}: streaming lossy text");
    }
    assert_eq!((valid_rows, invalid_rows), (77, 145));
}
