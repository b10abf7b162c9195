//! What `--fix --unsafe-fixes` may touch: characters that are syntax or
//! data are left alone (with the file's consumer run before and after
//! where it is installed), a string literal gets an escape, test data and
//! other data files keep their bytes, and no letter is guessed for a byte
//! the code pages read differently.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Runs `program ARGS` in `dir`: whether it succeeded, or `None` when the
/// program is not installed (the test then says so and checks the bytes).
fn consumer(dir: &Path, program: &str, args: &[&str]) -> Option<bool> {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(o) => Some(o.status.success()),
        Err(_) => {
            eprintln!("{program} is not installed: its run is skipped, the bytes are compared");
            None
        }
    }
}

fn fix_all(dir: &Path) {
    let o = run(dir, ["check", "--fix", "--unsafe-fixes", "."]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

/// Controls that are syntax or markup: Perl's `s\a...\a`, awk's `FS =
/// "\a"` in a shell script, Info's node separators, a help file's `\x04`
/// links. Reported or not, they are never deleted.
#[test]
fn controls_that_are_syntax_or_markup_are_kept() {
    let files: [(&str, &[u8]); 4] = [
        (
            "perl5db.pl",
            b"my $x = \"foo\";\n$x =~ s\x07foo\x07bar\x07;\nprint \"$x\\n\";\n",
        ),
        (
            "configure",
            b"#! /bin/sh\nawk 'BEGIN { FS = \"\x07\" } { print $1 }'\n",
        ),
        (
            "doc/emacs.info-2",
            b"This is emacs.info.\n\x1f\nFile: emacs.info,  Node: Top,  Next: Intro\n\nThe editor.\n\x1f\nTag Table:\n\x7f\n",
        ),
        ("lib/mc.hlp", b"\x04[Contents]\nSee \x01the keys\x02keys\x03.\n"),
    ];
    let dir = tree(&files);
    let perl = consumer(dir.path(), "perl", &["-c", "perl5db.pl"]);
    let shell = consumer(dir.path(), "sh", &["-n", "configure"]);
    assert_ne!(perl, Some(false), "perl -c fails before the fix");
    assert_ne!(shell, Some(false), "sh -n fails before the fix");
    fix_all(dir.path());
    for (name, bytes) in files {
        assert_eq!(read(dir.path(), name), bytes, "{name} was changed");
    }
    assert_eq!(perl, consumer(dir.path(), "perl", &["-c", "perl5db.pl"]));
    assert_eq!(shell, consumer(dir.path(), "sh", &["-n", "configure"]));
    // The findings say why there is no fix.
    let o = run(dir.path(), ["check", "--format", "json", "perl5db.pl"]);
    let found = json_lines(&o);
    assert!(!found.is_empty());
    for d in &found {
        assert!(d["fix"].is_null(), "{d}");
        assert!(d.to_string().contains("outside a string literal"), "{d}");
    }
}

/// Data deleted by a safe fix, and fixtures changed: a locale source's
/// collation element U+E0001, a Unicode data file's HANGUL FILLER and tag
/// characters, C1 bytes in an iconv test suite's expected output, a JSON
/// fixture whose byte-order mark is what its test reads. Neither `--fix`
/// nor `--unsafe-fixes` changes a byte.
#[test]
fn data_and_test_fixtures_keep_their_bytes() {
    let files: [(&str, &[u8]); 6] = [
        (
            "localedata/locales/iso14651_t1_common",
            "<U0020> IGNORE;IGNORE;IGNORE;<U0020>\n\u{E0001} IGNORE;IGNORE;IGNORE;\u{E0001}\n"
                .as_bytes(),
        ),
        (
            "unicode/ucd/NamesList.txt",
            "3164\tHANGUL FILLER\n\t\u{3164}\nE0041\tTAG LATIN CAPITAL LETTER A \u{E0041}\n"
                .as_bytes(),
        ),
        ("chars.txt", "U+3164 \u{3164} HANGUL FILLER\n".as_bytes()),
        (
            "iconvdata/testdata/ISO-8859-1..UTF8",
            "\u{80}\u{85}\u{9F} C1 controls in ISO-8859-1\n".as_bytes(),
        ),
        ("tests/fixtures/bom.json", b"\xEF\xBB\xBF{\"a\": 1}\n"),
        ("src/testdata/latin1.txt", b"caf\xE9 cr\xE8me\n"),
    ];
    let dir = tree(&files);
    let o = run(dir.path(), ["check", "--fix", "."]);
    assert_ne!(code(&o), 2, "{}", stderr(&o));
    fix_all(dir.path());
    for (name, bytes) in files {
        assert_eq!(read(dir.path(), name), bytes, "{name} was changed");
    }
    // Still reported, with the reason for no fix.
    let o = run(
        dir.path(),
        ["check", "--format", "json", "tests/fixtures/bom.json"],
    );
    let found = json_lines(&o);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0]["fix"].is_null());
    assert!(found[0].to_string().contains("no fix: this is test data"));
}

