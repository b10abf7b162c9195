//! Checking one file: settings, bytes, rules, fixes, rendering. Runs on the
//! walker's threads; everything it produces goes into a [`FileReport`] that
//! is printed later, in path order.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use utf8lint_diagnostics::{
    Diagnostic, Keep, Level, Rule, Sniff, check_keeping, check_path, sniff,
};

use crate::baseline::Baseline;
use crate::fix::{self, FixMode};
use crate::output::names::{display_path, uri_of};
use crate::output::{self, FileName, OutputOptions};
use crate::settings::{FileSettings, Resolver};
use crate::trouble::{Kind, Subject, Trouble};
use utf8lint_workspace::{ReadError, ReadOptions, Stamp, WriteError, read_file};

/// What a run does with fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FixAction {
    /// Report only.
    None,
    /// `--diff`: show what would change.
    Diff(FixMode),
    /// `--fix`: write.
    Write(FixMode),
}

/// Counters shared by all threads. The per-file ones (files, bytes,
/// skipped) are counted by each [`Worker`] and added here in batches: two
/// cores adding to one cache line for every file cost more than the rest of
/// a clean file's bookkeeping.
#[derive(Default)]
pub(crate) struct Stats {
    /// Findings per rule, for the summary and `--statistics`.
    pub by_rule: crate::report::RuleCounts,
    pub files: AtomicU64,
    pub bytes: AtomicU64,
    pub skipped: AtomicU64,
    pub errors: AtomicU64,
    pub warnings: AtomicU64,
    pub fixed_findings: AtomicU64,
    pub fixed_files: AtomicU64,
    pub troubles: AtomicU64,
}

/// Everything the threads share.
pub(crate) struct Context {
    pub resolver: Resolver,
    pub output: OutputOptions,
    pub fix: FixAction,
    pub verbose: bool,
    /// `--statistics`: count each file's findings instead of rendering them.
    pub statistics: bool,
    pub cwd: Option<PathBuf>,
    pub stats: Arc<Stats>,
    /// `--baseline` or `--write-baseline`.
    pub baseline: Option<Baseline>,
    /// `--exclude`, for the walk.
    pub excludes: ignore::overrides::Override,
    /// `--force-exclude`: `exclude` in utf8lint.toml applies to named files.
    pub force_exclude: bool,
    /// The `--output-file` when it exists: the walk leaves it out (the
    /// report is not an input, and a fix of it would be overwritten).
    pub report_file: Option<crate::report::FileId>,
    /// Configuration errors already told (the same bad file would otherwise
    /// be reported once per file it governs).
    config_errors: Mutex<HashSet<String>>,
}

impl Context {
    pub(crate) fn new(
        resolver: Resolver,
        output: OutputOptions,
        fix: FixAction,
        verbose: bool,
    ) -> Self {
        Context {
            resolver,
            output,
            fix,
            verbose,
            statistics: false,
            cwd: std::env::current_dir().ok(),
            stats: Arc::new(Stats::default()),
            baseline: None,
            excludes: ignore::overrides::Override::empty(),
            force_exclude: false,
            report_file: None,
            config_errors: Mutex::new(HashSet::new()),
        }
    }
}

/// What one file adds to the summary's per-file counts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    pub files: u64,
    pub bytes: u64,
    pub skipped: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.files += other.files;
        self.bytes += other.bytes;
        self.skipped += other.skipped;
    }
}

/// One file's share of the output.
#[derive(Default)]
pub(crate) struct FileReport {
    /// Sort key: the displayed path's bytes.
    pub key: Vec<u8>,
    pub stdout: String,
    pub stderr: String,
    /// What went wrong with it, printed on standard error (and in SARIF's
    /// notifications, as GitHub annotations).
    pub troubles: Vec<Trouble>,
    pub sarif: Vec<serde_json::Value>,
    /// Bytes for standard output as they are: a `--diff`, or standard
    /// input's fixed bytes under `--fix`.
    pub raw: Vec<u8>,
    /// `--statistics`: the file's findings, counted instead of rendered.
    pub counts: Option<crate::report::FileCounts>,
    /// Not printed: added to the worker's counts.
    pub tally: Tally,
}

impl FileReport {
    fn is_empty(&self) -> bool {
        self.stdout.is_empty()
            && self.stderr.is_empty()
            && self.troubles.is_empty()
            && self.sarif.is_empty()
            && self.raw.is_empty()
            && self.counts.is_none()
    }
}

