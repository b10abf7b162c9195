//! `--diff` is a unified diff that `git apply` and `patch -p1` accept
//! and, applied by the real tools, gives the bytes `--fix` writes.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Files with a safe fix, unsafe fixes, several far-apart hunks, a last
/// line without `\n`, a name with a space and a name that is not ASCII.
fn fixable_tree() -> tempfile::TempDir {
    let mut long: Vec<u8> = Vec::new();
    for i in 1..=30 {
        long.extend_from_slice(format!("line {i}\n").as_bytes());
        if i == 3 || i == 20 {
            long.extend_from_slice(b"bad \xC0\xAF here\n");
        }
    }
    tree(&[
        ("a.json", b"\xEF\xBB\xBF{\"k\": 1}\n"),
        ("b.json", b"\xEF\xBB\xBF[]"),
        ("dir/two words.txt", b"ok\nx\xC0\xAFy\n"),
        ("café.txt", b"a\xEF\xBB\xBFb\n"),
        ("long.txt", &long),
        ("clean.txt", b"fine\n"),
    ])
}

fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", from.display()))
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Every file under `dir` with its bytes, in path order.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .build()
        .flatten()
    {
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let rel = entry.path().strip_prefix(dir).unwrap();
            out.push((
                rel.to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

#[test]
fn diff_applies_with_git_apply_and_patch_and_equals_fix() {
    let source = fixable_tree();
    let out = run(source.path(), ["check", "--diff", "--unsafe-fixes"]);
    assert_eq!(code(&out), 1);
    let patch = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(patch.path(), &out.stdout).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--- a/dir/two words.txt\t\n"), "{text}");
    assert!(text.contains("--- \"a/caf\\303\\251.txt\"\n"), "{text}");
    assert_eq!(
        text.matches("\n@@ ").count(),
        6,
        "one hunk per file, two in long.txt: {text}"
    );
    assert!(text.contains("\\ No newline at end of file\n"), "{text}");

    // What --fix writes is the reference.
    let fixed = tempfile::tempdir().unwrap();
    copy_tree(source.path(), fixed.path());
    let out = run(fixed.path(), ["check", "--fix", "--unsafe-fixes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let want = contents(fixed.path());
    assert_ne!(want, contents(source.path()));

    assert!(tool("git"), "git is needed for this test");
    let by_git = tempfile::tempdir().unwrap();
    copy_tree(source.path(), by_git.path());
    let applied = Command::new("git")
        .arg("apply")
        .arg(patch.path())
        .current_dir(by_git.path())
        .output()
        .unwrap();
    assert!(
        applied.status.success(),
        "git apply: {}",
        String::from_utf8_lossy(&applied.stderr)
    );
    assert_eq!(contents(by_git.path()), want, "git apply");

    assert!(tool("patch"), "GNU patch is needed for this test");
    let by_patch = tempfile::tempdir().unwrap();
    copy_tree(source.path(), by_patch.path());
    let applied = Command::new("patch")
        .args(["-p1", "--batch", "--forward", "-i"])
        .arg(patch.path())
        .current_dir(by_patch.path())
        .output()
        .unwrap();
    assert!(
        applied.status.success(),
        "patch -p1: {}{}",
        String::from_utf8_lossy(&applied.stdout),
        String::from_utf8_lossy(&applied.stderr)
    );
    assert_eq!(contents(by_patch.path()), want, "patch -p1");
}

#[test]
fn diff_on_a_terminal_is_escaped() {
    // `script` gives the run a terminal for standard output.
    if !tool("script") {
        eprintln!("NOTICE: `script` (util-linux) not found; skipping the terminal test");
        return;
    }
    let dir = tree(&[("a.json", b"\xEF\xBB\xBF{\"k\": \"\x1b[31m\"}\n")]);
    let out = Command::new("script")
        .args(["-qec"])
        .arg(format!("{} check --diff --color never a.json", bin()))
        .arg("/dev/null")
        .current_dir(dir.path())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-\\u{FEFF}{\"k\": \"\\u{1B}[31m\"}"),
        "{text:?}"
    );
    assert!(!text.contains('\u{1b}'), "{text:?}");
}
