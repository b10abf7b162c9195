//! Binary files named on the command line: skipped with their kind (never
//! checked as text, never fixed) unless `--no-skip-binary`, in every output.
//! The files are small synthetic ones of the shapes that were rewritten as
//! text: a raw PBM image and a zlib-compressed git object without a NUL
//! byte, and the headers of GIF, JPEG, PNG, WebP, MP4, XLSX and BMP files.

use crate::common::{code, json_lines, run, stderr, tree};

/// The compressed form of the object body written below, as
/// `zlib.compress(data, 1)` gives it; it holds no NUL byte.
const GIT_OBJECT: &[u8] = b"\x78\x01\xCD\xCE\x3B\x12\xC2\x30\x0C\x04\x50\xEA\x9C\x62\x0F\x40\x41\x86\x86\xEB\xF8\x23\x63\x41\x6C\x65\x2C\x85\x24\xB7\x47\xC3\x29\x68\xB6\xDA\x79\xBB\x71\x91\x88\xFB\x7C\xBB\x24\x69\x8D\x0D\x8D\x54\xC3\x93\xB0\x70\x27\x14\x19\x08\xD0\xB3\x5B\x25\xE3\x84\xC2\x87\x6D\x83\x20\x05\x9B\x95\x87\x77\xEC\x8A\x9D\xAD\x42\xE9\x43\x23\x2C\xD8\x65\x64\x9D\x54\x60\x35\x98\x07\xC1\xDD\x75\x38\xEA\xD4\xCA\xE9\xAD\xC8\x67\x0F\xCD\xB1\x24\x99\xF4\x37\x61\x95\x15\x12\x5F\x94\x0C\x51\xF2\x89\xD0\x33\x9A\xF8\x90\xD1\x61\xD3\xFF\x3E\x9B\xA7\x2F\xA2\xD5\x74\x29";

/// A 9x9 raw bitmap: the header, then two bytes a row, none NUL.
fn pbm() -> Vec<u8> {
    let mut image = b"P4\n9 9\n".to_vec();
    for row in 0..9u8 {
        image.extend([0xC1 ^ row, 0x80]);
    }
    image
}

/// (name, bytes, the kind reported)
fn files() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    vec![
        ("icon.pbm", pbm(), "raw PBM image"),
        (
            "objects/3f/0123456789abcdef0123456789abcdef012345",
            GIT_OBJECT.to_vec(),
            "git loose object",
        ),
        (
            "a.gif",
            b"GIF89a\x10\x00\x10\x00\xF0\x01\x00".to_vec(),
            "GIF image",
        ),
        (
            "a.jpg",
            b"\xFF\xD8\xFF\xE0\x10JFIF\xC0\xAF caf\xE9".to_vec(),
            "JPEG image",
        ),
        (
            "a.png",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0".to_vec(),
            "PNG image",
        ),
        (
            "a.webp",
            b"RIFF\x24\x01\x00\x00WEBPVP8 \x18\x01\x00\x00".to_vec(),
            "WebP image",
        ),
        (
            "a.mp4",
            b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00".to_vec(),
            "MP4 video",
        ),
        (
            "a.xlsx",
            [
                &b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00"[..],
                &[0xAA; 16],
                b"\x13\x00\x00\x00[Content_Types].xml",
            ]
            .concat(),
            // Its first entry only: an OOXML document's kind is in the
            // names of the next ones.
            "ZIP archive",
        ),
        (
            "a.bmp",
            b"BM6\x0C\x03\x00\x00\x00\x00\x006\x00\x00\x00(\x00".to_vec(),
            "BMP image",
        ),
    ]
}

