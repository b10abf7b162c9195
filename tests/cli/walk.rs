//! What gets checked: ignore files, hidden files, explicit paths, binary
//! skipping, UTF-16, file names, unreadable paths, standard input, pipes.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::common::*;

const BAD: &[u8] = b"\xEF\xBB\xBF{}";

fn paths(out: &std::process::Output) -> Vec<String> {
    findings(out).into_iter().map(|(p, _)| p).collect()
}

#[test]
fn gitignore_hidden_and_no_ignore() {
    let dir = tree(&[
        (".gitignore", b"ignored/\n*.gen.json\n"),
        (".ignore", b"also.json\n"),
        (".utf8lintignore", b"mine.json\n"),
        ("kept.json", BAD),
        ("x.gen.json", BAD),
        ("also.json", BAD),
        ("mine.json", BAD),
        ("ignored/a.json", BAD),
        (".hidden/h.json", BAD),
        (".dot.json", BAD),
        (".git/objects/o.json", BAD),
    ]);
    // Hidden files are checked by default (a linter is not a
    // search tool); `.git` is never entered.
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(
        paths(&out),
        [".dot.json", ".hidden/h.json", "kept.json"],
        ".git is never entered"
    );
    let out = run(dir.path(), ["check", "--format", "json", "--no-hidden"]);
    assert_eq!(paths(&out), ["kept.json"]);
    // As in ripgrep, the later of --hidden and --no-hidden wins.
    let out = run(
        dir.path(),
        ["check", "--format", "json", "--no-hidden", "--hidden"],
    );
    assert_eq!(paths(&out), [".dot.json", ".hidden/h.json", "kept.json"]);
    let out = run(
        dir.path(),
        ["check", "--format", "json", "--hidden", "--no-hidden"],
    );
    assert_eq!(paths(&out), ["kept.json"]);
    let out = run(dir.path(), ["check", "--format", "json", "--no-ignore"]);
    assert_eq!(
        paths(&out),
        [
            ".dot.json",
            ".hidden/h.json",
            "also.json",
            "ignored/a.json",
            "kept.json",
            "mine.json",
            "x.gen.json"
        ]
    );
    // A file named on the command line is checked even if ignored or hidden.
    let out = run(
        dir.path(),
        [
            "check",
            "--format",
            "json",
            "ignored/a.json",
            ".dot.json",
            "x.gen.json",
        ],
    );
    assert_eq!(paths(&out), [".dot.json", "ignored/a.json", "x.gen.json"]);
    assert_eq!(code(&out), 1);
}

#[test]
fn gitignore_counts_only_in_a_git_repository_as_in_ripgrep() {
    // A source tarball's .gitignore (Debian's linux-source has `/*`) must not
    // hide the tarball; .ignore and .utf8lintignore apply anywhere.
    let dir = tree(&[
        (".gitignore", b"/*\n"),
        (".ignore", b"b.json\n"),
        ("a.json", BAD),
        ("b.json", BAD),
    ]);
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(paths(&out), ["a.json"]);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(paths(&out), Vec::<String>::new());
}

