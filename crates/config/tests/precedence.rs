//! Policy precedence, on real directory trees: command line over
//! utf8lint.toml over .editorconfig over built-ins.

use std::fs;
use std::path::Path;

use utf8lint_config::{ConfigSource, Overrides, Resolver};
use utf8lint_diagnostics::{BomPolicy, Charset, CheckOptions, Level, PolicySource, Rule, check};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn codes(root: &Path, resolver: &Resolver, rel: &str, bytes: &[u8]) -> Vec<&'static str> {
    let path = root.join(rel);
    let settings = resolver.resolve(&path).unwrap();
    check(bytes, CheckOptions::new(&path, &settings.policy))
        .iter()
        .map(|d| d.rule.code())
        .collect()
}

const BOM_JSON: &[u8] = b"\xEF\xBB\xBF{}\n";
const BOM_TXT: &[u8] = b"\xEF\xBB\xBFhello\n";
const PLAIN_TXT: &[u8] = b"hello\n";

#[test]
fn built_ins_apply_when_nothing_is_configured() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".editorconfig", "root = true\n");
    let r = Resolver::new(Overrides::default()).unwrap();
    let s = r.resolve(&root.join("a.json")).unwrap();
    assert_eq!(s.policy.bom, None);
    assert!(s.skip_binary);
    assert_eq!(codes(root, &r, "a.json", BOM_JSON), ["U003"]);
    assert_eq!(codes(root, &r, "a.txt", BOM_TXT), Vec::<&str>::new());
}

#[test]
fn editorconfig_over_built_ins_with_its_source_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".editorconfig",
        "root = true\n[*]\ncharset = utf-8\n[*.json]\ncharset = utf-8-bom\n[old/**]\ncharset = latin1\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    // utf-8 forbids a BOM in any file, not only JSON.
    assert_eq!(codes(root, &r, "a.txt", BOM_TXT), ["U003"]);
    // utf-8-bom beats JSON's built-in rule and requires one.
    assert_eq!(codes(root, &r, "a.json", BOM_JSON), Vec::<&str>::new());
    assert_eq!(codes(root, &r, "b.json", b"{}"), ["U004"]);
    let s = r.resolve(&root.join("b.json")).unwrap();
    let rule = s.policy.bom.unwrap();
    assert_eq!(rule.policy, BomPolicy::Require);
    match rule.source {
        PolicySource::EditorConfig {
            section,
            line,
            value,
            ..
        } => {
            assert_eq!(
                (section.as_str(), line, value.as_str()),
                ("[*.json]", 5, "utf-8-bom")
            );
        }
        other => panic!("{other:?}"),
    }
    // latin1: the file is not meant to be UTF-8; no encoding findings.
    let s = r.resolve(&root.join("old/x/y.txt")).unwrap();
    assert!(matches!(s.policy.charset, Charset::Other { ref name, .. } if name == "latin1"));
    assert_eq!(
        codes(root, &r, "old/x/y.txt", b"caf\xE9\n"),
        Vec::<&str>::new()
    );
}

#[test]
fn nearer_editorconfig_wins_and_root_stops_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".editorconfig",
        "root = true\n[*]\ncharset = utf-8-bom\n",
    );
    write(root, "sub/.editorconfig", "[*]\ncharset = utf-8\n");
    write(
        root,
        "island/.editorconfig",
        "root = true\n[*.md]\nindent_size = 2\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    assert_eq!(codes(root, &r, "top.txt", PLAIN_TXT), ["U004"]);
    assert_eq!(codes(root, &r, "sub/deep/a.txt", BOM_TXT), ["U003"]);
    // island/ is a root: the top file's utf-8-bom does not reach it.
    assert_eq!(
        codes(root, &r, "island/a.txt", PLAIN_TXT),
        Vec::<&str>::new()
    );
}

