//! The files generated from the rule table (the VS Code settings schema,
//! the editors' rule lists, `docs/rules.md`, U016's character tables) match
//! it.

use crate::common::*;

#[test]
fn generated_files_match_the_rule_table() {
    let out = run(&repo(), ["generate", "--check", "--root", "."]);
    assert_eq!(
        code(&out),
        0,
        "{}\nRegenerate them with `cargo run -- generate` at the repository's root.",
        stderr(&out)
    );
}

#[test]
fn the_vscode_schema_accepts_every_rule_name_and_code_and_nothing_else() {
    let package: serde_json::Value =
        serde_json::from_slice(&std::fs::read(repo().join("editors/vscode/package.json")).unwrap())
            .unwrap();
    let lints = &package["contributes"]["configuration"]["properties"]["utf8lint.lints"];
    assert_eq!(lints["additionalProperties"], false);
    let rules: Vec<serde_json::Value> =
        serde_json::from_str(&stdout(&run(&repo(), ["rules", "--format", "json"]))).unwrap();
    let properties = lints["properties"].as_object().unwrap();
    assert_eq!(properties.len(), rules.len() * 2);
    for rule in &rules {
        for key in ["name", "code"] {
            let property = &properties[rule[key].as_str().unwrap()];
            assert_eq!(
                property["enum"],
                serde_json::json!(["allow", "warn", "deny"])
            );
        }
    }
}

#[test]
fn generate_check_names_the_stale_file_and_the_command() {
    let dir = tree(&[
        ("docs/rules.md", b"old\n"),
        (
            "editors/vscode/package.json",
            &std::fs::read(repo().join("editors/vscode/package.json")).unwrap(),
        ),
        (
            "editors/vscode/README.md",
            &std::fs::read(repo().join("editors/vscode/README.md")).unwrap(),
        ),
        ("editors/neovim/README.md", b"no markers here\n"),
    ]);
    let out = run(dir.path(), ["generate", "--check"]);
    assert_eq!(
        code(&out),
        2,
        "the README without markers is trouble: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("markers"), "{}", stderr(&out));
    std::fs::write(
        dir.path().join("editors/neovim/README.md"),
        "# x\n<!-- begin rules: generated from the rule table by `utf8lint generate` -->\nstale\n<!-- end rules -->\nafter\n",
    )
    .unwrap();
    let out = run(dir.path(), ["generate", "--check"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(
        err.contains("docs/rules.md, editors/neovim/README.md"),
        "{err}"
    );
    assert!(err.contains("run `cargo run -- generate`"), "{err}");
    assert_eq!(
        std::fs::read(dir.path().join("docs/rules.md")).unwrap(),
        b"old\n",
        "--check writes nothing"
    );
    let out = run(dir.path(), ["generate"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let readme = std::fs::read_to_string(dir.path().join("editors/neovim/README.md")).unwrap();
    assert!(readme.starts_with("# x\n<!-- begin rules"), "{readme}");
    assert!(readme.contains("| [U001]("), "{readme}");
    assert!(readme.ends_with("<!-- end rules -->\nafter\n"), "{readme}");
    assert!(!readme.contains("stale"));
    assert_eq!(code(&run(dir.path(), ["generate", "--check"])), 0);
}

/// What `rules --format json` says of each rule's fixes holds for the
/// findings of the byte fixtures and of a sample of every rule: a rule
/// with no fix offers none, one that always has a fix offers it every time,
/// and the fixes are as safe as the table says.
#[test]
fn the_fixability_column_holds_for_real_findings() {
    let samples = tree(&[
        ("utf8lint.toml", b"[bom]\n\"*.csv\" = \"require\"\n"),
        ("missing.csv", b"a,b\n"),
        ("replaced.txt", "lost \u{FFFD} byte\n".as_bytes()),
        ("mojibake.md", "caf\u{C3}\u{A9} au lait\n".as_bytes()),
        (
            "declared.xml",
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf\xC3\xA9</a>\n",
        ),
        ("bidi.py", "x = 1 # \u{202E} reversed\n".as_bytes()),
        (
            "zwsp.txt",
            "zero\u{200B}width, soft\u{AD}hyphen\n".as_bytes(),
        ),
        ("nonchar.txt", "a\u{FDD0}b\n".as_bytes()),
        ("control.txt", b"ring the bell\x07 here\n"),
        ("unused.py", b"x = 1  # utf8lint: allow(stray_feff)\n"),
        (
            "confusable.txt",
            "log in to p\u{430}ypal today\n".as_bytes(),
        ),
        (
            "lookalike.py",
            "x = 1\u{A0}+ 2\nprint(\u{201C}hi\u{201D})\n".as_bytes(),
        ),
        (
            "AGENTS.md",
            "Use tabs.\u{E0072}\u{E0075}\u{E006E}\n".as_bytes(),
        ),
    ]);
    let mut findings = Vec::new();
    // The repository's own utf8lint.toml allows the fixtures' findings:
    // they are read in isolation.
    for (dir, config, path) in [
        (samples.path(), "--trust-config", "."),
        (&repo(), "--isolated", "tests/fixtures"),
    ] {
        let out = run(
            dir,
            [
                "check",
                config,
                "--no-skip-binary",
                "-W",
                "non_ascii",
                "--format",
                "json-lines",
                path,
            ],
        );
        findings.extend(json_lines(&out));
    }
    let rules: Vec<serde_json::Value> =
        serde_json::from_str(&stdout(&run(&repo(), ["rules", "--format", "json"]))).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for finding in &findings {
        let code = finding["code"].as_str().unwrap();
        seen.insert(code.to_owned());
        let rule = rules.iter().find(|r| r["code"] == code).unwrap();
        let fix = &finding["fix"];
        match rule["fix_availability"].as_str().unwrap() {
            "none" => assert!(
                fix.is_null(),
                "{code} has no fix, says the table: {finding}"
            ),
            "always" => assert!(
                !fix.is_null(),
                "{code} always has a fix, says the table: {finding}"
            ),
            _ => {}
        }
        let applicability = fix["applicability"].as_str();
        match (rule["fix_safety"].as_str(), applicability) {
            (Some("safe"), Some(a)) | (Some("unsafe"), Some(a)) => {
                assert_eq!(Some(a), rule["fix_safety"].as_str(), "{code}: {finding}")
            }
            _ => {}
        }
    }
    // Every rule but U006 (a name that is not UTF-8, which not every file
    // system can hold) was seen.
    for rule in &rules {
        let code = rule["code"].as_str().unwrap();
        assert!(
            code == "U006" || seen.contains(code),
            "no sample of {code}: {seen:?}"
        );
    }
}
