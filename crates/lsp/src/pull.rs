//! Pull diagnostics (LSP 3.17): `textDocument/diagnostic` and
//! `workspace/diagnostic`, beside the push of `publishDiagnostics`.
//!
//! A client gets each open document's diagnostics one way: by pull when it
//! says it can (`textDocument.diagnostic` in its capabilities), else by
//! push. Both at once would show every finding twice, as editors keep the
//! two apart (Neovim in two namespaces, VS Code in two collections). Files
//! nobody has open (the workspace scan) are always pushed.
//!
//! The worker builds a document's diagnostics as for a push and keeps them
//! as its report, under a result id that changes only when they do. A pull
//! waits (at most [`PULL_WAIT`]) for the report of the version the client
//! holds, so a pull right after `didOpen` or `didChange` gets the disk's
//! findings and the text's. A report that differs from the one the client
//! last pulled, while no pull of the document waits (a save, a file changed
//! on disk, new settings; an edit, for a client that pulls only on open and
//! on refresh, as VS Code's does by default), is announced with
//! `workspace/diagnostic/refresh`.

use std::sync::Arc;
use std::time::Duration;

use tower_lsp::lsp_types::{
    self as lsp, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
    RelatedUnchangedDocumentDiagnosticReport, UnchangedDocumentDiagnosticReport, Url,
    WorkspaceDiagnosticReport, WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceUnchangedDocumentDiagnosticReport,
};

use crate::document::Report;
use crate::session::Session;

/// How long a pull waits for the report of the document's version.
pub(crate) const PULL_WAIT: Duration = Duration::from_secs(2);

/// `textDocument/diagnostic`.
pub(crate) async fn document(
    session: &Arc<Session>,
    uri: Url,
    previous: Option<String>,
) -> DocumentDiagnosticReportResult {
    let deadline = tokio::time::Instant::now() + PULL_WAIT;
    if let Some(doc) = session.lock().docs.get_mut(&uri) {
        doc.pulls_waiting += 1;
    }
    let report = loop {
        let mut reports = session.reports.subscribe();
        let (report, open) = {
            let state = session.lock();
            if !state.features.pull {
                // Pushed already: a pull is answered with the same, at once.
                drop(state);
                break now(session, &uri);
            }
            match state.docs.get(&uri) {
                Some(doc) => (
                    doc.report.clone().filter(|r| r.version == doc.version),
                    true,
                ),
                None => (None, false),
            }
        };
        if !open {
            break not_open(session, &uri).await;
        }
        if let Some(report) = report {
            break report;
        }
        if tokio::time::timeout_at(deadline, reports.changed())
            .await
            .is_err()
        {
            // The worker is slow (a huge file, settings not in yet): what
            // is known now, under an id that a later report will not match.
            break now(session, &uri);
        }
    };
    if let Some(doc) = session.lock().docs.get_mut(&uri) {
        doc.pulls_waiting = doc.pulls_waiting.saturating_sub(1);
        doc.answered = Some((report.version, report.id.clone()));
    }
    let report = if previous.as_deref() == Some(report.id.as_str()) {
        DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
            related_documents: None,
            unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                result_id: report.id,
            },
        })
    } else {
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: Some(report.id),
                items: report.diagnostics,
            },
        })
    };
    DocumentDiagnosticReportResult::Report(report)
}

/// The diagnostics of an open document as they stand, before its worker
/// has a report of its version.
fn now(session: &Arc<Session>, uri: &Url) -> Report {
    let snapshot = {
        let state = session.lock();
        state.docs.get(uri).map(|doc| {
            let policy = state.settings.policy_for(doc.path.as_deref());
            crate::publish::Snapshot::of(doc, state.encoding, policy)
        })
    };
    match snapshot {
        Some(s) => Report {
            version: s.version,
            id: format!("partial-{}", s.version),
            diagnostics: crate::publish::diagnostics(&s),
        },
        None => Report {
            version: 0,
            id: "closed".into(),
            diagnostics: Vec::new(),
        },
    }
}

/// The report of a file nobody has open: checked on disk as the workspace
/// scan checks it (nothing for what is not a file).
async fn not_open(session: &Arc<Session>, uri: &Url) -> Report {
    let (settings, encoding) = {
        let state = session.lock();
        (state.settings.clone(), state.encoding)
    };
    let diagnostics = match uri.to_file_path() {
        Ok(path) if uri.scheme() == "file" => tokio::task::spawn_blocking(move || {
            crate::disk::check_file(&path, &settings, encoding, &mut Default::default())
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default(),
        _ => Vec::new(),
    };
    Report {
        version: 0,
        id: format!("disk-{}", diagnostics.len()),
        diagnostics,
    }
}

/// `workspace/diagnostic`: the reports of the open documents (files nobody
/// has open are pushed by the workspace scan, never reported twice), each
/// `unchanged` when the client holds it already. For a client that gets
/// pushes, nothing: it has them.
pub(crate) fn workspace(
    session: &Arc<Session>,
    previous: Vec<lsp::PreviousResultId>,
) -> WorkspaceDiagnosticReportResult {
    let state = session.lock();
    let mut items = Vec::new();
    if state.features.pull {
        for (uri, doc) in &state.docs {
            let Some(report) = &doc.report else {
                continue;
            };
            let version = Some(i64::from(report.version));
            let held = previous
                .iter()
                .any(|p| p.uri == *uri && p.value == report.id);
            items.push(if held {
                WorkspaceDocumentDiagnosticReport::Unchanged(
                    WorkspaceUnchangedDocumentDiagnosticReport {
                        uri: uri.clone(),
                        version,
                        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                            result_id: report.id.clone(),
                        },
                    },
                )
            } else {
                WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                    uri: uri.clone(),
                    version,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: Some(report.id.clone()),
                        items: report.diagnostics.clone(),
                    },
                })
            });
        }
    }
    WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items })
}
