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
    CodeAction, CodeActionDisabled, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command,
    CreateFile, CreateFileOptions, Diagnostic, DocumentChangeOperation, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Range, ResourceOp, TextDocumentEdit, TextEdit, Url,
    WorkspaceEdit,
};
use utf8lint_diagnostics::{Reads, Rule};
use utf8lint_workspace::gate;

use crate::buffer::Rules;
use crate::data::{
    AllowArgs, AllowScope, ApplyFixArgs, DidRewriteFile, FindingData, FixAllArgs, FixResult,
    Origin, RewriteParams,
};
use crate::publish::{self, Snapshot};
use crate::session::Session;
use crate::{allow, allow_on_disk, mapping};

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

/// Whether the actions that rewrite the file on disk are offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DiskFixes {
    /// The buffer is the file's text: they apply.
    Offered,
    /// The buffer has unsaved changes, which a save would write back over
    /// the rewrite: shown disabled, with [`DIRTY_REASON`], to a client
    /// that shows disabled actions.
    Disabled,
    /// As `Disabled`, for a client that does not show disabled actions:
    /// left out.
    LeftOut,
}

/// Why a fix on disk is disabled while the buffer has unsaved changes.
pub(crate) const DIRTY_REASON: &str =
    "the buffer has unsaved changes: save or undo them first (this fix rewrites the file on disk)";

impl DiskFixes {
    /// `action`, which rewrites the file on disk, as it is offered.
    fn offer(self, action: CodeAction) -> Option<CodeAction> {
        match self {
            DiskFixes::Offered => Some(action),
            DiskFixes::Disabled => Some(CodeAction {
                // Nothing to run: the action says why it cannot be.
                command: None,
                disabled: Some(CodeActionDisabled {
                    reason: DIRTY_REASON.into(),
                }),
                ..action
            }),
            DiskFixes::LeftOut => None,
        }
    }
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

/// An action whose edit the gate plans on the editor's text when the
/// request is answered (off the message loop): offered only if the gate
/// accepts it and the text can hold the result; else `fallback`, if any.
struct Planned {
    title: String,
    kind: CodeActionKind,
    preferred: bool,
    diagnostic: Option<Diagnostic>,
    rules: Rules,
    select: gate::Select,
    fallback: Option<CodeAction>,
}

/// A code action as the request builds it: ready, or planned by the gate.
enum Slot {
    Ready(Box<CodeAction>),
    Planned(Box<Planned>),
}

/// `textDocument/codeAction`.
pub(crate) async fn code_actions(
    session: &Session,
    params: CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let uri = params.text_document.uri;
    let only = params.context.only.as_ref();
    let mut out = Vec::new();
    // A disk fix on a buffer with unsaved changes would be refused (the
    // editor would write its old text back over it): shown disabled, with
    // the reason, or left out.
    let disk_fixes = {
        let state = session.lock();
        let clean = state.docs.get(&uri).is_some_and(|doc| {
            !doc.dirty
                || doc
                    .base
                    .is_some_and(|base| base == crate::document::TextDigest::of_rope(&doc.rope))
        });
        match (clean, state.features.code_action_disabled) {
            (true, _) => DiskFixes::Offered,
            (false, true) => DiskFixes::Disabled,
            (false, false) => DiskFixes::LeftOut,
        }
    };
    let mut allow = AllowActions::new(session, &uri);
    let version = allow.doc.as_ref().map(|d| d.version);
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
            allow.add(d, &data, disk_fixes);
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
                out.push(Slot::Ready(Box::new(action)));
            }
            let rule = data.rule.as_deref().and_then(Rule::find);
            if let (Some(rule), Some([start, end]), true) =
                (rule, data.span, version == Some(data.version))
            {
                for fix in &data.edit_fixes {
                    out.push(Slot::Planned(Box::new(Planned {
                        title: fix.title.clone(),
                        kind: CodeActionKind::QUICKFIX,
                        preferred: fix.safe,
                        diagnostic: Some(d.clone()),
                        rules: rules_of(data.origin),
                        select: gate::Select::One {
                            rule,
                            span: start..end,
                            title: fix.title.clone(),
                        },
                        fallback: None,
                    })));
                }
            }
            let (Some(rule), Some(span)) = (&data.rule, data.span) else {
                continue;
            };
            if data.origin != Origin::Disk {
                continue;
            }
            for fix in &data.disk_fixes {
                let args = ApplyFixArgs {
                    uri: uri.clone(),
                    rule: rule.clone(),
                    span,
                    title: fix.title.clone(),
                };
                let action = disk_fixes.offer(CodeAction {
                    title: disk_fix_title(&fix.title),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    command: Some(Command::new(
                        format!("utf8lint: {}", fix.title),
                        APPLY_FIX.into(),
                        Some(vec![to_value(&args)]),
                    )),
                    ..CodeAction::default()
                });
                out.extend(action.map(|a| Slot::Ready(Box::new(a))));
            }
        }
    }
    out.extend(allow.finish());
    let fix_all = CodeActionKind::new(FIX_ALL_KIND);
    if only.is_some()
        && wants(only, &fix_all)
        && let Some(slot) = fix_all_action(session, &uri, disk_fixes)
    {
        out.push(slot);
    }
    resolve(session, &uri, out).await
}

