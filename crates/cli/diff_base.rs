//! `--diff-base REV`: which lines of which files changed since REV, as git
//! says it, so that a check reports only findings on those lines (and the
//! findings about a changed file as a whole).
//!
//! The new side is the working tree: `git diff REV` compares REV with the
//! files as they are now (staged and unstaged changes alike), which is what
//! a pre-commit hook and a CI job checking out a merge request both need.
//! Untracked files that no ignore rule leaves out count as new, every line
//! changed: a file about to be added is checked whole. Deleted files are
//! gone; a renamed file is its new path with its changed lines; a file git
//! calls binary (no line diff) counts as changed everywhere.
//!
//! Git names the files added (every line changed, never printed whole),
//! then gives the diff of the others with every setting that changes its
//! shape pinned (`--no-ext-diff`, `--no-textconv`, `--no-color`, the `a/` and
//! `b/` prefixes, paths from the top, names unquoted where git allows), and
//! its C-quoted names are read back byte for byte.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};
use memchr::memchr_iter;
use utf8lint_diagnostics::{Diagnostic, Rule, escape_shown};

/// The lines of one file that changed, 1-based, sorted, as half-open
/// ranges; or every line.
#[derive(Debug, Default, PartialEq, Eq)]
struct FileChange {
    lines: Vec<(usize, usize)>,
    every_line: bool,
}

impl FileChange {
    /// Whether any line from `first` to `last` (inclusive) changed.
    fn touches(&self, first: usize, last: usize) -> bool {
        if self.every_line {
            return true;
        }
        // The first range that ends after `first`.
        let i = self.lines.partition_point(|&(_, end)| end <= first);
        self.lines.get(i).is_some_and(|&(start, _)| start <= last)
    }
}

/// The changes since a revision, by path relative to the repository's top.
#[derive(Debug)]
pub(crate) struct DiffBase {
    /// What the user named, for messages.
    pub rev: String,
    /// The repository's top directory, as git gives it.
    top: PathBuf,
    /// The working directory relative to `top` (`src/`, or empty).
    prefix: Vec<u8>,
    files: HashMap<Vec<u8>, FileChange>,
}

/// Whether `rule` judges the file as a whole (its byte-order mark, its
/// encoding, its name, what it declares about its encoding), rather than
/// the line it points at: such a finding is reported for every changed
/// file, wherever the change is, since any edit can make it true.
fn about_the_whole_file(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::ForbiddenBom
            | Rule::MissingBom
            | Rule::NotUtf8
            | Rule::NonUtf8Path
            | Rule::CharsetMismatch
    )
}

impl DiffBase {
    /// `--diff-base`, when given: the changes, read before any file is.
    pub(crate) fn for_run(
        rev: Option<&str>,
        reads_stdin: bool,
        cwd: Option<&Path>,
    ) -> anyhow::Result<Option<DiffBase>> {
        let Some(rev) = rev else { return Ok(None) };
        if reads_stdin {
            bail!("--diff-base compares files with git; standard input is not one of them");
        }
        let cwd = cwd.context("--diff-base needs the working directory, which cannot be read")?;
        DiffBase::read(rev, cwd).map(Some)
    }

