//! Accepting known exceptions without ignoring whole files:
//! inline suppressions, per-path levels, nested configuration and the
//! baseline, end to end.

use crate::common::*;

/// `(path, code, line)` of each JSON finding.
fn found(o: &std::process::Output) -> Vec<(String, String, u64)> {
    json_lines(o)
        .iter()
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["code"].as_str().unwrap().to_owned(),
                v["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn check_json(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["check", "--format", "json"];
    args.extend(extra);
    run(dir, args)
}

fn f(path: &str, code: &str, line: u64) -> (String, String, u64) {
    (path.to_owned(), code.to_owned(), line)
}

#[test]
fn inline_allow_reaches_its_own_line_when_trailing_and_the_next_when_alone() {
    let dir = tree(&[
        (
            "a.py",
            // line 1: trailing comment on the finding's line; line 2: a
            // comment line above line 3; line 4: a bad byte nobody allowed;
            // line 5: a suppression of a rule with no finding near it.
            b"x = 'caf\xE9'  # utf8lint: allow(invalid_utf8)\n# utf8lint: allow(U002, U001)\ny = '\xEF\xBB\xBF'\nz = '\xFF'\n# utf8lint: allow(stray_feff)\n\nok = 1\n",
        ),
        // In a file with ill-formed bytes everywhere (C comments here), the
        // ASCII marker is still found.
        ("b.c", b"/* utf8lint: allow(nope) */ int \xC0\xAE;\n"),
    ]);
    let out = check_json(dir.path(), &[]);
    assert_eq!(
        found(&out),
        [
            f("a.py", "U015", 2),
            f("a.py", "U001", 4),
            f("a.py", "U015", 5),
            f("b.c", "U015", 1),
            f("b.c", "U001", 1),
        ],
        "{}",
        stdout(&out)
    );
    let lines = json_lines(&out);
    // The comment on line 2 named U001 too, which line 3 does not have.
    assert_eq!(
        lines[0]["message"],
        "unused suppression: no `invalid_utf8` finding on the next line"
    );
    assert_eq!(lines[3]["message"], "suppression names no rule: `nope`");
    assert_eq!(code(&out), 1, "the unsuppressed U001 fails the run");

    // U015 has a level like any rule.
    let out = check_json(dir.path(), &["-A", "unused_suppression", "-A", "U001"]);
    assert_eq!(found(&out), []);
    assert_eq!(code(&out), 0);
}

#[test]
fn a_trailing_allow_never_hides_the_next_line() {
    // A BOM-shaped U+FEFF allowed at the end of line 1, and a real stray
    // one on line 2: line 2's is reported, as is a trailing suppression
    // with nothing on its own line (the defect is on the line after).
    let dir = tree(&[(
        "a.py",
        "x = '\u{FEFF}'  # utf8lint: allow(stray_feff)\ny = 'a\u{FEFF}b'\nz = 1  # utf8lint: allow(stray_feff)\nw = '\u{FEFF}'\n".as_bytes(),
    )]);
    let out = check_json(dir.path(), &[]);
    assert_eq!(
        found(&out),
        [
            f("a.py", "U002", 2),
            f("a.py", "U015", 3),
            f("a.py", "U002", 4)
        ],
        "{}",
        stdout(&out)
    );
    assert_eq!(
        json_lines(&out)[1]["message"],
        "unused suppression: no `stray_feff` finding on this line"
    );
}

#[test]
fn file_allow_in_the_first_lines_covers_the_whole_file() {
    let mut late = b"#!/bin/sh\n".to_vec();
    late.extend(b"echo\n".repeat(12));
    late.extend(b"# utf8lint: file-allow(invalid_utf8)\necho \xE9\n");
    let dir = tree(&[
        (
            "top.sh",
            b"#!/bin/sh\n# utf8lint: file-allow(invalid_utf8, stray_feff)\necho \xE9\necho \xEF\xBB\xBF\n",
        ),
        ("late.sh", &late),
    ]);
    let out = check_json(dir.path(), &[]);
    assert_eq!(
        found(&out),
        [f("late.sh", "U015", 14), f("late.sh", "U001", 15)],
        "{}",
        stdout(&out)
    );
    assert!(
        json_lines(&out)[0]["message"]
            .as_str()
            .unwrap()
            .contains("first 10 lines")
    );
    // A suppressed finding is not fixed either: --fix leaves its bytes.
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "top.sh"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.path().join("top.sh")).unwrap(),
        b"#!/bin/sh\n# utf8lint: file-allow(invalid_utf8, stray_feff)\necho \xE9\necho \xEF\xBB\xBF\n"
    );
}

