//! Configuration a repository or a client may hand the resolver to stop,
//! exhaust or crash it: special files by a configuration file's name, globs
//! that do not compile, paths thousands of directories deep, and sizes
//! that cost more than a small constant of their size if anything is
//! superlinear (counted through this binary's allocator, never timed).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use utf8lint_config::{Overrides, Resolver};
use utf8lint_diagnostics::{Level, Rule};

fn resolver() -> Resolver {
    Resolver::new(Overrides {
        trust_all_config: true,
        ..Overrides::default()
    })
    .unwrap()
}

/// Runs `f` on a thread with a small stack: a recursion on path depth
/// overflows it (and aborts the test binary) where a loop does not.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Resolves `path` on another thread and fails if that takes more than a
/// few seconds (a blocked read never returns).
fn resolve_within(resolver: Resolver, path: PathBuf) -> Result<(), String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(
            resolver
                .resolve(&path)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        );
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("resolving hung on a configuration file")
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_configuration_file_is_an_error_not_a_hang() {
    for name in ["utf8lint.toml", ".editorconfig"] {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join(name));
        let err = resolve_within(resolver(), dir.path().join("a.txt")).unwrap_err();
        assert!(err.contains(name) && err.contains("FIFO"), "{err}");
        // Behind a symbolic link too.
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("pipe"));
        std::os::unix::fs::symlink(dir.path().join("pipe"), dir.path().join(name)).unwrap();
        let err = resolve_within(resolver(), dir.path().join("a.txt")).unwrap_err();
        assert!(err.contains(name) && err.contains("FIFO"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_device_is_an_error_not_an_endless_read() {
    for (name, device) in [
        ("utf8lint.toml", "/dev/zero"),
        (".editorconfig", "/dev/urandom"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(device, dir.path().join(name)).unwrap();
        let err = resolve_within(resolver(), dir.path().join("a.txt")).unwrap_err();
        assert!(err.contains(name) && err.contains("device"), "{err}");
    }
}

#[test]
fn a_configuration_file_over_the_size_limit_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("[lints]\n");
    while (text.len() as u64) <= utf8lint_config::MAX_CONFIG_BYTES {
        text.push_str(&"# filler\n".repeat(100_000));
    }
    fs::write(dir.path().join("utf8lint.toml"), text).unwrap();
    let err = resolver().resolve(&dir.path().join("a.txt")).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("utf8lint.toml") && shown.contains("MiB a configuration file may have"),
        "{shown}"
    );
}

#[test]
fn deeply_nested_braces_are_a_configuration_error_with_file_and_line() {
    let glob = format!("{}a{}", "{".repeat(400), "}".repeat(400));
    for (table, line) in [
        (format!("[per-file-lints]\n\"{glob}\" = [\"U001\"]\n"), 2),
        (format!("[bom]\n\"{glob}\" = \"forbid\"\n"), 2),
        (format!("exclude = [\"{glob}\"]\n"), 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("utf8lint.toml"), &table).unwrap();
        let err = resolver().resolve(&dir.path().join("a.txt")).unwrap_err();
        assert_eq!(err.line, Some(line), "{err}");
        let shown = err.to_string();
        assert!(shown.contains("not a valid glob"), "{shown}");
        // The glob is quoted, but not 800 braces of it.
        assert!(shown.len() < 600, "{shown}");
    }
    // An editor's settings: an error for `Resolver::new`, not a panic.
    let err = Resolver::new(Overrides {
        bom: vec![(glob.clone(), utf8lint_diagnostics::BomPolicy::Forbid)],
        ..Overrides::default()
    })
    .unwrap_err();
    assert!(err.message.contains("not a valid glob"), "{err}");
}

/// A path of `depth` components under `root`.
fn deep(root: &Path, depth: usize) -> PathBuf {
    let mut path = root.to_path_buf();
    for _ in 0..depth {
        path.push("d");
    }
    path
}

#[test]
fn a_nonexistent_path_thousands_of_directories_deep_resolves_without_recursion() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("utf8lint.toml"),
        "[lints]\nU001 = \"allow\"\n[per-file-lints]\n\"*.txt\" = { U002 = \"deny\" }\n",
    )
    .unwrap();
    let root = dir.path().to_path_buf();
    let settings = on_small_stack(move || {
        let resolver = resolver();
        let settings = resolver.resolve(&deep(&root, 3_000).join("f.txt")).unwrap();
        // Dropping the resolver drops its chains of 3,000 links.
        drop(resolver);
        settings
    });
    assert_eq!(settings.policy.levels.get(Rule::InvalidUtf8), Level::Allow);
    assert_eq!(settings.policy.levels.get(Rule::StrayFeff), Level::Deny);
}

