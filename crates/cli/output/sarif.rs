//! `--format sarif`: one SARIF 2.1.0 log, as GitHub code scanning accepts
//! it: every rule with its descriptions, markdown help and URL; results
//! with repo-relative URIs (relative to the working directory) and regions.
//! Columns count code points of the lossily decoded line, which is what
//! `columnKind: unicodeCodePoints` says.
//!
//! The log is written as the reports arrive ([`LogWriter`]): each result
//! pretty-printed at its depth into a temporary file, since the log's
//! invocation (whether the run succeeded, its notifications) comes before
//! the results and is known only at the end; the few notifications are
//! held. The bytes are those of [`log`] serialized whole.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, Level, Rule, escape_shown};

use super::names::{display_path, uri_of};
use super::place::{Region, is_file_level};
use crate::spool::Spool;
use crate::trouble::Trouble;

pub(crate) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(level: Level) -> &'static str {
    match level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "none",
    }
}

pub(crate) fn result(d: &Diagnostic, uri: &str, region: &Region) -> Value {
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push_str(&format!(": {}", d.label));
    }
    let mut location = json!({"artifactLocation": {"uri": uri}});
    if !is_file_level(d) {
        location["region"] = json!({
            "startLine": region.start.line,
            "startColumn": region.start.column,
            "endLine": region.end.line,
            "endColumn": region.end.column,
            "byteOffset": d.span.start,
            "byteLength": d.span.end - d.span.start,
        });
    }
    let mut result = json!({
        "ruleId": d.rule.code(),
        "ruleIndex": d.rule.index(),
        "level": level(d.level),
        "message": {"text": message},
        "locations": [{"physicalLocation": location}],
    });
    if !d.related.is_empty() {
        // U005's other ill-formed stretches, as byte regions (what JSON's
        // `related` lists). GitHub code scanning keeps at most 1,000
        // related locations per result; the count says how many there are.
        result["relatedLocations"] = d
            .related
            .iter()
            .take(MAX_RELATED_LOCATIONS)
            .enumerate()
            .map(|(id, range)| {
                json!({
                    "id": id + 1,
                    "message": {"text": "ill-formed UTF-8"},
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"byteOffset": range.start, "byteLength": range.end - range.start},
                    },
                })
            })
            .collect();
        result["properties"] = json!({"relatedCount": d.related.len()});
    }
    result
}

/// Related locations written per result: GitHub code scanning's limit.
const MAX_RELATED_LOCATIONS: usize = 1000;

/// The first paragraph under `## What it does`, else the summary.
fn what_it_does(rule: Rule) -> String {
    let text = rule.explanation();
    let mut lines = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("## What it does"));
    if lines.next().is_some() {
        let para: Vec<&str> = lines
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        if !para.is_empty() {
            return para.join(" ");
        }
    }
    format!("{}.", rule.summary())
}

fn rule_descriptor(rule: Rule) -> Value {
    json!({
        "id": rule.code(),
        "name": rule.name(),
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": what_it_does(rule)},
        "help": {"text": rule.explanation(), "markdown": rule.explanation()},
        "helpUri": rule.url(),
        "defaultConfiguration": {"level": level(rule.default_level())},
        "properties": {"tags": ["encoding", "utf-8"]},
    })
}

/// A trouble as a tool execution notification: its sentence (escaped as
/// on standard error) and, when it is about a path, that path's location.
pub(crate) fn notification(trouble: &Trouble, cwd: Option<&Path>) -> Value {
    let mut note = json!({
        "level": "error",
        "message": {"text": escape_shown(&trouble.text())},
    });
    if let Some(path) = trouble.path() {
        let uri = uri_of(cwd, path, &display_path(path).1);
        note["locations"] = json!([{"physicalLocation": {"artifactLocation": {"uri": uri}}}]);
    }
    note
}

/// The whole log, as one value.
pub(crate) fn log(results: Vec<Value>, successful: bool, notes: Vec<Value>) -> Value {
    let rules: Vec<Value> = Rule::ALL.iter().map(|r| rule_descriptor(*r)).collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "utf8lint",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": successful,
                "toolExecutionNotifications": notes,
            }],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// Where `serde_json`'s pretty printer puts an element of `results`:
/// four levels down (the log, `runs`, the run, `results`), two spaces each.
const RESULT_INDENT: &[u8] = b"        ";

/// The key the results are written under, as the pretty printer writes it
/// with no result.
const NO_RESULTS: &str = "\"results\": []";

