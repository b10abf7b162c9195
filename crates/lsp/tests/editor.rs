//! What a user sees in the editor: only findings the disk supports,
//! headlines that fit a Problems row, and the allow / fix-all actions.

mod common;

use common::{Client, codes, file_uri, no_scan, titled, write};
use serde_json::{Value, json};

/// A Latin-1 file as VS Code shows it (one U+FFFD per invalid byte): the
/// U+FFFD are the editor's decoding, not lost bytes, so no U007; a U+FFFD
/// stored on disk (`EF BF BD`) still is one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editors_own_replacement_characters_are_not_lost_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let disk = b"msgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0 vu, na\xEFve, \xE9t\xE9\"\n";
    let (_, uri) = write(dir.path(), "fr.po", disk);
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
    let (_, uri) = write(dir.path(), "mixed.po", &disk);
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

    let (_, uri) = write(dir.path(), "data.json", b"\xEF\xBB\xBF{\"a\": 1}\n");
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
    let (_, uri) = write(dir.path(), "trojan.py", text.as_bytes());
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

/// "Allow on this line" inserts the comment that silences the finding (at
/// once, before saving), "Allow in this file" the `file-allow` after the
/// shebang, "Fix all" one edit per finding of the rule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_and_fix_all_actions() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let text = "#!/usr/bin/env python3\nx = 'a\u{FEFF}b'\ny = 'c\u{FEFF}d'\n";
    let (_, uri) = write(dir.path(), "join.py", text.as_bytes());
    c.open(&uri, text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U002", "U002"], "{diags:?}");
    let found = c.action_list(&uri, &diags[0]).await;
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
    let (_, uri) = write(dir.path(), "conf/data.json", b"\xEF\xBB\xBF{}\n");
    c.open(&uri, "{}\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let found = c.action_list(&uri, &diags[0]).await;
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
    let (_, uri) = write(dir.path(), "run.sh", b"\xEF\xBB\xBF#!/bin/sh\necho hi\n");
    c.open(&uri, "#!/bin/sh\necho hi\n").await;
    let diags = c.diagnostics_for(&uri, 1).await;
    assert_eq!(codes(&diags), ["U003"], "{diags:?}");
    let found = c.action_list(&uri, &diags[0]).await;
    let titles: Vec<&str> = found.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(
        !titles.iter().any(|t| t.ends_with("on this line")),
        "{titles:?}"
    );
    // The byte-order mark the editor hides: the comment is written on disk.
    let file = titled(
        &found,
        "Allow `forbidden_bom` in this file (rewrites the file on disk)",
    );
    assert_eq!(file["command"]["command"], "utf8lint.allow", "{file}");
    assert_eq!(file["command"]["arguments"][0]["scope"], "file", "{file}");
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

/// A file the editor cannot hold exactly, as VS Code shows it (lossy
/// UTF-8, the byte-order mark hidden), and the bytes each allow action
/// must leave on disk: the old bytes with the ASCII comment between them.
struct Legacy {
    name: &'static str,
    disk: &'static [u8],
    code: &'static str,
    on_line: &'static [u8],
    in_file: &'static [u8],
}

const LEGACY: &[Legacy] = &[
    // Latin-1: every accented letter is one byte VS Code shows as U+FFFD.
    Legacy {
        name: "fr.po",
        disk: b"msgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0 vu\"\n",
        code: "U005",
        // msgfmt takes a comment only between entries: above `msgid`.
        on_line: b"# utf8lint: allow(not_utf8)\nmsgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0 vu\"\n",
        in_file: b"# utf8lint: file-allow(not_utf8)\nmsgid \"caf\xE9\"\nmsgstr \"d\xE9j\xE0 vu\"\n",
    },
    // UTF-8 with one invalid byte.
    Legacy {
        name: "menu.py",
        disk: b"a = 'caf\xC3\xA9'\nb = 'x\xFFy'\n",
        code: "U001",
        on_line: b"a = 'caf\xC3\xA9'\nb = 'x\xFFy'  # utf8lint: allow(invalid_utf8)\n",
        in_file: b"# utf8lint: file-allow(invalid_utf8)\na = 'caf\xC3\xA9'\nb = 'x\xFFy'\n",
    },
    // UTF-8 with a byte-order mark the editor hides.
    Legacy {
        name: "run.sh",
        disk: b"\xEF\xBB\xBFecho caf\xC3\xA9\n",
        code: "U003",
        on_line: b"\xEF\xBB\xBFecho caf\xC3\xA9  # utf8lint: allow(forbidden_bom)\n",
        in_file: b"\xEF\xBB\xBF# utf8lint: file-allow(forbidden_bom)\necho caf\xC3\xA9\n",
    },
];

/// The text VS Code holds for `disk`.
fn as_vscode_shows(disk: &[u8]) -> String {
    let text = utf8lint_codec::decode_lossy(disk).into_owned();
    text.strip_prefix('\u{FEFF}')
        .map(str::to_owned)
        .unwrap_or(text)
}

/// On a file the editor cannot hold exactly, every allow action leaves the
/// buffer alone (no edit: a dirty buffer's save would write U+FFFD over the
/// bytes) and runs `utf8lint.allow`, which writes exactly the old bytes
/// plus the comment; the server says so and the finding is gone, with no
/// unused-suppression finding for the comment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_actions_on_a_legacy_file_write_the_disk_not_the_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    for case in LEGACY {
        for (title, want) in [
            ("on this line", case.on_line),
            ("in this file", case.in_file),
        ] {
            let name = format!("{}-{}", title.replace(' ', "-"), case.name);
            let path = dir.path().join(&name);
            let (_, uri) = write(dir.path(), &name, case.disk);
            c.open(&uri, &as_vscode_shows(case.disk)).await;
            let diags = c.diagnostics_for(&uri, 1).await;
            let d = diags
                .iter()
                .find(|d| d["code"] == case.code)
                .unwrap_or_else(|| panic!("{name}: no {} in {diags:?}", case.code));
            let found = c.action_list(&uri, d).await;
            let allows: Vec<&Value> = found
                .iter()
                .filter(|a| a["title"].as_str().unwrap().starts_with("Allow `"))
                .collect();
            assert!(
                allows.iter().all(|a| a.get("edit").is_none()),
                "{name}: an allow action edits the buffer: {allows:?}"
            );
            let rule = d["data"]["rule"].as_str().unwrap();
            let action = allows
                .iter()
                .find(|a| a["title"].as_str().unwrap().contains(title))
                .unwrap_or_else(|| panic!("{name} {rule}: no allow {title} in {found:?}"));
            let command = &action["command"];
            assert_eq!(command["command"], "utf8lint.allow", "{action}");
            c.clear();
            let done = c
                .request(
                    "workspace/executeCommand",
                    json!({"command": command["command"], "arguments": command["arguments"]}),
                )
                .await;
            assert!(done.get("error").is_none(), "{name}: {done}");
            assert_eq!(
                std::fs::read(&path).unwrap(),
                want,
                "{name}: {}",
                String::from_utf8_lossy(&std::fs::read(&path).unwrap())
            );
            let told = c
                .collect_at_least(
                    "utf8lint/didRewriteFile",
                    1,
                    std::time::Duration::from_secs(30),
                )
                .await;
            assert_eq!(told.len(), 1, "{told:?}");
            // The server re-reads the file and the buffer as VS Code
            // reloads it: the finding is suppressed, and the comment used.
            c.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": {"uri": uri, "version": 2},
                    "contentChanges": [{"text": as_vscode_shows(want)}]
                }),
            )
            .await;
            let after = c.diagnostics_for(&uri, 2).await;
            let left = codes(&after);
            assert!(
                !left.iter().any(|c| c == case.code || c == "U015"),
                "{name}: {after:?}"
            );
        }
    }
}

