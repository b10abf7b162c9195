//! `--diff-base REV` against a real git history: only findings on lines
//! changed since REV, whole-file findings of changed files, nothing of
//! unchanged, deleted or renamed-away files; unchanged files not read.

use std::fs;
use std::path::Path;

use crate::common::*;

const FEFF: &str = "\u{FEFF}";

/// (code, line) of each finding, `line` 0 for one without.
fn found(o: &std::process::Output) -> Vec<(String, String, u64)> {
    json_lines(o)
        .iter()
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["code"].as_str().unwrap().to_owned(),
                v["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// Asserts the findings of `o` are `expected` (path, code, line).
fn assert_found(o: &std::process::Output, expected: &[(&str, &str, u64)]) {
    let expected: Vec<(String, String, u64)> = expected
        .iter()
        .map(|&(path, code, line)| (path.to_owned(), code.to_owned(), line))
        .collect();
    assert_eq!(found(o), expected, "{}", stdout(o));
}

fn write(dir: &Path, name: &str, text: &str) {
    fs::write(dir.join(name), text).unwrap();
}

/// A repository whose first commit has findings everywhere, then a
/// working tree with edits, a rename with an edit, a deletion, a new
/// staged file and a new untracked one.
fn history() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "edited.txt", &format!("old{FEFF}one\nclean\nlast\n"));
    write(d, "same.txt", &format!("un{FEFF}changed\n"));
    write(d, "gone.txt", &format!("de{FEFF}leted\n"));
    write(d, "moved.txt", &format!("a{FEFF}\nb\nc\nd\ne\nf\n"));
    // A forbidden BOM: a finding about the whole file.
    write(d, "data.json", &format!("{FEFF}{{\n\"k\": 1\n}}\n"));
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "base"]);
    git(d, &["tag", "base"]);
    write(
        d,
        "edited.txt",
        &format!("old{FEFF}one\nnew{FEFF}two\nlast\n"),
    );
    git(d, &["rm", "-q", "gone.txt"]);
    git(d, &["mv", "moved.txt", "renamed.txt"]);
    write(
        d,
        "renamed.txt",
        &format!("a{FEFF}\nb\nc\nd\ne\nf{FEFF}f\n"),
    );
    write(d, "data.json", &format!("{FEFF}{{\n\"k\": 2\n}}\n"));
    write(d, "staged.txt", &format!("s{FEFF}\n"));
    git(d, &["add", "staged.txt"]);
    write(d, "untracked.txt", &format!("u{FEFF}\n"));
    dir
}

#[test]
fn only_changed_lines_and_whole_file_findings_of_changed_files_are_reported() {
    let repo = history();
    let full = run(repo.path(), ["check", "--format", "json"]);
    assert_eq!(found(&full).len(), 8, "{}", stdout(&full));
    let out = run(
        repo.path(),
        ["check", "--format", "json", "--diff-base", "base"],
    );
    assert_eq!(
        found(&out),
        [
            ("data.json".into(), "U003".into(), 1),
            ("edited.txt".into(), "U002".into(), 2),
            ("renamed.txt".into(), "U002".into(), 6),
            ("staged.txt".into(), "U002".into(), 1),
            ("untracked.txt".into(), "U002".into(), 1),
        ],
        "{}",
        stdout(&out)
    );
    assert_eq!(code(&out), 1, "the BOM in data.json is deny-level");
    // Unchanged files are not read: five files checked, not six.
    assert!(stderr(&out).contains("checked 5 files"), "{}", stderr(&out));
    // A file named on the command line that did not change is passed over.
    let named = run(
        repo.path(),
        [
            "check",
            "--format",
            "json",
            "--diff-base",
            "base",
            "-v",
            "same.txt",
        ],
    );
    assert!(found(&named).is_empty(), "{}", stdout(&named));
    assert!(
        stderr(&named).contains("skipped same.txt: unchanged since base"),
        "{}",
        stderr(&named)
    );
    // From a subdirectory, paths are the run's own.
    fs::create_dir(repo.path().join("sub")).unwrap();
    write(&repo.path().join("sub"), "x.txt", &format!("x{FEFF}\n"));
    let sub = run(
        &repo.path().join("sub"),
        [
            "check",
            "--format",
            "json",
            "--diff-base",
            "base",
            ".",
            "../edited.txt",
        ],
    );
    assert_eq!(
        found(&sub),
        [
            ("../edited.txt".into(), "U002".into(), 2),
            ("x.txt".into(), "U002".into(), 1)
        ],
        "{}",
        stdout(&sub)
    );
}

/// A repository whose first commit, tagged `empty`, has no file.
fn empty_history() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    git(d, &["tag", "empty"]);
    dir
}

