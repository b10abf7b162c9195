//! Configuration a repository does not own is not applied without
//! `--trust-config`: a utf8lint.toml above the repository root
//! (a shared temporary directory, a CI workspace), and configuration files
//! owned by another user.

use crate::common::*;

const ALLOW_ALL: &[u8] = b"[lints]\ninvalid_utf8 = \"allow\"\nnot_utf8 = \"allow\"\n";

#[test]
fn utf8lint_toml_above_the_repository_root_is_ignored_unless_trusted() {
    let dir = tree(&[
        ("utf8lint.toml", ALLOW_ALL),
        ("repo/.git/HEAD", b"ref: refs/heads/main\n"),
        ("repo/src/bad.txt", b"x\xFF\n"),
    ]);
    let repo = dir.path().join("repo");
    let o = run(&repo, ["check", "--format", "concise", "."]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stdout(&o).contains("src/bad.txt:1:2"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("note: ignored") && err.contains("above the repository root"),
        "{err}"
    );
    assert_eq!(err.matches("note: ignored").count(), 1, "said once: {err}");
    // Opted in: the parent's configuration applies.
    let o = run(
        &repo,
        ["check", "--trust-config", "--format", "concise", "."],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(!stderr(&o).contains("note: ignored"));
    // Outside a repository, the nearest utf8lint.toml up the tree applies.
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let o = run(&repo, ["check", "--format", "concise", "."]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}

#[cfg(unix)]
#[test]
fn configuration_owned_by_another_user_is_ignored_unless_trusted() {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("NOTICE: not root: cannot give a file to another user; ownership test skipped");
        return;
    }
    let dir = tree(&[
        ("utf8lint.toml", ALLOW_ALL),
        (".editorconfig", b"root = true\n[*]\ncharset = latin1\n"),
        ("bad.txt", b"x\xFF\n"),
    ]);
    for name in ["utf8lint.toml", ".editorconfig"] {
        let path = dir.path().join(name);
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    }
    let o = run(dir.path(), ["check", "--format", "concise", "."]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("bad.txt:1:2"), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(
        err.matches("belongs to another user (uid 65534)").count(),
        2,
        "{err}"
    );
    let o = run(
        dir.path(),
        ["check", "--trust-config", "--format", "concise", "."],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
}
