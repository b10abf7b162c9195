//! `--diff` shows only the lines a fix changes, still applies with
//! `git apply` to give what `--fix` writes, and exits as ruff's `--diff`
//! does: 1 when there is a diff, 0 when there is nothing to change, deny
//! findings without a fix or not.

use std::fs;
use std::process::Command;

use crate::common::*;

/// A Latin-1 catalogue: its conversion rewrites three of its ten lines.
const CATALOGUE: &[u8] = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"a\"\nmsgstr \"caf\xE9\"\n\nmsgid \"b\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgstr \"d\xE9j\xE0 vu cr\xE8me\"\n";

#[test]
fn a_conversion_s_diff_shows_the_lines_it_rewrites_and_applies() {
    let dir = tree(&[
        ("fr.po", CATALOGUE),
        (
            "notes.md",
            "# Title\n\nText\u{200B} here\n\nmore\n".as_bytes(),
        ),
    ]);
    let out = run(dir.path(), ["check", "--diff", "--unsafe-fixes"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let diff = String::from_utf8_lossy(&out.stdout).into_owned();
    let changed: Vec<&str> = diff
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    assert_eq!(
        changed,
        [
            "-\"Content-Type: text/plain; charset=ISO-8859-1\\n\"",
            "+\"Content-Type: text/plain; charset=UTF-8\\n\"",
            "-msgstr \"caf\u{FFFD}\"",
            "+msgstr \"café\"",
            "-msgstr \"d\u{FFFD}j\u{FFFD} vu cr\u{FFFD}me\"",
            "+msgstr \"déjà vu crème\"",
            "-Text\u{200B} here",
            "+Text here",
        ],
        "{diff}"
    );
    // The empty lines of both files are context, never a `-`/`+` pair.
    assert!(!diff.contains("\n-\n") && !diff.contains("\n+\n"), "{diff}");
    // The pair that differs only in an invisible character says so.
    assert!(
        diff.contains("@@ -1,5 +1,5 @@ only invisible characters or line endings change\n"),
        "{diff}"
    );

    // Applied by git, it gives the bytes --fix writes.
    let patch = tempfile::NamedTempFile::new().unwrap();
    fs::write(patch.path(), &out.stdout).unwrap();
    let by_git = tree(&[
        ("fr.po", CATALOGUE),
        (
            "notes.md",
            "# Title\n\nText\u{200B} here\n\nmore\n".as_bytes(),
        ),
    ]);
    let applied = Command::new("git")
        .arg("apply")
        .arg(patch.path())
        .current_dir(by_git.path())
        .output()
        .expect("git is needed for this test");
    assert!(
        applied.status.success(),
        "{}",
        String::from_utf8_lossy(&applied.stderr)
    );
    let fixed = run(dir.path(), ["check", "--fix", "--unsafe-fixes"]);
    assert_eq!(code(&fixed), 0, "{}", stderr(&fixed));
    for name in ["fr.po", "notes.md"] {
        assert_eq!(
            fs::read(by_git.path().join(name)).unwrap(),
            fs::read(dir.path().join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn diff_exits_1_only_when_there_is_a_diff() {
    // A deny-level finding with no safe fix: nothing to change, exit 0.
    let dir = tree(&[("bad.txt", b"x\xC0\xAFy\n")]);
    let out = run(dir.path(), ["check", "--diff"]);
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plain = run(dir.path(), ["check"]);
    assert_eq!(code(&plain), 1, "the finding is still deny-level");
    // With the unsafe fix there is a diff: exit 1.
    let out = run(dir.path(), ["check", "--diff", "--unsafe-fixes"]);
    assert!(!out.stdout.is_empty());
    assert_eq!(code(&out), 1);
    // --exit-zero: 0 all the same.
    let out = run(
        dir.path(),
        ["check", "--diff", "--unsafe-fixes", "--exit-zero"],
    );
    assert_eq!(code(&out), 0);
}
