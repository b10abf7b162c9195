//! How the server's life ends, and with which exit code.
//!
//! LSP: `exit` is a notification; the server then exits with 0 if
//! `shutdown` came first, else 1. A client that dies leaves the input at
//! end of file, which must end the server whatever it is waiting for.
//!
//! * The transport ([`crate::transport::Reframe`]) notes an `exit`
//!   notification and ends the input right after it; it answers an `exit`
//!   sent as a request (with an `id`) with an error instead of handing it on
//!   (tower-lsp 0.20 would take it for `exit` and then stop reading).
//! * When the input is over (end of file, `exit`, a read error), the serve
//!   loop gets [`GRACE`] to answer what it already read, then it is dropped
//!   (see `crate::serve`); when the output fails, at once.
//!   Handlers never wait for the client's answers (see server.rs), so the
//!   loop normally ends at once.
//! * End of input without `exit` exits with 1, as `exit` without
//!   `shutdown` does: the client went away without the closing handshake.
//! * The input is read on a task of its own ([`crate::transport::read_input`]),
//!   so that its end is seen even while tower-lsp has stopped reading (its
//!   queue full of answers a client that does not read will never take):
//!   once the input has ended and no frame has been handed on for
//!   [`GRACE`], the server stops.
//! * A pipelining client may write `initialize`, `shutdown` and `exit` in
//!   one burst; tower-lsp runs requests concurrently, so the transport holds
//!   the frames after `initialize` until it has been answered, and those
//!   after `shutdown` likewise (see [`Lifecycle::passed`]).

use std::io;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::io::AsyncWrite;
use tokio::sync::watch;

/// How long the serve loop may go on once the input is over or the output
/// closed: time to write the answers to requests already read.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

/// Why the server stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The client sent `exit`; `after_shutdown` tells whether a `shutdown`
    /// request was accepted before it.
    Exit {
        /// Whether `shutdown` was accepted before `exit`.
        after_shutdown: bool,
    },
    /// The input ended (or could not be read) without `exit`.
    InputEnded,
    /// The output could not be written any more: nobody reads it.
    OutputClosed,
}

impl Ending {
    /// The process's exit code: 0 for `exit` after `shutdown`, else 1.
    pub fn code(self) -> u8 {
        match self {
            Ending::Exit {
                after_shutdown: true,
            } => 0,
            _ => 1,
        }
    }
}

/// A request whose answer the transport waits for before handing on the
/// next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `initialize`: tower-lsp refuses everything else until it is answered.
    Initialize,
    /// `shutdown`: an `exit` handed on before it is served cancels it.
    Shutdown,
}

/// What the transport, the output and the server saw of the lifecycle.
#[derive(Debug)]
pub(crate) struct Lifecycle {
    initialized: AtomicBool,
    shutdown: AtomicBool,
    exit: AtomicBool,
    output_closed: AtomicBool,
    /// Frames the transport handed on so far.
    handed: AtomicUsize,
    /// The transport's reader, waiting for a [`Step`] to pass.
    waiting: Mutex<Option<Waker>>,
    /// Set once the input is over or the output closed.
    over: watch::Sender<bool>,
    /// Set once the reading task saw the end of the input.
    input_ended: watch::Sender<bool>,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Lifecycle {
            initialized: AtomicBool::new(false),
            shutdown: AtomicBool::new(false),
            exit: AtomicBool::new(false),
            output_closed: AtomicBool::new(false),
            handed: AtomicUsize::new(0),
            waiting: Mutex::new(None),
            over: watch::Sender::new(false),
            input_ended: watch::Sender::new(false),
        }
    }
}

impl Lifecycle {
    /// The `initialize` handler answered: tower-lsp takes the server for
    /// initialized as the handler returns.
    pub(crate) fn note_initialized(&self) {
        self.initialized.store(true, Ordering::SeqCst);
        self.wake_reader();
    }

    /// Whether `initialize` was answered.
    pub(crate) fn initialized(&self) -> bool {
        self.initialized.load(Ordering::SeqCst)
    }

    /// A `shutdown` request was accepted.
    pub(crate) fn note_shutdown(&self) {
        self.shutdown.store(true, Ordering::SeqCst);
        self.wake_reader();
    }

    /// Whether `shutdown` was accepted.
    pub(crate) fn shut_down(&self) -> bool {
        self.shutdown.load(Ordering::SeqCst)
    }

    /// Whether `step` has been served; if not, `cx` is woken when it is.
    pub(crate) fn passed(&self, step: Step, cx: &Context<'_>) -> bool {
        let done = || match step {
            Step::Initialize => self.initialized(),
            Step::Shutdown => self.shut_down(),
        };
        if done() {
            return true;
        }
        if let Ok(mut waiting) = self.waiting.lock() {
            *waiting = Some(cx.waker().clone());
        }
        // Noted between the first look and the waker's registration.
        done()
    }

    fn wake_reader(&self) {
        if let Some(waker) = self.waiting.lock().ok().and_then(|mut w| w.take()) {
            waker.wake();
        }
    }

    /// The transport handed on a frame.
    pub(crate) fn note_frame_handed(&self) {
        self.handed.fetch_add(1, Ordering::SeqCst);
    }

    /// The reading task saw the end of the input (or a read error).
    pub(crate) fn note_input_ended(&self) {
        self.input_ended.send_replace(true);
    }

