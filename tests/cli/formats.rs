//! Every output format, on the committed fixtures.

use serde_json::Value;

use crate::common::*;

/// `--isolated`: these tests are about utf8lint's defaults on the
/// fixtures, not about the repository's own utf8lint.toml, which accepts
/// them.
fn mixed(args: &[&str]) -> std::process::Output {
    let mut all = vec!["check", "--isolated"];
    all.extend_from_slice(args);
    all.push("mixed");
    run(&repo().join("tests/fixtures"), all)
}

#[test]
fn json_lines_schema_field_by_field() {
    let out = run(
        &repo().join("tests/fixtures"),
        [
            "check",
            "--isolated",
            "--format",
            "json",
            "mixed/bad.txt",
            "mixed/bom.json",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines = json_lines(&out);
    // Files in path order, each file's findings in byte order.
    let bad: Vec<&Value> = lines
        .iter()
        .filter(|v| v["path"] == "mixed/bad.txt")
        .collect();
    assert_eq!(bad.len(), 2);
    let d = bad[0];
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "path",
            "code",
            "rule",
            "level",
            "message",
            "label",
            "byte_start",
            "byte_end",
            "line",
            "column",
            "end_line",
            "end_column",
            "subparts",
            "notes",
            "help",
            "policy_source",
            "related",
            "fix",
            "alternatives"
        ]
    );
    assert_eq!(d["code"], "U001");
    assert_eq!(d["rule"], "invalid_utf8");
    assert_eq!(d["level"], "deny");
    assert_eq!(d["message"], "overlong 2-byte encoding of U+002E FULL STOP");
    assert_eq!(d["label"], "`\\xC0\\xAE`");
    // "naïve café — ok\n" is 20 bytes, "dot: " 5 more.
    assert_eq!(
        (d["byte_start"].as_u64(), d["byte_end"].as_u64()),
        (Some(25), Some(27))
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(6))
    );
    // The end column counts each maximal subpart as one character.
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(2), Some(8))
    );
    assert_eq!(
        d["subparts"],
        serde_json::json!([
            {"offset": 25, "len": 1, "kind": "invalid_lead_byte"},
            {"offset": 26, "len": 1, "kind": "unexpected_continuation"}
        ])
    );
    assert!(
        d["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("RFC 3629"))
    );
    assert_eq!(d["policy_source"], Value::Null);
    let fix = &d["fix"];
    assert_eq!(fix["applicability"], "unsafe");
    assert_eq!(
        fix["edits"],
        serde_json::json!([
            {"byte_start": 25, "byte_end": 26, "replacement_hex": "efbfbd", "replacement_escaped": "\u{FFFD}"},
            {"byte_start": 26, "byte_end": 27, "replacement_hex": "efbfbd", "replacement_escaped": "\u{FFFD}"}
        ])
    );
    let cesu = bad[1];
    assert_eq!(
        (cesu["line"].as_u64(), cesu["column"].as_u64()),
        (Some(3), Some(12))
    );
    let kinds: Vec<&str> = cesu["subparts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "surrogate",
            "unexpected_continuation",
            "unexpected_continuation",
            "surrogate",
            "unexpected_continuation",
            "unexpected_continuation"
        ]
    );

    let bom = lines
        .iter()
        .find(|v| v["path"] == "mixed/bom.json")
        .unwrap();
    assert_eq!(bom["code"], "U003");
    assert_eq!(bom["rule"], "forbidden_bom");
    assert_eq!(bom["subparts"], serde_json::json!([]));
    assert!(bom["policy_source"].as_str().unwrap().contains("RFC 8259"));
    assert_eq!(bom["fix"]["applicability"], "safe");
    assert_eq!(
        bom["fix"]["edits"],
        serde_json::json!([{"byte_start": 0, "byte_end": 3, "replacement_hex": "", "replacement_escaped": ""}])
    );
}

#[test]
fn json_output_is_sorted_by_path_and_deterministic() {
    let a = mixed(&["--format", "json", "-j", "4"]);
    let b = mixed(&["--format", "json", "-j", "1"]);
    assert_eq!(a.stdout, b.stdout);
    let paths: Vec<String> = findings(&a).into_iter().map(|(p, _)| p).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert!(!paths.is_empty());
}

#[test]
fn concise_is_one_line_each() {
    let out = mixed(&["--format", "concise"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "mixed/bad.txt:2:6: error[U001] overlong 2-byte encoding of U+002E FULL STOP\n"
        ),
        "{text}"
    );
    assert!(text.contains("mixed/bom.json:1:1: error[U003] JSON forbids a byte-order mark\n"));
    assert!(text.contains("mixed/feff.txt:1:5: warning[U002] "));
    assert_eq!(text.lines().count(), 7, "{text}");
}

