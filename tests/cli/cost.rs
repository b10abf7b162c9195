//! Cost stays bounded whatever the input and the configuration: a
//! repository's `max-per-file = 0` on a long line of bad bytes, `--diff` on a
//! huge line (linear), columns far along a long line. The time limits only guard
//! against a hang (the quadratic cost these tests were written against took
//! minutes); they are not timings.

use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{cmd, code, json_lines, stdout, tree};

/// How long any of these runs may take before it counts as a hang: a
/// guard, not a measure (the tests count work), so generous enough for a
/// debug build on a machine busy with other builds.
const HANG: Duration = Duration::from_secs(180);

/// Runs `utf8lint ARGS` in `dir`, killed and failed if it outlives `HANG`.
fn run_bounded(dir: &Path, args: &[&str]) -> Output {
    let mut child = cmd(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run utf8lint");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        out.read_to_end(&mut bytes).map(|_| bytes)
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        err.read_to_end(&mut bytes).map(|_| bytes)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > HANG {
            child.kill().ok();
            child.wait().ok();
            panic!("utf8lint {args:?} still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: reader.join().unwrap().expect("read stdout"),
        stderr: err_reader.join().unwrap().expect("read stderr"),
    }
}

/// A 1 MiB line of 524,288 separate ill-formed bytes (`a\x80`: `€` in
/// windows-1252 is no letter, so never taken for a legacy encoding), in a
/// repository that lifts the cap.
fn megabyte_of_errors() -> tempfile::TempDir {
    let dir = megabyte_of_errors_unconfigured();
    std::fs::write(dir.path().join("utf8lint.toml"), "max-per-file = 0\n").unwrap();
    dir
}

/// The same line with no configuration.
fn megabyte_of_errors_unconfigured() -> tempfile::TempDir {
    let mut line = b"a\x80".repeat(512 * 1024);
    line.push(b'\n');
    tree(&[("line.txt", &line)])
}

const HIDDEN: usize = 512 * 1024 - 10_000;

#[test]
fn no_cap_in_the_repository_still_stops_at_the_ceiling() {
    let dir = megabyte_of_errors();
    let o = run_bounded(dir.path(), &["check", "--format", "json", "line.txt"]);
    assert_eq!(code(&o), 1);
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 10_001);
    assert!(o.stdout.len() < 16 << 20, "{} bytes", o.stdout.len());
    // The file's note of what the cap left out, which is not a finding.
    let note = lines.last().unwrap();
    assert_eq!(
        note,
        &serde_json::json!({"path": "line.txt", "not_shown": {"U001": HIDDEN}})
    );
    // The last one shown is where it is on the line.
    assert_eq!(lines[9_999]["column"], 2 * 9_999 + 2);
}

#[test]
fn no_cap_in_the_repository_gives_bounded_human_and_concise_output() {
    let dir = megabyte_of_errors();
    let o = run_bounded(dir.path(), &["check", "--format", "concise", "line.txt"]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 10_001);
    assert!(text.len() < 2 << 20, "{} bytes", text.len());
    assert!(text.contains(&format!(
        "note: line.txt: {HIDDEN} more ill-formed sequences in this file not shown ("
    )));

    let o = run_bounded(dir.path(), &["check", "line.txt"]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    // About 600 bytes a finding, each line cut around its span.
    assert!(text.len() < 10_001 * 1024, "{} bytes", text.len());
    assert!(text.lines().all(|l| l.len() < 1024));
    assert!(text.contains("the ceiling is absolute"), "no ceiling note");
}

#[test]
fn max_per_file_0_on_the_command_line_still_stops_at_the_ceiling() {
    let dir = megabyte_of_errors_unconfigured();
    let args = [
        "check",
        "--format",
        "concise",
        "--max-per-file",
        "0",
        "line.txt",
    ];
    let o = run_bounded(dir.path(), &args);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 10_001);
    assert!(text.lines().last().unwrap().starts_with(&format!(
        "note: line.txt: {HIDDEN} more ill-formed sequences in this file not shown ("
    )));
}

#[test]
fn diff_of_a_fix_in_a_huge_line_is_linear() {
    // A unified diff shows whole lines (it is for `git apply`): the line
    // twice, in time linear in its length.
    let half = 8 << 20;
    let mut line = b"x".repeat(2 * half);
    // `\x80` (`€` in windows-1252, not a letter): the repair is U+FFFD.
    line[half] = 0x80;
    line.extend_from_slice(b"\nend\n");
    let dir = tree(&[("big.txt", &line)]);
    let o = run_bounded(
        dir.path(),
        &["check", "--diff", "--unsafe-fixes", "big.txt"],
    );
    let mut fixed = line[..half].to_vec();
    fixed.extend_from_slice("\u{FFFD}".as_bytes());
    fixed.extend_from_slice(&line[half + 1..2 * half + 1]);
    let mut want = b"--- a/big.txt\n+++ b/big.txt\n@@ -1,2 +1,2 @@\n-".to_vec();
    want.extend_from_slice(&line[..2 * half + 1]);
    want.push(b'+');
    want.extend_from_slice(&fixed);
    want.extend_from_slice(b" end\n");
    assert!(
        o.stdout == want,
        "{} bytes, not the expected {}",
        o.stdout.len(),
        want.len()
    );
    // Nothing was written.
    assert_eq!(std::fs::read(dir.path().join("big.txt")).unwrap(), line);
}

#[test]
fn findings_at_the_end_of_a_long_line_have_exact_columns() {
    // 16 Mi characters (32 MiB) of `é`, then 5,000 bad bytes, then a line
    // 2. Counting each column from the line start is some 10^11 steps.
    let chars = 16 << 20;
    let findings = 5_000;
    let mut bytes = "é".repeat(chars).into_bytes();
    bytes.extend_from_slice(&b"a\xC0".repeat(findings));
    bytes.extend_from_slice(b"\n\xC0\n");
    let dir = tree(&[
        ("utf8lint.toml", b"max-per-file = 0\n"),
        ("long.txt", &bytes),
    ]);
    let o = run_bounded(dir.path(), &["check", "--format", "json", "long.txt"]);
    let lines = json_lines(&o);
    assert_eq!(lines.len(), findings + 1);
    for (k, d) in lines[..findings].iter().enumerate() {
        assert_eq!(d["line"], 1);
        assert_eq!(d["column"], chars + 2 * k + 2, "finding {k}");
        assert_eq!(d["end_column"], chars + 2 * k + 3, "finding {k}");
    }
    let last = &lines[findings];
    assert_eq!((&last["line"], &last["column"]), (&2.into(), &1.into()));

    // The human format says the same column for the last one.
    let o = run_bounded(dir.path(), &["check", "long.txt"]);
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            " --> long.txt:1:{}\n",
            chars + 2 * (findings - 1) + 2
        )),
        "{text}"
    );
}

