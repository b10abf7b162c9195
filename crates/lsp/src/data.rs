//! The server's own data on the wire: what it puts in `Diagnostic.data`
//! (so that a code action can be built from the diagnostic alone, as the
//! client hands it back) and the arguments and results of its commands.
//! Typed, so that the producer and the consumer cannot disagree on a key.

use serde::{Deserialize, Serialize};
use tower_lsp::lsp_types::Url;

/// `Diagnostic.data` of every utf8lint diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FindingData {
    /// The document the finding belongs to.
    pub(crate) uri: Url,
    /// The document version it was computed for.
    pub(crate) version: i32,
    /// Where the finding comes from.
    pub(crate) origin: Origin,
    /// The rule's code (`U001`), when the finding is a rule's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rule: Option<String>,
    /// The finding's byte span: in the file on disk for a disk finding
    /// (`utf8lint.applyFix` finds it again by rule, span and title), in
    /// the editor's text (as UTF-8) for a finding of the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) span: Option<[usize; 2]>,
    /// Fixes the editor can make as text edits over the diagnostic's range.
    #[serde(default)]
    pub(crate) text_fixes: Vec<TextFix>,
    /// Fixes the gate plans on the editor's text, offered as edits of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) edit_fixes: Vec<FixChoice>,
    /// Fixes only a rewrite of the file on disk can make.
    #[serde(default)]
    pub(crate) disk_fixes: Vec<FixChoice>,
}

/// Where a finding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Origin {
    /// The bytes on disk.
    Disk,
    /// The editor's text (a U+FEFF or U+FFFD in it).
    Text,
    /// A note about the file, not a rule's finding.
    Note,
}

/// A fix as a text edit: the diagnostic's range becomes `new_text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TextFix {
    pub(crate) title: String,
    pub(crate) new_text: String,
    pub(crate) safe: bool,
}

/// One of a finding's fixes, by its title: made through the gate, as an
/// edit of the text or by `utf8lint.applyFix` on disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FixChoice {
    pub(crate) title: String,
    pub(crate) safe: bool,
}

/// The argument of `utf8lint.applyFix`: which fix of which finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ApplyFixArgs {
    pub(crate) uri: Url,
    pub(crate) rule: String,
    pub(crate) span: [usize; 2],
    pub(crate) title: String,
}

/// The argument of `utf8lint.fixAll`: every safe fix, or with `rule`
/// (a code) every finding of that rule's fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FixAllArgs {
    pub(crate) uri: Url,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rule: Option<String>,
}

/// The argument of `utf8lint.allow`: the allow comment for `rule` (a code
/// or name) written into the file on disk, on the editor's `line`
/// (0-based) or for the whole file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AllowArgs {
    pub(crate) uri: Url,
    pub(crate) rule: String,
    pub(crate) scope: AllowScope,
    #[serde(default)]
    pub(crate) line: u32,
}

/// What an allow comment covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AllowScope {
    /// Its line (`utf8lint: allow(rule)`).
    Line,
    /// The file (`utf8lint: file-allow(rule)`).
    File,
}

/// What the commands return.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FixResult {
    /// The file rewritten.
    pub(crate) path: String,
    /// How many fixes were applied.
    pub(crate) applied: usize,
    /// Its size afterwards, in bytes.
    pub(crate) size: usize,
}

/// `utf8lint/didRewriteFile`: the server rewrote this file on disk (a
/// `utf8lint.applyFix`, `utf8lint.fixAll` or `utf8lint.allow`). Sent after the file was
/// replaced and before the command answers, so that a client that does not
/// reload changed files by itself (Neovim) can re-read it, with its
/// byte-order mark and encoding, instead of writing the old text back.
pub(crate) enum DidRewriteFile {}

impl tower_lsp::lsp_types::notification::Notification for DidRewriteFile {
    type Params = RewriteParams;
    const METHOD: &'static str = "utf8lint/didRewriteFile";
}

/// The params of [`DidRewriteFile`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RewriteParams {
    pub(crate) uri: Url,
}

impl FindingData {
    /// The data of a finding in the editor's text (no disk span).
    pub(crate) fn text(uri: &Url, version: i32, rule: &str, text_fixes: Vec<TextFix>) -> Self {
        FindingData {
            uri: uri.clone(),
            version,
            origin: Origin::Text,
            rule: Some(rule.to_owned()),
            span: None,
            text_fixes,
            edit_fixes: Vec::new(),
            disk_fixes: Vec::new(),
        }
    }

    /// As JSON for `Diagnostic.data`.
    pub(crate) fn to_value(&self) -> serde_json::Value {
        // Plain strings, numbers and arrays: serializing cannot fail.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_keys_are_the_documented_ones() {
        let uri = Url::parse("file:///a.txt").unwrap();
        let data = FindingData {
            span: Some([0, 3]),
            origin: Origin::Disk,
            disk_fixes: vec![FixChoice {
                title: "remove the BOM".into(),
                safe: true,
            }],
            ..FindingData::text(
                &uri,
                7,
                "U003",
                vec![TextFix {
                    title: "t".into(),
                    new_text: "".into(),
                    safe: false,
                }],
            )
        };
        let value = data.to_value();
        assert_eq!(
            value,
            serde_json::json!({
                "uri": "file:///a.txt", "version": 7, "origin": "disk", "rule": "U003",
                "span": [0, 3],
                "textFixes": [{"title": "t", "newText": "", "safe": false}],
                "diskFixes": [{"title": "remove the BOM", "safe": true}],
            })
        );
        let back: FindingData = serde_json::from_value(value).unwrap();
        assert_eq!(back, data);
        // What a client hands back may lack optional keys.
        let note: FindingData = serde_json::from_value(
            serde_json::json!({"uri": "file:///a.txt", "version": 1, "origin": "note"}),
        )
        .unwrap();
        assert!(note.text_fixes.is_empty() && note.rule.is_none());
    }
}