    /// Asks git, run in `cwd`, what changed since `rev`. Fails with a
    /// sentence when git is missing, `cwd` is not in a repository or `rev`
    /// names no commit.
    pub(crate) fn read(rev: &str, cwd: &Path) -> anyhow::Result<DiffBase> {
        if rev.is_empty() || rev.starts_with('-') {
            bail!(
                "--diff-base {}: not a revision (a branch, tag or commit, such as origin/main)",
                escape_shown(rev)
            );
        }
        let located = git(cwd, ["rev-parse", "--show-toplevel", "--show-prefix"])
            .map_err(|why| anyhow::anyhow!("--diff-base needs a git repository: {why}"))?;
        let mut lines = located.split(|&b| b == b'\n');
        let top = PathBuf::from(os_str(lines.next().unwrap_or_default()));
        let prefix = lines.next().unwrap_or_default().to_vec();
        let spec = format!("{rev}^{{commit}}");
        let commit = git(
            &top,
            [
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                spec.as_str(),
            ],
        )
        .map_err(|_| {
            anyhow::anyhow!(
                "--diff-base {}: git knows no commit by that name (in a shallow CI checkout, fetch it first, e.g. `git fetch origin main`, or check out with the full history)",
                escape_shown(rev)
            )
        })?;
        let commit = String::from_utf8_lossy(&commit).trim().to_owned();
        let commit = commit.as_str();
        // Three questions, asked at once: each git stats or walks the whole
        // tree, which is most of what `--diff-base` adds to a scan.
        let (added, diff, untracked) = std::thread::scope(|s| {
            // Added files are every line changed: named only, not printed
            // whole (a branch that adds a tree would make git print all of it).
            let added = s.spawn(|| {
                git(
                    &top,
                    [
                        "diff",
                        "--name-only",
                        "-z",
                        "--no-relative",
                        "-M",
                        "--diff-filter=A",
                        commit,
                        "--",
                    ],
                )
                .context("listing the files added")
            });
            // The rest, but for deletions, with their changed lines.
            let diff = s.spawn(|| {
                git(
                    &top,
                    [
                        "-c",
                        "core.quotePath=false",
                        "diff",
                        "--no-ext-diff",
                        "--no-textconv",
                        "--no-color",
                        "--no-relative",
                        "--unified=0",
                        "-M",
                        "--diff-filter=ad",
                        "--src-prefix=a/",
                        "--dst-prefix=b/",
                        commit,
                        "--",
                    ],
                )
                .context("reading git's diff")
            });
            let untracked = s.spawn(|| {
                git(&top, ["ls-files", "-z", "--others", "--exclude-standard"])
                    .context("listing untracked files")
            });
            let answer = |h: std::thread::ScopedJoinHandle<'_, anyhow::Result<Vec<u8>>>| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("asking git failed")))
            };
            (answer(added), answer(diff), answer(untracked))
        });
        let (added, diff, untracked) = (added?, diff?, untracked?);
        let mut files = parse_diff(&diff);
        for list in [added, untracked] {
            for name in list.split(|&b| b == 0).filter(|n| !n.is_empty()) {
                files.entry(name.to_vec()).or_default().every_line = true;
            }
        }
        Ok(DiffBase {
            rev: rev.to_owned(),
            top,
            prefix,
            files,
        })
    }

    fn change(&self, path: &Path) -> Option<&FileChange> {
        self.files.get(&self.key(path)?)
    }

    /// Whether the file at `path` (as the run names it) changed.
    pub(crate) fn changed(&self, path: &Path) -> bool {
        self.change(path).is_some()
    }

    /// Whether every line of the file at `path` counts as changed (added
    /// since the revision, untracked, binary): its findings are all
    /// reported, as a full scan reports them.
    pub(crate) fn every_line_changed(&self, path: &Path) -> bool {
        self.change(path).is_some_and(|c| c.every_line)
    }

    /// The path relative to the repository's top, `/` between components,
    /// as git names it; `None` for a path outside the repository.
    fn key(&self, path: &Path) -> Option<Vec<u8>> {
        let mut parts: Vec<&[u8]> = Vec::new();
        let relative;
        let path = if path.is_absolute() {
            relative = path
                .strip_prefix(&self.top)
                .ok()
                .map(Path::to_path_buf)
                .or_else(|| {
                    // The top as git gives it is resolved; the path may not be.
                    let real = std::fs::canonicalize(path.parent()?).ok()?;
                    Some(real.strip_prefix(&self.top).ok()?.join(path.file_name()?))
                })?;
            relative.as_path()
        } else {
            for part in self.prefix.split(|&b| b == b'/').filter(|p| !p.is_empty()) {
                parts.push(part);
            }
            path
        };
        for component in path.components() {
            match component {
                Component::Normal(name) => parts.push(name.as_encoded_bytes()),
                Component::ParentDir => {
                    parts.pop()?;
                }
                Component::CurDir => {}
                Component::RootDir | Component::Prefix(_) => return None,
            }
        }
        Some(parts.join(&b'/'))
    }

    /// Leaves in `diagnostics` (one file's, of `bytes` at `path`) only the
    /// findings on changed lines and those about the whole file; for a
    /// file that did not change, none.
    pub(crate) fn keep_changed(
        &self,
        path: &Path,
        bytes: &[u8],
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let Some(change) = self.change(path) else {
            diagnostics.clear();
            return;
        };
        if change.every_line {
            return;
        }
        let mut lines = LineCounter::new(bytes);
        diagnostics.retain(|d| {
            if about_the_whole_file(d.rule) {
                return true;
            }
            let first = lines.line_of(d.span.start);
            // The line of the last byte: a span ending at a line's `\n`
            // is on that line only.
            let last = lines.line_of(d.span.end.saturating_sub(1).max(d.span.start));
            change.touches(first, last)
        });
    }
}

/// Line numbers of offsets, counted from the last one asked (findings come
/// in byte order, so a file's lines are counted about once).
struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        LineCounter {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// The 1-based line holding byte `offset`.
    fn line_of(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.bytes.len());
        if offset < self.at {
            self.at = 0;
            self.line = 1;
        }
        self.line += memchr_iter(b'\n', &self.bytes[self.at..offset]).count();
        self.at = offset;
        self.line
    }
}