#[test]
fn per_file_lints_silence_fixtures_and_nested_configuration_extends() {
    let dir = tree(&[
        (
            "utf8lint.toml",
            b"[lints]\nstray_feff = \"deny\"\n\n[per-file-lints]\n\"tests/fixtures/**\" = { invalid_utf8 = \"allow\" }\n\"*.po\" = [\"not_utf8\", \"U001\"]\n",
        ),
        ("tests/fixtures/bad.bin.txt", b"\xC0\xAE\n"),
        ("tests/other.txt", b"\xC0\xAE\n"),
        ("po/fr.po", b"caf\xE9 cr\xE8me br\xFBl\xE9e \xE0 la\n"),
        ("docs/feff.txt", b"a\xEF\xBB\xBFb\n"),
        // Extends the root file: stray_feff stays deny, U001 warn here.
        ("docs/utf8lint.toml", b"[lints]\ninvalid_utf8 = \"warn\"\n"),
        ("docs/bad.txt", b"\xFF\n"),
        // root = true: the root file's deny of stray_feff stops here.
        ("vendor/utf8lint.toml", b"root = true\n"),
        ("vendor/feff.txt", b"a\xEF\xBB\xBFb\n"),
    ]);
    let out = check_json(dir.path(), &[]);
    let levels: Vec<(String, String, String)> = json_lines(&out)
        .iter()
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["code"].as_str().unwrap().to_owned(),
                v["level"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let l = |p: &str, c: &str, lv: &str| (p.to_owned(), c.to_owned(), lv.to_owned());
    assert_eq!(
        levels,
        [
            l("docs/bad.txt", "U001", "warn"),
            l("docs/feff.txt", "U002", "deny"),
            l("tests/other.txt", "U001", "deny"),
            l("vendor/feff.txt", "U002", "warn"),
        ],
        "{}",
        stdout(&out)
    );
    // A bad entry names the file, line and key.
    std::fs::write(
        dir.path().join("utf8lint.toml"),
        "[per-file-lints]\n\"x/**\" = { invalid_utf8 = \"sometimes\" }\n",
    )
    .unwrap();
    let out = run(dir.path(), ["check", "tests/other.txt"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("utf8lint.toml:2: per-file-lints.x/**.invalid_utf8: unknown level `sometimes`: the levels are \"allow\", \"warn\" and \"deny\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_baseline_survives_unrelated_edits_and_reports_only_new_findings() {
    let dir = tree(&[
        (
            "a.txt",
            b"one \xFF\ntwo\nsame \xEF\xBB\xBF\nsame \xEF\xBB\xBF\n",
        ),
        ("sub/b.txt", b"x\xEF\xBB\xBFy\n"),
    ]);
    let d = dir.path();
    let out = run(d, ["check", "--write-baseline", "base.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "nothing reported while writing");
    assert!(
        stderr(&out).contains("wrote 4 findings to the baseline base.json"),
        "{}",
        stderr(&out)
    );
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("base.json")).unwrap()).unwrap();
    let entries = written["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[0]["path"], "a.txt");
    assert_eq!(entries[3]["path"], "sub/b.txt");
    // The two equal findings are told apart by their occurrence.
    let occurrences: Vec<u64> = entries
        .iter()
        .filter(|e| e["rule"] == "U002")
        .map(|e| e["occurrence"].as_u64().unwrap())
        .collect();
    assert_eq!(occurrences.iter().filter(|o| **o == 1).count(), 1);

    let out = check_json(d, &["--baseline", "base.json"]);
    assert_eq!(found(&out), [], "{}", stdout(&out));
    assert_eq!(code(&out), 0);

    // Unrelated edits: lines added above, another line changed, a third
    // copy of an existing finding, and one new defect.
    std::fs::write(
        d.join("a.txt"),
        b"new first line\none \xFF\nTWO, edited\nsame \xEF\xBB\xBF\nsame \xEF\xBB\xBF\nsame \xEF\xBB\xBF\nfresh \xC0\n",
    )
    .unwrap();
    let out = check_json(d, &["--baseline", "base.json"]);
    assert_eq!(
        found(&out),
        [f("a.txt", "U002", 6), f("a.txt", "U001", 7)],
        "{}",
        stdout(&out)
    );
    assert_eq!(code(&out), 1);
    // From another directory, the baseline's paths still match (they are
    // relative to the baseline file); a fixed finding is noted as gone.
    std::fs::write(d.join("sub/b.txt"), b"xy\n").unwrap();
    let out = run(
        &d.join("sub"),
        [
            "check",
            "--format",
            "json",
            "--baseline",
            "../base.json",
            ".",
        ],
    );
    assert_eq!(found(&out), []);
    assert!(
        stderr(&out).contains("1 finding in the baseline no longer found in the files checked"),
        "{}\n{}",
        stderr(&out),
        std::fs::read_to_string(d.join("base.json")).unwrap()
    );

    // A file that is not a baseline is an error, not an empty baseline.
    std::fs::write(d.join("bad.json"), b"{\"findings\": []}").unwrap();
    let out = run(d, ["check", "--baseline", "bad.json"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("is not a utf8lint baseline"),
        "{}",
        stderr(&out)
    );
    let out = run(d, ["check", "--baseline", "missing.json"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot read baseline missing.json"));
}
