//! The PyPI package: `pyproject.toml` builds a wheel with
//! maturin (`bindings = "bin"`); the wheel installs into a fresh virtual
//! environment and its `utf8lint` runs; the pre-commit mirror's
//! `language: python` hook installs that wheel and runs it.
//!
//! The wheel is built with the `dev` profile into the target directory
//! the tests already use, so it packs the binary `cargo test` built instead
//! of compiling a release build (the release workflow builds those).
//! Opt-in, as the cold pre-commit install is: maturin's cargo builds the
//! binary again without the tests' dev-dependency features (about two
//! minutes on 2 cores, a quarter of `scripts/test` on a fresh clone), so it
//! runs with `UTF8LINT_WHEEL=1`, or with `UTF8LINT_REQUIRE_MATURIN=1`,
//! which CI sets and which also makes a missing maturin a failure; it needs
//! maturin (`pip install maturin`), and says so when it is absent.
//!
//! A test binary of its own, not one of `tests/cli`'s: maturin's cargo
//! builds the binary without the tests' dev-dependency features, and cargo
//! then links its own build over `target/debug/utf8lint`, which the CLI
//! tests, running in parallel in one binary, would find missing for an
//! instant. Cargo runs test binaries one after another.

use std::path::{Path, PathBuf};
use std::process::Command;

// The CLI tests' helpers (running the binary, trees, git, pre-commit).
#[allow(dead_code)]
#[path = "../cli/common.rs"]
mod common;

use common::*;

fn required(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// The target directory the tests' binary was built in.
fn target_dir() -> PathBuf {
    Path::new(bin())
        .parent()
        .and_then(Path::parent)
        .expect("the binary is in <target>/debug")
        .to_owned()
}

fn check_output(what: &str, out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds the wheel into `dir` and returns its path.
fn build_wheel(dir: &Path) -> PathBuf {
    let out = Command::new("maturin")
        .current_dir(repo())
        .args([
            "build",
            "--profile",
            "dev",
            "--compatibility",
            "linux",
            "--out",
        ])
        .arg(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    check_output("maturin build", &out);
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    let name = wheels[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with(&format!("utf8lint-{}-py3-none-", env!("CARGO_PKG_VERSION"))),
        "the wheel carries Cargo's version and no Python ABI: {name}"
    );
    wheels[0].clone()
}

#[test]
fn the_wheel_installs_into_a_fresh_venv_and_runs() {
    if !required("UTF8LINT_REQUIRE_MATURIN") && !required("UTF8LINT_WHEEL") {
        eprintln!(
            "\n!!! NOTICE: the wheel test is SKIPPED (it builds the binary a second time): UTF8LINT_WHEEL=1 runs it, CI's UTF8LINT_REQUIRE_MATURIN=1 requires it.\n"
        );
        return;
    }
    if !have("maturin") {
        assert!(
            !required("UTF8LINT_REQUIRE_MATURIN"),
            "UTF8LINT_REQUIRE_MATURIN=1 but `maturin` is not on PATH"
        );
        eprintln!(
            "\n!!! NOTICE: `maturin` is not on PATH: the wheel test is SKIPPED.\n!!! Install it with `pip install maturin` (CI does) or set UTF8LINT_REQUIRE_MATURIN=1 to make this a failure.\n"
        );
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let wheels = work.path().join("wheels");
    let wheel = build_wheel(&wheels);

    let venv = work.path().join("venv");
    let out = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    check_output("python3 -m venv", &out);
    let out = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--no-index",
            "--disable-pip-version-check",
            "--quiet",
        ])
        .arg(&wheel)
        .output()
        .unwrap();
    check_output("pip install", &out);

    let installed = venv.join("bin/utf8lint");
    assert_stripped(&installed);
    let files = tree(&[("bad.json", b"\xEF\xBB\xBF{}\n"), ("ok.txt", b"fine\n")]);
    let out = Command::new(&installed)
        .current_dir(files.path())
        .args(["check", "--format", "concise", "."])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "bad.json:1:1: error[U003] JSON forbids a byte-order mark\n"
    );
    let out = Command::new(&installed).arg("--version").output().unwrap();
    assert_eq!(
        stdout(&out),
        format!("utf8lint {}\n", env!("CARGO_PKG_VERSION"))
    );

    pre_commit_mirror_installs_the_wheel(work.path(), &wheels);
}

/// The mirror's hook through a real `pre-commit try-repo`, pip finding the
/// wheel just built (`PIP_FIND_LINKS`; the index is still asked for the
/// mirror's build backend, setuptools).
fn pre_commit_mirror_installs_the_wheel(work: &Path, wheels: &Path) {
    let mirror_source = repo().join("packaging/pre-commit-mirror");
    let pyproject = std::fs::read_to_string(mirror_source.join("pyproject.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        pyproject.contains(&format!("\"utf8lint=={version}\"")),
        "the mirror pins the wheel of Cargo's version {version}"
    );
    if !have("pre-commit") || !have("git") {
        assert!(
            !required("UTF8LINT_REQUIRE_PRECOMMIT"),
            "UTF8LINT_REQUIRE_PRECOMMIT=1 but `pre-commit` or `git` is not on PATH"
        );
        eprintln!("\n!!! NOTICE: `pre-commit` is not on PATH: the mirror hook test is SKIPPED.\n");
        return;
    }
    let mirror = work.join("mirror");
    std::fs::create_dir(&mirror).unwrap();
    for name in [".pre-commit-hooks.yaml", "pyproject.toml", "README.md"] {
        std::fs::copy(mirror_source.join(name), mirror.join(name)).unwrap();
    }
    git(&mirror, &["init", "-q"]);
    git(&mirror, &["add", "."]);
    git(&mirror, &["commit", "-qm", "mirror"]);

    let scratch = tree(&[("bad.json", b"\xEF\xBB\xBF{}\n"), ("ok.txt", b"fine\n")]);
    git(scratch.path(), &["init", "-q"]);
    git(scratch.path(), &["add", "."]);
    let out = Command::new("pre-commit")
        .current_dir(scratch.path())
        .args([
            "try-repo",
            mirror.to_str().unwrap(),
            "utf8lint",
            "--all-files",
        ])
        .env("PRE_COMMIT_HOME", work.join("pre-commit-home"))
        .env("PIP_FIND_LINKS", wheels)
        .env("PATH", without_utf8lint_on_path())
        .output()
        .unwrap();
    assert_failed_on_bad_json(&out);
}

