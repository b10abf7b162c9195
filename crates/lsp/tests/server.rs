//! The language server driven in-process over duplex streams.

mod common;

use common::{Client, codes, file_uri, frame, no_scan, range_of, write};
use serde_json::{Value, json};

/// `((line, character), (line, character))`.
type Span = ((u64, u64), (u64, u64));

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_utf8_frame_does_not_end_the_server() {
    let mut c = Client::start(Some(&["utf-8", "utf-16"]), None, no_scan()).await;
    // What Neovim sends for a buffer opened with ++bad=keep: a raw 0xFF.
    let body = b"{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"untitled:raw\",\"languageId\":\"text\",\"version\":1,\"text\":\"a\xFFb\xEF\xBB\xBFc\"}}}";
    c.send_raw(&frame(body)).await;
    // Not JSON at all, then not JSON-RPC with an id.
    c.send_raw(&frame(b"{\"jsonrpc\":\"2.0\",\"method\":"))
        .await;
    c.send_raw(&frame(br#"{"id":41,"method":"textDocument/hover"}"#))
        .await;
    let err = c.wait_response(json!(41)).await;
    assert!(err.get("error").is_some(), "{err}");
    // The server still answers, and saw the document (the U+FEFF is found).
    let diags = c.diagnostics_for("untitled:raw", 1).await;
    // The raw byte (no file to read: from the text) and the U+FEFF.
    assert_eq!(codes(&diags), ["U001", "U002"], "{diags:?}");
    assert_eq!(range_of(&diags[0]).0, (0, 1));
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:raw"}, "position": {"line": 0, "character": 5}}))
        .await;
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("U002"),
        "{hover}"
    );
    let shutdown = c.request("shutdown", Value::Null).await;
    assert_eq!(shutdown["result"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_rapid_edits_apply_in_order() {
    let mut c = Client::start(Some(&["utf-16"]), None, no_scan()).await;
    c.open("untitled:rapid", "").await;
    // Each edit appends at the end of the single line: "ab" or, every 50th,
    // a U+FEFF. If any two were reordered, the text would differ.
    let mut expected = String::new();
    for v in 2..202 {
        let insert = if v % 50 == 0 { "\u{FEFF}" } else { "ab" };
        let col: usize = expected.encode_utf16().count();
        c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": "untitled:rapid", "version": v},
            "contentChanges": [{"range": {"start": {"line": 0, "character": col}, "end": {"line": 0, "character": col}}, "text": insert}]
        }}))
        .await;
        expected.push_str(insert);
    }
    let diags = c.diagnostics_for("untitled:rapid", 201).await;
    // Publishes come with increasing versions (stale results are dropped),
    // and a burst is coalesced rather than checked edit by edit.
    let earlier: Vec<i64> = c
        .collect(
            "textDocument/publishDiagnostics",
            std::time::Duration::from_millis(100),
        )
        .await
        .iter()
        .filter(|m| m["params"]["uri"] == "untitled:rapid")
        .filter_map(|m| m["params"]["version"].as_i64())
        .collect();
    assert!(earlier.windows(2).all(|w| w[0] < w[1]), "{earlier:?}");
    assert!(earlier.iter().all(|&v| v < 201), "{earlier:?}");
    let starts: Vec<u64> = diags.iter().map(|d| range_of(d).0.1).collect();
    let want: Vec<u64> = expected
        .char_indices()
        .filter(|(_, ch)| *ch == '\u{FEFF}')
        .map(|(i, _)| expected[..i].encode_utf16().count() as u64)
        .collect();
    assert_eq!(want.len(), 4);
    assert_eq!(starts, want, "{diags:?}");
    // Hover at the last one proves the server's text is the expected text.
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:rapid"}, "position": {"line": 0, "character": want[3]}}))
        .await;
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("U+FEFF"),
        "{hover}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn astral_characters_before_a_finding_in_utf16_and_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(
        dir.path(),
        "emoji.txt",
        "😀😀 é \u{1F600}"
            .as_bytes()
            .iter()
            .chain(b"\xFF!\n")
            .copied()
            .collect::<Vec<u8>>()
            .as_slice(),
    );
    let text = "😀😀 é 😀\u{FFFD}!\n";
    for (offer, start, end) in [
        (Some(&["utf-16"][..]), 9, 10),
        (None, 9, 10),
        (Some(&["utf-16", "utf-8"][..]), 16, 19),
    ] {
        let mut c = Client::start(offer, None, no_scan()).await;
        let init = c.initialize_result().await;
        let negotiated = init["capabilities"]["positionEncoding"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(negotiated, if start == 16 { "utf-8" } else { "utf-16" });
        c.open(&uri, text).await;
        let diags = c.diagnostics_for(&uri, 1).await;
        let u001: Vec<&Value> = diags.iter().filter(|d| d["code"] == "U001").collect();
        assert!(!u001.is_empty(), "{diags:?}");
        assert!(
            u001.iter().all(|d| range_of(d) == ((0, start), (0, end))),
            "{negotiated}: {diags:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_candidate_decoding_places_the_findings() {
    let dir = tempfile::tempdir().unwrap();
    let disk = b"caf\xC3\xA9\r\nx \xFF\xFE y\r\n";
    let (_, uri) = write(dir.path(), "mixed.txt", disk);
    let cases: [(&str, Span); 5] = [
        // VS Code: lossy, CRLF kept.
        ("café\r\nx \u{FFFD}\u{FFFD} y\r\n", ((1, 2), (1, 8))),
        // Neovim latin1 fallback, ff=dos joined with \r\n.
        ("cafÃ©\r\nx ÿþ y\r\n", ((1, 2), (1, 6))),
        // Neovim fencs=utf-8: `?` per byte, lines joined with \n.
        ("café\nx ?? y\n", ((1, 2), (1, 4))),
        // Lossy with \n, no final newline.
        ("café\nx \u{FFFD}\u{FFFD} y", ((1, 2), (1, 8))),
        // Not a decoding: placed by line and column (lossy columns, in bytes of this text).
        ("café!!\nx ?? y and more\n", ((1, 2), (1, 4))),
    ];
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    for (i, (text, want)) in cases.iter().enumerate() {
        let version = i as i64 + 1;
        c.open_version(&uri, text, version).await;
        let diags = c.diagnostics_for(&uri, version).await;
        let u001: Vec<&Value> = diags
            .iter()
            .filter(|d| d["code"] == "U001" && d["severity"] == 1)
            .collect();
        assert_eq!(u001.len(), 1, "case {i}: {diags:?}");
        assert_eq!(range_of(u001[0]), *want, "case {i}: {diags:?}");
        let mismatch = diags.iter().any(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("the editor's text differs from the file")
        });
        assert_eq!(mismatch, i == 4, "case {i}: {diags:?}");
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
        let cleared = c
            .diagnostics_where(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty())
            .await;
        assert!(cleared["diagnostics"].as_array().unwrap().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bom_on_disk_is_reported_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "data.json", b"\xEF\xBB\xBF{\"a\": 1}\n");
    let mut c = Client::start(Some(&["utf-16"]), None, no_scan()).await;
    c.open(&uri, "{\"a\": 1}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"], "{diags:?}");
    assert_eq!(range_of(&diags[0]), ((0, 0), (0, 0)));
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.contains("must not start with a byte-order mark (U+FEFF, invisible in the editor)"),
        "{message}"
    );
    assert!(message.contains("JSON"), "{message}");
    assert_eq!(diags[0]["source"], "utf8lint");
    assert_eq!(diags[0]["severity"], 1);
    assert!(
        diags[0]["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("U003.md")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lossy_text_warns_that_saving_replaces_the_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "lossy.txt", b"caf\xC3\xA9 \xE9t\xE9 \xC0\xAE\n");
    let mut c = Client::start(Some(&["utf-16"]), None, no_scan()).await;
    c.open(&uri, "café \u{FFFD}t\u{FFFD} \u{FFFD}\u{FFFD}\n")
        .await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let warning: Vec<&Value> = diags
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("saving from this editor will replace the 4 invalid bytes")
        })
        .collect();
    assert_eq!(warning.len(), 1, "{diags:?}");
    assert_eq!(range_of(warning[0]), ((0, 5), (0, 6)));
    // A single byte shown as U+FFFD: no action guesses the letter it
    // meant (`é` in windows-1252 is one reading of many); the fixes on disk
    // remain, and no action edits the buffer.
    let first = diags
        .iter()
        .find(|d| d["code"] == "U001" && d["severity"] == 1)
        .unwrap();
    let actions = c.code_actions(&uri, first).await;
    let actions = actions["result"].as_array().unwrap();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().all(|t| !t.contains("windows-1252")),
        "{titles:?}"
    );
    assert!(
        titles
            .iter()
            .any(|t| t.contains("rewrites the file on disk")),
        "{titles:?}"
    );
    // (utf8lint.toml may be edited: it is not this file's buffer.)
    let edits_buffer = |a: &Value| {
        a["edit"]["documentChanges"]
            .as_array()
            .is_some_and(|cs| cs.iter().any(|c| c["textDocument"]["uri"] == uri))
    };
    assert!(!actions.iter().any(edits_buffer), "{actions:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_bytes_from_the_client_get_no_save_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "keep.txt", b"caf\xC3\xA9 \xFF ok\n");
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    let body = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{{\"textDocument\":{{\"uri\":\"{uri}\",\"languageId\":\"text\",\"version\":1,\"text\":\"caf\u{e9} RAW ok\\n\"}}}}}}"
    );
    let body = body.replace("RAW", "\u{1}").into_bytes();
    let body: Vec<u8> = body
        .into_iter()
        .map(|b| if b == 1 { 0xFF } else { b })
        .collect();
    c.send_raw(&frame(&body)).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U001"], "{diags:?}");
    // The client holds one raw byte there, not a 3-byte U+FFFD.
    assert_eq!(range_of(&diags[0]), ((0, 6), (0, 7)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dirty_buffer_keeps_disk_findings_in_step_and_checks_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "dirty.txt", b"on\xC3\xA9\ntwo \xFF\n");
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, "oné\ntwo \u{FFFD}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let u001 = diags
        .iter()
        .find(|d| d["code"] == "U001" && d["severity"] == 1)
        .unwrap();
    assert_eq!(range_of(u001), ((1, 4), (1, 7)));
    // Insert a line with a U+FEFF at the top: the disk finding moves down,
    // the new U+FEFF is found in the text.
    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "new\u{FEFF}line\n"}]
    }))
    .await;
    let diags = c.diagnostics_for(&uri, 2).await;
    let u001 = diags
        .iter()
        .find(|d| d["code"] == "U001" && d["severity"] == 1)
        .unwrap();
    assert_eq!(range_of(u001), ((2, 4), (2, 7)));
    let u002 = diags
        .iter()
        .find(|d| d["code"] == "U002")
        .expect("text-level U+FEFF");
    assert_eq!(range_of(u002), ((0, 3), (0, 6)));
    assert_eq!(u002["data"]["origin"], "text");
    // Typing over the invalid byte's U+FFFD drops that disk finding.
    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 7}}, "text": "x"}]
    }))
    .await;
    let diags = c.diagnostics_for(&uri, 3).await;
    assert!(
        !diags
            .iter()
            .any(|d| d["code"] == "U001" && d["severity"] == 1),
        "{diags:?}"
    );
    // The quick fix for the text-level U+FEFF is a text edit.
    let u002 = diags.iter().find(|d| d["code"] == "U002").unwrap().clone();
    let actions = c.code_actions(&uri, &u002).await;
    let action = &actions["result"][0];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(
        action["edit"]["documentChanges"][0]["textDocument"]["version"],
        3
    );
    let edit = &action["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(edit["newText"], "\u{2060}", "{action}");
}