/// A worker thread's state: its reusable read buffer, caches and reports.
pub(crate) struct Worker {
    pub buf: Vec<u8>,
    pub reports: Vec<FileReport>,
    /// The configuration of the last few directories.
    resolve: utf8lint_config::ResolveCache,
    /// Counts not yet added to `stats`.
    pending: Tally,
    stats: Arc<Stats>,
}

/// A worker adds its counts to the shared ones after this many files (and
/// when it is dropped), so progress stays current.
const TALLY_BATCH: u64 = 64;

impl Worker {
    pub(crate) fn new(ctx: &Context) -> Worker {
        Worker {
            buf: Vec::new(),
            reports: Vec::new(),
            resolve: utf8lint_config::ResolveCache::default(),
            pending: Tally::default(),
            stats: ctx.stats.clone(),
        }
    }

    fn push(&mut self, mut report: FileReport, name: &LazyName<'_>) {
        self.pending.add(report.tally);
        if self.pending.files + self.pending.skipped >= TALLY_BATCH {
            self.flush_counts();
        }
        if !report.is_empty() {
            report.key = name.get().key.clone();
            self.reports.push(report);
        }
    }

    /// Adds the counts not yet added to the shared ones.
    pub(crate) fn flush_counts(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        self.stats.files.fetch_add(pending.files, Ordering::Relaxed);
        self.stats.bytes.fetch_add(pending.bytes, Ordering::Relaxed);
        self.stats
            .skipped
            .fetch_add(pending.skipped, Ordering::Relaxed);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.flush_counts();
    }
}

/// Counts `trouble` and keeps it with the file's report, to be printed
/// in path order.
fn trouble(ctx: &Context, report: &mut FileReport, trouble: Trouble) {
    ctx.stats.troubles.fetch_add(1, Ordering::Relaxed);
    report.troubles.push(trouble);
}

/// Reports a problem that is not about one file's content (a walk error, a
/// missing path), sorted with the files by its path.
pub(crate) fn report_trouble(ctx: &Context, worker: &mut Worker, t: Trouble) {
    let mut report = FileReport {
        key: t.path().map(|p| display_path(p).1).unwrap_or_default(),
        ..FileReport::default()
    };
    trouble(ctx, &mut report, t);
    worker.reports.push(report);
}

pub(crate) fn settings(
    ctx: &Context,
    worker: &mut Worker,
    path: &Path,
    report: &mut FileReport,
) -> Option<Arc<FileSettings>> {
    match ctx
        .resolver
        .resolve_cached(path, &mut worker.resolve, &mut utf8lint_config::ByPath)
    {
        Ok(s) => Some(s),
        Err(error) => {
            let message = error.to_string();
            let first = ctx
                .config_errors
                .lock()
                .map(|mut seen| seen.insert(message.clone()))
                .unwrap_or(true);
            if first {
                let t = Trouble::new(Subject::Configuration, Kind::Config, message);
                trouble(ctx, report, t);
            } else {
                ctx.stats.troubles.fetch_add(1, Ordering::Relaxed);
            }
            None
        }
    }
}

/// A file's names, worked out only when something is printed about it: a
/// clean file (nearly all of them) costs no string work at all.
pub(crate) struct LazyName<'a> {
    ctx: &'a Context,
    path: &'a Path,
    cell: std::cell::OnceCell<Names>,
}

pub(crate) struct Names {
    pub display: String,
    /// The name when it is UTF-8 without a backslash and `display` differs
    /// from it (it holds a control, bidi or invisible character). JSON
    /// gives this, or `display` for every other name: a name without `\`
    /// as it is, one with `\` or invalid bytes escaped (`\\`, `\xE9`), so
    /// no two names get the same `path` (a Latin-1 `lat\xE9.txt` and a
    /// UTF-8 name spelt `lat\xE9.txt` included).
    pub exact: Option<String>,
    pub key: Vec<u8>,
    pub uri: String,
}

impl<'a> LazyName<'a> {
    pub(crate) fn new(ctx: &'a Context, path: &'a Path) -> Self {
        LazyName {
            ctx,
            path,
            cell: std::cell::OnceCell::new(),
        }
    }

    pub(crate) fn get(&self) -> &Names {
        self.cell.get_or_init(|| {
            let (display, key) = display_path(self.path);
            let uri = uri_of(self.ctx.cwd.as_deref(), self.path, &key);
            let exact = std::str::from_utf8(&key)
                .ok()
                .filter(|exact| *exact != display && !exact.contains('\\'))
                .map(str::to_owned);
            Names {
                display,
                exact,
                key,
                uri,
            }
        })
    }

    pub(crate) fn display(&self) -> &str {
        &self.get().display
    }
}

