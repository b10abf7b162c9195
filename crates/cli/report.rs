//! Output for big repositories: counts per rule (`RuleCounts`,
//! kept in `check::Stats` for every run, for the summary's by-rule line),
//! counts per file (`FileCounts`, kept only for `--statistics`), their
//! human and JSON tables, and the report's destination (standard output,
//! or `--output-file`, replaced through the workspace's writer at the end).

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;
use serde_json::json;
use utf8lint_diagnostics::{Applicability, Diagnostic, Level, Rule};

use crate::output::names::display_path;
use crate::spool::Spool;

/// Findings per rule, added to by every worker (findings are rare next to
/// files, so one shared counter per rule costs nothing measurable).
pub(crate) struct RuleCounts {
    errors: Box<[AtomicU64]>,
    warnings: Box<[AtomicU64]>,
    fixable: Box<[AtomicU64]>,
}

impl Default for RuleCounts {
    fn default() -> Self {
        let zeros = || Rule::ALL.iter().map(|_| AtomicU64::new(0)).collect();
        RuleCounts {
            errors: zeros(),
            warnings: zeros(),
            fixable: zeros(),
        }
    }
}

impl RuleCounts {
    pub(crate) fn add(&self, d: &Diagnostic) {
        let i = d.rule.index();
        match d.level {
            Level::Deny => self.errors[i].fetch_add(d.count(), Ordering::Relaxed),
            Level::Warn => self.warnings[i].fetch_add(d.count(), Ordering::Relaxed),
            Level::Allow => return,
        };
        if is_fixable(d) {
            self.fixable[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The rules with findings, most findings first (then by code).
    fn rows(&self) -> Vec<RuleRow> {
        let mut rows: Vec<RuleRow> = Rule::ALL
            .iter()
            .map(|&rule| {
                let i = rule.index();
                RuleRow {
                    rule,
                    errors: self.errors[i].load(Ordering::Relaxed),
                    warnings: self.warnings[i].load(Ordering::Relaxed),
                    fixable: self.fixable[i].load(Ordering::Relaxed),
                }
            })
            .filter(|r| r.total() > 0)
            .collect();
        rows.sort_by(|a, b| {
            b.total()
                .cmp(&a.total())
                .then(a.rule.index().cmp(&b.rule.index()))
        });
        rows
    }
}

/// Whether `--fix` alone would apply the finding's fix.
fn is_fixable(d: &Diagnostic) -> bool {
    d.fix
        .as_ref()
        .is_some_and(|f| f.applicability() == Applicability::Safe)
}

struct RuleRow {
    rule: Rule,
    errors: u64,
    warnings: u64,
    fixable: u64,
}

impl RuleRow {
    fn total(&self) -> u64 {
        self.errors + self.warnings
    }
}

/// One file's counts for `--statistics`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FileCounts {
    pub errors: u64,
    pub warnings: u64,
}

impl FileCounts {
    pub(crate) fn of(diagnostics: &[Diagnostic]) -> FileCounts {
        let mut counts = FileCounts::default();
        for d in diagnostics {
            match d.level {
                Level::Deny => counts.errors += d.count(),
                Level::Warn => counts.warnings += d.count(),
                Level::Allow => {}
            }
        }
        counts
    }

    fn total(&self) -> u64 {
        self.errors + self.warnings
    }
}

/// A file's row: its name as shown (escaped), its exact name for JSON.
pub(crate) struct FileRow {
    display: String,
    exact: String,
    counts: FileCounts,
}

impl FileRow {
    /// The row of the file whose displayed path's bytes are `key`: shown
    /// escaped, and exact in JSON when it is UTF-8 (the serializer escapes
    /// what JSON needs), as the findings' own `path` is.
    pub(crate) fn new(key: &[u8], counts: FileCounts) -> FileRow {
        let display = utf8lint_diagnostics::escape_lossless(key);
        let exact = std::str::from_utf8(key).map_or_else(|_| display.clone(), str::to_owned);
        FileRow {
            display,
            exact,
            counts,
        }
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

fn errors_and_warnings(errors: u64, warnings: u64) -> String {
    match (errors, warnings) {
        (e, 0) => format!("{e} {}", plural(e, "error", "errors")),
        (0, w) => format!("{w} {}", plural(w, "warning", "warnings")),
        (e, w) => format!(
            "{e} {}, {w} {}",
            plural(e, "error", "errors"),
            plural(w, "warning", "warnings")
        ),
    }
}

/// The summary's second line: `utf8lint: by rule: 3 U001 invalid_utf8 (3
/// errors), 1 U002 stray_feff (1 warning)`, most first; `None` when clean.
pub(crate) fn by_rule_line(counts: &RuleCounts) -> Option<String> {
    let rows = counts.rows();
    if rows.is_empty() {
        return None;
    }
    let parts: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} ({})",
                r.total(),
                r.rule.code(),
                r.rule.name(),
                errors_and_warnings(r.errors, r.warnings)
            )
        })
        .collect();
    Some(format!("utf8lint: by rule: {}", parts.join(", ")))
}

