//! The editor's text, for what it knows: the character rules on unsaved
//! text, their fixes as edits of it (code actions with `edit`, fix-all
//! through `workspace/applyEdit`), the byte rules from disk "as saved",
//! and pull diagnostics.

mod common;

use common::{Client, codes, no_scan, range_of, write};
use serde_json::{Value, json};

/// `text` with LSP `edits` (UTF-16 positions, one line each here) applied.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let (line, ch) = (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        );
        let start: usize = text
            .split_inclusive('\n')
            .take(line as usize)
            .map(str::len)
            .sum();
        let mut units = 0;
        let rest = &text[start..];
        let mut at = rest.len();
        for (i, c) in rest.char_indices() {
            if units >= ch as usize {
                at = i;
                break;
            }
            units += c.len_utf16();
        }
        start + at
    };
    let mut sorted: Vec<&Value> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    let mut out = text.to_owned();
    for e in sorted {
        let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

fn change(uri: &str, version: i64, line: u64, ch: u64, text: &str) -> Value {
    json!({
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": {"line": line, "character": ch}, "end": {"line": line, "character": ch}}, "text": text}]
    })
}

/// A bidi control typed into a clean file is published for that version,
/// with no save; its fix is an edit of the buffer that removes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_bidi_control_is_published_without_a_save_and_fixed_by_an_edit() {
    let dir = tempfile::tempdir().unwrap();
    let text = "fn main() {\n    let ok = 1; // fine\n}\n";
    let (path, uri) = write(dir.path(), "main.rs", text.as_bytes());
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, text).await;
    assert!(c.diagnostics_for(&uri, 1).await.is_empty());
    c.notify("textDocument/didChange", change(&uri, 2, 1, 19, "\u{202E}"))
        .await;
    let typed = apply(
        text,
        &[
            json!({"range": {"start": {"line": 1, "character": 19}, "end": {"line": 1, "character": 19}}, "newText": "\u{202E}"}),
        ],
    );
    let diags = c.diagnostics_for(&uri, 2).await;
    assert_eq!(codes(&diags), ["U010"], "{diags:?}");
    assert_eq!(range_of(&diags[0]), ((1, 19), (1, 20)));
    assert_eq!(diags[0]["data"]["origin"], "text");
    // The file on disk never changed.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let actions = c.code_actions(&uri, &diags[0]).await;
    let list = actions["result"].as_array().unwrap();
    assert!(list.iter().all(|a| a.get("command").is_none()), "{actions}");
    let fix = list
        .iter()
        .find(|a| {
            let title = a["title"].as_str().unwrap();
            !title.starts_with("Allow") && !title.starts_with("Fix all")
        })
        .unwrap_or_else(|| panic!("{actions}"));
    let doc_edit = &fix["edit"]["documentChanges"][0];
    assert_eq!(doc_edit["textDocument"]["version"], 2);
    let fixed = apply(&typed, doc_edit["edits"].as_array().unwrap());
    assert_eq!(fixed, text);
}

/// While the buffer has unsaved edits, a byte rule's finding is the file's
/// and says so; a character rule's is the text's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_byte_rule_says_as_saved_while_the_buffer_is_dirty() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "notes.txt", b"caf\xFF au lait\nsecond line\n");
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let text = "caf\u{FFFD} au lait\nsecond line\n";
    c.open(&uri, text).await;
    let clean = c.diagnostics_for(&uri, 1).await;
    let u001 = clean.iter().find(|d| d["code"] == "U001").unwrap();
    assert!(
        !u001["message"].as_str().unwrap().contains("as saved"),
        "{u001}"
    );
    c.notify("textDocument/didChange", change(&uri, 2, 1, 0, "\u{200B}"))
        .await;
    let dirty = c.diagnostics_for(&uri, 2).await;
    let u001: Vec<&Value> = dirty
        .iter()
        .filter(|d| d["code"] == "U001" && d["data"]["origin"] == "disk")
        .collect();
    assert!(!u001.is_empty(), "{dirty:?}");
    for d in u001 {
        assert!(
            d["message"].as_str().unwrap().ends_with("(as saved)"),
            "{d}"
        );
        assert_eq!(d["data"]["origin"], "disk");
    }
    // The editor's own U+FFFD is never U007; the typed U+200B is the text's.
    assert!(dirty.iter().all(|d| d["code"] != "U007"), "{dirty:?}");
    let u011 = dirty.iter().find(|d| d["code"] == "U011").unwrap();
    assert_eq!(u011["data"]["origin"], "text");
    assert!(!u011["message"].as_str().unwrap().contains("as saved"));
}

