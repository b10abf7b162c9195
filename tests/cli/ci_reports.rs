//! `--format gitlab` (GitLab Code Quality) and `--format junit`, checked
//! against what their consumers require: GitLab's keys and types, and
//! fingerprints that survive other lines moving; JUnit XML that an XML
//! parser reads, with names from outside escaped.

use std::process::Command;

use serde_json::Value;

use crate::common::*;

const SEVERITIES: [&str; 5] = ["info", "minor", "major", "critical", "blocker"];

/// The report's issues, each checked for the fields GitLab's Code Quality
/// schema requires, with their types.
fn gitlab_issues(o: &std::process::Output) -> Vec<Value> {
    let report: Value = serde_json::from_str(&stdout(o)).expect("a JSON document");
    let issues = report.as_array().expect("an array of issues").clone();
    for issue in &issues {
        let s = |key: &str| {
            issue[key]
                .as_str()
                .unwrap_or_else(|| panic!("{key}: {issue}"))
        };
        assert!(!s("description").is_empty(), "{issue}");
        assert!(!s("check_name").is_empty(), "{issue}");
        assert!(!s("fingerprint").is_empty(), "{issue}");
        assert!(SEVERITIES.contains(&s("severity")), "{issue}");
        assert!(!issue["location"]["path"].as_str().unwrap().is_empty());
        assert!(
            issue["location"]["lines"]["begin"].as_u64().unwrap() >= 1,
            "{issue}"
        );
    }
    issues
}

fn by_description(issues: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = issues
        .iter()
        .map(|i| {
            (
                format!("{} {}", i["location"]["path"], i["description"]),
                i["fingerprint"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn gitlab_report_has_the_schema_s_fields_and_stable_fingerprints() {
    let text = "a\u{FEFF}b\nsame\u{FEFF}\nsame\u{FEFF}\n";
    let dir = tree(&[
        ("src/a.txt", text.as_bytes()),
        ("b.json", b"\xEF\xBB\xBF{}\n"),
        ("clean.txt", b"fine\n"),
    ]);
    let out = run(dir.path(), ["check", "--format", "gitlab"]);
    assert_eq!(code(&out), 1);
    let issues = gitlab_issues(&out);
    assert_eq!(issues.len(), 4, "{}", stdout(&out));
    let json = issues
        .iter()
        .find(|i| i["location"]["path"] == "b.json")
        .unwrap();
    assert_eq!(json["severity"], "major");
    assert_eq!(json["check_name"], "U003 forbidden_bom");
    let prints: std::collections::HashSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(prints.len(), 4, "two equal findings are told apart");
    let before = by_description(&issues);
    // Lines added above the findings move them, not their fingerprints.
    std::fs::write(
        dir.path().join("src/a.txt"),
        format!("new line\nanother\n{text}"),
    )
    .unwrap();
    let moved = gitlab_issues(&run(dir.path(), ["check", "--format", "gitlab"]));
    let lines: Vec<u64> = moved
        .iter()
        .filter(|i| i["location"]["path"] == "src/a.txt")
        .map(|i| i["location"]["lines"]["begin"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [3, 4, 5]);
    assert_eq!(by_description(&moved), before);
    // No finding: an empty array.
    let clean = run(dir.path(), ["check", "--format", "gitlab", "clean.txt"]);
    assert_eq!(stdout(&clean), "[]\n");
}

/// Whether Python's XML parser reads `xml`; `None` when there is no python3.
fn python_parses(xml: &[u8]) -> Option<Result<(), String>> {
    let script = "import sys, xml.etree.ElementTree as ET\nroot = ET.fromstring(sys.stdin.buffer.read())\nsuite = root.find('testsuite')\ncases = suite.findall('testcase')\nassert int(suite.get('tests')) == len(cases), (suite.get('tests'), len(cases))\nassert int(suite.get('failures')) == len([c for c in cases if c.find('failure') is not None])\nassert int(suite.get('errors')) == len([c for c in cases if c.find('error') is not None])\nprint(len(cases))\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child.stdin.take().unwrap().write_all(xml).unwrap();
    let out = child.wait_with_output().unwrap();
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

#[test]
fn junit_report_is_xml_with_a_case_per_finding_and_names_escaped() {
    let dir = tree(&[
        ("a&<b>\"'.txt", "x\u{FEFF}y\n".as_bytes()),
        ("c.json", b"\xEF\xBB\xBF{}\n"),
        ("ctl\x1b[31m.txt", "z\u{FEFF}\n".as_bytes()),
    ]);
    let out = run(
        dir.path(),
        ["check", "--format", "junit", ".", "missing.txt"],
    );
    assert_eq!(code(&out), 2, "the missing file is trouble");
    let xml = out.stdout.clone();
    let text = stdout(&out);
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert!(
        text.contains("classname=\"a&amp;&lt;b&gt;&quot;&apos;.txt\""),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no raw control from a name: {text:?}"
    );
    assert!(
        text.contains("tests=\"4\" failures=\"3\" errors=\"1\""),
        "{text}"
    );
    assert!(text.contains("<failure type=\"U003\""), "{text}");
    match python_parses(&xml) {
        Some(result) => result.expect("python3's XML parser reads the report"),
        None => eprintln!("NOTICE: python3 not found; the JUnit report is not parsed"),
    }
    if have("xmllint") {
        let file = dir.path().join("report.xml");
        std::fs::write(&file, &xml).unwrap();
        let lint = Command::new("xmllint")
            .arg("--noout")
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            lint.status.success(),
            "{}",
            String::from_utf8_lossy(&lint.stderr)
        );
    } else {
        eprintln!("NOTICE: xmllint not found; skipping its check of the JUnit report");
    }
    // No finding: one passing case, so the report says the check ran.
    let clean = tree(&[("ok.txt", b"fine\n")]);
    let out = run(clean.path(), ["check", "--format", "junit"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.contains("tests=\"1\" failures=\"0\" errors=\"0\""),
        "{text}"
    );
    if let Some(result) = python_parses(&out.stdout) {
        result.unwrap();
    }
}
