//! `--exclude`, `exclude` in utf8lint.toml and `--force-exclude`, and the
//! pre-commit hook that passes it, under a real `pre-commit run`.

use std::path::Path;
use std::process::Command;

use crate::common::*;

fn concise(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check", "--format", "concise", "-q"];
    all.extend_from_slice(args);
    let out = run(dir, all);
    (code(&out), stdout(&out), stderr(&out))
}

/// The files of a finding report, one each.
fn files(out: &str) -> Vec<&str> {
    let mut files: Vec<&str> = out.lines().filter_map(|l| l.split(':').next()).collect();
    files.dedup();
    files
}

const BAD: &[u8] = b"a\xFFb\n";

fn legacy_tree() -> tempfile::TempDir {
    let dir = tree(&[
        (".utf8lintignore", b"legacy/\n"),
        ("utf8lint.toml", b"exclude = [\"gen/*.txt\"]\n"),
        ("legacy/old.txt", BAD),
        ("gen/out.txt", BAD),
        ("vendor/lib/v.txt", BAD),
        ("src/new.txt", BAD),
    ]);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    dir
}

#[test]
fn exclude_globs_and_the_config_key_leave_files_out_of_the_walk() {
    let dir = legacy_tree();
    let d = dir.path();
    let (_, out, _) = concise(d, &[]);
    assert_eq!(files(&out), ["src/new.txt", "vendor/lib/v.txt"], "{out}");
    let (_, out, _) = concise(d, &["--exclude", "vendor/", "--exclude", "*.md"]);
    assert_eq!(files(&out), ["src/new.txt"], "{out}");
    // Relative to the current directory.
    let (_, out, _) = concise(&d.join("vendor"), &["--exclude", "lib", "."]);
    assert_eq!(out, "");
    let (code_, _, err) = concise(d, &["--exclude", "a["]);
    assert_eq!(code_, 2);
    assert!(err.contains("--exclude a["), "{err}");
    std::fs::write(d.join("utf8lint.toml"), "exclude = \"gen\"\n").unwrap();
    let (code_, _, err) = concise(d, &["src"]);
    assert_eq!(code_, 2);
    assert!(err.contains("utf8lint.toml:1"), "{err}");
}

#[test]
fn force_exclude_applies_every_exclusion_to_named_files() {
    let dir = legacy_tree();
    let d = dir.path();
    let named = [
        "legacy/old.txt",
        "gen/out.txt",
        "vendor/lib/v.txt",
        "src/new.txt",
    ];
    let mut args = vec!["--exclude", "vendor"];
    args.extend(named);
    // Named files are checked whatever excludes them...
    let (_, out, _) = concise(d, &args);
    assert_eq!(files(&out).len(), 4, "{out}");
    // ...unless --force-exclude.
    args.push("--force-exclude");
    let (code_, out, _) = concise(d, &args);
    assert_eq!(files(&out), ["src/new.txt"], "{out}");
    assert_eq!(code_, 1);
    // --verbose says why each was left out.
    args.push("-v");
    let (_, _, err) = concise(d, &args);
    for skipped in [
        "skipped legacy/old.txt: excluded by an ignore file or --exclude",
        "skipped vendor/lib/v.txt: excluded by an ignore file or --exclude",
        "skipped gen/out.txt: excluded by ",
    ] {
        assert!(err.contains(skipped), "{err}");
    }
    assert!(
        err.contains("utf8lint.toml: exclude \"gen/*.txt\""),
        "{err}"
    );
}

#[test]
fn force_exclude_applies_to_the_name_standard_input_is_given() {
    use std::io::Write as _;
    use std::process::Stdio;
    let dir = legacy_tree();
    let check = |name: &str, force: bool| {
        let mut c = cmd(dir.path());
        c.args(["check", "--format", "concise", "--stdin-filename", name]);
        if force {
            c.arg("--force-exclude");
        }
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // An excluded input is not read: the pipe may close early.
        let _ = child.stdin.take().unwrap().write_all(BAD);
        let out = child.wait_with_output().unwrap();
        (code(&out), stdout(&out))
    };
    // Ignored by .utf8lintignore, and excluded by utf8lint.toml.
    for name in ["legacy/new.txt", "gen/x.txt"] {
        let (code_, out) = check(name, false);
        assert_eq!(code_, 1, "{name}");
        assert!(
            out.starts_with(&format!("{name}:1:2: error[U001]")),
            "{out}"
        );
        assert_eq!(check(name, true), (0, String::new()), "{name}");
    }
    assert_eq!(check("src/x.txt", true).0, 1);
}

/// The hook's `entry` in `.pre-commit-hooks.yaml`, run as a local hook with
/// the binary under test, so that no build happens here (the install itself
/// is tested by `precommit.rs`).
#[test]
fn pre_commit_run_leaves_a_staged_ignored_file_alone() {
    if !have("pre-commit") || !have("git") {
        if std::env::var_os("UTF8LINT_REQUIRE_PRECOMMIT").is_some_and(|v| v == "1") {
            panic!("UTF8LINT_REQUIRE_PRECOMMIT=1 but `pre-commit` or `git` is not on PATH");
        }
        eprintln!(
            "\n!!! NOTICE: `pre-commit` is not on PATH: the --force-exclude hook test is SKIPPED.\n"
        );
        return;
    }
    let hooks = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    let entry = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("entry: utf8lint "))
        .expect("the hook's entry runs utf8lint");
    assert!(entry.contains("--force-exclude"), "{entry}");
    let config = format!(
        "repos:\n  - repo: local\n    hooks:\n      - id: utf8lint\n        name: utf8lint\n        entry: '{} {entry}'\n        language: system\n        types: [text]\n",
        bin()
    );
    let dir = tree(&[
        (".pre-commit-config.yaml", config.as_bytes()),
        (".utf8lintignore", b"legacy/\n"),
        ("legacy/old.txt", BAD),
        ("src/ok.txt", b"fine\n"),
    ]);
    let d = dir.path();
    git(d, &["init", "-q"]);
    git(d, &["add", "."]);
    let pre_commit = || {
        Command::new("pre-commit")
            .current_dir(d)
            .args(["run", "--verbose"])
            .env("PRE_COMMIT_HOME", d.join(".cache"))
            .env_remove("NO_COLOR")
            .output()
            .unwrap()
    };
    // The ignored file is staged, so pre-commit names it: it passes.
    let out = pre_commit();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("Passed"), "{text}");
    assert!(!text.contains("old.txt"), "{text}");
    // A defect in a file that is not ignored still fails the hook.
    std::fs::write(d.join("src/new.txt"), BAD).unwrap();
    git(d, &["add", "."]);
    let out = pre_commit();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(code(&out), 1, "{text}");
    assert!(text.contains("error[U001]"), "{text}");
    assert!(text.contains(" --> src/new.txt:1:2"), "{text}");
    assert!(!text.contains("old.txt"), "{text}");
}
