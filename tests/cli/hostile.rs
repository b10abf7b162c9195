//! Hostile names and content: nothing from outside reaches the terminal raw.

use std::os::unix::ffi::OsStrExt;

use crate::common::*;

/// Bytes that must never appear raw in human, concise or github output.
fn assert_no_raw_controls(out: &str, what: &str) {
    for bad in ['\u{1b}', '\u{7}', '\r', '\u{202E}', '\u{85}'] {
        assert!(!out.contains(bad), "{what}: raw {bad:?} in {out:?}");
    }
}

/// ESC, an OSC title sequence, BEL, CR, LF (forging a concise result
/// line), U+202E and U+0085 in one file name.
const HOSTILE: &[u8] =
    b"a\x1b[31m\x1b]0;t\x07\r\nb:1:1: error[U001] forged\xE2\x80\xAE\xC2\x85.txt";

/// No output line starts with the forged result line of [`HOSTILE`].
fn assert_no_forged_line(out: &str, what: &str) {
    assert!(
        !out.lines().any(|l| l.starts_with("b:1:1")),
        "{what}: forged line: {out}"
    );
}

fn hostile_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // ESC, an OSC title sequence, CR, LF and U+202E in one name; the content
    // has an invalid byte, a raw C1 control (NEL) and an overlong U+202E.
    let name = std::ffi::OsStr::from_bytes(HOSTILE);
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
        // The LF in the name cannot forge a result line.
        assert_no_forged_line(&out, format);
        // The overlong U+202E is described, never written raw; the raw
        // NEL (U+0085) of the content neither.
        assert!(out.contains("U+202E"), "{format}: {out}");
    }
    for format in ["json", "sarif"] {
        let o = run(dir.path(), ["check", "--format", format, "."]);
        let out = stdout(&o);
        // Exact, escaped by the JSON serializer: no raw ESC, BEL or CR.
        for bad in ['\u{1b}', '\u{7}', '\r'] {
            assert!(!out.contains(bad), "{format}: raw {bad:?}");
        }
        if format == "json" {
            let lines = json_lines(&o);
            assert!(
                lines
                    .iter()
                    .any(|l| l["path"].as_str().unwrap().as_bytes() == HOSTILE),
                "the JSON path is the exact name"
            );
        }
    }
    // A diff's content is the file's bytes (it is for `git apply`), but
    // its names are quoted as git quotes them: nothing raw, no forged line.
    let o = run(dir.path(), ["check", "--diff", "--unsafe-fixes", "."]);
    let out = String::from_utf8_lossy(&o.stdout);
    let names: String = out.lines().take(2).collect::<Vec<_>>().join("\n");
    assert!(
        names.starts_with("--- \"a/a\\033[31m\\033]0;t\\a\\r\\nb:1:1: error[U001] forged\\342\\200\\256\\302\\205.txt\""),
        "{names}"
    );
    assert_no_raw_controls(&names, "diff names");
    assert_no_forged_line(&out, "diff");
}

/// Standard error quotes names too: a refused fix, a missing file, a
/// skipped binary file, a bad configuration key.
#[test]
fn hostile_names_are_escaped_on_standard_error() {
    let dir = hostile_tree();
    let name = std::ffi::OsStr::from_bytes(HOSTILE);
    // A second name for the file: --fix refuses a hard-linked file.
    std::fs::hard_link(dir.path().join(name), dir.path().join("link.txt")).unwrap();
    let refused = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    let err = stderr(&refused);
    assert!(err.contains("not fixing a\\u{1B}[31m"), "{err}");
    assert_eq!(code(&refused), 2);
    // A name that does not exist, a binary file skipped with --verbose.
    let mut missing = HOSTILE.to_vec();
    missing.extend_from_slice(b".missing");
    std::fs::write(dir.path().join("bin\x1b]0;t\x07.dat"), b"\0\0\0").unwrap();
    let o = cmd(dir.path())
        .args(["check", "--verbose", "."])
        .arg(std::ffi::OsStr::from_bytes(&missing))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(err.contains("no such file or directory"), "{err}");
    assert!(
        err.contains("skipped bin\\u{1B}]0;t\\u{7}.dat: binary"),
        "{err}"
    );
    for o in [&refused, &o] {
        assert_no_raw_controls(&stderr(o), "stderr");
        assert_no_forged_line(&stderr(o), "stderr");
    }
    // A configuration error quoting a key read from the file.
    let bad = tree(&[
        (
            "utf8lint.toml",
            b"[lints]\n\"\\u001b]0;t\\u0007\\r\\nb:1:1: x\\u202E\" = \"deny\"\n",
        ),
        ("a.txt", b"ok\n"),
    ]);
    let o = run(bad.path(), ["check", "."]);
    let err = stderr(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("\\u{1B}]0;t"), "{err}");
    assert_no_raw_controls(&err, "config error");
    assert_no_forged_line(&err, "config error");
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

/// clap quotes an argument it cannot use; a hook passes file names as
/// arguments, so that quote is escaped too.
#[test]
fn an_argument_clap_rejects_is_quoted_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), ["check", "--x\u{1b}]0;t\u{7}\u{202E}"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("--x\\u{1B}]0;t\\u{7}\\u{202E}"), "{err}");
    assert_no_raw_controls(&err, "clap error");
    // Help is ours and printed as it is.
    let o = run(dir.path(), ["--help"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("Usage: utf8lint"));
}
