//! The stdin re-framing layer.
//!
//! tower-lsp 0.20 reads frames with a codec that does `str::from_utf8(body)?`
//! and `serde_json::from_str`, and its `FramedRead` stops for good after the
//! first error: one bad frame ends the server. Neovim sends such a frame for
//! a buffer opened with `++bad=keep` (docs/spec.md).
//!
//! [`Reframe`] sits between stdin and tower-lsp. It parses each
//! `Content-Length` frame itself and hands on only frames tower-lsp can
//! decode:
//!
//! * invalid UTF-8 in a body becomes U+FFFD, one per maximal subpart, and the
//!   `Content-Length` is rewritten; the URI of the document whose text held
//!   the raw bytes is noted in the [`RepairLog`], so that the server knows
//!   the client really holds those bytes;
//! * a `\uD800`-style lone surrogate escape (serde_json rejects it) becomes
//!   `\uFFFD`;
//! * a body that is not a JSON-RPC message becomes a harmless one: a request
//!   to an unknown `$/` method when its `id` can be read (the client gets an
//!   error response), else a `$/` notification that is ignored;
//! * a body whose `method` is not a string (tower-lsp stops reading for good
//!   at a number, `null`, `true`, an array or an object there) is answered
//!   or dropped like any other body that is not JSON-RPC;
//! * a header block without exactly one usable `Content-Length` (missing,
//!   not a number, above [`MAX_BODY`], LF-only line ends) is skipped up to
//!   the next `Content-Length` after its start, so that a bad header which
//!   runs into the next good one does not swallow it; a body whose declared
//!   length runs past a complete header is cut at that header;
//! * `"params": null` is dropped (JSON-RPC allows only an object or an
//!   array), and so are any params of `shutdown`, which takes none;
//! * `exit` sent as a request (with an `id`, even `null`) becomes a request
//!   to [`EXIT_AS_REQUEST`], which is answered with an error: tower-lsp
//!   0.20 would take it for `exit`, answer nothing and stop reading.
//!
//! The frames after an `initialize` request wait until the server has
//! answered it, and those after `shutdown` likewise (tower-lsp runs
//! requests concurrently: a pipelined `exit` would cancel them).
//!
//! The input ends right after the `exit` notification, at end of file and
//! at a read error; the [`Lifecycle`] is told when the last frame has been
//! handed on. It is read on a task of its own ([`read_input`]), which sees
//! its end even while tower-lsp has stopped reading. Every repair is
//! logged to stderr.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use serde::Deserialize;
use serde::de::IgnoredAny;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::sync::mpsc;

use crate::lifecycle::{Lifecycle, Step};

/// The method an `exit` sent with an `id` is renamed to: the server answers
/// it with an InvalidRequest error and goes on.
pub(crate) const EXIT_AS_REQUEST: &str = "utf8lint/exitSentAsRequest";

/// Header blocks longer than this without `\r\n\r\n` are garbage.
const MAX_HEADER: usize = 16 * 1024;

/// A `Content-Length` above this (64 MiB) is taken for garbage, not waited
/// for: the header is dropped and the stream resynchronised.
pub(crate) const MAX_BODY: usize = 64 << 20;

/// How long the frames after `initialize` or `shutdown` wait for its
/// answer at most (the handlers answer at once; this only bounds a wait
/// for an answer that never comes).
const HOLD_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Bytes read ahead of the transport; past this, reading waits. Counted
/// in bytes, not chunks: a client that writes many small messages and
/// never reads the answers fills tower-lsp's queue, and the reader must
/// still reach the end of the input behind them (16 MiB is far more than
/// any such burst, and bounds what a flood can make the server hold).
const READ_AHEAD: usize = 16 << 20;

/// Buffer capacity kept between frames: a huge `didOpen` is not held on
/// to once handed on (the next one allocates again).
const KEEP_CAPACITY: usize = 64 << 10;

/// How much to read from the inner stream at a time.
const READ_CHUNK: usize = 256 * 1024;

/// What the transport repaired, shared with the server.
#[derive(Debug, Default)]
pub struct RepairLog {
    /// Document URI → number of ill-formed subparts in the last message
    /// that carried its text.
    raw_text: Mutex<HashMap<String, usize>>,
    repaired: Mutex<usize>,
}

impl RepairLog {
    /// Removes and returns the note for `uri`: the number of maximal
    /// subparts the transport replaced in the text of its last message.
    pub fn take(&self, uri: &str) -> Option<usize> {
        self.raw_text.lock().ok()?.remove(uri)
    }

    /// How many frames were repaired or replaced so far.
    pub fn repaired_frames(&self) -> usize {
        self.repaired.lock().map(|n| *n).unwrap_or(0)
    }

    fn note_frame(&self) {
        if let Ok(mut n) = self.repaired.lock() {
            *n += 1;
        }
    }

    fn note_uri(&self, uri: String, subparts: usize) {
        if let Ok(mut map) = self.raw_text.lock() {
            *map.entry(uri).or_default() += subparts;
        }
    }
}

