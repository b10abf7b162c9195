//! Hostile names and content: nothing from outside reaches the terminal raw.

use std::os::unix::ffi::OsStrExt;

use crate::common::*;

/// Bytes that must never appear raw in human, concise or github output.
fn assert_no_raw_controls(out: &str, what: &str) {
    for bad in ['\u{1b}', '\u{7}', '\r', '\u{202E}', '\u{85}'] {
        assert!(!out.contains(bad), "{what}: raw {bad:?} in {out:?}");
    }
}

fn hostile_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // ESC, an OSC title sequence, CR, LF and U+202E in one name; the content
    // has an invalid byte, a raw C1 control (NEL) and an overlong U+202E.
    let name = std::ffi::OsStr::from_bytes(
        b"a\x1b[31m\x1b]0;t\x07\r\nb:1:1: error[U001] forged\xE2\x80\xAE.txt",
    );
    std::fs::write(
        dir.path().join(name),
        b"x\xFF y \xC2\x85 z \xF0\x82\x80\xAE\n",
    )
    .unwrap();
    dir
}

#[test]
fn hostile_names_and_content_are_escaped_in_every_text_format() {
    let dir = hostile_tree();
    for format in ["human", "concise", "github"] {
        let o = run(dir.path(), ["check", "--format", format, "."]);
        let out = stdout(&o);
        assert!(out.contains("\\u{1B}"), "{format}: {out}");
        assert!(out.contains("\\u{202E}"), "{format}: {out}");
        assert_no_raw_controls(&out, format);
        assert_no_raw_controls(&stderr(&o), format);
        if format == "concise" {
            // The LF in the name cannot forge a result line.
            assert!(
                !out.lines().any(|l| l.starts_with("b:1:1")),
                "forged line: {out}"
            );
        }
    }
    for format in ["json", "sarif"] {
        let o = run(dir.path(), ["check", "--format", format, "."]);
        assert!(!stdout(&o).contains('\u{1b}'), "{format}");
    }
    let o = run(dir.path(), ["check", "--diff", "--unsafe-fixes", "."]);
    let diff = stdout(&o);
    assert!(
        diff.contains("\\u{1B}"),
        "diff headers escape the name: {diff}"
    );
    assert_no_raw_controls(&diff, "diff");
}

#[test]
fn hostile_names_are_escaped_on_standard_error() {
    let dir = hostile_tree();
    // A second name for the file: the fix is refused, and the refusal on
    // standard error names the file.
    let name = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    std::fs::hard_link(&name, dir.path().join("other.txt")).unwrap();
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    let err = stderr(&o);
    assert!(err.contains("not fixing a\\u{1B}"), "{err}");
    assert_no_raw_controls(&err, "stderr");
    // A name that does not exist, given on the command line.
    let o = run(
        dir.path(),
        [
            std::ffi::OsStr::new("check"),
            std::ffi::OsStr::from_bytes(b"gone\x1b]0;x\x07.txt"),
        ],
    );
    let err = stderr(&o);
    assert!(err.contains("gone\\u{1B}"), "{err}");
    assert_no_raw_controls(&err, "stderr");
}

#[test]
fn latin1_name_and_literal_backslash_name_print_differently() {
    let latin1 = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xE9.txt");
    std::fs::write(latin1.path().join(name), b"x\xFF\n").unwrap();
    let literal = tree(&[("caf\\xE9.txt", b"x\xFF\n")]);
    let a = stdout(&run(latin1.path(), ["check", "--format", "concise", "."]));
    let b = stdout(&run(literal.path(), ["check", "--format", "concise", "."]));
    let first = |s: &str| {
        s.lines()
            .find(|l| l.contains("caf"))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(first(&a).contains("caf\\xE9.txt"), "{a}");
    assert!(first(&b).contains("caf\\\\xE9.txt"), "{b}");
    assert_ne!(first(&a), first(&b));
}
