//! `utf8lint check --files`: the files a check would read, one per line, in
//! path order, without checking them (ruff's `--show-files`, ripgrep's
//! `--files`). With `--verbose`, what the walk leaves out and why, on
//! standard error: the directory walk is done a second time without its
//! filters, and each entry the real walk did not reach is explained once
//! (an ignored directory is one line, not one per file inside).
//!
//! Binary files are listed: whether a file looks binary is known only once
//! its first bytes are read, which is checking's work.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::WalkBuilder;
use ignore::gitignore::Gitignore;
use ignore::overrides::Override;
use utf8lint_workspace::{
    IGNORE_FILE, Skip, Skipped, WalkOptions, is_git_dir_name, settle, walker,
};

use utf8lint_diagnostics::escape_shown;

use crate::check::{self, Context, FileReport, Worker};
use crate::output::names::display_path;

/// What `--files` found.
pub(crate) struct Listing {
    /// The files, as shown (escaped), in path order.
    pub files: Vec<String>,
    /// `--verbose`: `(shown path, why it is skipped)`, in path order.
    pub skipped: Vec<(String, String)>,
    /// Walk errors.
    pub errors: Vec<crate::trouble::Trouble>,
}

/// Lists `files` (named on the command line: always checked) and the files
/// under `dirs`.
pub(crate) fn list(
    ctx: &Context,
    files: &[PathBuf],
    dirs: &[PathBuf],
    options: WalkOptions,
    verbose: bool,
) -> Listing {
    // `exclude` in utf8lint.toml leaves out what the walk finds, and what
    // is named only with --force-exclude, as a check does.
    let mut worker = Worker::new(ctx);
    let mut excluded_by_config = Vec::new();
    let mut config_excludes = |path: &Path, named: bool| {
        let honour_exclude = !named || ctx.force_exclude;
        match settle(path, &ctx.resolver, &mut worker.resolve, honour_exclude) {
            Err(Skipped {
                why: Skip::Excluded(why),
                ..
            }) => {
                let (shown, key) = display_path(path);
                excluded_by_config.push((
                    key,
                    shown,
                    format!("excluded by {}", escape_shown(&why)),
                ));
                Some(())
            }
            // Counted as trouble; the listing is no place for the message.
            Err(Skipped {
                why: Skip::BadConfig(error),
                ..
            }) => {
                check::bad_config(ctx, &mut FileReport::default(), &error);
                None
            }
            _ => None,
        }
    };
    let mut listed: Vec<(Vec<u8>, String)> = Vec::new();
    for p in files {
        if config_excludes(p, true).is_none() {
            let (shown, key) = display_path(p);
            listed.push((key, shown));
        }
    }
    let mut reached = HashSet::new();
    let mut errors = Vec::new();
    if let Some(mut builder) = walker(dirs, options) {
        builder.overrides(ctx.excludes.clone());
        for entry in builder.build() {
            match entry {
                Ok(entry) => {
                    if entry.file_type().is_some_and(|t| t.is_file())
                        && config_excludes(entry.path(), entry.depth() == 0).is_none()
                    {
                        let (shown, key) = display_path(entry.path());
                        listed.push((key, shown));
                    }
                    reached.insert(entry.into_path());
                }
                Err(e) => errors.push(crate::walk::walk_trouble(&e)),
            }
        }
    }
    listed.sort();
    listed.dedup();
    let skipped = if verbose {
        let mut skipped = skipped(dirs, options, &ctx.excludes, reached);
        excluded_by_config.sort();
        skipped.extend(
            excluded_by_config
                .into_iter()
                .map(|(_, shown, why)| (shown, why)),
        );
        skipped.sort();
        skipped
    } else {
        Vec::new()
    };
    Listing {
        files: listed.into_iter().map(|(_, shown)| shown).collect(),
        skipped,
        errors,
    }
}

