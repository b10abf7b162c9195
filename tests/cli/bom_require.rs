//! `require` never lets a safe fix break a file: a catch-all
//! `require` does not apply to formats that forbid a byte-order mark, and
//! one that names them is reported with an unsafe fix only.

use std::process::Command;

use crate::common::*;

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn files() -> Vec<(&'static str, &'static [u8])> {
    vec![
        ("run.sh", b"#!/bin/sh\necho ran\n"),
        ("tool", b"#!/bin/sh\necho tool ran\n"),
        ("data.json", b"{\"k\": 1}\n"),
        ("index.php", b"<?php echo 1;\n"),
        ("notes.txt", b"hello\n"),
    ]
}

#[test]
fn a_catch_all_require_never_breaks_scripts_json_or_php() {
    let mut all = files();
    all.push(("utf8lint.toml", b"[bom]\n\"*\" = \"require\"\n"));
    let dir = tree(&all);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        findings(&o),
        // Not `utf8lint.toml` either: Python's TOML readers reject a mark.
        [("notes.txt".to_owned(), "U004".to_owned())],
        "{}",
        stdout(&o)
    );
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(read("notes.txt").starts_with(BOM));
    for (name, bytes) in files().into_iter().filter(|(n, _)| *n != "notes.txt") {
        assert_eq!(read(name), bytes, "{name} was changed");
    }
    // The script still runs and the JSON still parses.
    let ran = Command::new("sh")
        .arg("run.sh")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "ran\n");
    let parsed = Command::new("python3")
        .args(["-c", "import json,sys; json.load(open('data.json'))"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(parsed.success());
}

#[test]
fn a_require_that_names_a_forbidding_format_is_reported_but_never_safe() {
    let mut all = files();
    all.push((
        "utf8lint.toml",
        b"[bom]\n\"*.json\" = \"require\"\n\"tool\" = \"require\"\n\"*.{sh,txt}\" = \"require\"\n",
    ));
    let dir = tree(&all);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    let lines = json_lines(&o);
    let mut found: Vec<(String, String, String)> = lines
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_owned(),
                d["code"].as_str().unwrap().to_owned(),
                d["fix"]["applicability"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    found.sort();
    // `*.{sh,txt}` names no format by a plain extension: run.sh keeps its
    // format's rule; notes.txt has none, so the require applies, safely.
    assert_eq!(
        found,
        [
            ("data.json".into(), "U004".into(), "unsafe".into()),
            ("notes.txt".into(), "U004".into(), "safe".into()),
            ("tool".into(), "U004".into(), "unsafe".into()),
        ],
        "{lines:?}"
    );
    let note = stdout(&o);
    assert!(note.contains("adding one is an unsafe fix here"), "{note}");
    // A safe --fix adds none to the named JSON and script.
    let o = run(dir.path(), ["check", "--fix", "."]);
    assert_eq!(code(&o), 0, "only warnings are left: {}", stderr(&o));
    assert_eq!(
        std::fs::read(dir.path().join("tool")).unwrap(),
        files()[1].1
    );
    assert_eq!(
        std::fs::read(dir.path().join("data.json")).unwrap(),
        files()[2].1
    );
}
