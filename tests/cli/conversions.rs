//! Conversions that leave a working file: after one
//! `check --fix --unsafe-fixes`, each file's consumer (Python, an XML
//! parser, msgfmt with Python's gettext) reads the same text as before, the
//! declarations say UTF-8, and a second check finds no U001, U005 or U009.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Whether `program` runs; when it does not, says so and skips, or fails
/// under `UTF8LINT_REQUIRE_CORPUS=1` (CI, where it must be installed).
fn tool(program: &str) -> bool {
    if have(program) {
        return true;
    }
    assert!(
        std::env::var_os("UTF8LINT_REQUIRE_CORPUS").is_none_or(|v| v != "1"),
        "UTF8LINT_REQUIRE_CORPUS=1 but `{program}` is not installed"
    );
    eprintln!("NOTICE: `{program}` not found: this consumer's round trip is skipped");
    false
}

/// Runs `program args` in `dir`; its standard output, after asserting it
/// succeeded.
fn output(dir: &Path, program: &str, args: &[&str]) -> String {
    let o = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("the consumer's output is UTF-8")
}

/// Fixes `names` in `dir` with one `--fix --unsafe-fixes` run, asserts the
/// next check finds none of U001, U005 and U009 in them, and returns their
/// new contents.
fn convert(dir: &Path, names: &[&str]) -> Vec<String> {
    let o = run(
        dir,
        [&["check", "--fix", "--unsafe-fixes"][..], names].concat(),
    );
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    let o = run(dir, [&["check", "--format", "json"][..], names].concat());
    let left: Vec<_> = findings(&o)
        .into_iter()
        .filter(|(_, c)| matches!(c.as_str(), "U001" | "U005" | "U009"))
        .collect();
    assert_eq!(left, [], "not settled in one run:\n{}", stdout(&o));
    names
        .iter()
        .map(|n| {
            String::from_utf8(std::fs::read(dir.join(n)).unwrap())
                .unwrap_or_else(|e| panic!("{n} is not UTF-8 after the fix: {e}"))
        })
        .collect()
}

/// `text` encoded in `encoding` (which has every character of it).
fn encoded(text: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} in {}", encoding.name());
    bytes.into_owned()
}

#[test]
fn python_prints_the_same_after_its_cookie_file_is_converted() {
    let dir = tree(&[
        (
            "cookie.py",
            b"# -*- coding: latin-1 -*-\nprint('caf\xE9 cr\xE8me br\xFBl\xE9e')\n",
        ),
        (
            "modeline.py",
            b"#!/usr/bin/env python3\n# vim: set fileencoding=latin-1 :\nprint('na\xEFve fa\xE7ade')\n",
        ),
        (
            "hungarian.py",
            &encoded(
                "# coding: iso-8859-2\nprint('árvíztűrő tükörfúrógép')\n",
                encoding_rs::ISO_8859_2,
            ),
        ),
    ]);
    let names = ["cookie.py", "modeline.py", "hungarian.py"];
    if !tool("python3") {
        convert(dir.path(), &names);
        return;
    }
    let printed = || -> Vec<String> {
        names
            .iter()
            .map(|n| output(dir.path(), "python3", &[n]))
            .collect()
    };
    let before = printed();
    assert_eq!(before[2], "árvíztűrő tükörfúrógép\n");
    let after = convert(dir.path(), &names);
    assert_eq!(printed(), before);
    assert!(
        after[0].starts_with("# -*- coding: utf-8 -*-\n"),
        "{}",
        after[0]
    );
    assert!(
        after[1].contains("# vim: set fileencoding=utf-8 :\n"),
        "{}",
        after[1]
    );
    // ISO-8859-2's own letters, which windows-1252 reads as `õ` and `û`.
    assert!(after[2].contains("árvíztűrő"), "{}", after[2]);
}

