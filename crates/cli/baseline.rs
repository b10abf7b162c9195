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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, anyhow, bail};
use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, Rule, escape_lossless};
use utf8lint_workspace::{ReadOptions, read_file, whole_file_target, write_whole_file};

/// How much of a finding's line, either side of its span, goes into its
/// key (and at most this much of the span itself).
pub(crate) const CONTEXT_BYTES: usize = 256;

/// The format's version, written as the value of `utf8lint-baseline`.
const VERSION: u64 = 1;

/// One finding's key within its file (the file's key path is kept once,
/// as the key of the map that holds these): 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub rule: Rule,
    pub hash: u64,
    pub occurrence: u64,
}

/// Keys by the key path of their file.
type KeysByPath = HashMap<Box<str>, HashSet<Key>>;

/// A baseline being read or written by a run.
///
/// Memory: a baseline read costs about 40 bytes an entry (its [`Key`] in a
/// hash set) and each file's path once, under a third of the entry's JSON
/// (at least 66 bytes); the JSON is read entry by entry, never held as a
/// tree of values (which cost 1.4 KB an entry).
pub(crate) struct Baseline {
    /// The directory paths are relative to (the baseline file's).
    base: PathBuf,
    /// `--baseline`: the keys read.
    known: KeysByPath,
    /// The files checked (`--baseline`), each with the known keys some
    /// finding of this run matched (a set, so that a file looked at twice,
    /// before and after a fix, counts once).
    matched: Mutex<KeysByPath>,
    /// `--write-baseline`: the keys found, each with its file's key path
    /// (shared by the file's findings) and the finding's message.
    found: Mutex<Vec<(Arc<str>, Key, String)>>,
    /// `--write-baseline`: findings are recorded, not reported.
    writing: bool,
}