/// Inside a string literal the fix writes the language's escape, so that
/// the program's value is the same and the character shows; outside one
/// there is no fix. Python reads the same string before and after.
#[test]
fn in_a_string_literal_the_fix_is_the_escape_and_the_value_is_the_same() {
    let source =
        "word = \"zero\u{200B}width\"\ntag = 'x\u{E0041}'\nbell = \"\u{7}\"\n# a\u{200B}b\n";
    let dir = tree(&[("strings.py", source.as_bytes())]);
    let show = "import runpy; print([ascii(v) for k, v in sorted(runpy.run_path('strings.py').items()) if k in ('word', 'tag', 'bell')])";
    let value = |dir: &Path| {
        Command::new("python3")
            .args(["-c", show])
            .current_dir(dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| o.stdout)
    };
    let before = value(dir.path());
    fix_all(dir.path());
    let fixed = String::from_utf8(read(dir.path(), "strings.py")).unwrap();
    assert_eq!(
        fixed,
        "word = \"zero\\u200Bwidth\"\ntag = 'x\\U000E0041'\nbell = \"\\x07\"\n# a\u{200B}b\n"
    );
    match before {
        Some(before) => assert_eq!(value(dir.path()), Some(before)),
        None => eprintln!("python3 is not installed: the values are not compared"),
    }
    // One run settles the file: the comment's U+200B has no fix.
    fix_all(dir.path());
    assert_eq!(read(dir.path(), "strings.py"), fixed.as_bytes());
}

/// `msgfmt -c` accepted the catalogue before, and the repair of its
/// obsolete `#~ msgid "cafÃ©"` would duplicate the live `msgid "café"`
/// (msgfmt: "duplicate message definition"): U008 reports it, unfixed.
/// A live entry's mojibake is still repaired.
#[test]
fn obsolete_gettext_entries_get_no_mojibake_repair() {
    let po = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
              msgid \"café\"\nmsgstr \"Kaffee\"\n\n\
              msgid \"thé\"\nmsgstr \"Tee mit CrÃ¨me\"\n\n\
              #~ msgid \"cafÃ©\"\n#~ msgstr \"Kaffeehaus\"\n";
    let dir = tree(&[("de.po", po.as_bytes())]);
    let msgfmt = |dir: &Path| consumer(dir, "msgfmt", &["-c", "-o", "/dev/null", "de.po"]);
    let before = msgfmt(dir.path());
    assert_ne!(
        before,
        Some(false),
        "msgfmt -c rejects the catalogue before the fix"
    );
    fix_all(dir.path());
    let fixed = String::from_utf8(read(dir.path(), "de.po")).unwrap();
    assert_eq!(fixed, po.replace("CrÃ¨me", "Crème"));
    assert_eq!(msgfmt(dir.path()), before);
    let o = run(dir.path(), ["check", "--format", "json", "de.po"]);
    let found = json_lines(&o);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0]["fix"].is_null());
    assert!(found[0].to_string().contains("obsolete entry"));
}

/// `Schr\x94der` is CP437's `Schröder` and windows-1252's `Schr”der`: no
/// letter is written, U+FFFD is, and the note names both readings.
#[test]
fn a_byte_the_code_pages_read_differently_gets_no_letter() {
    let dir = tree(&[("names.txt", b"Gerhard Schr\x94der\n")]);
    let o = run(dir.path(), ["check", "names.txt"]);
    let out = stdout(&o);
    assert!(out.contains("`ö` in CP437"), "{out}");
    assert!(out.contains("`”` in windows-1252"), "{out}");
    fix_all(dir.path());
    assert_eq!(
        read(dir.path(), "names.txt"),
        "Gerhard Schr\u{FFFD}der\n".as_bytes()
    );
}

/// A catalogue's controls: IRC formatting codes (`\x16`, `\x02`) are bytes
/// text never holds, so the file is data and nothing in it is rewritten; a
/// bell, which text may hold, becomes its octal escape, and msgfmt compiles
/// the same catalogue. An obsolete entry's soft hyphen is left.
#[test]
fn controls_in_a_catalogues_strings_become_escapes_msgfmt_reads_alike() {
    let irc = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
               msgid \"\u{16} Ref# \u{2}bold\u{2}\"\nmsgstr \"\u{16} Nr. \u{2}fett\u{2}\"\n";
    let bell = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
                msgid \"Ring \u{7}now\"\nmsgstr \"Klingel \u{7}jetzt\"\n\n\
                #~ msgid \"--compose\u{AD}only\"\n#~ msgstr \"\"\n";
    let dir = tree(&[("af.po", irc.as_bytes()), ("de.po", bell.as_bytes())]);
    let compiled = |dir: &Path, po: &str, out: &str| {
        consumer(dir, "msgfmt", &["-c", "-o", out, po])
            .map(|ok| ok.then(|| std::fs::read(dir.join(out)).unwrap()))
    };
    let before = compiled(dir.path(), "de.po", "before.mo");
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert!(
        stderr(&o).contains("not fixing af.po: it holds the control byte \\x16"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        read(dir.path(), "af.po"),
        irc.as_bytes(),
        "af.po was changed"
    );
    let fixed = String::from_utf8(read(dir.path(), "de.po")).unwrap();
    assert_eq!(
        fixed,
        bell.replace('\u{7}', "\\007"),
        "the obsolete entry's soft hyphen is left"
    );
    if let Some(before) = before {
        assert!(
            before.is_some(),
            "msgfmt -c rejects the catalogue before the fix"
        );
        assert_eq!(compiled(dir.path(), "de.po", "after.mo"), Some(before));
    }
    // One run settles it.
    run(dir.path(), ["check", "--fix", "--unsafe-fixes", "de.po"]);
    assert_eq!(read(dir.path(), "de.po"), fixed.as_bytes());
}
