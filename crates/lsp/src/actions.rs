//! Code actions and commands. Fixes for what the editor's text holds are
//! text edits (built from `Diagnostic.data` alone); fixes for bytes only the
//! disk holds (a BOM, invalid sequences, another encoding) are the
//! `utf8lint.applyFix` / `utf8lint.fixAll` commands, which rewrite the file
//! atomically and only when the editor has no unsaved edits.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use tower_lsp::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp::lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command, DocumentChanges,
    OneOf, OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, TextEdit, Url,
    WorkspaceEdit,
};
use utf8lint_diagnostics::{Applicability, Fix, Keep, apply_fixes, check_keeping};

use crate::data::{
    ApplyFixArgs, DidRewriteFile, FindingData, FixAllArgs, FixResult, RewriteParams,
};
use crate::mapping;
use crate::publish::{self, Snapshot};
use crate::session::Session;

/// The command that applies one fix on disk.
pub(crate) const APPLY_FIX: &str = "utf8lint.applyFix";
/// The command that applies every safe fix on disk.
pub(crate) const FIX_ALL: &str = "utf8lint.fixAll";
/// The code action kind of "fix all".
pub(crate) const FIX_ALL_KIND: &str = "source.fixAll.utf8lint";

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
pub(crate) fn code_actions(
    session: &Session,
    params: CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let uri = params.text_document.uri;
    let only = params.context.only.as_ref();
    let mut out = Vec::new();
    // A disk fix on a buffer with unsaved changes would be refused (the
    // editor would write its old text back over it): not offered then.
    let disk_fixes_apply =
        session.lock().docs.get(&uri).is_some_and(|doc| {
            !doc.dirty || doc.base.as_ref().is_some_and(|base| *base == doc.rope)
        });
    if wants(only, &CodeActionKind::QUICKFIX) {
        for d in &params.context.diagnostics {
            if d.source.as_deref() != Some("utf8lint") {
                continue;
            }
            // Only what this server put there: anything else is skipped.
            let Some(data) = d
                .data
                .clone()
                .and_then(|v| serde_json::from_value::<FindingData>(v).ok())
            else {
                continue;
            };
            for fix in &data.text_fixes {
                let mut action = text_edit_action(
                    &uri,
                    Some(data.version),
                    fix.title.clone(),
                    vec![TextEdit::new(d.range, fix.new_text.clone())],
                    CodeActionKind::QUICKFIX,
                    fix.safe,
                );
                action.diagnostics = Some(vec![d.clone()]);
                out.push(CodeActionOrCommand::CodeAction(action));
            }
            let (Some(rule), Some(span), true) = (&data.rule, data.span, disk_fixes_apply) else {
                continue;
            };
            for fix in &data.disk_fixes {
                let args = ApplyFixArgs {
                    uri: uri.clone(),
                    rule: rule.clone(),
                    span,
                    title: fix.title.clone(),
                };
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("{} (rewrites the file on disk)", fix.title),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    command: Some(Command::new(
                        format!("utf8lint: {}", fix.title),
                        APPLY_FIX.into(),
                        Some(vec![to_value(&args)]),
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
        let Some(data) = &item.data else {
            continue;
        };
        for fix in &data.text_fixes {
            if fix.safe {
                let range: Range = crate::convert::range_in(
                    &snapshot.rope,
                    item.range.start,
                    item.range.end,
                    snapshot.encoding,
                    &snapshot.raw,
                );
                edits.push(TextEdit::new(range, fix.new_text.clone()));
                break;
            }
        }
        disk_safe += data.disk_fixes.iter().filter(|f| f.safe).count();
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
            Some(vec![to_value(&FixAllArgs { uri: uri.clone() })]),
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
pub(crate) async fn execute(
    session: &Arc<Session>,
    command: &str,
    arguments: Vec<Value>,
) -> Result<Option<Value>> {
    if command != APPLY_FIX && command != FIX_ALL {
        return Err(invalid_params(format!("unknown command `{command}`")));
    }
    let arg = arguments.into_iter().next().unwrap_or(Value::Null);
    // (uri, the fix wanted: rule, span and title; `None` for every safe one)
    let (uri, wanted) = if command == APPLY_FIX {
        let args: ApplyFixArgs = serde_json::from_value(arg).map_err(|e| {
            invalid_params(format!(
                "utf8lint.applyFix needs {{uri, rule, span: [start, end], title}}: {e}"
            ))
        })?;
        let [start, end] = args.span;
        (args.uri, Some((args.rule, (start, end), args.title)))
    } else {
        let args: FixAllArgs = serde_json::from_value(arg)
            .map_err(|e| invalid_params(format!("utf8lint.fixAll needs {{uri}}: {e}")))?;
        (args.uri, None)
    };
    let path = (uri.scheme() == "file")
        .then(|| uri.to_file_path().ok())
        .flatten()
        .ok_or_else(|| invalid_params(format!("{uri} is not a file on disk")))?;
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
        // Every finding, not only the shown ones: a fix-all applies all
        // the safe fixes, and a finding past the display cap is found.
        let found = check_keeping(&bytes, &job_path, &policy, Keep::Every);
        let fixes: Vec<&Fix> = match &wanted {
            Some((rule, (start, end), title)) => found
                .iter()
                .filter(|d| d.rule.code() == rule && d.span == (*start..*end))
                .flat_map(|d| d.fix.iter().chain(&d.alternatives))
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
        .send_notification::<DidRewriteFile>(RewriteParams { uri: uri.clone() })
        .await;
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
    Ok(Some(to_value(&FixResult {
        path: path.display().to_string(),
        applied: count,
        size,
    })))
}

/// Hover text for the finding under `pos`, if any.
pub(crate) fn hover(
    session: &Session,
    uri: &Url,
    pos: tower_lsp::lsp_types::Position,
) -> Option<String> {
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

/// A command argument or result as JSON (plain strings and numbers: it
/// cannot fail).
fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