/// An `AsyncRead` that re-frames LSP messages from `inner` so that every
/// frame it yields is valid UTF-8 holding a JSON-RPC message.
pub(crate) struct Reframe<R> {
    inner: R,
    input: Vec<u8>,
    output: Vec<u8>,
    output_pos: usize,
    eof: bool,
    /// How far an incomplete body was searched for a header inside it.
    body_scanned: usize,
    log: Arc<RepairLog>,
    lifecycle: Arc<Lifecycle>,
    /// The request whose answer the next frame waits for.
    hold: Option<Step>,
    /// How long it may wait ([`HOLD_LIMIT`]).
    hold_limit: Option<Pin<Box<tokio::time::Sleep>>>,
    /// What each read fills: made once, on the first read. A chunk made
    /// per read would be a zeroed 256 KiB (above glibc's mmap threshold, a
    /// fresh mapping) several times per keystroke.
    chunk: Vec<u8>,
}

impl<R> Reframe<R> {
    /// Wraps `inner`; repairs are noted in `log`, `exit` and the end of the
    /// input in `lifecycle`.
    pub(crate) fn new(inner: R, log: Arc<RepairLog>, lifecycle: Arc<Lifecycle>) -> Self {
        Reframe {
            inner,
            input: Vec::new(),
            output: Vec::new(),
            output_pos: 0,
            eof: false,
            body_scanned: 0,
            log,
            lifecycle,
            hold: None,
            hold_limit: None,
            chunk: Vec::new(),
        }
    }

