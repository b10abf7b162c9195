//! Configuration a repository hands the language server to stop or crash
//! it: a FIFO or a device by a configuration file's name, globs that do not
//! compile, a document path thousands of directories deep. Each time the
//! open document is still published, a hover is answered, and `shutdown`
//! is answered.

mod common;

use std::path::Path;

use common::{Client, codes, file_uri};
use serde_json::json;

/// Text with a U+FEFF inside a line: one U002 under the defaults.
const FEFF_TEXT: &str = "a\u{FEFF}b\n";

/// Opens `uri` with [`FEFF_TEXT`], waits for its findings, asks a hover,
/// then shuts the server down: every answer must come. The codes of the
/// findings, without the server's note that the file is not on disk.
async fn open_hover_shutdown(c: &mut Client, uri: &str) -> Vec<String> {
    c.open(uri, FEFF_TEXT).await;
    let mut found = codes(&c.diagnostics_for(uri, 1).await);
    found.retain(|code| code != "-");
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}),
        )
        .await;
    assert!(hover.get("error").is_none(), "{hover}");
    c.send(json!({"jsonrpc": "2.0", "id": 9_999, "method": "shutdown"}))
        .await;
    let shutdown = c.wait_response(json!(9_999)).await;
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    found
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap()
            .success()
    );
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_named_like_a_configuration_file_does_not_stall_the_server() {
    for name in ["utf8lint.toml", ".editorconfig"] {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join(name));
        std::fs::write(dir.path().join("other.txt"), "fine\n").unwrap();
        let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
        let uri = file_uri(&dir.path().join("a.txt"));
        // The configuration error is logged; the defaults apply.
        let found = open_hover_shutdown(&mut c, &uri).await;
        assert_eq!(found, ["U002"], "{name}");
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configuration_file_linked_to_a_device_is_not_read() {
    for (name, device) in [
        ("utf8lint.toml", "/dev/zero"),
        (".editorconfig", "/dev/urandom"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(device, dir.path().join(name)).unwrap();
        let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
        let uri = file_uri(&dir.path().join("a.txt"));
        let found = open_hover_shutdown(&mut c, &uri).await;
        assert_eq!(found, ["U002"], "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_braces_in_a_glob_do_not_panic_the_workspace_scan() {
    let glob = format!("{}a{}", "{".repeat(400), "}".repeat(400));
    for config in [
        format!("[per-file-lints]\n\"{glob}\" = [\"U001\"]\n"),
        format!("[bom]\n\"{glob}\" = \"forbid\"\n"),
        format!("exclude = [\"{glob}\"]\n"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("utf8lint.toml"), &config).unwrap();
        // A file nobody opens: the scan publishes it.
        std::fs::write(dir.path().join("scanned.txt"), FEFF_TEXT).unwrap();
        let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), json!({})).await;
        let scanned = file_uri(&dir.path().join("scanned.txt"));
        let published = c
            .diagnostics_where(&scanned, |p| {
                !p["diagnostics"].as_array().unwrap().is_empty()
            })
            .await;
        assert_eq!(
            codes(published["diagnostics"].as_array().unwrap()),
            ["U002"]
        );
        let uri = file_uri(&dir.path().join("a.txt"));
        let found = open_hover_shutdown(&mut c, &uri).await;
        assert_eq!(found, ["U002"]);
    }
    // The same glob in the editor's settings: dropped with a message.
    let dir = tempfile::tempdir().unwrap();
    let settings = json!({"workspace-scan": false, "per-file-lints": {glob: ["U002"]}});
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), settings).await;
    let uri = file_uri(&dir.path().join("a.txt"));
    let found = open_hover_shutdown(&mut c, &uri).await;
    assert_eq!(found, ["U002"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_path_thousands_of_directories_deep_does_not_overflow_a_stack() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("utf8lint.toml"),
        "[lints]\nU007 = \"deny\"\n",
    )
    .unwrap();
    let mut deep = dir.path().to_path_buf();
    for _ in 0..3_000 {
        deep.push("d");
    }
    let mut c = Client::start(
        Some(&["utf-8"]),
        Some(dir.path()),
        json!({"workspace-scan": false}),
    )
    .await;
    let uri = file_uri(&deep.join("f.txt"));
    let found = open_hover_shutdown(&mut c, &uri).await;
    assert_eq!(found, ["U002"]);
}

/// A `utf8lint.toml` that does not parse: the document is still checked,
/// under the fallback settings (built-in rules and the editor's settings,
/// here `stray_feff = "deny"`), whether its findings come from the file on
/// disk or from the editor's text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_broken_configuration_the_editor_settings_still_apply() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join("utf8lint.toml"), "[lints\n").unwrap();
    let path = dir.path().join("a.txt");
    std::fs::write(&path, FEFF_TEXT).unwrap();
    let settings = json!({"workspace-scan": false, "lints": {"stray_feff": "deny"}});
    let mut c = Client::start(Some(&["utf-8"]), Some(dir.path()), settings).await;
    let uri = file_uri(&path);
    c.open(&uri, FEFF_TEXT).await;
    let found = c.diagnostics_for(&uri, 1).await;
    let feff: Vec<&serde_json::Value> = found.iter().filter(|d| d["code"] == "U002").collect();
    assert!(!feff.is_empty(), "{found:?}");
    for d in feff {
        assert_eq!(d["severity"], 1, "denied by the editor's settings: {d}");
    }
}
