//! What `check` finds, rule by rule, and that fixes remove what they fix.

use std::path::Path;

use utf8lint_codec::ErrorKind;
use utf8lint_diagnostics::{
    Applicability, BomPolicy, BomRule, CheckOptions, Diagnostic, Level, Policy, PolicySource, Rule,
    apply_fixes, check,
};

fn run(bytes: &[u8], path: &str) -> Vec<Diagnostic> {
    check(
        bytes,
        CheckOptions::new(Path::new(path), &Policy::default()),
    )
}

fn run_with(bytes: &[u8], path: &str, policy: &Policy) -> Vec<Diagnostic> {
    check(bytes, CheckOptions::new(Path::new(path), policy))
}

fn summary(ds: &[Diagnostic]) -> Vec<(&'static str, std::ops::Range<usize>)> {
    ds.iter().map(|d| (d.rule.code(), d.span.clone())).collect()
}

#[test]
fn clean_text_has_no_findings() {
    assert!(run(b"", "a.txt").is_empty());
    assert!(run("plain ASCII\ncafé 😀 𣎴\n".as_bytes(), "a.txt").is_empty());
    // A leading BOM is fine in plain text.
    assert!(run(b"\xEF\xBB\xBFhello\n", "a.txt").is_empty());
}

#[test]
fn u001_groups_adjacent_subparts_and_keeps_them_for_machines() {
    let ds = run(b"a\xC0\xAEb", "a.txt");
    assert_eq!(summary(&ds), [("U001", 1..3)]);
    let d = &ds[0];
    assert_eq!(d.level, Level::Deny);
    assert_eq!(d.message, "overlong 2-byte encoding of U+002E FULL STOP");
    assert_eq!(d.label, "`\\xC0\\xAE`");
    let kinds: Vec<_> = d
        .subparts
        .iter()
        .map(|s| (s.offset, s.len, s.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            (1, 1, ErrorKind::InvalidLeadByte),
            (2, 1, ErrorKind::UnexpectedContinuation)
        ]
    );
    assert!(d.notes.iter().any(|n| n.contains("RFC 3629 section 10")));
}

#[test]
fn u001_messages_for_every_kind_of_run() {
    let cases: &[(&[u8], &str)] = &[
        (b"\xC0\xAF", "overlong 2-byte encoding of U+002F SOLIDUS"),
        (
            b"\xE0\x80\xAF",
            "overlong 3-byte encoding of U+002F SOLIDUS",
        ),
        (
            b"\xF8\x80\x80\x80\xAF",
            "overlong RFC 2279 5-byte encoding of U+002F SOLIDUS",
        ),
        (
            b"\xED\xA1\x8C\xED\xBE\xB4",
            "CESU-8 surrogate pair for U+233B4 `𣎴`",
        ),
        (
            b"\xED\xA0\x80",
            "UTF-16 surrogate U+D800 (a high surrogate) encoded as UTF-8",
        ),
        (
            b"\xF4\x90\x80\x80",
            "4-byte form of U+110000, beyond U+10FFFF",
        ),
        (
            b"\xF8\x88\x80\x80\x80",
            "RFC 2279 5-byte form of U+200000, beyond U+10FFFF",
        ),
        (
            b"\xFC\x84\x80\x80\x80\x80",
            "RFC 2279 6-byte form of U+4000000, beyond U+10FFFF",
        ),
        (b"\xE6\x97x", "3-byte sequence cut short"),
        (b"\x80\x80", "2 stray continuation bytes"),
        (b"\x80", "stray continuation byte"),
        (b"\xFF", "byte `\\xFF` never appears in UTF-8"),
        (b"\xFF\xFE\xFF", "3 bytes that never appear in UTF-8"),
        (b"\xE0\x80x", "overlong 3-byte form cut short after 2 bytes"),
        (
            b"\xED\xA0",
            "encoded UTF-16 surrogate cut short after 2 bytes",
        ),
        (
            b"\xF8\x88\x80",
            "RFC 2279 5-byte form cut short after 3 bytes",
        ),
        (
            b"\x80\xFF\xE2\x82",
            "ill-formed UTF-8: 4 bytes in 3 maximal subparts",
        ),
        (b"\xF0\x9F\xE2\x82", "2 sequences cut short"),
    ];
    for (bytes, want) in cases {
        // Valid multi-byte text around the run keeps `not_utf8` out of it.
        let mut input = "é ".as_bytes().to_vec();
        input.extend_from_slice(bytes);
        input.extend_from_slice(" é".as_bytes());
        let ds = run(&input, "a.txt");
        assert_eq!(ds.len(), 1, "{bytes:02X?}: {ds:#?}");
        assert_eq!(ds[0].rule, Rule::InvalidUtf8);
        assert_eq!(ds[0].message, *want, "{bytes:02X?}");
        let fix = ds[0].fix.as_ref().unwrap();
        assert_eq!(fix.applicability(), Applicability::Unsafe);
    }
}

