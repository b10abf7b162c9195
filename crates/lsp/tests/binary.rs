//! An open document whose file on disk is binary gets no findings (and so
//! no quick fixes), whatever the editor's decoding of it holds; the same
//! decoding of a text file does.

mod common;

use common::{Client, codes, file_uri};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_binary_document_gets_no_findings() {
    let dir = tempfile::tempdir().unwrap();
    // A raw bitmap's header, then pixel bytes (no NUL) and a U+FEFF's
    // bytes among them; and text with the same invalid byte and U+FEFF.
    let mut image = b"P4\n16 4\n".to_vec();
    image.extend_from_slice(b"\xC1\x80\xEF\xBB\xBF\x81\x99\xFF");
    let text_file = b"caf\xC1 ok \xEF\xBB\xBF here\n".to_vec();
    let mut c = Client::start(
        Some(&["utf-16"]),
        Some(dir.path()),
        json!({"workspace-scan": false}),
    )
    .await;
    for (name, bytes, binary) in [("icon.pbm", &image, true), ("notes.txt", &text_file, false)] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let uri = file_uri(&path);
        c.open(&uri, &utf8lint_codec::decode_lossy(bytes)).await;
        let diags = c.diagnostics_for(&uri, 1).await;
        if binary {
            assert!(diags.is_empty(), "{name}: {diags:?}");
        } else {
            assert!(!codes(&diags).is_empty(), "{name}: {diags:?}");
        }
    }
}
