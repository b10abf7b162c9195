//! The sniff's answer for each file named on standard input (one path a
//! line), as `text`, `wide` or `binary`, then a tab, the evidence and the
//! path: to compare with another classifier (`file --mime`) on a tree.
//! With `--time`, the files are read first and the sniff's cost is
//! printed instead, in nanoseconds a file over 20 rounds (the best), next
//! to `check`'s on the files it calls text.
//!
//! `find DIR -type f | cargo run -p utf8lint-diagnostics --example sniff_files [--time]`

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

use utf8lint_diagnostics::{CheckOptions, Policy, Sniff, check, sniff};

fn main() -> std::io::Result<()> {
    let time = std::env::args().nth(1).as_deref() == Some("--time");
    let paths: Vec<String> = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    if time {
        return timed(&paths);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        match sniff(&bytes) {
            Sniff::Text => writeln!(out, "text\t\t{path}")?,
            Sniff::Wide(wide) => writeln!(out, "wide\t{}\t{path}", wide.form.name())?,
            Sniff::Binary(evidence) => writeln!(out, "binary\t{evidence}\t{path}")?,
        }
    }
    out.flush()
}

fn timed(paths: &[String]) -> std::io::Result<()> {
    let files: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let best = |f: &dyn Fn() -> usize| {
        (0..20)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(f());
                start.elapsed().as_nanos()
            })
            .min()
            .unwrap_or(0)
    };
    let sniffed = best(&|| files.iter().filter(|b| sniff(b) == Sniff::Text).count());
    let text: Vec<&Vec<u8>> = files.iter().filter(|b| sniff(b) == Sniff::Text).collect();
    let policy = Policy::default();
    let checked = best(&|| {
        text.iter()
            .map(|b| {
                check(
                    b,
                    CheckOptions::new(Path::new("x.txt"), &policy).sniffed_as_text(),
                )
                .len()
            })
            .sum()
    });
    let n = files.len().max(1) as u128;
    println!(
        "{} files ({} text): sniff {} ns a file; check of the text files {} ns a file",
        files.len(),
        text.len(),
        sniffed / n,
        checked / text.len().max(1) as u128
    );
    Ok(())
}
