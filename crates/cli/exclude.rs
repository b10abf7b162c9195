//! `--exclude GLOB` and `--force-exclude` on the command line; the walk
//! applies the globs (`walk.rs`), and `utf8lint_workspace::read_and_check` the `exclude` key of
//! `utf8lint.toml`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use ignore::overrides::Override;
use utf8lint_workspace::{ExcludeProbe, WalkOptions, exclude_overrides};

use crate::args::CheckArgs;
use crate::output::names::display_path;

/// The `--exclude` globs, relative to the current directory.
pub(crate) fn overrides(args: &CheckArgs) -> anyhow::Result<Override> {
    if args.exclude.is_empty() {
        return Ok(Override::empty());
    }
    let cwd = std::env::current_dir()?;
    exclude_overrides(&cwd, &args.exclude).map_err(|e| anyhow!(e))
}

/// With `--force-exclude`, `files` (named on the command line) without
/// those the walk would have left out: listed in an ignore file, or
/// matched by `--exclude`, themselves or a directory they are in; and
/// whether `--stdin-filename` names such a file (standard input is then
/// not checked, as ruff does). Without it, every named file is checked, as
/// ripgrep checks a named file.
pub(crate) fn named_files(
    args: &CheckArgs,
    files: Vec<PathBuf>,
    options: WalkOptions,
    excludes: &Override,
) -> (Vec<PathBuf>, bool) {
    if !args.force_exclude {
        return (files, false);
    }
    let mut probe = ExcludeProbe::new(options, excludes.clone());
    let mut err = std::io::stderr().lock();
    let mut excluded = |path: &Path| {
        let excluded = probe.excluded(path);
        if excluded && args.verbose {
            // Standard error may be gone; nothing else to tell it to.
            let _ = writeln!(
                err,
                "utf8lint: skipped {}: excluded by an ignore file or --exclude (--force-exclude)",
                display_path(path).0
            );
        }
        excluded
    };
    let stdin = args.stdin_filename.as_deref().is_some_and(&mut excluded);
    let files = files.into_iter().filter(|p| !excluded(p)).collect();
    (files, stdin)
}
