//! Reading files that change under the scan: a file truncated,
//! regrown or removed while it is checked is reported as trouble and the
//! scan goes on; nothing crashes (no mmap, so no SIGBUS).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::*;

#[test]
fn a_file_truncated_while_checked_never_stops_the_scan() {
    let dir = tree(&[("a-bad.txt", b"x\xFF\n"), ("z-bad.txt", b"y\xFE\n")]);
    let moving = dir.path().join("m-moving.txt");
    // 4 MiB with an invalid byte at the end: long enough to be caught
    // between the size check and the read.
    let mut big = vec![b'a'; 4 << 20];
    big.push(0xFF);
    std::fs::write(&moving, &big).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let churn = {
        let stop = stop.clone();
        let moving = moving.clone();
        std::thread::spawn(move || {
            let mut rounds = 0u32;
            while !stop.load(Ordering::Relaxed) {
                // Truncate in place (same inode), then write it back, then
                // remove and recreate it: every way a file changes.
                let _ = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&moving)
                    .and_then(|f| f.set_len(1024));
                let _ = std::fs::write(&moving, &big);
                if rounds.is_multiple_of(4) {
                    let _ = std::fs::remove_file(&moving);
                    let _ = std::fs::write(&moving, &big);
                }
                rounds += 1;
            }
        })
    };
    let mut changed_seen = 0;
    for _ in 0..30 {
        let out = run(dir.path(), ["check", "--format", "concise", "."]);
        let status = out.status.code();
        let (so, se) = (stdout(&out), stderr(&out));
        // A finding (1) or trouble reading (2), never a signal or a panic.
        assert!(matches!(status, Some(1 | 2)), "{status:?}\n{so}\n{se}");
        assert!(!se.contains("panicked"), "{se}");
        // The other files are always reported.
        assert!(so.contains("a-bad.txt:1:2"), "{so}\n{se}");
        assert!(so.contains("z-bad.txt:1:2"), "{so}\n{se}");
        if status == Some(2) {
            // Trouble names the file and says what happened.
            assert!(se.contains("m-moving.txt"), "{se}");
            changed_seen += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    churn.join().unwrap();
    eprintln!("NOTICE: the scan caught the file changing in {changed_seen} of 30 runs");
}
