//! The text rules on real text nobody on the team wrote, kept out of the
//! repository and read from paths given by environment variables:
//!
//! * `UTF8LINT_TROJAN_SOURCE`: a checkout of github.com/nickboucher/trojan-source.
//!   Every bidi, invisible-character and homoglyph attack is found on its
//!   line, and nothing else ([`fixtures/trojan_source.tsv`]).
//! * `UTF8LINT_BIDI_SCANNER`: the fixture directory of a bidi and
//!   invisible-character scanner (github.com/lirantal/anti-trojan-source,
//!   `__tests__/__fixtures__`): each of its lines is found by the one rule
//!   that owns its shape, and nothing else ([`fixtures/bidi_scanner.tsv`]).
//! * `UTF8LINT_TEXT_TREES`: directories separated by `:` (translation
//!   catalogues in Arabic, Persian, Hebrew, Russian, Greek...; code and
//!   documentation in Russian), named in [`fixtures/text_trees.tsv`] with
//!   the findings expected of each: no U008 and no deny-level finding, and
//!   the U016 count measured when the tree was judged.
//!
//! These are public repositories, not packages: they come only from a
//! checkout made by hand (each fixture names the commit it was judged at),
//! never from a registry CI can reach. So each test says when its data is
//! absent and skips, and fails then only if `UTF8LINT_REQUIRE_TEXT_CORPUS=1`
//! (a run that means to measure them).
//!
//!     UTF8LINT_TROJAN_SOURCE=... cargo test -p utf8lint-diagnostics --test real_text -- --nocapture

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use utf8lint_diagnostics::{CheckOptions, Diagnostic, Level, Policy, Rule, check};

const TROJAN: &str = include_str!("fixtures/trojan_source.tsv");
const TREES: &str = include_str!("fixtures/text_trees.tsv");
const BIDI_SCANNER: &str = include_str!("fixtures/bidi_scanner.tsv");

/// The directory named by `var`, or `None` after saying so (a failure when
/// the corpus is required).
fn data(var: &str) -> Option<Vec<PathBuf>> {
    match std::env::var_os(var) {
        Some(v) => Some(std::env::split_paths(&v).collect()),
        None => {
            assert!(
                std::env::var("UTF8LINT_REQUIRE_TEXT_CORPUS").as_deref() != Ok("1"),
                "{var} is not set and UTF8LINT_REQUIRE_TEXT_CORPUS=1"
            );
            println!("SKIPPED: {var} is not set");
            None
        }
    }
}

/// The 1-based line of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The policy the trees are judged under: the defaults, with U008 on.
fn policy() -> Policy {
    let mut policy = Policy::default();
    policy.levels.set(Rule::Mojibake, Level::Warn);
    policy
}

#[test]
fn trojan_source_attacks_are_found_on_their_lines_and_nothing_else() {
    let Some(dirs) = data("UTF8LINT_TROJAN_SOURCE") else {
        return;
    };
    let root = &dirs[0];
    let mut expected: BTreeMap<(String, usize), Vec<&str>> = BTreeMap::new();
    for row in TROJAN.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = row.split('\t');
        let (Some(path), Some(line), Some(code)) = (cols.next(), cols.next(), cols.next()) else {
            panic!("bad fixture row {row:?}");
        };
        expected
            .entry((path.to_owned(), line.parse().unwrap()))
            .or_default()
            .push(code);
    }
    let files: std::collections::BTreeSet<&String> = expected.keys().map(|(p, _)| p).collect();
    let mut found: BTreeMap<(String, usize), Vec<&str>> = BTreeMap::new();
    for path in &files {
        let bytes = std::fs::read(root.join(path.as_str()))
            .unwrap_or_else(|e| panic!("{}: {e}", root.join(path.as_str()).display()));
        for d in check(
            &bytes,
            CheckOptions::new(Path::new(path.as_str()), &policy()),
        ) {
            found
                .entry(((*path).clone(), line_of(&bytes, d.span.start)))
                .or_default()
                .push(d.rule.code());
        }
    }
    let mut table: BTreeMap<&str, [usize; 2]> = BTreeMap::new();
    for ((path, line), codes) in &expected {
        for code in codes {
            let hit = found
                .get(&(path.clone(), *line))
                .is_some_and(|f| f.contains(code));
            let row = table.entry(code).or_default();
            row[0] += 1;
            row[1] += usize::from(hit);
        }
    }
    println!("| rule | attack lines | found |\n|---|---|---|");
    for (code, [lines, hits]) in &table {
        println!("| {code} | {lines} | {hits} |");
    }
    for (key, codes) in &mut found {
        codes.sort_unstable();
        codes.dedup();
        let mut want = expected.get(key).cloned().unwrap_or_default();
        want.sort_unstable();
        assert_eq!(codes, &want, "{}:{}", key.0, key.1);
    }
    for (key, want) in &expected {
        assert!(
            found.contains_key(key),
            "{}:{}: {want:?} not found",
            key.0,
            key.1
        );
    }
}

