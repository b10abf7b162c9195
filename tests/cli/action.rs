//! The GitHub Action's shell steps (`scripts/github-action`), run here as
//! GitHub runs them: inputs in `INPUT_*` variables, `GITHUB_OUTPUT` a
//! file, against the binary the tests built.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::common::*;

/// Runs `scripts/github-action run` in `dir` with `inputs` (name, value).
fn action(dir: &Path, inputs: &[(&str, &str)]) -> (Output, String) {
    let output = dir.join("github-output");
    fs::write(&output, "").unwrap();
    let mut c = Command::new("bash");
    c.arg(repo().join("scripts/github-action"))
        .arg("run")
        .current_dir(dir)
        .env("UTF8LINT", bin())
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", dir)
        .env_remove("NO_COLOR");
    for (name, value) in inputs {
        c.env(name, value);
    }
    let out = c.output().expect("bash runs the action's script");
    let written = fs::read_to_string(&output).unwrap();
    fs::remove_file(output).unwrap();
    (out, written)
}

#[test]
fn the_action_annotates_writes_sarif_and_reports_the_exit_code() {
    let dir = tree(&[
        ("src/a.json", b"\xEF\xBB\xBF{}\n"),
        ("src/b.txt", "x\u{FEFF}y\n".as_bytes()),
        ("docs/ok.md", b"fine\n"),
    ]);
    let (out, written) = action(
        dir.path(),
        &[
            ("INPUT_PATHS", "src docs"),
            ("INPUT_ARGS", "-A stray_feff"),
            ("INPUT_SARIF", "out.sarif"),
        ],
    );
    assert!(
        out.status.success(),
        "the step itself succeeds: {}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("::error file=src/a.json,title=U003 forbidden_bom::")
            || text.contains("::error file=src/a.json,line=1"),
        "{text}"
    );
    assert!(!text.contains("U002"), "args reach utf8lint: {text}");
    assert!(written.contains("exit-code=1\n"), "{written}");
    assert!(written.contains("sarif-file=out.sarif\n"), "{written}");
    let sarif: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("out.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "U003");

    // A clean tree: exit code 0, no SARIF asked, none written.
    let (out, written) = action(dir.path(), &[("INPUT_PATHS", "docs")]);
    assert!(out.status.success());
    assert_eq!(written, "exit-code=0\n");
}

#[test]
fn the_action_gates_changed_lines_and_never_runs_its_inputs() {
    let dir = tree(&[("old.txt", "o\u{FEFF}\n".as_bytes())]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    fs::write(dir.path().join("new.json"), b"\xEF\xBB\xBF{}\n").unwrap();
    let (out, written) = action(
        dir.path(),
        &[
            ("INPUT_DIFF_BASE", "HEAD"),
            ("INPUT_ARGS", "$(touch pwned) ;touch pwned2"),
        ],
    );
    let text = stdout(&out);
    assert!(text.contains("file=new.json"), "{text}");
    assert!(!text.contains("old.txt"), "{text}");
    // The arguments went to utf8lint as words (a bad argument: exit 2).
    assert!(
        written.contains("exit-code=2\n"),
        "{written}{}",
        stderr(&out)
    );
    assert!(!dir.path().join("pwned").exists() && !dir.path().join("pwned2").exists());
}

#[test]
fn action_yml_passes_every_input_the_script_reads() {
    let action = fs::read_to_string(repo().join("action.yml")).unwrap();
    let script = fs::read_to_string(repo().join("scripts/github-action")).unwrap();
    for input in ["paths", "args", "diff-base", "sarif", "version"] {
        let var = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(action.contains(&format!("  {input}:\n")), "input {input}");
        assert!(
            action.contains(&format!("{var}: ${{{{ inputs.{input} }}}}")),
            "action.yml maps {input} to {var}"
        );
        assert!(script.contains(&var), "the script reads {var}");
    }
    // Inputs reach the steps only through the environment.
    for line in action
        .lines()
        .filter(|l| l.trim_start().starts_with("run:"))
    {
        assert!(!line.contains("${{"), "no expression in a run line: {line}");
    }
    assert!(action.contains("uses: github/codeql-action/upload-sarif@"));
}

#[test]
fn install_uses_the_binary_on_path_and_refuses_a_version_that_is_no_tag() {
    let dir = tempfile::tempdir().unwrap();
    let github_path = dir.path().join("github-path");
    fs::write(&github_path, "").unwrap();
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let install = |version: &str, path: &str| {
        Command::new("bash")
            .arg(repo().join("scripts/github-action"))
            .arg("install")
            .current_dir(dir.path())
            .env("PATH", path)
            .env("INPUT_VERSION", version)
            .env("GITHUB_PATH", &github_path)
            .env("RUNNER_TEMP", dir.path())
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .output()
            .unwrap()
    };
    let out = install("", &path);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("utf8lint is on PATH: utf8lint "),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        fs::read_to_string(&github_path).unwrap(),
        "",
        "PATH is left as it is"
    );
    // Without utf8lint on PATH, a version must be a release tag: nothing
    // else reaches the download's URL.
    let system = "/usr/bin:/bin";
    let installed = Command::new("sh")
        .args(["-c", &format!("PATH={system} command -v utf8lint")])
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        eprintln!("NOTICE: utf8lint is installed in {system}; skipping the version check");
        return;
    }
    let out = install("v1; touch pwned", system);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("::error title=utf8lint action::version must be a release tag"));
    assert!(!dir.path().join("pwned").exists());
}
