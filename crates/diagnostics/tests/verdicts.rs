//! The U005 verdict model: UTF-8 first, binary is binary, and a legacy
//! verdict only on evidence. Each threshold is pinned from both sides.

use std::path::Path;

use utf8lint_diagnostics::{
    BinaryEvidence, MIN_BINARY_CONTROL_PERCENT, MIN_LEGACY_LETTER_PERCENT, MIN_LEGACY_NON_ASCII,
    Policy, Rule, Sniff, apply_fixes, check, sniff,
};

fn is_legacy(bytes: &[u8]) -> bool {
    let ds = check(bytes, Path::new("a.txt"), &Policy::default());
    ds.iter().any(|d| d.rule == Rule::NotUtf8)
}

#[test]
fn the_thresholds_are_the_documented_ones() {
    assert_eq!(MIN_LEGACY_NON_ASCII, 4);
    assert_eq!(MIN_LEGACY_LETTER_PERCENT, 80);
    assert_eq!(MIN_BINARY_CONTROL_PERCENT, 10);
}

#[test]
fn a_legacy_verdict_needs_enough_non_ascii_bytes() {
    // windows-1252 French: three accented letters are defects, four a verdict.
    let three = b"Le caf\xE9 cr\xE8me est br\xFBl\n";
    let four = b"Le caf\xE9 cr\xE8me est br\xFBl\xE9\n";
    assert!(!is_legacy(three));
    assert!(is_legacy(four));
    // The cases: two stray bytes are not Turkish.
    assert!(!is_legacy(b"ok \xFF\xFE bytes\n"));
}

#[test]
fn a_character_cut_at_the_end_is_utf8_with_a_defect() {
    for bytes in [
        &b"price: 5 \xE2\x82"[..],
        b"smile \xF0\x9F\x98",
        b"x = 'caf\xC3",
    ] {
        let ds = check(bytes, Path::new("a.txt"), &Policy::default());
        assert!(
            ds.iter().all(|d| d.rule == Rule::InvalidUtf8) && !ds.is_empty(),
            "{bytes:02X?}: {ds:#?}"
        );
    }
}

#[test]
fn a_legacy_verdict_needs_letters() {
    // Four letters and one symbol (80%) pass; three letters and one symbol (75%) do not.
    let eighty = b"Le caf\xE9 cr\xE8me br\xFBl\xE9 \xA7 1\n";
    let seventy_five = b"Le caf\xE9 cr\xE8me br\xFBl \xA7 1\n";
    assert!(is_legacy(eighty));
    assert!(!is_legacy(seventy_five));
    // Symbols only: broken bytes, not words.
    assert!(!is_legacy(b"x \xA7\xA9\xAE\xB0\xB1 y\n"));
}

fn latin_with_controls(control: usize) -> Vec<u8> {
    let text = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e. ";
    let mut out: Vec<u8> = text.iter().copied().cycle().take(1000 - control).collect();
    // Spread the control bytes through the text, as binary data has them.
    for i in 0..control {
        out.insert(i * 9 % out.len(), 0x01);
    }
    out
}

#[test]
fn control_bytes_in_quantity_make_a_file_binary() {
    // 1000 bytes: 90 control bytes (9%) is still text, 100 (10%) is binary.
    assert!(is_legacy(&latin_with_controls(90)));
    assert!(!is_legacy(&latin_with_controls(100)));
    // The same threshold makes the binary sniff skip the file when walked.
    assert_eq!(sniff(&latin_with_controls(90)), Sniff::Text);
    assert_eq!(
        sniff(&latin_with_controls(100)),
        Sniff::Binary(BinaryEvidence::ControlBytes { percent: 10 })
    );
}

#[test]
fn a_float_array_is_never_transcoded() {
    // float32 values without NUL bytes, like wasmtime's kitten.tensor.
    let mut bytes = Vec::new();
    for i in 1..20_000u32 {
        let f = 0.001f32 + i as f32 * 0.000_37;
        bytes.extend(f.to_le_bytes().map(|b| b.max(1)));
    }
    let ds = check(&bytes, Path::new("kitten.tensor"), &Policy::default());
    assert!(
        ds.iter().all(|d| d.rule != Rule::NotUtf8),
        "{:?}",
        ds.first()
    );
}

#[test]
fn the_legacy_fix_round_trips() {
    let latin = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e.\n";
    let ds = check(latin, Path::new("a.txt"), &Policy::default());
    let fixed = apply_fixes(latin, [ds[0].fix.as_ref().unwrap()]).bytes;
    let back = encoding_rs::WINDOWS_1252
        .encode(std::str::from_utf8(&fixed).unwrap())
        .0;
    assert_eq!(&back[..], &latin[..]);
}

#[test]
fn a_nul_free_tensor_is_skipped_as_binary() {
    // The head of wasmtime's `kitten.tensor` (float32 values near 2.25:
    // `1D EE 0F 40`), half control bytes and no NUL: the CLI and the server
    // skip it as binary instead of reporting every `\xEE`.
    let bytes: Vec<u8> = (0..4096u32)
        .flat_map(|i| [0x1D, 0xE0 + (i % 16) as u8, 0x0F, 0x40])
        .collect();
    assert_eq!(
        sniff(&bytes),
        Sniff::Binary(BinaryEvidence::ControlBytes { percent: 50 })
    );
}