/// A SARIF log written result by result: the results wait in a temporary
/// file, the notifications in memory, until the run's end writes the log.
#[derive(Default)]
pub(crate) struct LogWriter {
    results: Spool,
    notes: Vec<Value>,
}

impl LogWriter {
    /// One result, pretty-printed as it stands in the whole log.
    pub(crate) fn result(&mut self, result: &Value) -> io::Result<()> {
        if !self.results.is_empty() {
            self.results.write_all(b",\n")?;
        }
        self.results.write_all(RESULT_INDENT)?;
        let mut indented = Indented {
            out: &mut self.results,
            indent: RESULT_INDENT,
        };
        serde_json::to_writer_pretty(&mut indented, result).map_err(io::Error::other)
    }

    /// One tool execution notification.
    pub(crate) fn note(&mut self, note: Value) {
        self.notes.push(note);
    }

    /// The log: its head with the invocation, the results, its tail.
    pub(crate) fn finish(self, successful: bool, out: &mut dyn Write) -> io::Result<()> {
        // The pretty printer writes everything but the results, so that
        // every byte outside them is its own.
        let text = serde_json::to_string_pretty(&log(Vec::new(), successful, self.notes))
            .map_err(io::Error::other)?;
        let Some(at) = text.rfind(NO_RESULTS) else {
            return Err(io::Error::other("the SARIF log has no results"));
        };
        let (head, tail) = (&text[..at], &text[at + NO_RESULTS.len()..]);
        out.write_all(head.as_bytes())?;
        if self.results.is_empty() {
            out.write_all(NO_RESULTS.as_bytes())?;
        } else {
            out.write_all(b"\"results\": [\n")?;
            self.results.copy_to(out)?;
            out.write_all(b"\n")?;
            out.write_all(&RESULT_INDENT[2..])?;
            out.write_all(b"]")?;
        }
        out.write_all(tail.as_bytes())?;
        out.write_all(b"\n")
    }
}

/// A writer that indents every line after the first: JSON's strings hold
/// no raw newline, so each newline the pretty printer writes starts a line.
struct Indented<'a> {
    out: &'a mut dyn Write,
    indent: &'static [u8],
}

impl Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match buf.iter().position(|&b| b == b'\n') {
            Some(newline) => {
                self.out.write_all(&buf[..=newline])?;
                self.out.write_all(self.indent)?;
                Ok(newline + 1)
            }
            None => {
                self.out.write_all(buf)?;
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(results: Vec<Value>, successful: bool, notes: Vec<Value>) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(&log(results, successful, notes)).unwrap();
        bytes.push(b'\n');
        bytes
    }

    fn streamed(results: &[Value], successful: bool, notes: Vec<Value>) -> Vec<u8> {
        let mut writer = LogWriter::default();
        for result in results {
            writer.result(result).unwrap();
        }
        for note in notes {
            writer.note(note);
        }
        let mut bytes = Vec::new();
        writer.finish(successful, &mut bytes).unwrap();
        bytes
    }

    #[test]
    fn the_streamed_log_is_the_whole_log_byte_for_byte() {
        let results: Vec<Value> = (0..300)
            .map(|i| {
                json!({
                    "ruleId": "U001",
                    "message": {"text": format!("line {i}\n\\ \"quoted\" \u{1b}[31m \u{feff} \"results\": []")},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a\nb.txt"}}}],
                    "relatedLocations": [],
                    "properties": {"nested": [[], {}, [1, [2, {"k": "v"}]]]},
                })
            })
            .collect();
        let notes = vec![json!({"level": "error", "message": {"text": "cannot read\n\"x\""}})];
        for (n, successful) in [(0, true), (1, false), (300, true)] {
            let notes = if successful {
                Vec::new()
            } else {
                notes.clone()
            };
            let expected = whole(results[..n].to_vec(), successful, notes.clone());
            assert_eq!(
                String::from_utf8(streamed(&results[..n], successful, notes)).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
    }

    #[test]
    fn results_are_not_held_in_memory() {
        let mut writer = LogWriter::default();
        let result = json!({"ruleId": "U001", "message": {"text": "x".repeat(100)}});
        for _ in 0..20_000 {
            writer.result(&result).unwrap();
        }
        // Two megabytes written, one buffer held, no value kept.
        assert!(writer.results.len() > 2_000_000);
        assert_eq!(writer.results.held(), 64 * 1024);
        assert_eq!(writer.notes.capacity(), 0);
    }
}
