//! One open document: the editor's text as a rope, the disk findings placed
//! in it, and the U+FEFF / U+FFFD characters it holds, all kept in step with
//! every edit.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::Url;
use utf8lint_diagnostics::Diagnostic;

use crate::mapping::Match;

/// Edits kept since the text last matched the disk; past this, findings
/// from a re-read are placed by line and column instead.
const MAX_SINCE_BASE: usize = 100_000;

/// What stands for a text no longer kept: its length and a hash of its
/// bytes (SipHash, streamed chunk by chunk). The text that matched the disk
/// is kept so, not as a second rope: once edits spread over a document a
/// second rope shares little with the first, and holds another copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextDigest {
    len: usize,
    hash: u64,
}

impl TextDigest {
    /// The digest of a rope's text.
    pub(crate) fn of_rope(rope: &Rope) -> TextDigest {
        Self::of_chunks(rope.len_bytes(), rope.chunks())
    }

    /// The digest of a text.
    pub(crate) fn of_str(text: &str) -> TextDigest {
        Self::of_chunks(text.len(), std::iter::once(text))
    }

    fn of_chunks<'a>(len: usize, chunks: impl Iterator<Item = &'a str>) -> TextDigest {
        use std::hash::Hasher;
        // `new` has fixed keys: the same text, the same digest.
        let mut hasher = std::hash::DefaultHasher::new();
        for chunk in chunks {
            hasher.write(chunk.as_bytes());
        }
        TextDigest {
            len,
            hash: hasher.finish(),
        }
    }
}

/// A character of the text that a text-level rule reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    /// Character offset in the rope.
    pub at: usize,
    /// U+FEFF or U+FFFD.
    pub ch: char,
}

/// A disk finding and where it is in the editor's text now.
#[derive(Clone, Debug)]
pub(crate) struct Placed {
    /// The finding, byte spans into the disk bytes.
    pub diag: Arc<Diagnostic>,
    /// Character range in the rope; `None` once an edit went over it.
    pub range: Option<Range<usize>>,
}

/// What the last read of the file found.
#[derive(Clone, Debug, Default)]
pub(crate) struct DiskView {
    /// The findings, placed.
    pub findings: Vec<Placed>,
    /// How the client decoded the bytes, if the text matched.
    pub matched: Option<Match>,
    /// Bytes in ill-formed sequences on disk, and how many sequences.
    pub invalid_bytes: usize,
    /// Number of maximal subparts on disk.
    pub invalid_subparts: usize,
    /// Character range of the first ill-formed sequence in the text.
    pub first_invalid: Option<Range<usize>>,
    /// The file is gone (deleted), or could not be read.
    pub unreadable: Option<String>,
    /// The file on disk is binary (the sniff's words for its kind, `PNG
    /// image`): the document gets no findings and no fixes.
    pub binary: Option<String>,
    /// Where each ill-formed sequence is in the text as a U+FFFD, with its
    /// length on disk, when the text is the lossy decoding (see
    /// [`crate::convert::RawBytes`]); at most [`MAX_RAW`].
    pub raw: Vec<(usize, u8)>,
    /// The file has more ill-formed sequences than `raw` holds.
    pub raw_truncated: bool,
}

/// At most this many ill-formed sequences are tracked for column fixes.
pub(crate) const MAX_RAW: usize = 100_000;

impl DiskView {
    /// Whether the U+FFFD at `at` is the editor's decoding of an
    /// ill-formed sequence on disk (not a U+FFFD the file holds, nor one
    /// typed since). Past the last tracked sequence of a file with more
    /// than [`MAX_RAW`], every U+FFFD is taken for the editor's.
    pub(crate) fn decoded_fffd(&self, at: usize) -> bool {
        if self.raw_truncated && self.raw.last().is_none_or(|&(last, _)| at > last) {
            return true;
        }
        self.raw.binary_search_by_key(&at, |&(pos, _)| pos).is_ok()
    }

    /// Whether an edit of the editor's text would lose bytes when saved:
    /// the file is not UTF-8, or starts with a byte-order mark the text
    /// lacks.
    pub(crate) fn editor_cannot_hold(&self) -> bool {
        self.invalid_bytes > 0 || self.matched.is_some_and(|m| m.bom_stripped)
    }

    /// Moves everything placed in the text through one edit.
    pub(crate) fn shift(&mut self, shift: &Shift) {
        shift_placed(&mut self.findings, shift);
        self.first_invalid = self.first_invalid.as_ref().and_then(|r| shift.range(r));
        self.raw
            .retain_mut(|(at, _)| match shift.range(&(*at..*at + 1)) {
                Some(r) => {
                    *at = r.start;
                    true
                }
                None => false,
            });
    }
}

