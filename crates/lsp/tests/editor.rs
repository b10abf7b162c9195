//! What a user sees in the editor: only findings the disk supports,
//! headlines that fit a Problems row, and the allow / fix-all actions.

mod common;

use std::path::Path;

use common::{Client, codes, file_uri};
use serde_json::{Value, json};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    file_uri(&path)
}

fn no_scan() -> Value {
    json!({"workspace-scan": false})
}

/// A Latin-1 file as VS Code shows it (one U+FFFD per invalid byte): the
/// U+FFFD are the editor's decoding, not lost bytes, so no U007; a U+FFFD
/// stored on disk (`EF BF BD`) still is one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editors_own_replacement_characters_are_not_lost_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let disk = b"msgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0 vu, na\xEFve, \xE9t\xE9\"\n";
    let uri = write(dir.path(), "fr.po", disk);
    let text = utf8lint_codec::decode_lossy(disk).into_owned();
    let mut c = Client::start(Some(&["utf-16"]), None, no_scan()).await;
    c.open(&uri, &text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let codes = codes(&diags);
    assert!(codes.iter().any(|c| c == "U005"), "{diags:?}");
    assert!(!codes.iter().any(|c| c == "U007"), "{diags:?}");

    // The same bytes plus a real U+FFFD on disk: that one is U007.
    let mut disk = disk.to_vec();
    disk.extend_from_slice("lost: \u{FFFD}\n".as_bytes());
    let uri = write(dir.path(), "mixed.po", &disk);
    let text = utf8lint_codec::decode_lossy(&disk).into_owned();
    c.open(&uri, &text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let u007: Vec<&Value> = diags.iter().filter(|d| d["code"] == "U007").collect();
    assert_eq!(u007.len(), 1, "{diags:?}");
    assert_eq!(u007[0]["range"]["start"]["line"], 2);
}

/// Every row fits a Problems panel, with its key fact first; the whole
/// message goes to the related information and the hover, which does not
/// repeat the headline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headlines_put_the_key_fact_first_and_fit_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;

    let uri = write(dir.path(), "data.json", b"\xEF\xBB\xBF{\"a\": 1}\n");
    c.open(&uri, "{\"a\": 1}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"], "{diags:?}");
    assert_eq!(
        diags[0]["message"],
        "JSON must not start with a byte-order mark (U+FEFF, invisible in the editor)"
    );
    let related = &diags[0]["relatedInformation"][0];
    assert_eq!(
        related["message"], "JSON forbids a byte-order mark",
        "{related}"
    );
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        )
        .await;
    let hover = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!hover.contains("must not start with"), "{hover}");
    assert!(hover.contains("JSON forbids a byte-order mark"), "{hover}");

    // Three bidi controls on a line: the count and the first one.
    let text = "s = \"\u{202E}abc\u{2066}def\u{2069}\"\n";
    let uri = write(dir.path(), "trojan.py", text.as_bytes());
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let bidi: Vec<&Value> = diags.iter().filter(|d| d["code"] == "U010").collect();
    assert_eq!(bidi.len(), 1, "{diags:?}");
    assert_eq!(
        bidi[0]["message"],
        "3 bidirectional controls on this line, the first U+202E RIGHT-TO-LEFT OVERRIDE"
    );
    for d in diags {
        assert!(d["message"].as_str().unwrap().chars().count() <= 100, "{d}");
    }
}

async fn actions(c: &mut Client, uri: &str, d: &Value) -> Vec<Value> {
    let answer = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": d["range"],
                "context": {"diagnostics": [d]}
            }),
        )
        .await;
    answer["result"].as_array().unwrap().clone()
}

fn titled<'a>(actions: &'a [Value], title: &str) -> &'a Value {
    actions
        .iter()
        .find(|a| a["title"] == title)
        .unwrap_or_else(|| panic!("no `{title}` in {actions:?}"))
}