/// Files with the most findings first, then by name (bytes).
fn sort_files(files: &mut [FileRow]) {
    files.sort_by(|a, b| {
        b.counts
            .total()
            .cmp(&a.counts.total())
            .then_with(|| a.exact.cmp(&b.exact))
    });
}

/// `--statistics` for people: one table per rule, then one per file.
pub(crate) fn statistics_human(counts: &RuleCounts, mut files: Vec<FileRow>) -> String {
    let rows = counts.rows();
    sort_files(&mut files);
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    let count_width = rows
        .iter()
        .map(|r| r.total().to_string().len())
        .chain(files.iter().map(|f| f.counts.total().to_string().len()))
        .max()
        .unwrap_or(1);
    let name_width = rows.iter().map(|r| r.rule.name().len()).max().unwrap_or(0);
    out.push_str("findings per rule:\n");
    for r in &rows {
        let fixable = if r.fixable > 0 {
            format!(", {} fixable with --fix", r.fixable)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:>count_width$}  {}  {:<name_width$}  {}{fixable}\n",
            r.total(),
            r.rule.code(),
            r.rule.name(),
            errors_and_warnings(r.errors, r.warnings),
        ));
    }
    out.push_str("\nfindings per file:\n");
    for f in files.iter().filter(|f| f.counts.total() > 0) {
        out.push_str(&format!(
            "{:>count_width$}  {}  ({})\n",
            f.counts.total(),
            f.display,
            errors_and_warnings(f.counts.errors, f.counts.warnings)
        ));
    }
    out
}

/// `--statistics --format json`: one JSON document.
pub(crate) fn statistics_json(counts: &RuleCounts, mut files: Vec<FileRow>) -> String {
    sort_files(&mut files);
    let rules: Vec<serde_json::Value> = counts
        .rows()
        .iter()
        .map(|r| {
            json!({
                "code": r.rule.code(),
                "rule": r.rule.name(),
                "count": r.total(),
                "errors": r.errors,
                "warnings": r.warnings,
                "fixable": r.fixable,
            })
        })
        .collect();
    let files: Vec<serde_json::Value> = files
        .iter()
        .filter(|f| f.counts.total() > 0)
        .map(|f| {
            json!({
                "path": f.exact,
                "count": f.counts.total(),
                "errors": f.counts.errors,
                "warnings": f.counts.warnings,
            })
        })
        .collect();
    let text =
        serde_json::to_string_pretty(&json!({"rules": rules, "files": files})).unwrap_or_default();
    // The files' names as they are, with what a terminal or viewer obeys
    // escaped, as in the findings' JSON.
    let mut text = crate::output::json::escape_more(&text).into_owned();
    text.push('\n');
    text
}

/// Where the report goes: standard output as it is produced, or a
/// temporary file copied into `--output-file`'s replacement once the run
/// completes (never half a report, and memory one buffer). The spool is
/// anonymous, not the replacement's own temporary file beside the output:
/// a file appearing in a checked directory mid-run could be walked.
pub(crate) enum Sink {
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
    File { path: PathBuf, report: Spool },
}

impl Sink {
    pub(crate) fn new(output_file: Option<&Path>) -> Sink {
        match output_file {
            Some(path) => Sink::File {
                path: path.to_owned(),
                report: Spool::default(),
            },
            None => Sink::Stdout(io::BufWriter::with_capacity(64 * 1024, io::stdout().lock())),
        }
    }

    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(out) => out,
            Sink::File { report, .. } => report,
        }
    }

    /// Flushes standard output, or replaces the file with the report.
    pub(crate) fn finish(self) -> anyhow::Result<()> {
        match self {
            Sink::Stdout(mut out) => Ok(out.flush()?),
            Sink::File { path, report } => {
                let shown = display_path(&path).0;
                utf8lint_workspace::write_whole_file(&path, |w| report.copy_to(w))
                    .map_err(|e| anyhow::anyhow!("{e}"))
                    .with_context(|| format!("cannot write the report to {shown}"))
            }
        }
    }
}

