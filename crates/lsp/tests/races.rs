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

/// Edits that arrive before the first disk read: the text the
/// client opened matched the file; the findings are placed on it and
/// follow the edits, whichever comes first, the read or the edits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_before_the_first_disk_read_keep_positions_exact() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(
        Some(&["utf-16"]),
        Some(dir.path()),
        json!({"workspace-scan": false}),
    )
    .await;
    // A long first line makes the read and the check take a moment.
    let filler = "z".repeat(200_000);
    for round in 0..30 {
        let path = dir.path().join(format!("early{round}.txt"));
        let mut bytes = filler.clone().into_bytes();
        bytes.extend_from_slice(b"\na\xFFb\n");
        std::fs::write(&path, &bytes).unwrap();
        let uri = common::file_uri(&path);
        let opened = format!("{filler}\na\u{FFFD}b\n");
        // didOpen and two edits in one write: the edits reach the server
        // before or after its worker takes the text, by chance.
        let frames = [
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "plaintext", "version": 1, "text": opened}}}),
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "new line\n"}]}}),
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 3},
                "contentChanges": [{"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}}, "text": "xy"}]}}),
        ];
        let mut raw = Vec::new();
        for f in &frames {
            raw.extend(common::frame(f.to_string().as_bytes()));
        }
        c.send_raw(&raw).await;
        // Text now: "new line\n" + filler + "\nxya\u{FFFD}b\n": the bad
        // byte is line 2, characters 3..4.
        let diags = c.diagnostics_for(&uri, 3).await;
        let u001: Vec<&Value> = diags
            .iter()
            .filter(|d| d["code"] == "U001" && d["data"]["origin"] == "disk")
            .collect();
        assert_eq!(u001.len(), 1, "round {round}: {diags:?}");
        assert_eq!(
            common::range_of(u001[0]),
            ((2, 3), (2, 4)),
            "round {round}: {diags:?}"
        );
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    }
}