#[test]
fn u001_two_readings_side_by_side_are_two_diagnostics() {
    let ds = run(
        "é \u{0}"
            .replace('\u{0}', "")
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"\xC0\xAE\xC0\xAE")
            .collect::<Vec<_>>()
            .as_slice(),
        "a.txt",
    );
    assert_eq!(summary(&ds), [("U001", 3..5), ("U001", 5..7)]);
}

#[test]
fn u002_line_start_word_and_elsewhere() {
    let text = "a\n\u{FEFF}b wo\u{FEFF}rd x \u{FEFF} y";
    let ds = run(text.as_bytes(), "a.txt");
    let codes: Vec<_> = ds.iter().map(|d| (d.rule.code(), d.span.start)).collect();
    assert_eq!(codes, [("U002", 2), ("U002", 9), ("U002", 17)]);
    assert_eq!(ds[0].level, Level::Warn);
    assert!(ds[0].message.contains("start of a line"));
    assert_eq!(
        ds[0].fix.as_ref().unwrap().applicability(),
        Applicability::Safe
    );
    assert!(ds[1].message.contains("word joiner"));
    let fix = ds[1].fix.as_ref().unwrap();
    assert_eq!(fix.applicability(), Applicability::Unsafe);
    assert_eq!(fix.edits()[0].literal(), Some("\u{2060}".as_bytes()));
    assert_eq!(
        ds[2].fix.as_ref().unwrap().edits()[0].literal(),
        Some(&b""[..])
    );
    // The leading BOM is not a stray one.
    assert!(run("\u{FEFF}x".as_bytes(), "a.txt").is_empty());
}

#[test]
fn u003_built_in_formats_and_safe_fix() {
    let ds = run(b"\xEF\xBB\xBF{\"a\":1}", "data.json");
    assert_eq!(summary(&ds), [("U003", 0..3)]);
    assert_eq!(ds[0].message, "JSON forbids a byte-order mark");
    assert!(matches!(
        ds[0].policy_source,
        Some(PolicySource::Builtin { format: "JSON", .. })
    ));
    assert_eq!(
        ds[0].fix.as_ref().unwrap().applicability(),
        Applicability::Safe
    );
    let ds = run(b"\xEF\xBB\xBF#!/bin/sh\necho hi\n", "tool");
    assert_eq!(summary(&ds), [("U003", 0..3)]);
    assert!(ds[0].message.contains("`#!`"));
    // With invalid bytes after it, stripping is unsafe.
    let ds = run(
        "\u{FEFF}{\"é\":\""
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"\xFF\"}")
            .collect::<Vec<_>>()
            .as_slice(),
        "d.json",
    );
    assert_eq!(ds[0].rule, Rule::ForbiddenBom);
    assert_eq!(
        ds[0].fix.as_ref().unwrap().applicability(),
        Applicability::Unsafe
    );
}

fn bom_policy(policy: BomPolicy, source: PolicySource) -> Policy {
    Policy {
        bom: Some(BomRule { policy, source }),
        ..Policy::default()
    }
}

#[test]
fn u003_and_u004_name_their_source() {
    let ec = PolicySource::EditorConfig {
        path: ".editorconfig".into(),
        section: "[*]".into(),
        line: 3,
        value: "utf-8".into(),
    };
    let ds = run_with(
        b"\xEF\xBB\xBFx",
        "a.txt",
        &bom_policy(BomPolicy::Forbid, ec),
    );
    assert_eq!(
        ds[0].message,
        "`.editorconfig` says charset = utf-8, which means no byte-order mark"
    );
    assert!(
        ds[0].notes[0].contains(".editorconfig section `[*]` line 3"),
        "{:?}",
        ds[0].notes
    );

    let toml = PolicySource::Config {
        path: "utf8lint.toml".into(),
        line: 7,
        key: "*.csv".into(),
    };
    let ds = run_with(b"a,b\n", "x.csv", &bom_policy(BomPolicy::Require, toml));
    assert_eq!(summary(&ds), [("U004", 0..0)]);
    assert_eq!(ds[0].level, Level::Warn);
    assert!(
        ds[0]
            .message
            .contains("utf8lint.toml requires a byte-order mark for `*.csv`")
    );
    assert!(ds[0].notes[0].contains("utf8lint.toml line 7"));
    let fix = ds[0].fix.as_ref().unwrap();
    assert_eq!(fix.applicability(), Applicability::Safe);
    assert_eq!(apply_fixes(b"a,b\n", [fix]).bytes, b"\xEF\xBB\xBFa,b\n");
    // Allowed: nothing either way.
    let allow = bom_policy(
        BomPolicy::Allow,
        PolicySource::CommandLine { flag: "x".into() },
    );
    assert!(run_with(b"\xEF\xBB\xBF{}", "a.json", &allow).is_empty());
}