/// Checks the file at `path`. A file named on the command line
/// (`explicit`) is checked even if it looks binary, as ripgrep searches a
/// binary file it is given by name.
pub(crate) fn check_file(ctx: &Context, worker: &mut Worker, path: &Path, explicit: bool) {
    let name = LazyName::new(ctx, path);
    let mut report = FileReport::default();
    let Some(settings) = settings(ctx, worker, path, &mut report) else {
        return worker.push(report, &name);
    };
    if excluded(ctx, &settings, explicit, &name, &mut report) {
        return worker.push(report, &name);
    }
    let mut buf = std::mem::take(&mut worker.buf);
    // A file named on the command line is always read, whatever it is (a
    // FIFO, `<(cat x)`, a procfs file); the walk reads regular files only.
    let options = ReadOptions {
        max_len: None,
        allow_special: explicit,
    };
    match read_file(path, &mut buf, options) {
        Ok(read) => {
            let skip_binary = settings.skip_binary && !explicit;
            // Only a regular file can be replaced by a fix.
            let stamp = (read.kind == utf8lint_workspace::FileKind::Regular).then_some(read.stamp);
            check_bytes(
                ctx,
                &mut report,
                path,
                &name,
                &buf[..read.len],
                stamp,
                &settings,
                skip_binary,
            );
        }
        Err(ReadError::NotRegular(kind)) if !explicit => {
            if ctx.verbose {
                report.stderr.push_str(&format!(
                    "utf8lint: skipped {}: {}\n",
                    name.display(),
                    ReadError::NotRegular(kind)
                ));
            }
        }
        Err(ReadError::Io(e)) => trouble(ctx, &mut report, Trouble::io(path, &e)),
        Err(e) => {
            let t = Trouble::new(
                Subject::Path(path.into()),
                Kind::Read { io: None },
                e.to_string(),
            );
            trouble(ctx, &mut report, t);
        }
    }
    worker.buf = buf;
    worker.push(report, &name);
}

/// Whether `exclude` in a `utf8lint.toml` leaves the file out: always when
/// the walk found it, with `--force-exclude` when it was named (or is
/// standard input's `--stdin-filename`); `--verbose` says so.
fn excluded(
    ctx: &Context,
    settings: &FileSettings,
    named: bool,
    name: &LazyName<'_>,
    report: &mut FileReport,
) -> bool {
    let Some(why) = &settings.excluded else {
        return false;
    };
    if named && !ctx.force_exclude {
        return false;
    }
    if ctx.verbose {
        report.stderr.push_str(&format!(
            "utf8lint: skipped {}: excluded by {}\n",
            name.display(),
            utf8lint_diagnostics::escape_shown(why)
        ));
    }
    true
}

/// Checks standard input as `name` (`--stdin-filename`, else `<stdin>`).
pub(crate) fn check_stdin(ctx: &Context, worker: &mut Worker, name: Option<&Path>) {
    let policy_path = name.unwrap_or(Path::new("<stdin>"));
    let name = LazyName::new(ctx, policy_path);
    let mut report = FileReport::default();
    let Some(settings) = settings(ctx, worker, policy_path, &mut report) else {
        return worker.push(report, &name);
    };
    if excluded(ctx, &settings, true, &name, &mut report) {
        return worker.push(report, &name);
    }
    let mut buf = Vec::new();
    // Standard input cannot be measured first: its size bounds memory.
    match io::Read::read_to_end(&mut io::stdin().lock(), &mut buf) {
        Ok(_) if let FixAction::Write(mode) = ctx.fix => {
            fix_stdin(ctx, &mut report, policy_path, &name, &buf, &settings, mode);
        }
        Ok(_) => {
            check_bytes(
                ctx,
                &mut report,
                policy_path,
                &name,
                &buf,
                None,
                &settings,
                false,
            );
        }
        Err(e) => {
            let kind = Kind::Read { io: Some(e.kind()) };
            let t = Trouble::new(Subject::StandardInput, kind, e.to_string());
            trouble(ctx, &mut report, t);
        }
    }
    worker.push(report, &name);
}

