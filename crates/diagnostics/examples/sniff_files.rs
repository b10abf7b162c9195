//! The sniff's answer for each file named on standard input (one path a
//! line), as `text`, `wide` or `binary`, then a tab, the evidence and the
//! path: to compare with another classifier (`file --mime`) on a tree.
//!
//! `find DIR -type f | cargo run -p utf8lint-diagnostics --example sniff_files`

use std::io::{BufRead, Write};

use utf8lint_diagnostics::{Sniff, sniff};

fn main() -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let path = line?;
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
