//! The `.pre-commit-hooks.yaml` installed the way pre-commit does it:
//! `pre-commit try-repo` against a scratch git repository, which runs
//! `cargo install --path .` on this repository (slow: it builds the binary
//! in release mode, so this is the one such test and it checks several
//! things in one installation).

use std::path::Path;
use std::process::Command;

use crate::common::*;

pub(crate) fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pre_commit_try_repo_installs_and_runs_the_hook() {
    if !have("pre-commit") || !have("git") {
        if std::env::var_os("UTF8LINT_REQUIRE_PRECOMMIT").is_some_and(|v| v == "1") {
            panic!("UTF8LINT_REQUIRE_PRECOMMIT=1 but `pre-commit` or `git` is not on PATH");
        }
        eprintln!(
            "\n!!! NOTICE: `pre-commit` is not on PATH: the pre-commit hook test is SKIPPED.\n!!! Install it with `pip install pre-commit` (CI does) or set UTF8LINT_REQUIRE_PRECOMMIT=1 to make this a failure.\n"
        );
        return;
    }
    let scratch = tree(&[
        ("good.txt", "héllo\n".as_bytes()),
        ("bad.json", b"\xEF\xBB\xBF{\"a\": 1}\n"),
        // identify classes UTF-16 as binary, so `types: [text]` never passes
        // it to the hook: the documented limitation.
        // identify tags a file by its extension when it knows it: this
        // UTF-16 `.txt` is "text" and reaches the hook (U005)...
        ("wide.txt", b"\xFF\xFEh\x00i\x00\n\x00"),
        // ... but one whose extension it does not know is tagged by content,
        // and its NULs make it "binary": `types: [text]` never passes it,
        // the limitation the README documents.
        ("wide.dat", b"\xFF\xFEh\x00i\x00\n\x00"),
    ]);
    git(scratch.path(), &["init", "-q"]);
    git(scratch.path(), &["add", "."]);
    git(scratch.path(), &["commit", "-qm", "init"]);
    // Reuse one build directory and one pre-commit cache between runs.
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit");
    let try_repo = || {
        Command::new("pre-commit")
            .current_dir(scratch.path())
            .args([
                "try-repo",
                repo().to_str().unwrap(),
                "utf8lint",
                "--all-files",
                "--verbose",
            ])
            .env("PRE_COMMIT_HOME", cache.join("home"))
            .env("CARGO_TARGET_DIR", cache.join("target"))
            // try-repo commits uncommitted changes to a shadow repository.
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .env_remove("NO_COLOR")
            .output()
            .unwrap()
    };
    let out = try_repo();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(
        code(&out),
        1,
        "the hook fails on the forbidden BOM:\n{text}"
    );
    assert!(
        text.contains("error[U003]: JSON forbids a byte-order mark"),
        "{text}"
    );
    assert!(text.contains("bad.json"), "{text}");
    assert!(text.contains("wide.txt:1:1"), "{text}");
    assert!(
        text.contains("error[U005]: this file is UTF-16LE, not UTF-8"),
        "{text}"
    );
    assert!(
        !text.contains("wide.dat"),
        "content-tagged UTF-16 is not passed with types: [text]:\n{text}"
    );

    std::fs::write(scratch.path().join("bad.json"), b"{\"a\": 1}\n").unwrap();
    std::fs::write(scratch.path().join("wide.txt"), b"hi\n").unwrap();
    git(scratch.path(), &["commit", "-qam", "fix"]);
    let out = try_repo();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(code(&out), 0, "clean now:\n{text}");
    assert!(
        text.contains("utf8lint") && text.contains("Passed"),
        "{text}"
    );
}
