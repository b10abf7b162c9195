//! Baselines: `--write-baseline FILE` records the findings of today;
//! `--baseline FILE` then reports only findings that are not in it, so a
//! legacy repository can adopt utf8lint and fail only on new defects.
//!
//! A finding's key is: its path (relative to the baseline file's
//! directory), its rule's code, a hash of its bytes and of its line's bytes
//! around it, and its occurrence index among the findings of that file with
//! the same path, rule and hash, in file order. No line or column is in it:
//! an edit elsewhere in the file (a line added above, another line changed)
//! leaves every other key as it was. Editing a finding's own line, or
//! renaming its file, makes it new. The bytes hashed are bounded
//! ([`CONTEXT_BYTES`] either side of the span, at most [`CONTEXT_BYTES`] of
//! the span), so a finding on a 100 MB line costs no more to key than one
//! on a short line, and an edit far along such a line does not change it.

use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, anyhow, bail};
use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, escape_lossless};
use utf8lint_workspace::{ReadOptions, read_file, whole_file_target, write_whole_file};

/// How much of a finding's line, either side of its span, goes into its
/// key (and at most this much of the span itself).
pub(crate) const CONTEXT_BYTES: usize = 256;

/// The format's version, written as the value of `utf8lint-baseline`.
const VERSION: u64 = 1;

/// One finding's key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Key {
    pub path: String,
    pub rule: &'static str,
    pub hash: u64,
    pub occurrence: usize,
}

/// A baseline being read or written by a run.
pub(crate) struct Baseline {
    /// The directory paths are relative to (the baseline file's).
    base: PathBuf,
    /// `--baseline`: the keys read.
    known: HashSet<Key>,
    /// The known keys some finding of this run matched (a set, so that a
    /// file looked at twice, before and after a fix, counts once).
    matched: Mutex<HashSet<Key>>,
    /// The key paths of the files checked (`--baseline`).
    checked: Mutex<HashSet<String>>,
    /// `--write-baseline`: the keys found, with each finding's message.
    found: Mutex<Vec<(Key, String)>>,
    /// `--write-baseline`: findings are recorded, not reported.
    writing: bool,
}

/// FNV-1a, 64 bits: stable across versions and platforms (the standard
/// library's hasher is not), and plenty for telling a file's findings apart.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that moving a byte from one part to the next
        // changes the hash.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The hash of a finding at `span` in `bytes`: the span (at most
/// [`CONTEXT_BYTES`] of it) and its line's bytes around it (at most
/// [`CONTEXT_BYTES`] either side).
fn finding_hash(bytes: &[u8], d: &Diagnostic) -> u64 {
    let start = d.span.start.min(bytes.len());
    let end = d.span.end.clamp(start, bytes.len());
    let span = &bytes[start..end.min(start + CONTEXT_BYTES)];
    let from = start.saturating_sub(CONTEXT_BYTES);
    let before = &bytes[from..start];
    let before = match memchr_last_newline(before) {
        Some(nl) => &before[nl + 1..],
        None => before,
    };
    let after = &bytes[end..bytes.len().min(end + CONTEXT_BYTES)];
    let after = match after.iter().position(|&b| b == b'\n') {
        Some(nl) => &after[..nl],
        None => after,
    };
    fnv1a(&[d.rule.code().as_bytes(), span, before, after])
}

fn memchr_last_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().rposition(|&b| b == b'\n')
}

/// The largest baseline read: 256 MiB of JSON, about 1.5 million
/// findings. A larger file (or `/dev/zero`, which is refused anyway as not
/// a regular file) is an error, not the end of memory.
pub(crate) const MAX_BASELINE_LEN: u64 = 256 << 20;

/// The baseline `file` as JSON, read by the workspace layer's rules: a
/// regular file only (a FIFO or device is refused, never waited on or read
/// without end), at most [`MAX_BASELINE_LEN`] bytes. A UTF-8 byte-order mark
/// (an editor on Windows saves one) is passed over.
fn read_json(file: &Path, shown: &str) -> anyhow::Result<Value> {
    let bytes = read_bytes(file, shown)?;
    serde_json::from_slice(&bytes).with_context(|| format!("baseline {shown} is not JSON"))
}

