//! An in-process LSP client: the server runs on tokio duplex streams, the
//! test speaks raw frames to it.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

pub(crate) mod raw;

pub(crate) struct Client {
    writer: WriteHalf<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    pending: VecDeque<Value>,
    next_id: i64,
    pub settings: Value,
    pub server: tokio::task::JoinHandle<utf8lint_lsp::Ending>,
}

async fn read_frames(mut reader: ReadHalf<DuplexStream>, tx: mpsc::UnboundedSender<Value>) {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let mut messages = Vec::new();
        take_frames(&mut buf, &mut messages);
        for value in messages {
            if tx.send(value).is_err() {
                return;
            }
        }
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Moves the complete frames at the start of `buf` to `out`, each body
/// parsed.
pub(crate) fn take_frames(buf: &mut Vec<u8>, out: &mut Vec<Value>) {
    while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
        let header = String::from_utf8_lossy(&buf[..end]).to_string();
        let len: usize = header
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|v| v.trim().parse().ok())
            .expect("server frame has a Content-Length");
        if buf.len() < end + 4 + len {
            return;
        }
        let value =
            serde_json::from_slice(&buf[end + 4..end + 4 + len]).expect("server sends JSON");
        buf.drain(..end + 4 + len);
        out.push(value);
    }
}

pub(crate) fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

pub(crate) const TIMEOUT: Duration = Duration::from_secs(10);

impl Client {
    /// Starts a server and initializes it. `encodings`: what the client
    /// offers in `general.positionEncodings` (`None`: the field is absent).
    pub(crate) async fn start(
        encodings: Option<&[&str]>,
        root: Option<&Path>,
        settings: Value,
    ) -> Client {
        Client::start_as(encodings, root, settings, json!({})).await
    }

    /// A client that pulls diagnostics (`textDocument.diagnostic`, and
    /// `workspace/diagnostic/refresh`).
    pub(crate) async fn start_pulling(root: Option<&Path>, settings: Value) -> Client {
        let pull = json!({
            "textDocument": {"diagnostic": {"dynamicRegistration": false}},
            "workspace": {"diagnostics": {"refreshSupport": true}}
        });
        Client::start_as(Some(&["utf-16"]), root, settings, pull).await
    }

    /// A client that announces `more` capabilities beside the usual ones
    /// (merged into them, object by object).
    pub(crate) async fn start_with(root: Option<&Path>, settings: Value, more: Value) -> Client {
        Client::start_as(Some(&["utf-16"]), root, settings, more).await
    }

