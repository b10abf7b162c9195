//! U017 on real code nobody here wrote: Python's own standard library,
//! with one look-alike put into the code of each of 60 files
//! (`tests/lookalike/inject.py`). Each copy is a `SyntaxError`; U017 finds
//! the one character and nothing else, and after `--fix` every copy parses
//! to the same syntax tree as its original. The standard library as it is
//! holds look-alikes only in strings and comments outside its test data
//! (whose `test/clinic.test.c` has a real one, a no-break space in an
//! `#if` line): no U017 there. What is installed beside it
//! (`site-packages`) differs from one machine to the next and is left out.

use std::process::Command;

use crate::common::*;

const CASES: usize = 60;

fn stdlib() -> Option<String> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import os, sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn inject(args: &[&str]) -> std::process::Output {
    Command::new("python3")
        .arg(repo().join("tests/lookalike/inject.py"))
        .args(args)
        .output()
        .expect("run python3")
}

#[test]
fn every_look_alike_put_into_real_python_is_found_and_the_fix_restores_the_code() {
    let Some(stdlib) = stdlib() else {
        eprintln!("NOTICE: python3 not found; skipping U017 on the standard library");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let made = inject(&["make", &stdlib, out, &CASES.to_string(), "17"]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&made.stdout).trim(),
        CASES.to_string()
    );
    for case in std::fs::read_dir(dir.path()).unwrap() {
        let path = case.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            let compiled = Command::new("python3")
                .args(["-m", "py_compile"])
                .arg(&path)
                .output()
                .unwrap();
            assert!(!compiled.status.success(), "{} compiles", path.display());
        }
    }
    let o = run(dir.path(), ["check", "--isolated", "--format", "json", "."]);
    let found = findings(&o);
    assert_eq!(found.len(), CASES, "{}", stdout(&o));
    assert!(found.iter().all(|(_, code)| code == "U017"), "{found:?}");
    let mut files: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
    files.dedup();
    assert_eq!(files.len(), CASES, "one finding per file");
    let o = run(dir.path(), ["check", "--isolated", "--fix", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let verified = inject(&["verify", out]);
    assert!(
        verified.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
}

#[test]
fn the_standard_library_as_it_is_has_no_finding() {
    let Some(stdlib) = stdlib() else {
        eprintln!("NOTICE: python3 not found; skipping U017 on the standard library");
        return;
    };
    let o = run(
        std::path::Path::new(&stdlib),
        ["check", "--isolated", "--format", "json", "."],
    );
    let u017: Vec<_> = findings(&o)
        .into_iter()
        .filter(|(path, code)| {
            code == "U017" && !path.starts_with("test") && !path.starts_with("site-packages")
        })
        .collect();
    assert_eq!(u017, [], "{}", stdout(&o));
}
