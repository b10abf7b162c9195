//! What checking the editor's text as typed costs, counted (never timed):
//! each version of a 1 MiB document is read at most once by the character
//! rules, a burst of edits adds at most one copy of the text at a time to
//! the heap, and what was typed is published within the burst's last
//! version.

mod common;

use common::{Client, file_uri, range_of};
use serde_json::json;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes in use and their peak since
/// the last [`Counting::reset_peak`].
struct Counting {
    in_use: AtomicUsize,
    peak: AtomicUsize,
}

impl Counting {
    fn in_use(&self) -> usize {
        self.in_use.load(Ordering::SeqCst)
    }

    fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    fn reset_peak(&self) {
        self.peak.store(self.in_use(), Ordering::SeqCst);
    }
}

// SAFETY: every call is passed to `System` as it came; only counters are
// kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = self.in_use.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            self.peak.fetch_max(now, Ordering::SeqCst);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) };
        self.in_use.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting {
    in_use: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

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
    c.open(&uri, &text).await;
    assert!(c.diagnostics_for(&uri, 1).await.is_empty());
    drop(text);

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
    eprintln!(
        "checked {checked} bytes ({:.1} passes) for {EDITS} edits; heap in use {in_use}, peak during the burst {peak}",
        checked as f64 / size as f64
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
}
