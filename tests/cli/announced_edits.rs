//! JSON fixes are the truth: over a seeded corpus of fuzzed files, the
//! edits `--format json` announces (planned as `--fix` plans them: sorted
//! by range, a fix that overlaps one before it left out) give exactly the
//! bytes `--fix --unsafe-fixes` writes, for every fix kind, the transcoding
//! ones (`decode_from`) included; or they are the fix gate's first round
//! (what it writes is those bytes fixed again), or the gate refused the
//! file and said so.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// xorshift64*: the corpus is the same on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces a file is made of: text, and the defects of every rule that has
/// a fix.
const PIECES: &[&[u8]] = &[
    b"plain words ",
    b"caf\xC3\xA9 ",
    b"\n",
    b"\r\n",
    b"\xEF\xBB\xBF",
    b"\xFF",
    b"\xC0\xAE",
    b"\xED\xA0\x80",
    b"\xE2\x82",
    b"\xE9t\xE9 ",
    b"\xEF\xBF\xBD",
    b"\xE2\x80\xAE",
    b"\xC2\xA0",
    b"// utf8lint: allow(U001)\n",
    b"{\"k\": \"v\"}",
];

/// Whole files in another encoding: windows-1252 prose and UTF-16.
fn legacy(rng: &mut Rng) -> Vec<u8> {
    let latin1: &[u8] = b"Le caf\xE9 \xE9tait tr\xE8s fr\xE9quent\xE9 par des \xE9l\xE8ves; d\xE9j\xE0 l'\xE9t\xE9 arrivait, et la cr\xE8me br\xFBl\xE9e \xE9tait servie \xE0 la fen\xEAtre.\n";
    match rng.below(3) {
        0 => latin1.repeat(1 + rng.below(4)),
        1 => {
            let mut out = vec![0xFF, 0xFE];
            for unit in "Grüße aus Köln, 東京\n"
                .repeat(1 + rng.below(3))
                .encode_utf16()
            {
                out.extend_from_slice(&unit.to_le_bytes());
            }
            out
        }
        _ => {
            let mut out = vec![0xFE, 0xFF];
            for unit in "Ünïcödé text\n".encode_utf16() {
                out.extend_from_slice(&unit.to_be_bytes());
            }
            out
        }
    }
}

