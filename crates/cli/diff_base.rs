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
//! REV is any commit or tree (`REV^{tree}` is what is compared). Against
//! the empty tree every file is new: git is asked nothing more when the
//! walk's ignore rules (git's among them) already decide every file the
//! run checks, and otherwise only which files it tracks or would track.
//! Against any other tree git names the files added (every line changed,
//! never printed whole), then gives the diff of the others with every
//! setting that changes its shape pinned (`--no-ext-diff`, `--no-textconv`,
//! `--no-color`, the `a/` and `b/` prefixes, paths from the top, names
//! unquoted where git allows), and its C-quoted names are read back byte
//! for byte (`patch.rs`).

mod patch;

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};
use memchr::memchr_iter;
use utf8lint_diagnostics::{Diagnostic, Rule, escape_shown};

use self::patch::FileChange;

/// The empty tree's id, SHA-1 and SHA-256: a base with no file.
const EMPTY_TREES: [&str; 2] = [
    "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
];

/// What every file new since the base is.
static EVERY_LINE: FileChange = FileChange {
    lines: Vec::new(),
    every_line: true,
};

/// The changes since a revision, by path relative to the repository's top.
#[derive(Debug)]
pub(crate) struct DiffBase {
    /// What the user named, for messages.
    pub rev: String,
    /// The repository's top directory, as git gives it.
    top: PathBuf,
    /// The working directory relative to `top` (`src/`, or empty).
    prefix: Vec<u8>,
    changes: Changes,
}

#[derive(Debug)]
enum Changes {
    /// The base's tree is empty and every file the run checks passed
    /// git's ignore rules: each file in the repository is new.
    Everything,
    /// The changed files by path relative to the top, `/` between
    /// components; a path not listed did not change.
    Listed(HashMap<Vec<u8>, FileChange>),
}

/// What the run checks, as far as `--diff-base` needs to know it: the
/// paths named and whether the walk honours ignore files.
pub(crate) struct Scope<'a> {
    pub paths: &'a [PathBuf],
    pub no_ignore: bool,
}

