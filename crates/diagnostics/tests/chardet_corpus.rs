//! chardet's test corpus (the source distribution of chardet 5.2.0 on PyPI
//! carries it: about 430 real web pages and texts in folders named by their
//! encoding) run through `check`, scored per family, with the floors the
//! U005 verdict holds. The corpus is read from `UTF8LINT_CHARDET_CORPUS`
//! (the `tests` folder of the unpacked source distribution); without it the
//! test says so and passes, unless `UTF8LINT_REQUIRE_CORPUS=1`.
//!
//! A named verdict is *exact* when the encoding it names decodes the file
//! to the same text as the folder's encoding. The reference text comes from
//! encoding_rs where it knows the folder's encoding (a superset counts:
//! windows-1252 for ISO-8859-1, windows-874 for TIS-620, windows-1254 for
//! ISO-8859-9), else from Python's codecs (IBM855, Johab, ISO-2022-KR); for
//! EUC-TW, which neither knows, every named verdict counts as wrong.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use encoding_rs::Encoding;
use utf8lint_diagnostics::{CheckOptions, Diagnostic, Policy, Rule, check};

/// The encodings the verdict may name (`explain U005`, "Claimed families").
const CLAIMED: &[&str] = &[
    "windows-1252",
    "ISO-8859-15",
    "windows-1250",
    "ISO-8859-2",
    "windows-1251",
    "KOI8-R",
    "KOI8-U",
    "IBM866",
    "ISO-8859-5",
    "windows-1253",
    "ISO-8859-7",
    "windows-1254",
    "windows-1255",
    "ISO-8859-8",
    "windows-1256",
    "ISO-8859-6",
    "windows-1257",
    "ISO-8859-13",
    "ISO-8859-4",
    "windows-874",
    "windows-1258",
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
];

/// What a folder's files are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// UTF-8 or ASCII (with or without a signature): no U005 allowed.
    Utf8,
    /// UTF-16 or UTF-32: a U005 naming the form.
    Wide(&'static str),
    /// An encoding encoding_rs decodes.
    Legacy(&'static Encoding),
    /// An encoding only Python's codecs decode (codec name).
    Python(&'static str),
    /// An encoding no reference decoder here knows.
    Unknown,
}

fn kind(folder: &str) -> Kind {
    // `windows-1250-czech`: the encoding, then the language.
    let label = match folder.rsplit_once('-') {
        Some((enc, lang)) if lang.len() > 4 && lang.chars().all(|c| c.is_ascii_lowercase()) => enc,
        _ => folder,
    };
    match folder {
        "ascii" | "utf-8" | "utf-8-sig" => return Kind::Utf8,
        "UTF-16" | "UTF-16BE" | "UTF-16LE" => return Kind::Wide("UTF-16"),
        "UTF-32" | "UTF-32BE" | "UTF-32LE" => return Kind::Wide("UTF-32"),
        "CP932" => return Kind::Legacy(encoding_rs::SHIFT_JIS),
        "CP949" => return Kind::Legacy(encoding_rs::EUC_KR),
        "MacCyrillic" => return Kind::Legacy(encoding_rs::X_MAC_CYRILLIC),
        "MacRoman" => return Kind::Legacy(encoding_rs::MACINTOSH),
        "IBM855" => return Kind::Python("cp855"),
        "Johab" => return Kind::Python("johab"),
        "iso-2022-kr" => return Kind::Python("iso2022_kr"),
        "EUC-TW" => return Kind::Unknown,
        _ => {}
    }
    Encoding::for_label(label.as_bytes()).map_or(Kind::Unknown, Kind::Legacy)
}

/// The folder's reference text for `bytes`, if a decoder here knows it.
fn reference(kind: Kind, path: &Path, bytes: &[u8]) -> Option<String> {
    match kind {
        Kind::Legacy(enc) => enc
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|t| t.into_owned()),
        Kind::Python(codec) => {
            let out = Command::new("python3")
                .args([
                    "-c",
                    "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read().decode(sys.argv[2]).encode('utf-8'))",
                ])
                .arg(path)
                .arg(codec)
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| String::from_utf8(out.stdout).ok())
                .flatten()
        }
        _ => None,
    }
}

/// The encoding a U005 finding names, if it names one: its conversion's,
/// else the one its help line converts from.
fn named(d: &Diagnostic) -> Option<&'static Encoding> {
    if let Some(from) = d.fix.as_ref().and_then(|f| f.transcoded_from()) {
        return Encoding::for_label(from.as_bytes());
    }
    d.help.iter().find_map(|h| {
        let rest = h.split("iconv -f ").nth(1)?;
        let name = rest.split_whitespace().next()?;
        (name != "ENCODING")
            .then(|| Encoding::for_label(name.as_bytes()))
            .flatten()
    })
}

#[derive(Default, Clone)]
struct Row {
    files: usize,
    /// Files of a legacy folder that are valid UTF-8 (ASCII): no verdict expected.
    ascii: usize,
    exact: usize,
    wrong: usize,
    unnamed: usize,
    missed: usize,
    /// Wrong verdicts that come with a conversion.
    wrong_fixes: usize,
    /// U005 on a file that is UTF-8, ASCII or binary.
    false_u005: usize,
}

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("UTF8LINT_CHARDET_CORPUS").map(PathBuf::from);
    match dir {
        Some(dir) if dir.is_dir() => Some(dir),
        _ => {
            let why = "UTF8LINT_CHARDET_CORPUS does not name chardet 5.2.0's `tests` folder";
            assert!(
                std::env::var_os("UTF8LINT_REQUIRE_CORPUS").is_none_or(|v| v != "1"),
                "{why}, and UTF8LINT_REQUIRE_CORPUS=1"
            );
            println!("SKIPPED: {why}; the chardet corpus verdicts were not measured");
            None
        }
    }
}

