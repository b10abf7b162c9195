//! `-A/-W/-D`, `--max-per-file` and exit codes.

use crate::common::*;

fn feff_tree() -> tempfile::TempDir {
    tree(&[("a.txt", b"one\xEF\xBB\xBFtwo\n")])
}

#[test]
fn exit_0_when_nothing_is_at_deny_level() {
    let dir = feff_tree();
    let out = run(dir.path(), ["check", "--format", "concise"]);
    assert_eq!(code(&out), 0, "a warning does not fail the run");
    assert!(stdout(&out).contains("warning[U002]"));
    let clean = tree(&[("ok.txt", "fine é\n".as_bytes())]);
    let out = run(clean.path(), ["check"]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
}

#[test]
fn deny_by_code_or_name_fails_the_run() {
    let dir = feff_tree();
    for flag in ["U002", "stray_feff", "stray-feff"] {
        let out = run(dir.path(), ["check", "--format", "concise", "-D", flag]);
        assert_eq!(code(&out), 1, "-D {flag}");
        assert!(stdout(&out).contains("error[U002]"));
    }
}

#[test]
fn the_last_level_flag_wins() {
    let dir = feff_tree();
    let out = run(
        dir.path(),
        [
            "check",
            "--format",
            "concise",
            "-D",
            "U002",
            "-A",
            "stray_feff",
        ],
    );
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty(), "allowed: not reported");
    let out = run(
        dir.path(),
        [
            "check", "--format", "concise", "-A", "U002", "--deny", "U002",
        ],
    );
    assert_eq!(code(&out), 1);
    let out = run(
        dir.path(),
        ["check", "--format", "concise", "-D", "U002", "-W", "U002"],
    );
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("warning[U002]"));
}

#[test]
fn unknown_rule_and_bad_arguments_exit_2() {
    let dir = feff_tree();
    let out = run(dir.path(), ["check", "-D", "no_such_rule"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("unknown rule `no_such_rule`"));
    let out = run(dir.path(), ["check", "--format", "xml"]);
    assert_eq!(code(&out), 2);
    let out = run(dir.path(), ["check", "--no-such-flag"]);
    assert_eq!(code(&out), 2);
    let out = run(dir.path(), ["frobnicate"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn max_per_file_caps_each_rule() {
    let mut bytes = Vec::new();
    for _ in 0..30 {
        bytes.extend_from_slice("ok é ".as_bytes());
        bytes.extend_from_slice(b"\xC0\xAF\n");
        bytes.extend_from_slice(b"x \xC0\xAF\n");
    }
    let dir = tree(&[("many.txt", &bytes)]);
    let u001 = |args: &[&str]| {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        let out = run(dir.path(), all);
        assert_eq!(code(&out), 1);
        json_lines(&out)
            .iter()
            .filter(|v| v["code"] == "U001")
            .count()
    };
    assert_eq!(u001(&["--max-per-file", "0"]), 60, "0 means no cap");
    // A cap of 5 keeps 5; the file's note counts the rest, as no finding.
    assert_eq!(u001(&["--max-per-file", "5"]), 5);
    assert!(u001(&[]) <= 50);
}
