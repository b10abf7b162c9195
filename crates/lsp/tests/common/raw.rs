//! A raw client for lifecycle tests: the server on two pipes, frames sent
//! as they are, the input closed at will, and what the server wrote
//! collected until it ends. It answers the server's own requests only when
//! told to (a client that never answers is a case to test).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::sync::{Mutex, mpsc};
use utf8lint_lsp::Ending;

use super::{frame, take_frames};

/// How long a server may take to end once its input is closed.
pub(crate) const END_BOUND: Duration = Duration::from_secs(8);

pub(crate) struct Raw {
    writer: Arc<Mutex<Option<DuplexStream>>>,
    reader: Option<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Every message taken from `incoming` so far.
    seen: Vec<Value>,
    server: tokio::task::JoinHandle<Ending>,
}

impl Raw {
    /// Starts a server. With `answer`, the server's requests are answered
    /// (`workspace/configuration` with `settings`, the rest with `null`).
    pub(crate) fn start(answer: Option<Value>) -> Raw {
        let (client_out, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, client_in) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(utf8lint_lsp::serve(server_in, server_out));
        let writer = Arc::new(Mutex::new(Some(client_out)));
        let (tx, incoming) = mpsc::unbounded_channel();
        Raw {
            writer,
            reader: Some(client_in),
            incoming,
            seen: Vec::new(),
            server,
        }
        .reading(tx, answer)
    }

    fn reading(mut self, tx: mpsc::UnboundedSender<Value>, answer: Option<Value>) -> Raw {
        let mut reader = self.reader.take().unwrap();
        let writer = self.writer.clone();
        tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                let mut messages = Vec::new();
                take_frames(&mut buf, &mut messages);
                for message in messages {
                    if let (Some(settings), Some(id), Some(method)) = (
                        &answer,
                        message.get("id"),
                        message.get("method").and_then(Value::as_str),
                    ) {
                        let result = match method {
                            "workspace/configuration" => json!([settings]),
                            _ => Value::Null,
                        };
                        let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
                        if let Some(w) = writer.lock().await.as_mut() {
                            let _ = w.write_all(&frame(reply.to_string().as_bytes())).await;
                        }
                    }
                    if tx.send(message).is_err() {
                        return;
                    }
                }
                match reader.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
        });
        self
    }

    /// A server whose output nobody reads: its reading end is closed.
    pub(crate) fn start_deaf() -> Raw {
        let (client_out, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, client_in) = tokio::io::duplex(1 << 20);
        drop(client_in);
        let server = tokio::spawn(utf8lint_lsp::serve(server_in, server_out));
        let (_, incoming) = mpsc::unbounded_channel();
        Raw {
            writer: Arc::new(Mutex::new(Some(client_out))),
            reader: None,
            incoming,
            seen: Vec::new(),
            server,
        }
    }

    /// A server whose output is never read, though its reading end stays
    /// open: its writes block once the 64-byte pipe is full.
    pub(crate) fn start_stuck() -> Raw {
        let (client_out, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, client_in) = tokio::io::duplex(64);
        let server = tokio::spawn(utf8lint_lsp::serve(server_in, server_out));
        let (_, incoming) = mpsc::unbounded_channel();
        Raw {
            writer: Arc::new(Mutex::new(Some(client_out))),
            reader: Some(client_in),
            incoming,
            seen: Vec::new(),
            server,
        }
    }

    pub(crate) async fn send_raw(&mut self, bytes: &[u8]) {
        if let Some(w) = self.writer.lock().await.as_mut() {
            // The server may have ended (after `exit`): nothing to write to.
            let _ = w.write_all(bytes).await;
        }
    }

    pub(crate) async fn send(&mut self, message: Value) {
        self.send_raw(&frame(message.to_string().as_bytes())).await;
    }

    /// The next message the server writes.
    pub(crate) async fn next(&mut self) -> Value {
        let message = tokio::time::timeout(super::TIMEOUT, self.incoming.recv())
            .await
            .expect("the server wrote in time")
            .expect("the server is still running");
        self.seen.push(message.clone());
        message
    }

    /// The response to request `id`; whatever comes before it is dropped.
    pub(crate) async fn response(&mut self, id: Value) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id") == Some(&id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// The next request from the server with `method`.
    pub(crate) async fn server_request(&mut self, method: &str) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id").is_some() && message["method"] == method {
                return message;
            }
        }
    }

    /// Sends `initialize` (with `workspace.configuration`) and waits for
    /// its answer, then `initialized`.
    pub(crate) async fn initialize(&mut self) {
        self.send(initialize(1)).await;
        let answer = self.response(json!(1)).await;
        assert!(answer.get("result").is_some(), "{answer}");
        self.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
            .await;
    }

    /// Closes the server's input.
    pub(crate) async fn close_input(&mut self) {
        if let Some(mut w) = self.writer.lock().await.take() {
            let _ = w.shutdown().await;
        }
    }

    /// Waits (at most [`END_BOUND`]) for the server to end; returns why it
    /// ended, how long that took and every message it wrote.
    pub(crate) async fn ended(mut self) -> (Ending, Duration, Vec<Value>) {
        let start = Instant::now();
        let ending = tokio::time::timeout(END_BOUND, &mut self.server)
            .await
            .expect("the server ends in time")
            .expect("the server does not panic");
        let took = start.elapsed();
        // The server's output is closed once it ended: the reader stops.
        while let Ok(Some(m)) = tokio::time::timeout(END_BOUND, self.incoming.recv()).await {
            self.seen.push(m);
        }
        (ending, took, self.seen)
    }
}

/// An `initialize` request from a client that can answer
/// `workspace/configuration`.
pub(crate) fn initialize(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "processId": null, "rootUri": null,
        "capabilities": {"workspace": {"configuration": true}}
    }})
}