    async fn start_as(
        encodings: Option<&[&str]>,
        root: Option<&Path>,
        settings: Value,
        more: Value,
    ) -> Client {
        // A system pipe's buffer (64 KiB): a larger one would keep the
        // capacity of the largest message in the heap a test counts.
        let (client_end, server_end) = tokio::io::duplex(64 << 10);
        let (server_read, server_write) = tokio::io::split(server_end);
        let (client_read, client_write) = tokio::io::split(client_end);
        let server = tokio::spawn(utf8lint_lsp::serve(server_read, server_write));
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(read_frames(client_read, tx));
        let mut client = Client {
            writer: client_write,
            incoming: rx,
            pending: VecDeque::new(),
            next_id: 1,
            settings,
            server,
        };
        let mut general = json!({});
        if let Some(e) = encodings {
            general = json!({"positionEncodings": e});
        }
        let root_uri = root.map(|r| {
            tower_lsp::lsp_types::Url::from_directory_path(r)
                .unwrap()
                .to_string()
        });
        let folders = root_uri
            .as_ref()
            .map(|u| json!([{"uri": u, "name": "root"}]));
        let mut capabilities = json!({
            "general": general,
            "workspace": {"configuration": true, "didChangeWatchedFiles": {"dynamicRegistration": true}},
            "window": {"workDoneProgress": true},
            "textDocument": {"publishDiagnostics": {"versionSupport": true, "dataSupport": true}}
        });
        merge(&mut capabilities, more);
        let init = client
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": root_uri,
                    "workspaceFolders": folders,
                    "capabilities": capabilities,
                }),
            )
            .await;
        assert!(init.get("result").is_some(), "{init}");
        client
            .pending
            .push_back(json!({"initializeResult": init["result"]}));
        client.notify("initialized", json!({})).await;
        client
    }

    pub(crate) async fn initialize_result(&mut self) -> Value {
        self.pending
            .iter()
            .find_map(|v| v.get("initializeResult").cloned())
            .unwrap()
    }

    pub(crate) async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    pub(crate) async fn send(&mut self, message: Value) {
        let body = serde_json::to_vec(&message).unwrap();
        self.send_raw(&frame(&body)).await;
    }

    pub(crate) async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// Sends a request and waits for its response (answering the server's
    /// own requests meanwhile; notifications are kept for later).
    pub(crate) async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.wait_response(json!(id)).await
    }

    pub(crate) async fn wait_response(&mut self, id: Value) -> Value {
        if let Some(at) = self
            .pending
            .iter()
            .position(|m| m.get("id") == Some(&id) && m.get("method").is_none())
        {
            return self.pending.remove(at).unwrap();
        }
        loop {
            let message = self.next_message().await;
            if message.get("id") == Some(&id) && message.get("method").is_none() {
                return message;
            }
            self.pending.push_back(message);
        }
    }

    /// The next message from the server; requests from the server are
    /// answered here and also returned.
    async fn next_message(&mut self) -> Value {
        let message = tokio::time::timeout(TIMEOUT, self.incoming.recv())
            .await
            .expect("the server answered in time")
            .expect("the server is still running");
        if let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) {
            let result = match method {
                "workspace/configuration" => json!([self.settings.clone()]),
                _ => Value::Null,
            };
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            self.send(reply).await;
        }
        message
    }

    /// Waits for a `publishDiagnostics` for `uri` that satisfies `pred`.
    pub(crate) async fn diagnostics_where(
        &mut self,
        uri: &str,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let matches = |m: &Value| {
            m.get("method").and_then(Value::as_str) == Some("textDocument/publishDiagnostics")
                && m["params"]["uri"] == uri
                && pred(&m["params"])
        };
        if let Some(at) = self.pending.iter().position(matches) {
            let found = self.pending.remove(at).unwrap();
            // Drop older ones for this uri.
            return found["params"].clone();
        }
        loop {
            let message = self.next_message().await;
            if matches(&message) {
                return message["params"].clone();
            }
            self.pending.push_back(message);
        }
    }

    /// The next `publishDiagnostics` for `uri` with `version`.
    pub(crate) async fn diagnostics_for(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let p = self
            .diagnostics_where(uri, |p| p["version"] == version)
            .await;
        p["diagnostics"].as_array().unwrap().clone()
    }

    /// Drops everything received so far.
    pub(crate) fn clear(&mut self) {
        self.pending.retain(|m| m.get("initializeResult").is_some());
        while let Ok(m) = self.incoming.try_recv() {
            let _ = m;
        }
    }

    /// All messages with `method` received so far (and those that arrive
    /// within `wait`).
    pub(crate) async fn collect(&mut self, method: &str, wait: Duration) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        while let Ok(Some(m)) = tokio::time::timeout_at(deadline, self.incoming.recv()).await {
            if let (Some(id), Some(_)) = (m.get("id"), m.get("method")) {
                let reply = json!({"jsonrpc": "2.0", "id": id, "result": null});
                self.send(reply).await;
            }
            self.pending.push_back(m);
        }
        self.pending
            .iter()
            .filter(|m| m.get("method").and_then(Value::as_str) == Some(method))
            .cloned()
            .collect()
    }

    /// The messages with `method` received so far, waiting up to `limit`
    /// for there to be at least `count` (a notification the server sends
    /// after its answer to a request may still be on its way).
    pub(crate) async fn collect_at_least(
        &mut self,
        method: &str,
        count: usize,
        limit: Duration,
    ) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let found = self.collect(method, Duration::ZERO).await;
            if found.len() >= count || tokio::time::Instant::now() >= deadline {
                return found;
            }
            match tokio::time::timeout_at(deadline, self.incoming.recv()).await {
                Ok(Some(m)) => {
                    if let (Some(id), Some(_)) = (m.get("id"), m.get("method")) {
                        let reply = json!({"jsonrpc": "2.0", "id": id, "result": null});
                        self.send(reply).await;
                    }
                    self.pending.push_back(m);
                }
                _ => return self.collect(method, Duration::ZERO).await,
            }
        }
    }

    /// The answer to `textDocument/codeAction` for one diagnostic.
    pub(crate) async fn code_actions(&mut self, uri: &str, d: &Value) -> Value {
        self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
        )
        .await
    }

    /// The actions offered for one diagnostic.
    pub(crate) async fn action_list(&mut self, uri: &str, d: &Value) -> Vec<Value> {
        let answer = self.code_actions(uri, d).await;
        answer["result"].as_array().unwrap().clone()
    }

    /// The answer to `textDocument/codeAction` for `source.fixAll`.
    pub(crate) async fn fix_all_actions(&mut self, uri: &str) -> Value {
        self.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": ["source.fixAll"]}
            }),
        )
        .await
    }

    pub(crate) async fn open(&mut self, uri: &str, text: &str) {
        self.open_version(uri, text, 1).await;
    }

    pub(crate) async fn open_version(&mut self, uri: &str, text: &str, version: i64) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "text", "version": version, "text": text}}),
        )
        .await;
    }
}

/// Writes `bytes` to `name` under `dir` (its directories made): the path
/// and its URI.
pub(crate) fn write(dir: &Path, name: &str, bytes: &[u8]) -> (std::path::PathBuf, String) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let uri = file_uri(&path);
    (path, uri)
}

/// Settings that keep the server from scanning the workspace.
pub(crate) fn no_scan() -> Value {
    json!({"workspace-scan": false})
}

/// The action titled `title`.
pub(crate) fn titled<'a>(actions: &'a [Value], title: &str) -> &'a Value {
    actions
        .iter()
        .find(|a| a["title"] == title)
        .unwrap_or_else(|| panic!("no `{title}` in {actions:?}"))
}

/// `more` written into `into`: objects merged key by key, anything else
/// replaced.
fn merge(into: &mut Value, more: Value) {
    match (into, more) {
        (Value::Object(into), Value::Object(more)) => {
            for (key, value) in more {
                merge(into.entry(key).or_insert(Value::Null), value);
            }
        }
        (into, more) => *into = more,
    }
}

pub(crate) fn file_uri(path: &Path) -> String {
    tower_lsp::lsp_types::Url::from_file_path(path)
        .unwrap()
        .to_string()
}

/// `(line, character)` of a diagnostic's start and end.
pub(crate) fn range_of(d: &Value) -> ((u64, u64), (u64, u64)) {
    let r = &d["range"];
    let p = |v: &Value| {
        (
            v["line"].as_u64().unwrap(),
            v["character"].as_u64().unwrap(),
        )
    };
    (p(&r["start"]), p(&r["end"]))
}

pub(crate) fn codes(ds: &[Value]) -> Vec<String> {
    ds.iter()
        .map(|d| d["code"].as_str().unwrap_or("-").to_string())
        .collect()
}