/// `--fix` on standard input, as ruff does it: the fixed bytes (all of
/// them, fixed or not) go to standard output, as they are, for a pipe or an
/// editor's filter; the findings left in them go to standard error.
fn fix_stdin(
    ctx: &Context,
    report: &mut FileReport,
    path: &Path,
    name: &LazyName<'_>,
    bytes: &[u8],
    settings: &FileSettings,
    mode: FixMode,
) {
    report.tally.files += 1;
    report.tally.bytes += bytes.len() as u64;
    let shown = diagnose(ctx, path, bytes, settings, Keep::Shown);
    let mut every = Vec::new();
    let planned = plan_every(ctx, path, bytes, settings, &shown, &mut every, mode);
    let mut fixed = Vec::with_capacity(bytes.len());
    if let Err(e) = utf8lint_diagnostics::write_fixes(&mut fixed, bytes, &planned) {
        // The planner chose these fixes: refusing them is a bug, reported
        // as trouble rather than passed off as fixed output.
        let t = Trouble::new(Subject::StandardInput, Kind::FixFailed, e.to_string());
        return trouble(ctx, report, t);
    }
    if !planned.is_empty() {
        ctx.stats
            .fixed_findings
            .fetch_add(planned.len() as u64, Ordering::Relaxed);
        ctx.stats.fixed_files.fetch_add(1, Ordering::Relaxed);
    }
    let left = diagnose(ctx, path, &fixed, settings, Keep::Shown);
    let mut findings = FileReport::default();
    emit(ctx, &mut findings, name, &fixed, &left);
    report.stderr.push_str(&findings.stdout);
    report.raw = fixed;
}

/// The diagnostics for one file: its name first (U006), then its bytes;
/// `keep` says whether the display cap and ceiling apply (`Keep::Shown`)
/// or every finding is kept for fixing (`Keep::Every`).
///
/// With a baseline, every finding is kept (a finding hidden by the cap
/// would have no key), and those in the baseline are left out (`--baseline`)
/// or recorded (`--write-baseline`).
fn diagnose(
    ctx: &Context,
    path: &Path,
    bytes: &[u8],
    settings: &FileSettings,
    keep: Keep,
) -> Vec<Diagnostic> {
    let mut diagnostics = name_check(path, settings);
    let Some(baseline) = &ctx.baseline else {
        let found = check_keeping(bytes, path, &settings.policy, keep);
        // Nearly always the name is fine: the findings as they are, not
        // copied after it.
        if diagnostics.is_empty() {
            return found;
        }
        diagnostics.extend(found);
        return diagnostics;
    };
    diagnostics.extend(check_keeping(bytes, path, &settings.policy, Keep::Every));
    let cwd = ctx.cwd.as_deref().unwrap_or(Path::new("/"));
    let key = baseline.key_path(cwd, path);
    baseline.apply(&key, bytes, &mut diagnostics, keep == Keep::Shown);
    if keep == Keep::Shown {
        cap_new(&mut diagnostics, &settings.policy);
    }
    diagnostics
}

/// The display cap, applied to the findings left after a baseline: at most
/// `shown_per_rule` of each rule, the rest counted in one summary per rule.
fn cap_new(diagnostics: &mut Vec<Diagnostic>, policy: &utf8lint_diagnostics::Policy) {
    let max = utf8lint_diagnostics::shown_per_rule(policy.max_per_rule);
    let mut shown = [0usize; Rule::ALL.len()];
    let mut hidden: Vec<(Rule, usize, std::ops::Range<usize>)> = Vec::new();
    diagnostics.retain(|d| {
        let n = &mut shown[d.rule.index()];
        *n += 1;
        if *n <= max {
            return true;
        }
        match hidden.iter_mut().find(|(r, _, _)| *r == d.rule) {
            Some((_, count, _)) => *count += 1,
            None => hidden.push((d.rule, 1, d.span.clone())),
        }
        false
    });
    for (rule, count, span) in hidden {
        let level = policy.levels.get(rule);
        diagnostics.push(
            Diagnostic::new(
                rule,
                level,
                span,
                format!(
                    "{count} more new `{}` finding{} in this file not shown",
                    rule.name(),
                    if count == 1 { "" } else { "s" }
                ),
            )
            .with_note(format!(
                "at most {max} findings of a rule are shown per file (`--max-per-file`)"
            )),
        );
    }
}

/// The fixes `mode` applies to a file whose shown findings are `shown`:
/// planned from every finding, not only the shown ones (the display cap
/// and ceiling never limit what `--fix` and `--diff` do).
fn plan_every<'d>(
    ctx: &Context,
    path: &Path,
    bytes: &[u8],
    settings: &FileSettings,
    shown: &[Diagnostic],
    every: &'d mut Vec<Diagnostic>,
    mode: FixMode,
) -> Vec<&'d utf8lint_diagnostics::Fix> {
    if !shown.is_empty() {
        *every = diagnose(ctx, path, bytes, settings, Keep::Every);
    }
    fix::plan(every, bytes.len(), mode)
}

