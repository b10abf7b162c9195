//! utf8lint's language server. `utf8lint lsp` speaks LSP on stdin/stdout and
//! publishes what the diagnostics crate finds in the bytes on disk, placed
//! on the editor's text (see mapping.rs), plus what the text itself holds.
//!
//! * `transport.rs`: stdin re-framing, so a frame that is not valid UTF-8
//!   or not JSON-RPC never ends the server; `lifecycle.rs` how the server
//!   ends (`exit`, end of input, a closed output) and its exit code;
//!   `log.rs` the logs (`tracing` on stderr, at the client's trace level);
//!   `memory.rs` the allocator's tuning for the server's process.
//! * `server.rs`: the thin `LanguageServer` impl; `session.rs` the state and
//!   the per-document workers; `document.rs` the rope and what is placed in
//!   it; `convert.rs` positions; `mapping.rs` disk bytes ↔ editor text;
//!   `buffer.rs` the character rules on the text as typed and their
//!   fixes as edits (`quiet_edit.rs`: which edits need no new check); `publish.rs` LSP diagnostics; `actions.rs` code actions, commands,
//!   hovers; `data.rs` the typed `Diagnostic.data` and command arguments;
//!   `disk.rs` reading a file and placing its findings in a text;
//!   `workspace.rs` the start-up scan; `client_settings.rs` the editor's settings.

// Private: the crate's interface is `serve`, `run`, `tune_allocator`,
// `Ending`, `Server`, `RepairLog` (and a counter for tests); everything else may change with the
// server.
mod actions;
mod allow;
mod allow_on_disk;
mod buffer;
mod client_settings;
mod convert;
mod data;
mod disk;
mod document;
mod lifecycle;
mod log;
mod mapping;
mod memory;
mod publish;
mod pull;
mod quiet_edit;
mod server;
mod session;
mod transport;
mod workspace;

pub use lifecycle::Ending;
pub use memory::tune_allocator;
pub use server::Server;
pub use transport::RepairLog;

/// Bytes of editors' text the character rules have read in this process
/// (for tests that count what an edit costs).
#[doc(hidden)]
pub use buffer::text_bytes_checked;

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp::{LspService, Server as LspServer};

use crate::lifecycle::{GRACE, Lifecycle, Output};
use crate::transport::{EXIT_AS_REQUEST, Reframe};

/// Serves LSP on `input`/`output` until the client exits, the input ends or
/// the output closes; returns why it stopped.
///
/// Once the input is over, tower-lsp's loop gets two seconds to answer the
/// requests it already read; whatever still waits then (an answer from a
/// client that is gone, a write nobody reads) is dropped. Once the output
/// fails, the loop is dropped at once. The input is read on a task of its
/// own, so its end is seen even when tower-lsp stops reading (its queue
/// full of answers nobody reads): two seconds without progress after it,
/// the loop is dropped too.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite,
{
    let repairs = Arc::new(RepairLog::default());
    let lifecycle = Arc::new(Lifecycle::default());
    let (service, socket) = {
        let (repairs, lifecycle) = (repairs.clone(), lifecycle.clone());
        LspService::build(move |client| Server::with_lifecycle(client, repairs, lifecycle))
            .custom_method(EXIT_AS_REQUEST, Server::exit_sent_as_request)
            .custom_method("$/setTrace", Server::set_trace)
            .custom_method(transport::DOCUMENT_TOO_LARGE, Server::document_too_large)
            .finish()
    };
    let (incoming, reading) = transport::read_input(input, lifecycle.clone());
    let serving = LspServer::new(
        Reframe::new(incoming, repairs, lifecycle.clone()),
        Output::new(output, lifecycle.clone()),
        socket,
    )
    .serve(service);
    tokio::pin!(serving);
    tokio::select! {
        () = &mut serving => {}
        () = lifecycle.over() => {
            if !lifecycle.output_closed()
                && tokio::time::timeout(GRACE, &mut serving).await.is_err()
            {
                tracing::warn!(
                    "requests still unanswered {} s after the end of the input: dropped",
                    GRACE.as_secs()
                );
            }
        }
        () = lifecycle.stalled_after_input_ended() => {
            tracing::warn!(
                "the input ended and no message was read for {} s (the output is not read): stopping",
                GRACE.as_secs()
            );
        }
    }
    reading.abort();
    let ending = lifecycle.ending();
    tracing::info!("stopping: {ending:?}, exit code {}", ending.code());
    ending
}

/// `utf8lint lsp`: serves stdin/stdout on a tokio runtime, in a process
/// whose allocator is tuned ([`tune_allocator`]); returns the exit code (0
/// after `shutdown` and `exit`, else 1).
pub fn run() -> anyhow::Result<u8> {
    let untuned = tune_allocator();
    log::init();
    if let Some(e) = untuned {
        tracing::info!("could not start again with the allocator tuned ({e}): going on");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let ending = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // tokio reads stdin on a blocking thread that may not return while the
    // client keeps the pipe open, and tasks may still wait for the client:
    // do not wait for them.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    log::flush();
    Ok(ending.code())
}
