//! Finding the files: paths named on the command line are always checked;
//! directories are walked in parallel by `utf8lint_workspace::walker` (the
//! rules shared with the language server: `.gitignore` inside a git
//! repository, `.ignore`, `.utf8lintignore`, hidden files, never `.git`).
//! Symbolic links are not followed unless `--follow`.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use ignore::WalkState;
use utf8lint_workspace::WalkOptions;

use crate::check::{self, Context, Worker};
use crate::held::{HELD_BUDGET, HeldReports};
use crate::output::names::display_path;
use crate::trouble::{Kind, Subject, Trouble};

/// Hands each worker's reports to the run's as soon as a file is done: a
/// worker holds one file's reports at a time, the run about its budget
/// ([`HeldReports`]).
struct Collector<'a> {
    worker: Worker,
    sink: &'a Mutex<HeldReports>,
}

impl Collector<'_> {
    fn hand_over(&mut self) {
        if self.worker.reports.is_empty() {
            return;
        }
        if let Ok(mut sink) = self.sink.lock() {
            for report in self.worker.reports.drain(..) {
                sink.push(report);
            }
        }
    }
}

impl Drop for Collector<'_> {
    fn drop(&mut self) {
        self.hand_over();
    }
}

/// Checks `files` (named on the command line) and walks `dirs`.
pub(crate) fn run(
    ctx: &Context,
    files: &[PathBuf],
    dirs: &[PathBuf],
    options: WalkOptions,
) -> HeldReports {
    let sink = Mutex::new(HeldReports::new(HELD_BUDGET));
    if !files.is_empty() {
        let next = AtomicUsize::new(0);
        let threads = options.threads.min(files.len()).max(1);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut c = Collector {
                        worker: Worker::new(ctx),
                        sink: &sink,
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        check::check_and_report(ctx, &mut c.worker, path, true);
                        c.hand_over();
                    }
                });
            }
        });
    }
    // Directories that overlap (`. src`) would give a file twice: with
    // more than one, each walked file is checked once, by its identity.
    let seen = (dirs.len() > 1).then(|| Mutex::new(std::collections::HashSet::new()));
    let seen = seen.as_ref();
    if let Some(mut builder) = utf8lint_workspace::walker(dirs, options) {
        builder.overrides(ctx.excludes.clone());
        builder.build_parallel().run(|| {
            let mut c = Collector {
                worker: Worker::new(ctx),
                sink: &sink,
            };
            Box::new(move |entry| {
                match entry {
                    Ok(entry) => {
                        if entry.file_type().is_some_and(|t| t.is_file())
                            && !ctx.leave_out.holds(&entry)
                            && first_visit(seen, &entry)
                        {
                            check_walked(ctx, &mut c.worker, entry.path(), entry.depth() == 0);
                        }
                    }
                    Err(err) => {
                        check::report_trouble(ctx, &mut c.worker, walk_trouble(&err));
                    }
                }
                c.hand_over();
                WalkState::Continue
            })
        });
    }
    sink.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Whether the walk meets `entry` for the first time (`seen`: the files
/// met, when directories may overlap).
fn first_visit(
    seen: Option<&Mutex<std::collections::HashSet<crate::report::FileId>>>,
    entry: &ignore::DirEntry,
) -> bool {
    let Some(seen) = seen else {
        return true;
    };
    match crate::report::file_id(entry.path()) {
        Some(id) => seen.lock().map_or(true, |mut seen| seen.insert(id)),
        None => true,
    }
}

/// Checks one walked file. A bug that panics while checking it is that
/// file's trouble (exit 2, a message naming it), not the end of the walk:
/// a panic in one of the walk's threads would abort every other file's
/// check and fix, and the walker itself (`ignore`'s `WalkParallel::visit`
/// unwraps its threads' results).
fn check_walked(ctx: &Context, worker: &mut Worker, path: &std::path::Path, explicit: bool) {
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check::check_and_report(ctx, worker, path, explicit);
    }));
    if checked.is_err() {
        let t = Trouble::new(
            Subject::Path(path.to_owned()),
            Kind::Internal,
            "internal error while checking it (a bug: please report it)",
        );
        check::report_trouble(ctx, worker, t);
    }
}

/// The trouble a walk error is: about the path it names, if any.
pub(crate) fn walk_trouble(err: &ignore::Error) -> Trouble {
    match err {
        ignore::Error::WithDepth { err, .. } => walk_trouble(err),
        ignore::Error::WithPath { path, err } => {
            let subject = Subject::Path(path.clone());
            match err.io_error() {
                Some(e) if e.kind() == std::io::ErrorKind::NotFound => Trouble::new(
                    subject,
                    Kind::Read { io: Some(e.kind()) },
                    "not found (a dangling symbolic link, or it vanished during the scan)",
                ),
                Some(e) => Trouble::io(path, e),
                None => Trouble::new(subject, Kind::Walk, err.to_string()),
            }
        }
        ignore::Error::Loop { ancestor, child } => Trouble::new(
            Subject::Path(child.clone()),
            Kind::Walk,
            format!(
                "symbolic link loop (points back to {})",
                display_path(ancestor).0
            ),
        ),
        other => {
            let subject = error_path(other).map_or(Subject::Unnamed, Subject::Within);
            Trouble::new(subject, Kind::Walk, other.to_string())
        }
    }
}

/// The path a walk error is about, if it names one.
fn error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::Partial(errs) => errs.first().and_then(error_path),
        _ => None,
    }
}