#[cfg(unix)]
fn os_str(bytes: &[u8]) -> &OsStr {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(bytes)
}

#[cfg(not(unix))]
fn os_str(bytes: &[u8]) -> &OsStr {
    OsStr::new(std::str::from_utf8(bytes).unwrap_or_default())
}

/// Runs git in `dir`; its standard output, or a sentence with what it said.
fn git<'a>(dir: &Path, args: impl IntoIterator<Item = &'a str>) -> anyhow::Result<Vec<u8>> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        // Never a pager or a prompt: the run is not interactive.
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(std::process::Stdio::null())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("git is not installed (or not on PATH)")
        }
        Err(e) => return Err(e).context("cannot run git"),
    };
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said.lines().next().unwrap_or("").trim();
        bail!("git says: {}", escape_shown(said));
    }
    let mut out = output.stdout;
    if out.ends_with(b"\n") {
        out.pop();
    }
    Ok(out)
}

/// Reads a name as git writes it: as it is, or in double quotes with C
/// escapes (`\t`, `\"`, `\\`, octal `\303`) when it holds such bytes.
/// Returns the name and what follows it.
fn unquote(text: &[u8]) -> (Vec<u8>, &[u8]) {
    let Some(rest) = text.strip_prefix(b"\"") else {
        return (text.to_vec(), &[]);
    };
    let mut out = Vec::with_capacity(rest.len());
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b'"' => return (out, &rest[i + 1..]),
            b'\\' if i + 1 < rest.len() => {
                let c = rest[i + 1];
                i += 2;
                let octal = |b: u8| (b'0'..=b'7').contains(&b);
                match c {
                    b'a' => out.push(0x07),
                    b'b' => out.push(0x08),
                    b't' => out.push(b'\t'),
                    b'n' => out.push(b'\n'),
                    b'v' => out.push(0x0B),
                    b'f' => out.push(0x0C),
                    b'r' => out.push(b'\r'),
                    c if octal(c)
                        && rest.get(i).copied().is_some_and(octal)
                        && rest.get(i + 1).copied().is_some_and(octal) =>
                    {
                        let value = [c, rest[i], rest[i + 1]]
                            .iter()
                            .fold(0u32, |v, &d| v * 8 + u32::from(d - b'0'));
                        out.push(value as u8);
                        i += 2;
                    }
                    other => out.push(other),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (out, &[])
}

/// The new path of a `diff --git a/X b/X` line when both sides name the
/// same file (a rename says its new name on a line of its own).
fn path_of_diff_line(rest: &[u8]) -> Option<Vec<u8>> {
    if rest.starts_with(b"\"") {
        let (_, after) = unquote(rest);
        let (new, _) = unquote(after.strip_prefix(b" ")?);
        return new.strip_prefix(b"b/").map(<[u8]>::to_vec);
    }
    if rest.len().is_multiple_of(2) {
        return None;
    }
    let half = rest.len() / 2;
    let (old, new) = (&rest[..half], &rest[half + 1..]);
    let (old, new) = (old.strip_prefix(b"a/")?, new.strip_prefix(b"b/")?);
    (old == new).then(|| new.to_vec())
}

/// The new side's first line and line count of a hunk header
/// `@@ -a[,b] +c[,d] @@`, with the old side's count.
fn hunk_header(line: &[u8]) -> Option<(usize, usize, usize)> {
    let text = std::str::from_utf8(line.strip_prefix(b"@@ -")?).ok()?;
    let (old, rest) = text.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let count = |side: &str| -> Option<(usize, usize)> {
        match side.split_once(',') {
            Some((start, n)) => Some((start.parse().ok()?, n.parse().ok()?)),
            None => Some((side.parse().ok()?, 1)),
        }
    };
    let (_, old_count) = count(old)?;
    let (start, new_count) = count(new)?;
    Some((start, new_count, old_count))
}

/// One file's entry of the diff, being read.
#[derive(Default)]
struct Entry {
    /// From `+++ b/...`, `rename to` or `copy to`.
    path: Option<Vec<u8>>,
    /// From the `diff --git` line.
    guessed: Option<Vec<u8>>,
    deleted: bool,
    change: FileChange,
}

fn finish(entry: Option<Entry>, files: &mut HashMap<Vec<u8>, FileChange>) {
    let Some(entry) = entry else { return };
    if entry.deleted {
        return;
    }
    if let Some(path) = entry.path.or(entry.guessed) {
        files.insert(path, entry.change);
    }
}

/// Reads `git diff --unified=0` output: each file's new path and the new
/// side's changed lines. Content lines are counted by the hunk headers, so
/// a removed line that reads `-- x` is never taken for a header.
fn parse_diff(diff: &[u8]) -> HashMap<Vec<u8>, FileChange> {
    let mut files = HashMap::new();
    let mut entry: Option<Entry> = None;
    // Lines of the current hunk still to come, old and new side.
    let mut left = (0usize, 0usize);
    for line in diff.split(|&b| b == b'\n') {
        if left != (0, 0) {
            match line.first() {
                Some(b'-') => left.0 = left.0.saturating_sub(1),
                Some(b'+') => left.1 = left.1.saturating_sub(1),
                Some(b' ') => {
                    left.0 = left.0.saturating_sub(1);
                    left.1 = left.1.saturating_sub(1);
                }
                _ => {}
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(b"diff --git ") {
            finish(entry.take(), &mut files);
            entry = Some(Entry {
                guessed: path_of_diff_line(rest),
                ..Entry::default()
            });
            continue;
        }
        let Some(current) = entry.as_mut() else {
            continue;
        };
        if line.starts_with(b"deleted file mode") || line == b"+++ /dev/null" {
            current.deleted = true;
        } else if let Some(name) = line
            .strip_prefix(b"rename to ")
            .or_else(|| line.strip_prefix(b"copy to "))
        {
            current.path = Some(unquote(name).0);
        } else if let Some(name) = line.strip_prefix(b"+++ ") {
            let (name, _) = unquote(name);
            if let Some(name) = name.strip_prefix(b"b/") {
                current.path = Some(name.to_vec());
            }
        } else if line.starts_with(b"Binary files ") {
            current.change.every_line = true;
        } else if let Some((start, count, old_count)) = hunk_header(line) {
            if count > 0 {
                current.change.lines.push((start, start + count));
            }
            left = (old_count, count);
        }
    }
    finish(entry, &mut files);
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_give_the_new_side_s_lines() {
        let diff = b"diff --git a/src/a.txt b/src/a.txt\nindex 1..2 100644\n--- a/src/a.txt\n+++ b/src/a.txt\n@@ -3 +3 @@\n-old\n+new\n@@ -10,0 +11,2 @@\n+x\n+--- y\n@@ -20,2 +22,0 @@\n--- z\n-w\n";
        let files = parse_diff(diff);
        let change = &files[&b"src/a.txt".to_vec()];
        assert_eq!(change.lines, [(3, 4), (11, 13)]);
        assert!(change.touches(3, 3) && change.touches(12, 12) && change.touches(1, 3));
        assert!(!change.touches(4, 10) && !change.touches(13, 30));
    }

    #[test]
    fn renames_deletions_binaries_and_quoted_names() {
        let diff = b"diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex 1..0\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\ndiff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\ndiff --git \"a/tab\\there\" \"b/tab\\there\"\nindex 1..2 100644\n--- \"a/tab\\there\"\n+++ \"b/tab\\there\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/caf\xC3\xA9 b/caf\xC3\xA9\nnew file mode 100644\n--- /dev/null\n+++ b/caf\xC3\xA9\n@@ -0,0 +1 @@\n+x\n";
        let files = parse_diff(diff);
        assert_eq!(files[&b"new.txt".to_vec()], FileChange::default());
        assert!(!files.contains_key(b"gone.txt".as_slice()));
        assert!(files[&b"img.png".to_vec()].every_line);
        assert_eq!(files[&b"tab\there".to_vec()].lines, [(1, 2)]);
        assert_eq!(files[&b"caf\xC3\xA9".to_vec()].lines, [(1, 2)]);
        assert_eq!(files.len(), 4);
    }

    #[test]
    fn git_quoting_reads_back() {
        assert_eq!(
            unquote(b"\"b/caf\\303\\251\\t\\\"\\\\.txt\" rest").0,
            b"b/caf\xC3\xA9\t\"\\.txt"
        );
        assert_eq!(unquote(b"plain name").0, b"plain name");
        assert_eq!(path_of_diff_line(b"a/x y b/x y"), Some(b"x y".to_vec()));
        assert_eq!(path_of_diff_line(b"a/x b/y"), None);
    }

    #[test]
    fn lines_are_counted_once_in_order() {
        let mut lines = LineCounter::new(b"a\nb\nc\n");
        assert_eq!(lines.line_of(0), 1);
        assert_eq!(lines.line_of(2), 2);
        assert_eq!(lines.line_of(5), 3);
        assert_eq!(lines.line_of(1), 1);
    }
}