#[test]
fn nested_configuration_files_apply_from_the_root_down() {
    let dir = tempfile::tempdir().unwrap();
    // Every level allows U002 and the last level denies it again.
    let mut path = dir.path().to_path_buf();
    for _ in 0..200 {
        fs::create_dir(path.join("d")).unwrap_or(());
        fs::write(path.join("utf8lint.toml"), "[lints]\nU002 = \"allow\"\n").unwrap();
        path.push("d");
    }
    fs::create_dir_all(&path).unwrap();
    fs::write(path.join("utf8lint.toml"), "[lints]\nU002 = \"deny\"\n").unwrap();
    let r = resolver();
    let s = r.resolve(&path.join("f.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Deny);
    assert_eq!(s.config_file, Some(path.join("utf8lint.toml")));
    let s = r.resolve(&path.parent().unwrap().join("f.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Allow);
}

/// This binary's allocations, counted per thread.
mod counting;

#[global_allocator]
static COUNTING: counting::Counting = counting::Counting;

/// Configuration files of a size `n` (written into `root`), and the file to
/// resolve under them.
type Shape = fn(root: &Path, n: usize) -> PathBuf;

/// Writes `text` as `root/name`.
fn put(root: &Path, name: &str, text: &str) {
    fs::write(root.join(name), text).unwrap();
}

fn editorconfig_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[*.e{i}]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("a.e7")
}

fn editorconfig_brace_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[{{a,b}}{i}.{{c,h}}]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("a7.c")
}

fn editorconfig_class_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[[ab]{i}.c]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("a7.c")
}

/// A negated class can match `/` in EditorConfig's translation: matched
/// as the translation reads, not by components.
fn editorconfig_negated_class_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[[!ab]{i}.c]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("c7.c")
}

fn editorconfig_nested_brace_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[{{a,{{b,c}}}}{i}.c]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("b7.c")
}

fn editorconfig_range_sections(root: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("[f{i}.{{1..9}}]\ncharset = latin1\n"))
        .collect();
    put(root, ".editorconfig", &text);
    root.join("f7.3")
}

fn editorconfig_properties(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[*]\n");
    for i in 0..n {
        text.push_str(&format!("key{i} = value{i}\n"));
    }
    text.push_str("charset = latin1\n");
    put(root, ".editorconfig", &text);
    root.join("a.txt")
}

fn exclude_globs(root: &Path, n: usize) -> PathBuf {
    let globs: Vec<String> = (0..n).map(|i| format!("\"dir{i}/**\"")).collect();
    put(
        root,
        "utf8lint.toml",
        &format!("exclude = [{}]\n", globs.join(", ")),
    );
    root.join("dir7/a.txt")
}

fn per_file_lints(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[per-file-lints]\n");
    for i in 0..n {
        text.push_str(&format!("\"dir{i}/*.txt\" = {{ U001 = \"allow\" }}\n"));
    }
    put(root, "utf8lint.toml", &text);
    root.join("dir7/a.txt")
}

fn bom_entries(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[bom]\n");
    for i in 0..n {
        text.push_str(&format!("\"**/gen{i}/*.csv\" = \"require\"\n"));
    }
    put(root, "utf8lint.toml", &text);
    root.join("gen7/a.csv")
}

/// The `i`-th of the distinct one-, two- and three-character names of
/// letters and digits (36 of one character, then 1,296 of two, ...).
fn tiny_name(mut i: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut name = Vec::new();
    loop {
        name.push(ALPHABET[i % ALPHABET.len()]);
        i /= ALPHABET.len();
        if i == 0 {
            break;
        }
        i -= 1;
    }
    String::from_utf8(name).unwrap()
}

