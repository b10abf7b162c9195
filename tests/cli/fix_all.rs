//! `--fix` applies every fix in one run, not only those of the findings
//! shown: the display cap (50 per rule) and the absolute
//! ceiling limit what is printed, never what is fixed.

use crate::common::*;

#[test]
fn one_fix_run_applies_every_fix_past_the_display_cap() {
    let mut bytes = Vec::new();
    for _ in 0..300 {
        // A stray U+FEFF between words (a safe fix) and an invalid byte on
        // its own line (an unsafe fix).
        bytes.extend_from_slice("word\u{FEFF}word\n".as_bytes());
        bytes.extend_from_slice(b"x\x80y\n");
    }
    let dir = tree(&[("many.txt", &bytes)]);
    let o = run(
        dir.path(),
        ["check", "--format", "json", "--diff", "--unsafe-fixes", "."],
    );
    // The diff is of the bytes (the `\x80` lines are not UTF-8).
    let diff = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        diff.matches("\n-word\u{FEFF}word\n").count(),
        300,
        "--diff shows every fix"
    );
    assert_eq!(diff.matches("\n+word\u{2060}word\n").count(), 300);
    assert_eq!(diff.matches("\n+x\u{FFFD}y\n").count(), 300);
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    let err = stderr(&o);
    assert!(err.contains("fixed 600 findings in 1 file"), "{err}");
    // Nothing left but the U+FFFD the unsafe fix wrote (U007, by design).
    let o = run(
        dir.path(),
        [
            "check",
            "--format",
            "json",
            "-A",
            "replacement_character",
            ".",
        ],
    );
    assert_eq!(code(&o), 0, "nothing left:\n{}", stdout(&o));
    assert!(findings(&o).is_empty(), "{}", stdout(&o));
    let fixed = std::fs::read_to_string(dir.path().join("many.txt")).unwrap();
    // Between two words U+FEFF was a word joiner: it becomes U+2060.
    assert_eq!(fixed.matches("word\u{2060}word\n").count(), 300);
    assert_eq!(fixed.matches("x\u{FFFD}y\n").count(), 300);
}
