//! Counts whatever the display cap shows: a file with 90 findings counts
//! 90 in the summary, in `--statistics` and in JSON, and the cap's note
//! is a note in every format, never a finding with a rule's code.

use crate::common::*;

/// 90 U+FEFF inside words: 90 `stray_feff` warnings, of which the default
/// cap shows 50.
fn ninety() -> tempfile::TempDir {
    tree(&[("many.txt", "a\u{FEFF}b\n".repeat(90).as_bytes())])
}

#[test]
fn the_summary_and_statistics_count_every_finding_past_the_cap() {
    let dir = ninety();
    let o = run(dir.path(), ["check", "many.txt"]);
    let err = stderr(&o);
    assert!(err.contains("0 errors, 90 warnings"), "{err}");
    assert!(
        err.contains("by rule: 90 U002 stray_feff (90 warnings)"),
        "{err}"
    );

    let o = run(
        dir.path(),
        ["check", "--statistics", "--format", "json", "many.txt"],
    );
    let stats: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(stats["rules"][0]["count"], 90);
    assert_eq!(stats["files"][0]["count"], 90);
    let o = run(dir.path(), ["check", "--statistics", "many.txt"]);
    assert!(
        stdout(&o).contains("90  many.txt  (90 warnings)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn json_keeps_the_cap_note_apart_from_the_findings() {
    let dir = ninety();
    for format in ["json", "json-lines"] {
        let o = run(dir.path(), ["check", "--format", format, "many.txt"]);
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 51, "{format}");
        assert!(lines[..50].iter().all(|l| l["code"] == "U002"), "{format}");
        assert_eq!(
            lines[50],
            serde_json::json!({"path": "many.txt", "not_shown": {"U002": 40}}),
            "{format}"
        );
        let shown = lines[..50].len() as u64;
        let hidden = lines[50]["not_shown"]["U002"].as_u64().unwrap();
        assert_eq!(shown + hidden, 90, "{format}");
    }
}

#[test]
fn the_cap_note_is_a_note_in_every_other_format() {
    let dir = ninety();
    let note = "many.txt: 40 more `stray_feff` findings in this file not shown";
    let o = run(dir.path(), ["check", "--format", "concise", "many.txt"]);
    let text = stdout(&o);
    assert_eq!(text.lines().filter(|l| l.contains("[U002]")).count(), 50);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with(&format!("note: {note}")),
        "{text}"
    );

    let o = run(dir.path(), ["check", "many.txt"]);
    let text = stdout(&o);
    assert_eq!(text.matches("warning[U002]").count(), 50);
    assert!(
        text.contains(&format!("\nnote: {note} (at most 50")),
        "{text}"
    );

    let o = run(dir.path(), ["check", "--format", "github", "many.txt"]);
    let text = stdout(&o);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("::warning")).count(),
        50
    );
    // The file's note after its findings, then the run's notice that
    // GitHub annotates only ten warnings of a step.
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[lines.len() - 2].starts_with("::notice file=many.txt,title=utf8lint::40 more"),
        "{text}"
    );
    assert!(
        lines[lines.len() - 1].starts_with(
            "::notice title=utf8lint::0 errors and 90 warnings: GitHub annotates at most 10"
        ),
        "{text}"
    );

    let o = run(dir.path(), ["check", "--format", "sarif", "many.txt"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 50);
    let notes = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "note");
    assert!(
        notes[0]["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with(note)
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

/// With a baseline, the cap applies to the new findings; their note counts
/// them all too.
#[test]
fn new_findings_past_the_cap_under_a_baseline_are_counted() {
    let dir = tree(&[("old.txt", b"x\n")]);
    let o = run(dir.path(), ["check", "--write-baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    std::fs::write(dir.path().join("many.txt"), "a\u{FEFF}b\n".repeat(90)).unwrap();
    let o = run(
        dir.path(),
        [
            "check",
            "--baseline",
            "base.json",
            "--format",
            "json",
            "many.txt",
        ],
    );
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 51, "{}", stderr(&o));
    assert_eq!(lines[50]["not_shown"]["U002"], 40);
    assert!(stderr(&o).contains("90 warnings"), "{}", stderr(&o));
}
