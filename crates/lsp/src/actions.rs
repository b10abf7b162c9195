//! Code actions and commands. Fixes for what the editor's text holds are
//! text edits (built from `Diagnostic.data` alone); fixes for bytes only the
//! disk holds (a BOM, invalid sequences, another encoding) are the
//! `utf8lint.applyFix` / `utf8lint.fixAll` commands, which rewrite the file
//! atomically and only when the editor has no unsaved edits.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tower_lsp::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp::lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command, DocumentChanges,
    OneOf, OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, TextEdit, Url,
    WorkspaceEdit,
};
use utf8lint_diagnostics::{Applicability, Fix, apply_fixes, check};

use crate::mapping;
use crate::publish::{self, Snapshot};
use crate::session::Session;

/// The command that applies one fix on disk.
pub const APPLY_FIX: &str = "utf8lint.applyFix";
/// The command that applies every safe fix on disk.
pub const FIX_ALL: &str = "utf8lint.fixAll";
/// The code action kind of "fix all".
pub const FIX_ALL_KIND: &str = "source.fixAll.utf8lint";

fn wants(only: Option<&Vec<CodeActionKind>>, kind: &CodeActionKind) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))
        })
    })
}

fn text_edit_action(
    uri: &Url,
    version: Option<i32>,
    title: String,
    edits: Vec<TextEdit>,
    kind: CodeActionKind,
    preferred: bool,
) -> CodeAction {
    CodeAction {
        title,
        kind: Some(kind),
        edit: Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: uri.clone(),
                    version,
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    }
}

/// `textDocument/codeAction`.
pub fn code_actions(session: &Session, params: CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = params.text_document.uri;
    let only = params.context.only.as_ref();
    let mut out = Vec::new();
    if wants(only, &CodeActionKind::QUICKFIX) {
        for d in &params.context.diagnostics {
            if d.source.as_deref() != Some("utf8lint") {
                continue;
            }
            let Some(data) = d.data.as_ref().filter(|v| v.is_object()) else {
                continue;
            };
            let version = data
                .get("version")
                .and_then(Value::as_i64)
                .and_then(|v| i32::try_from(v).ok());
            for fix in data
                .get("textFixes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(title), Some(new_text)) =
                    (fix["title"].as_str(), fix["newText"].as_str())
                else {
                    continue;
                };
                let mut action = text_edit_action(
                    &uri,
                    version,
                    title.to_string(),
                    vec![TextEdit::new(d.range, new_text.to_string())],
                    CodeActionKind::QUICKFIX,
                    fix["safe"].as_bool() == Some(true),
                );
                action.diagnostics = Some(vec![d.clone()]);
                out.push(CodeActionOrCommand::CodeAction(action));
            }
            for fix in data
                .get("diskFixes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(title) = fix["title"].as_str() else {
                    continue;
                };
                let args = json!({"uri": uri.as_str(), "rule": data["rule"], "span": data["span"], "title": title});
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("{title} (rewrites the file on disk)"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    command: Some(Command::new(
                        format!("utf8lint: {title}"),
                        APPLY_FIX.into(),
                        Some(vec![args]),
                    )),
                    ..CodeAction::default()
                }));
            }
        }
    }
    let fix_all = CodeActionKind::new(FIX_ALL_KIND);
    if only.is_some()
        && wants(only, &fix_all)
        && let Some(action) = fix_all_action(session, &uri)
    {
        out.push(CodeActionOrCommand::CodeAction(action));
    }
    out
}

