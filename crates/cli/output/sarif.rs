//! `--format sarif`: one SARIF 2.1.0 log, as GitHub code scanning accepts
//! it: every rule with its descriptions, markdown help and URL; results
//! with repo-relative URIs (relative to the working directory) and regions.
//! Columns count code points of the lossily decoded line, which is what
//! `columnKind: unicodeCodePoints` says.

use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, Level, Rule};

use super::place::{Region, is_file_level};

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

/// The whole log.
pub(crate) fn log(results: Vec<Value>, successful: bool, notifications: &[String]) -> Value {
    let rules: Vec<Value> = Rule::ALL.iter().map(|r| rule_descriptor(*r)).collect();
    let notes: Vec<Value> = notifications
        .iter()
        .map(|m| json!({"level": "error", "message": {"text": m}}))
        .collect();
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

/// A path as a relative URI reference: `/`-separated, every byte outside
/// the unreserved set percent-encoded (so a name that is not UTF-8 still
/// has an exact, valid URI).
pub(crate) fn uri(path_bytes: &[u8]) -> String {
    let mut out = String::with_capacity(path_bytes.len());
    for &b in path_bytes {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            b'\\' if cfg!(windows) => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri(b"src/a b.rs"), "src/a%20b.rs");
        assert_eq!(uri(b"caf\xE9.txt"), "caf%E9.txt");
        assert_eq!(uri("é".as_bytes()), "%C3%A9");
    }
}