#[test]
fn the_chardet_corpus_verdicts_hold_their_floors() {
    let Some(dir) = corpus() else { return };
    let verbose = std::env::var_os("UTF8LINT_CORPUS_VERBOSE").is_some();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut problems = Vec::new();
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let kind = kind(&name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let row = rows.entry(name.clone()).or_default();
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            row.files += 1;
            let u005 = check(&bytes, CheckOptions::new(&path, &Policy::default()))
                .into_iter()
                .find(|d| d.rule == Rule::NotUtf8);
            let rel = format!("{name}/{}", path.file_name().unwrap().to_string_lossy());
            let shown = u005.as_ref().map_or("-".to_owned(), |d| d.message.clone());
            let outcome = match kind {
                Kind::Utf8 => {
                    if u005.is_some() {
                        row.false_u005 += 1;
                        "FALSE U005"
                    } else {
                        "ok"
                    }
                }
                Kind::Wide(form) => match &u005 {
                    Some(d) if d.message.contains(form) => {
                        row.exact += 1;
                        "exact"
                    }
                    Some(_) => {
                        row.wrong += 1;
                        "wrong"
                    }
                    None => {
                        row.missed += 1;
                        "missed"
                    }
                },
                Kind::Legacy(_) | Kind::Python(_) | Kind::Unknown => {
                    if std::str::from_utf8(&bytes).is_ok() && !bytes.starts_with(b"\x1B") {
                        row.ascii += 1;
                        if u005.is_some() && name != "iso-2022-jp" {
                            row.false_u005 += 1;
                            "FALSE U005 (valid UTF-8)"
                        } else {
                            "ascii"
                        }
                    } else {
                        match &u005 {
                            None => {
                                row.missed += 1;
                                "missed"
                            }
                            Some(d) => match named(d) {
                                None => {
                                    row.unnamed += 1;
                                    "unnamed"
                                }
                                Some(enc) => {
                                    let got = enc
                                        .decode_without_bom_handling_and_without_replacement(
                                            &bytes,
                                        );
                                    let want = reference(kind, &path, &bytes);
                                    if got.is_some() && got.as_deref() == want.as_deref() {
                                        row.exact += 1;
                                        "exact"
                                    } else {
                                        row.wrong += 1;
                                        if d.fix.is_some() {
                                            row.wrong_fixes += 1;
                                            "WRONG, FIX OFFERED"
                                        } else {
                                            "wrong"
                                        }
                                    }
                                }
                            },
                        }
                    }
                }
            };
            if outcome.chars().any(|c| c.is_ascii_uppercase()) {
                problems.push(format!("{rel}: {outcome}: {shown}"));
            }
            if verbose {
                println!("{rel}\t{outcome}\t{shown}");
            }
        }
    }
    let claimed = |folder: &str| match kind(folder) {
        Kind::Legacy(enc) => CLAIMED.contains(&enc.name()),
        _ => false,
    };
    let print = |title: &str, pick: &dyn Fn(&str) -> bool| {
        println!("\n{title}\n");
        println!(
            "| family | files | ASCII only | exact | wrong | unnamed | missed | wrong conversions offered | false U005 |"
        );
        println!("| --- | --: | --: | --: | --: | --: | --: | --: | --: |");
        let mut total = Row::default();
        for (name, r) in rows.iter().filter(|(n, _)| pick(n)) {
            println!(
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.files,
                r.ascii,
                r.exact,
                r.wrong,
                r.unnamed,
                r.missed,
                r.wrong_fixes,
                r.false_u005
            );
            total.files += r.files;
            total.ascii += r.ascii;
            total.exact += r.exact;
            total.wrong += r.wrong;
            total.unnamed += r.unnamed;
            total.missed += r.missed;
            total.wrong_fixes += r.wrong_fixes;
            total.false_u005 += r.false_u005;
        }
        let t = &total;
        println!(
            "| **all** | {} | {} | {} | {} | {} | {} | {} | {} |",
            t.files, t.ascii, t.exact, t.wrong, t.unnamed, t.missed, t.wrong_fixes, t.false_u005
        );
        total
    };
    let in_claimed = print("Claimed families", &|n| claimed(n));
    let outside = print("Families the verdict does not claim", &|n| {
        !claimed(n) && !matches!(kind(n), Kind::Utf8 | Kind::Wide(_))
    });
    let text = print("UTF-8, ASCII, UTF-16 and UTF-32", &|n| {
        matches!(kind(n), Kind::Utf8 | Kind::Wide(_))
    });
    println!("\n{} problems:", problems.len());
    for p in &problems {
        println!("  {p}");
    }
    let legacy = in_claimed.files - in_claimed.ascii;
    let wrong_fixes = in_claimed.wrong_fixes + outside.wrong_fixes + text.wrong_fixes;
    let false_u005 = in_claimed.false_u005 + outside.false_u005 + text.false_u005;
    println!(
        "\nclaimed: {} of {legacy} legacy files named exactly ({:.1}%); {wrong_fixes} wrong conversions offered; {false_u005} false U005",
        in_claimed.exact,
        in_claimed.exact as f64 * 100.0 / legacy.max(1) as f64
    );
    assert!(
        legacy > 300,
        "the corpus is not chardet's: {legacy} legacy files"
    );
    assert_eq!(wrong_fixes, 0, "conversions offered in a wrong encoding");
    assert_eq!(false_u005, 0, "U005 on UTF-8, ASCII or binary files");
    assert!(
        in_claimed.exact * 100 >= 97 * legacy,
        "named exactly: {} of {legacy}",
        in_claimed.exact
    );
    assert_eq!(text.wrong + text.missed, 0, "UTF-16/32 files misjudged");
}