fn corpus(root: &Path, seed: u64, count: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let exts = ["txt", "json", "csv", "py", "md", "xml"];
    let mut names = Vec::new();
    for i in 0..count {
        let name = format!("f{i:03}.{}", exts[rng.below(exts.len())]);
        let bytes = if rng.below(8) == 0 {
            legacy(&mut rng)
        } else {
            let mut b = Vec::new();
            for _ in 0..rng.below(24) {
                b.extend_from_slice(PIECES[rng.below(PIECES.len())]);
            }
            b
        };
        std::fs::write(root.join(&name), bytes).unwrap();
        names.push(name);
    }
    names
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// The bytes of one announced edit, made from `source`.
fn replacement(edit: &Value, source: &[u8]) -> Vec<u8> {
    let (start, end) = range(edit);
    if let Some(from) = edit["decode_from"].as_str() {
        let encoding = encoding_rs::Encoding::for_label(from.as_bytes())
            .unwrap_or_else(|| panic!("`decode_from` {from} is an encoding's name"));
        let (text, errors) = encoding.decode_without_bom_handling(&source[start..end]);
        assert!(!errors, "{from} decodes the range");
        return text.into_owned().into_bytes();
    }
    hex(edit["replacement_hex"].as_str().expect("replacement_hex"))
}

fn range(v: &Value) -> (usize, usize) {
    (
        v["byte_start"].as_u64().unwrap() as usize,
        v["byte_end"].as_u64().unwrap() as usize,
    )
}

/// `source` with the announced fixes applied as `--fix` plans them.
fn apply(source: &[u8], fixes: &[Value]) -> Vec<u8> {
    let span = |fix: &Value| {
        let edits = fix["edits"].as_array().unwrap();
        let first = edits.first().map_or((0, 0), range);
        let last = edits.last().map_or((0, 0), range);
        (first.0, last.1)
    };
    let mut order: Vec<(usize, &Value)> = fixes.iter().enumerate().collect();
    order.sort_by_key(|(i, fix)| (span(fix).0, span(fix).1, *i));
    let (mut out, mut cursor, mut inserted_at) = (Vec::new(), 0usize, None);
    for (_, fix) in order {
        let edits = fix["edits"].as_array().unwrap();
        let Some(first) = edits.first() else { continue };
        let (start, _) = range(first);
        let double_insert = range(first).0 == range(first).1 && Some(start) == inserted_at;
        if start < cursor || double_insert {
            continue;
        }
        for edit in edits {
            let (s, e) = range(edit);
            out.extend_from_slice(&source[cursor..s]);
            out.extend_from_slice(&replacement(edit, source));
            cursor = e;
        }
        let last = range(edits.last().unwrap());
        inserted_at = (last.0 == last.1).then_some(last.0);
    }
    out.extend_from_slice(&source[cursor..]);
    out
}

/// `--fix` of every fix, binary-looking files included.
const FIX_EVERY: [&str; 6] = [
    "check",
    "--fix",
    "--unsafe-fixes",
    "--no-skip-binary",
    "-q",
    ".",
];

#[test]
fn announced_edits_are_the_bytes_fix_writes() {
    let mut kinds = BTreeMap::<String, usize>::new();
    for seed in [1u64, 0x5EED, 0xC0FFEE, 27] {
        let dir = tempfile::tempdir().unwrap();
        let names = corpus(dir.path(), seed, 120);
        let o = run(
            dir.path(),
            [
                "check",
                "--format",
                "json",
                "--max-per-file",
                "0",
                "--no-skip-binary",
                ".",
            ],
        );
        let mut fixes: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for line in json_lines(&o) {
            let fix = &line["fix"];
            if fix.is_object() && fix["applicability"] != "display-only" {
                *kinds
                    .entry(
                        fix["kind"]
                            .as_str()
                            .unwrap_or(line["code"].as_str().unwrap())
                            .to_owned(),
                    )
                    .or_default() += 1;
                let path = line["path"].as_str().unwrap().to_owned();
                fixes.entry(path).or_default().push(fix.clone());
            }
        }
        let sources: BTreeMap<&String, Vec<u8>> = names
            .iter()
            .map(|n| (n, std::fs::read(dir.path().join(n)).unwrap()))
            .collect();
        let o = run(dir.path(), FIX_EVERY);
        // Exit 2: the fix gate refused some files (each said so).
        assert!(matches!(code(&o), 0..=2), "seed {seed}: {}", stderr(&o));
        let err = stderr(&o);
        // Files the gate took further than the JSON's one round: the
        // rounds after it start from what the JSON announced.
        let further = tempfile::tempdir().unwrap();
        let mut rounds_after = Vec::new();
        for name in &names {
            let source = &sources[name];
            let expected = apply(source, fixes.get(name).map_or(&[][..], Vec::as_slice));
            let written = std::fs::read(dir.path().join(name)).unwrap();
            if written == expected {
                continue;
            }
            if written == *source {
                assert!(
                    err.contains(&format!("not fixing {name}: ")),
                    "seed {seed}, {name}: left as it was, no refusal said why: {err}"
                );
                continue;
            }
            std::fs::write(further.path().join(name), &expected).unwrap();
            rounds_after.push((name, written));
        }
        if !rounds_after.is_empty() {
            run(further.path(), FIX_EVERY);
        }
        for (name, written) in rounds_after {
            let after = std::fs::read(further.path().join(name)).unwrap();
            assert!(
                after == written,
                "seed {seed}, {name}: --fix wrote {written:?}, the JSON announced a first round giving {after:?} after its own rounds"
            );
        }
    }
    // The corpus reaches the transcoding fixes and the byte fixes.
    assert!(
        kinds.get("transcode").copied().unwrap_or(0) > 0,
        "{kinds:?}"
    );
    assert!(kinds.len() >= 4, "{kinds:?}");
}
