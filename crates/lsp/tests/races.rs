//! Documents closed and reopened while a worker still checks them.

mod common;

use std::time::Duration;

use common::{Client, codes};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_and_reopen_during_the_first_check_drops_the_old_result() {
    let mut c = Client::start(Some(&["utf-16"]), None, json!({"workspace-scan": false})).await;
    // Many U+FEFF far into a long text: the old check takes a while, and
    // its marks lie far past the end of the new text.
    let old: String = "abcdefghij\u{FEFF}".repeat(100_000);
    for (round, delay_ms) in [0u64, 2, 5, 10, 20, 40, 80].into_iter().enumerate() {
        let uri = format!("untitled:reopen{round}");
        c.open(&uri, &old).await;
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
        c.open_version(&uri, "new\u{FEFF}", 7).await;
        let diags = c.diagnostics_for(&uri, 7).await;
        assert_eq!(codes(&diags), ["U002"], "round {round}: {diags:?}");
        let hover = c
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 3}}),
            )
            .await;
        let text = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains("U+FEFF"), "round {round}: {hover}");
        // Publishing goes on for the new document.
        c.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 8},
            "contentChanges": [{"text": "plain"}]}}),
        )
        .await;
        let diags = c.diagnostics_for(&uri, 8).await;
        assert!(diags.is_empty(), "round {round}: {diags:?}");
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    }
    let shutdown = c.request("shutdown", Value::Null).await;
    assert_eq!(shutdown["result"], Value::Null);
}