/// Which rules a finding's fixes are planned with: those of the text for
/// its findings, every rule for a disk finding (the text is then the
/// file's bytes).
fn rules_of(origin: Origin) -> Rules {
    match origin {
        Origin::Disk => Rules::All,
        _ => Rules::Characters,
    }
}

/// The slots' actions, the planned ones through the gate in one blocking
/// task over one copy of the text.
async fn resolve(session: &Session, uri: &Url, slots: Vec<Slot>) -> Vec<CodeActionOrCommand> {
    let any_planned = slots.iter().any(|s| matches!(s, Slot::Planned(_)));
    let snapshot = any_planned
        .then(|| {
            let state = session.lock();
            let doc = state.docs.get(uri)?;
            let policy = state.settings.policy_for(doc.path.as_deref());
            Some((Snapshot::of(doc, state.encoding, policy), doc.path.clone()))
        })
        .flatten();
    let uri = uri.clone();
    let resolved = tokio::task::spawn_blocking(move || {
        let bytes = snapshot
            .as_ref()
            .map(|(s, _)| crate::buffer::text_bytes(&s.rope));
        slots
            .into_iter()
            .filter_map(|slot| match slot {
                Slot::Ready(action) => Some(*action),
                Slot::Planned(p) => {
                    let ((snapshot, path), bytes) = (snapshot.as_ref()?, bytes.as_deref()?);
                    plan(&uri, snapshot, path.as_deref(), bytes, *p)
                }
            })
            .map(CodeActionOrCommand::CodeAction)
            .collect::<Vec<_>>()
    })
    .await;
    resolved.unwrap_or_default()
}

/// A planned action: the gate's edits of the text, or its fallback.
fn plan(
    uri: &Url,
    s: &Snapshot,
    path: Option<&std::path::Path>,
    bytes: &[u8],
    p: Planned,
) -> Option<CodeAction> {
    match crate::buffer::fix_text(bytes, path, &s.policy, p.rules, &p.select) {
        Ok(Some(changes)) => {
            let edits = text_edits(s, changes);
            let mut action =
                text_edit_action(uri, Some(s.version), p.title, edits, p.kind, p.preferred);
            action.diagnostics = p.diagnostic.map(|d| vec![d]);
            Some(action)
        }
        Ok(None) => p.fallback,
        Err(why) => {
            tracing::debug!("{}: not offered as an edit: {why}", p.title);
            p.fallback
        }
    }
}

/// The gate's changes (byte ranges of the text) as LSP text edits.
fn text_edits(s: &Snapshot, changes: Vec<crate::buffer::TextChange>) -> Vec<TextEdit> {
    changes
        .into_iter()
        .map(|(range, new_text)| {
            let start = s.rope.byte_to_char(range.start);
            let end = s.rope.byte_to_char(range.end);
            TextEdit::new(
                crate::convert::range_in(&s.rope, start, end, s.encoding, &s.raw),
                new_text,
            )
        })
        .collect()
}