/// One-character globs: the list's own bytes are a few per glob, so
/// what is kept per glob beside its text shows.
fn tiny_exclude_globs(root: &Path, n: usize) -> PathBuf {
    let globs: Vec<String> = (0..n)
        .map(|i| format!("\"{}\"", tiny_name(i % 36)))
        .collect();
    put(
        root,
        "utf8lint.toml",
        &format!("exclude = [{}]\n", globs.join(", ")),
    );
    root.join("dir7/a.txt")
}

fn tiny_bom_entries(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[bom]\n");
    for i in 0..n {
        text.push_str(&format!("\"{}\" = \"require\"\n", tiny_name(i)));
    }
    put(root, "utf8lint.toml", &text);
    root.join("gen7/a.csv")
}

fn dotted_per_file_lints(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[per-file-lints]\n");
    for i in 0..n {
        text.push_str(&format!("\"dir{i}/*.txt\".U001 = \"allow\"\n"));
    }
    put(root, "utf8lint.toml", &text);
    root.join("dir7/a.txt")
}

fn tiny_dotted_per_file_lints(root: &Path, n: usize) -> PathBuf {
    let mut text = String::from("[per-file-lints]\n");
    for i in 0..n {
        text.push_str(&format!("\"{}\".U001 = \"allow\"\n", tiny_name(i)));
    }
    put(root, "utf8lint.toml", &text);
    root.join("dir7/a.txt")
}

/// The bytes of the configuration files in `root`.
fn config_bytes(root: &Path) -> usize {
    [".editorconfig", "utf8lint.toml"]
        .iter()
        .filter_map(|name| fs::metadata(root.join(name)).ok())
        .map(|m| m.len() as usize)
        .sum()
}

/// The configuration's size in bytes, and what resolving one file under
/// it costs (the resolver, which keeps the configuration, alive at the
/// end: `held` is what the configuration costs to keep).
fn resolving(shape: Shape, n: usize) -> (usize, counting::Cost) {
    let dir = tempfile::tempdir().unwrap();
    let file = shape(dir.path(), n);
    let size = config_bytes(dir.path());
    let cost = counting::cost(|| {
        let resolver = resolver();
        resolver.resolve(&file).unwrap();
        resolver
    });
    (size, cost)
}

/// What a configuration may cost, per byte of its text, kept (the
/// resolver holding it) and at the peak (while it is read), plus a
/// constant; the figures ARCHITECTURE.md states.
#[derive(Clone, Copy)]
struct Bound {
    held_per_byte: usize,
    peak_per_byte: usize,
}

const CONSTANT: usize = 256 << 10;

/// `.editorconfig`, every kind of section glob: 10 times kept and at the
/// peak.
const EDITORCONFIG: Bound = Bound {
    held_per_byte: 10,
    peak_per_byte: 10,
};
/// `utf8lint.toml`: 10 times kept and at the peak (read one expression's
/// tokens at a time, keeping only the settings and the keys TOML's rules
/// need), thousands of `[per-file-lints]` entries of one- to
/// three-character globs written with dotted keys (`"ab".U001 =
/// "allow"`, 21 bytes, each a table TOML's rules keep to the end) too:
/// their keys are 16 bytes each in one store (`toml_keys.rs`).
const TOML: Bound = Bound {
    held_per_byte: 10,
    peak_per_byte: 10,
};

