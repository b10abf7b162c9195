//! The `.pre-commit-hooks.yaml` run by a real pre-commit against a scratch
//! git repository: the check hook (warnings shown though it passes, one
//! summary for all the files, help naming what works under a hook) and the
//! fix hook (`utf8lint-fix`, and its `args: [--unsafe-fixes]` recipe).
//!
//! By default the hook, as the file defines it, runs the binary the tests
//! built (a `repo: local` hook with `language: system`): what the hook
//! passes and how utf8lint answers is tested in seconds. The install path,
//! `pre-commit try-repo` running `cargo install --path .` on this
//! repository, builds a release binary from nothing (about 5 minutes on 2
//! cores), so it runs only when `UTF8LINT_PRECOMMIT_COLD=1` (CI sets it).

use std::path::Path;
use std::process::Command;

use crate::common::*;

#[test]
fn pre_commit_runs_the_hook_as_defined() {
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
        // A warning (U008 mojibake), which does not fail the hook.
        ("notes.md", "caf\u{C3}\u{A9} au lait\n".as_bytes()),
    ]);
    // Enough files for pre-commit to split them into batches run in
    // parallel, were the hook not `require_serial`.
    for i in 0..12 {
        std::fs::write(scratch.path().join(format!("plain{i}.txt")), "ok\n").unwrap();
    }
    git(scratch.path(), &["init", "-q"]);
    git(scratch.path(), &["add", "."]);
    git(scratch.path(), &["commit", "-qm", "init"]);
    let cold = std::env::var_os("UTF8LINT_PRECOMMIT_COLD").is_some_and(|v| v == "1");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit");
    if !cold {
        // The hook's own definition, pointed at the built binary.
        let config = local_config(&hooks_yaml(), "utf8lint", &[]);
        std::fs::write(scratch.path().join(".pre-commit-config.yaml"), config).unwrap();
        git(scratch.path(), &["add", ".pre-commit-config.yaml"]);
        git(scratch.path(), &["commit", "-qm", "config"]);
    }
    let run = || {
        let mut c = Command::new("pre-commit");
        c.current_dir(scratch.path());
        if cold {
            c.args(["try-repo", repo().to_str().unwrap(), "utf8lint"])
                // Reuse one build directory between the two runs.
                .env("CARGO_TARGET_DIR", cache.join("target"));
        } else {
            c.arg("run");
        }
        // Not `--verbose`: the hook's own `verbose: true` shows warnings.
        c.arg("--all-files")
            .env("PRE_COMMIT_HOME", cache.join("home"))
            // try-repo commits uncommitted changes to a shadow repository.
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .env_remove("NO_COLOR")
            .output()
            .unwrap()
    };
    let text = assert_failed_on_bad_json(&run());
    assert_one_summary(&text);
    // Under the hook, the help names what works there (`utf8lint` may not
    // be on PATH).
    assert!(
        text.contains("(safe fix: the `utf8lint-fix` hook, or `args: [--fix]` on this one)"),
        "{text}"
    );
    assert!(!text.contains("utf8lint check --fix"), "{text}");
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
    let out = run();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(code(&out), 0, "no error now:\n{text}");
    assert!(
        text.contains("utf8lint") && text.contains("Passed"),
        "{text}"
    );
    // The warning is shown although the hook passed.
    assert!(text.contains("warning[U008]"), "{text}");
    assert!(text.contains("notes.md:1:4"), "{text}");
    assert_one_summary(&text);
}

/// One `utf8lint: checked` line: the files were checked in one run.
fn assert_one_summary(text: &str) {
    assert_eq!(
        text.matches("utf8lint: checked").count(),
        1,
        "one summary for all the files:\n{text}"
    );
}

/// The repository's hook definitions.
fn hooks_yaml() -> String {
    std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap()
}