/// `source.fixAll.utf8lint`: every safe fix the gate plans on the text
/// (the character rules', or every rule's when the text is the file's
/// bytes) as one edit; else the safe edits of the text's own U+FEFF and
/// U+FFFD; when there are none and the buffer is clean, the safe disk
/// fixes as a command.
fn fix_all_action(session: &Session, uri: &Url, disk_fixes: DiskFixes) -> Option<Slot> {
    let snapshot = {
        let state = session.lock();
        let doc = state.docs.get(uri)?;
        let policy = state.settings.policy_for(doc.path.as_deref());
        Snapshot::of(doc, state.encoding, policy)
    };
    let items = publish::items(&snapshot);
    let mut edits = Vec::new();
    let mut disk_safe = 0;
    let mut edit_safe = 0;
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
        edit_safe += data.edit_fixes.iter().filter(|f| f.safe).count();
    }
    let kind = CodeActionKind::new(FIX_ALL_KIND);
    let title = |n: usize, place: &str| {
        format!(
            "utf8lint: apply {n} safe fix{}{place}",
            if n == 1 { "" } else { "es" }
        )
    };
    let fallback = if !edits.is_empty() {
        let n = edits.len();
        Some(text_edit_action(
            uri,
            Some(snapshot.version),
            title(n, ""),
            edits,
            kind.clone(),
            false,
        ))
    } else {
        let on_disk = (disk_safe > 0).then(|| CodeAction {
            title: title(disk_safe, " on disk"),
            kind: Some(kind.clone()),
            command: Some(Command::new(
                "utf8lint: fix all on disk".into(),
                FIX_ALL.into(),
                Some(vec![to_value(&FixAllArgs {
                    uri: uri.clone(),
                    rule: None,
                })]),
            )),
            ..CodeAction::default()
        });
        on_disk.and_then(|a| disk_fixes.offer(a))
    };
    if edit_safe == 0 {
        return fallback.map(|a| Slot::Ready(Box::new(a)));
    }
    let rules = if snapshot.text_is_the_bytes {
        Rules::All
    } else {
        Rules::Characters
    };
    Some(Slot::Planned(Box::new(Planned {
        title: title(edit_safe, ""),
        kind,
        preferred: false,
        diagnostic: None,
        rules,
        select: gate::Select::Applicable {
            unsafe_fixes: false,
        },
        fallback,
    })))
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
    let mut only_rule = None;
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
            .map_err(|e| invalid_params(format!("utf8lint.fixAll needs {{uri, rule?}}: {e}")))?;
        if let Some(code) = &args.rule {
            only_rule = Some(
                Rule::find(code)
                    .ok_or_else(|| invalid_params(format!("utf8lint.fixAll: no rule `{code}`")))?,
            );
        }
        (args.uri, None)
    };
    if wanted.is_none()
        && let Some(result) = fix_all_as_edit(session, &uri, only_rule).await
    {
        return Ok(Some(to_value(&result)));
    }
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
        // Through the fix gate, as the CLI's fixes: planned from every
        // finding (not only the shown ones), applied and checked again in
        // memory; a refusal says why and nothing is written.
        let select = match wanted {
            Some((rule, (start, end), title)) => gate::Select::One {
                rule: Rule::find(&rule).ok_or_else(|| invalid_params(format!("utf8lint.applyFix: no rule `{rule}`")))?,
                span: start..end,
                title,
            },
            None => match only_rule {
                // One rule's findings: each one's fix, as its own quick
                // fix would apply it.
                Some(rule) => gate::Select::Rule(rule),
                None => gate::Select::Applicable { unsafe_fixes: false },
            },
        };
        let request = gate::Request {
            path: &job_path,
            policy: &policy,
            select: &select,
            allow_binary: false,
            filter: None,
        };
        let fixed = gate::fix(&bytes, &request)
            .map_err(|why| refused(format!("not fixing {}: {why}", job_path.display())))?;
        if fixed.is_empty() {
            return Err(refused("the file on disk no longer has that finding (it changed since): nothing to fix"));
        }
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
        utf8lint_workspace::replace_file_in_workspace(&job_path, &roots, &stamp, |w| w.write_all(&fixed.bytes))
            .map_err(|e| refused(format!("cannot rewrite {}: {e}", job_path.display())))?;
        Ok((fixed.findings, fixed.bytes.len()))
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