#[test]
fn binary_files_are_skipped_and_listed_with_verbose() {
    let dir = tree(&[
        ("blob.dat", b"\x7FELF\x02\x01\x01\x00\x00\x00\xC0\xFF"),
        ("ok.txt", b"fine\n"),
    ]);
    let out = run(dir.path(), ["check", "--format", "json-lines"]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("checked 1 file (5 B)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("1 binary file skipped"));
    assert!(
        !stderr(&out).contains("skipped blob.dat"),
        "only with --verbose"
    );
    let out = run(dir.path(), ["check", "--format", "json", "--verbose"]);
    assert!(
        stderr(&out).contains("skipped blob.dat: binary (NUL byte at offset 7"),
        "{}",
        stderr(&out)
    );
    let out = run(
        dir.path(),
        ["check", "--format", "json", "--no-skip-binary"],
    );
    assert_eq!(code(&out), 1, "checked as text, it is not UTF-8");
    assert_eq!(paths(&out)[0], "blob.dat");
}

#[test]
fn utf16_is_not_mistaken_for_binary() {
    let fixtures = repo().join("tests/fixtures");
    // --isolated: the repository's utf8lint.toml accepts its fixtures.
    let out = run(
        &fixtures,
        ["check", "--isolated", "--format", "json", "mixed"],
    );
    assert_eq!(code(&out), 1);
    let lines: Vec<serde_json::Value> = json_lines(&out)
        .into_iter()
        .filter(|v| v["path"].as_str().unwrap().contains("utf16"))
        .collect();
    let got: Vec<(&str, &str, &str)> = lines
        .iter()
        .map(|v| {
            (
                v["path"].as_str().unwrap(),
                v["code"].as_str().unwrap(),
                v["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "mixed/utf16be-bom.txt",
                "U005",
                "this file is UTF-16BE, not UTF-8"
            ),
            (
                "mixed/utf16le-bom.txt",
                "U005",
                "this file is UTF-16LE, not UTF-8"
            ),
            (
                "mixed/utf16le-nobom.txt",
                "U005",
                "this file is UTF-16LE, not UTF-8"
            ),
        ]
    );
    assert!(
        stderr(&out).contains("1 binary file skipped"),
        "the PNG is binary"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn non_utf8_file_names() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tree(&[]);
    let name = std::ffi::OsStr::from_bytes(b"caf\xE9.txt");
    std::fs::write(dir.path().join(name), "ok\n").unwrap();
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(code(&out), 0, "U006 is a warning");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    let d = &lines[0];
    assert_eq!(d["code"], "U006");
    assert_eq!(
        d["path"], "caf\\xE9.txt",
        "escaped, so that the JSON stays valid UTF-8"
    );
    assert!(d["message"].as_str().unwrap().contains("caf\\xE9.txt"));
    assert_eq!(d["line"], serde_json::Value::Null);
    assert_eq!(d["subparts"][0]["kind"], "truncated");
    let human = run(dir.path(), ["check"]);
    assert!(
        stdout(&human).contains("warning[U006]: file name is not valid UTF-8: `caf\\xE9.txt`"),
        "{}",
        stdout(&human)
    );
    let sarif = run(dir.path(), ["check", "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "caf%E9.txt"
    );
}

#[cfg(unix)]
#[test]
fn unreadable_and_missing_paths_are_reported_once_and_the_scan_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree(&[
        ("a.json", BAD),
        ("locked/b.json", BAD),
        ("secret.json", BAD),
    ]);
    let locked = dir.path().join("locked");
    let secret = dir.path().join("secret.json");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = run(
        dir.path(),
        ["check", "--format", "json", ".", "missing.txt"],
    );
    let err = stderr(&out);
    // A path that does not exist is trouble, reported once.
    assert_eq!(
        err.matches("missing.txt: no such file or directory")
            .count(),
        1,
        "{err}"
    );
    assert_eq!(code(&out), 2, "{err}");
    if is_root() {
        // Root reads and traverses whatever the mode bits say, so there is no
        // permission error to provoke here: all three files are checked.
        assert_eq!(paths(&out), ["a.json", "locked/b.json", "secret.json"]);
    } else {
        assert_eq!(paths(&out), ["a.json"]);
        assert_eq!(err.matches("permission denied").count(), 2, "{err}");
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_dangling_links_are_reported() {
    let dir = tree(&[("a.json", BAD)]);
    std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
    std::fs::create_dir_all(dir.path().join("d/inner")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("d/inner/up")).unwrap();
    // Named on the command line, a self-referencing link is a loop.
    let out = run(dir.path(), ["check", "--format", "json", "loop", "a.json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out).matches("loop: symbolic link loop").count(),
        1,
        "{}",
        stderr(&out)
    );
    assert_eq!(paths(&out), ["a.json"]);
    // Walking with --follow finds the directory loop once.
    let out = run(dir.path(), ["check", "--format", "json", "--follow", "d"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        stderr(&out).matches("symbolic link loop").count(),
        1,
        "{}",
        stderr(&out)
    );
    // A dangling link, followed, is reported once.
    std::os::unix::fs::symlink("nowhere", dir.path().join("d/dangling")).unwrap();
    let out = run(dir.path(), ["check", "--format", "json", "--follow", "d"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert_eq!(
        err.matches("d/dangling: not found (a dangling symbolic link")
            .count(),
        1,
        "{err}"
    );
    // Without --follow, links are not followed: no loop, no error.
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(paths(&out), ["a.json"]);
}

#[test]
fn stdin_with_stdin_filename() {
    let dir = tree(&[]);
    let check = |args: &[&str], input: &[u8]| {
        let mut child = cmd(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A run that fails before reading closes the pipe early: fine.
        let _ = child.stdin.take().unwrap().write_all(input);
        child.wait_with_output().unwrap()
    };
    // The name picks the policy: a BOM is forbidden in JSON, allowed in text.
    let out = check(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "data.json",
            "-",
        ],
        BAD,
    );
    assert_eq!(code(&out), 1);
    assert_eq!(
        findings(&out),
        [("data.json".to_owned(), "U003".to_owned())]
    );
    let out = check(
        &[
            "check",
            "--format",
            "json-lines",
            "--stdin-filename",
            "notes.txt",
            "-",
        ],
        BAD,
    );
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty());
    // Without a name it is <stdin>; --stdin-filename alone implies `-`.
    let out = check(
        &["check", "--format", "json", "-"],
        "naïve — ok\n"
            .as_bytes()
            .iter()
            .chain(b"\xC0\xAF")
            .copied()
            .collect::<Vec<u8>>()
            .as_slice(),
    );
    assert_eq!(findings(&out), [("<stdin>".to_owned(), "U001".to_owned())]);
    let out = check(
        &["check", "--format", "json", "--stdin-filename", "x.json"],
        BAD,
    );
    assert_eq!(findings(&out), [("x.json".to_owned(), "U003".to_owned())]);
    // Fixing standard input prints the fixed bytes (more in
    // tests/cli/conventions.rs). `<stdin>` has the text
    // policy, where a leading BOM is allowed: nothing to fix.
    let out = check(&["check", "--fix", "-"], BAD);
    assert_eq!((code(&out), out.stdout.as_slice()), (0, BAD));
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut files: Vec<(String, &[u8])> = Vec::new();
    for i in 0..400 {
        files.push((format!("f{i:03}.json"), BAD));
    }
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let dir = tree(&refs);
    let mut child = cmd(dir.path())
        .args(["check", "--format", "human"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 11];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout); // as `| head -c 11` does, long before the ~250 KB of output are written
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(&first, b"error[U003]");
    assert_eq!(status.code(), Some(0), "quiet exit on a closed pipe: {err}");
    assert!(!err.contains("error"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    // `script` gives the program a pseudo-terminal as standard output.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("NOTICE: `script` (util-linux) not found; terminal colour not tested");
        return;
    }
    let dir = tree(&[("a.json", BAD)]);
    let in_tty = |no_color: Option<&str>| {
        let mut c = std::process::Command::new("script");
        c.current_dir(dir.path()).args([
            "-qec",
            &format!("{} check --color auto", bin()),
            "/dev/null",
        ]);
        c.env_remove("NO_COLOR");
        if let Some(v) = no_color {
            c.env("NO_COLOR", v);
        }
        let out = c.output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let coloured = in_tty(None);
    assert!(coloured.contains("error"), "{coloured}");
    assert!(
        coloured.contains('\x1b'),
        "colour on a terminal: {coloured:?}"
    );
    let plain = in_tty(Some("1"));
    assert!(plain.contains("error"));
    assert!(!plain.contains("\x1b["), "NO_COLOR honoured: {plain:?}");
}

#[cfg(unix)]
#[test]
fn a_fifo_never_hangs_the_scan() {
    let dir = tree(&[("a.json", BAD)]);
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("NOTICE: mkfifo failed; FIFO test skipped");
        return;
    }
    // Walked: not a regular file, not opened.
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(paths(&out), ["a.json"]);
    // Named: a named input is always read and checked, as
    // `<(cat bad.json)` would be.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, BAD).unwrap())
    };
    let out = run(dir.path(), ["check", "--format", "json", "pipe", "a.json"]);
    writer.join().unwrap();
    assert_eq!(code(&out), 1);
    // Both read (the FIFO's name has no extension, so its BOM is allowed).
    assert!(stderr(&out).contains("checked 2 files"), "{}", stderr(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn other_owners_files_are_still_read() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree(&[("a.json", BAD), ("sub/b.json", BAD)]);
    // An access time older than the modification time: a read would update
    // it under `relatime` (the usual mount option) and `strictatime`.
    let a = dir.path().join("a.json");
    let touched = Command::new("touch")
        .args(["-a", "-d", "2001-02-03 04:05:06"])
        .arg(&a)
        .status()
        .unwrap();
    assert!(touched.success());
    // Reads are portable (no O_NOATIME): the access time may
    // move, and the files are read whoever owns them.
    let out = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(paths(&out), ["a.json", "sub/b.json"], "{}", stderr(&out));

    // Someone who does not own the files may not ask for O_NOATIME: the
    // files are read all the same.
    if !is_root() {
        return;
    }
    for p in [dir.path(), &dir.path().join("sub")] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(bin())
        .args(["check", "--format", "json", "."])
        .current_dir(dir.path())
        .output()
        .expect("setpriv (util-linux) runs the check as nobody");
    assert_eq!(paths(&out), ["a.json", "sub/b.json"], "{}", stderr(&out));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
}
