//! `--diff`: the planned fixes of one file as a unified diff that
//! `git apply` and `patch -p1` accept: headers `--- a/PATH` and
//! `+++ b/PATH`, hunks `@@ -l,n +l,n @@` with three lines of context, the
//! lines' bytes as they are (an invalid byte stays that byte: the diff is
//! of the file, not of a reading of it), and `\ No newline at end of file`
//! where a side ends without one.
//!
//! A name that git would quote (a control character, `"`, `\`, a byte
//! above 0x7F) is quoted as git quotes it (C escapes, octal for other
//! bytes), which both tools read back, so no name reaches the output raw.
//! Content does: when standard output is a terminal, [`for_terminal`]
//! escapes each line instead (the diff is then for reading, not applying).

use std::borrow::Cow;

use memchr::memchr_iter;
use utf8lint_diagnostics::{Fix, escape_lossless, escape_shown};

use crate::line_changes::{self, Change, NewText};

/// Lines of context around each change, as `diff -u` and git use.
const CONTEXT: usize = 3;

/// Where each line starts: 0, then after every `\n` (so a file ending in
/// `\n` has a last, empty line at its end, where an insertion at the end
/// of the file lands).
struct Lines {
    starts: Vec<usize>,
    len: usize,
}

impl Lines {
    fn new(bytes: &[u8]) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr_iter(b'\n', bytes).map(|i| i + 1));
        Lines {
            starts,
            len: bytes.len(),
        }
    }

    /// The line holding byte `at`.
    fn of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at) - 1
    }

    /// How many lines the file has (a last one without `\n` counts).
    fn count(&self) -> usize {
        let last = self.starts[self.starts.len() - 1];
        self.starts.len() - usize::from(last == self.len)
    }

    fn start(&self, line: usize) -> usize {
        self.starts[line]
    }

    /// The end of `line`, its `\n` included.
    fn end(&self, line: usize) -> usize {
        self.starts.get(line + 1).copied().unwrap_or(self.len)
    }
}

/// The marker `patch` and `git apply` expect after a last line without
/// `\n` (which gets one).
const NO_NEWLINE: &[u8] = b"\n\\ No newline at end of file\n";

/// Where a diff's bytes go: counted first, then written into a buffer of
/// exactly that size.
trait Out {
    fn put(&mut self, bytes: &[u8]);
}

impl Out for usize {
    fn put(&mut self, bytes: &[u8]) {
        *self += bytes.len();
    }
}

impl Out for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// One line after its sign; a last line without `\n` gets one and
/// [`NO_NEWLINE`]'s marker.
fn put_line<'s>(out: &mut impl Out, sign: &[u8], segments: impl Iterator<Item = &'s [u8]>) {
    out.put(sign);
    let mut last = None;
    for segment in segments {
        out.put(segment);
        last = segment.last().copied().or(last);
    }
    if last != Some(b'\n') {
        out.put(NO_NEWLINE);
    }
}

/// A region of whole lines that edits touch: its old lines (indices into
/// the file's) and its fixed text.
struct Region<'a> {
    first: usize,
    new: NewText<'a>,
}

/// A change placed in the file: its region and its lines there.
struct Placed {
    region: usize,
    change: Change,
}

