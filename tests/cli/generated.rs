//! The files generated from the rule table (the VS Code settings schema,
//! the editors' rule lists, `docs/rules.md`) match it.

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
