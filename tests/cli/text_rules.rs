//! U008, U010..U014 and U018 end to end: what a terminal and a JSON consumer get.
//! Every rendering of a hidden character is an escape.

use crate::common::*;

/// Characters a terminal would reorder, hide or obey.
const HIDDEN: [char; 10] = [
    '\u{202E}',
    '\u{2066}',
    '\u{2069}',
    '\u{200B}',
    '\u{E0041}',
    '\u{93}',
    '\u{1B}',
    '\u{FFFE}',
    '\u{AD}',
    '\u{3164}',
];

#[test]
fn text_rule_findings_are_escaped_in_every_text_format_and_exact_in_json() {
    let trojan =
        "fn main() {\n    let access = \"user\u{202E} \u{2066}// admin\u{2069} \u{2066}\";\n}\n";
    let smuggled = "Review me.\u{E0069}\u{E0067}\u{E006E}\n";
    let controls = "bell\u{7} and \u{93}quote\u{94} and \u{1B}]0;title\u{7} \u{1B}c reset\n";
    let others = "x\u{FFFE}y soft\u{AD}hyphen \u{3164} zero\u{200B}width\n";
    let dir = tree(&[
        ("main.rs", trojan.as_bytes()),
        ("prompt.md", smuggled.as_bytes()),
        ("log.txt", controls.as_bytes()),
        ("odd.txt", others.as_bytes()),
    ]);
    for format in ["human", "concise", "github"] {
        let o = run(dir.path(), ["check", "--format", format, "."]);
        let out = stdout(&o);
        for c in HIDDEN {
            assert!(
                !out.contains(c),
                "{format}: raw U+{:04X} in\n{out}",
                u32::from(c)
            );
        }
        // Named in every format; the human one also shows the line, escaped.
        assert!(
            out.contains("U+202E RIGHT-TO-LEFT OVERRIDE"),
            "{format}: {out}"
        );
        if format == "human" {
            assert!(out.contains("\\u{202E}"), "{out}");
        }
        assert_eq!(code(&o), 1, "{format}: U010 is deny");
    }
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    let mut found: Vec<(String, String)> = findings(&o);
    found.sort();
    found.dedup();
    assert_eq!(
        found,
        [
            ("log.txt".to_owned(), "U012".to_owned()),
            ("main.rs".to_owned(), "U010".to_owned()),
            ("odd.txt".to_owned(), "U011".to_owned()),
            ("odd.txt".to_owned(), "U013".to_owned()),
            ("prompt.md".to_owned(), "U018".to_owned()),
        ],
        "{}",
        stdout(&o)
    );
    let json = stdout(&o);
    assert!(json.contains("spelling `ign`"), "{json}");
    assert!(json.contains("did you mean `“`?"), "{json}");
    // No fix of a hidden character is safe: the tag run stays with --fix
    // and goes with --unsafe-fixes.
    let o = run(dir.path(), ["check", "--fix", "prompt.md"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("prompt.md")).unwrap(),
        smuggled
    );
    let o = run(
        dir.path(),
        ["check", "--fix", "--unsafe-fixes", "prompt.md"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("prompt.md")).unwrap(),
        "Review me.\n"
    );
}

/// U014 is allowed by default and enabled per file by `utf8lint.toml`.
#[test]
fn non_ascii_is_enabled_per_project() {
    let draft = "Section\u{A0}10 of RFC2026.\nplain\n“quoted”\n";
    let dir = tree(&[("draft.txt", draft.as_bytes())]);
    assert!(findings(&run(dir.path(), ["check", "--format", "json", "."])).is_empty());
    std::fs::write(
        dir.path().join("utf8lint.toml"),
        "[lints]\nnon_ascii = \"warn\"\n",
    )
    .unwrap();
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(findings(&o).len(), 2, "{}", stdout(&o));
    assert!(stdout(&o).contains("2 lines in this file hold non-ASCII characters"));
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("draft.txt")).unwrap(),
        "Section 10 of RFC2026.\nplain\n\"quoted\"\n"
    );
}

