//! `--exclude GLOB` and `--force-exclude` on the command line; the walk
//! applies the globs (`walk.rs`), and `check_file` the `exclude` key of
//! `utf8lint.toml`.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::anyhow;
use ignore::overrides::Override;
use utf8lint_workspace::{ExcludeProbe, WalkOptions, exclude_overrides};

use crate::args::CheckArgs;
use crate::check;

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
/// matched by `--exclude`, themselves or a directory they are in. Without
/// it, every named file is checked, as ripgrep checks a named file.
pub(crate) fn named_files(
    args: &CheckArgs,
    files: Vec<PathBuf>,
    options: WalkOptions,
    excludes: &Override,
) -> Vec<PathBuf> {
    if !args.force_exclude {
        return files;
    }
    let mut probe = ExcludeProbe::new(options, excludes.clone());
    let mut err = std::io::stderr().lock();
    files
        .into_iter()
        .filter(|path| {
            let excluded = probe.excluded(path);
            if excluded && args.verbose {
                // Standard error may be gone; nothing else to tell it to.
                let _ = writeln!(
                    err,
                    "utf8lint: skipped {}: excluded by an ignore file or --exclude (--force-exclude)",
                    check::display_path(path).0
                );
            }
            !excluded
        })
        .collect()
}
