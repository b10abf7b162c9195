//! Mojibake quoted on purpose in documentation: a CHANGELOG that says
//! which bug it fixed (`` fix the `Ã©` shown for `é` ``), a page that
//! shows what the damage looks like. Such a run is not reported: the
//! text is right as it stands, and a finding would fail every check of
//! the file until someone allows the rule for it.
//!
//! A run is quoted when, in a documentation file ([`is_documentation`]),
//! it is inside inline code (a Markdown code span of any number of
//! backticks, reST's ``` ``literal`` ```), inside a fenced code block
//! (```` ``` ```` or `~~~`), or is all a quotation holds (`"Ã©"`,
//! `“â€™”`, `'Ã¼'`). Prose of those files, and every other file, is
//! judged as usual: `cafÃ©` in a README's sentence is damage.

use std::ops::Range;
use std::path::Path;

/// Extensions of documentation files.
const DOC_EXTENSIONS: &[&str] = &[
    "md", "markdown", "mdown", "mkd", "mdx", "rst", "rest", "adoc", "asciidoc",
];

/// Stems of release notes and change logs, which quote the damage they
/// fixed (`CHANGELOG`, `CHANGES.txt`, `NEWS`, `HISTORY.md`...).
const CHANGE_LOGS: &[&str] = &[
    "changelog",
    "changes",
    "news",
    "history",
    "release-notes",
    "release_notes",
    "releasenotes",
];

/// Whether `path` is a documentation file: Markdown, reST or AsciiDoc by
/// extension, or a change log by name.
pub(crate) fn is_documentation(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if DOC_EXTENSIONS.iter().any(|d| d.eq_ignore_ascii_case(ext)) {
        return true;
    }
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    CHANGE_LOGS.contains(&stem.as_str())
}

/// What U008 knows of a documentation file's quoting as its runs come
/// in order: where its fenced code blocks are (read once from the start)
/// and the code spans of the line of the last run. So each byte of the
/// file is read a bounded number of times, however many runs it holds.
#[derive(Debug, Default)]
pub(crate) struct Quoting {
    /// The offset up to which the file was read for fences: a line start.
    read_to: usize,
    /// The fence open there: its character and length.
    open: Option<(u8, usize)>,
    /// The last run's line, and the code spans in it (offsets in the
    /// file).
    line: Range<usize>,
    spans: Vec<Range<usize>>,
}

impl Quoting {
    /// Whether the line starting at `line_start` is inside a fenced block
    /// (or is a fence).
    fn in_fence(&mut self, bytes: &[u8], line_start: usize) -> bool {
        if line_start < self.read_to {
            self.read_to = 0;
            self.open = None;
        }
        while self.read_to < line_start {
            let end = memchr::memchr(b'\n', &bytes[self.read_to..line_start])
                .map_or(line_start, |k| self.read_to + k + 1);
            let line = &bytes[self.read_to..end];
            if let Some((c, n)) = fence(line) {
                self.open = match self.open {
                    None => Some((c, n)),
                    // A closing fence: the same character, at least as
                    // long, nothing after it.
                    Some((o, m)) if o == c && n >= m && rest_is_blank(line, n) => None,
                    open => open,
                };
            }
            self.read_to = end;
        }
        self.open.is_some() || fence(line_at(bytes, line_start)).is_some()
    }

    /// The line around `span` and its code spans, found once per line.
    fn line_of(&mut self, bytes: &[u8], span: &Range<usize>) -> Range<usize> {
        if !(self.line.start <= span.start && span.end <= self.line.end && !self.line.is_empty()) {
            let start = memchr::memrchr(b'\n', &bytes[..span.start]).map_or(0, |k| k + 1);
            let end =
                memchr::memchr(b'\n', &bytes[span.end..]).map_or(bytes.len(), |k| span.end + k);
            self.line = start..end;
            self.spans = code_spans(&bytes[start..end])
                .into_iter()
                .map(|r| start + r.start..start + r.end)
                .collect();
        }
        self.line.clone()
    }

    fn in_code_span(&self, span: &Range<usize>) -> bool {
        let k = self.spans.partition_point(|r| r.end < span.end);
        self.spans
            .get(k)
            .is_some_and(|r| r.start <= span.start && span.end <= r.end)
    }
}

/// The line of `bytes` that starts at `start`, without its line feed.
fn line_at(bytes: &[u8], start: usize) -> &[u8] {
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
    &bytes[start..end]
}

/// The fence a line opens or closes (three or more backticks or tildes
/// after at most three spaces): its character and length.
fn fence(line: &[u8]) -> Option<(u8, usize)> {
    let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = *rest.first().filter(|&&c| c == b'`' || c == b'~')?;
    let n = rest.iter().take_while(|&&b| b == c).count();
    (n >= 3).then_some((c, indent + n))
}

fn rest_is_blank(line: &[u8], from: usize) -> bool {
    line[from.min(line.len())..]
        .iter()
        .all(|b| b.is_ascii_whitespace())
}

