//! Snapshot tests of the human format: one per rule and per U001 message
//! kind. Review a changed snapshot by eye before accepting it
//! (`INSTA_UPDATE=always cargo test -p utf8lint-diagnostics --test render`,
//! then read the diff in `tests/snapshots/`).

use std::path::Path;

use utf8lint_diagnostics::{
    BomPolicy, BomRule, CheckOptions, Level, Locator, Policy, PolicySource, RenderOptions, Rule,
    check, check_path, render_concise, render_human,
};

fn render_with(path: &str, bytes: &[u8], policy: &Policy) -> String {
    let diagnostics = check(bytes, CheckOptions::new(Path::new(path), policy));
    assert!(!diagnostics.is_empty(), "{path}: expected findings");
    let mut locator = Locator::new(bytes);
    let mut out = String::new();
    for d in &diagnostics {
        out.push_str(&render_human(
            d,
            bytes,
            path,
            &mut locator,
            &RenderOptions::default(),
        ));
        out.push_str("\n\n");
        let pos = locator.locate(d.span.start);
        out.push_str(&render_concise(d, path, &pos));
        out.push_str("\n\n");
    }
    out
}

fn render(path: &str, bytes: &[u8]) -> String {
    render_with(path, bytes, &Policy::default())
}

/// Valid multi-byte text around a run keeps `not_utf8` from claiming the file.
fn in_utf8_text(bytes: &[u8]) -> Vec<u8> {
    let mut v = "// café\nlet s = \"".as_bytes().to_vec();
    v.extend_from_slice(bytes);
    v.extend_from_slice(b"\";\n");
    v
}

macro_rules! snapshot {
    ($name:ident, $path:expr, $bytes:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), render($path, $bytes));
        }
    };
}

snapshot!(
    u001_overlong_dot_path_traversal,
    "src/paths.rs",
    &in_utf8_text(b"/\xC0\xAE\xC0\xAE/etc/passwd")
);
snapshot!(
    u001_overlong_three_byte_solidus,
    "a.txt",
    &in_utf8_text(b"\xE0\x80\xAF")
);
snapshot!(
    u001_overlong_nul_modified_utf8,
    "a.txt",
    &in_utf8_text(b"a\xC0\x80b")
);
snapshot!(
    u001_cesu8_pair,
    "a.txt",
    &in_utf8_text(b"\xED\xA1\x8C\xED\xBE\xB4")
);
snapshot!(u001_lone_surrogate, "a.txt", &in_utf8_text(b"\xED\xA0\x80"));
snapshot!(u001_above_max, "a.txt", &in_utf8_text(b"\xF4\x90\x80\x80"));
snapshot!(
    u001_rfc2279_five_byte,
    "a.txt",
    &in_utf8_text(b"\xF8\x88\x80\x80\x80")
);
snapshot!(
    u001_cut_short_by_a_letter,
    "a.txt",
    &in_utf8_text(b"\xE6\x97x")
);
snapshot!(
    u001_cut_short_by_end_of_file,
    "a.txt",
    &["日本語 \u{1F600} ".as_bytes(), b"\xF0\x9F\x98"].concat()
);
snapshot!(
    u001_stray_continuation_bytes,
    "a.txt",
    &in_utf8_text(b"\x80\x81")
);
snapshot!(u001_invalid_lead_bytes, "a.txt", &in_utf8_text(b"\xFF\xFE"));
snapshot!(u001_lone_latin1_byte, "a.txt", &in_utf8_text(b"na\xEFve"));
snapshot!(
    u001_overlong_cut_short,
    "a.txt",
    &in_utf8_text(b"\xE0\x80x")
);
snapshot!(
    u001_mixed_subparts,
    "a.txt",
    &in_utf8_text(b"\x80\xFF\xE2\x82")
);
snapshot!(
    u002_concatenation_seam,
    "notes.txt",
    "first file\n\u{FEFF}second file\n".as_bytes()
);
snapshot!(
    u002_inside_a_word,
    "notes.txt",
    "a wo\u{FEFF}rd\n".as_bytes()
);
snapshot!(u002_elsewhere, "notes.txt", "a \u{FEFF} b\n".as_bytes());
snapshot!(
    u003_json,
    "package.json",
    b"\xEF\xBB\xBF{\"name\": \"x\"}\n"
);
snapshot!(
    u003_shebang,
    "bin/tool",
    b"\xEF\xBB\xBF#!/usr/bin/env python3\nprint('hi')\n"
);
snapshot!(u005_utf16le_signature, "a.txt", b"\xFF\xFEh\x00i\x00\n\x00");
snapshot!(
    u005_utf16be_no_signature,
    "a.txt",
    b"\x00p\x00l\x00a\x00i\x00n\x00\n"
);
snapshot!(
    u007_replacement_character,
    "notes.txt",
    "saved from a lossy editor: caf\u{FFFD}\n".as_bytes()
);
snapshot!(
    u005_windows_1252,
    "menu.txt",
    b"Caf\xE9 cr\xE8me br\xFBl\xE9e\n"
);

