//! Whatever the bytes, checking and rendering never panic, spans stay in
//! bounds, and output stays bounded.

use std::path::Path;

use proptest::prelude::*;
use utf8lint_diagnostics::{
    CheckOptions, Locator, Policy, RenderOptions, apply_fixes, check, render_human,
};

fn utf8ish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => "[a-z \\n]{1,8}".prop_map(String::into_bytes),
        2 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
        2 => proptest::collection::vec(any::<u8>(), 1..4),
        1 => Just(b"\xEF\xBB\xBF".to_vec()),
        1 => Just(b"\xED\xA1\x8C\xED\xBE\xB4".to_vec()),
        1 => Just(b"\xC0\xAE".to_vec()),
        1 => Just(vec![0u8]),
    ];
    proptest::collection::vec(piece, 0..64).prop_map(|v| v.concat())
}

/// Pieces of gettext catalogues and the words U016 reads beside their
/// entries (keys, kept literals, slips), cut anywhere: inside a string, at
/// a keyword, at the file's end.
fn catalogue_pieces() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "msgid \"", "msgstr \"", "msgstr[0] \"", "#~ msgid \"", "#~ msgstr \"",
            "msgid_plural \"", "\"", "\"\n", "\n", "\n\n", "#: x.c:1\n", "\\", "%s", "%",
        ])
        .prop_map(String::from),
        3 => prop::sample::select(vec![
            "Iнодов", "IИспользовано", "Inodes", "IUsed", "aрозширений", "aextended", "bblock",
            "bблок", "Iillegal", "Iзаборонений", "Gabon", "Gабон", "<sрозмір>", "csН", "csN",
            "pабота", "МетодHTTP", "HTTPMethod", "EΚΦΡΑΣΗ", "Р&eгулярний", " ",
        ])
        .prop_map(String::from),
        1 => any::<char>().prop_map(|c| c.to_string()),
    ];
    proptest::collection::vec(piece, 0..48).prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn check_any_catalogue(bytes in catalogue_pieces()) {
        let path = Path::new("uk.po");
        let diagnostics = check(&bytes, CheckOptions::new(path, &Policy::default()));
        for d in &diagnostics {
            prop_assert!(d.span.start <= d.span.end && d.span.end <= bytes.len(), "{:?}", d.span);
        }
    }

    #[test]
    fn check_and_render_any_bytes(bytes in utf8ish(), name in prop_oneof!["a.txt", "a.json", "run.sh", "x"]) {
        let path = Path::new(&name);
        let diagnostics = check(&bytes, CheckOptions::new(path, &Policy::default()));
        let mut locator = Locator::new(&bytes);
        for d in &diagnostics {
            prop_assert!(d.span.start <= d.span.end && d.span.end <= bytes.len(), "{:?}", d.span);
            let out = render_human(d, &bytes, &name, &mut locator, &RenderOptions { color: true, term_width: 40, ..RenderOptions::default() });
            prop_assert!(out.contains(d.rule.code()));
        }
        let fixes: Vec<_> = diagnostics.iter().filter_map(|d| d.fix.as_ref()).collect();
        let applied = apply_fixes(&bytes, fixes);
        // Whatever was applied, checking the result again is fine too.
        let _ = check(&applied.bytes, CheckOptions::new(path, &Policy::default()));
    }

    #[test]
    fn random_bytes_anywhere(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let diagnostics = check(&bytes, CheckOptions::new(Path::new("r.bin"), &Policy::default()));
        prop_assert!(diagnostics.len() <= 6 * 51);
        let mut locator = Locator::new(&bytes);
        for d in &diagnostics {
            let _ = render_human(d, &bytes, "r.bin", &mut locator, &RenderOptions::default());
        }
    }
}
