//! `--fix`, `--unsafe-fixes` and `--diff`.

use std::fs;

use crate::common::*;

/// The test hook of the fix path (see `crates/cli/fix.rs`).
/// Mostly UTF-8 (so not taken for a legacy encoding) with one overlong `/`.
const BAD_TXT: &[u8] = b"na\xC3\xAFve caf\xC3\xA9 \xE2\x80\x94 x\xC0\xAFy\n";

pub(crate) use crate::common::HOOK;

#[test]
fn fix_applies_safe_fixes_only_and_a_second_check_is_clean() {
    let dir = tree(&[
        ("a.json", b"\xEF\xBB\xBF{\"k\": 1}\n"),
        ("b.json", b"\xEF\xBB\xBF[]"),
        ("c.txt", BAD_TXT),
        ("ok.txt", b"fine\n"),
    ]);
    let out = run(dir.path(), ["check", "--fix", "--format", "json"]);
    let err = stderr(&out);
    assert!(err.contains("fixed 2 findings in 2 files"), "{err}");
    assert_eq!(
        fs::read(dir.path().join("a.json")).unwrap(),
        b"{\"k\": 1}\n"
    );
    assert_eq!(fs::read(dir.path().join("b.json")).unwrap(), b"[]");
    assert_eq!(
        fs::read(dir.path().join("c.txt")).unwrap(),
        BAD_TXT,
        "unsafe fix not applied"
    );
    // What is left is reported, and decides the exit code.
    assert_eq!(findings(&out), [("c.txt".to_owned(), "U001".to_owned())]);
    assert_eq!(code(&out), 1);
    let again = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(findings(&again), [("c.txt".to_owned(), "U001".to_owned())]);
    // No temporary files are left behind.
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.json", "b.json", "c.txt", "ok.txt"]);
}

#[test]
fn unsafe_fixes_replace_invalid_bytes() {
    let dir = tree(&[("c.txt", BAD_TXT), ("f.txt", b"a\xEF\xBB\xBFb\n")]);
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes"]);
    assert!(
        stderr(&out).contains("fixed 2 findings in 2 files"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read(dir.path().join("c.txt")).unwrap(),
        "naïve café — x\u{FFFD}\u{FFFD}y\n".as_bytes()
    );
    assert_eq!(
        fs::read(dir.path().join("f.txt")).unwrap(),
        "a\u{2060}b\n".as_bytes()
    );
    assert_eq!(code(&out), 0);
    // What is left is exactly the two U+FFFD the fix wrote, which U007
    // (a warning) reports: the original bytes are gone, and it says where.
    let again = run(dir.path(), ["check", "--format", "json"]);
    let left = json_lines(&again);
    let codes: Vec<&str> = left.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["U007", "U007"], "{}", stdout(&again));
    assert_eq!(code(&again), 0);
}

#[cfg(unix)]
#[test]
fn fix_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree(&[("run.sh", b"\xEF\xBB\xBF#!/bin/sh\necho hi\n")]);
    let path = dir.path().join("run.sh");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o751)).unwrap();
    let out = run(dir.path(), ["check", "--fix"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read(&path).unwrap(), b"#!/bin/sh\necho hi\n");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o7777,
        0o751
    );
}

#[test]
fn fix_refuses_a_file_that_changed_since_it_was_read() {
    let dir = tree(&[("a.json", b"\xEF\xBB\xBF{}"), ("b.json", b"\xEF\xBB\xBF[]")]);
    let out = cmd(dir.path())
        .args(["check", "--fix", "--format", "concise"])
        .env(HOOK, "a.json")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(
        err.contains("not fixing a.json: it changed while it was being fixed"),
        "{err}"
    );
    assert_eq!(code(&out), 2);
    // The concurrent change is kept, not overwritten; the other file is fixed.
    assert_eq!(
        fs::read(dir.path().join("a.json")).unwrap(),
        b"\xEF\xBB\xBF{}!"
    );
    assert_eq!(fs::read(dir.path().join("b.json")).unwrap(), b"[]");
    assert!(err.contains("fixed 1 finding in 1 file"), "{err}");
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 2, "the temporary file is removed");
}

