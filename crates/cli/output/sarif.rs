//! `--format sarif`: one SARIF 2.1.0 log, as GitHub code scanning accepts
//! it: every rule with its descriptions, markdown help and URL; results
//! with repo-relative URIs (relative to the working directory) and regions.
//! Columns count code points of the lossily decoded line, which is what
//! `columnKind: unicodeCodePoints` says.

use std::path::Path;

use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, Level, Rule, escape_shown};

use super::names::{display_path, uri_of};
use super::place::{Region, is_file_level};
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

/// The whole log.
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
