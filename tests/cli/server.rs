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
        let body = read_message(output);
        // A response: an id and no method (the server's own requests, such
        // as `client/registerCapability`, have both).
        if body.contains(r#""id""#) && !body.contains(r#""method""#) {
            return body;
        }
    }
}

/// A running `utf8lint lsp`, its input and output.
struct Lsp {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Lsp {
    fn start(dir: &std::path::Path) -> Lsp {
        let mut child = cmd(dir)
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        Lsp {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, body: &str) {
        let input = self.input.as_mut().unwrap();
        input.write_all(frame(body).as_bytes()).unwrap();
        input.flush().unwrap();
    }

    /// `initialize` from a client that answers `workspace/configuration`.
    fn initialize(&mut self) {
        self.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"workspace":{"configuration":true}}}}"#);
        let answer = read_frame(&mut self.output);
        assert!(answer.contains(r#""capabilities""#), "{answer}");
    }

    /// The exit code, once the server ended (at most 10 s from now).
    fn code(mut self) -> Option<i32> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("utf8lint lsp still running 10 s later");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

#[test]
fn lsp_exit_without_shutdown_exits_with_1_even_with_the_input_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut lsp = Lsp::start(dir.path());
    lsp.initialize();
    lsp.send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    // The input stays open: `exit` alone ends the server.
    assert_eq!(lsp.code(), Some(1));
    let mut lsp = Lsp::start(dir.path());
    lsp.initialize();
    lsp.send(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#);
    let shut = read_frame(&mut lsp.output);
    assert!(shut.contains(r#""result":null"#), "{shut}");
    lsp.send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    assert_eq!(lsp.code(), Some(0));
}

#[test]
fn lsp_ends_at_end_of_input_while_its_configuration_request_is_pending() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..10 {
        let mut lsp = Lsp::start(dir.path());
        lsp.initialize();
        lsp.send(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        // Wait for the server's request for the settings; never answer it.
        let mut asked = String::new();
        while !asked.contains("workspace/configuration") {
            asked = read_message(&mut lsp.output);
        }
        drop(lsp.input.take());
        assert_eq!(lsp.code(), Some(1), "round {round}");
    }
}

#[test]
fn lsp_refuses_exit_sent_as_a_request_and_still_ends_at_end_of_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut lsp = Lsp::start(dir.path());
    lsp.initialize();
    lsp.send(r#"{"jsonrpc":"2.0","id":77,"method":"exit"}"#);
    let refused = read_frame(&mut lsp.output);
    assert!(
        refused.contains(r#""id":77"#) && refused.contains("-32600"),
        "{refused}"
    );
    // Still reading: a request after it is answered.
    lsp.send(r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#);
    let shut = read_frame(&mut lsp.output);
    assert!(
        shut.contains(r#""id":3"#) && shut.contains(r#""result":null"#),
        "{shut}"
    );
    drop(lsp.input.take());
    assert_eq!(lsp.code(), Some(1));
}

/// The body of the next message the server writes, whatever it is.
fn read_message(output: &mut impl BufRead) -> String {
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
    String::from_utf8(body).unwrap()
}