/// FNV-1a, 64 bits: stable across versions and platforms (the standard
/// library's hasher is not), and plenty for telling a file's findings apart.
pub(crate) fn fnv1a(parts: &[&[u8]]) -> u64 {
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
pub(crate) fn finding_hash(bytes: &[u8], d: &Diagnostic) -> u64 {
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

/// The bytes of the baseline `file`, read by the workspace layer's rules: a
/// regular file only (a FIFO or device is refused, never waited on or read
/// without end), at most [`MAX_BASELINE_LEN`] bytes. A UTF-8 byte-order mark
/// (an editor on Windows saves one) is passed over.
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
            known: HashMap::new(),
            matched: Mutex::new(HashMap::new()),
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
        let text = read_bytes(file, &shown)?;
        let known = read_keys(&text, &shown)?;
        Ok(Baseline {
            known,
            ..Baseline::at(file)?
        })
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
    fn keys(bytes: &[u8], diagnostics: &[Diagnostic]) -> Vec<Key> {
        let mut seen: BTreeMap<(Rule, u64), u64> = BTreeMap::new();
        diagnostics
            .iter()
            .map(|d| {
                let hash = finding_hash(bytes, d);
                let count = seen.entry((d.rule, hash)).or_default();
                let occurrence = *count;
                *count += 1;
                Key {
                    rule: d.rule,
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
        let keys = Baseline::keys(bytes, diagnostics);
        if self.writing {
            if count && let Ok(mut found) = self.found.lock() {
                let path: Arc<str> = path.into();
                found.extend(
                    keys.into_iter()
                        .zip(diagnostics.iter())
                        .map(|(key, d)| (path.clone(), key, d.message.clone())),
                );
            }
            diagnostics.clear();
            return;
        }
        if self.known.is_empty() {
            return;
        }
        let known = self.known.get(path);
        let mut keys = keys.into_iter();
        let mut matched = Vec::new();
        diagnostics.retain(|_| match keys.next() {
            Some(k) if known.is_some_and(|known| known.contains(&k)) => {
                matched.push(k);
                false
            }
            _ => true,
        });
        if count && let Ok(mut all) = self.matched.lock() {
            all.entry(path.into()).or_default().extend(matched);
        }
    }

    /// How many findings of this run the baseline held, and so were not
    /// reported.
    pub(crate) fn hidden(&self) -> usize {
        self.matched
            .lock()
            .map_or(0, |m| m.values().map(HashSet::len).sum())
    }

    /// How many baseline entries of the files checked no finding of this
    /// run matched (fixed or edited since the baseline was written).
    pub(crate) fn gone(&self) -> usize {
        let Ok(checked) = self.matched.lock() else {
            return 0;
        };
        checked
            .iter()
            .map(|(path, matched)| {
                let known = self.known.get(path).map_or(0, HashSet::len);
                known.saturating_sub(matched.len())
            })
            .sum()
    }

    /// Writes the findings recorded to `file` (sorted, one per line, so
    /// that a baseline under version control diffs well); returns how many.
    /// The findings are taken, not copied: a run writes its baseline once.
    pub(crate) fn write(&self, file: &Path) -> anyhow::Result<usize> {
        let mut found = self
            .found
            .lock()
            .map(|mut f| std::mem::take(&mut *f))
            .unwrap_or_default();
        // By path, rule code, hash, occurrence and message.
        found.sort_by(|(a_path, a, a_message), (b_path, b, b_message)| {
            (a_path, a.rule.code(), a.hash, a.occurrence, a_message).cmp(&(
                b_path,
                b.rule.code(),
                b.hash,
                b.occurrence,
                b_message,
            ))
        });
        let shown = escape_lossless(file.as_os_str().as_encoded_bytes());
        // Whole or not at all: a full disk leaves the last baseline as it
        // was, never cut-off JSON.
        write_whole_file(file, |out| write_entries(out, &found))
            .map_err(|e| anyhow!("cannot write baseline {shown}: {e}"))?;
        Ok(found.len())
    }
}

/// The baseline's JSON, entry by entry (sorted already).
fn write_entries(out: &mut dyn Write, found: &[(Arc<str>, Key, String)]) -> std::io::Result<()> {
    writeln!(
        out,
        "{{\n  \"utf8lint-baseline\": {VERSION},\n  \"key\": \"path relative to this file, rule, FNV-1a 64 of the finding's bytes and its line's bytes around it, occurrence among equal keys in file order\",\n  \"findings\": ["
    )?;
    for (i, (path, key, message)) in found.iter().enumerate() {
        let entry = json!({
            "path": &**path,
            "rule": key.rule.code(),
            "hash": format!("{:016x}", key.hash),
            "occurrence": key.occurrence,
            "message": message,
        });
        let comma = if i + 1 < found.len() { "," } else { "" };
        writeln!(out, "    {entry}{comma}")?;
    }
    writeln!(out, "  ]\n}}")
}

/// The keys of a baseline's JSON `text` (`shown`: its file, for
/// messages), read entry by entry: each entry is a small JSON value for a
/// moment, then a [`Key`] under its path; the document is never a tree of
/// values. What is wrong is said in this order: not JSON, not a baseline
/// of this version, no `findings` list, the first entry that is not a
/// finding's key.
fn read_keys(text: &[u8], shown: &str) -> anyhow::Result<KeysByPath> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    let document = serde::Deserializer::deserialize_any(&mut reader, DocumentVisitor)
        .and_then(|document| reader.end().map(|()| document))
        .with_context(|| format!("baseline {shown} is not JSON"))?;
    if document.version.as_ref().and_then(Value::as_u64) != Some(VERSION) {
        bail!(
            "{shown} is not a utf8lint baseline (version {VERSION}); write one with --write-baseline"
        );
    }
    match document.findings {
        Some(Findings::Keys(keys)) => Ok(keys),
        Some(Findings::BadEntry(i)) => bail!(
            "baseline {shown}: entry {i} needs `path`, `rule` (a rule's code), `hash` (hex) and `occurrence`"
        ),
        Some(Findings::NotAList) | None => bail!("baseline {shown} has no `findings` list"),
    }
}

/// What a baseline document holds: the last `utf8lint-baseline` and
/// `findings` of its top-level object (as a JSON map keeps the last value
/// of a repeated key).
#[derive(Default)]
struct Document {
    version: Option<Value>,
    findings: Option<Findings>,
}

/// A document's `findings`, as read.
enum Findings {
    Keys(KeysByPath),
    /// The 1-based index of the first entry that is not a finding's key.
    BadEntry(usize),
    NotAList,
}

/// The key of one `findings` entry, or `None` if it is not one.
fn entry_key(entry: &Value) -> Option<(&str, Key)> {
    let path = entry.get("path")?.as_str()?;
    let rule = Rule::find(entry.get("rule")?.as_str()?)?;
    let hash = u64::from_str_radix(entry.get("hash")?.as_str()?, 16).ok()?;
    let occurrence = entry.get("occurrence")?.as_u64()?;
    Some((
        path,
        Key {
            rule,
            hash,
            occurrence,
        },
    ))
}

/// Reads a document's top level: any JSON value, a baseline only if it is
/// an object (anything else has no version, which is what is said).
struct DocumentVisitor;

impl<'de> serde::de::Visitor<'de> for DocumentVisitor {
    type Value = Document;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON document")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut document = Document::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "utf8lint-baseline" => document.version = Some(map.next_value()?),
                "findings" => document.findings = Some(map.next_value_seed(FindingsSeed)?),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(document)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Document, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Document::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Document, E> {
        Ok(Document::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Document, E> {
        Ok(Document::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Document, E> {
        Ok(Document::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Document, E> {
        Ok(Document::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Document, E> {
        Ok(Document::default())
    }
    fn visit_unit<E>(self) -> Result<Document, E> {
        Ok(Document::default())
    }
}

/// Reads `findings`: a list read entry by entry into keys, or any other
/// value, passed over as not a list.
struct FindingsSeed;

impl<'de> serde::de::DeserializeSeed<'de> for FindingsSeed {
    type Value = Findings;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Findings, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for FindingsSeed {
    type Value = Findings;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of findings")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Findings, A::Error> {
        let mut keys = KeysByPath::new();
        let mut bad = None;
        let mut i = 0;
        // Every entry is read, a bad one too: the rest must still be JSON.
        while let Some(entry) = seq.next_element::<Value>()? {
            i += 1;
            if bad.is_some() {
                continue;
            }
            match entry_key(&entry) {
                Some((path, key)) => {
                    match keys.get_mut(path) {
                        Some(set) => set.insert(key),
                        None => keys.entry(path.into()).or_default().insert(key),
                    };
                }
                None => bad = Some(i),
            }
        }
        Ok(match bad {
            Some(i) => Findings::BadEntry(i),
            None => Findings::Keys(keys),
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Findings, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Findings::NotAList)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
    fn visit_str<E>(self, _: &str) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
    fn visit_unit<E>(self) -> Result<Findings, E> {
        Ok(Findings::NotAList)
    }
}

/// The test binary's allocations, counted per thread (the module the
/// configuration's cost tests use).
#[cfg(test)]
#[path = "../config/tests/counting/mod.rs"]
mod counting;

#[cfg(test)]
#[global_allocator]
static COUNTING: counting::Counting = counting::Counting;

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::Level;

    fn at(start: usize, end: usize) -> Diagnostic {
        Diagnostic::new(Rule::InvalidUtf8, Level::Deny, start..end, "x")
    }

    #[test]
    fn keys_ignore_other_lines_and_count_equal_findings() {
        let before = b"a\xFFb\nsame \xFF\nsame \xFF\n";
        let after = b"new line\na\xFFb\nsame \xFF\nsame \xFF\nmore\n";
        let k1 = Baseline::keys(before, &[at(1, 2), at(9, 10), at(16, 17)]);
        let k2 = Baseline::keys(after, &[at(10, 11), at(18, 19), at(25, 26)]);
        assert_eq!(k1, k2);
        assert_eq!(
            k1.iter().map(|k| k.occurrence).collect::<Vec<_>>(),
            [0, 0, 1]
        );
        // Editing the finding's own line makes it new.
        let edited = b"a\xFFc\n";
        assert_ne!(
            Baseline::keys(edited, &[at(1, 2)])[0],
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

    /// A baseline of `n` entries over `n / 10` files, as `--write-baseline`
    /// writes one.
    fn baseline_text(n: usize) -> String {
        let entries: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "    {{\"path\":\"src/dir{}/file.txt\",\"rule\":\"U001\",\"hash\":\"{:016x}\",\"occurrence\":0,\"message\":\"invalid UTF-8: byte 0xFF\"}}",
                    i / 10,
                    i
                )
            })
            .collect();
        format!(
            "{{\n  \"utf8lint-baseline\": 1,\n  \"findings\": [\n{}\n  ]\n}}\n",
            entries.join(",\n")
        )
    }

    /// A baseline read keeps under half its JSON's size (each file's path
    /// once, 24-byte keys), never holds its document as a tree (the peak
    /// stays under its size), and both double as it doubles.
    #[test]
    fn a_baseline_read_costs_less_than_its_json() {
        let costs: Vec<(usize, counting::Cost)> = [20_000, 40_000]
            .iter()
            .map(|&n| {
                let text = baseline_text(n);
                let cost = counting::cost(|| {
                    let keys = read_keys(text.as_bytes(), "b.json").unwrap();
                    assert_eq!(keys.values().map(HashSet::len).sum::<usize>(), n);
                    keys
                });
                (text.len(), cost)
            })
            .collect();
        for &(size, cost) in &costs {
            assert!(cost.held <= size / 2, "{} bytes held for {size}", cost.held);
            assert!(
                cost.peak <= size,
                "{} bytes at the peak for {size}",
                cost.peak
            );
        }
        let (one, two) = (costs[0].1, costs[1].1);
        assert!(two.peak as f64 <= 2.3 * one.peak as f64, "{one:?} {two:?}");
        assert!(
            two.allocations as f64 <= 2.3 * one.allocations as f64,
            "{one:?} {two:?}"
        );
    }

    /// What is wrong with a baseline is said in order: not JSON, not a
    /// baseline, no list, the first bad entry (with the rest still JSON).
    #[test]
    fn a_baseline_s_faults_are_named_in_order() {
        let error = |text: &str| {
            read_keys(text.as_bytes(), "b.json")
                .unwrap_err()
                .to_string()
        };
        assert!(error("{").contains("is not JSON"));
        assert!(error("{\"utf8lint-baseline\": 1, \"findings\": [{}] x").contains("is not JSON"));
        for text in [
            "[]",
            "3",
            "{}",
            "{\"utf8lint-baseline\": 2, \"findings\": []}",
        ] {
            assert!(error(text).contains("is not a utf8lint baseline"), "{text}");
        }
        for findings in ["", ", \"findings\": {\"a\": 1}", ", \"findings\": \"x\""] {
            let text = format!("{{\"utf8lint-baseline\": 1{findings}}}");
            assert!(error(&text).contains("has no `findings` list"), "{text}");
        }
        let good = r#"{"path": "a", "rule": "U001", "hash": "ff", "occurrence": 0}"#;
        let text =
            format!(r#"{{"findings": [{good}, {{"path": "a"}}, 7], "utf8lint-baseline": 1}}"#);
        assert!(error(&text).contains("entry 2 needs"), "{}", error(&text));
        // The last `findings` of the document is the one read, as a JSON
        // object keeps the last value of a key.
        let text = format!(r#"{{"utf8lint-baseline": 1, "findings": [7], "findings": [{good}]}}"#);
        let keys = read_keys(text.as_bytes(), "b.json").unwrap();
        let key = Key {
            rule: Rule::InvalidUtf8,
            hash: 0xff,
            occurrence: 0,
        };
        assert!(keys["a"].contains(&key));
        // A rule named by name is its code.
        let text = r#"{"utf8lint-baseline": 1, "findings": [{"path": "b", "rule": "invalid_utf8", "hash": "ff", "occurrence": 0}]}"#;
        assert!(read_keys(text.as_bytes(), "b.json").unwrap()["b"].contains(&key));
    }
}
