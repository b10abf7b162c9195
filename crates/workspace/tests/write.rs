//! The fix writer (`replace_file`, `replace_file_in_workspace`,
//! `write_whole_file`) tested directly, path by path: the checks before
//! replacing, the metadata carried over, the lease, every refusal, and
//! that a refusal leaves the file's bytes and metadata as they were and no
//! temporary file behind.
//!
//! Tests that need root (chown), `setfacl`, or a filesystem with extended
//! attributes or leases say so on standard error and skip where those are
//! missing.
#![cfg(unix)]

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime};

use utf8lint_workspace::{
    Stamp, WriteError, replace_file, replace_file_in_workspace, resolve_in_workspace,
    write_whole_file,
};

const OLD: &[u8] = b"\xEF\xBB\xBF{\"k\": 1}\n";
const NEW: &[u8] = b"{\"k\": 1}\n";

/// A fresh directory holding `a.json` with `OLD`.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.json");
    fs::write(&path, OLD).unwrap();
    (dir, path)
}

/// [`setup`], and a symbolic link named `name` beside `a.json`, to it.
fn setup_with_link(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, target) = setup();
    let link = dir.path().join(name);
    symlink(&target, &link).unwrap();
    (dir, target, link)
}

fn stamp(path: &Path) -> Stamp {
    Stamp::of(&fs::symlink_metadata(path).unwrap())
}

/// Writes `NEW`, as a fix would.
fn write_new(out: &mut dyn Write) -> io::Result<()> {
    out.write_all(NEW)
}

/// The names in `dir` that are the writer's temporary files.
fn temp_files_in(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".utf8lint-"))
        .collect()
}

