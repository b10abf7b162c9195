//! The conventions users bring from ruff, typos, ripgrep and uv: `--fix`
//! on standard input, `FORCE_COLOR`, `CLICOLOR_FORCE` and `NO_COLOR`, a
//! line after clap's error for another tool's option, shell completions and
//! the man page, ruff's output format names (`json` an array, `json-lines`),
//! `rules --format json`, levels, the baseline's count in the summary.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::*;

/// Runs `utf8lint ARGS` in a fresh directory with `input` on standard input.
fn run_stdin(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut c = cmd(dir.path());
    c.args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("PRE_COMMIT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    // A command refused before it reads its input closes the pipe first.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn fix_on_standard_input_prints_the_fixed_bytes() {
    // The name picks the policy: JSON forbids the BOM, so it goes.
    let input = "\u{FEFF}{\"k\": \"a\u{FEFF}b\"}\n".as_bytes();
    let out = run_stdin(
        &["check", "--fix", "--stdin-filename", "x.json"],
        input,
        &[],
    );
    assert_eq!(out.stdout, "{\"k\": \"a\u{FEFF}b\"}\n".as_bytes());
    let err = stderr(&out);
    assert!(err.contains("fixed 1 finding in 1 file"), "{err}");
    // What is left (the stray U+FEFF, whose fix is unsafe) is reported on
    // standard error, named as given, at its place in the fixed bytes.
    assert!(err.contains("warning[U002]"), "{err}");
    assert!(err.contains("x.json:1:9"), "{err}");
    assert_eq!(code(&out), 0, "a warning is left");
    let out = run_stdin(
        &["check", "--fix", "-D", "U002", "--stdin-filename", "x.json"],
        input,
        &[],
    );
    assert_eq!(code(&out), 1, "a deny-level finding is left");

    // With unsafe fixes too, nothing is left.
    let out = run_stdin(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--stdin-filename",
            "x.json",
            "-",
        ],
        input,
        &[],
    );
    // Inside a JSON string the U+FEFF becomes its escape: the parsed value
    // is the same.
    assert_eq!(
        out.stdout,
        "{\"k\": \"a\\uFEFFb\"}\n".as_bytes(),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&out), 0);
    assert!(!stderr(&out).contains("U002"));

    // A name whose policy allows the BOM keeps it; nothing to fix is the
    // input again, byte for byte.
    let input = b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<a/>\n";
    let out = run_stdin(&["check", "--fix", "--stdin-filename", "x.xml"], input, &[]);
    assert_eq!(out.stdout, input);
    assert_eq!(code(&out), 0);

    // The fixed bytes are the only thing on standard output.
    let out = run_stdin(&["check", "--fix", "-", "other.txt"], b"x\n", &[]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("give `-` alone"));
    let out = run_stdin(&["check", "--fix", "--statistics", "-"], b"x\n", &[]);
    assert_eq!(code(&out), 2);
}

#[test]
fn clicolor_force_colours_a_pipe_and_no_color_wins() {
    let input = b"\xEF\xBB\xBF{}";
    let args = ["check", "--stdin-filename", "x.json"];
    let plain = run_stdin(&args, input, &[]);
    assert!(!stdout(&plain).contains('\u{1b}'));
    let forced = run_stdin(&args, input, &[("CLICOLOR_FORCE", "1")]);
    assert!(stdout(&forced).contains("\u{1b}["), "{}", stdout(&forced));
    let zero = run_stdin(&args, input, &[("CLICOLOR_FORCE", "0")]);
    assert!(!stdout(&zero).contains('\u{1b}'));
    let both = run_stdin(&args, input, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!stdout(&both).contains('\u{1b}'), "NO_COLOR wins");
    // An explicit --color is the user's last word.
    let never = run_stdin(
        &["check", "--color", "never", "--stdin-filename", "x.json"],
        input,
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!stdout(&never).contains('\u{1b}'));
}