#[cfg(unix)]
#[test]
fn fix_leaves_a_symlink_alone() {
    let outside = tree(&[("target.json", b"\xEF\xBB\xBF{}")]);
    let dir = tree(&[]);
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(outside.path().join("target.json"), &link).unwrap();
    // Walked: symbolic links are not followed, so nothing is checked.
    let out = run(dir.path(), ["check", "--fix"]);
    assert_eq!(code(&out), 0);
    // Named: checked through the link, but never written through it.
    let out = run(
        dir.path(),
        ["check", "--fix", "--format", "concise", "link.json"],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("not fixing link.json: it is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("link.json:1:1: error[U003]"));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read(outside.path().join("target.json")).unwrap(),
        b"\xEF\xBB\xBF{}"
    );
}

#[test]
fn diff_is_a_unified_diff_of_the_bytes_and_writes_nothing() {
    let dir = tree(&[("a.json", b"\xEF\xBB\xBF{\"k\": 1}\n"), ("c.txt", BAD_TXT)]);
    let out = run(dir.path(), ["check", "--diff"]);
    assert_eq!(
        out.stdout,
        b"--- a/a.json\n+++ b/a.json\n@@ -1,1 +1,1 @@ only invisible characters or line endings change\n-\xEF\xBB\xBF{\"k\": 1}\n+{\"k\": 1}\n"
    );
    assert_eq!(code(&out), 1, "there is a diff");
    let out = run(dir.path(), ["check", "--diff", "--unsafe-fixes"]);
    let mut want = b"--- a/c.txt\n+++ b/c.txt\n@@ -1,1 +1,1 @@\n-".to_vec();
    want.extend_from_slice(BAD_TXT);
    want.extend_from_slice("+naïve café — x\u{FFFD}\u{FFFD}y\n".as_bytes());
    assert!(
        out.stdout.windows(want.len()).any(|w| w == want),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        fs::read(dir.path().join("a.json")).unwrap(),
        b"\xEF\xBB\xBF{\"k\": 1}\n"
    );
    assert_eq!(fs::read(dir.path().join("c.txt")).unwrap(), BAD_TXT);
}

#[test]
fn large_files_take_the_mapped_path_and_fix_by_streaming() {
    // Above the 16 MiB threshold the file is memory-mapped rather than read,
    // and a fix is streamed to the temporary file: check both give the same
    // answers as for a small file.
    let mut bytes = b"\xEF\xBB\xBF{\"big\": \"".to_vec();
    bytes.resize(20 * 1024 * 1024, b'a');
    bytes.extend_from_slice(b"\"}\n");
    let dir = tree(&[("big.json", &bytes)]);
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(findings(&out), [("big.json".to_owned(), "U003".to_owned())]);
    let out = run(dir.path(), ["check", "--fix"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let fixed = fs::read(dir.path().join("big.json")).unwrap();
    assert_eq!(fixed.len(), bytes.len() - 3);
    assert_eq!(&fixed[..], &bytes[3..]);
}

/// The unsafe transcoding of a legacy file is whole and done once: the
/// first run writes the UTF-8 text, a second run finds nothing and changes
/// nothing (before the verdict model, each run replaced 50 more characters
/// with U+FFFD). A letter table whose encoding the text does not identify
/// is reported and left exactly as it was.
#[test]
fn unsafe_transcoding_is_idempotent_and_never_guessed() {
    let french = "Le café est crème, la crêpe est brûlée, et l'été à Noël déçoit \
                  rarement les élèves qui préfèrent la fête.\n";
    // Every character is in Latin-1: its byte is its code point.
    let latin1: Vec<u8> = french.chars().map(|c| c as u8).collect();
    let mut table = b"TRY ".to_vec();
    table.extend((0xC0..=0xFEu8).filter(|&b| b != 0xD7 && b != 0xF7));
    table.push(b'\n');
    let dir = tree(&[("fr.txt", &latin1), ("table.aff", &table)]);
    // The second run fixes nothing, and says nothing about fixing.
    for (run_number, fixed) in [(1, Some("fixed 1 finding in 1 file")), (2, None)] {
        let out = run(
            dir.path(),
            ["check", "--fix", "--unsafe-fixes", "--format", "json"],
        );
        let read = |name: &str| fs::read(dir.path().join(name)).unwrap();
        assert_eq!(read("fr.txt"), french.as_bytes(), "run {run_number}");
        assert_eq!(read("table.aff"), table, "run {run_number}");
        assert_eq!(
            findings(&out),
            [("table.aff".to_owned(), "U005".to_owned())],
            "run {run_number}"
        );
        assert_eq!(
            stderr(&out).contains("fixed"),
            fixed.is_some(),
            "run {run_number}: {}",
            stderr(&out)
        );
        if let Some(fixed) = fixed {
            assert!(
                stderr(&out).contains(fixed),
                "run {run_number}: {}",
                stderr(&out)
            );
        }
    }
}