#[test]
fn u005_wide_files_by_signature_and_by_nul_pattern() {
    let utf16le: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain("héllo wörld\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let ds = run(&utf16le, "a.txt");
    assert_eq!(summary(&ds), [("U005", 0..2)]);
    assert_eq!(ds[0].message, "this file is UTF-16LE, not UTF-8");
    let fix = ds[0].fix.as_ref().unwrap();
    assert_eq!(
        apply_fixes(&utf16le, [fix]).bytes,
        "héllo wörld\n".as_bytes()
    );

    let utf16be: Vec<u8> = "plain text without a mark\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let ds = run(&utf16be, "a.txt");
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].message, "this file is UTF-16BE, not UTF-8");
    assert!(ds[0].notes[0].contains("NUL"));

    let utf32le: Vec<u8> = b"\xFF\xFE\x00\x00"
        .iter()
        .copied()
        .chain("hi 😀\n".chars().flat_map(|c| (c as u32).to_le_bytes()))
        .collect();
    let ds = run(&utf32le, "a.txt");
    assert_eq!(ds[0].message, "this file is UTF-32LE, not UTF-8");
    assert_eq!(
        apply_fixes(&utf32le, [ds[0].fix.as_ref().unwrap()]).bytes,
        "hi 😀\n".as_bytes()
    );
}

#[test]
fn u005_legacy_files_and_the_allow_switch() {
    let latin = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e.\n";
    let ds = run(latin, "a.txt");
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].rule, Rule::NotUtf8);
    assert!(ds[0].message.contains("windows-1252"), "{}", ds[0].message);
    assert_eq!(ds[0].related.len(), 4);
    let fixed = apply_fixes(latin, [ds[0].fix.as_ref().unwrap()]).bytes;
    assert_eq!(
        fixed,
        "Le café est crème, la crêpe est brûlée.\n".as_bytes()
    );
    assert!(run(&fixed, "a.txt").is_empty());

    // not_utf8 allowed: the file is legacy on purpose, and its bytes read
    // as UTF-8 (five U001 runs) say nothing either.
    let mut policy = Policy::default();
    policy.levels.set(Rule::NotUtf8, Level::Allow);
    let ds = run_with(latin, "a.txt", &policy);
    assert!(ds.is_empty(), "{ds:#?}");

    // Real UTF-8 with one bad byte is U001, not a legacy file.
    let mostly = "Grüße aus Köln, 東京 "
        .as_bytes()
        .iter()
        .copied()
        .chain(*b"\xFF end")
        .collect::<Vec<_>>();
    assert_eq!(run(&mostly, "a.txt")[0].rule, Rule::InvalidUtf8);
}

#[test]
fn u007_every_replacement_character_in_valid_and_invalid_files() {
    let ds = run("caf\u{FFFD} \u{FFFD}\n".as_bytes(), "a.txt");
    assert_eq!(summary(&ds), [("U007", 3..6), ("U007", 7..10)]);
    assert_eq!(ds[0].level, Level::Warn);
    assert!(ds[0].fix.is_none());
    // Beside ill-formed bytes (and across the scan's block edges).
    let mut bytes = "é".repeat(65_535).into_bytes();
    bytes.extend_from_slice("\u{FFFD}".as_bytes());
    bytes.extend_from_slice(b" \xFF ");
    let ds = run(&bytes, "a.txt");
    assert_eq!(
        summary(&ds),
        [("U007", 131_070..131_073), ("U001", 131_074..131_075)]
    );
    let mut policy = Policy::default();
    policy.levels.set(Rule::ReplacementCharacter, Level::Allow);
    assert!(run_with("\u{FFFD}".as_bytes(), "a.txt", &policy).is_empty());
}

