//! `--fix` and `--diff`: which fixes apply, the write (through the shared
//! fix writer), the diff view.

use std::ops::Range;
use std::path::Path;

use utf8lint_diagnostics::{
    Applicability, Diagnostic, Fix, Locator, escape_lossless, plan_fixes, write_fixes,
};

use utf8lint_workspace::{Stamp, WriteError, replace_file};

/// Which fixes a run applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FixMode {
    pub unsafe_fixes: bool,
}

impl FixMode {
    pub(crate) fn wants(self, fix: &Fix) -> bool {
        match fix.applicability() {
            Applicability::Safe => true,
            Applicability::Unsafe => self.unsafe_fixes,
            Applicability::DisplayOnly => false,
        }
    }
}

/// The fixes of `diagnostics` that `mode` applies and that fit together,
/// in the order they apply (`utf8lint_diagnostics::plan_fixes` decides).
pub(crate) fn plan(diagnostics: &[Diagnostic], len: usize, mode: FixMode) -> Vec<&Fix> {
    let fixes: Vec<&Fix> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| mode.wants(f))
        .collect();
    plan_fixes(&fixes, len)
        .into_iter()
        .map(|i| fixes[i])
        .collect()
}

/// Replaces `path` by its fixed content through the one fix writer
/// (`utf8lint_workspace::replace_file`: what it keeps and refuses is said
/// there), if the file is still what was read (`read_as`).
pub(crate) fn write_fixed(
    path: &Path,
    read_as: &Stamp,
    bytes: &[u8],
    fixes: &[&Fix],
) -> Result<(), WriteError> {
    replace_file(path, read_as, |mut out| write_fixes(&mut out, bytes, fixes))
}

/// Lines shown per side of one hunk of `--diff` before it is cut.
const DIFF_MAX_LINES: usize = 20;
/// Bytes of a `--diff` line shown on each side of what changed in it.
const DIFF_CONTEXT: usize = 80;
/// Bytes of what changed in a `--diff` line shown before it is cut.
const DIFF_CHANGE_SHOWN: usize = 256;

/// The `--diff` view of `fixes` (planned) for one file: a unified-diff-like
/// listing whose lines are escaped with `escape_lossless`, so invisible and
/// invalid bytes show as `\u{FEFF}` and `\xC0`. Hunks whose lines touch are
/// merged. Each `-`/`+` line is cut to a window of bytes around what changed
/// in it (`…` where cut), and the fixed text is never put together: output
/// and memory per hunk are bounded whatever the length of the lines (a fix
/// in a 1 GiB line prints a few hundred bytes).
pub(crate) fn diff(display: &str, bytes: &[u8], fixes: &[&Fix]) -> String {
    if fixes.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {display}\n+++ {display} (fixed)\n");
    let mut locator = Locator::new(bytes);
    let mut i = 0;
    while i < fixes.len() {
        let first = locator.locate(fixes[i].range().start);
        let mut last = locator.locate(fixes[i].range().end);
        let mut j = i + 1;
        while j < fixes.len() && fixes[j].range().start <= last.line_end {
            last = locator.locate(fixes[j].range().end);
            j += 1;
        }
        let region = first.line_start..last.line_end;
        let mut old = Vec::new();
        let mut new = Vec::new();
        let mut cursor = region.start;
        for fix in &fixes[i..j] {
            for edit in fix.edits() {
                let kept = &bytes[cursor..edit.range().start.max(cursor)];
                old.push((kept, false));
                new.push((kept, false));
                let gone = edit.range().start.max(cursor)..edit.range().end.max(cursor);
                old.push((&bytes[gone], true));
                new.push((edit.replacement(), true));
                cursor = edit.range().end.max(cursor);
            }
        }
        let end = region.end.max(cursor);
        old.push((&bytes[cursor..end], false));
        new.push((&bytes[cursor..end], false));
        out.push_str(&format!(
            "@@ line {}{} @@ {}\n",
            first.line,
            if last.line > first.line {
                format!("-{}", last.line)
            } else {
                String::new()
            },
            titles(&fixes[i..j])
        ));
        push_lines(&mut out, '-', &Pieces::new(old));
        push_lines(&mut out, '+', &Pieces::new(new));
        i = j;
    }
    out
}

/// Distinct titles shown in a hunk's header; a hunk may merge thousands of
/// fixes on one long line.
const DIFF_MAX_TITLES: usize = 3;

