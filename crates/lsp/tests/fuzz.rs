//! A seeded protocol fuzzer: random, mutated and truncated frames, invalid
//! methods and params, out-of-order versions and close/reopen races, sent
//! to the real server, with edits far outside the text and lines of
//! thousands of suppression markers among them (a server whose stderr is
//! never read is `tests/undrained_stderr.rs`); then exact round trips
//! prove it still serves. And
//! whole sessions (`exit` as a request, requests after `shutdown`, a client
//! that never answers the server's requests) cut by end of input at a
//! random point, mid-frame included: the server always ends in time, with
//! the exit code the protocol asks for, having answered every request it
//! read. `UTF8LINT_FUZZ_ITERATIONS` (default 400) and `UTF8LINT_FUZZ_SEED`
//! set the length and the seed of a run (one session per 20 frames, at
//! least 40).

mod common;

use std::time::Duration;

use common::raw::Raw;
use common::{Client, frame};
use serde_json::{Value, json};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const URIS: [&str; 3] = ["untitled:f0", "untitled:f1", "untitled:f2"];
const TEXTS: [&str; 4] = ["", "a\u{FEFF}b\n", "\u{FFFD}x\r\ny\u{FEFF}", "plain\n"];

fn valid_message(rng: &mut Rng) -> Value {
    let uri = URIS[rng.below(URIS.len())];
    let text = TEXTS[rng.below(TEXTS.len())];
    let version = rng.below(20) as i64 - 2; // out of order, repeated, negative
    // One position in eight far outside any text: clamped, logged once
    // per message.
    let pos = if rng.below(8) == 0 {
        json!({"line": 1_000_000 + rng.below(1000), "character": rng.below(1 << 30)})
    } else {
        json!({"line": rng.below(3), "character": rng.below(6)})
    };
    match rng.below(7) {
        0 => {
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "text", "version": version, "text": text}}})
        }
        1 => {
            json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
        }
        2 => {
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": pos, "end": pos}, "text": text}]}})
        }
        3 => {
            json!({"jsonrpc": "2.0", "id": rng.below(1000) + 10_000, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": pos}})
        }
        4 => {
            json!({"jsonrpc": "2.0", "id": rng.below(1000) + 10_000, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": uri},
            "range": {"start": pos, "end": pos}, "context": {"diagnostics": []}}})
        }
        5 => {
            // A line of thousands of suppression markers, one stale.
            let mut text = "x ".to_string();
            text.push_str(&"utf8lint: allow(U002) ".repeat(1000 + rng.below(3000)));
            text.push_str("\u{FEFF}\n# utf8lint: allow(U001)\n");
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "text", "version": version, "text": text}}})
        }
        _ => {
            json!({"jsonrpc": "2.0", "id": rng.below(1000) + 10_000, "method": "textDocument/hover", "params": rng.below(5)})
        }
    }
}

