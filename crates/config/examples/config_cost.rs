//! The cost of configuration as it grows: `config_cost entries N` writes a
//! `utf8lint.toml` of N `[per-file-lints]` entries and resolves a file under
//! it; `config_cost depth N` writes N nested directories, each with a
//! `utf8lint.toml` and an `.editorconfig`, and resolves a file in each.
//! Prints the size, the seconds spent resolving and the peak resident memory
//! (Linux). `scripts/bench-config` runs it for N and 2N.

use std::fs;
use std::path::Path;
use std::time::Instant;

use utf8lint_config::{Overrides, Resolver};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(kind), Some(n)) = (
        args.next(),
        args.next().and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: config_cost entries|depth N");
        std::process::exit(2);
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = match kind.as_str() {
        "entries" => entries(dir.path(), n),
        "depth" => depth(dir.path(), n),
        _ => {
            eprintln!("usage: config_cost entries|depth N");
            std::process::exit(2);
        }
    };
    let (user0, system0) = cpu_ticks().unwrap_or_default();
    let started = Instant::now();
    let resolver = Resolver::new(Overrides {
        trust_all_config: true,
        ..Overrides::default()
    })
    .expect("no override globs");
    for file in &files {
        if let Err(e) = resolver.resolve(file) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    drop(resolver);
    let secs = started.elapsed().as_secs_f64();
    let (user1, system1) = cpu_ticks().unwrap_or_default();
    println!(
        "{kind} {n}: {secs:.3} s wall, {:.2} s user, {:.2} s system, peak RSS {} KiB",
        (user1 - user0) as f64 / 100.0,
        (system1 - system0) as f64 / 100.0,
        peak_rss_kib().map_or("?".to_owned(), |k| k.to_string())
    );
}

/// One `utf8lint.toml` of `n` entries; the file to resolve.
fn entries(root: &Path, n: usize) -> Vec<std::path::PathBuf> {
    let mut text = String::from("[per-file-lints]\n");
    for i in 0..n {
        text.push_str(&format!("\"dir{i}/*.txt\" = {{ U001 = \"allow\" }}\n"));
    }
    fs::write(root.join("utf8lint.toml"), text).expect("writable");
    vec![root.join("dir7/a.txt")]
}

/// `n` nested directories with configuration files; a file in each.
fn depth(root: &Path, n: usize) -> Vec<std::path::PathBuf> {
    let mut path = root.to_path_buf();
    let mut files = Vec::new();
    for _ in 0..n {
        fs::create_dir_all(&path).expect("writable");
        fs::write(
            path.join("utf8lint.toml"),
            "[lints]\nU001 = \"warn\"\n[bom]\n\"*.csv\" = \"require\"\n",
        )
        .expect("writable");
        fs::write(path.join(".editorconfig"), "[*]\nindent_style = space\n").expect("writable");
        files.push(path.join("f.txt"));
        path.push("d");
    }
    files
}

/// User and system CPU time so far, in clock ticks (1/100 s on Linux),
/// from `/proc/self/stat`.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// `VmHWM` of `/proc/self/status`.
fn peak_rss_kib() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