    /// Whether the next frame must still wait for the answer to the
    /// request in [`Self::hold`]; registers `cx` to be woken if so.
    fn holding(&mut self, cx: &mut Context<'_>) -> bool {
        let Some(step) = self.hold else {
            return false;
        };
        if !self.lifecycle.passed(step, cx) {
            let limit = self
                .hold_limit
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(HOLD_LIMIT)));
            if limit.as_mut().poll(cx).is_pending() {
                return true;
            }
            tracing::warn!(
                "transport: {step:?} not answered after {} s: the next frames go on",
                HOLD_LIMIT.as_secs()
            );
        }
        self.hold = None;
        self.hold_limit = None;
        false
    }

    /// Takes one complete frame out of `input`, repaired, if there is one.
    fn next_frame(&mut self) -> Option<Vec<u8>> {
        loop {
            let Some(blank) = memchr::memmem::find(&self.input, b"\r\n\r\n") else {
                if self.input.len() > MAX_HEADER {
                    tracing::warn!(
                        "transport: dropping {} bytes with no header end",
                        self.input.len()
                    );
                    self.log.note_frame();
                    self.skip_to_next_header(1);
                }
                return None;
            };
            let header_end = blank + 4;
            let length = match header_length(&self.input[..blank]) {
                Ok(length) => length,
                Err(TOO_LARGE) => {
                    // Dropped like any bad header, but a document the
                    // server will not hold is told to the user: its
                    // `didOpen` becomes a note to the server.
                    let head = &self.input[header_end..];
                    let peek = &head[..head.len().min(PEEK_BYTES)];
                    let told = too_large_note(peek, &self.input[..blank]);
                    if told.is_none() && !self.eof && undecided(peek) {
                        return None;
                    }
                    tracing::warn!("transport: {TOO_LARGE}; skipped to the next Content-Length");
                    self.log.note_frame();
                    self.skip_to_next_header(1);
                    if let Some(note) = told {
                        self.lifecycle.note_frame_handed();
                        return Some(frame_of(&note));
                    }
                    continue;
                }
                Err(why) => {
                    // The bad header may run into the next good one (an
                    // LF-only header, or the rest of a body whose length was
                    // too small): resynchronise at the next `Content-Length`
                    // after the start, never after this "header"'s end.
                    tracing::warn!("transport: {why}; skipped to the next Content-Length");
                    self.log.note_frame();
                    self.skip_to_next_header(1);
                    continue;
                }
            };
            let declared_end = header_end.checked_add(length)?;
            // A header that starts inside the body may end after it.
            let scan_to = declared_end
                .saturating_add(MAX_HEADER)
                .min(self.input.len());
            let end = if let Some(next) = self
                .header_inside_body(header_end, scan_to)
                .filter(|&start| start < declared_end)
            {
                // A complete header inside the declared body: the length was
                // too large (or the frame truncated), and taking it all would
                // swallow good frames.
                tracing::warn!(
                    "transport: Content-Length {length} runs into the next header; body cut there"
                );
                self.log.note_frame();
                next
            } else if self.input.len() >= declared_end {
                declared_end
            } else {
                return None;
            };
            self.body_scanned = 0;
            let (body, role) = repair_body(&self.input[header_end..end], &self.log);
            let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
            frame.extend_from_slice(&body);
            drop(body);
            self.input.drain(..end);
            self.lifecycle.note_frame_handed();
            self.hold = match role {
                Role::Awaited(Step::Initialize) if !self.lifecycle.initialized() => {
                    Some(Step::Initialize)
                }
                Role::Awaited(Step::Shutdown)
                    if self.lifecycle.initialized() && !self.lifecycle.shut_down() =>
                {
                    Some(Step::Shutdown)
                }
                _ => None,
            };
            if role == Role::Exit {
                // LSP: after `exit` the server exits. tower-lsp 0.20 only
                // notices when the next message or the end of input comes,
                // and a client may keep the pipe open: end the input here.
                self.lifecycle.note_exit();
                self.input = Vec::new();
                self.eof = true;
            }
            if self.input.capacity() > KEEP_CAPACITY && self.input.len() < KEEP_CAPACITY {
                // Do not hold on to the memory of one huge didOpen.
                self.input.shrink_to(KEEP_CAPACITY);
            }
            return Some(frame);
        }
    }

    /// Where a well-formed header starts inside the body that begins at
    /// `body_start` (as far as `limit`), if one does. A JSON body never holds one: a
    /// raw CR or LF cannot be inside a JSON string, and `Content-Length: N`
    /// outside a string is not JSON. Each byte is scanned once.
    fn header_inside_body(&mut self, body_start: usize, limit: usize) -> Option<usize> {
        let from = self.body_scanned.max(body_start).min(limit);
        self.body_scanned = limit.saturating_sub(3).max(from);
        let region = &self.input[from..limit];
        for blank in memchr::memmem::find_iter(region, b"\r\n\r\n").map(|at| from + at) {
            let look_from = blank.saturating_sub(MAX_HEADER).max(body_start);
            let Some(start) = rfind_content_length(&self.input[look_from..blank]) else {
                continue;
            };
            let start = look_from + start;
            if header_length(&self.input[start..blank]).is_ok() {
                return Some(start);
            }
        }
        None
    }

    /// Drops input up to the next `Content-Length` at or after `from`.
    fn skip_to_next_header(&mut self, from: usize) {
        let from = from.min(self.input.len());
        let next =
            find_content_length(&self.input[from..]).map_or(self.input.len(), |at| from + at);
        self.body_scanned = 0;
        self.input.drain(..next);
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Reframe<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.output_pos < this.output.len() {
                let n = buf.remaining().min(this.output.len() - this.output_pos);
                buf.put_slice(&this.output[this.output_pos..this.output_pos + n]);
                this.output_pos += n;
                if this.output_pos == this.output.len() {
                    this.output = Vec::new();
                    this.output_pos = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.holding(cx) {
                return Poll::Pending;
            }
            if let Some(frame) = this.next_frame() {
                this.output = frame;
                this.output_pos = 0;
                continue;
            }
            if this.eof {
                if !this.input.is_empty() {
                    tracing::info!(
                        "transport: {} bytes of an incomplete frame at end of input",
                        this.input.len()
                    );
                    this.input = Vec::new();
                }
                this.lifecycle.note_input_over();
                return Poll::Ready(Ok(()));
            }
            if this.chunk.is_empty() {
                this.chunk = vec![0u8; READ_CHUNK];
            }
            let mut read_buf = ReadBuf::new(&mut this.chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read_buf) {
                Poll::Ready(Ok(())) => {
                    let filled = read_buf.filled();
                    if filled.is_empty() {
                        this.eof = true;
                    } else {
                        this.input.extend_from_slice(filled);
                    }
                }
                Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Poll::Ready(Err(e)) => {
                    // tower-lsp would answer it with a parse error and stop
                    // reading: end the input instead, which ends the server.
                    note_read_failure(&e);
                    this.eof = true;
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// Says that reading the input failed: a warning, unless the read was
/// cancelled because the runtime is shutting down (tokio's stdin reads on
/// a blocking thread, and a server that is stopping cancels that read: no
/// failure of the input, so nothing to warn about).
fn note_read_failure(e: &io::Error) {
    if read_cancelled(e) {
        tracing::debug!("transport: reading the input was cancelled: the server is stopping");
    } else {
        tracing::warn!("transport: reading the input failed ({e}): stopping");
    }
}

/// Whether `e` is a read that tokio cancelled: its blocking reads turn a
/// cancelled task's `JoinError` into an `io::Error` of kind `Other` that
/// carries only this text (`tests::a_cancelled_task_is_a_cancelled_read`
/// holds it to the tokio in use).
fn read_cancelled(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::Other
        && e.get_ref()
            .is_some_and(|inner| inner.to_string() == "task was cancelled")
}

/// Reads `input` on a task of its own, at most [`READ_AHEAD`] bytes ahead
/// of the transport, and notes its end in `lifecycle` when it comes, even
/// while nothing consumes what was read (see [`crate::lifecycle`]). The
/// task ends at end of input, at a read error, or when the returned reader
/// is dropped and it has something to hand on.
pub(crate) fn read_input<I>(
    mut input: I,
    lifecycle: Arc<Lifecycle>,
) -> (Incoming, tokio::task::JoinHandle<()>)
where
    I: AsyncRead + Unpin + Send + 'static,
{
    let (tx, rx) = mpsc::unbounded_channel();
    let ahead = Arc::new(Ahead::default());
    let reader_ahead = ahead.clone();
    let task = tokio::spawn(async move {
        let mut buffer = vec![0u8; READ_CHUNK];
        loop {
            reader_ahead.room().await;
            match input.read(&mut buffer).await {
                Ok(0) => break,
                Ok(n) => {
                    reader_ahead
                        .bytes
                        .fetch_add(n, std::sync::atomic::Ordering::SeqCst);
                    if tx.send(buffer[..n].to_vec()).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // tower-lsp would answer it with a parse error and stop
                    // reading: end the input instead, which ends the server.
                    note_read_failure(&e);
                    break;
                }
            }
        }
        lifecycle.note_input_ended();
    });
    (
        Incoming {
            rx,
            ahead,
            chunk: Vec::new(),
            at: 0,
        },
        task,
    )
}

/// How many bytes [`read_input`]'s task has read that the transport has
/// not taken yet, and the task's wake-up when it waits for room.
#[derive(Default)]
struct Ahead {
    bytes: std::sync::atomic::AtomicUsize,
    taken: tokio::sync::Notify,
}

impl Ahead {
    /// Waits until fewer than [`READ_AHEAD`] bytes are ahead.
    async fn room(&self) {
        loop {
            let taken = self.taken.notified();
            if self.bytes.load(std::sync::atomic::Ordering::SeqCst) < READ_AHEAD {
                return;
            }
            taken.await;
        }
    }

    fn take(&self, n: usize) {
        self.bytes.fetch_sub(n, std::sync::atomic::Ordering::SeqCst);
        self.taken.notify_one();
    }
}

/// The input as [`read_input`]'s task hands it on.
pub(crate) struct Incoming {
    rx: mpsc::UnboundedReceiver<Vec<u8>>,
    ahead: Arc<Ahead>,
    chunk: Vec<u8>,
    at: usize,
}

impl AsyncRead for Incoming {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.at == this.chunk.len() {
            match this.rx.poll_recv(cx) {
                Poll::Ready(Some(chunk)) => {
                    this.ahead.take(chunk.len());
                    this.chunk = chunk;
                    this.at = 0;
                }
                // End of input (or a read error, logged by the task).
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        let n = buf.remaining().min(this.chunk.len() - this.at);
        buf.put_slice(&this.chunk[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

/// The `Content-Length` of a header block (`\r\n`-separated lines, without
/// the blank line), if it is exactly a usable one: every line a
/// `Name: value` header (names case-insensitive, as in HTTP), one
/// `Content-Length` of at most [`MAX_BODY`].
fn header_length(header: &[u8]) -> Result<usize, &'static str> {
    if header.len() > MAX_HEADER {
        return Err("header block too long");
    }
    let mut found = None;
    let mut lines = header.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let line = match (line.strip_suffix(b"\r"), lines.peek()) {
            (Some(line), Some(_)) => line,
            (None, None) => line,
            _ => return Err("header line without a CR LF line end"),
        };
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err("header line without a colon");
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        let token = |b: &u8| b.is_ascii_alphanumeric() || b == &b'-';
        if name.is_empty() || !name.iter().all(token) {
            return Err("header line with a malformed name");
        }
        if value.iter().any(|&b| b.is_ascii_control() && b != b'\t') {
            return Err("header line with a control character (an LF-only line end?)");
        }
        if name.eq_ignore_ascii_case(b"content-length") {
            if found.is_some() {
                return Err("header with two Content-Length lines");
            }
            let value = value.trim_ascii();
            if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                return Err("Content-Length is not a number");
            }
            let length = std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&n| n <= MAX_BODY)
                .ok_or(TOO_LARGE)?;
            found = Some(length);
        }
    }
    found.ok_or("header without a Content-Length")
}

/// Why a header whose `Content-Length` is above [`MAX_BODY`] is refused.
const TOO_LARGE: &str = "Content-Length above the 64 MiB limit";

/// The notification an oversized `didOpen` becomes: the server tells the
/// user that the document is not checked.
pub(crate) const DOCUMENT_TOO_LARGE: &str = "$/utf8lint/documentTooLarge";

/// What the server is told of a document it will not hold.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
pub(crate) struct TooLarge {
    /// The document's URI, when the message's first bytes name it.
    pub uri: Option<String>,
    /// The message's declared length in bytes.
    pub bytes: u64,
}

/// How much of an oversized message is read to find its method and URI.
const PEEK_BYTES: usize = 64 * 1024;

/// The note for an oversized message whose first bytes are `peek` and
/// whose header is `header`: `Some` for a `didOpen` once its URI has been
/// read (or `peek` is all there is to read of it).
fn too_large_note(peek: &[u8], header: &[u8]) -> Option<TooLarge> {
    memchr::memmem::find(peek, b"\"textDocument/didOpen\"")?;
    let uri = uri_in(peek);
    if uri.is_none() && peek.len() < PEEK_BYTES {
        return None;
    }
    Some(TooLarge {
        uri,
        bytes: declared_length(header).unwrap_or(u64::MAX),
    })
}

/// Whether more of an oversized message must be read before the server
/// knows what it was: none of its first bytes is a `Content-Length` to
/// resynchronise at (a client that sent a bad header and then a good
/// frame is never kept waiting), and fewer than [`PEEK_BYTES`] came.
fn undecided(peek: &[u8]) -> bool {
    peek.len() < PEEK_BYTES && find_content_length(peek).is_none()
}

/// The string value of the first `"uri"` key in `json`, if it is complete.
fn uri_in(json: &[u8]) -> Option<String> {
    let key = memchr::memmem::find(json, b"\"uri\"")?;
    let rest = json[key + 5..].trim_ascii_start().strip_prefix(b":")?;
    let mut values = serde_json::Deserializer::from_slice(rest.trim_ascii_start());
    String::deserialize(&mut values).ok()
}

/// The `Content-Length` a header declares, however large.
fn declared_length(header: &[u8]) -> Option<u64> {
    header.split(|&b| b == b'\n').find_map(|line| {
        let (name, value) = line.split_at(line.iter().position(|&b| b == b':')?);
        if !name.trim_ascii().eq_ignore_ascii_case(CONTENT_LENGTH) {
            return None;
        }
        std::str::from_utf8(value[1..].trim_ascii())
            .ok()?
            .parse()
            .ok()
    })
}

/// The frame of the notification that tells the server of `note`.
fn frame_of(note: &TooLarge) -> Vec<u8> {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "method": DOCUMENT_TOO_LARGE, "params": note
    })
    .to_string();
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body.as_bytes());
    frame
}

const CONTENT_LENGTH: &[u8] = b"content-length";

/// Where `content-length` (any case) first occurs in `bytes`.
fn find_content_length(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(CONTENT_LENGTH.len())
        .position(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// Where `content-length` (any case) last occurs in `bytes`.
fn rfind_content_length(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(CONTENT_LENGTH.len())
        .rposition(|w| w.eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// The fields tower-lsp's `Message` constrains, read leniently so that the
/// `id` of a malformed request can still be answered. (serde also reads a
/// struct from an array: the body is separately required to be an object.)
#[derive(Deserialize)]
struct Probe {
    #[serde(default, deserialize_with = "some_value")]
    jsonrpc: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "some_value")]
    method: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "some_value")]
    id: Option<serde_json::Value>,
    /// `Some(None)`: `"params": null`. Skipped over like an unknown field.
    #[serde(default, deserialize_with = "present")]
    params: Option<Option<IgnoredAny>>,
}

impl Probe {
    /// Whether tower-lsp 0.20 decodes the message: version "2.0", a string
    /// `method` if any (a number, `null`, `true`, an array or an object
    /// there makes it stop reading for good), a valid `id` if any.
    fn is_decodable(&self) -> bool {
        self.jsonrpc.as_ref().and_then(|v| v.as_str()) == Some("2.0")
            && self
                .method
                .as_ref()
                .is_none_or(serde_json::Value::is_string)
            && self.id.as_ref().is_none_or(valid_id)
    }
}

fn some_value<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<IgnoredAny>>, D::Error> {
    Option::<IgnoredAny>::deserialize(d).map(Some)
}

/// `body` without its `params`.
fn without_params(body: &[u8]) -> Option<Vec<u8>> {
    let mut value: serde_json::Value = serde_json::from_slice(body).ok()?;
    value.as_object_mut()?.remove("params");
    Some(value.to_string().into_bytes())
}

fn valid_id(id: &serde_json::Value) -> bool {
    id.is_null() || id.is_string() || id.as_i64().is_some()
}

/// What a frame is to the lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The `exit` notification: the input ends after it.
    Exit,
    /// A request the next frames wait for (see [`Step`]).
    Awaited(Step),
    /// Anything else.
    Other,
}

/// The part of `initialize` tower-lsp checks before calling the handler.
#[derive(Deserialize)]
struct InitializeProbe {
    #[serde(rename = "params")]
    _params: tower_lsp::lsp_types::InitializeParams,
}

/// The lifecycle role of a decodable request or notification.
fn role(method: Option<&str>, has_id: bool, body: &[u8]) -> Role {
    match method {
        Some("exit") => Role::Exit,
        Some("shutdown") if has_id => Role::Awaited(Step::Shutdown),
        // tower-lsp answers `initialize` with bad params itself, without
        // the handler: only one the handler will see is waited for.
        Some("initialize") if has_id && serde_json::from_slice::<InitializeProbe>(body).is_ok() => {
            Role::Awaited(Step::Initialize)
        }
        _ => Role::Other,
    }
}

/// Makes `body` a frame tower-lsp will decode (see the module docs), and
/// tells what it is to the lifecycle.
pub(crate) fn repair_body<'a>(body: &'a [u8], log: &RepairLog) -> (Cow<'a, [u8]>, Role) {
    let mut body: Cow<'a, [u8]> = Cow::Borrowed(body);
    let mut raw_subparts = 0;
    if utf8lint_codec::from_utf8(&body).is_err() {
        raw_subparts = utf8lint_codec::subparts(&body).count();
        tracing::warn!(
            "transport: message body held {raw_subparts} ill-formed UTF-8 sequence(s); replaced with U+FFFD"
        );
        log.note_frame();
        body = Cow::Owned(
            utf8lint_codec::decode_lossy(&body)
                .into_owned()
                .into_bytes(),
        );
    }
    if has_surrogate_escape(&body)
        && serde_json::from_slice::<IgnoredAny>(&body).is_ok()
        && let Err(e) = serde_json::from_slice::<serde_json::Value>(&body)
    {
        tracing::warn!("transport: {e}; lone surrogate escapes replaced with \\uFFFD");
        log.note_frame();
        body = Cow::Owned(replace_lone_surrogates(&body));
    }
    match serde_json::from_slice::<Probe>(&body) {
        Ok(probe) if probe.is_decodable() && body.trim_ascii_start().starts_with(b"{") => {
            let method = probe.method.as_ref().and_then(|m| m.as_str());
            let exit = method == Some("exit");
            match (exit, probe.id) {
                // tower-lsp reads `"id": null` as an id too.
                (true, Some(id)) => {
                    log.note_frame();
                    tracing::warn!(
                        "transport: `exit` sent as a request (with an id): answered with an error"
                    );
                    let message = serde_json::json!({
                        "jsonrpc": "2.0", "id": id, "method": EXIT_AS_REQUEST
                    });
                    (Cow::Owned(message.to_string().into_bytes()), Role::Other)
                }
                (_, id) => {
                    if raw_subparts > 0 {
                        note_document(&body, raw_subparts, log);
                    }
                    // `"params": null` (Eglot, LSP4IJ and Vim clients send
                    // it with `shutdown`) is read as no params, and
                    // `shutdown`, which takes none, is served whatever
                    // params it carries: tower-lsp 0.20 answers both with
                    // InvalidParams, yet takes the `shutdown` as received.
                    let shutdown = method == Some("shutdown");
                    let drop_params = match probe.params {
                        Some(None) => true,
                        Some(Some(_)) => shutdown,
                        None => false,
                    };
                    let body = match drop_params.then(|| without_params(&body)).flatten() {
                        Some(bare) => Cow::Owned(bare),
                        None => body,
                    };
                    let role = role(method, id.is_some(), &body);
                    (body, role)
                }
            }
        }
        Ok(probe) => {
            log.note_frame();
            tracing::warn!(
                "transport: a JSON value that is not a valid JSON-RPC 2.0 message (version, method or id), answered with an error"
            );
            (
                Cow::Owned(placeholder(probe.id.filter(valid_id))),
                Role::Other,
            )
        }
        Err(e) => {
            log.note_frame();
            tracing::warn!("transport: message body is not a JSON object ({e}), dropped");
            (Cow::Owned(placeholder(None)), Role::Other)
        }
    }
}

/// A message tower-lsp decodes: with an id, a request for a method that
/// does not exist (so the client gets a MethodNotFound error response, not
/// silence; tower-lsp swallows those for `$/` methods), else a `$/`
/// notification, which is ignored.
fn placeholder(id: Option<serde_json::Value>) -> Vec<u8> {
    let message = match id {
        Some(id) if !id.is_null() => serde_json::json!({
            "jsonrpc": "2.0", "id": id, "method": "utf8lint/invalidMessage"
        }),
        _ => serde_json::json!({"jsonrpc": "2.0", "method": "$/utf8lint/invalidMessage"}),
    };
    message.to_string().into_bytes()
}

/// Records which document's text the client sent with raw bytes.
fn note_document(body: &[u8], subparts: usize, log: &RepairLog) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return;
    };
    let method = value
        .get("method")
        .and_then(|m| m.as_str())
        .unwrap_or_default();
    if matches!(method, "textDocument/didOpen" | "textDocument/didChange")
        && let Some(uri) = value
            .pointer("/params/textDocument/uri")
            .and_then(|u| u.as_str())
    {
        // As the server will see it: parsed, so normalised the same way.
        let uri =
            tower_lsp::lsp_types::Url::parse(uri).map_or_else(|_| uri.to_string(), String::from);
        log.note_uri(uri, subparts);
    }
}

