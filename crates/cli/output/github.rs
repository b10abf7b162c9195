//! `--format github`: GitHub Actions workflow commands, one per diagnostic:
//! `::error file=src/a.rs,line=3,col=5,endLine=3,endColumn=6,title=U001 invalid_utf8::message`.
//! GitHub needs `%`, CR and LF escaped everywhere, and `:` and `,` too in
//! property values.

use utf8lint_diagnostics::{Diagnostic, Level, escape_shown};

use super::names::display_path;
use super::place::{Region, is_file_level};
use crate::trouble::Trouble;

pub(super) fn line(d: &Diagnostic, path: &str, region: &Region) -> String {
    let command = match d.level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "notice",
    };
    let mut props = format!("file={}", property(path));
    if !is_file_level(d) {
        props.push_str(&format!(
            ",line={},col={}",
            region.start.line, region.start.column
        ));
        props.push_str(&format!(",endLine={}", region.end.line));
        if region.end.line == region.start.line {
            props.push_str(&format!(",endColumn={}", region.end.column));
        }
    }
    let title = format!("{} {}", d.rule.code(), d.rule.name());
    props.push_str(&format!(",title={}", property(&title)));
    // Controls and bidi characters are neutralised before GitHub's own
    // escaping, so a log viewer never sees them raw.
    let mut message = escape_shown(&d.message);
    if !d.label.is_empty() {
        message.push_str(&format!(" ({})", escape_shown(&d.label)));
    }
    format!("::{command} {props}::{}", data(&message))
}

/// A trouble as an error annotation (`::error file=src/a.txt,title=utf8lint
/// trouble::...`), on the file when it is about one.
pub(crate) fn trouble(t: &Trouble) -> String {
    let mut props = String::new();
    if let Some(path) = t.path() {
        props.push_str(&format!("file={},", property(&display_path(path).0)));
    }
    props.push_str("title=utf8lint trouble");
    format!("::error {props}::{}\n", data(&escape_shown(&t.text())))
}

/// GitHub annotates at most this many errors, and as many warnings, per
/// step (and 50 per job); the rest are in the step's log only.
const ANNOTATED_PER_STEP: u64 = 10;

/// A last notice when GitHub will not annotate every finding (`errors`
/// and `warnings`, the run's counts): how many there are and where to see
/// them all; empty when it will.
pub(crate) fn notice(errors: u64, warnings: u64) -> String {
    if errors <= ANNOTATED_PER_STEP && warnings <= ANNOTATED_PER_STEP {
        return String::new();
    }
    format!(
        "::notice title=utf8lint::{errors} error{} and {warnings} warning{}: GitHub annotates at most {ANNOTATED_PER_STEP} of each per step; the step's log lists them all, and --format sarif uploaded to code scanning shows every one\n",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
    )
}

/// Escapes a message (the part after `::`).
pub(super) fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value.
pub(super) fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_says_when_github_shows_only_some() {
        assert_eq!(notice(10, 10), "");
        let notice = notice(11, 1);
        assert!(notice.starts_with("::notice title=utf8lint::11 errors and 1 warning: "));
        assert!(notice.ends_with("shows every one\n"));
    }

    #[test]
    fn escaping() {
        assert_eq!(data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