/// `utf8lint.fixAll` where the editor's text can hold the result: the
/// gate's edits of the text, sent to the client as `workspace/applyEdit`
/// (so that the buffer, not the file behind it, changes), in a task of its
/// own (no handler waits for the client). `None`: the fixes are not edits
/// of the text (none planned, or only a disk rewrite can make them).
async fn fix_all_as_edit(
    session: &Arc<Session>,
    uri: &Url,
    only_rule: Option<Rule>,
) -> Option<FixResult> {
    let (snapshot, path) = {
        let state = session.lock();
        let doc = state.docs.get(uri)?;
        let policy = state.settings.policy_for(doc.path.as_deref());
        (Snapshot::of(doc, state.encoding, policy), doc.path.clone())
    };
    let rules = if snapshot.text_is_the_bytes {
        Rules::All
    } else if snapshot.reads_text && only_rule.is_none_or(|r| r.reads() == Reads::Characters) {
        Rules::Characters
    } else {
        return None;
    };
    let select = match only_rule {
        Some(rule) => gate::Select::Rule(rule),
        None => gate::Select::Applicable {
            unsafe_fixes: false,
        },
    };
    let planned = tokio::task::spawn_blocking(move || {
        let bytes = crate::buffer::text_bytes(&snapshot.rope);
        let changes =
            crate::buffer::fix_text(&bytes, path.as_deref(), &snapshot.policy, rules, &select);
        (snapshot, bytes.len(), changes)
    })
    .await
    .ok()?;
    let (snapshot, len, changes) = planned;
    let changes = match changes {
        Ok(Some(changes)) => changes,
        Ok(None) => return None,
        Err(why) => {
            tracing::debug!("utf8lint.fixAll of {uri}: not an edit of the text: {why}");
            return None;
        }
    };
    let size = changes
        .iter()
        .fold(len, |n, (range, new)| n - range.len() + new.len());
    let applied = changes.len();
    let edit = WorkspaceEdit {
        document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version: Some(snapshot.version),
            },
            edits: text_edits(&snapshot, changes)
                .into_iter()
                .map(OneOf::Left)
                .collect(),
        }])),
        ..WorkspaceEdit::default()
    };
    let client = session.client.clone();
    tokio::spawn(async move {
        match client.apply_edit(edit).await {
            Ok(answer) if !answer.applied => tracing::info!(
                "the client did not apply utf8lint's fixes: {}",
                answer.failure_reason.unwrap_or_default()
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!("workspace/applyEdit failed: {e}"),
        }
    });
    Some(FixResult {
        path: uri
            .to_file_path()
            .map_or_else(|_| uri.to_string(), |p| p.display().to_string()),
        applied,
        size,
    })
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
        .filter(|i| !i.hover.is_empty())
        .map(|i| i.hover.clone())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n---\n\n"))
}

/// A command argument or result as JSON (plain strings and numbers: it
/// cannot fail).
fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The per-rule actions of a code action request: "Allow `rule` on this
/// line", "Allow `rule` in this file" (or in `utf8lint.toml` for a format
/// without comments), "Fix all `rule` findings in this file". Each one
/// once per request, however many of the rule's diagnostics it names.
struct AllowActions {
    uri: Url,
    doc: Option<Snapshot>,
    /// The file's name, for its comment syntax.
    name: String,
    path: Option<std::path::PathBuf>,
    roots: Vec<std::path::PathBuf>,
    /// The line actions so far, then the file-level ones, then fix-all.
    lines: Vec<CodeAction>,
    files: Vec<CodeAction>,
    fix_alls: Vec<Slot>,
    seen: std::collections::HashSet<String>,
    items: Option<Vec<publish::Item>>,
}

