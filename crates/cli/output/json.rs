//! `--format json`: JSON Lines, one object per diagnostic. The schema is
//! documented field by field in the README ("JSON Lines schema"); keep the
//! two in step.

use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, Fix, escape_lossless};

use super::{Region, is_file_level};

pub(super) fn line(d: &Diagnostic, path: &str, region: &Region) -> String {
    value(d, path, region).to_string()
}

pub(super) fn value(d: &Diagnostic, path: &str, region: &Region) -> Value {
    let file_level = is_file_level(d);
    let subparts: Vec<Value> = d
        .subparts
        .iter()
        .map(|s| json!({"offset": s.offset, "len": s.len, "kind": s.kind.as_str()}))
        .collect();
    let fix = d.fix.as_ref().map_or(Value::Null, fix_value);
    let alternatives: Vec<Value> = d.alternatives.iter().map(fix_value).collect();
    json!({
        "path": path,
        "code": d.rule.code(),
        "rule": d.rule.name(),
        "level": d.level.as_str(),
        "message": d.message,
        "label": d.label,
        "byte_start": d.span.start,
        "byte_end": d.span.end,
        "line": if file_level { Value::Null } else { region.start.line.into() },
        "column": if file_level { Value::Null } else { region.start.column.into() },
        "end_line": if file_level { Value::Null } else { region.end.line.into() },
        "end_column": if file_level { Value::Null } else { region.end.column.into() },
        "subparts": subparts,
        "notes": d.notes,
        "help": d.help,
        "policy_source": d.policy_source.as_ref().map(|s| s.describe()),
        "related": d.related.iter().map(|r| [r.start, r.end]).collect::<Vec<_>>(),
        "fix": fix,
        "alternatives": alternatives,
    })
}

/// A fix as JSON: its applicability, title and edits. A whole-file
/// conversion is described (`"kind": "transcode"`, from, to and the span)
/// rather than embedded: its bytes are the whole file again.
fn fix_value(fix: &Fix) -> Value {
    if let Some(from) = fix.transcoded_from() {
        let range = fix.range();
        return json!({
            "applicability": fix.applicability().as_str(),
            "title": fix.title(),
            "kind": "transcode",
            "from": from,
            "to": "UTF-8",
            "byte_start": range.start,
            "byte_end": range.end,
        });
    }
    let edits: Vec<Value> = fix
        .edits()
        .iter()
        .map(|e| {
            json!({
                "byte_start": e.range().start,
                "byte_end": e.range().end,
                "replacement_hex": hex(e.replacement()),
                "replacement_escaped": escape_lossless(e.replacement()),
            })
        })
        .collect();
    json!({
        "applicability": fix.applicability().as_str(),
        "title": fix.title(),
        "edits": edits,
    })
}

/// Lower-case hex, two digits a byte, no separators: `efbbbf`.
pub(super) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}
