//! U011 at the very end of a file: a zero-width space, non-joiner or joiner
//! as the last character, or a word joiner after a word at the end, asks
//! for the character after it, which is not there. Checked (and fixed,
//! then checked again) without a panic, with the findings the character
//! gets elsewhere.

use std::path::Path;

use utf8lint_diagnostics::{CheckOptions, Policy, Rule, apply_fixes, check};

/// The rules found in `bytes` (as `name`), and the fixed bytes.
fn check_and_fix(bytes: &[u8], name: &str) -> (Vec<Rule>, Vec<u8>) {
    let path = Path::new(name);
    let found = check(bytes, CheckOptions::new(path, &Policy::default()));
    let fixes: Vec<_> = found.iter().filter_map(|d| d.fix.as_ref()).collect();
    let fixed = apply_fixes(bytes, fixes).bytes;
    // What the fix wrote is checked again, as `--fix` does.
    let _ = check(&fixed, CheckOptions::new(path, &Policy::default()));
    (found.iter().map(|d| d.rule).collect(), fixed)
}

#[test]
fn a_zero_width_character_last_in_the_file_is_checked_without_a_panic() {
    // (text, whether U011 reports the last character in prose, and in code)
    let cases: &[(&str, bool, bool)] = &[
        // U+200B after a word, alone, after Thai (which breaks words with
        // it: quiet in text, reported in code outside strings).
        ("word\u{200B}", true, true),
        ("\u{200B}", false, true),
        ("\u{0E01}\u{0E32}\u{200B}", false, true),
        // U+200C and U+200D join: in prose only inside a word of a script
        // that does not join are they hidden text (not after its last
        // letter, not alone); in code they always are.
        ("pass\u{200C}", false, true),
        ("pass\u{200D}", false, true),
        ("\u{200C}", false, true),
        ("\u{200D}", false, true),
        // After Persian and Devanagari letters they are the script's.
        ("\u{645}\u{6CC}\u{200C}", false, true),
        ("\u{915}\u{94D}\u{200D}", false, true),
        // U+2060: a joiner with no word after it joins nothing.
        ("word\u{2060}", true, true),
        ("\u{2060}", true, true),
    ];
    for &(text, in_text, in_code) in cases {
        for name in ["a.txt", "a.rs"] {
            let reported = if name == "a.txt" { in_text } else { in_code };
            let (rules, fixed) = check_and_fix(text.as_bytes(), name);
            assert_eq!(
                rules.contains(&Rule::InvisibleCharacter),
                reported,
                "{text:?} in {name}: {rules:?}"
            );
            // In code outside a literal a hidden character gets no fix.
            if reported && name == "a.txt" {
                assert!(fixed.len() < text.len(), "{text:?} in {name}: {fixed:?}");
            }
        }
    }
}

/// The same characters cut short at the end (the file ends inside one) are
/// ill-formed bytes, not a character to look around.
#[test]
fn a_zero_width_character_cut_short_at_the_end_is_no_panic() {
    for text in ["word\u{200B}", "pass\u{200D}", "word\u{2060}"] {
        let bytes = text.as_bytes();
        for cut in 1..3 {
            let _ = check_and_fix(&bytes[..bytes.len() - cut], "a.txt");
        }
    }
}
