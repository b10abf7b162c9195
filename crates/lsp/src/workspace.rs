//! The workspace scan at start-up: every file under the workspace folders
//! (the `ignore` crate's walker, as the CLI walks), checked from disk, with
//! findings published for the files that are not open.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ropey::Rope;
use tower_lsp::lsp_types::{
    self as lsp, NumberOrString, ProgressParams, ProgressParamsValue, Url, WorkDoneProgress,
    WorkDoneProgressBegin, WorkDoneProgressCreateParams, WorkDoneProgressEnd,
    WorkDoneProgressReport, notification::Progress, request::WorkDoneProgressCreate,
};
use utf8lint_codec::decode_lossy;

use crate::config::{SCAN_LIMIT_BYTES, SCAN_LIMIT_FILES, Settings};
use crate::convert::Encoding;
use crate::document::Document;
use crate::publish::{self, Snapshot};
use crate::session::{Session, disk_view};

/// The diagnostics for a file nobody has open, placed as VS Code would
/// show it (lossy UTF-8, BOM stripped); `None` when it has none.
pub fn check_file(
    path: &Path,
    settings: &Settings,
    encoding: Encoding,
) -> Option<Vec<lsp::Diagnostic>> {
    let uri = Url::from_file_path(path).ok()?;
    let (bytes, _) = crate::disk::read(path).ok()?;
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = decode_lossy(body);
    let rope = Rope::from_str(&text);
    drop(bytes);
    let (policy, skip_binary) = settings.resolve(Some(path));
    let disk = disk_view(path, &rope, &policy, skip_binary);
    if disk.findings.is_empty() {
        return None;
    }
    let mut doc = Document::new(uri, 0, "");
    doc.rope = rope;
    doc.disk = Some(disk);
    doc.marks_ready = true;
    let mut snapshot = Snapshot::of(&doc, encoding, policy);
    snapshot.in_editor = false;
    let diagnostics = publish::diagnostics(&snapshot);
    (!diagnostics.is_empty()).then_some(diagnostics)
}

/// Files under `roots`, honouring `.gitignore`; `None` if there are more
/// than the limits allow.
fn files(roots: &[PathBuf], limited: bool) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for root in roots {
        for entry in ignore::WalkBuilder::new(root).build().flatten() {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            total += entry.metadata().map(|m| m.len()).unwrap_or(0);
            out.push(entry.into_path());
            if limited && (total > SCAN_LIMIT_BYTES || out.len() > SCAN_LIMIT_FILES) {
                return None;
            }
        }
    }
    Some(out)
}

/// Scans the workspace if the settings allow, with progress.
pub async fn scan(session: Arc<Session>) {
    let (roots, settings, encoding, progress) = {
        let state = session.lock();
        (
            state.roots.clone(),
            state.settings.clone(),
            state.encoding,
            state.features.progress,
        )
    };
    if settings.workspace_scan == Some(false) || roots.is_empty() {
        return;
    }
    let limited = settings.workspace_scan.is_none();
    let list = tokio::task::spawn_blocking(move || files(&roots, limited))
        .await
        .ok()
        .flatten();
    let Some(list) = list else {
        eprintln!(
            "utf8lint lsp: the workspace has more than {SCAN_LIMIT_FILES} files or {} MiB: not scanned (set utf8lint.workspace-scan = true to scan anyway)",
            SCAN_LIMIT_BYTES >> 20
        );
        return;
    };
    let token = NumberOrString::String("utf8lint/workspace-scan".into());
    let progress = progress
        && session
            .client
            .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
                token: token.clone(),
            })
            .await
            .is_ok();
    let report = |value: WorkDoneProgress| ProgressParams {
        token: token.clone(),
        value: ProgressParamsValue::WorkDone(value),
    };
    if progress {
        session
            .client
            .send_notification::<Progress>(report(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: "utf8lint: checking the workspace".into(),
                cancellable: Some(false),
                message: Some(format!("{} files", list.len())),
                percentage: Some(0),
            })))
            .await;
    }
    let total = list.len().max(1);
    let mut with_findings = 0;
    for (i, path) in list.into_iter().enumerate() {
        let Ok(uri) = Url::from_file_path(&path) else {
            continue;
        };
        if session.lock().docs.contains_key(&uri) {
            continue;
        }
        let settings = settings.clone();
        let found = tokio::task::spawn_blocking(move || check_file(&path, &settings, encoding))
            .await
            .ok()
            .flatten();
        if let Some(diagnostics) = found {
            {
                let mut state = session.lock();
                if state.docs.contains_key(&uri) {
                    continue; // opened meanwhile: its own worker publishes
                }
                state.scanned.insert(uri.clone());
            }
            with_findings += 1;
            session
                .client
                .publish_diagnostics(uri, diagnostics, None)
                .await;
        }
        if progress && (i + 1) % 200 == 0 {
            session
                .client
                .send_notification::<Progress>(report(WorkDoneProgress::Report(
                    WorkDoneProgressReport {
                        cancellable: Some(false),
                        message: Some(format!("{} of {total} files", i + 1)),
                        percentage: Some(u32::try_from((i + 1) * 100 / total).unwrap_or(100)),
                    },
                )))
                .await;
        }
    }
    if progress {
        session
            .client
            .send_notification::<Progress>(report(WorkDoneProgress::End(WorkDoneProgressEnd {
                message: Some(format!("{with_findings} files with findings")),
            })))
            .await;
    }
}
