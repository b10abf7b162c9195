//! Odd inputs and outputs: a full standard output is exit 2 with a
//! message, a closed one is `/dev/null`, a full standard error never a
//! panic; a named procfs file or process substitution is read to its end.

use std::process::Command;

use crate::common::*;

fn sh(dir: &std::path::Path, script: &str) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("UTF8LINT", bin())
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_full_standard_output_is_exit_2_with_a_message() {
    let dir = tree(&[("bad.txt", b"x\xFF\n")]);
    // A full device fails only when there is something to write.
    let o = sh(dir.path(), "exec \"$UTF8LINT\" check bad.txt >/dev/full");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("utf8lint: error:"), "{}", stderr(&o));
    // `>/dev/null` is a choice, not an error.
    let o = sh(dir.path(), "exec \"$UTF8LINT\" check bad.txt >/dev/null");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// A descriptor 1 closed before the start is `/dev/null` by the time the
/// program runs (the Rust runtime opens it there): the check runs, its
/// results go nowhere, and the exit code still tells the findings.
#[test]
fn a_standard_output_closed_at_the_start_is_dev_null() {
    let dir = tree(&[("bad.txt", b"x\xFF\n"), ("good.txt", b"fine\n")]);
    for (file, want) in [("bad.txt", 1), ("good.txt", 0)] {
        let o = sh(dir.path(), &format!("exec \"$UTF8LINT\" check {file} >&-"));
        assert_eq!(o.status.code(), Some(want), "{file}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("utf8lint: error:"),
            "{file}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_full_standard_error_never_panics() {
    let dir = tree(&[("bad.txt", b"x\xFF\n")]);
    for args in [
        "check bad.txt",
        "check --format json bad.txt",
        "check nope.txt",
    ] {
        let o = sh(
            dir.path(),
            &format!("exec \"$UTF8LINT\" {args} 2>/dev/full"),
        );
        let code = o.status.code();
        assert!(matches!(code, Some(1 | 2)), "{args}: {code:?}");
    }
}

/// A procfs file says its size is 0; a named one is read to its end.
#[cfg(target_os = "linux")]
#[test]
fn a_named_procfs_file_is_read_to_the_end() {
    let dir = tree(&[]);
    // Our own environment, with an invalid byte after 100,000 others; its
    // entries end in NUL, so it is checked as text only when told to.
    use std::os::unix::ffi::OsStrExt;
    let mut pad = b"a".repeat(100_000);
    pad.push(0xFF);
    let out = Command::new(bin())
        .args([
            "check",
            "--format",
            "json",
            "--no-skip-binary",
            "/proc/self/environ",
        ])
        .current_dir(dir.path())
        .env("UTF8LINT_TEST_PAD", std::ffi::OsStr::from_bytes(&pad))
        .output()
        .unwrap();
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stdout(&out));
    assert_eq!(lines[0]["code"], "U001");
    assert!(lines[0]["byte_start"].as_u64().unwrap() > 100_000);
    assert_eq!(code(&out), 1);
    let out = run(dir.path(), ["check", "/proc/self/status"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("(0 B)"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_process_substitution_is_read_and_checked() {
    // The name /dev/fd/N has no extension, so an ill-formed byte, not a BOM.
    let dir = tree(&[("a.txt", b"x\xC0\xAFy\n")]);
    // `<(cat a.txt)` is a pipe named /dev/fd/N: read, not skipped.
    let out = sh(
        dir.path(),
        r#"exec "$UTF8LINT" check --format json <(cat a.txt)"#,
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let found = findings(&out);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.starts_with("/dev/fd/"), "{found:?}");
    assert!(
        stderr(&out).contains("checked 1 file (5 B)"),
        "{}",
        stderr(&out)
    );
}