/// A re-read of a file unchanged on disk while the buffer has edits (a
/// watcher's event, new settings) places the findings in the text last
/// known to match the file, rebuilt from the bytes (only its digest is
/// kept), then moves them through the edits made since: never by line and
/// column of a text that has moved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reread_under_unsaved_edits_places_findings_through_the_edits() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "moved.txt", b"one\r\ntwo \xFF\r\nthree\r\n");
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, "one\r\ntwo \u{FFFD}\r\nthree\r\n").await;
    let u001 = |diags: &[Value]| {
        diags
            .iter()
            .find(|d| d["code"] == "U001" && d["severity"] == 1)
            .map(range_of)
    };
    assert_eq!(
        u001(&c.diagnostics_for(&uri, 1).await),
        Some(((1, 4), (1, 7)))
    );
    for (version, line) in [(2, 0), (3, 4)] {
        c.notify("textDocument/didChange", json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": "added\r\n"}]
        }))
        .await;
        c.diagnostics_for(&uri, version).await;
    }
    // The file did not change; the server is told it may have.
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    )
    .await;
    let reread = c.diagnostics_for(&uri, 3).await;
    assert_eq!(u001(&reread), Some(((2, 4), (2, 7))), "{reread:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_fix_refuses_dirty_buffers_and_rewrites_clean_files_atomically() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (path, uri) = write(dir.path(), "x.json", b"\xEF\xBB\xBF{}\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, "{}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"]);
    let actions = c.code_actions(&uri, &diags[0]).await;
    let command = actions["result"][0]["command"].clone();
    assert_eq!(command["command"], "utf8lint.applyFix", "{actions}");
    // Dirty: refused, file untouched.
    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "text": "\"k\": 1"}]
    }))
    .await;
    // Not offered while the buffer differs from the file ...
    let dirty_actions = c.code_actions(&uri, &diags[0]).await;
    assert!(
        !dirty_actions.to_string().contains("utf8lint.applyFix"),
        "{dirty_actions}"
    );
    // ... and refused if asked for anyway.
    let refused = c
        .request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unsaved changes"),
        "{refused}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"\xEF\xBB\xBF{}\n");
    // Undone (the text equals the file again): applied.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 3},
            "contentChanges": [{"text": "{}\n"}]
        }),
    )
    .await;
    let undone_actions = c.code_actions(&uri, &diags[0]).await;
    assert!(
        undone_actions.to_string().contains("utf8lint.applyFix"),
        "{undone_actions}"
    );
    let done = c
        .request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert_eq!(done["result"]["applied"], 1, "{done}");
    // The client is told, so that it can re-read the file (Neovim).
    let told = c
        .collect_at_least(
            "utf8lint/didRewriteFile",
            1,
            std::time::Duration::from_secs(30),
        )
        .await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0]["params"]["uri"], uri);
    assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    // The server re-read the file: nothing left to report.
    let after = c
        .diagnostics_where(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(after["version"], 3);
    // Asked again: the finding is gone, so it says so.
    let again = c
        .request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no longer has that finding"),
        "{again}"
    );
}