/// `utf8lint.fixAll` on a file the editor holds exactly changes the buffer
/// through `workspace/applyEdit`, not the file on disk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_is_an_edit_the_client_applies() {
    let dir = tempfile::tempdir().unwrap();
    // A U+FEFF starting a line (safe to delete) and one inside a word
    // (unsafe: left).
    let text = "one\n\u{FEFF}two\na\u{FEFF}b\n";
    let (path, uri) = write(dir.path(), "t.txt", text.as_bytes());
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert!(codes(&diags).contains(&"U002".to_owned()), "{diags:?}");
    let done = c
        .request(
            "workspace/executeCommand",
            json!({"command": "utf8lint.fixAll", "arguments": [{"uri": uri}]}),
        )
        .await;
    assert!(done.get("error").is_none(), "{done}");
    let mut applied = None;
    for _ in 0..100 {
        let all = c
            .collect("workspace/applyEdit", std::time::Duration::from_millis(50))
            .await;
        if let Some(m) = all.first() {
            applied = Some(m.clone());
            break;
        }
    }
    let applied = applied.expect("the server sent workspace/applyEdit");
    let doc_edit = &applied["params"]["edit"]["documentChanges"][0];
    assert_eq!(doc_edit["textDocument"]["uri"], uri.as_str());
    let fixed = apply(text, doc_edit["edits"].as_array().unwrap());
    assert_eq!(fixed, "one\ntwo\na\u{FEFF}b\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let source_fix_all = c.fix_all_actions(&uri).await;
    let action = &source_fix_all["result"][0];
    assert!(action.get("command").is_none(), "{source_fix_all}");
    let edits = action["edit"]["documentChanges"][0]["edits"]
        .as_array()
        .unwrap();
    assert_eq!(apply(text, edits), fixed);
}

/// Pull diagnostics: advertised; a client that pulls gets each open
/// document's diagnostics by pull (not pushed too), `unchanged` when it
/// holds them, and the text's findings after an edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pull_diagnostics_for_documents_and_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let text = "x = 1  # \u{202E} reversed\n";
    let (_, uri) = write(dir.path(), "p.py", text.as_bytes());
    let mut c = Client::start_pulling(Some(dir.path()), no_scan()).await;
    let caps = c.initialize_result().await;
    assert_eq!(
        caps["capabilities"]["diagnosticProvider"],
        json!({"identifier": "utf8lint", "interFileDependencies": false, "workspaceDiagnostics": true})
    );
    c.open(&uri, text).await;
    let pulled = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let report = &pulled["result"];
    assert_eq!(report["kind"], "full", "{pulled}");
    let items = report["items"].as_array().unwrap();
    assert_eq!(codes(items), ["U010"], "{pulled}");
    let id = report["resultId"].as_str().unwrap().to_owned();
    let again = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}, "previousResultId": id}),
        )
        .await;
    assert_eq!(
        again["result"],
        json!({"kind": "unchanged", "resultId": id})
    );
    // An edit: the next pull has the typed character's finding.
    c.notify("textDocument/didChange", change(&uri, 2, 0, 0, "\u{200B}"))
        .await;
    let edited = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}, "previousResultId": id}),
        )
        .await;
    assert_eq!(edited["result"]["kind"], "full", "{edited}");
    let mut found = codes(edited["result"]["items"].as_array().unwrap());
    found.sort();
    assert_eq!(found, ["U010", "U011"], "{edited}");
    let new_id = edited["result"]["resultId"].as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    let workspace = c
        .request(
            "workspace/diagnostic",
            json!({"previousResultIds": [{"uri": uri, "value": new_id}]}),
        )
        .await;
    assert_eq!(
        workspace["result"]["items"],
        json!([{"kind": "unchanged", "uri": uri, "version": 2, "resultId": new_id}]),
        "{workspace}"
    );
    let workspace = c
        .request("workspace/diagnostic", json!({"previousResultIds": []}))
        .await;
    assert_eq!(
        workspace["result"]["items"][0]["kind"], "full",
        "{workspace}"
    );
    // Nothing for this document was pushed as well.
    let pushed = c
        .collect("textDocument/publishDiagnostics", std::time::Duration::ZERO)
        .await;
    assert!(
        pushed.iter().all(|m| m["params"]["uri"] != uri.as_str()),
        "{pushed:?}"
    );
}

