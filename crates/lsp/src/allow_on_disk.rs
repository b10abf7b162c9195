//! The allow actions for a file the editor cannot hold exactly: bytes that
//! are not UTF-8 (another encoding, invalid sequences) or a byte-order mark
//! the editor hides. An edit of such a buffer makes it dirty, and the
//! user's save then writes the editor's decoding (U+FFFD for every
//! accented letter of a Latin-1 file) over the file. So the comment is
//! written on disk instead, between the file's own bytes, through the one
//! fix writer, and the client reloads as after a fix.
//!
//! The comment is ASCII, which every encoding utf8lint writes comments
//! into reads the same: the file's bytes are read one character per byte
//! (Latin-1) to place it, so that a character offset is a byte offset and
//! [`crate::allow`]'s placement is the same as in the editor's text.

use std::sync::Arc;

use ropey::Rope;
use serde_json::Value;
use tower_lsp::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp::lsp_types::Url;
use utf8lint_diagnostics::Rule;

use crate::allow;
use crate::data::{AllowArgs, AllowScope, DidRewriteFile, FixResult, RewriteParams};
use crate::document::DiskView;
use crate::mapping;
use crate::session::Session;

/// The command that writes an allow comment into the file on disk.
pub(crate) const ALLOW: &str = "utf8lint.allow";

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether an edit of the editor's text would lose bytes when saved: the
/// file is not UTF-8, or starts with a byte-order mark the text lacks.
pub(crate) fn editor_cannot_hold(disk: &DiskView) -> bool {
    disk.editor_cannot_hold()
}

/// `bytes` with the allow comment for `rule` written in: on `line`
/// (0-based, as the editor counts) or at the top of the file. `Err` says
/// why not, for the user.
pub(crate) fn with_comment(
    bytes: &[u8],
    name: &str,
    rule: Rule,
    scope: AllowScope,
    line: usize,
) -> std::result::Result<Vec<u8>, String> {
    let syntax = allow::syntax(name)
        .ok_or_else(|| format!("utf8lint knows no comment syntax for {name}"))?;
    // A UTF-16 or UTF-32 file would need the comment in its own code units.
    let wide = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    if wide || bytes.contains(&0) {
        return Err(format!(
            "{name} is not in an ASCII-compatible encoding: allow the rule for it in utf8lint.toml instead"
        ));
    }
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let body = &bytes[skip..];
    let latin1: String = body.iter().map(|&b| char::from(b)).collect();
    let rope = Rope::from_str(&latin1);
    let insert = match scope {
        AllowScope::Line => allow::on_line(&syntax, &rope, line, rule.name())
            .ok_or_else(|| format!("line {} of {name} cannot take a comment", line + 1))?,
        AllowScope::File => allow::in_file(&syntax, &rope, rule.name()),
    };
    // The text is built of ASCII and the line's own indentation, which the
    // placement copies only from spaces and tabs.
    if !insert.text.is_ascii() {
        return Err(format!("the comment for {name} is not ASCII"));
    }
    let at = skip + insert.at;
    let mut out = Vec::with_capacity(bytes.len() + insert.text.len());
    out.extend_from_slice(&bytes[..at]);
    out.extend_from_slice(insert.text.as_bytes());
    out.extend_from_slice(&bytes[at..]);
    Ok(out)
}

fn invalid_params(message: String) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into(),
        data: None,
    }
}

fn refused(message: String) -> Error {
    Error {
        code: ErrorCode::InvalidRequest,
        message: message.into(),
        data: None,
    }
}

