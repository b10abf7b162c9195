//! The display cap's notes: a rule's findings left out of one file's
//! report, said as a note in every format and never as a finding with a
//! rule's code (the counts take them in whole: [`Diagnostic::count`]).

use serde_json::{Value, json};
use utf8lint_diagnostics::{Diagnostic, escape_shown};

use super::github::{data, property};
use super::names::FileName;

/// The note's sentence: `40 more `stray_feff` findings in this file not
/// shown (at most 50 ... per file; ...)`.
fn sentence(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    if !d.notes.is_empty() {
        text.push_str(&format!(" ({})", d.notes.join("; ")));
    }
    escape_shown(&text)
}

/// `note: a.txt: 40 more ...`, for the human and concise formats.
pub(super) fn line(name: &FileName<'_>, d: &Diagnostic) -> String {
    format!("note: {}: {}\n", name.display, sentence(d))
}

/// `::notice file=a.txt,title=utf8lint::40 more ...`: GitHub's own word
/// for what is not an error or a warning.
pub(super) fn github(name: &FileName<'_>, d: &Diagnostic) -> String {
    format!(
        "::notice file={},title=utf8lint::{}\n",
        property(name.display),
        data(&sentence(d))
    )
}

/// A SARIF tool execution notification at level `note`, on the file.
pub(super) fn sarif(name: &FileName<'_>, d: &Diagnostic) -> Value {
    json!({
        "level": "note",
        "message": {"text": format!("{}: {}", name.display, sentence(d))},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": name.uri}}}],
    })
}

/// The file's own JSON object after its findings, `{"path": "a.txt",
/// "not_shown": {"U002": 40}}`: how many findings of each rule the cap
/// left out (no `code`: it is not a finding).
pub(super) fn json_object(out: &mut Vec<u8>, name: &FileName<'_>, notes: &[&Diagnostic]) {
    let counts: serde_json::Map<String, Value> = notes
        .iter()
        .map(|d| (d.rule.code().to_owned(), json!(d.not_shown)))
        .collect();
    out.extend_from_slice(b"{\"path\":");
    super::json::string(out, name.exact);
    out.extend_from_slice(b",\"not_shown\":");
    let _ = serde_json::to_writer(&mut *out, &counts);
    out.extend_from_slice(b"}\n");
}
