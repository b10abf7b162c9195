//! The workspace scan at start-up: every file under the workspace folders,
//! found by the walk the CLI uses (`utf8lint_workspace::walker`: ignore
//! files, `.utf8lintignore`, hidden files included as `utf8lint check`
//! includes them by default, never `.git`), read once and
//! checked on several threads, with findings published for the files that
//! are not open.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;
use tower_lsp::lsp_types::{
    self as lsp, NumberOrString, ProgressParams, ProgressParamsValue, Url, WorkDoneProgress,
    WorkDoneProgressBegin, WorkDoneProgressCreateParams, WorkDoneProgressEnd,
    WorkDoneProgressReport, notification::Progress, request::WorkDoneProgressCreate,
};
use utf8lint_workspace::{WalkOptions, walker};

use crate::client_settings::{SCAN_LIMIT_BYTES, SCAN_LIMIT_FILES, Settings};
use crate::convert::Encoding;
use crate::disk::Scratch;
use crate::session::Session;

/// At most this many threads check files at start-up: the editor and the
/// server's own workers need the rest of the machine.
const MAX_SCAN_THREADS: usize = 4;

/// Regular files under `roots` as the CLI's walk finds them; `None` if
/// `limited` and there are more than the limits allow.
fn files(roots: &[PathBuf], limited: bool) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for entry in walker(roots, WalkOptions::default())?.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        total += entry.metadata().map(|m| m.len()).unwrap_or(0);
        out.push(entry.into_path());
        if limited && (total > SCAN_LIMIT_BYTES || out.len() > SCAN_LIMIT_FILES) {
            return None;
        }
    }
    Some(out)
}

/// What a scan thread found for one file.
struct Checked {
    uri: Url,
    /// `None`: nothing to publish (no findings, open in the editor, unreadable).
    diagnostics: Option<Vec<lsp::Diagnostic>>,
}

/// Checks `list` on a few threads, sending one [`Checked`] per file.
/// Files the editor has open are left to their own workers.
fn check_all(
    session: &Session,
    list: &[PathBuf],
    settings: &Settings,
    encoding: Encoding,
    out: &mpsc::Sender<Checked>,
) {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, MAX_SCAN_THREADS);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut scratch = Scratch::default();
                while let Some(path) = list.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Ok(uri) = Url::from_file_path(path) else {
                        continue;
                    };
                    let open = session.lock().docs.contains_key(&uri);
                    let diagnostics = if open {
                        None
                    } else {
                        crate::disk::check_file(path, settings, encoding, &mut scratch)
                    };
                    if out.blocking_send(Checked { uri, diagnostics }).is_err() {
                        return; // the server is going away
                    }
                }
            });
        }
    });
}

/// Scans the workspace if the settings allow, with progress.
pub(crate) async fn scan(session: Arc<Session>) {
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
        tracing::warn!(
            "the workspace has more than {SCAN_LIMIT_FILES} files or {} MiB: not scanned (set utf8lint.workspace-scan = true to scan anyway)",
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
    let total = list.len();
    if progress {
        session
            .client
            .send_notification::<Progress>(report(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: "utf8lint: checking the workspace".into(),
                cancellable: Some(false),
                message: Some(format!("{total} files")),
                percentage: Some(0),
            })))
            .await;
    }
    let (sender, mut results) = mpsc::channel(64);
    let checker = {
        let session = session.clone();
        tokio::task::spawn_blocking(move || {
            check_all(&session, &list, &settings, encoding, &sender);
        })
    };
    let mut done = 0;
    let mut with_findings = 0;
    while let Some(Checked { uri, diagnostics }) = results.recv().await {
        done += 1;
        if let Some(diagnostics) = diagnostics {
            let opened_meanwhile = {
                let mut state = session.lock();
                let open = state.docs.contains_key(&uri);
                if !open {
                    state.scanned.insert(uri.clone());
                }
                open
            };
            // An open document's own worker publishes for it.
            if !opened_meanwhile {
                with_findings += 1;
                session
                    .client
                    .publish_diagnostics(uri, diagnostics, None)
                    .await;
            }
        }
        if progress && done % 200 == 0 {
            session
                .client
                .send_notification::<Progress>(report(WorkDoneProgress::Report(
                    WorkDoneProgressReport {
                        cancellable: Some(false),
                        message: Some(format!("{done} of {total} files")),
                        percentage: Some(u32::try_from(done * 100 / total.max(1)).unwrap_or(100)),
                    },
                )))
                .await;
        }
    }
    let _ = checker.await;
    if progress {
        session
            .client
            .send_notification::<Progress>(report(WorkDoneProgress::End(WorkDoneProgressEnd {
                message: Some(format!("{with_findings} files with findings")),
            })))
            .await;
    }
}