#[test]
fn utf8lint_toml_over_editorconfig_and_nested_toml_extends_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".editorconfig", "root = true\n[*]\ncharset = utf-8\n");
    write(
        root,
        "utf8lint.toml",
        "max-per-file = 3\n[lints]\nstray_feff = \"deny\"\n[bom]\n\"*.csv\" = \"require\"\n\"*.txt\" = \"allow\"\n",
    );
    write(
        root,
        "nested/utf8lint.toml",
        "[lints]\ninvalid_utf8 = \"warn\"\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    // toml's allow beats .editorconfig's utf-8 for .txt ...
    assert_eq!(codes(root, &r, "a.txt", BOM_TXT), Vec::<&str>::new());
    // ... and its require applies to .csv.
    assert_eq!(codes(root, &r, "d.csv", b"a,b\n"), ["U004"]);
    let s = r.resolve(&root.join("d.csv")).unwrap();
    assert_eq!(s.policy.max_per_rule, 3);
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Deny);
    match s.policy.bom.unwrap().source {
        PolicySource::Config { line, key, .. } => assert_eq!((line, key.as_str()), (5, "*.csv")),
        other => panic!("{other:?}"),
    }
    // nested/ has its own utf8lint.toml: it extends the parent's, and
    // wins where both say something.
    let s = r.resolve(&root.join("nested/f.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Warn);
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Deny);
    assert_eq!(s.policy.max_per_rule, 3);
    assert_eq!(codes(root, &r, "nested/d.csv", b"a,b\n"), ["U004"]);
    assert_eq!(s.config_file, Some(root.join("nested/utf8lint.toml")));
}

#[test]
fn a_nested_toml_with_root_true_replaces_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "utf8lint.toml",
        "max-per-file = 3\n[lints]\nstray_feff = \"deny\"\n",
    );
    write(
        root,
        "vendor/utf8lint.toml",
        "root = true\n[lints]\ninvalid_utf8 = \"warn\"\n",
    );
    write(
        root,
        "vendor/deeper/utf8lint.toml",
        "[lints]\nnot_utf8 = \"warn\"\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    let s = r.resolve(&root.join("vendor/f.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Warn);
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Warn);
    assert_eq!(
        s.policy.max_per_rule,
        utf8lint_diagnostics::DEFAULT_MAX_PER_RULE
    );
    // Below the root file, files extend it (and only it).
    let s = r.resolve(&root.join("vendor/deeper/f.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Warn);
    assert_eq!(s.policy.levels.get(Rule::NotUtf8), Level::Warn);
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Warn);
    assert!(r.take_notes().is_empty());
}

#[test]
fn per_file_lints_apply_by_glob_after_lints_relative_to_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "utf8lint.toml",
        concat!(
            "[lints]\nstray_feff = \"deny\"\n",
            "[per-file-lints]\n",
            "\"tests/fixtures/**\" = { invalid_utf8 = \"allow\", stray_feff = \"warn\" }\n",
            "\"*.po\" = [\"U001\", \"not_utf8\"]\n",
            "\"tests/fixtures/keep/**\" = { invalid_utf8 = \"deny\" }\n",
        ),
    );
    write(
        root,
        "sub/utf8lint.toml",
        "[per-file-lints]\n\"fixtures/**\" = [\"U002\"]\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    let level = |rel: &str, rule| r.resolve(&root.join(rel)).unwrap().policy.levels.get(rule);
    assert_eq!(
        level("tests/fixtures/a/b.bin", Rule::InvalidUtf8),
        Level::Allow
    );
    assert_eq!(
        level("tests/fixtures/a/b.bin", Rule::StrayFeff),
        Level::Warn
    );
    // A later entry wins over an earlier one.
    assert_eq!(
        level("tests/fixtures/keep/b", Rule::InvalidUtf8),
        Level::Deny
    );
    // The list form allows; a glob without `/` matches a name anywhere.
    assert_eq!(level("deep/x/fr.po", Rule::InvalidUtf8), Level::Allow);
    assert_eq!(level("deep/x/fr.po", Rule::NotUtf8), Level::Allow);
    // Elsewhere, [lints] alone.
    assert_eq!(level("src/a.rs", Rule::InvalidUtf8), Level::Deny);
    assert_eq!(level("src/a.rs", Rule::StrayFeff), Level::Deny);
    // A nested file's globs are relative to its own directory, and the
    // parent's [lints] still apply beside them.
    assert_eq!(level("sub/fixtures/x", Rule::StrayFeff), Level::Allow);
    assert_eq!(level("sub/other/x", Rule::StrayFeff), Level::Deny);
    assert_eq!(level("fixtures/x", Rule::StrayFeff), Level::Deny);

    // The command line still wins, and an editor's per-file levels are
    // anchored at the workspace.
    let r = Resolver::new(Overrides {
        levels: vec![(Rule::InvalidUtf8, Level::Warn)],
        per_file_levels: vec![("src/**".into(), vec![(Rule::StrayFeff, Level::Allow)])],
        base_dir: Some(root.to_path_buf()),
        ..Overrides::default()
    })
    .unwrap();
    let level = |rel: &str, rule| r.resolve(&root.join(rel)).unwrap().policy.levels.get(rule);
    assert_eq!(level("tests/fixtures/a", Rule::InvalidUtf8), Level::Warn);
    assert_eq!(level("src/a.rs", Rule::StrayFeff), Level::Allow);
    assert_eq!(level("lib/a.rs", Rule::StrayFeff), Level::Deny);

    // Bad entries name the line and key.
    write(
        root,
        "bad/utf8lint.toml",
        "[per-file-lints]\n\"x\" = { nope = \"allow\" }\n",
    );
    let e = r.resolve(&root.join("bad/a")).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("no rule named `nope`"), "{e}");
    write(
        root,
        "bad2/utf8lint.toml",
        "[per-file-lints]\n\"x\" = \"U001\"\n",
    );
    let e = r.resolve(&root.join("bad2/a")).unwrap_err();
    assert!(e.to_string().contains("a list of rules"), "{e}");
}

