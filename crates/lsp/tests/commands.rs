//! `utf8lint.fixAll` refuses what it must not rewrite or read, and what
//! changed after it was read.

mod common;

use std::path::Path;

use common::{Client, file_uri};
use serde_json::{Value, json};

async fn fix_all(c: &mut Client, uri: &str) -> Value {
    c.request(
        "workspace/executeCommand",
        json!({"command": "utf8lint.fixAll", "arguments": [{"uri": uri}]}),
    )
    .await
}

fn error_of(answer: &Value) -> String {
    answer["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn client(root: &Path) -> Client {
    Client::start(
        Some(&["utf-8"]),
        Some(root),
        json!({"workspace-scan": false}),
    )
    .await
}

/// A JSON file with a byte-order mark on disk, and the text an editor
/// shows of it (VS Code drops the mark): its one fix (U003) is of the
/// bytes, never an edit of the text, so each case below takes the path
/// that rewrites the file, however soon the server has checked the text.
const BOM_JSON: &str = "\u{FEFF}{}\n";
const EDITOR_JSON: &str = "{}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fix_all_refuses_links_outside_files_specials_and_unopened_files() {
    // The writer's debug-only hook (it appends to the file as a concurrent
    // editor would) is read from the environment, which a running test may
    // not change safely: the test runs again in a process started with it.
    if std::env::var_os(utf8lint_workspace::MUTATE_HOOK).is_none() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "fix_all_refuses_links_outside_files_specials_and_unopened_files",
            ])
            .env(utf8lint_workspace::MUTATE_HOOK, "changed-after-read.json")
            .status()
            .unwrap();
        assert!(status.success(), "the test with the hook set: {status}");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let outside_file = outside.path().join("victim.json");
    std::fs::write(&outside_file, BOM_JSON).unwrap();
    let link = root.path().join("link.json");
    std::os::unix::fs::symlink(&outside_file, &link).unwrap();
    let zero = root.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let fifo = root.path().join("fifo.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let unopened = root.path().join("unopened.json");
    std::fs::write(&unopened, BOM_JSON).unwrap();
    let inside = root.path().join("inside.json");
    std::fs::write(&inside, BOM_JSON).unwrap();
    let changed = root.path().join("changed-after-read.json");
    std::fs::write(&changed, BOM_JSON).unwrap();
    let large = root.path().join("large.json");
    std::fs::File::create(&large)
        .unwrap()
        .set_len(100 << 30)
        .unwrap();

    let mut c = client(root.path()).await;
    // Symbolic link to a file outside: never followed for writing.
    c.open(&file_uri(&link), EDITOR_JSON).await;
    let answer = fix_all(&mut c, &file_uri(&link)).await;
    assert!(error_of(&answer).contains("symbolic link"), "{answer}");
    assert_eq!(std::fs::read_to_string(&outside_file).unwrap(), BOM_JSON);
    // A file outside the workspace folders, opened by the client.
    c.open(&file_uri(&outside_file), EDITOR_JSON).await;
    let answer = fix_all(&mut c, &file_uri(&outside_file)).await;
    assert!(error_of(&answer).contains("workspace"), "{answer}");
    assert_eq!(std::fs::read_to_string(&outside_file).unwrap(), BOM_JSON);
    // /dev/zero behind a link and a FIFO: refused by type, not read (a
    // FIFO would block, /dev/zero would never end).
    for special in [&zero, &fifo] {
        c.open(&file_uri(special), EDITOR_JSON).await;
        let answer = fix_all(&mut c, &file_uri(special)).await;
        assert!(error_of(&answer).contains("not a regular file"), "{answer}");
    }
    // A sparse 100 GiB file: refused by size, not read into memory.
    c.open(&file_uri(&large), "").await;
    let answer = fix_all(&mut c, &file_uri(&large)).await;
    assert!(error_of(&answer).contains("too large to check"), "{answer}");
    // A file another writer appends to after the server read it (the hook
    // set above): the last check before the rename sees it and refuses;
    // the writer's byte stays.
    c.open(&file_uri(&changed), EDITOR_JSON).await;
    let answer = fix_all(&mut c, &file_uri(&changed)).await;
    assert!(
        error_of(&answer).contains("changed while it was being fixed"),
        "{answer}"
    );
    assert_eq!(
        std::fs::read_to_string(&changed).unwrap(),
        format!("{BOM_JSON}!")
    );
    // Not opened by the client.
    let answer = fix_all(&mut c, &file_uri(&unopened)).await;
    assert!(error_of(&answer).contains("not open"), "{answer}");
    assert_eq!(std::fs::read_to_string(&unopened).unwrap(), BOM_JSON);
    // And the server still fixes a plain opened file inside the workspace.
    c.open(&file_uri(&inside), EDITOR_JSON).await;
    let answer = fix_all(&mut c, &file_uri(&inside)).await;
    assert_eq!(answer["result"]["applied"], 1, "{answer}");
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), "{}\n");
}

/// The server's fixes pass the same gate as `--fix`: fixing only U011 in
/// `cafÃ`U+200B`©` would make mojibake that was not there, so the command
/// fails with the reason and the file stays as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fix_the_gate_refuses_is_the_commands_error() {
    let root = tempfile::tempdir().unwrap();
    let joined = root.path().join("joined.txt");
    let text = "caf\u{C3}\u{200B}\u{A9}\n";
    std::fs::write(&joined, text).unwrap();
    let mut c = client(root.path()).await;
    let uri = file_uri(&joined);
    c.open(&uri, text).await;
    let answer = c
        .request(
            "workspace/executeCommand",
            json!({"command": "utf8lint.fixAll", "arguments": [{"uri": uri, "rule": "U011"}]}),
        )
        .await;
    let error = error_of(&answer);
    assert!(error.starts_with("not fixing "), "{answer}");
    assert!(error.contains("`mojibake`"), "{answer}");
    assert_eq!(std::fs::read_to_string(&joined).unwrap(), text);
}
