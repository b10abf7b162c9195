//! Running the binary and building fixture trees.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The test hook of the fix path (see `crates/workspace/src/write.rs`).
pub(crate) const HOOK: &str = "UTF8LINT_TEST_MUTATE_BEFORE_WRITE";

pub(crate) fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_utf8lint")
}

/// The repository root (where `tests/` is).
pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures").join(name)
}

/// A command for the binary in `dir`, with colour and terminal-dependent
/// behaviour neutralised.
pub(crate) fn cmd(dir: &Path) -> Command {
    let mut c = Command::new(bin());
    c.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("COLUMNS")
        .env_remove(HOOK)
        .stdin(Stdio::null());
    c
}

/// Runs `utf8lint ARGS` in `dir`.
pub(crate) fn run<I, S>(dir: &Path, args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    cmd(dir).args(args).output().expect("run utf8lint")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub(crate) fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// A temporary directory with `files` (relative path, bytes) written in it.
pub(crate) fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
    }
    dir
}

/// The diagnostics of `--format json` (an array) or `--format json-lines`
/// (an object a line) output; `tests/cli/conventions.rs` checks which
/// format prints which.
pub(crate) fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    let text = stdout(o);
    if text.starts_with('[') {
        return match serde_json::from_str(&text) {
            Ok(serde_json::Value::Array(items)) => items,
            _ => panic!("not a JSON array: {text:?}"),
        };
    }
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

/// The `path` and `code` of each JSON diagnostic (a file's note of
/// findings not shown and a trouble, which have no `code`, are none).
pub(crate) fn findings(o: &Output) -> Vec<(String, String)> {
    json_lines(o)
        .iter()
        .filter(|v| v.get("code").is_some())
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_owned(),
                v["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Whether the tests run as root, who can read files whatever their mode.
pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Whether `program --version` runs and succeeds.
pub(crate) fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs git in `dir` with a throwaway identity; fails the test on error.
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

/// Asserts that a pre-commit run failed on `bad.json`'s forbidden BOM;
/// returns everything it printed.
pub(crate) fn assert_failed_on_bad_json(out: &std::process::Output) -> String {
    let text = format!("{}{}", stdout(out), stderr(out));
    assert_eq!(code(out), 1, "the hook fails on the forbidden BOM:\n{text}");
    assert!(
        text.contains("error[U003]: JSON forbids a byte-order mark"),
        "{text}"
    );
    assert!(text.contains("bad.json"), "{text}");
    text
}

/// Runs the command `c` with `bytes` on its standard input.
pub(crate) fn with_stdin(mut c: Command, bytes: &[u8]) -> Output {
    use std::io::Write;
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run utf8lint");
    // The pipe may close early: a run that does not read its input.
    let _ = child.stdin.take().unwrap().write_all(bytes);
    child.wait_with_output().expect("wait for utf8lint")
}