/// One hostile frame (or run of bytes) and the name of its kind.
fn hostile(rng: &mut Rng) -> (&'static str, Vec<u8>) {
    let body = serde_json::to_vec(&valid_message(rng)).unwrap();
    match rng.below(8) {
        0 => ("valid", frame(&body)),
        1 => {
            let mut value: Value = serde_json::from_slice(&body).unwrap();
            let methods = [json!(1), Value::Null, json!(true), json!([]), json!({})];
            value["method"] = methods[rng.below(methods.len())].clone();
            (
                "non-string method",
                frame(&serde_json::to_vec(&value).unwrap()),
            )
        }
        2 => {
            let mut bytes = body.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            ("mutated body", frame(&bytes))
        }
        3 => {
            let cut = rng.below(body.len());
            let mut bytes = frame(&body);
            bytes.truncate(bytes.len() - body.len() + cut);
            ("truncated frame", bytes)
        }
        4 => {
            let n = rng.below(64);
            let bytes = (0..n)
                .map(|_| b"{}\":,[] \r\nCont-Lgh0129xyz"[rng.below(24)])
                .collect();
            ("garbage bytes", bytes)
        }
        5 => {
            let headers: [&[u8]; 4] = [
                b"Content-Type: x\r\n\r\n",
                b"Content-Length: 12\n\n",
                b"Content-Length: 3\r\n\r\n",
                b"Content-Length: 4294967296\r\n\r\n",
            ];
            let mut bytes = headers[rng.below(headers.len())].to_vec();
            bytes.extend_from_slice(&body);
            ("bad header", bytes)
        }
        6 => {
            let mut bytes = frame(&body);
            let n = bytes.len();
            bytes.insert(rng.below(n), 0xFF);
            ("raw byte anywhere", bytes)
        }
        _ => {
            // Close and reopen at once: the race with a running check.
            let uri = URIS[rng.below(URIS.len())];
            let mut bytes = frame(&serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})).unwrap());
            bytes.extend(frame(&serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "text", "version": 1, "text": TEXTS[rng.below(TEXTS.len())]}}})).unwrap()));
            ("close and reopen", bytes)
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_frames_never_stop_the_server() {
    let iterations = env_number("UTF8LINT_FUZZ_ITERATIONS", 400);
    let seed = env_number("UTF8LINT_FUZZ_SEED", 0x5eed_1234) | 1;
    let mut rng = Rng(seed);
    let mut c = Client::start(Some(&["utf-16"]), None, json!({"workspace-scan": false})).await;
    let mut kinds = std::collections::BTreeMap::<&str, u64>::new();
    for round in 0..iterations {
        let (kind, bytes) = hostile(&mut rng);
        *kinds.entry(kind).or_default() += 1;
        c.send_raw(&bytes).await;
        eprintln!(
            "fuzz round {round}: {kind}: {}",
            String::from_utf8_lossy(&bytes).escape_debug()
        );
        if round % 50 == 49 {
            // A checkpoint: a well-formed request after what came before is
            // answered (a truncated frame may swallow at most the frame
            // right after it, never the server).
            c.send_raw(b"\r\n\r\n").await;
            let answer = c.request("utf8lint/ping", Value::Null).await;
            assert_eq!(
                answer["error"]["code"], -32601,
                "seed {seed} round {round}: {answer}"
            );
            c.clear();
        }
    }
    eprintln!("fuzz: seed {seed}, {iterations} frames: {kinds:?}");
    c.send_raw(b"\r\n\r\n").await;
    c.open("untitled:final", "fz\u{FEFF}").await;
    let diags = c.diagnostics_for("untitled:final", 1).await;
    assert_eq!(diags.len(), 1, "seed {seed}: {diags:?}");
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": "untitled:final"}, "position": {"line": 0, "character": 2}}))
        .await;
    let text = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("U+FEFF"), "seed {seed}: {hover}");
    let shutdown = c.request("shutdown", Value::Null).await;
    assert_eq!(shutdown["result"], Value::Null, "seed {seed}: {shutdown}");
}

/// One step of a scripted session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Initialize,
    Initialized,
    DidOpen,
    Hover,
    ChangeConfiguration,
    ExitAsRequest,
    Shutdown,
    Exit,
    /// A hostile frame that cannot swallow the next one.
    Hostile,
}

/// A session in a plausible order, with steps repeated, dropped, moved
/// and hostile frames between them.
fn session(rng: &mut Rng) -> Vec<Step> {
    use Step::*;
    let mut steps = vec![
        Initialize,
        Initialized,
        DidOpen,
        Hover,
        Shutdown,
        Hover,
        Exit,
    ];
    for _ in 0..rng.below(6) {
        let extra = [
            Hover,
            ChangeConfiguration,
            ExitAsRequest,
            Shutdown,
            Initialize,
            DidOpen,
            Hostile,
            Hostile,
        ];
        let at = rng.below(steps.len() + 1);
        steps.insert(at, extra[rng.below(extra.len())]);
    }
    if rng.below(4) == 0 {
        steps.remove(rng.below(steps.len()));
    }
    steps
}

/// A hostile frame whose header is intact, so that it never swallows the
/// frame after it (mutated bodies, non-string methods, valid messages).
fn contained_hostile(rng: &mut Rng) -> Vec<u8> {
    loop {
        let (kind, bytes) = hostile(rng);
        if matches!(
            kind,
            "valid" | "non-string method" | "mutated body" | "close and reopen"
        ) {
            return bytes;
        }
    }
}

/// What a script sent, as far as the server read it.
#[derive(Default)]
struct Expect {
    initialize_sent: bool,
    shutdown_sent: bool,
    exit: bool,
    /// Requests read before the input ended.
    ids: Vec<i64>,
}

