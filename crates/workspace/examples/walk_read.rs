//! The floor for `scripts/bench-scan`: the walk and the reads a scan does
//! (`utf8lint_workspace::walker` run in parallel, `read_file` into one
//! reused buffer per thread) and nothing else: no configuration, no
//! checking, no output but a count. utf8lint's scan can only be slower;
//! how much slower is what it costs.
//!
//! With `--validate`, each file read is also searched for a NUL byte in its
//! first 8 KiB (the binary sniff) and, without one, validated as UTF-8
//! (`utf8lint_codec::is_valid`): the least any UTF-8 check of every file
//! can do.
//!
//!     cargo run --release -p utf8lint-workspace --example walk_read -- [--validate] DIR...

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use ignore::WalkState;
use utf8lint_workspace::{ReadOptions, WalkOptions, read_file, walker};

fn main() {
    let mut args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let validate = args.first().is_some_and(|a| a.as_os_str() == "--validate");
    let roots = if validate { args.split_off(1) } else { args };
    let Some(builder) = walker(&roots, WalkOptions::default()) else {
        eprintln!("usage: walk_read [--validate] DIR...");
        std::process::exit(2);
    };
    let files = AtomicU64::new(0);
    let bytes = AtomicU64::new(0);
    let valid = AtomicU64::new(0);
    builder.build_parallel().run(|| {
        let mut buf = Vec::new();
        let (files, bytes, valid) = (&files, &bytes, &valid);
        Box::new(move |entry| {
            if let Ok(entry) = entry
                && entry.file_type().is_some_and(|t| t.is_file())
                && let Ok(read) = read_file(entry.path(), &mut buf, ReadOptions::default())
            {
                files.fetch_add(1, Ordering::Relaxed);
                bytes.fetch_add(read.len as u64, Ordering::Relaxed);
                let text = &buf[..read.len];
                if validate
                    && utf8lint_codec::find_nul(&text[..text.len().min(8192)]).is_none()
                    && utf8lint_codec::is_valid(text)
                {
                    valid.fetch_add(1, Ordering::Relaxed);
                }
            }
            WalkState::Continue
        })
    });
    println!(
        "{} files, {} bytes",
        files.load(Ordering::Relaxed),
        bytes.load(Ordering::Relaxed)
    );
    if validate {
        println!(
            "{} without a NUL and valid UTF-8",
            valid.load(Ordering::Relaxed)
        );
    }
}