/// A hunk's header text: its fixes' titles in order, each once with a count
/// when repeated, the first `DIFF_MAX_TITLES` of them, then how many more.
fn titles(fixes: &[&Fix]) -> String {
    let mut distinct: Vec<(&str, usize)> = Vec::new();
    let mut others = 0;
    for fix in fixes {
        if let Some((_, n)) = distinct.iter_mut().find(|(title, _)| *title == fix.title()) {
            *n += 1;
        } else if distinct.len() < DIFF_MAX_TITLES {
            distinct.push((fix.title(), 1));
        } else {
            others += 1;
        }
    }
    let mut text: Vec<String> = distinct
        .iter()
        .map(|&(title, n)| match n {
            1 => title.to_owned(),
            n => format!("{title} (×{n})"),
        })
        .collect();
    if others > 0 {
        text.push(format!(
            "{others} more fix{}",
            if others == 1 { "" } else { "es" }
        ));
    }
    text.join("; ")
}

/// One side of a hunk as the slices it is made of (of the file, or of
/// edits' replacements), each marked changed or not, read as one text.
struct Pieces<'a> {
    pieces: Vec<(&'a [u8], bool)>,
    /// Where each piece ends in the text.
    ends: Vec<usize>,
}

impl<'a> Pieces<'a> {
    fn new(pieces: Vec<(&'a [u8], bool)>) -> Self {
        let ends = pieces
            .iter()
            .scan(0, |end, (piece, _)| {
                *end += piece.len();
                Some(*end)
            })
            .collect();
        Pieces { pieces, ends }
    }

    fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    fn start(&self, piece: usize) -> usize {
        self.ends[piece] - self.pieces[piece].0.len()
    }

    /// The piece holding the byte at `at` (the first piece ending after it).
    fn piece_at(&self, at: usize) -> usize {
        self.ends.partition_point(|&end| end <= at)
    }

    fn byte(&self, at: usize) -> Option<u8> {
        let piece = self.piece_at(at);
        let (bytes, _) = self.pieces.get(piece)?;
        bytes.get(at - self.start(piece)).copied()
    }

    /// The first `\n` at or after `from`.
    fn newline(&self, from: usize) -> Option<usize> {
        (self.piece_at(from)..self.pieces.len()).find_map(|piece| {
            let start = self.start(piece);
            let skip = from.saturating_sub(start);
            let (bytes, _) = self.pieces[piece];
            bytes[skip..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|p| start + skip + p)
        })
    }

    fn newlines_from(&self, from: usize) -> usize {
        (self.piece_at(from)..self.pieces.len())
            .map(|piece| {
                let skip = from.saturating_sub(self.start(piece));
                self.pieces[piece].0[skip..]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
            })
            .sum()
    }

    /// From the start of the first changed piece to the end of the last one
    /// that touch `line` (an insertion is an empty changed piece).
    fn changed_in(&self, line: &Range<usize>) -> Option<Range<usize>> {
        let mut changed: Option<Range<usize>> = None;
        for piece in self.ends.partition_point(|&end| end < line.start)..self.pieces.len() {
            let start = self.start(piece);
            if start > line.end {
                break;
            }
            if self.pieces[piece].1 {
                let end = self.ends[piece];
                changed = Some(changed.map_or(start..end, |c| c.start..end));
            }
        }
        changed
    }

    /// The bytes of `range`, copied (a window: short).
    fn copy(&self, range: Range<usize>) -> Vec<u8> {
        let mut out = Vec::with_capacity(range.len());
        for piece in self.piece_at(range.start)..self.pieces.len() {
            let start = self.start(piece);
            if start >= range.end {
                break;
            }
            let bytes = self.pieces[piece].0;
            let from = range.start.saturating_sub(start);
            let to = (range.end - start).min(bytes.len());
            out.extend_from_slice(&bytes[from..to]);
        }
        out
    }

    /// The window of `line` shown: what changed in it (cut after
    /// `DIFF_CHANGE_SHOWN` bytes) with `DIFF_CONTEXT` bytes each side, or
    /// the line's start if nothing changed in it; never a character cut in
    /// two.
    fn window(&self, line: &Range<usize>) -> Range<usize> {
        let (mut start, mut end) = match self.changed_in(line) {
            Some(changed) => {
                let from = changed.start.max(line.start);
                let to = changed.end.min(line.end).min(from + DIFF_CHANGE_SHOWN);
                (
                    from.saturating_sub(DIFF_CONTEXT).max(line.start),
                    (to + DIFF_CONTEXT).min(line.end),
                )
            }
            None => (
                line.start,
                (line.start + 2 * DIFF_CONTEXT + DIFF_CHANGE_SHOWN).min(line.end),
            ),
        };
        let continues = |at| self.byte(at).is_some_and(|b| b & 0xC0 == 0x80);
        for _ in 0..3 {
            if start > line.start && continues(start) {
                start -= 1;
            }
            if end < line.end && continues(end) {
                end += 1;
            }
        }
        start..end
    }
}

fn push_lines(out: &mut String, sign: char, text: &Pieces<'_>) {
    let mut from = 0;
    for _ in 0..DIFF_MAX_LINES {
        let line = from..text.newline(from).unwrap_or(text.len());
        let window = text.window(&line);
        out.push(sign);
        if window.start > line.start {
            out.push('…');
        }
        out.push_str(&escape_lossless(&text.copy(window.clone())));
        if window.end < line.end {
            out.push('…');
        }
        out.push('\n');
        if line.end == text.len() {
            return;
        }
        from = line.end + 1;
    }
    out.push_str(&format!(
        "{sign}… ({} more lines)\n",
        text.newlines_from(from) + 1
    ));
}

#[cfg(test)]
mod diff_tests {
    use super::*;
    use utf8lint_diagnostics::Edit;