/// U006 for the path as shown (without a leading `./`).
fn name_check(path: &Path, settings: &FileSettings) -> Vec<Diagnostic> {
    // ASCII first: a word at a time, where `to_str` decodes.
    if path.as_os_str().as_encoded_bytes().is_ascii() || path.to_str().is_some() {
        // Valid UTF-8: nothing to find, and no need to copy the name.
        return Vec::new();
    }
    let shown = path.strip_prefix(".").unwrap_or(path);
    check_path(shown, settings.policy.levels.get(Rule::NonUtf8Path))
        .into_iter()
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn check_bytes(
    ctx: &Context,
    report: &mut FileReport,
    path: &Path,
    name: &LazyName<'_>,
    bytes: &[u8],
    stamp: Option<Stamp>,
    settings: &FileSettings,
    skip_binary: bool,
) {
    if skip_binary && let Sniff::Binary(evidence) = sniff(bytes) {
        report.tally.skipped += 1;
        if ctx.verbose {
            report.stderr.push_str(&format!(
                "utf8lint: skipped binary file {}: {evidence} (--no-skip-binary checks it)\n",
                name.display()
            ));
        }
        // Its name is still a name.
        let name_only = name_check(path, settings);
        emit(ctx, report, name, bytes, &name_only);
        return;
    }
    report.tally.files += 1;
    report.tally.bytes += bytes.len() as u64;
    let diagnostics = diagnose(ctx, path, bytes, settings, Keep::Shown);
    let mut every = Vec::new();
    match ctx.fix {
        FixAction::None => emit(ctx, report, name, bytes, &diagnostics),
        FixAction::Diff(mode) => {
            let planned = plan_every(ctx, path, bytes, settings, &diagnostics, &mut every, mode);
            report.raw = crate::diff::unified(&name.get().key, bytes, &planned);
            count(ctx, &diagnostics);
        }
        FixAction::Write(mode) => {
            let planned = plan_every(ctx, path, bytes, settings, &diagnostics, &mut every, mode);
            let Some(stamp) = stamp.filter(|_| !planned.is_empty()) else {
                return emit(ctx, report, name, bytes, &diagnostics);
            };
            let subject = || Subject::Path(path.to_owned());
            match fix::write_fixed(path, &stamp, bytes, &planned) {
                Ok(()) => {
                    ctx.stats
                        .fixed_findings
                        .fetch_add(planned.len() as u64, Ordering::Relaxed);
                    ctx.stats.fixed_files.fetch_add(1, Ordering::Relaxed);
                    // Report what is left, against the new bytes.
                    let mut fresh = Vec::new();
                    match read_file(path, &mut fresh, ReadOptions::default()) {
                        Ok(read) => {
                            let now = &fresh[..read.len];
                            let left = diagnose(ctx, path, now, settings, Keep::Shown);
                            emit(ctx, report, name, now, &left);
                        }
                        Err(e) => {
                            let t = Trouble::new(subject(), Kind::ReadAfterFix, e.to_string());
                            trouble(ctx, report, t);
                        }
                    }
                }
                Err(WriteError::Refused(why)) => {
                    let t = Trouble::new(subject(), Kind::FixRefused, why.to_string());
                    trouble(ctx, report, t);
                    emit(ctx, report, name, bytes, &diagnostics);
                }
                Err(WriteError::Io(e)) => {
                    let t = Trouble::new(subject(), Kind::FixFailed, e.to_string());
                    trouble(ctx, report, t);
                    emit(ctx, report, name, bytes, &diagnostics);
                }
            }
        }
    }
}

fn count(ctx: &Context, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        ctx.stats.by_rule.add(d);
        match d.level {
            Level::Deny => ctx.stats.errors.fetch_add(1, Ordering::Relaxed),
            Level::Warn => ctx.stats.warnings.fetch_add(1, Ordering::Relaxed),
            Level::Allow => 0,
        };
    }
}

fn emit(
    ctx: &Context,
    report: &mut FileReport,
    name: &LazyName<'_>,
    bytes: &[u8],
    diagnostics: &[Diagnostic],
) {
    count(ctx, diagnostics);
    if diagnostics.is_empty() {
        return;
    }
    if ctx.statistics {
        report.counts = Some(crate::report::FileCounts::of(diagnostics));
        return;
    }
    let names = name.get();
    output::render_file(
        &ctx.output,
        &FileName {
            display: &names.display,
            exact: names.exact.as_deref().unwrap_or(&names.display),
            uri: &names.uri,
        },
        bytes,
        diagnostics,
        &mut report.stdout,
        &mut report.sarif,
    );
}