#[test]
fn the_fix_hook_fixes_and_its_unsafe_recipe_fixes_more() {
    if !have("pre-commit") || !have("git") {
        eprintln!("\n!!! NOTICE: `pre-commit` is not on PATH: the fix hook test is SKIPPED.\n");
        assert!(
            std::env::var_os("UTF8LINT_REQUIRE_PRECOMMIT").is_none_or(|v| v != "1"),
            "UTF8LINT_REQUIRE_PRECOMMIT=1 but `pre-commit` or `git` is not on PATH"
        );
        return;
    }
    let scratch = tree(&[
        // A forbidden BOM (safe fix) and mojibake (unsafe fix).
        ("bad.json", b"\xEF\xBB\xBF{\"a\": 1}\n"),
        ("notes.md", "caf\u{C3}\u{A9} au lait\n".as_bytes()),
    ]);
    let dir = scratch.path();
    git(dir, &["init", "-q"]);
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit");
    let run_hooks = |args: &[&str]| {
        std::fs::write(
            dir.join(".pre-commit-config.yaml"),
            local_config(&hooks_yaml(), "utf8lint-fix", args),
        )
        .unwrap();
        git(dir, &["add", "."]);
        let out = Command::new("pre-commit")
            .current_dir(dir)
            .args(["run", "--all-files"])
            .env("PRE_COMMIT_HOME", cache.join("home"))
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        (code(&out), format!("{}{}", stdout(&out), stderr(&out)))
    };
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();

    // The safe fix is made; pre-commit fails the hook because it changed a
    // file, and the warning left (an unsafe fix) is shown.
    let (status, text) = run_hooks(&[]);
    assert_eq!(status, 1, "{text}");
    assert!(text.contains("files were modified by this hook"), "{text}");
    assert!(text.contains("fixed 1 finding in 1 file"), "{text}");
    assert!(text.contains("warning[U008]"), "{text}");
    assert!(
        text.contains("(unsafe fix: `args: [--fix, --unsafe-fixes]` on the hook)"),
        "{text}"
    );
    assert_eq!(read("bad.json"), b"{\"a\": 1}\n");
    assert_eq!(read("notes.md"), "caf\u{C3}\u{A9} au lait\n".as_bytes());

    // Again: nothing to fix, so it passes, and says nothing about fixing.
    let (status, text) = run_hooks(&[]);
    assert_eq!(status, 0, "{text}");
    assert!(!text.contains("fixed"), "{text}");
    assert!(text.contains("warning[U008]"), "{text}");

    // The recipe for unsafe fixes too.
    let (status, text) = run_hooks(&["--unsafe-fixes"]);
    assert_eq!(status, 1, "{text}");
    assert!(text.contains("fixed 1 finding in 1 file"), "{text}");
    assert_eq!(read("notes.md"), "café au lait\n".as_bytes());
    let (status, text) = run_hooks(&["--unsafe-fixes"]);
    assert_eq!(status, 0, "{text}");
}

/// A `.pre-commit-config.yaml` holding the hook `id` of `hooks_yaml` (the
/// repository's `.pre-commit-hooks.yaml`) as a local hook: every key as
/// written, but `language: system` and the entry's program the binary the
/// tests built, and `args` if any.
fn local_config(hooks_yaml: &str, id: &str, args: &[&str]) -> String {
    let mut config = String::from("repos:\n  - repo: local\n    hooks:\n");
    let mut in_hook = false;
    let mut seen = Vec::new();
    for line in hooks_yaml.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            in_hook = rest.trim() == format!("id: {id}");
        }
        if !in_hook {
            continue;
        }
        let body = line.trim_start_matches("- ").trim_start();
        let (key, value) = body.split_once(':').expect("key: value");
        seen.push(key.to_owned());
        let value = match key {
            "language" => {
                assert_eq!(value.trim(), "rust", "the hook installs with cargo");
                " system".to_owned()
            }
            "entry" => {
                let args = value
                    .trim()
                    .strip_prefix("utf8lint")
                    .expect("entry runs utf8lint");
                // pre-commit splits the entry as a shell would.
                format!(" \"'{}'{args}\"", bin())
            }
            _ => value.to_owned(),
        };
        let lead = if line.starts_with("- ") {
            "      - "
        } else {
            "        "
        };
        config.push_str(&format!("{lead}{key}:{value}\n"));
    }
    if !args.is_empty() {
        config.push_str(&format!("        args: [{}]\n", args.join(", ")));
    }
    for key in [
        "id",
        "entry",
        "language",
        "types",
        "verbose",
        "require_serial",
    ] {
        assert!(
            seen.iter().any(|k| k == key),
            "the hook has no `{key}`: {hooks_yaml}"
        );
    }
    config
}

#[test]
fn the_mirror_defines_the_same_hooks_installed_from_the_wheel() {
    let hooks = |text: &str| text[text.find("- id:").expect("a hook")..].to_owned();
    let main = hooks(&hooks_yaml());
    let mirror = hooks(
        &std::fs::read_to_string(repo().join("packaging/pre-commit-mirror/.pre-commit-hooks.yaml"))
            .unwrap(),
    );
    assert_eq!(main.replace("language: rust", "language: python"), mirror);
    assert_eq!(
        main.matches("- id:").count(),
        2,
        "utf8lint and utf8lint-fix"
    );
}