/// Moves findings through one edit; those it went over lose their place.
pub(crate) fn shift_placed(findings: &mut [Placed], shift: &Shift) {
    for placed in findings {
        placed.range = placed.range.as_ref().and_then(|r| shift.range(r));
    }
}

/// One replacement of `start..old_end` (characters) with `new_len`
/// characters, and the marks the new text holds (absolute offsets).
#[derive(Clone, Debug)]
pub(crate) struct Shift {
    start: usize,
    old_end: usize,
    new_len: usize,
    marks: Vec<Mark>,
}

impl Shift {
    /// A shift for replacing `start..old_end` with `new_text`.
    pub(crate) fn new(start: usize, old_end: usize, new_text: &str) -> Shift {
        Shift {
            start,
            old_end,
            new_len: new_text.chars().count(),
            marks: scan_marks(new_text, start),
        }
    }

    fn delta(&self, at: usize) -> usize {
        at + self.new_len - (self.old_end - self.start)
    }

    /// `range` after the edit; `None` if the edit touched it.
    pub(crate) fn range(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let before = if range.is_empty() {
            range.start <= self.start
        } else {
            range.end <= self.start
        };
        if before {
            Some(range.clone())
        } else if range.start >= self.old_end {
            Some(self.delta(range.start)..self.delta(range.end))
        } else {
            None
        }
    }

    /// Applies the edit to a sorted list of marks.
    pub(crate) fn marks(&self, marks: &mut Vec<Mark>) {
        let lo = marks.partition_point(|m| m.at < self.start);
        let hi = marks.partition_point(|m| m.at < self.old_end);
        for m in &mut marks[hi..] {
            m.at = self.delta(m.at);
        }
        marks.splice(lo..hi, self.marks.iter().copied());
    }
}

/// Worker bookkeeping for one document.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Work {
    /// A worker task is running for the document.
    pub running: bool,
    /// Re-read the file.
    pub disk: bool,
    /// Scan the whole text for marks.
    pub scan: bool,
    /// Check the text with the character rules (buffer.rs).
    pub lint: bool,
    /// Rebuild and publish the diagnostics.
    pub publish: bool,
}

/// An open document.
#[derive(Debug)]
pub(crate) struct Document {
    /// Its URI.
    pub uri: Url,
    /// The file behind it, for `file:` URIs.
    pub path: Option<PathBuf>,
    /// The client's version.
    pub version: i32,
    /// The client's text.
    pub rope: Rope,
    /// U+FEFF and U+FFFD in the text, sorted; valid once `marks_ready`.
    pub marks: Vec<Mark>,
    /// The first full scan of the text is done.
    pub marks_ready: bool,
    /// Where the text holds [`SUPPRESSION_MARKER`] (character offsets,
    /// sorted), kept in step with every edit by re-reading only around it.
    pub suppressions: Vec<usize>,
    /// What the file on disk holds, placed in the text.
    pub disk: Option<DiskView>,
    /// What the character rules found in the text when it was last
    /// checked (buffer.rs), placed and kept in step with every edit since.
    pub text_findings: Vec<Placed>,
    /// The text was checked at least once: `text_findings` stand for the
    /// character rules.
    pub text_checked: bool,
    /// An edit since the last check may have changed what the character
    /// rules find (`quiet_edit::edit_keeps_findings`): the text is checked again.
    pub text_stale: bool,
    /// Edited since the last open, save or reload.
    pub dirty: bool,
    /// The transport replaced this many invalid sequences in the text the
    /// client sent: the client holds raw bytes (Neovim `++bad=keep`).
    pub raw_from_client: usize,
    /// Edits made while a full job (disk read, scan) was running, to replay
    /// on its results.
    pub log: Vec<Shift>,
    /// Whether edits are being logged.
    pub logging: bool,
    /// The last text known to match the file on disk (its digest), and the
    /// edits made since: a re-read of an unchanged file while the buffer
    /// has unsaved edits rebuilds this text from the bytes, maps onto it,
    /// then follows the edits.
    pub base: Option<TextDigest>,
    /// The edits since `base`.
    pub since_base: Vec<Shift>,
    /// The worker's state.
    pub work: Work,
    /// The diagnostics of the last publish, kept for a client that pulls
    /// them (pull.rs).
    pub report: Option<Report>,
    /// The version and result id of the last report a pull answered with.
    pub answered: Option<(i32, String)>,
    /// Pulls of this document waiting for its report.
    pub pulls_waiting: u32,
    /// Which `didOpen` made this document: a worker's result is installed
    /// only into the document of the generation it was computed for, never
    /// into one closed and reopened meanwhile.
    pub generation: u64,
}