#[test]
fn options_from_other_tools_get_a_pointer() {
    let dir = tempfile::tempdir().unwrap();
    for (args, want) in [
        (
            &["check", "--output-format", "json"][..],
            "utf8lint uses --format (human, concise, json, json-lines, sarif, github) instead of --output-format",
        ),
        (
            &["check", "--output-format=json"][..],
            "instead of --output-format",
        ),
        (
            &["check", "--select", "U001"][..],
            "utf8lint uses -D RULE / -W RULE",
        ),
        (
            &["check", "--extend-select", "U001"][..],
            "-D RULE / -W RULE",
        ),
        (&["check", "--ignore", "U001"][..], "utf8lint uses -A RULE"),
        (&["check", "--no-cache"][..], "it keeps no cache"),
        (
            &["check", "--show-files"][..],
            "utf8lint uses --files instead of --show-files",
        ),
        (
            &["check", "--write-changes"][..],
            "utf8lint uses --fix instead of --write-changes",
        ),
    ] {
        let out = run(dir.path(), args);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            err.contains("error: unexpected argument"),
            "clap's error first: {err}"
        );
        assert!(
            err.trim_end().ends_with(want) || err.contains(want),
            "{args:?}: {err}"
        );
        assert!(
            err.find("unexpected argument").unwrap() < err.find("utf8lint uses").unwrap(),
            "{err}"
        );
    }
    // An option no other tool has gets clap's error alone.
    let out = run(dir.path(), ["check", "--frobnicate"]);
    assert_eq!(code(&out), 2);
    assert!(!stderr(&out).contains("utf8lint uses"), "{}", stderr(&out));
}

#[test]
fn completions_are_generated_for_every_shell() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(dir.path(), ["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let text = stdout(&out);
        for word in ["check", "explain", "statistics", "no-hidden", "output-file"] {
            assert!(text.contains(word), "{shell} completions lack {word}");
        }
    }
    let out = run(dir.path(), ["completions", "tcsh"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn bash_completions_complete_in_a_real_bash() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("NOTICE: bash not found; skipping the sourced-completions test");
        return;
    }
    let script = format!(
        r#"source <("{bin}" completions bash) || exit 3
complete -p utf8lint || exit 4
COMP_WORDS=(utf8lint check --stat); COMP_CWORD=2
_utf8lint utf8lint --stat check
printf 'flag:%s\n' "${{COMPREPLY[@]}}"
COMP_WORDS=(utf8lint comp); COMP_CWORD=1
_utf8lint utf8lint comp utf8lint
printf 'sub:%s\n' "${{COMPREPLY[@]}}"
"#,
        bin = bin()
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("-F _utf8lint utf8lint"), "{text}");
    assert!(text.lines().any(|l| l == "flag:--statistics"), "{text}");
    assert!(text.lines().any(|l| l == "sub:completions"), "{text}");
}

#[test]
fn the_man_page_covers_the_subcommands_and_their_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), ["manpage"]);
    assert_eq!(code(&out), 0);
    let page = stdout(&out);
    assert!(page.contains(".TH utf8lint 1"), "{page}");
    assert!(page.contains(".SH \"UTF8LINT CHECK\""), "{page}");
    assert!(page.contains("\\fB\\-\\-statistics\\fR"), "{page}");
    assert!(page.contains("\\fB\\-\\-no\\-hidden\\fR"), "{page}");
    assert!(!page.contains("utf8lint\\-check(1)"), "no page of its own");
    // Rendered by man's formatter when there is one: it must parse.
    if Command::new("groff").arg("--version").output().is_ok() {
        let mut groff = Command::new("groff")
            // No bold or underline by overstriking: plain text to search.
            .args(["-man", "-Tutf8", "-ww", "-P-b", "-P-u"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        groff
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let rendered = groff.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&rendered.stdout);
        assert!(text.contains("--statistics"), "{text}");
        assert!(
            rendered.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&rendered.stderr)
        );
    } else {
        eprintln!("NOTICE: groff not found; the man page was checked as text only");
    }
}

