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
            // Its NUL byte (the test of U+0000) makes it binary to the
            // sniff, as to libmagic: checked as text on purpose.
            "--no-skip-binary",
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
    for v in lines.iter().filter(|v| v.get("code").is_some()) {
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

/// One input of the conformance corpus: its name, its bytes and its
/// maximal subparts (`offset`, `len`).
type Input = (String, Vec<u8>, Vec<(u64, u64)>);

/// The conformance corpus's inputs: the web-platform-tests decoder cases,
/// flenniken's cases and Kuhn's whole file, as its derived files list them.
fn conformance_inputs(dir: &std::path::Path) -> Vec<Input> {
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
    };
    let spans = |errors: &serde_json::Value| -> Vec<(u64, u64)> {
        errors
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["offset"].as_u64().unwrap(), e["len"].as_u64().unwrap()))
            .collect()
    };
    let hex = |s: &str| -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    };
    let mut inputs = Vec::new();
    for file in ["wpt_utf8_decode_cases.json", "flenniken-utf8tests.json"] {
        for case in read(file).as_array().unwrap() {
            inputs.push((
                case["id"].as_str().unwrap().to_owned(),
                hex(case["bytes_hex"].as_str().unwrap()),
                spans(&case["derived_errors"]),
            ));
        }
    }
    inputs.push((
        "UTF-8-test.txt".to_owned(),
        std::fs::read(dir.join("UTF-8-test.txt")).unwrap(),
        spans(&read("UTF-8-test.errors.json")),
    ));
    inputs
}

/// Every maximal subpart of every input of the conformance corpus is in
/// the JSON output, whichever rule reports it (U001 per run, or U005 for
/// the whole file): no position is lost.
#[test]
fn every_maximal_subpart_of_the_conformance_corpus_is_in_the_json() {
    let Some(file) = corpus() else { return };
    let inputs = conformance_inputs(file.parent().unwrap());
    assert_eq!(inputs.len(), 270);
    let files: Vec<(String, Vec<u8>)> = inputs
        .iter()
        .enumerate()
        .map(|(i, (_, bytes, _))| (format!("input-{i:03}.txt"), bytes.clone()))
        .collect();
    let laid: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    let dir = tree(&laid);
    // Named one by one, and checked as text even where the sniff would skip
    // them as binary (Kuhn's file has a NUL, a few have control bytes).
    let args = [
        "check",
        "--no-skip-binary",
        "--format",
        "json",
        "--max-per-file",
        "0",
    ]
    .into_iter()
    .chain(files.iter().map(|(name, _)| name.as_str()));
    let out = run(dir.path(), args);
    let mut found: std::collections::BTreeMap<String, std::collections::BTreeSet<(u64, u64)>> =
        Default::default();
    for v in json_lines(&out) {
        let path = v["path"]
            .as_str()
            .unwrap()
            .trim_start_matches("./")
            .to_owned();
        // Objects that are not findings (a cap's note) have no subparts.
        let Some(subparts) = v["subparts"].as_array() else {
            continue;
        };
        for s in subparts {
            found
                .entry(path.clone())
                .or_default()
                .insert((s["offset"].as_u64().unwrap(), s["len"].as_u64().unwrap()));
        }
    }
    let mut lost = Vec::new();
    for ((id, _, want), (name, _)) in inputs.iter().zip(&files) {
        let got = found.remove(name).unwrap_or_default();
        let missing = want.iter().filter(|s| !got.contains(s)).count();
        if missing > 0 {
            lost.push(format!("{id}: {missing} of {} subparts", want.len()));
        }
    }
    assert!(lost.is_empty(), "positions lost: {lost:?}");
}