/// The bytes of the baseline `file` (see [`read_json`]), without a
/// byte-order mark.
fn read_bytes(file: &Path, shown: &str) -> anyhow::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let options = ReadOptions {
        max_len: Some(MAX_BASELINE_LEN),
        allow_special: false,
        stamp: false,
    };
    let read = read_file(file, &mut buf, options)
        .map_err(|e| anyhow!("cannot read baseline {shown}: {e}"))?;
    buf.truncate(read.len);
    if buf.starts_with(b"\xEF\xBB\xBF") {
        buf.drain(..3);
    }
    Ok(buf)
}

/// Whether `bytes` begin as a baseline written by utf8lint does (`{`, then
/// the format's key): one cut off by an earlier run's crash is still one,
/// and may be replaced; any other file is not.
fn looks_like_baseline(bytes: &[u8]) -> bool {
    bytes
        .trim_ascii_start()
        .strip_prefix(b"{")
        .is_some_and(|rest| {
            rest.trim_ascii_start()
                .starts_with(b"\"utf8lint-baseline\"")
        })
}

/// Fails unless `value` is a baseline of this format's version.
fn check_version(value: &Value, shown: &str) -> anyhow::Result<()> {
    if value.get("utf8lint-baseline").and_then(Value::as_u64) != Some(VERSION) {
        bail!(
            "{shown} is not a utf8lint baseline (version {VERSION}); write one with --write-baseline"
        );
    }
    Ok(())
}

/// `path` made absolute against `cwd`, with `.` and `..` taken out
/// lexically (symbolic links are not resolved: the path is a name).
fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    utf8lint_workspace::lexical(&cwd.join(path))
}

impl Baseline {
    /// A baseline kept at `file` (paths relative to its directory).
    fn at(file: &Path) -> anyhow::Result<Baseline> {
        let cwd = std::env::current_dir().context("cannot find the current directory")?;
        let file = absolute(&cwd, file);
        Ok(Baseline {
            base: file.parent().map(Path::to_path_buf).unwrap_or(cwd),
            known: HashSet::new(),
            matched: Mutex::new(HashSet::new()),
            checked: Mutex::new(HashSet::new()),
            found: Mutex::new(Vec::new()),
            writing: false,
        })
    }

    /// A baseline to write to `file` at the end of the run.
    pub(crate) fn for_writing(file: &Path) -> anyhow::Result<Baseline> {
        Ok(Baseline {
            writing: true,
            ..Baseline::at(file)?
        })
    }

    /// Reads the baseline `file`.
    pub(crate) fn read(file: &Path) -> anyhow::Result<Baseline> {
        let shown = escape_lossless(file.as_os_str().as_encoded_bytes());
        let value = read_json(file, &shown)?;
        check_version(&value, &shown)?;
        let mut baseline = Baseline::at(file)?;
        let entries = value
            .get("findings")
            .and_then(Value::as_array)
            .with_context(|| format!("baseline {shown} has no `findings` list"))?;
        for (i, entry) in entries.iter().enumerate() {
            let key = (|| {
                let path = entry.get("path")?.as_str()?.to_owned();
                let rule = utf8lint_diagnostics::Rule::find(entry.get("rule")?.as_str()?)?.code();
                let hash = u64::from_str_radix(entry.get("hash")?.as_str()?, 16).ok()?;
                let occurrence = usize::try_from(entry.get("occurrence")?.as_u64()?).ok()?;
                Some(Key {
                    path,
                    rule,
                    hash,
                    occurrence,
                })
            })()
            .with_context(|| {
                format!(
                    "baseline {shown}: entry {} needs `path`, `rule` (a rule's code), `hash` (hex) and `occurrence`",
                    i + 1
                )
            })?;
            baseline.known.insert(key);
        }
        Ok(baseline)
    }