/// While the buffer of such a file has unsaved changes, no allow action is
/// offered (the save would write over the comment), and one asked for
/// anyway is refused with the file untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_on_disk_is_refused_while_the_buffer_differs() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(Some(&["utf-16"]), Some(dir.path()), no_scan()).await;
    let case = &LEGACY[0];
    let (_, uri) = write(dir.path(), case.name, case.disk);
    let text = as_vscode_shows(case.disk);
    c.open(&uri, &text).await;
    let diags = c.diagnostics_for(&uri, 1).await;
    let d = diags
        .iter()
        .find(|d| d["code"] == case.code)
        .unwrap()
        .clone();
    let found = c.action_list(&uri, &d).await;
    let command = titled(
        &found,
        "Allow `not_utf8` in this file (rewrites the file on disk)",
    )["command"]
        .clone();
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": format!("{text}x\n")}]
        }),
    )
    .await;
    // What the edited text shows now (its U+FFFD, the disk findings
    // withheld while the text is not the file's): no allow action.
    let dirty_diags = c.diagnostics_for(&uri, 2).await;
    assert!(!dirty_diags.is_empty());
    for d in &dirty_diags {
        let dirty = c.action_list(&uri, d).await;
        assert!(
            !dirty
                .iter()
                .any(|a| a["title"].as_str().unwrap().starts_with("Allow `")),
            "{dirty:?}"
        );
    }
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
    assert_eq!(
        std::fs::read(dir.path().join(case.name)).unwrap(),
        case.disk
    );
}
