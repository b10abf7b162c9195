//! What the CLI reads and writes besides the files it checks, and how it
//! reads those: a file larger than memory, baselines as inputs (special
//! files, a byte-order mark) and as outputs (links, files being checked,
//! files that are not baselines), standard input under `--force-exclude`,
//! a file named twice, a closed pipe under every format.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;
use crate::hostile_config::{mkfifo, output_within};

const BAD: &[u8] = b"a\xFFb\n";

fn check_within(dir: &Path, args: &[&str]) -> std::process::Output {
    output_within(cmd(dir).arg("check").args(args), Duration::from_secs(60))
}

/// The lines of standard error that are trouble.
fn trouble_lines(o: &std::process::Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.starts_with("utf8lint: error:"))
        .map(str::to_owned)
        .collect()
}

/// A sparse file far larger than memory, found by the walk: one line of
/// trouble naming it, no abort, and the other files' findings printed.
#[test]
fn a_file_larger_than_memory_is_one_trouble_line_and_the_run_goes_on() {
    let dir = tree(&[("bad.txt", BAD), ("sub/also.txt", BAD)]);
    let disk = std::fs::File::create(dir.path().join("disk.img")).unwrap();
    // 64 GiB of holes: nothing on disk, more than this machine's memory.
    if disk.set_len(64 << 30).is_err() {
        eprintln!("skipped: the file system here has no sparse files of 64 GiB");
        return;
    }
    drop(disk);
    for args in [
        &["--format", "json", "."][..],
        &["--format", "json", "disk.img", "bad.txt", "sub"],
    ] {
        let o = check_within(dir.path(), args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let troubles = trouble_lines(&o);
        assert_eq!(
            troubles,
            [
                "utf8lint: error: disk.img: it is too large to check (68719476736 bytes or more; the limit is 1073741824 bytes)"
            ],
            "{args:?}"
        );
        let mut found = findings(&o);
        found.sort();
        assert_eq!(
            found,
            [
                ("bad.txt".to_owned(), "U001".to_owned()),
                ("sub/also.txt".to_owned(), "U001".to_owned())
            ],
            "{args:?}"
        );
    }
}

/// A baseline to read that is a FIFO, a device that never ends, or
/// missing: a clear error at once, no hang, nothing checked.
#[cfg(unix)]
#[test]
fn a_special_file_as_baseline_is_an_error_not_a_hang() {
    let dir = tree(&[("bad.txt", BAD)]);
    mkfifo(&dir.path().join("fifo"));
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.json")).unwrap();
    for (baseline, why) in [
        (
            "fifo",
            "cannot read baseline fifo: it is a FIFO, not a regular file",
        ),
        (
            "zero.json",
            "cannot read baseline zero.json: it is a character device, not a regular file",
        ),
        ("/dev/zero", "it is a character device, not a regular file"),
    ] {
        let o = check_within(dir.path(), &["--baseline", baseline, "."]);
        assert_eq!(code(&o), 2, "{baseline}");
        assert!(stderr(&o).contains(why), "{baseline}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{baseline}: nothing is checked");
    }
    // Written to, a FIFO is refused before the run, not opened.
    let o = check_within(dir.path(), &["--write-baseline", "fifo", "."]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("cannot write baseline fifo: it is not a regular file"),
        "{}",
        stderr(&o)
    );
}

/// A baseline an editor saved with a UTF-8 byte-order mark is read.
#[test]
fn a_baseline_with_a_byte_order_mark_is_read() {
    let dir = tree(&[("bad.txt", BAD)]);
    let o = run(dir.path(), ["check", "--write-baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend(std::fs::read(dir.path().join("base.json")).unwrap());
    std::fs::write(dir.path().join("marked.json"), marked).unwrap();
    let o = run(
        dir.path(),
        ["check", "--baseline", "marked.json", "bad.txt"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 finding in the baseline not shown"),
        "{}",
        stderr(&o)
    );
}

/// `--write-baseline` never writes through a symbolic link (dangling or
/// not) or a hard link, never over a file being checked or a file that is
/// not a baseline: refused before the run, every file left as it was.
#[cfg(unix)]
#[test]
fn write_baseline_refuses_links_inputs_and_other_files_before_writing() {
    let dir = tree(&[("bad.txt", BAD), ("notes.md", b"my notes\n")]);
    let d = dir.path();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("victim.txt");
    std::fs::write(&target, b"outside\n").unwrap();
    std::os::unix::fs::symlink(&target, d.join("link.json")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("new.json"), d.join("dangling.json")).unwrap();
    let o = run(d, ["check", "--write-baseline", "base.json", "bad.txt"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let baseline = std::fs::read(d.join("base.json")).unwrap();
    std::fs::hard_link(d.join("base.json"), d.join("linked.json")).unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--write-baseline", "link.json", "."],
            "cannot write baseline link.json: it is a symbolic link",
        ),
        (
            &["--write-baseline", "dangling.json", "."],
            "cannot write baseline dangling.json: it is a symbolic link",
        ),
        (
            &["--write-baseline", "linked.json", "."],
            "cannot write baseline linked.json: it has 2 hard links",
        ),
        (
            &["--write-baseline", "bad.txt", "bad.txt"],
            "--write-baseline bad.txt is also a file to check (bad.txt)",
        ),
        (
            &["--write-baseline", "./bad.txt", "bad.txt"],
            "is also a file to check",
        ),
        (
            &["--write-baseline", "notes.md", "."],
            "cannot write baseline notes.md: the file there is not a utf8lint baseline",
        ),
    ];
    for (args, why) in cases {
        let o = check_within(d, args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: refused before the run");
    }
    assert_eq!(std::fs::read(&target).unwrap(), b"outside\n");
    assert!(!outside.path().join("new.json").exists());
    assert_eq!(std::fs::read(d.join("bad.txt")).unwrap(), BAD);
    assert_eq!(std::fs::read(d.join("notes.md")).unwrap(), b"my notes\n");
    assert_eq!(std::fs::read(d.join("base.json")).unwrap(), baseline);
}

/// A baseline is replaced whole: the file written is a new inode renamed
/// over the old one (so a full disk leaves the old one), it is not
/// checked as an input of its own run, and it leaves no temporary file.
#[cfg(unix)]
#[test]
fn write_baseline_replaces_the_old_baseline_whole() {
    use std::os::unix::fs::MetadataExt;
    let dir = tree(&[("bad.txt", BAD)]);
    let d = dir.path();
    let o = run(d, ["check", "--write-baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let before = std::fs::metadata(d.join("base.json")).unwrap().ino();
    std::fs::write(d.join("more.txt"), BAD).unwrap();
    let o = run(d, ["check", "--write-baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("wrote 2 findings to the baseline base.json"),
        "{}",
        stderr(&o)
    );
    assert_ne!(
        std::fs::metadata(d.join("base.json")).unwrap().ino(),
        before
    );
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.ends_with(".tmp")),
        "no temporary file left: {names:?}"
    );
    let o = run(d, ["check", "--baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // One cut off (an earlier run killed while writing it in place) is
    // still a baseline, and is replaced whole.
    let whole = std::fs::read(d.join("base.json")).unwrap();
    std::fs::write(d.join("base.json"), &whole[..40]).unwrap();
    let o = run(d, ["check", "--write-baseline", "base.json", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("base.json")).unwrap(), whole);
}

/// An editor's filter under `--fix` gets its buffer back, whole, when
/// `--force-exclude` leaves the name out (by `utf8lint.toml`'s `exclude`,
/// by `--exclude`, by an ignore file) or its configuration is broken.
#[test]
fn standard_input_under_fix_is_given_back_when_its_name_is_left_out() {
    let dir = tree(&[
        ("utf8lint.toml", b"exclude = [\"gen/**\"]\n"),
        (".ignore", b"ignored/\n"),
        ("broken/utf8lint.toml", b"[lints\n"),
    ]);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    // A U+FEFF inside a word: what `--fix --unsafe-fixes` would change.
    let buffer = "my \u{FEFF}buffer\n".as_bytes();
    let cases: [(&[&str], i32); 4] = [
        (&["--stdin-filename", "gen/x.txt"], 0),
        (&["--stdin-filename", "src/x.txt", "--exclude", "src/**"], 0),
        (&["--stdin-filename", "ignored/x.txt"], 0),
        (&["--stdin-filename", "broken/x.txt"], 2),
    ];
    for (args, exit) in cases {
        let mut c = cmd(dir.path());
        c.args(["check", "--fix", "--unsafe-fixes", "--force-exclude"])
            .args(args)
            .arg("-");
        let o = with_stdin(c, buffer);
        assert_eq!(code(&o), exit, "{args:?}: {}", stderr(&o));
        assert_eq!(
            o.stdout, buffer,
            "{args:?}: the buffer comes back as it was"
        );
    }
    // Not left out, it is fixed: the test above can fail.
    let mut c = cmd(dir.path());
    c.args([
        "check",
        "--fix",
        "--unsafe-fixes",
        "--stdin-filename",
        "src/x.txt",
    ]);
    let o = with_stdin(c, buffer);
    assert_ne!(o.stdout, buffer, "{}", stderr(&o));
    assert!(!o.stdout.is_empty());
}

/// A file named twice, or named and inside a directory named, or in two
/// overlapping directories, is checked and reported once, and `--fix`
/// fixes it (no refusal for a descriptor of utf8lint's own).
#[test]
fn a_file_named_twice_is_checked_once_and_fixed() {
    let feff = "a\u{FEFF}b\n".as_bytes();
    for args in [
        &["a.txt", "./a.txt"][..],
        &["a.txt", "."],
        &[".", "./"],
        &[".", "sub/..", "."],
        &["sub", ".", "sub/b.txt"],
    ] {
        let dir = tree(&[("a.txt", feff), ("sub/b.txt", feff)]);
        let d = dir.path();
        let o = run(d, [&["check", "--format", "json"][..], args].concat());
        let mut found = findings(&o);
        found.dedup();
        assert_eq!(findings(&o).len(), found.len(), "{args:?}: each once");
        let o = run(
            d,
            [&["check", "--fix", "--unsafe-fixes"][..], args].concat(),
        );
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("utf8lint: error"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read(d.join("a.txt")).unwrap(),
            "a\u{2060}b\n".as_bytes()
        );
    }
}

/// A reader that is gone before anything is written (`| head -1` once it
/// has its line): every format ends quietly with 0, as a closed pipe is
/// not an error.
#[test]
fn a_closed_standard_output_ends_every_format_quietly() {
    let dir = tree(&[("bad.txt", BAD)]);
    for format in ["human", "concise", "json", "json-lines", "github", "sarif"] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = cmd(dir.path())
            .args(["check", "--format", format, "bad.txt"])
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{format}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{format}");
    }
}

/// A key of 10 MB in `utf8lint.toml` is quoted cut short, with its size,
/// not echoed whole.
#[test]
fn a_huge_unknown_key_is_not_echoed_whole() {
    let key = "k".repeat(10 << 20);
    let config = format!("{key} = 1\n");
    let dir = tree(&[("utf8lint.toml", config.as_bytes()), ("a.txt", b"fine\n")]);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let o = check_within(dir.path(), &["."]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.len() < 4096, "{} bytes of standard error", err.len());
    assert!(err.contains("unknown field"), "{err}");
    assert!(err.contains("... (10485760 bytes in all)"), "{err}");
}

/// `--config DIR` says it is a directory.
#[test]
fn config_naming_a_directory_says_so() {
    let dir = tree(&[("conf/utf8lint.toml", b""), ("a.txt", b"fine\n")]);
    let o = run(dir.path(), ["check", "--config", "conf", "a.txt"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("conf: it is a directory: --config names a utf8lint.toml file"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("no such file"), "{}", stderr(&o));
}