    /// Asked before anything is read or written: whether the run may write
    /// its baseline to `file` at the end. The workspace writer's rules
    /// (no symbolic link, dangling or not; a regular file with one link,
    /// or nothing), then: not a file named to be checked (`inputs`), and
    /// nothing but an earlier baseline (or an empty file) replaced, so a
    /// mistyped name never costs a source file. Returns the identity of
    /// the file there, which the walk leaves out (it is an output).
    pub(crate) fn refuse_to_write(
        file: &Path,
        inputs: &[PathBuf],
    ) -> anyhow::Result<Option<crate::report::FileId>> {
        let shown = escape_lossless(file.as_os_str().as_encoded_bytes());
        let cannot = |why: &dyn std::fmt::Display| anyhow!("cannot write baseline {shown}: {why}");
        let parent = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(cannot(&"its directory does not exist"));
        }
        let existing = whole_file_target(file).map_err(|e| cannot(&e))?;
        crate::report::refuse_named_input("--write-baseline", file, inputs)?;
        if existing.as_ref().is_some_and(|meta| meta.len() > 0) {
            let bytes = read_bytes(file, &shown)?;
            if !looks_like_baseline(&bytes) {
                return Err(cannot(
                    &"the file there is not a utf8lint baseline, and only a baseline is replaced; remove it or name another file",
                ));
            }
        }
        Ok(existing.and_then(|_| crate::report::file_id(file)))
    }

    /// The key path of the file at `path` (as given on the command line or
    /// found by the walk): relative to the baseline's directory, `/`
    /// between components, escaped losslessly (a name that is not UTF-8
    /// keeps its bytes as `\xE9`).
    pub(crate) fn key_path(&self, cwd: &Path, path: &Path) -> String {
        let full = absolute(cwd, path);
        let shown = full.strip_prefix(&self.base).unwrap_or(&full);
        // Joined with `/` on every platform, so that a baseline written on
        // Windows matches on Linux and the other way round.
        let mut key = String::new();
        for part in shown.components() {
            if !key.is_empty() && !key.ends_with('/') {
                key.push('/');
            }
            match part {
                Component::RootDir => key.push('/'),
                other => key.push_str(&escape_lossless(other.as_os_str().as_encoded_bytes())),
            }
        }
        key
    }

    /// The keys of `diagnostics` (one file's, in file order).
    fn keys(path: &str, bytes: &[u8], diagnostics: &[Diagnostic]) -> Vec<Key> {
        let mut seen: BTreeMap<(&'static str, u64), usize> = BTreeMap::new();
        diagnostics
            .iter()
            .map(|d| {
                let hash = finding_hash(bytes, d);
                let count = seen.entry((d.rule.code(), hash)).or_default();
                let occurrence = *count;
                *count += 1;
                Key {
                    path: path.to_owned(),
                    rule: d.rule.code(),
                    hash,
                    occurrence,
                }
            })
            .collect()
    }

    /// `--baseline`: leaves in `diagnostics` only the findings not in the
    /// baseline. `--write-baseline`: records them all.
    /// `count` is false for a second look at the same file (the findings
    /// a fix works from), which must not be counted again.
    pub(crate) fn apply(
        &self,
        path: &str,
        bytes: &[u8],
        diagnostics: &mut Vec<Diagnostic>,
        count: bool,
    ) {
        let keys = Baseline::keys(path, bytes, diagnostics);
        if self.writing {
            if count && let Ok(mut found) = self.found.lock() {
                found.extend(
                    keys.into_iter()
                        .zip(diagnostics.iter().map(|d| d.message.clone())),
                );
            }
            diagnostics.clear();
            return;
        }
        if self.known.is_empty() {
            return;
        }
        if count && let Ok(mut checked) = self.checked.lock() {
            checked.insert(path.to_owned());
        }
        let mut keys = keys.into_iter();
        let mut matched = Vec::new();
        diagnostics.retain(|_| match keys.next() {
            Some(k) if self.known.contains(&k) => {
                matched.push(k);
                false
            }
            _ => true,
        });
        if count && let Ok(mut all) = self.matched.lock() {
            all.extend(matched);
        }
    }

    /// How many findings of this run the baseline held, and so were not
    /// reported.
    pub(crate) fn hidden(&self) -> usize {
        self.matched.lock().map_or(0, |m| m.len())
    }

    /// How many baseline entries of the files checked no finding of this
    /// run matched (fixed or edited since the baseline was written).
    pub(crate) fn gone(&self) -> usize {
        let matched = self.matched.lock().map_or(0, |m| m.len());
        let Ok(checked) = self.checked.lock() else {
            return 0;
        };
        let of_checked = self
            .known
            .iter()
            .filter(|k| checked.contains(&k.path))
            .count();
        of_checked.saturating_sub(matched)
    }

    /// Writes the findings recorded to `file` (sorted, one per line, so
    /// that a baseline under version control diffs well); returns how many.
    pub(crate) fn write(&self, file: &Path) -> anyhow::Result<usize> {
        let mut found = self.found.lock().map(|f| f.clone()).unwrap_or_default();
        found.sort();
        let shown = escape_lossless(file.as_os_str().as_encoded_bytes());
        let mut out = Vec::new();
        writeln!(
            out,
            "{{\n  \"utf8lint-baseline\": {VERSION},\n  \"key\": \"path relative to this file, rule, FNV-1a 64 of the finding's bytes and its line's bytes around it, occurrence among equal keys in file order\",\n  \"findings\": ["
        )?;
        for (i, (key, message)) in found.iter().enumerate() {
            let entry = json!({
                "path": key.path,
                "rule": key.rule,
                "hash": format!("{:016x}", key.hash),
                "occurrence": key.occurrence,
                "message": message,
            });
            let comma = if i + 1 < found.len() { "," } else { "" };
            writeln!(out, "    {entry}{comma}")?;
        }
        writeln!(out, "  ]\n}}")?;
        // Whole or not at all: a full disk leaves the last baseline as it
        // was, never cut-off JSON.
        write_whole_file(file, |w| w.write_all(&out))
            .map_err(|e| anyhow!("cannot write baseline {shown}: {e}"))?;
        Ok(found.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::{Level, Rule};

    fn at(start: usize, end: usize) -> Diagnostic {
        Diagnostic::new(Rule::InvalidUtf8, Level::Deny, start..end, "x")
    }

    #[test]
    fn keys_ignore_other_lines_and_count_equal_findings() {
        let before = b"a\xFFb\nsame \xFF\nsame \xFF\n";
        let after = b"new line\na\xFFb\nsame \xFF\nsame \xFF\nmore\n";
        let k1 = Baseline::keys("f", before, &[at(1, 2), at(9, 10), at(16, 17)]);
        let k2 = Baseline::keys("f", after, &[at(10, 11), at(18, 19), at(25, 26)]);
        assert_eq!(k1, k2);
        assert_eq!(
            k1.iter().map(|k| k.occurrence).collect::<Vec<_>>(),
            [0, 0, 1]
        );
        // Editing the finding's own line makes it new.
        let edited = b"a\xFFc\n";
        assert_ne!(
            Baseline::keys("f", edited, &[at(1, 2)])[0],
            k1[0],
            "its line changed"
        );
    }

    #[test]
    fn paths_are_relative_to_the_baseline_and_normalised() {
        let b = Baseline::at(Path::new("/repo/sub/../baseline.json")).unwrap();
        assert_eq!(
            b.key_path(Path::new("/repo/x"), Path::new("./../src/./a.txt")),
            "src/a.txt"
        );
        assert_eq!(
            b.key_path(Path::new("/elsewhere"), Path::new("a")),
            "/elsewhere/a"
        );
    }
}