#[test]
fn human_is_rustc_style_without_colour_when_piped() {
    let out = mixed(&[]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "error[U001]: overlong 2-byte encoding of U+002E FULL STOP\n --> mixed/bad.txt:2:6\n"
        ),
        "{text}"
    );
    assert!(text.contains("`\\xC0\\xAE`"));
    assert!(!text.contains('\x1b'), "no colour when piped");
    let summary = stderr(&out);
    assert!(summary.contains("checked 7 files"), "{summary}");
    assert!(
        summary.contains("6 errors, 1 warning; 1 binary file skipped"),
        "{summary}"
    );
    // --color always forces colour; NO_COLOR does not override an explicit choice.
    let coloured = mixed(&["--color", "always"]);
    assert!(stdout(&coloured).contains('\x1b'));
    let never = mixed(&["--color", "never"]);
    assert!(!stdout(&never).contains('\x1b'));
}

#[test]
fn github_workflow_commands() {
    let out = mixed(&["--format", "github"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(
            "::error file=mixed/bad.txt,line=2,col=6,endLine=2,endColumn=8,title=U001 invalid_utf8::overlong 2-byte encoding of U+002E FULL STOP (`\\xC0\\xAE`)\n"
        ),
        "{text}"
    );
    assert!(text.contains("::warning file=mixed/feff.txt,line=1,col=5,"));
    // Property values escape `:` and `,`; messages escape `%`, CR and LF.
    let dir = tree(&[("a,b:c%.json", b"\xEF\xBB\xBF{}")]);
    let out = run(dir.path(), ["check", "--format", "github"]);
    assert!(
        stdout(&out).starts_with("::error file=a%2Cb%3Ac%25.json,line=1,"),
        "{}",
        stdout(&out)
    );
}

fn assert_valid_sarif(log: &Value) {
    let schema: Value =
        serde_json::from_slice(&std::fs::read(fixture("sarif-schema-2.1.0.json")).unwrap())
            .unwrap();
    let validator = jsonschema::draft4::new(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// U005 replaces the per-byte findings; every other ill-formed stretch is
/// still listed: JSON's `related` and SARIF's `relatedLocations` (byte
/// regions) say the same.
#[test]
fn every_ill_formed_stretch_of_a_legacy_file_is_listed_in_json_and_sarif() {
    let french = "Le café est crème, la crêpe est brûlée, et l'été à Noël déçoit \
                  rarement les élèves qui préfèrent la fête.\n";
    let latin1: Vec<u8> = french.chars().map(|c| c as u8).collect();
    // Adjacent ill-formed bytes (`ëç` in `Noël déçoit`) are one stretch.
    let mut stretches: Vec<[usize; 2]> = Vec::new();
    for (i, _) in latin1.iter().enumerate().filter(|(_, b)| **b >= 0x80) {
        match stretches.last_mut() {
            Some(last) if last[1] == i => last[1] = i + 1,
            _ => stretches.push([i, i + 1]),
        }
    }
    let dir = tree(&[("fr.txt", &latin1)]);
    let json = run(dir.path(), ["check", "--format", "json"]);
    let finding = &json_lines(&json)[0];
    assert_eq!(finding["code"], "U005");
    let related: Vec<[usize; 2]> = serde_json::from_value(finding["related"].clone()).unwrap();
    assert_eq!(related, stretches[1..]);
    let sarif = run(dir.path(), ["check", "--format", "sarif"]);
    let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_valid_sarif(&log);
    let result = &log["runs"][0]["results"][0];
    let regions: Vec<[usize; 2]> = result["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let region = &l["physicalLocation"]["region"];
            let start = region["byteOffset"].as_u64().unwrap() as usize;
            [
                start,
                start + region["byteLength"].as_u64().unwrap() as usize,
            ]
        })
        .collect();
    assert_eq!(regions, stretches[1..]);
    assert_eq!(result["properties"]["relatedCount"], stretches.len() - 1);
}

/// U005's `subparts` are what U001 would have shown under the same cap
/// (the subparts of its first `max-per-file` runs), not every byte of a
/// legacy file; `related` still lists every stretch.
#[test]
fn a_legacy_files_subparts_are_those_u001_would_show() {
    let line = "Le café est crème, la crêpe est brûlée, et l'été à Noël déçoit.\n";
    let latin1: Vec<u8> = line.repeat(40).chars().map(|c| c as u8).collect();
    // Runs of adjacent ill-formed bytes, as U001 forms them.
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (i, _) in latin1.iter().enumerate().filter(|(_, b)| **b >= 0x80) {
        match runs.last_mut() {
            Some(run) if run.last() == Some(&(i - 1)) => run.push(i),
            _ => runs.push(vec![i]),
        }
    }
    assert!(runs.len() > 300, "{}", runs.len());
    let dir = tree(&[("fr.txt", &latin1)]);
    let offsets = |args: &[&str]| -> (Vec<usize>, usize) {
        let out = run(dir.path(), ["check", "--format", "json"].iter().chain(args));
        let finding = &json_lines(&out)[0];
        assert_eq!(finding["code"], "U005");
        let subparts = finding["subparts"].as_array().unwrap();
        let offsets = subparts
            .iter()
            .map(|s| s["offset"].as_u64().unwrap() as usize)
            .collect();
        (offsets, finding["related"].as_array().unwrap().len())
    };
    let first = |n: usize| -> Vec<usize> { runs.iter().take(n).flatten().copied().collect() };
    assert_eq!(offsets(&[]), (first(50), runs.len() - 1));
    assert_eq!(
        offsets(&["--max-per-file", "7"]),
        (first(7), runs.len() - 1)
    );
    assert_eq!(
        offsets(&["--max-per-file", "0"]),
        (first(runs.len()), runs.len() - 1)
    );
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let out = mixed(&["--format", "sarif"]);
    assert_eq!(code(&out), 1);
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_valid_sarif(&log);

    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    // Every rule: one explanation file each.
    let explanations = std::fs::read_dir(repo().join("crates/diagnostics/explanations"))
        .unwrap()
        .count();
    assert_eq!(rules.len(), explanations);
    for rule in rules {
        for key in [
            "id",
            "name",
            "shortDescription",
            "fullDescription",
            "help",
            "helpUri",
            "defaultConfiguration",
        ] {
            assert!(!rule[key].is_null(), "rule lacks {key}: {rule}");
        }
        assert!(
            rule["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains(rule["id"].as_str().unwrap())
        );
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 7);
    let r = results
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("overlong")
        })
        .unwrap();
    assert_eq!(r["ruleId"], "U001");
    assert_eq!(r["level"], "error");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "mixed/bad.txt");
    assert_eq!(loc["region"]["startLine"], 2);
    assert_eq!(loc["region"]["startColumn"], 6);
    assert_eq!(loc["region"]["endColumn"], 8);
    // The rule index points at the rule.
    let index = r["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "U001");
}

#[test]
fn sarif_uris_are_relative_to_the_working_directory() {
    let dir = tree(&[("sub dir/x.json", b"\xEF\xBB\xBF{}")]);
    let abs = dir.path().join("sub dir");
    let out = run(
        dir.path(),
        [
            std::ffi::OsStr::new("check"),
            "--format".as_ref(),
            "sarif".as_ref(),
            abs.as_os_str(),
        ],
    );
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    assert_eq!(uri, "sub%20dir/x.json");
}

/// Trouble (here a named path that is not there, and a configuration that
/// does not parse) is on standard error in every format, and also in the
/// formats a CI service reads: SARIF's tool execution notifications, with
/// the path's location, and a GitHub error annotation on the file. The
/// findings of the files that could be checked are reported as ever.
#[test]
fn trouble_reaches_standard_error_sarif_and_github_annotations() {
    let dir = tree(&[("a.json", b"\xEF\xBB\xBF{}")]);
    let check = |format: &str| {
        run(
            dir.path(),
            ["check", "--format", format, "a.json", "gone\u{202E}.txt"],
        )
    };
    let line = "utf8lint: error: gone\\u{202E}.txt: no such file or directory\n";
    for format in ["human", "concise", "json", "json-lines", "sarif", "github"] {
        let out = check(format);
        assert_eq!(code(&out), 2, "{format}");
        assert!(stderr(&out).starts_with(line), "{format}: {}", stderr(&out));
        assert!(stdout(&out).contains("a.json"), "{format}");
    }
    let json: Value = serde_json::from_slice(&check("json").stdout).unwrap();
    let objects = json.as_array().unwrap();
    assert_eq!(objects.len(), 2, "the finding and the trouble: {json}");
    assert!(objects[0]["code"].is_string(), "{json}");
    let trouble = &objects[1];
    assert!(trouble.get("code").is_none(), "{json}");
    assert_eq!(trouble["trouble"], "read", "{json}");
    // The name as it is (JSON escapes it), the reason in words.
    assert_eq!(trouble["path"], "gone\u{202E}.txt", "{json}");
    assert_eq!(trouble["message"], "no such file or directory", "{json}");

    let log: Value = serde_json::from_slice(&check("sarif").stdout).unwrap();
    assert_valid_sarif(&log);
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(
        invocation["toolExecutionNotifications"],
        serde_json::json!([{
            "level": "error",
            "message": {"text": "gone\\u{202E}.txt: no such file or directory"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "gone%E2%80%AE.txt"}}}],
        }])
    );

    // In path order with the findings.
    let text = stdout(&check("github"));
    assert!(text.starts_with("::error file=a.json,line=1,"), "{text}");
    assert!(
        text.ends_with(
            "\n::error file=gone\\u{202E}.txt,title=utf8lint trouble::gone\\u{202E}.txt: no such file or directory\n"
        ),
        "{text}"
    );

    // A configuration error names the configuration file in its words and
    // has no location of its own.
    let dir = tree(&[("utf8lint.toml", b"bom = [\n"), ("a.json", b"{}")]);
    let out = run(dir.path(), ["check", "--format", "sarif", "a.json"]);
    assert_eq!(code(&out), 2);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&log);
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    let text = notes[0]["message"]["text"].as_str().unwrap();
    assert!(text.starts_with("bad configuration: "), "{text}");
    assert!(text.contains("utf8lint.toml"), "{text}");
    assert!(notes[0].get("locations").is_none(), "{notes}");
    assert_eq!(notes.as_array().map(Vec::len), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("utf8lint: error: {text}\n")),
        "{err}"
    );
}
