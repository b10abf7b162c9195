//! A file that declares its encoding is named that encoding, for every
//! encoding encoding_rs decodes (single-byte and CJK), and its conversion
//! gives back exactly the text it holds, with the declaration saying UTF-8.

use std::path::Path;

use encoding_rs::Encoding;
use utf8lint_diagnostics::{CheckOptions, Policy, Rule, apply_fixes, check};

/// Every encoding a declaration can name: all of encoding_rs's but UTF-8,
/// UTF-16, the replacement encoding, x-user-defined (bytes, not text) and
/// ISO-2022-JP (7-bit: its files are well-formed UTF-8).
const SINGLE_BYTE: [&Encoding; 28] = [
    encoding_rs::IBM866,
    encoding_rs::ISO_8859_2,
    encoding_rs::ISO_8859_3,
    encoding_rs::ISO_8859_4,
    encoding_rs::ISO_8859_5,
    encoding_rs::ISO_8859_6,
    encoding_rs::ISO_8859_7,
    encoding_rs::ISO_8859_8,
    encoding_rs::ISO_8859_8_I,
    encoding_rs::ISO_8859_10,
    encoding_rs::ISO_8859_13,
    encoding_rs::ISO_8859_14,
    encoding_rs::ISO_8859_15,
    encoding_rs::ISO_8859_16,
    encoding_rs::KOI8_R,
    encoding_rs::KOI8_U,
    encoding_rs::MACINTOSH,
    encoding_rs::WINDOWS_874,
    encoding_rs::WINDOWS_1250,
    encoding_rs::WINDOWS_1251,
    encoding_rs::WINDOWS_1252,
    encoding_rs::WINDOWS_1253,
    encoding_rs::WINDOWS_1254,
    encoding_rs::WINDOWS_1255,
    encoding_rs::WINDOWS_1256,
    encoding_rs::WINDOWS_1257,
    encoding_rs::WINDOWS_1258,
    encoding_rs::X_MAC_CYRILLIC,
];

/// Each CJK encoding with text in its language.
const CJK: [(&Encoding, &str); 6] = [
    (
        encoding_rs::SHIFT_JIS,
        "日本語の文章です。カタカナとひらがな。",
    ),
    (
        encoding_rs::EUC_JP,
        "日本語の文章です。カタカナとひらがな。",
    ),
    (encoding_rs::EUC_KR, "한국어 문장입니다. 한글과 漢字."),
    (encoding_rs::GBK, "这是中文文本，简体字。"),
    (encoding_rs::GB18030, "这是中文文本，简体字。"),
    (encoding_rs::BIG5, "這是中文文本，繁體字。"),
];

/// Each printable character of `encoding`'s upper half, a space after
/// each (so that no two bytes form UTF-8 by accident).
fn upper_half(encoding: &'static Encoding) -> String {
    let mut text = String::new();
    for byte in 0xA0..=0xFFu8 {
        if let Some(c) = encoding.decode_without_bom_handling_and_without_replacement(&[byte])
            && !c.chars().any(char::is_control)
        {
            text.push_str(&c);
            text.push(' ');
        }
    }
    text
}

/// Checks `text` written in `encoding` under each declaration syntax:
/// U005 names the encoding, and the fix writes the text back in UTF-8,
/// declaration and all.
fn named_and_converted(encoding: &'static Encoding, text: &str) {
    let name = encoding.name();
    let utf8 = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        "UTF-8"
    } else {
        "utf-8"
    };
    let forms = [
        (
            "a.xml",
            format!("<?xml version=\"1.0\" encoding=\"{name}\"?>\n<t>{text}</t>\n"),
            format!("<?xml version=\"1.0\" encoding=\"{utf8}\"?>\n<t>{text}</t>\n"),
        ),
        (
            "a.py",
            format!("# -*- coding: {name} -*-\ns = '{text}'\n"),
            format!("# -*- coding: {utf8} -*-\ns = '{text}'\n"),
        ),
    ];
    for (path, declared, want) in forms {
        let (bytes, _, unmappable) = encoding.encode(&declared);
        assert!(!unmappable, "{name}");
        let found = check(
            &bytes,
            CheckOptions::new(Path::new(path), &Policy::default()),
        );
        let d = found
            .iter()
            .find(|d| d.rule == Rule::NotUtf8)
            .unwrap_or_else(|| panic!("{name} in {path}: no U005 in {found:#?}"));
        let fix = d.fix.as_ref().unwrap_or_else(|| panic!("{name}: no fix"));
        assert_eq!(fix.transcoded_from(), Some(name), "{path}");
        let fixed = apply_fixes(&bytes, [fix]).bytes;
        assert_eq!(String::from_utf8_lossy(&fixed), want, "{name} in {path}");
        // Settled: the converted file has nothing left of these rules.
        let again = check(
            &fixed,
            CheckOptions::new(Path::new(path), &Policy::default()),
        );
        assert!(
            again.iter().all(|d| !matches!(
                d.rule,
                Rule::InvalidUtf8 | Rule::NotUtf8 | Rule::CharsetMismatch
            )),
            "{name} in {path}: {again:#?}"
        );
    }
}

#[test]
fn every_single_byte_encoding_declared_is_named_and_converted_exactly() {
    for encoding in SINGLE_BYTE {
        named_and_converted(encoding, &upper_half(encoding));
    }
}

#[test]
fn every_cjk_encoding_declared_is_named_and_converted_exactly() {
    for (encoding, text) in CJK {
        named_and_converted(encoding, text);
    }
}

/// Names outside WHATWG's labels: Java's `MacCyrillic` is followed and
/// converted; `IBM855` and `cp850`, which the decoder cannot read, are
/// reported as declared but not supported, with no fix.
#[test]
fn names_outside_whatwg_labels_are_followed_or_refused() {
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n".repeat(10);
    let (body, _, _) = encoding_rs::X_MAC_CYRILLIC.encode(&text);
    let mut bytes = b"<?xml version=\"1.0\" encoding=\"MacCyrillic\"?>\n<t>".to_vec();
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(b"</t>\n");
    let found = check(
        &bytes,
        CheckOptions::new(Path::new("a.xml"), &Policy::default()),
    );
    let d = found
        .iter()
        .find(|d| d.rule == Rule::NotUtf8)
        .expect("U005");
    let fix = d.fix.as_ref().expect("a conversion");
    assert_eq!(
        fix.transcoded_from(),
        Some("x-mac-cyrillic"),
        "{}",
        d.message
    );
    for (name, usual) in [("IBM855", "IBM855"), ("cp850", "IBM850")] {
        let mut bytes = format!("<?xml version=\"1.0\" encoding=\"{name}\"?>\n<t>").into_bytes();
        bytes.extend_from_slice(&body);
        bytes.extend_from_slice(b"</t>\n");
        let found = check(
            &bytes,
            CheckOptions::new(Path::new("a.xml"), &Policy::default()),
        );
        let d = found
            .iter()
            .find(|d| d.rule == Rule::NotUtf8)
            .expect("U005");
        assert!(d.fix.is_none(), "{name}: {}", d.message);
        assert!(
            d.notes.iter().any(|n| n.contains(&format!(
                "`{name}` ({usual}): declared but not supported here"
            ))),
            "{name}: {:?}",
            d.notes
        );
    }
}
