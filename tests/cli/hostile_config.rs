//! Configuration a repository hands `utf8lint check` to stop, exhaust or
//! crash it: special files by a configuration file's name, globs that do
//! not compile, sizes and depths that were quadratic, paths thousands of
//! directories deep, values too long to echo; and what suppressions and
//! names must not do to the report.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// Runs `cmd` and kills it if it runs longer than `limit`: a hang fails
/// the test instead of stalling the suite. Its output is read as it comes.
pub(crate) fn output_within(cmd: &mut Command, limit: Duration) -> Output {
    use std::io::Read;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run utf8lint");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("utf8lint ran longer than {limit:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn check_within(dir: &Path, args: &[&str], secs: u64) -> Output {
    output_within(cmd(dir).arg("check").args(args), Duration::from_secs(secs))
}

#[cfg(unix)]
pub(crate) fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_as_configuration_is_an_error_not_a_hang() {
    for name in ["utf8lint.toml", ".editorconfig"] {
        let dir = tree(&[("a.txt", b"fine\n")]);
        mkfifo(&dir.path().join(name));
        let o = check_within(dir.path(), &["."], 20);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{err}");
        assert!(err.contains(name) && err.contains("a FIFO"), "{err}");
    }
    for (name, device) in [
        ("utf8lint.toml", "/dev/zero"),
        (".editorconfig", "/dev/urandom"),
    ] {
        let dir = tree(&[("a.txt", b"fine\n")]);
        std::os::unix::fs::symlink(device, dir.path().join(name)).unwrap();
        let o = check_within(dir.path(), &["."], 20);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{err}");
        assert!(
            err.contains(name) && err.contains("a character device"),
            "{err}"
        );
    }
}

#[test]
fn deeply_nested_braces_are_a_configuration_error_not_a_panic() {
    let glob = format!("{}a{}", "{".repeat(400), "}".repeat(400));
    for config in [
        format!("[per-file-lints]\n\"{glob}\" = [\"U001\"]\n"),
        format!("[bom]\n\"{glob}\" = \"forbid\"\n"),
        format!("exclude = [\"{glob}\"]\n"),
    ] {
        let dir = tree(&[("a.txt", b"fine\n"), ("utf8lint.toml", config.as_bytes())]);
        let o = check_within(dir.path(), &["."], 60);
        let err = stderr(&o);
        assert_eq!(code(&o), 2, "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("utf8lint.toml:") && err.contains("not a valid glob"),
            "{err}"
        );
        // Quoted, not echoed whole.
        assert!(err.len() < 2_000, "{} bytes of stderr", err.len());
    }
}

#[test]
fn thirty_thousand_per_file_entries_are_read_in_linear_time() {
    let mut config = String::from("[per-file-lints]\n");
    for i in 0..30_000 {
        config.push_str(&format!("\"dir{i}/*.txt\" = {{ U001 = \"allow\" }}\n"));
    }
    let dir = tree(&[
        ("utf8lint.toml", config.as_bytes()),
        ("dir7/a.txt", b"x\xFFy z\n"),
        ("other/b.txt", b"x\xFFy z\n"),
    ]);
    // 14 s and 517 MB when the cost was quadratic; the release build takes
    // a fraction of a second (scripts/bench-config): this bound is for an
    // unoptimised build on a busy machine.
    let o = check_within(dir.path(), &["--format", "json", "."], 60);
    let found = findings(&o);
    assert_eq!(
        found,
        [("other/b.txt".to_owned(), "U001".to_owned())],
        "{}",
        stderr(&o)
    );
}

#[test]
fn nested_configurations_fifteen_hundred_deep_are_read_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut path = dir.path().to_path_buf();
    for _ in 0..1_500 {
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("utf8lint.toml"), "[lints]\nU002 = \"deny\"\n").unwrap();
        std::fs::write(path.join(".editorconfig"), "[*]\nindent_style = tab\n").unwrap();
        std::fs::write(path.join("f.txt"), "fine\n").unwrap();
        path.push("d");
    }
    std::fs::create_dir_all(&path).unwrap();
    std::fs::write(path.join("bad.txt"), b"x\xEF\xBB\xBFy\n").unwrap();
    // 28 s and 2.4 GB when the cost was cubic.
    let o = check_within(dir.path(), &["--format", "json", "."], 120);
    let found = findings(&o);
    assert_eq!(found.len(), 1, "{}", stderr(&o));
    assert!(
        found[0].0.ends_with("d/bad.txt") && found[0].1 == "U002",
        "{found:?}"
    );
}