#[test]
fn an_xml_parser_reads_the_same_text_after_conversion() {
    let dir = tree(&[
        (
            "latin1.xml",
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<p>Fran\xE7ais: \xE9t\xE9, gar\xE7on, No\xEBl</p>\n",
        ),
        (
            "mac.xml",
            &encoded(
                "<?xml version=\"1.0\" encoding=\"x-mac-cyrillic\"?>\n<p>Привет, Мир! Съешь же ещё этих мягких французских булок.</p>\n",
                encoding_rs::X_MAC_CYRILLIC,
            ),
        ),
    ]);
    let names = ["latin1.xml", "mac.xml"];
    let read = |name: &str| output(dir.path(), "xmllint", &["--xpath", "string(/p)", name]);
    let before = tool("xmllint").then(|| names.map(read));
    let after = convert(dir.path(), &names);
    // The capitals are x-mac-cyrillic's (windows-1251 reads `П` as `Џ`).
    assert!(after[1].contains("<p>Привет, Мир! Съешь"), "{}", after[1]);
    assert!(after[0].starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert!(after[1].starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"));
    if let Some(before) = before {
        assert_eq!(
            before[1],
            "Привет, Мир! Съешь же ещё этих мягких французских булок.\n"
        );
        assert_eq!(names.map(read), before);
    }
    if tool("python3") {
        let etree = output(
            dir.path(),
            "python3",
            &[
                "-c",
                "import xml.etree.ElementTree as E; print(E.parse('latin1.xml').getroot().text)",
            ],
        );
        assert_eq!(etree, "Français: été, garçon, Noël\n");
    }
}

#[test]
fn gettext_serves_the_same_strings_after_a_latin1_catalogue_is_converted() {
    let po = b"# French translation.\n#\nmsgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: demo 1.0\\n\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n\nmsgid \"General settings\"\nmsgstr \"Param\xE8tres g\xE9n\xE9raux\"\n\nmsgid \"Close\"\nmsgstr \"Fermer la fen\xEAtre\"\n";
    let dir = tree(&[("fr.po", po)]);
    let served = || -> Option<String> {
        if !tool("msgfmt") || !tool("python3") {
            return None;
        }
        output(dir.path(), "msgfmt", &["-o", "fr.mo", "fr.po"]);
        Some(output(
            dir.path(),
            "python3",
            &[
                "-c",
                "import gettext\nt = gettext.GNUTranslations(open('fr.mo', 'rb'))\nprint(t.gettext('General settings')); print(t.gettext('Close'))",
            ],
        ))
    };
    let before = served();
    let after = convert(dir.path(), &["fr.po"]);
    assert!(
        after[0].contains("\"Content-Type: text/plain; charset=UTF-8\\n\"\n"),
        "{}",
        after[0]
    );
    assert!(after[0].contains("msgstr \"Paramètres généraux\""));
    if let Some(before) = before {
        assert_eq!(before, "Paramètres généraux\nFermer la fenêtre\n");
        assert_eq!(served(), Some(before));
    }
}

#[test]
fn html_css_and_latex_declarations_are_rewritten_with_the_text() {
    let dir = tree(&[
        (
            "page.html",
            b"<!doctype html>\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">\n<title>Caf\xE9</title></head><body>cr\xE8me br\xFBl\xE9e</body></html>\n",
        ),
        (
            "meta.htm",
            b"<html><head><meta charset=\"windows-1252\"></head><body>\x93quoted\x94 \x80 5</body></html>\n",
        ),
        (
            "style.css",
            b"@charset \"ISO-8859-15\";\n.price::after { content: \"\xA4 5, \xBDuvre\"; }\n",
        ),
        (
            "paper.tex",
            b"\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[latin1]{inputenc}\n\\begin{document}\nD\xE9j\xE0 vu, na\xEFve.\n\\end{document}\n",
        ),
    ]);
    let after = convert(
        dir.path(),
        &["page.html", "meta.htm", "style.css", "paper.tex"],
    );
    assert!(
        after[0].contains("charset=utf-8\">\n<title>Café</title>"),
        "{}",
        after[0]
    );
    assert!(after[0].contains("crème brûlée"));
    assert_eq!(
        after[1],
        "<html><head><meta charset=\"utf-8\"></head><body>“quoted” € 5</body></html>\n"
    );
    // ISO-8859-15's euro sign and `œ` where ISO-8859-1 has `¤` and `½`.
    assert_eq!(
        after[2],
        "@charset \"UTF-8\";\n.price::after { content: \"€ 5, œuvre\"; }\n"
    );
    assert!(
        after[3].contains("\\usepackage[utf8]{inputenc}\n\\begin{document}\nDéjà vu, naïve."),
        "{}",
        after[3]
    );
}

/// French prose, long enough for the detector to name its encoding.
const FRENCH: &str = "Le café est prêt, déjà servi à l'hôtel.\nLa crème brûlée aussi, à la française, très élégante.\nNoël à Montréal: un séjour réussi, des fêtes où l'on s'amuse.\nÀ l'été, les élèves préfèrent la forêt et la rivière.\n";

#[test]
fn a_bom_before_latin1_text_is_removed_and_utf8_lines_are_kept() {
    let latin1 = encoded(FRENCH, encoding_rs::WINDOWS_1252);
    let bom = [&b"\xEF\xBB\xBF"[..], &latin1].concat();
    // Declared, so that the verdict is the declaration's whatever the
    // detector makes of a file in two encodings.
    let mixed = [
        &b"vim: set fileencoding=latin1 :\n"[..],
        &latin1[..],
        &latin1,
        "ajouté plus tard: déjà vu, œuvre — fin\n".as_bytes(),
    ]
    .concat();
    let dir = tree(&[("bom.txt", &bom), ("mixed.txt", &mixed)]);
    let after = convert(dir.path(), &["bom.txt", "mixed.txt"]);
    assert_eq!(after[0], FRENCH);
    assert_eq!(
        after[1],
        format!(
            "vim: set fileencoding=utf-8 :\n{FRENCH}{FRENCH}ajouté plus tard: déjà vu, œuvre — fin\n"
        )
    );
}

/// What the JSON report says the fix does is what `--fix` writes: the
/// `decode_from` edits converted, the literal ones applied, the rest kept.
#[test]
fn the_json_fix_of_a_conversion_is_what_fix_writes() {
    let xml: &[u8] = b"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<p>caf\xE9 cr\xE8me</p>\n<q>d\xC3\xA9j\xC3\xA0</q>\n";
    let dir = tree(&[("a.xml", xml)]);
    let o = run(
        dir.path(),
        ["check", "--format", "json", "--unsafe-fixes", "a.xml"],
    );
    let lines = json_lines(&o);
    let fix = lines
        .iter()
        .find(|v| v["code"] == "U005")
        .map(|v| &v["fix"])
        .unwrap_or_else(|| panic!("no U005: {}", stdout(&o)));
    assert_eq!(fix["kind"], "transcode");
    let encoding = encoding_rs::Encoding::for_label(fix["from"].as_str().unwrap().as_bytes())
        .expect("a known encoding");
    // Rebuild the file from the report alone: every edit is either a
    // stretch decoded from `from` (`decode_from`) or literal bytes.
    let mut pieces: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for e in fix["edits"].as_array().unwrap() {
        let at = |k: &str| e[k].as_u64().unwrap() as usize;
        let (s, end) = (at("byte_start"), at("byte_end"));
        let bytes = if e["decode_from"].is_string() {
            assert_eq!(e["decode_from"], fix["from"]);
            let text = encoding.decode_without_bom_handling(&xml[s..end]).0;
            text.into_owned().into_bytes()
        } else {
            let hex = e["replacement_hex"].as_str().unwrap();
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        };
        pieces.push((s, end, bytes));
    }
    pieces.sort();
    let mut rebuilt = Vec::new();
    let mut cursor = 0;
    for (s, e, bytes) in pieces {
        assert!(s >= cursor, "edits overlap");
        rebuilt.extend(&xml[cursor..s]);
        rebuilt.extend(bytes);
        cursor = e;
    }
    rebuilt.extend(&xml[cursor..]);
    convert(dir.path(), &["a.xml"]);
    let written = std::fs::read(dir.path().join("a.xml")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&rebuilt),
        String::from_utf8_lossy(&written)
    );
    assert_eq!(
        written,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p>café crème</p>\n<q>déjà</q>\n".as_bytes()
    );
}

/// A UTF-16 XML file says so in its declaration: converted to UTF-8, the
/// declaration says UTF-8 too, and the parser reads the same text.
#[test]
fn a_utf16_xml_file_is_converted_with_its_declaration() {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<p>Grüße, Привет, 日本語</p>\n";
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(xml.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let dir = tree(&[("wide.xml", &utf16)]);
    let read = || {
        output(
            dir.path(),
            "xmllint",
            &["--xpath", "string(/p)", "wide.xml"],
        )
    };
    let before = tool("xmllint").then(read);
    let after = convert(dir.path(), &["wide.xml"]);
    assert_eq!(after[0], xml.replace("UTF-16", "UTF-8"));
    if let Some(before) = before {
        assert_eq!(before, "Grüße, Привет, 日本語\n");
        assert_eq!(read(), before);
    }
}

/// A MessagePack record whose strings hold non-ASCII letters is binary:
/// one fix run leaves it byte for byte as it was (and converts the legacy
/// text beside it).
#[test]
fn a_messagepack_file_is_left_as_it_is() {
    // {"name": "Ålesund", "tags": ["by", "kyst"], "kommune": "Ålesund"}:
    // no NUL, no control byte, and ill-formed as UTF-8.
    let record =
        b"\x83\xA4name\xA8\xC3\x85lesund\xA4tags\x92\xA2by\xA4kyst\xA7kommune\xA8\xC3\x85lesund"
            .to_vec();
    let latin1 = encoded(FRENCH, encoding_rs::WINDOWS_1252);
    let dir = tree(&[("city.msgpack", &record), ("notes.txt", &latin1)]);
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(
        std::fs::read(dir.path().join("city.msgpack")).unwrap(),
        record
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        FRENCH
    );
}