    /// Resolves once the input has ended and the transport has handed on
    /// no frame for [`GRACE`]: tower-lsp has stopped reading (a client
    /// that does not read its answers filled its queue) and will not reach
    /// the end of the input by itself.
    pub(crate) async fn stalled_after_input_ended(&self) {
        let mut ended = self.input_ended.subscribe();
        let _ = ended.wait_for(|ended| *ended).await;
        let mut last = self.handed.load(Ordering::SeqCst);
        loop {
            tokio::time::sleep(GRACE).await;
            let now = self.handed.load(Ordering::SeqCst);
            if now == last {
                return;
            }
            last = now;
        }
    }

    /// The `exit` notification was handed to the server.
    pub(crate) fn note_exit(&self) {
        self.exit.store(true, Ordering::SeqCst);
    }

    /// The transport handed on its last frame: nothing more will be read.
    pub(crate) fn note_input_over(&self) {
        self.over.send_replace(true);
    }

    /// Writing the output failed: the client is not reading any more.
    fn note_output_closed(&self) {
        self.output_closed.store(true, Ordering::SeqCst);
        self.over.send_replace(true);
    }

    /// Whether the output failed: nothing more can reach the client.
    pub(crate) fn output_closed(&self) -> bool {
        self.output_closed.load(Ordering::SeqCst)
    }

    /// Resolves once the input is over or the output closed.
    pub(crate) async fn over(&self) {
        let mut over = self.over.subscribe();
        // The sender lives in `self`: `wait_for` cannot fail while borrowed.
        let _ = over.wait_for(|over| *over).await;
    }

    /// Why the server stops, from what was seen.
    pub(crate) fn ending(&self) -> Ending {
        if self.exit.load(Ordering::SeqCst) {
            Ending::Exit {
                after_shutdown: self.shutdown.load(Ordering::SeqCst),
            }
        } else if self.output_closed() {
            Ending::OutputClosed
        } else {
            Ending::InputEnded
        }
    }
}

/// The server's output. tower-lsp 0.20 panics when its output fails while
/// answers are still queued (`unreachable!` in its response sink): the
/// first failed write is logged and noted in the [`Lifecycle`] (which
/// ends the server) and later writes are discarded.
pub(crate) struct Output<O> {
    inner: Pin<Box<O>>,
    closed: bool,
    lifecycle: std::sync::Arc<Lifecycle>,
}

impl<O: AsyncWrite> Output<O> {
    pub(crate) fn new(inner: O, lifecycle: std::sync::Arc<Lifecycle>) -> Self {
        Output {
            inner: Box::pin(inner),
            closed: false,
            lifecycle,
        }
    }

    fn failed(&mut self, what: &str, e: &io::Error) {
        if !self.closed {
            self.closed = true;
            tracing::info!("{what} the output failed ({e}): stopping");
            self.lifecycle.note_output_closed();
        }
    }
}

impl<O: AsyncWrite> AsyncWrite for Output<O> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.closed {
            return Poll::Ready(Ok(buf.len()));
        }
        match self.inner.as_mut().poll_write(cx, buf) {
            Poll::Ready(Ok(0)) if !buf.is_empty() => {
                let e = io::Error::from(io::ErrorKind::WriteZero);
                self.failed("writing", &e);
                Poll::Ready(Ok(buf.len()))
            }
            Poll::Ready(Err(e)) => {
                self.failed("writing", &e);
                Poll::Ready(Ok(buf.len()))
            }
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.closed {
            return Poll::Ready(Ok(()));
        }
        match self.inner.as_mut().poll_flush(cx) {
            Poll::Ready(Err(e)) => {
                self.failed("flushing", &e);
                Poll::Ready(Ok(()))
            }
            other => other,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.closed {
            return Poll::Ready(Ok(()));
        }
        match self.inner.as_mut().poll_shutdown(cx) {
            Poll::Ready(Err(e)) => {
                self.failed("closing", &e);
                Poll::Ready(Ok(()))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn exit_codes_follow_the_protocol() {
        let l = Lifecycle::default();
        assert_eq!(l.ending(), Ending::InputEnded);
        assert_eq!(l.ending().code(), 1);
        l.note_shutdown();
        assert_eq!(l.ending().code(), 1, "end of input after shutdown");
        l.note_exit();
        assert_eq!(
            l.ending(),
            Ending::Exit {
                after_shutdown: true
            }
        );
        assert_eq!(l.ending().code(), 0);
        let l = Lifecycle::default();
        l.note_exit();
        assert_eq!(l.ending().code(), 1, "exit without shutdown");
    }

    #[tokio::test]
    async fn a_failed_write_is_swallowed_and_ends_the_server() {
        let (client, server) = tokio::io::duplex(64);
        drop(client);
        let lifecycle = Arc::new(Lifecycle::default());
        let mut out = Output::new(server, lifecycle.clone());
        out.write_all(b"Content-Length: 2\r\n\r\n{}").await.unwrap();
        out.flush().await.unwrap();
        tokio::time::timeout(Duration::from_secs(1), lifecycle.over())
            .await
            .unwrap();
        assert_eq!(lifecycle.ending(), Ending::OutputClosed);
        out.write_all(b"more").await.unwrap();
    }
}
