//! The walk never panics when files appear and vanish under it: several
//! `check --fix --unsafe-fixes` and `check` runs walk and fix the same
//! directories at once (each fix writing a temporary file beside the file
//! and renaming it), while files are created and deleted beside them.

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::*;

/// JSON with a byte-order mark (a safe fix) and an ill-formed byte (an
/// unsafe one).
const BAD: &[u8] = b"\xEF\xBB\xBF{\"a\": \"x\xFFy z\"}\n";

fn populate(root: &Path) {
    for d in 0..8 {
        let dir = root.join(format!("d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..25 {
            std::fs::write(dir.join(format!("f{f}.json")), BAD).unwrap();
        }
    }
}

/// What `--fix --unsafe-fixes` makes of [`BAD`] alone.
fn fixed() -> Vec<u8> {
    let alone = tree(&[("x.json", BAD)]);
    let o = run(alone.path(), ["check", "--fix", "--unsafe-fixes", "x.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let bytes = std::fs::read(alone.path().join("x.json")).unwrap();
    assert_ne!(bytes, BAD);
    bytes
}

#[test]
fn concurrent_walks_and_fixes_never_panic() {
    let fixed = fixed();
    let dir = tempfile::tempdir().unwrap();
    populate(dir.path());
    // Files appearing and vanishing during every walk.
    let stop = Arc::new(AtomicBool::new(false));
    let churn = {
        let stop = stop.clone();
        let root = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let path = root
                    .join(format!("d{}", n % 8))
                    .join(format!("churn{}.json", n % 5));
                let _ = std::fs::write(&path, BAD);
                let _ = std::fs::remove_file(&path);
                n += 1;
            }
        })
    };
    for round in 0..4 {
        let runs: Vec<_> = (0..4)
            .map(|i| {
                let args: &[&str] = if i % 2 == 0 {
                    &["check", "--fix", "--unsafe-fixes", "-q", "."]
                } else {
                    &["check", "--format", "json", "-q", "."]
                };
                cmd(dir.path())
                    .args(args)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for run in runs {
            let o = run.wait_with_output().unwrap();
            let err = stderr(&o);
            assert!(
                matches!(code(&o), 0..=2),
                "round {round}: exit {:?}: {err}",
                o.status
            );
            assert!(!err.contains("panicked"), "round {round}: {err}");
        }
        // No temporary file is left behind, and every file is whole: as it
        // was, or fixed.
        for d in 0..8 {
            for entry in std::fs::read_dir(dir.path().join(format!("d{d}"))).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().into_string().unwrap();
                if name.starts_with("churn") {
                    continue;
                }
                assert!(!name.ends_with(".tmp"), "round {round}: {name} left behind");
                let bytes = std::fs::read(entry.path()).unwrap();
                assert!(
                    bytes == BAD || bytes == fixed,
                    "round {round}: {name}: {bytes:?}"
                );
            }
        }
        populate(dir.path());
    }
    stop.store(true, Ordering::Relaxed);
    churn.join().unwrap();
}
