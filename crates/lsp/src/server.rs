//! The `LanguageServer` implementation: thin, everything is in the session.
//!
//! No handler waits for an answer from the client. tower-lsp 0.20 runs at
//! most four handlers at a time and queues a hundred more: handlers parked
//! on a client that never answers would stop it reading its input, end of
//! input included. Requests to the client (`workspace/configuration`,
//! `client/registerCapability`, progress) run in tasks of their own.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tower_lsp::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer};

use crate::actions::{self, APPLY_FIX, FIX_ALL, FIX_ALL_KIND};
use crate::allow_on_disk::{self, ALLOW};
use crate::lifecycle::Lifecycle;
use crate::session::Session;
use crate::transport::{MAX_BODY, RepairLog, TooLarge};
use utf8lint_diagnostics::escape_shown;

/// The server.
pub struct Server {
    session: Arc<Session>,
    lifecycle: Arc<Lifecycle>,
}

impl Server {
    /// A server talking to `client`.
    pub fn new(client: Client, repairs: Arc<RepairLog>) -> Server {
        Server::with_lifecycle(client, repairs, Arc::default())
    }

    /// A server that notes `shutdown` in `lifecycle`.
    pub(crate) fn with_lifecycle(
        client: Client,
        repairs: Arc<RepairLog>,
        lifecycle: Arc<Lifecycle>,
    ) -> Server {
        Server {
            session: Arc::new(Session::new(client, repairs)),
            lifecycle,
        }
    }

    /// `$/setTrace`: the client's trace setting changed.
    pub(crate) async fn set_trace(&self, params: SetTraceParams) {
        crate::log::set_trace(params.value);
    }

    /// What the transport made of a `didOpen` too large to hold: the user
    /// is told which document is not checked, and why.
    pub(crate) async fn document_too_large(&self, note: TooLarge) {
        let message = too_large_message(&note);
        tracing::warn!("{message}");
        self.session
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }

    /// What the transport renamed an `exit` sent with an `id` to: refused,
    /// as `exit` is a notification; the server goes on.
    pub(crate) async fn exit_sent_as_request(&self) -> Result<()> {
        Err(Error {
            code: ErrorCode::InvalidRequest,
            message: "`exit` is a notification: sent as a request (with an id) it is refused, and the server goes on"
                .into(),
            data: None,
        })
    }
}

/// At most this many characters of a document's name are shown.
const SHOWN_NAME_CHARS: usize = 256;

/// What the user is told of a document the server will not hold: its file
/// (or URI), escaped, and the limit.
fn too_large_message(note: &TooLarge) -> String {
    let name = note.uri.as_deref().map_or_else(
        || "a document".to_string(),
        |uri| {
            let shown = Url::parse(uri)
                .ok()
                .filter(|u| u.scheme() == "file")
                .and_then(|u| u.to_file_path().ok())
                .map_or_else(|| uri.to_string(), |p| p.display().to_string());
            // The URI is the client's: bounded, as every echo of its text.
            let cut: String = shown.chars().take(SHOWN_NAME_CHARS).collect();
            let more = if cut.len() < shown.len() { "..." } else { "" };
            format!("`{}{more}`", escape_shown(&cut))
        },
    );
    let mib = note.bytes.div_ceil(1 << 20);
    format!(
        "utf8lint does not check {name}: the editor sent it as a message of {mib} MiB, over the language server's limit of {} MiB per message",
        MAX_BODY >> 20
    )
}

fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let from_folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| f.uri.to_file_path().ok())
        .collect();
    if !from_folders.is_empty() {
        return from_folders;
    }
    #[allow(deprecated)]
    let root = params.root_uri.as_ref().and_then(|u| u.to_file_path().ok());
    root.into_iter().collect()
}

#[tower_lsp::async_trait]
impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        if let Some(trace) = params.trace {
            crate::log::set_trace(trace);
        }
        match &params.client_info {
            Some(ClientInfo {
                name,
                version: Some(version),
            }) => tracing::info!("initialize from {name} {version}"),
            Some(ClientInfo { name, .. }) => tracing::info!("initialize from {name}"),
            None => tracing::info!("initialize"),
        }
        let encoding = self.session.initialize(
            &params.capabilities,
            roots(&params),
            params.initialization_options.as_ref(),
        );
        // tower-lsp takes the server for initialized as this returns, in
        // the same poll: the transport hands on the next frame after that.
        self.lifecycle.note_initialized();
        Ok(InitializeResult {
            server_info: Some(ServerInfo {
                name: "utf8lint".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                            include_text: Some(false),
                        })),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::new(FIX_ALL_KIND),
                        ]),
                        ..CodeActionOptions::default()
                    },
                )),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: vec![APPLY_FIX.into(), FIX_ALL.into(), ALLOW.into()],
                    ..ExecuteCommandOptions::default()
                }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                diagnostic_provider: Some(DiagnosticServerCapabilities::Options(
                    DiagnosticOptions {
                        identifier: Some("utf8lint".into()),
                        inter_file_dependencies: false,
                        workspace_diagnostics: true,
                        ..DiagnosticOptions::default()
                    },
                )),
                ..ServerCapabilities::default()
            },
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let watch = self.session.lock().features.watch_dynamic;
        if watch {
            let watchers = ["**/utf8lint.toml", "**/.editorconfig", "**/*"]
                .into_iter()
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String(glob.into()),
                    kind: None,
                })
                .collect();
            let registration = Registration {
                id: "utf8lint-watch".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
                    watchers,
                })
                .ok(),
            };
            let client = self.session.client.clone();
            tokio::spawn(async move {
                if let Err(e) = client.register_capability(vec![registration]).await {
                    tracing::warn!("could not register file watchers: {e}");
                }
            });
        }
        self.session.refresh_configuration();
        let session = self.session.clone();
        tokio::spawn(async move {
            // Under the client's settings, or the defaults if it is slow.
            session.wait_ready().await;
            crate::workspace::scan(session).await;
        });
    }

    async fn shutdown(&self) -> Result<()> {
        // tower-lsp calls this only once, and only after `initialize`.
        tracing::info!("shutdown");
        self.lifecycle.note_shutdown();
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.session.open(doc.uri, doc.version, &doc.text);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // Applied before any .await: see session.rs.
        let doc = params.text_document;
        self.session
            .change(&doc.uri, doc.version, params.content_changes);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.session.saved(&params.text_document.uri);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.session.close(params.text_document.uri).await;
    }

    async fn did_change_configuration(&self, _: DidChangeConfigurationParams) {
        self.session.refresh_configuration();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        for change in params.changes {
            self.session
                .file_changed(&change.uri, change.typ == FileChangeType::DELETED)
                .await;
        }
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        Ok(Some(actions::code_actions(&self.session, params).await))
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        Ok(crate::pull::document(
            &self.session,
            params.text_document.uri,
            params.previous_result_id,
        )
        .await)
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        Ok(crate::pull::workspace(
            &self.session,
            params.previous_result_ids,
        ))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let pos = params.text_document_position_params;
        Ok(
            actions::hover(&self.session, &pos.text_document.uri, pos.position).map(|text| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: text,
                }),
                range: None,
            }),
        )
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if params.command == ALLOW {
            return allow_on_disk::execute(&self.session, params.arguments).await;
        }
        actions::execute(&self.session, &params.command, params.arguments).await
    }
}
