//! The server's lifecycle through the real server: `exit` sent as a
//! request, requests after `shutdown`, a client that never answers the
//! server's requests, end of input at every step, and the exit codes.

mod common;

use std::time::Duration;

use common::raw::{END_BOUND, Raw, initialize};
use serde_json::{Value, json};
use utf8lint_lsp::Ending;

const INVALID_REQUEST: i64 = -32600;
const SERVER_NOT_INITIALIZED: i64 = -32002;

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn exit() -> Value {
    json!({"jsonrpc": "2.0", "method": "exit"})
}

fn hover(id: i64) -> Value {
    request(
        id,
        "textDocument/hover",
        json!({"textDocument": {"uri": "untitled:a"}, "position": {"line": 0, "character": 1}}),
    )
}

fn did_open() -> Value {
    notification(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": "untitled:a", "languageId": "text", "version": 1, "text": "a\u{FEFF}b"}}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_with_an_id_is_refused_and_the_server_goes_on() {
    let mut c = Raw::start(Some(json!({})));
    c.initialize().await;
    c.send(json!({"jsonrpc": "2.0", "id": 77, "method": "exit"}))
        .await;
    let answer = c.response(json!(77)).await;
    assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{answer}");
    // Still reading and serving.
    c.send(did_open()).await;
    loop {
        let message = c.next().await;
        if message["method"] == "textDocument/publishDiagnostics" {
            break;
        }
    }
    c.send(hover(2)).await;
    let answer = c.response(json!(2)).await;
    assert!(
        answer["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|t| t.contains("U+FEFF")),
        "{answer}"
    );
    c.send(request(3, "shutdown", Value::Null)).await;
    assert_eq!(c.response(json!(3)).await["result"], Value::Null);
    c.send(exit()).await;
    // The input stays open: `exit` alone ends the server.
    let (ending, _, _) = c.ended().await;
    assert_eq!(
        ending,
        Ending::Exit {
            after_shutdown: true
        }
    );
    assert_eq!(ending.code(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_with_an_id_before_initialize_or_null_is_answered_and_end_of_input_ends() {
    let mut c = Raw::start(None);
    c.send(json!({"jsonrpc": "2.0", "id": 5, "method": "exit"}))
        .await;
    let answer = c.response(json!(5)).await;
    assert_eq!(answer["error"]["code"], SERVER_NOT_INITIALIZED, "{answer}");
    c.initialize().await;
    c.send(json!({"jsonrpc": "2.0", "id": null, "method": "exit"}))
        .await;
    let answer = c.response(Value::Null).await;
    assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{answer}");
    c.close_input().await;
    let (ending, _, _) = c.ended().await;
    assert_eq!(ending, Ending::InputEnded);
    assert_eq!(ending.code(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_after_shutdown_are_invalid_and_notifications_ignored() {
    let mut c = Raw::start(Some(json!({})));
    c.initialize().await;
    c.send(request(2, "shutdown", Value::Null)).await;
    let answer = c.response(json!(2)).await;
    assert_eq!(answer.get("result"), Some(&Value::Null), "{answer}");
    c.send(did_open()).await;
    for (id, message) in [
        (3, hover(3)),
        (4, request(4, "shutdown", Value::Null)),
        (5, initialize(5)),
        (
            6,
            request(
                6,
                "workspace/executeCommand",
                json!({"command": "utf8lint.fixAll", "arguments": []}),
            ),
        ),
        (7, json!({"jsonrpc": "2.0", "id": 7, "method": "exit"})),
    ] {
        c.send(message).await;
        let answer = c.response(json!(id)).await;
        assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{answer}");
    }
    c.send(exit()).await;
    let (ending, _, written) = c.ended().await;
    assert_eq!(ending.code(), 0, "{ending:?}");
    // The didOpen after shutdown was ignored: nothing published for it.
    assert!(
        written
            .iter()
            .all(|m| m["method"] != "textDocument/publishDiagnostics"),
        "{written:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_of_input_with_configuration_pending_ends_the_server() {
    for round in 0..10 {
        let mut c = Raw::start(None);
        c.initialize().await;
        // The server asks for the settings; this client never answers.
        c.server_request("workspace/configuration").await;
        c.close_input().await;
        // Ended within `ended`'s wait: the configuration was not waited for.
        let (ending, _, _) = c.ended().await;
        assert_eq!(ending, Ending::InputEnded, "round {round}");
        assert_eq!(ending.code(), 1);
    }
}

/// A client that never answers: every handler returns at once, so the
/// reader keeps reading (tower-lsp runs four handlers and queues a hundred);
/// the settings are asked for once at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_answers_does_not_stall_the_reader() {
    let mut c = Raw::start(None);
    c.initialize().await;
    c.send(did_open()).await;
    for _ in 0..300 {
        c.send(notification(
            "workspace/didChangeConfiguration",
            json!({"settings": {}}),
        ))
        .await;
        c.send(notification(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": "file:///w/utf8lint.toml", "type": 2}]}),
        ))
        .await;
    }
    c.send(hover(2)).await;
    let mut configuration_requests = 0;
    loop {
        let message = c.next().await;
        if message["method"] == "workspace/configuration" {
            configuration_requests += 1;
        }
        if message["id"] == 2 && message.get("method").is_none() {
            assert!(message.get("result").is_some(), "{message}");
            break;
        }
    }
    assert_eq!(configuration_requests, 1);
    c.close_input().await;
    let (ending, took, written) = c.ended().await;
    assert_eq!(ending, Ending::InputEnded);
    assert!(took < END_BOUND);
    assert_eq!(requests_for_settings(&written), 1);
}

fn requests_for_settings(written: &[Value]) -> usize {
    written
        .iter()
        .filter(|m| m["method"] == "workspace/configuration")
        .count()
}

/// With a client that answers, the refreshes asked for meanwhile are
/// coalesced into one more request, and the last settings apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configuration_refreshes_asked_for_meanwhile_are_sent_once_more() {
    let mut c = Raw::start(None);
    c.initialize().await;
    let first = c.server_request("workspace/configuration").await;
    for _ in 0..50 {
        c.send(notification(
            "workspace/didChangeConfiguration",
            json!({"settings": {}}),
        ))
        .await;
    }
    c.send(json!({"jsonrpc": "2.0", "id": first["id"], "result": [{}]}))
        .await;
    // The second answer turns U+FEFF findings off.
    let second = c.server_request("workspace/configuration").await;
    c.send(json!({"jsonrpc": "2.0", "id": second["id"], "result": [{"lints": {"stray_feff": "allow"}}]}))
        .await;
    c.send(did_open()).await;
    loop {
        let message = c.next().await;
        assert_ne!(message["method"], "workspace/configuration", "{message}");
        if message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["diagnostics"] == json!([])
        {
            break;
        }
    }
    c.close_input().await;
    let (ending, _, written) = c.ended().await;
    assert_eq!(ending, Ending::InputEnded);
    assert_eq!(requests_for_settings(&written), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_codes_follow_the_protocol() {
    // exit without shutdown: 1.
    let mut c = Raw::start(Some(json!({})));
    c.initialize().await;
    c.send(exit()).await;
    let (ending, _, _) = c.ended().await;
    assert_eq!(
        (ending, ending.code()),
        (
            Ending::Exit {
                after_shutdown: false
            },
            1
        )
    );
    // shutdown refused before initialize does not count.
    let mut c = Raw::start(None);
    c.send(request(9, "shutdown", Value::Null)).await;
    let answer = c.response(json!(9)).await;
    assert_eq!(answer["error"]["code"], SERVER_NOT_INITIALIZED, "{answer}");
    c.send(exit()).await;
    let (ending, _, _) = c.ended().await;
    assert_eq!(ending.code(), 1);
    // End of input after shutdown, without exit: 1.
    let mut c = Raw::start(Some(json!({})));
    c.initialize().await;
    c.send(request(2, "shutdown", Value::Null)).await;
    c.response(json!(2)).await;
    c.close_input().await;
    let (ending, _, _) = c.ended().await;
    assert_eq!((ending, ending.code()), (Ending::InputEnded, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_ends_the_server() {
    let mut c = Raw::start_deaf();
    c.send(initialize(1)).await;
    // The input stays open; the answer cannot be written.
    let (ending, took, _) = c.ended().await;
    assert_eq!((ending, ending.code()), (Ending::OutputClosed, 1));
    assert!(took < END_BOUND);
}

/// The answers cannot be written (the client does not read, yet keeps the
/// pipe open): once the input ends, the server waits two seconds for them,
/// then stops anyway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_of_input_ends_a_server_whose_answers_cannot_be_written() {
    let mut c = Raw::start_stuck();
    c.send(initialize(1)).await;
    c.send(notification("initialized", json!({}))).await;
    c.send(did_open()).await;
    c.send(hover(2)).await;
    c.close_input().await;
    let (ending, took, _) = c.ended().await;
    assert_eq!((ending, ending.code()), (Ending::InputEnded, 1));
    assert!(
        took >= Duration::from_millis(1500) && took < END_BOUND,
        "{took:?}"
    );
}

/// `initialize`, `shutdown` and `exit` written in one burst, as a
/// pipelining client does: each request is served in turn and the server
/// exits with 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pipelined_lifecycle_is_served_in_order() {
    for round in 0..20 {
        let mut c = Raw::start(Some(json!({})));
        let mut burst = Vec::new();
        for message in [
            initialize(1),
            notification("initialized", json!({})),
            did_open(),
            hover(2),
            request(3, "shutdown", Value::Null),
            exit(),
        ] {
            burst.extend(common::frame(message.to_string().as_bytes()));
        }
        c.send_raw(&burst).await;
        let (ending, _, written) = c.ended().await;
        let answer = |id: i64| {
            written
                .iter()
                .find(|m| m["id"] == id && m.get("method").is_none())
                .unwrap_or_else(|| panic!("round {round}: no answer to {id}: {written:?}"))
        };
        assert!(
            answer(1)["result"]["capabilities"].is_object(),
            "round {round}"
        );
        assert!(
            answer(2).get("result").is_some(),
            "round {round}: {}",
            answer(2)
        );
        assert_eq!(answer(3).get("result"), Some(&Value::Null), "round {round}");
        assert_eq!(
            ending,
            Ending::Exit {
                after_shutdown: true
            },
            "round {round}"
        );
    }
}

/// A client that never reads the answers and then closes its input: once
/// tower-lsp's queue is full it stops reading, yet the end of the input
/// is seen (it is read on a task of its own) and ends the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_of_input_ends_a_server_that_stopped_reading() {
    let mut c = Raw::start_stuck();
    c.send(initialize(1)).await;
    c.send(notification("initialized", json!({}))).await;
    c.send(did_open()).await;
    // Far more answers than the output and tower-lsp's queue hold.
    for id in 2..400 {
        c.send(hover(id)).await;
    }
    c.close_input().await;
    let (ending, took, _) = c.ended().await;
    assert_eq!((ending, ending.code()), (Ending::InputEnded, 1));
    assert!(took < END_BOUND, "{took:?}");
}