/// Each way a configuration can grow, at `n` and `2n`: memory within the
/// stated bounds of its size, and memory and allocations doubling (at
/// most x2.3) as it doubles. Counted, not timed: the same on a busy
/// machine as on an idle one (`scripts/bench-config` times them).
#[test]
fn configuration_memory_is_a_small_constant_of_its_size_and_grows_linearly() {
    let shapes: [(&str, Shape, usize, Bound); 14] = [
        ("sections", editorconfig_sections, 4_000, EDITORCONFIG),
        (
            "brace sections",
            editorconfig_brace_sections,
            2_000,
            EDITORCONFIG,
        ),
        (
            "class sections",
            editorconfig_class_sections,
            2_000,
            EDITORCONFIG,
        ),
        (
            "negated class sections",
            editorconfig_negated_class_sections,
            2_000,
            EDITORCONFIG,
        ),
        (
            "nested brace sections",
            editorconfig_nested_brace_sections,
            2_000,
            EDITORCONFIG,
        ),
        (
            "range sections",
            editorconfig_range_sections,
            2_000,
            EDITORCONFIG,
        ),
        ("properties", editorconfig_properties, 20_000, EDITORCONFIG),
        ("exclude globs", exclude_globs, 4_000, TOML),
        ("per-file-lints", per_file_lints, 4_000, TOML),
        ("bom entries", bom_entries, 4_000, TOML),
        (
            "one-character exclude globs",
            tiny_exclude_globs,
            200_000,
            TOML,
        ),
        ("tiny bom entries", tiny_bom_entries, 20_000, TOML),
        ("dotted per-file keys", dotted_per_file_lints, 4_000, TOML),
        (
            "tiny dotted per-file keys",
            tiny_dotted_per_file_lints,
            20_000,
            TOML,
        ),
    ];
    for (name, shape, n, bound) in shapes {
        let (size, one) = resolving(shape, n);
        let (size2, two) = resolving(shape, 2 * n);
        for (size, cost) in [(size, one), (size2, two)] {
            assert!(
                cost.held <= bound.held_per_byte * size + CONSTANT,
                "{name}: {} bytes held for {size} bytes of configuration",
                cost.held
            );
            assert!(
                cost.peak <= bound.peak_per_byte * size + CONSTANT,
                "{name}: {} bytes at the peak for {size} bytes of configuration",
                cost.peak
            );
        }
        let ratio = |a: usize, b: usize| b as f64 / a.max(1) as f64;
        for (what, a, b) in [
            ("peak bytes", one.peak, two.peak),
            ("allocations", one.allocations, two.allocations),
        ] {
            assert!(
                ratio(a, b) <= 2.3,
                "{name}: {what} {a} at {n}, {b} at {}",
                2 * n
            );
        }
    }
}

/// Files to resolve in each of `depth` nested directories, each with its
/// own `utf8lint.toml` and `.editorconfig`.
fn nested(root: &Path, depth: usize) -> Vec<PathBuf> {
    let mut path = root.to_path_buf();
    let mut files = Vec::new();
    for _ in 0..depth {
        fs::create_dir_all(&path).unwrap();
        fs::write(
            path.join("utf8lint.toml"),
            "[lints]\nU001 = \"warn\"\n[bom]\n\"*.csv\" = \"require\"\n",
        )
        .unwrap();
        fs::write(path.join(".editorconfig"), "[*]\ncharset = utf-8\n").unwrap();
        files.push(path.join("f.txt"));
        path.push("d");
    }
    files
}

/// Doubling the depth doubles the files and the length of every path: the
/// input (the sum of the paths' lengths) grows four times, and so may the
/// bytes allocated, while the allocations grow with the files (twice).
/// The cost was once cubic in the depth (eight times).
#[test]
fn nested_configuration_costs_grow_with_the_paths_not_faster() {
    let costs: Vec<counting::Cost> = [200, 400]
        .iter()
        .map(|&depth| {
            let dir = tempfile::tempdir().unwrap();
            let files = nested(dir.path(), depth);
            counting::cost(|| {
                let resolver = resolver();
                for f in &files {
                    resolver.resolve(f).unwrap();
                }
                resolver
            })
        })
        .collect();
    let (one, two) = (costs[0], costs[1]);
    assert!(
        two.allocations as f64 <= 2.3 * one.allocations as f64,
        "allocations {} then {}",
        one.allocations,
        two.allocations
    );
    assert!(
        two.held as f64 <= 4.6 * one.held as f64,
        "bytes held {} then {}",
        one.held,
        two.held
    );
}