#[test]
fn u003_from_editorconfig() {
    let policy = Policy {
        bom: Some(BomRule {
            policy: BomPolicy::Forbid,
            source: PolicySource::EditorConfig {
                path: ".editorconfig".into(),
                section: "[*]".into(),
                line: 4,
                value: "utf-8".into(),
            },
        }),
        ..Policy::default()
    };
    insta::assert_snapshot!(
        "u003_from_editorconfig",
        render_with("README.md", b"\xEF\xBB\xBF# Title\n", &policy)
    );
}

#[test]
fn u004_from_utf8lint_toml() {
    let policy = Policy {
        bom: Some(BomRule {
            policy: BomPolicy::Require,
            source: PolicySource::Config {
                path: "utf8lint.toml".into(),
                line: 6,
                key: "*.csv".into(),
            },
        }),
        ..Policy::default()
    };
    insta::assert_snapshot!(
        "u004_from_utf8lint_toml",
        render_with("data/cities.csv", b"name,city\n", &policy)
    );
}

#[cfg(unix)]
#[test]
fn u006_non_utf8_path() {
    use std::os::unix::ffi::OsStrExt;
    let path = Path::new(std::ffi::OsStr::from_bytes(b"docs/caf\xE9.txt"));
    let d = check_path(path, Level::Warn).unwrap();
    assert_eq!(d.rule, Rule::NonUtf8Path);
    let shown = path.to_string_lossy();
    let mut locator = Locator::new(b"");
    insta::assert_snapshot!(
        "u006_non_utf8_path",
        render_human(&d, b"", &shown, &mut locator, &RenderOptions::default())
    );
}

#[test]
fn summary_after_the_cap() {
    let policy = Policy {
        max_per_rule: 2,
        ..Policy::default()
    };
    let text = "é \u{FEFF}1 \u{FEFF}2 \u{FEFF}3 \u{FEFF}4\n";
    insta::assert_snapshot!(
        "summary_after_the_cap",
        render_with("a.txt", text.as_bytes(), &policy)
    );
}

#[test]
fn long_lines_are_cut_around_the_span() {
    let mut bytes = "é".repeat(3000).into_bytes();
    bytes.extend_from_slice(b"\xFF");
    bytes.extend_from_slice("ü".repeat(3000).as_bytes());
    let out = render("long.txt", &bytes);
    insta::assert_snapshot!("long_lines_are_cut_around_the_span", out);
}

#[test]
fn giant_lines_are_cut_and_still_located() {
    let mut bytes = "é".repeat(40_000).into_bytes();
    bytes.extend_from_slice(b"\xFF");
    bytes.extend_from_slice("ü".repeat(40_000).as_bytes());
    let out = render("giant.txt", &bytes);
    assert!(out.contains("giant.txt:1:40001"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() < 200), "{out}");
    insta::assert_snapshot!("giant_lines_are_cut_and_still_located", out);
}
