//! `utf8lint.toml` as our reader reads it against the `toml` crate's
//! reading through the same serde schema: every document either reads the
//! same settings or is refused with the same words, key and line, on the
//! repository's own file, the docs' examples, hostile inputs and
//! generated documents.

use std::path::Path;

use utf8lint_config::{ConfigError, Settings, parse_toml};

/// The `toml` crate's reading: its parser, then serde through the schema.
fn reference(text: &str) -> Result<Settings, (Option<usize>, Option<String>, String)> {
    let line_at = |span: Option<std::ops::Range<usize>>| {
        span.map(|s| {
            1 + text.as_bytes()[..s.start.min(text.len())]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
        })
    };
    let deserializer = toml::Deserializer::parse(text)
        .map_err(|e| (line_at(e.span()), None, e.message().trim().to_owned()))?;
    let settings: Settings = serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let key = e.path().to_string();
        let key = (key != ".").then_some(key);
        let inner = e.into_inner();
        (
            line_at(inner.span()),
            key,
            inner.message().trim().to_owned(),
        )
    })?;
    let editor_only = [
        ("workspace-scan", settings.workspace_scan.is_some()),
        ("path", settings.client_path.is_some()),
        ("trace", settings.trace.is_some()),
    ];
    if let Some((key, _)) = editor_only.iter().find(|(_, set)| *set) {
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i + 1);
        return Err((
            line,
            Some((*key).into()),
            format!("an editor setting (`utf8lint.{key}`), not one for utf8lint.toml"),
        ));
    }
    Ok(settings)
}

fn ours(text: &str) -> Result<Settings, (Option<usize>, Option<String>, String)> {
    parse_toml(text, Path::new("/p/utf8lint.toml"))
        .map_err(|e: ConfigError| (e.line, e.key, e.message))
}

/// Both readings of `text` agree: the same settings, or the same refusal
/// (`exact`: the same words, key and line too; a document with two
/// problems may be refused for either).
fn assert_agree(text: &str, exact: bool) {
    let (a, b) = (reference(text), ours(text));
    match (&a, &b) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text:?}"),
        (Err(a), Err(b)) if exact => assert_eq!(a, b, "{text:?}"),
        (Err(_), Err(_)) => {}
        _ => panic!("{text:?}: the toml crate {a:?}, ours {b:?}"),
    }
}