/// A report that changes under the version the client pulled (the file
/// changed on disk) is announced with `workspace/diagnostic/refresh`; the
/// next pull has it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_on_disk_asks_a_pulling_client_to_pull_again() {
    let dir = tempfile::tempdir().unwrap();
    let (path, uri) = write(dir.path(), "data.json", b"\xEF\xBB\xBF{\"a\": 1}\n");
    let mut c = Client::start_pulling(Some(dir.path()), no_scan()).await;
    c.open(&uri, "{\"a\": 1}\n").await;
    let pulled = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(
        codes(pulled["result"]["items"].as_array().unwrap()),
        ["U003"],
        "{pulled}"
    );
    std::fs::write(&path, b"{\"a\": 1}\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    )
    .await;
    let mut refreshed = false;
    for _ in 0..100 {
        let asked = c
            .collect(
                "workspace/diagnostic/refresh",
                std::time::Duration::from_millis(50),
            )
            .await;
        if !asked.is_empty() {
            refreshed = true;
            break;
        }
    }
    assert!(refreshed, "no workspace/diagnostic/refresh");
    let again = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(again["result"]["kind"], "full", "{again}");
    assert!(
        again["result"]["items"].as_array().unwrap().is_empty(),
        "{again}"
    );
}

/// A file the workspace scan pushed findings for, then opened by a client
/// that pulls: the push is cleared, so the client does not show both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_scanned_file_clears_its_push_for_a_pulling_client() {
    let dir = tempfile::tempdir().unwrap();
    let (_, uri) = write(dir.path(), "seen.txt", "a \u{202E}b\n".as_bytes());
    let mut c = Client::start_pulling(Some(dir.path()), json!({"workspace-scan": true})).await;
    let scanned = c
        .diagnostics_where(&uri, |p| !p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(codes(scanned["diagnostics"].as_array().unwrap()), ["U010"]);
    c.open(&uri, "a \u{202E}b\n").await;
    let cleared = c
        .diagnostics_where(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty())
        .await;
    assert!(cleared["version"].is_null(), "{cleared}");
    let pulled = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(
        codes(pulled["result"]["items"].as_array().unwrap()),
        ["U010"],
        "{pulled}"
    );
}

/// A byte rule's fix that the text can hold (a declaration that the bytes
/// contradict, rewritten) is an edit of the buffer too, where the buffer is
/// the file's bytes; removing a byte-order mark stays on disk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declaration_fix_is_an_edit_and_a_bom_fix_stays_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf\u{e9}</a>\n";
    let (path, uri) = write(dir.path(), "d.xml", text.as_bytes());
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let u009 = diags
        .iter()
        .find(|d| d["code"] == "U009")
        .unwrap_or_else(|| panic!("{diags:?}"))
        .clone();
    let actions = c.code_actions(&uri, &u009).await;
    let list = actions["result"].as_array().unwrap();
    let fix = list
        .iter()
        .find(|a| {
            a.get("edit").is_some()
                && a["diagnostics"][0]["code"] == "U009"
                && !a["title"].as_str().unwrap().starts_with("Allow")
                && !a["title"].as_str().unwrap().starts_with("Fix all")
        })
        .unwrap_or_else(|| panic!("{actions}"));
    let fixed = apply(
        text,
        fix["edit"]["documentChanges"][0]["edits"]
            .as_array()
            .unwrap(),
    );
    assert!(
        fixed.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
        "{fixed}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    let (_, json_uri) = write(dir.path(), "b.json", b"\xEF\xBB\xBF{}\n");
    c.open(&json_uri, "{}\n").await;
    let diags = c.diagnostics_for(&json_uri, 1).await;
    let u003 = diags.iter().find(|d| d["code"] == "U003").unwrap().clone();
    let actions = c.code_actions(&json_uri, &u003).await;
    let list = actions["result"].as_array().unwrap();
    assert!(
        list.iter()
            .any(|a| a["command"]["command"] == "utf8lint.applyFix"),
        "{actions}"
    );
    assert!(
        list.iter()
            .filter(|a| a["title"].as_str().unwrap().contains("byte-order mark"))
            .all(|a| a.get("edit").is_none()),
        "{actions}"
    );
}

/// A client that pulls on open and on refresh only (VS Code's, by default):
/// an edit that changes the findings is announced with a refresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_asks_a_client_that_pulls_only_on_open_to_pull_again() {
    let dir = tempfile::tempdir().unwrap();
    let text = "plain text\n";
    let (_, uri) = write(dir.path(), "t.md", text.as_bytes());
    let mut c = Client::start_pulling(Some(dir.path()), no_scan()).await;
    c.open(&uri, text).await;
    let pulled = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert!(
        pulled["result"]["items"].as_array().unwrap().is_empty(),
        "{pulled}"
    );
    c.notify("textDocument/didChange", change(&uri, 2, 0, 5, "\u{202E}"))
        .await;
    let mut refreshed = false;
    for _ in 0..100 {
        let asked = c
            .collect(
                "workspace/diagnostic/refresh",
                std::time::Duration::from_millis(50),
            )
            .await;
        if !asked.is_empty() {
            refreshed = true;
            break;
        }
    }
    assert!(refreshed, "no workspace/diagnostic/refresh after the edit");
    let again = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(
        codes(again["result"]["items"].as_array().unwrap()),
        ["U010"],
        "{again}"
    );
}
