//! `--format junit`: one JUnit XML test suite, `utf8lint`, with a test
//! case per finding (a `failure`: the rule, the message and where) and
//! per trouble (an `error`); a run with neither has one passing case, so
//! that a CI's test report says the check ran. Each file's cases are
//! rendered, one per line, by the worker that checked it; the suite's
//! counts are known once every file is, so the cases wait in a
//! temporary file (`Spool`) until then.
//!
//! Everything from outside (names, messages) is escaped twice: hidden
//! characters written visibly (`escape_shown`), then XML's five
//! characters and whatever XML 1.0 cannot hold at all.

use std::fmt::Write as _;
use std::io::{self, Write as _};

use utf8lint_diagnostics::{Diagnostic, escape_shown};

use super::place::{Region, is_file_level};
use crate::spool::Spool;
use crate::trouble::Trouble;

/// Text made fit for XML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in escape_shown(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // Not a character XML 1.0 allows, even as a reference.
            c if (c as u32) < 0x20 || matches!(c as u32, 0xFFFE | 0xFFFF) => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// One finding's test case, on one line (no newline).
pub(super) fn case(d: &Diagnostic, path: &str, region: &Region) -> String {
    let place = if is_file_level(d) {
        String::new()
    } else {
        format!(":{}:{}", region.start.line, region.start.column)
    };
    let mut headline = format!(
        "{path}{place}: {}[{}] {}",
        d.level.as_str(),
        d.rule.code(),
        d.message
    );
    if !d.label.is_empty() {
        headline.push_str(&format!(" ({})", d.label));
    }
    let notes = d.notes.iter().map(|note| format!("note: {note}"));
    let helps = d.help.iter().map(|help| format!("help: {help}"));
    // Line by line: a newline of ours is a line break, never escaped away.
    let detail: Vec<String> = std::iter::once(headline)
        .chain(notes)
        .chain(helps)
        .map(|line| escape(&line))
        .collect();
    let line = if is_file_level(d) {
        String::new()
    } else {
        format!(" line=\"{}\"", region.start.line)
    };
    format!(
        "<testcase name=\"{code} {name}{place}\" classname=\"{file}\" file=\"{file}\"{line}><failure type=\"{code}\" message=\"{message}\">{detail}</failure></testcase>",
        code = d.rule.code(),
        name = d.rule.name(),
        place = escape(&place),
        file = escape(path),
        message = escape(&d.message),
        detail = detail.join("&#10;"),
    )
}

/// The suite being gathered: its cases, counted, kept on disk until the
/// counts the suite's head carries are known.
#[derive(Default)]
pub(crate) struct Suite {
    cases: Spool,
    failures: usize,
    errors: usize,
}

impl Suite {
    /// A file's cases, as its worker rendered them.
    pub(crate) fn push(&mut self, cases: &str) -> io::Result<()> {
        self.failures += cases.lines().count();
        self.cases.write_all(cases.as_bytes())
    }

    /// A trouble, as an error case.
    pub(crate) fn trouble(&mut self, t: &Trouble) -> io::Result<()> {
        self.errors += 1;
        let text = escape(&t.text());
        writeln!(
            self.cases,
            "<testcase name=\"utf8lint trouble\" classname=\"utf8lint\"><error message=\"{text}\">{text}</error></testcase>"
        )
    }

    /// The whole document.
    pub(crate) fn finish(self, out: &mut dyn io::Write) -> io::Result<()> {
        let tests = (self.failures + self.errors).max(1);
        let counts = format!(
            "tests=\"{tests}\" failures=\"{}\" errors=\"{}\"",
            self.failures, self.errors
        );
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"utf8lint\" {counts}>\n<testsuite name=\"utf8lint\" {counts}>\n"
        )?;
        if self.failures + self.errors == 0 {
            out.write_all(b"<testcase name=\"no findings\" classname=\"utf8lint\"/>\n")?;
        }
        self.cases.copy_to(out)?;
        out.write_all(b"</testsuite>\n</testsuites>\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_text_is_escaped_for_xml() {
        assert_eq!(escape("a<b>&\"c'\n"), "a&lt;b&gt;&amp;&quot;c&apos;\\u{A}");
        assert!(!escape("\u{1}\u{FFFE}x").contains(['\u{1}', '\u{FFFE}']));
    }
}