/// The code spans of a line (what is between their backticks): a string
/// of backticks, then the next string of the same length (reST's
/// ``` `` ``` pairs are such spans too); a string that no later one
/// closes is text. Linear in the line: each string's closer is found
/// from the right in one pass.
fn code_spans(line: &[u8]) -> Vec<Range<usize>> {
    let mut strings: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'`', &line[i..]) {
        let at = i + k;
        let n = line[at..].iter().take_while(|&&b| b == b'`').count();
        strings.push((at, n));
        i = at + n;
    }
    // The next string of the same length after each, read from the right.
    let mut next_same = vec![None; strings.len()];
    let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (k, &(_, n)) in strings.iter().enumerate().rev() {
        next_same[k] = last.get(&n).copied();
        last.insert(n, k);
    }
    let mut spans = Vec::new();
    let mut k = 0;
    while k < strings.len() {
        match next_same[k] {
            Some(close) => {
                let (open, n) = strings[k];
                spans.push(open + n..strings[close].0);
                k = close + 1;
            }
            None => k += 1,
        }
    }
    spans
}

/// Whether the run is all that a pair of quotes holds on its line.
fn is_quotation(line: &str, run: Range<usize>) -> bool {
    let before = line[..run.start].trim_end_matches(' ').chars().next_back();
    let after = line[run.end..].trim_start_matches(' ').chars().next();
    matches!(
        (before, after),
        (Some('"'), Some('"'))
            | (Some('\''), Some('\''))
            | (Some('“'), Some('”'))
            | (Some('‘'), Some('’'))
            | (Some('«'), Some('»'))
            | (Some('„'), Some('“'))
    )
}

/// Whether the run at `span` of `bytes` is quoted on purpose, in a file
/// at `path`: see the module's page. `quoting` carries what was read for
/// the runs before this one.
pub(crate) fn is_quoted(
    bytes: &[u8],
    path: &Path,
    span: &Range<usize>,
    quoting: &mut Quoting,
) -> bool {
    if !is_documentation(path) {
        return false;
    }
    let line = quoting.line_of(bytes, span);
    if quoting.in_code_span(span) || quoting.in_fence(bytes, line.start) {
        return true;
    }
    // A quotation is short: its quotes are read near the run.
    let from = line.start.max(span.start.saturating_sub(8));
    let to = line.end.min(span.end + 8);
    let (base, near) = super::high_bytes::window(bytes, from, to);
    span.start
        .checked_sub(base)
        .is_some_and(|at| near.is_char_boundary(at) && near.len() >= at + span.len())
        && is_quotation(near, span.start - base..span.end - base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str, path: &str, needle: &str) -> bool {
        let at = text.find(needle).unwrap();
        let span = at..at + needle.len();
        is_quoted(
            text.as_bytes(),
            Path::new(path),
            &span,
            &mut Quoting::default(),
        )
    }

    #[test]
    fn code_spans_fences_and_quotations_in_documentation_are_quoted() {
        assert!(quoted(
            "- Fix the `Ã©` shown in titles\n",
            "CHANGELOG.md",
            "Ã©"
        ));
        assert!(quoted("- Fix the ``Ã©`` shown\n", "NEWS.rst", "Ã©"));
        assert!(quoted("a ``code `Ã©` span`` here\n", "doc.md", "Ã©"));
        assert!(quoted(
            "Before:\n\n```text\ncafÃ©\n```\n",
            "README.md",
            "Ã©"
        ));
        assert!(quoted("~~~~\nx\n```\ncafÃ©\n~~~~\n", "README.md", "Ã©"));
        assert!(quoted("titles showed \"Ã©\" for é\n", "CHANGES", "Ã©"));
        assert!(quoted("titles showed “â€™” for ’\n", "HISTORY.txt", "â€™"));
    }

    #[test]
    fn prose_and_other_files_are_not() {
        assert!(!quoted(
            "Thanks to JosÃ© for the patch\n",
            "CHANGELOG.md",
            "Ã©"
        ));
        assert!(!quoted("```\nx\n```\ncafÃ©\n", "README.md", "Ã©"));
        assert!(!quoted("an unclosed ` before cafÃ©\n", "README.md", "Ã©"));
        assert!(!quoted("- Fix the `Ã©` shown\n", "src/main.rs", "Ã©"));
        assert!(!quoted("say \"cafÃ© au lait\"\n", "README.md", "Ã©"));
    }

    /// Each byte before a run is read once, however many runs there are.
    #[test]
    fn fences_are_read_once() {
        let text = "```\nÃ©\n```\nÃ©\n".repeat(3);
        let mut quoting = Quoting::default();
        let mut inside = Vec::new();
        for (at, _) in text.match_indices("Ã©") {
            inside.push(is_quoted(
                text.as_bytes(),
                Path::new("a.md"),
                &(at..at + 4),
                &mut quoting,
            ));
        }
        assert_eq!(inside, [true, false, true, false, true, false]);
    }
}
