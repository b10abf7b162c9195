//! The rule table's fixability column says what the rules do: a rule
//! marked without a fix never offers one, one marked `Always` offers one on
//! every finding, and the fixes' applicability is the safety the table
//! gives (`Varies`: each kind is seen). Judged on an input made for each
//! rule, on the committed fixtures, and on Markus Kuhn's UTF-8 decoder
//! stress test from the conformance corpus (`$UTF8LINT_CORPUS`, else
//! `../shared/corpus` beside the repository; skipped when absent unless
//! `UTF8LINT_REQUIRE_CORPUS=1`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use utf8lint_diagnostics::{
    Applicability, BomPolicy, BomRule, CheckOptions, FixSafety, Fixability, Keep, Level, Policy,
    PolicySource, Rule, check, check_path,
};

/// What one rule's findings were seen to carry.
#[derive(Default, Debug)]
struct Seen {
    findings: usize,
    without_fix: usize,
    safe: usize,
    unsafe_: usize,
    display_only: usize,
}

/// Every rule on, so that each has its chance.
fn policy() -> Policy {
    let mut policy = Policy::default();
    for &rule in Rule::ALL {
        if policy.levels.get(rule) == Level::Allow {
            policy.levels.set(rule, Level::Warn);
        }
    }
    policy
}

/// Inputs made to set off each rule, with the name that picks the policy.
fn made() -> Vec<(&'static str, Vec<u8>, Option<BomPolicy>)> {
    let latin1: Vec<u8> = b"Le caf\xE9 de la gare \xE9tait ferm\xE9, alors nous avons march\xE9 jusqu'\xE0 la brasserie. "
        .repeat(20);
    // A spelling table (as vim's): a charset's letters, which every 8-bit
    // encoding reads as letters, so none is identified.
    let alphabet: Vec<u8> = b"SET ISO8859-2\nTRY "
        .iter()
        .copied()
        .chain((0xC0..=0xFEu8).filter(|&b| b != 0xD7 && b != 0xF7))
        .chain(*b"\n")
        .collect();
    vec![
        ("u001.txt", b"a\xC0\xAEb \xFF\n".to_vec(), None),
        ("u002.txt", "\u{FEFF}line\nin a\u{FEFF}word\n".into(), None),
        ("u003.json", b"\xEF\xBB\xBF{}".to_vec(), None),
        ("u003.json", b"\xEF\xBB\xBF{\"a\": \"\xFF\"}".to_vec(), None),
        ("u004.txt", b"text\n".to_vec(), Some(BomPolicy::Require)),
        (
            "u004.txt",
            b"a\xC0\xAEb\n".to_vec(),
            Some(BomPolicy::Require),
        ),
        ("u005.txt", latin1, None),
        ("u005.txt", alphabet.clone(), None),
        ("u007.txt", "a\u{FFFD}b\n".into(), None),
        ("u008.txt", "cafÃ© au lait\n".into(), None),
        (
            "u009.py",
            "# -*- coding: latin-1 -*-\nname = 'café'\n".into(),
            None,
        ),
        (
            "u009.py",
            [b"# -*- coding: utf-8 -*-\n".as_slice(), &alphabet].concat(),
            None,
        ),
        ("u010.rs", "let s = \"a\u{202E}b\";\n".into(), None),
        (
            "u011.txt",
            "snake\u{200B}case soft\u{AD}hyphen tag\u{E0041}\u{E007F}\n".into(),
            None,
        ),
        ("u012.txt", "a\u{1}b c\u{85}d\n".into(), None),
        ("u013.txt", "a\u{FDD0}b\n".into(), None),
        ("u014.txt", "it\u{2019}s caf\u{E9}\n".into(), None),
        ("u015.txt", "x # utf8lint: allow(U001)\n".into(), None),
        ("u016.txt", "log in at p\u{430}ypal\n".into(), None),
        ("u017.py", "x = 1\u{A0}+ 2\nrun(x \u{2014}y)\n".into(), None),
        // Where a character may be meant, or the file is data: no fix.
        ("tests/u001.txt", b"a\xC0\xAEb\n".to_vec(), None),
        ("u002.rs", "let a\u{FEFF}b = 1;\n".into(), None),
        ("tests/fixtures/u003.json", b"\xEF\xBB\xBF{}".to_vec(), None),
        (
            "testdata/u004.txt",
            b"text\n".to_vec(),
            Some(BomPolicy::Require),
        ),
        ("u008.po", "#~ msgid \"cafÃ© au lait\"\n".into(), None),
        ("tests/u010.rs", "let s = \"a\u{202E}b\";\n".into(), None),
        ("u011.rs", "let snake\u{200B}case = 1;\n".into(), None),
        ("u012.pl", "s\u{7}a\u{7}b\u{7};\n".into(), None),
        ("u013.rs", "// a\u{FDD0}b\n".into(), None),
        ("u018.rs", "let a\u{FE0F} = 1;\n".into(), None),
    ]
}

