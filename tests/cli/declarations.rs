//! U009 `charset_mismatch` and `.editorconfig` charsets utf8lint cannot
//! use: declarations the bytes contradict, from both sides.

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

/// Declarations inside files, every syntax from both sides:
/// a legacy name over UTF-8 multi-byte text, UTF-8 over bytes that are not
/// UTF-8, UTF-16 in an 8-bit file, a BOM against a declaration; and the
/// right declarations, and declarations where their format does not look,
/// silent.
#[test]
fn in_file_declarations_the_bytes_contradict() {
    let dir = tree(&[
        // Contradicted.
        ("page.html", "<!doctype html><meta charset=\"iso-8859-1\"><p>café</p>\n".as_bytes()),
        ("old.htm", b"<html><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\"><p>caf\xE9 cr\xE8me br\xFBl\xE9e \xE0 No\xEBl, d\xE9j\xE0 l'\xE9t\xE9</p>\n"),
        ("data.xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?>\n<a>Größe</a>\n".as_bytes()),
        ("wide.xml", b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>x</a>\n"),
        ("style.css", "@charset \"windows-1252\";\nbody::after { content: \"→\"; }\n".as_bytes()),
        ("cookie.py", "# -*- coding: latin-1 -*-\nprint('Café Müller')\n".as_bytes()),
        ("notes.el", ";; -*- mode: emacs-lisp; coding: iso-8859-2 -*-\n;; Zażółć\n".as_bytes()),
        ("main.c", "/* Grüße */\nint x;\n/* vim: set fileencoding=latin1 : */\n".as_bytes()),
        ("bom.xml", "\u{FEFF}<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<a/>\n".as_bytes()),
        // Silent: right, ASCII under a legacy name, or not where the format looks.
        ("ok.html", "<meta charset=\"utf-8\"><p>café</p>\n".as_bytes()),
        ("ascii.xml", b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>plain</a>\n"),
        ("late.xml", "\n<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>é</a>\n".as_bytes()),
        ("meta.txt", "<meta charset=\"latin1\"> café\n".as_bytes()),
        ("late.py", "import os\n# coding: latin-1\nprint('é')\n".as_bytes()),
        ("latin1.xml", b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf\xE9 cr\xE8me br\xFBl\xE9e \xE0 No\xEBl</a>\n"),
    ]);
    let o = run(
        dir.path(),
        [
            "check",
            "--format",
            "json",
            "-A",
            "not_utf8",
            "-A",
            "invalid_utf8",
            "-A",
            "forbidden_bom",
            ".",
        ],
    );
    let u009: Vec<String> = codes_of(&o)
        .into_iter()
        .filter(|(_, c)| c == "U009")
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        u009,
        [
            "bom.xml",
            "cookie.py",
            "data.xml",
            "main.c",
            "notes.el",
            "old.htm",
            "page.html",
            "style.css",
            "wide.xml"
        ],
        "{}",
        stdout(&o)
    );
    let text = stdout(&o);
    assert!(
        text.contains("a reader that follows the declaration shows `Ã©` for `é`"),
        "{text}"
    );
    // The fix keeps the text and corrects the declaration.
    let o = run(
        dir.path(),
        [
            "check",
            "--fix",
            "--unsafe-fixes",
            "-A",
            "not_utf8",
            "-A",
            "invalid_utf8",
            "page.html",
            "cookie.py",
            "data.xml",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(
        read("page.html"),
        "<!doctype html><meta charset=\"utf-8\"><p>café</p>\n"
    );
    assert_eq!(
        read("cookie.py"),
        "# -*- coding: utf-8 -*-\nprint('Café Müller')\n"
    );
    assert!(read("data.xml").starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
}

/// A declaration of UTF-8 over legacy bytes: U005 names the encoding and
/// U009 points at the declaration, whose fix names what the bytes are.
#[test]
fn a_utf8_declaration_over_legacy_bytes() {
    let dir = tree(&[(
        "old.htm",
        b"<html><meta charset=\"UTF-8\"><p>Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e, et l'\xE9t\xE9 \xE0 No\xEBl d\xE9\xE7oit rarement les \xE9l\xE8ves.</p>\n",
    )]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        codes_of(&o),
        [
            ("old.htm".to_owned(), "U005".to_owned()),
            ("old.htm".to_owned(), "U009".to_owned())
        ],
        "{}",
        stdout(&o)
    );
    let lines = json_lines(&o);
    let u009 = lines.iter().find(|d| d["code"] == "U009").unwrap();
    assert!(
        u009["message"]
            .as_str()
            .unwrap()
            .contains("says `UTF-8`, but the file is not UTF-8")
    );
    assert!(stdout(&o).contains("windows-1252"), "{}", stdout(&o));
}

/// A declaration the file decodes in names its encoding before the
/// detector does, including one the detector does not know.
#[test]
fn a_declaration_names_the_encoding_before_the_detector() {
    let russian = "Москва и Санкт-Петербург. Россия, Владимир, Ольга, Юрий и Елена. \
                   Съешь же ещё этих мягких французских булок, да выпей чаю. \
                   Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства.\n";
    let hungarian = "Árvíztűrő tükörfúrógép. Ősszel a fűzfák levelei hullanak, \
                     a szőlő érik, és a gyerekek örülnek a hűvös időnek.\n";
    let (mac, _, _) = encoding_rs::X_MAC_CYRILLIC.encode(russian);
    let (latin2, _, _) = encoding_rs::ISO_8859_2.encode(hungarian);
    let dir = tree(&[
        (
            "mac.xml",
            &[
                &b"<?xml version=\"1.0\" encoding=\"x-mac-cyrillic\"?>\n<p>"[..],
                &mac.repeat(3),
                b"</p>\n",
            ]
            .concat(),
        ),
        (
            "hu.py",
            &[
                &b"# coding: iso-8859-2\ns = '''\n"[..],
                &latin2.repeat(3),
                b"'''\n",
            ]
            .concat(),
        ),
    ]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    let lines = json_lines(&o);
    let of = |path: &str, code: &str| {
        lines
            .iter()
            .find(|d| d["path"] == path && d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} for {path}: {}", stdout(&o)))
    };
    let u005 = of("mac.xml", "U005");
    assert_eq!(u005["fix"]["from"], "x-mac-cyrillic");
    let notes = u005["notes"].to_string();
    assert!(
        notes.contains("the XML declaration declares `x-mac-cyrillic`"),
        "{notes}"
    );
    assert_eq!(of("hu.py", "U005")["fix"]["from"], "ISO-8859-2");
    assert_eq!(
        of("hu.py", "U005")["notes"][1],
        "the PEP 263 coding cookie declares `iso-8859-2`, and the whole file decodes in it to text"
    );
    // The detector reads the Hungarian as Central European too (`ő` and
    // `ű`, which windows-1252 has as `õ` and `û`): nothing disagrees.
    assert!(
        !lines
            .iter()
            .any(|d| d["path"] == "hu.py" && d["code"] == "U009"),
        "{}",
        stdout(&o)
    );
    // The Russian names no rival: nothing to say beside U005.
    assert!(
        !lines
            .iter()
            .any(|d| d["path"] == "mac.xml" && d["code"] == "U009"),
        "{}",
        stdout(&o)
    );
}
