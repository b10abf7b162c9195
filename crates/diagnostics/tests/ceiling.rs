//! The absolute ceiling on findings shown per rule per file, and the fix
//! path that bypasses it.

use std::path::Path;

use utf8lint_diagnostics::testing::{MAX_SHOWN_PER_RULE, MAX_SHOWN_SEQUENCES};
use utf8lint_diagnostics::{
    CheckOptions, Diagnostic, Keep, Level, Policy, Rule, check, shown_per_rule,
};

/// `n` separate bad bytes, `n` stray U+FEFF and `n` U+FFFD on one line.
fn hostile(n: usize) -> Vec<u8> {
    let mut bytes = b"start ".to_vec();
    for _ in 0..n {
        bytes.extend_from_slice(b"a\xFFb\xEF\xBB\xBFc\xEF\xBF\xBD ");
    }
    bytes
}

fn policy(max_per_rule: usize) -> Policy {
    let mut policy = Policy {
        max_per_rule,
        ..Policy::default()
    };
    // Far too many errors for text: keep legacy detection out of the way.
    policy.levels.set(Rule::NotUtf8, Level::Allow);
    policy.levels.set(Rule::ReplacementCharacter, Level::Warn);
    policy
}

fn of(ds: &[Diagnostic], rule: Rule) -> Vec<&Diagnostic> {
    ds.iter().filter(|d| d.rule == rule).collect()
}

#[test]
fn the_cap_is_never_above_the_ceiling() {
    assert_eq!(shown_per_rule(0), MAX_SHOWN_PER_RULE);
    assert_eq!(shown_per_rule(50), 50);
    assert_eq!(shown_per_rule(MAX_SHOWN_PER_RULE), MAX_SHOWN_PER_RULE);
    assert_eq!(shown_per_rule(usize::MAX), MAX_SHOWN_PER_RULE);
}

#[test]
fn no_cap_still_stops_at_the_ceiling_with_an_exact_count() {
    let extra = 2_345;
    let bytes = hostile(MAX_SHOWN_PER_RULE + extra);
    // 0 (no cap) and a cap above the ceiling are both held to it.
    for max in [0, 3 * MAX_SHOWN_PER_RULE] {
        let ds = check(&bytes, CheckOptions::new(Path::new("a.txt"), &policy(max)));
        for rule in [
            Rule::InvalidUtf8,
            Rule::StrayFeff,
            Rule::ReplacementCharacter,
        ] {
            let found = of(&ds, rule);
            assert_eq!(found.len(), MAX_SHOWN_PER_RULE + 1, "{rule:?} under {max}");
            let summary = found.last().unwrap();
            assert!(
                summary.message.starts_with(&format!("{extra} more ")),
                "{}",
                summary.message
            );
            assert!(summary.message.ends_with("in this file not shown"));
            assert_eq!(summary.notes.len(), 1);
            assert!(
                summary.notes[0].contains(&format!(
                    "at most {MAX_SHOWN_PER_RULE} `{}` findings are shown per file",
                    rule.name()
                )) && summary.notes[0].contains("the ceiling is absolute"),
                "{}",
                summary.notes[0]
            );
        }
    }
}

#[test]
fn a_configured_cap_below_the_ceiling_says_how_far_0_goes() {
    let ds = check(
        &hostile(60),
        CheckOptions::new(Path::new("a.txt"), &policy(50)),
    );
    let u001 = of(&ds, Rule::InvalidUtf8);
    assert_eq!(u001.len(), 51);
    assert_eq!(
        u001[50].notes,
        [format!(
            "at most 50 `invalid_utf8` findings are shown per file; `--max-per-file 0` shows up to {MAX_SHOWN_PER_RULE}"
        )]
    );
}

#[test]
fn keeping_every_finding_bypasses_cap_and_ceiling() {
    let n = MAX_SHOWN_PER_RULE + 2_345;
    let bytes = hostile(n);
    for max in [0, 50] {
        let ds = check(
            &bytes,
            CheckOptions::new(Path::new("a.txt"), &policy(max)).keeping(Keep::Every),
        );
        for rule in [
            Rule::InvalidUtf8,
            Rule::StrayFeff,
            Rule::ReplacementCharacter,
        ] {
            let found = of(&ds, rule);
            assert_eq!(found.len(), n, "{rule:?} under {max}");
            assert!(found.iter().all(|d| !d.message.contains("not shown")));
        }
        // Every U001 and U002 carries its fix.
        let fixes = ds.iter().filter(|d| d.fix.is_some()).count();
        assert!(fixes >= 2 * n, "{fixes} fixes");
    }
}

#[test]
fn long_runs_of_bad_bytes_stop_at_the_ceiling_on_sequences() {
    // Every byte ill-formed: U001 diagnostics of 256 sequences each.
    let bytes = vec![0xC0u8; 1 << 20];
    let ds = check(&bytes, CheckOptions::new(Path::new("a.txt"), &policy(0)));
    let runs = MAX_SHOWN_SEQUENCES / 256;
    assert_eq!(ds.len(), runs + 1);
    let shown: usize = ds[..runs].iter().map(|d| d.subparts.len()).sum();
    assert_eq!(shown, MAX_SHOWN_SEQUENCES);
    let summary = ds.last().unwrap();
    assert_eq!(
        summary.message,
        format!(
            "{} more ill-formed sequences in this file not shown",
            (1 << 20) - MAX_SHOWN_SEQUENCES
        )
    );
    assert_eq!(
        summary.notes,
        [format!(
            "at most {MAX_SHOWN_SEQUENCES} ill-formed sequences are shown per file whatever `max-per-file` says: the ceiling is absolute (`--fix` is not limited by it)"
        )]
    );
    // The default cap of 50 runs is below it: unchanged.
    let ds = check(&bytes, CheckOptions::new(Path::new("a.txt"), &policy(50)));
    assert_eq!(ds.len(), 51);
    // And the fix path still has every sequence.
    let every = check(
        &bytes,
        CheckOptions::new(Path::new("a.txt"), &policy(0)).keeping(Keep::Every),
    );
    let all: usize = every.iter().map(|d| d.subparts.len()).sum();
    assert_eq!(all, 1 << 20);
}

/// The byte pass (U002) and a text rule (U010) cap alike, with one
/// wording: the same message and note but for the rule's name.
#[test]
fn the_byte_pass_and_the_text_rules_word_the_cap_alike() {
    let mut bytes = Vec::new();
    for _ in 0..5 {
        bytes.extend_from_slice("a\u{FEFF}b \u{202E}c\u{202C}\n".as_bytes());
    }
    let ds = check(&bytes, CheckOptions::new(Path::new("a.txt"), &policy(2)));
    for rule in [Rule::StrayFeff, Rule::BidiControl] {
        let found = of(&ds, rule);
        let summary = found.last().unwrap();
        let name = rule.name();
        assert_eq!(found.len(), 3, "{rule:?}: {found:?}");
        assert_eq!(
            (summary.message.as_str(), &summary.notes[..]),
            (
                format!("3 more `{name}` findings in this file not shown").as_str(),
                &[format!(
                    "at most 2 `{name}` findings are shown per file; `--max-per-file 0` shows up to {MAX_SHOWN_PER_RULE}"
                )][..]
            ),
            "{rule:?}"
        );
    }
}
