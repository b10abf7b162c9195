//! Configuration precedence through the binary: command line over
//! `utf8lint.toml` over `.editorconfig` over the built-in rules.

use crate::common::*;

const FEFF_TXT: &[u8] = b"one\xEF\xBB\xBFtwo\n";

fn concise(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check", "--format", "concise"];
    all.extend_from_slice(args);
    let out = run(dir, all);
    (code(&out), stdout(&out), stderr(&out))
}

#[test]
fn command_line_over_utf8lint_toml_over_built_in_levels() {
    let dir = tree(&[
        ("utf8lint.toml", b"[lints]\nstray_feff = \"deny\"\n"),
        ("a.txt", FEFF_TXT),
    ]);
    let (code_, out, _) = concise(dir.path(), &[]);
    assert_eq!(code_, 1, "utf8lint.toml makes U002 deny");
    assert!(out.contains("error[U002]"), "{out}");
    let (code_, out, _) = concise(dir.path(), &["-W", "U002"]);
    assert_eq!(code_, 0, "-W on the command line wins over the file");
    assert!(out.contains("warning[U002]"), "{out}");
    let (code_, out, _) = concise(dir.path(), &["-A", "stray_feff"]);
    assert_eq!((code_, out.as_str()), (0, ""));
}

#[test]
fn utf8lint_toml_over_editorconfig_over_built_in_bom_rules() {
    let files: &[(&str, &[u8])] = &[
        (
            ".editorconfig",
            b"root = true\n\n[*.txt]\ncharset = utf-8-bom\n\n[*.json]\ncharset = utf-8\n",
        ),
        ("plain.txt", b"no bom here\n"),
        ("data.json", b"\xEF\xBB\xBF{}\n"),
    ];
    let dir = tree(files);
    let (_, out, _) = concise(dir.path(), &[]);
    // .editorconfig `utf-8-bom` requires a BOM: U004 for plain.txt.
    assert!(out.contains("plain.txt:1:1: warning[U004]"), "{out}");
    assert!(out.contains("data.json:1:1: error[U003]"), "{out}");
    std::fs::write(
        dir.path().join("utf8lint.toml"),
        "[bom]\n\"*.txt\" = \"allow\"\n\"*.json\" = \"allow\"\n",
    )
    .unwrap();
    let (code_, out, _) = concise(dir.path(), &[]);
    assert_eq!(
        (code_, out.as_str()),
        (0, ""),
        "utf8lint.toml wins over .editorconfig"
    );
    let (code_, out, _) = concise(dir.path(), &["-D", "missing_bom"]);
    assert_eq!(
        (code_, out.as_str()),
        (0, ""),
        "a level flag does not change the BOM policy"
    );
}

#[test]
fn utf8lint_toml_max_per_file_and_skip_binary_under_the_flags() {
    let mut many = Vec::new();
    for _ in 0..10 {
        many.extend_from_slice("é ok \u{FEFF}\n".as_bytes());
    }
    let dir = tree(&[
        ("utf8lint.toml", b"max-per-file = 2\nskip-binary = false\n"),
        ("many.txt", &many),
        ("blob.bin", b"\x00\x01\x02\xC0\xAF\x00"),
    ]);
    let out = run(dir.path(), ["check", "--format", "json"]);
    let lines = json_lines(&out);
    let feffs = lines.iter().filter(|v| v["path"] == "many.txt").count();
    assert_eq!(feffs, 3, "2 kept and the file's note of the rest");
    assert!(
        lines.iter().any(|v| v["path"] == "blob.bin"),
        "skip-binary = false checks it"
    );
    let out = run(
        dir.path(),
        ["check", "--format", "json", "--max-per-file", "0"],
    );
    assert_eq!(
        json_lines(&out)
            .iter()
            .filter(|v| v["path"] == "many.txt")
            .count(),
        10
    );
}

#[test]
fn bad_configuration_is_reported_once_and_exits_2() {
    let dir = tree(&[
        ("utf8lint.toml", b"[lints]\nno_such_rule = \"deny\"\n"),
        ("a.txt", b"fine\n"),
        ("b.txt", b"fine\n"),
        ("c.txt", b"fine\n"),
    ]);
    let (code_, _, err) = concise(dir.path(), &[]);
    assert_eq!(code_, 2, "{err}");
    assert_eq!(err.matches("bad configuration").count(), 1, "{err}");
    assert!(
        err.contains("utf8lint.toml:2: lints.no_such_rule: no rule named `no_such_rule`"),
        "{err}"
    );
}

#[test]
fn config_names_the_file_and_isolated_reads_none() {
    let dir = tree(&[
        ("utf8lint.toml", b"[lints]\nstray_feff = \"deny\"\n"),
        (".editorconfig", b"root = true\n[*]\ncharset = utf-8-bom\n"),
        (
            "ci/strict.toml",
            b"[per-file-lints]\n\"src/*\" = [\"U002\"]\n",
        ),
        ("src/a.txt", FEFF_TXT),
        ("b.txt", FEFF_TXT),
    ]);
    let d = dir.path();
    let (code_, out, _) = concise(d, &["b.txt", "src"]);
    assert_eq!(code_, 1);
    assert!(out.contains("b.txt:1:4: error[U002]"), "{out}");
    assert!(out.contains("b.txt:1:1: warning[U004]"), "{out}");

    // --config: the named file instead of utf8lint.toml (its globs relative
    // to its own directory: `src/*` matches nothing under ci/);
    // .editorconfig still asks for a BOM.
    let (code_, out, err) = concise(d, &["--config", "ci/strict.toml", "b.txt", "src"]);
    assert_eq!(code_, 0, "{err}");
    assert!(out.contains("b.txt:1:4: warning[U002]"), "{out}");
    assert!(out.contains("src/a.txt:1:4: warning[U002]"), "{out}");
    assert!(out.contains("b.txt:1:1: warning[U004]"), "{out}");
    std::fs::write(
        d.join("strict.toml"),
        "[per-file-lints]\n\"src/*\" = [\"U002\"]\n",
    )
    .unwrap();
    // Run from src/: the globs stay relative to the file.
    let (_, out, err) = concise(&d.join("src"), &["--config", "../strict.toml", "."]);
    assert!(!out.contains("U002"), "{out}\n{err}");
    assert!(out.contains("a.txt:1:1: warning[U004]"), "{out}");

    // --isolated: neither file; only the built-in levels.
    let (code_, out, _) = concise(d, &["--isolated", "b.txt"]);
    assert_eq!(code_, 0);
    assert_eq!(
        out,
        "b.txt:1:4: warning[U002] U+FEFF used as a word joiner\n"
    );

    // Errors: a missing file, a bad one, and both flags at once.
    let (code_, _, err) = concise(d, &["--config", "missing.toml"]);
    assert_eq!(code_, 2);
    assert!(err.contains("missing.toml: cannot read"), "{err}");
    std::fs::write(d.join("bad.toml"), "[lints]\nnope = \"deny\"\n").unwrap();
    let (code_, _, err) = concise(d, &["--config", "bad.toml"]);
    assert_eq!(code_, 2);
    assert!(err.contains("bad.toml:2"), "{err}");
    let (code_, _, err) = concise(d, &["--config", "bad.toml", "--isolated"]);
    assert_eq!(code_, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}