/// `source.fixAll.utf8lint`: the safe text fixes as one edit; when there
/// are none and the buffer is clean, the safe disk fixes as a command.
fn fix_all_action(session: &Session, uri: &Url) -> Option<CodeAction> {
    let (snapshot, dirty) = {
        let state = session.lock();
        let doc = state.docs.get(uri)?;
        let policy = state.settings.policy_for(doc.path.as_deref());
        (Snapshot::of(doc, state.encoding, policy), doc.dirty)
    };
    let items = publish::items(&snapshot);
    let mut edits = Vec::new();
    let mut disk_safe = 0;
    for item in &items {
        for fix in item
            .data
            .get("textFixes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if fix["safe"].as_bool() == Some(true) {
                let range: Range = crate::convert::range_in(
                    &snapshot.rope,
                    item.range.start,
                    item.range.end,
                    snapshot.encoding,
                    &snapshot.raw,
                );
                edits.push(TextEdit::new(
                    range,
                    fix["newText"].as_str().unwrap_or_default().to_string(),
                ));
                break;
            }
        }
        disk_safe += item
            .data
            .get("diskFixes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|f| f["safe"].as_bool() == Some(true))
            .count();
    }
    let kind = CodeActionKind::new(FIX_ALL_KIND);
    if !edits.is_empty() {
        let n = edits.len();
        return Some(text_edit_action(
            uri,
            Some(snapshot.version),
            format!(
                "utf8lint: apply {n} safe fix{}",
                if n == 1 { "" } else { "es" }
            ),
            edits,
            kind,
            false,
        ));
    }
    (disk_safe > 0 && !dirty).then(|| CodeAction {
        title: format!(
            "utf8lint: apply {disk_safe} safe fix{} on disk",
            if disk_safe == 1 { "" } else { "es" }
        ),
        kind: Some(kind),
        command: Some(Command::new(
            "utf8lint: fix all on disk".into(),
            FIX_ALL.into(),
            Some(vec![json!({"uri": uri.as_str()})]),
        )),
        ..CodeAction::default()
    })
}

fn invalid_params(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

fn refused(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidRequest,
        message: message.into().into(),
        data: None,
    }
}