/// U008 costs a run's context, not its line: a 16 MiB line that is one run
/// of mojibake, and a long line of many short runs, are checked in linear
/// time; the one run's message is cut, its fix repairs all of it.
#[test]
fn long_lines_of_mojibake_are_linear() {
    let mut one_run = "Ã©".repeat(4 << 20).into_bytes();
    one_run.push(b'\n');
    let mut many = "cafÃ© ".repeat(1 << 20).into_bytes();
    many.push(b'\n');
    // The same runs quoted in a Markdown line's code spans: each run's
    // quoting is known from one reading of its line.
    let mut quoted = "`cafÃ©` ".repeat(1 << 20).into_bytes();
    quoted.push(b'\n');
    let dir = tree(&[
        ("utf8lint.toml", b"max-per-file = 0\n"),
        ("one.txt", &one_run),
        ("many.txt", &many),
        ("quoted.md", &quoted),
    ]);
    let o = run_bounded(dir.path(), &["check", "--format", "json", "quoted.md"]);
    assert!(
        json_lines(&o).is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run_bounded(dir.path(), &["check", "--format", "json", "one.txt"]);
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1);
    let message = lines[0]["message"].as_str().unwrap();
    assert!(message.len() < 1024 && message.contains("é…"), "{message}");
    let o = run_bounded(dir.path(), &["check", "--format", "json", "many.txt"]);
    let lines = json_lines(&o);
    // Every run up to the shown ceiling, then the file's note of the rest.
    assert_eq!(lines.len(), 10_001);
    assert_eq!(lines[10_000]["not_shown"]["U008"], 1038576);
    let o = run_bounded(
        dir.path(),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "json",
            "one.txt",
        ],
    );
    assert!(
        json_lines(&o).is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut repaired = "é".repeat(4 << 20).into_bytes();
    repaired.push(b'\n');
    assert!(std::fs::read(dir.path().join("one.txt")).unwrap() == repaired);
}

/// U016 reads a catalogue word beside its entry and the entries around it
/// (a table of keys, a literal kept glued, the word used elsewhere): a
/// catalogue whose every entry is such a candidate costs each one a
/// bounded search, not one of the whole file.
#[test]
fn catalogue_words_read_beside_their_entries_are_linear() {
    let mut names = String::new();
    let mut keys = String::new();
    for i in 0..20_000u32 {
        names.push_str(&format!(
            "#: x.c:{i}\nmsgid \"Gabon\"\nmsgstr \"Gабон\"\n\n"
        ));
        let suffix: String = [i % 32, (i / 32) % 32, (i / 1024) % 32]
            .iter()
            .map(|&k| char::from_u32(0x430 + k).unwrap())
            .collect();
        keys.push_str(&format!(
            "msgid \"aextended{i}\"\nmsgstr \"aрозширений{suffix}\"\n\n"
        ));
    }
    let dir = tree(&[
        ("utf8lint.toml", b"max-per-file = 0\n"),
        ("names.po", names.as_bytes()),
        ("keys.po", keys.as_bytes()),
    ]);
    for (file, findings) in [("names.po", 20_000), ("keys.po", 20_000)] {
        let o = run_bounded(dir.path(), &["check", "--format", "json", file]);
        let u016 = json_lines(&o)
            .iter()
            .filter(|l| l["code"] == "U016")
            .count()
            + json_lines(&o)
                .iter()
                .filter_map(|l| l["not_shown"]["U016"].as_u64())
                .sum::<u64>() as usize;
        assert_eq!(u016, findings, "{file}");
    }
}
