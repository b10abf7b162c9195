//! U008 on ftfy's own test cases, read from its source distribution (not
//! in the repository): `UTF8LINT_FTFY` names the unpacked sdist (or its
//! `tests/test_cases.json`). Without it the test says so and passes; with
//! `UTF8LINT_REQUIRE_CORPUS=1` it fails.
//!
//!     pip download --no-deps --no-binary :all: ftfy==6.3.1 && tar xzf ftfy-6.3.1.tar.gz
//!     UTF8LINT_FTFY=$PWD/ftfy-6.3.1 cargo test -p utf8lint-diagnostics --test ftfy_cases -- --nocapture
//!
//! Each case is `original` text and what ftfy makes of it (`fixed-encoding`,
//! else `fixed`). The cases are put in classes by this test's own
//! reckoning, not ftfy's labels:
//!
//! * **clean**: ftfy must not change the text. U008 should not flag it.
//! * **claimed**: damage U008 claims to repair. ftfy expects to fix it
//!   (`"expect": "pass"`), and the whole text is what the fixed text
//!   becomes through one of U008's chains (its UTF-8, or CESU-8 for astral
//!   characters, read as windows-1252, ISO-8859-1 or Mac Roman) once or
//!   twice. U008 should find it and one fix run should give ftfy's text.
//! * **other**: the rest (lossy damage, windows-1250, -1251, cp437, text
//!   damaged in part). Counted, not held to a floor.

use std::path::{Path, PathBuf};

mod damage;

use damage::{Chain, cesu8};
use utf8lint_diagnostics::{CheckOptions, Keep, Level, Policy, Rule, apply_fixes, check};

/// The floors, for ftfy 6.3.1: claimed cases repaired exactly, and clean
/// texts flagged at most.
const CLAIMED_EXACT_AT_LEAST: usize = 50;
const CLEAN_FLAGGED_AT_MOST: usize = 1;

/// The class of damage that makes `original` of `fixed`: a chain, its
/// layers, or `None` when no chain of U008's explains the whole text.
fn claimed_class(fixed: &str, original: &str) -> Option<(Chain, u8)> {
    for chain in Chain::ALL {
        for astral_as_cesu in [false, true] {
            let mut text = fixed.to_owned();
            for layers in 1..=2 {
                let bytes = if astral_as_cesu {
                    cesu8(&text)
                } else {
                    text.clone().into_bytes()
                };
                text = chain.read(&bytes);
                if text == original {
                    return Some((chain, layers));
                }
            }
        }
    }
    None
}

fn u008(text: &str) -> Vec<utf8lint_diagnostics::Diagnostic> {
    let mut policy = Policy::default();
    policy.levels.set(Rule::Mojibake, Level::Warn);
    check(
        text.as_bytes(),
        CheckOptions::new(Path::new("a.txt"), &policy).keeping(Keep::Every),
    )
    .into_iter()
    .filter(|d| d.rule == Rule::Mojibake)
    .collect()
}

/// The test cases' files: `tests/test_cases.json` (ftfy 6.2 and later) or
/// `tests/test-cases/*.json` (earlier), under `root` or `root` itself.
fn case_files(root: &Path) -> Vec<PathBuf> {
    if root.is_file() {
        return vec![root.to_owned()];
    }
    let one = root.join("tests/test_cases.json");
    if one.is_file() {
        return vec![one];
    }
    let mut many: Vec<PathBuf> = std::fs::read_dir(root.join("tests/test-cases"))
        .into_iter()
        .flatten()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    many.sort();
    many
}

#[derive(Default)]
struct Row {
    cases: usize,
    found: usize,
    exact: usize,
}

#[test]
fn ftfy_test_cases() {
    let Some(root) = std::env::var_os("UTF8LINT_FTFY") else {
        assert!(
            std::env::var("UTF8LINT_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "UTF8LINT_FTFY is not set and UTF8LINT_REQUIRE_CORPUS=1"
        );
        println!("SKIPPED: UTF8LINT_FTFY is not set (the unpacked ftfy sdist)");
        return;
    };
    let files = case_files(Path::new(&root));
    assert!(!files.is_empty(), "no test cases under {root:?}");
    let mut cases = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let json: serde_json::Value = serde_json::from_str(&text).expect("ftfy's JSON");
        cases.extend(json.as_array().cloned().unwrap_or_default());
    }
    let field = |case: &serde_json::Value, name: &str| {
        case.get(name).and_then(|v| v.as_str()).map(str::to_owned)
    };
    let mut rows: std::collections::BTreeMap<String, Row> = Default::default();
    let (mut clean, mut clean_flagged) = (0, Vec::new());
    let mut missed = Vec::new();
    for case in &cases {
        let (Some(label), Some(original)) = (field(case, "label"), field(case, "original")) else {
            continue;
        };
        let Some(fixed) = field(case, "fixed-encoding").or_else(|| field(case, "fixed")) else {
            continue;
        };
        let ds = u008(&original);
        if original == fixed {
            clean += 1;
            if let Some(d) = ds.first() {
                clean_flagged.push(format!("{label}: {}", d.message));
            }
            continue;
        }
        let expected_to_fix = field(case, "expect").as_deref() == Some("pass");
        let class = claimed_class(&fixed, &original).filter(|_| expected_to_fix);
        let key = match class {
            Some((chain, 1)) => format!("claimed: {}", chain.name()),
            Some((chain, _)) => format!("claimed: {} twice", chain.name()),
            None => "other".to_owned(),
        };
        let row = rows.entry(key).or_default();
        row.cases += 1;
        if ds.is_empty() {
            if class.is_some() {
                missed.push(format!("{label}: not found: {original:?}"));
            }
            continue;
        }
        row.found += 1;
        let repaired = apply_fixes(
            original.as_bytes(),
            ds.iter().filter_map(|d| d.fix.as_ref()),
        );
        if repaired.bytes == fixed.as_bytes() {
            row.exact += 1;
        } else if class.is_some() {
            missed.push(format!(
                "{label}: repaired to {:?}, ftfy {fixed:?}",
                String::from_utf8_lossy(&repaired.bytes)
            ));
        }
    }
    println!("| class | cases | found | repaired exactly |\n|---|---|---|---|");
    let mut claimed = Row::default();
    for (key, row) in &rows {
        println!("| {key} | {} | {} | {} |", row.cases, row.found, row.exact);
        if key.starts_with("claimed") {
            claimed.cases += row.cases;
            claimed.found += row.found;
            claimed.exact += row.exact;
        }
    }
    println!(
        "| all claimed | {} | {} | {} |",
        claimed.cases, claimed.found, claimed.exact
    );
    println!(
        "| clean (must not change) | {clean} | {} flagged | |",
        clean_flagged.len()
    );
    for line in missed.iter().chain(&clean_flagged) {
        println!("  {line}");
    }
    assert!(
        claimed.exact >= CLAIMED_EXACT_AT_LEAST,
        "{} of {} claimed cases repaired exactly",
        claimed.exact,
        claimed.cases
    );
    assert!(
        clean_flagged.len() <= CLEAN_FLAGGED_AT_MOST,
        "{} of {clean} clean texts flagged",
        clean_flagged.len()
    );
}