/// `workspace/executeCommand` of [`ALLOW`]: the comment written into the
/// file on disk, only while the editor's text is the file's, then
/// `utf8lint/didRewriteFile` and a fresh check, as after a fix.
pub(crate) async fn execute(
    session: &Arc<Session>,
    arguments: Vec<Value>,
) -> Result<Option<Value>> {
    let arg = arguments.into_iter().next().unwrap_or(Value::Null);
    let args: AllowArgs = serde_json::from_value(arg).map_err(|e| {
        invalid_params(format!(
            "utf8lint.allow needs {{uri, rule, scope: \"line\" | \"file\", line}}: {e}"
        ))
    })?;
    let rule = Rule::find(&args.rule)
        .ok_or_else(|| invalid_params(format!("utf8lint.allow: no rule `{}`", args.rule)))?;
    let uri = args.uri;
    let path = (uri.scheme() == "file")
        .then(|| uri.to_file_path().ok())
        .flatten()
        .ok_or_else(|| invalid_params(format!("{uri} is not a file on disk")))?;
    let (rope, roots) = {
        let state = session.lock();
        let doc = state.docs.get(&uri).ok_or_else(|| {
            refused(format!(
                "{} is not open in the editor: utf8lint.allow writes only files the client opened",
                path.display()
            ))
        })?;
        (doc.rope.clone(), state.roots.clone())
    };
    let name = file_name(&uri);
    let job_path = path.clone();
    let size = tokio::task::spawn_blocking(move || -> std::result::Result<usize, Error> {
        let (bytes, stamp) = crate::disk::read(&job_path).map_err(refused)?;
        // Whatever the dirty flag says, only a text that is not the file
        // refuses: the user's next save would write it over the comment.
        if mapping::matches(&bytes, &rope, rope.to_string().as_bytes()).is_none() {
            return Err(refused(format!(
                "{} has unsaved changes in the editor: save or undo them first, then allow the rule (it writes the file on disk)",
                job_path.display()
            )));
        }
        let written = with_comment(&bytes, &name, rule, args.scope, args.line as usize)
            .map_err(refused)?;
        let roots = workspace_roots(roots, &job_path);
        utf8lint_workspace::replace_file_in_workspace(&job_path, &roots, &stamp, |w| {
            w.write_all(&written)
        })
        .map_err(|e| refused(format!("cannot rewrite {}: {e}", job_path.display())))?;
        Ok(written.len())
    })
    .await
    .map_err(|e| refused(format!("utf8lint.allow failed: {e}")))??;
    session
        .client
        .send_notification::<DidRewriteFile>(RewriteParams { uri: uri.clone() })
        .await;
    session.schedule(&uri, |w| {
        w.disk = true;
        w.publish = true;
    });
    Ok(Some(
        serde_json::to_value(FixResult {
            path: path.display().to_string(),
            applied: 1,
            size,
        })
        .unwrap_or(Value::Null),
    ))
}

/// The folders a write may reach: the workspace's, or, for a client with
/// none (a single file opened), the file's own directory.
fn workspace_roots(
    roots: Vec<std::path::PathBuf>,
    path: &std::path::Path,
) -> Vec<std::path::PathBuf> {
    match (roots.is_empty(), path.parent()) {
        (true, Some(dir)) => vec![std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())],
        _ => roots,
    }
}

/// The last path segment of `uri`, its `%XX` escapes decoded.
fn file_name(uri: &Url) -> String {
    uri.to_file_path()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(bytes: &[u8], name: &str, scope: AllowScope, line: usize) -> Vec<u8> {
        with_comment(bytes, name, Rule::find("U001").unwrap(), scope, line).unwrap()
    }

    #[test]
    fn the_comment_goes_between_the_files_own_bytes() {
        let po = b"msgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0\"\n";
        assert_eq!(
            written(po, "fr.po", AllowScope::Line, 0),
            b"# utf8lint: allow(invalid_utf8)\nmsgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0\"\n"
        );
        let py = b"a = 'caf\xE9'\n";
        assert_eq!(
            written(py, "a.py", AllowScope::Line, 0),
            b"a = 'caf\xE9'  # utf8lint: allow(invalid_utf8)\n"
        );
        assert_eq!(
            written(po, "fr.po", AllowScope::File, 1),
            b"# utf8lint: file-allow(invalid_utf8)\nmsgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0\"\n"
        );
        // A byte-order mark stays first; the shebang after it too.
        assert_eq!(
            written(
                b"\xEF\xBB\xBF#!/bin/sh\necho\r\n",
                "a.sh",
                AllowScope::File,
                0
            ),
            b"\xEF\xBB\xBF#!/bin/sh\n# utf8lint: file-allow(invalid_utf8)\necho\r\n"
        );
        assert_eq!(
            written(b"\xEF\xBB\xBFx = 1\n", "a.py", AllowScope::Line, 0),
            b"\xEF\xBB\xBFx = 1  # utf8lint: allow(invalid_utf8)\n"
        );
    }

    #[test]
    fn what_cannot_take_the_comment_is_refused() {
        let rule = Rule::find("U001").unwrap();
        let utf16 = b"\xFF\xFEx\x00\n\x00";
        assert!(with_comment(utf16, "a.py", rule, AllowScope::File, 0).is_err());
        assert!(with_comment(b"x\xE9\n", "a.json", rule, AllowScope::File, 0).is_err());
        assert!(with_comment(b"#!/bin/sh\xE9\n", "a.sh", rule, AllowScope::Line, 0).is_err());
        // Inside a PO entry, where msgfmt takes no comment.
        let po = b"msgid \"a\"\nmsgstr \"\xE9\"\n";
        assert!(with_comment(po, "fr.po", rule, AllowScope::Line, 1).is_err());
    }
}