/// Every file under `dir` (no `.git`), in order.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_none_or(|n| n != ".git") {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The bidi scanner's fixtures: the lines of `fixtures/bidi_scanner.tsv`
/// give exactly these U010, U011 and U018 findings, each line one rule's.
#[test]
fn a_bidi_scanners_fixtures_are_found_each_by_one_rule() {
    let Some(dirs) = data("UTF8LINT_BIDI_SCANNER") else {
        return;
    };
    let root = &dirs[0];
    let mut expected: BTreeMap<(String, usize), Vec<&str>> = BTreeMap::new();
    for row in BIDI_SCANNER.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = row.split('\t').collect();
        let [path, line, code] = cols[..] else {
            panic!("bad fixture row {row:?}");
        };
        expected
            .entry((path.to_owned(), line.parse().unwrap()))
            .or_default()
            .push(code);
    }
    let mut paths = Vec::new();
    files(root, &mut paths);
    let mut found: BTreeMap<(String, usize), Vec<&str>> = BTreeMap::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        for d in check(&bytes, CheckOptions::new(path, &policy())) {
            if matches!(
                d.rule,
                Rule::BidiControl | Rule::InvisibleCharacter | Rule::HiddenPayload
            ) {
                found
                    .entry((name.clone(), line_of(&bytes, d.span.start)))
                    .or_default()
                    .push(d.rule.code());
            }
        }
    }
    println!(
        "bidi scanner fixtures: {} lines expected, {} found",
        expected.len(),
        expected.keys().filter(|k| found.contains_key(*k)).count()
    );
    assert_eq!(found, expected);
}

#[test]
fn real_multilingual_trees_give_no_mojibake_and_no_deny() {
    let Some(dirs) = data("UTF8LINT_TEXT_TREES") else {
        return;
    };
    let mut rows = Vec::new();
    println!(
        "| tree | files | lines with non-ASCII | U008 | U010 | U011 | U016 | deny |\n|---|---|---|---|---|---|---|---|"
    );
    for row in TREES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = row.split('\t').collect();
        let [name, _commit, u016, u010] = cols[..] else {
            panic!("bad fixture row {row:?}");
        };
        let Some(dir) = dirs
            .iter()
            .find(|d| d.file_name().is_some_and(|n| n == name))
        else {
            println!("SKIPPED: {name} is not among UTF8LINT_TEXT_TREES");
            continue;
        };
        let mut paths = Vec::new();
        files(dir, &mut paths);
        let (mut counts, mut deny, mut non_ascii) = (BTreeMap::<&str, usize>::new(), Vec::new(), 0);
        let mut shown: Vec<String> = Vec::new();
        for path in &paths {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            if bytes.contains(&0) {
                continue;
            }
            non_ascii += bytes
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_ascii())
                .count();
            let ds: Vec<Diagnostic> = check(&bytes, CheckOptions::new(path, &policy()));
            for d in ds {
                *counts.entry(d.rule.code()).or_default() += 1;
                let at = format!(
                    "{}:{}: {} {}",
                    path.strip_prefix(dir).unwrap_or(path).display(),
                    line_of(&bytes, d.span.start),
                    d.rule.code(),
                    d.message
                );
                // U010's findings in prose are what a line leaves open,
                // counted against the fixture.
                if d.level == Level::Deny
                    && !matches!(
                        d.rule,
                        Rule::NotUtf8 | Rule::InvalidUtf8 | Rule::BidiControl
                    )
                {
                    deny.push(at.clone());
                }
                if matches!(
                    d.rule,
                    Rule::Mojibake
                        | Rule::MixedScriptConfusable
                        | Rule::BidiControl
                        | Rule::InvisibleCharacter
                ) {
                    shown.push(at);
                }
            }
        }
        let n = |code| counts.get(code).copied().unwrap_or(0);
        println!(
            "| {name} | {} | {non_ascii} | {} | {} | {} | {} | {} |",
            paths.len(),
            n("U008"),
            n("U010"),
            n("U011"),
            n("U016"),
            deny.len()
        );
        for s in &shown {
            println!("    {s}");
        }
        rows.push((
            name,
            n("U008"),
            deny,
            n("U016"),
            u016.parse::<usize>().unwrap(),
            non_ascii,
            (n("U010"), u010.parse::<usize>().unwrap()),
        ));
    }
    let lines: usize = rows.iter().map(|r| r.5).sum();
    let flagged: usize = rows.iter().map(|r| r.1).sum();
    println!("U008 false positives: {flagged} in {lines} lines holding non-ASCII text");
    for (name, u008, deny, u016, want, _, (u010, want_u010)) in rows {
        assert_eq!(u008, 0, "{name}: U008 on clean text");
        assert!(deny.is_empty(), "{name}: {deny:#?}");
        assert_eq!(u016, want, "{name}: U016 findings");
        assert_eq!(u010, want_u010, "{name}: U010 findings");
    }
}
