//! The floor for `scripts/bench-scan`: the walk and the reads a scan does
//! (`utf8lint_workspace::walker` run in parallel, `read_file` into one
//! reused buffer per thread) and nothing else: no configuration, no
//! checking, no output but a count. utf8lint's scan can only be slower;
//! how much slower is what it costs.
//!
//!     cargo run --release -p utf8lint-workspace --example walk_read -- DIR...

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use ignore::WalkState;
use utf8lint_workspace::{ReadOptions, WalkOptions, read_file, walker};

fn main() {
    let roots: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let Some(builder) = walker(&roots, WalkOptions::default()) else {
        eprintln!("usage: walk_read DIR...");
        std::process::exit(2);
    };
    let files = AtomicU64::new(0);
    let bytes = AtomicU64::new(0);
    builder.build_parallel().run(|| {
        let mut buf = Vec::new();
        let (files, bytes) = (&files, &bytes);
        Box::new(move |entry| {
            if let Ok(entry) = entry
                && entry.file_type().is_some_and(|t| t.is_file())
                && let Ok(read) = read_file(entry.path(), &mut buf, ReadOptions::default())
            {
                files.fetch_add(1, Ordering::Relaxed);
                bytes.fetch_add(read.len as u64, Ordering::Relaxed);
            }
            WalkState::Continue
        })
    });
    println!(
        "{} files, {} bytes",
        files.load(Ordering::Relaxed),
        bytes.load(Ordering::Relaxed)
    );
}
