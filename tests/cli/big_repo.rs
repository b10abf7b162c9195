//! Output for big repositories: `--statistics`, `--exit-zero`,
//! `--output-file`, `--files`, hidden files checked by default, the
//! summary's counts by rule.

use crate::common::*;

const BOM_JSON: &[u8] = b"\xEF\xBB\xBF{}";
const TWO_BAD_BYTES: &[u8] = b"x\xFFy\xFE\n";
const STRAY_FEFF: &[u8] = b"a\xEF\xBB\xBFb\n";

fn repo_tree() -> tempfile::TempDir {
    tree(&[
        ("a.json", BOM_JSON),
        (".github/workflows/ci.yml", TWO_BAD_BYTES),
        ("b.txt", STRAY_FEFF),
        ("clean.txt", b"fine\n"),
        (".git/config", TWO_BAD_BYTES),
    ])
}

#[test]
fn statistics_count_per_rule_and_per_file_most_first() {
    let dir = repo_tree();
    let out = run(dir.path(), ["check", "--statistics"]);
    assert_eq!(code(&out), 1, "deny-level findings still fail");
    assert_eq!(
        stdout(&out),
        "findings per rule:\n\
         2  U001  invalid_utf8   2 errors\n\
         1  U002  stray_feff     1 warning\n\
         1  U003  forbidden_bom  1 error, 1 fixable with --fix\n\
         \n\
         findings per file:\n\
         2  .github/workflows/ci.yml  (2 errors)\n\
         1  a.json  (1 error)\n\
         1  b.txt  (1 warning)\n"
    );

    let out = run(dir.path(), ["check", "--statistics", "--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    let rules: Vec<(&str, u64, u64)> = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["code"].as_str().unwrap(),
                r["count"].as_u64().unwrap(),
                r["fixable"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rules, [("U001", 2, 0), ("U002", 1, 0), ("U003", 1, 1)]);
    let files: Vec<(&str, u64, u64)> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap(),
                f["errors"].as_u64().unwrap(),
                f["warnings"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            (".github/workflows/ci.yml", 2, 0),
            ("a.json", 1, 0),
            ("b.txt", 0, 1)
        ]
    );

    // A clean tree has nothing to count.
    let clean = tree(&[("ok.txt", b"fine\n")]);
    let out = run(clean.path(), ["check", "--statistics"]);
    assert_eq!((code(&out), stdout(&out).as_str()), (0, ""));

    let out = run(dir.path(), ["check", "--statistics", "--format", "sarif"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--statistics prints a table"));
}

#[test]
fn statistics_escape_file_names() {
    let dir = tree(&[("bidi\u{202E}txt.json", BOM_JSON)]);
    let out = run(dir.path(), ["check", "--statistics"]);
    assert!(
        stdout(&out).contains("1  bidi\\u{202E}txt.json  (1 error)"),
        "{}",
        stdout(&out)
    );
    let out = run(dir.path(), ["check", "--statistics", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["files"][0]["path"], "bidi\u{202E}txt.json",
        "exact in JSON"
    );
}

#[test]
fn summary_groups_counts_by_rule() {
    let dir = repo_tree();
    let out = run(dir.path(), ["check", "--format", "concise"]);
    let err = stderr(&out);
    assert!(
        err.contains(
            "utf8lint: by rule: 2 U001 invalid_utf8 (2 errors), 1 U002 stray_feff (1 warning), 1 U003 forbidden_bom (1 error)\n"
        ),
        "{err}"
    );
    let clean = tree(&[("ok.txt", b"fine\n")]);
    assert!(!stderr(&run(clean.path(), ["check"])).contains("by rule"));
    assert!(!stderr(&run(dir.path(), ["check", "-q"])).contains("by rule"));
}

#[test]
fn exit_zero_keeps_trouble_at_two() {
    let dir = repo_tree();
    let out = run(dir.path(), ["check", "--exit-zero", "--format", "concise"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out).lines().count(), 4, "findings are still shown");
    let out = run(dir.path(), ["check", "--exit-zero", ".", "missing.txt"]);
    assert_eq!(code(&out), 2, "trouble is not a finding");
}

#[test]
fn output_file_holds_what_stdout_would() {
    let dir = repo_tree();
    let to_stdout = run(dir.path(), ["check", "--format", "json"]);
    let out = run(
        dir.path(),
        ["check", "--format", "json", "--output-file", "report.jsonl"],
    );
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "", "nothing on standard output");
    assert!(
        stderr(&out).contains("checked 4 files"),
        "the summary stays"
    );
    let written = std::fs::read(dir.path().join("report.jsonl")).unwrap();
    assert_eq!(written, to_stdout.stdout);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A new report gets the mode a plain `create` gives (0o666 less the
        // umask), not a temporary file's 0o600.
        let mode = |name: &str| {
            std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
        };
        std::fs::write(dir.path().join("plain.created"), "").unwrap();
        assert_eq!(mode("report.jsonl"), mode("plain.created"));
    }

    // An existing report is replaced whole, keeping its mode; the next
    // run's report does not include itself, and no temporary file is left.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let report = dir.path().join("report.txt");
        std::fs::write(
            &report,
            "old report, much longer than the new one\n".repeat(50),
        )
        .unwrap();
        std::fs::set_permissions(&report, std::fs::Permissions::from_mode(0o640)).unwrap();
        let out = run(
            dir.path(),
            ["check", "--statistics", "-o", "report.txt", "a.json"],
        );
        assert_eq!(code(&out), 1);
        assert_eq!(
            std::fs::read_to_string(&report).unwrap(),
            "findings per rule:\n1  U003  forbidden_bom  1 error, 1 fixable with --fix\n\n\
             findings per file:\n1  a.json  (1 error)\n"
        );
        let mode = std::fs::metadata(&report).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");

        // A symbolic link is not written through.
        std::os::unix::fs::symlink("clean.txt", dir.path().join("link.txt")).unwrap();
        let out = run(dir.path(), ["check", "-o", "link.txt", "a.json"]);
        assert_eq!(code(&out), 2);
        assert!(
            stderr(&out).contains("cannot write the report to link.txt: it is a symbolic link"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read(dir.path().join("clean.txt")).unwrap(),
            b"fine\n"
        );
    }

    // A directory that does not exist: exit 2, nothing left behind.
    let out = run(dir.path(), ["check", "-o", "no/such/dir/report.txt"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cannot write the report to no/such/dir/report.txt"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn hidden_files_are_checked_by_default() {
    let dir = tree(&[
        (".eslintrc.json", BOM_JSON),
        (".github/workflows/ci.yml", b"on: push\xEF\xBB\xBF\n"),
        (".git/info/bad.json", BOM_JSON),
    ]);
    let out = run(dir.path(), ["check", "--format", "json"]);
    assert_eq!(
        findings(&out),
        [
            (".eslintrc.json".to_owned(), "U003".to_owned()),
            (".github/workflows/ci.yml".to_owned(), "U002".to_owned()),
        ]
    );
    let out = run(dir.path(), ["check", "--no-hidden"]);
    assert_eq!(code(&out), 0);
    assert!(stderr(&out).contains("checked 0 files"));
}

#[test]
fn files_lists_what_would_be_checked_and_verbose_says_why_not() {
    let dir = tree(&[
        (".gitignore", b"build/\n"),
        (".utf8lintignore", b"*.log\n!keep.log\n"),
        ("src/a.rs", b"fn main() {}\n"),
        ("src/.hidden.toml", b"x = 1\n"),
        ("build/out.o", b"\0\0\0"),
        ("build/deep/more.o", b"\0"),
        ("noise.log", b"x\n"),
        ("keep.log", b"x\n"),
        ("named.log", b"x\n"),
    ]);
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("src/a.rs", dir.path().join("link.rs")).unwrap();

    let out = run(dir.path(), ["check", "--files"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        ".gitignore\n.utf8lintignore\nkeep.log\nsrc/.hidden.toml\nsrc/a.rs\n"
    );
    assert_eq!(stderr(&out), "", "nothing is checked, nothing summed up");

    // Named files are listed whatever the ignore files say.
    let out = run(dir.path(), ["check", "--files", ".", "named.log"]);
    assert_eq!(
        stdout(&out),
        ".gitignore\n.utf8lintignore\nkeep.log\nnamed.log\nsrc/.hidden.toml\nsrc/a.rs\n"
    );

    let out = run(dir.path(), ["check", "--files", "--verbose", "--no-hidden"]);
    assert_eq!(stdout(&out), "keep.log\nsrc/a.rs\n");
    let mut want = vec![
        "utf8lint: skipped .git: git's own directory, never entered",
        "utf8lint: skipped .gitignore: hidden (--no-hidden skips hidden files)",
        "utf8lint: skipped .utf8lintignore: hidden (--no-hidden skips hidden files)",
        "utf8lint: skipped build: ignored by .gitignore (`build/`)",
    ];
    #[cfg(unix)]
    want.push("utf8lint: skipped link.rs: a symbolic link (--follow follows links)");
    want.extend([
        "utf8lint: skipped named.log: ignored by .utf8lintignore (`*.log`)",
        "utf8lint: skipped noise.log: ignored by .utf8lintignore (`*.log`)",
        "utf8lint: skipped src/.hidden.toml: hidden (--no-hidden skips hidden files)",
    ]);
    assert_eq!(stderr(&out).lines().collect::<Vec<_>>(), want);

    // A directory named on the command line is walked even if ignored, as
    // when checking; binary files are listed (they are sniffed when read).
    let out = run(dir.path(), ["check", "--files", "build"]);
    assert_eq!(stdout(&out), "build/deep/more.o\nbuild/out.o\n");

    let out = run(dir.path(), ["check", "--files", "missing"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("missing: no such file or directory"));

    let out = run(dir.path(), ["check", "--files", "-o", "list.txt"]);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("list.txt")).unwrap(),
        ".gitignore\n.utf8lintignore\nkeep.log\nsrc/.hidden.toml\nsrc/a.rs\n"
    );
}