/// Documents with one thing each to read or refuse.
const CASES: &[&str] = &[
    "",
    "# only a comment\n",
    "\u{feff}max-per-file = 3\n",
    "max-per-file = 3\r\nskip-binary = false\r\n",
    "colour = true",
    "\n\ncolour = true\n",
    "max-per-file = -1",
    "max-per-file = 1.5",
    "max-per-file = 1e3",
    "max-per-file = \"x\"",
    "max-per-file = true",
    "max-per-file = [1]",
    "max-per-file = {a=1}",
    "max-per-file = 1979-05-27",
    "max-per-file = 1979-05-27 07:32:00Z",
    "max-per-file = 1\nmax-per-file = 2",
    "max-per-file = 99999999999999999999",
    "max-per-file = 0x10",
    "max-per-file = 0o17",
    "max-per-file = 1_000",
    "max-per-file = +5",
    "max-per-file = inf",
    "max-per-file = nan",
    "max-per-file = 0",
    "max-per-file.x = 1",
    "max-per-file = 1\nmax-per-file.x = 2",
    "[max-per-file]\n",
    "skip-binary = 1",
    "root = \"yes\"",
    "root = true\n",
    "exclude = \"x\"",
    "exclude = [1]",
    "exclude = [\"a\", 2]",
    "exclude = [[\"a\"]]",
    "exclude = [{a = 1}]",
    "exclude = []",
    "exclude = [\n  \"vendor/**\", # third party\n  \"*.min.js\",\n]\n",
    "exclude = [\"\"\"a\"\"\", '''b''']",
    "[[exclude]]\n",
    "[exclude]\n",
    "agent-instructions = [\"prompts/**/*.md\"]\n",
    "lints = 3",
    "lints = []",
    "lints = { U001 = \"deny\", stray_feff = \"warn\" }\n",
    "lints = { U001 = \"deny\", U001 = \"warn\" }\n",
    "[lints]\nU001 = 3",
    "[lints]\nU001 = \"deny\"\nU001 = \"warn\"",
    "[lints]\nU001 = \"deny\"\ninvalid_utf8 = \"warn\"",
    "[lints]\n[lints]",
    "[lints]\nnot_a_rule = \"deny\"\n",
    "[lints]\nU001 = \"loud\"\n",
    "lints.U001 = \"deny\"",
    "lints.U001 = \"deny\"\n[lints]\n",
    "lints.U001 = \"deny\"\nlints.U002 = \"warn\"\n",
    "lints.U001 = \"deny\"\nlints.U001.x = \"warn\"\n",
    "[lints.U001]\nx = 1",
    "[[lints]]\nU001 = \"deny\"",
    "lints = { U001 = \"deny\" }\n[lints]",
    "lints = { U001 = \"deny\" }\nlints.U002 = \"deny\"\n",
    "[per-file-lints]\n\"a\" = 3",
    "[per-file-lints]\n\"a\" = [\"U001\", 3]",
    "[per-file-lints]\n\"a\" = [\"U001\", \"nope\"]",
    "[per-file-lints]\n\"a\" = { U001 = 3 }",
    "[per-file-lints]\n\"a\" = { U001 = \"deny\", U002 = \"warn\" }\n\"b\" = []\n",
    "[per-file-lints.\"a/**\"]\nU001 = \"deny\"",
    "[per-file-lints.\"a/**\"]\nU001 = \"deny\"\n[per-file-lints.\"b\"]\nU002 = \"warn\"\n",
    "[per-file-lints.\"a\"]\nU001 = \"deny\"\n[per-file-lints]\n\"b\" = [\"U002\"]\n",
    "[per-file-lints.\"a\"]\nU001 = \"deny\"\n[per-file-lints]\n\"a\" = [\"U002\"]\n",
    "[per-file-lints.\"a\"]\n[per-file-lints.\"a\"]\n",
    "[per-file-lints]\n\"a/**\".U001 = \"deny\"",
    "[per-file-lints]\n\"a\".U001 = \"deny\"\n\"b\" = [\"U003\"]\n\"a\".U002 = \"warn\"\n",
    "[per-file-lints]\n\"a\".U001 = \"deny\"\n[per-file-lints.\"a\"]\n",
    "[per-file-lints.\"a\".U001]\n",
    "[[per-file-lints.\"a\"]]\n",
    "per-file-lints = { \"a\".U001 = \"deny\", \"a\".U002 = \"warn\" }\n",
    "per-file-lints = { \"a\" = { U001 = \"deny\" }, \"a\".U002 = \"warn\" }\n",
    "[per-file-lints]\n\"[\" = [\"U001\"]\n",
    "[bom]\n\"*.csv\" = 3",
    "[bom]\n\"*.csv\" = \"require\"\n\"*.csv\" = \"forbid\"",
    "[bom]\n\"*.csv\" = \"sometimes\"\n",
    "[bom]\n\"[\" = \"forbid\"\n",
    "[bom.\"x\"]\n",
    "bom = { \"x\" = \"forbid\" }\nbom.\"y\" = \"allow\"",
    "[bom]\n\"\\u0041\" = \"allow\"\n'A' = \"forbid\"",
    "[bom]\n\"\\q\" = \"allow\"\n",
    "trace = { server = \"x\" }",
    "\n[trace]\nserver = \"x\"",
    "[trace.a.b]\nx = [1, {y = 2}]\n[[trace.c]]\n",
    "path = 3",
    "workspace-scan = 3",
    "workspace-scan = false",
    "perFileLints = { \"a\" = [\"U001\"] }",
    "maxPerFile = 4",
    "skipBinary = true\n",
    "a = ",
    "= 1",
    "[lints\n",
    "[lints]]\n",
    "max-per-file = 3 4\n",
    "x = [",
    "exclude = [\"a\" \"b\"]\n",
    "exclude = [\"a\",,]\n",
    "lints = { U001 = \"deny\",, }\n",
    "lints = {\n  U001 = \"deny\",\n}\n",
    "[lints]\n\"U001\" = 'deny'",
    "[\"lints\"]\n'U001' = \"deny\"\n",
    "[ lints ]\nU001 = \"deny\"\n",
    "[ [lints] ]\n",
    "max-per-file = 3 # a cap\n",
    "max-per-file = 3\u{7}\n",
    "# a comment with a bell \u{7}\n",
    "max-per-file = \"\"\"\n3\"\"\"\n",
    "exclude = ['''\nmulti\nline''']\n",
];

#[test]
fn each_case_reads_as_the_toml_crate_reads_it() {
    for case in CASES {
        // Two problems in one: a parser's error and the schema's.
        let exact = !matches!(*case, "a = " | "max-per-file = 1\nmaxPerFile = 2");
        assert_agree(case, exact);
    }
}

#[test]
fn dotted_keys_at_the_toml_crate_s_limit_read_as_it_reads_them() {
    for n in [78, 79, 80, 81] {
        let key = vec!["trace"; n].join(".");
        assert_agree(&format!("{key} = 1\n"), true);
        assert_agree(&format!("[{key}]\n"), true);
        let key = vec!["lints"; n].join(".");
        assert_agree(&format!("{key} = 1\n"), true);
    }
}

#[test]
fn an_alias_set_twice_names_the_line_and_key_of_the_second() {
    // The toml crate's reading said line 1 and no key.
    let e = parse_toml(
        "max-per-file = 1\nmaxPerFile = 2\n",
        Path::new("/p/utf8lint.toml"),
    )
    .unwrap_err();
    assert_eq!(
        (e.line, e.key.as_deref(), e.message.as_str()),
        (
            Some(2),
            Some("maxPerFile"),
            "duplicate field `max-per-file`"
        )
    );
}

