//! Hostile frames through the real server: every frame is answered or
//! dropped with a log line, and the next good message is always served.

mod common;

use std::time::Duration;

use common::{Client, frame};
use serde_json::{Value, json};

const DOC: &str = "untitled:frames";

async fn started() -> Client {
    let mut c = Client::start(Some(&["utf-16"]), None, json!({"workspace-scan": false})).await;
    c.open(DOC, "a\u{FEFF}b").await;
    c.diagnostics_for(DOC, 1).await;
    c
}

/// A hover on the U+FEFF of the open document, sent as request `id`: its
/// exact answer proves the server is still reading and serving.
async fn assert_hover_answers(c: &mut Client, id: i64) {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": DOC}, "position": {"line": 0, "character": 1}}});
    c.send(body).await;
    let answer = c.wait_response(json!(id)).await;
    let text = answer["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("U+FEFF"), "request {id}: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_string_method_frames_are_answered_and_reading_goes_on() {
    let mut c = started().await;
    let kinds = [
        json!(5),
        Value::Null,
        json!(true),
        json!([]),
        json!({"a": 1}),
    ];
    for (n, method) in kinds.iter().enumerate() {
        let id = 100 + n as i64;
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}}))
            .await;
        let answer = c.wait_response(json!(id)).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
        // The same as a notification: dropped (nothing to answer).
        c.send(json!({"jsonrpc": "2.0", "method": method})).await;
        assert_hover_answers(&mut c, 200 + n as i64).await;
    }
    let shutdown = c.request("shutdown", Value::Null).await;
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
}

fn hover_body(id: i64) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": DOC}, "position": {"line": 0, "character": 1}}}),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bad_header_kind_is_skipped_and_the_next_message_answered() {
    let mut c = started().await;
    let lost = hover_body(1);
    let bad_headers: Vec<(&str, Vec<u8>)> = vec![
        (
            "missing",
            b"Content-Type: application/json\r\n\r\n".to_vec(),
        ),
        (
            "LF only",
            format!("Content-Length: {}\n\n", lost.len()).into_bytes(),
        ),
        ("not a number", b"Content-Length: ten\r\n\r\n".to_vec()),
        ("too small", b"Content-Length: 5\r\n\r\n".to_vec()),
        (
            "too large",
            format!("Content-Length: {}\r\n\r\n", lost.len() + 500).into_bytes(),
        ),
        (
            "above the cap",
            format!("Content-Length: {}\r\n\r\n", 64 << 20 | 1).into_bytes(),
        ),
    ];
    for (n, (kind, header)) in bad_headers.into_iter().enumerate() {
        let mut bytes = header;
        bytes.extend_from_slice(&lost);
        let id = 300 + n as i64;
        bytes.extend(frame(&hover_body(id)));
        c.send_raw(&bytes).await;
        let answer = c.wait_response(json!(id)).await;
        let text = answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains("U+FEFF"), "{kind}: {answer}");
    }
    // The bodies behind bad headers were not served as requests.
    let stray: Vec<Value> = c.collect("nothing", Duration::from_millis(200)).await;
    assert!(stray.is_empty());
    assert_hover_answers(&mut c, 400).await;
}

/// Rejected without reading the body it announces: the hover after it is
/// answered (within the client's wait for any message) though the two GiB
/// never come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_gib_content_length_is_rejected_at_once() {
    let mut c = started().await;
    let mut bytes = b"Content-Length: 2147483648\r\n\r\n".to_vec();
    bytes.extend(frame(&hover_body(500)));
    c.send_raw(&bytes).await;
    let answer = c.wait_response(json!(500)).await;
    assert!(
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .contains("U+FEFF"),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_did_open_over_the_limit_is_told_to_the_user_and_reading_goes_on() {
    let mut c = started().await;
    let text = "x".repeat((64 << 20) + 1);
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": "file:///w/huge%1B.txt", "languageId": "plaintext",
            "version": 1, "text": text}}}))
    .unwrap();
    drop(text);
    c.send_raw(&frame(&body)).await;
    drop(body);
    assert_hover_answers(&mut c, 7).await;
    let mut shown = Vec::new();
    for _ in 0..100 {
        shown = c
            .collect("window/showMessage", Duration::from_millis(100))
            .await;
        if !shown.is_empty() {
            break;
        }
    }
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0]["params"]["type"], 2, "a warning: {shown:?}");
    assert_eq!(
        shown[0]["params"]["message"],
        "utf8lint does not check `/w/huge\\u{1B}.txt`: the editor sent it as a message of 65 MiB, over the language server's limit of 64 MiB per message"
    );
}
