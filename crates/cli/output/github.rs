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
    fn escaping() {
        assert_eq!(data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
