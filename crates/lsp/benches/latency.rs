//! didChange → publishDiagnostics latency, p50, p99 and max, on 1 MB and
//! 100 MB documents with small edits, and the memory an open document costs.
//!
//! `cargo bench -p utf8lint-lsp --bench latency` (set `LATENCY_SIZES_MB=1,10`
//! to choose sizes). The server runs in this process on duplex streams,
//! behind the same transport as `utf8lint lsp`; each edit is made at a
//! pseudo-random line and waits for the diagnostics of its version. Two
//! kinds: a letter between digits, which no character rule can see (no
//! check of the text), and edits that one does, each shown in the publish
//! of its version (asserted): U+202E typed and deleted, mojibake pasted
//! and the paste undone. The file on disk has invalid bytes and U+FEFF (so there are disk
//! findings to keep in step) and the text is what VS Code would hold.
//!
//! Memory: the resident set's growth over the open (what the system sees,
//! the allocator's spare blocks included) and the heap in use (what the
//! server holds, counted by the allocator the counted test uses,
//! `tests/common/counting.rs`: after the open, before a burst of edits, at
//! its peak and after it, the moments `tests/text_cost.rs` asserts), in a
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

    /// Sends one change as the next version and waits for its publish:
    /// how long that took, and the publish.
    async fn change(&mut self, uri: &str, version: &mut i32, change: Value) -> (Duration, Value) {
        *version += 1;
        let v = *version;
        let started = Instant::now();
        self.send(did_change(uri, v, change)).await;
        let (publish, _) = self
            .wait(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == v
            })
            .await;
        (started.elapsed(), publish)
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

#[path = "../tests/common/counting.rs"]
mod counting;