/// Against a base with none of the files (an empty tree: every file
/// added), the report is a full scan's, byte for byte: a file new since
/// the base is reported as the scan reports it, its findings past
/// `--max-per-file` in one note, not every one of them.
#[test]
fn every_file_added_reports_what_a_full_scan_does() {
    let dir = empty_history();
    let d = dir.path();
    let many: String = (0..20).map(|k| format!("word{k}{FEFF}joined\n")).collect();
    write(d, "many.txt", &many);
    // Latin-1, with more ill-formed sequences (72,000) than a report
    // lists (65,536).
    fs::write(d.join("legacy.txt"), b"caf\xE9 na\xEFve\n".repeat(36_000)).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "files"]);
    let args = ["check", "--format", "json", "--max-per-file", "3"];
    let full = run(d, args);
    let added = run(d, args.iter().copied().chain(["--diff-base", "empty"]));
    // The caps hold in the scan (3 of 20 shown, the rest counted).
    assert!(json_lines(&full).len() < 20, "{}", stdout(&full));
    assert_eq!(stdout(&added), stdout(&full));
}

/// Against the empty tree every file git tracks or would track is new,
/// whether the walk decides it (git is asked nothing more) or git does
/// (a named file, `--no-ignore`, a named directory inside the repository):
/// an ignored file did not change. A tree is a base as a commit is.
#[test]
fn against_an_empty_tree_ignored_files_are_not_new() {
    let dir = empty_history();
    let d = dir.path();
    write(d, ".gitignore", "ignored.txt\n");
    write(d, "kept.txt", &format!("k{FEFF}\n"));
    write(d, "ignored.txt", &format!("i{FEFF}\n"));
    fs::create_dir(d.join("sub")).unwrap();
    write(&d.join("sub"), "new.txt", &format!("n{FEFF}\n"));
    git(d, &["add", ".gitignore", "kept.txt"]);
    git(d, &["commit", "-q", "-m", "files"]);
    let json = ["check", "--format", "json", "--diff-base"];
    let walked = run(d, json.iter().copied().chain(["empty"]));
    assert_found(
        &walked,
        &[("kept.txt", "U002", 1), ("sub/new.txt", "U002", 1)],
    );
    let as_tree = run(d, json.iter().copied().chain(["empty^{tree}"]));
    assert_eq!(stdout(&as_tree), stdout(&walked));
    let everything = run(d, json.iter().copied().chain(["empty", "--no-ignore"]));
    assert_eq!(stdout(&everything), stdout(&walked));
    let named = run(
        d,
        json.iter()
            .copied()
            .chain(["empty", "ignored.txt", "kept.txt"]),
    );
    assert_found(&named, &[("kept.txt", "U002", 1)]);
    let sub = run(&d.join("sub"), json.iter().copied().chain(["empty"]));
    assert_found(&sub, &[("new.txt", "U002", 1)]);
    // A tree that is not empty is a base too.
    let tree = run(d, json.iter().copied().chain(["HEAD^{tree}"]));
    assert_found(&tree, &[("sub/new.txt", "U002", 1)]);
}

#[test]
fn baselines_and_fixes_keep_to_the_changed_lines() {
    let repo = history();
    let d = repo.path();
    // The baseline knows today's findings: with it, nothing is new.
    let wrote = run(d, ["check", "--write-baseline", "known.json"]);
    assert_eq!(code(&wrote), 0, "{}", stderr(&wrote));
    write(
        d,
        "edited.txt",
        &format!("old{FEFF}one\nnew{FEFF}two\nla{FEFF}st\n"),
    );
    let out = run(
        d,
        [
            "check",
            "--format",
            "json",
            "--diff-base",
            "base",
            "--baseline",
            "known.json",
            "edited.txt",
        ],
    );
    assert_eq!(
        found(&out),
        [("edited.txt".into(), "U002".into(), 3)],
        "{}",
        stdout(&out)
    );
    // --fix under --diff-base leaves the old line's finding alone.
    let fixed = run(
        d,
        [
            "check",
            "--fix",
            "--unsafe-fixes",
            "--diff-base",
            "base",
            "edited.txt",
        ],
    );
    assert_eq!(code(&fixed), 0, "{}", stderr(&fixed));
    let text = fs::read_to_string(d.join("edited.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!("old{FEFF}one"),
        "an old line is not fixed"
    );
    assert!(
        !lines[1].contains(FEFF) && !lines[2].contains(FEFF),
        "{text:?}"
    );
}

#[test]
fn no_repository_an_unknown_revision_or_no_git_is_trouble() {
    let plain = tree(&[("a.txt", b"fine\n")]);
    let out = run(plain.path(), ["check", "--diff-base", "main"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--diff-base needs a git repository"),
        "{}",
        stderr(&out)
    );
    let repo = history();
    // A revision that git would read as an option is refused before git runs.
    for rev in ["no-such-branch", "--output=x"] {
        let out = run(
            repo.path(),
            ["check".to_owned(), format!("--diff-base={rev}")],
        );
        assert_eq!(code(&out), 2, "{rev}");
        assert!(stderr(&out).contains("--diff-base"), "{}", stderr(&out));
        assert!(!repo.path().join("x").exists());
    }
    let out = run(repo.path(), ["check", "--diff-base", "no-such-branch"]);
    assert!(
        stderr(&out).contains("git knows no commit by that name"),
        "{}",
        stderr(&out)
    );
    let empty = tempfile::tempdir().unwrap();
    let out = cmd(repo.path())
        .env("PATH", empty.path())
        .args(["check", "--diff-base", "base"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("git is not installed"),
        "{}",
        stderr(&out)
    );
    let out = run(repo.path(), ["check", "--diff-base", "base", "-"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("standard input"), "{}", stderr(&out));
}