/// "Allow on this line" inserts the comment that silences the finding (at
/// once, before saving), "Allow in this file" the `file-allow` after the
/// shebang, "Fix all" one edit per finding of the rule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_and_fix_all_actions() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let text = "#!/usr/bin/env python3\nx = 'a\u{FEFF}b'\ny = 'c\u{FEFF}d'\n";
    let uri = write(dir.path(), "join.py", text.as_bytes());
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U002", "U002"], "{diags:?}");
    let found = actions(&mut c, &uri, &diags[0]).await;
    let allow = titled(&found, "Allow `stray_feff` on this line");
    let edit = &allow["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(edit["newText"], "  # utf8lint: allow(stray_feff)");
    assert_eq!(edit["range"]["start"], json!({"line": 1, "character": 9}));
    let file = titled(&found, "Allow `stray_feff` in this file");
    let edit = &file["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(edit["newText"], "# utf8lint: file-allow(stray_feff)\n");
    assert_eq!(edit["range"]["start"], json!({"line": 1, "character": 0}));
    let fix_all = titled(&found, "Fix all `stray_feff` findings in this file");
    assert_eq!(
        fix_all["edit"]["documentChanges"][0]["edits"]
            .as_array()
            .unwrap()
            .len(),
        2,
        "{fix_all}"
    );

    // The allow edit, as the editor applies it: line 2's finding is gone
    // at once, line 3's stays.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 9}, "end": {"line": 1, "character": 9}}, "text": "  # utf8lint: allow(stray_feff)"}]
        }),
    )
    .await;
    let diags = c.diagnostics_for(&uri, 2).await;
    assert_eq!(codes(&diags), ["U002"], "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 2);
}

/// JSON has no comments: the allow action sets the level for the file's
/// path in utf8lint.toml instead, and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_is_allowed_in_utf8lint_toml() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("conf")).unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let uri = write(dir.path(), "conf/data.json", b"\xEF\xBB\xBF{}\n");
    c.open(&uri, "{}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let found = actions(&mut c, &uri, &diags[0]).await;
    let titles: Vec<&str> = found.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(
        !titles
            .iter()
            .any(|t| t.ends_with("on this line") || t.ends_with("in this file")),
        "{titles:?}"
    );
    let toml = titled(
        &found,
        "Allow `forbidden_bom` for this file in utf8lint.toml (JSON has no comments)",
    );
    let changes = toml["edit"]["documentChanges"].as_array().unwrap();
    let config = file_uri(&dir.path().join("utf8lint.toml"));
    assert_eq!(changes[0]["kind"], "create");
    assert_eq!(changes[0]["uri"], config);
    assert_eq!(changes[1]["textDocument"]["uri"], config);
    let inserted = changes[1]["edits"][0]["newText"].as_str().unwrap();
    assert_eq!(
        inserted,
        "[per-file-lints]\n\"conf/data.json\" = { forbidden_bom = \"allow\" }\n"
    );
    // What it writes is a configuration utf8lint reads: the BOM is allowed.
    std::fs::write(dir.path().join("utf8lint.toml"), inserted).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&dir.path().join("utf8lint.toml")), "type": 1}]}),
    )
    .await;
    let after = c
        .diagnostics_where(&uri, |p| {
            p["diagnostics"].as_array().is_some_and(Vec::is_empty)
        })
        .await;
    assert_eq!(after["version"], 1);
}

/// A fix only a rewrite of the file can make: "Fix all" runs
/// `utf8lint.fixAll` with the rule. A `#!` line takes no trailing comment
/// and nothing above it: only the file-level allow is offered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_on_disk_and_no_comment_on_a_shebang_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let uri = write(dir.path(), "run.sh", b"\xEF\xBB\xBF#!/bin/sh\necho hi\n");
    c.open(&uri, "#!/bin/sh\necho hi\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"], "{diags:?}");
    let found = actions(&mut c, &uri, &diags[0]).await;
    let titles: Vec<&str> = found.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(
        !titles.iter().any(|t| t.ends_with("on this line")),
        "{titles:?}"
    );
    let file = titled(&found, "Allow `forbidden_bom` in this file");
    let edit = &file["edit"]["documentChanges"][0]["edits"][0];
    assert_eq!(edit["newText"], "# utf8lint: file-allow(forbidden_bom)\n");
    assert_eq!(edit["range"]["start"], json!({"line": 1, "character": 0}));
    let fix_all = titled(
        &found,
        "Fix all `forbidden_bom` findings in this file (rewrites the file on disk)",
    );
    let command = &fix_all["command"];
    assert_eq!(command["command"], "utf8lint.fixAll");
    let answer = c
        .request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert_eq!(answer["result"]["applied"], 1, "{answer}");
    assert_eq!(
        std::fs::read(dir.path().join("run.sh")).unwrap(),
        b"#!/bin/sh\necho hi\n"
    );
}