/// A Hebrew catalogue that opens embeddings and never closes them (before
/// `%s`, on an untranslated English message, across a continuation line
/// whose PDF closes nothing): `--fix --unsafe-fixes` closes each where its
/// string ends, before the `\n`, deletes the stray closer, keeps the
/// closed pairs; `msgfmt -c` compiles the same messages' text (the
/// controls aside) before and after, and a second run finds nothing.
/// A catalogue string runs on over its continuation lines: an embedding
/// one line opens and a later line of the same string closes is balanced
/// (no finding, and the fix leaves it as it is). One closed after the
/// `\n` that ended its paragraph is still found and closed before that
/// `\n`; one left open in a paragraph that goes on on the next line is
/// found with no fix (closing it at its line's end would change how the
/// rest shows). `msgfmt -c` accepts the file before and after, and it
/// compiles to the same messages.
#[test]
fn an_embedding_closed_on_a_later_line_of_its_string_is_balanced() {
    let po = concat!(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n",
        "msgid \"\"\n\"Cannot open %s: \"\n\"%s\"\nmsgstr \"\"\n",
        "\"\u{202B}לא ניתן לפתוח את %s: \"\n\"%s\u{202C}\"\n\n",
        "msgid \"\"\n\"Path\\n\"\n\"%s\"\nmsgstr \"\"\n\"\u{2067}נתיב\\n\"\n\"%s\u{2069}\"\n\n",
        "msgid \"\"\n\"Left \"\n\"open %s\"\nmsgstr \"\"\n\"\u{202B}נשאר \"\n\"פתוח %s\"\n",
    );
    let dir = tree(&[("he.po", po.as_bytes())]);
    let found = json_lines(&run(dir.path(), ["check", "--format", "json", "he.po"]));
    let lines = |found: &[serde_json::Value]| -> Vec<u64> {
        found
            .iter()
            .filter(|d| d["code"] == "U010")
            .map(|d| d["line"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(lines(&found), [16, 17, 23], "{found:#?}");
    let msgfmt = |name: &str| -> Option<String> {
        if !(have("msgfmt") && have("msgunfmt")) {
            return None;
        }
        let o = std::process::Command::new("msgfmt")
            .args(["-c", "-o", name, "he.po"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new("msgunfmt")
            .arg(name)
            .current_dir(dir.path())
            .output()
            .unwrap();
        Some(
            String::from_utf8_lossy(&o.stdout)
                .chars()
                .filter(|c| !matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
                .collect(),
        )
    };
    let before = msgfmt("before.mo");
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "he.po"]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    let fixed = String::from_utf8(std::fs::read(dir.path().join("he.po")).unwrap()).unwrap();
    let want = po
        .replace("\u{2067}נתיב\\n", "\u{2067}נתיב\u{2069}\\n")
        .replace("%s\u{2069}\"", "%s\"");
    assert_eq!(fixed, want);
    let again = json_lines(&run(dir.path(), ["check", "--format", "json", "he.po"]));
    assert_eq!(lines(&again), [23], "{again:#?}");
    assert_eq!(msgfmt("after.mo"), before);
}

#[test]
fn a_catalogues_unclosed_embeddings_are_closed_and_msgfmt_reads_it_alike() {
    let po = concat!(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n",
        "msgid \"%s bytes\"\nmsgstr \"\u{202B}%s בתים\"\n\n",
        "msgid \"Wanted to read %lu bytes\"\nmsgstr \"\u{202B}Wanted to read %lu bytes\"\n\n",
        "msgid \"\"\n\"Expecting one fd\\n\"\n\"done\\n\"\nmsgstr \"\"\n",
        "\"\u{202B}מצפה לאחד\\n\"\n\"\u{202C}\\n\"\n\n",
        "msgid \"UTF-8 name\"\nmsgstr \"\u{202A}UTF-8\u{202C} שם\"\n",
    );
    let dir = tree(&[("he.po", po.as_bytes())]);
    let found = json_lines(&run(dir.path(), ["check", "--format", "json", "he.po"]));
    let u010: Vec<_> = found.iter().filter(|d| d["code"] == "U010").collect();
    assert_eq!(u010.len(), 4, "{found:#?}");
    // What the program gets: the catalogue compiled (`msgfmt -c` accepts
    // it) and read back (`msgunfmt`), the controls aside.
    let have_tools = have("msgfmt") && have("msgunfmt");
    let compiled = |name: &str| -> String {
        let o = std::process::Command::new("msgfmt")
            .args(["-c", "-o", name, "he.po"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = std::process::Command::new("msgunfmt")
            .arg(name)
            .current_dir(dir.path())
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout)
            .chars()
            .filter(|c| !matches!(c, '\u{202A}'..='\u{202E}'))
            .collect()
    };
    let before = have_tools.then(|| compiled("before.mo"));
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "he.po"]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    let fixed = String::from_utf8(std::fs::read(dir.path().join("he.po")).unwrap()).unwrap();
    let want = po
        .replace("\u{202B}%s בתים\"", "\u{202B}%s בתים\u{202C}\"")
        .replace("%lu bytes\"\n\n", "%lu bytes\u{202C}\"\n\n")
        .replace("\u{202B}מצפה לאחד\\n", "\u{202B}מצפה לאחד\u{202C}\\n")
        .replace("\"\u{202C}\\n\"", "\"\\n\"");
    assert_eq!(fixed, want);
    let again = json_lines(&run(dir.path(), ["check", "--format", "json", "he.po"]));
    assert!(again.iter().all(|d| d["code"] != "U010"), "{again:#?}");
    if let Some(before) = before {
        assert_eq!(compiled("after.mo"), before);
    }
}

/// roff uses C0 controls as syntax and data: BEL delimits an escape's
/// argument and a string comparison's parts, SOH is the leader. None is a
/// finding there, `--fix --unsafe-fixes` deletes none, and `groff -Z`
/// (troff's output) is the same before and after. A stray control in a
/// roff text line is reported, with no fix.
#[test]
fn roffs_delimiters_and_leader_are_neither_reported_nor_deleted() {
    let tmac = concat!(
        ".\\\" A macro package's way with delimiters.\n",
        ".de CMP\n",
        ".  ie \u{7}\\\\$1\u{7}yes\u{7} matched \\w\u{7}\\\\$1\u{7}u wide\n",
        ".  el differs\n",
        "..\n",
        ".ds LEADER \u{1}\n",
        ".CMP yes\n",
        ".CMP no\n",
        "Indented \\h\u{7}0.5i\u{7}text.\n",
    );
    let page = ".TH X 1\n.SH NAME\nx \\- a stray\u{b}control\n";
    let dir = tree(&[("tmac/cmp.tmac", tmac.as_bytes()), ("x.1", page.as_bytes())]);
    let found = json_lines(&run(dir.path(), ["check", "--format", "json", "."]));
    let u012: Vec<_> = found.iter().filter(|d| d["code"] == "U012").collect();
    assert_eq!(u012.len(), 1, "{found:#?}");
    assert_eq!(u012[0]["path"], "x.1");
    assert!(u012[0]["fix"].is_null(), "{:#?}", u012[0]);
    let troff = |name: &str| -> Option<Vec<u8>> {
        if !have("groff") {
            return None;
        }
        let o = std::process::Command::new("groff")
            .args(["-Z", "-T", "utf8", name])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Some(o.stdout)
    };
    let before = troff("tmac/cmp.tmac");
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(
        std::fs::read(dir.path().join("tmac/cmp.tmac")).unwrap(),
        tmac.as_bytes()
    );
    assert_eq!(
        std::fs::read(dir.path().join("x.1")).unwrap(),
        page.as_bytes()
    );
    if let Some(before) = before {
        assert!(String::from_utf8_lossy(&before).contains("matched"));
        assert_eq!(troff("tmac/cmp.tmac"), Some(before));
    }
}

/// An Info file's structure is made of controls: `\x1F` alone on a line
/// between nodes, `\x7F` before a tag table entry's offset, the backspace
/// of an index marker after a NUL. None is reported, by the file's name or
/// by makeinfo's first line; a stray control in a node's text still is,
/// with no fix (an Info file is data). So is awk's field separator set to
/// BEL, as every configure script autoconf writes has it, but not a BEL
/// elsewhere in the same script. `--fix --unsafe-fixes` changes neither
/// file. (The index's NULs stand past the first 8 KiB, as in a real
/// manual: a NUL before that makes a file binary, skipped whole.)
#[test]
fn info_structure_and_awk_separators_are_not_reported() {
    let info = [
        "This is x.info, produced by makeinfo version 6.8 from x.texi.\n",
        "\n\u{1F}\nFile: x.info,  Node: Top,  Next: Index,  Up: (dir)\n\n",
        "x\n*\n\nA stray\u{7}bell.\n",
        &"Text of the manual, long enough for the index to come late.\n".repeat(150),
        "\u{1F}\nFile: x.info,  Node: Index,  Prev: Top,  Up: Top\n\n",
        "Index\n*****\n\n\0\u{8}[index\0\u{8}]\n* Menu:\n\n",
        "* x:                                     Top.                   (line 6)\n\n",
        "\u{1F}\nTag Table:\nNode: Top\u{7F}65\nNode: Index\u{7F}9158\n\u{1F}\nEnd Tag Table\n",
    ]
    .concat();
    let info = info.as_str();
    let configure = concat!(
        "#! /bin/sh\n",
        "cat >>\"$ac_tmp/subs1.awk\" <<_ACAWK &&\n",
        "  for (key in S) S_is_set[key] = 1\n",
        "  FS = \"\u{7}\"\n",
        "}\n",
        "_ACAWK\n",
        "echo 'a stray \u{7} bell'\n",
    );
    let dir = tree(&[
        ("doc/manual", info.as_bytes()),
        ("doc/x.info-1", info.as_bytes()),
        ("configure", configure.as_bytes()),
    ]);
    let found = json_lines(&run(dir.path(), ["check", "--format", "json", "."]));
    let mut u012: Vec<(String, u64)> = found
        .iter()
        .filter(|d| d["code"] == "U012")
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    u012.sort();
    let want = [("configure", 7), ("doc/manual", 9), ("doc/x.info-1", 9)];
    assert_eq!(u012, want.map(|(p, l)| (p.to_owned(), l)), "{found:#?}");
    assert!(
        found
            .iter()
            .filter(|d| d["code"] == "U012" && d["path"] != "configure")
            .all(|d| d["fix"].is_null()),
        "{found:#?}"
    );
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    for (name, text) in [("doc/manual", info), ("doc/x.info-1", info)] {
        assert_eq!(
            std::fs::read(dir.path().join(name)).unwrap(),
            text.as_bytes()
        );
    }
    let fixed = std::fs::read(dir.path().join("configure")).unwrap();
    assert!(
        String::from_utf8(fixed)
            .unwrap()
            .contains("  FS = \"\u{7}\"\n"),
        "the separator is kept"
    );
}