impl Placed {
    /// The old lines, as indices into the file's.
    fn old(&self, regions: &[Region<'_>]) -> std::ops::Range<usize> {
        let first = regions[self.region].first;
        first + self.change.old.start..first + self.change.old.end
    }
}

/// Lines longer than this are not looked at whole to say that only hidden
/// characters change (the diff stays linear in the file).
const SHORT_LINE: usize = 4096;

/// Whether every changed line of `changes` looks the same on both sides
/// once hidden characters and line endings are set aside: a `-`/`+` pair
/// a reader would take for one line, which the hunk's header says.
fn only_hidden(lines: &Lines, bytes: &[u8], regions: &[Region<'_>], changes: &[Placed]) -> bool {
    fn visible(line: &[u8]) -> Option<String> {
        let text = std::str::from_utf8(line).ok()?;
        let text = text.trim_end_matches(['\n', '\r']);
        Some(
            text.chars()
                .filter(|c| escape_shown(c.encode_utf8(&mut [0; 4])).len() == c.len_utf8())
                .collect(),
        )
    }
    changes.iter().all(|placed| {
        let change = &placed.change;
        let region = &regions[placed.region];
        change.old.len() == change.new.len()
            && placed.old(regions).zip(change.new.clone()).all(|(o, n)| {
                let old = &bytes[lines.start(o)..lines.end(o)];
                let new = region.new.short_line(region.new.lines[n], SHORT_LINE);
                match (old.len() <= SHORT_LINE, new) {
                    (true, Some(new)) => visible(old).is_some_and(|v| Some(v) == visible(&new)),
                    _ => false,
                }
            })
    })
}

/// Writes (or counts) one hunk: `changes`, with the lines between them and
/// [`CONTEXT`] lines either side; `delta` is the new file's lines minus the
/// old one's before it.
fn put_hunk(
    out: &mut impl Out,
    bytes: &[u8],
    lines: &Lines,
    regions: &[Region<'_>],
    changes: &[Placed],
    delta: isize,
) {
    let old_lines = lines.count();
    let first = changes[0].old(regions).start;
    let last = changes[changes.len() - 1].old(regions).end;
    let from = first.saturating_sub(CONTEXT);
    let to = (last + CONTEXT).min(old_lines);
    let added: usize = changes.iter().map(|c| c.change.new.len()).sum();
    let removed: usize = changes.iter().map(|c| c.change.old.len()).sum();
    let old_count = to - from;
    let new_count = old_count + added - removed;
    // A side with no lines names the line before it (`-0,0`).
    let old_start = from + usize::from(old_count > 0);
    let new_start = (from as isize + delta) as usize + usize::from(new_count > 0);
    let note = if only_hidden(lines, bytes, regions, changes) {
        " only invisible characters or line endings change"
    } else {
        ""
    };
    out.put(format!("@@ -{old_start},{old_count} +{new_start},{new_count} @@{note}\n").as_bytes());
    let old_line = |i: usize| &bytes[lines.start(i)..lines.end(i)];
    let mut at = from;
    for placed in changes {
        let old = placed.old(regions);
        for i in at..old.start {
            put_line(out, b" ", std::iter::once(old_line(i)));
        }
        for i in old.clone() {
            put_line(out, b"-", std::iter::once(old_line(i)));
        }
        let new = &regions[placed.region].new;
        for n in placed.change.new.clone() {
            put_line(out, b"+", new.segments(new.lines[n]));
        }
        at = old.end;
    }
    for i in at..to {
        put_line(out, b" ", std::iter::once(old_line(i)));
    }
}

/// `a/` or `b/` and the name, quoted as git quotes a name that needs it;
/// a name with a space gets a tab after it, as git writes it, so that
/// `patch` does not read the space as the end of the name.
fn header_name(prefix: &str, name: &[u8]) -> Vec<u8> {
    // An absolute path loses its leading `/`, as `git diff --no-index`
    // writes it (`a/tmp/x`, not `a//tmp/x`): `patch -p1` run from `/`
    // applies it.
    let name = name.strip_prefix(b"/").unwrap_or(name);
    let needs_quotes = name
        .iter()
        .any(|&b| b < 0x20 || b == 0x7F || b == b'"' || b == b'\\' || b >= 0x80);
    let mut out = Vec::with_capacity(name.len() + 4);
    if !needs_quotes {
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(name);
        if name.contains(&b' ') {
            out.push(b'\t');
        }
        return out;
    }
    out.push(b'"');
    out.extend_from_slice(prefix.as_bytes());
    for &b in name {
        match b {
            b'\x07' => out.extend_from_slice(b"\\a"),
            b'\x08' => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\x0B' => out.extend_from_slice(b"\\v"),
            b'\x0C' => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b if !(0x20..0x7F).contains(&b) => {
                out.extend_from_slice(format!("\\{b:03o}").as_bytes())
            }
            b => out.push(b),
        }
    }
    out.push(b'"');
    out
}

/// The unified diff of `fixes` (planned: sorted, non-overlapping) applied
/// to `bytes`, the file whose name (as shown, before escaping) is `name`.
/// Only lines whose bytes change are `-`/`+` lines; empty when no line
/// changes. Its size is known before it is written, and reserved once:
/// the work and the memory are the diff's bytes, however long its lines.
pub(crate) fn unified(name: &[u8], bytes: &[u8], fixes: &[&Fix]) -> Vec<u8> {
    let edits: Vec<_> = fixes.iter().flat_map(|f| f.edits()).collect();
    if edits.is_empty() {
        return Vec::new();
    }
    let lines = Lines::new(bytes);
    // The edits by the lines they touch, merged where they share one.
    let mut spans: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new();
    for (i, edit) in edits.iter().enumerate() {
        let range = edit.range();
        let first = lines.of(range.start);
        let last = lines.of(range.end.saturating_sub(1).max(range.start));
        match spans.last_mut() {
            Some((_, span_last, members)) if first <= *span_last => {
                *span_last = (*span_last).max(last);
                members.end = i + 1;
            }
            _ => spans.push((first, last, i..i + 1)),
        }
    }
    let mut regions = Vec::with_capacity(spans.len());
    let mut changes = Vec::new();
    for (first, last, members) in spans {
        let region = lines.start(first)..lines.end(last);
        let mut pieces = Vec::with_capacity(2 * members.len() + 1);
        let mut cursor = region.start;
        for edit in &edits[members] {
            pieces.push(Cow::Borrowed(&bytes[cursor..edit.range().start]));
            pieces.push(edit.replacement(bytes));
            cursor = edit.range().end;
        }
        pieces.push(Cow::Borrowed(&bytes[cursor..region.end]));
        let old: Vec<&[u8]> = bytes[region].split_inclusive(|&b| b == b'\n').collect();
        let new = NewText::new(pieces);
        let index = regions.len();
        changes.extend(
            line_changes::changes(&old, &new)
                .into_iter()
                .map(|change| Placed {
                    region: index,
                    change,
                }),
        );
        regions.push(Region { first, new });
    }
    if changes.is_empty() {
        return Vec::new();
    }
    // Changes whose context would touch share a hunk.
    let mut hunks: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, placed) in changes.iter().enumerate() {
        let start = placed.old(&regions).start;
        match hunks.last_mut() {
            Some(hunk) if start <= changes[hunk.end - 1].old(&regions).end + 2 * CONTEXT => {
                hunk.end = i + 1
            }
            _ => hunks.push(i..i + 1),
        }
    }
    let mut head = b"--- ".to_vec();
    head.extend_from_slice(&header_name("a/", name));
    head.extend_from_slice(b"\n+++ ");
    head.extend_from_slice(&header_name("b/", name));
    head.push(b'\n');
    let write = |out: &mut dyn FnMut(&[Placed], isize)| {
        let mut delta: isize = 0;
        for hunk in &hunks {
            let members = &changes[hunk.clone()];
            out(members, delta);
            for placed in members {
                delta += placed.change.new.len() as isize - placed.change.old.len() as isize;
            }
        }
    };
    let mut size = head.len();
    write(&mut |members, delta| put_hunk(&mut size, bytes, &lines, &regions, members, delta));
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&head);
    write(&mut |members, delta| put_hunk(&mut out, bytes, &lines, &regions, members, delta));
    debug_assert_eq!(
        out.len(),
        size,
        "the diff's size is known before it is written"
    );
    out
}

/// A diff made fit for a terminal: each line escaped (`escape_lossless`:
/// controls, bidi and invisible characters as `\u{..}`, invalid bytes as
/// `\xE9`, a backslash `\\`), so nothing reaches the terminal raw. Not
/// applicable any more: a terminal is for reading.
pub(crate) fn for_terminal(diff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(diff.len());
    for line in diff.split_inclusive(|&b| b == b'\n') {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        out.extend_from_slice(escape_lossless(text).as_bytes());
        if line.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::Edit;

    /// The diff, its invalid bytes read as `?`.
    fn diff(bytes: &[u8], edits: Vec<Edit>) -> String {
        let fix = Fix::safe("test", edits);
        String::from_utf8_lossy(&unified(b"x.txt", bytes, &[&fix])).replace('\u{FFFD}', "?")
    }

    #[test]
    fn hunks_have_three_lines_of_context_and_counts() {
        let text = b"1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let got = diff(text, vec![Edit::replace(8..9, b"five".to_vec())]);
        assert_eq!(
            got,
            "--- a/x.txt\n+++ b/x.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn edits_far_apart_are_two_hunks_and_the_second_is_shifted() {
        let text: Vec<u8> = (1..=20)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        // Line 2 becomes two lines; line 15 is deleted.
        let l2 = 2..3;
        let l15 = text.windows(3).position(|w| w == b"15\n").unwrap();
        let got = diff(
            &text,
            vec![
                Edit::replace(l2, b"2a\n2b".to_vec()),
                Edit::delete(l15..l15 + 3),
            ],
        );
        assert!(
            got.contains("@@ -1,5 +1,6 @@\n 1\n-2\n+2a\n+2b\n 3\n"),
            "{got}"
        );
        assert!(
            got.contains("@@ -12,7 +13,6 @@\n 12\n 13\n 14\n-15\n 16\n"),
            "{got}"
        );
    }

    #[test]
    fn missing_newline_and_empty_sides_are_marked() {
        assert_eq!(
            diff(b"\xEF\xBB\xBF{}", vec![Edit::delete(0..3)]),
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +1,1 @@ only invisible characters or line endings change\n-\u{FEFF}{}\n\\ No newline at end of file\n+{}\n\\ No newline at end of file\n"
        );
        assert_eq!(
            diff(b"\xEF\xBB\xBF", vec![Edit::delete(0..3)]),
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +0,0 @@\n-\u{FEFF}\n\\ No newline at end of file\n"
        );
        assert_eq!(
            diff(b"", vec![Edit::insert(0, b"\xEF\xBB\xBF".to_vec())]),
            "--- a/x.txt\n+++ b/x.txt\n@@ -0,0 +1,1 @@\n+\u{FEFF}\n\\ No newline at end of file\n"
        );
    }

    /// An edit whose lines are mostly the same (a conversion of the whole
    /// file, which leaves ASCII lines as they are) shows only the lines
    /// whose bytes change, in hunks of their own when far apart; an edit
    /// that changes no byte shows nothing.
    #[test]
    fn only_lines_that_change_are_shown() {
        let mut text = b"h\xE9\n".to_vec();
        for i in 2..=12 {
            text.extend_from_slice(format!("{i}\n").as_bytes());
        }
        text.extend_from_slice(b"\xE0\n");
        let mut converted = "hé\n".as_bytes().to_vec();
        converted.extend_from_slice(&text[3..text.len() - 2]);
        converted.extend_from_slice("à\n".as_bytes());
        let whole = Edit::replace(0..text.len(), converted);
        assert_eq!(
            diff(&text, vec![whole]),
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,4 +1,4 @@\n-h\u{FFFD}\n+hé\n 2\n 3\n 4\n@@ -10,4 +10,4 @@\n 10\n 11\n 12\n-\u{FFFD}\n+à\n"
                .replace('\u{FFFD}', "?"),
            "as a test prints it: the old bytes read lossily"
        );
        assert!(diff(b"a\nb\n", vec![Edit::replace(0..4, b"a\nb\n".to_vec())]).is_empty());
        // An empty line next to a changed one is context, not a pair.
        assert_eq!(
            diff(
                b"\xEF\xBB\xBF#\n\nx\n",
                vec![Edit::replace(0..6, b"#\n\n".to_vec())]
            ),
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@ only invisible characters or line endings change\n-\u{FEFF}#\n+#\n \n x\n"
        );
    }

    /// A long line with edits all along it: the diff is the line twice,
    /// its two signs and the headers, reserved once (its capacity is its
    /// length: no buffer grown by doubling, no copy of the new line beside
    /// it), at every size.
    #[test]
    fn a_long_line_costs_its_diff_and_nothing_more() {
        for n in [1 << 8, 1 << 12, 1 << 16] {
            let mut line = b"a\xFFb ".repeat(n);
            line.push(b'\n');
            let edits = (0..n)
                .map(|i| Edit::replace(4 * i + 1..4 * i + 2, "\u{FFFD}".as_bytes().to_vec()))
                .collect();
            let fix = Fix::safe("test", edits);
            let out = unified(b"x.txt", &line, &[&fix]);
            let header = "--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +1,1 @@\n".len();
            // Each edit puts 3 bytes for 1.
            let new_line = line.len() + 2 * n;
            assert_eq!(out.len(), header + 1 + line.len() + 1 + new_line, "{n}");
            assert_eq!(out.capacity(), out.len(), "{n}");
            assert!(out.ends_with("b \n".as_bytes()));
        }
    }

    #[test]
    fn names_git_would_quote_are_quoted_as_git_does() {
        assert_eq!(header_name("a/", b"plain.txt"), b"a/plain.txt");
        assert_eq!(header_name("a/", b"/tmp/x.txt"), b"a/tmp/x.txt");
        assert_eq!(header_name("a/", b"with space"), b"a/with space\t");
        assert_eq!(
            header_name("b/", b"caf\xC3\xA9\t\"\\\x1b.txt"),
            b"\"b/caf\\303\\251\\t\\\"\\\\\\033.txt\""
        );
    }

    #[test]
    fn terminal_output_is_escaped() {
        assert_eq!(
            for_terminal(b"-a\x1b[31m\xFF\n+b\n"),
            b"-a\\u{1B}[31m\\xFF\n+b\n"
        );
    }
}
