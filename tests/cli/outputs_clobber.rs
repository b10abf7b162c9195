//! Outputs that cannot clobber what the run reads: `-o` naming an input
//! (by any name) is refused before anything is written, the report never
//! lands in a walked file, fixed standard input and the report never share
//! a destination; and a caller's read-write `/dev/null` is an open standard
//! output.

use std::process::{Command, Stdio};

use crate::common::*;

/// JSON with a byte-order mark: an error (U003) with a safe fix.
const BAD: &[u8] = b"\xEF\xBB\xBF{}\n";
const FIXED: &[u8] = b"{}\n";

#[test]
fn an_output_file_that_is_an_input_is_refused_before_anything_is_written() {
    let dir = tree(&[("a.json", BAD), ("sub/keep.txt", b"fine\n")]);
    std::fs::hard_link(dir.path().join("a.json"), dir.path().join("hard.json")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("a.json", dir.path().join("link.json")).unwrap();
    let mut cases = vec![
        vec!["check", "-o", "a.json", "a.json"],
        vec!["check", "--fix", "-o", "a.json", "a.json"],
        vec!["check", "--fix", "-o", "./a.json", "sub/keep.txt", "a.json"],
        vec!["check", "-o", "sub/../a.json", "a.json"],
        vec!["check", "--fix", "-o", "hard.json", "a.json"],
    ];
    #[cfg(unix)]
    cases.push(vec![
        "check",
        "--fix",
        "--unsafe-fixes",
        "-o",
        "link.json",
        "a.json",
    ]);
    for args in cases {
        let o = run(dir.path(), &args);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{args:?}: {err}");
        assert!(err.contains("is also a file to check"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read(dir.path().join("a.json")).unwrap(),
            BAD,
            "{args:?}"
        );
    }
    // The baseline is no place for the report either.
    let o = run(
        dir.path(),
        [
            "check",
            "--write-baseline",
            "b.json",
            "-o",
            "b.json",
            "a.json",
        ],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!dir.path().join("b.json").exists());
}

#[test]
fn a_walked_directory_never_checks_or_fixes_the_report_file() {
    let dir = tree(&[("a.json", BAD), ("report.json", BAD)]);
    // report.txt exists (a previous run's report): the walk leaves it out,
    // so it is neither reported nor fixed, then it is replaced whole.
    let o = run(
        dir.path(),
        [
            "check",
            "--fix",
            "--format",
            "json-lines",
            "-o",
            "report.json",
            ".",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("fixed 1 finding in 1 file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.path().join("a.json")).unwrap(), FIXED);
    // JSON Lines: no finding left is no line.
    assert_eq!(std::fs::read(dir.path().join("report.json")).unwrap(), b"");
    // Written with a finding in it, it is still not checked.
    std::fs::write(dir.path().join("a.json"), BAD).unwrap();
    let o = run(
        dir.path(),
        ["check", "--format", "json-lines", "-o", "report.json", "."],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let o = run(
        dir.path(),
        ["check", "--format", "json-lines", "-o", "report.json", "."],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let report = std::fs::read_to_string(dir.path().join("report.json")).unwrap();
    assert_eq!(report.lines().count(), 1, "{report}");
    assert!(report.contains("\"path\":\"a.json\""), "{report}");
}

#[test]
fn fixed_standard_input_and_the_report_never_share_a_file() {
    let dir = tree(&[]);
    for format in ["human", "json", "concise", "github"] {
        let mut child = cmd(dir.path())
            .args([
                "check",
                "--fix",
                "--format",
                format,
                "--stdin-filename",
                "x.json",
                "-o",
                "out.txt",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            // One safe fix (the BOM) and one finding left (U002).
            stdin
                .write_all(b"\xEF\xBB\xBF{\"a\": \"x\xEF\xBB\xBFy\"}\n")
                .unwrap();
        }
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_eq!(code(&o), 0, "{format}: {err}");
        assert_eq!(
            std::fs::read(dir.path().join("out.txt")).unwrap(),
            b"{\"a\": \"x\xEF\xBB\xBFy\"}\n",
            "{format}: the file holds the fixed bytes alone"
        );
        assert!(
            err.contains("U002"),
            "{format}: the findings go to standard error: {err}"
        );
        assert!(o.stdout.is_empty(), "{format}");
    }
}

#[test]
fn a_read_write_dev_null_is_an_open_standard_output() {
    let dir = tree(&[("bad.json", BAD)]);
    // As Python's subprocess.DEVNULL and Node's `stdio: 'ignore'` give it.
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    let o = cmd(dir.path())
        .args(["check", "bad.json"])
        .stdout(null)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "the check ran: {}", stderr(&o));
    let o = cmd(dir.path())
        .args(["check", "--fix", "bad.json"])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("bad.json")).unwrap(), FIXED);
}

/// The caller the issue names: Python's `subprocess.run(..., stdout=DEVNULL)`.
#[test]
fn python_subprocess_devnull_gets_the_check_s_exit_code() {
    let Ok(python) = Command::new("python3").arg("--version").output() else {
        eprintln!("python3 is not installed: skipped");
        return;
    };
    assert!(python.status.success());
    let dir = tree(&[("bad.json", BAD), ("good.txt", b"fine\n")]);
    let script = "import subprocess, sys\n\
                  for name in ('bad.json', 'good.txt'):\n    \
                  r = subprocess.run([sys.argv[1], 'check', name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n    \
                  print(r.returncode)\n";
    let o = Command::new("python3")
        .args(["-c", script, bin()])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "1\n0\n",
        "{}",
        stderr(&o)
    );
}
