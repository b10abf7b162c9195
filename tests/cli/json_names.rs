//! A file's name in JSON: written once as it is when it is UTF-8 (a `\`
//! included), with nothing in it that a terminal or viewer obeys left raw
//! (DEL, C1 controls, bidi controls, U+2028 and U+2029 are `\uXXXX`).

use crate::common::*;

const BAD: &[u8] = b"a\xFFb\n";

/// The raw text of the JSON output, and the paths it gives.
fn json_paths(dir: &std::path::Path, format: &str, extra: &[&str]) -> (String, Vec<String>) {
    let o = run(
        dir,
        [&["check", "--format", format][..], extra, &["."]].concat(),
    );
    let text = stdout(&o);
    let paths = json_lines(&o)
        .iter()
        .map(|v| v["path"].as_str().unwrap().to_owned())
        .collect();
    (text, paths)
}

#[cfg(unix)]
#[test]
fn a_utf8_name_with_a_backslash_is_written_once() {
    let dir = tree(&[("back\\slash.txt", BAD)]);
    for format in ["json", "json-lines"] {
        let (_, paths) = json_paths(dir.path(), format, &[]);
        assert_eq!(paths, ["back\\slash.txt"], "{format}");
        assert!(
            dir.path().join(&paths[0]).exists(),
            "the path names the file"
        );
    }
}

#[cfg(unix)]
#[test]
fn json_carries_no_raw_del_c1_bidi_or_line_separator_from_names() {
    let names = [
        "del\u{7F}.txt",
        "c1\u{85}\u{9B}.txt",
        "bidi\u{202E}\u{2066}\u{200F}\u{61C}.txt",
        "lines\u{2028}\u{2029}.txt",
    ];
    let files: Vec<(&str, &[u8])> = names.iter().map(|n| (*n, BAD)).collect();
    let dir = tree(&files);
    for (format, extra) in [
        ("json", &[][..]),
        ("json-lines", &[]),
        ("json", &["--statistics"]),
    ] {
        let o = run(
            dir.path(),
            [&["check", "--format", format][..], extra, &["."]].concat(),
        );
        let text = stdout(&o);
        for c in [
            '\u{7F}', '\u{85}', '\u{9B}', '\u{202E}', '\u{2066}', '\u{200F}', '\u{61C}',
            '\u{2028}', '\u{2029}',
        ] {
            assert!(!text.contains(c), "{format} {extra:?}: raw {c:?} in {text}");
        }
        assert!(
            text.contains("del\\u007f.txt"),
            "{format} {extra:?}: {text}"
        );
        assert!(
            text.contains("lines\\u2028\\u2029.txt"),
            "{format} {extra:?}: {text}"
        );
        // Read back, the names are the files' own.
        let value: Vec<serde_json::Value> = if extra.is_empty() {
            json_lines(&o)
        } else {
            let stats: serde_json::Value = serde_json::from_str(&text).unwrap();
            stats["files"].as_array().unwrap().clone()
        };
        let mut paths: Vec<&str> = value.iter().map(|v| v["path"].as_str().unwrap()).collect();
        paths.sort();
        let mut expected = names.to_vec();
        expected.sort();
        assert_eq!(paths, expected, "{format} {extra:?}");
    }
}