/// The entries under `dirs` that the walk did not reach (or reached and
/// does not read), each with the reason.
fn skipped(
    dirs: &[PathBuf],
    options: WalkOptions,
    excludes: &Override,
    reached: HashSet<PathBuf>,
) -> Vec<(String, String)> {
    let Some((first, rest)) = dirs.split_first() else {
        return Vec::new();
    };
    let mut builder = WalkBuilder::new(first);
    for dir in rest {
        builder.add(dir);
    }
    let left_out: Arc<Mutex<Vec<(PathBuf, bool)>>> = Arc::default();
    let sink = Arc::clone(&left_out);
    let reached = Arc::new(reached);
    let seen = Arc::clone(&reached);
    builder
        .standard_filters(false)
        .follow_links(options.follow)
        .filter_entry(move |entry| {
            if entry.depth() == 0 || seen.contains(entry.path()) {
                return true;
            }
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if let Ok(mut sink) = sink.lock() {
                sink.push((entry.path().to_owned(), is_dir));
            }
            false
        });
    let mut out: Vec<(Vec<u8>, String, String)> = Vec::new();
    for entry in builder.build().flatten() {
        let kind = entry.file_type();
        if kind.is_some_and(|t| t.is_file() || t.is_dir()) {
            continue;
        }
        let why = if kind.is_some_and(|t| t.is_symlink()) {
            "a symbolic link (--follow follows links)"
        } else {
            "not a regular file"
        };
        let (shown, key) = display_path(entry.path());
        out.push((key, shown, why.to_owned()));
    }
    let mut ignores = IgnoreFiles::default();
    let left_out = std::mem::take(&mut *left_out.lock().unwrap_or_else(|e| e.into_inner()));
    for (path, is_dir) in left_out {
        let why = why_left_out(&path, is_dir, options, excludes, &mut ignores);
        let (shown, key) = display_path(&path);
        out.push((key, shown, why));
    }
    out.sort();
    out.into_iter()
        .map(|(_, shown, why)| (shown, why))
        .collect()
}

/// Ignore files read so far, by path (`None`: absent or unreadable).
#[derive(Default)]
struct IgnoreFiles(HashMap<PathBuf, Option<Gitignore>>);

impl IgnoreFiles {
    fn get(&mut self, file: PathBuf) -> Option<&Gitignore> {
        self.0
            .entry(file)
            .or_insert_with_key(|file| {
                if !file.is_file() {
                    return None;
                }
                let (matcher, _) = Gitignore::new(file);
                Some(matcher)
            })
            .as_ref()
    }
}

/// Why the walk left `path` out, in the order the `ignore` crate decides:
/// `.git`, then ignore files (`.utf8lintignore` over `.ignore` over
/// `.gitignore`, the deepest directory first; a `!pattern` keeps it),
/// then git's excludes, then hidden names.
fn why_left_out(
    path: &Path,
    is_dir: bool,
    options: WalkOptions,
    excludes: &Override,
    ignores: &mut IgnoreFiles,
) -> String {
    if is_git_dir_name(path) {
        return "git's own directory, never entered".into();
    }
    // --exclude comes before ignore files, as the walker's overrides do.
    // (The ignore crate does not tell which override glob matched.)
    if excludes.matched(path, is_dir).is_ignore() {
        return "excluded by --exclude".into();
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut whitelisted = false;
    if !options.no_ignore {
        'kinds: for name in [IGNORE_FILE, ".ignore", ".gitignore"] {
            for dir in absolute.ancestors().skip(1) {
                let Some(matcher) = ignores.get(dir.join(name)) else {
                    continue;
                };
                let found = matcher.matched(&absolute, is_dir);
                if let Some(glob) = found.inner() {
                    if found.is_ignore() {
                        // Named as the user would name it: relative to
                        // the working directory when it is inside it.
                        let file = dir.join(name);
                        let cwd = std::env::current_dir().unwrap_or_default();
                        let (from, _) = display_path(file.strip_prefix(&cwd).unwrap_or(&file));
                        return format!(
                            "ignored by {from} (`{}`)",
                            utf8lint_diagnostics::escape_shown(glob.original())
                        );
                    }
                    whitelisted = true;
                    break 'kinds;
                }
            }
        }
    }
    let hidden = path
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."));
    if options.skip_hidden && hidden {
        return "hidden (--no-hidden skips hidden files)".into();
    }
    if !whitelisted && !options.no_ignore {
        return "ignored by git's excludes (.git/info/exclude or core.excludesFile)".into();
    }
    "left out by the walk".into()
}

/// Prints a listing: the files on `out`, the rest on `err`.
pub(crate) fn print(
    listing: &Listing,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<()> {
    for file in &listing.files {
        writeln!(out, "{file}")?;
    }
    for (path, why) in &listing.skipped {
        writeln!(err, "utf8lint: skipped {path}: {why}")?;
    }
    for e in &listing.errors {
        err.write_all(e.stderr_line().as_bytes())?;
    }
    Ok(())
}
