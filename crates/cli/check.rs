//! Checking one file: the workspace layer's pipeline (settings, exclusion,
//! read, sniff, check), then what is the CLI's own (the name, the baseline,
//! fixes, rendering). Runs on the walker's threads; everything it produces
//! goes into a [`FileReport`] that is printed later, in path order.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use utf8lint_diagnostics::{
    CheckOptions, Diagnostic, Keep, Level, Rule, check, check_path, escape_shown,
};

use crate::baseline::Baseline;
use crate::diff_base::DiffBase;
use crate::fix::{self, FixMode};
use crate::output::names::{display_path, uri_of};
use crate::output::{self, FileName, OutputOptions};
use crate::settings::{FileSettings, Resolver};
use crate::trouble::{Kind, Subject, Trouble};
use utf8lint_workspace::gate;
use utf8lint_workspace::{
    FileKind, FileOptions, ReadError, ReadOptions, Skip, Skipped, Stamp, WriteError, check_bytes,
    read_file, settle,
};

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
    /// `--diff`: the files with a diff.
    pub diffs: AtomicU64,
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
    /// `--diff-base`: the lines changed since a revision.
    pub diff_base: Option<DiffBase>,
    /// `--exclude`, for the walk.
    pub excludes: ignore::overrides::Override,
    /// `--force-exclude`: `exclude` in utf8lint.toml applies to named files.
    pub force_exclude: bool,
    /// Files the walk passes over: those the run writes at its end that
    /// exist already (`--output-file`, `--write-baseline`: an output is not
    /// an input, and a fix of it would be overwritten), and the files named
    /// on the command line, checked once as named.
    pub leave_out: crate::report::FileSet,
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
            diff_base: None,
            excludes: ignore::overrides::Override::empty(),
            force_exclude: false,
            leave_out: crate::report::FileSet::default(),
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
    /// SARIF tool execution notifications: the display cap's notes.
    pub sarif_notes: Vec<serde_json::Value>,
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
            && self.sarif_notes.is_empty()
            && self.raw.is_empty()
            && self.counts.is_none()
    }
}

