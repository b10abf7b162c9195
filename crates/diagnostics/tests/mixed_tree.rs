//! The U005 verdicts on a mixed tree of real repositories (git, vim,
//! wasmtime, rust-analyzer), checked by hand once and kept as names, hashes
//! and expected verdicts in `fixtures/mixed-verdicts.tsv` (the files are
//! not copied). Runs when `UTF8LINT_MIXED_TREE` or `../mixed-tree`
//! points at the tree; says plainly that it is skipped otherwise.
//!
//! Each row: path, SHA-256 of the file, and the expected U005 message tail
//! (`windows-1251 (Cyrillic)`, `UTF-16BE`) or `-` for a file that must get
//! no U005 (UTF-8 with defects, binary data).

use std::path::{Path, PathBuf};
use std::process::Command;

use utf8lint_diagnostics::{BinaryEvidence, CheckOptions, Policy, Rule, Sniff, check, sniff};

const FIXTURE: &str = include_str!("fixtures/mixed-verdicts.tsv");

/// The tree to check: `UTF8LINT_MIXED_TREE`, else `mixed-tree` beside the repository.
fn tree() -> PathBuf {
    std::env::var_os("UTF8LINT_MIXED_TREE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../mixed-tree"),
        PathBuf::from,
    )
}

/// SHA-256 of a file, by `sha256sum` or `shasum -a 256` (no hashing crate
/// is a dependency); `None` if neither runs.
fn sha256(path: &Path) -> Option<String> {
    let run = |cmd: &str, args: &[&str]| {
        let out = Command::new(cmd).args(args).arg(path).output().ok()?;
        out.status.success().then(|| {
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned()
        })
    };
    run("sha256sum", &[]).or_else(|| run("shasum", &["-a", "256"]))
}

/// The U005 message tail for a file, or `-`.
fn verdict(bytes: &[u8], path: &Path) -> String {
    check(bytes, CheckOptions::new(path, &Policy::default()))
        .into_iter()
        .find(|d| d.rule == Rule::NotUtf8)
        .map_or_else(
            || "-".to_owned(),
            |d| {
                let m = d.message;
                if m.ends_with("that the text does not identify") {
                    return "unidentified".to_owned();
                }
                if m.ends_with("that no reading identifies") {
                    return "no reading".to_owned();
                }
                m.strip_prefix("this file is not UTF-8: it looks like ")
                    .or_else(|| m.strip_prefix("this file is not UTF-8: it is "))
                    .map(str::to_owned)
                    .or_else(|| {
                        m.strip_prefix("this file is ")
                            .and_then(|r| r.strip_suffix(", not UTF-8"))
                            .map(str::to_owned)
                    })
                    .unwrap_or(m)
            },
        )
}

#[test]
fn the_mixed_tree_verdicts_are_the_checked_ones() {
    let dir = tree();
    if !dir.is_dir() {
        println!(
            "SKIPPED: no mixed tree at {} (set UTF8LINT_MIXED_TREE); the real-tree verdicts were not checked",
            dir.display()
        );
        return;
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mixed-verdicts.tsv");
    if sha256(&fixture).is_none() {
        println!(
            "SKIPPED: neither sha256sum nor shasum runs; the real-tree verdicts were not checked"
        );
        return;
    }
    let (mut checked, mut skipped, mut wrong) = (0, Vec::new(), Vec::new());
    for line in FIXTURE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut fields = line.split('\t');
        // The fourth field says what the hand check found; the test keeps
        // the verdicts as they were checked, right or known wrong.
        let (Some(rel), Some(hash), Some(want)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("a fixture row needs path, hash and verdict: {line:?}");
        };
        let path = dir.join(rel);
        match std::fs::read(&path) {
            Ok(bytes) if sha256(&path).as_deref() == Some(hash) => {
                checked += 1;
                let got = verdict(&bytes, &path);
                if got != want {
                    wrong.push(format!("{rel}: expected {want}, got {got}"));
                }
            }
            _ => skipped.push(rel),
        }
    }
    println!(
        "{checked} files checked against {}, {} missing or changed: {skipped:?}",
        dir.display(),
        skipped.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    // A different tree is not this fixture's tree: say so rather than pass.
    assert!(
        checked * 2 > checked + skipped.len(),
        "most fixture files are missing or changed in {}",
        dir.display()
    );
}

/// Every file of the tree is read: none is MessagePack (the tree holds
/// none; its text, legacy text and binary files must not parse as it).
#[test]
fn nothing_in_the_mixed_tree_is_called_messagepack() {
    let dir = tree();
    if !dir.is_dir() {
        println!(
            "SKIPPED: no mixed tree at {} (set UTF8LINT_MIXED_TREE); MessagePack recognition was not checked on it",
            dir.display()
        );
        return;
    }
    let (mut files, mut called) = (0, Vec::new());
    let mut pending = vec![dir];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file()
                && let Ok(bytes) = std::fs::read(&path)
            {
                files += 1;
                if sniff(&bytes) == Sniff::Binary(BinaryEvidence::Signature { format: "msgpack" }) {
                    called.push(path);
                }
            }
        }
    }
    println!("{files} files read, {} called MessagePack", called.len());
    assert!(files > 1000, "the mixed tree has {files} files");
    assert!(called.is_empty(), "{called:#?}");
}