impl Scope<'_> {
    /// Whether every file the run checks is one the walk found under
    /// git's ignore rules: ignore files honoured, and each named path a
    /// directory that holds `top` (a named file, or a named directory
    /// inside the repository, may be one git ignores).
    fn walk_ignores_as_git_does(&self, cwd: &Path, top: &Path) -> bool {
        !self.no_ignore
            && self.paths.iter().all(|path| {
                std::fs::canonicalize(cwd.join(path))
                    .is_ok_and(|dir| dir.is_dir() && top.starts_with(&dir))
            })
    }
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
        scope: &Scope<'_>,
    ) -> anyhow::Result<Option<DiffBase>> {
        let Some(rev) = rev else { return Ok(None) };
        if reads_stdin {
            bail!("--diff-base compares files with git; standard input is not one of them");
        }
        let cwd = cwd.context("--diff-base needs the working directory, which cannot be read")?;
        DiffBase::read(rev, cwd, scope).map(Some)
    }

    /// Asks git, run in `cwd`, what changed since `rev`. Fails with a
    /// sentence when git is missing, `cwd` is not in a repository or `rev`
    /// names no commit or tree.
    pub(crate) fn read(rev: &str, cwd: &Path, scope: &Scope<'_>) -> anyhow::Result<DiffBase> {
        if rev.is_empty() || rev.starts_with('-') {
            bail!(
                "--diff-base {}: not a revision (a branch, tag or commit, such as origin/main)",
                escape_shown(rev)
            );
        }
        let (top, prefix, tree) = locate(rev, cwd)?;
        let changes = if !EMPTY_TREES.contains(&tree.as_str()) {
            Changes::Listed(changes_since(&top, &tree)?)
        } else if scope.walk_ignores_as_git_does(cwd, &top) {
            Changes::Everything
        } else {
            // Every file git tracks or would track is new; an ignored one
            // (named, or walked under `--no-ignore`) did not change.
            let tracked = git(
                &top,
                [
                    "ls-files",
                    "-z",
                    "--cached",
                    "--others",
                    "--exclude-standard",
                ],
            )
            .context("listing the files")?;
            let mut files = HashMap::new();
            every_line_of_each(&tracked, &mut files);
            Changes::Listed(files)
        };
        Ok(DiffBase {
            rev: rev.to_owned(),
            top,
            prefix,
            changes,
        })
    }

    fn change(&self, path: &Path) -> Option<&FileChange> {
        match &self.changes {
            Changes::Everything => self.within_top(path).then_some(&EVERY_LINE),
            Changes::Listed(files) => files.get(&self.key(path)?),
        }
    }

    /// Whether `path` is inside the repository: a relative path that
    /// never climbs is, as the working directory is. (Its bytes are
    /// looked at, not its components: this is asked for every file.)
    fn within_top(&self, path: &Path) -> bool {
        let bytes = path.as_os_str().as_encoded_bytes();
        let climbs = || {
            memchr_iter(b'.', bytes).any(|i| bytes.get(i + 1) == Some(&b'.'))
                && bytes
                    .split(|&b| std::path::is_separator(char::from(b)))
                    .any(|part| part == b"..")
        };
        (path.is_relative() && !climbs()) || self.key(path).is_some()
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
        self.plain_key(path)
            .or_else(|| self.key_of_components(path))
    }

    /// [`Self::key`], component by component.
    fn key_of_components(&self, path: &Path) -> Option<Vec<u8>> {
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

    /// The key of a path as the walk names one (`./a/b`, `a/b`: relative,
    /// no `.`, `..` or empty component but a leading `./`) from its bytes,
    /// as [`Self::key`] would give it: asked for every file walked.
    fn plain_key(&self, path: &Path) -> Option<Vec<u8>> {
        if !cfg!(unix) || path.is_absolute() {
            return None;
        }
        let bytes = path.as_os_str().as_encoded_bytes();
        let rest = bytes.strip_prefix(b"./").unwrap_or(bytes);
        let plain = rest
            .split(|&b| b == b'/')
            .all(|part| !part.is_empty() && part != b"." && part != b"..");
        // The prefix is empty or ends with `/`.
        plain.then(|| [self.prefix.as_slice(), rest].concat())
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

/// The repository's top, the working directory relative to it, and the
/// id of the tree `rev` names: one `git rev-parse`.
fn locate(rev: &str, cwd: &Path) -> anyhow::Result<(PathBuf, Vec<u8>, String)> {
    let spec = format!("{rev}^{{tree}}");
    let asked = [
        "rev-parse",
        "--show-toplevel",
        "--show-prefix",
        "--verify",
        "--quiet",
        "--end-of-options",
        spec.as_str(),
    ];
    let output = run_git(cwd, asked)
        .map_err(|why| anyhow::anyhow!("--diff-base needs a git repository: {why}"))?;
    let mut lines = output.stdout.split(|&b| b == b'\n');
    let top = lines.next().unwrap_or_default();
    // Outside a repository git prints no top; with one, a revision it
    // cannot resolve ends the answer after the prefix.
    if top.is_empty() {
        bail!(
            "--diff-base needs a git repository: {}",
            what_git_said(&output.stderr)
        );
    }
    let prefix = lines.next().unwrap_or_default().to_vec();
    let tree = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    if !output.status.success() || tree.is_empty() {
        bail!(
            "--diff-base {}: git knows no commit by that name (in a shallow CI checkout, fetch it first, e.g. `git fetch origin main`, or check out with the full history)",
            escape_shown(rev)
        );
    }
    Ok((PathBuf::from(os_str(top)), prefix, tree))
}

/// The files changed between `tree` and the working tree of the
/// repository at `top`: three questions, asked at once, since each git
/// stats or walks the whole tree, which is most of what `--diff-base` adds
/// to a scan.
fn changes_since(top: &Path, tree: &str) -> anyhow::Result<HashMap<Vec<u8>, FileChange>> {
    let (added, diff, untracked) = std::thread::scope(|s| {
        // Added files are every line changed: named only, not printed
        // whole (a branch that adds a tree would make git print all of it).
        let added = s.spawn(|| {
            let asked = "diff --name-only -z --no-relative -M --diff-filter=A";
            git(top, asked.split_whitespace().chain([tree, "--"]))
                .context("listing the files added")
        });
        // The rest, but for deletions, with their changed lines.
        let diff = s.spawn(|| {
            let asked = "-c core.quotePath=false diff --no-ext-diff --no-textconv --no-color \
                --no-relative --unified=0 -M --diff-filter=ad --src-prefix=a/ --dst-prefix=b/";
            git(top, asked.split_whitespace().chain([tree, "--"])).context("reading git's diff")
        });
        let untracked = s.spawn(|| {
            git(top, ["ls-files", "-z", "--others", "--exclude-standard"])
                .context("listing untracked files")
        });
        let answer = |h: std::thread::ScopedJoinHandle<'_, anyhow::Result<Vec<u8>>>| {
            h.join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("asking git failed")))
        };
        (answer(added), answer(diff), answer(untracked))
    });
    let (added, diff, untracked) = (added?, diff?, untracked?);
    let mut files = HashMap::new();
    patch::read_patch(&diff, &mut files);
    every_line_of_each(&added, &mut files);
    every_line_of_each(&untracked, &mut files);
    Ok(files)
}