impl AllowActions {
    fn new(session: &Session, uri: &Url) -> AllowActions {
        let state = session.lock();
        let doc = state.docs.get(uri);
        let snapshot = doc.map(|doc| {
            let policy = state.settings.policy_for(doc.path.as_deref());
            Snapshot::of(doc, state.encoding, policy)
        });
        AllowActions {
            uri: uri.clone(),
            doc: snapshot,
            name: uri
                .path_segments()
                .and_then(|mut s| s.next_back())
                .map(percent_decode)
                .unwrap_or_default(),
            path: doc.and_then(|d| d.path.clone()),
            roots: state.roots.clone(),
            lines: Vec::new(),
            files: Vec::new(),
            fix_alls: Vec::new(),
            seen: std::collections::HashSet::new(),
            items: None,
        }
    }

    /// A code action inserting `insert` in the document.
    fn edit(
        uri: &Url,
        doc: &Snapshot,
        title: String,
        insert: &allow::Insert,
        d: &Diagnostic,
    ) -> CodeAction {
        let at = crate::convert::position_in(&doc.rope, insert.at, doc.encoding, &doc.raw);
        let mut action = text_edit_action(
            uri,
            Some(doc.version),
            title,
            vec![TextEdit::new(Range::new(at, at), insert.text.clone())],
            CodeActionKind::QUICKFIX,
            false,
        );
        action.diagnostics = Some(vec![d.clone()]);
        action
    }

    /// A code action running `utf8lint.allow`, which writes the comment
    /// into the file on disk, in the file's own encoding.
    fn on_disk(
        &self,
        title: String,
        rule: Rule,
        scope: AllowScope,
        line: usize,
        d: &Diagnostic,
    ) -> CodeAction {
        let args = AllowArgs {
            uri: self.uri.clone(),
            rule: rule.code().to_owned(),
            scope,
            line: line as u32,
        };
        CodeAction {
            title: disk_fix_title(&title),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            command: Some(Command::new(
                format!("utf8lint: {title}"),
                allow_on_disk::ALLOW.into(),
                Some(vec![to_value(&args)]),
            )),
            ..CodeAction::default()
        }
    }

    /// The actions for one of the server's diagnostics.
    fn add(&mut self, d: &Diagnostic, data: &FindingData, disk_fixes: DiskFixes) {
        let Some(rule) = data.rule.as_deref().and_then(Rule::find) else {
            return;
        };
        let Some(doc) = &self.doc else {
            return;
        };
        if data.origin == crate::data::Origin::Note || data.version != doc.version {
            return;
        }
        let name = rule.name();
        let line = d.range.start.line as usize;
        match allow::syntax(&self.name) {
            Some(syntax) => {
                // A buffer that cannot hold the file exactly is never
                // edited: the comment is written on disk, while the buffer
                // is the file's text (else the save would write over it).
                let on_disk = doc
                    .disk
                    .as_ref()
                    .is_some_and(allow_on_disk::editor_cannot_hold);
                if let Some(insert) = allow::on_line(&syntax, &doc.rope, line, name)
                    && self.seen.insert(format!("line {line} {name}"))
                {
                    let title = format!("Allow `{name}` on this line");
                    let action = if on_disk {
                        disk_fixes.offer(self.on_disk(title, rule, AllowScope::Line, line, d))
                    } else {
                        Some(Self::edit(&self.uri, doc, title, &insert, d))
                    };
                    self.lines.extend(action);
                }
                if self.seen.insert(format!("file {name}")) {
                    let title = format!("Allow `{name}` in this file");
                    let action = if on_disk {
                        disk_fixes.offer(self.on_disk(title, rule, AllowScope::File, line, d))
                    } else {
                        let insert = allow::in_file(&syntax, &doc.rope, name);
                        Some(Self::edit(&self.uri, doc, title, &insert, d))
                    };
                    self.files.extend(action);
                }
            }
            None => {
                if self.seen.insert(format!("file {name}"))
                    && let Some(action) = self.in_config(rule, d)
                {
                    self.files.push(action);
                }
            }
        }
        if self.seen.insert(format!("fix {name}"))
            && let Some(mut slot) = self.fix_all(rule, disk_fixes)
        {
            match &mut slot {
                Slot::Ready(action) => action.diagnostics = Some(vec![d.clone()]),
                Slot::Planned(p) => {
                    p.diagnostic = Some(d.clone());
                    if let Some(action) = &mut p.fallback {
                        action.diagnostics = Some(vec![d.clone()]);
                    }
                }
            }
            self.fix_alls.push(slot);
        }
    }