/// The refusal's words, or a panic naming what came instead.
fn refusal(result: Result<(), WriteError>) -> String {
    match result {
        Err(WriteError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// What a refusal must leave: the same bytes, the same inode and stamp
/// (nothing touched), and no temporary file.
fn assert_untouched(dir: &Path, path: &Path, before: &Stamp, bytes: &[u8]) {
    assert_eq!(fs::read(path).unwrap(), bytes);
    assert_eq!(stamp(path), *before, "the file's metadata changed");
    assert_eq!(temp_files_in(dir), Vec::<String>::new());
}

fn is_root() -> bool {
    fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
}

/// `program ARGS...`, or `None` when it cannot be run.
fn run(program: &str, args: &[&str], path: &Path) -> Option<std::process::Output> {
    Command::new(program).args(args).arg(path).output().ok()
}

/// `getfacl`'s entries for `path`, numeric, without the header.
fn getfacl(path: &Path) -> String {
    let out = run("getfacl", &["--omit-header", "--numeric"], path).expect("getfacl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

// ---------------------------------------------------------------------------
// Replacing

#[test]
fn a_plain_file_gets_the_new_bytes_in_a_new_inode_with_its_mode() {
    let (dir, path) = setup();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let before = fs::metadata(&path).unwrap();
    replace_file(&path, &stamp(&path), write_new).unwrap();
    let after = fs::metadata(&path).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_ne!(
        after.ino(),
        before.ino(),
        "renamed over, not written in place"
    );
    assert_eq!(after.mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_eq!(after.nlink(), 1);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_failing_write_leaves_the_file_and_no_temporary_file() {
    let (dir, path) = setup();
    let before = stamp(&path);
    let result = replace_file(&path, &before, |out| {
        out.write_all(b"half")?;
        Err(io::Error::other("the fix failed half way"))
    });
    match result {
        Err(WriteError::Io(e)) => assert_eq!(e.to_string(), "the fix failed half way"),
        other => panic!("expected the write's error, got {other:?}"),
    }
    assert_untouched(dir.path(), &path, &before, OLD);
}

#[test]
fn a_missing_file_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gone.json");
    fs::write(&path, OLD).unwrap();
    let read_as = stamp(&path);
    fs::remove_file(&path).unwrap();
    match replace_file(&path, &read_as, write_new) {
        Err(WriteError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::NotFound),
        other => panic!("expected NotFound, got {other:?}"),
    }
    assert!(!path.exists(), "nothing was created");
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_directory_that_refuses_new_files_is_an_io_error_and_the_file_stays() {
    if !is_root() {
        eprintln!("notice: not root, cannot make a directory immutable; skipped");
        return;
    }
    let (dir, path) = setup();
    let before = stamp(&path);
    // Immutable: no new entry, even for root (so the temporary file
    // cannot be created).
    match run("chattr", &["+i"], dir.path()) {
        Some(out) if out.status.success() => {}
        other => {
            eprintln!("notice: chattr +i is not available here ({other:?}); skipped");
            return;
        }
    }
    let result = replace_file(&path, &before, write_new);
    let _ = run("chattr", &["-i"], dir.path());
    match result {
        Err(WriteError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{e}"),
        other => panic!("expected the temporary file's error, got {other:?}"),
    }
    assert_untouched(dir.path(), &path, &before, OLD);
}

// ---------------------------------------------------------------------------
// The checks before replacing: the stamp, field by field

#[test]
fn a_stamp_that_differs_in_any_field_is_refused() {
    let (dir, path) = setup();
    let now = stamp(&path);
    let later = now.modified.map(|t| t + Duration::from_secs(1));
    let cases = [
        (
            "size",
            Stamp {
                len: now.len + 1,
                ..now
            },
        ),
        (
            "modification time",
            Stamp {
                modified: later,
                ..now
            },
        ),
        (
            "change time",
            Stamp {
                changed: (now.changed.0 - 1, now.changed.1),
                ..now
            },
        ),
        (
            "inode",
            Stamp {
                ino: now.ino + 1,
                ..now
            },
        ),
        (
            "device",
            Stamp {
                dev: now.dev + 1,
                ..now
            },
        ),
    ];
    for (field, read_as) in cases {
        let why = refusal(replace_file(&path, &read_as, write_new));
        assert_eq!(why, "it changed since it was read", "{field}");
        assert_untouched(dir.path(), &path, &now, OLD);
    }
}

#[test]
fn a_file_appended_to_since_it_was_read_is_refused() {
    let (dir, path) = setup();
    let read_as = stamp(&path);
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    let now = stamp(&path);
    let why = refusal(replace_file(&path, &read_as, write_new));
    assert_eq!(why, "it changed since it was read");
    assert_untouched(dir.path(), &path, &now, &[OLD, b"x"].concat());
}

#[test]
fn a_file_touched_since_it_was_read_is_refused_though_its_size_is_the_same() {
    let (dir, path) = setup();
    let read_as = stamp(&path);
    let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000))
        .unwrap();
    drop(file);
    let now = stamp(&path);
    assert_eq!(now.len, read_as.len);
    let why = refusal(replace_file(&path, &read_as, write_new));
    assert_eq!(why, "it changed since it was read");
    assert_untouched(dir.path(), &path, &now, OLD);
}

#[test]
fn a_file_replaced_by_another_of_the_same_size_and_time_is_refused() {
    let (dir, path) = setup();
    let read_as = stamp(&path);
    // Same bytes, same modification time, another inode.
    let other = dir.path().join("other");
    fs::write(&other, OLD).unwrap();
    let file = fs::OpenOptions::new().write(true).open(&other).unwrap();
    file.set_modified(read_as.modified.unwrap()).unwrap();
    drop(file);
    fs::rename(&other, &path).unwrap();
    let now = stamp(&path);
    assert_eq!((now.len, now.modified), (read_as.len, read_as.modified));
    assert_ne!(now.ino, read_as.ino);
    let why = refusal(replace_file(&path, &read_as, write_new));
    assert_eq!(why, "it changed since it was read");
    assert_untouched(dir.path(), &path, &now, OLD);
}

#[test]
fn a_mode_changed_since_it_was_read_is_refused() {
    let (dir, path) = setup();
    let read_as = stamp(&path);
    // chmod moves only the change time.
    std::thread::sleep(Duration::from_millis(20));
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let now = stamp(&path);
    let why = refusal(replace_file(&path, &read_as, write_new));
    assert_eq!(why, "it changed since it was read");
    assert_untouched(dir.path(), &path, &now, OLD);
}

// ---------------------------------------------------------------------------
// Refusals: what is never replaced

#[test]
fn a_symbolic_link_is_refused_and_its_target_untouched() {
    let (dir, target, link) = setup_with_link("link.json");
    let target_before = stamp(&target);
    let link_before = stamp(&link);
    let why = refusal(replace_file(&link, &link_before, write_new));
    assert!(why.contains("symbolic link"), "{why}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(stamp(&link), link_before);
    assert_untouched(dir.path(), &target, &target_before, OLD);
    // Even with the target's stamp.
    let why = refusal(replace_file(&link, &target_before, write_new));
    assert!(why.contains("symbolic link"), "{why}");
    assert_untouched(dir.path(), &target, &target_before, OLD);
}

#[test]
fn a_hard_linked_file_is_refused_and_both_names_keep_the_bytes() {
    let (dir, path) = setup();
    let other = dir.path().join("b.json");
    fs::hard_link(&path, &other).unwrap();
    let before = stamp(&path);
    let why = refusal(replace_file(&path, &before, write_new));
    assert!(why.starts_with("it has 2 hard links"), "{why}");
    assert_untouched(dir.path(), &path, &before, OLD);
    assert_eq!(fs::read(&other).unwrap(), OLD);
    assert_eq!(fs::metadata(&other).unwrap().ino(), before.ino);
}

#[test]
fn a_directory_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub.json");
    fs::create_dir(&sub).unwrap();
    let before = stamp(&sub);
    let why = refusal(replace_file(&sub, &before, write_new));
    assert_eq!(why, "it is not a regular file");
    assert!(fs::metadata(&sub).unwrap().is_dir());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_fifo_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    match run("mkfifo", &[], &fifo) {
        Some(out) if out.status.success() => {}
        other => {
            eprintln!("notice: mkfifo is not available ({other:?}); skipped");
            return;
        }
    }
    let before = stamp(&fifo);
    let why = refusal(replace_file(&fifo, &before, write_new));
    assert_eq!(why, "it is not a regular file");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(stamp(&fifo), before);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// Metadata carried over

#[test]
fn owner_group_setuid_setgid_and_sticky_are_kept() {
    if !is_root() {
        eprintln!("notice: not root, cannot chown to 1234:5678; skipped");
        return;
    }
    for mode in [0o4755, 0o2750, 0o7755, 0o0604] {
        let (dir, path) = setup();
        std::os::unix::fs::chown(&path, Some(1234), Some(5678)).unwrap();
        // After the chown, which clears setuid and setgid.
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        replace_file(&path, &stamp(&path), write_new).unwrap();
        let meta = fs::symlink_metadata(&path).unwrap();
        assert_eq!(fs::read(&path).unwrap(), NEW);
        assert_eq!(meta.mode() & 0o7777, mode, "mode {mode:o}");
        assert_eq!(
            (meta.uid(), meta.gid()),
            (1234, 5678),
            "owner, mode {mode:o}"
        );
        assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn extended_attributes_are_kept_with_their_values() {
    let (dir, path) = setup();
    if let Err(e) = xattr::set(&path, "user.origin", b"kept value") {
        eprintln!("notice: this filesystem refuses user extended attributes ({e}); skipped");
        return;
    }
    xattr::set(&path, "user.empty", b"").unwrap();
    xattr::set(&path, "user.binary", b"\x00\xFF\xC0\xAE").unwrap();
    replace_file(&path, &stamp(&path), write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    let get = |name: &str| xattr::get(&path, name).unwrap();
    assert_eq!(get("user.origin").as_deref(), Some(&b"kept value"[..]));
    assert_eq!(get("user.empty").as_deref(), Some(&b""[..]));
    assert_eq!(
        get("user.binary").as_deref(),
        Some(&b"\x00\xFF\xC0\xAE"[..])
    );
    let mut names: Vec<_> = xattr::list(&path).unwrap().collect();
    names.sort();
    assert_eq!(names, ["user.binary", "user.empty", "user.origin"]);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_posix_acl_is_kept_and_so_is_the_mode() {
    let (dir, path) = setup();
    match run("setfacl", &["-m", "u:65534:r,g:65534:rw"], &path) {
        Some(out) if out.status.success() => {}
        other => {
            eprintln!("notice: setfacl is missing or ACLs are refused here ({other:?}); skipped");
            return;
        }
    }
    let acl = getfacl(&path);
    assert!(
        acl.contains("user:65534:r--") && acl.contains("group:65534:rw-"),
        "{acl}"
    );
    let mode = fs::metadata(&path).unwrap().mode() & 0o7777;
    replace_file(&path, &stamp(&path), write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_eq!(getfacl(&path), acl);
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, mode);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn an_acl_the_directory_gives_new_files_is_not_added_to_the_fixed_one() {
    let (dir, path) = setup();
    let mode = fs::metadata(&path).unwrap().mode() & 0o7777;
    let acl = getfacl_if_available(&path);
    let Some(acl) = acl else { return };
    // The directory's default ACL: every file created in it from now on,
    // the writer's temporary file included, inherits an access ACL the
    // original never had.
    match run("setfacl", &["-d", "-m", "u:65534:rwx"], dir.path()) {
        Some(out) if out.status.success() => {}
        other => {
            eprintln!("notice: default ACLs are refused here ({other:?}); skipped");
            return;
        }
    }
    replace_file(&path, &stamp(&path), write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_eq!(getfacl(&path), acl, "the inherited ACL was removed");
    assert_eq!(xattr::get(&path, "system.posix_acl_access").unwrap(), None);
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, mode);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

/// `getfacl`'s entries, or `None` (after a notice) without the tool.
fn getfacl_if_available(path: &Path) -> Option<String> {
    match Command::new("getfacl").arg("--version").output() {
        Ok(out) if out.status.success() => Some(getfacl(path)),
        _ => {
            eprintln!("notice: getfacl is missing (apt-get install acl); skipped");
            None
        }
    }
}

// ---------------------------------------------------------------------------
// The lease (Linux): a file another process holds open is refused

/// A child process that holds `path` open (as its standard input) until
/// killed.
#[cfg(target_os = "linux")]
fn hold_open(path: &Path) -> Child {
    let held = fs::File::open(path).unwrap();
    Command::new("sleep")
        .arg("60")
        .stdin(Stdio::from(held))
        .stdout(Stdio::null())
        .spawn()
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_another_process_holds_open_is_refused_until_it_is_closed() {
    let (dir, path) = setup();
    let before = stamp(&path);
    let mut child = hold_open(&path);
    let result = replace_file(&path, &before, write_new);
    let _ = child.kill();
    let _ = child.wait();
    let why = refusal(result);
    assert!(why.starts_with("another process has it open"), "{why}");
    assert_untouched(dir.path(), &path, &before, OLD);
    // Closed, the same fix goes through.
    replace_file(&path, &before, write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// The last look before the rename (debug builds' test hook)

/// The file the hook test's child process replaces, when it is one.
const HOOK_CHILD_FILE: &str = "UTF8LINT_WRITE_TEST_HOOK_FILE";

/// Two ways: run as a plain test, it replaces a file with no hook set and
/// checks the result; run by `a_change_just_before_the_rename_is_refused`
/// with the hook naming the file, it reports what the writer answered.
#[cfg(debug_assertions)]
#[test]
fn hook_child() {
    match std::env::var_os(HOOK_CHILD_FILE) {
        Some(path) => {
            let path = PathBuf::from(path);
            let result = replace_file(&path, &stamp(&path), write_new);
            println!("hook-result: {result:?}");
        }
        None => {
            let (_dir, path) = setup();
            replace_file(&path, &stamp(&path), write_new).unwrap();
            assert_eq!(fs::read(&path).unwrap(), NEW);
        }
    }
}

#[cfg(debug_assertions)]
#[test]
fn a_change_just_before_the_rename_is_refused() {
    let (dir, path) = setup();
    // The hook appends `!` to the file between writing the new version and
    // the last look; the writer must see it and keep the file.
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "hook_child", "--nocapture", "--test-threads=1"])
        .env(utf8lint_workspace::MUTATE_HOOK, "a.json")
        .env(HOOK_CHILD_FILE, &path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(r#"hook-result: Err(Refused("it changed while it was being fixed"))"#),
        "{stdout}"
    );
    assert_eq!(fs::read(&path).unwrap(), [OLD, b"!"].concat());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

// ---------------------------------------------------------------------------
// replace_file_in_workspace

#[test]
fn inside_the_workspace_a_file_is_replaced() {
    let (dir, path) = setup();
    let roots = [dir.path().to_path_buf()];
    replace_file_in_workspace(&path, &roots, &stamp(&path), write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_workspace_root_named_through_a_symbolic_link_still_contains_its_files() {
    let (dir, path) = setup();
    let elsewhere = tempfile::tempdir().unwrap();
    let root_link = elsewhere.path().join("root");
    symlink(dir.path(), &root_link).unwrap();
    let through = root_link.join("a.json");
    let roots = [root_link];
    assert_eq!(
        resolve_in_workspace(&through, &roots).unwrap(),
        fs::canonicalize(&path).unwrap()
    );
    replace_file_in_workspace(&through, &roots, &stamp(&path), write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
}

#[test]
fn outside_the_workspace_a_file_is_refused() {
    let (dir, path) = setup();
    let workspace = tempfile::tempdir().unwrap();
    let before = stamp(&path);
    let roots = [workspace.path().to_path_buf()];
    let why = refusal(replace_file_in_workspace(&path, &roots, &before, write_new));
    assert_eq!(why, "it is outside the workspace folders");
    assert_untouched(dir.path(), &path, &before, OLD);
    // No roots at all: nothing is inside.
    let why = refusal(replace_file_in_workspace(&path, &[], &before, write_new));
    assert_eq!(why, "it is outside the workspace folders");
    assert_untouched(dir.path(), &path, &before, OLD);
}

#[test]
fn a_directory_link_inside_the_workspace_does_not_reach_outside_it() {
    let (outside, path) = setup();
    let workspace = tempfile::tempdir().unwrap();
    let link = workspace.path().join("linked");
    symlink(outside.path(), &link).unwrap();
    let before = stamp(&path);
    let roots = [workspace.path().to_path_buf()];
    let why = refusal(replace_file_in_workspace(
        &link.join("a.json"),
        &roots,
        &before,
        write_new,
    ));
    assert_eq!(why, "it is outside the workspace folders");
    assert_untouched(outside.path(), &path, &before, OLD);
}

#[test]
fn in_the_workspace_a_symbolic_link_to_a_file_in_it_is_refused() {
    let (dir, target, link) = setup_with_link("link.json");
    let before = stamp(&target);
    let roots = [dir.path().to_path_buf()];
    let why = refusal(replace_file_in_workspace(&link, &roots, &before, write_new));
    assert!(why.contains("symbolic link"), "{why}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_untouched(dir.path(), &target, &before, OLD);
}

#[test]
fn in_the_workspace_a_directory_or_a_bad_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let roots = [dir.path().to_path_buf()];
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let before = stamp(&sub);
    let why = refusal(replace_file_in_workspace(&sub, &roots, &before, write_new));
    assert_eq!(why, "it is not a regular file");
    let why = refusal(replace_file_in_workspace(
        Path::new("a.json"),
        &roots,
        &before,
        write_new,
    ));
    assert_eq!(why, "its path is not absolute");
    let why = refusal(replace_file_in_workspace(
        Path::new("/"),
        &roots,
        &before,
        write_new,
    ));
    assert_eq!(why, "its path names no file");
    assert!(sub.is_dir());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn in_the_workspace_the_writer_s_own_checks_still_apply() {
    let (dir, path) = setup();
    let roots = [dir.path().to_path_buf()];
    let read_as = stamp(&path);
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    let now = stamp(&path);
    let why = refusal(replace_file_in_workspace(
        &path, &roots, &read_as, write_new,
    ));
    assert_eq!(why, "it changed since it was read");
    assert_untouched(dir.path(), &path, &now, &[OLD, b"x"].concat());
    fs::hard_link(&path, dir.path().join("b.json")).unwrap();
    let now = stamp(&path);
    let why = refusal(replace_file_in_workspace(&path, &roots, &now, write_new));
    assert!(why.starts_with("it has 2 hard links"), "{why}");
}

// ---------------------------------------------------------------------------
// write_whole_file

/// This process's umask, from /proc (no system call needed).
fn umask() -> Option<u32> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Umask:"))?;
    u32::from_str_radix(line.trim_start_matches("Umask:").trim(), 8).ok()
}

#[test]
fn a_new_file_is_written_whole_with_the_mode_create_gives() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    write_whole_file(&path, write_new).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    let meta = fs::metadata(&path).unwrap();
    if let Some(mask) = umask() {
        assert_eq!(meta.mode() & 0o7777, 0o666 & !mask);
    }
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn an_existing_file_is_replaced_keeping_its_mode_and_attributes() {
    let (dir, path) = setup();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    let attrs = xattr::set(&path, "user.kept", b"yes").is_ok();
    let before = fs::metadata(&path).unwrap();
    write_whole_file(&path, write_new).unwrap();
    let after = fs::metadata(&path).unwrap();
    assert_eq!(fs::read(&path).unwrap(), NEW);
    assert_eq!(after.mode() & 0o7777, 0o600);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_ne!(after.ino(), before.ino());
    if attrs {
        assert_eq!(
            xattr::get(&path, "user.kept").unwrap().as_deref(),
            Some(&b"yes"[..])
        );
    } else {
        eprintln!("notice: no user extended attributes here; that part skipped");
    }
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn a_new_file_whose_write_fails_is_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    let result = write_whole_file(&path, |out| {
        out.write_all(b"half a report")?;
        Err(io::Error::other("no more"))
    });
    assert!(matches!(result, Err(WriteError::Io(_))), "{result:?}");
    assert!(!path.exists());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn an_existing_file_whose_write_fails_keeps_its_bytes() {
    let (dir, path) = setup();
    let before = stamp(&path);
    let result = write_whole_file(&path, |_| Err(io::Error::other("no more")));
    assert!(matches!(result, Err(WriteError::Io(_))), "{result:?}");
    assert_untouched(dir.path(), &path, &before, OLD);
}

#[test]
fn write_whole_file_refuses_links_and_directories() {
    let (dir, target, link) = setup_with_link("report.json");
    let before = stamp(&target);
    let why = refusal(write_whole_file(&link, write_new));
    assert!(why.contains("symbolic link"), "{why}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_untouched(dir.path(), &target, &before, OLD);
    // A dangling link is refused too: nothing is created at its target.
    let dangling = dir.path().join("dangling.json");
    symlink(dir.path().join("nowhere.json"), &dangling).unwrap();
    let why = refusal(write_whole_file(&dangling, write_new));
    assert!(why.contains("symbolic link"), "{why}");
    assert!(!dir.path().join("nowhere.json").exists());
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let why = refusal(write_whole_file(&sub, write_new));
    assert_eq!(why, "it is not a regular file");
    assert!(sub.is_dir());
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn write_whole_file_refuses_a_hard_linked_file() {
    let (dir, path) = setup();
    fs::hard_link(&path, dir.path().join("b.json")).unwrap();
    let before = stamp(&path);
    let why = refusal(write_whole_file(&path, write_new));
    assert!(why.starts_with("it has 2 hard links"), "{why}");
    assert_untouched(dir.path(), &path, &before, OLD);
}

#[test]
fn write_whole_file_into_a_missing_directory_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("report.json");
    match write_whole_file(&path, write_new) {
        Err(WriteError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::NotFound),
        other => panic!("expected NotFound, got {other:?}"),
    }
    assert_eq!(temp_files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn refusals_and_errors_read_as_sentences() {
    let refused = WriteError::Refused("it is not a regular file".into());
    assert_eq!(refused.to_string(), "it is not a regular file");
    let io = WriteError::from(io::Error::other("disk full"));
    assert_eq!(io.to_string(), "disk full (the file is unchanged)");
}
