//! What is generated rather than written by hand, so that it can never
//! disagree with its source. `utf8lint completions SHELL` and `utf8lint
//! manpage` come from the clap definition in `args.rs` (clap_complete,
//! clap_mangen). The hidden `utf8lint generate` writes the repository's
//! files made from the rule table: `docs/rules.md` (with the
//! explanations), the VS Code `utf8lint.lints` schema, and the editors'
//! READMEs' rule lists; `generate --check` (run by a test) fails when one
//! has drifted.

use std::io::Write;

use clap::CommandFactory;

use utf8lint_diagnostics::Rule;

use crate::args::Cli;

pub(crate) fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "utf8lint", &mut out);
    write_stdout(&out)
}

/// One page: the program's (name, synopsis, description, options, the list
/// of subcommands, version), then a section per subcommand with its
/// synopsis and options, since `check`'s options are the ones people look
/// up and `man utf8lint` is where they look.
pub(crate) fn manpage() -> anyhow::Result<u8> {
    let command = Cli::command();
    let mut top = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut top)?;
    let mut top = String::from_utf8(top)?;
    // The list of subcommands points at pages of their own
    // (`utf8lint-check(1)`); here they are sections of this page.
    for sub in command.get_subcommands() {
        top = top.replace(
            &format!("utf8lint\\-{}(1)", sub.get_name()),
            &format!("utf8lint {}", sub.get_name()),
        );
    }
    let mut out = top.into_bytes();
    for sub in command.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let name = format!("utf8lint {}", sub.get_name());
        let page = clap_mangen::Man::new(sub.clone().name(name.clone()).bin_name(name.clone()));
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section)?;
        page.render_options_section(&mut section)?;
        let section = String::from_utf8(section)?
            .replace(".SH SYNOPSIS", &format!(".SH \"{}\"", name.to_uppercase()))
            .replace(".SH OPTIONS", ".SS Options");
        out.extend_from_slice(section.as_bytes());
    }
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(0)
}

/// The files made from the rule table (and U016's tables, from the
/// `unicode-security` crate's), relative to the repository's root.
const GENERATED: &[(&str, Generator)] = &[
    ("docs/rules.md", |_| Ok(rules_reference())),
    ("editors/vscode/package.json", vscode_package),
    ("editors/vscode/README.md", readme_rules),
    ("editors/neovim/README.md", readme_rules),
    ("crates/diagnostics/src/rules/confusable/tables.rs", |_| {
        Ok(utf8lint_diagnostics::confusable_tables_source())
    }),
];

/// Makes a file's new text from its current text.
type Generator = fn(&str) -> anyhow::Result<String>;

/// The command that regenerates them, named in the drift test's failure.
pub(crate) const REGENERATE: &str = "cargo run -- generate";

/// `utf8lint generate [--check]`: writes the generated files under `root`,
/// or with `check` says which differ from what the rule table gives (exit
/// 1) and writes nothing.
pub(crate) fn generate(root: &std::path::Path, check: bool) -> anyhow::Result<u8> {
    use anyhow::Context as _;
    let mut stale = Vec::new();
    for (path, make) in GENERATED {
        let file = root.join(path);
        let old = if matches!(
            *path,
            "docs/rules.md" | "crates/diagnostics/src/rules/confusable/tables.rs"
        ) && !file.exists()
        {
            String::new()
        } else {
            std::fs::read_to_string(&file).with_context(|| format!("cannot read {path}"))?
        };
        let new = make(&old).with_context(|| format!("cannot generate {path}"))?;
        if new == old {
            continue;
        }
        stale.push(*path);
        if !check {
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&file, new).with_context(|| format!("cannot write {path}"))?;
        }
    }
    let mut err = std::io::stderr().lock();
    match (check, stale.is_empty()) {
        (_, true) => writeln!(err, "utf8lint: the generated files match the rule table")?,
        (true, false) => {
            writeln!(
                err,
                "utf8lint: these files differ from what the rule table gives: {}\nutf8lint: run `{REGENERATE}` at the repository's root to regenerate them",
                stale.join(", ")
            )?;
            return Ok(1);
        }
        (false, false) => writeln!(err, "utf8lint: wrote {}", stale.join(", "))?,
    }
    Ok(0)
}

