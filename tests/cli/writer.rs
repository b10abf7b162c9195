//! The fix writer (`utf8lint_workspace::replace_file`) end to end, through
//! `check --fix`: what it keeps (owner, mode, extended attributes, ACLs),
//! what it refuses (hard links, symbolic links, files held open), and that
//! neither a concurrent appender nor Ctrl-C costs a byte or leaves a
//! temporary file behind.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;

/// A JSON file with a leading byte-order mark: a safe fix removes it.
const BOM_JSON: &[u8] = b"\xEF\xBB\xBF{\"k\": 1}\n";
const FIXED_JSON: &[u8] = b"{\"k\": 1}\n";

/// The names in `dir` that look like the writer's temporary files.
fn temp_files_in(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".utf8lint-"))
        .collect()
}

#[test]
fn fix_keeps_xattrs_mode_and_setuid() {
    let dir = tree(&[("a.json", BOM_JSON)]);
    let path = dir.path().join("a.json");
    if !is_root() {
        eprintln!("notice: not root, cannot chown to 1234:5678; skipped");
        return;
    }
    std::os::unix::fs::chown(&path, Some(1234), Some(5678)).unwrap();
    // After the chown, which clears setuid.
    fs::set_permissions(&path, fs::Permissions::from_mode(0o4755)).unwrap();
    if let Err(e) = xattr::set(&path, "user.test", b"kept value") {
        eprintln!("notice: no user xattrs on this file system ({e}); skipped");
        return;
    }
    let out = run(dir.path(), ["check", "--fix", "a.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("fixed 1 finding in 1 file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(&path).unwrap(), FIXED_JSON);
    let meta = fs::symlink_metadata(&path).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o4755, "mode incl. setuid kept");
    assert_eq!((meta.uid(), meta.gid()), (1234, 5678), "owner kept");
    assert_eq!(
        xattr::get(&path, "user.test").unwrap().as_deref(),
        Some(&b"kept value"[..])
    );
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn fix_keeps_a_posix_acl() {
    if Command::new("setfacl").arg("--version").output().is_err() {
        eprintln!("notice: setfacl is missing (apt-get install acl); skipped");
        return;
    }
    let dir = tree(&[("a.json", BOM_JSON)]);
    let path = dir.path().join("a.json");
    let set = Command::new("setfacl")
        .args(["-m", "u:65534:r"])
        .arg(&path)
        .output()
        .unwrap();
    if !set.status.success() {
        eprintln!(
            "notice: no POSIX ACLs here ({}); skipped",
            String::from_utf8_lossy(&set.stderr)
        );
        return;
    }
    let getfacl = || {
        let o = Command::new("getfacl")
            .args(["--omit-header", "--numeric"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let before = getfacl();
    assert!(before.contains("user:65534:r--"), "{before}");
    let mode = fs::metadata(&path).unwrap().mode() & 0o7777;
    let out = run(dir.path(), ["check", "--fix", "a.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read(&path).unwrap(), FIXED_JSON);
    assert_eq!(getfacl(), before);
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, mode);
}

#[test]
fn fix_refuses_a_hard_linked_file() {
    let dir = tree(&[("a.json", BOM_JSON)]);
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    fs::hard_link(&a, &b).unwrap();
    let out = run(dir.path(), ["check", "--fix", "a.json"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(
        err.contains("not fixing a.json: it has 2 hard links"),
        "{err}"
    );
    assert_eq!(fs::read(&a).unwrap(), BOM_JSON);
    assert_eq!(fs::read(&b).unwrap(), BOM_JSON);
    assert_eq!(fs::metadata(&a).unwrap().nlink(), 2, "still one inode");
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn fix_refuses_a_file_another_process_holds_open() {
    let dir = tree(&[("a.json", BOM_JSON)]);
    let path = dir.path().join("a.json");
    let held = fs::OpenOptions::new().append(true).open(&path).unwrap();
    // The child writes a line after a pause, through the descriptor it
    // holds: as a log writer would.
    let mut child = Command::new("sh")
        .args(["-c", "sleep 2; echo late; sleep 30"])
        .stdout(Stdio::from(held))
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let out = run(dir.path(), ["check", "--fix", "a.json"]);
    let err = stderr(&out);
    let refused = code(&out);
    let after = fs::read(&path).unwrap();
    // Wait for the child's late line before asserting, then end it.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while fs::read(&path).unwrap().len() == BOM_JSON.len() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let late = fs::read(&path).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(refused, 2, "{err}");
    assert!(
        err.contains("not fixing a.json: another process has it open"),
        "{err}"
    );
    assert_eq!(after, BOM_JSON);
    // The child's write went into the file that has the name.
    assert_eq!(late, [BOM_JSON, b"late\n"].concat());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

/// The number at the start of `line` after `line`, if it is one of ours.
fn line_number(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("line")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = &rest[digits.len()..];
    // A stray U+FEFF, or what the unsafe fix made of it (a U+2060, or
    // nothing at the end of a line).
    if !matches!(tail, "\u{FEFF}" | "\u{2060}" | "") {
        return None;
    }
    digits.parse().ok()
}

#[test]
fn fix_racing_an_appender_loses_no_line() {
    const LINES: u32 = 2000;
    let dir = tree(&[("log.txt", b"line0\xEF\xBB\xBF\n")]);
    let path = dir.path().join("log.txt");
    // Every line carries a stray U+FEFF, so every fix has work to do and
    // races the appender again.
    let script = format!(
        "i=1; while [ $i -le {LINES} ]; do printf 'line%d\\357\\273\\277\\n' $i >> log.txt; i=$((i+1)); sleep 0.002; done"
    );
    let mut appender = Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let (mut fixed, mut refused, mut runs) = (0, 0, 0);
    loop {
        let done = appender.try_wait().unwrap().is_some();
        let out = run(
            dir.path(),
            [
                "check",
                "--fix",
                "--unsafe-fixes",
                "--format",
                "concise",
                "log.txt",
            ],
        );
        runs += 1;
        let err = stderr(&out);
        if err.contains("not fixing log.txt") {
            refused += 1;
        } else if err.contains("fixed 1 finding") || err.contains("findings in 1 file") {
            fixed += 1;
        }
        assert!(
            matches!(code(&out), 0 | 2),
            "neither fixed nor refused: {err}"
        );
        if done {
            break;
        }
    }
    assert!(appender.wait().unwrap().success());
    eprintln!("{runs} runs: {fixed} fixed, {refused} refused");
    let text = String::from_utf8(fs::read(&path).unwrap()).unwrap();
    let mut seen = vec![0u32; LINES as usize + 1];
    for line in text.lines() {
        let n = line_number(line).unwrap_or_else(|| panic!("a mangled line {line:?}"));
        seen[n as usize] += 1;
    }
    let wrong: Vec<(usize, u32)> = seen
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 1)
        .map(|(n, &c)| (n, c))
        .collect();
    assert!(wrong.is_empty(), "lines not there exactly once: {wrong:?}");
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn ctrl_c_during_a_fix_leaves_no_temporary_file() {
    let mut bytes = b"\xEF\xBB\xBF{\"big\": \"".to_vec();
    bytes.resize(200 * 1024 * 1024, b'a');
    bytes.extend_from_slice(b"\"}\n");
    let dir = tree(&[]);
    let path = dir.path().join("big.json");
    let mut interrupted = 0;
    for delay in [150, 300, 60, 500, 30, 800] {
        fs::write(&path, &bytes).unwrap();
        let child = cmd(dir.path())
            .args(["check", "--fix", "--format", "concise", "big.json"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: `kill` reads no memory of ours; `pid` is our child,
        // not yet waited for, so the id is not reused.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert_eq!(
            temp_files_in(dir.path()),
            Vec::<String>::new(),
            "after SIGINT at {delay} ms: {err}"
        );
        let now = fs::read(&path).unwrap();
        match out.status.code() {
            Some(130) => {
                interrupted += 1;
                assert!(
                    now == bytes || now[..] == bytes[3..],
                    "after SIGINT at {delay} ms: the file is neither old nor fixed"
                );
            }
            Some(0) => assert_eq!(now[..], bytes[3..], "{err}"),
            other => panic!("exit {other:?} after SIGINT at {delay} ms: {err}"),
        }
        assert!(
            now == bytes || now[..] == bytes[3..],
            "after SIGINT at {delay} ms: the file is neither old nor fixed"
        );
        if interrupted >= 2 {
            break;
        }
    }
    assert!(interrupted > 0, "no run was interrupted mid-way");
}

#[test]
fn a_250_byte_file_name_is_fixed() {
    let name = format!("{}.txt", "n".repeat(246));
    assert_eq!(name.len(), 250);
    let dir = tree(&[(&name, b"a\xEF\xBB\xBFb\n")]);
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", &name]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read(dir.path().join(&name)).unwrap(),
        "a\u{2060}b\n".as_bytes()
    );
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_symlink_is_not_written_through() {
    let outside = tree(&[("target.json", BOM_JSON)]);
    let target = outside.path().join("target.json");
    let dir = tree(&[]);
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(
        dir.path(),
        ["check", "--fix", "--format", "concise", "link.json"],
    );
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(
        err.contains("not fixing link.json: it is a symbolic link"),
        "{err}"
    );
    assert_eq!(fs::read(&target).unwrap(), BOM_JSON);
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(fs::read_link(&link).unwrap(), target);
    // Walking the directory does not follow the link either.
    let out = run(dir.path(), ["check", "--fix"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read(&target).unwrap(), BOM_JSON);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}