/// The allocator, counting what it hands out (as the counted test does),
/// to tell what the server holds from what the allocator keeps for later.
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting::new();

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

    // A pipe's worth of buffer, as a system pipe has (64 KiB): a larger one
    // keeps the capacity of the largest message in this process's heap,
    // which the server's stdin would not.
    let (client_end, server_end) = tokio::io::duplex(64 << 10);
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
    let heap_before = ALLOCATOR.in_use();
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
    let heap_after = ALLOCATOR.in_use();

    // Single edits, one at a time: a letter between digits, which no
    // character rule can see (the quiet path: no check of the text).
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next_line = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % lines as u64) as u32
    };
    let mut version = 1;
    let mut quiet = Vec::with_capacity(edits);
    for _ in 0..edits {
        let line = next_line();
        let (took, _) = c.change(&uri, &mut version, insert(line, 5, "x")).await;
        quiet.push(took);
    }
    report(size_mb, "letter between digits (quiet path)", &mut quiet);

    // Edits a character rule sees, each checked over the whole text, each
    // shown in the publish of its own version: a bidi control typed and
    // deleted, mojibake pasted and the paste undone.
    let rounds = edits / 10;
    let (mut bidi, mut unbidi, mut paste, mut undo) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let line = next_line();
        let (took, shown) = c
            .change(&uri, &mut version, insert(line, 0, "\u{202E}"))
            .await;
        assert!(
            shows(&shown, "U010", line),
            "the bidi control on line {line} is not shown"
        );
        bidi.push(took);
        let (took, shown) = c.change(&uri, &mut version, delete(line, 0, 1)).await;
        assert!(
            !shows(&shown, "U010", line),
            "the deleted bidi control on line {line} is shown"
        );
        unbidi.push(took);
        // "line 00000001 |café": `PASTED` (the mojibake of "doesn’t", its
        // apostrophe's bytes read as windows-1252; a lone `é` read so,
        // beside this line's own "é", is not U008's), then the paste undone.
        let (took, shown) = c.change(&uri, &mut version, insert(line, 14, PASTED)).await;
        assert!(
            shows(&shown, "U008", line),
            "the pasted mojibake on line {line} is not shown"
        );
        paste.push(took);
        let (took, shown) = c
            .change(&uri, &mut version, delete(line, 14, PASTED_UNITS))
            .await;
        assert!(
            !shows(&shown, "U008", line),
            "the undone mojibake on line {line} is shown"
        );
        undo.push(took);
    }
    report(size_mb, "U+202E typed", &mut bidi);
    report(size_mb, "U+202E deleted", &mut unbidi);
    report(size_mb, "mojibake pasted", &mut paste);
    report(size_mb, "mojibake undone", &mut undo);

    // A burst of 50 edits sent back to back, a bidi control first: how
    // many publishes, how long, and the heap at its peak and after it.
    let heap_before_burst = ALLOCATOR.in_use();
    ALLOCATOR.reset_peak();
    let burst_started = Instant::now();
    let first_of_burst = version + 1;
    for k in 0..50 {
        version += 1;
        let text = if k == 0 { "\u{202E}" } else { "y" };
        c.send(did_change(&uri, version, insert(3, 0, text))).await;
    }
    let (_, publishes) = c
        .wait(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        })
        .await;
    let burst = burst_started.elapsed();
    let heap_peak = ALLOCATOR.peak();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let heap_after_burst = ALLOCATOR.in_use();

    let mib = |bytes: usize| bytes as f64 / f64::from(1 << 20);
    let times = |bytes: usize| mib(bytes) / size_mb as f64;
    let held = |at: usize| at.saturating_sub(heap_before);
    println!(
        "{size_mb:>4} MB: heap held for the document: after the open {:.1} MiB ({:.2}×), \
         before a burst {:.1} MiB ({:.2}×), at its peak {:.1} MiB ({:.2}×), after it {:.1} MiB ({:.2}×)",
        mib(held(heap_after)),
        times(held(heap_after)),
        mib(held(heap_before_burst)),
        times(held(heap_before_burst)),
        mib(held(heap_peak)),
        times(held(heap_peak)),
        mib(held(heap_after_burst)),
        times(held(heap_after_burst)),
    );
    println!(
        "{size_mb:>4} MB: open→first publish {:>8.1} ms ({findings} diagnostics); RSS +{:.1} MiB for the open document ({:.2}× its size); burst of 50 edits (v{first_of_burst}..v{version}): {publishes} publishes, last after {:.1} ms",
        open_time.as_secs_f64() * 1e3,
        (rss_after.saturating_sub(rss_before)) as f64 / 1024.0,
        (rss_after.saturating_sub(rss_before)) as f64 / 1024.0 / size_mb as f64,
        burst.as_secs_f64() * 1e3,
    );
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})).await;
}

/// Mojibake pasted: "doesn’t " encoded as UTF-8, read as windows-1252 and
/// encoded again.
const PASTED: &str = "doesn\u{E2}\u{20AC}\u{2122}t ";

/// Its length in UTF-16 units.
const PASTED_UNITS: u32 = 10;

/// An insertion of `text` at `line`:`character` (UTF-16).
fn insert(line: u32, character: u32, text: &str) -> Value {
    json!({"range": {"start": {"line": line, "character": character}, "end": {"line": line, "character": character}}, "text": text})
}

/// A deletion of `len` UTF-16 units at `line`:`character`.
fn delete(line: u32, character: u32, len: u32) -> Value {
    json!({"range": {"start": {"line": line, "character": character}, "end": {"line": line, "character": character + len}}, "text": ""})
}

fn did_change(uri: &str, version: i32, change: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [change]
    }})
}

/// Whether a publish holds a finding of `code` on `line`.
fn shows(publish: &Value, code: &str, line: u32) -> bool {
    publish["params"]["diagnostics"]
        .as_array()
        .is_some_and(|ds| {
            ds.iter()
                .any(|d| d["code"] == code && d["range"]["start"]["line"] == line)
        })
}

fn report(size_mb: usize, scenario: &str, times: &mut [Duration]) {
    times.sort();
    println!(
        "{size_mb:>4} MB: didChange→publish p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms  ({} edits: {scenario})",
        percentile(times, 0.50).as_secs_f64() * 1e3,
        percentile(times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
        times.len(),
    );
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