/// A client that shows disabled actions (`codeActionDisabledSupport`) is
/// shown the fixes made on disk while the buffer has unsaved changes,
/// disabled, with the reason and nothing to run; once the text is the
/// file's again they are offered as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_fix_on_a_dirty_buffer_is_shown_disabled_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (path, uri) = write(dir.path(), "x.json", b"\xEF\xBB\xBF{}\n");
    let mut c = Client::start_with(
        Some(dir.path()),
        no_scan(),
        json!({"textDocument": {"codeAction": {"disabledSupport": true}}}),
    )
    .await;
    c.open(&uri, "{}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"]);
    let on_disk = |actions: &Value| -> Vec<Value> {
        actions["result"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["title"].as_str().unwrap().contains("on disk"))
            .cloned()
            .collect()
    };
    let clean = c.code_actions(&uri, &diags[0]).await;
    let offered = on_disk(&clean);
    assert!(!offered.is_empty(), "{clean}");
    assert!(
        offered
            .iter()
            .all(|a| a.get("disabled").is_none() && a["command"]["command"].is_string()),
        "{clean}"
    );

    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "text": "\"k\": 1"}]
    }))
    .await;
    c.diagnostics_for(&uri, 2).await;
    let quick_fixes = c.code_actions(&uri, &diags[0]).await;
    let fix_all = c.fix_all_actions(&uri).await;
    for dirty in [quick_fixes, fix_all] {
        let shown = on_disk(&dirty);
        assert!(!shown.is_empty(), "{dirty}");
        for action in &shown {
            let reason = action["disabled"]["reason"].as_str().unwrap_or_default();
            assert!(reason.contains("unsaved changes"), "{action}");
            assert!(action.get("command").is_none(), "{action}");
            assert!(action.get("edit").is_none(), "{action}");
        }
    }
    assert_eq!(std::fs::read(&path).unwrap(), b"\xEF\xBB\xBF{}\n");

    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "{}\n"}]}),
    )
    .await;
    c.diagnostics_for(&uri, 3).await;
    let undone = c.code_actions(&uri, &diags[0]).await;
    let offered = on_disk(&undone);
    assert!(
        !offered.is_empty() && offered.iter().all(|a| a.get("disabled").is_none()),
        "{undone}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_applies_safe_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(
        dir.path(),
        "joined.txt",
        "a\n\u{FEFF}b\n\u{FEFF}c\n".as_bytes(),
    );
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, "a\n\u{FEFF}b\n\u{FEFF}c\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U002", "U002"]);
    let actions = c.fix_all_actions(&uri).await;
    let action = &actions["result"][0];
    assert_eq!(action["kind"], "source.fixAll.utf8lint", "{actions}");
    let edits = action["edit"]["documentChanges"][0]["edits"]
        .as_array()
        .unwrap();
    assert_eq!(edits.len(), 2);
    assert!(edits.iter().all(|e| e["newText"] == ""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_params_and_unknown_documents_get_errors_not_panics() {
    let mut c = Client::start(Some(&["utf-16"]), None, no_scan()).await;
    // Missing fields: an error response.
    let bad = c
        .request("textDocument/hover", json!({"textDocument": 5}))
        .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    // Unknown document: no hover, no actions.
    let none = c
        .request("textDocument/hover", json!({"textDocument": {"uri": "file:///nope"}, "position": {"line": 9, "character": 9}}))
        .await;
    assert_eq!(none["result"], Value::Null);
    let cmd = c
        .request(
            "workspace/executeCommand",
            json!({"command": "utf8lint.applyFix", "arguments": [{"uri": "untitled:1"}]}),
        )
        .await;
    assert_eq!(cmd["error"]["code"], -32602, "{cmd}");
    let cmd = c
        .request(
            "workspace/executeCommand",
            json!({"command": "rm -rf", "arguments": []}),
        )
        .await;
    assert!(cmd.get("error").is_some());
    // didChange for an unknown document, and out-of-range positions.
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": "untitled:ghost", "version": 2}, "contentChanges": [{"text": "x"}]})).await;
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": 7}}),
    )
    .await;
    c.open("untitled:short", "ab").await;
    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": "untitled:short", "version": 2},
        "contentChanges": [{"range": {"start": {"line": 40, "character": 2}, "end": {"line": 0, "character": 900}}, "text": "\u{FEFF}"}]
    }))
    .await;
    let diags = c.diagnostics_for("untitled:short", 2).await;
    assert_eq!(codes(&diags), ["U002"]);
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:short"}, "position": {"line": 4000, "character": 4000}}))
        .await;
    assert!(hover.get("result").is_some(), "{hover}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_scan_publishes_unopened_files_and_deletion_clears_them() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clean.txt", b"fine\n");
    let (bad_path, bad_uri) = write(dir.path(), "bad.txt", b"caf\xC3\xA9\n\xFF\n");
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
    let found = c.diagnostics_where(&bad_uri, |_| true).await;
    let diags = found["diagnostics"].as_array().unwrap();
    assert_eq!(codes(diags), ["U001"]);
    assert_eq!(range_of(&diags[0]), ((1, 0), (1, 3)));
    let progress = c
        .collect("$/progress", std::time::Duration::from_millis(200))
        .await;
    assert!(
        progress
            .iter()
            .any(|p| p["params"]["value"]["kind"] == "end"),
        "{progress:?}"
    );
    let registrations = c
        .collect("client/registerCapability", std::time::Duration::ZERO)
        .await;
    assert_eq!(registrations.len(), 1);
    std::fs::remove_file(&bad_path).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": bad_uri, "type": 3}]}),
    )
    .await;
    let cleared = c
        .diagnostics_where(&bad_uri, |p| {
            p["diagnostics"].as_array().unwrap().is_empty()
        })
        .await;
    assert!(cleared["diagnostics"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_scan_walks_as_the_cli_does() {
    // The shared walk: `.utf8lintignore` and `.git` are skipped and hidden
    // files are checked, as `utf8lint check` does by default (issues 11, 17).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".utf8lintignore"), "vendor/\n").unwrap();
    let (_, ignored) = write(dir.path(), "vendor/bad.txt", b"\xFF\n");
    let (_, hidden) = write(dir.path(), ".cache/bad.txt", b"\xFF\n");
    let (_, in_git) = write(dir.path(), ".git/bad.txt", b"\xFF\n");
    // Enough files for every scan thread to have work; the last one sorts
    // after all of them, so it is published after they were all checked
    // (the hidden one sorts first).
    for i in 0..40 {
        write(dir.path(), &format!("src/f{i:02}.txt"), b"fine\n");
    }
    let (_, bad) = write(dir.path(), "src/zz.txt", b"\xFF\n");
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
    let found = c.diagnostics_where(&bad, |_| true).await;
    assert_eq!(codes(found["diagnostics"].as_array().unwrap()), ["U001"]);
    let progress = c
        .collect("$/progress", std::time::Duration::from_millis(300))
        .await;
    let end = progress
        .iter()
        .find(|p| p["params"]["value"]["kind"] == "end")
        .unwrap_or_else(|| panic!("no end of progress: {progress:?}"));
    assert_eq!(
        end["params"]["value"]["message"], "2 files with findings",
        "{end}"
    );
    let published = c
        .collect("textDocument/publishDiagnostics", std::time::Duration::ZERO)
        .await;
    assert!(
        published.iter().any(|p| p["params"]["uri"] == *hidden),
        "the hidden {hidden} was not scanned: {published:?}"
    );
    for uri in [&ignored, &in_git] {
        assert!(
            !published.iter().any(|p| p["params"]["uri"] == **uri),
            "{uri} was scanned: {published:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_scan_leaves_out_what_utf8lint_toml_excludes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "utf8lint.toml", b"exclude = [\"gen/\"]\n");
    let (_, excluded) = write(dir.path(), "gen/bad.txt", b"\xFF\n");
    let (_, bad) = write(dir.path(), "src/bad.txt", b"\xFF\n");
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
    let found = c.diagnostics_where(&bad, |_| true).await;
    assert_eq!(codes(found["diagnostics"].as_array().unwrap()), ["U001"]);
    let progress = c
        .collect("$/progress", std::time::Duration::from_millis(300))
        .await;
    assert!(
        progress
            .iter()
            .any(|p| p["params"]["value"]["message"] == "1 files with findings"),
        "{progress:?}"
    );
    let published = c
        .collect("textDocument/publishDiagnostics", std::time::Duration::ZERO)
        .await;
    assert!(
        !published.iter().any(|p| p["params"]["uri"] == *excluded),
        "{published:?}"
    );
    // Opened, it is checked: the editor named it.
    c.open(&excluded, "\u{FFFD}\n").await;
    let diags = c.diagnostics_for(&excluded, 1).await;
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "U001" && d["data"]["origin"] == "disk"),
        "{diags:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configuration_sets_levels_and_is_reread_on_change() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "c.txt", "x\u{FEFF}y\n".as_bytes());
    let mut c = Client::start(
        Some(&["utf-8"]),
        None,
        json!({"workspace-scan": false, "lints": {"stray_feff": "deny"}}),
    )
    .await;
    c.open(&uri, "x\u{FEFF}y\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U002"]);
    assert_eq!(diags[0]["severity"], 1);
    c.settings = json!({"lints": {"stray_feff": "allow"}, "workspace-scan": false});
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    )
    .await;
    let after = c
        .diagnostics_where(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(after["version"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_changed_on_disk_is_reread() {
    let dir = tempfile::tempdir().unwrap();
    let (path, uri) = write(dir.path(), "w.txt", b"ok\n");
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, "ok\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert!(diags.is_empty());
    std::fs::write(&path, b"\xC3\xB3k\xFF\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    )
    .await;
    let p = c
        .diagnostics_where(&uri, |p| !p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    let ds = p["diagnostics"].as_array().unwrap();
    assert!(codes(ds).contains(&"U001".to_string()), "{ds:?}");
    assert!(
        ds.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .contains("differs from the file")),
        "{ds:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn utf8lint_toml_changes_apply_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "t.txt", "x\u{FEFF}y\n".as_bytes());
    let (toml, toml_uri) = write(
        dir.path(),
        "utf8lint.toml",
        b"[lints]\nstray_feff = \"deny\"\n",
    );
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, "x\u{FEFF}y\n").await;
    let diags = c
        .diagnostics_where(&uri, |p| p["diagnostics"][0]["severity"] == 1)
        .await;
    assert_eq!(codes(diags["diagnostics"].as_array().unwrap()), ["U002"]);
    std::fs::write(&toml, b"[lints]\nstray_feff = \"allow\"\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": toml_uri, "type": 2}]}),
    )
    .await;
    let after = c
        .diagnostics_where(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(after["version"], 1);
}

/// Why the transport exists: the same server behind tower-lsp's own framing
/// stops reading at the first frame that is not UTF-8 (tower-lsp 0.20's
/// `FramedRead` fuses after a decode error), so `serve` returns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_transport_tower_lsp_ends_on_a_bad_frame() {
    use std::sync::Arc;
    use tokio::io::AsyncWriteExt;
    let (mut client, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    let repairs = Arc::new(utf8lint_lsp::RepairLog::default());
    let (service, socket) =
        tower_lsp::LspService::new(move |c| utf8lint_lsp::Server::new(c, repairs));
    let serve = tokio::spawn(tower_lsp::Server::new(read, write, socket).serve(service));
    let body = b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"\xFF\"}";
    client.write_all(&frame(body)).await.unwrap();
    // The server may have ended on the bad frame and dropped its end
    // already (what this test shows): then this write finds a broken pipe.
    let _ = client
        .write_all(&frame(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#))
        .await;
    let ended = tokio::time::timeout(std::time::Duration::from_secs(5), serve).await;
    assert!(
        ended.is_ok(),
        "tower-lsp kept serving after an invalid UTF-8 frame: the transport may no longer be needed"
    );
}

/// `utf8lint.fixAll` applies every safe fix, not only those of the
/// findings shown (at most 50 per rule by default).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_applies_every_safe_fix_past_the_display_cap() {
    let root = tempfile::tempdir().unwrap();
    let text = "a\n\u{FEFF}b\n".repeat(120);
    let path = root.path().join("many.txt");
    std::fs::write(&path, &text).unwrap();
    let mut c = Client::start(Some(&["utf-8"]), Some(root.path()), no_scan()).await;
    c.open(&file_uri(&path), &text).await;
    let answer = c
        .request(
            "workspace/executeCommand",
            json!({"command": "utf8lint.fixAll", "arguments": [{"uri": file_uri(&path)}]}),
        )
        .await;
    assert_eq!(answer["result"]["applied"], 120, "{answer}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "a\nb\n".repeat(120)
    );
}

/// A Latin-1 letter inside UTF-8 text: the code pages read `\xE9`
/// differently (`é` in windows-1252, `Θ` in CP437), so the server offers
/// the U+FFFD repair on disk, no letter, and applies it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_latin1_byte_is_repaired_to_u_fffd_not_a_guessed_letter() {
    let dir = tempfile::tempdir().unwrap();
    let (path, uri) = write(dir.path(), "menu.txt", b"caf\xE9 au lait\n");
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, "caf\u{FFFD} au lait\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let u001 = diags
        .iter()
        .find(|d| d["code"] == "U001" && d["data"]["origin"] == "disk")
        .unwrap_or_else(|| panic!("{diags:?}"))
        .clone();
    let actions = c.code_actions(&uri, &u001).await;
    let titles: Vec<String> = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["command"]["command"] == "utf8lint.applyFix")
        .map(|a| a["title"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        titles,
        ["replace with U+FFFD (rewrites the file on disk)"],
        "{actions}"
    );
    let fffd = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap()
                .starts_with("replace with U+FFFD")
        })
        .unwrap()["command"]
        .clone();
    let done = c
        .request(
            "workspace/executeCommand",
            json!({"command": fffd["command"], "arguments": fffd["arguments"]}),
        )
        .await;
    assert_eq!(done["result"]["applied"], 1, "{done}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "caf\u{FFFD} au lait\n"
    );
}

/// The text rules (U010 bidi controls, U011 invisible characters) reach the
/// editor from the file on disk, placed in the editor's text, with their
/// fixes as code actions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_rule_findings_and_their_fixes_reach_the_editor() {
    let dir = tempfile::tempdir().unwrap();
    let text = "let s = \"user\u{200B}Name\";\n// \u{202E} hidden\n";
    let (path, uri) = write(dir.path(), "main.rs", text.as_bytes());
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U011", "U010"], "{diags:?}");
    assert_eq!(range_of(&diags[0]), ((0, 13), (0, 14)));
    assert_eq!(range_of(&diags[1]), ((1, 3), (1, 4)));
    assert!(
        diags[1]["message"]
            .as_str()
            .unwrap()
            .contains("U+202E RIGHT-TO-LEFT OVERRIDE")
    );
    let u011 = diags[0].clone();
    let actions = c.code_actions(&uri, &u011).await;
    // The fix is an edit of the editor's text (the client applies it to
    // the buffer), never a rewrite of the file behind it.
    let list = actions["result"].as_array().unwrap();
    assert!(
        list.iter()
            .all(|a| a["command"]["command"] != "utf8lint.applyFix"),
        "{actions}"
    );
    let fix = list
        .iter()
        .find(|a| a["title"] == "write it as the escape `\\u{200B}`")
        .unwrap_or_else(|| panic!("{actions}"));
    let edits = &fix["edit"]["documentChanges"][0];
    assert_eq!(edits["textDocument"]["version"], 1);
    assert_eq!(
        edits["edits"],
        json!([{"range": {"start": {"line": 0, "character": 13}, "end": {"line": 0, "character": 14}}, "newText": "\\u{200B}"}])
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_suppressions_are_honoured_and_unused_ones_reported() {
    let dir = tempfile::tempdir().unwrap();
    let text = "a = 'x\u{FEFF}'  # utf8lint: allow(stray_feff)\n# utf8lint: allow(U002)\nb = 'y\u{FEFF}'\n# utf8lint: allow(invalid_utf8)\nc = 'z\u{FEFF}'\n";
    let (_, uri) = write(dir.path(), "s.py", text.as_bytes());
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    // Lines 0 and 2 are suppressed; line 3's suppression has nothing to
    // suppress; line 4's U+FEFF is reported.
    let found: Vec<(String, Span)> = diags
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_owned(), range_of(d)))
        .collect();
    assert_eq!(
        found,
        [
            ("U015".to_owned(), ((3, 2), (3, 31))),
            ("U002".to_owned(), ((4, 6), (4, 9))),
        ],
        "{diags:?}"
    );
    // Unsaved text: a U+FEFF typed on a line with a suppression is not
    // reported; one typed two lines below it is.
    c.notify("textDocument/didChange", json!({
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "n = '\u{FEFF}'  # utf8lint: allow(U002)\nok\nm = '\u{FEFF}'\n"}]
    }))
    .await;
    let diags = c.diagnostics_for(&uri, 2).await;
    let feff: Vec<(String, Span)> = diags
        .iter()
        .filter(|d| d["code"] == "U002")
        .map(|d| {
            (
                d["data"]["origin"].as_str().unwrap().to_owned(),
                range_of(d),
            )
        })
        .collect();
    assert_eq!(
        feff,
        [
            // Both from the text: U002 reads characters, and the text
            // has edits of its own.
            ("text".to_owned(), ((2, 5), (2, 8))),
            ("text".to_owned(), ((7, 6), (7, 9))),
        ],
        "{diags:?}"
    );
}