#[test]
fn command_line_over_utf8lint_toml() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "utf8lint.toml",
        "max-per-file = 3\nskip-binary = false\n[lints]\nstray_feff = \"deny\"\n[bom]\n\"*.txt\" = \"require\"\n",
    );
    let overrides = Overrides {
        levels: vec![
            (Rule::StrayFeff, Level::Deny),
            (Rule::StrayFeff, Level::Allow),
        ],
        max_per_rule: Some(0),
        bom: vec![("*.txt".into(), BomPolicy::Forbid)],
        base_dir: Some(root.to_path_buf()),
        skip_binary: Some(true),
        origin: Some("command line".into()),
        trust_all_config: false,
        per_file_levels: Vec::new(),
        source: ConfigSource::Discover,
    };
    let r = Resolver::new(overrides).unwrap();
    let s = r.resolve(&root.join("x.txt")).unwrap();
    // Last of the repeated level flags wins.
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Allow);
    assert_eq!(s.policy.max_per_rule, 0);
    assert!(s.skip_binary);
    assert_eq!(s.policy.bom.as_ref().unwrap().policy, BomPolicy::Forbid);
    assert_eq!(codes(root, &r, "x.txt", BOM_TXT), ["U003"]);
}

#[test]
fn config_file_replaces_discovery_and_isolated_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "utf8lint.toml", "[lints]\nstray_feff = \"deny\"\n");
    write(
        root,
        "sub/utf8lint.toml",
        "[lints]\ninvalid_utf8 = \"warn\"\n",
    );
    write(
        root,
        ".editorconfig",
        "root = true\n[*]\ncharset = utf-8-bom\n",
    );
    // Globs relative to the named file's directory, given with `..`.
    // `conf/` exists, so that `conf/../ci.toml` can be read.
    write(root, "conf/other.toml", "");
    write(
        root,
        "ci.toml",
        "[per-file-lints]\n\"sub/*\" = { stray_feff = \"allow\" }\n",
    );
    let with = |source: ConfigSource| {
        Resolver::new(Overrides {
            source,
            ..Overrides::default()
        })
        .unwrap()
    };
    let file = with(ConfigSource::File(root.join("conf/../ci.toml")));
    // A path with `.` in it, as the walk of `.` gives.
    let s = file.resolve(&root.join("./sub/./a.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Allow);
    // Neither utf8lint.toml applies...
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Deny);
    assert_eq!(
        file.resolve(&root.join("a.txt"))
            .unwrap()
            .policy
            .levels
            .get(Rule::StrayFeff),
        Level::Warn
    );
    // ...but .editorconfig does.
    assert_eq!(s.policy.bom.unwrap().policy, BomPolicy::Require);
    assert!(s.config_file.unwrap().ends_with("ci.toml"));

    let isolated = with(ConfigSource::Isolated);
    let s = isolated.resolve(&root.join("sub/a.txt")).unwrap();
    assert_eq!(s.policy.levels.get(Rule::StrayFeff), Level::Warn);
    assert_eq!(s.policy.levels.get(Rule::InvalidUtf8), Level::Deny);
    assert_eq!(s.policy.bom, None);
    assert_eq!(s.config_file, None);

    // A named file that is missing or bad is an error at once.
    let missing = Resolver::new(Overrides {
        source: ConfigSource::File(root.join("nope.toml")),
        ..Overrides::default()
    })
    .unwrap_err();
    assert!(missing.to_string().contains("cannot read"), "{missing}");
    write(root, "bad.toml", "[lints]\nnope = \"deny\"\n");
    let bad = Resolver::new(Overrides {
        source: ConfigSource::File(root.join("bad.toml")),
        ..Overrides::default()
    })
    .unwrap_err();
    assert_eq!(bad.line, Some(2), "{bad}");
}