    fn fix_at(at: usize, len: usize, with: &[u8]) -> Fix {
        Fix::unsafe_("replace", vec![Edit::replace(at..at + len, with.to_vec())])
    }

    #[test]
    fn a_change_in_a_long_line_is_shown_in_a_window() {
        let mut bytes = b"a".repeat(1 << 20);
        bytes[1 << 19] = 0xFF;
        bytes.extend_from_slice(b"\nnext\n");
        let fix = fix_at(1 << 19, 1, "\u{FFFD}".as_bytes());
        let text = diff("x.txt", &bytes, &[&fix]);
        let context = "a".repeat(DIFF_CONTEXT);
        assert_eq!(
            text,
            format!(
                "--- x.txt\n+++ x.txt (fixed)\n@@ line 1 @@ replace\n-…{context}\\xFF{context}…\n+…{context}\u{FFFD}{context}…\n"
            )
        );
    }

    #[test]
    fn a_long_change_is_cut_and_lines_beyond_the_limit_are_counted() {
        // A whole-file replacement (as the transcoding fix is) of 30 long lines.
        let line = "é".repeat(1000);
        let bytes = format!("{line}\n").repeat(30).into_bytes();
        let fix = fix_at(0, bytes.len(), b"x\n".repeat(30).as_slice());
        let text = diff("x.txt", &bytes, &[&fix]);
        let lines: Vec<&str> = text.lines().collect();
        // Header, hunk line, 20 + 1 per side.
        assert_eq!(lines.len(), 3 + 2 * (DIFF_MAX_LINES + 1), "{text}");
        let minus = lines[3];
        assert!(
            minus.ends_with('…') && !minus.contains('\u{FFFD}'),
            "{minus}"
        );
        let shown = minus.trim_start_matches('-').trim_end_matches('…');
        assert!(
            shown.len() <= DIFF_CHANGE_SHOWN + DIFF_CONTEXT + 3,
            "{}",
            shown.len()
        );
        assert!(shown.chars().all(|c| c == 'é'));
        assert_eq!(lines[3 + DIFF_MAX_LINES], "-… (11 more lines)");
        assert_eq!(lines[4 + DIFF_MAX_LINES], "+x");
        assert_eq!(lines.last().unwrap(), &"+… (11 more lines)");
    }

    #[test]
    fn a_hunk_of_many_fixes_names_a_few_titles_with_counts() {
        let bytes = b"\xFF\xC0\xFE".repeat(1000);
        let mut fixes: Vec<Fix> = (0..1000).map(|k| fix_at(3 * k, 1, b"?")).collect();
        fixes.extend((0..1000).map(|k| {
            Fix::unsafe_(
                format!("title {k}"),
                vec![Edit::delete(3 * k + 1..3 * k + 2)],
            )
        }));
        fixes.sort_by_key(|f| f.range().start);
        let planned: Vec<&Fix> = fixes.iter().collect();
        let text = diff("x.txt", &bytes, &planned);
        let header = text.lines().nth(2).unwrap();
        assert_eq!(
            header,
            "@@ line 1 @@ replace (×1000); title 0; title 1; 998 more fixes"
        );
        assert!(text.len() < 4096, "{} bytes", text.len());
    }

    #[test]
    fn insertions_and_lines_without_changes_are_shown_from_their_start() {
        let bytes = b"ab\ncd\nef";
        let insert = Fix::safe("insert", vec![Edit::insert(0, b"\xEF\xBB\xBF".to_vec())]);
        let replace = fix_at(6, 1, b"E");
        let text = diff("x.txt", bytes, &[&insert, &replace]);
        assert_eq!(
            text,
            "--- x.txt\n+++ x.txt (fixed)\n@@ line 1 @@ insert\n-ab\n+\\u{FEFF}ab\n@@ line 3 @@ replace\n-ef\n+Ef\n"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::Edit;

    #[test]
    fn diff_escapes_bytes() {
        let bytes = b"\xEF\xBB\xBF{\"a\": 1}\nok\n";
        let fix = Fix::safe("remove the byte-order mark", vec![Edit::delete(0..3)]);
        let text = diff("x.json", bytes, &[&fix]);
        assert_eq!(
            text,
            "--- x.json\n+++ x.json (fixed)\n@@ line 1 @@ remove the byte-order mark\n-\\u{FEFF}{\"a\": 1}\n+{\"a\": 1}\n"
        );
    }
}