/// A file's identity: its device and inode.
pub(crate) type FileId = (u64, u64);

/// Files by identity, asked by inode first: a directory listing gives an
/// entry's inode without a `stat`, so a walked file that is none of them
/// costs no system call. Files named on the command line are also known
/// by their paths made absolute: a fix gives a named file a new inode
/// before the walk meets it.
#[derive(Debug, Default)]
pub(crate) struct FileSet {
    inodes: HashSet<u64>,
    ids: HashSet<FileId>,
    /// Absolute and lexical (see [`FileSet::insert_named`]).
    paths: HashSet<PathBuf>,
    cwd: PathBuf,
}

impl FileSet {
    /// Adds `id`; false when it was there already.
    pub(crate) fn insert(&mut self, id: FileId) -> bool {
        self.inodes.insert(id.1);
        self.ids.insert(id)
    }

    /// Adds the file named `path` on the command line, whose identity is
    /// `id`; false when it was there already, by either.
    pub(crate) fn insert_named(&mut self, cwd: &Path, path: &Path, id: FileId) -> bool {
        self.cwd = cwd.to_owned();
        let new_path = self
            .paths
            .insert(utf8lint_workspace::lexical(&cwd.join(path)));
        self.insert(id) && new_path
    }

    /// Whether the walked `entry` is one of them.
    pub(crate) fn holds(&self, entry: &ignore::DirEntry) -> bool {
        #[cfg(unix)]
        let candidate = entry.ino().is_some_and(|ino| self.inodes.contains(&ino));
        #[cfg(not(unix))]
        let candidate = false;
        if candidate && file_id(entry.path()).is_some_and(|id| self.ids.contains(&id)) {
            return true;
        }
        !self.paths.is_empty()
            && self
                .paths
                .contains(&utf8lint_workspace::lexical(&self.cwd.join(entry.path())))
    }
}

/// The identity of the file at `path`, following symbolic links; `None`
/// when there is none (or elsewhere than Unix).
pub(crate) fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Whether `a` and `b` are one file: by their paths made absolute, or by
/// device and inode (another name for it: a symbolic link, a hard link,
/// `./x`).
fn same_file(a: &Path, b: &Path) -> bool {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    absolute(a) == absolute(b) || file_id(a).is_some_and(|id| file_id(b) == Some(id))
}

/// Refuses an output (`flag` names it: `--output-file`, `--write-baseline`)
/// that is also a file named to be checked (`inputs`): writing it would
/// replace that file.
pub(crate) fn refuse_named_input(
    flag: &str,
    output: &Path,
    inputs: &[PathBuf],
) -> anyhow::Result<()> {
    let shown = display_path(output).0;
    for input in inputs.iter().filter(|p| p.as_os_str() != "-") {
        if same_file(output, input) {
            anyhow::bail!(
                "{flag} {shown} is also a file to check ({}): writing it would replace that file; write it elsewhere",
                display_path(input).0
            );
        }
    }
    Ok(())
}

/// Refuses an `--output-file` that is also something the run reads or
/// writes: a file named to be checked (`inputs`), or another file of the
/// run (`others`: the baseline), by its path or its identity
/// ([`same_file`]). Asked before anything is read or written, so a refusal
/// loses nothing. Returns the output file's identity when it exists, for
/// the walk to leave it out (it is the report, not an input).
pub(crate) fn refuse_clobber(
    output: &Path,
    inputs: &[PathBuf],
    others: &[(&str, &Path)],
) -> anyhow::Result<Option<FileId>> {
    refuse_named_input("--output-file", output, inputs)?;
    let shown = display_path(output).0;
    for (what, other) in others {
        if same_file(output, other) {
            anyhow::bail!(
                "--output-file {shown} is also the {what} ({}): write the report elsewhere",
                display_path(other).0
            );
        }
    }
    Ok(file_id(output))
}