#[test]
fn force_color_colours_a_pipe_and_no_color_still_wins() {
    let input = b"\xEF\xBB\xBF{}";
    let args = ["check", "--stdin-filename", "x.json"];
    let coloured = |env: &[(&str, &str)]| stdout(&run_stdin(&args, input, env)).contains("\u{1b}[");
    assert!(!coloured(&[]));
    assert!(coloured(&[("FORCE_COLOR", "1")]));
    assert!(coloured(&[("FORCE_COLOR", "true")]));
    for not_forced in ["", "0", "false"] {
        assert!(!coloured(&[("FORCE_COLOR", not_forced)]), "{not_forced:?}");
    }
    assert!(
        !coloured(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]),
        "NO_COLOR wins"
    );
    let never = run_stdin(
        &["check", "--color", "never", "--stdin-filename", "x.json"],
        input,
        &[("FORCE_COLOR", "1")],
    );
    assert!(!stdout(&never).contains('\u{1b}'), "--color never wins");
    // Machine formats are never coloured.
    let json = run_stdin(
        &["check", "--format", "json", "--stdin-filename", "x.json"],
        input,
        &[("FORCE_COLOR", "1")],
    );
    assert!(!stdout(&json).contains('\u{1b}'));
}

#[test]
fn json_is_one_array_and_json_lines_an_object_a_line() {
    let dir = tree(&[
        ("a.json", b"\xEF\xBB\xBF{}\n"),
        ("b.txt", b"x\xFFy\n\xFE\n"),
        ("clean.txt", b"fine\n"),
    ]);
    let lines = run(dir.path(), ["check", "--format", "json-lines"]);
    assert_eq!(code(&lines), 1);
    let text = stdout(&lines);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(objects.len(), 3, "{text}");
    assert!(objects.iter().all(|o| o.is_object()));

    let array = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(code(&array), 1);
    let text = stdout(&array);
    let parsed: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(
        parsed.as_array().expect("an array"),
        &objects,
        "the same objects, in the same order"
    );
    assert!(text.starts_with("[\n{\"path\":\"a.json\""), "{text}");
    assert!(text.ends_with("}\n]\n"), "{text}");

    // Nothing found: an empty array, and JSON Lines print nothing.
    let clean = run(dir.path(), ["check", "--format", "json", "clean.txt"]);
    assert_eq!((code(&clean), stdout(&clean).as_str()), (0, "[]\n"));
    let clean = run(dir.path(), ["check", "--format", "json-lines", "clean.txt"]);
    assert_eq!((code(&clean), stdout(&clean).as_str()), (0, ""));

    // A diff on standard output stays a diff; --statistics stays one
    // document of its own.
    let diff = run(
        dir.path(),
        ["check", "--format", "json", "--diff", "a.json"],
    );
    assert!(stdout(&diff).starts_with("--- "), "{}", stdout(&diff));
    let stats = run(dir.path(), ["check", "--format", "json", "--statistics"]);
    let stats: serde_json::Value = serde_json::from_str(&stdout(&stats)).unwrap();
    assert!(stats["rules"].is_array(), "{stats}");

    // `jsonl` is not a name of ruff's: refused with the names listed.
    let other = run(dir.path(), ["check", "--format", "jsonl"]);
    assert_eq!(code(&other), 2);
    assert!(stderr(&other).contains("json-lines"), "{}", stderr(&other));
}

#[test]
fn rules_are_listed_as_a_table_or_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), ["rules", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rules: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(rules.len() >= 15, "{}", rules.len());
    let first = &rules[0];
    assert_eq!(first["code"], "U001");
    assert_eq!(first["name"], "invalid_utf8");
    assert_eq!(first["default_level"], "deny");
    assert_eq!(first["status"], "stable");
    assert_eq!(first["fix_availability"], "sometimes");
    assert_eq!(first["fix_safety"], "unsafe");
    assert!(first["explanation"].as_str().unwrap().starts_with("# U001"));
    let path = rules.iter().find(|r| r["code"] == "U006").unwrap();
    assert_eq!(path["fix_availability"], "none");
    assert!(path["fix_safety"].is_null());
    for rule in &rules {
        for key in [
            "code",
            "name",
            "default_level",
            "status",
            "fix_availability",
            "summary",
            "url",
        ] {
            assert!(rule[key].is_string(), "{key} of {rule}");
        }
        assert!(["allow", "warn", "deny"].contains(&rule["default_level"].as_str().unwrap()));
        assert!(["stable", "preview"].contains(&rule["status"].as_str().unwrap()));
        // Each rule's explanation is what `explain` prints.
        let code = rule["code"].as_str().unwrap();
        let explained = run(dir.path(), ["explain", code]);
        assert_eq!(stdout(&explained), rule["explanation"].as_str().unwrap());
    }

    let table = stdout(&run(dir.path(), ["rules"]));
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        ["code", "name", "level", "status", "fix", "summary"]
    );
    assert_eq!(lines.count(), rules.len());
    let u002 = table.lines().find(|l| l.starts_with("U002")).unwrap();
    assert_eq!(
        u002.split_whitespace().collect::<Vec<_>>().join(" "),
        "U002 stray_feff warn stable sometimes, safe or unsafe U+FEFF after the start of the file",
        "{table}"
    );
}