#[test]
fn bad_configuration_names_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "utf8lint.toml",
        "[lints]\n\ninvalid_utf8 = \"sometimes\"\n",
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    let e = r.resolve(&root.join("sub/a.txt")).unwrap_err();
    assert_eq!(e.path, root.join("utf8lint.toml"));
    assert_eq!(e.line, Some(3));
    assert_eq!(e.key.as_deref(), Some("lints.invalid_utf8"));
    // A fixed file is read again after the cache is cleared.
    write(root, "utf8lint.toml", "[lints]\ninvalid_utf8 = \"warn\"\n");
    assert!(
        r.resolve(&root.join("sub/a.txt")).is_err(),
        "cached until cleared"
    );
    r.clear_cache();
    assert!(r.resolve(&root.join("sub/a.txt")).is_ok());
}

#[test]
fn configuration_that_is_not_utf8_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join(".editorconfig"), b"[*]\ncharset = utf-8\xFF\n").unwrap();
    let r = Resolver::new(Overrides::default()).unwrap();
    let e = r.resolve(&root.join("a.txt")).unwrap_err();
    assert!(e.message.contains("not valid UTF-8"), "{e}");
}

/// A reader serving files from memory and counting what it was asked.
#[derive(Default)]
struct MemoryReader {
    files: std::collections::HashMap<std::path::PathBuf, Vec<u8>>,
    asked: Vec<std::path::PathBuf>,
}

impl utf8lint_config::ConfigReader for MemoryReader {
    fn read_config(&mut self, dir: &Path, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        let path = dir.join(name);
        self.asked.push(path.clone());
        Ok(self.files.get(&path).cloned())
    }
}

#[test]
fn a_thread_cache_gives_what_resolve_gives_and_reads_each_directory_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".editorconfig",
        "root = true\n[*.txt]\ncharset = utf-8-bom\n",
    );
    write(root, "a/utf8lint.toml", "[lints]\nstray_feff = \"deny\"\n");
    write(root, "a/b/.editorconfig", "[*.md]\ncharset = utf-8\n");
    let paths = [
        "x.txt",
        "a/x.txt",
        "a/b/x.md",
        "a/b/x.txt",
        "a/x.json",
        "x.md",
        "a/b/c/y.txt",
        "a/b/x.md",
        "x.txt",
    ];
    let r = Resolver::new(Overrides::default()).unwrap();
    let mut cache = utf8lint_config::ResolveCache::default();
    let mut by_path = utf8lint_config::ByPath;
    for rel in paths.iter().chain(paths.iter().rev()) {
        let path = root.join(rel);
        assert_eq!(
            *r.resolve_cached(&path, &mut cache, &mut by_path).unwrap(),
            Resolver::new(Overrides::default())
                .unwrap()
                .resolve(&path)
                .unwrap(),
            "{rel}"
        );
    }

    // Through a reader: each directory's two files are asked for once, by
    // the first file resolved in it (or below it), whatever the order.
    let mut reader = MemoryReader::default();
    reader.files.insert(
        root.join("a/utf8lint.toml"),
        b"[lints]\nstray_feff = \"allow\"\n".to_vec(),
    );
    let r = Resolver::new(Overrides::default()).unwrap();
    let mut cache = utf8lint_config::ResolveCache::default();
    for rel in paths.iter().chain(paths.iter().rev()) {
        let settings = r
            .resolve_cached(&root.join(rel), &mut cache, &mut reader)
            .unwrap();
        let in_a = rel.starts_with("a/");
        assert_eq!(
            settings.policy.levels.get(Rule::StrayFeff) == Level::Allow,
            in_a,
            "{rel}: the reader's utf8lint.toml, not the disk's"
        );
    }
    let mut asked = reader.asked.clone();
    asked.sort();
    asked.dedup();
    assert_eq!(
        asked.len(),
        reader.asked.len(),
        "asked twice: {:?}",
        reader.asked
    );
    assert!(reader.asked.contains(&root.join("a/b/c/.editorconfig")));
}