fn has_surrogate_escape(body: &[u8]) -> bool {
    memchr::memmem::find_iter(body, b"\\u").any(|at| {
        matches!(body.get(at + 2), Some(b'd' | b'D'))
            && matches!(
                body.get(at + 3),
                Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            )
    })
}

fn hex4(bytes: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(bytes.get(..4)?).ok()?;
    u16::from_str_radix(text, 16).ok()
}

/// Replaces each `\uXXXX` escape of a surrogate that is not half of a
/// well-formed pair with `\uFFFD`.
fn replace_lone_surrogates(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        if body.get(i + 1) != Some(&b'u') {
            out.extend_from_slice(&body[i..(i + 2).min(body.len())]);
            i += 2;
            continue;
        }
        match hex4(&body[i + 2..]) {
            Some(high @ 0xD800..=0xDBFF) => {
                let low = (body.get(i + 6..i + 8) == Some(b"\\u"))
                    .then(|| hex4(&body[i + 8..]))
                    .flatten()
                    .filter(|low| (0xDC00..=0xDFFF).contains(low));
                if low.is_some() {
                    out.extend_from_slice(&body[i..i + 12]);
                    i += 12;
                } else {
                    let _ = high;
                    out.extend_from_slice(b"\\uFFFD");
                    i += 6;
                }
            }
            Some(0xDC00..=0xDFFF) => {
                out.extend_from_slice(b"\\uFFFD");
                i += 6;
            }
            _ => {
                out.extend_from_slice(&body[i..(i + 2).min(body.len())]);
                i += 2;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn a_cancelled_task_is_a_cancelled_read() {
        let task = tokio::spawn(std::future::pending::<()>());
        task.abort();
        let join = task.await.unwrap_err();
        assert!(join.is_cancelled());
        assert!(read_cancelled(&io::Error::from(join)));
        let panicked = tokio::spawn(async { panic!("boom") }).await.unwrap_err();
        assert!(!read_cancelled(&io::Error::from(panicked)));
        assert!(!read_cancelled(&io::Error::other("broken pipe")));
        assert!(!read_cancelled(&io::Error::from(io::ErrorKind::BrokenPipe)));
    }

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        f.extend_from_slice(body);
        f
    }

    async fn reframe(input: Vec<u8>) -> (Vec<u8>, Arc<RepairLog>) {
        let log = Arc::new(RepairLog::default());
        let mut r = Reframe::new(
            std::io::Cursor::new(input),
            log.clone(),
            Arc::new(Lifecycle::default()),
        );
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        (out, log)
    }

    #[tokio::test]
    async fn invalid_utf8_body_becomes_fffd_with_new_length() {
        let body = b"{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///a\",\"text\":\"caf\xE9 \xFF\"}}}";
        let mut input = frame(body);
        input.extend(frame(br#"{"jsonrpc":"2.0","method":"exit"}"#));
        let (out, log) = reframe(input).await;
        let text = String::from_utf8(out).unwrap();
        let fixed = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///a\",\"text\":\"caf\u{FFFD} \u{FFFD}\"}}}";
        let expected = format!(
            "Content-Length: {}\r\n\r\n{fixed}Content-Length: 33\r\n\r\n{{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}}",
            fixed.len()
        );
        assert_eq!(text, expected);
        assert_eq!(log.take("file:///a"), Some(2));
        assert_eq!(log.take("file:///a"), None);
    }

    #[tokio::test]
    async fn input_ends_after_exit() {
        let mut input = frame(br#"{"jsonrpc":"2.0","method":"exit"}"#);
        input.extend(frame(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#));
        let (out, _) = reframe(input).await;
        assert_eq!(out, frame(br#"{"jsonrpc":"2.0","method":"exit"}"#));
    }

    #[tokio::test]
    async fn exit_with_an_id_is_renamed_and_reading_goes_on() {
        let lifecycle = Arc::new(Lifecycle::default());
        let mut input = frame(br#"{"jsonrpc":"2.0","id":77,"method":"exit"}"#);
        input.extend(frame(
            br#"{"jsonrpc":"2.0","id":null,"method":"exit","params":{}}"#,
        ));
        input.extend(frame(br#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
        let mut r = Reframe::new(
            std::io::Cursor::new(input),
            Arc::new(RepairLog::default()),
            lifecycle.clone(),
        );
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        // As serde_json writes it (its key order depends on its features).
        let renamed = |id: serde_json::Value| {
            let message =
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": EXIT_AS_REQUEST});
            frame(message.to_string().as_bytes())
        };
        let mut want = renamed(77.into());
        want.extend(renamed(serde_json::Value::Null));
        want.extend(frame(br#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(want).unwrap()
        );
        // The input ended (end of file), not the exit notification.
        assert_eq!(lifecycle.ending(), crate::lifecycle::Ending::InputEnded);
        tokio::time::timeout(std::time::Duration::from_secs(1), lifecycle.over())
            .await
            .unwrap();
    }

    #[test]
    fn null_params_and_the_params_of_shutdown_are_dropped() {
        let log = RepairLog::default();
        for body in [
            &br#"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":null}"#[..],
            br#"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":[1]}"#,
        ] {
            let (out, role) = repair_body(body, &log);
            let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(
                value,
                serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
            );
            assert_eq!(role, Role::Awaited(Step::Shutdown));
        }
        let (out, _) = repair_body(br#"{"jsonrpc":"2.0","method":"x","params":null}"#, &log);
        assert_eq!(&*out, br#"{"jsonrpc":"2.0","method":"x"}"#);
        // Other params pass untouched, borrowed.
        let body = br#"{"jsonrpc":"2.0","method":"x","params":{"a":null}}"#;
        let (out, role) = repair_body(body, &log);
        assert!(matches!(out, Cow::Borrowed(_)));
        assert_eq!(role, Role::Other);
        let (_, role) = repair_body(br#"{"jsonrpc":"2.0","method":"exit","params":null}"#, &log);
        assert_eq!(role, Role::Exit);
        assert_eq!(log.repaired_frames(), 0);
    }

    #[tokio::test]
    async fn the_exit_notification_is_noted_and_ends_the_input() {
        let lifecycle = Arc::new(Lifecycle::default());
        let mut input = frame(br#"{"jsonrpc":"2.0","method":"exit"}"#);
        input.extend(frame(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#));
        // A reader that never ends: only `exit` can end the input.
        let (mut client, server) = tokio::io::duplex(1024);
        tokio::io::AsyncWriteExt::write_all(&mut client, &input)
            .await
            .unwrap();
        let mut r = Reframe::new(server, Arc::new(RepairLog::default()), lifecycle.clone());
        let mut out = Vec::new();
        tokio::time::timeout(std::time::Duration::from_secs(5), r.read_to_end(&mut out))
            .await
            .expect("the input ends after exit")
            .unwrap();
        assert_eq!(out, frame(br#"{"jsonrpc":"2.0","method":"exit"}"#));
        assert_eq!(
            lifecycle.ending(),
            crate::lifecycle::Ending::Exit {
                after_shutdown: false
            }
        );
        drop(client);
    }

    /// A reader that fails.
    struct Failing;

    impl AsyncRead for Failing {
        fn poll_read(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            _: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Poll::Ready(Err(io::Error::other("gone")))
        }
    }

    #[tokio::test]
    async fn a_read_error_ends_the_input() {
        let lifecycle = Arc::new(Lifecycle::default());
        let mut r = Reframe::new(Failing, Arc::new(RepairLog::default()), lifecycle.clone());
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        assert!(out.is_empty());
        tokio::time::timeout(std::time::Duration::from_secs(1), lifecycle.over())
            .await
            .unwrap();
        assert_eq!(lifecycle.ending(), crate::lifecycle::Ending::InputEnded);
    }

    #[tokio::test]
    async fn frames_split_across_reads_and_header_case() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let mut input = format!(
            "content-length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
            body.len()
        )
        .into_bytes();
        input.extend_from_slice(body);
        let (out, _) = reframe(input).await;
        assert_eq!(out, frame(body));
    }

    #[tokio::test]
    async fn garbage_and_non_messages_are_replaced() {
        let mut input = b"Foo: bar\r\n\r\n".to_vec();
        input.extend(frame(b"{not json"));
        input.extend(frame(br#"{"id":7,"method":"x"}"#));
        input.extend(frame(br#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#));
        let (out, log) = reframe(input).await;
        let text = String::from_utf8(out).unwrap();
        assert_eq!(log.repaired_frames(), 4);
        assert_eq!(text.matches("utf8lint/invalidMessage").count(), 3);
        assert!(text.contains(r#""id":7"#), "{text}");
        assert!(!text.contains("Foo"));
    }

    /// Hands out its input one byte per read, returning `Pending` in
    /// between, as a slow pipe would.
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        pending: bool,
    }

    impl AsyncRead for Trickle {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let was = self.pending;
            self.pending = !was;
            if was {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            if let Some(&b) = self.bytes.get(self.at) {
                buf.put_slice(&[b]);
                self.at += 1;
            }
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn frames_arriving_byte_by_byte_come_out_whole() {
        let mut input = frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":\"\xC0\xAF\"}");
        input.extend(frame(br#"{"jsonrpc":"2.0","id":"x","method":"b"}"#));
        input.extend(b"Content-Length: 99999999999999\r\n\r\n");
        input.extend(frame(br#"{"jsonrpc":"2.0","method":"c"}"#));
        let log = Arc::new(RepairLog::default());
        let mut r = Reframe::new(
            Trickle {
                bytes: input,
                at: 0,
                pending: false,
            },
            log.clone(),
            Arc::new(Lifecycle::default()),
        );
        let mut out = Vec::new();
        r.read_to_end(&mut out).await.unwrap();
        let mut want = frame(
            "{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":\"\u{FFFD}\u{FFFD}\"}".as_bytes(),
        );
        want.extend(frame(br#"{"jsonrpc":"2.0","id":"x","method":"b"}"#));
        want.extend(frame(br#"{"jsonrpc":"2.0","method":"c"}"#));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(want).unwrap()
        );
        assert_eq!(log.repaired_frames(), 2);
    }

    #[test]
    fn lone_surrogates_become_fffd() {
        let body = br#"{"a":"\ud800 \udc00 \\ud800 \ud83d\ude00 \uD800x"}"#;
        let out = replace_lone_surrogates(body);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a":"\uFFFD \uFFFD \\ud800 \ud83d\ude00 \uFFFDx"}"#
        );
        let log = RepairLog::default();
        let full = br#"{"jsonrpc":"2.0","method":"m","params":"\ud800"}"#;
        let (repaired, _) = repair_body(full, &log);
        let value: serde_json::Value = serde_json::from_slice(&repaired).unwrap();
        assert_eq!(value["params"], "\u{FFFD}");
    }

    #[test]
    fn an_oversized_did_open_is_named_once_its_uri_is_read() {
        let header = b"Content-Length: 70000000";
        let open = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri" : "file:///a%20b.txt","languageId":"plaintext","version":1,"text":"xxxx"#;
        assert_eq!(
            too_large_note(open, header),
            Some(TooLarge {
                uri: Some("file:///a%20b.txt".into()),
                bytes: 70_000_000
            })
        );
        // The URI not read whole yet: more is read first.
        let cut = &open[..open.len() - 70];
        assert_eq!(too_large_note(cut, header), None);
        assert!(undecided(cut));
        // Text before the URI: named without it once enough was read.
        let mut text_first =
            br#"{"method":"textDocument/didOpen","params":{"textDocument":{"text":""#.to_vec();
        text_first.resize(PEEK_BYTES, b'x');
        let note = too_large_note(&text_first, header).unwrap();
        assert_eq!(note.uri, None);
        assert!(!undecided(&text_first));
        // Not a didOpen: only dropped; a Content-Length after it: no wait.
        assert_eq!(too_large_note(br#"{"method":"x"}"#, header), None);
        assert!(!undecided(b"garbage\r\nContent-Length: 2\r\n\r\n{}"));
        assert_eq!(
            declared_length(b"X-A: 1\r\ncontent-length: 99999999999999"),
            Some(99_999_999_999_999)
        );
    }
}
