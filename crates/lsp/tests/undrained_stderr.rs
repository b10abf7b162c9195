//! A client that never reads the server's standard error still gets its
//! answers: the server's logging never waits on the pipe.
//!
//! The server runs as a child process (this program, started again with
//! [`SERVE`] set) whose stderr is a pipe nobody reads. Ten thousand
//! out-of-range edits each log a warning, far more than a pipe holds; then
//! a hover must still be answered.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// Set in the child: it serves stdin and stdout.
const SERVE: &str = "UTF8LINT_TEST_SERVE";

/// How long the test waits for an answer before it calls the server stuck
/// (only a bound on waiting: nothing is timed).
const WAIT: Duration = Duration::from_secs(120);

const EDITS: usize = 10_000;

fn main() {
    if std::env::var_os(SERVE).is_some() {
        let code = utf8lint_lsp::run().expect("the server runs");
        std::process::exit(code.into());
    }
    an_undrained_stderr_never_holds_up_an_answer();
    println!("undrained_stderr: ok");
}

fn an_undrained_stderr_never_holds_up_an_answer() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(SERVE, "1")
        .env("UTF8LINT_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // Kept open and never read.
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let answers = read_answers(&mut child);
    let _child = Killed(child);
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
    );
    wait_for(&answers, 1);
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let uri = "untitled:undrained.txt";
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "plaintext", "version": 1, "text": "a\u{FEFF}b\n"}}}),
    );
    // Each edit is a message of its own, so each logs its warning: about
    // 150 bytes each, a hundred times what a pipe holds.
    for i in 0..EDITS {
        let far = 1_000_000 + i;
        send(
            &mut input,
            &json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2 + i},
                "contentChanges": [{"range": {"start": {"line": far, "character": 0},
                    "end": {"line": far, "character": 0}}, "text": ""}]}}),
        );
    }
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}}),
    );
    let hover = wait_for(&answers, 2);
    assert!(hover.get("error").is_none(), "{hover}");
    send(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
    );
    wait_for(&answers, 3);
    send(&mut input, &json!({"jsonrpc": "2.0", "method": "exit"}));
}

/// The server, killed when the test ends however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn send(input: &mut ChildStdin, message: &Value) {
    let body = serde_json::to_vec(message).unwrap();
    input
        .write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes())
        .unwrap();
    input.write_all(&body).unwrap();
}

/// The responses (messages with an `id` and no `method`) the server
/// writes, read on a thread of their own so that its stdout never fills.
fn read_answers(child: &mut Child) -> mpsc::Receiver<Value> {
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("a Content-Length")];
            if out.read_exact(&mut body).is_err() {
                return;
            }
            let message: Value = serde_json::from_slice(&body).unwrap();
            if message.get("id").is_some()
                && message.get("method").is_none()
                && tx.send(message).is_err()
            {
                return;
            }
        }
    });
    rx
}

fn wait_for(answers: &mpsc::Receiver<Value>, id: i64) -> Value {
    loop {
        let answer = answers
            .recv_timeout(WAIT)
            .unwrap_or_else(|e| panic!("no answer to request {id}: {e}"));
        if answer["id"] == json!(id) {
            return answer;
        }
    }
}
