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

use memchr::memchr_iter;
use utf8lint_diagnostics::{Fix, escape_lossless};

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

    fn last(&self) -> usize {
        self.starts.len() - 1
    }

    fn start(&self, line: usize) -> usize {
        self.starts[line]
    }

    /// The end of `line`, its `\n` included.
    fn end(&self, line: usize) -> usize {
        self.starts.get(line + 1).copied().unwrap_or(self.len)
    }
}

/// How many lines `pieces` (a region, in pieces) hold for a hunk header:
/// their `\n`s, and one more for a last line without one.
fn count_lines(pieces: &[&[u8]]) -> usize {
    let newlines: usize = pieces.iter().map(|p| memchr_iter(b'\n', p).count()).sum();
    let last = pieces.iter().rev().find_map(|p| p.last());
    newlines + usize::from(last.is_some_and(|&b| b != b'\n'))
}

/// The marker `patch` and `git apply` expect after a last line without
/// `\n` (which gets one).
const NO_NEWLINE: &[u8] = b"\n\\ No newline at end of file\n";

/// How many bytes [`push_lines`] writes for `pieces`.
fn lines_len(pieces: &[&[u8]]) -> usize {
    let bytes: usize = pieces.iter().map(|p| p.len()).sum();
    let last = pieces.iter().rev().find_map(|p| p.last());
    let marker = if last.is_some_and(|&b| b != b'\n') {
        NO_NEWLINE.len()
    } else {
        0
    };
    bytes + count_lines(pieces) + marker
}

/// Appends the lines of `pieces` (one region, in pieces: a line may run
/// across them), each after `sign`; a last line without `\n` gets one and
/// [`NO_NEWLINE`]'s marker. The pieces are copied once, into `out`.
fn push_lines(out: &mut Vec<u8>, sign: u8, pieces: &[&[u8]]) {
    let mut line_start = true;
    for piece in pieces {
        for segment in piece.split_inclusive(|&b| b == b'\n') {
            if line_start {
                out.push(sign);
            }
            out.extend_from_slice(segment);
            line_start = segment.ends_with(b"\n");
        }
    }
    if !line_start {
        out.extend_from_slice(NO_NEWLINE);
    }
}

/// One hunk, planned: its header and its four regions, the new lines as
/// pieces of the file and the edits' replacements (never gathered into
/// one copy: a 64 MiB line with one edit is the line twice in the diff,
/// and nothing more).
struct Hunk<'a> {
    header: String,
    before: &'a [u8],
    old: &'a [u8],
    new: Vec<std::borrow::Cow<'a, [u8]>>,
    after: &'a [u8],
}

impl Hunk<'_> {
    fn new_pieces(&self) -> Vec<&[u8]> {
        self.new.iter().map(|p| &p[..]).collect()
    }

    /// The bytes it takes in the diff.
    fn len(&self) -> usize {
        self.header.len()
            + lines_len(&[self.before])
            + lines_len(&[self.old])
            + lines_len(&self.new_pieces())
            + lines_len(&[self.after])
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.header.as_bytes());
        push_lines(out, b' ', &[self.before]);
        push_lines(out, b'-', &[self.old]);
        push_lines(out, b'+', &self.new_pieces());
        push_lines(out, b' ', &[self.after]);
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
/// Empty when there is nothing to fix. Its size is known before it is
/// written, and reserved once: the work and the memory are the diff's
/// bytes, however long its lines.
pub(crate) fn unified(name: &[u8], bytes: &[u8], fixes: &[&Fix]) -> Vec<u8> {
    let edits: Vec<_> = fixes.iter().flat_map(|f| f.edits()).collect();
    if edits.is_empty() {
        return Vec::new();
    }
    let lines = Lines::new(bytes);
    // Each edit's lines, merged into hunks whose context would touch.
    let mut spans: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new();
    for (i, edit) in edits.iter().enumerate() {
        let range = edit.range();
        let first = lines.of(range.start);
        let last = lines.of(range.end.saturating_sub(1).max(range.start));
        match spans.last_mut() {
            Some((_, span_last, members)) if first <= *span_last + 2 * CONTEXT + 1 => {
                *span_last = (*span_last).max(last);
                members.end = i + 1;
            }
            _ => spans.push((first, last, i..i + 1)),
        }
    }
    let mut head = b"--- ".to_vec();
    head.extend_from_slice(&header_name("a/", name));
    head.extend_from_slice(b"\n+++ ");
    head.extend_from_slice(&header_name("b/", name));
    head.push(b'\n');
    // New-file lines minus old-file lines so far.
    let mut delta: isize = 0;
    let mut hunks = Vec::with_capacity(spans.len());
    for (first, last, members) in spans {
        let from = first.saturating_sub(CONTEXT);
        let to = (last + CONTEXT).min(lines.last());
        let before = &bytes[lines.start(from)..lines.start(first)];
        let changed = lines.start(first)..lines.end(last);
        let after = &bytes[changed.end..lines.end(to)];
        let old = &bytes[changed.clone()];
        let mut new = Vec::with_capacity(2 * members.len() + 1);
        let mut cursor = changed.start;
        for edit in &edits[members] {
            new.push(std::borrow::Cow::Borrowed(
                &bytes[cursor..edit.range().start],
            ));
            new.push(edit.replacement(bytes));
            cursor = edit.range().end;
        }
        new.push(std::borrow::Cow::Borrowed(&bytes[cursor..changed.end]));
        let new_pieces: Vec<&[u8]> = new.iter().map(|p| &p[..]).collect();
        let context = count_lines(&[before]) + count_lines(&[after]);
        let old_count = context + count_lines(&[old]);
        let new_count = context + count_lines(&new_pieces);
        // A side with no lines names the line before it (`-0,0`).
        let old_start = from + usize::from(old_count > 0);
        let new_start = (from as isize + delta) as usize + usize::from(new_count > 0);
        delta += new_count as isize - old_count as isize;
        hunks.push(Hunk {
            header: format!("@@ -{old_start},{old_count} +{new_start},{new_count} @@\n"),
            before,
            old,
            new,
            after,
        });
    }
    let size = head.len() + hunks.iter().map(Hunk::len).sum::<usize>();
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&head);
    for hunk in &hunks {
        hunk.write(&mut out);
    }
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

    fn diff(bytes: &[u8], edits: Vec<Edit>) -> String {
        let fix = Fix::safe("test", edits);
        String::from_utf8(unified(b"x.txt", bytes, &[&fix])).unwrap()
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
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +1,1 @@\n-\u{FEFF}{}\n\\ No newline at end of file\n+{}\n\\ No newline at end of file\n"
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