/// `PATH` without directories holding a `utf8lint`, so that the hook can
/// only run the one the wheel installed in its environment.
fn without_utf8lint_on_path() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("utf8lint").exists())
        .collect();
    std::env::join_paths(kept).unwrap()
}

/// The binary has no symbol table and no debug information
/// (`[tool.maturin] strip = true`), as `readelf -S` lists its sections
/// (`objdump -h` leaves `.symtab` out); the GLIBC symbol versions it needs
/// (`objdump -T`) are printed for the record.
fn assert_stripped(binary: &Path) {
    if !cfg!(target_os = "linux") || !have("readelf") || !have("objdump") {
        eprintln!(
            "NOTICE: readelf or objdump not found (or not Linux): the wheel's binary was not checked for symbols"
        );
        return;
    }
    let out = Command::new("readelf")
        .arg("-SW")
        .arg(binary)
        .output()
        .unwrap();
    check_output("readelf -S", &out);
    let sections = stdout(&out);
    for section in [".symtab", ".debug_info", ".debug_line"] {
        assert!(
            !sections.contains(section),
            "the wheel's binary has a {section} section (not stripped):\n{sections}"
        );
    }
    let out = Command::new("objdump")
        .arg("-T")
        .arg(binary)
        .output()
        .unwrap();
    let mut glibc: Vec<(u32, u32)> = stdout(&out)
        .split("GLIBC_")
        .skip(1)
        .filter_map(|v| {
            let v: String = v
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let (major, minor) = v.split_once('.')?;
            Some((major.parse().ok()?, minor.split('.').next()?.parse().ok()?))
        })
        .collect();
    glibc.sort_unstable();
    if let Some((major, minor)) = glibc.last() {
        eprintln!("the wheel's binary, built here, needs glibc {major}.{minor} or later");
    }
}
