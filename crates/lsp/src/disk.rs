//! What is on disk: the one place the server reads files (through the
//! shared reader of `utf8lint-workspace`, regular files only, never a
//! device, FIFO or socket, even behind a symbolic link, and never more than
//! [`MAX_READ`]), checks them, and places the findings in a text.
//! The session (open documents) and the workspace scan (files nobody has
//! open) both build on it; it knows neither.

use std::path::Path;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{self as lsp, Url};
use utf8lint_codec::decode_lossy;
use utf8lint_diagnostics::{CheckOptions, Policy, Sniff, check, sniff};
use utf8lint_workspace::{ReadOptions, Stamp, read_file};

use crate::config::Settings;
use crate::convert::Encoding;
use crate::document::{DiskView, Document, Placed};
use crate::mapping::map_offsets;
use crate::publish::{self, Snapshot};

/// The most the server reads of one file (16 MiB): a larger file gets a
/// note instead of findings, so that a sparse or huge file cannot take the
/// server's memory.
pub(crate) const MAX_READ: u64 = 16 << 20;

/// The bytes of the file at `path` and its stamp when read, or why not
/// (a sentence for the user).
pub(crate) fn read(path: &Path) -> Result<(Vec<u8>, Stamp), String> {
    let mut bytes = Vec::new();
    let options = ReadOptions {
        max_len: Some(MAX_READ),
        allow_special: false,
    };
    match read_file(path, &mut bytes, options) {
        Ok(read) => {
            bytes.truncate(read.len);
            Ok((bytes, read.stamp))
        }
        Err(e) => Err(format!("utf8lint did not read {}: {e}", path.display())),
    }
}

/// The diagnostics for a file nobody has open, placed as VS Code would
/// show it (lossy UTF-8, BOM stripped); `None` when it has none.
pub(crate) fn check_file(
    path: &Path,
    settings: &Settings,
    encoding: Encoding,
) -> Option<Vec<lsp::Diagnostic>> {
    let uri = Url::from_file_path(path).ok()?;
    if settings.excluded(path) {
        return None;
    }
    // Read once: the same bytes give the text and the findings.
    let (bytes, _) = read(path).ok()?;
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let rope = Rope::from_str(&decode_lossy(body));
    let (policy, skip_binary) = settings.resolve(Some(path));
    let (disk, _) = view_of(&bytes, path, &[&rope], &policy, skip_binary);
    drop(bytes);
    if disk.findings.is_empty() {
        return None;
    }
    let mut doc = Document::new(uri, 0, "");
    doc.rope = rope;
    doc.disk = Some(disk);
    doc.marks_ready = true;
    let mut snapshot = Snapshot::of(&doc, encoding, policy);
    snapshot.in_editor = false;
    let diagnostics = publish::diagnostics(&snapshot);
    (!diagnostics.is_empty()).then_some(diagnostics)
}

/// Reads and checks the file at `path`, and places the findings in the
/// first of `ropes` that some decoding of the bytes reproduces (its index
/// is returned), else by line and column in the first. A file that cannot
/// be read gives a view that says why.
pub(crate) fn view_on(
    path: &Path,
    ropes: &[&Rope],
    policy: &Policy,
    skip_binary: bool,
) -> (DiskView, usize) {
    match read(path) {
        Ok((bytes, _)) => view_of(&bytes, path, ropes, policy, skip_binary),
        Err(e) => {
            let view = DiskView {
                unreadable: Some(e),
                ..DiskView::default()
            };
            (view, 0)
        }
    }
}

/// [`view_on`] for bytes already read from `path`.
fn view_of(
    bytes: &[u8],
    path: &Path,
    ropes: &[&Rope],
    policy: &Policy,
    skip_binary: bool,
) -> (DiskView, usize) {
    if skip_binary && matches!(sniff(bytes), Sniff::Binary(_)) {
        return (DiskView::default(), 0);
    }
    let found = check(bytes, CheckOptions::new(path, policy));
    let mut offsets = Vec::with_capacity(found.len() * 2 + 2);
    for d in &found {
        offsets.push(d.span.start);
        offsets.push(d.span.end);
    }
    let mut invalid_bytes = 0;
    let mut invalid_subparts = 0;
    let mut first_invalid = None;
    let mut raw_lens = Vec::new();
    for sub in utf8lint_codec::subparts(bytes) {
        first_invalid.get_or_insert(sub.range());
        invalid_bytes += usize::from(sub.len);
        invalid_subparts += 1;
        if raw_lens.len() < crate::document::MAX_RAW {
            raw_lens.push((sub.offset, sub.len));
        }
    }
    if let Some(r) = &first_invalid {
        offsets.push(r.start);
        offsets.push(r.end);
    }
    let raw_from = offsets.len();
    offsets.extend(raw_lens.iter().map(|&(offset, _)| offset));
    let mut chosen = None;
    for (i, rope) in ropes.iter().enumerate() {
        let text = rope.to_string();
        let mapped = map_offsets(bytes, rope, text.as_bytes(), &offsets);
        if mapped.matched.is_some() {
            chosen = Some((mapped, i));
            break;
        }
        if i == 0 {
            chosen = Some((mapped, 0));
        }
    }
    let Some((mapped, index)) = chosen else {
        return (DiskView::default(), 0);
    };
    let range = |i: usize| mapped.chars[2 * i]..mapped.chars[2 * i + 1].max(mapped.chars[2 * i]);
    let n = found.len();
    let findings = found
        .into_iter()
        .enumerate()
        .map(|(i, d)| Placed {
            diag: Arc::new(d),
            range: Some(range(i)),
        })
        .collect::<Vec<_>>();
    let raw_truncated = invalid_subparts > raw_lens.len();
    let lossy = mapped
        .matched
        .is_some_and(|m| m.decoding == crate::mapping::Decoding::Lossy);
    let raw = if lossy {
        raw_lens
            .iter()
            .zip(&mapped.chars[raw_from..])
            .map(|(&(_, len), &at)| (at, len))
            .collect()
    } else {
        Vec::new()
    };
    let view = DiskView {
        findings,
        matched: mapped.matched,
        invalid_bytes,
        invalid_subparts,
        first_invalid: first_invalid.map(|_| range(n)),
        unreadable: None,
        raw,
        raw_truncated: lossy && raw_truncated,
    };
    (view, index)
}
