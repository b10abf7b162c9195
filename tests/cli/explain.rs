//! `utf8lint explain` and `utf8lint rules`.

use crate::common::*;

const RULES: [(&str, &str, &str); 18] = [
    ("U001", "invalid_utf8", "deny"),
    ("U002", "stray_feff", "warn"),
    ("U003", "forbidden_bom", "deny"),
    ("U004", "missing_bom", "warn"),
    ("U005", "not_utf8", "deny"),
    ("U006", "non_utf8_path", "warn"),
    ("U007", "replacement_character", "warn"),
    ("U008", "mojibake", "warn"),
    ("U009", "charset_mismatch", "deny"),
    ("U010", "bidi_control", "deny"),
    ("U011", "invisible_character", "warn"),
    ("U012", "control_character", "warn"),
    ("U013", "noncharacter", "warn"),
    ("U014", "non_ascii", "allow"),
    ("U015", "unused_suppression", "warn"),
    ("U016", "mixed_script_confusable", "warn"),
    ("U017", "lookalike_punctuation", "deny"),
    ("U018", "hidden_payload", "deny"),
];

#[test]
fn explain_every_rule_by_code_and_name() {
    let here = repo();
    for (code_, name, _) in RULES {
        let by_code = run(&here, ["explain", code_]);
        assert_eq!(code(&by_code), 0, "{code_}: {}", stderr(&by_code));
        let text = stdout(&by_code);
        assert!(text.starts_with(&format!("# {code_}")), "{code_}: {text}");
        let file = repo().join(format!("crates/diagnostics/explanations/{code_}.md"));
        let mut want = std::fs::read_to_string(file).unwrap();
        if !want.ends_with('\n') {
            want.push('\n');
        }
        assert_eq!(text, want, "explain {code_} prints the explanation file");
        for spelling in [
            name.to_owned(),
            name.replace('_', "-"),
            code_.to_lowercase(),
        ] {
            let other = run(&here, ["explain", &spelling]);
            assert_eq!(code(&other), 0);
            assert_eq!(stdout(&other), text, "explain {spelling}");
        }
    }
}

#[test]
fn explain_unknown_rule_is_trouble() {
    let out = run(&repo(), ["explain", "U999"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("unknown rule `U999`"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn rules_lists_codes_names_and_levels() {
    let out = run(&repo(), ["rules"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + RULES.len(), "{text}");
    for ((code_, name, level), line) in RULES.iter().zip(&lines[1..]) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&words[..3], [*code_, *name, *level], "{line}");
    }
}

/// What an explanation tells users to write is real: every `toml` block is
/// a `utf8lint.toml` that utf8lint accepts, and every rule an inline
/// suppression in the text names exists.
#[test]
fn settings_shown_in_explanations_are_accepted() {
    let here = repo();
    let mut blocks = 0;
    let mut suppressions = 0;
    for (code_, _, _) in RULES {
        let text = stdout(&run(&here, ["explain", code_]));
        for block in text.split("```toml\n").skip(1) {
            let toml = block.split("```").next().unwrap();
            let dir = tree(&[("utf8lint.toml", toml.as_bytes()), ("a.txt", b"ok\n")]);
            let out = run(dir.path(), ["check", "a.txt"]);
            assert_eq!(
                code(&out),
                0,
                "explain {code_}: its toml block is refused:\n{toml}\n{}",
                stderr(&out)
            );
            blocks += 1;
        }
        for (at, _) in text.match_indices("allow(") {
            let names = text[at + "allow(".len()..].split(')').next().unwrap();
            for name in names.split([',', ' ']).filter(|n| !n.is_empty()) {
                if name == "rule" || name == "..." || name == "nope" {
                    // U015's own wording of the syntax and of a misspelling.
                    continue;
                }
                let out = run(&here, ["explain", name]);
                assert_eq!(code(&out), 0, "explain {code_} suppresses `{name}`");
                suppressions += 1;
            }
        }
    }
    assert!(blocks >= 5, "{blocks} toml blocks");
    assert!(suppressions >= 4, "{suppressions} suppressions");
}
