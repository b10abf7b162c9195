//! utf8lint's language server. `utf8lint lsp` speaks LSP on stdin/stdout and
//! publishes what the diagnostics crate finds in the bytes on disk, placed
//! on the editor's text (see mapping.rs), plus what the text itself holds.
//!
//! * `transport.rs`: stdin re-framing, so a frame that is not valid UTF-8
//!   or not JSON-RPC never ends the server.
//! * `server.rs`: the thin `LanguageServer` impl; `session.rs` the state and
//!   the per-document workers; `document.rs` the rope and what is placed in
//!   it; `convert.rs` positions; `mapping.rs` disk bytes ↔ editor text;
//!   `publish.rs` LSP diagnostics; `actions.rs` code actions, commands,
//!   hovers; `data.rs` the typed `Diagnostic.data` and command arguments;
//!   `disk.rs` reading a file and placing its findings in a text;
//!   `workspace.rs` the start-up scan; `config.rs` the settings.

// Private: the crate's interface is `serve`, `run`, `Server` and
// `RepairLog`; everything else may change with the server.
mod actions;
mod allow;
mod config;
mod convert;
mod data;
mod disk;
mod document;
mod mapping;
mod publish;
mod server;
mod session;
mod transport;
mod workspace;

pub use server::Server;
pub use transport::RepairLog;

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp::{LspService, Server as LspServer};

use crate::transport::Reframe;

/// Serves LSP on `input`/`output` until the client exits or the input ends.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let repairs = Arc::new(RepairLog::default());
    let (service, socket) = {
        let repairs = repairs.clone();
        LspService::new(move |client| server::Server::new(client, repairs))
    };
    LspServer::new(Reframe::new(input, repairs), output, socket)
        .serve(service)
        .await;
}

/// `utf8lint lsp`: serves stdin/stdout on a tokio runtime.
pub fn run() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // tokio reads stdin on a blocking thread that may not return while the
    // client keeps the pipe open: do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    Ok(())
}
