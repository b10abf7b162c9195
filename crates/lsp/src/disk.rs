//! What is on disk: the one place the server reads files, through the
//! workspace layer's pipeline (settings, exclusion, read, binary sniff,
//! check) as the CLI does: regular files only, never a device, FIFO or
//! socket, even behind a symbolic link, and never more than [`MAX_READ`].
//! What is the server's own is here: placing the findings in a text.
//! The session (open documents) and the workspace scan (files nobody has
//! open) both build on it; it knows neither.

use std::path::Path;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{self as lsp, Url};
use utf8lint_codec::decode_lossy;
use utf8lint_config::ResolveCache;
use utf8lint_diagnostics::{Diagnostic, Keep};
use utf8lint_workspace::{
    Checked, FileOptions, ReadOptions, Skip, Skipped, Stamp, read_and_check as pipeline, read_file,
};

use crate::client_settings::Settings;
use crate::convert::Encoding;
use crate::document::{DiskView, Document, Placed, TextDigest};
use crate::mapping::map_offsets;
use crate::publish::{self, Snapshot};

/// The most the server reads of one file (16 MiB): a larger file gets a
/// note instead of findings, so that a sparse or huge file cannot take the
/// server's memory.
pub(crate) const MAX_READ: u64 = 16 << 20;

/// How the server reads a file to check it: a regular file only, at most
/// [`MAX_READ`].
const READ: ReadOptions = ReadOptions {
    max_len: Some(MAX_READ),
    allow_special: false,
    stamp: false,
};

/// The bytes of the file at `path` and its stamp when read, or why not
/// (a sentence for the user).
pub(crate) fn read(path: &Path) -> Result<(Vec<u8>, Stamp), String> {
    let mut bytes = Vec::new();
    // With its stamp: a fix replaces the file only as it was read.
    let stamped = ReadOptions {
        stamp: true,
        ..READ
    };
    match read_file(path, &mut bytes, stamped) {
        Ok(read) => {
            bytes.truncate(read.len);
            let stamp = read
                .stamp
                .ok_or_else(|| unread(path, &"it was read without its stamp"))?;
            Ok((bytes, stamp))
        }
        Err(e) => Err(unread(path, &e)),
    }
}

/// Words for a file the server did not read.
fn unread(path: &Path, e: &dyn std::fmt::Display) -> String {
    format!("utf8lint did not read {}: {e}", path.display())
}

/// The pipeline for the file at `path`, its bytes read into `buf`: a file
/// the workspace scan found is left out by `exclude` (as `utf8lint check`
/// leaves it out of a walk); a document the editor opens is checked all
/// the same, as a file named to the CLI is. Binary files are skipped when
/// the settings say so.
fn check_on_disk(
    path: &Path,
    settings: &Settings,
    honour_exclude: bool,
    scratch: &mut Scratch,
) -> Result<Checked, Skipped> {
    let options = FileOptions {
        honour_exclude,
        sniff_binary: true,
        read: READ,
        keep: Keep::Shown,
    };
    let Scratch { buf, cache } = scratch;
    let checked = pipeline(path, settings.resolver(), cache, options, buf);
    settings.log_notes();
    checked
}

/// What checking a file on disk reuses from one file to the next on one
/// thread: the read buffer, and the settings of the last few directories.
#[derive(Default)]
pub(crate) struct Scratch {
    buf: Vec<u8>,
    cache: ResolveCache,
}

/// The diagnostics for a file nobody has open, placed as VS Code would
/// show it (lossy UTF-8, BOM stripped); `None` when it has none.
pub(crate) fn check_file(
    path: &Path,
    settings: &Settings,
    encoding: Encoding,
    scratch: &mut Scratch,
) -> Option<Vec<lsp::Diagnostic>> {
    let uri = Url::from_file_path(path).ok()?;
    // Read once: the same bytes give the text and the findings.
    let checked = check_on_disk(path, settings, true, scratch).ok()?;
    if checked.diagnostics.is_empty() {
        return None;
    }
    let bytes = &scratch.buf[..checked.read.len];
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let rope = Rope::from_str(&decode_lossy(body));
    let (disk, _) = place(bytes, checked.diagnostics, &rope, || None);
    let mut doc = Document::new(uri, 0, "");
    doc.rope = rope;
    doc.disk = Some(disk);
    doc.marks_ready = true;
    let mut snapshot = Snapshot::of(&doc, encoding, checked.settings.policy.clone());
    snapshot.in_editor = false;
    let diagnostics = publish::diagnostics(&snapshot);
    (!diagnostics.is_empty()).then_some(diagnostics)
}

/// Reads and checks the file at `path` (open in the editor), and places
/// the findings in `rope` if some decoding of the bytes reproduces it (0 is
/// returned), else in the text of digest `base` if some decoding of the
/// bytes reproduces that (rebuilt from them; 1 is returned), else by line
/// and column in `rope`. A file that cannot be read gives a view that says
/// why; a binary one, a view that says it is (and holds no finding).
pub(crate) fn view_on(
    path: &Path,
    rope: &Rope,
    base: Option<TextDigest>,
    settings: &Settings,
) -> (DiskView, usize) {
    let mut scratch = Scratch::default();
    match check_on_disk(path, settings, false, &mut scratch) {
        Ok(checked) => {
            let bytes = &scratch.buf[..checked.read.len];
            let rebuilt = || {
                let base = base?;
                crate::mapping::decoded_text(bytes, |text| TextDigest::of_str(text) == base)
                    .map(|text| Rope::from_str(&text))
            };
            place(bytes, checked.diagnostics, rope, rebuilt)
        }
        Err(Skipped {
            why: Skip::Unread(e),
            ..
        }) => {
            let view = DiskView {
                unreadable: Some(unread(path, &e)),
                ..DiskView::default()
            };
            (view, 0)
        }
        Err(Skipped {
            why: Skip::Binary { evidence, .. },
            ..
        }) => {
            let view = DiskView {
                binary: Some(evidence.to_string()),
                ..DiskView::default()
            };
            (view, 0)
        }
        Err(_) => (DiskView::default(), 0),
    }
}

/// Places `found`, the findings in `bytes`, in `rope` if some decoding of
/// the bytes reproduces it (index 0), else in the text `other` makes if
/// one does (index 1), else by line and column in `rope`.
fn place(
    bytes: &[u8],
    found: Vec<Diagnostic>,
    rope: &Rope,
    other: impl FnOnce() -> Option<Rope>,
) -> (DiskView, usize) {
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
    let map = |rope: &Rope| map_offsets(bytes, rope, rope.to_string().as_bytes(), &offsets);
    let mut mapped = map(rope);
    let mut index = 0;
    if mapped.matched.is_none()
        && let Some(other) = other()
    {
        let on_other = map(&other);
        if on_other.matched.is_some() {
            (mapped, index) = (on_other, 1);
        }
    }
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
        binary: None,
        raw,
        raw_truncated: lossy && raw_truncated,
    };
    (view, index)
}
