//! `utf8lint rules`: the rule table, as a table for people or as JSON (an
//! array, one object per rule, as ruff's `rule --all --output-format json`).

use std::io::Write;

use serde_json::{Value, json};
use utf8lint_diagnostics::Rule;

use crate::args::RulesFormat;

/// One rule as `rules --format json` prints it.
pub(crate) fn rule_json(rule: Rule) -> Value {
    let fix = rule.fixability();
    json!({
        "code": rule.code(),
        "name": rule.name(),
        "default_level": rule.default_level().as_str(),
        "status": rule.status().as_str(),
        "fix_availability": fix.availability(),
        "fix_safety": fix.safety().map(|s| s.as_str()),
        "summary": rule.summary(),
        "url": rule.url(),
        "explanation": rule.explanation(),
    })
}

/// The table for people: code, name, default level, status, fix, summary.
pub(crate) fn table() -> String {
    let rows: Vec<[&str; 6]> = Rule::ALL
        .iter()
        .map(|r| {
            [
                r.code(),
                r.name(),
                r.default_level().as_str(),
                r.status().as_str(),
                r.fixability().describe(),
                r.summary(),
            ]
        })
        .collect();
    let header = ["code", "name", "level", "status", "fix", "summary"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{cell:<width$}  ", width = widths[i]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub(crate) fn print(format: RulesFormat) -> anyhow::Result<u8> {
    let text = match format {
        RulesFormat::Human => table(),
        RulesFormat::Json => {
            let all: Vec<Value> = Rule::ALL.iter().map(|&r| rule_json(r)).collect();
            let mut text = serde_json::to_string_pretty(&all)?;
            text.push('\n');
            text
        }
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}
