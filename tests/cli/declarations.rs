//! U009 `charset_mismatch` and `.editorconfig` charsets utf8lint cannot
//! use (issue 13): declarations the bytes contradict, from both sides.

use std::process::Command;

use crate::common::*;

fn codes_of(o: &std::process::Output) -> Vec<(String, String)> {
    let mut found = findings(o);
    found.sort();
    found
}

#[test]
fn a_python_file_with_a_bom_and_a_foreign_cookie_is_reported_and_fixable() {
    let dir = tree(&[
        (
            "bom_latin1.py",
            b"\xEF\xBB\xBF# -*- coding: latin-1 -*-\nprint('caf\xC3\xA9')\n",
        ),
        ("bom_utf8.py", b"\xEF\xBB\xBF# coding: utf-8\nprint('ok')\n"),
        ("latin1.py", b"# coding: latin-1\nprint('plain')\n"),
        (
            "tool",
            b"\xEF\xBB\xBF#!/usr/bin/env python3\n# vim: set fileencoding=cp1252 :\nprint('x')\n",
        ),
    ]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        codes_of(&o),
        [
            ("bom_latin1.py".to_owned(), "U009".to_owned()),
            // A `#!` script: its BOM is also U003.
            ("tool".to_owned(), "U003".to_owned()),
            ("tool".to_owned(), "U009".to_owned()),
        ],
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("encoding problem: latin-1 with BOM"));
    // Python agrees it cannot run, and runs it after the (unsafe) fix.
    let python = |name: &str| {
        Command::new("python3")
            .arg(name)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("NOTICE: python3 not found: the Python half of this test skipped");
        return;
    }
    assert!(!python("bom_latin1.py").status.success());
    let o = run(
        dir.path(),
        ["check", "--fix", "--unsafe-fixes", "bom_latin1.py"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let ran = python("bom_latin1.py");
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "café\n");
}

#[test]
fn editorconfig_latin1_over_utf8_text_is_a_mismatch_and_unknown_charsets_are_said() {
    let dir = tree(&[
        (
            ".editorconfig",
            b"root = true\n[*.txt]\ncharset = latin1\n[*.md]\ncharset = shift_jis\n",
        ),
        ("utf8.txt", "café\n".as_bytes()),
        ("ascii.txt", b"plain\n"),
        ("latin1.txt", b"caf\xE9\n"),
        ("notes.md", b"x\n"),
    ]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        codes_of(&o),
        [("utf8.txt".to_owned(), "U009".to_owned())],
        "{}",
        stdout(&o)
    );
    let out = stdout(&o);
    assert!(out.contains("declares charset = latin1"), "{out}");
    assert!(out.contains(".editorconfig line 3"), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains(
            "`charset = shift_jis` in section `[*.md]` is not a value EditorConfig defines"
        ),
        "{err}"
    );
}