/// The levels a setting takes.
const LEVELS: [utf8lint_diagnostics::Level; 3] = [
    utf8lint_diagnostics::Level::Allow,
    utf8lint_diagnostics::Level::Warn,
    utf8lint_diagnostics::Level::Deny,
];

/// `docs/rules.md`: the table, then every rule's explanation, its headings
/// one level down under a heading of its own.
pub(crate) fn rules_reference() -> String {
    let mut out = String::from(
        "# Rules\n\n<!-- Generated from the rule table (crates/diagnostics/src/rules/mod.rs) and crates/diagnostics/explanations/ by `utf8lint generate`: edit those, not this file. -->\n\n",
    );
    out.push_str(&format!(
        "utf8lint has {} rules. Each has a code that is never reused and a name; either sets its level (`allow`, `warn` or `deny`) on the command line (`-A`, `-W`, `-D`), in `utf8lint.toml`'s `[lints]` and `[per-file-lints]`, and in an editor's settings. `utf8lint rules` prints this table (`--format json` for programs) and `utf8lint explain CODE` one rule's explanation.\n\n",
        Rule::ALL.len()
    ));
    out.push_str("*Status*: `stable`, or `preview` for a rule whose findings may still change in a minor release (it runs at its level like any other).\n");
    out.push_str("*Fix*: whether findings come with a fix (`always`, `sometimes` or not at all) and whether `--fix` applies it (`safe`) or only `--fix --unsafe-fixes` does (`unsafe`); \"safe or unsafe\" depends on the finding, as its Fix safety section says.\n\n");
    out.push_str("| code | name | default level | status | fix | what it finds |\n| --- | --- | --- | --- | --- | --- |\n");
    for rule in Rule::ALL {
        out.push_str(&format!(
            "| [{code}](#{anchor}) | `{name}` | {level} | {status} | {fix} | {summary} |\n",
            code = rule.code(),
            anchor = anchor(*rule),
            name = rule.name(),
            level = rule.default_level().as_str(),
            status = rule.status().as_str(),
            fix = rule.fixability().describe(),
            summary = table_cell(rule.summary()),
        ));
    }
    for rule in Rule::ALL {
        out.push_str(&format!(
            "\n## {} `{}`\n\nDefault level: `{}`. Status: {}. Fix: {}.\n",
            rule.code(),
            rule.name(),
            rule.default_level().as_str(),
            rule.status().as_str(),
            rule.fixability().describe(),
        ));
        let mut fenced = false;
        // The explanation's title (`# U001 ...`) is replaced by the heading
        // above.
        for line in rule.explanation().lines().skip(1) {
            if line.starts_with("```") {
                fenced = !fenced;
            }
            if !fenced && line.starts_with('#') {
                out.push('#');
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str(&bom_table());
    out
}

/// The built-in byte-order-mark policy by format, from
/// `crates/diagnostics/src/rules/bom_formats.rs`.
fn bom_table() -> String {
    use utf8lint_diagnostics::{BOM_FORMATS, FileName, SHEBANG};
    let mut out = String::from(
        "\n## Byte-order marks by format\n\nWhat a leading UTF-8 byte-order mark does to each format's common consumers, and so what U003 (`forbid`) and U004 (`require-unless-ascii`) ask of its files when no configuration decides (`[bom]` in `utf8lint.toml`, `.editorconfig`'s `charset`). The first format whose files match a name is its format; ASCII case is ignored. *Tested with*: the consumer `tests/cli/bom_consumers.rs` runs on the file with and without the mark (the others cannot be installed on a Debian machine).\n\n| format | files | built-in | what a byte-order mark does | source | tested with |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for format in std::iter::once(&SHEBANG).chain(BOM_FORMATS) {
        let files: Vec<String> = format
            .files
            .iter()
            .map(|file| match file {
                FileName::Extension(e) => format!("`*.{e}`"),
                FileName::Exactly(name) => format!("`{name}`"),
                FileName::StartingWith(start) => format!("`{start}*`"),
                FileName::AnyIn(dir) => format!("`{dir}/*`"),
                FileName::In(dir, name) => format!("`{dir}/{name}`"),
            })
            .collect();
        let files = if files.is_empty() {
            "any file starting `#!`".to_owned()
        } else {
            files.join(", ")
        };
        out.push_str(&format!(
            "| {} | {} | `{}` | {} | {} | {} |\n",
            table_cell(format.format),
            table_cell(&files),
            format.policy.as_str(),
            table_cell(format.why),
            table_cell(format.reference),
            if format.tested_with.is_empty() {
                "".to_owned()
            } else {
                table_cell(format.tested_with)
            },
        ));
    }
    out
}

/// The anchor GitHub gives `## U001 `invalid_utf8``.
fn anchor(rule: Rule) -> String {
    format!("{}-{}", rule.code().to_ascii_lowercase(), rule.name())
}

/// Text in a Markdown table cell: a `|` would end the cell.
fn table_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The rule list of an editor's README, between its markers.
const BEGIN: &str = "<!-- begin rules: generated from the rule table by `utf8lint generate` -->";
const END: &str = "<!-- end rules -->";

fn readme_rules(old: &str) -> anyhow::Result<String> {
    let (Some(begin), Some(end)) = (old.find(BEGIN), old.find(END)) else {
        anyhow::bail!("the markers `{BEGIN}` and `{END}` are missing");
    };
    anyhow::ensure!(begin < end, "`{END}` comes before `{BEGIN}`");
    let mut list = String::from(
        "| code | name | default level | what it finds |\n| --- | --- | --- | --- |\n",
    );
    for rule in Rule::ALL {
        list.push_str(&format!(
            "| [{}]({}) | `{}` | {} | {} |\n",
            rule.code(),
            rule.url(),
            rule.name(),
            rule.default_level().as_str(),
            table_cell(rule.summary()),
        ));
    }
    Ok(format!("{}{BEGIN}\n{list}{}", &old[..begin], &old[end..]))
}

/// `package.json` with its `utf8lint.lints` setting's schema made from the
/// rule table: every rule's name and code, each with the levels and a
/// description, and nothing else accepted. The rest of the file is kept
/// (parsed and written back with its key order and two-space indent).
fn vscode_package(old: &str) -> anyhow::Result<String> {
    use serde_json::{Map, Value, json};
    let mut package: Value = serde_json::from_str(old)?;
    let lints = package
        .pointer_mut("/contributes/configuration/properties/utf8lint.lints")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| {
            anyhow::anyhow!("no contributes.configuration.properties[\"utf8lint.lints\"]")
        })?;
    let levels: Vec<&str> = LEVELS.iter().map(|l| l.as_str()).collect();
    let mut properties = Map::new();
    for key in [Rule::name, Rule::code] {
        for rule in Rule::ALL {
            properties.insert(
                key(*rule).to_owned(),
                json!({
                    "type": "string",
                    "enum": levels,
                    "markdownDescription": format!(
                        "`{}` `{}`: {}. Default: `{}`. [Explanation]({})",
                        rule.code(),
                        rule.name(),
                        rule.summary(),
                        rule.default_level().as_str(),
                        rule.url()
                    ),
                }),
            );
        }
    }
    lints.remove("propertyNames");
    lints.insert("properties".into(), Value::Object(properties));
    lints.insert("additionalProperties".into(), Value::Bool(false));
    // Two spaces, as npm writes it.
    let mut out = serde_json::to_string_pretty(&package)?;
    out.push('\n');
    Ok(out)
}