/// A worker thread's state: its reusable read buffer, caches and reports.
pub(crate) struct Worker {
    pub buf: Vec<u8>,
    pub reports: Vec<FileReport>,
    /// The configuration of the last few directories.
    pub resolve: utf8lint_config::ResolveCache,
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

/// Reports a configuration error once: the same bad file would otherwise
/// be reported for every file it governs (each is still counted).
pub(crate) fn bad_config(
    ctx: &Context,
    report: &mut FileReport,
    error: &utf8lint_config::ConfigError,
) {
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
    /// The name when it is UTF-8 and `display` differs from it (it holds a
    /// backslash, a control, bidi or invisible character). JSON gives this,
    /// or `display` for a name that is not UTF-8 (its invalid bytes
    /// escaped, `\xE9`, and so its backslashes, `\\`): a UTF-8 name is
    /// written as it is, once, so that its `path` names the file.
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
                .filter(|exact| *exact != display)
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

/// The largest file a run reads (1 GiB): a larger one is one line of
/// trouble, decided from its size before any memory is reserved for it,
/// and the run goes on. A worker holds its largest file in its buffer, and
/// fixes and findings add to that: past this size a check is not worth
/// the memory it could take (a sparse disk image says 40 GB and is mostly
/// zeros). A special file named on the command line is read up to it.
pub(crate) const MAX_FILE_LEN: u64 = 1 << 30;

/// Checks the file at `path` through the pipeline. A file named on the
/// command line (`explicit`) is read whatever it is (a FIFO, `<(cat x)`, a
/// procfs file); a binary one is skipped as a walked one is (never checked
/// as text, never fixed) but said so with its kind, unless
/// `--no-skip-binary`; `exclude` leaves it out only under `--force-exclude`.
pub(crate) fn check_and_report(ctx: &Context, worker: &mut Worker, path: &Path, explicit: bool) {
    let name = LazyName::new(ctx, path);
    // `--diff-base`: a file unchanged since the revision is not read.
    if let Some(base) = ctx.diff_base.as_ref().filter(|base| !base.changed(path)) {
        if ctx.verbose {
            let report = FileReport {
                stderr: format!(
                    "utf8lint: skipped {}: unchanged since {}\n",
                    name.display(),
                    escape_shown(&base.rev)
                ),
                ..FileReport::default()
            };
            worker.push(report, &name);
        }
        return;
    }
    let mut report = FileReport::default();
    let options = FileOptions {
        honour_exclude: !explicit || ctx.force_exclude,
        sniff_binary: true,
        read: ReadOptions {
            max_len: Some(MAX_FILE_LEN),
            allow_special: explicit,
            // A fix replaces a file only as it was read.
            stamp: matches!(ctx.fix, FixAction::Write(_)),
        },
        keep: keep(ctx, path),
    };
    let mut buf = std::mem::take(&mut worker.buf);
    match utf8lint_workspace::read_and_check(
        path,
        &ctx.resolver,
        &mut worker.resolve,
        options,
        &mut buf,
    ) {
        Ok(checked) => {
            // Only a regular file can be replaced by a fix.
            let stamp = checked
                .read
                .stamp
                .filter(|_| checked.read.kind == FileKind::Regular);
            let bytes = &buf[..checked.read.len];
            let found = Found {
                bytes,
                settings: &checked.settings,
                diagnostics: checked.diagnostics,
            };
            report_checked(ctx, &mut report, &name, found, stamp);
        }
        Err(skip) => skipped(ctx, &mut report, &name, explicit, skip, &buf),
    }
    worker.buf = buf;
    worker.push(report, &name);
}

/// Tells why a file was not checked: trouble for what the user must hear
/// about, a note under `--verbose` for what was meant.
fn skipped(
    ctx: &Context,
    report: &mut FileReport,
    name: &LazyName<'_>,
    explicit: bool,
    skip: Skipped,
    bytes: &[u8],
) {
    match skip.why {
        Skip::BadConfig(error) => bad_config(ctx, report, &error),
        Skip::Excluded(why) if ctx.verbose => report.stderr.push_str(&format!(
            "utf8lint: skipped {}: excluded by {}\n",
            name.display(),
            escape_shown(&why)
        )),
        Skip::Excluded(_) => {}
        // The walk reads regular files only: whatever else it finds is
        // passed over, said under `--verbose`.
        Skip::Unread(e @ ReadError::NotRegular(_)) if !explicit => {
            if ctx.verbose {
                report
                    .stderr
                    .push_str(&format!("utf8lint: skipped {}: {e}\n", name.display()));
            }
        }
        Skip::Unread(ReadError::Io(e)) => trouble(ctx, report, Trouble::io(name.path, &e)),
        Skip::Unread(e) => {
            let t = Trouble::new(
                Subject::Path(name.path.into()),
                Kind::Read { io: None },
                e.to_string(),
            );
            trouble(ctx, report, t);
        }
        Skip::Binary { evidence, len } => {
            let bytes = &bytes[..len];
            report.tally.skipped += 1;
            // A file the user named is said to be skipped, and why; a
            // walked one under `--verbose`.
            if explicit || ctx.verbose {
                report.stderr.push_str(&format!(
                    "utf8lint: skipped {}: binary ({evidence}); --no-skip-binary checks it\n",
                    name.display()
                ));
            }
            // In the JSON report too, unless standard output holds a diff
            // or the statistics instead.
            if explicit && !ctx.statistics && !matches!(ctx.fix, FixAction::Diff(_)) {
                let names = name.get();
                let file = FileName {
                    display: &names.display,
                    exact: names.exact.as_deref().unwrap_or(&names.display),
                    uri: &names.uri,
                };
                let why = format!("binary ({evidence})");
                output::render_skipped(&ctx.output, &file, &why, &mut report.stdout);
            }
            // Its name is still a name.
            if let Some(settings) = &skip.settings {
                let name_only = name_check(name.path, settings);
                emit(ctx, report, name, bytes, &name_only);
            }
        }
    }
}

/// Checks standard input as `name` (`--stdin-filename`, else `<stdin>`):
/// the pipeline's settings and exclusion, then its bytes (standard input
/// cannot be measured first: its size bounds memory), never sniffed.
/// `excluded`: `--force-exclude` leaves the name out as the walk would.
///
/// Under `--fix`, standard output is the input, fixed or as it came: an
/// editor's filter replaces its buffer with whatever it is given, so a
/// name left out, a bad configuration or a fix that fails still gives
/// every byte back.
pub(crate) fn check_stdin(ctx: &Context, worker: &mut Worker, name: Option<&Path>, excluded: bool) {
    let policy_path = name.unwrap_or(Path::new("<stdin>"));
    let name = LazyName::new(ctx, policy_path);
    let mut report = FileReport::default();
    let fixing = matches!(ctx.fix, FixAction::Write(_));
    if excluded && !fixing {
        return worker.push(report, &name);
    }
    // Read before anything can leave the bytes out, when they go back.
    let mut input = None;
    if fixing {
        match read_stdin(ctx, &mut report) {
            Some(bytes) => input = Some(bytes),
            None => return worker.push(report, &name),
        }
    }
    if excluded {
        report.raw = input.unwrap_or_default();
        return worker.push(report, &name);
    }
    let honour_exclude = ctx.force_exclude;
    let settings = match settle(
        policy_path,
        &ctx.resolver,
        &mut worker.resolve,
        honour_exclude,
    ) {
        Ok(settings) => settings,
        Err(skip) => {
            skipped(ctx, &mut report, &name, true, skip, &[]);
            report.raw = input.unwrap_or_default();
            return worker.push(report, &name);
        }
    };
    let buf = match input {
        Some(bytes) => bytes,
        None => match read_stdin(ctx, &mut report) {
            Some(bytes) => bytes,
            None => return worker.push(report, &name),
        },
    };
    if let FixAction::Write(mode) = ctx.fix {
        fix_stdin(ctx, &mut report, policy_path, &name, buf, &settings, mode);
        return worker.push(report, &name);
    }
    let options = FileOptions {
        honour_exclude,
        sniff_binary: false,
        read: ReadOptions::default(),
        keep: keep(ctx, policy_path),
    };
    match check_bytes(&buf, policy_path, &settings, options) {
        Ok(diagnostics) => {
            let found = Found {
                bytes: &buf,
                settings: &settings,
                diagnostics,
            };
            report_checked(ctx, &mut report, &name, found, None);
        }
        Err(evidence) => {
            let skip = Skipped {
                settings: Some(settings),
                why: Skip::Binary {
                    evidence,
                    len: buf.len(),
                },
            };
            skipped(ctx, &mut report, &name, true, skip, &buf);
        }
    }
    worker.push(report, &name);
}

/// Standard input's bytes, or `None` with the trouble told.
fn read_stdin(ctx: &Context, report: &mut FileReport) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    match io::Read::read_to_end(&mut io::stdin().lock(), &mut buf) {
        Ok(_) => Some(buf),
        Err(e) => {
            let kind = Kind::Read { io: Some(e.kind()) };
            let t = Trouble::new(Subject::StandardInput, kind, e.to_string());
            trouble(ctx, report, t);
            None
        }
    }
}

/// `--fix` on standard input, as ruff does it: the fixed bytes (all of
/// them, fixed or not) go to standard output, as they are, for a pipe or an
/// editor's filter; the findings left in them go to standard error.
fn fix_stdin(
    ctx: &Context,
    report: &mut FileReport,
    path: &Path,
    name: &LazyName<'_>,
    input: Vec<u8>,
    settings: &FileSettings,
    mode: FixMode,
) {
    let bytes = &input[..];
    report.tally.files += 1;
    report.tally.bytes += bytes.len() as u64;
    let shown = diagnose(ctx, path, bytes, settings, Keep::Shown);
    // Refused or with nothing to fix, the input goes out as it came in.
    let fixed = match plan_every(ctx, path, bytes, settings, &shown, mode) {
        Ok(Some(fixed)) => {
            ctx.stats
                .fixed_findings
                .fetch_add(fixed.findings as u64, Ordering::Relaxed);
            ctx.stats.fixed_files.fetch_add(1, Ordering::Relaxed);
            fixed.bytes
        }
        Ok(None) => bytes.to_vec(),
        Err(why) => {
            let t = Trouble::new(Subject::StandardInput, Kind::FixRefused, why.to_string());
            trouble(ctx, report, t);
            bytes.to_vec()
        }
    };
    let left = diagnose(ctx, path, &fixed, settings, Keep::Shown);
    let mut findings = FileReport::default();
    emit(ctx, &mut findings, name, &fixed, &left);
    report.stderr.push_str(&findings.stdout);
    report.raw = fixed;
}

/// What the check keeps of the file at `path`: with a baseline, every
/// finding (a finding hidden by the cap would have no key), as with
/// `--diff-base` for a file with lines unchanged (one hidden may be on a
/// changed line), else what a report shows (a file new since the base is
/// reported whole, as a full scan reports it).
fn keep(ctx: &Context, path: &Path) -> Keep {
    let some_lines = ctx
        .diff_base
        .as_ref()
        .is_some_and(|base| !base.every_line_changed(path));
    if ctx.baseline.is_some() || some_lines {
        Keep::Every
    } else {
        Keep::Shown
    }
}

/// The diagnostics for bytes the CLI made itself (a fix's result) or
/// re-reads for fixing: the pipeline's check, then [`finish`].
fn diagnose(
    ctx: &Context,
    path: &Path,
    bytes: &[u8],
    settings: &FileSettings,
    keep: Keep,
) -> Vec<Diagnostic> {
    let check_keep = match self::keep(ctx, path) {
        Keep::Every => Keep::Every,
        _ => keep,
    };
    let found = check(
        bytes,
        CheckOptions::new(path, &settings.policy).keeping(check_keep),
    );
    finish(ctx, path, bytes, settings, keep, found)
}

/// A file's diagnostics from the check's `found`: its name's first (U006),
/// then its bytes'; `keep` says whether the display cap and ceiling apply
/// (`Keep::Shown`) or every finding is kept for fixing (`Keep::Every`).
///
/// With a baseline, `found` holds every finding ([`keep`]), and those in
/// the baseline are left out (`--baseline`) or recorded
/// (`--write-baseline`).
fn finish(
    ctx: &Context,
    path: &Path,
    bytes: &[u8],
    settings: &FileSettings,
    keep: Keep,
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut diagnostics = name_check(path, settings);
    // Nearly always the name is fine: the findings as they are, not
    // copied after it.
    if diagnostics.is_empty() {
        diagnostics = found;
    } else {
        diagnostics.extend(found);
    }
    if ctx.baseline.is_none() && ctx.diff_base.is_none() {
        return diagnostics;
    }
    if let Some(baseline) = &ctx.baseline {
        let cwd = ctx.cwd.as_deref().unwrap_or(Path::new("/"));
        let key = baseline.key_path(cwd, path);
        baseline.apply(&key, bytes, &mut diagnostics, keep == Keep::Shown);
    }
    if let Some(base) = &ctx.diff_base {
        base.keep_changed(path, bytes, &mut diagnostics);
    }
    // The display cap, unless the check applied it itself (a file every
    // line of which changed since `--diff-base`: capped as in a scan).
    if keep == Keep::Shown && self::keep(ctx, path) == Keep::Every {
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
            ))
            .standing_for(count),
        );
    }
}

