//! Odd outputs (issue 12): a closed or full standard output is exit 2 with
//! a message, a full standard error never a panic.

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
fn closed_or_full_standard_output_is_exit_2_with_a_message() {
    let dir = tree(&[("bad.txt", b"x\xFF\n"), ("good.txt", b"fine\n")]);
    // A full device fails only when there is something to write.
    for (target, file) in [
        (">&-", "bad.txt"),
        (">&-", "good.txt"),
        (">/dev/full", "bad.txt"),
    ] {
        {
            let o = sh(
                dir.path(),
                &format!("exec \"$UTF8LINT\" check {file} {target}"),
            );
            assert_eq!(o.status.code(), Some(2), "{file} {target}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(err.contains("utf8lint: error:"), "{file} {target}: {err}");
        }
    }
    // `>/dev/null` is a choice, not an error.
    let o = sh(dir.path(), "exec \"$UTF8LINT\" check bad.txt >/dev/null");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
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
