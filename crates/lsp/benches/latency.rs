//! didChange → publishDiagnostics latency, p50 and p99, on 1 MB and 100 MB
//! documents with small edits, and the memory an open document costs.
//!
//! `cargo bench -p utf8lint-lsp --bench latency` (set `LATENCY_SIZES_MB=1,10`
//! to choose sizes). The server runs in this process on duplex streams,
//! behind the same transport as `utf8lint lsp`; each edit inserts one
//! character at a pseudo-random line and waits for the diagnostics of its
//! version. The file on disk has invalid bytes and U+FEFF (so there are disk
//! findings to keep in step) and the text is what VS Code would hold.
//!
//! Memory: the resident set's growth over the open (what the system sees,
//! the allocator's spare blocks included) and the heap in use (what the
//! server holds, counted by a wrapper around the system allocator), in a
//! process whose allocator is tuned as the server's
//! (`utf8lint_lsp::tune_allocator`), after a small document was opened and
//! closed so that the process's one-time costs are not counted; the
//! transport's buffers, which grow with the largest message, are.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

async fn read_frames(mut reader: ReadHalf<DuplexStream>, tx: mpsc::UnboundedSender<Value>) {
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        while let Some(end) = memchr::memmem::find(&buf, b"\r\n\r\n") {
            let header = String::from_utf8_lossy(&buf[..end]).to_string();
            let len: usize = header
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .and_then(|v| v.trim().parse().ok())
                .unwrap();
            if buf.len() < end + 4 + len {
                break;
            }
            let value: Value = serde_json::from_slice(&buf[end + 4..end + 4 + len]).unwrap();
            buf.drain(..end + 4 + len);
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

struct Client {
    writer: WriteHalf<DuplexStream>,
    rx: mpsc::UnboundedReceiver<Value>,
}

impl Client {
    async fn send(&mut self, v: Value) {
        let body = serde_json::to_vec(&v).unwrap();
        self.writer.write_all(&frame(&body)).await.unwrap();
    }

    /// Waits for the message that satisfies `pred`, answering server requests.
    async fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> (Value, usize) {
        let mut publishes = 0;
        loop {
            let m = tokio::time::timeout(Duration::from_secs(120), self.rx.recv())
                .await
                .unwrap()
                .unwrap();
            if let (Some(id), Some(_)) = (m.get("id"), m.get("method")) {
                let result = if m["method"] == "workspace/configuration" {
                    json!([{"workspace-scan": false}])
                } else {
                    Value::Null
                };
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}))
                    .await;
            }
            if m["method"] == "textDocument/publishDiagnostics" {
                publishes += 1;
            }
            if pred(&m) {
                return (m, publishes);
            }
        }
    }
}

fn rss_kib() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The allocator, counting what it hands out.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// Bytes the allocator has handed out and not had back, to tell what the
/// server holds from what the allocator keeps for later.
fn heap_in_use() -> usize {
    ALLOCATOR.allocated()
}