#[test]
fn a_standard_input_name_thousands_of_directories_deep_is_resolved_without_a_crash() {
    let dir = tree(&[("utf8lint.toml", b"[lints]\nU002 = \"allow\"\n")]);
    let name = format!("{}f.txt", "d/".repeat(3_000));
    let mut c = cmd(dir.path());
    c.args(["check", "--format", "json", "--stdin-filename", &name, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"a\xEF\xBB\xBFb \xFF\n").unwrap();
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(code(&o), 1, "{err}");
    // The configuration at the top applied: U002 allowed, U001 found.
    let codes: Vec<String> = findings(&o).into_iter().map(|(_, c)| c).collect();
    assert_eq!(codes, ["U001"], "{err}");
}

#[test]
fn an_unknown_charset_value_is_echoed_cut_short() {
    let value = "x".repeat(5 << 20);
    let dir = tree(&[
        ("a.txt", b"fine\n"),
        (
            ".editorconfig",
            format!("[*]\ncharset = {value}\n").as_bytes(),
        ),
    ]);
    let o = check_within(dir.path(), &["."], 60);
    let err = stderr(&o);
    assert_eq!(code(&o), 0, "{}", &err[..err.len().min(500)]);
    assert!(err.contains("is not a value EditorConfig defines"), "{err}");
    assert!(err.contains("5242880 bytes in all"), "{err}");
    assert!(err.len() < 2_000, "{} bytes of stderr", err.len());
}

#[test]
fn unused_suppressions_are_capped_like_every_rule() {
    let text = "x // utf8lint: allow(U002)\n".repeat(100_000);
    let dir = tree(&[("a.txt", text.as_bytes())]);
    let o = check_within(dir.path(), &["--format", "json", "a.txt"], 60);
    let lines = json_lines(&o);
    // The default cap of 50, then one summary with the exact count.
    assert_eq!(lines.len(), 51, "{}", stderr(&o));
    assert!(lines[..50].iter().all(|l| l["code"] == "U015"));
    assert_eq!(lines[50]["not_shown"]["U015"], 99950);
    // `--max-per-file 0` raises it to the absolute ceiling, never further.
    let text = "x // utf8lint: allow(U002)\n".repeat(10_500);
    std::fs::write(dir.path().join("a.txt"), text).unwrap();
    let o = check_within(
        dir.path(),
        &["--format", "json", "--max-per-file", "0", "a.txt"],
        120,
    );
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 10_001);
    assert_eq!(lines[10_000]["not_shown"]["U015"], 500);
}

#[test]
fn allow_unused_suppression_silences_u015() {
    let dir = tree(&[
        (
            "a.txt",
            b"# utf8lint: allow(unused_suppression)\nx // utf8lint: allow(U002)\n",
        ),
        ("b.txt", b"x // utf8lint: allow(U002)\n"),
    ]);
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    assert_eq!(
        findings(&o),
        [("b.txt".to_owned(), "U015".to_owned())],
        "{}",
        stderr(&o)
    );
}

/// A UTF-8 name is written as it is, a backslash once, so its `path`
/// names the file; a Latin-1 name spelt like it is escaped to the same
/// text, and told apart by its `non_utf8_path` finding.
#[cfg(unix)]
#[test]
fn a_latin1_name_and_a_utf8_name_spelt_like_its_escape_are_told_apart_by_u006() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let latin1 = std::ffi::OsStr::from_bytes(b"lat\xE9.txt");
    std::fs::write(dir.path().join(latin1), b"x\xEF\xBB\xBFy\n").unwrap();
    std::fs::write(dir.path().join("lat\\xE9.txt"), b"x\xEF\xBB\xBFy\n").unwrap();
    let o = run(dir.path(), ["check", "--format", "json", "."]);
    let found = findings(&o);
    let u002: Vec<&str> = found
        .iter()
        .filter(|(_, code)| code == "U002")
        .map(|(path, _)| path.as_str())
        .collect();
    assert_eq!(u002, ["lat\\xE9.txt", "lat\\xE9.txt"], "{}", stderr(&o));
    assert!(
        dir.path().join(u002[0]).exists(),
        "the UTF-8 name's path names it"
    );
    let u006 = found.iter().filter(|(_, code)| code == "U006").count();
    assert_eq!(u006, 1, "{found:?}");
}
