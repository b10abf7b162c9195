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
        Lsp::spawn(cmd(dir).args(["lsp", "--stdio"]).stderr(Stdio::null()))
    }

    fn spawn(command: &mut std::process::Command) -> Lsp {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
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

/// What `utf8lint lsp` writes on stderr for a session that initializes
/// (with `trace`, from a client whose name holds an escape sequence and a
/// bidi override), sends `$/setTrace` with `then` if given, a frame that is
/// not JSON, then `exit`.
fn lsp_log(trace: &str, then: Option<&str>, env: Option<&str>) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut command = cmd(dir.path());
    command.env_remove("UTF8LINT_LOG");
    if let Some(level) = env {
        command.env("UTF8LINT_LOG", level);
    }
    let mut lsp = Lsp::spawn(command.arg("lsp").stderr(Stdio::piped()));
    lsp.send(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"capabilities":{{}},"trace":"{trace}","clientInfo":{{"name":"ed\u001b[2Jit\u202eor"}}}}}}"#
    ));
    let answer = read_frame(&mut lsp.output);
    assert!(answer.contains(r#""capabilities""#), "{answer}");
    if let Some(value) = then {
        lsp.send(&format!(
            r#"{{"jsonrpc":"2.0","method":"$/setTrace","params":{{"value":"{value}"}}}}"#
        ));
    }
    lsp.send("{not json");
    lsp.send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    drop(lsp.input.take());
    let mut log = String::new();
    let mut stderr = lsp.child.stderr.take().unwrap();
    stderr.read_to_string(&mut log).unwrap();
    assert_eq!(lsp.code(), Some(1));
    log
}

#[test]
fn lsp_logs_are_escaped_and_follow_the_trace_setting_or_utf8lint_log() {
    let quiet = lsp_log("off", None, None);
    assert!(
        quiet.contains("utf8lint lsp: warning: transport: message body is not a JSON object"),
        "{quiet}"
    );
    assert!(!quiet.contains("initialize from"), "{quiet}");
    assert!(!quiet.contains("stopping"), "{quiet}");
    let chatty = lsp_log("messages", None, None);
    assert!(
        chatty.contains("utf8lint lsp: info: initialize from ed"),
        "{chatty}"
    );
    assert!(chatty.contains("\\u{202E}"), "{chatty}");
    assert!(
        !chatty.contains('\u{1b}') && !chatty.contains('\u{202e}'),
        "{chatty:?}"
    );
    assert!(
        chatty.contains("utf8lint lsp: info: stopping: Exit"),
        "{chatty}"
    );
    // UTF8LINT_LOG wins over the client's setting, both ways.
    // `$/setTrace` changes the level at run time.
    let raised = lsp_log("off", Some("messages"), None);
    assert!(!raised.contains("initialize from"), "{raised}");
    assert!(
        raised.contains("utf8lint lsp: info: stopping: Exit"),
        "{raised}"
    );
    let forced = lsp_log("off", None, Some("debug"));
    assert!(
        forced.contains("utf8lint lsp: info: initialize from"),
        "{forced}"
    );
    assert!(
        forced.contains("utf8lint lsp: debug: the client's trace setting (Off) is ignored"),
        "{forced}"
    );
    let silenced = lsp_log("verbose", None, Some("off"));
    assert_eq!(silenced, "");
}

/// `initialize`, `shutdown` and `exit` written in one burst, as a
/// pipelining client does: both requests answered, in turn, and exit 0.
#[test]
fn lsp_serves_a_pipelined_lifecycle_in_order() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..10 {
        let mut lsp = Lsp::start(dir.path());
        let burst: String = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","method":"exit"}"#,
        ]
        .iter()
        .map(|body| frame(body))
        .collect();
        let input = lsp.input.as_mut().unwrap();
        input.write_all(burst.as_bytes()).unwrap();
        input.flush().unwrap();
        let initialized = read_frame(&mut lsp.output);
        assert!(
            initialized.contains(r#""id":1"#) && initialized.contains(r#""capabilities""#),
            "round {round}: {initialized}"
        );
        let shut = read_frame(&mut lsp.output);
        assert!(
            shut.contains(r#""id":2"#) && shut.contains(r#""result":null"#),
            "round {round}: {shut}"
        );
        assert_eq!(lsp.code(), Some(0), "round {round}");
    }
}

/// A client that writes requests, never reads the answers and closes its
/// input: the server stops reading once its queue is full, yet sees the
/// end of the input and ends (with 1: no `exit`).
#[test]
fn lsp_ends_at_end_of_input_from_a_client_that_never_reads() {
    let dir = tempfile::tempdir().unwrap();
    let mut lsp = Lsp::start(dir.path());
    let mut burst =
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
    burst.push_str(&frame(r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a","languageId":"text","version":1,"text":"a\ufeffb"}}}"#));
    // Each answer is a hover of some 500 bytes: far more than the pipe
    // and the server's queue hold, while the requests fit in the pipe.
    for id in 2..400 {
        burst.push_str(&frame(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{"textDocument":{{"uri":"untitled:a"}},"position":{{"line":0,"character":1}}}}}}"#
        )));
    }
    let input = lsp.input.as_mut().unwrap();
    input.write_all(burst.as_bytes()).unwrap();
    drop(lsp.input.take());
    assert_eq!(lsp.code(), Some(1));
}

/// On glibc, `utf8lint lsp` runs with its allocator's mmap threshold fixed
/// (it starts itself again with the tunable), keeping the tunables its
/// caller set, and a threshold the caller chose.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn lsp_runs_with_the_allocator_tuned_and_keeps_the_callers_tunables() {
    let dir = tempfile::tempdir().unwrap();
    for (given, want) in [
        (None, "glibc.malloc.mmap_threshold=131072"),
        (
            Some("glibc.malloc.arena_max=2"),
            "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072",
        ),
        (
            Some("glibc.malloc.mmap_threshold=65536"),
            "glibc.malloc.mmap_threshold=65536",
        ),
    ] {
        let mut command = cmd(dir.path());
        command
            .args(["lsp", "--stdio"])
            .stderr(Stdio::null())
            .env_remove("GLIBC_TUNABLES")
            .env_remove("MALLOC_MMAP_THRESHOLD_")
            .env_remove("UTF8LINT_ALLOCATOR_TUNED");
        if let Some(given) = given {
            command.env("GLIBC_TUNABLES", given);
        }
        let mut lsp = Lsp::spawn(&mut command);
        // Answered by the process that runs on.
        lsp.initialize();
        let environ = std::fs::read(format!("/proc/{}/environ", lsp.child.id())).unwrap();
        assert_eq!(tunables(&environ).as_deref(), Some(want), "{given:?}");
        drop(lsp.input.take());
        assert_eq!(lsp.code(), Some(1), "{given:?}");
    }
}

/// `GLIBC_TUNABLES` in a process's `/proc/PID/environ`. glibc may have
/// cut the value at its colons in place (with NUL bytes) as it parsed it:
/// the tunables that follow are joined again.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tunables(environ: &[u8]) -> Option<String> {
    let mut vars = environ.split(|&b| b == 0);
    let first = vars.find_map(|v| v.strip_prefix(b"GLIBC_TUNABLES="))?;
    let mut value = String::from_utf8_lossy(first).into_owned();
    for more in vars.take_while(|v| v.starts_with(b"glibc.")) {
        value.push(':');
        value.push_str(&String::from_utf8_lossy(more));
    }
    Some(value)
}