#[test]
fn levels_other_than_allow_warn_deny_are_refused_with_the_one_meant() {
    for (written, meant) in [("off", "allow"), ("error", "deny"), ("warning", "warn")] {
        let dir = tree(&[
            (
                "utf8lint.toml",
                format!("[lints]\nstray_feff = \"{written}\"\n").as_bytes(),
            ),
            ("a.txt", b"x\n"),
        ]);
        let out = run(dir.path(), ["check"]);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{err}");
        assert!(
            err.contains(&format!(
                "unknown level `{written}`: the levels are \"allow\", \"warn\" and \"deny\" (for `{written}`, use \"{meant}\")"
            )),
            "{err}"
        );
    }
    let dir = tree(&[
        (
            "utf8lint.toml",
            b"[per-file-lints]\n\"*.txt\" = { stray_feff = \"loud\" }\n",
        ),
        ("a.txt", b"x\n"),
    ]);
    let out = run(dir.path(), ["check"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out)
            .contains("unknown level `loud`: the levels are \"allow\", \"warn\" and \"deny\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_summary_counts_the_findings_the_baseline_holds() {
    let dir = tree(&[
        ("a.txt", b"x\xFFy\n\xFE\n"),
        ("b.json", b"\xEF\xBB\xBF{}\n"),
    ]);
    let out = run(dir.path(), ["check", "--write-baseline", "base.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(dir.path(), ["check", "--baseline", "base.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("0 errors, 0 warnings; 3 findings in the baseline not shown"),
        "{}",
        stderr(&out)
    );
    std::fs::write(dir.path().join("c.txt"), b"\xFF\n").unwrap();
    let out = run(dir.path(), ["check", "--baseline", "base.json"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("1 error, 0 warnings; 3 findings in the baseline not shown"),
        "{}",
        stderr(&out)
    );
    // Without a baseline, no such clause.
    let out = run(dir.path(), ["check"]);
    assert!(!stderr(&out).contains("baseline"), "{}", stderr(&out));
}

#[test]
fn fix_says_nothing_when_nothing_was_fixed() {
    let dir = tree(&[("a.txt", b"fine\n"), ("b.json", b"\xEF\xBB\xBF{}\n")]);
    let out = run(dir.path(), ["check", "--fix", "a.txt"]);
    assert_eq!(code(&out), 0);
    assert!(!stderr(&out).contains("fixed"), "{}", stderr(&out));
    let out = run(dir.path(), ["check", "--fix", "."]);
    assert!(
        stderr(&out).contains("fixed 1 finding in 1 file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn under_pre_commit_the_help_names_the_hooks_not_the_command() {
    let dir = tree(&[("b.json", b"\xEF\xBB\xBF{}\n"), ("c.txt", b"x\xFFy\n")]);
    let out = run(dir.path(), ["check", "."]);
    assert!(
        stdout(&out).contains("(safe fix: `utf8lint check --fix`)"),
        "{}",
        stdout(&out)
    );
    let out = cmd(dir.path())
        .args(["check", "."])
        .env("PRE_COMMIT", "1")
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(!text.contains("utf8lint check --fix"), "{text}");
    assert!(
        text.contains("(safe fix: the `utf8lint-fix` hook, or `args: [--fix]` on this one)"),
        "{text}"
    );
    assert!(
        text.contains("(unsafe fix: `args: [--fix, --unsafe-fixes]` on the hook)"),
        "{text}"
    );
}