/// The repository's own `utf8lint.toml` and every ```toml example in the
/// docs.
#[test]
fn the_repository_s_file_and_the_docs_examples_read_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let own = std::fs::read_to_string(root.join("utf8lint.toml")).unwrap();
    assert!(ours(&own).is_ok(), "{:?}", ours(&own));
    assert_agree(&own, true);
    let mut examples = 0;
    for page in [
        "docs/configuration.md",
        "docs/rules.md",
        "docs/editors.md",
        "README.md",
    ] {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        for block in text.split("```toml\n").skip(1) {
            let body = block.split("```").next().unwrap();
            assert_agree(body, true);
            examples += 1;
        }
    }
    assert!(examples >= 5, "{examples} examples");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Lines that may stand in many places, good and bad: together they make
/// documents that use every form the schema accepts, and break it.
const PIECES: &[&str] = &[
    "[lints]",
    "[bom]",
    "[per-file-lints]",
    "[per-file-lints.\"g/*.txt\"]",
    "[per-file-lints.'h/**']",
    "[perFileLints]",
    "[trace]",
    "[lints.U001]",
    "[[bom]]",
    "U001 = \"deny\"",
    "stray_feff = \"allow\"",
    "U002 = 'warn'",
    "U003 = \"sometimes\"",
    "nope = \"deny\"",
    "\"*.csv\" = \"require\"",
    "\"*.csv\" = [\"U001\"]",
    "\"docs/*.txt\" = { U001 = \"allow\" }",
    "\"g/*.txt\".U002 = \"deny\"",
    "'x/**' = [\"U001\", \"stray_feff\"]",
    "\"[\" = \"forbid\"",
    "max-per-file = 5",
    "maxPerFile = 6",
    "skip-binary = false",
    "root = true",
    "exclude = [\"vendor/**\", \"*.min.js\"]",
    "agent-instructions = [\"prompts/*.md\"]",
    "lints.U001 = \"warn\"",
    "bom.\"*.txt\" = \"forbid\"",
    "per-file-lints.\"k\" = [\"U002\"]",
    "lints = { U002 = \"deny\" }",
    "x = 1",
    "# comment",
    "",
    "exclude = [",
    "]",
    "= \"v\"",
    "\"unterminated = 1",
];

#[test]
fn generated_documents_read_as_the_toml_crate_reads_them() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    for _ in 0..4_000 {
        let lines = 1 + rng.next() % 8;
        let text: String = (0..lines)
            .map(|_| format!("{}\n", rng.pick(PIECES)))
            .collect();
        if ours(&text).is_ok() {
            accepted += 1;
        }
        assert_agree(&text, false);
    }
    // Enough of them are settings, not only refusals.
    assert!(accepted > 200, "{accepted} accepted");
}

/// Lists long enough to be read token by token (`exclude = [...]` of
/// thousands of globs) read as the toml crate reads them, and so do the
/// same lists with one fault each.
#[test]
fn long_lists_read_as_the_toml_crate_reads_them() {
    let items: Vec<String> = (0..1_500)
        .map(|i| match i % 4 {
            0 => format!("\"dir{i}/**\""),
            1 => format!("'lit{i}/*.js'"),
            2 => format!("\"\"\"ml{i}\"\"\""),
            _ => format!("'''m\nl{i}'''"),
        })
        .collect();
    let body = items.join(", ");
    let multiline = items.join(",\n  # a comment\n  ");
    let rules = vec!["\"U001\""; 1_500].join(",");
    let good = [
        format!("exclude = [{body}]\n"),
        format!("exclude = [{body},]\n"),
        format!("exclude=[{body}] # trailing\n"),
        format!("  \"exclude\" = [\n  {multiline},\n]\nmax-per-file = 2\n"),
        format!("agent-instructions = [{body}]"),
        format!("[per-file-lints]\n\"a/*\" = [{rules}]\n'b' . \"c\" = {{ U001 = \"deny\" }}\n"),
        format!("per-file-lints.\"x/**\" = [{rules}]\r\n"),
        format!("trace = [{body}]\n"),
        format!("exclude = [{body}]\r\n[lints]\nU001 = \"deny\"\n"),
    ];
    for text in &good {
        assert_agree(text, true);
    }
    assert!(ours(&good[0]).is_ok());
    let faults = [
        format!("exclude = [{body}, 3]\n"),
        format!("exclude = [{body},, \"x\"]\n"),
        format!("exclude = [{body} \"x\"]\n"),
        format!("exclude = [{body}] x\n"),
        format!("exclude = [{body}, \"\\q\"]\n"),
        format!("exclude = [{body}] # bell \u{7}\n"),
        format!("exclude = [{body}\n"),
        format!("exclude = [{body}, [\"x\"]]\n"),
        format!("colour = [{body}]\n"),
        format!("max-per-file = [{body}]\n"),
        format!("lints = [{body}]\n"),
        format!("[per-file-lints]\n\"a/*\" = [{rules}, \"nope\"]\n"),
        format!("exclude = [{body}]\nexclude = [\"y\"]\n"),
        format!("exclude.x = [{body}]\n"),
        format!("exclude = [{body}, \"x\"\r]\n"),
    ];
    for text in &faults {
        assert!(ours(text).is_err(), "{:?}", &text[..60]);
        assert_agree(text, true);
    }
}
