//! What checking the editor's text as typed costs, counted (never timed):
//! each version of a 1 MiB document is read at most once by the character
//! rules, a burst of edits adds at most one copy of the text at a time to
//! the heap, the heap held for the document stays within four times its
//! size (after the open, at the burst's peak, after it: the moments the
//! latency bench reports), and what was typed is published within the
//! burst's last version.

mod common;

use common::{Client, file_uri, range_of};
use serde_json::json;

#[path = "common/counting.rs"]
mod counting;

/// The allocator, counting: what the latency bench counts with too.
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting::new();

/// The heap the server may hold for a document, at any moment: after the
/// open, at the peak of a burst of edits, after it.
const MAX_HEAP_PER_DOCUMENT_BYTE: u64 = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_edits_reads_each_version_once_at_most_and_holds_one_copy() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    let mut lines = 0u64;
    while text.len() < 1 << 20 {
        text.push_str("line of text, caf\u{e9} na\u{ef}ve r\u{e9}sum\u{e9}, lorem ipsum dolor\n");
        lines += 1;
    }
    let size = text.len() as u64;
    let path = dir.path().join("big.txt");
    std::fs::write(&path, &text).unwrap();
    let uri = file_uri(&path);
    let mut c = Client::start(
        Some(&["utf-16"]),
        Some(dir.path()),
        json!({"workspace-scan": false}),
    )
    .await;
    // A small document first, opened and closed: what the process builds
    // once (tables made on first use, the workers' threads) is not
    // charged to the document measured.
    let warm = dir.path().join("warm-up.txt");
    let warm_text = &text[..text[..64 << 10].rfind('\n').unwrap() + 1];
    std::fs::write(&warm, warm_text).unwrap();
    let warm_uri = file_uri(&warm);
    c.open(&warm_uri, warm_text).await;
    c.diagnostics_for(&warm_uri, 1).await;
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": warm_uri}}),
    )
    .await;
    c.diagnostics_where(&warm_uri, |p| p.get("version").is_none_or(|v| v.is_null()))
        .await;
    c.clear();

    let before_open = ALLOCATOR.in_use() as u64;
    c.open(&uri, &text).await;
    drop(text);
    assert!(c.diagnostics_for(&uri, 1).await.is_empty());
    let after_open = ALLOCATOR.in_use() as u64;

    let checked_before = utf8lint_lsp::text_bytes_checked();
    let in_use = ALLOCATOR.in_use() as u64;
    ALLOCATOR.reset_peak();
    const EDITS: u64 = 50;
    for k in 0..EDITS {
        let version = k + 2;
        // The first edit types a bidi control; the others a letter each,
        // all over the document.
        let (line, new) = if k == 0 {
            (3, "\u{202E}")
        } else {
            ((k * 997) % lines, "x")
        };
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": new}]
            }),
        )
        .await;
    }
    let last = c.diagnostics_for(&uri, EDITS as i64 + 1).await;
    let checked = utf8lint_lsp::text_bytes_checked() - checked_before;
    let peak = ALLOCATOR.peak() as u64;
    let after_burst = ALLOCATOR.in_use() as u64;
    let held = |at: u64| at.saturating_sub(before_open);
    let times = |at: u64| held(at) as f64 / size as f64;
    eprintln!(
        "checked {checked} bytes ({:.1} passes) for {EDITS} edits; heap held for the document: \
         after the open {} ({:.2}x), at the burst's peak {} ({:.2}x), after it {} ({:.2}x)",
        checked as f64 / size as f64,
        held(after_open),
        times(after_open),
        held(peak),
        times(peak),
        held(after_burst),
        times(after_burst),
    );
    // What was typed is published, from the text (no save).
    assert_eq!(last.len(), 1, "{last:?}");
    assert_eq!(last[0]["code"], "U010");
    assert_eq!(range_of(&last[0]), ((3, 0), (3, 1)));
    // Each version read once at most (a burst coalesces to fewer), and
    // the text read at least once.
    let grown = size + EDITS * 3;
    assert!(checked >= size, "{checked}");
    assert!(
        checked <= EDITS * grown,
        "{checked} bytes for {EDITS} edits"
    );
    // A pass holds one copy of the text (and its findings) beside the
    // document: the heap never grows by more than twice the text.
    assert!(
        peak <= in_use + 2 * grown,
        "peak {peak}, in use {in_use} before the burst"
    );
    // At every moment the server holds at most four times the document.
    for (moment, at) in [
        ("after the open", after_open),
        ("at the burst's peak", peak),
        ("after the burst", after_burst),
    ] {
        assert!(
            held(at) <= MAX_HEAP_PER_DOCUMENT_BYTE * grown,
            "{moment}: {} bytes held for a document of {grown}",
            held(at)
        );
    }
}
