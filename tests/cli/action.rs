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