impl Document {
    /// A document opened with `text`.
    pub(crate) fn new(uri: Url, version: i32, text: &str) -> Document {
        let path = (uri.scheme() == "file")
            .then(|| uri.to_file_path().ok())
            .flatten();
        let rope = Rope::from_str(text);
        Document {
            uri,
            path,
            version,
            // The text the client opened is what it read from the file: the
            // first candidate base, so that edits arriving before the first
            // disk read do not leave the findings placed by line and column
            // It is used only if the bytes reproduce it.
            base: Some(TextDigest::of_str(text)),
            rope,
            marks: Vec::new(),
            marks_ready: false,
            suppressions: find_suppressions(text, 0),
            disk: None,
            text_findings: Vec::new(),
            text_checked: false,
            text_stale: true,
            dirty: false,
            raw_from_client: 0,
            log: Vec::new(),
            logging: false,
            since_base: Vec::new(),
            work: Work::default(),
            report: None,
            answered: None,
            pulls_waiting: 0,
            generation: 0,
        }
    }

    /// Replaces characters `start..end` with `text` and keeps everything
    /// placed in the text in step. Cost: the edit plus the findings, never
    /// the document.
    pub(crate) fn edit(&mut self, start: usize, end: usize, text: &str) {
        let len = self.rope.len_chars();
        let (start, end) = (start.min(len), end.min(len).max(start.min(len)));
        let deleted_plain = self
            .rope
            .slice(start..end)
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ');
        if start < end {
            self.rope.remove(start..end);
        }
        if !text.is_empty() {
            self.rope.insert(start, text);
        }
        let shift = Shift::new(start, end, text);
        let markers_changed = self.shift_suppressions(&shift);
        if self.marks_ready {
            shift.marks(&mut self.marks);
        }
        if let Some(disk) = &mut self.disk {
            disk.shift(&shift);
        }
        let placed = self
            .text_findings
            .iter()
            .filter(|p| p.range.is_some())
            .count();
        shift_placed(&mut self.text_findings, &shift);
        let kept = self
            .text_findings
            .iter()
            .filter(|p| p.range.is_some())
            .count()
            == placed;
        if !(kept
            && !markers_changed
            && crate::quiet_edit::edit_keeps_findings(
                &self.rope,
                start,
                text,
                deleted_plain,
                &self.suppressions,
            ))
        {
            self.text_stale = true;
        }
        if self.base.is_some() {
            if self.since_base.len() >= MAX_SINCE_BASE {
                self.base = None;
                self.since_base = Vec::new();
            } else {
                self.since_base.push(shift.clone());
            }
        }
        if self.logging {
            self.log.push(shift);
        }
        self.dirty = true;
    }

    /// Moves the suppression markers through `shift` (already applied to
    /// the rope): those the edit touched are dropped, those after it moved,
    /// and the edited stretch, widened by a marker's length less one on
    /// each side, is searched again (an edit can complete or split one).
    /// Returns whether a marker was made or broken.
    fn shift_suppressions(&mut self, shift: &Shift) -> bool {
        const REACH: usize = SUPPRESSION_MARKER.len() - 1;
        let found = &mut self.suppressions;
        let lo = found.partition_point(|&m| m + SUPPRESSION_MARKER.len() <= shift.start);
        let hi = found.partition_point(|&m| m < shift.old_end.max(shift.start));
        for m in &mut found[hi..] {
            *m = shift.delta(*m);
        }
        let from = shift.start.saturating_sub(REACH);
        let to = (shift.start + shift.new_len + REACH).min(self.rope.len_chars());
        let window = self.rope.slice(from..to).to_string();
        let again = find_suppressions(&window, from);
        let changed = again.len() != hi - lo;
        found.splice(lo..hi, again);
        changed
    }

    /// The raw-byte corrections for positions, when the client holds raw
    /// bytes (see [`crate::convert::RawBytes`]).
    pub(crate) fn raw(&self) -> &[(usize, u8)] {
        match &self.disk {
            Some(disk) if self.raw_from_client > 0 => &disk.raw,
            _ => &[],
        }
    }

    /// Replaces the whole text.
    pub(crate) fn replace_all(&mut self, text: &str) {
        let len = self.rope.len_chars();
        self.edit(0, len, text);
    }
}

/// A document's diagnostics, as the last publish would have sent them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Report {
    /// The version they are for.
    pub version: i32,
    /// Their result id: the same diagnostics keep it.
    pub id: String,
    pub diagnostics: Vec<tower_lsp::lsp_types::Diagnostic>,
}

/// What every inline suppression starts with.
pub(crate) const SUPPRESSION_MARKER: &str = "utf8lint:";

/// Where `text` holds [`SUPPRESSION_MARKER`], at character offsets from
/// `base`.
pub(crate) fn find_suppressions(text: &str, base: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut chars, mut last) = (base, 0);
    for at in memchr::memmem::find_iter(bytes, SUPPRESSION_MARKER) {
        chars += count_chars(&bytes[last..at]);
        last = at;
        out.push(chars);
    }
    out
}