    /// "Allow `rule` for this file in utf8lint.toml": the format has no
    /// comments, so the level is set for the file's path, in the nearest
    /// `utf8lint.toml` above it (created at the workspace folder if none).
    fn in_config(&self, rule: Rule, d: &Diagnostic) -> Option<CodeAction> {
        let path = self.path.as_ref()?;
        let dir = path.parent()?;
        let root = self.roots.iter().find(|r| path.starts_with(r));
        let config_dir = dir
            .ancestors()
            .take_while(|a| root.is_none_or(|r| a.starts_with(r)))
            .find(|a| a.join("utf8lint.toml").is_file())
            .or(root.map(|r| r.as_path()))
            .unwrap_or(dir);
        let relative = path.strip_prefix(config_dir).ok()?;
        let relative: Vec<&str> = relative
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect::<Option<_>>()?;
        let relative = relative.join("/");
        // A name that glob syntax would read otherwise is left to the user.
        if relative.contains(['*', '?', '[', ']', '{', '}', '\\', '"']) {
            return None;
        }
        let config = config_dir.join("utf8lint.toml");
        let config_uri = Url::from_file_path(&config).ok()?;
        let entry = format!("\"{relative}\" = {{ {} = \"allow\" }}\n", rule.name());
        let existing = std::fs::read_to_string(&config).ok();
        let why = match self.name.rsplit_once('.') {
            Some((_, ext)) if ext.eq_ignore_ascii_case("json") => "JSON has no comments".to_owned(),
            _ => "utf8lint knows no comment syntax for this file".to_owned(),
        };
        let title = format!(
            "Allow `{}` for this file in utf8lint.toml ({why})",
            rule.name()
        );
        let (at, text) = match &existing {
            Some(text) => {
                if text.contains(&format!("\"{relative}\" =")) {
                    // The file has an entry already: adding a second would
                    // make the TOML invalid.
                    return None;
                }
                match text.lines().position(|l| l.trim() == "[per-file-lints]") {
                    Some(header) => (
                        tower_lsp::lsp_types::Position::new(header as u32 + 1, 0),
                        entry,
                    ),
                    None => {
                        let sep = if text.is_empty() || text.ends_with('\n') {
                            "\n"
                        } else {
                            "\n\n"
                        };
                        (
                            end_position(text),
                            format!("{sep}[per-file-lints]\n{entry}"),
                        )
                    }
                }
            }
            None => (
                tower_lsp::lsp_types::Position::new(0, 0),
                format!("[per-file-lints]\n{entry}"),
            ),
        };
        let edit = TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: config_uri.clone(),
                version: None,
            },
            edits: vec![OneOf::Left(TextEdit::new(Range::new(at, at), text))],
        };
        let mut operations = Vec::new();
        if existing.is_none() {
            operations.push(DocumentChangeOperation::Op(ResourceOp::Create(
                CreateFile {
                    uri: config_uri,
                    options: Some(CreateFileOptions {
                        overwrite: Some(false),
                        ignore_if_exists: Some(true),
                    }),
                    annotation_id: None,
                },
            )));
        }
        operations.push(DocumentChangeOperation::Edit(edit));
        Some(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(operations)),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        })
    }

    /// "Fix all `rule` findings in this file": the rule's fixes the gate
    /// plans on the text, as one edit, when its findings have fixes the
    /// text can hold; else each finding's first text fix (its safe one, if
    /// it has one) as one edit; when none has one and the buffer matches
    /// the disk, the fixes on disk as a command.
    fn fix_all(&mut self, rule: Rule, disk_fixes: DiskFixes) -> Option<Slot> {
        let doc = self.doc.as_ref()?;
        let items = self.items.get_or_insert_with(|| publish::items(doc));
        let mut edits = Vec::new();
        let mut on_disk = 0;
        let mut planned = None;
        for item in items.iter().filter(|i| i.rule == Some(rule)) {
            let Some(data) = &item.data else {
                continue;
            };
            if !data.edit_fixes.is_empty() {
                planned.get_or_insert(rules_of(data.origin));
            }
            let fix = data
                .text_fixes
                .iter()
                .find(|f| f.safe)
                .or(data.text_fixes.first());
            if let Some(fix) = fix {
                let range = crate::convert::range_in(
                    &doc.rope,
                    item.range.start,
                    item.range.end,
                    doc.encoding,
                    &doc.raw,
                );
                edits.push(TextEdit::new(range, fix.new_text.clone()));
            } else if !data.disk_fixes.is_empty() {
                on_disk += 1;
            }
        }
        let name = rule.name();
        let title = format!("Fix all `{name}` findings in this file");
        let fallback = if !edits.is_empty() {
            Some(text_edit_action(
                &self.uri,
                Some(doc.version),
                title.clone(),
                edits,
                CodeActionKind::QUICKFIX,
                false,
            ))
        } else {
            let action = (on_disk > 0).then(|| CodeAction {
                title: format!("{title} (rewrites the file on disk)"),
                kind: Some(CodeActionKind::QUICKFIX),
                command: Some(Command::new(
                    format!("utf8lint: fix all `{name}` findings on disk"),
                    FIX_ALL.into(),
                    Some(vec![to_value(&FixAllArgs {
                        uri: self.uri.clone(),
                        rule: Some(rule.code().to_owned()),
                    })]),
                )),
                ..CodeAction::default()
            });
            action.and_then(|a| disk_fixes.offer(a))
        };
        match planned {
            Some(rules) => Some(Slot::Planned(Box::new(Planned {
                title,
                kind: CodeActionKind::QUICKFIX,
                preferred: false,
                diagnostic: None,
                rules,
                select: gate::Select::Rule(rule),
                fallback,
            }))),
            None => fallback.map(|a| Slot::Ready(Box::new(a))),
        }
    }

    /// The actions, the fixes' order after: line, file, fix-all.
    fn finish(self) -> impl Iterator<Item = Slot> {
        self.lines
            .into_iter()
            .chain(self.files)
            .map(|a| Slot::Ready(Box::new(a)))
            .chain(self.fix_alls)
    }
}