/// Suppressions typed, moved, split, mended and removed in unsaved text:
/// after every edit the published diagnostics are those of a document
/// opened afresh with the same text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suppressions_in_edited_text_publish_what_a_fresh_check_does() {
    fn seen(diags: &[Value]) -> Vec<(Value, Span, Value)> {
        diags
            .iter()
            .map(|d| (d["code"].clone(), range_of(d), d["message"].clone()))
            .collect()
    }
    /// The character offset of a position (the text is in the BMP: a
    /// UTF-16 unit is a character).
    fn offset(text: &str, line: usize, character: usize) -> usize {
        let start: usize = text
            .split_inclusive('\n')
            .take(line)
            .map(|l| l.chars().count())
            .sum();
        start + character
    }
    let mut text: String = "a\u{FEFF}\n# utf8lint: allow(U002)\nb\u{FEFF}\nc\u{FEFF}\n".into();
    let uri = "untitled:edited";
    let mut c = Client::start(None, None, no_scan()).await;
    c.open(uri, &text).await;
    c.diagnostics_for(uri, 1).await;
    // Each U+FEFF ends a word: U002 unless suppressed.
    type Edit = ((usize, usize), (usize, usize), &'static str);
    let edits: [Edit; 6] = [
        ((0, 0), (0, 0), "x\n"),                             // moved down
        ((2, 5), (2, 6), ""),                                // split: `utflint:`
        ((2, 5), (2, 5), "8"),                               // mended
        ((4, 2), (4, 2), "  # utf8lint: allow(stray_feff)"), // added, trailing
        ((2, 0), (3, 0), ""),                                // removed
        ((0, 0), (0, 0), "# utf8lint: file-allow(U002)\n"),  // for the whole file
    ];
    for (step, (start, end, new)) in edits.into_iter().enumerate() {
        let version = step as i64 + 2;
        let (from, to) = (offset(&text, start.0, start.1), offset(&text, end.0, end.1));
        let chars: Vec<char> = text.chars().collect();
        text = chars[..from]
            .iter()
            .chain(new.chars().collect::<Vec<_>>().iter())
            .chain(&chars[to..])
            .collect();
        c.notify("textDocument/didChange", json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}}, "text": new}]
        }))
        .await;
        let edited = c.diagnostics_for(uri, version).await;
        let fresh_uri = format!("untitled:fresh{step}");
        c.open(&fresh_uri, &text).await;
        let fresh = c.diagnostics_for(&fresh_uri, 1).await;
        assert_eq!(seen(&edited), seen(&fresh), "step {step}: {text:?}");
        let shown = edited.iter().filter(|d| d["code"] == "U002").count();
        assert_eq!(shown, [2, 3, 2, 1, 2, 0][step], "step {step}: {text:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_on_a_document_of_many_fixable_findings_holds_only_the_shown_ones() {
    // 200,000 stray U+FEFF, each safely fixable: the fix-all action fixes
    // them all (through the gate), as at most 100 edits (more become one
    // edit over their stretch), never an edit or a diagnostic for each
    // finding in the document.
    let text = format!("a\n{}", "\u{FEFF}b\n".repeat(200_000));
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "many.txt", text.as_bytes());
    let mut c = Client::start(Some(&["utf-8"]), None, no_scan()).await;
    c.open(&uri, &text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert!(diags.len() <= 101, "{} diagnostics", diags.len());
    let actions = c.fix_all_actions(&uri).await;
    let answer = actions.to_string();
    let edits = actions["result"][0]["edit"]["documentChanges"][0]["edits"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", &answer[..answer.len().min(2000)]));
    assert!(
        !edits.is_empty() && edits.len() <= 100,
        "{} edits",
        edits.len()
    );
}