/// The language server's resolver always answers: a broken
/// `utf8lint.toml` gives its files the fallback settings (built-in rules
/// and the overrides, glob-scoped ones included), and a glob of the
/// overrides that does not compile is left out while the others apply;
/// each problem is noted once.
#[test]
fn a_lenient_resolver_falls_back_and_notes_each_problem_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir(root.join(".git")).unwrap();
    fs::write(
        root.join("utf8lint.toml"),
        "[lints]\nstray_feff = \"allow\"\n",
    )
    .unwrap();
    fs::create_dir(root.join("broken")).unwrap();
    fs::write(root.join("broken/utf8lint.toml"), "[lints\n").unwrap();
    let overrides = Overrides {
        levels: vec![(Rule::InvalidUtf8, Level::Warn)],
        bom: vec![
            ("{".repeat(400), utf8lint_diagnostics::BomPolicy::Forbid),
            ("*.csv".into(), utf8lint_diagnostics::BomPolicy::Require),
        ],
        base_dir: Some(root.to_path_buf()),
        origin: Some("editor settings".into()),
        trust_all_config: true,
        ..Overrides::default()
    };
    let strict = Resolver::new(overrides.clone()).unwrap_err();
    assert!(strict.message.contains("not a valid glob"), "{strict}");

    let resolver = Resolver::lenient(overrides);
    let notes = resolver.take_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("not a valid glob"), "{notes:?}");
    assert!(notes[0].contains("left out"), "{notes:?}");

    // A sound configuration applies as it would strictly.
    let fine = resolver.resolve(&root.join("a.csv")).unwrap();
    assert_eq!(fine.policy.levels.get(Rule::StrayFeff), Level::Allow);
    assert_eq!(fine.policy.levels.get(Rule::InvalidUtf8), Level::Warn);
    assert_eq!(
        fine.policy.bom.as_ref().map(|b| b.policy),
        Some(utf8lint_diagnostics::BomPolicy::Require)
    );

    // Under the broken file: no configuration file at all, the overrides
    // (the level and the `*.csv` BOM rule) still.
    let strict = Resolver::new(Overrides {
        trust_all_config: true,
        ..Overrides::default()
    })
    .unwrap();
    assert!(strict.resolve(&root.join("broken/b.csv")).is_err());
    for name in ["b.csv", "c.csv"] {
        let fallback = resolver.resolve(&root.join("broken").join(name)).unwrap();
        assert_eq!(fallback, resolver.fallback(&root.join("broken").join(name)));
        assert_eq!(fallback.policy.levels.get(Rule::StrayFeff), Level::Warn);
        assert_eq!(fallback.policy.levels.get(Rule::InvalidUtf8), Level::Warn);
        assert_eq!(
            fallback.policy.bom.as_ref().map(|b| b.policy),
            Some(utf8lint_diagnostics::BomPolicy::Require)
        );
        assert!(fallback.config_file.is_none());
    }
    let notes = resolver.take_notes();
    assert_eq!(notes.len(), 1, "noted once for both files: {notes:?}");
    assert!(notes[0].contains("broken"), "{notes:?}");
    assert!(notes[0].contains("editor settings alone"), "{notes:?}");
}

/// A section glob of braces and brackets that never close (each would
/// have the translation scan to the glob's end) and one that is too long
/// to read: the first is read and matched within a small constant of its
/// size, the second is an error naming its line.
#[test]
fn long_unclosed_section_globs_cost_their_size_and_too_long_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let glob = "{[!".repeat(20_000);
    put(
        dir.path(),
        ".editorconfig",
        &format!("[*]\ncharset = utf-8\n[{glob}]\ncharset = latin1\n"),
    );
    let size = config_bytes(dir.path());
    let file = deep(dir.path(), 200).join("a.txt");
    let cost = counting::cost(|| {
        let resolver = resolver();
        resolver.resolve(&file).unwrap();
        resolver
    });
    assert!(
        cost.peak <= EDITORCONFIG.peak_per_byte * size + CONSTANT,
        "{} bytes at the peak for {size} bytes",
        cost.peak
    );

    let dir = tempfile::tempdir().unwrap();
    let glob = "[!a]".repeat(20_000);
    put(
        dir.path(),
        ".editorconfig",
        &format!("\n[{glob}]\ncharset = latin1\n"),
    );
    let err = resolver().resolve(&dir.path().join("a.txt")).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    let shown = err.to_string();
    assert!(shown.contains("KiB a section glob may have"), "{shown}");
    assert!(shown.len() < 600, "{shown}");
}
