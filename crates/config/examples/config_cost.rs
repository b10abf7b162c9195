//! The cost of configuration as it grows: `config_cost KIND N` writes a
//! configuration of size N and resolves a file under it:
//!
//! * `entries`: a `utf8lint.toml` of N `[per-file-lints]` entries;
//! * `exclude`: a `utf8lint.toml` whose `exclude` has N globs;
//! * `sections`, `braces`, `classes`, `negated`: an `.editorconfig` of N
//!   sections with `charset` (`[*.eN]`, `[{a,b}N.{c,h}]`, `[[ab]N.c]`,
//!   `[[!ab]N.c]`: the last a regular expression each);
//! * `properties`: an `.editorconfig` of one section of N properties;
//! * `depth`: N nested directories, each with a `utf8lint.toml` and an
//!   `.editorconfig`, and a file resolved in each.
//!
//! Prints the size, the seconds spent resolving and the peak resident memory
//! (Linux). `scripts/bench-config` runs it for N, 2N and 4N.

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
        eprintln!("usage: config_cost {USAGE} N");
        std::process::exit(2);
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path();
    let files = match kind.as_str() {
        "entries" => entries(root, n),
        "exclude" => {
            let globs: Vec<String> = (0..n).map(|i| format!("\"dir{i}/**\"")).collect();
            let text = format!("exclude = [{}]\n", globs.join(", "));
            one_file(root, "utf8lint.toml", &text, "dir7/a.txt")
        }
        "sections" => sections(root, n, |i| format!("*.e{i}"), "a.e7"),
        "braces" => sections(root, n, |i| format!("{{a,b}}{i}.{{c,h}}"), "a7.c"),
        "classes" => sections(root, n, |i| format!("[ab]{i}.c"), "a7.c"),
        "negated" => sections(root, n, |i| format!("[!ab]{i}.c"), "c7.c"),
        "properties" => {
            let mut text = String::from("[*]\n");
            for i in 0..n {
                text.push_str(&format!("key{i} = value{i}\n"));
            }
            text.push_str("charset = latin1\n");
            one_file(root, ".editorconfig", &text, "a.txt")
        }
        "depth" => depth(root, n),
        _ => {
            eprintln!("usage: config_cost {USAGE} N");
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

const USAGE: &str = "entries|exclude|sections|braces|classes|negated|properties|depth";

/// `text` as `root/name`; `file` (under `root`) to resolve.
fn one_file(root: &Path, name: &str, text: &str, file: &str) -> Vec<std::path::PathBuf> {
    fs::write(root.join(name), text).expect("writable");
    vec![root.join(file)]
}

/// An `.editorconfig` of `n` sections, section `i` of glob `glob(i)`.
fn sections(
    root: &Path,
    n: usize,
    glob: impl Fn(usize) -> String,
    file: &str,
) -> Vec<std::path::PathBuf> {
    let text: String = (0..n)
        .map(|i| format!("[{}]\ncharset = latin1\n", glob(i)))
        .collect();
    one_file(root, ".editorconfig", &text, file)
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
