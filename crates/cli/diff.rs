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

/// How many lines `region` holds for a hunk header: its `\n`s, and one
/// more for a last line without one.
fn count_lines(region: &[u8]) -> usize {
    let newlines = memchr_iter(b'\n', region).count();
    newlines + usize::from(region.last().is_some_and(|&b| b != b'\n'))
}

/// Appends `region`'s lines, each after `sign`; a last line without `\n`
/// gets one and the marker `patch` and `git apply` expect.
fn push_lines(out: &mut Vec<u8>, sign: u8, region: &[u8]) {
    for line in region.split_inclusive(|&b| b == b'\n') {
        out.push(sign);
        out.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
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
/// Empty when there is nothing to fix.
pub(crate) fn unified(name: &[u8], bytes: &[u8], fixes: &[&Fix]) -> Vec<u8> {
    let edits: Vec<_> = fixes.iter().flat_map(|f| f.edits()).collect();
    if edits.is_empty() {
        return Vec::new();
    }
    let lines = Lines::new(bytes);
    // Each edit's lines, merged into hunks whose context would touch.
    let mut hunks: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new();
    for (i, edit) in edits.iter().enumerate() {
        let range = edit.range();
        let first = lines.of(range.start);
        let last = lines.of(range.end.saturating_sub(1).max(range.start));
        match hunks.last_mut() {
            Some((_, hunk_last, members)) if first <= *hunk_last + 2 * CONTEXT + 1 => {
                *hunk_last = (*hunk_last).max(last);
                members.end = i + 1;
            }
            _ => hunks.push((first, last, i..i + 1)),
        }
    }
    let mut out = Vec::new();
    out.extend_from_slice(b"--- ");
    out.extend_from_slice(&header_name("a/", name));
    out.extend_from_slice(b"\n+++ ");
    out.extend_from_slice(&header_name("b/", name));
    out.push(b'\n');
    // New-file lines minus old-file lines so far.
    let mut delta: isize = 0;
    for (first, last, members) in hunks {
        let from = first.saturating_sub(CONTEXT);
        let to = (last + CONTEXT).min(lines.last());
        let before = &bytes[lines.start(from)..lines.start(first)];
        let changed = lines.start(first)..lines.end(last);
        let after = &bytes[changed.end..lines.end(to)];
        let old = &bytes[changed.clone()];
        let mut new = Vec::with_capacity(old.len());
        let mut cursor = changed.start;
        for edit in &edits[members] {
            new.extend_from_slice(&bytes[cursor..edit.range().start]);
            new.extend_from_slice(&edit.replacement(bytes));
            cursor = edit.range().end;
        }
        new.extend_from_slice(&bytes[cursor..changed.end]);
        let context = count_lines(before) + count_lines(after);
        let old_count = context + count_lines(old);
        let new_count = context + count_lines(&new);
        // A side with no lines names the line before it (`-0,0`).
        let old_start = from + usize::from(old_count > 0);
        let new_start = (from as isize + delta) as usize + usize::from(new_count > 0);
        out.extend_from_slice(
            format!("@@ -{old_start},{old_count} +{new_start},{new_count} @@\n").as_bytes(),
        );
        push_lines(&mut out, b' ', before);
        push_lines(&mut out, b'-', old);
        push_lines(&mut out, b'+', &new);
        push_lines(&mut out, b' ', after);
        delta += new_count as isize - old_count as isize;
    }
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
