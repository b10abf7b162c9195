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

/// Where the fenced code blocks of a file are, read once from its start
/// as the runs come in order (each byte is read once whatever the number
/// of runs).
#[derive(Debug, Default)]
pub(crate) struct Fences {
    /// The offset up to which the file was read: the start of a line.
    read_to: usize,
    /// The open fence there: its character and length.
    open: Option<(u8, usize)>,
}

impl Fences {
    /// Whether the line starting at `line_start` (a line's first byte,
    /// at or after the last one asked about) is inside a fenced block.
    fn inside(&mut self, bytes: &[u8], line_start: usize) -> bool {
        if line_start < self.read_to {
            *self = Fences::default();
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

/// Whether `run` (a span of `bytes`, one line) is inside a Markdown code
/// span of its line: a string of backticks, then the next string of the
/// same length (reST's ``` `` ``` pairs are such spans too).
fn in_code_span(line: &[u8], run: Range<usize>) -> bool {
    let ticks = |at: usize| line[at..].iter().take_while(|&&b| b == b'`').count();
    let mut i = 0;
    while i < line.len() {
        if line[i] != b'`' {
            i += 1;
            continue;
        }
        let n = ticks(i);
        let open_end = i + n;
        let mut j = open_end;
        let close = loop {
            match line[j..].iter().position(|&b| b == b'`') {
                None => break None,
                Some(k) => {
                    let m = ticks(j + k);
                    if m == n {
                        break Some(j + k);
                    }
                    j += k + m;
                }
            }
        };
        let Some(close) = close else {
            // No closing string: these backticks are text.
            i = open_end;
            continue;
        };
        if open_end <= run.start && run.end <= close {
            return true;
        }
        i = close + n;
    }
    false
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
/// at `path`: see the module's page.
pub(crate) fn is_quoted(
    bytes: &[u8],
    path: &Path,
    span: &Range<usize>,
    fences: &mut Fences,
) -> bool {
    if !is_documentation(path) {
        return false;
    }
    let start = memchr::memrchr(b'\n', &bytes[..span.start]).map_or(0, |k| k + 1);
    let end = memchr::memchr(b'\n', &bytes[span.end..]).map_or(bytes.len(), |k| span.end + k);
    let run = span.start - start..span.end - start;
    let line = &bytes[start..end];
    if in_code_span(line, run.clone()) || fences.inside(bytes, start) {
        return true;
    }
    std::str::from_utf8(line).is_ok_and(|line| is_quotation(line, run))
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
            &mut Fences::default(),
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
        let mut fences = Fences::default();
        let mut inside = Vec::new();
        for (at, _) in text.match_indices("Ã©") {
            inside.push(is_quoted(
                text.as_bytes(),
                Path::new("a.md"),
                &(at..at + 4),
                &mut fences,
            ));
        }
        assert_eq!(inside, [true, false, true, false, true, false]);
    }
}
