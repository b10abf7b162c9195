//! Configuration a repository or a client may hand the resolver to stop,
//! exhaust or crash it: special files by a configuration file's name, globs
//! that do not compile, paths thousands of directories deep, and sizes
//! that cost quadratic time if anything is quadratic.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// Seconds to resolve one file under `entries` `[per-file-lints]` entries.
fn per_file_lints_secs(entries: usize) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("[per-file-lints]\n");
    for i in 0..entries {
        text.push_str(&format!("\"dir{i}/*.txt\" = {{ U001 = \"allow\" }}\n"));
    }
    fs::write(dir.path().join("utf8lint.toml"), text).unwrap();
    let started = Instant::now();
    let s = resolver().resolve(&dir.path().join("dir7/a.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Allow);
    started.elapsed().as_secs_f64()
}

/// Seconds to resolve one file in each of `depth` nested directories, each
/// with its own `utf8lint.toml` and `.editorconfig`.
fn nested_secs(depth: usize) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let mut path = dir.path().to_path_buf();
    let mut files = Vec::new();
    for _ in 0..depth {
        fs::create_dir_all(&path).unwrap();
        fs::write(
            path.join("utf8lint.toml"),
            "[lints]\nU001 = \"warn\"\n[bom]\n\"*.csv\" = \"require\"\n",
        )
        .unwrap();
        fs::write(path.join(".editorconfig"), "[*]\nindent_style = space\n").unwrap();
        files.push(path.join("f.txt"));
        path.push("d");
    }
    let started = Instant::now();
    let r = resolver();
    for f in &files {
        r.resolve(f).unwrap();
    }
    started.elapsed().as_secs_f64()
}

/// The fastest of three runs of `f`.
fn fastest(f: impl Fn() -> f64) -> f64 {
    (0..3).map(|_| f()).fold(f64::INFINITY, f64::min)
}

/// Doubling the entries at most about doubles the time (a quadratic cost
/// would give four times). Doubling the depth doubles the length of every
/// path and the number of files, so the input (the sum of the paths'
/// lengths) grows four times, and so may the time; the cost was cubic
/// (eight times). Measured on sizes large enough to rise above the noise
/// of a busy machine, with slack for it.
#[test]
fn configuration_cost_grows_linearly_with_size_and_depth() {
    let (n, n2) = (
        fastest(|| per_file_lints_secs(15_000)),
        fastest(|| per_file_lints_secs(30_000)),
    );
    assert!(
        n2 < 3.0 * n + 0.05,
        "per-file-lints: {n:.3} s then {n2:.3} s"
    );
    let (d, d2) = (fastest(|| nested_secs(400)), fastest(|| nested_secs(800)));
    assert!(d2 < 6.0 * d + 0.1, "nesting: {d:.3} s then {d2:.3} s");
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