#[test]
fn named_binary_files_are_skipped_with_their_kind() {
    let files = files();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b, _)| (*n, b.as_slice())).collect();
    let dir = tree(&entries);
    let names: Vec<&str> = files.iter().map(|(n, _, _)| *n).collect();

    let out = run(dir.path(), [&["check"][..], &names].concat());
    let err = stderr(&out);
    assert_eq!(code(&out), 0, "{err}");
    assert!(
        out.stdout.is_empty(),
        "no finding: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    for (name, _, kind) in &files {
        let line =
            format!("utf8lint: skipped {name}: binary ({kind}); --no-skip-binary checks it\n");
        assert!(err.contains(&line), "{line}\n{err}");
    }
    assert!(
        err.contains(&format!("{} binary files skipped", files.len())),
        "{err}"
    );

    // JSON: an object per skipped file, with its kind.
    for format in ["json", "json-lines"] {
        let out = run(
            dir.path(),
            [&["check", "--format", format][..], &names].concat(),
        );
        let lines = json_lines(&out);
        assert_eq!(lines.len(), files.len(), "{lines:?}");
        for (name, _, kind) in &files {
            let entry = serde_json::json!({"path": name, "skipped": format!("binary ({kind})")});
            assert!(lines.contains(&entry), "{entry} in {lines:?}");
        }
    }
}

/// `--fix --unsafe-fixes` and `--diff` leave every named binary file as it
/// was; `--no-skip-binary` checks them as text, as before.
#[test]
fn named_binary_files_are_never_fixed() {
    let files = files();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b, _)| (*n, b.as_slice())).collect();
    let dir = tree(&entries);
    let names: Vec<&str> = files.iter().map(|(n, _, _)| *n).collect();
    let fixed = run(
        dir.path(),
        [&["check", "--fix", "--unsafe-fixes"][..], &names].concat(),
    );
    assert_eq!(code(&fixed), 0, "{}", stderr(&fixed));
    let diff = run(
        dir.path(),
        [&["check", "--diff", "--unsafe-fixes"][..], &names].concat(),
    );
    assert!(
        diff.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&diff.stdout)
    );
    for (name, bytes, _) in &files {
        assert_eq!(
            &std::fs::read(dir.path().join(name)).unwrap(),
            bytes,
            "{name}"
        );
    }
    // The image and the object were U001 findings when named.
    let out = run(
        dir.path(),
        [
            "check",
            "--no-skip-binary",
            "--format",
            "json",
            "icon.pbm",
            names[1],
        ],
    );
    let checked = json_lines(&out);
    for name in ["icon.pbm", names[1]] {
        assert!(
            checked
                .iter()
                .any(|v| v["path"] == name && v["code"].is_string()),
            "{name}: {checked:?}"
        );
    }
    assert!(!stderr(&out).contains("skipped"), "{}", stderr(&out));
}

/// A walked binary file is skipped as before: counted, and named only
/// under `--verbose`, with the same words.
#[test]
fn walked_binary_files_say_their_kind_under_verbose() {
    let dir = tree(&[("icon.pbm", &pbm()), ("ok.txt", b"fine\n")]);
    let quiet = run(dir.path(), ["check", "."]);
    assert!(
        !stderr(&quiet).contains("skipped icon.pbm"),
        "{}",
        stderr(&quiet)
    );
    assert!(
        stderr(&quiet).contains("1 binary file skipped"),
        "{}",
        stderr(&quiet)
    );
    assert!(quiet.stdout.is_empty());
    let verbose = run(dir.path(), ["check", "--verbose", "--format", "json", "."]);
    assert!(
        stderr(&verbose).contains("skipped icon.pbm: binary (raw PBM image)"),
        "{}",
        stderr(&verbose)
    );
    // Only findings in the report of a walk.
    assert_eq!(json_lines(&verbose), Vec::<serde_json::Value>::new());
}

/// A walk under `--fix --unsafe-fixes` leaves them all as they were too:
/// the raw image and the compressed object, which hold no NUL byte, were
/// rewritten as text before.
#[test]
fn walked_binary_files_are_never_fixed() {
    let files = files();
    let mut entries: Vec<(&str, &[u8])> =
        files.iter().map(|(n, b, _)| (*n, b.as_slice())).collect();
    entries.push(("notes.txt", b"caf\xC3\xA9 text\n"));
    let dir = tree(&entries);
    let out = run(dir.path(), ["check", "--fix", "--unsafe-fixes", "."]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{} binary files skipped", files.len())),
        "{}",
        stderr(&out)
    );
    for (name, bytes, _) in &files {
        assert_eq!(
            &std::fs::read(dir.path().join(name)).unwrap(),
            bytes,
            "{name}"
        );
    }
}