#[test]
fn marks_cut_by_every_block_edge_are_found_once() {
    for shift in 0..4 {
        let mut bytes = vec![b'a'; 128 * 1024 - shift];
        bytes.extend_from_slice("\u{FEFF}x\u{FFFD}".as_bytes());
        let ds = run(&bytes, "a.txt");
        assert_eq!(ds.len(), 2, "shift {shift}: {ds:#?}");
        // The same with an error, so the error path's blocks are used too.
        bytes.extend_from_slice("é".as_bytes());
        bytes.push(0xFF);
        let ds = run(&bytes, "a.txt");
        let rules: Vec<_> = ds.iter().map(|d| d.rule.code()).collect();
        assert_eq!(rules, ["U002", "U007", "U001"], "shift {shift}");
    }
}

#[test]
fn charset_other_reports_nothing() {
    let policy = Policy {
        charset: utf8lint_diagnostics::Charset::Other {
            name: "latin1".into(),
            source: PolicySource::CommandLine { flag: "x".into() },
        },
        ..Policy::default()
    };
    assert!(run_with(b"caf\xE9 \xEF\xBB\xBF", "a.json", &policy).is_empty());
}

#[test]
fn levels_apply_and_allow_removes() {
    let mut policy = Policy::default();
    policy.levels.set(Rule::StrayFeff, Level::Deny);
    policy.levels.set(Rule::InvalidUtf8, Level::Allow);
    let ds = run_with(
        "é x\u{FEFF} "
            .as_bytes()
            .iter()
            .copied()
            .chain(*b"\xFF")
            .collect::<Vec<_>>()
            .as_slice(),
        "a.txt",
        &policy,
    );
    assert_eq!(summary(&ds), [("U002", 4..7)]);
    assert_eq!(ds[0].level, Level::Deny);
}

#[test]
fn output_is_capped_per_rule_with_one_summary() {
    // 1,000 separate bad bytes in valid UTF-8 text, 1,000 stray U+FEFF.
    let mut bytes = "ü".as_bytes().repeat(10);
    for _ in 0..1000 {
        bytes.extend_from_slice(b"a\xFFb\xEF\xBB\xBF ");
    }
    let ds = run(&bytes, "a.txt");
    let u001: Vec<_> = ds.iter().filter(|d| d.rule == Rule::InvalidUtf8).collect();
    let u002: Vec<_> = ds.iter().filter(|d| d.rule == Rule::StrayFeff).collect();
    assert_eq!(u001.len(), 51);
    assert_eq!(u002.len(), 51);
    let last = u001.last().unwrap();
    assert_eq!(
        last.message,
        "950 more ill-formed sequences in this file not shown"
    );
    assert!(
        u002.last()
            .unwrap()
            .message
            .starts_with("950 more `stray_feff` findings")
    );
    // No cap.
    let policy = Policy {
        max_per_rule: 0,
        ..Policy::default()
    };
    assert_eq!(run_with(&bytes, "a.txt", &policy).len(), 2000);
}

#[test]
fn a_hostile_run_is_split_and_bounded() {
    let mut bytes = "ü".as_bytes().repeat(100_000);
    bytes.extend(std::iter::repeat_n(0x80u8, 1_000_000));
    let mut policy = Policy::default();
    policy.levels.set(Rule::NotUtf8, Level::Allow);
    let ds = run_with(&bytes, "a.txt", &policy);
    assert!(ds.len() <= 51);
    assert!(ds.iter().all(|d| d.subparts.len() <= 256));
    assert_eq!(ds[0].message, "256 stray continuation bytes");
    assert_eq!(
        ds.last().unwrap().message,
        "987200 more ill-formed sequences in this file not shown"
    );
}

#[test]
fn overlong_and_cesu_runs_are_never_taken_for_a_legacy_file() {
    // Plain ASCII around them: a legacy detector alone would call this windows-1252.
    for bytes in [
        &b"a/\xC0\xAE\xC0\xAE/b"[..],
        b"x \xED\xA1\x8C\xED\xBE\xB4 y",
        b"\xE0\x80\xAF",
    ] {
        let ds = run(bytes, "a.txt");
        assert!(
            ds.iter().all(|d| d.rule == Rule::InvalidUtf8),
            "{bytes:02X?}: {ds:#?}"
        );
    }
}