/// The fixes `mode` applies to a file whose shown findings are `shown`,
/// through the fix gate: planned from every finding, not only the shown
/// ones (the display cap and ceiling never limit what `--fix` and `--diff`
/// do), applied and checked in memory. `None` when there is nothing to
/// fix; a file without findings is not looked at again.
fn plan_every(
    ctx: &Context,
    path: &Path,
    bytes: &[u8],
    settings: &FileSettings,
    shown: &[Diagnostic],
    mode: FixMode,
) -> Result<Option<gate::Fixed>, gate::Refusal> {
    if shown.is_empty() {
        return Ok(None);
    }
    let select = mode.select();
    let baseline_key = ctx.baseline.as_ref().map(|baseline| {
        let cwd = ctx.cwd.as_deref().unwrap_or(Path::new("/"));
        (baseline, baseline.key_path(cwd, path))
    });
    // A baseline's known findings are not fixed (nor counted again), nor
    // under `--diff-base` those on lines that did not change.
    let leave_known = |bytes: &[u8], found: &mut Vec<Diagnostic>| {
        if let Some((baseline, key)) = &baseline_key {
            baseline.apply(key, bytes, found, false);
        }
        if let Some(base) = &ctx.diff_base {
            base.keep_changed(path, bytes, found);
        }
    };
    let request = gate::Request {
        path,
        policy: &settings.policy,
        select: &select,
        allow_binary: !settings.skip_binary,
        filter: (baseline_key.is_some() || ctx.diff_base.is_some())
            .then_some(&leave_known as gate::Filter<'_>),
    };
    let fixed = gate::fix(bytes, &request)?;
    Ok((!fixed.is_empty()).then_some(fixed))
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

/// What the check found in one file's bytes.
struct Found<'a> {
    bytes: &'a [u8],
    settings: &'a FileSettings,
    diagnostics: Vec<Diagnostic>,
}

/// Reports (and under `--diff` or `--fix`, fixes) a checked file; `stamp`
/// when it is a regular file a fix may replace.
fn report_checked(
    ctx: &Context,
    report: &mut FileReport,
    name: &LazyName<'_>,
    found: Found<'_>,
    stamp: Option<Stamp>,
) {
    let path = name.path;
    let Found {
        bytes,
        settings,
        diagnostics,
    } = found;
    report.tally.files += 1;
    report.tally.bytes += bytes.len() as u64;
    let diagnostics = finish(ctx, path, bytes, settings, Keep::Shown, diagnostics);
    let subject = || Subject::Path(path.to_owned());
    let refused = |report: &mut FileReport, why: gate::Refusal| {
        let t = Trouble::new(subject(), Kind::FixRefused, why.to_string());
        trouble(ctx, report, t);
    };
    match ctx.fix {
        FixAction::None => emit(ctx, report, name, bytes, &diagnostics),
        FixAction::Diff(mode) => {
            match plan_every(ctx, path, bytes, settings, &diagnostics, mode) {
                Ok(Some(fixed)) => {
                    report.raw = crate::diff::unified(&name.get().key, bytes, &[&fixed.fix]);
                    if !report.raw.is_empty() {
                        ctx.stats.diffs.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Ok(None) => {}
                Err(why) => refused(report, why),
            }
            count(ctx, &diagnostics);
        }
        FixAction::Write(mode) => {
            let fixed = match plan_every(ctx, path, bytes, settings, &diagnostics, mode) {
                Ok(Some(fixed)) => fixed,
                Ok(None) => return emit(ctx, report, name, bytes, &diagnostics),
                Err(why) => {
                    refused(report, why);
                    return emit(ctx, report, name, bytes, &diagnostics);
                }
            };
            let Some(stamp) = stamp else {
                return emit(ctx, report, name, bytes, &diagnostics);
            };
            match fix::write_fixed(path, &stamp, &fixed.bytes) {
                Ok(()) => {
                    ctx.stats
                        .fixed_findings
                        .fetch_add(fixed.findings as u64, Ordering::Relaxed);
                    ctx.stats.fixed_files.fetch_add(1, Ordering::Relaxed);
                    drop(fixed);
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

/// Adds a file's findings to the run's counts: every one, those the
/// display cap left out included (a note counts for the findings it
/// stands for).
fn count(ctx: &Context, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        ctx.stats.by_rule.add(d);
        match d.level {
            Level::Deny => ctx.stats.errors.fetch_add(d.count(), Ordering::Relaxed),
            Level::Warn => ctx.stats.warnings.fetch_add(d.count(), Ordering::Relaxed),
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
    let mut rendered = output::Rendered {
        text: std::mem::take(&mut report.stdout),
        ..output::Rendered::default()
    };
    output::render_file(
        &ctx.output,
        &FileName {
            display: &names.display,
            exact: names.exact.as_deref().unwrap_or(&names.display),
            uri: &names.uri,
        },
        bytes,
        diagnostics,
        &mut rendered,
    );
    report.stdout = rendered.text;
    report.sarif.extend(rendered.sarif_results);
    report.sarif_notes.extend(rendered.sarif_notes);
}
