//! Files whose last character is a zero-width space, non-joiner or joiner,
//! or that end in a word and a word joiner: checked by name and in a walk
//! (exit 0: the finding is a warning; never a panic's 101), and fixed with
//! `--fix --unsafe-fixes`, which writes the file once and leaves it clean.

use crate::common::{code, findings, run, stderr, tree};

/// (name, bytes, whether U011 reports the last character)
const ENDINGS: &[(&str, &str, bool)] = &[
    ("zwsp.txt", "word\u{200B}", true),
    ("zwnj.txt", "pass\u{200C}", false),
    ("zwj.txt", "pass\u{200D}", false),
    ("wj.txt", "word\u{2060}", true),
];

#[test]
fn a_file_ending_in_a_zero_width_character_is_checked_and_fixed() {
    for &(name, text, reported) in ENDINGS {
        let dir = tree(&[(name, text.as_bytes()), ("ok.txt", b"fine\n")]);
        // Named, then in a walk with a sound file beside it.
        for target in [name, "."] {
            let o = run(dir.path(), ["check", "--format", "json", target]);
            assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
            let codes: Vec<String> = findings(&o).into_iter().map(|(_, c)| c).collect();
            assert_eq!(
                codes.contains(&"U011".to_owned()),
                reported,
                "{name}: {codes:?}"
            );
        }
        let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", name]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let fixed = std::fs::read(dir.path().join(name)).unwrap();
        if reported {
            assert!(fixed.len() < text.len(), "{name}: {fixed:?}");
        } else {
            assert_eq!(fixed, text.as_bytes(), "{name}");
        }
        // One run settled it: checked again, nothing is left to fix.
        let o = run(dir.path(), ["check", "--format", "json", name]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        assert_eq!(findings(&o), [], "{name}");
    }
}
