//! Markus Kuhn's UTF-8 decoder stress test, from the shared corpus.

use std::path::PathBuf;

use crate::common::*;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("UTF8LINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/corpus"));
    let file = dir.join("UTF-8-test.txt");
    if file.is_file() {
        return Some(file);
    }
    if std::env::var_os("UTF8LINT_REQUIRE_CORPUS").is_some_and(|v| v == "1") {
        panic!(
            "UTF8LINT_REQUIRE_CORPUS=1 but {} is missing",
            file.display()
        );
    }
    eprintln!(
        "NOTICE: {} not found; Kuhn stress test skipped (set UTF8LINT_CORPUS)",
        file.display()
    );
    None
}

#[test]
fn kuhn_stress_test_has_378_subparts() {
    let Some(file) = corpus() else { return };
    let dir = file.parent().unwrap();
    let out = run(
        dir,
        [
            "check",
            "--format",
            "json",
            "--max-per-file",
            "0",
            "UTF-8-test.txt",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines = json_lines(&out);
    let subparts: usize = lines
        .iter()
        .filter(|v| v["code"] == "U001")
        .map(|v| v["subparts"].as_array().unwrap().len())
        .sum();
    assert_eq!(subparts, 378);
    for v in &lines {
        for s in v["subparts"].as_array().unwrap() {
            let kind = s["kind"].as_str().unwrap();
            assert!(
                [
                    "unexpected_continuation",
                    "invalid_lead_byte",
                    "overlong",
                    "surrogate",
                    "above_max",
                    "truncated"
                ]
                .contains(&kind),
                "{kind}"
            );
        }
    }
}