/// The conformance corpus's stress test, if it is there.
fn kuhn() -> Option<Vec<u8>> {
    let dir = match std::env::var_os("UTF8LINT_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    let path = dir.join("UTF-8-test.txt");
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            assert!(
                std::env::var("UTF8LINT_REQUIRE_CORPUS").as_deref() != Ok("1"),
                "{} cannot be read ({e}) and UTF8LINT_REQUIRE_CORPUS=1",
                path.display()
            );
            eprintln!(
                "SKIPPED the corpus: {} cannot be read ({e}); set UTF8LINT_CORPUS",
                path.display()
            );
            None
        }
    }
}

#[test]
fn the_fixability_column_is_what_the_rules_do() {
    let mut inputs = made();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    for dir in ["mixed", "demo", "lsp"] {
        for entry in std::fs::read_dir(fixtures.join(dir)).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned().leak();
            inputs.push((name, std::fs::read(entry.path()).unwrap(), None));
        }
    }
    if let Some(bytes) = kuhn() {
        inputs.push(("UTF-8-test.txt", bytes, None));
    }
    let mut seen: BTreeMap<Rule, Seen> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut diagnostics = Vec::new();
    for (name, bytes, bom) in &inputs {
        let mut policy = policy();
        if let Some(bom) = bom {
            policy.bom = Some(BomRule {
                policy: *bom,
                source: PolicySource::Builtin {
                    format: "test",
                    why: "the test requires one",
                    reference: "none",
                },
            });
        }
        for d in check(
            bytes,
            CheckOptions::new(Path::new(name), &policy).keeping(Keep::Every),
        ) {
            diagnostics.push((*name, d));
        }
    }
    let bad_name = Path::new(std::ffi::OsStr::new("caf\u{FFFD}.txt"));
    #[cfg(unix)]
    let bad_name = {
        use std::os::unix::ffi::OsStrExt;
        let _ = bad_name;
        Path::new(std::ffi::OsStr::from_bytes(b"caf\xE9.txt"))
    };
    if let Some(d) = check_path(bad_name, Level::Warn) {
        diagnostics.push(("caf\\xE9.txt", d));
    }
    for (name, d) in diagnostics {
        let s = seen.entry(d.rule).or_default();
        s.findings += 1;
        let applicability = d.fix.as_ref().map(|f| f.applicability());
        match applicability {
            None => s.without_fix += 1,
            Some(Applicability::Safe) => s.safe += 1,
            Some(Applicability::Unsafe) => s.unsafe_ += 1,
            Some(Applicability::DisplayOnly) => s.display_only += 1,
        }
        let fixability = d.rule.fixability();
        let fits = match (fixability, applicability) {
            (Fixability::None, fix) => fix.is_none(),
            (Fixability::Always(_), None) => false,
            (_, None) => true,
            (f, Some(a)) => matches!(
                (f.safety(), a),
                (
                    Some(FixSafety::Varies),
                    Applicability::Safe | Applicability::Unsafe
                ) | (Some(FixSafety::Safe), Applicability::Safe)
                    | (Some(FixSafety::Unsafe), Applicability::Unsafe)
            ),
        };
        if !fits {
            wrong.push(format!(
                "{} {} in {name}: the table says {}, the finding has {applicability:?} ({})",
                d.rule.code(),
                d.rule.name(),
                fixability.describe(),
                d.message
            ));
        }
    }
    for (rule, s) in &seen {
        eprintln!("{} {:<24} {s:?}", rule.code(), rule.name());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every rule was judged, and each kind of fix a `Varies` or
    // `Sometimes` rule claims was seen.
    for &rule in Rule::ALL {
        let s = seen
            .get(&rule)
            .unwrap_or_else(|| panic!("{} was never found", rule.code()));
        match rule.fixability() {
            Fixability::Always(FixSafety::Varies) => {
                assert!(s.safe > 0 && s.unsafe_ > 0, "{}: {s:?}", rule.code())
            }
            Fixability::Sometimes(_) => {
                assert!(
                    s.without_fix > 0 && s.safe + s.unsafe_ > 0,
                    "{}: {s:?}",
                    rule.code()
                )
            }
            _ => {}
        }
    }
}