/// The title of a fix made on disk: the fix's own, saying so in one
/// parenthetical: "convert the file from windows-1252 to UTF-8 (rewrites
/// the file on disk)", "remove the byte-order mark (the file gets 3 bytes
/// shorter; rewrites the file on disk)".
pub(crate) fn disk_fix_title(title: &str) -> String {
    const ON_DISK: &str = "rewrites the file on disk";
    match title.strip_suffix(')').and_then(|t| t.rsplit_once(" (")) {
        // "(rewrites every byte)" says less than "rewrites the file".
        Some((head, inner)) if inner.starts_with("rewrites") => format!("{head} ({ON_DISK})"),
        Some((head, inner)) => {
            let inner = inner.split_once(": ").map_or(inner, |(first, _)| first);
            format!("{head} ({inner}; {ON_DISK})")
        }
        None => format!("{title} ({ON_DISK})"),
    }
}

/// Where an insertion at the end of `text` goes.
fn end_position(text: &str) -> tower_lsp::lsp_types::Position {
    let line = text.matches('\n').count();
    let last = text.rsplit('\n').next().unwrap_or("");
    tower_lsp::lsp_types::Position::new(line as u32, last.encode_utf16().count() as u32)
}

/// A URI path segment with its `%XX` escapes decoded (lossily).
fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = segment
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
