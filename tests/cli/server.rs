//! `utf8lint lsp` as editors start it.

use std::io::{BufRead, Read, Write};
use std::process::Stdio;

use crate::common::*;

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn lsp_accepts_the_flags_clients_pass_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = cmd(dir.path())
        .args(["lsp", "--stdio", "--clientProcessId=4242"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    input
        .write_all(
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
                .as_bytes(),
        )
        .unwrap();
    let initialized = read_frame(&mut output);
    assert!(initialized.contains(r#""capabilities""#), "{initialized}");
    for message in [
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
    ] {
        input.write_all(frame(message).as_bytes()).unwrap();
    }
    let shut = read_frame(&mut output);
    assert!(
        shut.contains(r#""id":2"#) && shut.contains(r#""result":null"#),
        "{shut}"
    );
    input
        .write_all(frame(r#"{"jsonrpc":"2.0","method":"exit"}"#).as_bytes())
        .unwrap();
    drop(input);
    let mut rest = String::new();
    output.read_to_string(&mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
    // A transport the server does not speak is a clear error, not a hang.
    let o = run(dir.path(), ["lsp", "--socket=9000"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--socket"), "{}", stderr(&o));
}

/// The body of the next response the server writes.
fn read_frame(output: &mut impl BufRead) -> String {
    loop {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(output.read_line(&mut line).unwrap() > 0, "the server ended");
            if line == "\r\n" {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        output.read_exact(&mut body).unwrap();
        let body = String::from_utf8(body).unwrap();
        // A response: an id and no method (the server's own requests, such
        // as `client/registerCapability`, have both).
        if body.contains(r#""id""#) && !body.contains(r#""method""#) {
            return body;
        }
    }
}