#[test]
fn fixes_remove_what_they_fix() {
    let inputs: &[(&[u8], &str)] = &[
        (b"\xEF\xBB\xBF{\"k\": \"v\"}\n", "a.json"),
        ("x\n\u{FEFF}y wo\u{FEFF}rd \u{FEFF}.".as_bytes(), "a.txt"),
        (
            b"\xC3\xA9 \xC0\xAE \xED\xA1\x8C\xED\xBE\xB4 \xE6\x97x \xFF\xFE \x80",
            "a.txt",
        ),
        (b"na\xEFve caf\xE9\n", "a.txt"),
    ];
    for (bytes, path) in inputs {
        for unsafe_too in [false, true] {
            let before = run(bytes, path);
            let fixes: Vec<_> = before
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .filter(|f| unsafe_too || f.applicability() == Applicability::Safe)
                .collect();
            let fixed_rules: Vec<Rule> = before
                .iter()
                .filter(|d| d.fix.as_ref().is_some_and(|f| fixes.contains(&f)))
                .map(|d| d.rule)
                .collect();
            let applied = apply_fixes(bytes, fixes.iter().copied());
            assert!(applied.skipped.is_empty(), "{path}: overlapping fixes");
            let after = run(&applied.bytes, path);
            let remaining: Vec<Rule> = after.iter().map(|d| d.rule).collect();
            if unsafe_too {
                // Replacing ill-formed bytes with U+FFFD leaves exactly that
                // behind, and U007 says so; nothing else remains.
                assert!(
                    after.iter().all(|d| d.rule == Rule::ReplacementCharacter),
                    "{path}: {after:#?}"
                );
            } else {
                for d in &after {
                    // Whatever is left had no safe fix.
                    assert!(
                        !fixed_rules.contains(&d.rule) || d.rule == Rule::StrayFeff,
                        "{path}: {remaining:?}"
                    );
                }
                assert!(after.len() < before.len() || fixes.is_empty(), "{path}");
            }
        }
    }
}

/// Latin bytes inside UTF-8 text: the repair never writes a letter, since
/// no high byte reads alike in the Latin code pages and the DOS ones
/// (`\xE9` is `é` in windows-1252, `Θ` in CP437; `\x94` is `”` and `ö`):
/// U+FFFD, with the readings as a note for a person to choose.
#[test]
fn latin_bytes_inside_words_get_u_fffd_and_their_readings() {
    for (bytes, want, reading) in [
        (
            &b"caf\xE9 au lait"[..],
            "caf\u{FFFD} au lait",
            "`é` in windows-1252",
        ),
        (b"Schr\x94der", "Schr\u{FFFD}der", "`ö` in CP437"),
        (b"\x93quoted", "\u{FFFD}quoted", "`“` in windows-1252"),
        (b"price \x80 5", "price \u{FFFD} 5", "`€` in windows-1252"),
        (
            b"ok \xFF ok",
            "ok \u{FFFD} ok",
            "`ÿ` in windows-1252, `˙` in windows-1250",
        ),
    ] {
        let found = run(bytes, "a.txt");
        let fixed = apply_fixes(bytes, found.iter().filter_map(|d| d.fix.as_ref())).bytes;
        assert_eq!(String::from_utf8(fixed).unwrap(), want, "{bytes:?}");
        assert!(found.iter().all(|d| d.alternatives.is_empty()));
        assert!(
            found
                .iter()
                .any(|d| d.notes.iter().any(|n| n.contains(reading))),
            "{bytes:?}: {:?}",
            found.iter().map(|d| &d.notes).collect::<Vec<_>>()
        );
    }
}

/// On a valid file the validator tells the search for `utf8lint:` where to
/// look: a suppression anywhere, across its 4 KiB blocks and after any
/// text, is still found, used or reported unused.
#[test]
fn suppressions_are_found_anywhere_in_a_large_valid_file() {
    for fill in ["a", "é", "語", "8"] {
        for at in [0, 1, 60, 64, 4085, 4090, 4093, 4096, 4100, 8190, 12_287] {
            let mut head: String = fill.repeat(at / fill.len() + 1);
            while head.len() > at {
                head.pop();
            }
            head.push('\n');
            let tail = format!("{}\n", fill.repeat(6000 / fill.len()));
            // Alone on its line, the suppression covers the next one.
            let used = format!("{head}# utf8lint: allow(U011)\ny\u{200B}z\n{tail}");
            assert!(
                run(used.as_bytes(), "a.txt").is_empty(),
                "{fill:?} at {at}: {:?}",
                summary(&run(used.as_bytes(), "a.txt"))
            );
            let unsuppressed = format!("{head}x\ny\u{200B}z\n{tail}");
            assert_eq!(
                summary(&run(unsuppressed.as_bytes(), "a.txt"))
                    .iter()
                    .map(|s| s.0)
                    .collect::<Vec<_>>(),
                ["U011"],
                "{fill:?} at {at}"
            );
            let unused = format!("{head}# utf8lint: allow(U011)\nyz\n{tail}");
            let found = run(unused.as_bytes(), "a.txt");
            assert_eq!(
                summary(&found),
                [(
                    "U015",
                    head.len() + 2..head.len() + 2 + "utf8lint: allow(U011)".len()
                )],
                "{fill:?} at {at}"
            );
        }
    }
}