/// `workspace/executeCommand`.
pub async fn execute(
    session: &Arc<Session>,
    command: &str,
    arguments: Vec<Value>,
) -> Result<Option<Value>> {
    if command != APPLY_FIX && command != FIX_ALL {
        return Err(invalid_params(format!("unknown command `{command}`")));
    }
    let arg = arguments.into_iter().next().unwrap_or(Value::Null);
    let uri = arg
        .get("uri")
        .and_then(Value::as_str)
        .and_then(|u| Url::parse(u).ok())
        .ok_or_else(|| invalid_params("the command needs an argument with a `uri`"))?;
    let path = (uri.scheme() == "file")
        .then(|| uri.to_file_path().ok())
        .flatten()
        .ok_or_else(|| invalid_params(format!("{uri} is not a file on disk")))?;
    let wanted = if command == APPLY_FIX {
        let rule = arg.get("rule").and_then(Value::as_str).map(str::to_string);
        let span = arg
            .get("span")
            .and_then(Value::as_array)
            .and_then(|a| Some((a.first()?.as_u64()? as usize, a.get(1)?.as_u64()? as usize)));
        let title = arg.get("title").and_then(Value::as_str).map(str::to_string);
        match (rule, span, title) {
            (Some(rule), Some(span), Some(title)) => Some((rule, span, title)),
            _ => {
                return Err(invalid_params(
                    "utf8lint.applyFix needs `rule`, `span` and `title`",
                ));
            }
        }
    } else {
        None
    };
    let (rope, dirty, policy, roots) = {
        let state = session.lock();
        let policy = state.settings.policy_for(Some(&path));
        match state.docs.get(&uri) {
            Some(doc) => (doc.rope.clone(), doc.dirty, policy, state.roots.clone()),
            None => {
                return Err(refused(format!(
                    "{} is not open in the editor: utf8lint's commands rewrite only files the client opened",
                    path.display()
                )));
            }
        }
    };
    let job_path = path.clone();
    let outcome = tokio::task::spawn_blocking(move || -> std::result::Result<(usize, usize), Error> {
        let (bytes, stamp) = crate::disk::read(&job_path).map_err(refused)?;
        if dirty {
            // The flag says edited; the text may still equal the file (an
            // undo, a reload): only a real difference refuses.
            if mapping::matches(&bytes, &rope, rope.to_string().as_bytes()).is_none() {
                return Err(refused(format!(
                    "{} has unsaved changes in the editor: save or undo them first, then apply the fix (it rewrites the file on disk)",
                    job_path.display()
                )));
            }
        }
        let found = check(&bytes, &job_path, &policy);
        let fixes: Vec<&Fix> = match &wanted {
            Some((rule, (start, end), title)) => found
                .iter()
                .filter(|d| d.rule.code() == rule && d.span == (*start..*end))
                .filter_map(|d| d.fix.as_ref())
                .filter(|f| f.title() == title)
                .take(1)
                .collect(),
            None => found
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .filter(|f| f.applicability() == Applicability::Safe)
                .collect(),
        };
        if fixes.is_empty() {
            return Err(refused("the file on disk no longer has that finding (it changed since): nothing to fix"));
        }
        let applied = apply_fixes(&bytes, fixes.iter().copied());
        // The shared writer refuses what is outside the workspace folders,
        // symbolic links, files that are not regular and files changed
        // since `stamp`.
        // A client with no workspace folders (Neovim on a file outside any
        // project, single-file mode) still opened this very file: its own
        // directory is then the workspace, so nothing else can be reached.
        let roots = match (roots.is_empty(), job_path.parent()) {
            (true, Some(dir)) => vec![std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())],
            _ => roots,
        };
        utf8lint_workspace::replace_file_in_workspace(&job_path, &roots, &stamp, |w| w.write_all(&applied.bytes))
            .map_err(|e| refused(format!("cannot rewrite {}: {e}", job_path.display())))?;
        Ok((applied.applied.len(), applied.bytes.len()))
    })
    .await
    .map_err(|e| refused(format!("the fix failed: {e}")))??;
    let (count, size) = outcome;
    session
        .client
        .log_message(
            tower_lsp::lsp_types::MessageType::INFO,
            format!(
                "utf8lint rewrote {} ({count} fix(es)); reload the buffer if your editor does not",
                path.display()
            ),
        )
        .await;
    if session.lock().docs.contains_key(&uri) {
        session.schedule(&uri, |w| {
            w.disk = true;
            w.publish = true;
        });
    } else {
        session.file_changed(&uri, false).await;
    }
    Ok(Some(
        json!({"path": path.display().to_string(), "applied": count, "size": size}),
    ))
}

/// Replaces the file at `path` with `bytes` atomically: a temporary file in
/// the same directory, written, given the old file's permissions, synced,
/// then renamed over it (the target of a symlink is replaced, not the link).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // The one fix writer (utf8lint-workspace): never through a symbolic
    // link, owner, mode and extended attributes kept, temporary file 0600.
    let meta = std::fs::symlink_metadata(path)?;
    let stamp = utf8lint_workspace::Stamp::of(&meta);
    utf8lint_workspace::replace_file(path, &stamp, |out| out.write_all(bytes)).map_err(
        |e| match e {
            utf8lint_workspace::WriteError::Io(e) => e,
            refused => std::io::Error::other(refused.to_string()),
        },
    )
}

/// Hover text for the finding under `pos`, if any.
pub fn hover(session: &Session, uri: &Url, pos: tower_lsp::lsp_types::Position) -> Option<String> {
    let snapshot = {
        let state = session.lock();
        let doc = state.docs.get(uri)?;
        let policy = state.settings.policy_for(doc.path.as_deref());
        Snapshot::of(doc, state.encoding, policy)
    };
    let (at, _) = crate::convert::offset_in(&snapshot.rope, pos, snapshot.encoding, &snapshot.raw);
    let items = publish::items(&snapshot);
    let texts: Vec<String> = items
        .iter()
        .filter(|i| i.range.contains(&at) || (i.range.is_empty() && i.range.start == at))
        .map(|i| i.hover.clone())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n---\n\n"))
}