/// U+FEFF and U+FFFD in `text`, at character offsets from `base`.
pub(crate) fn scan_marks(text: &str, base: usize) -> Vec<Mark> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut chars = base;
    let mut last = 0;
    for at in memchr::memchr_iter(0xEF, bytes) {
        let ch = match bytes.get(at..at + 3) {
            Some(b"\xEF\xBB\xBF") => '\u{FEFF}',
            Some(b"\xEF\xBF\xBD") => '\u{FFFD}',
            _ => continue,
        };
        chars += count_chars(&bytes[last..at]);
        last = at;
        out.push(Mark { at: chars, ch });
    }
    out
}

/// Marks of a whole rope, chunk by chunk (a chunk never splits a character).
pub(crate) fn scan_rope(rope: &Rope) -> Vec<Mark> {
    let mut out = Vec::new();
    let mut base = 0;
    for chunk in rope.chunks() {
        out.extend(scan_marks(chunk, base));
        base += count_chars(chunk.as_bytes());
    }
    out
}

fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_found_at_char_offsets() {
        let marks = scan_marks("😀\u{FEFF}a\u{FFFD}\u{FEFF}", 10);
        assert_eq!(
            marks,
            [
                Mark {
                    at: 11,
                    ch: '\u{FEFF}'
                },
                Mark {
                    at: 13,
                    ch: '\u{FFFD}'
                },
                Mark {
                    at: 14,
                    ch: '\u{FEFF}'
                }
            ]
        );
    }

    #[test]
    fn a_digest_is_of_the_text_however_the_rope_holds_it() {
        let text = "caf\u{e9} line\n".repeat(2000);
        let whole = Rope::from_str(&text);
        let mut typed = Rope::new();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for line in lines.iter().rev() {
            typed.insert(0, line);
        }
        assert!(typed.chunks().count() > 1);
        assert_eq!(TextDigest::of_rope(&whole), TextDigest::of_str(&text));
        assert_eq!(TextDigest::of_rope(&typed), TextDigest::of_str(&text));
        let mut other = text.clone();
        other.replace_range(5..6, "x");
        assert_ne!(TextDigest::of_str(&other), TextDigest::of_str(&text));
    }

    #[test]
    fn edits_shift_marks_and_findings() {
        let mut doc = Document::new("untitled:x".parse().unwrap(), 1, "ab\u{FEFF}cd\u{FEFF}");
        doc.marks = scan_rope(&doc.rope);
        doc.marks_ready = true;
        doc.disk = Some(DiskView {
            findings: vec![
                Placed {
                    diag: Arc::new(Diagnostic::new(
                        utf8lint_diagnostics::Rule::ForbiddenBom,
                        utf8lint_diagnostics::Level::Deny,
                        0..3,
                        "bom",
                    )),
                    range: Some(0..0),
                },
                Placed {
                    diag: Arc::new(Diagnostic::new(
                        utf8lint_diagnostics::Rule::StrayFeff,
                        utf8lint_diagnostics::Level::Warn,
                        5..8,
                        "x",
                    )),
                    range: Some(2..3),
                },
                Placed {
                    diag: Arc::new(Diagnostic::new(
                        utf8lint_diagnostics::Rule::StrayFeff,
                        utf8lint_diagnostics::Level::Warn,
                        10..13,
                        "y",
                    )),
                    range: Some(5..6),
                },
            ],
            ..DiskView::default()
        });
        doc.edit(0, 0, "😀\u{FEFF}"); // insert at the start
        assert_eq!(doc.rope.to_string(), "😀\u{FEFF}ab\u{FEFF}cd\u{FEFF}");
        assert_eq!(
            doc.marks.iter().map(|m| m.at).collect::<Vec<_>>(),
            [1, 4, 7]
        );
        let ranges: Vec<_> = doc
            .disk
            .as_ref()
            .unwrap()
            .findings
            .iter()
            .map(|p| p.range.clone())
            .collect();
        assert_eq!(ranges, [Some(0..0), Some(4..5), Some(7..8)]);
        doc.edit(3, 6, "Z"); // over "b\u{FEFF}c"
        assert_eq!(doc.rope.to_string(), "😀\u{FEFF}aZd\u{FEFF}");
        assert_eq!(doc.marks.iter().map(|m| m.at).collect::<Vec<_>>(), [1, 5]);
        let ranges: Vec<_> = doc
            .disk
            .as_ref()
            .unwrap()
            .findings
            .iter()
            .map(|p| p.range.clone())
            .collect();
        assert_eq!(ranges, [Some(0..0), None, Some(5..6)]);
        assert!(doc.dirty);
    }
}
