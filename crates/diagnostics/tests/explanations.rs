//! Every rule has an explanation with the fixed headings, and every
//! explanation file belongs to a rule.

use utf8lint_diagnostics::Rule;

#[test]
fn every_rule_has_an_explanation_with_the_fixed_headings() {
    for rule in Rule::ALL {
        let text = rule.explanation();
        let title = format!("# {} `{}`", rule.code(), rule.name());
        assert!(
            text.starts_with(&title),
            "{} must start with {title:?}",
            rule.code()
        );
        assert!(
            text.lines()
                .next()
                .unwrap()
                .contains(&format!("({} by default)", rule.default_level())),
            "{}: the title names the default level",
            rule.code()
        );
        let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(
            headings,
            [
                "## What it does",
                "## Why is this bad",
                "## Example",
                "## Fix safety"
            ],
            "{}",
            rule.code()
        );
        // The example shows bytes in hex.
        let example = text.split("## Example").nth(1).unwrap();
        assert!(
            example.split_whitespace().any(|w| w.len() == 2
                && w.chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase())),
            "{}: the example must show hex bytes",
            rule.code()
        );
    }
}

#[test]
fn every_explanation_file_has_a_rule() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/explanations");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut expected: Vec<String> = Rule::ALL
        .iter()
        .map(|r| format!("{}.md", r.code()))
        .collect();
    expected.sort();
    assert_eq!(files, expected);
}

#[test]
fn rules_are_found_by_code_or_name() {
    for rule in Rule::ALL {
        assert_eq!(Rule::find(rule.code()), Some(*rule));
        assert_eq!(Rule::find(&rule.code().to_lowercase()), Some(*rule));
        assert_eq!(Rule::find(rule.name()), Some(*rule));
        assert_eq!(Rule::find(&rule.name().replace('_', "-")), Some(*rule));
    }
    assert_eq!(Rule::find("U999"), None);
    assert_eq!(Rule::find("nonsense"), None);
    // Codes are unique and in order.
    let codes: Vec<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
    assert_eq!(
        codes,
        [
            "U001", "U002", "U003", "U004", "U005", "U006", "U007", "U008", "U009", "U010", "U011",
            "U012", "U013", "U014", "U015", "U016", "U017", "U018"
        ]
    );
}
