//! The `.pre-commit-hooks.yaml` run by a real pre-commit against a scratch
//! git repository.
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
    ]);
    git(scratch.path(), &["init", "-q"]);
    git(scratch.path(), &["add", "."]);
    git(scratch.path(), &["commit", "-qm", "init"]);
    let cold = std::env::var_os("UTF8LINT_PRECOMMIT_COLD").is_some_and(|v| v == "1");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit");
    if !cold {
        // The hook's own definition, pointed at the built binary.
        let config =
            local_config(&std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap());
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
        c.args(["--all-files", "--verbose"])
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
    assert_eq!(code(&out), 0, "clean now:\n{text}");
    assert!(
        text.contains("utf8lint") && text.contains("Passed"),
        "{text}"
    );
}

/// A `.pre-commit-config.yaml` holding the `utf8lint` hook of
/// `hooks_yaml` (the repository's `.pre-commit-hooks.yaml`) as a local
/// hook: every key as written, but `language: system` and the entry's
/// program the binary the tests built.
fn local_config(hooks_yaml: &str) -> String {
    let mut config = String::from("repos:\n  - repo: local\n    hooks:\n");
    let mut in_hook = false;
    let mut seen = Vec::new();
    for line in hooks_yaml.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            in_hook = rest.trim() == "id: utf8lint";
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
    for key in ["id", "entry", "language", "types"] {
        assert!(
            seen.iter().any(|k| k == key),
            "the hook has no `{key}`: {hooks_yaml}"
        );
    }
    config
}