/// The message of a scripted step (`None` for a hostile frame).
fn step_message(step: Step, id: i64) -> Option<Value> {
    let message = match step {
        Step::Initialize => json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "processId": null, "rootUri": null,
            "capabilities": {"workspace": {"configuration": true, "didChangeWatchedFiles": {"dynamicRegistration": true}}, "window": {"workDoneProgress": true}}
        }}),
        Step::Initialized => json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        Step::DidOpen => {
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "untitled:s", "languageId": "text", "version": 1, "text": "a\u{FEFF}b"}}})
        }
        Step::Hover => {
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": {"uri": "untitled:s"}, "position": {"line": 0, "character": 1}}})
        }
        Step::ChangeConfiguration => {
            json!({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": null}})
        }
        Step::ExitAsRequest => json!({"jsonrpc": "2.0", "id": id, "method": "exit"}),
        // `params: null`, as Eglot and LSP4IJ send it.
        Step::Shutdown => json!({"jsonrpc": "2.0", "id": id, "method": "shutdown", "params": null}),
        Step::Exit => json!({"jsonrpc": "2.0", "method": "exit"}),
        Step::Hostile => return None,
    };
    Some(message)
}

/// Sessions cut by end of input anywhere. A patient client waits for each
/// answer before it sends on, as the protocol asks: its exit code is exact.
/// An impatient one sends everything at once: `shutdown` may still be in
/// flight when `exit` comes (tower-lsp then cancels it), so only `exit` after
/// a `shutdown` may give 0; without `exit`, every request read is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_cut_anywhere_always_end_with_the_right_code() {
    let iterations = env_number("UTF8LINT_FUZZ_ITERATIONS", 400);
    let seed = env_number("UTF8LINT_FUZZ_SEED", 0x5eed_1234) | 1;
    let sessions = (iterations / 20).max(40);
    let mut rng = Rng(seed ^ 0x00c0_ffee);
    let mut slowest = Duration::ZERO;
    let mut codes = [0u64; 2];
    for round in 0..sessions {
        let steps = session(&mut rng);
        // Where the input ends: before step `cut` (after the last when
        // `cut` is the length), possibly in the middle of that frame.
        let cut = rng.below(steps.len() + 1);
        let mid_frame = rng.below(3) == 0;
        let answers = rng.below(2) == 0;
        let patient = rng.below(3) != 0;
        let mut c = Raw::start(answers.then(|| json!({"workspace-scan": false})));
        let mut expect = Expect::default();
        for (n, &step) in steps.iter().enumerate() {
            let id = n as i64 + 1;
            let message = step_message(step, id);
            let bytes = match &message {
                Some(m) => frame(m.to_string().as_bytes()),
                None => contained_hostile(&mut rng),
            };
            if n == cut {
                if mid_frame {
                    let part = 1 + rng.below(bytes.len() - 1);
                    c.send_raw(&bytes[..part]).await;
                }
                break;
            }
            c.send_raw(&bytes).await;
            if expect.exit {
                continue; // not read: the input ended at `exit`
            }
            let request = message.as_ref().is_some_and(|m| m.get("id").is_some());
            if request {
                expect.ids.push(id);
            }
            match step {
                Step::Initialize => expect.initialize_sent = true,
                Step::Shutdown if expect.initialize_sent => expect.shutdown_sent = true,
                Step::Exit => expect.exit = true,
                _ => {}
            }
            if patient && request {
                c.response(json!(id)).await;
            }
        }
        c.close_input().await;
        let (ending, took, written) = c.ended().await;
        slowest = slowest.max(took);
        codes[usize::from(ending.code())] += 1;
        let context = format!(
            "seed {seed} session {round}: {steps:?} cut {cut} mid-frame {mid_frame} answers {answers} patient {patient}"
        );
        let zero = expect.exit && expect.shutdown_sent;
        if patient {
            assert_eq!(ending.code(), u8::from(!zero), "{context}: {ending:?}");
        } else if !zero {
            assert_eq!(ending.code(), 1, "{context}: {ending:?}");
        }
        assert_eq!(
            matches!(ending, utf8lint_lsp::Ending::Exit { .. }),
            expect.exit,
            "{context}: {ending:?}"
        );
        for id in &expect.ids {
            let answered = written
                .iter()
                .filter(|m| m["id"] == *id && m.get("method").is_none())
                .count();
            let want = if expect.exit { 0..=1 } else { 1..=1 };
            assert!(
                want.contains(&answered),
                "{context}: request {id} answered {answered} times"
            );
        }
    }
    eprintln!(
        "fuzz: seed {seed}, {sessions} sessions, exit codes 0/1: {codes:?}, slowest end {slowest:?}"
    );
}