/// Marks every file of `names` (git's `-z` list) changed on every line.
fn every_line_of_each(names: &[u8], files: &mut HashMap<Vec<u8>, FileChange>) {
    for name in names.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        files.entry(name.to_vec()).or_default().every_line = true;
    }
}

/// Runs git in `dir`, not interactively: what it did, or why it could not
/// be run.
fn run_git<'a>(
    dir: &Path,
    args: impl IntoIterator<Item = &'a str>,
) -> anyhow::Result<std::process::Output> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        // Never a pager or a prompt: the run is not interactive.
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(std::process::Stdio::null())
        .output();
    match output {
        Ok(output) => Ok(output),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("git is not installed (or not on PATH)")
        }
        Err(e) => Err(e).context("cannot run git"),
    }
}

/// `git says: ...`, the first line of git's standard error.
fn what_git_said(stderr: &[u8]) -> String {
    let said = String::from_utf8_lossy(stderr);
    let said = said.lines().next().unwrap_or("").trim();
    format!("git says: {}", escape_shown(said))
}

/// Runs git in `dir`; its standard output, or a sentence with what it said.
fn git<'a>(dir: &Path, args: impl IntoIterator<Item = &'a str>) -> anyhow::Result<Vec<u8>> {
    let output = run_git(dir, args)?;
    if !output.status.success() {
        bail!("{}", what_git_said(&output.stderr));
    }
    let mut out = output.stdout;
    if out.ends_with(b"\n") {
        out.pop();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walked_path_s_key_is_its_bytes_after_the_prefix() {
        let base = DiffBase {
            rev: "main".into(),
            top: PathBuf::from("/repo"),
            prefix: b"sub/".to_vec(),
            changes: Changes::Listed(HashMap::new()),
        };
        for path in ["./a/b.txt", "a/b.txt", "a", "./.hidden/x"] {
            let path = Path::new(path);
            assert!(base.plain_key(path).is_some(), "{}", path.display());
            assert_eq!(base.plain_key(path), base.key_of_components(path));
        }
        for path in ["a//b", "./a/./b", "../x", "a/..", "/repo/sub/a", "a/"] {
            assert_eq!(base.plain_key(Path::new(path)), None, "{path}");
        }
        assert_eq!(base.key(Path::new("../x/./y")), Some(b"x/y".to_vec()));
        assert_eq!(base.key(Path::new("/repo/sub/a")), Some(b"sub/a".to_vec()));
        assert_eq!(base.key(Path::new("../../x")), None);
        assert!(base.within_top(Path::new("./a")) && !base.within_top(Path::new("../../x")));
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
