//! The fix gate through the CLI: the known chains settle in one run, a
//! refusal is a trouble line, a problem in the summary and exit code 2
//! with the file untouched, and `--diff` shows what `--fix` writes.

use std::fs;

use crate::common::*;

const TAG_FEFF: &str = "x\n\u{E0041}\u{FEFF}y\n";
const ZWSP_MOJIBAKE: &str = "caf\u{C3}\u{200B}\u{A9}\n";

#[test]
fn one_unsafe_run_settles_the_known_chains() {
    let dir = tree(&[
        ("tag.txt", TAG_FEFF.as_bytes()),
        ("moji.txt", ZWSP_MOJIBAKE.as_bytes()),
    ]);
    let diff = run(dir.path(), ["check", "--diff", "--unsafe-fixes", "."]);
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert!(
        stderr(&out).contains("fixed 4 findings in 2 files"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read(dir.path().join("tag.txt")).unwrap(), b"x\ny\n");
    assert_eq!(
        fs::read(dir.path().join("moji.txt")).unwrap(),
        "café\n".as_bytes()
    );
    let again = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert!(!stderr(&again).contains("fixed"), "{}", stderr(&again));
    assert_eq!(code(&again), 0, "{}", stderr(&again));
    // The diff of the first run is what it wrote.
    let text = stdout(&diff);
    assert!(text.contains("-caf\u{C3}\u{200B}\u{A9}\n+café\n"), "{text}");
}

#[test]
fn a_refused_fix_is_a_problem_and_leaves_the_file() {
    // UTF-16LE without a byte-order mark, one lone surrogate.
    let mut utf16: Vec<u8> = "some plain words in a file of UTF-16 text, "
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    utf16.extend_from_slice(&0xD800u16.to_le_bytes());
    utf16.extend(
        "and more words after it\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    let utf16 = &utf16[..];
    let dir = tree(&[("u16.txt", utf16), ("moji.txt", ZWSP_MOJIBAKE.as_bytes())]);
    // Named, it is skipped as binary (its lone surrogate breaks the UTF-16
    // pattern) or refused: either way it keeps its bytes.
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "u16.txt"]);
    let err = stderr(&out);
    assert!(
        err.contains("utf8lint: error: not fixing u16.txt: it")
            || err.contains("utf8lint: skipped u16.txt: binary"),
        "{err}"
    );
    assert_eq!(fs::read(dir.path().join("u16.txt")).unwrap(), utf16);
    let diff = run(dir.path(), ["check", "--diff", "--unsafe-fixes", "u16.txt"]);
    assert!(stdout(&diff).is_empty(), "{}", stdout(&diff));
    // A refusal is a problem: said, counted, exit 2, the file kept.
    let data = "a record\x01with a separator and a stray \u{FEFF}mark\n";
    fs::write(dir.path().join("data.txt"), data).unwrap();
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "data.txt"]);
    let err = stderr(&out);
    assert!(
        err.contains("utf8lint: error: not fixing data.txt: it holds the control byte \\x01"),
        "{err}"
    );
    assert!(err.contains("1 problem"), "{err}");
    assert_eq!(code(&out), 2);
    assert_eq!(
        fs::read(dir.path().join("data.txt")).unwrap(),
        data.as_bytes()
    );
    // In JSON, the refusal is an object of the stream (no `code`), after
    // the file's findings, with the reason; so in JSON Lines.
    for format in ["json", "json-lines"] {
        let out = run(
            dir.path(),
            [
                "check",
                "--fix",
                "--unsafe-fixes",
                "--format",
                format,
                "data.txt",
            ],
        );
        assert_eq!(code(&out), 2);
        let text = stdout(&out);
        let objects: Vec<serde_json::Value> = if format == "json" {
            serde_json::from_str(&text).unwrap()
        } else {
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        };
        let last = objects.last().unwrap();
        assert_eq!(last["path"], "data.txt", "{text}");
        assert_eq!(last["trouble"], "fix_refused", "{text}");
        assert!(last.get("code").is_none(), "{text}");
        assert!(
            last["message"]
                .as_str()
                .unwrap()
                .starts_with("it holds the control byte \\x01"),
            "{text}"
        );
        assert!(
            objects[..objects.len() - 1]
                .iter()
                .all(|o| o["code"].is_string()),
            "{text}"
        );
    }
    assert_eq!(
        fs::read(dir.path().join("data.txt")).unwrap(),
        data.as_bytes()
    );
    // Standard input refused: echoed as it came.
    let mut child = cmd(dir.path())
        .args(["check", "--fix", "--unsafe-fixes", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(utf16).unwrap();
    let piped = child.wait_with_output().unwrap();
    assert_eq!(piped.stdout, utf16);
    assert!(
        stderr(&piped).contains("not fixing standard input"),
        "{}",
        stderr(&piped)
    );
}

/// Fixing a Python file keeps it what Python reads.
#[test]
fn a_fixed_python_file_still_compiles() {
    if !have("python3") {
        eprintln!("python3 not found: skipped");
        return;
    }
    let source = "s = 'caf\u{C3}\u{200B}\u{A9}'\nx = '1\u{FEFF}'\n";
    let dir = tree(&[("m.py", source.as_bytes())]);
    run(dir.path(), ["check", "--fix", "--unsafe-fixes", "m.py"]);
    let compiled = std::process::Command::new("python3")
        .args(["-m", "py_compile", "m.py"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let again = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "m.py"]);
    assert!(!stderr(&again).contains("fixed"), "{}", stderr(&again));
}

/// Many hidden characters in one file's string literals, on several
/// lines: each gets its own literal's escape, whatever the fixes of a rule
/// are merged into for the run, and the program reads the same values.
#[test]
fn hidden_characters_in_many_literals_are_escaped_one_by_one() {
    let source = "a = \"x\u{FEFF}y\"\nb = \"p\u{FEFF}q\"\nc = 1 + 2\nd = \"\u{200B}z\"\n";
    let dir = tree(&[("t.py", source.as_bytes())]);
    let values = |path: &std::path::Path| {
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg("import ast,sys; print([n.value for n in ast.walk(ast.parse(open(sys.argv[1], encoding='utf-8').read())) if isinstance(n, ast.Constant)])")
            .arg(path)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let before = values(&dir.path().join("t.py"));
    let o = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "t.py"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(dir.path().join("t.py")).unwrap(),
        "a = \"x\\uFEFFy\"\nb = \"p\\uFEFFq\"\nc = 1 + 2\nd = \"\\u200Bz\"\n"
    );
    assert_eq!(values(&dir.path().join("t.py")), before);
}
