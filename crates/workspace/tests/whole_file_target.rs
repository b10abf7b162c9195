//! `whole_file_target`: what `write_whole_file` would write, asked before
//! a run writes anything (`--write-baseline`, `--output-file`).

#![cfg(unix)]

use std::fs;

use utf8lint_workspace::{WriteError, whole_file_target, write_whole_file};

fn refusal(path: &std::path::Path) -> String {
    match whole_file_target(path) {
        Err(WriteError::Refused(why)) => why,
        other => panic!("{}: {other:?}", path.display()),
    }
}

#[test]
fn links_and_what_is_not_a_regular_file_are_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("plain"), b"old").unwrap();
    fs::write(d.join("target"), b"target").unwrap();
    std::os::unix::fs::symlink(d.join("target"), d.join("link")).unwrap();
    std::os::unix::fs::symlink(d.join("nowhere"), d.join("dangling")).unwrap();
    fs::write(d.join("one"), b"one").unwrap();
    fs::hard_link(d.join("one"), d.join("two")).unwrap();
    fs::create_dir(d.join("dir")).unwrap();

    assert!(whole_file_target(&d.join("missing")).unwrap().is_none());
    assert_eq!(
        whole_file_target(&d.join("plain")).unwrap().unwrap().len(),
        3
    );
    assert!(refusal(&d.join("link")).contains("symbolic link"));
    assert!(refusal(&d.join("dangling")).contains("symbolic link"));
    assert!(refusal(&d.join("two")).contains("2 hard links"));
    assert!(refusal(&d.join("dir")).contains("not a regular file"));

    // The writer keeps to the same rules: nothing written through them.
    for name in ["link", "dangling", "two", "dir"] {
        assert!(
            write_whole_file(&d.join(name), |w| w.write_all(b"new")).is_err(),
            "{name}"
        );
    }
    assert_eq!(fs::read(d.join("target")).unwrap(), b"target");
    assert!(!d.join("nowhere").exists());
    assert_eq!(fs::read(d.join("one")).unwrap(), b"one");
    write_whole_file(&d.join("plain"), |w| w.write_all(b"new")).unwrap();
    assert_eq!(fs::read(d.join("plain")).unwrap(), b"new");
}