#[test]
fn clearing_the_cache_reaches_every_thread_cache() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "x.txt", "");
    let r = Resolver::new(Overrides::default()).unwrap();
    let mut cache = utf8lint_config::ResolveCache::default();
    let mut by_path = utf8lint_config::ByPath;
    let path = root.join("x.txt");
    assert_eq!(
        r.resolve_cached(&path, &mut cache, &mut by_path)
            .unwrap()
            .policy
            .bom,
        None
    );
    write(root, ".editorconfig", "[*]\ncharset = utf-8-bom\n");
    assert_eq!(
        r.resolve_cached(&path, &mut cache, &mut by_path)
            .unwrap()
            .policy
            .bom,
        None,
        "cached until cleared"
    );
    r.clear_cache();
    let bom = r
        .resolve_cached(&path, &mut cache, &mut by_path)
        .unwrap()
        .policy
        .bom
        .clone();
    assert_eq!(bom.map(|b| b.policy), Some(BomPolicy::Require));
}

/// Where no glob looks at file names, the files of a directory share one
/// settings value; where one does (a `[bom]` glob, `charset` under
/// `[*.md]`, a per-file override), each file is resolved for itself.
/// Either way a file gets what `resolve` gives it.
#[test]
fn a_directory_shares_settings_only_where_no_glob_looks_at_names() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ec = "root = true\n[*]\ncharset = utf-8\n[*.md]\nindent_size = 2\n";
    write(root, ".editorconfig", ec);
    write(root, "a/utf8lint.toml", "[lints]\nstray_feff = \"allow\"\n");
    write(root, "b/utf8lint.toml", "[bom]\n\"*.csv\" = \"require\"\n");
    write(root, "c/.editorconfig", "[*.md]\ncharset = latin1\n");
    let paths = [
        "x.txt", "x.md", "a/x.txt", "a/x.md", "b/x.txt", "b/x.csv", "c/x.txt", "c/x.md",
    ];
    let by_glob = Overrides {
        per_file_levels: vec![("*.md".into(), vec![(Rule::StrayFeff, Level::Deny)])],
        ..Overrides::default()
    };
    for overrides in [Overrides::default(), by_glob] {
        let r = Resolver::new(overrides.clone()).unwrap();
        let fresh = Resolver::new(overrides.clone()).unwrap();
        let mut cache = utf8lint_config::ResolveCache::default();
        let mut by_path = utf8lint_config::ByPath;
        let mut resolve = |rel: &str| {
            r.resolve_cached(&root.join(rel), &mut cache, &mut by_path)
                .unwrap()
        };
        for rel in paths.iter().chain(paths.iter().rev()) {
            assert_eq!(
                *resolve(rel),
                fresh.resolve(&root.join(rel)).unwrap(),
                "{rel}"
            );
        }
        let mut shared = |a: &str, b: &str| std::sync::Arc::ptr_eq(&resolve(a), &resolve(b));
        let no_override = overrides.per_file_levels.is_empty();
        assert_eq!(shared("x.txt", "x.md"), no_override);
        assert_eq!(shared("a/x.txt", "a/x.md"), no_override);
        assert!(!shared("b/x.txt", "b/x.csv"));
        assert!(!shared("c/x.txt", "c/x.md"));
    }
}