/// The file: lines of text, non-ASCII, an invalid byte every ~10 KiB (up
/// to the cap on findings) and a U+FEFF now and then.
fn content(size: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(size + 128);
    let mut line = 0usize;
    while out.len() < size {
        line += 1;
        out.extend_from_slice(
            format!(
                "line {line:08} caf\u{e9} na\u{ef}ve r\u{e9}sum\u{e9} lorem ipsum dolor sit amet "
            )
            .as_bytes(),
        );
        if line.is_multiple_of(150) && line < 150 * 40 {
            out.extend_from_slice(b"\xFF\xFE");
        }
        if line.is_multiple_of(400) && line < 400 * 20 {
            out.extend_from_slice("\u{FEFF}".as_bytes());
        }
        out.push(b'\n');
    }
    (out, line)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn bench(size_mb: usize, edits: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("doc{size_mb}.txt"));
    let (bytes, lines) = content(size_mb << 20);
    std::fs::write(&path, &bytes).unwrap();
    let text = utf8lint_codec::decode_lossy(&bytes).into_owned();
    drop(bytes);
    let uri = tower_lsp::lsp_types::Url::from_file_path(&path)
        .unwrap()
        .to_string();

    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_end);
    let (cr, cw) = tokio::io::split(client_end);
    tokio::spawn(utf8lint_lsp::serve(sr, sw));
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(read_frames(cr, tx));
    let mut c = Client { writer: cw, rx };
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "capabilities": {"general": {"positionEncodings": ["utf-16"]}, "workspace": {"configuration": true}}
    }}))
    .await;
    c.wait(|m| m["id"] == 1).await;
    c.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        .await;

    // A small document first, opened and closed: what the process builds
    // once (tables made on first use, the workers' threads and arenas) is
    // not charged to the document measured.
    let warm = dir.path().join("warm-up.txt");
    let (warm_bytes, _) = content(64 << 10);
    std::fs::write(&warm, &warm_bytes).unwrap();
    let warm_uri = tower_lsp::lsp_types::Url::from_file_path(&warm)
        .unwrap()
        .to_string();
    c.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": warm_uri, "languageId": "text", "version": 1,
                "text": utf8lint_codec::decode_lossy(&warm_bytes)}
        }}),
    )
    .await;
    c.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == warm_uri.as_str()
    })
    .await;
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": warm_uri}}})).await;
    c.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == warm_uri.as_str()
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(Vec::is_empty)
    })
    .await;

    let rss_before = rss_kib();
    let heap_before = heap_in_use();
    let open_started = Instant::now();
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "text", "version": 1, "text": text}
    }});
    drop(text);
    c.send(open).await;
    let (first, _) = c
        .wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 1)
        .await;
    let open_time = open_started.elapsed();
    let findings = first["params"]["diagnostics"]
        .as_array()
        .map_or(0, Vec::len);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let rss_after = rss_kib();
    let heap_after = heap_in_use();

    // Single edits, one at a time.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut times = Vec::with_capacity(edits);
    let mut version = 1;
    for _ in 0..edits {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let line = (seed % lines as u64) as u32;
        version += 1;
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": 5}, "end": {"line": line, "character": 5}}, "text": "x"}]
        }});
        let started = Instant::now();
        c.send(change).await;
        c.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        })
        .await;
        times.push(started.elapsed());
    }
    times.sort();

    // A burst of 50 edits sent back to back: how many publishes, how long.
    let burst_started = Instant::now();
    let first_of_burst = version + 1;
    for _ in 0..50 {
        version += 1;
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "y"}]
        }});
        c.send(change).await;
    }
    let (_, publishes) = c
        .wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        })
        .await;
    let burst = burst_started.elapsed();

    println!(
        "{size_mb:>4} MB: didChange→publish p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms  ({edits} edits, {findings} diagnostics)",
        percentile(&times, 0.50).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
    );
    println!(
        "{size_mb:>4} MB: heap in use +{:.1} MiB after the open ({:.2}× its size)",
        heap_after.saturating_sub(heap_before) as f64 / f64::from(1 << 20),
        heap_after.saturating_sub(heap_before) as f64 / f64::from(1 << 20) / size_mb as f64,
    );
    println!(
        "{size_mb:>4} MB: open→first publish {:>8.1} ms; RSS +{:.1} MiB for the open document ({:.2}× its size); burst of 50 edits (v{first_of_burst}..v{version}): {publishes} publishes, last after {:.1} ms",
        open_time.as_secs_f64() * 1e3,
        (rss_after.saturating_sub(rss_before)) as f64 / 1024.0,
        (rss_after.saturating_sub(rss_before)) as f64 / 1024.0 / size_mb as f64,
        burst.as_secs_f64() * 1e3,
    );
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})).await;
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass
    // nothing: run only under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    // As `utf8lint lsp` does: the same process, started again with the
    // allocator tuned (where that applies).
    if let Some(e) = utf8lint_lsp::tune_allocator() {
        println!("the allocator is not tuned: {e}");
    }
    println!(
        "GLIBC_TUNABLES={}",
        std::env::var("GLIBC_TUNABLES").unwrap_or_default()
    );
    let sizes: Vec<usize> = std::env::var("LATENCY_SIZES_MB")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 100]);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for size in sizes {
            let edits = if size >= 50 { 300 } else { 1000 };
            bench(size, edits).await;
        }
    });
}
